//! `yomi export`: records of real matches written as SGF (read back by GNU Go's `loadsgf`
//! when GNU Go is installed), GGF and move lists; bad records refused with the move named.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{path_str, scratch, yomi};
use yomi_core::Game;

/// Plays a short match and returns the records file.
fn match_records(dir: &std::path::Path, game: &str, games: &str) -> std::path::PathBuf {
    let out = dir.join("games.jsonl");
    yomi(&[
        "match",
        game,
        "random",
        "mcts:iters=30",
        "--games",
        games,
        "--seed",
        "5",
        "--out",
        path_str(&out),
    ])
    .ok();
    out
}

fn records(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v.get("moves").is_some())
        .collect()
}

/// The stones of a colour (`'X'` or `'O'`) in a Go state notation, as GTP vertices sorted.
fn stones(final_state: &str, colour: char) -> Vec<String> {
    let rows: Vec<&str> = final_state
        .split_whitespace()
        .next()
        .unwrap()
        .split('/')
        .collect();
    let n = rows.len();
    let mut out = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            if c == colour {
                out.push(format!(
                    "{}{}",
                    "ABCDEFGHJKLMNOPQRST".as_bytes()[x] as char,
                    n - r
                ));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn go_records_export_as_sgf_that_gnu_go_loads_to_the_same_final_position() {
    let dir = scratch("export-go");
    let file = match_records(&dir, "go:9", "2");
    let sgf_path = dir.join("games.sgf");
    yomi(&["export", path_str(&file), "--out", path_str(&sgf_path)]).ok();
    let sgf = std::fs::read_to_string(&sgf_path).unwrap();
    let recs = records(&file);
    let games: Vec<&str> = sgf.split("(;").skip(1).collect();
    assert_eq!(games.len(), recs.len(), "{sgf}");
    for (game, rec) in games.iter().zip(&recs) {
        assert!(game.starts_with("FF[4]GM[1]"), "{game}");
        assert!(game.contains("SZ[9]KM[7.5]"), "{game}");
        let seats = rec["seats"].as_array().unwrap();
        assert!(game.contains(&format!("PB[{}]", seats[0].as_str().unwrap())));
        assert_eq!(
            game.matches(";B[").count() + game.matches(";W[").count(),
            rec["moves"].as_array().unwrap().len()
        );
        // The result is the game's own area score of the final position, komi included,
        // and its winner the record's.
        let black_won = rec["returns"][0].as_f64().unwrap() > 0.0;
        let go = yomi_go::GoGame::new(9).unwrap();
        let last = go
            .parse_state(rec["final_state"].as_str().unwrap())
            .unwrap();
        let margin = last.area_score();
        let expected = if margin > 0.0 {
            format!("RE[B+{margin}]")
        } else {
            format!("RE[W+{}]", -margin)
        };
        assert!(game.contains(&expected), "{expected} not in {game}");
        assert_eq!(black_won, margin > 0.0, "{game}");
    }

    let gnugo = "/usr/games/gnugo";
    if !std::path::Path::new(gnugo).exists() {
        eprintln!(
            "NOTICE: {gnugo} not found, skipping GNU Go's loadsgf check (apt-get install gnugo)"
        );
        return;
    }
    for (i, (game, rec)) in games.iter().zip(&recs).enumerate() {
        let one = dir.join(format!("game{i}.sgf"));
        std::fs::write(&one, format!("(;{game}")).unwrap();
        let mut child = Command::new(gnugo)
            .args(["--mode", "gtp"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        write!(
            child.stdin.take().unwrap(),
            "loadsgf {}\nlist_stones black\nlist_stones white\nquit\n",
            path_str(&one)
        )
        .unwrap();
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let answers: Vec<&str> = text.split("\n\n").map(str::trim).collect();
        assert!(
            answers[0] == "= black" || answers[0] == "= white",
            "loadsgf refused the export: {text}"
        );
        let listed = |a: &str| {
            let mut v: Vec<String> = a
                .trim_start_matches('=')
                .split_whitespace()
                .map(str::to_string)
                .collect();
            v.sort();
            v
        };
        let final_state = rec["final_state"].as_str().unwrap();
        assert_eq!(listed(answers[1]), stones(final_state, 'X'), "black stones");
        assert_eq!(listed(answers[2]), stones(final_state, 'O'), "white stones");
    }
}

#[test]
fn othello_records_export_as_ggf_with_the_records_winner() {
    let dir = scratch("export-othello");
    let file = match_records(&dir, "othello", "2");
    let r = yomi(&["export", path_str(&file)]);
    r.ok();
    let lines: Vec<&str> = r.stdout.lines().filter(|l| !l.is_empty()).collect();
    let recs = records(&file);
    assert_eq!(lines.len(), recs.len(), "{}", r.stdout);
    for (line, rec) in lines.iter().zip(&recs) {
        assert!(line.starts_with("(;GM[Othello]PC[yomi]"), "{line}");
        assert!(line.ends_with(";)"), "{line}");
        let moves = line.matches("]B[").count() + line.matches("]W[").count();
        assert_eq!(moves, rec["moves"].as_array().unwrap().len(), "{line}");
        let re = line.split("RE[").nth(1).unwrap();
        let black = rec["returns"][0].as_f64().unwrap();
        assert_eq!(
            re.starts_with('+'),
            black > 0.0,
            "{line} against returns {}",
            rec["returns"]
        );
    }
}

#[test]
fn other_games_export_as_move_lists_with_each_mover() {
    let dir = scratch("export-c4");
    let file = match_records(&dir, "connect4", "1");
    let r = yomi(&["export", path_str(&file), "--format", "moves"]);
    r.ok();
    let rec = &records(&file)[0];
    let moves = rec["moves"].as_array().unwrap();
    for (i, mv) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { "x" } else { "o" };
        let line = format!("{}. {mover} {}", i + 1, mv.as_str().unwrap());
        assert!(r.stdout.contains(&line), "no {line:?} in\n{}", r.stdout);
    }
    assert!(r.stdout.contains("seat 0: random"), "{}", r.stdout);
    // SGF is refused for a game that is not Go.
    yomi(&["export", path_str(&file), "--format", "sgf"]).fails(1, &["not Go"]);
}

#[test]
fn twogtp_journals_export_as_sgf() {
    let dir = scratch("export-twogtp");
    let file = dir.join("match.jsonl");
    std::fs::write(
        &file,
        concat!(
            r#"{"yomi_journal":{"settings":{"alternate":true,"first":"engine-a","komi":6.5,"max_moves":0,"second":"engine-b","size":9,"trust":"second"}}}"#,
            "\n",
            r#"{"game":0,"first_black":false,"moves":["E5","D4","pass","pass"],"result":"W+0.5","winner":"second","first_score":null,"second_score":null,"disagreement":false,"end":"passes","seconds":[0.1,0.2]}"#,
            "\n"
        ),
    )
    .unwrap();
    let r = yomi(&["export", path_str(&file)]);
    r.ok();
    for needle in [
        "SZ[9]KM[6.5]RE[W+0.5]PB[engine-b]PW[engine-a]",
        ";B[ee]",
        ";W[df]", // D4 on 9x9: column d, sixth row from the top
        ";B[]",
    ] {
        assert!(r.stdout.contains(needle), "no {needle:?} in {}", r.stdout);
    }
}

#[test]
fn a_record_with_an_illegal_move_is_refused_naming_the_move() {
    let dir = scratch("export-bad");
    let file = match_records(&dir, "go:9", "1");
    // Play the first move twice: the second is on an occupied point.
    let text = std::fs::read_to_string(&file).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        if let Some(moves) = v.get_mut("moves").and_then(|m| m.as_array_mut()) {
            let first = moves[0].clone();
            moves.insert(2, first);
        }
        out.push_str(&v.to_string());
        out.push('\n');
    }
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, out).unwrap();
    yomi(&["export", path_str(&bad)]).fails(1, &["move 3"]);
}
