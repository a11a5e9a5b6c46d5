//! Bit tricks the game engines share: BMI2's parallel bit extract and deposit, with
//! portable fallbacks. The workspace builds for x86-64-v3 (`.cargo/config.toml`), where both
//! are single instructions; Othello reads board lines with `pext`, and Othello and Go pick
//! the k-th set bit of a move set with `pdep`.
//!
//! ```
//! use yomi_core::bits::{pdep, pext};
//! assert_eq!(pext(0b1011_0000, 0b1111_0000), 0b1011);
//! // The third set bit (k = 2) of a mask.
//! assert_eq!(pdep(1 << 2, 0b1011_0100).trailing_zeros(), 5);
//! ```

/// Parallel bit extract: the bits of `x` selected by `mask`, packed towards bit 0 in
/// increasing order of position (the BMI2 `pext` instruction where the CPU has it).
#[inline(always)]
pub fn pext(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the instruction exists on this target (checked at compile time).
        unsafe { core::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut m, mut out, mut bit) = (mask, 0u64, 1u64);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x & low != 0 {
                out |= bit;
            }
            bit <<= 1;
            m &= m - 1;
        }
        out
    }
}

/// Parallel bit deposit: the low bits of `x` spread onto the set bits of `mask` (BMI2
/// `pdep` where the CPU has it).
#[inline(always)]
pub fn pdep(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the instruction exists on this target (checked at compile time).
        unsafe { core::arch::x86_64::_pdep_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut m, mut out, mut bit) = (mask, 0u64, 1u64);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x & bit != 0 {
                out |= low;
            }
            bit <<= 1;
            m &= m - 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pext_pdep_round_trip() {
        let mut rng = crate::Rng::seed_from_u64(6);
        for _ in 0..1000 {
            let (x, m) = (rng.next_u64(), rng.next_u64());
            assert_eq!(pdep(pext(x, m), m), x & m);
        }
        assert_eq!(pext(0b1011_0000, 0b1111_0000), 0b1011);
    }
}
