//! Core's conformance suite, core's generic perft, symmetries and hashing.

use yomi_core::encoding::check_tensor_game;
use yomi_core::testing::{check_game, perft as generic_perft, Conformance};
use yomi_core::{ActionSpace, Game, Player, Rng, TensorGame};
use yomi_othello::bitboard::Symmetry;
use yomi_othello::perft::perft;
use yomi_othello::{Move, Othello, OthelloState};

#[test]
fn othello_conforms() {
    check_game(
        &Othello,
        &Conformance {
            games: 200,
            ..Conformance::default()
        },
    );
}

#[test]
fn bulk_perft_agrees_with_core_perft() {
    // No game ends before ply 9, where the two conventions for finished games differ.
    let s = Othello.initial_state();
    for depth in 0..=6 {
        assert_eq!(
            perft(&s, depth),
            generic_perft(&Othello, &s, depth),
            "depth {depth}"
        );
    }
}

#[test]
fn passes_are_moves_and_double_pass_ends() {
    // Black to move has no move, white does: black must pass.
    let s: OthelloState = format!("-XO{} X", "X".repeat(61)).parse().unwrap();
    assert_eq!(s.legal(), 0);
    let mut moves = Vec::new();
    Othello.legal_moves(&s, &mut moves);
    assert_eq!(moves, vec![Move::PASS]);
    let mut t = s;
    Othello.apply(&mut t, Move::PASS);
    assert_eq!(t.to_move(), Player(1));
    assert!(t.legal() != 0);
    // A full board is over; black has more discs.
    let full: OthelloState = format!("{}{} O", "X".repeat(40), "O".repeat(24))
        .parse()
        .unwrap();
    assert!(Othello.is_terminal(&full));
    assert_eq!(Othello.returns(&full).get(Player(0)), 1.0);
    assert_eq!(full.final_score(), -16); // white (to move) is 16 discs behind
                                         // Empties go to the winner in the final score.
    let wipe: OthelloState = format!("{}{} O", "-".repeat(27), "X".repeat(37))
        .parse()
        .unwrap();
    assert!(wipe.is_over());
    assert_eq!(wipe.final_score(), -64);
    assert_eq!(Othello.returns(&wipe).get(Player(1)), -1.0);
}

#[test]
fn symmetric_positions_have_equal_perft_and_distinct_hashes() {
    let mut rng = Rng::seed_from_u64(3);
    let mut buf = Vec::new();
    let mut s = Othello.initial_state();
    for _ in 0..12 {
        let mv = Othello.random_move(&s, &mut rng, &mut buf).unwrap();
        Othello.apply(&mut s, mv);
    }
    let base = perft(&s, 4);
    let mut hashes = std::collections::HashSet::new();
    for sym in Symmetry::ALL {
        let t = s.transformed(sym);
        assert_eq!(perft(&t, 4), base, "{sym:?}");
        assert_eq!(t.legal(), sym.apply(s.legal()));
        hashes.insert(Othello.hash(&t));
    }
    assert!(hashes.len() >= 2);
    // The start position is symmetric under rotation by 180 degrees and the transposition.
    let start = OthelloState::start();
    let images = Symmetry::ALL
        .iter()
        .filter(|&&sym| start.transformed(sym) == start)
        .count();
    assert_eq!(images, 4);
}

#[test]
fn actions_and_tensors_conform() {
    check_tensor_game(&Othello, 30, 5);
}

#[test]
fn actions_are_squares_and_pass_and_planes_are_from_the_perspective() {
    let game = Othello;
    assert_eq!(game.num_actions(), 65);
    let s = game.initial_state();
    let d3: Move = "d3".parse().unwrap();
    assert_eq!(game.action_index(&s, d3), 19);
    assert_eq!(game.action_move(&s, Player(0), 19), Some(d3));
    assert_eq!(game.action_move(&s, Player(0), 0), None);
    assert_eq!(game.action_move(&s, Player(0), 64), None);
    assert_eq!(game.action_move(&s, Player(1), 19), None);
    // Black must pass here: the pass is action 64.
    let p: OthelloState = format!("-XO{} X", "X".repeat(61)).parse().unwrap();
    assert_eq!(game.action_index(&p, Move::PASS), 64);
    assert_eq!(game.action_move(&p, Player(0), 64), Some(Move::PASS));
    assert_eq!(game.action_move(&p, Player(0), 0), None);

    let shape = game.tensor_shape();
    assert_eq!((shape.channels, shape.height, shape.width), (4, 8, 8));
    let mut out = vec![0.0; shape.len()];
    game.encode(&s, Player(0), &mut out);
    // Black (to move) owns d5 (35) and e4 (28); white owns d4 (27) and e5 (36).
    assert_eq!(out[shape.offset(0, 4, 3)], 1.0);
    assert_eq!(out[shape.offset(0, 3, 4)], 1.0);
    assert_eq!(out[shape.offset(1, 3, 3)], 1.0);
    assert_eq!(out[shape.offset(1, 4, 4)], 1.0);
    assert_eq!(out[..64].iter().sum::<f32>(), 2.0);
    assert_eq!(out[128..192].iter().sum::<f32>(), 4.0);
    assert_eq!(out[shape.offset(2, 2, 3)], 1.0); // d3
    assert!(out[192..].iter().all(|&v| v == 1.0));
    game.encode(&s, Player(1), &mut out);
    assert_eq!(out[shape.offset(0, 3, 3)], 1.0);
    assert_eq!(out[shape.offset(1, 4, 3)], 1.0);
    assert!(out[128..192].iter().all(|&v| v == 0.0));
}
