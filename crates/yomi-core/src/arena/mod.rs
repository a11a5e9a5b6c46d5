//! The arena: plays games between agents, matches and round robins, keeps records and
//! computes statistics. Everything here is generic over [`Game`](crate::Game).
//!
//! - [`play`]: one game, one agent per seat ([`play_game`]): legality checks, forfeits,
//!   the turn limit, moves in notation, timing per seat.
//! - [`round_robin`]: [`RoundRobin`], the configuration of a match (a round robin of two)
//!   or a round robin; its schedule (colors alternate, seats rotate, seeds derive from
//!   the match seed and a stable game index); one scheduled game played, and the
//!   [`TournamentResult`].
//! - [`chunks`]: a round robin run in chunks elsewhere (other processes or machines) with
//!   one [`Journal`] writing the records file; the same seed gives the same records.
//! - `run`: [`RoundRobin::run`] plays the games in parallel on this machine through a
//!   [`Journal`], with a progress bar, and returns a [`TournamentResult`].
//!
//! Dependencies go one way: `run` uses `chunks`, which uses `round_robin`; `records`
//! uses `play`; `stats` uses `records`; `play`, `records` and `stats` use `seat`.
//! - [`records`]: [`GameRecord`] and the JSONL records file ([`RecordLog`]): one line per
//!   finished game, flushed at once; an interrupted run resumes from it.
//! - [`seat`]: [`SeatResult`], the win, draw or loss of each seat from the rewards
//!   ([`seat_results`]); used by `play`, `records` and `stats`, and using none of them.
//! - [`stats`]: wins/draws/losses, score rates with Wilson intervals, Elo differences,
//!   [`Standings`] and a [`CrossTable`], rendered as text or Markdown ([`TableFormat`]).
//!
//! ```
//! use yomi_core::arena::{RoundRobin, TableFormat};
//! use yomi_core::registry::AgentRegistry;
//! use yomi_core::testing::Nim;
//!
//! let game = Nim::new(7);
//! let registry = AgentRegistry::with_core_agents();
//! let result = RoundRobin::head_to_head("alphabeta:depth=8", "random")
//!     .games(4)
//!     .seed(1)
//!     .quiet(true)
//!     .run(&game, &registry)
//!     .unwrap();
//! assert_eq!(result.records.len(), 4);
//! assert_eq!(result.records[1].seats, ["random", "alphabeta:depth=8"]); // colors alternate
//! println!("{}", result.report(TableFormat::Text));
//! ```

use std::path::PathBuf;

use thiserror::Error;

use crate::entrant::EntrantError;
use crate::spec::SpecError;

pub mod chunks;
pub mod play;
pub mod records;
pub mod round_robin;
mod run;
pub mod seat;
pub mod stats;
mod table;

pub use chunks::Journal;
pub use play::{
    forfeit_returns, play_game, play_game_from, play_game_with, PlayedGame, Termination,
};
pub use records::{read_records, setup_fingerprint, GameRecord, RecordLog, RECORD_VERSION};
pub use round_robin::{
    Resolved, RoundRobin, ScheduledGame, TournamentResult, DEFAULT_GAMES, DEFAULT_TURN_LIMIT,
};
pub use seat::{seat_results, SeatResult};
pub use stats::{
    elo_estimate, elo_from_score, score_estimate, wilson_interval, CrossTable, Estimate, Standing,
    Standings, Wdl, ELO_LIMIT, Z_95,
};
pub use table::TableFormat;

/// Why a match could not be run.
#[derive(Debug, Error)]
pub enum ArenaError {
    /// An agent spec is malformed or does not build for this game.
    #[error("agent {spec:?}: {source}")]
    Spec {
        /// The spec as given.
        spec: String,
        /// What is wrong with it.
        #[source]
        source: SpecError,
    },
    /// The entrants cannot be read: none given, one that does not parse, a label given
    /// twice.
    /// (Boxed: it is large and rare, and [`ArenaError`] travels in many `Result`s.)
    #[error(transparent)]
    Entrant(Box<EntrantError>),
    /// The configuration cannot be run (numbers out of range, a thread pool that does not
    /// start).
    #[error("{0}")]
    Config(String),
    /// Reading or writing the records file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// A complete line of the records file is not a game record of this format version.
    #[error("{}, line {line}: {reason}", path.display())]
    BadRecord {
        /// The file.
        path: PathBuf,
        /// The line number (from 1).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The records file holds games of another configuration; resuming would mix them.
    #[error(
        "{} holds records of another configuration: {detail}; use another records file, or \
         the settings that wrote this one",
        path.display()
    )]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// Which record differs, and how.
        detail: String,
    },
}

impl From<EntrantError> for ArenaError {
    fn from(e: EntrantError) -> Self {
        ArenaError::Entrant(Box::new(e))
    }
}
