//! The rule sheets the project ships (written for yomi, not copied): tic-tac-toe, connect
//! four and Breakthrough 5×5, with moves that map one to one onto yomi-classic's games, and
//! Dobutsu shogi with its variant O (captured pieces go to their owner's hand) and
//! Crisscross: the paper's four games.

use crate::error::GdlError;
use crate::game::GdlGame;

/// Tic-tac-toe: roles `x`, `o`; moves `(mark COLUMN ROW)`, 1..3.
pub const TICTACTOE: &str = include_str!("../games/tictactoe.kif");

/// Connect four, 7×6: roles `x`, `o`; moves `(drop COLUMN)`, 1..7.
pub const CONNECT_FOUR: &str = include_str!("../games/connect4.kif");

/// Breakthrough on 5×5: roles `white` (rows 1–2, moves first), `black`; moves
/// `(move X1 Y1 X2 Y2)`, 1..5.
pub const BREAKTHROUGH_5X5: &str = include_str!("../games/breakthrough5x5.kif");

/// Dobutsu shogi (animal shogi), 3×4: roles `sente` (ranks 1–2, moves first), `gote`; moves
/// `(move F1 R1 F2 R2 KIND)`, `(put F R KIND)`, `noop` (files a–c, ranks 1–4), the same
/// notation as the GGP community's sheet; drawn after 60 moves.
pub const DOBUTSU_SHOGI: &str = include_str!("../games/dobutsushogi.kif");

/// Dobutsu shogi O, the GGP policy-learning paper's variant: a captured piece goes to its
/// owner's hand (the captor's opponent's), not the captor's. Otherwise as
/// [`DOBUTSU_SHOGI`].
pub const DOBUTSU_SHOGI_O: &str = include_str!("../games/dobutsushogi_o.kif");

/// Crisscross: roles `red` (moves first, east), `teal` (north) on a cross of 20 squares
/// named `a3`..`f4`; moves `(move FROM TO)`, `noop`; the same notation, moves and payoffs
/// as the GGP community's sheet.
pub const CRISSCROSS: &str = include_str!("../games/crisscross.kif");

/// Every shipped rule sheet with its name.
pub const ALL: [(&str, &str); 6] = [
    ("tictactoe", TICTACTOE),
    ("connect4", CONNECT_FOUR),
    ("breakthrough5x5", BREAKTHROUGH_5X5),
    ("dobutsushogi", DOBUTSU_SHOGI),
    ("dobutsushogi_o", DOBUTSU_SHOGI_O),
    ("crisscross", CRISSCROSS),
];

/// The shipped game called `name` (a name of [`ALL`]: `tictactoe`, `dobutsushogi`, ...), compiled.
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
