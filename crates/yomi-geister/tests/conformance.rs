//! Core's conformance suite and the tensor-encoding check on every variant, plus
//! determinization consistency.

use yomi_core::encoding::check_tensor_game;
use yomi_core::testing::{check_game, Conformance};
use yomi_core::{ActionSpace, Game, Player, Rng, TensorGame};
use yomi_geister::Geister;

fn cfg(games: usize) -> Conformance {
    Conformance {
        games,
        ..Conformance::default()
    }
}

#[test]
fn standard_conforms() {
    check_game(&Geister::standard(), &cfg(30));
    check_game(&Geister::standard().with_max_plies(200), &cfg(10));
}

#[test]
fn perfect_conforms() {
    check_game(&Geister::perfect(), &cfg(30));
}

#[test]
fn mini_conforms() {
    check_game(&Geister::mini(), &cfg(60));
}

#[test]
fn tensor_encodings_check() {
    for (g, policy, len) in [
        (Geister::perfect(), 122, 4 * 36),
        (Geister::standard(), 122, 9 * 36),
        (Geister::mini(), 64, 3 * 25),
    ] {
        assert_eq!(g.num_actions(), policy);
        assert_eq!(g.tensor_shape().len(), len);
        check_tensor_game(&g, 20, 7);
    }
}

/// A determinization keeps everything the observer sees, keeps the observer's own colours,
/// moves no ghost, and keeps the opponent's colour counts; over many samples every hidden
/// ghost is sometimes red and sometimes blue.
#[test]
fn determinizations_are_consistent_and_vary() {
    for game in [Geister::standard(), Geister::mini()] {
        let mut rng = Rng::seed_from_u64(3);
        let mut moves = Vec::new();
        for _ in 0..6 {
            let mut s = game.initial_state();
            while !game.is_terminal(&s) {
                for obs in [Player(0), Player(1)] {
                    let q = obs.opponent();
                    let mut red_seen = 0u64;
                    let mut blue_seen = 0u64;
                    // 1/8 chance per sample at worst: (7/8)^150 < 1e-8 to miss a colour.
                    for i in 0..150 {
                        let d = game.determinize(&s, obs, &mut rng);
                        if i < 5 {
                            assert_eq!(game.observation(&d, obs), game.observation(&s, obs));
                        }
                        assert_eq!(d.blue(obs), s.blue(obs));
                        assert_eq!(d.red(obs), s.red(obs));
                        assert_eq!(d.blue(q) | d.red(q), s.blue(q) | s.red(q));
                        assert_eq!(d.red(q).count_ones(), s.red(q).count_ones());
                        red_seen |= d.red(q);
                        blue_seen |= d.blue(q);
                    }
                    // With both colours left, every hidden ghost gets both colours.
                    if s.red(q) != 0 && s.blue(q) != 0 {
                        let on = s.red(q) | s.blue(q);
                        assert_eq!(red_seen, on, "{}", game.format_state(&s));
                        assert_eq!(blue_seen, on, "{}", game.format_state(&s));
                    }
                }
                game.legal_moves(&s, &mut moves);
                game.apply(&mut s, moves[rng.below(moves.len())]);
            }
        }
    }
}

#[test]
fn perfect_information_is_not_hidden() {
    let game = Geister::perfect();
    let mut rng = Rng::seed_from_u64(1);
    let s = game.random_setup_state(&mut rng);
    assert_eq!(game.determinize(&s, Player(1), &mut rng), s);
    assert_eq!(game.observation(&s, Player(1)), game.format_state(&s));
}
