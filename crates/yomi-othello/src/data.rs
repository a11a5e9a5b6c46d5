//! Locating the project's shared test data (`shared/data/othello`), which the repository
//! never copies: the `YOMI_SHARED_DATA` environment variable, or the first directory above
//! the current one (or above this crate's source) that holds `shared/data`.

use std::path::{Path, PathBuf};

/// The `shared/data/othello` directory, if it can be found.
pub fn othello_data_dir() -> Option<PathBuf> {
    if let Ok(dir) = std::env::var("YOMI_SHARED_DATA") {
        let p = Path::new(&dir).join("othello");
        if p.is_dir() {
            return Some(p);
        }
        let p = PathBuf::from(dir);
        if p.join("fforum-40-59.obf").is_file() {
            return Some(p);
        }
    }
    let starts = [
        std::env::current_dir().ok(),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR"))),
    ];
    for start in starts.into_iter().flatten() {
        for dir in start.ancestors() {
            let p = dir.join("shared").join("data").join("othello");
            if p.is_dir() {
                return Some(p);
            }
        }
    }
    None
}
