"""Strategies for push-your-luck games, each a fixed policy ``policy[m, o, t]`` (1 throw, 0 hold) over
(own banked score, opponent's score, turn total), so that any two can be evaluated exactly against
each other (``pushluck.solver.evaluate``) and played by the same bot."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..core.errors import InputError
from .rules import PushGame
from .solver import PushTable

PUSH_STRATEGIES = {
    "optimal": "maximises the probability of winning (the exact solution)",
    "hold-at-20": "throws until the turn total reaches 20 (or the goal), then holds: the classic; hold-at-N for any N",
    "keep-pace": "Neller & Presser's 'keep pace and end race': goes for the goal when either score is past 71% of "
                 "it, else holds at 21% of the goal plus an eighth of the deficit",
}
_HOLD_AT = re.compile(r"^hold-?at-?(\d+)$")


@dataclass
class PushPlayer:
    name: str
    policy: np.ndarray  # int8 [goal, goal, goal]

    def throws(self, mine: int, theirs: int, turn_total: int) -> bool:
        goal = self.policy.shape[0]
        if mine + turn_total >= goal:
            return False
        return turn_total == 0 or bool(self.policy[mine, theirs, turn_total])


def _grid(goal: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (np.arange(goal)[:, None, None], np.arange(goal)[None, :, None], np.arange(goal)[None, None, :])


def _shared(policy: np.ndarray) -> np.ndarray:
    """A policy as every bot of a process shares it: int8, contiguous, read-only."""
    policy = np.ascontiguousarray(policy, dtype=np.int8)
    policy.flags.writeable = False
    return policy


@lru_cache(maxsize=32)  # one array per goal and N for the process, not one per game (Pig's: 1 MB)
def hold_at(goal: int, n: int) -> np.ndarray:
    m, _, t = _grid(goal)
    return _shared(np.broadcast_to((t < n) & (m + t < goal), (goal,) * 3))


@lru_cache(maxsize=8)
def keep_pace(goal: int) -> np.ndarray:
    m, o, t = _grid(goal)
    race = (m >= round(0.71 * goal)) | (o >= round(0.71 * goal))
    target = np.round(0.21 * goal + (o - m) / 8.0)
    return _shared(np.broadcast_to(((race & (m + t < goal)) | (t < target)) & (m + t < goal), (goal,) * 3))


def push_strategy_names(game: PushGame) -> str:
    return f"optimal, hold-at-N (N from 1 to {game.goal}) or keep-pace"


def make_push_player(name: str, game: PushGame, solution: PushTable | None = None) -> PushPlayer:
    """A strategy by name (see ``PUSH_STRATEGIES``); ``optimal`` needs the solution."""
    key = str(name).strip().lower()
    policy: np.ndarray
    if key in ("optimal", "opt"):
        if solution is None:
            raise InputError("the optimal strategy needs the solved game")
        policy = solution.policy
        key = "optimal"
    elif key == "keep-pace":
        policy = keep_pace(game.goal)
    elif m := _HOLD_AT.match(key):
        n = int(m.group(1))
        if not 1 <= n <= game.goal:
            raise InputError(f"hold-at-N needs N between 1 and {game.goal}, not {n}")
        policy = hold_at(game.goal, n)
        key = f"hold-at-{n}"
    else:
        raise InputError(f"unknown strategy {name!r} for {game.canonical}: {push_strategy_names(game)}")
    return PushPlayer(key, policy if not policy.flags.writeable else _shared(policy))
