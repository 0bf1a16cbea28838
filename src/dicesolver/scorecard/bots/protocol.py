"""A scorecard strategy as a protocol player (``core.family.Player``): the play, web and terminal front ends
seat any bot through it. Light on purpose: the family imports it without the bots' kernels."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..game.state import Keep, Score, ScorecardState


class ScorecardBot:
    """A scorecard strategy (``choose_keep``/``choose_category`` on positions) as a protocol player."""

    def __init__(self, name: str, strategy: Any):
        self.name = name
        self.strategy = strategy

    def choose(self, state: ScorecardState, rng: np.random.Generator) -> Keep | Score:
        game = state.game
        seat = state.player
        pos = state.position
        others = [c for s, c in enumerate(state.cards) if s != seat]  # seat order, as the match kernel
        if pos.rolls_left > 0:
            keep = tuple(sorted(self.strategy.choose_keep(pos, rng, others)))
            if len(keep) < game.n_dice:
                return Keep(keep, game.faces)
        c = self.strategy.choose_category(pos, rng, others)
        return next(a for a in state.legal_actions() if isinstance(a, Score) and a.category == c)
