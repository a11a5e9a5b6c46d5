"""VectorEnv steps/s against the number of games and threads, actions drawn in numpy and in
Rust (`step_random`), for Go 9x9, Othello and connect four:

    python crates/yomi-py/bench/sweep.py
"""
import os, time
import numpy as np
import yomi

def run(name, n, threads, rust_random, seconds=1.0):
    env = yomi.VectorEnv(name, n, seed=1, threads=threads)
    obs, mask, player = env.reset()
    rng = np.random.default_rng(1)
    steps, end = 0, time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        for _ in range(10):
            if rust_random:
                obs, rewards, done, mask, player = env.step_random()
            else:
                actions = (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1)
                obs, rewards, done, mask, player = env.step(actions)
        steps += 10 * n
    return steps / (time.perf_counter() - start)

print(f"# {os.cpu_count()} cores")
for name in ("go:9", "othello", "connect4"):
    for n in (1024, 4096):
        for threads in (1, 16):
            print(f"{name} n={n} threads={threads}: numpy actions {run(name, n, threads, False):,.0f} steps/s, "
                  f"step_random {run(name, n, threads, True):,.0f} steps/s", flush=True)
