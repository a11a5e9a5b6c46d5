//! Breakthrough (Dan Troyka, 2000) on boards from 3×4 to 11×11.
//!
//! # Rules
//! White (player 0) starts on the bottom rows and moves first; black starts on the top
//! rows. Each side fills its two home rows (one row each on boards of height 4). A piece
//! moves one square forward, straight (onto an empty square only) or diagonally (onto an
//! empty square, or capturing an enemy piece there). A player wins by reaching the far
//! row or by capturing every enemy piece. A side with pieces always has a move (its most
//! advanced piece can step diagonally), and every move advances a piece, so games end:
//! [`GameFacts::max_turns`] is the sum of every piece's possible advances plus one.
//!
//! # Notation
//! - Squares are a column letter and a row number, `a1` at white's bottom left.
//! - Moves are `a2-a3` (a move) and `b4xc5` (a capture). Parsing accepts capitals and
//!   either separator for captures, but rejects `x` when the target holds no enemy piece.
//! - States are the rows from the top separated by `/` (`w`, `b`, `.`), a space and the
//!   side to move (`w` or `b`), e.g. `bbbbb/bbbbb/...../wwwww/wwwww w` on 5×5.
//!
//! # Bitboards
//! One `u128` per side, bit `row * width + column`, so boards up to 128 cells fit. Moves
//! are generated for all pieces at once by shifting (with the edge columns masked off for
//! the diagonals), which also gives an allocation-free uniform
//! [`Game::random_move`]: count the targets of the three
//! directions and pick the k-th.
//!
//! # Actions and tensors
//! Both are written in the *frame* of one player: the board with that player's goal row
//! on top, so that its pieces move up. Rows of a frame count from the top: for white
//! (player 0) frame row `t` is board row `height - 1 - t` (the board as the state notation
//! prints it), for black (player 1) it is board row `t` (the board flipped upside down).
//! Columns are not mirrored (`a` is column 0 in both frames), so black's view is a
//! reflection, under which Breakthrough is symmetric.
//!
//! [`ActionSpace`]: `width · height · 3` actions. A move is
//! `(t · width + c) · 3 + d`, where `(t, c)` is the square the piece leaves in the
//! mover's frame and `d` its direction: 0 forward towards column `a` (`c - 1`), 1
//! straight forward, 2 forward away from column `a` (`c + 1`). So one action is the same
//! step for either side, seen from its own side: on 5×5 white's `b2-c3` (frame row 3,
//! column 1, direction 2) is action 50, and so is black's `b4-c3`.
//!
//! [`TensorGame`]: two planes of `height × width` in `perspective`'s frame: its own pieces,
//! then the opponent's. When `perspective` is the mover, the square `(t, c)` of the planes
//! is the origin of actions `(t · width + c) · 3 + d`.
//!
//! ```
//! use yomi_core::Game;
//! use yomi_classic::Breakthrough;
//! let game = Breakthrough::new_5x5();
//! let mut s = game.initial_state();
//! let mut moves = Vec::new();
//! game.legal_moves(&s, &mut moves);
//! assert_eq!(moves.len(), 13); // 5 straight + 8 diagonal
//! let mv = game.parse_move(&s, "b2-c3").unwrap();
//! game.play(&mut s, mv).unwrap();
//! assert_eq!(game.format_state(&s), "bbbbb/bbbbb/..w../w.www/wwwww b");
//! ```

use std::fmt;
use std::sync::{Arc, OnceLock};

use yomi_core::registry::AgentRegistry;
use yomi_core::search::Evaluator;
use yomi_core::{
    ActionSpace, Game, GameFacts, NotationError, Player, Rewards, Rng, TensorGame, TensorShape,
    Turn,
};

use crate::error::{PositionError, SizeError};
use crate::util::{invalid_state, mix64, select128, squash};

