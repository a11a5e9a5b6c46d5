//! `yomi report FILE.jsonl`: standings from a records file, without playing.
//!
//! A game recorded more than once (two runs that wrote one file before files were locked)
//! is counted once: records are keyed by game, variant, pairing, index, seed and seats,
//! the first copy is kept, and the report says how many copies it dropped.

use std::collections::HashSet;

use anyhow::{bail, Context};
use yomi_core::arena::{read_records, GameRecord, TournamentResult};

use crate::cli::ReportArgs;

/// Reads the records and prints the arena's report.
pub fn run(args: ReportArgs) -> anyhow::Result<()> {
    let path = &args.file;
    let records = read_records(path).context("cannot read the records")?;
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
    let result = TournamentResult::from_records(&game, agents, records);
    let mut text = format!("Records: {}\n", path.display());
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
