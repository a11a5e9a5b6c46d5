//! The learning rules on core's Nim (features: stones left, player to move; move ids: the
//! number taken minus one), small enough to check by hand and by exact enumeration.

use std::sync::Arc;

use yomi_core::search::mcts::{LeafEvaluator, Rollout};
use yomi_core::testing::{Nim, NimState};
use yomi_core::{Game, Player, Rng};
use yomi_learn::eval::{best_move_probability, evaluate, playout_value};
use yomi_learn::features::feature_index;
use yomi_learn::{
    softmax_policy, FeatureGame, GradientSign, LearnError, LearnParams, LinearPolicy, Method,
    Sample, Trainer,
};

fn sample(game: &Nim, stones: u32, mover: u8, best: u32, value: f64) -> Sample<Nim> {
    let _ = game;
    Sample {
        state: NimState {
            stones,
            to_move: Player(mover),
        },
        mover: Player(mover),
        best,
        value,
    }
}

/// The exact expected reward of player 0 (on [-1, 1]) when both players follow π_θ.
fn exact_value(game: &Nim, policy: &LinearPolicy, s: &NimState) -> f64 {
    if s.stones == 0 {
        // The player to move faces an empty heap: the other one took the last stone.
        return if s.to_move == Player(1) { 1.0 } else { -1.0 };
    }
    let mut moves = Vec::new();
    game.legal_moves(s, &mut moves);
    let mut atoms = Vec::new();
    game.for_each_atom(s, |a| atoms.push(a));
    let ids: Vec<u32> = moves
        .iter()
        .map(|&m| game.move_id(s, s.to_move, m))
        .collect();
    let mut probs = Vec::new();
    policy.probabilities(&atoms, &ids, &mut probs);
    moves
        .iter()
        .zip(&probs)
        .map(|(&m, p)| {
            let mut next = *s;
            game.apply(&mut next, m);
            p * exact_value(game, policy, &next)
        })
        .sum()
}

#[test]
fn psi_by_hand_at_theta_zero() {
    // Nim(5): atoms 0..=5 stones, 6 = player 0 to move, 7 = player 1 to move.
    let game = Nim::new(5);
    let s = sample(&game, 5, 0, 1, 1.0);
    let mut t = Trainer::new(
        &game,
        LinearPolicy::for_game(&game).unwrap(),
        LearnParams::default(),
    );
    let psi = t.psi(&game, &s);
    let a = game.atom_count();
    assert_eq!(a, 8);
    let mut expected = vec![0.0; a * 3];
    // φ(s, take 1) has ones at (5 stones, take 1) and (player 0, take 1); π is uniform (1/3).
    for atom in [5u32, 6] {
        expected[feature_index(a, atom, 0)] = 1.0 - 1.0 / 3.0;
        expected[feature_index(a, atom, 1)] = -1.0 / 3.0;
        expected[feature_index(a, atom, 2)] = -1.0 / 3.0;
    }
    for (i, (x, y)) in psi.iter().zip(&expected).enumerate() {
        assert!((x - y).abs() < 1e-12, "feature {i}: {x} != {y}");
    }
    // One AL step adds α ψ.
    t.al_step(&game, &s);
    for (w, e) in t.policy.weights().iter().zip(&expected) {
        assert!((w - 0.05 * e).abs() < 1e-12);
    }
}

#[test]
fn psi_at_a_nonzero_theta_matches_the_log_probability_gradient() {
    // Finite differences of log π(s, a) against ψ at a random θ.
    let game = Nim::new(6);
    let mut policy = LinearPolicy::for_game(&game).unwrap();
    let mut rng = Rng::seed_from_u64(3);
    for w in policy.weights_mut() {
        *w = rng.unit_f64() * 2.0 - 1.0;
    }
    let s = sample(&game, 6, 1, 2, 0.0);
    let log_pi = |p: &LinearPolicy| best_move_probability(&game, p, &s).ln();
    let mut t = Trainer::new(&game, policy.clone(), LearnParams::default());
    let psi = t.psi(&game, &s);
    let h = 1e-6;
    for (i, &psi_i) in psi.iter().enumerate() {
        let mut plus = policy.clone();
        plus.weights_mut()[i] += h;
        let mut minus = policy.clone();
        minus.weights_mut()[i] -= h;
        let fd = (log_pi(&plus) - log_pi(&minus)) / (2.0 * h);
        assert!((fd - psi_i).abs() < 1e-6, "feature {i}: {fd} vs {psi_i}");
    }
}