/// Smallest supported width.
pub const MIN_WIDTH: usize = 3;
/// Largest supported width.
pub const MAX_WIDTH: usize = 11;
/// Smallest supported height.
pub const MIN_HEIGHT: usize = 4;
/// Largest supported height.
pub const MAX_HEIGHT: usize = 11;
/// Number of supported board sizes.
const SIZES: usize = (MAX_WIDTH - MIN_WIDTH + 1) * (MAX_HEIGHT - MIN_HEIGHT + 1);

/// Breakthrough on a board of a given size. See the [module documentation](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breakthrough {
    width: u8,
    height: u8,
    /// Every cell.
    board: u128,
    /// Cells not in the leftmost column.
    not_left: u128,
    /// Cells not in the rightmost column.
    not_right: u128,
    /// The top row (white's goal).
    top: u128,
    /// The bottom row (black's goal).
    bottom: u128,
    /// White's start squares.
    white_start: u128,
    /// Black's start squares.
    black_start: u128,
    /// Most turns a game can last.
    max_turns: usize,
}

/// A Breakthrough move: from one square to another (square index `row * width + column`).
/// Whether it captures follows from the position.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct BreakthroughMove {
    from: u8,
    to: u8,
}

impl BreakthroughMove {
    /// The move from square index `from` to square index `to` (`row * width + column`).
    /// Not checked: [`Game::play`] and [`Game::parse_move`] check legality.
    pub const fn new(from: u8, to: u8) -> Self {
        BreakthroughMove { from, to }
    }

    /// The square the piece leaves.
    #[inline]
    pub const fn from(self) -> u8 {
        self.from
    }

    /// The square the piece arrives on.
    #[inline]
    pub const fn to(self) -> u8 {
        self.to
    }
}

/// A Breakthrough position: the pieces of each side and the side to move. 48 bytes of
/// `Copy` data; whether the game is over follows from the pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BreakthroughState {
    white: u128,
    black: u128,
    to_move: u8,
}

impl BreakthroughState {
    /// White's pieces (bit `row * width + column`).
    #[inline]
    pub const fn white(&self) -> u128 {
        self.white
    }

    /// Black's pieces.
    #[inline]
    pub const fn black(&self) -> u128 {
        self.black
    }

    /// The side to move (also defined once the game is over: the loser).
    #[inline]
    pub const fn to_move(&self) -> Player {
        Player(self.to_move)
    }
}

const fn side_name(p: Player) -> &'static str {
    if p.0 == 0 {
        "white"
    } else {
        "black"
    }
}

/// The three target sets of the side to move and the shift from each target back to its
/// origin (`to = from + shift`, as a signed number).
struct Targets {
    sets: [u128; 3],
    shifts: [i32; 3],
}

