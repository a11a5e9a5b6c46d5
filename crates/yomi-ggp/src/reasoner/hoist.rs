//! Guard hoisting: a view whose every rule tests the same base proposition is compiled
//! without it, and its readers test the proposition instead.
//!
//! Escort latch defines its moves through a view, `(<= (legal ?p ?m) (legal2 ?p ?m))`, and
//! every `legal2` rule starts with `(true (control ?p))`. Compiled as written, each turn flip
//! moves the false-literal count of every `legal2` conjunction of both roles (about 860
//! conjunctions a step, nearly all of the incremental network's work), and the guarded-legal
//! shortcut of the incremental network (`Incremental`) never sees the guard, which sits one
//! view down. Here the view `V` (all of whose conjunctions require `g`, literally or through
//! positive views: the "implied" sets) becomes `V'`, its conjunctions less `g`, with
//! `V = g ∧ V'`:
//!
//! - inside a view hoisted on the same `g`, `V` and `¬V` read `V'` and `¬V'` (`g` holds
//!   wherever that view is used);
//! - elsewhere a positive `V` reads `V'` and the conjunction gains `g` (so `legal` over
//!   `legal2` is guarded again, in sight of the shortcut);
//! - a negative `¬V` reads `¬V'` in a conjunction that also requires `g`, and is dropped
//!   from one that requires `¬g` (it holds there); a view read negatively anywhere else is
//!   not hoisted (its readers would have to be split in two).
//!
//! Values are unchanged wherever `g` holds, and where it does not, every hoisted view was
//! false and its readers see it so: `V'` is never read without `g`. `V'` keeps `V`'s
//! proposition; views are internal to the reasoner (only base propositions, legal moves,
//! goals and `terminal` are read from outside, and those are never hoisted). A view with a
//! conjunction of `g` alone is left as it is (`V'` would be constant true).
//!
//! On escort latch a step then reaches 18 conjunctions instead of 858. Whether the rewrite
//! pays is left to the clock (`Hoisting::Timed` builds both programs): on sheets where every
//! base proposition is read about as often it ran 5-25 % slower.

/// No guard.
const NONE: u32 = u32::MAX;

/// Conjunctions a base proposition must be read by to be hoisted, at least.
pub(super) const MIN_GUARD_READERS: usize = 16;

/// ... and at least this many times as many as the median base proposition.
pub(super) const GUARD_OUTLIER: usize = 1;

