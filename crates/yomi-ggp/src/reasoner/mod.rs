//! The fast reasoner: the ground rules compiled into stratified rule evaluation over one
//! bit array per state, pushed incrementally from state to state.
//!
//! **Program.** After grounding, constant folding removes every static literal and every
//! proposition whose value never changes; what is left is small for the games GGP plays
//! (hundreds to a few thousand propositions). Each proposition is an OR of ANDs of
//! literals. Evaluation is split into lazy phases that mirror what a playout asks for:
//!
//! - *state phase*, when a state is made: everything `terminal` and `legal` depend on (and
//!   the goals, when the state is terminal);
//! - *move phase*, by `apply`: what the `next` propositions need beyond the state phase,
//!   with the `does` inputs of the joint move set;
//! - *goal phase*: what the goals need beyond the state phase.
//!
//! **Incremental evaluation** (the default; see `Incremental`). Consecutive states differ
//! in a few base propositions, so `step` works as a propnet does: it pushes the `does`
//! inputs of the moves played and then the base propositions that changed. Each
//! conjunction keeps a count of its false literals (a propnet's AND gate): a changed
//! literal moves the counts of the conjunctions that read it, a count that reaches or
//! leaves zero flips its conjunction and marks its head, and marked heads are re-decided
//! in topological order (an OR of conjunction bits); no conjunction body is evaluated
//! again. Legal moves guarded by the turn are compiled without the guard (see
//! `Incremental`), and so are views whose every rule tests one base proposition (`hoist`:
//! escort latch's moves come through such a view). Fresh states (initial state, parsed states) are evaluated in full.
//!
//! **Plain evaluation**: every proposition of a phase is evaluated in topological order
//! with short-circuiting. Without recursive components the phases are compiled into
//! *programs* specialised on a few switch base propositions (`control` in turn-taking
//! games; see `Programs`): folded per switch value, trivial views inlined, views nobody
//! outside the phase reads dropped, leaf heads (legal moves, `next`) grouped under a
//! shared literal tested once, and long views that only the state phase reads computed
//! lazily, when a reader's conjunction first tests them (zhadu's paths over empty cells,
//! asked for only from the cells its pieces stand on). Recursive views that survive
//! grounding (connectivity in hex, say) are evaluated as fixpoints of their strongly
//! connected component (monotone: negation is stratified), by the generic evaluator that
//! the self-check [`Reasoner::derived_values_consistent`] also uses.
//!
//! **State layout.** One `Box<[u64]>` per state: the base propositions (`true` atoms)
//! first, then the `next` propositions in the same order and the same word alignment, so
//! moving to the next state is a word copy; then the inputs and views; the legal-move bits
//! of each role (bit `k` mirrors the role's `k`-th legal proposition, so counting and
//! picking moves is word arithmetic); and with incremental evaluation the conjunction
//! values and the propagation marks. Equality and hashing look at the base words only (the
//! rest is derived from them). Cloning a state copies one array; playing never allocates.
//!
//! **Evaluation order.** At compile time a few seeded random games ([`SAMPLE_STEPS`]
//! steps) measure how often each proposition holds; every conjunction then tests its least
//! likely literal first, and every disjunction tries its most likely conjunction first.
//! The values are the same whatever the order; only the work changes.
//!
//! **Move index.** A `next` conjunction with a positive `does` literal (one per move in
//! most board games: `(next (cell 2 3 x)) <= (does x (move 2 2 2 3)) ...`) can only hold
//! when that move is played. Those whose other literals are known when the state is made
//! (inputs, state-phase views) are taken out of the move phase and filed under their
//! `does` proposition; `step` tries only the ones of the moves played. On dobutsu shogi
//! this is most of the program.
//!
//! # Table of contents (one concern per file)
//! - the types ([`Reasoner`], [`GdlState`], [`ReasonerStats`], the compiled `Incremental`
//!   and `Programs` layouts, the conjunction form), the bit helpers shared by both halves,
//!   and the read-only accessors (roles, actions, base propositions, term text): this
//!   file;
//! - compiling: grounding, constant folding, cones and topological order of the phases,
//!   the sampled literal order, the `does` index, building the incremental network and
//!   the switch programs, and the choice of evaluator ([`Reasoner::new`],
//!   [`Reasoner::new_fallback`], [`Reasoner::set_incremental`]): `compile`;
//! - guard hoisting, a rewrite of the folded rules before the phases are cut: `hoist`;
//! - running: making states, legal moves, the mover, `step` (plain, programs or
//!   incremental), the move phase, goals and rewards, and the self-check
//!   [`Reasoner::derived_values_consistent`]: `run`;
//! - running states on the lazy fallback, for games too large to ground (state layout,
//!   evaluation, steps): `fallback`, over the evaluator and term tables of `crate::lazy`.
//!
//! Dependencies go one way: `compile` uses `run` (sampled games order the literals and
//! choose the evaluator); `run` uses nothing from `compile`; `run` and `compile` call
//! `fallback`, which uses `crate::lazy`, which uses nothing from the reasoner; `compile`
//! calls `hoist`, which uses nothing.
//!
//! # Threads
//! A compiled [`Reasoner`] is immutable while it plays: every play-time method takes
//! `&self`, and all state lives in the [`GdlState`] the caller owns, so one reasoner is
//! shared by any number of threads (it is `Send + Sync`; share it behind an `Arc` or
//! clone it). The only interior mutability is the lazy fallback's term tables, behind a
//! `Mutex`. Compiling and [`Reasoner::set_incremental`] take `&mut self`, before sharing.

