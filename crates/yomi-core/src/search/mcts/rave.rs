//! RAVE: rapid action value estimation (MC-RAVE, Gelly & Silver 2007 and 2011).
//!
//! In games where a move's value hardly depends on when it is played (a Go point), every
//! iteration says something about all the moves its player made later on the line: the
//! all-moves-as-first (AMAF) value of a child is the mean reward of the iterations through
//! its parent in which the chooser played the child's move at any later point (in the tree
//! or in the playout) before anyone else played it there. AMAF values are available after a
//! handful of iterations but biased; the Monte Carlo value is unbiased but slow to arrive.
//! [`Rave`] blends them, trusting the AMAF value less as the child's own visits grow:
//! `(1 − β)·Q + β·Q̃`.
//!
//! Two schedules for β:
//! - [`RaveSchedule::Hand`] (Gelly & Silver 2007): `β = sqrt(k / (3n + k))`, `k` the
//!   equivalence parameter (at `n = k` visits β is ½);
//! - [`RaveSchedule::MinMse`] (Silver's thesis, Gelly & Silver 2011): `β = ñ / (n + ñ +
//!   4b²·n·ñ)`, which minimises the mean squared error of the blend if the AMAF value's
//!   bias is `b`; here written with the equivalent experience `e = 1/(4b²)` as
//!   `ñ / (n + ñ + n·ñ/e)` (Pachi's form).
//!
//! Prior knowledge (Gelly & Silver's heuristic MC-RAVE): children start with `prior_visits`
//! virtual visits, in both the Monte Carlo and the AMAF statistics, at the value the
//! expander gives in [`ChildStats::prior`] — **read here as a value in `[0, 1]` for the
//! chooser, not a probability** (an [`super::Expander`] written for RAVE sets it, e.g. 0.9
//! for a capture and 0.5 for a move it knows nothing about). With `prior_visits = 0` the
//! prior is ignored. An optional UCB term `c·sqrt(ln N / n)` adds exploration (MoGo and
//! Pachi use none with RAVE: the AMAF values already spread the visits).
//!
//! The search keeps AMAF statistics per edge only for rules with
//! [`super::Selection::READS_AMAF`], and only when the leaf evaluator gives moves AMAF keys
//! ([`super::LeafEvaluator::amaf_key`]) and reports its playout's moves
//! ([`super::LeafEvaluator::amaf_moves`]); other games and rules are untouched. The update
//! follows MoGo: walking the path from the leaf up, a key counts for the player who played
//! it first below (and at) each node.
//!
//! Thread safety: immutable during a search.

use super::select::{two_ln, ChildStats, Selection};

/// How β, the AMAF weight, falls with a child's visits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RaveSchedule {
    /// `β = sqrt(k / (3n + k))`.
    Hand {
        /// The equivalence parameter k (visits at which β is ½).
        k: f64,
    },
    /// `β = ñ / (n + ñ + n·ñ/e)`.
    MinMse {
        /// The equivalent experience e = 1/(4b²), b the AMAF bias.
        equivalence: f64,
    },
}

/// MC-RAVE selection (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rave {
    /// The β schedule.
    pub schedule: RaveSchedule,
    /// Exploration constant of the optional UCB term (0: none).
    pub c: f64,
    /// Virtual visits at the expander's prior value, added to both statistics.
    pub prior_visits: f64,
    /// The score of a child with neither visits nor prior (tried first when above every
    /// value, as in UCT).
    pub fpu: f64,
}

impl Default for Rave {
    fn default() -> Self {
        Rave {
            schedule: RaveSchedule::MinMse {
                equivalence: 3000.0,
            },
            c: 0.0,
            prior_visits: 0.0,
            fpu: 1.1,
        }
    }
}

impl Rave {
    /// β for a child with `n` visits and `amaf_n` AMAF visits (virtual visits included).
    #[inline]
    pub fn beta(&self, n: f64, amaf_n: f64) -> f64 {
        match self.schedule {
            RaveSchedule::Hand { k } => {
                if k <= 0.0 {
                    0.0
                } else {
                    (k / (3.0 * n + k)).sqrt()
                }
            }
            RaveSchedule::MinMse { equivalence } => {
                let d = n + amaf_n + n * amaf_n / equivalence.max(1e-9);
                if d <= 0.0 {
                    0.0
                } else {
                    amaf_n / d
                }
            }
        }
    }
}

impl Selection for Rave {
    const READS_EXPANDER: bool = true;
    const READS_AMAF: bool = true;
    type NodeTerm = f64;

    #[inline]
    fn prepare(&self, visits: u32) -> f64 {
        if self.c > 0.0 {
            two_ln(visits) * 0.5
        } else {
            0.0
        }
    }

