//! Grounding: from the checked rules to ground rules over propositions.
//!
//! 1. Static relations (those that depend on neither `true` nor `does`) are evaluated
//!    exactly, bottom-up, one dependency component after another.
//! 2. The reachable domain of every dynamic relation is over-approximated by a relaxed
//!    fixpoint that ignores negative dynamic literals: `true` ranges over the `init` facts
//!    and every derivable `next` head, `does` over every derivable `legal` head. Static
//!    literals, `distinct` and its negation prune the joins as soon as their variables are
//!    bound; joins pick the most bound literal next and use per-argument indexes; a rule is
//!    re-run only when one of its body relations grew.
//! 3. Every dynamic rule is instantiated over those domains. Static literals disappear
//!    (they were checked), negative dynamic literals whose atom is outside the domain are
//!    always true and disappear too.

use std::collections::{HashMap, HashSet};

use crate::ast::{kw, Atom, Sym, Term};
use crate::error::GdlError;
use crate::validate::{Description, NLit, NRule};

/// The most ground rules a game may have.
pub const MAX_GROUND_RULES: usize = 4_000_000;

/// The most ground atoms the relaxed fixpoint may derive.
pub const MAX_GROUND_ATOMS: usize = 1_000_000;

/// A ground atom: relation and arguments.
pub type GAtom = (Sym, Vec<Term>);

/// One ground rule: the head atom and the body literals (atom id, negated).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GroundRule {
    /// The head atom.
    pub head: u32,
    /// The body: (atom, negated).
    pub body: Vec<(u32, bool)>,
}

/// The grounded game.
#[derive(Clone, Debug, Default)]
pub struct Grounding {
    /// Every ground dynamic atom (heads, `true` and `does` atoms).
    pub atoms: Vec<GAtom>,
    /// The id of each atom.
    pub atom_id: HashMap<GAtom, u32>,
    /// The ground rules.
    pub rules: Vec<GroundRule>,
    /// The initial state: the arguments of the `init` facts.
    pub init: Vec<Term>,
}

const ANY: u32 = u32::MAX;

/// Receives each binding of a rule's variables.
type Emit<'a> = dyn FnMut(&[Option<Term>]) -> Result<(), GdlError> + 'a;

/// A ground instance before interning: head arguments and body (relation, args, negated).
type Instance = (Vec<Term>, Vec<(Sym, Vec<Term>, bool)>);

/// A table key: the relation, and for `true` the functor of its argument (or `ANY`).
type Key = (Sym, u32);

#[derive(Default)]
struct Table {
    facts: Vec<Vec<Term>>,
    set: HashSet<Vec<Term>>,
    index: HashMap<usize, HashMap<Term, Vec<u32>>>,
}

impl Table {
    fn insert(&mut self, args: Vec<Term>) -> bool {
        if self.set.contains(&args) {
            return false;
        }
        let id = self.facts.len() as u32;
        for (pos, idx) in self.index.iter_mut() {
            if let Some(t) = args.get(*pos) {
                idx.entry(t.clone()).or_default().push(id);
            }
        }
        self.set.insert(args.clone());
        self.facts.push(args);
        true
    }

    fn ensure_index(&mut self, pos: usize) {
        if self.index.contains_key(&pos) {
            return;
        }
        let mut idx: HashMap<Term, Vec<u32>> = HashMap::new();
        for (i, f) in self.facts.iter().enumerate() {
            if let Some(t) = f.get(pos) {
                idx.entry(t.clone()).or_default().push(i as u32);
            }
        }
        self.index.insert(pos, idx);
    }
}

fn functor(t: &Term) -> u32 {
    match t {
        Term::Sym(s) | Term::Fn(s, _) => s.0,
        Term::Var(_) => ANY,
    }
}

fn key_of(a: &Atom) -> Key {
    if a.rel == kw::TRUE {
        (a.rel, a.args.first().map_or(ANY, functor))
    } else {
        (a.rel, ANY)
    }
}

