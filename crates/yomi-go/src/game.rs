//! [`GoGame`] (the rules of one board size) and [`GoState`] (a position with its game
//! record), implementing [`yomi_core::Game`].
//!
//! # Rules
//! Black (player 0) moves first. A move is a point or a pass; two passes in a row end the
//! game, and so does the move limit ([`Rules::max_moves`], default `3·N²`, scored as the
//! board stands). Captures as usual; suicide is illegal unless [`Rules::suicide`] is set (then
//! a chain of two or more stones may remove itself; single-stone suicide stays illegal since
//! it would only repeat the position). Simple ko always; positional superko
//! ([`Rules::superko`], on by default): a move may not recreate any earlier board.
//! Rewards are ±1 by area (Tromp-Taylor) score with komi, 0 for a jigo.
//!
//! # Superko history: what is checked where
//! A state carries the position hashes of its game in two parts: the *record*, shared
//! through an `Arc` and appended by [`Game::play`] (the checked path that the arena, GTP and
//! SGF loading use), and a ring of the last [`RECENT`] positions reached by [`Game::apply`]
//! (the unchecked path searches use), kept inline so that `apply` never allocates. Every
//! legality test — [`Game::legal_moves`], `play`, and the playout sampler
//! [`Game::random_move`] — rejects a move whose resulting position is in the record or the
//! ring. So the real game is checked exactly; inside a search line, repetitions whose cycle
//! starts more than [`RECENT`] moves below the last `play` are missed (real superko cycles
//! are 4–12 moves long).
//!
//! The lookup is skipped when it cannot succeed: a move by `c` at `p` that keeps its stone
//! on the board can recreate an earlier position only if a stone of `c` was once removed
//! from `p` (captured, or taken off by a set-up edit), which the board records per point and
//! colour ([`crate::Board::may_repeat`]); suicides (when allowed) are always looked up. So
//! in playouts only the few moves that refill a point where the mover lost a stone pay for
//! the hash update, the 16-entry comparison and the Bloom-filter probe of the record; the
//! answer is the same as looking up every move.
//!
//! Equality and hashing of states cover the board, side to move, ko point, komi, passes,
//! move number and capture counts — everything the state notation shows — but not the
//! superko history.
//!
//! # Notation
//! - Moves: GTP vertices `D4`, `pass` (see [`Vertex`]).
//! - States: rows from the top separated by `/` (`X` black, `O` white, `.` empty), the side
//!   to move (`b`/`w`), the ko point (a vertex or `-`), komi, then optionally passes in a
//!   row, moves played and the stones captured by Black and by White:
//!   `...../...../..X../...../..... w - 7.5 0 1 0 0`.
//!
//! # Actions and tensors
//! [`ActionSpace`]: `N² + 1` actions. The point in row `r` and column `c` is action
//! `r·N + c`, rows counted from the top as GTP and [`Game::render`] print the board (row
//! 0 is GTP row `N`, the last row is GTP row 1) and columns from the left (`A` = 0); the
//! pass is action `N²`. So on 9×9 `A9` is 0, `J9` is 8, `A1` is 72, `J1` is 80 and pass
//! 81. [`GoGame::action_of`] and [`GoGame::vertex_of_action`] convert without a state.
//!
//! [`TensorGame`]: six planes of `N × N`, laid out like the actions (plane value of the
//! point with action `a` at `plane · N² + a`), from `perspective`'s side:
//! 0. `perspective`'s stones;
//! 1. the opponent's stones;
//! 2. empty points;
//! 3. the simple-ko point, the point the side to move may not play now (all zeros without
//!    one; marked whoever `perspective` is);
//! 4. ones when `perspective` plays Black, zeros when it plays White (who pays komi, and
//!    with `perspective` to move, whose turn it is);
//! 5. ones (the board's extent for padded convolutions).
//!
//! The superko history, the komi's value and the pass count are not encoded. Neither
//! trait is on the playout path.

use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use yomi_core::{
    ActionSpace, Game, GameFacts, IllegalMove, NotationError, Player, Rewards, Rng, TensorGame,
    TensorShape, Turn,
};

use crate::board::{select_bit, Board, BLACK, EMPTY, MAX_AREA, MAX_SIZE, MIN_SIZE, WHITE, ZOBRIST};
use crate::error::{ConfigError, PositionError};
use crate::vertex::{Color, Vertex, COLUMNS};

/// Positions reached by `apply` that a state remembers inline for superko.
pub const RECENT: usize = 16;

/// Random empty points the playout sampler tries before it draws without replacement.
const PLAYOUT_TRIES: usize = 4;

/// On boards above 9×9, with at most this many empty points the sampler skips the random
/// tries and draws without replacement at once: late in a playout most empty points are eyes, and tries
/// (with replacement) would mostly miss and retest the same points. 16 measured best on 9×9
/// (callgrind instructions; 10 and 24 cost more).
const SHUFFLE_AT_MOST: usize = 16;

/// On boards up to 9×9, with at most this many empty points the sampler skips the random
/// tries and takes the exact draw over the candidate bit set
/// ([`crate::Board::playout_candidate_sets`]) at once; with more, the tries come first and
/// the bit set only after they miss.
const BITS_AT_MOST: usize = 16;

/// Rule options.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    /// Allow suicide of two or more stones (Tromp-Taylor, New Zealand). Default: false.
    pub suicide: bool,
    /// Positional superko. Default: true.
    pub superko: bool,
    /// Komi of new games, a multiple of 0.5. Default: 7.5.
    pub komi: f64,
    /// Moves (passes included) after which the game ends; `None` is `3·N²`.
    pub max_moves: Option<usize>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            suicide: false,
            superko: true,
            komi: 7.5,
            max_moves: None,
        }
    }
}

