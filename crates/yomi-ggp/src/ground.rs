//! Grounding: from the checked rules to ground rules over propositions.
//!
//! 1. Static relations (those that depend on neither `true` nor `does`) are evaluated
//!    exactly, bottom-up, one dependency component after another.
//! 2. The reachable domain of every dynamic relation is over-approximated by a relaxed
//!    fixpoint that ignores negative dynamic literals: `true` ranges over the `init` facts
//!    and every derivable `next` head, `does` over every derivable `legal` head. Static
//!    literals, `distinct` and its negation prune the joins as soon as their variables are
//!    bound; joins pick the most bound literal next and look candidates up in an index on
//!    every ground part of the literal (nested arguments included); a rule is re-run only
//!    when one of its body relations grew.
//! 3. Every dynamic rule is instantiated over those domains. Static literals disappear
//!    (they were checked), negative dynamic literals whose atom is outside the domain are
//!    always true and disappear too.
//!
//! Joins run over interned terms ([`Terms`]): every distinct ground term, and every ground
//! atom as the term `(rel args...)`, has one `u32` id, so that facts are rows of ids,
//! matching compares ids, and a fact, an index key or a ground rule hashes a few integers
//! instead of term trees. The rules are compiled once into patterns whose ground parts are
//! ids already ([`Pat`]).

use std::cell::{Cell, RefCell};
use std::hash::Hasher;
use std::rc::Rc;

use crate::fxhash::{FxHashMap as HashMap, FxHashSet as HashSet, FxHasher};

use crate::ast::{kw, Sym, Term};
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
/// (Candidates come from an index on every ground part of the literal, so most steps
/// match.)
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

/// No term: an unbound variable, an absent id.
const NONE: u32 = u32::MAX;

/// Receives each binding of a rule's variables (term ids, [`NONE`] where unbound).
/// The second argument is the fact number each step matched, in plan order (0 for a
/// step without a literal).
type Emit<'a> = dyn FnMut(&[u32], &[u32]) -> Result<(), GdlError> + 'a;

/// A call of a relation evaluated on demand: the relation, and the ids of the ground
/// arguments ([`NONE`] for the others).
type Call = (Sym, Box<[u32]>);

/// A table key: the relation, and for `true` the functor of its argument (or `ANY`).
type Key = (Sym, u32);

fn fx(f: u32, kids: &[u32]) -> u64 {
    let mut h = FxHasher::default();
    h.write_u32(f);
    for &k in kids {
        h.write_u32(k);
    }
    h.finish()
}

/// Open addressing over `u32` ids whose keys live elsewhere (the caller hashes and
/// compares them): no key is stored twice, and a lookup allocates nothing.
#[derive(Default)]
struct Slots {
    /// id + 1, 0 when empty; the length is 0 or a power of two.
    slots: Vec<u32>,
    len: usize,
}

impl Slots {
    fn start(&self, h: u64) -> usize {
        // Fx mixes into the high bits.
        (h >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    fn get(&self, h: u64, eq: impl Fn(u32) -> bool) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.start(h);
        loop {
            match self.slots[i] {
                0 => return None,
                s if eq(s - 1) => return Some(s - 1),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Adds `id` (not present) with hash `h`; `hash_of` rehashes the others on growth.
    fn insert(&mut self, h: u64, id: u32, hash_of: impl Fn(u32) -> u64) {
        if (self.len + 1) * 2 > self.slots.len() {
            let size = (self.slots.len() * 2).max(16);
            let old = std::mem::replace(&mut self.slots, vec![0; size]);
            self.len = 0;
            for s in old.into_iter().filter(|&s| s != 0) {
                self.put(hash_of(s - 1), s - 1);
            }
        }
        self.put(h, id);
    }

    fn put(&mut self, h: u64, id: u32) {
        let mask = self.slots.len() - 1;
        let mut i = self.start(h);
        while self.slots[i] != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = id + 1;
        self.len += 1;
    }
}

/// Hash-consed ground terms: one `u32` id per distinct term, so that term equality is id
/// equality. A ground atom is the term `(rel args...)`. A store may sit on a base store
/// (the fallback evaluator's static terms, shared by every state it evaluates): ids below
/// the base's size are the base's, and a term the base has is never added again.
#[derive(Default)]
pub(crate) struct Terms<'b> {
    base: Option<&'b Terms<'static>>,
    /// The first id of this layer (the base's size).
    first: u32,
    /// Per term of this layer: functor, start of its arguments in `kids`, argument count.
    nodes: Vec<(u32, u32, u32)>,
    kids: Vec<u32>,
    slots: Slots,
}

impl std::fmt::Debug for Terms<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Terms({} + {})", self.first, self.nodes.len())
    }
}

impl<'b> Terms<'b> {
    fn layered(base: &'b Terms<'static>) -> Self {
        Terms {
            base: Some(base),
            first: base.len() as u32,
            ..Terms::default()
        }
    }

    fn len(&self) -> usize {
        self.first as usize + self.nodes.len()
    }

    /// The functor and argument ids of term `id`.
    #[inline]
    fn node(&self, id: u32) -> (u32, &[u32]) {
        if id < self.first {
            if let Some(b) = self.base {
                return b.node(id);
            }
        }
        let (f, lo, n) = self.nodes[(id - self.first) as usize];
        (f, &self.kids[lo as usize..(lo + n) as usize])
    }

    fn find_own(&self, f: u32, kids: &[u32], h: u64) -> Option<u32> {
        self.slots
            .get(h, |i| {
                let (g, lo, n) = self.nodes[i as usize];
                g == f && &self.kids[lo as usize..(lo + n) as usize] == kids
            })
            .map(|i| i + self.first)
    }

    /// The id of `(f kids...)`, if the term exists.
    fn find(&self, f: u32, kids: &[u32]) -> Option<u32> {
        let h = fx(f, kids);
        if let Some(id) = self.base.and_then(|b| b.find_own(f, kids, h)) {
            return Some(id);
        }
        self.find_own(f, kids, h)
    }

    /// The id of `(f kids...)`, added if new.
    fn intern(&mut self, f: u32, kids: &[u32]) -> u32 {
        let h = fx(f, kids);
        if let Some(id) = self.base.and_then(|b| b.find_own(f, kids, h)) {
            return id;
        }
        if let Some(id) = self.find_own(f, kids, h) {
            return id;
        }
        let i = self.nodes.len() as u32;
        self.nodes
            .push((f, self.kids.len() as u32, kids.len() as u32));
        self.kids.extend_from_slice(kids);
        let (nodes, all) = (&self.nodes, &self.kids);
        self.slots.insert(h, i, |j| {
            let (g, lo, n) = nodes[j as usize];
            fx(g, &all[lo as usize..(lo + n) as usize])
        });
        i + self.first
    }

