//! Players that use a policy, by the paper's three play methods, all on core's searches:
//!
//! - **Direct** (`play=direct`): the move is drawn from π (the paper: "choose the move
//!   directly by the probabilities the policy gives"), through core's softmax playout
//!   policy; `play=greedy` plays π's most probable move instead;
//! - **Simple-MC** (`play=simple-mc`): core's flat Monte Carlo, `sims` playouts with π per
//!   legal move, the best mean;
//! - **UCT** (`play=uct`): core's MCTS (UCB1) with π in the playouts, `legal moves × sims`
//!   iterations, the move with the highest mean reward.
//!
//! The uniform random policy (UR) is `w=uniform`: core's uniform playouts.
//!
//! Agents are registered in a core [`AgentRegistry`] as `policy:w=NAME,play=METHOD,sims=N`,
//! so the arena's round robins, records and tables work unchanged.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use yomi_core::agent::{moves_of, Agent, AgentError};
use yomi_core::registry::{builder, AgentRegistry};
use yomi_core::search::flatmc::flat_monte_carlo;
use yomi_core::search::mcts::{
    AnyPolicy, FinalMove, Mcts, MctsParams, MoveScorer, NoExpander, PlayoutPolicy, Rollout,
    Softmax, Ucb1,
};
use yomi_core::search::Budget;
use yomi_core::spec::{ParamDoc, SpecError};
use yomi_core::{Player, Rng};

use crate::features::FeatureGame;
use crate::policy::{LinearPolicy, PolicyScorer};

/// How a policy chooses moves in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlayMethod {
    /// A move drawn from π.
    Direct,
    /// π's most probable move.
    Greedy,
    /// Flat Monte Carlo with π's playouts.
    SimpleMc,
    /// UCT with π's playouts.
    Uct,
}

impl PlayMethod {
    /// The paper's three methods.
    pub const PAPER: [PlayMethod; 3] = [PlayMethod::Direct, PlayMethod::SimpleMc, PlayMethod::Uct];
}

impl fmt::Display for PlayMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayMethod::Direct => "direct",
            PlayMethod::Greedy => "greedy",
            PlayMethod::SimpleMc => "simple-mc",
            PlayMethod::Uct => "uct",
        })
    }
}

impl FromStr for PlayMethod {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "direct" => Ok(PlayMethod::Direct),
            "greedy" => Ok(PlayMethod::Greedy),
            "simple-mc" | "simplemc" => Ok(PlayMethod::SimpleMc),
            "uct" => Ok(PlayMethod::Uct),
            _ => Err(format!("unknown play method {s:?}")),
        }
    }
}

type Search<G> = Mcts<G, Ucb1, Rollout<G, AnyPolicy<G>>, NoExpander>;

/// A player using a policy (`None`: uniform random) by one play method.
pub struct PolicyAgent<G: FeatureGame> {
    name: String,
    policy: AnyPolicy<G>,
    scorer: Option<PolicyScorer>,
    play: PlayMethod,
    sims: u32,
    rng: Rng,
    search: Option<Search<G>>,
    moves: Vec<G::Move>,
}

impl<G: FeatureGame> PolicyAgent<G> {
    /// A player named `name` (its spec) using `policy` (uniform when `None`).
    pub fn new(
        name: String,
        policy: Option<Arc<LinearPolicy>>,
        play: PlayMethod,
        sims: u32,
        seed: u64,
    ) -> Self {
        let scorer = policy.map(PolicyScorer);
        let any = match &scorer {
            None => AnyPolicy::Uniform,
            Some(s) => AnyPolicy::Softmax(Softmax {
                temperature: 1.0,
                scorer: Arc::new(s.clone()) as Arc<dyn MoveScorer<G>>,
            }),
        };
        let search = (play == PlayMethod::Uct).then(|| {
            let params = MctsParams {
                budget: Budget::iterations(1),
                final_move: FinalMove::BestMean,
                reuse_tree: false,
                ..MctsParams::default()
            };
            Mcts::new(
                params,
                Ucb1::default(),
                Rollout::new(any.clone()),
                NoExpander,
                seed ^ 0x0055_4354,
            )
        });
        PolicyAgent {
            name,
            policy: any,
            scorer,
            play,
            sims: sims.max(1),
            rng: Rng::seed_from_u64(seed),
            search,
            moves: Vec::new(),
        }
    }
}

