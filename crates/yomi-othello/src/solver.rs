//! The exact endgame solver: the final disc difference under perfect play (empties to the
//! winner, as in the FFO scores), for the side to move.
//!
//! Negamax alpha-beta with principal-variation search (null windows after the first move),
//! a transposition table of bounds keyed by the full position, and move ordering by
//! empties left:
//! - 1 empty: no move generation; the flip count comes from per-line tables
//!   ([`crate::bitboard::count_last_flip`]), and the opponent's only when it could matter;
//! - 2 empties: both squares, unrolled, inlined into the 3-empties search;
//! - 3 and 4 empties: the empties in parity order (squares of quadrants with an odd number
//!   of empties first), no table; a square is only tried when it touches an opponent disc;
//! - 5 to 6 empties: the legal moves in parity order;
//! - 7 and more: fastest first (fewest replies for the opponent, corners counted double),
//!   the table's best move first, parity breaking ties; bounds stored in the table; from
//!   10 empties, enhanced transposition cutoffs (a child already refuted in the table
//!   cuts before any search);
//! - 12 and more: the sort also weighs the pattern evaluation ([`crate::eval`]) of each
//!   child: far from the leaves, mobility alone orders badly, and the node count, not the
//!   node rate, is what decides the time (a third of the nodes on FFO #40-#44).
//!
//! From 18 empties, before the exact search, shallow searches from the root (iterative
//! deepening to `min(10, empties - 12)` plies, the evaluation at the horizon) write their
//! best moves to the table as hints without bounds for the first 8 plies, and the exact
//! search tries those first: a short forced win (FFO #59's wipe-out seven plies down) and
//! the principal lines are then searched first (#45-#49: 3.84 G → 1.33 G nodes).
//!
//! The table is shared without locks, so [`Solver::set_threads`] can add helper threads:
//! all search the same root, and a thread puts off a younger brother another thread is
//! searching (ABDADA, [`BusyTable`]), so that they spread over the tree;
//! [`Solver::try_solve_window`] stops at a node or time budget.
//!
//! From 5 empties, a stability cutoff (Edax's): when `alpha` is high enough, the
//! opponent's stable discs ([`crate::stability`]) may already bound the score below it.
//!
//! Nodes are counted as Edax counts them: every position searched, the 1-empty positions
//! included; cutoffs count the node they cut at, and the table probes of the enhanced
//! transposition cutoff are not nodes.
//!
//! [`Solver::move_scores`] gives every legal move's exact score (each solved with a full
//! window, the table carrying over between moves).

use std::time::{Duration, Instant};

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use crate::bitboard::{count_last_flip, flips, moves, CORNERS, NEIGHBOURS};
use crate::eval::PatternEval;
use crate::game::{final_score, Move, OthelloState};
use crate::stability::EdgeTable;

/// Squares of the quadrants (4 × 4 corners of the board) holding an odd number of empty
/// squares, for parity ordering. Branch free: the parity of each half row (nibble) is
/// folded into its lowest bit, the four half rows of a quadrant into its first one, and
/// the multiplication spreads each quadrant's bit over the quadrant.
#[inline]
fn odd_quadrants(empties: u64) -> u64 {
    let mut x = empties ^ (empties >> 2);
    x ^= x >> 1;
    x ^= x >> 8;
    x ^= x >> 16;
    (x & 0x0000_0011_0000_0011) * 0x0F0F_0F0F
}

/// What the table knows of a position: bounds on its exact score, a best move and the
/// empties it was searched at (for replacement).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    lower: i8,
    upper: i8,
    best: u8,
    empties: u8,
}

impl Entry {
    #[inline]
    fn pack(self) -> u64 {
        // Bit 32 marks a used slot, so an all-zero slot never matches the empty board.
        (self.lower as u8 as u64)
            | (self.upper as u8 as u64) << 8
            | (self.best as u64) << 16
            | (self.empties as u64) << 24
            | 1 << 32
    }

    #[inline]
    fn unpack(d: u64) -> Entry {
        Entry {
            lower: d as u8 as i8,
            upper: (d >> 8) as u8 as i8,
            best: (d >> 16) as u8,
            empties: (d >> 24) as u8,
        }
    }
}

/// Two entries sharing a cache line: a position may sit in either, and a new position
/// replaces the one searched with fewer empties (the cheaper one to redo).
#[repr(align(64))]
#[derive(Default)]
struct Bucket([AtomicU64; 6]);

