"""The game protocol: every family answers the same questions about its games and positions.

Modelled on OpenSpiel's one ``State`` API (decisions, explicit chance nodes listing their outcomes with
probabilities, returns at the end) and on python-chess's value types (immutable states whose text is
the position language, so that ``game.parse_state(str(state)) == state``).

* A ``Game`` is one game string's rules played by a number of players (``with_players``). Seats are
  numbered in turn order from the first mover: seat 0 moves first.
* A ``State`` is a moment of the game. At a *decision* the player on turn picks one of
  ``legal_actions()``; at a *chance node* (a throw of the dice) the game picks one of
  ``chance_outcomes()`` with its probability; ``apply`` gives the next state either way. At the end,
  ``returns()`` gives every seat's result in the game's unit.
* A ``Step`` is an action or an outcome: a hashable value whose ``str`` is its text form (``keep 1345``,
  ``score fives``, ``hold``, ``Collect 3``, a throw ``11345``), read back by ``State.parse_step``.
* A ``Solution`` values states for the player on turn (``value``) and every legal action at a
  decision (``action_values``), in a ``unit`` (points, equity or probability of winning).
  ``SolvedGame`` (``core.solved``) adds advice and review on top of those two questions.
"""

from __future__ import annotations

from typing import Hashable, Literal, Protocol, Sequence, runtime_checkable

Unit = Literal["points", "ce", "equity", "p_win", "p_target"]

UNIT_WORDS: dict[str, str] = {
    "points": "expected final score",
    "ce": "certainty equivalent of the final score (points)",
    "equity": "equity (+1 win, 0 draw, -1 loss)",
    "p_win": "probability of winning",
    "p_target": "probability of reaching the target",
}

JUDGE_WORDS: dict[str, str] = {  # what answers, by the judge names of answers' `judge`
    "exact": "the exact table",
    "points": "the expected-score table",
    "mindful": "the Mindful Maximus model",
    "target": "the target table",
    "risk": "the certainty-equivalent table of a risk appetite",
}


@runtime_checkable
class Step(Protocol):
    """An action (a player's choice) or an outcome (of a throw)."""

    @property
    def kind(self) -> str:
        """What sort of step: "keep", "score", "throw", "hold", "pick", "roll", "completion", ..."""
        ...

    @property
    def label(self) -> str:
        """A short name for tables ("3456" for ``keep 3456``, "fives" for ``score fives``)."""
        ...

    def __str__(self) -> str: ...

    def __hash__(self) -> int: ...


@runtime_checkable
class Game(Protocol):
    """A game's rules for a number of players."""

    @property
    def family(self) -> str:
        """The family that implements it: "scorecard", "pushluck", "despirala"."""
        ...

    @property
    def canonical(self) -> str:
        """The canonical game string (variants sorted, defaults left out)."""
        ...

    @property
    def title(self) -> str: ...

    @property
    def n_players(self) -> int: ...

    def describe(self) -> list[str]:
        """The rules in words, one line each."""
        ...

    def with_players(self, n: int) -> "Game":
        """The same rules for ``n`` players (InputError when the game is not played by that many)."""
        ...

    def start(self) -> "State":
        """The state before the first throw of the game."""
        ...

    def parse_state(self, text: str) -> "State":
        """A state from its text form (InputError naming what is wrong when it cannot be)."""
        ...


@runtime_checkable
class State(Protocol):
    """An immutable, hashable moment of a game; ``str(state)`` is its position text."""

    @property
    def game(self) -> Game: ...

    @property
    def player(self) -> int | None:
        """The seat whose turn it is, at its decisions and at the throws of its turn; None at the end."""
        ...

    def to_move(self) -> int | None:
        """The seat that decides now; None at chance nodes and at the end."""
        ...

    def is_chance(self) -> bool: ...

    def is_terminal(self) -> bool: ...

    def legal_actions(self) -> Sequence[Step]:
        """Every legal action at a decision, in a fixed order (empty elsewhere)."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[Step, float]]:
        """Every outcome of the throw due at a chance node with its probability (they sum to 1)."""
        ...

    def apply(self, step: Step) -> "State":
        """The state after an action or an outcome (InputError when it is not legal here)."""
        ...

    def returns(self) -> tuple[float, ...]:
        """Every seat's result at the end, in the game's unit (InputError before the end)."""
        ...

    def parse_step(self, text: str) -> Step:
        """An action (at a decision) or an outcome (at a chance node) from its text form."""
        ...

    def brief(self) -> str:
        """A few words for tables: what shows and what is left (``12266, 2 throws left``)."""
        ...

    def turn_key(self) -> Hashable:
        """A value that changes exactly when a new turn begins (the player on turn and their progress)."""
        ...


def seat_on_turn(state: State) -> int:
    """The seat whose turn it is (InputError at the end of the game, where nobody's is)."""
    seat = state.player
    if seat is None:
        from .errors import InputError

        raise InputError("the game is over")
    return seat


@runtime_checkable
class Solution(Protocol):
    """What a solved (or modelled) game answers about any state of it."""

    @property
    def game(self) -> Game: ...

    @property
    def unit(self) -> Unit: ...

    @property
    def higher_is_better(self) -> bool: ...

    def value(self, state: State) -> float:
        """The value of a state for its player on turn with best play from here (at the end: for seat 0)."""
        ...

    def action_values(self, state: State) -> list[tuple[Step, float]]:
        """The value of every legal action at a decision, for the player deciding."""
        ...
