//! A round robin run in chunks elsewhere: other processes or machines (the Python
//! package's Ray runner), with one records file written by one process.
//!
//! The process that owns the records file opens a [`Journal`] on it
//! ([`RoundRobin::journal`]): the file is locked, its records are checked against the
//! configuration exactly as [`RoundRobin::run`] checks them when it resumes, and
//! [`Journal::due`] lists the games still to play as schedule positions (position `k` is
//! game `k % games` of pairing `k / games`). Workers play any list of positions with
//! [`RoundRobin::play_chunk`], which plays each game as [`RoundRobin::run`] does (same seeds,
//! same agents, same record), so a game's record does not depend on where it ran. The owner
//! hands the records to [`Journal::add`]: each is checked, a game already in the file (a
//! chunk run twice because a worker was lost) is skipped, and the rest are appended and
//! flushed at once. [`Journal::result`] gives the same [`TournamentResult`] as a run on one
//! machine.
//!
//! ```
//! use yomi_core::arena::RoundRobin;
//! use yomi_core::registry::AgentRegistry;
//! use yomi_core::testing::Nim;
//!
//! let game = Nim::new(5);
//! let registry = AgentRegistry::with_core_agents();
//! let config = RoundRobin::head_to_head("alphabeta:depth=6", "random")
//!     .games(6)
//!     .seed(3)
//!     .quiet(true);
//! let mut journal = config.journal(&game, &registry).unwrap();
//! for chunk in journal.due().chunks(4) {
//!     // In a real run each chunk goes to another process; records come back as JSON.
//!     let records = config.play_chunk(&game, &registry, chunk).unwrap();
//!     journal.add(records).unwrap();
//! }
//! let whole = config.run(&game, &registry).unwrap();
//! // The same games (timings aside), so the same results.
//! let strip = |r: &[yomi_core::arena::GameRecord]| {
//!     r.iter().map(|g| g.without_timing()).collect::<Vec<_>>()
//! };
//! assert_eq!(strip(&journal.result().records), strip(&whole.records));
//! assert_eq!(journal.result().standings.rows[0].wdl, whole.standings.rows[0].wdl);
//! ```

use std::path::PathBuf;

use rayon::prelude::*;

use super::records::GameRecord;
use super::round_robin::{check_record, play_scheduled, Prepared};
use super::{ArenaError, RoundRobin, TournamentResult};
use crate::game::Game;
use crate::journal::Journal as RecordJournal;
use crate::registry::AgentRegistry;

impl RoundRobin {
    /// Plays the games at the schedule positions `positions` (see the [module
    /// documentation](self)) and returns their records in the order given; writes no file.
    /// Games run on [`RoundRobin::threads`] threads.
    ///
    /// # Errors
    /// As [`RoundRobin::run`]; [`ArenaError::Config`] for a position outside the schedule.
    pub fn play_chunk<G: Game>(
        &self,
        game: &G,
        registry: &AgentRegistry<G>,
        positions: &[usize],
    ) -> Result<Vec<GameRecord>, ArenaError> {
        let resolved = self.resolve(game, registry)?;
        let p = self.prepare(game, &resolved)?;
        let recipes = resolved.recipes;
        if let Some(&k) = positions.iter().find(|&&k| k >= p.total) {
            return Err(ArenaError::Config(format!(
                "game {k} is not in the schedule (it has {} games)",
                p.total
            )));
        }
        let play = |&k: &usize| -> Result<GameRecord, ArenaError> {
            play_scheduled(game, &recipes, &p, &p.game_at(self, k))
        };
        match self.threads.unwrap_or(0) {
            1 => positions.iter().map(play).collect(),
            threads => rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| ArenaError::Config(format!("cannot start the thread pool: {e}")))?
                .install(|| positions.par_iter().map(play).collect()),
        }
    }

    /// Opens the journal of a run in chunks: locks and checks the records file
    /// ([`RoundRobin::out`]; without one the journal is kept in memory).
    ///
    /// # Errors
    /// As [`RoundRobin::run`] before it plays a game: specs, numbers, a locked file, a file
    /// of another configuration.
    pub fn journal<G: Game>(
        &self,
        game: &G,
        registry: &AgentRegistry<G>,
    ) -> Result<Journal, ArenaError> {
        self.journal_of(self.prepare(game, &self.resolve(game, registry)?)?)
    }

    /// Opens the journal of a configuration prepared already (see [`RoundRobin::journal`]).
    pub(super) fn journal_of(&self, p: Prepared) -> Result<Journal, ArenaError> {
        let records = match &self.out {
            Some(path) => RecordJournal::open(path, None, |line, r: &GameRecord| {
                check_record(path, line, r, &p, self)
            })?,
            None => RecordJournal::in_memory(),
        };
        Ok(Journal {
            config: self.clone(),
            prepared: p,
            records,
            played: 0,
            duplicates: 0,
        })
    }
}

/// The records of a run in chunks, owned by one process (see the [module
/// documentation](self)). Holds the records file's lock until dropped.
pub struct Journal {
    config: RoundRobin,
    prepared: Prepared,
    /// The records, by (pairing, index), and the file they go to.
    records: RecordJournal<GameRecord>,
    played: usize,
    duplicates: usize,
}

