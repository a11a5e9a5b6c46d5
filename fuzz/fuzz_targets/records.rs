//! JSONL game records: `read_records` on a file holding the input bytes.
#![no_main]
use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use yomi_core::arena::records::read_records;

thread_local! {
    // One file per process, rewritten for every input; in /dev/shm (memory) where it
    // exists, so that writing the input costs no disk i/o.
    static PATH: PathBuf = {
        let shm = std::path::Path::new("/dev/shm");
        let dir = if shm.is_dir() { shm.to_path_buf() } else { std::env::temp_dir() };
        dir.join(format!("yomi-fuzz-records-{}.jsonl", std::process::id()))
    };
}

fuzz_target!(|data: &[u8]| {
    PATH.with(|path| {
        std::fs::write(path, data).expect("temp file writable");
        if let Ok(records) = read_records(path) {
            for r in &records {
                let _ = r.without_timing();
            }
        }
    });
});
