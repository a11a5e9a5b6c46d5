"""Random-play environment steps per second driven from Python: yomi against OpenSpiel's
pyspiel, side by side in one process, on connect four, Othello and Go 9x9; and the cost of
one `apply_action` call from Python.

    pip install ./crates/yomi-py open-spiel
    python crates/yomi-py/bench/speed.py [--seconds 2] [--reps 3] [--envs 256]

Contenders (all choose uniformly random legal actions; a step is one move, counted over
whole games that restart when they end):
- pyspiel State: `random.choice(state.legal_actions())`, `state.apply_action(a)`;
- yomi State: the same Python loop over `yomi.State`;
- yomi VectorEnv: `n` games per call, the actions chosen in Python with numpy from the
  returned legal masks (`argmax(random float32 * mask)`, into a reused buffer), observations and masks returned as numpy;
- yomi VectorEnv.step_random: the same, the actions chosen in Rust.

Repetitions alternate the contenders; the median is reported. `apply_action` per call is
measured by replaying one recorded game move by move (a fresh clone per replay, whose cost
is measured separately and subtracted), beside `is_terminal()` as the cost of an empty call.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import numpy as np

import yomi

GAMES = [
    ("connect4", "connect4", "connect_four"),
    ("Othello", "othello", "othello"),
    ("Go 9x9", "go:9", "go(board_size=9,komi=7.5)"),
]


def rate(fn, seconds):
    """Steps per second of `fn(budget_seconds) -> steps`."""
    start = time.perf_counter()
    steps = fn(seconds)
    return steps / (time.perf_counter() - start)


def loop_steps(new_state, seconds):
    def run(budget):
        rng = random.Random(1)
        steps = 0
        end = time.perf_counter() + budget
        state = new_state()
        while True:
            for _ in range(1000):
                if state.is_terminal():
                    state = new_state()
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1000
            if time.perf_counter() > end:
                return steps

    return rate(run, seconds)


def vector_steps(name, n, seconds, rust_random):
    env = yomi.VectorEnv(name, n, seed=1)
    obs, mask, player = env.reset()
    rng = np.random.default_rng(1)
    # The random scores are drawn into one buffer the loop reuses, as a numpy user would.
    scores = np.empty(mask.shape, dtype=np.float32)

    def run(budget):
        nonlocal mask
        steps = 0
        end = time.perf_counter() + budget
        while time.perf_counter() < end:
            for _ in range(10):
                if rust_random:
                    obs, rewards, done, mask, player = env.step_random()
                else:
                    rng.random(dtype=np.float32, out=scores)
                    np.multiply(scores, mask, out=scores)
                    actions = scores.argmax(axis=1)
                    obs, rewards, done, mask, player = env.step(actions)
            steps += 10 * n
        return steps

    return rate(run, seconds)


def call_cost(new_state, reps=2000):
    """ns per apply_action and per is_terminal call, replaying one random game."""
    rng = random.Random(3)
    state = new_state()
    moves = []
    while not state.is_terminal():
        a = rng.choice(state.legal_actions())
        moves.append(a)
        state.apply_action(a)
    start_state = new_state()
    t0 = time.perf_counter()
    for _ in range(reps):
        s = start_state.clone()
    clone = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(reps):
        s = start_state.clone()
        for a in moves:
            s.apply_action(a)
    apply = time.perf_counter() - t0 - clone
    t0 = time.perf_counter()
    for _ in range(reps):
        for a in moves:
            s.is_terminal()
    empty = time.perf_counter() - t0
    calls = reps * len(moves)
    return apply / calls * 1e9, empty / calls * 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    parser.add_argument("--reps", type=int, default=3, help="alternated repetitions (median)")
    parser.add_argument("--envs", type=int, default=256, help="games per VectorEnv")
    args = parser.parse_args()
    import pyspiel

    print(f"# yomi {yomi.__version__}, OpenSpiel pyspiel, {os.cpu_count()} cores, "
          f"VectorEnv n={args.envs} (threads: {yomi.VectorEnv('connect4', args.envs).threads})\n")
    print("| game | pyspiel State (steps/s) | yomi State (steps/s) | yomi VectorEnv, numpy actions (steps/s) "
          "| yomi VectorEnv.step_random (steps/s) | VectorEnv / pyspiel |")
    print("|---|---:|---:|---:|---:|---:|")
    costs = []
    for label, ours, theirs in GAMES:
        spiel = pyspiel.load_game(theirs)
        game = yomi.load_game(ours)
        results = {k: [] for k in ("spiel", "state", "vector", "random")}
        for _ in range(args.reps):
            results["spiel"].append(loop_steps(spiel.new_initial_state, args.seconds))
            results["state"].append(loop_steps(game.new_initial_state, args.seconds))
            results["vector"].append(vector_steps(ours, args.envs, args.seconds, False))
            results["random"].append(vector_steps(ours, args.envs, args.seconds, True))
        med = {k: statistics.median(v) for k, v in results.items()}
        print(f"| {label} | {med['spiel']:,.0f} | {med['state']:,.0f} | {med['vector']:,.0f} "
              f"| {med['random']:,.0f} | {med['vector'] / med['spiel']:.1f}x |", flush=True)
        costs.append((label, call_cost(spiel.new_initial_state), call_cost(game.new_initial_state)))
    print("\n| game | pyspiel apply_action (ns/call) | yomi apply_action (ns/call) "
          "| pyspiel is_terminal (ns/call) | yomi is_terminal (ns/call) |")
    print("|---|---:|---:|---:|---:|")
    for label, (sa, se), (ya, ye) in costs:
        print(f"| {label} | {sa:,.0f} | {ya:,.0f} | {se:,.0f} | {ye:,.0f} |")


if __name__ == "__main__":
    main()
