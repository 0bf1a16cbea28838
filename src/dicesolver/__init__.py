"""dicesolver: optimal strategies for dice games.

Every game speaks one protocol (``dicesolver.core.protocol``): load it by its game string, solve it, ask
for the value of any position, advice on it, or a review of a recorded game. The Python API mirrors the
command line::

    >>> import dicesolver as ds
    >>> round(ds.solve("yacht-dice").root_value, 6)       # `dicesolver solve yacht-dice`
    191.774369
    >>> ds.advise("yacht-dice", "/13456/2").best.action   # `dicesolver advise yacht-dice /13456/2`
    'keep 3456'
    >>> round(ds.solve("skunk").value("0,87"), 7)         # push-your-luck: P(win) for the player to move
    0.0661453
    >>> round(ds.solve("despirala").root_value, 3)        # Despirala: expected final score
    443.616
    >>> late = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,escalera=20,full=30,poker=40"
    >>> ds.advise("generala", f"{late};{late.replace('sixes=18', 'sixes=24')}/66666/2").best.action
    'score generala'
    >>> [round(r.p_max, 4) for r in ds.one_turn_odds("yacht-dice")][-1]   # `dicesolver odds yacht-dice`
    0.046
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from .core.errors import DicesolverError, GameDefinitionError, InputError, TableError

if TYPE_CHECKING:
    from .core.answers import Answers
    from .core.protocol import Game, Solution, State, Step
    from .core.family import GameRow
    from .core.results import Advice, Explanation, OddsRow, Review, SolveInfo
    from .core.aims import AtLeast, Beat, Field, Goal, Mean, RiskAppetite, read_field_scores
    from .core.solved import SolvedGame

__version__ = "0.1.0"

# The protocol's and the results' classes are imported on first use: `import dicesolver` (and so every
# command, `dicesolver --help` included) does not wait for numpy and pydantic until it needs them.
_LAZY = {"Game": "core.protocol", "Solution": "core.protocol", "State": "core.protocol", "Step": "core.protocol",
         "Advice": "core.results", "Explanation": "core.results", "Review": "core.results", "SolveInfo": "core.results", "Answers": "core.answers",
         "SolvedGame": "core.solved", "Goal": "core.aims", "Mean": "core.aims", "RiskAppetite": "core.aims",
         "AtLeast": "core.aims", "Beat": "core.aims", "Field": "core.aims", "read_field_scores": "core.aims"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'dicesolver' has no attribute {name!r}")

__all__ = [
    "DicesolverError", "GameDefinitionError", "InputError", "TableError", "Game", "State", "Step", "Solution",
    "SolvedGame", "Advice", "Explanation", "Review", "SolveInfo", "Answers", "load_game", "parse_state", "solve",
    "advise", "explain", "Goal", "Mean", "RiskAppetite", "AtLeast", "Beat", "Field", "read_field_scores",
    "advise_many", "review",
    "one_turn_odds", "games",
]


def games() -> list[GameRow]:
    """Every built-in game with its family's facts (dice, variants, goal, players)."""
    from .core import registry

    return [row for family in registry.families() for row in family.catalog()]


def load_game(spec: str | Game, players: int | None = None) -> Game:
    """A game by its game string (``yahtzee(joker=free)``, ``skunk(goal=50)``, ``./mygame.toml``)."""
    from .core import registry

    return registry.load(spec, players)


def parse_state(spec: str | Game, position: str) -> State:
    """A position of a game from its text (how many play follows from the text)."""
    from .core import registry

    return registry.parse_state(spec, position)


