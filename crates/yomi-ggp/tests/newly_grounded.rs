//! Public sheets that ground since the grounder joins over term ids and evaluates its
//! relaxed fixpoint semi-naively (before, they hit the join-step cap and played on the
//! lazy fallback): the grounded reasoner against the reference prover, or against the
//! lazy fallback where the prover needs seconds per state, along seeded random games:
//! same states, legal moves per role, terminal test and goals at every step.
//!
//! `YOMI_GGP_NEWLY_GROUNDED_SECONDS` raises the comparison time per sheet (default: a
//! fraction of a second, for CI) and `YOMI_GGP_NEWLY_GROUNDED_GAMES` the number of games.

mod common;

use std::time::Instant;

use common::Reference;
use yomi_ggp::{Description, GdlGame, Prover};

/// The sheets: whether the prover is fast enough to be the reference (else the lazy
/// fallback is: the prover needs minutes per state on kalaha), and whether the sheet is
/// compared in the default run (knightazons and skirmish take 6 to 10 s to compile).
const SHEETS: [(&str, bool, bool); 5] = [
    ("knightfight.kif", true, true),
    ("ttcc4_2player.kif", true, true),
    ("knightazons.kif", true, false),
    ("skirmish.kif", true, false),
    ("kalaha_2009.kif", false, true),
];

#[test]
fn newly_grounded_sheets_agree_with_the_reference() {
    let Some(dir) = common::gdl_dir() else { return };
    let env = |k: &str| std::env::var(k).ok().and_then(|s| s.parse::<f64>().ok());
    let long = env("YOMI_GGP_NEWLY_GROUNDED_SECONDS");
    let budget = long.unwrap_or(0.3);
    let games = env("YOMI_GGP_NEWLY_GROUNDED_GAMES").map_or(2, |g| g as usize);
    let fallback_only = std::env::var_os("YOMI_GGP_NEWLY_GROUNDED_FALLBACK").is_some();
    for (file, prover_ok, default) in SHEETS {
        if !default && long.is_none() {
            eprintln!(
                "notice: {file} skipped (slow to compile or to check; set \
                 YOMI_GGP_NEWLY_GROUNDED_SECONDS to include it)"
            );
            continue;
        }
        let path = dir.join("repository").join(file);
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("notice: {} missing; skipped", path.display());
            continue;
        };
        let t = Instant::now();
        let desc = Description::from_kif(&text).unwrap();
        let game = GdlGame::new(file, &desc).unwrap();
        let stats = &game.reasoner().stats;
        assert!(stats.fallback.is_none(), "{file}: {:?}", stats.fallback);
        let built = t.elapsed().as_secs_f64();
        let reference = if prover_ok && !fallback_only {
            Reference::Prover(Box::new(Prover::new(&desc)))
        } else {
            Reference::Fallback(GdlGame::new_fallback(file, &desc).unwrap())
        };
        let kind = match reference {
            Reference::Prover(_) => "prover",
            Reference::Fallback(_) => "fallback",
        };
        let t = Instant::now();
        let (_, steps) =
            common::agree_with_reference(file, game.reasoner(), &reference, games, 400, 7, budget);
        eprintln!(
            "{file}: built in {built:.2} s, {steps} steps compared with the {kind} in {:.2} s",
            t.elapsed().as_secs_f64()
        );
    }
}
