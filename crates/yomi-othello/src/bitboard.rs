//! Bitboard primitives: squares, move generation, flips and the eight board symmetries.
//!
//! A board side is a `u64` with bit `8 * row + column` set for each disc, so `a1` (top
//! left) is bit 0, `h1` bit 7 and `h8` bit 63; the 64-character board strings of OBF and
//! FFO list the squares in this bit order.
//!
//! - [`moves`] floods the mover's discs through runs of opponent discs in the eight
//!   directions at once (Kogge-Stone parallel prefix: four shift-and steps per direction
//!   cover the longest run of six), the method of Edax's `get_moves`.
//! - [`flips`] finds, for each direction, the first square of the ray that is not an
//!   opponent disc (lowest set bit for rays towards higher squares, leading-zero count for
//!   the others) and flips the run before it if that square holds a mover's disc: branch
//!   free, without tables beyond the 64 × 8 ray masks.

/// Every square except the a and h files: shifts by 1, 7 or 9 must not carry a run from
/// one edge of the board to the other.
pub const NOT_EDGE_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// One direction of the move flood: the empty squares reached from `p` through runs of
/// `mask` discs in direction `d` (both senses).
#[inline(always)]
const fn moves_dir(p: u64, mask: u64, d: u32) -> u64 {
    let mut fl = mask & (p << d);
    let mut fr = mask & (p >> d);
    fl |= mask & (fl << d);
    fr |= mask & (fr >> d);
    let ml = mask & (mask << d);
    let mr = ml >> d;
    fl |= ml & (fl << (2 * d));
    fr |= mr & (fr >> (2 * d));
    fl |= ml & (fl << (2 * d));
    fr |= mr & (fr >> (2 * d));
    (fl << d) | (fr >> d)
}