/// How a rule is joined: which literal to match at each step, which tests follow it.
struct Plan {
    steps: Vec<Step>,
}

struct Step {
    lit: usize,
    key: Key,
    /// An argument position that is ground when the step runs, for the index.
    index_pos: Option<usize>,
    /// Tests (body literal indices) whose variables are bound after this step.
    checks: Vec<usize>,
}

struct Grounder {
    tables: HashMap<Key, Table>,
    atoms: usize,
    dynamic: HashSet<Sym>,
}

impl Grounder {
    fn table(&mut self, key: Key) -> &mut Table {
        self.tables.entry(key).or_default()
    }

    fn size(&self, key: Key) -> usize {
        self.tables.get(&key).map_or(0, |t| t.facts.len())
    }

    /// Adds a derived fact; `true` gets the `next` heads.
    fn add(&mut self, rel: Sym, args: Vec<Term>) -> bool {
        let new = self.table((rel, ANY)).insert(args.clone());
        if new && rel == kw::NEXT {
            let f = functor(&args[0]);
            self.table((kw::TRUE, f)).insert(args.clone());
            self.table((kw::TRUE, ANY)).insert(args);
        }
        new
    }

    fn plan(&self, r: &NRule) -> Plan {
        let mut bound: HashSet<u32> = HashSet::new();
        let mut remaining: Vec<usize> = (0..r.body.len())
            .filter(|&i| matches!(r.body[i], NLit::Pos(_)))
            .collect();
        let mut tests: Vec<usize> = (0..r.body.len())
            .filter(|&i| !matches!(r.body[i], NLit::Pos(_)))
            .collect();
        let mut steps = Vec::new();
        let vars_of = |l: &NLit| {
            let mut v = Vec::new();
            match l {
                NLit::Pos(a) | NLit::Neg(a) => a.for_each_var(&mut |x| v.push(x)),
                NLit::Distinct(a, b) | NLit::Same(a, b) => {
                    a.for_each_var(&mut |x| v.push(x));
                    b.for_each_var(&mut |x| v.push(x));
                }
            }
            v
        };
        // Tests with no variables run before any step (as checks of a virtual step 0).
        let mut pre = Vec::new();
        tests.retain(|&t| {
            if vars_of(&r.body[t]).is_empty() {
                pre.push(t);
                false
            } else {
                true
            }
        });
        while !remaining.is_empty() {
            // Most bound argument positions first, then the smaller table.
            let mut best = 0;
            let mut best_score = (i64::MIN, i64::MIN);
            for (k, &i) in remaining.iter().enumerate() {
                let NLit::Pos(a) = &r.body[i] else { continue };
                let vs = vars_of(&r.body[i]);
                let unbound = vs.iter().filter(|v| !bound.contains(v)).count() as i64;
                let ground_args = a
                    .args
                    .iter()
                    .filter(|t| {
                        let mut g = true;
                        t.for_each_var(&mut |v| g &= bound.contains(&v));
                        g
                    })
                    .count() as i64;
                let size = self.size(key_of(a)) as i64;
                let score = if unbound == 0 {
                    (i64::MAX, -size)
                } else {
                    (ground_args * 1000 - unbound, -size)
                };
                if score > best_score {
                    best_score = score;
                    best = k;
                }
            }
            let i = remaining.remove(best);
            let NLit::Pos(a) = &r.body[i] else {
                unreachable!("remaining holds positive literals only")
            };
            let index_pos = a.args.iter().position(|t| {
                let mut g = true;
                t.for_each_var(&mut |v| g &= bound.contains(&v));
                g
            });
            for v in vars_of(&r.body[i]) {
                bound.insert(v);
            }
            let mut checks = std::mem::take(&mut pre);
            tests.retain(|&t| {
                if vars_of(&r.body[t]).iter().all(|v| bound.contains(v)) {
                    checks.push(t);
                    false
                } else {
                    true
                }
            });
            steps.push(Step {
                lit: i,
                key: key_of(a),
                index_pos,
                checks,
            });
        }
        if !pre.is_empty() {
            // A body without positive literals: one empty step carries the tests.
            steps.push(Step {
                lit: usize::MAX,
                key: (kw::ROLE, ANY),
                index_pos: None,
                checks: pre,
            });
        }
        Plan { steps }
    }

