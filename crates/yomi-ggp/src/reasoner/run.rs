//! Running the compiled rules at play time: making states (initial, from base
//! propositions), legal moves and the mover, `step` with whichever evaluator compiling
//! chose (plain phases, switch programs or incremental propagation), the move phase with
//! its `does` index, goals and rewards, and the self-check
//! [`Reasoner::derived_values_consistent`].
//!
//! Every method here takes `&self` and writes only the [`GdlState`] it is given, so any
//! number of threads may run one reasoner at once.

use super::{
    get, holds, put, GdlState, Program, Reasoner, Scan, CYCLE, GUARDED, LAZY_LIT, NONE, OP_GUARD,
    OP_LAZY, OP_PRESET, OP_SHIFT, OP_SLOT, PRESET, SCAN_LAZY, TURN_SIMULTANEOUS, TURN_TERMINAL,
};

/// Writes the constant words of a program.
#[inline(always)]
fn put_consts(bits: &mut [u64], consts: &[(u32, u64, u64)]) {
    for &(w, m, v) in consts {
        let x = &mut bits[w as usize];
        *x = (*x & !m) | v;
    }
}

/// What computing lazy views needs (see `Programs`, *Lazy views*): the view numbers, the
/// program's lazy heads, and where the done bits are.
#[derive(Clone, Copy)]
struct LazyViews<'a> {
    id: &'a [u32],
    at: &'a [u32],
    ops: &'a [u32],
    done: usize,
}

impl LazyViews<'_> {
    /// No lazy views (the move phase).
    const NONE: LazyViews<'static> = LazyViews {
        id: &[],
        at: &[],
        ops: &[],
        done: 0,
    };

    /// Whether literal `l` holds, computing its view first when it is a lazy one
    /// ([`LAZY_LIT`]) not yet computed in this state. Recursion is bounded by
    /// [`super::MAX_LAZY_DEPTH`].
    #[inline(always)]
    fn holds(self, bits: &mut [u64], l: u32) -> bool {
        if l & LAZY_LIT == 0 {
            return holds(bits, l);
        }
        self.holds_lazy(bits, l & !LAZY_LIT)
    }

    #[inline(never)]
    fn holds_lazy(self, bits: &mut [u64], l: u32) -> bool {
        let p = l >> 1;
        let id = self.id[p as usize] as usize;
        let d = (self.done * 64 + id) as u32;
        if !get(bits, d) {
            let v = self.eval(bits, self.at[id] as usize);
            put(bits, p, v);
            put(bits, d, true);
        }
        holds(bits, l)
    }

    /// The value of the lazy head at `at` in `ops`: whether one of its conjunctions holds.
    fn eval(self, bits: &mut [u64], at: usize) -> bool {
        let end = at + (self.ops[at] >> OP_SHIFT) as usize;
        any_conj(&self.ops[at + 2..end], |l| self.holds(bits, l))
    }
}

/// Runs the ops of a program (see `Programs`). The program's constant words have cleared
/// its heads already, so a head is written only when one of its conjunctions holds.
/// `LAZY`: whether the ops may read lazy views (compiled twice, so that programs without
/// them run exactly the code they ran before lazy views).
#[inline]
fn exec<const LAZY: bool>(ops: &[u32], bits: &mut [u64], lazy: LazyViews<'_>) {
    let mut i = 0;
    while i < ops.len() {
        let hdr = ops[i];
        let end = i + (hdr >> OP_SHIFT) as usize;
        if hdr & OP_GUARD != 0 {
            // The block's heads all need the literal: without it they stay false.
            i = if holds(bits, ops[i + 1]) { i + 2 } else { end };
            continue;
        }
        let p = ops[i + 1];
        let slot = ops[i + 2];
        let j = i + 2 + (hdr & OP_SLOT) as usize;
        i = end;
        if hdr & OP_PRESET != 0 && get(bits, p) {
            continue;
        }
        let found = if !LAZY || hdr & OP_LAZY == 0 {
            any_conj(&ops[j..end], |l| holds(bits, l))
        } else {
            any_conj(&ops[j..end], |l| lazy.holds(bits, l))
        };
        if found {
            bits[(p >> 6) as usize] |= 1 << (p & 63);
            if hdr & OP_SLOT != 0 {
                bits[(slot >> 6) as usize] |= 1 << (slot & 63);
            }
        }
    }
}

