//! [`Cgt`]: a short partizan game `{L | R}` as a cheap `Copy` handle.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{LazyLock, Mutex, PoisonError};

use crate::store::{Id, Node, Store};
use crate::thermograph::Thermograph;
use crate::Dyadic;

static STORE: LazyLock<Mutex<Store>> = LazyLock::new(|| Mutex::new(Store::new(0)));

/// The memo tables' default limit, in entries: a few hundred MB at most.
pub const DEFAULT_MEMO_LIMIT: usize = 1 << 21;

static MEMO_LIMIT: AtomicUsize = AtomicUsize::new(DEFAULT_MEMO_LIMIT);

/// Run `f` on the process-wide store (one lock acquisition; never nested). The memo
/// tables are emptied first when they hold more than the [memo limit](set_memo_limit):
/// only between operations, never while one is using them.
pub(crate) fn with_store<R>(f: impl FnOnce(&mut Store) -> R) -> R {
    let mut guard = STORE.lock().unwrap_or_else(PoisonError::into_inner);
    if guard.memo_entries() > MEMO_LIMIT.load(AtomicOrdering::Relaxed) {
        guard.clear_memos();
    }
    f(&mut guard)
}

/// Bounds the memo tables (`≤` of pairs, sums, negations, stops, thermographs, cooled and
/// heated values, birthdays) to about `entries` entries: when an operation starts and they
/// hold more, they are emptied and refilled as needed. They are caches, so a limit costs
/// recomputation, never a different answer. The default is [`DEFAULT_MEMO_LIMIT`].
///
/// The game forms themselves are not memos (every [`Cgt`] handle points at one); a
/// long-lived process frees them with [`clear_store`].
pub fn set_memo_limit(entries: usize) {
    MEMO_LIMIT.store(entries, AtomicOrdering::Relaxed);
}

/// Drops every stored game form and memo: what a long-lived process (a server, a fuzzing
/// harness, an interactive session) calls between independent analyses, since the store
/// otherwise keeps every form it has seen (see the [crate documentation](crate)).
///
/// Every [`Cgt`] made before is invalid afterwards: using one panics with a message that
/// says so (it can never silently stand for another game). Handles made by other threads
/// are invalidated too, so call it only where no other thread holds games.
pub fn clear_store() {
    let mut guard = STORE.lock().unwrap_or_else(PoisonError::into_inner);
    let generation = guard.generation().wrapping_add(1);
    *guard = Store::new(generation);
}

/// A short combinatorial game `{G^L, … | G^R, …}` (finitely many positions, no cycles).
///
/// A `Cgt` is an 8-byte `Copy` handle to a node of a process-wide, hash-consed store (see
/// the [crate documentation](crate) for why). It may hold any *form* of a game — for
/// example `{1, * | 0}` exactly as written — and [`canonical`](Cgt::canonical) gives its
/// unique simplest form.
///
/// Equality (`==`) is equality of games, decided by the recursive definition of `≤`
/// (both forms of the same game are equal); [`identical`](Cgt::identical) compares forms.
/// `PartialOrd` is the partial order of games: `partial_cmp` is `None` when the games are
/// confused (`G ‖ H`), so `a <= b` is exactly `G ≤ H`. `+` is the disjunctive sum (in
/// canonical form), `-` negation. `Display` prints the canonical form in the standard
/// notation (`{:#}` uses ASCII: `^`, `v`, `+-`); [`display_form`](Cgt::display_form)
/// prints the stored form.
#[derive(Clone, Copy)]
pub struct Cgt {
    id: Id,
    /// The store generation the node belongs to ([`clear_store`] starts a new one).
    generation: u32,
}

/// How two games compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `G < H`.
    Less,
    /// `G = H`.
    Equal,
    /// `G > H`.
    Greater,
    /// `G ‖ H`: incomparable (confused with), `G − H` is a first-player win.
    Confused,
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Relation::Less => "<",
            Relation::Equal => "=",
            Relation::Greater => ">",
            Relation::Confused => "‖",
        })
    }
}

