"""The batch answer engines of scorecard games: situations (the arrays of ``ScorecardEncoding.situations``)
in, every legal option's value out (``core.answers``), from a solved table.

``SolitaireEngine`` answers for one player's card from the expected-score table (``kernels/answers.py``), or,
with an aim, from a target table: it is the target judge's engine too (``target/solution.py``). What every
judge's engine shares is ``turn.engine.CardEngine``; the other judges' engines subclass it beside their
tables: ``duel/answers.py`` (the exact two-person equity), ``mindful/answers.py`` (Mindful Maximus).
Each judge's class derives from its engine (``solution.py``), which is the one path behind its values,
advice and reviews, the labelled datasets and the web.
"""

from __future__ import annotations

import sys
from functools import cached_property
from typing import Any, Callable

import numpy as np

from ...core.answers import Answers, NumpyFirst, Situations, empty_buffers
from ...core.arrays import frozen, pack
from ...core.protocol import Unit
from ..game.kernel_rules import packed
from ..turn.engine import SMALL_BATCH, CardEngine, hold_masks, padded_subs, possible_scores, table_pair
from .table import SolitaireModel, goal_of

SOLITAIRE_REASONS = {
    1: "a box holds a score it cannot hold",
    2: "the boxes are not filled from the top (this game is played in card order)",
    3: "the dice are not all showing, or one is not a face of the dice",
    4: "the throws left do not fit the moment (0..rolls-1 with dice showing, 1..rolls-1 for a re-throw)",
    5: "dice are held while dice are showing",
    6: "every box is filled: the game is over",
    7: "the total is not the card's points with its bonuses",
    8: "the points still needed are beyond the target table's",
}

class SolitaireEngine(CardEngine):
    """Answers situations of one player's card from the solitaire table ``values`` (expected final score)."""

    unit: Unit = "points"
    _reasons = SOLITAIRE_REASONS
    _players = 1

    def __init__(self, model: SolitaireModel, values: np.ndarray, tie: float = 1e-9, judge: str = "points",
                 aim: tuple[int, int, float] | None = None, theta: float = 0.0):
        """``aim``: answer from a target table ``values`` instead, as (the target T, the table's largest need N,
        what a tie is worth): every value the best chance of more than T - total further points. ``theta``:
        ``values`` are a risk appetite's certainty equivalents, and so is every option's value (the aim
        (-1, 0, theta) tells the kernels)."""
        super().__init__(model.game, tie)
        self._model, self.judge = model, judge
        self._pair = table_pair(values)
        self._aim = frozen(np.array(aim, dtype=np.float64) if aim is not None else goal_of(theta))
        self._sealed = False  # the fast path is open once the checked path has answered
        self._numpy_first = NumpyFirst(lambda: self._kernels[0], model.game.canonical)
        if aim is not None:
            self.unit = "p_target"

    @cached_property
    def _blob(self) -> np.ndarray:
        return solitaire_blob(self._model)

    @cached_property
    def _tables(self) -> tuple[Any, ...]:
        return (*self._pair, self._blob, self._aim)

    def answer(self, situations: Situations, parallel: bool | None = None, memo: np.ndarray | None = None
               ) -> Answers:
        """As ``CardEngine.answer``. A few situations whose arrays are the kernel's own types (int64, C
        order, writable: what the encoding gives) go to the kernel as they come, with no checks in Python:
        numba's dispatcher checks their types (the kernel compiled once, then sealed: other types raise)
        and the kernel their shapes. Those checks were half of a single situation's time. Anything else
        takes the checked path, which says what is wrong."""
        if self._sealed and not parallel:
            try:
                out = self._answer_few(situations, memo)
                if out is not None:
                    return out
            except Exception:  # not the kernel's arrays (types, shapes, a missing key): the checked path says why
                pass
        elif not parallel and memo is None and self._numpy_answers(situations):
            return self._numpy.answer(situations)
        out = super().answer(situations, parallel, memo)
        self._sealed = True
        return out

    def _numpy_answers(self, situations: Situations) -> bool:
        """Whether the numpy form answers these situations (``answers_numpy``; ``core.answers.NumpyFirst``)."""
        cards = situations.get("cards")
        return self._numpy_first.takes(len(cards) if cards is not None else 0)

    @property
    def numpy_form(self) -> Any:
        """This engine in numpy (``answers_numpy.SolitaireNumpy``): its rules and the order of its options."""
        return self._numpy

    @cached_property
    def _numpy(self):
        from .answers_numpy import SolitaireNumpy

        game = self.game
        return SolitaireNumpy(self, hold_masks(game), padded_subs(game), possible_scores(game))

    @cached_property
    def _answer_few(self) -> Callable[[Situations, np.ndarray | None], Answers | None]:
        """``answer``'s fast path: fewer than SMALL_BATCH situations to the serial kernel as they come (None:
        more, or shapes the kernel refuses). What it reads is bound here once: looked up on the engine at
        every call, it cost 0.3 µs of a single situation's 3.3.

        A single situation is answered into the last one's answers once nothing else holds them (the
        answers and every view of them dropped: ``sys.getrefcount`` then counts only this function's
        references and its own argument). Fresh buffers, made and wrapped, cost 0.6-0.9 µs of a 5 µs
        situation: their making, and the kernel's first writes to memory the cache does not hold."""
        serial, (values, narrow, blob, aim), tie = self._serial, self._tables, self.tie
        width, judge, unit, reasons = self._width, self.judge, self.unit, self._reasons
        own_memo, no_memo = self._own_memo, self._no_memo
        lent: list[Answers] = []  # the last single situation's answers (one a thread, at most)
        refcount = sys.getrefcount

        def answer_few(situations: Situations, memo: np.ndarray | None) -> Answers | None:
            cards = situations["cards"]
            n = len(cards)
            if n >= SMALL_BATCH:
                return None
            out: Answers | None = None
            if n == 1:
                try:
                    out = lent.pop()  # taken at once (list.pop holds the GIL): no other thread has it
                except IndexError:  # none yet, or another thread's
                    pass
                if out is not None:
                    floats, ints = out.buffers
                    if refcount(out) > 2 or refcount(floats) > 3 or refcount(ints) > 3:  # still held elsewhere
                        out = None
                if out is None:
                    floats, ints = empty_buffers(1, width)
                    out = Answers(floats, ints, judge, unit)
                lent.append(out)
            else:
                floats, ints = empty_buffers(n, width)
            refused = serial(cards, situations["totals"], situations["dice"], situations["held"],
                             situations["rolls_left"], values, narrow, blob, aim,
                             (own_memo if n == 1 else no_memo) if memo is None else memo, tie, floats, ints)
            if refused < 0:
                return None
            if out is None:
                out = Answers(floats, ints, judge, unit)
            return out.check(reasons) if refused else out

        return answer_few

    def _call_serial(self, serial: Any, *args: Any) -> Any:
        return call_sealed(serial, *args)

    @cached_property
    def _serial(self):
        """The serial kernel, sealed on first use: from then on only the checked path (``call_sealed``) adds
        a signature, so the fast path's odd arrays raise rather than compile."""
        serial = self._kernels[0]
        serial.disable_compile()
        return serial

    def memo_for(self, size: int) -> np.ndarray:
        """Each game's last turn stage 1 (the kernel's ``memo``: a row per game, its keeps short of a whole
        roll, then the turn state's key; -1: none yet): the decision with one throw left after one with two
        needs no stages worked out. 1.7 KB a game for Yahtzee."""
        memo = np.empty((size, self.game.dice.roll_offset + 1))
        memo[:, -1] = -1.0
        return memo

    @cached_property
    def _own_memo(self) -> np.ndarray:
        """The memo of single situations that bring none, so that advice on a turn's decisions one by one (a
        player's hints, the web) carries the turn's stages from the first to the second. Only single
        situations write it, each from its own stages: an answer is the same bit for bit whatever came
        before. Calls from several threads take turns (the kernels hold the GIL)."""
        return self.memo_for(1)

    @cached_property
    def _no_memo(self) -> np.ndarray:
        return self.memo_for(0)

    def _carried(self, memo: np.ndarray | None, n: int) -> tuple[Any, ...]:
        if memo is None:
            memo = self._own_memo if n == 1 else self._no_memo
        return (memo,)

    @cached_property
    def _kernels(self):
        from .kernels.answers import FIELDS, answer_parts, answer_serial

        return answer_serial, answer_parts, FIELDS


