//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The shared TUBSTAP maps folder (`shared/data/tubstap-maps`), found by walking up from the
/// crate or through `YOMI_SHARED_DATA`; `None` (with a notice) when absent.
pub fn shared_maps() -> Option<PathBuf> {
    let from_env = std::env::var_os("YOMI_SHARED_DATA").map(PathBuf::from);
    let mut candidates: Vec<PathBuf> = from_env.into_iter().collect();
    let mut dir = Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    while let Some(d) = dir {
        candidates.push(d.join("shared/data"));
        dir = d.parent().map(PathBuf::from);
    }
    for c in candidates {
        let maps = c.join("tubstap-maps");
        if maps.is_dir() {
            return Some(maps);
        }
    }
    eprintln!("notice: shared/data/tubstap-maps not found (set YOMI_SHARED_DATA); skipping");
    None
}

/// Every `.tbsmap` in the shared folder, sorted by name.
pub fn shared_map_files() -> Vec<PathBuf> {
    let Some(dir) = shared_maps() else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("readable maps folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "tbsmap"))
        .collect();
    files.sort();
    files
}
