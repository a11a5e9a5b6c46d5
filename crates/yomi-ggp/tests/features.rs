//! The policy features of GDL games (true base proposition × action) and the learning
//! rules of yomi-learn on the shipped tic-tac-toe sheet.

use std::sync::Arc;

use yomi_core::{Game, Player, Rng};
use yomi_ggp::games;
use yomi_learn::eval::{best_move_probability, playout_value};
use yomi_learn::{FeatureGame, LearnParams, LinearPolicy, Method, Sample, Trainer};

#[test]
fn atoms_are_the_true_base_propositions_and_moves_the_actions() {
    let game = games::shipped("tictactoe").unwrap();
    let mut s = game.initial_state();
    let first = game.parse_move(&s, "(mark 1 1)").unwrap();
    game.apply(&mut s, first);
    let r = game.reasoner();
    let mut atoms = Vec::new();
    game.for_each_atom(&s, |a| atoms.push(a));
    assert_eq!(atoms, r.true_bases(&s));
    let names: Vec<String> = atoms.iter().map(|&a| game.atom_name(a)).collect();
    assert!(names.contains(&"(cell 1 1 x)".to_string()), "{names:?}");
    let mv = game.parse_move(&s, "(mark 1 2)").unwrap();
    let id = game.move_id(&s, Player(0), mv);
    assert_eq!(game.move_id_name(id), "(mark 1 2)");
    assert!((id as usize) < game.move_id_count());
    assert_eq!(game.atom_count(), r.base_terms().len());
}

/// A position where x (to move) wins at once with (mark 3 3).
fn x_wins_now(game: &yomi_ggp::GdlGame) -> Sample<yomi_ggp::GdlGame> {
    let mut s = game.initial_state();
    for m in ["(mark 1 1)", "(mark 1 2)", "(mark 2 2)", "(mark 1 3)"] {
        let mv = game.parse_move(&s, m).unwrap();
        game.play(&mut s, mv).unwrap();
    }
    let best = game.parse_move(&s, "(mark 3 3)").unwrap();
    Sample {
        state: s,
        mover: Player(0),
        best,
        value: 1.0,
    }
}

#[test]
fn al_learns_the_winning_move_and_sb_raises_its_playout_value() {
    let game = games::shipped("tictactoe").unwrap();
    let sample = x_wins_now(&game);
    let mut rng = Rng::seed_from_u64(3);
    let mut al = Trainer::new(
        &game,
        LinearPolicy::for_game(&game).unwrap(),
        LearnParams::default(),
    );
    let before = best_move_probability(&game, &al.policy, &sample);
    for _ in 0..60 {
        al.step(Method::Al, &game, &sample, &mut rng);
    }
    let after = best_move_probability(&game, &al.policy, &sample);
    assert!(before < 0.25 && after > 0.6, "{before} -> {after}");

    let params = LearnParams {
        m: 30,
        n: 30,
        ..LearnParams::default()
    };
    let mut sb = Trainer::new(&game, LinearPolicy::for_game(&game).unwrap(), params);
    let uniform = Arc::new(sb.policy.clone());
    let v0 = playout_value(&game, &uniform, &sample, 4000, &mut rng);
    for _ in 0..100 {
        sb.step(Method::Sb, &game, &sample, &mut rng);
    }
    let v1 = playout_value(&game, &Arc::new(sb.policy.clone()), &sample, 4000, &mut rng);
    assert!(v1 > v0 + 0.04, "playout value {v0} -> {v1} (target 1)");
}
