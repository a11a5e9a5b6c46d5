//! AlphaZero search on core's one MCTS: [`NetExpander`] sets every new node's priors from
//! the policy head (softmax over the legal moves' logits only), [`NetLeaf`] returns the
//! value head instead of a playout, selection is core's [`Puct`], and nodes are expanded
//! when created (`expand_threshold` 0). Both plug-ins ask the same [`NetClient`], whose
//! cache makes it one network call per node. Root Dirichlet noise is core's
//! [`MctsParams::root_noise`]; the move is chosen from the visit counts (Boltzmann with a
//! temperature for the first moves, then the most visited).
//!
//! Value convention: the network's value is for the player to move, in `[-1, 1]`; the leaf
//! evaluator maps it into the game's reward bounds (the mover gets `v`, the other player
//! `-v`), so two-player zero-sum games are supported.

use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::Arc;

use yomi_core::agent::{Agent, AgentError, Played};
use yomi_core::registry::{builder, AgentRegistry};
use yomi_core::search::mcts::{
    EdgeSlot, Expander, FinalMove, LeafEvaluator, Mcts, MctsParams, Puct, RootNoise, SearchResult,
};
use yomi_core::search::Budget;
use yomi_core::spec::ParamDoc;
use yomi_core::{Game, Player, Rewards, Rng, TensorGame, Turn};

use crate::device::DeviceKind;
use crate::net::DualNet;
use crate::service::{Evaluation, NetClient};

/// Shared by the two plug-ins: the client and an encoding buffer.
struct NetPlugin<G> {
    client: NetClient,
    _game: PhantomData<fn() -> G>,
}

impl<G> Clone for NetPlugin<G> {
    fn clone(&self) -> Self {
        NetPlugin {
            client: self.client.clone(),
            _game: PhantomData,
        }
    }
}

impl<G: TensorGame> NetPlugin<G> {
    fn evaluate(&self, game: &G, state: &G::State, mover: Player) -> Arc<Evaluation> {
        let key = game.hash(state);
        if let Some(e) = self.client.cached(key) {
            return e;
        }
        let mut input = vec![0.0; self.client.spec().shape().len()];
        game.encode(state, mover, &mut input);
        self.client.evaluate(key, input)
    }
}

/// Priors from the policy head, masked to the legal moves. See the [module docs](self).
pub struct NetExpander<G>(NetPlugin<G>);

impl<G> Clone for NetExpander<G> {
    fn clone(&self) -> Self {
        NetExpander(self.0.clone())
    }
}

impl<G: TensorGame> NetExpander<G> {
    /// An expander asking `client`.
    pub fn new(client: NetClient) -> Self {
        NetExpander(NetPlugin {
            client,
            _game: PhantomData,
        })
    }
}

/// The softmax of `logits` restricted to `indices` (the legal moves), written to `out`.
pub fn masked_softmax(logits: &[f32], indices: &[usize], out: &mut [f32]) {
    let max = indices
        .iter()
        .map(|&i| logits[i])
        .fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0f32;
    for (o, &i) in out.iter_mut().zip(indices) {
        *o = (logits[i] - max).exp();
        sum += *o;
    }
    if sum > 0.0 && sum.is_finite() {
        out.iter_mut().for_each(|o| *o /= sum);
    } else {
        let u = 1.0 / indices.len().max(1) as f32;
        out.iter_mut().for_each(|o| *o = u);
    }
}

impl<G: TensorGame> Expander<G> for NetExpander<G> {
    fn expand(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        slots: &mut [EdgeSlot<G::Move>],
        _: &mut Rng,
    ) {
        if game.turn(state) != Turn::Player(player) || slots.is_empty() {
            return;
        }
        let e = self.0.evaluate(game, state, player);
        let indices: Vec<usize> = slots
            .iter()
            .map(|s| game.action_index(state, s.mv))
            .collect();
        let mut priors = vec![0.0; slots.len()];
        masked_softmax(&e.logits, &indices, &mut priors);
        for (s, p) in slots.iter_mut().zip(priors) {
            s.prior = p;
        }
    }
}

/// The value head as the leaf evaluation (no playout). See the [module docs](self).
pub struct NetLeaf<G> {
    plugin: NetPlugin<G>,
}

impl<G> Clone for NetLeaf<G> {
    fn clone(&self) -> Self {
        NetLeaf {
            plugin: self.plugin.clone(),
        }
    }
}

impl<G: TensorGame> NetLeaf<G> {
    /// A leaf evaluator asking `client`.
    pub fn new(client: NetClient) -> Self {
        NetLeaf {
            plugin: NetPlugin {
                client,
                _game: PhantomData,
            },
        }
    }
}

