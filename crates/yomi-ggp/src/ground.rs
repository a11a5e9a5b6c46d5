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

use crate::fxhash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::ast::{kw, Atom, Sym, Term};
use crate::error::GdlError;
use crate::validate::{Description, NLit, NRule};

/// The most ground rules a game may have.
pub const MAX_GROUND_RULES: usize = 4_000_000;

/// The most body literals all ground rules together may have (each instance of a rule
/// copies its dynamic body literals: long bodies times many instances would exhaust
/// memory long before [`MAX_GROUND_RULES`]).
pub const MAX_GROUND_LITERALS: usize = 40_000_000;

/// The most ground atoms the relaxed fixpoint may derive.
pub const MAX_GROUND_ATOMS: usize = 1_000_000;

/// The most join steps (candidate facts tried against a body literal) grounding may take
/// in all. Joins can take long while deriving little (a helper relation over every
/// quadruple of squares, tested and thrown away), so the other limits alone would let a
/// game spend minutes before failing; past this, the game runs on the lazy fallback
/// instead. Deterministic, unlike a clock, so a game grounds or not whatever the load.
pub const MAX_GROUND_WORK: u64 = 200_000_000;

/// The most join steps the fallback evaluator ([`Evaluator`]) may take for one state:
/// evaluating a state of a game too large to ground must end, but may take seconds.
pub const MAX_STATE_WORK: u64 = 2_000_000_000;

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
    /// Join steps grounding took (see [`MAX_GROUND_WORK`]).
    pub work: u64,
}

const ANY: u32 = u32::MAX;

/// Receives each binding of a rule's variables.
type Emit<'a> = dyn FnMut(&[Option<Term>]) -> Result<(), GdlError> + 'a;

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
        let mut idx: HashMap<Term, Vec<u32>> = HashMap::default();
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

struct Grounder<'s> {
    tables: HashMap<Key, Table>,
    atoms: usize,
    dynamic: HashSet<Sym>,
    /// Tables read besides `tables` (the static relations, already complete and indexed on
    /// every argument), for the exact evaluation of one state by [`Lazy`].
    statics: Option<&'s HashMap<Key, Table>>,
    /// Exact evaluation (of one state, by [`Evaluator`]): every negated literal is
    /// tested, and `next` heads do not feed `true`.
    exact: bool,
    /// Join steps taken so far, and the most allowed ([`MAX_GROUND_WORK`],
    /// [`MAX_STATE_WORK`]).
    work: std::cell::Cell<u64>,
    max_work: u64,
    /// Relations evaluated on demand, top-down ([`Evaluator`]): their rules by relation.
    demand: Option<&'s HashMap<Sym, Vec<NRule>>>,
    /// The answers found on demand, by call pattern (variables all numbered 0).
    memo: std::cell::RefCell<HashMap<Atom, std::rc::Rc<Vec<Vec<Term>>>>>,
}

