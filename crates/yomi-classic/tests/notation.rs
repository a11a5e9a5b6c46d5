//! Notation: round trips, and one example of every error each parser gives.

use yomi_classic::{
    Breakthrough, Cell, Column, ConnectFour, ConnectFourState, PositionError, TicTacToe,
    TicTacToeState,
};
use yomi_core::{Game, NotationError, Rng};

fn is_empty<T: std::fmt::Debug>(r: Result<T, NotationError>) -> bool {
    matches!(r, Err(NotationError::Empty { .. }))
}
fn is_syntax<T: std::fmt::Debug>(r: Result<T, NotationError>) -> bool {
    matches!(r, Err(NotationError::Syntax { .. }))
}
fn is_illegal<T: std::fmt::Debug>(r: Result<T, NotationError>) -> bool {
    matches!(r, Err(NotationError::IllegalMove { .. }))
}
/// An `Invalid` error whose reason is `err`'s message.
fn is_invalid<T: std::fmt::Debug>(r: Result<T, NotationError>, err: PositionError) -> bool {
    match r {
        Err(NotationError::Invalid { reason, .. }) => reason == err.to_string(),
        other => panic!("expected Invalid({err}), got {other:?}"),
    }
}

/// Formats every state along random games and parses it back.
fn round_trips<G: Game>(game: &G, games: usize) {
    let mut rng = Rng::seed_from_u64(3);
    let mut buf = Vec::new();
    for _ in 0..games {
        let mut s = game.initial_state();
        loop {
            let text = game.format_state(&s);
            assert_eq!(game.parse_state(&text).unwrap(), s, "{text}");
            assert_eq!(
                game.parse_state(&format!("  {text}\n")).unwrap(),
                s,
                "surrounding space"
            );
            let Some(mv) = game.random_move(&s, &mut rng, &mut buf) else {
                break;
            };
            let m = game.format_move(&s, mv);
            assert_eq!(game.parse_move(&s, &m).unwrap(), mv);
            assert_eq!(
                game.parse_move(&s, &m.to_uppercase()).unwrap(),
                mv,
                "capitals"
            );
            game.apply(&mut s, mv);
        }
    }
}

#[test]
fn all_games_round_trip() {
    round_trips(&TicTacToe, 100);
    round_trips(&ConnectFour, 100);
    for (w, h) in [(5, 5), (8, 8), (4, 7), (11, 11)] {
        round_trips(&Breakthrough::new(w, h).unwrap(), 20);
    }
}

#[test]
fn tictactoe_moves() {
    let g = TicTacToe;
    let s = g.initial_state();
    assert_eq!(g.parse_move(&s, "a1").unwrap(), Cell::new(0, 0).unwrap());
    assert_eq!(g.parse_move(&s, " C3 ").unwrap(), Cell::new(2, 2).unwrap());
    assert_eq!(Cell::new(1, 2).unwrap().to_string(), "b3");
    assert!(is_empty(g.parse_move(&s, "")));
    for bad in ["d1", "a4", "a0", "1a", "a", "a11", "é1", "aa"] {
        assert!(is_syntax(g.parse_move(&s, bad)), "{bad}");
    }
    let s = g.parse_state("....x.... o").unwrap();
    assert!(is_illegal(g.parse_move(&s, "b2")), "taken");
    let won = g.parse_state("xxx/oo./... o").unwrap();
    assert!(g.is_terminal(&won));
    assert!(is_illegal(g.parse_move(&won, "c2")), "game over");
}

#[test]
fn tictactoe_states() {
    let g = TicTacToe;
    assert_eq!(g.format_state(&g.initial_state()), "......... x");
    let s = g.parse_state("x.o/.x./..o x").unwrap();
    assert_eq!(g.format_state(&s), "x.o.x...o x");
    assert_eq!(g.parse_state("x.o.x...o x").unwrap(), s);
    assert!(g.render(&s).contains("\n  a b c\n"), "{}", g.render(&s));
    assert!(is_empty(g.parse_state("  ")));
    for bad in [
        "......... ",
        "........ x",
        ".......... x",
        "........q x",
        "......... z",
        "......... x o",
        "xo./.../.. x",
    ] {
        assert!(is_syntax(g.parse_state(bad)), "{bad:?}");
    }
    let counts = |x, o| PositionError::PieceCounts {
        first_name: "x",
        first: x,
        second_name: "o",
        second: o,
    };
    assert!(is_invalid(g.parse_state("xx....... o"), counts(2, 0)));
    assert!(is_invalid(g.parse_state("o........ x"), counts(0, 1)));
    let side = PositionError::SideToMove {
        expected: "o",
        found: "x",
    };
    assert!(is_invalid(g.parse_state("x........ x"), side));
    assert!(is_invalid(
        g.parse_state("xxx/ooo/... x"),
        PositionError::TwoWinners
    ));
    // x completed a row, then o moved again.
    assert!(is_invalid(
        g.parse_state("xxx/oo./o.. x"),
        PositionError::PlayedAfterWin { winner: "x" }
    ));
    // o completed a row, then x moved again.
    assert!(is_invalid(
        g.parse_state("ooo/xx./xx. o"),
        PositionError::PlayedAfterWin { winner: "o" }
    ));
    // A legal double line: x's last move completed two lines at once.
    let fork = g.parse_state("xxx/xoo/xoo o").unwrap();
    assert!(g.is_terminal(&fork));
    assert_eq!(
        TicTacToeState::from_boards(1, 1),
        Err(PositionError::BadSquares)
    );
    assert_eq!(
        TicTacToeState::from_boards(1 << 9, 0),
        Err(PositionError::BadSquares)
    );
}

