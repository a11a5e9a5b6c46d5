//! The agent registry for Othello: core's agents, the trained pattern evaluation as the
//! `default` evaluator, and the UCT variants of Matsumoto & Kobayashi ("Performance
//! evaluation and how to use position evaluation function in UCT search method"), all
//! on core's one MCTS:
//!
//! | agent | selection | playout | expansion |
//! |---|---|---|---|
//! | `uct` | UCB1 | uniform random to the end | threshold 1 |
//! | `uct+` | UCB1 + w·E(child) ([`UcbEval`] with [`ChildEvaluation`]) | uniform | 1 |
//! | `uct_playzebra` | UCB1 | evaluation-greedy ([`EpsilonGreedy`] ε = 0, [`EvalScorer`]), results memoised per leaf | 5 |
//! | `uct-break` | UCB1 | uniform, cut off after 10 moves and judged by the evaluation | 1 |
//!
//! and the combinations `uct+_playzebra`, `uct+-break`, `uct_playzebra-break`,
//! `uct+_playzebra-break`. The paper's +dZ variants ([`DZ_VARIANTS`]: `uct+dz`,
//! `uct+dz_playzebra`, `uct+dz-break`, `uct+dz_playzebra-break`) select by
//! [`UcbDz`] (`X̄ᵢ + w·Eᵢ + c·sqrt(2 ln n / nᵢ)`, Eᵢ the discriminant of the evaluations
//! summed per depth band during the playouts, [`crate::dz`]) with the shipped coefficients
//! of their playout kind ([`DzTable::shipped`]), over [`DzRollout`] playouts.

use std::sync::Arc;
use std::time::Duration;

use yomi_core::registry::{builder, AgentBuilder, AgentRegistry};
use yomi_core::search::mcts::{
    ChildEvaluation, Cutoff, EpsilonGreedy, EvalScorer, Expander, Mcts, MctsAgent, MctsParams,
    MoveScorer, NoExpander, PlayoutPolicy, Rollout, Selection, Ucb1, UcbEval, Uniform,
};
use yomi_core::search::{Budget, Evaluator};
use yomi_core::spec::{ParamDoc, SpecError, SpecParams};
use yomi_core::Agent;

use crate::dz::{DzRollout, DzTable, UcbDz};
use crate::eval::OthelloEval;
use crate::Othello;

/// Parameters of the UCT variants.
pub const UCT_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        key: "iters",
        default: "10000",
        help: "playouts per move",
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
        key: "c",
        default: "0.7071",
        help: "UCB exploration constant (rewards in [0, 1])",
    },
    ParamDoc {
        key: "w",
        default: "1",
        help: "weight of the child evaluation (uct+ variants) or of the discriminant E (uct+dz variants) in UCB",
    },
    ParamDoc {
        key: "expand",
        default: "1 (5 for _playzebra)",
        help: "visits before a leaf is expanded",
    },
    ParamDoc {
        key: "break",
        default: "10",
        help: "moves before a -break playout is judged by the evaluation",
    },
    ParamDoc {
        key: "eval",
        default: "default",
        help: "evaluator for UCB, playouts and cut-offs",
    },
];

/// The variant names, in the order they are registered.
pub const UCT_VARIANTS: [&str; 8] = [
    "uct",
    "uct+",
    "uct_playzebra",
    "uct+_playzebra",
    "uct-break",
    "uct+-break",
    "uct_playzebra-break",
    "uct+_playzebra-break",
];

/// The +dZ variant names, in the order they are registered.
pub const DZ_VARIANTS: [&str; 4] = [
    "uct+dz",
    "uct+dz_playzebra",
    "uct+dz-break",
    "uct+dz_playzebra-break",
];

/// The coefficient kind ([`crate::dz::KINDS`]) of a +dZ variant name.
pub fn dz_kind(variant: &str) -> &'static str {
    match (variant.contains("_playzebra"), variant.ends_with("-break")) {
        (false, false) => "random",
        (true, false) => "playzebra",
        (false, true) => "random-break",
        (true, true) => "playzebra-break",
    }
}

/// Builds one variant's agent.
fn finish<S, P, X>(
    params: MctsParams,
    selection: S,
    policy: P,
    cutoff: Option<Cutoff<Othello>>,
    expander: X,
    seed: u64,
    name: String,
) -> Box<dyn Agent<Othello>>
where
    S: Selection,
    P: PlayoutPolicy<Othello> + 'static,
    X: Expander<Othello> + 'static,
{
    let leaf = Rollout { policy, cutoff };
    Box::new(MctsAgent::new(
        Mcts::new(params, selection, leaf, expander, seed),
        name,
    ))
}

