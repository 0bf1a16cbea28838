"""What the batch answer engines of every scorecard judge share (``CardEngine``): situations (the arrays of
``ScorecardEncoding.situations``) checked against the game's shapes, the kernels called on one thread or
all, refusals worded; and the arrays of a card's boxes and of the dice that their kernels read. The engines
themselves are beside their tables: ``solitaire/answers.py`` (the expected score, and a target with an aim),
``duel/answers.py`` (the exact two-person equity), ``mindful/answers.py`` (Mindful Maximus)."""

from __future__ import annotations

from functools import partial
from functools import cached_property
from typing import Any, Callable

import numpy as np

from ...core.answers import Answers, Situations, as_situations
from ...core.arrays import frozen
from ...core.errors import InputError
from ...core.protocol import Unit
from ..game.rules import ScorecardGame
from .widget import keep_steps

SMALL_BATCH = 256  # below this, one thread answers (waking the others costs more than it saves)
KEYS = ("cards", "totals", "dice", "held", "rolls_left")


class CardEngine:
    """What both engines share: the situations checked against the game's shapes, the kernels called on
    one thread or all, refusals worded."""

    judge: str
    unit: Unit
    _reasons: dict[int, str]
    _players: int  # the cards a situation must have at least

    def __init__(self, game: ScorecardGame, tie: float):
        self.game, self.tie = game, tie
        dice = game.dice
        ptr, _ = dice.roll_sub_keeps
        self._width = int(np.diff(ptr).max()) + game.n_categories
        # the arrays' shapes after the batch's length (a single situation is a batch of one: checked cheaply)
        self._boxes_shape, self._dice_shape = (game.n_categories,), (game.n_dice,)

    def answer(self, situations: Situations, parallel: bool | None = None, memo: np.ndarray | None = None
               ) -> Answers:
        """Every legal option of every situation (InputError naming the first one that cannot be); ``memo``:
        where the engine carries work from a call to the next (``memo_for``; by default its own, of one row)."""
        arrays = as_situations(situations, KEYS)
        if not all(a.flags.writeable for a in arrays):  # the kernels' one signature: copies, not another compile
            arrays = tuple(a.copy() for a in arrays)
        cards, totals, dice, held, rolls_left = arrays
        n = cards.shape[0]
        card_shape, totals_shape = cards.shape, totals.shape
        if (card_shape[2:] != self._boxes_shape or card_shape[1] < self._players or len(totals_shape) != 2
                or totals_shape[1] < self._players or dice.shape[1:] != self._dice_shape
                or held.shape[1:] != self._dice_shape or rolls_left.shape[1:] != (1,)):
            g, players = self.game, self._players
            raise InputError(f"situations of this game are cards (n, {players}+ players, {g.n_categories} boxes), "
                             f"totals (n, players), dice and held (n, {g.n_dice}), rolls_left (n, 1)")
        out = Answers.empty(n, self._width, self.judge, self.unit)
        f, i = out.buffers
        if not n:
            return out
        serial, parts_kernel, fields = self._kernels
        args = (cards, totals, dice, held, rolls_left) + self._tables + self._carried(memo, n)
        if parts_kernel is not None and (parallel if parallel is not None else n >= SMALL_BATCH):
            from ...core.jit import shared_stripes  # numba, loaded by the kernels anyway

            stripes = shared_stripes()
            refused_parts = np.zeros(batch_parts(stripes.n), dtype=np.int64)
            stripes.each(parts_kernel, *args, self.tie, f, i, np.empty((n, fields), dtype=np.int64), refused_parts)
            refused = int(refused_parts.sum())
        else:
            refused = self._call_serial(serial, *args, self.tie, f, i)
        return out.check(self._reasons) if refused else out

    @cached_property
    def _tables(self) -> tuple[Any, ...]:
        """The kernels' table arguments, after the situations."""
        raise NotImplementedError

    def _call_serial(self, serial: Any, *args: Any) -> Any:
        return serial(*args)

    def memo_for(self, size: int) -> np.ndarray | None:
        """Somewhere to carry work between calls whose row j is always game j's situation, for ``size``
        games (None: this engine carries none)."""
        return None

    def answer_in_step(self, size: int) -> Callable[[Situations], Answers]:
        """``answer`` for ``size`` games played in step, carrying each game's work in ``memo_for(size)``."""
        return partial(self.answer, memo=self.memo_for(size))

    def _carried(self, memo: np.ndarray | None, n: int) -> tuple[Any, ...]:
        """The kernels' arguments after the tables: what they carry between calls of ``n`` situations (none
        here)."""
        return ()

    @cached_property
    def _kernels(self) -> tuple[Any, Any, int]:
        """The serial kernel, the kernel of a stripe of parts (None: serial only) and its scratch's width."""
        raise NotImplementedError


NO_WIDE = frozen(np.zeros(0, dtype=np.float64))
NO_NARROW = frozen(np.zeros(0, dtype=np.float32))


def table_pair(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A float64 or float32 table as the kernels take both: (float64 entries, float32 entries), the other one
    empty (``kernels.answers.entry``), so that one compiled kernel serves both."""
    if values.dtype == np.float32:
        return NO_WIDE, frozen(np.ascontiguousarray(values))
    return frozen(np.ascontiguousarray(values, dtype=np.float64)), NO_NARROW




def possible_scores(game: ScorecardGame) -> np.ndarray:
    """possible[c, v] = 1 where box c can hold v points."""
    possible = np.zeros((game.n_categories, int(game.max_scores.max()) + 1), dtype=np.int64)
    for c in range(game.n_categories):
        possible[c, game.possible_scores(c)] = 1
    return possible


def padded_subs(game: ScorecardGame) -> np.ndarray:
    """Each keep's one-die-smaller keeps, padded with the keep itself to one width."""
    dice = game.dice
    steps = keep_steps(dice)
    sub_pad = np.zeros((dice.n_keeps, max(s.shape[1] for s in steps.smaller)), dtype=np.int64)
    for size, keeps in enumerate(steps.by_size):
        sub_pad[keeps] = keeps[:, None]
        sub_pad[keeps, : steps.smaller[size].shape[1]] = steps.smaller[size]
    return sub_pad


def hold_masks(game: ScorecardGame) -> np.ndarray:
    """For every roll's every distinct keep (``roll_sub_keeps`` order), the encoding's hold action
    (``hold_mask`` of each pair, worked out as arrays: a one-shot answer builds this in every process)."""
    dice = game.dice
    ptr, idx = dice.roll_sub_keeps
    faces = dice.roll_faces  # sorted, so equal dice sit together
    later = np.tril(np.ones((dice.n_dice, dice.n_dice), dtype=bool), -1)
    rank = (later & (faces[:, :, None] == faces[:, None, :])).sum(axis=2)  # how many equal dice come before
    roll = np.repeat(np.arange(dice.n_rolls), np.diff(ptr))
    kept = rank[roll] < np.take_along_axis(dice.keep_counts[idx], faces[roll] - 1, axis=1)
    return (kept.astype(np.int64) << np.arange(dice.n_dice)).sum(axis=1)


def batch_parts(threads: int) -> int:
    """The parts a batch is answered in on ``threads`` threads, each grouped by turn state on its own: four a
    thread, for balance; one on a single thread (four there cost 7% more: ``label`` answers on one while it
    writes)."""
    return 4 * threads if threads > 1 else 1