/// Rewards in `game`'s units when the player to move, `mover`, has value `v` in `[-1, 1]`.
pub fn value_to_rewards<G: Game>(game: &G, mover: Player, v: f64) -> Rewards {
    let f = game.facts();
    let (lo, hi) = f.reward_bounds;
    let mut r = Rewards::zeros(f.players);
    let v = v.clamp(-1.0, 1.0);
    for p in f.all_players() {
        let x = if p == mover { v } else { -v };
        r.set(p, lo + (x + 1.0) * 0.5 * (hi - lo));
    }
    r
}

impl<G: TensorGame> LeafEvaluator<G> for NetLeaf<G> {
    fn evaluate(
        &mut self,
        game: &G,
        state: &mut G::State,
        _: &mut Rng,
        _: &mut Vec<G::Move>,
    ) -> Rewards {
        match game.turn(state) {
            Turn::Player(p) => {
                let e = self.plugin.evaluate(game, state, p);
                value_to_rewards(game, p, e.value as f64)
            }
            Turn::Terminal => game.returns(state),
            // Joint turns have no single "player to move" for the network's value.
            Turn::Simultaneous => value_to_rewards(game, Player(0), 0.0),
        }
    }
}

/// The AlphaZero search type: core's MCTS with PUCT and the two network plug-ins.
pub type AzMcts<G> = Mcts<G, Puct, NetLeaf<G>, NetExpander<G>>;

/// Settings of the network-guided search.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AzParams {
    /// Simulations (iterations) per move.
    #[serde(default = "d_sims")]
    pub simulations: u64,
    /// PUCT exploration constant on `[0, 1]` values (AlphaZero's c on `[-1, 1]` is twice
    /// this).
    #[serde(default = "d_c")]
    pub c_puct: f64,
    /// Value of unvisited children, in `[0, 1]` (0.5 = a draw).
    #[serde(default = "d_fpu")]
    pub fpu: f64,
    /// Dirichlet concentration of the root noise; 0 turns noise off.
    #[serde(default)]
    pub noise_alpha: f64,
    /// Weight of the root noise (AlphaZero: 0.25).
    #[serde(default)]
    pub noise_fraction: f64,
    /// Temperature of the visit-count distribution for the first `temperature_moves`
    /// moves of a game.
    #[serde(default = "d_temp")]
    pub temperature: f64,
    /// Moves (plies) of a game played with `temperature`; later moves take the most
    /// visited child.
    #[serde(default)]
    pub temperature_moves: usize,
}

fn d_sims() -> u64 {
    100
}
fn d_c() -> f64 {
    1.25
}
fn d_fpu() -> f64 {
    0.5
}
fn d_temp() -> f64 {
    1.0
}

impl Default for AzParams {
    fn default() -> Self {
        AzParams {
            simulations: d_sims(),
            c_puct: d_c(),
            fpu: d_fpu(),
            noise_alpha: 0.0,
            noise_fraction: 0.0,
            temperature: d_temp(),
            temperature_moves: 0,
        }
    }
}

impl AzParams {
    /// Core's search parameters for these settings.
    pub fn mcts_params(&self) -> MctsParams {
        MctsParams {
            budget: Budget::iterations(self.simulations.max(1)),
            expand_threshold: 0,
            reuse_tree: false,
            threads: 1,
            root_noise: (self.noise_alpha > 0.0 && self.noise_fraction > 0.0).then_some(
                RootNoise {
                    alpha: self.noise_alpha,
                    fraction: self.noise_fraction,
                },
            ),
            ..MctsParams::default()
        }
    }

    /// The final-move rule at ply `ply` of a game.
    pub fn final_move(&self, ply: usize) -> FinalMove {
        if ply < self.temperature_moves && self.temperature > 0.0 {
            FinalMove::Boltzmann {
                temperature: self.temperature,
            }
        } else {
            FinalMove::MostVisits
        }
    }

    /// The search, asking `client`.
    pub fn search<G: TensorGame>(&self, client: NetClient, seed: u64) -> AzMcts<G> {
        Mcts::new(
            self.mcts_params(),
            Puct {
                c: self.c_puct,
                fpu: self.fpu,
            },
            NetLeaf::new(client.clone()),
            NetExpander::new(client),
            seed,
        )
    }
}

/// The visit distribution of a search as a dense policy target (`policy_size` long).
pub fn visit_policy<G: TensorGame>(
    game: &G,
    state: &G::State,
    result: &SearchResult<G::Move>,
) -> Vec<(u32, f32)> {
    let total: u64 = result.children.iter().map(|c| c.visits).sum();
    result
        .children
        .iter()
        .filter(|c| c.visits > 0)
        .map(|c| {
            (
                game.action_index(state, c.mv) as u32,
                (c.visits as f64 / total.max(1) as f64) as f32,
            )
        })
        .collect()
}

/// An agent that plays by the network-guided search. It counts the plies it is told about
/// (through [`Agent::observe`]) to apply the temperature to the first moves only.
pub struct AzAgent<G: TensorGame> {
    mcts: AzMcts<G>,
    params: AzParams,
    ply: usize,
    name: String,
}

