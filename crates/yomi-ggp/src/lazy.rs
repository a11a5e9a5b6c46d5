//! The fallback of games whose grounding exceeds the limits (chess's check tests over
//! every triple of squares, say): the [`Reasoner`] in *lazy* mode evaluates the rules
//! state by state, without grounding them ([`crate::ground::Evaluator`]: static relations
//! once, the dynamic components a query needs bottom-up with indexed joins), and names
//! base propositions and actions as it meets them (ids handed out in order of first
//! sight, the same for every state and every clone of the game).
//!
//! Much slower than the compiled evaluators (allocation per step, joins over terms), but
//! it plays: every query costs one evaluation of the state's model, not of the game's
//! ground program.
//!
//! **State layout** (`GdlState::bits`): the true base propositions as bits
//! (`base_words` words, trimmed of trailing zero words so that equal states have equal
//! arrays); per role two words of goal values (bit `v` for value `v`, 0..=100); one word
//! of flags (bit 0: `terminal` holds); then per role the number of legal actions and
//! their ids, one word each.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::ast::{kw, Term};
use crate::error::GdlError;
use crate::ground::Evaluator;
use crate::reasoner::{GdlState, Reasoner, TURN_SIMULTANEOUS, TURN_TERMINAL};
use crate::validate::{write_ground, Description};

/// Terms met so far, by id.
#[derive(Debug, Default)]
struct Interned {
    base: Vec<Term>,
    base_index: HashMap<Term, u32>,
    actions: Vec<Term>,
    action_text: Vec<String>,
    action_index: HashMap<Term, u32>,
}

/// The lazy evaluator and the terms it has named.
#[derive(Debug)]
pub(crate) struct Lazy {
    eval: Evaluator,
    terms: Mutex<Interned>,
    /// The first error of a state's evaluation (it exceeded the limits): such a state
    /// gets no legal move, so it ends the game.
    failed: Mutex<Option<GdlError>>,
}

impl Lazy {
    /// The lazy evaluator of `desc`.
    ///
    /// # Errors
    /// As [`Evaluator::new`].
    pub(crate) fn new(desc: &Description) -> Result<Arc<Self>, GdlError> {
        Ok(Arc::new(Lazy {
            eval: Evaluator::new(desc)?,
            terms: Mutex::new(Interned::default()),
            failed: Default::default(),
        }))
    }

    fn fail(&self, e: GdlError) {
        let mut f = self.failed.lock().unwrap_or_else(PoisonError::into_inner);
        if f.is_none() {
            *f = Some(e);
        }
    }

    /// The first error of a state's evaluation, if any.
    pub(crate) fn failure(&self) -> Option<GdlError> {
        self.failed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn terms(&self) -> std::sync::MutexGuard<'_, Interned> {
        // The table is only appended to: a panic elsewhere cannot leave it inconsistent.
        self.terms.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn base_id(&self, t: &Term) -> u32 {
        let mut g = self.terms();
        if let Some(&b) = g.base_index.get(t) {
            return b;
        }
        let b = g.base.len() as u32;
        g.base.push(t.clone());
        g.base_index.insert(t.clone(), b);
        b
    }

    pub(crate) fn action_id(&self, desc: &Description, t: &Term) -> u32 {
        let mut g = self.terms();
        if let Some(&a) = g.action_index.get(t) {
            return a;
        }
        let a = g.actions.len() as u32;
        let mut text = String::new();
        write_ground(&desc.sheet.symbols, t, &mut text);
        g.actions.push(t.clone());
        g.action_text.push(text);
        g.action_index.insert(t.clone(), a);
        a
    }

    pub(crate) fn base_term(&self, b: u32) -> Option<Term> {
        self.terms().base.get(b as usize).cloned()
    }

    pub(crate) fn action(&self, a: u32) -> Option<Term> {
        self.terms().actions.get(a as usize).cloned()
    }

    pub(crate) fn action_text(&self, a: u32) -> String {
        self.terms()
            .action_text
            .get(a as usize)
            .cloned()
            .unwrap_or_default()
    }

    pub(crate) fn base_count(&self) -> usize {
        self.terms().base.len()
    }

    pub(crate) fn action_count(&self) -> usize {
        self.terms().actions.len()
    }

    pub(crate) fn base_snapshot(&self) -> Vec<Term> {
        self.terms().base.clone()
    }

    pub(crate) fn action_snapshot(&self) -> Vec<Term> {
        self.terms().actions.clone()
    }

    pub(crate) fn init(&self) -> Vec<u32> {
        let init = self.eval.init().to_vec();
        init.iter().map(|t| self.base_id(t)).collect()
    }
}

/// Offsets in a lazy state's array.
struct Layout {
    goals: usize,
    flags: usize,
    legal: usize,
}

fn layout(s: &GdlState, roles: usize) -> Layout {
    let goals = s.base_words as usize;
    let flags = goals + 2 * roles;
    Layout {
        goals,
        flags,
        legal: flags + 1,
    }
}

impl Reasoner {
    /// The lazy engine, when this reasoner runs in lazy mode.
    #[inline]
    pub(crate) fn lazy(&self) -> Option<&Lazy> {
        self.lazy.as_deref()
    }

