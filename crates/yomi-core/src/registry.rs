//! The agent registry: builds agents from spec strings (`mcts:iters=10000,c=0.7`).
//!
//! Core registers the game-independent agents (`random`, `human`, `mcts`, `flatmc`,
//! `alphabeta`) and one evaluator (`neutral`, also registered as `default`); each game
//! crate adds its own agents and evaluators (registering `default` replaces the neutral
//! one, so `mcts:cutoff=10` and `alphabeta:depth=6` use the game's evaluation).

use std::sync::Arc;
use std::time::Duration;

use crate::agent::{Agent, HumanAgent, RandomAgent};
use crate::game::Game;
use crate::search::alphabeta::AlphaBetaAgent;
use crate::search::flatmc::FlatMcAgent;
use crate::search::mcts::adaptive::{Adaptive, AdaptiveConfig, MoveChoice};
use crate::search::mcts::{
    AnyExpander, AnyPolicy, AnySelection, ChildEvaluation, Cutoff, CutoffUnit, EpsilonGreedy,
    EvalScorer, FinalMove, Mcts, MctsAgent, MctsParams, MoveScorer, NoExpander, Puct, Rollout,
    RootNoise, Softmax, Ucb1, UcbEval, Uniform, Widening,
};
use crate::search::{Budget, Evaluator, NeutralEvaluator};
use crate::spec::{AgentSpec, ParamDoc, SpecError, SpecParams};

