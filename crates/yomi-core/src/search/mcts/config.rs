//! `mcts`'s spec parameters as one typed config ([`MctsConfig`]).
//!
//! The defaults live in one place, [`MctsConfig::default`] (which takes the numeric ones
//! from [`MctsParams::default`]); the help text of every parameter (`yomi agents`, the
//! Python and web listings) is generated from them ([`MctsConfig::docs`]), and reading a
//! spec ([`MctsConfig::read`]) starts from them. A test checks that every documented key
//! is read and that an empty spec reads back the defaults.
//!
//! The config holds names, not code: the evaluator is a registry name (`eval=`), so
//! turning a config into search plug-ins ([`MctsConfig::plugins`]) takes the evaluator the
//! registry resolved.
//!
//! Thread safety: plain data.

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use super::adaptive::{AdaptiveConfig, MoveChoice};
use super::{
    AnyExpander, AnyPolicy, AnySelection, ChildEvaluation, Cutoff, CutoffUnit, Decisive,
    EpsilonGreedy, EvalScorer, FinalMove, MctsParams, MoveScorer, Puct, RootNoise, Softmax, Ucb1,
    UcbEval, UcbPrior, Widening,
};
use crate::game::Game;
use crate::search::{Budget, Evaluator};
use crate::spec::{ParamDoc, SpecError, SpecParams};

/// Iterations per move when neither `iters` nor `time` is given.
pub const DEFAULT_ITERATIONS: u64 = 10_000;

/// The expansion threshold `select=puct` defaults to (AlphaZero expands every leaf).
pub const PUCT_EXPAND: u32 = 0;

/// The Gibbs temperature `playout=mast` and `playout=nst` default to (on `[0, 1]` rewards).
pub const ADAPTIVE_TEMPERATURE: f64 = 0.1;

macro_rules! named_choice {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vdoc])* $variant),+
        }

        impl $name {
            /// Every choice, as written in specs.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The name as written in specs.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $name {
            type Err = ();
            fn from_str(s: &str) -> Result<Self, ()> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err(()),
                }
            }
        }
    };
}

named_choice! {
    /// The selection rule (`select=`).
    SelectRule {
        /// UCB1 ([`Ucb1`]).
        Ucb1 = "ucb1",
        /// UCB1 plus a weighted child evaluation ([`UcbEval`]).
        UcbEval = "ucb-eval",
        /// UCB1 with the child evaluation as virtual visits ([`UcbPrior`]).
        UcbPrior = "ucb-prior",
        /// PUCT with priors ([`Puct`]).
        Puct = "puct",
    }
}

named_choice! {
    /// The playout policy (`playout=`).
    PlayoutRule {
        /// Uniformly random moves.
        Uniform = "uniform",
        /// A move that wins at once when there is one, else uniform.
        Decisive = "decisive",
        /// Epsilon-greedy on the evaluation.
        EGreedy = "egreedy",
        /// Softmax on the evaluation.
        Softmax = "softmax",
        /// Always the best-evaluated move.
        Greedy = "greedy",
        /// Move-average sampling, learned during the search.
        Mast = "mast",
        /// N-gram selection, learned during the search.
        Nst = "nst",
        /// Last good reply, learned during the search.
        Lgr = "lgr",
    }
}

named_choice! {
    /// The order in which children are admitted by progressive widening (`order=`).
    ChildOrder {
        /// The game's move order.
        Game = "game",
        /// A random order per node.
        Shuffle = "shuffle",
        /// Best evaluation first.
        Eval = "eval",
    }
}

named_choice! {
    /// The final-move rule (`final=`).
    FinalRule {
        /// The most visited root move.
        Visits = "visits",
        /// The root move with the best mean.
        Mean = "mean",
        /// A root move drawn with probability ∝ visits^(1/ftemp).
        Boltzmann = "boltzmann",
    }
}

named_choice! {
    /// What a playout cut-off counts (`cutunit=`).
    CutUnit {
        /// Moves.
        Moves = "moves",
        /// Player turns (a run of one player's moves counts once).
        Turns = "turns",
    }
}

