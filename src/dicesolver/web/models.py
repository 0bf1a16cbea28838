"""The JSON API's requests, and the responses only the web app has (games, jobs, play sessions). Results
(advice, reviews, odds...) are ``core.results``: the same JSON as the command line's ``--json``."""

from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from ..core.results import Explanation, Option, Review, TutorWarning

GameName = Field(..., min_length=1, max_length=200, description="a game string, e.g. yahtzee, yacht(dice=6), skunk, despirala")


class _Request(BaseModel):
    """A JSON request: a field it does not have is refused (422, naming it), never silently ignored."""

    model_config = ConfigDict(extra="forbid")


class CategoryInfo(BaseModel):
    name: str
    title: str
    max_points: int
    upper: bool = Field(False, description="counts towards the upper bonus")


class ExploreImage(BaseModel):
    title: str
    image: str = Field(..., description="a path under /api/explore, with ?game=NAME")


class PageInfo(BaseModel):
    quick: list[str] = Field([], description="the Play page's buttons: lines typed at the prompt ('' = Enter)")
    max_opponents: int = 5
    explore: list[ExploreImage] = []
    explore_odds: bool = False
    start_position: str = Field("", description="a position whose advice needs the game's table (solved first)")
    goals: list[str] = Field([], description="what the Advisor may play for besides the game's own solution: "
                             "'theta' (a risk appetite), 'target', 'field' (AdviceRequest.goal)")


class VariantInfo(BaseModel):
    key: str = Field(..., description="what a game string sets: NAME(key=value)")
    help: str
    default: str = Field(..., description="the built-in game's value")
    values: list[str] = Field([], description="the named values (none: a whole number from low to high)")
    low: int = 0
    high: int = 0
    step: int = 1


class GameInfo(BaseModel):
    name: str
    title: str
    family: str = Field(..., description="scorecard, pushluck, farkle or despirala")
    rules: list[str] = []
    players: str = Field("", description="how many can play: 1-6, 2")
    dice: int = 0
    faces: int = 6
    rolls: int = 0
    goal: int = 0
    categories: list[CategoryInfo] = []
    upper_threshold: int = Field(0, description="the upper sum that earns the upper bonus (0: no bonus)")
    upper_points: int = 0
    extra_bonus: int = Field(0, description="points of each extra-yacht bonus (0: none in this game)")
    extra_bonus_box: int = Field(-1, description="the box whose points open the extra-yacht bonuses")
    combinations: list[str] = []
    combination_words: list[str] = Field([], description="what each combination is and scores, in one sentence")
    goods_per_turn: int = Field(0, description="the goods each turn adds (Despirala; 0: no goods in this game)")
    move_words: str = Field("", description="what the moves besides the combinations do")
    bots: list[str] = []
    page: PageInfo = PageInfo()
    base: str = Field("", description="the built-in game this game string sets rules of")
    variants: list[VariantInfo] = Field([], description="the rules a game string may set on ``base``")


class JobView(BaseModel):
    id: str
    label: str
    state: Literal["running", "done", "failed"]
    done: int
    total: int
    error: str = ""
    seconds: float = Field(0.0, description="how long it has run")
    seconds_left: Optional[float] = Field(None, description="an estimate of the time left, once its pace shows")


class Pending(BaseModel):
    """A table is being loaded or solved: ask again when the job is done."""

    status: Literal["solving"] = "solving"
    job: JobView


# a field's table per N (Yahtzee's: 2 GB, minutes): the web offers a short menu of them (and theta on a grid)
WEB_FIELDS = (2, 3, 4, 5, 6, 8, 10, 20, 50, 100)


class AdviceRequest(_Request):
    game: str = GameName
    position: str = Field(..., min_length=1, max_length=2000, description=(
        "scorecard games: CARD/DICE/ROLLS (e.g. 'aces=3,fh=25/11345/1'); pig, skunk, big-pig: MINE,THEIRS,TURN_TOTAL; "
        "despirala: USED;GOODS;DICE (e.g. 'none;5;113456')"))
    goal: Optional[str] = Field(None, max_length=40, description=(
        "what the player on turn plays for (default: the game's own solution): 'mean', 'theta:X' (a risk "
        "appetite from -0.1 to 0.1 in steps of 0.005), 'target:T', 'beat:S' or 'field:N' (N one of "
        f"{', '.join(map(str, WEB_FIELDS))})"))


