//! The Go GTP engine: every input line through `GtpEngine::handle_line` with a random agent
//! (lines naming `loadsgf` are dropped: they read files; the `sgf` target covers the SGF
//! reader). Scoring (`final_score`, `final_status_list`) runs dead-stone playouts, which
//! were three quarters of the time of an input: one playout per scoring command and at
//! most two scoring commands per input keep that code reached without it dominating.
#![no_main]
use libfuzzer_sys::fuzz_target;
use yomi_go::gtp::{GtpConfig, GtpEngine};

const MAX_SCORING_LINES: usize = 2;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = GtpEngine::new(GtpConfig {
        agent: "random".into(),
        ownership_playouts: 1,
        ..GtpConfig::default()
    })
    .expect("engine builds");
    let mut scoring_lines = 0;
    for line in text.split_inclusive('\n').take(64) {
        let lower = line.to_ascii_lowercase();
        if lower.contains("loadsgf") {
            continue;
        }
        if lower.contains("final_") {
            scoring_lines += 1;
            if scoring_lines > MAX_SCORING_LINES {
                continue;
            }
        }
        let _ = engine.handle_line(line);
        if engine.has_quit() {
            break;
        }
    }
});
