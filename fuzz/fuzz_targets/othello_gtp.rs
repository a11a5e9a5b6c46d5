//! The Othello GTP engine: `run_gtp_with` over the input bytes, with a shallow, 1 ms search
//! budget so that `genmove` answers at once, on a fresh engine with small tables per input.
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
    let mut out = Vec::new();
    run_gtp_with(engine, Cursor::new(data.to_vec()), &mut out).expect("only i/o errors, and there are none");
});
