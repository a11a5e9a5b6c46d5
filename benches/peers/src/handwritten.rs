//! The "hand-written" anchor: plain UCT on the bitboard, one array of nodes, no plug-ins.
//!
//! Same algorithm as `Mcts::uct`: UCB1 with c = 1/√2 on rewards in [0, 1] (a draw is ½),
//! unvisited children first in column order, a node's children are generated on its second
//! visit (so each iteration adds one visited node), one uniformly random playout from the
//! new node, final move by visits.

use crate::c4::{Board, Rng, WIDTH};

#[derive(Clone, Copy)]
struct Node {
    /// Index of the first child; children are contiguous.
    first: u32,
    visits: u32,
    /// Rewards of the player who moved into this node, in half points (win 2, draw 1).
    half_points: u32,
    /// Children (0 until expanded).
    children: u8,
    /// The column that leads here.
    col: u8,
}

/// A reusable search (keeps its node array between searches).
pub struct HandUct {
    nodes: Vec<Node>,
    rng: Rng,
    /// The exploration constant.
    pub c: f64,
}

impl HandUct {
    pub fn new(seed: u64) -> Self {
        HandUct { nodes: Vec::new(), rng: Rng::new(seed), c: std::f64::consts::FRAC_1_SQRT_2 }
    }

    /// Runs `iterations` iterations from `root`; returns the root's (column, visits, mean
    /// reward for the player to move) triples.
    pub fn search(&mut self, root: Board, iterations: u64) -> Vec<(u8, u32, f64)> {
        self.nodes.clear();
        self.nodes.push(Node { first: 0, visits: 0, half_points: 0, children: 0, col: 0 });
        let mut path = [0u32; 64];
        for _ in 0..iterations {
            let mut b = root;
            let (mut idx, mut len) = (0usize, 1usize);
            while !b.over() {
                let n = self.nodes[idx];
                if n.children == 0 {
                    if n.visits == 0 && idx != 0 {
                        break; // a new leaf: play out from here
                    }
                    let first = self.nodes.len() as u32;
                    for col in (0..WIDTH).filter(|&c| b.can_play(c)) {
                        self.nodes.push(Node { first: 0, visits: 0, half_points: 0, children: 0, col: col as u8 });
                    }
                    let count = (self.nodes.len() as u32 - first) as u8;
                    self.nodes[idx].first = first;
                    self.nodes[idx].children = count;
                }
                let n = self.nodes[idx];
                let two_ln = 2.0 * (n.visits.max(1) as f64).ln();
                let (mut best, mut best_score) = (n.first as usize, f64::NEG_INFINITY);
                for i in n.first as usize..n.first as usize + n.children as usize {
                    let ch = &self.nodes[i];
                    if ch.visits == 0 {
                        best = i;
                        break;
                    }
                    let v = ch.visits as f64;
                    let s = ch.half_points as f64 * 0.5 / v + self.c * (two_ln / v).sqrt();
                    if s > best_score {
                        best_score = s;
                        best = i;
                    }
                }
                b.play(self.nodes[best].col as u32);
                idx = best;
                path[len] = idx as u32;
                len += 1;
            }
            // Half points for x: 2 win, 1 draw, 0 loss.
            let x_half = (b.rollout(&mut self.rng) + 1) as u32;
            for (depth, &i) in path[..len].iter().enumerate() {
                let n = &mut self.nodes[i as usize];
                n.visits += 1;
                // The node at depth d >= 1 was entered by the player to move at depth d - 1.
                let entered_by_x = (root.moves as usize + depth + 1) & 1 == 0;
                n.half_points += if entered_by_x { x_half } else { 2 - x_half };
            }
        }
        let r = self.nodes[0];
        (r.first as usize..(r.first + r.children as u32) as usize)
            .map(|i| {
                let n = self.nodes[i];
                (n.col, n.visits, n.half_points as f64 * 0.5 / n.visits.max(1) as f64)
            })
            .collect()
    }

    /// Nodes in the last tree.
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }
}