/// The parameters of the `mcts` agent, typed; the defaults are [`MctsConfig::default`].
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations per move over all threads; `None`: [`DEFAULT_ITERATIONS`] unless a time
    /// is given, then unlimited.
    pub iters: Option<u64>,
    /// Seconds per move.
    pub time: Option<f64>,
    /// Worker threads (root parallelism).
    pub threads: usize,
    /// Selection rule.
    pub select: SelectRule,
    /// Exploration constant.
    pub c: f64,
    /// Weight of the evaluation term of `ucb-eval`.
    pub w: f64,
    /// Value of unvisited children for `puct`.
    pub fpu: f64,
    /// Visits a leaf needs before expansion; `None`: 1, or [`PUCT_EXPAND`] for `puct`.
    pub expand: Option<u32>,
    /// Reuse a leaf's first playout result until it expands.
    pub memo: bool,
    /// Playout policy.
    pub playout: PlayoutRule,
    /// Random-move probability; given with `mast` or `nst` it makes them epsilon-greedy.
    pub eps: Option<f64>,
    /// Softmax / Gibbs temperature; `None`: 1, or [`ADAPTIVE_TEMPERATURE`] for mast / nst.
    pub temp: Option<f64>,
    /// Longest n-gram of `nst`.
    pub ngram: usize,
    /// Fraction of adaptive statistics kept from one search to the next.
    pub decay: f64,
    /// Playout cut-off.
    pub cutoff: Option<u32>,
    /// What the cut-off counts.
    pub cutunit: CutUnit,
    /// The evaluator's registry name.
    pub eval: String,
    /// Child order for widening.
    pub order: ChildOrder,
    /// Progressive widening factor.
    pub pw: Option<f64>,
    /// Progressive widening exponent.
    pub pwa: f64,
    /// Final-move rule.
    pub final_rule: FinalRule,
    /// Temperature of `final=boltzmann`.
    pub ftemp: f64,
    /// Keep the subtree between moves.
    pub reuse: bool,
    /// Determinizations per move in imperfect-information games.
    pub dets: usize,
    /// Dirichlet alpha of root noise.
    pub dirichlet: Option<f64>,
    /// Weight of the root noise.
    pub noise: f64,
    /// Prove subtrees (MCTS-Solver).
    pub solver: bool,
}

impl Default for MctsConfig {
    fn default() -> Self {
        let p = MctsParams::default();
        MctsConfig {
            iters: None,
            time: None,
            threads: p.threads,
            select: SelectRule::Ucb1,
            c: Ucb1::default().c,
            w: 1.0,
            fpu: 0.5,
            expand: None,
            memo: p.memoize_leaves,
            playout: PlayoutRule::Uniform,
            eps: None,
            temp: None,
            ngram: 3,
            decay: 0.2,
            cutoff: None,
            cutunit: CutUnit::Moves,
            eval: "default".into(),
            order: ChildOrder::Game,
            pw: None,
            pwa: 0.5,
            final_rule: FinalRule::Visits,
            ftemp: 1.0,
            reuse: p.reuse_tree,
            dets: p.determinizations,
            dirichlet: None,
            noise: 0.25,
            solver: p.solver,
        }
    }
}

/// One documented key: its help and how its default is written.
struct Field {
    key: &'static str,
    help: &'static str,
    default: fn(&MctsConfig) -> String,
}