    /// The id of a ground term.
    fn of_term(&mut self, t: &Term) -> u32 {
        match t {
            Term::Sym(s) => self.intern(s.0, &[]),
            // Not ground: grounding never asks (rules are safe); an id no fact has.
            Term::Var(_) => NONE,
            Term::Fn(f, args) => {
                let kids: Vec<u32> = args.iter().map(|a| self.of_term(a)).collect();
                self.intern(f.0, &kids)
            }
        }
    }

    /// The term of `id`.
    fn term(&self, id: u32) -> Term {
        let (f, kids) = self.node(id);
        if kids.is_empty() {
            Term::Sym(Sym(f))
        } else {
            Term::Fn(Sym(f), kids.iter().map(|&k| self.term(k)).collect())
        }
    }
}

/// A rule's term, compiled: its ground parts are term ids.
#[derive(Clone, Debug)]
enum Pat {
    Var(u32),
    Const(u32),
    Fn(u32, Box<[Pat]>),
}

impl Pat {
    fn new(terms: &mut Terms<'_>, t: &Term) -> Pat {
        match t {
            Term::Var(v) => Pat::Var(*v),
            _ if t.is_ground() => Pat::Const(terms.of_term(t)),
            Term::Fn(f, args) => Pat::Fn(f.0, args.iter().map(|a| Pat::new(terms, a)).collect()),
            Term::Sym(_) => unreachable!("a constant is ground"),
        }
    }
}

/// A rule's body literal, compiled (the relation is the [`NRule`]'s).
#[derive(Clone, Debug)]
enum CLit {
    Pos(Box<[Pat]>),
    Neg(Box<[Pat]>),
    Distinct(Pat, Pat),
    Same(Pat, Pat),
}

/// A rule compiled against a term store: head arguments and body, literal for literal.
#[derive(Clone, Debug)]
pub(crate) struct CRule {
    head: Box<[Pat]>,
    body: Vec<CLit>,
}

fn compile(terms: &mut Terms<'_>, r: &NRule) -> CRule {
    let pats = |terms: &mut Terms<'_>, a: &[Term]| a.iter().map(|t| Pat::new(terms, t)).collect();
    CRule {
        head: pats(terms, &r.head.args),
        body: r
            .body
            .iter()
            .map(|l| match l {
                NLit::Pos(a) => CLit::Pos(pats(terms, &a.args)),
                NLit::Neg(a) => CLit::Neg(pats(terms, &a.args)),
                NLit::Distinct(x, y) => CLit::Distinct(Pat::new(terms, x), Pat::new(terms, y)),
                NLit::Same(x, y) => CLit::Same(Pat::new(terms, x), Pat::new(terms, y)),
            })
            .collect(),
    }
}

/// Matches pattern `p` against term `id`, binding its unbound variables (recorded in
/// `trail`).
fn unify(t: &Terms<'_>, p: &Pat, id: u32, b: &mut [u32], trail: &mut Vec<u32>) -> bool {
    match p {
        Pat::Const(c) => *c == id,
        Pat::Var(v) => {
            let slot = &mut b[*v as usize];
            if *slot == NONE {
                *slot = id;
                trail.push(*v);
                true
            } else {
                *slot == id
            }
        }
        Pat::Fn(f, ps) => {
            let (g, kids) = t.node(id);
            g == *f
                && kids.len() == ps.len()
                && ps.iter().zip(kids).all(|(p, &k)| unify(t, p, k, b, trail))
        }
    }
}

/// Whether every variable of `p` is bound.
fn is_bound(p: &Pat, b: &[u32]) -> bool {
    match p {
        Pat::Const(_) => true,
        Pat::Var(v) => b[*v as usize] != NONE,
        Pat::Fn(_, ps) => ps.iter().all(|p| is_bound(p, b)),
    }
}

/// Calls `f` with the ids of `ps` under `b` (all bound), without allocating for short
/// lists; `None` when one is a term that does not exist.
fn with_ids<R>(
    ps: &[Pat],
    mut id: impl FnMut(&Pat) -> Option<u32>,
    f: impl FnOnce(&[u32]) -> R,
) -> Option<R> {
    if ps.len() <= 8 {
        let mut buf = [0u32; 8];
        for (slot, p) in buf.iter_mut().zip(ps) {
            *slot = id(p)?;
        }
        Some(f(&buf[..ps.len()]))
    } else {
        let v: Option<Vec<u32>> = ps.iter().map(id).collect();
        Some(f(&v?))
    }
}

/// The id of `p` under `b` (all bound), if that term exists.
fn find_pat(t: &Terms<'_>, p: &Pat, b: &[u32]) -> Option<u32> {
    match p {
        Pat::Const(c) => Some(*c),
        Pat::Var(v) => Some(b[*v as usize]).filter(|&x| x != NONE),
        Pat::Fn(f, ps) => with_ids(ps, |p| find_pat(t, p, b), |k| t.find(*f, k)).flatten(),
    }
}

/// The id of the atom `(rel ps...)` under `b` (all bound), if it exists.
fn find_atom(t: &Terms<'_>, rel: Sym, ps: &[Pat], b: &[u32]) -> Option<u32> {
    with_ids(ps, |p| find_pat(t, p, b), |k| t.find(rel.0, k)).flatten()
}

/// The id of `p` under `b` (all bound), added if new.
fn build(t: &mut Terms<'_>, p: &Pat, b: &[u32]) -> u32 {
    match p {
        Pat::Const(c) => *c,
        Pat::Var(v) => b[*v as usize],
        Pat::Fn(f, ps) => {
            let kids: Vec<u32> = ps.iter().map(|p| build(t, p, b)).collect();
            t.intern(*f, &kids)
        }
    }
}

/// Whether `p` under `b` is the term `id`.
fn matches(t: &Terms<'_>, p: &Pat, id: u32, b: &[u32]) -> bool {
    match p {
        Pat::Const(c) => *c == id,
        Pat::Var(v) => b[*v as usize] == id,
        Pat::Fn(f, ps) => {
            let (g, kids) = t.node(id);
            g == *f
                && kids.len() == ps.len()
                && ps.iter().zip(kids).all(|(p, &k)| matches(t, p, k, b))
        }
    }
}

/// Whether `x` and `y` under `b` (all bound) are the same term.
fn same(t: &Terms<'_>, x: &Pat, y: &Pat, b: &[u32]) -> bool {
    let val = |p: &Pat| match p {
        Pat::Const(c) => *c,
        Pat::Var(v) => b[*v as usize],
        Pat::Fn(..) => NONE,
    };
    match (x, y) {
        (Pat::Fn(f, xs), Pat::Fn(g, ys)) => {
            f == g
                && xs.len() == ys.len()
                && xs.iter().zip(ys.iter()).all(|(x, y)| same(t, x, y, b))
        }
        (Pat::Fn(..), _) => matches(t, x, val(y), b),
        (_, Pat::Fn(..)) => matches(t, y, val(x), b),
        _ => val(x) == val(y),
    }
}

/// Where an index looks: the argument position, then per level below it (functor,
/// argument count, argument position); the term on the way must have that functor and
/// count.
type Path = Box<[u32]>;

/// The paths an index is keyed on.
type Spec = Box<[Path]>;

/// The term at `path` of a fact's arguments, if the fact has that shape there.
fn extract(t: &Terms<'_>, row: &[u32], path: &[u32]) -> Option<u32> {
    let mut id = *row.get(path[0] as usize)?;
    for c in path[1..].chunks_exact(3) {
        let (f, kids) = t.node(id);
        if f != c[0] || kids.len() != c[1] as usize {
            return None;
        }
        id = kids[c[2] as usize];
    }
    Some(id)
}

/// A fact's key in an index of `spec` (`None`: the fact cannot match such a pattern).
fn row_key(t: &Terms<'_>, spec: &[Path], row: &[u32]) -> Option<u64> {
    let mut h = FxHasher::default();
    for p in spec {
        h.write_u32(extract(t, row, p)?);
    }
    Some(h.finish())
}

/// A pattern's key in an index of `spec` (`None`: a ground part is a term that does not
/// exist, so no fact matches).
fn pat_key(t: &Terms<'_>, spec: &[Path], args: &[Pat], b: &[u32]) -> Option<u64> {
    let mut h = FxHasher::default();
    for path in spec {
        let mut p = &args[path[0] as usize];
        for c in path[1..].chunks_exact(3) {
            let Pat::Fn(_, ps) = p else {
                unreachable!("index paths follow the pattern")
            };
            p = &ps[c[2] as usize];
        }
        h.write_u32(find_pat(t, p, b)?);
    }
    Some(h.finish())
}

/// The facts of one relation (for `true`, of one functor): argument rows of term ids.
#[derive(Default)]
struct Table {
    /// Every fact's arguments, one after another; fact `i` starts at `start[i]`.
    args: Vec<u32>,
    start: Vec<u32>,
    /// The atom id of each fact.
    atoms: Vec<u32>,
    set: HashSet<u32>,
    /// Fact numbers by key, per spec (a key may collide: candidates are matched anyway).
    index: HashMap<Spec, HashMap<u64, Vec<u32>>>,
}

impl Table {
    fn len(&self) -> usize {
        self.atoms.len()
    }

