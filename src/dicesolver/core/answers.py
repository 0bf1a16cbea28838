"""The batch answer engine's results: every legal option of many situations at once, as arrays.

Every solution answers through one path: situations in, as the arrays of its family's encoding
(``Encoding.situations``; ``Encoding.parse_situations`` reads position texts), and out, for each
situation, every legal option's code (the encoding's action index), value and cost against the best,
with the situation's own value. One position's advice, a review, a policy's evaluation, a labelled
dataset and the web advisor are all batches of this, of one or of millions.

The layout is padded to the widest situation (``width``: the most options any situation of the game can
have), as the PyPI peer ``yatzy-solver`` lays out its batches: row i holds ``counts[i]`` options in the
order of the protocol's ``legal_actions`` and -1 codes and NaN values after them.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

from .errors import InputError

Situations = Mapping[str, np.ndarray]


class Answers:
    """Every legal option of every situation of a batch (see the module docstring).

    ``codes`` int16 (n, width), ``values`` and ``costs`` float64 (n, width), ``counts`` (n,), ``value``
    float64 (n,): the situation's value for the player on turn (at a decision, its best option's; before a
    throw, the throw's expectation). ``judge`` names what produced them (the exact table, a model), ``unit``
    what they measure; ``costs`` are counted from the player's side (>= 0), and are 0 within the table's
    precision."""

    __slots__ = ("_f", "_i", "width", "judge", "unit", "higher_is_better")

    def __init__(self, floats: np.ndarray, ints: np.ndarray, judge: str, unit: str, higher_is_better: bool = True):
        self._f, self._i = floats, ints  # (n, 2 width + 1): values, costs, value; (n, width + 1): codes, count
        self.width = ints.shape[1] - 1
        self.judge, self.unit, self.higher_is_better = judge, unit, higher_is_better

    @classmethod
    def empty(cls, n: int, width: int, judge: str, unit: str, higher_is_better: bool = True) -> Answers:
        """Buffers for ``n`` situations, to be filled by a family's kernel."""
        return cls(*empty_buffers(n, width), judge, unit, higher_is_better)

    def __len__(self) -> int:
        return self._i.shape[0]

    @property
    def codes(self) -> np.ndarray:
        return self._i[:, : self.width]

    @property
    def counts(self) -> np.ndarray:
        return self._i[:, self.width]

    @property
    def values(self) -> np.ndarray:
        return self._f[:, : self.width]

    @property
    def costs(self) -> np.ndarray:
        return self._f[:, self.width: 2 * self.width]

    @property
    def value(self) -> np.ndarray:
        return self._f[:, 2 * self.width]

    @property
    def buffers(self) -> tuple[np.ndarray, np.ndarray]:
        """The two arrays a kernel fills."""
        return self._f, self._i

    def take(self, rows: np.ndarray) -> Answers:
        """The answers of some situations (``rows``: their indices), in that order."""
        return Answers(self._f[rows], self._i[rows], self.judge, self.unit, self.higher_is_better)

    def options(self, i: int) -> list[tuple[int, float, float]]:
        """Situation i's options as (code, value, cost), in legal-action order."""
        n = int(self.counts[i])
        return [(int(c), float(v), float(k)) for c, v, k in
                zip(self._i[i, :n], self._f[i, :n], self._f[i, self.width: self.width + n])]

    def __repr__(self) -> str:
        return (f"Answers({len(self)} situations, up to {self.width} options each, {self.unit}, "
                f"judged by {self.judge})")

    def _repr_html_(self) -> str:
        from .display import SHOWN_ROWS, table

        best = self.best()
        rows = [(i, float(self.value[i]), int(self.counts[i]), int(best[i])) for i in range(min(len(self), SHOWN_ROWS))]
        return table(repr(self), ["situation", "value", "options", "best code"], rows, len(self) - len(rows))

    def to_pandas(self) -> Any:
        """One row per legal option of every situation: situation, code, value, cost (pandas: the notebook
        extra). The codes are the encoding's (``SolvedGame.encoding.action_labels()`` names them)."""
        from .display import frame

        counts = np.maximum(self.counts, 0).astype(np.int64)
        rows = np.repeat(np.arange(len(self)), counts)
        columns = np.concatenate([np.arange(n) for n in counts]) if len(self) else np.zeros(0, np.int64)
        return frame({"situation": rows, "code": self.codes[rows, columns].astype(np.int64),
                      "value": self.values[rows, columns], "cost": self.costs[rows, columns]})

    def best(self) -> np.ndarray:
        """Each situation's first best option's code (-1 where it has none): its first option of cost 0 (the
        best option's cost is exactly 0)."""
        from .kernels import first_best

        return first_best(np.ascontiguousarray(self._f), np.ascontiguousarray(self._i), self.width)

    def check(self, reasons: Mapping[int, str]) -> Answers:
        """Raise InputError naming the first situation the kernel refused (a negative count: minus the
        reason's number in ``reasons``)."""
        counts = self.counts
        if (counts < 0).any():
            i = int(np.argmax(counts < 0))
            raise InputError(f"situation {i}: {reasons.get(-int(counts[i]), 'not a position of this game')}")
        return self


