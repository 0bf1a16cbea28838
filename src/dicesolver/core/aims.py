"""Playing for a score rather than for the most points: what every family's target tables share, and the
risk appetite's bounds.

A table of needs holds, for every need n = 0..N of further points, the best chance of scoring more than n
(fewer, where the lowest score wins), exactly n counting ``tie``: 1 for a target ("at least T"), 1/2 for
a score to beat (a tie counts half). Tables are built for needs up to a multiple of NEED_STEP, so nearby
targets share one. The bot that plays for a target is named ``target:T``.
"""

from __future__ import annotations

from .errors import InputError

AT_LEAST, BEAT = 1.0, 0.5  # what scoring exactly the need counts: a target, a score to beat
MAX_NEED = 2000
NEED_STEP = 50

TARGET_PREFIX = "target:"
TARGET_TEMPLATE = TARGET_PREFIX + "T"


def table_needs(need: int) -> int:
    """The needs of the table that answers ``need``: a multiple of NEED_STEP, so nearby needs share one."""
    return max(NEED_STEP, -(-need // NEED_STEP) * NEED_STEP)


def parse_target(name: str) -> int | None:
    """T of a name 'target:T' (None for any other name); InputError for a malformed one."""
    key = name.strip().lower()
    if not key.startswith(TARGET_PREFIX):
        return None
    text = key[len(TARGET_PREFIX):].strip()
    if not text.isdigit() or int(text) <= 0:
        raise InputError(f"{name!r}: the target player is 'target:T' with T a positive number of points, "
                         "e.g. 'target:300'")
    return int(text)


# A risk appetite theta plays for the certainty equivalent ln E[exp(theta X)] / theta of the final score X. Its
# tables are exact for any theta; beyond |theta| = 1 one point outweighs e (2.7) times the next, every strategy
# is all-or-nothing, and a turn's spread of values (a few hundred points) nears the doubles' range (e^-745).
MAX_THETA = 1.0


def check_theta(theta: float | str) -> float:
    """A risk appetite as a float; InputError for one that is not a number from -MAX_THETA to MAX_THETA."""
    try:
        value = float(theta)
    except (TypeError, ValueError):
        raise InputError(f"the risk appetite theta is a number, not {theta!r}") from None
    if not -MAX_THETA <= value <= MAX_THETA:  # NaN fails this too
        raise InputError(f"the risk appetite theta is from {-MAX_THETA:g} (cautious) to {MAX_THETA:g} (bold), "
                         f"0 for the mean; {theta!r} is outside it (try 0.01 or -0.02)")
    return value


THETA_PREFIX = "theta:"
THETA_TEMPLATE = THETA_PREFIX + "X"


def parse_theta_player(name: str) -> float | None:
    """X of a player's name 'theta:X' (None for any other name); InputError for a malformed X."""
    key = str(name).strip().lower()
    if not key.startswith(THETA_PREFIX):
        return None
    return check_theta(key[len(THETA_PREFIX):].strip() or "nothing")


def theta_player(theta: float) -> str:
    """The name of the player with risk appetite ``theta``."""
    return f"{THETA_PREFIX}{theta:g}"
