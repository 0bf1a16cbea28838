"""Scoring a final roll on arrays: the rules of docs/RULES.md (jokers, forced order, the set bonuses, the
extra-yacht flag) as the kernels apply them, the one place that does, from the game's ``KernelRules``
(``game/kernel_rules.py``); ``ScorecardGame.legal_scores`` states the same rules in Python and the tests
compare the two.

What a kernel needs of a card's state beyond its used boxes goes through three calls here, so that a new
rule of this kind changes this file and not the kernels: ``bonus_step`` (the progress code after a box, and
the set bonuses it pays), ``lane_of``/``code_of`` (between a code and a set's bonus lane) and
``next_group`` (the yacht-flag group after a box).
"""

import numpy as np
from numba import types
from numba.extending import overload

from ....core.jit import borrowed, njit
from ..kernel_rules import KernelRules


@njit(cache=True, inline="always")
def lend(rules):
    """The rules with their arrays borrowed (``core.jit.borrowed``): a kernel lends itself its rules once,
    so that the scoring below, inlined in its loops, reads arrays that cost no reference counts (read from
    the owned tuple, they made the solve a third slower and a greedy player's games four times slower). Only
    for the length of the call that holds ``rules``."""
    return KernelRules(borrowed(rules.offset), borrowed(rules.n_bonus_lanes), borrowed(rules.n_groups),
                       borrowed(rules.scores), borrowed(rules.upper_face), rules.threshold, rules.upper_points,
                       rules.yacht_cat, rules.xbonus, rules.joker_mode, borrowed(rules.joker_pts),
                       borrowed(rules.roll_yacht_face), borrowed(rules.upper_cat_of_face), rules.forced_order,
                       rules.times, rules.general, borrowed(rules.in_bonus), borrowed(rules.bonus_threshold),
                       borrowed(rules.bonus_points), borrowed(rules.code_stride), borrowed(rules.bonus_radix))