#[test]
fn sb_gradient_estimates_the_exact_gradient_of_the_expected_reward() {
    let game = Nim::new(5);
    let mut policy = LinearPolicy::for_game(&game).unwrap();
    let mut rng = Rng::seed_from_u64(11);
    for w in policy.weights_mut() {
        *w = rng.unit_f64() - 0.5;
    }
    let s = sample(&game, 5, 0, 1, 1.0);
    let h = 1e-6;
    let exact: Vec<f64> = (0..policy.weights().len())
        .map(|i| {
            let mut plus = policy.clone();
            plus.weights_mut()[i] += h;
            let mut minus = policy.clone();
            minus.weights_mut()[i] -= h;
            (exact_value(&game, &plus, &s.state) - exact_value(&game, &minus, &s.state)) / (2.0 * h)
        })
        .collect();
    let mut t = Trainer::new(&game, policy.clone(), LearnParams::default());
    let g = t.sb_gradient(&game, &s, 40_000, false, &mut Rng::seed_from_u64(5));
    let mut largest = 0.0f64;
    for (i, (e, g)) in exact.iter().zip(&g).enumerate() {
        assert!((e - g).abs() < 0.03, "feature {i}: exact {e}, estimate {g}");
        largest = largest.max(e.abs());
    }
    assert!(
        largest > 0.1,
        "the gradient should not be trivially zero: {exact:?}"
    );
    // The mover-relative variant is a different quantity (player 1's moves flip sign).
    let params = LearnParams {
        sign: GradientSign::MoverRelative,
        ..LearnParams::default()
    };
    let mut t = Trainer::new(&game, policy, params);
    let g2 = t.sb_gradient(&game, &s, 40_000, false, &mut Rng::seed_from_u64(5));
    let diff = exact
        .iter()
        .zip(&g2)
        .map(|(e, g)| (e - g).abs())
        .fold(0.0, f64::max);
    assert!(
        diff > 0.1,
        "mover-relative should differ from the exact gradient"
    );
}

#[test]
fn al_raises_the_probability_of_the_expert_moves() {
    let game = Nim::new(9);
    // Perfect play: leave a multiple of 4.
    let data: Vec<Sample<Nim>> = [(9, 1), (7, 3), (6, 2), (5, 1), (3, 3), (2, 2), (1, 1)]
        .iter()
        .flat_map(|&(st, best)| {
            [
                sample(&game, st, 0, best, 1.0),
                sample(&game, st, 1, best, 1.0),
            ]
        })
        .collect();
    let mean_cr = |p: &LinearPolicy| {
        data.iter()
            .map(|s| best_move_probability(&game, p, s))
            .sum::<f64>()
            / data.len() as f64
    };
    let mut t = Trainer::new(
        &game,
        LinearPolicy::for_game(&game).unwrap(),
        LearnParams::default(),
    );
    let before = mean_cr(&t.policy);
    let mut rng = Rng::seed_from_u64(1);
    let mut last = before;
    for epoch in 0..30 {
        for s in &data {
            t.step(Method::Al, &game, s, &mut rng);
        }
        let cr = mean_cr(&t.policy);
        // Each AL step is a gradient step on the log-likelihood: with this small α the
        // mean correct rate rises epoch by epoch.
        assert!(cr > last - 1e-9, "epoch {epoch}: {cr} < {last}");
        last = cr;
    }
    assert!(before < 0.5, "{before}");
    assert!(last > 0.75, "CR after AL: {last}");
}

/// Trains SB / AL+SB on one state with the given target and returns (before, after)
/// playout values.
fn balance(method: Method, target: f64, steps: usize) -> (f64, f64) {
    let game = Nim::new(7);
    let s = sample(&game, 7, 0, 3, target);
    let mut t = Trainer::new(
        &game,
        LinearPolicy::for_game(&game).unwrap(),
        LearnParams::default(),
    );
    let value = |p: &LinearPolicy| exact_value(&game, p, &s.state);
    let before = value(&t.policy);
    let mut rng = Rng::seed_from_u64(9);
    for _ in 0..steps {
        t.step(method, &game, &s, &mut rng);
    }
    (before, value(&t.policy))
}

