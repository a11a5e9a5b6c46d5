//! The project's Crisscross sheet: core's conformance suite and the move and scoring rules.
//! (Agreement with the GGP community's sheet along random games is checked by the
//! `ggp_compare` example: that sheet takes minutes to ground.)

use yomi_core::testing::{check_game, Conformance};
use yomi_core::{Game, Player};
use yomi_ggp::games;

fn play(g: &yomi_ggp::GdlGame, s: &mut yomi_ggp::GdlState, moves: &[&str]) {
    for m in moves {
        let mv = g
            .parse_move(s, m)
            .unwrap_or_else(|e| panic!("{m}: {e}\n{}", g.format_state(s)));
        g.apply(s, mv);
    }
}

fn legal(g: &yomi_ggp::GdlGame, s: &yomi_ggp::GdlState) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_moves(s, &mut v);
    let mut t: Vec<String> = v.iter().map(|&m| g.format_move(s, m)).collect();
    t.sort();
    t
}

#[test]
fn crisscross_conforms() {
    let cfg = Conformance {
        games: 50,
        ..Conformance::default()
    };
    check_game(&games::shipped("crisscross").unwrap(), &cfg);
}

#[test]
fn steps_hops_and_double_hops() {
    let g = games::shipped("crisscross").unwrap();
    let mut s = g.initial_state();
    // Red: the front stones step east; the back stones hop over them.
    assert_eq!(
        legal(&g, &s),
        [
            "(move a3 c3)",
            "(move a4 c4)",
            "(move b3 c3)",
            "(move b4 c4)"
        ]
    );
    play(&g, &mut s, &["(move b3 c3)"]);
    // Teal: d2 steps north; c2 hops over the red stone on c3 to c4.
    assert_eq!(
        legal(&g, &s),
        [
            "(move c1 c3)".to_string(),
            "(move c2 c4)".into(),
            "(move d1 d3)".into(),
            "(move d2 d3)".into()
        ]
        .iter()
        .filter(|m| *m != "(move c1 c3)")
        .cloned()
        .collect::<Vec<_>>()
    );
    play(&g, &mut s, &["(move d2 d3)"]);
    // a3 hops b3? b3 is empty now: a3 steps to b3; c3 hops d3 to e3.
    let l = legal(&g, &s);
    assert!(
        l.contains(&"(move a3 b3)".into()) && l.contains(&"(move c3 e3)".into()),
        "{l:?}"
    );
    play(&g, &mut s, &["(move a3 b3)", "(move c2 c4)"]);
    // b3 -> c3 (empty now? c3 still red) : b3 hops c3 to d3? d3 is teal: occupied. So b3
    // has no move; c3 hops d3 to e3.
    let l = legal(&g, &s);
    assert!(!l.iter().any(|m| m.starts_with("(move b3")), "{l:?}");
    // A double hop: red b4 over c4 (teal) to d4, over ... needs d4 empty and e4 beyond.
    play(&g, &mut s, &["(move c3 e3)", "(move d1 d2)"]);
    let l = legal(&g, &s);
    assert!(l.contains(&"(move b4 d4)".into()), "{l:?}");
}

#[test]
fn scoring_follows_the_community_table() {
    let g = games::shipped("crisscross").unwrap();
    // At move 40 without an arrival: red holds e3, f3, f4 (the table gives 75 when e3 or
    // e4 is missing, 50 when f3 or f4 is), teal holds nothing of its arm.
    let s = g
        .parse_state("((stone e3 red) (stone f3 red) (stone f4 red) (stone a3 red) (stone c1 teal) (stone c2 teal) (stone d1 teal) (stone d2 teal) (control red) (step 40))")
        .unwrap();
    assert!(g.is_terminal(&s));
    assert_eq!(g.returns(&s).get(Player(0)), 75.0);
    assert_eq!(g.returns(&s).get(Player(1)), 0.0);
    let s = g
        .parse_state("((stone e3 red) (stone e4 red) (stone f3 red) (stone a3 red) (stone c1 teal) (stone c2 teal) (stone d1 teal) (stone d2 teal) (control red) (step 40))")
        .unwrap();
    assert_eq!(g.returns(&s).get(Player(0)), 50.0);
    let s = g
        .parse_state("((stone e4 red) (stone f3 red) (stone f4 red) (stone a3 red) (stone c5 teal) (stone d5 teal) (stone c6 teal) (stone d6 teal) (first teal) (control red) (step 30))")
        .unwrap();
    // Teal arrived first; red's arrival is still pending, so the game goes on.
    assert!(!g.is_terminal(&s));
    let s = g
        .parse_state("((stone e3 red) (stone e4 red) (stone f3 red) (stone f4 red) (stone c5 teal) (stone d5 teal) (stone c6 teal) (stone d6 teal) (first teal) (control red) (step 30))")
        .unwrap();
    assert!(g.is_terminal(&s));
    assert_eq!(g.returns(&s).get(Player(1)), 100.0);
    assert_eq!(g.returns(&s).get(Player(0)), 25.0);
}
