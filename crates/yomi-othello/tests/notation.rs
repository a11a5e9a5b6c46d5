//! Moves, board strings and OBF lines: round trips and typed errors for malformed input.

use yomi_core::{Game, NotationError, Player};
use yomi_othello::{parse_obf, parse_obf_line, BoardError, Move, ObfError, Othello, OthelloState};

const START: &str = "---------------------------OX------XO--------------------------- X";

#[test]
fn squares_and_passes() {
    assert_eq!("a1".parse::<Move>().unwrap(), Move::square(0).unwrap());
    assert_eq!("H8".parse::<Move>().unwrap(), Move::square(63).unwrap());
    assert_eq!("d3".parse::<Move>().unwrap(), Move::at(3, 2).unwrap());
    for p in ["pass", "PS", "--", "Pass", " ps "] {
        assert_eq!(p.parse::<Move>().unwrap(), Move::PASS, "{p}");
    }
    for bad in ["", "i1", "a9", "a0", "a", "a11", "11", "passs", "é1"] {
        assert!(bad.parse::<Move>().is_err(), "{bad:?}");
    }
    for sq in 0..64 {
        let m = Move::square(sq).unwrap();
        assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
    }
    assert_eq!(Move::PASS.to_string(), "pass");
}

#[test]
fn board_strings_round_trip_and_explain_errors() {
    let s: OthelloState = START.parse().unwrap();
    assert_eq!(s, OthelloState::start());
    assert_eq!(s.to_board_string(), START);
    assert_eq!(Othello.format_state(&s), START);
    let e = |t: &str| t.parse::<OthelloState>().unwrap_err();
    assert_eq!(e(""), BoardError::Empty);
    assert_eq!(e(&START[..63]), BoardError::Length { found: 63 });
    assert!(matches!(
        e(&START.replace(" X", "- X")),
        BoardError::Length { found: 65 }
    ));
    assert_eq!(e(&START[..64]), BoardError::MissingSide);
    assert!(matches!(
        e(&START.replace(" X", " Z")),
        BoardError::BadSide { .. }
    ));
    assert!(matches!(
        e(&format!("{START} extra")),
        BoardError::Trailing { .. }
    ));
    let bad = START.replacen('-', "?", 1);
    match e(&bad) {
        BoardError::BadSquare {
            square,
            index,
            found,
        } => {
            assert_eq!((square.as_str(), index, found), ("a1", 0, '?'));
        }
        other => panic!("{other}"),
    }
    let empty_centre = START.replace("OX", "-X");
    assert_eq!(e(&empty_centre), BoardError::EmptyCentre { square: "d4" });
    assert!(e(&empty_centre).to_string().contains("d4"));
    // Lower case and alternative characters are accepted.
    let alt: OthelloState = START
        .replace('-', ".")
        .replace('X', "*")
        .replace('O', "o")
        .replace(" *", " o")
        .parse()
        .unwrap();
    assert_eq!(alt.to_move(), Player(1));
    // The game's notation errors are typed.
    assert!(matches!(
        Othello.parse_state(""),
        Err(NotationError::Empty { .. })
    ));
    assert!(matches!(
        Othello.parse_state(&empty_centre),
        Err(NotationError::Invalid { .. })
    ));
    assert!(matches!(
        Othello.parse_state("xyz"),
        Err(NotationError::Syntax { .. })
    ));
    assert!(matches!(
        Othello.parse_move(&s, "z9"),
        Err(NotationError::Syntax { .. })
    ));
}

#[test]
fn obf_lines() {
    let line = "---------------------------OX------XO--------------------------- X; D3:+18; C4:+12; F5:+6; E6:-8; B1:-8; A4:-10; B8:-10; H2:-24;";
    // Only legal moves may be listed.
    assert_eq!(
        parse_obf_line(line).unwrap_err(),
        ObfError::Illegal("b1".into())
    );
    let line = "---------------------------OX------XO--------------------------- X; D3:+18; C4:+12; F5:+6; E6:-8;";
    let p = parse_obf_line(line).unwrap();
    assert_eq!(p.scores.len(), 4);
    assert_eq!(p.scores[0], ("d3".parse().unwrap(), 18));
    assert_eq!(p.best_score(), Some(18));
    assert_eq!(p.state.empty_count(), 60);
    let e = |t: &str| parse_obf_line(t).unwrap_err();
    assert!(matches!(
        e(&line.replace("D3:+18", "D3+18")),
        ObfError::Field { .. }
    ));
    assert!(matches!(
        e(&line.replace("D3:+18", "D3:x")),
        ObfError::Field { .. }
    ));
    assert!(matches!(
        e(&line.replace("D3:+18", "Z8:+18")),
        ObfError::Field { .. }
    ));
    assert!(matches!(
        e(&line.replace("D3:+18", "D3:+99")),
        ObfError::Field { .. }
    ));
    assert!(matches!(
        e(&line.replace("D3:+18", "A1:+18")),
        ObfError::Illegal(_)
    ));
    assert!(matches!(
        e(&line[..40]),
        ObfError::Board(BoardError::Length { .. })
    ));
    let file = format!("% comment\n\n{line}\n{}\n", &line[..70]);
    assert_eq!(parse_obf(&file).unwrap_err().0, 4);
    assert_eq!(parse_obf(&format!("{line}\n{line}\n")).unwrap().len(), 2);
}

#[test]
fn ffo_files_parse() {
    let Some(dir) = yomi_othello::data::othello_data_dir() else {
        eprintln!("skipping: shared/data/othello not found (set YOMI_SHARED_DATA)");
        return;
    };
    let mut total = 0;
    for (name, count) in [
        ("fforum-1-19.obf", 19),
        ("fforum-20-39.obf", 20),
        ("fforum-40-59.obf", 20),
    ] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let positions = parse_obf(&text).unwrap_or_else(|(l, e)| panic!("{name}:{l}: {e}"));
        assert_eq!(positions.len(), count, "{name}");
        total += positions.len();
    }
    assert_eq!(total, 59);
}
