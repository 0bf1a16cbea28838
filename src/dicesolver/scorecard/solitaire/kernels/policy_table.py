"""The optimal player's decisions as a table, and games played by reading it.

A decision word per (turn-start state, roll): for each throw still to come (1 .. rolls - 1) the keep held
from that roll, as its position among the roll's sub-keeps (``roll_sub_idx``), in ``keep_bits`` bits;
above them the category a final roll scores. Building it runs the widget once per used set over all lanes
(as a solve does); the states the optimal player can reach are then marked level by level, and only their
distinct rows of words are kept (``rows[state]`` says which). Playing costs a few look-ups per throw.

The dice come from the simulations' stream (``stream.py``), drawn in the kernel or given as arrays.
"""

import numpy as np

from ....core.jit import borrowed, njit, prange
from ....core.kernels import lend_graph
from ...game.kernels.played import lend_played
from .policy import optimal_policy
from ...game.kernels.scoring import bonus_step, code_of, lane_of, lend, next_group, score_choice
from ...turn.kernels.stream import DICE_PER_WORD, DICE_STREAM, next_face, stream_key, throw_word

BLOCK = 32  # games played side by side in one thread


@njit(cache=True, nogil=True)
def build_policy(stripe, stripes, sets, values, rules, graph, rolls, keep_bits, out):
    """out[offset[u] + lane, roll] for every used set u of ``sets``: the decisions simulate_games makes in
    mode OPTIMAL (the same values compared in the same order: the first best keep, the first best box).
    Sets stripe, stripe + stripes, ... on the calling thread, without the GIL."""
    rules, graph = lend(rules), lend_graph(graph)
    offset, n_bonus_lanes, n_groups = rules.offset, rules.n_bonus_lanes, rules.n_groups
    scores = rules.scores
    roll_sub_ptr, roll_sub_idx = graph.roll_sub_ptr, graph.roll_sub_idx
    values, out = borrowed(values), borrowed(out)
    n_rolls = scores.shape[0]
    for b in range(stripe, sets.shape[0], stripes):
        u = sets[b]
        lanes = n_bonus_lanes[u] * n_groups[u]
        choice, stages = optimal_policy(u, lanes, rolls, values, rules, graph)
        for j in range(lanes):
            row = offset[u] + j
            for r in range(n_rolls):
                word = np.int64(choice[r, j]) << ((rolls - 1) * keep_bits)
                lo = roll_sub_ptr[r]
                for left in range(1, rolls):
                    table = stages[left - 1]
                    best_q = 0
                    best_v = -np.inf
                    for q in range(roll_sub_ptr[r + 1] - lo):
                        v = table[roll_sub_idx[lo + q], j]
                        if v > best_v:
                            best_v = v
                            best_q = q
                    word |= np.int64(best_q) << ((left - 1) * keep_bits)
                out[row, r] = word


@njit(cache=True, nogil=True)
def mark_reached(stripe, stripes, sets, words, cat_shift, rules, reached):
    """reached[next state] for every turn start after a reached one of ``sets`` (one level), ``words`` the
    decisions of every state: the box the optimal player scores each final roll in. Any final roll may
    come, so this is a superset of the states play reaches (every state reached, a few never), closed
    under the player's own moves. The last level (every box filled) has no decisions and is not marked.
    Sets stripe, stripe + stripes, ... on the calling thread, without the GIL."""
    rules = lend(rules)
    offset, n_bonus_lanes, n_groups = rules.offset, rules.n_bonus_lanes, rules.n_groups
    scores = rules.scores
    words = borrowed(words)
    reached = borrowed(reached)
    n_rolls = words.shape[1]
    full_set = (1 << scores.shape[1]) - 1
    for b in range(stripe, sets.shape[0], stripes):
        u = sets[b]
        lu = n_bonus_lanes[u]
        for j in range(lu * n_groups[u]):
            if not reached[offset[u] + j]:
                continue
            g = j // lu
            t = code_of(u, j % lu, rules)
            for r in range(n_rolls):
                c = np.int64(words[offset[u] + j, r]) >> cat_shift
                u2 = u | (1 << c)
                if u2 == full_set:
                    continue
                allowed, pts, extra = score_choice(u, g, r, c, rules)
                t2, gain = bonus_step(t, pts, c, rules)
                g2 = next_group(u, g, c, pts, extra, rules, n_groups[u2])
                lu2 = n_bonus_lanes[u2]
                reached[offset[u2] + g2 * lu2 + lane_of(u2, t2, rules)] = True  # threads may race to write True


