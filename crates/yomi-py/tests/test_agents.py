"""Agents, search, errors and the GIL."""

import threading
import time

import pytest

import yomi


def test_agent_steps_for_any_game():
    agent = yomi.Agent("mcts:iters=300", seed=1)
    for name in ["tictactoe", "connect4", "othello"]:
        state = yomi.load_game(name).new_initial_state()
        action = agent.step(state)
        assert action in state.legal_actions()


def test_agents_are_seeded():
    state = yomi.load_game("connect4").new_initial_state()
    picks = {yomi.Agent("mcts:iters=200", "connect4", seed=5).step(state) for _ in range(3)}
    assert len(picks) == 1


def test_alpha_beta_finds_the_win():
    state = yomi.load_game("tictactoe").new_initial_state()
    for move in ["a1", "b1", "a2", "b2"]:
        state.apply_move(move)
    agent = yomi.Agent("alphabeta:depth=4", "tictactoe")
    assert state.action_to_string(agent.step(state)) == "a3"


def test_search_returns_visits_and_values():
    state = yomi.load_game("tictactoe").new_initial_state()
    for move in ["a1", "b1", "a2", "b2"]:
        state.apply_move(move)
    a = yomi.search(state, "mcts:iters=2000", seed=1)
    assert a["player"] == 0
    assert set(a["visits"]) == set(state.legal_actions())
    assert sum(a["visits"].values()) >= 1900
    win = state.string_to_action("a3")
    assert a["best"] == win
    assert a["values"][win] > 0.9
    assert a["pv"][0] == "a3"
    assert {m["move"] for m in a["actions"]} == set(state.legal_moves())
    agent = yomi.Agent("mcts:iters=500")
    assert agent.analyse(state)["best"] == win
    assert yomi.Agent("random").analyse(state) is None
    with pytest.raises(ValueError, match="keeps no search statistics"):
        yomi.search(state, "random")


def test_unknown_agents_and_parameters_list_what_exists():
    with pytest.raises(ValueError, match="mcts") as e:
        yomi.Agent("montecarlo", "connect4")
    assert "alphabeta" in str(e.value)
    with pytest.raises(ValueError, match="iters"):
        yomi.Agent("mcts:iterations=5", "connect4")
    with pytest.raises(ValueError):
        yomi.Agent("mcts:iters=")
    lazy = yomi.Agent("montecarlo")
    with pytest.raises(ValueError, match="alphabeta"):
        lazy.step(yomi.load_game("tictactoe").new_initial_state())
    names = [a["name"] for a in yomi.load_game("connect4").agents()]
    assert "mcts" in names and "random" in names


def test_the_gil_is_released_while_a_search_runs():
    state = yomi.load_game("connect4").new_initial_state()
    agent = yomi.Agent("mcts:iters=400000", "connect4")
    done = threading.Event()
    counts = [0]

    def search():
        agent.step(state)
        done.set()

    t = threading.Thread(target=search)
    t.start()
    start = time.perf_counter()
    while not done.is_set():
        counts[0] += 1
    elapsed = time.perf_counter() - start
    t.join()
    assert elapsed > 0.05, "the search was too quick to tell"
    # With the GIL held by the search this loop could not have run at all.
    assert counts[0] > 10_000, counts


def test_a_rust_panic_is_a_python_exception():
    with pytest.raises(yomi.RustPanic, match="panic"):
        yomi._yomi._panic_for_tests()
    with pytest.raises(RuntimeError):
        yomi._yomi._panic_for_tests()
    # The interpreter and the package still work.
    assert yomi.load_game("tictactoe").num_players() == 2
