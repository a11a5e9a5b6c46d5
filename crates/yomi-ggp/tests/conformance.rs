//! Core's conformance suite on the shipped rule sheets and on external ones with three
//! players, simultaneous moves and one role.

mod common;

use yomi_core::encoding::check_action_space;
use yomi_core::testing::{check_game, Conformance};
use yomi_core::{ActionSpace, Game, Player};
use yomi_ggp::{games, GdlGame};

fn cfg(games: usize) -> Conformance {
    Conformance {
        games,
        ..Conformance::default()
    }
}

#[test]
fn shipped_games_conform() {
    check_game(&games::shipped("tictactoe").unwrap(), &cfg(100));
    check_game(&games::shipped("connect4").unwrap(), &cfg(30));
    check_game(&games::shipped("breakthrough5x5").unwrap(), &cfg(30));
}

#[test]
fn external_games_conform() {
    let Some(dir) = common::gdl_dir() else { return };
    for (name, games) in [
        ("3pConnectFour.kif", 5),
        ("connectFourSimultaneous.kif", 5),
        ("gt_prisoner.kif", 5),
        ("roshambo2.kif", 10),
        ("nim1.kif", 10),
        ("hanoi.kif", 3),
        ("breakthrough5x5.kif", 3),
        ("dobutsushogi.kif", 2),
        ("tests/test_case_3f.kif", 2),
    ] {
        let Ok(text) = std::fs::read_to_string(dir.join(name)) else {
            eprintln!("notice: {name} missing");
            continue;
        };
        let game = GdlGame::from_kif(name, &text).unwrap();
        check_game(&game, &cfg(games));
    }
}

#[test]
fn shipped_games_have_action_spaces() {
    for (i, (name, games)) in [
        ("tictactoe", 30),
        ("connect4", 10),
        ("breakthrough5x5", 10),
        ("dobutsushogi", 3),
        ("dobutsushogi_o", 3),
        ("crisscross", 3),
    ]
    .into_iter()
    .enumerate()
    {
        let game = games::shipped(name).unwrap();
        assert_eq!(
            game.num_actions(),
            game.reasoner().actions().len(),
            "{name}"
        );
        check_action_space(&game, games, i as u64);
    }
}

#[test]
fn gdl_actions_are_action_terms() {
    let game = games::shipped("tictactoe").unwrap();
    let s = game.initial_state();
    let mv = game.parse_move(&s, "(mark 2 2)").unwrap();
    let a = game.action_index(&s, mv);
    assert_eq!(game.reasoner().action_text(a as u32), "(mark 2 2)");
    assert_eq!(game.action_move(&s, Player(0), a), Some(mv));
    // The second role only plays noop here: it has no choice, so no action is its move.
    assert_eq!(game.action_move(&s, Player(1), a), None);
    assert_eq!(game.action_move(&s, Player(0), game.num_actions()), None);
}

#[test]
fn external_games_have_action_spaces() {
    let Some(dir) = common::gdl_dir() else { return };
    for (name, games) in [
        ("3pConnectFour.kif", 3),
        ("connectFourSimultaneous.kif", 3),
        ("gt_prisoner.kif", 3),
        ("roshambo2.kif", 5),
    ] {
        let Ok(text) = std::fs::read_to_string(dir.join(name)) else {
            eprintln!("notice: {name} missing");
            continue;
        };
        let game = GdlGame::from_kif(name, &text).unwrap();
        check_action_space(&game, games, 7);
    }
}
