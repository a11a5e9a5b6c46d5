"""Tournaments spread over a local Ray cluster of several nodes."""

import json
import threading

import pytest

ray = pytest.importorskip("ray")
from ray.cluster_utils import Cluster  # noqa: E402

import yomi  # noqa: E402
import yomi.ray  # noqa: E402

CONFIG = {
    "game": "tictactoe",
    "agents": ["mcts:iters=300", "flatmc:n=20", "random"],
    "games": 8,
    "seed": 5,
}


def strip(records):
    """Records without timings, by schedule place (the order lines arrive in differs)."""
    out = [{k: v for k, v in r.items() if "seconds" not in k} for r in records]
    return sorted(out, key=lambda r: (r["pairing"], r["index"]))


@pytest.fixture(scope="module")
def cluster():
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    workers = [c.add_node(num_cpus=1) for _ in range(2)]
    c.wait_for_nodes()
    ray.init(address=c.address)
    yield c, workers
    ray.shutdown()
    c.shutdown()


def test_a_tournament_over_three_nodes_gives_the_single_process_records(cluster, tmp_path):
    single = yomi.tournament(
        CONFIG["game"], CONFIG["agents"], games=CONFIG["games"], seed=CONFIG["seed"],
        out=tmp_path / "single.jsonl",
    )
    out = tmp_path / "ray.jsonl"
    result = yomi.ray.run_tournament(CONFIG, out=out, chunk_size=2)
    assert result.played == 24
    assert strip(yomi.read_records(out)) == strip(single.records)
    assert result.standings == single.standings or [
        (s["agent"], s["wins"], s["draws"], s["losses"]) for s in result.standings
    ] == [(s["agent"], s["wins"], s["draws"], s["losses"]) for s in single.standings]
    # The file written by Ray resumes like any records file.
    again = yomi.tournament(CONFIG["game"], CONFIG["agents"], games=8, seed=5, out=out)
    assert (again.played, again.resumed) == (0, 24)
    # Tasks ran on more than one node.
    nodes = {n["NodeID"] for n in ray.nodes() if n["Alive"]}
    assert len(nodes) == 3


def test_a_node_lost_mid_run_loses_and_duplicates_no_game(cluster, tmp_path):
    c, workers = cluster
    config = dict(CONFIG, agents=["mcts:iters=3000", "mcts:iters=1000", "flatmc:n=50"], games=10)
    out = tmp_path / "lost.jsonl"
    removed = []

    def remove_one(recorded, total):
        if not removed:
            removed.append(recorded)
            c.remove_node(workers[0])

    result = yomi.ray.run_tournament(config, out=out, chunk_size=1, on_chunk=remove_one)
    assert removed, "the node was removed while chunks were running"
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    keys = [(r["pairing"], r["index"]) for r in lines]
    assert len(keys) == len(set(keys)) == 30, "every game exactly once"
    single = yomi.tournament(config["game"], config["agents"], games=10, seed=5)
    assert strip(lines) == strip(single.records)
    assert len(result.records) == 30
