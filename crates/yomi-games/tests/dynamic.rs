//! The dynamic interface on every listed game: OpenSpiel's RandomSimTest checks through
//! [`DynState`], agents through [`DynAgent`], and the errors users see.

use yomi_core::Rng;
use yomi_games::{load_game, Actor, DynError, DynGame, DynState, BUILT_IN};

/// Every name `yomi games` lists (with a concrete size for the `WxH` pattern).
fn listed_names() -> Vec<String> {
    BUILT_IN
        .iter()
        .map(|g| g.name.replace("WxH", "6x5"))
        .collect()
}

/// Plays `games` random games through the dynamic interface, checking each step.
fn random_sim(game: &dyn DynGame, games: usize, seed: u64, max_steps: usize) {
    let mut rng = Rng::seed_from_u64(seed);
    let n = game.num_actions();
    let players = game.facts().players;
    let mut mask = vec![false; n];
    let mut obs = game.tensor_shape().map(|s| vec![0f32; s.len()]);
    for _ in 0..games {
        let mut state = game.new_initial_state();
        let mut steps = 0;
        while !state.is_terminal() && steps < max_steps {
            let mut joint = Vec::new();
            for p in 0..players {
                let legal = state.legal_actions(p);
                assert!(legal.windows(2).all(|w| w[0] < w[1]), "sorted, distinct");
                assert!(legal.iter().all(|&a| a < n), "below num_actions");
                state.legal_mask(p, &mut mask);
                assert_eq!(mask.iter().filter(|&&b| b).count(), legal.len());
                assert!(legal.iter().all(|&a| mask[a]));
                for &a in legal.iter().take(8) {
                    let text = state.action_to_string(p, a).unwrap();
                    assert_eq!(state.string_to_action(p, &text).unwrap(), a, "{text}");
                }
                if let Some(buf) = obs.as_mut() {
                    buf.fill(f32::NAN);
                    state.observation_tensor(p, buf).unwrap();
                    assert!(buf.iter().all(|v| v.is_finite()));
                }
                let _ = state.observation_string(p);
                match state.actor() {
                    Actor::Player(q) if q != p => assert!(legal.is_empty()),
                    Actor::Player(_) | Actor::Simultaneous => {
                        assert!(!legal.is_empty(), "a player who acts has actions");
                        joint.push(legal[rng.below(legal.len())]);
                    }
                    Actor::Terminal => unreachable!(),
                }
            }
            let before = state.clone();
            match state.actor() {
                Actor::Player(_) => state.apply_action(joint[0]).unwrap(),
                _ => state.apply_actions(&joint).unwrap(),
            }
            // The clone is independent and replays to the same state.
            assert_eq!(before.history().len() + 1, state.history().len());
            let mut again = before.clone();
            match again.actor() {
                Actor::Player(_) => again.apply_action(joint[0]).unwrap(),
                _ => again.apply_actions(&joint).unwrap(),
            }
            assert_eq!(again.serialize(), state.serialize());
            let read = game.state_from_string(&state.serialize()).unwrap();
            assert_eq!(read.serialize(), state.serialize());
            steps += 1;
        }
        if state.is_terminal() {
            assert_eq!(state.returns().len(), players);
            assert_eq!(state.actor(), Actor::Terminal);
            assert!(state.legal_actions(0).is_empty());
        }
    }
}

