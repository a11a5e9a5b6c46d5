//! The rules of Othello on the 8 × 8 board as a [`yomi_core::Game`].
//!
//! Black (`X`, [`Player`] 0) moves first from the standard start (white on d4 and e5, black
//! on d5 and e4). A move places a disc that outflanks at least one run of opponent discs
//! and turns them over. A side without a legal move must pass, and passing is a move of its
//! own here ([`Move::PASS`]), so every non-terminal state offers at least one move; the
//! game ends when neither side can move.
//!
//! # Rewards
//! [`Game::returns`] gives +1 / 0 / −1 to black by the raw comparison of disc counts (and
//! the opposite to white). Giving the empty squares of a finished game to the winner, as
//! tournaments and the FFO scores do, never changes who won, so the two conventions agree
//! on the reward; [`OthelloState::final_score`] is the disc difference with empties to the
//! winner, the unit of the exact solver.
//!
//! # Notation
//! - Moves: `a1`..`h8` (a1 top left, columns a–h left to right, rows 1–8 top to bottom;
//!   capitals accepted) and `pass` (also `PS`, `--`, `@@`).
//! - States: the 64 squares in the order a1, b1, …, h1, a2, …, h8 with `X` (black), `O`
//!   (white) and `-` (empty), a space and the side to move (`X` or `O`), as in OBF and the
//!   FFO test suite. Parsing accepts `x`, `*`, `B` for black, `o`, `W` for white and `.`,
//!   `_` for empty, and rejects positions with an empty centre square.
//!
//! # Actions and tensors
//! [`ActionSpace`]: 65 actions, the square index `0..64` (a1 = 0, b1 = 1, …, h8 = 63,
//! row-major from the top left, as [`Move::code`]) and 64 for the pass.
//!
//! [`TensorGame`]: four planes of 8 × 8 (row 0 = row 1 at the top, column 0 = a, so the
//! value of square `sq` in plane `c` is at `c * 64 + sq`), from `perspective`'s side:
//! 0. `perspective`'s discs;
//! 1. the opponent's discs;
//! 2. the squares where `perspective` may place a disc when it is `perspective`'s turn
//!    (all zeros when it is the opponent's turn, when `perspective` must pass, and in a
//!    finished game);
//! 3. ones (marks the board's extent for padded convolutions).

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use yomi_core::{
    ActionSpace, Game, GameFacts, NotationError, Player, Rewards, Rng, TensorGame, TensorShape,
    Turn,
};

use crate::bitboard::{flips, mix64, moves, pdep};
use crate::error::{BoardError, MoveError};

/// A move: a square `0..64` (bit index, a1 = 0, h8 = 63) or a pass.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Move(u8);

impl Move {
    /// The pass.
    pub const PASS: Move = Move(64);

    /// The move on square `sq` (0..64), if on the board.
    pub const fn square(sq: u8) -> Option<Move> {
        if sq < 64 {
            Some(Move(sq))
        } else {
            None
        }
    }

    /// The move at `column` (0 = a) and `row` (0 = row 1), if on the board.
    pub const fn at(column: u8, row: u8) -> Option<Move> {
        if column < 8 && row < 8 {
            Some(Move(row * 8 + column))
        } else {
            None
        }
    }

    /// The square index 0..64, or `None` for a pass.
    pub const fn index(self) -> Option<u8> {
        if self.0 < 64 {
            Some(self.0)
        } else {
            None
        }
    }

    /// True for the pass.
    pub const fn is_pass(self) -> bool {
        self.0 >= 64
    }

    /// The raw code: the square, or 64 for a pass.
    pub const fn code(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index() {
            Some(sq) => write!(f, "{}{}", (b'a' + sq % 8) as char, sq / 8 + 1),
            None => f.write_str("pass"),
        }
    }
}

impl FromStr for Move {
    type Err = MoveError;

    /// Reads `a1`..`h8` (any case) or `pass` / `PS` / `--` / `@@`.
    fn from_str(text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(MoveError::Empty);
        }
        if t.eq_ignore_ascii_case("pass") || t.eq_ignore_ascii_case("ps") || t == "--" || t == "@@"
        {
            return Ok(Move::PASS);
        }
        match t.as_bytes() {
            &[c, r] => {
                let c = c.to_ascii_lowercase();
                if (b'a'..=b'h').contains(&c) && (b'1'..=b'8').contains(&r) {
                    Ok(Move((r - b'1') * 8 + (c - b'a')))
                } else {
                    Err(MoveError::Syntax(text.to_string()))
                }
            }
            _ => Err(MoveError::Syntax(text.to_string())),
        }
    }
}

/// The name of square `sq` (0..64), `a1`..`h8`.
pub fn square_name(sq: u8) -> String {
    Move(sq & 63).to_string()
}

