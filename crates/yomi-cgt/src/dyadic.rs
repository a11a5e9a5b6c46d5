//! Dyadic rationals `m / 2^k`: the values of short numbers, stops, means and temperatures.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Neg, Sub};

/// Largest power of two a [`Dyadic`] denominator may have (`2^MAX_EXP`).
pub const MAX_EXP: u32 = 120;

/// An exact dyadic rational `num / 2^exp`, kept in lowest terms (`num` odd or `exp == 0`),
/// so that structural equality is numeric equality.
///
/// Arithmetic is exact. The numerator is an `i128`; values built from parsed notation stay
/// far inside its range (the parser bounds integers, denominators and nesting).
///
/// # Panics
///
/// Arithmetic panics with "dyadic rational overflow" when a result needs more than 127
/// bits of numerator or a denominator above `2^MAX_EXP`; only games built through the
/// API with astronomically large or deep values can get there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dyadic {
    num: i128,
    exp: u32,
}

const OVERFLOW: &str = "dyadic rational overflow";

impl Dyadic {
    /// Zero.
    pub const ZERO: Dyadic = Dyadic { num: 0, exp: 0 };
    /// One.
    pub const ONE: Dyadic = Dyadic { num: 1, exp: 0 };
    /// Minus one.
    pub const MINUS_ONE: Dyadic = Dyadic { num: -1, exp: 0 };
    /// One half.
    pub const HALF: Dyadic = Dyadic { num: 1, exp: 1 };

    /// `num / 2^exp`, reduced to lowest terms.
    ///
    /// # Panics
    ///
    /// If `exp > MAX_EXP`.
    pub fn new(num: i128, exp: u32) -> Dyadic {
        assert!(exp <= MAX_EXP, "{OVERFLOW}");
        Dyadic { num, exp }.reduced()
    }

    /// The integer `n`.
    pub const fn integer(n: i64) -> Dyadic {
        Dyadic {
            num: n as i128,
            exp: 0,
        }
    }

    fn reduced(mut self) -> Dyadic {
        if self.num == 0 {
            return Dyadic::ZERO;
        }
        let tz = self.num.trailing_zeros().min(self.exp);
        self.num >>= tz;
        self.exp -= tz;
        self
    }

    /// Numerator in lowest terms.
    pub fn numerator(self) -> i128 {
        self.num
    }

    /// `k` with denominator `2^k` in lowest terms (0 for integers).
    pub fn exponent(self) -> u32 {
        self.exp
    }

    /// Is this an integer?
    pub fn is_integer(self) -> bool {
        self.exp == 0
    }

    /// The integer value, if this is an integer that fits an `i64`.
    pub fn to_i64(self) -> Option<i64> {
        if self.exp == 0 {
            i64::try_from(self.num).ok()
        } else {
            None
        }
    }

    /// Approximate value as a float (for plots and reports).
    pub fn to_f64(self) -> f64 {
        self.num as f64 / 2f64.powi(self.exp as i32)
    }

    /// Largest integer `≤ self`.
    pub fn floor(self) -> i128 {
        self.num >> self.exp
    }

    /// Smallest integer `≥ self`.
    pub fn ceil(self) -> i128 {
        -((-self.num) >> self.exp)
    }

    /// `self / 2`.
    pub fn half(self) -> Dyadic {
        Dyadic::new(self.num, self.exp + 1)
    }

    /// `self · 2^k`.
    pub fn mul_pow2(self, k: u32) -> Dyadic {
        let shift = k.min(self.exp);
        let rest = k - shift;
        let num = self
            .num
            .checked_mul(1i128.checked_shl(rest).filter(|&m| m > 0).expect(OVERFLOW))
            .expect(OVERFLOW);
        Dyadic::new(num, self.exp - shift)
    }

    /// `self · n` for a small integer `n`.
    pub fn mul_int(self, n: i64) -> Dyadic {
        Dyadic::new(self.num.checked_mul(n as i128).expect(OVERFLOW), self.exp)
    }

    /// `self / d` when `d` is plus or minus a power of two, else `None`.
    pub fn div_pow2(self, d: i64) -> Option<Dyadic> {
        if d == 0 || !d.unsigned_abs().is_power_of_two() {
            return None;
        }
        let k = d.unsigned_abs().trailing_zeros();
        let v = Dyadic::new(self.num, self.exp.checked_add(k).filter(|&e| e <= MAX_EXP)?);
        Some(if d < 0 { -v } else { v })
    }

    /// Absolute value.
    pub fn abs(self) -> Dyadic {
        if self.num < 0 {
            -self
        } else {
            self
        }
    }

    /// The simplest number strictly between `lo` and `hi` (an absent bound is infinite):
    /// the value of `{lo | hi}` by the simplicity theorem. Returns `None` unless `lo < hi`.
    pub fn simplest_between(lo: Option<Dyadic>, hi: Option<Dyadic>) -> Option<Dyadic> {
        match (lo, hi) {
            (None, None) => Some(Dyadic::ZERO),
            (Some(l), None) => Some(if l.num < 0 {
                Dyadic::ZERO
            } else {
                Dyadic::from_i128(l.floor() + 1)
            }),
            (None, Some(h)) => Some(if h.num > 0 {
                Dyadic::ZERO
            } else {
                Dyadic::from_i128(h.ceil() - 1)
            }),
            (Some(l), Some(h)) => {
                if l >= h {
                    return None;
                }
                if l.num < 0 && h.num > 0 {
                    return Some(Dyadic::ZERO);
                }
                if l.num >= 0 {
                    let n = Dyadic::from_i128(l.floor() + 1);
                    if n < h {
                        return Some(n);
                    }
                } else {
                    let n = Dyadic::from_i128(h.ceil() - 1);
                    if n > l {
                        return Some(n);
                    }
                }
                // No integer strictly between: the candidate with the smallest denominator.
                for k in 1..=MAX_EXP {
                    let scaled = l.mul_pow2(k);
                    let cand = Dyadic::new(scaled.floor() + 1, k);
                    if cand < h {
                        return Some(cand);
                    }
                }
                None
            }
        }
    }

