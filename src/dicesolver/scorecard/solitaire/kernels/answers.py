"""The batch answer engine's kernel for one player's card and the expected-score table: every legal option
of many situations at once, its value and its cost against the best, and each situation's own value.

A situation is one moment of a card, as ``ScorecardEncoding.situations`` writes it: the boxes (-1 open),
the total, the dice showing (0: none), the dice held for a due throw, and the throws left. Situations are
grouped by turn state (used boxes, capped upper total, yacht flag): a turn state's keep stages are
computed once and every situation of it is read from them. Turn states go through the keep stages in
blocks of ``LANES``, side by side as the lanes of the solver's own widget (``widget.py``), so that its
loops run over contiguous lanes:

* ``stages[0]``'s roll rows: the best value of scoring each final roll now (``finals``);
* ``stages[m]`` (m >= 1): the value of every keep thrown with m throws allowed from then on (non-roll
  rows), and of every roll with m - 1 throws left (roll rows), as ``turn.widget.run_stages`` defines them.

With an aim (``aim``: the target T, the table's largest need N and what a tie is worth; T < 0: none)
the same kernel answers from the target table (``target.py``) instead: a situation's value is its best
chance of scoring more than its need n = T - total further points (exactly n: the tie's worth), a final
roll's in a box the table's entry for the need left after its points (certain once past it), and the
situation's turn state is (used boxes, upper total, flag, need).

Options come in the protocol's ``legal_actions`` order (the keeps but the whole roll, the boxes, then
keeping every die); their codes are the encoding's action indices (a keep: its dice positions; box c:
2^dice + c). The model's integer arrays travel packed in one array (``core.arrays.pack``) and are
unpacked once per call: numba's dispatch costs about 0.1 µs per argument, a fair share of one answer.
"""

import numpy as np

from ....core.jit import borrowed, njit
# the rules' values one by one, read once from the packed model (see score_with)
from ...game.kernels.scoring import (bonus_step, first_open, lane_of, next_group, next_group_with, score_choice,
                                     score_with, unpacked, upper_step_with)
from ...turn.kernels.answer_rows import empty_row, entry, finish_row, group_runs, keep_of, keep_stages
from ...turn.kernels.risk import risk_of, to_certainty, to_utility
from ...turn.kernels.widget import NEG, best_keeps_wide, expect_keeps_wide

# scalars, in the order of scorecard/solitaire/answers.py's solitaire_blob
N_ROLLS, N_CATS, N_DICE, FACES, ROLLS, N_KEEPS, ROLL_OFFSET, THRESHOLD, UPPER_POINTS, YACHT_CAT, XBONUS, \
    JOKER_MODE, FORCED, MAX_POINTS, SUB_WIDTH, GENERAL = range(16)
N_SCALARS = 16
# arrays, in the same order; RULES: the game's KernelRules packed (``kernel_rules.packed``, its layout arrays
# left out: they are the model's), read by the general path (GENERAL: bonuses the fast paths do not cover)
OFFSET, N_BONUS_LANES, N_GROUPS, SCORES, SCORES_T, UPPER_FACE, JOKER_PTS, ROLL_YACHT_FACE, UPPER_CAT_OF_FACE, \
    KEEP_ADD, SUB_PTR, SUB_IDX, ROLL_SUB_PTR, ROLL_SUB_IDX, ROLL_SUB_MASK, COUNTS_T, POSSIBLE, SUB_PAD, RULES = range(19)

LANES = 16  # turn states through the keep stages at once
# what a situation is (WON: past its target, every option certain)
TERMINAL, TURN_START, RETHROW, DECISION, WON = 0, 1, 2, 3, 4
# why a situation is refused (its count is minus the reason); scorecard/solitaire/answers.py words them
BAD_BOX, BAD_ORDER, BAD_DICE, BAD_ROLLS, BAD_HELD, OVER_WITH_DICE, BAD_TOTAL, NEED_BEYOND_TABLE = range(1, 9)
PASS = -1  # the held keep of a re-throw of no dice (every die held), answered as the decision after it
# the columns of a situation's fields
KIND, USED, KEY, UPPER, GROUP, TOTAL, ROLL, HELD, LEFT, NEED = range(10)
FIELDS = 10


@njit(cache=True, inline="always")
def part(blob, i):
    """The model's array number i (1-D), borrowed from the blob (``core.jit.borrowed``)."""
    return borrowed(blob[blob[N_SCALARS + i]: blob[N_SCALARS + i + 1]])


