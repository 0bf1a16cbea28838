"""The batch answer engine's kernel for two players and the exact equity table (``duel.py``): every legal
option of many situations at once, valued as the mover's equity (+1 win, 0 draw, -1 loss), with its cost
against the best and each situation's own value.

A situation is the mover's card and the other player's (``ScorecardEncoding.situations``: row 0 the
player on turn), both totals, the dice showing, the dice held and the throws left. Its turn state is the
table's position (a, b, d): the mover's used boxes, the other's, and the score difference; the turn's
keep stages come from the final rolls' values, each the best over the open boxes of minus the other
player's equity afterwards (or the result, when both cards are then full). Options come in the
protocol's ``legal_actions`` order with the encoding's action codes, as in ``answers``.
"""

import numpy as np

from ....core.jit import borrowed, njit
from ...turn.kernels.answer_rows import empty_row, entry, finish_row, group_runs, keep_of, keep_stages
from ...turn.kernels.widget import NEG

# scalars, in the order of duel/answers.py's DuelEngine.blob
N_ROLLS, N_CATS, N_DICE, FACES, ROLLS, N_KEEPS, ROLL_OFFSET, MAX_POINTS, SUB_WIDTH = range(9)
N_SCALARS = 9
# arrays, in the same order
MAXSUM, SCORES, KEEP_ADD, SUB_PAD, ROLL_SUB_PTR, ROLL_SUB_IDX, ROLL_SUB_MASK, POSSIBLE = range(8)

TERMINAL, TURN_START, RETHROW, DECISION = 0, 1, 2, 3
# why a situation is refused (its count is minus the reason); duel/answers.py words them
BAD_BOX, BAD_DICE, BAD_ROLLS, BAD_HELD, OVER_WITH_DICE, BAD_TOTAL, NOT_IN_TABLE = range(1, 8)
# the columns of a situation's fields
KIND, MOVER, OTHER, DIFF, KEY, ROLL, HELD, LEFT = range(8)
FIELDS = 8


@njit(cache=True, inline="always")
def part(blob, i):
    """The layout's array number i (1-D), borrowed from the blob (``core.jit.borrowed``)."""
    return borrowed(blob[blob[N_SCALARS + i]: blob[N_SCALARS + i + 1]])


@njit(cache=True, inline="always")
def unpack(blob):
    n_rolls, n_cats, n_keeps = blob[N_ROLLS], blob[N_CATS], blob[N_KEEPS]
    return (part(blob, MAXSUM), part(blob, SCORES).reshape((n_rolls, n_cats)),
            part(blob, KEEP_ADD).reshape((n_keeps, blob[FACES])), part(blob, SUB_PAD).reshape((n_keeps, blob[SUB_WIDTH])),
            part(blob, ROLL_SUB_PTR), part(blob, ROLL_SUB_IDX), part(blob, ROLL_SUB_MASK), part(blob, POSSIBLE))


@njit(cache=True, inline="always")
def card_of(cards, i, k, possible, max_points):
    """(used boxes, points) of card k of situation i; used -1 when a box holds what it cannot."""
    used = 0
    points = 0
    for c in range(cards.shape[2]):
        v = cards[i, k, c]
        if v == -1:
            continue
        if v < 0 or v > max_points or possible[c * (max_points + 1) + v] == 0:
            return -1, 0
        used |= 1 << c
        points += v
    return used, points


@njit(cache=True, inline="always")
def read_situation(i, cards, totals, dice, held, rolls_left, pair_offset, blob, model, fields):
    """Situation i's position and moment into ``fields[i]``, checked: the reason it is refused, or 0."""
    possible = model[7]
    fields[i, KEY] = -1
    a, pa = card_of(cards, i, 0, possible, blob[MAX_POINTS])
    b, pb = card_of(cards, i, 1, possible, blob[MAX_POINTS])
    if a < 0 or b < 0:
        return BAD_BOX
    if totals[i, 0] != pa or totals[i, 1] != pb:
        return BAD_TOTAL
    return read_position(i, a, b, pa - pb, dice, held, rolls_left, pair_offset, blob, model, fields)