impl<G: TensorGame> AzAgent<G> {
    /// An agent named `name` searching with `params` on `client`.
    pub fn new(params: AzParams, client: NetClient, seed: u64, name: String) -> Self {
        AzAgent {
            mcts: params.search(client, seed),
            params,
            ply: 0,
            name,
        }
    }
}

impl<G: TensorGame> Agent<G> for AzAgent<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn select_move(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
    ) -> Result<G::Move, AgentError> {
        self.mcts.params.final_move = self.params.final_move(self.ply);
        let result = self.mcts.search_for(game, state, player);
        self.mcts
            .choose(&result)
            .ok_or_else(|| AgentError::NoMove(format!("{player} has no legal move")))
    }

    fn observe(&mut self, _: &G, _: &G::State, _: Played<'_, G::Move>) {
        self.ply += 1;
    }
}

/// Parameters of the `az` agent, shown by `yomi agents`.
pub const AZ_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        key: "net",
        default: "(required)",
        help: "weights file written by yomi-nn training",
    },
    ParamDoc {
        key: "sims",
        default: "100",
        help: "network-guided simulations per move",
    },
    ParamDoc {
        key: "c",
        default: "1.25",
        help: "PUCT exploration constant (values in [0,1])",
    },
    ParamDoc {
        key: "fpu",
        default: "0.5",
        help: "value of unvisited children, 0..1",
    },
    ParamDoc {
        key: "temp",
        default: "0",
        help: "temperature of the visit distribution for the first tmoves plies (0 = most visited)",
    },
    ParamDoc {
        key: "tmoves",
        default: "0",
        help: "plies played with temp",
    },
    ParamDoc {
        key: "device",
        default: "flex",
        help: "flex | tch | tch-cuda | cuda (the last three need cargo features)",
    },
];

/// Registers the `az` agent (`az:net=PATH,sims=N`) for a game that implements
/// [`TensorGame`]; `net` is required.
pub fn register_az<G: TensorGame>(registry: &mut AgentRegistry<G>) {
    register(registry, AZ_PARAMS.to_vec(), None);
}

/// Registers `az` with a network that ships with the game: `builtin` is a weights file's
/// bytes (e.g. `include_bytes!`), used when the spec names no `net`; `origin` names it in
/// help and errors.
pub fn register_az_with_builtin<G: TensorGame>(
    registry: &mut AgentRegistry<G>,
    builtin: &'static [u8],
    origin: &'static str,
) {
    let mut docs = AZ_PARAMS.to_vec();
    for d in &mut docs {
        if d.key == "net" {
            d.default = origin;
        }
    }
    register(registry, docs, Some((builtin, origin)));
}

fn register<G: TensorGame>(
    registry: &mut AgentRegistry<G>,
    docs: Vec<ParamDoc>,
    builtin: Option<(&'static [u8], &'static str)>,
) {
    registry.register(
        "az",
        "AlphaZero search: PUCT with priors and values from a dual network (yomi-nn)",
        docs,
        Arc::new(move |_, game: &G, p| {
            let net: String = p.get("net", String::new(), "a weights file")?;
            let temp: f64 = p.get("temp", 0.0, "a temperature >= 0")?;
            let params = AzParams {
                simulations: p.get("sims", 100u64, "a positive integer")?,
                c_puct: p.get("c", 1.25, "a number")?,
                fpu: p.get("fpu", 0.5, "a number in 0..1")?,
                noise_alpha: 0.0,
                noise_fraction: 0.0,
                temperature: temp,
                temperature_moves: p.get("tmoves", 0usize, "a count of plies")?,
            };
            let dev_text: String = p.get("device", "flex".to_string(), DeviceKind::NAMES)?;
            let device = dev_text
                .parse::<DeviceKind>()
                .and_then(|d| d.device())
                .map_err(|e| p.bad("device", &dev_text, &e.to_string()))?;
            let (net_model, spec) = match (net.is_empty(), builtin) {
                (false, _) => DualNet::load_for(&PathBuf::from(&net), game, &device)
                    .map_err(|e| p.bad("net", &net, &e.to_string()))?,
                (true, Some((bytes, origin))) => {
                    DualNet::from_bytes_for(bytes, origin, game, &device).map_err(|e| {
                        p.bad(
                            "net",
                            "",
                            &format!("a weights file for {} ({e})", game.facts().name),
                        )
                    })?
                }
                (true, None) => return Err(p.bad("net", "", "a weights file (net=PATH)")),
            };
            let spec_text = p.spec().to_string();
            // The network is loaded once, here; every agent built from the recipe gets a
            // copy of the loaded weights instead of reading the file again.
            let net_model = std::sync::Mutex::new(net_model);
            Ok(builder(move |_, seed| {
                let model = net_model
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .clone();
                Box::new(AzAgent::new(
                    params,
                    NetClient::direct(model, spec),
                    seed,
                    spec_text.clone(),
                ))
            }))
        }),
    );
}
