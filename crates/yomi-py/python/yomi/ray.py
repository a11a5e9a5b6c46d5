"""Tournaments spread over a Ray cluster, written into the same records file as a run on
one machine.

    python -m yomi.ray tournament examples/tournament.toml --address auto --out c4.jsonl

or from Python::

    import yomi.ray
    result = yomi.ray.run_tournament("examples/tournament.toml", out="c4.jsonl")

How a run goes: this process (the driver) opens the records file as the run's journal
(it locks it, checks the records already there against the configuration exactly as
``yomi tournament`` does when it resumes, and lists the games still due). The due games
are cut into chunks of schedule positions; each chunk is a Ray task that plays its games
with yomi's arena (each game's seed derives from the run's seed and its place in the
schedule, so a game is the same wherever it runs) and returns the records. The driver
appends each chunk's records to the file as it arrives, skipping games it already has.
A chunk lost with its node is run again by Ray (``max_retries``) and, if a copy of it
had already arrived, adds nothing. A run that stops (driver killed, too many failures)
keeps every game recorded so far; running it again, here or with ``yomi tournament``,
plays only the rest.

Every node needs the ``yomi`` package installed (and any rule sheet or map file the game
names, at the same path).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Any, Callable, Dict, Optional, Tuple, Union

from . import _yomi
from ._arena import TournamentResult

_REMOTE = None


def _play_chunk(game: str, config_json: str, positions: list) -> list:
    """A chunk's games as record lines (the body of the Ray task)."""
    from yomi import _yomi as native

    return native.play_chunk(game, config_json, positions)


def _remote():
    global _REMOTE
    if _REMOTE is None:
        import ray

        _REMOTE = ray.remote(_play_chunk)
    return _REMOTE


def _resolve(config: Union[str, "os.PathLike[str]", Dict[str, Any]]) -> Tuple[str, Dict[str, Any]]:
    if isinstance(config, dict):
        cfg = dict(config)
        if "game" not in cfg:
            raise ValueError("configuration: the key 'game' is missing")
        return cfg.pop("game"), cfg
    return _yomi.tournament_file(os.fspath(config))


def run_tournament(
    config: Union[str, "os.PathLike[str]", Dict[str, Any]],
    *,
    out: Optional[Union[str, "os.PathLike[str]"]] = None,
    games: Optional[int] = None,
    seed: Optional[int] = None,
    chunk_size: Optional[int] = None,
    threads_per_task: int = 1,
    max_retries: int = 3,
    address: Optional[str] = None,
    on_chunk: Optional[Callable[[int, int], None]] = None,
) -> TournamentResult:
    """Runs a tournament (a tournament file, or a dict with ``game`` and its keys) as Ray
    tasks; returns the result of every game in the records file.

    ``out`` (or the configuration's ``out``) is the records file, resumed when it exists.
    ``chunk_size``: games per task (default: about four tasks per CPU of the cluster).
    ``threads_per_task``: threads each task plays its games on (its CPU request).
    ``address``: the cluster for ``ray.init`` when Ray is not initialised yet (default:
    ``RAY_ADDRESS``, else a local one). ``on_chunk(recorded, total)`` is called after each
    chunk is written.
    """
    import ray

    game, cfg = _resolve(config)
    if out is not None:
        cfg["out"] = os.fspath(out)
    if games is not None:
        cfg["games"] = int(games)
    if seed is not None:
        cfg["seed"] = int(seed)
    cfg["quiet"] = True
    journal = _yomi.Journal(game, json.dumps(cfg))
    try:
        due = journal.due()
        if due:
            if not ray.is_initialized():
                ray.init(address=address or os.environ.get("RAY_ADDRESS"))
            task_cfg = dict(cfg, out=None, threads=int(threads_per_task))
            task_json = json.dumps(task_cfg)
            if chunk_size is None:
                cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
                chunk_size = max(1, math.ceil(len(due) / (4 * cpus)))
            remote = _remote().options(num_cpus=threads_per_task, max_retries=max_retries)
            pending = [
                remote.remote(game, task_json, due[i : i + chunk_size])
                for i in range(0, len(due), chunk_size)
            ]
            failures = []
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                try:
                    lines = ray.get(ready[0])
                except Exception as e:  # noqa: BLE001 - reported together below
                    failures.append(e)
                    continue
                journal.add(lines)
                if on_chunk is not None:
                    on_chunk(journal.recorded(), journal.total())
            if failures:
                raise RuntimeError(
                    f"{len(failures)} chunk(s) failed after {max_retries} retries; the "
                    f"{journal.recorded()} games recorded are kept, run again to resume. "
                    f"First failure: {failures[0]}"
                )
        return TournamentResult(*journal.result())
    finally:
        journal.close()


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m yomi.ray",
        description="Run a yomi tournament file as Ray tasks on a cluster.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("tournament", help="a tournament file (yomi tournament FILE), spread over the cluster")
    t.add_argument("file", help="the tournament file (TOML, as `yomi tournament` reads)")
    t.add_argument("--address", default=None, help="the Ray cluster (default: RAY_ADDRESS, else a local one); 'auto' joins the one on this machine")
    t.add_argument("--out", default=None, help="the records file (default: the file's `out`)")
    t.add_argument("--games", type=int, default=None, help="games per pairing (overrides the file)")
    t.add_argument("--seed", type=int, default=None, help="seed (overrides the file)")
    t.add_argument("--chunk-size", type=int, default=None, help="games per Ray task")
    t.add_argument("--threads-per-task", type=int, default=1, help="threads (CPUs) per task")
    t.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    args = parser.parse_args(argv)

    def progress(recorded: int, total: int) -> None:
        print(f"\r{recorded}/{total} games", end="", file=sys.stderr, flush=True)

    try:
        result = run_tournament(
            args.file,
            out=args.out,
            games=args.games,
            seed=args.seed,
            chunk_size=args.chunk_size,
            threads_per_task=args.threads_per_task,
            address=args.address,
            on_chunk=progress,
        )
    except (ValueError, OSError) as e:
        print(f"\nerror: {e}", file=sys.stderr)
        return 1
    print(file=sys.stderr)
    print(result.report(markdown=args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
