#!/usr/bin/env python3
"""Compares engines played from the same start positions (`yomi go twogtp --openings`).

    experiments/go-endgames/compare.py A.jsonl B.jsonl ...

Each file is a twogtp journal whose first engine is the one measured and whose games
start from the same openings. For each file: games, the first engine's win rate, its
mean score margin (games scored by count) with the standard error; then for each pair
of files, the mean of the per-game differences of margin over the games both scored
(same game index = same position, same colours), with its standard error.
"""
import json
import math
import sys


def lead(result):
    """Black's lead from an SGF result, or None (resignation, forfeit, unreadable)."""
    if result == "0":
        return 0.0
    if len(result) < 3 or result[1] != "+" or result[0] not in "BW":
        return None
    try:
        v = float(result[2:])
    except ValueError:
        return None
    return v if result[0] == "B" else -v


def load(path):
    with open(path) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    games = {}
    for g in lines[1:]:
        m = None
        if g["end"] in ("passes", "move limit"):
            v = lead(g["result"])
            if v is not None:
                m = v if g["first_black"] else -v
        games[g["game"]] = (g, m)
    return lines[0], games


def mean_se(xs):
    n = len(xs)
    if n == 0:
        return float("nan"), float("nan")
    mu = sum(xs) / n
    var = sum((x - mu) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mu, math.sqrt(var / n)


def main(paths):
    data = [(p, *load(p)) for p in paths]
    print("| journal | games | first engine's points | mean margin (SE) | scored |")
    print("|---|---:|---:|---:|---:|")
    for p, _, games in data:
        pts = sum(1.0 if g["winner"] == "first" else 0.5 if g["winner"] is None else 0.0
                  for g, _ in games.values())
        ms = [m for _, m in games.values() if m is not None]
        mu, se = mean_se(ms)
        print(f"| {p} | {len(games)} | {pts:g} ({100 * pts / max(1, len(games)):.1f} %) "
              f"| {mu:+.2f} ({se:.2f}) | {len(ms)} |")
    print()
    print("| A | B | mean of A − B per game (SE) | games |")
    print("|---|---|---:|---:|")
    for i, (pa, _, ga) in enumerate(data):
        for pb, _, gb in data[i + 1:]:
            d = [ga[k][1] - gb[k][1] for k in ga
                 if k in gb and ga[k][1] is not None and gb[k][1] is not None]
            mu, se = mean_se(d)
            print(f"| {pa} | {pb} | {mu:+.2f} ({se:.2f}) | {len(d)} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
