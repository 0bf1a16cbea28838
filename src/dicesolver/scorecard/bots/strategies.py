"""The built-in scorecard strategies (optimal, greedy, random, ... and the Yacht Dice notebook's agents)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.dice import Dice
from ...core.errors import InputError
from ...core.arrays import frozen
from ...core.jit import Stripes
from .kernels import (
    OPTIMAL,
    RANDOM,
    SEMI_RANDOM,
    STATIC,
    WHATEVER,
    KnownStages,
    decide_category,
    decide_keep,
    simulate_games,
    static_stage_table,
)
from ..turn.oneturn import turn_values
from ..solitaire.policy_table import PolicyTable, has_policy_table, policy_ready
from ..solitaire.policy_table import load_or_build as load_policy
from ..game.kernels.played import PlayedGames
from ..game.position import Position
from ..game.rules import ScorecardGame
from ..solitaire.table import SolitaireModel, goal_of

# from this many games on, the optimal player reads its decisions from the policy table (built once and
# cached, a few seconds for Yahtzee) instead of recomputing them every turn, when the table is cached or its
# kernels are compiled
POLICY_MIN_GAMES = 20_000
# and on a fresh install from this many: deciding as it goes (its first turns from a memo), the optimal player
# plays about 13,000 Yahtzee games a second on 2 cores, so 250,000 games take about what compiling the table's
# kernels (16 s) and building it (6 s) do (a first `simulate -n 100000` decides as it goes: 8 s of play)
POLICY_BUILD_GAMES = 250_000
# and a static strategy (greedy, the Yacht Dice notebook's agents) its keep values from a table of every used set's (a
# fifth of a second for Yahtzee, on 2 cores: what 1,300 games' turns cost), where the table is not too big
STAGE_TABLE_MIN_GAMES = 5_000
STAGE_TABLE_MAX_BYTES = 256 * 2**20
# a strategy that works out its stages at every turn keeps those of the first turns, which many games share
# (kernels.MEMO_TURNS), in a memo of at most this many slots and bytes a thread
MEMO_SLOTS, MEMO_BYTES = 4093, 32 * 2**20  # prime: 4,096 slots gave keys a power of two apart one slot
_NO_STAGE_TABLE = frozen(np.zeros((0, 1, 1, 1)))

MODES = {"optimal": OPTIMAL, "random": RANDOM, "semi-random": SEMI_RANDOM,
         "whatever": WHATEVER}


@dataclass
class KernelPlayer:
    """A built-in strategy; ``mode`` and ``hand_values`` select its decisions in the kernels."""

    name: str
    game: ScorecardGame
    mode: int
    hand_values: np.ndarray  # H[roll, category] for static strategies (unused otherwise)
    values: np.ndarray  # the solved table for the optimal strategy (a dummy otherwise)
    model: SolitaireModel
    theta: float = 0.0  # the optimal strategy's risk appetite (``values`` its certainty equivalents); 0: the mean

    def __post_init__(self) -> None:
        # one argument type for every strategy and for tables loaded or just solved: the kernels are then
        # compiled once (each combination of read-only and writable arrays costs a minute and a half)
        self.hand_values = frozen(np.ascontiguousarray(self.hand_values, dtype=np.float64))
        self.values = frozen(self.values)
        self.goal = frozen(goal_of(self.theta))

    def _state(self, position: Position) -> tuple[int, int, int, int]:
        u = position.used
        t, g = position.progress(self.game), position.group(self.game)
        return u, g, t, self.game.dice.roll_index(position.showing)

    def kernel_args(self) -> tuple:
        m = self.model
        return (self.values, m.rules)

    def choose_keep(self, position: Position, rng: np.random.Generator, opponents=()) -> Dice:
        u, g, t, r = self._state(position)
        dice = self.game.dice
        k = decide_keep(self.mode, self.hand_values, u, g, t, r, position.rolls_left,
                        int(rng.integers(0, 2**62)), *self.kernel_args(), dice.graph, self.game.rolls, self.goal)
        return dice.keeps[k]

    def choose_category(self, position: Position, rng: np.random.Generator, opponents=()) -> int:
        u, g, t, r = self._state(position)
        return int(decide_category(self.mode, self.hand_values, u, g, t, r, int(rng.integers(0, 2**62)),
                                        *self.kernel_args()))

    def policy(self, progress=None) -> PolicyTable:
        """The optimal player's decisions as a table (``solitaire.policy_table``), loaded or built once."""
        if "_policy" not in self.__dict__:
            self.__dict__["_policy"] = load_policy(self.game, lambda: self.values, progress)
        return self.__dict__["_policy"]

    def reads_policy(self, n: int) -> bool:
        """Whether ``n`` games of this player read its decisions from the policy table: the optimal player's,
        from POLICY_MIN_GAMES games on where the table is at hand or quick to build (loaded, cached, or its
        kernels compiled), from POLICY_BUILD_GAMES on in any case."""
        if self.mode != OPTIMAL or self.theta or n < POLICY_MIN_GAMES or not has_policy_table(self.game):
            return False
        return n >= POLICY_BUILD_GAMES or "_policy" in self.__dict__ or policy_ready(self.game)

    def play_many(self, throws: np.ndarray, rand: np.ndarray, start: tuple[int, int, int, int] = (0, 0, 0, 0)):
        """Play ``len(throws)`` games in the kernel from a start (used, upper total, flag group, score).

        ``throws[game, turn, throw, die]`` are the dice, ``rand[game, turn, throw]`` the random numbers
        (draw them once and pass the same arrays to several players for common random numbers).
        Returns (totals, boxes[game, category] with -1 for unused, upper bonus reached, extra bonuses).
        """
        n = throws.shape[0]
        if self.reads_policy(n):
            policy = self.policy()
            if policy.covers(start):  # else a start the optimal player never comes to: decided below
                return policy.play(n, throws=throws, start=start)
        stage_table = self.stage_table() if self.mode == STATIC and n >= STAGE_TABLE_MIN_GAMES else _NO_STAGE_TABLE
        with Stripes() as stripes:
            memo_keys, memo_stages = self._memo(stripes.n, decides=stage_table is _NO_STAGE_TABLE)
            out = PlayedGames.empty(n, self.game.n_categories)
            args = (self.mode, self.hand_values, tuple(int(x) for x in start), throws, rand, *self.kernel_args(),
                    self.game.dice.graph, KnownStages(stage_table, memo_keys, memo_stages), self.goal, out)
            stripes.each(simulate_games, *args)
        return out.results()

    def _memo(self, stripes: int, decides: bool) -> tuple[np.ndarray, np.ndarray]:
        """Each stripe's memo of early turns' stages (``kernels.play_game_alone``), for a strategy that
        works out its stages at every turn; a memo of no slots otherwise. Its pages are taken as slots fill."""
        per_slot = 8 * max(self.game.rolls - 1, 1) * len(self.game.dice.keep_add)
        slots = min(MEMO_SLOTS, MEMO_BYTES // per_slot) if decides and self.mode in (OPTIMAL, STATIC) else 0
        if slots % 2 == 0 and slots > 0:
            slots -= 1  # odd: keys a power of two apart (used sets) must not share a slot (key modulo slots)
        return (np.full((stripes, slots), -1, dtype=np.int64),
                np.empty((stripes, slots, max(self.game.rolls - 1, 1), len(self.game.dice.keep_add))))

    def stage_table(self) -> np.ndarray:
        """A static strategy's keep values for every used set and flag group (``static_stage_table``), made
        once a player; none (computed at each turn) where it would take more than STAGE_TABLE_MAX_BYTES."""
        if "_stages" not in self.__dict__:
            m, dice = self.model, self.game.dice
            shape = (m.full + 1, int(m.n_groups.max()), max(self.game.rolls - 1, 1), len(dice.keep_add))
            if np.prod(shape) * 8 > STAGE_TABLE_MAX_BYTES:
                self.__dict__["_stages"] = _NO_STAGE_TABLE
            else:
                table = np.zeros(shape)
                args = (self.mode, self.hand_values, *self.kernel_args(), dice.graph, self.game.rolls, table)
                with Stripes() as stripes:
                    stripes.each(static_stage_table, *args)
                self.__dict__["_stages"] = frozen(table)
        return self.__dict__["_stages"]


def one_turn_expectations(game: ScorecardGame) -> np.ndarray:
    return turn_values(game.dice, game.rolls, game.score_table.astype(np.float64))


def hand_values(game: ScorecardGame, name: str) -> np.ndarray:
    """Static hand values H[roll, category] of the Yacht Dice notebook's agents (and greedy)."""
    scores = game.score_table.astype(np.float64)
    if name == "greedy":
        return scores
    if name == "ev":
        return scores - one_turn_expectations(game)[None, :]
    if name == "bonus":
        h = scores.copy()
        for c, cat in enumerate(game.categories):
            if cat.is_upper:
                three = game.dice.counts[:, cat.face - 1] >= 3
                h[:, c] = np.where(three, scores[:, c] + 100, scores[:, c] - 100)
        return h
    if name == "perfect":
        return (scores == scores.max(axis=0)).astype(np.float64)
    raise InputError(f"{name!r} has no static hand values")


_MODELS: dict[str, SolitaireModel] = {}


def _model(game: ScorecardGame) -> SolitaireModel:
    if game.fingerprint not in _MODELS:
        _MODELS[game.fingerprint] = SolitaireModel(game)
    return _MODELS[game.fingerprint]
