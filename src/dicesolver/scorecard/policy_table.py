"""The optimal solitaire player's decisions, precomputed once and cached like every table: simulations and
matches read a decision where they used to recompute it (``kernels.policy_table``).

One word per (turn-start state, final roll): the keep for each throw still to come (its position among
the roll's sub-keeps) and the box the roll is scored in. Yahtzee: 579,264 states x 252 rolls x 2 bytes
= 292 MB; Yatzy 778 MB (BENCHMARKS.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..core import tables
from ..core.arrays import frozen
from ..core.errors import TableError
from .kernels.policy_table import build_policy, play_policy
from .kernels.stream import draw_dice, draw_rand
from .rules import ScorecardGame
from .solitaire import SolitaireModel

POLICY_KIND = "optimal-policy"
BUILD_STEPS = 64  # progress reports while a table is built


def word_layout(game: ScorecardGame) -> tuple[int, np.dtype] | None:
    """(bits per keep, word type) of a game's policy words; None when a word would not fit 64 bits. Two
    bytes at least, even where one would do (small games, small tables): the kernels that read the words are
    compiled for each word type they meet, and two bytes serve five dice with three throws."""
    dice = game.dice
    ptr, _ = dice.roll_sub_keeps
    keep_bits = max(1, int(np.diff(ptr).max() - 1).bit_length())
    bits = (game.rolls - 1) * keep_bits + max(1, (game.n_categories - 1).bit_length())
    for dtype in (np.uint16, np.uint32, np.uint64):
        if bits <= 8 * np.dtype(dtype).itemsize:
            return keep_bits, np.dtype(dtype)
    return None


@dataclass(frozen=True)
class PolicyTable:
    """The optimal player of one solitaire game, as a table of decisions."""

    game: ScorecardGame
    model: SolitaireModel
    decisions: np.ndarray  # [state, roll] words
    keep_bits: int

    @property
    def nbytes(self) -> int:
        return int(self.decisions.nbytes)

    def play(self, n: int, seed: int = 0, first_game: int = 0, throws: np.ndarray | None = None,
             start: tuple[int, int, int, int] = (0, 0, 0, 0)):
        """``n`` games from ``start`` (used, upper total, flag group, score): on ``throws[game, turn, throw,
        die]`` when given, else on the dice stream of ``seed`` from game ``first_game`` on. Returns (totals,
        boxes[game, category] with -1 for unused, upper bonus reached, extra bonuses)."""
        game, m = self.game, self.model
        dice = game.dice
        if throws is None:
            throws = np.zeros((0, 1, 1, game.n_dice), dtype=np.int8)
        else:
            n = throws.shape[0]
        totals = np.zeros(n, dtype=np.int64)
        boxes = np.zeros((n, game.n_categories), dtype=np.int64)
        bonus = np.zeros(n, dtype=np.int64)
        extra = np.zeros(n, dtype=np.int64)
        u, t, g, score = start
        ptr, idx = dice.roll_sub_keeps
        play_policy(self.decisions, self.keep_bits, u, t, g, score, stream_seed(seed), first_game, throws, m.offset,
                    m.n_upper_lanes, m.n_groups, *m.rule_args(), dice.keep_add, dice.roll_offset, ptr, idx,
                    dice.keep_sizes, game.faces, game.rolls, totals, boxes, bonus, extra)
        return totals, boxes, bonus.astype(bool), extra


def stream_seed(seed: int) -> int:
    return int(seed) % 2**63


def dice_stream(game: ScorecardGame, seed: int, first_game: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The stream's dice throws[game, turn, throw, die] and random numbers rand[game, turn, throw] of
    games first_game .. first_game + n - 1, for the strategies played from arrays."""
    throws = np.empty((n, game.n_categories, game.rolls, game.n_dice), dtype=np.int8)
    rand = np.empty((n, game.n_categories, game.rolls), dtype=np.int64)
    draw_dice(stream_seed(seed), first_game, game.faces, throws)
    draw_rand(stream_seed(seed), first_game, rand)
    return throws, rand


def has_policy_table(game: ScorecardGame) -> bool:
    return word_layout(game) is not None


def load_or_build(game: ScorecardGame, values: Callable[[], np.ndarray],
                  progress: Callable[[int, int], None] | None = None) -> PolicyTable:
    """The policy table of a one-player game: from the cache, or built now from the solved table
    ``values()`` (with ``progress``) and cached."""
    layout = word_layout(game)
    if layout is None:
        raise TableError(f"{game.name}: a decision does not fit a 64-bit word")
    keep_bits, dtype = layout
    model = SolitaireModel(game)
    shape = (model.size, game.dice.n_rolls)
    key = tables.TableKey(POLICY_KIND, game.canonical, game.fingerprint)

    def build():
        table = np.ascontiguousarray(values())
        decisions = np.zeros(shape, dtype=dtype)
        sets = np.concatenate(model.levels()[:-1]) if game.n_categories else np.zeros(0, dtype=np.int64)
        dice = game.dice
        steps = np.array_split(sets, min(BUILD_STEPS, max(1, len(sets))))
        for i, chunk in enumerate(steps):
            build_policy(chunk, table, model.offset, model.n_upper_lanes, model.n_groups, *model.rule_args(),
                         dice.keep_add, *dice.keep_sub, dice.roll_offset, *dice.roll_sub_keeps, game.rolls,
                         keep_bits, decisions)
            if progress:
                progress(i + 1, len(steps))
        return {"decisions": decisions}, 0.0, {"keep_bits": keep_bits}

    def check(loaded: tables.LoadedTable) -> None:
        array = loaded.arrays["decisions"]
        if array.shape != shape or array.dtype != dtype or loaded.manifest.get("keep_bits") != keep_bits:
            raise TableError(f"policy table in {loaded.directory} does not fit {game.name}")

    loaded, _ = tables.load_or_build(key, build, check)
    return PolicyTable(game, model, frozen(loaded.arrays["decisions"]), keep_bits)
