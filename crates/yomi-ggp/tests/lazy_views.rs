//! Lazy views (`Programs` in the reasoner): views that only the state phase reads and that
//! are long, or read lazy views, are computed when a reader's conjunction gets as far as
//! testing them. Their values stay what the rules say: the programs with lazy views forced
//! on agree with the reference prover at every step of many random games, on a sheet made
//! for them and on zhadu (when the shared sheets are present), whose path views they were
//! made for; and the clock keeps them on zhadu.

mod common;

use yomi_ggp::{Description, Reasoner};

/// The programs (incremental evaluation off) against the prover; the goals met.
fn programs_agree(name: &str, text: &str, games: usize, seed: u64) -> (Reasoner, usize) {
    let desc = Description::from_kif(text).unwrap();
    let mut r = Reasoner::new(&desc).unwrap();
    r.set_incremental(false);
    assert!(r.stats.programs, "{name}: no programs: {:?}", r.stats);
    assert!(r.set_lazy_views(true), "{name}: no lazy views");
    let outcomes = common::agree_with_prover(name, &r, &desc, games, 300, seed, 60.0);
    (r, outcomes.len())
}

#[test]
fn lazy_path_views_agree_with_the_prover() {
    let (r, outcomes) = programs_agree("paths", include_str!("data/paths.kif"), 300, 11);
    // `path3` of every pair of cells it can join, and `jump` above it.
    assert!(r.stats.lazy_views >= 10, "{:?}", r.stats);
    assert_eq!(outcomes, 2, "both results reached");
}

#[test]
fn zhadu_lazy_views_agree_with_the_prover() {
    let Some(dir) = common::gdl_dir() else { return };
    let Ok(text) = std::fs::read_to_string(dir.join("repository/zhadu.kif")) else {
        eprintln!("notice: repository/zhadu.kif not among the shared sheets; skipped");
        return;
    };
    let (r, _) = programs_agree("zhadu", &text, 4, 5);
    assert!(r.stats.lazy_views > 1000, "{:?}", r.stats);
    // 2.5-2.9× faster with them: the clock keeps them even on a loaded machine.
    let desc = Description::from_kif(&text).unwrap();
    let chosen = Reasoner::new(&desc).unwrap();
    assert!(chosen.stats.lazy_views > 1000, "{:?}", chosen.stats);
}