impl Breakthrough {
    /// Breakthrough on a `width` × `height` board.
    ///
    /// # Errors
    /// [`SizeError`] unless `width` is in 3..=11 and `height` in 4..=11.
    pub fn new(width: usize, height: usize) -> Result<Self, SizeError> {
        if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) || !(MIN_HEIGHT..=MAX_HEIGHT).contains(&height)
        {
            return Err(SizeError {
                width,
                height,
                min_width: MIN_WIDTH,
                max_width: MAX_WIDTH,
                min_height: MIN_HEIGHT,
                max_height: MAX_HEIGHT,
            });
        }
        let row: u128 = (1 << width) - 1;
        let row_at = |r: usize| row << (r * width);
        let board = (0..height).fold(0, |b, r| b | row_at(r));
        let left_col = (0..height).fold(0u128, |b, r| b | 1 << (r * width));
        let right_col = left_col << (width - 1);
        let home_rows = if height <= 4 { 1 } else { 2 };
        let white_start = (0..home_rows).fold(0, |b, r| b | row_at(r));
        let black_start = (0..home_rows).fold(0, |b, r| b | row_at(height - 1 - r));
        // Each piece starting on its side's row r can make height - 2 - r moves without
        // winning; the game ends with one more move, so it lasts at most 2 * that + 1 turns.
        let advances: usize = (0..home_rows).map(|r| width * (height - 2 - r)).sum();
        Ok(Breakthrough {
            width: width as u8,
            height: height as u8,
            board,
            not_left: board & !left_col,
            not_right: board & !right_col,
            top: row_at(height - 1),
            bottom: row_at(0),
            white_start,
            black_start,
            max_turns: 2 * advances + 1,
        })
    }

    /// The 5×5 board.
    pub fn new_5x5() -> Self {
        Self::new(5, 5).expect("5x5 is supported")
    }

    /// The 6×6 board.
    pub fn new_6x6() -> Self {
        Self::new(6, 6).expect("6x6 is supported")
    }

    /// The standard 8×8 board.
    pub fn new_8x8() -> Self {
        Self::new(8, 8).expect("8x8 is supported")
    }

    /// The game a command-line name stands for: `breakthrough` (8×8) or
    /// `breakthrough-<width>x<height>`, as [`Game::facts`] names it.
    pub fn from_name(name: &str) -> Option<Self> {
        if name == "breakthrough" {
            return Some(Self::new_8x8());
        }
        let (w, h) = name.strip_prefix("breakthrough-")?.split_once('x')?;
        Self::new(w.parse().ok()?, h.parse().ok()?).ok()
    }

    /// Board width (columns).
    pub const fn width(&self) -> usize {
        self.width as usize
    }

    /// Board height (rows).
    pub const fn height(&self) -> usize {
        self.height as usize
    }

    /// A position from the pieces of each side (bit `row * width + column`) and the side to
    /// move.
    ///
    /// # Errors
    /// [`PositionError`]: pieces off the board or on a square of both sides
    /// ([`PositionError::BadSquares`]), more pieces than a side starts with, no pieces at all, both sides having won, or a won game in which the winner
    /// is to move or has two pieces on the goal row ([`PositionError::PlayedAfterWin`]).
    pub fn state_from_boards(
        &self,
        white: u128,
        black: u128,
        to_move: Player,
    ) -> Result<BreakthroughState, PositionError> {
        if (white | black) & !self.board != 0 || white & black != 0 {
            return Err(PositionError::BadSquares);
        }
        let max = self.white_start.count_ones();
        for (pieces, side) in [(white, "white"), (black, "black")] {
            if pieces.count_ones() > max {
                return Err(PositionError::TooManyPieces {
                    side,
                    count: pieces.count_ones(),
                    max,
                });
            }
        }
        if white == 0 && black == 0 {
            return Err(PositionError::NoPieces);
        }
        let white_won = white & self.top != 0 || black == 0;
        let black_won = black & self.bottom != 0 || white == 0;
        if white_won && black_won {
            return Err(PositionError::TwoWinners);
        }
        for (won, goal_pieces, winner) in [
            (white_won, white & self.top, Player(0)),
            (black_won, black & self.bottom, Player(1)),
        ] {
            if won && (to_move == winner || goal_pieces.count_ones() > 1) {
                return Err(PositionError::PlayedAfterWin {
                    winner: side_name(winner),
                });
            }
        }
        Ok(BreakthroughState {
            white,
            black,
            to_move: to_move.0 & 1,
        })
    }

    /// The winner, if the game is over.
    #[inline]
    pub fn winner(&self, s: &BreakthroughState) -> Option<Player> {
        if s.white & self.top != 0 || s.black == 0 {
            Some(Player(0))
        } else if s.black & self.bottom != 0 || s.white == 0 {
            Some(Player(1))
        } else {
            None
        }
    }

    #[inline]
    fn is_over(&self, s: &BreakthroughState) -> bool {
        (s.white & self.top) | (s.black & self.bottom) != 0 || s.white == 0 || s.black == 0
    }

    /// The target squares of the side to move: diagonal left, straight, diagonal right.
    #[inline]
    fn targets(&self, s: &BreakthroughState) -> Targets {
        let w = self.width as u32;
        let empty = self.board & !(s.white | s.black);
        if s.to_move == 0 {
            let own = s.white;
            Targets {
                sets: [
                    ((own & self.not_left) << (w - 1)) & !own & self.board,
                    (own << w) & empty,
                    ((own & self.not_right) << (w + 1)) & !own & self.board,
                ],
                shifts: [w as i32 - 1, w as i32, w as i32 + 1],
            }
        } else {
            let own = s.black;
            Targets {
                sets: [
                    ((own & self.not_left) >> (w + 1)) & !own,
                    (own >> w) & empty,
                    ((own & self.not_right) >> (w - 1)) & !own,
                ],
                shifts: [-(w as i32) - 1, -(w as i32), -(w as i32) + 1],
            }
        }
    }

    fn square_name(&self, sq: u8) -> String {
        let w = self.width;
        format!("{}{}", (b'a' + sq % w) as char, sq / w + 1)
    }

    /// Reads a square (`a1`, `k11`; the text is already lowercase ASCII).
    fn parse_square(&self, b: &[u8]) -> Option<u8> {
        let (&c, digits) = b.split_first()?;
        let col = c.checked_sub(b'a')?;
        if col >= self.width || digits.is_empty() || digits.len() > 2 || digits[0] == b'0' {
            return None;
        }
        let mut row = 0u8;
        for &d in digits {
            if !d.is_ascii_digit() {
                return None;
            }
            row = row * 10 + (d - b'0');
        }
        if row == 0 || row > self.height {
            return None;
        }
        Some((row - 1) * self.width + col)
    }

    fn piece_char(&self, s: &BreakthroughState, sq: usize) -> char {
        let bit = 1u128 << sq;
        if s.white & bit != 0 {
            'w'
        } else if s.black & bit != 0 {
            'b'
        } else {
            '.'
        }
    }
}

