//! End-to-end tests: each runs the real `yomi` binary.

use std::path::PathBuf;

use yomi_core::arena::read_records;

mod common;
use common::{path_str, yomi, yomi_with_input};

/// A fresh folder for a test of this file.
fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("cli-{name}"))
}

#[test]
fn games_lists_the_built_in_games() {
    let r = yomi(&["games"]);
    r.ok();
    for name in [
        "tictactoe",
        "connect4",
        "breakthrough",
        "breakthrough-5x5",
        "breakthrough:WxH",
    ] {
        assert!(r.stdout.contains(name), "{name} missing:\n{}", r.stdout);
    }
}

#[test]
fn agents_lists_parameters_and_evaluators() {
    let r = yomi(&["agents", "connect4"]);
    r.ok();
    let mcts = r.stdout.find("\nmcts ").expect("mcts listed");
    let after = &r.stdout[mcts..];
    assert!(
        after.lines().any(|l| {
            let mut words = l.split_whitespace();
            words.next() == Some("iters") && words.next() == Some("10000")
        }),
        "{}",
        r.stdout
    );
    assert!(after.contains("exploration constant"), "{}", r.stdout);
    assert!(
        r.stdout.contains("alphabeta") && r.stdout.contains("depth"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("Evaluators") && r.stdout.contains("windows"),
        "{}",
        r.stdout
    );
}

#[test]
fn every_command_explains_itself() {
    for cmd in [
        "games",
        "agents",
        "play",
        "match",
        "tournament",
        "bench",
        "report",
    ] {
        let r = yomi(&[cmd, "--help"]);
        r.ok();
        assert!(r.stdout.contains("Example"), "{cmd} --help:\n{}", r.stdout);
    }
    let r = yomi(&["--help"]);
    r.ok();
    assert!(r.stdout.contains("tournament") && r.stdout.contains("Examples"));
}

#[test]
fn match_resumes_from_its_records_file() {
    let dir = scratch("match");
    let file = dir.join("m.jsonl");
    let args = [
        "match",
        "tictactoe",
        "random",
        "random",
        "--games",
        "4",
        "--seed",
        "1",
        "--quiet",
        "--out",
        path_str(&file),
    ];
    let first = yomi(&args);
    first.ok();
    assert!(
        first.stdout.contains("(4 games: 4 played now, 0 resumed)"),
        "{}",
        first.stdout
    );
    assert!(first.stdout.contains("random#2"), "{}", first.stdout);
    let lines = || std::fs::read_to_string(&file).unwrap().lines().count();
    assert_eq!(lines(), 4);

    let second = yomi(&args);
    second.ok();
    assert!(
        second.stdout.contains("(4 games: 0 played now, 4 resumed)"),
        "{}",
        second.stdout
    );
    assert_eq!(lines(), 4);

    // The same seed into another file gives the same games.
    let again = dir.join("again.jsonl");
    let mut args2 = args;
    args2[10] = path_str(&again);
    yomi(&args2).ok();
    // Games finish in any order on several threads: compare them sorted, without timings.
    let strip = |p: &PathBuf| -> Vec<_> {
        let mut records: Vec<_> = read_records(p)
            .unwrap()
            .iter()
            .map(|r| r.without_timing())
            .collect();
        records.sort_by_key(|r| (r.pairing, r.index));
        records
    };
    assert_eq!(strip(&file), strip(&again));

    // Another seed does not fit the file: refused, file untouched.
    let mut other = args;
    other[7] = "2";
    yomi(&other).fails(1, &["another configuration"]);
    assert_eq!(lines(), 4);

    // The report rebuilds the standings from the file alone.
    let report = yomi(&["report", path_str(&file)]);
    report.ok();
    assert!(
        report.stdout.contains("tictactoe: 4 games"),
        "{}",
        report.stdout
    );
    assert!(report.stdout.contains("random#2"), "{}", report.stdout);
}

#[test]
fn match_of_an_agent_against_itself_labels_the_second_one() {
    let dir = scratch("self-play");
    let file = dir.join("self.jsonl");
    let args = [
        "match",
        "connect4",
        "mcts:iters=30",
        "mcts:iters=30",
        "--games",
        "4",
        "--quiet",
        "--out",
        path_str(&file),
    ];
    let r = yomi(&args);
    r.ok();
    assert!(r.stdout.contains("mcts:iters=30#2"), "{}", r.stdout);
    let records = read_records(&file).unwrap();
    assert_eq!(records.len(), 4);
    assert!(records
        .iter()
        .all(|g| g.seat_specs() == ["mcts:iters=30", "mcts:iters=30"]));
    yomi(&args).ok();
    assert_eq!(
        read_records(&file).unwrap().len(),
        4,
        "resumed, not replayed"
    );
    // Labels given explicitly name the agents in the standings.
    let r = yomi(&[
        "match",
        "tictactoe",
        "a=random",
        "b=random",
        "--games",
        "2",
        "--quiet",
    ]);
    r.ok();
    assert!(
        r.stdout.contains(" a ") && r.stdout.contains(" b "),
        "{}",
        r.stdout
    );
    yomi(&["match", "tictactoe", "a=random", "a=flatmc", "--quiet"])
        .fails(2, &["label \"a\" is given to two agents"]);
}

#[test]
fn match_prints_markdown() {
    let r = yomi(&[
        "match",
        "tictactoe",
        "mcts:iters=100",
        "random",
        "--games",
        "2",
        "--markdown",
        "--threads",
        "1",
    ]);
    r.ok();
    assert!(r.stdout.contains("| agent"), "{}", r.stdout);
}

#[test]
fn tournament_runs_a_small_file() {
    let dir = scratch("tournament");
    let config = dir.join("t.toml");
    let records = dir.join("t.jsonl");
    std::fs::write(
        &config,
        "# a small round robin\n\
         game = \"tictactoe\"\n\
         agents = [\"random\", \"flatmc:n=5\", \"mcts:iters=100\"]\n\
         games = 2\n\
         seed = 3\n\
         threads = 2\n\
         turn_limit = 9\n\
         quiet = true\n",
    )
    .unwrap();
    let r = yomi(&["tournament", path_str(&config), "--out", path_str(&records)]);
    r.ok();
    assert!(r.stdout.contains("tictactoe: 6 games"), "{}", r.stdout);
    assert!(r.stdout.contains("Cross table"), "{}", r.stdout);
    assert_eq!(read_records(&records).unwrap().len(), 6);
}

#[test]
fn tournament_rejects_unknown_keys_and_bad_agents() {
    let dir = scratch("tournament-errors");
    let config = dir.join("typo.toml");
    std::fs::write(
        &config,
        "game = \"tictactoe\"\nagents = [\"random\"]\ngmaes = 4\n",
    )
    .unwrap();
    yomi(&["tournament", path_str(&config)]).fails(
        1,
        &[
            "unknown key \"gmaes\"",
            "did you mean \"games\"",
            "accepted keys",
        ],
    );

    std::fs::write(
        &config,
        "game = \"tictactoe\"\nagents = [\"random\", \"mtcs\"]\n",
    )
    .unwrap();
    yomi(&["tournament", path_str(&config)]).fails(1, &["mtcs", "accepted: random, human, mcts"]);

    std::fs::write(&config, "game = \"chess\"\nagents = [\"random\"]\n").unwrap();
    yomi(&["tournament", path_str(&config)]).fails(1, &["unknown game \"chess\""]);

    std::fs::write(&config, "game = \"tictactoe\"\nagents = [\"random\"\n").unwrap();
    yomi(&["tournament", path_str(&config)]).fails(1, &["not valid TOML"]);

    yomi(&["tournament", path_str(&dir.join("missing.toml"))]).fails(1, &["cannot read"]);
}

#[test]
fn usage_errors_exit_with_2_and_explain() {
    yomi(&["play", "chess", "random", "random"]).fails(2, &["unknown game \"chess\"", "connect4"]);
    yomi(&["play", "tictactoe", "mtcs", "random"]).fails(
        2,
        &["unknown agent \"mtcs\"", "accepted: random, human, mcts"],
    );
    yomi(&["play", "tictactoe", "mcts:iter=5", "random"])
        .fails(2, &["no parameter \"iter\"", "iters"]);
    yomi(&["play", "tictactoe", "mcts:c=abc", "random"]).fails(2, &["bad value"]);
    yomi(&["play", "tictactoe", "random"]).fails(2, &["2 players"]);
    yomi(&["play", "tictactoe", "random", "random", "--position", "xxx"]).fails(2, &["--position"]);
    yomi(&["match", "connect4", "random", "flatmc:n=0", "--games", "2"]).fails(2, &["flatmc"]);
    yomi(&["agents", "breakthrough:2x9"]).fails(2, &["width must be"]);
    yomi(&["bench", "tictactoe", "--time", "0"]).fails(2, &["--time"]);
    yomi(&["report", "/nonexistent/r.jsonl"]).fails(1, &["cannot read the records"]);
}

#[test]
fn play_shows_the_game_and_the_result() {
    let r = yomi(&[
        "play",
        "tictactoe",
        "mcts:iters=200",
        "random",
        "--seed",
        "5",
    ]);
    r.ok();
    assert!(r.stdout.contains("  a b c"), "board missing:\n{}", r.stdout);
    assert!(
        r.stdout.contains("1. x (mcts:iters=200) plays "),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("Result: "), "{}", r.stdout);
    // The same seed plays the same game.
    let again = yomi(&[
        "play",
        "tictactoe",
        "mcts:iters=200",
        "random",
        "--seed",
        "5",
    ]);
    assert_eq!(r.stdout, again.stdout);
}

#[test]
fn play_from_a_position() {
    // x to move with two in the top row: c3 wins at once.
    let r = yomi(&[
        "play",
        "tictactoe",
        "alphabeta:depth=3",
        "random",
        "--position",
        "xx./oo./... x",
    ]);
    r.ok();
    assert!(
        r.stdout.contains("1. x (alphabeta:depth=3) plays c3"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("Result: x (alphabeta:depth=3) wins"),
        "{}",
        r.stdout
    );
}

#[test]
fn human_moves_come_from_stdin() {
    // `moves` lists the legal moves; `zz` is not a move; the second b2 is taken; then every
    // cell in turn until the game ends (taken ones are refused and the next line is read).
    let input = "moves\nb2\nzz\nb2\na1\na2\na3\nb1\nb3\nc1\nc2\nc3\n";
    let r = yomi_with_input(
        &["play", "tictactoe", "human", "random", "--seed", "2"],
        input,
    );
    r.ok();
    assert!(r.stdout.contains("legal moves: "), "{}", r.stdout);
    assert!(r.stdout.contains("1. x (human) plays b2"), "{}", r.stdout);
    // The bad input is explained and the prompt repeats.
    assert!(r.stdout.contains("\"zz\""), "{}", r.stdout);
    assert!(r.stdout.contains("\"b2\""), "{}", r.stdout);
    assert!(r.stdout.contains("Result: "), "{}", r.stdout);
    assert!(!r.stdout.contains("forfeits"), "{}", r.stdout);

    // When input ends the human forfeits; that is a result, not an error.
    let r = yomi_with_input(&["play", "tictactoe", "human", "random"], "quit\n");
    r.ok();
    assert!(
        r.stdout.contains("Result: o (random) wins (x forfeits"),
        "{}",
        r.stdout
    );
}

#[test]
fn bench_prints_one_figure_per_line() {
    let r = yomi(&["bench", "tictactoe", "--quick", "--threads", "2"]);
    r.ok();
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", r.stdout);
    for line in &lines {
        let (what, figure) = line.rsplit_once(": ").unwrap_or_else(|| panic!("{line}"));
        assert!(!what.is_empty(), "{line}");
        let (number, unit) = figure.split_once(' ').unwrap_or_else(|| panic!("{line}"));
        let value: f64 = number.parse().unwrap_or_else(|_| panic!("{line}"));
        assert!(value > 0.0, "{line}");
        assert!(unit.ends_with("/s") && !unit.contains(' '), "{line}");
    }
    assert!(lines[0].contains("playouts/s"));
    assert!(lines[3].contains("2 threads"), "{}", lines[3]);
}

#[test]
fn bench_go_adds_light_and_two_board_playouts() {
    let r = yomi(&["bench", "go:5", "--quick", "--threads", "2"]);
    r.ok();
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{}", r.stdout);
    assert!(
        lines[4].starts_with("go-5x5 light playouts"),
        "{}",
        lines[4]
    );
    assert!(lines[5].contains("two-board"), "{}", lines[5]);
    for line in &lines[4..] {
        assert!(line.ends_with(" playouts/s"), "{line}");
    }
}

#[test]
fn report_counts_a_duplicated_record_once_and_says_so() {
    let dir = scratch("report-dup");
    let file = dir.join("d.jsonl");
    yomi(&[
        "match",
        "tictactoe",
        "random",
        "flatmc:n=2",
        "--games",
        "4",
        "--seed",
        "3",
        "--quiet",
        "--out",
        path_str(&file),
    ])
    .ok();
    // The same games appended again, as two runs on one file left them.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, format!("{text}{text}")).unwrap();
    let report = yomi(&["report", path_str(&file)]);
    report.ok();
    assert!(
        report.stdout.contains("tictactoe: 4 games"),
        "{}",
        report.stdout
    );
    assert!(
        report.stdout.contains("4 duplicate records"),
        "{}",
        report.stdout
    );
}

#[test]
fn huge_numbers_are_refused_with_a_clear_error() {
    for (args, needle) in [
        (
            vec![
                "match",
                "tictactoe",
                "random",
                "random",
                "--games",
                "4294967296",
            ],
            "at most",
        ),
        (
            vec![
                "match",
                "tictactoe",
                "mcts:threads=65536",
                "random",
                "--games",
                "1",
            ],
            "at most 1024",
        ),
        (
            vec![
                "match",
                "tictactoe",
                "mcts:threads=4294967296",
                "random",
                "--games",
                "1",
            ],
            "at most 1024",
        ),
        (
            vec![
                "match",
                "tictactoe",
                "mcts:time=1e300",
                "random",
                "--games",
                "1",
            ],
            "at most 1000000",
        ),
    ] {
        let r = yomi(&args);
        assert_ne!(r.code, Some(0), "{args:?} ran");
        assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn huge_durations_are_refused_with_a_clear_error() {
    let dir = scratch("durations");
    let out = dir.join("suite");
    for (args, needle) in [
        (
            vec!["tubstap", "client", "--port", "1", "--timeout", "1e300"],
            "--timeout",
        ),
        (
            vec![
                "go",
                "yose",
                "make",
                "--out",
                path_str(&out),
                "--limit",
                "18446744073709551615",
            ],
            "--limit",
        ),
        (
            vec!["geister", "server", "--port", "0", "--main-time", "1e300"],
            "--main-time",
        ),
        (
            vec!["geister", "server", "--port", "0", "--per-move", "inf"],
            "--per-move",
        ),
        (
            vec!["geister", "server", "--port", "0", "--seat-timeout=-1"],
            "--seat-timeout",
        ),
    ] {
        let r = yomi(&args);
        r.fails(2, &[needle]);
    }
}

/// Issue 15, item 3: `yomi bench --time` with a huge, negative or NaN number of seconds
/// must be a usage error, not a panic in `Duration::from_secs_f64`.
#[test]
fn bench_time_huge_negative_or_nan_is_refused() {
    for time in ["1e300", "-1", "NaN", "inf"] {
        yomi(&["bench", "tictactoe", &format!("--time={time}")]).fails(2, &["--time"]);
    }
}

/// Issue 15, item 3: `selfplay.games = 9223372036854775807` in a training configuration
/// aborted on allocating one slot per game; it is a configuration error naming the key.
/// The training commands exist only with the `nn` feature (`scripts/test.sh` turns it on).
#[cfg(feature = "nn")]
#[test]
fn training_config_with_selfplay_games_i64_max_is_refused() {
    let dir = scratch("huge-selfplay-games");
    let config = dir.join("huge.toml");
    std::fs::write(
        &config,
        "cycles = 1\n[selfplay]\ngames = 9223372036854775807\n",
    )
    .unwrap();
    let run = dir.join("run");
    let r = yomi(&[
        "geister",
        "train",
        path_str(&config),
        "--dir",
        path_str(&run),
    ]);
    r.fails(1, &["selfplay.games", "9223372036854775807"]);
    let dqn = dir.join("dqn.toml");
    std::fs::write(
        &dqn,
        "cycles = 1\n[selfplay]\ngames = 9223372036854775807\n",
    )
    .unwrap();
    let r = yomi(&["geister", "dqn", path_str(&dqn), "--dir", path_str(&run)]);
    r.fails(1, &["selfplay.games", "9223372036854775807"]);
}

/// Issue 15, item 1: `--threads 4294967296` went straight to a thread pool or a search that
/// spawned threads until the machine gave out; every `--threads` option is now checked
/// against `yomi_core::limits::MAX_THREADS` first.
#[test]
fn huge_thread_counts_are_refused_with_a_clear_error() {
    let dir = scratch("huge-threads");
    let out = dir.join("out");
    for args in [
        vec!["bench", "tictactoe", "--quick", "--threads", "4294967296"],
        vec![
            "learn",
            "data",
            "ggp:breakthrough5x5",
            "--out",
            path_str(&out),
            "--threads",
            "4294967296",
        ],
        vec![
            "othello",
            "testset",
            "--stage",
            "20",
            "--out",
            path_str(&out),
            "--threads",
            "4294967296",
        ],
    ] {
        yomi(&args).fails(2, &["--threads 4294967296", "at most 1024 threads"]);
    }
}

/// Issue 15, item 1: `othello testset --count 4294967296` ran until it had that many
/// distinct positions, that is for ever, holding all of them in memory.
#[test]
fn othello_testset_count_4294967296_is_refused() {
    let dir = scratch("huge-testset");
    let out = dir.join("ts");
    yomi(&[
        "othello",
        "testset",
        "--stage",
        "20",
        "--out",
        path_str(&out),
        "--count",
        "4294967296",
    ])
    .fails(2, &["--count 4294967296", "at most 1000000 positions"]);
}

/// Issue 15, item 5: a second run on a records file that another run is writing is refused
/// with one clear reason (the lock message was printed twice, once from the error and once
/// from its source).
#[test]
fn a_run_on_a_locked_records_file_is_refused_with_the_reason_once() {
    let dir = scratch("locked-out");
    let file = dir.join("m.jsonl");
    let _held = yomi_core::arena::RecordLog::lock(&file).unwrap();
    let r = yomi(&[
        "match",
        "tictactoe",
        "random",
        "random",
        "--games",
        "2",
        "--quiet",
        "--out",
        path_str(&file),
    ]);
    r.fails(1, &["m.jsonl", "it is locked"]);
    assert_eq!(r.stderr.matches("it is locked").count(), 1, "{}", r.stderr);
}

/// The first `n` positions of the shipped S=20 test set, as a test-set file's lines.
fn s20_lines(n: usize) -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../yomi-othello/data/testsets/s20.txt"
    );
    std::fs::read_to_string(path)
        .expect("the shipped S=20 set")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(n)
        .map(String::from)
        .collect()
}

/// Issue 17, item 2: `othello relabel` labels the same positions again, in order, and a
/// position already in OUT.partial (from an interrupted run) is kept, not labelled again.
#[test]
fn othello_relabel_keeps_the_order_and_resumes_from_its_partial_file() {
    let dir = scratch("relabel");
    let (input, out) = (dir.join("in.txt"), dir.join("out.txt"));
    let lines = s20_lines(4);
    std::fs::write(&input, format!("# four positions\n{}\n", lines.join("\n"))).unwrap();
    // Position 2 "finished" in an earlier run (with the 6-ply values under this run's
    // label kind, which a 2-ply search would not give): it must come through as it is.
    let partial = dir.join("out.txt.partial");
    let kept = lines[2].replace("; search6; ", "; search2; ");
    std::fs::write(&partial, format!("2\t{kept}\n")).unwrap();
    let run = yomi(&[
        "othello",
        "relabel",
        path_str(&input),
        "--depth",
        "2",
        "--threads",
        "2",
        "--out",
        path_str(&out),
    ]);
    run.ok().says(&["| search6 → search2 | 4 |"]);
    assert!(!partial.exists(), "the partial file is removed at the end");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("# four positions\n# relabelled by `yomi othello relabel"));
    let got: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(got.len(), 4);
    for (i, (new, old)) in got.iter().zip(&lines).enumerate() {
        let board = |l: &str| l.split(';').next().unwrap().to_string();
        assert_eq!(board(new), board(old), "position {i} in its place");
        if i == 2 {
            assert_eq!(*new, kept, "the finished position is kept");
        } else {
            assert!(new.contains("; search2; "), "{new}");
        }
    }
}

#[test]
fn othello_relabel_refuses_bad_depths_and_a_partial_file_of_another_set() {
    let dir = scratch("relabel-bad");
    let (input, out) = (dir.join("in.txt"), dir.join("out.txt"));
    let lines = s20_lines(2);
    std::fs::write(&input, lines.join("\n")).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "othello",
            "relabel",
            path_str(&input),
            "--out",
            path_str(&out),
        ];
        args.extend_from_slice(extra);
        yomi(&args)
    };
    run(&["--depth", "0"]).fails(2, &["--depth must be 1..=40"]);
    run(&["--depth", "41"]).fails(2, &["--depth must be 1..=40"]);
    run(&["--depth", "2", "--exact-empties", "41"]).fails(2, &["at most 40"]);
    let partial = dir.join("out.txt.partial");
    std::fs::write(&partial, format!("7\t{}\n", lines[0])).unwrap();
    run(&["--depth", "2"]).fails(
        2,
        &["out.txt.partial line 1", "\"7\" is not a position number"],
    );
    std::fs::write(&partial, format!("1\t{}\n", lines[0])).unwrap();
    run(&["--depth", "2"]).fails(2, &["position 1 is not", "remove the file to start over"]);
    std::fs::write(&partial, format!("0\t{}\n", lines[0])).unwrap();
    run(&["--depth", "2"]).fails(
        2,
        &["position 0 has search6 labels, this run writes search2"],
    );
    // A last line cut short is dropped and its position labelled again.
    let first = lines[0].replace("; search6; ", "; search2; ");
    std::fs::write(&partial, format!("0\t{first}\n1\t{}", &lines[1][..20])).unwrap();
    run(&["--depth", "2"])
        .ok()
        .says(&["| search6 → search2 | 2 |"]);
    assert!(!partial.exists());
    // Done: a rerun reports again; another depth would overwrite it and is refused.
    run(&["--depth", "2"])
        .ok()
        .says(&["| search6 → search2 | 2 |"]);
    run(&["--depth", "3"]).fails(2, &["out.txt exists and is not this relabelling"]);
}
