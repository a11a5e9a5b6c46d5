//! Depth-limited alpha-beta on bitboards with the pattern evaluation at the horizon: the
//! search behind the test sets' `search<depth>` labels ([`crate::testsets`]).
//!
//! Why not core's [`yomi_core::search::alphabeta`]: that search is generic (states cloned
//! into freshly allocated move lists, values as rewards, the transposition-table move the
//! only ordering), and labels deeper than 8 plies were out of reach with it: 5 positions of
//! the S = 20 set took 1.5 s at 8 plies and 47.2 s at 10 (this search: 13.9 s at 10, the
//! same machine and load). This one works on the two
//! bitboards, orders moves by the evaluation (and by shallower searches of the same
//! position, through iterative deepening and the table), and searches later moves with a
//! null window first (principal variation search); it is to the midgame what
//! [`crate::solver`] is to the endgame. The solver's own shallow searches also look a few
//! plies ahead with the evaluation at the horizon, but only to leave move hints in the
//! exact search's shared table (a pass costs them no ply, their values are thrown away);
//! this search's values are the product, so they follow the definition below exactly.
//!
//! **What a value is.** The minimax value of the position searched `depth` plies deep
//! (a pass is a ply, as in core's search), in discs for the side to move: a leaf at the
//! horizon is [`PatternEval::score`], a finished game its exact final score
//! ([`final_score`]). The value is that of a plain full-width minimax to `depth`: the table
//! cuts only with entries stored at exactly the depth asked for (a deeper entry would be a
//! better estimate, but a different number), so the value does not depend on what was
//! searched before.
//!
//! **Whole discs.** Leaves are rounded to whole discs (half away from zero) before the
//! minimax, not the result after it: rounding is monotone and odd, so it commutes with
//! max and negation and the value is the same as rounding the minimax of the unrounded
//! evaluation, which is what a label is. Integer discs make the null windows coarser, so
//! more of them cut: with values in 1/128 disc the same labels took 1.38× the nodes (39.8 M
//! against 28.9 M: `--example midgame 20 10 5`, the S = 20 set's first five positions).
//!
//! Not thread-safe by sharing: one [`Midgame`] per thread (its table is its own).

use std::sync::Arc;

use crate::bitboard::{flips, moves};
use crate::eval::PatternEval;
use crate::game::{final_score, Move, OthelloState};

/// Greater than any value (64 discs).
const INF: i32 = 65;

/// From this many plies left, children are ordered by the evaluation; below, by the number
/// of the opponent's replies (cheaper: ordering by the evaluation from 2 plies left saved
/// no nodes and cost half the speed, `--example midgame 20 10 5`).
const EVAL_ORDER_MIN_DEPTH: u32 = 3;

/// A table entry: the position, bounds on its value at `depth`, the best move found.
#[derive(Clone, Copy)]
struct Entry {
    p: u64,
    o: u64,
    lower: i32,
    upper: i32,
    depth: u8,
    best: u8,
}

const EMPTY_ENTRY: Entry = Entry {
    p: 0,
    o: 0,
    lower: -INF,
    upper: INF,
    depth: 0,
    best: 64,
};

/// A depth-limited search (see the [module docs](self)).
pub struct Midgame {
    eval: Arc<PatternEval>,
    table: Vec<Entry>,
    mask: usize,
    nodes: u64,
}

/// The most legal moves an Othello position has is well under this.
const MAX_MOVES: usize = 40;

/// Moves with their ordering keys, on the stack.
struct MoveList {
    sq: [u8; MAX_MOVES],
    key: [i32; MAX_MOVES],
    /// The discs each move flips, computed once for the ordering and reused by the search.
    flips: [u64; MAX_MOVES],
    len: usize,
}

impl MoveList {
    fn new() -> Self {
        MoveList {
            sq: [0; MAX_MOVES],
            key: [0; MAX_MOVES],
            flips: [0; MAX_MOVES],
            len: 0,
        }
    }

    /// Insertion sort by key, lowest first (lists are short).
    fn sort(&mut self) {
        for i in 1..self.len {
            let (s, k, f) = (self.sq[i], self.key[i], self.flips[i]);
            let mut j = i;
            while j > 0 && self.key[j - 1] > k {
                self.sq[j] = self.sq[j - 1];
                self.key[j] = self.key[j - 1];
                self.flips[j] = self.flips[j - 1];
                j -= 1;
            }
            self.sq[j] = s;
            self.key[j] = k;
            self.flips[j] = f;
        }
    }
}

