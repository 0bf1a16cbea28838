"""Matches between Farkle bots: every deal of dice played in both seating orders, the k-th throw of a
game showing the same dice whoever throws it (the first of them, when fewer than six are thrown)."""

from __future__ import annotations

import time
from typing import Any, Callable, Sequence

import numpy as np

from ..core.family import MatchGames
from .rules import DICE, FarkleGame
from ..core.steps import DiceRoll

MAX_STEPS = 100_000  # a game between bots that never bank would not end: cut, and counted a draw


def play_one(game: FarkleGame, bots: Sequence[Any], dice: np.ndarray, rng: np.random.Generator) -> tuple[int, ...]:
    """One game: ``bots[seat]`` decides for each seat, ``dice[k]`` is the k-th throw. Returns the final scores."""
    state = game.start()
    throws = 0
    for _ in range(MAX_STEPS):
        if state.winner is not None:
            return state.scores
        if state.is_chance():
            if throws == len(dice):
                dice = np.concatenate([dice, rng.integers(1, 7, size=dice.shape)])
            state = state.apply(DiceRoll(tuple(sorted(int(d) for d in dice[throws, : state.left]))))
            throws += 1
        else:
            state = state.apply(bots[state.mover].choose(state, rng))
    return state.scores


def farkle_match(game: FarkleGame, bots: Sequence[Any], n: int, seed: int,
                 progress: Callable[[int, int], None] | None = None) -> MatchGames:
    start = time.perf_counter()
    deals = max(1, (n + 1) // 2)
    labels = [b.name for b in bots]
    if labels[0] == labels[1]:
        labels[1] = f"{labels[1]} (2)"
    totals = np.zeros((2 * deals, 2), dtype=np.int64)
    seats = np.zeros((2 * deals, 2), dtype=np.int64)
    results = np.zeros((2 * deals, 2))
    for d in range(deals):
        rng = np.random.default_rng([seed, d])
        dice = rng.integers(1, 7, size=(400, DICE))
        for r in range(2):
            order = (0, 1) if r == 0 else (1, 0)  # order[seat] = the bot in that seat
            scores = play_one(game, [bots[order[0]], bots[order[1]]], dice, np.random.default_rng([seed, d, r]))
            row = 2 * d + r
            for seat, bot in enumerate(order):
                totals[row, bot] = scores[seat]
                seats[row, bot] = seat
            winner = int(np.argmax(scores)) if max(scores) >= game.goal else -1
            for seat, bot in enumerate(order):
                results[row, bot] = 0.0 if winner < 0 else (1.0 if seat == winner else -1.0)
        if progress:
            progress(d + 1, deals)
    return MatchGames(labels, totals, results, seats, 2, time.perf_counter() - start)
