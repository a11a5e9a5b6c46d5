//! The NBoard protocol: `parse_ggf` on the input, then `run_nboard_with` over the input
//! bytes with a shallow search budget (1 ms, 64 nodes), on a fresh engine with small
//! tables per input.
#![no_main]
use std::io::Cursor;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use yomi_othello::protocol::{parse_ggf, run_nboard_with, Engine};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = parse_ggf(text);
    }
    // Small transposition tables: `Engine::new`'s (about 40 MiB, written in full) made
    // building the engine most of each input's time.
    let mut engine = Engine::with_table_bits(10, 10);
    engine.depth = 1;
    engine.exact_empties = 6;
    engine.move_time = Duration::from_millis(1);
    // A node cap as well as the clock: inputs that `set depth 60` and then ask for many
    // searches cost at most 64 nodes each instead of a millisecond each (the clock is
    // read every 1,024 nodes), and each input's work no longer depends on machine load.
    engine.max_nodes = Some(64);
    let mut out = Vec::new();
    run_nboard_with(engine, Cursor::new(data), &mut out).expect("only i/o errors, and there are none");
});
