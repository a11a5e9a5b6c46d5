//! The random number generator every yomi component uses.
//!
//! yomi keeps its own small generator (xoshiro256++ seeded through SplitMix64) instead of
//! `rand::rngs::SmallRng` for two reasons: reproducibility (a recorded match replays
//! bit-for-bit across crate upgrades, which `SmallRng` does not promise) and speed in playouts
//! ([`Rng::below`] is Lemire's multiply-shift, one multiplication in the common case). It
//! implements [`rand_core::RngCore`], so `rand`'s distributions work with it.

/// A fast, seedable, non-cryptographic generator (xoshiro256++).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

/// The seed every command, configuration and binding uses when none is given (`--seed`,
/// a file's `seed`, Python's `seed=`): one value everywhere, so that "the default run" of
/// any two commands means the same thing.
pub const DEFAULT_SEED: u64 = 0;

/// SplitMix64 step: used to expand seeds and to derive independent seeds.
#[inline]
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Derives a seed for a sub-task (a game of a match, a search thread) from a parent seed and
/// the sub-task's index, so that sub-tasks are independent of scheduling order.
pub fn derive_seed(parent: u64, index: u64) -> u64 {
    let mut s = parent ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03);
    splitmix64(&mut s);
    splitmix64(&mut s)
}

impl Rng {
    /// A generator whose whole sequence is determined by `seed`.
    pub fn seed_from_u64(seed: u64) -> Self {
        let mut sm = seed;
        let s = [
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
        ];
        Rng { s }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let result = (self.s[0].wrapping_add(self.s[3]))
            .rotate_left(23)
            .wrapping_add(self.s[0]);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n`.
    ///
    /// # Panics
    /// If `n == 0`.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "Rng::below(0)");
        let n = n as u64;
        // Lemire's nearly-divisionless method.
        let mut m = (self.next_u64() as u128) * (n as u128);
        let mut low = m as u64;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = (self.next_u64() as u128) * (n as u128);
                low = m as u64;
            }
        }
        (m >> 64) as usize
    }

    /// A uniform float in `[0, 1)`.
    #[inline]
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p`.
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit_f64() < p
    }

    /// A uniformly chosen element, or `None` for an empty slice.
    #[inline]
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.below(items.len())])
        }
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// A standard normal sample (Box–Muller; one of the pair is discarded, which keeps the
    /// generator state simple).
    pub fn normal(&mut self) -> f64 {
        // 1 - u is in (0, 1], so the logarithm is finite.
        let u = 1.0 - self.unit_f64();
        let v = self.unit_f64();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// A Gamma(`shape`, 1) sample (Marsaglia–Tsang; shapes below 1 by the `U^(1/shape)`
    /// boost). Returns 0 for a shape that is not positive and finite.
    pub fn gamma(&mut self, shape: f64) -> f64 {
        if !(shape > 0.0 && shape.is_finite()) {
            return 0.0;
        }
        if shape < 1.0 {
            let u = 1.0 - self.unit_f64();
            return self.gamma(shape + 1.0) * u.powf(1.0 / shape);
        }
        let d = shape - 1.0 / 3.0;
        let c = 1.0 / (9.0 * d).sqrt();
        loop {
            let x = self.normal();
            let v = 1.0 + c * x;
            if v <= 0.0 {
                continue;
            }
            let v = v * v * v;
            let u = 1.0 - self.unit_f64();
            if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
                return d * v;
            }
        }
    }

    /// Fills `out` with a sample of the symmetric Dirichlet(`alpha`) distribution (sums to
    /// 1; uniform when every gamma draw underflows).
    pub fn dirichlet(&mut self, alpha: f64, out: &mut [f64]) {
        let mut total = 0.0;
        for x in out.iter_mut() {
            *x = self.gamma(alpha);
            total += *x;
        }
        if total > 0.0 {
            out.iter_mut().for_each(|x| *x /= total);
        } else if !out.is_empty() {
            let u = 1.0 / out.len() as f64;
            out.fill(u);
        }
    }

    /// An index drawn with probability proportional to `weights` (non-negative, finite).
    /// Returns `None` when every weight is zero or the slice is empty.
    pub fn weighted_index(&mut self, weights: &[f64]) -> Option<usize> {
        let total: f64 = weights.iter().sum();
        if total <= 0.0 || !total.is_finite() {
            return None;
        }
        let mut x = self.unit_f64() * total;
        for (i, &w) in weights.iter().enumerate() {
            if x < w {
                return Some(i);
            }
            x -= w;
        }
        // Rounding can leave x just above the last weight: return the last positive one.
        weights.iter().rposition(|&w| w > 0.0)
    }
}

impl rand_core::RngCore for Rng {
    fn next_u32(&mut self) -> u32 {
        (Rng::next_u64(self) >> 32) as u32
    }
    fn next_u64(&mut self) -> u64 {
        Rng::next_u64(self)
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        for chunk in dst.chunks_mut(8) {
            let bytes = Rng::next_u64(self).to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let mut a = Rng::seed_from_u64(7);
        let mut b = Rng::seed_from_u64(7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(
            Rng::seed_from_u64(8).next_u64(),
            Rng::seed_from_u64(7).next_u64()
        );
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut r = Rng::seed_from_u64(1);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[r.below(7)] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn weighted_index_respects_zero_weights() {
        let mut r = Rng::seed_from_u64(3);
        for _ in 0..1000 {
            let i = r.weighted_index(&[0.0, 1.0, 0.0, 3.0]).unwrap();
            assert!(i == 1 || i == 3);
        }
        assert_eq!(r.weighted_index(&[0.0, 0.0]), None);
    }

    #[test]
    fn derived_seeds_differ() {
        let s: std::collections::HashSet<u64> = (0..1000).map(|i| derive_seed(42, i)).collect();
        assert_eq!(s.len(), 1000);
    }
}
