"""Scoring a final roll on arrays: the rules of docs/RULES.md (jokers, forced order, the upper bonus, the
extra-yacht flag) as the kernels apply them, the one place that does, from the game's ``KernelRules``
(``game/kernel_rules.py``); ``ScorecardGame.legal_scores`` states the same rules in Python and the tests
compare the two.
"""

import numpy as np

from ....core.jit import borrowed, njit
from ..kernel_rules import KernelRules


@njit(cache=True, inline="always")
def lend(rules):
    """The rules with their arrays borrowed (``core.jit.borrowed``): a kernel lends itself its rules once,
    so that the scoring below, inlined in its loops, reads arrays that cost no reference counts (read from
    the owned tuple, they made the solve a third slower and a greedy player's games four times slower). Only
    for the length of the call that holds ``rules``."""
    return KernelRules(borrowed(rules.offset), borrowed(rules.n_upper_lanes), borrowed(rules.n_groups),
                       borrowed(rules.scores), borrowed(rules.upper_face), rules.threshold, rules.upper_points,
                       rules.yacht_cat, rules.xbonus, rules.joker_mode, borrowed(rules.joker_pts),
                       borrowed(rules.roll_yacht_face), borrowed(rules.upper_cat_of_face), rules.forced_order)


@njit(cache=True, inline="always")
def unpacked(blob):
    """``kernel_rules.packed``'s array read back as KernelRules (int64 arrays, borrowed from the blob)."""
    n_scalars = 7
    n_cats = blob[6]

    def part(i):
        return borrowed(blob[blob[n_scalars + i]: blob[n_scalars + i + 1]])

    scores = part(3)
    return KernelRules(part(0), part(1), part(2), scores.reshape((scores.shape[0] // n_cats, n_cats)), part(4),
                       blob[0], blob[1], blob[2], blob[3], blob[4], part(5), part(6), part(7), blob[5] != 0)


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
                      rules.joker_pts, rules.roll_yacht_face, rules.upper_cat_of_face, rules.forced_order)


@njit(cache=True, inline="always")
def score_with(u, g, r, c, scores, upper_face, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face,
               upper_cat_of_face, forced_order):
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
                       np.int64(joker_mode), joker_pts, upper_cat_of_face)


@njit(cache=True)
def yacht_again(u, g, c, s, f, upper_face, xbonus, joker_mode, joker_pts, upper_cat_of_face):
    """``score_choice`` for a yacht of face f thrown with the yacht box filled, scoring s in box c: the
    extra-yacht bonus and the joker rules.

    Called, not inlined: 6 rolls in 252 come here, and numba typed each inlined copy of this again in every
    kernel that scores (rl.evaluate's kernels compiled in 36.4-37.3 s against 41.0-41.6 with it inlined). The
    arguments are int64 so that it is compiled once a kind of table, whatever the callers' integer types."""
    n_cats = upper_face.shape[0]
    extra = xbonus if g == 1 else 0
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


@njit(cache=True, inline="always")
def upper_step(t, pts, c, rules):
    """The upper total after scoring pts in category c from total t (capped at the threshold), and the
    upper bonus this earns (paid the moment the threshold is reached)."""
    return upper_step_with(t, pts, c, rules.upper_face, rules.threshold, rules.upper_points)


@njit(cache=True, inline="always")
def upper_step_with(t, pts, c, upper_face, threshold, upper_points):
    """``upper_step`` on the rules' values one by one (the answer kernel's, as ``score_with``)."""
    if upper_face[c] == 0 or threshold == 0:
        return t, 0
    t2 = t + pts
    if t2 >= threshold:
        return threshold, (upper_points if t < threshold else 0)
    return t2, 0


@njit(cache=True, inline="always")
def next_group(u, g, c, pts, rules, groups_next):
    """Flag group after scoring: set when the yacht box is filled with points (``groups_next``: the flag
    groups of the set after it, looked up once by the callers that score many rolls)."""
    return next_group_with(u, g, c, pts, rules.yacht_cat, groups_next)


@njit(cache=True, inline="always")
def next_group_with(u, g, c, pts, yacht_cat, groups_next):
    """``next_group`` on the rules' values one by one (the answer kernel's, as ``score_with``)."""
    if groups_next == 1:
        return 0
    if c == yacht_cat and not (u >> yacht_cat) & 1:
        return 1 if pts > 0 else 0
    return g


@njit(cache=True, inline="always")
def fill_box(u, g, t, c, pts, boxes, i, rules):
    """Simulated game i's box c filled with pts (written into ``boxes[i]``): its card's used boxes, flag
    group and upper total after it."""
    boxes[i, c] = pts
    t = upper_step(t, pts, c, rules)[0]
    g = next_group(u, g, c, pts, rules, rules.n_groups[u | (1 << c)])
    return u | (1 << c), g, t
