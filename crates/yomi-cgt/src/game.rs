//! [`Cgt`]: a short partizan game `{L | R}` as a cheap `Copy` handle.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};
use std::sync::{LazyLock, Mutex, PoisonError};

use crate::store::{Id, Node, Store};
use crate::thermograph::Thermograph;
use crate::Dyadic;

static STORE: LazyLock<Mutex<Store>> = LazyLock::new(|| Mutex::new(Store::new()));

/// Run `f` on the process-wide store (one lock acquisition; never nested).
pub(crate) fn with_store<R>(f: impl FnOnce(&mut Store) -> R) -> R {
    let mut guard = STORE.lock().unwrap_or_else(PoisonError::into_inner);
    f(&mut guard)
}

/// A short combinatorial game `{G^L, … | G^R, …}` (finitely many positions, no cycles).
///
/// A `Cgt` is a 4-byte `Copy` handle to a node of a process-wide, hash-consed store (see
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
pub struct Cgt(pub(crate) Id);

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
        Cgt(with_store(|s| s.number(x)))
    }

    /// `* = {0 | 0}`.
    pub fn star() -> Cgt {
        Cgt::nimber(1)
    }

    /// The nimber `*n = {0, *, …, *(n−1) | 0, *, …, *(n−1)}` (it has `n` options a side,
    /// so keep `n` modest).
    pub fn nimber(n: u32) -> Cgt {
        Cgt(with_store(|s| s.nimber(n)))
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
        Cgt(with_store(|s| s.up_multiple(n)))
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
        let l = left.iter().map(|g| g.0).collect();
        let r = right.iter().map(|g| g.0).collect();
        Cgt(with_store(|s| s.form(l, r)))
    }

    /// Left options of this form (of the canonical form for numbers).
    pub fn left_options(self) -> Vec<Cgt> {
        with_store(|s| s.options(self.0).0.iter().map(|&i| Cgt(i)).collect())
    }

    /// Right options of this form (of the canonical form for numbers).
    pub fn right_options(self) -> Vec<Cgt> {
        with_store(|s| s.options(self.0).1.iter().map(|&i| Cgt(i)).collect())
    }

    /// The canonical form: no dominated and no reversible options.
    pub fn canonical(self) -> Cgt {
        Cgt(with_store(|s| s.canonical(self.0)))
    }

    /// Is this form the canonical form?
    pub fn is_canonical(self) -> bool {
        with_store(|s| {
            let c = s.canonical(self.0);
            c == self.0
        })
    }

    /// Are the two forms identical (same options, recursively)? Equal games in different
    /// forms are `==` but not identical; canonical forms of equal games are identical.
    pub fn identical(self, other: Cgt) -> bool {
        self.0 == other.0
    }

    /// The disjunctive sum as a form, `{G^L + H, G + H^L | G^R + H, G + H^R}`, without
    /// simplification (`+` gives the canonical sum).
    pub fn formal_sum(self, other: Cgt) -> Cgt {
        Cgt(with_store(|s| s.formal_sum(self.0, other.0)))
    }

    /// How `self` compares with `other`.
    pub fn relation(self, other: Cgt) -> Relation {
        let (le, ge) = with_store(|s| (s.le(self.0, other.0), s.le(other.0, self.0)));
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
        with_store(|s| {
            let c = s.canonical(self.0);
            s.as_number(c)
        })
    }

    /// Is the game equal to a number?
    pub fn is_number(self) -> bool {
        self.as_number().is_some()
    }

    /// `n`, if the game is equal to the nimber `*n` (`*0 = 0`).
    pub fn as_nimber(self) -> Option<u32> {
        with_store(|s| {
            let c = s.canonical(self.0);
            s.as_nimber(c)
        })
    }

    /// `(x, n, k)` when the game equals `x + n·↑ + *k` (a number plus ups and a nimber),
    /// recognised for games born by day 32.
    pub fn as_number_up_star(self) -> Option<(Dyadic, i64, u32)> {
        with_store(|s| s.number_up_star(self.0))
    }

    /// Is the game infinitesimal (both stops 0: smaller than every positive number and
    /// greater than every negative one)?
    pub fn is_infinitesimal(self) -> bool {
        self.left_stop() == Dyadic::ZERO && self.right_stop() == Dyadic::ZERO
    }

    /// The left stop `L(G)`: the number reached when Left starts and both play to the
    /// first number (`x` for a number, else the largest right stop of a left option).
    pub fn left_stop(self) -> Dyadic {
        with_store(|s| s.stops(self.0).0)
    }

    /// The right stop `R(G)` (smallest left stop of a right option).
    pub fn right_stop(self) -> Dyadic {
        with_store(|s| s.stops(self.0).1)
    }

    /// The thermograph, built recursively from the options' thermographs by the scaffold
    /// construction (subzero thermography: walls on `t ≥ −1`).
    pub fn thermograph(self) -> Thermograph {
        with_store(|s| (*s.thermograph(self.0)).clone())
    }

    /// The mean (mast value) `m(G)`.
    pub fn mean(self) -> Dyadic {
        with_store(|s| s.thermograph(self.0).mast())
    }

    /// The temperature `t(G)` where the thermograph's mast begins. Siegel's convention:
    /// an integer has temperature −1, a number `m/2^k` −1/2^k, an infinitesimal such as
    /// `*` or `↑` 0, and a hot game a positive temperature (`{1 | 0}`: 1/2).
    pub fn temperature(self) -> Dyadic {
        with_store(|s| s.thermograph(self.0).temperature())
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
        Cgt(with_store(|s| s.cool(self.0, t)))
    }

    /// Conway's heating `∫^t G`: numbers stay, otherwise `{∫G^L + t | ∫G^R − t}` on the
    /// canonical form (a one-sided inverse of cooling for games cooled below their
    /// temperature).
    pub fn heat(self, t: Dyadic) -> Cgt {
        Cgt(with_store(|s| s.heat(self.0, t)))
    }

    /// The birthday of the game (the depth of its canonical form's game tree).
    pub fn birthday(self) -> u128 {
        with_store(|s| s.birthday(self.0))
    }

    /// A `Display` of the stored form itself, options as stored (numbers as numbers).
    pub fn display_form(self) -> FormDisplay {
        FormDisplay(self)
    }

    /// How many distinct game forms the process-wide store holds (it only grows).
    pub fn store_size() -> usize {
        with_store(|s| s.len())
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
        with_store(|s| s.eq(self.0, other.0))
    }
}

impl Eq for Cgt {}

impl Hash for Cgt {
    /// Hashes the canonical form, so equal games hash alike.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.canonical().0.hash(state);
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
        Cgt(with_store(|s| s.add(self.0, other.0)))
    }
}

impl Sub for Cgt {
    type Output = Cgt;
    fn sub(self, other: Cgt) -> Cgt {
        Cgt(with_store(|s| {
            let n = s.neg(other.0);
            s.add(self.0, n)
        }))
    }
}

impl Neg for Cgt {
    type Output = Cgt;
    /// `−G = {−G^R | −G^L}` (the same form, colours reversed).
    fn neg(self) -> Cgt {
        Cgt(with_store(|s| s.neg(self.0)))
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
        let text = with_store(|s| {
            let mut out = String::new();
            write_canonical(s, self.0, ascii, &mut out);
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
        let text = with_store(|s| {
            let mut out = String::new();
            write_form(s, self.0 .0, &mut out);
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
