"""Facts about optimal two-player play read from the exact table: how often Malina scratches a box, and
which, and what she keeps from each opening roll.

Scratch (waive) statistics are exact: the probability of every position under Malina-against-Malina
play is pushed forward through her decisions, turn by turn, from the start.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.dice import format_dice
from .duel import DuelPosition, DuelSolution
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
    model = solution.model
    game = solution.game
    dice = game.dice
    ptr, idx = dice.keep_sub
    mass = np.zeros(model.size)
    mass[model.index(DuelPosition(0, 0, 0))] = 1.0
    n = game.n_categories
    waives = np.zeros((WORKERS, n))
    zeros = np.zeros((WORKERS, n))
    levels = sorted(model.levels(), key=lambda sel: int(model.level[sel[0]]))
    for k, sel in enumerate(levels):
        if k + 1 < len(levels):
            nsel = levels[k + 1]
            starts = model.pair_offset[model.pa[nsel] * model.n_sets + model.pb[nsel]]
            ends = starts + model.maxsum[model.pa[nsel]] + model.maxsum[model.pb[nsel]] + 1
            lo, hi = int(starts.min()), int(ends.max())
        else:
            lo, hi = 0, 1
        next_mass = np.zeros((WORKERS, hi - lo))
        duel_forward_level(model.pa[sel], model.pb[sel], mass, solution.values, model.pair_offset, model.maxsum,
                                model.scores, model.full, dice.keep_add, ptr, idx, dice.roll_probabilities,
                                dice.roll_offset, game.rolls, lo, next_mass, waives, zeros)
        if k + 1 < len(levels):
            mass[lo:hi] += next_mass.sum(axis=0)
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
