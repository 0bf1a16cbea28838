"""What dicesolver answers, as typed models: the same objects from the library, the same JSON from
``--json`` and from the web API, and one JSON schema for all of them (``dicesolver schema``, the web's
/docs).

Values are in the game's *unit*: ``points`` (expected final score), ``equity`` (expected result: +1 win,
0 draw, -1 loss; with n players the k tied leaders get (n - k)/k, everyone else -1) or ``p_win``
(probability of winning). Where lower is better (Despirala's misere play) ``higher_is_better`` is
false, and costs, losses and luck are still counted from the player's side: positive luck is good luck,
a cost or a loss is how much worse a choice is.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_serializer

Unit = Literal["points", "ce", "equity", "p_win", "p_target"]


JUDGE_DESCRIPTION = ("what the values come from (exact: the exact table; points: the expected-score table, each "
                     "card judged alone; mindful: the Mindful Maximus model; target: the target table)")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)  # built when first used: a quicker start


# -- solving -------------------------------------------------------------------------------------------


class SolveInfo(_Model):
    """How a game's table was obtained: solved now, or loaded from the cache."""

    game: str
    unit: Unit
    value: float = Field(description="the value of the start of the game for the first player")
    solved_now: bool
    seconds: float
    states: int = Field(description="entries of the table")
    table_bytes: int
    table_dir: str
    judge: str = Field("exact", description=JUDGE_DESCRIPTION)
    details: dict[str, Any] = Field(default_factory=dict, description="family facts (a push game's sweeps, ...)")


# -- advice ---------------------------------------------------------------------------------------------


class Option(_Model):
    """One legal choice at a decision with its value."""

    action: str = Field(description="the action's text, as typed to play it (keep 3456, score fives, hold, Collect 3)")
    option: str = Field(description="its short name (3456, fives, hold, Collect 3)")
    kind: str = Field(description="keep, score, throw, hold, pick, reroll, continue or stop")
    value: float = Field(description="the value after this choice, with best play from then on")
    cost: float = Field(ge=0, description="how much worse than the best choice (0 for the best)")
    points: Optional[int] = Field(None, description="points scored now, for a scoring choice")

    @classmethod
    def of_engine(cls, action: str, option: str, kind: str, value: float, cost: float, points: int | None) -> Option:
        """An option the answer engine produced, not validated again: its fields are of their types by
        construction (the steps' words, the engine's floats, costs >= 0). Validating them took 4 µs an
        option, most of one position's advice (``ds.advise``); this takes 0.9."""
        option_ = _new(cls)
        _set_dict(option_, {"action": action, "option": option, "kind": kind, "value": value, "cost": cost,
                            "points": points})
        _set_fields_set(option_, _OPTION_FIELDS.copy())
        _set_extra(option_, None)
        _set_private(option_, None)
        return option_


