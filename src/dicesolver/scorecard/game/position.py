"""Positions in a scorecard game and their text notation.

Notation: ``CARD/DICE/ROLLS``

* CARD: the filled boxes as ``name=points`` separated by commas, in any order, names forgiving
  (``fh=25``, ``Full House=25``); ``bonus=N`` records extra-yacht bonus points already earned.
  An empty card is written as nothing (``/11345/2``); ``none`` also works (and ``-``, except as the
  first character of a command-line argument, where it would look like an option).
* DICE: the dice showing now (``11345``, any order, ``1-1-3-4-5`` also works), or ``-`` before the
  first roll of the turn.
* ROLLS: how many throws are still allowed after the dice showing (0 means: choose a category now).
  Before the first roll it is the game's rolls per turn and may be left out.

Examples (yahtzee): ``/-/3`` (start of the game), ``aces=3,full_house=25/11345/1``,
``yahtzee=50,bonus=100,sixes=30/66666/0``. ``format_position`` writes the canonical form (boxes in card
order, canonical names), and ``parse_position(format_position(p)) == p``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from ...core import numbers
from ...core.dice import Dice, format_dice, parse_dice
from ...core.errors import InputError
from .kernel_rules import group_of, progress_code
from .rules import ScorecardGame

BONUS_KEY = "bonus"


def showing(dice: Dice | None) -> Dice:
    """Dice that must be showing (InputError before a throw)."""
    if dice is None:
        raise InputError("no dice are showing yet")
    return dice


class CardFacts(NamedTuple):
    """What the position text and the engine's arrays read of a card, made once a card and game."""

    text: str  # canonical: boxes in card order, canonical names, then the bonus
    row: list[int]  # each box's points, -1 where open
    total: int  # points so far, bonuses included
    upper: int  # the upper section's sum


@dataclass(frozen=True)
class Position:
    """A moment in one player's game: the boxes filled so far, the dice showing, throws left."""

    boxes: tuple[int | None, ...]  # points in each box, None where open
    dice: Dice | None  # None: before the first roll of the turn
    rolls_left: int
    extra_bonus: int = 0  # extra-yacht bonus points earned so far

    @property
    def showing(self) -> Dice:
        """The dice showing (InputError before the first throw of the turn)."""
        return showing(self.dice)

    @cached_property
    def used(self) -> int:
        return sum(1 << c for c, v in enumerate(self.boxes) if v is not None)

    def upper_total(self, game: ScorecardGame) -> int:
        return sum(v for v, upper in zip(self.boxes, game.upper_boxes) if upper and v is not None)

    def progress(self, game: ScorecardGame) -> int:
        """Where the card stands on its way to the set bonuses: its progress code (``game/kernel_rules.py``)."""
        return progress_code(game, self.boxes)

    def group(self, game: ScorecardGame) -> int:
        """The card's yacht-flag group (``game/kernel_rules.py``)."""
        x = game.extra_yacht
        return group_of(game.kernel_rules, self.used, bool(x and self.boxes[x.category]), self.bonuses_paid(game))

    def total(self, game: ScorecardGame) -> int:
        """Points scored so far, with the set bonuses once earned (the upper bonus among them) and the
        extra-yacht bonuses."""
        return self.facts(game).total

    def bonuses_paid(self, game: ScorecardGame) -> int:
        """How many extra-yacht bonuses the card holds."""
        x = game.extra_yacht
        return self.extra_bonus // x.points if x is not None and x.points else 0

    @cached_property
    def points(self) -> int:
        """The points in the boxes (without bonuses)."""
        return sum(v for v in self.boxes if v is not None)

    @cached_property
    def filled(self) -> int:
        """How many boxes are filled."""
        return sum(v is not None for v in self.boxes)

    def is_over(self) -> bool:
        return self.filled == len(self.boxes)

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_facts"}  # not the game the memo names

    def facts(self, game: ScorecardGame) -> CardFacts:
        """The card's text, row, total and upper sum in ``game``, remembered (cards read from text are kept,
        and a position's text and arrays are asked for again and again)."""
        kept = self.__dict__.get("_facts")
        if kept is not None and kept[0] is game:
            return kept[1]
        names, items, row, points, upper = game.category_names, [], [], 0, 0
        for v, name, is_upper in zip(self.boxes, names, game.upper_boxes):  # one pass: a new card at every turn
            if v is None:
                row.append(-1)
                continue
            row.append(v)
            items.append(f"{name}={v}")
            points += v
            if is_upper:
                upper += v
        if self.extra_bonus:
            items.append(f"{BONUS_KEY}={self.extra_bonus}")
        total = with_bonuses(game, points, upper, self.extra_bonus)
        if game.set_bonuses:
            total += sum(b.points for b in game.set_bonuses if b.earned(self.boxes))
        facts = CardFacts(",".join(items), row, total, upper)
        self.__dict__["_facts"] = (game, facts)  # frozen to its fields; a memo as cached_property keeps one
        return facts


