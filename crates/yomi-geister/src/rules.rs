//! The rules: [`Geister`] (a variant and its board geometry), [`GeisterState`] (bitboards,
//! `Copy`) and [`GeisterMove`].
//!
//! # Coordinates
//! Squares are `(x, y)` with `x` the column (0 at the left) and `y` the row, 0 at the top,
//! exactly as the tournament server shows the board to the **first** player: player 0
//! (first to move) starts on the bottom rows and moves north (`y − 1`) towards its exits
//! `(0, 0)` and `(w − 1, 0)`; player 1 starts on the top rows, moves south and escapes from
//! `(0, h − 1)` and `(w − 1, h − 1)`. Player 1's own view (as the server sends it) is this
//! board turned by 180°. Bit `y · w + x` of a bitboard is square `(x, y)`.
//!
//! # Turn structure
//! In the 6×6 variants each player's colour set-up (which 4 of the ghosts A–H are red,
//! [`Setup`]) is that player's first move: player 0 sets up, then player 1, then player 0
//! makes the first board move. In the hidden-colour game the opponent's observation hides
//! the set-up; in the perfect-information game it is public (the second player sees the
//! first player's colours before choosing; an agent that wants the paper's random set-ups
//! plays a uniformly random set-up move). The set-up moves do not count towards the ply
//! limit. The 5×4 board has the paper's fixed placement and starts with board moves.
//!
//! # End of the game
//! After each board move, in this order (the tournament server's order): a blue ghost that
//! escapes wins for its owner; a player who has lost all blue ghosts loses; a player who
//! has lost all red ghosts wins; otherwise the game is drawn when the ply counter reaches
//! the limit (300, 200 as an option; 100 on the 5×4 board).

use std::hash::{Hash, Hasher};

use yomi_core::game::{Game, GameFacts, Information};
use yomi_core::{Player, Rng};

/// A direction of movement, in the absolute coordinates of the module docs.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Dir {
    /// `y − 1` (towards player 0's exits).
    North = 0,
    /// `x + 1`.
    East = 1,
    /// `y + 1` (towards player 1's exits).
    South = 2,
    /// `x − 1`.
    West = 3,
}

impl Dir {
    /// All four, in index order.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// The direction with index `i & 3`.
    #[inline]
    pub const fn from_index(i: u8) -> Dir {
        Dir::ALL[(i & 3) as usize]
    }

    /// The direction turned by 180° (what it is in the other player's view).
    #[inline]
    pub const fn flip(self) -> Dir {
        Dir::from_index(self as u8 + 2)
    }

    /// The letter used in notation: `N`, `E`, `S`, `W`.
    pub const fn letter(self) -> char {
        ['N', 'E', 'S', 'W'][self as usize]
    }

    /// Reads `N`/`E`/`S`/`W` or `NORTH`/`EAST`/`SOUTH`/`WEST` (either case).
    pub fn parse(text: &str) -> Option<Dir> {
        match text.to_ascii_uppercase().as_str() {
            "N" | "NORTH" => Some(Dir::North),
            "E" | "EAST" => Some(Dir::East),
            "S" | "SOUTH" => Some(Dir::South),
            "W" | "WEST" => Some(Dir::West),
            _ => None,
        }
    }
}

/// A colour set-up on the 6×6 board: bit `i` set means ghost `A + i` is red. Valid set-ups
/// have exactly 4 of the 8 bits set (70 of them, [`Setup::all`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Setup(pub u8);

/// The 70 valid set-ups in increasing bit order.
static SETUPS: [Setup; 70] = {
    let mut t = [Setup(0); 70];
    let mut k = 0;
    let mut m = 0u32;
    while m < 256 {
        if (m as u8).count_ones() == 4 {
            t[k] = Setup(m as u8);
            k += 1;
        }
        m += 1;
    }
    t
};

