//! Speed figures for `yomi bench othello`: random playouts per second, plain-UCT
//! iterations per second (both through `yomi_core::bench`) and perft leaves per second.

use std::time::Duration;

use yomi_core::bench::{mcts_iterations, random_playouts, Figure};

use crate::agents::UCT_VARIANTS;
use crate::perft::{timed_perft, PERFT_COUNTS};
use crate::{Othello, OthelloState};

/// Measures the figures; `perft_depth` (up to 14) sets the perft run (11 takes about half a
/// second, 12 about four).
///
/// # Panics
/// If perft disagrees with the published count (a broken move generator).
pub fn figures(perft_depth: u32, playout_time: Duration) -> Vec<Figure> {
    let mut out = vec![
        random_playouts(&Othello, playout_time, 1),
        mcts_iterations(&Othello, 20_000, 1, 1),
    ];
    let d = perft_depth.clamp(1, 14);
    let run = timed_perft(d);
    assert_eq!(
        run.leaves,
        PERFT_COUNTS[d as usize - 1],
        "perft({d}) is wrong"
    );
    out.push(Figure {
        what: format!("othello perft({d}) from the start, {} leaves", run.leaves),
        value: run.rate(),
        unit: "leaves/s",
    });
    out
}

/// Nodes per second of the midgame search ([`crate::midgame::Midgame`]) valuing every
/// legal move of `state` `depth` plies deep on one thread, as a test-set label does.
pub fn midgame_figure(state: &OthelloState, depth: u32) -> Figure {
    let mut search = crate::midgame::Midgame::new(20);
    let start = std::time::Instant::now();
    search.move_values(state, depth);
    Figure {
        what: format!(
            "othello midgame search, every move {depth} plies deep from {} empties, {} nodes",
            state.empty_count(),
            search.nodes()
        ),
        value: search.nodes() as f64 / start.elapsed().as_secs_f64().max(1e-9),
        unit: "nodes/s",
    }
}

/// Iterations per second of each UCT variant ([`UCT_VARIANTS`]) searching `state` for
/// `iterations` iterations on one thread (built through the registry, so with the shipped
/// evaluation).
pub fn variant_figures(state: &OthelloState, iterations: u64) -> Vec<Figure> {
    use yomi_core::Agent;
    let reg = crate::registry();
    UCT_VARIANTS
        .iter()
        .map(|v| {
            let spec = format!("{v}:iters={iterations}");
            let mut agent = reg.build(&Othello, &spec, 1).expect("registered variant");
            let start = std::time::Instant::now();
            agent
                .select_move(&Othello, state, state.to_move())
                .expect("a position with moves");
            Figure {
                what: format!("othello {spec} from {} empties", state.empty_count()),
                value: iterations as f64 / start.elapsed().as_secs_f64().max(1e-9),
                unit: "iterations/s",
            }
        })
        .collect()
}
