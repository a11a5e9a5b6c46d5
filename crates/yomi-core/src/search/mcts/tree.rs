//! The search tree: nodes and edges in two growing arrays addressed by index, each node's
//! edges one contiguous range, statistics stored beside the move they belong to.
//!
//! Thread safety: a tree belongs to one worker; nothing here is shared.

use crate::player::{Rewards, MAX_PLAYERS};

/// "No node" in child links and "no entry" in side tables.
pub(crate) const NONE: u32 = u32::MAX;
/// `Node::mover` of a node whose children have not been generated.
pub(crate) const UNEXPANDED: u8 = 255;
/// `Node::mover` of a terminal node.
pub(crate) const TERMINAL: u8 = 254;
/// `Node::mover` of a simultaneous-move node.
pub(crate) const SIMULTANEOUS: u8 = 253;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub first_edge: u32,
    pub num_edges: u32,
    pub visits: u32,
    /// The player choosing here, or one of the markers above.
    pub mover: u8,
    /// Index into `Tree::memo` (memoised leaf value) or `Tree::sims`, else `NONE`.
    pub aux: u32,
}

impl Node {
    pub fn leaf() -> Self {
        Node {
            first_edge: 0,
            num_edges: 0,
            visits: 0,
            mover: UNEXPANDED,
            aux: NONE,
        }
    }
}

/// The statistics of an edge: what selection reads on every visit, 16 bytes so that four
/// share a cache line. The move and the expander's numbers live in [`EdgeInfo`], at the same
/// index, and are read only when needed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge {
    pub total: f64,
    pub visits: u32,
    pub child: u32,
}

/// What the expander said about an edge (kept only for selection rules that read it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeExtra {
    pub prior: f32,
    pub eval: f32,
}

/// All-moves-as-first statistics of an edge (RAVE, see [`super::rave`]): playouts through
/// the edge's parent in which the chooser played the edge's move first, later on the line,
/// and the chooser's summed normalised reward over them. `key` is the move's AMAF key
/// ([`super::LeafEvaluator::amaf_key`]), `u32::MAX` for moves without one (never updated).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AmafStat {
    pub total: f32,
    pub visits: u32,
    pub key: u32,
}

/// Layout of a simultaneous node: player p's edges are `offsets[p]..offsets[p + 1]`
/// (relative to the node's first edge); children are keyed by the joint choice.
#[derive(Clone, Debug)]
pub(crate) struct SimNode {
    pub offsets: [u32; MAX_PLAYERS + 1],
    pub players: u8,
    pub children: Vec<(u64, u32)>,
}

pub(crate) struct Tree<M> {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    /// The move of each edge (same index as `edges`).
    pub moves: Vec<M>,
    /// Priors and evaluations (same index as `edges`), or empty when `with_extras` is off.
    pub extras: Vec<EdgeExtra>,
    pub with_extras: bool,
    /// Summed leaf features, `feature_count` per edge.
    pub features: Vec<f64>,
    pub feature_count: usize,
    /// Features of memoised leaves, `feature_count` per `memo` entry.
    pub memo_features: Vec<f64>,
    pub memo: Vec<Rewards>,
    pub sims: Vec<SimNode>,
    /// AMAF statistics (same index as `edges`), or empty when `with_amaf` is off.
    pub amaf: Vec<AmafStat>,
    pub with_amaf: bool,
    /// Per node (same index as `nodes`, grown on demand), the index of its proven value in
    /// `proofs`, or `NONE` (see [`super::MctsParams::solver`]); empty when nothing is proven.
    pub proven: Vec<u32>,
    /// Proven values, normalised.
    pub proofs: Vec<Rewards>,
}

impl<M: Copy + PartialEq> Tree<M> {
    pub fn new(with_extras: bool, feature_count: usize, with_amaf: bool) -> Self {
        let mut t = Tree {
            amaf: Vec::new(),
            with_amaf,
            features: Vec::new(),
            feature_count,
            memo_features: Vec::new(),
            nodes: Vec::new(),
            edges: Vec::new(),
            moves: Vec::new(),
            extras: Vec::new(),
            with_extras,
            memo: Vec::new(),
            sims: Vec::new(),
            proven: Vec::new(),
            proofs: Vec::new(),
        };
        t.clear();
        t
    }