impl Midgame {
    /// A search with the shipped evaluation and a table of `2^bits` entries (32 bytes
    /// each; `bits` is clamped to 4..=28).
    pub fn new(bits: u32) -> Self {
        Midgame::with_eval(PatternEval::shipped(), bits)
    }

    /// A search with `eval` at the horizon.
    pub fn with_eval(eval: Arc<PatternEval>, bits: u32) -> Self {
        let bits = bits.clamp(4, 28);
        Midgame {
            eval,
            table: vec![EMPTY_ENTRY; 1 << bits],
            mask: (1 << bits) - 1,
            nodes: 0,
        }
    }

    /// Forgets the table. Values do not depend on it; clearing makes every search start
    /// alike in time as well.
    pub fn clear(&mut self) {
        self.table.fill(EMPTY_ENTRY);
    }

    /// Positions visited since the search was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of `state` for the side to move, `depth` plies deep, in discs.
    pub fn value(&mut self, state: &OthelloState, depth: u32) -> i32 {
        self.deepen(state.player(), state.opponent(), depth)
    }

    /// The value of every legal move of `state` for the side to move: the move, then the
    /// value of the position after it searched `depth - 1` plies deep (so each move is
    /// looked at `depth` plies deep in all), in discs; a pass when it is the only move;
    /// empty when the game is over. In the order of the squares.
    pub fn move_values(&mut self, state: &OthelloState, depth: u32) -> Vec<(Move, i32)> {
        let (p, o) = (state.player(), state.opponent());
        let below = depth.saturating_sub(1);
        let mut legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                return Vec::new();
            }
            return vec![(Move::PASS, -self.deepen(o, p, below))];
        }
        let mut out = Vec::with_capacity(legal.count_ones() as usize);
        while legal != 0 {
            let sq = legal.trailing_zeros();
            legal &= legal - 1;
            let f = flips(p, o, sq);
            let v = -self.deepen(o & !f, p | f | (1 << sq), below);
            out.push((Move::square(sq as u8).expect("a square"), v));
        }
        out
    }

    /// Iterative deepening to `depth` (the shallower iterations fill the table with the
    /// moves that order the deeper ones).
    fn deepen(&mut self, p: u64, o: u64, depth: u32) -> i32 {
        let mut v = 0;
        for d in 0..=depth.min(u8::MAX as u32) {
            v = self.search(p, o, d, -INF, INF);
        }
        v
    }

    fn leaf(&self, p: u64, o: u64) -> i32 {
        self.eval.score(p, o).round() as i32
    }

    /// Fail-soft negamax value of `p` to move against `o`, `depth` plies deep, within
    /// `(alpha, beta)`.
    fn search(&mut self, p: u64, o: u64, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let legal = moves(p, o);
        if legal == 0 && moves(o, p) == 0 {
            return final_score(p, o);
        }
        if depth == 0 {
            return self.leaf(p, o);
        }
        if legal == 0 {
            return -self.search(o, p, depth - 1, -beta, -alpha);
        }
        let slot = self.slot(p, o);
        let e = self.table[slot];
        let mut tt_best = 64u8;
        let known = e.p == p && e.o == o;
        if known {
            tt_best = e.best;
            if u32::from(e.depth) == depth {
                if e.lower >= beta {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
                if e.lower == e.upper {
                    return e.lower;
                }
                alpha = alpha.max(e.lower);
                beta = beta.min(e.upper);
            }
        }
        let mut list = MoveList::new();
        self.order(p, o, legal, depth, tt_best, &mut list);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_sq = 64u8;
        for i in 0..list.len {
            let (sq, f) = (list.sq[i], list.flips[i]);
            let (np, no) = (o & !f, p | f | (1 << sq));
            let v = if i == 0 {
                -self.search(np, no, depth - 1, -beta, -alpha)
            } else {
                let mut v = -self.search(np, no, depth - 1, -alpha - 1, -alpha);
                if v > alpha && v < beta {
                    v = -self.search(np, no, depth - 1, -beta, -v);
                }
                v
            };
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let (mut lower, mut upper) = if best >= beta {
            (best, INF)
        } else if best > alpha0 {
            (best, best)
        } else {
            (-INF, best)
        };
        if known && u32::from(e.depth) == depth {
            lower = lower.max(e.lower);
            upper = upper.min(e.upper).max(lower);
        }
        self.table[slot] = Entry {
            p,
            o,
            lower,
            upper,
            depth: depth as u8,
            best: best_sq,
        };
        best
    }

    fn slot(&self, p: u64, o: u64) -> usize {
        // A multiplicative hash of both boards (Fibonacci hashing: the high bits mix).
        let h = (p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
            .rotate_left(29)
            .wrapping_mul(0x1656_67B1_9E37_79F9);
        (h >> 32) as usize & self.mask
    }

    /// Orders `legal` into `list`, the best guess first: the table's move, then by the
    /// opponent's evaluation after the move (or, near the horizon, the opponent's replies).
    fn order(&self, p: u64, o: u64, legal: u64, depth: u32, tt_best: u8, list: &mut MoveList) {
        let mut m = legal;
        list.len = 0;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = flips(p, o, sq);
            let key = if sq as u8 == tt_best {
                i32::MIN
            } else {
                let (np, no) = (o & !f, p | f | (1 << sq));
                if depth >= EVAL_ORDER_MIN_DEPTH {
                    self.leaf(np, no)
                } else {
                    moves(np, no).count_ones() as i32
                }
            };
            list.sq[list.len] = sq as u8;
            list.key[list.len] = key;
            list.flips[list.len] = f;
            list.len += 1;
        }
        list.sort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Othello;
    use yomi_core::{Game, Rng};

    /// Plain full-width minimax, the definition the search must agree with.
    fn minimax(eval: &PatternEval, p: u64, o: u64, depth: u32) -> i32 {
        let legal = moves(p, o);
        if legal == 0 && moves(o, p) == 0 {
            return final_score(p, o);
        }
        if depth == 0 {
            return eval.score(p, o).round() as i32;
        }
        if legal == 0 {
            return -minimax(eval, o, p, depth - 1);
        }
        let mut best = -INF;
        let mut m = legal;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = flips(p, o, sq);
            best = best.max(-minimax(eval, o & !f, p | f | (1 << sq), depth - 1));
        }
        best
    }

    /// The positions of a random game, from the start to its end.
    fn random_game(seed: u64) -> Vec<OthelloState> {
        let game = Othello;
        let mut rng = Rng::seed_from_u64(seed);
        let mut s = game.initial_state();
        let mut out = vec![s];
        let mut list = Vec::new();
        while !s.is_over() {
            list.clear();
            game.legal_moves(&s, &mut list);
            game.apply(&mut s, list[rng.below(list.len())]);
            out.push(s);
        }
        out
    }

    #[test]
    fn values_are_those_of_plain_minimax_whatever_the_table_held() {
        let eval = PatternEval::shipped();
        // One search for all positions and depths: the table carries entries across.
        let mut search = Midgame::with_eval(eval.clone(), 12);
        let game = random_game(7);
        let last = game.len() - 1;
        for at in [4, 12, 20, 30, 44, last - 5, last - 1, last] {
            let s = game[at];
            for depth in 0..=4 {
                let want = minimax(&eval, s.player(), s.opponent(), depth);
                let got = search.deepen(s.player(), s.opponent(), depth);
                assert_eq!(got, want, "ply {at} at depth {depth}");
            }
        }
    }

    #[test]
    fn finished_games_score_exactly_and_a_pass_is_a_ply() {
        let eval = PatternEval::shipped();
        let mut search = Midgame::new(10);
        let mut passes = 0;
        for seed in 0..40 {
            let game = random_game(seed);
            let end = game[game.len() - 1];
            assert_eq!(search.value(&end, 5), end.final_score());
            assert!(search.move_values(&end, 5).is_empty());
            for s in game.iter().filter(|s| s.legal() == 0 && !s.is_over()) {
                // The side to move must pass: its one "move" is the pass, searched a ply
                // shallower, and the pass itself costs a ply.
                passes += 1;
                let mv = search.move_values(s, 3);
                let want = -minimax(&eval, s.opponent(), s.player(), 2);
                assert_eq!(mv, vec![(Move::PASS, want)]);
                assert_eq!(search.value(s, 3), want);
            }
        }
        assert!(passes > 0, "forty random games had a pass");
    }
}