impl Setup {
    /// Every valid set-up, in increasing bit order (the order of the set-up moves).
    pub fn all() -> &'static [Setup; 70] {
        &SETUPS
    }

    /// The position of this set-up in [`Setup::all`], if valid.
    pub fn index(self) -> Option<usize> {
        SETUPS.iter().position(|&s| s == self)
    }

    /// True when exactly 4 ghosts are red.
    pub const fn is_valid(self) -> bool {
        self.0.count_ones() == 4
    }

    /// The red letters, `ABCD`-style, in alphabetical order.
    pub fn letters(self) -> String {
        (0..8)
            .filter(|i| self.0 >> i & 1 == 1)
            .map(|i| (b'A' + i) as char)
            .collect()
    }

    /// Reads 4 distinct letters of `A`–`H` (either case, any order).
    pub fn parse(text: &str) -> Option<Setup> {
        let mut m = 0u8;
        for c in text.chars() {
            let c = c.to_ascii_uppercase();
            if !('A'..='H').contains(&c) {
                return None;
            }
            let bit = 1u8 << (c as u8 - b'A');
            if m & bit != 0 {
                return None;
            }
            m |= bit;
        }
        Setup(m).is_valid().then_some(Setup(m))
    }
}

/// One move: a colour set-up (6×6, once per player, first) or a ghost stepping one square.
/// A step off the board from an exit corner is an escape; escapes are always written with
/// the vertical direction (north for player 0, south for player 1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum GeisterMove {
    /// The mover's colours.
    Setup(Setup),
    /// The ghost on square `from` (bit index `y · w + x`) moves in `dir`.
    Step {
        /// The square, `y · w + x`.
        from: u8,
        /// The direction (absolute coordinates).
        dir: Dir,
    },
}

/// The three Geister boards and information settings.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    /// 6×6 tournament Geister with hidden colours (CLI `geister`).
    Standard,
    /// 6×6 Geister with public colours (the paper's perfect-information Geister, CLI
    /// `geister-perfect`).
    Perfect,
    /// The paper's 5×4 board: fixed placement (2 reds in front, 2 blues behind), hidden
    /// colours, draw after 100 plies (CLI `geister-mini`).
    Mini,
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// Not over.
    Ongoing,
    /// `winner` won, for `reason`.
    Win {
        /// The winner.
        winner: Player,
        /// Why.
        reason: WinReason,
    },
    /// The ply limit was reached.
    Draw,
}

/// Why a player won.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum WinReason {
    /// A blue ghost of the winner escaped.
    Escape,
    /// The winner captured all the loser's blue ghosts.
    CapturedBlues,
    /// The loser captured all the winner's red ghosts.
    LostReds,
}

/// "first player" / "second player": the seat words of the tournament server.
pub(crate) fn seat_words(p: Player) -> &'static str {
    if p.0 == 0 {
        "first player"
    } else {
        "second player"
    }
}

impl std::fmt::Display for WinReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            WinReason::Escape => "a blue ghost escaped",
            WinReason::CapturedBlues => "captured every blue ghost",
            WinReason::LostReds => "every red ghost was taken",
        })
    }
}

impl std::fmt::Display for Outcome {
    /// `first player won: a blue ghost escaped`, `draw at the ply limit`, `not over`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Ongoing => f.write_str("not over"),
            Outcome::Win { winner, reason } => {
                write!(f, "{} won: {reason}", seat_words(*winner))
            }
            Outcome::Draw => f.write_str("draw at the ply limit"),
        }
    }
}

/// No neighbour in that direction.
pub(crate) const OFF: u8 = 255;

/// A Geister variant with its board geometry. Cheap to clone (a few hundred bytes of
/// tables and its [`GameFacts`]); create it once and share it. Games are equal when their
/// variant and ply limit are, which determine everything else.
#[derive(Clone, Debug)]
pub struct Geister {
    variant: Variant,
    max_plies: u16,
    /// Follows the variant and the ply limit: set in [`Geister::new`] and updated by
    /// [`Geister::with_max_plies`] and [`Geister::perfect_view`].
    facts: GameFacts,
    pub(crate) w: u8,
    pub(crate) h: u8,
    /// `nb[sq][dir]`: the neighbouring square or [`OFF`].
    pub(crate) nb: [[u8; 4]; 36],
    /// Start square of ghost `A + i` of each player (8 ghosts on 6×6, 4 on 5×4).
    pub(crate) start: [[u8; 8]; 2],
    /// Red start squares of the fixed 5×4 placement (unused on 6×6).
    pub(crate) fixed_red: [u64; 2],
    /// Each player's two exit corners.
    pub(crate) exits: [[u8; 2]; 2],
    /// Policy index of (square, direction) in the mover's view, [`OFF`] when off board.
    pub(crate) policy: [[u8; 4]; 36],
    pub(crate) inboard_moves: u8,
}

