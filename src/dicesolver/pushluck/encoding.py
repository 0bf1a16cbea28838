"""Pig, Skunk and Big Pig as arrays (``core.encoding``): both banks and the turn total; throw or hold."""

from __future__ import annotations

import numpy as np

from ..core.encoding import ArraySpec, Encoding
from ..core.errors import InputError
from .rules import PushGame
from ..core.steps import Throw
from .state import Hold, PushState


class PushEncoding(Encoding[PushGame, PushState]):
    def observation_spec(self) -> dict[str, ArraySpec]:
        top = 2 * self.game.goal  # a winning throw can pass the goal
        return {"scores": ArraySpec((2,), 0, top, "the banked scores: the observer's, then the opponent's"),
                "turn_total": ArraySpec((1,), 0, top, "the points at risk this turn (the mover's)"),
                "on_turn": ArraySpec((1,), 0, 1, "1 when the observer is the player on turn")}

    def situation_spec(self) -> dict[str, ArraySpec]:
        return self.observation_spec() | {"throwing": ArraySpec((1,), 0, 1, "1 when a throw is due (the turn's first, "
                                                                          "or after choosing to throw)")}

    def situation(self, state: PushState) -> dict[str, np.ndarray]:
        seat = state.mover if state.winner is None else 0
        return self.observe(state, seat) | {"throwing": np.array([int(state.throwing)], dtype=np.int64)}

    def action_labels(self) -> list[str]:
        return ["throw", "hold"]

    def observe(self, state: PushState, seat: int) -> dict[str, np.ndarray]:
        return {"scores": np.array([state.scores[seat], state.scores[1 - seat]], dtype=np.int64),
                "turn_total": np.array([state.turn_total], dtype=np.int64),
                "on_turn": np.array([int(state.mover == seat and state.winner is None)], dtype=np.int64)}

    def step_of(self, state: PushState, action: int) -> Throw | Hold:
        self.check_action(state, action)
        return Throw() if action == 0 else Hold()

    def action_of(self, state: PushState, step) -> int:
        if isinstance(step, Throw):
            return 0
        if isinstance(step, Hold):
            return 1
        raise InputError(f"{step!r} is not a move of {self.game.name}")
