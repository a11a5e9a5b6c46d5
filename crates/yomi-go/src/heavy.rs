//! Heavy playouts: the MoGo playout policy (Gelly, Wang, Munos & Teytaud 2006, as in
//! michi and Pachi), and the leaf evaluator that plays it for RAVE searches.
//!
//! Each move, in order, with the first rule that yields a move winning:
//! 1. **Capture / escape atari** around the last move: an opponent chain next to (or at)
//!    the last move with one liberty is captured; an own chain put in atari escapes by
//!    capturing a neighbouring chain in atari or by extending when that leaves it two or
//!    more liberties.
//! 2. **3×3 patterns** around the last move: an empty point among its eight neighbours
//!    whose neighbourhood matches one of MoGo's hane, cut and edge patterns (in any of the
//!    eight symmetries, either colour; the table has 2¹⁶ bits, one per neighbourhood).
//! 3. Otherwise a **light move** ([`GoState::random_playout_move`], uniform over the
//!    legal non-eye points), redrawn a few times when it is a self-atari of two or more
//!    stones.
//!
//! Rules 1 and 2 are taken with probabilities [`HeavyConfig::capture`] and
//! [`HeavyConfig::pattern`] (randomness keeps the playouts from being systematically
//! wrong), and their moves must be legal, keep superko, not fill an own eye and not be a
//! self-atari of two or more stones. The playout records its moves as AMAF keys (the point
//! index) for RAVE. No allocation per move: the candidate lists are fixed arrays.
//!
//! Thread safety: the pattern table is built once (a `LazyLock`); evaluators are plain
//! data owned by one search worker.

use std::sync::LazyLock;

use yomi_core::search::mcts::LeafEvaluator;
use yomi_core::{Game, Rewards, Rng};

use crate::board::{Board, MAX_AREA};
use crate::game::{GoGame, GoState, Rules};
use crate::vertex::{Color, Vertex};

/// MoGo's 3×3 patterns as in michi: `X`/`O` the two colours (either way round), `x`/`o`
/// anything but that colour, `.` empty, `#` off the board, `?` anything; the centre is the
/// empty point to play.
const PATTERNS: [[&str; 3]; 13] = [
    ["XOX", "...", "???"], // hane: enclosing hane
    ["XO.", "...", "?.?"], // hane: non-cutting hane
    ["XO?", "X..", "x.?"], // hane: magari
    [".O.", "X..", "..."], // katatsuke or diagonal attachment
    ["XO?", "O.o", "?o?"], // cut 1: unprotected cut
    ["XO?", "O.X", "???"], // cut 1: peeped cut
    ["?X?", "O.O", "ooo"], // cut 2
    ["OX?", "o.O", "???"], // cut keima
    ["X.?", "O.?", "##?"], // side: chase
    ["OX?", "X.O", "###"], // side: block side cut
    ["?X?", "x.O", "###"], // side: block side connection
    ["?XO", "x.x", "###"], // side: sagari
    ["?OX", "X.O", "###"], // side: cut
];

/// One bit per 3×3 neighbourhood code ([`Board::neighbourhood`]): set when a pattern
/// matches.
static PATTERN_TABLE: LazyLock<Box<[u64; 1024]>> = LazyLock::new(build_pattern_table);

/// Whether the neighbourhood code matches a pattern.
#[inline]
pub fn pattern_matches(code: u16) -> bool {
    PATTERN_TABLE[(code >> 6) as usize] >> (code & 63) & 1 == 1
}

/// Whether a pattern symbol allows the colour code `k` (0 empty, 1 black, 2 white,
/// 3 border), `x_is` being the colour code that plays `X`.
fn symbol_allows(sym: u8, k: u8, x_is: u8) -> bool {
    let o_is = 3 - x_is;
    match sym {
        b'X' => k == x_is,
        b'O' => k == o_is,
        b'x' => k != x_is && k != 3,
        b'o' => k != o_is && k != 3,
        b'.' => k == 0,
        b'#' => k == 3,
        _ => true,
    }
}