/// The transposition table, shared between threads without locks: each entry is three
/// words, `player ^ data`, `opponent ^ data` and `data`, so that an entry torn by a
/// concurrent write fails the key check and reads as a miss (Hyatt and Mann's lockless
/// hashing) instead of giving another position's bounds. Relaxed atomics compile to plain
/// loads and stores on x86 and ARM.
pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries (32 bytes each: 20 bits is 32 MiB).
    pub fn new(bits: u32) -> Self {
        let bits = bits.clamp(4, 30);
        let n = 1usize << (bits - 1);
        let mut buckets = Vec::with_capacity(n);
        buckets.resize_with(n, Bucket::default);
        Table {
            buckets,
            mask: n - 1,
        }
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for b in &self.buckets {
            for w in &b.0 {
                w.store(0, Relaxed);
            }
        }
    }

    #[inline]
    fn bucket(&self, p: u64, o: u64) -> &Bucket {
        let h = crate::bitboard::mix64(p ^ crate::bitboard::mix64(o)) as usize;
        &self.buckets[h & self.mask]
    }

    #[inline]
    fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        let b = self.bucket(p, o);
        for i in 0..2 {
            let d = b.0[3 * i + 2].load(Relaxed);
            if b.0[3 * i].load(Relaxed) ^ d == p && b.0[3 * i + 1].load(Relaxed) ^ d == o && d != 0
            {
                return Some(Entry::unpack(d));
            }
        }
        None
    }

    #[inline]
    fn store(&self, p: u64, o: u64, e: Entry) {
        let b = self.bucket(p, o);
        let d = e.pack();
        let (d0, d1) = (b.0[2].load(Relaxed), b.0[5].load(Relaxed));
        let hit0 = b.0[0].load(Relaxed) ^ d0 == p && b.0[1].load(Relaxed) ^ d0 == o;
        let hit1 = b.0[3].load(Relaxed) ^ d1 == p && b.0[4].load(Relaxed) ^ d1 == o;
        // The position's own entry, else the one searched with fewer empties.
        let shallower1 = Entry::unpack(d1).empties < Entry::unpack(d0).empties;
        let i = usize::from(!hit0 && (hit1 || shallower1));
        b.0[3 * i].store(p ^ d, Relaxed);
        b.0[3 * i + 1].store(o ^ d, Relaxed);
        b.0[3 * i + 2].store(d, Relaxed);
    }
}

/// Which positions helper threads are searching now (ABDADA's "exclusive" marks, Weill
/// 1996): a thread about to search a younger brother that another thread is already on
/// puts it off to the end of the node, so that threads spread over the tree instead of
/// all walking the same moves. Plain lazy SMP (helpers rotating the root moves) mostly
/// duplicated work on this fixed-depth search: on 16 cores it solved FFO #45-#49 in
/// 75.9 s and 21.3 G nodes, this in 29.0 s and 9.8 G (one thread: 183.6 s, 3.8 G);
/// putting off at the root too, without rotation, and from 12 empties (against 10 and
/// 14) were chosen on #40-#44. One word per slot, the position's hash with the
/// owning thread in the low 6 bits; a race or a collision only costs a duplicated or
/// delayed search, never a wrong value (values come from searches, not from marks).
struct BusyTable {
    slots: Vec<AtomicU64>,
}

impl BusyTable {
    const BITS: u32 = 14;
    const THREAD_MASK: u64 = 63;

    fn new() -> Self {
        let mut slots = Vec::with_capacity(1 << Self::BITS);
        slots.resize_with(1 << Self::BITS, AtomicU64::default);
        BusyTable { slots }
    }

    #[inline]
    fn hash(p: u64, o: u64) -> u64 {
        // Another mix than the table's, so that busy slots and table buckets do not
        // collide together. Never zero, so a zero slot is free.
        crate::bitboard::mix64(o ^ crate::bitboard::mix64(p ^ 0x9e37_79b9_7f4a_7c15)) | 64
    }

    #[inline]
    fn slot(&self, h: u64) -> &AtomicU64 {
        &self.slots[(h >> (64 - Self::BITS)) as usize]
    }

    /// Whether a thread other than `me` marked the position of hash `h`.
    #[inline]
    fn busy_elsewhere(&self, h: u64, me: u64) -> bool {
        let v = self.slot(h).load(Relaxed);
        v & !Self::THREAD_MASK == h & !Self::THREAD_MASK && v & Self::THREAD_MASK != me
    }

    /// Marks the position as searched by `me`; returns the mark to [`BusyTable::leave`].
    #[inline]
    fn enter(&self, h: u64, me: u64) -> u64 {
        let mark = h & !Self::THREAD_MASK | me & Self::THREAD_MASK;
        self.slot(h).store(mark, Relaxed);
        mark
    }

    /// Clears the mark if nobody overwrote it.
    #[inline]
    fn leave(&self, h: u64, mark: u64) {
        let _ = self.slot(h).compare_exchange(mark, 0, Relaxed, Relaxed);
    }

    fn clear(&self) {
        for s in &self.slots {
            s.store(0, Relaxed);
        }
    }
}

/// The order a node's moves are searched in: each in turn, then those put off
/// ([`Visits::put_off`]: another thread was searching them) in turn.
struct Visits {
    len: usize,
    next: usize,
    deferred: u32,
}

impl Visits {
    fn new(len: usize) -> Self {
        Visits {
            len,
            next: 0,
            deferred: 0,
        }
    }

    /// The next move's index, and whether it is met for the first time.
    #[inline]
    fn next(&mut self) -> Option<(usize, bool)> {
        if self.next < self.len {
            self.next += 1;
            return Some((self.next - 1, true));
        }
        if self.deferred == 0 {
            return None;
        }
        let i = self.deferred.trailing_zeros() as usize;
        self.deferred &= self.deferred - 1;
        Some((i, false))
    }

    /// Searches move `i` after the others.
    #[inline]
    fn put_off(&mut self, i: usize) {
        self.deferred |= 1 << i;
    }
}

/// A thread's mark on a position it is searching, `(hash, mark)`; `None` when the node
/// is not shared with other threads.
struct Mark(Option<(u64, u64)>);

/// The result of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Exact final disc difference for the side to move (empties to the winner).
    pub score: i32,
    /// A best move (a square or a pass), or `None` when the game is over.
    pub best: Option<Move>,
    /// Positions visited.
    pub nodes: u64,
}

