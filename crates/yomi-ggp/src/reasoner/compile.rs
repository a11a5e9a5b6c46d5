//! Compiling a checked description into a [`Reasoner`]: grounding, constant folding, the
//! cones and topological order of the state, move and goal phases, the literal order
//! sampled from random games, the `does` index, the incremental network, the switch
//! programs, and the choice of evaluator. Also the lazy fallback's constructor, for games
//! too large to ground.
//!
//! Runs once per game, on one thread (`&mut self`); it plays sampled games with the
//! evaluator in `super::run`, which it uses and which uses nothing from here.

use std::collections::HashMap;

use super::{
    get, put, Conj, Hoisting, Incremental, Program, Programs, Reasoner, ReasonerStats, Scan, CYCLE,
    GUARDED, LAZY_LIT, LAZY_MIN_LITERALS, MAX_LAZY_DEPTH, MAX_SWITCHES, NONE, OP_GUARD, OP_LAZY,
    OP_PRESET, OP_SHIFT, OP_SLOT, PRESET, SAMPLE_STEPS, SCAN_LAZY, TURN_TERMINAL,
};
use crate::ast::{kw, Term};
use crate::error::GdlError;
use crate::validate::Description;

/// Most random steps one timing run of [`Reasoner::time_evaluators`] takes.
const TIMING_STEPS: usize = 2_000;
/// Most time one timing run takes (four runs per compilation).
const TIMING_BUDGET: std::time::Duration = std::time::Duration::from_millis(10);
/// How much faster the clock must find one evaluator to overrule the work estimate.
const TIMING_MARGIN: f64 = 1.1;
/// The most literals a conjunction of the incremental network may have: its count of
/// false literals is one byte of the state.
const MAX_COUNTED_LITERALS: usize = 255;
/// Timed runs of each evaluator (see [`Reasoner::time_evaluators`]).
const TIMING_RUNS: usize = 3;
/// The fewest legal propositions that share a guard for the incremental network to
/// compile them guarded (see `Incremental`).
const MIN_GUARD_GROUP: usize = 4;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Val {
    Unknown,
    True,
    False,
}

/// One head of a phase folded for a program: its conjunctions (none for a constant, whose
/// value is then known, or for a head of indexed conjunctions left with no other rule).
struct Folded {
    p: u32,
    preset: bool,
    slot: u32,
    conjs: Vec<Vec<u32>>,
}

/// A folded phase as a program runs it (see `Programs`).
#[derive(Default)]
struct Emitted {
    consts: Vec<(u32, u64, u64)>,
    ops: Vec<u32>,
    scan: Scan,
    /// The views computed lazily: proposition and head in the ops format.
    lazy: Vec<(u32, Vec<u32>)>,
}

