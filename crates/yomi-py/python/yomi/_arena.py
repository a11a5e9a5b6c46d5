"""Matches and tournaments: ``yomi.match``, ``yomi.tournament`` and their result.

The arena is yomi's own (``yomi_core::arena::RoundRobin``): colours alternate, seeds derive
from ``seed`` and each game's place in the schedule, every finished game is appended to the
JSONL records file ``out`` at once, and a run pointed at an existing file resumes it. A
configuration is the keys of a tournament file (``examples/tournament.toml``).
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _yomi

PathLike = Union[str, "os.PathLike[str]"]


class TournamentResult:
    """The records and statistics of a match or tournament.

    ``standings``: one dict per agent, best first: ``agent``, ``games``, ``wins``,
    ``draws``, ``losses``, ``score`` with its 95 % Wilson interval ``score_low`` /
    ``score_high``, ``elo`` with ``elo_low`` / ``elo_high``, ``mean_return``,
    ``seconds_per_move``, ``forfeits``. ``records``: one dict per game (the records file's
    lines). ``cross_table``: ``{"agents": [...], "cells": [[{wins, draws, losses}]]}``.
    """

    def __init__(self, data: Dict[str, Any], text: str, markdown: str) -> None:
        self._data = data
        self._text = text
        self._markdown = markdown

    @property
    def game(self) -> str:
        return self._data["game"]

    @property
    def agents(self) -> List[str]:
        return list(self._data["agents"])

    @property
    def records(self) -> List[Dict[str, Any]]:
        return self._data["records"]

    @property
    def played(self) -> int:
        """Games played by this run."""
        return self._data["played"]

    @property
    def resumed(self) -> int:
        """Games read back from the records file."""
        return self._data["resumed"]

    @property
    def standings(self) -> List[Dict[str, Any]]:
        rows = []
        for row in self._data["standings"]["rows"]:
            wdl = row["wdl"]
            rows.append(
                {
                    "agent": row["agent"],
                    "games": wdl["wins"] + wdl["draws"] + wdl["losses"],
                    "wins": wdl["wins"],
                    "draws": wdl["draws"],
                    "losses": wdl["losses"],
                    "score": row["score"]["value"],
                    "score_low": row["score"]["low"],
                    "score_high": row["score"]["high"],
                    "elo": row["elo"]["value"],
                    "elo_low": row["elo"]["low"],
                    "elo_high": row["elo"]["high"],
                    "mean_return": row["mean_return"],
                    "seconds_per_move": row["seconds_per_move"],
                    "forfeits": row["forfeits"],
                }
            )
        return rows

    @property
    def cross_table(self) -> Dict[str, Any]:
        return self._data["cross_table"]

    def report(self, markdown: bool = False) -> str:
        """The command line's report: standings with intervals, cross table, endings."""
        return self._markdown if markdown else self._text

    def to_dict(self) -> Dict[str, Any]:
        return self._data

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        best = self.standings[0] if self.standings else None
        lead = f", leader {best['agent']} {best['score']:.3f}" if best else ""
        return f"<yomi.TournamentResult {self.game}: {len(self.records)} games{lead}>"


def _config(
    agents: Sequence[str],
    games: Optional[int],
    seed: Optional[int],
    threads: Optional[int],
    turn_limit: Optional[int],
    out: Optional[PathLike],
) -> Dict[str, Any]:
    if isinstance(agents, str):
        raise ValueError("agents: give a list of agent specs, not one string")
    cfg: Dict[str, Any] = {"agents": list(agents), "quiet": True}
    if games is not None:
        cfg["games"] = int(games)
    if seed is not None:
        cfg["seed"] = int(seed)
    if threads is not None:
        cfg["threads"] = int(threads)
    if turn_limit is not None:
        cfg["turn_limit"] = int(turn_limit)
    if out is not None:
        cfg["out"] = os.fspath(out)
    return cfg


def _game_name(game: Union[str, "_yomi.Game"]) -> str:
    if isinstance(game, _yomi.Game):
        return game.spec
    return str(game)


def _run(game: str, cfg: Dict[str, Any]) -> TournamentResult:
    data, text, markdown = _yomi.round_robin(game, json.dumps(cfg))
    return TournamentResult(data, text, markdown)


def match(
    game: Union[str, "_yomi.Game"],
    first: str,
    second: str,
    games: int = 100,
    seed: int = 0,
    threads: Optional[int] = None,
    turn_limit: Optional[int] = None,
    out: Optional[PathLike] = None,
) -> TournamentResult:
    """A match of two agents (``first`` is player 0 in even games), like ``yomi match``."""
    return _run(_game_name(game), _config([first, second], games, seed, threads, turn_limit, out))


def tournament_config(path: PathLike) -> Tuple[str, Dict[str, Any]]:
    """A tournament file read by the command line's parser: ``(game, configuration)``."""
    return _yomi.tournament_file(os.fspath(path))


def tournament(
    game: Union[str, "_yomi.Game", PathLike],
    agents: Optional[Sequence[str]] = None,
    games: Optional[int] = None,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    turn_limit: Optional[int] = None,
    out: Optional[PathLike] = None,
) -> TournamentResult:
    """A round robin of ``agents`` on ``game``, like ``yomi tournament``.

    ``tournament("examples/tournament.toml")`` runs a tournament file; the other
    arguments then override its keys.
    """
    if agents is None:
        name, cfg = tournament_config(game)  # type: ignore[arg-type]
        override = _config(cfg["agents"], games, seed, threads, turn_limit, out)
        cfg.update({k: v for k, v in override.items() if k != "agents"})
        cfg["quiet"] = True
        return _run(name, cfg)
    return _run(_game_name(game), _config(agents, games, seed, threads, turn_limit, out))
