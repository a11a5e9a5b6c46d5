//! The shipped yose suite checked against its regions' combinatorial values
//! (`yomi_go::yose_cgt`): the agreement counts are pinned, so that a change in the suite,
//! the region game or yomi-cgt that moves them shows here.

use std::path::Path;

use yomi_cgt::Dyadic;
use yomi_go::yose::load_suite;
use yomi_go::yose_cgt::{check_suite, CgtLimits, RegionCgtError, SuiteSummary};

#[test]
fn the_shipped_suite_against_its_cgt_values() {
    let suite = load_suite(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data/yose")).unwrap();
    let (rows, summary) = check_suite(&suite, CgtLimits::default());
    assert_eq!(
        summary,
        SuiteSummary {
            problems: 34,
            valued: 25,
            agree: 0,
            best_agree: 0,
            moves_agree: 25,
            agree_heated: 20,
            best_agree_heated: 25,
            candidates: 163,
            values_agree: 99,
            values_agree_heated: 158,
        }
    );
    for (p, row) in suite.iter().zip(&rows) {
        match row {
            Ok((check, _)) => {
                // Area minus territory: the mover's best is one point above the stop.
                let best = p.values.iter().map(|v| v.1).max().unwrap();
                assert_eq!(
                    Dyadic::integer(best.into()) - check.stop,
                    Dyadic::ONE,
                    "{}",
                    p.name
                );
                // Every candidate the heated stops miss is the pass, whose value is the
                // count of the game ended at once by the opponent's pass.
                for c in &check.candidates {
                    if Dyadic::integer(c.suite.into()) != c.heated_stop {
                        assert!(c.mv.is_pass(), "{}: {c:?}", p.name);
                        assert_eq!(c.suite, check.ended_at_once, "{}", p.name);
                    }
                }
            }
            Err(RegionCgtError::LineTooLong { line, .. }) => {
                assert!(
                    line.contains("bring the region's stones back"),
                    "{}: {line}",
                    p.name
                );
            }
            Err(e) => panic!("{}: {e}", p.name),
        }
    }
}