mod compile;
mod fallback;
mod hoist;
mod run;

use std::collections::HashMap;

use crate::ast::Term;
use crate::error::GdlError;
use crate::validate::{write_ground, Description};

const CYCLE: u32 = u32::MAX;
const NONE: u32 = u32::MAX;
/// Marks a move-phase entry whose proposition may already have been set by an indexed
/// `does` conjunction.
const PRESET: u32 = 1 << 31;

/// The most switch propositions plain evaluation is specialised on (`Programs`).
const MAX_SWITCHES: usize = 3;

/// Steps of random play sampled at compile time to order literals and conjunctions.
pub const SAMPLE_STEPS: usize = 400;

/// The compiled rules of one game.
///
/// Immutable at play time and shared between threads (see the module docs, *Threads*).
#[derive(Clone, Debug)]
pub struct Reasoner {
    desc: Description,
    roles: Vec<Term>,
    role_names: Vec<String>,
    words: usize,
    base_words: usize,
    base_terms: Vec<Term>,
    base_index: HashMap<Term, u32>,
    actions: Vec<Term>,
    action_text: Vec<String>,
    action_index: HashMap<Term, u32>,
    /// Per role: (legal proposition, action), by action.
    legal: Vec<Vec<(u32, u32)>>,
    /// Per role: the first word of its legal-move bits in a state (bit `k` mirrors
    /// `legal[role][k]`, so counting and picking legal moves is word arithmetic).
    legal_word: Vec<usize>,
    /// Per role, per action: the `does` proposition (or NONE).
    does: Vec<Vec<u32>>,
    /// Per action: whether it is the constant `noop`.
    noop: Vec<bool>,
    /// Per role: (goal proposition, value).
    goals: Vec<Vec<(u32, u32)>>,
    /// The `terminal` proposition, or NONE when it is constant false.
    terminal: u32,
    /// Per proposition: its conjunctions, as a range of `conj`.
    rules: Vec<(u32, u32)>,
    /// Per conjunction: its literals, as a range of `lits`.
    conj: Vec<(u32, u32)>,
    /// Literals: proposition << 1 | negated.
    lits: Vec<u32>,
    /// Per conjunction, as evaluated: its first literal inline, the rest as a range of
    /// `lits` (most conjunctions fail on their first literal; testing it without a range
    /// lookup is most of the speed of evaluation).
    cj: Vec<Conj>,
    phase_state: Vec<u32>,
    phase_goal: Vec<u32>,
    phase_move: Vec<u32>,
    /// Per `does` proposition: the move-phase conjunctions that contain it positively
    /// (and otherwise only state-phase and input literals), as a range of `does_conj`.
    /// They are tried only when their move is played.
    does_index: Vec<(u32, u32, u32)>,
    /// Per `does` proposition: the offset in `frame_masks` of its frame conjunctions
    /// (`(next b) <= (does ..) (true b)`, the last of its indexed conjunctions from the
    /// middle of its `does_index` entry on) as one mask per base word, or NONE. Plain
    /// evaluation copies those base bits to the next state by words instead of testing
    /// the conjunctions one by one.
    does_frame: Vec<u32>,
    frame_masks: Vec<u64>,
    /// The indexed conjunctions: head, the other literals as a range of `does_lits`, and
    /// the end of its group: the entries from it on that test the same literal first
    /// (skipped at once when it fails).
    does_conj: Vec<(u32, (u32, u32), u32)>,
    does_lits: Vec<u32>,
    /// Per `does` proposition: the groups of its indexed conjunctions (before the frame
    /// part) whose first literal is a positive base proposition, as a range of
    /// `scan_words`, and the index in `does_conj` where the other groups start. A move of
    /// a board game has one such group per square its piece may stand on
    /// (`(next (explorer ?x2 ?y2)) <= (does ..) (true (explorer ?x ?y)) ..`): instead of a
    /// test per group, one AND per base word finds the groups whose literal holds.
    does_scan: Vec<(u32, u32, u32)>,
    /// Base word, mask of the base propositions that start a group, and the offset in
    /// `scan_groups` of the first of those groups (the others follow in bit order).
    scan_words: Vec<(u32, u64, u32)>,
    /// Group starts in `does_conj`, in the order `scan_words` names them.
    scan_groups: Vec<u32>,
    /// The heads of indexed conjunctions (cleared before each move).
    does_heads: Vec<u32>,
    template: Box<[u64]>,
    init: Vec<u32>,
    /// The state phase as incremental propagation (see `Incremental`).
    inc: Incremental,
    /// Plain evaluation specialised by switch propositions (see `Programs`).
    progs: Programs,
    /// Statistics of the compiled program.
    pub stats: ReasonerStats,
    /// The fallback for games too large to ground (`crate::lazy`): when set, states are
    /// evaluated by it and the compiled fields above are empty.
    pub(crate) lazy: Option<std::sync::Arc<crate::lazy::Lazy>>,
}