/// Fewest empties at which the table is used.
const TT_MIN_EMPTIES: u32 = 7;
/// Fewest empties at which children are looked up in the table before any is searched
/// (enhanced transposition cutoff): a probe per child only pays far from the leaves.
const ETC_MIN_EMPTIES: u32 = 10;
/// Fewest empties at which moves are sorted fastest-first.
const SORT_MIN_EMPTIES: u32 = 7;
/// Fewest empties at which the sort also weighs the pattern evaluation of each child
/// (Edax and Egaroucid sort by shallow evaluated searches far from the leaves). Measured
/// on FFO #40-#44, one thread: mobility alone 415 M nodes; the evaluation from 16 empties
/// 175 M, from 14 153 M, from 12 139 M (and the fastest in CPU time), from 10 134 M
/// (slower: the evaluation costs more than the nodes it saves). A 1-ply search with the
/// evaluation instead of the evaluation itself from 16 empties: 152 M, worse than depth 0
/// from 12.
///
/// Tried and not kept (2026-11-27): weighing the opponent's best reply by the evaluation
/// (a 1-ply search) instead, from 18 empties. On FFO #45-#49 it cut the nodes from 3.839 G
/// to 2.440 G (209 s to 125 s CPU), but on #50-#54, which it was not tuned on, it took
/// 35.568 G nodes against 31.777 G (#51 and #52 halved, #54 18.8 G against 14.7 G), and
/// on #40-#44 160 M against 139 M: more nodes over #40-#54 as a whole.
const EVAL_SORT_MIN_EMPTIES: u32 = 12;
/// Fewest empties of a root position for which shallow searches order the exact search
/// (see [`Solver::order_by_shallow_searches`]).
const SHALLOW_MIN_EMPTIES: u32 = 18;
/// Deepest shallow search, and the empties it leaves: depth `min(SHALLOW_MAX_DEPTH, n -
/// SHALLOW_LEAVE)` at `n` empties.
const SHALLOW_MAX_DEPTH: u32 = 10;
const SHALLOW_LEAVE: u32 = 12;
/// The shallow best moves are written to the table for the positions of the first
/// `SHALLOW_STORE_PLIES` plies below the root (deeper, the shallow search looks too few
/// plies ahead for its move to beat the ordering by evaluation), and never below
/// `SHALLOW_STORE_MIN_EMPTIES` empties. Chosen among depth 6 to 10 and 4, 6, 8 or all
/// plies, by nodes on FFO #40-#44, #45-#49 and #59 (see the crate README).
const SHALLOW_STORE_PLIES: u32 = 8;
const SHALLOW_STORE_MIN_EMPTIES: u32 = 12;
/// Fewest empties at which the stop flag and the limits are checked (every node that
/// stores in the table: an aborted search must not store its meaningless values).
const STOP_CHECK_MIN_EMPTIES: u32 = TT_MIN_EMPTIES;
/// Nodes between two looks at the clock and the shared node count.
const CHECK_NODES: u64 = 1 << 12;
/// Fewest empties at which helper threads are started.
const PARALLEL_MIN_EMPTIES: u32 = 14;
/// Fewest empties of a node whose younger brothers are put off while another thread
/// searches them (see [`BusyTable`]).
const DEFER_MIN_EMPTIES: u32 = 12;

/// The stability cutoff is tried when `alpha` reaches this (by empties): the opponent's
/// stable discs bound the score from above, and only a high `alpha` makes a cut likely
/// enough to pay for counting them. Edax's `NWS_STABILITY_THRESHOLD`.
const STABILITY_THRESHOLD: [i32; 65] = [
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46,
    48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64,
    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];

/// Empty squares of a position.
fn empty_count(p: u64, o: u64) -> u32 {
    (!(p | o)).count_ones()
}

/// An exact endgame solver with its transposition table; reuse it across positions to keep
/// the table warm (the table never gives wrong results for other positions: entries are
/// keyed by the whole board).
pub struct Solver {
    table: Arc<Table>,
    edges: &'static EdgeTable,
    eval: Arc<PatternEval>,
    nodes: u64,
    threads: usize,
    /// Positions being searched by some thread (shared with helper threads), this
    /// thread's index, and whether other threads search beside this one now.
    busy: Arc<BusyTable>,
    id: u64,
    parallel: bool,
    /// Set when the search must stop (shared with helper threads).
    stop: Arc<AtomicBool>,
    /// This thread's search was stopped: its values are meaningless and are not stored.
    aborted: bool,
    /// Nodes all threads may visit in this solve, and those they reported so far.
    node_budget: u64,
    spent: Arc<AtomicU64>,
    /// This thread's node count when it last added to `spent`.
    published: u64,
    deadline: Option<Instant>,
    next_check: u64,
    /// Fewest empties of a position whose shallow best move is written to the table, for
    /// the solve under way (see [`SHALLOW_STORE_PLIES`]).
    shallow_store_min: u32,
}

/// What a root search found.
struct RootResult {
    score: i32,
    best: Option<Move>,
    complete: bool,
}

/// Bounds on one solve's work; `None` is no bound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Most nodes, all threads together (checked every few thousand nodes per thread).
    pub nodes: Option<u64>,
    /// Most wall time.
    pub time: Option<Duration>,
}

/// A solve stopped by its [`Limits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("stopped by its limit after {nodes} nodes and {elapsed:?} before the score was known")]
pub struct Interrupted {
    /// Nodes visited, helper threads included.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// The best root move among those fully searched and a score it reaches at least, if
    /// one was.
    pub best: Option<(Move, i32)>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new(20)
    }
}

