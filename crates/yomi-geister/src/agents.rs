//! The agent registry for Geister: core's agents (`random`, `mcts` — on the hidden-colour
//! variants `mcts` is determinized UCT, `dets=` samples per move — `flatmc`, `alphabeta`,
//! `human`) plus `estimate`, the blueness estimator feeding a search of the estimated
//! perfect-information position ([`EstimateAgent`]).
//!
//! `estimate` takes `inner=<agent name>` (default `mcts`) and `guard=<moves>` (default 0:
//! see `BluenessEstimator::estimate_guarded`); every other parameter goes to the inner
//! agent: `estimate:iters=2000` searches with `mcts:iters=2000`, and
//! `estimate:inner=flatmc,n=50` with `flatmc:n=50`. The inner agent is built from the
//! same registry, so an agent another crate registers (a network search) can be named too.

use std::sync::Arc;

use yomi_core::registry::{builder, AgentRegistry};
use yomi_core::spec::{ParamDoc, SpecError};

use crate::estimate::EstimateAgent;
use crate::rules::Geister;

const ESTIMATE_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        key: "inner",
        default: "mcts",
        help: "the agent that searches the estimated position; all other keys but guard are its parameters",
    },
    ParamDoc {
        key: "guard",
        default: "0",
        help: "colour the opponent's ghosts that could escape within this many of their moves blue, nearest first, whatever the estimate says (0: the paper's estimate)",
    },
];

/// The largest `guard` (a ghost is never further than 11 moves from escaping on 6×6).
const MAX_GUARD: u32 = 64;

/// Agents for [`Geister`]: core's and `estimate`.
pub fn registry() -> AgentRegistry<Geister> {
    let mut r = AgentRegistry::with_core_agents();
    add_estimate(&mut r);
    r
}

/// Registers `estimate` in `r` (for crates that build their own registry, e.g. with a
/// network agent to use as the inner search).
pub fn add_estimate(r: &mut AgentRegistry<Geister>) {
    r.register(
        "estimate",
        "blueness estimation of the opponent's colours (GAT2018), then the inner agent on the estimated perfect-information position",
        ESTIMATE_PARAMS.to_vec(),
        Arc::new(|reg, game, p| {
            let name = p.spec().to_string();
            let inner_name = p.raw("inner").unwrap_or("mcts").to_string();
            let guard: u32 = p.get("guard", 0, "a number of moves, 0 to 64")?;
            if guard > MAX_GUARD {
                return Err(p.bad("guard", &guard.to_string(), "a number of moves, 0 to 64"));
            }
            if inner_name == "estimate" {
                return Err(p.bad("inner", &inner_name, "an agent other than estimate"));
            }
            let keys: Vec<String> = p
                .spec()
                .params
                .iter()
                .map(|(k, _)| k.clone())
                .filter(|k| k != "inner" && k != "guard")
                .collect();
            let mut rest = Vec::new();
            for k in keys {
                if let Some(v) = p.raw(&k) {
                    rest.push(format!("{k}={v}"));
                }
            }
            let inner_spec = if rest.is_empty() {
                inner_name
            } else {
                format!("{inner_name}:{}", rest.join(","))
            };
            let perfect = game.perfect_view();
            let inner = reg
                .recipe(&perfect, &inner_spec)
                .map_err(|e| SpecError::BadValue {
                    agent: "estimate".into(),
                    key: "inner".into(),
                    value: inner_spec.clone(),
                    expected: format!("a valid inner agent ({e})"),
                })?;
            Ok(builder(move |game: &Geister, seed| {
                let inner = inner.build(&game.perfect_view(), yomi_core::rng::derive_seed(seed, 1));
                Box::new(EstimateAgent::new(inner, name.clone(), seed).with_guard(guard))
            }))
        }),
    );
}
