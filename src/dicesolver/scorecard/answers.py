"""The batch answer engine for one player's card and the expected-score table (``kernels.answers``).

``SolitaireEngine(model, values).answer(situations)`` answers a batch of situations (the arrays of
``ScorecardEncoding.situations``) with every legal option's expected final score: the one path behind
``ExpectedScore``'s advice, values and reviews, the labelled datasets and the web advisor.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ..core.answers import Answers, Situations, as_situations
from ..core.arrays import frozen, pack
from ..core.errors import InputError
from .solitaire import SolitaireModel
from .turn import keep_steps

SMALL_BATCH = 256  # below this, one thread answers (waking the others costs more than it saves)
KEYS = ("cards", "totals", "dice", "held", "rolls_left")

REASONS = {
    1: "a box holds a score it cannot hold",
    2: "the boxes are not filled from the top (this game is played in card order)",
    3: "the dice are not all showing, or one is not a face of the dice",
    4: "the throws left do not fit the moment (0..rolls-1 with dice showing, 1..rolls-1 for a re-throw)",
    5: "dice are held while dice are showing",
    6: "every box is filled: the game is over",
    7: "the total is not the card's points with its bonuses",
}


class SolitaireEngine:
    """Answers situations of one player's card from the solitaire table ``values``."""

    def __init__(self, model: SolitaireModel, values: np.ndarray, tie: float = 1e-9, judge: str = "points"):
        self.model, self.values, self.tie, self.judge = model, frozen(values), tie, judge
        game = model.game
        dice = game.dice
        ptr, idx = dice.roll_sub_keeps
        self.width = int(np.diff(ptr).max()) + game.n_categories
        self.shapes = {"cards": game.n_categories, "dice": game.n_dice, "held": game.n_dice}

    @cached_property
    def blob(self) -> np.ndarray:
        """The model's integer arrays in one (the order of ``kernels.answers``'s constants)."""
        m, game = self.model, self.model.game
        dice = game.dice
        possible = np.zeros((game.n_categories, int(game.max_scores.max()) + 1), dtype=np.int64)
        for c in range(game.n_categories):
            possible[c, game.possible_scores(c)] = 1
        ptr, idx = dice.roll_sub_keeps
        masks = np.array([hold_mask(dice.rolls[r], dice.keeps[int(k)])
                          for r in range(dice.n_rolls) for k in idx[ptr[r]:ptr[r + 1]]], dtype=np.int64)
        smaller = keep_steps(dice).smaller  # each size's one-die-smaller keeps, padded with the keep itself
        sub_pad = np.zeros((dice.n_keeps, max(s.shape[1] for s in smaller)), dtype=np.int64)
        for size, keeps in enumerate(keep_steps(dice).by_size):
            sub_pad[keeps] = keeps[:, None]
            sub_pad[keeps, : smaller[size].shape[1]] = smaller[size]
        scalars = [dice.n_rolls, game.n_categories, game.n_dice, game.faces, game.rolls, dice.n_keeps,
                   dice.roll_offset, m.threshold, m.upper_points, m.yacht_cat, m.xbonus, m.joker_mode,
                   int(m.forced_order), possible.shape[1] - 1, sub_pad.shape[1]]
        scores_t = np.ascontiguousarray(m.scores.T, dtype=np.float64).view(np.int64)  # read as floats
        arrays = [m.offset, m.n_upper_lanes, m.n_groups, m.scores, scores_t, m.upper_face, m.joker_pts,
                  m.roll_yacht_face, m.upper_cat_of_face, m.keep_add, m.sub_ptr, m.sub_idx, ptr, idx, masks,
                  dice.counts.T, possible, sub_pad]
        return pack(scalars, arrays)

    def answer(self, situations: Situations, parallel: bool | None = None) -> Answers:
        """Every legal option of every situation (InputError naming the first one that cannot be)."""
        cards, totals, dice, held, rolls_left = as_situations(situations, KEYS)
        n = cards.shape[0]
        d = self.shapes["dice"]
        if (cards.ndim != 3 or cards.shape[2] != self.shapes["cards"] or cards.shape[1] < 1 or totals.ndim != 2
                or totals.shape[1] < 1 or dice.ndim != 2 or dice.shape[1] != d or held.ndim != 2
                or held.shape[1] != d or rolls_left.ndim != 2 or rolls_left.shape[1] != 1):
            raise InputError("situations of this game are cards (n, players, boxes), totals (n, players), dice and "
                             "held (n, dice), rolls_left (n, 1)")
        out = Answers.empty(n, self.width, self.judge, "points")
        f, i = out.buffers
        if not n:
            return out
        kernels = self._kernels
        if parallel if parallel is not None else n >= SMALL_BATCH:
            refused = kernels[1](cards, totals, dice, held, rolls_left, self.values, self.blob, self.tie, f, i,
                                 kernels[2]())
        else:
            refused = kernels[0](cards, totals, dice, held, rolls_left, self.values, self.blob, self.tie, f, i)
        return out.check(REASONS) if refused else out

    @cached_property
    def _kernels(self):
        from numba import get_num_threads

        from .kernels.answers import answer_parallel, answer_serial

        return answer_serial, answer_parallel, lambda: 4 * get_num_threads()


def hold_mask(roll: tuple[int, ...], keep: tuple[int, ...]) -> int:
    """The encoding's hold action for keeping ``keep`` from the sorted ``roll``: the positions of the
    kept dice, the first of equal dice first."""
    left = list(keep)
    mask = 0
    for i, d in enumerate(roll):
        if d in left:
            left.remove(d)
            mask |= 1 << i
    return mask
