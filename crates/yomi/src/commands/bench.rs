//! `yomi bench GAME`: speed figures from `yomi_core::bench`, one `<what>: <number> <unit>`
//! line each.

use std::time::Duration;

use yomi_core::bench::{mcts_iterations, random_playouts};
use yomi_core::registry::AgentRegistry;
use yomi_core::Game;

use crate::cli::BenchArgs;
use crate::error::usage;
use crate::games::GameCommand;

impl GameCommand for BenchArgs {
    type Output = ();

    fn run<G: Game>(self, game: G, _: AgentRegistry<G>) -> anyhow::Result<()> {
        if !(self.time.is_finite() && self.time > 0.0 && self.time <= 3600.0) {
            return Err(usage(format!(
                "--time {}: expected a number of seconds in (0, 3600]",
                self.time
            )));
        }
        let threads = match crate::error::threads_option("--threads", self.threads)? {
            Some(0) => return Err(usage("--threads 0: expected at least one thread")),
            Some(t) => t,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let (time, small, large) = if self.quick {
            (Duration::from_millis(50), 1_000, 5_000)
        } else {
            (Duration::from_secs_f64(self.time), 20_000, 200_000)
        };
        // Each figure is printed as soon as it is measured.
        super::emit(&format!("{}\n", random_playouts(&game, time, self.seed)))?;
        for (iterations, threads) in [(small, 1), (large, 1), (large, threads)] {
            let figure = mcts_iterations(&game, iterations, threads, self.seed);
            super::emit(&format!("{figure}\n"))?;
        }
        Ok(())
    }
}
