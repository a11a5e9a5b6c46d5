//! Thermographs: the walls `L_t(G)` and `R_t(G)` of a short game as piecewise-linear
//! functions of the temperature `t ≥ -1` (subzero thermography, as in Siegel,
//! *Combinatorial Game Theory*, §II.5).
//!
//! A [`Trajectory`] is a continuous piecewise-linear function on `[-1, ∞)` whose pieces
//! have slope −1, 0 or +1 (value per degree of temperature) and dyadic breakpoints. The
//! thermograph of a game is built from its options' thermographs by the scaffold
//! construction ([`Thermograph::from_scaffolds`]): the *left scaffold* is the maximum over
//! the left options of their right walls tilted by `−t`, the *right scaffold* the minimum
//! over the right options of their left walls tilted by `+t`; the walls follow the
//! scaffolds up to the first temperature where they meet and then rise as a vertical
//! *mast* at the mean value.

use crate::Dyadic;

/// The lowest temperature of a thermograph: every short game is frozen at `t = -1`
/// (integers have temperature −1, `m/2^k` has −1/2^k).
pub const MIN_TEMPERATURE: Dyadic = Dyadic::MINUS_ONE;

/// One linear piece of a [`Trajectory`]: `value + slope · (t − start)` from `start` to
/// the next piece's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Temperature where the piece begins.
    pub start: Dyadic,
    /// Value at `start`.
    pub value: Dyadic,
    /// Slope (change of value per unit of temperature): −1, 0 or +1.
    pub slope: i8,
}

impl Piece {
    fn at(&self, t: Dyadic) -> Dyadic {
        self.value + (t - self.start).mul_int(self.slope as i64)
    }
}

/// A continuous piecewise-linear function of temperature on `[-1, ∞)`; the last piece
/// extends to infinity.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Trajectory {
    pieces: Vec<Piece>,
}

impl Trajectory {
    /// The constant function `x`.
    pub fn constant(x: Dyadic) -> Trajectory {
        Trajectory {
            pieces: vec![Piece {
                start: MIN_TEMPERATURE,
                value: x,
                slope: 0,
            }],
        }
    }

    /// The pieces, by increasing start (the first starts at −1).
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    fn piece_index(&self, t: Dyadic) -> usize {
        // Pieces are few (a handful per game); a linear scan is the simplest.
        let mut i = 0;
        while i + 1 < self.pieces.len() && self.pieces[i + 1].start <= t {
            i += 1;
        }
        i
    }

    /// The value at temperature `t` (below −1 the first piece is extended).
    pub fn value_at(&self, t: Dyadic) -> Dyadic {
        self.pieces[self.piece_index(t)].at(t)
    }

    fn slope_at(&self, t: Dyadic) -> i8 {
        self.pieces[self.piece_index(t)].slope
    }

    /// The trajectory plus `c · t` (`c` is ±1; walls keep slopes in {−1, 0, 1}).
    pub(crate) fn tilt(&self, c: i8) -> Trajectory {
        let pieces = self
            .pieces
            .iter()
            .map(|p| Piece {
                start: p.start,
                value: p.value + p.start.mul_int(c as i64),
                slope: p.slope + c,
            })
            .collect();
        Trajectory { pieces }
    }

    /// Breakpoints of both trajectories, sorted and deduplicated.
    fn breakpoints(&self, other: &Trajectory) -> Vec<Dyadic> {
        let mut ts: Vec<Dyadic> = self
            .pieces
            .iter()
            .chain(other.pieces.iter())
            .map(|p| p.start)
            .collect();
        ts.sort();
        ts.dedup();
        ts
    }