@njit(cache=True, parallel=True)
def play_policy(policy, rows, keep_bits, start, seed, first_game, throws, rules, graph, rolls, out):
    """out.total.shape[0] games of the optimal player from one start (used set, progress code, flag group,
    score) into ``out`` (``PlayedGames``), decisions read from ``policy`` (the row ``rows[state]`` of a
    turn-start state: the start must be one the table covers).

    The dice are ``throws[game, turn, throw, die]`` when it has games, else the stream of ``seed`` from
    game ``first_game`` on. Same results as simulate_games in mode OPTIMAL on the same dice.

    Games go in blocks of BLOCK, throw by throw: a block's look-ups into the table (mostly cache misses)
    are independent of each other, so the processor waits for them together, not one after another."""
    start_u, start_t, start_g, start_score = start
    n_games = out.total.shape[0]
    n_cats = rules.scores.shape[1]
    faces = graph.keep_add.shape[1]
    n_dice = throws.shape[3]  # an empty throws array (no games) still says how many dice are thrown
    groups = (n_dice + DICE_PER_WORD - 1) // DICE_PER_WORD
    from_stream = throws.shape[0] == 0
    key = stream_key(seed, DICE_STREAM)
    mask = (1 << keep_bits) - 1
    cat_shift = (rolls - 1) * keep_bits
    full_set = (1 << n_cats) - 1
    for blk in prange((n_games + BLOCK - 1) // BLOCK):
        # in each block's body: a parallel kernel's threads lend themselves their rules, dice and outputs
        lent, dice, played = lend(rules), lend_graph(graph), lend_played(out)
        keep_add, roll_offset, keep_size = dice.keep_add, dice.roll_offset, dice.keep_size
        roll_sub_ptr, roll_sub_idx = dice.roll_sub_ptr, dice.roll_sub_idx
        out_total, out_boxes, out_bonus, out_extra = played.total, played.boxes, played.bonus, played.extra
        offset, n_bonus_lanes = lent.offset, lent.n_bonus_lanes
        lo = blk * BLOCK
        nb = min(BLOCK, n_games - lo)
        u = np.full(nb, start_u, dtype=np.int64)
        t = np.full(nb, start_t, dtype=np.int64)
        g = np.full(nb, start_g, dtype=np.int64)
        row = np.empty(nb, dtype=np.int64)
        k = np.empty(nb, dtype=np.int64)
        r = np.empty(nb, dtype=np.int64)
        word = np.empty(nb, dtype=np.int64)
        for b in range(nb):
            out_total[lo + b] = start_score
            out_bonus[lo + b] = 0
            out_extra[lo + b] = 0
            for c in range(n_cats):
                out_boxes[lo + b, c] = -1
        for turn in range(n_cats):
            if u[0] == full_set:  # the games of a block fill one box a turn: all end together
                break
            for b in range(nb):
                lu = n_bonus_lanes[u[b]]
                row[b] = rows[offset[u[b]] + g[b] * lu + lane_of(u[b], t[b], lent)]
                k[b] = 0
            for s in range(rolls):
                for b in range(nb):
                    kk = k[b]
                    x = np.uint64(0)
                    for d in range(n_dice - keep_size[kk]):
                        if from_stream:
                            if d % DICE_PER_WORD == 0:
                                x = throw_word(key, first_game + lo + b, turn, s, d // DICE_PER_WORD, n_cats, rolls,
                                               groups)
                            f, x = next_face(x, faces)
                        else:
                            f = throws[lo + b, turn, s, d]
                        kk = keep_add[kk, f - 1]
                    r[b] = kk - roll_offset
                for b in range(nb):
                    word[b] = policy[row[b], r[b]]
                if s < rolls - 1:
                    shift = (rolls - 2 - s) * keep_bits  # the keep with rolls - 1 - s throws left
                    for b in range(nb):
                        k[b] = roll_sub_idx[roll_sub_ptr[r[b]] + ((word[b] >> shift) & mask)]
            for b in range(nb):
                c = word[b] >> cat_shift
                allowed, pts, extra = score_choice(u[b], g[b], r[b], c, lent)
                t2, gain = bonus_step(t[b], pts, c, lent)
                t[b] = t2
                out_total[lo + b] += pts + gain + extra
                out_boxes[lo + b, c] = pts
                if gain > 0:
                    out_bonus[lo + b] = 1
                if extra > 0:
                    out_extra[lo + b] += 1
                g[b] = next_group(u[b], g[b], c, pts, extra, lent, lent.n_groups[u[b] | (1 << c)])
                u[b] = u[b] | (1 << c)