impl Breakthrough {
    /// The board row of frame row `t` in `player`'s frame (see the
    /// [module documentation](self)); an involution.
    #[inline]
    fn frame_row(&self, player: Player, t: usize) -> usize {
        if player.0 == 0 {
            self.height() - 1 - t
        } else {
            t
        }
    }
}

impl ActionSpace for Breakthrough {
    /// Three directions from each square: `width · height · 3`.
    fn num_actions(&self) -> usize {
        self.width() * self.height() * 3
    }

    /// `(t · width + c) · 3 + d` with `(t, c)` the origin in the mover's frame and `d` the
    /// direction (0 towards column `a`, 1 straight, 2 away from column `a`).
    fn action_index(&self, s: &BreakthroughState, mv: BreakthroughMove) -> usize {
        let w = self.width();
        let (row, col) = (mv.from as usize / w, mv.from as usize % w);
        let t = self.frame_row(s.to_move(), row);
        let d = (mv.to as usize % w + 1) - col;
        (t * w + col) * 3 + d
    }

    fn action_move(
        &self,
        s: &BreakthroughState,
        player: Player,
        action: usize,
    ) -> Option<BreakthroughMove> {
        let (w, h) = (self.width(), self.height());
        if player != s.to_move() || action >= self.num_actions() || self.is_over(s) {
            return None;
        }
        let (square, d) = (action / 3, action % 3);
        let from = self.frame_row(player, square / w) * w + square % w;
        let t = self.targets(s);
        let to = from as i32 + t.shifts[d];
        if !(0..(w * h) as i32).contains(&to) || t.sets[d] >> to & 1 == 0 {
            return None;
        }
        Some(BreakthroughMove {
            from: from as u8,
            to: to as u8,
        })
    }
}

impl TensorGame for Breakthrough {
    /// Two planes of `height × width` in `perspective`'s frame: its pieces, the
    /// opponent's.
    fn tensor_shape(&self) -> TensorShape {
        TensorShape {
            channels: 2,
            height: self.height(),
            width: self.width(),
        }
    }

