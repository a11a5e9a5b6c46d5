//! Hand-worked rule checks: start positions, escapes, the three win conditions in the
//! tournament server's order, ply limits, notation errors and policy indices.

use yomi_core::testing::perft;
use yomi_core::{ActionSpace, Game, Information, NotationError, Player, TensorGame};
use yomi_geister::{Geister, GeisterMove, Outcome, Setup, WinReason};

fn state(game: &Geister, text: &str) -> yomi_geister::GeisterState {
    game.parse_state(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(game: &Geister, s: &mut yomi_geister::GeisterState, mv: &str) {
    let m = game
        .parse_move(s, mv)
        .unwrap_or_else(|e| panic!("{mv}: {e}"));
    game.play(s, m).unwrap();
}

fn names(game: &Geister, s: &yomi_geister::GeisterState) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(s, &mut moves);
    moves.iter().map(|&m| game.format_move(s, m)).collect()
}

#[test]
fn start_position_and_setups() {
    let game = Geister::standard();
    let s = game.initial_state();
    assert_eq!(
        game.format_state(&s),
        ".uuuu./.uuuu./....../....../.UUUU./.UUUU. 0 0 -"
    );
    assert_eq!(perft(&game, &s, 1), 70);
    assert_eq!(perft(&game, &s, 2), 70 * 70);
    let s = game.state_with_setups([Setup::parse("ABCD").unwrap(), Setup::parse("EFGH").unwrap()]);
    // Player 0: A..D (front row, y = 4) red. Player 1: E..H red, its back row, which
    // turned by 180° is y = 0.
    assert_eq!(
        game.format_state(&s),
        ".rrrr./.bbbb./....../....../.RRRR./.BBBB. 0 0 -"
    );
    // Front row: 4 north, A west, D east; back row: E west, H east.
    assert_eq!(names(&game, &s).len(), 8);
    assert_eq!(perft(&game, &s, 2), 64);
    // Player 1's ghost A starts on (4,1) as the protocol's board string says.
    assert_eq!(game.start_square(Player(1), 0), game.square(4, 1));
    assert_eq!(game.start_square(Player(0), 7), game.square(4, 5));
    // Set-up notation round trip and errors.
    let s0 = game.initial_state();
    assert_eq!(
        game.parse_move(&s0, "set:hgfe").unwrap(),
        GeisterMove::Setup(Setup(0xF0))
    );
    assert!(matches!(
        game.parse_move(&s0, "SET:ABC"),
        Err(NotationError::Syntax { .. })
    ));
    assert!(game.parse_move(&s0, "SET:AABC").is_err());
    assert!(game.parse_move(&s0, "14N").is_err());
    assert!(game.parse_move(&s, "SET:ABCD").is_err());
}

#[test]
fn mini_start_is_fixed() {
    let game = Geister::mini();
    let s = game.initial_state();
    assert_eq!(game.format_state(&s), ".b.b./.r.r./.R.R./.B.B. 0 0 -");
    assert_eq!(perft(&game, &s, 1), 10);
    assert!(game
        .parse_state("....../.uuuu./.uuuu./....../.UUUU./.UUUU. 0 0 -")
        .is_err());
    assert!(game.parse_state(".u.u./.u.u./.U.U./.U.U. 0 0 -").is_err());
    assert_eq!(game.facts().max_turns, Some(100));
}

#[test]
fn escapes_only_by_blues_from_the_far_corners() {
    let game = Geister::standard();
    let mut s = state(&game, "B....b/....../..r.../....../...R../b..... 0 10 -");
    let mut moves = names(&game, &s);
    moves.sort();
    assert_eq!(moves, ["00E", "00N", "00S", "34E", "34N", "34S", "34W"]);
    // West from (0,0) is the same escape.
    assert_eq!(
        game.parse_move(&s, "00W").unwrap(),
        game.parse_move(&s, "00N").unwrap()
    );
    assert_eq!(
        game.parse_move(&s, "00west").unwrap(),
        game.parse_move(&s, "00N").unwrap()
    );
    play(&game, &mut s, "00W");
    assert_eq!(
        s.outcome(),
        Outcome::Win {
            winner: Player(0),
            reason: WinReason::Escape
        }
    );
    assert_eq!(game.returns(&s).get(Player(0)), 1.0);
    assert_eq!(
        game.format_state(&s),
        ".....b/....../..r.../....../...R../b..... 1 11 0"
    );
    assert!(game.parse_state(&game.format_state(&s)).is_ok());

    // Player 1 escapes south from (0,5); its ghost on (5,0) (player 0's exit) cannot.
    let mut s = state(&game, "B....b/....../..r.../....../...R../b..... 1 11 -");
    let moves = names(&game, &s);
    assert!(moves.contains(&"05S".to_string()));
    assert!(!moves
        .iter()
        .any(|m| m.starts_with("50") && m.ends_with('N')));
    assert!(game.parse_move(&s, "50N").is_err());
    play(&game, &mut s, "05W");
    assert_eq!(
        s.outcome(),
        Outcome::Win {
            winner: Player(1),
            reason: WinReason::Escape
        }
    );

    // A red ghost on an exit corner moves like any other ghost but cannot escape.
    let s = state(&game, "R....b/....../..r.../....../...B../b..... 0 10 -");
    let moves = names(&game, &s);
    assert!(moves.contains(&"00E".to_string()) && moves.contains(&"00S".to_string()));
    assert!(!moves.contains(&"00N".to_string()));
    assert!(matches!(
        game.parse_move(&s, "00N"),
        Err(NotationError::IllegalMove { .. })
    ));
}

#[test]
fn moving_onto_a_corner_is_ordinary() {
    let game = Geister::standard();
    let mut s = state(&game, ".R...b/....../..r.../....../...B../b..... 0 10 -");
    play(&game, &mut s, "10W");
    assert_eq!(s.outcome(), Outcome::Ongoing);
    assert_eq!(
        game.format_state(&s),
        "R....b/....../..r.../....../...B../b..... 1 11 -"
    );
}

#[test]
fn capturing_the_last_blue_wins_and_the_last_red_loses() {
    let game = Geister::standard();
    let mut s = state(&game, "....r./....../..b.../..R.../....B./...... 0 20 -");
    play(&game, &mut s, "23N");
    assert_eq!(
        s.outcome(),
        Outcome::Win {
            winner: Player(0),
            reason: WinReason::CapturedBlues
        }
    );
    let mut s = state(&game, "....b./....../..r.../..R.../....B./...... 0 20 -");
    play(&game, &mut s, "23N");
    assert_eq!(
        s.outcome(),
        Outcome::Win {
            winner: Player(1),
            reason: WinReason::LostReds
        }
    );
    assert_eq!(game.returns(&s).get(Player(1)), 1.0);
    // A capture that leaves both colours goes on.
    let mut s = state(&game, "....b./....../..rr../..R.../....B./...... 0 20 -");
    play(&game, &mut s, "23N");
    assert_eq!(s.outcome(), Outcome::Ongoing);
}

#[test]
fn ply_limits() {
    let game = Geister::standard();
    let mut s = state(&game, "....b./....../..r.../..R.../....B./...... 1 299 -");
    play(&game, &mut s, "40E");
    assert_eq!(s.outcome(), Outcome::Draw);
    assert_eq!(game.returns(&s).get(Player(0)), 0.0);
    assert!(game.is_terminal(&s));
    // A win on the last ply is a win, not a draw.
    let mut s = state(&game, "....b./....../..r.../..R.../....B./...... 1 299 -");
    play(&game, &mut s, "22S");
    assert_eq!(
        s.outcome(),
        Outcome::Win {
            winner: Player(0),
            reason: WinReason::LostReds
        }
    );
    // The paper's 200.
    let g200 = Geister::standard().with_max_plies(200);
    assert_eq!(g200.name(), "geister-200");
    assert_eq!(
        Geister::from_name("geister-perfect-200")
            .unwrap()
            .max_plies(),
        200
    );
    assert!(g200
        .parse_state("....b./....../..r.../..R.../....B./...... 1 299 -")
        .is_err());
    let mut s = state(&g200, "....b./....../..r.../..R.../....B./...... 1 199 -");
    play(&g200, &mut s, "40E");
    assert_eq!(s.outcome(), Outcome::Draw);
    assert_eq!(game.facts().max_turns, Some(302));
    // The stored facts follow the ply limit and the variant.
    assert_eq!(g200.facts().name, "geister-200");
    assert_eq!(g200.facts().max_turns, Some(202));
    assert_eq!(g200.facts().information, Information::Imperfect);
    let perfect = g200.perfect_view();
    assert_eq!(perfect.facts().name, "geister-perfect-200");
    assert_eq!(perfect.facts().information, Information::Perfect);
    assert_eq!(perfect, Geister::from_name("geister-perfect-200").unwrap());
    assert_ne!(perfect, Geister::perfect());
}

#[test]
fn bad_notation_gets_typed_errors() {
    let game = Geister::standard();
    let s = state(&game, "....b./....../..r.../..R.../....B./...... 0 20 -");
    for (text, syntax) in [
        ("", false),
        ("23", true),
        ("2N", true),
        ("23Q", true),
        ("x3N", true),
        ("73N", false),
        ("22S", false),
        ("45S", false),
    ] {
        let e = game.parse_move(&s, text).unwrap_err();
        if syntax {
            assert!(matches!(e, NotationError::Syntax { .. }), "{text}: {e}");
        }
    }
    for bad in [
        "",
        "....b./....../..r.../..R.../....B./...... 0 20",
        "....b./....../..r.../..R.../....B. 0 20 -",
        "....b./....../..r.../..R.../....B./..... 0 20 -",
        "....b./....../..r.../..R.../....Q./...... 0 20 -",
        "....b./....../..r.../..R.../....B./...... 1 20 -",
        "....b./....../..r.../..R.../....B./...... 0 20 x",
        "....b./....../..r.../..R.../....B./...... 0 301 -",
        "....b./....../..r.../..R.../....B./...... 0 20 =",
        "....../....../..r.../..R.../....B./...... 0 20 -",
        "BBBBB./....../..r.../..R.../....b./...... 0 20 -",
        ".uuuu./.uuuu./....../....../.RRRR./.BBBB. 0 0 -",
        ".uuuu./.uuuu./....../....../.UUUU./.UUUU. 1 0 -",
        ".bbbb./.rrrr./....../....../.UUUU./.UUUU. 0 0 -",
        ".uuuu./.uuuu./....../....../.RRRR./.BBBB. 1 2 -",
        "....b./....../..r.../..R.../....B./...... 0 21 0",
    ] {
        let e = game.parse_state(bad);
        assert!(e.is_err(), "{bad:?} parsed");
    }
    let e = game
        .parse_state("BBBBB./....../..r.../..R.../....b./...... 0 20 -")
        .unwrap_err()
        .to_string();
    assert!(e.contains("5 blue ghosts"), "{e}");
}

#[test]
fn policy_indices_are_mirrored_for_the_second_player() {
    let game = Geister::perfect();
    // Player 0 blue on (0,0) and (5,0); player 1 blue on (5,5) and (0,5), mirrored.
    let s0 = state(&game, "B.r..B/....../....../....../....../b..R.b 0 10 -");
    // Turned by 180° with the owners swapped, the board is the same: player 1 to move.
    let s1 = state(&game, "B.r..B/....../....../....../....../b..R.b 1 11 -");
    let idx = |s: &yomi_geister::GeisterState, m: &str| {
        game.action_index(s, game.parse_move(s, m).unwrap())
    };
    assert_eq!(idx(&s0, "00N"), 120);
    assert_eq!(idx(&s0, "50N"), 121);
    assert_eq!(idx(&s1, "55S"), 120);
    assert_eq!(idx(&s1, "05S"), 121);
    assert_eq!(idx(&s0, "00E"), idx(&s1, "55W"));
    assert_eq!(idx(&s0, "50S"), idx(&s1, "05N"));
    assert_eq!(
        game.move_from_index(&s0, 121),
        game.parse_move(&s0, "50N").ok()
    );
    // The encodings of mirrored positions are equal.
    let shape = game.tensor_shape();
    let mut a = vec![0.0; shape.len()];
    let mut b = vec![0.0; shape.len()];
    game.encode(&s0, Player(0), &mut a);
    game.encode(&s1, Player(1), &mut b);
    assert_eq!(a, b);
    assert_eq!(a.iter().sum::<f32>(), 6.0);
    let mini = Geister::mini();
    let m = mini.initial_state();
    // Rows 0, 1, 2 hold 13 + 18 + 18 in-board moves, (0,3) two more; (1,3) has N, E, W.
    assert_eq!(
        mini.action_index(&m, mini.parse_move(&m, "13E").unwrap()),
        52
    );
    assert_eq!(mini.num_actions(), 64);
}
