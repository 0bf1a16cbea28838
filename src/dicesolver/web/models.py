"""The JSON API's request and response models (the same fields as the command line's ``--json``)."""

from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, Field

GameName = Field(..., min_length=1, max_length=200, description="a game string, e.g. yahtzee, yacht(dice=6), skunk, despirala")


class CategoryInfo(BaseModel):
    name: str
    title: str
    max_points: int


class GameInfo(BaseModel):
    name: str
    title: str
    kind: Literal["scorecard", "push", "despirala"]
    rules: list[str] = []
    dice: int = 0
    faces: int = 6
    rolls: int = 0
    goal: int = 0
    categories: list[CategoryInfo] = []
    combinations: list[str] = []
    bots: list[str] = []


class JobView(BaseModel):
    id: str
    label: str
    state: Literal["running", "done", "failed"]
    done: int
    total: int
    error: str = ""


class Pending(BaseModel):
    """A table is being loaded or solved: ask again when the job is done."""

    status: Literal["solving"] = "solving"
    job: JobView


class AdviceRequest(BaseModel):
    game: str = GameName
    position: str = Field(..., min_length=1, max_length=2000, description=(
        "scorecard games: CARD/DICE/ROLLS (e.g. 'aces=3,fh=25/11345/1'); pig, skunk, big-pig: MINE,THEIRS,TURN_TOTAL; "
        "despirala: USED;GOODS;DICE (e.g. 'none;5;113456')"))


class AdviceOption(BaseModel):
    option: str
    kind: str = ""
    value: float
    cost: float
    points: Optional[int] = None


class AdviceResponse(BaseModel):
    game: str
    kind: Literal["scorecard", "push", "despirala"]
    position: str
    value: Optional[float] = Field(None, description="the value with best play from here")
    unit: str = Field(..., description="what values are: expected final score, or probability of winning")
    higher_is_better: bool = True
    options: list[AdviceOption]
    details: dict[str, Any] = {}


class PlayRequest(BaseModel):
    game: str = GameName
    opponents: list[str] = Field([], max_length=5, description="bots by name (see GET /api/games)")
    seed: Optional[int] = Field(None, ge=0, le=2**31 - 1)
    manual_dice: bool = False
    first: Literal["you", "bot", "random"] = "random"


class SendRequest(BaseModel):
    line: str = Field(..., max_length=200, description="what you would type at the terminal prompt")


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


class ReviewRequest(BaseModel):
    record: str = Field(..., min_length=1, max_length=1_000_000, description="the JSON Lines text of a game record")
    player: int = Field(0, ge=0, le=5)


class ReviewResponse(BaseModel):
    kind: Literal["push", "despirala", "duel", "mindful", "solitaire"]
    summary: dict[str, Any]
    decisions: list[dict[str, Any]]
    events: list[dict[str, Any]]
    timeline: list[list[float]]
    plot: str = Field(..., description="the timeline as a PNG data URL")


class RecordInfo(BaseModel):
    name: str
    game: str
    players: list[str]
    over: bool


class OddsRow(BaseModel):
    category: str
    max_points: int
    expected_points: float
    p_max: float
