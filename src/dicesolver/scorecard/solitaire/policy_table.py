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

from ...core import tables
from ...core.arrays import frozen
from ...core.errors import TableError
from ...core.family import tell_stage
from ...core.jit import Stripes, compiled
from ..game.kernels.played import PlayedGames
from .kernels.policy_table import build_policy, mark_reached, play_policy
from ..turn.kernels.stream import draw_dice, draw_rand
from ..game.rules import ScorecardGame
from .table import SolitaireModel

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
    rows: np.ndarray  # [turn-start state] -> its row of decisions (int32; -1: the player never comes there)
    decisions: np.ndarray  # [row, roll] words
    keep_bits: int

    @property
    def nbytes(self) -> int:
        return int(self.rows.nbytes + self.decisions.nbytes)

    def covers(self, start: tuple[int, int, int, int]) -> bool:
        """Whether games from ``start`` (used, upper total, flag group, score) can be read from the table:
        it holds the states the optimal player can reach from the empty card."""
        u, t, g, _ = start
        m = self.model
        if u == m.full:
            return True
        lu = int(m.n_bonus_lanes[u])
        return bool(self.rows[m.offset[u] + g * lu + min(t, lu - 1)] >= 0)

    def play(self, n: int, seed: int = 0, first_game: int = 0, throws: np.ndarray | None = None,
             start: tuple[int, int, int, int] = (0, 0, 0, 0)):
        """``n`` games from ``start`` (used, upper total, flag group, score; one the table ``covers``): on
        ``throws[game, turn, throw, die]`` when given, else on the dice stream of ``seed`` from game
        ``first_game`` on. Returns (totals, boxes[game, category] with -1 for unused, upper bonus reached,
        extra bonuses)."""
        if not self.covers(start):
            raise ValueError(f"the policy table of {self.game.name} does not cover {start}")
        game, m = self.game, self.model
        if throws is None:
            throws = np.zeros((0, 1, 1, game.n_dice), dtype=np.int8)
        else:
            n = throws.shape[0]
        out = PlayedGames.empty(n, game.n_categories)
        play_policy(self.decisions, self.rows, self.keep_bits, tuple(int(x) for x in start), stream_seed(seed),
                    first_game, throws, m.rules, game.dice.graph, game.rolls, out)
        return out.results()


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
    """Whether the game's decisions fit a word and its table, while it builds, the limit for one table (Yatzy's
    779 MB; Maxi Yatzy's would be 106 GiB: its optimal player decides as it goes)."""
    from ..game.kernel_rules import turn_lanes
    from ..game.size import TABLE_LIMIT_BYTES

    layout = word_layout(game)
    if layout is None:
        return False
    lanes, groups, _ = turn_lanes(game)
    return int((lanes * groups).sum()) * game.dice.n_rolls * layout[1].itemsize <= TABLE_LIMIT_BYTES


def policy_ready(game: ScorecardGame) -> bool:
    """Whether the game's policy table is at hand in seconds: cached (not checked here: ``load_or_build`` checks
    it), or its kernels compiled."""
    if (tables.TableKey(POLICY_KIND, game.canonical, game.fingerprint).directory / "manifest.json").exists():
        return True
    return all(compiled(kernel) for kernel in (build_policy, mark_reached, play_policy))


def load_or_build(game: ScorecardGame, values: Callable[[], np.ndarray],
                  progress: Callable[[int, int], None] | None = None) -> PolicyTable:
    """The policy table of a one-player game: from the cache, or built now from the solved table
    ``values()`` (with ``progress``) and cached."""
    layout = word_layout(game)
    if layout is None:
        raise TableError(f"{game.name}: a decision does not fit a 64-bit word")
    keep_bits, dtype = layout
    model = SolitaireModel(game)
    key = tables.TableKey(POLICY_KIND, game.canonical, game.fingerprint)

    def build():
        from ...core.family import TableSize
        from ..game.size import check_table

        working = model.size * game.dice.n_rolls * np.dtype(dtype).itemsize
        check_table(game, "the optimal player's table of decisions", TableSize(working))
        tell_stage(progress, f"building its policy table, once ({model.size:,} states, {working / 2**20:,.0f} MiB "
                             "while it builds)")
        table = np.ascontiguousarray(values())
        words = np.zeros((model.size, game.dice.n_rolls), dtype=dtype)
        levels = model.levels()[:-1] if game.n_categories else []
        sets = np.concatenate(levels) if levels else np.zeros(0, dtype=np.int64)
        steps = np.array_split(sets, min(BUILD_STEPS, max(1, len(sets))))
        with Stripes() as stripes:  # one pool of threads for every step and level
            for i, chunk in enumerate(steps):
                stripes.each(build_policy, chunk, table, model.rules, game.dice.graph, game.rolls, keep_bits, words)
                if progress:
                    progress(i + 1, len(steps) + 1)
            reached = _reached(model, levels, words, (game.rolls - 1) * keep_bits, stripes)
        mine = words[reached]
        del words  # Yatzy's words for every state are 779 MB; the reached ones, 230
        rows, decisions = _distinct_rows(mine, reached)
        if progress:
            progress(len(steps) + 1, len(steps) + 1)
        return {"rows": rows, "decisions": decisions}, 0.0, {"keep_bits": keep_bits}

    def check(loaded: tables.LoadedTable) -> None:
        rows, decisions = loaded.arrays.get("rows"), loaded.arrays.get("decisions")
        if (rows is None or decisions is None or rows.shape != (model.size,) or rows.dtype != np.int32
                or decisions.ndim != 2 or decisions.shape[1] != game.dice.n_rolls or decisions.dtype != dtype
                or loaded.manifest.get("keep_bits") != keep_bits
                or (len(rows) and not -1 <= rows.min() <= rows.max() < len(decisions))):
            raise TableError(f"policy table in {loaded.directory} does not fit {game.name}")

    loaded, _ = tables.load_or_build(key, build, check)
    return PolicyTable(game, model, frozen(loaded.arrays["rows"]), frozen(loaded.arrays["decisions"]), keep_bits)


def _reached(model: SolitaireModel, levels: list[np.ndarray], words: np.ndarray, cat_shift: int,
             stripes: Stripes) -> np.ndarray:
    """Which states the optimal player can reach from the empty card, given every state's ``words``: about
    half of Yahtzee's, 30% of Yatzy's."""
    reached = np.zeros(model.size, dtype=np.bool_)
    if levels:
        reached[model.offset[0]] = True  # the empty card (no upper total, no flag): lane 0 of set 0
    for sets in levels:
        stripes.each(mark_reached, sets, words, cat_shift, model.rules, reached)
    return reached


def _distinct_rows(words: np.ndarray, reached: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rows, decisions) from the reached states' ``words``: each distinct row of words once, and each
    state's row in it (-1: not reached). A fifth of Yatzy's reached states repeat another's words."""
    as_bytes = np.ascontiguousarray(words).view(np.dtype((np.void, words.dtype.itemsize * words.shape[1])))
    distinct, row_of = np.unique(as_bytes.ravel(), return_inverse=True)
    rows = np.full(len(reached), -1, dtype=np.int32)
    rows[reached] = row_of.ravel()
    decisions = np.ascontiguousarray(distinct).view(words.dtype).reshape(len(distinct), words.shape[1])
    return rows, decisions