# A model made without validation, slot by slot: the slots' own setters are twice as quick as
# ``object.__setattr__``, which looks each name up through the model's metaclass first.
_new = object.__new__
_set_dict, _set_fields_set, _set_extra, _set_private = (
    BaseModel.__dict__[name].__set__
    for name in ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__"))
_OPTION_FIELDS = {"action", "option", "kind", "value", "cost", "points"}
_ADVICE_FIELDS = {"game", "position", "player", "unit", "higher_is_better", "judge", "value", "options", "notes",
                  "details", "explains"}


class Advice(_Model):
    """Every option at a position, best first."""

    game: str
    position: str = Field(description="the position's canonical text")
    player: Optional[int] = Field(description="the seat on turn (0 moves first); null at the end")
    unit: Unit
    higher_is_better: bool = True
    judge: str = Field("exact", description=JUDGE_DESCRIPTION)
    value: float = Field(description="the position's value for the player on turn, with best play")
    options: list[Option] = Field(description="empty before a throw (value: the throw's expectation) and at the end")
    notes: list[str] = Field(default_factory=list, description="remarks on the position in words")
    details: dict[str, Any] = Field(default_factory=dict)
    explains: bool = Field(False, description="whether ds.explain (advise --explain, POST /api/explain) says why "
                                              "each option is worth what it is, for this game and judge")

    # The options of an Advice from the engine are made when first read (``ds.advise``): a caller that reads
    # the value, or serialises the whole, waits for nothing it does not use. Making 20-45 Option objects was
    # most of one position's advice.
    _later: Callable[..., list[Option]] | None = PrivateAttr(None)

    @classmethod
    def of_engine(cls, options: Callable[..., list[Option]], **fields: Any) -> Advice:
        """An Advice the engine produced (every field but the options, not validated again: of their types by
        construction), its options made by ``options()`` when first read (``options(first=1)``: the best
        alone)."""
        advice = _new(cls)
        _set_dict(advice, fields)
        _set_fields_set(advice, _ADVICE_FIELDS.copy())
        _set_extra(advice, None)
        _set_private(advice, {"_later": options})
        return advice

    def _pending(self) -> Callable[..., list[Option]] | None:
        return self.__pydantic_private__["_later"] if self.__pydantic_private__ else None

    def _complete(self) -> Advice:
        later = self._pending()
        if later is not None:
            fields, options = self.__dict__, later()
            # a new dict at once (a reader on another thread never sees half of one), in the fields' order
            _set_dict(self, {name: options if name == "options" else fields[name] for name in type(self).model_fields})
            self.__pydantic_private__["_later"] = None  # type: ignore[index]
        return self

    if not TYPE_CHECKING:  # what reads an Advice's fields whole sees its options made first
        def __getattr__(self, name: str) -> Any:
            if name == "options" and self._complete().__dict__.get("options") is not None:
                return self.__dict__["options"]
            return super().__getattr__(name)

    @model_serializer(mode="wrap")
    def _serialize(self, handler: Any) -> Any:
        return handler(self._complete())

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> Any:
        # the serializer above only makes the options first: what it writes is the schema of the fields
        return handler({k: v for k, v in core_schema.items() if k != "serialization"})

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Advice):
            other._complete()
        return super(Advice, self._complete()).__eq__(other)

    def __iter__(self) -> Any:
        return super(Advice, self._complete()).__iter__()

    def __repr_args__(self) -> Any:
        return super(Advice, self._complete()).__repr_args__()

    def __getstate__(self) -> dict[Any, Any]:
        return super(Advice, self._complete()).__getstate__()

    def __copy__(self) -> Advice:
        return super(Advice, self._complete()).__copy__()

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Advice:
        return super(Advice, self._complete()).__deepcopy__(memo)

    @property
    def best(self) -> Option:
        """The best option (the first of ``options``). A position with none (before a throw, at the end: see
        ``options``) has no best one: InputError, which a caller can avoid by asking ``options`` first."""
        later = self._pending()
        options = self.options if later is None else later(first=1)
        if not options:
            from .errors import InputError

            raise InputError(f"{self.game} {self.position}: no option to choose here (before a throw, or the game "
                             "is over): the position's value is its expectation")
        return options[0]

    def _repr_html_(self) -> str:
        from .display import SHOWN_ROWS, dice_text, table

        better = "higher" if self.higher_is_better else "lower"
        caption = f"{self.game} {self.position}: {self.unit}, {better} is better; value {self.value:.4f} ({self.judge})"
        rows = [(i + 1, dice_text(o.action), "" if o.points is None else o.points, o.value, o.cost)
                for i, o in enumerate(self.options[:SHOWN_ROWS])]
        return table(caption, ["#", "option", "points", "value", "cost"], rows, len(self.options) - len(rows))

    def to_pandas(self) -> Any:
        """The options as a DataFrame: action, option, kind, points, value, cost (pandas: the notebook extra)."""
        from .display import frame

        return frame({k: [getattr(o, k) for o in self.options] for k in ("action", "option", "kind", "points",
                                                                           "value", "cost")})


# -- why ------------------------------------------------------------------------------------------------