    /// Pointwise maximum (`take_max`) or minimum of two trajectories.
    fn combine(&self, other: &Trajectory, take_max: bool) -> Trajectory {
        let ts = self.breakpoints(other);
        let mut out: Vec<Piece> = Vec::with_capacity(ts.len() + 2);
        for (i, &s) in ts.iter().enumerate() {
            let end = ts.get(i + 1).copied();
            let (va, sa) = (self.value_at(s), self.slope_at(s));
            let (vb, sb) = (other.value_at(s), other.slope_at(s));
            // Which one wins just after s? Compare values, then slopes.
            let a_wins = |va: Dyadic, sa: i8, vb: Dyadic, sb: i8| {
                if take_max {
                    va > vb || (va == vb && sa >= sb)
                } else {
                    va < vb || (va == vb && sa <= sb)
                }
            };
            let first_a = a_wins(va, sa, vb, sb);
            let (v1, s1, v2, s2) = if first_a {
                (va, sa, vb, sb)
            } else {
                (vb, sb, va, sa)
            };
            push_piece(&mut out, s, v1, s1);
            // Crossing inside (s, end): the loser overtakes when slopes favour it.
            let overtakes = if take_max { s2 > s1 } else { s2 < s1 };
            if overtakes && v1 != v2 {
                let dt = (v1 - v2)
                    .div_pow2((s2 - s1) as i64)
                    .expect("wall slopes differ by 1 or 2");
                let cross = s + dt;
                if end.is_none_or(|e| cross < e) {
                    push_piece(&mut out, cross, v1 + dt.mul_int(s1 as i64), s2);
                }
            }
        }
        Trajectory { pieces: out }
    }

    /// Pointwise maximum.
    pub fn max(&self, other: &Trajectory) -> Trajectory {
        self.combine(other, true)
    }

    /// Pointwise minimum.
    pub fn min(&self, other: &Trajectory) -> Trajectory {
        self.combine(other, false)
    }

    /// This trajectory up to `tau`, then the constant `mast` (continuous when
    /// `value_at(tau) == mast`).
    fn truncate(&self, tau: Dyadic, mast: Dyadic) -> Trajectory {
        let mut out: Vec<Piece> = self
            .pieces
            .iter()
            .copied()
            .filter(|p| p.start < tau)
            .collect();
        push_piece(&mut out, tau, mast, 0);
        Trajectory { pieces: out }
    }
}

/// Append a piece, merging it into the previous one when it continues it.
fn push_piece(out: &mut Vec<Piece>, start: Dyadic, value: Dyadic, slope: i8) {
    if let Some(last) = out.last() {
        if last.slope == slope && last.at(start) == value {
            return;
        }
        if last.start == start {
            out.pop();
        }
    }
    out.push(Piece {
        start,
        value,
        slope,
    });
}

/// The thermograph of a short game: its left and right walls, and the mast (mean) that
/// rises from the temperature where they meet.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Thermograph {
    left: Trajectory,
    right: Trajectory,
    temperature: Dyadic,
    mast: Dyadic,
}

impl Thermograph {
    /// The thermograph of the number `x` born as an integer: a mast from `t = -1`.
    pub fn integer_mast(x: Dyadic) -> Thermograph {
        Thermograph {
            left: Trajectory::constant(x),
            right: Trajectory::constant(x),
            temperature: MIN_TEMPERATURE,
            mast: x,
        }
    }

    /// The scaffold construction. `left_scaffold` is the maximum over the left options of
    /// their right walls tilted by `−t` (`None` when there are no left options);
    /// `right_scaffold` the minimum over the right options of their left walls tilted by
    /// `+t`. The temperature is the least `t ≥ −1` where the left scaffold is no longer
    /// to the right of (greater than) the right scaffold; the mast stands at their common
    /// value there.
    pub fn from_scaffolds(
        left_scaffold: Option<&Trajectory>,
        right_scaffold: Option<&Trajectory>,
    ) -> Thermograph {
        let lo = MIN_TEMPERATURE;
        let (tau, mast) = match (left_scaffold, right_scaffold) {
            (None, None) => (lo, Dyadic::ZERO),
            // A game with options on one side only is an integer: frozen at −1.
            (Some(l), None) => (lo, l.value_at(lo)),
            (None, Some(r)) => (lo, r.value_at(lo)),
            (Some(l), Some(r)) => meet(l, r),
        };
        let left = match left_scaffold {
            Some(l) => l.truncate(tau, mast),
            None => Trajectory::constant(mast),
        };
        let right = match right_scaffold {
            Some(r) => r.truncate(tau, mast),
            None => Trajectory::constant(mast),
        };
        Thermograph {
            left,
            right,
            temperature: tau,
            mast,
        }
    }

