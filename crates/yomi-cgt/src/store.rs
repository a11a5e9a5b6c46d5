//! The hash-consing store behind [`Cgt`](crate::Cgt): every game form is a node in one
//! arena, identified by a `u32`; structurally identical forms share a node, and every
//! derived fact (canonical form, `≤`, sums, stops, thermographs, cooled values) is
//! memoised per node or pair of nodes.
//!
//! Algorithms (Siegel, *Combinatorial Game Theory*, ch. II):
//! * `≤` by the recursive definition `G ≤ H` iff no `G^L ≥ H` and no `H^R ≤ G`, with two
//!   shortcuts justified by the number-avoidance theorem: for a canonical non-number `G`
//!   and a number `x`, `x ≤ G` iff no `G^R ≤ x`, and `G ≤ x` iff no `G^L ≥ x`;
//! * canonical form: options canonicalised first, then dominated options deleted and
//!   reversible options bypassed until neither applies; a form whose options are all
//!   numbers with every left option below every right option is the simplest number
//!   between them;
//! * sums of canonical forms: numbers add as numbers; `G + x` for a number `x` and a
//!   non-number `G` is `{G^L + x | G^R + x}` (number translation); otherwise the
//!   definition; nimbers add by XOR.

// FxHash, not std's SipHash (flooding-resistant, and several times slower on these small
// keys): the keys are node ids this store hands out, and numbers read from input whose
// size the parser caps, so a crafted collision can cost no more than the capped input's
// work limit allows.
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use crate::budget::{charge, charge_steps};
use crate::thermograph::{Thermograph, Trajectory};
use crate::Dyadic;

pub(crate) type Id = u32;

/// A stored game form: a number in canonical form, or a form with option lists (sorted
/// by id, no duplicates).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Node {
    Number(Dyadic),
    Form { left: Arc<[Id]>, right: Arc<[Id]> },
}

/// The arena and its memo tables.
#[derive(Default)]
pub(crate) struct Store {
    nodes: Vec<Node>,
    index: HashMap<Node, Id>,
    /// Canonical form of a node; canonical nodes map to themselves.
    canon: HashMap<Id, Id>,
    /// Canonical nimbers: node → n, and n → node.
    nim_of: HashMap<Id, u32>,
    nimbers: HashMap<u32, Id>,
    le_memo: HashMap<(Id, Id), bool>,
    add_memo: HashMap<(Id, Id), Id>,
    formal_memo: HashMap<(Id, Id), Id>,
    neg_memo: HashMap<Id, Id>,
    stops: HashMap<Id, (Dyadic, Dyadic)>,
    birthday: HashMap<Id, u128>,
    thermo: HashMap<Id, Arc<Thermograph>>,
    cool_memo: HashMap<(Id, Dyadic), Id>,
    heat_memo: HashMap<(Id, Dyadic), Id>,
    /// n → canonical n·↑ (n may be negative).
    ups: HashMap<i64, Id>,
    /// Whether a canonical node is dicotic (all-small).
    dicotic: HashMap<Id, bool>,
    /// Which store this is: handles carry it, so a handle to a dropped store is caught.
    generation: u32,
}

impl Store {
    pub(crate) fn new(generation: u32) -> Store {
        let mut s = Store {
            generation,
            ..Store::default()
        };
        let zero = s.number(Dyadic::ZERO);
        s.nimbers.insert(0, zero);
        s.nim_of.insert(zero, 0);
        s
    }

    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    pub(crate) fn generation(&self) -> u32 {
        self.generation
    }

    /// Entries in the memo tables: the facts about nodes and pairs of nodes that can be
    /// recomputed. Not counted: the nodes (handles point at them) and the per-node marks
    /// (canonical form, which canonical nodes are nimbers or multiples of up), which other
    /// facts rely on and which hold at most one entry per node.
    pub(crate) fn memo_entries(&self) -> usize {
        self.le_memo.len()
            + self.add_memo.len()
            + self.formal_memo.len()
            + self.neg_memo.len()
            + self.stops.len()
            + self.birthday.len()
            + self.thermo.len()
            + self.cool_memo.len()
            + self.heat_memo.len()
            + self.dicotic.len()
    }

