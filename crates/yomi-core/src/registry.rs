//! The agent registry: turns spec strings (`mcts:iters=10000,c=0.7`) into agents.
//!
//! A spec is parsed once where it enters ([`AgentSpec`]); [`AgentRegistry::resolve`] reads
//! and checks its parameters against one game, resolves evaluators and loads whatever the
//! agent needs (a weights file, an inner agent's recipe), and gives a [`Recipe`] without
//! building an agent. The recipe then builds one fresh agent per game
//! ([`Recipe::build`]): a round robin of thousands of games reads each spec once.
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
use crate::search::mcts::adaptive::Adaptive;
use crate::search::mcts::config::MctsConfig;
use crate::search::mcts::{
    AnyExpander, AnyPolicy, AnySelection, Mcts, MctsAgent, NoExpander, Rollout, Uniform,
};
use crate::search::{Budget, Evaluator, NeutralEvaluator};
use crate::spec::{AgentSpec, ParamDoc, SpecError, SpecParams};

/// Reads and checks one agent kind's parameters for a game and returns the builder of its
/// agents; it builds no agent itself.
pub type AgentFactory<G> = Arc<
    dyn Fn(&AgentRegistry<G>, &G, &mut SpecParams<'_>) -> Result<AgentBuilder<G>, SpecError>
        + Send
        + Sync,
>;

/// Builds one agent of a checked spec for a game and a seed (the seed fixes all its random
/// choices). Cannot fail: everything that could was checked when the spec was resolved.
pub type AgentBuilder<G> = Arc<dyn Fn(&G, u64) -> Box<dyn Agent<G>> + Send + Sync>;

/// Wraps a closure as an [`AgentBuilder`].
pub fn builder<G: Game>(
    f: impl Fn(&G, u64) -> Box<dyn Agent<G>> + Send + Sync + 'static,
) -> AgentBuilder<G> {
    Arc::new(f)
}

/// A spec checked against a registry and a game: parameters read and in range, evaluators
/// and files resolved. Cheap to clone and to share between threads; each
/// [`Recipe::build`] gives a fresh agent.
pub struct Recipe<G: Game> {
    spec: AgentSpec,
    interactive: bool,
    builder: AgentBuilder<G>,
}

impl<G: Game> Clone for Recipe<G> {
    fn clone(&self) -> Self {
        Recipe {
            spec: self.spec.clone(),
            interactive: self.interactive,
            builder: self.builder.clone(),
        }
    }
}

impl<G: Game> std::fmt::Debug for Recipe<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Recipe({})", self.spec)
    }
}

impl<G: Game> Recipe<G> {
    /// The spec it was resolved from.
    pub fn spec(&self) -> &AgentSpec {
        &self.spec
    }

    /// Whether the agent talks to a person (see [`AgentRegistry::mark_interactive`]).
    pub fn is_interactive(&self) -> bool {
        self.interactive
    }

    /// A fresh agent for `game` (a game of the kind the recipe was resolved for); `seed`
    /// fixes all its random choices.
    pub fn build(&self, game: &G, seed: u64) -> Box<dyn Agent<G>> {
        (self.builder)(game, seed)
    }
}

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

    /// Reads and checks `spec` for `game` without building an agent.
    ///
    /// # Errors
    /// [`SpecError`] for unknown agents, unknown keys or bad values (the message lists what
    /// is accepted), and for anything the agent needs that cannot be had (a weights file
    /// that does not load, an agent that does not play this kind of game).
    pub fn resolve(&self, game: &G, parsed: &AgentSpec) -> Result<Recipe<G>, SpecError> {
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
        let mut params = SpecParams::new(parsed, &entry.params);
        let builder = (entry.factory)(self, game, &mut params)?;
        params.finish()?;
        Ok(Recipe {
            spec: parsed.clone(),
            interactive: self.is_interactive(&parsed.name),
            builder,
        })
    }

    /// Parses `spec` and resolves it ([`AgentRegistry::resolve`]).
    ///
    /// # Errors
    /// [`SpecError`] for malformed text and as [`AgentRegistry::resolve`].
    pub fn recipe(&self, game: &G, spec: &str) -> Result<Recipe<G>, SpecError> {
        self.resolve(game, &spec.parse()?)
    }

    /// Builds the agent `spec` describes; `seed` fixes all its random choices. For more
    /// than one agent of a spec, resolve it once ([`AgentRegistry::recipe`]) and build
    /// from the recipe.
    ///
    /// # Errors
    /// As [`AgentRegistry::recipe`].
    pub fn build(&self, game: &G, spec: &str, seed: u64) -> Result<Box<dyn Agent<G>>, SpecError> {
        Ok(self.recipe(game, spec)?.build(game, seed))
    }

    /// Checks that `spec` resolves for `game`; builds no agent.
    ///
    /// # Errors
    /// As [`AgentRegistry::recipe`].
    pub fn validate(&self, game: &G, spec: &str) -> Result<(), SpecError> {
        self.recipe(game, spec).map(|_| ())
    }
}

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