impl PartialEq for Geister {
    fn eq(&self, other: &Self) -> bool {
        (self.variant, self.max_plies) == (other.variant, other.max_plies)
    }
}

impl Eq for Geister {}

impl Hash for Geister {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.variant, self.max_plies).hash(state);
    }
}

impl Geister {
    /// The ply limit of `variant` in [`Geister::new`].
    const fn default_max_plies(variant: Variant) -> u16 {
        match variant {
            Variant::Standard | Variant::Perfect => 300,
            Variant::Mini => 100,
        }
    }

    /// The variant with its default ply limit (300 on 6×6, 100 on 5×4).
    pub fn new(variant: Variant) -> Self {
        let max_plies = Self::default_max_plies(variant);
        let (w, h) = match variant {
            Variant::Standard | Variant::Perfect => (6u8, 6u8),
            Variant::Mini => (5, 4),
        };
        let mut nb = [[OFF; 4]; 36];
        let mut policy = [[OFF; 4]; 36];
        let mut k = 0u8;
        for y in 0..h {
            for x in 0..w {
                let sq = (y * w + x) as usize;
                let cand = [
                    (y > 0).then(|| sq as u8 - w),
                    (x + 1 < w).then(|| sq as u8 + 1),
                    (y + 1 < h).then(|| sq as u8 + w),
                    (x > 0).then(|| sq as u8 - 1),
                ];
                for (d, c) in cand.iter().enumerate() {
                    if let Some(t) = c {
                        nb[sq][d] = *t;
                        policy[sq][d] = k;
                        k += 1;
                    }
                }
            }
        }
        let mut start = [[OFF; 8]; 2];
        let mut fixed_red = [0u64; 2];
        let sq = |x: u8, y: u8| y * w + x;
        match variant {
            Variant::Standard | Variant::Perfect => {
                for i in 0..8u8 {
                    let (x, y) = (1 + i % 4, 4 + i / 4);
                    start[0][i as usize] = sq(x, y);
                    start[1][i as usize] = sq(w - 1 - x, h - 1 - y);
                }
            }
            Variant::Mini => {
                // A, B: reds in front; C, D: blues behind, on columns 1 and 3.
                let own = [(1, 2), (3, 2), (1, 3), (3, 3)];
                for (i, &(x, y)) in own.iter().enumerate() {
                    start[0][i] = sq(x, y);
                    start[1][i] = sq(w - 1 - x, h - 1 - y);
                }
                for p in 0..2 {
                    fixed_red[p] = 1 << start[p][0] | 1 << start[p][1];
                }
            }
        }
        Geister {
            variant,
            max_plies,
            facts: Self::facts_of(variant, max_plies),
            w,
            h,
            nb,
            start,
            fixed_red,
            exits: [[sq(0, 0), sq(w - 1, 0)], [sq(0, h - 1), sq(w - 1, h - 1)]],
            policy,
            inboard_moves: k,
        }
    }

    /// 6×6 tournament Geister with hidden colours, draw at 300 plies.
    pub fn standard() -> Self {
        Self::new(Variant::Standard)
    }

    /// 6×6 perfect-information Geister, draw at 300 plies.
    pub fn perfect() -> Self {
        Self::new(Variant::Perfect)
    }

    /// The paper's 5×4 board, hidden colours, draw at 100 plies.
    pub fn mini() -> Self {
        Self::new(Variant::Mini)
    }

    /// The same game with another ply limit (the paper's 6×6 games use 200).
    ///
    /// # Panics
    /// If `plies` is 0.
    pub fn with_max_plies(mut self, plies: u16) -> Self {
        assert!(plies > 0, "a ply limit must be positive");
        self.max_plies = plies;
        self.facts = Self::facts_of(self.variant, plies);
        self
    }

