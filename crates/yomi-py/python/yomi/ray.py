"""yomi's long runs spread over a Ray cluster, written into the same records files as a run
on one machine.

    python -m yomi.ray tournament examples/tournament.toml --address auto --out c4.jsonl
    python -m yomi.ray tubstap-experiment experiments/tubstap.toml --address auto
    python -m yomi.ray othello-accuracy experiments/othello-accuracy.toml --address auto
    python -m yomi.ray learn-matches experiments/learn-breakthrough5x5.toml --address auto
    python -m yomi.ray az-train experiments/geister-az.toml runs/geister-az --address auto

or from Python::

    import yomi.ray
    result = yomi.ray.run_tournament("examples/tournament.toml", out="c4.jsonl")
    run = yomi.ray.run_othello_accuracy("experiments/othello-accuracy.toml")
    print(run.report)

What each runs, and the command on one machine that writes the same files:

- ``tournament``: a tournament file (``yomi tournament FILE``);
- ``tubstap-experiment``: a tournament file on a TUBSTAP map, with the paper's comparison
  (``yomi tubstap experiment FILE``);
- ``othello-accuracy``: the accuracy experiment's searches (``yomi othello accuracy FILE``;
  the report is written at the end);
- ``learn-matches``: the matches of a learning experiment whose training is done
  (``yomi learn experiment FILE`` after ``yomi learn train FILE``; ``report.md`` is
  written at the end);
- ``az-train``: AlphaZero training with each cycle's self-play games as Ray tasks
  (``yomi geister train CONFIG DIR``; needs a ``yomi`` built with the ``nn`` feature).

How a run goes, the same for all of them: this process (the driver) opens the run's
journal: it locks the records file(s), checks the records already there against the
configuration exactly as the command does when it resumes, and lists the work items still
due (games, or searches of the accuracy experiment). The due items are cut into chunks;
each chunk is a Ray task that plays its items with yomi's own code (each item's seed
derives from the run's seed and the item's place, so an item's record is the same wherever
it runs) and returns the records. The driver appends each chunk's records as it arrives,
skipping items it already has. A chunk lost with its node is run again by Ray
(``max_retries``) and, if a copy of it had already arrived, adds nothing. A run that stops
(driver killed, too many failures) keeps every record so far; running it again, here or
with the command on one machine, plays only the rest.

Every node needs the ``yomi`` package installed, and the files the run reads at the same
absolute path as on the driver: a rule sheet or map file the game names, the accuracy
experiment's test sets, a learning experiment's training directory (its weights).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import _yomi
from ._arena import TournamentResult

PathLike = Union[str, "os.PathLike[str]"]

_REMOTE = None


def _play(function: str, task: str, items: list) -> list:
    """A chunk's records as JSON lines (the body of every Ray task): ``function`` is the
    native function that plays a list of items of ``task``."""
    from yomi import _yomi as native

    return getattr(native, function)(task, items)


def _remote():
    global _REMOTE
    if _REMOTE is None:
        import ray

        _REMOTE = ray.remote(_play)
    return _REMOTE


@dataclass
class RunReport:
    """What a distributed experiment run did: ``recorded`` of ``total`` items are in the
    records file(s) (``played`` by this run, ``duplicates`` copies of retried chunks
    skipped), and ``report``, the text the command on one machine prints or writes."""

    total: int
    recorded: int
    played: int
    duplicates: int
    report: str


def _drive(
    journal: Any,
    function: str,
    task: str,
    *,
    chunk_size: Optional[int],
    threads_per_task: int,
    max_retries: int,
    address: Optional[str],
    on_chunk: Optional[Callable[[int, int], None]],
) -> int:
    """Plays every item ``journal.due()`` lists as Ray tasks ``function(task, chunk)`` and
    adds each chunk's records with ``journal.add(chunk, lines)``; returns how many were
    new. Raises after the loop when chunks failed for good (what arrived is kept)."""
    import ray

    if chunk_size is not None and chunk_size < 1:
        raise ValueError(f"chunk_size {chunk_size}: expected at least 1")
    if threads_per_task < 1:
        raise ValueError(f"threads_per_task {threads_per_task}: expected at least 1")
    due = journal.due()
    if not due:
        return 0
    if not ray.is_initialized():
        ray.init(address=address or os.environ.get("RAY_ADDRESS"))
    if chunk_size is None:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        chunk_size = max(1, math.ceil(len(due) / (4 * cpus)))
    remote = _remote().options(num_cpus=threads_per_task, max_retries=max_retries)
    chunks = {}
    for i in range(0, len(due), chunk_size):
        chunk = due[i : i + chunk_size]
        chunks[remote.remote(function, task, chunk)] = chunk
    pending = list(chunks)
    failures = []
    added = 0
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        try:
            lines = ray.get(ready[0])
        except Exception as e:  # noqa: BLE001 - reported together below
            failures.append(e)
            continue
        added += journal.add(chunks[ready[0]], lines)
        if on_chunk is not None:
            on_chunk(journal.recorded(), journal.total())
    if failures:
        raise RuntimeError(
            f"{len(failures)} chunk(s) failed after {max_retries} retries; the "
            f"{journal.recorded()} records written are kept, run again to resume. "
            f"First failure: {failures[0]}"
        )
    return added


class _TournamentJournal:
    """The tournament journal in the shape ``_drive`` takes (its records name their games)."""

    def __init__(self, journal: "_yomi.Journal") -> None:
        self.inner = journal

    def due(self) -> List[int]:
        return self.inner.due()

    def add(self, items: List[int], lines: List[str]) -> int:
        return self.inner.add(lines)

    def recorded(self) -> int:
        return self.inner.recorded()

    def total(self) -> int:
        return self.inner.total()


def _tournament_config(
    game: str,
    cfg: Dict[str, Any],
    out: Optional[PathLike],
    games: Optional[int],
    seed: Optional[int],
) -> Dict[str, Any]:
    cfg = dict(cfg)
    if out is not None:
        cfg["out"] = os.fspath(out)
    if games is not None:
        cfg["games"] = int(games)
    if seed is not None:
        cfg["seed"] = int(seed)
    cfg["quiet"] = True
    return cfg


def _run_round_robin(
    game: str,
    cfg: Dict[str, Any],
    *,
    chunk_size: Optional[int],
    threads_per_task: int,
    max_retries: int,
    address: Optional[str],
    on_chunk: Optional[Callable[[int, int], None]],
    extra: Optional[Callable[["_yomi.Journal"], str]] = None,
) -> Tuple[TournamentResult, str]:
    journal = _yomi.Journal(game, json.dumps(cfg))
    try:
        task = json.dumps({"game": game, "config": dict(cfg, out=None, threads=int(threads_per_task))})
        _drive(
            _TournamentJournal(journal),
            "tournament_play",
            task,
            chunk_size=chunk_size,
            threads_per_task=threads_per_task,
            max_retries=max_retries,
            address=address,
            on_chunk=on_chunk,
        )
        text = extra(journal) if extra is not None else ""
        return TournamentResult(*journal.result()), text
    finally:
        journal.close()


def run_tournament(
    config: Union[PathLike, Dict[str, Any]],
    *,
    out: Optional[PathLike] = None,
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
    if isinstance(config, dict):
        cfg = dict(config)
        if "game" not in cfg:
            raise ValueError("configuration: the key 'game' is missing")
        game = cfg.pop("game")
    else:
        game, cfg = _yomi.tournament_file(os.fspath(config))
    result, _ = _run_round_robin(
        game,
        _tournament_config(game, cfg, out, games, seed),
        chunk_size=chunk_size,
        threads_per_task=threads_per_task,
        max_retries=max_retries,
        address=address,
        on_chunk=on_chunk,
    )
    return result


def run_tubstap_experiment(
    path: PathLike,
    *,
    out: Optional[PathLike] = None,
    games: Optional[int] = None,
    seed: Optional[int] = None,
    chunk_size: Optional[int] = None,
    threads_per_task: int = 1,
    max_retries: int = 3,
    address: Optional[str] = None,
    on_chunk: Optional[Callable[[int, int], None]] = None,
) -> Tuple[TournamentResult, str]:
    """Runs ``yomi tubstap experiment FILE`` as Ray tasks: the file's round robin on its
    TUBSTAP map (arguments as :func:`run_tournament`). Returns the result of every game in
    the records file and the comparison with the paper's tables 1 and 3 that the command
    prints after the standings."""
    game, cfg = _yomi.tubstap_experiment_file(os.fspath(path))
    return _run_round_robin(
        game,
        _tournament_config(game, cfg, out, games, seed),
        chunk_size=chunk_size,
        threads_per_task=threads_per_task,
        max_retries=max_retries,
        address=address,
        on_chunk=on_chunk,
        extra=_yomi.tubstap_report,
    )


def _run_experiment(
    journal: Any,
    function: str,
    command: str,
    *,
    chunk_size: Optional[int],
    threads_per_task: int,
    max_retries: int,
    address: Optional[str],
    on_chunk: Optional[Callable[[int, int], None]],
) -> RunReport:
    try:
        played = _drive(
            journal,
            function,
            journal.task(int(threads_per_task)),
            chunk_size=chunk_size,
            threads_per_task=threads_per_task,
            max_retries=max_retries,
            address=address,
            on_chunk=on_chunk,
        )
        return RunReport(
            total=journal.total(),
            recorded=journal.recorded(),
            played=played,
            duplicates=journal.duplicates(),
            report=journal.write_report(command),
        )
    finally:
        journal.close()


def _overrides(**keys: Any) -> str:
    return json.dumps({k: v for k, v in keys.items() if v is not None})


def run_othello_accuracy(
    path: PathLike,
    *,
    out: Optional[PathLike] = None,
    report: Optional[PathLike] = None,
    seed: Optional[int] = None,
    positions: Optional[int] = None,
    playouts: Optional[Sequence[int]] = None,
    runs: Optional[int] = None,
    chunk_size: Optional[int] = None,
    threads_per_task: int = 1,
    max_retries: int = 3,
    address: Optional[str] = None,
    on_chunk: Optional[Callable[[int, int], None]] = None,
    command: Optional[str] = None,
) -> RunReport:
    """Runs ``yomi othello accuracy FILE`` as Ray tasks: every search not yet in the
    records file (``out``, else the file's), then the Markdown report (``report``, else
    the file's). The keyword arguments override the file's keys as the command's flags
    do; the others are as :func:`run_tournament`'s (a chunk is a list of searches).
    ``command`` is printed in the report's header (default: this process's command line).
    """
    journal = _yomi.AccuracyJournal(
        os.fspath(path),
        _overrides(
            out=None if out is None else os.fspath(out),
            report=None if report is None else os.fspath(report),
            seed=seed,
            positions=positions,
            playouts=None if playouts is None else [int(p) for p in playouts],
            runs=runs,
        ),
    )
    return _run_experiment(
        journal,
        "accuracy_play",
        command or " ".join([os.path.basename(sys.executable), *sys.argv]),
        chunk_size=chunk_size,
        threads_per_task=threads_per_task,
        max_retries=max_retries,
        address=address,
        on_chunk=on_chunk,
    )


def run_learn_matches(
    path: PathLike,
    *,
    games: Optional[int] = None,
    seed: Optional[int] = None,
    chunk_size: Optional[int] = None,
    threads_per_task: int = 1,
    max_retries: int = 3,
    address: Optional[str] = None,
    on_chunk: Optional[Callable[[int, int], None]] = None,
    command: Optional[str] = None,
) -> RunReport:
    """Runs the matches of ``yomi learn experiment FILE`` as Ray tasks (the training must
    be done: ``yomi learn train FILE``): the round robin of AL, SB, AL+SB and UR for each
    play method, into ``matches-<play>.jsonl`` of the training directory, then
    ``report.md`` there. ``games`` and ``seed`` override the ``[matches]`` table; the
    other arguments are as :func:`run_tournament`'s."""
    journal = _yomi.LearnMatchJournal(os.fspath(path), _overrides(games=games, seed=seed))
    return _run_experiment(
        journal,
        "learn_matches_play",
        command or " ".join([os.path.basename(sys.executable), *sys.argv]),
        chunk_size=chunk_size,
        threads_per_task=threads_per_task,
        max_retries=max_retries,
        address=address,
        on_chunk=on_chunk,
    )