/// The constant words and ops of a folded phase, leaving out the heads not `needed`.
/// Heads that no other head of the phase reads (legal moves, `next` propositions) come
/// last, grouped by a literal all their conjunctions share (least likely first): one
/// `OP_GUARD` test of it skips the group (in board games, all the moves from an empty
/// square). Every head's bit (and legal-move bit) is cleared by the constant words, except
/// heads of indexed conjunctions, which keep what those set. Views that `lazy_ok` allows
/// and that are long enough are left out of the ops and computed on demand (see
/// `Programs`, *Lazy views*).
fn emit_phase(
    phase: &[Folded],
    val: &[Val],
    needed: &[bool],
    lazy_ok: &[bool],
    nbase: u32,
) -> Emitted {
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
    // Lazy views, decided in topological order: a long view, or one that reads lazy views
    // (computing it eagerly would compute them all); a view's depth counts the lazy views
    // under it.
    let mut depth: HashMap<u32, u32> = HashMap::new();
    for f in &kept {
        if !lazy_ok.get(f.p as usize).copied().unwrap_or(false)
            || f.slot != NONE
            || f.preset
            || !read.contains(&f.p)
        {
            continue;
        }
        let long = f.conjs.iter().map(Vec::len).sum::<usize>() >= LAZY_MIN_LITERALS;
        let under = f
            .conjs
            .iter()
            .flatten()
            .filter_map(|l| depth.get(&(l >> 1)));
        let d = under.max().copied();
        if (long || d.is_some()) && d.unwrap_or(0) < MAX_LAZY_DEPTH {
            depth.insert(f.p, 1 + d.unwrap_or(0));
        }
    }
    // A conjunction tests its lazy views last: the other literals are cheap and may fail
    // first (zhadu's `(true (piece ?p ?v ?x))` before the path from `?x`).
    let lazy_last: Vec<Folded>;
    if !depth.is_empty() {
        lazy_last = kept
            .iter()
            .map(|f| Folded {
                p: f.p,
                preset: f.preset,
                slot: f.slot,
                conjs: f
                    .conjs
                    .iter()
                    .map(|c| {
                        let mut c = c.clone();
                        c.sort_by_key(|l| depth.contains_key(&(l >> 1)));
                        c
                    })
                    .collect(),
            })
            .collect();
        kept = lazy_last.iter().collect();
    }
    let reads_lazy = |c: &[u32]| c.iter().any(|l| depth.contains_key(&(l >> 1)));
    let flag = |l: u32| {
        if depth.contains_key(&(l >> 1)) {
            l | LAZY_LIT
        } else {
            l
        }
    };
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
            ops.extend(c.iter().filter(|&&l| l != drop).map(|&l| flag(l)));
            ops[n] = (ops.len() - n - 1) as u32;
        }
        let flags = if f.slot != NONE { OP_SLOT } else { 0 }
            | if f.preset { OP_PRESET } else { 0 }
            | if f.conjs.iter().any(|c| reads_lazy(c)) {
                OP_LAZY
            } else {
                0
            };
        ops[start] = ((ops.len() - start) as u32) << OP_SHIFT | flags;
    };
    let mut lazy = Vec::new();
    // Leaf conjunctions whose first literal is a positive base proposition go to the scan
    // (by first literal); a leaf's other conjunctions stay in the ops.
    let scannable = |c: &[u32]| c.first().is_some_and(|&l| l & 1 == 0 && l >> 1 < nbase);
    let mut scanned: Vec<(u32, u32, u32, &[u32])> = Vec::new();
    let mut rest_of: Vec<Folded> = Vec::new();
    for f in &kept {
        if read.contains(&f.p) || !f.conjs.iter().any(|c| scannable(c)) {
            continue;
        }
        for c in f.conjs.iter().filter(|c| scannable(c)) {
            scanned.push((c[0] >> 1, f.p, f.slot, &c[1..]));
        }
        rest_of.push(Folded {
            p: f.p,
            preset: f.preset,
            slot: f.slot,
            conjs: f.conjs.iter().filter(|c| !scannable(c)).cloned().collect(),
        });
    }
    let mut scan = Scan::default();
    scanned.sort_by_key(|e| e.0);
    for (i, &(b, head, slot, lits)) in scanned.iter().enumerate() {
        if i == 0 || scanned[i - 1].0 != b {
            let (w, bit) = (b / 64, b % 64);
            if scan.words.last().is_none_or(|e| e.0 != w) {
                scan.words.push((w, 0, scan.groups.len() as u32));
            }
            if let Some(e) = scan.words.last_mut() {
                e.1 |= 1 << bit;
            }
            let at = scan.entries.len() as u32;
            scan.groups.push((at, at));
        }
        let s = scan.lits.len() as u32;
        scan.lits.extend(lits.iter().map(|&l| flag(l)));
        let head = if reads_lazy(lits) {
            head | SCAN_LAZY
        } else {
            head
        };
        scan.entries.push((head, slot, s, scan.lits.len() as u32));
        if let Some(g) = scan.groups.last_mut() {
            g.1 = scan.entries.len() as u32;
        }
    }
    let rest_of: std::collections::HashMap<u32, Folded> =
        rest_of.into_iter().map(|f| (f.p, f)).collect();
    let mut leaves: Vec<(u32, &Folded)> = Vec::new();
    for f in kept {
        let f = rest_of.get(&f.p).unwrap_or(f);
        if f.conjs.is_empty() {
            // All its conjunctions are scanned.
            continue;
        }
        if depth.contains_key(&f.p) {
            let mut block = Vec::new();
            head(&mut block, f, NONE);
            lazy.push((f.p, block));
        } else if read.contains(&f.p) {
            head(&mut ops, f, NONE);
        } else {
            let shared = f.conjs[0]
                .iter()
                .copied()
                .find(|l| !depth.contains_key(&(l >> 1)) && f.conjs.iter().all(|c| c.contains(l)));
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
            ops[start] = ((ops.len() - start) as u32) << OP_SHIFT | OP_GUARD;
        }
        k += n;
    }
    let consts = consts.into_iter().map(|(w, (m, v))| (w, m, v)).collect();
    Emitted {
        consts,
        ops,
        scan,
        lazy,
    }
}