fn or_dash<T: fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// Every key of `mcts`, in the order `yomi agents` lists them.
const FIELDS: &[Field] = &[
    Field {
        key: "iters",
        help: "iterations (playouts) per move, over all threads (unlimited when only time is given)",
        default: |c| c.iters.unwrap_or(DEFAULT_ITERATIONS).to_string(),
    },
    Field {
        key: "time",
        help: "seconds per move (with iters: whichever ends first)",
        default: |c| or_dash(c.time),
    },
    Field {
        key: "threads",
        help: "worker threads (root parallelism)",
        default: |c| c.threads.to_string(),
    },
    Field {
        key: "select",
        help: "ucb1 | ucb-eval (X+w*E+c*sqrt(2ln n/n_i)) | ucb-prior (E as w virtual visits: (S_i+w*E)/(n_i+w)+c*sqrt(2ln n/(n_i+w))) | puct",
        default: |c| c.select.to_string(),
    },
    Field {
        key: "c",
        help: "exploration constant (rewards are scaled to [0,1])",
        default: |c| format!("{:.4}", c.c),
    },
    Field {
        key: "w",
        help: "weight of the evaluation term for select=ucb-eval; virtual visits at the evaluation for select=ucb-prior",
        default: |c| c.w.to_string(),
    },
    Field {
        key: "fpu",
        help: "value of unvisited children for select=puct",
        default: |c| c.fpu.to_string(),
    },
    Field {
        key: "expand",
        help: "visits a leaf needs before its children are created",
        default: |c| match c.expand {
            Some(e) => e.to_string(),
            None => format!(
                "{} ({PUCT_EXPAND} with select=puct)",
                MctsParams::default().expand_threshold
            ),
        },
    },
    Field {
        key: "memo",
        help: "reuse a leaf's first playout result until it expands",
        default: |c| c.memo.to_string(),
    },
    Field {
        key: "playout",
        help: "uniform | decisive (a move that wins at once when there is one, else uniform) | egreedy | softmax | greedy (moves scored by eval) | mast | nst | lgr (adaptive, learned during the search)",
        default: |c| c.playout.to_string(),
    },
    Field {
        key: "eps",
        help: "random-move probability for playout=egreedy; given with mast or nst, they pick epsilon-greedily instead of by Gibbs sampling",
        default: |c| c.epsilon().to_string(),
    },
    Field {
        key: "temp",
        help: "softmax temperature for playout=softmax; Gibbs temperature for mast and nst on [0,1] rewards",
        default: |c| match c.temp {
            Some(t) => t.to_string(),
            None => format!("1 ({ADAPTIVE_TEMPERATURE} with mast and nst)"),
        },
    },
    Field {
        key: "ngram",
        help: "longest n-gram for playout=nst (1-3)",
        default: |c| c.ngram.to_string(),
    },
    Field {
        key: "decay",
        help: "fraction of the mast / nst statistics kept from one search to the next (0 clears)",
        default: |c| c.decay.to_string(),
    },
    Field {
        key: "cutoff",
        help: "stop playouts after this many moves (or player turns, see cutunit) and judge by eval",
        default: |c| or_dash(c.cutoff),
    },
    Field {
        key: "cutunit",
        help: "what cutoff counts: moves | turns (a run of one player's moves counts once)",
        default: |c| c.cutunit.to_string(),
    },
    Field {
        key: "eval",
        help: "evaluator for cutoff / greedy / ucb-eval (see `yomi agents`)",
        default: |c| c.eval.clone(),
    },
    Field {
        key: "order",
        help: "child order for widening: game | shuffle | eval",
        default: |c| c.order.to_string(),
    },
    Field {
        key: "pw",
        help: "progressive widening k(n) = ceil(pw * n^pwa)",
        default: |c| or_dash(c.pw),
    },
    Field {
        key: "pwa",
        help: "exponent of progressive widening",
        default: |c| c.pwa.to_string(),
    },
    Field {
        key: "final",
        help: "final move: visits | mean | boltzmann",
        default: |c| c.final_rule.to_string(),
    },
    Field {
        key: "ftemp",
        help: "temperature for final=boltzmann",
        default: |c| c.ftemp.to_string(),
    },
    Field {
        key: "reuse",
        help: "keep the subtree between moves",
        default: |c| c.reuse.to_string(),
    },
    Field {
        key: "dets",
        help: "determinizations per move (imperfect-information games)",
        default: |c| c.dets.to_string(),
    },
    Field {
        key: "dirichlet",
        help: "Dirichlet alpha of root-prior noise (self-play exploration; select=puct)",
        default: |c| c.dirichlet.map_or_else(|| "none".to_string(), |a| a.to_string()),
    },
    Field {
        key: "noise",
        help: "weight of the root-prior noise when dirichlet is set",
        default: |c| c.noise.to_string(),
    },
    Field {
        key: "solver",
        help: "prove subtrees (MCTS-Solver): known values are not played out again, proven wins are played (perfect-information games)",
        default: |c| c.solver.to_string(),
    },
];

