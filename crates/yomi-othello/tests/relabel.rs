//! Relabelling a test set (`testsets::relabel`) and comparing two labellings
//! (`testsets::agreement`), on the shipped S=20 and S=50 sets.

use std::collections::HashSet;

use yomi_othello::testsets::{self, agreement, relabel, GenConfig, LabelKind, LabelledPosition};

fn shipped(stage: u32, n: usize) -> Vec<LabelledPosition> {
    let path = format!("{}/data/testsets/s{stage}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("a shipped test set");
    let mut set = testsets::parse(&text).expect("it parses");
    set.truncate(n);
    set
}

fn relabelled(
    set: &[LabelledPosition],
    cfg: &GenConfig,
    done: &HashSet<usize>,
) -> Vec<Option<LabelledPosition>> {
    let states: Vec<_> = set.iter().map(|p| p.state).collect();
    let mut out = vec![None; set.len()];
    relabel(&states, cfg, done, |i, p| {
        assert!(out[i].is_none(), "position {i} came twice");
        out[i] = Some(p);
    });
    out
}

fn config(depth: u32, threads: usize) -> GenConfig {
    GenConfig {
        search_depth: depth,
        threads,
        ..GenConfig::new(20)
    }
}

#[test]
fn relabelling_keeps_the_positions_and_moves_and_labels_at_the_new_depth() {
    let set = shipped(20, 6);
    let new: Vec<LabelledPosition> = relabelled(&set, &config(3, 2), &HashSet::new())
        .into_iter()
        .map(|p| p.expect("every position relabelled"))
        .collect();
    for (old, new) in set.iter().zip(&new) {
        assert_eq!(old.state, new.state);
        assert_eq!(new.kind, LabelKind::Search(3));
        let mut a: Vec<_> = old.moves.iter().map(|m| m.0).collect();
        let mut b: Vec<_> = new.moves.iter().map(|m| m.0).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "the same legal moves");
    }
    // The shipped labels are 6-ply searches: 3-ply ones differ somewhere.
    let agree = agreement(&set, &new).unwrap();
    assert_eq!(agree.positions, 6);
    assert_eq!(
        agree.moves,
        set.iter().map(|p| p.moves.len()).sum::<usize>()
    );
    assert!(agree.outcome <= agree.moves && agree.best_move <= 6);
    assert_eq!(
        agree.critical.0, 6,
        "the shipped positions are all critical"
    );
}

#[test]
fn labels_do_not_depend_on_the_threads_or_on_what_was_done_before() {
    let set = shipped(20, 5);
    let one = relabelled(&set, &config(4, 1), &HashSet::new());
    let three = relabelled(&set, &config(4, 3), &HashSet::new());
    assert_eq!(one, three);
    // Positions already done are left out, and the rest come out as in a whole run.
    let done: HashSet<usize> = [0, 3].into_iter().collect();
    let rest = relabelled(&set, &config(4, 2), &done);
    for (i, p) in rest.iter().enumerate() {
        if done.contains(&i) {
            assert!(p.is_none(), "position {i} was done already");
        } else {
            assert_eq!(p, &one[i]);
        }
    }
}

#[test]
fn exact_labels_agree_with_themselves_and_the_solver_relabels_them_alike() {
    // S=50: 14 empties, labelled exactly when shipped; relabelling solves them again.
    let set = shipped(50, 3);
    let cfg = GenConfig {
        threads: 2,
        ..GenConfig::new(50)
    };
    let new: Vec<LabelledPosition> = relabelled(&set, &cfg, &HashSet::new())
        .into_iter()
        .map(Option::unwrap)
        .collect();
    assert_eq!(new, set);
    let a = agreement(&set, &new).unwrap();
    assert_eq!(
        (a.best_move, a.outcome, a.critical),
        (3, a.moves, (3, 3)),
        "{a:?}"
    );
    assert!(a
        .markdown_row("s50")
        .starts_with("| s50 | 3 | 3 (100.0 %) |"));
}

#[test]
fn labellings_of_different_positions_are_not_compared() {
    let a = shipped(20, 3);
    let b = shipped(50, 3);
    assert!(agreement(&a, &b)
        .unwrap_err()
        .contains("position 1 differs"));
    assert!(agreement(&a, &a[..2])
        .unwrap_err()
        .contains("3 and 2 positions"));
}
