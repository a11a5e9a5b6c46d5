//! The reference prover: naive bottom-up evaluation of the (non-ground) rules, one
//! dependency component after another, with negation as failure against the components
//! already finished. Slow and simple on purpose: it is the test oracle for the grounded
//! reasoner ([`crate::reasoner`]), sharing nothing with it but the checked
//! [`Description`].

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::ast::{kw, Atom, Sym, Term};
use crate::error::GdlError;
use crate::validate::{Description, NLit, NRule};

/// The most facts one model may hold before the prover gives up.
pub const MAX_FACTS: usize = 2_000_000;

/// A state: the set of true base propositions (the arguments of `true`).
pub type ProverState = BTreeSet<Term>;

/// Facts by relation: each fact is its argument list.
type Facts = HashMap<Sym, HashSet<Vec<Term>>>;

/// The reference prover over a checked description.
#[derive(Clone, Debug)]
pub struct Prover {
    desc: Description,
}

impl Prover {
    /// A prover for `desc`.
    pub fn new(desc: &Description) -> Self {
        Prover { desc: desc.clone() }
    }

    /// The roles, in declaration order.
    pub fn roles(&self) -> &[Term] {
        &self.desc.roles
    }

    /// The initial state (the arguments of the `init` facts).
    ///
    /// # Errors
    /// [`GdlError::Game`] when the model grows beyond [`MAX_FACTS`].
    pub fn initial_state(&self) -> Result<ProverState, GdlError> {
        let m = self.model(&ProverState::new(), &[])?;
        Ok(first_args(&m, kw::INIT))
    }

    /// The legal moves of `role` in `state`, sorted.
    ///
    /// # Errors
    /// As [`Prover::initial_state`].
    pub fn legal_moves(&self, state: &ProverState, role: &Term) -> Result<Vec<Term>, GdlError> {
        let m = self.model(state, &[])?;
        let mut out: Vec<Term> = m
            .get(&kw::LEGAL)
            .into_iter()
            .flatten()
            .filter(|f| &f[0] == role)
            .map(|f| f[1].clone())
            .collect();
        out.sort();
        Ok(out)
    }

    /// The state after every role plays its move of `joint` (in role order).
    ///
    /// # Errors
    /// As [`Prover::initial_state`].
    pub fn next_state(&self, state: &ProverState, joint: &[Term]) -> Result<ProverState, GdlError> {
        let does: Vec<(Term, Term)> = self
            .desc
            .roles
            .iter()
            .cloned()
            .zip(joint.iter().cloned())
            .collect();
        let m = self.model(state, &does)?;
        Ok(first_args(&m, kw::NEXT))
    }

    /// Whether `state` is terminal.
    ///
    /// # Errors
    /// As [`Prover::initial_state`].
    pub fn is_terminal(&self, state: &ProverState) -> Result<bool, GdlError> {
        let m = self.model(state, &[])?;
        Ok(m.get(&kw::TERMINAL).is_some_and(|s| !s.is_empty()))
    }

    /// Every goal value of each role in `state` (sorted; GDL games give exactly one at
    /// terminal states).
    ///
    /// # Errors
    /// As [`Prover::initial_state`].
    pub fn goals(&self, state: &ProverState) -> Result<Vec<Vec<u32>>, GdlError> {
        let m = self.model(state, &[])?;
        let mut out = vec![Vec::new(); self.desc.roles.len()];
        for f in m.get(&kw::GOAL).into_iter().flatten() {
            let Some(i) = self.desc.roles.iter().position(|r| r == &f[0]) else {
                continue;
            };
            if let Term::Sym(s) = &f[1] {
                if let Ok(v) = self.desc.name(*s).parse::<u32>() {
                    out[i].push(v);
                }
            }
        }
        for v in &mut out {
            v.sort_unstable();
            v.dedup();
        }
        Ok(out)
    }

    /// The full model of the rules with `state` true and the `does` pairs given.
    fn model(&self, state: &ProverState, does: &[(Term, Term)]) -> Result<Facts, GdlError> {
        let mut facts: Facts = HashMap::new();
        let t = facts.entry(kw::TRUE).or_default();
        for p in state {
            t.insert(vec![p.clone()]);
        }
        let d = facts.entry(kw::DOES).or_default();
        for (r, a) in does {
            d.insert(vec![r.clone(), a.clone()]);
        }
        let mut total = state.len() + does.len();
        for comp in &self.desc.sccs {
            let rules: Vec<&NRule> = self
                .desc
                .rules
                .iter()
                .filter(|r| comp.contains(&r.head.rel))
                .collect();
            if comp.iter().any(|s| self.desc.unstratified.contains(s)) {
                alternating(comp, &rules, &mut facts, &mut total)?;
            } else {
                saturate(&rules, &mut facts, None, &mut total)?;
            }
        }
        Ok(facts)
    }
}

