//! The rule sheets the project ships (written for yomi, not copied): tic-tac-toe and connect
//! four, with moves that map one to one onto yomi-classic's games.

use crate::error::GdlError;
use crate::game::GdlGame;

/// Tic-tac-toe: roles `x`, `o`; moves `(mark COLUMN ROW)`, 1..3.
pub const TICTACTOE: &str = include_str!("../games/tictactoe.kif");

/// Connect four, 7×6: roles `x`, `o`; moves `(drop COLUMN)`, 1..7.
pub const CONNECT_FOUR: &str = include_str!("../games/connect4.kif");

/// Every shipped rule sheet with its name.
pub const ALL: [(&str, &str); 2] = [("tictactoe", TICTACTOE), ("connect4", CONNECT_FOUR)];

/// The shipped game called `name` (`tictactoe`, `connect4`), compiled.
///
/// # Errors
/// [`GdlError::Game`] for an unknown name.
pub fn shipped(name: &str) -> Result<GdlGame, GdlError> {
    let (_, text) = ALL
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| GdlError::Game(format!("no shipped rule sheet called {name:?}")))?;
    GdlGame::from_kif(name, text)
}