    fn from_i128(n: i128) -> Dyadic {
        Dyadic { num: n, exp: 0 }
    }

    /// The birthday of the number: integers `n` are born on day `|n|`, and `m/2^k` on day
    /// `⌊|x|⌋ + 1 + k`.
    pub fn birthday(self) -> u128 {
        let a = self.abs();
        if a.exp == 0 {
            a.num as u128
        } else {
            a.floor() as u128 + 1 + a.exp as u128
        }
    }
}

impl From<i64> for Dyadic {
    fn from(n: i64) -> Dyadic {
        Dyadic::integer(n)
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Dyadic) -> Ordering {
        let e = self.exp.max(other.exp);
        let a = self.shl_raw(e - self.exp);
        let b = other.shl_raw(e - other.exp);
        a.cmp(&b)
    }
}

impl Dyadic {
    /// Numerator scaled by `2^k`, for comparisons at a common denominator.
    fn shl_raw(self, k: u32) -> i128 {
        if k == 0 {
            return self.num;
        }
        self.num
            .checked_mul(1i128.checked_shl(k).filter(|&m| m > 0).expect(OVERFLOW))
            .expect(OVERFLOW)
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Dyadic) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Dyadic {
    type Output = Dyadic;
    fn add(self, other: Dyadic) -> Dyadic {
        let e = self.exp.max(other.exp);
        let a = self.shl_raw(e - self.exp);
        let b = other.shl_raw(e - other.exp);
        Dyadic::new(a.checked_add(b).expect(OVERFLOW), e)
    }
}

impl Sub for Dyadic {
    type Output = Dyadic;
    fn sub(self, other: Dyadic) -> Dyadic {
        self + (-other)
    }
}

impl Neg for Dyadic {
    type Output = Dyadic;
    fn neg(self) -> Dyadic {
        Dyadic {
            num: self.num.checked_neg().expect(OVERFLOW),
            exp: self.exp,
        }
    }
}

impl fmt::Display for Dyadic {
    /// `3`, `-1/2`, `5/8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exp == 0 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, 1u128 << self.exp)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: i128, e: u32) -> Dyadic {
        Dyadic::new(n, e)
    }

    #[test]
    fn lowest_terms_and_order() {
        assert_eq!(d(2, 2), d(1, 1));
        assert_eq!(d(4, 2), Dyadic::ONE);
        assert!(d(1, 2) < d(1, 1));
        assert!(d(-3, 1) < d(-1, 0));
        assert_eq!(d(1, 1) + d(1, 2), d(3, 2));
        assert_eq!(d(1, 1) - d(3, 2), d(-1, 2));
        assert_eq!(d(-3, 1).floor(), -2);
        assert_eq!(d(-3, 1).ceil(), -1);
        assert_eq!(d(3, 1).floor(), 1);
        assert_eq!(d(3, 1).ceil(), 2);
        assert_eq!(d(3, 0).div_pow2(-2), Some(d(-3, 1)));
        assert_eq!(d(3, 0).div_pow2(3), None);
        assert_eq!(d(3, 2).to_string(), "3/4");
        assert_eq!(d(-5, 0).to_string(), "-5");
    }

    #[test]
    fn simplest_numbers() {
        let s = |l: Option<Dyadic>, h: Option<Dyadic>| Dyadic::simplest_between(l, h).unwrap();
        let i = Dyadic::integer;
        assert_eq!(s(None, None), i(0));
        assert_eq!(s(Some(i(0)), None), i(1));
        assert_eq!(s(Some(i(3)), None), i(4));
        assert_eq!(s(Some(d(5, 1)), None), i(3));
        assert_eq!(s(Some(i(-3)), None), i(0));
        assert_eq!(s(None, Some(i(0))), i(-1));
        assert_eq!(s(None, Some(d(-1, 1))), i(-1));
        assert_eq!(s(Some(i(0)), Some(i(1))), d(1, 1));
        assert_eq!(s(Some(i(0)), Some(i(2))), i(1));
        assert_eq!(s(Some(i(-6)), Some(i(0))), i(-1));
        assert_eq!(s(Some(d(1, 1)), Some(i(1))), d(3, 2));
        assert_eq!(s(Some(d(1, 3)), Some(d(3, 3))), d(1, 2));
        assert_eq!(s(Some(d(-3, 2)), Some(d(-1, 2))), d(-1, 1));
        assert_eq!(Dyadic::simplest_between(Some(i(1)), Some(i(1))), None);
    }

    #[test]
    fn birthdays() {
        assert_eq!(Dyadic::integer(-3).birthday(), 3);
        assert_eq!(d(1, 1).birthday(), 2);
        assert_eq!(d(3, 2).birthday(), 3);
        assert_eq!(d(5, 2).birthday(), 4);
    }
}
