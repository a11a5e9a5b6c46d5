//! The fast reasoner: the ground rules compiled into stratified rule evaluation over one
//! bit array per state.
//!
//! **Why compiled rules and not a propnet with incremental propagation.** After grounding,
//! constant folding removes every static literal and every proposition whose value never
//! changes; what is left is small for the games GGP plays (hundreds to a few thousand
//! propositions). Each proposition is an OR of ANDs of literals, evaluated once per state in
//! topological order with short-circuiting, straight from the state's own bit array: no
//! queue, no per-component bookkeeping, no allocation. Evaluation is split into lazy
//! phases that mirror what a playout asks for:
//!
//! - *state phase*, run once when a state is made: everything `terminal` and `legal`
//!   depend on (and the goals, when the state is terminal);
//! - *move phase*, run by `apply`: what the `next` propositions need beyond the state
//!   phase, with the `does` inputs of the joint move set;
//! - *goal phase*: what the goals need beyond the state phase.
//!
//! **State layout.** One `Box<[u64]>` per state holds every proposition: the base
//! propositions (`true` atoms) first, then the `next` propositions in the same order and
//! the same word alignment, so moving to the next state is a word copy; then the inputs and
//! views. Equality and hashing look at the base words only (the rest is derived from them or
//! scratch). Cloning a state copies one small array; playing never allocates.
//!
//! **Evaluation order.** Most conjunctions fail, so the cost of a step is the number of
//! conjunctions visited, each decided by its first literal. At compile time a few seeded
//! random games ([`SAMPLE_STEPS`] steps) measure how often each proposition holds; every
//! conjunction then tests its least likely literal first (kept inline, no range lookup),
//! and every disjunction tries its most likely conjunction first. The values are the
//! same whatever the order; only the work changes.
//!
//! **Move index.** A `next` conjunction with a positive `does` literal (one per move in
//! most board games: `(next (cell 2 3 x)) <= (does x (move 2 2 2 3)) ...`) can only hold
//! when that move is played. Those whose other literals are known when the state is made
//! (inputs, state-phase views) are taken out of the move phase and filed under their
//! `does` proposition; `step` tries only the ones of the moves played, then runs the move
//! phase for the rest. On dobutsu shogi this is most of the program.
//!
//! Recursive views that survive grounding (connectivity in hex, say) are evaluated as
//! fixpoints of their strongly connected component (monotone: negation is stratified).

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
    does_index: Vec<(u32, u32)>,
    /// The indexed conjunctions: head, and the other literals as a range of `does_lits`.
    does_conj: Vec<(u32, (u32, u32))>,
    does_lits: Vec<u32>,
    /// The heads of indexed conjunctions (cleared before each move).
    does_heads: Vec<u32>,
    template: Box<[u64]>,
    init: Vec<u32>,
    /// Statistics of the compiled program.
    pub stats: ReasonerStats,
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
        let g = Grounding::new(desc)?;
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
        let words = nprops.div_ceil(64).max(2 * base_words);
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
            does_conj: Vec::new(),
            does_lits: Vec::new(),
            does_heads: Vec::new(),
            template,
            init,
            stats,
        };
        reasoner.finish_conjunctions();
        reasoner.order_by_sampled_truth();
        reasoner.finish_conjunctions();
        reasoner.index_by_does(&input);
        Ok(reasoner)
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
        self.does_index = vec![(0, 0); nprops];
        for (d, list) in by_does.into_iter().enumerate() {
            if list.is_empty() {
                continue;
            }
            let start = self.does_conj.len() as u32;
            for (head, rest) in list {
                let s = self.does_lits.len() as u32;
                self.does_lits.extend(rest);
                self.does_conj
                    .push((head, (s, self.does_lits.len() as u32)));
            }
            self.does_index[d] = (start, self.does_conj.len() as u32);
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
        for &h in &self.does_heads {
            put(bits, h, false);
        }
        for (r, &a) in joint.iter().enumerate().take(self.roles.len()) {
            let Some(&d) = self.does[r].get(a as usize) else {
                continue;
            };
            let Some(&(s, e)) = self.does_index.get(d as usize) else {
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

    /// Every action any role can take, sorted; a move is an index into this list.
    pub fn actions(&self) -> &[Term] {
        &self.actions
    }

    /// The text of action `a` (as the rule sheet spells it).
    pub fn action_text(&self, a: u32) -> &str {
        self.action_text.get(a as usize).map_or("", |s| s.as_str())
    }

    /// The action whose term is `t`.
    pub fn action_of(&self, t: &Term) -> Option<u32> {
        self.action_index.get(t).copied()
    }

    /// The base propositions (the possible arguments of `true`), in bit order.
    pub fn base_terms(&self) -> &[Term] {
        &self.base_terms
    }

    /// The base proposition whose term is `t`.
    pub fn base_of(&self, t: &Term) -> Option<u32> {
        self.base_index.get(t).copied()
    }

    /// Writes a ground term as KIF text.
    pub fn term_text(&self, t: &Term) -> String {
        let mut s = String::new();
        write_ground(&self.desc.sheet.symbols, t, &mut s);
        s
    }

    /// The initial state.
    pub fn initial_state(&self) -> GdlState {
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
        (0..self.base_terms.len() as u32)
            .filter(|&b| get(&s.bits, b))
            .collect()
    }

    /// Calls `f` with each true base proposition of `s` (an index into
    /// [`Reasoner::base_terms`]), in ascending order, without allocating.
    #[inline]
    pub fn for_each_true_base(&self, s: &GdlState, mut f: impl FnMut(u32)) {
        let n = self.base_terms.len();
        for (w, &word) in s.bits[..self.base_words].iter().enumerate() {
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
        self.terminal != NONE && get(&s.bits, self.terminal)
    }

    /// The legal actions of `role` in `s`, by action id.
    #[inline]
    pub fn legal_into(&self, s: &GdlState, role: usize, out: &mut Vec<u32>) {
        out.clear();
        for &(p, a) in &self.legal[role] {
            if get(&s.bits, p) {
                out.push(a);
            }
        }
    }

    /// How many legal actions `role` has in `s`.
    #[inline]
    pub fn legal_count(&self, s: &GdlState, role: usize) -> usize {
        self.legal[role]
            .iter()
            .filter(|&&(p, _)| get(&s.bits, p))
            .count()
    }

    /// The `k`-th legal action of `role` (in action order), if there are more than `k`.
    #[inline]
    pub fn nth_legal(&self, s: &GdlState, role: usize, k: usize) -> Option<u32> {
        self.legal[role]
            .iter()
            .filter(|&&(p, _)| get(&s.bits, p))
            .nth(k)
            .map(|&(_, a)| a)
    }

    /// Whether `role` may play action `a` in `s`.
    pub fn is_legal(&self, s: &GdlState, role: usize, a: u32) -> bool {
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

    /// Plays one action per role (`joint[r]` for role `r`; the caller ensures legality).
    pub fn step(&self, s: &mut GdlState, joint: &[u32]) {
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

    /// Evaluates the state phase and decides whose turn it is.
    fn settle(&self, s: &mut GdlState) {
        self.run(&self.phase_state, &mut s.bits);
        if self.terminal != NONE && get(&s.bits, self.terminal) {
            self.run(&self.phase_goal, &mut s.bits);
            s.turn = TURN_TERMINAL;
            return;
        }
        let mut choosers = 0;
        let mut mover = 0usize;
        let mut active = None;
        for r in 0..self.roles.len() {
            let mut n = 0;
            for &(p, a) in &self.legal[r] {
                if get(&s.bits, p) {
                    n += 1;
                    if n == 1 && active.is_none() && !self.noop[a as usize] {
                        active = Some(r);
                    }
                    if n > 1 {
                        break;
                    }
                }
            }
            if n == 0 {
                // A role without a legal move: the game cannot go on.
                self.run(&self.phase_goal, &mut s.bits);
                s.turn = TURN_TERMINAL;
                return;
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
