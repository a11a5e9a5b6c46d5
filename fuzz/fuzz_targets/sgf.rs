//! SGF Go records: `SgfGame::parse`, `root_properties`, set-up and replay of the main line,
//! and the printer round trip (`to_sgf` reads back to an equal record).
#![no_main]
use libfuzzer_sys::fuzz_target;
use yomi_go::sgf::{root_properties, SgfGame};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = root_properties(text);
    let Ok(rec) = SgfGame::parse(text) else { return };
    let _ = rec.setup();
    let _ = rec.replay();
    let printed = rec.to_sgf();
    let again = SgfGame::parse(&printed)
        .unwrap_or_else(|e| panic!("printed record does not parse: {e}\n{printed}"));
    assert_eq!(again.to_sgf(), printed, "print -> parse -> print changed the record");
});
