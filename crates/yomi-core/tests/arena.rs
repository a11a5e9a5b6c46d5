//! Arena tests: reproducible matches, alternating colors, resuming an interrupted run,
//! configuration checks, forfeits, the turn limit, multi-player rotation and reports.

use std::fs;
use std::path::Path;
use std::sync::LazyLock;

use yomi_core::agent::{Agent, AgentError};
use yomi_core::arena::{
    play_game, read_records, ArenaError, GameRecord, RoundRobin, SeatResult, TableFormat,
    Termination,
};
use yomi_core::registry::AgentRegistry;
use yomi_core::testing::{MatrixGame, Nim, NimState, SecretGuess};
use yomi_core::{
    Dynamics, Game, GameFacts, Information, NotationError, Player, Rewards, Turn, Utility,
};

fn timeless(records: &[GameRecord]) -> Vec<GameRecord> {
    records.iter().map(GameRecord::without_timing).collect()
}

fn file_records_sorted(path: &Path) -> Vec<GameRecord> {
    let mut r = read_records(path).unwrap();
    r.sort_by_key(|r| (r.pairing, r.index));
    timeless(&r)
}

#[test]
fn same_seed_replays_the_same_round_robin() {
    let dir = tempfile::tempdir().unwrap();
    let game = Nim::new(10);
    let reg = AgentRegistry::with_core_agents();
    let cfg = RoundRobin::new(["random", "mcts:iters=50", "flatmc:n=5"])
        .games(4)
        .seed(7)
        .quiet(true);
    let a = cfg
        .clone()
        .threads(3)
        .out(dir.path().join("a.jsonl"))
        .run(&game, &reg)
        .unwrap();
    let b = cfg
        .clone()
        .threads(1)
        .out(dir.path().join("b.jsonl"))
        .run(&game, &reg)
        .unwrap();
    assert_eq!(a.records.len(), 12); // 3 pairings × 4 games
    assert_eq!((a.played, a.resumed), (12, 0));
    assert_eq!(timeless(&a.records), timeless(&b.records));
    // The files hold the same games (in completion order, which may differ).
    assert_eq!(
        file_records_sorted(&dir.path().join("a.jsonl")),
        timeless(&a.records)
    );
    assert_eq!(
        file_records_sorted(&dir.path().join("b.jsonl")),
        timeless(&b.records)
    );
    // Another seed gives other games.
    let c = cfg.seed(8).threads(2).run(&game, &reg).unwrap();
    assert_ne!(timeless(&a.records), timeless(&c.records));
    // Records are well formed.
    for r in &a.records {
        assert_eq!(r.game, "nim");
        assert_eq!(r.termination, Termination::Terminal);
        assert_eq!(r.moves.len(), r.turns);
        assert_eq!(r.returns.iter().sum::<f64>(), 0.0);
        assert_eq!(r.seat_moves.iter().sum::<usize>(), r.turns);
        assert_eq!(
            r.final_state,
            format!("0 {}", if r.turns % 2 == 0 { 0 } else { 1 })
        );
        let stones: u32 = r.moves.iter().map(|m| m.parse::<u32>().unwrap()).sum();
        assert_eq!(stones, 10);
    }
}

#[test]
fn colors_alternate_and_pairings_are_stable() {
    let game = Nim::new(9);
    let reg = AgentRegistry::with_core_agents();
    let res = RoundRobin::head_to_head("random", "flatmc:n=5")
        .games(6)
        .seed(3)
        .quiet(true)
        .run(&game, &reg)
        .unwrap();
    for r in &res.records {
        assert_eq!(r.pairing, 0);
        let expected = if r.index % 2 == 0 {
            ["random", "flatmc:n=5"]
        } else {
            ["flatmc:n=5", "random"]
        };
        assert_eq!(r.seats, expected, "game {}", r.index);
    }
    // Round robin: pairs in colex order, each with alternating colors; appending an agent
    // keeps the pairing numbers and seeds of the others.
    let three = RoundRobin::new(["a", "b", "c"]).games(2).seed(5);
    let s3 = three.schedule(2);
    let pairs: Vec<(usize, usize, Vec<usize>)> = s3
        .iter()
        .map(|g| (g.pairing, g.index, g.seats.clone()))
        .collect();
    assert_eq!(
        pairs,
        vec![
            (0, 0, vec![0, 1]),
            (0, 1, vec![1, 0]),
            (1, 0, vec![0, 2]),
            (1, 1, vec![2, 0]),
            (2, 0, vec![1, 2]),
            (2, 1, vec![2, 1]),
        ]
    );
    let s4 = RoundRobin::new(["a", "b", "c", "d"])
        .games(2)
        .seed(5)
        .schedule(2);
    assert_eq!(s4.len(), 12);
    assert_eq!(&s4[..6], &s3[..]);
    // More games per pairing keep the seeds of the first ones.
    let s3_more = three.clone().games(5).schedule(2);
    for g in &s3 {
        assert!(s3_more.contains(g));
    }
}