    /// Empties the memo tables (see [`memo_entries`](Store::memo_entries)).
    pub(crate) fn clear_memos(&mut self) {
        self.le_memo.clear();
        self.add_memo.clear();
        self.formal_memo.clear();
        self.neg_memo.clear();
        self.stops.clear();
        self.birthday.clear();
        self.thermo.clear();
        self.cool_memo.clear();
        self.heat_memo.clear();
        self.dicotic.clear();
    }

    fn intern(&mut self, node: Node) -> Id {
        if let Some(&id) = self.index.get(&node) {
            return id;
        }
        let id = u32::try_from(self.nodes.len()).expect("more than 2^32 game nodes");
        self.nodes.push(node.clone());
        self.index.insert(node, id);
        id
    }

    pub(crate) fn node(&self, id: Id) -> &Node {
        &self.nodes[id as usize]
    }

    /// The canonical number `x`.
    pub(crate) fn number(&mut self, x: Dyadic) -> Id {
        let id = self.intern(Node::Number(x));
        self.canon.insert(id, id);
        id
    }

    pub(crate) fn as_number(&self, id: Id) -> Option<Dyadic> {
        match self.node(id) {
            Node::Number(x) => Some(*x),
            Node::Form { .. } => None,
        }
    }

    /// The options of the canonical form of the number `x`.
    fn number_options(x: Dyadic) -> (Option<Dyadic>, Option<Dyadic>) {
        if x.is_integer() {
            if x > Dyadic::ZERO {
                (Some(x - Dyadic::ONE), None)
            } else if x < Dyadic::ZERO {
                (None, Some(x + Dyadic::ONE))
            } else {
                (None, None)
            }
        } else {
            let step = Dyadic::new(1, x.exponent());
            (Some(x - step), Some(x + step))
        }
    }

    /// A form `{left | right}`, stored as given (not canonicalised). A form that is
    /// exactly the canonical form of a number is stored as that number.
    pub(crate) fn form(&mut self, mut left: Vec<Id>, mut right: Vec<Id>) -> Id {
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        if left.len() <= 1 && right.len() <= 1 {
            let l = left.first().map(|&i| self.as_number(i));
            let r = right.first().map(|&i| self.as_number(i));
            if l != Some(None) && r != Some(None) {
                let (l, r) = (l.flatten(), r.flatten());
                let candidate = match (l, r) {
                    (None, None) => Some(Dyadic::ZERO),
                    (Some(a), None) if a.is_integer() && a >= Dyadic::ZERO => Some(a + Dyadic::ONE),
                    (None, Some(b)) if b.is_integer() && b <= Dyadic::ZERO => Some(b - Dyadic::ONE),
                    (Some(a), Some(b)) if a < b => (a + b).div_pow2(2),
                    _ => None,
                };
                if let Some(x) = candidate {
                    if Store::number_options(x) == (l, r) {
                        return self.number(x);
                    }
                }
            }
        }
        self.intern(Node::Form {
            left: left.into(),
            right: right.into(),
        })
    }

    /// Left and right options of a node (for numbers, those of the canonical form).
    pub(crate) fn options(&mut self, id: Id) -> (Arc<[Id]>, Arc<[Id]>) {
        match self.node(id) {
            Node::Form { left, right } => (left.clone(), right.clone()),
            Node::Number(x) => {
                let (l, r) = Store::number_options(*x);
                let l: Vec<Id> = l.into_iter().map(|v| self.number(v)).collect();
                let r: Vec<Id> = r.into_iter().map(|v| self.number(v)).collect();
                (l.into(), r.into())
            }
        }
    }

    pub(crate) fn is_canonical(&self, id: Id) -> bool {
        self.canon.get(&id) == Some(&id)
    }

    /// Canonical and not a number (so not equal to any number).
    fn canonical_non_number(&self, id: Id) -> bool {
        matches!(self.node(id), Node::Form { .. }) && self.is_canonical(id)
    }

