//! Captures, ko, superko, suicide, eyes and scoring on hand-made positions.

use std::collections::HashSet;

use yomi_core::{Game, NotationError, Rng, Turn};
use yomi_go::score::{dead_stones, format_score, Count};
use yomi_go::{Color, GoGame, GoState, Rules, Scoring, Vertex, VertexError};

fn setup(game: &GoGame, rows: &str, side: &str) -> GoState {
    game.parse_state(&format!("{rows} {side} - 0"))
        .unwrap_or_else(|e| panic!("{rows}: {e}"))
}

fn mv(game: &GoGame, text: &str) -> Vertex {
    Vertex::parse_gtp(text, game.size()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(game: &GoGame, s: &mut GoState, text: &str) {
    let v = mv(game, text);
    game.play(s, v)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", game.render(s)));
}

#[test]
fn captures_single_stones_and_groups() {
    let g = GoGame::new(5).unwrap();
    let mut s = setup(&g, "...../..O../.OXO./...../.....", "w");
    play(&g, &mut s, "C2");
    assert_eq!(
        s.board().stone(Vertex::parse_gtp("C3", 5).unwrap().index()),
        None
    );
    assert_eq!(s.board().prisoners(Color::White), 1);
    assert_eq!(s.board().stones(Color::Black), 0);

    let mut s = setup(&g, "...../...../...../OO.../XX...", "w");
    play(&g, &mut s, "C1");
    assert_eq!(s.board().stones(Color::Black), 0);
    assert_eq!(s.board().prisoners(Color::White), 2);
    assert_eq!(
        g.format_state(&s),
        "...../...../...../OO.../..O.. b - 0 0 1 0 2"
    );
}

#[test]
fn suicide_is_illegal_by_default_and_optional_for_chains() {
    let g = GoGame::new(5).unwrap();
    // Single-stone suicide at A1.
    let s = setup(&g, "...../...../...../O..../.O...", "b");
    let e = g.parse_move(&s, "A1").unwrap_err();
    assert!(e.to_string().contains("suicide"), "{e}");
    // Two-stone suicide at B1 next to A1.
    let s = setup(&g, "...../...../...../OO.../X.O..", "b");
    assert!(g.parse_move(&s, "B1").is_err());
    let gs = GoGame::with_rules(
        5,
        Rules {
            suicide: true,
            ..Rules::default()
        },
    )
    .unwrap();
    let mut t = setup(&gs, "...../...../...../OO.../X.O..", "b");
    play(&gs, &mut t, "B1");
    assert_eq!(t.board().stones(Color::Black), 0);
    assert_eq!(t.board().prisoners(Color::White), 2);
    // Single-stone suicide stays illegal with the option.
    let u = setup(&gs, "...../...../...../O..../.O...", "b");
    assert!(gs.parse_move(&u, "A1").is_err());
}

#[test]
fn simple_ko_forbids_the_immediate_retake_only() {
    let g = GoGame::new(5).unwrap();
    let mut s = setup(&g, "...../...../.XO../XO.O./.XO..", "b");
    play(&g, &mut s, "C2");
    assert_eq!(s.board().prisoners(Color::Black), 1);
    let ko = Vertex::parse_gtp("B2", 5).unwrap();
    assert_eq!(s.board().ko(), Some(ko.index()));
    let e = g.parse_move(&s, "B2").unwrap_err();
    assert!(e.to_string().contains("ko"), "{e}");
    let mut legal = Vec::new();
    g.legal_moves(&s, &mut legal);
    assert!(!legal.contains(&ko));
    // The ko point survives the state notation.
    let text = g.format_state(&s);
    assert!(text.contains(" w B2 "), "{text}");
    assert_eq!(g.parse_state(&text).unwrap(), s);
    play(&g, &mut s, "E5");
    play(&g, &mut s, "E4");
    play(&g, &mut s, "B2");
    assert_eq!(s.board().prisoners(Color::White), 1);
}

/// Random games on tiny boards: no board position ever repeats under `play`, and some
/// moves are refused by superko alone (legal by the board rules and simple ko).
#[test]
fn positional_superko_prevents_every_repetition() {
    let mut refused = 0;
    let mut rng = Rng::seed_from_u64(11);
    for size in [2, 3, 4] {
        let g = GoGame::with_rules(
            size,
            Rules {
                komi: 0.5,
                ..Rules::default()
            },
        )
        .unwrap();
        for _ in 0..300 {
            let mut s = g.initial_state();
            let mut seen = HashSet::new();
            seen.insert(s.board().rows_string());
            let mut legal = Vec::new();
            while g.turn(&s) != Turn::Terminal {
                g.legal_moves(&s, &mut legal);
                let c = s.to_move();
                for &p in s.board().empty_points() {
                    let p = p as usize;
                    if s.board().is_legal(p, c, false) && !legal.contains(&Vertex::from_index(p)) {
                        refused += 1;
                        let mut t = s.clone();
                        t.apply_unchecked(Vertex::from_index(p));
                        assert!(
                            seen.contains(&t.board().rows_string()),
                            "refused a fresh position"
                        );
                    }
                }
                // Avoid passes so that games run into repetitions.
                let stones: Vec<Vertex> = legal.iter().copied().filter(|v| !v.is_pass()).collect();
                let m = if stones.is_empty() || rng.below(20) == 0 {
                    Vertex::PASS
                } else {
                    stones[rng.below(stones.len())]
                };
                g.play(&mut s, m).unwrap();
                if !m.is_pass() {
                    assert!(seen.insert(s.board().rows_string()), "position repeated");
                }
            }
        }
    }
    assert!(refused > 0, "superko never refused a move");
}

/// Inside a search line (moves made with `apply`) the inline ring catches repetitions too.
#[test]
fn superko_inside_search_lines() {
    let g = GoGame::new(3).unwrap();
    let mut rng = Rng::seed_from_u64(5);
    let mut checked = 0;
    for _ in 0..400 {
        let mut s = g.initial_state();
        let mut line = vec![s.board().rows_string()];
        let mut legal = Vec::new();
        for _ in 0..12 {
            if g.is_terminal(&s) {
                break;
            }
            g.legal_moves(&s, &mut legal);
            for &v in &legal {
                if v.is_pass() {
                    continue;
                }
                let mut t = s.clone();
                t.apply_unchecked(v);
                assert!(
                    !line.contains(&t.board().rows_string()),
                    "a legal move repeats"
                );
                checked += 1;
            }
            let stones: Vec<Vertex> = legal.iter().copied().filter(|v| !v.is_pass()).collect();
            let Some(&m) = rng.choose(&stones) else { break };
            g.apply(&mut s, m);
            line.push(s.board().rows_string());
        }
    }
    assert!(checked > 1000);
}

#[test]
fn eyes_are_recognised_and_never_filled_by_playouts() {
    let g = GoGame::new(5).unwrap();
    let s = setup(&g, "...../...../...../XX.../.X...", "b");
    let b = s.board();
    let a1 = Vertex::parse_gtp("A1", 5).unwrap().index();
    assert!(b.is_eye(a1, Color::Black));
    assert!(!b.is_eye(a1, Color::White));
    // A white stone on the diagonal of a corner point makes it a false eye.
    let s3 = setup(&g, "...../...../...../XO.../.X...", "b");
    assert!(!s3.board().is_eye(a1, Color::Black));
    // In the centre one opposing diagonal is allowed, two are not.
    let c3 = Vertex::parse_gtp("C3", 5).unwrap().index();
    let one = setup(&g, "...../.OX../.X.X./..X../.....", "b");
    assert!(one.board().is_eye(c3, Color::Black));
    let two = setup(&g, "...../.OX../.X.X./..XO./.....", "b");
    assert!(!two.board().is_eye(c3, Color::Black));
    // Black owns two eyes and nothing else is playable for Black: playouts pass.
    let full = setup(&g, "XXXXX/X.XXX/XXXXX/XXX.X/XXXXX", "b");
    let mut rng = Rng::seed_from_u64(1);
    let mut buf = Vec::new();
    for _ in 0..20 {
        assert_eq!(g.random_move(&full, &mut rng, &mut buf), Some(Vertex::PASS));
    }
}

#[test]
fn area_scores_and_rewards() {
    let g = GoGame::new(5).unwrap();
    let s = g
        .parse_state("..XO./..XO./..XO./..XO./..XO. b - 5 2 40 0 0")
        .unwrap();
    assert!(g.is_terminal(&s));
    assert_eq!(s.board().area_score(), 5);
    assert_eq!(s.area_score(), 0.0);
    assert_eq!(g.returns(&s).as_slice(), &[0.0, 0.0], "jigo");
    let s = g
        .parse_state("..XO./..XO./..XO./..XO./..XO. b - 4.5 2 40 0 0")
        .unwrap();
    assert_eq!(g.returns(&s).as_slice(), &[1.0, -1.0]);
    // A neutral point between the colours, and a region with both colours around it.
    let s = setup(&g, ".X.O./XX.OO/...../OOOOO/.....", "b");
    // Black: 3 stones + A5 = 4; White: D5, D4, E4 and row 2 (8 stones), E5 and row 1 (6
    // points) = 14; C5, C4 and row 3 reach both colours.
    assert_eq!(s.board().area_score(), 4 - 14);
    assert_eq!(format_score(3.5), "B+3.5");
    assert_eq!(format_score(-0.5), "W+0.5");
    assert_eq!(format_score(0.0), "0");
}

#[test]
fn territory_counts_and_dead_stones() {
    let g = GoGame::new(7).unwrap();
    // Both sides have two eyes; the white stone at B4 inside Black's area is dead.
    let s = g
        .parse_state("X.XXO.O/XX.XOO./...XO../.O.XO../...XO../...XO../...XO.. b - 0.5 0 0 2 1")
        .unwrap();
    let dead = dead_stones(&g, &s, 300, 7);
    let b4 = Vertex::parse_gtp("B4", 7).unwrap();
    assert_eq!(dead, vec![b4], "{}", g.render(&s));
    let count = Count::new(&s, &dead);
    assert_eq!(
        (
            count.black_stones,
            count.black_territory,
            count.white_stones,
            count.white_territory
        ),
        (11, 17, 9, 12)
    );
    assert_eq!((count.black_prisoners, count.white_prisoners), (3, 1));
    assert_eq!(count.score(Scoring::Area), 28.0 - 21.0 - 0.5);
    assert_eq!(count.score(Scoring::Territory), 20.0 - 13.0 - 0.5);
    // Without the dead stone the same position has nothing to remove.
    let clean = g
        .parse_state("X.XXO.O/XX.XOO./...XO../...XO../...XO../...XO../...XO.. b - 0.5 0 0 0 0")
        .unwrap();
    assert!(dead_stones(&g, &clean, 300, 7).is_empty());
}

#[test]
fn notation_errors_are_typed() {
    let g = GoGame::new(5).unwrap();
    assert!(matches!(
        g.parse_state(""),
        Err(NotationError::Empty { .. })
    ));
    for bad in [
        "...../...../...../...../.... b - 7.5",
        "...../...../...../...../..... x - 7.5",
        "...../...../...../...../..Z.. b - 7.5",
        "...../...../...../...../..... b - 7.25",
        "...../...../...../...../..... b Z9 7.5",
        "...../...../...../...../..... b C3 7.5",
        "XO.../O..../...../...../..... b - 7.5",
        "...../...../...../...../..... b - 7.5 3 0 0 0",
    ] {
        assert!(g.parse_state(bad).is_err(), "{bad}");
    }
    assert_eq!(Vertex::parse_gtp("", 9), Err(VertexError::Empty));
    assert!(matches!(
        Vertex::parse_gtp("I5", 9),
        Err(VertexError::LetterI(_))
    ));
    assert!(matches!(
        Vertex::parse_gtp("K1", 9),
        Err(VertexError::OffBoard { .. })
    ));
    assert!(matches!(
        Vertex::parse_gtp("A10", 9),
        Err(VertexError::OffBoard { .. })
    ));
    assert!(matches!(
        Vertex::parse_gtp("A0", 9),
        Err(VertexError::OffBoard { .. })
    ));
    assert!(matches!(
        Vertex::parse_gtp("5A", 9),
        Err(VertexError::Syntax(_))
    ));
    assert!(matches!(
        Vertex::parse_gtp("A1x", 9),
        Err(VertexError::Syntax(_))
    ));
    assert_eq!(Vertex::parse_gtp("PASS", 9), Ok(Vertex::PASS));
    assert_eq!(Vertex::parse_gtp("t19", 19).unwrap().to_gtp(19), "T19");
    assert_eq!(Vertex::parse_gtp("j9", 9).unwrap().to_gtp(9), "J9");
    let s = g.initial_state();
    let r = g.render(&s);
    assert!(
        r.contains(" A B C D E") && r.contains(" 5 ") && r.contains("komi 7.5"),
        "{r}"
    );
    assert!(GoGame::new(20).is_err() && GoGame::new(1).is_err());
    assert_eq!(GoGame::from_name("go:13").unwrap().size(), 13);
    assert_eq!(GoGame::from_name("go-7x7").unwrap().size(), 7);
    assert_eq!(GoGame::from_name("go").unwrap().size(), 9);
    assert!(GoGame::from_name("go:7x9").is_none());
}

#[test]
fn two_passes_end_the_game_and_the_move_limit_too() {
    let g = GoGame::with_rules(
        5,
        Rules {
            max_moves: Some(3),
            ..Rules::default()
        },
    )
    .unwrap();
    let mut s = g.initial_state();
    play(&g, &mut s, "C3");
    play(&g, &mut s, "pass");
    assert!(!g.is_terminal(&s));
    play(&g, &mut s, "pass");
    assert!(g.is_terminal(&s));
    let g = GoGame::new(5).unwrap();
    let mut s = g.initial_state();
    play(&g, &mut s, "pass");
    play(&g, &mut s, "C3");
    play(&g, &mut s, "pass");
    assert!(!g.is_terminal(&s), "passes must be consecutive");
    play(&g, &mut s, "pass");
    assert!(g.is_terminal(&s));
    assert!(g.play(&mut s, Vertex::PASS).is_err());
}
