//! Difference-game playouts and the Go agent registry.

use yomi_core::search::mcts::LeafEvaluator;
use yomi_core::{Game, Player, Rng};
use yomi_go::diff::DiffPlayout;
use yomi_go::{registry, GoGame};

/// G + Ḡ is balanced: from the root itself (no root move yet), the sum game is a fair
/// fight, so Black's mean result stays near 0, unlike plain playouts of the same position
/// which White wins by komi.
#[test]
fn sum_game_from_the_root_is_balanced() {
    let g = GoGame::new(5).unwrap();
    let root = g.initial_state();
    let mut p = DiffPlayout::new(&root);
    let mut rng = Rng::seed_from_u64(3);
    let mut buf = Vec::new();
    let n = 2000;
    let mut total = 0.0;
    for _ in 0..n {
        let mut s = root.clone();
        total += p.evaluate(&g, &mut s, &mut rng, &mut buf).get(Player(0));
    }
    let mean = total / n as f64;
    assert!(mean.abs() < 0.1, "mean {mean}");
    // Reversal: stones, side and komi flip; reversing twice gives the position back.
    let s = g
        .parse_state("X..../..O../...../...../..... w - 7.5")
        .unwrap();
    let r = s.reversed();
    assert_eq!(
        g.format_state(&r),
        "O..../..X../...../...../..... b - -7.5 0 0 0 0"
    );
    assert_eq!(r.reversed(), s);
}

/// A root move that gains points wins the sum game against the untouched reversal more
/// often than a move that gains nothing.
#[test]
fn bigger_root_moves_score_higher() {
    let g = GoGame::new(5).unwrap();
    // Black to move; a black stone at D4 would be captured at once by nothing, C3 is the
    // centre; compare the centre with a first-line move.
    let root = g.initial_state();
    let p = DiffPlayout::new(&root);
    let mut rng = Rng::seed_from_u64(5);
    let mut buf = Vec::new();
    let mut rate = |mv: &str| {
        let v = g.parse_move(&root, mv).unwrap();
        let mut wins = 0.0;
        for _ in 0..3000 {
            let mut s = root.clone();
            s.begin_line();
            g.apply(&mut s, v);
            let (lead, _) = p.play_sum(&g, &mut s, &mut rng, &mut buf);
            wins += (lead > 0) as u32 as f64 + 0.5 * (lead == 0) as u32 as f64;
        }
        wins / 3000.0
    };
    let centre = rate("C3");
    let corner = rate("A1");
    assert!(
        centre > 0.5 && centre > corner + 0.05,
        "centre {centre} corner {corner}"
    );
}

#[test]
fn registry_builds_go_agents_and_they_play() {
    let r = registry();
    let g = GoGame::new(5).unwrap();
    let s = g.initial_state();
    for spec in [
        "mcts:iters=200",
        "diffmcts:iters=200",
        "diffmcts:iters=50,c=1,threads=2",
        "random",
    ] {
        let mut a = r
            .build(&g, spec, 1)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        let mv = a.select_move(&g, &s, Player(0)).unwrap();
        assert!(g.is_legal(&s, mv), "{spec}");
    }
    assert!(r.build(&g, "diffmcts:iters=0", 1).is_err());
    assert!(r.build(&g, "diffmcts:foo=1", 1).is_err());
}
