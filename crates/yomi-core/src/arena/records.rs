//! Game records and the JSONL file that stores them.
//!
//! Every finished game becomes one [`GameRecord`], written as one line of JSON and flushed
//! at once, so a run that is killed loses at most the games still being played. A records
//! file is a [`crate::journal`] without a settings header (each record carries the
//! settings it was played under) whose entries are keyed by pairing and index: a run
//! pointed at an existing file reads the finished games back and plays only the rest; a
//! partial last line (the process died while writing it) is cut off before new lines are
//! appended.
//!
//! A run holds an advisory lock on its records file from before it reads the file until it
//! ends, so a second run on the same file is refused at once with [`ArenaError::Io`] (its
//! message, [`LOCKED_MESSAGE`], says the file is in use) instead of interleaving its lines
//! with the first one's.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::play::{PlayedGame, Termination};
use super::seat::SeatResult;
use super::ArenaError;
use crate::journal::{self, JournalEntry, JournalError, JournalFile};

/// The version of the record format written by this code. Files of another version are
/// refused rather than misread.
pub const RECORD_VERSION: u32 = 1;

/// One finished game, as stored in a records file (one JSON object per line).
///
/// The key of a record is (`game`, `seats`, `index`, `seed`) together with `pairing`;
/// `setup` and `turn_limit` must match too when a run resumes from a file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The record format version, [`RECORD_VERSION`].
    pub version: u32,
    /// The game's short name ([`crate::GameFacts::name`]).
    pub game: String,
    /// A fingerprint of the game's variant: 16 hex digits of the FNV-1a hash of the initial
    /// state's notation (tells `nim` with 10 stones from `nim` with 12).
    pub setup: String,
    /// The pairing (group of agents) this game belongs to; see [`super::RoundRobin`].
    pub pairing: usize,
    /// The game's index within its pairing.
    pub index: usize,
    /// The game's seed; agent seeds derive from it and the seat.
    pub seed: u64,
    /// The label of each seat's entrant (seat `i` plays player `i`); see
    /// [`crate::entrant`]. A label is the agent's canonical spec unless it was given one
    /// or its spec is listed twice (`mcts#2`).
    pub seats: Vec<String>,
    /// The canonical spec of each seat, written only when some seat's label differs from
    /// its spec; empty otherwise (and in files written before labels existed), when
    /// `seats` are the specs. Read it through [`GameRecord::seat_specs`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub specs: Vec<String>,
    /// The turn limit the game was played under.
    pub turn_limit: usize,
    /// The moves in notation (joint moves as `[m0 m1]`).
    pub moves: Vec<String>,
    /// The reward of each seat.
    pub returns: Vec<f64>,
    /// The result of each seat.
    pub results: Vec<SeatResult>,
    /// Turns played.
    pub turns: usize,
    /// How the game ended.
    pub termination: Termination,
    /// The final state in notation.
    pub final_state: String,
    /// Wall time of the game, in seconds.
    pub seconds: f64,
    /// Wall time of each seat's agent, in seconds.
    pub seat_seconds: Vec<f64>,
    /// Moves each seat's agent chose.
    pub seat_moves: Vec<usize>,
}

impl GameRecord {
    /// A record of `played`, with the game's identity given by the other arguments.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        game: &str,
        setup: &str,
        pairing: usize,
        index: usize,
        seed: u64,
        seats: Vec<String>,
        turn_limit: usize,
        played: PlayedGame,
    ) -> Self {
        GameRecord {
            version: RECORD_VERSION,
            game: game.to_string(),
            setup: setup.to_string(),
            pairing,
            index,
            seed,
            seats,
            specs: Vec::new(),
            turn_limit,
            moves: played.moves,
            returns: played.returns,
            results: played.results,
            turns: played.turns,
            termination: played.termination,
            final_state: played.final_state,
            seconds: played.seconds,
            seat_seconds: played.seat_seconds,
            seat_moves: played.seat_moves,
        }
    }

    /// Sets the seats' specs ([`GameRecord::specs`]): kept only when some differs from its
    /// seat's label.
    pub fn with_specs(mut self, specs: Vec<String>) -> Self {
        self.specs = if specs == self.seats {
            Vec::new()
        } else {
            specs
        };
        self
    }

    /// The canonical spec of each seat: [`GameRecord::specs`] when written, else the
    /// seats' labels (which are then the specs).
    pub fn seat_specs(&self) -> &[String] {
        if self.specs.is_empty() {
            &self.seats
        } else {
            &self.specs
        }
    }

    /// The same record with every timing set to zero (timings are the only part of a
    /// record that differs between two runs with the same seed).
    pub fn without_timing(&self) -> Self {
        let mut r = self.clone();
        r.seconds = 0.0;
        r.seat_seconds.iter_mut().for_each(|s| *s = 0.0);
        r
    }
}

/// The fingerprint stored in [`GameRecord::setup`]: FNV-1a (64 bits) of `text`, as 16 hex
/// digits. Stable across Rust versions and platforms.
pub fn setup_fingerprint(text: &str) -> String {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    format!("{h:016x}")
}

/// A records file is a journal of games keyed by (pairing, index); a second copy of a game
/// is harmless when it differs only in timings.
impl JournalEntry for GameRecord {
    type Key = (usize, usize);

    fn key(&self) -> (usize, usize) {
        (self.pairing, self.index)
    }