/// Whether one of the conjunctions in `conjs` (each its literal count, then its literals)
/// has every literal hold by `holds`.
#[inline(always)]
fn any_conj(conjs: &[u32], mut holds: impl FnMut(u32) -> bool) -> bool {
    let mut j = 0;
    while j < conjs.len() {
        let n = conjs[j] as usize;
        if conjs[j + 1..j + 1 + n].iter().all(|&l| holds(l)) {
            return true;
        }
        j += 1 + n;
    }
    false
}

/// Runs a phase's scanned leaf conjunctions (see `Scan`): each whose first literal holds
/// in `bits` and whose other literals hold sets its head (and legal-move slot). `LAZY` as
/// for [`exec`].
#[inline]
fn run_scan<const LAZY: bool>(scan: &Scan, bits: &mut [u64], lazy: LazyViews<'_>) {
    for_each_hit(&scan.words, bits, |bits, k| {
        let (a, b) = scan.groups[k];
        for &(head, slot, ls, le) in &scan.entries[a as usize..b as usize] {
            let lits = &scan.lits[ls as usize..le as usize];
            let all = if LAZY && head & SCAN_LAZY != 0 {
                lits.iter().all(|&l| lazy.holds(bits, l))
            } else {
                lits.iter().all(|&l| holds(bits, l))
            };
            if all {
                let head = if LAZY { head & !SCAN_LAZY } else { head };
                bits[(head >> 6) as usize] |= 1 << (head & 63);
                if slot != NONE {
                    bits[(slot >> 6) as usize] |= 1 << (slot & 63);
                }
            }
        }
    });
}

/// For each (base word, mask, offset) of `words`, calls `hit` with the index `offset +
/// rank` of every masked bit that is set in `bits` (rank: the masked bits below it), the
/// lookup shared by the move scan and the leaf scan.
#[inline(always)]
fn for_each_hit(
    words: &[(u32, u64, u32)],
    bits: &mut [u64],
    mut hit: impl FnMut(&mut [u64], usize),
) {
    for &(w, m, off) in words {
        let mut x = bits[w as usize] & m;
        while x != 0 {
            let bit = x.trailing_zeros();
            let rank = (m & ((1u64 << bit) - 1)).count_ones();
            hit(bits, (off + rank) as usize);
            x &= x - 1;
        }
    }
}

/// The mask of bits `lo..hi` of word `w` (bit numbers counted over all words).
#[inline(always)]
fn word_mask(w: usize, lo: usize, hi: usize) -> u64 {
    let base = w * 64;
    let a = lo.max(base) - base;
    let b = hi.min(base + 64).saturating_sub(base);
    if a >= 64 {
        return 0;
    }
    let high = if b == 64 { !0u64 } else { (1u64 << b) - 1 };
    high & !((1u64 << a) - 1)
}

/// Whether any of bits `lo..hi` is set.
#[inline(always)]
fn any_in(bits: &[u64], lo: usize, hi: usize) -> bool {
    (lo / 64..hi.div_ceil(64)).any(|w| bits[w] & word_mask(w, lo, hi) != 0)
}

impl Reasoner {
    /// The program for the switch values of `bits`.
    #[inline(always)]
    fn program(&self, bits: &[u64]) -> &Program {
        let mut key = 0;
        for (i, &b) in self.progs.switch.iter().enumerate() {
            key |= (get(bits, b) as usize) << i;
        }
        &self.progs.progs[key]
    }

    /// Pushes the new value `v` of proposition `p` to the conjunctions that read it: each
    /// one's count of false literals goes down (the literal became true) or up; a count
    /// that reaches or leaves zero flips the conjunction's bit and marks its head.
    #[inline(always)]
    fn mark_readers(&self, bits: &mut [u64], p: u32, v: bool) {
        let inc = &self.inc;
        let (s, e) = inc.fan[p as usize];
        for &f in &inc.fan_list[s as usize..e as usize] {
            let c = (f >> 1) as usize;
            let (w, sh) = (inc.counts + c / 8, (c % 8) * 8);
            let flipped = if v ^ (f & 1 == 1) {
                bits[w] -= 1 << sh;
                (bits[w] >> sh) & 0xFF == 0
            } else {
                let was_true = (bits[w] >> sh) & 0xFF == 0;
                bits[w] += 1 << sh;
                was_true
            };
            if flipped {
                bits[inc.conj_bit / 64 + c / 64] ^= 1 << (c % 64);
                let h = inc.conj[c].0;
                bits[inc.dirty_heads + (h >> 6) as usize] |= 1 << (h & 63);
            }
        }
    }

