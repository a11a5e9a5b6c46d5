//! The Go GTP engine: every input line through `GtpEngine::handle_line` with a random agent
//! and few dead-stone playouts (lines naming `loadsgf` are dropped: they read files; the
//! `sgf` target covers the SGF reader).
#![no_main]
use libfuzzer_sys::fuzz_target;
use yomi_go::gtp::{GtpConfig, GtpEngine};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = GtpEngine::new(GtpConfig {
        agent: "random".into(),
        ownership_playouts: 4,
        ..GtpConfig::default()
    })
    .expect("engine builds");
    for line in text.split_inclusive('\n').take(64) {
        if line.to_ascii_lowercase().contains("loadsgf") {
            continue;
        }
        let _ = engine.handle_line(line);
        if engine.has_quit() {
            break;
        }
    }
});