impl Solver {
    /// A solver with a table of `2^bits` entries (32 bytes each; 20 bits is 32 MiB).
    pub fn new(bits: u32) -> Self {
        let bits = bits.clamp(4, 30);
        Solver {
            table: Arc::new(Table::new(bits)),
            edges: EdgeTable::get(),
            eval: PatternEval::shipped(),
            nodes: 0,
            threads: 1,
            busy: Arc::new(BusyTable::new()),
            id: 0,
            parallel: false,
            stop: Arc::new(AtomicBool::new(false)),
            aborted: false,
            node_budget: u64::MAX,
            spent: Arc::new(AtomicU64::new(0)),
            published: 0,
            deadline: None,
            next_check: u64::MAX,
            shallow_store_min: 0,
        }
    }

    /// Forgets the table.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Positions visited since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Solves on `threads` threads (at least 1): helper threads search the same root,
    /// sharing the table, each putting off the moves another thread is on (from 12
    /// empties, see [`BusyTable`]), and the first to finish gives the answer. Positions
    /// with fewer than 14 empties use one thread.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The exact score and a best move of `state` for the side to move.
    pub fn solve(&mut self, state: &OthelloState) -> Solution {
        self.solve_window(state, -64, 64)
    }

    /// Like [`Solver::solve`] but only to tell win, draw and loss: the score's sign is
    /// exact, its size is a bound.
    pub fn solve_wld(&mut self, state: &OthelloState) -> Solution {
        self.solve_window(state, -1, 1)
    }

    /// Searches with the window `(alpha, beta)`: the score is exact when it lies strictly
    /// inside, otherwise a bound on the side it fell.
    pub fn solve_window(&mut self, state: &OthelloState, alpha: i32, beta: i32) -> Solution {
        // Without limits the search always completes.
        match self.try_solve_window(state, alpha, beta, Limits::default()) {
            Ok(s) => s,
            Err(i) => Solution {
                score: i.best.map_or(-64, |b| b.1),
                best: i.best.map(|b| b.0),
                nodes: i.nodes,
            },
        }
    }

    /// [`Solver::solve_window`] within `limits`: stops with [`Interrupted`] (and what was
    /// learned so far) when the nodes or the time run out. The table keeps only what was
    /// fully searched, so a later solve of the same position resumes from it.
    pub fn try_solve_window(
        &mut self,
        state: &OthelloState,
        alpha: i32,
        beta: i32,
        limits: Limits,
    ) -> Result<Solution, Interrupted> {
        let start = self.nodes;
        let t0 = Instant::now();
        self.aborted = false;
        self.stop.store(false, Relaxed);
        self.spent.store(0, Relaxed);
        self.published = start;
        self.node_budget = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.map(|t| t0 + t);
        self.next_check = start + CHECK_NODES;
        let (p, o) = (state.player(), state.opponent());
        let helpers = if self.threads > 1 && empty_count(p, o) >= PARALLEL_MIN_EMPTIES {
            self.threads - 1
        } else {
            0
        };
        self.order_by_shallow_searches(p, o);
        let r = if helpers == 0 {
            self.root(p, o, alpha, beta)
        } else {
            self.busy.clear();
            self.parallel = true;
            let r = std::thread::scope(|scope| {
                let handles: Vec<_> = (1..=helpers)
                    .map(|k| {
                        let mut h = self.helper(k as u64);
                        scope.spawn(move || {
                            let r = h.root(p, o, alpha, beta);
                            if r.complete {
                                // Done first: the others stop.
                                h.stop.store(true, Relaxed);
                            }
                            (r, h.nodes)
                        })
                    })
                    .collect();
                let mut r = self.root(p, o, alpha, beta);
                self.stop.store(true, Relaxed);
                for h in handles {
                    if let Ok((hr, nodes)) = h.join() {
                        self.nodes += nodes;
                        if !r.complete && hr.complete {
                            r = hr;
                        }
                    }
                }
                r
            });
            self.parallel = false;
            r
        };
        self.stop.store(false, Relaxed);
        let nodes = self.nodes - start;
        if r.complete {
            Ok(Solution {
                score: r.score,
                best: r.best,
                nodes,
            })
        } else {
            Err(Interrupted {
                nodes,
                elapsed: t0.elapsed(),
                best: r.best.map(|m| (m, r.score)),
            })
        }
    }

    /// A solver for a helper thread: the same table, evaluation and stop flag, its own
    /// node count.
    fn helper(&self, id: u64) -> Solver {
        Solver {
            table: self.table.clone(),
            edges: self.edges,
            eval: self.eval.clone(),
            nodes: 0,
            threads: 1,
            busy: self.busy.clone(),
            id,
            parallel: true,
            stop: self.stop.clone(),
            aborted: false,
            node_budget: self.node_budget,
            spent: self.spent.clone(),
            published: 0,
            deadline: self.deadline,
            next_check: CHECK_NODES,
            shallow_store_min: 0,
        }
    }

