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
//! inputs of the moves played and then the base propositions that changed, and re-decides
//! only the conjunctions that read something that changed and the propositions whose
//! conjunctions changed, in topological order. Each state stores the value of every
//! conjunction beside the propositions; a literal that turns false clears its conjunction
//! without evaluating it. Fresh states (initial state, parsed states) are evaluated in
//! full.
//!
//! **Plain evaluation**: every proposition of a phase is evaluated in topological order
//! with short-circuiting. Without recursive components the phases are compiled into
//! *programs* specialised on a few switch base propositions (`control` in turn-taking
//! games; see `Programs`): folded per switch value, trivial views inlined, views nobody
//! outside the phase reads dropped, and leaf heads (legal moves, `next`) grouped under a
//! shared literal tested once. Recursive views that survive grounding (connectivity in
//! hex, say) are evaluated as fixpoints of their strongly connected component (monotone:
//! negation is stratified), by the generic evaluator that the self-check
//! [`Reasoner::derived_values_consistent`] also uses.
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

use std::collections::HashMap;

use crate::ast::{kw, Term};
use crate::error::GdlError;
use crate::ground::Grounding;
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
    /// The indexed conjunctions: head, and the other literals as a range of `does_lits`.
    does_conj: Vec<(u32, (u32, u32))>,
    does_lits: Vec<u32>,
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
/// conjunction of both phases. A step pushes only what changed: the `does` inputs of the
/// moves played, and then the base propositions that differ between the two states. The
/// conjunctions that read a changed proposition are marked, and the heads of marked
/// conjunctions are re-decided in topological order (a head is the OR of its conjunction
/// bits, a range of words); a head whose value changed marks in turn the conjunctions that
/// read it. A step costs what changed, not the size of the rules.
///
/// **Layout in the state**, after the propositions: the conjunction values, the dirty
/// heads, the dirty conjunctions, the forced heads. The state phase (`heads[..state_heads]`)
/// is brought up to date when a state is made and leaves no marks; marks on move-phase
/// heads (base changes, `does` inputs cleared after the move) stay pending in the state
/// until its next `step`, which settles them with the new move's inputs.
///
/// **Indexed conjunctions.** The `does`-indexed conjunctions of the move phase (see
/// `Reasoner::index_by_does`) are not part of the network: `step` tries those of the
/// played moves and *forces* their heads true for the move phase, then marks them for
/// re-decision at the next step.
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
    /// Per head: the bit mirroring it among the legal-move bits, or NONE.
    head_slot: Vec<u32>,
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
    /// The first words of the dirty heads, dirty conjunctions and forced heads.
    dirty_heads: usize,
    dirty_conj: usize,
    forced: usize,
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
/// `len << 2 | OP_SLOT | OP_PRESET`, the head proposition, with `OP_SLOT` its legal-move
/// bit (written beside it, so states need no copying of legal propositions into legal-move
/// bits), then per conjunction its literal count and literals. `OP_PRESET` marks a head
/// of indexed `does` conjunctions: already true means true.
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
}

/// One specialisation (see `Programs`): constants as (word, mask, value), then ops.
#[derive(Clone, Debug, Default)]
struct Program {
    state_const: Vec<(u32, u64, u64)>,
    state_ops: Vec<u32>,
    move_const: Vec<(u32, u64, u64)>,
    move_ops: Vec<u32>,
}

const OP_SLOT: u32 = 1;
const OP_PRESET: u32 = 2;
const OP_GUARD: u32 = 4;

/// Writes the constant words of a program.
#[inline(always)]
fn put_consts(bits: &mut [u64], consts: &[(u32, u64, u64)]) {
    for &(w, m, v) in consts {
        let x = &mut bits[w as usize];
        *x = (*x & !m) | v;
    }
}

/// Runs the ops of a program (see `Programs`). The program's constant words have cleared
/// its heads already, so a head is written only when one of its conjunctions holds.
#[inline]
fn exec(ops: &[u32], bits: &mut [u64]) {
    let mut i = 0;
    while i < ops.len() {
        let hdr = ops[i];
        let end = i + (hdr >> 3) as usize;
        if hdr & OP_GUARD != 0 {
            // The block's heads all need the literal: without it they stay false.
            i = if holds(bits, ops[i + 1]) { i + 2 } else { end };
            continue;
        }
        let p = ops[i + 1];
        let slot = ops[i + 2];
        let mut j = i + 2 + (hdr & OP_SLOT) as usize;
        i = end;
        if hdr & OP_PRESET != 0 && get(bits, p) {
            continue;
        }
        while j < end {
            let n = ops[j] as usize;
            if ops[j + 1..j + 1 + n].iter().all(|&l| holds(bits, l)) {
                bits[(p >> 6) as usize] |= 1 << (p & 63);
                if hdr & OP_SLOT != 0 {
                    bits[(slot >> 6) as usize] |= 1 << (slot & 63);
                }
                break;
            }
            j += 1 + n;
        }
    }
}

/// One head of a phase folded for a program: its conjunctions (none for a constant, whose
/// value is then known, or for a head of indexed conjunctions left with no other rule).
struct Folded {
    p: u32,
    preset: bool,
    slot: u32,
    conjs: Vec<Vec<u32>>,
}

/// The constant words and ops of a folded phase, leaving out the heads not `needed`.
/// Heads that no other head of the phase reads (legal moves, `next` propositions) come
/// last, grouped by a literal all their conjunctions share (least likely first): one
/// `OP_GUARD` test of it skips the group (in board games, all the moves from an empty
/// square). Every head's bit (and legal-move bit) is cleared by the constant words, except
/// heads of indexed conjunctions, which keep what those set.
#[allow(clippy::type_complexity)]
fn emit_phase(phase: &[Folded], val: &[Val], needed: &[bool]) -> (Vec<(u32, u64, u64)>, Vec<u32>) {
    let mut consts: std::collections::BTreeMap<u32, (u64, u64)> = Default::default();
    let mut konst = |q: u32, v: bool| {
        if q != NONE {
            let e = consts.entry(q / 64).or_default();
            e.0 |= 1 << (q % 64);
            if v {
                e.1 |= 1 << (q % 64);
            }
        }
    };
    let mut kept: Vec<&Folded> = Vec::new();
    for f in phase {
        let v = val[f.p as usize];
        if v != Val::Unknown {
            konst(f.p, v == Val::True);
            konst(f.slot, v == Val::True);
        } else if !f.conjs.is_empty() && needed[f.p as usize] {
            if !f.preset {
                konst(f.p, false);
                konst(f.slot, false);
            }
            kept.push(f);
        }
    }
    let mut read = std::collections::HashSet::new();
    for f in &kept {
        for &l in f.conjs.iter().flatten() {
            read.insert(l >> 1);
        }
    }
    let mut ops = Vec::new();
    let head = |ops: &mut Vec<u32>, f: &Folded, drop: u32| {
        let start = ops.len();
        ops.push(0);
        ops.push(f.p);
        if f.slot != NONE {
            ops.push(f.slot);
        }
        for c in &f.conjs {
            let n = ops.len();
            ops.push(0);
            ops.extend(c.iter().filter(|&&l| l != drop));
            ops[n] = (ops.len() - n - 1) as u32;
        }
        let flags = if f.slot != NONE { OP_SLOT } else { 0 } | if f.preset { OP_PRESET } else { 0 };
        ops[start] = ((ops.len() - start) as u32) << 3 | flags;
    };
    let mut leaves: Vec<(u32, &Folded)> = Vec::new();
    for f in kept {
        if read.contains(&f.p) {
            head(&mut ops, f, NONE);
        } else {
            let shared = f.conjs[0]
                .iter()
                .copied()
                .find(|l| f.conjs.iter().all(|c| c.contains(l)));
            leaves.push((shared.unwrap_or(NONE), f));
        }
    }
    // Stable: within a group the heads keep their order.
    leaves.sort_by_key(|&(l, _)| l);
    let mut k = 0;
    while k < leaves.len() {
        let l = leaves[k].0;
        let n = leaves[k..].iter().take_while(|&&(m, _)| m == l).count();
        if l == NONE || n == 1 {
            for &(_, f) in &leaves[k..k + n] {
                head(&mut ops, f, NONE);
            }
        } else {
            let start = ops.len();
            ops.push(0);
            ops.push(l);
            for &(_, f) in &leaves[k..k + n] {
                head(&mut ops, f, l);
            }
            ops[start] = ((ops.len() - start) as u32) << 3 | OP_GUARD;
        }
        k += n;
    }
    let consts = consts.into_iter().map(|(w, (m, v))| (w, m, v)).collect();
    (consts, ops)
}