    /// Reads a record of [`RECORD_VERSION`]; another version is refused by number.
    fn parse_line(text: &str) -> Result<Self, String> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(v) if v == RECORD_VERSION as u64 => {}
            Some(v) => {
                return Err(format!(
                    "record format version {v}; this program reads version {RECORD_VERSION}"
                ))
            }
            None => return Err("not a yomi game record (no \"version\")".into()),
        }
        serde_json::from_value(value).map_err(|e| format!("not a game record: {e}"))
    }

    fn same_work(&self, other: &Self) -> bool {
        self.without_timing() == other.without_timing()
    }
}

/// The message of the error that refuses a second writer.
pub const LOCKED_MESSAGE: &str = "another run is writing this records file (it is locked); \
     wait for that run to finish or give another output file";

/// Journal errors in the arena's words: a locked file is [`ArenaError::Io`] with
/// [`LOCKED_MESSAGE`], a bad line [`ArenaError::BadRecord`], a conflict or settings
/// mismatch [`ArenaError::Mismatch`].
impl From<JournalError> for ArenaError {
    fn from(e: JournalError) -> Self {
        match e {
            JournalError::Io { path, source } => ArenaError::Io { path, source },
            JournalError::Locked { path } => ArenaError::Io {
                path,
                source: std::io::Error::new(std::io::ErrorKind::WouldBlock, LOCKED_MESSAGE),
            },
            JournalError::BadLine { path, line, reason } => {
                ArenaError::BadRecord { path, line, reason }
            }
            JournalError::Settings { path, detail } => ArenaError::Mismatch { path, detail },
            JournalError::Conflict { path, line, detail } => ArenaError::Mismatch {
                path,
                detail: format!("line {line}: {detail}"),
            },
        }
    }
}

/// Reads every complete record of a records file, in file order. A partial last line (no
/// newline at the end) is ignored; blank lines are skipped.
///
/// # Errors
/// [`ArenaError::Io`] when the file cannot be read; [`ArenaError::BadRecord`] for a line
/// that is not a record of [`RECORD_VERSION`].
pub fn read_records(path: &Path) -> Result<Vec<GameRecord>, ArenaError> {
    parse_lines(path, journal::read_lines(path)?)
}

/// The records of numbered lines.
fn parse_lines(path: &Path, lines: journal::NumberedLines) -> Result<Vec<GameRecord>, ArenaError> {
    lines
        .into_iter()
        .map(|(line, text)| {
            GameRecord::parse_line(&text).map_err(|reason| ArenaError::BadRecord {
                path: path.to_path_buf(),
                line,
                reason,
            })
        })
        .collect()
}

/// A records file open for appending, shared by the threads of a run (a
/// [`JournalFile`] that reads and writes game records).
///
/// Each [`RecordLog::append`] writes one line and flushes it under a mutex, so lines never
/// interleave and a finished game is on disk before the next one is reported. The file is
/// locked (an advisory, exclusive lock) for as long as the log lives, so two runs never
/// write one file.
#[derive(Debug)]
pub struct RecordLog {
    file: JournalFile,
}

impl RecordLog {
    /// Opens (or creates) the records file at `path` and locks it for this run, without
    /// changing it; read it with [`RecordLog::read`] and call [`RecordLog::prepare`]
    /// before appending.
    ///
    /// # Errors
    /// [`ArenaError::Io`] when the file cannot be opened, or when another run holds its
    /// lock (the message is [`LOCKED_MESSAGE`]).
    pub fn lock(path: &Path) -> Result<Self, ArenaError> {
        Ok(RecordLog {
            file: JournalFile::lock(path)?,
        })
    }

    /// The complete records of the locked file, in file order (a partial last line is
    /// ignored).
    ///
    /// # Errors
    /// [`ArenaError::Io`] when reading fails; [`ArenaError::BadRecord`] for a complete
    /// line that is not a record.
    pub fn read(&self) -> Result<Vec<GameRecord>, ArenaError> {
        parse_lines(self.path(), self.file.read_lines()?)
    }

    /// Readies the locked file for appending: cuts off a partial last line and positions
    /// writes at the end. Returns the complete records, in file order.
    ///
    /// # Errors
    /// As [`RecordLog::read`], and [`ArenaError::Io`] when truncating fails.
    pub fn prepare(&self) -> Result<Vec<GameRecord>, ArenaError> {
        let records = self.read()?;
        self.file.prepare()?;
        Ok(records)
    }

    /// Opens (or creates) the records file at `path` for a run that resumes it: locks it
    /// ([`RecordLog::lock`]), reads the complete records already there, cuts off a partial
    /// last line, and positions new writes at the end. Returns the log and the records
    /// found, in file order.
    ///
    /// # Errors
    /// [`ArenaError::Io`] when the file cannot be opened, read or truncated, or is locked
    /// by another run; [`ArenaError::BadRecord`] for a complete line that is not a record.
    pub fn open(path: &Path) -> Result<(Self, Vec<GameRecord>), ArenaError> {
        let log = RecordLog::lock(path)?;
        let records = log.prepare()?;
        Ok((log, records))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// Appends `record` as one line and flushes it.
    ///
    /// # Errors
    /// [`ArenaError::Io`] when writing fails.
    pub fn append(&self, record: &GameRecord) -> Result<(), ArenaError> {
        Ok(self.file.append(record)?)
    }
}