@njit(cache=True, inline="always")
def unpacked(blob):
    """``kernel_rules.packed``'s array read back as KernelRules (int64 arrays, borrowed from the blob)."""
    n_scalars = 9
    n_cats = blob[8]

    def part(i):
        return borrowed(blob[blob[n_scalars + i]: blob[n_scalars + i + 1]])

    scores = part(3)
    return KernelRules(part(0), part(1), part(2), scores.reshape((scores.shape[0] // n_cats, n_cats)), part(4),
                       blob[0], blob[1], blob[2], blob[3], blob[4], part(5), part(6), part(7), blob[5] != 0,
                       blob[6], blob[7] != 0, part(8), part(9), part(10), part(11), part(12))


@njit(cache=True, inline="always")
def first_open(u, n_cats):
    for c in range(n_cats):
        if not (u >> c) & 1:
            return c
    return -1


@njit(cache=True, inline="always")
def score_choice(u, g, r, c, rules):
    """Scoring roll r in open category c from used set u, flag group g.

    Returns (allowed, points, extra): points go to the box (and the upper total when c is upper);
    extra is the extra-yacht bonus earned. ``allowed`` is False where a forced rule forbids c.
    """
    return score_with(u, g, r, c, rules.scores, rules.upper_face, rules.yacht_cat, rules.xbonus, rules.joker_mode,
                      rules.joker_pts, rules.roll_yacht_face, rules.upper_cat_of_face, rules.forced_order, rules.times)


@njit(cache=True, inline="always")
def score_with(u, g, r, c, scores, upper_face, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face,
               upper_cat_of_face, forced_order, times):
    """``score_choice`` on the rules' values one by one: for the answer kernel, which reads them once from
    its packed model (``solitaire/kernels/answers.py``) and passes ``forced_order`` as a constant 0 where its
    callers offer only the boxes the order allows (the check then folds away: run for every option of a
    batch, it cost a tenth of its time). The rules handed down in one tuple cost it 12% of a batch."""
    n_cats = scores.shape[1]
    if forced_order and c != first_open(u, n_cats):
        return False, 0, 0
    s = scores[r, c]
    f = roll_yacht_face[r]
    if f == 0 or yacht_cat < 0 or not (u >> yacht_cat) & 1 or joker_mode == 0 and xbonus == 0:
        return True, s, 0
    return yacht_again(np.int64(u), np.int64(g), np.int64(c), np.int64(s), np.int64(f), upper_face, np.int64(xbonus),
                       np.int64(joker_mode), joker_pts, upper_cat_of_face, np.int64(times))


@njit(cache=True)
def yacht_again(u, g, c, s, f, upper_face, xbonus, joker_mode, joker_pts, upper_cat_of_face, times):
    """``score_choice`` for a yacht of face f thrown with the yacht box filled, scoring s in box c: the
    extra-yacht bonus and the joker rules.

    Called, not inlined: 6 rolls in 252 come here, and numba typed each inlined copy of this again in every
    kernel that scores (rl.evaluate's kernels compiled in 36.4-37.3 s against 41.0-41.6 with it inlined). The
    arguments are int64 so that it is compiled once a kind of table, whatever the callers' integer types."""
    n_cats = upper_face.shape[0]
    extra = xbonus if g >= 1 and (times == 0 or g <= times) else 0  # group 1 + the bonuses paid, where limited
    if joker_mode == 0:
        return True, s, extra
    uc = upper_cat_of_face[f]
    matching_open = uc >= 0 and not (u >> uc) & 1
    if joker_mode == 1:  # forced joker
        if matching_open:
            return c == uc, s, extra
        if upper_face[c] > 0:
            # an upper box only when every lower box is filled
            for d in range(n_cats):
                if upper_face[d] == 0 and not (u >> d) & 1:
                    return False, 0, 0
            return True, s, extra
        if joker_pts[c] >= 0:
            return True, joker_pts[c], extra
        return True, s, extra
    # free joker: full points in a joker box only when the matching upper box is filled
    if joker_pts[c] >= 0 and not matching_open:
        return True, joker_pts[c], extra
    return True, s, extra


# The calls that read a card's bonus state are chosen when a kernel is typed, by the type of ``KernelRules.general``:
# None where the upper bonus is the game's only set bonus (``kernel_rules``), so that the kernels of those
# games hold the fast path alone; a bool otherwise (the packed rules read back, whose games are not known when
# a kernel is compiled), decided when running. Typed into every kernel, the general path doubled the first
# solve's compile (the stripe kernel 3.2 -> 7.3 s) and made a first advice 4 s slower.


def is_general(rules) -> bool:
    """At typing: whether ``rules`` (a KernelRules type) may be general."""
    return not isinstance(rules.types[rules.fields.index("general")], types.NoneType)


def bonus_step(t, pts, c, rules):
    """The progress code after scoring pts in box c from code t (each bonus's sum capped at its threshold),
    and the set bonuses this pays (each the moment its threshold is reached). Kernels only."""
    raise NotImplementedError("a kernel's call (kernel_rules.py has the Python forms)")


@overload(bonus_step)
def _bonus_step(t, pts, c, rules):
    if not is_general(rules):
        return lambda t, pts, c, rules: upper_step_with(t, pts, c, rules.upper_face, rules.threshold,
                                                        rules.upper_points)

    def either(t, pts, c, rules):
        if rules.general:
            return general_step(np.int64(t), np.int64(pts), np.int64(c), rules.in_bonus, rules.bonus_threshold,
                                rules.bonus_points, rules.code_stride)
        return upper_step_with(np.int64(t), np.int64(pts), c, rules.upper_face, np.int64(rules.threshold),
                               np.int64(rules.upper_points))
    return either


@njit(cache=True)
def general_step(t, pts, c, in_bonus, bonus_threshold, bonus_points, code_stride):
    """``bonus_step`` for any set bonuses."""
    gain = 0
    for b in range(bonus_threshold.shape[0]):
        if (in_bonus[c] >> b) & 1:
            threshold = bonus_threshold[b]
            was = t // code_stride[b] % (threshold + 1)
            now = min(was + pts, threshold)
            t += (now - was) * code_stride[b]
            if now == threshold and was < threshold:
                gain += bonus_points[b]
    return t, gain


def lane_of(u, t, rules):
    """The bonus lane of progress code t in used set u (where its table entries are, after ``offset[u]``
    and the group). Kernels only."""
    raise NotImplementedError("a kernel's call (kernel_rules.py has the Python forms)")


@overload(lane_of)
def _lane_of(u, t, rules):
    def fast(u, t, rules):
        ln = rules.n_bonus_lanes[u]
        return t if t < ln else ln - 1

    if not is_general(rules):
        return fast

    def either(u, t, rules):
        if rules.general:
            return general_lane(np.int64(u), np.int64(t), rules.bonus_threshold, rules.code_stride,
                                rules.bonus_radix)
        ln = rules.n_bonus_lanes[u]
        return np.int64(t if t < ln else ln - 1)
    return either


@njit(cache=True)
def general_lane(u, t, bonus_threshold, code_stride, bonus_radix):
    n = bonus_threshold.shape[0]
    lane = 0
    place = 1
    for b in range(n):
        radix = bonus_radix[u * n + b]
        lane += min(t // code_stride[b] % (bonus_threshold[b] + 1), radix - 1) * place
        place *= radix
    return lane


def code_of(u, lane, rules):
    """The progress code of used set u's bonus lane (``lane_of`` read backwards). Kernels only."""
    raise NotImplementedError("a kernel's call (kernel_rules.py has the Python forms)")


@overload(code_of)
def _code_of(u, lane, rules):
    if not is_general(rules):
        return lambda u, lane, rules: lane

    def either(u, lane, rules):
        if rules.general:
            return general_code(np.int64(u), np.int64(lane), rules.bonus_threshold, rules.code_stride,
                                rules.bonus_radix)
        return np.int64(lane)
    return either


@njit(cache=True)
def general_code(u, lane, bonus_threshold, code_stride, bonus_radix):
    n = bonus_threshold.shape[0]
    t = 0
    for b in range(n):
        radix = bonus_radix[u * n + b]
        t += lane % radix * code_stride[b]
        lane //= radix
    return t


def state_key(u, g, t, rules):
    """One number for a turn state (used set, flag group, progress code), different for different states.
    Kernels only."""
    raise NotImplementedError("a kernel's call")


@overload(state_key)
def _state_key(u, g, t, rules):
    def fast(u, g, t, rules):
        return (u * 2 + g) * (rules.threshold + 1) + t  # t is at most the threshold

    if not is_general(rules):
        return fast

    def either(u, g, t, rules):
        if rules.general:
            n = rules.bonus_threshold.shape[0]
            codes = rules.code_stride[n - 1] * (rules.bonus_threshold[n - 1] + 1) if n > 0 else 1
            return (u * (2 + rules.times) + g) * codes + t
        return (u * 2 + g) * (rules.threshold + 1) + t
    return either


def general_rows(u, g, lu, buf, roll_offset, values, rules, open_cats, n_open, lns, bases, groups, uppers):
    """Whether a general game's rows of a solve's final stage were filled (``solitaire/kernels/solve.py``'s
    ``general_stage``; nothing, False, for the fast path's games). Kernels only."""
    raise NotImplementedError("a kernel's call")


@njit(cache=True, inline="always")
def upper_step_with(t, pts, c, upper_face, threshold, upper_points):
    """``bonus_step`` of a game whose one bonus is the upper one, on the rules' values one by one (the
    answer kernel's fast path, as ``score_with``): the code is the capped upper total."""
    if upper_face[c] == 0 or threshold == 0:
        return t, 0
    t2 = t + pts
    if t2 >= threshold:
        return threshold, (upper_points if t < threshold else 0)
    return t2, 0


@njit(cache=True, inline="always")
def next_group(u, g, c, pts, extra, rules, groups_next):
    """Flag group after scoring pts in box c, earning the extra-yacht bonus ``extra``: set when the yacht
    box is filled with points, one further for each bonus paid where their number is limited
    (``groups_next``: the flag groups of the set after it, looked up once by the callers that score many
    rolls)."""
    return next_group_with(u, g, c, pts, extra, rules.yacht_cat, rules.times, groups_next)


@njit(cache=True, inline="always")
def next_group_with(u, g, c, pts, extra, yacht_cat, times, groups_next):
    """``next_group`` on the rules' values one by one (the answer kernel's, as ``score_with``)."""
    if groups_next == 1:
        return 0
    if c == yacht_cat and not (u >> yacht_cat) & 1:
        return 1 if pts > 0 else 0
    if extra > 0 and times > 0:
        return g + 1
    return g


@njit(cache=True, inline="always")
def fill_box(u, g, t, c, pts, extra, boxes, i, rules):
    """Simulated game i's box c filled with pts, earning ``extra`` (written into ``boxes[i]``): its card's
    used boxes, flag group and progress code after it."""
    boxes[i, c] = pts
    t = bonus_step(t, pts, c, rules)[0]
    g = next_group(u, g, c, pts, extra, rules, rules.n_groups[u | (1 << c)])
    return u | (1 << c), g, t