class ExplainRequest(_Request):
    game: str = GameName
    position: str = Field(..., min_length=1, max_length=2000, description="a scorecard position: CARD/DICE/ROLLS")
    versus: Optional[str] = Field(None, min_length=1, max_length=200, description="the option to set the best "
                                  "against, as typed to play it (default: the second best)")


class PlayAction(BaseModel):
    action: str = Field(..., description="the line that plays it (what the terminal accepts)")
    label: str
    kind: str = Field(..., description="keep, score, throw, hold, pick, reroll, continue or stop")
    points: Optional[int] = Field(None, description="what a box would score now, for a scoring action")


class ThrowRequest(BaseModel):
    """The person's own throw, asked for on the board, drawn from the throw's outcomes: how many dice and how
    many faces (the line sent is the faces, e.g. "35"), or, where an outcome is not a set of dice, the outcomes
    to pick one of."""

    prompt: str = Field(..., description="the question, as the terminal asks it")
    dice: int = Field(0, description="how many dice were thrown (0 when the outcome is picked from ``choices``)")
    faces: int = Field(0, description="the faces a die can show: 1 to ``faces``")
    choices: list[PlayAction] = Field([], description="the outcomes that are not dice (Despirala's completions)")


class PlayBoard(BaseModel):
    """The game as the drawn board shows it, taken each time the game waits for the person."""

    position: str = Field(..., description="the state in the position language (POST /api/advice takes it)")
    family: str = Field(..., description="scorecard, pushluck, despirala or farkle: which board draws ``view``")
    names: list[str]
    you: int = Field(..., description="the person's seat")
    mover: Optional[int] = Field(None, description="the seat on turn (None once the game is over)")
    view: dict[str, Any] = Field(..., description="the family's board fields (Family.view)")
    actions: list[PlayAction] = Field([], description="the person's legal actions, when it is theirs to decide")
    throw: bool = Field(False, description="the person's dice are to be thrown (Enter)")
    request: Optional[ThrowRequest] = Field(None, description="with their own dice: the throw the person enters")
    last_dice: list[int] = Field([], description="the dice of the last throw")
    tutor: Optional[TutorWarning] = Field(None, description="the tutor's warning the person is asked about: the move "
                                          "(not made yet), its cost, the best move and why; answered by sending "
                                          "'yes' (play it anyway) or 'no' (take it back)")
    totals: list[int] = []
    said: list[str] = Field([], description="what the table says at this state (Family.scene): the last words "
                                            "once the game is over")
    moves: int = Field(0, description="steps played so far (throws included): send it with a line so that a game "
                                      "that has moved since refuses the line")


class TrainRequest(_Request):
    game: str = GameName
    questions: int = Field(10, ge=1, le=30, description="positions to answer")
    seed: Optional[int] = Field(None, ge=0, le=2**31 - 1, description="which positions are drawn (default: new ones)")


class TrainQuestion(BaseModel):
    position: str = Field(..., description="the position (POST /api/train/answer takes it back with the move)")
    note: str = Field("", description="why it is asked (a position you got wrong before)")
    board: PlayBoard = Field(..., description="the position as the drawn board shows it, with its legal actions")


class TrainQuestions(BaseModel):
    game: str
    unit: str
    mistakes: int = Field(..., description="positions in this browser's deck of mistakes")
    questions: list[TrainQuestion]


class TrainAnswer(_Request):
    game: str = GameName
    position: str = Field(..., min_length=1, max_length=2000)
    action: str = Field(..., min_length=1, max_length=200, description="the move, as typed to play it")


class TrainVerdict(BaseModel):
    action: str
    value: float
    cost: float
    label: str = Field(..., description="best, inaccuracy, mistake, blunder or massive blunder (as a review labels)")
    best: str
    best_value: float
    unit: str
    why: Optional[Explanation] = Field(None, description="the best set against the move, where the judge splits "
                                                         "its values")
    options: list[Option] = Field(..., description="the best few options")