/// The legal moves (as a bitboard) of the side with discs `p` against discs `o`.
///
/// With AVX2 the four directions run in the lanes of one 256-bit vector; otherwise
/// [`moves_scalar`].
#[inline]
pub fn moves(p: u64, o: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: the instructions exist on this target (checked at compile time).
        unsafe { moves_avx2(p, o) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        moves_scalar(p, o)
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline]
unsafe fn moves_avx2(p: u64, o: u64) -> u64 {
    use core::arch::x86_64::*;
    let shift1 = _mm256_set_epi64x(7, 9, 8, 1);
    let shift2 = _mm256_add_epi64(shift1, shift1);
    let pp = _mm256_set1_epi64x(p as i64);
    let mask = _mm256_and_si256(
        _mm256_set1_epi64x(o as i64),
        _mm256_set_epi64x(
            NOT_EDGE_FILES as i64,
            NOT_EDGE_FILES as i64,
            -1,
            NOT_EDGE_FILES as i64,
        ),
    );
    let mut fl = _mm256_and_si256(mask, _mm256_sllv_epi64(pp, shift1));
    let mut fr = _mm256_and_si256(mask, _mm256_srlv_epi64(pp, shift1));
    fl = _mm256_or_si256(fl, _mm256_and_si256(mask, _mm256_sllv_epi64(fl, shift1)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(mask, _mm256_srlv_epi64(fr, shift1)));
    let ml = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, shift1));
    let mr = _mm256_srlv_epi64(ml, shift1);
    fl = _mm256_or_si256(fl, _mm256_and_si256(ml, _mm256_sllv_epi64(fl, shift2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(mr, _mm256_srlv_epi64(fr, shift2)));
    fl = _mm256_or_si256(fl, _mm256_and_si256(ml, _mm256_sllv_epi64(fl, shift2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(mr, _mm256_srlv_epi64(fr, shift2)));
    let m = _mm256_or_si256(_mm256_sllv_epi64(fl, shift1), _mm256_srlv_epi64(fr, shift1));
    let h = _mm_or_si128(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
    ((_mm_cvtsi128_si64(h) | _mm_extract_epi64(h, 1)) as u64) & !(p | o)
}

/// [`moves`] without vector instructions.
#[inline]
pub const fn moves_scalar(p: u64, o: u64) -> u64 {
    let mask = o & NOT_EDGE_FILES;
    (moves_dir(p, mask, 1) | moves_dir(p, o, 8) | moves_dir(p, mask, 7) | moves_dir(p, mask, 9))
        & !(p | o)
}

/// Ray masks: `RAYS[sq][d]`, the squares from `sq` (exclusive) to the board's edge in
/// direction `d`; directions 0..4 go towards higher squares (E, S, SW, SE), 4..8 towards
/// lower ones (W, N, NE, NW).
static RAYS: [[u64; 8]; 64] = {
    let mut t = [[0u64; 8]; 64];
    // (column step, row step)
    let dirs: [(i32, i32); 8] = [
        (1, 0),
        (0, 1),
        (-1, 1),
        (1, 1),
        (-1, 0),
        (0, -1),
        (1, -1),
        (-1, -1),
    ];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = dirs[d];
            let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
            let mut m = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                m |= 1 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            t[sq][d] = m;
            d += 1;
        }
        sq += 1;
    }
    t
};

/// The opponent discs that a move of `p` on the empty square `sq` turns over (0 when the
/// move is illegal). `sq` must be below 64.
///
/// With AVX2 the four directions of each sense run in one 256-bit vector; otherwise
/// [`flips_scalar`].
#[inline]
pub fn flips(p: u64, o: u64, sq: u32) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: the instructions exist on this target (checked at compile time) and the
        // ray table is indexed with bounds checks.
        unsafe { flips_avx2(p, o, &RAYS[sq as usize]) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_scalar(p, o, sq)
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline]
unsafe fn flips_avx2(p: u64, o: u64, rays: &[u64; 8]) -> u64 {
    use core::arch::x86_64::*;
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    let zero = _mm256_setzero_si256();
    let one = _mm256_set1_epi64x(1);
    let rpos = _mm256_loadu_si256(rays.as_ptr() as *const __m256i);
    let rneg = _mm256_loadu_si256(rays.as_ptr().add(4) as *const __m256i);
    // Towards higher squares: the lowest square that is not an opponent disc.
    let nono = _mm256_andnot_si256(oo, rpos);
    let first = _mm256_and_si256(nono, _mm256_sub_epi64(zero, nono));
    let miss = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
    let fpos = _mm256_andnot_si256(miss, _mm256_and_si256(_mm256_sub_epi64(first, one), rpos));
    // Towards lower squares (W, N, NE, NW: steps of 1, 8, 7, 9): the highest square that
    // is not an opponent disc, found by smearing those squares down along their own
    // line (three shifts cover the six squares a run can span). The ray squares above
    // the smear are the run of opponent discs next to the move.
    let step = _mm256_set_epi64x(9, 7, 8, 1);
    let step2 = _mm256_add_epi64(step, step);
    let nono = _mm256_andnot_si256(oo, rneg);
    let mut smear = _mm256_or_si256(nono, _mm256_srlv_epi64(nono, step));
    smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, step2));
    smear = _mm256_or_si256(
        smear,
        _mm256_srlv_epi64(smear, _mm256_add_epi64(step2, step2)),
    );
    let first = _mm256_andnot_si256(_mm256_srlv_epi64(smear, step), nono);
    let miss = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
    let fneg = _mm256_andnot_si256(miss, _mm256_andnot_si256(smear, rneg));
    let f = _mm256_or_si256(fpos, fneg);
    let h = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256(f, 1));
    (_mm_cvtsi128_si64(h) | _mm_extract_epi64(h, 1)) as u64
}

/// [`flips`] without vector instructions: one ray at a time.
#[inline]
pub fn flips_scalar(p: u64, o: u64, sq: u32) -> u64 {
    let rays = &RAYS[sq as usize];
    let mut f = 0u64;
    let mut d = 0;
    while d < 4 {
        let r = rays[d];
        let nono = r & !o;
        let first = nono & nono.wrapping_neg();
        let hit = ((first & p) != 0) as u64;
        f |= first.wrapping_sub(1) & r & hit.wrapping_neg();
        d += 1;
    }
    while d < 8 {
        let r = rays[d];
        // Bit 0 is a sentinel: it keeps the shift in range when no square of the ray is
        // free of opponent discs; the `& r` below ignores it when it is not on the ray.
        let nono = (r & !o) | 1;
        let first = (1u64 << 63) >> nono.leading_zeros();
        let hit = ((first & p & r) != 0) as u64;
        f |= r & !((first << 1).wrapping_sub(1)) & hit.wrapping_neg();
        d += 1;
    }
    f
}

