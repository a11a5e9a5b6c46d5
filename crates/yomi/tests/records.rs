//! `yomi report` and `yomi export` read the records of every command that records games:
//! the arena's (tested in cli.rs and export.rs), a `yomi go twogtp` match journal and a
//! `yomi ggp host` series journal, here written by the real commands.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use common::{path_str, scratch, yomi};

/// The standings row of `agent` in a text report: (games, wins, draws, losses).
fn row(report: &str, agent: &str) -> (u64, u64, u64, u64) {
    let line = report
        .lines()
        .find(|l| l.split("  ").any(|cell| cell.trim() == agent))
        .unwrap_or_else(|| panic!("no row for {agent:?} in\n{report}"));
    let cells: Vec<&str> = line
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    let at = cells.iter().position(|c| *c == agent).unwrap();
    let n = |i: usize| cells[at + i].parse::<u64>().unwrap();
    (n(1), n(2), n(3), n(4))
}

fn journal_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1) // the settings header
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn report_counts_a_go_twogtp_match_journal() {
    let dir = scratch("records-twogtp");
    let out = dir.join("match.jsonl");
    let exe = env!("CARGO_BIN_EXE_yomi");
    let first = format!("{exe} go gtp --agent random --seed {{seed}}");
    let second = format!("{exe} go gtp --agent mcts:iters=50");
    yomi(&[
        "go",
        "twogtp",
        "--first",
        &first,
        "--second",
        &second,
        "--games",
        "2",
        "--size",
        "5",
        "--max-moves",
        "30",
        "--out",
        path_str(&out),
    ])
    .ok();
    let games = journal_lines(&out);
    assert_eq!(games.len(), 2);
    // The first engine's wins, draws and losses as the journal has them.
    let (mut w, mut d) = (0, 0);
    for g in &games {
        match g["winner"].as_str() {
            Some("first") => w += 1,
            None => d += 1,
            _ => {}
        }
    }
    let report = yomi(&["report", path_str(&out)]);
    report.ok().says(&[
        "a `yomi go twogtp` match journal",
        "go-5x5: 2 games",
        "Ended: 0 by the rules, 2 at the turn limit",
    ]);
    assert_eq!(row(&report.stdout, &first), (2, w, d, 2 - w - d));
    assert_eq!(row(&report.stdout, &second), (2, 2 - w - d, d, w));
    // The same games as SGF, one per journal line.
    let sgf = yomi(&["export", path_str(&out)]);
    assert_eq!(sgf.ok().stdout.matches("(;FF[4]").count(), 2);
}

/// A `yomi ggp player` on a free port; killed on drop.
struct Player {
    child: Child,
    addr: String,
}