/// Go on one board size with one rule set.
#[derive(Clone, Debug, PartialEq)]
pub struct GoGame {
    size: usize,
    rules: Rules,
    max_moves: usize,
    /// Computed from the size and move limit in [`GoGame::with_rules`], which every
    /// constructor (and [`GoGame::with_komi`]) goes through.
    facts: GameFacts,
}

/// Komi in half points, checked.
pub(crate) fn komi_half_points(komi: f64) -> Result<i16, ConfigError> {
    let h = komi * 2.0;
    if !h.is_finite() || h.fract() != 0.0 || h.abs() > 2000.0 {
        return Err(ConfigError::Komi(komi));
    }
    Ok(h as i16)
}

impl GoGame {
    /// Go on a `size`×`size` board with the default rules (komi 7.5, superko, no suicide).
    ///
    /// # Errors
    /// [`ConfigError::Size`] outside 2..=19.
    pub fn new(size: usize) -> Result<Self, ConfigError> {
        Self::with_rules(size, Rules::default())
    }

    /// Go with the given rules.
    ///
    /// # Errors
    /// [`ConfigError`] for a size outside 2..=19 or a komi that is not a multiple of 0.5.
    pub fn with_rules(size: usize, rules: Rules) -> Result<Self, ConfigError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(ConfigError::Size(size));
        }
        komi_half_points(rules.komi)?;
        let max_moves = rules.max_moves.unwrap_or(3 * size * size).max(1);
        let facts = GameFacts::two_player_zero_sum(
            &format!("go-{size}x{size}"),
            ["black", "white"],
            max_moves,
        );
        Ok(GoGame {
            size,
            rules,
            max_moves,
            facts,
        })
    }

    /// The game named `go` (9×9), `go:N`, `go-N`, `go-NxN` or `go:NxN`, default rules.
    pub fn from_name(name: &str) -> Option<Self> {
        let n = name.trim().to_ascii_lowercase();
        if n == "go" {
            return GoGame::new(9).ok();
        }
        let rest = n.strip_prefix("go:").or_else(|| n.strip_prefix("go-"))?;
        let size = match rest.split_once('x') {
            Some((a, b)) if a == b => a,
            Some(_) => return None,
            None => rest,
        };
        GoGame::new(size.parse().ok()?).ok()
    }

    /// The board size.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The move limit.
    pub fn max_moves(&self) -> usize {
        self.max_moves
    }

    /// The same game with another komi for new states.
    ///
    /// # Errors
    /// [`ConfigError::Komi`] unless komi is a multiple of 0.5.
    pub fn with_komi(&self, komi: f64) -> Result<Self, ConfigError> {
        let mut rules = self.rules.clone();
        rules.komi = komi;
        GoGame::with_rules(self.size, rules)
    }

    /// Whether the side to move may play `mv` (pass always, until the game is over).
    pub fn is_legal(&self, state: &GoState, mv: Vertex) -> bool {
        if self.turn(state) == Turn::Terminal {
            return false;
        }
        if mv.is_pass() {
            return true;
        }
        let p = mv.index();
        let b = &state.board;
        b.on_board(p)
            && b.is_legal(p, b.to_move(), self.rules.suicide)
            && !state.breaks_superko(&self.rules, p)
    }

    /// A state set up from a board: the given side to move, no history.
    pub fn state_from_board(&self, board: Board, komi: f64) -> Result<GoState, ConfigError> {
        Ok(GoState {
            board,
            komi2: komi_half_points(komi)?,
            passes: 0,
            moves: 0,
            recent: [0; RECENT],
            recent_n: 0,
            history: Arc::new(History::default()),
            line_len: 0,
            line_first: Vertex::PASS,
            last: Vertex::PASS,
        })
    }

    /// Reads a move in GTP notation without checking legality.
    ///
    /// # Errors
    /// [`crate::VertexError`] for malformed or off-board vertices.
    pub fn parse_vertex(&self, text: &str) -> Result<Vertex, crate::VertexError> {
        Vertex::parse_gtp(text, self.size)
    }

    /// The [`ActionSpace`] action of `mv`: `r·N + c` for the point in row `r` from the
    /// top and column `c` from the left, `N²` for the pass (see the
    /// [module documentation](self)).
    #[inline]
    pub fn action_of(&self, mv: Vertex) -> usize {
        let n = self.size;
        match mv.coords(n) {
            Some((x, y)) => (n - 1 - y) * n + x,
            None => n * n,
        }
    }

    /// The vertex of action `action` (the inverse of [`GoGame::action_of`]), `None` at or
    /// above `N² + 1`.
    #[inline]
    pub fn vertex_of_action(&self, action: usize) -> Option<Vertex> {
        let n = self.size;
        match action.cmp(&(n * n)) {
            std::cmp::Ordering::Less => Some(Vertex::at(action % n, n - 1 - action / n, n)),
            std::cmp::Ordering::Equal => Some(Vertex::PASS),
            std::cmp::Ordering::Greater => None,
        }
    }

    /// The state notation's board part and fields, parsed; see the module docs.
    fn parse_state_inner(&self, text: &str) -> Result<GoState, NotationError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(NotationError::Empty { what: "state" });
        }
        let fields: Vec<&str> = t.split_whitespace().collect();
        if fields.len() != 4 && fields.len() != 8 {
            return Err(NotationError::syntax(
                "state",
                t,
                "rows/rows side ko komi [passes moves black-captures white-captures], e.g. \
                 '...../...../...../...../..... b - 7.5'",
            ));
        }
        let invalid = |e: PositionError| NotationError::invalid("state", t, e.to_string());
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != self.size {
            return Err(invalid(PositionError::Shape {
                expected: self.size,
                found: rows.len(),
            }));
        }
        let mut board = Board::new(self.size);
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != self.size {
                return Err(invalid(PositionError::Shape {
                    expected: self.size,
                    found: row.chars().count(),
                }));
            }
            let y = self.size - 1 - r;
            for (x, ch) in row.chars().enumerate() {
                let c = match ch {
                    'X' | 'x' => Some(Color::Black),
                    'O' | 'o' => Some(Color::White),
                    '.' => None,
                    other => return Err(invalid(PositionError::BadChar(other))),
                };
                if c.is_some() {
                    board.put_raw(board.index(x, y), c);
                }
            }
        }
        board.rebuild();
        if let Some(&p) = board.dead_chains().first() {
            return Err(invalid(PositionError::NoLiberties(
                Vertex::from_index(p).to_gtp(self.size),
            )));
        }
        let side = match fields[1] {
            "b" | "B" => Color::Black,
            "w" | "W" => Color::White,
            _ => return Err(NotationError::syntax("state", t, "side to move b or w")),
        };
        board.set_to_move(side);
        if fields[2] != "-" {
            let v = Vertex::parse_gtp(fields[2], self.size)
                .map_err(|e| NotationError::syntax("state", t, format!("ko point: {e}")))?;
            let p = v.index();
            let ok = !v.is_pass()
                && board.raw(p) == 0
                && board
                    .nbrs(p)
                    .iter()
                    .all(|&q| board.raw(q) & (side.opponent() as u8) == side.opponent() as u8);
            if !ok {
                return Err(invalid(PositionError::BadKo(fields[2].to_string())));
            }
            board.set_ko(p);
        }
        let komi: f64 = fields[3]
            .parse()
            .map_err(|_| NotationError::syntax("state", t, "komi, a number like 7.5"))?;
        let komi2 = komi_half_points(komi)
            .map_err(|e| NotationError::invalid("state", t, e.to_string()))?;
        let mut nums = [0usize; 4];
        if fields.len() == 8 {
            for (i, f) in fields[4..].iter().enumerate() {
                nums[i] = f.parse().map_err(|_| {
                    NotationError::syntax("state", t, "passes, moves and captures as numbers")
                })?;
            }
        }
        if nums[0] > 2 || nums[1] > self.max_moves || nums[2] > 60_000 || nums[3] > 60_000 {
            return Err(NotationError::invalid(
                "state",
                t,
                format!(
                    "passes at most 2, moves at most {}, captures at most 60000",
                    self.max_moves
                ),
            ));
        }
        board.set_prisoners(nums[2], nums[3]);
        Ok(GoState {
            board,
            komi2,
            passes: nums[0] as u8,
            moves: nums[1] as u16,
            recent: [0; RECENT],
            recent_n: 0,
            history: Arc::new(History::default()),
            line_len: 0,
            line_first: Vertex::PASS,
            last: Vertex::PASS,
        })
    }
}

