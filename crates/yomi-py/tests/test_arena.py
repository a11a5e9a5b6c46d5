"""Matches, tournaments and records as dicts."""

import json

import pytest

import yomi


def test_match_gives_standings_with_intervals(tmp_path):
    out = tmp_path / "m.jsonl"
    r = yomi.match("tictactoe", "mcts:iters=300", "random", games=10, seed=1, out=out)
    assert len(r.records) == 10 and r.played == 10
    top = r.standings[0]
    assert top["agent"] == "mcts:iters=300"
    assert top["games"] == 10 and top["wins"] + top["draws"] + top["losses"] == 10
    assert top["score_low"] <= top["score"] <= top["score_high"]
    assert top["elo_low"] <= top["elo"] <= top["elo_high"]
    assert "Wilson" in str(r) and "|" in r.report(markdown=True)
    # Colours alternate and the records file holds the same games, as plain dicts.
    assert r.records[1]["seats"] == ["random", "mcts:iters=300"]
    strip = lambda rs: [{k: v for k, v in r.items() if "seconds" not in k} for r in rs]
    records = sorted(yomi.read_records(out), key=lambda x: (x["pairing"], x["index"]))
    assert strip(records) == strip(r.records)
    json.dumps(records)
    assert {"game", "seats", "returns", "moves", "seed"} <= set(records[0])
    # Resuming plays nothing; the same seed gives the same games.
    again = yomi.match("tictactoe", "mcts:iters=300", "random", games=10, seed=1, out=out)
    assert (again.played, again.resumed) == (0, 10)
    fresh = yomi.match("tictactoe", "mcts:iters=300", "random", games=10, seed=1)
    assert strip(fresh.records) == strip(records)


def test_tournament_of_a_list_and_of_a_file(tmp_path):
    agents = ["random", "flatmc:n=10", "alphabeta:depth=2"]
    r = yomi.tournament("tictactoe", agents, games=4, seed=2)
    assert len(r.records) == 12 and len(r.standings) == 3
    assert r.cross_table["agents"] == agents
    toml = tmp_path / "t.toml"
    toml.write_text('game = "tictactoe"\nagents = ["random", "flatmc:n=10", "alphabeta:depth=2"]\ngames = 4\nseed = 2\n')
    assert yomi.tournament_config(toml) == ("tictactoe", dict(yomi.tournament_config(toml)[1]))
    from_file = yomi.tournament(toml)
    assert [x["moves"] for x in from_file.records] == [x["moves"] for x in r.records]
    bigger = yomi.tournament(toml, games=6)
    assert len(bigger.records) == 18


def test_an_agent_plays_itself_under_two_labels():
    r = yomi.match("tictactoe", "mcts:iters=20", "mcts:iters=20", games=4, seed=1)
    assert sorted(s["agent"] for s in r.standings) == ["mcts:iters=20", "mcts:iters=20#2"]
    assert len(r.records) == 4
    assert all(x["specs"] == ["mcts:iters=20", "mcts:iters=20"] for x in r.records)


def test_arena_errors_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match="accepted"):
        yomi.match("tictactoe", "mcts", "montecarlo", games=2)
    with pytest.raises(ValueError, match="given to two agents"):
        yomi.tournament("tictactoe", ["a=random", "a=flatmc:n=2"], games=2)
    with pytest.raises(ValueError, match="unknown game"):
        yomi.match("chess", "random", "mcts", games=2)
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "tictactoe"\nagents = ["random"]\ngmaes = 3\n')
    with pytest.raises(ValueError, match='did you mean "games"'):
        yomi.tournament(bad)
    out = tmp_path / "x.jsonl"
    yomi.match("tictactoe", "random", "flatmc:n=5", games=2, seed=1, out=out)
    with pytest.raises(ValueError, match="another configuration"):
        yomi.match("tictactoe", "random", "flatmc:n=5", games=2, seed=2, out=out)