@njit(cache=True, inline="always")
def unpack(blob):
    """The model's arrays, shaped."""
    n_rolls, n_cats, n_keeps, faces = blob[N_ROLLS], blob[N_CATS], blob[N_KEEPS], blob[FACES]
    return (part(blob, OFFSET), part(blob, N_BONUS_LANES), part(blob, N_GROUPS),
            part(blob, SCORES).reshape((n_rolls, n_cats)),
            part(blob, SCORES_T).view(np.float64).reshape((n_cats, n_rolls)),
            part(blob, UPPER_FACE), part(blob, JOKER_PTS), part(blob, ROLL_YACHT_FACE),
            part(blob, UPPER_CAT_OF_FACE), part(blob, KEEP_ADD).reshape((n_keeps, faces)), part(blob, SUB_PTR),
            part(blob, SUB_IDX), part(blob, ROLL_SUB_PTR), part(blob, ROLL_SUB_IDX), part(blob, ROLL_SUB_MASK),
            part(blob, COUNTS_T).reshape((faces, n_rolls)), part(blob, POSSIBLE),
            part(blob, SUB_PAD).reshape((n_keeps, blob[SUB_WIDTH])))


@njit(cache=True, inline="always")
def read_card(cards, totals, i, k, blob, model):
    """Card k of situation i, checked: (reason it is refused or 0, used boxes, upper total capped to its
    lane, flag group, total, the table index of its turn state)."""
    (offset, n_bonus_lanes, n_groups, scores, scores_t, upper_face, joker_pts, roll_yacht_face, upper_cat_of_face,
     keep_add, sub_ptr, sub_idx, roll_sub_ptr, roll_sub_idx, roll_sub_mask, counts_t, possible, sub_pad) = model
    threshold, max_points = blob[THRESHOLD], blob[MAX_POINTS]
    used = 0
    box_sum = 0
    up = 0
    for c in range(blob[N_CATS]):
        v = cards[i, k, c]
        if v == -1:
            continue
        if v < 0 or v > max_points or possible[c * (max_points + 1) + v] == 0:
            return BAD_BOX, 0, 0, 0, 0, -1
        used |= 1 << c
        box_sum += v
        if upper_face[c] > 0:
            up += v
    if blob[FORCED] and used & (used + 1):
        return BAD_ORDER, 0, 0, 0, 0, -1
    total = totals[i, k]
    if blob[GENERAL]:
        return read_general_card(cards, i, k, used, box_sum, total, offset, n_bonus_lanes, n_groups, blob)
    extra = total - box_sum - (blob[UPPER_POINTS] if threshold > 0 and up >= threshold else 0)
    if extra < 0 or (extra > 0 and (blob[XBONUS] == 0 or extra % blob[XBONUS] != 0)):
        return BAD_TOTAL, 0, 0, 0, 0, -1
    lu = n_bonus_lanes[used]
    t = min(up, threshold, lu - 1) if threshold > 0 else 0
    yc = blob[YACHT_CAT]
    g = 1 if yc >= 0 and cards[i, k, yc] > 0 and n_groups[used] == 2 else 0
    return 0, used, t, g, total, offset[used] + g * lu + t


@njit(cache=True)
def read_general_card(cards, i, k, used, box_sum, total, offset, n_bonus_lanes, n_groups, blob):
    """``read_card``'s end for a game with general bonuses: the progress code from the boxes' points, the
    extra-yacht bonuses from what the total holds beyond the boxes and set bonuses."""
    rules = unpacked(part(blob, RULES))
    t = 0
    won = 0
    for c in range(blob[N_CATS]):
        if (used >> c) & 1:
            t, gain = bonus_step(t, cards[i, k, c], c, rules)
            won += gain
    extra = total - box_sum - won
    xbonus = blob[XBONUS]
    if extra < 0 or (extra > 0 and (xbonus == 0 or extra % xbonus != 0)):
        return BAD_TOTAL, 0, 0, 0, 0, -1
    paid = extra // xbonus if xbonus > 0 else 0
    yc = blob[YACHT_CAT]
    g = 0
    if yc >= 0 and cards[i, k, yc] > 0 and n_groups[used] > 1:
        if rules.times > 0:
            if paid > rules.times:
                return BAD_TOTAL, 0, 0, 0, 0, -1
            g = 1 + paid
        else:
            g = 1
    lu = n_bonus_lanes[used]
    return 0, used, t, g, total, offset[used] + g * lu + lane_of(used, t, rules)