/// Outcome class of a game: who wins under normal play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `G > 0`: Left wins whoever starts.
    Left,
    /// `G < 0`: Right wins whoever starts.
    Right,
    /// `G = 0`: the second player (the previous mover) wins.
    Previous,
    /// `G ‖ 0`: the first player (the next mover) wins.
    Next,
}

impl Cgt {
    /// The handle of node `id` of `s`.
    pub(crate) fn in_store(s: &Store, id: Id) -> Cgt {
        Cgt {
            id,
            generation: s.generation(),
        }
    }

    /// This handle's node in `s`.
    ///
    /// # Panics
    /// If the handle was made before the last [`clear_store`].
    pub(crate) fn id_in(self, s: &Store) -> Id {
        assert!(
            self.generation == s.generation(),
            "a Cgt made before yomi_cgt::clear_store() was used after it (its game no longer exists)"
        );
        self.id
    }

    /// Runs `f` on this handle's node and returns the handle of the node it gives.
    fn map(self, f: impl FnOnce(&mut Store, Id) -> Id) -> Cgt {
        with_store(|s| {
            let id = self.id_in(s);
            let out = f(s, id);
            Cgt::in_store(s, out)
        })
    }

    /// Runs `f` on this handle's node.
    fn read<R>(self, f: impl FnOnce(&mut Store, Id) -> R) -> R {
        with_store(|s| {
            let id = self.id_in(s);
            f(s, id)
        })
    }

    /// Runs `f` on the nodes of two handles and returns the handle of the node it gives.
    fn map2(self, other: Cgt, f: impl FnOnce(&mut Store, Id, Id) -> Id) -> Cgt {
        with_store(|s| {
            let (a, b) = (self.id_in(s), other.id_in(s));
            let out = f(s, a, b);
            Cgt::in_store(s, out)
        })
    }

    /// `0 = { | }`.
    pub fn zero() -> Cgt {
        Cgt::number(Dyadic::ZERO)
    }

    /// The integer `n`.
    pub fn integer(n: i64) -> Cgt {
        Cgt::number(Dyadic::integer(n))
    }

    /// The number `x` (canonical form: integers `{n−1 | }`, `m/2^k` as
    /// `{(m−1)/2^k | (m+1)/2^k}`).
    pub fn number(x: Dyadic) -> Cgt {
        with_store(|s| {
            let id = s.number(x);
            Cgt::in_store(s, id)
        })
    }

    /// `* = {0 | 0}`.
    pub fn star() -> Cgt {
        Cgt::nimber(1)
    }

    /// The nimber `*n = {0, *, …, *(n−1) | 0, *, …, *(n−1)}` (it has `n` options a side,
    /// so keep `n` modest).
    pub fn nimber(n: u32) -> Cgt {
        with_store(|s| {
            let id = s.nimber(n);
            Cgt::in_store(s, id)
        })
    }

    /// `↑ = {0 | *}`.
    pub fn up() -> Cgt {
        Cgt::ups(1)
    }

    /// `↓ = {* | 0} = −↑`.
    pub fn down() -> Cgt {
        Cgt::ups(-1)
    }

    /// `n·↑` (`↑ + ↑ + …`; negative `n` gives downs).
    pub fn ups(n: i64) -> Cgt {
        with_store(|s| {
            let id = s.up_multiple(n);
            Cgt::in_store(s, id)
        })
    }

    /// The switch `{a | b}` of two numbers, in canonical form (`a ≤ b` gives a number or
    /// `a*`).
    pub fn switch(a: Dyadic, b: Dyadic) -> Cgt {
        Cgt::from_options(&[Cgt::number(a)], &[Cgt::number(b)]).canonical()
    }

    /// `±x = {x | −x}`.
    pub fn pm(x: Dyadic) -> Cgt {
        Cgt::switch(x, -x)
    }

    /// The form `{left | right}`, stored as given (call [`canonical`](Cgt::canonical) to
    /// simplify it).
    pub fn from_options(left: &[Cgt], right: &[Cgt]) -> Cgt {
        with_store(|s| {
            let l = left.iter().map(|g| g.id_in(s)).collect();
            let r = right.iter().map(|g| g.id_in(s)).collect();
            let id = s.form(l, r);
            Cgt::in_store(s, id)
        })
    }

