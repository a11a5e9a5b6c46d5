//! The games with core's searches: solved values, obvious moves, and the evaluators at work.

use yomi_classic::{
    breakthrough, connect_four, tictactoe, Breakthrough, ConnectFour, TicTacToe, TicTacToeEval,
};
use yomi_core::agent::Agent;
use yomi_core::search::alphabeta::AlphaBeta;
use yomi_core::search::Budget;
use yomi_core::{Game, Player, Turn};

const UNLIMITED: Budget = Budget {
    iterations: None,
    time: None,
};

#[test]
fn tictactoe_is_a_draw() {
    let game = TicTacToe;
    let mut ab = AlphaBeta::new(TicTacToeEval, 16, 1);
    let r = ab.search(&game, &game.initial_state(), 9, UNLIMITED);
    assert_eq!(r.value, 0.0);
    // After a corner opening, the only drawing reply is the centre.
    let s = game.parse_state("......x.. o").unwrap();
    let r = ab.search(&game, &s, 9, UNLIMITED);
    assert_eq!(r.value, 0.0);
    assert_eq!(game.format_move(&s, r.best.unwrap()), "b2");
    // After a corner opening and a reply on a neighbouring edge, x wins.
    let s = game.parse_state("......xo. x").unwrap();
    assert_eq!(ab.search(&game, &s, 9, UNLIMITED).value, 1.0);
}

#[test]
fn mcts_wins_and_blocks_at_connect_four() {
    let game = ConnectFour;
    let reg = connect_four::registry();
    // x completes a1-d1.
    let s = ConnectFour::state_from_moves("112233").unwrap();
    let mut agent = reg.build(&game, "mcts:iters=3000", 1).unwrap();
    assert_eq!(
        game.format_move(&s, agent.select_move(&game, &s, Player(0)).unwrap()),
        "d"
    );
    // o must block d1.
    let s = ConnectFour::state_from_moves("11223").unwrap();
    let mut agent = reg.build(&game, "mcts:iters=5000", 2).unwrap();
    assert_eq!(
        game.format_move(&s, agent.select_move(&game, &s, Player(1)).unwrap()),
        "d"
    );
    // The evaluator sees the immediate win without search.
    let mut agent = reg.build(&game, "alphabeta:depth=1", 3).unwrap();
    let s = ConnectFour::state_from_moves("112233").unwrap();
    assert_eq!(
        game.format_move(&s, agent.select_move(&game, &s, Player(0)).unwrap()),
        "d"
    );
}

#[test]
fn breakthrough_agents_take_wins() {
    let game = Breakthrough::new_5x5();
    let reg = breakthrough::registry();
    // White's c4 piece steps to the last row.
    let s = game.parse_state("bb.bb/b.w.b/...../...../wwww. w").unwrap();
    for spec in ["alphabeta:depth=1", "mcts:iters=2000"] {
        let mut agent = reg.build(&game, spec, 1).unwrap();
        let mv = agent.select_move(&game, &s, Player(0)).unwrap();
        let mut t = s;
        game.play(&mut t, mv).unwrap();
        assert_eq!(
            game.turn(&t),
            Turn::Terminal,
            "{spec} played {}",
            game.format_move(&s, mv)
        );
        assert_eq!(game.returns(&t).get(Player(0)), 1.0);
    }
}

/// Plays `games` games of `a` against `b`, alternating colours; returns `a`'s score.
fn score<G: Game>(game: &G, a: &mut dyn Agent<G>, b: &mut dyn Agent<G>, games: usize) -> f64 {
    let mut total = 0.0;
    for g in 0..games {
        let a_side = Player((g % 2) as u8);
        let mut s = game.initial_state();
        while let Turn::Player(p) = game.turn(&s) {
            let mover: &mut dyn Agent<G> = if p == a_side { &mut *a } else { &mut *b };
            let mv = mover.select_move(game, &s, p).unwrap();
            game.play(&mut s, mv).unwrap();
        }
        total += (game.returns(&s).get(a_side) + 1.0) / 2.0;
    }
    total
}

#[test]
fn evaluators_beat_random_play() {
    let bt = Breakthrough::new_5x5();
    let reg = breakthrough::registry();
    let mut a = reg.build(&bt, "alphabeta:depth=2", 1).unwrap();
    let mut r = reg.build(&bt, "random", 2).unwrap();
    assert!(score(&bt, &mut a, &mut r, 10) >= 9.0);

    let reg = connect_four::registry();
    let mut a = reg.build(&ConnectFour, "alphabeta:depth=2", 1).unwrap();
    let mut r = reg.build(&ConnectFour, "random", 2).unwrap();
    assert!(score(&ConnectFour, &mut a, &mut r, 10) >= 9.0);

    let reg = tictactoe::registry();
    let mut a = reg.build(&TicTacToe, "alphabeta:depth=2", 1).unwrap();
    let mut r = reg.build(&TicTacToe, "random", 2).unwrap();
    assert!(score(&TicTacToe, &mut a, &mut r, 10) >= 7.0);
}