@njit(cache=True)
def general_value(u, g, t, r, c, need, values, narrow, aim, blob, n_bonus_lanes, n_groups, offset):
    """``score_value`` for a game with general bonuses: the rules from the blob, the lanes by the progress code
    (called, not inlined: the fast path's kernels stay as they were)."""
    rules = unpacked(part(blob, RULES))
    allowed, pts, extra = score_choice(u, g, r, c, rules)
    if not allowed:
        return False, NEG, 0
    t2, gain = bonus_step(t, pts, c, rules)
    nu = u | (1 << c)
    ln = n_bonus_lanes[nu]
    ng = next_group(u, g, c, pts, extra, rules, n_groups[nu])
    at = offset[nu] + ng * ln + lane_of(nu, t2, rules)
    now = pts + gain + extra
    if aim[0] < 0:
        return True, float(now) + entry(values, narrow, at), now
    rest = need - now
    if rest < 0:
        return True, 1.0, now
    return True, entry(values, narrow, at * (int(aim[1]) + 1) + rest), now


@njit(cache=True, inline="always")
def read_moment(i, dice, held, rolls_left, full, blob, keep_add):
    """Situation i's moment, checked: (reason or 0, kind, final roll (decisions), held keep (re-throws),
    throws left); ``full``: whether the card on turn is full."""
    n_dice, rolls = blob[N_DICE], blob[ROLLS]
    m = rolls_left[i, 0]
    r = keep_of(dice, i, keep_add)
    h = keep_of(held, i, keep_add)
    if r == -1 or h == -1:
        return BAD_DICE, 0, -1, 0, m
    if r >= 0:  # dice showing: a decision
        for d in range(n_dice):
            if dice[i, d] == 0:
                return BAD_DICE, 0, -1, 0, m
        if h != -2:
            return BAD_HELD, 0, -1, 0, m
        if full:
            return OVER_WITH_DICE, 0, -1, 0, m
        if m < 0 or m >= rolls:
            return BAD_ROLLS, 0, -1, 0, m
        return 0, DECISION, r - blob[ROLL_OFFSET], 0, m
    if full:
        return (OVER_WITH_DICE, 0, -1, 0, m) if h != -2 else (0, TERMINAL, -1, 0, m)
    if h == -2 and m == rolls:
        return 0, TURN_START, -1, 0, m
    if m < 1 or m >= rolls:
        return BAD_ROLLS, 0, -1, 0, m
    return 0, RETHROW, -1, max(h, 0), m


@njit(cache=True, forceinline=True)
def read_situation(i, cards, totals, dice, held, rolls_left, blob, model, aim, fields):
    """Situation i's turn state and moment into ``fields[i]``, checked: the reason it is refused, or 0."""
    fields[i, KEY] = -1
    reason, used, t, g, total, key = read_card(cards, totals, i, 0, blob, model)
    if reason:
        return reason
    full = used == (1 << blob[N_CATS]) - 1
    reason, kind, r, h, m = read_moment(i, dice, held, rolls_left, full, blob, model[9])
    if reason:
        return reason
    if kind == RETHROW and h >= blob[ROLL_OFFSET]:  # every die held: answered as the decision it leads to
        kind, r, h, m = DECISION, h - blob[ROLL_OFFSET], PASS, m - 1
    need = int(aim[0]) - total
    if aim[0] >= 0 and kind != TERMINAL:
        if need < 0:
            kind = WON
        elif need > aim[1]:
            return NEED_BEYOND_TABLE
        key = key * (int(aim[1]) + 1) + need
    fields[i, USED], fields[i, UPPER], fields[i, GROUP], fields[i, TOTAL] = used, t, g, total
    fields[i, KIND], fields[i, ROLL], fields[i, HELD], fields[i, LEFT], fields[i, NEED] = kind, r, h, m, need
    if kind != TERMINAL and kind != WON:
        fields[i, KEY] = key
    return 0


