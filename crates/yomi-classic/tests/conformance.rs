//! Core's conformance suite on every game and board size, plus the evaluators' contract:
//! strictly inside (-1, 1) before the end, equal to the returns at the end.

use yomi_classic::{breakthrough, connect_four, tictactoe, Breakthrough, ConnectFour, TicTacToe};
use yomi_core::registry::AgentRegistry;
use yomi_core::search::Evaluator;
use yomi_core::testing::{check_game, Conformance};
use yomi_core::{Game, Player, Rng};

fn cfg(games: usize) -> Conformance {
    Conformance {
        games,
        ..Conformance::default()
    }
}

#[test]
fn tictactoe_conforms() {
    check_game(&TicTacToe, &cfg(200));
}

#[test]
fn connect_four_conforms() {
    check_game(&ConnectFour, &cfg(200));
}

#[test]
fn breakthrough_conforms_on_every_size() {
    for (w, h, games) in [
        (5, 5, 60),
        (6, 6, 40),
        (8, 8, 20),
        (4, 7, 40),
        (3, 4, 60),
        (11, 11, 5),
        (11, 4, 20),
        (3, 11, 20),
    ] {
        let game = Breakthrough::new(w, h).unwrap();
        check_game(&game, &cfg(games));
    }
}

#[test]
fn breakthrough_sizes_and_names() {
    assert!(Breakthrough::new(2, 8).is_err());
    assert!(Breakthrough::new(12, 8).is_err());
    assert!(Breakthrough::new(8, 3).is_err());
    assert!(Breakthrough::new(8, 12).is_err());
    let e = Breakthrough::new(12, 12).unwrap_err().to_string();
    assert!(e.contains("12x12") && e.contains("3..=11"), "{e}");
    assert_eq!(Breakthrough::new_8x8().facts().name, "breakthrough-8x8");
    assert_eq!(Breakthrough::new_5x5().facts().name, "breakthrough-5x5");
    assert_eq!(
        Breakthrough::from_name("breakthrough"),
        Some(Breakthrough::new_8x8())
    );
    assert_eq!(
        Breakthrough::from_name("breakthrough-6x6"),
        Some(Breakthrough::new_6x6())
    );
    assert_eq!(
        Breakthrough::from_name("breakthrough-4x7"),
        Breakthrough::new(4, 7).ok()
    );
    assert_eq!(Breakthrough::from_name("breakthrough-99x7"), None);
    assert_eq!(Breakthrough::from_name("chess"), None);
    assert_eq!(TicTacToe.facts().name, "tictactoe");
    assert_eq!(ConnectFour.facts().name, "connect4");
    // Each size's facts are built once, in a table indexed by size: every size gets its own.
    for width in breakthrough::MIN_WIDTH..=breakthrough::MAX_WIDTH {
        for height in breakthrough::MIN_HEIGHT..=breakthrough::MAX_HEIGHT {
            let game = Breakthrough::new(width, height).unwrap();
            assert_eq!(game.facts().name, format!("breakthrough-{width}x{height}"));
            assert!(std::ptr::eq(game.facts(), game.facts()));
        }
    }
}

#[test]
fn breakthrough_max_turns_bound() {
    // 2 * (pieces' advances) + 1: 8x8 has 16 pieces a side on rows 0 and 1.
    assert_eq!(
        Breakthrough::new_8x8().facts().max_turns,
        Some(2 * 8 * (6 + 5) + 1)
    );
    assert_eq!(
        Breakthrough::new(5, 4).unwrap().facts().max_turns,
        Some(2 * 5 * 2 + 1)
    );
}

/// Plays random games and checks the `default` evaluator along them.
fn check_evaluator<G: Game>(game: &G, registry: &AgentRegistry<G>, games: usize) {
    let eval = registry.evaluator("test", "default").unwrap();
    let mut rng = Rng::seed_from_u64(99);
    let mut buf = Vec::new();
    let mut distinct = std::collections::HashSet::new();
    for _ in 0..games {
        let mut s = game.initial_state();
        loop {
            let r = eval.evaluate(game, &s);
            assert!(r.sum().abs() < 1e-12, "zero-sum evaluation");
            if game.is_terminal(&s) {
                assert_eq!(
                    r,
                    game.returns(&s),
                    "terminal evaluation must equal the returns"
                );
                break;
            }
            let v = r.get(Player(0));
            assert!(
                v > -1.0 && v < 1.0,
                "evaluation {v} at a non-terminal state:\n{}",
                game.render(&s)
            );
            distinct.insert((v * 1e6) as i64);
            let mv = game.random_move(&s, &mut rng, &mut buf).unwrap();
            game.apply(&mut s, mv);
        }
    }
    assert!(
        distinct.len() > 5,
        "the evaluation hardly varies: {distinct:?}"
    );
}

#[test]
fn evaluators_stay_inside_the_reward_bounds() {
    check_evaluator(&TicTacToe, &tictactoe::registry(), 300);
    check_evaluator(&ConnectFour, &connect_four::registry(), 300);
    for game in [
        Breakthrough::new_5x5(),
        Breakthrough::new_8x8(),
        Breakthrough::new(3, 4).unwrap(),
    ] {
        check_evaluator(&game, &breakthrough::registry(), 100);
    }
}

