"""A recorded game as the protocol sees it: the start, every step in order, and who sat where.

Every family's record file turns into a ``Playthrough``; review, replay and resuming a game work on it
without knowing the family. Records name their players in their own order and may say who moved first;
seats are numbered in turn order from the first mover.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import numpy as np

from .errors import InputError
from .protocol import Game, State, Step


@dataclass
class Playthrough:
    game: Game  # with its number of players
    players: list[str]  # the record's player names, in the record's order
    steps: list[Step]  # every action and outcome, in order, from ``game.start()``
    first: int = 0  # the record's index of the player who moved first
    seed: int | None = None
    details: dict[str, Any] = field(default_factory=dict)
    # what a step's line says beside the step, by the step's index: the tutor's warning settled there
    notes: dict[int, dict[str, Any]] = field(default_factory=dict)
    _states: list[State] = field(default_factory=list, init=False, repr=False, compare=False)
    _replayed: list[Step] = field(default_factory=list, init=False, repr=False, compare=False)

    def seat(self, player: int) -> int:
        """The seat of the record's player ``player``."""
        n = len(self.players)
        if not 0 <= player < n:
            raise InputError(f"no player {player} in this record (--player 0 to {n - 1})")
        return (player - self.first) % n

    def name(self, seat: int) -> str:
        return self.players[(self.first + seat) % len(self.players)]

    @property
    def states(self) -> list[State]:
        """The state before each step, and the state after the last (one more than there are steps)."""
        known = self._states
        if len(known) == len(self.steps) + 1 and all(a is b for a, b in zip(self._replayed, self.steps)):
            return known
        state = self.game.start()
        states = [state]
        for i, step in enumerate(self.steps):
            try:
                state = state.apply(step)
            except InputError as exc:
                raise InputError(f"step {i + 1} ({step}): {exc}") from None
            states.append(state)
        self._states, self._replayed = states, list(self.steps)
        return states

    @property
    def final(self) -> State:
        return self.states[-1]

    def is_over(self) -> bool:
        return self.final.is_terminal()


def decisions(game: Game, choose: Callable[[State], Step], rng: np.random.Generator) -> Iterator[tuple[State, Step]]:
    """Play one game from its start, every throw drawn by its chances with ``rng`` and every decision made by
    ``choose``: each decision that had two options or more, and the step chosen there (the trainer's positions
    and the rating's bot games)."""
    state = game.start()
    while not state.is_terminal():
        if state.is_chance():
            outcomes = state.chance_outcomes()
            p = np.array([q for _, q in outcomes])
            state = state.apply(outcomes[int(rng.choice(len(outcomes), p=p / p.sum()))][0])
            continue
        step = choose(state)
        if len(state.legal_actions()) > 1:
            yield state, step
        state = state.apply(step)
