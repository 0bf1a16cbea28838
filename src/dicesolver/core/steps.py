"""Steps that several families share: the decision to throw, and the dice a throw shows (push-your-luck
games and Farkle; a scorecard game's roll carries its kept dice, and Despirala's its own moves)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class Throw:
    """The decision to throw (again)."""

    kind: ClassVar[str] = "throw"
    label: ClassVar[str] = "throw"

    def __str__(self) -> str:
        return "throw"


@dataclass(frozen=True)
class DiceRoll:
    """The dice a throw shows (sorted), written as their faces: ``34``."""

    dice: tuple[int, ...]
    kind: ClassVar[str] = "roll"

    @property
    def label(self) -> str:
        return "".join(str(d) for d in self.dice)

    def __str__(self) -> str:
        return self.label