    /// Left options of this form (of the canonical form for numbers).
    pub fn left_options(self) -> Vec<Cgt> {
        self.read(|s, id| {
            s.options(id)
                .0
                .iter()
                .map(|&i| Cgt::in_store(s, i))
                .collect()
        })
    }

    /// Right options of this form (of the canonical form for numbers).
    pub fn right_options(self) -> Vec<Cgt> {
        self.read(|s, id| {
            s.options(id)
                .1
                .iter()
                .map(|&i| Cgt::in_store(s, i))
                .collect()
        })
    }

    /// The canonical form: no dominated and no reversible options.
    pub fn canonical(self) -> Cgt {
        self.map(Store::canonical)
    }

    /// Is this form the canonical form?
    pub fn is_canonical(self) -> bool {
        self.read(|s, id| s.canonical(id) == id)
    }

    /// Are the two forms identical (same options, recursively)? Equal games in different
    /// forms are `==` but not identical; canonical forms of equal games are identical.
    pub fn identical(self, other: Cgt) -> bool {
        with_store(|s| self.id_in(s) == other.id_in(s))
    }

    /// The disjunctive sum as a form, `{G^L + H, G + H^L | G^R + H, G + H^R}`, without
    /// simplification (`+` gives the canonical sum).
    pub fn formal_sum(self, other: Cgt) -> Cgt {
        self.map2(other, Store::formal_sum)
    }

    /// How `self` compares with `other`.
    pub fn relation(self, other: Cgt) -> Relation {
        let (le, ge) = with_store(|s| {
            let (a, b) = (self.id_in(s), other.id_in(s));
            (s.le(a, b), s.le(b, a))
        });
        match (le, ge) {
            (true, true) => Relation::Equal,
            (true, false) => Relation::Less,
            (false, true) => Relation::Greater,
            (false, false) => Relation::Confused,
        }
    }

    /// `G ‖ H`: neither `≤` nor `≥`.
    pub fn is_confused_with(self, other: Cgt) -> bool {
        self.relation(other) == Relation::Confused
    }

    /// The outcome class (`self` compared with 0).
    pub fn outcome(self) -> Outcome {
        match self.relation(Cgt::zero()) {
            Relation::Greater => Outcome::Left,
            Relation::Less => Outcome::Right,
            Relation::Equal => Outcome::Previous,
            Relation::Confused => Outcome::Next,
        }
    }

    /// The value, if the game is equal to a number.
    pub fn as_number(self) -> Option<Dyadic> {
        self.read(|s, id| {
            let c = s.canonical(id);
            s.as_number(c)
        })
    }

    /// Is the game equal to a number?
    pub fn is_number(self) -> bool {
        self.as_number().is_some()
    }

    /// `n`, if the game is equal to the nimber `*n` (`*0 = 0`).
    pub fn as_nimber(self) -> Option<u32> {
        self.read(|s, id| {
            let c = s.canonical(id);
            s.as_nimber(c)
        })
    }

    /// `(x, n, k)` when the game equals `x + n·↑ + *k` (a number plus ups and a nimber),
    /// recognised for games born by day 32.
    pub fn as_number_up_star(self) -> Option<(Dyadic, i64, u32)> {
        self.read(Store::number_up_star)
    }

    /// Is the game infinitesimal (both stops 0: smaller than every positive number and
    /// greater than every negative one)?
    pub fn is_infinitesimal(self) -> bool {
        self.left_stop() == Dyadic::ZERO && self.right_stop() == Dyadic::ZERO
    }

    /// The left stop `L(G)`: the number reached when Left starts and both play to the
    /// first number (`x` for a number, else the largest right stop of a left option).
    pub fn left_stop(self) -> Dyadic {
        self.read(|s, id| s.stops(id).0)
    }

    /// The right stop `R(G)` (smallest left stop of a right option).
    pub fn right_stop(self) -> Dyadic {
        self.read(|s, id| s.stops(id).1)
    }

    /// The thermograph, built recursively from the options' thermographs by the scaffold
    /// construction (subzero thermography: walls on `t ≥ −1`).
    pub fn thermograph(self) -> Thermograph {
        self.read(|s, id| (*s.thermograph(id)).clone())
    }

