//! The board: a padded one-dimensional array with chains, pseudo-liberties and an empty-point
//! list, the part of Go that playouts hammer.
//!
//! # Layout
//! A board of size `N` (2 to 19) lives in an `(N+2)×(N+2)` array with a frame of border
//! points, so every on-board point has four neighbours at `p − W`, `p − 1`, `p + 1`, `p + W`
//! (`W = N + 2`) and no bounds checks are needed. Point `(x, y)` (column `x` from the left,
//! row `y` from the bottom, both from 0) is index `(y + 1)·W + (x + 1)`. Arrays have the
//! size of the 19×19 layout (441 entries) so that a board is plain `Clone` data (about
//! 10 KB) and never allocates.
//!
//! # Chains and liberties
//! Stones of a chain form a circular linked list (`next`); every stone stores its chain's
//! root. Each chain keeps *pseudo-liberties*: the number of (stone, empty neighbour)
//! adjacencies, with the sum and the sum of squares of the liberty indices. A chain has no
//! liberty exactly when the count is 0, and it is in atari (all pseudo-liberties are the
//! same point) exactly when `count · Σp² = (Σp)²` (Cauchy–Schwarz). Playing a stone updates
//! these incrementally; merging relabels the smaller chain; capturing walks the captured list.
//! Legality (suicide, ko) is decided from the neighbours without trying the move.
//!
//! # Hashing
//! Zobrist keys per colour and point; the position hash covers stones only (positional
//! superko compares positions regardless of the side to move).

use crate::vertex::{Color, Vertex};

/// The largest board size.
pub const MAX_SIZE: usize = 19;
/// The smallest board size.
pub const MIN_SIZE: usize = 2;
/// Width of the padded array for the largest board.
pub(crate) const MAX_W: usize = MAX_SIZE + 2;
/// Entries of every per-point array.
pub(crate) const MAX_AREA: usize = MAX_W * MAX_W;

pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
pub(crate) const BORDER: u8 = 3;

/// Zobrist keys: `[colour][point]`; colour 0 is used for the ko point and the side to move.
pub(crate) static ZOBRIST: [[u64; MAX_AREA]; 3] = zobrist_table();

/// The position hash of the empty board (non-zero, so 0 can mark unused history slots).
pub(crate) const HASH_BASE: u64 = 0x6A09_E667_F3BC_C908;

const fn zobrist_table() -> [[u64; MAX_AREA]; 3] {
    let mut t = [[0u64; MAX_AREA]; 3];
    let mut s: u64 = 0x0060_0D60_5EED_0004;
    let mut c = 0;
    while c < 3 {
        let mut i = 0;
        while i < MAX_AREA {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            t[c][i] = z ^ (z >> 31);
            i += 1;
        }
        c += 1;
    }
    t
}

/// A Go position: stones, the side to move, the simple-ko point and capture counts.
///
/// Moves are made with [`Board::play`] (legality per [`Board::is_legal`] is the caller's
/// job) and [`Board::pass`]. Superko, passes, komi and the game record live in
/// [`crate::GoState`].
#[derive(Clone)]
pub struct Board {
    size: u8,
    w: u8,
    to_move: u8,
    ko: u16,
    n_empty: u16,
    stones: [u16; 3],
    prisoners: [u16; 3],
    hash: u64,
    color: [u8; MAX_AREA],
    chain: [u16; MAX_AREA],
    next: [u16; MAX_AREA],
    csize: [u16; MAX_AREA],
    libs: [u16; MAX_AREA],
    lsum: [u32; MAX_AREA],
    lsq: [u32; MAX_AREA],
    empty: [u16; MAX_AREA],
    epos: [u16; MAX_AREA],
}

