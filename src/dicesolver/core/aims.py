"""Playing for a score rather than for the most points: what every family's target tables share, and the
risk appetite's bounds.

A table of needs holds, for every need n = 0..N of further points, the best chance of scoring more than n
(fewer, where the lowest score wins), exactly n counting ``tie``: 1 for a target ("at least T"), 1/2 for
a score to beat (a tie counts half). Tables are built for needs up to a multiple of NEED_STEP, so nearby
targets share one. The bot that plays for a target is named ``target:T``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .errors import InputError

AT_LEAST, BEAT = 1.0, 0.5  # what scoring exactly the need counts: a target, a score to beat
MAX_NEED = 2000
NEED_STEP = 50

TARGET_PREFIX = "target:"
TARGET_TEMPLATE = TARGET_PREFIX + "T"
FIELD_PREFIX = "field:"
FIELD_TEMPLATE = FIELD_PREFIX + "N"
PERCENTILE_PREFIX = "percentile:"


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


# -- goals: what a player plays for, as one object ---------------------------------------------------------
#
# Every goal but the mean and the risk appetite is a utility of the final score alone, u(x) in [0, 1] and
# nondecreasing: a target's table of needs answers any such goal once its full card's row holds u (the
# chance of more than n further points is the target's u). A goal's table measures needs from an aim score A:
# with s points so far the need is A - s, the full card's row is u(A - n) for n = 0..N, and past the aim
# (more than the need) u is 1. So a new goal is its utility and its aim, not a new judge.

FIELD_EPSILON = 1e-7  # a field's utility is taken as 1 where it is this close: below the tables' float32 precision
MAX_FIELD = 1_000_000


@dataclass(frozen=True)
class Goal:
    """What a player plays for: the mean of the final score unless a subclass says otherwise."""

    def text(self) -> str:
        """The goal as typed (``parse_goal`` reads it back)."""
        return "mean"

    def words(self) -> str:
        """The goal in a sentence's words: '(the best chance of) reaching 300 points'."""
        return "the most points on average"


@dataclass(frozen=True)
class Mean(Goal):
    """The expected final score: every family's own solution."""


@dataclass(frozen=True)
class RiskAppetite(Goal):
    """The certainty equivalent ln E[exp(theta X)] / theta of the final score X (``check_theta``)."""

    theta: float

    def text(self) -> str:
        return f"{THETA_PREFIX}{self.theta:g}"

    def words(self) -> str:
        return f"the best certainty equivalent for a risk appetite of {self.theta:g}"


@dataclass(frozen=True)
class FinalScoreGoal(Goal):
    """A utility u(x) in [0, 1] of the final score x, nondecreasing: the best expected u is a best chance."""

    def aim(self) -> int:
        """The score A that needs are counted from (A - points so far); above it u is 1."""
        raise NotImplementedError

    def needs(self) -> int:
        """The largest need N its table holds (at least ``aim()``; targets share tables by NEED_STEP)."""
        return self.aim()

    def utility(self, scores: np.ndarray) -> np.ndarray:
        """u of each final score (integers; above the aim, 1)."""
        raise NotImplementedError

    def full_card_row(self) -> np.ndarray:
        """The table's row for a full card: u(A - n) for every need n = 0..N (float64)."""
        return self.utility(self.aim() - np.arange(self.needs() + 1))

    def details(self, points: int) -> dict[str, Any]:
        """What advice reports beside its values, for a player with ``points`` so far."""
        return {"score_so_far": points, "need": self.aim() - points}


@dataclass(frozen=True)
class ScoreGoal(FinalScoreGoal):
    """A goal on one score: its needs counted from it, its table shared by the scores up to the same
    multiple of NEED_STEP (a target's, a score to beat's)."""

    score: int

    def aim(self) -> int:
        return self.score

    def needs(self) -> int:
        return table_needs(self.score)


