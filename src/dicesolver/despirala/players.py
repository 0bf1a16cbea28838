"""Despirala bots: the expected-score strategy of a table (the exact one, ``optimal``, or a Monte Carlo
model, ``mc-N``) and the competitive strategy (``competitive``), which plays to finish ahead of the others.

The competitive strategy weighs every option by the expected number of opponents its final score beats
(a tie counts half), that is, by its expected rank; against one opponent, by its chance to win. Both
sides are exact (``future``: the final-score distribution of the expected-score strategy from every turn
start): the opponents' final scores from where they stand, and its own after each option, assuming the
expected-score strategy from the end of this turn on. Inside its turn it collects to win as well. The
arithmetic is in ``kernels.competitive``; with no opponents it is the expected-score strategy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np

from ..core.aims import (FIELD_TEMPLATE, TARGET_PREFIX, TARGET_TEMPLATE, THETA_TEMPLATE, parse_field_player,
                         parse_target, parse_theta_player, table_needs, theta_player)
from ..core.errors import InputError
from ..core.solved import TargetChance
from .future import FutureTable
from .rules import COMBINATIONS, DespiralaGame, Move
from .solver import DespiralaTable, collect_values, kernel_throws, pick_shape, throw_options, turn_options, value_sign
from .state import COLLECT, DECIDE, DespiralaState
from .target import TargetTable


def collect_state_values(solution: DespiralaTable, state: DespiralaState) -> dict[str, float]:
    """Stop's and (where allowed) Continue's expected values while collecting."""
    seat = state.seat
    combo = COMBINATIONS[state.combination]
    return collect_values(solution, seat.free & ~(1 << combo.index), combo.collect_face(), state.have, seat.goods)


DESPIRALA_STRATEGIES = {
    "optimal": "maximises the expected final score (minimises it in misere play): the exact solution",
    "competitive": "plays to finish ahead of the others: the best expected rank, from exact final-score distributions",
    "mc-5": "a Monte Carlo model: every average over the 462 throws replaced by 5 sampled throws (weak); mc-N for "
            "any N",
    TARGET_TEMPLATE: "plays for the best chance of a final score of at least T (at most T in misere play), "
                     "e.g. target:450",
    FIELD_TEMPLATE: "plays for the best chance of the top score in a blind tournament of N players who play for "
                    "the mean (normal play), e.g. field:10",
    THETA_TEMPLATE: "plays with a risk appetite theta from -1 to 1 (normal play): the best certainty equivalent "
                    "ln E[exp(theta X)] / theta of its final score X, e.g. theta:0.02 (bold) or theta:-0.02",
}
_MC = re.compile(r"^mc-?([0-9]{1,7})$")


@dataclass
class ExpectedScorePlayer:
    """Plays the best move of a table of expected final scores (or of a risk appetite's table)."""

    name: str
    solution: DespiralaTable

    def choose(self, game: DespiralaGame, state: DespiralaState) -> Move:
        seat = state.seat
        if state.phase == DECIDE:
            return turn_options(self.solution, seat.free, seat.goods, state.dice)[0][0]
        if state.phase == COLLECT:
            values = collect_state_values(self.solution, state)
            sign = self.solution.sign
            return Move(max(values, key=lambda k: sign * values[k]))
        raise InputError("no decision is due now")


@dataclass
class CompetitivePlayer:
    """Plays for the best expected rank (see the module's docstring)."""

    solution: DespiralaTable
    future: FutureTable
    name: str = "competitive"

    def beat_curve(self, state: DespiralaState) -> np.ndarray | None:
        """beat[y]: the expected number of opponents a final score of y beats (ties half)."""
        from .kernels.competitive import BEAT_CELLS, add_opponent
        from .solver import H

        others = [s for i, s in enumerate(state.seats) if i != state.mover]
        if not others:
            return None
        beat = np.zeros(BEAT_CELLS)
        for seat in others:
            add_opponent(self.future.arrays, seat.free, seat.goods, seat.points, self._sign, H, beat)
        return beat

    @property
    def _sign(self) -> float:
        return value_sign(self.solution.mode)

    def _decide(self, state: DespiralaState, beat: np.ndarray) -> tuple[int, np.ndarray, int]:
        """(choice code, each option's expected opponents beaten, throw index): see kernels.competitive.decide."""
        from .kernels.competitive import decide

        throws = kernel_throws(self.solution.mode)
        r = _throw_index()[tuple(state.dice)]
        seat = state.seat
        values = np.empty(7 + throws.most_options)
        choice = decide(self.future.arrays, np.asarray(self.solution.W), seat.free, seat.goods, seat.points, r, beat,
                        self._sign, throws, values)
        return int(choice), values, r

    def _move(self, state: DespiralaState, choice: int) -> Move:
        if choice < 0:
            return Move("reroll")
        if choice < 6:
            return Move("pick", choice)
        _, _, _, combo, shape, points = throw_options(self.solution.mode)
        o = choice - 6
        c = COMBINATIONS[int(combo[o])]
        for args in c.arguments():
            if pick_shape(c.index, args, state.dice) == shape[o] and c.target(args)[1] == points[o]:
                return Move("pick", c.index, args)
        raise AssertionError("an option the throw does not offer")  # throw_options built it from this throw

    def option_values(self, game: DespiralaGame, state: DespiralaState) -> list[tuple[Move, float, float]]:
        """(move, expected opponents beaten, expected final score) for every legal move, the chosen one
        first, then by opponents beaten."""
        beat = self.beat_curve(state)
        if state.phase == COLLECT:
            points = collect_state_values(self.solution, state)
            if beat is None:
                return sorted(((Move(k), 0.0, v) for k, v in points.items()), key=lambda r: -self._sign * r[2])
            chosen_kind = self._collect_move(state, beat)
            beaten = self._collect_beaten(state, beat)
            rows = [(Move(k), beaten[k], points[k]) for k in points]
            return sorted(rows, key=lambda r: (r[0].kind != chosen_kind, -r[1]))
        if state.phase != DECIDE:
            raise InputError("no decision is due now")
        seat = state.seat
        options = turn_options(self.solution, seat.free, seat.goods, state.dice)
        if beat is None:
            return [(m, 0.0, v) for m, v in options]
        expected = dict(options)
        choice, values, r = self._decide(state, beat)
        first = int(kernel_throws(self.solution.mode).opt_start[r])
        rows = []
        for i, v in enumerate(values):
            if v == v:
                move = self._move(state, -1 if i == 0 else i - 1 if i < 7 else 6 + first + i - 7)
                rows.append((move, float(v), expected[move]))
        chosen = self._move(state, choice)
        return sorted(rows, key=lambda row: (row[0] != chosen, -row[1]))

    def _collect_move(self, state: DespiralaState, beat: np.ndarray) -> str:
        from .kernels.competitive import collect_decision

        seat = state.seat
        go = collect_decision(self.future.arrays, np.asarray(self.solution.W), seat.free, state.combination,
                              state.have, seat.goods, seat.points, beat, self._sign, kernel_throws(self.solution.mode))
        return "continue" if go else "stop"

    def _collect_beaten(self, state: DespiralaState, beat: np.ndarray) -> dict[str, float]:
        from .kernels.competitive import collect_beaten
        from .solver import H

        seat = state.seat
        stop, go = collect_beaten(self.future.arrays, seat.free, state.combination, state.have, seat.goods,
                                  seat.points, beat, kernel_throws(self.solution.mode), H)
        out = {"stop": float(stop)}
        if go == go:
            out["continue"] = float(go)
        return out

    def choose(self, game: DespiralaGame, state: DespiralaState) -> Move:
        beat = self.beat_curve(state)
        if beat is None:
            return ExpectedScorePlayer(self.name, self.solution).choose(game, state)
        if state.phase == COLLECT:
            return Move(self._collect_move(state, beat))
        if state.phase == DECIDE:
            return self._move(state, self._decide(state, beat)[0])
        raise InputError("no decision is due now")


@dataclass
class TargetPlayer:
    """Plays its own sheet for the best chance of finishing with at least ``aim`` points (at most, misere),
    from the target table (``target``); the other players' sheets are not looked at."""

    table: TargetTable
    aim: int
    label: str = ""  # a goal's name (field:N) where the aim is not a target's

    @property
    def name(self) -> str:
        return self.label or f"{TARGET_PREFIX}{self.aim}"

    def choose(self, game: DespiralaGame, state: DespiralaState) -> Move:
        seat = state.seat
        need = self.aim - seat.points
        if state.phase == DECIDE:
            return self.table.turn_options(seat.free, seat.goods, state.dice, need)[0][0]
        if state.phase == COLLECT:
            combo = COMBINATIONS[state.combination]
            values = self.table.collect_chances(seat.free & ~(1 << combo.index), combo.collect_face(), state.have,
                                                seat.goods, need)
            return Move(max(values, key=lambda k: values[k]))  # Stop first: a tie stops
        raise InputError("no decision is due now")


@lru_cache(maxsize=1)
def _throw_index() -> dict[tuple[int, ...], int]:
    from .rules import six_dice_throws

    throws, _ = six_dice_throws()
    return {tuple(t): i for i, t in enumerate(throws)}


def check_despirala_player(name: str) -> None:
    """InputError naming the choices when ``name`` is no Despirala bot (nothing is built)."""
    key = str(name).strip().lower()
    if parse_target(key) is not None or parse_theta_player(key) is not None or parse_field_player(key) is not None:
        return
    if key in ("optimal", "ev", "expected", "competitive"):
        return
    m = _MC.match(key)
    if not m:
        raise InputError(f"unknown Despirala strategy {name!r}: optimal, competitive, mc-N (e.g. mc-5), target:T "
                         "(e.g. target:450), field:N (e.g. field:10) or theta:X (e.g. theta:0.02)")
    if not 1 <= int(m.group(1)) <= 1000:
        raise InputError("mc-N takes N from 1 to 1000 samples per state")


def make_despirala_player(name: str, game: DespiralaGame, solution: DespiralaTable, seed: int = 0,
                          progress: Callable[[int, int], None] | None = None):
    """A bot by name: optimal, competitive, mc-N (a Monte Carlo model with N samples per state), target:T or
    theta:X. ``progress`` follows the first build of the table the competitive, target or theta strategy reads."""
    check_despirala_player(name)
    key = str(name).strip().lower()
    aim = parse_target(key)
    if aim is not None:
        from .target import load_or_build as load_targets

        return TargetPlayer(load_targets(game.mode, table_needs(aim), progress)[0], aim)
    field = parse_field_player(key)
    if field is not None:
        from ..core import registry

        solved = registry.family_of(game).goal_solution(game, field, progress)
        assert isinstance(solved, TargetChance)
        return TargetPlayer(solved.table, solved.final_goal.aim(), field.text())
    theta = parse_theta_player(key)
    if theta:
        from .solver import load_or_solve

        return ExpectedScorePlayer(theta_player(theta), load_or_solve(game.mode, progress=progress, theta=theta)[0])
    if theta is not None:  # theta:0 is the mean
        return ExpectedScorePlayer("optimal", solution)
    if key in ("optimal", "ev", "expected"):
        return ExpectedScorePlayer("optimal", solution)
    if key == "competitive":
        from .future import load_or_build

        return CompetitivePlayer(solution, load_or_build(solution, progress))
    m = _MC.match(key)
    assert m  # check_despirala_player let only these names through
    n = int(m.group(1))
    from ..core.arrays import frozen
    from .solver import solve

    W = solve(game.mode, samples=n, seed=seed)
    return ExpectedScorePlayer(f"mc-{n}", DespiralaTable(game.mode, frozen(W)))