/// The superko record: hashes of the positions of the game so far, with a Bloom filter.
#[derive(Clone, Debug)]
struct History {
    hashes: Vec<u64>,
    bloom: [u64; 64],
}

impl Default for History {
    fn default() -> Self {
        History {
            hashes: Vec::new(),
            bloom: [0; 64],
        }
    }
}

impl History {
    #[inline]
    fn bit(h: u64) -> (usize, u64) {
        let b = (h >> 52) as usize; // 12 bits: 4096 filter bits
        (b >> 6, 1u64 << (b & 63))
    }

    fn push(&mut self, h: u64) {
        let (i, m) = Self::bit(h);
        self.bloom[i] |= m;
        self.hashes.push(h);
    }

    #[inline]
    fn contains(&self, h: u64) -> bool {
        let (i, m) = Self::bit(h);
        self.bloom[i] & m != 0 && self.hashes.contains(&h)
    }
}

/// A Go position with its komi, pass count, move number and superko history.
pub struct GoState {
    pub(crate) board: Board,
    komi2: i16,
    passes: u8,
    moves: u16,
    recent: [u64; RECENT],
    recent_n: u32,
    history: Arc<History>,
    /// Moves applied since the last `play` (the current search line) and the first of them.
    line_len: u16,
    line_first: Vertex,
    /// The last move applied (pass at the start): heavy playouts answer it
    /// ([`crate::heavy`]). Not part of the position (equality and hashing ignore it).
    last: Vertex,
}

/// `clone_from` reuses the board's storage ([`Board`]'s `clone_from` copies only the part
/// in use); searches start every iteration with it.
impl Clone for GoState {
    fn clone(&self) -> Self {
        GoState {
            board: self.board.clone(),
            komi2: self.komi2,
            passes: self.passes,
            moves: self.moves,
            recent: self.recent,
            recent_n: self.recent_n,
            history: Arc::clone(&self.history),
            line_len: self.line_len,
            line_first: self.line_first,
            last: self.last,
        }
    }

    fn clone_from(&mut self, src: &Self) {
        self.board.clone_from(&src.board);
        self.komi2 = src.komi2;
        self.passes = src.passes;
        self.moves = src.moves;
        self.recent = src.recent;
        self.recent_n = src.recent_n;
        self.history.clone_from(&src.history);
        self.line_len = src.line_len;
        self.line_first = src.line_first;
        self.last = src.last;
    }
}

