"""A slow, obviously correct solitaire solver for tiny scorecard games (tests only).

It follows RULES.md directly: ordered dice, every subset of dice positions as a keep, explicit
scoring with the upper bonus paid at the end and the joker rules spelled out, and memoised recursion.
It shares no code with the kernels beyond the category scoring functions.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from dicesolver.games import ScorecardGame


def _counts(game: ScorecardGame, dice) -> tuple[int, ...]:
    return tuple(dice.count(f) for f in range(1, game.faces + 1))


def legal_scores(game: ScorecardGame, boxes: tuple, dice: tuple) -> list[tuple[int, int, int]]:
    """(category, points in the box, extra bonus) for every legal way to score ``dice``."""
    open_cats = [c for c, v in enumerate(boxes) if v is None]
    if game.forced_order:
        open_cats = open_cats[:1]
    counts = _counts(game, dice)
    natural = {c: game.categories[c].score(counts) for c in open_cats}
    x = game.extra_yacht
    is_yacht = max(counts) == game.n_dice
    if x is None or not is_yacht or boxes[x.category] is None:
        return [(c, natural[c], 0) for c in open_cats]
    extra = x.points if boxes[x.category] > 0 else 0
    face = dice[0]
    matching = [c for c, cat in enumerate(game.categories) if cat.is_upper and cat.face == face]
    matching_open = bool(matching) and boxes[matching[0]] is None
    if x.joker == "none":
        return [(c, natural[c], extra) for c in open_cats]

    def joker_points(c):
        return game.categories[c].fixed_points if c in x.joker_categories else natural[c]

    if x.joker == "forced":
        if matching_open and (not game.forced_order or matching[0] in open_cats):
            return [(matching[0], natural[matching[0]], extra)]
        lower = [c for c in open_cats if not game.categories[c].is_upper]
        if lower:
            return [(c, joker_points(c), extra) for c in lower]
        return [(c, natural[c], extra) for c in open_cats]
    return [(c, joker_points(c) if not matching_open else natural[c], extra) for c in open_cats]


def final_score_bonus(game: ScorecardGame, boxes: tuple) -> int:
    upper = sum(v for c, v in enumerate(boxes) if game.categories[c].is_upper)
    return game.upper_points if game.has_upper_bonus and upper >= game.upper_threshold else 0


def solve_reference(game: ScorecardGame):
    """Returns value(boxes) -> expected future points from the start of a turn (bonuses included)."""
    faces = range(1, game.faces + 1)
    n = game.n_dice

    @lru_cache(maxsize=None)
    def value(boxes: tuple) -> float:
        if all(v is not None for v in boxes):
            return 0.0
        # the upper bonus is counted when the card is complete: compare with and without
        throws = list(itertools.product(faces, repeat=n))
        return sum(after_roll(boxes, tuple(sorted(t)), game.rolls - 1) for t in throws) / len(throws)

    @lru_cache(maxsize=None)
    def after_roll(boxes: tuple, dice: tuple, rolls_left: int) -> float:
        best = float("-inf")
        if rolls_left == 0:
            for c, pts, extra in legal_scores(game, boxes, dice):
                nb = boxes[:c] + (pts,) + boxes[c + 1:]
                bonus = final_score_bonus(game, nb) if all(v is not None for v in nb) else 0
                best = max(best, pts + extra + bonus + value(nb))
            return best
        for mask in range(1 << n):
            kept = tuple(dice[i] for i in range(n) if mask >> i & 1)
            throws = list(itertools.product(faces, repeat=n - len(kept)))
            v = sum(after_roll(boxes, tuple(sorted(kept + t)), rolls_left - 1) for t in throws) / len(throws)
            best = max(best, v)
        return best

    return value
