//! `yomi report FILE.jsonl`: standings from a records file, without playing.
//!
//! It reads every command's records ([`super::records`]): the arena's, a `yomi go twogtp`
//! match journal and a `yomi ggp host` series journal (failed matches, where nothing was
//! played, are not counted and the report says how many there were).
//!
//! A game recorded more than once (two runs that wrote one file before files were locked)
//! is counted once: records are keyed by game, variant, pairing, index, seed and seats,
//! the first copy is kept, and the report says how many copies it dropped.

use std::collections::HashSet;

use anyhow::{bail, Context};
use yomi_core::arena::{GameRecord, TournamentResult};

use super::records::RecordsFile;

use crate::cli::ReportArgs;

/// Reads the records and prints the arena's report.
pub fn run(args: ReportArgs) -> anyhow::Result<()> {
    let path = &args.file;
    let file = RecordsFile::read(path)?;
    let kind = file.kind();
    let (records, failed) = file
        .into_game_records()
        .with_context(|| format!("cannot read {} as {kind}", path.display()))?;
    let (mut records, duplicates) = dedupe(records);
    let Some(first) = records.first() else {
        bail!("{} holds no finished games", path.display());
    };
    let game = first.game.clone();
    if let Some(other) = records.iter().find(|r| r.game != game) {
        bail!(
            "{} mixes games ({} and {}); a report covers one game",
            path.display(),
            game,
            other.game
        );
    }
    // The arena lists agents in the order they were given; game 0 of each pairing seats
    // the pairing's agents in that order, and pairings are numbered so that each one
    // introduces at most one new agent after the first. Reading seats in (pairing, index)
    // order therefore recovers the original order.
    records.sort_by_key(|r| (r.pairing, r.index));
    let mut agents: Vec<String> = Vec::new();
    for r in &records {
        for seat in &r.seats {
            if !agents.contains(seat) {
                agents.push(seat.clone());
            }
        }
    }
    let mut result = TournamentResult::from_records(&game, agents, records);
    // Every game of a report comes from the file.
    result.resumed = result.records.len();
    let mut text = format!("Records: {} ({kind})\n", path.display());
    if failed > 0 {
        let s = if failed == 1 { "" } else { "es" };
        text.push_str(&format!(
            "Note: {failed} failed match{s} (a player never answered start; nothing was \
             played) not counted\n"
        ));
    }
    if duplicates > 0 {
        let s = if duplicates == 1 { "" } else { "s" };
        text.push_str(&format!(
            "Note: {duplicates} duplicate record{s} of a game already counted (same game, \
             pairing, index, seed and seats) ignored\n"
        ));
        eprintln!(
            "note: {} holds {duplicates} duplicate record{s}; each game is counted once",
            path.display()
        );
    }
    text.push('\n');
    text.push_str(&result.report(super::table_format(args.markdown)));
    super::emit(&text)?;
    Ok(())
}

/// The records with each game kept once (the first copy, in file order), and how many
/// copies were dropped.
fn dedupe(records: Vec<GameRecord>) -> (Vec<GameRecord>, usize) {
    let mut seen = HashSet::new();
    let before = records.len();
    let kept: Vec<GameRecord> = records
        .into_iter()
        .filter(|r| {
            seen.insert((
                r.game.clone(),
                r.setup.clone(),
                r.pairing,
                r.index,
                r.seed,
                r.seats.clone(),
            ))
        })
        .collect();
    let dropped = before - kept.len();
    (kept, dropped)
}
