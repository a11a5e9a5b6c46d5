//! The project's own maps, shipped inside the crate.
//!
//! | name | size | units | about |
//! |---|---|---|---|
//! | `standard` | 8×8 | 6 vs 6 (I I P P U R) | point-symmetric, forest and mountains in the centre, in the style of the paper's figure 1; the default |
//! | `duel` | 6×6 | 2 vs 2 (P U) | a quick game for tests |
//! | `skies` | 10×10 | 6 vs 6 (F A R P U I) | air and ground across a strait |
//! | `fortress` | 9×9 | 5 vs 5 (U P P I I) | fortress corners joined by roads |

use crate::game::Tubstap;
use crate::map::{MapError, TbsMap};

/// `(name, .tbsmap text)` of every built-in map.
pub const BUILTIN: &[(&str, &str)] = &[
    ("standard", include_str!("../maps/standard.tbsmap")),
    ("duel", include_str!("../maps/duel.tbsmap")),
    ("skies", include_str!("../maps/skies.tbsmap")),
    ("fortress", include_str!("../maps/fortress.tbsmap")),
];

/// The names of the built-in maps.
pub fn names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(n, _)| *n)
}

/// The built-in map called `name`.
pub fn builtin_map(name: &str) -> Option<TbsMap> {
    BUILTIN
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| TbsMap::parse(text).expect("built-in maps are valid (tested)"))
}

/// The game on the built-in map `name`.
pub fn builtin(name: &str) -> Option<Tubstap> {
    builtin_map(name).map(|m| Tubstap::new(name, m).expect("built-in maps are valid (tested)"))
}

/// The game on the standard map.
pub fn standard() -> Tubstap {
    builtin("standard").expect("the standard map is built in")
}

/// Why [`load`] failed.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path given.
        path: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The file is not a playable map.
    #[error("{path}: {source}")]
    Map {
        /// The path given.
        path: String,
        /// What is wrong, with the line and field.
        source: MapError,
    },
}

/// A built-in map by name, or else a `.tbsmap` file by path (named after its file stem).
///
/// # Errors
/// [`LoadError`] when the file cannot be read or is not a playable map.
pub fn load(name_or_path: &str) -> Result<Tubstap, LoadError> {
    if let Some(g) = builtin(name_or_path) {
        return Ok(g);
    }
    let path = std::path::Path::new(name_or_path);
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Io {
        path: name_or_path.to_string(),
        source,
    })?;
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(name_or_path);
    Tubstap::from_map_text(stem, &text).map_err(|source| LoadError::Map {
        path: name_or_path.to_string(),
        source,
    })
}
