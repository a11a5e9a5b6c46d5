"""Scaling of one distributed tournament from 1 to 2 Ray workers (games per second).

    python crates/yomi-py/bench/ray_scaling.py [--games 24] [--reps 3]

Each measurement starts a local `ray.cluster_utils.Cluster` whose head has no CPUs (it
only drives) and adds 1 or 2 worker nodes of one CPU each, then runs the same tournament
(connect four, three agents, fresh records file) with `yomi.ray.run_tournament`. The
cluster's start is not timed. Repetitions alternate 1 and 2 workers; medians are shown.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import ray
from ray.cluster_utils import Cluster

import yomi.ray


def measure(workers: int, config: dict) -> float:
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    for _ in range(workers):
        cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address)
    try:
        # Warm the workers (imports) before timing.
        yomi.ray.run_tournament(dict(config, games=1), chunk_size=1)
        with tempfile.TemporaryDirectory() as d:
            start = time.perf_counter()
            result = yomi.ray.run_tournament(config, out=os.path.join(d, "r.jsonl"), chunk_size=2)
            elapsed = time.perf_counter() - start
        return len(result.records) / elapsed
    finally:
        ray.shutdown()
        cluster.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=24, help="games per pairing")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    config = {
        "game": "connect4",
        "agents": ["mcts:iters=20000", "flatmc:n=1000", "alphabeta:depth=6"],
        "games": args.games,
        "seed": 1,
    }
    rates = {1: [], 2: []}
    for _ in range(args.reps):
        for w in (1, 2):
            rates[w].append(measure(w, config))
            print(f"{w} worker(s): {rates[w][-1]:.2f} games/s", flush=True)
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    print(f"\n| Ray workers | games/s (median of {args.reps}) |\n|---|---:|\n| 1 | {one:.2f} |\n| 2 | {two:.2f} |")
    print(f"\n2 workers / 1 worker: {two / one:.2f}x")


if __name__ == "__main__":
    main()