/// The state and move phases compiled for incremental (differential) evaluation, as a
/// propnet does. Every state stores, beside each proposition, the value of each
/// conjunction of both phases and its count of false literals (one byte: a conjunction
/// has at most 255 of them, `compile::MAX_COUNTED_LITERALS`, or the network is not built).
/// A step pushes only what changed: the `does` inputs of the moves played, and then the
/// base propositions that differ between the two states. Each reader of a changed
/// proposition has its count moved by one; a count that reaches or leaves zero flips the
/// conjunction and marks its head, and marked heads are re-decided in topological order
/// (a head is the OR of its conjunction bits, a range of words); a head whose value
/// changed moves in turn the counts of its readers. A step costs what changed, not the
/// size of the rules, and no conjunction body is evaluated twice. (Before counting, a
/// literal that turned true had its conjunction's whole body evaluated again: zhadu 2.0×,
/// escort latch and mummy maze 1.5×, qyshinsu 1.4× slower, `ggp_count` 2,000 playouts with
/// the incremental evaluator forced, compile time included.)
///
/// **Layout in the state**, after the propositions: the conjunction values, the dirty
/// heads, the counts (eight to a word), the forced heads, and the mirror of guarded legal
/// moves. The state phase (`heads[..state_heads]`)
/// is brought up to date when a state is made and leaves no marks; marks on move-phase
/// heads (base changes, `does` inputs cleared after the move) stay pending in the state
/// until its next `step`, which settles them with the new move's inputs.
///
/// **Indexed conjunctions.** The `does`-indexed conjunctions of the move phase (see
/// `Reasoner::index_by_does`) are not part of the network: `step` tries those of the
/// played moves and *forces* their heads true for the move phase, then marks them for
/// re-decision at the next step.
///
/// **Guarded legal moves.** In turn-taking games every legal rule of a role reads the
/// same literal (`(true (control white))`), and a step flips it: hundreds of legal
/// conjunctions would be re-decided per step for a change that says only whose turn it
/// is. A legal proposition that no rule reads, and whose conjunctions all share one
/// literal (its *guard*; the one shared by the most such propositions), is compiled
/// without it: the network keeps the rest (the *inner* value: "this square is empty"),
/// which changes only when the board does, in the proposition's bit and in a mirror of
/// the legal-move bits; the legal-move bit is inner AND guard. When a guard changes, the
/// legal-move bits of its group are rewritten from the mirror by word masks, whatever the
/// group's size (the same idea as Sancho's separate networks per role to move, at the
/// price of a few words). Read legal moves from the legal-move bits, never from a
/// guarded proposition's bit.
///
/// Off (`on == false`) when the state or move phase has a recursive component: those
/// games evaluate both phases in full at every state.
#[derive(Clone, Debug, Default)]
struct Incremental {
    /// Whether steps use it.
    on: bool,
    /// Whether the game allows it (and it was compiled).
    built: bool,
    /// Per head, in topological order (state phase, then move phase): the proposition
    /// and its conjunctions `c0..c1`.
    heads: Vec<(u32, u32, u32)>,
    /// The number of state-phase heads (they come first).
    state_heads: usize,
    /// Per proposition: its position in `heads`, or NONE.
    head_of: Vec<u32>,
    /// Per head: the bit mirroring it among the legal-move bits, or NONE; with
    /// [`GUARDED`] set for a guarded head (its bit in the mirror is the slot +
    /// `inner_delta`, the legal-move bit is that AND its guard).
    head_slot: Vec<u32>,
    /// Per head: its guard literal, or NONE (see *Guarded legal moves*).
    head_guard: Vec<u32>,
    /// Per proposition: the guard groups whose literal reads it, as a range of
    /// `guard_groups`.
    guard_of: Vec<(u32, u32)>,
    /// Per guard group: its literal and the legal-move words it rules, as a range of
    /// `guard_masks` ((word, mask) pairs).
    guard_groups: Vec<(u32, u32, u32)>,
    guard_masks: Vec<(u32, u64)>,
    /// Bits from a legal-move bit to its mirror (the inner value of a guarded head).
    inner_delta: u32,
    /// Per conjunction: the position of its head in `heads`, its literals as a range of
    /// `lits` (least likely to hold first).
    conj: Vec<(u32, u32, u32)>,
    lits: Vec<u32>,
    /// Per proposition: the conjunctions that read it (conjunction << 1 | negated), as a
    /// range of `fan_list`.
    fan: Vec<(u32, u32)>,
    fan_list: Vec<u32>,
    /// The bit of conjunction 0's value in a state.
    conj_bit: usize,
    /// The first words of the dirty heads, the conjunctions' counts of false literals (one
    /// byte each, eight to a word) and the forced heads.
    dirty_heads: usize,
    counts: usize,
    forced: usize,
    /// Words of one bit per head (the dirty and forced regions).
    head_words: usize,
}