/// The choices of an enumerated key, for error messages: `a, b or c`.
fn choices(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

fn read_choice<T: FromStr + Copy>(
    p: &mut SpecParams<'_>,
    key: &str,
    default: T,
    names: &[&str],
) -> Result<T, SpecError> {
    match p.raw(key) {
        None => Ok(default),
        Some(text) => text.parse().map_err(|_| p.bad(key, text, &choices(names))),
    }
}

fn check(
    ok: bool,
    p: &SpecParams<'_>,
    key: &str,
    value: impl fmt::Display,
    expected: &str,
) -> Result<(), SpecError> {
    if ok {
        Ok(())
    } else {
        Err(p.bad(key, &value.to_string(), expected))
    }
}

impl MctsConfig {
    /// The documentation of every key, with defaults written from [`MctsConfig::default`].
    pub fn docs() -> &'static [ParamDoc] {
        static DEFAULTS: OnceLock<Vec<String>> = OnceLock::new();
        static DOCS: OnceLock<Vec<ParamDoc>> = OnceLock::new();
        DOCS.get_or_init(|| {
            let config = MctsConfig::default();
            let defaults: &'static [String] =
                DEFAULTS.get_or_init(|| FIELDS.iter().map(|f| (f.default)(&config)).collect());
            FIELDS
                .iter()
                .zip(defaults)
                .map(|(f, d)| ParamDoc {
                    key: f.key,
                    default: d.as_str(),
                    help: f.help,
                })
                .collect()
        })
    }

    /// Reads a spec's parameters, starting from the defaults.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] for a value that does not parse, is out of range, or does
    /// not go with the others (a cut-off with adaptive playouts); the message says what is
    /// accepted.
    pub fn read(p: &mut SpecParams<'_>) -> Result<Self, SpecError> {
        let d = MctsConfig::default();
        let iters: Option<u64> = p.get_opt("iters", "a positive integer")?;
        if let Some(i) = iters {
            check(i > 0, p, "iters", i, "a positive integer")?;
        }
        let time: Option<f64> = p.get_opt("time", "seconds, e.g. 0.5")?;
        if let Some(t) = time {
            check(
                t > 0.0 && t.is_finite(),
                p,
                "time",
                t,
                "a positive number of seconds",
            )?;
        }
        let threads: usize = p.get("threads", d.threads, "a positive integer")?;
        check(threads > 0, p, "threads", threads, "a positive integer")?;
        let select = read_choice(p, "select", d.select, SelectRule::NAMES)?;
        let c: f64 = p.get("c", d.c, "a number")?;
        check(c.is_finite() && c >= 0.0, p, "c", c, "a number >= 0")?;
        let w: f64 = p.get("w", d.w, "a number")?;
        check(w.is_finite(), p, "w", w, "a finite number")?;
        if select == SelectRule::UcbPrior {
            check(
                w >= 0.0,
                p,
                "w",
                w,
                "virtual visits, at least 0, with select=ucb-prior",
            )?;
        }
        let fpu: f64 = p.get("fpu", d.fpu, "a number in [0, 1]")?;
        check(fpu.is_finite(), p, "fpu", fpu, "a number in [0, 1]")?;
        let expand: Option<u32> = p.get_opt("expand", "a non-negative integer")?;
        let memo: bool = p.get("memo", d.memo, "true or false")?;
        let playout = read_choice(p, "playout", d.playout, PlayoutRule::NAMES)?;
        let eps: Option<f64> = p.get_opt("eps", "a probability")?;
        if let Some(e) = eps {
            check(
                (0.0..=1.0).contains(&e),
                p,
                "eps",
                e,
                "a probability in [0, 1]",
            )?;
        }
        let temp: Option<f64> = p.get_opt("temp", "a positive number")?;
        if let Some(t) = temp {
            check(t > 0.0 && t.is_finite(), p, "temp", t, "a positive number")?;
        }
        let ngram: usize = p.get("ngram", d.ngram, "1, 2 or 3")?;
        check((1..=3).contains(&ngram), p, "ngram", ngram, "1, 2 or 3")?;
        let decay: f64 = p.get("decay", d.decay, "a fraction in [0, 1]")?;
        check(
            (0.0..=1.0).contains(&decay),
            p,
            "decay",
            decay,
            "a fraction in [0, 1]",
        )?;
        let cutoff: Option<u32> = p.get_opt("cutoff", "a number of moves or turns")?;
        if let Some(c) = cutoff {
            check(
                !matches!(
                    playout,
                    PlayoutRule::Mast | PlayoutRule::Nst | PlayoutRule::Lgr
                ),
                p,
                "cutoff",
                c,
                "no cut-off with adaptive playouts (mast, nst, lgr play to the end)",
            )?;
        }
        let cutunit = read_choice(p, "cutunit", d.cutunit, CutUnit::NAMES)?;
        let eval = p.raw("eval").map_or(d.eval, str::to_string);
        let order = read_choice(p, "order", d.order, ChildOrder::NAMES)?;
        let pw: Option<f64> = p.get_opt("pw", "a positive number")?;
        if let Some(k) = pw {
            check(k > 0.0 && k.is_finite(), p, "pw", k, "a positive number")?;
        }
        let pwa: f64 = p.get("pwa", d.pwa, "an exponent in (0, 1]")?;
        check(
            pwa > 0.0 && pwa <= 1.0,
            p,
            "pwa",
            pwa,
            "an exponent in (0, 1]",
        )?;
        let final_rule = read_choice(p, "final", d.final_rule, FinalRule::NAMES)?;
        let ftemp: f64 = p.get("ftemp", d.ftemp, "a positive number")?;
        check(
            ftemp > 0.0 && ftemp.is_finite(),
            p,
            "ftemp",
            ftemp,
            "a positive number",
        )?;
        let reuse: bool = p.get("reuse", d.reuse, "true or false")?;
        let dets: usize = p.get("dets", d.dets, "a positive integer")?;
        check(dets > 0, p, "dets", dets, "a positive integer")?;
        let dirichlet: Option<f64> = p.get_opt("dirichlet", "a positive number")?;
        if let Some(a) = dirichlet {
            check(
                a > 0.0 && a.is_finite(),
                p,
                "dirichlet",
                a,
                "a positive number",
            )?;
        }
        let noise: f64 = p.get("noise", d.noise, "a weight in [0, 1]")?;
        check(
            (0.0..=1.0).contains(&noise),
            p,
            "noise",
            noise,
            "a weight in [0, 1]",
        )?;
        let solver: bool = p.get("solver", d.solver, "true or false")?;
        Ok(MctsConfig {
            iters,
            time,
            threads,
            select,
            c,
            w,
            fpu,
            expand,
            memo,
            playout,
            eps,
            temp,
            ngram,
            decay,
            cutoff,
            cutunit,
            eval,
            order,
            pw,
            pwa,
            final_rule,
            ftemp,
            reuse,
            dets,
            dirichlet,
            noise,
            solver,
        })
    }

    /// The search budget: `iters` and `time`, [`DEFAULT_ITERATIONS`] when neither is given.
    pub fn budget(&self) -> Budget {
        Budget {
            iterations: match (self.iters, self.time) {
                (None, None) => Some(DEFAULT_ITERATIONS),
                (i, _) => i,
            },
            time: self.time.map(Duration::from_secs_f64),
        }
    }

    /// The expansion threshold in force.
    pub fn expand_threshold(&self) -> u32 {
        self.expand.unwrap_or(if self.select == SelectRule::Puct {
            PUCT_EXPAND
        } else {
            MctsParams::default().expand_threshold
        })
    }

    /// The random-move probability in force.
    pub fn epsilon(&self) -> f64 {
        self.eps.unwrap_or(0.1)
    }

    /// The softmax / Gibbs temperature in force.
    pub fn temperature(&self) -> f64 {
        self.temp.unwrap_or(match self.playout {
            PlayoutRule::Mast | PlayoutRule::Nst => ADAPTIVE_TEMPERATURE,
            _ => 1.0,
        })
    }

    /// The numeric search parameters.
    pub fn params(&self) -> MctsParams {
        MctsParams {
            budget: self.budget(),
            expand_threshold: self.expand_threshold(),
            memoize_leaves: self.memo,
            widening: self.pw.map(|k| Widening::power(k, self.pwa)),
            final_move: match self.final_rule {
                FinalRule::Visits => FinalMove::MostVisits,
                FinalRule::Mean => FinalMove::BestMean,
                FinalRule::Boltzmann => FinalMove::Boltzmann {
                    temperature: self.ftemp,
                },
            },
            threads: self.threads,
            reuse_tree: self.reuse,
            determinizations: self.dets,
            root_noise: self.dirichlet.map(|alpha| RootNoise {
                alpha,
                fraction: self.noise,
            }),
            solver: self.solver,
            ..MctsParams::default()
        }
    }

    /// The adaptive-playout configuration, for `mast`, `nst` and `lgr`.
    pub fn adaptive(&self) -> Option<AdaptiveConfig> {
        let choice = match self.eps {
            Some(epsilon) => MoveChoice::EpsilonGreedy { epsilon },
            None => MoveChoice::Gibbs {
                temperature: self.temperature(),
            },
        };
        let base = match self.playout {
            PlayoutRule::Mast => AdaptiveConfig::mast(self.temperature()),
            PlayoutRule::Nst => AdaptiveConfig::nst(self.ngram, self.epsilon()),
            PlayoutRule::Lgr => AdaptiveConfig::lgr(),
            _ => return None,
        };
        Some(AdaptiveConfig {
            choice: if self.playout == PlayoutRule::Lgr {
                base.choice
            } else {
                choice
            },
            decay: self.decay,
            ..base
        })
    }

    /// The search plug-ins, with `eval` the evaluator the registry found for
    /// [`MctsConfig::eval`].
    pub fn plugins<G: Game>(&self, eval: &Arc<dyn Evaluator<G>>) -> MctsPlugins<G> {
        let selection = match self.select {
            SelectRule::Ucb1 => AnySelection::Ucb1(Ucb1 { c: self.c }),
            SelectRule::UcbEval => AnySelection::UcbEval(UcbEval {
                c: self.c,
                weight: self.w,
            }),
            SelectRule::UcbPrior => AnySelection::UcbPrior(UcbPrior {
                c: self.c,
                visits: self.w,
            }),
            SelectRule::Puct => AnySelection::Puct(Puct {
                c: self.c,
                fpu: self.fpu,
            }),
        };
        let scorer: Arc<dyn MoveScorer<G>> = Arc::new(EvalScorer(eval.clone()));
        let policy = match self.playout {
            PlayoutRule::EGreedy => AnyPolicy::EpsilonGreedy(EpsilonGreedy {
                epsilon: self.epsilon(),
                scorer,
            }),
            PlayoutRule::Greedy => AnyPolicy::EpsilonGreedy(EpsilonGreedy {
                epsilon: 0.0,
                scorer,
            }),
            PlayoutRule::Softmax => AnyPolicy::Softmax(Softmax {
                temperature: self.temperature(),
                scorer,
            }),
            PlayoutRule::Decisive => AnyPolicy::Decisive(Decisive::default()),
            _ => AnyPolicy::Uniform,
        };
        let child_evaluation = |best_first| {
            AnyExpander::ChildEvaluation(ChildEvaluation {
                evaluator: eval.clone(),
                best_first,
            })
        };
        let expander = match (self.select, self.order) {
            (SelectRule::UcbEval | SelectRule::UcbPrior, order) => {
                child_evaluation(order == ChildOrder::Eval)
            }
            (_, ChildOrder::Game) => AnyExpander::None,
            (_, ChildOrder::Shuffle) => AnyExpander::Shuffled,
            (_, ChildOrder::Eval) => child_evaluation(true),
        };
        MctsPlugins {
            selection,
            policy,
            cutoff: self.cutoff.map(|after| Cutoff {
                after,
                unit: match self.cutunit {
                    CutUnit::Moves => CutoffUnit::Moves,
                    CutUnit::Turns => CutoffUnit::PlayerTurns,
                },
                evaluator: eval.clone(),
            }),
            expander,
            adaptive: self.adaptive(),
        }
    }
}

