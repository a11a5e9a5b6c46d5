//! Selection: the score each child gets when the search descends through a node.
//!
//! Rewards seen here are normalised to `[0, 1]` for the player choosing at the node (the
//! game's reward bounds map to 0 and 1), so constants mean the same in every game.
//!
//! Thread safety: selection rules are immutable during a search and `Sync`.

/// What a selection rule may read about one child.
#[derive(Clone, Copy, Debug)]
pub struct ChildStats<'a> {
    /// The player choosing among these children.
    pub chooser: crate::Player,
    /// Visits of the child's edge.
    pub visits: u32,
    /// Summed normalised reward of the chooser over those visits.
    pub total: f64,
    /// Prior probability from the expander (uniform when it sets none).
    pub prior: f32,
    /// Static evaluation of the child from the expander, normalised for the chooser.
    pub eval: f32,
    /// Sums over the child's visits of the leaf evaluator's extra statistics
    /// ([`super::LeafEvaluator::features`]); empty unless the rule sets
    /// [`Selection::READS_FEATURES`] and the evaluator produces some.
    pub features: &'a [f64],
    /// All-moves-as-first visits: iterations through the parent in which the chooser
    /// played this move later on the line (tree or playout) before anyone else played it
    /// ([`super::rave`]); 0 unless the rule sets [`Selection::READS_AMAF`] and the
    /// evaluator gives AMAF keys.
    pub amaf_visits: u32,
    /// The chooser's summed normalised reward over those iterations.
    pub amaf_total: f64,
}

/// A selection rule. `prepare` runs once per node visit, `score` once per child.
pub trait Selection: Clone + Send + Sync + 'static {
    /// Whether `score` reads [`ChildStats::prior`] or [`ChildStats::eval`]; when false the
    /// search leaves them at 0 and skips loading them.
    const READS_EXPANDER: bool;
    /// Whether `score` reads [`ChildStats::features`].
    const READS_FEATURES: bool = false;
    /// Whether `score` reads [`ChildStats::amaf_visits`] and [`ChildStats::amaf_total`]
    /// (the search keeps AMAF statistics only for such rules).
    const READS_AMAF: bool = false;
    /// Whatever the rule precomputes from the parent's visit count.
    type NodeTerm: Copy;
    /// Precomputation for a parent with `visits` visits.
    fn prepare(&self, visits: u32) -> Self::NodeTerm;
    /// The score of a child; the child with the highest score is chosen (first on ties).
    fn score(&self, node: Self::NodeTerm, child: &ChildStats<'_>) -> f64;
}

/// Score given to unvisited children by the UCB rules: they are tried first.
const UNVISITED: f64 = 1e9;

/// Visit counts below this get `2 ln n` from a table: the logarithm is a libm call that
/// cost about 8 % of a connect-four UCT iteration, and most nodes have few visits.
const LN_TABLE_SIZE: usize = 4096;

static TWO_LN: std::sync::LazyLock<Box<[f64]>> = std::sync::LazyLock::new(|| {
    (0..LN_TABLE_SIZE)
        .map(|n| 2.0 * (n.max(1) as f64).ln())
        .collect()
});

/// `2 ln(max(n, 1))`: exact below 4096 (a table); above, `n` is shifted into the table's
/// top half and `2 · shift · ln 2` added back, so the error is below `2 ln(1 + 1/2048)`
/// ≈ 0.001 — far inside the noise of an exploration term, and no libm call.
#[inline]
pub fn two_ln(n: u32) -> f64 {
    let table = &*TWO_LN;
    if (n as usize) < LN_TABLE_SIZE {
        return table[n as usize];
    }
    let shift = (32 - n.leading_zeros()) - 12;
    table[(n >> shift) as usize] + 2.0 * std::f64::consts::LN_2 * shift as f64
}

/// UCB1: `X̄ᵢ + c·sqrt(2 ln n / nᵢ)`; unvisited children first, in the expander's order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ucb1 {
    /// Exploration constant c.
    pub c: f64,
}

impl Default for Ucb1 {
    fn default() -> Self {
        // c = 1/sqrt(2) gives Kocsis & Szepesvári's UCT for rewards in [0, 1].
        Ucb1 {
            c: std::f64::consts::FRAC_1_SQRT_2,
        }
    }
}

impl Selection for Ucb1 {
    const READS_EXPANDER: bool = false;
    type NodeTerm = f64;
    #[inline]
    fn prepare(&self, visits: u32) -> f64 {
        two_ln(visits)
    }
    #[inline]
    fn score(&self, two_ln_n: f64, child: &ChildStats<'_>) -> f64 {
        if child.visits == 0 {
            return UNVISITED;
        }
        // One division instead of two.
        let inv_n = 1.0 / child.visits as f64;
        child.total * inv_n + self.c * (two_ln_n * inv_n).sqrt()
    }
}