#[test]
fn killed_run_resumes_without_losing_or_replaying_games() {
    const N: usize = 10;
    const K: usize = 4;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("records.jsonl");
    let game = Nim::new(10);
    let reg = AgentRegistry::with_core_agents();
    let cfg = RoundRobin::head_to_head("mcts:iters=50", "random")
        .games(N)
        .seed(11)
        .threads(2)
        .quiet(true)
        .out(&path);
    let full = cfg.run(&game, &reg).unwrap();
    assert_eq!(full.played, N);

    // Simulate a kill: keep the first K lines and half of the next one.
    let text = fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    assert_eq!(lines.len(), N);
    let kept: String = lines[..K].concat();
    let partial = &lines[K][..lines[K].len() / 2];
    fs::write(&path, format!("{kept}{partial}")).unwrap();
    assert_eq!(read_records(&path).unwrap().len(), K);

    let rerun = cfg.run(&game, &reg).unwrap();
    assert_eq!(rerun.resumed, K);
    assert_eq!(rerun.played, N - K);
    assert_eq!(rerun.records.len(), N);
    assert_eq!(timeless(&rerun.records), timeless(&full.records));

    let after = fs::read_to_string(&path).unwrap();
    assert!(
        after.starts_with(&kept),
        "the first {K} lines must be byte-identical"
    );
    assert!(after.ends_with('\n'));
    let after_lines: Vec<&str> = after.lines().collect();
    assert_eq!(after_lines.len(), N, "no partial line left behind");
    let mut keys: Vec<usize> = read_records(&path)
        .unwrap()
        .iter()
        .map(|r| r.index)
        .collect();
    keys.sort_unstable();
    assert_eq!(keys, (0..N).collect::<Vec<_>>());

    // A third run plays nothing.
    let again = cfg.run(&game, &reg).unwrap();
    assert_eq!((again.played, again.resumed), (0, N));
    assert_eq!(fs::read_to_string(&path).unwrap(), after);
}

#[test]
fn a_records_file_of_another_configuration_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("records.jsonl");
    let game = Nim::new(8);
    let reg = AgentRegistry::with_core_agents();
    let cfg = RoundRobin::head_to_head("random", "flatmc:n=5")
        .games(4)
        .seed(1)
        .quiet(true)
        .out(&path);
    cfg.run(&game, &reg).unwrap();
    // A partial last line must survive a refused run too: nothing is touched.
    let mut f = fs::OpenOptions::new().append(true).open(&path).unwrap();
    std::io::Write::write_all(&mut f, br#"{"version":1,"game":"ni"#).unwrap();
    drop(f);
    let before = fs::read_to_string(&path).unwrap();
    let is_mismatch = |r: Result<_, ArenaError>, what: &str| match r {
        Err(e @ ArenaError::Mismatch { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains(what), "{msg}");
        }
        Err(e) => panic!("expected a mismatch, got {e}"),
        Ok(_) => panic!("expected a mismatch, the run went ahead"),
    };
    is_mismatch(cfg.clone().seed(2).run(&game, &reg), "seed");
    is_mismatch(
        RoundRobin::head_to_head("random", "mcts:iters=50")
            .games(4)
            .seed(1)
            .quiet(true)
            .out(&path)
            .run(&game, &reg),
        "seats",
    );
    is_mismatch(cfg.clone().games(2).run(&game, &reg), "does not schedule");
    is_mismatch(cfg.run(&Nim::new(9), &reg), "variant");
    is_mismatch(cfg.clone().turn_limit(3).run(&game, &reg), "turn limit");
    // Nothing was played or written by the refused runs.
    assert_eq!(fs::read_to_string(&path).unwrap(), before);
    // More games per pairing extend the file.
    let more = cfg.clone().games(6).run(&game, &reg).unwrap();
    assert_eq!((more.resumed, more.played), (4, 2));

    // A damaged complete line is an error with its line number, not silently skipped.
    let mut lines: Vec<String> = fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    lines[1] = "{not json".into();
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    match cfg.games(6).run(&game, &reg) {
        Err(e @ ArenaError::BadRecord { line: 2, .. }) => assert!(e.to_string().contains("line 2")),
        other => panic!(
            "expected a bad record on line 2, got {:?}",
            other.map(|r| r.played)
        ),
    }
}