@njit(cache=True, inline="always")
def score_value(u, g, t, r, c, need, values, narrow, aim, yacht_cat, xbonus, joker_mode, threshold, upper_points,
                offset, n_bonus_lanes, n_groups, scores, upper_face, joker_pts, roll_yacht_face, upper_cat_of_face):
    """(allowed, value of scoring roll r in box c with the rest of the game, points earned now): the
    expected points to come, or with an aim the best chance of the ``need`` left after them.

    Box c is one the card's order allows (in a game played in card order, the callers offer only the first
    open box): the scoring rules' own order check, passed a constant, folds away; run for every option, it
    cost a tenth of a batch's time. The rules and the model's arrays come one by one, read once by the
    caller: read from the blob and the model here, once per option, they cost another 8%."""
    allowed, pts, extra = score_with(u, g, r, c, scores, upper_face, yacht_cat, xbonus, joker_mode, joker_pts,
                                       roll_yacht_face, upper_cat_of_face, 0, 0)
    if not allowed:
        return False, NEG, 0
    t2, gain = upper_step_with(t, pts, c, upper_face, threshold, upper_points)
    nu = u | (1 << c)
    ln = n_bonus_lanes[nu]
    if t2 > ln - 1:
        t2 = ln - 1
    ng = next_group_with(u, g, c, pts, extra, yacht_cat, 0, n_groups[nu])
    now = pts + gain + extra
    if aim[0] < 0:
        return True, float(now) + entry(values, narrow, offset[nu] + ng * ln + t2), now
    rest = need - now
    if rest < 0:
        return True, 1.0, now
    return True, entry(values, narrow, (offset[nu] + ng * ln + t2) * (int(aim[1]) + 1) + rest), now


@njit(cache=True, fastmath=True)
def finals(u, g, t, row, conts, values, narrow, blob, model, need, aim):
    """row[r] = the best value of scoring final roll r now, for every roll (one turn state).

    Box by box over contiguous rolls: an ordinary box adds a constant (what the game is worth after it)
    to the roll's points; an upper box's points are its face times the count, so its values are looked
    up by count. Rolls of a yacht after the yacht box is used follow the extra-yacht rules and are
    scored again box by box: their points by the rules, the game after each box from ``conts`` (scratch,
    (boxes + 1, dice + 1)), where the first pass leaves it, in the same sums as score_value's. Looked up
    in the table again, as score_value does, they took 3 µs a turn state, twice the rest of this function."""
    (offset, n_bonus_lanes, n_groups, scores, scores_t, upper_face, joker_pts, roll_yacht_face, upper_cat_of_face,
     keep_add, sub_ptr, sub_idx, roll_sub_ptr, roll_sub_idx, roll_sub_mask, counts_t, possible, sub_pad) = model
    n_rolls, n_cats, n_dice = blob[N_ROLLS], blob[N_CATS], blob[N_DICE]
    threshold, upper_points, yacht_cat = blob[THRESHOLD], blob[UPPER_POINTS], blob[YACHT_CAT]
    xbonus, joker_mode = blob[XBONUS], blob[JOKER_MODE]
    for r in range(n_rolls):
        row[r] = NEG
    only = first_open(u, n_cats) if blob[FORCED] else -1  # in a game played in card order, the one box
    if blob[GENERAL]:  # general bonuses: every box of every roll priced alone, by the rules themselves
        for c in range(n_cats):
            if not (u >> c) & 1 and (only < 0 or c == only):
                for r in range(n_rolls):
                    ok, v, now = general_value(u, g, t, r, c, need, values, narrow, aim, blob, n_bonus_lanes,
                                               n_groups, offset)
                    if ok and v > row[r]:
                        row[r] = v
        return
    if aim[0] >= 0:  # chances of a need: every box of every roll priced alone
        for c in range(n_cats):
            if not (u >> c) & 1 and (only < 0 or c == only):
                for r in range(n_rolls):
                    ok, v, now = score_value(u, g, t, r, c, need, values, narrow, aim, yacht_cat, xbonus, joker_mode,
                                             threshold, upper_points, offset, n_bonus_lanes, n_groups, scores,
                                             upper_face, joker_pts, roll_yacht_face, upper_cat_of_face)
                    if ok and v > row[r]:
                        row[r] = v
        return
    for c in range(n_cats):
        if (u >> c) & 1 or (only >= 0 and c != only):
            continue
        nu = u | (1 << c)
        ln = n_bonus_lanes[nu]
        base = offset[nu]
        after = conts[c]  # what the game is worth after box c: by count (upper boxes), or without / with points
        if upper_face[c] > 0 and threshold > 0:
            face = upper_face[c]
            by_count = conts[n_cats]
            for k in range(n_dice + 1):
                pts = k * face
                t2, gain = upper_step_with(t, pts, c, upper_face, threshold, upper_points)
                if t2 > ln - 1:
                    t2 = ln - 1
                ng = next_group_with(u, g, c, pts, 0, yacht_cat, 0, n_groups[nu])
                after[k] = entry(values, narrow, base + ng * ln + t2)
                by_count[k] = float(pts + gain) + after[k]
            count = counts_t[face - 1]
            for r in range(n_rolls):
                row[r] = max(row[r], by_count[count[r]])
        else:
            t2 = min(t, ln - 1)
            if_zero = entry(values, narrow, base + next_group_with(u, g, c, 0, 0, yacht_cat, 0, n_groups[nu]) * ln + t2)
            if_points = entry(values, narrow, base + next_group_with(u, g, c, 1, 0, yacht_cat, 0, n_groups[nu]) * ln + t2)
            after[0], after[1] = if_zero, if_points
            pts = scores_t[c]
            if if_zero == if_points:
                for r in range(n_rolls):
                    row[r] = max(row[r], pts[r] + if_zero)
            else:
                for r in range(n_rolls):
                    row[r] = max(row[r], pts[r] + (if_points if pts[r] > 0 else if_zero))
    if yacht_cat >= 0 and (u >> yacht_cat) & 1 and (joker_mode != 0 or xbonus != 0):
        # a yacht's boxes under the extra-yacht rules: their points by the rules, the game after each box as
        # found above (the same sums as score_value's, without its table lookups)
        for r in range(n_rolls):
            if roll_yacht_face[r] == 0:
                continue
            best = NEG
            for c in range(n_cats):
                if (u >> c) & 1 or (only >= 0 and c != only):
                    continue
                ok, pts, extra = score_with(u, g, r, c, scores, upper_face, yacht_cat, xbonus, joker_mode, joker_pts,
                                              roll_yacht_face, upper_cat_of_face, 0, 0)
                if not ok:
                    continue
                if upper_face[c] > 0 and threshold > 0:
                    k = counts_t[upper_face[c] - 1][r]
                    if pts != k * upper_face[c]:  # not counted from the dice: priced alone
                        v = score_value(u, g, t, r, c, need, values, narrow, aim, yacht_cat, xbonus, joker_mode,
                                        threshold, upper_points, offset, n_bonus_lanes, n_groups, scores, upper_face,
                                        joker_pts, roll_yacht_face, upper_cat_of_face)[1]
                    else:
                        gain = upper_step_with(t, pts, c, upper_face, threshold, upper_points)[1]
                        v = float(pts + gain + extra) + conts[c, k]
                else:
                    v = float(pts + extra) + conts[c, 1 if pts > 0 else 0]
                if v > best:
                    best = v
            row[r] = best


