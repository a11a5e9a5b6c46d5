//! The registry, the shipped evaluation and the UCT variants.

use yomi_core::search::Evaluator;
use yomi_core::{Agent, Game, Player, Rng};
use yomi_othello::agents::UCT_VARIANTS;
use yomi_othello::bitboard::Symmetry;
use yomi_othello::eval::{PatternEval, WeightsError};
use yomi_othello::{registry, Othello, OthelloState};

fn random_states(count: usize, seed: u64) -> Vec<OthelloState> {
    let mut rng = Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut out = Vec::new();
    while out.len() < count {
        let mut s = Othello.initial_state();
        while !Othello.is_terminal(&s) {
            out.push(s);
            let mv = Othello.random_move(&s, &mut rng, &mut buf).unwrap();
            Othello.apply(&mut s, mv);
        }
        out.push(s);
    }
    out
}

#[test]
fn default_evaluator_is_the_trained_pattern_evaluation() {
    let reg = registry();
    let entry = reg
        .evaluators()
        .iter()
        .find(|e| e.name == "default")
        .unwrap();
    assert!(entry.summary.contains("pattern"), "{}", entry.summary);
    let eval = reg.evaluator("test", "default").unwrap();
    let shipped = PatternEval::shipped();
    assert!(
        shipped.weights().iter().filter(|w| **w != 0.0).count() > 10_000,
        "the shipped weights look untrained"
    );
    let mut distinct = std::collections::HashSet::new();
    for s in random_states(300, 4) {
        let r = eval.evaluate(&Othello, &s);
        assert!(r.sum().abs() < 1e-12);
        if Othello.is_terminal(&s) {
            assert_eq!(r, Othello.returns(&s));
            continue;
        }
        let v = r.get(s.to_move());
        assert!(v > -1.0 && v < 1.0, "{v}");
        distinct.insert((v * 1e6) as i64);
        // Symmetric positions score the same.
        let score = shipped.score_state(&s);
        for sym in Symmetry::ALL {
            let t = shipped.score_state(&s.transformed(sym));
            assert!((t - score).abs() < 1e-3, "{sym:?}: {t} vs {score}");
        }
    }
    assert!(distinct.len() > 50);
}

#[test]
fn weights_file_round_trips_and_rejects_garbage() {
    let e = PatternEval::shipped();
    let bytes = e.to_bytes();
    assert_eq!(&PatternEval::from_bytes(&bytes).unwrap(), e.as_ref());
    assert!(matches!(
        PatternEval::from_bytes(b"short"),
        Err(WeightsError::Corrupt)
    ));
    assert!(matches!(
        PatternEval::from_bytes(b"NOTYOMI!xxxxxxxxxxxxxxxxxxxxxxxx"),
        Err(WeightsError::Format)
    ));
    assert!(matches!(
        PatternEval::from_bytes(&bytes[..bytes.len() - 3]),
        Err(WeightsError::Corrupt)
    ));
    let mut wrong = bytes.clone();
    wrong[12] = 5; // stage count
    assert!(matches!(
        PatternEval::from_bytes(&wrong),
        Err(WeightsError::Shape { .. })
    ));
}

#[test]
fn every_variant_builds_and_plays_legal_moves() {
    let reg = registry();
    let game = Othello;
    // A midgame position reached by random play.
    let start = random_states(30, 9)[20];
    for (i, variant) in UCT_VARIANTS.iter().enumerate() {
        let spec = format!("{variant}:iters=60");
        let mut agent = reg.build(&game, &spec, i as u64).unwrap();
        assert_eq!(agent.name(), spec);
        let mut s = start;
        for _ in 0..6 {
            if game.is_terminal(&s) {
                break;
            }
            let Player(p) = s.to_move();
            let mv = agent.select_move(&game, &s, Player(p)).unwrap();
            game.play(&mut s, mv).unwrap();
        }
    }
    for bad in [
        "uct:iters=0",
        "uct-break:break=0",
        "uct+:eval=zebra",
        "uct:foo=1",
        "uct+:w=x",
    ] {
        assert!(reg.build(&game, bad, 1).is_err(), "{bad}");
    }
    for spec in [
        "mcts:select=ucb-eval,iters=50",
        "alphabeta:depth=2",
        "mcts:cutoff=10,iters=50",
    ] {
        reg.build(&game, spec, 1).unwrap();
    }
}

#[test]
fn uct_variants_find_the_only_winning_move() {
    // Positions with 7 empties where exactly one move wins and another loses.
    let mut solver = yomi_othello::solver::Solver::new(16);
    let mut rng = Rng::seed_from_u64(21);
    let mut buf = Vec::new();
    let mut found = Vec::new();
    while found.len() < 3 {
        let mut s = Othello.initial_state();
        while s.empty_count() > 7 && !Othello.is_terminal(&s) {
            let mv = Othello.random_move(&s, &mut rng, &mut buf).unwrap();
            Othello.apply(&mut s, mv);
        }
        if Othello.is_terminal(&s) {
            continue;
        }
        let scores = solver.move_scores(&s);
        let wins = scores.iter().filter(|x| x.1 > 0).count();
        if wins == 1 && scores.iter().any(|x| x.1 < 0) {
            found.push((s, scores));
        }
    }
    let reg = registry();
    for variant in UCT_VARIANTS {
        for (i, (s, scores)) in found.iter().enumerate() {
            let mut agent = reg
                .build(&Othello, &format!("{variant}:iters=3000"), i as u64)
                .unwrap();
            let mv = agent.select_move(&Othello, s, s.to_move()).unwrap();
            let v = scores.iter().find(|x| x.0 == mv).unwrap().1;
            assert!(
                v > 0,
                "{variant} chose {mv} ({v}) in {s}; scores {scores:?}"
            );
        }
    }
}