#[test]
fn bad_configurations_are_explained() {
    let game = Nim::new(5);
    let reg = AgentRegistry::with_core_agents();
    let err = RoundRobin::head_to_head("random", "mtcs")
        .quiet(true)
        .run(&game, &reg)
        .unwrap_err();
    assert!(matches!(err, ArenaError::Spec { .. }), "{err}");
    assert!(err.to_string().contains("accepted"), "{err}");
    let err = RoundRobin::head_to_head("x=random", "x=flatmc")
        .run(&game, &reg)
        .unwrap_err();
    assert!(err.to_string().contains("given to two agents"), "{err}");
    let err = RoundRobin::new(Vec::<String>::new())
        .run(&game, &reg)
        .unwrap_err();
    assert!(matches!(err, ArenaError::Entrant(_)), "{err}");
}

#[test]
fn an_agent_plays_itself_under_two_labels() {
    let game = Nim::new(7);
    let reg = AgentRegistry::with_core_agents();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("self.jsonl");
    let cfg = RoundRobin::head_to_head("flatmc:n=3", " flatmc:n = 3")
        .games(4)
        .seed(2)
        .quiet(true)
        .out(&path);
    let result = cfg.run(&game, &reg).unwrap();
    assert_eq!(result.agents, ["flatmc:n=3", "flatmc:n=3#2"]);
    assert_eq!(result.records[1].seats, ["flatmc:n=3#2", "flatmc:n=3"]);
    assert_eq!(result.records[1].seat_specs(), ["flatmc:n=3", "flatmc:n=3"]);
    let wdl = |i: usize| {
        result
            .standings
            .rows
            .iter()
            .find(|r| r.agent == result.agents[i])
    };
    assert_eq!(wdl(0).unwrap().wdl.games() + wdl(1).unwrap().wdl.games(), 8);
    let again = cfg.run(&game, &reg).unwrap();
    assert_eq!((again.played, again.resumed), (0, 4));
    // Another spec behind the same label is another configuration.
    let labelled = |b: &str| {
        RoundRobin::head_to_head("random", b)
            .games(2)
            .quiet(true)
            .out(dir.path().join("labelled.jsonl"))
    };
    let first = labelled("b=flatmc:n=3").run(&game, &reg).unwrap();
    assert_eq!(first.records[0].seats, ["random", "b"]);
    assert_eq!(first.records[0].specs, ["random", "flatmc:n=3"]);
    let err = labelled("b=flatmc:n=4").run(&game, &reg).unwrap_err();
    assert!(
        err.to_string().contains("this configuration plays"),
        "{err}"
    );
}

#[test]
fn records_written_before_labels_still_resume() {
    // A record as files held them before labels: seats are canonical specs, no `specs`.
    let game = Nim::new(5);
    let reg = AgentRegistry::with_core_agents();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.jsonl");
    let cfg = RoundRobin::head_to_head("random", "flatmc:n=2")
        .games(2)
        .seed(4)
        .quiet(true)
        .out(&path);
    let fresh = cfg.run(&game, &reg).unwrap();
    let text = fs::read_to_string(&path).unwrap();
    assert!(!text.contains("\"specs\""), "{text}");
    // Keep the first game only, as a run killed after one game would have.
    let first = text.lines().next().unwrap();
    fs::write(&path, format!("{first}\n")).unwrap();
    let resumed = cfg.run(&game, &reg).unwrap();
    assert_eq!((resumed.played, resumed.resumed), (1, 1));
    assert_eq!(timeless(&resumed.records), timeless(&fresh.records));
}