@njit(cache=True, forceinline=True)
def answer_one(i, fields, stage, values, narrow, blob, model, aim, tie, out_f, out_i):
    """Write situation i's options (codes, values, costs), their count and its value; ``stage`` is its
    turn state's stage m (its throws left; unread when m = 0)."""
    (offset, n_bonus_lanes, n_groups, scores, scores_t, upper_face, joker_pts, roll_yacht_face, upper_cat_of_face,
     keep_add, sub_ptr, sub_idx, roll_sub_ptr, roll_sub_idx, roll_sub_mask, counts_t, possible, sub_pad) = model
    width = out_i.shape[1] - 1
    yacht_cat, xbonus, joker_mode, threshold, upper_points = (blob[YACHT_CAT], blob[XBONUS], blob[JOKER_MODE],
                                                              blob[THRESHOLD], blob[UPPER_POINTS])
    kind, total, m, need = fields[i, KIND], fields[i, TOTAL], fields[i, LEFT], fields[i, NEED]
    base = float(total) if aim[0] < 0 else 0.0  # expected scores count the points so far; chances do not
    if kind != DECISION and kind != WON:
        empty_row(i, out_f, out_i)
    if kind == TERMINAL:
        if aim[0] < 0:
            out_f[i, 2 * width] = float(total)
        elif need < 0:  # past the aim: certain
            out_f[i, 2 * width] = 1.0
        else:  # the goal's utility of this final score: its full card's row (a target's: tie, then 0)
            out_f[i, 2 * width] = entry(values, narrow, offset[(1 << blob[N_CATS]) - 1] * (int(aim[1]) + 1) + need) \
                if need <= aim[1] else 0.0
        return
    if kind == TURN_START:
        out_f[i, 2 * width] = base + entry(values, narrow, fields[i, KEY])
        return
    if kind == RETHROW:
        out_f[i, 2 * width] = base + stage[fields[i, HELD]]
        return
    r = fields[i, ROLL]
    if kind == WON and r < 0:
        empty_row(i, out_f, out_i)
        out_f[i, 2 * width] = 1.0
        return
    won = kind == WON
    u, t, g = fields[i, USED], fields[i, UPPER], fields[i, GROUP]
    holds = 1 << blob[N_DICE]
    n = 0
    last = roll_sub_ptr[r + 1] - 1  # the whole roll: keeping every die comes last
    if m > 0:
        for p in range(roll_sub_ptr[r], last):
            out_i[i, n] = roll_sub_mask[p]
            out_f[i, n] = 1.0 if won else base + stage[roll_sub_idx[p]]
            n += 1
    only = first_open(u, blob[N_CATS]) if blob[FORCED] else -1  # in a game played in card order, the one box
    boxes = n  # the boxes' options from here
    general = blob[GENERAL] != 0
    for c in range(blob[N_CATS]):
        if (u >> c) & 1 or (only >= 0 and c != only):
            continue
        if general:
            ok, v, now = general_value(u, g, t, r, c, need, values, narrow, aim, blob, n_bonus_lanes, n_groups,
                                       offset)
        else:
            ok, v, now = score_value(u, g, t, r, c, need, values, narrow, aim, yacht_cat, xbonus, joker_mode,
                                     threshold, upper_points, offset, n_bonus_lanes, n_groups, scores, upper_face,
                                     joker_pts, roll_yacht_face, upper_cat_of_face)
        if ok:
            out_i[i, n] = holds + c
            out_f[i, n] = base + v
            n += 1
    if m > 0:
        out_i[i, n] = roll_sub_mask[last]
        if won:
            out_f[i, n] = 1.0
        elif m >= 2:
            out_f[i, n] = base + stage[blob[ROLL_OFFSET] + r]
        else:  # with one throw left, keeping every die is worth the best box (stage 1's roll row)
            whole = NEG
            for k in range(boxes, n):
                whole = max(whole, out_f[i, k])
            out_f[i, n] = whole
        n += 1
    finish_row(i, n, tie, out_f, out_i)
    if fields[i, HELD] == PASS:  # a throw of no dice: the decision's value, and no options of its own
        value = out_f[i, 2 * width]
        empty_row(i, out_f, out_i)
        out_f[i, 2 * width] = value