impl GoState {
    /// The first move of the current search line: the first move applied with
    /// [`Game::apply`] since the last [`Game::play`] (the search root's move on this line),
    /// if any.
    #[inline]
    pub fn line_first_move(&self) -> Option<Vertex> {
        (self.line_len > 0).then_some(self.line_first)
    }

    /// The last move played (pass before any move, and in states read from text).
    #[inline]
    pub fn last_move(&self) -> Vertex {
        self.last
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.board.to_move()
    }

    /// Komi (points given to White).
    pub fn komi(&self) -> f64 {
        self.komi2 as f64 / 2.0
    }

    /// Changes komi.
    ///
    /// # Errors
    /// [`ConfigError::Komi`] unless komi is a multiple of 0.5.
    pub fn set_komi(&mut self, komi: f64) -> Result<(), ConfigError> {
        self.komi2 = komi_half_points(komi)?;
        Ok(())
    }

    /// Passes in a row just played.
    pub fn passes(&self) -> usize {
        self.passes as usize
    }

    /// Moves played (passes included).
    pub fn move_number(&self) -> usize {
        self.moves as usize
    }

    /// Starts a new search line here: [`GoState::line_first_move`] will report the next
    /// move applied.
    pub fn begin_line(&mut self) {
        self.line_len = 0;
    }

    /// Clears the pass count so that a game ended by two passes can go on (GTP controllers
    /// may keep playing after passes).
    pub fn reopen(&mut self) {
        self.passes = 0;
    }

    /// Positions in the superko record (moves made with `play`).
    pub fn record_len(&self) -> usize {
        self.history.hashes.len()
    }

    /// Black's area minus White's, minus komi (Tromp-Taylor, the board as it stands).
    pub fn area_score(&self) -> f64 {
        self.board.area_score() as f64 - self.komi()
    }

    /// True when a position with hash `h` occurred earlier in this game (record or ring).
    #[inline]
    pub fn repeats(&self, h: u64) -> bool {
        // All 16 ring slots are compared (no early exit: one branch, not sixteen).
        let in_ring = self.recent.iter().fold(false, |a, &x| a | (x == h));
        in_ring || self.history.contains(h)
    }

    #[inline]
    fn remember(&mut self, h: u64) {
        self.recent[(self.recent_n as usize) % RECENT] = h;
        self.recent_n += 1;
    }

    /// Moves the ring's positions into the shared record.
    fn commit(&mut self) {
        self.line_len = 0;
        if self.recent_n == 0 {
            return;
        }
        let n = self.recent_n as usize;
        let start = n.saturating_sub(RECENT);
        let h = Arc::make_mut(&mut self.history);
        for i in start..n {
            h.push(self.recent[i % RECENT]);
        }
        self.recent = [0; RECENT];
        self.recent_n = 0;
        self.line_len = 0;
    }

    /// The same position with colours reversed (Black's stones become White's and the
    /// other side is to move; komi and captures change sign and sides): the negative Ḡ of
    /// combinatorial game theory. The history is dropped.
    pub fn reversed(&self) -> GoState {
        let size = self.board.size();
        let mut b = Board::new(size);
        for y in 0..size {
            for x in 0..size {
                let p = b.index(x, y);
                b.put_raw(p, self.board.stone(p).map(Color::opponent));
            }
        }
        b.rebuild();
        b.set_to_move(self.to_move().opponent());
        if let Some(k) = self.board.ko() {
            b.set_ko(k);
        }
        b.set_prisoners(
            self.board.prisoners(Color::White),
            self.board.prisoners(Color::Black),
        );
        GoState {
            board: b,
            komi2: -self.komi2,
            passes: self.passes,
            moves: self.moves,
            recent: [0; RECENT],
            recent_n: 0,
            history: Arc::new(History::default()),
            line_len: 0,
            line_first: Vertex::PASS,
            last: Vertex::PASS,
        }
    }

    /// True when the side to move playing the legal point `p` would recreate an earlier
    /// position of this game (record or ring) under positional superko. The hash is looked
    /// up only when the move can repeat at all: a stone of the mover was once removed from
    /// `p` ([`Board::may_repeat`]), or the move may be a suicide.
    #[inline(always)]
    pub(crate) fn breaks_superko(&self, rules: &Rules, p: usize) -> bool {
        let b = &self.board;
        rules.superko
            && (b.may_repeat(p) || (rules.suicide && !b.has_empty_neighbour(p)))
            && self.repeats_after(p)
    }

    /// Whether playing `p` recreates an earlier position; kept out of line so that the
    /// playout sampler's loop stays small (few moves get this far).
    #[cold]
    #[inline(never)]
    fn repeats_after(&self, p: usize) -> bool {
        self.repeats(self.board.hash_after(p))
    }

    /// A random light-playout move for the side to move: uniform over the legal points that
    /// are not the mover's own single-point eyes, pass when there is none. Tries random
    /// empty points first (rejection sampling); after [`PLAYOUT_TRIES`] misses, or at once
    /// with few empty points, it draws without replacement until a candidate turns up or
    /// none is left: on boards up to 9×9 from the candidate bit sets
    /// ([`Board::playout_candidate_sets`], at once with at most [`BITS_AT_MOST`] empty
    /// points), on larger boards from the empty points copied into `buf` (a partial
    /// shuffle, at once with at most [`SHUFFLE_AT_MOST`]). Either way the move is uniform
    /// over the candidates.
    #[inline]
    pub fn random_playout_move(
        &self,
        rules: &Rules,
        rng: &mut Rng,
        buf: &mut Vec<Vertex>,
    ) -> Vertex {
        let b = &self.board;
        let c = b.to_move();
        let n = b.empty_count();
        let small = b.fits_u128();
        // One branch on the empty count (a select for the bound, not `||`).
        let tries_above = if small { BITS_AT_MOST } else { SHUFFLE_AT_MOST };
        if n > tries_above {
            for _ in 0..PLAYOUT_TRIES {
                let p = b.empty_point(rng.below(n));
                if b.playout_candidate(p, c, rules.suicide) && !self.breaks_superko(rules, p) {
                    return Vertex::from_index(p);
                }
            }
        }
        if small {
            return self.random_playout_move_bits(rules, rng);
        }
        self.random_playout_move_slow(rules, rng, buf)
    }

