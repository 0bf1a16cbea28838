"""The batch answer engine's kernel for Mindful Maximus (any number of players): every legal option of many
situations valued by the expected result (win n - 1, k tied leaders (n - k)/k, loss -1, plus the
tie-break) when every player plays Maximus from then on (``mindful.py``).

A situation is every card (row 0: the player on turn, then the others in turn order), every total, the
dice showing, the dice held and the throws left. Consecutive situations of one turn (the same cards and
totals) share its opponents' result curve, its final rolls' values and its keep stages, computed once with
the functions Mindful Maximus plays by (``mindful_roll_values`` and the widget), so that the answers are
his decisions' own values. Options come in the protocol's ``legal_actions`` order with the encoding's
action codes, as in ``answers``.
"""

import numpy as np

from ....core.jit import njit
from ...solitaire.kernels.answers import (
    DECISION, N_CATS, N_KEEPS, N_ROLLS, RETHROW, ROLL_OFFSET, ROLLS, RULES, TERMINAL, TURN_START, UPPER_POINTS,
    XBONUS, N_DICE, part, read_card, read_moment, unpack,
)
from ...turn.kernels.answer_rows import empty_row, finish_row
from .mindful import curve_at, lend_futures, mindful_roll_values, result_curve
from ...game.kernel_rules import KernelRules
from ...game.kernels.scoring import score_choice, unpacked
from ...turn.kernels.widget import best_keeps, expect_keeps


@njit(cache=True, inline="always")
def same_turn(cards, totals, i, j):
    """Whether situations i and j hold the same cards and totals (one turn of one game)."""
    for k in range(cards.shape[1]):
        if totals[i, k] != totals[j, k]:
            return False
        for c in range(cards.shape[2]):
            if cards[i, k, c] != cards[j, k, c]:
                return False
    return True