CHANCES_DESCRIPTION = ("the chance of each aspect that pays a fixed prize, exact from the tables: a box of fixed "
                       "points filled with them (the straights, a Yahtzee), the upper bonus; a race's winning this "
                       "turn or later, and its busting this turn (the turn passing with nothing more banked) "
                       "(where split_unit is points: as if playing alone)")


class ExplainedOption(_Model):
    """An option with what its value is made of."""

    action: str = Field(description="the action's text, as typed to play it")
    kind: str
    value: float = Field(description="the value after this choice, with best play from then on")
    cost: float = Field(ge=0, description="how much worse than the best choice (0 for the best)")
    sd: float = Field(ge=0, description="the standard deviation of the result after this choice (the final score; "
                                       "in a race, winning as 1 and losing as 0; where the Explanation's split_unit "
                                       "is points, the final score as if alone)")
    breakdown: dict[str, float] = Field(description="each aspect's part of the value (they sum to it): a scorecard "
                                                    "game's boxes and bonuses, a race's winning this turn or later; "
                                                    "where split_unit is points, each aspect's part of `points`")
    points: Optional[float] = Field(None, description="where split_unit is points: the expected final score of the "
                                                       "player on turn after this choice as if playing alone")
    chances: dict[str, float] = Field(default_factory=dict, description=CHANCES_DESCRIPTION)


class AspectDifference(_Model):
    """One aspect of two options compared."""

    aspect: str
    title: str = Field(description="the aspect in words")
    best: float = Field(description="its part of the value after the best option")
    other: float = Field(description="its part of the value after the other option")
    difference: float = Field(description="best minus other")
    best_chance: Optional[float] = Field(None, description="where the aspect pays a fixed prize: its chance after "
                                                           "the best option")
    other_chance: Optional[float] = Field(None, description="and after the other option")


class Explanation(_Model):
    """Why each option of a position is worth what it is: its value split by aspect and its spread, and the
    best option set against another (the one named, or the second best) aspect by aspect."""

    game: str
    position: str = Field(description="the position's canonical text")
    unit: Unit
    value: float = Field(description="the position's value, with best play")
    sd: float = Field(ge=0, description="the standard deviation of the result, with best play")
    breakdown: dict[str, float] = Field(description="the position's value split by aspect")
    titles: dict[str, str] = Field(description="each aspect in words")
    options: list[ExplainedOption] = Field(description="best first (empty where there is no decision)")
    best: Optional[str] = Field(None, description="the best option's action")
    versus: Optional[str] = Field(None, description="the option it is set against")
    differences: list[AspectDifference] = Field(default_factory=list,
                                                description="best against versus, the largest differences first")
    summary: str = Field("", description="the comparison in one sentence")
    reason: str = Field("", description="the main reason in one plain sentence: the aspect that gains the most, "
                                        "with its chances where it has them")
    chances: dict[str, float] = Field(default_factory=dict, description="the position's, with best play: "
                                      + CHANCES_DESCRIPTION)
    split_unit: Optional[Unit] = Field(None, description="set (points) where the value, a chance or an equity, is "
                                                         "not split: sd, breakdown and differences are then the "
                                                         "player on turn's final score as if playing alone, by the "
                                                         "same rules' expected-score table")
    points: Optional[float] = Field(None, description="where split_unit is points: the position's expected final "
                                                       "score for the player on turn as if playing alone")

    def _repr_html_(self) -> str:
        from .display import table

        rows = [(d.title, d.best, d.other, d.difference) for d in self.differences]
        return table(self.summary or f"{self.game} {self.position}", ["aspect", self.best or "", self.versus or "",
                                                                       "difference"], rows, 0)


# -- review ---------------------------------------------------------------------------------------------


class Decision(_Model):
    """One decision of a recorded game, judged."""

    event: int = Field(description="index of the step in the record")
    seat: int
    player: str
    turn: int
    position: str
    brief: str = Field(description="the moment in a few words (dice showing, throws left)")
    kind: str
    chosen: str
    chosen_value: float
    best: str
    best_value: float
    loss: float = Field(ge=0, description="best value minus chosen, from the player's side")
    skill: float = Field(le=0, description="minus the loss")
    label: str = Field(description="best, inaccuracy, mistake, blunder or massive blunder")
    options: int = Field(description="distinct options (1: no real choice)")