def _self_play_chunk(game: str, config_toml: str, network: bytes, seed: int, indices: List[int], threads: int):
    """One chunk of an AlphaZero self-play batch (the body of every self-play Ray task)."""
    from yomi import _yomi as native

    return native.az_self_play_chunk(game, config_toml, network, seed, indices, threads)


def run_az_training(
    game: str,
    config: PathLike,
    directory: PathLike,
    *,
    stop_after: Optional[int] = None,
    chunk_size: Optional[int] = None,
    threads_per_task: int = 1,
    max_retries: int = 3,
    address: Optional[str] = None,
    progress: bool = True,
) -> List[Dict[str, Any]]:
    """Runs (or resumes) AlphaZero training of ``game`` (``yomi geister train`` trains
    ``geister-perfect``) from the TOML file ``config`` in ``directory``, with each cycle's
    self-play games played as Ray tasks; returns the training log rows as dicts.

    The driver (this process) keeps the network, the replay buffer and the checkpoints,
    trains, gates and evaluates. Each cycle it puts the best network into Ray's object
    store once and cuts the cycle's games into chunks of game numbers; a task plays its
    games (game ``i`` with the seed the cycle gives it, so a game is the same wherever it
    runs) and returns its samples. The chunks go back into the replay buffer in game order,
    so the run equals the run on one machine with the same seed. A chunk lost with its
    node is run again by Ray (``max_retries``); a run stopped between cycles resumes from
    its last checkpoint, here or with the command on one machine.

    Needs a ``yomi`` built with the ``nn`` feature (``pip install ./crates/yomi-py
    --config-settings=build-args=--features=nn``) on the driver and every node.
    ``chunk_size``: games per task (default: about four tasks per CPU of the cluster).
    ``threads_per_task``: game threads of each task (its CPU request).
    """
    import ray

    if not hasattr(_yomi, "az_train"):
        raise RuntimeError(
            "this yomi was built without the nn feature; rebuild it with "
            "`pip install ./crates/yomi-py --config-settings=build-args=--features=nn`"
        )
    if chunk_size is not None and chunk_size < 1:
        raise ValueError(f"chunk_size {chunk_size}: expected at least 1")
    if threads_per_task < 1:
        raise ValueError(f"threads_per_task {threads_per_task}: expected at least 1")
    with open(config, encoding="utf-8") as f:
        config_toml = f.read()
    remote = ray.remote(_self_play_chunk).options(num_cpus=threads_per_task, max_retries=max_retries)

    def self_play(cycle: int, network: bytes, seed: int, games: int) -> List[Tuple[bytes, List[int]]]:
        if not ray.is_initialized():
            ray.init(address=address or os.environ.get("RAY_ADDRESS"))
        size = chunk_size
        if size is None:
            cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
            size = max(1, math.ceil(games / (4 * cpus)))
        net_ref = ray.put(network)
        futures = [
            remote.remote(game, config_toml, net_ref, seed, list(range(i, min(i + size, games))), threads_per_task)
            for i in range(0, games, size)
        ]
        chunks = ray.get(futures)
        if progress:
            print(f"cycle {cycle}: {games} self-play games in {len(futures)} Ray tasks", file=sys.stderr)
        return chunks

    return _yomi.az_train(
        game,
        os.fspath(config),
        os.fspath(directory),
        self_play=self_play,
        stop_after=stop_after,
        progress=progress,
    )


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m yomi.ray",
        description="Run a yomi tournament or experiment file as Ray tasks on a cluster, "
        "into the same records files as the command on one machine.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser, unit: str) -> None:
        p.add_argument("--address", default=None, help="the Ray cluster (default: RAY_ADDRESS, else a local one); 'auto' joins the one on this machine")
        p.add_argument("--chunk-size", type=int, default=None, help=f"{unit} per Ray task (default: about four tasks per CPU)")
        p.add_argument("--threads-per-task", type=int, default=1, help="threads (CPUs) per task")
        p.add_argument("--max-retries", type=int, default=3, help="times Ray reruns a task whose node was lost")

    for name, what in [
        ("tournament", "a tournament file (yomi tournament FILE)"),
        ("tubstap-experiment", "a TUBSTAP experiment file (yomi tubstap experiment FILE)"),
    ]:
        t = sub.add_parser(name, help=f"{what}, spread over the cluster")
        t.add_argument("file", help="the tournament file (TOML, as the command reads it)")
        t.add_argument("--out", default=None, help="the records file (default: the file's `out`)")
        t.add_argument("--games", type=int, default=None, help="games per pairing (overrides the file)")
        t.add_argument("--seed", type=int, default=None, help="seed (overrides the file)")
        t.add_argument("--markdown", action="store_true", help="print the standings as Markdown")
        common(t, "games")
    o = sub.add_parser("othello-accuracy", help="the Othello accuracy experiment (yomi othello accuracy FILE), spread over the cluster")
    o.add_argument("file", help="the experiment file (TOML)")
    o.add_argument("--out", default=None, help="the records file (default: the file's `out`)")
    o.add_argument("--report", default=None, help="the Markdown report (default: the file's `report`)")
    o.add_argument("--seed", type=int, default=None, help="seed (overrides the file)")
    o.add_argument("--positions", type=int, default=None, help="the first N positions of each test set")
    o.add_argument("--playouts", default=None, help="playouts per move, comma separated")
    o.add_argument("--runs", type=int, default=None, help="independent runs, run r seeded seed + r (overrides the file)")
    common(o, "searches")
    lm = sub.add_parser("learn-matches", help="the matches of a learning experiment (yomi learn experiment FILE, after training), spread over the cluster")
    lm.add_argument("file", help="the experiment file (TOML)")
    lm.add_argument("--games", type=int, default=None, help="games per pairing (overrides [matches])")
    lm.add_argument("--seed", type=int, default=None, help="seed (overrides [matches])")
    common(lm, "games")
    az = sub.add_parser("az-train", help="AlphaZero training (yomi geister train CONFIG DIR) with each cycle's self-play spread over the cluster")
    az.add_argument("config", help="the training configuration (TOML, as yomi geister train reads it)")
    az.add_argument("dir", help="the run directory (checkpoints, log, best network); resumed when it holds a run")
    az.add_argument("--game", default="geister-perfect", help="the game (default: geister-perfect, the game of yomi geister train)")
    az.add_argument("--cycles", type=int, default=None, help="stop after this many new cycles (default: run to the configuration's cycles)")
    common(az, "self-play games")
    args = parser.parse_args(argv)

    def progress(recorded: int, total: int) -> None:
        print(f"\r{recorded}/{total}", end="", file=sys.stderr, flush=True)

    run_args = dict(
        chunk_size=args.chunk_size,
        threads_per_task=args.threads_per_task,
        max_retries=args.max_retries,
        address=args.address,
        on_chunk=progress,
    )
    command = " ".join(["python -m yomi.ray", *(sys.argv[1:] if argv is None else argv)])
    try:
        if args.command == "tournament":
            result = run_tournament(args.file, out=args.out, games=args.games, seed=args.seed, **run_args)
            text = result.report(markdown=args.markdown)
        elif args.command == "tubstap-experiment":
            result, comparison = run_tubstap_experiment(
                args.file, out=args.out, games=args.games, seed=args.seed, **run_args
            )
            text = result.report(markdown=args.markdown) + comparison
        elif args.command == "othello-accuracy":
            playouts = None
            if args.playouts is not None:
                playouts = [int(p) for p in args.playouts.split(",") if p.strip()]
            run = run_othello_accuracy(
                args.file, out=args.out, report=args.report, seed=args.seed,
                positions=args.positions, playouts=playouts, runs=args.runs, command=command, **run_args,
            )
            text = f"{run.recorded} of {run.total} searches recorded ({run.played} now)\n"
        elif args.command == "az-train":
            rows = run_az_training(
                args.game, args.config, args.dir, stop_after=args.cycles,
                chunk_size=args.chunk_size, threads_per_task=args.threads_per_task,
                max_retries=args.max_retries, address=args.address,
            )
            text = f"{len(rows)} cycles in {args.dir}; the best network is {os.path.join(args.dir, 'best.ynn')}\n"
        else:
            run = run_learn_matches(args.file, games=args.games, seed=args.seed, command=command, **run_args)
            text = run.report
    except (ValueError, OSError) as e:
        print(f"\nerror: {e}", file=sys.stderr)
        return 1
    print(file=sys.stderr)
    print(text, end="" if text.endswith("\n") else "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