    /// Writes head `h`'s new value `v` to its legal-move bit `slot` (not NONE); a guarded
    /// head's to the mirror, and the legal-move bit as that AND the guard.
    #[inline(always)]
    fn write_slot(&self, bits: &mut [u64], h: usize, slot: u32, v: bool) {
        if slot & GUARDED == 0 {
            put(bits, slot, v);
        } else {
            let slot = slot & !GUARDED;
            put(bits, slot + self.inc.inner_delta, v);
            put(bits, slot, v && holds(bits, self.inc.head_guard[h]));
        }
    }

    /// Proposition `p`, now `v`, is the guard of the groups `guard_of[p]`: rewrites their
    /// legal-move bits from the mirror (guard holds) or clears them.
    #[inline]
    fn flip_guards(&self, bits: &mut [u64], p: u32, v: bool) {
        let inc = &self.inc;
        let (g0, g1) = inc.guard_of[p as usize];
        for &(lit, m0, m1) in &inc.guard_groups[g0 as usize..g1 as usize] {
            let on = v ^ (lit & 1 == 1);
            let delta = (inc.inner_delta / 64) as usize;
            for &(w, m) in &inc.guard_masks[m0 as usize..m1 as usize] {
                let w = w as usize;
                let inner = if on { bits[w + delta] & m } else { 0 };
                bits[w] = (bits[w] & !m) | inner;
            }
        }
    }

    /// Pushes a changed proposition to its readers and, when it guards legal moves, to
    /// their bits.
    #[inline(always)]
    fn changed(&self, bits: &mut [u64], p: u32, v: bool) {
        self.mark_readers(bits, p, v);
        if let Some(&(g0, g1)) = self.inc.guard_of.get(p as usize) {
            if g0 != g1 {
                self.flip_guards(bits, p, v);
            }
        }
    }

    /// Re-decides the marked heads among `heads[..limit]` in topological order, clearing
    /// their marks: a head is the OR of its conjunction bits (which `mark_readers` keeps
    /// exact) and its forced bit.
    fn propagate(&self, bits: &mut [u64], limit: usize) {
        let inc = &self.inc;
        let cb = inc.conj_bit;
        let (dh, fh) = (inc.dirty_heads, inc.forced);
        let mut w = 0;
        while w < limit.div_ceil(64) {
            let word = bits[dh + w] & word_mask(w, 0, limit);
            if word == 0 {
                w += 1;
                continue;
            }
            let b = word.trailing_zeros() as usize;
            bits[dh + w] &= !(1u64 << b);
            let h = w * 64 + b;
            let (p, c0, c1) = inc.heads[h];
            let (c0, c1) = (c0 as usize, c1 as usize);
            let v = (bits[fh + w] >> b) & 1 != 0
                || if c1 == c0 + 1 {
                    get(bits, (cb + c0) as u32)
                } else {
                    any_in(bits, cb + c0, cb + c1)
                };
            if v != get(bits, p) {
                put(bits, p, v);
                let slot = inc.head_slot[h];
                if slot != NONE {
                    self.write_slot(bits, h, slot, v);
                }
                self.changed(bits, p, v);
            }
        }
    }

    /// Both phases in full, conjunction bits and counts included, with no `does` input set
    /// (fresh states: no marks pending).
    fn settle_full_incremental(&self, bits: &mut [u64]) {
        let inc = &self.inc;
        let cb = inc.conj_bit as u32;
        for &(p, c0, c1) in &inc.heads {
            let mut any = false;
            for c in c0..c1 {
                let (_, ls, le) = inc.conj[c as usize];
                let false_lits = inc.lits[ls as usize..le as usize]
                    .iter()
                    .filter(|&&l| !holds(bits, l))
                    .count() as u64;
                let (w, sh) = (inc.counts + c as usize / 8, (c as usize % 8) * 8);
                bits[w] = (bits[w] & !(0xFF << sh)) | false_lits << sh;
                put(bits, cb + c, false_lits == 0);
                any |= false_lits == 0;
            }
            put(bits, p, any);
        }
    }

