//! Stable discs: discs that no sequence of moves can flip, the bound behind the solver's
//! stability cutoff (the side to move can finish with at most `64 - 2 × s` when its
//! opponent already holds `s` stable discs).
//!
//! The method of Edax's `get_stability`: a lower bound on the stable set, grown from
//! - the edges, exactly stable against every sequence of plays on the edge alone (a table
//!   of the 3^8 edge configurations, [`EdgeTable`]);
//! - discs off the edges whose four lines (row, column, both diagonals) are full;
//! - then, repeatedly, discs that in each of the four line directions either lie on a full
//!   line or touch a stable disc on one side.

use std::sync::OnceLock;

use crate::bitboard::pext;

/// The a file (bits 0, 8, ..., 56).
const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h file.
const FILE_H: u64 = 0x8080_8080_8080_8080;
/// The 36 squares off the edges.
const INNER: u64 = 0x007E_7E7E_7E7E_7E00;

/// The stable discs of the mover on one edge: `table[p][o]` for the edge's mover discs `p`
/// and opponent discs `o` (8-bit lines, bit `i` the edge's `i`-th square).
pub struct EdgeTable(Box<[[u8; 256]; 256]>);

impl EdgeTable {
    /// The shared table, built on first use (about 10^5 table reads).
    pub fn get() -> &'static EdgeTable {
        static TABLE: OnceLock<EdgeTable> = OnceLock::new();
        TABLE.get_or_init(EdgeTable::build)
    }

    /// Builds the table from the full edges down: a disc is stable in a configuration
    /// when it is the mover's there and stable in every configuration one play (by either
    /// side, on any empty square) away, which has one empty square fewer and so is done.
    fn build() -> EdgeTable {
        let mut t = Box::new([[0u8; 256]; 256]);
        for discs in (0..=8u32).rev() {
            for occupied in (0..256u32).filter(|m| m.count_ones() == discs) {
                // Each split of the occupied squares between the sides.
                let mut p = occupied;
                loop {
                    let o = occupied & !p;
                    let mut stable = p;
                    let mut empty = !occupied & 0xFF;
                    while empty != 0 && stable != 0 {
                        let x = empty.trailing_zeros();
                        empty &= empty - 1;
                        let (np, no) = play_edge(p, o, x);
                        stable &= t[np as usize][no as usize] as u32;
                        let (no, np) = play_edge(o, p, x);
                        stable &= t[np as usize][no as usize] as u32;
                    }
                    t[p as usize][o as usize] = stable as u8;
                    if p == 0 {
                        break;
                    }
                    p = (p - 1) & occupied;
                }
            }
        }
        EdgeTable(t)
    }

    /// The stable discs of `p` against `o` (whole boards), as a bitboard.
    #[inline]
    pub fn stable_discs(&self, p: u64, o: u64) -> u64 {
        let t = &self.0;
        let disc = p | o;
        let (fh, fv, fd9, fd7) = (
            full_rows(disc),
            full_columns(disc),
            full_d9(disc),
            full_d7(disc),
        );
        let edge = |pp: u64, oo: u64| t[pp as u8 as usize][oo as u8 as usize] as u64;
        let mut new = edge(p, o)
            | edge(p >> 56, o >> 56) << 56
            | crate::bitboard::pdep(edge(pext(p, FILE_A), pext(o, FILE_A)), FILE_A)
            | crate::bitboard::pdep(edge(pext(p, FILE_H), pext(o, FILE_H)), FILE_H);
        let inner = p & INNER;
        new |= fh & fv & fd9 & fd7 & inner;
        let mut stable = 0u64;
        while new & !stable != 0 {
            stable |= new;
            // A neighbour in a direction counts on either side; shifts that wrap across
            // the board's edge only reach edge squares, which `inner` leaves out.
            let h = (stable >> 1) | (stable << 1) | fh;
            let v = (stable >> 8) | (stable << 8) | fv;
            let d9 = (stable >> 9) | (stable << 9) | fd9;
            let d7 = (stable >> 7) | (stable << 7) | fd7;
            new = h & v & d9 & d7 & inner;
        }
        stable
    }
}

/// `p` plays on edge square `x` against `o`, flipping along the edge; the new `(p, o)`.
fn play_edge(mut p: u32, mut o: u32, x: u32) -> (u32, u32) {
    p |= 1 << x;
    for step in [-1i32, 1] {
        let mut y = x as i32 + step;
        let mut run = 0u32;
        while (0..8).contains(&y) && o >> y & 1 == 1 {
            run |= 1 << y;
            y += step;
        }
        if (0..8).contains(&y) && p >> y & 1 == 1 {
            p |= run;
            o &= !run;
        }
    }
    (p, o)
}