    /// The mean (mast value) `m(G)`.
    pub fn mean(self) -> Dyadic {
        self.read(|s, id| s.thermograph(id).mast())
    }

    /// The temperature `t(G)` where the thermograph's mast begins. Siegel's convention:
    /// an integer has temperature −1, a number `m/2^k` −1/2^k, an infinitesimal such as
    /// `*` or `↑` 0, and a hot game a positive temperature (`{1 | 0}`: 1/2).
    pub fn temperature(self) -> Dyadic {
        self.read(|s, id| s.thermograph(id).temperature())
    }

    /// Conway's cooling `Cool(G, t) = G_t` for `t ≥ 0`: a number stays; when `t` exceeds
    /// the temperature, the game is frozen at its mean; otherwise
    /// `G_t = {G^L_t − t | G^R_t + t}`. At `t = t(G)` exactly the game is not yet frozen
    /// and is infinitesimally close to its mean (`{1 | 0}` cooled by 1/2 is `1/2*`).
    ///
    /// # Panics
    ///
    /// If `t < 0`.
    pub fn cool(self, t: Dyadic) -> Cgt {
        assert!(t >= Dyadic::ZERO, "cooling needs t >= 0, got {t}");
        self.map(|s, id| s.cool(id, t))
    }

    /// Conway's heating `∫^t G`: numbers stay, otherwise `{∫G^L + t | ∫G^R − t}` on the
    /// canonical form (a one-sided inverse of cooling for games cooled below their
    /// temperature).
    pub fn heat(self, t: Dyadic) -> Cgt {
        self.map(|s, id| s.heat(id, t))
    }

    /// The birthday of the game (the depth of its canonical form's game tree).
    pub fn birthday(self) -> u128 {
        self.read(Store::birthday)
    }

    /// A `Display` of the stored form itself, options as stored (numbers as numbers).
    pub fn display_form(self) -> FormDisplay {
        FormDisplay(self)
    }

    /// How many distinct game forms the process-wide store holds (it only grows, until
    /// [`clear_store`]).
    pub fn store_size() -> usize {
        with_store(|s| s.len())
    }

    /// How many entries the store's memo tables hold (bounded by [`set_memo_limit`]).
    pub fn memo_entries() -> usize {
        with_store(|s| s.memo_entries())
    }
}

impl From<i64> for Cgt {
    fn from(n: i64) -> Cgt {
        Cgt::integer(n)
    }
}

impl From<Dyadic> for Cgt {
    fn from(x: Dyadic) -> Cgt {
        Cgt::number(x)
    }
}

impl PartialEq for Cgt {
    fn eq(&self, other: &Cgt) -> bool {
        with_store(|s| {
            let (a, b) = (self.id_in(s), other.id_in(s));
            s.eq(a, b)
        })
    }
}

impl Eq for Cgt {}

impl Hash for Cgt {
    /// Hashes the canonical form, so equal games hash alike.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.canonical().id.hash(state);
    }
}

impl PartialOrd for Cgt {
    fn partial_cmp(&self, other: &Cgt) -> Option<Ordering> {
        match self.relation(*other) {
            Relation::Less => Some(Ordering::Less),
            Relation::Equal => Some(Ordering::Equal),
            Relation::Greater => Some(Ordering::Greater),
            Relation::Confused => None,
        }
    }
}

impl Add for Cgt {
    type Output = Cgt;
    /// The disjunctive sum, in canonical form.
    fn add(self, other: Cgt) -> Cgt {
        self.map2(other, Store::add)
    }
}

impl Sub for Cgt {
    type Output = Cgt;
    fn sub(self, other: Cgt) -> Cgt {
        self.map2(other, |s, a, b| {
            let n = s.neg(b);
            s.add(a, n)
        })
    }
}

impl Neg for Cgt {
    type Output = Cgt;
    /// `−G = {−G^R | −G^L}` (the same form, colours reversed).
    fn neg(self) -> Cgt {
        self.map(Store::neg)
    }
}

impl AddAssign for Cgt {
    fn add_assign(&mut self, other: Cgt) {
        *self = *self + other;
    }
}

impl SubAssign for Cgt {
    fn sub_assign(&mut self, other: Cgt) {
        *self = *self - other;
    }
}

