//! The fallback of games whose grounding exceeds the limits (chess's check tests over
//! every triple of squares, say): the [`Reasoner`](crate::Reasoner) in *lazy* mode
//! evaluates the rules state by state, without grounding them ([`crate::ground::Evaluator`]: static relations
//! once, the dynamic components a query needs bottom-up with indexed joins), and names
//! base propositions and actions as it meets them (ids handed out in order of first
//! sight, the same for every state and every clone of the game).
//!
//! Much slower than the compiled evaluators (allocation per step, joins over terms), but
//! it plays: every query costs one evaluation of the state's model, not of the game's
//! ground program.
//!
//! The states of lazy mode (their layout, evaluation and steps) are in
//! `crate::reasoner::fallback`; this module holds the evaluator and the term tables, and
//! uses nothing from the reasoner.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::ast::Term;
use crate::error::GdlError;
use crate::ground::Evaluator;
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
    pub(crate) eval: Evaluator,
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

    pub(crate) fn fail(&self, e: GdlError) {
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

    /// The terms of the base propositions whose bits are set in `words` (a lazy state's
    /// base words), in bit order.
    pub(crate) fn true_terms(&self, words: &[u64]) -> Vec<Term> {
        let g = self.terms();
        let mut out = Vec::new();
        for (w, &word) in words.iter().enumerate() {
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
}