/// Plain evaluation of the state and move phases compiled per value of a few *switch*
/// base propositions. In turn-taking games every legal rule reads `(true (control X))`,
/// and a step flips it; fixing the switches' values folds the rules once at compile time:
/// a conjunction with a false switch literal is dropped, a true one is removed from its
/// conjunction, and heads left with no conjunction (or an empty one) become constants
/// written by word masks. When white is to move in breakthrough, black's legal rules
/// cost nothing and white's test one literal less. The program is picked by the state's
/// switch values (every combination is compiled, so the result never depends on which
/// states are reachable).
///
/// **Ops** (one flat `u32` array per phase, heads in topological order): a header
/// `len << OP_SHIFT | OP_SLOT | OP_PRESET | OP_LAZY`, the head proposition, with `OP_SLOT`
/// its legal-move bit (written beside it, so states need no copying of legal propositions
/// into legal-move bits), then per conjunction its literal count and literals. `OP_PRESET`
/// marks a head of indexed `does` conjunctions: already true means true; `OP_LAZY` a head
/// that reads lazy views (their literals carry `LAZY_LIT`).
///
/// **Lazy views.** A state-phase view that only other state-phase heads read, and whose
/// rules are long (at least [`LAZY_MIN_LITERALS`] literals) or read lazy views, is not
/// computed in the ops:
/// it is computed the first time a reader's conjunction gets as far as testing it, and a
/// *done* bit per view (cleared with the program's constant words) remembers that it was.
/// Zhadu's moves need a path over empty cells, `(canGoBetween ?v ?x ?xn)`, for every
/// pair of cells, but a legal rule tests it only from the cells its pieces stand on, after
/// `(true (piece ?p ?v ?x))` held. A lazy view's bit means nothing until its done bit is
/// set, so lazy views are never live (nothing outside the state phase reads them).
#[derive(Clone, Debug, Default)]
struct Programs {
    /// Whether plain steps use them (off for games with recursive components).
    built: bool,
    /// The switch propositions: bit `i` of a program's index is `switch[i]`'s value.
    switch: Vec<u32>,
    progs: Vec<Program>,
    /// The heads of indexed conjunctions, as (word, mask): cleared before each move.
    does_clear: Vec<(u32, u64)>,
    /// Per proposition: whether every program computes it when it is in the state phase
    /// (legal, terminal, goals, and what the goal and move phases read).
    live: Vec<bool>,
    /// Per proposition: its number among the views some program computes lazily, or NONE.
    lazy_id: Vec<u32>,
    /// The first word of the lazy views' done bits in a state (bit `k`: view number `k`).
    lazy_done: usize,
}

