//! `yomi report FILE.jsonl`: standings from a records file, without playing.

use anyhow::{bail, Context};
use yomi_core::arena::{read_records, TournamentResult};

use crate::cli::ReportArgs;

/// Reads the records and prints the arena's report.
pub fn run(args: ReportArgs) -> anyhow::Result<()> {
    let path = &args.file;
    let mut records = read_records(path).context("cannot read the records")?;
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
    let mut text = format!("Records: {}\n\n", path.display());
    text.push_str(&result.report(super::table_format(args.markdown)));
    super::emit(&text)?;
    Ok(())
}