    /// The game by its command-line name: `geister`, `geister-perfect`, `geister-mini`,
    /// optionally with `-200` (or another ply limit) appended, e.g. `geister-perfect-200`.
    pub fn from_name(name: &str) -> Option<Self> {
        let (base, plies) = match name.rsplit_once('-') {
            Some((b, n)) if n.bytes().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
                (b, Some(n.parse::<u16>().ok().filter(|&v| v > 0)?))
            }
            _ => (name, None),
        };
        let g = match base {
            "geister" => Self::standard(),
            "geister-perfect" => Self::perfect(),
            "geister-mini" => Self::mini(),
            _ => return None,
        };
        Some(match plies {
            Some(p) => g.with_max_plies(p),
            None => g,
        })
    }

    /// The command-line name (with the ply limit appended when it is not the default).
    pub fn name(&self) -> &str {
        &self.facts.name
    }

    /// The facts of `variant` with a limit of `max_plies`, for [`Game::facts`].
    fn facts_of(variant: Variant, max_plies: u16) -> GameFacts {
        let base = match variant {
            Variant::Standard => "geister",
            Variant::Perfect => "geister-perfect",
            Variant::Mini => "geister-mini",
        };
        let name = if max_plies == Self::default_max_plies(variant) {
            base.to_string()
        } else {
            format!("{base}-{max_plies}")
        };
        // Set-up moves come on top of the ply limit.
        let setups = if variant == Variant::Mini { 0 } else { 2 };
        let information = if variant == Variant::Perfect {
            Information::Perfect
        } else {
            Information::Imperfect
        };
        GameFacts {
            information,
            ..GameFacts::two_player_zero_sum(
                &name,
                ["first", "second"],
                max_plies as usize + setups,
            )
        }
    }

    /// The facts [`Game::facts`] returns.
    pub(crate) fn stored_facts(&self) -> &GameFacts {
        &self.facts
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The ply limit.
    pub fn max_plies(&self) -> u16 {
        self.max_plies
    }

    /// Board width (columns).
    pub fn width(&self) -> usize {
        self.w as usize
    }

    /// Board height (rows).
    pub fn height(&self) -> usize {
        self.h as usize
    }

    /// Ghosts per player (8 on 6×6, 4 on 5×4).
    pub fn ghosts(&self) -> u32 {
        self.colour_count() * 2
    }

    /// Blue ghosts per player (= red ghosts per player): 4 on 6×6, 2 on 5×4.
    pub fn colour_count(&self) -> u32 {
        match self.variant {
            Variant::Mini => 2,
            _ => 4,
        }
    }

    /// True when the colours of the opponent's ghosts are hidden.
    pub fn hidden(&self) -> bool {
        self.variant != Variant::Perfect
    }

    /// True when each player's first move is a colour set-up.
    pub fn has_setup_phase(&self) -> bool {
        self.variant != Variant::Mini
    }

    /// The perfect-information game on the same board with the same limit: the game an
    /// estimated (fully coloured) position is searched in. 6×6 gives [`Variant::Perfect`];
    /// the 5×4 board has no separate perfect variant and returns itself (its searches should
    /// use determinized states).
    pub fn perfect_view(&self) -> Self {
        match self.variant {
            Variant::Standard => Geister {
                variant: Variant::Perfect,
                facts: Self::facts_of(Variant::Perfect, self.max_plies),
                ..self.clone()
            },
            _ => self.clone(),
        }
    }

    /// The square `(x, y)`.
    ///
    /// # Panics
    /// If it is off the board.
    pub fn square(&self, x: usize, y: usize) -> u8 {
        assert!(
            x < self.width() && y < self.height(),
            "({x}, {y}) is off the board"
        );
        (y * self.width() + x) as u8
    }

    /// `(x, y)` of a square.
    pub fn coords(&self, sq: u8) -> (usize, usize) {
        (sq as usize % self.width(), sq as usize / self.width())
    }

    /// The start square of ghost `letter` (0 = A) of `player`.
    pub fn start_square(&self, player: Player, letter: usize) -> u8 {
        self.start[player.index()][letter]
    }

    /// `player`'s exit corners.
    pub fn exits(&self, player: Player) -> [u8; 2] {
        self.exits[player.index()]
    }

    /// The square next to `sq` in `dir`, or `None` off the board.
    #[inline]
    pub fn neighbour(&self, sq: u8, dir: Dir) -> Option<u8> {
        let t = self.nb[sq as usize][dir as usize];
        (t != OFF).then_some(t)
    }

    /// `player`'s forward direction (north for player 0).
    #[inline]
    pub const fn forward(player: Player) -> Dir {
        if player.0 == 0 {
            Dir::North
        } else {
            Dir::South
        }
    }

    pub(crate) fn start_mask(&self, p: usize) -> u64 {
        self.start[p][..self.ghosts() as usize]
            .iter()
            .fold(0, |m, &s| m | 1 << s)
    }

    /// The state after both players' set-ups (6×6) with the given red ghosts; with the 5×4
    /// board the set-ups are ignored (its placement is fixed).
    pub fn state_with_setups(&self, setups: [Setup; 2]) -> GeisterState {
        let mut s = self.initial_state();
        if self.has_setup_phase() {
            self.apply(&mut s, GeisterMove::Setup(setups[0]));
            self.apply(&mut s, GeisterMove::Setup(setups[1]));
        }
        s
    }

    /// A state after uniformly random set-ups of both players (the paper's random initial
    /// placement for perfect-information Geister).
    pub fn random_setup_state(&self, rng: &mut Rng) -> GeisterState {
        let all = Setup::all();
        self.state_with_setups([all[rng.below(70)], all[rng.below(70)]])
    }
}

