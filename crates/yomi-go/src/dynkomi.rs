//! Dynamic komi (Pachi's three schemes) as a core [`LeafEvaluator`]: light playouts judged
//! against the game's komi plus an *extra komi* that the evaluator adjusts during the search,
//! so that the root player's win rate stays informative when the game is already decided.
//!
//! # Convention
//! The extra komi `x` is in points from the **root player's** side: a playout counts as a
//! win for the root player when its area margin (its area minus the opponent's, with the
//! game's komi) is above `x`, a loss below, a draw at `x`. Positive `x` handicaps the root
//! player (it is winning too easily), negative `x` gives it points (it is losing). Terminal
//! tree nodes are judged the same way ([`LeafEvaluator::evaluate_terminal`]). If the root
//! player changes between searches the extra komi starts again from 0.
//!
//! # The schemes (parameters as in Pachi; see the spec's section 6)
//! - **Linear handicap** ([`LinearKomi`]): at the start of every search,
//!   `x = H·v·(M − m)/M` for move number `m < M` (0 afterwards), with `H` handicap stones
//!   worth `v` = 8 points when the root player is Black and 1 when White; plus a ratchet
//!   bonus updated every `period` playouts from that period's win rate `w`: above the green
//!   zone (0.85) the bonus grows by a point, but never above the ratchet; below the orange
//!   zone (0.8) it drops by `drop` (4) points and the ratchet is set there.
//! - **Score-situational** ([`ScoreKomi`]): every `period` (1000) playouts,
//!   `x += p · E[margin − x]` over that period's playouts, with
//!   `p = min(cap, 1 / (1 + exp(−rate·(progress − midpoint))))`, rate −18, midpoint 0.65,
//!   cap 0.9, and progress = root move number / N² (capped at 1).
//! - **Value-situational** ([`ValueKomi`]): every `period` playouts, from the period's win
//!   rate `w`: below the red zone (0.45) take a point (`x −= 1`) and set the ratchet at the
//!   new `x`; at or above the green zone (0.50) give a point back (`x += 1`), never above
//!   the ratchet.
//!
//! Updates happen inside each search worker (with `threads > 1` every worker adapts its own
//! komi from its own playouts) and carry over to the next search of the same agent. Unlike
//! Pachi, dynamic komi is never switched off near the end of the game (the paper's
//! comparison with "DAKV on" needs it on).

use std::sync::Arc;
use std::time::Duration;

use yomi_core::registry::{builder, AgentRegistry};
use yomi_core::search::mcts::{LeafEvaluator, Mcts, MctsAgent, MctsParams, NoExpander, Ucb1};
use yomi_core::search::Budget;
use yomi_core::spec::{ParamDoc, SpecError, SpecParams};
use yomi_core::{Game, Rewards, Rng};

use crate::game::{GoGame, GoState};
use crate::vertex::{Color, Vertex};

/// Linear-handicap dynamic komi with a win-rate ratchet; see the [module docs](self).
#[derive(Clone, Debug, PartialEq)]
pub struct LinearKomi {
    /// Handicap stones `H`.
    pub handicap: f64,
    /// Points per handicap stone when the root player is Black.
    pub black_value: f64,
    /// Points per handicap stone when the root player is White.
    pub white_value: f64,
    /// Moves `M` over which the extra komi falls to 0.
    pub moves: usize,
    /// Win rate above which the bonus grows by a point.
    pub green: f64,
    /// Win rate below which the bonus drops by [`LinearKomi::drop`].
    pub orange: f64,
    /// Points dropped in the orange zone.
    pub drop: f64,
}

impl Default for LinearKomi {
    fn default() -> Self {
        LinearKomi {
            handicap: 0.0,
            black_value: 8.0,
            white_value: 1.0,
            moves: 200,
            green: 0.85,
            orange: 0.8,
            drop: 4.0,
        }
    }
}