/// Every square of the rows that are full.
#[inline]
fn full_rows(disc: u64) -> u64 {
    let mut f = disc;
    f &= f >> 1;
    f &= f >> 2;
    f &= f >> 4;
    (f & FILE_A) * 0xFF
}

/// Every square of the columns that are full.
#[inline]
fn full_columns(disc: u64) -> u64 {
    let mut f = disc;
    f &= f >> 8;
    f &= f >> 16;
    f &= f >> 32;
    (f & 0xFF) * FILE_A
}

/// Squares whose line in direction `shift` (7 or 9, both senses) holds no empty square:
/// the empties are smeared along the line both ways (Kogge-Stone fills, `keep_up` /
/// `keep_down` stopping the shifts from wrapping round the board's sides).
#[inline]
fn full_diagonal(disc: u64, shift: u32, keep_up: u64, keep_down: u64) -> u64 {
    let empty = !disc;
    let mut up = empty;
    let mut k = keep_up;
    up |= k & (up << shift);
    k &= k << shift;
    up |= k & (up << (2 * shift));
    k &= k << (2 * shift);
    up |= k & (up << (4 * shift));
    let mut down = empty;
    let mut k = keep_down;
    down |= k & (down >> shift);
    k &= k >> shift;
    down |= k & (down >> (2 * shift));
    k &= k >> (2 * shift);
    down |= k & (down >> (4 * shift));
    !(up | down)
}

/// Diagonals of the a1–h8 direction (shift 9: one column right, one row down) that are
/// full.
#[inline]
fn full_d9(disc: u64) -> u64 {
    // Shifting up by 9 moves one column right: nothing may land on the a file.
    full_diagonal(disc, 9, !FILE_A, !FILE_H)
}

/// Diagonals of the h1–a8 direction (shift 7: one column left, one row down) that are
/// full.
#[inline]
fn full_d7(disc: u64) -> u64 {
    full_diagonal(disc, 7, !FILE_H, !FILE_A)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Full lines by walking each square's line.
    fn naive_full(disc: u64, dc: i32, dr: i32) -> u64 {
        let mut out = 0;
        for sq in 0..64 {
            let (c, r) = (sq % 8, sq / 8);
            let mut full = true;
            for s in [-1, 1] {
                let (mut cc, mut rr) = (c, r);
                while (0..8).contains(&cc) && (0..8).contains(&rr) {
                    full &= disc >> (rr * 8 + cc) & 1 == 1;
                    cc += s * dc;
                    rr += s * dr;
                }
            }
            if full {
                out |= 1 << sq;
            }
        }
        out
    }

    #[test]
    fn full_lines_agree_with_walking() {
        let mut rng = yomi_core::Rng::seed_from_u64(11);
        for _ in 0..5000 {
            let disc = rng.next_u64() | rng.next_u64() | rng.next_u64();
            assert_eq!(full_rows(disc), naive_full(disc, 1, 0));
            assert_eq!(full_columns(disc), naive_full(disc, 0, 1));
            assert_eq!(full_d9(disc), naive_full(disc, 1, 1), "{disc:#x}");
            assert_eq!(full_d7(disc), naive_full(disc, -1, 1), "{disc:#x}");
        }
    }

    /// Stable discs among `stable` by trying every sequence of plays (Edax's
    /// `find_edge_stable`).
    fn edge_stable_by_search(p: u32, o: u32, mut stable: u32) -> u32 {
        let empty = !(p | o) & 0xFF;
        stable &= p;
        if stable == 0 || empty == 0 {
            return stable;
        }
        for x in (0..8).filter(|x| empty >> x & 1 == 1) {
            let (np, no) = play_edge(p, o, x);
            stable = edge_stable_by_search(np, no, stable);
            let (no, np) = play_edge(o, p, x);
            stable = edge_stable_by_search(np, no, stable);
        }
        stable
    }

    #[test]
    fn edge_table_agrees_with_search() {
        let t = EdgeTable::get();
        for p in 0..256u32 {
            for o in (0..256u32).filter(|o| o & p == 0 && (o ^ p).count_ones() >= 3) {
                let want = edge_stable_by_search(p, o, p) as u64;
                assert_eq!(
                    t.stable_discs(p as u64, o as u64) & 0xFF,
                    want,
                    "{p:08b} {o:08b}"
                );
            }
        }
    }

    #[test]
    fn edge_table_examples() {
        let t = EdgeTable::get();
        // A corner is stable; a disc beside an empty corner is not.
        assert_eq!(t.stable_discs(1, 0), 1);
        assert_eq!(t.stable_discs(2, 0), 0);
        // A full row of the mover's discs on the top edge.
        assert_eq!(t.stable_discs(0xFF, 0), 0xFF);
        // Mover a1, b1; opponent c1: a1 and b1 stay (the run is anchored at the corner).
        assert_eq!(t.stable_discs(0b011, 0b100) & 0xFF, 0b011);
    }
}
