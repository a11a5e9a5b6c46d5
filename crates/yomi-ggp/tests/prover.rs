//! The reference prover on ggp-base's reasoner test cases, whose expected answers their
//! comments state, and random games on every external rule sheet.

mod common;

use yomi_core::Rng;
use yomi_ggp::{Description, Prover};

fn prover(name: &str) -> Option<Prover> {
    let dir = common::gdl_dir()?;
    let text = std::fs::read_to_string(dir.join(name)).ok()?;
    Some(Prover::new(&Description::from_kif(&text).unwrap()))
}

#[test]
fn ggp_base_test_cases_give_their_stated_answers() {
    let Some(p) = prover("tests/test_case_5e.kif") else {
        return;
    };
    let s = p.initial_state().unwrap();
    assert_eq!(p.legal_moves(&s, &p.roles()[0].clone()).unwrap().len(), 7);
    let Some(p) = prover("tests/test_distinct_beginning_rule.kif") else {
        return;
    };
    let s = p.initial_state().unwrap();
    assert_eq!(p.legal_moves(&s, &p.roles()[0].clone()).unwrap().len(), 2);
    let Some(p) = prover("tests/test_clean_not_distinct.kif") else {
        return;
    };
    let s = p.initial_state().unwrap();
    assert_eq!(p.goals(&s).unwrap(), vec![vec![100]]);
    let Some(p) = prover("tests/test_case_3f.kif") else {
        return;
    };
    let s = p.initial_state().unwrap();
    assert!(p.is_terminal(&s).unwrap());
    assert_eq!(p.goals(&s).unwrap(), vec![vec![100], vec![0], vec![100]]);
    let Some(p) = prover("tests/test_case_5d.kif") else {
        return;
    };
    let s = p.initial_state().unwrap();
    // r and s are both {(1 2), (2 1)} through the mutual recursion.
    assert_eq!(s.len(), 4);
    assert_eq!(p.legal_moves(&s, &p.roles()[0].clone()).unwrap().len(), 1);
    let Some(p) = prover("tests/test_case_3d.kif") else {
        return;
    };
    let s = p.initial_state().unwrap();
    let m = p.legal_moves(&s, &p.roles()[0].clone()).unwrap();
    let s = p.next_state(&s, &m).unwrap();
    assert!(p.is_terminal(&s).unwrap());
    assert_eq!(p.goals(&s).unwrap(), vec![vec![100]]);
}

#[test]
fn tictactoe_random_games_end_with_one_goal_per_role() {
    let Some(p) = prover("ticTacToe.kif") else {
        return;
    };
    let mut rng = Rng::seed_from_u64(1);
    for _ in 0..5 {
        let mut s = p.initial_state().unwrap();
        let mut plies = 0;
        while !p.is_terminal(&s).unwrap() {
            let joint: Vec<_> = p
                .roles()
                .iter()
                .map(|r| {
                    let m = p.legal_moves(&s, r).unwrap();
                    m[rng.below(m.len())].clone()
                })
                .collect();
            s = p.next_state(&s, &joint).unwrap();
            plies += 1;
        }
        assert!((5..=9).contains(&plies));
        let g = p.goals(&s).unwrap();
        assert!(g.iter().all(|v| v.len() == 1), "{g:?}");
        assert!(g[0][0] + g[1][0] == 100, "{g:?}");
    }
}
