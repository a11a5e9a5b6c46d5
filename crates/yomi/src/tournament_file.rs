//! The tournament file, read by [`yomi_games::tournament_file`] (shared with the Python
//! package and its Ray runner).

pub use yomi_games::tournament_file::*;
