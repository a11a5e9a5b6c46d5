//! Speed figures (`yomi bench tubstap` prints them): random and policy playouts per second,
//! one DLMC turn with the paper's parameters, UCT iterations per second.

use std::time::{Duration, Instant};

use yomi_core::bench::{random_playouts, Figure};
use yomi_core::search::mcts::PlayoutPolicy;
use yomi_core::{Game, Rng};

use crate::game::Tubstap;
use crate::policy::AttackFirst;
use crate::search::dlmc::{Dlmc, DlmcParams, Method};
use crate::search::uct::{uct_pw_agent, UctParams};

/// Whole games per second played by the simulation policy (p = 0.8) from the start.
pub fn policy_playouts(game: &Tubstap, min_time: Duration, seed: u64) -> Figure {
    let mut rng = Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut policy = AttackFirst::default();
    let root = game.initial_state();
    let start = Instant::now();
    let mut games = 0u64;
    loop {
        let mut s = root.clone();
        while let Some(mv) = policy.choose(game, &s, &mut rng, &mut buf) {
            game.apply(&mut s, mv);
        }
        std::hint::black_box(game.returns(&s));
        games += 1;
        if games % 32 == 0 && start.elapsed() >= min_time {
            break;
        }
    }
    Figure {
        what: format!("{} policy playouts (p=0.8)", game.name()),
        value: games as f64 / start.elapsed().as_secs_f64(),
        unit: "playouts/s",
    }
}

/// One turn of `method` with the paper's parameters from the start position: seconds per
/// turn and simulations (of d side-turns) per second.
pub fn dlmc_turn(game: &Tubstap, method: Method, seed: u64) -> (Figure, Figure) {
    let mut dlmc = Dlmc::new(DlmcParams::paper(method), seed);
    let plan = dlmc.plan(game, &game.initial_state());
    let secs = plan.elapsed.as_secs_f64();
    let p = &dlmc.params;
    (
        Figure {
            what: format!(
                "{} {method:?} turn (m={}, n={}, d={}) in milliseconds",
                game.name(),
                p.samples,
                p.sims,
                p.depth
            ),
            value: secs * 1000.0,
            unit: "ms/turn",
        },
        Figure {
            what: format!("{} {method:?} simulations", game.name()),
            value: plan.simulations as f64 / secs,
            unit: "simulations/s",
        },
    )
}

/// UCT+PW iterations per second: one turn of 6000 iterations from the start.
pub fn uct_pw_iterations(game: &Tubstap, seed: u64) -> Figure {
    use yomi_core::agent::Agent;
    let mut agent = uct_pw_agent(UctParams::default(), seed, "uct-pw".into());
    let mut s = game.initial_state();
    let start = Instant::now();
    let mut iters = 0u64;
    let turn = s.turn();
    while !game.over(&s) && s.turn() == turn {
        let budget = agent.action_budget(game, &s);
        iters += budget.iterations.unwrap_or(0);
        let mv = agent
            .select_move(game, &s, yomi_core::Player(s.mover()))
            .expect("a move");
        game.apply(&mut s, mv);
    }
    Figure {
        what: format!("{} uct-pw iterations (one turn, 6000)", game.name()),
        value: iters as f64 / start.elapsed().as_secs_f64(),
        unit: "iterations/s",
    }
}

/// Every figure for `game`.
pub fn figures(game: &Tubstap) -> Vec<Figure> {
    let mut out = vec![
        random_playouts(game, Duration::from_millis(500), 1),
        policy_playouts(game, Duration::from_millis(500), 2),
    ];
    for method in [Method::Dlmc, Method::Both] {
        let (t, r) = dlmc_turn(game, method, 3);
        out.push(t);
        out.push(r);
    }
    out.push(uct_pw_iterations(game, 4));
    out
}
