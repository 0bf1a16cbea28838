"""Exact comparison of two push-your-luck strategies (policy evaluation of both, no sampling)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .players import make_push_player
from .solver import PushSolution, evaluate


@dataclass(frozen=True)
class PushComparison:
    game: str
    a: str
    b: str
    first: float  # A's probability of winning when A moves first
    second: float  # ... when B moves first
    average: float
    seconds: float


def compare_push(solution: PushSolution, a: str, b: str) -> PushComparison:
    """A's exact probability of winning against B (policy evaluation of both fixed strategies)."""
    game = solution.game
    start = time.perf_counter()
    pa = make_push_player(a, game, solution)
    pb = make_push_player(b, game, solution)
    a_moving, b_moving = evaluate(game, pa.policy, pb.policy)
    first = float(a_moving[0, 0, 0])
    second = 1.0 - float(b_moving[0, 0, 0])
    return PushComparison(game.canonical, pa.name, pb.name, first, second, (first + second) / 2,
                          time.perf_counter() - start)
