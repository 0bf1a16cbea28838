"""Despirala matches between bots: many games with the seat order swapped every other game and the same
dice for a seat in both orders (common random numbers), with win rates and confidence intervals."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ..core.errors import InputError
from .rules import DespiralaGame
from .state import COLLECT, DECIDE, DespiralaState, Event, apply, draw_event, start_state

MAX_MATCH_GAMES = 1_000_000


def play_bots(game: DespiralaGame, bots: Sequence, rngs: Sequence[np.random.Generator],
              state: DespiralaState | None = None) -> DespiralaState:
    """Play a game to its end: seat i's decisions by ``bots[i]``, its dice from ``rngs[i]``."""
    state = state or start_state(len(bots))
    while not state.over:
        p = state.mover
        if state.phase in (DECIDE, COLLECT):
            event = Event("move", p, move=bots[p].choose(game, state))
        else:
            event = draw_event(state, rngs[p])
        state = apply(game, state, event)
    return state


def _interval(wins: float, n: int) -> tuple[float, float, float]:
    """Rate and its 95% normal interval (ties counted as half a win)."""
    if n == 0:
        return 0.0, 0.0, 0.0
    p = wins / n
    half = 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / n)
    return p, max(0.0, p - half), min(1.0, p + half)


@dataclass
class DespiralaMatch:
    game: str
    a: str
    b: str
    games: int
    seed: int
    win_rate: float  # A's wins + half the ties, over all games
    win_low: float
    win_high: float
    first: float  # A's rate when A moved first
    first_low: float
    first_high: float
    second: float
    second_low: float
    second_high: float
    ties: int
    a_mean: float
    b_mean: float
    seconds: float


def despirala_match(game: DespiralaGame, a, b, games: int, seed: int = 0,
                    progress: Callable[[int, int], None] | None = None) -> DespiralaMatch:
    """``games`` games of bot ``a`` against bot ``b`` (an even number: each deal is played both ways)."""
    if not 2 <= games <= MAX_MATCH_GAMES:
        raise InputError(f"a match has 2 to {MAX_MATCH_GAMES:,} games")
    start = time.perf_counter()
    pairs = (games + 1) // 2
    score = {True: [0.0, 0], False: [0.0, 0]}  # A moved first -> [A's points of result, games]
    ties = 0
    a_points: list[int] = []
    b_points: list[int] = []
    for i in range(pairs):
        for a_first in (True, False):
            bots = [a, b] if a_first else [b, a]
            rngs = [np.random.default_rng([seed, i, seat]) for seat in range(2)]
            final = play_bots(game, bots, rngs)
            mine, theirs = (final.seats[0].final, final.seats[1].final) if a_first else (final.seats[1].final, final.seats[0].final)
            a_points.append(mine)
            b_points.append(theirs)
            better = (mine > theirs) if game.mode == "normal" else (mine < theirs)
            result = 0.5 if mine == theirs else float(better)
            ties += mine == theirs
            score[a_first][0] += result
            score[a_first][1] += 1
        if progress:
            progress(2 * (i + 1), 2 * pairs)
    total = score[True][0] + score[False][0]
    n = score[True][1] + score[False][1]
    rate = _interval(total, n)
    first = _interval(*score[True])
    second = _interval(*score[False])
    return DespiralaMatch(game.canonical, a.name, b.name, n, seed, *rate, *first, *second, ties,
                          float(np.mean(a_points)), float(np.mean(b_points)), time.perf_counter() - start)