def solve(spec: str | Game, players: int | None = None, judge: str | None = None, rebuild: bool = False,
          progress: Callable[[int, int], None] | None = None, theta: float | None = None,
          goal: Goal | str | None = None) -> SolvedGame:
    """A game's solution, from the cache or solved now: ``value(position)``, ``advise(position)``,
    ``review(record)``, ``info``. ``judge`` picks one where a game has several (``exact``, ``mindful``,
    ``points``: see ``dicesolver analyze --help``). ``goal`` plays for something other than the mean final
    score: ``"theta:0.02"`` (a risk appetite, also ``theta=0.02``: the certainty equivalent
    ln E[exp(theta X)] / theta of the final score X, theta > 0 seeking risk, < 0 avoiding it),
    ``"target:300"``, ``"beat:250"``, ``"field:10"`` (the chance of the top score in a blind tournament of 10
    against players who play for the mean), or a goal object (``ds.Field(10, ...)``, ``ds.AtLeast(300)``...)."""
    from .core import registry

    return registry.solve(spec, players=players, judge=judge, progress=progress, rebuild=rebuild, theta=theta,
                          goal=goal)


def advise(spec: str | Game, position: str | State, theta: float | None = None,
           goal: Goal | str | None = None) -> Advice:
    """Every option at a position, ranked, with its value and its cost against the best (``theta`` or
    ``goal``: by what that goal values, as ``solve`` says)."""
    from .core import registry

    state = registry.parse_state(spec, position) if isinstance(position, str) else position
    if theta is not None or goal is not None:
        return registry.solve(state.game, theta=theta, goal=goal).advise(state)
    return registry.solution_for(state).advise(state)


def explain(spec: str | Game, position: str | State, versus: str | None = None,
            progress: Callable[[int, int], None] | None = None) -> Explanation:
    """Why each option at a position is worth what it is: its value split by aspect (each box, the upper bonus,
    the extra bonuses; Despirala's combinations and goods), its standard deviation, and the best option set
    against ``versus`` (an option's text; the second best by default) aspect by aspect. Scorecard games and
    Despirala by their expected scores (the table it reads is built once, ``progress`` reporting on it, and
    cached), races by their chances of winning."""
    from .core import registry

    state = registry.parse_state(spec, position) if isinstance(position, str) else position
    return registry.solution_for(state).explain(state, versus, progress)


def advise_many(spec: str | Game, positions: Sequence[str | State] | Mapping[str, Any], players: int | None = None,
                judge: str | None = None, parallel: bool | None = None) -> Answers:
    """Every legal option of many positions at once, as arrays: ``positions`` are position texts or states
    (how many play follows from the first), or situations (the arrays of the game's encoding, see
    docs/SCHEMA.md; ``players`` says how many play, by default the game's usual number). Returns ``Answers``:
    ``codes``, ``values``, ``costs`` (n x width, padded with -1 and NaN), ``counts`` and ``value`` (n), and
    the ``judge`` that answered (``judge`` picks one where a game has several, as ``solve`` does)."""
    from .core import registry

    if isinstance(positions, Mapping):
        solution = registry.solve(spec, players=players, judge=judge)
        return solution.answer(positions, parallel)
    items = list(positions)
    if not items:
        raise InputError("no positions given")
    first = registry.parse_state(spec, items[0]) if isinstance(items[0], str) else items[0]
    solution = registry.solve(first.game, judge=judge)
    texts = [p for p in items if isinstance(p, str)]
    if len(texts) == len(items):
        return solution.answer(solution.encoding.parse_situations(texts), parallel)
    states = [solution.game.parse_state(p) if isinstance(p, str) else p for p in items]
    return solution.answers(states, parallel)


def review(record: str | Path, player: int = 0, judge: str | None = None, theta: float | None = None) -> Review:
    """Each decision's loss and each throw's luck in a recorded game (``player`` indexes its players); with a
    risk appetite ``theta``, in that certainty equivalent (as ``solve`` says)."""
    from .core import registry

    playthrough = registry.read_record(record)
    return registry.solve(playthrough.game, judge=judge, theta=theta).review(playthrough, player)


def one_turn_odds(spec: str | Game, exact: bool = False) -> list[OddsRow]:
    """The Yacht Dice notebook's one-turn table of a scorecard game: expected points and P(maximum) per category."""
    from .core import registry

    game = registry.load(spec)
    return registry.family_of(game).odds(game, exact=exact)