impl<G: FeatureGame> Agent<G> for PolicyAgent<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn select_move(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
    ) -> Result<G::Move, AgentError> {
        moves_of(game, state, player, &mut self.moves);
        if self.moves.is_empty() {
            return Err(AgentError::NoMove(format!("{player} has no legal move")));
        }
        if self.moves.len() == 1 {
            return Ok(self.moves[0]);
        }
        let none = || AgentError::NoMove(format!("{player} has no legal move"));
        match self.play {
            PlayMethod::Direct => {
                Ok(self
                    .policy
                    .choose_among(game, state, player, &self.moves, &mut self.rng))
            }
            PlayMethod::Greedy => {
                let Some(s) = &self.scorer else {
                    return Ok(self.moves[self.rng.below(self.moves.len())]);
                };
                let mut best = (f64::NEG_INFINITY, self.moves[0]);
                for &m in &self.moves {
                    let v = s.0.score(game, state, player, m);
                    if v > best.0 {
                        best = (v, m);
                    }
                }
                Ok(best.1)
            }
            PlayMethod::SimpleMc => {
                let mut leaf = Rollout::new(self.policy.clone());
                let scored =
                    flat_monte_carlo(game, state, player, self.sims, &mut leaf, &mut self.rng);
                scored
                    .iter()
                    .fold(None::<(G::Move, f64)>, |best, &(m, v)| match best {
                        Some((_, bv)) if bv >= v => best,
                        _ => Some((m, v)),
                    })
                    .map(|(m, _)| m)
                    .ok_or_else(none)
            }
            PlayMethod::Uct => {
                let n = self.moves.len() as u64 * u64::from(self.sims);
                let search = self.search.as_mut().expect("built for play=uct");
                search.params.budget = Budget::iterations(n);
                let result = search.search_for(game, state, player);
                search.choose(&result).ok_or_else(none)
            }
        }
    }
}

/// Parameters of the `policy` agent.
pub const POLICY_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        key: "w",
        default: "uniform",
        help: "the policy's name (as loaded), or uniform",
    },
    ParamDoc {
        key: "play",
        default: "direct",
        help: "direct (draw from the policy) | greedy | simple-mc | uct",
    },
    ParamDoc {
        key: "sims",
        default: "100",
        help: "simple-mc: playouts per legal move; uct: iterations per legal move",
    },
];

/// Registers the agent `policy` in `registry`, able to use the named `policies` (and
/// `uniform`).
pub fn register_policy_agent<G: FeatureGame>(
    registry: &mut AgentRegistry<G>,
    policies: Vec<(String, Arc<LinearPolicy>)>,
) {
    let policies = Arc::new(policies);
    registry.register(
        "policy",
        "a learned softmax policy (yomi-learn) played directly, by flat Monte Carlo or by UCT",
        POLICY_PARAMS.to_vec(),
        Arc::new(move |_, game, p| {
            let w: String = p.get("w", "uniform".to_string(), "a policy name")?;
            let policy = if w == "uniform" {
                None
            } else {
                let found = policies
                    .iter()
                    .find(|(n, _)| *n == w)
                    .map(|(_, p)| p.clone());
                let known: Vec<&str> = policies.iter().map(|(n, _)| n.as_str()).collect();
                Some(found.ok_or_else(|| SpecError::BadValue {
                    agent: "policy".into(),
                    key: "w".into(),
                    value: w.clone(),
                    expected: format!("uniform or one of: {}", known.join(", ")),
                })?)
            };
            if let Some(pol) = &policy {
                if !pol.fits(game) {
                    return Err(p.bad("w", &w, "weights learned for this game"));
                }
            }
            let play: PlayMethod = p.get(
                "play",
                PlayMethod::Direct,
                "direct, greedy, simple-mc or uct",
            )?;
            let sims: u32 = p.get("sims", 100, "a positive integer")?;
            if sims == 0 {
                return Err(p.bad("sims", "0", "a positive integer"));
            }
            let name = format!("policy:w={w},play={play},sims={sims}");
            Ok(builder(move |_, seed| {
                Box::new(PolicyAgent::new(
                    name.clone(),
                    policy.clone(),
                    play,
                    sims,
                    seed,
                ))
            }))
        }),
    );
}