impl Board {
    /// An empty board of `size`×`size`, Black to move.
    ///
    /// # Panics
    /// If `size` is outside `MIN_SIZE..=MAX_SIZE` (callers validate sizes first; see
    /// [`crate::GoGame::new`]).
    pub fn new(size: usize) -> Self {
        assert!(
            (MIN_SIZE..=MAX_SIZE).contains(&size),
            "board size {size} outside {MIN_SIZE}..={MAX_SIZE}"
        );
        let mut b = Board {
            size: size as u8,
            w: (size + 2) as u8,
            to_move: BLACK,
            ko: 0,
            n_empty: 0,
            stones: [0; 3],
            prisoners: [0; 3],
            hash: HASH_BASE,
            color: [BORDER; MAX_AREA],
            chain: [0; MAX_AREA],
            next: [0; MAX_AREA],
            csize: [0; MAX_AREA],
            libs: [0; MAX_AREA],
            lsum: [0; MAX_AREA],
            lsq: [0; MAX_AREA],
            empty: [0; MAX_AREA],
            epos: [0; MAX_AREA],
        };
        for y in 0..size {
            for x in 0..size {
                let p = b.index(x, y);
                b.color[p] = EMPTY;
                b.epos[p] = b.n_empty;
                b.empty[b.n_empty as usize] = p as u16;
                b.n_empty += 1;
            }
        }
        b
    }

    /// The board size `N`.
    #[inline]
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The stride `W = N + 2` of the padded array.
    #[inline]
    pub fn stride(&self) -> usize {
        self.w as usize
    }

    /// The array index of point `(x, y)` (column from the left, row from the bottom).
    #[inline]
    pub fn index(&self, x: usize, y: usize) -> usize {
        (y + 1) * self.w as usize + x + 1
    }

    /// The `(x, y)` of an on-board index.
    #[inline]
    pub fn coords(&self, p: usize) -> (usize, usize) {
        let w = self.w as usize;
        (p % w - 1, p / w - 1)
    }

    /// True when `p` is an index of an on-board point.
    #[inline]
    pub fn on_board(&self, p: usize) -> bool {
        p < MAX_AREA && self.color[p] != BORDER
    }

    /// The vertex of point `(x, y)`.
    #[inline]
    pub fn vertex(&self, x: usize, y: usize) -> Vertex {
        Vertex::from_index(self.index(x, y))
    }

    /// The stone at index `p`, `None` for an empty (or off-board) point.
    #[inline]
    pub fn stone(&self, p: usize) -> Option<Color> {
        match self.color.get(p) {
            Some(&BLACK) => Some(Color::Black),
            Some(&WHITE) => Some(Color::White),
            _ => None,
        }
    }