    fn is_empty(&self) -> bool {
        self.atoms.is_empty()
    }

    fn row(&self, i: usize) -> &[u32] {
        let lo = self.start[i] as usize;
        let hi = self
            .start
            .get(i + 1)
            .map_or(self.args.len(), |&h| h as usize);
        &self.args[lo..hi]
    }

    fn insert(&mut self, t: &Terms<'_>, atom: u32, row: &[u32]) -> bool {
        if !self.set.insert(atom) {
            return false;
        }
        let id = self.atoms.len() as u32;
        for (spec, idx) in self.index.iter_mut() {
            if let Some(k) = row_key(t, spec, row) {
                idx.entry(k).or_default().push(id);
            }
        }
        self.atoms.push(atom);
        self.start.push(self.args.len() as u32);
        self.args.extend_from_slice(row);
        true
    }

    fn ensure_index(&mut self, t: &Terms<'_>, spec: &Spec) {
        if spec.is_empty() || self.index.contains_key(spec) {
            return;
        }
        let mut idx: HashMap<u64, Vec<u32>> = HashMap::default();
        for i in 0..self.len() {
            if let Some(k) = row_key(t, spec, self.row(i)) {
                idx.entry(k).or_default().push(i as u32);
            }
        }
        self.index.insert(spec.clone(), idx);
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} facts)", self.len())
    }
}

fn functor(t: &Term) -> u32 {
    match t {
        Term::Sym(s) | Term::Fn(s, _) => s.0,
        Term::Var(_) => ANY,
    }
}

fn key_of(a: &crate::ast::Atom) -> Key {
    if a.rel == kw::TRUE {
        (a.rel, a.args.first().map_or(ANY, functor))
    } else {
        (a.rel, ANY)
    }
}

/// Whether `t` is ground once the variables in `bound` are.
fn ground_under(t: &Term, bound: &[bool]) -> bool {
    match t {
        Term::Sym(_) => true,
        Term::Var(v) => bound.get(*v as usize).copied().unwrap_or(false),
        Term::Fn(_, args) => args.iter().all(|a| ground_under(a, bound)),
    }
}

/// The paths of the largest ground parts of `t` (at `path`).
fn ground_paths(t: &Term, bound: &[bool], path: &mut Vec<u32>, out: &mut Vec<Path>) {
    if ground_under(t, bound) {
        out.push(path.as_slice().into());
    } else if let Term::Fn(f, args) = t {
        for (k, a) in args.iter().enumerate() {
            path.extend([f.0, args.len() as u32, k as u32]);
            ground_paths(a, bound, path, out);
            path.truncate(path.len() - 3);
        }
    }
}

/// How a rule is joined: which literal to match at each step, which tests follow it.
struct Plan {
    steps: Vec<Step>,
}

struct Step {
    lit: usize,
    key: Key,
    /// The ground parts of the literal when the step runs, for the index (empty: none).
    spec: Spec,
    /// The first wholly ground argument alone: the index static tables of the fallback
    /// evaluator have (they are indexed on every argument in advance).
    spec1: Option<Spec>,
    /// Tests (body literal indices) whose variables are bound after this step.
    checks: Vec<usize>,
}

struct Grounder<'s> {
    terms: RefCell<Terms<'s>>,
    /// The rules, and the same compiled against `terms` (or its base).
    rules: &'s [NRule],
    crules: &'s [CRule],
    tables: HashMap<Key, Table>,
    atoms: usize,
    dynamic: HashSet<Sym>,
    /// Tables read besides `tables` (the static relations, already complete and indexed on
    /// every argument), for the exact evaluation of one state by [`Evaluator`].
    statics: Option<&'s HashMap<Key, Table>>,
    /// Exact evaluation (of one state, by [`Evaluator`]): every negated literal is
    /// tested, and `next` heads do not feed `true`.
    exact: bool,
    /// Join steps taken so far, and the most allowed ([`MAX_GROUND_WORK`],
    /// [`MAX_STATE_WORK`]).
    work: Cell<u64>,
    max_work: u64,
    /// Relations evaluated on demand, top-down ([`Evaluator`]): their rules (indices into
    /// `rules`) by relation.
    demand: Option<&'s HashMap<Sym, Vec<usize>>>,
    /// The answers found on demand, by relation and call pattern (the ids of its ground
    /// arguments, [`NONE`] for the others).
    memo: RefCell<HashMap<Call, Rc<Table>>>,
    /// Per rule (index into `rules`): the size of each positive body literal's table
    /// when [`Grounder::fixpoint`] last ran it (`None`: never).
    seen: Vec<Option<Vec<u32>>>,
}

