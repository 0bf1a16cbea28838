"""One registry: every game string finds its family, and through it its rules, solutions, players and
records.

A game string is ``NAME`` or ``NAME(key=value,...)``: a built-in game (``dicesolver games``) or the path of
a rules file (``./mygame.toml``). The families are listed once, in ``FAMILY_MODULES``, and imported when
first asked for: core code never imports a family, and a new family is one module name here (its package
provides ``FAMILY``, a ``core.family.Family``).
"""

from __future__ import annotations

import importlib
import os
import time
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

from . import records
from .aims import FinalScoreGoal, Goal, Mean, RiskAppetite, check_theta, parse_goal
from .distributed import Cluster
from .errors import GameDefinitionError, InputError
from .family import Family, Progress
from .gamestring import parse_game_string
from .jsonl import read_lines
from .playthrough import Playthrough
from .protocol import Game, State
from .solved import SolvedGame

FAMILY_MODULES = ("dicesolver.scorecard.family", "dicesolver.pushluck.family", "dicesolver.despirala.family",
                  "dicesolver.farkle.family")
MAX_RECORD_BYTES = 5 * 2**20


@lru_cache(maxsize=None)
def _family(module: str) -> Family:
    return importlib.import_module(module).FAMILY


def _each_family() -> Iterator[Family]:
    """The families in order, each imported only when reached (a command about one game loads one family)."""
    return (_family(name) for name in FAMILY_MODULES)


def families() -> tuple[Family, ...]:
    return tuple(_each_family())


def family_of(game: Game) -> Family:
    return next(f for f in _each_family() if f.name == game.family)


def game_names() -> list[str]:
    return [name for f in families() for name in f.names()]


def load(spec: str | Game, players: int | None = None) -> Game:
    """A game from its game string (any family), for ``players`` players (its usual number by default).

    Built-in games are kept once loaded (a game string is resolved once a process, not at every call of
    ``ds.advise``: two directory listings and a scan of the presets); a rules file is read each time, as it
    may change."""
    if not isinstance(spec, str):
        game = spec
    else:
        game = _LOADED.get(spec)  # type: ignore[assignment]
        if game is None:
            base, choices = parse_game_string(spec)
            owner = next((f for f in _each_family() if f.owns(base)), None)
            if owner is None:
                raise GameDefinitionError(f"unknown game {base.strip()!r} (games: {', '.join(game_names())}; "
                                          "or a path to a .toml rules file)")
            game = owner.load(base, choices)
            if not _names_a_file(base) and len(_LOADED) < MAX_LOADED:
                _LOADED[spec] = game
    return game if players is None else game.with_players(players)


_LOADED: dict[str, Game] = {}  # built-in games by the game string they were asked by
MAX_LOADED = 1024


def _names_a_file(base: str) -> bool:
    return base.strip().lower().endswith(".toml") or "/" in base or "\\" in base


def parse_state(spec: str | Game, position: str) -> State:
    """A position of a game; how many players play follows from the position's text."""
    return load(spec).parse_state(position)


def solve(spec: str | Game, players: int | None = None, judge: str | None = None, progress: Progress | None = None,
          rebuild: bool = False, on_problem: Callable[[str], None] | None = None, cluster: Cluster | None = None,
          theta: float | None = None, goal: Goal | str | None = None) -> SolvedGame:
    """A game's solution (cached tables are loaded; missing ones are solved and cached), or the solution that
    plays for a ``goal`` (``core.aims``: a risk appetite, a target, a score to beat, a blind field; ``theta``
    is the risk appetite's shorthand). A solution once loaded is kept for the process, as long as its table
    on disk is the same (answers are then lookups, not loads)."""
    game = load(spec, players)
    if theta is not None and goal is not None:
        raise InputError("theta is a goal (a risk appetite): give theta or a goal, not both")
    aim = parse_goal(goal) if isinstance(goal, str) else goal
    if theta is not None:
        theta = check_theta(theta)
        aim = RiskAppetite(theta) if theta else Mean()
    if aim is not None and not isinstance(aim, Mean):
        if judge is not None or cluster is not None:
            raise InputError(f"a goal ({aim.text()}) is its own judge: give it without a judge or a cluster")
    else:
        aim = None
    key = (game.family, game.canonical, game.n_players, judge, aim)
    if not rebuild and cluster is None:
        kept = _SOLVED.get(key)
        if kept is not None:
            solution, stamp, checked = kept
            now = time.monotonic()
            if now - checked < RECHECK_SECONDS:
                return solution
            if _stamp(solution) == stamp:
                _SOLVED[key] = (solution, stamp, now)
                return solution
    family = family_of(game)
    if isinstance(aim, RiskAppetite):
        solution = family.risk_solution(game, aim.theta, progress)
    elif isinstance(aim, FinalScoreGoal):
        solution = family.goal_solution(game, aim, progress)
    else:
        solution = family.solve(game, judge=judge, progress=progress, rebuild=rebuild, on_problem=on_problem,
                                cluster=cluster)
    if solution.info.solved_now:  # a new table: a default judge may now be another one
        for old in [k for k in _SOLVED if k[1] == game.canonical]:
            _SOLVED.pop(old, None)
    if len(_SOLVED) >= MAX_SOLVED:  # goals are many (every target, every field): keep the newest
        _SOLVED.pop(next(iter(_SOLVED)))
    _SOLVED[key] = (solution, _stamp(solution), time.monotonic())
    return solution


MAX_SOLVED = 64
_SOLVED: dict[tuple, tuple[SolvedGame, int | None, float]] = {}  # solution, its table's stamp, when checked
RECHECK_SECONDS = 1.0  # a table rebuilt by another process is seen within a second (a stat a call was 3 µs)


def _stamp(solution: SolvedGame) -> int | None:
    """When the solution's table was written (None: in memory only)."""
    if not solution.info.table_dir:
        return None
    try:
        return os.stat(os.path.join(solution.info.table_dir, "manifest.json")).st_mtime_ns
    except OSError:
        return -1


def solution_for(state: State, progress: Progress | None = None) -> SolvedGame:
    """The cheapest solution that values a position (a two-player endgame is solved as a sub-game), else
    the game's own (kept for the process, as ``solve`` keeps it)."""
    return family_of(state.game).quick_solution(state) or solve(state.game, progress=progress)


def record_game(path: str | Path, lines: list[tuple[int, Any]] | None = None) -> str:
    """The game string a record's header names, read as ``read_record`` reads it (its first line that is not
    blank): what a server checks before it loads the game, with nothing read twice another way."""
    path = Path(path)
    number, header = (lines if lines is not None else read_lines(path, MAX_RECORD_BYTES))[0]
    game = header.get("game") if isinstance(header, dict) else None
    if isinstance(header, dict) and "game" in header and not (isinstance(game, str) and game.strip()):
        raise InputError(f"{path}, line {number}: a record names its game as a game string, such as \"yahtzee\"")
    if not isinstance(header, dict) or header.get("type") != "game" or not isinstance(game, str):
        raise InputError(f"{path}, line {number}: the first line must be the game header")
    return game


def read_record(path: str | Path, warnings: list[str] | None = None) -> Playthrough:
    """A game record of any game, checked against its rules."""
    path = Path(path)
    lines = read_lines(path, MAX_RECORD_BYTES, warnings)
    header = lines[0][1]
    game = load(record_game(path, lines))
    if header.get("format") == records.STEP_FORMAT:
        return records.read(path, lines, game)
    return family_of(game).read_record(path, lines, game)  # format 1: each family's own events