    /// The legal action ids of `role` in a lazy state.
    pub(crate) fn lazy_legal<'a>(&self, s: &'a GdlState, role: usize) -> &'a [u64] {
        let mut i = layout(s, self.roles().len()).legal;
        for _ in 0..role {
            i += 1 + s.bits.get(i).copied().unwrap_or(0) as usize;
        }
        let n = s.bits.get(i).copied().unwrap_or(0) as usize;
        s.bits.get(i + 1..i + 1 + n).unwrap_or(&[])
    }

    /// Whether `terminal` holds in a lazy state.
    pub(crate) fn lazy_terminal(&self, s: &GdlState) -> bool {
        let l = layout(s, self.roles().len());
        s.bits.get(l.flags).is_some_and(|&w| w & 1 == 1)
    }

    /// The goal values of `role` in a lazy state, ascending.
    pub(crate) fn lazy_goals(&self, s: &GdlState, role: usize) -> impl Iterator<Item = u32> + '_ {
        let l = layout(s, self.roles().len());
        let w = [
            s.bits.get(l.goals + 2 * role).copied().unwrap_or(0),
            s.bits.get(l.goals + 2 * role + 1).copied().unwrap_or(0),
        ];
        (0..128u32).filter(move |&v| w[(v / 64) as usize] >> (v % 64) & 1 == 1)
    }

    /// The true base propositions of a lazy state, as terms.
    fn lazy_true_terms(&self, lz: &Lazy, s: &GdlState) -> Vec<Term> {
        let g = lz.terms();
        let mut out = Vec::new();
        for (w, &word) in s.bits[..s.base_words as usize].iter().enumerate() {
            let mut m = word;
            while m != 0 {
                let b = w * 64 + m.trailing_zeros() as usize;
                if let Some(t) = g.base.get(b) {
                    out.push(t.clone());
                }
                m &= m - 1;
            }
        }
        out
    }

    /// A lazy state with exactly the base propositions `bases`, evaluated.
    pub(crate) fn lazy_state(&self, lz: &Lazy, bases: &[u32]) -> GdlState {
        let words = bases
            .iter()
            .map(|&b| b as usize / 64 + 1)
            .max()
            .unwrap_or(1);
        let mut bits = vec![0u64; words];
        for &b in bases {
            bits[b as usize / 64] |= 1 << (b % 64);
        }
        let mut s = GdlState {
            bits: bits.into_boxed_slice(),
            base_words: words as u32,
            turn: TURN_TERMINAL,
        };
        self.lazy_settle(lz, &mut s);
        s
    }

    /// Evaluates legal moves, `terminal` and goals of the lazy state `s` (its base words
    /// are set; the rest is rewritten) and decides whose turn it is.
    fn lazy_settle(&self, lz: &Lazy, s: &mut GdlState) {
        let roles = self.roles().len();
        let bw = s.base_words as usize;
        let state = self.lazy_true_terms(lz, s);
        let desc = self.description();
        let mut words: Vec<u64> = s.bits[..bw].to_vec();
        words.resize(bw + 2 * roles + 1, 0);
        let mut legal: Vec<Vec<u64>> = vec![Vec::new(); roles];
        match lz.eval.eval(desc, &state, None) {
            Ok(d) => {
                for f in d.facts(kw::LEGAL) {
                    if let Some(r) = self.roles().iter().position(|t| t == &f[0]) {
                        legal[r].push(u64::from(lz.action_id(desc, &f[1])));
                    }
                }
                for f in d.facts(kw::GOAL) {
                    let (Some(r), Term::Sym(v)) =
                        (self.roles().iter().position(|t| t == &f[0]), &f[1])
                    else {
                        continue;
                    };
                    if let Ok(v) = desc.name(*v).parse::<u32>() {
                        if v <= 100 {
                            words[bw + 2 * r + (v / 64) as usize] |= 1 << (v % 64);
                        }
                    }
                }
                if !d.facts(kw::TERMINAL).is_empty() {
                    words[bw + 2 * roles] |= 1;
                }
            }
            Err(e) => lz.fail(e),
        }
        for l in &mut legal {
            l.sort_unstable();
            l.dedup();
        }
        for l in &legal {
            words.push(l.len() as u64);
            words.extend_from_slice(l);
        }
        s.bits = words.into_boxed_slice();
        s.turn = if self.lazy_terminal(s) || legal.iter().any(Vec::is_empty) {
            TURN_TERMINAL
        } else {
            let mut choosers = legal.iter().enumerate().filter(|(_, l)| l.len() > 1);
            match (choosers.next(), choosers.next()) {
                (Some((r, _)), None) => r as u8,
                (Some(_), Some(_)) => TURN_SIMULTANEOUS,
                (None, _) => {
                    // Nobody has a choice: the first role whose only move is not `noop`.
                    let texts: Vec<String> =
                        legal.iter().map(|l| lz.action_text(l[0] as u32)).collect();
                    texts
                        .iter()
                        .position(|t| !t.eq_ignore_ascii_case("noop"))
                        .unwrap_or(0) as u8
                }
            }
        };
    }

    /// Plays `joint` (one action id per role) from the lazy state `s`.
    pub(crate) fn lazy_step(&self, lz: &Lazy, s: &mut GdlState, joint: &[u32]) {
        let state = self.lazy_true_terms(lz, s);
        let does: Vec<(Term, Term)> = self
            .roles()
            .iter()
            .zip(joint)
            .filter_map(|(r, &a)| lz.action(a).map(|t| (r.clone(), t)))
            .collect();
        let next: Vec<u32> = match lz.eval.eval(self.description(), &state, Some(&does)) {
            Ok(d) => d
                .facts(kw::NEXT)
                .iter()
                .map(|f| lz.base_id(&f[0]))
                .collect(),
            Err(e) => {
                lz.fail(e);
                Vec::new()
            }
        };
        *s = self.lazy_state(lz, &next);
    }
}