impl<'s> Grounder<'s> {
    fn new(
        terms: Terms<'s>,
        rules: &'s [NRule],
        crules: &'s [CRule],
        dynamic: HashSet<Sym>,
    ) -> Self {
        Grounder {
            terms: RefCell::new(terms),
            rules,
            crules,
            tables: HashMap::default(),
            atoms: 0,
            dynamic,
            statics: None,
            exact: false,
            work: Cell::default(),
            max_work: MAX_GROUND_WORK,
            demand: None,
            memo: RefCell::default(),
            seen: Vec::new(),
        }
    }

    /// The table of `key`, own or static.
    fn get(&self, key: &Key) -> Option<&Table> {
        self.tables
            .get(key)
            .or_else(|| self.statics.and_then(|s| s.get(key)))
    }

    fn size(&self, key: Key) -> usize {
        self.get(&key).map_or(0, Table::len)
    }

    /// Adds a fact to the table of `key`.
    fn insert(&mut self, key: Key, row: &[u32]) -> bool {
        let t = self.terms.get_mut();
        let atom = t.intern(key.0 .0, row);
        self.tables.entry(key).or_default().insert(t, atom, row)
    }

    /// Adds a `true` fact (both tables).
    fn insert_true(&mut self, arg: u32) {
        let f = self.terms.get_mut().node(arg).0;
        self.insert((kw::TRUE, f), &[arg]);
        self.insert((kw::TRUE, ANY), &[arg]);
    }

    /// Adds a derived fact, whose atom (the term `(rel args...)`) is `atom`; `true` gets
    /// the `next` heads (unless exact).
    fn add_atom(&mut self, rel: Sym, atom: u32, args: &[u32]) -> bool {
        let t = self.terms.get_mut();
        let new = self
            .tables
            .entry((rel, ANY))
            .or_default()
            .insert(t, atom, args);
        if new && rel == kw::NEXT && !self.exact {
            self.insert_true(args[0]);
        }
        new
    }

    /// The facts of the table of `key` (argument rows), copied.
    fn rows(&self, key: Key) -> Vec<Vec<u32>> {
        self.tables.get(&key).map_or_else(Vec::new, |t| {
            (0..t.len()).map(|i| t.row(i).to_vec()).collect()
        })
    }

    /// Builds the indexes the plan's steps look up in (own tables; static ones come
    /// indexed on every argument).
    fn prepare(&mut self, plan: &Plan) {
        let t = self.terms.get_mut();
        for s in &plan.steps {
            if s.lit == usize::MAX
                || s.spec.is_empty()
                || self.statics.is_some_and(|st| st.contains_key(&s.key))
            {
                continue;
            }
            self.tables
                .entry(s.key)
                .or_default()
                .ensure_index(t, &s.spec);
        }
    }

    /// The join order of `r`: repeatedly the positive literal with the most bound argument
    /// positions (then the fewest unbound variables, then the smaller table, then body
    /// order), each test placed after the first step that binds all its variables. The
    /// variables set in `pre_bound` count as bound from the start.
    ///
    /// Near-linear in the body length (bodies of thousands of literals are legal GDL): the
    /// literals' scores are kept up to date as variables become bound (through an index
    /// from each variable to the literals and tests that hold it) and the best one is taken
    /// from a heap whose stale entries are skipped. `first`, when given, is the
    /// (positive) literal joined first whatever its score: the delta of a semi-naive
    /// re-run ([`Grounder::fixpoint`]).
    fn plan(&self, r: &NRule, pre_bound: &[bool], first: Option<usize>) -> Plan {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        /// Variable `v` becomes bound: the counts of the literals and arguments that hold
        /// it go down (`unbound` per literal, `arg_unbound` per argument, `ground_args`
        /// up when an argument becomes ground), and the tests (literals that are not
        /// positive) it leaves with no unbound variable go to `ready`.
        fn bind(
            v: usize,
            occurs: &[Vec<(usize, usize, usize)>],
            body: &[NLit],
            (unbound, arg_unbound, ground_args): (&mut [usize], &mut [Vec<usize>], &mut [usize]),
            ready: &mut Vec<usize>,
        ) {
            for &(j, p, c) in &occurs[v] {
                if p == usize::MAX {
                    unbound[j] -= c;
                    if !matches!(body[j], NLit::Pos(_)) && unbound[j] == 0 {
                        ready.push(j);
                    }
                } else {
                    arg_unbound[j][p] -= 1;
                    if arg_unbound[j][p] == 0 {
                        ground_args[j] += 1;
                    }
                }
            }
        }
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
        // Variables bound before the first step (a call pattern's ground arguments), as if
        // a step had bound them; tests with no other variables run before any step.
        let mut pre = Vec::new();
        for v in 0..nvars.min(pre_bound.len()) {
            if !pre_bound[v] {
                continue;
            }
            bound[v] = true;
            let counts = (&mut unbound[..], &mut arg_unbound[..], &mut ground_args[..]);
            bind(v, &occurs, &r.body, counts, &mut pre);
        }
        let mut remaining = vec![false; n];
        let mut heap: BinaryHeap<((i64, i64), Reverse<usize>)> = BinaryHeap::new();
        for (i, l) in r.body.iter().enumerate() {
            if matches!(l, NLit::Pos(_)) {
                remaining[i] = true;
                heap.push((score(i, &unbound, &ground_args), Reverse(i)));
            } else if lit_vars[i].is_empty() {
                // Tests with no variables run before any step.
                pre.push(i);
            }
        }
        pre.sort_unstable();
        let mut left = remaining.iter().filter(|&&x| x).count();
        let mut steps = Vec::new();
        let mut first = first.filter(|&i| remaining.get(i).copied().unwrap_or(false));
        while left > 0 {
            let picked = match first.take() {
                Some(i) => Some((score(i, &unbound, &ground_args), Reverse(i))),
                None => heap.pop(),
            };
            let Some((sc, Reverse(i))) = picked else {
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
            let mut paths = Vec::new();
            let mut path = Vec::new();
            for (k, t) in a.args.iter().enumerate() {
                path.clear();
                path.push(k as u32);
                ground_paths(t, &bound, &mut path, &mut paths);
            }
            let spec1 = paths
                .iter()
                .find(|p| p.len() == 1)
                .map(|p| vec![p.clone()].into_boxed_slice());
            let mut checks = std::mem::take(&mut pre);
            let mut ready = Vec::new();
            for &v in &lit_vars[i] {
                let v = v as usize;
                if v >= nvars || bound[v] {
                    continue;
                }
                bound[v] = true;
                let counts = (&mut unbound[..], &mut arg_unbound[..], &mut ground_args[..]);
                bind(v, &occurs, &r.body, counts, &mut ready);
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
                spec: paths.into_boxed_slice(),
                spec1,
                checks,
            });
        }
        if !pre.is_empty() {
            // A body without positive literals: one empty step carries the tests.
            steps.push(Step {
                lit: usize::MAX,
                key: (kw::ROLE, ANY),
                spec: Box::default(),
                spec1: None,
                checks: pre,
            });
        }
        Plan { steps }
    }

