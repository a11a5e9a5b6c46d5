//! The project's Dobutsu shogi sheets: the same game as the GGP community's sheet along
//! random games (legal moves of both roles, terminal states, goals), core's conformance
//! suite, and the capture rule that tells variant O apart.

mod common;

use yomi_core::testing::{check_game, Conformance};
use yomi_core::{Game, Rng};
use yomi_ggp::{games, GdlGame, GdlState};

/// The legal moves of every role as sorted text.
fn legal_texts(g: &GdlGame, s: &GdlState) -> Vec<Vec<String>> {
    let r = g.reasoner();
    let mut buf = Vec::new();
    (0..r.roles().len())
        .map(|role| {
            r.legal_into(s, role, &mut buf);
            let mut v: Vec<String> = buf.iter().map(|&a| r.action_text(a).to_string()).collect();
            v.sort();
            v
        })
        .collect()
}

/// Plays `games` random games on `a`, replaying every joint move on `b` by its text, and
/// checks that both agree at every step.
fn agree(a: &GdlGame, b: &GdlGame, games: usize, seed: u64) -> (usize, f64) {
    let (ra, rb) = (a.reasoner(), b.reasoner());
    let mut rng = Rng::seed_from_u64(seed);
    let mut steps = 0;
    let mut first_goal = 0.0;
    for _ in 0..games {
        let (mut sa, mut sb) = (a.initial_state(), b.initial_state());
        loop {
            let la = legal_texts(a, &sa);
            assert_eq!(
                la,
                legal_texts(b, &sb),
                "legal moves differ in {}",
                a.format_state(&sa)
            );
            assert_eq!(
                ra.is_terminal(&sa),
                rb.is_terminal(&sb),
                "{}",
                a.format_state(&sa)
            );
            if ra.is_terminal(&sa) {
                assert_eq!(
                    ra.goal_values(&sa),
                    rb.goal_values(&sb),
                    "{}",
                    a.format_state(&sa)
                );
                first_goal += a.returns(&sa).get(yomi_core::Player(0));
                break;
            }
            let texts: Vec<&String> = la.iter().map(|m| &m[rng.below(m.len())]).collect();
            let ja: Vec<u32> = texts
                .iter()
                .enumerate()
                .map(|(r, t)| a.parse_action(&sa, r, t).unwrap())
                .collect();
            let jb: Vec<u32> = texts
                .iter()
                .enumerate()
                .map(|(r, t)| b.parse_action(&sb, r, t).unwrap())
                .collect();
            ra.step(&mut sa, &ja);
            rb.step(&mut sb, &jb);
            steps += 1;
        }
    }
    (steps, first_goal / games as f64)
}

#[test]
fn dobutsu_shogi_plays_like_the_shared_sheet() {
    let ours = games::shipped("dobutsushogi").unwrap();
    let Some(dir) = common::gdl_dir() else { return };
    let Ok(text) = std::fs::read_to_string(dir.join("dobutsushogi.kif")) else {
        eprintln!("notice: dobutsushogi.kif missing; skipping");
        return;
    };
    let theirs = GdlGame::from_kif("dobutsushogi", &text).unwrap();
    let (steps, _) = agree(&ours, &theirs, 300, 11);
    assert!(steps > 300 * 5, "{steps} steps");
}

#[test]
fn dobutsu_sheets_conform() {
    let cfg = Conformance {
        games: 20,
        ..Conformance::default()
    };
    check_game(&games::shipped("dobutsushogi").unwrap(), &cfg);
    check_game(&games::shipped("dobutsushogi_o").unwrap(), &cfg);
}

#[test]
fn captured_pieces_go_to_the_captor_or_in_variant_o_to_the_owner() {
    for (name, hand) in [
        ("dobutsushogi", "(hand sente chick 1)"),
        ("dobutsushogi_o", "(hand gote chick 1)"),
    ] {
        let g = games::shipped(name).unwrap();
        let mut s = g.initial_state();
        let mv = g.parse_move(&s, "(move b 2 b 3 chick)").unwrap();
        g.apply(&mut s, mv);
        let text = g.format_state(&s);
        assert!(text.contains(hand), "{name}: {text}");
        assert!(text.contains("(cell b 3 sente chick)"), "{name}: {text}");
        // Gote's lion takes the chick back: now each side holds a chick either way (in
        // variant O sente's own chick came home), and sente may drop it on an empty square.
        let mv = g.parse_move(&s, "(move b 4 b 3 lion)").unwrap();
        g.apply(&mut s, mv);
        let t = g.format_state(&s);
        assert!(
            t.contains("(hand sente chick 1)") && t.contains("(hand gote chick 1)"),
            "{t}"
        );
        assert!(g.parse_move(&s, "(put a 3 chick)").is_ok(), "{t}");
        assert!(
            g.parse_move(&s, "(put b 3 chick)").is_err(),
            "occupied: {t}"
        );
    }
    // Both variants agree wherever no capture happened; variant O differs after one.
    let (std, o) = (
        games::shipped("dobutsushogi").unwrap(),
        games::shipped("dobutsushogi_o").unwrap(),
    );
    assert_eq!(
        legal_texts(&std, &std.initial_state()),
        legal_texts(&o, &o.initial_state())
    );
}

#[test]
fn capturing_the_lion_or_a_surviving_lion_on_the_far_rank_wins() {
    let g = games::shipped("dobutsushogi").unwrap();
    // Sente's lion walks b1-a2-a3 while gote shuffles its giraffe, then captures on a4.
    let mut s = g.initial_state();
    for m in [
        "(move b 1 a 2 lion)",
        "(move c 4 c 3 giraffe)",
        "(move a 2 a 3 lion)",
        "(move c 3 c 4 giraffe)",
        "(move a 3 a 4 lion)",
    ] {
        let mv = g.parse_move(&s, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        g.apply(&mut s, mv);
    }
    // Sente's lion took the elephant on a4 (far rank); gote cannot take it back (b4 lion is
    // adjacent: it can). Gote takes it: gote wins.
    let mv = g.parse_move(&s, "(move b 4 a 4 lion)").unwrap();
    g.apply(&mut s, mv);
    assert!(g.is_terminal(&s));
    assert_eq!(g.returns(&s).get(yomi_core::Player(1)), 100.0);
    assert_eq!(g.returns(&s).get(yomi_core::Player(0)), 0.0);
}
