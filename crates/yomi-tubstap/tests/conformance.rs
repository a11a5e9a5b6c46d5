//! Core's conformance suite on the built-in maps and on several platform maps.

mod common;

use yomi_core::encoding::check_tensor_game;
use yomi_core::testing::{check_game, Conformance};
use yomi_core::{ActionSpace, Game, Player, TensorGame};
use yomi_tubstap::{maps, TbsMove, Tubstap, UnitAction};

fn cfg(games: usize) -> Conformance {
    Conformance {
        games,
        ..Conformance::default()
    }
}

#[test]
fn builtin_maps_conform() {
    for name in maps::names() {
        let games = if name == "duel" { 30 } else { 4 };
        check_game(&maps::builtin(name).unwrap(), &cfg(games));
    }
}

#[test]
fn platform_maps_conform() {
    let files = common::shared_map_files();
    // A spread: the paper's style of map, air units, a finished unit, a one-turn puzzle, an
    // uneven unit count.
    for want in [
        "map01",
        "map02",
        "GAT_sato",
        "select_A1",
        "testMurayama",
        "puzzle_A3",
        "genmap0",
    ] {
        let Some(path) = files
            .iter()
            .find(|p| p.file_stem().is_some_and(|s| s == want))
        else {
            continue;
        };
        let text = std::fs::read_to_string(path).unwrap();
        let game = Tubstap::from_map_text(want, &text).unwrap();
        check_game(&game, &cfg(3));
    }
}

#[test]
fn builtin_maps_have_action_spaces_and_tensors() {
    for (i, name) in maps::names().enumerate() {
        let games = if name == "duel" { 20 } else { 2 };
        check_tensor_game(&maps::builtin(name).unwrap(), games, i as u64);
    }
}

#[test]
fn platform_maps_have_action_spaces_and_tensors() {
    let files = common::shared_map_files();
    for want in ["map01", "GAT_sato", "select_A1", "genmap0"] {
        let Some(path) = files
            .iter()
            .find(|p| p.file_stem().is_some_and(|s| s == want))
        else {
            continue;
        };
        let text = std::fs::read_to_string(path).unwrap();
        let game = Tubstap::from_map_text(want, &text).unwrap();
        check_tensor_game(&game, 2, 9);
    }
}

#[test]
fn actions_are_unit_blocks_of_cells_and_targets() {
    let act = |unit, x, y, target| TbsMove::Act(UnitAction { unit, x, y, target });
    // 4×4 inner cells, 2 against 2: 16 · (4 + 2·2·2) + 1.
    let game = maps::builtin("duel").unwrap();
    assert_eq!(game.num_actions(), 193);
    assert_eq!(maps::standard().num_actions(), 36 * 84 + 1);
    let s = game.initial_state();
    // Unit 0 (red panzer on 1,1) staying: the first action.
    assert_eq!(game.action_index(&s, act(0, 1, 1, None)), 0);
    assert_eq!(game.action_move(&s, Player(0), 0), Some(act(0, 1, 1, None)));
    assert_eq!(game.action_move(&s, Player(1), 0), None);
    // Unit 2 (blue) starts at 16·3 + 16·3 = 96; cell (3,4) is 14; attacking unit 1, the
    // second red unit, is option 2.
    let mv = act(2, 3, 4, Some(1));
    assert_eq!(game.action_of(&mv), 96 + 14 * 3 + 2);
    assert_eq!(game.move_of(140), Some(mv));
    assert_eq!(game.action_move(&s, Player(0), 140), None);
    assert_eq!(game.action_index(&s, TbsMove::EndTurn), 192);
    assert_eq!(game.action_move(&s, Player(0), 192), Some(TbsMove::EndTurn));
    assert_eq!(game.move_of(193), None);
    for a in 0..193 {
        assert_eq!(game.action_of(&game.move_of(a).unwrap()), a);
    }
}

#[test]
fn planes_show_terrain_and_units_from_the_perspective() {
    let game = maps::builtin("duel").unwrap();
    let s = game.initial_state();
    let shape = game.tensor_shape();
    assert_eq!((shape.channels, shape.height, shape.width), (23, 4, 4));
    let mut out = vec![f32::NAN; shape.len()];
    game.encode(&s, Player(0), &mut out);
    assert_eq!(out[shape.offset(1, 0, 0)], 1.0); // plain on 1,1
    assert_eq!(out[shape.offset(3, 0, 2)], 1.0); // forest on 3,1
    assert_eq!(out[shape.offset(5, 1, 1)], 1.0); // road on 2,2
    assert_eq!(out[shape.offset(7, 0, 0)], 1.0); // red panzer, 10 HP
    assert_eq!(out[shape.offset(9 + 2, 0, 0)], 1.0);
    assert_eq!(out[shape.offset(9 + 3, 1, 0)], 1.0); // red cannon on 1,2
    assert_eq!(out[shape.offset(8, 3, 3)], 1.0); // blue panzer on 4,4
    assert_eq!(out[shape.offset(15 + 2, 3, 3)], 1.0);
    assert_eq!(out[shape.offset(21, 0, 0)], 1.0);
    assert_eq!(out[shape.offset(21, 3, 3)], 0.0);
    game.encode(&s, Player(1), &mut out);
    assert_eq!(out[shape.offset(7, 3, 3)], 1.0);
    assert_eq!(out[shape.offset(8, 0, 0)], 1.0);
    assert!(out[21 * 16..22 * 16].iter().all(|&v| v == 0.0));
    assert!(out[22 * 16..].iter().all(|&v| v == 0.0));
}
