//! Rules split before grounding (`split` in the crate) mean what the rules said: the
//! compiled reasoner on a sheet whose goal rules split agrees with the reference prover
//! (which reads the rules as written) at every step of many random games.

mod common;

use yomi_ggp::{Description, Reasoner};

#[test]
fn the_compiled_reasoner_on_split_rules_agrees_with_the_prover() {
    let desc = Description::from_kif(include_str!("data/walkers.kif")).unwrap();
    let r = Reasoner::new(&desc).unwrap();
    let outcomes = common::agree_with_prover("walkers", &r, &desc, 60, 50, 5, 60.0);
    // The split goal rules decided games more than one way.
    assert!(outcomes.len() >= 2, "{outcomes:?}");
}