/// UCB with an evaluation term (UCT+ and the Othello paper's eq. 2):
/// `X̄ᵢ + w·Eᵢ + c·sqrt(2 ln n / nᵢ)`, where Eᵢ is the expander's evaluation of child i.
/// Unvisited children are tried first, best evaluation first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UcbEval {
    /// Exploration constant c.
    pub c: f64,
    /// Weight w of the evaluation term.
    pub weight: f64,
}

impl Selection for UcbEval {
    const READS_EXPANDER: bool = true;
    type NodeTerm = f64;
    #[inline]
    fn prepare(&self, visits: u32) -> f64 {
        two_ln(visits)
    }
    #[inline]
    fn score(&self, two_ln_n: f64, child: &ChildStats<'_>) -> f64 {
        let e = self.weight * child.eval as f64;
        if child.visits == 0 {
            return UNVISITED + e;
        }
        let inv_n = 1.0 / child.visits as f64;
        child.total * inv_n + e + self.c * (two_ln_n * inv_n).sqrt()
    }
}

/// UCB with the evaluation as prior knowledge (Gelly & Silver's virtual visits, Sancho's
/// heuristic seeding): a child starts with `visits` virtual visits at the expander's
/// evaluation Eᵢ, `(Sᵢ + v·Eᵢ) / (nᵢ + v) + c·sqrt(2 ln n / (nᵢ + v))`, so the evaluation
/// steers the first visits and fades as real ones come. With `v = 0` this is UCB1
/// (unvisited children first, best evaluation first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UcbPrior {
    /// Exploration constant c.
    pub c: f64,
    /// Virtual visits v at the evaluation.
    pub visits: f64,
}

impl Selection for UcbPrior {
    const READS_EXPANDER: bool = true;
    type NodeTerm = f64;
    #[inline]
    fn prepare(&self, visits: u32) -> f64 {
        two_ln(visits)
    }
    #[inline]
    fn score(&self, two_ln_n: f64, child: &ChildStats<'_>) -> f64 {
        let e = child.eval as f64;
        let n = child.visits as f64 + self.visits;
        if n <= 0.0 {
            return UNVISITED + e;
        }
        let inv_n = 1.0 / n;
        (child.total + self.visits * e) * inv_n + self.c * (two_ln_n * inv_n).sqrt()
    }
}

/// PUCT (AlphaZero): `Q(i) + c·Pᵢ·sqrt(n) / (1 + nᵢ)`, with `Q = fpu` for unvisited children.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Puct {
    /// Exploration constant c_puct.
    pub c: f64,
    /// First-play urgency: the value assumed for unvisited children, in `[0, 1]`.
    pub fpu: f64,
}

impl Default for Puct {
    fn default() -> Self {
        Puct { c: 1.5, fpu: 0.5 }
    }
}

impl Selection for Puct {
    const READS_EXPANDER: bool = true;
    type NodeTerm = f64;
    #[inline]
    fn prepare(&self, visits: u32) -> f64 {
        (visits.max(1) as f64).sqrt()
    }
    #[inline]
    fn score(&self, sqrt_n: f64, child: &ChildStats<'_>) -> f64 {
        let q = if child.visits == 0 {
            self.fpu
        } else {
            child.total / child.visits as f64
        };
        q + self.c * child.prior as f64 * sqrt_n / (1.0 + child.visits as f64)
    }
}

/// Any of the built-in rules, chosen at run time (for agents built from spec strings). The
/// typed rules above are faster in the inner loop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AnySelection {
    /// See [`Ucb1`].
    Ucb1(Ucb1),
    /// See [`UcbEval`].
    UcbEval(UcbEval),
    /// See [`UcbPrior`].
    UcbPrior(UcbPrior),
    /// See [`Puct`].
    Puct(Puct),
}