    /// `a ≤ b` by the recursive definition (any forms).
    pub(crate) fn le(&mut self, a: Id, b: Id) -> bool {
        charge();
        if a == b {
            return true;
        }
        if let (Node::Number(x), Node::Number(y)) = (self.node(a), self.node(b)) {
            return x <= y;
        }
        if let (Some(_), Some(_)) = (self.nim_of.get(&a), self.nim_of.get(&b)) {
            return false; // distinct nimbers are confused
        }
        if let Some(&r) = self.le_memo.get(&(a, b)) {
            return r;
        }
        let a_num = self.as_number(a).is_some();
        let b_num = self.as_number(b).is_some();
        let r = if a_num && self.canonical_non_number(b) {
            let (_, br) = self.options(b);
            !br.iter().any(|&x| self.le(x, a))
        } else if b_num && self.canonical_non_number(a) {
            let (al, _) = self.options(a);
            !al.iter().any(|&x| self.le(b, x))
        } else {
            let (al, _) = self.options(a);
            let (_, br) = self.options(b);
            !al.iter().any(|&x| self.le(b, x)) && !br.iter().any(|&x| self.le(x, a))
        };
        self.le_memo.insert((a, b), r);
        r
    }

    pub(crate) fn eq(&mut self, a: Id, b: Id) -> bool {
        self.le(a, b) && self.le(b, a)
    }

    /// The canonical form of any form.
    pub(crate) fn canonical(&mut self, id: Id) -> Id {
        if let Some(&c) = self.canon.get(&id) {
            return c;
        }
        charge();
        let (l, r) = self.options(id);
        let l: Vec<Id> = l.iter().map(|&x| self.canonical(x)).collect();
        let r: Vec<Id> = r.iter().map(|&x| self.canonical(x)).collect();
        let c = self.simplify(l, r);
        self.canon.insert(id, c);
        c
    }

