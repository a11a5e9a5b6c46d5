"""yomi (読み): game-tree search research from Python.

Every yomi game with OpenSpiel's ``pyspiel`` shape, agents and search, matches and
tournaments with their records, batched environments for reinforcement learning, a
PettingZoo wrapper (``yomi.pettingzoo``) and a Ray runner (``yomi.ray``)::

    import yomi
    game = yomi.load_game("connect4")
    state = game.new_initial_state()
    state.apply_action(3)
    agent = yomi.Agent("mcts:iters=2000", seed=1)
    state.apply_action(agent.step(state))
    print(state)
    print(yomi.search(state, "mcts:iters=5000")["visits"])
    result = yomi.match("tictactoe", "mcts:iters=200", "random", games=20, seed=1)
    print(result.standings)

The Rust work (searches, matches, batched steps) runs with the GIL released. Errors of
the caller raise ``ValueError`` listing what is accepted (``IllegalActionError``, a
``ValueError``, for illegal actions); a panic in Rust raises ``RustPanic`` (a
``RuntimeError``).
"""

from ._yomi import (
    SIMULTANEOUS,
    TERMINAL,
    Agent,
    Game,
    IllegalActionError,
    RustPanic,
    State,
    VectorEnv,
    __version__,
    games,
    load_game,
    read_records,
    search,
)
from ._arena import TournamentResult, match, tournament, tournament_config

__all__ = [
    "SIMULTANEOUS",
    "TERMINAL",
    "Agent",
    "Game",
    "IllegalActionError",
    "RustPanic",
    "State",
    "TournamentResult",
    "VectorEnv",
    "__version__",
    "games",
    "load_game",
    "match",
    "read_records",
    "search",
    "tournament",
    "tournament_config",
]
