"""Mindful Maximus: the expected result of every option from the players' future-score distributions.
"""

from typing import NamedTuple

import numpy as np

from ....core.jit import borrowed, njit
from ....core.kernels import lend_graph
from ...game.kernels.scoring import bonus_step, lane_of, lend, next_group, score_choice
from ...turn.kernels.widget import NEG, best_keeps, expect_keeps

#
# Every player is assumed to play Maximus from here on. G(T) is the expected result of finishing with
# total T against the opponents' final totals (their scores plus their future distributions): win
# n - 1, k tied leaders (n - k) / k each, loss -1. An option ending the turn in state s' with p points
# now is worth sum_x D_s'(x) G(cur + p + x), plus TIE_BREAK per expected point so that options of equal
# equity (a decided game) are ordered as Maximus orders them.

TIE_BREAK = 1e-12


class Futures(NamedTuple):
    """Every turn-start state's distribution of future points under Maximus (``mindful.future.FutureTable``)
    as the kernels read it: state s's probabilities of start[s], start[s] + 1, ... more points are
    data[offset[s]:offset[s] + length[s]]."""

    data: np.ndarray  # float32
    offset: np.ndarray  # int64
    start: np.ndarray  # int32
    length: np.ndarray  # int32


@njit(cache=True, inline="always")
def lend_futures(futures):
    """The futures with their arrays borrowed, as ``scoring.lend`` lends the rules (``core.jit.borrowed``)."""
    return Futures(borrowed(futures.data), borrowed(futures.offset), borrowed(futures.start),
                   borrowed(futures.length))


@njit(cache=True)
def result_curve(n_players, opp_lo, opp_len, opp_off, opp_p, out):
    """out[i] = G(M_lo + i) for totals between the opponents' highest possible minimum M_lo and their
    highest maximum (below: -1, above: n - 1). Returns M_lo."""
    m = opp_lo.shape[0]
    lo = -(1 << 40)
    for q in range(m):
        if opp_lo[q] > lo:
            lo = opp_lo[q]
    coef = np.empty(m + 1)
    below = np.zeros(m)  # P(Y_q < y), advanced one total at a time
    for q in range(m):
        for x in range(opp_len[q]):
            if opp_lo[q] + x < lo:
                below[q] += opp_p[opp_off[q] + x]
    for i in range(out.shape[0]):
        y = lo + i
        for k in range(m + 1):
            coef[k] = 0.0
        coef[0] = 1.0
        above = 1.0  # P(every opponent <= y)
        for q in range(m):
            x = y - opp_lo[q]
            at_q = opp_p[opp_off[q] + x] if 0 <= x < opp_len[q] else 0.0
            below_q = below[q]
            above *= below_q + at_q
            for k in range(q + 1, 0, -1):
                coef[k] = coef[k] * below_q + coef[k - 1] * at_q
            coef[0] *= below_q
            below[q] = below_q + at_q
        g = (n_players - 1) * coef[0] - (1.0 - above)
        for k in range(1, m + 1):
            g += coef[k] * (n_players - k - 1) / (k + 1)
        out[i] = g
    return lo


@njit(cache=True, inline="always")
def curve_at(total, glo, curve, n_players):
    i = total - glo
    if i < 0:
        return -1.0
    if i >= curve.shape[0]:
        return float(n_players - 1)
    return curve[i]


@njit(cache=True, inline="always")
def mindful_option(s, p, cur, glo, curve, n_players, futures):
    """Equity (plus the tie-break) of ending the turn in state s (-1: game over) with p points now."""
    if s < 0:
        return curve_at(cur + p, glo, curve, n_players) + TIE_BREAK * p
    v = 0.0
    o = futures.offset[s]
    lo = cur + p + futures.start[s]
    for x in range(futures.length[s]):
        q = futures.data[o + x]
        v += q * (curve_at(lo + x, glo, curve, n_players) + TIE_BREAK * (p + futures.start[s] + x))
    return v