    /// The step of the incremental evaluator (see `Incremental`).
    fn step_incremental(&self, s: &mut GdlState, joint: &[u32]) {
        let inc = &self.inc;
        let bits = &mut s.bits[..];
        let nr = self.roles.len();
        // The move phase: the played moves' `does` inputs, then their indexed conjunctions
        // (which may read another role's `does`).
        for (r, &a) in joint.iter().enumerate().take(nr) {
            if let Some(&d) = self.does[r].get(a as usize) {
                if d != NONE {
                    put(bits, d, true);
                    self.mark_readers(bits, d, true);
                }
            }
        }
        for (r, &a) in joint.iter().enumerate().take(nr) {
            let Some(&d) = self.does[r].get(a as usize) else {
                continue;
            };
            // The frame conjunctions (`(next b) <= (does ..) (true b)`, from `mid` on) are
            // applied below as word masks, not forced one head at a time.
            let Some(&(_, mid, _)) = self.does_index.get(d as usize) else {
                continue;
            };
            self.fire_move(bits, d, mid, |bits, head| {
                let h = inc.head_of[head as usize] as usize;
                bits[inc.forced + h / 64] |= 1 << (h % 64);
                bits[inc.dirty_heads + h / 64] |= 1 << (h % 64);
            });
        }
        self.propagate(bits, inc.heads.len());
        // Forced heads and `does` inputs go back to their values without the move; their
        // re-decision waits for the next step.
        for w in inc.forced..inc.forced + inc.head_words {
            let f = bits[w];
            if f != 0 {
                bits[w] = 0;
                bits[w - inc.forced + inc.dirty_heads] |= f;
            }
        }
        for (r, &a) in joint.iter().enumerate().take(nr) {
            if let Some(&d) = self.does[r].get(a as usize) {
                if d != NONE {
                    put(bits, d, false);
                    self.mark_readers(bits, d, false);
                }
            }
        }
        // The next state: the `next` propositions, and the base propositions the played
        // moves' frame conjunctions keep (`bits[w] & mask`; the network's own `next`
        // values leave them out, and nothing reads a `next` proposition); push the base
        // propositions that changed.
        let bw = self.base_words;
        let mut frames = [NONE; yomi_core::MAX_PLAYERS];
        for (r, &a) in joint.iter().enumerate().take(nr) {
            if let Some(&d) = self.does[r].get(a as usize) {
                frames[r] = self.does_frame.get(d as usize).copied().unwrap_or(NONE);
            }
        }
        for w in 0..bw {
            let keep = frames[..nr]
                .iter()
                .filter(|&&f| f != NONE)
                .fold(0, |k, &f| k | self.frame_masks[f as usize + w]);
            let new = bits[bw + w] | (bits[w] & keep);
            let mut diff = bits[w] ^ new;
            while diff != 0 {
                let b = diff.trailing_zeros();
                diff &= diff - 1;
                self.changed(bits, (w * 64) as u32 + b, (new >> b) & 1 == 1);
            }
            bits[w] = new;
        }
        self.propagate(bits, inc.state_heads);
        self.decide_turn(s);
    }

    /// Whether the derived values stored in `s` (state-phase propositions and the
    /// legal-move bits; with the incremental evaluator also the move-phase propositions
    /// once its pending marks are settled, and every conjunction value) equal a
    /// from-scratch evaluation of its base propositions by the plain evaluator. A
    /// self-check for tests: `true` at every state this reasoner makes.
    pub fn derived_values_consistent(&self, s: &GdlState) -> bool {
        if let Some(lz) = self.lazy() {
            return self.lazy_state(lz, &self.true_bases(s)).bits == s.bits;
        }
        let mut cur = s.bits.clone();
        let mut legal = s.bits.clone();
        self.fill_legal_slots(&mut legal);
        if legal != s.bits {
            return false;
        }
        let mut fresh = self.template.clone();
        fresh[..self.base_words].copy_from_slice(&s.bits[..self.base_words]);
        self.run(&self.phase_state, &mut fresh);
        let mut props: Vec<u32> = self.phase_state.clone();
        if self.progs.built && !self.inc.on {
            // Programs skip the state-phase views nothing outside the state phase reads.
            props.retain(|&p| self.progs.live[(p & !PRESET) as usize]);
        }
        if self.inc.on {
            let inc = &self.inc;
            let nh = inc.head_words;
            if cur[inc.forced..inc.forced + nh].iter().any(|&w| w != 0)
                || cur[inc.dirty_heads..inc.dirty_heads + nh]
                    .iter()
                    .enumerate()
                    .any(|(w, &x)| x & word_mask(w, 0, inc.state_heads) != 0)
            {
                return false;
            }
            self.propagate(&mut cur, inc.heads.len());
            if cur[inc.dirty_heads..inc.dirty_heads + nh]
                .iter()
                .any(|&w| w != 0)
            {
                return false;
            }
            // `does` inputs are all false: the indexed conjunctions are all false.
            self.run(&self.phase_move, &mut fresh);
            props.extend(&self.phase_move);
        }
        // A guarded head's bit is its inner value: its legal-move bit holds its value.
        let at = |p: u32| match self.inc.head_of.get(p as usize) {
            Some(&h) if self.inc.on && h != NONE && self.inc.head_guard[h as usize] != NONE => {
                self.inc.head_slot[h as usize] & !GUARDED
            }
            _ => p,
        };
        let props_ok = props
            .iter()
            .filter(|&&p| p != CYCLE)
            .all(|&p| get(&fresh, p & !PRESET) == get(&cur, at(p & !PRESET)));
        if !props_ok || !self.inc.on {
            return props_ok;
        }
        let mut all = self.template.clone();
        all[..self.base_words].copy_from_slice(&s.bits[..self.base_words]);
        self.settle_full_incremental(&mut all);
        let cb = self.inc.conj_bit as u32;
        let counts = self.inc.counts..self.inc.counts + self.inc.conj.len().div_ceil(8);
        (0..self.inc.conj.len() as u32).all(|c| get(&all, cb + c) == get(&cur, cb + c))
            && all[counts.clone()] == cur[counts]
    }