/// Builds an agent from the spec's parameters and a seed.
pub type AgentFactory<G> = Arc<
    dyn Fn(&AgentRegistry<G>, &G, &mut SpecParams<'_>, u64) -> Result<Box<dyn Agent<G>>, SpecError>
        + Send
        + Sync,
>;

/// One registered agent kind.
pub struct AgentEntry<G: Game> {
    /// The name used in spec strings.
    pub name: String,
    /// One line saying what it is.
    pub summary: String,
    /// The parameters it takes.
    pub params: Vec<ParamDoc>,
    factory: AgentFactory<G>,
}

/// One registered evaluator.
pub struct EvaluatorEntry<G: Game> {
    /// The name used in `eval=` parameters.
    pub name: String,
    /// One line saying what it is.
    pub summary: String,
    /// The evaluator.
    pub evaluator: Arc<dyn Evaluator<G>>,
}

/// Agents and evaluators available for one game.
pub struct AgentRegistry<G: Game> {
    entries: Vec<AgentEntry<G>>,
    /// Names of agents that talk to a person (games run one at a time, no progress bar).
    interactive: Vec<String>,
    evaluators: Vec<EvaluatorEntry<G>>,
}

impl<G: Game> Default for AgentRegistry<G> {
    fn default() -> Self {
        Self::with_core_agents()
    }
}

impl<G: Game> AgentRegistry<G> {
    /// A registry with nothing in it.
    pub fn empty() -> Self {
        AgentRegistry {
            entries: Vec::new(),
            interactive: Vec::new(),
            evaluators: Vec::new(),
        }
    }

    /// A registry with core's agents and the neutral evaluator.
    pub fn with_core_agents() -> Self {
        let mut r = Self::empty();
        r.add_evaluator(
            "neutral",
            "every player gets the middle of the reward range",
            Arc::new(NeutralEvaluator::new()),
        );
        r.add_evaluator(
            "default",
            "the game's evaluation (here: neutral)",
            Arc::new(NeutralEvaluator::new()),
        );
        register_core(&mut r);
        r
    }

    /// Adds (or replaces) an agent kind.
    pub fn register(
        &mut self,
        name: &str,
        summary: &str,
        params: Vec<ParamDoc>,
        factory: AgentFactory<G>,
    ) {
        self.entries.retain(|e| e.name != name);
        self.entries.push(AgentEntry {
            name: name.into(),
            summary: summary.into(),
            params,
            factory,
        });
    }

    /// Marks the agent `name` as interactive (it reads from a terminal or another person):
    /// the arena then plays games one at a time and hides its progress bar.
    pub fn mark_interactive(&mut self, name: &str) {
        if !self.interactive.iter().any(|n| n == name) {
            self.interactive.push(name.to_string());
        }
    }

    /// Whether the agent `name` was marked interactive.
    pub fn is_interactive(&self, name: &str) -> bool {
        self.interactive.iter().any(|n| n == name)
    }

    /// Adds (or replaces) an evaluator.
    pub fn add_evaluator(&mut self, name: &str, summary: &str, evaluator: Arc<dyn Evaluator<G>>) {
        self.evaluators.retain(|e| e.name != name);
        self.evaluators.push(EvaluatorEntry {
            name: name.into(),
            summary: summary.into(),
            evaluator,
        });
    }

    /// The registered agent kinds.
    pub fn entries(&self) -> &[AgentEntry<G>] {
        &self.entries
    }

    /// The registered evaluators.
    pub fn evaluators(&self) -> &[EvaluatorEntry<G>] {
        &self.evaluators
    }

    /// The evaluator called `name`.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] listing the registered evaluators.
    pub fn evaluator(&self, agent: &str, name: &str) -> Result<Arc<dyn Evaluator<G>>, SpecError> {
        self.evaluators
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.evaluator.clone())
            .ok_or_else(|| SpecError::BadValue {
                agent: agent.into(),
                key: "eval".into(),
                value: name.into(),
                expected: format!(
                    "one of {}",
                    self.evaluators
                        .iter()
                        .map(|e| e.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })
    }

    /// Builds the agent `spec` describes; `seed` fixes all its random choices.
    ///
    /// # Errors
    /// [`SpecError`] for malformed text, unknown agents, unknown keys or bad values; the
    /// message lists what is accepted.
    pub fn build(&self, game: &G, spec: &str, seed: u64) -> Result<Box<dyn Agent<G>>, SpecError> {
        let parsed: AgentSpec = spec.parse()?;
        let entry = self
            .entries
            .iter()
            .find(|e| e.name == parsed.name)
            .ok_or_else(|| SpecError::UnknownAgent {
                name: parsed.name.clone(),
                accepted: self
                    .entries
                    .iter()
                    .map(|e| e.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        let mut params = SpecParams::new(&parsed, &entry.params);
        let agent = (entry.factory)(self, game, &mut params, seed)?;
        params.finish()?;
        Ok(agent)
    }

    /// Checks that `spec` builds, without keeping the agent.
    ///
    /// # Errors
    /// As [`AgentRegistry::build`].
    pub fn validate(&self, game: &G, spec: &str) -> Result<(), SpecError> {
        self.build(game, spec, 0).map(|_| ())
    }
}

/// Parameters of `mcts`, shown by `yomi agents`.
pub const MCTS_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        key: "iters",
        default: "10000",
        help: "iterations (playouts) per move, over all threads",
    },
    ParamDoc {
        key: "time",
        default: "-",
        help: "seconds per move (with iters: whichever ends first)",
    },
    ParamDoc {
        key: "threads",
        default: "1",
        help: "worker threads (root parallelism)",
    },
    ParamDoc {
        key: "select",
        default: "ucb1",
        help: "ucb1 | ucb-eval (X+w*E+c*sqrt(2ln n/n_i)) | puct",
    },
    ParamDoc {
        key: "c",
        default: "0.7071",
        help: "exploration constant (rewards are scaled to [0,1])",
    },
    ParamDoc {
        key: "w",
        default: "1",
        help: "weight of the evaluation term for select=ucb-eval",
    },
    ParamDoc {
        key: "fpu",
        default: "0.5",
        help: "value of unvisited children for select=puct",
    },
    ParamDoc {
        key: "expand",
        default: "1",
        help: "visits a leaf needs before its children are created",
    },
    ParamDoc {
        key: "memo",
        default: "false",
        help: "reuse a leaf's first playout result until it expands",
    },
    ParamDoc {
        key: "playout",
        default: "uniform",
        help: "uniform | egreedy | softmax | greedy (moves scored by eval) | mast | nst | lgr (adaptive, learned during the search)",
    },
    ParamDoc {
        key: "eps",
        default: "0.1",
        help: "random-move probability for playout=egreedy; given with mast or nst, they pick epsilon-greedily instead of by Gibbs sampling",
    },
    ParamDoc {
        key: "temp",
        default: "1",
        help: "softmax temperature for playout=softmax; Gibbs temperature for mast and nst on [0,1] rewards (default there 0.1)",
    },
    ParamDoc {
        key: "ngram",
        default: "3",
        help: "longest n-gram for playout=nst (1-3)",
    },
    ParamDoc {
        key: "decay",
        default: "0.2",
        help: "fraction of the mast / nst statistics kept from one search to the next (0 clears)",
    },
    ParamDoc {
        key: "cutoff",
        default: "-",
        help:
            "stop playouts after this many moves (or player turns, see cutunit) and judge by eval",
    },
    ParamDoc {
        key: "cutunit",
        default: "moves",
        help: "what cutoff counts: moves | turns (a run of one player's moves counts once)",
    },
    ParamDoc {
        key: "eval",
        default: "default",
        help: "evaluator for cutoff / greedy / ucb-eval (see `yomi agents`)",
    },
    ParamDoc {
        key: "order",
        default: "game",
        help: "child order for widening: game | shuffle | eval",
    },
    ParamDoc {
        key: "pw",
        default: "-",
        help: "progressive widening k(n) = ceil(pw * n^pwa)",
    },
    ParamDoc {
        key: "pwa",
        default: "0.5",
        help: "exponent of progressive widening",
    },
    ParamDoc {
        key: "final",
        default: "visits",
        help: "final move: visits | mean | boltzmann",
    },
    ParamDoc {
        key: "ftemp",
        default: "1",
        help: "temperature for final=boltzmann",
    },
    ParamDoc {
        key: "reuse",
        default: "true",
        help: "keep the subtree between moves",
    },
    ParamDoc {
        key: "dets",
        default: "8",
        help: "determinizations per move (imperfect-information games)",
    },
    ParamDoc {
        key: "dirichlet",
        default: "none",
        help: "Dirichlet alpha of root-prior noise (self-play exploration; select=puct)",
    },
    ParamDoc {
        key: "noise",
        default: "0.25",
        help: "weight of the root-prior noise when dirichlet is set",
    },
];

const FLATMC_PARAMS: &[ParamDoc] = &[ParamDoc {
    key: "n",
    default: "100",
    help: "playouts per legal move",
}];

const ALPHABETA_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        key: "depth",
        default: "6",
        help: "search depth in turns (iterative deepening up to it)",
    },
    ParamDoc {
        key: "time",
        default: "-",
        help: "seconds per move (stops deepening)",
    },
    ParamDoc {
        key: "eval",
        default: "default",
        help: "evaluator at the depth limit",
    },
];

fn positive<T: PartialOrd + Default + Copy>(
    p: &SpecParams<'_>,
    key: &str,
    v: T,
    text: &str,
) -> Result<T, SpecError> {
    if v > T::default() {
        Ok(v)
    } else {
        Err(p.bad(key, text, "a positive number"))
    }
}

/// Reads `mcts`'s parameters into [`MctsParams`] and the plug-in choices.
struct MctsChoice<G: Game> {
    params: MctsParams,
    selection: AnySelection,
    policy: AnyPolicy<G>,
    cutoff: Option<Cutoff<G>>,
    expander: AnyExpander<G>,
    adaptive: Option<AdaptiveConfig>,
}

fn read_mcts<G: Game>(
    reg: &AgentRegistry<G>,
    p: &mut SpecParams<'_>,
) -> Result<MctsChoice<G>, SpecError> {
    let agent = p.agent().to_string();
    let iters: Option<u64> = p.get_opt("iters", "a positive integer")?;
    let time: Option<f64> = p.get_opt("time", "seconds, e.g. 0.5")?;
    if let Some(t) = time {
        if !(t > 0.0 && t.is_finite()) {
            return Err(p.bad("time", &t.to_string(), "a positive number of seconds"));
        }
    }
    let budget = Budget {
        iterations: match (iters, time) {
            (None, None) => Some(10_000),
            (i, _) => i,
        },
        time: time.map(Duration::from_secs_f64),
    };
    if let Some(i) = budget.iterations {
        positive(p, "iters", i, &i.to_string())?;
    }
    let threads: usize = p.get("threads", 1, "a positive integer")?;
    positive(p, "threads", threads, &threads.to_string())?;
    let c: f64 = p.get("c", std::f64::consts::FRAC_1_SQRT_2, "a number")?;
    let w: f64 = p.get("w", 1.0, "a number")?;
    let fpu: f64 = p.get("fpu", 0.5, "a number in [0, 1]")?;
    let eval_name = p.raw("eval").unwrap_or("default");
    let eval = reg.evaluator(&agent, eval_name)?;
    let select = p.raw("select").unwrap_or("ucb1");
    let selection = match select {
        "ucb1" => AnySelection::Ucb1(Ucb1 { c }),
        "ucb-eval" => AnySelection::UcbEval(UcbEval { c, weight: w }),
        "puct" => AnySelection::Puct(Puct { c, fpu }),
        other => return Err(p.bad("select", other, "ucb1, ucb-eval or puct")),
    };
    let expand: u32 = p.get(
        "expand",
        if select == "puct" { 0 } else { 1 },
        "a non-negative integer",
    )?;
    let memo: bool = p.get("memo", false, "true or false")?;
    let eps: f64 = p.get("eps", 0.1, "a probability")?;
    if !(0.0..=1.0).contains(&eps) {
        return Err(p.bad("eps", &eps.to_string(), "a probability in [0, 1]"));
    }
    let eps_given = p.raw("eps").is_some();
    let adaptive_playout = matches!(p.raw("playout"), Some("mast" | "nst"));
    let temp: f64 = p.get(
        "temp",
        if adaptive_playout { 0.1 } else { 1.0 },
        "a positive number",
    )?;
    positive(p, "temp", temp, &temp.to_string())?;
    let ngram: usize = p.get("ngram", 3, "1, 2 or 3")?;
    if !(1..=3).contains(&ngram) {
        return Err(p.bad("ngram", &ngram.to_string(), "1, 2 or 3"));
    }
    let decay: f64 = p.get("decay", 0.2, "a fraction in [0, 1]")?;
    if !(0.0..=1.0).contains(&decay) {
        return Err(p.bad("decay", &decay.to_string(), "a fraction in [0, 1]"));
    }
    let choice = if eps_given {
        MoveChoice::EpsilonGreedy { epsilon: eps }
    } else {
        MoveChoice::Gibbs { temperature: temp }
    };
    let mut adaptive = None;
    let scorer: Arc<dyn MoveScorer<G>> = Arc::new(EvalScorer(eval.clone()));
    let policy = match p.raw("playout").unwrap_or("uniform") {
        "uniform" => AnyPolicy::Uniform,
        "egreedy" => AnyPolicy::EpsilonGreedy(EpsilonGreedy {
            epsilon: eps,
            scorer,
        }),
        "greedy" => AnyPolicy::EpsilonGreedy(EpsilonGreedy {
            epsilon: 0.0,
            scorer,
        }),
        "softmax" => AnyPolicy::Softmax(Softmax {
            temperature: temp,
            scorer,
        }),
        kind @ ("mast" | "nst" | "lgr") => {
            let base = match kind {
                "mast" => AdaptiveConfig::mast(temp),
                "nst" => AdaptiveConfig::nst(ngram, eps),
                _ => AdaptiveConfig::lgr(),
            };
            adaptive = Some(AdaptiveConfig {
                choice: if kind == "lgr" { base.choice } else { choice },
                decay,
                ..base
            });
            AnyPolicy::Uniform
        }
        other => {
            return Err(p.bad(
                "playout",
                other,
                "uniform, egreedy, softmax, greedy, mast, nst or lgr",
            ))
        }
    };
    let cutoff: Option<u32> = p.get_opt("cutoff", "a number of moves or turns")?;
    if let (Some(c), Some(_)) = (cutoff, adaptive) {
        return Err(p.bad(
            "cutoff",
            &c.to_string(),
            "no cut-off with adaptive playouts (mast, nst, lgr play to the end)",
        ));
    }
    let cut_unit = match p.raw("cutunit").unwrap_or("moves") {
        "moves" => CutoffUnit::Moves,
        "turns" => CutoffUnit::PlayerTurns,
        other => return Err(p.bad("cutunit", other, "moves or turns")),
    };
    let order = p.raw("order").unwrap_or("game");
    let expander = match (select, order) {
        ("ucb-eval", o) => AnyExpander::ChildEvaluation(ChildEvaluation {
            evaluator: eval.clone(),
            best_first: o == "eval",
        }),
        (_, "game") => AnyExpander::None,
        (_, "shuffle") => AnyExpander::Shuffled,
        (_, "eval") => AnyExpander::ChildEvaluation(ChildEvaluation {
            evaluator: eval.clone(),
            best_first: true,
        }),
        (_, other) => return Err(p.bad("order", other, "game, shuffle or eval")),
    };
    let pw: Option<f64> = p.get_opt("pw", "a positive number")?;
    let pwa: f64 = p.get("pwa", 0.5, "an exponent in (0, 1]")?;
    let widening = pw.map(|k| Widening::power(k, pwa));
    let ftemp: f64 = p.get("ftemp", 1.0, "a positive number")?;
    let final_move = match p.raw("final").unwrap_or("visits") {
        "visits" => FinalMove::MostVisits,
        "mean" => FinalMove::BestMean,
        "boltzmann" => FinalMove::Boltzmann { temperature: ftemp },
        other => return Err(p.bad("final", other, "visits, mean or boltzmann")),
    };
    let reuse: bool = p.get("reuse", true, "true or false")?;
    let dets: usize = p.get("dets", 8, "a positive integer")?;
    positive(p, "dets", dets, &dets.to_string())?;
    let dirichlet: Option<f64> = p.get_opt("dirichlet", "a positive number")?;
    let fraction: f64 = p.get("noise", 0.25, "a weight in [0, 1]")?;
    if !(0.0..=1.0).contains(&fraction) {
        return Err(p.bad("noise", &fraction.to_string(), "a weight in [0, 1]"));
    }
    let root_noise = match dirichlet {
        Some(alpha) if alpha > 0.0 && alpha.is_finite() => Some(RootNoise { alpha, fraction }),
        Some(alpha) => return Err(p.bad("dirichlet", &alpha.to_string(), "a positive number")),
        None => None,
    };
    Ok(MctsChoice {
        params: MctsParams {
            budget,
            expand_threshold: expand,
            memoize_leaves: memo,
            widening,
            final_move,
            threads,
            reuse_tree: reuse,
            determinizations: dets,
            root_noise,
            ..MctsParams::default()
        },
        selection,
        policy,
        cutoff: cutoff.map(|after| Cutoff {
            after,
            unit: cut_unit,
            evaluator: eval,
        }),
        expander,
        adaptive,
    })
}

fn register_core<G: Game>(r: &mut AgentRegistry<G>) {
    r.register(
        "random",
        "uniformly random legal moves",
        vec![],
        Arc::new(|_, _, _, seed| Ok(Box::new(RandomAgent::new(seed)))),
    );
    r.register(
        "human",
        "a person at the terminal: shows the board, reads moves (`moves` lists them)",
        vec![],
        Arc::new(|_, _, _, _| Ok(Box::new(HumanAgent::stdio()))),
    );
    r.mark_interactive("human");
    r.register(
        "mcts",
        "Monte Carlo tree search (UCT by default) with pluggable selection, playouts, cut-off and widening",
        MCTS_PARAMS.to_vec(),
        Arc::new(|reg, _, p, seed| {
            let name = p_spec_name(p);
            let c = read_mcts(reg, p)?;
            let plain = matches!(c.selection, AnySelection::Ucb1(_))
                && matches!(c.policy, AnyPolicy::Uniform)
                && matches!(c.expander, AnyExpander::None);
            // Plain UCT gets the monomorphised fast path; other combinations dispatch at run time.
            if let Some(a) = c.adaptive {
                let leaf = Adaptive::new(a);
                Ok(Box::new(MctsAgent::new(Mcts::new(c.params, c.selection, leaf, c.expander, seed), name)))
            } else if plain {
                let AnySelection::Ucb1(sel) = c.selection else { unreachable!() };
                let leaf = Rollout { policy: Uniform, cutoff: c.cutoff };
                Ok(Box::new(MctsAgent::new(Mcts::new(c.params, sel, leaf, NoExpander, seed), name)))
            } else {
                let leaf = Rollout { policy: c.policy, cutoff: c.cutoff };
                Ok(Box::new(MctsAgent::new(Mcts::new(c.params, c.selection, leaf, c.expander, seed), name)))
            }
        }),
    );
    r.register(
        "flatmc",
        "flat Monte Carlo: n uniform playouts per legal move, best mean",
        FLATMC_PARAMS.to_vec(),
        Arc::new(|_, _, p, seed| {
            let n: u32 = p.get("n", 100, "a positive integer")?;
            positive(p, "n", n, &n.to_string())?;
            Ok(Box::new(FlatMcAgent::new(n, seed)))
        }),
    );
    r.register(
        "alphabeta",
        "negamax alpha-beta with a transposition table and iterative deepening (two-player games)",
        ALPHABETA_PARAMS.to_vec(),
        Arc::new(|reg, game, p, seed| {
            let facts = game.facts();
            if facts.players != 2 || facts.dynamics != crate::Dynamics::Sequential {
                return Err(SpecError::BadValue {
                    agent: "alphabeta".into(),
                    key: "(game)".into(),
                    value: facts.name,
                    expected: "a two-player game with sequential moves".into(),
                });
            }
            let name = p_spec_name(p);
            let depth: u32 = p.get("depth", 6, "a positive integer")?;
            positive(p, "depth", depth, &depth.to_string())?;
            let time: Option<f64> = p.get_opt("time", "seconds")?;
            let eval = reg.evaluator("alphabeta", p.raw("eval").unwrap_or("default"))?;
            let budget = Budget {
                iterations: None,
                time: time.map(Duration::from_secs_f64),
            };
            Ok(Box::new(AlphaBetaAgent::new(
                eval, depth, budget, seed, name,
            )))
        }),
    );
}

fn p_spec_name(p: &SpecParams<'_>) -> String {
    p.spec().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Nim;

    #[test]
    fn builds_core_agents_and_explains_errors() {
        let reg = AgentRegistry::<Nim>::with_core_agents();
        let g = Nim::new(5);
        for spec in [
            "random",
            "mcts",
            "mcts:iters=100,c=0.7",
            "flatmc:n=10",
            "alphabeta:depth=3",
            "mcts:select=puct,iters=50",
            "mcts:select=ucb-eval,w=0.5,iters=50",
            "mcts:playout=egreedy,eps=0.2",
            "mcts:playout=softmax,temp=0.5,cutoff=3",
            "mcts:cutoff=2,cutunit=turns",
            "mcts:pw=1,pwa=0.5,order=shuffle",
            "mcts:final=boltzmann,ftemp=0.5",
            "mcts:time=0.01,threads=2",
            "mcts:select=puct,expand=0,dirichlet=0.5,noise=0.3",
            "mcts:playout=mast",
            "mcts:playout=mast,temp=0.2,decay=0",
            "mcts:playout=mast,eps=0.4",
            "mcts:playout=nst,ngram=2,eps=0.4",
            "mcts:playout=lgr,iters=50",
        ] {
            let a = reg
                .build(&g, spec, 1)
                .unwrap_or_else(|e| panic!("{spec}: {e}"));
            assert_eq!(a.name(), spec.parse::<AgentSpec>().unwrap().to_string());
        }
        let e = reg.build(&g, "mtcs", 1).err().unwrap().to_string();
        assert!(
            e.contains("accepted: random, human, mcts, flatmc, alphabeta"),
            "{e}"
        );
        let e = reg.build(&g, "mcts:iter=5", 1).err().unwrap().to_string();
        assert!(
            e.contains("no parameter \"iter\"") && e.contains("iters"),
            "{e}"
        );
        let e = reg.build(&g, "mcts:c=abc", 1).err().unwrap().to_string();
        assert!(e.contains("bad value"), "{e}");
        let e = reg
            .build(&g, "mcts:select=foo", 1)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("ucb1, ucb-eval or puct"), "{e}");
        let e = reg
            .build(&g, "mcts:eval=zebra", 1)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("neutral"), "{e}");
        assert!(reg.build(&g, "mcts:iters=0", 1).is_err());
        assert!(reg.build(&g, "mcts:playout=nst,ngram=4", 1).is_err());
        assert!(reg.build(&g, "mcts:playout=mast,cutoff=3", 1).is_err());
        assert!(reg.build(&g, "mcts:playout=mast,decay=2", 1).is_err());
        let e = reg
            .build(&g, "mcts:playout=mest", 1)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("mast, nst or lgr"), "{e}");
        assert!(reg.build(&g, "mcts:dirichlet=-1", 1).is_err());
        assert!(reg.build(&g, "mcts:dirichlet=0.3,noise=2", 1).is_err());
        assert!(reg.build(&g, "flatmc:n=-3", 1).is_err());
    }
}