/// One specialisation (see `Programs`): constants as (word, mask, value), then ops.
#[derive(Clone, Debug, Default)]
struct Program {
    state_const: Vec<(u32, u64, u64)>,
    state_ops: Vec<u32>,
    state_scan: Scan,
    move_const: Vec<(u32, u64, u64)>,
    move_ops: Vec<u32>,
    move_scan: Scan,
    /// Per lazy-view number: the offset of its head in `lazy_ops`, or NONE where this
    /// program does not compute it lazily.
    lazy_at: Vec<u32>,
    /// The lazy views' heads, in the ops format.
    lazy_ops: Vec<u32>,
}

/// The conjunctions of a phase's leaf heads (heads no other head of the phase reads: legal
/// moves, `next`) whose first literal is a positive base proposition, found by word masks
/// after the ops have run: one AND per base word picks the conjunctions whose first
/// literal holds (`(<= (next (piece ?p ?v ?x)) (true (piece ?p ?v ?x)) ..)`: the pieces
/// on the board, not every square), instead of a test of each.
#[derive(Clone, Debug, Default)]
struct Scan {
    /// Base word, mask of the first literals in it, offset in `groups` of the first.
    words: Vec<(u32, u64, u32)>,
    /// Per first literal, in bit order: a range of `entries`.
    groups: Vec<(u32, u32)>,
    /// Head (with [`SCAN_LAZY`] where the literals read lazy views), legal-move slot (or
    /// NONE), the other literals as a range of `lits`.
    entries: Vec<(u32, u32, u32, u32)>,
    lits: Vec<u32>,
}

/// Flags a guarded head's legal-move slot in `Incremental::head_slot`.
const GUARDED: u32 = 1 << 31;

const OP_SLOT: u32 = 1;
const OP_PRESET: u32 = 2;
const OP_GUARD: u32 = 4;
const OP_LAZY: u32 = 8;
/// The header's length is shifted past the flags.
const OP_SHIFT: u32 = 4;
/// Flags a scanned conjunction whose literals read lazy views (in its head field).
const SCAN_LAZY: u32 = 1 << 31;
/// Flags a literal of a lazy view in the ops (in heads marked `OP_LAZY`, in scanned
/// conjunctions marked `SCAN_LAZY` and in lazy heads): only those look up the view.
const LAZY_LIT: u32 = 1 << 31;
/// The fewest literals (over all its conjunctions) of a view computed lazily (see
/// `Programs`, *Lazy views*): a shorter one costs less than the lazy test.
const LAZY_MIN_LITERALS: usize = 8;
/// The longest chain of lazy views reading lazy views (the depth of the recursion that
/// computes them).
const MAX_LAZY_DEPTH: u32 = 8;

/// One conjunction as evaluated: `first` and then `lits[rest.0..rest.1]` must all hold.
#[derive(Clone, Copy, Debug)]
struct Conj {
    first: u32,
    rest: (u32, u32),
}

/// Whether views whose every rule tests one base proposition are compiled without it
/// (`hoist`). Values are the same either way; only the speed differs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Hoisting {
    /// Where hoisting applies, compile both ways and keep the faster by the clock (more
    /// than 10 % faster, fastest of three alternated runs each): escort latch and ttcc4
    /// run 2.5-3.6× faster hoisted, tic-tac-toe, hitori and crisscross 5-25 % slower.
    #[default]
    Timed,
    /// Hoist wherever it applies.
    On,
    /// Never hoist.
    Off,
}