@njit(cache=True)
def answer_range(lo, hi, cards, totals, dice, held, rolls_left, values, narrow, blob, aim, memo, tie, out_f, out_i,
                 fields):
    """Answer situations lo..hi-1: read and check them (into rows lo..hi-1 of ``fields``), order them by
    turn state, run the keep stages of the turn states that need them (one alone, or in blocks of LANES)
    unless ``memo`` holds them, and write every answer. Returns how many were refused (their count: minus
    the reason).

    ``memo`` carries turn stages from one call to the next: row i (for situation i, while i < its length)
    holds stage 1 of the turn state whose key is in its last column, as left there by a situation i with
    two throws left: its keeps short of a whole roll (with one throw left, a whole roll is worth its best
    box, which answer_one works out anyway). The same game's next decision, with one throw left, then
    needs no stages worked out. Rows are read and written only by the situation of their index: threads
    never share one."""
    # the caller owns every argument for the call: borrowed views cost nothing to pass to each helper
    cards, totals, dice, held, rolls_left = borrowed(cards), borrowed(totals), borrowed(dice), borrowed(held), \
        borrowed(rolls_left)
    values, narrow, aim, out_f, out_i, fields = borrowed(values), borrowed(narrow), borrowed(aim), borrowed(out_f), \
        borrowed(out_i), borrowed(fields)
    memo = borrowed(memo)
    blob = borrowed(blob)  # every helper takes it: counted, it cost an atomic add and subtract each
    model = unpack(blob)
    width = out_i.shape[1] - 1
    kept = blob[ROLL_OFFSET]  # a memo row: stage 1's keeps short of a whole roll, then the turn state's key
    n = hi - lo
    refused = 0
    for i in range(lo, hi):
        reason = read_situation(i, cards, totals, dice, held, rolls_left, blob, model, aim, fields)
        if reason:
            fields[i, KEY] = -1
            fields[i, KIND] = -1
            out_i[i, width] = -reason
            refused += 1
    # Every stage answer_one reads is a strided view (a lane of answer_blocks' stages, or a row sliced with a
    # step known only when running: ``one``), so that answer_one is compiled for one type of stage, not three.
    one = np.int64(1)
    no_stage = out_f[lo, 0:0:one]  # read by no situation (none has a throw left): a view, not an allocation
    if n == 1:  # one situation: no grouping
        if refused == 0:
            kind, m, key = fields[lo, KIND], fields[lo, LEFT], fields[lo, KEY]
            top = m if kind == DECISION or kind == RETHROW else 0
            if top == 0:
                stage = no_stage
            elif top == 1 and remembered(memo, lo, key, kept):
                stage = memo[lo, 0:kept:one]
            else:
                stages = turn_stages(lo, top, fields, values, narrow, blob, model, aim)
                if top == 2:
                    remember(memo, lo, key, stages[1], kept)
                stage = stages[top, ::one]
            answer_one(lo, fields, stage, values, narrow, blob, model, aim, tie, out_f, out_i)
        return refused
    order, starts, tops, runs = group_runs(fields, lo, hi, np.int64(KEY), np.int64(KIND), np.int64(LEFT),
                                           np.int64(DECISION), np.int64(RETHROW))
    staged = np.empty(runs, dtype=np.int64)
    n_staged = 0
    for k in range(runs):
        stage = no_stage
        if tops[k] == 1:  # a run whose stage 1 a situation's memo may hold
            for p in range(starts[k], starts[k + 1]):
                i = order[p]
                if remembered(memo, i, fields[i, KEY], kept):
                    stage = memo[i, 0:kept:one]
                    break
            else:
                staged[n_staged] = k
                n_staged += 1
                continue
        elif tops[k] > 0:
            staged[n_staged] = k
            n_staged += 1
            continue
        for p in range(starts[k], starts[k + 1]):
            i = order[p]
            if fields[i, KIND] >= 0:
                answer_one(i, fields, stage, values, narrow, blob, model, aim, tie, out_f, out_i)
    if n_staged == 1:
        k = staged[0]
        stages = turn_stages(order[starts[k]], tops[k], fields, values, narrow, blob, model, aim)
        for p in range(starts[k], starts[k + 1]):
            i = order[p]
            if fields[i, KIND] >= 0:
                m = fields[i, LEFT] if fields[i, KIND] == DECISION or fields[i, KIND] == RETHROW else 0
                if m == 2:
                    remember(memo, i, fields[i, KEY], stages[1], kept)
                answer_one(i, fields, stages[m, ::one], values, narrow, blob, model, aim, tie, out_f, out_i)
    elif n_staged > 1:
        answer_blocks(staged[:n_staged], order, starts, tops, fields, values, narrow, blob, model, aim, memo, tie,
                      out_f, out_i)
    return refused


