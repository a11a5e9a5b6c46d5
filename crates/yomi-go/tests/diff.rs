//! Difference-game playouts and the Go agent registry.

use yomi_core::search::mcts::LeafEvaluator;
use yomi_core::{Game, Player, Rng};
use yomi_go::diff::{DiffPlayout, DiffPolicy};
use yomi_go::heavy::HeavyConfig;
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
/// often than a move that gains nothing, with light and with heavy moves.
#[test]
fn bigger_root_moves_score_higher() {
    let g = GoGame::new(5).unwrap();
    // Black to move on the empty board: the centre C3 against the corner A1.
    let root = g.initial_state();
    for policy in [DiffPolicy::Light, DiffPolicy::Heavy(HeavyConfig::default())] {
        let mut p = DiffPlayout::with_policy(&root, policy);
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
            "{policy:?}: centre {centre} corner {corner}"
        );
    }
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
        "rave:iters=200,diff=true",
        "rave:iters=100,diff=true,threads=2",
        "rave:iters=200,diff=decided",
        "rave:iters=100,diff=decided,switch=0.3,resign=0",
        "dkmcts-linear:iters=200,handicap=2,moves=50,period=50",
        "dkmcts-score:iters=200,period=50,rate=-12,midpoint=0.5,cap=0.8",
        "dkmcts-value:iters=100,threads=2,period=20,red=0.4,green=0.55,step=0.5",
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
    assert!(r.build(&g, "rave:diff=maybe", 1).is_err());
    assert!(r.build(&g, "rave:diff=decided,switch=0.5", 1).is_err());
    for bad in [
        "dkmcts-value:red=1.5",
        "dkmcts-score:cap=abc",
        "dkmcts-linear:period=0",
        "dkmcts-linear:rate=1",
        "dkmcts-score:handicap=1",
        "dkmcts-value:iters=0",
        "dkmcts-score:time=-1",
    ] {
        let e = r
            .build(&g, bad, 1)
            .err()
            .unwrap_or_else(|| panic!("{bad} built"));
        assert!(!e.to_string().is_empty());
    }
}

/// A dynamic-komi agent keeps playing sensible games: a whole 5×5 game against random play
/// with only legal moves, the agent (Black) winning.
#[test]
fn dynamic_komi_agents_beat_random_play() {
    let r = registry();
    let g = GoGame::new(5).unwrap();
    for spec in [
        "dkmcts-score:iters=300,period=100",
        "dkmcts-value:iters=300,period=100",
    ] {
        let mut a = r.build(&g, spec, 7).unwrap();
        let mut b = r.build(&g, "random", 8).unwrap();
        let mut s = g.initial_state();
        while !g.is_terminal(&s) {
            let p = match g.turn(&s) {
                yomi_core::Turn::Player(p) => p,
                _ => unreachable!(),
            };
            let before = s.clone();
            let mv = if p == Player(0) {
                a.select_move(&g, &s, p).unwrap()
            } else {
                b.select_move(&g, &s, p).unwrap()
            };
            g.play(&mut s, mv).unwrap_or_else(|e| panic!("{spec}: {e}"));
            let played = yomi_core::Played::Single(p, mv);
            a.observe(&g, &before, played);
            b.observe(&g, &before, played);
        }
        assert!(
            g.returns(&s).get(Player(0)) > 0.0,
            "{spec}\n{}",
            g.render(&s)
        );
    }
}

/// The evaluator learns the root from core's `begin_search` (not from its constructor), and
/// terminal tree nodes are judged on G + Ḡ with komi cancelled, not by G's own result.
#[test]
fn diff_evaluator_takes_the_root_from_the_search_and_judges_terminals_on_the_sum() {
    let g = GoGame::new(5).unwrap();
    let root = g
        .parse_state("XX.OO/XX.OO/XX.OO/XX.OO/XX.OO b - 7.5")
        .unwrap();
    let mut p = DiffPlayout::new(&g.initial_state());
    p.begin_search(&g, &root);
    assert_eq!(*p.reversed_root, root.reversed());
    assert_eq!(p.first_player, root.to_move());
    // Black fills one dame point and both pass: Black gains a point on G while Ḡ is even.
    let mut end = root.clone();
    for m in ["C1", "pass", "pass"] {
        let v = g.parse_move(&end, m).unwrap();
        g.apply(&mut end, v);
    }
    assert!(g.is_terminal(&end));
    // G alone is a loss for Black (11 - 10 - 7.5 < 0), the sum game a win (+1 point).
    assert_eq!(g.returns(&end).get(Player(0)), -1.0);
    assert_eq!(p.evaluate_terminal(&g, &end).get(Player(0)), 1.0);
    // The untouched root sums to zero: a draw.
    let mut still = root.clone();
    for m in ["pass", "pass"] {
        let v = g.parse_move(&still, m).unwrap();
        g.apply(&mut still, v);
    }
    assert_eq!(p.evaluate_terminal(&g, &still).get(Player(0)), 0.0);
}

/// The difference game's tree expands every legal move, own eyes included. Go's search
/// moves leave a mover's own true eyes out (a filled eye is never worth playing in Go), but
/// in the tree of the sum game filling one's own eye is a tempo that keeps the line going
/// instead of a pass; with eyes left out, lines ended in two passes with Ḡ still unplayed
/// and the agent lost the B answers it had found (5 of 30 runs on these three problems
/// against 30 of 30 before `Game::search_moves`; found with the yose suite table).
#[test]
fn the_difference_game_tree_keeps_eye_fills_and_finds_the_b_answers() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/yose");
    let suite = yomi_go::yose::load_suite(&dir).unwrap();
    let r = registry();
    let mut right = 0;
    let mut asked = 0;
    for name in ["y14-7x7-B", "y16-7x7-B", "y24-9x9-B"] {
        let p = suite.iter().find(|p| p.name == name).unwrap();
        let (g, s) = p.position().unwrap();
        let yomi_core::Turn::Player(mover) = g.turn(&s) else {
            panic!("{name}: nobody to move")
        };
        for seed in 1..=4 {
            let mut a = r.build(&g, "diffmcts:iters=10000", seed).unwrap();
            let mv = a.select_move(&g, &s, mover).unwrap();
            right += usize::from(p.is_correct(mv));
            asked += 1;
        }
    }
    assert!(right >= 10, "{right} of {asked} correct");
}
