//! Combinatorial game expressions: `Cgt::from_str` and `Dyadic::from_str`, evaluated under
//! a work limit (canonical form, stops, temperature, cooling), and the printed canonical
//! form reads back to the same game when it fits the parser's input cap. Each input starts
//! from an empty store (`clear_store`), so a finding replays alike in a fresh process.
#![no_main]
use libfuzzer_sys::fuzz_target;
use yomi_cgt::parse::MAX_INPUT;
use yomi_cgt::{clear_store, with_work_limit, Cgt, Dyadic};

const WORK: u64 = 20_000;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    clear_store();
    let _ = text.parse::<Dyadic>();
    let Ok(Ok(g)) = with_work_limit(WORK, || text.parse::<Cgt>()) else {
        return;
    };
    let _ = with_work_limit(WORK, || {
        let c = g.canonical();
        let printed = c.to_string();
        // A canonical form can print far longer than the input that made it (71 bytes gave
        // over 16 KiB); the parser refuses input above its cap by design, so the round trip
        // is a property of the forms within it.
        if printed.len() <= MAX_INPUT {
            let again: Cgt = printed
                .parse()
                .unwrap_or_else(|e| panic!("printed form {printed:?} does not parse: {e}"));
            assert_eq!(
                again.canonical(),
                c,
                "print -> parse changed the value of {printed}"
            );
        }
        let _ = c.outcome();
        let _ = (c.left_stop(), c.right_stop());
        let t = c.temperature();
        let _ = c.mean();
        // Cooling is defined for t >= 0 only (documented panic); numbers are colder.
        if t >= Dyadic::ZERO {
            let _ = (c.cool(t), c.heat(t));
        }
    });
});
