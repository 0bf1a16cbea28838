"""A solved game: the base class every family's judges share.

A judge (a way of valuing positions: the expected score, the exact two-person equity, a target's chance...)
is one object. Its class derives from its family's batch answer engine, which gives ``answer`` (situations
as arrays in, every legal option's value out, ``core.answers``), and from ``SolvedGame``, which gives the
value of a state, the values of its actions, advice, review and explanation, written once over the
protocol, each a batch (of one, for one position)::

    class ExpectedScore(SolitaireEngine, SolvedGame[ScorecardGame, ScorecardState]): ...

The engine comes first, so that its ``answer`` is the judge's. An engine is also used alone, where no
solved game is at hand (a two-person table answering its own solver's questions, tests' references).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Callable, Generic, Sequence, TypeVar, cast

import numpy as np

from .aims import Beat, FinalScoreGoal
from .answers import Answers, Situations
from .errors import InputError
from .protocol import JUDGE_WORDS, UNIT_WORDS, Game, State, Step, Unit
from .results import Advice, Explanation, Review, SolveInfo

if TYPE_CHECKING:
    from .encoding import Encoding
    from .family import TableSize
    from .playthrough import Playthrough

WARM_UP_BATCH = 300  # situations: more than any engine answers without its compiled kernels
G = TypeVar("G", bound=Game)
Progress = Callable[[int, int], None]  # done, total: a long build's report
S = TypeVar("S", bound=State)


class SolvedGame(ABC, Generic[G, S]):
    """What a solved (or modelled) game answers, for any state of it (``S``, a state of a ``G``)."""

    game: G
    unit: Unit = "points"
    higher_is_better: bool = True
    tie: float = 1e-9  # values closer than this are equal (the table's precision)
    exact: bool = True  # False for a model (the values are not those of optimal play by everyone)
    judge: str = "exact"  # the name of what answers (the family's judges: exact, points, mindful, target...)
    encoding: Encoding  # the game's states as arrays: the engine's situations

    def __init__(self, game: G, info: SolveInfo):
        self.game = game
        self.info = info if info is None or info.judge == self.judge else info.model_copy(update={"judge": self.judge})

    # -- the one path: the batch answer engine (the judge's other base class) --------------------------
    @abstractmethod
    def answer(self, situations: Situations, parallel: bool | None = None) -> Answers:
        """Every legal option of every situation (the arrays of ``Encoding.situations``), valued for the
        player deciding, and each situation's value for the player on turn. ``parallel``: on all threads
        (default: for big batches; servers whose threads answer at once say False)."""

    def answer_in_step(self, size: int) -> Callable[[Situations], Answers]:
        """``answer`` for ``size`` games played in step, row j of every call being game j's situation (a
        vectorised environment's batch). An engine may carry work from one call to the next: the scorecard
        solitaire engine keeps each game's turn stages for its next decision."""
        return self.answer

    def warm_up(self, single: bool = False) -> None:
        """Compile (or load) whatever answers this game's situations, one at a time and in batches on one
        thread and on all, so that a first question does not wait for it (``dicesolver warmup``); ``single``:
        only what answers them one at a time (a fraction of the compiling)."""
        batch = self.encoding.situations([self.game.start()] * WARM_UP_BATCH)
        self.answer(batch, parallel=False)
        if not single:
            self.answer(batch, parallel=True)

    def answers(self, states: Sequence[S], parallel: bool | None = None) -> Answers:
        """``answer`` for protocol states."""
        return self.answer(self.encoding.situations(states), parallel)

    def seat_value(self, state: S, seat: int) -> float:
        """The value of a state for a seat other than the player on turn (the families that can say)."""
        raise InputError(f"{self.judge} values the player on turn")

    def state_value(self, state: S, seat: int | None = None) -> float:
        """The value of a state for ``seat`` (default: the player on turn; at the end: seat 0)."""
        if seat is None or seat == (state.player if state.player is not None else 0):
            return float(self.answers([state]).value[0])
        return self.seat_value(state, seat)

    def values(self, states: Sequence[S], seats: Sequence[int | None]) -> np.ndarray:
        """Many states' values, each for its seat (None: the player on turn), in one batch."""
        out = np.empty(len(states))
        mine = [i for i, (s, seat) in enumerate(zip(states, seats))
                if seat is None or seat == (s.player if s.player is not None else 0)]
        if mine:
            out[mine] = self.answers([states[i] for i in mine]).value
        for i in sorted(set(range(len(states))) - set(mine)):
            out[i] = self.seat_value(states[i], cast(int, seats[i]))
        return out

    def action_values(self, state: S) -> list[tuple[Step, float]]:
        """The value of every legal action at a decision, for the player deciding."""
        answers = self.answers([state])
        return self.pairs(state, answers, 0)

    @staticmethod
    def pairs(state: S, answers: Answers, row: int) -> list[tuple[Step, float]]:
        """A situation's options as (action, value), its state's ``legal_actions`` in their order."""
        actions = state.legal_actions()
        n = int(answers.counts[row])
        assert n == len(actions), f"{n} answers for {len(actions)} legal actions at {state}"
        return list(zip(actions, answers.values[row, :n].tolist()))

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

    def __repr__(self) -> str:
        start = f": {self.unit_words} of the start {self.root_value:.6f}" if self.info is not None else ""
        return f"<{type(self).__name__} {self.game.canonical!r}, {self.judge_words}{start}>"

    def _repr_html_(self) -> str:
        import html

        return f"<b>{html.escape(self.game.canonical)}</b> solved ({html.escape(self.judge_words)}): " \
               f"{html.escape(self.headline() if self.info is not None else '')}"

    def headline(self) -> str:
        """The solved game in a few words: the value of the start for the first player."""
        return f"{self.unit_words} of the start with best play: {self.root_value:.6f}"

    @property
    def judge_words(self) -> str:
        """What answers, in words (the exact table, the Mindful Maximus model...)."""
        return JUDGE_WORDS.get(self.judge, self.judge)

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

    explains = False  # whether ``explain`` says why (splitting this judge's values, or beside the points alone)
    _points_alone: Callable[[Progress | None], SolvedGame] | None = None
    _points_alone_size: Callable[[], TableSize | None] | None = None
    _alone_loaded: SolvedGame | None = None

    def explain_beside(self, points_alone: Callable[[Progress | None], SolvedGame],
                       size: Callable[[], TableSize | None]) -> None:
        """Explain this judge's values (a chance, an equity: not split) beside the expected final score of the
        player on turn as if playing alone, by the same rules' expected-score judge (``points_alone``, made or
        loaded with a progress callback when first asked; ``size``: what that builds, from the rules alone):
        the family sets this where it has one."""
        self._points_alone, self._points_alone_size = points_alone, size
        self.explains = True

    def explain_size(self) -> TableSize | None:
        """The table ``explain`` builds the first time (None: none)."""
        return None if self._points_alone_size is None else self._points_alone_size()

    def prepare_explain(self, progress: Progress | None = None) -> None:
        """Load, or build once with ``progress``, what ``explain`` reads (nothing, for most judges)."""
        if self._points_alone is not None:
            self._alone(progress).prepare_explain(progress)

    def _alone(self, progress: Progress | None) -> SolvedGame:
        """The expected-score judge beside this one, loaded once (its table, and its breakdown when asked)."""
        assert self._points_alone is not None
        if self._alone_loaded is None:
            self._alone_loaded = self._points_alone(progress)
        return self._alone_loaded

    def explain(self, position: S | str, versus: str | None = None, progress: Progress | None = None) -> Explanation:
        """Why each option is worth what it is: its value split by aspect, its spread, and the best option set
        against ``versus`` (the second best by default). A judge whose values are not split (a chance, an
        equity) is explained beside the points of the player on turn as if alone, where its family can say."""
        if self._points_alone is None:
            raise InputError(f"{self.game.canonical}: {self.judge_words} does not say why, for now; the "
                             "expected-score tables and the races' chances of winning do")
        from .why import beside_points

        return beside_points(self, self.state(position), self._alone(progress), versus, progress)

    def review(self, playthrough: "Playthrough", player: int = 0) -> Review:
        """Judge one player's game: ``player`` indexes the record's players."""
        from .review import review

        return review(self, playthrough, player)


