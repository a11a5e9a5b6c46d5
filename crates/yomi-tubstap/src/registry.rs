//! The agent registry for TUBSTAP: core's agents plus the paper's AIs, and g(s) as the
//! `default` evaluator.
//!
//! | spec | AI | defaults (the paper's) |
//! |---|---|---|
//! | `uct` | UCT, one unit action per edge, budget split over the turn's units | `iters=6000` per turn, `c=1`, `p=0.8` |
//! | `uct-pw` | UCT with progressive widening, attacks first | as `uct`, `pw=log` |
//! | `attack` | attack-action search | `l=4` |
//! | `dlmc` | depth-limited Monte Carlo | `m=200,n=100,d=2` |
//! | `dlmc-m1` | method 1: DLMC + attack search | `m=150,n=100,d=2,l=4` |
//! | `dlmc-m2` | method 2: DLMC + local adjustment | `m=150,n=100,d=2,j=10,k=4` |
//! | `dlmc-m12` | method 1+2 | `m=100,n=100,d=2,l=4,j=10,k=4` |
//!
//! Every one takes `time=<seconds per turn>` (with `iters` / `m,n` too: whichever ends first).

use std::sync::Arc;
use std::time::Duration;

use yomi_core::registry::{builder, AgentRegistry};
use yomi_core::search::mcts::Widening;
use yomi_core::spec::{ParamDoc, SpecError, SpecParams};

use crate::eval::HpEvaluator;
use crate::game::Tubstap;
use crate::policy::AttackFirst;
use crate::search::dlmc::{AttackPlanner, Dlmc, DlmcParams, Method, PlanAgent};
use crate::search::uct::{
    uct_agent, uct_pw_agent, widening_as_printed, widening_log_base, UctParams,
};

const TIME: ParamDoc = ParamDoc {
    key: "time",
    default: "-",
    help: "seconds per turn (a side's whole turn; with a budget, whichever ends first)",
};
const P: ParamDoc = ParamDoc {
    key: "p",
    default: "0.8",
    help: "simulation policy: probability of attacking when some unit can",
};

fn uct_docs(pw: bool) -> Vec<ParamDoc> {
    let mut d = vec![
        ParamDoc {
            key: "iters",
            default: "6000",
            help: "simulations per turn, split evenly over the units to act",
        },
        TIME,
        ParamDoc {
            key: "c",
            default: "1",
            help: "UCB1 constant: x + c*sqrt(2 ln n / n_j) on [0,1] rewards",
        },
        P,
    ];
    if pw {
        d.push(ParamDoc {
            key: "pw",
            default: "log",
            help: "k(n): log = floor(log_1.4(n/40)+2), floor(log_1.2((n+2000)/45)-11) past 3000; printed = eq. 2 as printed (ln/1.4, ln/1.2)",
        });
    }
    d
}

fn dlmc_docs(method: Method) -> Vec<ParamDoc> {
    let p = DlmcParams::paper(method);
    let m: &'static str = match p.samples {
        200 => "200",
        150 => "150",
        _ => "100",
    };
    let mut d = vec![
        ParamDoc {
            key: "m",
            default: m,
            help: "sampled whole-turn sequences",
        },
        ParamDoc {
            key: "n",
            default: "100",
            help: "simulations per sequence",
        },
        ParamDoc {
            key: "d",
            default: "2",
            help: "side-turns per simulation before g is taken",
        },
        P,
        TIME,
    ];
    if matches!(method, Method::AttackSearch | Method::Both) {
        d.push(ParamDoc {
            key: "l",
            default: "4",
            help: "longest attack sequence of the attack search",
        });
    }
    if matches!(method, Method::LocalAdjust | Method::Both) {
        d.push(ParamDoc {
            key: "j",
            default: "10",
            help: "top sequences locally adjusted",
        });
        d.push(ParamDoc {
            key: "k",
            default: "4",
            help: "trailing actions replaced by the attack search",
        });
    }
    d
}

fn time(p: &mut SpecParams<'_>) -> Result<Option<Duration>, SpecError> {
    let t: Option<f64> = p.get_opt("time", "seconds, e.g. 0.5")?;
    match t {
        Some(t) if !(t > 0.0 && t.is_finite()) => {
            Err(p.bad("time", &t.to_string(), "a positive number of seconds"))
        }
        t => Ok(t.map(Duration::from_secs_f64)),
    }
}

fn positive<T: PartialOrd + Default + ToString + std::str::FromStr>(
    p: &mut SpecParams<'_>,
    key: &str,
    default: T,
) -> Result<T, SpecError> {
    let v: T = p.get(key, default, "a positive integer")?;
    if v > T::default() {
        Ok(v)
    } else {
        Err(p.bad(key, &v.to_string(), "a positive integer"))
    }
}

