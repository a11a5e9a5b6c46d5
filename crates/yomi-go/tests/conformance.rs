//! Core's conformance suite on 5×5, 9×9 and 19×19 (and the suicide variant).

use yomi_core::encoding::{check_action_space, check_tensor_game};
use yomi_core::testing::{check_game, Conformance};
use yomi_core::{ActionSpace, Game, Player, TensorGame};
use yomi_go::yose::RegionGame;
use yomi_go::{GoGame, Rules, Vertex};

fn cfg(games: usize) -> Conformance {
    Conformance {
        games,
        ..Conformance::default()
    }
}

#[test]
fn go_5x5_conforms() {
    check_game(&GoGame::new(5).unwrap(), &cfg(40));
}

#[test]
fn go_9x9_conforms() {
    check_game(&GoGame::new(9).unwrap(), &cfg(8));
}

#[test]
fn go_19x19_conforms() {
    check_game(&GoGame::new(19).unwrap(), &cfg(2));
}

#[test]
fn go_with_suicide_and_no_superko_conforms() {
    let rules = Rules {
        suicide: true,
        superko: false,
        komi: 0.5,
        max_moves: Some(60),
    };
    check_game(&GoGame::with_rules(5, rules).unwrap(), &cfg(40));
}

#[test]
fn actions_and_tensors_conform() {
    check_tensor_game(&GoGame::new(5).unwrap(), 10, 1);
    check_tensor_game(&GoGame::new(9).unwrap(), 2, 2);
    check_action_space(&GoGame::new(19).unwrap(), 1, 3);
    let rules = Rules {
        suicide: true,
        superko: false,
        komi: 0.5,
        max_moves: Some(60),
    };
    check_tensor_game(&GoGame::with_rules(5, rules).unwrap(), 10, 4);
}

#[test]
fn region_game_actions_and_tensors_conform() {
    let go = GoGame::new(5).unwrap();
    let region: Vec<Vertex> = ["B2", "C2", "D2", "B3", "C3", "D3", "C4"]
        .iter()
        .map(|t| go.parse_vertex(t).unwrap())
        .collect();
    let game = RegionGame::new(go, &region, 14, 0.0);
    assert_eq!(game.num_actions(), 26);
    check_tensor_game(&game, 20, 5);
    let s = game.initial_state();
    // C3 is in the region, A1 is not (though legal in Go).
    assert!(game.action_move(&s, Player(0), 12).is_some());
    assert_eq!(game.action_move(&s, Player(0), 20), None);
    assert_eq!(game.action_move(&s, Player(0), 25), Some(Vertex::PASS));
}

#[test]
fn actions_are_points_from_the_top_left_and_pass_last() {
    let game = GoGame::new(9).unwrap();
    assert_eq!(game.num_actions(), 82);
    let s = game.initial_state();
    for (text, action) in [("A9", 0), ("J9", 8), ("A1", 72), ("J1", 80), ("E5", 40)] {
        let v = game.parse_vertex(text).unwrap();
        assert_eq!(game.action_index(&s, v), action, "{text}");
        assert_eq!(game.vertex_of_action(action), Some(v), "{text}");
        assert_eq!(game.action_move(&s, Player(0), action), Some(v), "{text}");
        assert_eq!(game.action_move(&s, Player(1), action), None, "{text}");
    }
    assert_eq!(game.action_index(&s, Vertex::PASS), 81);
    assert_eq!(game.action_move(&s, Player(0), 81), Some(Vertex::PASS));
    assert_eq!(game.action_move(&s, Player(0), 82), None);
    assert_eq!(game.vertex_of_action(82), None);
}

#[test]
fn planes_are_from_the_perspective_with_the_ko_point() {
    let game = GoGame::new(5).unwrap();
    //   5 . . . . .
    //   4 . X O . .
    //   3 X . X O .
    //   2 . X O . .
    //   1 . . . . .
    // White takes the ko at B3 (capturing C3): Black may not retake at C3 (action 12).
    let mut s = game
        .parse_state("...../.XO../X.XO./.XO../..... w - 7.5")
        .unwrap();
    let b3 = game.parse_move(&s, "B3").unwrap();
    game.play(&mut s, b3).unwrap();
    assert_eq!(game.action_move(&s, Player(0), 12), None);
    let shape = game.tensor_shape();
    assert_eq!((shape.channels, shape.height, shape.width), (6, 5, 5));
    let mut out = vec![f32::NAN; shape.len()];
    game.encode(&s, Player(0), &mut out);
    // Black's stone on B4 (row 1, column 1), White's on C4 and B3.
    assert_eq!(out[shape.offset(0, 1, 1)], 1.0);
    assert_eq!(out[shape.offset(1, 1, 2)], 1.0);
    assert_eq!(out[shape.offset(1, 2, 1)], 1.0);
    assert_eq!(out[shape.offset(2, 2, 2)], 1.0);
    assert_eq!(out[shape.offset(2, 2, 1)], 0.0);
    assert_eq!(out[0..25].iter().sum::<f32>(), 3.0);
    assert_eq!(out[25..50].iter().sum::<f32>(), 4.0);
    assert_eq!(out[50..75].iter().sum::<f32>(), 18.0);
    assert_eq!(out[75..100].iter().sum::<f32>(), 1.0);
    assert_eq!(out[shape.offset(3, 2, 2)], 1.0);
    assert!(out[100..].iter().all(|&v| v == 1.0));
    game.encode(&s, Player(1), &mut out);
    assert_eq!(out[shape.offset(1, 1, 1)], 1.0);
    assert_eq!(out[shape.offset(0, 1, 2)], 1.0);
    assert_eq!(out[shape.offset(3, 2, 2)], 1.0);
    assert!(out[100..125].iter().all(|&v| v == 0.0));
    assert!(out[125..].iter().all(|&v| v == 1.0));
}
