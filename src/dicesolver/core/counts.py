"""How many games ended on each score: the statistics of any number of simulated games in memory that does
not grow with them (final scores are integers in a bounded range, a few thousand counts at most)."""

from __future__ import annotations

import math

import numpy as np


class ScoreCounts:
    """Counts of integer scores, added to batch by batch (``add``), read as the statistics of every score
    added: ``n``, ``mean``, ``sd``, ``percentile``, ``mode``, ``min``, ``max``, ``share``. Each is what numpy
    gives on the array of every score (``percentile`` as ``np.percentile(method="inverted_cdf")``; ``sd``
    with one degree of freedom, summed in another order: equal to about 1e-15)."""

    __slots__ = ("lo", "counts")

    def __init__(self) -> None:
        self.lo = 0  # the score counts[0] counts
        self.counts = np.zeros(0, dtype=np.int64)

    @classmethod
    def of(cls, scores: np.ndarray) -> ScoreCounts:
        out = cls()
        out.add(scores)
        return out

    def add(self, scores: np.ndarray) -> None:
        scores = np.asarray(scores)
        if not scores.size:
            return
        scores = scores.astype(np.int64, copy=False).ravel()
        lo = int(scores.min())
        self.add_counts(lo, np.bincount(scores - lo))

    def add_counts(self, lo: int, counts: np.ndarray) -> None:
        """Add ``counts[k]`` games ended on score ``lo + k``."""
        if not self.counts.size:
            self.lo, self.counts = lo, counts.astype(np.int64)
            return
        hi = lo + counts.size
        if lo < self.lo or hi > self.lo + self.counts.size:
            new_lo = min(lo, self.lo)
            grown = np.zeros(max(hi, self.lo + self.counts.size) - new_lo, dtype=np.int64)
            grown[self.lo - new_lo: self.lo - new_lo + self.counts.size] = self.counts
            self.lo, self.counts = new_lo, grown
        self.counts[lo - self.lo: hi - self.lo] += counts

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreCounts):
            return NotImplemented
        a, b = self.nonzero(), other.nonzero()
        return a[0].tolist() == b[0].tolist() and a[1].tolist() == b[1].tolist()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def nonzero(self) -> tuple[np.ndarray, np.ndarray]:
        """(the scores met, how many games ended on each)."""
        where = np.flatnonzero(self.counts)
        return where + self.lo, self.counts[where]

    @property
    def scores(self) -> np.ndarray:
        """Every score from the least to the greatest met (``counts`` lines up with it)."""
        return np.arange(self.lo, self.lo + self.counts.size)

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    @property
    def mean(self) -> float:
        return int(self.counts @ self.scores) / self.n  # an exact integer sum, as numpy's of integer scores

    @property
    def sd(self) -> float:
        n = self.n
        if n < 2:
            return 0.0
        deviation = self.scores - self.mean
        return math.sqrt(float(self.counts @ (deviation * deviation)) / (n - 1))

    @property
    def min(self) -> int:
        return int(self.nonzero()[0][0])

    @property
    def max(self) -> int:
        return int(self.nonzero()[0][-1])

    @property
    def mode(self) -> int:
        """The most frequent score (the least of several)."""
        return int(self.lo + np.argmax(self.counts))

    def percentile(self, p: float) -> float:
        """The least score with at least p% of the games at or below it (numpy's ``inverted_cdf``)."""
        n = self.n
        at = n * (p / 100) - 1  # numpy's virtual index of the sorted scores, rounded up
        index = min(max(math.floor(at) + (at > math.floor(at)), 0), n - 1)
        return float(self.lo + int(np.searchsorted(np.cumsum(self.counts), index + 1)))

    def share(self, at_least: int | None = None, at_most: int | None = None) -> float:
        """The share of games that ended at or above ``at_least`` (or at or below ``at_most``)."""
        scores = self.scores
        keep = np.ones(scores.size, dtype=bool)
        if at_least is not None:
            keep &= scores >= at_least
        if at_most is not None:
            keep &= scores <= at_most
        return int(self.counts[keep].sum()) / self.n
