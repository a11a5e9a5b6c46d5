//! Tic-tac-toe on a 3×3 board: `x` (player 0) moves first, three in a row wins.
//!
//! # Notation
//! - Moves name a cell by column letter and row number, `a1` (bottom left) to `c3` (top
//!   right); parsing also accepts capitals.
//! - States are the nine cells row by row from the top (`x`, `o`, `.`), a space and the
//!   side to move: `x.o.x.... o`. Rows may be separated by `/` (`x.o/.x./... o`).
//!   [`TicTacToe::parse_state`](yomi_core::Game::parse_state) rejects positions that play
//!   cannot reach (see [`TicTacToeState::from_boards`]).
//!
//! ```
//! use yomi_core::Game;
//! use yomi_classic::TicTacToe;
//! let game = TicTacToe;
//! let mut s = game.initial_state();
//! for m in ["b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3", "c3"] {
//!     let mv = game.parse_move(&s, m).unwrap();
//!     game.play(&mut s, mv).unwrap();
//! }
//! assert_eq!(game.format_state(&s), "ooxxxooxx o");
//! assert!(game.is_terminal(&s));
//! assert_eq!(game.returns(&s).as_slice(), &[0.0, 0.0]); // a draw
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, LazyLock};

use yomi_core::registry::AgentRegistry;
use yomi_core::search::Evaluator;
use yomi_core::{
    ActionSpace, Game, GameFacts, NotationError, Player, Rewards, Rng, TensorGame, TensorShape,
    Turn,
};

use crate::error::PositionError;
use crate::util::{invalid_state, mix64, select64, squash};

/// All nine cells.
const FULL: u16 = 0x1FF;

/// The eight lines as cell masks (bit `row * 3 + column`, row 0 at the bottom).
pub const LINES: [u16; 8] = [
    0x007, 0x038, 0x1C0, // rows
    0x049, 0x092, 0x124, // columns
    0x111, 0x054, // diagonals
];

const fn win_table() -> [bool; 512] {
    let mut t = [false; 512];
    let mut b = 0;
    while b < 512 {
        let mut i = 0;
        while i < LINES.len() {
            if b as u16 & LINES[i] == LINES[i] {
                t[b] = true;
            }
            i += 1;
        }
        b += 1;
    }
    t
}

/// `WINS[b]`: does the cell set `b` contain a line?
static WINS: [bool; 512] = win_table();

#[inline]
fn has_line(cells: u16) -> bool {
    WINS[(cells & FULL) as usize]
}

/// A cell of the board, and a tic-tac-toe move: index `row * 3 + column`, row 0 at the
/// bottom. Prints as `a1`..`c3`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `column` and `row` (both 0-based, row 0 at the bottom), if on the board.
    pub const fn new(column: u8, row: u8) -> Option<Cell> {
        if column < 3 && row < 3 {
            Some(Cell(row * 3 + column))
        } else {
            None
        }
    }

    /// The cell with index `index` (0..9), if any.
    pub const fn from_index(index: u8) -> Option<Cell> {
        if index < 9 {
            Some(Cell(index))
        } else {
            None
        }
    }

    /// The index `row * 3 + column`, 0..9.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The column, 0..3 (`a` is 0).
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 % 3
    }

    /// The row, 0..3 (row `1` is 0, at the bottom).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 3
    }

    #[inline]
    const fn bit(self) -> u16 {
        1 << self.0
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column()) as char, self.row() + 1)
    }
}

impl FromStr for Cell {
    type Err = NotationError;

    /// Reads `a1`..`c3` (capitals accepted).
    fn from_str(text: &str) -> Result<Cell, NotationError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(NotationError::Empty { what: "move" });
        }
        let b = t.as_bytes();
        let bad =
            || NotationError::syntax("move", text, "a cell a1..c3 (column letter, row number)");
        if b.len() != 2 {
            return Err(bad());
        }
        let col = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = b[1].wrapping_sub(b'1');
        Cell::new(col, row).ok_or_else(bad)
    }
}

/// A tic-tac-toe position: the cells of each player. The side to move follows from the
/// counts (`x` moves first), so equal boards are equal states.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct TicTacToeState {
    x: u16,
    o: u16,
}

