//! Games the grounded reasoner cannot compile still play (the lazy fallback evaluator,
//! checked against the reference prover), sheets whose negation is stratified only between
//! ground atoms are accepted, and `check::check_random_games` reports rule-sheet bugs that
//! change results.

mod common;

use std::collections::BTreeSet;

use yomi_core::{Game, Rng, Turn};
use yomi_ggp::check::{check_random_games, Problem};
use yomi_ggp::{Description, GdlGame};

/// Compares `game` with the prover along `games` random games (at most `budget` seconds):
/// same states, legal moves, terminal test and goals at every step.
fn agrees_with_prover(name: &str, game: &GdlGame, desc: &Description, games: usize, budget: f64) {
    let r = game.reasoner();
    common::agree_with_prover(name, r, desc, games, 200, 3, budget);
    assert!(r.fallback_failure().is_none(), "{name}");
}

/// A view over every 6-tuple of 30 numbers (729M instances) that the legal moves only ask
/// about under negation: far over the grounding limits, a handful of instances per state.
const OVER_THE_CAP: &str = "
    (role p) (init (at 0)) (init (step 0))
    (num 0) (num 1) (num 2) (num 3) (num 4) (num 5) (num 6) (num 7) (num 8) (num 9)
    (num 10) (num 11) (num 12) (num 13) (num 14) (num 15) (num 16) (num 17) (num 18)
    (num 19) (num 20) (num 21) (num 22) (num 23) (num 24) (num 25) (num 26) (num 27)
    (num 28) (num 29)
    (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
    (<= (blocked ?a ?b ?c ?d ?e ?f) (true (at ?a)) (num ?b) (num ?c) (num ?d) (num ?e)
        (num ?f) (distinct ?b ?c) (distinct ?d ?e) (distinct ?a 3))
    (<= (legal p (go ?x)) (true (at ?y)) (num ?x) (distinct ?x ?y)
        (not (blocked ?y ?x 1 ?x 2 ?x)))
    (<= (legal p stay) (true (at ?y)))
    (<= (next (at ?x)) (does p (go ?x)))
    (<= (next (at ?y)) (does p stay) (true (at ?y)))
    (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
    (<= terminal (true (step 5)))
    (<= (goal p 100) (true (at 7)))
    (<= (goal p 0) (not (true (at 7))))";

#[test]
fn a_game_over_the_grounding_cap_plays_on_the_fallback() {
    let desc = Description::from_kif(OVER_THE_CAP).unwrap();
    let game = GdlGame::new("over", &desc).unwrap();
    let why = game.reasoner().stats.fallback.clone();
    assert!(
        why.is_some(),
        "expected the fallback: {:?}",
        game.reasoner().stats
    );
    assert_eq!(game.reasoner().stats.engine(), "fallback");
    // `(blocked y x 1 x 2 x)` holds when y != 3, x != 1 and x != 2: from (at y), (go x)
    // is legal for x != y when x is 1 or 2, or y is 3.
    let s = game.initial_state();
    let mut moves = Vec::new();
    game.legal_moves(&s, &mut moves);
    let texts: BTreeSet<String> = moves.iter().map(|&m| game.format_move(&s, m)).collect();
    assert_eq!(
        texts,
        ["(go 1)", "(go 2)", "stay"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
    // The reference prover cannot evaluate this sheet (it computes `blocked` in full), so
    // the legal moves are checked against the rule above along random games.
    let r = game.reasoner();
    let mut rng = Rng::seed_from_u64(5);
    let mut ended = 0;
    for _ in 0..10 {
        let mut s = game.initial_state();
        let mut plies = 0;
        while game.turn(&s) != Turn::Terminal {
            let text = game.format_state(&s);
            let at: u32 = (0..30)
                .find(|y| text.contains(&format!("(at {y})")))
                .expect("one (at y) holds");
            let mut expected: BTreeSet<String> = (0..30u32)
                .filter(|&x| x != at && (x == 1 || x == 2 || at == 3))
                .map(|x| format!("(go {x})"))
                .collect();
            expected.insert("stay".into());
            game.legal_moves(&s, &mut moves);
            let got: BTreeSet<String> = moves.iter().map(|&m| game.format_move(&s, m)).collect();
            assert_eq!(got, expected, "at {at}");
            assert!(r.derived_values_consistent(&s));
            let m = game.random_move(&s, &mut rng, &mut moves).unwrap();
            game.apply(&mut s, m);
            plies += 1;
        }
        assert_eq!(plies, 5);
        let at7 = game.format_state(&s).contains("(at 7)");
        assert_eq!(r.goal_values(&s), vec![vec![if at7 { 100 } else { 0 }]]);
        ended += 1;
    }
    assert_eq!(ended, 10);
    assert!(r.fallback_failure().is_none());
}

#[test]
fn the_fallback_agrees_with_the_prover_on_shipped_and_external_sheets() {
    for (name, text) in yomi_ggp::games::ALL {
        if name.starts_with("crisscross") || name.starts_with("dobutsu") {
            continue; // seconds per state in the prover
        }
        let desc = Description::from_kif(text).unwrap();
        let game = GdlGame::new_fallback(name, &desc).unwrap();
        agrees_with_prover(name, &game, &desc, 2, 3.0);
    }
    let Some(dir) = common::gdl_dir() else { return };
    for file in [
        "ticTacToe.kif",
        "connectFour.kif",
        "buttons.kif",
        "nim1.kif",
        "hanoi.kif",
    ] {
        let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
            eprintln!("notice: {file} missing; skipped");
            continue;
        };
        let desc = Description::from_kif(&text).unwrap();
        let game = GdlGame::new_fallback(file, &desc).unwrap();
        agrees_with_prover(file, &game, &desc, 2, 3.0);
    }
}

/// `goal` depends negatively on itself (stratified between its ground atoms only), as in
/// the public `majorities` sheet.
const GROUND_STRATIFIED: &str = "
    (role a) (role b) (init (count 0)) (init (control a))
    (succ 0 1) (succ 1 2) (succ 2 3)
    (<= (legal ?r inc) (true (control ?r)))
    (<= (legal ?r pass) (true (control ?r)))
    (<= (legal ?r noop) (role ?r) (not (true (control ?r))))
    (<= (next (count ?n)) (does ?r inc) (true (count ?m)) (succ ?m ?n))
    (<= (next (count ?m)) (does ?r pass) (true (count ?m)))
    (<= (next (control b)) (true (control a)))
    (<= (next (control a)) (true (control b)))
    (<= (goal a 100) (true (count 3)) (true (control b)))
    (<= (goal b 100) (true (count 3)) (true (control a)))
    (<= (goal ?r 0) (role ?r) (not (goal ?r 100)))
    (<= terminal (true (count 3)))";

#[test]
fn negation_stratified_between_ground_atoms_is_accepted() {
    let desc = Description::from_kif(GROUND_STRATIFIED).unwrap();
    assert!(desc
        .warnings
        .iter()
        .any(|w| w.contains("depends negatively")));
    let game = GdlGame::new("strata", &desc).unwrap();
    assert!(game.reasoner().stats.fallback.is_none());
    agrees_with_prover("strata", &game, &desc, 10, 10.0);
    let report = check_random_games(&game, 50, 100, 1);
    assert_eq!(report.ended, 50);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
}

#[test]
fn majorities_is_accepted() {
    let Some(dir) = common::gdl_dir() else { return };
    let Ok(text) = std::fs::read_to_string(dir.join("repository/majorities.kif")) else {
        eprintln!("notice: repository/majorities.kif missing; skipped");
        return;
    };
    let game = GdlGame::from_kif("majorities", &text).unwrap();
    let mut s = game.initial_state();
    let mut rng = Rng::seed_from_u64(1);
    let mut buf = Vec::new();
    while game.turn(&s) != Turn::Terminal {
        let m = game.random_move(&s, &mut rng, &mut buf).unwrap();
        game.apply(&mut s, m);
    }
    let goals = game.reasoner().goal_values(&s);
    assert!(goals.iter().all(|g| g.len() == 1), "{goals:?}");
}

/// The second goal rule of `o` tests `(line x)` where it means `(line o)`: when x has a
/// line, `o` gets both 100 and 0.
const DOUBLE_GOAL: &str = "
    (role x) (role o) (init (control x))
    (<= (legal ?r (mark ?c)) (true (control ?r)) (colour ?c))
    (<= (legal ?r noop) (role ?r) (not (true (control ?r))))
    (colour red) (colour blue)
    (<= (next (line ?c)) (does ?r (mark ?c)))
    (<= (next (control o)) (true (control x)))
    (<= (next (control x)) (true (control o)))
    (<= terminal (true (line ?c)))
    (<= (goal x 100) (true (line red)))
    (<= (goal x 0) (true (line blue)))
    (<= (goal o 100) (true (line blue)))
    (<= (goal o 0) (true (line red)) (true (line red)))
    (<= (goal o 100) (true (line red)))";

#[test]
fn check_reports_a_role_with_two_goal_values() {
    let game = GdlGame::from_kif("double", DOUBLE_GOAL).unwrap();
    let report = check_random_games(&game, 20, 10, 7);
    assert_eq!(report.ended, 20);
    let f = report
        .findings
        .iter()
        .find(|f| f.role == "o")
        .expect("the double goal of o is reported");
    assert_eq!(f.problem, Problem::SeveralGoals(vec![0, 100]));
    assert!(f.state.contains("(line red)"), "{}", f.state);
    // The goal rules of o for 0 and 100 (the one for 100 on a blue line too).
    assert_eq!(f.rules.len(), 3, "{:?}", f.rules);
    assert!(
        f.rules.iter().all(|r| r.contains("(goal o")),
        "{:?}",
        f.rules
    );
    assert!(
        report.findings.iter().all(|f| f.role == "o"),
        "{:?}",
        report.findings
    );
    let text = f.to_string();
    assert!(text.contains("several goal values"), "{text}");
}

#[test]
fn check_reports_no_goal_and_no_legal_move() {
    // x has no goal when the game ends by y's line; y has no move in state (stuck).
    let game = GdlGame::from_kif(
        "holes",
        "(role x) (role y) (init (control x))
         (<= (legal x (go ?s)) (true (control x)) (spot ?s))
         (<= (legal y noop) (true (control x)))
         (<= (legal x noop) (true (control y)))
         (spot a) (spot b)
         (<= (next (at ?s)) (does x (go ?s)))
         (<= (next (control y)) (true (control x)))
         (<= terminal (true (at a)))
         (<= (goal y 50) (true (at a)))",
    )
    .unwrap();
    let report = check_random_games(&game, 30, 10, 3);
    let kinds: BTreeSet<(String, Problem)> = report
        .findings
        .iter()
        .map(|f| (f.role.clone(), f.problem.clone()))
        .collect();
    assert!(
        kinds.contains(&("x".to_string(), Problem::NoGoal)),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&("y".to_string(), Problem::NoLegalMove)),
        "{kinds:?}"
    );
}

#[test]
fn shared_pentago_double_goal_is_reported() {
    let Some(dir) = common::gdl_dir() else { return };
    let Ok(text) = std::fs::read_to_string(dir.join("pentago.kif")) else {
        eprintln!("notice: pentago.kif not among the shared sheets; skipped");
        return;
    };
    let game = GdlGame::from_kif("pentago", &text).unwrap();
    let report = check_random_games(&game, 200, 1000, 1);
    assert!(
        report
            .findings
            .iter()
            .any(|f| matches!(f.problem, Problem::SeveralGoals(_))),
        "{:?}",
        report.findings
    );
}