    fn encode(&self, s: &BreakthroughState, perspective: Player, out: &mut [f32]) {
        let (w, h) = (self.width(), self.height());
        let (mine, theirs) = if perspective.0 == 0 {
            (s.white, s.black)
        } else {
            (s.black, s.white)
        };
        for t in 0..h {
            let row = self.frame_row(perspective, t);
            for c in 0..w {
                let sq = row * w + c;
                out[t * w + c] = (mine >> sq & 1) as f32;
                out[(h + t) * w + c] = (theirs >> sq & 1) as f32;
            }
        }
    }
}

impl Default for Breakthrough {
    /// The standard 8×8 game.
    fn default() -> Self {
        Self::new_8x8()
    }
}

impl fmt::Display for Breakthrough {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "breakthrough-{}x{}", self.width, self.height)
    }
}

impl Game for Breakthrough {
    type State = BreakthroughState;
    type Move = BreakthroughMove;

    fn facts(&self) -> &GameFacts {
        // `Breakthrough` is `Copy`, so it cannot own its facts' strings; the facts of each
        // board size (which alone determines them) are built once per program instead.
        static FACTS: [OnceLock<GameFacts>; SIZES] = [const { OnceLock::new() }; SIZES];
        let heights = MAX_HEIGHT - MIN_HEIGHT + 1;
        let size = (self.width as usize - MIN_WIDTH) * heights + self.height as usize - MIN_HEIGHT;
        FACTS[size].get_or_init(|| {
            GameFacts::two_player_zero_sum(&self.to_string(), ["white", "black"], self.max_turns)
        })
    }

    fn initial_state(&self) -> BreakthroughState {
        BreakthroughState {
            white: self.white_start,
            black: self.black_start,
            to_move: 0,
        }
    }

    #[inline]
    fn turn(&self, s: &BreakthroughState) -> Turn {
        if self.is_over(s) {
            Turn::Terminal
        } else {
            Turn::Player(Player(s.to_move))
        }
    }

    /// Moves ordered by origin square, then left diagonal, straight, right diagonal.
    fn legal_moves(&self, s: &BreakthroughState, out: &mut Vec<BreakthroughMove>) {
        out.clear();
        if self.is_over(s) {
            return;
        }
        let t = self.targets(s);
        let mut own = if s.to_move == 0 { s.white } else { s.black };
        while own != 0 {
            let from = own.trailing_zeros() as i32;
            own &= own - 1;
            for d in 0..3 {
                let to = from + t.shifts[d];
                if (0..128).contains(&to) && t.sets[d] >> to & 1 == 1 {
                    out.push(BreakthroughMove {
                        from: from as u8,
                        to: to as u8,
                    });
                }
            }
        }
    }

    #[inline]
    fn apply(&self, s: &mut BreakthroughState, mv: BreakthroughMove) {
        let from = 1u128 << mv.from;
        let to = 1u128 << mv.to;
        if s.to_move == 0 {
            s.white ^= from | to;
            s.black &= !to;
        } else {
            s.black ^= from | to;
            s.white &= !to;
        }
        s.to_move ^= 1;
    }

    fn returns(&self, s: &BreakthroughState) -> Rewards {
        match self.winner(s) {
            Some(Player(0)) => Rewards::zero_sum(1.0),
            Some(_) => Rewards::zero_sum(-1.0),
            None => Rewards::zero_sum(0.0),
        }
    }

    fn format_move(&self, s: &BreakthroughState, mv: BreakthroughMove) -> String {
        let capture = (s.white | s.black) >> mv.to & 1 == 1;
        format!(
            "{}{}{}",
            self.square_name(mv.from),
            if capture { 'x' } else { '-' },
            self.square_name(mv.to)
        )
    }