    /// Calls `fire` with the head of every indexed conjunction of the `does` proposition
    /// `d` before `to` (its frame part's start or its end) that holds in `bits`: the
    /// groups whose first literal is a positive base proposition by word masks
    /// (`does_scan`), the rest one group at a time.
    #[inline(always)]
    fn fire_move(&self, bits: &mut [u64], d: u32, to: u32, mut fire: impl FnMut(&mut [u64], u32)) {
        let (a, b, rest) = self.does_scan[d as usize];
        for_each_hit(&self.scan_words[a as usize..b as usize], bits, |bits, k| {
            let g = self.scan_groups[k] as usize;
            let group_end = self.does_conj[g].2 as usize;
            // The group's first literal holds: test the others.
            for i in g..group_end {
                let (head, (ls, le), _) = self.does_conj[i];
                if self.does_lits[ls as usize + 1..le as usize]
                    .iter()
                    .all(|&l| holds(bits, l))
                {
                    fire(bits, head);
                }
            }
        });
        self.fire_does(bits, rest, to, fire);
    }

    /// Calls `fire` with the head of every indexed conjunction in `does_conj[s..e]` that
    /// holds in `bits`, skipping a group of conjunctions at once when the literal they
    /// all test first fails.
    #[inline(always)]
    fn fire_does(&self, bits: &mut [u64], s: u32, e: u32, mut fire: impl FnMut(&mut [u64], u32)) {
        let mut i = s as usize;
        while i < e as usize {
            let (head, (ls, le), group_end) = self.does_conj[i];
            let lits = &self.does_lits[ls as usize..le as usize];
            match lits.split_first() {
                Some((&first, _)) if !holds(bits, first) => {
                    i = group_end as usize;
                    continue;
                }
                Some((_, rest)) if !rest.iter().all(|&l| holds(bits, l)) => {}
                _ => fire(bits, head),
            }
            i += 1;
        }
    }

    /// The move phase for the joint move whose `does` inputs are set in `bits`: the
    /// indexed conjunctions of the played moves first, then the rest.
    pub(super) fn move_phase(&self, bits: &mut [u64], joint: &[u32]) {
        if self.progs.built {
            let bw = self.base_words;
            for &(w, m) in &self.progs.does_clear {
                bits[w as usize] &= !m;
            }
            for (r, &a) in joint.iter().enumerate().take(self.roles.len()) {
                let Some(&d) = self.does[r].get(a as usize) else {
                    continue;
                };
                let Some(&(_, mid, _)) = self.does_index.get(d as usize) else {
                    continue;
                };
                self.fire_move(bits, d, mid, |bits, head| put(bits, head, true));
                let f = self.does_frame[d as usize];
                if f != NONE {
                    let masks = &self.frame_masks[f as usize..f as usize + bw];
                    for (w, &m) in masks.iter().enumerate() {
                        bits[bw + w] |= bits[w] & m;
                    }
                }
            }
            let prog = self.program(bits);
            put_consts(bits, &prog.move_const);
            exec::<false>(&prog.move_ops, bits, LazyViews::NONE);
            run_scan::<false>(&prog.move_scan, bits, LazyViews::NONE);
            return;
        }
        for &h in &self.does_heads {
            put(bits, h, false);
        }
        for (r, &a) in joint.iter().enumerate().take(self.roles.len()) {
            let Some(&d) = self.does[r].get(a as usize) else {
                continue;
            };
            let Some(&(_, _, e)) = self.does_index.get(d as usize) else {
                continue;
            };
            self.fire_move(bits, d, e, |bits, head| put(bits, head, true));
        }
        self.run(&self.phase_move, bits);
    }

