"""A game as arrays, for learning agents: what a player sees (named integer arrays with their bounds) and
one fixed list of actions, each legal or not at a given state.

Every family gives its games an ``Encoding`` (``Family.encoding``); the reinforcement-learning
environments (``dicesolver.rl``) are written once over it and the protocol, so a new game is an
environment as soon as its family encodes it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import cached_property
from typing import Generic, Sequence, TypeVar, cast

import numpy as np

from .errors import InputError
from .protocol import Game, State, Step

G = TypeVar("G", bound=Game)
S = TypeVar("S", bound=State)


@dataclass(frozen=True)
class ArraySpec:
    """One observation array: its shape and the bounds of its integer entries (inclusive)."""

    shape: tuple[int, ...]
    low: int
    high: int
    about: str  # what it holds, for the documentation table


class Encoding(ABC, Generic[G, S]):
    """A game's states as named arrays and its actions as the indices of one fixed list."""

    def __init__(self, game: G):
        self.game = game

    @abstractmethod
    def observation_spec(self) -> dict[str, ArraySpec]:
        """The observation arrays every state is shown as (for a player ``seat``)."""

    @abstractmethod
    def action_labels(self) -> list[str]:
        """What each action index means, in words (the table in the documentation)."""

    @abstractmethod
    def observe(self, state: S, seat: int) -> dict[str, np.ndarray]:
        """The state as ``seat`` sees it (int64 arrays, as ``observation_spec`` says)."""

    @abstractmethod
    def step_of(self, state: S, action: int) -> Step:
        """The protocol step of an action index at a decision (InputError when it is not legal there)."""

    @abstractmethod
    def action_of(self, state: S, step: Step) -> int:
        """The action index of a legal step (the inverse of ``step_of``; one index where several mean it)."""

    @cached_property
    def n_actions(self) -> int:
        return len(self.action_labels())

    def mask(self, state: S) -> np.ndarray:
        """int8 flags of the actions legal at a decision (all zero elsewhere)."""
        flags = np.zeros(self.n_actions, dtype=np.int8)
        if state.to_move() is not None:
            for step in state.legal_actions():
                flags[self.action_of(state, step)] = 1
        return flags

    # -- situations: the batch answer engine's input (core.answers) --------------------------------------
    def situation_spec(self) -> dict[str, ArraySpec]:
        """The arrays a situation is given as: the observation's, and whatever else pins the moment down
        (a family adds keys where its observation leaves some of it out)."""
        return self.observation_spec()

    @cached_property
    def _situation_shapes(self) -> dict[str, tuple[int, ...]]:
        """``situation_spec``'s keys and shapes, made once: a family builds its spec anew at each call, which
        was a tenth of a push-your-luck game's single piece of advice."""
        return {k: v.shape for k, v in self.situation_spec().items()}

    def situation(self, state: S) -> dict[str, np.ndarray]:
        """One state as the player on turn (or, at the end, seat 0) sees it, in ``situation_spec``'s arrays."""
        seat = state.player
        return self.observe(state, 0 if seat is None else seat)

    def situations(self, states: Sequence[S]) -> dict[str, np.ndarray]:
        """Many states stacked: each array gets a leading dimension, one row per state."""
        rows = [self.situation(s) for s in states]
        shapes = self._situation_shapes
        if not rows:
            return {k: np.zeros((0, *shape), dtype=np.int64) for k, shape in shapes.items()}
        if len(rows) == 1:  # one piece of advice: its own fresh arrays as views (np.stack copies, 5 µs an array)
            return {k: rows[0][k][np.newaxis] for k in shapes}
        return {k: np.stack([r[k] for r in rows]) for k in shapes}

    def parse_situations(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """Position texts as situations (InputError naming the first that is not a position of the game)."""
        states: list[S] = []
        for i, text in enumerate(texts):
            try:
                states.append(cast(S, self.game.parse_state(text)))
            except InputError as exc:
                raise InputError(f"position {i} ({str(text)[:60]!r}): {exc}") from None
        return self.situations(states)

    def as_situations(self, observations: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """A batch of observations (as the vectorised environments give them, at decisions) as situations:
        the arrays a situation adds are zero (nothing held or picked: the moment the player decides)."""
        n = next(iter(observations.values())).shape[0]
        return {k: observations[k] if k in observations else np.zeros((n, *shape), dtype=np.int64)
                for k, shape in self._situation_shapes.items()}

    def is_legal(self, state: S, action: int) -> bool:
        """The mask's flag of one action: here, whether some legal step is it, looked for up to the first
        (the whole mask, made to check one action, was a third of a Despirala game's time played through
        the protocol). A family whose ``mask`` flags more says the same here."""
        return state.to_move() is not None and any(self.action_of(state, step) == action
                                                   for step in state.legal_actions())

    def check_action(self, state: S, action: int) -> None:
        if not 0 <= int(action) < self.n_actions:
            raise InputError(f"action {action} is not one of 0..{self.n_actions - 1}")
        if not self.is_legal(state, int(action)):
            raise InputError(f"action {action} ({self.action_labels()[int(action)]}) is not legal now")


class Batch(ABC):
    """Many one-player games of one game stepped at once (a family's vectorised environment): the
    encoding's observations stacked, one action per game per step, and a finished game started again at
    the next step (its action then ignored)."""

    encoding: Encoding
    num_envs: int

    @abstractmethod
    def reset(self, seed: int | None = None) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        """Every game started afresh: (observations, info)."""

    @abstractmethod
    def step(self, actions: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                                 dict[str, np.ndarray]]:
        """(observations, rewards, terminated, info); InputError for an illegal action. The arrays are new
        at every step: callers keep them (``label``'s writer holds a chunk while the next is stepped)."""
