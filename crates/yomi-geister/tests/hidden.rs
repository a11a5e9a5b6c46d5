//! Hidden information is sealed: no agent, whatever it does with the state it is handed,
//! can read the opponent's colours. Every registered agent is asked to move in pairs of
//! true states that differ only in the opponent's hidden colours (and so look the same to
//! the mover); through the arena it must choose the same move in both.

use yomi_core::arena::play_game_from;
use yomi_core::{Agent, Game, Player, Rng, Turn};
use yomi_geister::Geister;

/// A small budget for each registered agent kind (the bare name for any other).
fn quick_spec(name: &str) -> String {
    match name {
        "mcts" => "mcts:iters=150".into(),
        "flatmc" => "flatmc:n=6".into(),
        "alphabeta" => "alphabeta:depth=3".into(),
        "estimate" => "estimate:iters=150".into(),
        other => other.into(),
    }
}

/// Positions after some random moves, with the player to move.
fn positions(game: &Geister, count: usize, seed: u64) -> Vec<(yomi_geister::GeisterState, Player)> {
    let mut rng = Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut s = game.initial_state();
        let plies = 2 + rng.below(30);
        for _ in 0..plies {
            if game.is_terminal(&s) {
                break;
            }
            game.legal_moves(&s, &mut moves);
            let mv = moves[rng.below(moves.len())];
            game.apply(&mut s, mv);
        }
        if let Turn::Player(p) = game.turn(&s) {
            out.push((s, p));
        }
    }
    out
}

/// The move `spec` plays for `mover` from the true state `start`, through the arena.
fn arena_move(
    game: &Geister,
    spec: &str,
    start: yomi_geister::GeisterState,
    mover: Player,
) -> String {
    let registry = yomi_geister::registry();
    let mut seats: Vec<Box<dyn Agent<Geister>>> = (0..2)
        .map(|seat| {
            let s = if seat == mover.index() {
                spec
            } else {
                "random"
            };
            registry.build(game, s, 11).unwrap()
        })
        .collect();
    let played = play_game_from(game, start, &mut seats, 1, |_, _| {}).unwrap();
    played.moves[0].clone()
}

#[test]
fn no_agent_sees_the_opponents_colours() {
    for game in [Geister::standard(), Geister::mini()] {
        let registry = yomi_geister::registry();
        let names: Vec<String> = registry
            .entries()
            .iter()
            .map(|e| e.name.clone())
            .filter(|n| !registry.is_interactive(n))
            .collect();
        let mut rng = Rng::seed_from_u64(3);
        for (state, mover) in positions(&game, 6, 9) {
            // Two more true states the mover cannot tell from this one.
            let twins: Vec<_> = (0..2)
                .map(|_| game.determinize(&state, mover, &mut rng))
                .collect();
            for twin in &twins {
                assert_eq!(
                    game.observation(twin, mover),
                    game.observation(&state, mover)
                );
            }
            for name in &names {
                let spec = quick_spec(name);
                let first = arena_move(&game, &spec, state, mover);
                for twin in &twins {
                    assert_eq!(
                        arena_move(&game, &spec, *twin, mover),
                        first,
                        "{spec} on {} chose differently when only hidden colours changed",
                        game.name()
                    );
                }
            }
        }
    }
}

#[test]
fn an_opponents_set_up_is_told_to_agents_without_its_colours() {
    let game = Geister::standard();
    let s = game.initial_state();
    let mut moves = Vec::new();
    game.legal_moves(&s, &mut moves);
    let secret = moves[37];
    let seen = game.move_seen_by(&s, Player(0), secret, Player(1));
    assert_ne!(seen, secret);
    assert_eq!(game.move_seen_by(&s, Player(0), moves[12], Player(1)), seen);
    assert_eq!(game.move_seen_by(&s, Player(0), secret, Player(0)), secret);
}
