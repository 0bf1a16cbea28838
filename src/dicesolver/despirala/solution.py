"""Despirala's solution behind the protocol: every player's expected final score (normal play: higher is
better; misere: lower)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.errors import InputError
from ..core.results import SolveInfo
from ..core.solved import SolvedGame
from .rules import COMBINATIONS, DespiralaGame, Move
from .solver import DespiralaSolution, collect_values, completion_odds, pick_shape, pick_value, turn_options
from .state import COLLECT, COMPLETE, DECIDE, HITS, THROW, DespiralaState
from .target import TargetTable


def _sign(solution: DespiralaSolution) -> float:
    return 1.0 if solution.mode == "normal" else -1.0


def collect_state_values(solution: DespiralaSolution, state: DespiralaState) -> dict[str, float]:
    seat = state.seat
    combo = COMBINATIONS[state.combination]
    return collect_values(solution, seat.free & ~(1 << combo.index), combo.collect_face(), state.have, seat.goods)


def completing_value(solution: DespiralaSolution, state: DespiralaState) -> float:
    """The value of completing the combination being completed (its points when it succeeds included)."""
    seat = state.seat
    combo = COMBINATIONS[state.combination]
    pts = combo.target(state.args)[1]
    s = pick_shape(combo.index, state.args, state.dice)
    q, qcum = completion_odds()
    return pick_value(solution.W, seat.free & ~(1 << combo.index), s, seat.goods, float(pts), q, qcum)


def expected_final(solution: DespiralaSolution, state: DespiralaState, seat: int) -> float:
    """``seat``'s expected final score in ``state`` (expected-score play from then on)."""
    me = state.seats[seat]
    if state.over:
        return float(me.final)
    if state.mover != seat:
        return me.points + solution.end_value(me.free, me.goods)
    sign = _sign(solution)
    if state.phase == THROW:
        return me.points + float(solution.W[me.free, me.goods])
    if state.phase == DECIDE:
        return me.points + turn_options(solution, me.free, me.goods, state.dice)[0][1]
    if state.phase == COLLECT:
        values = collect_state_values(solution, state)
        return me.points + (max(values.values()) if sign > 0 else min(values.values()))
    if state.phase == COMPLETE:
        return me.points + completing_value(solution, state)
    if state.phase == HITS:  # the good for this rethrow is paid already
        combo = COMBINATIONS[state.combination]
        return me.points + collect_values(solution, me.free & ~(1 << combo.index), combo.collect_face(), state.have,
                                          me.goods + 1)["continue"]
    raise InputError(f"unknown phase {state.phase!r}")


class ExpectedFinalScore(SolvedGame[DespiralaGame, DespiralaState]):
    """Expected final score (points + goods left) with expected-score play from here, for any seat."""

    unit = "points"
    tie = 1e-9

    def __init__(self, game: DespiralaGame, table: DespiralaSolution, info: SolveInfo):
        super().__init__(game, info)
        self.table = table
        self.higher_is_better = table.mode == "normal"

    def headline(self) -> str:
        goal = "highest" if self.higher_is_better else "lowest"
        return f"expected final score {self.root_value:.3f} playing for the {goal} score"


    def state_value(self, state: DespiralaState, seat: int | None = None) -> float:
        seat = state.mover if seat is None else seat
        return expected_final(self.table, state, seat)

    def action_values(self, state: DespiralaState) -> list[tuple[Any, float]]:
        seat = state.seat
        if state.phase == DECIDE:
            return [(m, seat.points + v) for m, v in turn_options(self.table, seat.free, seat.goods, state.dice)]
        if state.phase == COLLECT:
            values = collect_state_values(self.table, state)
            return [(Move(k), seat.points + v) for k, v in values.items()]
        raise InputError("no decision is due now")


class TargetChance(SolvedGame[DespiralaGame, DespiralaState]):
    """The best chance that a player's own final score reaches ``score`` (at least it; at most it in
    misere play), or with ``beat`` passes it (a tie counting half), whatever the others do."""

    unit = "p_target"
    tie = 1e-6  # the table is float32

    def __init__(self, game: DespiralaGame, table: TargetTable, score: int, beat: bool, info: SolveInfo):
        super().__init__(game, info)
        self.table, self.score, self.beat = table, score, beat

    def curve(self) -> np.ndarray:
        """The best chance from the start of a game, for every score 0..N of the table (this aim's kind)."""
        return self.table.curve()

    def _goal(self) -> str:
        if self.beat:
            return f"{'beating' if self.table.normal else 'finishing under'} {self.score} (a tie counts half)"
        return f"finishing with {'at least' if self.table.normal else 'at most'} {self.score} points"

    def headline(self) -> str:
        return f"the best chance of {self._goal()} is {self.root_value:.6f}"

    def notes(self, state: DespiralaState) -> list[str]:
        return [f"chances of {self._goal()}, playing for it from here"]

    def details(self, state: DespiralaState) -> dict[str, Any]:
        points = state.seat.points
        return {"beat" if self.beat else "target": self.score, "score_so_far": points, "need": self.score - points}

    def state_value(self, state: DespiralaState, seat: int | None = None) -> float:
        seat = state.mover if seat is None else seat
        me = state.seats[seat]
        need = self.score - me.points
        table = self.table
        if state.over:
            return table.end(0, me.goods, need)
        if state.mover != seat:
            return table.end(me.free, me.goods, need)
        if state.phase == THROW:
            return table.start(me.free, me.goods, need)
        if state.phase in (DECIDE, COLLECT):
            return max(v for _, v in self.action_values(state))
        combo = COMBINATIONS[state.combination]
        after = me.free & ~(1 << combo.index)
        if state.phase == COMPLETE:
            s = pick_shape(combo.index, state.args, state.dice)
            return table.pick_chance(after, s, me.goods, combo.target(state.args)[1], need)
        if state.phase == HITS:  # the good for this rethrow is paid already
            return table.collect_chances(after, combo.collect_face(), state.have, me.goods + 1, need)["continue"]
        raise InputError(f"unknown phase {state.phase!r}")

    def action_values(self, state: DespiralaState) -> list[tuple[Any, float]]:
        seat = state.seat
        need = self.score - seat.points
        if state.phase == DECIDE:
            return self.table.turn_options(seat.free, seat.goods, state.dice, need)
        if state.phase == COLLECT:
            combo = COMBINATIONS[state.combination]
            values = self.table.collect_chances(seat.free & ~(1 << combo.index), combo.collect_face(), state.have,
                                                seat.goods, need)
            return sorted(((Move(k), v) for k, v in values.items()), key=lambda mv: -mv[1])
        raise InputError("no decision is due now")