    #[inline]
    fn score(&self, ln_n: f64, child: &ChildStats<'_>) -> f64 {
        let p0 = self.prior_visits;
        let pv = p0 * child.prior as f64;
        let n = child.visits as f64 + p0;
        let an = child.amaf_visits as f64 + p0;
        if n <= 0.0 && an <= 0.0 {
            return self.fpu;
        }
        let q = if n > 0.0 { (child.total + pv) / n } else { 0.0 };
        let value = if an > 0.0 {
            let qa = (child.amaf_total + pv) / an;
            let b = if n > 0.0 { self.beta(n, an) } else { 1.0 };
            (1.0 - b) * q + b * qa
        } else {
            q
        };
        if self.c > 0.0 {
            value + self.c * (ln_n / (child.visits as f64 + 1.0)).sqrt()
        } else {
            value
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Turn};
    use crate::player::Rewards;
    use crate::rng::Rng;
    use crate::search::mcts::{LeafEvaluator, MctsParams, NoExpander, Ucb1, Worker};
    use crate::testing::Nim;

    /// Uniform playouts on Nim that report their moves (take 1, 2 or 3: the key is the
    /// amount), so that the search keeps AMAF statistics.
    #[derive(Clone, Default)]
    struct NimAmaf {
        played: Vec<(u8, u32)>,
    }

    impl LeafEvaluator<Nim> for NimAmaf {
        fn evaluate(
            &mut self,
            game: &Nim,
            state: &mut <Nim as Game>::State,
            rng: &mut Rng,
            buf: &mut Vec<u32>,
        ) -> Rewards {
            self.played.clear();
            while let Turn::Player(p) = game.turn(state) {
                let Some(mv) = game.random_move(state, rng, buf) else {
                    break;
                };
                self.played.push((p.0, mv));
                game.apply(state, mv);
            }
            game.returns(state)
        }
        fn amaf_key(&self, _: &Nim, mv: u32) -> Option<u32> {
            Some(mv)
        }
        fn amaf_key_count(&self, _: &Nim) -> usize {
            4
        }
        fn amaf_moves(&self) -> &[(u8, u32)] {
            &self.played
        }
    }

    #[test]
    fn amaf_statistics_cover_the_real_ones_and_spread_to_siblings() {
        let game = Nim::new(9);
        let root = game.initial_state();
        let mut w = Worker::new(
            MctsParams::default(),
            Rave::default(),
            NimAmaf::default(),
            NoExpander,
            5,
        );
        w.run(&game, &root, 3000, None);
        let t = &w.tree;
        assert_eq!(t.amaf.len(), t.edges.len());
        let mut spread = 0;
        for (e, a) in t.edges.iter().zip(&t.amaf) {
            // The edge's own move always counts as played first by its chooser.
            assert!(a.visits >= e.visits, "{} < {}", a.visits, e.visits);
            assert!(a.total as f64 <= a.visits as f64 + 1e-3);
            spread += (a.visits > e.visits) as usize;
        }
        assert!(spread > 0, "later plays credit the siblings");
        // Taking 1 leaves 8, a lost heap for the opponent: the search finds it.
        let best = w
            .root_children(crate::Player(0))
            .into_iter()
            .max_by_key(|c| c.visits)
            .map(|c| c.mv);
        assert_eq!(best, Some(1));
    }

    #[test]
    fn other_rules_keep_no_amaf_statistics() {
        let game = Nim::new(9);
        let mut w = Worker::new(
            MctsParams::default(),
            Ucb1::default(),
            NimAmaf::default(),
            NoExpander,
            5,
        );
        w.run(&game, &game.initial_state(), 500, None);
        assert!(w.tree.amaf.is_empty());
    }

    fn child(visits: u32, total: f64, amaf_visits: u32, amaf_total: f64) -> ChildStats<'static> {
        ChildStats {
            chooser: crate::Player(0),
            visits,
            total,
            prior: 0.5,
            eval: 0.0,
            features: &[],
            amaf_visits,
            amaf_total,
        }
    }

    #[test]
    fn hand_schedule_is_half_at_k() {
        let r = Rave {
            schedule: RaveSchedule::Hand { k: 300.0 },
            ..Rave::default()
        };
        assert!((r.beta(300.0, 0.0) - 0.5).abs() < 1e-12);
        assert!((r.beta(0.0, 0.0) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn blend_moves_from_amaf_to_mc_value() {
        let r = Rave::default();
        // Few visits: the AMAF value (0.9) dominates the Monte Carlo value (0.1).
        let early = r.score(0.0, &child(2, 0.2, 1000, 900.0));
        assert!(early > 0.8, "{early}");
        // Many visits: the Monte Carlo value takes over.
        let late = r.score(0.0, &child(100_000, 10_000.0, 1000, 900.0));
        assert!(late < 0.2, "{late}");
    }

    #[test]
    fn prior_counts_as_virtual_visits() {
        let r = Rave {
            prior_visits: 10.0,
            ..Rave::default()
        };
        let mut good = child(0, 0.0, 0, 0.0);
        good.prior = 0.9;
        let mut bad = good;
        bad.prior = 0.2;
        assert!((r.score(0.0, &good) - 0.9).abs() < 1e-6);
        assert!(r.score(0.0, &good) > r.score(0.0, &bad));
        // Without priors, an untried child gets the first-play urgency.
        assert_eq!(Rave::default().score(0.0, &child(0, 0.0, 0, 0.0)), 1.1);
    }
}