impl Reasoner {
    /// Grounds and compiles a checked description.
    ///
    /// # Errors
    /// [`GdlError::Game`] when the game is too large to ground, has more roles than
    /// [`yomi_core::MAX_PLAYERS`], or no initial state.
    pub fn new(desc: &Description) -> Result<Self, GdlError> {
        Self::with_hoisting(desc, Hoisting::Timed)
    }

    /// [`Reasoner::new`] with guard hoisting as asked (the tests compare both ways).
    ///
    /// # Errors
    /// As [`Reasoner::new`].
    pub fn with_hoisting(desc: &Description, hoisting: Hoisting) -> Result<Self, GdlError> {
        if desc.roles.len() > yomi_core::MAX_PLAYERS {
            return Err(GdlError::Game(format!(
                "{} roles; at most {} are supported",
                desc.roles.len(),
                yomi_core::MAX_PLAYERS
            )));
        }
        // Rules whose bodies join independent parts are split where that pays
        // (`crate::split`); the reasoner keeps the description it grounded (its symbols
        // name the auxiliary views).
        let ground_start = std::time::Instant::now();
        let (split, g) = crate::split::ground(desc);
        let desc = split.as_ref().unwrap_or(desc);
        let g = match g {
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
        // Views guarded by one base proposition are compiled without it (`hoist`): not
        // the propositions read from outside (legal moves, goals, `terminal`, `next`).
        let hoisted = if hoisting == Hoisting::Off {
            None
        } else {
            let mut external = vec![false; nprops];
            for &(p, _) in legal.iter().flatten().chain(goals.iter().flatten()) {
                external[p as usize] = true;
            }
            if terminal != NONE {
                external[terminal as usize] = true;
            }
            let next_props = base_words * 64..2 * base_words * 64;
            let rewritable: Vec<bool> = (0..nprops)
                .map(|p| {
                    !input[p] && val[p] == Val::Unknown && !external[p] && !next_props.contains(&p)
                })
                .collect();
            let mut hoisted_heads = by_head.clone();
            let n = super::hoist::hoist_guards(
                &mut hoisted_heads,
                &rewritable,
                base_terms.len(),
                super::hoist::MIN_GUARD_READERS,
                super::hoist::GUARD_OUTLIER,
            );
            (n > 0).then_some((hoisted_heads, n))
        };
        // Everything after folding, from the rules per proposition: run once, or twice
        // when hoisting applies and the clock decides (see `Hoisting`).
        let build = |by_head: Vec<Vec<Vec<u32>>>,
                     hoisted_views: usize|
         -> Result<Reasoner, GdlError> {
            let (roles, role_names, base_terms, base_index) = (
                roles.clone(),
                role_names.clone(),
                base_terms.clone(),
                base_index.clone(),
            );
            let (actions, action_text, action_index) =
                (actions.clone(), action_text.clone(), action_index.clone());
            let (legal, does, noop, goals) =
                (legal.clone(), does.clone(), noop.clone(), goals.clone());
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
                    let members: Vec<u32> =
                        c.iter().filter(|&&p| need[p]).map(|&p| p as u32).collect();
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
                guarded_legal: 0,
                hoisted_views,
                lazy_views: 0,
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
                does_scan: Vec::new(),
                scan_words: Vec::new(),
                scan_groups: Vec::new(),
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
            reasoner.build_programs(true);
            reasoner.time_lazy_views();
            reasoner.time_evaluators();
            Ok(reasoner)
        };
        match (hoisting, hoisted) {
            (_, None) => build(by_head, 0),
            (Hoisting::On, Some((heads, n))) => build(heads, n),
            (_, Some((heads, n))) => {
                let mut plain = build(by_head, 0)?;
                let mut hoisted = build(heads, n)?;
                // Fastest of a few alternated runs each (load only ever slows a run).
                let mut best = [f64::INFINITY; 2];
                for _ in 0..TIMING_RUNS {
                    best[0] = best[0].min(plain.time_chosen());
                    best[1] = best[1].min(hoisted.time_chosen());
                }
                Ok(if best[1] * TIMING_MARGIN < best[0] {
                    hoisted
                } else {
                    plain
                })
            }
        }
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
            does_scan: Vec::new(),
            scan_words: Vec::new(),
            scan_groups: Vec::new(),
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
        let guard = self.legal_guards();
        let mut readers: Vec<Vec<u32>> = vec![Vec::new(); nprops];
        for (h, &p) in order.iter().enumerate() {
            inc.head_of[p as usize] = h as u32;
            let (a, b) = self.rules[p as usize];
            let c0 = inc.conj.len() as u32;
            let g = guard[p as usize];
            for c in &self.cj[a as usize..b as usize] {
                let id = inc.conj.len() as u32;
                let s = inc.lits.len() as u32;
                for l in std::iter::once(c.first).chain(
                    self.lits[c.rest.0 as usize..c.rest.1 as usize]
                        .iter()
                        .copied(),
                ) {
                    // Each distinct literal once: a conjunction's count is of its false
                    // literals.
                    if l != g && !inc.lits[s as usize..].contains(&l) {
                        inc.lits.push(l);
                    }
                }
                if inc.lits.len() - s as usize > MAX_COUNTED_LITERALS {
                    // A count is one byte (no grounded sheet here comes near).
                    return;
                }
                for &l in &inc.lits[s as usize..] {
                    // Reader entries: conjunction << 1 | negated.
                    readers[(l >> 1) as usize].push(id << 1 | (l & 1));
                }
                inc.conj.push((h as u32, s, inc.lits.len() as u32));
            }
            inc.heads.push((p, c0, inc.conj.len() as u32));
        }
        inc.head_slot = vec![NONE; inc.heads.len()];
        inc.head_guard = vec![NONE; inc.heads.len()];
        // Guard groups: (literal, slot) of every guarded head, sorted by literal.
        let mut guarded: Vec<(u32, u32)> = Vec::new();
        for (r, l) in self.legal.iter().enumerate() {
            for (k, &(p, _)) in l.iter().enumerate() {
                let h = inc.head_of[p as usize];
                if h != NONE {
                    let slot = (self.legal_word[r] * 64 + k) as u32;
                    let g = guard[p as usize];
                    if g == NONE {
                        inc.head_slot[h as usize] = slot;
                    } else {
                        inc.head_slot[h as usize] = slot | GUARDED;
                        inc.head_guard[h as usize] = g;
                        guarded.push((g, slot));
                    }
                }
            }
        }
        guarded.sort_unstable();
        self.stats.guarded_legal = guarded.len();
        inc.guard_of = vec![(0, 0); nprops];
        let mut i = 0;
        while i < guarded.len() {
            let g = guarded[i].0;
            let n = guarded[i..].iter().take_while(|&&(m, _)| m == g).count();
            let mut masks: std::collections::BTreeMap<u32, u64> = Default::default();
            for &(_, slot) in &guarded[i..i + n] {
                *masks.entry(slot / 64).or_default() |= 1 << (slot % 64);
            }
            let ms = inc.guard_masks.len() as u32;
            inc.guard_masks.extend(masks);
            let q = (g >> 1) as usize;
            if inc.guard_of[q].0 == inc.guard_of[q].1 {
                inc.guard_of[q] = (inc.guard_groups.len() as u32, inc.guard_groups.len() as u32);
            }
            inc.guard_groups.push((g, ms, inc.guard_masks.len() as u32));
            inc.guard_of[q].1 += 1;
            i += n;
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
        inc.counts = inc.dirty_heads + nh;
        inc.forced = inc.counts + inc.conj.len().div_ceil(8);
        inc.head_words = nh;
        self.words = inc.forced + nh;
        if !inc.guard_groups.is_empty() {
            // The mirror of the legal-move words (they are contiguous, role after role).
            let lo = self.legal_word.first().copied().unwrap_or(self.words);
            let n: usize = self.legal.iter().map(|l| l.len().div_ceil(64)).sum();
            inc.inner_delta = ((self.words - lo) * 64) as u32;
            self.words += n;
        }
        let mut t = self.template.to_vec();
        t.resize(self.words, 0);
        self.template = t.into_boxed_slice();
        self.inc = inc;
    }

    /// The guard of each legal proposition the incremental network may compile without it
    /// (see `Incremental`, *Guarded legal moves*), or NONE: a literal that every
    /// conjunction of the proposition has, where no rule reads the proposition; of the
    /// candidates, the one the most legal propositions share. Guards shared by fewer than
    /// [`MIN_GUARD_GROUP`] propositions are not worth a group.
    fn legal_guards(&self) -> Vec<u32> {
        let nprops = self.rules.len();
        let mut guard = vec![NONE; nprops];
        let mut read = vec![false; nprops];
        for c in &self.cj {
            read[(c.first >> 1) as usize] = true;
        }
        for &l in self.lits.iter().chain(&self.does_lits) {
            read[(l >> 1) as usize] = true;
        }
        let in_state: std::collections::HashSet<u32> =
            self.phase_state.iter().map(|&p| p & !PRESET).collect();
        // Per eligible legal proposition: the literals all its conjunctions share.
        let mut shared: Vec<(u32, Vec<u32>)> = Vec::new();
        for &(p, _) in self.legal.iter().flatten() {
            if read[p as usize] || !in_state.contains(&p) {
                continue;
            }
            let (a, b) = self.rules[p as usize];
            let body = |c: &Conj| {
                let mut v: Vec<u32> = std::iter::once(c.first)
                    .chain(
                        self.lits[c.rest.0 as usize..c.rest.1 as usize]
                            .iter()
                            .copied(),
                    )
                    .collect();
                v.sort_unstable();
                v
            };
            let mut common: Option<Vec<u32>> = None;
            for c in &self.cj[a as usize..b as usize] {
                let lits = body(c);
                common = Some(match common {
                    None => lits,
                    Some(v) => v
                        .into_iter()
                        .filter(|l| lits.binary_search(l).is_ok())
                        .collect(),
                });
            }
            if let Some(v) = common.filter(|v| !v.is_empty()) {
                shared.push((p, v));
            }
        }
        let mut count: HashMap<u32, usize> = HashMap::new();
        for (_, v) in &shared {
            for &l in v {
                *count.entry(l).or_default() += 1;
            }
        }
        let mut chosen: Vec<(u32, u32)> = shared
            .iter()
            .map(|(p, v)| {
                let best = v
                    .iter()
                    .copied()
                    .max_by_key(|&l| (count[&l], std::cmp::Reverse(l)))
                    .unwrap_or(NONE);
                (*p, best)
            })
            .collect();
        let mut size: HashMap<u32, usize> = HashMap::new();
        for &(_, g) in &chosen {
            *size.entry(g).or_default() += 1;
        }
        chosen.retain(|&(_, g)| size[&g] >= MIN_GUARD_GROUP);
        for (p, g) in chosen {
            guard[p as usize] = g;
        }
        guard
    }

    /// Compiles plain evaluation per value of the switch propositions (`Programs`), unless
    /// the state or move phase has a recursive component. The switches are the (at most
    /// [`MAX_SWITCHES`]) base propositions read by the most state-phase conjunctions, each
    /// by at least an eighth of them. With `lazy`, long views only the state phase reads
    /// are computed on demand (`Programs`, *Lazy views*).
    fn build_programs(&mut self, lazy: bool) {
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
        let (mut lazy_id, mut lazy_count) = (vec![NONE; nprops], 0u32);
        let (mut lazy_at, mut lazy_ops) = (Vec::new(), Vec::new());
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
            // Lazy views: state-phase views nothing outside the state phase reads.
            let mut lazy_ok: Vec<bool> = live.iter().map(|&l| lazy && !l).collect();
            for f in &moves {
                for &l in f.conjs.iter().flatten() {
                    lazy_ok[(l >> 1) as usize] = false;
                }
            }
            let nbase = self.base_terms.len() as u32;
            let state = emit_phase(&state, &val, &needed, &lazy_ok, nbase);
            let moves = emit_phase(&moves, &val, &vec![true; nprops], &[], nbase);
            for (p, block) in state.lazy {
                if lazy_id[p as usize] == NONE {
                    lazy_id[p as usize] = lazy_count;
                    lazy_count += 1;
                }
                let id = lazy_id[p as usize] as usize;
                if lazy_at.len() <= id {
                    lazy_at.resize(id + 1, NONE);
                }
                lazy_at[id] = lazy_ops.len() as u32;
                lazy_ops.extend(block);
            }
            progs.push(Program {
                state_const: state.consts,
                state_ops: state.ops,
                state_scan: state.scan,
                move_const: moves.consts,
                move_ops: moves.ops,
                move_scan: moves.scan,
                lazy_at: std::mem::take(&mut lazy_at),
                lazy_ops: std::mem::take(&mut lazy_ops),
            });
        }
        // The done bits of the lazy views, after everything else in a state; a program
        // with lazy views clears them with its constant words.
        let lazy_done = self.words;
        if lazy_count > 0 {
            self.words += (lazy_count as usize).div_ceil(64);
            let mut t = self.template.to_vec();
            t.resize(self.words, 0);
            self.template = t.into_boxed_slice();
            for prog in &mut progs {
                prog.lazy_at.resize(lazy_count as usize, NONE);
                if prog.lazy_at.iter().any(|&a| a != NONE) {
                    for w in lazy_done..self.words {
                        prog.state_const.push((w as u32, !0, 0));
                    }
                }
            }
        }
        self.stats.lazy_views = lazy_count as usize;
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
            lazy_id,
            lazy_done,
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

    /// Settles the choice of [`Reasoner::choose_evaluator`] by the clock where both
    /// evaluators can run: random steps from the initial state (the same seeded moves for
    /// both), timed in turn, [`TIMING_RUNS`] times each, up to [`TIMING_STEPS`] steps or
    /// [`TIMING_BUDGET`] per run; one evaluator wins when its fastest run is more than
    /// [`TIMING_MARGIN`] faster than the other's fastest, the work estimate decides
    /// otherwise. The fastest of several runs is the one the machine's load disturbed
    /// least (load only ever slows a run), so a busy machine does not hand the choice to
    /// the estimate. The estimate counts conjunctions reached, not their cost: on sheets
    /// nobody tuned on it picked the slower evaluator (escort latch and coins run 1.7-1.8×
    /// faster on the other one; dobutsu shogi 1.6× once guarded legal moves made its
    /// turn flips cheap to count). The choice changes speed only: both evaluators give the
    /// same values, so games, seeds and results do not depend on it.
    fn time_evaluators(&mut self) {
        if !self.inc.built || self.lazy.is_some() {
            return;
        }
        let estimate = self.inc.on;
        // Fastest run of each: plain, incremental.
        let mut best = [f64::INFINITY; 2];
        for round in 0..2 * TIMING_RUNS {
            let on = round % 2 == 0;
            let t = self.time_steps(on);
            best[on as usize] = best[on as usize].min(t);
        }
        let (inc, plain) = (best[1], best[0]);
        self.inc.on = if inc * TIMING_MARGIN < plain {
            true
        } else if plain * TIMING_MARGIN < inc {
            false
        } else {
            estimate
        };
        self.stats.incremental = self.inc.on;
    }

    /// Keeps the lazy views of the programs only where they make plain steps faster by
    /// the clock: the programs are compiled again without them and both are timed as
    /// [`Reasoner::time_evaluators`] times the evaluators (fastest of [`TIMING_RUNS`]
    /// alternated runs each; the lazy ones must win by [`TIMING_MARGIN`]). A lazy view pays
    /// when its readers' other literals often fail first (zhadu 2.5-2.9× faster); where
    /// they mostly hold it is computed anyway, at the price of the test (knightazons
    /// 20 % slower).
    fn time_lazy_views(&mut self) {
        if self.stats.lazy_views == 0 || !self.progs.built {
            return;
        }
        let on = self.inc.on;
        let mut other = (
            self.progs.clone(),
            self.words,
            self.template.clone(),
            self.stats.lazy_views,
        );
        self.set_lazy_views(false);
        // Fastest run of each: eager, lazy.
        let mut best = [f64::INFINITY; 2];
        let mut lazy_in = false;
        for round in 0..2 * TIMING_RUNS {
            let want_lazy = round % 2 == 0;
            if want_lazy != lazy_in {
                self.swap_programs(&mut other);
                lazy_in = want_lazy;
            }
            let t = self.time_steps(false);
            best[want_lazy as usize] = best[want_lazy as usize].min(t);
        }
        let keep_lazy = best[1] * TIMING_MARGIN < best[0];
        if keep_lazy != lazy_in {
            self.swap_programs(&mut other);
        }
        self.inc.on = on;
    }

    /// Swaps the programs and the state layout they need (see
    /// [`Reasoner::time_lazy_views`]).
    fn swap_programs(&mut self, other: &mut (Programs, usize, Box<[u64]>, usize)) {
        std::mem::swap(&mut self.progs, &mut other.0);
        std::mem::swap(&mut self.words, &mut other.1);
        std::mem::swap(&mut self.template, &mut other.2);
        std::mem::swap(&mut self.stats.lazy_views, &mut other.3);
    }

    /// Seconds per random step with the evaluator chosen, as [`Reasoner::time_evaluators`]
    /// times it (one run).
    fn time_chosen(&mut self) -> f64 {
        if self.lazy.is_some() {
            return f64::INFINITY;
        }
        let on = self.inc.on;
        self.time_steps(on)
    }

    /// Seconds per random step with the incremental evaluator on or off (see
    /// [`Reasoner::time_evaluators`]).
    fn time_steps(&mut self, incremental: bool) -> f64 {
        self.inc.on = incremental;
        let mut rng = yomi_core::Rng::seed_from_u64(0x7469_6d65);
        let mut joint = vec![0u32; self.roles.len()];
        let mut s = self.initial_state();
        let start = std::time::Instant::now();
        let mut steps = 0usize;
        while steps < TIMING_STEPS && (steps % 16 != 0 || start.elapsed() < TIMING_BUDGET) {
            if s.turn == TURN_TERMINAL {
                s = self.initial_state();
                if s.turn == TURN_TERMINAL {
                    break;
                }
            }
            for (r, slot) in joint.iter_mut().enumerate() {
                let n = self.legal_count(&s, r);
                *slot = self.nth_legal(&s, r, rng.below(n.max(1))).unwrap_or(0);
            }
            self.step(&mut s, &joint);
            steps += 1;
        }
        start.elapsed().as_secs_f64() / steps.max(1) as f64
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
        self.does_scan = vec![(0, 0, 0); nprops];
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
            // Within each part, conjunctions that test the same literal first (the least
            // likely to hold) are adjacent: one failed test skips the group (pacman's
            // pellets: one group per square pacman may stand on).
            // Before the frame part, the groups whose first literal is a positive base
            // proposition come first: `does_scan` finds those by word masks.
            let scannable =
                |rest: &[u32]| rest.first().is_some_and(|&l| l & 1 == 0 && l >> 1 < nbase);
            list.sort_by_key(|(head, rest)| {
                (
                    frame_of(*head, rest).is_some(),
                    !scannable(rest),
                    rest.first().copied().unwrap_or(NONE),
                )
            });
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
                    .push((head, (s, self.does_lits.len() as u32), 0));
            }
            let end = self.does_conj.len() as u32;
            // Each entry's group end: the entries after it (within its part) that test
            // the same first literal.
            let mid = plain_end.unwrap_or(end);
            for part in [start..mid, mid..end] {
                let mut group_end = part.end;
                for i in part.clone().rev() {
                    let first = |i: u32| {
                        let (_, (ls, le), _) = self.does_conj[i as usize];
                        (ls < le).then(|| self.does_lits[ls as usize])
                    };
                    if i + 1 < part.end && (first(i).is_none() || first(i) != first(i + 1)) {
                        group_end = i + 1;
                    }
                    self.does_conj[i as usize].2 = group_end;
                }
            }
            if plain_end.is_some() {
                self.does_frame[d] = self.frame_masks.len() as u32;
                self.frame_masks.extend(mask);
            }
            self.does_index[d] = (start, mid, end);
            // The scanned groups: one bit per group in the word of its first literal.
            let words_start = self.scan_words.len() as u32;
            let mut i = start;
            while i < mid {
                let (_, (ls, le), group_end) = self.does_conj[i as usize];
                let lits = &self.does_lits[ls as usize..le as usize];
                if !scannable(lits) {
                    break;
                }
                let p = lits[0] >> 1;
                let (w, bit) = (p / 64, p % 64);
                if self.scan_words.len() as u32 == words_start
                    || self.scan_words.last().is_some_and(|e| e.0 != w)
                {
                    self.scan_words.push((w, 0, self.scan_groups.len() as u32));
                }
                if let Some(e) = self.scan_words.last_mut() {
                    e.1 |= 1 << bit;
                }
                self.scan_groups.push(i);
                i = group_end;
            }
            self.does_scan[d] = (words_start, self.scan_words.len() as u32, i);
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

    /// Compiles the programs again with or without lazy views (`Programs`, *Lazy views*;
    /// compilation keeps them where the clock finds them faster, see
    /// [`ReasonerStats::lazy_views`]), and returns whether the programs now have any. The
    /// values are the same either way. For tests and measurements: the state layout may
    /// change, so make states after the switch.
    pub fn set_lazy_views(&mut self, on: bool) -> bool {
        if !self.progs.built || self.lazy.is_some() {
            return false;
        }
        // The done bits are the last words of a state.
        let eager_words = self.progs.lazy_done;
        self.words = eager_words;
        self.template = self.template[..eager_words].into();
        self.build_programs(on);
        self.stats.lazy_views > 0
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
}
