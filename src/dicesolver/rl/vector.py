"""Many environments of one game at once: a ``gymnasium.vector.VectorEnv`` over the family's kernels
(``Family.batch``) where it has them (the scorecard games), with next-step autoreset; any other one-player
game falls back to Gymnasium's ``SyncVectorEnv`` of ``DiceEnv``."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core import registry
from ..core.protocol import Game
from .env import DiceEnv, observation_space


class DiceVectorEnv(VectorEnv):
    """``num_envs`` one-player games stepped together in the kernels; ``judge``: info carries each game's
    exact value and the regret of its last action."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, game: str | Game = "yahtzee", num_envs: int = 64, judge: bool = False):
        loaded = registry.load(game)
        self.game = loaded
        self.batch = registry.family_of(loaded).batch(loaded, num_envs, judge)
        self.num_envs = num_envs
        self.single_observation_space = observation_space(self.batch.encoding)
        self.single_action_space = spaces.Discrete(self.batch.encoding.n_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None):
        if isinstance(seed, list):
            seed = seed[0]
        return self.batch.reset(seed)

    def step(self, actions):
        obs, rewards, terminated, info = self.batch.step(np.asarray(actions))
        return obs, rewards, terminated, np.zeros(self.num_envs, dtype=bool), info


def make_vec(game: str = "yahtzee", num_envs: int = 64, judge: bool = False) -> VectorEnv:
    """A vector env of a one-player game: in the kernels where the family has them, else Gymnasium's
    ``SyncVectorEnv`` of ``DiceEnv``."""
    loaded = registry.load(game)
    if registry.family_of(loaded).has_batch(loaded):
        return DiceVectorEnv(game, num_envs, judge)
    return SyncVectorEnv([lambda: DiceEnv(game, judge=judge) for _ in range(num_envs)])
