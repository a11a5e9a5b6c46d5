#!/usr/bin/env python3
"""OpenSpiel's MCTS on connect four, for the yomi peer comparison (see README.md).

Measures OpenSpiel's C++ MCTS through its Python bindings (pyspiel.MCTSBot with one random
rollout per simulation, UCT with uct_c = 2, which on OpenSpiel's [-1, 1] returns is the same
rule as yomi's c = 1/sqrt(2) on [0, 1] rewards; the MCTS solver off) by timing
``bot.step(state)`` from the start position, and optionally OpenSpiel's pure-Python MCTS
(open_spiel.python.algorithms.mcts) at a small simulation count.

Prints ``<what>: <number> <unit>`` lines and a Markdown table; with --rust-output FILE (the
output of the Rust benchmark binary) it also prints yomi/OpenSpiel ratios.
"""

import argparse
import re
import statistics
import sys
import time


def parse_rust_rates(path, qualifier):
    """yomi's median iterations/s by iteration count, from the Rust benchmark's output
    (qualifier "" for wall clock, " (cpu time)" for CPU time)."""
    rates = {}
    pattern = re.compile(r"^yomi uct (\d+) iterations" + re.escape(qualifier) + r": ([0-9.]+) iterations/s$")
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = pattern.match(line.strip())
            if m:
                rates[int(m.group(1))] = float(m.group(2))
    return rates


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5, help="repetitions of each C++ search")
    ap.add_argument("--sizes", default="20000,200000", help="simulations per C++ search")
    ap.add_argument("--python-sims", type=int, default=2000,
                    help="simulations per pure-Python search (0 skips it)")
    ap.add_argument("--python-reps", type=int, default=3)
    ap.add_argument("--rust-output", help="output of the Rust benchmark, for ratios")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]

    try:
        import pyspiel
    except ImportError as e:
        print(f"# OpenSpiel is not installed ({e}); `pip install open-spiel` to measure it")
        return 0

    game = pyspiel.load_game("connect_four")
    root = game.new_initial_state()

    def cpp_bot(n, seed):
        return pyspiel.MCTSBot(
            game,
            pyspiel.RandomRolloutEvaluator(1, seed),
            uct_c=2.0,
            max_simulations=n,
            max_memory_mb=8192,
            solve=False,
            seed=seed,
            verbose=False,
        )

    print("# OpenSpiel MCTS on connect_four from the start position: UCT (uct_c = 2), "
          "one random rollout per simulation, 1 thread, solver off")

    # Sanity check (and warm-up): the root visit distribution of the largest search.
    n = max(sizes)
    search_root = cpp_bot(n, 12345).mcts_search(root.clone())
    parts = []
    for c in search_root.children:
        mean01 = (c.total_reward / max(c.explore_count, 1) + 1) / 2
        parts.append(f"{root.action_to_string(c.action)}:{c.explore_count}({mean01:.3f})")
    best = search_root.best_child()
    print(f"sanity openspiel-cpp {n}: move {root.action_to_string(best.action)}, "
          f"root visits {search_root.explore_count}, visits(mean) {' '.join(parts)}")
    del search_root

    # Wall-clock rates, and rates in this thread's CPU time (less sensitive to other
    # processes on a shared machine).
    rates = {n: [] for n in sizes}
    cpu_rates = {n: [] for n in sizes}
    for rep in range(args.reps):
        for n in sizes:
            bot = cpp_bot(n, 1000 + rep)
            state = root.clone()
            t, c = time.perf_counter(), time.thread_time()
            bot.step(state)
            rates[n].append(n / (time.perf_counter() - t))
            cpu_rates[n].append(n / (time.thread_time() - c))

    py_rates = []
    py_cpu_rates = []
    if args.python_sims > 0:
        import numpy as np
        from open_spiel.python.algorithms import mcts

        for rep in range(args.python_reps):
            rs = np.random.RandomState(1000 + rep)
            bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.python_sims,
                               evaluator=mcts.RandomRolloutEvaluator(1, rs), solve=False,
                               random_state=rs)
            state = root.clone()
            t, c = time.perf_counter(), time.thread_time()
            bot.step(state)
            py_rates.append(args.python_sims / (time.perf_counter() - t))
            py_cpu_rates.append(args.python_sims / (time.thread_time() - c))

    yomi = parse_rust_rates(args.rust_output, "") if args.rust_output else {}
    yomi_cpu = parse_rust_rates(args.rust_output, " (cpu time)") if args.rust_output else {}
    med = statistics.median
    print()
    for n in sizes:
        print(f"openspiel-cpp mcts {n} iterations: {med(rates[n]):.0f} iterations/s")
        print(f"openspiel-cpp mcts {n} iterations (cpu time): {med(cpu_rates[n]):.0f} iterations/s")
    if py_rates:
        print(f"openspiel-python mcts {args.python_sims} iterations: {med(py_rates):.0f} iterations/s")
        print(f"openspiel-python mcts {args.python_sims} iterations (cpu time): "
              f"{med(py_cpu_rates):.0f} iterations/s")
    for n in sizes:
        if n in yomi:
            print(f"ratio yomi/openspiel-cpp {n} iterations: {yomi[n] / med(rates[n]):.1f} x")
        if n in yomi_cpu:
            print(f"ratio yomi/openspiel-cpp {n} iterations (cpu time): "
                  f"{yomi_cpu[n] / med(cpu_rates[n]):.1f} x")
    if py_rates and yomi:
        # The Python MCTS runs far fewer iterations; compare with yomi's smallest search.
        n = min(yomi)
        print(f"ratio yomi({n})/openspiel-python({args.python_sims}): {yomi[n] / med(py_rates):.0f} x")
        if n in yomi_cpu:
            print(f"ratio yomi({n})/openspiel-python({args.python_sims}) (cpu time): "
                  f"{yomi_cpu[n] / med(py_cpu_rates):.0f} x")

    print()
    print("| contender | iterations | k it/s wall, median (min–max) | k it/s CPU time |")
    print("| --- | ---: | ---: | ---: |")
    for n in sizes:
        v = rates[n]
        print(f"| OpenSpiel C++ MCTS (pyspiel) | {n} | "
              f"{med(v) / 1e3:.1f} ({min(v) / 1e3:.1f}–{max(v) / 1e3:.1f}) | {med(cpu_rates[n]) / 1e3:.1f} |")
    if py_rates:
        print(f"| OpenSpiel Python MCTS | {args.python_sims} | "
              f"{med(py_rates) / 1e3:.2f} ({min(py_rates) / 1e3:.2f}–"
              f"{max(py_rates) / 1e3:.2f}) | {med(py_cpu_rates) / 1e3:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
