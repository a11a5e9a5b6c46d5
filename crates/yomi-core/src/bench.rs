//! Speed measurements every game gets: random playouts per second and MCTS iterations per
//! second (`yomi bench <game>` prints them, one `<what>: <number> <unit>` line each).

use std::fmt;
use std::time::{Duration, Instant};

use crate::game::{Game, Turn};
use crate::rng::Rng;
use crate::search::mcts::{Mcts, MctsParams};
use crate::search::Budget;

/// One measured figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// What was measured.
    pub what: String,
    /// The number.
    pub value: f64,
    /// Its unit.
    pub unit: &'static str,
}

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {:.0} {}", self.what, self.value, self.unit)
    }
}

/// Plays uniformly random games from the start for at least `min_time` on one thread and
/// reports games per second. Uses [`Game::random_move`] (what MCTS playouts use); games at
/// simultaneous turns draw each player's move uniformly.
pub fn random_playouts<G: Game>(game: &G, min_time: Duration, seed: u64) -> Figure {
    let mut rng = Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut joint = Vec::new();
    let start = Instant::now();
    let mut games = 0u64;
    let mut plies = 0u64;
    let root = game.initial_state();
    // One state reset with `clone_from`, as MCTS iterations do.
    let mut s = root.clone();
    loop {
        s.clone_from(&root);
        plies += random_game(game, &mut s, &mut rng, &mut buf, &mut joint);
        std::hint::black_box(game.returns(&s));
        games += 1;
        if games % 64 == 0 && start.elapsed() >= min_time {
            break;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = plies;
    Figure {
        what: format!("{} random playouts", game.facts().name),
        value: games as f64 / secs,
        unit: "playouts/s",
    }
}

/// Plays `state` to the end with uniformly random moves (what the playout benchmarks time):
/// [`Game::random_move`] at a player's turn, each player's move drawn uniformly at a
/// simultaneous turn. Returns the plies played. `buf` and `joint` are scratch buffers, so a
/// loop of games allocates nothing once they have grown.
pub fn random_game<G: Game>(
    game: &G,
    state: &mut G::State,
    rng: &mut Rng,
    buf: &mut Vec<G::Move>,
    joint: &mut Vec<G::Move>,
) -> u64 {
    let players = game.facts().players;
    let mut plies = 0;
    loop {
        match game.turn(state) {
            Turn::Terminal => break,
            Turn::Player(_) => match game.random_move(state, rng, buf) {
                Some(m) => game.apply(state, m),
                None => break,
            },
            Turn::Simultaneous => {
                joint.clear();
                for p in 0..players {
                    game.legal_moves_of(state, crate::Player(p as u8), buf);
                    joint.push(buf[rng.below(buf.len())]);
                }
                game.apply_joint(state, joint);
            }
        }
        plies += 1;
    }
    plies
}

/// Runs plain UCT (one uniform playout per iteration) for `iterations` from the start
/// position with `threads` workers and reports iterations per second.
pub fn mcts_iterations<G: Game>(game: &G, iterations: u64, threads: usize, seed: u64) -> Figure {
    let params = MctsParams {
        budget: Budget::iterations(iterations),
        threads,
        ..MctsParams::default()
    };
    let mut m = Mcts::uct(params, seed);
    let r = m.search(game, &game.initial_state());
    Figure {
        what: format!(
            "{} mcts uct {} iterations {} thread{}",
            game.facts().name,
            iterations,
            threads,
            if threads == 1 { "" } else { "s" }
        ),
        value: r.rate(),
        unit: "iterations/s",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Nim;

    #[test]
    fn figures_are_positive_and_formatted() {
        let f = random_playouts(&Nim::new(20), Duration::from_millis(5), 1);
        assert!(f.value > 0.0);
        assert!(f.to_string().starts_with("nim random playouts: "), "{f}");
        assert!(f.to_string().ends_with(" playouts/s"));
        let f = mcts_iterations(&Nim::new(20), 1000, 1, 1);
        assert!(f.value > 0.0 && f.to_string().contains("iterations/s"));
    }
}
