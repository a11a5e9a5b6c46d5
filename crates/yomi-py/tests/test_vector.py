"""VectorEnv and the PettingZoo AEC wrapper."""

import numpy as np
import pytest

import yomi


def random_actions(mask, rng):
    """One uniformly random legal action per row of `mask`."""
    scores = rng.random(mask.shape) * mask
    return scores.argmax(axis=1)


def test_vector_env_steps_resets_and_scores():
    env = yomi.VectorEnv("tictactoe", 16, seed=1)
    obs, mask, player = env.reset()
    assert obs.shape == (16,) + env.observation_shape and obs.dtype == np.float32
    assert mask.shape == (16, 9) and mask.all()
    assert (player == 0).all()
    initial_obs = obs[0].copy()
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(60):
        obs, rewards, done, mask, player = env.step(random_actions(mask, rng))
        assert rewards.shape == (16, 2) and done.shape == (16,)
        assert (rewards[~done] == 0).all()
        assert (rewards[done].sum(axis=1) == 0).all(), "zero-sum returns at the end"
        for i in np.flatnonzero(done):
            np.testing.assert_array_equal(obs[i], initial_obs)
            assert mask[i].all() and player[i] == 0
        finished += int(done.sum())
    assert finished >= 16 * 60 // 9
    lengths = env.episode_lengths()
    assert ((lengths >= 5) | (lengths == 0)).all()


def test_vector_env_matches_single_states():
    env = yomi.VectorEnv("connect4", 4, seed=3)
    obs, mask, player = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(5):
        obs, rewards, done, mask, player = env.step(random_actions(mask, rng))
    for i in range(4):
        state = env.state(i)
        np.testing.assert_array_equal(obs[i], state.observation_tensor())
        np.testing.assert_array_equal(mask[i], state.legal_actions_mask())
        assert player[i] == state.current_player()


def test_illegal_actions_in_a_batch_are_refused():
    env = yomi.VectorEnv("tictactoe", 2)
    env.step([4, 4])
    with pytest.raises(yomi.IllegalActionError, match="env 0: action 4 is not legal"):
        env.step([4, 0])
    with pytest.raises(ValueError, match="3 actions given for 2 games"):
        env.step([0, 1, 2])


def test_random_steps_are_seeded_and_thread_independent():
    def run(threads):
        env = yomi.VectorEnv("othello", 96, seed=9, threads=threads)
        out = []
        for _ in range(70):
            obs, rewards, done, mask, player = env.step_random()
            out.append((obs.sum(), rewards.sum(), done.sum(), player.sum()))
        return out

    one = run(1)
    assert run(2) == one
    assert sum(d for _, _, d, _ in one) > 0, "some games end within 70 moves"


def test_tubstap_steps_with_its_planes_and_gdl_is_refused():
    env = yomi.VectorEnv("tubstap:duel", 3)
    obs, rewards, done, mask, player = env.step_random()
    shape = yomi.load_game("tubstap:duel").observation_tensor_shape()
    assert obs.shape == (3, *shape) and mask.shape == (3, env.num_actions)
    with pytest.raises(ValueError, match="simultaneous"):
        yomi.VectorEnv("ggp:tictactoe", 2)


@pytest.mark.parametrize("name", ["tictactoe", "connect4", "go:5", "othello", "geister-mini", "breakthrough-5x5"])
def test_pettingzoo_api(name):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from yomi.pettingzoo import env

    api_test(env(name), num_cycles=200)


def test_pettingzoo_plays_to_the_end():
    pytest.importorskip("pettingzoo")
    from yomi.pettingzoo import env

    e = env("tictactoe")
    e.reset(seed=0)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        total[agent] += reward
        action = None if termination or truncation else int(np.flatnonzero(obs["action_mask"])[0])
        e.step(action)
    assert sum(total.values()) == 0 and set(total.values()) <= {-1.0, 0.0, 1.0}
    with pytest.raises(ValueError, match="no tensor encoding"):
        env("ggp:tictactoe")


def test_arrays_are_the_envs_own_unless_copied():
    env = yomi.VectorEnv("connect4", 4, seed=1)
    first = env.step_random()
    second = env.step_random()
    assert all(a is b for a, b in zip(first, second)), "copy=False reuses the env's arrays"
    kept = first[0].copy()
    env.step_random()
    assert not np.array_equal(kept, first[0]), "the next step overwrites them"
    env = yomi.VectorEnv("connect4", 4, seed=1, copy=True)
    first, second = env.step_random(), env.step_random()
    assert all(a is not b for a, b in zip(first, second))
    assert not np.array_equal(first[0], second[0])