def solitaire_blob(m: SolitaireModel) -> np.ndarray:
    """A one-player model's integer arrays in one (the order of ``kernels.answers``'s constants)."""
    game = m.game
    dice = game.dice
    ptr, idx = dice.roll_sub_keeps
    sub_pad = padded_subs(game)
    rules = m.rules  # packed here for the answer kernel, which reads them once a call (kernels.answers.unpack)
    scores_t = np.ascontiguousarray(rules.scores.T, dtype=np.float64).view(np.int64)  # read as floats
    possible = possible_scores(game)
    scalars = [dice.n_rolls, game.n_categories, game.n_dice, game.faces, game.rolls, dice.n_keeps,
               dice.roll_offset, rules.threshold, rules.upper_points, rules.yacht_cat, rules.xbonus, rules.joker_mode,
               int(rules.forced_order), possible.shape[1] - 1, sub_pad.shape[1], int(bool(rules.general))]
    arrays: list[np.ndarray] = [rules.offset, rules.n_bonus_lanes, rules.n_groups, rules.scores, scores_t,
                                rules.upper_face, rules.joker_pts, rules.roll_yacht_face, rules.upper_cat_of_face,
                                m.keep_add, m.sub_ptr, m.sub_idx, ptr, idx, hold_masks(game), dice.counts.T, possible,
                                sub_pad, packed(rules._replace(offset=NO_LAYOUT, n_bonus_lanes=NO_LAYOUT, n_groups=NO_LAYOUT))]
    return pack(scalars, arrays)


NO_LAYOUT = np.zeros(0, dtype=np.int64)  # the packed rules' layout arrays: the model's own are read


def call_sealed(kernel: Any, *args: Any) -> Any:
    """Call the solitaire engines' sealed serial kernel (``SolitaireEngine._serial``) with checked arguments:
    where they are types it was not compiled for (read-only situations, another engine's tables), compile
    for them, and seal it again."""
    try:
        return kernel(*args)
    except TypeError:
        kernel.disable_compile(False)
        try:
            return kernel(*args)
        finally:
            kernel.disable_compile(True)