fn build_pattern_table() -> Box<[u64; 1024]> {
    let mut table = Box::new([0u64; 1024]);
    // The eight surrounding cells in `Board::neighbourhood` order, as (row, column).
    const CELLS: [(usize, usize); 8] = [
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 2),
        (2, 0),
        (2, 1),
        (2, 2),
    ];
    for pat in PATTERNS {
        let grid: Vec<&[u8]> = pat.iter().map(|r| r.as_bytes()).collect();
        // The eight symmetries: transpose and flips of (row, column) around the centre.
        for sym in 0..8u8 {
            let map = |r: usize, c: usize| -> (usize, usize) {
                let (mut r, mut c) = (r, c);
                if sym & 1 != 0 {
                    r = 2 - r;
                }
                if sym & 2 != 0 {
                    c = 2 - c;
                }
                if sym & 4 != 0 {
                    std::mem::swap(&mut r, &mut c);
                }
                (r, c)
            };
            for x_is in [1u8, 2] {
                for code in 0..=u16::MAX {
                    let ok = CELLS.iter().enumerate().all(|(i, &(r, c))| {
                        let (pr, pc) = map(r, c);
                        let k = (code >> (2 * i) & 3) as u8;
                        symbol_allows(grid[pr][pc], k, x_is)
                    });
                    if ok {
                        table[(code >> 6) as usize] |= 1 << (code & 63);
                    }
                }
            }
        }
    }
    table
}

/// Probabilities of the heavy rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeavyConfig {
    /// Chance of looking for captures and atari escapes around the last move.
    pub capture: f64,
    /// Chance of looking for 3×3 pattern moves around the last move.
    pub pattern: f64,
    /// Redraws of a light move that is a self-atari of two or more stones.
    pub self_atari_redraws: u32,
}

impl Default for HeavyConfig {
    fn default() -> Self {
        // michi's PROB_HEURISTIC (capture 0.9, pat3 0.95).
        HeavyConfig {
            capture: 0.9,
            pattern: 0.95,
            self_atari_redraws: 4,
        }
    }
}

/// Up to 16 candidate points (more are dropped: at most 4 chains around a move, each
/// giving a few).
struct Candidates {
    points: [u16; 16],
    n: usize,
}

impl Candidates {
    #[inline]
    fn new() -> Self {
        Candidates {
            points: [0; 16],
            n: 0,
        }
    }

    #[inline]
    fn push(&mut self, p: usize) {
        if self.n < self.points.len() && !self.points[..self.n].contains(&(p as u16)) {
            self.points[self.n] = p as u16;
            self.n += 1;
        }
    }
}

/// Whether `c` may play `p` in a heavy rule: legal (superko included), not an own eye,
/// not a self-atari of two or more stones.
#[inline]
fn acceptable(state: &GoState, rules: &Rules, p: usize, c: Color) -> bool {
    let b = state.board();
    b.stone(p).is_none()
        && b.playout_candidate(p, c, rules.suicide)
        && b.is_legal(p, c, rules.suicide)
        && !state.breaks_superko(rules, p)
        && b.self_atari_size(p, c) < 2
}

/// Captures of chains in atari next to (or at) `last`, and escapes of own chains put in
/// atari there, for `c` to move; written to `out`.
pub fn capture_moves(b: &Board, last: usize, c: Color, out: &mut Vec<Vertex>) {
    let mut cand = Candidates::new();
    gen_captures(b, last, c, &mut cand);
    out.clear();
    out.extend(
        cand.points[..cand.n]
            .iter()
            .map(|&p| Vertex::from_index(p as usize)),
    );
}

fn gen_captures(b: &Board, last: usize, c: Color, cand: &mut Candidates) {
    let w = b.stride();
    let mut done = [0usize; 5];
    let mut done_n = 0;
    for q in [last, last - w, last - 1, last + 1, last + w] {
        let Some(k) = b.stone(q) else {
            continue;
        };
        let mut libs = [0usize; 2];
        if b.chain_libs_upto3(q, &mut libs) != 1 {
            continue;
        }
        // One visit per chain: its first stone found stands for it.
        let mut first = q;
        b.for_chain(q, |s| first = first.min(s));
        if done[..done_n].contains(&first) {
            continue;
        }
        done[done_n] = first;
        done_n += 1;
        if k != c {
            cand.push(libs[0]);
            continue;
        }
        // Own chain in atari: capture a neighbouring chain in atari, or extend.
        b.for_chain(q, |s| {
            for t in [s - w, s - 1, s + 1, s + w] {
                if b.stone(t) == Some(c.opponent()) {
                    let mut l2 = [0usize; 2];
                    if b.chain_libs_upto3(t, &mut l2) == 1 {
                        cand.push(l2[0]);
                    }
                }
            }
        });
        if b.self_atari_size(libs[0], c) == 0 {
            cand.push(libs[0]);
        }
    }
}