#[test]
fn connect_four_moves() {
    let g = ConnectFour;
    let s = g.initial_state();
    for (text, col) in [("a", 0), ("g", 6), ("1", 0), ("7", 6), ("D", 3), (" 4 ", 3)] {
        assert_eq!(
            g.parse_move(&s, text).unwrap(),
            Column::new(col).unwrap(),
            "{text}"
        );
    }
    assert!(is_empty(g.parse_move(&s, "")));
    for bad in ["h", "0", "8", "ab", "11", "é", "-1"] {
        assert!(is_syntax(g.parse_move(&s, bad)), "{bad}");
    }
    let full_a = ConnectFour::state_from_moves("111111").unwrap();
    assert!(is_illegal(g.parse_move(&full_a, "a")));
    assert!(g.parse_move(&full_a, "b").is_ok());
    let won = ConnectFour::state_from_moves("1212121").unwrap();
    assert!(is_illegal(g.parse_move(&won, "c")));
}

#[test]
fn connect_four_states() {
    let g = ConnectFour;
    assert_eq!(
        g.format_state(&g.initial_state()),
        "......./......./......./......./......./....... x"
    );
    let s = g
        .parse_state("......./......./......./......./......./...x... o")
        .unwrap();
    assert_eq!(s, ConnectFour::state_from_moves("4").unwrap());
    assert!(g.render(&s).contains("  a b c d e f g"));
    assert!(is_empty(g.parse_state("")));
    for bad in [
        "......./......./......./......./....... x", // five rows
        "......./......./......./......./......./......./....... x", // seven rows
        "......./......./......./......./......./...... x", // short row
        "......./......./......./......./......./...y... o", // bad cell
        "......./......./......./......./......./...x... y", // bad side
        "......./......./......./......./......./...x...", // no side
    ] {
        assert!(is_syntax(g.parse_state(bad)), "{bad:?}");
    }
    // A disc over an empty cell.
    assert!(is_invalid(
        g.parse_state("......./......./......./......./...x.../....o.. x"),
        PositionError::Floating { column: 'd' }
    ));
    let counts = PositionError::PieceCounts {
        first_name: "x",
        first: 2,
        second_name: "o",
        second: 0,
    };
    assert!(is_invalid(
        g.parse_state("......./......./......./......./......./...xx.. o"),
        counts
    ));
    let side = PositionError::SideToMove {
        expected: "o",
        found: "x",
    };
    assert!(is_invalid(
        g.parse_state("......./......./......./......./......./...x... x"),
        side
    ));
    assert!(is_invalid(
        g.parse_state("......./......./......./......./oooo.../xxxx... x"),
        PositionError::TwoWinners
    ));
    // x won on the bottom row, then o moved.
    let after = PositionError::PlayedAfterWin { winner: "x" };
    assert!(is_invalid(
        g.parse_state("......./......./......./......./ooo..../xxxxo.. x"),
        after.clone()
    ));
    // x's vertical four is buried under an o disc: the game went on after it.
    assert!(is_invalid(
        g.parse_state("......./o....../x....../x....../x....../xoo.... o"),
        after
    ));
    // A won position parses when the winner's last disc can be on top.
    let won = g
        .parse_state("......./......./......./......./ooo..../xxxx... o")
        .unwrap();
    assert_eq!(won.winner(), Some(yomi_core::Player(0)));
    assert_eq!(
        ConnectFourState::from_discs(1, 1),
        Err(PositionError::BadSquares)
    );
    assert_eq!(
        ConnectFourState::from_discs(1 << 6, 0),
        Err(PositionError::BadSquares),
        "sentinel bit"
    );
}

#[test]
fn connect_four_move_sequences() {
    let s = ConnectFour::state_from_moves("4453").unwrap();
    assert_eq!(
        ConnectFour.format_state(&s),
        "......./......./......./......./...o.../..oxx.. x"
    );
    assert_eq!(
        ConnectFour::state_from_moves("").unwrap(),
        ConnectFour.initial_state()
    );
    assert!(is_syntax(ConnectFour::state_from_moves("448")));
    assert!(is_syntax(ConnectFour::state_from_moves("4a")));
    assert!(is_syntax(ConnectFour::state_from_moves("4 4")));
    assert!(
        is_illegal(ConnectFour::state_from_moves("1111111")),
        "full column"
    );
    assert!(
        is_illegal(ConnectFour::state_from_moves("12121213")),
        "after the win"
    );
}

