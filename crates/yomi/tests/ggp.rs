//! End-to-end tests of the GDL games in the CLI: `yomi ggp check` and `ggp:` game names.

use std::path::PathBuf;
use std::process::Command;

fn yomi(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_yomi"))
        .args(args)
        .output()
        .expect("run yomi");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes `text` to a file of its own under the temporary directory.
fn sheet(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yomi-cli-ggp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Nim from 3 with takes of 1 or 2: whoever takes the last object wins.
const NIM: &str = "
    ; a small nim
    (role a) (role b) (init (heap 3)) (init (control a))
    (succ 0 1) (succ 1 2) (succ 2 3)
    (<= (legal ?p (take ?n)) (true (control ?p)) (true (heap ?h)) (minus ?h ?n ?r))
    (<= (legal ?p noop) (role ?p) (not (true (control ?p))))
    (<= (minus ?h 1 ?r) (succ ?r ?h))
    (<= (minus ?h 2 ?r) (succ ?r ?x) (succ ?x ?h))
    (<= (next (heap ?r)) (does ?p (take ?n)) (true (heap ?h)) (minus ?h ?n ?r))
    (<= (next (control b)) (true (control a)))
    (<= (next (control a)) (true (control b)))
    (<= terminal (true (heap 0)))
    (<= (goal ?p 0) (true (control ?p)) (true (heap 0)))
    (<= (goal ?p 100) (role ?p) (not (true (control ?p))) (true (heap 0)))";

#[test]
fn check_prints_roles_size_goals_and_speed() {
    let path = sheet("nim.kif", NIM);
    let (code, out, err) = yomi(&[
        "ggp",
        "check",
        path.to_str().unwrap(),
        "--games",
        "40",
        "--time",
        "0.05",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("valid GDL"), "{out}");
    assert!(out.contains("roles: a b"), "{out}");
    assert!(out.contains("base propositions"), "{out}");
    assert!(out.contains("random games: 40 of 40 ended"), "{out}");
    // One role wins each game: the mean goals add up to 100.
    let goals = out.split("mean goals: ").nth(1).unwrap();
    let sum: f64 = goals
        .lines()
        .next()
        .unwrap()
        .split(", ")
        .map(|s| s.rsplit(' ').next().unwrap().parse::<f64>().unwrap())
        .sum();
    assert!((sum - 100.0).abs() < 1e-6, "{out}");
    assert!(out.contains("playouts/s"), "{out}");
}

#[test]
fn check_names_line_and_column_of_a_bad_rule() {
    let path = sheet(
        "unsafe.kif",
        "(role a)\n(init (p 1))\n  (<= (legal a ?x) (true ?y))\n",
    );
    let (code, out, err) = yomi(&["ggp", "check", path.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.contains("line 3, column 3"), "{err}");
    assert!(err.contains("unsafe variable ?x"), "{err}");
    let path = sheet("syntax.kif", "(role a)\n(init (p 1)\n");
    let (code, _, err) = yomi(&["ggp", "check", path.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("line 2"), "{err}");
    let (code, _, err) = yomi(&["ggp", "check", "/nonexistent/x.kif"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn rule_sheets_are_games_for_match_play_and_agents() {
    let path = sheet("nim2.kif", NIM);
    let game = format!("ggp:{}", path.display());
    let (code, out, err) = yomi(&["match", &game, "random", "mcts:iters=50", "--games", "4"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("Ended: 4 by the rules"), "{out}");
    let (code, out, err) = yomi(&["play", "ggp:tictactoe", "random", "random", "--seed", "3"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("(mark "), "{out}");
    let (code, out, err) = yomi(&["agents", "ggp:connect4"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("mcts"), "{out}");
    // A bad sheet or a missing file as a game name is a usage error.
    let bad = sheet("bad.kif", "(role a)\n(<= (legal a ?x) (true ?y))\n");
    let (code, _, err) = yomi(&[
        "match",
        &format!("ggp:{}", bad.display()),
        "random",
        "random",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("line 2, column 1"), "{err}");
    let (code, _, err) = yomi(&["agents", "ggp:nothing-here"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("ggp:tictactoe"), "{err}");
}

/// Issue 15, item 3: `yomi ggp check --time 1e300` panicked in `Duration::from_secs_f64`;
/// the host's clocks and grace went through the same unchecked conversion.
#[test]
fn ggp_check_and_host_refuse_huge_durations() {
    let path = sheet("nim-durations.kif", NIM);
    let file = path.to_str().unwrap();
    let out = path.with_file_name("never-written.jsonl");
    for args in [
        vec!["ggp", "check", file, "--games", "0", "--time", "1e300"],
        vec!["ggp", "check", file, "--games", "0", "--time", "inf"],
        vec!["ggp", "check", file, "--games", "0", "--time=-1"],
        vec![
            "ggp",
            "host",
            "--game",
            "ggp:tictactoe",
            "--player",
            "127.0.0.1:1",
            "--player",
            "127.0.0.1:1",
            "--grace",
            "1e300",
            "--out",
            out.to_str().unwrap(),
        ],
        vec![
            "ggp",
            "host",
            "--game",
            "ggp:tictactoe",
            "--player",
            "127.0.0.1:1",
            "--player",
            "127.0.0.1:1",
            "--playclock",
            "1e300",
            "--out",
            out.to_str().unwrap(),
        ],
    ] {
        let (code, _, err) = yomi(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        // The shared check (`yomi_core::limits::seconds`) names the range and echoes the
        // value as typed (`1e300`, not its 301 digits).
        assert!(
            err.contains("expected seconds from 0 to"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("000000000000"), "{args:?}: {err}");
    }
    assert!(!out.exists());
}
