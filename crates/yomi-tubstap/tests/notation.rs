//! Move and state notation: canonical forms round-trip, friendly forms are accepted, and
//! illegal input is explained.

use yomi_core::agent::{Agent, HumanAgent};
use yomi_core::{Game, NotationError, Player};
use yomi_tubstap::{maps, TbsMove, UnitAction};

#[test]
fn moves_read_in_several_forms() {
    let game = maps::standard();
    let s = game.initial_state();
    let mv = |unit, x, y, target| TbsMove::Act(UnitAction { unit, x, y, target });
    // Unit 2 is red's panzer at 2,2.
    for text in ["2@3,2", "u2 3 2", "2>3,2", "#2 (3,2)", " 2 @ 3 , 2 "] {
        assert_eq!(game.parse_move(&s, text), Ok(mv(2, 3, 2, None)), "{text}");
    }
    assert_eq!(game.parse_move(&s, "2 stay"), Ok(mv(2, 2, 2, None)));
    for text in ["end", "END", "pass", "end turn"] {
        assert_eq!(game.parse_move(&s, text), Ok(TbsMove::EndTurn), "{text}");
    }
    assert_eq!(game.format_move(&s, mv(2, 3, 2, Some(9))), "2@3,2x9");
    assert_eq!(game.format_move(&s, TbsMove::EndTurn), "end");
}

#[test]
fn illegal_moves_are_explained() {
    let game = maps::standard();
    let s = game.initial_state();
    for (text, needle) in [
        ("99@1,1", "there is no unit 99"),
        ("6@5,6", "belongs to blue, and red is to move"),
        ("2@6,6", "cannot end its move on 6,6"),
        ("2@1,1", "cannot end its move on 1,1"), // a friend stands there
        ("4@2,1x8", "cannot move and fire"),
        ("2@3,2x8", "distance"),
        ("2@3,2x0", "on your own side"),
    ] {
        match game.parse_move(&s, text) {
            Err(NotationError::IllegalMove { reason, .. }) => {
                assert!(reason.contains(needle), "{text}: {reason}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    for text in ["", "move", "2@", "2@3", "2@a,b", "2@3,2x", "x", "2 3 4 5 6"] {
        let e = game.parse_move(&s, text).unwrap_err();
        assert!(
            matches!(
                e,
                NotationError::Syntax { .. } | NotationError::Empty { .. }
            ),
            "{text}: {e:?}"
        );
    }
    let mut t = s.clone();
    game.apply(&mut t, game.parse_move(&s, "2@3,2").unwrap());
    let e = game.parse_move(&t, "2@4,2").unwrap_err().to_string();
    assert!(e.contains("already acted"), "{e}");
}

#[test]
fn states_round_trip_and_bad_states_are_refused() {
    let game = maps::standard();
    let s = game.initial_state();
    let text = game.format_state(&s);
    assert!(text.starts_with("0 r | 1,1:10 1,3:10"), "{text}");
    assert_eq!(game.parse_state(&text).unwrap(), s);
    for (bad, needle) in [
        (text.replacen("1,1:10", "1,3:10", 1), "share cell"),
        (text.replacen("1,1:10", "1,1:11", 1), "11 HP"),
        (text.replacen("1,1:10", "0,1:10", 1), "outside"),
        (text.replacen("0 r", "99 r", 1), "past the map's limit"),
        (text.replacen(" 1,1:10", "", 1), "11 unit entries"),
        (text.replacen("1,1:10", "1,1:0", 1), "0 HP"),
    ] {
        let e = game.parse_state(&bad).unwrap_err().to_string();
        assert!(e.contains(needle), "{bad}: {e}");
    }
    // A side to move with every unit finished cannot happen (its turn would have ended).
    let e = game
        .parse_state("0 r | 1,1:10* 1,3:10* 2,2:10* 2,4:10* 1,2:10* 1,4:10* 6,6:10 6,4:10 5,5:10 5,3:10 6,5:10 6,3:10")
        .unwrap_err()
        .to_string();
    assert!(e.contains("no unit left to act"), "{e}");
}

#[test]
fn a_human_is_told_what_is_wrong() {
    let game = maps::builtin("duel").unwrap();
    let s = game.initial_state();
    let input = b"2@1,1\n0@9,9\nmoves\n0@2,1\n" as &[u8];
    let mut out = Vec::new();
    let mv = {
        let mut human = HumanAgent::new(input, &mut out);
        human.select_move(&game, &s, Player(0)).unwrap()
    };
    assert_eq!(game.format_move(&s, mv), "0@2,1");
    let shown = String::from_utf8(out).unwrap();
    assert!(shown.contains("belongs to blue"), "{shown}");
    assert!(shown.contains("cannot end its move on 9,9"), "{shown}");
    assert!(shown.contains("legal moves: 0@1,1"), "{shown}");
    assert!(
        shown.contains("P10"),
        "the board shows units and HP: {shown}"
    );
}
