//! Connect four: win detection in every direction, draws, hashing and the fast sampler.

use std::collections::{HashMap, HashSet};

use yomi_classic::connect_four::{has_four, winning_cells};
use yomi_classic::{ConnectFour, ConnectFourState};
use yomi_core::{Game, Player, Rng, Turn};

/// Plays `moves`; checks that the game is over exactly after the last one, won by `winner`.
fn wins(moves: &str, winner: Player) {
    let game = ConnectFour;
    let before = ConnectFour::state_from_moves(&moves[..moves.len() - 1]).unwrap();
    assert!(!game.is_terminal(&before), "{moves}: over too early");
    let s = ConnectFour::state_from_moves(moves).unwrap();
    assert_eq!(game.turn(&s), Turn::Terminal, "{moves}");
    assert_eq!(s.winner(), Some(winner), "{moves}");
    let expected = if winner == Player(0) { 1.0 } else { -1.0 };
    assert_eq!(game.returns(&s).get(Player(0)), expected);
    // The parsed notation agrees.
    assert_eq!(game.parse_state(&game.format_state(&s)).unwrap(), s);
}

#[test]
fn wins_in_every_direction() {
    wins("1122334", Player(0)); // horizontal, a1-d1
    wins("1122443", Player(0)); // horizontal, completed in the middle (c1)
    wins("7766554", Player(0)); // horizontal at the right edge, d1-g1
    wins("1212121", Player(0)); // vertical, a1-a4
    wins("21213141", Player(1)); // vertical for o
    wins("7676767", Player(0)); // vertical in the last column
    wins("12234334544", Player(0)); // diagonal up-right, a1-b2-c3-d4
    wins("76654554344", Player(0)); // diagonal up-left, g1-f2-e3-d4
}

#[test]
fn no_lines_across_column_edges() {
    let bit = |col: u32, row: u32| 1u64 << (7 * col + row);
    // The top three of column a and the bottom of column b are consecutive bits but no line.
    assert!(!has_four(bit(0, 3) | bit(0, 4) | bit(0, 5) | bit(1, 0)));
    // Diagonal-looking runs that wrap around the board's top edge.
    assert!(!has_four(bit(0, 5) | bit(1, 0) | bit(2, 1) | bit(3, 2)));
    assert!(!has_four(bit(0, 4) | bit(0, 5) | bit(1, 0) | bit(1, 1)));
    assert!(has_four(bit(2, 5) | bit(3, 5) | bit(4, 5) | bit(5, 5)));
    assert!(has_four(bit(6, 2) | bit(5, 3) | bit(4, 4) | bit(3, 5)));
    // Threat cells: x has a1, b1, c1; d1 completes (a1's left has no cell).
    let x = bit(0, 0) | bit(1, 0) | bit(2, 0);
    assert_eq!(winning_cells(x, x | bit(0, 1)), bit(3, 0));
}

#[test]
fn full_board_is_a_draw() {
    let game = ConnectFour;
    let s = game
        .parse_state("ooxxoox/xxooxxo/ooxxoox/xxooxxo/ooxxoox/xxooxxo x")
        .unwrap();
    assert_eq!(game.turn(&s), Turn::Terminal);
    assert_eq!(s.winner(), None);
    assert_eq!(s.moves_played(), 42);
    assert_eq!(game.returns(&s).as_slice(), &[0.0, 0.0]);
    let mut moves = Vec::new();
    game.legal_moves(&s, &mut moves);
    assert!(moves.is_empty());
    assert_eq!(
        game.random_move(&s, &mut Rng::seed_from_u64(1), &mut moves),
        None
    );
    // Random games that fill the board end in draws or wins, never in a stuck state.
    let mut rng = Rng::seed_from_u64(2);
    let mut draws = 0;
    for _ in 0..20_000 {
        let mut s = game.initial_state();
        while let Some(mv) = game.random_move(&s, &mut rng, &mut moves) {
            game.apply(&mut s, mv);
        }
        if s.winner().is_none() {
            assert_eq!(s.moves_played(), 42);
            draws += 1;
        }
    }
    assert!(draws > 0, "random play draws now and then");
}

#[test]
fn transpositions_hash_equal() {
    let game = ConnectFour;
    let a = ConnectFour::state_from_moves("4453").unwrap();
    let b = ConnectFour::state_from_moves("5344").unwrap();
    assert_eq!(a, b);
    assert_eq!(game.hash(&a), game.hash(&b));
    let c = ConnectFour::state_from_moves("4435").unwrap();
    assert_ne!(a, c);
    assert_ne!(game.hash(&a), game.hash(&c));
    // Over every position up to 7 plies: equal states hash equally and distinct states
    // have distinct keys and (with overwhelming likelihood) distinct hashes.
    let mut seen: HashMap<ConnectFourState, u64> = HashMap::new();
    let mut layer = vec![game.initial_state()];
    let mut moves = Vec::new();
    for _ in 0..7 {
        let mut next = Vec::new();
        for s in &layer {
            game.legal_moves(s, &mut moves);
            for &m in &moves {
                let mut t = *s;
                game.apply(&mut t, m);
                if let Some(&h) = seen.get(&t) {
                    assert_eq!(h, game.hash(&t));
                } else {
                    seen.insert(t, game.hash(&t));
                    next.push(t);
                }
            }
        }
        layer = next;
    }
    let keys: HashSet<u64> = seen.keys().map(|s| s.key()).collect();
    let hashes: HashSet<u64> = seen.values().copied().collect();
    assert_eq!(keys.len(), seen.len());
    assert_eq!(hashes.len(), seen.len());
}

#[test]
fn random_move_is_uniform_over_open_columns() {
    let game = ConnectFour;
    let mut rng = Rng::seed_from_u64(4);
    let mut buf = Vec::new();
    // Columns a and c are full.
    let s = ConnectFour::state_from_moves("111111333333").unwrap();
    let mut counts = [0u32; 7];
    for _ in 0..50_000 {
        counts[game.random_move(&s, &mut rng, &mut buf).unwrap().index() as usize] += 1;
    }
    assert_eq!((counts[0], counts[2]), (0, 0));
    for c in [1, 3, 4, 5, 6] {
        assert!((9_000..11_000).contains(&counts[c]), "{counts:?}");
    }
    assert!(buf.is_empty(), "the sampler does not use the move buffer");
}

#[test]
fn state_is_small_copy_data() {
    assert!(std::mem::size_of::<ConnectFourState>() <= 24);
    fn is_copy<T: Copy>() {}
    is_copy::<ConnectFourState>();
}

#[test]
fn accessors_describe_the_position() {
    let s = ConnectFour::state_from_moves("4453").unwrap();
    assert_eq!(s.to_move(), Player(0));
    assert_eq!(s.at(3, 0), Some(Player(0)));
    assert_eq!(s.at(3, 1), Some(Player(1)));
    assert_eq!(s.at(2, 0), Some(Player(1)));
    assert_eq!(s.at(4, 0), Some(Player(0)));
    assert_eq!(s.at(0, 0), None);
    assert_eq!(s.at(9, 0), None);
    assert_eq!(s.discs(Player(0)) | s.discs(Player(1)), s.mask());
    assert_eq!(s.discs(Player(0)).count_ones(), 2);
    assert_eq!(s.playable().count_ones(), 7);
}
