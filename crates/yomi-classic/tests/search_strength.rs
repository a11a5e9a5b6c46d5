//! The core searches on the classic games: UCT against exact play, and MCTS values
//! converging to solved values.

use yomi_classic::{connect_four, tictactoe, ConnectFour, TicTacToe};
use yomi_core::arena::RoundRobin;
use yomi_core::search::alphabeta::AlphaBeta;
use yomi_core::search::mcts::{Mcts, MctsParams};
use yomi_core::search::{Budget, NeutralEvaluator};
use yomi_core::{Game, Rng, Turn};

#[test]
fn uct_with_5000_iterations_never_loses_tictactoe_to_exact_minimax() {
    let game = TicTacToe;
    let result = RoundRobin::head_to_head("mcts:iters=5000", "alphabeta:depth=9")
        .games(20)
        .seed(2026)
        .quiet(true)
        .run(&game, &tictactoe::registry())
        .unwrap();
    assert_eq!(result.records.len(), 20);
    let uct = &result.standings.rows[0];
    assert!(uct.agent.starts_with("mcts"), "{:?}", uct.agent);
    // Both colours: games alternate, 10 each.
    let first_seats = result
        .records
        .iter()
        .filter(|r| r.seats[0].starts_with("mcts"))
        .count();
    assert_eq!(first_seats, 10);
    assert_eq!(
        uct.wdl.losses,
        0,
        "UCT lost to exact play:\n{}",
        result.report(Default::default())
    );
}

/// Exact value (for the player to move, in -1/0/1) of every move, by full-depth alpha-beta.
fn solve_moves(
    game: &ConnectFour,
    state: &<ConnectFour as Game>::State,
) -> Vec<(yomi_classic::Column, f64)> {
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let mover = match game.turn(state) {
        Turn::Player(p) => p,
        _ => unreachable!(),
    };
    moves
        .into_iter()
        .map(|m| {
            let mut s = *state;
            game.apply(&mut s, m);
            let v = match game.turn(&s) {
                Turn::Terminal => game.returns(&s).get(mover),
                Turn::Player(p) => {
                    let mut ab = AlphaBeta::new(NeutralEvaluator::new(), 18, 1);
                    let r = ab.search(
                        game,
                        &s,
                        42,
                        Budget {
                            iterations: None,
                            time: None,
                        },
                    );
                    if p == mover {
                        r.value
                    } else {
                        -r.value
                    }
                }
                Turn::Simultaneous => unreachable!(),
            };
            (m, v)
        })
        .collect()
}

#[test]
fn mcts_values_converge_to_solved_connect_four_values() {
    let game = ConnectFour;
    let mut rng = Rng::seed_from_u64(77);
    let mut positions = Vec::new();
    // Random positions with 14 empty cells whose moves differ in exact value.
    while positions.len() < 6 {
        let mut s = game.initial_state();
        let mut buf = Vec::new();
        for _ in 0..28 {
            if game.is_terminal(&s) {
                break;
            }
            let m = game.random_move(&s, &mut rng, &mut buf).unwrap();
            game.apply(&mut s, m);
        }
        if game.is_terminal(&s) {
            continue;
        }
        let solved = solve_moves(&game, &s);
        let best = solved.iter().map(|x| x.1).fold(f64::MIN, f64::max);
        let worst = solved.iter().map(|x| x.1).fold(f64::MAX, f64::min);
        if best > worst {
            positions.push((s, solved, best));
        }
    }
    let mut errors = Vec::new();
    for iters in [1_000u64, 100_000] {
        let mut total_error = 0.0;
        let mut best_found = 0;
        for (i, (s, solved, best)) in positions.iter().enumerate() {
            let params = MctsParams {
                budget: Budget::iterations(iters),
                ..MctsParams::default()
            };
            let mut m = Mcts::uct(params, i as u64);
            let r = m.search(&game, s);
            // Exact value mapped to [0, 1] like the search's rewards.
            let exact = (best + 1.0) / 2.0;
            total_error += (r.root_value().unwrap() - exact).abs();
            let chosen = m.choose(&r).unwrap();
            if solved.iter().any(|&(mv, v)| mv == chosen && v == *best) {
                best_found += 1;
            }
        }
        errors.push((iters, total_error / positions.len() as f64, best_found));
    }
    eprintln!("(iterations, mean |root value - exact|, exact-best moves chosen of 6): {errors:?}");
    let (small, large) = (errors[0], errors[1]);
    assert!(
        large.1 < small.1,
        "root-value error did not shrink: {errors:?}"
    );
    assert!(
        large.1 < 0.25,
        "root values far from exact after 100k iterations: {errors:?}"
    );
    assert!(
        large.2 >= 5,
        "MCTS missed the exact best move too often: {errors:?}"
    );
}

#[test]
fn registries_build_every_core_agent_on_every_classic_game() {
    let c4 = connect_four::registry();
    for spec in [
        "random",
        "mcts:iters=100,cutoff=4",
        "mcts:playout=greedy,iters=50",
        "flatmc:n=5",
        "alphabeta:depth=2",
    ] {
        c4.build(&ConnectFour, spec, 1)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
    }
}