/// Empty neighbours of `last` (eight around it) whose 3×3 neighbourhood matches a pattern.
fn gen_patterns(b: &Board, last: usize, cand: &mut Candidates) {
    let w = b.stride();
    for q in [
        last - w - 1,
        last - w,
        last - w + 1,
        last - 1,
        last + 1,
        last + w - 1,
        last + w,
        last + w + 1,
    ] {
        if q < MAX_AREA
            && b.on_board(q)
            && b.stone(q).is_none()
            && pattern_matches(b.neighbourhood(q))
        {
            cand.push(q);
        }
    }
}

/// A random acceptable candidate, removing rejected ones.
#[inline]
fn pick(
    state: &GoState,
    rules: &Rules,
    c: Color,
    cand: &mut Candidates,
    rng: &mut Rng,
) -> Option<usize> {
    while cand.n > 0 {
        let i = rng.below(cand.n);
        let p = cand.points[i] as usize;
        if acceptable(state, rules, p, c) {
            return Some(p);
        }
        cand.n -= 1;
        cand.points[i] = cand.points[cand.n];
    }
    None
}

/// The heavy playout move for the side to move (see the module docs): the local rules
/// ([`local_move`]), else a light move ([`light_move`]).
pub fn heavy_move(
    state: &GoState,
    rules: &Rules,
    cfg: &HeavyConfig,
    rng: &mut Rng,
    buf: &mut Vec<Vertex>,
) -> Vertex {
    local_move(state, rules, cfg, rng).unwrap_or_else(|| light_move(state, rules, cfg, rng, buf))
}

/// Rules 1 and 2 of the module docs (capture / escape atari, then 3×3 patterns, around the
/// last move), each taken with its probability: the move for the side to move, or `None`.
pub fn local_move(
    state: &GoState,
    rules: &Rules,
    cfg: &HeavyConfig,
    rng: &mut Rng,
) -> Option<Vertex> {
    let b = state.board();
    let c = b.to_move();
    let last = state.last_move();
    if last.is_pass() {
        return None;
    }
    let l = last.index();
    if rng.chance(cfg.capture) {
        let mut cand = Candidates::new();
        gen_captures(b, l, c, &mut cand);
        if let Some(p) = pick(state, rules, c, &mut cand, rng) {
            return Some(Vertex::from_index(p));
        }
    }
    if rng.chance(cfg.pattern) {
        let mut cand = Candidates::new();
        gen_patterns(b, l, &mut cand);
        if let Some(p) = pick(state, rules, c, &mut cand, rng) {
            return Some(Vertex::from_index(p));
        }
    }
    None
}

/// Rule 3 of the module docs: a light move, redrawn up to `cfg.self_atari_redraws` times
/// while it is a self-atari of two or more stones; [`Vertex::PASS`] when there is none.
pub fn light_move(
    state: &GoState,
    rules: &Rules,
    cfg: &HeavyConfig,
    rng: &mut Rng,
    buf: &mut Vec<Vertex>,
) -> Vertex {
    let b = state.board();
    let c = b.to_move();
    let mut mv = state.random_playout_move(rules, rng, buf);
    for _ in 0..cfg.self_atari_redraws {
        if mv.is_pass() || b.self_atari_size(mv.index(), c) < 2 {
            break;
        }
        mv = state.random_playout_move(rules, rng, buf);
    }
    mv
}

/// The AMAF key of a Go move for RAVE: its point index (below [`MAX_AREA`]); a pass has
/// none. Shared by every Go playout that records moves for RAVE.
#[inline]
pub fn amaf_point_key(mv: Vertex) -> Option<u32> {
    (!mv.is_pass()).then(|| mv.index() as u32)
}

