//! Tournament TOML files: `TournamentFile::parse`, then the game name and each agent spec
//! checked as `yomi tournament` checks them (names with `:` are skipped: they may name files).
#![no_main]
use libfuzzer_sys::fuzz_target;
use yomi_games::load_game;
use yomi_games::tournament_file::TournamentFile;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(t) = TournamentFile::parse(text, "fuzz.toml") else { return };
    if t.game.contains(':') || t.game.contains('/') {
        return;
    }
    let Ok(game) = load_game(&t.game) else { return };
    for a in t.round_robin.agents.iter().take(16) {
        let _ = game.check_agent(a);
    }
});
