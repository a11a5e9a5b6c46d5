//! SGF reading, writing and typed errors.

use yomi_core::{Game, Rng};
use yomi_go::sgf::SgfGame;
use yomi_go::{Color, GoGame, SgfError, Vertex};

#[test]
fn reads_setup_moves_variations_and_escapes() {
    let text = "(;FF[4]GM[1]SZ[9]KM[6.5]RE[W+R\\]]AB[aa][bb:cc]AW[ee]PL[W]\
                ;W[dd](;B[ff];W[gg])(;B[hh]))";
    let rec = SgfGame::parse(text).unwrap();
    assert_eq!(rec.size, 9);
    assert_eq!(rec.komi, 6.5);
    assert_eq!(rec.result.as_deref(), Some("W+R]"));
    assert_eq!(rec.black_setup.len(), 1 + 4);
    assert_eq!(rec.white_setup, vec![Vertex::parse_gtp("E5", 9).unwrap()]);
    assert_eq!(rec.to_play, Some(Color::White));
    let moves: Vec<String> = rec.moves.iter().map(|m| m.1.to_gtp(9)).collect();
    assert_eq!(moves, ["D6", "F4", "G3"], "main line only");
    let (game, state) = rec.replay().unwrap();
    assert_eq!(state.move_number(), 3);
    assert_eq!(state.board().stones(Color::Black), 5 + 1);
    assert_eq!(game.rules().komi, 6.5);
    // Writing and reading back gives the same record.
    assert_eq!(SgfGame::parse(&rec.to_sgf()).unwrap(), rec);
}

#[test]
fn random_games_round_trip() {
    let game = GoGame::new(9).unwrap();
    let mut rng = Rng::seed_from_u64(2);
    let mut buf = Vec::new();
    for _ in 0..5 {
        let mut s = game.initial_state();
        let mut moves = Vec::new();
        while let Some(m) = game.random_move(&s, &mut rng, &mut buf) {
            moves.push((s.to_move(), m));
            game.play(&mut s, m).unwrap();
        }
        let rec = SgfGame::from_moves(9, 7.5, &moves);
        let back = SgfGame::parse(&rec.to_sgf()).unwrap();
        assert_eq!(back, rec);
        let (_, end) = back.replay().unwrap();
        assert_eq!(end, s);
    }
}

#[test]
fn malformed_files_give_typed_errors() {
    type Check = fn(&SgfError) -> bool;
    let cases: &[(&str, Check)] = &[
        ("", |e| matches!(e, SgfError::Syntax { .. })),
        ("(;SZ[9]", |e| matches!(e, SgfError::Syntax { .. })),
        ("(;SZ[9", |e| matches!(e, SgfError::Syntax { .. })),
        (";SZ[9])", |e| matches!(e, SgfError::Syntax { .. })),
        ("(;SZ[9]B)", |e| matches!(e, SgfError::Syntax { .. })),
        ("(;SZ[9]!)", |e| matches!(e, SgfError::Syntax { .. })),
        ("(;GM[3]SZ[9])", |e| matches!(e, SgfError::NotGo(_))),
        ("(;SZ[25])", |e| matches!(e, SgfError::Size(_))),
        ("(;SZ[9:13])", |e| matches!(e, SgfError::Size(_))),
        ("(;SZ[x])", |e| matches!(e, SgfError::Size(_))),
        ("(;SZ[9]KM[abc])", |e| matches!(e, SgfError::Komi(_))),
        ("(;SZ[9]KM[6.3])", |e| matches!(e, SgfError::Komi(_))),
        ("(;SZ[9];B[zz])", |e| matches!(e, SgfError::Point { .. })),
        ("(;SZ[9];B[a])", |e| matches!(e, SgfError::Point { .. })),
        ("(;SZ[9]PL[X])", |e| matches!(e, SgfError::Point { .. })),
    ];
    for (text, ok) in cases {
        let e = SgfGame::parse(text).unwrap_err();
        assert!(ok(&e), "{text:?}: {e:?}");
        assert!(!e.to_string().is_empty());
    }
    // A move onto an occupied point.
    let rec = SgfGame::parse("(;SZ[9];B[ee];W[ee])").unwrap();
    let e = rec.replay().unwrap_err();
    assert!(matches!(e, SgfError::IllegalMove { number: 2, .. }), "{e}");
    // Setup without liberties.
    let rec = SgfGame::parse("(;SZ[9]AB[aa]AW[ba][ab])").unwrap();
    assert!(matches!(rec.setup(), Err(SgfError::Position(_))));
    // Deep nesting does not overflow the stack.
    let deep = format!(
        "(;SZ[9]{}{}",
        "(;B[aa]".repeat(100_000),
        ")".repeat(100_001)
    );
    let _ = SgfGame::parse(&deep);
    // Every truncation of a valid file is answered without a panic.
    let good = "(;FF[4]GM[1]SZ[9]KM[6.5]AB[aa][bb:cc]AW[ee];W[dd](;B[ff];W[gg])(;B[hh]))";
    for i in 0..good.len() {
        let _ = SgfGame::parse(&good[..i]);
    }
}