class Luck(_Model):
    """One throw (chance event) of a recorded game: how much it helped its player."""

    event: int
    seat: int
    player: str
    turn: int
    throw: int = Field(description="the throw's number in its turn (1: the turn's first)")
    kind: str
    outcome: str = Field(description="what it showed")
    before: float = Field(description="the player's value before the throw: the mean over its outcomes")
    after: float = Field(description="the player's value after it, with best play")
    luck: float = Field(description="after minus before, from the player's side (positive: good luck)")


class ReviewSummary(_Model):
    """The reviewed player's game in one line: result = baseline + luck - loss + others (in the player's
    favour; where lower is better the values move the other way: result = baseline - (luck - loss + others))."""

    game: str
    unit: Unit
    higher_is_better: bool = True
    judge: str = Field(description=JUDGE_DESCRIPTION)
    measure: str = Field(description="what the values are, in words (expected final score, probability of winning...)")
    seat: int = Field(description="the reviewed player's seat (0 moved first)")
    player: str
    index: int = Field(description="the reviewed player's index in players (the record's order)")
    players: list[str]
    complete: bool
    baseline: float = Field(description="the player's value at the start")
    luck: float = Field(description="the player's own throws")
    loss: float = Field(description="the player's own decisions")
    others: float = Field(description="what happened on the other players' turns, in the player's value")
    others_luck: float = Field(description="the other players' throws, each in its own player's value")
    others_loss: float = Field(description="the other players' decision losses, each in its own player's value")
    result: float = Field(description="the final result (or the value now, for an unfinished game)")
    decisions: int
    decisions_with_choice: int
    mean_loss: float = Field(description="loss per decision that had a choice")
    labels: dict[str, int] = Field(default_factory=dict)
    rating: str | None = Field(None, description="the mean loss's level on the game's scale, calibrated on its bots "
                               "(perfect, world class, expert, advanced, intermediate, casual, beginner; None: "
                               "no decision with a choice, or no scale for the game)")


class TimelinePoint(_Model):
    event: int
    value: float = Field(description="the player's value after the event")
    luck: float = Field(description="cumulative luck")
    loss: float = Field(description="cumulative loss")


class TutorWarning(_Model):
    """A warning the tutor gave before a move (``play --tutor``), and what the player did then."""

    position: str = Field(description="where the move was about to be made")
    move: str = Field(description="the move warned about")
    cost: float = Field(ge=0, description="what it would have cost against the best")
    best: str = Field(description="the best move there")
    reason: str = Field(description="the warning's one sentence: why the best is better")
    heeded: bool = Field(description="whether the player then made a better move (false: played it anyway)")
    played: str = Field(description="the move finally made there")


class Review(_Model):
    summary: ReviewSummary
    decisions: list[Decision] = Field(description="every decision of every player, judged in its player's value")
    luck: list[Luck] = Field(description="every throw of every player")
    timeline: list[TimelinePoint] = Field(description="the reviewed player's value after each of their events")
    tutor: list[TutorWarning] = Field(default_factory=list, description="the tutor's warnings in a game played "
                                                                        "with it, heeded or not")

    def mine(self) -> list[Decision]:
        return [d for d in self.decisions if d.seat == self.summary.seat]

    def _repr_html_(self) -> str:
        from .display import SHOWN_ROWS, dice_text, table

        s = self.summary
        caption = (f"{s.game}, {s.player}: baseline {s.baseline:.4f} + luck {s.luck:+.4f} − loss {s.loss:.4f}"
                   f"{f' + others {s.others:+.4f}' if len(s.players) > 1 else ''} = {s.result:.4f} ({s.measure})")
        costly = sorted((d for d in self.mine() if d.loss > 0), key=lambda d: -d.loss)
        rows = [(d.turn, dice_text(d.brief), dice_text(d.chosen), dice_text(d.best), d.loss, d.label)
                for d in costly[:SHOWN_ROWS]]
        return table(caption, ["turn", "moment", "chosen", "best", "loss", "label"], rows, len(costly) - len(rows))

    def to_pandas(self) -> Any:
        """Every decision of every player as a DataFrame, one row each (pandas: the notebook extra)."""
        from .display import frame

        fields = list(Decision.model_fields)
        return frame({k: [getattr(d, k) for d in self.decisions] for k in fields})


