"""Facts about optimal two-player play read from the exact table: how often Malina scratches a box, and
which, and what she keeps from each opening roll.

Scratch (waive) statistics are exact: the probability of every position under Malina-against-Malina
play is pushed forward through her decisions, turn by turn, from the start.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.dice import format_dice
from ..core.jit import frozen
from .duel import DuelPosition, DuelSolution, LevelSegment, cells_of
from .kernels.duel_eval import duel_forward_level

WORKERS = 2


@dataclass(frozen=True)
class WaiveFacts:
    game: str
    zero_per_turn: float  # boxes scored 0 per turn (both players)
    waives_per_turn: float  # ... of which another open box would have scored points
    zero_by_category: dict[str, float]  # expected zero-scores per game, per box
    waives_by_category: dict[str, float]


def waive_facts(solution: DuelSolution) -> WaiveFacts:
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
