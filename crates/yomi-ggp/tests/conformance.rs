//! Core's conformance suite on the shipped rule sheets and on external ones with three
//! players, simultaneous moves and one role.

mod common;

use yomi_core::testing::{check_game, Conformance};
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