impl Player {
    fn start() -> Player {
        let mut child = Command::new(env!("CARGO_BIN_EXE_yomi"))
            .args(["ggp", "player", "--port", "0", "--agent", "random"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .rsplit(' ')
            .next()
            .unwrap_or_default()
            .to_string();
        assert!(addr.starts_with("127.0.0.1:"), "{line}");
        Player { child, addr }
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn report_and_export_read_a_ggp_host_series_journal() {
    let dir = scratch("records-ggp-host");
    let out = dir.join("series.jsonl");
    let (a, b) = (Player::start(), Player::start());
    yomi(&[
        "ggp",
        "host",
        "--game",
        "ggp:tictactoe",
        "--player",
        &a.addr,
        "--player",
        &b.addr,
        "--matches",
        "3",
        "--startclock",
        "5",
        "--playclock",
        "2",
        "--out",
        path_str(&out),
    ])
    .ok();
    let matches = journal_lines(&out);
    assert_eq!(matches.len(), 3);
    // Wins, draws and losses of player a from the goals (role r of match k is held by
    // the player named in the record).
    let mut a_wdl = (0, 0, 0);
    for m in &matches {
        let goals: Vec<f64> = m["goals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g.as_f64().unwrap())
            .collect();
        let seat = m["players"]
            .as_array()
            .unwrap()
            .iter()
            .position(|p| p.as_str() == Some(&a.addr))
            .unwrap();
        let (mine, theirs) = (goals[seat], goals[1 - seat]);
        if mine > theirs {
            a_wdl.0 += 1;
        } else if mine == theirs {
            a_wdl.1 += 1;
        } else {
            a_wdl.2 += 1;
        }
    }
    let report = yomi(&["report", path_str(&out)]);
    report
        .ok()
        .says(&["a `yomi ggp host` series journal", "ggp:tictactoe: 3 games"]);
    assert_eq!(row(&report.stdout, &a.addr), (3, a_wdl.0, a_wdl.1, a_wdl.2));
    assert_eq!(row(&report.stdout, &b.addr), (3, a_wdl.2, a_wdl.1, a_wdl.0));
    // Move lists: one per match, each step's moves by role.
    let moves = yomi(&["export", path_str(&out)]);
    moves
        .ok()
        .says(&["match id: yomi.tictactoe.0.0", "1. x (mark "]);
    assert_eq!(moves.stdout.matches("match id: ").count(), 3);
    yomi(&["export", path_str(&out), "--format", "sgf"])
        .fails(1, &["GGP host journal: it exports as move lists only"]);
}

#[test]
fn report_refuses_a_journal_of_another_kind() {
    let dir = scratch("records-other");
    let file = dir.join("other.jsonl");
    std::fs::write(
        &file,
        "{\"yomi_journal\":{\"settings\":{\"iters\":3}}}\n{\"k\":1}\n",
    )
    .unwrap();
    yomi(&["report", path_str(&file)]).fails(1, &["a journal of another kind"]);
}

/// `yomi go positions` cuts start positions from a match journal and `twogtp --openings`
/// plays them, each with both colours; bad openings and non-journals are clear errors.
#[test]
fn positions_cut_from_a_match_are_played_as_openings() {
    let dir = scratch("records-openings");
    let out = dir.join("match.jsonl");
    let exe = env!("CARGO_BIN_EXE_yomi");
    let engine = format!("{exe} go gtp --agent mcts:iters=40 --seed {{seed}}");
    let twogtp = |games: &str, out: &Path, extra: &[&str]| {
        let mut args = vec![
            "go",
            "twogtp",
            "--first",
            &engine,
            "--second",
            &engine,
            "--games",
            games,
            "--size",
            "5",
            "--out",
            path_str(out),
        ];
        args.extend_from_slice(extra);
        yomi(&args)
    };
    twogtp("4", &out, &[]).ok();
    let positions = dir.join("positions");
    let cut = yomi(&[
        "go",
        "positions",
        path_str(&out),
        "--from-end",
        "2",
        "--min-moves",
        "1",
        "--out",
        path_str(&positions),
    ]);
    cut.ok().says(&["positions from 4 games"]);
    let n = std::fs::read_dir(&positions).unwrap().count();
    assert!(n >= 1, "{}", cut.stdout);
    let played = dir.join("openings.jsonl");
    let games = (2 * n).to_string();
    let run = twogtp(&games, &played, &["--openings", path_str(&positions)]);
    run.ok().says(&[
        &format!("start positions: {n} (each played with both colours)"),
        "first engine's mean score margin",
    ]);
    for g in journal_lines(&played) {
        let k = g["opening"].as_u64().unwrap() as usize;
        assert_eq!(k, g["game"].as_u64().unwrap() as usize / 2);
        assert!(g["opening_moves"].as_u64().unwrap() >= 1);
    }
    // The journal is still a match journal for `yomi report`.
    yomi(&["report", path_str(&played)]).ok();

    std::fs::write(positions.join("zz.sgf"), "(;GM[1]SZ[7];B[cc])").unwrap();
    twogtp(
        "2",
        &dir.join("bad.jsonl"),
        &["--openings", path_str(&positions)],
    )
    .fails(
        2,
        &[
            "--openings",
            "zz.sgf",
            "a 7x7 record, but the match is on 5x5",
        ],
    );
    let not_journal = dir.join("records.txt");
    std::fs::write(&not_journal, "hello\n").unwrap();
    let e = yomi(&[
        "go",
        "positions",
        path_str(&not_journal),
        "--out",
        path_str(&dir),
    ]);
    assert_ne!(e.code, Some(0), "{}", e.stdout);
}