    /// The draw on boards up to 9×9: without replacement from the candidate sets of
    /// [`Board::playout_candidate_sets`] (the mover's own eyes, most of the late empty
    /// points, are never drawn), a point of `sure` taken at once, one of `maybe` after the
    /// liberty test; either way superko is looked up as usual. Uniform over the candidates,
    /// like the other draws.
    #[inline(never)]
    fn random_playout_move_bits(&self, rules: &Rules, rng: &mut Rng) -> Vertex {
        let b = &self.board;
        let (sure, maybe) = b.playout_candidate_sets();
        let mut pool = sure | maybe;
        while pool != 0 {
            let p = select_bit(pool, rng.below(pool.count_ones() as usize) as u32);
            // `|`, not `||`: whether the pick is in `sure` is a coin flip, and the liberty
            // test (garbage but harmless for a point of `sure`) is cheaper than a miss.
            if ((sure >> p & 1 == 1) | b.playout_candidate_closed(p, rules.suicide))
                && !self.breaks_superko(rules, p)
            {
                return Vertex::from_index(p);
            }
            pool &= !(1u128 << p);
        }
        Vertex::PASS
    }

    /// Every move [`GoState::random_playout_move`] may return (legal points, superko
    /// included, that are not the mover's own single-point eyes), written into `out` in the
    /// board's empty-list order; empty when the sampler would pass.
    pub fn playout_candidates(&self, rules: &Rules, out: &mut Vec<Vertex>) {
        let b = &self.board;
        let c = b.to_move();
        out.clear();
        for &p in b.empty_points() {
            let p = p as usize;
            if b.playout_candidate(p, c, rules.suicide) && !self.breaks_superko(rules, p) {
                out.push(Vertex::from_index(p));
            }
        }
    }

    /// The draw without replacement on boards above 9×9 (see
    /// [`GoState::random_playout_move`]). Out of line and marked cold although about a third
    /// of a playout's moves come here: that keeps the playout loop's common path tight (measured slightly fewer instructions than without
    /// `#[cold]`).
    #[cold]
    #[inline(never)]
    fn random_playout_move_slow(
        &self,
        rules: &Rules,
        rng: &mut Rng,
        buf: &mut Vec<Vertex>,
    ) -> Vertex {
        let b = &self.board;
        let c = b.to_move();
        buf.clear();
        buf.extend(
            b.empty_points()
                .iter()
                .map(|&p| Vertex::from_index(p as usize)),
        );
        let n = buf.len();
        for i in 0..n {
            let j = i + rng.below(n - i);
            buf.swap(i, j);
            let p = buf[i].index();
            if b.playout_candidate(p, c, rules.suicide) && !self.breaks_superko(rules, p) {
                return buf[i];
            }
        }
        Vertex::PASS
    }

    /// Plays `mv` without any legality check (the [`Game::apply`] fast path).
    #[inline]
    pub fn apply_unchecked(&mut self, mv: Vertex) {
        self.last = mv;
        if self.line_len == 0 {
            self.line_first = mv;
        }
        self.line_len = self.line_len.saturating_add(1);
        if mv.is_pass() {
            self.board.pass();
            self.passes = self.passes.saturating_add(1).min(2);
        } else {
            self.remember(self.board.hash());
            self.board.play(mv.index());
            self.passes = 0;
        }
        self.moves = self.moves.saturating_add(1);
    }
}

impl PartialEq for GoState {
    fn eq(&self, other: &Self) -> bool {
        self.board.same_position(&other.board)
            && self.komi2 == other.komi2
            && self.passes == other.passes
            && self.moves == other.moves
            && self.board.prisoners(Color::Black) == other.board.prisoners(Color::Black)
            && self.board.prisoners(Color::White) == other.board.prisoners(Color::White)
    }
}

impl Eq for GoState {}

impl Hash for GoState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.board.hash().hash(state);
        (self.board.to_move() as u8).hash(state);
        self.board.ko().hash(state);
        self.komi2.hash(state);
        self.passes.hash(state);
        self.moves.hash(state);
        self.board.prisoners(Color::Black).hash(state);
        self.board.prisoners(Color::White).hash(state);
    }
}

impl std::fmt::Debug for GoState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GoState({})", format_state(self))
    }
}

fn format_komi(komi2: i16) -> String {
    if komi2 % 2 == 0 {
        format!("{}", komi2 / 2)
    } else {
        format!("{}", komi2 as f64 / 2.0)
    }
}

fn format_state(s: &GoState) -> String {
    let b = &s.board;
    format!(
        "{} {} {} {} {} {} {} {}",
        b.rows_string(),
        if b.to_move() == Color::Black {
            'b'
        } else {
            'w'
        },
        b.ko()
            .map_or("-".to_string(), |k| Vertex::from_index(k).to_gtp(b.size())),
        format_komi(s.komi2),
        s.passes,
        s.moves,
        b.prisoners(Color::Black),
        b.prisoners(Color::White)
    )
}

impl Game for GoGame {
    type State = GoState;
    type Move = Vertex;

    fn facts(&self) -> &GameFacts {
        &self.facts
    }