class TrainFinish(_Request):
    game: str = GameName
    answers: list[TrainAnswer] = Field(..., min_length=1, max_length=30)
    width: Optional[int] = Field(None, ge=200, le=4000)


class TrainSummary(BaseModel):
    decisions: int
    mean_loss: float = Field(..., description="loss per decision, the scale a review measures a game on")
    labels: dict[str, int]
    rating: str | None = Field(None, description="the session's level on the game's scale, calibrated on its bots "
                               "(perfect, world class, expert, advanced, intermediate, casual, beginner)")
    compared: float | None = Field(None, description="the mean loss as over a whole game's decisions: the "
                                   "positions' difficulty taken out, comparable across sessions")
    mistakes: int = Field(..., description="positions in the deck, asked again until answered right twice")
    history: list[dict[str, Any]] = Field(..., description="the last sessions (and reviewed games), oldest first")
    plot: str = Field(..., description="the mean loss per session as a PNG data URL")


class FigureRequest(_Request):
    game: str = GameName
    image: Literal["distribution.png", "chart.png", "simulation.png", "frontier.png"] = Field(
        ..., description="the explore figure to draw (its tables built first, with progress)")
    width: Optional[int] = Field(None, ge=200, le=4000, description="the page's width in CSS pixels: the figure is "
                                 "drawn for it (panels stacked on a phone, text 12 px or more)")


class FigureReady(BaseModel):
    """The figure is drawn: GET its image."""

    url: str


class PlayRequest(_Request):
    game: str = Field("", max_length=200, description="a game string, e.g. yahtzee, skunk, despirala (not needed "
                      "with resume)")
    resume: Optional[str] = Field(None, max_length=130, description="the record name of an unfinished game "
                                  "(GET /api/records) to continue where it stopped, even after a server restart")
    opponents: list[str] = Field([], max_length=5, description="bots by name (see GET /api/games)")
    seed: Optional[int] = Field(None, ge=0, le=2**31 - 1)
    manual_dice: bool = False
    first: Literal["you", "bot", "random"] = "random"
    tutor: bool = Field(False, description="warn before a move that costs more than tutor_threshold: the board's "
                        "'tutor' then holds the warning, answered 'yes' (play it anyway) or anything else (take it "
                        "back)")
    tutor_threshold: Optional[float] = Field(None, ge=0, le=1000, description="the cost past which the tutor warns, "
                                             "in the game's unit (default: a point, or a percentage point of a "
                                             "chance)")


class SendRequest(_Request):
    line: str = Field(..., max_length=200, description="what you would type at the terminal prompt")
    moves: int | None = Field(None, ge=0, description="the board's 'moves' the line answers: a move made on a "
                              "board already answered (a double tap, another tab or device) is not applied, and "
                              "the answer is the game as it stands, with 'stale' set")


class SessionResponse(BaseModel):
    id: str
    game: str
    transcript: str
    prompt: str
    busy: bool
    over: bool
    stopped: bool
    error: str
    record: str
    board: Optional[PlayBoard] = None
    stale: bool = Field(False, description="the line sent was not applied: it named a board already answered "
                                           "(a double tap, another tab); this is the game as it stands")


class ReviewRequest(_Request):
    record: str = Field(..., min_length=1, max_length=1_000_000, description="the JSON Lines text of a game record")
    player: int = Field(0, ge=0, le=5)
    width: Optional[int] = Field(None, ge=200, le=4000, description="the page's width in CSS pixels: the timeline "
                                 "is drawn for it")


class ReviewResponse(BaseModel):
    review: Review = Field(..., description="the same JSON as 'dicesolver analyze --json'")
    plot: str = Field(..., description="the timeline as a PNG data URL")


class RecordInfo(BaseModel):
    name: str
    game: str
    players: list[str]
    over: bool
    turn: int = Field(0, description="turns begun so far")
    date: str = Field("", description="when it was last played (ISO 8601, the server's time)")
    scores: list[int] = Field(default_factory=list, description="every player's points (the final scores when over)")
    winners: list[str] = Field(default_factory=list, description="the players with the best score, when over")
