//! Agent spec strings: `AgentSpec::from_str` (a parsed spec prints back to itself), and the
//! registry's validation and build for a few games (agents are built, never run).
#![no_main]
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use yomi_core::spec::AgentSpec;
use yomi_games::{load_game, DynGame};

const GAMES: &[&str] = &["tictactoe", "connect4", "othello", "go", "geister", "tubstap"];

thread_local! {
    static LOADED: Vec<Arc<dyn DynGame>> =
        GAMES.iter().map(|n| load_game(n).expect("listed game loads")).collect();
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    if let Ok(spec) = text.parse::<AgentSpec>() {
        let printed = spec.to_string();
        let again: AgentSpec = printed
            .parse()
            .unwrap_or_else(|e| panic!("printed spec {printed:?} does not parse: {e}"));
        assert_eq!(again, spec, "print -> parse changed the spec");
    }
    // Huge thread counts or tables are the agent's business only once it runs.
    LOADED.with(|games| {
        let game = &games[pick as usize % games.len()];
        if game.check_agent(text).is_ok() {
            let _ = game.new_agent(text, 1);
        }
    });
});