    fn parse_move(
        &self,
        s: &BreakthroughState,
        text: &str,
    ) -> Result<BreakthroughMove, NotationError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(NotationError::Empty { what: "move" });
        }
        let bad = || {
            NotationError::syntax(
                "move",
                text,
                "<from>-<to> or <from>x<to>, e.g. a2-a3 or b4xc5",
            )
        };
        if !t.is_ascii() {
            return Err(bad());
        }
        let lower = t.to_ascii_lowercase();
        let b = lower.as_bytes();
        let sep = b
            .iter()
            .skip(1)
            .position(|&c| c == b'-' || c == b'x')
            .ok_or_else(bad)?
            + 1;
        let (Some(from), Some(to)) = (
            self.parse_square(&b[..sep]),
            self.parse_square(&b[sep + 1..]),
        ) else {
            return Err(bad());
        };
        let says_capture = b[sep] == b'x';
        let mv = BreakthroughMove { from, to };
        if self.is_over(s) {
            return Err(NotationError::illegal(text, "the game is over"));
        }
        let (own, enemy) = if s.to_move == 0 {
            (s.white, s.black)
        } else {
            (s.black, s.white)
        };
        if own >> from & 1 == 0 {
            return Err(NotationError::illegal(
                text,
                format!(
                    "{} has no piece on {}",
                    side_name(s.to_move()),
                    self.square_name(from)
                ),
            ));
        }
        let (fc, tc) = ((from % self.width) as i32, (to % self.width) as i32);
        let targets = self.targets(s);
        let shift = to as i32 - from as i32;
        // The column test rejects shifts that wrap around the board's edge.
        let Some(d) = targets
            .shifts
            .iter()
            .position(|&x| x == shift)
            .filter(|&d| (fc - tc).abs() == (d != 1) as i32)
        else {
            return Err(NotationError::illegal(
                text,
                "a piece moves one square forward, straight or diagonally",
            ));
        };
        if targets.sets[d] >> to & 1 == 0 {
            let reason = if d == 1 {
                "the square ahead is occupied"
            } else {
                "the square holds an own piece"
            };
            return Err(NotationError::illegal(text, reason));
        }
        if says_capture && enemy >> to & 1 == 0 {
            return Err(NotationError::illegal(
                text,
                format!("{} holds no enemy piece to capture", self.square_name(to)),
            ));
        }
        Ok(mv)
    }

    fn format_state(&self, s: &BreakthroughState) -> String {
        let (w, h) = (self.width(), self.height());
        let mut out = String::with_capacity((w + 1) * h + 2);
        for row in (0..h).rev() {
            for col in 0..w {
                out.push(self.piece_char(s, row * w + col));
            }
            out.push(if row == 0 { ' ' } else { '/' });
        }
        out.push(if s.to_move == 0 { 'w' } else { 'b' });
        out
    }

    fn parse_state(&self, text: &str) -> Result<BreakthroughState, NotationError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(NotationError::Empty { what: "state" });
        }
        let (w, h) = (self.width(), self.height());
        let bad = || {
            NotationError::syntax(
                "state",
                text,
                format!("{h} rows of {w} cells w/b/. from the top separated by '/', a space and the side to move (w or b)"),
            )
        };
        let mut parts = t.split_whitespace();
        let (Some(board), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad());
        };
        let (mut white, mut black) = (0u128, 0u128);
        let mut rows = 0;
        for (i, line) in board.split('/').enumerate() {
            if i >= h || line.len() != w {
                return Err(bad());
            }
            let row = h - 1 - i;
            for (col, c) in line.bytes().enumerate() {
                let bit = 1u128 << (row * w + col);
                match c {
                    b'w' => white |= bit,
                    b'b' => black |= bit,
                    b'.' => {}
                    _ => return Err(bad()),
                }
            }
            rows += 1;
        }
        let to_move = match side {
            "w" => Player(0),
            "b" => Player(1),
            _ => return Err(bad()),
        };
        if rows != h {
            return Err(bad());
        }
        self.state_from_boards(white, black, to_move)
            .map_err(|e| invalid_state(text, e))
    }

    fn render(&self, s: &BreakthroughState) -> String {
        let (w, h) = (self.width(), self.height());
        let mut out = String::new();
        for row in (0..h).rev() {
            out.push_str(&format!("{:>2}", row + 1));
            for col in 0..w {
                out.push(' ');
                out.push(self.piece_char(s, row * w + col));
            }
            out.push('\n');
        }
        out.push_str("  ");
        for col in 0..w {
            out.push(' ');
            out.push((b'a' + col as u8) as char);
        }
        out.push('\n');
        match self.winner(s) {
            Some(p) => out.push_str(&format!("{} wins\n", side_name(p))),
            None => out.push_str(&format!("{} to move\n", side_name(s.to_move()))),
        }
        out
    }

    #[inline]
    fn hash(&self, s: &BreakthroughState) -> u64 {
        let h = mix64(s.to_move as u64 ^ 0x9E37_79B9_7F4A_7C15);
        let h = mix64(h ^ (s.white as u64));
        let h = mix64(h ^ ((s.white >> 64) as u64));
        let h = mix64(h ^ (s.black as u64));
        mix64(h ^ ((s.black >> 64) as u64))
    }

    /// Uniform over all legal moves without a move list: counts the targets of the three
    /// directions and picks the k-th.
    #[inline]
    fn random_move(
        &self,
        s: &BreakthroughState,
        rng: &mut Rng,
        _: &mut Vec<BreakthroughMove>,
    ) -> Option<BreakthroughMove> {
        if self.is_over(s) {
            return None;
        }
        let t = self.targets(s);
        let counts = t.sets.map(|b| b.count_ones());
        let mut k = rng.below((counts[0] + counts[1] + counts[2]) as usize) as u32;
        let mut d = 0;
        while k >= counts[d] {
            k -= counts[d];
            d += 1;
        }
        let to = select128(t.sets[d], k);
        Some(BreakthroughMove {
            from: (to as i32 - t.shifts[d]) as u8,
            to: to as u8,
        })
    }
}