/// An Othello position: the discs of the side to move and of the other side, and which
/// colour moves. 17 bytes of `Copy` data.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct OthelloState {
    player: u64,
    opponent: u64,
    /// 0: black to move, 1: white to move.
    side: u8,
}

/// Centre squares that every reachable position has occupied.
const CENTRE: [(u8, &str); 4] = [(27, "d4"), (28, "e4"), (35, "d5"), (36, "e5")];

impl OthelloState {
    /// The standard start position, black to move.
    pub const fn start() -> Self {
        OthelloState {
            player: (1 << 28) | (1 << 35),
            opponent: (1 << 27) | (1 << 36),
            side: 0,
        }
    }

    /// The position with these black and white discs and `to_move` (0 black, 1 white) to
    /// move.
    ///
    /// # Errors
    /// [`BoardError::EmptyCentre`] when a centre square is empty; overlapping discs give
    /// [`BoardError::BadSquare`] naming the first shared square.
    pub fn from_discs(black: u64, white: u64, to_move: Player) -> Result<Self, BoardError> {
        if black & white != 0 {
            let sq = (black & white).trailing_zeros() as usize;
            return Err(BoardError::BadSquare {
                square: square_name(sq as u8),
                index: sq,
                found: '#',
            });
        }
        for (sq, name) in CENTRE {
            if (black | white) >> sq & 1 == 0 {
                return Err(BoardError::EmptyCentre { square: name });
            }
        }
        Ok(Self::from_discs_unchecked(black, white, to_move))
    }

    /// As [`OthelloState::from_discs`] without checks (for solvers and generated positions).
    pub const fn from_discs_unchecked(black: u64, white: u64, to_move: Player) -> Self {
        if to_move.0 == 0 {
            OthelloState {
                player: black,
                opponent: white,
                side: 0,
            }
        } else {
            OthelloState {
                player: white,
                opponent: black,
                side: 1,
            }
        }
    }

    /// The discs of the side to move.
    #[inline]
    pub const fn player(&self) -> u64 {
        self.player
    }

    /// The discs of the side not to move.
    #[inline]
    pub const fn opponent(&self) -> u64 {
        self.opponent
    }

    /// The black discs.
    #[inline]
    pub const fn black(&self) -> u64 {
        if self.side == 0 {
            self.player
        } else {
            self.opponent
        }
    }

    /// The white discs.
    #[inline]
    pub const fn white(&self) -> u64 {
        if self.side == 0 {
            self.opponent
        } else {
            self.player
        }
    }

    /// The colour to move (0 black, 1 white), also when that side must pass.
    #[inline]
    pub const fn to_move(&self) -> Player {
        Player(self.side)
    }

    /// The empty squares.
    #[inline]
    pub const fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// Number of empty squares.
    #[inline]
    pub const fn empty_count(&self) -> u32 {
        self.empties().count_ones()
    }

    /// Legal squares of the side to move, as a bitboard.
    #[inline]
    pub fn legal(&self) -> u64 {
        moves(self.player, self.opponent)
    }

    /// True when neither side can place a disc.
    #[inline]
    pub fn is_over(&self) -> bool {
        moves(self.player, self.opponent) == 0 && moves(self.opponent, self.player) == 0
    }

    /// Plays `mv` for the side to move without checking legality (a pass just hands the
    /// turn over).
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        if let Some(sq) = mv.index() {
            let f = flips(self.player, self.opponent, sq as u32);
            let p = self.player | f | (1 << sq);
            self.player = self.opponent & !f;
            self.opponent = p;
        } else {
            std::mem::swap(&mut self.player, &mut self.opponent);
        }
        self.side ^= 1;
    }

    /// Disc difference (side to move minus the other) with the empty squares going to the
    /// side with more discs: the score of a finished game in the FFO convention.
    #[inline]
    pub const fn final_score(&self) -> i32 {
        final_score(self.player, self.opponent)
    }

    /// The same position with the colours exchanged and the other side to move (the
    /// position as the opponent sees it, used by solvers that keep `player` to move).
    pub const fn swapped(&self) -> Self {
        OthelloState {
            player: self.opponent,
            opponent: self.player,
            side: self.side ^ 1,
        }
    }

    /// The position under a board symmetry.
    pub const fn transformed(&self, sym: crate::bitboard::Symmetry) -> Self {
        OthelloState {
            player: sym.apply(self.player),
            opponent: sym.apply(self.opponent),
            side: self.side,
        }
    }

    /// The 64-character board string and side to move (`X`/`O`/`-`, then ` X` or ` O`).
    pub fn to_board_string(&self) -> String {
        let mut s = String::with_capacity(66);
        for sq in 0..64 {
            s.push(if self.black() >> sq & 1 != 0 {
                'X'
            } else if self.white() >> sq & 1 != 0 {
                'O'
            } else {
                '-'
            });
        }
        s.push(' ');
        s.push(if self.side == 0 { 'X' } else { 'O' });
        s
    }
}

