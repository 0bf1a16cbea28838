"""Kernels of the analysis layer."""

import numpy as np

from ..core.jit import njit


@njit(cache=True, nogil=True)
def unpad(floats, ints, width, rows):
    """Some situations' options (``rows``: their indices in a batch of answers, ``core.answers.Answers``'
    buffers) without their padding: the offsets of each one's options (n + 1, int32), then every option's
    code, value and cost, situation after situation. One pass without the GIL, for ``label``'s writer
    thread: numpy's mask and three masked copies held the GIL for most of 0.3 s per million rows, and the
    rows picked here spare the sampling a copy of the whole step's answers."""
    n = rows.shape[0]
    offsets = np.empty(n + 1, dtype=np.int32)
    offsets[0] = 0
    for j in range(n):
        offsets[j + 1] = offsets[j] + max(ints[rows[j], width], 0)
    codes = np.empty(offsets[n], dtype=np.int16)
    values = np.empty(offsets[n])
    costs = np.empty(offsets[n])
    for j in range(n):
        i = rows[j]
        o = offsets[j]
        for k in range(offsets[j + 1] - o):
            codes[o + k] = ints[i, k]
            values[o + k] = floats[i, k]
            costs[o + k] = floats[i, width + k]
    return offsets, codes, values, costs


COMMA, OPEN, CLOSE, CLOSE_OBJECT, MINUS, ZERO = 44, 91, 93, 125, 45, 48  # the bytes of , [ ] } - 0


@njit(cache=True, inline="always")
def put_int(out, o, v):
    """Write integer v's decimal text at out[o]; the position after it."""
    if v < 0:
        out[o] = MINUS
        o += 1
        v = -v
    digits = 1
    x = v // 10
    while x:
        x //= 10
        digits += 1
    for k in range(digits - 1, -1, -1):
        out[o + k] = ZERO + v % 10
        v //= 10
    return o + digits


@njit(cache=True, nogil=True)
def int_texts(values, shape):
    """Each row of ``values`` (n, k) as JSON text: nested lists of the row's own ``shape`` (a bare integer
    where ``shape`` is empty and k is 1), e.g. [[1,2],[3,4]] for shape (2, 2); the texts one after
    another, and each row's offset (n + 1)."""
    n, k = values.shape
    depth = shape.shape[0]
    span = np.ones(depth + 1, dtype=np.int64)  # span[j]: the items of one list at depth j
    for j in range(depth - 1, -1, -1):
        span[j] = shape[j] * span[j + 1]
    out = np.empty(n * (k * 22 + 2 * depth + 2), dtype=np.uint8)  # 20 digits, a sign and a comma an item
    offsets = np.empty(n + 1, dtype=np.int64)
    o = 0
    for i in range(n):
        offsets[i] = o
        for e in range(k):
            if e:
                out[o] = COMMA
                o += 1
            for j in range(depth):
                if e % span[j] == 0:
                    out[o] = OPEN
                    o += 1
            o = put_int(out, o, values[i, e])
            for j in range(depth):
                if (e + 1) % span[j] == 0:
                    out[o] = CLOSE
                    o += 1
    offsets[n] = o
    return out[:o], offsets


@njit(cache=True, nogil=True)
def item_bounds(text):
    """Where each item of a flat JSON list's text ([a,b,c]) begins and ends."""
    n = 0 if text.shape[0] <= 2 else 1
    for p in range(1, text.shape[0] - 1):
        if text[p] == COMMA:
            n += 1
    begins = np.empty(n, dtype=np.int64)
    ends = np.empty(n, dtype=np.int64)
    b = 1
    q = 0
    for p in range(1, text.shape[0]):
        if text[p] == COMMA or (p == text.shape[0] - 1 and n):
            begins[q], ends[q] = b, p
            q += 1
            b = p + 1
    return begins, ends


@njit(cache=True, inline="always")
def put_bytes(out, o, src, b, e):
    """Copy src[b:e] to out[o:]; the position after it (byte by byte: the pieces are short, and a slice's
    copy cost a third more)."""
    for q in range(b, e):
        out[o] = src[q]
        o += 1
    return o


@njit(cache=True, inline="always")
def put_item(out, o, text, q):
    """Copy the JSON list item that starts at text[q] to out[o:]; the positions after it and after its comma."""
    while text[q] != COMMA and text[q] != CLOSE:
        out[o] = text[q]
        o += 1
        q += 1
    return o, q + 1


@njit(cache=True, nogil=True)
def json_lines(literals, literal_starts, pieces, begins, ends, offsets, codes, values, costs, heads, head_starts,
               cost_key):
    """JSON Lines text, line i: literal 0, piece 0 of row i, literal 1, ..., piece P-1, literal P, the options
    [{head of its code, its value, cost_key, its cost}, ...], literal P + 1. Piece p of row i is
    pieces[begins[p, i]:ends[p, i]]; literal p is literals[literal_starts[p]:literal_starts[p + 1]]; row i's
    options are offsets[i]..offsets[i + 1]-1, their codes in ``codes`` and their numbers, in the same order,
    the items of the JSON lists ``values`` and ``costs``."""
    n_pieces, n = begins.shape
    size = n * (literal_starts[n_pieces + 2] - literal_starts[0] + 2) + values.shape[0] + costs.shape[0]
    for p in range(n_pieces):
        for i in range(n):
            size += ends[p, i] - begins[p, i]
    for j in range(offsets[n]):
        size += head_starts[codes[j] + 1] - head_starts[codes[j]] + cost_key.shape[0] + 1
    out = np.empty(size, dtype=np.uint8)
    o = 0
    vq = 1  # the next value's place in the list's text
    cq = 1
    for i in range(n):
        for p in range(n_pieces + 1):
            o = put_bytes(out, o, literals, literal_starts[p], literal_starts[p + 1])
            if p < n_pieces:
                o = put_bytes(out, o, pieces, begins[p, i], ends[p, i])
        out[o] = OPEN
        o += 1
        for j in range(offsets[i], offsets[i + 1]):
            if j > offsets[i]:
                out[o] = COMMA
                o += 1
            c = codes[j]
            o = put_bytes(out, o, heads, head_starts[c], head_starts[c + 1])
            o, vq = put_item(out, o, values, vq)
            o = put_bytes(out, o, cost_key, 0, cost_key.shape[0])
            o, cq = put_item(out, o, costs, cq)
            out[o] = CLOSE_OBJECT
            o += 1
        out[o] = CLOSE
        o += 1
        o = put_bytes(out, o, literals, literal_starts[n_pieces + 1], literal_starts[n_pieces + 2])
    return out[:o]
