"""A final-score distribution and its statistics (computed in ``distribution``, cached in
``distribution_cache``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class ScoreDistribution:
    probabilities: np.ndarray  # probabilities[s] = P(final score == s)
    bonus_probability: float | None
    category_probabilities: np.ndarray  # P(box c scores more than 0)
    extra_bonus_mean: float | None

    @property
    def mean(self) -> float:
        return float(np.dot(np.arange(len(self.probabilities)), self.probabilities))

    @property
    def sd(self) -> float:
        s = np.arange(len(self.probabilities))
        return float(np.sqrt(np.dot((s - self.mean) ** 2, self.probabilities)))

    def percentile(self, q: float) -> int:
        """Smallest score s with P(score <= s) >= q/100."""
        cdf = np.cumsum(self.probabilities)
        return int(np.searchsorted(cdf, q / 100 - 1e-12))

    @property
    def mode(self) -> int:
        return int(np.argmax(self.probabilities))
