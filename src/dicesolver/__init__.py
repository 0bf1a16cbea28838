"""dicesolver: optimal strategies for dice games.

The Python API mirrors the command line::

    >>> import dicesolver as ds
    >>> game = ds.load_game("yacht-dice")
    >>> round(ds.solve(game).root_value, 6)          # `dicesolver solve yacht-dice`
    191.774369
    >>> ds.advise(game, "/13456/2").best.option      # `dicesolver advise yacht-dice /13456/2`
    '3456'
    >>> [round(r.p_max, 4) for r in ds.one_turn_odds(game)][-1]   # `dicesolver odds yacht-dice`
    0.046
    >>> round(ds.solve("skunk").win(0, 87), 7)       # push-your-luck: P(win) for the player to move
    0.0661453
"""

from __future__ import annotations

from .core.errors import DicesolverError, GameDefinitionError, InputError, TableError
from .pushluck.rules import PushGame
from .registry import load_any_game, load_game
from .scorecard.position import Position, format_position, parse_position, start_position
from .scorecard.rules import ScorecardGame

__version__ = "0.1.0"

__all__ = [
    "DicesolverError", "GameDefinitionError", "InputError", "TableError", "ScorecardGame", "Position",
    "load_game", "load_any_game", "PushGame", "parse_position", "format_position", "start_position", "solve", "advise", "one_turn_odds",
    "TurnState",
]


def solve(game: str | ScorecardGame | PushGame, rebuild: bool = False):
    """The solved table of a game, from the cache or solved now: a ``SolitaireSolution`` (expected
    score) for scorecard games, a ``PushSolution`` (probability of winning) for pig, skunk, big-pig."""
    g = load_any_game(game)
    if isinstance(g, PushGame):
        from .pushluck.solver import load_or_solve as load_push

        return load_push(g, rebuild=rebuild)[0]
    from .scorecard.solitaire import load_or_solve

    return load_or_solve(g, rebuild=rebuild)[0]


def advise(game: str | ScorecardGame, position: str | Position):
    """Every option at a position, ranked by expected final score (an ``Advice``)."""
    from .scorecard.advice import advise as _advise

    g = load_game(game)
    pos = parse_position(g, position) if isinstance(position, str) else position
    return _advise(solve(g), pos)


def one_turn_odds(game: str | ScorecardGame, exact: bool = False):
    """Seed 002's one-turn table: expected points and P(maximum) per category."""
    from .scorecard.odds import one_turn_odds as _odds

    return _odds(load_game(game), exact=exact)


def __getattr__(name: str):
    if name == "TurnState":
        from .scorecard.solitaire import TurnState

        return TurnState
    raise AttributeError(name)