/// The mask of bits `lo..hi` of word `w` (bit numbers counted over all words).
#[inline(always)]
fn word_mask(w: usize, lo: usize, hi: usize) -> u64 {
    let base = w * 64;
    let a = lo.max(base) - base;
    let b = hi.min(base + 64).saturating_sub(base);
    if a >= 64 {
        return 0;
    }
    let high = if b == 64 { !0u64 } else { (1u64 << b) - 1 };
    high & !((1u64 << a) - 1)
}

/// Whether any of bits `lo..hi` is set.
#[inline(always)]
fn any_in(bits: &[u64], lo: usize, hi: usize) -> bool {
    (lo / 64..hi.div_ceil(64)).any(|w| bits[w] & word_mask(w, lo, hi) != 0)
}

/// One conjunction as evaluated: `first` and then `lits[rest.0..rest.1]` must all hold.
#[derive(Clone, Copy, Debug)]
struct Conj {
    first: u32,
    rest: (u32, u32),
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
#[derive(Clone, Debug)]
pub struct GdlState {
    pub(crate) bits: Box<[u64]>,
    pub(crate) base_words: u32,
    pub(crate) turn: u8,
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

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Val {
    Unknown,
    True,
    False,
}

impl Reasoner {
    /// Grounds and compiles a checked description.
    ///
    /// # Errors
    /// [`GdlError::Game`] when the game is too large to ground, has more roles than
    /// [`yomi_core::MAX_PLAYERS`], or no initial state.
    pub fn new(desc: &Description) -> Result<Self, GdlError> {
        if desc.roles.len() > yomi_core::MAX_PLAYERS {
            return Err(GdlError::Game(format!(
                "{} roles; at most {} are supported",
                desc.roles.len(),
                yomi_core::MAX_PLAYERS
            )));
        }
        let ground_start = std::time::Instant::now();
        let g = match Grounding::new(desc) {
            Ok(g) => g,
            // Grounding fails only on its size limits: evaluate state by state instead.
            Err(e) => return Self::new_lazy(desc, e, ground_start.elapsed()),
        };
        let ground_time = ground_start.elapsed();
        let n_atoms = g.atoms.len();
        // Base propositions: the `true` atoms.
        let mut base_terms = Vec::new();
        let mut atom_base: Vec<u32> = vec![NONE; n_atoms];
        for (i, (rel, args)) in g.atoms.iter().enumerate() {
            if *rel == kw::TRUE {
                atom_base[i] = base_terms.len() as u32;
                base_terms.push(args[0].clone());
            }
        }
        let base_words = base_terms.len().div_ceil(64).max(1);
        let base_index: HashMap<Term, u32> = base_terms
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        // Proposition numbering: base, next (aligned to base), then everything else.
        let mut prop_of: Vec<u32> = vec![NONE; n_atoms];
        let mut next_prop = (2 * base_words * 64) as u32;
        for (i, (rel, args)) in g.atoms.iter().enumerate() {
            if *rel == kw::TRUE {
                prop_of[i] = atom_base[i];
            } else if *rel == kw::NEXT {
                match base_index.get(&args[0]) {
                    Some(&b) => prop_of[i] = (base_words * 64) as u32 + b,
                    None => {
                        prop_of[i] = next_prop;
                        next_prop += 1;
                    }
                }
            } else {
                prop_of[i] = next_prop;
                next_prop += 1;
            }
        }
        let nprops = next_prop as usize;
        let mut input = vec![false; nprops];
        for (i, (rel, _)) in g.atoms.iter().enumerate() {
            if *rel == kw::TRUE || *rel == kw::DOES {
                input[prop_of[i] as usize] = true;
            }
        }
        // Rules per proposition.
        let mut by_head: Vec<Vec<Vec<u32>>> = vec![Vec::new(); nprops];
        for r in &g.rules {
            let lits: Vec<u32> = r
                .body
                .iter()
                .map(|&(a, neg)| prop_of[a as usize] << 1 | neg as u32)
                .collect();
            by_head[prop_of[r.head as usize] as usize].push(lits);
        }
        // Constant folding.
        let mut val = vec![Val::Unknown; nprops];
        loop {
            let mut changed = false;
            for p in 0..nprops {
                if input[p] || val[p] != Val::Unknown {
                    continue;
                }
                let rules = &mut by_head[p];
                rules.retain_mut(|lits| {
                    let mut dead = false;
                    lits.retain(|&l| {
                        let v = val[(l >> 1) as usize];
                        let neg = l & 1 == 1;
                        match (v, neg) {
                            (Val::Unknown, _) => true,
                            (Val::True, false) | (Val::False, true) => false,
                            _ => {
                                dead = true;
                                false
                            }
                        }
                    });
                    !dead
                });
                if rules.iter().any(|l| l.is_empty()) {
                    val[p] = Val::True;
                    rules.clear();
                    changed = true;
                } else if rules.is_empty() {
                    val[p] = Val::False;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for p in 0..nprops {
            if input[p] {
                continue;
            }
            // Props never given a value and without rules (unused atoms) are false.
            if val[p] == Val::Unknown && by_head[p].is_empty() {
                val[p] = Val::False;
            }
        }
        // Roles, actions, legal, does, goals, terminal.
        let roles = desc.roles.clone();
        let role_names: Vec<String> = roles.iter().map(|r| desc.term_text(r)).collect();
        let mut actions: Vec<Term> = Vec::new();
        let mut action_index: HashMap<Term, u32> = HashMap::new();
        let mut legal_pairs: Vec<(usize, Term, u32)> = Vec::new();
        let mut does_pairs: Vec<(usize, Term, u32)> = Vec::new();
        let mut goals: Vec<Vec<(u32, u32)>> = vec![Vec::new(); roles.len()];
        let mut terminal = NONE;
        let mut const_true: Vec<u32> = Vec::new();
        for (i, (rel, args)) in g.atoms.iter().enumerate() {
            let p = prop_of[i];
            if !input[p as usize] && val[p as usize] == Val::True {
                const_true.push(p);
            }
            let role_ix = |t: &Term| roles.iter().position(|r| r == t);
            match *rel {
                kw::LEGAL | kw::DOES => {
                    if let Some(r) = role_ix(&args[0]) {
                        if !action_index.contains_key(&args[1]) {
                            action_index.insert(args[1].clone(), 0);
                            actions.push(args[1].clone());
                        }
                        if *rel == kw::LEGAL {
                            legal_pairs.push((r, args[1].clone(), p));
                        } else {
                            does_pairs.push((r, args[1].clone(), p));
                        }
                    }
                }
                kw::GOAL => {
                    if let (Some(r), Term::Sym(s)) = (role_ix(&args[0]), &args[1]) {
                        if let Ok(v) = desc.name(*s).parse::<u32>() {
                            if v <= 100 && val[p as usize] != Val::False {
                                goals[r].push((p, v));
                            }
                        }
                    }
                }
                kw::TERMINAL if val[p as usize] != Val::False => terminal = p,
                _ => {}
            }
        }
        // Actions in a fixed order (sorted terms), then ids.
        actions.sort();
        for (i, a) in actions.iter().enumerate() {
            action_index.insert(a.clone(), i as u32);
        }
        let action_text: Vec<String> = actions.iter().map(|a| desc.term_text(a)).collect();
        let noop: Vec<bool> = action_text
            .iter()
            .map(|t| t.eq_ignore_ascii_case("noop"))
            .collect();
        let mut legal: Vec<Vec<(u32, u32)>> = vec![Vec::new(); roles.len()];
        for (r, a, p) in legal_pairs {
            if val[p as usize] != Val::False {
                legal[r].push((p, action_index[&a]));
            }
        }
        for l in &mut legal {
            l.sort_by_key(|&(_, a)| a);
        }
        let mut does = vec![vec![NONE; actions.len()]; roles.len()];
        for (r, a, p) in does_pairs {
            does[r][action_index[&a] as usize] = p;
        }
        // Cones of what each phase needs.
        let cone = |targets: &[u32], stop: &[bool]| -> Vec<bool> {
            let mut seen = vec![false; nprops];
            let mut stack: Vec<u32> = targets.to_vec();
            while let Some(p) = stack.pop() {
                let pi = p as usize;
                if seen[pi] || input[pi] || stop[pi] || val[pi] != Val::Unknown {
                    continue;
                }
                seen[pi] = true;
                for lits in &by_head[pi] {
                    for &l in lits {
                        stack.push(l >> 1);
                    }
                }
            }
            seen
        };
        let none = vec![false; nprops];
        let mut tl_targets: Vec<u32> = legal.iter().flatten().map(|&(p, _)| p).collect();
        if terminal != NONE {
            tl_targets.push(terminal);
        }
        let need_state = cone(&tl_targets, &none);
        let goal_targets: Vec<u32> = goals.iter().flatten().map(|&(p, _)| p).collect();
        let need_goal = cone(&goal_targets, &need_state);
        let next_targets: Vec<u32> = (0..base_terms.len() as u32)
            .map(|b| (base_words * 64) as u32 + b)
            .collect();
        let need_move = cone(&next_targets, &need_state);
        // Topological order of the remaining propositions (components, dependencies first).
        let deps: Vec<Vec<usize>> = (0..nprops)
            .map(|p| {
                if input[p] || val[p] != Val::Unknown {
                    return Vec::new();
                }
                let mut d: Vec<usize> = by_head[p]
                    .iter()
                    .flatten()
                    .map(|&l| (l >> 1) as usize)
                    .filter(|&q| !input[q] && val[q] == Val::Unknown)
                    .collect();
                d.sort_unstable();
                d.dedup();
                d
            })
            .collect();
        let comps = crate::graph::tarjan(&deps);
        // Recursive components are evaluated as monotone fixpoints: negation inside one
        // (a sheet not stratified even once grounded) has no such meaning.
        let mut comp_of = vec![usize::MAX; nprops];
        for (i, c) in comps.iter().enumerate() {
            for &p in c {
                comp_of[p] = i;
            }
        }
        for c in comps
            .iter()
            .filter(|c| c.len() > 1 || deps[c[0]].contains(&c[0]))
        {
            for &p in c {
                for lits in &by_head[p] {
                    if let Some(&l) = lits
                        .iter()
                        .find(|&&l| l & 1 == 1 && comp_of[(l >> 1) as usize] == comp_of[p])
                    {
                        let text = |q: u32| {
                            g.atoms
                                .iter()
                                .enumerate()
                                .find(|&(i, _)| prop_of[i] == q)
                                .map_or_else(String::new, |(_, (rel, args))| {
                                    let t = if args.is_empty() {
                                        Term::Sym(*rel)
                                    } else {
                                        Term::Fn(*rel, args.clone())
                                    };
                                    desc.term_text(&t)
                                })
                        };
                        return Err(GdlError::Game(format!(
                            "negation is not stratified even between ground atoms: {} depends on \
                             (not {}), which depends on it",
                            text(p as u32),
                            text(l >> 1)
                        )));
                    }
                }
            }
        }
        let phase = |need: &[bool]| -> Vec<u32> {
            let mut out = Vec::new();
            for c in &comps {
                let members: Vec<u32> = c.iter().filter(|&&p| need[p]).map(|&p| p as u32).collect();
                if members.is_empty() {
                    continue;
                }
                let cyclic = c.len() > 1 || deps[c[0]].contains(&c[0]);
                if cyclic {
                    out.push(CYCLE);
                    out.push(members.len() as u32);
                }
                out.extend(members);
            }
            out
        };
        let phase_state = phase(&need_state);
        let phase_goal = phase(&need_goal);
        let phase_move = phase(&need_move);
        // Flatten the rules.
        let mut rules = vec![(0u32, 0u32); nprops];
        let mut conj = Vec::new();
        let mut lits = Vec::new();
        for p in 0..nprops {
            if input[p] || val[p] != Val::Unknown {
                continue;
            }
            let start = conj.len() as u32;
            for ls in &by_head[p] {
                let s = lits.len() as u32;
                lits.extend(ls.iter().copied());
                conj.push((s, lits.len() as u32));
            }
            rules[p] = (start, conj.len() as u32);
        }
        let mut words = nprops.div_ceil(64).max(2 * base_words);
        let mut legal_word = Vec::with_capacity(legal.len());
        for l in &legal {
            legal_word.push(words);
            words += l.len().div_ceil(64);
        }
        let mut template = vec![0u64; words].into_boxed_slice();
        for &p in &const_true {
            put(&mut template, p, true);
        }
        let init: Vec<u32> = g
            .init
            .iter()
            .filter_map(|t| base_index.get(t).copied())
            .collect();
        let count = |ph: &[u32]| ph.iter().filter(|&&p| p != CYCLE).count();
        let stats = ReasonerStats {
            ground_rules: g.rules.len(),
            base: base_terms.len(),
            state_phase: count(&phase_state),
            move_phase: count(&phase_move),
            goal_phase: count(&phase_goal),
            literals: lits.len(),
            does_indexed: 0,
            fanout_per_step: 0,
            phase_conjunctions: 0,
            incremental: false,
            switches: 0,
            programs: false,
            ground_time,
            ground_work: g.work,
            fallback: None,
        };
        let mut reasoner = Reasoner {
            desc: desc.clone(),
            roles,
            role_names,
            words,
            base_words,
            base_terms,
            base_index,
            actions,
            action_text,
            action_index,
            legal,
            legal_word,
            does,
            noop,
            goals,
            terminal,
            rules,
            conj,
            lits,
            cj: Vec::new(),
            phase_state,
            phase_goal,
            phase_move,
            does_index: Vec::new(),
            does_frame: Vec::new(),
            frame_masks: Vec::new(),
            does_conj: Vec::new(),
            does_lits: Vec::new(),
            does_heads: Vec::new(),
            template,
            init,
            inc: Incremental::default(),
            progs: Programs::default(),
            stats,
            lazy: None,
        };
        reasoner.finish_conjunctions();
        reasoner.order_by_sampled_truth();
        reasoner.finish_conjunctions();
        reasoner.index_by_does(&input);
        reasoner.build_incremental();
        reasoner.choose_evaluator();
        reasoner.build_programs();
        Ok(reasoner)
    }

    /// The lazy fallback evaluator (`crate::lazy`) for any game, whether or not it grounds:
    /// what games too large to ground run on, for tests and comparisons.
    ///
    /// # Errors
    /// [`GdlError::Game`] as [`Reasoner::new`] for games the fallback cannot evaluate.
    pub fn new_fallback(desc: &Description) -> Result<Self, GdlError> {
        Self::new_lazy(
            desc,
            GdlError::Game("the fallback was asked for".into()),
            std::time::Duration::ZERO,
        )
    }

    /// The lazy fallback (`crate::lazy`) for a game whose grounding failed with `why`.
    ///
    /// # Errors
    /// [`GdlError::Game`] when the fallback cannot evaluate the game either (its static
    /// relations exceed the limits, or its negation is stratified only between ground
    /// atoms), naming both reasons.
    fn new_lazy(
        desc: &Description,
        why: GdlError,
        ground_time: std::time::Duration,
    ) -> Result<Self, GdlError> {
        let lazy = crate::lazy::Lazy::new(desc)
            .map_err(|e| GdlError::Game(format!("{why}; the fallback evaluator: {e}")))?;
        let roles = desc.roles.clone();
        let role_names: Vec<String> = roles.iter().map(|r| desc.term_text(r)).collect();
        let stats = ReasonerStats {
            ground_time,
            fallback: Some(why.to_string()),
            ..Default::default()
        };
        Ok(Reasoner {
            desc: desc.clone(),
            roles,
            role_names,
            words: 0,
            base_words: 0,
            base_terms: Vec::new(),
            base_index: HashMap::new(),
            actions: Vec::new(),
            action_text: Vec::new(),
            action_index: HashMap::new(),
            legal: Vec::new(),
            legal_word: Vec::new(),
            does: Vec::new(),
            noop: Vec::new(),
            goals: Vec::new(),
            terminal: NONE,
            rules: Vec::new(),
            conj: Vec::new(),
            lits: Vec::new(),
            cj: Vec::new(),
            phase_state: Vec::new(),
            phase_goal: Vec::new(),
            phase_move: Vec::new(),
            does_index: Vec::new(),
            does_frame: Vec::new(),
            frame_masks: Vec::new(),
            does_conj: Vec::new(),
            does_lits: Vec::new(),
            does_heads: Vec::new(),
            template: Box::new([]),
            init: Vec::new(),
            inc: Incremental::default(),
            progs: Programs::default(),
            stats,
            lazy: Some(lazy),
        })
    }

    /// Compiles the state and move phases for incremental evaluation (`Incremental`),
    /// unless one has a recursive component, and appends its regions to the state layout.
    /// Runs after `Reasoner::index_by_does` (the indexed conjunctions stay out).
    fn build_incremental(&mut self) {
        if self.phase_state.contains(&CYCLE) || self.phase_move.contains(&CYCLE) {
            return;
        }
        let nprops = self.rules.len();
        let mut inc = Incremental {
            on: true,
            built: true,
            head_of: vec![NONE; nprops],
            ..Incremental::default()
        };
        let order: Vec<u32> = self
            .phase_state
            .iter()
            .chain(&self.phase_move)
            .map(|&p| p & !PRESET)
            .collect();
        inc.state_heads = self.phase_state.len();
        let mut readers: Vec<Vec<u32>> = vec![Vec::new(); nprops];
        for (h, &p) in order.iter().enumerate() {
            inc.head_of[p as usize] = h as u32;
            let (a, b) = self.rules[p as usize];
            let c0 = inc.conj.len() as u32;
            for c in &self.cj[a as usize..b as usize] {
                let id = inc.conj.len() as u32;
                let s = inc.lits.len() as u32;
                inc.lits.push(c.first);
                inc.lits
                    .extend_from_slice(&self.lits[c.rest.0 as usize..c.rest.1 as usize]);
                for &l in &inc.lits[s as usize..] {
                    // Reader entries: conjunction << 1 | negated.
                    let r = &mut readers[(l >> 1) as usize];
                    if r.last().map(|&f| f >> 1) != Some(id) {
                        r.push(id << 1 | (l & 1));
                    }
                }
                inc.conj.push((h as u32, s, inc.lits.len() as u32));
            }
            inc.heads.push((p, c0, inc.conj.len() as u32));
        }
        inc.head_slot = vec![NONE; inc.heads.len()];
        for (r, l) in self.legal.iter().enumerate() {
            for (k, &(p, _)) in l.iter().enumerate() {
                let h = inc.head_of[p as usize];
                if h != NONE {
                    inc.head_slot[h as usize] = (self.legal_word[r] * 64 + k) as u32;
                }
            }
        }
        inc.fan = Vec::with_capacity(nprops);
        for r in readers {
            let s = inc.fan_list.len() as u32;
            inc.fan_list.extend(r);
            inc.fan.push((s, inc.fan_list.len() as u32));
        }
        let (nh, nc) = (inc.heads.len().div_ceil(64), inc.conj.len().div_ceil(64));
        inc.conj_bit = self.words * 64;
        inc.dirty_heads = self.words + nc;
        inc.dirty_conj = inc.dirty_heads + nh;
        inc.forced = inc.dirty_conj + nc;
        self.words = inc.forced + nh;
        let mut t = self.template.to_vec();
        t.resize(self.words, 0);
        self.template = t.into_boxed_slice();
        self.inc = inc;
    }

    /// Compiles plain evaluation per value of the switch propositions (`Programs`), unless
    /// the state or move phase has a recursive component. The switches are the (at most
    /// [`MAX_SWITCHES`]) base propositions read by the most state-phase conjunctions, each
    /// by at least an eighth of them.
    fn build_programs(&mut self) {
        if self.phase_state.contains(&CYCLE) || self.phase_move.contains(&CYCLE) {
            return;
        }
        let nprops = self.rules.len();
        let nbase = self.base_terms.len();
        let mut reads = vec![0usize; nbase];
        let mut total = 0;
        for &e in &self.phase_state {
            let (a, b) = self.rules[(e & !PRESET) as usize];
            for c in &self.cj[a as usize..b as usize] {
                total += 1;
                let rest = &self.lits[c.rest.0 as usize..c.rest.1 as usize];
                for &l in std::iter::once(&c.first).chain(rest) {
                    if ((l >> 1) as usize) < nbase {
                        reads[(l >> 1) as usize] += 1;
                    }
                }
            }
        }
        let mut by_reads: Vec<u32> = (0..nbase as u32).collect();
        by_reads.sort_by_key(|&b| std::cmp::Reverse(reads[b as usize]));
        let switch: Vec<u32> = by_reads
            .into_iter()
            .take(MAX_SWITCHES)
            .filter(|&b| reads[b as usize] >= (total / 8).max(2))
            .collect();
        let mut slot_of = vec![NONE; nprops];
        for (r, l) in self.legal.iter().enumerate() {
            for (k, &(p, _)) in l.iter().enumerate() {
                let slot = (self.legal_word[r] * 64 + k) as u32;
                slot_of[p as usize] = slot;
                // Constant legal propositions are in no phase: their bits come with the
                // template.
                if get(&self.template, p) {
                    put(&mut self.template, slot, true);
                }
            }
        }
        // What must be computed whatever the switches: the legal propositions, `terminal`,
        // the goals, and the state-phase propositions the goal and move phases read
        // (from their unfolded rules, so that the same set holds in every program and
        // `derived_values_consistent` can check it).
        let mut live = vec![false; nprops];
        for &(p, _) in self.legal.iter().flatten() {
            live[p as usize] = true;
        }
        if self.terminal != NONE {
            live[self.terminal as usize] = true;
        }
        for &(p, _) in self.goals.iter().flatten() {
            live[p as usize] = true;
        }
        for phase in [&self.phase_goal, &self.phase_move] {
            for &e in phase.iter() {
                let (a, b) = self.rules[(e & !PRESET) as usize];
                for c in &self.cj[a as usize..b as usize] {
                    live[(c.first >> 1) as usize] = true;
                    for &l in &self.lits[c.rest.0 as usize..c.rest.1 as usize] {
                        live[(l >> 1) as usize] = true;
                    }
                }
            }
        }
        for &l in &self.does_lits {
            live[(l >> 1) as usize] = true;
        }
        let mut progs = Vec::new();
        for key in 0..1usize << switch.len() {
            let mut val = vec![Val::Unknown; nprops];
            for (i, &b) in switch.iter().enumerate() {
                val[b as usize] = if key >> i & 1 == 1 {
                    Val::True
                } else {
                    Val::False
                };
            }
            let mut alias = vec![NONE; nprops];
            let state = self.fold_phase(&self.phase_state, &mut val, &mut alias, &slot_of);
            // The move phase runs on the same state, so state-phase constants fold too; and
            // the joint move is legal, so a move whose legal proposition is constant false
            // is not played, and a role whose only possible move is constant legal plays
            // it (the waiting role's `noop`).
            for (r, l) in self.legal.iter().enumerate() {
                let open: Vec<&(u32, u32)> = l
                    .iter()
                    .filter(|&&(p, _)| val[p as usize] != Val::False)
                    .collect();
                for &(p, a) in l {
                    let d = self.does[r][a as usize];
                    if d == NONE {
                        continue;
                    }
                    if val[p as usize] == Val::False {
                        val[d as usize] = Val::False;
                    } else if open.len() == 1 && val[p as usize] == Val::True {
                        val[d as usize] = Val::True;
                    }
                }
            }
            let moves = self.fold_phase(&self.phase_move, &mut val, &mut alias, &slot_of);
            // The state-phase heads worth computing: the live ones and, backwards in
            // topological order, whatever a needed head's folded rules read.
            let mut needed = live.clone();
            for f in &moves {
                for &l in f.conjs.iter().flatten() {
                    needed[(l >> 1) as usize] = true;
                }
            }
            for f in state.iter().rev() {
                if needed[f.p as usize] {
                    for &l in f.conjs.iter().flatten() {
                        needed[(l >> 1) as usize] = true;
                    }
                }
            }
            let mut prog = Program::default();
            (prog.state_const, prog.state_ops) = emit_phase(&state, &val, &needed);
            (prog.move_const, prog.move_ops) = emit_phase(&moves, &val, &vec![true; nprops]);
            progs.push(prog);
        }
        let mut clear: std::collections::BTreeMap<u32, u64> = Default::default();
        for &h in &self.does_heads {
            *clear.entry(h / 64).or_default() |= 1 << (h % 64);
        }
        self.stats.switches = switch.len();
        self.stats.programs = true;
        self.progs = Programs {
            built: true,
            switch,
            progs,
            does_clear: clear.into_iter().collect(),
            live,
        };
    }

    /// One phase folded under the known values `val`, which it extends with the heads it
    /// finds constant. A head left with one single-literal conjunction becomes an alias of
    /// that literal in `alias`: later heads read the literal instead (a view such as
    /// `(cell_piece_kind ?role ?col ?row ?piece ?kind) <= (true (board ?col ?row ?piece))`
    /// then costs nothing where nothing else reads it).
    fn fold_phase(
        &self,
        phase: &[u32],
        val: &mut [Val],
        alias: &mut [u32],
        slot_of: &[u32],
    ) -> Vec<Folded> {
        let mut out = Vec::new();
        for &e in phase {
            let (p, preset) = (e & !PRESET, e & PRESET != 0);
            let (a, b) = self.rules[p as usize];
            let mut conjs: Vec<Vec<u32>> = Vec::new();
            let mut always = false;
            for c in &self.cj[a as usize..b as usize] {
                let rest = &self.lits[c.rest.0 as usize..c.rest.1 as usize];
                let mut kept: Vec<u32> = Vec::new();
                let mut dead = false;
                for &l0 in std::iter::once(&c.first).chain(rest) {
                    let q = (l0 >> 1) as usize;
                    let l = if alias[q] != NONE {
                        alias[q] ^ (l0 & 1)
                    } else {
                        l0
                    };
                    match val[(l >> 1) as usize] {
                        Val::Unknown if kept.contains(&(l ^ 1)) => dead = true,
                        Val::Unknown if !kept.contains(&l) => kept.push(l),
                        Val::Unknown => {}
                        v => dead = (v == Val::True) == (l & 1 == 1),
                    }
                    if dead {
                        break;
                    }
                }
                if dead {
                    continue;
                }
                if kept.is_empty() {
                    always = true;
                    break;
                }
                conjs.push(kept);
            }
            if always {
                val[p as usize] = Val::True;
                conjs.clear();
            } else if conjs.is_empty() && !preset {
                val[p as usize] = Val::False;
            } else if !preset && conjs.len() == 1 && conjs[0].len() == 1 {
                alias[p as usize] = conjs[0][0];
            }
            out.push(Folded {
                p,
                preset,
                slot: slot_of[p as usize],
                conjs,
            });
        }
        out
    }

    /// The program for the switch values of `bits`.
    #[inline(always)]
    fn program(&self, bits: &[u64]) -> &Program {
        let mut key = 0;
        for (i, &b) in self.progs.switch.iter().enumerate() {
            key |= (get(bits, b) as usize) << i;
        }
        &self.progs.progs[key]
    }

    /// Keeps incremental evaluation only where it does less work than plain evaluation:
    /// along a few seeded random games ([`SAMPLE_STEPS`] steps), the conjunctions reached
    /// by the changed inputs of a step (the played `does` inputs, twice, and the changed
    /// base propositions) must average under a third of the conjunctions plain
    /// evaluation visits (each reached conjunction costs several plain visits: marking,
    /// evaluation, re-deciding its head). Games where a step flips an input that most
    /// rules read (`control` in tic-tac-toe and breakthrough) stay plain. Either way the
    /// values are the same.
    fn choose_evaluator(&mut self) {
        if !self.inc.on {
            return;
        }
        let fan = |p: u32| {
            let (s, e) = self.inc.fan[p as usize];
            (e - s) as u64
        };
        let mut rng = yomi_core::Rng::seed_from_u64(0x6767_7022);
        let mut s = self.initial_state();
        let mut joint = vec![0u32; self.roles.len()];
        let mut legal = Vec::new();
        let (mut reached, mut steps) = (0u64, 0u64);
        for _ in 0..SAMPLE_STEPS {
            if s.turn == TURN_TERMINAL {
                s = self.initial_state();
                if s.turn == TURN_TERMINAL {
                    break;
                }
            }
            for (r, slot) in joint.iter_mut().enumerate() {
                self.legal_into(&s, r, &mut legal);
                *slot = legal[rng.below(legal.len())];
                let d = self.does[r][*slot as usize];
                if d != NONE {
                    reached += 2 * fan(d);
                }
            }
            let before = s.bits[..self.base_words].to_vec();
            self.step(&mut s, &joint);
            for (w, &old) in before.iter().enumerate() {
                let mut diff = old ^ s.bits[w];
                while diff != 0 {
                    reached += fan((w * 64) as u32 + diff.trailing_zeros());
                    diff &= diff - 1;
                }
            }
            steps += 1;
        }
        let per_step = reached / steps.max(1);
        let plain = self.inc.conj.len() as u64;
        self.stats.fanout_per_step = per_step as usize;
        self.stats.phase_conjunctions = plain as usize;
        self.inc.on = steps > 0 && 3 * per_step < plain;
        self.stats.incremental = self.inc.on;
    }

    /// Pushes the new value `v` of proposition `p` to the conjunctions that read it: a
    /// literal that became false clears its conjunction at once (marking the head when the
    /// conjunction held); one that became true marks its conjunction for evaluation.
    #[inline(always)]
    fn mark_readers(&self, bits: &mut [u64], p: u32, v: bool) {
        let inc = &self.inc;
        let (s, e) = inc.fan[p as usize];
        for &f in &inc.fan_list[s as usize..e as usize] {
            let c = f >> 1;
            let h = inc.conj[c as usize].0;
            if v ^ (f & 1 == 1) {
                bits[inc.dirty_conj + (c >> 6) as usize] |= 1 << (c & 63);
            } else {
                let cw = &mut bits[inc.conj_bit / 64 + (c >> 6) as usize];
                let m = 1u64 << (c & 63);
                if *cw & m == 0 {
                    continue;
                }
                *cw &= !m;
            }
            bits[inc.dirty_heads + (h >> 6) as usize] |= 1 << (h & 63);
        }
    }

    /// Re-decides the marked heads among `heads[..limit]` in topological order, clearing
    /// their marks (and those of their conjunctions).
    fn propagate(&self, bits: &mut [u64], limit: usize) {
        let inc = &self.inc;
        let cb = inc.conj_bit;
        let (dh, dc, fh) = (inc.dirty_heads, inc.dirty_conj, inc.forced);
        let mut w = 0;
        while w < limit.div_ceil(64) {
            let word = bits[dh + w] & word_mask(w, 0, limit);
            if word == 0 {
                w += 1;
                continue;
            }
            let b = word.trailing_zeros() as usize;
            bits[dh + w] &= !(1u64 << b);
            let h = w * 64 + b;
            let (p, c0, c1) = inc.heads[h];
            let (c0, c1) = (c0 as usize, c1 as usize);
            if c1 == c0 + 1 && (bits[fh + w] >> b) & 1 == 0 {
                // One conjunction (most heads): the head is its value.
                let (cw, m) = (dc + c0 / 64, 1u64 << (c0 % 64));
                let v = if bits[cw] & m != 0 {
                    bits[cw] &= !m;
                    let (_, ls, le) = inc.conj[c0];
                    let v = inc.lits[ls as usize..le as usize]
                        .iter()
                        .all(|&l| holds(bits, l));
                    put(bits, (cb + c0) as u32, v);
                    v
                } else {
                    get(bits, (cb + c0) as u32)
                };
                if v != get(bits, p) {
                    put(bits, p, v);
                    let slot = inc.head_slot[h];
                    if slot != NONE {
                        put(bits, slot, v);
                    }
                    self.mark_readers(bits, p, v);
                }
                continue;
            }
            for cw in c0 / 64..c1.div_ceil(64) {
                let mut m = bits[dc + cw] & word_mask(cw, c0, c1);
                bits[dc + cw] ^= m;
                while m != 0 {
                    let c = cw * 64 + m.trailing_zeros() as usize;
                    m &= m - 1;
                    let (_, ls, le) = inc.conj[c];
                    let v = inc.lits[ls as usize..le as usize]
                        .iter()
                        .all(|&l| holds(bits, l));
                    put(bits, (cb + c) as u32, v);
                }
            }
            let v = (bits[fh + w] >> b) & 1 != 0 || any_in(bits, cb + c0, cb + c1);
            if v != get(bits, p) {
                put(bits, p, v);
                let slot = inc.head_slot[h];
                if slot != NONE {
                    put(bits, slot, v);
                }
                self.mark_readers(bits, p, v);
            }
        }
    }

    /// Both phases in full, conjunction bits included, with no `does` input set (fresh
    /// states: no marks pending).
    fn settle_full_incremental(&self, bits: &mut [u64]) {
        let inc = &self.inc;
        let cb = inc.conj_bit as u32;
        for &(p, c0, c1) in &inc.heads {
            let mut any = false;
            for c in c0..c1 {
                let (_, ls, le) = inc.conj[c as usize];
                let v = inc.lits[ls as usize..le as usize]
                    .iter()
                    .all(|&l| holds(bits, l));
                put(bits, cb + c, v);
                any |= v;
            }
            put(bits, p, any);
        }
    }

    /// The step of the incremental evaluator (see `Incremental`).
    fn step_incremental(&self, s: &mut GdlState, joint: &[u32]) {
        let inc = &self.inc;
        let bits = &mut s.bits[..];
        let nr = self.roles.len();
        // The move phase: the played moves' `does` inputs, then their indexed conjunctions
        // (which may read another role's `does`).
        for (r, &a) in joint.iter().enumerate().take(nr) {
            if let Some(&d) = self.does[r].get(a as usize) {
                if d != NONE {
                    put(bits, d, true);
                    self.mark_readers(bits, d, true);
                }
            }
        }
        for (r, &a) in joint.iter().enumerate().take(nr) {
            let Some(&d) = self.does[r].get(a as usize) else {
                continue;
            };
            let Some(&(cs, _, ce)) = self.does_index.get(d as usize) else {
                continue;
            };
            for &(head, (ls, le)) in &self.does_conj[cs as usize..ce as usize] {
                if self.does_lits[ls as usize..le as usize]
                    .iter()
                    .all(|&l| holds(bits, l))
                {
                    let h = inc.head_of[head as usize] as usize;
                    bits[inc.forced + h / 64] |= 1 << (h % 64);
                    bits[inc.dirty_heads + h / 64] |= 1 << (h % 64);
                }
            }
        }
        self.propagate(bits, inc.heads.len());
        // Forced heads and `does` inputs go back to their values without the move; their
        // re-decision waits for the next step.
        for w in inc.forced..inc.forced + (inc.dirty_conj - inc.dirty_heads) {
            let f = bits[w];
            if f != 0 {
                bits[w] = 0;
                bits[w - inc.forced + inc.dirty_heads] |= f;
            }
        }
        for (r, &a) in joint.iter().enumerate().take(nr) {
            if let Some(&d) = self.does[r].get(a as usize) {
                if d != NONE {
                    put(bits, d, false);
                    self.mark_readers(bits, d, false);
                }
            }
        }
        // The next state: push the base propositions that changed.
        let bw = self.base_words;
        for w in 0..bw {
            let mut diff = bits[w] ^ bits[bw + w];
            while diff != 0 {
                let b = (w * 64) as u32 + diff.trailing_zeros();
                diff &= diff - 1;
                self.mark_readers(bits, b, get(bits, bw as u32 * 64 + b));
            }
        }
        bits.copy_within(bw..2 * bw, 0);
        self.propagate(bits, inc.state_heads);
        self.decide_turn(s);
    }

    /// Whether the derived values stored in `s` (state-phase propositions and the
    /// legal-move bits; with the incremental evaluator also the move-phase propositions
    /// once its pending marks are settled, and every conjunction value) equal a
    /// from-scratch evaluation of its base propositions by the plain evaluator. A
    /// self-check for tests: `true` at every state this reasoner makes.
    pub fn derived_values_consistent(&self, s: &GdlState) -> bool {
        if let Some(lz) = self.lazy() {
            return self.lazy_state(lz, &self.true_bases(s)).bits == s.bits;
        }
        let mut cur = s.bits.clone();
        let mut legal = s.bits.clone();
        self.fill_legal(&mut legal);
        if legal != s.bits {
            return false;
        }
        let mut fresh = self.template.clone();
        fresh[..self.base_words].copy_from_slice(&s.bits[..self.base_words]);
        self.run(&self.phase_state, &mut fresh);
        let mut props: Vec<u32> = self.phase_state.clone();
        if self.progs.built && !self.inc.on {
            // Programs skip the state-phase views nothing outside the state phase reads.
            props.retain(|&p| self.progs.live[(p & !PRESET) as usize]);
        }
        if self.inc.on {
            let inc = &self.inc;
            if cur[inc.forced..].iter().any(|&w| w != 0)
                || cur[inc.dirty_heads..inc.dirty_conj]
                    .iter()
                    .enumerate()
                    .any(|(w, &x)| x & word_mask(w, 0, inc.state_heads) != 0)
            {
                return false;
            }
            self.propagate(&mut cur, inc.heads.len());
            if cur[inc.dirty_heads..].iter().any(|&w| w != 0) {
                return false;
            }
            // `does` inputs are all false: the indexed conjunctions are all false.
            self.run(&self.phase_move, &mut fresh);
            props.extend(&self.phase_move);
        }
        let props_ok = props
            .iter()
            .filter(|&&p| p != CYCLE)
            .all(|&p| get(&fresh, p & !PRESET) == get(&cur, p & !PRESET));
        if !props_ok || !self.inc.on {
            return props_ok;
        }
        let mut all = self.template.clone();
        all[..self.base_words].copy_from_slice(&s.bits[..self.base_words]);
        self.settle_full_incremental(&mut all);
        let cb = self.inc.conj_bit as u32;
        (0..self.inc.conj.len() as u32).all(|c| get(&all, cb + c) == get(&cur, cb + c))
    }

    /// Takes out of normal evaluation every move-phase conjunction with a positive `does`
    /// literal whose other literals are inputs or state-phase propositions (computed when
    /// the state was made): it can hold only when its move is played, so `step` tries it
    /// for the played moves alone, before the move phase runs (most `next` rules of board
    /// games are such conjunctions, one per move). Heads in recursive components are left
    /// alone.
    fn index_by_does(&mut self, input: &[bool]) {
        let nprops = self.rules.len();
        let mut in_move = vec![false; nprops];
        let mut cyclic = vec![false; nprops];
        let mut i = 0;
        while i < self.phase_move.len() {
            if self.phase_move[i] == CYCLE {
                let n = self.phase_move[i + 1] as usize;
                for &m in &self.phase_move[i + 2..i + 2 + n] {
                    in_move[m as usize] = true;
                    cyclic[m as usize] = true;
                }
                i += 2 + n;
            } else {
                in_move[self.phase_move[i] as usize] = true;
                i += 1;
            }
        }
        let is_does: Vec<bool> = {
            let mut v = vec![false; nprops];
            for &p in self.does.iter().flatten() {
                if p != NONE {
                    v[p as usize] = true;
                }
            }
            v
        };
        let mut by_does: Vec<Vec<(u32, Vec<u32>)>> = vec![Vec::new(); nprops];
        let mut is_head = vec![false; nprops];
        for p in 0..nprops {
            if !in_move[p] || cyclic[p] {
                continue;
            }
            let (a, b) = self.rules[p];
            let conjs: Vec<Conj> = self.cj[a as usize..b as usize].to_vec();
            let mut kept = Vec::new();
            for c in conjs {
                let all: Vec<u32> = std::iter::once(c.first)
                    .chain(
                        self.lits[c.rest.0 as usize..c.rest.1 as usize]
                            .iter()
                            .copied(),
                    )
                    .collect();
                let key = all
                    .iter()
                    .position(|&l| l & 1 == 0 && is_does[(l >> 1) as usize]);
                let movable = key.is_some()
                    && all.iter().all(|&l| {
                        let q = (l >> 1) as usize;
                        input[q] || !in_move[q]
                    });
                match key {
                    Some(k) if movable => {
                        let d = all[k] >> 1;
                        let rest: Vec<u32> = all
                            .iter()
                            .enumerate()
                            .filter(|&(j, _)| j != k)
                            .map(|(_, &l)| l)
                            .collect();
                        by_does[d as usize].push((p as u32, rest));
                        is_head[p] = true;
                    }
                    _ => kept.push(c),
                }
            }
            let n = kept.len() as u32;
            self.cj[a as usize..(a + n) as usize].copy_from_slice(&kept);
            self.rules[p].1 = a + n;
        }
        self.does_index = vec![(0, 0, 0); nprops];
        self.does_frame = vec![NONE; nprops];
        let bw = self.base_words;
        let nbase = self.base_terms.len() as u32;
        // A frame conjunction `(next b) <= (does ..) (true b)`: the move keeps `b`.
        let frame_of = |head: u32, rest: &[u32]| -> Option<u32> {
            let [l] = rest else { return None };
            let b = l >> 1;
            (l & 1 == 0 && b < nbase && head == (bw * 64) as u32 + b).then_some(b)
        };
        for (d, mut list) in by_does.into_iter().enumerate() {
            if list.is_empty() {
                continue;
            }
            // The frame conjunctions last: plain evaluation applies them as word masks.
            list.sort_by_key(|(head, rest)| frame_of(*head, rest).is_some());
            let start = self.does_conj.len() as u32;
            let mut mask = vec![0u64; bw];
            let mut plain_end = None;
            for (head, rest) in list {
                if let Some(b) = frame_of(head, &rest) {
                    plain_end.get_or_insert(self.does_conj.len() as u32);
                    mask[(b / 64) as usize] |= 1 << (b % 64);
                }
                let s = self.does_lits.len() as u32;
                self.does_lits.extend(rest);
                self.does_conj
                    .push((head, (s, self.does_lits.len() as u32)));
            }
            let end = self.does_conj.len() as u32;
            if plain_end.is_some() {
                self.does_frame[d] = self.frame_masks.len() as u32;
                self.frame_masks.extend(mask);
            }
            self.does_index[d] = (start, plain_end.unwrap_or(end), end);
        }
        self.does_heads = (0..nprops as u32)
            .filter(|&p| is_head[p as usize])
            .collect();
        // Flag the heads among the single entries (a recursive component's entries are its
        // marker, its size and its members, none of them a head).
        let mut i = 0;
        while i < self.phase_move.len() {
            let e = self.phase_move[i];
            if e == CYCLE {
                i += 2 + self.phase_move[i + 1] as usize;
            } else {
                if is_head[e as usize] {
                    self.phase_move[i] |= PRESET;
                }
                i += 1;
            }
        }
        self.stats.does_indexed = self.does_conj.len();
    }

    /// The move phase for the joint move whose `does` inputs are set in `bits`: the
    /// indexed conjunctions of the played moves first, then the rest.
    fn move_phase(&self, bits: &mut [u64], joint: &[u32]) {
        if self.progs.built {
            let bw = self.base_words;
            for &(w, m) in &self.progs.does_clear {
                bits[w as usize] &= !m;
            }
            for (r, &a) in joint.iter().enumerate().take(self.roles.len()) {
                let Some(&d) = self.does[r].get(a as usize) else {
                    continue;
                };
                let Some(&(s, e, _)) = self.does_index.get(d as usize) else {
                    continue;
                };
                for &(head, (ls, le)) in &self.does_conj[s as usize..e as usize] {
                    if self.does_lits[ls as usize..le as usize]
                        .iter()
                        .all(|&l| holds(bits, l))
                    {
                        put(bits, head, true);
                    }
                }
                let f = self.does_frame[d as usize];
                if f != NONE {
                    let masks = &self.frame_masks[f as usize..f as usize + bw];
                    for (w, &m) in masks.iter().enumerate() {
                        bits[bw + w] |= bits[w] & m;
                    }
                }
            }
            let prog = self.program(bits);
            put_consts(bits, &prog.move_const);
            exec(&prog.move_ops, bits);
            return;
        }
        for &h in &self.does_heads {
            put(bits, h, false);
        }
        for (r, &a) in joint.iter().enumerate().take(self.roles.len()) {
            let Some(&d) = self.does[r].get(a as usize) else {
                continue;
            };
            let Some(&(s, _, e)) = self.does_index.get(d as usize) else {
                continue;
            };
            for &(head, (ls, le)) in &self.does_conj[s as usize..e as usize] {
                if self.does_lits[ls as usize..le as usize]
                    .iter()
                    .all(|&l| holds(bits, l))
                {
                    put(bits, head, true);
                }
            }
        }
        self.run(&self.phase_move, bits);
    }

    /// Builds the evaluated form of the conjunctions from `conj` and `lits`.
    fn finish_conjunctions(&mut self) {
        self.cj = self
            .conj
            .iter()
            .map(|&(a, b)| {
                // Folding leaves no empty conjunction (its head would be constant true).
                assert!(a < b, "empty conjunction after folding");
                Conj {
                    first: self.lits[a as usize],
                    rest: (a + 1, b),
                }
            })
            .collect();
    }

    /// Reorders the literals of every conjunction and the conjunctions of every
    /// proposition so that short-circuit evaluation decides early: each conjunction tests
    /// first the literals least likely to hold, each disjunction tries first the
    /// conjunctions most likely to hold. The likelihoods are measured on the states of a
    /// few seeded random games ([`SAMPLE_STEPS`] steps). Conjunction and disjunction
    /// commute, so the values computed are the same; only the work changes.
    fn order_by_sampled_truth(&mut self) {
        let nprops = self.words * 64;
        let mut count = vec![0u32; nprops];
        let mut samples = 0u32;
        let mut rng = yomi_core::Rng::seed_from_u64(0x6767_7021);
        let mut s = self.initial_state();
        let mut joint = vec![0u32; self.roles.len()];
        let mut legal = Vec::new();
        for _ in 0..SAMPLE_STEPS {
            if s.turn == TURN_TERMINAL {
                s = self.initial_state();
                if s.turn == TURN_TERMINAL {
                    break;
                }
            }
            for (r, slot) in joint.iter_mut().enumerate() {
                self.legal_into(&s, r, &mut legal);
                *slot = legal[rng.below(legal.len())];
            }
            // `step`, with a tally of every proposition after the move phase (state-phase
            // values of this state, move-phase values and `does` inputs of this move).
            for (r, &a) in joint.iter().enumerate() {
                let p = self.does[r][a as usize];
                if p != NONE {
                    put(&mut s.bits, p, true);
                }
            }
            self.move_phase(&mut s.bits, &joint);
            for (w, &word) in s.bits.iter().enumerate() {
                let mut b = word;
                while b != 0 {
                    count[w * 64 + b.trailing_zeros() as usize] += 1;
                    b &= b - 1;
                }
            }
            samples += 1;
            let bw = self.base_words;
            s.bits.copy_within(bw..2 * bw, 0);
            for (r, &a) in joint.iter().enumerate() {
                let p = self.does[r][a as usize];
                if p != NONE {
                    put(&mut s.bits, p, false);
                }
            }
            self.settle(&mut s);
        }
        if samples == 0 {
            return;
        }
        // Probability that a literal holds, smoothed so that unseen propositions are not
        // taken for impossible.
        let pass = |l: u32| -> f64 {
            let p = (count[(l >> 1) as usize] as f64 + 0.5) / (samples as f64 + 1.0);
            if l & 1 == 1 {
                1.0 - p
            } else {
                p
            }
        };
        for c in &self.conj {
            self.lits[c.0 as usize..c.1 as usize].sort_by(|&a, &b| pass(a).total_cmp(&pass(b)));
        }
        let lits = &self.lits;
        let conj_pass = |c: &(u32, u32)| -> f64 {
            lits[c.0 as usize..c.1 as usize]
                .iter()
                .map(|&l| pass(l))
                .product()
        };
        for &(a, b) in &self.rules {
            self.conj[a as usize..b as usize].sort_by(|x, y| conj_pass(y).total_cmp(&conj_pass(x)));
        }
    }

    /// Switches incremental evaluation on or off where the game allows it (no recursive
    /// component in the state or move phase), and returns whether it is on. The values
    /// are the same either way; compilation picks the one that does less work
    /// ([`ReasonerStats::incremental`]). For tests and measurements: make states after the
    /// switch (a state made under one evaluator must not be stepped under the other).
    pub fn set_incremental(&mut self, on: bool) -> bool {
        self.inc.on = on && self.inc.built;
        self.stats.incremental = self.inc.on;
        self.inc.on
    }

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

    /// The initial state.
    pub fn initial_state(&self) -> GdlState {
        if let Some(lz) = self.lazy() {
            return self.lazy_state(lz, &lz.init());
        }
        let mut s = self.empty_state();
        for &b in &self.init {
            put(&mut s.bits, b, true);
        }
        self.settle(&mut s);
        s
    }

    fn empty_state(&self) -> GdlState {
        GdlState {
            bits: self.template.clone(),
            base_words: self.base_words as u32,
            turn: TURN_TERMINAL,
        }
    }

    /// The state in which exactly the given base propositions are true.
    pub fn state_from_bases(&self, bases: &[u32]) -> GdlState {
        if let Some(lz) = self.lazy() {
            let known = lz.base_count() as u32;
            let bases: Vec<u32> = bases.iter().copied().filter(|&b| b < known).collect();
            return self.lazy_state(lz, &bases);
        }
        let mut s = self.empty_state();
        for &b in bases {
            if (b as usize) < self.base_terms.len() {
                put(&mut s.bits, b, true);
            }
        }
        self.settle(&mut s);
        s
    }

    /// The true base propositions of `s`.
    pub fn true_bases(&self, s: &GdlState) -> Vec<u32> {
        let mut out = Vec::new();
        self.for_each_true_base(s, |b| out.push(b));
        out
    }

    /// Calls `f` with each true base proposition of `s` (an index into
    /// [`Reasoner::base_terms`]), in ascending order, without allocating.
    #[inline]
    pub fn for_each_true_base(&self, s: &GdlState, mut f: impl FnMut(u32)) {
        let n = if self.lazy.is_some() {
            usize::MAX
        } else {
            self.base_terms.len()
        };
        for (w, &word) in s.bits[..s.base_words as usize].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let b = w * 64 + bits.trailing_zeros() as usize;
                if b >= n {
                    return;
                }
                f(b as u32);
                bits &= bits - 1;
            }
        }
    }

    /// True when `s` is terminal (or a role has no legal move).
    #[inline]
    pub fn is_terminal(&self, s: &GdlState) -> bool {
        s.turn == TURN_TERMINAL
    }

    /// Whether the `terminal` proposition holds in `s` (unlike [`Reasoner::is_terminal`],
    /// a state where a role has no legal move is not counted).
    pub fn terminal_holds(&self, s: &GdlState) -> bool {
        if self.lazy.is_some() {
            return self.lazy_terminal(s);
        }
        self.terminal != NONE && get(&s.bits, self.terminal)
    }

    /// The legal-move bits of `role` in `s` (bit `k`: `legal[role][k]` holds).
    #[inline(always)]
    fn legal_bits<'a>(&self, s: &'a GdlState, role: usize) -> &'a [u64] {
        let w = self.legal_word[role];
        &s.bits[w..w + self.legal[role].len().div_ceil(64)]
    }