@dataclass(frozen=True)
class AtLeast(ScoreGoal):
    """A target: finish with at least ``score`` points."""

    def utility(self, scores: np.ndarray) -> np.ndarray:
        return (np.asarray(scores) >= self.score).astype(np.float64)

    def text(self) -> str:
        return f"{TARGET_PREFIX}{self.score}"

    def words(self) -> str:
        return f"reaching {self.score} points"

    def details(self, points: int) -> dict[str, Any]:
        return {"target": self.score, **super().details(points)}


@dataclass(frozen=True)
class Percentile(AtLeast):
    """The highest q-th percentile of the final score any play reaches: the largest T whose best chance of at
    least T points is more than 1 - q/100 (the q-th percentile is at least T exactly then), played for as the
    target T. ``score`` is 0 until a family finds T from its target tables (``resolved``)."""

    q: float = 50.0

    def __post_init__(self) -> None:
        if not 0 < self.q < 100:
            raise InputError(f"a percentile is between 0 and 100, not {self.q:g}")

    def resolved(self, score: int) -> Percentile:
        return Percentile(score, self.q)

    def text(self) -> str:
        return f"{PERCENTILE_PREFIX}{self.q:g}"

    def words(self) -> str:
        reach = f"reaching {self.score} points, " if self.score else ""
        return f"{reach}the highest {self.q:g}th percentile of the final score"

    def details(self, points: int) -> dict[str, Any]:
        return {"percentile": self.q, **super().details(points)}


@dataclass(frozen=True)
class Beat(ScoreGoal):
    """A score to beat: more than ``score`` wins, exactly ``score`` counts half."""

    def utility(self, scores: np.ndarray) -> np.ndarray:
        x = np.asarray(scores)
        return np.where(x > self.score, 1.0, np.where(x == self.score, BEAT, 0.0))

    def text(self) -> str:
        return f"beat:{self.score}"

    def words(self) -> str:
        return f"beating {self.score} (a tie counts half)"

    def details(self, points: int) -> dict[str, Any]:
        return {"beat": self.score, **super().details(points)}


@dataclass(frozen=True)
class Field(FinalScoreGoal):
    """A blind tournament: the chance of the top score among ``players``, the others playing alone with
    final scores drawn from ``others`` (probabilities of 0, 1, 2, ... points; None until a family gives its
    mean-players' distribution), a tie for the top shared evenly. ``source`` says whose scores they are."""

    players: int
    others: tuple[float, ...] | None = None
    source: str = "mean-players"

    def __post_init__(self) -> None:
        if not 2 <= self.players <= MAX_FIELD:
            raise InputError(f"a field is 2 to {MAX_FIELD:,} players (you and the others), not {self.players}")

    def against(self, probabilities: np.ndarray, source: str) -> Field:
        """This field against others whose final scores have these probabilities (index: points)."""
        p = np.asarray(probabilities, dtype=np.float64)
        if p.ndim != 1 or len(p) == 0 or not np.all(np.isfinite(p)) or np.any(p < 0) or p.sum() <= 0:
            raise InputError("a field's scores need at least one score of 0 points or more")
        return Field(self.players, tuple((p / p.sum()).tolist()), source)

    def _pmf(self) -> np.ndarray:
        if self.others is None:
            raise InputError("this field's other players have no scores yet (the family gives its mean-players')")
        return np.asarray(self.others)

    def utility(self, scores: np.ndarray) -> np.ndarray:
        """P(first | x) = sum_k C(n-1, k) f^k F<^(n-1-k) / (k+1) = (F<=^n - F<^n) / (n f): with F< the chance
        another scores less than x and f exactly x, the k others that tie share the win."""
        p = self._pmf()
        x = np.asarray(scores, dtype=np.int64)
        below = np.concatenate(([0.0], np.cumsum(p)))  # below[x] = F(< x) for x in 0..len(p)
        inside = np.clip(x, 0, len(p))
        lo = below[inside]
        f = np.where((x >= 0) & (x < len(p)), p[np.clip(x, 0, len(p) - 1)], 0.0)
        n = self.players
        with np.errstate(divide="ignore", invalid="ignore"):
            # (lo + f)^n - lo^n = (lo + f)^n (1 - (lo / (lo + f))^n): no cancellation when f is tiny beside lo,
            # no overflow when lo is tiny beside f
            tied = (lo + f) ** n * -np.expm1(-n * np.log1p(f / lo)) / (n * f)
            alone = (lo + f) ** (n - 1) / n  # nobody scores less: a tie with the k others or nothing
        u = np.where(f > 0, np.where(lo > 0, tied, alone), lo ** (n - 1))
        return np.clip(np.where(x < 0, 0.0, u), 0.0, 1.0)

    def aim(self) -> int:
        """The lowest score whose utility is within FIELD_EPSILON of 1 (one past the others' best at most)."""
        p = self._pmf()
        support = np.nonzero(p)[0]
        top = int(support[-1]) + 1  # past every other score: first for certain
        scores = np.arange(top + 1)
        close = np.nonzero(self.utility(scores) >= 1.0 - FIELD_EPSILON)[0]
        return int(close[0]) if len(close) else top

    def text(self) -> str:
        return f"{FIELD_PREFIX}{self.players}"

    def words(self) -> str:
        return f"winning a blind field of {self.players} against {self.source}"

    def details(self, points: int) -> dict[str, Any]:
        return {"field": self.players, "score_so_far": points}


