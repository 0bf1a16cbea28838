"""The schema of a scorecard rules file: every key, its type and its range, checked before a game is built.

A rules file is user input, so it is read strictly: no key the schema does not name, no ``true`` for a
number or ``"yes"`` for a flag, no number beyond what a game could use. A failure is one
``GameDefinitionError`` naming the key (``categories[3] "full_house".points: ...``). What depends on
other keys (a face within the dice's faces, a joker box among the categories) is checked where the game
is built (rules.py, scoring.py).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from ...core.errors import GameDefinitionError

MAX_CATEGORIES = 20  # Maxi Yatzy's card; the solitaire table indexes used boxes by a bitmask
MAX_ROLLS = 6
MAX_POINTS = 10_000  # far above any real game, far below what the kernels' integers hold
MAX_BONUSES = 3  # set bonuses besides the upper one: each multiplies a card's states by its threshold
MAX_TIMES = 8  # a yacht bonus paid at most this many times: each adds a state to a card whose yacht box is used
MAX_DOTS_PER_LINE = 64  # a dotted key of thousands of parts costs the TOML parser quadratic time

Word = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=32)]
Choice = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_]*$", max_length=32)]
GameName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_-]*$", max_length=32)]
Alias = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_ -]*$", max_length=32)]
Line = Annotated[str, StringConstraints(pattern=r"^[^\x00-\x1f\x7f]*$", max_length=60)]
Text = Annotated[str, StringConstraints(max_length=500)]
Points = Annotated[int, Field(ge=0, le=MAX_POINTS)]
Face = Annotated[int, Field(ge=1, le=20)]


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)


class _Category(_Table):
    name: Word
    title: Line | None = None
    aliases: Annotated[list[Alias], Field(max_length=20)] = []


class Upper(_Category):
    kind: Literal["upper"]
    face: Face


class NOfAKind(_Category):
    kind: Literal["n_of_a_kind"]
    n: Annotated[int, Field(ge=2, le=8)]
    points: Literal["sum_all", "sum_those"] | Points = "sum_all"


class Yacht(_Category):
    kind: Literal["yacht"]
    points: Points = 50


class FullHouse(_Category):
    kind: Literal["full_house"]
    points: Literal["sum"] | Points = "sum"
    five_of_a_kind: bool = False


class Straight(_Category):
    kind: Literal["straight"]
    points: Points
    length: Annotated[int, Field(ge=2, le=20)] | None = None
    faces: Annotated[list[Face], Field(min_length=1, max_length=8)] | Annotated[
        list[Annotated[list[Face], Field(min_length=1, max_length=8)]], Field(min_length=1, max_length=64)
    ] | None = None

    @model_validator(mode="after")
    def _length_or_faces(self) -> Straight:
        if (self.length is None) == (self.faces is None):
            raise ValueError("a straight needs either length or faces, not both")
        return self


class Pair(_Category):
    kind: Literal["pair"]


class TwoPairs(_Category):
    kind: Literal["two_pairs"]
    four_of_a_kind: bool = False


class Groups(_Category):
    kind: Literal["groups"]
    sizes: Annotated[list[Annotated[int, Field(ge=1, le=8)]], Field(min_length=1, max_length=8)]
    points: Literal["sum"] | Points = "sum"


class Chance(_Category):
    kind: Literal["chance"]


class SumEquals(_Category):
    kind: Literal["sum_equals"]
    total: Annotated[int, Field(ge=1, le=160)]
    points: Points
    needs_pair: bool = False


Category = Annotated[
    Union[Upper, NOfAKind, Yacht, FullHouse, Straight, Pair, TwoPairs, Groups, Chance, SumEquals],
    Field(discriminator="kind"),
]


class UpperBonus(_Table):
    threshold: Annotated[int, Field(ge=1, le=1_000)]
    points: Points


class SetBonus(_Table):
    """A bonus paid once when the boxes named reach a threshold together (the upper bonus is one, on the
    upper boxes; a lower-section bonus is another)."""

    name: Word
    title: Line | None = None
    boxes: Annotated[list[Word], Field(min_length=1, max_length=MAX_CATEGORIES)]
    threshold: Annotated[int, Field(ge=1, le=1_000)]
    points: Points


class YahtzeeBonus(_Table):
    category: Word
    enabled: bool = True
    points: Points = 100
    times: Annotated[int, Field(ge=0, le=MAX_TIMES)] = 0  # further yachts paid at most (0: every one)
    joker: Literal["none", "forced", "free"] = "none"
    joker_categories: Annotated[list[Word], Field(max_length=MAX_CATEGORIES)] = []


# What a variant may change: the rules' numbers and switches, never the game's name, type or variants.
PATCHABLE = {
    "title", "summary", "dice", "faces", "rolls", "order",
    "upper_bonus.threshold", "upper_bonus.points",
    *(f"yahtzee_bonus.{key}" for key in YahtzeeBonus.model_fields),
}
PATCHABLE_CATEGORY_FIELDS = {"title", "aliases", "face", "n", "points", "five_of_a_kind", "length", "faces",
                             "four_of_a_kind", "total", "needs_pair", "sizes"}


class Variant(_Table):
    help: Text = ""
    default: Choice | None = None
    values: Annotated[dict[Choice, dict[str, Any]], Field(min_length=1, max_length=16)]

    @model_validator(mode="after")
    def _known_default_and_paths(self) -> Variant:
        if self.default is not None and self.default not in self.values:
            raise ValueError(f"default {self.default!r} is not one of its values ({', '.join(self.values)})")
        for value, patch in self.values.items():
            for path in patch:
                parts = path.split(".")
                known = (path in PATCHABLE) or (
                    len(parts) == 3 and parts[0] == "categories" and parts[2] in PATCHABLE_CATEGORY_FIELDS
                )
                if not known:
                    raise ValueError(f"value {value!r} patches {path!r}, which a variant cannot change "
                                     "(a rules key such as 'rolls', 'upper_bonus.points' or 'categories.NAME.points')")
        return self


class RulesFile(_Table):
    name: GameName
    type: Literal["scorecard"] = "scorecard"
    title: Line | None = None
    summary: Text = ""
    dice: Annotated[int, Field(ge=1, le=8)]
    faces: Annotated[int, Field(ge=2, le=20)] = 6
    rolls: Annotated[int, Field(ge=1, le=MAX_ROLLS)] = 3
    categories: Annotated[list[Category], Field(min_length=1, max_length=MAX_CATEGORIES)]
    upper_bonus: UpperBonus | None = None
    bonuses: Annotated[list[SetBonus], Field(max_length=MAX_BONUSES)] = []
    yahtzee_bonus: YahtzeeBonus | None = None
    order: Literal["free", "forced"] = "free"
    variants: Annotated[dict[Word, Variant], Field(max_length=16)] = {}

    @model_validator(mode="after")
    def _every_category_can_be_named(self) -> RulesFile:
        owner: dict[str, int] = {}
        for i, cat in enumerate(self.categories):
            for word in {normalize_name(w) for w in (cat.name, cat.title or "", *cat.aliases)} - {""}:
                if owner.setdefault(word, i) != i:
                    other = self.categories[owner[word]].name
                    raise ValueError(f"categories: {word!r} would name both {other!r} and {cat.name!r}"
                                     " (names, titles and aliases must tell the boxes apart)")
        return self


def normalize_name(text: str) -> str:
    """The one rule for matching what a player types to a box: case, spaces and punctuation ignored."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def check_rules(definition: Any, where: str) -> RulesFile:
    """The rules file, or one GameDefinitionError naming the first key the schema refuses."""
    try:
        return RulesFile.model_validate(definition)
    except ValidationError as exc:
        raise GameDefinitionError(f"{where}: {describe(exc.errors(), definition)}") from None


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"' + r"|'[^']*'")


