"""Scorecard games as arrays (``core.encoding``): every card, the dice, the throws left; actions are the
2^n sets of dice positions to hold (the sorted dice; holding all of them throws none) and then one per box.

A hold means a keep: holding either of two equal dice is the same keep, so every position set is legal
while a throw is left (``mask``), and a keep's own index (``action_of``) holds the first of equal dice.
"""

from __future__ import annotations

import numpy as np

from ..core.encoding import ArraySpec, Encoding
from ..core.errors import InputError
from .rules import ScorecardGame
from .state import Keep, Score, ScorecardState


class ScorecardEncoding(Encoding[ScorecardGame, ScorecardState]):
    def __init__(self, game: ScorecardGame):
        super().__init__(game)
        self.holds = 1 << game.n_dice
        maxima = game.max_scores.astype(np.int64)
        upper = sum(int(m) for c, m in enumerate(maxima) if game.categories[c].is_upper)
        extra = game.extra_yacht.points * game.n_categories if game.extra_yacht else 0
        self.max_total = int(maxima.sum()) + (game.upper_points if game.has_upper_bonus else 0) + extra
        self.max_upper = upper

    def observation_spec(self) -> dict[str, ArraySpec]:
        g, n = self.game, self.game.players
        return {
            "cards": ArraySpec((n, g.n_categories), -1, int(g.max_scores.max()),
                               "every card's boxes (-1: open); row 0 is the observer's, then the others in turn order"),
            "dice": ArraySpec((g.n_dice,), 0, g.faces, "the dice showing, sorted (0: a throw is due)"),
            "rolls_left": ArraySpec((1,), 0, g.rolls, "throws still allowed this turn"),
            "totals": ArraySpec((n,), 0, self.max_total, "every player's points so far, bonuses included"),
            "upper": ArraySpec((n,), 0, self.max_upper, "every player's upper-section sum (bonus progress)"),
        }

    def action_labels(self) -> list[str]:
        n = self.game.n_dice
        holds = ["hold " + ("".join(str(i + 1) for i in range(n) if m >> i & 1) or "none") for m in range(self.holds)]
        return holds + [f"score {c.name}" for c in self.game.categories]

    def observe(self, state: ScorecardState, seat: int) -> dict[str, np.ndarray]:
        g = self.game
        order = [(seat + k) % len(state.cards) for k in range(len(state.cards))]
        cards = np.array([[-1 if v is None else v for v in state.cards[s].boxes] for s in order], dtype=np.int64)
        dice = np.zeros(g.n_dice, dtype=np.int64)
        if state.dice is not None:
            dice[:] = sorted(state.dice)
        return {"cards": cards, "dice": dice, "rolls_left": np.array([state.rolls_left], dtype=np.int64),
                "totals": np.array([state.cards[s].total(g) for s in order], dtype=np.int64),
                "upper": np.array([state.cards[s].upper_total(g) for s in order], dtype=np.int64)}

    def step_of(self, state: ScorecardState, action: int) -> Keep | Score:
        self.check_action(state, action)
        if action < self.holds:
            dice = sorted(state.dice or ())
            return Keep(tuple(d for i, d in enumerate(dice) if action >> i & 1), self.game.faces)
        c = action - self.holds
        return next(a for a in state.legal_actions() if isinstance(a, Score) and a.category == c)

    def action_of(self, state: ScorecardState, step) -> int:
        if isinstance(step, Score):
            return self.holds + step.category
        if isinstance(step, Keep):
            left = list(step.dice)
            mask = 0
            for i, d in enumerate(sorted(state.dice or ())):
                if d in left:
                    left.remove(d)
                    mask |= 1 << i
            if left:
                raise InputError(f"{step} is not a keep of these dice")
            return mask
        raise InputError(f"{step!r} is not a move of {self.game.name}")

    def mask(self, state: ScorecardState) -> np.ndarray:
        flags = np.zeros(self.n_actions, dtype=np.int8)
        if state.to_move() is None or state.dice is None:
            return flags
        if state.rolls_left > 0:
            flags[: self.holds] = 1  # every hold is some keep
        for c, _, _ in self.game.legal_scores(state.card.boxes, state.dice):
            flags[self.holds + c] = 1
        return flags