    /// Enumerates the rule's instances; `emit` gets the binding. Negative literals on
    /// dynamic relations are not tested (relaxed), the rest are.
    fn enumerate(&mut self, r: &NRule, plan: &Plan, emit: &mut Emit<'_>) -> Result<(), GdlError> {
        for s in &plan.steps {
            if let Some(p) = s.index_pos {
                if s.lit != usize::MAX {
                    self.table(s.key).ensure_index(p);
                }
            }
        }
        let mut binding = vec![None; r.vars as usize];
        self.step(r, plan, 0, &mut binding, emit)
    }

    fn step(
        &self,
        r: &NRule,
        plan: &Plan,
        k: usize,
        binding: &mut Vec<Option<Term>>,
        emit: &mut Emit<'_>,
    ) -> Result<(), GdlError> {
        let Some(s) = plan.steps.get(k) else {
            return emit(binding);
        };
        if s.lit == usize::MAX {
            if self.checks_pass(r, &s.checks, binding) {
                return self.step(r, plan, k + 1, binding, emit);
            }
            return Ok(());
        }
        let NLit::Pos(a) = &r.body[s.lit] else {
            return Ok(());
        };
        let Some(table) = self.tables.get(&s.key) else {
            return Ok(());
        };
        let candidates: Box<dyn Iterator<Item = &Vec<Term>>> = match s.index_pos {
            Some(p) => {
                let t = subst(&a.args[p], binding);
                match table.index.get(&p).and_then(|idx| idx.get(&t)) {
                    Some(ids) => Box::new(ids.iter().map(|&i| &table.facts[i as usize])),
                    None => Box::new(std::iter::empty()),
                }
            }
            None => Box::new(table.facts.iter()),
        };
        let mut trail: Vec<u32> = Vec::new();
        for f in candidates {
            trail.clear();
            if f.len() == a.args.len()
                && a.args
                    .iter()
                    .zip(f)
                    .all(|(p, g)| unify(p, g, binding, &mut trail))
                && self.checks_pass(r, &s.checks, binding)
            {
                self.step(r, plan, k + 1, binding, emit)?;
            }
            for &v in &trail {
                binding[v as usize] = None;
            }
        }
        Ok(())
    }

    fn checks_pass(&self, r: &NRule, checks: &[usize], binding: &[Option<Term>]) -> bool {
        checks.iter().all(|&c| match &r.body[c] {
            NLit::Distinct(x, y) => subst(x, binding) != subst(y, binding),
            NLit::Same(x, y) => subst(x, binding) == subst(y, binding),
            NLit::Neg(a) if !self.dynamic.contains(&a.rel) => {
                let args: Vec<Term> = a.args.iter().map(|t| subst(t, binding)).collect();
                !self
                    .tables
                    .get(&(a.rel, ANY))
                    .is_some_and(|t| t.set.contains(&args))
            }
            _ => true,
        })
    }

