"""A slow, obviously correct solitaire solver for tiny scorecard games (tests only).

It follows RULES.md directly: every ordered throw of the dice counted, every subset of dice positions as a
keep, the upper bonus paid at the end, the Python rules (``ScorecardGame.legal_scores``) for scoring, and
memoised recursion.
It shares no code with the kernels beyond the category scoring functions.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache

from dicesolver.scorecard.game.rules import ScorecardGame


def counted_throws(faces: int, k: int) -> list[tuple[tuple[int, ...], int]]:
    """Each throw of k dice of ``faces`` faces, sorted, with the number of ordered throws that show it."""
    return list(Counter(tuple(sorted(t)) for t in itertools.product(range(1, faces + 1), repeat=k)).items())


def final_score_bonus(game: ScorecardGame, boxes: tuple) -> int:
    upper = sum(v for c, v in enumerate(boxes) if game.categories[c].is_upper)
    return game.upper_points if game.has_upper_bonus and upper >= game.upper_threshold else 0


def solve_reference(game: ScorecardGame):
    """Returns value(boxes) -> expected future points from the start of a turn (bonuses included); its
    attribute ``after_roll(boxes, sorted dice, throws still allowed)`` is the same within a turn."""
    n = game.n_dice
    throws = {k: counted_throws(game.faces, k) for k in range(n + 1)}

    def mean(outcome, k: int) -> float:  # over every ordered throw of k dice
        return sum(count * outcome(t) for t, count in throws[k]) / game.faces**k

    @lru_cache(maxsize=None)
    def value(boxes: tuple) -> float:
        if all(v is not None for v in boxes):
            return 0.0
        # the upper bonus is counted when the card is complete: compare with and without
        return mean(lambda t: after_roll(boxes, t, game.rolls - 1), n)

    @lru_cache(maxsize=None)
    def after_roll(boxes: tuple, dice: tuple, rolls_left: int) -> float:
        best = float("-inf")
        if rolls_left == 0:
            for c, pts, extra in game.legal_scores(boxes, dice):
                nb = boxes[:c] + (pts,) + boxes[c + 1:]
                bonus = final_score_bonus(game, nb) if all(v is not None for v in nb) else 0
                best = max(best, pts + extra + bonus + value(nb))
            return best
        for kept in {tuple(dice[i] for i in range(n) if mask >> i & 1) for mask in range(1 << n)}:  # dice sorted
            best = max(best, mean(lambda t: after_roll(boxes, tuple(sorted(kept + t)), rolls_left - 1), n - len(kept)))
        return best

    value.after_roll = after_roll
    return value