@njit(cache=True, inline="always")
def read_position(i, a, b, d, dice, held, rolls_left, pair_offset, blob, model, fields):
    """The table position (a, b, d) and situation i's moment into ``fields[i]``, checked."""
    maxsum, keep_add = model[0], model[2]
    n_cats, rolls = blob[N_CATS], blob[ROLLS]
    full = (1 << n_cats) - 1
    fields[i, KEY] = -1
    if a < 0 or b < 0 or a > full or b > full:
        return NOT_IN_TABLE
    m = rolls_left[i, 0]
    r = keep_of(dice, i, keep_add)
    h = keep_of(held, i, keep_add)
    if r == -1 or h == -1:
        return BAD_DICE
    fields[i, MOVER], fields[i, OTHER], fields[i, DIFF] = a, b, d
    fields[i, ROLL], fields[i, HELD], fields[i, LEFT] = -1, 0, m
    if a == full and b == full:
        if r != -2 or h != -2:
            return OVER_WITH_DICE
        fields[i, KIND] = TERMINAL
        return 0
    off = pair_offset[a * (full + 1) + b]
    if off < 0 or d < -maxsum[b] or d > maxsum[a]:
        return NOT_IN_TABLE
    if r >= 0:
        for k in range(dice.shape[1]):
            if dice[i, k] == 0:
                return BAD_DICE
        if h != -2:
            return BAD_HELD
        if m < 0 or m >= rolls:
            return BAD_ROLLS
        fields[i, KIND], fields[i, ROLL] = DECISION, r - blob[ROLL_OFFSET]
    elif h == -2 and m == rolls:
        fields[i, KIND] = TURN_START
    elif m < 1 or m >= rolls:
        return BAD_ROLLS
    else:
        fields[i, KIND], fields[i, HELD] = RETHROW, max(h, 0)
    fields[i, KEY] = off + d + maxsum[b]
    return 0


@njit(cache=True, inline="always")
def after_scoring(a, b, d, c, pts, values, narrow, pair_offset, maxsum, full):
    """The mover's equity after scoring pts in box c at (a, b, d): minus the other player's at the start
    of their turn, or the result once both cards are full."""
    na = a | (1 << c)
    e = d + pts
    if na == full and b == full:
        return 1.0 if e > 0 else (-1.0 if e < 0 else 0.0)
    return -entry(values, narrow, pair_offset[b * (full + 1) + na] + maxsum[na] - e)


@njit(cache=True, fastmath=True)
def finals(a, b, d, row, values, narrow, pair_offset, blob, model):
    """row[r] = the mover's best equity scoring final roll r now, for every roll (one position)."""
    maxsum, scores, keep_add, sub_pad, roll_sub_ptr, roll_sub_idx, roll_sub_mask, possible = model
    n_rolls, n_cats = blob[N_ROLLS], blob[N_CATS]
    full = (1 << n_cats) - 1
    for r in range(n_rolls):
        row[r] = NEG
    for c in range(n_cats):
        if (a >> c) & 1:
            continue
        na = a | (1 << c)
        if na == full and b == full:
            for r in range(n_rolls):
                e = d + scores[r, c]
                row[r] = max(row[r], 1.0 if e > 0 else (-1.0 if e < 0 else 0.0))
        else:
            base = pair_offset[b * (full + 1) + na] + maxsum[na] - d
            for r in range(n_rolls):
                row[r] = max(row[r], -entry(values, narrow, base - scores[r, c]))


@njit(cache=True, inline="always")
def answer_one(i, fields, stages, values, narrow, pair_offset, blob, model, tie, out_f, out_i):
    """Write situation i's options, their count and its value (``stages``: its position's, up to its
    throws left)."""
    maxsum, scores, keep_add, sub_pad, roll_sub_ptr, roll_sub_idx, roll_sub_mask, possible = model
    width = out_i.shape[1] - 1
    kind, m = fields[i, KIND], fields[i, LEFT]
    a, b, d = fields[i, MOVER], fields[i, OTHER], fields[i, DIFF]
    empty_row(i, out_f, out_i)
    if kind == TERMINAL:
        out_f[i, 2 * width] = 1.0 if d > 0 else (-1.0 if d < 0 else 0.0)
        return
    if kind == TURN_START:
        out_f[i, 2 * width] = entry(values, narrow, fields[i, KEY])
        return
    if kind == RETHROW:
        out_f[i, 2 * width] = stages[m, fields[i, HELD]]
        return
    n_cats = blob[N_CATS]
    full = (1 << n_cats) - 1
    r = fields[i, ROLL]
    n = 0
    last = roll_sub_ptr[r + 1] - 1  # the whole roll: keeping every die comes last
    if m > 0:
        for p in range(roll_sub_ptr[r], last):
            out_i[i, n] = roll_sub_mask[p]
            out_f[i, n] = stages[m, roll_sub_idx[p]]
            n += 1
    holds = 1 << blob[N_DICE]
    for c in range(n_cats):
        if (a >> c) & 1:
            continue
        out_i[i, n] = holds + c
        out_f[i, n] = after_scoring(a, b, d, c, scores[r, c], values, narrow, pair_offset, maxsum, full)
        n += 1
    if m > 0:
        out_i[i, n] = roll_sub_mask[last]
        out_f[i, n] = stages[m, blob[ROLL_OFFSET] + r]
        n += 1
    finish_row(i, n, tie, out_f, out_i)