fn build_variant(
    reg: &AgentRegistry<Othello>,
    variant: &str,
    p: &mut SpecParams<'_>,
) -> Result<AgentBuilder<Othello>, SpecError> {
    let plus = variant.starts_with("uct+");
    let zebra = variant.contains("_playzebra");
    let brk = variant.ends_with("-break");
    let name = p.spec().to_string();
    let iters: Option<u64> = p.get_opt("iters", "a positive integer")?;
    let time: Option<f64> = p.get_opt("time", "seconds")?;
    if iters == Some(0) {
        return Err(p.bad("iters", "0", "a positive integer"));
    }
    if let Some(t) = time {
        if !(t > 0.0 && t.is_finite()) {
            return Err(p.bad("time", &t.to_string(), "a positive number of seconds"));
        }
    }
    let threads: usize = p.get("threads", 1, "a positive integer")?;
    if threads == 0 {
        return Err(p.bad("threads", "0", "a positive integer"));
    }
    let c: f64 = p.get("c", std::f64::consts::FRAC_1_SQRT_2, "a number")?;
    let w: f64 = p.get("w", 1.0, "a number")?;
    let expand: u32 = p.get(
        "expand",
        if zebra { 5 } else { 1 },
        "a non-negative integer",
    )?;
    let cut: u32 = p.get("break", 10, "a positive number of moves")?;
    if cut == 0 {
        return Err(p.bad("break", "0", "a positive number of moves"));
    }
    let eval = reg.evaluator(variant, p.raw("eval").unwrap_or("default"))?;
    let params = MctsParams {
        budget: Budget {
            iterations: match (iters, time) {
                (None, None) => Some(10_000),
                (i, _) => i,
            },
            time: time.map(Duration::from_secs_f64),
        },
        expand_threshold: expand,
        memoize_leaves: zebra,
        threads,
        ..MctsParams::default()
    };
    if variant.starts_with("uct+dz") {
        let greedy = EpsilonGreedy {
            epsilon: 0.0,
            scorer: Arc::new(EvalScorer(eval.clone())) as Arc<dyn MoveScorer<Othello>>,
        };
        let selection = UcbDz {
            c,
            weight: w,
            coefficients: DzTable::shipped().coefficients(dz_kind(variant)),
        };
        let cut = brk.then_some(cut);
        return Ok(builder(move |_, seed| {
            let (params, selection, name) = (params.clone(), selection, name.clone());
            if zebra {
                let leaf = DzRollout::new(greedy.clone(), eval.clone(), cut);
                Box::new(MctsAgent::new(
                    Mcts::new(params, selection, leaf, NoExpander, seed),
                    name,
                ))
            } else {
                let leaf = DzRollout::new(Uniform, eval.clone(), cut);
                Box::new(MctsAgent::new(
                    Mcts::new(params, selection, leaf, NoExpander, seed),
                    name,
                ))
            }
        }));
    }
    let cutoff = brk.then(|| Cutoff::moves(cut, eval.clone()));
    let scorer: Arc<dyn MoveScorer<Othello>> = Arc::new(EvalScorer(eval.clone()));
    let greedy = EpsilonGreedy {
        epsilon: 0.0,
        scorer,
    };
    let child_eval = ChildEvaluation {
        evaluator: eval,
        best_first: false,
    };
    let ucb = Ucb1 { c };
    let ucb_eval = UcbEval { c, weight: w };
    Ok(builder(move |_, seed| {
        let (params, cutoff, name) = (params.clone(), cutoff.clone(), name.clone());
        let (greedy, child_eval) = (greedy.clone(), child_eval.clone());
        match (plus, zebra) {
            (false, false) => finish(params, ucb, Uniform, cutoff, NoExpander, seed, name),
            (true, false) => finish(params, ucb_eval, Uniform, cutoff, child_eval, seed, name),
            (false, true) => finish(params, ucb, greedy, cutoff, NoExpander, seed, name),
            (true, true) => finish(params, ucb_eval, greedy, cutoff, child_eval, seed, name),
        }
    }))
}

/// Core's agents, the pattern evaluation (`default`, also `patterns`) and the UCT variants
/// ([`UCT_VARIANTS`], [`DZ_VARIANTS`]).
pub fn registry() -> AgentRegistry<Othello> {
    let mut r = AgentRegistry::with_core_agents();
    let summary = "pattern evaluation (edge+2X, corners 3x3 and 2x5, rows, diagonals; 6 stages), \
                   trained by noisy self-play labelled by exact solving (data/othello-eval-v1.bin)";
    let eval: Arc<dyn Evaluator<Othello>> = Arc::new(OthelloEval::shipped());
    r.add_evaluator("default", summary, eval.clone());
    r.add_evaluator("patterns", summary, eval);
    let summaries = [
        "UCT: UCB1, uniform random playouts",
        "UCT+: UCB1 plus the evaluation of each child",
        "UCT_PlayZebra: evaluation-greedy playouts, expansion threshold 5, memoised leaves",
        "UCT+_PlayZebra: UCT+ selection with evaluation-greedy playouts",
        "UCT-break: random playouts cut off after 10 moves, judged by the evaluation",
        "UCT+-break: UCT+ with cut-off playouts",
        "UCT_PlayZebra-break: greedy playouts cut off after 10 moves",
        "UCT+_PlayZebra-break: UCT+ selection, greedy playouts cut off after 10 moves",
    ];
    let dz_summaries = [
        "UCT+dZ: UCB1 plus the discriminant of evaluations summed per depth band in random playouts",
        "UCT+dZ_PlayZebra: UCT+dZ with evaluation-greedy playouts, expansion threshold 5, memoised leaves",
        "UCT+dZ-break: UCT+dZ with random playouts cut off after 10 moves, judged by the evaluation",
        "UCT+dZ_PlayZebra-break: UCT+dZ with greedy playouts cut off after 10 moves",
    ];
    let all = UCT_VARIANTS.iter().zip(summaries);
    for (variant, summary) in all.chain(DZ_VARIANTS.iter().zip(dz_summaries)) {
        let v = variant.to_string();
        r.register(
            variant,
            summary,
            UCT_PARAMS.to_vec(),
            Arc::new(move |reg, _, p| build_variant(reg, &v, p)),
        );
    }
    r
}