    /// The canonical form of `{left | right}` whose options are all canonical.
    pub(crate) fn simplify(&mut self, mut l: Vec<Id>, mut r: Vec<Id>) -> Id {
        l.sort_unstable();
        l.dedup();
        r.sort_unstable();
        r.dedup();
        // The form itself, for the reversibility tests (its value never changes below).
        let g = self.form(l.clone(), r.clone());
        if self.is_canonical(g) {
            return g;
        }
        loop {
            charge();
            if let Some(x) = self.number_value(&l, &r) {
                let id = self.number(x);
                self.canon.insert(g, id);
                return id;
            }
            // Delete dominated options. Distinct canonical forms are never equal, so
            // `≤` between two of them is strict.
            let keep_l: Vec<bool> = (0..l.len())
                .map(|i| !(0..l.len()).any(|j| j != i && self.le(l[i], l[j])))
                .collect();
            let keep_r: Vec<bool> = (0..r.len())
                .map(|i| !(0..r.len()).any(|j| j != i && self.le(r[j], r[i])))
                .collect();
            l = l
                .iter()
                .zip(&keep_l)
                .filter(|p| *p.1)
                .map(|p| *p.0)
                .collect();
            r = r
                .iter()
                .zip(&keep_r)
                .filter(|p| *p.1)
                .map(|p| *p.0)
                .collect();
            // Bypass one reversible option, then start over.
            let mut changed = false;
            'left: for i in 0..l.len() {
                let (_, lr) = self.options(l[i]);
                for &x in lr.iter() {
                    if self.le(x, g) {
                        let (xl, _) = self.options(x);
                        l.remove(i);
                        l.extend(xl.iter().copied());
                        changed = true;
                        break 'left;
                    }
                }
            }
            if !changed {
                'right: for i in 0..r.len() {
                    let (rl, _) = self.options(r[i]);
                    for &x in rl.iter() {
                        if self.le(g, x) {
                            let (_, xr) = self.options(x);
                            r.remove(i);
                            r.extend(xr.iter().copied());
                            changed = true;
                            break 'right;
                        }
                    }
                }
            }
            l.sort_unstable();
            l.dedup();
            r.sort_unstable();
            r.dedup();
            if !changed {
                break;
            }
        }
        if let Some(x) = self.number_value(&l, &r) {
            let id = self.number(x);
            self.canon.insert(g, id);
            return id;
        }
        let id = self.form(l, r);
        self.mark_canonical(id);
        self.canon.insert(g, id);
        id
    }

    /// If every option is a number and every left option is below every right option,
    /// the simplest number between them.
    fn number_value(&self, l: &[Id], r: &[Id]) -> Option<Dyadic> {
        let mut hi_l: Option<Dyadic> = None;
        for &x in l {
            let v = self.as_number(x)?;
            hi_l = Some(hi_l.map_or(v, |h| h.max(v)));
        }
        let mut lo_r: Option<Dyadic> = None;
        for &x in r {
            let v = self.as_number(x)?;
            lo_r = Some(lo_r.map_or(v, |h| h.min(v)));
        }
        Dyadic::simplest_between(hi_l, lo_r)
    }

    /// `*n` in canonical form.
    pub(crate) fn nimber(&mut self, n: u32) -> Id {
        for k in 0..=n {
            if !self.nimbers.contains_key(&k) {
                // `*k` has k options a side: `*n` from nothing is about n²/2 steps.
                charge_steps(u64::from(k).max(1));
                let opts: Vec<Id> = (0..k).map(|i| self.nimbers[&i]).collect();
                let id = self.form(opts.clone(), opts);
                self.mark_canonical(id);
            }
        }
        self.nimbers[&n]
    }

    /// Record that `id` is canonical, and whether it is a nimber `{*0..*(k-1) | same}`.
    fn mark_canonical(&mut self, id: Id) {
        self.canon.insert(id, id);
        if let Node::Form { left, right } = self.node(id) {
            if left == right {
                let mut ks: Vec<u32> = Vec::with_capacity(left.len());
                for o in left.iter() {
                    match self.nim_of.get(o) {
                        Some(&k) => ks.push(k),
                        None => return,
                    }
                }
                ks.sort_unstable();
                if ks.iter().enumerate().all(|(i, &k)| i as u32 == k) {
                    let k = ks.len() as u32;
                    self.nim_of.insert(id, k);
                    self.nimbers.insert(k, id);
                }
            }
        }
    }

    /// `n` if the node is the canonical form `*n`.
    pub(crate) fn as_nimber(&self, id: Id) -> Option<u32> {
        self.nim_of.get(&id).copied()
    }

    /// `n·↑` in canonical form.
    pub(crate) fn up_multiple(&mut self, n: i64) -> Id {
        if let Some(&id) = self.ups.get(&n) {
            return id;
        }
        let id = match n {
            0 => self.number(Dyadic::ZERO),
            1 => {
                let zero = self.number(Dyadic::ZERO);
                let star = self.nimber(1);
                self.simplify(vec![zero], vec![star])
            }
            n if n < 0 => {
                let u = self.up_multiple(-n);
                self.neg(u)
            }
            n => {
                // Upwards from the largest multiple already made, so that the recursion
                // depth stays constant however large `n` is.
                let up = self.up_multiple(1);
                let mut m = n - 1;
                while m > 1 && !self.ups.contains_key(&m) {
                    m -= 1;
                }
                let mut id = self.up_multiple(m);
                for k in m + 1..n {
                    id = self.add(id, up);
                    self.ups.insert(k, id);
                }
                self.add(id, up)
            }
        };
        self.ups.insert(n, id);
        id
    }

    /// `−G`, structurally (a canonical input gives a canonical output).
    pub(crate) fn neg(&mut self, id: Id) -> Id {
        if let Some(&n) = self.neg_memo.get(&id) {
            return n;
        }
        let out = match self.node(id).clone() {
            Node::Number(x) => self.number(-x),
            Node::Form { left, right } => {
                let nl: Vec<Id> = right.iter().map(|&x| self.neg(x)).collect();
                let nr: Vec<Id> = left.iter().map(|&x| self.neg(x)).collect();
                let f = self.form(nl, nr);
                if self.is_canonical(id) {
                    self.mark_canonical(f);
                }
                f
            }
        };
        self.neg_memo.insert(id, out);
        self.neg_memo.insert(out, id);
        out
    }

    /// The formal disjunctive sum `{G^L + H, G + H^L | G^R + H, G + H^R}`, not simplified.
    pub(crate) fn formal_sum(&mut self, a: Id, b: Id) -> Id {
        if let Some(&s) = self.formal_memo.get(&(a, b)) {
            return s;
        }
        charge();
        let (al, ar) = self.options(a);
        let (bl, br) = self.options(b);
        let mut l = Vec::with_capacity(al.len() + bl.len());
        let mut r = Vec::with_capacity(ar.len() + br.len());
        for &x in al.iter() {
            l.push(self.formal_sum(x, b));
        }
        for &y in bl.iter() {
            l.push(self.formal_sum(a, y));
        }
        for &x in ar.iter() {
            r.push(self.formal_sum(x, b));
        }
        for &y in br.iter() {
            r.push(self.formal_sum(a, y));
        }
        let s = self.form(l, r);
        self.formal_memo.insert((a, b), s);
        s
    }

    /// Canonical `a + b` (inputs in any form).
    pub(crate) fn add(&mut self, a: Id, b: Id) -> Id {
        charge();
        let a = self.canonical(a);
        let b = self.canonical(b);
        let key = (a.min(b), a.max(b));
        if let Some(&s) = self.add_memo.get(&key) {
            return s;
        }
        let s = match (self.as_number(a), self.as_number(b)) {
            (Some(x), Some(y)) => self.number(x + y),
            (Some(x), None) if x == Dyadic::ZERO => b,
            (None, Some(y)) if y == Dyadic::ZERO => a,
            (Some(_), None) => self.translate(b, a),
            (None, Some(_)) => self.translate(a, b),
            (None, None) => {
                if let (Some(i), Some(j)) = (self.as_nimber(a), self.as_nimber(b)) {
                    self.nimber(i ^ j)
                } else {
                    let (al, ar) = self.options(a);
                    let (bl, br) = self.options(b);
                    let mut l = Vec::with_capacity(al.len() + bl.len());
                    let mut r = Vec::with_capacity(ar.len() + br.len());
                    for &x in al.iter() {
                        l.push(self.add(x, b));
                    }
                    for &y in bl.iter() {
                        l.push(self.add(a, y));
                    }
                    for &x in ar.iter() {
                        r.push(self.add(x, b));
                    }
                    for &y in br.iter() {
                        r.push(self.add(a, y));
                    }
                    self.simplify(l, r)
                }
            }
        };
        self.add_memo.insert(key, s);
        s
    }

    /// `G + x` for canonical non-number `G` and number `x`: `{G^L + x | G^R + x}`.
    fn translate(&mut self, g: Id, x: Id) -> Id {
        let (gl, gr) = self.options(g);
        let l: Vec<Id> = gl.iter().map(|&o| self.add(o, x)).collect();
        let r: Vec<Id> = gr.iter().map(|&o| self.add(o, x)).collect();
        self.simplify(l, r)
    }

    /// Left and right stops of the game.
    pub(crate) fn stops(&mut self, id: Id) -> (Dyadic, Dyadic) {
        let c = self.canonical(id);
        if let Some(x) = self.as_number(c) {
            return (x, x);
        }
        if let Some(&s) = self.stops.get(&c) {
            return s;
        }
        let (l, r) = self.options(c);
        // A canonical non-number has options on both sides.
        let mut ls: Option<Dyadic> = None;
        for &o in l.iter() {
            let v = self.stops(o).1;
            ls = Some(ls.map_or(v, |m| m.max(v)));
        }
        let mut rs: Option<Dyadic> = None;
        for &o in r.iter() {
            let v = self.stops(o).0;
            rs = Some(rs.map_or(v, |m| m.min(v)));
        }
        let s = match (ls, rs) {
            (Some(a), Some(b)) => (a, b),
            (Some(a), None) => (a, a),
            (None, Some(b)) => (b, b),
            (None, None) => (Dyadic::ZERO, Dyadic::ZERO),
        };
        self.stops.insert(c, s);
        s
    }

    /// Birthday of the game (of its canonical form).
    pub(crate) fn birthday(&mut self, id: Id) -> u128 {
        let c = self.canonical(id);
        if let Some(x) = self.as_number(c) {
            return x.birthday();
        }
        if let Some(&b) = self.birthday.get(&c) {
            return b;
        }
        let (l, r) = self.options(c);
        let mut m = 0;
        for &o in l.iter().chain(r.iter()) {
            m = m.max(self.birthday(o));
        }
        self.birthday.insert(c, m + 1);
        m + 1
    }

    /// The thermograph of the game (of its canonical form).
    pub(crate) fn thermograph(&mut self, id: Id) -> Arc<Thermograph> {
        let c = self.canonical(id);
        if let Some(t) = self.thermo.get(&c) {
            return t.clone();
        }
        charge();
        let th = match self.as_number(c) {
            Some(x) if x.is_integer() => Thermograph::integer_mast(x),
            // Every nimber `*k` (k ≥ 1) has the thermograph of `*`: by induction, its
            // options are 0 and nimbers with the walls of 0 and `*`, whose extremes are
            // 0's walls, as for `*`. Without this, `*k` would cost k² trajectory steps.
            _ if self.as_nimber(c).is_some_and(|k| k > 1) => {
                let star = self.nimber(1);
                return self.thermograph(star);
            }
            _ => {
                let (l, r) = self.options(c);
                let mut ls: Option<Trajectory> = None;
                for &o in l.iter() {
                    // One unit of work per option: a wide form costs what it takes.
                    charge();
                    let w = self.thermograph(o).right_wall().tilt(-1);
                    ls = Some(match ls {
                        Some(m) => m.max(&w),
                        None => w,
                    });
                }
                let mut rs: Option<Trajectory> = None;
                for &o in r.iter() {
                    charge();
                    let w = self.thermograph(o).left_wall().tilt(1);
                    rs = Some(match rs {
                        Some(m) => m.min(&w),
                        None => w,
                    });
                }
                Thermograph::from_scaffolds(ls.as_ref(), rs.as_ref())
            }
        };
        let th = Arc::new(th);
        self.thermo.insert(c, th.clone());
        th
    }

    /// Conway's cooling `G_t` for `t ≥ 0`: numbers stay; a game whose temperature is
    /// below `t` is frozen at its mean; otherwise `{G^L_t − t | G^R_t + t}`.
    pub(crate) fn cool(&mut self, id: Id, t: Dyadic) -> Id {
        let c = self.canonical(id);
        if self.as_number(c).is_some() {
            return c;
        }
        if let Some(&x) = self.cool_memo.get(&(c, t)) {
            return x;
        }
        charge();
        let th = self.thermograph(c);
        let out = if t > th.temperature() {
            self.number(th.mast())
        } else {
            let minus_t = self.number(-t);
            let plus_t = self.number(t);
            let (l, r) = self.options(c);
            let mut nl = Vec::with_capacity(l.len());
            for &o in l.iter() {
                let co = self.cool(o, t);
                nl.push(self.add(co, minus_t));
            }
            let mut nr = Vec::with_capacity(r.len());
            for &o in r.iter() {
                let co = self.cool(o, t);
                nr.push(self.add(co, plus_t));
            }
            self.simplify(nl, nr)
        };
        self.cool_memo.insert((c, t), out);
        out
    }

    /// Conway's heating `∫^t G`: numbers stay; otherwise `{∫G^L + t | ∫G^R − t}` (of the
    /// canonical form).
    pub(crate) fn heat(&mut self, id: Id, t: Dyadic) -> Id {
        let c = self.canonical(id);
        if self.as_number(c).is_some() {
            return c;
        }
        if let Some(&x) = self.heat_memo.get(&(c, t)) {
            return x;
        }
        charge();
        let minus_t = self.number(-t);
        let plus_t = self.number(t);
        let (l, r) = self.options(c);
        let mut nl = Vec::with_capacity(l.len());
        for &o in l.iter() {
            let h = self.heat(o, t);
            nl.push(self.add(h, plus_t));
        }
        let mut nr = Vec::with_capacity(r.len());
        for &o in r.iter() {
            let h = self.heat(o, t);
            nr.push(self.add(h, minus_t));
        }
        let out = self.simplify(nl, nr);
        self.heat_memo.insert((c, t), out);
        out
    }

    /// `(x, n, k)` with `G = x + n·↑ + *k`, when the canonical form has that shape.
    pub(crate) fn number_up_star(&mut self, id: Id) -> Option<(Dyadic, i64, u32)> {
        let c = self.canonical(id);
        if let Some(x) = self.as_number(c) {
            return Some((x, 0, 0));
        }
        let (ls, rs) = self.stops(c);
        if ls != rs {
            return None;
        }
        let minus_x = self.number(-ls);
        let h = self.add(c, minus_x);
        if let Some(k) = self.as_nimber(h) {
            return Some((ls, 0, k));
        }
        // n·↑ + *k is dicotic (all-small), and so is its canonical form: a game with a
        // subposition that only one side can move from (a number other than 0) is not of
        // that shape. Checking first keeps the search below cheap: a big number inside
        // (`{{126|0}|0}`) would otherwise inflate the birthday that bounds it.
        if !self.is_dicotic(h) {
            return None;
        }
        // h = n·↑ + *k iff h + *j = n·↑ + *s (s ∈ {0, 1}) for j = k ⊕ s. The nimber part
        // of a game born on day b is below 2b + 2.
        let b = self.birthday(h).min(128) as u32;
        for j in 0..=2 * b + 1 {
            let nj = self.nimber(j);
            let x = self.add(h, nj);
            if let Some((n, s)) = self.ups_star(x, 0) {
                return Some((ls, n, j ^ s));
            }
        }
        None
    }

    /// Is the canonical game `id` dicotic (all-small): does every subposition have
    /// options for both players or for neither?
    fn is_dicotic(&mut self, id: Id) -> bool {
        if let Some(&d) = self.dicotic.get(&id) {
            return d;
        }
        let d = match self.node(id) {
            Node::Number(x) => *x == Dyadic::ZERO,
            Node::Form { left, right } => {
                let (left, right) = (left.clone(), right.clone());
                left.is_empty() == right.is_empty()
                    && left.iter().chain(right.iter()).all(|&o| self.is_dicotic(o))
            }
        };
        self.dicotic.insert(id, d);
        d
    }

    /// `(n, s)` when the canonical `x` is `n·↑ + s·*` with `s ∈ {0, 1}`, from the shapes
    /// `n·↑ = {0 | (n−1)·↑*}`, `n·↑* = {0 | (n−1)·↑}` (n ≥ 2), `↑* = {0, * | 0}`.
    fn ups_star(&mut self, x: Id, depth: u32) -> Option<(i64, u32)> {
        if depth > 256 {
            return None;
        }
        match self.as_nimber(x) {
            Some(0) => return Some((0, 0)),
            Some(1) => return Some((0, 1)),
            Some(_) => return None,
            None => {}
        }
        let zero = self.number(Dyadic::ZERO);
        let star = self.nimber(1);
        let (l, r) = self.options(x);
        if l.len() == 2 && r.len() == 1 && l.contains(&zero) && l.contains(&star) && r[0] == zero {
            return Some((1, 1)); // ↑*
        }
        if l.len() == 1 && r.len() == 2 && r.contains(&zero) && r.contains(&star) && l[0] == zero {
            return Some((-1, 1)); // ↓*
        }
        if l.len() == 1 && r.len() == 1 {
            if l[0] == zero {
                // {0 | y}: y = (n−1)·↑ + *  → n·↑ ; y = (n−1)·↑ → n·↑*.
                let (m, s) = self.ups_star(r[0], depth + 1)?;
                return match (m, s) {
                    (0, 1) => Some((1, 0)),
                    (m, 1) if m >= 1 => Some((m + 1, 0)),
                    (m, 0) if m >= 1 => Some((m + 1, 1)),
                    _ => None,
                };
            }
            if r[0] == zero {
                let (m, s) = self.ups_star(l[0], depth + 1)?;
                return match (m, s) {
                    (0, 1) => Some((-1, 0)),
                    (m, 1) if m <= -1 => Some((m - 1, 0)),
                    (m, 0) if m <= -1 => Some((m - 1, 1)),
                    _ => None,
                };
            }
        }
        None
    }
}