/// Sizes of the compiled program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReasonerStats {
    /// Ground rules before folding.
    pub ground_rules: usize,
    /// Base propositions.
    pub base: usize,
    /// Propositions evaluated per state in the state phase.
    pub state_phase: usize,
    /// Propositions evaluated per move in the move phase.
    pub move_phase: usize,
    /// Propositions evaluated on demand for goals.
    pub goal_phase: usize,
    /// Literals over all kept conjunctions.
    pub literals: usize,
    /// Move-phase conjunctions indexed by a `does` literal (tried only for the move played).
    pub does_indexed: usize,
    /// Mean conjunctions reached per step by the changed inputs (the work of incremental
    /// evaluation), in sampled random games; 0 when it is not available.
    pub fanout_per_step: usize,
    /// Conjunctions of the state and move phases (the work of plain evaluation).
    pub phase_conjunctions: usize,
    /// Whether steps use incremental evaluation.
    pub incremental: bool,
    /// Legal propositions the incremental network compiles without their guard (the
    /// literal all their rules share, `(true (control ?role))` in most turn-taking games).
    pub guarded_legal: usize,
    /// Views compiled without the base proposition all their rules test (`hoist`).
    pub hoisted_views: usize,
    /// State-phase views the programs compute only when a reader tests them (`Programs`,
    /// *Lazy views*); 0 where the clock found the programs faster without
    /// ([`Reasoner::set_lazy_views`] switches).
    pub lazy_views: usize,
    /// Base propositions plain evaluation is specialised on (`control` in most
    /// turn-taking games): one program per combination of their values.
    pub switches: usize,
    /// Whether plain evaluation runs the specialised programs (`Programs`).
    pub programs: bool,
    /// Time spent grounding (the rest of compiling is folding, ordering and building the
    /// evaluators).
    pub ground_time: std::time::Duration,
    /// Join steps grounding took (`crate::ground::MAX_GROUND_WORK`).
    pub ground_work: u64,
    /// Why grounding failed, when the game runs on the lazy fallback (rules evaluated
    /// state by state, see `crate::lazy`).
    pub fallback: Option<String>,
}

impl ReasonerStats {
    /// The evaluator steps use: `incremental`, `programs`, `plain` or `fallback`.
    pub fn engine(&self) -> &'static str {
        if self.fallback.is_some() {
            "fallback"
        } else if self.incremental {
            "incremental"
        } else if self.programs {
            "programs"
        } else {
            "plain"
        }
    }
}

/// Whose turn a state is, as stored in the state.
pub(crate) const TURN_TERMINAL: u8 = 255;
pub(crate) const TURN_SIMULTANEOUS: u8 = 254;

/// One game state: every proposition's bit, base propositions first.
#[derive(Debug)]
pub struct GdlState {
    pub(crate) bits: Box<[u64]>,
    pub(crate) base_words: u32,
    pub(crate) turn: u8,
}

impl Clone for GdlState {
    fn clone(&self) -> Self {
        GdlState {
            bits: self.bits.clone(),
            base_words: self.base_words,
            turn: self.turn,
        }
    }

    /// Copies into the storage already there when it has the size (the states of one game
    /// do): playout policies that try moves on a scratch state do not allocate.
    fn clone_from(&mut self, source: &Self) {
        if self.bits.len() == source.bits.len() {
            self.bits.copy_from_slice(&source.bits);
        } else {
            self.bits = source.bits.clone();
        }
        self.base_words = source.base_words;
        self.turn = source.turn;
    }
}

impl PartialEq for GdlState {
    fn eq(&self, other: &Self) -> bool {
        let n = self.base_words as usize;
        self.base_words == other.base_words && self.bits[..n] == other.bits[..n]
    }
}

impl Eq for GdlState {}

impl std::hash::Hash for GdlState {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.bits[..self.base_words as usize].hash(h);
    }
}

impl GdlState {
    /// A 64-bit hash of the base propositions.
    #[inline]
    pub fn fast_hash(&self) -> u64 {
        let mut h = 0x9E37_79B9_7F4A_7C15u64;
        for &w in &self.bits[..self.base_words as usize] {
            h = (h ^ w).wrapping_mul(0xFF51_AFD7_ED55_8CCD).rotate_left(29);
        }
        h ^ (h >> 32)
    }
}