impl Journal {
    /// Games in the whole schedule.
    pub fn total(&self) -> usize {
        self.prepared.total
    }

    /// The schedule positions of the games not yet recorded, ascending.
    pub fn due(&self) -> Vec<usize> {
        let games = self.config.games.max(1);
        (0..self.prepared.total)
            .filter(|k| !self.records.contains(&(k / games, k % games)))
            .collect()
    }

    /// The records of the games recorded so far, by pairing and index.
    pub fn records(&self) -> impl Iterator<Item = &GameRecord> {
        self.records.entries()
    }

    /// What every game of the configuration shares.
    pub(super) fn prepared(&self) -> &Prepared {
        &self.prepared
    }

    /// Games recorded (read back or added).
    pub fn recorded(&self) -> usize {
        self.records.len()
    }

    /// Games added by [`Journal::add`] that were already recorded and were skipped.
    pub fn duplicates(&self) -> usize {
        self.duplicates
    }

    /// Checks `records` against the schedule, appends those not yet recorded to the file
    /// (one flushed line each) and returns how many were new. A game already recorded is
    /// skipped (the first copy stays).
    ///
    /// # Errors
    /// [`ArenaError::Mismatch`] for a record this configuration does not schedule (then
    /// nothing of `records` is written); [`ArenaError::Io`] when writing fails.
    pub fn add(&mut self, records: Vec<GameRecord>) -> Result<usize, ArenaError> {
        let origin = self
            .config
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from("(chunk records)"));
        for (n, r) in records.iter().enumerate() {
            self.check(&origin, n + 1, r)?;
        }
        let mut added = 0;
        for r in records {
            if self.records.add(r)? {
                added += 1;
            } else {
                self.duplicates += 1;
            }
        }
        self.played += added;
        Ok(added)
    }

    /// The standings, cross table and records of every game recorded so far.
    pub fn result(&self) -> TournamentResult {
        let records: Vec<GameRecord> = self.records.entries().cloned().collect();
        let mut result = TournamentResult::from_records(
            &self.prepared.game,
            self.prepared.labels.clone(),
            records,
        );
        result.played = self.played;
        result.resumed = self.records.resumed();
        result
    }

    fn check(&self, path: &std::path::Path, n: usize, r: &GameRecord) -> Result<(), ArenaError> {
        check_record(path, n, r, &self.prepared, &self.config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Nim;

    fn config(out: Option<PathBuf>) -> RoundRobin {
        let mut c = RoundRobin::new(["alphabeta:depth=4", "random", "flatmc:n=5"])
            .games(5)
            .seed(11)
            .threads(2)
            .quiet(true);
        c.out = out;
        c
    }

    #[test]
    fn chunks_in_any_order_give_the_records_of_one_run() {
        let game = Nim::new(6);
        let registry = AgentRegistry::with_core_agents();
        let dir = tempfile::tempdir().unwrap();
        let whole = config(Some(dir.path().join("whole.jsonl")))
            .run(&game, &registry)
            .unwrap();
        let cfg = config(Some(dir.path().join("chunks.jsonl")));
        let mut journal = cfg.journal(&game, &registry).unwrap();
        assert_eq!(journal.total(), 15);
        let due = journal.due();
        let mut chunks: Vec<&[usize]> = due.chunks(4).collect();
        chunks.reverse();
        for chunk in &chunks {
            let records = cfg.play_chunk(&game, &registry, chunk).unwrap();
            assert_eq!(journal.add(records).unwrap(), chunk.len());
        }
        // A chunk delivered twice (a retried task) adds nothing.
        let again = cfg.play_chunk(&game, &registry, chunks[0]).unwrap();
        assert_eq!(journal.add(again).unwrap(), 0);
        assert_eq!(journal.duplicates(), chunks[0].len());
        assert!(journal.due().is_empty());
        let result = journal.result();
        let strip = |r: &[GameRecord]| r.iter().map(GameRecord::without_timing).collect::<Vec<_>>();
        assert_eq!(strip(&result.records), strip(&whole.records));
        assert_eq!(result.standings.rows.len(), 3);
        drop(journal);
        // The file written in chunks resumes like one written by a single run.
        let resumed = cfg.run(&game, &registry).unwrap();
        assert_eq!((resumed.played, resumed.resumed), (0, 15));
    }

    #[test]
    fn foreign_records_and_positions_are_refused() {
        let game = Nim::new(6);
        let registry = AgentRegistry::with_core_agents();
        let cfg = config(None);
        let mut journal = cfg.journal(&game, &registry).unwrap();
        let mut records = cfg.play_chunk(&game, &registry, &[0]).unwrap();
        records[0].seed ^= 1;
        assert!(matches!(
            journal.add(records),
            Err(ArenaError::Mismatch { .. })
        ));
        assert_eq!(journal.recorded(), 0);
        assert!(cfg.play_chunk(&game, &registry, &[15]).is_err());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("locked.jsonl");
        let held = config(Some(path.clone()))
            .journal(&game, &registry)
            .unwrap();
        assert!(config(Some(path)).journal(&game, &registry).is_err());
        drop(held);
    }
}
