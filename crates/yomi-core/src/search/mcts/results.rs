//! Search results and the choice of the move to play.
//!
//! Thread safety: plain data.

use std::time::Duration;

use super::params::FinalMove;
use crate::rng::Rng;

/// Statistics of one root move, summed over workers and determinizations.
#[derive(Clone, Debug, PartialEq)]
pub struct RootChild<M> {
    /// The move.
    pub mv: M,
    /// Visits through this move.
    pub visits: u64,
    /// Summed normalised reward (in `[0, 1]` per visit) of the searching player.
    pub total: f64,
    /// The prior the expander gave the move.
    pub prior: f32,
    /// Sums over the visits of the leaf evaluator's extra statistics
    /// ([`super::LeafEvaluator::features`]); empty when it reports none.
    pub features: Vec<f64>,
    /// The searching player's exact normalised value of the move, when the solver proved
    /// it ([`super::MctsParams::solver`]).
    pub proven: Option<f64>,
}

impl<M> RootChild<M> {
    /// Mean normalised reward, or `None` before any visit.
    pub fn mean(&self) -> Option<f64> {
        (self.visits > 0).then(|| self.total / self.visits as f64)
    }

    /// The solver proved the move gives the searching player the highest reward.
    pub fn proven_won(&self) -> bool {
        self.proven.is_some_and(|v| v >= 1.0 - PROOF_EPSILON)
    }

    /// The solver proved the move gives the searching player the lowest reward.
    pub fn proven_lost(&self) -> bool {
        self.proven.is_some_and(|v| v <= PROOF_EPSILON)
    }
}

/// How close to the top (bottom) of the normalised range a proven value must be to count
/// as a win (loss).
pub(crate) const PROOF_EPSILON: f64 = 1e-9;

/// What one search found.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The searching player's root moves, in the game's order.
    pub children: Vec<RootChild<M>>,
    /// Iterations run, over all workers.
    pub iterations: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
    /// Nodes in the trees at the end, over all workers.
    pub nodes: usize,
    /// A [`crate::search::StopSignal`] ended the search before its budget did: the
    /// statistics are those of the trees at that moment (maybe without any visit).
    pub stopped: bool,
}

impl<M: Copy> SearchResult<M> {
    /// The estimated value of the root for the searching player (mean over all visits),
    /// normalised to `[0, 1]`.
    pub fn root_value(&self) -> Option<f64> {
        let v: u64 = self.children.iter().map(|c| c.visits).sum();
        let t: f64 = self.children.iter().map(|c| c.total).sum();
        (v > 0).then(|| t / v as f64)
    }

    /// Visits over all root moves (0 when a search was stopped before its first iteration).
    pub fn root_visits(&self) -> u64 {
        self.children.iter().map(|c| c.visits).sum()
    }

    /// Iterations per second.
    pub fn rate(&self) -> f64 {
        self.iterations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The move `rule` picks, or `None` when there are no children. Ties go to the first
    /// in the game's order (except under Boltzmann sampling).
    pub fn choose(&self, rule: FinalMove, rng: &mut Rng) -> Option<M> {
        if self.children.is_empty() {
            return None;
        }
        // A proven win is played whatever the rule; proven losses are avoided while
        // another move is left.
        if let Some(win) = self.children.iter().find(|c| c.proven_won()) {
            return Some(win.mv);
        }
        let lost = self.children.iter().filter(|c| c.proven_lost()).count();
        if lost > 0 && lost < self.children.len() {
            let rest = SearchResult {
                children: self
                    .children
                    .iter()
                    .filter(|c| !c.proven_lost())
                    .cloned()
                    .collect(),
                iterations: self.iterations,
                elapsed: self.elapsed,
                nodes: self.nodes,
                stopped: self.stopped,
            };
            return rest.choose(rule, rng);
        }
        let best_by = |key: &dyn Fn(&RootChild<M>) -> f64| {
            let mut best = 0;
            for (i, c) in self.children.iter().enumerate() {
                if key(c) > key(&self.children[best]) {
                    best = i;
                }
            }
            self.children[best].mv
        };
        Some(match rule {
            FinalMove::MostVisits => best_by(&|c| c.visits as f64),
            FinalMove::BestMean => best_by(&|c| c.mean().unwrap_or(f64::NEG_INFINITY)),
            FinalMove::Boltzmann { temperature } => {
                if temperature <= 1e-6 {
                    return self.choose(FinalMove::MostVisits, rng);
                }
                // Scale by the largest count before the power, to stay finite.
                let max = self
                    .children
                    .iter()
                    .map(|c| c.visits)
                    .max()
                    .unwrap_or(0)
                    .max(1) as f64;
                let w: Vec<f64> = self
                    .children
                    .iter()
                    .map(|c| (c.visits as f64 / max).powf(1.0 / temperature))
                    .collect();
                match rng.weighted_index(&w) {
                    Some(i) => self.children[i].mv,
                    None => self.children[rng.below(self.children.len())].mv,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result() -> SearchResult<u8> {
        let c = |mv, visits, total| RootChild {
            proven: None,
            features: Vec::new(),
            mv,
            visits,
            total,
            prior: 0.0,
        };
        SearchResult {
            children: vec![c(0, 10, 9.0), c(1, 80, 48.0), c(2, 10, 3.0)],
            iterations: 100,
            elapsed: Duration::from_millis(1),
            nodes: 1,
            stopped: false,
        }
    }

    #[test]
    fn final_move_rules() {
        let r = result();
        let mut rng = Rng::seed_from_u64(0);
        assert_eq!(r.choose(FinalMove::MostVisits, &mut rng), Some(1));
        assert_eq!(r.choose(FinalMove::BestMean, &mut rng), Some(0));
        assert!((r.root_value().unwrap() - 0.6).abs() < 1e-12);
        let mut counts = [0u32; 3];
        for _ in 0..10_000 {
            counts[r
                .choose(FinalMove::Boltzmann { temperature: 1.0 }, &mut rng)
                .unwrap() as usize] += 1;
        }
        // Probabilities 0.1, 0.8, 0.1.
        assert!((7_600..8_400).contains(&counts[1]), "{counts:?}");
        let mut counts = [0u32; 3];
        for _ in 0..1000 {
            counts[r
                .choose(FinalMove::Boltzmann { temperature: 0.1 }, &mut rng)
                .unwrap() as usize] += 1;
        }
        assert!(counts[1] > 990, "{counts:?}");
    }
}
