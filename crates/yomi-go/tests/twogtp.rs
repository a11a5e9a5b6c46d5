//! The GTP match runner against real child processes: yomi's own engine (the
//! `yomi-go-gtp` binary), a misbehaving engine (a shell loop answering nonsense), and GNU
//! Go when it is installed (skipped with a notice otherwise).

use std::path::Path;
use std::time::Duration;

use yomi_go::twogtp::{first_points, summary, MatchConfig, Runner, Side};

const YOMI: &str = env!("CARGO_BIN_EXE_yomi-go-gtp");
const GNUGO: &str = "/usr/games/gnugo";

fn config(first: String, second: String, size: usize) -> MatchConfig {
    MatchConfig {
        first,
        second,
        size,
        komi: 0.5,
        alternate: true,
        trust: Side::Second,
        max_moves: 0,
        openings: Vec::new(),
    }
}

#[test]
fn yomi_against_itself_journals_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("match.jsonl");
    let cfg = config(
        format!("{YOMI} --agent mcts:iters=60 --seed {{seed}}"),
        format!("{YOMI} --agent mcts:iters=30 --seed {{game}}"),
        5,
    );
    let runner = Runner::new(cfg.clone());
    let mut played = Vec::new();
    let recs = runner
        .run(Some(&path), 2, |i, r| {
            assert!(r.is_ok(), "game {i}: {:?}", r.as_ref().err());
            played.push(i);
        })
        .unwrap();
    assert_eq!(played, [0, 1]);
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r.first_black, r.game % 2 == 0, "colours alternate");
        assert!(!r.moves.is_empty());
        if r.end == "passes" || r.end == "move limit" {
            // Both engines were asked to score.
            assert!(r.first_score.is_some() && r.second_score.is_some(), "{r:?}");
        }
    }
    // Resumed with more games: only the new one is played.
    let mut again = Vec::new();
    let recs = runner.run(Some(&path), 3, |i, _| again.push(i)).unwrap();
    assert_eq!(again, [2]);
    assert_eq!(recs.len(), 3);
    let (points, n) = first_points(&recs);
    assert_eq!(n, 3);
    assert!((0.0..=3.0).contains(&points));
    assert!(summary(&cfg, &recs).contains("games: 3"));
    // The journal refuses other settings.
    let other = Runner::new(MatchConfig {
        komi: 6.5,
        ..cfg.clone()
    });
    assert!(other.run(Some(&path), 3, |_, _| {}).is_err());
}

#[test]
fn an_engine_answering_nonsense_forfeits() {
    // Answers every command with success and `genmove` with a vertex off the board.
    let liar = "sh -c 'while read l; do case \"$l\" in genmove*) printf \"= Z99\\n\\n\";; quit*) printf \"=\\n\\n\"; exit 0;; *) printf \"=\\n\\n\";; esac; done'";
    let cfg = config(liar.to_string(), format!("{YOMI} --agent mcts:iters=20"), 5);
    let mut runner = Runner::new(cfg);
    runner.move_timeout = Duration::from_secs(60);
    let recs = runner.run(None, 2, |_, _| {}).unwrap();
    assert_eq!(recs.len(), 2);
    // Game 0: the liar is Black and forfeits at once; game 1: it is White.
    assert_eq!(recs[0].result, "W+F");
    assert_eq!(recs[0].winner, Some(Side::Second));
    assert_eq!(recs[1].result, "B+F");
    assert_eq!(recs[1].winner, Some(Side::Second));
    assert_eq!(
        recs[1].moves.len(),
        2,
        "yomi's first move, then the bad answer"
    );
}

#[test]
fn an_engine_that_does_not_start_aborts_the_game_only() {
    let cfg = config(
        "/nonexistent/engine".into(),
        format!("{YOMI} --agent mcts:iters=20"),
        5,
    );
    let mut errors = 0;
    let recs = Runner::new(cfg)
        .run(None, 2, |_, r| errors += r.is_err() as usize)
        .unwrap();
    assert_eq!(errors, 2);
    assert!(recs.is_empty(), "aborted games are not journalled");
}

#[test]
fn yomi_against_gnugo_when_installed() {
    if !Path::new(GNUGO).exists() {
        eprintln!("NOTICE: {GNUGO} not found; the GNU Go match test is skipped");
        return;
    }
    let mut cfg = config(
        format!("{YOMI} --agent rave:iters=300 --seed {{seed}}"),
        format!("{GNUGO} --mode gtp --level 1 --chinese-rules --seed {{seed}}"),
        9,
    );
    cfg.komi = 7.5;
    let recs = Runner::new(cfg).run(None, 1, |i, r| {
        assert!(r.is_ok(), "game {i}: {:?}", r.as_ref().err());
    });
    let recs = recs.unwrap();
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert!(r.first_black);
    if r.end == "passes" {
        // GNU Go always scores; yomi's answer is recorded beside it.
        assert!(r
            .second_score
            .as_deref()
            .is_some_and(|s| s.starts_with(['B', 'W', '0'])));
        assert!(r.first_score.is_some());
    } else {
        assert!(r.end == "resign" || r.end == "move limit", "{r:?}");
    }
}

