"""A solved game: the base class every family's solutions share.

A family answers two questions (``value`` of a state, ``action_values`` at a decision) and describes
its table (``info``); advice and review come from here, written once over the protocol.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from .protocol import UNIT_WORDS, Game, State, Step, Unit
from .results import Advice, Review, SolveInfo

if TYPE_CHECKING:
    from .playthrough import Playthrough

G = TypeVar("G", bound=Game)
S = TypeVar("S", bound=State)


class SolvedGame(ABC, Generic[G, S]):
    """What a solved (or modelled) game answers, for any state of it (``S``, a state of a ``G``)."""

    game: G
    unit: Unit = "points"
    higher_is_better: bool = True
    tie: float = 1e-9  # values closer than this are equal (the table's precision)
    exact: bool = True  # False for a model (the values are not those of optimal play by everyone)

    def __init__(self, game: G, info: SolveInfo):
        self.game = game
        self.info = info  # how the table was obtained

    @abstractmethod
    def state_value(self, state: S, seat: int | None = None) -> float:
        """The family's answer behind ``value`` (a state, never its text)."""

    @abstractmethod
    def action_values(self, state: S) -> list[tuple[Step, float]]:
        """The value of every legal action at a decision, for the player deciding."""

    def state(self, position: S | str) -> S:
        """A state of this game from a state or its text."""
        return cast(S, self.game.parse_state(position)) if isinstance(position, str) else position

    def value(self, position: S | str, seat: int | None = None) -> float:
        """The value of a position for ``seat`` (default: the player on turn) with best play from here.

        Every solution values the player on turn; other seats where its model can (InputError else)."""
        return self.state_value(self.state(position), seat)

    @property
    def root_value(self) -> float:
        """The value of the start of the game for the first player."""
        return self.info.value

    def details(self, state: S) -> dict[str, Any]:
        """Family facts about a position, shown with the advice (none by default)."""
        return {}

    def notes(self, state: S) -> list[str]:
        """Remarks on a position in words, shown with the advice (none by default)."""
        return []

    def headline(self) -> str:
        """The solved game in a few words: the value of the start for the first player."""
        return f"{self.unit_words} of the start with best play: {self.root_value:.6f}"

    @property
    def unit_words(self) -> str:
        """What the values are, in words (for titles)."""
        return UNIT_WORDS[self.unit]

    @property
    def sign(self) -> float:
        """+1 where higher values are better, -1 where lower are."""
        return 1.0 if self.higher_is_better else -1.0

    def advise(self, position: S | str) -> Advice:
        from .advice import advise

        return advise(self, self.state(position))

    def review(self, playthrough: "Playthrough", player: int = 0) -> Review:
        """Judge one player's game: ``player`` indexes the record's players."""
        from .review import review

        return review(self, playthrough, player)