impl LinearKomi {
    /// The linear part `H·v·(M − m)/M` for a search whose root player is `root` at move
    /// number `m`.
    pub fn base(&self, root: Color, move_number: usize) -> f64 {
        if move_number >= self.moves || self.moves == 0 {
            return 0.0;
        }
        let v = match root {
            Color::Black => self.black_value,
            Color::White => self.white_value,
        };
        self.handicap * v * (self.moves - move_number) as f64 / self.moves as f64
    }

    /// The ratchet after a period with win rate `w`: returns the new `(bonus, ratchet)`.
    pub fn ratchet(&self, bonus: f64, ratchet: f64, w: f64) -> (f64, f64) {
        if w > self.green {
            ((bonus + 1.0).min(ratchet), ratchet)
        } else if w < self.orange {
            let b = bonus - self.drop;
            (b, b)
        } else {
            (bonus, ratchet)
        }
    }
}

/// Score-situational dynamic komi; see the [module docs](self).
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreKomi {
    /// Rate of the progress sigmoid (negative: the weight falls as the game goes on).
    pub rate: f64,
    /// Progress at which the weight is one half.
    pub midpoint: f64,
    /// Largest weight.
    pub cap: f64,
}

impl Default for ScoreKomi {
    fn default() -> Self {
        ScoreKomi {
            rate: -18.0,
            midpoint: 0.65,
            cap: 0.9,
        }
    }
}

impl ScoreKomi {
    /// The weight `p` of the mean score at game progress `progress` (0 to 1).
    pub fn weight(&self, progress: f64) -> f64 {
        let p = 1.0 / (1.0 + (-self.rate * (progress - self.midpoint)).exp());
        p.min(self.cap)
    }

    /// The extra komi after a period whose mean margin over the current extra komi (root
    /// player's side) was `mean`.
    pub fn update(&self, extra: f64, mean: f64, progress: f64) -> f64 {
        extra + self.weight(progress) * mean
    }
}

/// Value-situational dynamic komi; see the [module docs](self).
#[derive(Clone, Debug, PartialEq)]
pub struct ValueKomi {
    /// Win rate below which the root player takes a point.
    pub red: f64,
    /// Win rate at or above which it gives a point back.
    pub green: f64,
    /// Points per step.
    pub step: f64,
}

impl Default for ValueKomi {
    fn default() -> Self {
        ValueKomi {
            red: 0.45,
            green: 0.5,
            step: 1.0,
        }
    }
}

impl ValueKomi {
    /// The new `(extra, ratchet)` after a period with win rate `w`.
    pub fn update(&self, extra: f64, ratchet: f64, w: f64) -> (f64, f64) {
        if w < self.red {
            let x = extra - self.step;
            (x, x)
        } else if w >= self.green {
            ((extra + self.step).min(ratchet), ratchet)
        } else {
            (extra, ratchet)
        }
    }
}

/// Which dynamic-komi scheme an evaluator runs.
#[derive(Clone, Debug, PartialEq)]
pub enum DynKomi {
    /// Linear handicap with a ratchet.
    Linear(LinearKomi),
    /// Score-situational.
    Score(ScoreKomi),
    /// Value-situational.
    Value(ValueKomi),
}

/// Light playouts judged against the game's komi plus an adaptive extra komi; see the
/// [module docs](self).
#[derive(Clone, Debug)]
pub struct DynKomiPlayout {
    scheme: DynKomi,
    period: u64,
    root: Option<Color>,
    progress: f64,
    /// The linear part (linear scheme) or 0.
    base: f64,
    /// Adaptive part: the ratchet bonus (linear) or the whole extra komi (score, value).
    adapt: f64,
    ratchet: f64,
    // The current period: playouts, root-side results (1 win, ½ draw) and margins over x.
    n: u64,
    wins: f64,
    margins: f64,
}

impl DynKomiPlayout {
    /// An evaluator running `scheme`, adapting every `period` playouts (at least 1).
    pub fn new(scheme: DynKomi, period: u64) -> Self {
        DynKomiPlayout {
            scheme,
            period: period.max(1),
            root: None,
            progress: 0.0,
            base: 0.0,
            adapt: 0.0,
            ratchet: f64::INFINITY,
            n: 0,
            wins: 0.0,
            margins: 0.0,
        }
    }

