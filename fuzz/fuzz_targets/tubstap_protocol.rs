//! The TUBSTAP platform protocol: `parse_command` and `WireAction::parse` on every line
//! (a parsed action prints back to itself and is checked against the standard map's start),
//! then a whole client session (`run_session`) over the input bytes with a random agent.
#![no_main]
use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use yomi_core::Game;
use yomi_tubstap::client::{parse_command, run_session, ClientConfig, WireAction};
use yomi_tubstap::Tubstap;

type State = <Tubstap as Game>::State;

thread_local! {
    // The standard map and its start do not depend on the input: parsed once per process.
    static STANDARD: (Tubstap, State) = {
        let game = yomi_tubstap::maps::standard();
        let state = game.initial_state();
        (game, state)
    };
}

fn check_lines(text: &str, game: &Tubstap, state: &State) {
    for line in text.lines().take(64) {
        let _ = parse_command(line);
        if let Ok(a) = WireAction::parse(line) {
            let printed = a.to_string();
            let again = WireAction::parse(&printed)
                .unwrap_or_else(|e| panic!("printed action does not parse: {e}\n{printed}"));
            assert_eq!(again, a, "print -> parse changed the action");
            let _ = a.to_move(game, state);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        STANDARD.with(|(game, state)| check_lines(text, game, state));
    }
    let config = ClientConfig {
        agent: "random".into(),
        timeout: None,
        max_line: 4096,
        ..ClientConfig::default()
    };
    let mut out = Vec::new();
    let _ = run_session(Cursor::new(data), &mut out, &config, &mut |_| {});
});
