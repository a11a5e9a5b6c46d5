//! The Othello GTP engine: `run_gtp_with` over the input bytes, with a shallow, 1 ms search
//! budget so that `genmove` answers at once.
#![no_main]
use std::io::Cursor;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use yomi_othello::protocol::{run_gtp_with, Engine};

fuzz_target!(|data: &[u8]| {
    let mut engine = Engine::new();
    engine.depth = 1;
    engine.exact_empties = 6;
    engine.move_time = Duration::from_millis(1);
    let mut out = Vec::new();
    run_gtp_with(engine, Cursor::new(data.to_vec()), &mut out).expect("only i/o errors, and there are none");
});
