"""A slow, obviously correct solitaire solver for tiny scorecard games (tests only).

It follows RULES.md directly: every ordered throw of the dice counted, every subset of dice positions as a
keep, the set bonuses (the upper one among them) paid at the end, the Python rules (``ScorecardGame.legal_scores``) for scoring, and
memoised recursion.
It shares no code with the kernels beyond the category scoring functions.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from functools import lru_cache

from dicesolver.scorecard.game.rules import ScorecardGame


def counted_throws(faces: int, k: int) -> list[tuple[tuple[int, ...], int]]:
    """Each throw of k dice of ``faces`` faces, sorted, with the number of ordered throws that show it."""
    return list(Counter(tuple(sorted(t)) for t in itertools.product(range(1, faces + 1), repeat=k)).items())


def final_score_bonus(game: ScorecardGame, boxes: tuple) -> int:
    """The set bonuses a card earns, each counted from its own boxes (written out here, not the game's own sum)."""
    return sum(b.points for b in game.bonuses if sum(boxes[c] or 0 for c in b.boxes) >= b.threshold)


def solve_reference(game: ScorecardGame, theta: float = 0.0):
    """Returns value(boxes, paid=0) -> expected future points from the start of a turn (bonuses included),
    ``paid`` extra-yacht bonuses already earned; its attribute ``after_roll(boxes, sorted dice, throws still
    allowed, paid=0)`` is the same within a turn. With a risk appetite ``theta`` != 0, certainty equivalents
    ln E[exp(theta X)] / theta of the future points X instead, by its definition (exponentials of whole
    values: tiny games only)."""
    n = game.n_dice
    throws = {k: counted_throws(game.faces, k) for k in range(n + 1)}

    def mean(outcome, k: int) -> float:  # over every ordered throw of k dice
        if theta:
            return math.log(sum(count * math.exp(theta * outcome(t)) for t, count in throws[k])
                            / game.faces**k) / theta
        return sum(count * outcome(t) for t, count in throws[k]) / game.faces**k

    @lru_cache(maxsize=None)
    def value(boxes: tuple, paid: int = 0) -> float:
        if all(v is not None for v in boxes):
            return 0.0
        # the set bonuses are counted when the card is complete: compare with and without
        return mean(lambda t: after_roll(boxes, t, game.rolls - 1, paid), n)

    @lru_cache(maxsize=None)
    def after_roll(boxes: tuple, dice: tuple, rolls_left: int, paid: int = 0) -> float:
        best = float("-inf")
        if rolls_left == 0:
            for c, pts, extra in game.legal_scores(boxes, dice, paid):
                nb = boxes[:c] + (pts,) + boxes[c + 1:]
                bonus = final_score_bonus(game, nb) if all(v is not None for v in nb) else 0
                best = max(best, pts + extra + bonus + value(nb, paid + (extra > 0)))
            return best
        for kept in {tuple(dice[i] for i in range(n) if mask >> i & 1) for mask in range(1 << n)}:  # dice sorted
            best = max(best, mean(lambda t: after_roll(boxes, tuple(sorted(kept + t)), rolls_left - 1, paid),
                                  n - len(kept)))
        return best

    value.after_roll = after_roll
    return value