@njit(cache=True)
def answer_mindful(cards, totals, dice, held, rolls_left, futures, blob, tie, out_f, out_i):
    """Every situation's answer (on the calling thread); returns how many were refused."""
    model, futures = unpack(blob), lend_futures(futures)
    (offset, n_bonus_lanes, n_groups, scores, scores_t, upper_face, joker_pts, roll_yacht_face, upper_cat_of_face,
     keep_add, sub_ptr, sub_idx, roll_sub_ptr, roll_sub_idx, roll_sub_mask, counts_t, possible, sub_pad) = model
    r = unpacked(part(blob, RULES))  # with the model's layout arrays
    rules = KernelRules(offset, n_bonus_lanes, n_groups, r.scores, r.upper_face, r.threshold, r.upper_points,
                        r.yacht_cat, r.xbonus, r.joker_mode, r.joker_pts, r.roll_yacht_face, r.upper_cat_of_face,
                        r.forced_order, r.times, r.general, r.in_bonus, r.bonus_threshold, r.bonus_points,
                        r.code_stride, r.bonus_radix)
    n, players = cards.shape[0], cards.shape[1]
    n_cats, n_rolls, rolls, roll_offset = blob[N_CATS], blob[N_ROLLS], blob[ROLLS], blob[ROLL_OFFSET]
    full = (1 << n_cats) - 1
    width = out_i.shape[1] - 1
    holds = 1 << blob[N_DICE]
    max_points = 0
    for r in range(n_rolls):
        for c in range(n_cats):
            max_points = max(max_points, scores[r, c])
    max_points += blob[XBONUS] + blob[UPPER_POINTS]
    memo = np.empty(2 * n_cats * (max_points + 1))
    choice = np.empty(n_rolls, dtype=np.int64)
    stages = np.empty((rolls + 1, blob[N_KEEPS], 1))
    most = 1
    for s in range(futures.length.shape[0]):
        most = max(most, futures.length[s])
    opp_lo = np.empty(max(players - 1, 1), dtype=np.int64)
    opp_len = np.empty(max(players - 1, 1), dtype=np.int64)
    opp_off = np.empty(max(players - 1, 1), dtype=np.int64)
    opp_p = np.empty(max(players - 1, 1) * most)
    kinds = np.empty(n, dtype=np.int64)
    moments = np.empty((n, 3), dtype=np.int64)  # roll, held keep, throws left
    refused = 0
    i = 0
    while i < n:
        # the turn: situation i's cards, and the situations after it with the same cards
        reason, u, t, g, total, key = read_card(cards, totals, i, 0, blob, model)
        filled = 0
        for q in range(1, players):
            if reason:
                break
            reason, uq, tq, gq, total_q, key_q = read_card(cards, totals, i, q, blob, model)
            lo = total_q
            length = 1
            if uq == full:
                opp_p[filled] = 1.0
            else:
                lo += futures.start[key_q]
                length = futures.length[key_q]
                for x in range(length):
                    opp_p[filled + x] = futures.data[futures.offset[key_q] + x]
            opp_lo[q - 1], opp_len[q - 1], opp_off[q - 1] = lo, length, filled
            filled += length
        j = i + 1
        while j < n and same_turn(cards, totals, i, j):
            j += 1
        if reason:
            for k in range(i, j):
                out_i[k, width] = -reason
                refused += 1
            i = j
            continue
        top = 0
        for k in range(i, j):
            why, kinds[k], moments[k, 0], moments[k, 1], moments[k, 2] = read_moment(
                k, dice, held, rolls_left, u == full, blob, keep_add)
            if why:
                kinds[k] = -1
                out_i[k, width] = -why
                refused += 1
            elif kinds[k] == DECISION or kinds[k] == RETHROW:
                top = max(top, moments[k, 2])
            elif kinds[k] == TURN_START:
                top = rolls
        glo = 0
        curve = np.zeros(1)
        if players > 1:
            curve = np.empty(int((opp_lo[: players - 1] + opp_len[: players - 1] - 1).max()
                                 - opp_lo[: players - 1].max()) + 1)
            glo = result_curve(players, opp_lo[: players - 1], opp_len[: players - 1], opp_off[: players - 1],
                               opp_p[:filled], curve)
        if u != full:
            # typed, not literal: read_card's early returns would have it compiled for a literal 0 too
            mindful_roll_values(np.int64(u), g, t, total, glo, curve, players, futures, rules, memo, stages[0], choice,
                                roll_offset)
            for m in range(1, top + 1):
                # element by element: assigning an array to a slice compiles numba's shape-mismatch message (core.jit)
                for copy_row in range(stages.shape[1]):
                    for copy_lane in range(stages.shape[2]):
                        stages[m, copy_row, copy_lane] = stages[m - 1, copy_row, copy_lane]
                if m >= 2:
                    best_keeps(stages[m], sub_ptr, sub_idx, 1)
                expect_keeps(stages[m], keep_add, roll_offset, 1)
        for k in range(i, j):
            kind, r, h, m = kinds[k], moments[k, 0], moments[k, 1], moments[k, 2]
            if kind < 0:
                continue
            empty_row(k, out_f, out_i)
            if kind == TERMINAL:
                out_f[k, 2 * width] = curve_at(total, glo, curve, players) if players > 1 else float(total)
                continue
            if kind == TURN_START:
                out_f[k, 2 * width] = stages[rolls, 0, 0]
                continue
            if kind == RETHROW:
                out_f[k, 2 * width] = stages[m, h, 0]
                continue
            count = 0
            last = roll_sub_ptr[r + 1] - 1  # the whole roll: keeping every die comes last
            if m > 0:
                for p in range(roll_sub_ptr[r], last):
                    out_i[k, count] = roll_sub_mask[p]
                    out_f[k, count] = stages[m, roll_sub_idx[p], 0]
                    count += 1
            for c in range(n_cats):
                if (u >> c) & 1:
                    continue
                allowed, pts, extra = score_choice(u, g, r, c, rules)
                if allowed:
                    out_i[k, count] = holds + c
                    out_f[k, count] = memo[(c * (max_points + 1) + pts) * 2 + (1 if extra > 0 else 0)]
                    count += 1
            if m > 0:
                out_i[k, count] = roll_sub_mask[last]
                out_f[k, count] = stages[m, roll_offset + r, 0]
                count += 1
            finish_row(k, count, tie, out_f, out_i)
        i = j
    return refused