# -- comparing strategies ------------------------------------------------------------------------------


def elo(value: float, unit: str) -> float:
    """The Elo difference of an expected result (equity e: p = 1/2 + e/2) or a probability of winning p:
    400 log10(p / (1 - p))."""
    p = value if unit == "p_win" else 0.5 + value / 2
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return 400 * math.log10(p / (1 - p))


class BoxFacts(_Model):
    """How often one box is scored 0 in optimal two-player play, per game (both players together)."""

    box: str
    zero: float = Field(description="expected times per game the box is scored 0")
    waived: float = Field(description="... of them when another open box would have scored points")


class Departure(_Model):
    """An opening roll where the perfect two-player strategy keeps other dice than Maximus (who maximises
    his own expected score)."""

    roll: str
    keep: str = Field(description="the perfect player's keep")
    equity: float = Field(description="its equity for the first player")
    maximus_keep: str
    maximus_equity: float = Field(description="the equity of Maximus's keep, with perfect play afterwards")
    cost: float = Field(ge=0, description="equity lost by keeping as Maximus does")


class StrategyFacts(_Model):
    """How the perfect two-player strategy plays, read exactly from its table: how often it scores 0 (and
    waives a box it could have scored in), and where its opening keeps depart from Maximus."""

    game: str
    zero_per_turn: float = Field(description="boxes scored 0 per turn, under optimal play by both")
    waives_per_turn: float = Field(description="... of them with another open box that would have scored")
    boxes: list[BoxFacts]
    opening_rolls: int = Field(description="distinct opening rolls")
    departures: list[Departure] = Field(description="opening rolls where the keeps differ, costliest first")
    seconds: float


class Comparison(_Model):
    """Strategy A against strategy B in a two-player game, exactly (every position evaluated)."""

    game: str
    a: str
    b: str
    unit: Unit
    first: float = Field(description="A's expected result (or probability of winning) moving first")
    second: float = Field(description="... moving second")
    average: float = Field(description="with the first move decided by a coin")
    elo_first: float
    elo_second: float
    elo: float
    seconds: float

    @classmethod
    def of(cls, game: str, a: str, b: str, unit: Unit, first: float, second: float, seconds: float) -> "Comparison":
        average = (first + second) / 2
        return cls(game=game, a=a, b=b, unit=unit, first=first, second=second, average=average,
                   elo_first=elo(first, unit), elo_second=elo(second, unit), elo=elo(average, unit), seconds=seconds)


class PlayerResult(_Model):
    player: str
    points_per_game: float = Field(description="mean result: win n - 1, k tied leaders (n - k)/k, loss -1")
    points_ci95: float = Field(description="half-width of the 95% interval")
    win_rate: float = Field(description="finished first alone")
    win_ci95: float
    tie_rate: float = Field(description="shared first place")
    share: float = Field(description="games won, a tie among k counting 1/k")
    share_by_seat: list[float] = Field(description="the same by seat (0: moving first)")
    share_ci95_by_seat: list[float]
    rank_by_seat: list[float] = Field(default_factory=list,
                                      description="average finishing place by seat (1 best; tied players share places)")
    mean_score: float
    score_sd: float


class MatchResult(_Model):
    """Many games between 2..6 strategies, every seating order in turn, the same dice for every seat."""

    game: str
    players: list[PlayerResult]
    games: int
    deals: int
    rotations: int
    seed: int
    seconds: float