    /// Back to a single unexpanded root (keeps the allocations).
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
        self.moves.clear();
        self.extras.clear();
        self.memo.clear();
        self.memo_features.clear();
        self.features.clear();
        self.sims.clear();
        self.amaf.clear();
        self.proven.clear();
        self.proofs.clear();
        self.nodes.push(Node::leaf());
    }

    /// Keeps `features` as long as the edges need (after edges were added or removed).
    #[inline]
    pub fn grow_features(&mut self) {
        if self.feature_count > 0 {
            self.features
                .resize(self.edges.len() * self.feature_count, 0.0);
        }
    }

    /// The proven value of `node`, if any.
    #[inline]
    pub fn proof(&self, node: u32) -> Option<Rewards> {
        match self.proven.get(node as usize) {
            Some(&i) if i != NONE => Some(self.proofs[i as usize]),
            _ => None,
        }
    }

    /// Whether `node` is proven (cheaper than [`Tree::proof`] on the descent).
    #[inline]
    pub fn is_proven(&self, node: u32) -> bool {
        self.proven.get(node as usize).is_some_and(|&i| i != NONE)
    }

    /// Records the proven value of `node`.
    pub fn prove(&mut self, node: u32, value: Rewards) {
        if self.proven.len() <= node as usize {
            self.proven
                .resize(self.nodes.len().max(node as usize + 1), NONE);
        }
        if self.proven[node as usize] == NONE {
            self.proofs.push(value);
            self.proven[node as usize] = (self.proofs.len() - 1) as u32;
        }
    }

    pub fn new_leaf(&mut self) -> u32 {
        self.nodes.push(Node::leaf());
        (self.nodes.len() - 1) as u32
    }

    pub fn edge_range(&self, node: u32) -> std::ops::Range<usize> {
        let n = &self.nodes[node as usize];
        n.first_edge as usize..(n.first_edge + n.num_edges) as usize
    }

    /// The child reached from `node` by `mv` (sequential nodes), if it exists.
    pub fn child_by_move(&self, node: u32, mv: M) -> Option<u32> {
        let n = &self.nodes[node as usize];
        if n.mover >= SIMULTANEOUS {
            return None;
        }
        let range = self.edge_range(node);
        let i = self.moves[range.clone()].iter().position(|&m| m == mv)?;
        Some(self.edges[range.start + i].child).filter(|&c| c != NONE)
    }

    /// The child reached from the simultaneous `node` by one move per player.
    pub fn child_by_joint(&self, node: u32, moves: &[M]) -> Option<u32> {
        let n = self.nodes[node as usize];
        if n.mover != SIMULTANEOUS {
            return None;
        }
        let sim = &self.sims[n.aux as usize];
        let mut key = 0u64;
        for p in 0..sim.players as usize {
            let lo = n.first_edge as usize + sim.offsets[p] as usize;
            let hi = n.first_edge as usize + sim.offsets[p + 1] as usize;
            let i = self.moves[lo..hi]
                .iter()
                .position(|m| Some(m) == moves.get(p))?;
            key = key * (hi - lo) as u64 + i as u64;
        }
        sim.children.iter().find(|c| c.0 == key).map(|c| c.1)
    }

    /// A new tree holding the subtree below `root`, renumbered (tree reuse).
    pub fn extract(&self, root: u32) -> Tree<M> {
        let mut out = Tree {
            nodes: Vec::with_capacity(self.nodes.len()),
            edges: Vec::with_capacity(self.edges.len()),
            moves: Vec::with_capacity(self.moves.len()),
            extras: Vec::with_capacity(self.extras.len()),
            with_extras: self.with_extras,
            features: Vec::new(),
            feature_count: self.feature_count,
            memo_features: Vec::new(),
            memo: Vec::new(),
            sims: Vec::new(),
            amaf: Vec::with_capacity(self.amaf.len()),
            with_amaf: self.with_amaf,
            // Proofs are not carried over: the terminal nodes are, and the proofs come
            // back as iterations reach them.
            proven: Vec::new(),
            proofs: Vec::new(),
        };
        out.nodes.push(self.nodes[root as usize]);
        let mut stack = vec![(root, 0u32)];
        while let Some((old, new)) = stack.pop() {
            let n = self.nodes[old as usize];
            let first = out.edges.len() as u32;
            let mut copy = n;
            copy.first_edge = first;
            copy.aux = NONE;
            let k = self.feature_count;
            if n.mover == UNEXPANDED && n.aux != NONE {
                out.memo.push(self.memo[n.aux as usize]);
                let m = n.aux as usize;
                out.memo_features
                    .extend_from_slice(&self.memo_features[m * k..(m + 1) * k]);
                copy.aux = (out.memo.len() - 1) as u32;
            }
            let range = self.edge_range(old);
            out.moves.extend_from_slice(&self.moves[range.clone()]);
            if self.with_extras {
                out.extras.extend_from_slice(&self.extras[range.clone()]);
            }
            if self.with_amaf {
                out.amaf.extend_from_slice(&self.amaf[range.clone()]);
            }
            out.features
                .extend_from_slice(&self.features[range.start * k..range.end * k]);
            for e in &self.edges[range] {
                let mut e2 = *e;
                if e.child != NONE {
                    out.nodes.push(self.nodes[e.child as usize]);
                    e2.child = (out.nodes.len() - 1) as u32;
                    stack.push((e.child, e2.child));
                }
                out.edges.push(e2);
            }
            if n.mover == SIMULTANEOUS {
                let mut sim = self.sims[n.aux as usize].clone();
                for c in &mut sim.children {
                    out.nodes.push(self.nodes[c.1 as usize]);
                    let new_child = (out.nodes.len() - 1) as u32;
                    stack.push((c.1, new_child));
                    c.1 = new_child;
                }
                out.sims.push(sim);
                copy.aux = (out.sims.len() - 1) as u32;
            }
            out.nodes[new as usize] = copy;
        }
        out
    }
}
