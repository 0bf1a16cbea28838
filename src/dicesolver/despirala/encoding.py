"""Despirala as arrays (``core.encoding``): every sheet (free combinations, goods, points), the dice, the
moment of the turn; actions are Reroll, Continue, Stop, then every combination with every argument (a
pick of one that is not there goes on to complete it, as the rules say)."""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ..core.encoding import ArraySpec, Encoding
from ..core.errors import InputError
from .rules import COMBINATIONS, MAX_GOODS, N_DICE, DespiralaGame, Move
from .state import COLLECT, COMPLETE, DECIDE, HITS, OVER, THROW, DespiralaState

PHASES = [THROW, DECIDE, COMPLETE, COLLECT, HITS, OVER]
FIXED = [Move("reroll"), Move("continue"), Move("stop")]
PICKS = [Move("pick", c.index, args) for c in COMBINATIONS for args in c.arguments()]
MAX_POINTS = 2000  # far above any sheet's points


class DespiralaEncoding(Encoding[DespiralaGame, DespiralaState]):
    def __init__(self, game: DespiralaGame):
        super().__init__(game)
        self.moves = FIXED + PICKS
        self.index = {(m.kind, m.combination, m.args): i for i, m in enumerate(self.moves)}

    def observation_spec(self) -> dict[str, ArraySpec]:
        return dict(self._observation_spec)

    @cached_property
    def _observation_spec(self) -> dict[str, ArraySpec]:  # made once: each piece of advice asks for it
        n = self.game.players
        return {
            "free": ArraySpec((n, len(COMBINATIONS)), 0, 1, "every sheet's free combinations (the observer's first)"),
            "goods": ArraySpec((n,), 0, MAX_GOODS + 5, "every player's goods"),
            "points": ArraySpec((n,), 0, MAX_POINTS, "every player's points"),
            "dice": ArraySpec((N_DICE,), 0, 6, "the six dice showing, sorted (0: none)"),
            "phase": ArraySpec((1,), 0, len(PHASES) - 1, "the moment: " + ", ".join(PHASES)),
            "combination": ArraySpec((1,), 0, len(COMBINATIONS), "1 + the combination completed or collected "
                                                                 "(0: none)"),
            "have": ArraySpec((1,), 0, N_DICE, "dice of the collected face so far"),
        }

    def situation_spec(self) -> dict[str, ArraySpec]:
        return dict(self._situation_spec)

    @cached_property
    def _situation_spec(self) -> dict[str, ArraySpec]:
        return self._observation_spec | {
            "picked": ArraySpec((1,), 0, len(self.moves) - 1, "completing a pick: its action (the combination with "
                                                               "its arguments; 0: none)")}

    def situation(self, state: DespiralaState) -> dict[str, np.ndarray]:
        seat = 0 if state.phase == OVER else state.mover
        picked = 0
        if state.phase == COMPLETE:
            picked = self.index[("pick", state.combination, tuple(state.args))]
        return self.observe(state, seat) | {"picked": np.array([picked], dtype=np.int64)}

    def action_labels(self) -> list[str]:
        return [m.text() for m in self.moves]

    def observe(self, state: DespiralaState, seat: int) -> dict[str, np.ndarray]:
        order = [(seat + k) % len(state.seats) for k in range(len(state.seats))]
        seats = [state.seats[s] for s in order]
        dice = np.zeros(N_DICE, dtype=np.int64)
        dice[: len(state.dice)] = sorted(state.dice)
        return {"free": np.array([[s.free >> c & 1 for c in range(len(COMBINATIONS))] for s in seats], dtype=np.int64),
                "goods": np.array([s.goods for s in seats], dtype=np.int64),
                "points": np.array([s.points for s in seats], dtype=np.int64), "dice": dice,
                "phase": np.array([PHASES.index(state.phase)], dtype=np.int64),
                "combination": np.array([state.combination + 1], dtype=np.int64),
                "have": np.array([state.have], dtype=np.int64)}

    def step_of(self, state: DespiralaState, action: int) -> Move:
        self.check_action(state, action)
        return self.moves[action]

    def action_of(self, state: DespiralaState, step) -> int:
        key = (step.kind, step.combination, tuple(step.args)) if isinstance(step, Move) else None
        if key not in self.index:
            raise InputError(f"{step!r} is not a move of Despirala")
        return self.index[key]