/// Hoists guards out of the views in `by_head` (per proposition, its conjunctions as
/// literals `prop << 1 | negated`) whose `rewritable` flag is set; guards are base
/// propositions (`p < nbase`) read by at least `min_readers` conjunctions and at least
/// `outlier` times as many as the median base proposition ([`MIN_GUARD_READERS`],
/// [`GUARD_OUTLIER`]). Returns how many views were hoisted.
pub(super) fn hoist_guards(
    by_head: &mut [Vec<Vec<u32>>],
    rewritable: &[bool],
    nbase: usize,
    min_readers: usize,
    outlier: usize,
) -> usize {
    let nprops = by_head.len();
    let pos = |l: u32| l & 1 == 0;
    // Guards worth hoisting are read by many conjunctions (the turn): a flip of one costs
    // a count update in each reader. A proposition few rules read is not a candidate.
    // Whether hoisting pays is not settled here: where every proposition is read about as
    // often (tic-tac-toe's cells, each in a few lines; crisscross, hitori) a "guard" is
    // just one more literal, and hoisting ran 5-25 % slower there, while escort latch's
    // and ttcc4's turns, read by two to ten times the median, ran 2.5-3.6× faster; no count
    // told the two apart on the shared sheets, so the compiler times both (`Hoisting`).
    let mut reads = vec![0usize; nbase];
    for c in by_head.iter().flatten() {
        for &l in c {
            if ((l >> 1) as usize) < nbase {
                reads[(l >> 1) as usize] += 1;
            }
        }
    }
    let mut read: Vec<usize> = reads.iter().copied().filter(|&n| n > 0).collect();
    read.sort_unstable();
    let median = read.get(read.len() / 2).copied().unwrap_or(0);
    let heavy: Vec<bool> = reads
        .iter()
        .map(|&n| n >= min_readers && n >= outlier * median)
        .collect();
    if !heavy.contains(&true) {
        return 0;
    }
    // Readers of each proposition: (head, conjunction index, negated).
    let mut readers: Vec<Vec<(u32, u32, bool)>> = vec![Vec::new(); nprops];
    for (h, conjs) in by_head.iter().enumerate() {
        for (k, c) in conjs.iter().enumerate() {
            for &l in c {
                readers[(l >> 1) as usize].push((h as u32, k as u32, !pos(l)));
            }
        }
    }
    // What each derived proposition requires: the heavy base propositions that every one
    // of its conjunctions holds, itself or through a positive view. Sets only grow from
    // empty as the views they read are settled, so the loop ends, and a recursive view gets
    // the least (safe) answer.
    let mut implied: Vec<Vec<u32>> = vec![Vec::new(); nprops];
    loop {
        let mut changed = false;
        for p in 0..nprops {
            let mut acc: Option<Vec<u32>> = None;
            for c in &by_head[p] {
                let mut set: Vec<u32> = Vec::new();
                for &l in c.iter().filter(|&&l| pos(l)) {
                    let q = l >> 1;
                    if (q as usize) < nbase {
                        if heavy[q as usize] {
                            set.push(q);
                        }
                    } else {
                        set.extend_from_slice(&implied[q as usize]);
                    }
                }
                set.sort_unstable();
                set.dedup();
                acc = Some(match acc {
                    None => set,
                    Some(a) => a
                        .into_iter()
                        .filter(|g| set.binary_search(g).is_ok())
                        .collect(),
                });
                if acc.as_ref().is_some_and(Vec::is_empty) {
                    break;
                }
            }
            let acc = acc.unwrap_or_default();
            if acc != implied[p] {
                implied[p] = acc;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Whether conjunction `c` requires `g` (literally or through a positive view).
    let requires = |c: &[u32], g: u32| {
        c.iter().any(|&l| {
            let q = l >> 1;
            pos(l) && (q == g || ((q as usize) >= nbase && implied[q as usize].contains(&g)))
        })
    };
    // Where a view requires several base propositions (a rule testing both turns), the one
    // most views require is the guard, so that views and their readers agree.
    let mut popular = vec![0u32; nbase];
    for p in (0..nprops).filter(|&p| rewritable[p]) {
        for &g in &implied[p] {
            popular[g as usize] += 1;
        }
    }
    let mut guard = vec![NONE; nprops];
    // A negative reader qualifies once it is itself hoisted on the guard: iterate.
    loop {
        let mut changed = false;
        for p in 0..nprops {
            if !rewritable[p] || guard[p] != NONE || implied[p].is_empty() {
                continue;
            }
            let mut candidates = implied[p].clone();
            candidates.sort_by_key(|&g| std::cmp::Reverse(popular[g as usize]));
            let found = candidates.into_iter().find(|&g| {
                // `g` alone would leave `V'` constant true.
                by_head[p].iter().all(|c| c.iter().any(|&l| l != g << 1))
                    && readers[p].iter().all(|&(h, k, negated)| {
                        if !negated || guard[h as usize] == g {
                            return true;
                        }
                        let c = &by_head[h as usize][k as usize];
                        requires(c, g) || c.contains(&(g << 1 | 1))
                    })
            });
            if let Some(g) = found {
                guard[p] = g;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let hoisted = guard.iter().filter(|&&g| g != NONE).count();
    if hoisted == 0 {
        return 0;
    }
    for (h, conjs) in by_head.iter_mut().enumerate() {
        let hg = guard[h];
        for c in conjs.iter_mut() {
            let mut out: Vec<u32> = Vec::with_capacity(c.len() + 1);
            let mut added: Vec<u32> = Vec::new();
            for &l in c.iter() {
                let q = l >> 1;
                if hg != NONE && l == hg << 1 {
                    // The hoisted view's own guard: `V'` is `V` less it.
                    continue;
                }
                let gq = guard[q as usize];
                if gq == NONE || gq == hg {
                    out.push(l);
                } else if pos(l) {
                    out.push(l);
                    added.push(gq << 1);
                } else if c.contains(&(gq << 1 | 1)) {
                    // `¬V` where `¬g` holds: true, dropped.
                } else {
                    // `¬V` where `g` is required (checked when `V` was hoisted): `¬V'`.
                    out.push(l);
                }
            }
            for a in added {
                if !out.contains(&a) {
                    out.push(a);
                }
            }
            out.dedup();
            *c = out;
        }
    }
    hoisted
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Evaluates views in the order given (each reads only inputs and earlier views).
    fn eval(by_head: &[Vec<Vec<u32>>], inputs: &[(u32, bool)], order: &[u32]) -> Vec<bool> {
        let mut v = vec![false; by_head.len()];
        for &(p, b) in inputs {
            v[p as usize] = b;
        }
        for &p in order {
            v[p as usize] = by_head[p as usize]
                .iter()
                .any(|c| c.iter().all(|&l| v[(l >> 1) as usize] ^ (l & 1 == 1)));
        }
        v
    }

    /// The heads from `outside` on (those not rewritten) have the same values before and
    /// after, for every value of the `nbase` inputs.
    fn outside_values_agree(
        before: &[Vec<Vec<u32>>],
        after: &[Vec<Vec<u32>>],
        nbase: u32,
        order: &[u32],
        outside: usize,
    ) {
        for bits in 0..1u32 << nbase {
            let inputs: Vec<(u32, bool)> = (0..nbase).map(|b| (b, bits >> b & 1 == 1)).collect();
            let (a, b) = (eval(before, &inputs, order), eval(after, &inputs, order));
            assert_eq!(a[outside..], b[outside..], "inputs {inputs:?}");
        }
    }

    const P: fn(u32) -> u32 = |p| p << 1;
    const N: fn(u32) -> u32 = |p| p << 1 | 1;

    /// Escort latch in miniature: base 0 is the turn, 1 and 2 pieces; view 4 (`legal2`)
    /// is guarded by the turn, view 5 (`hasAnyLegalMove`) reads it, and the outside heads
    /// 6 (`legal move`), 7 (`legal noop`, turn and no move) and 8 (no move, off turn:
    /// the negative reader without the guard) read them.
    fn sheet() -> Vec<Vec<Vec<u32>>> {
        let mut by_head = vec![Vec::new(); 9];
        by_head[4] = vec![vec![P(0), P(1)], vec![P(0), N(2)]];
        by_head[5] = vec![vec![P(4)]];
        by_head[6] = vec![vec![P(4)]];
        by_head[7] = vec![vec![P(0), N(5)]];
        by_head[8] = vec![vec![N(0), N(5)]];
        by_head
    }

    #[test]
    fn a_guarded_view_loses_its_guard_and_its_readers_gain_it() {
        let mut by_head = sheet();
        let rewritable = [false, false, false, false, true, true, false, false, false];
        assert_eq!(hoist_guards(&mut by_head, &rewritable, 3, 1, 1), 2);
        assert_eq!(by_head[4], vec![vec![P(1)], vec![N(2)]]);
        // Inside a view hoisted on the same guard: no guard added.
        assert_eq!(by_head[5], vec![vec![P(4)]]);
        assert_eq!(by_head[6], vec![vec![P(4), P(0)]]);
        assert_eq!(by_head[7], vec![vec![P(0), N(5)]]);
        // `¬hasAnyLegalMove` where the turn is false holds: dropped.
        assert_eq!(by_head[8], vec![vec![N(0)]]);
    }

    #[test]
    fn the_outside_heads_keep_their_values_in_every_state() {
        let before = sheet();
        let mut after = sheet();
        let rewritable = [false, false, false, false, true, true, false, false, false];
        hoist_guards(&mut after, &rewritable, 3, 1, 1);
        outside_values_agree(&before, &after, 3, &[4, 5, 6, 7, 8], 6);
    }

    #[test]
    fn a_negative_reader_without_the_guard_stops_the_hoisting() {
        let mut by_head = sheet();
        // Head 8 reads ¬hasAnyLegalMove with nothing about the turn.
        by_head[8] = vec![vec![P(1), N(5)]];
        let rewritable = [false, false, false, false, true, true, false, false, false];
        assert_eq!(hoist_guards(&mut by_head, &rewritable, 3, 1, 1), 1);
        assert_eq!(by_head[5], vec![vec![P(4), P(0)]]);
        assert_eq!(by_head[8], vec![vec![P(1), N(5)]]);
    }

    /// A rule that tests both turns (escort latch grounds two): its view requires both, the
    /// reader still counts as guarded by the turn the other views have, and the values agree.
    #[test]
    fn a_view_requiring_two_guards_keeps_its_reader_guarded() {
        let mut by_head = vec![Vec::new(); 10];
        // Base 0 and 3: the two turns; 1, 2: pieces.
        by_head[4] = vec![vec![P(0), P(1)]];
        by_head[5] = vec![vec![P(0), N(2)]];
        by_head[6] = vec![vec![P(3), P(0), P(2)]];
        by_head[7] = vec![vec![P(4)], vec![P(5)], vec![P(6)]];
        by_head[8] = vec![vec![P(0), N(7)]];
        by_head[9] = vec![vec![P(4)], vec![P(6)]];
        let before = by_head.clone();
        let mut rewritable = [false; 10];
        rewritable[4..8].fill(true);
        assert_eq!(hoist_guards(&mut by_head, &rewritable, 4, 1, 1), 4);
        // The reader of all three reads base 0 no more, except beside the view that was
        // hoisted on base 3.
        assert!(by_head[7][..2].iter().all(|c| !c.contains(&P(0))));
        outside_values_agree(&before, &by_head, 4, &[4, 5, 6, 7, 8, 9], 8);
    }

    /// A guard few conjunctions read is not worth a rewrite.
    #[test]
    fn a_lightly_read_guard_is_not_hoisted() {
        let mut by_head = sheet();
        let rewritable = [false, false, false, false, true, true, false, false, false];
        // Base 0 is read by 4 conjunctions, the median base proposition by 1.
        assert_eq!(hoist_guards(&mut by_head, &rewritable, 3, 5, 1), 0);
        assert_eq!(hoist_guards(&mut by_head, &rewritable, 3, 1, 5), 0);
        assert_eq!(by_head, sheet());
        assert_eq!(hoist_guards(&mut by_head, &rewritable, 3, 4, 4), 2);
    }

    #[test]
    fn a_view_of_the_guard_alone_is_left_alone() {
        let mut by_head = vec![Vec::new(); 6];
        by_head[4] = vec![vec![P(0)], vec![P(0), P(1)]];
        by_head[5] = vec![vec![P(4)]];
        let rewritable = [false, false, false, false, true, false];
        assert_eq!(hoist_guards(&mut by_head, &rewritable, 3, 1, 1), 0);
        assert_eq!(by_head[5], vec![vec![P(4)]]);
    }
}
