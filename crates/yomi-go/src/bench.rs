//! Speed figures for Go: light playouts per second measured as libEGO does.

use std::time::{Duration, Instant};

use yomi_core::bench::Figure;
use yomi_core::{Game, Rng};

use crate::game::GoGame;

/// Plays light random playouts (the [`yomi_core::Game::random_move`] sampler: uniform over
/// legal points that are not the mover's single-point eyes, pass only when none is left)
/// from the empty board until two passes, for at least `min_time` on one thread, and reports
/// playouts per second. Also scores every finished board (area), as a playout must. This is
/// libEGO's definition of a light playout. Time is the thread's CPU time where available
/// (see [`thread_cpu_seconds`]), wall time otherwise.
pub fn light_playouts(game: &GoGame, min_time: Duration, seed: u64) -> Figure {
    let cpu0 = thread_cpu_seconds();
    let mut rng = Rng::seed_from_u64(seed);
    let mut buf = Vec::with_capacity(400);
    let root = game.initial_state();
    let mut s = root.clone();
    let start = Instant::now();
    let mut games = 0u64;
    let mut moves = 0u64;
    let mut black_wins = 0u64;
    loop {
        s.clone_from(&root);
        while let Some(mv) = game.random_move(&s, &mut rng, &mut buf) {
            game.apply(&mut s, mv);
            moves += 1;
        }
        black_wins += (game.returns(&s).get(yomi_core::Player(0)) > 0.0) as u64;
        games += 1;
        if games % 256 == 0 && start.elapsed() >= min_time {
            break;
        }
    }
    std::hint::black_box((black_wins, moves));
    // On a shared machine wall time counts other processes' turns: prefer this thread's CPU
    // time where the system reports it.
    let secs = match (cpu0, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => start.elapsed().as_secs_f64(),
    };
    Figure {
        what: format!(
            "{} light playouts ({:.1} moves each)",
            game.facts().name,
            moves as f64 / games as f64
        ),
        value: games as f64 / secs,
        unit: "playouts/s",
    }
}

/// Plays heavy playouts ([`crate::heavy::HeavyPlayout`]: captures and atari escapes, MoGo's
/// 3×3 patterns around the last move, no self-atari of big groups) from the empty board to
/// the end, for at least `min_time` on one thread, and reports playouts per second (thread
/// CPU time, as [`light_playouts`]); they are what the `rave` agent's iterations cost.
pub fn heavy_playouts(game: &GoGame, min_time: Duration, seed: u64) -> Figure {
    use yomi_core::search::mcts::LeafEvaluator;
    let cpu0 = thread_cpu_seconds();
    let mut rng = Rng::seed_from_u64(seed);
    let mut buf = Vec::with_capacity(400);
    let mut ev = crate::heavy::HeavyPlayout::default();
    let root = game.initial_state();
    let mut s = root.clone();
    let start = Instant::now();
    let mut games = 0u64;
    let mut moves = 0u64;
    loop {
        s.clone_from(&root);
        std::hint::black_box(ev.evaluate(game, &mut s, &mut rng, &mut buf));
        moves += s.move_number() as u64;
        games += 1;
        if games % 64 == 0 && start.elapsed() >= min_time {
            break;
        }
    }
    let secs = match (cpu0, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => start.elapsed().as_secs_f64(),
    };
    Figure {
        what: format!(
            "{} heavy playouts ({:.1} moves each)",
            game.facts().name,
            moves as f64 / games as f64
        ),
        value: games as f64 / secs,
        unit: "playouts/s",
    }
}

/// CPU time used by the calling thread, in seconds, where the system reports it
/// (`/proc/thread-self/schedstat` on Linux, nanosecond resolution); `None` elsewhere.
pub fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 * 1e-9)
}