impl TicTacToeState {
    /// A position from the cell sets of `x` and `o` (bit `row * 3 + column`).
    ///
    /// # Errors
    /// [`PositionError`] when play cannot reach the position: cells outside the board or
    /// held by both ([`PositionError::BadSquares`]); counts where `x` does not have as many
    /// cells as `o` or one more ([`PositionError::PieceCounts`]); both players with a line give
    /// [`PositionError::TwoWinners`]; a line whose owner did not make the last move, or
    /// that no single last move can have completed, gives [`PositionError::PlayedAfterWin`].
    pub fn from_boards(x: u16, o: u16) -> Result<Self, PositionError> {
        let (nx, no) = (x.count_ones(), o.count_ones());
        if x & o != 0 || (x | o) & !FULL != 0 {
            return Err(PositionError::BadSquares);
        }
        if !(nx == no || nx == no + 1) {
            return Err(PositionError::PieceCounts {
                first_name: "x",
                first: nx,
                second_name: "o",
                second: no,
            });
        }
        let (xw, ow) = (has_line(x), has_line(o));
        if xw && ow {
            return Err(PositionError::TwoWinners);
        }
        for (won, mine, last_mover, name) in [(xw, x, nx == no + 1, "x"), (ow, o, nx == no, "o")] {
            // The winner moved last, and removing some one of its pieces undoes every line.
            let undoable = (0..9).any(|i| mine >> i & 1 == 1 && !has_line(mine & !(1 << i)));
            if won && !(last_mover && undoable) {
                return Err(PositionError::PlayedAfterWin { winner: name });
            }
        }
        Ok(TicTacToeState { x, o })
    }

    /// The cells of `x` (bit `row * 3 + column`).
    pub const fn x(&self) -> u16 {
        self.x
    }

    /// The cells of `o`.
    pub const fn o(&self) -> u16 {
        self.o
    }

    /// The player to move (also defined once the game is over).
    #[inline]
    pub const fn to_move(&self) -> Player {
        Player((self.x.count_ones() > self.o.count_ones()) as u8)
    }

    /// The winner, if a player has three in a row.
    pub fn winner(&self) -> Option<Player> {
        if has_line(self.x) {
            Some(Player(0))
        } else if has_line(self.o) {
            Some(Player(1))
        } else {
            None
        }
    }

    /// Who holds `cell`.
    pub const fn at(&self, cell: Cell) -> Option<Player> {
        if self.x & cell.bit() != 0 {
            Some(Player(0))
        } else if self.o & cell.bit() != 0 {
            Some(Player(1))
        } else {
            None
        }
    }

    #[inline]
    fn is_over(&self) -> bool {
        has_line(self.x) || has_line(self.o) || (self.x | self.o) == FULL
    }
}

/// Tic-tac-toe. See the [module documentation](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TicTacToe;

fn side_char(p: Player) -> char {
    if p.0 == 0 {
        'x'
    } else {
        'o'
    }
}

impl Game for TicTacToe {
    type State = TicTacToeState;
    type Move = Cell;

    fn facts(&self) -> &GameFacts {
        static FACTS: LazyLock<GameFacts> =
            LazyLock::new(|| GameFacts::two_player_zero_sum("tictactoe", ["x", "o"], 9));
        &FACTS
    }

    fn initial_state(&self) -> TicTacToeState {
        TicTacToeState::default()
    }

    #[inline]
    fn turn(&self, s: &TicTacToeState) -> Turn {
        if s.is_over() {
            Turn::Terminal
        } else {
            Turn::Player(s.to_move())
        }
    }

    fn legal_moves(&self, s: &TicTacToeState, out: &mut Vec<Cell>) {
        out.clear();
        if s.is_over() {
            return;
        }
        let mut free = !(s.x | s.o) & FULL;
        while free != 0 {
            out.push(Cell(free.trailing_zeros() as u8));
            free &= free - 1;
        }
    }

    #[inline]
    fn apply(&self, s: &mut TicTacToeState, mv: Cell) {
        if s.to_move().0 == 0 {
            s.x |= mv.bit();
        } else {
            s.o |= mv.bit();
        }
    }

    fn returns(&self, s: &TicTacToeState) -> Rewards {
        match s.winner() {
            Some(Player(0)) => Rewards::zero_sum(1.0),
            Some(_) => Rewards::zero_sum(-1.0),
            None => Rewards::zero_sum(0.0),
        }
    }

    fn format_move(&self, _: &TicTacToeState, mv: Cell) -> String {
        mv.to_string()
    }

    fn parse_move(&self, s: &TicTacToeState, text: &str) -> Result<Cell, NotationError> {
        let cell: Cell = text.parse()?;
        if s.is_over() {
            return Err(NotationError::illegal(text, "the game is over"));
        }
        if (s.x | s.o) & cell.bit() != 0 {
            return Err(NotationError::illegal(text, format!("{cell} is taken")));
        }
        Ok(cell)
    }

    fn format_state(&self, s: &TicTacToeState) -> String {
        let mut out = String::with_capacity(11);
        for row in (0..3).rev() {
            for col in 0..3 {
                out.push(match s.at(Cell(row * 3 + col)) {
                    Some(p) => side_char(p),
                    None => '.',
                });
            }
        }
        out.push(' ');
        out.push(side_char(s.to_move()));
        out
    }

