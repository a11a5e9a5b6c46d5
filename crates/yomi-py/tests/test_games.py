"""The pyspiel-shaped game API over every kind of yomi game."""

import copy
import pickle
import random

import numpy as np
import pytest

import yomi

# One name of each kind of game (hidden information, several moves per turn,
# simultaneous GDL turns, every board game).
EVERY_KIND = [
    "tictactoe",
    "connect4",
    "breakthrough-5x5",
    "breakthrough:4x5",
    "othello",
    "go:5",
    "go",
    "geister",
    "geister-perfect",
    "geister-mini",
    "tubstap:duel",
    "ggp:tictactoe",
    "ggp:connect4",
]


def play_randomly(state, rng, max_moves):
    """Random legal moves, checking the pyspiel contract at every step."""
    game = state.game()
    for _ in range(max_moves):
        if state.is_terminal():
            assert state.current_player() == yomi.TERMINAL
            assert state.legal_actions() == []
            break
        player = state.current_player()
        if player == yomi.SIMULTANEOUS:
            assert state.is_simultaneous_node()
            joint = []
            for p in range(state.num_players()):
                legal = state.legal_actions(p)
                assert legal, f"player {p} has no action at a simultaneous turn"
                joint.append(rng.choice(legal))
            state.apply_actions(joint)
            continue
        legal = state.legal_actions()
        assert legal == sorted(set(legal)), "legal actions are sorted and distinct"
        assert all(0 <= a < game.num_distinct_actions() for a in legal)
        mask = state.legal_actions_mask()
        assert mask.dtype == np.bool_ and mask.shape == (game.num_distinct_actions(),)
        assert list(np.flatnonzero(mask)) == legal
        for p in range(state.num_players()):
            if p != player:
                assert state.legal_actions(p) == []
        action = rng.choice(legal)
        text = state.action_to_string(action)
        assert state.string_to_action(text) == action
        assert state.action_to_string(player, action) == text
        before = state.clone()
        state.apply_action(action)
        assert before.move_number() + 1 == state.move_number()
        assert before.history() + [action] == state.history()
    return state


@pytest.mark.parametrize("name", EVERY_KIND)
def test_random_games_follow_the_pyspiel_contract(name):
    game = yomi.load_game(name)
    assert game.num_players() >= 1
    rng = random.Random(7)
    state = play_randomly(game.new_initial_state(), rng, 400)
    returns = state.returns()
    assert len(returns) == game.num_players()
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
    assert str(state)
    text = state.serialize()
    assert game.deserialize_state(text).serialize() == text


def test_every_listed_game_loads():
    names = yomi.games()
    assert "connect4" in names and "othello" in names
    for name in names:
        game = yomi.load_game(name.replace("WxH", "6x5"))
        assert game.new_initial_state().current_player() >= 0 or game.is_simultaneous()
    details = yomi.games(details=True)
    assert details[0]["name"] == names[0] and details[0]["summary"]


def test_a_rule_sheet_file_is_a_game(repo_root):
    path = repo_root / "crates/yomi-ggp/games/crisscross.kif"
    game = yomi.load_game(f"ggp:{path}")
    play_randomly(game.new_initial_state(), random.Random(1), 50)


def test_unknown_game_lists_the_accepted_names():
    with pytest.raises(ValueError, match="accepted: tictactoe, connect4"):
        yomi.load_game("chess")
    with pytest.raises(ValueError, match="built-in maps"):
        yomi.load_game("tubstap:nowhere.tbsmap")


def test_illegal_action_names_the_legal_ones():
    state = yomi.load_game("tictactoe").new_initial_state()
    state.apply_action(4)
    with pytest.raises(yomi.IllegalActionError, match=r"legal: 0 \(a1\)") as e:
        state.apply_action(4)
    assert isinstance(e.value, ValueError)
    with pytest.raises(ValueError):
        state.apply_action(-1)
    with pytest.raises(ValueError, match="legal"):
        state.string_to_action("z9")
    assert state.move_number() == 1, "a refused action changes nothing"


def test_tictactoe_end_to_end():
    game = yomi.load_game("tictactoe")
    assert (game.num_players(), game.num_distinct_actions()) == (2, 9)
    assert game.observation_tensor_shape() is not None
    state = game.new_initial_state()
    for move in ["a1", "b1", "a2", "b2", "a3"]:
        state.apply_move(move)
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    assert state.current_player() == yomi.TERMINAL
    assert state.history_str() == ["a1", "b1", "a2", "b2", "a3"]
    assert "x" in str(state).lower()


def test_clones_are_independent():
    state = yomi.load_game("connect4").new_initial_state()
    state.apply_action(3)
    for other in [state.clone(), copy.copy(state), copy.deepcopy(state)]:
        other.apply_action(3)
        assert state.move_number() == 1 and other.move_number() == 2


@pytest.mark.parametrize("name,shape", [("connect4", None), ("othello", None), ("go", None)])
def test_observation_tensors_are_numpy(name, shape):
    game = yomi.load_game(name)
    shape = tuple(game.observation_tensor_shape())
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    t = state.observation_tensor()
    assert t.dtype == np.float32 and t.shape == shape
    assert np.isfinite(t).all()
    t[...] = 0  # a fresh, writable array
    assert state.observation_tensor(0).shape == shape
    assert game.observation_tensor_size() == int(np.prod(shape))


def test_hidden_information_shows_only_what_a_player_sees():
    game = yomi.load_game("geister")
    assert not game.has_perfect_information()
    # The same set-up for player 0, two different ones for player 1.
    states = []
    for pick in (0, -1):
        state = game.new_initial_state()
        state.apply_action(state.legal_actions()[0])
        state.apply_action(state.legal_actions()[pick])
        states.append(state)
    a, b = states
    assert str(a) != str(b), "the referee sees both set-ups"
    assert a.observation_string(0) == b.observation_string(0)
    assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
    assert a.observation_string(1) != b.observation_string(1)
    assert not np.array_equal(a.observation_tensor(1), b.observation_tensor(1))
    assert yomi.load_game("geister-perfect").has_perfect_information()


def test_games_pickle_by_name():
    game = yomi.load_game("breakthrough:5x4")
    again = pickle.loads(pickle.dumps(game))
    assert again == game and again.name() == game.name()