/// The leaf evaluator of heavy playouts: plays [`heavy_move`] to the end of the game and
/// scores by area with komi, recording the moves as AMAF keys (point indices) for RAVE.
#[derive(Clone, Debug, Default)]
pub struct HeavyPlayout {
    /// The rule probabilities.
    pub cfg: HeavyConfig,
    played: Vec<(u8, u32)>,
}

impl HeavyPlayout {
    /// An evaluator with the given probabilities.
    pub fn new(cfg: HeavyConfig) -> Self {
        HeavyPlayout {
            cfg,
            played: Vec::with_capacity(512),
        }
    }
}

impl LeafEvaluator<GoGame> for HeavyPlayout {
    fn evaluate(
        &mut self,
        game: &GoGame,
        state: &mut GoState,
        rng: &mut Rng,
        buf: &mut Vec<Vertex>,
    ) -> Rewards {
        self.played.clear();
        let rules = game.rules();
        while !game.is_terminal(state) {
            let c = state.to_move();
            let mv = heavy_move(state, rules, &self.cfg, rng, buf);
            if !mv.is_pass() {
                self.played.push((c.player().0, mv.index() as u32));
            }
            state.apply_unchecked(mv);
        }
        game.returns(state)
    }

    fn amaf_key(&self, _: &GoGame, mv: Vertex) -> Option<u32> {
        amaf_point_key(mv)
    }

    fn amaf_key_count(&self, _: &GoGame) -> usize {
        MAX_AREA
    }

