//! The Geister tournament protocol: server and client messages and board strings
//! (`FromStr`; printing a parsed one reads back to it), a state from a board string, and
//! the server's `Table` reading client moves.
#![no_main]
use libfuzzer_sys::fuzz_target;
use yomi_core::Player;
use yomi_geister::protocol::{BoardString, ClientMsg, ServerMsg, Table};
use yomi_geister::session::state_from_board;
use yomi_geister::Geister;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let game = Geister::standard();
    let mut table = Table::new(&game);
    for (i, line) in text.lines().take(64).enumerate() {
        if let Ok(m) = line.parse::<ServerMsg>() {
            let p = m.to_string();
            assert_eq!(p.parse::<ServerMsg>().ok(), Some(m), "server message round trip: {p}");
        }
        if let Ok(b) = line.parse::<BoardString>() {
            let p = b.to_string();
            assert_eq!(p.parse::<BoardString>().ok(), Some(b), "board string round trip: {p}");
            for seat in [Player(0), Player(1)] {
                let _ = state_from_board(&game, &b, seat, i as u16);
            }
        }
        if let Ok(m) = line.parse::<ClientMsg>() {
            let p = m.to_string();
            assert_eq!(p.parse::<ClientMsg>().ok(), Some(m), "client message round trip: {p}");
            let player = Player((i % 2) as u8);
            if let Some(mv) = table.to_move(&game, player, m) {
                let _ = table.apply(&game, mv);
                let _ = table.board_string(player, false);
            }
        }
    }
});