    /// Enumerates the bindings of rule `ri` that satisfy the steps from `k` on (the
    /// bindings of the earlier steps are in `binding`), calling `emit` for each. Negative
    /// literals on dynamic relations are not tested unless exact. Iterative, with one
    /// frame per step on an explicit stack: a body of thousands of literals must not
    /// exhaust the thread's stack. Run [`Grounder::prepare`] on the plan first.
    ///
    /// `ranges`, unless empty, restricts each positive body literal (by index) to the
    /// facts numbered in `lo..hi` of its table (relations evaluated on demand are not
    /// restricted). Candidates are tried in increasing fact number at every step, so
    /// `emit` sees the bindings in lexicographic order of the fact numbers it is given.
    fn step(
        &self,
        ri: usize,
        plan: &Plan,
        k: usize,
        binding: &mut [u32],
        ranges: &[(u32, u32)],
        emit: &mut Emit<'_>,
    ) -> Result<(), GdlError> {
        /// The candidates of one step: fact numbers from an index, all facts, or the one
        /// pass of a step without a literal.
        enum Cands<'t> {
            Ids(&'t [u32]),
            All,
            Once,
            /// Answers of a relation evaluated on demand.
            Owned(Rc<Table>),
        }
        struct Frame<'t> {
            k: usize,
            table: Option<&'t Table>,
            cands: Cands<'t>,
            next: usize,
            /// The end of the candidates of `Cands::All` (the range's end, or the table's
            /// length).
            end: usize,
            /// Variables bound by the candidate being tried.
            trail: Vec<u32>,
        }
        let (r, cr) = (&self.rules[ri], &self.crules[ri]);
        let empty: &[u32] = &[];
        // The frame for step `k`, or `None` when the step has no candidates at all.
        let frame = |k: usize, binding: &[u32]| -> Result<Option<Frame<'_>>, GdlError> {
            let s = &plan.steps[k];
            let (lo, hi) = ranges
                .get(s.lit)
                .map_or((0, usize::MAX), |&(lo, hi)| (lo as usize, hi as usize));
            let mk = |table, cands, next, end| {
                Ok(Some(Frame {
                    k,
                    table,
                    cands,
                    next,
                    end,
                    trail: Vec::new(),
                }))
            };
            if s.lit == usize::MAX {
                return mk(None, Cands::Once, 0, 0);
            }
            let (NLit::Pos(a), CLit::Pos(ps)) = (&r.body[s.lit], &cr.body[s.lit]) else {
                return Ok(None);
            };
            if self.demand.is_some_and(|d| d.contains_key(&a.rel)) {
                let pattern: Vec<u32> = {
                    let mut t = self.terms.borrow_mut();
                    ps.iter()
                        .map(|p| {
                            if is_bound(p, binding) {
                                build(&mut t, p, binding)
                            } else {
                                NONE
                            }
                        })
                        .collect()
                };
                return mk(None, Cands::Owned(self.answers(a.rel, &pattern)?), 0, 0);
            }
            let Some(table) = self.get(&s.key) else {
                return Ok(None);
            };
            let all = (lo, table.len().min(hi));
            if s.spec.is_empty() {
                return mk(Some(table), Cands::All, all.0, all.1);
            }
            let picked = match table.index.get(&s.spec) {
                Some(idx) => Some((idx, &s.spec)),
                // Not indexed so (a static table): its index on one argument, or a scan.
                None => s
                    .spec1
                    .as_ref()
                    .and_then(|sp| table.index.get(sp).map(|idx| (idx, sp))),
            };
            let (cands, next) = match picked {
                Some((idx, spec)) => {
                    let t = self.terms.borrow();
                    let mut ids = pat_key(&t, spec, ps, binding)
                        .and_then(|key| idx.get(&key))
                        .map_or(empty, Vec::as_slice);
                    if (lo, hi) != (0, usize::MAX) {
                        // Fact numbers are pushed in increasing order.
                        let a = ids.partition_point(|&i| (i as usize) < lo);
                        let b = ids.partition_point(|&i| (i as usize) < hi);
                        ids = &ids[a..b.max(a)];
                    }
                    (Cands::Ids(ids), 0)
                }
                None => (Cands::All, all.0),
            };
            mk(Some(table), cands, next, all.1)
        };
        let mut rows = vec![0u32; plan.steps.len()];
        if k >= plan.steps.len() {
            return emit(binding, &rows);
        }
        let mut stack: Vec<Frame<'_>> = Vec::with_capacity(plan.steps.len() - k);
        if let Some(f) = frame(k, &*binding)? {
            stack.push(f);
        }
        while let Some(f) = stack.last_mut() {
            // Undo the bindings of the candidate tried last at this step.
            for &v in &f.trail {
                binding[v as usize] = NONE;
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
                    self.checks_pass(ri, &s.checks, binding)?
                }
                Cands::Ids(_) | Cands::All | Cands::Owned(_) => {
                    let row = match (&f.cands, f.table) {
                        (Cands::Ids(ids), Some(table)) => ids
                            .get(f.next)
                            .map(|&i| (i as usize, table.row(i as usize))),
                        (Cands::All, Some(table)) => {
                            (f.next < f.end).then(|| (f.next, table.row(f.next)))
                        }
                        (Cands::Owned(v), _) => (f.next < v.len()).then(|| (f.next, v.row(f.next))),
                        _ => None,
                    };
                    let Some((number, row)) = row else {
                        stack.pop();
                        continue;
                    };
                    rows[f.k] = number as u32;
                    f.next += 1;
                    let w = self.work.get() + 1;
                    self.work.set(w);
                    if w > self.max_work {
                        return Err(GdlError::Game(format!(
                            "grounding exceeds {} join steps",
                            self.max_work
                        )));
                    }
                    let CLit::Pos(ps) = &cr.body[s.lit] else {
                        unreachable!("literal steps match positive literals")
                    };
                    let unified = {
                        let t = self.terms.borrow();
                        row.len() == ps.len()
                            && ps
                                .iter()
                                .zip(row)
                                .all(|(p, &g)| unify(&t, p, g, binding, &mut f.trail))
                    };
                    unified && self.checks_pass(ri, &s.checks, binding)?
                }
            };
            if !matched {
                continue;
            }
            let next = f.k + 1;
            if next == plan.steps.len() {
                emit(binding, &rows)?;
            } else if let Some(nf) = frame(next, &*binding)? {
                stack.push(nf);
            }
        }
        Ok(())
    }

    fn checks_pass(&self, ri: usize, checks: &[usize], b: &[u32]) -> Result<bool, GdlError> {
        let (r, cr) = (&self.rules[ri], &self.crules[ri]);
        for &c in checks {
            let ok = match (&r.body[c], &cr.body[c]) {
                (_, CLit::Distinct(x, y)) => !same(&self.terms.borrow(), x, y, b),
                (_, CLit::Same(x, y)) => same(&self.terms.borrow(), x, y, b),
                (NLit::Neg(a), CLit::Neg(ps))
                    if self.demand.is_some_and(|d| d.contains_key(&a.rel)) =>
                {
                    let pattern: Vec<u32> = {
                        let mut t = self.terms.borrow_mut();
                        ps.iter().map(|p| build(&mut t, p, b)).collect()
                    };
                    self.answers(a.rel, &pattern)?.is_empty()
                }
                (NLit::Neg(a), CLit::Neg(ps)) if self.exact || !self.dynamic.contains(&a.rel) => {
                    match find_atom(&self.terms.borrow(), a.rel, ps, b) {
                        // No such term: no such fact.
                        None => true,
                        Some(atom) => !self
                            .get(&(a.rel, ANY))
                            .is_some_and(|t| t.set.contains(&atom)),
                    }
                }
                _ => true,
            };
            if !ok {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The facts of a relation evaluated on demand that match `pattern` (the ids of the
    /// call's ground arguments, [`NONE`] for the others), memoised for the state: each
    /// rule of the relation with its head matched against the pattern, its body joined
    /// like any rule's. A partly ground argument binds nothing: the answers may then be
    /// more than the call asks for, and the caller's own matching filters them. Such
    /// relations are not recursive, so this terminates.
    fn answers(&self, rel: Sym, pattern: &[u32]) -> Result<Rc<Table>, GdlError> {
        let key = (rel, Box::<[u32]>::from(pattern));
        if let Some(v) = self.memo.borrow().get(&key) {
            return Ok(v.clone());
        }
        let mut out = Table::default();
        let rules = self
            .demand
            .and_then(|d| d.get(&rel))
            .map_or(&[][..], Vec::as_slice);
        for &ri in rules {
            let (r, cr) = (&self.rules[ri], &self.crules[ri]);
            if cr.head.len() != pattern.len() {
                continue;
            }
            let mut b = vec![NONE; r.vars as usize];
            let mut trail = Vec::new();
            let matched = {
                let t = self.terms.borrow();
                cr.head
                    .iter()
                    .zip(pattern)
                    .all(|(h, &id)| id == NONE || unify(&t, h, id, &mut b, &mut trail))
            };
            if !matched {
                continue;
            }
            let pre: Vec<bool> = b.iter().map(|&x| x != NONE).collect();
            let plan = self.plan(r, &pre, None);
            self.step(ri, &plan, 0, &mut b, &[], &mut |b, _| {
                let mut t = self.terms.borrow_mut();
                let head: Vec<u32> = cr.head.iter().map(|p| build(&mut t, p, b)).collect();
                let atom = t.intern(rel.0, &head);
                out.insert(&t, atom, &head);
                if out.len() > MAX_GROUND_ATOMS {
                    return Err(GdlError::Game(format!(
                        "one query derives more than {MAX_GROUND_ATOMS} atoms"
                    )));
                }
                Ok(())
            })?;
        }
        let v = Rc::new(out);
        self.memo.borrow_mut().insert(key, v.clone());
        Ok(v)
    }

    /// Runs the rules `rules` (indices) to a fixpoint, semi-naively: a rule runs again
    /// only when a table of its body grew since its last run, and then joins only the
    /// bindings that use at least one fact added since (for each positive literal whose
    /// table grew, one join with that literal first, restricted to its new facts, the
    /// literals before it in the rule's plan to their old facts and the others to all of
    /// them). The new heads are added in the order a full join over the rule's plan would
    /// find them (the lexicographic order of the fact numbers matched at each step), so
    /// the tables, and with them the grounding, are the same as with naive evaluation.
    fn fixpoint(&mut self, rules: &[usize], outer: &mut bool) -> Result<(), GdlError> {
        let all = self.rules;
        if self.seen.len() < all.len() {
            self.seen.resize(all.len(), None);
        }
        loop {
            let mut changed = false;
            for &ri in rules {
                let r = &all[ri];
                let on_demand = |rel: &Sym| self.demand.is_some_and(|d| d.contains_key(rel));
                let sizes: Vec<u32> = r
                    .body
                    .iter()
                    .map(|l| match l {
                        NLit::Pos(a) if !on_demand(&a.rel) => self.size(key_of(a)) as u32,
                        _ => 0,
                    })
                    .collect();
                if self.seen[ri].as_ref() == Some(&sizes) {
                    continue;
                }
                let old = self.seen[ri].replace(sizes.clone());
                // The plan a full join would take; the fact numbers it matches order the
                // new heads.
                let base = self.plan(r, &[], None);
                let n = base.steps.len();
                let mut pos = vec![usize::MAX; r.body.len()];
                for (p, s) in base.steps.iter().enumerate() {
                    if s.lit != usize::MAX {
                        pos[s.lit] = p;
                    }
                }
                // The joins to run: (plan, fact ranges per literal).
                let mut runs: Vec<(Plan, Vec<(u32, u32)>)> = Vec::new();
                // Several tables that more than doubled: one full join costs less than a
                // join per grown literal (its heads come in order, the known ones are
                // dropped).
                let grown = |o: &Vec<u32>| {
                    let g = (0..o.len()).filter(|&l| o[l] < sizes[l]);
                    g.clone().count() > 1 && g.clone().any(|l| sizes[l] - o[l] > o[l])
                };
                let sorted = match &old {
                    Some(o) if grown(o) => {
                        runs.push((base, Vec::new()));
                        false
                    }
                    None => {
                        runs.push((base, Vec::new()));
                        false
                    }
                    Some(old) => {
                        for p in 0..n {
                            let j = base.steps[p].lit;
                            if j == usize::MAX || old[j] == sizes[j] {
                                continue;
                            }
                            let mut ranges = vec![(0, u32::MAX); r.body.len()];
                            let mut empty = false;
                            for (l, range) in ranges.iter_mut().enumerate() {
                                let NLit::Pos(a) = &r.body[l] else { continue };
                                if on_demand(&a.rel) {
                                    continue;
                                }
                                if l == j {
                                    *range = (old[l], sizes[l]);
                                } else if pos[l] < p {
                                    *range = (0, old[l]);
                                    empty |= old[l] == 0;
                                }
                            }
                            if !empty {
                                runs.push((self.plan(r, &[], Some(j)), ranges));
                            }
                        }
                        true
                    }
                };
                let head = &self.crules[ri].head;
                let arity = head.len();
                let rel = r.head.rel;
                // The new heads found, `arity` ids each, and (when they must be sorted)
                // the fact numbers matched at each step of `base`, `n` each.
                let mut heads: Vec<u32> = Vec::new();
                let mut atoms: Vec<u32> = Vec::new();
                let mut keys: Vec<u32> = Vec::new();
                let mut count = 0usize;
                for (plan, ranges) in &runs {
                    self.prepare(plan);
                    let (terms, known) = (&self.terms, self.tables.get(&(rel, ANY)));
                    self.step(
                        ri,
                        plan,
                        0,
                        &mut vec![NONE; r.vars as usize],
                        ranges,
                        &mut |b, rows| {
                            count += 1;
                            if count > MAX_GROUND_RULES {
                                return Err(too_large());
                            }
                            let mut t = terms.borrow_mut();
                            heads.extend(head.iter().map(|p| build(&mut t, p, b)));
                            let atom = t.intern(rel.0, &heads[heads.len() - arity..]);
                            if known.is_some_and(|k| k.set.contains(&atom)) {
                                heads.truncate(heads.len() - arity);
                                return Ok(());
                            }
                            atoms.push(atom);
                            if sorted {
                                let k = keys.len();
                                keys.resize(k + n, 0);
                                for (s, &row) in plan.steps.iter().zip(rows) {
                                    keys[k + pos[s.lit]] = row;
                                }
                            }
                            Ok(())
                        },
                    )?;
                }
                let mut order: Vec<usize> = (0..atoms.len()).collect();
                // (Already in order when one join ran, with its delta literal first in the
                // plan too.)
                if sorted
                    && atoms.len() > 1
                    && keys
                        .chunks_exact(n)
                        .zip(keys.chunks_exact(n).skip(1))
                        .any(|(x, y)| x > y)
                {
                    order.sort_unstable_by(|&x, &y| {
                        keys[x * n..(x + 1) * n].cmp(&keys[y * n..(y + 1) * n])
                    });
                }
                for h in order {
                    if self.add_atom(rel, atoms[h], &heads[h * arity..(h + 1) * arity]) {
                        self.atoms += 1;
                        if self.atoms > MAX_GROUND_ATOMS {
                            return Err(GdlError::Game(format!(
                                "grounding derives more than {MAX_GROUND_ATOMS} atoms"
                            )));
                        }
                        changed = true;
                        if rel == kw::NEXT || rel == kw::LEGAL {
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
fn static_tables<'s>(
    desc: &'s Description,
    dynamic: &HashSet<Sym>,
    terms: Terms<'s>,
    crules: &'s [CRule],
) -> Result<Grounder<'s>, GdlError> {
    let mut g = Grounder::new(terms, &desc.rules, crules, dynamic.clone());
    let mut dummy = false;
    for comp in &desc.sccs {
        if comp.iter().any(|s| dynamic.contains(s)) {
            continue;
        }
        let rules: Vec<usize> = (0..desc.rules.len())
            .filter(|&i| comp.contains(&desc.rules[i].head.rel))
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
    /// The static terms (and the rules' constants); each state adds its own on top.
    terms: Terms<'static>,
    /// `desc.rules`, compiled against `terms`.
    crules: Vec<CRule>,
    statics: HashMap<Key, Table>,
    dynamic: HashSet<Sym>,
    /// Per target: the dynamic components to evaluate, as rule indices into `desc.rules`,
    /// dependencies first.
    state_comps: Vec<Vec<usize>>,
    next_comps: Vec<Vec<usize>>,
    init: Vec<Term>,
    /// The views evaluated on demand, top-down (`Grounder::answers`), with their rules
    /// (indices into `desc.rules`): every dynamic relation that is no keyword and not
    /// recursive. Computing a view in full, bottom-up, is what makes such games too large
    /// to ground (chess's `threatened_with_capture` over every square triple); its uses
    /// mostly ask about a few instances (under negation, all arguments are bound).
    demand: HashMap<Sym, Vec<usize>>,
}

/// Facts derived in one state by [`Evaluator::eval`] (with the static ones).
pub(crate) struct Derived<'a> {
    own: HashMap<Key, Table>,
    statics: &'a HashMap<Key, Table>,
    terms: Terms<'a>,
}

impl Derived<'_> {
    /// The facts of relation `rel` (argument lists).
    pub(crate) fn facts(&self, rel: Sym) -> Vec<Vec<Term>> {
        self.own
            .get(&(rel, ANY))
            .or_else(|| self.statics.get(&(rel, ANY)))
            .map_or_else(Vec::new, |t| {
                (0..t.len())
                    .map(|i| t.row(i).iter().map(|&a| self.terms.term(a)).collect())
                    .collect()
            })
    }
}

/// The arguments of the `init` facts.
fn init_terms(g: &Grounder<'_>) -> Vec<Term> {
    let t = g.terms.borrow();
    g.rows((kw::INIT, ANY))
        .iter()
        .map(|f| t.term(f[0]))
        .collect()
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
        let mut terms = Terms::default();
        let crules: Vec<CRule> = desc.rules.iter().map(|r| compile(&mut terms, r)).collect();
        let g = static_tables(desc, &dynamic, terms, &crules)?;
        let init = init_terms(&g);
        let Terms {
            nodes, kids, slots, ..
        } = g.terms.into_inner();
        let mut statics = g.tables;
        let terms: Terms<'static> = Terms {
            base: None,
            first: 0,
            nodes,
            kids,
            slots,
        };
        statics.retain(|k, _| !dynamic.contains(&k.0));
        for t in statics.values_mut() {
            let arity = if t.is_empty() { 0 } else { t.row(0).len() };
            for p in 0..arity {
                t.ensure_index(&terms, &vec![Path::from([p as u32])].into_boxed_slice());
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
        let mut demand: HashMap<Sym, Vec<usize>> = HashMap::default();
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
                    (0..desc.rules.len())
                        .filter(|&i| desc.rules[i].head.rel == *rel)
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
            terms,
            crules,
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
    pub(crate) fn eval<'a>(
        &'a self,
        desc: &'a Description,
        state: &[Term],
        does: Option<&[(Term, Term)]>,
    ) -> Result<Derived<'a>, GdlError> {
        let mut g = Grounder::new(
            Terms::layered(&self.terms),
            &desc.rules,
            &self.crules,
            self.dynamic.clone(),
        );
        g.statics = Some(&self.statics);
        g.exact = true;
        g.max_work = MAX_STATE_WORK;
        g.demand = Some(&self.demand);
        for t in state {
            let id = g.terms.get_mut().of_term(t);
            g.insert_true(id);
        }
        let comps = match does {
            Some(d) => {
                for (r, a) in d {
                    let t = g.terms.get_mut();
                    let row = [t.of_term(r), t.of_term(a)];
                    g.insert((kw::DOES, ANY), &row);
                }
                &self.next_comps
            }
            None => &self.state_comps,
        };
        let mut dummy = false;
        for comp in comps {
            g.fixpoint(comp, &mut dummy)?;
        }
        Ok(Derived {
            own: g.tables,
            statics: &self.statics,
            terms: g.terms.into_inner(),
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
        let mut terms = Terms::default();
        let crules: Vec<CRule> = desc.rules.iter().map(|r| compile(&mut terms, r)).collect();
        let mut g = static_tables(desc, &dynamic, terms, &crules)?;
        let mut out = Grounding::default();
        // Initial state: `init` is static. Its facts seed `true`.
        for f in g.rows((kw::INIT, ANY)) {
            g.insert_true(f[0]);
        }
        out.init = init_terms(&g);
        // Static facts of `next` and `legal` also feed `true` and `does`.
        if !dynamic.contains(&kw::NEXT) {
            for f in g.rows((kw::NEXT, ANY)) {
                g.insert_true(f[0]);
            }
        }
        // 2. Relaxed fixpoint over the dynamic components.
        let dyn_comps: Vec<Vec<usize>> = desc
            .sccs
            .iter()
            .filter(|c| c.iter().any(|s| dynamic.contains(s)))
            .map(|c| {
                (0..desc.rules.len())
                    .filter(|&i| c.contains(&desc.rules[i].head.rel))
                    .collect()
            })
            .collect();
        loop {
            // `does` ranges over the legal heads (static or derived).
            for f in g.rows((kw::LEGAL, ANY)) {
                g.insert((kw::DOES, ANY), &f);
            }
            let mut outer = false;
            for rules in &dyn_comps {
                g.fixpoint(rules, &mut outer)?;
            }
            if !outer {
                break;
            }
        }
        // 3. Instantiation. Atoms are numbered in order of first use: `out_atoms` holds
        // their term ids, `out_id` the number of each term id.
        let mut out_atoms: Vec<u32> = Vec::new();
        let mut out_id: Vec<u32> = Vec::new();
        let mut number = |atom: u32| -> u32 {
            let i = atom as usize;
            if i >= out_id.len() {
                out_id.resize(i + 1, NONE);
            }
            if out_id[i] == NONE {
                out_id[i] = out_atoms.len() as u32;
                out_atoms.push(atom);
            }
            out_id[i]
        };
        // Inputs first: true and does atoms, in a fixed order.
        for key in [(kw::TRUE, ANY), (kw::DOES, ANY)] {
            if let Some(t) = g.tables.get(&key) {
                for &a in &t.atoms {
                    number(a);
                }
            }
        }
        // Static facts of the keyword relations become bodiless ground rules.
        for rel in [kw::LEGAL, kw::NEXT, kw::GOAL, kw::TERMINAL] {
            if dynamic.contains(&rel) {
                continue;
            }
            if let Some(t) = g.tables.get(&(rel, ANY)) {
                for &a in &t.atoms {
                    let head = number(a);
                    out.rules.push(GroundRule {
                        head,
                        body: Vec::new(),
                    });
                }
            }
        }
        let hash_rule = |r: &GroundRule| {
            let mut h = FxHasher::default();
            h.write_u32(r.head);
            for &(a, n) in &r.body {
                h.write_u32(a << 1 | u32::from(n));
            }
            h.finish()
        };
        // The rules so far, by content (each ground rule once).
        let mut seen = Slots::default();
        for i in 0..out.rules.len() {
            let h = hash_rule(&out.rules[i]);
            let rules = &out.rules;
            if seen.get(h, |j| rules[j as usize] == rules[i]).is_none() {
                seen.insert(h, i as u32, |j| hash_rule(&rules[j as usize]));
            }
        }
        let mut literals = 0usize;
        for (ri, (r, cr)) in desc.rules.iter().zip(&crules).enumerate() {
            if !dynamic.contains(&r.head.rel) {
                continue;
            }
            let plan = g.plan(r, &[], None);
            g.prepare(&plan);
            let gref = &g;
            let rules = &mut out.rules;
            let seen = &mut seen;
            let mut rule = GroundRule {
                head: 0,
                body: Vec::new(),
            };
            // Each instance is numbered as it is found (no list of instances in between).
            // Its atoms were all derived by the fixpoint: they exist.
            let mut emit = |b: &[u32], _: &[u32]| -> Result<(), GdlError> {
                let t = gref.terms.borrow();
                rule.body.clear();
                for (l, cl) in r.body.iter().zip(&cr.body) {
                    let (NLit::Pos(a) | NLit::Neg(a), CLit::Pos(ps) | CLit::Neg(ps)) = (l, cl)
                    else {
                        continue;
                    };
                    if !gref.dynamic.contains(&a.rel) {
                        continue;
                    }
                    let neg = matches!(l, NLit::Neg(_));
                    let atom = find_atom(&t, a.rel, ps, b).filter(|atom| {
                        !neg || gref
                            .tables
                            .get(&(a.rel, ANY))
                            .is_some_and(|t| t.set.contains(atom))
                    });
                    match atom {
                        Some(atom) => rule.body.push((number(atom), neg)),
                        // Never true: the negation always holds.
                        None if neg => {}
                        None => unreachable!("a matched positive literal is a derived atom"),
                    }
                }
                let head = find_atom(&t, r.head.rel, &cr.head, b)
                    .expect("the fixpoint derived every head");
                rule.head = number(head);
                rule.body.sort_unstable();
                rule.body.dedup();
                literals += rule.body.len();
                let h = hash_rule(&rule);
                if seen.get(h, |j| rules[j as usize] == rule).is_none() {
                    rules.push(rule.clone());
                    seen.insert(h, rules.len() as u32 - 1, |j| hash_rule(&rules[j as usize]));
                }
                if rules.len() > MAX_GROUND_RULES {
                    return Err(too_large());
                }
                if literals > MAX_GROUND_LITERALS {
                    return Err(GdlError::Game(format!(
                        "grounding exceeds {MAX_GROUND_LITERALS} ground body literals"
                    )));
                }
                Ok(())
            };
            let mut binding = vec![NONE; r.vars as usize];
            gref.step(ri, &plan, 0, &mut binding, &[], &mut emit)?;
        }
        let t = g.terms.borrow();
        out.atoms = out_atoms
            .iter()
            .map(|&a| {
                let (rel, args) = t.node(a);
                (Sym(rel), args.iter().map(|&x| t.term(x)).collect())
            })
            .collect();
        out.atom_id = out
            .atoms
            .iter()
            .enumerate()
            .map(|(i, a)| (a.clone(), i as u32))
            .collect();
        out.work = g.work.get();
        Ok(out)
    }
}
