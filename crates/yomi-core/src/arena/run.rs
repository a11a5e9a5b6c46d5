//! Playing a whole round robin on this machine ([`RoundRobin::run`]): the games not yet
//! in the records file, in parallel, through the run's [`Journal`](super::Journal), with a
//! progress bar and a running score for matches.
//!
//! The top of the arena's run path: it uses [`round_robin`](super::round_robin) (the
//! configuration, the schedule, one scheduled game) and [`chunks`](super::chunks) (the
//! journal of the records file); neither uses it.

use std::sync::Mutex;

use crate::progress::Display;
use rayon::prelude::*;

use super::records::GameRecord;
use super::round_robin::{play_scheduled, Resolved, RoundRobin, TournamentResult};
use super::stats::Wdl;
use super::ArenaError;
use crate::game::Game;
use crate::registry::{AgentRegistry, Recipe};

impl RoundRobin {
    /// Plays every scheduled game not already in the records file and returns all results.
    ///
    /// Before any game is played, every spec is resolved once (so a typo fails at once;
    /// [`RoundRobin::resolve`]) and an
    /// existing records file is opened through the run's [`Journal`](super::Journal)
    /// ([`RoundRobin::journal`]): its complete records must belong to this configuration
    /// (same game and variant, same entrants in the same seats, same seeds, same turn
    /// limit, scheduled indices); they are kept and not replayed. A partial last line is
    /// cut off. Each game played is appended to the file as soon as it ends.
    ///
    /// # Errors
    /// [`ArenaError::Spec`] for a spec that does not build; [`ArenaError::Entrant`] for an
    /// empty agent list, an entrant that does not parse or a label given twice;
    /// [`ArenaError::Config`] for a thread pool that cannot start;
    /// [`ArenaError::Mismatch`] when the records file belongs to another configuration;
    /// [`ArenaError::Io`] / [`ArenaError::BadRecord`] for file trouble. Games finished
    /// before an error stay in the file.
    pub fn run<G: Game>(
        &self,
        game: &G,
        registry: &AgentRegistry<G>,
    ) -> Result<TournamentResult, ArenaError> {
        self.run_resolved(game, self.resolve(game, registry)?)
    }

    /// [`RoundRobin::run`] with the entrants resolved already ([`RoundRobin::resolve`] of
    /// this configuration).
    ///
    /// # Errors
    /// As [`RoundRobin::run`] after resolution, and [`ArenaError::Config`] when `resolved`
    /// holds another number of entrants than this configuration.
    pub fn run_resolved<G: Game>(
        &self,
        game: &G,
        resolved: Resolved<G>,
    ) -> Result<TournamentResult, ArenaError> {
        let prepared = self.prepare(game, &resolved)?;
        let recipes = resolved.recipes;
        let journal = self.journal_of(prepared)?;
        let due = journal.due();
        let prepared = &journal.prepared().clone();
        let interactive = recipes.iter().any(Recipe::is_interactive);
        let progress = Progress::new(
            journal.total(),
            journal.recorded(),
            self.quiet || interactive,
            &prepared.labels,
            journal.records(),
        );
        let journal = Mutex::new(journal);
        let play_one = |k: &usize| -> Result<(), ArenaError> {
            let record = play_scheduled(game, &recipes, prepared, &prepared.game_at(self, *k))?;
            progress.finished(&record);
            journal
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .add(vec![record])?;
            Ok(())
        };
        let threads = if interactive {
            1
        } else {
            self.threads.unwrap_or(0)
        };
        let played: Result<(), ArenaError> = if threads == 1 {
            due.iter().try_for_each(play_one)
        } else {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| ArenaError::Config(format!("cannot start the thread pool: {e}")))?;
            pool.install(|| due.par_iter().try_for_each(play_one))
        };
        progress.finish();
        played?;
        Ok(journal
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
            .result())
    }
}

/// The progress of a run ([`crate::progress`]), and a running score for matches.
struct Progress {
    bar: crate::progress::Progress,
    agents: Vec<String>,
    tally: Mutex<Vec<Wdl>>,
}

impl Progress {
    fn new<'a>(
        total: usize,
        done: usize,
        hidden: bool,
        agents: &[String],
        finished: impl Iterator<Item = &'a GameRecord>,
    ) -> Self {
        let bar = crate::progress::Progress::new(
            "playing",
            "games",
            total as u64,
            done as u64,
            Display::for_stderr(hidden),
        );
        let p = Progress {
            bar,
            agents: agents.to_vec(),
            tally: Mutex::new(vec![Wdl::default(); agents.len()]),
        };
        for r in finished {
            p.count(r);
        }
        p.update_message();
        p
    }

    fn count(&self, r: &GameRecord) {
        let mut tally = self.tally.lock().unwrap_or_else(|p| p.into_inner());
        for (seat, spec) in r.seats.iter().enumerate() {
            if let (Some(i), Some(&res)) = (
                self.agents.iter().position(|a| a == spec),
                r.results.get(seat),
            ) {
                tally[i].add(res);
            }
        }
    }

    fn update_message(&self) {
        if self.agents.len() != 2 {
            return;
        }
        let tally = self.tally.lock().unwrap_or_else(|p| p.into_inner());
        let s = tally[0].score();
        self.bar.set_message(format!(
            "{} {:.1}/{} ({:.1}%)",
            self.agents[0],
            tally[0].points(),
            tally[0].games(),
            100.0 * s.value,
        ));
    }

    fn finished(&self, r: &GameRecord) {
        self.count(r);
        self.update_message();
        self.bar.inc(1);
    }

    fn finish(&self) {
        self.bar.finish();
    }
}