    fn initial_state(&self) -> GoState {
        GoState {
            board: Board::new(self.size),
            komi2: komi_half_points(self.rules.komi).unwrap_or(15),
            passes: 0,
            moves: 0,
            recent: [0; RECENT],
            recent_n: 0,
            history: Arc::new(History::default()),
            line_len: 0,
            line_first: Vertex::PASS,
            last: Vertex::PASS,
        }
    }

    #[inline]
    fn turn(&self, state: &GoState) -> Turn {
        if state.passes >= 2 || state.moves as usize >= self.max_moves {
            Turn::Terminal
        } else {
            Turn::Player(state.board.to_move().player())
        }
    }

    fn legal_moves(&self, state: &GoState, out: &mut Vec<Vertex>) {
        out.clear();
        if self.turn(state) == Turn::Terminal {
            return;
        }
        let b = &state.board;
        let c = b.to_move();
        for y in 0..self.size {
            for x in 0..self.size {
                let p = b.index(x, y);
                if b.is_legal(p, c, self.rules.suicide) && !state.breaks_superko(&self.rules, p) {
                    out.push(Vertex::from_index(p));
                }
            }
        }
        out.push(Vertex::PASS);
    }

    /// The legal moves less the mover's own single-point true eyes ([`Board::is_eye`]),
    /// which the playouts never fill either; pass always stays. Without this, a search that
    /// finds every move lost chooses among them at random and fills its own eyes, killing
    /// groups that were alive (seen against GNU Go).
    fn search_moves(&self, state: &GoState, out: &mut Vec<Vertex>) {
        self.legal_moves(state, out);
        let b = &state.board;
        let c = b.to_move();
        out.retain(|&v| v.is_pass() || !b.is_eye(v.index(), c));
    }

    #[inline]
    fn apply(&self, state: &mut GoState, mv: Vertex) {
        state.apply_unchecked(mv);
    }

    #[inline]
    fn returns(&self, state: &GoState) -> Rewards {
        let s = state.board.area_score() * 2 - state.komi2 as i32;
        Rewards::zero_sum(s.signum() as f64)
    }

    fn format_move(&self, _: &GoState, mv: Vertex) -> String {
        mv.to_gtp(self.size)
    }

    fn parse_move(&self, state: &GoState, text: &str) -> Result<Vertex, NotationError> {
        let v = Vertex::parse_gtp(text, self.size).map_err(|e| match e {
            crate::VertexError::Empty => NotationError::Empty { what: "move" },
            other => NotationError::syntax("move", text, other.to_string()),
        })?;
        if !self.is_legal(state, v) {
            let reason = if self.turn(state) == Turn::Terminal {
                "the game is over".to_string()
            } else if state.board.stone(v.index()).is_some() {
                "the point is occupied".to_string()
            } else if state.board.ko() == Some(v.index()) {
                "it retakes a ko".to_string()
            } else if !state
                .board
                .is_legal(v.index(), state.to_move(), self.rules.suicide)
            {
                "it is suicide".to_string()
            } else {
                "it repeats an earlier position (superko)".to_string()
            };
            return Err(NotationError::illegal(text, reason));
        }
        Ok(v)
    }

    fn format_state(&self, state: &GoState) -> String {
        format_state(state)
    }

    fn parse_state(&self, text: &str) -> Result<GoState, NotationError> {
        self.parse_state_inner(text)
    }

    fn render(&self, state: &GoState) -> String {
        let b = &state.board;
        let n = self.size;
        let mut s = String::new();
        let letters: String = COLUMNS[..n]
            .iter()
            .map(|&c| format!(" {}", c as char))
            .collect();
        let _ = writeln!(s, "   {letters}");
        for y in (0..n).rev() {
            let _ = write!(s, "{:>2} ", y + 1);
            for x in 0..n {
                let p = b.index(x, y);
                let ch = match b.stone(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None if b.ko() == Some(p) => '*',
                    None => '.',
                };
                let _ = write!(s, " {ch}");
            }
            let _ = writeln!(s, " {:<2}", y + 1);
        }
        let _ = writeln!(s, "   {letters}");
        let _ = write!(
            s,
            "{} to move, komi {}, captures B {} W {}, move {}",
            b.to_move(),
            format_komi(state.komi2),
            b.prisoners(Color::Black),
            b.prisoners(Color::White),
            state.moves
        );
        s
    }

    #[inline]
    fn hash(&self, state: &GoState) -> u64 {
        let b = &state.board;
        let mut h = b.hash() ^ ZOBRIST[0][b.ko().unwrap_or(0)];
        if b.to_move() == Color::White {
            h ^= ZOBRIST[0][MAX_AREA - 1];
        }
        h ^ (state.passes as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (state.moves as u64)
                .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
                .rotate_left(17)
            ^ (state.komi2 as u64)
                .wrapping_mul(0x1656_67B1_9E37_79F9)
                .rotate_left(31)
            ^ ((b.prisoners(Color::Black) as u64) << 40 | (b.prisoners(Color::White) as u64) << 20)
    }

    #[inline]
    fn random_move(&self, state: &GoState, rng: &mut Rng, buf: &mut Vec<Vertex>) -> Option<Vertex> {
        if self.turn(state) == Turn::Terminal {
            return None;
        }
        Some(state.random_playout_move(&self.rules, rng, buf))
    }

    fn play(&self, state: &mut GoState, mv: Vertex) -> Result<(), IllegalMove> {
        if !self.is_legal(state, mv) {
            let player = match self.turn(state) {
                Turn::Player(p) => self.facts().player_name(p),
                _ => "nobody (game over)".to_string(),
            };
            return Err(IllegalMove {
                mv: mv.to_gtp(self.size),
                player,
            });
        }
        state.apply_unchecked(mv);
        state.commit();
        Ok(())
    }
}

impl ActionSpace for GoGame {
    /// The `N²` points and the pass.
    fn num_actions(&self) -> usize {
        self.size * self.size + 1
    }