/// The plug-ins of one `mcts` configuration (see [`MctsConfig::plugins`]).
pub struct MctsPlugins<G: Game> {
    /// Selection rule.
    pub selection: AnySelection,
    /// Playout policy (uniform when the playouts are adaptive).
    pub policy: AnyPolicy<G>,
    /// Playout cut-off.
    pub cutoff: Option<Cutoff<G>>,
    /// Expander.
    pub expander: AnyExpander<G>,
    /// Adaptive playouts, which replace the policy.
    pub adaptive: Option<AdaptiveConfig>,
}

impl<G: Game> Clone for MctsPlugins<G> {
    fn clone(&self) -> Self {
        MctsPlugins {
            selection: self.selection,
            policy: self.policy.clone(),
            cutoff: self.cutoff.clone(),
            expander: self.expander.clone(),
            adaptive: self.adaptive,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::AgentSpec;

    fn read(text: &str) -> Result<MctsConfig, SpecError> {
        let spec: AgentSpec = text.parse().unwrap();
        let mut p = SpecParams::new(&spec, MctsConfig::docs());
        let c = MctsConfig::read(&mut p)?;
        p.finish()?;
        Ok(c)
    }

    #[test]
    fn an_empty_spec_reads_the_defaults_and_the_docs_print_them() {
        let d = MctsConfig::default();
        assert_eq!(read("mcts").unwrap(), d);
        let docs = MctsConfig::docs();
        let default_of = |k: &str| docs.iter().find(|x| x.key == k).unwrap().default;
        assert_eq!(default_of("iters"), DEFAULT_ITERATIONS.to_string());
        assert_eq!(
            default_of("threads"),
            MctsParams::default().threads.to_string()
        );
        assert_eq!(
            default_of("dets"),
            MctsParams::default().determinizations.to_string()
        );
        assert_eq!(default_of("c"), "0.7071");
        assert_eq!(default_of("select"), "ucb1");
        assert!(
            default_of("expand").starts_with('1'),
            "{}",
            default_of("expand")
        );
        // The config's plain numbers agree with the search's own defaults.
        let p = d.params();
        let base = MctsParams::default();
        assert_eq!(p.budget, base.budget);
        assert_eq!(p.expand_threshold, base.expand_threshold);
        assert_eq!(p.threads, base.threads);
        assert_eq!(p.reuse_tree, base.reuse_tree);
        assert_eq!(p.determinizations, base.determinizations);
        assert_eq!(p.final_move, base.final_move);
    }

    #[test]
    fn every_documented_key_is_read() {
        // A value each key accepts (its default where that is a plain value).
        let sample = |k: &str, default: &str| -> String {
            match k {
                "time" => "0.5".into(),
                "cutoff" => "4".into(),
                "pw" => "2".into(),
                "dirichlet" => "0.3".into(),
                "expand" => "2".into(),
                "temp" => "0.5".into(),
                "playout" => "softmax".into(),
                _ => default.to_string(),
            }
        };
        let params: Vec<String> = MctsConfig::docs()
            .iter()
            .map(|d| format!("{}={}", d.key, sample(d.key, d.default)))
            .collect();
        let text = format!("mcts:{}", params.join(","));
        let c = read(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(c.time, Some(0.5));
        assert_eq!(c.expand_threshold(), 2);
        assert_eq!(c.playout, PlayoutRule::Softmax);
    }

    #[test]
    fn conditional_defaults_follow_the_choices() {
        assert_eq!(
            read("mcts:select=puct").unwrap().expand_threshold(),
            PUCT_EXPAND
        );
        assert_eq!(
            read("mcts:playout=mast").unwrap().temperature(),
            ADAPTIVE_TEMPERATURE
        );
        assert_eq!(read("mcts:playout=softmax").unwrap().temperature(), 1.0);
        assert_eq!(read("mcts:time=2").unwrap().budget().iterations, None);
        assert_eq!(
            read("mcts:playout=mast,eps=0.3")
                .unwrap()
                .adaptive()
                .unwrap()
                .choice,
            MoveChoice::EpsilonGreedy { epsilon: 0.3 }
        );
    }

    #[test]
    fn bad_values_name_what_is_accepted() {
        for (text, expected) in [
            ("mcts:select=foo", "ucb1, ucb-eval, ucb-prior or puct"),
            ("mcts:select=ucb-prior,w=-1", "virtual visits"),
            ("mcts:playout=mest", "mast, nst or lgr"),
            ("mcts:final=best", "visits, mean or boltzmann"),
            ("mcts:iters=0", "a positive integer"),
            ("mcts:c=-1", "a number >= 0"),
            ("mcts:pwa=2", "(0, 1]"),
            ("mcts:playout=nst,cutoff=3", "no cut-off"),
            ("mcts:noise=2", "[0, 1]"),
        ] {
            let e = read(text).unwrap_err().to_string();
            assert!(e.contains(expected), "{text}: {e}");
        }
    }
}