    /// The initial state.
    pub fn initial_state(&self) -> GdlState {
        if let Some(lz) = self.lazy() {
            return self.lazy_state(lz, &lz.init());
        }
        let mut s = self.empty_state();
        for &b in &self.init {
            put(&mut s.bits, b, true);
        }
        self.settle(&mut s);
        s
    }

    fn empty_state(&self) -> GdlState {
        GdlState {
            bits: self.template.clone(),
            base_words: self.base_words as u32,
            turn: TURN_TERMINAL,
        }
    }

    /// The state in which exactly the given base propositions are true.
    pub fn state_from_bases(&self, bases: &[u32]) -> GdlState {
        if let Some(lz) = self.lazy() {
            let known = lz.base_count() as u32;
            let bases: Vec<u32> = bases.iter().copied().filter(|&b| b < known).collect();
            return self.lazy_state(lz, &bases);
        }
        let mut s = self.empty_state();
        for &b in bases {
            if (b as usize) < self.base_terms.len() {
                put(&mut s.bits, b, true);
            }
        }
        self.settle(&mut s);
        s
    }

    /// The true base propositions of `s`.
    pub fn true_bases(&self, s: &GdlState) -> Vec<u32> {
        let mut out = Vec::new();
        self.for_each_true_base(s, |b| out.push(b));
        out
    }