/// For each square, the squares around it (king moves): a move there can only flip if one
/// of them holds an opponent disc, a test far cheaper than [`flips`].
pub static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut m = 0u64;
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (cc, rr) = (c + dc, r + dr);
                if (dc != 0 || dr != 0) && cc >= 0 && cc < 8 && rr >= 0 && rr < 8 {
                    m |= 1 << (rr * 8 + cc);
                }
                dc += 1;
            }
            dr += 1;
        }
        t[sq] = m;
        sq += 1;
    }
    t
};

/// `LAST_FLIP[pos][line]`: the discs flipped along one line of up to eight squares by
/// a move at index `pos` of the line when the bits of `line` are the mover's discs and every
/// other square of the line except `pos` is the opponent's (the last empty square: the
/// board is otherwise full). Bits past the line's end are never set, so they read as
/// opponent discs that no mover's disc closes: they never count.
static LAST_FLIP: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut n = 0;
            // Towards higher indices, then lower: the run of opponent discs up to the
            // first mover's disc.
            let mut i = pos + 1;
            while i < 8 && line >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                n += i - pos - 1;
            }
            let mut i = pos as i32 - 1;
            while i >= 0 && line >> i & 1 == 0 {
                i -= 1;
            }
            if i >= 0 {
                n += pos - i as usize - 1;
            }
            t[pos][line] = n as u8;
            line += 1;
        }
        pos += 1;
    }
    t
};

/// For each square, its four lines (row, column and both diagonals) as masks, with the
/// square's index in each line.
static LAST_LINES: [([u64; 4], [u8; 4]); 64] = {
    let mut t = [([0u64; 4], [0u8; 4]); 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut k = 0;
        while k < 4 {
            let mut m = 0u64;
            let mut other = 0;
            while other < 64 {
                let (oc, or) = (other % 8, other / 8);
                let on = match k {
                    0 => or == r,
                    1 => oc == c,
                    2 => oc - or == c - r,
                    _ => oc + or == c + r,
                };
                if on {
                    m |= 1 << other;
                }
                other += 1;
            }
            t[sq].0[k] = m;
            t[sq].1[k] = (m & ((1u64 << sq) - 1)).count_ones() as u8;
            k += 1;
        }
        sq += 1;
    }
    t
};

/// The number of discs a move of `p` on `sq` flips when `sq` is the board's only empty
/// square (every square but `sq` not in `p` is the opponent's): one table read per line
/// instead of a full [`flips`], the method of Edax's `count_last_flip`.
/// `sq` is taken modulo 64.
#[inline(always)]
pub fn count_last_flip(p: u64, sq: u32) -> u32 {
    let (masks, pos) = &LAST_LINES[sq as usize & 63];
    let mut n = 0;
    for k in 0..4 {
        // A line holds at most 8 squares, so the extract fits a byte and the masks keep
        // the indices in range without bounds checks.
        n += LAST_FLIP[pos[k] as usize & 7][pext(p, masks[k]) as u8 as usize] as u32;
    }
    n
}

/// Reverses the order of the rows (a1 ↔ a8).
#[inline]
pub const fn flip_vertical(x: u64) -> u64 {
    x.swap_bytes()
}

/// Reverses the order of the columns (a1 ↔ h1).
#[inline]
pub const fn flip_horizontal(mut x: u64) -> u64 {
    x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1);
    x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2);
    ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4)
}