fn register_core<G: Game>(r: &mut AgentRegistry<G>) {
    r.register(
        "random",
        "uniformly random legal moves",
        vec![],
        Arc::new(|_, _, _| Ok(builder(|_, seed| Box::new(RandomAgent::new(seed))))),
    );
    r.register(
        "human",
        "a person at the terminal: shows the board, reads moves (`moves` lists them)",
        vec![],
        Arc::new(|_, _, _| Ok(builder(|_, _| Box::new(HumanAgent::stdio())))),
    );
    r.mark_interactive("human");
    r.register(
        "mcts",
        "Monte Carlo tree search (UCT by default) with pluggable selection, playouts, cut-off and widening",
        MctsConfig::docs().to_vec(),
        Arc::new(|reg, _, p| {
            let name = p.spec().to_string();
            let config = MctsConfig::read(p)?;
            let eval = reg.evaluator(p.agent(), &config.eval)?;
            let params = config.params();
            let c = config.plugins(&eval);
            let plain = matches!(c.selection, AnySelection::Ucb1(_))
                && matches!(c.policy, AnyPolicy::Uniform)
                && matches!(c.expander, AnyExpander::None);
            // Plain UCT gets the monomorphised fast path; other combinations dispatch at run time.
            Ok(builder(move |_, seed| {
                let c = c.clone();
                let params = params.clone();
                let name = name.clone();
                if let Some(a) = c.adaptive {
                    let leaf = Adaptive::new(a);
                    Box::new(MctsAgent::new(Mcts::new(params, c.selection, leaf, c.expander, seed), name))
                } else if let (true, AnySelection::Ucb1(sel)) = (plain, c.selection) {
                    let leaf = Rollout { policy: Uniform, cutoff: c.cutoff };
                    Box::new(MctsAgent::new(Mcts::new(params, sel, leaf, NoExpander, seed), name))
                } else {
                    let leaf = Rollout { policy: c.policy, cutoff: c.cutoff };
                    Box::new(MctsAgent::new(Mcts::new(params, c.selection, leaf, c.expander, seed), name))
                }
            }))
        }),
    );
    r.register(
        "flatmc",
        "flat Monte Carlo: n uniform playouts per legal move, best mean",
        FLATMC_PARAMS.to_vec(),
        Arc::new(|_, _, p| {
            let n: u32 = p.get("n", 100, "a positive integer")?;
            positive(p, "n", n, &n.to_string())?;
            Ok(builder(move |_, seed| Box::new(FlatMcAgent::new(n, seed))))
        }),
    );
    r.register(
        "alphabeta",
        "negamax alpha-beta with a transposition table and iterative deepening (two-player games)",
        ALPHABETA_PARAMS.to_vec(),
        Arc::new(|reg, game, p| {
            let facts = game.facts();
            if facts.players != 2 || facts.dynamics != crate::Dynamics::Sequential {
                return Err(SpecError::BadValue {
                    agent: "alphabeta".into(),
                    key: "(game)".into(),
                    value: facts.name.clone(),
                    expected: "a two-player game with sequential moves".into(),
                });
            }
            let name = p.spec().to_string();
            let depth: u32 = p.get("depth", 6, "a positive integer")?;
            positive(p, "depth", depth, &depth.to_string())?;
            let time: Option<f64> = p.get_opt("time", "seconds")?;
            let eval = reg.evaluator("alphabeta", p.raw("eval").unwrap_or("default"))?;
            let budget = Budget {
                iterations: None,
                time: time.map(Duration::from_secs_f64),
            };
            Ok(builder(move |_, seed| {
                Box::new(AlphaBetaAgent::new(
                    eval.clone(),
                    depth,
                    budget,
                    seed,
                    name.clone(),
                ))
            }))
        }),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Nim;

    #[test]
    fn a_spec_is_resolved_once_and_its_recipe_builds_fresh_agents() {
        use crate::arena::RoundRobin;
        use std::sync::atomic::{AtomicUsize, Ordering};
        static RESOLVED: AtomicUsize = AtomicUsize::new(0);
        static BUILT: AtomicUsize = AtomicUsize::new(0);
        let mut reg = AgentRegistry::<Nim>::with_core_agents();
        reg.register(
            "counted",
            "random moves, counting resolutions and builds",
            vec![ParamDoc {
                key: "k",
                default: "1",
                help: "unused",
            }],
            Arc::new(|_, _, p| {
                let _: u32 = p.get("k", 1, "a number")?;
                RESOLVED.fetch_add(1, Ordering::SeqCst);
                Ok(builder(|_, seed| {
                    BUILT.fetch_add(1, Ordering::SeqCst);
                    Box::new(RandomAgent::new(seed))
                }))
            }),
        );
        let g = Nim::new(5);
        let recipe = reg.recipe(&g, "counted:k=2").unwrap();
        assert_eq!(
            (
                RESOLVED.load(Ordering::SeqCst),
                BUILT.load(Ordering::SeqCst)
            ),
            (1, 0),
            "resolving builds no agent"
        );
        assert_eq!(recipe.spec().to_string(), "counted:k=2");
        let _a = recipe.build(&g, 1);
        let _b = recipe.clone().build(&g, 2);
        assert_eq!(BUILT.load(Ordering::SeqCst), 2);
        // A bad value is refused when resolving, before anything is built.
        assert!(reg.recipe(&g, "counted:k=x").is_err());
        assert!(reg.recipe(&g, "counted:q=1").is_err());
        // A round robin of 3 games between two entrants resolves each spec once.
        let (resolved, built) = (
            RESOLVED.load(Ordering::SeqCst),
            BUILT.load(Ordering::SeqCst),
        );
        let rr = RoundRobin {
            agents: vec!["counted".into(), "counted".into()],
            games: 3,
            seed: 0,
            threads: Some(1),
            turn_limit: None,
            out: None,
            quiet: true,
        };
        let result = rr.run(&g, &reg).unwrap();
        assert_eq!(result.records.len(), 3);
        assert_eq!(RESOLVED.load(Ordering::SeqCst) - resolved, 2);
        assert_eq!(
            BUILT.load(Ordering::SeqCst) - built,
            6,
            "one agent per seat per game"
        );
        // Resolved by the caller (as the command line does, to word its errors), then
        // played: still one resolution per spec.
        let resolved = RESOLVED.load(Ordering::SeqCst);
        let entrants = rr.resolve(&g, &reg).unwrap();
        assert_eq!(entrants.entrants[1].label, "counted#2");
        let result = rr.run_resolved(&g, entrants.clone()).unwrap();
        assert_eq!(result.records.len(), 3);
        assert_eq!(RESOLVED.load(Ordering::SeqCst) - resolved, 2);
        // Entrants resolved for another configuration are refused.
        let three = RoundRobin {
            agents: vec!["counted".into(), "counted".into(), "random".into()],
            ..rr.clone()
        };
        assert!(matches!(
            three.run_resolved(&g, entrants),
            Err(crate::arena::ArenaError::Config(_))
        ));
    }

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
        assert!(e.contains("ucb1, ucb-eval, ucb-prior or puct"), "{e}");
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
