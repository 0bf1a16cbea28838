"""Facts about optimal two-player play read from the exact table: how often Malina scratches a box, and
which, what she keeps from each opening roll, and where that departs from Maximus.

Scratch (waive) statistics are exact: the probability of every position under Malina-against-Malina
play is pushed forward through her decisions, turn by turn, from the start.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..core.dice import format_dice
from ..core.arrays import frozen
from ..core.results import BoxFacts, Departure, StrategyFacts
from .duel import DuelPosition, DuelSolution, LevelSegment, cells_of
from .kernels.duel_eval import duel_forward_level

WORKERS = 2
TIE = 1e-6  # equities closer than this are a tie (the table is float32)


@dataclass(frozen=True)
class WaiveFacts:
    game: str
    zero_per_turn: float  # boxes scored 0 per turn (both players)
    waives_per_turn: float  # ... of which another open box would have scored points
    zero_by_category: dict[str, float]  # expected zero-scores per game, per box
    waives_by_category: dict[str, float]


def waive_facts(solution: DuelSolution, progress: Callable[[int, int], None] | None = None) -> WaiveFacts:
    """Forward from the start, level by level: only this level's probabilities, the next level's and the
    next level's equities are held (two-person Yacht's largest level: 256 million cells)."""
    model = solution.model
    game = solution.game
    dice = game.dice
    ptr, idx = dice.keep_sub
    n = game.n_categories
    waives = np.zeros((WORKERS, n))
    zeros = np.zeros((WORKERS, n))
    upward = model.segments[::-1]  # from the start (nothing filled) to the last turn
    mass = np.zeros(upward[0].cells)
    mass[model.index(DuelPosition(0, 0, 0)) - upward[0].start] = 1.0
    for k, seg in enumerate(upward):
        nxt = upward[k + 1] if k + 1 < len(upward) else LevelSegment(-1, 0, 0, 0, 1)
        next_mass = np.zeros((WORKERS, nxt.cells))
        equities = frozen(cells_of(solution.values, nxt.start, nxt.stop))
        duel_forward_level(model.pa[seg.first_pair:seg.end_pair], model.pb[seg.first_pair:seg.end_pair], mass,
                           seg.start, equities, nxt.start, model.pair_offset, model.maxsum, model.scores, model.full,
                           dice.keep_add, ptr, idx, dice.roll_probabilities, dice.roll_offset, game.rolls, nxt.start,
                           next_mass, waives, zeros)
        mass = next_mass.sum(axis=0)
        del next_mass, equities
        if progress:
            progress(k + 1, len(upward))
    turns = 2 * n
    names = [c.name for c in game.categories]
    return WaiveFacts(game.canonical, float(zeros.sum()) / turns, float(waives.sum()) / turns,
                      dict(zip(names, zeros.sum(axis=0).tolist())), dict(zip(names, waives.sum(axis=0).tolist())))


def opening_keeps(solution: DuelSolution) -> dict[str, tuple[str, float]]:
    """Malina's keep after the first throw of the game, for every roll: roll -> (keep, equity)."""
    game = solution.game
    start = DuelPosition(0, 0, 0)
    result = {}
    for roll in game.dice.rolls:
        eq = solution.keep_equities(start, roll, game.rolls - 1)
        keep = max(eq, key=lambda k: (eq[k], len(k)))
        result[format_dice(roll, game.faces)] = (format_dice(keep, game.faces), eq[keep])
    return result


def departures_from_maximus(solution: DuelSolution) -> tuple[int, list[Departure]]:
    """The opening rolls where Malina keeps other dice than Maximus (the solitaire optimum) and Maximus's
    keep costs her equity, with the equity each keep gives with perfect play afterwards: (distinct opening
    rolls, departures, costliest first)."""
    from .solitaire import TurnState, load_or_solve

    game = solution.game
    dice = game.dice
    if game.rolls < 2:
        return dice.n_rolls, []
    solo, _ = load_or_solve(game)
    points = solo.model.keep_values(solo.values, TurnState(0), game.rolls - 1)
    start = DuelPosition(0, 0, 0)
    found = []
    for roll in dice.rolls:
        eq = solution.keep_equities(start, roll, game.rolls - 1)
        keep = max(eq, key=lambda k: (eq[k], len(k)))
        theirs = max(eq, key=lambda k: (points[dice.keep_index(k)], len(k)))
        if eq[keep] - eq[theirs] > TIE:  # Malina would not be indifferent
            found.append(Departure(roll=format_dice(roll, game.faces), keep=format_dice(keep, game.faces),
                                   equity=eq[keep], maximus_keep=format_dice(theirs, game.faces),
                                   maximus_equity=eq[theirs], cost=eq[keep] - eq[theirs]))
    found.sort(key=lambda d: -d.cost)
    return dice.n_rolls, found


def strategy_facts(solution: DuelSolution, progress: Callable[[int, int], None] | None = None) -> StrategyFacts:
    """Every fact above, as one result."""
    start = time.perf_counter()
    waives = waive_facts(solution, progress)
    rolls, departures = departures_from_maximus(solution)
    boxes = [BoxFacts(box=name, zero=zero, waived=waives.waives_by_category[name])
             for name, zero in waives.zero_by_category.items()]
    return StrategyFacts(game=solution.game.canonical, zero_per_turn=waives.zero_per_turn,
                         waives_per_turn=waives.waives_per_turn, boxes=boxes, opening_rolls=rolls,
                         departures=departures, seconds=time.perf_counter() - start)
