//! Numbers out of range and records files shared by two runs: each is refused with a
//! clear error, never a panic, an allocation failure or a corrupted file.

use yomi_core::arena::{read_records, ArenaError, RecordLog, RoundRobin};
use yomi_core::registry::AgentRegistry;
use yomi_core::testing::Nim;

#[test]
fn mcts_threads_65536_is_a_spec_error_not_a_panic() {
    let game = Nim::new(8);
    let reg = AgentRegistry::with_core_agents();
    for spec in ["mcts:threads=65536", "mcts:threads=4294967296"] {
        let e = reg
            .build(&game, spec, 1)
            .err()
            .unwrap_or_else(|| panic!("{spec} built"));
        assert!(e.to_string().contains("at most 1024"), "{spec}: {e}");
    }
    assert!(reg.build(&game, "mcts:threads=2,iters=50", 1).is_ok());
}

#[test]
fn mcts_time_1e300_is_a_spec_error_not_a_panic() {
    let game = Nim::new(8);
    let reg = AgentRegistry::with_core_agents();
    for spec in ["mcts:time=1e300", "mcts:time=inf", "mcts:time=1e7"] {
        let e = reg
            .build(&game, spec, 1)
            .err()
            .unwrap_or_else(|| panic!("{spec} built"));
        assert!(e.to_string().contains("at most 1000000"), "{spec}: {e}");
    }
}

#[test]
fn a_match_of_4294967296_games_is_refused_without_allocating() {
    let game = Nim::new(8);
    let reg = AgentRegistry::with_core_agents();
    let cfg = RoundRobin::head_to_head("random", "flatmc:n=2")
        .games(4_294_967_296)
        .quiet(true);
    match cfg.run(&game, &reg) {
        Err(e @ ArenaError::Config(_)) => assert!(e.to_string().contains("at most"), "{e}"),
        Err(e) => panic!("expected a configuration error, got {e}"),
        Ok(_) => panic!("expected a configuration error, the run went ahead"),
    }
    assert!(cfg.schedule(2).is_empty());
    let threads = RoundRobin::head_to_head("random", "flatmc:n=2")
        .games(2)
        .threads(4_294_967_296)
        .quiet(true);
    match threads.run(&game, &reg) {
        Err(e @ ArenaError::Config(_)) => assert!(e.to_string().contains("threads"), "{e}"),
        Err(e) => panic!("expected a configuration error, got {e}"),
        Ok(_) => panic!("expected a configuration error, the run went ahead"),
    }
}

#[test]
fn games_and_threads_out_of_range_in_a_file_are_refused() {
    let e = serde_json::from_str::<RoundRobin>(
        r#"{"agents": ["random", "mcts"], "games": 9223372036854775807}"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("at most"), "{e}");
    let e = serde_json::from_str::<RoundRobin>(
        r#"{"agents": ["random", "mcts"], "threads": 4294967296}"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("at most 1024"), "{e}");
    let ok: RoundRobin =
        serde_json::from_str(r#"{"agents": ["random"], "games": 10, "threads": 2}"#).unwrap();
    assert_eq!((ok.games, ok.threads), (10, Some(2)));
}

#[test]
fn a_second_run_on_a_locked_records_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("records.jsonl");
    let game = Nim::new(8);
    let reg = AgentRegistry::with_core_agents();
    let cfg = RoundRobin::head_to_head("random", "flatmc:n=3")
        .games(4)
        .seed(5)
        .threads(1)
        .quiet(true)
        .out(&path);
    // Another run holds the file.
    let held = RecordLog::lock(&path).unwrap();
    match cfg.run(&game, &reg) {
        Err(e @ ArenaError::Io { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains("locked"), "{msg}");
            assert!(msg.contains("records.jsonl"), "{msg}");
        }
        Err(e) => panic!("expected the lock error, got {e}"),
        Ok(_) => panic!("a second writer was let in"),
    }
    assert!(read_records(&path).unwrap().is_empty(), "nothing written");
    drop(held);
    // Once the first run is over the file is free.
    let r = cfg.run(&game, &reg).unwrap();
    assert_eq!(r.played, 4);
    assert_eq!(read_records(&path).unwrap().len(), 4);
}

#[test]
fn two_concurrent_runs_on_one_file_leave_a_file_that_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("records.jsonl");
    let game = Nim::new(10);
    let reg = AgentRegistry::with_core_agents();
    let cfg = RoundRobin::head_to_head("random", "flatmc:n=20")
        .games(40)
        .seed(9)
        .threads(1)
        .quiet(true)
        .out(&path);
    let outcomes: Vec<Result<usize, String>> = std::thread::scope(|s| {
        let runs: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    cfg.run(&game, &reg)
                        .map(|r| r.played)
                        .map_err(|e| e.to_string())
                })
            })
            .collect();
        runs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    // At most one of them wrote; the other, if it overlapped, was refused.
    for o in &outcomes {
        if let Err(e) = o {
            assert!(e.contains("locked"), "{e}");
        }
    }
    assert!(outcomes.iter().any(Result::is_ok), "{outcomes:?}");
    // The file holds each game once, and resumes with nothing to play.
    let records = read_records(&path).unwrap();
    let mut keys: Vec<_> = records.iter().map(|r| (r.pairing, r.index)).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), records.len(), "a game written twice");
    let again = cfg.run(&game, &reg).unwrap();
    assert_eq!(again.played + again.resumed, 40);
}