    /// The left wall `t ↦ L_t(G)`, the left stop of `G` cooled by `t`.
    pub fn left_wall(&self) -> &Trajectory {
        &self.left
    }

    /// The right wall `t ↦ R_t(G)`.
    pub fn right_wall(&self) -> &Trajectory {
        &self.right
    }

    /// The temperature: where the walls meet and the mast begins (−1 for integers,
    /// −1/2^k for `m/2^k`, 0 for infinitesimals, positive for hot games).
    pub fn temperature(&self) -> Dyadic {
        self.temperature
    }

    /// The mast value, i.e. the mean of the game.
    pub fn mast(&self) -> Dyadic {
        self.mast
    }

    /// `(L_t, R_t)`: both walls at temperature `t`.
    pub fn walls_at(&self, t: Dyadic) -> (Dyadic, Dyadic) {
        (self.left.value_at(t), self.right.value_at(t))
    }
}

/// Least `t ≥ −1` with `l(t) ≤ r(t)`, and the mast value there. `l − r` never increases
/// (left scaffolds have slopes −1 or 0, right scaffolds 0 or +1), so a forward scan finds it.
fn meet(l: &Trajectory, r: &Trajectory) -> (Dyadic, Dyadic) {
    let ts = l.breakpoints(r);
    for (i, &s) in ts.iter().enumerate() {
        let d = l.value_at(s) - r.value_at(s);
        if d <= Dyadic::ZERO {
            let mast = if d == Dyadic::ZERO {
                l.value_at(s)
            } else {
                // Only possible at t = −1: the scaffolds never crossed, like `{a | b}`
                // with a < b, which is the simplest number between.
                Dyadic::simplest_between(Some(l.value_at(s)), Some(r.value_at(s)))
                    .unwrap_or(l.value_at(s))
            };
            return (s, mast);
        }
        let ds = l.slope_at(s) - r.slope_at(s);
        if ds < 0 {
            let dt = d
                .div_pow2(-(ds as i64))
                .expect("wall slopes differ by 1 or 2");
            let cross = s + dt;
            if ts.get(i + 1).is_none_or(|&e| cross <= e) {
                return (cross, l.value_at(cross));
            }
        }
    }
    // The last pieces of tilted walls have slopes −1 and +1, so the scan always returns;
    // stay total anyway.
    let s = *ts.last().unwrap_or(&MIN_TEMPERATURE);
    (s, l.value_at(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: i128, e: u32) -> Dyadic {
        Dyadic::new(n, e)
    }

    #[test]
    fn switch_one_zero() {
        // {1 | 0}: left scaffold 1 − t, right scaffold 0 + t; they meet at t = 1/2.
        let l = Trajectory::constant(Dyadic::ONE).tilt(-1);
        let r = Trajectory::constant(Dyadic::ZERO).tilt(1);
        let th = Thermograph::from_scaffolds(Some(&l), Some(&r));
        assert_eq!(th.temperature(), d(1, 1));
        assert_eq!(th.mast(), d(1, 1));
        assert_eq!(th.walls_at(Dyadic::ZERO), (Dyadic::ONE, Dyadic::ZERO));
        assert_eq!(th.walls_at(Dyadic::integer(5)), (d(1, 1), d(1, 1)));
    }

    #[test]
    fn max_min_cross() {
        let a = Trajectory::constant(Dyadic::ZERO);
        let b = Trajectory::constant(Dyadic::ONE).tilt(-1);
        let m = a.max(&b);
        assert_eq!(m.value_at(Dyadic::ZERO), Dyadic::ONE);
        assert_eq!(m.value_at(Dyadic::integer(2)), Dyadic::ZERO);
        assert_eq!(m.value_at(d(1, 1)), d(1, 1));
        assert_eq!(m.pieces().len(), 2);
        let n = a.min(&b);
        assert_eq!(n.value_at(Dyadic::ZERO), Dyadic::ZERO);
        assert_eq!(n.value_at(Dyadic::integer(3)), Dyadic::integer(-2));
    }
}