#[test]
fn registries_replace_the_neutral_default() {
    let names = |v: Vec<String>| v.join(",");
    let t = tictactoe::registry();
    let c = connect_four::registry();
    let b = breakthrough::registry();
    assert!(t
        .evaluators()
        .iter()
        .any(|e| e.name == "default" && e.summary.contains("lines")));
    assert!(c
        .evaluators()
        .iter()
        .any(|e| e.name == "default" && e.summary.contains("windows")));
    assert!(b
        .evaluators()
        .iter()
        .any(|e| e.name == "default" && e.summary.contains("material")));
    let c_names = names(c.entries().iter().map(|e| e.name.clone()).collect());
    assert!(
        c_names.contains("mcts") && c_names.contains("alphabeta"),
        "{c_names}"
    );
    // Every agent kind builds with the game's evaluator.
    for spec in [
        "random",
        "mcts:iters=50",
        "mcts:iters=50,cutoff=4",
        "mcts:select=ucb-eval,iters=50",
        "alphabeta:depth=2",
        "flatmc:n=2",
    ] {
        t.build(&TicTacToe, spec, 1).unwrap();
        c.build(&ConnectFour, spec, 1).unwrap();
        b.build(&Breakthrough::new_6x6(), spec, 1).unwrap();
    }
}

#[test]
fn tensor_encodings_conform() {
    yomi_core::encoding::check_tensor_game(&TicTacToe, 50, 1);
    yomi_core::encoding::check_tensor_game(&ConnectFour, 50, 2);
}

#[test]
fn connect_four_encoding_is_from_the_movers_point_of_view() {
    use yomi_core::TensorGame;
    let game = ConnectFour;
    let s = ConnectFour::state_from_moves("4").unwrap();
    let mut out = vec![0.0; game.tensor_shape().len()];
    game.encode(&s, Player(1), &mut out);
    let shape = game.tensor_shape();
    // x's disc at d1 is the opponent's for o.
    assert_eq!(out[shape.offset(1, 0, 3)], 1.0);
    assert_eq!(out.iter().sum::<f32>(), 1.0);
    game.encode(&s, Player(0), &mut out);
    assert_eq!(out[shape.offset(0, 0, 3)], 1.0);
}

#[test]
fn breakthrough_actions_and_tensors_conform() {
    for (i, (w, h)) in [(3, 4), (5, 5), (6, 6), (8, 8), (11, 11), (4, 9)]
        .into_iter()
        .enumerate()
    {
        let game = Breakthrough::new(w, h).unwrap();
        yomi_core::encoding::check_tensor_game(&game, 10, i as u64);
    }
}

#[test]
fn breakthrough_actions_and_planes_are_in_the_movers_frame() {
    use yomi_core::{ActionSpace, TensorGame};
    let game = Breakthrough::new_5x5();
    assert_eq!(game.num_actions(), 75);
    let mut s = game.initial_state();
    // White's b2-c3: frame row 3, column 1, direction 2.
    let mv = game.parse_move(&s, "b2-c3").unwrap();
    assert_eq!(game.action_index(&s, mv), 50);
    assert_eq!(game.action_move(&s, Player(0), 50), Some(mv));
    assert_eq!(game.action_move(&s, Player(1), 50), None);
    // a2 cannot step towards column a; a1 cannot move.
    assert_eq!(game.action_move(&s, Player(0), (3 * 5) * 3), None);
    assert_eq!(game.action_move(&s, Player(0), (4 * 5) * 3 + 1), None);
    game.play(&mut s, mv).unwrap();
    // Black's b4-c3 (a capture) is the same action from its side.
    let mv = game.parse_move(&s, "b4xc3").unwrap();
    assert_eq!(game.action_index(&s, mv), 50);
    assert_eq!(game.action_move(&s, Player(1), 50), Some(mv));

    let shape = game.tensor_shape();
    assert_eq!((shape.channels, shape.height, shape.width), (2, 5, 5));
    let mut out = vec![f32::NAN; shape.len()];
    // Black to move sees its pieces on the bottom two rows and white's c3 in the middle.
    game.encode(&s, Player(1), &mut out);
    assert!((3..5).all(|t| (0..5).all(|c| out[shape.offset(0, t, c)] == 1.0)));
    assert_eq!(out[..25].iter().sum::<f32>(), 10.0);
    assert_eq!(out[shape.offset(1, 2, 2)], 1.0);
    // b2 is empty, b1 is not.
    assert_eq!(out[shape.offset(1, 1, 1)], 0.0);
    assert_eq!(out[shape.offset(1, 0, 1)], 1.0);
    // White sees the same from its side: its pieces at the bottom, c3 among them.
    game.encode(&s, Player(0), &mut out);
    assert_eq!(out[shape.offset(0, 2, 2)], 1.0);
    assert_eq!(out[shape.offset(0, 3, 1)], 0.0);
    assert!((0..2).all(|t| (0..5).all(|c| out[shape.offset(1, t, c)] == 1.0)));
}