#[test]
fn alphabeta_at_full_depth_never_loses_a_winning_nim_heap() {
    // 7 stones: the first player wins by leaving a multiple of 4. Depth 8 ≥ the longest
    // game (7 turns), so alpha-beta searches to the end.
    let game = Nim::new(7);
    let reg = AgentRegistry::with_core_agents();
    let res = RoundRobin::head_to_head("alphabeta:depth=8", "random")
        .games(30)
        .seed(99)
        .quiet(true)
        .run(&game, &reg)
        .unwrap();
    for r in res
        .records
        .iter()
        .filter(|r| r.seats[0] == "alphabeta:depth=8")
    {
        assert_eq!(r.results, [SeatResult::Win, SeatResult::Loss], "{r:?}");
        assert_eq!(r.moves[0], "3", "alpha-beta leaves 4 stones");
    }
    let top = &res.standings.rows[0];
    assert_eq!(top.agent, "alphabeta:depth=8");
    assert!(top.wdl.wins >= 15);
}

#[test]
fn simultaneous_and_hidden_information_games() {
    let reg = AgentRegistry::with_core_agents();
    let pd = MatrixGame::prisoners_dilemma();
    let res = RoundRobin::head_to_head("random", "mcts:iters=50")
        .games(6)
        .seed(4)
        .quiet(true)
        .run(&pd, &AgentRegistry::with_core_agents())
        .unwrap();
    for r in &res.records {
        assert_eq!(r.turns, 1);
        assert_eq!(r.moves.len(), 1);
        let m = &r.moves[0];
        assert!(
            ["[0 0]", "[0 1]", "[1 0]", "[1 1]"].contains(&m.as_str()),
            "joint move notation: {m}"
        );
        assert_eq!(r.seat_moves, [1, 1]);
    }
    let sg = SecretGuess { n: 3 };
    let res = RoundRobin::new(["flatmc:n=5", "mcts:iters=50", "random"])
        .games(4)
        .seed(4)
        .quiet(true)
        .run(&sg, &reg)
        .unwrap();
    assert_eq!(res.records.len(), 12);
    assert!(res
        .records
        .iter()
        .all(|r| r.termination == Termination::Terminal && r.turns == 2));
}

/// An agent that plays one fixed move (possibly illegal) or fails.
struct Stubborn(Option<u32>);

impl Agent<Nim> for Stubborn {
    fn name(&self) -> String {
        "stubborn".into()
    }
    fn select_move(&mut self, _: &Nim, _: &NimState, _: Player) -> Result<u32, AgentError> {
        self.0.ok_or(AgentError::Quit)
    }
}