def check_toml_text(text: str, where: str) -> None:
    """Refuse, before parsing, the shapes that make a TOML parser slow or deep (see MAX_DOTS_PER_LINE)."""
    for number, line in enumerate(text.splitlines(), 1):
        bare = _STRINGS.sub("", line)  # dots inside strings do not count
        if bare.count(".") > MAX_DOTS_PER_LINE:
            raise GameDefinitionError(f"{where}: line {number} has a key of more than {MAX_DOTS_PER_LINE} parts")


_PATTERNS = {
    Word: "a lower-case word (a-z, 0-9 and _, starting with a letter)",
    Choice: "a lower-case word or number (a-z, 0-9 and _)",
    GameName: "a lower-case word (a-z, 0-9, - and _, starting with a letter)",
    Alias: "letters, digits, spaces, - and _, starting with a letter or digit",
    Line: "one line of text",
}
_PATTERN_WORDS = {str(t.__metadata__[0].pattern): words for t, words in _PATTERNS.items()}  # type: ignore[attr-defined]
_KINDS = "upper, n_of_a_kind, yacht, full_house, straight, pair, two_pairs, chance, sum_equals"


def describe(errors: list[Any], definition: Any) -> str:
    """The first key pydantic refused, as 'key: what is wrong (got value)', written as in the file.

    A key that may take one of several types (points: a number or "sum_all") fails once per type; those
    failures are joined into one sentence.
    """
    first = _key_path(tuple(errors[0]["loc"]), definition)
    same = [e for e in errors if _key_path(tuple(e["loc"]), definition) == first]
    messages: list[str] = []
    for error in same:
        message = _message(error)
        if message not in messages:
            messages.append(message)
    text = messages[0] + "".join(" or " + m.removeprefix("should be ") for m in messages[1:])
    if errors[0]["type"] not in ("missing", "value_error", "union_tag_invalid", "union_tag_not_found"):
        value = repr(errors[0].get("input"))
        text += f" (got {value if len(value) <= 40 else value[:37] + '...'})"
    return f"{first}: {text}" if first else text


def _message(error: Any) -> str:
    kind = error["type"]
    if kind == "string_pattern_mismatch":
        return "should be " + _PATTERN_WORDS.get(str(error["ctx"]["pattern"]), "a plain word")
    if kind == "union_tag_invalid":
        return f"unknown kind {error['ctx']['tag']!r} (kinds: {_KINDS})"
    if kind == "union_tag_not_found":
        return f"a category needs a kind (kinds: {_KINDS})"
    if kind == "extra_forbidden":
        return "unknown key (the keys are listed by 'dicesolver docs input')"
    if kind == "missing":
        return "missing"
    message = str(error["msg"]).removeprefix("Value error, ")
    if message.startswith("Input should be"):
        return "should be" + message.removeprefix("Input should be")
    return message


def _key_path(loc: tuple[Any, ...], definition: Any) -> str:
    """('categories', 6, 'n_of_a_kind', 'points', 'constrained-int') -> 'categories[6] "x".points'."""
    text = ""
    node = definition
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
            node = node[part] if isinstance(node, list) and 0 <= part < len(node) else None
            if text.startswith("categories") and isinstance(node, dict) and isinstance(node.get("name"), str):
                text += f" {node['name']!r}"
            continue
        if isinstance(node, dict) and part == node.get("kind") and part not in node:
            continue  # pydantic names the branch of a tagged union; the file does not
        if part.startswith(("function-", "literal[", "constrained-", "list[", "str", "int", "bool")):
            continue  # likewise the branch of a plain union
        text += f".{part}" if text else str(part)
        node = node.get(part) if isinstance(node, dict) else None
    return text