    /// Runs `rules` to a fixpoint (heads added as they are found).
    fn fixpoint(&mut self, rules: &[&NRule], outer: &mut bool) -> Result<(), GdlError> {
        let mut seen: Vec<Option<Vec<usize>>> = vec![None; rules.len()];
        loop {
            let mut changed = false;
            for (i, r) in rules.iter().enumerate() {
                let plan = self.plan(r);
                let sizes: Vec<usize> = plan.steps.iter().map(|s| self.size(s.key)).collect();
                if seen[i].as_ref() == Some(&sizes) {
                    continue;
                }
                seen[i] = Some(sizes);
                let mut heads: Vec<Vec<Term>> = Vec::new();
                self.enumerate(r, &plan, &mut |b| {
                    heads.push(r.head.args.iter().map(|t| subst(t, b)).collect());
                    if heads.len() > MAX_GROUND_RULES {
                        return Err(too_large());
                    }
                    Ok(())
                })?;
                for h in heads {
                    if self.add(r.head.rel, h) {
                        self.atoms += 1;
                        if self.atoms > MAX_GROUND_ATOMS {
                            return Err(GdlError::Game(format!(
                                "grounding derives more than {MAX_GROUND_ATOMS} atoms"
                            )));
                        }
                        changed = true;
                        if r.head.rel == kw::NEXT || r.head.rel == kw::LEGAL {
                            *outer = true;
                        }
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

fn too_large() -> GdlError {
    GdlError::Game(format!("grounding exceeds {MAX_GROUND_RULES} ground rules"))
}

fn subst(t: &Term, binding: &[Option<Term>]) -> Term {
    match t {
        Term::Var(v) => binding[*v as usize].clone().unwrap_or(Term::Var(*v)),
        Term::Sym(_) => t.clone(),
        Term::Fn(f, args) => Term::Fn(*f, args.iter().map(|a| subst(a, binding)).collect()),
    }
}

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

/// Relations that depend on `true` or `does`.
pub fn dynamic_relations(desc: &Description) -> HashSet<Sym> {
    let mut dynamic: HashSet<Sym> = HashSet::from([kw::TRUE, kw::DOES]);
    loop {
        let before = dynamic.len();
        for r in &desc.rules {
            if r.body
                .iter()
                .any(|l| matches!(l, NLit::Pos(a) | NLit::Neg(a) if dynamic.contains(&a.rel)))
            {
                dynamic.insert(r.head.rel);
            }
        }
        if dynamic.len() == before {
            return dynamic;
        }
    }
}

impl Grounding {
    /// Grounds a checked description.
    ///
    /// # Errors
    /// [`GdlError::Game`] when the grounding exceeds [`MAX_GROUND_RULES`].
    pub fn new(desc: &Description) -> Result<Self, GdlError> {
        let dynamic = dynamic_relations(desc);
        let mut g = Grounder {
            tables: HashMap::new(),
            atoms: 0,
            dynamic: dynamic.clone(),
        };
        // 1. Static relations, exactly, component by component.
        let mut dummy = false;
        for comp in &desc.sccs {
            if comp.iter().any(|s| dynamic.contains(s)) {
                continue;
            }
            let rules: Vec<&NRule> = desc
                .rules
                .iter()
                .filter(|r| comp.contains(&r.head.rel))
                .collect();
            g.fixpoint(&rules, &mut dummy)?;
        }
        let mut out = Grounding::default();
        // Initial state: `init` is static. Its facts seed `true`.
        let init: Vec<Term> = g
            .tables
            .get(&(kw::INIT, ANY))
            .map(|t| t.facts.iter().map(|f| f[0].clone()).collect())
            .unwrap_or_default();
        for t in &init {
            let f = functor(t);
            g.table((kw::TRUE, f)).insert(vec![t.clone()]);
            g.table((kw::TRUE, ANY)).insert(vec![t.clone()]);
        }
        out.init = init;
        // Static facts of `next` and `legal` also feed `true` and `does`.
        let static_next: Vec<Vec<Term>> = if dynamic.contains(&kw::NEXT) {
            Vec::new()
        } else {
            g.tables
                .get(&(kw::NEXT, ANY))
                .map(|t| t.facts.clone())
                .unwrap_or_default()
        };
        for f in static_next {
            let fu = functor(&f[0]);
            g.table((kw::TRUE, fu)).insert(f.clone());
            g.table((kw::TRUE, ANY)).insert(f);
        }
        // 2. Relaxed fixpoint over the dynamic components.
        let dyn_comps: Vec<Vec<&NRule>> = desc
            .sccs
            .iter()
            .filter(|c| c.iter().any(|s| dynamic.contains(s)))
            .map(|c| {
                desc.rules
                    .iter()
                    .filter(|r| c.contains(&r.head.rel))
                    .collect()
            })
            .collect();
        loop {
            // `does` ranges over the legal heads (static or derived).
            let legal: Vec<Vec<Term>> = g
                .tables
                .get(&(kw::LEGAL, ANY))
                .map(|t| t.facts.clone())
                .unwrap_or_default();
            for f in legal {
                g.table((kw::DOES, ANY)).insert(f);
            }
            let mut outer = false;
            for rules in &dyn_comps {
                g.fixpoint(rules, &mut outer)?;
            }
            if !outer {
                break;
            }
        }
        // 3. Instantiation.
        let intern = |out: &mut Grounding, rel: Sym, args: Vec<Term>| -> u32 {
            let key = (rel, args);
            if let Some(&id) = out.atom_id.get(&key) {
                return id;
            }
            let id = out.atoms.len() as u32;
            out.atoms.push(key.clone());
            out.atom_id.insert(key, id);
            id
        };
        // Inputs first: true and does atoms, in a fixed order.
        for key in [(kw::TRUE, ANY), (kw::DOES, ANY)] {
            let facts = g
                .tables
                .get(&key)
                .map(|t| t.facts.clone())
                .unwrap_or_default();
            for f in facts {
                intern(&mut out, key.0, f);
            }
        }
        // Static facts of the keyword relations become bodiless ground rules.
        for rel in [kw::LEGAL, kw::NEXT, kw::GOAL, kw::TERMINAL] {
            if dynamic.contains(&rel) {
                continue;
            }
            let facts = g
                .tables
                .get(&(rel, ANY))
                .map(|t| t.facts.clone())
                .unwrap_or_default();
            for f in facts {
                let head = intern(&mut out, rel, f);
                out.rules.push(GroundRule {
                    head,
                    body: Vec::new(),
                });
            }
        }
        let dyn_rules: Vec<&NRule> = desc
            .rules
            .iter()
            .filter(|r| dynamic.contains(&r.head.rel))
            .collect();
        let mut seen: HashSet<GroundRule> = HashSet::new();
        for r in dyn_rules {
            let plan = g.plan(r);
            for st in &plan.steps {
                if let (Some(p), true) = (st.index_pos, st.lit != usize::MAX) {
                    g.table(st.key).ensure_index(p);
                }
            }
            let mut instances: Vec<Instance> = Vec::new();
            let gref = &g;
            let mut count = out.rules.len();
            let mut emit = |b: &[Option<Term>]| -> Result<(), GdlError> {
                let head: Vec<Term> = r.head.args.iter().map(|t| subst(t, b)).collect();
                let mut body = Vec::new();
                for l in &r.body {
                    match l {
                        NLit::Pos(a) | NLit::Neg(a) if gref.dynamic.contains(&a.rel) => {
                            let args: Vec<Term> = a.args.iter().map(|t| subst(t, b)).collect();
                            let neg = matches!(l, NLit::Neg(_));
                            if neg
                                && !gref
                                    .tables
                                    .get(&(a.rel, ANY))
                                    .is_some_and(|t| t.set.contains(&args))
                            {
                                continue; // never true: the negation always holds
                            }
                            body.push((a.rel, args, neg));
                        }
                        _ => {}
                    }
                }
                instances.push((head, body));
                count += 1;
                if count > MAX_GROUND_RULES {
                    return Err(too_large());
                }
                Ok(())
            };
            let mut binding = vec![None; r.vars as usize];
            gref.step(r, &plan, 0, &mut binding, &mut emit)?;
            for (head, body) in instances {
                let head = intern(&mut out, r.head.rel, head);
                let mut gb: Vec<(u32, bool)> = body
                    .into_iter()
                    .map(|(rel, args, neg)| (intern(&mut out, rel, args), neg))
                    .collect();
                gb.sort_unstable();
                gb.dedup();
                let gr = GroundRule { head, body: gb };
                if seen.insert(gr.clone()) {
                    out.rules.push(gr);
                }
            }
        }
        Ok(out)
    }
}
