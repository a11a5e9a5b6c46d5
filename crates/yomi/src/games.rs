//! The game registry of the command line: [`yomi_games::choice`], shared with the web
//! board and the Python package.

pub use yomi_games::choice::*;
