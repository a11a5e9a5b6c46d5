"""A PettingZoo AEC environment for any yomi game with a tensor encoding.

    from yomi.pettingzoo import env
    e = env("connect4")
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        mask = obs["action_mask"]
        e.step(None if termination or truncation else e.action_space(agent).sample(mask))

Agents are ``player_0`` … ``player_{n-1}``. Observations are dicts as in PettingZoo's
classic games: ``observation`` (float32, ``game.observation_tensor_shape()``, only what
that player may see) and ``action_mask`` (int8, 1 at the legal actions of the agent to
move, all 0 for the others). The agent to move is whoever the game says (Othello passes,
TUBSTAP's several unit moves), not a fixed rotation. At a simultaneous turn every player
acts in order and the joint action is played after the last one. Rewards are the game's
returns, given when it ends; ``max_turns`` (default: the game's own bound) truncates.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "yomi.pettingzoo needs pettingzoo and gymnasium: pip install 'yomi[pettingzoo]'"
    ) from e

from . import _yomi


def env(game: str, max_turns: Optional[int] = None, render_mode: Optional[str] = None) -> "YomiAECEnv":
    """The AEC environment of ``game`` (a name as ``yomi.load_game`` takes)."""
    return YomiAECEnv(game, max_turns=max_turns, render_mode=render_mode)


class YomiAECEnv(AECEnv):
    """See the module documentation."""

    metadata = {"render_modes": ["human", "ansi"], "name": "yomi_v0", "is_parallelizable": False}

    def __init__(self, game: Any, max_turns: Optional[int] = None, render_mode: Optional[str] = None):
        super().__init__()
        self.game = game if isinstance(game, _yomi.Game) else _yomi.load_game(game)
        shape = self.game.observation_tensor_shape()
        if shape is None:
            raise ValueError(
                f"{self.game.name()} has no tensor encoding, so it has no PettingZoo "
                "observation space; use yomi.load_game and observation_string"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: accepted {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"yomi_{self.game.name()}_v0")
        self.max_turns = max_turns if max_turns is not None else self.game.max_game_length()
        n = self.game.num_players()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        num_actions = self.game.num_distinct_actions()
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=tuple(shape), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.state_ = self.game.new_initial_state()
        self._pending: Dict[int, int] = {}
        self._turns = 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _index(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _select(self) -> None:
        """Points agent_selection at the next agent to act."""
        if self.state_.is_terminal():
            return
        player = self.state_.current_player()
        if player >= 0:
            self.agent_selection = self.possible_agents[player]
        else:  # simultaneous: every player in order, the first who has not chosen yet
            waiting = [i for i in range(len(self.possible_agents)) if i not in self._pending]
            self.agent_selection = self.possible_agents[waiting[0]]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        p = self._index(agent)
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if not self.state_.is_terminal() and agent == self.agent_selection:
            mask[self.state_.legal_actions(p)] = 1
        return {"observation": self.state_.observation_tensor(p), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        self.state_ = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._pending = {}
        self._turns = 0
        self.agent_selection = self.possible_agents[0]
        self._select()

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: give an action, not None")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        p = self._index(agent)
        if self.state_.is_simultaneous_node():
            legal = self.state_.legal_actions(p)
            if int(action) not in legal:
                raise _yomi.IllegalActionError(f"action {action} is not legal for {agent}; legal: {legal}")
            self._pending[p] = int(action)
            if len(self._pending) < len(self.possible_agents):
                self._select()
                return
            joint = [self._pending[i] for i in range(len(self.possible_agents))]
            self._pending = {}
            self.state_.apply_actions(joint)
        else:
            self.state_.apply_action(int(action))
        self._turns += 1
        if self.state_.is_terminal():
            for a, r in zip(self.possible_agents, self.state_.returns()):
                self.rewards[a] = float(r)
            self.terminations = {a: True for a in self.agents}
        elif self.max_turns is not None and self._turns >= self.max_turns:
            self.truncations = {a: True for a in self.agents}
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        text = str(self.state_)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
