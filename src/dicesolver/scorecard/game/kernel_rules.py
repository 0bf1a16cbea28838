"""A scorecard game's rules as the kernels read them: one typed structure, built once per game
(``ScorecardGame.kernel_rules``) and passed to every kernel as one argument, where ``game/kernels/scoring.py``
alone applies them (a box's points, the jokers, the upper bonus, the yacht flag).

It carries the table's layout too, since the rules make it: a used set ``u``'s turn states start at
``offset[u]``, one for each *bonus lane* it can be in (``n_bonus_lanes[u]``) and each yacht-flag group
(``n_groups[u]``: 2 once the yacht box is used in a game with an extra-yacht bonus, more where that bonus
is paid a limited number of times: one group for each count paid).

A bonus lane is where a card stands on its way to its set bonuses (the upper bonus, a lower-section
bonus...): the points in each bonus's boxes, capped at its threshold. A kernel carries it as a *progress
code*, the capped sums in a fixed mixed radix (``code_stride``), and finds its lane in a set with
``lane_of``; a set's lanes count only the sums its used boxes can reach (1 for a bonus whose boxes are all
used). With the upper bonus alone (every game before the rule on any set), the code is the capped upper
total and the lane the same number: the kernels' fast paths. Numpy only: built without loading numba.
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
    n_bonus_lanes: np.ndarray  # [used set] int32: its capped upper totals
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
    times: int  # further yachts paid the extra-yacht bonus at most (0: every one)
    general: bool | None  # bonuses the fast paths do not cover (more than one, one not on the upper boxes, or
    # ``times``): True; None where they cover the game, so that its kernels are typed for the fast path alone
    in_bonus: np.ndarray  # [box] int64: the set bonuses its points count toward, as bits
    bonus_threshold: np.ndarray  # [bonus] int64
    bonus_points: np.ndarray  # [bonus] int64
    code_stride: np.ndarray  # [bonus] int64: a bonus's place in a progress code
    bonus_radix: np.ndarray  # [used set * bonuses] int64: the lanes of each bonus in each set (empty unless general)


SCALARS = ("threshold", "upper_points", "yacht_cat", "xbonus", "joker_mode", "forced_order", "times", "general")
ARRAYS = ("offset", "n_bonus_lanes", "n_groups", "scores", "upper_face", "joker_pts", "roll_yacht_face",
          "upper_cat_of_face", "in_bonus", "bonus_threshold", "bonus_points", "code_stride", "bonus_radix")


def packed(rules: KernelRules) -> np.ndarray:
    """The rules in one int64 array (``core.arrays.pack``: the scalars, then the arrays' bounds, then the arrays),
    for a kernel called once per position from Python: numba checks a tuple's every field on each call, a
    tenth of a millisecond, and one array's type at once. ``kernels.scoring.unpacked`` reads it back."""
    from ...core.arrays import pack

    return pack([int(bool(getattr(rules, name))) if name == "general" else int(getattr(rules, name))
                 for name in SCALARS] + [rules.scores.shape[1]],
                [getattr(rules, name) for name in ARRAYS])


def kernel_rules(game: ScorecardGame) -> KernelRules:
    """The game's kernel rules (``ScorecardGame.kernel_rules`` keeps them)."""
    n = game.n_categories
    lanes, groups, radix = turn_lanes(game)
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
    bonuses = game.bonuses
    in_bonus = np.zeros(n, dtype=np.int64)
    for b, bonus in enumerate(bonuses):
        in_bonus[list(bonus.boxes)] |= 1 << b
    thresholds = np.array([b.threshold for b in bonuses], dtype=np.int64)
    general = len(bonuses) > 1 or bool(game.set_bonuses) or bool(x and x.times)
    return KernelRules(
        offset=offset,
        n_bonus_lanes=lanes.astype(np.int32),
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
        times=int(x.times) if x else 0,
        general=True if general else None,
        in_bonus=in_bonus,
        bonus_threshold=thresholds,
        bonus_points=np.array([b.points for b in bonuses], dtype=np.int64),
        code_stride=np.concatenate([[1], np.cumprod(thresholds + 1)[:-1]]).astype(np.int64)[:len(bonuses)],
        bonus_radix=np.ascontiguousarray(radix.ravel()) if general else np.zeros(0, dtype=np.int64),
    )


def turn_lanes(game: ScorecardGame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every used set: its bonus lanes, its yacht-flag groups (2 once the yacht box is used in games
    with an extra-yacht bonus, 2 + times where the bonus is paid ``times`` at most), and each bonus's lanes
    ([set, bonus]: the capped sums its used boxes can reach, 1 when its boxes are all used)."""
    masks = np.arange(1 << game.n_categories, dtype=np.int64)
    radix = np.ones((masks.size, len(game.bonuses)), dtype=np.int64)
    for b, bonus in enumerate(game.bonuses):
        reach = np.zeros(masks.size, dtype=np.int64)
        settled = np.ones(masks.size, dtype=bool)
        for i in bonus.boxes:
            used = (masks >> i) & 1
            reach += used * int(game.max_scores[i])
            settled &= used.astype(bool)
        radix[:, b] = np.minimum(reach, bonus.threshold) + 1
        radix[settled, b] = 1
    lanes = radix.prod(axis=1)
    groups = np.ones(masks.size, dtype=np.int64)
    x = game.extra_yacht
    if game.tracks_yacht_flag and x is not None:
        groups += ((masks >> x.category) & 1) * (1 + x.times)
    return lanes, groups, radix


def progress_code(game: ScorecardGame, boxes: tuple[int | None, ...]) -> int:
    """A card's progress code: each bonus's points so far, capped at its threshold, in the code's radix."""
    code, stride = 0, 1
    for bonus in game.bonuses:
        code += min(sum(boxes[c] or 0 for c in bonus.boxes), bonus.threshold) * stride
        stride *= bonus.threshold + 1
    return code


def lane_of(rules: KernelRules, used: int, code: int) -> int:
    """The bonus lane of a progress code in used set ``used`` (``kernels.scoring.lane_of`` in Python)."""
    lanes = int(rules.n_bonus_lanes[used])
    if not rules.general:
        return min(code, lanes - 1)
    n = len(rules.bonus_threshold)
    lane, place = 0, 1
    for b in range(n):
        radix = int(rules.bonus_radix[used * n + b])
        lane += min(code // int(rules.code_stride[b]) % (int(rules.bonus_threshold[b]) + 1), radix - 1) * place
        place *= radix
    return lane


def code_of(rules: KernelRules, used: int, lane: int) -> int:
    """The progress code of a used set's bonus lane (``lane_of`` read backwards)."""
    if not rules.general:
        return lane
    n = len(rules.bonus_threshold)
    code = 0
    for b in range(n):
        radix = int(rules.bonus_radix[used * n + b])
        code += lane % radix * int(rules.code_stride[b])
        lane //= radix
    return code


def group_of(rules: KernelRules, used: int, yacht_points: bool, paid: int) -> int:
    """The yacht-flag group of a card: 0 unless the yacht box holds points (and the bonus is still tracked);
    then 1 + the bonuses paid where their number is limited."""
    if rules.n_groups[used] == 1 or not yacht_points:
        return 0
    return 1 + (min(paid, rules.times) if rules.times else 0)
