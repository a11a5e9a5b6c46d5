//! The exact solver against a naive minimax written here (positions with up to 10
//! empties) and against the FFO suite's listed scores (the quick positions).

use yomi_core::{Game, Rng};
use yomi_othello::solver::Solver;
use yomi_othello::{parse_obf, Move, Othello, OthelloState};

/// Plain negamax over the game API: no pruning, no table, passes as moves.
fn naive(s: &OthelloState) -> i32 {
    if Othello.is_terminal(s) {
        return s.final_score();
    }
    let mut moves = Vec::new();
    Othello.legal_moves(s, &mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut t = *s;
            Othello.apply(&mut t, m);
            -naive(&t)
        })
        .max()
        .expect("a non-terminal position has a move")
}

/// Random positions with `empties` empty squares, reached by random play.
fn random_positions(count: usize, empties: u32, seed: u64) -> Vec<OthelloState> {
    let mut rng = Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut out = Vec::new();
    while out.len() < count {
        let mut s = Othello.initial_state();
        while s.empty_count() > empties && !Othello.is_terminal(&s) {
            let mv = Othello.random_move(&s, &mut rng, &mut buf).unwrap();
            Othello.apply(&mut s, mv);
        }
        if s.empty_count() == empties && !Othello.is_terminal(&s) {
            out.push(s);
        }
    }
    out
}

#[test]
fn solver_agrees_with_naive_minimax() {
    let mut solver = Solver::new(16);
    let mut checked = 0;
    for empties in 1..=10 {
        let count = if empties >= 9 { 4 } else { 12 };
        for s in random_positions(count, empties, 100 + empties as u64) {
            let want = naive(&s);
            let got = solver.solve(&s);
            assert_eq!(got.score, want, "{s}");
            // The best move reaches the score.
            let mv = got.best.unwrap();
            let mut t = s;
            Othello.play(&mut t, mv).unwrap();
            assert_eq!(-naive(&t), want, "best move {mv} of {s}");
            // Win/loss/draw search gets the sign right.
            assert_eq!(solver.solve_wld(&s).score.signum(), want.signum(), "{s}");
            // Every move's exact score.
            if empties <= 8 {
                for (m, v) in solver.move_scores(&s) {
                    let mut t = s;
                    Othello.apply(&mut t, m);
                    assert_eq!(v, -naive(&t), "move {m} of {s}");
                }
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 8 * 12 + 2 * 4);
}

#[test]
fn finished_and_pass_positions() {
    let mut solver = Solver::new(10);
    let over: OthelloState = format!("{}{} X", "X".repeat(30), "O".repeat(34))
        .parse()
        .unwrap();
    let r = solver.solve(&over);
    assert_eq!((r.score, r.best), (-4, None));
    assert!(solver.move_scores(&over).is_empty());
    // Black must pass; white then takes a1 and the last square.
    let pass: OthelloState = format!("-XO{} X", "X".repeat(61)).parse().unwrap();
    let r = solver.solve(&pass);
    assert_eq!(r.best, Some(Move::PASS));
    assert_eq!(r.score, naive(&pass));
    assert_eq!(solver.move_scores(&pass), vec![(Move::PASS, naive(&pass))]);
}

#[test]
fn ffo_quick_positions() {
    let Some(dir) = yomi_othello::data::othello_data_dir() else {
        eprintln!("skipping FFO positions: shared/data/othello not found (set YOMI_SHARED_DATA)");
        return;
    };
    let mut solver = Solver::new(20);
    let mut solved = 0;
    for name in ["fforum-1-19.obf", "fforum-20-39.obf"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let positions = parse_obf(&text).unwrap();
        // #1-#19 (14-16 empties) and #20-#23 (6-18 empties): well under a second in all.
        let take = if name.starts_with("fforum-1-") { 19 } else { 4 };
        for (i, p) in positions.iter().take(take).enumerate() {
            let r = solver.solve(&p.state);
            assert_eq!(Some(r.score), p.best_score(), "{name} line {}", i + 1);
            let listed = p.scores.iter().find(|(m, _)| Some(*m) == r.best);
            if let Some(&(_, v)) = listed {
                assert_eq!(
                    v,
                    r.score,
                    "{name} line {}: best move's listed score",
                    i + 1
                );
            }
            solved += 1;
        }
    }
    // The whole move ranking of the 14-empties positions.
    let text = std::fs::read_to_string(dir.join("fforum-1-19.obf")).unwrap();
    for p in parse_obf(&text).unwrap().iter().take(7) {
        let scores = solver.move_scores(&p.state);
        for &(m, v) in &p.scores {
            let got = scores.iter().find(|(x, _)| *x == m).map(|x| x.1);
            assert_eq!(got, Some(v), "{} move {m}", p.state);
        }
    }
    assert_eq!(solved, 23);
}