/// Games start from the openings: each position once with each colour, its moves sent to
/// both engines and kept at the head of the record; bad openings are refused by name.
#[test]
fn games_start_from_the_openings_with_both_colours() {
    use yomi_go::twogtp::{load_openings, mean_margin, positions_before_end, Opening};
    let dir = tempfile::tempdir().unwrap();
    let openings = dir.path().join("openings");
    std::fs::create_dir(&openings).unwrap();
    // Two positions on 5×5; the second has a White move first (a Black pass before it).
    std::fs::write(
        openings.join("a.sgf"),
        "(;GM[1]SZ[5]KM[6.5];B[cc];W[bc];B[cd])",
    )
    .unwrap();
    std::fs::write(openings.join("b.sgf"), "(;GM[1]SZ[5];W[cc])").unwrap();
    std::fs::write(openings.join("notes.txt"), "not an opening").unwrap();
    let loaded = load_openings(&openings, 5).unwrap();
    assert_eq!(
        loaded,
        [
            Opening {
                name: "a.sgf".into(),
                moves: vec!["B C3".into(), "W B3".into(), "B C2".into()],
            },
            Opening {
                name: "b.sgf".into(),
                moves: vec!["B pass".into(), "W C3".into()],
            },
        ]
    );
    let mut cfg = config(
        format!("{YOMI} --agent mcts:iters=40 --seed {{seed}}"),
        format!("{YOMI} --agent mcts:iters=40 --seed {{game}}"),
        5,
    );
    cfg.openings = loaded;
    let path = dir.path().join("match.jsonl");
    let recs = Runner::new(cfg.clone())
        .run(Some(&path), 4, |i, r| {
            assert!(r.is_ok(), "game {i}: {:?}", r.as_ref().err())
        })
        .unwrap();
    assert_eq!(recs.len(), 4);
    for r in &recs {
        let k = r.game / 2;
        assert_eq!(r.opening, Some(k), "game {}", r.game);
        assert_eq!(r.first_black, r.game % 2 == 0);
        let want: Vec<String> = cfg.openings[k]
            .moves
            .iter()
            .map(|m| m.split(' ').nth(1).unwrap().to_string())
            .collect();
        assert_eq!(r.opening_moves, want.len());
        assert_eq!(r.moves[..want.len()], want[..], "game {}", r.game);
        assert!(r.moves.len() > want.len(), "the engines played on");
    }
    // Resumed with the same openings: nothing left to play.
    let again = Runner::new(cfg.clone())
        .run(Some(&path), 4, |i, _| panic!("game {i} played again"))
        .unwrap();
    assert_eq!(again, recs);
    // The journal keeps the openings in its settings: a match without them is refused.
    let plain = Runner::new(MatchConfig {
        openings: Vec::new(),
        ..cfg.clone()
    });
    assert!(plain.run(Some(&path), 4, |_, _| {}).is_err());
    let text = summary(&cfg, &recs);
    assert!(
        text.contains("start positions: 2 (each played with both colours)"),
        "{text}"
    );
    if let Some((_, _, n)) = mean_margin(&recs) {
        assert!(
            text.contains(&format!("over {n} games scored by count")),
            "{text}"
        );
    }
    // Positions cut from the match: 1 move before each game's end, none repeated.
    let cuts = positions_before_end(&recs, 5, 1, 1);
    assert!(!cuts.is_empty());
    for (game, rec) in &cuts {
        let r = &recs[*game];
        let played = r.moves.iter().rposition(|m| m != "pass").unwrap() + 1;
        assert_eq!(rec.moves.len(), played - 1, "game {game}");
        assert!(rec.replay().is_ok(), "game {game}");
    }
    let mut twice = recs.clone();
    twice.extend(recs.iter().cloned());
    assert_eq!(positions_before_end(&twice, 5, 1, 1).len(), cuts.len());
    assert!(
        positions_before_end(&recs, 5, 1, 1000).is_empty(),
        "too short"
    );

    // Refused, with the file's name and the reason.
    for (text, why) in [
        ("(;GM[1]SZ[9];B[cc])", "a 9x9 record"),
        ("(;GM[1]SZ[5]AB[aa];W[cc])", "setup stones"),
        ("(;GM[1]SZ[5];B[cc];W[cc])", "move 2 (W C3) is illegal"),
        ("(;GM[1]SZ[5];B[cc]", "syntax"),
    ] {
        let bad = dir.path().join("bad.sgf");
        std::fs::write(&bad, text).unwrap();
        let e = load_openings(&bad, 5).unwrap_err().to_string();
        assert!(e.contains("bad.sgf") && e.contains(why), "{text}: {e}");
    }
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let e = load_openings(&empty, 5).unwrap_err().to_string();
    assert!(e.contains("no .sgf file"), "{e}");
}