def with_bonuses(game: ScorecardGame, points: int, upper: int, extra_bonus: int) -> int:
    """A card's total from its boxes' points and upper sum: the upper bonus once earned, and the extra bonuses
    (the bonuses on other sets of boxes are the card's to add: ``Position.facts``)."""
    return points + extra_bonus + (game.upper_points if game.has_upper_bonus and upper >= game.upper_threshold else 0)


def start_position(game: ScorecardGame) -> Position:
    return Position((None,) * game.n_categories, None, game.rolls)


def format_position(game: ScorecardGame, position: Position) -> str:
    card = position.facts(game).text
    dice = "-" if position.dice is None else format_dice(position.dice, game.faces)
    return f"{card}/{dice}/{position.rolls_left}"


def parse_int(text: str, what: str) -> int:
    return numbers.parse_int(text, what)


def parse_card(game: ScorecardGame, text: str) -> tuple[tuple[int | None, ...], int]:
    boxes: list[int | None] = [None] * game.n_categories
    extra = 0
    text = text.strip()
    if text.lower() in ("", "-", "none", "empty"):
        return tuple(boxes), 0
    exact = game.category_by_name
    for item in text.split(","):
        name, sep, value = item.partition("=")
        c = exact.get(name)
        if c is not None and boxes[c] is None and numbers.is_digits(value) and len(value) <= numbers.MAX_DIGITS:
            boxes[c] = int(value)  # the canonical form, read without the forgiving path's steps
            continue
        item = item.strip()
        if not item:
            continue
        name, sep, value = item.replace(":", "=").partition("=")
        if not sep:
            raise InputError(f"write each filled box as name=points, not {item!r}")
        if name.strip().lower() == BONUS_KEY:
            extra = parse_int(value, "the bonus")
            continue
        c = game.category_index(name)
        if boxes[c] is not None:
            raise InputError(f"box {game.categories[c].name} is given twice")
        boxes[c] = parse_int(value, f"the points of {game.categories[c].name}")
    return tuple(boxes), extra


def read_card(game: ScorecardGame, text: str) -> Position:
    """A card's text as a checked turn-start position. Cards are remembered by their text, a few thousand a
    game: a game's decisions share their card, a turn's three of them, a two-person position's two cards
    ask again and again (reading and checking one was most of reading a position)."""
    cards = game.cards_read
    card = cards.get(text)
    if card is None:
        boxes, extra = parse_card(game, text)
        card = check_card(game, Position(boxes, None, game.rolls, extra))
        if len(cards) >= MAX_CARDS_READ:
            del cards[next(iter(cards))]  # the first read goes first: a game's cards come in turn order
        cards[text] = card
    return card


MAX_CARDS_READ = 16384  # about 1 KB each


def boxes_for_extra_yachts(game: ScorecardGame, boxes: tuple[int | None, ...]) -> int:
    """How many filled boxes (besides the yacht box) hold a score that a five of a kind could have earned
    there under the game's joker rules. Each extra yacht was scored in one of them. Each box is judged
    against the rest of the card as it is now, and again with the face's upper box still open, so that a
    card that could happen is never refused (the other boxes only fill up as a game goes on)."""
    x = game.extra_yacht
    assert x is not None
    upper = {cat.face: k for k, cat in enumerate(game.categories) if cat.is_upper}

    def could_score(c: int, v: int, face: int) -> bool:
        before = boxes[:c] + (None,) + boxes[c + 1:]
        cards = [before]
        if face in upper and upper[face] != c and before[upper[face]] is not None:
            # the face's upper box may have been filled only later (it decides what a joker scores)
            cards.append(before[:upper[face]] + (None,) + before[upper[face] + 1:])
        dice = (face,) * game.n_dice
        return any((c, v) in {(k, points) for k, points, _ in game.legal_scores(card, dice)} for card in cards)

    return sum(1 for c, v in enumerate(boxes) if c != x.category and v is not None
               and any(could_score(c, v, f) for f in range(1, game.faces + 1)))


def validate(game: ScorecardGame, position: Position) -> Position:
    """Check that a position could happen in this game; raise InputError naming what is wrong."""
    return check_moment(game, check_card(game, position))