    /// The extra komi now (points, root player's side).
    pub fn extra_komi(&self) -> f64 {
        self.base + self.adapt
    }

    /// The scheme.
    pub fn scheme(&self) -> &DynKomi {
        &self.scheme
    }

    /// The root player's margin over the extra komi in a finished `state` (points).
    fn margin(&self, state: &GoState) -> f64 {
        let black = state.area_score();
        let m = match self.root.unwrap_or(Color::Black) {
            Color::Black => black,
            Color::White => -black,
        };
        m - self.extra_komi()
    }

    /// Black's reward for a root-side margin.
    fn rewards(&self, margin: f64) -> Rewards {
        let r = if margin > 0.0 {
            1.0
        } else if margin < 0.0 {
            -1.0
        } else {
            0.0
        };
        match self.root.unwrap_or(Color::Black) {
            Color::Black => Rewards::zero_sum(r),
            Color::White => Rewards::zero_sum(-r),
        }
    }

    /// Counts one playout's root-side margin and adapts at the end of a period.
    pub fn record(&mut self, margin: f64) {
        self.n += 1;
        self.margins += margin;
        self.wins += if margin > 0.0 {
            1.0
        } else if margin == 0.0 {
            0.5
        } else {
            0.0
        };
        if self.n < self.period {
            return;
        }
        let w = self.wins / self.n as f64;
        let mean = self.margins / self.n as f64;
        match &self.scheme {
            DynKomi::Linear(l) => {
                (self.adapt, self.ratchet) = l.ratchet(self.adapt, self.ratchet, w)
            }
            DynKomi::Score(s) => self.adapt = s.update(self.adapt, mean, self.progress),
            DynKomi::Value(v) => (self.adapt, self.ratchet) = v.update(self.adapt, self.ratchet, w),
        }
        self.n = 0;
        self.wins = 0.0;
        self.margins = 0.0;
    }
}

impl LeafEvaluator<GoGame> for DynKomiPlayout {
    fn begin_search(&mut self, game: &GoGame, root: &GoState) {
        let color = root.to_move();
        if self.root != Some(color) {
            self.adapt = 0.0;
            self.ratchet = f64::INFINITY;
            self.n = 0;
            self.wins = 0.0;
            self.margins = 0.0;
        }
        self.root = Some(color);
        let n2 = (game.size() * game.size()) as f64;
        self.progress = (root.move_number() as f64 / n2).min(1.0);
        self.base = match &self.scheme {
            DynKomi::Linear(l) => l.base(color, root.move_number()),
            _ => 0.0,
        };
    }

    #[inline]
    fn evaluate(
        &mut self,
        game: &GoGame,
        state: &mut GoState,
        rng: &mut Rng,
        buf: &mut Vec<Vertex>,
    ) -> Rewards {
        while let Some(mv) = game.random_move(state, rng, buf) {
            game.apply(state, mv);
        }
        let m = self.margin(state);
        self.record(m);
        self.rewards(m)
    }

    fn evaluate_terminal(&mut self, _: &GoGame, state: &GoState) -> Rewards {
        self.rewards(self.margin(state))
    }
}

fn common_params(extra: &[ParamDoc]) -> Vec<ParamDoc> {
    let mut v = vec![
        ParamDoc {
            key: "iters",
            default: "10000",
            help: "iterations (playouts) per move",
        },
        ParamDoc {
            key: "time",
            default: "-",
            help: "seconds per move (with iters: whichever ends first)",
        },
        ParamDoc {
            key: "c",
            default: "0.7071",
            help: "UCB1 exploration constant (rewards in [0,1])",
        },
        ParamDoc {
            key: "threads",
            default: "1",
            help: "worker threads (root parallelism; each adapts its own komi)",
        },
        ParamDoc {
            key: "reuse",
            default: "true",
            help: "keep the subtree between moves",
        },
        ParamDoc {
            key: "period",
            default: "1000",
            help: "playouts between komi updates",
        },
    ];
    v.extend_from_slice(extra);
    v
}

