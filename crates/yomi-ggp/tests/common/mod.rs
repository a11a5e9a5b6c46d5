//! Helpers shared by the integration tests: locating the external GDL rule sheets.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `shared/data/gdl`, found through `YOMI_SHARED_DATA` or by walking up from the crate;
/// `None` (after printing a notice) when absent.
pub fn gdl_dir() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("YOMI_SHARED_DATA") {
        let p = Path::new(&d).join("gdl");
        if p.is_dir() {
            return Some(p);
        }
    }
    let mut dir = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
    loop {
        let p = dir.join("shared/data/gdl");
        if p.is_dir() {
            return Some(p);
        }
        if !dir.pop() {
            eprintln!("notice: shared/data/gdl not found (set YOMI_SHARED_DATA); skipping");
            return None;
        }
    }
}

/// Every `.kif` file under `dir` (and its `tests/` folder), sorted, with its text.
pub fn kif_files(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for sub in [dir.to_path_buf(), dir.join("tests")] {
        let Ok(rd) = std::fs::read_dir(&sub) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "kif") {
                let name = p
                    .strip_prefix(dir)
                    .unwrap_or(&p)
                    .to_string_lossy()
                    .into_owned();
                if let Ok(text) = std::fs::read_to_string(&p) {
                    out.push((name, text));
                }
            }
        }
    }
    out.sort();
    out
}

/// True for ggp-base's deliberately invalid test cases.
pub fn is_invalid_case(name: &str) -> bool {
    name.contains("test_invalid_")
}
