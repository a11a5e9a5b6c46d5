//! Colours and vertices (points or pass) with GTP notation: columns `A`..`T` without `I`,
//! rows `1`..`N` from the bottom, `pass`.

use std::fmt;

use yomi_core::Player;

use crate::error::VertexError;

/// The largest board size (one GTP column letter each, [`COLUMNS`]). Defined here, the
/// bottom of the crate, and re-exported by [`crate::board`].
pub const MAX_SIZE: usize = 19;
/// The smallest board size.
pub const MIN_SIZE: usize = 2;

/// Column letters of GTP coordinates (no `I`).
pub const COLUMNS: &[u8; 19] = b"ABCDEFGHJKLMNOPQRST";

/// A stone colour. Black is player 0 and moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Black (player 0).
    Black = 1,
    /// White (player 1).
    White = 2,
}

impl Color {
    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The player who plays this colour.
    #[inline]
    pub fn player(self) -> Player {
        Player(self as u8 - 1)
    }

    /// The colour of `player` (0 black, anything else white).
    #[inline]
    pub fn of_player(player: Player) -> Color {
        if player.0 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Reads `b`, `black`, `w`, `white` (any case), as GTP does.
    pub fn parse(text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }

    /// `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A move: a point of the padded board (see [`crate::board`]) or [`Vertex::PASS`].
///
/// The index depends on the board size, so text conversion takes the size:
/// [`Vertex::to_gtp`], [`Vertex::parse_gtp`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Vertex(pub(crate) u16);

impl Vertex {
    /// The pass move.
    pub const PASS: Vertex = Vertex(0);

    /// The vertex of a padded-board index.
    #[inline]
    pub fn from_index(p: usize) -> Vertex {
        Vertex(p as u16)
    }

    /// The padded-board index (0 for pass).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// True for pass.
    #[inline]
    pub fn is_pass(self) -> bool {
        self.0 == 0
    }

    /// The point `(x, y)` (column from the left, row from the bottom) on a `size` board.
    #[inline]
    pub fn at(x: usize, y: usize, size: usize) -> Vertex {
        Vertex(((y + 1) * (size + 2) + x + 1) as u16)
    }

    /// `(x, y)` of a point on a `size` board, `None` for pass.
    pub fn coords(self, size: usize) -> Option<(usize, usize)> {
        if self.is_pass() {
            return None;
        }
        let w = size + 2;
        let p = self.0 as usize;
        Some((p % w - 1, p / w - 1))
    }

    /// GTP text: `D4`, `pass`.
    pub fn to_gtp(self, size: usize) -> String {
        match self.coords(size) {
            None => "pass".into(),
            Some((x, y)) => format!("{}{}", COLUMNS[x] as char, y + 1),
        }
    }

    /// The SGF point (`dd`, letters from the top-left; empty for pass).
    pub fn to_sgf(self, size: usize) -> String {
        match self.coords(size) {
            None => String::new(),
            Some((x, y)) => {
                let row = size - 1 - y;
                format!("{}{}", (b'a' + x as u8) as char, (b'a' + row as u8) as char)
            }
        }
    }

    /// Reads a GTP vertex (`D4`, `d4`, `pass`) on a `size` board.
    ///
    /// # Errors
    /// [`VertexError`] for empty text, bad letters or numbers, and points off the board.
    pub fn parse_gtp(text: &str, size: usize) -> Result<Vertex, VertexError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(VertexError::Empty);
        }
        if t.eq_ignore_ascii_case("pass") {
            return Ok(Vertex::PASS);
        }
        let bad = || VertexError::Syntax(t.to_string());
        let mut chars = t.chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() {
            return Err(bad());
        }
        if letter == 'I' {
            return Err(VertexError::LetterI(t.to_string()));
        }
        let x = COLUMNS
            .iter()
            .position(|&c| c as char == letter)
            .ok_or_else(|| VertexError::OffBoard {
                vertex: t.to_string(),
                size,
            })?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let row: usize = digits.parse().map_err(|_| bad())?;
        if row == 0 || row > size || x >= size || size > MAX_SIZE {
            return Err(VertexError::OffBoard {
                vertex: t.to_string(),
                size,
            });
        }
        Ok(Vertex::at(x, row - 1, size))
    }

    /// Reads an SGF point (`dd`; empty or `tt` on boards up to 19 is pass).
    ///
    /// # Errors
    /// [`VertexError`] for malformed or off-board points.
    pub fn parse_sgf(text: &str, size: usize) -> Result<Vertex, VertexError> {
        let t = text.trim();
        if t.is_empty() || (t == "tt" && size <= 19) {
            return Ok(Vertex::PASS);
        }
        let b = t.as_bytes();
        if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
            return Err(VertexError::Syntax(t.to_string()));
        }
        let x = (b[0] - b'a') as usize;
        let row = (b[1] - b'a') as usize;
        if x >= size || row >= size {
            return Err(VertexError::OffBoard {
                vertex: t.to_string(),
                size,
            });
        }
        Ok(Vertex::at(x, size - 1 - row, size))
    }
}
