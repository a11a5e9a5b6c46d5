//! OBF lines (`parse_obf`, `parse_obf_line`) and Othello board strings
//! (`OthelloState::from_str`): every parsed position's board string reads back to the
//! same position.
#![no_main]
use libfuzzer_sys::fuzz_target;
use yomi_othello::{parse_obf, parse_obf_line, OthelloState};

fn round_trip(state: &OthelloState) {
    let s = state.to_board_string();
    let again: OthelloState = s
        .parse()
        .unwrap_or_else(|e| panic!("printed board does not parse: {e}\n{s}"));
    assert_eq!(again.to_board_string(), s, "board string round trip");
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(positions) = parse_obf(text) {
        for p in &positions {
            round_trip(&p.state);
            let _ = p.best_score();
        }
    }
    if let Ok(p) = parse_obf_line(text) {
        round_trip(&p.state);
    }
    if let Ok(state) = text.parse::<OthelloState>() {
        round_trip(&state);
    }
});