class CategoryStats(_Model):
    category: str
    scored_rate: float = Field(description="games in which the box got more than 0 points")
    mean: float = Field(description="mean points in the box")


class SimulationSummary(_Model):
    game: str
    player: str
    games: int
    seed: int
    mean: float
    sd: float
    stderr: float
    percentiles: dict[str, float]
    mode: int
    min: int
    max: int
    expected: Optional[float] = Field(None, description="the strategy's exact expected score, where known")
    bonus_rate: Optional[float] = Field(None, description="games reaching the upper bonus, where the game has one")
    extra_bonus_mean: Optional[float] = Field(None, description="extra-yacht bonuses per game, where the game has them")
    categories: list[CategoryStats] = Field(default_factory=list)
    goal: Optional[str] = Field(None, description="the goal a goal's player in the run plays for ('target:300', "
                                "'field:10')")
    target: Optional[int] = Field(None, description="the score a target player plays for")
    target_rate: Optional[float] = Field(None, description="games reaching the target (for another goal, the mean "
                                         "of its utility: for a field, the share of fields won)")
    target_chance: Optional[float] = Field(None, description="the goal player's exact chance of its goal")
    certainty_equivalent: Optional[float] = Field(None, description="a risk appetite's player: the exact certainty "
                                                  "equivalent ln E[exp(theta X)] / theta of its final score X")
    simulated_certainty_equivalent: Optional[float] = Field(None, description="the same, from the games played")
    seconds: float = 0.0


# -- the table -----------------------------------------------------------------------------------------


class Board(_Model):
    """Everyone's sheet as a table of text (the terminal draws it; so can a web page)."""

    title: str
    columns: list[str]
    rows: list[list[str]]
    strong: list[int] = Field(default_factory=list, description="rows to show in bold (totals)")
    faint: list[int] = Field(default_factory=list, description="rows to show dimmed (running sums)")
    lines: list[str] = Field(default_factory=list, description="words below the table")


# -- family views ------------------------------------------------------------------------------------


class OddsRow(_Model):
    """One box of a scorecard game, a whole turn played only for it; or one throw of n dice (Farkle)."""

    category: str
    max_points: int
    expected_points: float
    p_max: float
    p_max_exact: Optional[str] = Field(None, description="P(max) as a fraction, when asked for")
    p_nothing: Optional[float] = Field(None, description="the chance that the throw scores nothing (a Farkle)")
    p_every_die: Optional[float] = Field(None, description="the chance that every die thrown scores (hot dice)")


class ChartRow(_Model):
    """A strategy chart's line (push-your-luck games, Farkle): (my score, opponent's) at the start of my turn."""

    mine: int
    theirs: int
    win: float
    thresholds: list[int] = Field(description="turn totals where the best action switches, starting with a stop")
    dice: Optional[int] = Field(None, description="the dice left to throw, where the thresholds depend on them "
                                                  "(Farkle: a line for each number)")


class Distribution(_Model):
    """The exact final-score distribution of optimal (max expected score) play, or of a risk appetite's
    strategy, with its facts."""

    game: str
    theta: float = Field(0.0, description="the risk appetite whose strategy plays (0: the mean's)")
    mean: float
    sd: float
    percentiles: dict[str, int]
    mode: int
    min: int
    max: int
    bonus_probability: Optional[float] = None
    extra_bonus_mean: Optional[float] = None
    extra_bonus_box: Optional[str] = Field(None, description="the box whose further scorings earn the extra "
                                           "bonuses counted in extra_bonus_mean (yahtzee)")
    category_probabilities: dict[str, float] = Field(default_factory=dict, description="P(the box scores more than 0)")
    perfect_game_probability: float = Field(description="the best probability of every box at its maximum")
    perfect_game_one_in: float
    probabilities: dict[int, float] = Field(description="every final score's probability")

    def pmf(self) -> list[float]:
        """Every final score's probability, from 0 points to the largest (index: points)."""
        out = [0.0] * (max(self.probabilities) + 1)
        for score, p in self.probabilities.items():
            out[score] = p
        return out


