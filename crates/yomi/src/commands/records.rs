//! The records files that commands write, read back as one format for `yomi report` and
//! `yomi export`.
//!
//! Three commands record games: the arena's (`yomi match`, `tournament`, `play --out`,
//! the web board; one [`GameRecord`] a line), `yomi go twogtp` (a journal of
//! [`yomi_go::twogtp::GameRecord`]s under its match settings) and `yomi ggp host` (a
//! journal of [`yomi_ggp::host::MatchRecord`]s under its series settings). A file is told
//! apart by its first line: a journal header whose settings are the GGP host's or the
//! GTP match's, or else arena records. Each record type converts itself to the arena's
//! [`GameRecord`] (`to_arena`), so reports and move lists are computed one way.

use std::path::Path;

use anyhow::{bail, Context};
use yomi_core::arena::{read_records, GameRecord};
use yomi_core::journal;
use yomi_ggp::host::{MatchRecord, SeriesSettings};
use yomi_go::twogtp;

/// A records file, by the command that wrote it.
pub enum RecordsFile {
    /// Arena records.
    Arena(Vec<GameRecord>),
    /// A `yomi go twogtp` match journal.
    Twogtp {
        /// The match settings (the header).
        config: twogtp::MatchConfig,
        /// The finished games, in file order.
        games: Vec<twogtp::GameRecord>,
    },
    /// A `yomi ggp host` series journal.
    GgpHost {
        /// The series settings (the header).
        settings: SeriesSettings,
        /// The matches, failed ones included, in file order.
        matches: Vec<MatchRecord>,
    },
}

impl RecordsFile {
    /// Reads the file at `path` (complete lines only: a torn last line is ignored).
    ///
    /// # Errors
    /// An unreadable file, or a line that is not a record of the file's kind (with its
    /// number).
    pub fn read(path: &Path) -> anyhow::Result<Self> {
        // The journal's error names the file.
        let lines = journal::read_lines(path).context("cannot read the records")?;
        let Some(settings) = lines.first().and_then(|(_, l)| journal::header_settings(l)) else {
            let records = read_records(path).context("cannot read the records")?;
            return Ok(RecordsFile::Arena(records));
        };
        if settings.get("ggp_host").is_some() {
            let settings: SeriesSettings = serde_json::from_value(settings).with_context(|| {
                format!(
                    "{}: a GGP host journal with unreadable settings",
                    path.display()
                )
            })?;
            let matches = parse_all(path, &lines[1..], "a match of the series")?;
            return Ok(RecordsFile::GgpHost { settings, matches });
        }
        if let Ok(config) = serde_json::from_value::<twogtp::MatchConfig>(settings) {
            let games = parse_all(path, &lines[1..], "a game of the match")?;
            return Ok(RecordsFile::Twogtp { config, games });
        }
        bail!(
            "{} is a journal of another kind (not game records, a Go match or a GGP host \
             series); `yomi report` reads the files of `yomi match`, `tournament`, `play \
             --out`, `go twogtp` and `ggp host`",
            path.display()
        )
    }

    /// What wrote the file, in words.
    pub fn kind(&self) -> &'static str {
        match self {
            RecordsFile::Arena(_) => "game records",
            RecordsFile::Twogtp { .. } => "a `yomi go twogtp` match journal",
            RecordsFile::GgpHost { .. } => "a `yomi ggp host` series journal",
        }
    }

    /// Every played game as an arena record, and how many entries were not games (GGP
    /// matches that failed before a move was played).
    ///
    /// # Errors
    /// A Go match journal whose board size or komi yomi's Go refuses.
    pub fn into_game_records(self) -> anyhow::Result<(Vec<GameRecord>, usize)> {
        match self {
            RecordsFile::Arena(records) => Ok((records, 0)),
            RecordsFile::Twogtp { config, games } => {
                let records = games
                    .iter()
                    .map(|g| g.to_arena(&config))
                    .collect::<Result<Vec<_>, _>>()
                    .context("the match settings")?;
                Ok((records, 0))
            }
            RecordsFile::GgpHost { settings, matches } => {
                let records: Vec<GameRecord> = matches
                    .iter()
                    .enumerate()
                    .filter_map(|(line, m)| m.to_arena(m.series_index().unwrap_or(line), &settings))
                    .collect();
                let failed = matches.len() - records.len();
                Ok((records, failed))
            }
        }
    }
}

/// Each of `lines` parsed as a `T`.
fn parse_all<T: serde::de::DeserializeOwned>(
    path: &Path,
    lines: &[(usize, String)],
    what: &str,
) -> anyhow::Result<Vec<T>> {
    lines
        .iter()
        .map(|(number, text)| {
            serde_json::from_str(text)
                .with_context(|| format!("{} line {number}: not {what}", path.display()))
        })
        .collect()
}