#[inline(always)]
fn get(bits: &[u64], p: u32) -> bool {
    (bits[(p >> 6) as usize] >> (p & 63)) & 1 != 0
}

#[inline(always)]
fn put(bits: &mut [u64], p: u32, v: bool) {
    let w = &mut bits[(p >> 6) as usize];
    let m = 1u64 << (p & 63);
    if v {
        *w |= m;
    } else {
        *w &= !m;
    }
}

/// Whether literal `l` (proposition << 1 | negated) holds in `bits`.
#[inline(always)]
fn holds(bits: &[u64], l: u32) -> bool {
    let p = l >> 1;
    ((bits[(p >> 6) as usize] >> (p & 63)) ^ l as u64) & 1 == 1
}

impl Reasoner {
    /// In lazy mode (a game too large to ground), the first evaluation of a state that
    /// failed (exceeded the limits; that state ended the game with no goals).
    pub fn fallback_failure(&self) -> Option<GdlError> {
        self.lazy().and_then(crate::lazy::Lazy::failure)
    }

    /// The checked description this reasoner was compiled from.
    pub fn description(&self) -> &Description {
        &self.desc
    }

    /// The roles, in declaration order.
    pub fn roles(&self) -> &[Term] {
        &self.roles
    }

    /// The roles as text.
    pub fn role_names(&self) -> &[String] {
        &self.role_names
    }

    /// Every action any role can take, sorted; a move is an index into this list. (In
    /// lazy mode: the actions met so far, in order of first sight.)
    pub fn actions(&self) -> Vec<Term> {
        match self.lazy() {
            Some(lz) => lz.action_snapshot(),
            None => self.actions.clone(),
        }
    }

    /// How many actions [`Reasoner::actions`] lists.
    pub fn action_count(&self) -> usize {
        self.lazy()
            .map_or(self.actions.len(), crate::lazy::Lazy::action_count)
    }

    /// The term of action `a`.
    pub fn action(&self, a: u32) -> Option<Term> {
        match self.lazy() {
            Some(lz) => lz.action(a),
            None => self.actions.get(a as usize).cloned(),
        }
    }

    /// The text of action `a` (as the rule sheet spells it; empty for no action).
    pub fn action_text(&self, a: u32) -> String {
        match self.lazy() {
            Some(lz) => lz.action_text(a),
            None => self
                .action_text
                .get(a as usize)
                .cloned()
                .unwrap_or_default(),
        }
    }

    /// The action whose term is `t` (in lazy mode any term is named on first sight).
    pub fn action_of(&self, t: &Term) -> Option<u32> {
        match self.lazy() {
            Some(lz) => Some(lz.action_id(&self.desc, t)),
            None => self.action_index.get(t).copied(),
        }
    }

    /// The base propositions (the possible arguments of `true`), in bit order. (In lazy
    /// mode: those met so far.)
    pub fn base_terms(&self) -> Vec<Term> {
        match self.lazy() {
            Some(lz) => lz.base_snapshot(),
            None => self.base_terms.clone(),
        }
    }

    /// How many base propositions [`Reasoner::base_terms`] lists.
    pub fn base_count(&self) -> usize {
        self.lazy()
            .map_or(self.base_terms.len(), crate::lazy::Lazy::base_count)
    }

    /// The term of base proposition `b`.
    pub fn base_term(&self, b: u32) -> Option<Term> {
        match self.lazy() {
            Some(lz) => lz.base_term(b),
            None => self.base_terms.get(b as usize).cloned(),
        }
    }

    /// The base proposition whose term is `t` (in lazy mode any term is named on first
    /// sight).
    pub fn base_of(&self, t: &Term) -> Option<u32> {
        match self.lazy() {
            Some(lz) => Some(lz.base_id(t)),
            None => self.base_index.get(t).copied(),
        }
    }

    /// Writes a ground term as KIF text.
    pub fn term_text(&self, t: &Term) -> String {
        let mut s = String::new();
        write_ground(&self.desc.sheet.symbols, t, &mut s);
        s
    }

    /// The number of 64-bit words in a state.
    pub fn state_words(&self) -> usize {
        self.words
    }
}

// The thread-safety stated in the module docs.
const _: () = {
    const fn shared<T: Send + Sync>() {}
    shared::<Reasoner>();
    shared::<GdlState>();
};