    fn parse_state(&self, text: &str) -> Result<TicTacToeState, NotationError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(NotationError::Empty { what: "state" });
        }
        let expected = "nine cells x/o/. row by row from the top, a space and the side to move, e.g. \"x...o.... x\"";
        let bad = || NotationError::syntax("state", text, expected);
        let mut parts = t.split_whitespace();
        let (Some(board), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad());
        };
        let cells: Vec<u8> = match board.as_bytes() {
            b if b.len() == 9 => b.to_vec(),
            b if b.len() == 11 && b[3] == b'/' && b[7] == b'/' => {
                b.iter().copied().filter(|&c| c != b'/').collect()
            }
            _ => return Err(bad()),
        };
        let (mut x, mut o) = (0u16, 0u16);
        for (i, &c) in cells.iter().enumerate() {
            let row = 2 - i / 3;
            let bit = 1u16 << (row * 3 + i % 3);
            match c {
                b'x' => x |= bit,
                b'o' => o |= bit,
                b'.' => {}
                _ => return Err(bad()),
            }
        }
        let side = match side {
            "x" => Player(0),
            "o" => Player(1),
            _ => return Err(bad()),
        };
        let s = TicTacToeState::from_boards(x, o).map_err(|e| invalid_state(text, e))?;
        if s.to_move() != side {
            let err = PositionError::SideToMove {
                expected: if s.to_move().0 == 0 { "x" } else { "o" },
                found: if side.0 == 0 { "x" } else { "o" },
            };
            return Err(invalid_state(text, err));
        }
        Ok(s)
    }

    fn render(&self, s: &TicTacToeState) -> String {
        let mut out = String::new();
        for row in (0..3u8).rev() {
            out.push_str(&(row + 1).to_string());
            for col in 0..3 {
                out.push(' ');
                out.push(match s.at(Cell(row * 3 + col)) {
                    Some(p) => side_char(p),
                    None => '.',
                });
            }
            out.push('\n');
        }
        out.push_str("  a b c\n");
        match (s.winner(), s.is_over()) {
            (Some(p), _) => out.push_str(&format!("{} wins\n", side_char(p))),
            (None, true) => out.push_str("draw\n"),
            (None, false) => out.push_str(&format!("{} to move\n", side_char(s.to_move()))),
        }
        out
    }

    #[inline]
    fn hash(&self, s: &TicTacToeState) -> u64 {
        mix64(s.x as u64 | (s.o as u64) << 16)
    }

    #[inline]
    fn random_move(&self, s: &TicTacToeState, rng: &mut Rng, _: &mut Vec<Cell>) -> Option<Cell> {
        if s.is_over() {
            return None;
        }
        let free = !(s.x | s.o) & FULL;
        let k = rng.below(free.count_ones() as usize) as u32;
        Some(Cell(select64(free as u64, k) as u8))
    }
}

/// The tic-tac-toe evaluation: open lines. A line holding only one player's pieces counts
/// for that player (1 for one piece, 4 for two); a two-piece line of the player to move is
/// an immediate win and counts 16. The sum, from `x`'s point of view, is squashed into
/// (-1, 1); terminal states get their returns.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToeEval;

impl TicTacToeEval {
    /// The score for `x` before squashing.
    fn score(s: &TicTacToeState) -> f64 {
        let x_to_move = s.to_move().0 == 0;
        let mut score = 0.0;
        for line in LINES {
            let (a, b) = ((s.x & line).count_ones(), (s.o & line).count_ones());
            let weight = |n: u32, to_move: bool| match n {
                0 => 0.0,
                1 => 1.0,
                _ if to_move => 16.0,
                _ => 4.0,
            };
            if b == 0 {
                score += weight(a, x_to_move);
            }
            if a == 0 {
                score -= weight(b, !x_to_move);
            }
        }
        score
    }
}

impl Evaluator<TicTacToe> for TicTacToeEval {
    fn evaluate(&self, game: &TicTacToe, s: &TicTacToeState) -> Rewards {
        if s.is_over() {
            return game.returns(s);
        }
        Rewards::zero_sum(squash(Self::score(s), 8.0))
    }
}

/// Core's agents with [`TicTacToeEval`] registered as `default` (and as `lines`).
pub fn registry() -> AgentRegistry<TicTacToe> {
    let mut r = AgentRegistry::with_core_agents();
    let summary = "open lines: one piece 1, two pieces 4 (16 for the side to move)";
    r.add_evaluator("default", summary, Arc::new(TicTacToeEval));
    r.add_evaluator("lines", summary, Arc::new(TicTacToeEval));
    r
}

impl ActionSpace for TicTacToe {
    /// One output per cell.
    fn num_actions(&self) -> usize {
        9
    }

    fn action_index(&self, _state: &TicTacToeState, mv: Cell) -> usize {
        mv.index() as usize
    }
}

impl TensorGame for TicTacToe {
    /// Two planes, 3×3: the cells of `perspective`, then the opponent's.
    fn tensor_shape(&self) -> TensorShape {
        TensorShape {
            channels: 2,
            height: 3,
            width: 3,
        }
    }

    fn encode(&self, state: &TicTacToeState, perspective: Player, out: &mut [f32]) {
        let (mine, theirs) = if perspective == Player(0) {
            (state.x, state.o)
        } else {
            (state.o, state.x)
        };
        for i in 0..9 {
            out[i] = (mine >> i & 1) as f32;
            out[9 + i] = (theirs >> i & 1) as f32;
        }
    }
}
