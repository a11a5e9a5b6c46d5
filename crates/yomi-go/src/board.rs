//! The board: a padded one-dimensional array with chains, pseudo-liberties, neighbour counts
//! and an empty-point list, the part of Go that playouts hammer.
//!
//! # Layout
//! A board of size `N` (2 to 19) lives in an `(N+2)×(N+2)` array with a frame of border
//! points, so every on-board point has four neighbours at `p − W`, `p − 1`, `p + 1`, `p + W`
//! (`W = N + 2`) and no edge tests are needed. Point `(x, y)` (column `x` from the left,
//! row `y` from the bottom, both from 0) is index `(y + 1)·W + (x + 1)`. Arrays have 512
//! entries (the 19×19 layout needs 441) and are indexed through `p & 511`, which lets the
//! compiler drop bounds checks without `unsafe`; a board is plain `Clone` data (about 8 KB)
//! and never allocates.
//!
//! # Chains, liberties and neighbour counts
//! Stones of a chain form a circular linked list (`next`); every stone stores its chain's
//! root. Each chain keeps its *pseudo-liberties*: the number of (stone, empty neighbour)
//! adjacencies, as libEGO does. A chain has no liberty exactly when the count is 0, and an
//! empty point `p` is a chain's only liberty exactly when the count equals the number of
//! `p`'s neighbours in the chain — so captures, suicide and atari next to a move are decided
//! exactly from the counts without trying the move. Merging relabels the smaller chain;
//! capturing walks the captured ring.
//!
//! Every point also keeps packed counts of its neighbours: black stones, white stones (a
//! border neighbour counts for both colours) and empty points, updated when stones come
//! and go. "Has an empty neighbour" (the common case: legal, not an eye) and "every
//! neighbour is mine or the edge" (eye shape) are one mask each.
//!
//! The points of each colour (and the empty and border points) are also kept as bit sets
//! over the padded indices. Up to 9×9 the padded array fits 128 bits, and
//! [`Board::playout_candidate_sets`] finds a whole position's playout candidates with
//! shifts: the points with an empty neighbour, and the mover's eyes to leave out.
//!
//! # Hashing and the superko filter
//! Zobrist keys per colour and point; the position hash covers stones only (positional
//! superko compares positions regardless of the side to move). Each point also remembers
//! which colours ever had a stone removed from it ([`Board::may_repeat`]): a move by `c` at
//! `p` that leaves its stone on the board can only recreate an earlier position if a stone of
//! `c` was once removed from `p`, so the superko lookup is needed only for those moves (and
//! for suicides).

use crate::vertex::{Color, Vertex};
pub use crate::vertex::{MAX_SIZE, MIN_SIZE};
use yomi_core::bits::{pdep, pext};

/// Width of the padded array for the largest board.
pub(crate) const MAX_W: usize = MAX_SIZE + 2;
/// Entries of every per-point array: a power of two above `MAX_W²` (441), so that indices
/// masked with `MASK` are always in bounds.
pub(crate) const MAX_AREA: usize = 512;
const MASK: usize = MAX_AREA - 1;
const _: () = assert!(MAX_W * MAX_W <= MAX_AREA && MAX_AREA.is_power_of_two());

pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
pub(crate) const BORDER: u8 = 3;
/// The liberty count of chain id 0, the id of every border point.
const BORDER_LIBS: u16 = 0x4000;

// Four 16-bit lanes in a `u64`, one per neighbour of a point (in `nbrs` order): the tests
// on a point's four neighbours (which neighbours share a chain, which chains have the point
// as only liberty) are done on all four at once, with no branch and no per-lane compare.
// Every lane value used is below 0x8000 (chain ids below 512, liberty counts below 0x8000).
const LANES_ONE: u64 = 0x0001_0001_0001_0001;
const LANES_TOP: u64 = 0x8000_8000_8000_8000;
const LANES_LOW: u64 = 0x7FFF_7FFF_7FFF_7FFF;

/// Four values below 0x8000 as lanes.
#[inline(always)]
fn lanes(v: [usize; 4]) -> u64 {
    v[0] as u64 | (v[1] as u64) << 16 | (v[2] as u64) << 32 | (v[3] as u64) << 48
}

/// Bit 15 of every lane where `x` and `y` hold the same value (lanes below 0x8000: adding
/// 0x7FFF to a non-zero difference sets bit 15 and never carries out of the lane).
#[inline(always)]
fn lanes_equal(x: u64, y: u64) -> u64 {
    !((x ^ y).wrapping_add(LANES_LOW)) & LANES_TOP
}

/// The top bits of the four lanes as a 4-bit mask (bit `i` for lane `i`).
#[inline(always)]
fn lane_mask(x: u64) -> u32 {
    pext(x, LANES_TOP) as u32
}

/// Per lane, how many of the four lanes (itself included) hold its value: for the chain
/// roots of a point's neighbours, how many of the point's neighbours each chain has.
#[inline(always)]
fn lanes_multiplicity(r: u64) -> u64 {
    LANES_ONE
        + (lanes_equal(r, r.rotate_right(16)) >> 15)
        + (lanes_equal(r, r.rotate_right(32)) >> 15)
        + (lanes_equal(r, r.rotate_right(48)) >> 15)
}

/// Packed neighbour counts: 4 bits each of black (border included), white (border
/// included) and empty neighbours, then the removed-stone bits.
const NB_SHIFT: [u32; 3] = [8, 0, 4];
const NB_EMPTY_MASK: u16 = 0xF << 8;
/// Bits 12 and 13 of a point's counts: a black (white) stone was once removed from it (the
/// superko filter, [`Board::may_repeat`]). Count updates never carry into them.
const NB_GONE_SHIFT: u32 = 12;
const NB_GONE_MASK: u16 = 3 << NB_GONE_SHIFT;
/// The change of a neighbour's counts when colour `c` (1 or 2) fills an empty point (four
/// entries so that a colour masked with 3 needs no bounds check).
const NB_PLACE: [u16; 4] = [
    0,
    1u16.wrapping_sub(1 << 8),
    (1u16 << 4).wrapping_sub(1 << 8),
    0,
];

/// Zobrist keys: `[colour][point]`; colour 0 is used for the ko point and the side to move.
/// A fourth row (unused) lets colour codes masked with 3 index it without a bounds check.
pub(crate) static ZOBRIST: [[u64; MAX_AREA]; 4] = zobrist_table();