/// A position: bitboards of each player's blue and red ghosts, the ply counter, the player
/// to move, which players have set up, and the result. 40 bytes of `Copy` data.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GeisterState {
    pub(crate) blue: [u64; 2],
    pub(crate) red: [u64; 2],
    pub(crate) plies: u16,
    pub(crate) to_move: u8,
    /// Bit `p`: player `p` has chosen colours.
    pub(crate) set_up: u8,
    /// 0 ongoing, 1 player 0 won, 2 player 1 won, 3 draw.
    pub(crate) result: u8,
}

impl GeisterState {
    /// `player`'s blue ghosts on the board (0 before the player set up).
    #[inline]
    pub fn blue(&self, player: Player) -> u64 {
        self.blue[player.index()]
    }

    /// `player`'s red ghosts on the board (0 before the player set up).
    #[inline]
    pub fn red(&self, player: Player) -> u64 {
        self.red[player.index()]
    }

    /// Board moves played (set-ups not counted).
    pub fn plies(&self) -> u16 {
        self.plies
    }

    /// The player whose move it is (meaningful while the game is on).
    pub fn to_move(&self) -> Player {
        Player(self.to_move)
    }

    /// True once `player` has chosen colours.
    pub fn has_set_up(&self, player: Player) -> bool {
        self.set_up >> player.0 & 1 == 1
    }

    /// The result so far.
    pub fn outcome(&self) -> Outcome {
        match self.result {
            0 => Outcome::Ongoing,
            3 => Outcome::Draw,
            r => {
                let winner = Player(r - 1);
                let loser = winner.opponent();
                let reason = if self.blue(loser) == 0 {
                    WinReason::CapturedBlues
                } else if self.red(winner) == 0 {
                    WinReason::LostReds
                } else {
                    WinReason::Escape
                };
                Outcome::Win { winner, reason }
            }
        }
    }
}

/// Iterates the set bits of `b`, lowest first.
#[inline]
pub(crate) fn bits(mut b: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let s = b.trailing_zeros() as u8;
            b &= b - 1;
            Some(s)
        }
    })
}

impl Geister {
    /// The ghosts of `player` on the board (also before the set-up: the start squares).
    #[inline]
    pub fn ghosts_of(&self, s: &GeisterState, player: Player) -> u64 {
        if s.has_set_up(player) {
            s.blue(player) | s.red(player)
        } else {
            self.start_mask(player.index())
        }
    }

    /// Is `mv` (a step) an escape?
    #[inline]
    pub fn is_escape(&self, mv: GeisterMove) -> bool {
        matches!(mv, GeisterMove::Step { from, dir } if self.nb[from as usize][dir as usize] == OFF)
    }

    /// The `(from, to)` squares of a step that stays on the board.
    #[inline]
    pub fn step_target(&self, mv: GeisterMove) -> Option<(u8, u8)> {
        match mv {
            GeisterMove::Step { from, dir } => {
                let t = self.nb[from as usize][dir as usize];
                (t != OFF).then_some((from, t))
            }
            GeisterMove::Setup(_) => None,
        }
    }
}