impl Sum for Cgt {
    fn sum<I: Iterator<Item = Cgt>>(iter: I) -> Cgt {
        iter.fold(Cgt::zero(), |a, b| a + b)
    }
}

impl fmt::Display for Cgt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ascii = f.alternate();
        let text = self.read(|s, id| {
            let mut out = String::new();
            write_canonical(s, id, ascii, &mut out);
            out
        });
        f.write_str(&text)
    }
}

impl fmt::Debug for Cgt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cgt({self})")
    }
}

/// Displays a [`Cgt`]'s stored form; see [`Cgt::display_form`].
#[derive(Clone, Copy, Debug)]
pub struct FormDisplay(Cgt);

impl fmt::Display for FormDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0.read(|s, id| {
            let mut out = String::new();
            write_form(s, id, &mut out);
            out
        });
        f.write_str(&text)
    }
}

fn write_form(s: &mut Store, id: Id, out: &mut String) {
    match s.node(id).clone() {
        Node::Number(x) => out.push_str(&x.to_string()),
        Node::Form { left, right } => {
            let mut side = |opts: &[Id]| {
                let mut v: Vec<String> = opts
                    .iter()
                    .map(|&o| {
                        let mut t = String::new();
                        write_form(s, o, &mut t);
                        t
                    })
                    .collect();
                v.sort();
                v.join(",")
            };
            let lt = side(&left);
            let rt = side(&right);
            out.push('{');
            out.push_str(&lt);
            out.push('|');
            out.push_str(&rt);
            out.push('}');
        }
    }
}

/// Write `x + n·↑ + *k` as `x`, arrows (with a count beyond four: `↑×7`), star (each part
/// omitted when zero).
pub(crate) fn write_compound(x: Dyadic, n: i64, k: u32, ascii: bool, out: &mut String) {
    if x != Dyadic::ZERO || (n == 0 && k == 0) {
        out.push_str(&x.to_string());
    }
    let (one, two) = match (n > 0, ascii) {
        (true, false) => ("↑", "⇑"),
        (false, false) => ("↓", "⇓"),
        (true, true) => ("^", "^^"),
        (false, true) => ("v", "vv"),
    };
    match n.unsigned_abs() {
        2 => out.push_str(two),
        // Beyond four, a count (`↑×72`): readable, and short enough to read back.
        m if m > 4 => {
            out.push_str(one);
            out.push(if ascii { 'x' } else { '×' });
            out.push_str(&m.to_string());
        }
        m => {
            for _ in 0..m {
                out.push_str(one);
            }
        }
    }
    match k {
        0 => {}
        1 => out.push('*'),
        k => {
            out.push('*');
            out.push_str(&k.to_string());
        }
    }
}

/// The canonical form in standard notation.
pub(crate) fn write_canonical(s: &mut Store, id: Id, ascii: bool, out: &mut String) {
    let c = s.canonical(id);
    if let Some((x, n, k)) = s.number_up_star(c) {
        write_compound(x, n, k, ascii, out);
        return;
    }
    let (l, r) = s.options(c);
    if l.len() == 1 && r.len() == 1 {
        if let (Some(a), Some(b)) = (s.as_number(l[0]), s.as_number(r[0])) {
            if a == -b && a > Dyadic::ZERO {
                out.push_str(if ascii { "+-" } else { "±" });
                out.push_str(&a.to_string());
                return;
            }
        }
    }
    // Options in a fixed order (the store's ids depend on what was built before):
    // Left's by decreasing mean, Right's by increasing mean, then by text.
    let mut texts = |opts: &[Id], left: bool| {
        let mut v: Vec<(Dyadic, String)> = opts
            .iter()
            .map(|&o| {
                let mut t = String::new();
                write_canonical(s, o, ascii, &mut t);
                let m = s.thermograph(o).mast();
                (if left { -m } else { m }, t)
            })
            .collect();
        v.sort();
        v.into_iter().map(|p| p.1).collect::<Vec<_>>().join(",")
    };
    let lt = texts(&l, true);
    let rt = texts(&r, false);
    out.push('{');
    out.push_str(&lt);
    out.push('|');
    out.push_str(&rt);
    out.push('}');
}
