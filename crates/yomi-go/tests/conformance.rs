//! Core's conformance suite on 5×5, 9×9 and 19×19 (and the suicide variant).

use yomi_core::testing::{check_game, Conformance};
use yomi_go::{GoGame, Rules};

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
