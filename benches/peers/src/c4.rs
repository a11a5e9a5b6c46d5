//! A self-contained connect-four bitboard and random number generator, shared by the treant
//! and hand-written contenders (yomi uses its own `yomi_classic::ConnectFour`).
//!
//! Same rules and layout as `yomi_classic::ConnectFour` (John Tromp's: bit `7 * column + row`,
//! a sentinel bit on top of every column; `current` holds the discs of the player to move,
//! `mask` all discs), and the same playout policy: a uniformly random column, drawn again
//! while it is full. The RNG is the same algorithm as yomi's (xoshiro256++ seeded through
//! SplitMix64), so playouts cost the same random numbers in every contender.

/// Columns.
pub const WIDTH: u32 = 7;
/// Rows.
pub const HEIGHT: u32 = 6;
const H1: u32 = HEIGHT + 1;
const CELLS: u8 = (WIDTH * HEIGHT) as u8;
/// The bottom cell of every column.
const BOTTOM: u64 = 0b0000001_0000001_0000001_0000001_0000001_0000001_0000001;
/// Every playable cell (no sentinels).
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);

/// Four in a row among `d`: one shift-and pair per direction.
#[inline]
pub fn has_four(d: u64) -> bool {
    let h = d & (d >> H1);
    let v = d & (d >> 1);
    let a = d & (d >> (H1 - 1));
    let b = d & (d >> (H1 + 1));
    (h & (h >> (2 * H1))) | (v & (v >> 2)) | (a & (a >> (2 * (H1 - 1)))) | (b & (b >> (2 * (H1 + 1)))) != 0
}

/// A position. 24 bytes, `Copy`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Board {
    /// Discs of the player to move.
    pub current: u64,
    /// All discs.
    pub mask: u64,
    /// Discs played.
    pub moves: u8,
    /// The player who just moved made four in a row.
    pub won: bool,
}

impl Board {
    /// True when the game is over (a win or a full board).
    #[inline]
    pub fn over(&self) -> bool {
        self.won || self.moves == CELLS
    }

    /// The player to move: 0 (`x`, who starts) or 1.
    #[inline]
    pub fn to_move(&self) -> u8 {
        self.moves & 1
    }

    /// True when `col` has room.
    #[inline]
    pub fn can_play(&self, col: u32) -> bool {
        self.mask & (1 << (HEIGHT - 1 + col * H1)) == 0
    }

    /// The lowest empty cell of every column with room, one bit each.
    #[inline]
    pub fn playable(&self) -> u64 {
        (self.mask + BOTTOM) & BOARD
    }

    /// Drops a disc of the player to move into `col` (must have room, game not over).
    #[inline]
    pub fn play(&mut self, col: u32) {
        let new_mask = self.mask | (self.mask + (1 << (col * H1)));
        let mover = self.current | (new_mask ^ self.mask);
        self.won = has_four(mover);
        self.current = mover ^ new_mask;
        self.mask = new_mask;
        self.moves += 1;
    }

    /// The result of a finished game for `x`: 1 win, 0 draw, -1 loss.
    #[inline]
    pub fn result_for_x(&self) -> i8 {
        if !self.won {
            0
        } else if (self.moves - 1) & 1 == 0 {
            1
        } else {
            -1
        }
    }

    /// Plays uniformly random columns to the end; the result for `x`.
    #[inline]
    pub fn rollout(mut self, rng: &mut Rng) -> i8 {
        while !self.over() {
            let mut col = rng.below7();
            while !self.can_play(col) {
                col = rng.below7();
            }
            self.play(col);
        }
        self.result_for_x()
    }
}

/// xoshiro256++ (the algorithm of `yomi_core::Rng`).
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// Seeded through SplitMix64.
    pub fn new(seed: u64) -> Self {
        let mut z = seed;
        let mut next = || {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            x ^ (x >> 31)
        };
        Rng { s: [next(), next(), next(), next()] }
    }

    /// The next 64 bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let r = self.s[0].wrapping_add(self.s[3]).rotate_left(23).wrapping_add(self.s[0]);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        r
    }

    /// A column 0..7 (multiply-shift; the bias, 2^-61, is irrelevant here).
    #[inline]
    pub fn below7(&mut self) -> u32 {
        ((self.next_u64() as u128 * 7) >> 64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yomi_classic::{Column, ConnectFour};
    use yomi_core::Game;

    /// The peers' bitboard and yomi's `ConnectFour` agree move by move on random games.
    #[test]
    fn agrees_with_yomi_connect_four() {
        let game = ConnectFour;
        let mut rng = Rng::new(7);
        let mut outcomes = [0u32; 3];
        for _ in 0..20_000 {
            let mut b = Board::default();
            let mut s = game.initial_state();
            let mut legal = Vec::new();
            loop {
                assert_eq!(b.over(), game.is_terminal(&s));
                game.legal_moves(&s, &mut legal);
                let ours: Vec<u8> = if b.over() {
                    vec![]
                } else {
                    (0..WIDTH).filter(|&c| b.can_play(c)).map(|c| c as u8).collect()
                };
                let theirs: Vec<u8> = legal.iter().map(|c| c.index()).collect();
                assert_eq!(ours, theirs);
                if b.over() {
                    break;
                }
                let col = ours[(rng.next_u64() % ours.len() as u64) as usize];
                b.play(col as u32);
                game.apply(&mut s, Column::new(col).unwrap());
            }
            let r = b.result_for_x();
            assert_eq!(r as f64, game.returns(&s).get(yomi_core::Player(0)));
            outcomes[(r + 1) as usize] += 1;
        }
        // Random games: x wins more often than o; draws are rare but occur.
        assert!(outcomes[2] > outcomes[0] && outcomes[1] > 0, "{outcomes:?}");
    }
}
