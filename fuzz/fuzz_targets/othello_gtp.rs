//! The Othello GTP engine: `run_gtp_with` over the input bytes, with a shallow search
//! budget (1 ms, 64 nodes) so that `genmove` answers at once, on a fresh engine with
//! small tables per input.
#![no_main]
use std::io::Cursor;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use yomi_othello::protocol::{run_gtp_with, Engine};

fuzz_target!(|data: &[u8]| {
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
    run_gtp_with(engine, Cursor::new(data.to_vec()), &mut out).expect("only i/o errors, and there are none");
});