impl Default for OthelloState {
    fn default() -> Self {
        Self::start()
    }
}

impl fmt::Display for OthelloState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_board_string())
    }
}

/// Reads the 64 squares (after skipping whitespace) and returns the discs and the rest of
/// the text.
pub(crate) fn parse_squares(text: &str) -> Result<(u64, u64, &str), BoardError> {
    let t = text.trim_start();
    if t.is_empty() {
        return Err(BoardError::Empty);
    }
    let (mut black, mut white) = (0u64, 0u64);
    let mut chars = t.char_indices();
    for index in 0..64 {
        let Some((_, ch)) = chars.next() else {
            return Err(BoardError::Length { found: index });
        };
        match ch {
            'X' | 'x' | '*' | 'B' | 'b' => black |= 1 << index,
            'O' | 'o' | 'W' | 'w' => white |= 1 << index,
            '-' | '.' | '_' => {}
            c if c.is_whitespace() || c == ';' => return Err(BoardError::Length { found: index }),
            c => {
                return Err(BoardError::BadSquare {
                    square: square_name(index as u8),
                    index,
                    found: c,
                })
            }
        }
    }
    let rest = chars.as_str();
    if let Some(c) = rest.chars().next() {
        if !c.is_whitespace() && c != ';' {
            return Err(BoardError::Length {
                found: 64 + rest.chars().take_while(|c| !c.is_whitespace()).count(),
            });
        }
    }
    Ok((black, white, rest))
}

/// Reads the side to move at the start of `text`; returns it and the rest.
pub(crate) fn parse_side(text: &str) -> Result<(Player, &str), BoardError> {
    let t = text.trim_start();
    let end = t
        .find(|c: char| c.is_whitespace() || c == ';')
        .unwrap_or(t.len());
    let (word, rest) = t.split_at(end);
    match word {
        "" => Err(BoardError::MissingSide),
        "X" | "x" | "*" | "B" | "b" | "black" => Ok((Player(0), rest)),
        "O" | "o" | "W" | "w" | "white" => Ok((Player(1), rest)),
        other => Err(BoardError::BadSide {
            found: other.to_string(),
        }),
    }
}

impl FromStr for OthelloState {
    type Err = BoardError;

    /// Reads `<64 squares> <X|O>`; see the [module documentation](self).
    fn from_str(text: &str) -> Result<Self, BoardError> {
        let (black, white, rest) = parse_squares(text)?;
        let (side, rest) = parse_side(rest)?;
        if !rest.trim().is_empty() {
            return Err(BoardError::Trailing {
                found: rest.trim().to_string(),
            });
        }
        OthelloState::from_discs(black, white, side)
    }
}

/// Final score of `p` against `o` with empties to the side with more discs.
#[inline]
pub const fn final_score(p: u64, o: u64) -> i32 {
    let pc = p.count_ones() as i32;
    let oc = o.count_ones() as i32;
    let diff = pc - oc;
    let empties = 64 - pc - oc;
    if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    }
}

/// Othello on the 8 × 8 board (the rules object; all data is in [`OthelloState`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Othello;

/// The most turns a game can last: 60 placements, each followed by at most one pass.
pub const MAX_TURNS: usize = 120;

impl Game for Othello {
    type State = OthelloState;
    type Move = Move;

    fn facts(&self) -> &GameFacts {
        static FACTS: LazyLock<GameFacts> = LazyLock::new(|| {
            GameFacts::two_player_zero_sum("othello", ["black", "white"], MAX_TURNS)
        });
        &FACTS
    }

    fn initial_state(&self) -> OthelloState {
        OthelloState::start()
    }

    #[inline]
    fn turn(&self, s: &OthelloState) -> Turn {
        if s.is_over() {
            Turn::Terminal
        } else {
            Turn::Player(Player(s.side))
        }
    }

    fn legal_moves(&self, s: &OthelloState, out: &mut Vec<Move>) {
        out.clear();
        let mut m = s.legal();
        if m == 0 {
            if moves(s.opponent, s.player) != 0 {
                out.push(Move::PASS);
            }
            return;
        }
        while m != 0 {
            out.push(Move(m.trailing_zeros() as u8));
            m &= m - 1;
        }
    }

    #[inline]
    fn apply(&self, s: &mut OthelloState, mv: Move) {
        s.play_unchecked(mv);
    }