/// The Breakthrough evaluation, from white's point of view, squashed into (-1, 1):
/// material (1 per piece), advancement (0.1 per row each piece has advanced from its home
/// edge, 0.3 per row of the most advanced piece), and 20 for the side to move when one of
/// its pieces stands on the row before the goal (it wins next move: the diagonal step to
/// the goal row is always open). Terminal states get their returns.
#[derive(Clone, Copy, Debug, Default)]
pub struct BreakthroughEval;

impl BreakthroughEval {
    /// The score for white before squashing (of a non-terminal state).
    pub fn score(game: &Breakthrough, s: &BreakthroughState) -> f64 {
        let (w, h) = (game.width(), game.height());
        let row: u128 = (1 << w) - 1;
        let mut score = s.white.count_ones() as f64 - s.black.count_ones() as f64;
        let (mut best_w, mut best_b) = (0, 0);
        let mut advance = 0.0;
        for r in 1..h {
            let (nw, nb) = (
                (s.white >> (r * w)) & row,
                (s.black >> ((h - 1 - r) * w)) & row,
            );
            advance += r as f64 * (nw.count_ones() as f64 - nb.count_ones() as f64);
            if nw != 0 {
                best_w = r;
            }
            if nb != 0 {
                best_b = r;
            }
        }
        score += 0.1 * advance + 0.3 * (best_w as f64 - best_b as f64);
        if s.to_move == 0 && best_w == h - 2 {
            score += 20.0;
        } else if s.to_move == 1 && best_b == h - 2 {
            score -= 20.0;
        }
        score
    }
}

impl Evaluator<Breakthrough> for BreakthroughEval {
    fn evaluate(&self, game: &Breakthrough, s: &BreakthroughState) -> Rewards {
        if game.is_over(s) {
            return game.returns(s);
        }
        Rewards::zero_sum(squash(Self::score(game, s), 6.0))
    }
}

/// Core's agents with [`BreakthroughEval`] registered as `default` (and as `material`).
pub fn registry() -> AgentRegistry<Breakthrough> {
    let mut r = AgentRegistry::with_core_agents();
    let summary = "material, advancement and a piece one step from the goal";
    r.add_evaluator("default", summary, Arc::new(BreakthroughEval));
    r.add_evaluator("material", summary, Arc::new(BreakthroughEval));
    r
}