@njit(cache=True)  # called, not inlined: a turn's work dwarfs the call, and each caller compiles faster
def mindful_roll_values(u, g, t, cur, glo, curve, n_players, futures, rules, memo, buf, choice, roll_offset):
    """buf[roll row, 0] = the best option's value for each final roll; choice[r] = its category: for the turn
    of used set u, flag group g, progress code t and total ``cur``, against the opponents' result curve
    (``result_curve``: glo, curve, n_players)."""
    rules, futures = lend(rules), lend_futures(futures)
    offset, n_bonus_lanes, n_groups = rules.offset, rules.n_bonus_lanes, rules.n_groups
    scores = rules.scores
    # borrowed, as in bots.kernels.policy_stages: counting each array's references for every roll and box
    # made a turn several times slower
    curve = borrowed(curve)
    memo, buf, choice = borrowed(memo), borrowed(buf), borrowed(choice)
    n_rolls, n_cats = scores.shape
    full = (1 << n_cats) - 1
    max_points = memo.shape[0] // (2 * n_cats) - 1
    for i in range(memo.shape[0]):
        memo[i] = np.nan
    for r in range(n_rolls):
        best = NEG
        best_c = -1
        for c in range(n_cats):
            if (u >> c) & 1:
                continue
            allowed, pts, extra = score_choice(u, g, r, c, rules)
            if not allowed:
                continue
            key = (c * (max_points + 1) + pts) * 2 + (1 if extra > 0 else 0)
            v = memo[key]
            if np.isnan(v):
                nu = u | (1 << c)
                t2, gain = bonus_step(t, pts, c, rules)
                s = -1
                if nu != full:
                    ln = n_bonus_lanes[nu]
                    ng = next_group(u, g, c, pts, extra, rules, n_groups[nu])
                    s = offset[nu] + ng * ln + lane_of(nu, t2, rules)
                v = mindful_option(s, pts + gain + extra, cur, glo, curve, n_players, futures)
                memo[key] = v
            if v > best:
                best = v
                best_c = c
        buf[roll_offset + r, 0] = best
        choice[r] = best_c


@njit(cache=True)
def mindful_values(u, g, t, cur, glo, curve, n_players, futures, rules, graph, rerolls_left, out_keep, out_cat):
    """Mindful equities within one turn: out_keep[k] = the value of keeping k when ``rerolls_left``
    throws follow the next one (-1: unused), out_cat[r, c] = scoring final roll r in c (NEG: not
    allowed)."""
    rules, graph = lend(rules), lend_graph(graph)
    keep_add, roll_offset = graph.keep_add, graph.roll_offset
    scores, upper_points, xbonus = rules.scores, rules.upper_points, rules.xbonus
    n_rolls, n_cats = scores.shape
    max_points = 0
    for r in range(n_rolls):
        for c in range(n_cats):
            if scores[r, c] > max_points:
                max_points = scores[r, c]
    max_points += xbonus + upper_points
    memo = np.empty(2 * n_cats * (max_points + 1))
    choice = np.empty(n_rolls, dtype=np.int64)
    buf = np.empty((keep_add.shape[0], 1))
    mindful_roll_values(u, g, t, cur, glo, curve, n_players, futures, rules, memo, buf, choice, roll_offset)
    for r in range(n_rolls):
        for c in range(n_cats):
            out_cat[r, c] = NEG
            if (u >> c) & 1:
                continue
            allowed, pts, extra = score_choice(u, g, r, c, rules)
            if allowed:
                out_cat[r, c] = memo[(c * (max_points + 1) + pts) * 2 + (1 if extra > 0 else 0)]
    if rerolls_left >= 0:
        for m in range(rerolls_left + 1):
            if m > 0:
                best_keeps(buf, graph.sub_ptr, graph.sub_idx, 1)
            expect_keeps(buf, keep_add, roll_offset, 1)
        for k in range(keep_add.shape[0]):
            out_keep[k] = buf[k, 0]