impl Selection for AnySelection {
    const READS_EXPANDER: bool = true;
    type NodeTerm = (f64, f64);
    #[inline]
    fn prepare(&self, visits: u32) -> (f64, f64) {
        match self {
            AnySelection::Ucb1(s) => (s.prepare(visits), 0.0),
            AnySelection::UcbEval(s) => (s.prepare(visits), 0.0),
            AnySelection::UcbPrior(s) => (s.prepare(visits), 0.0),
            AnySelection::Puct(s) => (s.prepare(visits), 0.0),
        }
    }
    #[inline]
    fn score(&self, t: (f64, f64), child: &ChildStats<'_>) -> f64 {
        match self {
            AnySelection::Ucb1(s) => s.score(t.0, child),
            AnySelection::UcbEval(s) => s.score(t.0, child),
            AnySelection::UcbPrior(s) => s.score(t.0, child),
            AnySelection::Puct(s) => s.score(t.0, child),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn child(visits: u32, total: f64, prior: f32, eval: f32) -> ChildStats<'static> {
        ChildStats {
            chooser: crate::Player(0),
            features: &[],
            visits,
            total,
            prior,
            eval,
            amaf_visits: 0,
            amaf_total: 0.0,
        }
    }

    #[test]
    fn two_ln_table_matches_ln() {
        for n in [4096u32, 4097, 8191, 65_537, 1_000_000, u32::MAX] {
            assert!((two_ln(n) - 2.0 * (n as f64).ln()).abs() < 1e-3, "{n}");
        }
        for n in [0u32, 1, 2, 3, 100, 4095] {
            assert!(
                (two_ln(n) - 2.0 * (n.max(1) as f64).ln()).abs() < 1e-12,
                "{n}"
            );
        }
    }

    #[test]
    fn ucb1_matches_formula() {
        let s = Ucb1 { c: 0.7 };
        let t = s.prepare(100);
        let got = s.score(t, &child(10, 6.0, 0.0, 0.0));
        let want = 0.6 + 0.7 * (2.0 * 100f64.ln() / 10.0).sqrt();
        assert!((got - want).abs() < 1e-12);
        assert!(s.score(t, &child(0, 0.0, 0.0, 0.0)) > got);
    }

    #[test]
    fn ucb_eval_adds_weighted_evaluation() {
        let s = UcbEval {
            c: 0.7,
            weight: 0.5,
        };
        let plain = Ucb1 { c: 0.7 };
        let c = child(10, 6.0, 0.0, 0.8);
        let d = s.score(s.prepare(100), &c) - plain.score(plain.prepare(100), &c);
        assert!((d - 0.4).abs() < 1e-6);
        // Unvisited: higher evaluation first.
        assert!(s.score(1.0, &child(0, 0.0, 0.0, 0.9)) > s.score(1.0, &child(0, 0.0, 0.0, 0.1)));
    }

    #[test]
    fn ucb_prior_counts_the_evaluation_as_virtual_visits_that_fade() {
        let s = UcbPrior {
            c: 0.7,
            visits: 5.0,
        };
        let t = s.prepare(100);
        // 10 visits worth 6 and 5 virtual ones at 0.9: mean (6 + 4.5) / 15.
        let got = s.score(t, &child(10, 6.0, 0.0, 0.9));
        let want = 10.5 / 15.0 + 0.7 * (2.0 * 100f64.ln() / 15.0).sqrt();
        assert!((got - want).abs() < 1e-6, "{got} {want}");
        // Unvisited children are ranked by their evaluation, not all tried first.
        let good = s.score(t, &child(0, 0.0, 0.0, 0.9));
        let bad = s.score(t, &child(0, 0.0, 0.0, 0.1));
        assert!(good > bad && good < UNVISITED, "{good} {bad}");
        // Many real visits outweigh the prior: a child worth 0.2 over 10,000 visits scores
        // near 0.2 whatever it was evaluated at.
        let seen = s.score(s.prepare(20_000), &child(10_000, 2_000.0, 0.0, 1.0));
        assert!((seen - 0.2).abs() < 0.05, "{seen}");
        // No virtual visits: UCB1.
        let plain = UcbPrior {
            c: 0.7,
            visits: 0.0,
        };
        let ucb1 = Ucb1 { c: 0.7 };
        let c = child(10, 6.0, 0.0, 0.9);
        assert!((plain.score(t, &c) - ucb1.score(t, &c)).abs() < 1e-12);
    }

    #[test]
    fn puct_uses_prior_and_fpu() {
        let s = Puct { c: 2.0, fpu: 0.25 };
        let t = s.prepare(16);
        let got = s.score(t, &child(3, 1.5, 0.5, 0.0));
        assert!((got - (0.5 + 2.0 * 0.5 * 4.0 / 4.0)).abs() < 1e-12);
        let unvisited = s.score(t, &child(0, 0.0, 0.1, 0.0));
        assert!((unvisited - (0.25 + 2.0 * 0.1 * 4.0)).abs() < 1e-6);
    }

    #[test]
    fn any_selection_agrees_with_typed() {
        let c = child(7, 3.0, 0.2, 0.4);
        let rules = [
            (
                AnySelection::Ucb1(Ucb1 { c: 1.0 }),
                Ucb1 { c: 1.0 }.score(2.0 * 50f64.ln(), &c),
            ),
            (
                AnySelection::Puct(Puct::default()),
                Puct::default().score(50f64.sqrt(), &c),
            ),
        ];
        for (any, want) in rules {
            assert!((any.score(any.prepare(50), &c) - want).abs() < 1e-12);
        }
    }
}