    /// Copies the legal propositions of every role into its legal-move bits.
    fn fill_legal(&self, bits: &mut [u64]) {
        for (r, l) in self.legal.iter().enumerate() {
            let w0 = self.legal_word[r];
            for (i, chunk) in l.chunks(64).enumerate() {
                let mut acc = 0u64;
                for (k, &(p, _)) in chunk.iter().enumerate() {
                    acc |= ((bits[(p >> 6) as usize] >> (p & 63)) & 1) << k;
                }
                bits[w0 + i] = acc;
            }
        }
    }

    /// The legal actions of `role` in `s`, by action id.
    #[inline]
    pub fn legal_into(&self, s: &GdlState, role: usize, out: &mut Vec<u32>) {
        out.clear();
        if self.lazy.is_some() {
            out.extend(self.lazy_legal(s, role).iter().map(|&a| a as u32));
            return;
        }
        let l = &self.legal[role];
        for (w, &word) in self.legal_bits(s, role).iter().enumerate() {
            let mut m = word;
            while m != 0 {
                out.push(l[w * 64 + m.trailing_zeros() as usize].1);
                m &= m - 1;
            }
        }
    }

    /// How many legal actions `role` has in `s`.
    #[inline]
    pub fn legal_count(&self, s: &GdlState, role: usize) -> usize {
        if self.lazy.is_some() {
            return self.lazy_legal(s, role).len();
        }
        self.legal_bits(s, role)
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// The `k`-th legal action of `role` (in action order), if there are more than `k`.
    #[inline]
    pub fn nth_legal(&self, s: &GdlState, role: usize, k: usize) -> Option<u32> {
        if self.lazy.is_some() {
            return self.lazy_legal(s, role).get(k).map(|&a| a as u32);
        }
        let mut k = k;
        for (w, &word) in self.legal_bits(s, role).iter().enumerate() {
            let n = word.count_ones() as usize;
            if k < n {
                let mut m = word;
                for _ in 0..k {
                    m &= m - 1;
                }
                return Some(self.legal[role][w * 64 + m.trailing_zeros() as usize].1);
            }
            k -= n;
        }
        None
    }

    /// Whether `role` may play action `a` in `s`.
    pub fn is_legal(&self, s: &GdlState, role: usize, a: u32) -> bool {
        if self.lazy.is_some() {
            return role < self.roles.len() && self.lazy_legal(s, role).contains(&u64::from(a));
        }
        self.legal
            .get(role)
            .is_some_and(|l| l.iter().any(|&(p, b)| b == a && get(&s.bits, p)))
    }

    /// The role to move when only one role has a choice, or `None` at simultaneous and
    /// terminal states.
    #[inline]
    pub fn mover(&self, s: &GdlState) -> Option<usize> {
        (s.turn < TURN_SIMULTANEOUS).then_some(s.turn as usize)
    }

    /// Every goal value that holds for each role in `s` (one per role in a well-formed
    /// game's terminal states).
    pub fn goal_values(&self, s: &GdlState) -> Vec<Vec<u32>> {
        if self.lazy.is_some() {
            return (0..self.roles.len())
                .map(|r| self.lazy_goals(s, r).collect())
                .collect();
        }
        let mut bits = s.bits.clone();
        if s.turn != TURN_TERMINAL {
            self.run(&self.phase_goal, &mut bits);
        }
        self.goals
            .iter()
            .map(|gs| {
                let mut v: Vec<u32> = gs
                    .iter()
                    .filter(|&&(p, _)| get(&bits, p))
                    .map(|&(_, v)| v)
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect()
    }

    /// The reward of each role at `s`: its goal value (the highest if several hold, 0 if
    /// none). Allocation-free at terminal states (their goals were computed with them).
    pub fn rewards(&self, s: &GdlState, out: &mut [f64]) {
        if self.lazy.is_some() {
            for (r, o) in out.iter_mut().enumerate().take(self.roles.len()) {
                *o = self.lazy_goals(s, r).last().unwrap_or(0) as f64;
            }
            return;
        }
        if s.turn == TURN_TERMINAL {
            for (r, gs) in self.goals.iter().enumerate() {
                out[r] = gs
                    .iter()
                    .filter(|&&(p, _)| get(&s.bits, p))
                    .map(|&(_, v)| v)
                    .max()
                    .unwrap_or(0) as f64;
            }
        } else {
            for (r, v) in self.goal_values(s).iter().enumerate() {
                out[r] = v.last().copied().unwrap_or(0) as f64;
            }
        }
    }

    /// Plays one action per role (`joint[r]` for role `r`; the caller ensures legality:
    /// the compiled programs take a move whose legal proposition cannot hold as not
    /// played).
    pub fn step(&self, s: &mut GdlState, joint: &[u32]) {
        if let Some(lz) = self.lazy() {
            self.lazy_step(lz, s, joint);
            return;
        }
        if self.inc.on {
            self.step_incremental(s, joint);
            return;
        }
        for (r, &a) in joint.iter().enumerate().take(self.roles.len()) {
            if let Some(&p) = self.does[r].get(a as usize) {
                if p != NONE {
                    put(&mut s.bits, p, true);
                }
            }
        }
        self.move_phase(&mut s.bits, joint);
        let bw = self.base_words;
        s.bits.copy_within(bw..2 * bw, 0);
        for (r, &a) in joint.iter().enumerate().take(self.roles.len()) {
            if let Some(&p) = self.does[r].get(a as usize) {
                if p != NONE {
                    put(&mut s.bits, p, false);
                }
            }
        }
        self.settle(s);
    }

    /// Evaluates the state phase (and with the incremental evaluator the move phase, with
    /// no `does` input) in full and decides whose turn it is.
    fn settle(&self, s: &mut GdlState) {
        if self.inc.on {
            self.settle_full_incremental(&mut s.bits);
            self.fill_legal(&mut s.bits);
        } else if self.progs.built {
            let prog = self.program(&s.bits);
            put_consts(&mut s.bits, &prog.state_const);
            exec(&prog.state_ops, &mut s.bits);
        } else {
            self.run(&self.phase_state, &mut s.bits);
            self.fill_legal(&mut s.bits);
        }
        self.decide_turn(s);
    }

    /// Decides whose turn it is from the state phase (and runs the goal phase at terminal
    /// states).
    fn decide_turn(&self, s: &mut GdlState) {
        if self.terminal != NONE && get(&s.bits, self.terminal) {
            self.run(&self.phase_goal, &mut s.bits);
            s.turn = TURN_TERMINAL;
            return;
        }
        let mut choosers = 0;
        let mut mover = 0usize;
        let mut active = None;
        for r in 0..self.roles.len() {
            let lb = self.legal_bits(s, r);
            let n: u32 = lb.iter().map(|w| w.count_ones()).sum();
            if n == 0 {
                // A role without a legal move: the game cannot go on.
                self.run(&self.phase_goal, &mut s.bits);
                s.turn = TURN_TERMINAL;
                return;
            }
            if active.is_none() {
                let k = lb
                    .iter()
                    .enumerate()
                    .find(|&(_, &w)| w != 0)
                    .map_or(0, |(w, &x)| w * 64 + x.trailing_zeros() as usize);
                if !self.noop[self.legal[r][k].1 as usize] {
                    active = Some(r);
                }
            }
            if n > 1 {
                choosers += 1;
                mover = r;
            }
        }
        s.turn = match choosers {
            // Nobody has a choice: the first role whose only move is not `noop` moves.
            0 => active.unwrap_or(0) as u8,
            1 => mover as u8,
            _ => TURN_SIMULTANEOUS,
        };
    }

    #[inline]
    fn eval(&self, p: u32, bits: &[u64]) -> bool {
        let (s, e) = self.rules[p as usize];
        for c in &self.cj[s as usize..e as usize] {
            if !holds(bits, c.first) {
                continue;
            }
            let rest = &self.lits[c.rest.0 as usize..c.rest.1 as usize];
            if rest.iter().all(|&l| holds(bits, l)) {
                return true;
            }
        }
        false
    }

    fn run(&self, phase: &[u32], bits: &mut [u64]) {
        let mut i = 0;
        while i < phase.len() {
            let p = phase[i];
            if p == CYCLE {
                let n = phase[i + 1] as usize;
                let members = &phase[i + 2..i + 2 + n];
                for &m in members {
                    put(bits, m, false);
                }
                loop {
                    let mut changed = false;
                    for &m in members {
                        if !get(bits, m) && self.eval(m, bits) {
                            put(bits, m, true);
                            changed = true;
                        }
                    }
                    if !changed {
                        break;
                    }
                }
                i += 2 + n;
            } else {
                let q = p & !PRESET;
                let v = (p & PRESET != 0 && get(bits, q)) || self.eval(q, bits);
                put(bits, q, v);
                i += 1;
            }
        }
    }

    /// The number of 64-bit words in a state.
    pub fn state_words(&self) -> usize {
        self.words
    }
}
