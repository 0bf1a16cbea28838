"""Canonical position texts read straight into situations, many at once: ``ScorecardEncoding._read`` as a
kernel over the texts' bytes (``ds.advise_many`` of 100,000 texts spent 20-30 µs a text in Python).

A text is read here only in the canonical form (``str(state)``: the boxes by their canonical names, the
dice sorted); any other (aliases, spaces, ``bonus=``, a refused position) is marked, and the caller reads
it with ``parse_state``, which says what is wrong.
"""

import numpy as np

from ....core.jit import njit
from .scoring import bonus_step, unpacked

SEMI, COMMA, EQUALS, SLASH, PLUS, MINUS, ZERO, NINE = 59, 44, 61, 47, 43, 45, 48, 57
MAX_DIGITS = 9  # a number of more digits is no box's points nor a count of throws: read by parse_state


@njit(cache=True)
def read_positions(text, starts, ends, names, name_lengths, possible, packed_rules, players, n_dice, faces, rolls,
                   cards, totals, upper, dice, held, rolls_left, read):
    """Read texts k (bytes ``text[starts[k]:ends[k]]``) into row k of the situations' arrays; ``read[k]``:
    1 where the text was read, 0 where ``parse_state`` must read it. The rules come packed
    (``kernel_rules.packed``): one array's type to check on each call, where the tuple's cost 0.1 ms."""
    rules = unpacked(packed_rules)
    n_cats = names.shape[0]
    for k in range(starts.shape[0]):
        read[k] = read_one(text, starts[k], ends[k], k, names, name_lengths, possible, rules, players, n_dice, faces,
                           rolls, n_cats, cards, totals, upper, dice, held, rolls_left)


@njit(cache=True, inline="always")  # inlined: a call passed the rules' fourteen fields for every text
def read_one(text, lo, hi, k, names, name_lengths, possible, rules, players, n_dice, faces, rolls, n_cats, cards,
             totals, upper, dice, held, rolls_left):
    """One text (see read_positions): 1 when read, 0 when not in the canonical form or not a position."""
    # the two slashes: CARDS/DICE/ROLLS
    first = -1
    second = -1
    for p in range(lo, hi):
        if text[p] == SLASH:
            if first < 0:
                first = p
            elif second < 0:
                second = p
            else:
                return 0
    if second < 0:
        return 0
    rl = number(text, second + 1, hi)
    if rl < 0:
        return 0
    # the cards, one a player, separated by semicolons
    for j in range(players):
        for c in range(n_cats):
            cards[k, j, c] = -1
    j = np.int64(0)  # typed, not literal: read_card would be compiled for a literal 0 too (core.jit)
    filled_first = -1
    filled_last = -1
    p = lo
    while True:
        end = p
        while end < first and text[end] != SEMI:
            end += 1
        if j >= players:
            return 0
        count = read_card(text, p, end, k, j, names, name_lengths, possible, rules.upper_face, n_cats, cards)
        if count < 0:
            return 0
        box_sum = 0
        up = 0
        for c in range(n_cats):
            v = cards[k, j, c]
            if v >= 0:
                box_sum += v
                if rules.upper_face[c] > 0:
                    up += v
            elif rules.forced_order and c + 1 < n_cats and cards[k, j, c + 1] != -1:
                return 0
        if rules.general:  # the set bonuses the boxes have earned, through the progress code
            code = 0
            for c in range(n_cats):
                if cards[k, j, c] >= 0:
                    code, gain = bonus_step(code, cards[k, j, c], c, rules)
                    box_sum += gain
            totals[k, j] = box_sum
        else:  # the upper bonus alone (reading 20,000 texts took a tenth longer through the code)
            totals[k, j] = box_sum + (rules.upper_points if rules.threshold > 0 and up >= rules.threshold else 0)
        upper[k, j] = up
        if j == 0:
            filled_first = count
        elif count < filled_last or count > filled_first + 1:
            return 0
        filled_last = count
        j += 1
        if end >= first:
            break
        p = end + 1
    if j != players:
        return 0
    over = filled_first == n_cats
    for d in range(n_dice):
        dice[k, d] = 0
        held[k, d] = 0
    rolls_left[k, 0] = rl
    a, b = first + 1, second
    if a == b or (b == a + 1 and text[a] == MINUS):  # no dice: the turn's start
        return 1 if rl == rolls else 0
    plus = text[b - 1] == PLUS
    if plus:
        b -= 1
    count = b - a
    if count > n_dice or over:
        return 0
    last = 1
    for p in range(a, b):
        f = text[p] - ZERO
        if f < last or f > faces:  # not a face, or not sorted
            return 0
        last = f
        if plus:
            held[k, p - a] = f
        else:
            dice[k, p - a] = f
    if plus:
        return 1 if 1 <= rl < rolls else 0
    return 1 if count == n_dice and 0 <= rl < rolls else 0


@njit(cache=True, inline="always")
def number(text, a, b):
    """The digits text[a:b] as a number; -1 when empty, not all digits or too long."""
    if b <= a or b - a > MAX_DIGITS:
        return -1
    v = 0
    for p in range(a, b):
        d = text[p] - ZERO
        if d < 0 or d > 9:
            return -1
        v = 10 * v + d
    return v


@njit(cache=True)
def read_card(text, a, b, k, j, names, name_lengths, possible, upper_face, n_cats, cards):
    """One card's ``name=points,...`` (text[a:b]) into cards[k, j]: the boxes filled, or -1 when a name is
    not a box's canonical name, points are not the box's, or a box comes twice."""
    count = 0
    p = a
    while p < b:
        end = p
        while end < b and text[end] != COMMA:
            end += 1
        eq = p
        while eq < end and text[eq] != EQUALS:
            eq += 1
        if eq == end:
            return -1
        c = box_named(text, p, eq, names, name_lengths, n_cats)
        if c < 0 or cards[k, j, c] != -1:
            return -1
        v = number(text, eq + 1, end)
        if v < 0 or v >= possible.shape[1] or possible[c, v] == 0:
            return -1
        cards[k, j, c] = v
        count += 1
        p = end + 1
    return count


@njit(cache=True, inline="always")
def box_named(text, a, b, names, name_lengths, n_cats):
    """The box whose canonical name is text[a:b], or -1."""
    size = b - a
    for c in range(n_cats):
        if name_lengths[c] != size:
            continue
        same = True
        for q in range(size):
            if names[c, q] != text[a + q]:
                same = False
                break
        if same:
            return c
    return -1


def name_table(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The boxes' names as bytes, padded, and their lengths (the kernel's ``names``, ``name_lengths``)."""
    raw = [n.encode("utf-8") for n in names]
    table = np.zeros((len(raw), max(len(r) for r in raw)), dtype=np.uint8)
    for c, r in enumerate(raw):
        table[c, : len(r)] = np.frombuffer(r, dtype=np.uint8)
    return table, np.array([len(r) for r in raw], dtype=np.int64)
