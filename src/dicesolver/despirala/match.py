"""Despirala matches between bots: many games with the seat order swapped every other game and the same
dice for a seat in both orders (common random numbers), with win rates and confidence intervals."""

from __future__ import annotations

import time
from typing import Callable, Sequence

import numpy as np

from ..core.errors import InputError
from ..core.family import MatchGames
from .rules import DespiralaGame
from .state import COLLECT, DECIDE, DespiralaState, Event, apply_event, draw_event, start_state

MAX_MATCH_GAMES = 1_000_000


def play_bots(game: DespiralaGame, bots: Sequence, rngs: Sequence[np.random.Generator],
              state: DespiralaState | None = None) -> DespiralaState:
    """Play a game to its end: seat i's decisions by ``bots[i]``, its dice from ``rngs[i]``."""
    state = state or start_state(len(bots), game)
    while not state.over:
        p = state.mover
        if state.phase in (DECIDE, COLLECT):
            event = Event("move", p, move=bots[p].choose(game, state))
        else:
            event = draw_event(state, rngs[p])
        state = apply_event(game, state, event)
    return state


def despirala_match(game: DespiralaGame, a, b, games: int, seed: int = 0,
                    progress: Callable[[int, int], None] | None = None) -> MatchGames:
    """``games`` games of bot ``a`` against bot ``b`` (an even number: each deal is played both ways, seat i
    throwing the deal's dice of seat i)."""
    if not 2 <= games <= MAX_MATCH_GAMES:
        raise InputError(f"a match has 2 to {MAX_MATCH_GAMES:,} games")
    start = time.perf_counter()
    pairs = (games + 1) // 2
    totals = np.zeros((2 * pairs, 2), dtype=np.int64)
    seats = np.zeros((2 * pairs, 2), dtype=np.int64)
    for i in range(pairs):
        for k, a_first in enumerate((True, False)):
            bots = [a, b] if a_first else [b, a]
            rngs = [np.random.default_rng([seed, i, seat]) for seat in range(2)]
            final = play_bots(game, bots, rngs)
            g = 2 * i + k
            seats[g] = (0, 1) if a_first else (1, 0)
            totals[g] = (final.seats[seats[g, 0]].final, final.seats[seats[g, 1]].final)
        if progress:
            progress(2 * (i + 1), 2 * pairs)
    sign = 1 if game.mode == "normal" else -1
    diff = np.sign(sign * (totals[:, 0] - totals[:, 1]))
    results = np.stack([diff, -diff], axis=1).astype(np.float64)
    return MatchGames([a.name, b.name], totals, results, seats, 2, time.perf_counter() - start,
                      higher_is_better=game.mode == "normal")