/// How negated literals on the relations of a component with negation inside are decided
/// ([`alternating`]): against these facts, or (`None`) as if every such atom held.
type NegView<'a> = Option<(&'a [Sym], Option<&'a Facts>)>;

/// Derives with `rules` until nothing new comes.
fn saturate(
    rules: &[&NRule],
    facts: &mut Facts,
    neg: NegView<'_>,
    total: &mut usize,
) -> Result<(), GdlError> {
    loop {
        let mut new: Vec<(Sym, Vec<Term>)> = Vec::new();
        for r in rules {
            let mut binding = vec![None; r.vars as usize];
            derive(r, facts, neg, &mut binding, &mut new);
        }
        let mut changed = false;
        for (rel, args) in new {
            if facts.entry(rel).or_default().insert(args) {
                changed = true;
                *total += 1;
            }
        }
        if *total > MAX_FACTS {
            return Err(GdlError::Game(format!(
                "the reference prover's model exceeds {MAX_FACTS} facts"
            )));
        }
        if !changed {
            return Ok(());
        }
    }
}

/// A component with negation inside (stratified, if at all, only between ground atoms), by
/// the alternating fixpoint of the well-founded semantics: an under-estimate derived with
/// the negated atoms tested against an over-estimate and the other way round, until both
/// meet. They meet for every locally stratified program (its perfect model); where they
/// do not, negation is not stratified between ground atoms and the model is refused.
fn alternating(
    comp: &[Sym],
    rules: &[&NRule],
    facts: &mut Facts,
    total: &mut usize,
) -> Result<(), GdlError> {
    let of_comp = |f: &Facts| -> Vec<(Sym, usize)> {
        comp.iter()
            .map(|s| (*s, f.get(s).map_or(0, HashSet::len)))
            .collect()
    };
    let mut over: Option<Facts> = None;
    let mut last_under: Option<Vec<(Sym, usize)>> = None;
    loop {
        let mut under = facts.clone();
        let mut t = *total;
        saturate(rules, &mut under, Some((comp, over.as_ref())), &mut t)?;
        let mut next_over = facts.clone();
        let mut t2 = *total;
        saturate(rules, &mut next_over, Some((comp, Some(&under))), &mut t2)?;
        // The under-estimates grow and the over-estimates shrink: equal sizes are equal sets.
        if of_comp(&under) == of_comp(&next_over) {
            *facts = under;
            *total = t;
            return Ok(());
        }
        let sizes = of_comp(&under);
        if last_under.as_ref() == Some(&sizes) {
            return Err(GdlError::Game(
                "negation is not stratified even between ground atoms (a recursive \
                 component with negation inside has no perfect model)"
                    .into(),
            ));
        }
        last_under = Some(sizes);
        over = Some(next_over);
    }
}

fn first_args(m: &Facts, rel: Sym) -> ProverState {
    m.get(&rel)
        .into_iter()
        .flatten()
        .map(|f| f[0].clone())
        .collect()
}