    /// Calls `f` with each true base proposition of `s` (an index into
    /// [`Reasoner::base_terms`]), in ascending order, without allocating.
    #[inline]
    pub fn for_each_true_base(&self, s: &GdlState, mut f: impl FnMut(u32)) {
        let n = if self.lazy.is_some() {
            usize::MAX
        } else {
            self.base_terms.len()
        };
        for (w, &word) in s.bits[..s.base_words as usize].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let b = w * 64 + bits.trailing_zeros() as usize;
                if b >= n {
                    return;
                }
                f(b as u32);
                bits &= bits - 1;
            }
        }
    }

    /// True when `s` is terminal (or a role has no legal move).
    #[inline]
    pub fn is_terminal(&self, s: &GdlState) -> bool {
        s.turn == TURN_TERMINAL
    }

    /// Whether the `terminal` proposition holds in `s` (unlike [`Reasoner::is_terminal`],
    /// a state where a role has no legal move is not counted).
    pub fn terminal_holds(&self, s: &GdlState) -> bool {
        if self.lazy.is_some() {
            return self.lazy_terminal(s);
        }
        self.terminal != NONE && get(&s.bits, self.terminal)
    }

    /// The legal-move bits of `role` in `s` (bit `k`: `legal[role][k]` holds).
    #[inline(always)]
    fn legal_bits<'a>(&self, s: &'a GdlState, role: usize) -> &'a [u64] {
        let w = self.legal_word[role];
        &s.bits[w..w + self.legal[role].len().div_ceil(64)]
    }

    /// Copies the legal propositions of every role into its legal-move bits.
    fn fill_legal(&self, bits: &mut [u64]) {
        for (r, l) in self.legal.iter().enumerate() {
            let w0 = self.legal_word[r];
            for (i, chunk) in l.chunks(64).enumerate() {
                let mut acc = 0u64;
                for (k, &(p, _)) in chunk.iter().enumerate() {
                    acc |= ((bits[(p >> 6) as usize] >> (p & 63)) & 1) << k;
                }
                bits[w0 + i] = acc;
            }
        }
    }

    /// The legal-move bits of every role from the propositions (with the incremental
    /// evaluator's guarded heads, their mirror from the inner values and the legal-move
    /// bits from the mirror and the guards).
    fn fill_legal_slots(&self, bits: &mut [u64]) {
        self.fill_legal(bits);
        let inc = &self.inc;
        if !inc.on || inc.guard_groups.is_empty() {
            return;
        }
        let delta = (inc.inner_delta / 64) as usize;
        for &(lit, m0, m1) in &inc.guard_groups {
            let on = holds(bits, lit);
            for &(w, m) in &inc.guard_masks[m0 as usize..m1 as usize] {
                let w = w as usize;
                bits[w + delta] = (bits[w + delta] & !m) | (bits[w] & m);
                if !on {
                    bits[w] &= !m;
                }
            }
        }
    }

    /// The legal actions of `role` in `s`, by action id.
    #[inline]
    pub fn legal_into(&self, s: &GdlState, role: usize, out: &mut Vec<u32>) {
        out.clear();
        if self.lazy.is_some() {
            out.extend(self.lazy_legal(s, role).iter().map(|&a| a as u32));
            return;
        }
        let l = &self.legal[role];
        for (w, &word) in self.legal_bits(s, role).iter().enumerate() {
            let mut m = word;
            while m != 0 {
                out.push(l[w * 64 + m.trailing_zeros() as usize].1);
                m &= m - 1;
            }
        }
    }

    /// How many legal actions `role` has in `s`.
    #[inline]
    pub fn legal_count(&self, s: &GdlState, role: usize) -> usize {
        if self.lazy.is_some() {
            return self.lazy_legal(s, role).len();
        }
        self.legal_bits(s, role)
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// The `k`-th legal action of `role` (in action order), if there are more than `k`.
    #[inline]
    pub fn nth_legal(&self, s: &GdlState, role: usize, k: usize) -> Option<u32> {
        if self.lazy.is_some() {
            return self.lazy_legal(s, role).get(k).map(|&a| a as u32);
        }
        let mut k = k;
        for (w, &word) in self.legal_bits(s, role).iter().enumerate() {
            let n = word.count_ones() as usize;
            if k < n {
                let mut m = word;
                for _ in 0..k {
                    m &= m - 1;
                }
                return Some(self.legal[role][w * 64 + m.trailing_zeros() as usize].1);
            }
            k -= n;
        }
        None
    }

    /// Whether `role` may play action `a` in `s`.
    pub fn is_legal(&self, s: &GdlState, role: usize, a: u32) -> bool {
        if self.lazy.is_some() {
            return role < self.roles.len() && self.lazy_legal(s, role).contains(&u64::from(a));
        }
        // From the legal-move bits (a guarded proposition's own bit is its inner value).
        let Some(k) = self
            .legal
            .get(role)
            .and_then(|l| l.iter().position(|&(_, b)| b == a))
        else {
            return false;
        };
        (self.legal_bits(s, role)[k / 64] >> (k % 64)) & 1 == 1
    }

    /// The role to move when only one role has a choice, or `None` at simultaneous and
    /// terminal states.
    #[inline]
    pub fn mover(&self, s: &GdlState) -> Option<usize> {
        (s.turn < TURN_SIMULTANEOUS).then_some(s.turn as usize)
    }

    /// Every goal value that holds for each role in `s` (one per role in a well-formed
    /// game's terminal states).
    pub fn goal_values(&self, s: &GdlState) -> Vec<Vec<u32>> {
        if self.lazy.is_some() {
            return (0..self.roles.len())
                .map(|r| self.lazy_goals(s, r).collect())
                .collect();
        }
        let mut bits = s.bits.clone();
        if s.turn != TURN_TERMINAL {
            self.run(&self.phase_goal, &mut bits);
        }
        self.goals
            .iter()
            .map(|gs| {
                let mut v: Vec<u32> = gs
                    .iter()
                    .filter(|&&(p, _)| get(&bits, p))
                    .map(|&(_, v)| v)
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect()
    }

    /// The reward of each role at `s`: its goal value (the highest if several hold, 0 if
    /// none). Allocation-free at terminal states (their goals were computed with them).
    pub fn rewards(&self, s: &GdlState, out: &mut [f64]) {
        if self.lazy.is_some() {
            for (r, o) in out.iter_mut().enumerate().take(self.roles.len()) {
                *o = self.lazy_goals(s, r).last().unwrap_or(0) as f64;
            }
            return;
        }
        if s.turn == TURN_TERMINAL {
            for (r, gs) in self.goals.iter().enumerate() {
                out[r] = gs
                    .iter()
                    .filter(|&&(p, _)| get(&s.bits, p))
                    .map(|&(_, v)| v)
                    .max()
                    .unwrap_or(0) as f64;
            }
        } else {
            for (r, v) in self.goal_values(s).iter().enumerate() {
                out[r] = v.last().copied().unwrap_or(0) as f64;
            }
        }
    }

    /// Plays one action per role (`joint[r]` for role `r`; the caller ensures legality:
    /// the compiled programs take a move whose legal proposition cannot hold as not
    /// played).
    pub fn step(&self, s: &mut GdlState, joint: &[u32]) {
        if let Some(lz) = self.lazy() {
            self.lazy_step(lz, s, joint);
            return;
        }
        if self.inc.on {
            self.step_incremental(s, joint);
            return;
        }
        for (r, &a) in joint.iter().enumerate().take(self.roles.len()) {
            if let Some(&p) = self.does[r].get(a as usize) {
                if p != NONE {
                    put(&mut s.bits, p, true);
                }
            }
        }
        self.move_phase(&mut s.bits, joint);
        let bw = self.base_words;
        s.bits.copy_within(bw..2 * bw, 0);
        for (r, &a) in joint.iter().enumerate().take(self.roles.len()) {
            if let Some(&p) = self.does[r].get(a as usize) {
                if p != NONE {
                    put(&mut s.bits, p, false);
                }
            }
        }
        self.settle(s);
    }

    /// Evaluates the state phase (and with the incremental evaluator the move phase, with
    /// no `does` input) in full and decides whose turn it is.
    pub(super) fn settle(&self, s: &mut GdlState) {
        if self.inc.on {
            self.settle_full_incremental(&mut s.bits);
            self.fill_legal_slots(&mut s.bits);
        } else if self.progs.built {
            let prog = self.program(&s.bits);
            let lazy = LazyViews {
                id: &self.progs.lazy_id,
                at: &prog.lazy_at,
                ops: &prog.lazy_ops,
                done: self.progs.lazy_done,
            };
            put_consts(&mut s.bits, &prog.state_const);
            if prog.lazy_ops.is_empty() {
                exec::<false>(&prog.state_ops, &mut s.bits, lazy);
                run_scan::<false>(&prog.state_scan, &mut s.bits, lazy);
            } else {
                exec::<true>(&prog.state_ops, &mut s.bits, lazy);
                run_scan::<true>(&prog.state_scan, &mut s.bits, lazy);
            }
        } else {
            self.run(&self.phase_state, &mut s.bits);
            self.fill_legal(&mut s.bits);
        }
        self.decide_turn(s);
    }

    /// Decides whose turn it is from the state phase (and runs the goal phase at terminal
    /// states).
    fn decide_turn(&self, s: &mut GdlState) {
        if self.terminal != NONE && get(&s.bits, self.terminal) {
            self.run(&self.phase_goal, &mut s.bits);
            s.turn = TURN_TERMINAL;
            return;
        }
        let mut choosers = 0;
        let mut mover = 0usize;
        let mut active = None;
        for r in 0..self.roles.len() {
            let lb = self.legal_bits(s, r);
            let n: u32 = lb.iter().map(|w| w.count_ones()).sum();
            if n == 0 {
                // A role without a legal move: the game cannot go on.
                self.run(&self.phase_goal, &mut s.bits);
                s.turn = TURN_TERMINAL;
                return;
            }
            if active.is_none() {
                let k = lb
                    .iter()
                    .enumerate()
                    .find(|&(_, &w)| w != 0)
                    .map_or(0, |(w, &x)| w * 64 + x.trailing_zeros() as usize);
                if !self.noop[self.legal[r][k].1 as usize] {
                    active = Some(r);
                }
            }
            if n > 1 {
                choosers += 1;
                mover = r;
            }
        }
        s.turn = match choosers {
            // Nobody has a choice: the first role whose only move is not `noop` moves.
            0 => active.unwrap_or(0) as u8,
            1 => mover as u8,
            _ => TURN_SIMULTANEOUS,
        };
    }

    #[inline]
    fn eval(&self, p: u32, bits: &[u64]) -> bool {
        let (s, e) = self.rules[p as usize];
        for c in &self.cj[s as usize..e as usize] {
            if !holds(bits, c.first) {
                continue;
            }
            let rest = &self.lits[c.rest.0 as usize..c.rest.1 as usize];
            if rest.iter().all(|&l| holds(bits, l)) {
                return true;
            }
        }
        false
    }

    fn run(&self, phase: &[u32], bits: &mut [u64]) {
        let mut i = 0;
        while i < phase.len() {
            let p = phase[i];
            if p == CYCLE {
                let n = phase[i + 1] as usize;
                let members = &phase[i + 2..i + 2 + n];
                for &m in members {
                    put(bits, m, false);
                }
                loop {
                    let mut changed = false;
                    for &m in members {
                        if !get(bits, m) && self.eval(m, bits) {
                            put(bits, m, true);
                            changed = true;
                        }
                    }
                    if !changed {
                        break;
                    }
                }
                i += 2 + n;
            } else {
                let q = p & !PRESET;
                let v = (p & PRESET != 0 && get(bits, q)) || self.eval(q, bits);
                put(bits, q, v);
                i += 1;
            }
        }
    }
}
