"""A scorecard game's rules as the kernels read them: one typed structure, built once per game
(``ScorecardGame.kernel_rules``) and passed to every kernel as one argument, where ``game/kernels/scoring.py``
alone applies them (a box's points, the jokers, the upper bonus, the yacht flag).

It carries the table's layout too, since the rules make it: a used set ``u``'s turn states start at
``offset[u]``, one for each capped upper total it can hold (``n_upper_lanes[u]``: 1 once the bonus is
settled or where there is none) and each yacht-flag group (``n_groups[u]``: 2 once the yacht box is used
in a game with an extra-yacht bonus). Numpy only: built without loading numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from .rules import ScorecardGame

JOKER_MODES = {"none": 0, "forced": 1, "free": 2}


class KernelRules(NamedTuple):
    """The rules and the table layout, in the types every kernel is compiled for (one compilation a kernel)."""

    offset: np.ndarray  # [used set + 1] int64: where each used set's turn states start in the table
    n_upper_lanes: np.ndarray  # [used set] int32: its capped upper totals
    n_groups: np.ndarray  # [used set] int32: its yacht-flag groups
    scores: np.ndarray  # [roll, box] int64: the box's points for the roll, no joker
    upper_face: np.ndarray  # [box] int64: the face of an upper box, 0 for the others
    threshold: int  # the upper bonus's threshold (0: no bonus)
    upper_points: int  # the upper bonus
    yacht_cat: int  # the box of the extra-yacht rules (-1: none)
    xbonus: int  # the extra-yacht bonus
    joker_mode: int  # JOKER_MODES
    joker_pts: np.ndarray  # [box] int64: a lower box's points under the joker (-1: its own)
    roll_yacht_face: np.ndarray  # [roll] int64: the face of a yacht (0: no yacht)
    upper_cat_of_face: np.ndarray  # [face] int64: the upper box of the face (-1: none)
    forced_order: bool  # boxes filled in card order


SCALARS = ("threshold", "upper_points", "yacht_cat", "xbonus", "joker_mode", "forced_order")
ARRAYS = ("offset", "n_upper_lanes", "n_groups", "scores", "upper_face", "joker_pts", "roll_yacht_face",
          "upper_cat_of_face")


def packed(rules: KernelRules) -> np.ndarray:
    """The rules in one int64 array (``core.arrays.pack``: the scalars, then the arrays' bounds, then the arrays),
    for a kernel called once per position from Python: numba checks a tuple's every field on each call, a
    tenth of a millisecond, and one array's type at once. ``kernels.scoring.unpacked`` reads it back."""
    from ...core.arrays import pack

    return pack([int(getattr(rules, name)) for name in SCALARS] + [rules.scores.shape[1]],
                [getattr(rules, name) for name in ARRAYS])


def kernel_rules(game: ScorecardGame) -> KernelRules:
    """The game's kernel rules (``ScorecardGame.kernel_rules`` keeps them)."""
    n = game.n_categories
    lanes, groups = turn_lanes(game)
    offset = np.zeros((1 << n) + 1, dtype=np.int64)
    np.cumsum(lanes * groups, out=offset[1:])
    upper = [c for c, cat in enumerate(game.categories) if cat.is_upper]
    x = game.extra_yacht
    joker_pts = np.full(n, -1, dtype=np.int64)
    for c in x.joker_categories if x else ():
        joker_pts[c] = game.categories[c].fixed_points or 0
    dice = game.dice
    roll_yacht_face = np.zeros(dice.n_rolls, dtype=np.int64)
    for r in range(dice.n_rolls):
        full = np.nonzero(dice.counts[r] == game.n_dice)[0]
        if len(full):
            roll_yacht_face[r] = full[0] + 1
    upper_cat_of_face = np.full(game.faces + 1, -1, dtype=np.int64)
    for c in upper:
        upper_cat_of_face[game.categories[c].face] = c
    return KernelRules(
        offset=offset,
        n_upper_lanes=lanes.astype(np.int32),
        n_groups=groups.astype(np.int32),
        scores=np.ascontiguousarray(game.score_table.astype(np.int64)),
        upper_face=np.array([cat.face if cat.is_upper else 0 for cat in game.categories], dtype=np.int64),
        threshold=int(game.upper_threshold) if game.has_upper_bonus else 0,
        upper_points=int(game.upper_points) if game.has_upper_bonus else 0,
        yacht_cat=x.category if x else -1,
        xbonus=int(x.points) if x else 0,
        joker_mode=JOKER_MODES[x.joker] if x else 0,
        joker_pts=joker_pts,
        roll_yacht_face=roll_yacht_face,
        upper_cat_of_face=upper_cat_of_face,
        forced_order=bool(game.forced_order),
    )


def turn_lanes(game: ScorecardGame) -> tuple[np.ndarray, np.ndarray]:
    """For every used set: the upper totals a turn start can hold (1 when the bonus is settled or absent),
    and the yacht-flag groups (2 once the yacht box is used in games with an extra-yacht bonus)."""
    masks = np.arange(1 << game.n_categories, dtype=np.int64)
    lanes = np.ones(masks.size, dtype=np.int64)
    if game.has_upper_bonus:
        reach = np.zeros(masks.size, dtype=np.int64)
        all_upper = np.ones(masks.size, dtype=bool)
        for i, cat in enumerate(game.categories):
            if cat.is_upper:
                used = (masks >> i) & 1
                reach += used * int(game.max_scores[i])
                all_upper &= used.astype(bool)
        lanes = np.minimum(reach, game.upper_threshold) + 1
        lanes[all_upper] = 1
    groups = np.ones(masks.size, dtype=np.int64)
    if game.tracks_yacht_flag and game.extra_yacht is not None:
        groups += (masks >> game.extra_yacht.category) & 1
    return lanes, groups