    /// The raw colour code at `p` (0 empty, 1 black, 2 white, 3 border).
    #[inline]
    pub(crate) fn raw(&self, p: usize) -> u8 {
        self.color[p]
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        if self.to_move == BLACK {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Sets the side to move (for set-up positions); clears the ko point.
    pub fn set_to_move(&mut self, c: Color) {
        self.to_move = c as u8;
        self.ko = 0;
    }

    /// The point the side to move may not play because of simple ko, if any.
    #[inline]
    pub fn ko(&self) -> Option<usize> {
        (self.ko != 0).then_some(self.ko as usize)
    }

    /// The position hash (stones only).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones of `c` on the board.
    #[inline]
    pub fn stones(&self, c: Color) -> usize {
        self.stones[c as usize] as usize
    }

    /// Stones `c` has captured (prisoners held by `c`).
    #[inline]
    pub fn prisoners(&self, c: Color) -> usize {
        self.prisoners[c as usize] as usize
    }

    /// Sets the capture counts (for set-up positions).
    pub fn set_prisoners(&mut self, black: usize, white: usize) {
        self.prisoners = [
            0,
            black.min(u16::MAX as usize) as u16,
            white.min(u16::MAX as usize) as u16,
        ];
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empty_points(&self) -> &[u16] {
        &self.empty[..self.n_empty as usize]
    }

    /// The four neighbours of `p`.
    #[inline(always)]
    pub(crate) fn nbrs(&self, p: usize) -> [usize; 4] {
        let w = self.w as usize;
        [p - w, p - 1, p + 1, p + w]
    }

    /// The four diagonal neighbours of `p`.
    #[inline(always)]
    fn diags(&self, p: usize) -> [usize; 4] {
        let w = self.w as usize;
        [p - w - 1, p - w + 1, p + w - 1, p + w + 1]
    }

    /// The number of stones in the chain through `p`.
    #[inline]
    pub fn chain_size(&self, p: usize) -> usize {
        self.csize[self.chain[p] as usize] as usize
    }

    /// The stones of the chain through the stone at `p`, visited by `f`.
    pub fn for_chain(&self, p: usize, mut f: impl FnMut(usize)) {
        let r = self.chain[p] as usize;
        let mut s = r;
        loop {
            f(s);
            s = self.next[s] as usize;
            if s == r {
                break;
            }
        }
    }

    /// The exact number of liberties of the chain through the stone at `p` (a walk; not for
    /// hot paths).
    pub fn liberties(&self, p: usize) -> usize {
        let mut seen = [false; MAX_AREA];
        let mut n = 0;
        self.for_chain(p, |s| {
            for q in self.nbrs(s) {
                if self.color[q] == EMPTY && !seen[q] {
                    seen[q] = true;
                    n += 1;
                }
            }
        });
        n
    }

    #[inline(always)]
    fn in_atari(&self, r: usize) -> bool {
        let l = self.libs[r] as u64;
        let s = self.lsum[r] as u64;
        l * self.lsq[r] as u64 == s * s
    }

    /// True when the chain through the stone at `p` has exactly one liberty.
    #[inline]
    pub fn chain_in_atari(&self, p: usize) -> bool {
        let r = self.chain[p] as usize;
        self.libs[r] > 0 && self.in_atari(r)
    }

    #[inline(always)]
    fn add_lib(&mut self, r: usize, p: usize) {
        self.libs[r] += 1;
        self.lsum[r] += p as u32;
        self.lsq[r] += (p * p) as u32;
    }

    #[inline(always)]
    fn remove_lib(&mut self, r: usize, p: usize) {
        self.libs[r] -= 1;
        self.lsum[r] -= p as u32;
        self.lsq[r] -= (p * p) as u32;
    }

    /// Whether the side `c` may play at `p` by the board rules: `p` empty, not the ko point
    /// (when `c` is to move), and not suicide. With `suicide` set, a move whose own chain of
    /// two or more stones is left without liberties is legal (the chain is removed); a
    /// single-stone suicide never is (it would repeat the position).
    #[inline(always)]
    pub fn is_legal(&self, p: usize, c: Color, suicide: bool) -> bool {
        let c = c as u8;
        if self.color[p] != EMPTY || (p == self.ko as usize && c == self.to_move) {
            return false;
        }
        let mut own = false;
        for q in self.nbrs(p) {
            let k = self.color[q];
            if k == EMPTY {
                return true;
            } else if k == c {
                own = true;
                if !self.in_atari(self.chain[q] as usize) {
                    return true;
                }
            } else if k != BORDER && self.in_atari(self.chain[q] as usize) {
                return true;
            }
        }
        suicide && own
    }

    /// True when `p` is a single-point true eye of `c`: all four neighbours are `c` (or
    /// off the board) and the opponent holds at most one diagonal (none on the edge).
    /// Light playouts never fill these.
    #[inline(always)]
    pub fn is_eye(&self, p: usize, c: Color) -> bool {
        let c = c as u8;
        for q in self.nbrs(p) {
            if self.color[q] & c != c {
                return false;
            }
        }
        let o = 3 - c;
        let mut bad = 0;
        let mut edge = 0;
        for d in self.diags(p) {
            let k = self.color[d];
            bad += (k == o) as u32;
            edge |= (k == BORDER) as u32;
        }
        bad + edge < 2
    }

    /// The light-playout test: `c` may play at empty point `p` (by [`Board::is_legal`]) and
    /// `p` is not `c`'s single-point eye ([`Board::is_eye`]). One pass over the neighbours
    /// decides the common case (an empty neighbour).
    #[inline(always)]
    pub fn playout_candidate(&self, p: usize, c: Color, suicide: bool) -> bool {
        let cc = c as u8;
        let ns = self.nbrs(p);
        let k = [
            self.color[ns[0]],
            self.color[ns[1]],
            self.color[ns[2]],
            self.color[ns[3]],
        ];
        if k.contains(&EMPTY) {
            return true;
        }
        if k.iter().all(|&x| x & cc == cc) && self.is_eye(p, c) {
            return false;
        }
        self.is_legal(p, c, suicide)
    }

    /// True when every neighbour of `p` is a stone of `c` or off the board.
    #[inline]
    pub fn is_eyelike(&self, p: usize, c: Color) -> bool {
        let c = c as u8;
        self.nbrs(p).iter().all(|&q| self.color[q] & c == c)
    }

    /// The position hash after the side to move plays at `p` (which must be legal).
    #[inline]
    pub fn hash_after(&self, p: usize) -> u64 {
        let c = self.to_move;
        let o = 3 - c;
        let h = self.hash ^ ZOBRIST[c as usize][p];
        let mut captures = false;
        let mut lives = false;
        for q in self.nbrs(p) {
            let k = self.color[q];
            if k == EMPTY {
                lives = true;
            } else if k == o {
                captures |= self.in_atari(self.chain[q] as usize);
            } else if k == c {
                lives |= !self.in_atari(self.chain[q] as usize);
            }
        }
        if !captures && lives {
            return h;
        }
        self.hash_after_slow(p, h, captures)
    }

    #[cold]
    fn hash_after_slow(&self, p: usize, mut h: u64, captures: bool) -> u64 {
        let c = self.to_move;
        let o = 3 - c;
        let mut seen = [0usize; 4];
        let mut n_seen = 0;
        for q in self.nbrs(p) {
            let k = self.color[q];
            if k != o && k != c {
                continue;
            }
            let r = self.chain[q] as usize;
            if seen[..n_seen].contains(&r) {
                continue;
            }
            seen[n_seen] = r;
            n_seen += 1;
            if captures && k == o && self.in_atari(r) {
                h ^= self.chain_hash(r);
            } else if !captures && k == c {
                // Multi-stone suicide: the new stone and its own neighbours vanish.
                h ^= self.chain_hash(r);
            }
        }
        if !captures {
            h ^= ZOBRIST[c as usize][p];
        }
        h
    }

    fn chain_hash(&self, r: usize) -> u64 {
        let k = self.color[r] as usize;
        let mut h = 0;
        self.for_chain(r, |s| h ^= ZOBRIST[k][s]);
        h
    }

    /// Whether playing `p` now would capture at least one stone.
    pub fn captures_at(&self, p: usize) -> bool {
        let o = 3 - self.to_move;
        self.nbrs(p)
            .iter()
            .any(|&q| self.color[q] == o && self.in_atari(self.chain[q] as usize))
    }

    /// The side to move passes: the turn changes and the ko point is cleared.
    #[inline]
    pub fn pass(&mut self) {
        self.to_move = 3 - self.to_move;
        self.ko = 0;
    }

    /// The side to move plays at `p`, which must be legal by [`Board::is_legal`] (with the
    /// suicide setting the caller uses). Returns the number of opponent stones captured.
    pub fn play(&mut self, p: usize) -> usize {
        let c = self.to_move;
        let o = 3 - c;
        debug_assert_eq!(self.color[p], EMPTY, "play on an occupied point");
        // Place the stone as a chain of its own.
        self.color[p] = c;
        self.hash ^= ZOBRIST[c as usize][p];
        self.stones[c as usize] += 1;
        self.remove_empty(p);
        self.chain[p] = p as u16;
        self.next[p] = p as u16;
        self.csize[p] = 1;
        self.libs[p] = 0;
        self.lsum[p] = 0;
        self.lsq[p] = 0;
        let ns = self.nbrs(p);
        for &q in &ns {
            match self.color[q] {
                EMPTY => self.add_lib(p, q),
                BORDER => {}
                _ => {
                    let r = self.chain[q] as usize;
                    self.remove_lib(r, p);
                }
            }
        }
        for &q in &ns {
            if self.color[q] == c {
                let a = self.chain[p] as usize;
                let b = self.chain[q] as usize;
                if a != b {
                    self.merge(a, b);
                }
            }
        }
        let mut captured = 0;
        let mut last = 0;
        for &q in &ns {
            if self.color[q] == o && self.libs[self.chain[q] as usize] == 0 {
                captured += self.remove_chain(self.chain[q] as usize);
                last = q;
            }
        }
        let r = self.chain[p] as usize;
        self.ko = 0;
        if self.libs[r] == 0 {
            // Multi-stone suicide (only reached when the rules allow it).
            self.remove_chain(r);
        } else if captured == 1 && self.csize[r] == 1 && self.libs[r] == 1 {
            self.ko = last as u16;
        }
        self.to_move = o;
        captured
    }

    #[inline(always)]
    fn remove_empty(&mut self, p: usize) {
        self.n_empty -= 1;
        let i = self.epos[p] as usize;
        let last = self.empty[self.n_empty as usize];
        self.empty[i] = last;
        self.epos[last as usize] = i as u16;
    }

    #[inline(always)]
    fn add_empty(&mut self, p: usize) {
        self.epos[p] = self.n_empty;
        self.empty[self.n_empty as usize] = p as u16;
        self.n_empty += 1;
    }

    fn merge(&mut self, a: usize, b: usize) {
        let (a, b) = if self.csize[a] >= self.csize[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = b;
        loop {
            self.chain[s] = a as u16;
            s = self.next[s] as usize;
            if s == b {
                break;
            }
        }
        self.next.swap(a, b);
        self.csize[a] += self.csize[b];
        self.libs[a] += self.libs[b];
        self.lsum[a] += self.lsum[b];
        self.lsq[a] += self.lsq[b];
    }

    /// Removes the chain rooted at `r`; returns its stone count.
    fn remove_chain(&mut self, r: usize) -> usize {
        let k = self.color[r];
        let taker = 3 - k;
        let mut s = r;
        let mut n = 0;
        loop {
            self.color[s] = EMPTY;
            self.hash ^= ZOBRIST[k as usize][s];
            self.add_empty(s);
            for q in self.nbrs(s) {
                if self.color[q] == taker {
                    let rq = self.chain[q] as usize;
                    self.add_lib(rq, s);
                }
            }
            n += 1;
            s = self.next[s] as usize;
            if s == r {
                break;
            }
        }
        self.stones[k as usize] -= n as u16;
        self.prisoners[taker as usize] += n as u16;
        n
    }

    /// Puts a stone of `c` (or nothing) at `p` without captures and rebuilds chains; for
    /// set-up positions. Returns false for an off-board point.
    pub fn set_point(&mut self, p: usize, c: Option<Color>) -> bool {
        if !self.on_board(p) {
            return false;
        }
        self.color[p] = c.map_or(EMPTY, |c| c as u8);
        self.rebuild();
        true
    }

    /// The chains left without liberties (set-up positions can contain them), one stone of
    /// each.
    pub fn dead_chains(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for p in 0..MAX_AREA {
            let k = self.color[p];
            if (k == BLACK || k == WHITE) && self.chain[p] as usize == p && self.libs[p] == 0 {
                out.push(p);
            }
        }
        out
    }

    /// Recomputes chains, liberties, the empty list, stone counts and the hash from the
    /// colours alone. The ko point is kept only if it is still empty.
    pub(crate) fn rebuild(&mut self) {
        let size = self.size as usize;
        self.n_empty = 0;
        self.stones = [0; 3];
        self.hash = HASH_BASE;
        let mut done = [false; MAX_AREA];
        let mut stack = [0u16; MAX_AREA];
        for y in 0..size {
            for x in 0..size {
                let p = self.index(x, y);
                let k = self.color[p];
                if k == EMPTY {
                    self.add_empty(p);
                    continue;
                }
                self.stones[k as usize] += 1;
                self.hash ^= ZOBRIST[k as usize][p];
                if done[p] {
                    continue;
                }
                // Flood the chain from p, linking its stones behind the root p.
                self.chain[p] = p as u16;
                self.next[p] = p as u16;
                self.csize[p] = 0;
                self.libs[p] = 0;
                self.lsum[p] = 0;
                self.lsq[p] = 0;
                done[p] = true;
                let mut top = 1;
                stack[0] = p as u16;
                while top > 0 {
                    top -= 1;
                    let s = stack[top] as usize;
                    if s != p {
                        self.chain[s] = p as u16;
                        self.next[s] = self.next[p];
                        self.next[p] = s as u16;
                    }
                    self.csize[p] += 1;
                    for q in self.nbrs(s) {
                        let kq = self.color[q];
                        if kq == EMPTY {
                            self.add_lib(p, q);
                        } else if kq == k && !done[q] {
                            done[q] = true;
                            stack[top] = q as u16;
                            top += 1;
                        }
                    }
                }
            }
        }
        if self.ko != 0 && self.color[self.ko as usize] != EMPTY {
            self.ko = 0;
        }
    }

    /// Sets the raw colour code at `p` (set-up helper; call [`Board::rebuild`] after).
    #[inline]
    pub(crate) fn set_raw(&mut self, p: usize, k: u8) {
        self.color[p] = k;
    }

    /// Sets the simple-ko point (for set-up positions; 0 clears it).
    pub(crate) fn set_ko(&mut self, p: usize) {
        self.ko = p as u16;
    }

    /// The owner of every point by area (Tromp-Taylor): a stone owns its point, an empty
    /// region belongs to the one colour it reaches, or to nobody. Written into `out`
    /// (indexed like the board; 0 nobody, 1 black, 2 white).
    pub fn owners(&self, out: &mut [u8; MAX_AREA]) {
        out.fill(0);
        let mut seen = [false; MAX_AREA];
        let mut stack = [0u16; MAX_AREA];
        let mut region = [0u16; MAX_AREA];
        for (o, &k) in out.iter_mut().zip(self.color.iter()) {
            if k == BLACK || k == WHITE {
                *o = k;
            }
        }
        for &e in self.empty_points() {
            let e = e as usize;
            if seen[e] {
                continue;
            }
            let (mut top, mut n, mut reach) = (1usize, 0usize, 0u8);
            stack[0] = e as u16;
            seen[e] = true;
            while top > 0 {
                top -= 1;
                let s = stack[top] as usize;
                region[n] = s as u16;
                n += 1;
                for q in self.nbrs(s) {
                    match self.color[q] {
                        EMPTY if !seen[q] => {
                            seen[q] = true;
                            stack[top] = q as u16;
                            top += 1;
                        }
                        BLACK => reach |= 1,
                        WHITE => reach |= 2,
                        _ => {}
                    }
                }
            }
            if reach == 1 || reach == 2 {
                for &s in &region[..n] {
                    out[s as usize] = reach;
                }
            }
        }
    }

    /// Black's area minus White's (Tromp-Taylor: stones plus empty regions reaching only
    /// that colour), without komi.
    pub fn area_score(&self) -> i32 {
        // Fast path for finished playouts: every empty point is alone (no empty neighbour).
        let mut b = self.stones[1] as i32;
        let mut w = self.stones[2] as i32;
        for &e in self.empty_points() {
            let mut reach = 0u8;
            for q in self.nbrs(e as usize) {
                match self.color[q] {
                    EMPTY => return self.area_score_flood(),
                    BORDER => {}
                    k => reach |= k,
                }
            }
            match reach {
                BLACK => b += 1,
                WHITE => w += 1,
                _ => {}
            }
        }
        b - w
    }

    fn area_score_flood(&self) -> i32 {
        let mut own = [0u8; MAX_AREA];
        self.owners(&mut own);
        let mut s = 0i32;
        for &o in own.iter() {
            match o {
                BLACK => s += 1,
                WHITE => s -= 1,
                _ => {}
            }
        }
        s
    }

    /// The board as rows from the top, `X` black, `O` white, `.` empty, separated by `/`.
    pub fn rows_string(&self) -> String {
        let n = self.size as usize;
        let mut s = String::with_capacity(n * (n + 1));
        for y in (0..n).rev() {
            for x in 0..n {
                s.push(match self.color[self.index(x, y)] {
                    BLACK => 'X',
                    WHITE => 'O',
                    _ => '.',
                });
            }
            if y > 0 {
                s.push('/');
            }
        }
        s
    }

    /// True when both boards hold the same stones, side to move and ko point.
    pub fn same_position(&self, other: &Board) -> bool {
        self.size == other.size
            && self.to_move == other.to_move
            && self.ko == other.ko
            && self.hash == other.hash
            && self.color == other.color
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Board({} {:?} ko={:?})",
            self.rows_string(),
            self.to_move(),
            self.ko
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks chains and pseudo-liberties against a rebuild from the colours.
    pub(crate) fn check_invariants(b: &Board) {
        let mut r = b.clone();
        r.rebuild();
        assert_eq!(r.hash, b.hash, "hash");
        assert_eq!(r.stones, b.stones, "stone counts");
        assert_eq!(r.n_empty, b.n_empty, "empty count");
        let mut e1: Vec<u16> = b.empty_points().to_vec();
        let mut e2: Vec<u16> = r.empty_points().to_vec();
        e1.sort_unstable();
        e2.sort_unstable();
        assert_eq!(e1, e2, "empty lists");
        for (i, &p) in b.empty_points().iter().enumerate() {
            assert_eq!(b.epos[p as usize] as usize, i);
        }
        for p in 0..MAX_AREA {
            let k = b.color[p];
            if k == BLACK || k == WHITE {
                let (rb, rr) = (b.chain[p] as usize, r.chain[p] as usize);
                assert_eq!(b.csize[rb], r.csize[rr], "chain size at {p}");
                assert_eq!(b.libs[rb], r.libs[rr], "pseudo-liberties at {p}");
                assert_eq!(b.lsum[rb], r.lsum[rr], "liberty sum at {p}");
                assert_eq!(b.lsq[rb], r.lsq[rr], "liberty square sum at {p}");
                assert!(b.libs[rb] > 0, "chain without liberties at {p}");
                assert_eq!(
                    b.chain_in_atari(p),
                    b.liberties(p) == 1,
                    "atari test at {p}"
                );
            }
        }
    }

    #[test]
    fn random_games_keep_invariants() {
        let mut rng = yomi_core::Rng::seed_from_u64(3);
        for size in [2, 3, 5, 9, 13, 19] {
            for _ in 0..6 {
                let mut b = Board::new(size);
                for _ in 0..size * size * 3 {
                    let c = b.to_move();
                    let cands: Vec<usize> = b
                        .empty_points()
                        .iter()
                        .map(|&p| p as usize)
                        .filter(|&p| b.is_legal(p, c, false) && !b.is_eye(p, c))
                        .collect();
                    if cands.is_empty() {
                        b.pass();
                        continue;
                    }
                    let p = cands[rng.below(cands.len())];
                    let h = b.hash_after(p);
                    b.play(p);
                    assert_eq!(b.hash(), h, "hash_after");
                    check_invariants(&b);
                }
            }
        }
    }

    #[test]
    fn suicide_variant_keeps_invariants() {
        let mut rng = yomi_core::Rng::seed_from_u64(4);
        let mut suicides = 0;
        for _ in 0..20 {
            let mut b = Board::new(5);
            for _ in 0..120 {
                let c = b.to_move();
                let cands: Vec<usize> = b
                    .empty_points()
                    .iter()
                    .map(|&p| p as usize)
                    .filter(|&p| b.is_legal(p, c, true))
                    .collect();
                if cands.is_empty() {
                    b.pass();
                    continue;
                }
                let p = cands[rng.below(cands.len())];
                let before = b.stones(c);
                let h = b.hash_after(p);
                b.play(p);
                if b.stones(c) < before {
                    suicides += 1;
                }
                assert_eq!(b.hash(), h, "hash_after");
                check_invariants(&b);
            }
        }
        assert!(
            suicides > 0,
            "random play with suicide allowed never suicided"
        );
    }
}