const LINEAR_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        key: "handicap",
        default: "0",
        help: "handicap stones H",
    },
    ParamDoc {
        key: "moves",
        default: "200",
        help: "moves M over which the linear komi falls to 0",
    },
    ParamDoc {
        key: "bvalue",
        default: "8",
        help: "points per handicap stone when the root player is Black",
    },
    ParamDoc {
        key: "wvalue",
        default: "1",
        help: "points per handicap stone when the root player is White",
    },
    ParamDoc {
        key: "green",
        default: "0.85",
        help: "win rate above which the ratchet bonus grows by a point",
    },
    ParamDoc {
        key: "orange",
        default: "0.8",
        help: "win rate below which the bonus drops",
    },
    ParamDoc {
        key: "drop",
        default: "4",
        help: "points dropped below the orange zone",
    },
];

const SCORE_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        key: "rate",
        default: "-18",
        help: "rate of the progress sigmoid",
    },
    ParamDoc {
        key: "midpoint",
        default: "0.65",
        help: "game progress (moves / N²) where the weight is 1/2",
    },
    ParamDoc {
        key: "cap",
        default: "0.9",
        help: "largest weight of the mean score",
    },
];

const VALUE_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        key: "red",
        default: "0.45",
        help: "win rate below which the root player takes a point",
    },
    ParamDoc {
        key: "green",
        default: "0.5",
        help: "win rate at or above which it gives a point back",
    },
    ParamDoc {
        key: "step",
        default: "1",
        help: "points per step",
    },
];

fn probability(p: &SpecParams<'_>, key: &str, v: f64) -> Result<f64, SpecError> {
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(p.bad(key, &v.to_string(), "a probability in [0, 1]"))
    }
}

fn finite(p: &SpecParams<'_>, key: &str, v: f64) -> Result<f64, SpecError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(p.bad(key, &v.to_string(), "a finite number"))
    }
}

/// Reads the scheme of agent `kind` from its spec parameters.
fn read_scheme(kind: &str, p: &mut SpecParams<'_>) -> Result<DynKomi, SpecError> {
    Ok(match kind {
        "linear" => {
            let d = LinearKomi::default();
            let handicap: f64 = p.get("handicap", d.handicap, "a number of stones")?;
            let moves: usize = p.get("moves", d.moves, "a number of moves")?;
            let bvalue: f64 = p.get("bvalue", d.black_value, "points")?;
            let wvalue: f64 = p.get("wvalue", d.white_value, "points")?;
            let green: f64 = p.get("green", d.green, "a probability")?;
            let orange: f64 = p.get("orange", d.orange, "a probability")?;
            let drop: f64 = p.get("drop", d.drop, "points")?;
            DynKomi::Linear(LinearKomi {
                handicap: finite(p, "handicap", handicap)?,
                black_value: finite(p, "bvalue", bvalue)?,
                white_value: finite(p, "wvalue", wvalue)?,
                moves,
                green: probability(p, "green", green)?,
                orange: probability(p, "orange", orange)?,
                drop: finite(p, "drop", drop)?,
            })
        }
        "score" => {
            let d = ScoreKomi::default();
            let rate: f64 = p.get("rate", d.rate, "a number")?;
            let midpoint: f64 = p.get("midpoint", d.midpoint, "a number")?;
            let cap: f64 = p.get("cap", d.cap, "a number in [0, 1]")?;
            DynKomi::Score(ScoreKomi {
                rate: finite(p, "rate", rate)?,
                midpoint: finite(p, "midpoint", midpoint)?,
                cap: probability(p, "cap", cap)?,
            })
        }
        _ => {
            let d = ValueKomi::default();
            let red: f64 = p.get("red", d.red, "a probability")?;
            let green: f64 = p.get("green", d.green, "a probability")?;
            let step: f64 = p.get("step", d.step, "points")?;
            DynKomi::Value(ValueKomi {
                red: probability(p, "red", red)?,
                green: probability(p, "green", green)?,
                step: finite(p, "step", step)?,
            })
        }
    })
}

