"""Many one-player scorecard games stepped at once in the kernels (``batch.kernels``): the vectorised
environment behind ``dicesolver.rl`` (``core.encoding.Batch``), with the observations and actions of
``ScorecardEncoding`` and, with the solved table, the exact regret and value of every step."""

from __future__ import annotations

import numpy as np

from ...core.arrays import frozen
from ...core.encoding import Batch
from ...core.errors import InputError
from ..game.encoding import ScorecardEncoding
from .kernels import Envs, batch_masks, batch_step
from ..turn.kernels.stream import mix64
from ..game.rules import ScorecardGame
from ..solitaire.table import SolitaireModel, load_or_solve

MAX_ENVS = 1 << 20
NO_HAND_VALUES = frozen(np.zeros((1, 1)))  # the optimal player's stand-in for a static player's hand values


class ScorecardBatch(Batch):
    def __init__(self, game: ScorecardGame, num_envs: int, judge: bool = False):
        if game.n_players != 1:
            raise InputError("a batch of games is of one-player games")
        if not 1 <= num_envs <= MAX_ENVS:
            raise InputError(f"the number of environments is between 1 and {MAX_ENVS:,}")
        self.game, self.num_envs, self.judge = game, num_envs, judge
        self.encoding = ScorecardEncoding(game)
        self.model = SolitaireModel(game)
        # read-only either way: one compiled kernel serves judged and unjudged batches
        self.values = frozen(load_or_solve(game)[0].values if judge else np.zeros(1))
        n, C, D = num_envs, game.n_categories, game.n_dice
        zeros = lambda *shape: np.zeros(shape, dtype=np.int64)  # noqa: E731
        self.used, self.group, self.capped, self.upper, self.total = (zeros(n) for _ in range(5))
        self.boxes, self.dice = np.full((n, C), -1, dtype=np.int64), zeros(n, D)
        self.roll, self.rolls_left, self.done, self.error = zeros(n), zeros(n), zeros(n), zeros(n)
        self.rng = np.zeros(n, dtype=np.uint64)
        self.stages = np.zeros((n, max(game.rolls - 1, 1), game.dice.n_keeps) if judge else (1, 1, 1))
        self.reward, self.regret, self.value = np.zeros(n), np.zeros(n), np.zeros(n)
        self.mask = np.zeros((n, self.encoding.n_actions), dtype=np.int8)
        self.envs = Envs(self.used, self.group, self.capped, self.upper, self.total, self.boxes, self.dice, self.roll,
                         self.rolls_left, self.done, self.rng, self.stages, self.reward, self.regret, self.value,
                         self.error)

    def _run(self, actions: np.ndarray, restart: bool) -> None:
        g, m = self.game, self.model
        batch_step(actions, restart, self.judge, self.envs, g.rolls, NO_HAND_VALUES, self.values, m.rules, g.dice.graph)
        batch_masks(self.used, self.group, self.roll, self.rolls_left, self.done, self.mask, m.rules)

    def observations(self) -> dict[str, np.ndarray]:
        return {"cards": self.boxes[:, None, :].copy(), "dice": self.dice.copy(),
                "rolls_left": self.rolls_left[:, None].copy(), "totals": self.total[:, None].copy(),
                "upper": self.upper[:, None].copy(), "action_mask": self.mask.copy()}

    def info(self) -> dict[str, np.ndarray]:
        return {"value": self.value.copy(), "regret": self.regret.copy()} if self.judge else {}

    def reset(self, seed: int | None = None) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        base = np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0]
        self.rng[:] = [mix64(np.uint64((int(base) + i * 0x632BE59BD9B4E019) % (1 << 64))) for i in range(self.num_envs)]
        self._run(np.zeros(self.num_envs, dtype=np.int64), True)
        return self.observations(), self.info()

    def step(self, actions: np.ndarray):
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != (self.num_envs,):
            raise InputError(f"one action per environment: {self.num_envs}, not {actions.shape}")
        finished = self.done.astype(bool)
        n = self.encoding.n_actions
        inside = (actions >= 0) & (actions < n)
        legal = finished | (inside & (self.mask[np.arange(self.num_envs), np.clip(actions, 0, n - 1)] == 1))
        if not legal.all():  # refused before any game moves
            i = int(np.argmin(legal))
            a = int(actions[i])
            if not 0 <= a < n:
                raise InputError(f"environment {i}: action {a} is not one of 0..{n - 1}")
            raise InputError(f"environment {i}: action {a} ({self.encoding.action_labels()[a]}) is not legal now")
        self._run(actions, False)
        assert not self.error.any(), "the kernel refused an action the mask allowed"
        terminated = self.done.astype(bool) & ~finished
        return self.observations(), self.reward.copy(), terminated, self.info()