    /// The root search: every move, best first by the same ordering as inner nodes,
    /// shared with other threads as inner nodes are (see [`BusyTable`]).
    fn root(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> RootResult {
        let legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                self.nodes += 1;
                return RootResult {
                    score: final_score(p, o),
                    best: None,
                    complete: true,
                };
            }
            let score = -self.search(o, p, -beta, -alpha);
            return RootResult {
                score,
                best: Some(Move::PASS),
                complete: !self.aborted,
            };
        }
        let mut list = MoveList::new();
        let tt_best = self.table.probe(p, o).map_or(64, |e| e.best);
        self.order(p, o, legal, &mut list, tt_best, empty_count(p, o));
        let mut best = -65;
        let mut best_move = None;
        let mut a = alpha;
        let share = self.parallel;
        let mut visits = Visits::new(list.len);
        while let Some((i, first_pass)) = visits.next() {
            let sq = list.sq[i];
            let f = flips(p, o, sq as u32);
            let (np, no) = (o & !f, p | f | (1 << sq));
            let Some(mark) = self.claim(share, first_pass, i, np, no) else {
                visits.put_off(i);
                continue;
            };
            let v = if i == 0 {
                -self.search(np, no, -beta, -a)
            } else {
                let mut v = -self.search(np, no, -a - 1, -a);
                if v > a && v < beta && !self.aborted {
                    v = -self.search(np, no, -beta, -v);
                }
                v
            };
            self.release(mark);
            if self.aborted {
                return RootResult {
                    score: best,
                    best: best_move,
                    complete: false,
                };
            }
            if v > best {
                best = v;
                best_move = Move::square(sq);
                if v > a {
                    a = v;
                }
                if a >= beta {
                    break;
                }
            }
        }
        RootResult {
            score: best,
            best: best_move,
            complete: true,
        }
    }

    /// Iterative deepening of shallow searches from the root (depth 1 to
    /// [`SHALLOW_MAX_DEPTH`], the pattern evaluation at the horizon, exact scores where the
    /// game ends), as Edax and Egaroucid do before their exact search: each writes the best
    /// move of every position it visits to the table as a hint, with no bounds, and the
    /// exact search tries that move first. What it finds is a short win (FFO #59: a wipe-out
    /// seven plies down, which ordering by each child's evaluation alone does not see) and
    /// the principal lines.
    fn order_by_shallow_searches(&mut self, p: u64, o: u64) {
        let n = empty_count(p, o);
        if n < SHALLOW_MIN_EMPTIES {
            return;
        }
        let depth = SHALLOW_MAX_DEPTH.min(n - SHALLOW_LEAVE);
        self.shallow_store_min = SHALLOW_STORE_MIN_EMPTIES.max(n - SHALLOW_STORE_PLIES);
        for d in 1..=depth {
            self.shallow(p, o, d, -64, 64);
            if self.aborted {
                break;
            }
        }
    }

    /// Depth-limited negamax for [`Solver::order_by_shallow_searches`]: a guess, not a
    /// bound; only its best moves are kept.
    fn shallow(&mut self, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.shallow(o, p, depth, -beta, -alpha);
        }
        if depth == 0 {
            return (self.eval.score(p, o).round() as i32).clamp(-63, 63);
        }
        let n = empty_count(p, o);
        // The limits count these nodes too.
        if self.should_stop() {
            return 0;
        }
        let known = self.table.probe(p, o);
        let mut list = MoveList::new();
        self.order(p, o, legal, &mut list, known.map_or(64, |e| e.best), n);
        let (mut best, mut best_sq) = (-65, 64u8);
        for i in 0..list.len {
            let (sq, f) = (list.sq[i], list.flips[i]);
            let v = -self.shallow(o & !f, p | f | (1 << sq), depth - 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        // A hint only: never over what an exact search proved.
        let hint = known.is_none_or(|e| e.lower == -64 && e.upper == 64);
        if n >= self.shallow_store_min && hint {
            let e = Entry {
                lower: -64,
                upper: 64,
                best: best_sq,
                empties: n as u8,
            };
            self.table.store(p, o, e);
        }
        best
    }

    /// Before searching the `i`-th move (to `np`, `no`) of a node: `None` when the move is
    /// put off because another thread is searching it (only younger brothers, only in the
    /// first pass, only when `share`), otherwise this thread's mark on it, for
    /// [`Solver::release`].
    #[inline]
    fn claim(&self, share: bool, first_pass: bool, i: usize, np: u64, no: u64) -> Option<Mark> {
        if !share {
            return Some(Mark(None));
        }
        let h = BusyTable::hash(np, no);
        if first_pass && i > 0 && self.busy.busy_elsewhere(h, self.id) {
            return None;
        }
        Some(Mark(Some((h, self.busy.enter(h, self.id)))))
    }

    /// After the search of a claimed move.
    #[inline]
    fn release(&self, mark: Mark) {
        if let Mark(Some((h, m))) = mark {
            self.busy.leave(h, m);
        }
    }

    /// Whether the search must stop now: another thread finished or ran out of the
    /// budget, or this one did. Once true it stays true until the next solve. Every
    /// [`CHECK_NODES`] nodes a thread adds its nodes to the shared count and looks at the
    /// clock, so a limit is overshot by at most that many nodes per thread.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.stop.load(Relaxed) {
            self.aborted = true;
        } else if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_NODES;
            let fresh = self.nodes - self.published;
            self.published = self.nodes;
            let total = self.spent.fetch_add(fresh, Relaxed) + fresh;
            if total >= self.node_budget || self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
                self.stop.store(true, Relaxed);
            }
        }
        self.aborted
    }

    /// The exact score of every legal move of `state` for the side to move, best first
    /// (a pass when it is the only move; empty when the game is over).
    pub fn move_scores(&mut self, state: &OthelloState) -> Vec<(Move, i32)> {
        self.aborted = false;
        self.stop.store(false, Relaxed);
        self.node_budget = u64::MAX;
        self.deadline = None;
        let (p, o) = (state.player(), state.opponent());
        let mut legal = moves(p, o);
        let mut out = Vec::new();
        if legal == 0 {
            if moves(o, p) != 0 {
                out.push((Move::PASS, -self.search(o, p, -64, 64)));
            }
            return out;
        }
        while legal != 0 {
            let sq = legal.trailing_zeros();
            legal &= legal - 1;
            let f = flips(p, o, sq);
            let v = -self.search(o & !f, p | f | (1 << sq), -64, 64);
            out.push((Move::square(sq as u8).expect("square"), v));
        }
        out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        out
    }

    /// Orders the moves in `legal` into `list`, best guess first.
    fn order(&self, p: u64, o: u64, legal: u64, list: &mut MoveList, tt_best: u8, n: u32) {
        let empties = !(p | o);
        let odd = odd_quadrants(empties);
        let with_eval = n >= EVAL_SORT_MIN_EMPTIES;
        let mut m = legal;
        list.len = 0;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = flips(p, o, sq);
            let (np, no) = (o & !f, p | f | (1 << sq));
            let replies = moves(np, no);
            let mut key = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32 * 4;
            if odd >> sq & 1 == 0 {
                key += 2;
            }
            if with_eval {
                // The opponent's predicted disc difference after the move: 2 discs weigh
                // as much as one reply (a ratio tuned on FFO #40-#44 by node counts).
                key = key * 4 + (self.eval.score(np, no) * 8.0) as i32;
            }
            if sq as u8 == tt_best {
                key = -1000;
            }
            list.push(sq as u8, key, f, replies);
        }
        list.sort();
    }

    /// Negamax value of `p` to move against `o` within `(alpha, beta)`.
    fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let empties = !(p | o);
        let n = empties.count_ones();
        if n <= 4 {
            return self.small(p, o, alpha, beta, empties, n);
        }
        self.node(p, o, moves(p, o), alpha, beta)
    }

    /// [`Solver::search`] at 5 or more empties with the legal moves already known.
    fn node(&mut self, p: u64, o: u64, legal: u64, mut alpha: i32, mut beta: i32) -> i32 {
        let empties = !(p | o);
        let n = empties.count_ones();
        self.nodes += 1;
        if let Some(v) = self.stability_cut(p, o, alpha, n) {
            return v;
        }
        if legal == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.search(o, p, -beta, -alpha);
        }
        if n >= STOP_CHECK_MIN_EMPTIES && self.should_stop() {
            return 0;
        }
        if n < TT_MIN_EMPTIES {
            // Parity order: odd quadrants first.
            let odd = odd_quadrants(empties);
            let mut best = -65;
            let mut order = ParityOrder::new(legal, odd);
            while let Some(sq) = order.next() {
                let f = flips(p, o, sq);
                let v = -self.search(o & !f, p | f | (1 << sq), -beta, -alpha);
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            return best;
                        }
                    }
                }
            }
            return best;
        }
        // Transposition table.
        let known = self.table.probe(p, o);
        let mut tt_best = 64u8;
        if let Some(e) = known {
            let (lo, hi) = (e.lower as i32, e.upper as i32);
            if lo >= beta {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            if lo == hi {
                return lo;
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
            tt_best = e.best;
        }
        let alpha0 = alpha;
        let mut list = MoveList::new();
        if n >= SORT_MIN_EMPTIES {
            self.order(p, o, legal, &mut list, tt_best, n);
        }
        if n >= ETC_MIN_EMPTIES {
            if let Some(v) = self.etc(p, o, &list, beta) {
                return v;
            }
        }
        let mut best = -65;
        let mut best_sq = 64u8;
        // With other threads searching, a younger brother another thread is on is put
        // off and searched after the others (ABDADA; see `Visits`).
        let share = self.parallel && n >= DEFER_MIN_EMPTIES;
        let mut visits = Visits::new(list.len);
        while let Some((i, first_pass)) = visits.next() {
            let sq = list.sq[i];
            let f = list.flips[i];
            let (np, no) = (o & !f, p | f | (1 << sq));
            let r = list.replies[i];
            let Some(mark) = self.claim(share, first_pass, i, np, no) else {
                visits.put_off(i);
                continue;
            };
            let v = if i == 0 {
                -self.child(np, no, r, n - 1, -beta, -alpha)
            } else {
                let mut v = -self.child(np, no, r, n - 1, -alpha - 1, -alpha);
                if v > alpha && v < beta && !self.aborted {
                    v = -self.child(np, no, r, n - 1, -beta, -v);
                }
                v
            };
            self.release(mark);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let (lower, upper) = if best >= beta {
            (best, 64)
        } else if best > alpha0 {
            (best, best)
        } else {
            (-64, best)
        };
        // Merge with what the table knew about this position.
        let (lower, upper) = match known {
            Some(e) => (lower.max(e.lower as i32), upper.min(e.upper as i32)),
            None => (lower, upper),
        };
        self.table.store(
            p,
            o,
            Entry {
                lower: lower as i8,
                upper: upper.max(lower) as i8,
                best: best_sq,
                empties: n as u8,
            },
        );
        best
    }

    /// Enhanced transposition cutoff: a child whose stored upper bound already refutes it
    /// (the move scores `beta` or more) cuts without a search.
    fn etc(&self, p: u64, o: u64, list: &MoveList, beta: i32) -> Option<i32> {
        for i in 0..list.len {
            let f = list.flips[i];
            let (np, no) = (o & !f, p | f | (1 << list.sq[i]));
            if let Some(e) = self.table.probe(np, no) {
                if -(e.upper as i32) >= beta {
                    return Some(-(e.upper as i32));
                }
            }
        }
        None
    }

    /// The stability cutoff: an upper bound at or below `alpha` from the opponent's stable
    /// discs, or `None` when `alpha` is too low to try or the bound does not reach it.
    #[inline]
    fn stability_cut(&self, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
        if alpha >= STABILITY_THRESHOLD[n as usize] {
            let bound = 64 - 2 * self.edges.stable_discs(o, p).count_ones() as i32;
            if bound <= alpha {
                return Some(bound);
            }
        }
        None
    }

    /// A child with `n` empties whose legal moves `legal` are known.
    #[inline]
    fn child(&mut self, p: u64, o: u64, legal: u64, n: u32, alpha: i32, beta: i32) -> i32 {
        if n <= 4 {
            self.small(p, o, alpha, beta, !(p | o), n)
        } else {
            self.node(p, o, legal, alpha, beta)
        }
    }

    /// 1 to 4 empties: the empty squares tried in turn, no move generation.
    #[inline]
    fn small(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: u64, n: u32) -> i32 {
        match n {
            1 => self.solve_1(p, alpha, empties.trailing_zeros()),
            2 => {
                let (x1, x2) = (empties.trailing_zeros(), 63 - empties.leading_zeros());
                self.solve_2(p, o, alpha, beta, x1, x2)
            }
            3 => self.solve_3(p, o, alpha, beta, empties),
            _ => self.solve_4(p, o, alpha, beta, empties),
        }
    }

    /// Four empties, in parity order (squares of odd quadrants first); each child is a
    /// [`Solver::solve_3`].
    fn solve_4(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, empties: u64) -> i32 {
        self.nodes += 1;
        let odd = odd_quadrants(empties);
        let mut best = -65;
        let mut order = ParityOrder::new(empties, odd);
        while let Some(sq) = order.next() {
            if NEIGHBOURS[sq as usize] & o == 0 {
                continue;
            }
            let f = flips(p, o, sq);
            if f == 0 {
                continue;
            }
            let bit = 1u64 << sq;
            let v = -self.solve_3(o & !f, p | f | bit, -beta, -alpha, empties & !bit);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
        if best > -65 {
            return best;
        }
        if can_fill(o, p, empties) {
            return -self.solve_4(o, p, -beta, -alpha, empties);
        }
        final_score(p, o)
    }

    /// Three empties, in parity order; each child's two empties go straight to the
    /// inlined [`Solver::solve_2`] (a call per two-empties node would cost more than the
    /// node itself).
    fn solve_3(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, empties: u64) -> i32 {
        self.nodes += 1;
        let odd = odd_quadrants(empties);
        let mut best = -65;
        let mut order = ParityOrder::new(empties, odd);
        while let Some(sq) = order.next() {
            if NEIGHBOURS[sq as usize] & o == 0 {
                continue;
            }
            let f = flips(p, o, sq);
            if f == 0 {
                continue;
            }
            let bit = 1u64 << sq;
            let rest = empties & !bit;
            let (x1, x2) = (rest.trailing_zeros(), 63 - rest.leading_zeros());
            let v = -self.solve_2(o & !f, p | f | bit, -beta, -alpha, x1, x2);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
        if best > -65 {
            return best;
        }
        if can_fill(o, p, empties) {
            return -self.solve_3(o, p, -beta, -alpha, empties);
        }
        final_score(p, o)
    }

    /// Two empties `x1`, `x2`: unrolled, no parity (both squares are tried anyway).
    #[inline(always)]
    fn solve_2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, x1: u32, x2: u32) -> i32 {
        self.nodes += 1;
        let mut best = -65;
        if NEIGHBOURS[x1 as usize] & o != 0 {
            let f = flips(p, o, x1);
            if f != 0 {
                best = -self.solve_1(o & !f, -beta, x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOURS[x2 as usize] & o != 0 {
            let f = flips(p, o, x2);
            if f != 0 {
                let v = -self.solve_1(o & !f, -beta, x1);
                return v.max(best);
            }
        }
        if best > -65 {
            return best;
        }
        // Pass: the opponent plays, and the value is still the side to move's.
        let mut best = 65;
        if NEIGHBOURS[x1 as usize] & p != 0 {
            let f = flips(o, p, x1);
            if f != 0 {
                best = self.solve_1(p & !f, alpha, x2);
                if best <= alpha {
                    return best;
                }
            }
        }
        if NEIGHBOURS[x2 as usize] & p != 0 {
            let f = flips(o, p, x2);
            if f != 0 {
                let v = self.solve_1(p & !f, alpha, x1);
                return v.min(best);
            }
        }
        if best < 65 {
            return best;
        }
        final_score(p, o)
    }

    /// The last empty square `sq`, `p` to move (the opponent holds every other square).
    /// The value is exact, or an upper bound at or below `alpha`: when `p` cannot play
    /// there, the opponent's flips are only counted if the result could beat `alpha`.
    #[inline(always)]
    fn solve_1(&mut self, p: u64, alpha: i32, sq: u32) -> i32 {
        self.nodes += 1;
        let base = 2 * p.count_ones() as i32 - 62;
        let n = count_last_flip(p, sq);
        if n != 0 {
            return base + 2 * n as i32;
        }
        // `p` cannot play. If neither side can, the empty goes to the winner: 63 discs,
        // `p` ahead when it holds 32 or more. An opponent's move only lowers that.
        let none = if base >= 2 { base } else { base - 2 };
        if none <= alpha {
            return none;
        }
        let m = count_last_flip(!p & !(1u64 << sq), sq);
        if m != 0 {
            base - 2 - 2 * m as i32
        } else {
            none
        }
    }
}

/// The squares of a set, those in `odd` first, each part in increasing order (a plain
/// loop: iterating over an array of the two parts costs a stack round trip per node).
struct ParityOrder {
    now: u64,
    later: u64,
}

impl ParityOrder {
    #[inline(always)]
    fn new(set: u64, odd: u64) -> Self {
        ParityOrder {
            now: set & odd,
            later: set & !odd,
        }
    }

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.now == 0 {
            if self.later == 0 {
                return None;
            }
            self.now = self.later;
            self.later = 0;
        }
        let sq = self.now.trailing_zeros();
        self.now &= self.now - 1;
        Some(sq)
    }
}

/// Whether `p` has a move on one of the (few) `empties` against `o`.
#[inline]
fn can_fill(p: u64, o: u64, empties: u64) -> bool {
    let mut m = empties;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        if NEIGHBOURS[sq as usize] & o != 0 && flips(p, o, sq) != 0 {
            return true;
        }
    }
    false
}

/// A small fixed-capacity list of moves with sort keys (no allocation).
struct MoveList {
    sq: [u8; 32],
    key: [i32; 32],
    flips: [u64; 32],
    replies: [u64; 32],
    len: usize,
}

impl MoveList {
    fn new() -> Self {
        MoveList {
            sq: [0; 32],
            key: [0; 32],
            flips: [0; 32],
            replies: [0; 32],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, sq: u8, key: i32, flips: u64, replies: u64) {
        self.sq[self.len] = sq;
        self.key[self.len] = key;
        self.flips[self.len] = flips;
        self.replies[self.len] = replies;
        self.len += 1;
    }

    /// Insertion sort by increasing key (stable).
    fn sort(&mut self) {
        for i in 1..self.len {
            let (s, k, f, r) = (self.sq[i], self.key[i], self.flips[i], self.replies[i]);
            let mut j = i;
            while j > 0 && self.key[j - 1] > k {
                self.sq[j] = self.sq[j - 1];
                self.key[j] = self.key[j - 1];
                self.flips[j] = self.flips[j - 1];
                self.replies[j] = self.replies[j - 1];
                j -= 1;
            }
            self.sq[j] = s;
            self.key[j] = k;
            self.flips[j] = f;
            self.replies[j] = r;
        }
    }
}

/// One solved benchmark position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// Position label (e.g. `#40`).
    pub label: String,
    /// Empties.
    pub empties: u32,
    /// Score found.
    pub score: i32,
    /// Best move found.
    pub best: Option<Move>,
    /// Nodes visited.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// Solves each position from scratch (a cleared table each time, as Edax's test runs do)
/// on `threads` threads and times it.
pub fn bench_positions(
    positions: &[(String, OthelloState)],
    table_bits: u32,
    threads: usize,
) -> Vec<BenchLine> {
    let mut solver = Solver::new(table_bits);
    solver.set_threads(threads);
    positions
        .iter()
        .map(|(label, s)| {
            solver.clear();
            let t = Instant::now();
            let r = solver.solve(s);
            BenchLine {
                label: label.clone(),
                empties: s.empty_count(),
                score: r.score,
                best: r.best,
                nodes: r.nodes,
                elapsed: t.elapsed(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_quadrants_counts_each_quadrant() {
        const QUADRANTS: [u64; 4] = [
            0x0000_0000_0F0F_0F0F,
            0x0000_0000_F0F0_F0F0,
            0x0F0F_0F0F_0000_0000,
            0xF0F0_F0F0_0000_0000,
        ];
        let mut rng = yomi_core::Rng::seed_from_u64(3);
        for _ in 0..10_000 {
            let e = rng.next_u64() & rng.next_u64();
            let want = QUADRANTS
                .iter()
                .filter(|&&q| (e & q).count_ones() % 2 == 1)
                .fold(0, |m, &q| m | q);
            assert_eq!(odd_quadrants(e), want, "{e:#x}");
        }
    }

    #[test]
    fn a_position_is_busy_for_other_threads_only_while_marked() {
        let busy = BusyTable::new();
        let h = BusyTable::hash(0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        assert!(!busy.busy_elsewhere(h, 0) && !busy.busy_elsewhere(h, 1));
        let mark = busy.enter(h, 1);
        assert!(busy.busy_elsewhere(h, 0), "thread 0 sees thread 1's mark");
        assert!(
            !busy.busy_elsewhere(h, 1),
            "a thread never waits for itself"
        );
        // Another position in the same slot does not read as busy.
        let other = h ^ 1 << 40;
        assert!(!busy.busy_elsewhere(other, 0));
        // Thread 2 takes the slot over: thread 1's release leaves thread 2's mark.
        let mark2 = busy.enter(h, 2);
        busy.leave(h, mark);
        assert!(busy.busy_elsewhere(h, 0));
        busy.leave(h, mark2);
        assert!(!busy.busy_elsewhere(h, 0));
    }
}