fn policy(p: &mut SpecParams<'_>) -> Result<AttackFirst, SpecError> {
    let prob: f64 = p.get("p", 0.8, "a probability")?;
    if !(0.0..=1.0).contains(&prob) {
        return Err(p.bad("p", &prob.to_string(), "a probability in [0, 1]"));
    }
    Ok(AttackFirst { p_attack: prob })
}

fn read_uct(p: &mut SpecParams<'_>) -> Result<UctParams, SpecError> {
    let iters: Option<u64> = p.get_opt("iters", "a positive integer")?;
    let t = time(p)?;
    if iters == Some(0) {
        return Err(p.bad("iters", "0", "a positive integer"));
    }
    let c: f64 = p.get("c", 1.0, "a number")?;
    Ok(UctParams {
        turn_iterations: match (iters, t) {
            (None, None) => Some(6000),
            (i, _) => i,
        },
        turn_time: t,
        c,
        policy: policy(p)?,
        widening: None,
    })
}

fn read_dlmc(p: &mut SpecParams<'_>, method: Method) -> Result<DlmcParams, SpecError> {
    let mut d = DlmcParams::paper(method);
    d.samples = positive(p, "m", d.samples)?;
    d.sims = positive(p, "n", d.sims)?;
    d.depth = positive(p, "d", d.depth)?;
    d.policy = policy(p)?;
    d.time = time(p)?;
    if matches!(method, Method::AttackSearch | Method::Both) {
        d.attack_len = positive(p, "l", d.attack_len)?;
    }
    if matches!(method, Method::LocalAdjust | Method::Both) {
        d.top = positive(p, "j", d.top)?;
        d.replace = positive(p, "k", d.replace)?;
    }
    Ok(d)
}

/// Core's agents, the paper's AIs and the evaluators `default` and `g` (both g(s)).
pub fn registry() -> AgentRegistry<Tubstap> {
    let mut r = AgentRegistry::with_core_agents();
    r.add_evaluator(
        "default",
        "the paper's g(s) = (M - E) x B, infantry HP x 0.2, scaled into (-1, 1)",
        Arc::new(HpEvaluator),
    );
    r.add_evaluator("g", "the paper's g(s), as `default`", Arc::new(HpEvaluator));
    r.register(
        "uct",
        "UCT with one unit action per edge; the per-turn budget is split over the units to act",
        uct_docs(false),
        Arc::new(|_, _, p| {
            let name = p.spec().to_string();
            let params = read_uct(p)?;
            Ok(builder(move |_, seed| {
                Box::new(uct_agent(params.clone(), seed, name.clone()))
            }))
        }),
    );
    r.register(
        "uct-pw",
        "UCT with progressive widening k(n), attack actions admitted first",
        uct_docs(true),
        Arc::new(|_, _, p| {
            let name = p.spec().to_string();
            let mut params = read_uct(p)?;
            params.widening = Some(match p.raw("pw").unwrap_or("log") {
                "log" => Widening::new(widening_log_base),
                "printed" => Widening::new(widening_as_printed),
                other => return Err(p.bad("pw", other, "log or printed")),
            });
            Ok(builder(move |_, seed| {
                Box::new(uct_pw_agent(params.clone(), seed, name.clone()))
            }))
        }),
    );
    r.register(
        "attack",
        "attack-action search: every sequence of up to l attacks, other units by a fixed routine, best g",
        vec![
            ParamDoc {
                key: "l",
                default: "4",
                help: "longest attack sequence",
            },
            TIME,
        ],
        Arc::new(|_, _, p| {
            let name = p.spec().to_string();
            let max_len = positive(p, "l", 4usize)?;
            let time = time(p)?;
            Ok(builder(move |_, _| {
                Box::new(PlanAgent::new(AttackPlanner { max_len, time }, name.clone()))
            }))
        }),
    );
    for (spec, method, summary) in [
        ("dlmc", Method::Dlmc, "depth-limited Monte Carlo: m random turns, n simulations of d turns each, best sum of g"),
        ("dlmc-m1", Method::AttackSearch, "method 1: DLMC with the attack search's best sequence among the samples"),
        ("dlmc-m2", Method::LocalAdjust, "method 2: DLMC whose top j sequences get their last k actions from the attack search"),
        ("dlmc-m12", Method::Both, "method 1+2: method 2 with method 1's attack-search sequence among the samples"),
    ] {
        r.register(
            spec,
            summary,
            dlmc_docs(method),
            Arc::new(move |_, _, p| {
                let name = p.spec().to_string();
                let params = read_dlmc(p, method)?;
                Ok(builder(move |_, seed| {
                    Box::new(PlanAgent::new(Dlmc::new(params.clone(), seed), name.clone()))
                }))
            }),
        );
    }
    r
}