#[test]
fn breakthrough_moves() {
    let g = Breakthrough::new_5x5();
    let s = g.initial_state();
    let mv = g.parse_move(&s, "b2-c3").unwrap();
    assert_eq!((mv.from(), mv.to()), (6, 12));
    assert_eq!(g.format_move(&s, mv), "b2-c3");
    assert!(g.parse_move(&s, "A2-B3").is_ok());
    assert!(is_empty(g.parse_move(&s, " ")));
    for bad in [
        "a2a3", "a2-", "-a3", "f2-f3", "a0-a1", "a02-a3", "a2-a33", "a2_a3", "é2-a3", "a2--a3",
        "a2xxa3",
    ] {
        assert!(is_syntax(g.parse_move(&s, bad)), "{bad}");
    }
    for bad in [
        "a3-a4", // no piece
        "a2-a4", // two squares
        "a2-b2", // sideways
        "a1-a2", // straight onto an own piece
        "a1-b2", // diagonally onto an own piece
        "a2xa3", // x without a capture
        "a2-e2", // wraps around the board's edge
        "e2-a4", // wraps around the board's edge
        "a4-a3", // black's piece
    ] {
        assert!(is_illegal(g.parse_move(&s, bad)), "{bad}");
    }
    // A capture prints with x and parses with either separator.
    let s = g.parse_state("bbbbb/b.bbb/.b.../w.www/wwwww w").unwrap();
    let capture = g.parse_move(&s, "a2xb3").unwrap();
    assert_eq!(g.format_move(&s, capture), "a2xb3");
    assert_eq!(g.parse_move(&s, "a2-b3").unwrap(), capture);
    assert!(
        is_illegal(g.parse_move(&s, "c2xc3")),
        "x onto an empty square"
    );
    // Black moves down.
    let s = g.parse_state("bbbbb/bbbbb/...../wwwww/wwwww b").unwrap();
    assert!(g.parse_move(&s, "c4-c3").is_ok());
    assert!(g.parse_move(&s, "c4-d3").is_ok());
    assert!(is_illegal(g.parse_move(&s, "c4-c5")));
    // Two-digit rows on big boards.
    let big = Breakthrough::new(11, 11).unwrap();
    let s = big.parse_state("bbbbbbbbbbb/bbbbbbbbbbb/.........../.........../.........../.........../.........../.........../.........../wwwwwwwwwww/wwwwwwwwwww b").unwrap();
    let mv = big.parse_move(&s, "k10-j9").unwrap();
    assert_eq!(big.format_move(&s, mv), "k10-j9");
}

#[test]
fn breakthrough_states() {
    let g = Breakthrough::new_5x5();
    assert_eq!(
        g.format_state(&g.initial_state()),
        "bbbbb/bbbbb/...../wwwww/wwwww w"
    );
    let small = Breakthrough::new(3, 4).unwrap();
    assert_eq!(
        small.format_state(&small.initial_state()),
        "bbb/.../.../www w"
    );
    assert!(g.render(&g.initial_state()).contains("\n   a b c d e\n"));
    assert!(is_empty(g.parse_state("")));
    for bad in [
        "bbbbb/bbbbb/...../wwwww w",             // four rows
        "bbbbb/bbbbb/...../wwwww/wwwww/..... w", // six rows
        "bbbbbb/bbbbb/...../wwwww/wwwww w",      // long row
        "bbbbb/bbbbb/..x../wwwww/wwwww w",       // bad cell
        "bbbbb/bbbbb/...../wwwww/wwwww x",       // bad side
        "bbbbb/bbbbb/...../wwwww/wwwww",         // no side
    ] {
        assert!(is_syntax(g.parse_state(bad)), "{bad:?}");
    }
    let many = PositionError::TooManyPieces {
        side: "white",
        count: 11,
        max: 10,
    };
    assert!(is_invalid(
        g.parse_state("bbbbb/...../....w/wwwww/wwwww b"),
        many
    ));
    assert!(is_invalid(
        g.parse_state("...../...../...../...../..... w"),
        PositionError::NoPieces
    ));
    assert!(is_invalid(
        g.parse_state("w..../...../...../...../b.... w"),
        PositionError::TwoWinners
    ));
    let white_after = PositionError::PlayedAfterWin { winner: "white" };
    assert!(is_invalid(
        g.parse_state("w..../...../...../..b../..... w"),
        white_after.clone()
    ));
    assert!(is_invalid(
        g.parse_state("ww.../...../...../..b../..... b"),
        white_after
    ));
    assert!(is_invalid(
        g.parse_state("...../...../...../...../w.... w"),
        PositionError::PlayedAfterWin { winner: "white" }
    ));
    // Won positions with the loser to move are fine.
    assert!(g.is_terminal(&g.parse_state("w..../...../...../..b../..... b").unwrap()));
    assert!(g.is_terminal(&g.parse_state("...../...../...../...../w.... b").unwrap()));
    // Size mismatches are syntax errors: the board belongs to another game.
    assert!(is_syntax(
        Breakthrough::new_8x8().parse_state("bbbbb/bbbbb/...../wwwww/wwwww w")
    ));
}