@njit(cache=True)
def position_stages(a, b, d, top, values, narrow, pair_offset, blob, model):
    """One position's keep stages 0..top ((1, 1) when none is needed)."""
    if top == 0:
        return np.zeros((1, 1))
    keep_add, sub_pad = model[2], model[3]
    roll_offset = blob[ROLL_OFFSET]
    stages = np.empty((top + 1, blob[N_KEEPS]))
    finals(a, b, d, stages[0, roll_offset:], values, narrow, pair_offset, blob, model)
    keep_stages(stages, top, keep_add, sub_pad, roll_offset)
    return stages


@njit(cache=True, inline="always")
def refuse(i, reason, fields, out_i):
    fields[i, KEY] = -1
    fields[i, KIND] = -1
    out_i[i, out_i.shape[1] - 1] = -reason


@njit(cache=True)
def answer_fields(lo, hi, fields, values, narrow, pair_offset, blob, model, tie, out_f, out_i):
    """Answer situations lo..hi-1 from their fields, each position's stages computed once."""
    order, starts, tops, runs = group_runs(fields, lo, hi, np.int64(KEY), np.int64(KIND), np.int64(LEFT),
                                           np.int64(DECISION), np.int64(RETHROW))
    no_stages = np.zeros((1, 1))
    for k in range(runs):
        first = order[starts[k]]  # a run of stages has a position: no refused situation is in it
        stages = no_stages if tops[k] == 0 else position_stages(
            fields[first, MOVER], fields[first, OTHER], fields[first, DIFF], tops[k], values, narrow, pair_offset, blob,
            model)
        for p in range(starts[k], starts[k + 1]):
            i = order[p]
            if fields[i, KIND] >= 0:
                answer_one(i, fields, stages, values, narrow, pair_offset, blob, model, tie, out_f, out_i)


@njit(cache=True)
def answer_range(lo, hi, cards, totals, dice, held, rolls_left, values, narrow, pair_offset, blob, tie, out_f, out_i,
                 fields):
    """Answer situations lo..hi-1; returns how many were refused."""
    # the caller owns every argument for the call: borrowed views cost nothing to pass to each helper
    cards, totals, dice, held, rolls_left = borrowed(cards), borrowed(totals), borrowed(dice), borrowed(held), \
        borrowed(rolls_left)
    values, narrow, pair_offset, out_f, out_i, fields = borrowed(values), borrowed(narrow), borrowed(pair_offset), \
        borrowed(out_f), borrowed(out_i), borrowed(fields)
    blob = borrowed(blob)  # every helper takes it: counted, it cost an atomic add and subtract each
    model = unpack(blob)
    refused = 0
    for i in range(lo, hi):
        reason = read_situation(i, cards, totals, dice, held, rolls_left, pair_offset, blob, model, fields)
        if reason:
            refuse(i, reason, fields, out_i)
            refused += 1
    answer_fields(lo, hi, fields, values, narrow, pair_offset, blob, model, tie, out_f, out_i)
    return refused


@njit(cache=True)
def answer_serial(cards, totals, dice, held, rolls_left, values, narrow, pair_offset, blob, tie, out_f, out_i):
    """Every situation's answer on the calling thread; returns how many were refused."""
    n = cards.shape[0]
    fields = np.empty((n, FIELDS), dtype=np.int64)
    return answer_range(np.int64(0), n, cards, totals, dice, held, rolls_left, values, narrow, pair_offset, blob, tie,
                        out_f, out_i, fields)


@njit(cache=True)
def answer_positions(movers, others, diffs, dice, held, rolls_left, values, narrow, pair_offset, blob, tie, out_f,
                     out_i):
    """The same answers for table positions given as (mover's used boxes, other's, difference) instead of
    cards: the two-player solver's own questions (its tests, Malina's facts)."""
    n = movers.shape[0]
    model = unpack(blob)
    fields = np.empty((n, FIELDS), dtype=np.int64)
    refused = 0
    for i in range(n):
        reason = read_position(i, movers[i], others[i], diffs[i], dice, held, rolls_left, pair_offset, blob, model,
                               fields)
        if reason:
            refuse(i, reason, fields, out_i)
            refused += 1
    answer_fields(np.int64(0), n, fields, values, narrow, pair_offset, blob, model, tie, out_f, out_i)
    return refused


@njit(cache=True, nogil=True)
def answer_parts(stripe, stripes, cards, totals, dice, held, rolls_left, values, narrow, pair_offset, blob, tie, out_f,
                 out_i, fields, refused):
    """Parts stripe, stripe + stripes, ... of the batch cut in ``refused.shape[0]`` contiguous parts, without
    the GIL (Python's threads run one stripe each); refused[part]: the part's refusals; ``fields``: (n, FIELDS)
    of scratch."""
    n, parts = cards.shape[0], refused.shape[0]
    for c in range(stripe, parts, stripes):
        lo, hi = c * n // parts, (c + 1) * n // parts
        if hi > lo:
            refused[c] = answer_range(lo, hi, cards, totals, dice, held, rolls_left, values, narrow, pair_offset, blob,
                                      tie, out_f, out_i, fields)