    fn amaf_moves(&self) -> &[(u8, u32)] {
        &self.played
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 5×5 (or `size`) state with the given stones placed as moves, `last` played last
    /// by its colour (so it is the state's last move), and then `to_move` to play.
    fn setup(size: usize, stones: &[(&str, Color)], to_move: Color) -> (GoGame, GoState) {
        let game = GoGame::new(size).unwrap();
        let mut st = game.initial_state();
        for &(m, c) in stones {
            st.board.set_to_move(c);
            st.apply_unchecked(game.parse_vertex(m).unwrap());
        }
        st.board.set_to_move(to_move);
        (game, st)
    }

    fn point(game: &GoGame, m: &str) -> usize {
        game.parse_vertex(m).unwrap().index()
    }

    const CAPTURES_ONLY: HeavyConfig = HeavyConfig {
        capture: 1.0,
        pattern: 0.0,
        self_atari_redraws: 4,
    };

    #[test]
    fn patterns_match_in_every_symmetry_and_colour() {
        // Enclosing hane "XOX / ... / ???": Black B3 D3 around White C3; C2 below matches.
        let (game, st) = setup(
            5,
            &[
                ("B3", Color::Black),
                ("C3", Color::White),
                ("D3", Color::Black),
            ],
            Color::White,
        );
        assert!(pattern_matches(
            st.board().neighbourhood(point(&game, "C2"))
        ));
        // Mirrored (the hane above) and with the colours swapped.
        let (game, st) = setup(
            5,
            &[
                ("B3", Color::White),
                ("C3", Color::Black),
                ("D3", Color::White),
            ],
            Color::Black,
        );
        assert!(pattern_matches(
            st.board().neighbourhood(point(&game, "C4"))
        ));
        // A lone stone's neighbourhood matches nothing but the diagonal attachment shape
        // needs two stones: an empty board matches nothing.
        let e = game.initial_state();
        assert!(!pattern_matches(
            e.board().neighbourhood(point(&game, "C3"))
        ));
    }

    #[test]
    fn captures_a_chain_left_in_atari() {
        // Black's last move C3 sits between White B3, C4 and D3: its only liberty is C2.
        let (game, st) = setup(
            5,
            &[
                ("B3", Color::White),
                ("C4", Color::White),
                ("D3", Color::White),
                ("C3", Color::Black),
            ],
            Color::White,
        );
        let mut rng = Rng::seed_from_u64(3);
        let mut buf = Vec::new();
        let c2 = game.parse_vertex("C2").unwrap();
        for _ in 0..50 {
            assert_eq!(
                heavy_move(&st, game.rules(), &CAPTURES_ONLY, &mut rng, &mut buf),
                c2
            );
        }
    }

    #[test]
    fn escapes_atari_by_extending() {
        // White C3 C2 lose their second-to-last liberty to Black's D3: C4 is left, and
        // extending there gives three liberties.
        let (game, st) = setup(
            5,
            &[
                ("B3", Color::Black),
                ("B2", Color::Black),
                ("C1", Color::Black),
                ("D2", Color::Black),
                ("C3", Color::White),
                ("C2", Color::White),
                ("D3", Color::Black),
            ],
            Color::White,
        );
        let mut rng = Rng::seed_from_u64(5);
        let mut buf = Vec::new();
        let c4 = game.parse_vertex("C4").unwrap();
        for _ in 0..50 {
            assert_eq!(
                heavy_move(&st, game.rules(), &CAPTURES_ONLY, &mut rng, &mut buf),
                c4
            );
        }
    }

    #[test]
    fn self_atari_size_counts_the_chain() {
        // Black B2 B3 hemmed in by White A1 A2 A3 B4 C2 C3: B1 leaves B1 B2 B3 with the one
        // liberty C1 and captures nothing (White's A-column keeps A4).
        let (game, st) = setup(
            5,
            &[
                ("B2", Color::Black),
                ("B3", Color::Black),
                ("A1", Color::White),
                ("A2", Color::White),
                ("A3", Color::White),
                ("B4", Color::White),
                ("C2", Color::White),
                ("C3", Color::White),
            ],
            Color::Black,
        );
        let b = st.board();
        assert_eq!(b.self_atari_size(point(&game, "B1"), Color::Black), 3);
        assert_eq!(b.self_atari_size(point(&game, "E5"), Color::Black), 0);
        // White at A4 would leave its A-column chain with... A5 and B1? No: A4 joins A1-A3
        // (liberties A5, B1): two, not an atari.
        assert_eq!(b.self_atari_size(point(&game, "A4"), Color::White), 0);
        let mut libs = [0; 2];
        assert_eq!(b.chain_libs_upto3(point(&game, "B2"), &mut libs), 1);
        assert_eq!(libs[0], point(&game, "B1"));
    }

    #[test]
    fn heavy_playouts_never_self_atari_two_stones_when_avoidable() {
        let game = GoGame::new(9).unwrap();
        let cfg = HeavyConfig {
            capture: 1.0,
            pattern: 1.0,
            self_atari_redraws: 1000,
        };
        let mut rng = Rng::seed_from_u64(11);
        let mut buf = Vec::new();
        let mut cands = Vec::new();
        let mut checked = 0;
        for _ in 0..40 {
            let mut s = game.initial_state();
            while !game.is_terminal(&s) {
                let c = s.to_move();
                let mv = heavy_move(&s, game.rules(), &cfg, &mut rng, &mut buf);
                if !mv.is_pass() {
                    assert!(game.is_legal(&s, mv), "{mv:?}");
                    assert!(!s.board().is_eye(mv.index(), c));
                    if s.board().self_atari_size(mv.index(), c) >= 2 {
                        // Only when every light candidate is such a self-atari.
                        s.playout_candidates(game.rules(), &mut cands);
                        assert!(cands
                            .iter()
                            .all(|v| s.board().self_atari_size(v.index(), c) >= 2));
                    }
                    checked += 1;
                }
                s.apply_unchecked(mv);
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn records_amaf_moves() {
        let game = GoGame::new(9).unwrap();
        let mut ev = HeavyPlayout::new(HeavyConfig::default());
        let mut s = game.initial_state();
        let mut rng = Rng::seed_from_u64(1);
        let mut buf = Vec::new();
        let r = ev.evaluate(&game, &mut s, &mut rng, &mut buf);
        assert!(game.is_terminal(&s));
        assert_eq!(r, game.returns(&s));
        let moves = ev.amaf_moves();
        assert!(moves.len() > 40);
        assert_eq!(moves[0].0, 0, "Black moves first");
        assert!(moves.iter().all(|&(p, k)| p < 2 && (k as usize) < MAX_AREA));
    }
}