class FrontierCheck(_Model):
    """One risk appetite's strategy in simulated games (``frontier --simulate N``), beside its exact figures."""

    games: int
    mean: float
    sd: float
    percentiles: dict[str, int]
    field_wins: dict[str, float] = Field(description="the share of blind fields of N won, ties shared")


class FrontierRow(_Model):
    """One risk appetite's strategy, from its exact final-score distribution."""

    theta: float
    certainty_equivalent: float = Field(description="ln E[exp(theta X)] / theta (the mean at theta = 0)")
    mean: float
    sd: float
    percentiles: dict[str, int] = Field(description="5th, 50th, 95th and 99th percentiles of the final score")
    field_wins: dict[str, float] = Field(description="P(finishing first in a blind field of N players who play for "
                                         "the mean), ties shared, for N = 2, 10, 100")
    simulated: Optional[FrontierCheck] = Field(None, description="with --simulate N: the same from N simulated games")


class Frontier(_Model):
    """The trade-offs of a sweep of risk appetites: each strategy's exact mean, spread, percentiles and chances of
    winning blind fields, and the theta that does best by each measure."""

    game: str
    rows: list[FrontierRow]
    best: dict[str, float] = Field(description="each measure (mean, p5, ..., field of N) and the theta that does "
                                   "best by it among the rows (the first, on a tie)")


class AppetitePoint(_Model):
    """How well one risk appetite's strategy explains a player's choices."""

    theta: float
    log_likelihood: float = Field(description="of the player's informative choices under logit choice")
    rationality: float = Field(description="beta, per point: how closely the choices follow theta's values")


class Appetite(_Model):
    """The risk appetite a player's recorded choices reveal (``dicesolver appetite``)."""

    game: str
    player: str
    records: int
    decisions: int
    informative: int = Field(description="decisions where strategies of different theta choose differently")
    theta: float = Field(description="the estimate: the theta of the highest likelihood on the grid")
    low: float = Field(description="the 95% interval's low end (likelihood ratio)")
    high: float = Field(description="the 95% interval's high end")
    words: str
    profile: list[AppetitePoint]


class TargetCurve(_Model):
    """The best chance of reaching each target score, beside the expected-score strategy's own chance."""

    game: str
    targets: list[int] = Field(description="every target T from 0 up")
    best: list[float] = Field(description="P(final score >= T) playing for T, for each T (<= T: see at_most)")
    expected_score_strategy: list[float] = Field(description="P(final score >= T) of the strategy that maximises "
                                                 "the expected score (its exact distribution)")
    largest_gain: float = Field(description="the largest difference between the two")
    largest_gain_at: int = Field(description="the target where it is")
    seconds: float
    at_most: bool = Field(False, description="the lowest score wins (misere): every P is of a final score <= T")


class PolicyEvaluation(_Model):
    """A policy's games in a one-player environment, judged by the exact solution on the same seeds."""

    game: str
    policy: str
    judge: str = Field("points", description=JUDGE_DESCRIPTION)
    games: int
    seed: int
    mean: float = Field(description="the policy's mean final score")
    ci95: float = Field(description="half the width of its 95% interval")
    optimal_mean: float = Field(description="the exact optimal policy's mean on the same seeds")
    optimal_value: float = Field(description="the optimal policy's exact expected score")
    gap: float = Field(description="optimal_mean - mean: points lost per game on the same seeds")
    gap_ci95: float
    decisions: int
    regret_per_decision: float = Field(description="the exact expected points lost per decision")
    regret_per_game: float
    seconds: float


RESULTS = (SolveInfo, Advice, Explanation, Review, Comparison, StrategyFacts, MatchResult, SimulationSummary, Board,
           OddsRow, ChartRow, Distribution, TargetCurve, PolicyEvaluation)


def json_schema() -> dict[str, Any]:
    """One JSON schema document holding every result model (under ``$defs``)."""
    from pydantic.json_schema import models_json_schema

    _, schema = models_json_schema([(m, "serialization") for m in RESULTS], title="dicesolver results")
    return schema