impl Grounder<'_> {
    fn table(&mut self, key: Key) -> &mut Table {
        self.tables.entry(key).or_default()
    }

    /// The table of `key`, own or static.
    fn get(&self, key: &Key) -> Option<&Table> {
        self.tables
            .get(key)
            .or_else(|| self.statics.and_then(|s| s.get(key)))
    }

    fn size(&self, key: Key) -> usize {
        self.get(&key).map_or(0, |t| t.facts.len())
    }

    /// Adds a derived fact; `true` gets the `next` heads (unless exact).
    fn add(&mut self, rel: Sym, args: Vec<Term>) -> bool {
        let new = self.table((rel, ANY)).insert(args.clone());
        if new && rel == kw::NEXT && !self.exact {
            let f = functor(&args[0]);
            self.table((kw::TRUE, f)).insert(args.clone());
            self.table((kw::TRUE, ANY)).insert(args);
        }
        new
    }

    /// The join order of `r`: repeatedly the positive literal with the most bound argument
    /// positions (then the fewest unbound variables, then the smaller table, then body
    /// order), each test placed after the first step that binds all its variables.
    ///
    /// Near-linear in the body length (bodies of thousands of literals are legal GDL): the
    /// literals' scores are kept up to date as variables become bound (through an index
    /// from each variable to the literals and tests that hold it) and the best one is taken
    /// from a heap whose stale entries are skipped.
    fn plan(&self, r: &NRule) -> Plan {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let n = r.body.len();
        let vars_of = |l: &NLit| {
            let mut v = Vec::new();
            match l {
                NLit::Pos(a) | NLit::Neg(a) => a.for_each_var(&mut |x| v.push(x)),
                NLit::Distinct(a, b) | NLit::Same(a, b) => {
                    a.for_each_var(&mut |x| v.push(x));
                    b.for_each_var(&mut |x| v.push(x));
                }
            }
            v.sort_unstable();
            v.dedup();
            v
        };
        let nvars = r.vars as usize;
        let mut bound = vec![false; nvars];
        // Per literal: its distinct variables and how many variable occurrences are still
        // unbound (with multiplicity, as the score counts them); per argument of a positive
        // literal, how many distinct variables in it are unbound (0: the argument is ground).
        let lit_vars: Vec<Vec<u32>> = r.body.iter().map(vars_of).collect();
        let mut unbound: Vec<usize> = vec![0; n];
        let mut arg_unbound: Vec<Vec<usize>> = vec![Vec::new(); n];
        // Variable -> (literal, argument position or usize::MAX for the whole literal,
        // occurrences).
        let mut occurs: Vec<Vec<(usize, usize, usize)>> = vec![Vec::new(); nvars];
        let mut counts: HashMap<u32, usize> = HashMap::default();
        for (i, l) in r.body.iter().enumerate() {
            counts.clear();
            let mut count = |t: &Term| t.for_each_var(&mut |x| *counts.entry(x).or_default() += 1);
            match l {
                NLit::Pos(a) | NLit::Neg(a) => a.args.iter().for_each(&mut count),
                NLit::Distinct(a, b) | NLit::Same(a, b) => {
                    count(a);
                    count(b);
                }
            }
            for (&v, &c) in &counts {
                unbound[i] += c;
                if let Some(o) = occurs.get_mut(v as usize) {
                    o.push((i, usize::MAX, c));
                }
            }
            if let NLit::Pos(a) = l {
                for (p, t) in a.args.iter().enumerate() {
                    let mut v = Vec::new();
                    t.for_each_var(&mut |x| v.push(x));
                    v.sort_unstable();
                    v.dedup();
                    arg_unbound[i].push(v.len());
                    for x in v {
                        if let Some(o) = occurs.get_mut(x as usize) {
                            o.push((i, p, 1));
                        }
                    }
                }
            }
        }
        let mut ground_args: Vec<usize> = arg_unbound
            .iter()
            .map(|a| a.iter().filter(|&&c| c == 0).count())
            .collect();
        let size: Vec<i64> = r
            .body
            .iter()
            .map(|l| match l {
                NLit::Pos(a) => self.size(key_of(a)) as i64,
                _ => 0,
            })
            .collect();
        let score = |i: usize, unbound: &[usize], ground_args: &[usize]| {
            if unbound[i] == 0 {
                (i64::MAX, -size[i])
            } else {
                (ground_args[i] as i64 * 1000 - unbound[i] as i64, -size[i])
            }
        };
        let mut remaining = vec![false; n];
        let mut heap: BinaryHeap<((i64, i64), Reverse<usize>)> = BinaryHeap::new();
        let mut pre = Vec::new();
        for (i, l) in r.body.iter().enumerate() {
            if matches!(l, NLit::Pos(_)) {
                remaining[i] = true;
                heap.push((score(i, &unbound, &ground_args), Reverse(i)));
            } else if lit_vars[i].is_empty() {
                // Tests with no variables run before any step.
                pre.push(i);
            }
        }
        let mut left = remaining.iter().filter(|&&x| x).count();
        let mut steps = Vec::new();
        while left > 0 {
            let Some((sc, Reverse(i))) = heap.pop() else {
                break;
            };
            if !remaining[i] || sc != score(i, &unbound, &ground_args) {
                continue; // taken already, or a stale score
            }
            remaining[i] = false;
            left -= 1;
            let NLit::Pos(a) = &r.body[i] else {
                unreachable!("the heap holds positive literals only")
            };
            let index_pos = arg_unbound[i].iter().position(|&c| c == 0);
            let mut checks = std::mem::take(&mut pre);
            let mut ready = Vec::new();
            for &v in &lit_vars[i] {
                let v = v as usize;
                if v >= nvars || bound[v] {
                    continue;
                }
                bound[v] = true;
                for &(j, p, c) in &occurs[v] {
                    if p == usize::MAX {
                        unbound[j] -= c;
                        if !matches!(r.body[j], NLit::Pos(_)) && unbound[j] == 0 {
                            ready.push(j);
                        }
                    } else {
                        arg_unbound[j][p] -= 1;
                        if arg_unbound[j][p] == 0 {
                            ground_args[j] += 1;
                        }
                    }
                }
                for &(j, p, _) in &occurs[v] {
                    if p == usize::MAX && remaining[j] {
                        heap.push((score(j, &unbound, &ground_args), Reverse(j)));
                    }
                }
            }
            ready.sort_unstable();
            checks.extend(ready);
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
                // Static tables come indexed on every argument.
                if s.lit != usize::MAX && !self.statics.is_some_and(|t| t.contains_key(&s.key)) {
                    self.table(s.key).ensure_index(p);
                }
            }
        }
        let mut binding = vec![None; r.vars as usize];
        self.step(r, plan, 0, &mut binding, emit)
    }

    /// Enumerates the bindings of `r` that satisfy the steps from `k` on (the bindings
    /// of the earlier steps are in `binding`), calling `emit` for each. Iterative, with
    /// one frame per step on an explicit stack: a body of thousands of literals must not
    /// exhaust the thread's stack.
    fn step(
        &self,
        r: &NRule,
        plan: &Plan,
        k: usize,
        binding: &mut [Option<Term>],
        emit: &mut Emit<'_>,
    ) -> Result<(), GdlError> {
        /// The candidates of one step: fact ids of an index, all facts, or the one pass of
        /// a step without a literal.
        enum Cands<'t> {
            Ids(&'t [u32]),
            All,
            Once,
            /// Answers of a relation evaluated on demand.
            Owned(std::rc::Rc<Vec<Vec<Term>>>),
        }
        struct Frame<'t> {
            k: usize,
            table: Option<&'t Table>,
            cands: Cands<'t>,
            next: usize,
            /// Variables bound by the candidate being tried.
            trail: Vec<u32>,
        }
        let empty: &[u32] = &[];
        // The frame for step `k`, or `None` when the step has no candidates at all.
        let frame = |k: usize, binding: &[Option<Term>]| -> Result<Option<Frame<'_>>, GdlError> {
            let s = &plan.steps[k];
            if s.lit == usize::MAX {
                return Ok(Some(Frame {
                    k,
                    table: None,
                    cands: Cands::Once,
                    next: 0,
                    trail: Vec::new(),
                }));
            }
            let NLit::Pos(a) = &r.body[s.lit] else {
                return Ok(None);
            };
            if self.demand.is_some_and(|d| d.contains_key(&a.rel)) {
                let pattern = Atom {
                    rel: a.rel,
                    args: a.args.iter().map(|t| subst(t, binding)).collect(),
                };
                return Ok(Some(Frame {
                    k,
                    table: None,
                    cands: Cands::Owned(self.answers(&pattern)?),
                    next: 0,
                    trail: Vec::new(),
                }));
            }
            let Some(table) = self.get(&s.key) else {
                return Ok(None);
            };
            let cands = match s.index_pos {
                Some(p) => match table.index.get(&p) {
                    Some(idx) => {
                        let t = subst(&a.args[p], binding);
                        Cands::Ids(idx.get(&t).map_or(empty, Vec::as_slice))
                    }
                    // Not indexed (a table first read on demand): scan it.
                    None => Cands::All,
                },
                None => Cands::All,
            };
            Ok(Some(Frame {
                k,
                table: Some(table),
                cands,
                next: 0,
                trail: Vec::new(),
            }))
        };
        if k >= plan.steps.len() {
            return emit(binding);
        }
        let mut stack: Vec<Frame<'_>> = Vec::with_capacity(plan.steps.len() - k);
        if let Some(f) = frame(k, &*binding)? {
            stack.push(f);
        }
        while let Some(f) = stack.last_mut() {
            // Undo the bindings of the candidate tried last at this step.
            for &v in &f.trail {
                binding[v as usize] = None;
            }
            f.trail.clear();
            let s = &plan.steps[f.k];
            let matched = match f.cands {
                Cands::Once => {
                    if f.next > 0 {
                        stack.pop();
                        continue;
                    }
                    f.next = 1;
                    self.checks_pass(r, &s.checks, binding)?
                }
                Cands::Ids(_) | Cands::All | Cands::Owned(_) => {
                    let fact = match (&f.cands, f.table) {
                        (Cands::Ids(ids), Some(table)) => {
                            ids.get(f.next).map(|&i| &table.facts[i as usize])
                        }
                        (Cands::All, Some(table)) => table.facts.get(f.next),
                        (Cands::Owned(v), _) => v.get(f.next),
                        _ => None,
                    };
                    let Some(fact) = fact else {
                        stack.pop();
                        continue;
                    };
                    f.next += 1;
                    let w = self.work.get() + 1;
                    self.work.set(w);
                    if w > self.max_work {
                        return Err(GdlError::Game(format!(
                            "grounding exceeds {} join steps",
                            self.max_work
                        )));
                    }
                    let NLit::Pos(a) = &r.body[s.lit] else {
                        unreachable!("literal steps match positive literals")
                    };
                    fact.len() == a.args.len()
                        && a.args
                            .iter()
                            .zip(fact)
                            .all(|(p, g)| unify(p, g, binding, &mut f.trail))
                        && self.checks_pass(r, &s.checks, binding)?
                }
            };
            if !matched {
                continue;
            }
            let next = f.k + 1;
            if next == plan.steps.len() {
                emit(binding)?;
            } else if let Some(nf) = frame(next, &*binding)? {
                stack.push(nf);
            }
        }
        Ok(())
    }

    fn checks_pass(
        &self,
        r: &NRule,
        checks: &[usize],
        binding: &[Option<Term>],
    ) -> Result<bool, GdlError> {
        for &c in checks {
            let ok = match &r.body[c] {
                NLit::Distinct(x, y) => subst(x, binding) != subst(y, binding),
                NLit::Same(x, y) => subst(x, binding) == subst(y, binding),
                NLit::Neg(a) if self.demand.is_some_and(|d| d.contains_key(&a.rel)) => {
                    let pattern = Atom {
                        rel: a.rel,
                        args: a.args.iter().map(|t| subst(t, binding)).collect(),
                    };
                    self.answers(&pattern)?.is_empty()
                }
                NLit::Neg(a) if self.exact || !self.dynamic.contains(&a.rel) => {
                    let args: Vec<Term> = a.args.iter().map(|t| subst(t, binding)).collect();
                    !self
                        .get(&(a.rel, ANY))
                        .is_some_and(|t| t.set.contains(&args))
                }
                _ => true,
            };
            if !ok {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The facts of a relation evaluated on demand that match `pattern` (its unbound
    /// arguments are variables), memoised for the state: each rule of the relation with its
    /// head matched against the pattern, its body joined like any rule's. Such relations
    /// are not recursive, so this terminates.
    fn answers(&self, pattern: &Atom) -> Result<std::rc::Rc<Vec<Vec<Term>>>, GdlError> {
        let key = Atom {
            rel: pattern.rel,
            args: pattern.args.iter().map(anonymous).collect(),
        };
        if let Some(v) = self.memo.borrow().get(&key) {
            return Ok(v.clone());
        }
        let mut out: Vec<Vec<Term>> = Vec::new();
        let mut seen: HashSet<Vec<Term>> = HashSet::default();
        let rules = self
            .demand
            .and_then(|d| d.get(&pattern.rel))
            .map_or(&[][..], Vec::as_slice);
        for r in rules {
            let mut binding = vec![None; r.vars as usize];
            if r.head.args.len() != pattern.args.len()
                || !r
                    .head
                    .args
                    .iter()
                    .zip(&pattern.args)
                    .all(|(h, p)| match_pattern(h, p, &mut binding))
            {
                continue;
            }
            // The rule with the pattern's constants put in, planned as any rule.
            let inst = NRule {
                head: Atom {
                    rel: r.head.rel,
                    args: r.head.args.iter().map(|t| subst(t, &binding)).collect(),
                },
                body: r.body.iter().map(|l| subst_lit(l, &binding)).collect(),
                vars: r.vars,
                source: r.source,
            };
            let plan = self.plan(&inst);
            let mut b = vec![None; r.vars as usize];
            self.step(&inst, &plan, 0, &mut b, &mut |b| {
                let head: Vec<Term> = inst.head.args.iter().map(|t| subst(t, b)).collect();
                if seen.insert(head.clone()) {
                    out.push(head);
                }
                if out.len() > MAX_GROUND_ATOMS {
                    return Err(GdlError::Game(format!(
                        "one query derives more than {MAX_GROUND_ATOMS} atoms"
                    )));
                }
                Ok(())
            })?;
        }
        let v = std::rc::Rc::new(out);
        self.memo.borrow_mut().insert(key, v.clone());
        Ok(v)
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

/// `t` with every variable numbered 0 (a call pattern's shape, whoever's variables).
fn anonymous(t: &Term) -> Term {
    match t {
        Term::Var(_) => Term::Var(0),
        Term::Sym(_) => t.clone(),
        Term::Fn(f, args) => Term::Fn(*f, args.iter().map(anonymous).collect()),
    }
}

/// Matches a rule head's argument `h` against a call pattern's `p`, binding the head's
/// variables to the pattern's ground parts. A variable or partly ground part of the
/// pattern binds nothing: the answers may then be more than the pattern asks for, and the
/// caller's own unification filters them.
fn match_pattern(h: &Term, p: &Term, binding: &mut [Option<Term>]) -> bool {
    match (h, p) {
        (_, Term::Var(_)) => true,
        (Term::Var(v), _) => {
            if !p.is_ground() {
                return true;
            }
            match &binding[*v as usize] {
                Some(b) => b == p,
                None => {
                    binding[*v as usize] = Some(p.clone());
                    true
                }
            }
        }
        (Term::Sym(a), Term::Sym(b)) => a == b,
        (Term::Fn(f, xs), Term::Fn(g, ys)) => {
            f == g
                && xs.len() == ys.len()
                && xs.iter().zip(ys).all(|(x, y)| match_pattern(x, y, binding))
        }
        _ => false,
    }
}

fn subst_lit(l: &NLit, binding: &[Option<Term>]) -> NLit {
    let atom = |a: &Atom| Atom {
        rel: a.rel,
        args: a.args.iter().map(|t| subst(t, binding)).collect(),
    };
    match l {
        NLit::Pos(a) => NLit::Pos(atom(a)),
        NLit::Neg(a) => NLit::Neg(atom(a)),
        NLit::Distinct(x, y) => NLit::Distinct(subst(x, binding), subst(y, binding)),
        NLit::Same(x, y) => NLit::Same(subst(x, binding), subst(y, binding)),
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

/// Relations that depend on `true` or `does`, and those grounded like them: the relations
/// of components with negation inside ([`Description::unstratified`]), whose values the
/// reasoner decides from the ground rules (with their negation checked for stratification
/// there), and whatever depends on them.
pub fn dynamic_relations(desc: &Description) -> HashSet<Sym> {
    let mut dynamic: HashSet<Sym> = [kw::TRUE, kw::DOES].into_iter().collect();
    dynamic.extend(desc.unstratified.iter().copied());
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

/// 1. The static relations, exactly, component by component.
fn static_tables(
    desc: &Description,
    dynamic: &HashSet<Sym>,
) -> Result<Grounder<'static>, GdlError> {
    let mut g = Grounder {
        tables: HashMap::default(),
        atoms: 0,
        dynamic: dynamic.clone(),
        statics: None,
        exact: false,
        work: Default::default(),
        max_work: MAX_GROUND_WORK,
        demand: None,
        memo: Default::default(),
    };
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
    Ok(g)
}

/// Exact evaluation of the dynamic relations in one state at a time, without grounding
/// them: the fallback of games whose grounding exceeds the limits ([`crate::reasoner`]'s
/// lazy mode). The static relations are evaluated once, exactly, and indexed on every
/// argument; each query evaluates the dynamic components it needs, bottom-up with the
/// same indexed joins the grounder uses, with every negated literal tested (the
/// components are stratified by relation, in dependency order).
#[derive(Debug)]
pub(crate) struct Evaluator {
    statics: HashMap<Key, Table>,
    dynamic: HashSet<Sym>,
    /// Per target: the dynamic components to evaluate, as rule indices into `desc.rules`,
    /// dependencies first.
    state_comps: Vec<Vec<usize>>,
    next_comps: Vec<Vec<usize>>,
    init: Vec<Term>,
    /// The views evaluated on demand, top-down (`Grounder::answers`), with their rules:
    /// every dynamic relation that is no keyword and not recursive. Computing a view in
    /// full, bottom-up, is what makes such games too large to ground (chess's
    /// `threatened_with_capture` over every square triple); its uses mostly ask about a
    /// few instances (under negation, all arguments are bound).
    demand: HashMap<Sym, Vec<NRule>>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} facts)", self.facts.len())
    }
}

/// Facts derived in one state by [`Evaluator::eval`] (with the static ones).
pub(crate) struct Derived<'a> {
    own: HashMap<Key, Table>,
    statics: &'a HashMap<Key, Table>,
}

impl Derived<'_> {
    /// The facts of relation `rel` (argument lists).
    pub(crate) fn facts(&self, rel: Sym) -> &[Vec<Term>] {
        self.own
            .get(&(rel, ANY))
            .or_else(|| self.statics.get(&(rel, ANY)))
            .map_or(&[], |t| t.facts.as_slice())
    }
}

impl Evaluator {
    /// The evaluator of `desc`: its static relations, and which components each query
    /// needs.
    ///
    /// # Errors
    /// [`GdlError::Game`] when the static relations exceed the grounding limits, or when a
    /// component the queries need is not stratified by relation (this evaluator tests
    /// negation against finished components only).
    pub(crate) fn new(desc: &Description) -> Result<Self, GdlError> {
        let dynamic = dynamic_relations(desc);
        let g = static_tables(desc, &dynamic)?;
        let init: Vec<Term> = g
            .tables
            .get(&(kw::INIT, ANY))
            .map(|t| t.facts.iter().map(|f| f[0].clone()).collect())
            .unwrap_or_default();
        let mut statics = g.tables;
        statics.retain(|k, _| !dynamic.contains(&k.0));
        for t in statics.values_mut() {
            let arity = t.facts.first().map_or(0, Vec::len);
            for p in 0..arity {
                t.ensure_index(p);
            }
        }
        let keywords = [
            kw::LEGAL,
            kw::NEXT,
            kw::GOAL,
            kw::TERMINAL,
            kw::TRUE,
            kw::DOES,
            kw::INIT,
            kw::ROLE,
        ];
        let mut demand: HashMap<Sym, Vec<NRule>> = HashMap::default();
        for comp in &desc.sccs {
            let [rel] = comp.as_slice() else { continue };
            let recursive = desc.rules.iter().any(|r| {
                r.head.rel == *rel
                    && r.body
                        .iter()
                        .any(|l| matches!(l, NLit::Pos(a) | NLit::Neg(a) if a.rel == *rel))
            });
            if dynamic.contains(rel)
                && !keywords.contains(rel)
                && !recursive
                && !desc.unstratified.contains(rel)
            {
                demand.insert(
                    *rel,
                    desc.rules
                        .iter()
                        .filter(|r| r.head.rel == *rel)
                        .cloned()
                        .collect(),
                );
            }
        }
        // The components each target needs, through the rules' body relations.
        let comps_for = |targets: &[Sym]| -> Result<Vec<Vec<usize>>, GdlError> {
            let mut need: HashSet<Sym> = targets.iter().copied().collect();
            let mut stack: Vec<Sym> = targets.to_vec();
            while let Some(rel) = stack.pop() {
                for r in desc.rules.iter().filter(|r| r.head.rel == rel) {
                    for l in &r.body {
                        if let NLit::Pos(a) | NLit::Neg(a) = l {
                            if dynamic.contains(&a.rel) && need.insert(a.rel) {
                                stack.push(a.rel);
                            }
                        }
                    }
                }
            }
            let mut out = Vec::new();
            for comp in &desc.sccs {
                if !comp
                    .iter()
                    .any(|s| need.contains(s) && dynamic.contains(s) && !demand.contains_key(s))
                {
                    continue;
                }
                if comp.iter().any(|s| desc.unstratified.contains(s)) {
                    return Err(GdlError::Game(
                        "too large to ground, and negation is stratified only between ground \
                         atoms, which the fallback evaluator cannot decide"
                            .into(),
                    ));
                }
                out.push(
                    desc.rules
                        .iter()
                        .enumerate()
                        .filter(|(_, r)| comp.contains(&r.head.rel))
                        .map(|(i, _)| i)
                        .collect(),
                );
            }
            Ok(out)
        };
        Ok(Evaluator {
            state_comps: comps_for(&[kw::LEGAL, kw::TERMINAL, kw::GOAL])?,
            next_comps: comps_for(&[kw::NEXT])?,
            statics,
            dynamic,
            init,
            demand,
        })
    }

    /// The initial state: the arguments of the `init` facts.
    pub(crate) fn init(&self) -> &[Term] {
        &self.init
    }

    /// The facts of the dynamic relations `legal`, `terminal` and `goal` need (`next`
    /// ones, with `does` given as (role, action) pairs, when `does` is not empty) in the
    /// state whose true base propositions are `state`.
    ///
    /// # Errors
    /// [`GdlError::Game`] when the facts of one state exceed the grounding limits.
    pub(crate) fn eval(
        &self,
        desc: &Description,
        state: &[Term],
        does: Option<&[(Term, Term)]>,
    ) -> Result<Derived<'_>, GdlError> {
        let mut g = Grounder {
            tables: HashMap::default(),
            atoms: 0,
            dynamic: self.dynamic.clone(),
            statics: Some(&self.statics),
            exact: true,
            work: Default::default(),
            max_work: MAX_STATE_WORK,
            demand: Some(&self.demand),
            memo: Default::default(),
        };
        for t in state {
            let f = functor(t);
            g.table((kw::TRUE, f)).insert(vec![t.clone()]);
            g.table((kw::TRUE, ANY)).insert(vec![t.clone()]);
        }
        let comps = match does {
            Some(d) => {
                for (r, a) in d {
                    g.table((kw::DOES, ANY)).insert(vec![r.clone(), a.clone()]);
                }
                &self.next_comps
            }
            None => &self.state_comps,
        };
        let mut dummy = false;
        for comp in comps {
            let rules: Vec<&NRule> = comp.iter().map(|&i| &desc.rules[i]).collect();
            g.fixpoint(&rules, &mut dummy)?;
        }
        Ok(Derived {
            own: g.tables,
            statics: &self.statics,
        })
    }
}

impl Grounding {
    /// Grounds a checked description.
    ///
    /// # Errors
    /// [`GdlError::Game`] when the grounding exceeds [`MAX_GROUND_RULES`].
    pub fn new(desc: &Description) -> Result<Self, GdlError> {
        let dynamic = dynamic_relations(desc);
        let mut g = static_tables(desc, &dynamic)?;
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
        let mut seen: HashSet<GroundRule> = HashSet::default();
        let mut literals = 0usize;
        for r in dyn_rules {
            let plan = g.plan(r);
            for st in &plan.steps {
                if let (Some(p), true) = (st.index_pos, st.lit != usize::MAX) {
                    g.table(st.key).ensure_index(p);
                }
            }
            let gref = &g;
            let out = &mut out;
            let seen = &mut seen;
            let mut body: Vec<(u32, bool)> = Vec::new();
            // Each instance is interned as it is found (no list of instances in between).
            let mut emit = |b: &[Option<Term>]| -> Result<(), GdlError> {
                body.clear();
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
                            body.push((intern(out, a.rel, args), neg));
                        }
                        _ => {}
                    }
                }
                let head: Vec<Term> = r.head.args.iter().map(|t| subst(t, b)).collect();
                let head = intern(out, r.head.rel, head);
                body.sort_unstable();
                body.dedup();
                literals += body.len();
                let gr = GroundRule {
                    head,
                    body: body.clone(),
                };
                if !seen.contains(&gr) {
                    seen.insert(gr.clone());
                    out.rules.push(gr);
                }
                if out.rules.len() > MAX_GROUND_RULES {
                    return Err(too_large());
                }
                if literals > MAX_GROUND_LITERALS {
                    return Err(GdlError::Game(format!(
                        "grounding exceeds {MAX_GROUND_LITERALS} ground body literals"
                    )));
                }
                Ok(())
            };
            let mut binding = vec![None; r.vars as usize];
            gref.step(r, &plan, 0, &mut binding, &mut emit)?;
        }
        out.work = g.work.get();
        Ok(out)
    }
}