def check_card(game: ScorecardGame, position: Position) -> Position:
    """Check that a position's card could happen in this game (its boxes, bonuses and order)."""
    if len(position.boxes) != game.n_categories:
        raise InputError(f"{game.name} has {game.n_categories} boxes")
    for c, v in enumerate(position.boxes):
        if v is None:
            continue
        if not game.is_possible_score(c, v):
            shown = ", ".join(map(str, game.possible_scores(c)))
            raise InputError(f"{v} is not a possible score for {game.categories[c].name} (possible: {shown})")
    x = game.extra_yacht
    if position.extra_bonus:
        if x is None or not x.points:
            raise InputError(f"{game.name} has no extra bonus points to record")
        if position.extra_bonus < 0 or position.extra_bonus % x.points:
            raise InputError(f"the bonus must be a multiple of {x.points}")
        if not position.boxes[x.category]:
            raise InputError(
                f"a bonus needs points in the {game.categories[x.category].name} box first"
            )
        if x.times and position.extra_bonus // x.points > x.times:
            raise InputError(f"the bonus is paid at most {'once' if x.times == 1 else f'{x.times} times'} in "
                             f"{game.name} (bonus={position.extra_bonus} holds {position.extra_bonus // x.points})")
        filled = sum(v is not None for v in position.boxes)
        if position.extra_bonus // x.points > filled - 1:
            raise InputError("more bonuses than turns played")
        if position.extra_bonus // x.points > boxes_for_extra_yachts(game, position.boxes):
            raise InputError(f"{position.extra_bonus // x.points} extra {game.categories[x.category].name}s "
                             "do not fit this card: too few boxes hold what a five of a kind could have scored there")
    if game.forced_order:
        used = [v is not None for v in position.boxes]
        if any(used[c + 1] and not used[c] for c in range(len(used) - 1)):
            raise InputError(f"{game.name} is played in card order: boxes must be filled from the top")
    return position


def check_moment(game: ScorecardGame, position: Position) -> Position:
    """Check that a position's dice and throws left fit its game and card (the card checked already)."""
    check_throw(game, position, position.dice, position.rolls_left)
    return position


def check_throw(game: ScorecardGame, card: Position, dice: Dice | None, rolls_left: int) -> None:
    """Check that ``dice`` showing with ``rolls_left`` throws left fit the game and ``card``."""
    if dice is None:
        if rolls_left != game.rolls:
            raise InputError(f"before the first roll there are {game.rolls} rolls left")
    else:
        if len(dice) != game.n_dice:
            raise InputError(f"{game.name} is played with {game.n_dice} dice, not {len(dice)}")
        if not 0 <= rolls_left < game.rolls:
            raise InputError(f"with dice showing, rolls left must be 0..{game.rolls - 1}, not {rolls_left}")
        if card.is_over():
            raise InputError("every box is filled: the game is over")


def parse_position(game: ScorecardGame, text: str) -> Position:
    if not isinstance(text, str) or not text.strip():
        raise InputError("no position given (write CARD/DICE/ROLLS, for example /11345/2)")
    parts = text.strip().split("/")
    if len(parts) not in (2, 3):
        raise InputError(f"write a position as CARD/DICE/ROLLS (for example /11345/2), not {text!r}")
    boxes, extra = parse_card(game, parts[0])
    dice_text = parts[1].strip()
    dice = None if dice_text in ("", "-") else parse_dice(dice_text, game.faces)
    if len(parts) == 3:
        rolls_left = parse_int(parts[2], "rolls left")
    elif dice is None:
        rolls_left = game.rolls
    else:
        raise InputError(f"say how many rolls are left after the dice: {text.strip()}/N")
    return validate(game, Position(boxes, dice, rolls_left, extra))


def after_roll(position: Position, dice: Dice) -> Position:
    """The position once ``dice`` show (the first throw of a turn, or a re-throw)."""
    rolls_left = position.rolls_left - 1
    if rolls_left < 0:
        raise InputError("no throws left this turn: choose a category")
    return Position(position.boxes, tuple(sorted(dice)), rolls_left, position.extra_bonus)


def after_score(game: ScorecardGame, position: Position, category: int) -> Position:
    """The start of the next turn after scoring the dice showing in ``category``."""
    if position.dice is None:
        raise InputError("roll the dice before scoring")
    for c, points, extra in game.legal_scores(position.boxes, position.dice, position.bonuses_paid(game)):
        if c == category:
            boxes = position.boxes[:c] + (points,) + position.boxes[c + 1:]
            return Position(boxes, None, game.rolls, position.extra_bonus + extra)
    name = game.categories[category].name if 0 <= category < game.n_categories else str(category)
    if 0 <= category < game.n_categories and position.boxes[category] is not None:
        raise InputError(f"{name} is already filled")
    raise InputError(f"{name} may not be used for {format_dice(position.dice, game.faces)} now (joker rule)")
