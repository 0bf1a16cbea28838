"""A risk appetite in the turn widget: the certainty equivalent CE = ln E[exp(theta X)] / theta in place of the
mean, by the widget's own passes.

Over one turn the final values v of a lane are moved to u = sign(theta) * exp(theta * (v - shift)), with the
lane's shift its largest final value for theta > 0 (its smallest for theta < 0), so that theta * (v - shift)
<= 0: no overflow. u increases with exp(theta v) for theta > 0 and decreases with it for theta < 0, so the
widget's maxima pick the keep of the best certainty equivalent; and u is proportional to exp(theta v), so
its means are the expectations of exp(theta v). The certainty equivalent is shift + ln(sign(theta) * u) /
theta, to about 1e-16 / |theta| points (expm1 and log1p would keep more for a tiny theta, and took the
theta solve of Yahtzee from 2.0 to 2.3 times the mean's). theta is at most 1 in size
(``core.aims.MAX_THETA``): theta times a turn's spread of final values stays far from exp's floor (-745). The points scored with a box add to a
certainty equivalent as to a mean (CE(c + X) = c + CE(X)): the boxes' stage is the expected score's.
"""

import numpy as np

from ....core.jit import njit


@njit(cache=True)
def to_utility(buf, first, last, lanes, theta, shift):
    """Rows first..last-1 of buf (the rolls' final values, lanes wide) to utilities; ``shift`` gets each
    lane's shift."""
    for j in range(lanes):
        s = buf[first, j]
        for r in range(first + 1, last):
            s = max(s, buf[r, j]) if theta > 0 else min(s, buf[r, j])
        shift[j] = s
    sign = 1.0 if theta > 0 else -1.0
    for r in range(first, last):
        for j in range(lanes):
            buf[r, j] = sign * np.exp(theta * (buf[r, j] - shift[j]))


@njit(cache=True)
def to_certainty(buf, first, last, lanes, theta, shift):
    """Rows first..last-1 of buf, utilities, back to certainty equivalents in points."""
    sign = 1.0 if theta > 0 else -1.0
    for r in range(first, last):
        for j in range(lanes):
            buf[r, j] = shift[j] + np.log(sign * buf[r, j]) / theta


@njit(cache=True, inline="always")
def risk_of(aim):
    """The risk appetite theta of a goal array (the answer engine's ``aim``: (-1, 0, theta) for the mean or a
    certainty equivalent; a target's (T, N, tie) has none): 0 for the mean and for a chance of a need."""
    return aim[2] if aim[0] < 0 else 0.0