/// Mirrors the board in the a1–h8 diagonal (row ↔ column).
#[inline]
pub const fn transpose(mut x: u64) -> u64 {
    let mut t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// One of the eight symmetries of the square board (the dihedral group), as a composition
/// of a column flip, a row flip and a transposition, applied in that order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Symmetry(u8);

impl Symmetry {
    /// All eight symmetries; the first is the identity.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// The symmetry's number, 0..8 (bit 0: column flip, bit 1: row flip, bit 2: transpose).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Applies the symmetry to a bitboard.
    #[inline]
    pub const fn apply(self, mut x: u64) -> u64 {
        if self.0 & 1 != 0 {
            x = flip_horizontal(x);
        }
        if self.0 & 2 != 0 {
            x = flip_vertical(x);
        }
        if self.0 & 4 != 0 {
            x = transpose(x);
        }
        x
    }

    /// Applies the symmetry to a square index (0..64).
    pub const fn apply_square(self, sq: u8) -> u8 {
        let (mut c, mut r) = (sq % 8, sq / 8);
        if self.0 & 1 != 0 {
            c = 7 - c;
        }
        if self.0 & 2 != 0 {
            r = 7 - r;
        }
        if self.0 & 4 != 0 {
            std::mem::swap(&mut c, &mut r);
        }
        r * 8 + c
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        let target = |s: Symmetry| (0..64u8).map(move |q| s.apply_square(q));
        *Symmetry::ALL
            .iter()
            .find(|inv| target(self).map(|q| inv.apply_square(q)).eq(0..64u8))
            .expect("the dihedral group is closed under inverses")
    }
}

pub use yomi_core::bits::{pdep, pext};

/// A 64-bit finaliser (MurmurHash3's `fmix64`): a bijection spreading every input bit.
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z ^= z >> 33;
    z = z.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    z ^= z >> 33;
    z = z.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    z ^ (z >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flips by walking each direction square by square.
    fn naive_flips(p: u64, o: u64, sq: u32) -> u64 {
        if (p | o) >> sq & 1 != 0 {
            return 0;
        }
        let mut all = 0;
        for (dc, dr) in [
            (1, 0),
            (0, 1),
            (-1, 1),
            (1, 1),
            (-1, 0),
            (0, -1),
            (1, -1),
            (-1, -1),
        ] {
            let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
            let mut run = 0u64;
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let b = 1u64 << (r * 8 + c);
                if o & b != 0 {
                    run |= b;
                } else {
                    if p & b != 0 {
                        all |= run;
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        all
    }

    #[test]
    fn flips_and_moves_agree_with_walking() {
        let mut rng = yomi_core::Rng::seed_from_u64(5);
        for _ in 0..20_000 {
            let a = rng.next_u64() & rng.next_u64();
            let b = rng.next_u64() & !a;
            let (p, o) = if rng.chance(0.5) {
                (a, b)
            } else {
                (b & rng.next_u64(), a)
            };
            let mut want_moves = 0;
            for sq in 0..64 {
                let f = naive_flips(p, o, sq);
                if (p | o) >> sq & 1 == 0 {
                    assert_eq!(flips(p, o, sq), f, "p={p:#x} o={o:#x} sq={sq}");
                    assert_eq!(flips_scalar(p, o, sq), f, "p={p:#x} o={o:#x} sq={sq}");
                }
                if f != 0 {
                    want_moves |= 1 << sq;
                }
            }
            assert_eq!(moves(p, o), want_moves, "p={p:#x} o={o:#x}");
            assert_eq!(moves_scalar(p, o), want_moves, "p={p:#x} o={o:#x}");
        }
    }

    #[test]
    fn last_flip_counts_and_neighbours_agree_with_flips() {
        let mut rng = yomi_core::Rng::seed_from_u64(7);
        for _ in 0..20_000 {
            let sq = (rng.next_u64() % 64) as u32;
            let bit = 1u64 << sq;
            let p = rng.next_u64() & !bit;
            let o = !p & !bit;
            assert_eq!(
                count_last_flip(p, sq),
                flips(p, o, sq).count_ones(),
                "p={p:#x} sq={sq}"
            );
            // Any position: no opponent neighbour, no flips.
            let (a, b) = (rng.next_u64(), rng.next_u64());
            let (p, o) = (a & !bit, b & !a & !bit);
            if NEIGHBOURS[sq as usize] & o == 0 {
                assert_eq!(flips(p, o, sq), 0);
            }
        }
        assert_eq!(NEIGHBOURS[0], 0x302);
    }

    #[test]
    fn symmetries_map_squares_like_bitboards() {
        let mut seen = std::collections::HashSet::new();
        for s in Symmetry::ALL {
            let image: Vec<u8> = (0..64).map(|q| s.apply_square(q)).collect();
            assert!(seen.insert(image.clone()), "two symmetries coincide");
            for q in 0..64u8 {
                assert_eq!(s.apply(1 << q), 1 << image[q as usize], "{s:?} {q}");
            }
            let inv = s.inverse();
            for q in 0..64u8 {
                assert_eq!(inv.apply_square(s.apply_square(q)), q);
            }
        }
    }
}