class CertaintyEquivalent(SolvedGame[G, S]):
    """Play with a risk appetite theta: the certainty equivalent ln E[exp(theta X)] / theta of the final score X
    under the strategy that maximises it, in points; theta > 0 seeks risk, theta < 0 avoids it. Options are
    ranked and valued by it. A family's judge derives from this and from its expected-score judge (whose
    engine answers with ``theta``); the mean's breakdown does not split a certainty equivalent, so it does not
    explain."""

    unit: Unit = "ce"
    judge = "risk"
    explains = False
    theta: float
    headline_digits = 6  # the root value's decimals in the headline

    def headline(self) -> str:
        return f"certainty equivalent {self.root_value:.{self.headline_digits}f} (risk appetite theta={self.theta:g})"

    def explain(self, position: S | str, versus: str | None = None,
                progress: Progress | None = None) -> Explanation:
        raise InputError("why an option is best is said for the expected score; with a risk appetite "
                         "(--theta), advise ranks by the certainty equivalent alone")

    def details(self, state: S) -> dict[str, Any]:
        return {**super().details(state), "theta": self.theta}


class TargetChance(SolvedGame[G, S]):
    """The best chance of a goal on a player's own final score (``core.aims.FinalScoreGoal``: a target, a score
    to beat, a blind field), whatever the others do: a family's table of needs behind the protocol. A family
    says a state's score so far (``score_so_far``) and derives from its answer engine."""

    unit: Unit = "p_target"
    tie = 1e-6  # the tables are float32
    judge = "target"

    def __init__(self, game: G, table: Any, goal: FinalScoreGoal, info: SolveInfo):
        super().__init__(game, info)
        self.table, self.final_goal = table, goal
        self.score, self.beat = goal.aim(), isinstance(goal, Beat)  # needs count from score: score - points

    def goal(self) -> str:
        """What the chance is of, in words ("reaching 300 points")."""
        return self.final_goal.words()

    @abstractmethod
    def score_so_far(self, state: S) -> int:
        """The points of the player on turn (at the end, the first seat's)."""

    def curve(self) -> np.ndarray:
        """The best chance from the start of a game, for every score 0..N of the table (this aim's kind)."""
        return self.table.curve()

    def headline(self) -> str:
        return f"the best chance of {self.goal()} is {self.root_value:.6f}"

    def notes(self, state: S) -> list[str]:
        return [f"chances of {self.goal()}, playing for it from here"]

    def details(self, state: S) -> dict[str, Any]:
        return self.final_goal.details(self.score_so_far(state))


class WinChance(SolvedGame[G, S]):
    """The probability that the player to move wins a two-player race under optimal play by both (a family's
    exact table behind the protocol, the family's answer engine its other base class)."""

    unit: Unit = "p_win"

    explains = True

    def explain(self, position: S | str, versus: str | None = None,
                progress: Progress | None = None) -> Explanation:
        """Each option's chance of winning split into winning before the turn passes and winning later (the
        turn played out through the protocol, with optimal play); its spread is the win's (sqrt(p(1 - p)))."""
        from .why import WIN_LATER, WIN_NOW, WIN_TITLES, explanation, win_split

        state = self.state(position)
        found = win_split(self, state)
        if found is None:
            raise InputError(f"{self.game.canonical}: one turn here reaches too many positions to split its "
                             "chances; advise gives each option's chance")
        here, options = found
        return explanation(self, state, [WIN_NOW, WIN_LATER], WIN_TITLES, here, options, versus,
                           prizes={WIN_NOW: 1.0, WIN_LATER: 1.0})

    def seat_value(self, state: S, seat: int) -> float:
        """The other player's chance: one minus the mover's (at the end: the game's result, 1 for the winner)."""
        if state.is_terminal():
            return float(state.returns()[seat])
        return 1.0 - self.state_value(state)

