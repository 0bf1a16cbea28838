"""The breakdown table's backward step (``scorecard/solitaire/breakdown.py``): a turn-start state's expected points per
aspect (each box, the set bonuses, the extra bonuses) and the variance of its future points, from the
distinct outcomes of its optimally played turn and the states those outcomes lead to."""

import numpy as np

from ....core.jit import njit


@njit(cache=True, nogil=True)
def pull_breakdown(stripe, n_stripes, rows, outcomes, values, rules, aspects, variance):
    """For each state rows[i] (the outcomes of row i of ``outcomes``, as ``turn_outcomes`` writes them):
    aspects[state] = the expectation over its outcomes of the points the outcome scores, by aspect, plus
    the aspects of the state it leads to; variance[state] = the variance of its future points (the law of
    total variance over the outcomes: each outcome's mean is its points plus the next state's value).
    Columns of ``aspects``: the boxes, then the set bonuses (the upper one), then the extra bonuses. Part ``stripe`` of
    ``n_stripes`` of the rows (``core.jit.Stripes``: Python's threads, as for ``turn_outcomes`` before it, whose
    threads an OpenMP ``prange`` here would have kept busy spinning)."""
    out_target, out_points, out_prob = outcomes.target, outcomes.points, outcomes.prob
    out_cat, out_flag, out_count = outcomes.cat, outcomes.flag, outcomes.n_outcomes
    n_cats = aspects.shape[1] - 2
    n_aspects = aspects.shape[1]
    xbonus = rules.xbonus
    n_rows = rows.shape[0]
    acc = np.empty(n_aspects)  # summed in float64 and stored once: a float32 table rounds once per state
    for i in range(stripe * n_rows // n_stripes, (stripe + 1) * n_rows // n_stripes):
        s = rows[i]
        n = out_count[i]
        mean = 0.0
        for o in range(n):
            mean += out_prob[i, o] * (out_points[i, o] + values[out_target[i, o]])
        spread = 0.0
        for a in range(n_aspects):
            acc[a] = 0.0
        for o in range(n):
            p = out_prob[i, o]
            nxt = out_target[i, o]
            f = out_flag[i, o]
            gain = f >> 3  # the set bonuses the outcome pays
            extra = xbonus if f & 2 else 0
            acc[out_cat[i, o]] += p * (out_points[i, o] - gain - extra)
            acc[n_cats] += p * gain
            acc[n_cats + 1] += p * extra
            for a in range(n_aspects):
                acc[a] += p * aspects[nxt, a]
            d = out_points[i, o] + values[nxt] - mean
            spread += p * (variance[nxt] + d * d)
        for a in range(n_aspects):
            aspects[s, a] = acc[a]
        variance[s] = spread