/// The position hash of the empty board (non-zero, so 0 can mark unused history slots).
pub(crate) const HASH_BASE: u64 = 0x6A09_E667_F3BC_C908;

const fn zobrist_table() -> [[u64; MAX_AREA]; 4] {
    let mut t = [[0u64; MAX_AREA]; 4];
    let mut s: u64 = 0x0060_0D60_5EED_0004;
    let mut c = 0;
    while c < 4 {
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
pub struct Board {
    size: u8,
    w: u8,
    to_move: u8,
    ko: u16,
    n_empty: u16,
    /// Per colour code (index 3 unused, see [`ZOBRIST`]).
    stones: [u16; 4],
    prisoners: [u16; 4],
    hash: u64,
    color: [u8; MAX_AREA],
    nbr: [u16; MAX_AREA],
    chain: [u16; MAX_AREA],
    next: [u16; MAX_AREA],
    /// Per chain root: stones and pseudo-liberties.
    csize: [u16; MAX_AREA],
    libs: [u16; MAX_AREA],
    empty: [u16; MAX_AREA],
    epos: [u16; MAX_AREA],
    /// The points of each colour code (0 empty, 1 black, 2 white, 3 border) as bit sets
    /// over the padded indices (bit `p & 63` of word `p >> 6`), kept beside `color` by
    /// `play`, captures and `rebuild`: on boards up to 9×9 the whole padded array fits in
    /// the first two words, and the playout sampler finds its candidates with a few shifts
    /// ([`Board::playout_candidate_sets`]).
    bits: [[u64; MAX_AREA / 64]; 4],
    /// The points with a border point diagonally next to them (the first 128 bits; for the
    /// eye test of [`Board::playout_candidate_sets`]).
    edge_diag: u128,
    /// The bits of `p − W`, `p − 1`, `p + 1` and `p + W` in a bit set shifted right by
    /// `p − W` (for [`Board::nbr_mask`]).
    nbr_sel: u64,
}

/// Every field is plain data. `clone_from` between boards of one size copies only the
/// entries of the padded array in use (`W²` of 512: a sixth on 9×9) and the live part of
/// the empty list: the entries past `W²` are never written after [`Board::new`], so they
/// already agree. Searches and playout loops start every iteration with it.
impl Clone for Board {
    fn clone(&self) -> Self {
        Board {
            size: self.size,
            w: self.w,
            to_move: self.to_move,
            ko: self.ko,
            n_empty: self.n_empty,
            stones: self.stones,
            prisoners: self.prisoners,
            hash: self.hash,
            color: self.color,
            nbr: self.nbr,
            chain: self.chain,
            next: self.next,
            csize: self.csize,
            libs: self.libs,
            empty: self.empty,
            epos: self.epos,
            bits: self.bits,
            edge_diag: self.edge_diag,
            nbr_sel: self.nbr_sel,
        }
    }

    fn clone_from(&mut self, src: &Self) {
        if self.size != src.size {
            *self = src.clone();
            return;
        }
        let area = (src.w as usize * src.w as usize) & (MAX_AREA - 1);
        let live = src.n_empty as usize & (MAX_AREA - 1);
        self.to_move = src.to_move;
        self.ko = src.ko;
        self.n_empty = src.n_empty;
        self.stones = src.stones;
        self.prisoners = src.prisoners;
        self.hash = src.hash;
        self.color[..area].copy_from_slice(&src.color[..area]);
        self.nbr[..area].copy_from_slice(&src.nbr[..area]);
        self.chain[..area].copy_from_slice(&src.chain[..area]);
        self.next[..area].copy_from_slice(&src.next[..area]);
        self.csize[..area].copy_from_slice(&src.csize[..area]);
        self.libs[..area].copy_from_slice(&src.libs[..area]);
        self.epos[..area].copy_from_slice(&src.epos[..area]);
        self.empty[..live].copy_from_slice(&src.empty[..live]);
        self.bits = src.bits;
    }
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
            stones: [0; 4],
            prisoners: [0; 4],
            hash: HASH_BASE,
            color: [BORDER; MAX_AREA],
            nbr: [0; MAX_AREA],
            chain: [0; MAX_AREA],
            next: [0; MAX_AREA],
            csize: [0; MAX_AREA],
            libs: [0; MAX_AREA],
            empty: [0; MAX_AREA],
            epos: [0; MAX_AREA],
            bits: [[0; MAX_AREA / 64]; 4],
            edge_diag: 0,
            nbr_sel: 1 | 1 << (size + 1) | 1 << (size + 3) | 1 << (2 * size + 4),
        };
        for y in 0..size {
            for x in 0..size {
                let p = b.index(x, y);
                b.color[p] = EMPTY;
            }
        }
        // Border points keep chain id 0; its liberty count stays large (see
        // `legal_without_empty_nbr`).
        b.libs[0] = BORDER_LIBS;
        b.rebuild();
        let (edge, w) = (b.bits128(BORDER as usize), b.w as u32);
        b.edge_diag = (edge << (w + 1)) | (edge << (w - 1)) | (edge >> (w - 1)) | (edge >> (w + 1));
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

    /// The raw colour codes of the `len` points from `start` on (one board row, read by
    /// the tensor encoding).
    #[inline]
    pub(crate) fn raw_row(&self, start: usize, len: usize) -> &[u8] {
        &self.color[start..start + len]
    }

    /// The raw colour code at `p` (0 empty, 1 black, 2 white, 3 border).
    #[inline(always)]
    pub(crate) fn raw(&self, p: usize) -> u8 {
        self.color[p & MASK]
    }

    #[inline(always)]
    fn root(&self, p: usize) -> usize {
        self.chain[p & MASK] as usize
    }

    #[inline(always)]
    fn libs_of(&self, r: usize) -> u16 {
        self.libs[r & MASK]
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
            0,
        ];
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empty_points(&self) -> &[u16] {
        &self.empty[..self.n_empty as usize]
    }

    /// The number of empty points.
    #[inline(always)]
    pub fn empty_count(&self) -> usize {
        self.n_empty as usize
    }

    /// The `i`-th empty point (`i` below [`Board::empty_count`]).
    #[inline(always)]
    pub fn empty_point(&self, i: usize) -> usize {
        self.empty[i & MASK] as usize
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
        self.csize[self.root(p)] as usize
    }

    /// The stones of the chain through the stone at `p`, visited by `f`.
    pub fn for_chain(&self, p: usize, mut f: impl FnMut(usize)) {
        let r = self.root(p);
        let mut s = r;
        loop {
            f(s);
            s = self.next[s & MASK] as usize;
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
                if self.raw(q) == EMPTY && !seen[q & MASK] {
                    seen[q & MASK] = true;
                    n += 1;
                }
            }
        });
        n
    }

    /// The liberties of the chain through the stone at `p`, counted up to 3: returns
    /// `min(liberties, 3)` and writes the first two found into `out`. A walk that stops at
    /// the third liberty, so chains with many liberties cost little (heavy playouts ask
    /// this of the chains next to the last move).
    #[inline]
    pub fn chain_libs_upto3(&self, p: usize, out: &mut [usize; 2]) -> usize {
        let r = self.root(p);
        let mut n = 0usize;
        let mut s = r;
        loop {
            for q in self.nbrs(s) {
                if self.raw(q) == EMPTY && (n == 0 || out[0] != q) && (n < 2 || out[1] != q) {
                    if n == 2 {
                        return 3;
                    }
                    out[n] = q;
                    n += 1;
                }
            }
            s = self.next[s & MASK] as usize;
            if s == r {
                return n;
            }
        }
    }

    /// The size of the chain `c` would form by playing the empty point `p` when that chain
    /// would be left in atari (one liberty) without capturing anything; 0 when the move
    /// captures or leaves two or more liberties. Heavy playouts and priors use it to avoid
    /// self-atari of big groups. A point with two empty neighbours is never a self-atari,
    /// so the chain walks happen only in contact fights.
    pub fn self_atari_size(&self, p: usize, c: Color) -> usize {
        let c = c as u8;
        let o = 3 - c;
        let mut libs = [0usize; 2];
        let mut n = 0usize;
        let add = |q: usize, libs: &mut [usize; 2], n: &mut usize| -> bool {
            if q == p || (*n > 0 && libs[0] == q) || (*n > 1 && libs[1] == q) {
                return false;
            }
            if *n == 2 {
                return true;
            }
            libs[*n] = q;
            *n += 1;
            false
        };
        for q in self.nbrs(p) {
            if self.raw(q) == EMPTY && add(q, &mut libs, &mut n) {
                return 0;
            }
        }
        if n >= 2 {
            return 0;
        }
        let mut size = 1usize;
        let mut seen = [0usize; 4];
        let mut seen_n = 0;
        for q in self.nbrs(p) {
            let k = self.raw(q);
            if k != c && k != o {
                continue;
            }
            let r = self.root(q);
            if seen[..seen_n].contains(&r) {
                continue;
            }
            seen[seen_n] = r;
            seen_n += 1;
            let mut ls = [0usize; 2];
            let m = self.chain_libs_upto3(q, &mut ls);
            if k == o {
                if m == 1 {
                    // Captures: the captured stones' points become liberties.
                    return 0;
                }
                continue;
            }
            size += self.csize[r & MASK] as usize;
            if m >= 3 {
                return 0;
            }
            for &l in &ls[..m] {
                if add(l, &mut libs, &mut n) {
                    return 0;
                }
            }
        }
        if n >= 2 {
            0
        } else {
            size
        }
    }

    /// The 3×3 neighbourhood of `p` as 16 bits: two bits (0 empty, 1 black, 2 white,
    /// 3 off the board) for each of the eight surrounding points, row by row from the
    /// top left, skipping the centre (the key of [`crate::heavy`]'s pattern table).
    #[inline]
    pub fn neighbourhood(&self, p: usize) -> u16 {
        let w = self.w as usize;
        let pts = [
            p - w - 1,
            p - w,
            p - w + 1,
            p - 1,
            p + 1,
            p + w - 1,
            p + w,
            p + w + 1,
        ];
        let mut code = 0u16;
        for (i, q) in pts.into_iter().enumerate() {
            code |= (self.raw(q) as u16 & 3) << (2 * i);
        }
        code
    }

    /// The distance of `p` from the nearest edge (0 on the first line).
    #[inline]
    pub fn line(&self, p: usize) -> usize {
        let (x, y) = self.coords(p);
        let n = self.size as usize;
        x.min(y).min(n - 1 - x).min(n - 1 - y)
    }

    /// True when the chain through the stone at `p` has exactly one liberty.
    pub fn chain_in_atari(&self, p: usize) -> bool {
        self.liberties(p) == 1
    }

    /// The chain roots of `p`'s neighbours (0 for border and empty neighbours).
    #[inline(always)]
    fn nbr_roots(&self, p: usize) -> [usize; 4] {
        self.nbrs(p).map(|q| {
            let k = self.raw(q);
            if k == BLACK || k == WHITE {
                self.root(q)
            } else {
                0
            }
        })
    }

    /// The packed neighbour counts of `p`.
    #[inline(always)]
    fn nbr_counts(&self, p: usize) -> u16 {
        self.nbr[p & MASK]
    }

    /// True when every neighbour of `p` is a stone of colour code `c` or off the board.
    #[inline(always)]
    fn eyelike_raw(&self, p: usize, c: u8) -> bool {
        (self.nbr_counts(p) >> NB_SHIFT[c as usize]) & 0xF == 4
    }

    /// Which neighbours of `p` have colour code `k` (bit `i` for neighbour `i` in
    /// [`Board::nbrs`] order), read from the colour's bit set: two words, one shift and a
    /// `pext`.
    #[inline(always)]
    fn nbr_mask(&self, p: usize, k: u8) -> u32 {
        // On-board points are at least W + 1, and p + W stays below 64 · 7 (441 < 448).
        let base = p - self.w as usize;
        let i = base >> 6;
        let set = &self.bits[k as usize & 3];
        let words = set[i & 7] as u128 | (set[(i + 1) & 7] as u128) << 64;
        pext((words >> (base & 63)) as u64, self.nbr_sel) as u32
    }

    /// Which neighbours of `p` belong to a chain whose only liberty is `p` (bit `i` for
    /// neighbour `i`), from the neighbours' chain roots: a chain's only liberty is `p`
    /// exactly when its pseudo-liberties equal the number of `p`'s neighbours in it. Lanes
    /// of non-stones are garbage; a root must be 0 (the border id) or a current chain, so
    /// that a stale id cannot count as an adjacency of a live chain.
    #[inline(always)]
    fn at_p_mask(&self, roots: &[usize; 4]) -> u32 {
        let libs = roots.map(|r| self.libs_of(r) as usize);
        lane_mask(lanes_equal(lanes(libs), lanes_multiplicity(lanes(*roots))))
    }

    /// Legality of `c` at the empty point `p` whose neighbours are all stones or border
    /// (ko already checked): legal when it captures or joins a chain that keeps a liberty.
    /// A neighbour chain's only liberty is `p` exactly when its pseudo-liberties equal the
    /// number of `p`'s neighbours in it.
    #[inline(always)]
    fn legal_without_empty_nbr(&self, p: usize, c: u8, suicide: bool) -> bool {
        let o = 3 - c;
        let ns = self.nbrs(p);
        // No neighbour is empty, so every chain id is current (border points keep id 0,
        // which is never a root and whose entry holds a large liberty count).
        let roots = ns.map(|q| self.root(q));
        let libs = roots.map(|r| self.libs_of(r));
        // The minimum, not `all`: no early exit, so no branch per neighbour.
        if libs.iter().fold(u16::MAX, |m, &l| m.min(l)) > 4 {
            // p cannot be any neighbour chain's only liberty (it accounts for at most 4 of
            // its pseudo-liberties): no capture, and every own neighbour chain lives. Without
            // empty neighbours, `4 − (opponent-or-border count)` is the own stone count.
            let opp = (self.nbr_counts(p) >> NB_SHIFT[o as usize]) & 0xF;
            return opp < 4;
        }
        self.legal_from_roots(p, c, &roots, suicide)
    }

    /// Whether the side `c` may play at `p` by the board rules: `p` empty, not the ko point
    /// (when `c` is to move), and not suicide. With `suicide` set, a move whose own chain of
    /// two or more stones is left without liberties is legal (the chain is removed); a
    /// single-stone suicide never is (it would repeat the position).
    #[inline(always)]
    pub fn is_legal(&self, p: usize, c: Color, suicide: bool) -> bool {
        let c = c as u8;
        if p >= MAX_AREA || self.raw(p) != EMPTY || (p == self.ko as usize && c == self.to_move) {
            return false;
        }
        if self.nbr_counts(p) & NB_EMPTY_MASK != 0 {
            return true;
        }
        self.legal_without_empty_nbr(p, c, suicide)
    }

    /// The diagonal part of the eye test: the opponent of `c` holds at most one diagonal of
    /// `p`, none on the edge.
    #[inline(always)]
    fn eye_diagonals_ok(&self, p: usize, c: u8) -> bool {
        let o = 3 - c;
        let mut bad = 0;
        let mut edge = 0;
        for d in self.diags(p) {
            let k = self.raw(d);
            bad += (k == o) as u32;
            edge |= (k == BORDER) as u32;
        }
        bad + edge < 2
    }

    /// True when `p` is a single-point true eye of `c`: all four neighbours are `c` (or
    /// off the board) and the opponent holds at most one diagonal (none on the edge).
    /// Light playouts never fill these.
    #[inline(always)]
    pub fn is_eye(&self, p: usize, c: Color) -> bool {
        let c = c as u8;
        p < MAX_AREA
            && self.raw(p) == EMPTY
            && self.eyelike_raw(p, c)
            && self.eye_diagonals_ok(p, c)
    }

    /// The light-playout test: `c` may play at empty point `p` (by [`Board::is_legal`]) and
    /// `p` is not `c`'s single-point eye ([`Board::is_eye`]). One mask decides the common
    /// case (an empty neighbour).
    #[inline(always)]
    pub fn playout_candidate(&self, p: usize, c: Color, suicide: bool) -> bool {
        if self.nbr_counts(p) & NB_EMPTY_MASK != 0 {
            return true;
        }
        self.playout_candidate_without_empty_nbr(p, c, suicide)
    }

    /// [`Board::playout_candidate`] for a point without an empty neighbour; out of line, so
    /// that the playout sampler's loop does not set up for it on every move.
    #[inline(never)]
    fn playout_candidate_without_empty_nbr(&self, p: usize, c: Color, suicide: bool) -> bool {
        let n = self.nbr_counts(p);
        let cc = c as u8;
        if p == self.ko as usize && cc == self.to_move {
            return false;
        }
        if (n >> NB_SHIFT[cc as usize]) & 0xF == 4 && self.eye_diagonals_ok(p, cc) {
            return false;
        }
        self.legal_without_empty_nbr(p, cc, suicide)
    }

    /// True when the padded array fits the 128-bit sets of
    /// [`Board::playout_candidate_sets`] (boards up to 9×9).
    #[inline(always)]
    pub fn fits_u128(&self) -> bool {
        (self.w as usize) * (self.w as usize) <= 128
    }

    /// The points of colour code `k` as one 128-bit set (the first two words).
    #[inline(always)]
    fn bits128(&self, k: usize) -> u128 {
        let b = &self.bits[k & 3];
        b[0] as u128 | (b[1] as u128) << 64
    }

    /// The light-playout candidates of the side to move, for boards up to 9×9
    /// ([`Board::fits_u128`]; larger boards return garbage), as two sets of padded
    /// indices: `sure`, the empty points with an empty neighbour (legal, and no eye), and
    /// `maybe`, the other empty points that are not the mover's single-point eyes nor the
    /// ko point. A point of `maybe` is a candidate exactly when
    /// [`Board::playout_candidate_closed`] says so; every candidate is in one of the two.
    ///
    /// Late in a playout most empty points have no empty neighbour and many are the mover's
    /// own eyes, which shifts of the colour sets rule out without a per-point test (all four
    /// neighbours own or edge, and neither two opponent diagonals nor one on the edge).
    #[inline]
    pub fn playout_candidate_sets(&self) -> (u128, u128) {
        debug_assert!(self.fits_u128());
        // One arm per stride, so that every shift below is by a constant (a shift of a
        // `u128` by a variable amount costs several instructions and a test of the amount).
        match self.w {
            4 => self.candidate_sets::<4>(),
            5 => self.candidate_sets::<5>(),
            6 => self.candidate_sets::<6>(),
            7 => self.candidate_sets::<7>(),
            8 => self.candidate_sets::<8>(),
            9 => self.candidate_sets::<9>(),
            10 => self.candidate_sets::<10>(),
            _ => self.candidate_sets::<11>(),
        }
    }

    /// [`Board::playout_candidate_sets`] for stride `W`.
    #[inline(always)]
    fn candidate_sets<const W: u32>(&self) -> (u128, u128) {
        let c = self.to_move as usize & 3;
        let e = self.bits128(EMPTY as usize);
        let edge = self.bits128(BORDER as usize);
        let own = self.bits128(c) | edge;
        let opp = self.bits128(3 - c);
        // Bit p of `x << d` is bit p − d of x: shifts by ±1 and ±W look at the neighbours.
        let open = (e << 1) | (e >> 1) | (e << W) | (e >> W);
        // The ko point (0, a border point, when there is none) is never a candidate.
        let closed = e & !open & !(1u128 << (self.ko & 127));
        let shape = closed & (own << 1) & (own >> 1) & (own << W) & (own >> W);
        let d = [
            opp << (W + 1),
            opp << (W - 1),
            opp >> (W - 1),
            opp >> (W + 1),
        ];
        let two = (d[0] & d[1]) | (d[2] & d[3]) | ((d[0] | d[1]) & (d[2] | d[3]));
        let eyes = shape & !(two | (self.edge_diag & (d[0] | d[1] | d[2] | d[3])));
        (e & open, closed & !eyes)
    }

    /// [`Board::playout_candidate`] for a point of the `maybe` set of
    /// [`Board::playout_candidate_sets`]: legality by the liberty test.
    #[inline]
    pub fn playout_candidate_closed(&self, p: usize, suicide: bool) -> bool {
        self.legal_closed(p, self.to_move, suicide)
    }

    /// [`Board::legal_without_empty_nbr`] without its shortcut: the same answer (with every
    /// neighbour chain's pseudo-liberties above 4, no neighbour is "at p" and the test
    /// reduces to "has an own neighbour"), computed with no data-dependent branch.
    #[inline(always)]
    fn legal_closed(&self, p: usize, c: u8, suicide: bool) -> bool {
        self.legal_from_roots(p, c, &self.nbrs(p).map(|q| self.root(q)), suicide)
    }

    /// The liberty test of a point whose neighbours are all stones or border, from the
    /// neighbours' chain roots: legal when it captures (an opponent chain whose only liberty
    /// is `p`) or joins an own chain that keeps another liberty, or, with `suicide`, when it
    /// has an own neighbour. No data-dependent branch.
    #[inline(always)]
    fn legal_from_roots(&self, p: usize, c: u8, roots: &[usize; 4], suicide: bool) -> bool {
        let at_p = self.at_p_mask(roots);
        let own = self.nbr_mask(p, c);
        let opp = self.nbr_mask(p, 3 - c);
        ((opp & at_p) | (own & !at_p) != 0) | (suicide & (own != 0))
    }

    /// True when every neighbour of `p` is a stone of `c` or off the board.
    #[inline]
    pub fn is_eyelike(&self, p: usize, c: Color) -> bool {
        p < MAX_AREA && self.eyelike_raw(p, c as u8)
    }

    /// True when `p` has an empty neighbour.
    #[inline(always)]
    pub fn has_empty_neighbour(&self, p: usize) -> bool {
        self.nbr_counts(p) & NB_EMPTY_MASK != 0
    }

    /// Whether a stone of the side to move was ever removed from `p` on this board (by a
    /// capture, a suicide or a set-up edit). A move at `p` that leaves its stone on the
    /// board can recreate an earlier position of this board only then, so superko needs
    /// looking up only for these moves (and suicides).
    #[inline(always)]
    pub fn may_repeat(&self, p: usize) -> bool {
        self.nbr[p & MASK] & ((self.to_move as u16) << NB_GONE_SHIFT) != 0
    }

    /// The position hash after the side to move plays at `p` (which must be legal).
    ///
    /// Playouts ask this for the moves that may repeat ([`Board::may_repeat`]), most of
    /// them late, next to chains in atari, where "does it capture, which chains" is a coin
    /// flip: the captured chains are found from masks, and only their walk and a suicide
    /// (when the rules allow it) branch.
    #[inline]
    pub fn hash_after(&self, p: usize) -> u64 {
        let c = self.to_move;
        let o = 3 - c;
        let h = self.hash ^ ZOBRIST[c as usize & 3][p & MASK];
        let ns = self.nbrs(p);
        let own = self.nbr_mask(p, c);
        let opp = self.nbr_mask(p, o);
        let stone = own | opp;
        // Chain ids of stones only (0 for empty and border neighbours, whose ids may be
        // stale and would otherwise count as adjacencies of a live chain).
        let roots: [usize; 4] =
            std::array::from_fn(|i| self.root(ns[i]) * ((stone >> i) & 1) as usize);
        let at_p = self.at_p_mask(&roots);
        // A chain touching p twice is removed once: drop neighbours whose chain an earlier
        // neighbour already names (lane i against lanes i − 1, i − 2, i − 3; the zeros
        // shifted in only meet non-stones, which are not captured anyway).
        let r = lanes(roots);
        let dup =
            lane_mask(lanes_equal(r, r << 16) | lanes_equal(r, r << 32) | lanes_equal(r, r << 48));
        let mut cap = opp & at_p & !dup;
        let lives = self.has_empty_neighbour(p) | (own & !at_p != 0);
        if cap == 0 && !lives {
            return self.hash_after_slow(p, h);
        }
        let mut h = h;
        while cap != 0 {
            let i = cap.trailing_zeros() as usize & 3;
            cap &= cap - 1;
            h ^= self.chain_hash(roots[i]);
        }
        h
    }

    #[cold]
    fn hash_after_slow(&self, p: usize, mut h: u64) -> u64 {
        let c = self.to_move;
        let o = 3 - c;
        let roots = self.nbr_roots(p);
        let at_p_mask = self.at_p_mask(&roots);
        let mut seen = [0usize; 4];
        let mut n_seen = 0;
        let mut captures = false;
        let mut lives = self.has_empty_neighbour(p);
        for (i, q) in self.nbrs(p).into_iter().enumerate() {
            let k = self.raw(q);
            let at_p = at_p_mask >> i & 1 == 1;
            if k == o && at_p {
                captures = true;
                let r = roots[i];
                if !seen[..n_seen].contains(&r) {
                    seen[n_seen] = r;
                    n_seen += 1;
                    h ^= self.chain_hash(r);
                }
            } else if k == c && !at_p {
                lives = true;
            }
        }
        if !captures && !lives {
            // Multi-stone suicide: the new stone and its own neighbours vanish.
            h ^= ZOBRIST[c as usize][p & MASK];
            for (i, q) in self.nbrs(p).into_iter().enumerate() {
                let r = roots[i];
                if self.raw(q) == c && !seen[..n_seen].contains(&r) {
                    seen[n_seen] = r;
                    n_seen += 1;
                    h ^= self.chain_hash(r);
                }
            }
        }
        h
    }

    fn chain_hash(&self, r: usize) -> u64 {
        let k = self.raw(r) as usize;
        let mut h = 0;
        self.for_chain(r, |s| h ^= ZOBRIST[k][s & MASK]);
        h
    }

    /// Whether playing `p` now would capture at least one stone.
    #[inline]
    pub fn captures_at(&self, p: usize) -> bool {
        let o = 3 - self.to_move;
        if (self.nbr_counts(p) >> NB_SHIFT[o as usize]) & 0xF == 0 {
            return false;
        }
        self.nbr_mask(p, o) & self.at_p_mask(&self.nbr_roots(p)) != 0
    }

    /// The side to move passes: the turn changes and the ko point is cleared.
    #[inline]
    pub fn pass(&mut self) {
        self.to_move = 3 - self.to_move;
        self.ko = 0;
    }

    /// The side to move plays at `p`, which must be legal by [`Board::is_legal`] (with the
    /// suicide setting the caller uses). Returns the number of opponent stones captured.
    ///
    /// Which neighbours are stones, and of which colour, is close to random in playouts, so
    /// the common work is done without data-dependent branches (a mispredicted branch costs
    /// more than the few instructions it would skip): every neighbour's chain entry is read
    /// (an empty point keeps a stale id and the border id 0, both in bounds) and updates are
    /// multiplied by "is a stone" or chosen by masks. Only merging two or more chains and
    /// captures branch, and captures are rare.
    #[inline]
    pub fn play(&mut self, p: usize) -> usize {
        let p = p & MASK;
        // Colour codes are 1 or 2; the mask lets the per-colour tables (4 entries) be indexed
        // without bounds checks.
        let c = self.to_move & 3;
        let o = 3 - c;
        debug_assert_eq!(self.color[p], EMPTY, "play on an occupied point");
        let n0 = self.nbr[p];
        self.color[p] = c;
        self.flip_bit(p, EMPTY, c);
        self.hash ^= ZOBRIST[c as usize][p];
        self.stones[c as usize] += 1;
        self.remove_empty(p);
        self.to_move = o;
        self.ko = 0;
        let ns = self.nbrs(p);
        let d = NB_PLACE[c as usize];
        for &q in &ns {
            self.nbr[q & MASK] = self.nbr[q & MASK].wrapping_add(d);
        }
        let own = self.nbr_mask(p, c);
        let opp = self.nbr_mask(p, o);
        let stone = own | opp;
        let rs = ns.map(|q| self.root(q) & MASK);
        // Every neighbour chain loses the adjacency at p (stones only). An opponent chain
        // that reaches 0 here is captured: its count can reach 0 only at its last adjacency
        // to p, so checking each neighbour right after its own decrement finds every
        // captured chain at least once.
        let mut zero = 0u32;
        for (i, &r) in rs.iter().enumerate() {
            let l = self.libs[r] - (stone >> i & 1) as u16;
            self.libs[r] = l;
            zero |= ((l == 0) as u32) << i;
        }
        let dead = zero & opp;
        // The stone joins its first own neighbour's chain, or starts its own (r = p): the
        // same stores do both, since linking p behind itself leaves it a ring of one. The
        // choice is a lookup (entry 4 when no neighbour is own), not a branch or a select:
        // whether p has an own neighbour is a coin flip, and LLVM turned a hand-written
        // mask select back into a branch (28 mispredictions per 9×9 playout).
        let first = (own | 16).trailing_zeros() as usize;
        let r = [rs[0], rs[1], rs[2], rs[3], p][first.min(4)];
        // p was empty, so it is no chain's root: zeroing its entries is harmless when it
        // joins another chain and starts the counts when it is its own root.
        self.csize[p] = 0;
        self.libs[p] = 0;
        self.chain[p] = r as u16;
        self.next[p] = self.next[r];
        self.next[r] = p as u16;
        self.csize[r] += 1;
        self.libs[r] += (n0 >> 8) & 0xF;
        // Own neighbours in other chains are merged in (a mask first: usually none).
        let mut rest = own & !lane_mask(lanes_equal(lanes(rs), r as u64 * LANES_ONE));
        while rest != 0 {
            let i = rest.trailing_zeros() as usize & 3;
            rest &= rest - 1;
            let a = self.root(p);
            let b = self.root(ns[i]);
            if a != b {
                self.merge(a, b);
            }
        }
        if dead == 0 {
            let r = self.root(p);
            if self.libs_of(r) == 0 {
                // Multi-stone suicide (only reached when the rules allow it).
                self.remove_chain(r);
            }
            return 0;
        }
        self.capture(p, &ns, dead)
    }

    /// Removes the opponent chains next to the stone just played at `p` whose neighbour
    /// bits are set in `dead`, and sets the simple-ko point; returns the stones captured.
    #[inline(never)]
    fn capture(&mut self, p: usize, ns: &[usize; 4], mut dead: u32) -> usize {
        let o = self.to_move;
        let mut captured = 0;
        let mut last = 0;
        while dead != 0 {
            let q = ns[dead.trailing_zeros() as usize & 3];
            dead &= dead - 1;
            // Two neighbours may belong to one chain: the second finds it gone.
            if self.raw(q) == o {
                captured += self.remove_chain(self.root(q));
                last = q;
            }
        }
        let r = self.root(p);
        if captured == 1 && self.csize[r] == 1 && self.libs[r] == 1 {
            self.ko = last as u16;
        }
        captured
    }

    /// Moves point `p` from colour code `from`'s bit set to `to`'s.
    #[inline(always)]
    fn flip_bit(&mut self, p: usize, from: u8, to: u8) {
        let (i, m) = ((p >> 6) & (MAX_AREA / 64 - 1), 1u64 << (p & 63));
        self.bits[from as usize & 3][i] &= !m;
        self.bits[to as usize & 3][i] |= m;
    }

    #[inline(always)]
    fn remove_empty(&mut self, p: usize) {
        self.n_empty -= 1;
        let i = self.epos[p & MASK] as usize;
        let last = self.empty[self.n_empty as usize & MASK];
        self.empty[i & MASK] = last;
        self.epos[last as usize & MASK] = i as u16;
    }

    #[inline(always)]
    fn add_empty(&mut self, p: usize) {
        self.epos[p & MASK] = self.n_empty;
        self.empty[self.n_empty as usize & MASK] = p as u16;
        self.n_empty += 1;
    }

    fn merge(&mut self, a: usize, b: usize) {
        let (a, b) = if self.csize[a & MASK] >= self.csize[b & MASK] {
            (a & MASK, b & MASK)
        } else {
            (b & MASK, a & MASK)
        };
        let mut s = b;
        loop {
            self.chain[s] = a as u16;
            s = self.next[s] as usize & MASK;
            if s == b {
                break;
            }
        }
        self.next.swap(a, b);
        self.csize[a] += self.csize[b];
        self.libs[a] += self.libs[b];
    }

    /// Removes the chain rooted at `r`; returns its stone count.
    fn remove_chain(&mut self, r: usize) -> usize {
        let r = r & MASK;
        let k = self.color[r];
        let taker = 3 - k;
        let d = NB_PLACE[k as usize].wrapping_neg();
        let mut s = r;
        let mut n = 0;
        loop {
            self.color[s] = EMPTY;
            self.flip_bit(s, k, EMPTY);
            self.nbr[s] |= (k as u16) << NB_GONE_SHIFT;
            self.hash ^= ZOBRIST[k as usize][s];
            self.add_empty(s);
            for q in self.nbrs(s) {
                let q = q & MASK;
                self.nbr[q] = self.nbr[q].wrapping_add(d);
                // Branch-free, as in `play`: non-taker neighbours add 0 to whatever their
                // (possibly stale) chain entry names.
                let rq = self.root(q);
                self.libs[rq & MASK] += (self.color[q] == taker) as u16;
            }
            n += 1;
            s = self.next[s] as usize & MASK;
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
        self.set_raw(p, c.map_or(EMPTY, |c| c as u8));
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

    /// Recomputes chains, liberties, neighbour counts, the empty list, stone counts and the
    /// hash from the colours alone. The ko point is kept only if it is still empty; the
    /// record of removed stones ([`Board::may_repeat`]) is kept.
    pub(crate) fn rebuild(&mut self) {
        let size = self.size as usize;
        self.n_empty = 0;
        self.stones = [0; 4];
        self.hash = HASH_BASE;
        self.bits = [[0; MAX_AREA / 64]; 4];
        for (p, &k) in self.color.iter().enumerate() {
            self.bits[k as usize & 3][p >> 6] |= 1 << (p & 63);
        }
        let mut done = [false; MAX_AREA];
        let mut stack = [0u16; MAX_AREA];
        for y in 0..size {
            for x in 0..size {
                let p = self.index(x, y);
                let mut n = 0u16;
                for q in self.nbrs(p) {
                    n += match self.color[q] {
                        EMPTY => 1 << 8,
                        BLACK => 1,
                        WHITE => 1 << 4,
                        _ => 1 | 1 << 4,
                    };
                }
                self.nbr[p] = n | (self.nbr[p] & NB_GONE_MASK);
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
                            self.libs[p] += 1;
                        } else if kq == k && !done[q] {
                            done[q] = true;
                            stack[top] = q as u16;
                            top += 1;
                        }
                    }
                }
            }
        }
        if self.ko != 0 && self.color[self.ko as usize & MASK] != EMPTY {
            self.ko = 0;
        }
    }

    /// Sets the raw colour code at `p` (set-up helper; call [`Board::rebuild`] after).
    #[inline]
    pub(crate) fn set_raw(&mut self, p: usize, k: u8) {
        let p = p & MASK;
        // A stone taken off by an edit counts as removed for the superko filter.
        let old = self.color[p];
        if old == BLACK || old == WHITE {
            self.nbr[p] |= (old as u16) << NB_GONE_SHIFT;
        }
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
        // Fast path for finished playouts: every empty point is alone (no empty neighbour)
        // and belongs to the colour it touches. Read from the neighbour counts without a
        // branch per point: with no empty neighbour, `black + white` (each counting the
        // border) is 4 plus the border count, so a colour is absent exactly when its count
        // equals the border count.
        let mut s = self.stones[1] as i32 - self.stones[2] as i32;
        let mut open = 0u16;
        for &e in self.empty_points() {
            let n = self.nbr_counts(e as usize);
            let black = (n >> NB_SHIFT[1]) & 0xF;
            let white = (n >> NB_SHIFT[2]) & 0xF;
            open |= n & NB_EMPTY_MASK;
            let border = (black + white).wrapping_sub(4);
            s += (white == border) as i32 - (black == border) as i32;
        }
        if open != 0 {
            return self.area_score_flood();
        }
        s
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

/// The index of the `k`-th set bit of `x` (from bit 0; `k` below `x.count_ones()`): BMI2
/// `pdep` deposits bit `k` onto the set bits, without a loop or a data-dependent branch.
#[inline]
pub(crate) fn select_bit(x: u128, k: u32) -> usize {
    let lo = x as u64;
    let n_lo = lo.count_ones();
    let high = k >= n_lo;
    let word = if high { (x >> 64) as u64 } else { lo };
    let k = k - if high { n_lo } else { 0 };
    pdep(1u64 << (k & 63), word).trailing_zeros() as usize + 64 * high as usize
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
        assert_eq!(b.libs[0], BORDER_LIBS, "border liberty count");
        for p in 0..MAX_AREA {
            if b.color[p] != BORDER {
                assert_eq!(b.nbr[p], r.nbr[p], "neighbour counts at {p}");
            } else {
                assert_eq!(b.chain[p], 0, "border chain id at {p}");
            }
        }
        for p in 0..MAX_AREA {
            let k = b.color[p];
            if k == BLACK || k == WHITE {
                let (rb, rr) = (b.chain[p] as usize, r.chain[p] as usize);
                assert_eq!(b.csize[rb], r.csize[rr], "chain size at {p}");
                assert_eq!(b.libs[rb], r.libs[rr], "pseudo-liberties at {p}");
                assert!(b.libs[rb] > 0, "chain without liberties at {p}");
            }
        }
        // The neighbour masks and the at-p masks agree with the colours and with counting.
        for p in 0..MAX_AREA {
            if b.color[p] == BORDER {
                continue;
            }
            let ns = b.nbrs(p);
            for k in 0..4u8 {
                let want = (0..4).fold(0, |m, i| m | ((b.color[ns[i]] == k) as u32) << i);
                assert_eq!(
                    b.nbr_mask(p, k),
                    want,
                    "neighbour mask of colour {k} at {p}"
                );
            }
            if b.color[p] == EMPTY {
                let roots = b.nbr_roots(p);
                let want = (0..4).fold(0, |m, i| {
                    let same = roots.iter().filter(|&&r| r == roots[i]).count();
                    m | ((b.libs[roots[i]] as usize == same) as u32) << i
                });
                assert_eq!(b.at_p_mask(&roots), want, "at-p mask at {p}");
            }
        }
        // The candidate sets agree with the per-point test.
        if b.fits_u128() {
            let (sure, maybe) = b.playout_candidate_sets();
            assert_eq!(sure & maybe, 0, "sure and maybe overlap");
            for suicide in [false, true] {
                let mut got = sure;
                let mut rest = maybe;
                while rest != 0 {
                    let p = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    got |= (b.playout_candidate_closed(p, suicide) as u128) << p;
                }
                let mut want = 0u128;
                for &p in b.empty_points() {
                    let p = p as usize;
                    want |= (b.playout_candidate(p, b.to_move(), suicide) as u128) << p;
                }
                assert_eq!(got, want, "candidate sets (suicide {suicide})");
            }
        }
        for k in 0..4 {
            for p in 0..MAX_AREA {
                let bit = b.bits[k][p >> 6] >> (p & 63) & 1 == 1;
                assert_eq!(bit, b.color[p] as usize == k, "colour bit {k} at {p}");
            }
        }
        // Legality, eyes and captures from the counts against trying the move.
        for &p in b.empty_points() {
            let p = p as usize;
            for c in [Color::Black, Color::White] {
                for suicide in [false, true] {
                    let legal = reference_legal(b, p, c, suicide);
                    assert_eq!(b.is_legal(p, c, suicide), legal, "legality at {p} {c:?}");
                    if c == b.to_move() {
                        assert_eq!(
                            b.playout_candidate(p, c, suicide),
                            legal && !b.is_eye(p, c),
                            "playout test at {p}"
                        );
                    }
                }
            }
            let mut t = b.clone();
            let before = t.prisoners(b.to_move());
            t.play(p);
            assert_eq!(
                b.captures_at(p),
                t.prisoners(b.to_move()) > before,
                "captures at {p}"
            );
        }
    }

    /// Legality by trying the move on a copy.
    fn reference_legal(b: &Board, p: usize, c: Color, suicide: bool) -> bool {
        if b.color[p] != EMPTY || (b.ko() == Some(p) && c == b.to_move()) {
            return false;
        }
        let mut t = b.clone();
        t.to_move = c as u8;
        let before = t.stones(c);
        t.play(p);
        t.stone(p) == Some(c) || (suicide && t.stones(c) < before)
    }

    #[test]
    fn select_bit_finds_the_kth_set_bit() {
        let mut rng = yomi_core::Rng::seed_from_u64(7);
        for _ in 0..2000 {
            let x = (rng.next_u64() as u128) << 64 | rng.next_u64() as u128;
            let x = x & ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128);
            let set: Vec<usize> = (0..128).filter(|&i| x >> i & 1 == 1).collect();
            for (k, &i) in set.iter().enumerate() {
                assert_eq!(select_bit(x, k as u32), i, "{x:#x} bit {k}");
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
                    let cands = light_candidates(&b);
                    if cands.is_empty() {
                        // The counting shortcut agrees with the flood fill.
                        assert_eq!(b.area_score(), b.area_score_flood(), "area score");
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

    /// Every field and array entry of `a` and `b` agree (the empty list up to its length).
    fn assert_same_storage(a: &Board, b: &Board) {
        assert_eq!(
            (
                a.size,
                a.w,
                a.to_move,
                a.ko,
                a.n_empty,
                a.stones,
                a.prisoners,
                a.hash
            ),
            (
                b.size,
                b.w,
                b.to_move,
                b.ko,
                b.n_empty,
                b.stones,
                b.prisoners,
                b.hash
            )
        );
        assert_eq!(a.color, b.color);
        assert_eq!(a.nbr, b.nbr);
        assert_eq!(a.chain, b.chain);
        assert_eq!(a.next, b.next);
        assert_eq!(a.csize, b.csize);
        assert_eq!(a.libs, b.libs);
        assert_eq!(a.epos, b.epos);
        assert_eq!(a.empty_points(), b.empty_points());
        assert_eq!(a.bits, b.bits);
        assert_eq!((a.edge_diag, a.nbr_sel), (b.edge_diag, b.nbr_sel));
    }

    /// The light-playout candidates of the side to move by the per-point tests: legal (no
    /// suicide) and not its own single-point eye.
    fn light_candidates(b: &Board) -> Vec<usize> {
        let c = b.to_move();
        b.empty_points()
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| b.is_legal(p, c, false) && !b.is_eye(p, c))
            .collect()
    }

    /// Plays up to `moves` random light-playout moves (passing when there is none).
    fn play_randomly(b: &mut Board, moves: usize, rng: &mut yomi_core::Rng) {
        for _ in 0..moves {
            let cands = light_candidates(b);
            if cands.is_empty() {
                b.pass();
            } else {
                b.play(cands[rng.below(cands.len())]);
            }
        }
    }

    /// `clone_from` (which copies only the entries in use) leaves exactly what `clone`
    /// makes, into a board that played on from the source, and into one of another size.
    #[test]
    fn clone_from_restores_every_entry() {
        let mut rng = yomi_core::Rng::seed_from_u64(8);
        for size in [2, 5, 9, 11, 19] {
            let mut root = Board::new(size);
            play_randomly(&mut root, size * size, &mut rng);
            let mut line = root.clone();
            for _ in 0..4 {
                play_randomly(&mut line, size * size * 2, &mut rng);
                line.clone_from(&root);
                assert_same_storage(&line, &root);
                check_invariants(&line);
            }
            let mut other = Board::new(if size == 9 { 7 } else { 9 });
            other.clone_from(&root);
            assert_same_storage(&other, &root);
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