/// Registers `dkmcts-linear`, `dkmcts-score` and `dkmcts-value` in `r`: UCT (core's
/// [`Mcts`] and [`MctsAgent`], tree reuse) with [`DynKomiPlayout`] leaves.
pub fn register(r: &mut AgentRegistry<GoGame>) {
    let kinds: [(&str, &str, &[ParamDoc]); 3] = [
        (
            "linear",
            "UCT with linear-handicap dynamic komi (Pachi) and a win-rate ratchet",
            LINEAR_PARAMS,
        ),
        (
            "score",
            "UCT with score-situational dynamic komi (Pachi): komi follows the mean playout score",
            SCORE_PARAMS,
        ),
        (
            "value",
            "UCT with value-situational dynamic komi (Pachi): komi keeps the win rate near 45-50%",
            VALUE_PARAMS,
        ),
    ];
    for (kind, summary, extra) in kinds {
        let name = format!("dkmcts-{kind}");
        r.register(
            &name,
            summary,
            common_params(extra),
            Arc::new(move |_, _, p| {
                let spec = p.spec().to_string();
                let iters: u64 = p.get("iters", 10_000, "a positive integer")?;
                let time: Option<f64> = p.get_opt("time", "seconds")?;
                let c: f64 = p.get("c", std::f64::consts::FRAC_1_SQRT_2, "a number")?;
                let threads: usize = p.get("threads", 1, "a positive integer")?;
                let reuse: bool = p.get("reuse", true, "true or false")?;
                let period: u64 = p.get("period", 1000, "a positive integer")?;
                if iters == 0 {
                    return Err(p.bad("iters", "0", "a positive integer"));
                }
                if threads == 0 {
                    return Err(p.bad("threads", "0", "a positive integer"));
                }
                if period == 0 {
                    return Err(p.bad("period", "0", "a positive integer"));
                }
                if c.is_nan() || c < 0.0 {
                    return Err(p.bad("c", &c.to_string(), "a number >= 0"));
                }
                if let Some(t) = time {
                    if !(t > 0.0 && t.is_finite()) {
                        return Err(p.bad("time", &t.to_string(), "a positive number of seconds"));
                    }
                }
                let scheme = read_scheme(kind, p)?;
                let params = MctsParams {
                    budget: Budget {
                        iterations: Some(iters),
                        time: time.map(Duration::from_secs_f64),
                    },
                    threads,
                    reuse_tree: reuse,
                    ..MctsParams::default()
                };
                Ok(builder(move |_, seed| {
                    let leaf = DynKomiPlayout::new(scheme.clone(), period);
                    let mcts = Mcts::new(params.clone(), Ucb1 { c }, leaf, NoExpander, seed);
                    Box::new(MctsAgent::new(mcts, spec.clone()))
                }))
            }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_komi_falls_to_zero_and_ratchets() {
        let l = LinearKomi {
            handicap: 2.0,
            moves: 100,
            ..LinearKomi::default()
        };
        assert_eq!(l.base(Color::Black, 0), 16.0);
        assert_eq!(l.base(Color::Black, 50), 8.0);
        assert_eq!(l.base(Color::White, 50), 1.0);
        assert_eq!(l.base(Color::Black, 100), 0.0);
        assert_eq!(l.base(Color::Black, 300), 0.0);
        // Winning big: a point at a time; the orange zone drops 4 and sets the ratchet.
        let (b, r) = l.ratchet(0.0, f64::INFINITY, 0.9);
        assert_eq!((b, r), (1.0, f64::INFINITY));
        let (b, r) = l.ratchet(b, r, 0.82);
        assert_eq!(
            (b, r),
            (1.0, f64::INFINITY),
            "between the zones nothing moves"
        );
        let (b, r) = l.ratchet(b, r, 0.5);
        assert_eq!((b, r), (-3.0, -3.0));
        let (b, r) = l.ratchet(b, r, 0.95);
        assert_eq!((b, r), (-3.0, -3.0), "the ratchet holds the bonus down");
    }

    #[test]
    fn score_komi_weight_is_a_capped_falling_sigmoid() {
        let s = ScoreKomi::default();
        assert_eq!(s.weight(0.0), 0.9);
        assert!((s.weight(0.65) - 0.5).abs() < 1e-12);
        assert!(s.weight(1.0) < 0.01);
        assert!(s.weight(0.5) > s.weight(0.7));
        // Early in the game 90 % of the mean margin moves into the komi.
        assert!((s.update(1.0, 10.0, 0.0) - 10.0).abs() < 1e-12);
        assert!((s.update(1.0, -10.0, 0.65) - -4.0).abs() < 1e-12);
    }

    #[test]
    fn value_komi_steps_with_a_ratchet() {
        let v = ValueKomi::default();
        let (x, r) = v.update(0.0, f64::INFINITY, 0.6);
        assert_eq!((x, r), (1.0, f64::INFINITY));
        let (x, r) = v.update(x, r, 0.47);
        assert_eq!((x, r), (1.0, f64::INFINITY), "yellow zone: no change");
        let (x, r) = v.update(x, r, 0.3);
        assert_eq!((x, r), (0.0, 0.0));
        let (x, r) = v.update(x, r, 0.3);
        assert_eq!((x, r), (-1.0, -1.0));
        let (x, r) = v.update(x, r, 0.9);
        assert_eq!((x, r), (-1.0, -1.0), "cannot rise above the ratchet");
    }

    #[test]
    fn evaluator_adapts_every_period_from_the_root_side() {
        let game = GoGame::new(5).unwrap();
        // White to move (the root player) in an even position where White leads by komi.
        let root = game
            .parse_state("...../...../..X../...../..... w - 7.5")
            .unwrap();
        let mut e = DynKomiPlayout::new(DynKomi::Value(ValueKomi::default()), 10);
        e.begin_search(&game, &root);
        assert_eq!(e.extra_komi(), 0.0);
        // Ten clear wins for the root player: the komi moves a point against it.
        for _ in 0..10 {
            e.record(5.0);
        }
        assert_eq!(e.extra_komi(), 1.0);
        for _ in 0..9 {
            e.record(-5.0);
        }
        assert_eq!(e.extra_komi(), 1.0, "no update before the period ends");
        e.record(-5.0);
        assert_eq!(e.extra_komi(), 0.0);
        // A finished board judged from White's side against the extra komi.
        let end = game
            .parse_state("XX.OO/XX.OO/XX.OO/XX.OO/XX.OO b - 7.5 2 20 0 0")
            .unwrap();
        e.adapt = 0.0;
        // White's margin is 10 − 10 + 7.5 = 7.5 points.
        assert_eq!(
            e.evaluate_terminal(&game, &end).get(yomi_core::Player(1)),
            1.0
        );
        e.adapt = 8.0;
        assert_eq!(
            e.evaluate_terminal(&game, &end).get(yomi_core::Player(1)),
            -1.0
        );
        // A new root player starts from zero.
        let black_root = game.initial_state();
        e.begin_search(&game, &black_root);
        assert_eq!(e.extra_komi(), 0.0);
    }

    #[test]
    fn score_scheme_moves_komi_towards_the_mean_margin() {
        let game = GoGame::new(5).unwrap();
        let root = game.initial_state();
        let mut e = DynKomiPlayout::new(DynKomi::Score(ScoreKomi::default()), 4);
        e.begin_search(&game, &root);
        for m in [8.0, 12.0, 10.0, 10.0] {
            e.record(m);
        }
        assert!((e.extra_komi() - 9.0).abs() < 1e-12, "{}", e.extra_komi());
        // Linear: the base part comes from the root at every search.
        let mut l = DynKomiPlayout::new(
            DynKomi::Linear(LinearKomi {
                handicap: 1.0,
                moves: 10,
                ..LinearKomi::default()
            }),
            1000,
        );
        l.begin_search(&game, &root);
        assert_eq!(l.extra_komi(), 8.0);
    }
}