def empty_buffers(n: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The two arrays of ``Answers`` for ``n`` situations of ``width`` options: a kernel fills them, then they
    are wrapped (a single situation's fast path, where ``Answers.empty`` and ``.buffers`` cost 0.4 µs)."""
    return np.empty((n, 2 * width + 1)), np.empty((n, width + 1), INT16)


def as_situations(situations: Situations, keys: tuple[str, ...]) -> tuple[np.ndarray, ...]:
    """The named arrays of a batch as contiguous int64 arrays with one leading length (InputError naming
    the first that is missing or of another length)."""
    out = []
    n = -1
    for k in keys:
        a = situations.get(k)
        if a is None:
            raise InputError(f"situations need the arrays {', '.join(keys)} (missing: {k})")
        if type(a) is not np.ndarray or a.dtype != INT64 or not a.flags.c_contiguous:
            try:
                a = np.ascontiguousarray(a, dtype=np.int64)
            except (TypeError, ValueError, OverflowError):
                raise InputError(f"situations[{k!r}] is not an array of integers") from None
        if a.ndim == 0:
            raise InputError(f"situations[{k!r}] has no batch dimension")
        if n < 0:
            n = a.shape[0]
        elif a.shape[0] != n:
            raise InputError(f"situations[{k!r}] holds {a.shape[0]} situations, not {n}")
        out.append(a)
    return tuple(out)


INT64 = np.dtype(np.int64)
INT16 = np.dtype(np.int16)


NUMPY_FEW = 64  # at most this many situations at once may go to an engine's numpy form, before its kernel is loaded
NUMPY_FIRST = 32  # single situations in numpy before the kernel is considered
NUMPY_RECHECK = 1024  # numpy answers between two looks for a compiled kernel


class NumpyFirst:
    """When an engine answers in its numpy form (the same answers to the bit) rather than its kernel: a few
    situations at a time, before this process has loaded the kernel. Single situations go on in numpy until
    NUMPY_FIRST of them, and then while the kernel is not compiled: a one-shot command never loads numba,
    and a fresh install answers at once. Asked again once in a while, so that a long-running process takes
    up the kernel that ``dicesolver warmup`` or another process compiles; the first time it is found not
    compiled, a process of its own compiles it for ``game`` (``jit.compile_elsewhere``: this one goes on
    answering in numpy meanwhile, its threads undisturbed). ``kernel()`` gives the kernel (and imports
    numba): it is called only when the cache is looked at."""

    def __init__(self, kernel: Callable[[], Any], game: str | None = None):
        self.kernel = kernel
        self.game = game  # the game string whose warm-up compiles the kernel (None: nothing is started)
        self.count = 0  # situations the numpy form has answered
        self.recheck = 0  # from this count on, whether the kernel is compiled is asked again
        self.ready = False  # the kernel was found compiled: it answers from then on

    def takes(self, n: int) -> bool:
        """Whether the numpy form answers these ``n`` situations."""
        if self.ready or not 0 < n <= NUMPY_FEW:
            return False
        self.count += n
        if n == 1 and self.count <= NUMPY_FIRST:
            return True
        if self.count < self.recheck:
            return True
        from .jit import compile_elsewhere, compiled

        self.ready = compiled(self.kernel())
        self.recheck = self.count + NUMPY_RECHECK
        if not self.ready and self.game is not None:
            game, self.game = self.game, None  # once
            compile_elsewhere(game)
        return not self.ready