/// Matches the positive literals in order, then checks the others and emits the head for
/// every binding that passes.
///
/// Iterative, with an explicit stack of one frame per positive literal matched so far
/// (its facts still to try, and where its bindings start on the trail): a rule body of
/// tens of thousands of literals (the parser allows
/// [`crate::parse::MAX_BODY_LITERALS`]) must not need a stack frame per literal, as the
/// prover runs on the player's threads while the rules compile. Backtracking unbinds the
/// variables the trail names instead of keeping a copy of the binding per literal, so
/// memory is linear in the body and the variables, not their product.
fn derive(
    r: &NRule,
    facts: &Facts,
    neg: NegView<'_>,
    binding: &mut [Option<Term>],
    out: &mut Vec<(Sym, Vec<Term>)>,
) {
    let positive: Vec<&Atom> = r
        .body
        .iter()
        .filter_map(|l| match l {
            NLit::Pos(a) => Some(a),
            _ => None,
        })
        .collect();
    // Variables bound so far, in binding order.
    let mut trail: Vec<u32> = Vec::new();
    // One frame per positive literal being matched: the facts of its relation not yet
    // tried, and the trail length before it was matched.
    let mut frames: Vec<(std::collections::hash_set::Iter<'_, Vec<Term>>, usize)> =
        Vec::with_capacity(positive.len());
    loop {
        // Every positive literal matched: test the rest and emit; else open the next one
        // (a relation without facts opens nothing: the search backtracks at once).
        if frames.len() == positive.len() {
            if tests_hold(r, facts, neg, binding) {
                let args = r.head.args.iter().map(|t| subst(t, binding)).collect();
                out.push((r.head.rel, args));
            }
        } else if let Some(set) = facts.get(&positive[frames.len()].rel) {
            frames.push((set.iter(), trail.len()));
        }
        // The next binding: the next fact that matches the deepest open literal, dropping
        // the literals whose facts are used up.
        loop {
            let depth = frames.len();
            let Some((left, mark)) = frames.last_mut() else {
                return;
            };
            let mark = *mark;
            for v in trail.drain(mark..) {
                binding[v as usize] = None;
            }
            let Some(f) = left.next() else {
                frames.pop();
                continue;
            };
            let a = positive[depth - 1];
            if a.args.len() == f.len()
                && a.args
                    .iter()
                    .zip(f)
                    .all(|(p, g)| unify(p, g, binding, &mut trail))
            {
                break;
            }
        }
    }
}

/// Whether the negated, `distinct` and equality literals of `r` hold under `binding` (every
/// variable bound: the rule is safe).
fn tests_hold(r: &NRule, facts: &Facts, neg: NegView<'_>, binding: &[Option<Term>]) -> bool {
    r.body.iter().all(|l| match l {
        NLit::Pos(_) => true,
        NLit::Neg(a) => match neg {
            Some((comp, view)) if comp.contains(&a.rel) => {
                view.is_some_and(|v| !holds(a, v, binding))
            }
            _ => !holds(a, facts, binding),
        },
        NLit::Distinct(x, y) => subst(x, binding) != subst(y, binding),
        NLit::Same(x, y) => subst(x, binding) == subst(y, binding),
    })
}

fn holds(a: &Atom, facts: &Facts, binding: &[Option<Term>]) -> bool {
    let args: Vec<Term> = a.args.iter().map(|t| subst(t, binding)).collect();
    facts.get(&a.rel).is_some_and(|s| s.contains(&args))
}

fn subst(t: &Term, binding: &[Option<Term>]) -> Term {
    match t {
        Term::Var(v) => binding[*v as usize].clone().unwrap_or(Term::Var(*v)),
        Term::Sym(_) => t.clone(),
        Term::Fn(f, args) => Term::Fn(*f, args.iter().map(|a| subst(a, binding)).collect()),
    }
}

/// Matches pattern `p` against ground `g`, binding free variables (each one named on
/// `trail`, for backtracking).
fn unify(p: &Term, g: &Term, binding: &mut [Option<Term>], trail: &mut Vec<u32>) -> bool {
    match (p, g) {
        (Term::Var(v), _) => match &binding[*v as usize] {
            Some(b) => b == g,
            None => {
                binding[*v as usize] = Some(g.clone());
                trail.push(*v);
                true
            }
        },
        (Term::Sym(a), Term::Sym(b)) => a == b,
        (Term::Fn(f, xs), Term::Fn(g2, ys)) => {
            f == g2
                && xs.len() == ys.len()
                && xs.iter().zip(ys).all(|(x, y)| unify(x, y, binding, trail))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_a_tiny_game() {
        let d = Description::from_kif(
            "(role r) (init (n 0)) (succ 0 1) (succ 1 2)
             (<= (legal r (inc ?y)) (true (n ?x)) (succ ?x ?y))
             (<= (next (n ?y)) (does r (inc ?y)))
             (<= terminal (true (n 2))) (<= (goal r 100) (true (n 2)))
             (<= (goal r 0) (not (true (n 2))))",
        )
        .unwrap();
        let p = Prover::new(&d);
        let s0 = p.initial_state().unwrap();
        assert_eq!(s0.len(), 1);
        let r = p.roles()[0].clone();
        let moves = p.legal_moves(&s0, &r).unwrap();
        assert_eq!(moves.len(), 1);
        assert!(!p.is_terminal(&s0).unwrap());
        assert_eq!(p.goals(&s0).unwrap(), vec![vec![0]]);
        let s1 = p.next_state(&s0, &moves).unwrap();
        let m1 = p.legal_moves(&s1, &r).unwrap();
        let s2 = p.next_state(&s1, &m1).unwrap();
        assert!(p.is_terminal(&s2).unwrap());
        assert_eq!(p.goals(&s2).unwrap(), vec![vec![100]]);
    }
}
