"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

import time
from typing import Callable


def best_of(fn: Callable[[], object], n: int) -> float:
    """The fastest of ``n`` runs of ``fn``, in seconds (warm runs: the least disturbed by the machine)."""
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)