@njit(cache=True, inline="always")
def remembered(memo, i, key, kept):
    """Whether situation i's memo row holds stage 1 of turn state ``key``."""
    return i < memo.shape[0] and memo[i, kept] == key


@njit(cache=True, inline="always")
def remember(memo, i, key, stage, kept):
    """Keep turn state ``key``'s stage 1 in situation i's memo row (where it has one)."""
    if i < memo.shape[0]:
        for k in range(kept):
            memo[i, k] = stage[k]
        memo[i, kept] = key


@njit(cache=True)
def turn_stages(i, top, fields, values, narrow, blob, model, aim):
    """Situation i's turn state's stages 0..top in one lane ((1, 1) when none is needed)."""
    if top == 0:
        return np.zeros((1, 1))
    keep_add, sub_pad = model[9], model[17]
    roll_offset = blob[ROLL_OFFSET]
    n_keeps = blob[N_KEEPS]
    stages = np.empty((top + 1, n_keeps))
    conts = np.empty((blob[N_CATS] + 1, blob[N_DICE] + 1))
    finals(fields[i, USED], fields[i, GROUP], fields[i, UPPER], stages[0, roll_offset:], conts, values, narrow, blob,
           model, fields[i, NEED], aim)
    theta = risk_of(aim)
    if theta == 0.0:
        keep_stages(stages, top, keep_add, sub_pad, roll_offset)
        return stages
    # a risk appetite: the stages' means and maxima over utilities, then back to certainty equivalents
    shift = np.empty(1)
    lane = stages.reshape((top + 1, n_keeps, 1))
    to_utility(lane[0], roll_offset, n_keeps, 1, theta, shift)
    keep_stages(stages, top, keep_add, sub_pad, roll_offset)
    to_certainty(lane[0], roll_offset, n_keeps, 1, theta, shift)
    for m in range(1, top + 1):
        to_certainty(lane[m], 0, n_keeps, 1, theta, shift)
    return stages



