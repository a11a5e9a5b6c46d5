//! Small helpers shared by the games.

use crate::error::PositionError;

/// The invalid-state notation error for `input`.
pub(crate) fn invalid_state(input: &str, err: PositionError) -> yomi_core::NotationError {
    yomi_core::NotationError::invalid("state", input, err.to_string())
}

/// A 64-bit finaliser (MurmurHash3's `fmix64`): a bijection that spreads every input bit
/// over the whole word, so position keys make good transposition-table indices.
#[inline]
pub(crate) const fn mix64(mut z: u64) -> u64 {
    z ^= z >> 33;
    z = z.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    z ^= z >> 33;
    z = z.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    z ^ (z >> 33)
}

/// Squashes a heuristic score into the open interval (-1, 1): `s / (|s| + k)` with `k > 0`,
/// clamped a hair inside the bounds so that rounding can never reach a terminal value.
#[inline]
pub(crate) fn squash(score: f64, k: f64) -> f64 {
    (score / (score.abs() + k)).clamp(-0.999, 0.999)
}

/// `SELECT_IN_BYTE[b][k]`: the position of the `k`-th (from 0) set bit of the byte `b`.
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut k, mut i) = (0, 0);
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// The position of the `k`-th (from 0) set bit of `x`; `k` must be below `x.count_ones()`.
///
/// Branch-free broadword selection (after Vigna): byte counts, their prefix sums by one
/// multiplication, a parallel comparison with `k` to find the byte, and a table for the bit
/// within it. Clearing the lowest bit `k` times is shorter to write, but its loop length is
/// random and the mispredicted exit made it about twice as slow in playouts.
#[inline]
pub(crate) fn select64(x: u64, k: u32) -> u32 {
    const L8: u64 = 0x0101_0101_0101_0101;
    const H8: u64 = 0x8080_8080_8080_8080;
    let mut s = x - ((x >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte i of `prefix`: set bits in bytes 0..=i (at most 64, so no carries between bytes).
    let prefix = s.wrapping_mul(L8);
    // The bytes whose prefix is <= k lie wholly before the wanted bit.
    let byte = ((((k as u64) * L8) | H8).wrapping_sub(prefix) & H8).count_ones() & 7;
    let before = ((prefix << 8) >> (8 * byte)) as u32 & 0xFF;
    let b = (x >> (8 * byte)) as usize & 0xFF;
    byte * 8 + SELECT_IN_BYTE[b][(k.wrapping_sub(before) & 7) as usize] as u32
}

/// The position of the `k`-th (from 0) set bit of `x`; `k` must be below `x.count_ones()`.
#[inline]
pub(crate) fn select128(x: u128, k: u32) -> u32 {
    let lo = x as u64;
    let n = lo.count_ones();
    let high = k >= n;
    let word = if high { (x >> 64) as u64 } else { lo };
    select64(word, if high { k - n } else { k }) + 64 * high as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(mut x: u128, k: u32) -> u32 {
        for _ in 0..k {
            x &= x - 1;
        }
        x.trailing_zeros()
    }

    #[test]
    fn select_agrees_with_clearing_bits() {
        let mut rng = yomi_core::Rng::seed_from_u64(9);
        for _ in 0..20_000 {
            let density = rng.below(128) + 1;
            let mut x = 0u128;
            for _ in 0..density {
                x |= 1 << rng.below(128);
            }
            for k in 0..x.count_ones() {
                assert_eq!(select128(x, k), naive(x, k), "{x:#x} {k}");
                if (x as u64).count_ones() > k {
                    assert_eq!(select64(x as u64, k), naive(x, k));
                }
            }
        }
        assert_eq!(select64(u64::MAX, 63), 63);
        assert_eq!(select64(1 << 63, 0), 63);
        assert_eq!(select128(1 << 127, 0), 127);
    }
}