    #[inline]
    fn action_index(&self, _: &GoState, mv: Vertex) -> usize {
        self.action_of(mv)
    }

    fn action_move(&self, state: &GoState, player: Player, action: usize) -> Option<Vertex> {
        let v = self.vertex_of_action(action)?;
        (self.turn(state) == Turn::Player(player) && self.is_legal(state, v)).then_some(v)
    }
}

impl TensorGame for GoGame {
    /// Six planes of `N × N`: own stones, the opponent's, empty points, the ko point,
    /// ones when `perspective` is Black, ones; see the [module documentation](self).
    fn tensor_shape(&self) -> TensorShape {
        TensorShape {
            channels: 6,
            height: self.size,
            width: self.size,
        }
    }

    fn encode(&self, state: &GoState, perspective: Player, out: &mut [f32]) {
        let n = self.size;
        let area = n * n;
        let b = &state.board;
        let mine = Color::of_player(perspective) as u8;
        let theirs = 3 - mine;
        // Plane by plane over whole rows (the colour codes of a board row are contiguous),
        // so that the loops carry no stride arithmetic or bounds checks and vectorise: this
        // runs once per step of every game of a `VectorEnv`.
        let (own, rest) = out[..6 * area].split_at_mut(area);
        let (other, rest) = rest.split_at_mut(area);
        let (empty, rest) = rest.split_at_mut(area);
        let (ko_plane, rest) = rest.split_at_mut(area);
        let (black_plane, ones) = rest.split_at_mut(area);
        for r in 0..n {
            let y = n - 1 - r;
            let start = b.index(0, y);
            let row = b.raw_row(start, n);
            let cells = r * n..(r + 1) * n;
            for (((o, t), e), &k) in own[cells.clone()]
                .iter_mut()
                .zip(&mut other[cells.clone()])
                .zip(&mut empty[cells])
                .zip(row)
            {
                *o = (k == mine) as u8 as f32;
                *t = (k == theirs) as u8 as f32;
                *e = (k == EMPTY) as u8 as f32;
            }
        }
        ko_plane.fill(0.0);
        if let Some(p) = b.ko() {
            let (x, y) = b.coords(p);
            ko_plane[(n - 1 - y) * n + x] = 1.0;
        }
        black_plane.fill(if mine == Color::Black as u8 { 1.0 } else { 0.0 });
        ones.fill(1.0);
    }
}

impl Board {
    /// Sets the colour code at `p` without rebuilding (set-up helper).
    pub(crate) fn put_raw(&mut self, p: usize, c: Option<Color>) {
        if self.on_board(p) {
            self.set_raw(p, c.map_or(0, |c| c as u8));
        }
    }
}

#[allow(dead_code)]
const _: () = {
    assert!(BLACK == Color::Black as u8 && WHITE == Color::White as u8);
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The facts are set by the constructor from the size and the move limit, and a game
    /// derived by [`GoGame::with_komi`] keeps them consistent with its rules.
    #[test]
    fn stored_facts_follow_size_and_move_limit() {
        let rules = Rules {
            max_moves: Some(60),
            ..Rules::default()
        };
        let game = GoGame::with_rules(5, rules).unwrap();
        assert_eq!(game.facts().name, "go-5x5");
        assert_eq!(game.facts().max_turns, Some(60));
        let komi = game.with_komi(0.5).unwrap();
        assert_eq!(komi.facts(), game.facts());
        assert_eq!(GoGame::new(7).unwrap().facts().max_turns, Some(3 * 7 * 7));
    }

    /// The superko filter ([`Board::may_repeat`]) never skips a lookup that would find a
    /// repetition: along random games on small boards (many captures and ko fights), the
    /// filtered test agrees with looking up every legal point.
    #[test]
    fn superko_filter_agrees_with_full_lookup() {
        let mut rng = Rng::seed_from_u64(11);
        let mut buf = Vec::new();
        let mut repeats_seen = 0;
        for (size, suicide) in [(3, false), (4, false), (4, true), (5, false)] {
            let rules = Rules {
                suicide,
                ..Rules::default()
            };
            let game = GoGame::with_rules(size, rules.clone()).unwrap();
            for g in 0..30 {
                let mut s = game.initial_state();
                for t in 0..200 {
                    if game.turn(&s) == Turn::Terminal {
                        break;
                    }
                    let b = &s.board;
                    for &p in b.empty_points() {
                        let p = p as usize;
                        if !b.is_legal(p, b.to_move(), suicide) {
                            continue;
                        }
                        let full = s.repeats(b.hash_after(p));
                        repeats_seen += full as usize;
                        assert_eq!(s.breaks_superko(&rules, p), full, "game {g} move {t}");
                    }
                    // Mix checked moves (the record) and search-style moves (the ring).
                    let mv = s.random_playout_move(&rules, &mut rng, &mut buf);
                    if t % 3 == 0 {
                        game.play(&mut s, mv).unwrap();
                    } else {
                        game.apply(&mut s, mv);
                    }
                }
            }
        }
        assert!(repeats_seen > 0, "no superko situation arose");
    }

    /// The sampler returns only candidates, passes exactly when there is none, and is
    /// uniform over them, also when most empty points are not candidates (the draw without
    /// replacement after the first misses).
    #[test]
    fn playout_sampler_is_uniform_over_candidates() {
        let game = GoGame::new(5).unwrap();
        let rules = game.rules().clone();
        let mut rng = Rng::seed_from_u64(5);
        let mut buf = Vec::new();
        let mut cands = Vec::new();
        for _ in 0..40 {
            let mut s = game.initial_state();
            while game.turn(&s) != Turn::Terminal {
                s.playout_candidates(&rules, &mut cands);
                let mv = s.random_playout_move(&rules, &mut rng, &mut buf);
                assert_eq!(mv.is_pass(), cands.is_empty());
                assert!(mv.is_pass() || cands.contains(&mv));
                game.apply(&mut s, mv);
            }
        }
        // Black to move with three candidates (C1, C5 a false eye, E5) among a true eye
        // (B4, A1), opponent eyes (E3, E1) and stones.
        let s = game
            .parse_state("XX.X./X.XOO/XXXO./XXXOO/.X.O. b - 0")
            .unwrap();
        s.playout_candidates(&rules, &mut cands);
        let mut names: Vec<String> = cands.iter().map(|v| v.to_gtp(5)).collect();
        names.sort();
        assert_eq!(names, ["C1", "C5", "E5"]);
        let n = 6000;
        let mut counts = [0usize; 3];
        for _ in 0..n {
            let mv = s.random_playout_move(&rules, &mut rng, &mut buf);
            let i = cands.iter().position(|&c| c == mv).expect("a candidate");
            counts[i] += 1;
        }
        for c in counts {
            let f = c as f64 / n as f64;
            assert!((f - 1.0 / 3.0).abs() < 0.03, "{counts:?}");
        }
    }

    /// A search expands the legal moves less the mover's own true eyes (B4 and A1 here; C5 is
    /// a false eye and stays), so that UCT cannot fill them when every move looks lost; an
    /// MCTS search from here has exactly those at its root.
    #[test]
    fn search_moves_leave_out_own_true_eyes() {
        use yomi_core::search::mcts::{Mcts, MctsParams};
        use yomi_core::search::Budget;
        let game = GoGame::new(5).unwrap();
        let s = game
            .parse_state("XX.X./X.XOO/XXXO./XXXOO/.X.O. b - 0")
            .unwrap();
        let names = |moves: &[Vertex]| {
            let mut v: Vec<String> = moves.iter().map(|m| m.to_gtp(5)).collect();
            v.sort();
            v
        };
        let mut legal = Vec::new();
        game.legal_moves(&s, &mut legal);
        assert_eq!(names(&legal), ["A1", "B4", "C1", "C5", "E5", "pass"]);
        let mut search = Vec::new();
        game.search_moves(&s, &mut search);
        assert_eq!(names(&search), ["C1", "C5", "E5", "pass"]);
        let params = MctsParams {
            budget: Budget::iterations(300),
            ..MctsParams::default()
        };
        let result = Mcts::uct(params, 5).search(&game, &s);
        let root: Vec<Vertex> = result.children.iter().map(|c| c.mv).collect();
        assert_eq!(names(&root), names(&search));
    }

    /// Boards above 9×9 keep the draw without replacement from `buf` (the candidate bit
    /// sets cover up to 9×9): every move is a candidate, passes only when none is left.
    #[test]
    fn playout_sampler_on_large_boards_draws_candidates() {
        let game = GoGame::new(11).unwrap();
        let rules = game.rules().clone();
        let mut rng = Rng::seed_from_u64(8);
        let mut buf = Vec::new();
        let mut cands = Vec::new();
        assert!(!game.initial_state().board().fits_u128());
        for _ in 0..10 {
            let mut s = game.initial_state();
            while game.turn(&s) != Turn::Terminal {
                s.playout_candidates(&rules, &mut cands);
                let mv = s.random_playout_move(&rules, &mut rng, &mut buf);
                assert_eq!(mv.is_pass(), cands.is_empty());
                assert!(mv.is_pass() || cands.contains(&mv));
                game.apply(&mut s, mv);
            }
        }
    }

    /// The same with more empty points than `BITS_AT_MOST` (the random tries, then the
    /// draw from the candidate bit sets): 9×9, 21 empty points, 18 of them Black's true eyes, three
    /// candidates (B5, C5, D5).
    #[test]
    fn playout_sampler_is_uniform_with_many_empty_points() {
        let game = GoGame::new(9).unwrap();
        let rules = game.rules().clone();
        let mut rng = Rng::seed_from_u64(6);
        let mut buf = Vec::new();
        let mut cands = Vec::new();
        let rows = "X.X.X.X.X/XXXXXXXXX/X.X.X.X.X/XXXXXXXXX/X...X.X.X/XXXXXXXXX/X.X.X.X.X/\
                    XXXXXXXXX/X.X.X.X.X";
        let s = game.parse_state(&format!("{rows} b - 0")).unwrap();
        assert!(s.board().empty_count() > BITS_AT_MOST);
        s.playout_candidates(&rules, &mut cands);
        let mut names: Vec<String> = cands.iter().map(|v| v.to_gtp(9)).collect();
        names.sort();
        assert_eq!(names, ["B5", "C5", "D5"]);
        let n = 6000;
        let mut counts = [0usize; 3];
        for _ in 0..n {
            let mv = s.random_playout_move(&rules, &mut rng, &mut buf);
            let i = cands.iter().position(|&c| c == mv).expect("a candidate");
            counts[i] += 1;
        }
        for c in counts {
            let f = c as f64 / n as f64;
            assert!((f - 1.0 / 3.0).abs() < 0.03, "{counts:?}");
        }
    }
}