def read_field_scores(path: str | Path) -> np.ndarray:
    """The probabilities of each final score in a file of scores seen (a league's): whole numbers of points
    separated by spaces, commas or new lines; '#' starts a comment. InputError for anything else."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the field's scores {str(path)!r}: {getattr(exc, 'strerror', None) or exc}"
                          ) from None
    scores: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        for word in line.split("#", 1)[0].replace(",", " ").split():
            if not word.isdigit() or int(word) > MAX_NEED:
                raise InputError(f"{Path(path).name}, line {number}: {word!r} is not a score from 0 to {MAX_NEED}")
            scores.append(int(word))
    if not scores:
        raise InputError(f"{Path(path).name} holds no scores: write the scores seen, e.g. '231 254 198'")
    return np.bincount(np.array(scores)) / len(scores)




def parse_field_player(name: str) -> Field | None:
    """The goal of a player named 'field:N' (None for any other name); InputError for a malformed N."""
    key = str(name).strip().lower()
    if not key.startswith(FIELD_PREFIX):
        return None
    goal = parse_goal(key)
    assert isinstance(goal, Field)
    return goal


def parse_goal(text: str) -> Goal:
    """A goal as typed: 'mean', 'theta:X', 'target:T', 'beat:S' or 'field:N' (against mean-players)."""
    key = str(text).strip().lower()
    if key in ("", "mean", "points"):
        return Mean()
    theta = parse_theta_player(key)
    if theta is not None:
        return RiskAppetite(theta) if theta else Mean()
    target = parse_target(key)
    if target is not None:
        return AtLeast(target)
    if key.startswith(PERCENTILE_PREFIX):
        try:
            q = float(key[len(PERCENTILE_PREFIX):])
        except ValueError:
            raise InputError(f"{text!r}: percentile:Q takes a number from 0 to 100 (e.g. percentile:5)") from None
        return Percentile(0, q)
    for prefix in ("beat:", FIELD_PREFIX):
        if key.startswith(prefix):
            number = key[len(prefix):].strip()
            if not number.isdigit():
                raise InputError(f"{text!r}: {prefix}N takes a whole number")
            return Beat(int(number)) if prefix == "beat:" else Field(int(number))
    raise InputError(f"{text!r} is not a goal: mean, theta:X (a risk appetite), target:T, beat:S, field:N or "
                     "percentile:Q")