    fn returns(&self, s: &OthelloState) -> Rewards {
        let d = s.black().count_ones() as i32 - s.white().count_ones() as i32;
        Rewards::zero_sum(d.signum() as f64)
    }

    fn format_move(&self, _: &OthelloState, mv: Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, _: &OthelloState, text: &str) -> Result<Move, NotationError> {
        text.parse::<Move>().map_err(|e| match e {
            MoveError::Empty => NotationError::Empty { what: "move" },
            MoveError::Syntax(_) => {
                NotationError::syntax("move", text, "a square a1..h8 or pass (also PS, --)")
            }
        })
    }

    fn format_state(&self, s: &OthelloState) -> String {
        s.to_board_string()
    }

    fn parse_state(&self, text: &str) -> Result<OthelloState, NotationError> {
        text.parse::<OthelloState>().map_err(|e| match e {
            BoardError::Empty => NotationError::Empty { what: "state" },
            BoardError::EmptyCentre { .. } => NotationError::invalid("state", text, e.to_string()),
            other => NotationError::syntax("state", text, other.to_string()),
        })
    }

    fn render(&self, s: &OthelloState) -> String {
        let mut out = String::from("  a b c d e f g h\n");
        let legal = s.legal();
        for r in 0..8 {
            out.push((b'1' + r) as char);
            for c in 0..8 {
                let sq = r * 8 + c;
                out.push(' ');
                out.push(if s.black() >> sq & 1 != 0 {
                    'X'
                } else if s.white() >> sq & 1 != 0 {
                    'O'
                } else if legal >> sq & 1 != 0 {
                    '.'
                } else {
                    '-'
                });
            }
            out.push('\n');
        }
        let (b, w) = (s.black().count_ones(), s.white().count_ones());
        let side = if s.side == 0 {
            "black (X)"
        } else {
            "white (O)"
        };
        if s.is_over() {
            out.push_str(&format!("game over: black {b}, white {w}\n"));
        } else if legal == 0 {
            out.push_str(&format!("black {b}, white {w}; {side} must pass\n"));
        } else {
            out.push_str(&format!(
                "black {b}, white {w}; {side} to move ('.' = legal)\n"
            ));
        }
        out
    }

    #[inline]
    fn hash(&self, s: &OthelloState) -> u64 {
        mix64(s.player ^ mix64(s.opponent ^ s.side as u64))
    }

    /// A uniformly random legal move: the k-th set bit of the move bitboard (by `pdep`),
    /// without touching `buf`.
    #[inline]
    fn random_move(&self, s: &OthelloState, rng: &mut Rng, _: &mut Vec<Move>) -> Option<Move> {
        let m = s.legal();
        if m == 0 {
            return if moves(s.opponent, s.player) != 0 {
                Some(Move::PASS)
            } else {
                None
            };
        }
        let k = rng.below(m.count_ones() as usize);
        Some(Move(pdep(1 << k, m).trailing_zeros() as u8))
    }

    #[inline]
    fn is_terminal(&self, s: &OthelloState) -> bool {
        s.is_over()
    }
}

impl ActionSpace for Othello {
    /// The 64 squares and the pass.
    fn num_actions(&self) -> usize {
        65
    }

    /// The square index (a1 = 0 … h8 = 63), or 64 for the pass.
    #[inline]
    fn action_index(&self, _: &OthelloState, mv: Move) -> usize {
        mv.code() as usize
    }

    fn action_move(&self, s: &OthelloState, player: Player, action: usize) -> Option<Move> {
        if s.is_over() || player != s.to_move() {
            return None;
        }
        let legal = s.legal();
        match action {
            0..=63 if legal >> action & 1 != 0 => Some(Move(action as u8)),
            64 if legal == 0 => Some(Move::PASS),
            _ => None,
        }
    }
}

impl TensorGame for Othello {
    /// Four planes of 8 × 8: `perspective`'s discs, the opponent's discs, `perspective`'s
    /// legal squares when it is to move (else zeros), ones; see the
    /// [module documentation](self).
    fn tensor_shape(&self) -> TensorShape {
        TensorShape {
            channels: 4,
            height: 8,
            width: 8,
        }
    }

    fn encode(&self, s: &OthelloState, perspective: Player, out: &mut [f32]) {
        let (mine, theirs) = if perspective == s.to_move() {
            (s.player(), s.opponent())
        } else {
            (s.opponent(), s.player())
        };
        let legal = if perspective == s.to_move() {
            s.legal()
        } else {
            0
        };
        for sq in 0..64 {
            out[sq] = (mine >> sq & 1) as f32;
            out[64 + sq] = (theirs >> sq & 1) as f32;
            out[128 + sq] = (legal >> sq & 1) as f32;
            out[192 + sq] = 1.0;
        }
    }
}
