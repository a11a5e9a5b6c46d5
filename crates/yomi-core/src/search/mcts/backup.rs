//! The backup: an iteration's result flows up the path it took.
//!
//! Every edge on the path gets a visit and the reward of the player who chose it (rewards
//! normalised to `[0, 1]`, so every selection rule reads means in one range); every node
//! on it gets a visit (once per joint move at a simultaneous node); the leaf evaluator's
//! features are summed into the edges when the selection rule reads them; and for RAVE
//! the all-moves-as-first statistics of the siblings along the path are credited.
//!
//! Thread safety: runs on the worker's own tree, like the rest of [`Worker`].

use super::results::PROOF_EPSILON;
use super::tree::{NONE, SIMULTANEOUS, TERMINAL};
use super::{Expander, LeafEvaluator, Selection};
use super::{Outcome, Step, Worker};
use crate::game::Game;
use crate::player::{Player, Rewards};

impl<G, S, L, X> Worker<G, S, L, X>
where
    G: Game,
    S: Selection,
    L: LeafEvaluator<G>,
    X: Expander<G>,
{
    /// Backs `outcome` up along `path`, ending at `leaf_node` (see [`Worker::descend`]).
    #[inline(always)]
    pub(super) fn backup(
        &mut self,
        game: &G,
        path: &[Step],
        leaf_node: Option<u32>,
        outcome: &Outcome,
    ) {
        if let Some(i) = leaf_node {
            self.tree.nodes[i as usize].visits += 1;
        }
        for step in path {
            let e = &mut self.tree.edges[step.edge as usize];
            e.visits += 1;
            e.total += outcome.rewards.get(Player(step.player));
            if step.count_node {
                self.tree.nodes[step.node as usize].visits += 1;
            }
        }
        if self.solving && outcome.terminal {
            self.propagate_proof(path, leaf_node, outcome.rewards);
        }
        if S::READS_AMAF && self.tree.with_amaf {
            self.update_amaf(game, path, outcome.rewards, outcome.played_out);
        }
        let k = self.tree.feature_count;
        if k > 0 && !outcome.terminal {
            let source: &[f64] = match outcome.features_from_memo {
                Some(m) => &self.tree.memo_features[m * k..(m + 1) * k],
                None => &self.leaf.features()[..k],
            };
            for step in path {
                let at = step.edge as usize * k;
                for (sum, &f) in self.tree.features[at..at + k].iter_mut().zip(source) {
                    *sum += f;
                }
            }
        }
    }

    /// MCTS-Solver's backup, after an iteration that ended at a leaf of known value
    /// (`value`: terminal or proven): records the leaf's proof, gives the edge into it its
    /// exact mean, and walks up while each parent becomes proven in turn. A parent is
    /// proven when a proven child gives its mover the highest reward there is (the mover
    /// takes it), or when every child is proven (the mover's best of them). Simultaneous
    /// nodes are never proven (a joint choice's value is not the max of one player's).
    fn propagate_proof(&mut self, path: &[Step], leaf_node: Option<u32>, value: Rewards) {
        let Some(mut child) = leaf_node else {
            return;
        };
        if self.tree.proof(child).is_none() {
            if self.tree.nodes[child as usize].mover != TERMINAL {
                return;
            }
            self.tree.prove(child, value);
        }
        for step in path.iter().rev() {
            if self.tree.nodes[step.node as usize].mover >= SIMULTANEOUS {
                return;
            }
            let v = self.tree.proof(child).expect("proven above");
            let e = &mut self.tree.edges[step.edge as usize];
            e.total = v.get(Player(step.player)) * f64::from(e.visits);
            match self.proven_value_of(step.node) {
                Some(p) => self.tree.prove(step.node, p),
                None => return,
            }
            child = step.node;
        }
    }

    /// The value of the sequential `node` if its children prove it (see
    /// [`Worker::propagate_proof`]).
    fn proven_value_of(&self, node: u32) -> Option<Rewards> {
        let mover = Player(self.tree.nodes[node as usize].mover);
        let mut best: Option<Rewards> = None;
        let mut all = true;
        for e in self.tree.edge_range(node) {
            let c = self.tree.edges[e].child;
            match (c != NONE).then(|| self.tree.proof(c)).flatten() {
                Some(v) => {
                    if v.get(mover) >= 1.0 - PROOF_EPSILON {
                        return Some(v);
                    }
                    if best.is_none_or(|b| v.get(mover) > b.get(mover)) {
                        best = Some(v);
                    }
                }
                None => all = false,
            }
        }
        if all {
            best
        } else {
            None
        }
    }

    /// RAVE's backup: walking `path` from the leaf up, credits the reward to every sibling
    /// edge whose move the choosing player played first at or below that node (the
    /// playout's moves from [`LeafEvaluator::amaf_moves`], then the tree's).
    fn update_amaf(&mut self, game: &G, path: &[Step], rewards: Rewards, playout: bool) {
        let keys = self.leaf.amaf_key_count(game);
        if keys == 0 {
            return;
        }
        if self.amaf_first.len() < keys {
            self.amaf_first.resize(keys, u8::MAX);
        }
        self.amaf_touched.clear();
        if playout {
            // Backwards, so that the earliest play of a key is the one that stays.
            for &(player, key) in self.leaf.amaf_moves().iter().rev() {
                if let Some(slot) = self.amaf_first.get_mut(key as usize) {
                    *slot = player;
                    self.amaf_touched.push(key);
                }
            }
        }
        for step in path.iter().rev() {
            if !step.count_node {
                // Simultaneous nodes: AMAF is not defined for joint moves.
                continue;
            }
            let key = self.tree.amaf[step.edge as usize].key;
            if let Some(slot) = self.amaf_first.get_mut(key as usize) {
                *slot = step.player;
                self.amaf_touched.push(key);
            }
            let n = self.tree.nodes[step.node as usize];
            if n.mover == SIMULTANEOUS {
                continue;
            }
            let reward = rewards.get(Player(step.player)) as f32;
            let lo = n.first_edge as usize;
            let hi = lo + n.num_edges as usize;
            for a in &mut self.tree.amaf[lo..hi] {
                if self.amaf_first.get(a.key as usize) == Some(&step.player) {
                    a.visits += 1;
                    a.total += reward;
                }
            }
        }
        for &key in &self.amaf_touched {
            self.amaf_first[key as usize] = u8::MAX;
        }
    }
}