#[test]
fn sb_moves_the_playout_value_towards_the_target() {
    for target in [1.0, -1.0] {
        let (before, after) = balance(Method::Sb, target, 150);
        assert!(
            (after - target).abs() < (before - target).abs() - 0.2,
            "target {target}: value {before} -> {after}"
        );
    }
}

#[test]
fn al_sb_moves_the_playout_value_towards_the_target() {
    // Algorithm 2's SB term is divided by the simulation length: it needs more steps.
    let (before, after) = balance(Method::AlSb, -1.0, 400);
    assert!(after < before - 0.2, "value {before} -> {after}");
}

#[test]
fn core_softmax_playouts_sample_from_the_policy() {
    let game = Nim::new(6);
    let mut policy = LinearPolicy::for_game(&game).unwrap();
    let a = game.atom_count();
    policy.weights_mut()[feature_index(a, 6, 1)] = 1.5; // 6 stones, take 2
    let policy = Arc::new(policy);
    let s = game.initial_state();
    let mut probs = Vec::new();
    policy.probabilities(&[6, 7], &[0, 1, 2], &mut probs);
    let mut counts = [0u32; 3];
    let mut rng = Rng::seed_from_u64(2);
    let mut pol = softmax_policy(policy.clone());
    let mut buf = Vec::new();
    let n = 30_000;
    for _ in 0..n {
        let m =
            yomi_core::search::mcts::PlayoutPolicy::choose(&mut pol, &game, &s, &mut rng, &mut buf)
                .unwrap();
        counts[m as usize - 1] += 1;
    }
    for k in 0..3 {
        let f = counts[k] as f64 / n as f64;
        assert!(
            (f - probs[k]).abs() < 0.015,
            "move {k}: {f} vs {}",
            probs[k]
        );
    }
    // And the playout value through core's rollout agrees with the exact expectation.
    let sm = Sample::<Nim> {
        state: s,
        mover: Player(0),
        best: 2,
        value: 1.0,
    };
    let v = playout_value(&game, &policy, &sm, 20_000, &mut rng);
    let e = exact_value(&game, &policy, &s);
    assert!((v - e).abs() < 0.03, "{v} vs {e}");
    let mut leaf = Rollout::new(softmax_policy(policy.clone()));
    let mut st = s;
    assert!(game.is_terminal({
        leaf.evaluate(&game, &mut st, &mut rng, &mut buf);
        &st
    }));
    // evaluate() is deterministic for a seed and gives CR and MSE in range.
    let sc = evaluate(&game, &policy, &[sm.clone(), sm], 50, 4);
    assert!((0.0..=1.0).contains(&sc.cr) && sc.mse >= 0.0);
    assert_eq!(
        sc,
        evaluate(
            &game,
            &policy,
            &[sample(&game, 6, 0, 2, 1.0), sample(&game, 6, 0, 2, 1.0)],
            50,
            4
        )
    );
}

#[test]
fn weights_round_trip_and_bad_files_are_typed_errors() {
    let game = Nim::new(4);
    let mut p = LinearPolicy::for_game(&game).unwrap();
    p.weights_mut()[3] = 0.25;
    p.weights_mut()[10] = -1.5;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.json");
    p.save(&path, "nim").unwrap();
    assert_eq!(LinearPolicy::load(&path, "nim").unwrap(), p);
    assert!(matches!(
        LinearPolicy::load(&path, "chess"),
        Err(LearnError::BadFile { .. })
    ));
    std::fs::write(&path, "{not json").unwrap();
    assert!(matches!(
        LinearPolicy::load(&path, "nim"),
        Err(LearnError::BadFile { .. })
    ));
    std::fs::write(
        &path,
        r#"{"format":"yomi-learn linear softmax policy v1","game":"nim","atoms":7,"moves":3,"weights":[[999,1.0]]}"#,
    )
    .unwrap();
    assert!(matches!(
        LinearPolicy::load(&path, "nim"),
        Err(LearnError::BadFile { .. })
    ));
    assert!(matches!(
        LinearPolicy::load(&dir.path().join("missing.json"), "nim"),
        Err(LearnError::Io { .. })
    ));
    assert!(LinearPolicy::zeros(1 << 20, 1 << 20).is_err());
}