#[test]
fn every_listed_game_plays_through_the_dynamic_interface() {
    for name in listed_names() {
        let game = load_game(&name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (games, steps) = if name.starts_with("tubstap") || name.starts_with("go:19") {
            (1, 60)
        } else {
            (3, 400)
        };
        random_sim(game.as_ref(), games, 7, steps);
    }
}

#[test]
fn an_agent_steps_and_analyses_on_every_listed_game() {
    for name in listed_names() {
        let game = load_game(&name).unwrap();
        let mut state = game.new_initial_state();
        let Actor::Player(p) = state.actor() else {
            continue;
        };
        let mut agent = game.new_agent("mcts:iters=60", 3).unwrap();
        let a = agent.step(state.as_ref(), p).unwrap();
        assert!(state.legal_actions(p).contains(&a), "{name}");
        let analysis = agent.analyse(state.as_ref(), p).unwrap().unwrap();
        assert_eq!(analysis.player, p);
        assert!(analysis.iterations >= 60, "{name}");
        let visits: u64 = analysis.actions.iter().map(|x| x.visits).sum();
        assert!(visits > 0, "{name}");
        assert!(analysis
            .actions
            .iter()
            .all(|x| state.legal_actions(p).contains(&x.action)));
        assert!(!analysis.pv.is_empty(), "{name}");
        agent.observe(state.as_ref(), p, &[a]);
        state.apply_action(a).unwrap();
    }
}

#[test]
fn tictactoe_actions_are_cells_and_mcts_finds_the_win() {
    let game = load_game("tictactoe").unwrap();
    assert_eq!(game.num_actions(), 9);
    let mut state = game.new_initial_state();
    for m in ["a1", "b1", "a2", "b2"] {
        let a = state
            .string_to_action(state_player(state.as_ref()), m)
            .unwrap();
        state.apply_action(a).unwrap();
    }
    let mut agent = game.new_agent("mcts:iters=2000", 1).unwrap();
    let a = agent.step(state.as_ref(), 0).unwrap();
    assert_eq!(state.action_to_string(0, a).unwrap(), "a3");
    let analysis = agent.analyse(state.as_ref(), 0).unwrap().unwrap();
    let best = analysis.actions.iter().max_by_key(|x| x.visits).unwrap();
    assert_eq!(best.text, "a3");
    assert!(best.value.unwrap() > 0.9);
    assert_eq!(analysis.pv[0], "a3");
}

#[test]
fn a_recipe_is_resolved_once_and_builds_fresh_agents_that_replay_with_their_seed() {
    let game = load_game("connect4").unwrap();
    let recipe = game.recipe("mcts: iters=300").unwrap();
    assert_eq!(recipe.spec(), "mcts:iters=300", "the canonical spec");
    let state = game.new_initial_state();
    let play = |seed| {
        let mut agent = recipe.build(seed);
        agent.step(state.as_ref(), 0).unwrap()
    };
    // Agents of one recipe are independent: the same seed makes the same choice however
    // many agents were built before.
    let first = play(9);
    for seed in 0..3 {
        play(seed);
    }
    assert_eq!(play(9), first);
    // Every failure is at resolution, with the game named.
    let Err(DynError::BadName(e)) = game.recipe("mcts:iters=-1") else {
        panic!("a negative iteration count resolves")
    };
    assert!(e.starts_with("connect4") && e.contains("iters"), "{e}");
    assert!(game.recipe("human").is_err(), "human reads a terminal");
    assert!(game.check_agent("mcts:c=0.5").is_ok());
}

fn state_player(state: &dyn DynState) -> usize {
    match state.actor() {
        Actor::Player(p) => p,
        a => panic!("{a:?}"),
    }
}

#[test]
fn errors_name_what_is_accepted() {
    let Err(DynError::BadName(e)) = load_game("chess") else {
        panic!("chess loads")
    };
    assert!(e.contains("tictactoe") && e.contains("connect4"), "{e}");
    let game = load_game("connect4").unwrap();
    let Err(DynError::BadName(e)) = game.new_agent("mtcs", 0) else {
        panic!("bad agent builds")
    };
    assert!(e.contains("mcts") && e.contains("random"), "{e}");
    assert!(
        game.new_agent("human", 0).is_err(),
        "human reads a terminal"
    );
    let mut state = game.new_initial_state();
    let Err(DynError::Illegal(e)) = state.apply_action(7) else {
        panic!("action 7 of 7 columns applied")
    };
    assert!(e.contains("legal: 0 (a)") && e.contains("6 (g)"), "{e}");
    // A full column is refused and the state is unchanged.
    for _ in 0..6 {
        state.apply_action(0).unwrap();
    }
    let before = state.serialize();
    assert!(matches!(state.apply_action(0), Err(DynError::Illegal(_))));
    assert_eq!(state.serialize(), before);
    assert!(state.string_to_action(0, "z").is_err());
    let mut buf = vec![0f32; 3];
    assert!(matches!(
        state.observation_tensor(0, &mut buf),
        Err(DynError::Unsupported(_))
    ));
    let tub = load_game("tubstap").unwrap();
    let s = tub.new_initial_state();
    assert!(
        matches!(
            s.observation_tensor(0, &mut buf),
            Err(DynError::Unsupported(_))
        ) || tub.tensor_shape().is_some()
    );
    assert!(matches!(
        game.state_from_string("not a board"),
        Err(DynError::BadState(_))
    ));
}

/// Matching pennies in GDL: both roles pick at once.
const PENNIES: &str = "(role a) (role b) (init (round 0))
(<= (legal ?r (pick 1)) (role ?r)) (<= (legal ?r (pick 2)) (role ?r))
(<= (next (played ?r ?x)) (does ?r (pick ?x))) (<= (next done) (true (round 0)))
(<= terminal (true done))
(<= same (true (played a ?x)) (true (played b ?x)))
(<= (goal a 100) same) (<= (goal a 0) (not same))
(<= (goal b 0) same) (<= (goal b 100) (not same))";

#[test]
fn simultaneous_gdl_turns_take_one_action_per_player() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pennies.kif");
    std::fs::write(&path, PENNIES).unwrap();
    let game = load_game(&format!("ggp:{}", path.display())).unwrap();
    let mut state = game.new_initial_state();
    assert_eq!(state.actor(), Actor::Simultaneous);
    assert!(matches!(
        state.apply_action(0),
        Err(DynError::Unsupported(_))
    ));
    let joint: Vec<usize> = (0..2).map(|p| state.legal_actions(p)[0]).collect();
    assert!(state.apply_actions(&joint[..1]).is_err());
    state.apply_actions(&joint).unwrap();
    assert_eq!(state.history_texts().len(), 1);
    assert!(state.is_terminal());
    assert_eq!(state.returns(), vec![100.0, 0.0]);
}

#[test]
fn geister_observations_hide_the_opponents_colours() {
    let game = load_game("geister").unwrap();
    let mut state = game.new_initial_state();
    let mut rng = Rng::seed_from_u64(5);
    for _ in 0..6 {
        assert!(state.random_rollout_step(&mut rng));
    }
    // Every full state consistent with what player 0 sees gives player 0 the same
    // observation: the two players' views differ, and neither equals the referee's.
    let o0 = state.observation_string(0);
    let o1 = state.observation_string(1);
    assert_ne!(o0, o1);
    assert_ne!(o0, state.serialize());
    let shape = game.tensor_shape().unwrap();
    let mut t0 = vec![0f32; shape.len()];
    state.observation_tensor(0, &mut t0).unwrap();
}
