//! NBoard and GTP sessions scripted through in-memory input and output.

use yomi_othello::protocol::{parse_ggf, run_gtp, run_nboard};
use yomi_othello::{Move, OthelloState};

fn nboard(script: &str) -> String {
    let mut out = Vec::new();
    run_nboard(script.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn gtp(script: &str) -> String {
    let mut out = Vec::new();
    run_gtp(std::io::Cursor::new(script.to_string()), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

const START_GGF: &str = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5//1.2]W[d6];)";

#[test]
fn ggf_records() {
    let (start, moves) = parse_ggf(START_GGF).unwrap();
    assert_eq!(start, OthelloState::start());
    assert_eq!(
        moves,
        vec!["f5".parse::<Move>().unwrap(), "d6".parse().unwrap()]
    );
    assert!(parse_ggf("(;GM[Othello];)").unwrap_err().contains("BO["));
    assert!(parse_ggf(&START_GGF.replace("B[f5//1.2]", "B[a1]"))
        .unwrap_err()
        .contains("illegal"));
    assert!(parse_ggf(&START_GGF.replace("BO[8 ", "BO[10 ")).is_err());
    assert!(parse_ggf(&START_GGF.replace("B[f5//1.2]", "B[zz]")).is_err());
}

#[test]
fn nboard_session() {
    let out = nboard(&format!(
        "nboard 2\nset depth 2\nset game {START_GGF}\nping 1\ngo\nmove c3\nhint 2\nbogus\nset depth x\nmove z9\nping 2\nquit\nping 3\n"
    ));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "set myname yomi");
    assert_eq!(lines[1], "pong 1");
    // Black to move after f5 d6: a legal reply.
    let go = lines[2].strip_prefix("=== ").expect(lines[2]);
    let mv: Move = go.split('/').next().unwrap().parse().unwrap();
    let (start, moves) = parse_ggf(START_GGF).unwrap();
    let mut s = start;
    for m in moves {
        s.play_unchecked(m);
    }
    assert!(
        s.legal() >> mv.index().unwrap() & 1 == 1,
        "{go} is not legal"
    );
    assert!(
        out.contains("status error: unknown command \"bogus\""),
        "{out}"
    );
    assert!(out.contains("status error: set depth"), "{out}");
    assert!(out.contains("pong 2"));
    assert!(!out.contains("pong 3"), "quit must stop the session");
    let searches = out.lines().filter(|l| l.starts_with("search ")).count();
    assert_eq!(searches, 2, "{out}");
}

#[test]
fn nboard_solves_endgames_exactly() {
    // 10 empties: the engine solves, and `hint` marks its values 100%.
    let line =
        "(;GM[Othello]BO[8 XXXXXXXXXOOOOOOXXOXXXXOXXOXOOXOXXOXXXOOXXOOOO-------OOO--------- O];)";
    let out = nboard(&format!("set game {line}\nhint 1\ngo\n"));
    assert!(out.contains(" 100%"), "{out}");
    assert!(out.contains("=== "), "{out}");
}

#[test]
fn gtp_session() {
    let out = gtp("1 protocol_version\nname\nboardsize 9\nboardsize 8\nplay b f5\nplay w d6\nplay b a1\nplay b\n2 genmove b\nshowboard\nundo\nknown_command genmove\nfoo\nset_position garbage\nfinal_score\nquit\nname\n");
    let replies: Vec<&str> = out.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies[0], "=1 2");
    assert_eq!(replies[1], "= yomi");
    assert!(replies[2].starts_with('?'));
    assert_eq!(replies[3], "=");
    assert_eq!(replies[4], "=");
    assert_eq!(replies[5], "=");
    assert!(replies[6].starts_with("? illegal move"), "{}", replies[6]);
    assert!(replies[7].starts_with("? syntax"), "{}", replies[7]);
    let mv = replies[8].strip_prefix("=2 ").unwrap();
    assert!(mv.parse::<Move>().is_ok(), "{mv}");
    assert!(replies[9].contains("a b c d e f g h"));
    assert_eq!(replies[10], "=");
    assert_eq!(replies[11], "= true");
    assert!(replies[12].starts_with("? unknown command"));
    assert!(replies[13].starts_with("? invalid position"));
    assert!(
        replies[14].starts_with("= B+") || replies[14].starts_with("= W+") || replies[14] == "= 0"
    );
    assert_eq!(
        replies.last().copied(),
        Some("="),
        "quit ends the session: {out}"
    );
}

fn nboard_bytes(script: &[u8]) -> String {
    let mut out = Vec::new();
    run_nboard(script, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn gtp_bytes(script: &[u8]) -> String {
    let mut out = Vec::new();
    run_gtp(std::io::Cursor::new(script.to_vec()), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn nboard_survives_a_non_utf8_byte() {
    let out = nboard_bytes(b"ping 1\n\xff\nping \xfe2\nping 3\n");
    assert!(out.contains("pong 1"), "{out}");
    assert!(out.contains("status error"), "{out}");
    assert!(out.contains("pong 3"), "{out}");
}

#[test]
fn gtp_survives_a_non_utf8_byte() {
    let out = gtp_bytes(b"1 name\n\xff\xfe\n2 protocol_version\n3 na\xffme\n4 version\n");
    assert!(out.contains("=1 yomi"), "{out}");
    assert!(out.contains("=2 2"), "{out}");
    assert!(out.contains("?3 "), "{out}");
    assert!(out.contains("=4 "), "{out}");
}

#[test]
fn nboard_over_long_line_gets_an_error_and_the_session_goes_on() {
    let mut script = b"ping 1\nset game ".to_vec();
    script.extend(std::iter::repeat_n(b'x', 200 * 1024));
    script.extend_from_slice(b"\nping 2\n");
    let out = nboard_bytes(&script);
    assert!(out.contains("pong 1"), "{out}");
    assert!(out.contains("status error: line longer than"), "{out}");
    assert!(out.contains("pong 2"), "{out}");
    assert!(
        out.len() < 1000,
        "the long line is not echoed: {} bytes",
        out.len()
    );
}

#[test]
fn gtp_over_long_line_gets_an_error_and_the_session_goes_on() {
    let mut script = b"1 name\n2 ".to_vec();
    script.extend(std::iter::repeat_n(b'x', 200 * 1024));
    script.extend_from_slice(b"\n3 name\n");
    let out = gtp_bytes(&script);
    assert!(out.contains("=1 yomi"), "{out}");
    assert!(out.contains("? line longer than"), "{out}");
    assert!(out.contains("=3 yomi"), "{out}");
    assert!(
        out.len() < 1000,
        "the long line is not echoed: {} bytes",
        out.len()
    );
}

#[test]
fn nboard_set_depth_60_then_go_answers_in_bounded_time() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let out = nboard("nboard 2\nset depth 60\ngo\n");
        let _ = tx.send(out);
    });
    let out = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("`go` at depth 60 answered within a minute");
    assert!(out.contains("=== "), "{out}");
}

/// Issue 16: `othello gtp` and `othello nboard` play any agent of the registry, not only
/// the built-in alpha-beta engine; a refused spec is an error at start.
#[test]
fn gtp_and_nboard_play_a_chosen_agent() {
    use yomi_othello::protocol::{run_gtp_with, run_nboard_with, Engine};
    let mut out = Vec::new();
    let engine = Engine::with_agent("mcts:iters=200", 3).unwrap();
    let script = "1 genmove b\n2 genmove w\n3 genmove b\n4 showboard\n";
    run_gtp_with(engine, std::io::Cursor::new(script), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let mut state = OthelloState::start();
    for id in 1..=3 {
        let answer = text
            .split("\n\n")
            .find_map(|a| a.strip_prefix(&format!("={id} ")))
            .unwrap_or_else(|| panic!("no answer {id}: {text}"));
        let mv: Move = answer.parse().unwrap();
        let sq = mv.index().unwrap();
        assert!(
            state.legal() & (1u64 << sq) != 0,
            "{answer} illegal: {text}"
        );
        state.play_unchecked(mv);
    }
    let mut out = Vec::new();
    let engine = Engine::with_agent("random", 5).unwrap();
    run_nboard_with(engine, "nboard 2\nset depth 4\ngo\n".as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("=== "), "{text}");
    assert!(Engine::with_agent("mcts:iters=-3", 1).is_err());
    assert!(Engine::with_agent("no-such-agent", 1).is_err());
}

/// Engines with small tables (as the fuzz targets build one per input, and below the
/// smallest size, which is clamped) play legal moves.
#[test]
fn engines_with_small_tables_play_legal_moves() {
    use yomi_othello::protocol::{run_gtp_with, Engine};
    for (solver_bits, search_bits) in [(10, 10), (4, 4), (0, 0)] {
        let engine = Engine::with_table_bits(solver_bits, search_bits);
        let mut out = Vec::new();
        let script = "1 genmove b\n2 genmove w\n3 genmove b\n";
        run_gtp_with(engine, std::io::Cursor::new(script), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut state = OthelloState::start();
        for id in 1..=3 {
            let answer = text
                .split("\n\n")
                .find_map(|a| a.strip_prefix(&format!("={id} ")))
                .unwrap_or_else(|| panic!("no answer {id}: {text}"));
            let mv: Move = answer.trim().parse().unwrap();
            let sq = mv.index().unwrap();
            assert!(
                state.legal() & (1u64 << sq) != 0,
                "{answer} illegal: {text}"
            );
            state.play_unchecked(mv);
        }
    }
}

/// `--nodes`: a node cap bounds each search without the clock, so a deep `set depth`
/// answers at once even with a minute per move, and the same session gives the same
/// replies (the time field of `===` aside).
#[test]
fn nboard_node_cap_bounds_searches_and_replies_repeat_exactly() {
    use yomi_othello::protocol::{run_nboard_with, Engine};
    let session = || {
        let mut engine = Engine::with_table_bits(12, 12);
        engine.move_time = std::time::Duration::from_secs(60);
        engine.max_nodes = Some(5_000);
        let mut out = Vec::new();
        let script = "nboard 2\nset depth 30\ngo\nmove F5\nhint 3\ngo\n";
        let t = std::time::Instant::now();
        run_nboard_with(engine, script.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let without_times: Vec<String> = text
            .lines()
            .map(|l| match l.strip_prefix("=== ") {
                Some(reply) => reply.rsplit_once('/').map_or(l, |(head, _)| head).into(),
                None => l.into(),
            })
            .collect();
        (without_times, t.elapsed())
    };
    let (a, ta) = session();
    let (b, tb) = session();
    assert_eq!(a, b);
    assert_eq!(a.iter().filter(|l| l.contains('/')).count(), 2, "{a:?}");
    assert_eq!(
        a.iter().filter(|l| l.starts_with("search ")).count(),
        3,
        "{a:?}"
    );
    for t in [ta, tb] {
        assert!(t.as_secs() < 20, "a capped session took {t:?}");
    }
}
