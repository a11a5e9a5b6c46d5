//! Every game's notation through the dynamic interface: `state_from_string` (the first
//! byte picks the game; the text before a NUL byte is the state, empty for the start, the
//! rest a move), the state's printed form reads back to the same state, the move text
//! through `string_to_action`, and the legal actions' texts read back to the actions (at
//! most `ROUND_TRIPS` of them per player, spread over the list).
#![no_main]
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use yomi_games::{load_game, DynGame};

const GAMES: &[&str] = &[
    "tictactoe",
    "connect4",
    "breakthrough",
    "breakthrough-5x5",
    "go",
    "go:13",
    "othello",
    "tubstap",
    "tubstap:duel",
    "ggp:tictactoe",
    "geister",
    "geister-perfect",
    "geister-mini",
];

/// Most legal actions per player whose text is read back.
const ROUND_TRIPS: usize = 48;

thread_local! {
    static LOADED: Vec<Arc<dyn DynGame>> =
        GAMES.iter().map(|n| load_game(n).expect("listed game loads")).collect();
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let (state_text, move_text) = text.split_once('\0').unwrap_or((text, ""));
    LOADED.with(|games| {
        let game = &games[pick as usize % games.len()];
        let state = if state_text.is_empty() {
            game.new_initial_state()
        } else {
            match game.state_from_string(state_text) {
                Ok(s) => s,
                Err(_) => return,
            }
        };
        let printed = state.serialize();
        let again = game.state_from_string(&printed).unwrap_or_else(|e| {
            panic!("{}: printed state does not parse: {e}\n{printed}", game.name())
        });
        assert_eq!(again.serialize(), printed, "{}: state round trip", game.name());
        let _ = state.render();
        if state.is_terminal() {
            return;
        }
        for player in 0..state.num_players() {
            let _ = state.string_to_action(player, move_text);
            let _ = state.observation_string(player);
            // At most ROUND_TRIPS actions, spread over the whole list: TUBSTAP positions have
            // hundreds of legal actions and each `string_to_action` enumerates them again.
            let legal = state.legal_actions(player);
            let stride = legal.len().div_ceil(ROUND_TRIPS).max(1);
            for &a in legal.iter().step_by(stride) {
                let t = state
                    .action_to_string(player, a)
                    .unwrap_or_else(|e| panic!("{}: legal action {a} has no text: {e}", game.name()));
                let b = state.string_to_action(player, &t).unwrap_or_else(|e| {
                    panic!("{}: text {t:?} of legal action {a} does not parse: {e}", game.name())
                });
                assert_eq!(b, a, "{}: action text {t:?} round trip", game.name());
            }
        }
    });
});
