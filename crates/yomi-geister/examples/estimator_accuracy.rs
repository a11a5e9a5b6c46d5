//! How often the blueness estimator (the paper's table 2, `estimate::BluenessEstimator`)
//! names the colours right: games between two agents on hidden-colour Geister, and after
//! every move, for each player, the estimate of the opponent's ghosts on the board against
//! their true colours. Beside it, what a uniformly random guess with the same number of
//! blues would get on average (`(k² + (n − k)²) / n²` for `k` blues among `n` ghosts), by
//! game phase.
//!
//! `cargo run --release -p yomi-geister --example estimator_accuracy -- AGENT AGENT GAMES [SEED]`
//! e.g. `... -- mcts:iters=300 random 100`. Seats alternate; the estimator sees only what a
//! player sees (positions, moves and colour counts), as in play.

use yomi_core::arena::play::play_game_with;
use yomi_core::{Agent, Game, Player, Rng, Turn};
use yomi_geister::estimate::BluenessEstimator;
use yomi_geister::{registry, Geister};

/// Plies per row of the table.
const PHASE: usize = 20;
/// Rows of the table (the last one holds every later ply).
const PHASES: usize = 6;

#[derive(Clone, Copy, Default)]
struct Tally {
    /// Ghosts judged, and judged right.
    ghosts: u64,
    right: u64,
    /// The random guess's expected right answers over the same ghosts.
    chance: f64,
    /// Positions judged.
    positions: u64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [a, b, games, rest @ ..] = &args[..] else {
        return Err("usage: estimator_accuracy AGENT AGENT GAMES [SEED]".into());
    };
    let games: usize = games.parse()?;
    let seed: u64 = rest.first().map(|s| s.parse()).transpose()?.unwrap_or(2026);
    let game = Geister::from_name("geister").ok_or("no geister variant")?;
    let reg = registry();
    // By phase, for the estimates of each agent's opponent made from each agent's view:
    // tallies[who watches][phase], who = 0 for the first agent named.
    let mut tallies = [[Tally::default(); PHASES]; 2];
    let mut rng = Rng::seed_from_u64(seed);
    for g in 0..games {
        let first_is_a = g % 2 == 0;
        let specs = if first_is_a { [a, b] } else { [b, a] };
        let mut seats: Vec<Box<dyn Agent<Geister>>> = specs
            .iter()
            .enumerate()
            .map(|(i, s)| reg.build(&game, s, seed ^ ((g as u64) << 8) ^ i as u64))
            .collect::<Result<_, _>>()?;
        let mut estimator = BluenessEstimator::new();
        let mut prev = game.initial_state();
        let mut failure = None;
        play_game_with(&game, &mut seats, 1000, |state, notation| {
            if failure.is_some() {
                return;
            }
            let Turn::Player(mover) = game.turn(&prev) else {
                return;
            };
            match game.parse_move(&prev, notation) {
                Ok(mv) => estimator.observe_move(&game, &prev, mover, mv),
                Err(e) => failure = Some(format!("move {notation:?}: {e}")),
            }
            prev = *state;
            if game.is_terminal(state) {
                return;
            }
            for observer in [Player(0), Player(1)] {
                let q = observer.opponent();
                if !state.has_set_up(q) {
                    continue;
                }
                let truth = state.blue(q);
                let on = truth | state.red(q);
                let n = on.count_ones();
                if n == 0 {
                    continue;
                }
                let guess = estimator.estimate(&game, state, observer, &mut rng).blue(q);
                let k = truth.count_ones() as f64;
                let nf = f64::from(n);
                let who = usize::from((observer == Player(0)) != first_is_a);
                let phase = (usize::from(state.plies()) / PHASE).min(PHASES - 1);
                let t = &mut tallies[who][phase];
                t.ghosts += u64::from(n);
                t.right += u64::from(n - ((guess ^ truth) & on).count_ones());
                t.chance += (k * k + (nf - k) * (nf - k)) / nf;
                t.positions += 1;
            }
        })?;
        if let Some(e) = failure {
            return Err(e.into());
        }
    }
    println!("Blueness estimator accuracy, {games} games of {a} against {b} (seed {seed}), hidden-colour Geister");
    for (who, name) in [(0, a), (1, b)] {
        let other = if who == 0 { b } else { a };
        println!("\nEstimates made from {name}'s seat of {other}'s ghosts:\n");
        println!("| plies | positions | ghosts judged | right | random guess |");
        println!("|---|---:|---:|---:|---:|");
        let row = |label: &str, t: &Tally| {
            println!(
                "| {label} | {} | {} | {:.1} % | {:.1} % |",
                t.positions,
                t.ghosts,
                100.0 * t.right as f64 / t.ghosts as f64,
                100.0 * t.chance / t.ghosts as f64
            );
        };
        let mut all = Tally::default();
        for (i, t) in tallies[who].iter().enumerate() {
            if t.ghosts == 0 {
                continue;
            }
            let plies = if i + 1 == PHASES {
                format!("{}+", i * PHASE)
            } else {
                format!("{}–{}", i * PHASE, (i + 1) * PHASE - 1)
            };
            row(&plies, t);
            all.ghosts += t.ghosts;
            all.right += t.right;
            all.chance += t.chance;
            all.positions += t.positions;
        }
        if all.ghosts > 0 {
            row("all", &all);
        }
    }
    Ok(())
}
