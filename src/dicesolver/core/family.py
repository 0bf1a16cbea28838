"""What a family of games offers the front ends, behind one interface: its games by name, their solutions,
its players (bots), its records, and the capabilities only some families have (exact comparison of two
strategies, matches, simulation, charts). A front end asks the registry for a game's family and calls
these; a capability a family lacks answers with one clear ``InputError``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Generic, NotRequired, Protocol, Sequence, TypedDict, TypeVar, runtime_checkable

import numpy as np

from .aims import AtLeast, Beat, FinalScoreGoal, Goal, Percentile
from .counts import ScoreCounts
from .distributed import Cluster
from .encoding import Batch, Encoding
from .errors import InputError
from .numbers import duration_text, size_text
from .playthrough import Playthrough
from .protocol import Game, State, Step
from .scene import Scene, scene_of
from .results import Board, ChartRow, Comparison, Distribution, OddsRow, StrategyFacts, TargetCurve
from .solved import Progress, SolvedGame


def tell_stage(progress: Progress | None, what: str) -> None:
    """Say what the work reporting to ``progress`` does from now on, where the front end shows it (its
    callback has a ``stage`` method: the command line's bar and lines)."""
    stage = getattr(progress, "stage", None)
    if stage is not None:
        stage(what)
G = TypeVar("G", bound=Game)
S = TypeVar("S", bound=State)
S_contra = TypeVar("S_contra", bound=State, contravariant=True)


@dataclass(frozen=True)
class Variant:
    """One rule a game string may set, ``NAME(key=value)``: one of named ``values``, or (with none) a whole
    number from ``low`` to ``high`` in steps of ``step``. ``default`` is the base game's."""

    key: str
    help: str
    default: str
    values: tuple[str, ...] = ()
    low: int = 0
    high: int = 0
    step: int = 1


@dataclass(frozen=True)
class TableSize:
    """A table's size and the time to build it, estimated from the rules (rates measured on the 2-core
    reference machine: BENCHMARKS.md)."""

    bytes: int
    seconds: float | None = None

    def describe(self) -> str:
        took = "" if self.seconds is None else (", under a second to build" if self.seconds < 1 else
                                                f", about {duration_text(self.seconds)} to build on 2 cores")
        return f"about {size_text(self.bytes)}{took}"


@dataclass
class Simulated:
    """One strategy's simulated games, as a family's engine plays them."""

    player: str
    scores: ScoreCounts  # how many games ended on each final score
    facts: dict[str, Any] = field(default_factory=dict)  # SimulationSummary fields the family knows
    details: dict[str, Any] = field(default_factory=dict)  # counts for figures (each box's points, ...)
    seconds: float = 0.0


@dataclass
class MatchGames:
    """Many games between bots: each deal of dice played in ``rotations`` seating orders."""

    labels: list[str]
    totals: np.ndarray  # [game, player] final scores
    results: np.ndarray  # [game, player] results: win n - 1, k tied leaders (n - k) / k, loss -1
    seats: np.ndarray  # [game, player] the player's seat (0 moves first)
    rotations: int
    seconds: float
    higher_is_better: bool = True


@runtime_checkable
class Player(Protocol[S_contra]):
    """A bot: picks an action at a decision of the seat it plays."""

    @property
    def name(self) -> str: ...

    def choose(self, state: S_contra, rng: np.random.Generator) -> Step: ...


CAPABILITIES = {  # what only some families do, and the one line for a game whose family does not
    "batch": "{game} has no vectorised environment in the kernels",
    "compare": "{game} has no exact comparison of strategies",
    "strategy_facts": "strategy facts come from an exact two-person scorecard table (generala, yacht, crag), "
                      "not from {game}",
    "target": "target scores are solved for solitaire scorecard games and Despirala, not for {game}",
    "risk": "a risk appetite (theta) is solved for scorecard games and Despirala, not for {game} yet",
    "goals": "goals on the final score beyond a target (a blind field) are solved for solitaire scorecard games, "
             "not for {game} yet",
    "match": "{game} has no matches between bots",
    "odds": "one-turn odds are for scorecard games and Farkle, not for {title} ({game})",
    "distribution": "the exact score distribution is for scorecard games, not for {title} ({game})",
    "chart": "the strategy chart is for push-your-luck games and Farkle, not {game}",
    "simulate": "{game} has no simulation (try match)",
}


class GameRow(TypedDict):
    """A built-in game as ``dicesolver.games()`` and ``dicesolver games`` list it: what every family says, and
    what some do (a scorecard's rolls, boxes and variants; a race's goal and parameters)."""

    name: str
    title: str
    family: str
    dice: int
    faces: int
    players: str  # "1-6", "2"
    rolls: NotRequired[int]
    categories: NotRequired[int]
    variants: NotRequired[dict[str, dict[str, Any]]]  # each variant's values, default and help
    goal: NotRequired[int]
    parameters: NotRequired[str]  # the game string's parameters in words ("goal=N, faces=N")
    test_spec: NotRequired[str]  # a small stand-in the conformance test solves in seconds


class Family(ABC, Generic[G, S]):
    """A family of games: ``G`` its games, ``S`` their states. What only some families do is declared in
    ``capabilities`` (keys of ``CAPABILITIES``): a family implements those methods, and the others answer
    the capability's one line."""

    name: str  # "scorecard", "pushluck", "despirala", "farkle"
    title: str  # a few words for lists
    human_like: tuple[str, ...] = ()  # bots that play as people do: the trainer asks what they met
    # (bot, level) from strong to weak: the bots that place the rating scale (``core.rating``)
    rating_bots: tuple[tuple[str, str], ...] = ()
    capabilities: frozenset[str] = frozenset()

    # -- games ---------------------------------------------------------------------------------------
    @abstractmethod
    def names(self) -> list[str]:
        """The built-in games' names."""

    def featured(self) -> list[str]:
        """The game strings pages offer in their lists (the games, and variants worth a line of their own)."""
        return self.names()

    def owns(self, base: str) -> bool:
        """Whether a game string's name (before any variants) is one of this family's games."""
        return base.strip().lower() in self.names()

    @abstractmethod
    def load(self, base: str, choices: dict[str, str]) -> G:
        """The game named ``base`` with these variant choices (GameDefinitionError when it cannot be)."""

    def variants(self, base: str) -> list[Variant]:
        """The rules a game string may set on the built-in game ``base`` (what a variant picker offers)."""
        return []

    @abstractmethod
    def catalog(self) -> list[GameRow]:
        """One row per built-in game: name, title, dice, and the family's facts (variants, goal, ...)."""

    @abstractmethod
    def facts(self, game: G) -> dict[str, Any]:
        """A game's facts for pages and lists: players, dice, faces, and the family's own (boxes, goal...)."""

    def page(self, game: G) -> dict[str, Any]:
        """What the web pages offer for a game: ``quick`` (the Play page's buttons, each a line typed at the
        prompt), ``max_opponents``, ``explore`` (figures: title and image path under /api/explore),
        and ``start_position`` (solved first, so that the page shows the solve's progress). Whether it
        offers the one-turn odds is the ``odds`` capability."""
        return {"quick": ["hint"], "max_opponents": 5, "explore": [], "start_position": str(game.start())}

    # -- solutions -----------------------------------------------------------------------------------
    def judges(self, game: G) -> dict[str, str]:
        """The solutions a game can be judged by, the default first: name -> what it measures."""
        return {"exact": "the exact solution"}

    @abstractmethod
    def solve(self, game: G, judge: str | None = None, progress: Progress | None = None, rebuild: bool = False,
              on_problem: Callable[[str], None] | None = None, cluster: Cluster | None = None) -> SolvedGame:
        """The solution of a game (loaded from the cache, or solved now and cached); ``cluster``: solve on
        dask.distributed where the family can (InputError where it cannot)."""

    def table_size(self, game: G, player: str | None = None) -> TableSize | None:
        """About how big the table its default solve writes is, and how long it takes (``player``: the one
        that bot reads), from the rules alone (None: small, or not known): the web server says so before it
        builds one, and refuses one beyond ``serve --max-table-gb``."""
        return None

    def goal_size(self, game: G, goal: Goal) -> TableSize | None:
        """As ``table_size``, for the tables of a goal (``core.aims``: a risk appetite, a target, a field)."""
        return None

    def quick_solution(self, state: S) -> SolvedGame | None:
        """A solution that values ``state`` at once (a table on disk, a small sub-game), if there is one."""
        return None

    # -- players -------------------------------------------------------------------------------------
    @abstractmethod
    def players(self, game: G) -> dict[str, str]:
        """The bots of a game: name -> how it plays."""

    @abstractmethod
    def player(self, game: G, name: str, seed: int = 0, progress: Progress | None = None) -> Player[S]:
        """A bot by name (InputError naming the choices for an unknown one); ``progress`` follows the first
        build of the tables it plays from."""

    def check_player(self, game: G, name: str) -> None:
        """InputError naming the choices when ``name`` is not one of the game's bots (a family whose bots
        take long to build checks the name alone)."""
        self.player(game, name)

    def default_opponents(self, game: G) -> list[str]:
        """The bots you play when you name none (nobody, in games you can play alone)."""
        return []

    def bot_notes(self, game: G, names: Sequence[str]) -> list[str]:
        """What the players at the table should know about how a bot plays with this many players."""
        return []

    # -- records and the table -----------------------------------------------------------------------
    @abstractmethod
    def read_record(self, path: Path, lines: list[tuple[int, Any]], game: G) -> Playthrough:
        """A record of format 1, the family's own events (its lines, header first), as a playthrough
        (InputError naming the bad line). Records are written in format 2, one step a line, and read by
        ``core.records``: this reads the games saved before."""

    @abstractmethod
    def board(self, state: S, names: Sequence[str]) -> Board:
        """Everyone's sheet, as a table for the terminal and the web page."""

    @abstractmethod
    def view(self, state: S) -> dict[str, Any]:
        """What a drawn board shows of a state, as JSON for the web page's board of this family (the
        family's own fields: dice, sheets, goal...; the page knows each family's)."""

    @abstractmethod
    def totals(self, state: S) -> list[int]:
        """Every seat's points so far (the final scores at the end)."""

    @abstractmethod
    def encoding(self, game: G) -> Encoding:
        """The game's states and actions as arrays, for learning agents (``dicesolver.rl``)."""

    def has_batch(self, game: G) -> bool:
        """Whether ``batch`` steps this game's one-player games in the kernels."""
        return False

    def batch(self, game: G, num_envs: int, judge: bool = False) -> Batch:
        """Many one-player games stepped at once in the kernels (a vectorised environment)."""
        raise self.lacking("batch", game)

    def scene(self, state: S, names: Sequence[str], seat: int = 0, last: tuple[S, Step] | None = None) -> Scene:
        """What the table says at ``state``, as data the front ends render (``core.scene``): the question,
        the lines at a turn's start, the legal moves, the last words; with ``last`` (the state before, the
        step), what that step did. ``names``: every seat's; ``seat``: the person's."""
        return scene_of(state, names, seat, last)

    # -- capabilities some families have (``capabilities`` names them; the others answer ``lacking``) ---
    def can(self, capability: str) -> bool:
        """Whether the family has one of ``CAPABILITIES`` (a front end may ask before it offers it)."""
        return capability in self.capabilities

    def lacking(self, capability: str, game: G) -> InputError:
        """The one error for a capability this family does not have."""
        return InputError(CAPABILITIES[capability].format(game=game.canonical, title=self.title))

    def compare(self, game: G, a: str, b: str, progress: Progress | None = None) -> Comparison:
        """A against B exactly (two-player games)."""
        raise self.lacking("compare", game)

    def strategy_facts(self, game: G, progress: Progress | None = None) -> StrategyFacts:
        """How the exact two-player strategy plays (scores of 0, waives, departures from Maximus)."""
        raise self.lacking("strategy_facts", game)

    def target_solution(self, game: G, score: int, beat: bool = False, progress: Progress | None = None,
                        at: S | None = None) -> SolvedGame:
        """Play for a score: the best chance of at least ``score`` points of one's own (``beat``: of more
        than ``score``, exactly it counting half), at any position; given a position ``at``, a family may
        solve only the part of the game that follows it."""
        raise self.lacking("target", game)

    def goal_solution(self, game: G, goal: FinalScoreGoal, progress: Progress | None = None,
                      at: S | None = None) -> SolvedGame:
        """Play for any goal on one's own final score (``core.aims.FinalScoreGoal``: a target, a score to beat,
        a blind field): the best chance of it, from a table of needs built for its utility; given a position
        ``at``, a family may solve only the part of the game that follows it. A family that solves targets only
        answers those."""
        if isinstance(goal, (AtLeast, Beat)) and not isinstance(goal, Percentile):  # without targets: it says so
            return self.target_solution(game, goal.score, beat=isinstance(goal, Beat), progress=progress, at=at)
        raise self.lacking("goals", game)

    def risk_solution(self, game: G, theta: float, progress: Progress | None = None) -> SolvedGame:
        """Play with a risk appetite: the strategy of the best certainty equivalent ln E[exp(theta X)] / theta
        of the final score X (theta > 0 seeks risk, theta < 0 avoids it; 0 is the mean's own solution)."""
        raise self.lacking("risk", game)

    def target_curve(self, game: G, up_to: int | None = None, progress: Progress | None = None) -> TargetCurve:
        """The best chance of reaching every target up to ``up_to`` (default: the expected-score strategy's
        95th percentile), beside that strategy's own chance."""
        raise self.lacking("target", game)

    def match(self, game: G, names: list[str], n: int, seed: int, progress: Progress | None = None) -> MatchGames:
        """About ``n`` games between bots, every seating order, the same dice for every seat."""
        raise self.lacking("match", game)

    def odds(self, game: G, exact: bool = False) -> list[OddsRow]:
        """One turn played for each box alone: expected points and the chance of the maximum."""
        raise self.lacking("odds", game)

    def distribution(self, game: G, progress: Progress | None = None, theta: float | None = None) -> Distribution:
        """The exact final-score distribution of optimal play (``theta``: of the strategy of that risk
        appetite, ``risk_solution``'s)."""
        raise self.lacking("distribution", game)

    def chart(self, game: G, mine: int | None = None, theirs: int | None = None) -> list[ChartRow]:
        """The strategy chart: the turn totals where the best action switches, for each pair of scores."""
        raise self.lacking("chart", game)

    def chart_figure(self, game: G):
        """The strategy chart drawn (a matplotlib Figure)."""
        raise self.lacking("chart", game)

    def simulate(self, game: G, names: list[str], n: int, seed: int, samples: int = 0,
                 progress: Progress | None = None) -> list[Simulated]:
        """``n`` games of each one-player strategy (the same dice for all)."""
        raise self.lacking("simulate", game)
