"""Games of several players as PettingZoo AEC environments (Agent Environment Cycle), over the protocol.

Agents are ``player_0`` (moves first), ``player_1``, ...; each observes the encoding's arrays from its own
seat (its sheet first) and an ``action_mask`` (all zero when it is not its turn). Rewards come at the end:
+1 to the sole leader, 0 to tied leaders, -1 to the others; with ``shaped=True`` every step gives each
agent the change in its exact value instead, in the solution's unit (P(win) for Pig, Skunk and Big Pig,
equity for the exact two-person tables; a game's shaped rewards add up to its return minus the first
value). ``info`` carries the exact value of the state
for the agent on turn and the regret of the last action, where the game has a solution for its players
(``judge=True``: solved on first use and cached; two-person scorecard games use the exact table where it
is quick or built, else the Mindful model).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from ..core import registry
from ..core.errors import InputError
from ..core.protocol import Game, State
from ..core.solved import SolvedGame
from .env import draw, observation_space, solve_for_judge


def final_rewards(totals: list[int]) -> list[float]:
    best = max(totals)
    leaders = totals.count(best)
    return [(1.0 if leaders == 1 else 0.0) if t == best else -1.0 for t in totals]


class DiceAECEnv(AECEnv):
    """A game of the registry for ``players`` players, turn by turn."""

    metadata = {"name": "dicesolver_v0", "render_modes": ["ansi"], "render_fps": 1, "is_parallelizable": False}

    def __init__(self, game: str | Game = "generala", players: int | None = None, judge: bool = False,
                 shaped: bool = False, render_mode: str | None = None):
        super().__init__()
        loaded = registry.load(game, players)
        if loaded.n_players < 2:
            raise InputError(f"{loaded.canonical} for one player is a Gymnasium env: dicesolver.rl.make")
        self.game = loaded
        self.family = registry.family_of(loaded)
        self.encoding = self.family.encoding(loaded)
        self.possible_agents = [f"player_{i}" for i in range(loaded.n_players)]
        self._observation_space = observation_space(self.encoding)
        self._action_space = spaces.Discrete(self.encoding.n_actions)
        if shaped and not judge:
            raise InputError("shaped rewards are the solver's values: they need judge=True")
        self.judge, self.shaped = judge, shaped
        self._solution: SolvedGame | None = None
        self.render_mode = render_mode
        self.state: State = loaded.start()
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    @property
    def solution(self) -> SolvedGame:
        if self._solution is None:
            self._solution = solve_for_judge(self.game)
        return self._solution

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat(agent)
        obs = self.encoding.observe(self.state, seat)
        mask = self.encoding.mask(self.state)
        obs["action_mask"] = mask if self.state.to_move() == seat else np.zeros_like(mask)
        return obs

    def _info(self, regret: float | None = None) -> dict[str, Any]:
        info: dict[str, Any] = {}
        if self.judge and not self.state.is_terminal():
            info["value"] = self.solution.value(self.state)
        if regret is not None:
            info["regret"] = regret
        return info

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or not getattr(self, "agents", None):
            self._rng = np.random.default_rng(seed)
        self.state = draw(self.game.start(), self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.to_move() or 0]
        self.infos[self.agent_selection] = self._info()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0  # what it collected since its last move was seen by last()
        before = self.state
        step = self.encoding.step_of(before, int(action))
        regret = None
        if self.judge:
            values = dict(self.solution.action_values(before))
            sign = self.solution.sign
            regret = max(0.0, sign * (max(values.values(), key=lambda v: sign * v) - values[step]))
        self.state = draw(before.apply(step), self._rng)
        self._clear_rewards()
        if self.shaped:
            for seat, a in enumerate(self.possible_agents):
                self.rewards[a] = self._seat_value(self.state, seat) - self._seat_value(before, seat)
        if self.state.is_terminal():
            for a, r in zip(self.possible_agents, final_rewards(self.family.totals(self.state))):
                if not self.shaped:
                    self.rewards[a] = r
                self.terminations[a] = True
            self.infos = {a: {} for a in self.agents}
            if regret is not None:
                self.infos[agent] = {"regret": regret}
        else:
            self.agent_selection = self.possible_agents[self.state.to_move() or 0]
            self.infos = {a: {} for a in self.agents}
            self.infos[self.agent_selection] = self._info()
            if regret is not None:
                self.infos[agent]["regret"] = regret
        self._accumulate_rewards()

    def _seat_value(self, state: State, seat: int) -> float:
        """A seat's exact value at a state (the sum over a game of its changes: the result minus the first)."""
        if state.is_terminal():
            return state.returns()[seat]  # in the solution's unit: P(win) 1 or 0, equity +1, 0 or -1
        return self.solution.value(state, seat)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        board = self.family.board(self.state, self.possible_agents)
        return "\n".join(["  ".join(board.columns)] + ["  ".join(row) for row in board.rows])

    def close(self) -> None:
        pass
