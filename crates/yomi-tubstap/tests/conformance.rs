//! Core's conformance suite on the built-in maps and on several platform maps.

mod common;

use yomi_core::testing::{check_game, Conformance};
use yomi_tubstap::{maps, Tubstap};

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
