//! Views compiled without the guard all their rules test (`hoist` in the reasoner) still
//! mean what the rules said: on a sheet whose moves come through a turn-guarded view that a
//! negated "has any move" reads, both evaluators agree with the reference prover at every
//! step of many random games, stuck players' `noop` included.

mod common;

use std::collections::BTreeSet;

use yomi_ggp::{Description, Hoisting, Reasoner};

/// Checks `r` with the incremental evaluator on and off against the prover; returns the
/// goals met at the ends of the games.
fn both_evaluators_agree(
    name: &str,
    r: &Reasoner,
    desc: &Description,
    games: usize,
    seed: u64,
) -> BTreeSet<Vec<Vec<u32>>> {
    let mut all = BTreeSet::new();
    for incremental in [true, false] {
        let mut r = r.clone();
        if !r.set_incremental(incremental) && incremental {
            panic!("{name}: no incremental evaluator");
        }
        all.extend(common::agree_with_prover(
            name, &r, desc, games, 200, seed, 60.0,
        ));
    }
    all
}

#[test]
fn hoisted_guards_agree_with_the_prover() {
    let desc = Description::from_kif(include_str!("data/latch.kif")).unwrap();
    let r = Reasoner::with_hoisting(&desc, Hoisting::On).unwrap();
    let unhoisted = Reasoner::with_hoisting(&desc, Hoisting::Off).unwrap();
    assert_eq!(unhoisted.stats.hoisted_views, 0);
    // `move2` and `canMove` of both roles lose the turn; `legal` is guarded again.
    assert!(r.stats.hoisted_views >= 4, "{:?}", r.stats);
    let outcomes = both_evaluators_agree("latch", &r, &desc, 200, 3);
    assert!(outcomes.len() >= 3, "{outcomes:?}");
    // The stuck player's `noop` (the negated view) happened in those games.
    let mut rng = yomi_core::Rng::seed_from_u64(3);
    let (mut legal, mut stuck) = (Vec::new(), 0);
    for _ in 0..200 {
        let mut s = r.initial_state();
        while !r.is_terminal(&s) {
            let mut joint = Vec::new();
            for role in 0..2 {
                r.legal_into(&s, role, &mut legal);
                joint.push(legal[rng.below(legal.len())]);
            }
            let mover_stuck = (0..2).all(|role| {
                r.legal_into(&s, role, &mut legal);
                legal.len() == 1 && r.action_text(legal[0]) == "noop"
            });
            stuck += mover_stuck as usize;
            r.step(&mut s, &joint);
        }
    }
    assert!(stuck > 0, "no stuck player in 200 games");
}

/// Escort latch itself, when the shared sheets are present: its moves' view and both
/// "has any legal move" views are hoisted, the turn no longer reaches hundreds of
/// conjunctions a step, and the clock keeps the hoisted program (3.6× faster here).
#[test]
fn escort_latch_hoisted_agrees_with_the_prover() {
    let Some(dir) = common::gdl_dir() else { return };
    let Ok(text) = std::fs::read_to_string(dir.join("repository/escortLatch.kif")) else {
        eprintln!("notice: repository/escortLatch.kif not among the shared sheets; skipped");
        return;
    };
    let desc = Description::from_kif(&text).unwrap();
    let r = Reasoner::new(&desc).unwrap();
    assert!(r.stats.hoisted_views > 500, "{:?}", r.stats);
    let unhoisted = Reasoner::with_hoisting(&desc, Hoisting::Off).unwrap();
    assert!(
        unhoisted.stats.fanout_per_step > 500,
        "{:?}",
        unhoisted.stats
    );
    assert!(r.stats.fanout_per_step < 100, "{:?}", r.stats);
    both_evaluators_agree("escortLatch", &r, &desc, 6, 5);
}
