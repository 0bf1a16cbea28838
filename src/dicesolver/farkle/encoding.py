"""Farkle as arrays (``core.encoding``): both banks and Farkles in a row, the turn total, the dice left and
the dice on the table; throw, bank, or set aside the dice at some positions of the (sorted) table."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.encoding import ArraySpec, Encoding
from ..core.errors import InputError
from .rules import DICE, FACES, UNIT, FarkleGame, counts_of, format_dice
from ..core.steps import Throw
from .state import Bank, FarkleState, Take, takes

THROW, BANK = 0, 1
TAKE = 1  # action TAKE + m (2 to 64) sets aside the table's dice at the bits of m (1 to 63)


@lru_cache(maxsize=4096)
def canonical_mask(table: tuple[int, ...], dice: tuple[int, ...]) -> int:
    """The positions of ``dice`` in the sorted ``table``: for each face, its first occurrences."""
    mask = 0
    wanted = list(counts_of(dice))
    for position, face in enumerate(table):
        if wanted[face - 1]:
            wanted[face - 1] -= 1
            mask |= 1 << position
    if any(wanted):
        raise InputError(f"{format_dice(dice)} is not among the dice thrown ({format_dice(table)})")
    return mask


@lru_cache(maxsize=4096)
def take_codes(game: FarkleGame, table: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """The legal set-asides of a table in legal-action order: (action code, dice set aside, points)."""
    return tuple((TAKE + canonical_mask(table, take.dice), len(take.dice), points)
                 for take, points in takes(game, table))


class FarkleEncoding(Encoding[FarkleGame, FarkleState]):
    def observation_spec(self) -> dict[str, ArraySpec]:
        g = self.game
        top = g.goal + 8 * 1000  # a winning set-aside can pass the goal
        return {"scores": ArraySpec((2,), g.floor, top, "the banked scores: the observer's, then the opponent's"),
                "farkles": ArraySpec((2,), 0, g.farkle_limit - 1, "Farkles in a row: the observer's, the opponent's"),
                "turn_total": ArraySpec((1,), 0, g.wins_from(g.floor) - UNIT,  # short of a win, from the floor
                                        "the points at risk this turn (the mover's)"),
                "left": ArraySpec((1,), 1, DICE, "the dice to throw, or thrown and on the table"),
                "table": ArraySpec((FACES,), 0, DICE, "the dice on the table by face (1s, 2s, ... 6s): all 0 "
                                                      "when none are"),
                "on_turn": ArraySpec((1,), 0, 1, "1 when the observer is the player on turn")}

    def situation_spec(self) -> dict[str, ArraySpec]:
        return self.observation_spec() | {"throwing": ArraySpec((1,), 0, 1, "1 when a throw is due")}

    def situation(self, state: FarkleState) -> dict[str, np.ndarray]:
        seat = state.mover if state.winner is None else 0
        return self.observe(state, seat) | {"throwing": np.array([int(state.is_chance())], dtype=np.int64)}

    def action_labels(self) -> list[str]:
        positions = [", ".join(str(p + 1) for p in range(DICE) if m >> p & 1) for m in range(1, 2 ** DICE)]
        return ["throw", "bank"] + [f"take the dice at positions {p}" for p in positions]

    def observe(self, state: FarkleState, seat: int) -> dict[str, np.ndarray]:
        return {"scores": np.array([state.scores[seat], state.scores[1 - seat]], dtype=np.int64),
                "farkles": np.array([state.farkles[seat], state.farkles[1 - seat]], dtype=np.int64),
                "turn_total": np.array([state.turn_total], dtype=np.int64),
                "left": np.array([state.left], dtype=np.int64),
                "table": np.array(counts_of(state.table), dtype=np.int64),
                "on_turn": np.array([int(state.mover == seat and state.winner is None)], dtype=np.int64)}

    def step_of(self, state: FarkleState, action: int) -> Take | Throw | Bank:
        self.check_action(state, action)
        if action == THROW:
            return Throw()
        if action == BANK:
            return Bank()
        mask = int(action) - TAKE
        return Take(tuple(d for p, d in enumerate(state.table) if mask >> p & 1))

    def action_of(self, state: FarkleState, step) -> int:
        if isinstance(step, Throw):
            return THROW
        if isinstance(step, Bank):
            return BANK
        if isinstance(step, Take):
            return TAKE + canonical_mask(state.table, step.dice)
        raise InputError(f"{step!r} is not a move of {self.game.name}")