#[test]
fn illegal_moves_and_agent_errors_lose_the_game() {
    let game = Nim::new(5);
    let reg = AgentRegistry::<Nim>::with_core_agents();
    // Seat 1 plays 7 stones: illegal.
    let mut seats: Vec<Box<dyn Agent<Nim>>> = vec![
        reg.build(&game, "random", 1).unwrap(),
        Box::new(Stubborn(Some(7))),
    ];
    let g = play_game(&game, &mut seats, 100).unwrap();
    match &g.termination {
        Termination::IllegalMove {
            seat: 1,
            mv,
            reason,
        } => {
            assert_eq!(mv, "7");
            assert!(!reason.is_empty());
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(g.returns, [1.0, -1.0]);
    assert_eq!(g.results, [SeatResult::Win, SeatResult::Loss]);
    assert_eq!(g.turns, 1);
    assert_eq!(
        g.moves.len(),
        1,
        "the illegal move is not recorded as played"
    );
    // Seat 0 quits.
    let mut seats: Vec<Box<dyn Agent<Nim>>> = vec![
        Box::new(Stubborn(None)),
        reg.build(&game, "random", 1).unwrap(),
    ];
    let g = play_game(&game, &mut seats, 100).unwrap();
    assert!(
        matches!(g.termination, Termination::AgentError { seat: 0, .. }),
        "{:?}",
        g.termination
    );
    assert_eq!(g.results, [SeatResult::Loss, SeatResult::Win]);
    assert_eq!(g.turns, 0);
    // The wrong number of seats is an error, not a panic.
    let mut one: Vec<Box<dyn Agent<Nim>>> = vec![Box::new(Stubborn(Some(1)))];
    assert!(matches!(
        play_game(&game, &mut one, 100),
        Err(ArenaError::Config(_))
    ));
    // A records round trip keeps the termination.
    let rec = GameRecord::new("nim", "x", 0, 0, 1, vec!["a".into(), "b".into()], 100, g);
    let line = serde_json::to_string(&rec).unwrap();
    assert!(
        line.contains(r#""termination":{"kind":"agent_error","seat":0"#),
        "{line}"
    );
    let back: GameRecord = serde_json::from_str(&line).unwrap();
    assert_eq!(back, rec);
}

#[test]
fn the_turn_limit_scores_the_state_reached() {
    let game = Nim::new(20);
    let reg = AgentRegistry::with_core_agents();
    let res = RoundRobin::head_to_head("random", "flatmc:n=5")
        .games(4)
        .turn_limit(3)
        .quiet(true)
        .run(&game, &reg)
        .unwrap();
    for r in &res.records {
        assert_eq!(r.termination, Termination::TurnLimit);
        assert_eq!(r.turns, 3);
        assert_eq!(r.turn_limit, 3);
        assert_eq!(r.returns, [0.0, 0.0], "Nim's provisional value is a draw");
        assert_eq!(r.results, [SeatResult::Draw, SeatResult::Draw]);
    }
    assert_eq!(res.terminations(), (0, 4, 0));
    assert_eq!(res.standings.rows[0].wdl.draws, 4);
}

/// Three players pick 0, 1 or 2 in turn; each player's reward is its pick (general sum).
#[derive(Clone, Copy, Debug)]
struct PickThree;

impl Game for PickThree {
    type State = Vec<u8>;
    type Move = u8;
    fn facts(&self) -> &GameFacts {
        static FACTS: LazyLock<GameFacts> = LazyLock::new(|| GameFacts {
            name: "pick-three".into(),
            players: 3,
            player_names: vec![],
            dynamics: Dynamics::Sequential,
            information: Information::Perfect,
            utility: Utility::GeneralSum,
            reward_bounds: (0.0, 2.0),
            max_turns: Some(3),
        });
        &FACTS
    }
    fn initial_state(&self) -> Vec<u8> {
        Vec::new()
    }
    fn turn(&self, s: &Vec<u8>) -> Turn {
        if s.len() == 3 {
            Turn::Terminal
        } else {
            Turn::Player(Player(s.len() as u8))
        }
    }
    fn legal_moves(&self, s: &Vec<u8>, out: &mut Vec<u8>) {
        out.clear();
        if s.len() < 3 {
            out.extend(0..3);
        }
    }
    fn apply(&self, s: &mut Vec<u8>, mv: u8) {
        s.push(mv);
    }
    fn returns(&self, s: &Vec<u8>) -> Rewards {
        let mut v = [0.0; 3];
        for (i, &m) in s.iter().enumerate() {
            v[i] = m as f64;
        }
        Rewards::from_slice(&v)
    }
    fn format_move(&self, _: &Vec<u8>, mv: u8) -> String {
        mv.to_string()
    }
    fn parse_move(&self, _: &Vec<u8>, text: &str) -> Result<u8, NotationError> {
        match text.trim() {
            "0" => Ok(0),
            "1" => Ok(1),
            "2" => Ok(2),
            _ => Err(NotationError::syntax("move", text, "0, 1 or 2")),
        }
    }
    fn format_state(&self, s: &Vec<u8>) -> String {
        s.iter().map(|m| m.to_string()).collect()
    }
    fn parse_state(&self, text: &str) -> Result<Vec<u8>, NotationError> {
        text.chars()
            .map(|c| self.parse_move(&Vec::new(), &c.to_string()))
            .collect()
    }
}

#[test]
fn seats_rotate_in_multi_player_games() {
    let reg = AgentRegistry::with_core_agents();
    // Three agents, three players: one pairing, every agent in every seat once per 3 games.
    let cfg = RoundRobin::new(["random", "flatmc:n=5", "mcts:iters=50"])
        .games(3)
        .seed(2)
        .quiet(true);
    let s = cfg.schedule(3);
    let seats: Vec<Vec<usize>> = s.iter().map(|g| g.seats.clone()).collect();
    assert_eq!(seats, vec![vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 1]]);
    let res = cfg.run(&PickThree, &reg).unwrap();
    assert_eq!(res.records.len(), 3);
    // The searching agents see that 2 is best for them.
    for r in &res.records {
        for (seat, spec) in r.seats.iter().enumerate() {
            if spec != "random" {
                assert_eq!(r.moves[seat], "2", "{r:?}");
            }
        }
    }
    // Four agents: every set of three meets (4 pairings), in colex order.
    let s4 = RoundRobin::new(["a", "b", "c", "d"]).games(1).schedule(3);
    let groups: Vec<Vec<usize>> = s4.iter().map(|g| g.seats.clone()).collect();
    assert_eq!(
        groups,
        vec![vec![0, 1, 2], vec![0, 1, 3], vec![0, 2, 3], vec![1, 2, 3]]
    );
    // Two agents in a three-player game fill the seats cyclically.
    let s2 = RoundRobin::new(["a", "b"]).games(2).schedule(3);
    let seats: Vec<Vec<usize>> = s2.iter().map(|g| g.seats.clone()).collect();
    assert_eq!(seats, vec![vec![0, 1, 0], vec![1, 0, 1]]);
    let res = RoundRobin::new(["random", "flatmc:n=5"])
        .games(4)
        .quiet(true)
        .run(&PickThree, &reg)
        .unwrap();
    assert_eq!(res.records.len(), 4);
    // Every seat counts: 4 games × 3 seats.
    let seats_counted: u64 = res.standings.rows.iter().map(|s| s.wdl.games()).sum();
    assert_eq!(seats_counted, 12);
}

#[test]
fn reports_render_without_nan() {
    let game = Nim::new(6);
    let reg = AgentRegistry::with_core_agents();
    let res = RoundRobin::new(["alphabeta:depth=6", "random", "flatmc:n=5"])
        .games(4)
        .seed(1)
        .quiet(true)
        .run(&game, &reg)
        .unwrap();
    for format in [TableFormat::Text, TableFormat::Markdown] {
        let text = res.report(format);
        assert!(!text.to_lowercase().contains("nan"), "{text}");
        for a in &res.agents {
            assert!(text.contains(a.as_str()), "{text}");
        }
        assert!(text.contains("Cross table"), "{text}");
    }
    // Points in the cross table add up: each game gives one point per pair of seats.
    let total: f64 = res
        .cross_table
        .cells
        .iter()
        .flatten()
        .map(|w| w.points())
        .sum();
    assert_eq!(total, res.records.len() as f64);
    // An empty result renders too.
    let empty = yomi_core::arena::TournamentResult::from_records(
        "nim",
        vec!["a".into(), "b".into()],
        vec![],
    );
    assert!(!empty.report(TableFormat::Text).contains("NaN"));
}

#[test]
fn the_configuration_reads_from_serde_with_defaults() {
    let cfg: RoundRobin =
        serde_json::from_str(r#"{"agents": ["random", "mcts:iters=50"]}"#).unwrap();
    assert_eq!(cfg, RoundRobin::new(["random", "mcts:iters=50"]));
    assert_eq!(cfg.games, yomi_core::arena::DEFAULT_GAMES);
    let cfg: RoundRobin = serde_json::from_str(
        r#"{"agents": ["a", "b"], "games": 8, "seed": 3, "threads": 1, "turn_limit": 50,
            "out": "x.jsonl", "quiet": true}"#,
    )
    .unwrap();
    let built = RoundRobin::head_to_head("a", "b")
        .games(8)
        .seed(3)
        .threads(1)
        .turn_limit(50)
        .out("x.jsonl")
        .quiet(true);
    assert_eq!(cfg, built);
    let back: RoundRobin = serde_json::from_str(&serde_json::to_string(&built).unwrap()).unwrap();
    assert_eq!(back, built);
}
