//! `.tbsmap` map files: `TbsMap::parse`, the printer round trip (`Display` reads back to an
//! equal map), validation and warnings, and a game on the map with its start position's
//! notation round trip.
#![no_main]
use libfuzzer_sys::fuzz_target;
use yomi_core::Game;
use yomi_tubstap::{TbsMap, Tubstap};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(map) = TbsMap::parse(text) else { return };
    let printed = map.to_string();
    let again = TbsMap::parse(&printed)
        .unwrap_or_else(|e| panic!("printed map does not parse: {e}\n{printed}"));
    assert_eq!(again, map, "print -> parse changed the map");
    let _ = map.warnings();
    let _ = map.swapped_teams();
    let Ok(game) = Tubstap::new("fuzz", map) else { return };
    let state = game.initial_state();
    let s = game.format_state(&state);
    let back = game
        .parse_state(&s)
        .unwrap_or_else(|e| panic!("printed state does not parse: {e}\n{s}"));
    assert_eq!(game.format_state(&back), s, "state round trip");
    let mut moves = Vec::new();
    game.legal_moves(&state, &mut moves);
    for mv in moves.iter().take(64) {
        let t = game.format_move(&state, *mv);
        let m = game
            .parse_move(&state, &t)
            .unwrap_or_else(|e| panic!("printed move {t:?} does not parse: {e}"));
        assert_eq!(game.format_move(&state, m), t, "move round trip");
    }
});