@njit(cache=True)
def answer_blocks(staged, order, starts, tops, fields, values, narrow, blob, model, aim, memo, tie, out_f,
                  out_i):
    """The situations of the staged runs, their turn states' stages side by side in blocks of LANES lanes
    (the solver's widget, whose loops run over contiguous lanes); stage 1 remembered for the situations
    with two throws left."""
    keep_add, sub_ptr, sub_idx = model[9], model[10], model[11]
    n_keeps, roll_offset, n_rolls = blob[N_KEEPS], blob[ROLL_OFFSET], blob[N_ROLLS]
    lanes = min(LANES, staged.shape[0])
    stages = np.empty((blob[ROLLS], n_keeps, lanes))
    row = np.empty(n_rolls)
    conts = np.empty((blob[N_CATS] + 1, blob[N_DICE] + 1))
    theta = risk_of(aim)
    shift = np.empty(lanes)
    for b in range(0, staged.shape[0], lanes):
        block = min(lanes, staged.shape[0] - b)
        top = 0
        for j in range(block):
            k = staged[b + j]
            first = order[starts[k]]
            finals(fields[first, USED], fields[first, GROUP], fields[first, UPPER], row, conts, values, narrow,
                   blob, model, fields[first, NEED], aim)
            for r in range(n_rolls):
                stages[0, roll_offset + r, j] = row[r]
            top = max(top, tops[k])
        if theta != 0.0:  # a risk appetite: means and maxima over utilities (``turn.kernels.risk``)
            to_utility(stages[0], roll_offset, n_keeps, block, theta, shift)
        for m in range(1, top + 1):
            # element by element: assigning an array to a slice compiles numba's shape-mismatch message (core.jit)
            for copy_row in range(stages.shape[1]):
                for copy_lane in range(block):
                    stages[m, copy_row, copy_lane] = stages[m - 1, copy_row, copy_lane]
            if m >= 2:
                best_keeps_wide(stages[m], sub_ptr, sub_idx, block)
            expect_keeps_wide(stages[m], keep_add, roll_offset, block)
        if theta != 0.0:
            to_certainty(stages[0], roll_offset, n_keeps, block, theta, shift)
            for m in range(1, top + 1):
                to_certainty(stages[m], 0, n_keeps, block, theta, shift)
        for j in range(block):
            k = staged[b + j]
            for p in range(starts[k], starts[k + 1]):
                i = order[p]
                if fields[i, KIND] >= 0:
                    m = fields[i, LEFT] if fields[i, KIND] == DECISION or fields[i, KIND] == RETHROW else 0
                    if m == 2:
                        remember(memo, i, fields[i, KEY], stages[1, :, j], roll_offset)
                    answer_one(i, fields, stages[m, :, j], values, narrow, blob, model, aim, tie, out_f, out_i)


@njit(cache=True)
def answer_serial(cards, totals, dice, held, rolls_left, values, narrow, blob, aim, memo, tie, out_f, out_i):
    """Every situation's answer on the calling thread (small batches, and servers whose threads call at
    once); returns how many were refused, or -1 when the arrays' shapes are not this game's (the engine
    passes a few situations' arrays as they come, unchecked)."""
    n = cards.shape[0]
    if not shapes_fit(n, cards, totals, dice, held, rolls_left, blob[N_CATS], blob[N_DICE], out_i.shape[0]):
        return -1
    fields = np.empty((n, FIELDS), dtype=np.int64)
    return answer_range(np.int64(0), n, cards, totals, dice, held, rolls_left, values, narrow, blob, aim, memo, tie,
                        out_f, out_i, fields)


@njit(cache=True, inline="always")
def shapes_fit(n, cards, totals, dice, held, rolls_left, n_cats, n_dice, rows):
    """Whether n situations' arrays have this game's shapes: cards (n, players, boxes), totals (n,
    players), dice and held (n, dice), rolls_left (n, 1), and the answers n rows."""
    return (cards.shape[1] >= 1 and cards.shape[2] == n_cats and totals.shape[0] == n and totals.shape[1] >= 1
            and dice.shape[0] == n and dice.shape[1] == n_dice and held.shape[0] == n and held.shape[1] == n_dice
            and rolls_left.shape[0] == n and rolls_left.shape[1] == 1 and rows == n)


@njit(cache=True, nogil=True)
def answer_parts(stripe, stripes, cards, totals, dice, held, rolls_left, values, narrow, blob, aim, memo, tie, out_f,
                 out_i, fields, refused):
    """Parts stripe, stripe + stripes, ... of the batch cut in ``refused.shape[0]`` contiguous parts, each
    grouped by turn state on its own (situations of one game lie together, and so share their turn states),
    without the GIL: Python's threads run one stripe each (``CardEngine.answer``). refused[part]: how many of
    the part's situations were refused; ``fields``: (n, FIELDS) of scratch."""
    n, parts = cards.shape[0], refused.shape[0]
    for c in range(stripe, parts, stripes):
        lo, hi = c * n // parts, (c + 1) * n // parts
        if hi > lo:
            refused[c] = answer_range(lo, hi, cards, totals, dice, held, rolls_left, values, narrow, blob, aim, memo,
                                      tie, out_f, out_i, fields)
