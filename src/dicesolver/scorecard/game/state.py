"""Scorecard games behind the game protocol: states, actions and outcomes, with their text forms.

A state's text is the position language of ``position.py`` for every player: ``CARDS/DICE/ROLLS``.

* CARDS: each player's card (``name=points,...``; empty: nothing or ``none``), separated by ``;``, the
  player to move first and the others in turn order after them (``MOVER;NEXT;...``). The mover has
  filled as many boxes as each player after them or one fewer, so the seats (0 moves first) follow
  from the cards. At the end of the game the cards are listed from seat 0.
* DICE: the dice showing (``11345``); ``-`` before the turn's first throw; ``113+`` while 1-1-3 are
  held and the other dice are about to be thrown again (``+`` alone: nothing held).
* ROLLS: throws still allowed; while a throw is due it is counted.

Actions: ``keep 113`` (hold those dice and throw the others again; ``keep none``; keeping every die
passes a throw) and ``score fives`` (score the dice showing in a box, which ends the turn; allowed
while throws remain: standing).
Outcomes: the dice showing after a throw (``11345``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import ClassVar

from ...core.dice import Dice, DiceSpace, format_dice, is_sub_multiset, parse_dice, sub_keeps
from ...core.errors import InputError
from ...core.numbers import is_digits
from ...core.protocol import seat_on_turn
from .position import Position, after_score, check_throw, parse_int, read_card, showing
from .rules import ScorecardGame

MAX_PLAYERS = 6


@dataclass(frozen=True)
class Keep:
    """Hold these dice and throw the others again."""

    dice: Dice
    faces: int = field(default=6, compare=False)
    kind: ClassVar[str] = "keep"

    @cached_property
    def label(self) -> str:
        return format_dice(self.dice, self.faces)

    @cached_property
    def text(self) -> str:
        return f"keep {self.label if self.dice else 'none'}"

    def __str__(self) -> str:
        return self.text


@lru_cache(maxsize=4096)
def _keeps(roll: Dice, faces: int) -> tuple[Keep, ...]:
    """Every keep of a roll as a step, made once per roll (with its words, which advice prints for each)."""
    return tuple(Keep(k, faces) for k in sub_keeps(roll))


@dataclass(frozen=True)
class Score:
    """Score the dice showing in a box (``points``: what this adds to the total now, bonuses included)."""

    category: int
    name: str = field(compare=False)
    points: int = field(default=0, compare=False)
    kind: ClassVar[str] = "score"

    @property
    def label(self) -> str:
        return self.name

    def __str__(self) -> str:
        return f"score {self.name}"


@dataclass(frozen=True)
class Roll:
    """The dice showing after a throw."""

    dice: Dice
    faces: int = field(default=6, compare=False)
    kind: ClassVar[str] = "roll"

    @property
    def label(self) -> str:
        return format_dice(self.dice, self.faces)

    def __str__(self) -> str:
        return self.label


@lru_cache(maxsize=4096)
def _throws(dice: DiceSpace, held: Dice) -> tuple[tuple[Roll, float], ...]:
    """Every roll a throw can show with ``held`` kept, as chance outcomes with their probabilities: made once
    a keep (252 for five dice thrown, 0.1 ms to make), as ``chance_outcomes`` is asked for them at every
    throw."""
    return tuple((Roll(r, dice.faces), p) for r, p in dice.outcomes(held))


def game_result(totals: list[int], seat: int) -> float:
    """A seat's result with n players: win n - 1, k tied leaders (n - k) / k each, everyone else -1."""
    top = max(totals)
    k = totals.count(top)
    return (len(totals) - k) / k if totals[seat] == top else -1.0


def card_text(game: ScorecardGame, card: Position) -> str:
    return card.facts(game).text


@dataclass(frozen=True)
class ScorecardState:
    """A moment of a scorecard game for any number of players (see the module's docstring)."""

    game: ScorecardGame = field(compare=False, repr=False)
    cards: tuple[Position, ...]  # every seat's card (turn-start positions), by seat
    dice: Dice | None = None  # the dice showing; None while a throw is due
    held: Dice = ()  # the dice held for the throw that is due
    rolls_left: int = 0  # throws still allowed, a due throw included
    rules: str = field(default="", init=False, repr=False)  # the game's identity, for equality

    def __post_init__(self) -> None:
        if self.game.players != len(self.cards):
            object.__setattr__(self, "game", self.game.with_players(len(self.cards)))
        object.__setattr__(self, "rules", f"{self.game.canonical}#{len(self.cards)}")

    # -- whose turn ------------------------------------------------------------------------------
    @cached_property
    def player(self) -> int | None:
        filled = [c.filled for c in self.cards]
        if min(filled) == self.game.n_categories:
            return None
        return filled.index(min(filled))

    def to_move(self) -> int | None:
        return self.player if self.dice is not None else None

    def is_chance(self) -> bool:
        return self.dice is None and self.player is not None

    def is_terminal(self) -> bool:
        return self.player is None

    @property
    def mover(self) -> int:
        """The seat on turn (InputError at the end)."""
        return seat_on_turn(self)

    @property
    def showing(self) -> Dice:
        """The dice showing (InputError before a throw)."""
        return showing(self.dice)

    @property
    def card(self) -> Position:
        """The card of the player on turn."""
        return self.cards[self.player if self.player is not None else 0]

    @property
    def position(self) -> Position:
        """The player on turn's moment as a one-player ``Position`` (at a decision, or a turn start)."""
        card = self.card
        if self.dice is None and self.held == () and self.rolls_left == self.game.rolls:
            return card
        if self.dice is None:
            raise InputError("a re-throw is due: the moment is not a position with dice showing")
        return Position(card.boxes, self.dice, self.rolls_left, card.extra_bonus)

    def opponents(self, seat: int | None = None) -> list[Position]:
        """The other seats' cards, in turn order after ``seat`` (default: the player on turn)."""
        seat = self.mover if seat is None else seat
        n = len(self.cards)
        return [self.cards[(seat + k) % n] for k in range(1, n)]

    # -- the protocol ----------------------------------------------------------------------------
    def legal_actions(self) -> list[Keep | Score]:
        if self.dice is None or self.player is None:
            return []
        game = self.game
        if self.rolls_left == 0:
            return self._scores()
        keeps = _keeps(self.dice, game.faces)
        # keeping every die (throwing none) last: where it ties with scoring now, scoring is the advice
        return [*keeps[:-1], *self._scores(), keeps[-1]]

    def _scores(self, only: int | None = None) -> list[Keep | Score]:
        """Every legal box, with the points it adds now: the box's, an extra-yacht bonus, and the set
        bonuses (the upper one among them) this box reaches (what ``after_score`` adds to the card's total);
        ``only``: the only-th of them alone (a list of one)."""
        game, card = self.game, self.card
        legal = game.legal_scores(card.boxes, self.showing, card.bonuses_paid(game))
        if only is not None:
            legal = legal[only:only + 1]
        out: list[Keep | Score] = []
        if game.set_bonuses:  # any set of boxes: each bonus summed again after the box
            earned = card.facts(game).total - card.extra_bonus - card.points
            for c, points, extra in legal:
                bonus = game.bonuses_earned(card.boxes[:c] + (points,) + card.boxes[c + 1:]) - earned
                out.append(Score(c, game.categories[c].name, points + extra + bonus))
            return out
        upper = card.facts(game).upper  # the upper bonus alone: from the upper sum
        below = game.has_upper_bonus and upper < game.upper_threshold
        for c, points, extra in legal:
            category = game.categories[c]
            bonus = game.upper_points if below and category.is_upper and upper + points >= game.upper_threshold else 0
            out.append(Score(c, category.name, points + extra + bonus))
        return out

    def action_at(self, index: int) -> Keep | Score:
        """``legal_actions()[index]``, made alone: the best option of an advice needs no other (the boxes'
        Scores were most of its time)."""
        if self.dice is None or self.player is None:
            raise IndexError(index)
        if self.rolls_left == 0:
            return self._scores(index)[0]
        keeps = _keeps(self.dice, self.game.faces)
        if index < len(keeps) - 1:
            return keeps[index]
        card = self.card
        boxes = len(self.game.legal_scores(card.boxes, self.showing, card.bonuses_paid(self.game)))
        if index == len(keeps) - 1 + boxes:  # keeping every die: last
            return keeps[-1]
        return self._scores(index - (len(keeps) - 1))[0]

    def chance_outcomes(self) -> list[tuple[Roll, float]]:
        if not self.is_chance():
            return []
        return list(_throws(self.game.dice, self.held))

    def apply(self, step) -> ScorecardState:
        game = self.game
        if self.is_terminal():
            raise InputError("the game is over")
        if isinstance(step, Roll):
            if self.dice is not None:
                raise InputError("no throw is due: keep dice or score")
            dice = tuple(sorted(step.dice))
            if len(dice) != game.n_dice or not is_sub_multiset(self.held, dice):
                raise InputError(f"a throw holding {format_dice(self.held, game.faces)} cannot show "
                                 f"{format_dice(dice, game.faces)}")
            return replace(self, dice=dice, held=(), rolls_left=self.rolls_left - 1)
        if self.dice is None:
            raise InputError("the dice are to be thrown first")
        if isinstance(step, Keep):
            keep = tuple(sorted(step.dice))
            if self.rolls_left <= 0:
                raise InputError("no throws left this turn: score the dice")
            if not is_sub_multiset(keep, self.dice):
                raise InputError(f"cannot keep {format_dice(keep, game.faces)} from {format_dice(self.dice, game.faces)}")
            return replace(self, dice=None, held=keep)
        if isinstance(step, Score):
            scored = after_score(game, self.position, step.category)
            card = Position(scored.boxes, None, game.rolls, scored.extra_bonus)
            seat = self.mover
            cards = self.cards[:seat] + (card,) + self.cards[seat + 1:]
            return ScorecardState(game, cards, None, (), game.rolls)
        raise InputError(f"{step!r} is not a move of {game.name}")

    def returns(self) -> tuple[float, ...]:
        if not self.is_terminal():
            raise InputError("the game is not over")
        totals = [c.total(self.game) for c in self.cards]
        if len(totals) == 1:
            return (float(totals[0]),)
        return tuple(game_result(totals, s) for s in range(len(totals)))

    def parse_step(self, text: str) -> Keep | Score | Roll:
        game = self.game
        t = str(text).strip()
        if self.is_terminal():
            raise InputError("the game is over")
        if self.dice is None:  # a throw: all the dice showing after it, or just the thrown ones
            dice = parse_dice(t, game.faces)
            if len(dice) == game.n_dice - len(self.held) and len(self.held):
                dice = tuple(sorted(self.held + dice))
            if len(dice) != game.n_dice:
                raise InputError(f"type {game.n_dice - len(self.held)} dice, not {len(dice)}")
            step: Keep | Score | Roll = Roll(dice, game.faces)
            self.apply(step)
            return step
        low = t.lower()
        words = low.split(maxsplit=1)
        verb = words[0] if words else ""
        rest = words[1] if len(words) > 1 else ""
        if verb == "keep" or (low and (is_digits(low[0]) or low in ("none", "-", "nothing"))):
            keep = game.dice.parse_keep(rest if verb == "keep" else t, roll=self.dice)
            step = Keep(keep, game.faces)
        else:
            name = rest if verb == "score" else t
            if name.lower().startswith("in "):
                name = name[3:]
            name = name.split("(")[0]  # "aces (4)" as a hint shows it
            scores = [s for s in self._scores() if isinstance(s, Score)]
            boxes = ", ".join(s.name for s in scores)
            try:
                c = game.category_index(name)
            except InputError:
                if self.rolls_left > 0 and verb != "score":
                    raise InputError(f"{t!r} is not a die to keep or an open box (keep dice like 113, or score in: "
                                     f"{boxes})") from None
                raise InputError(f"{name.strip()!r} is not an open box (boxes: {boxes})") from None
            chosen = next((s for s in scores if s.category == c), None)
            if chosen is None:
                after_score(game, self.position, c)  # raises the reason
                raise InputError(f"{game.categories[c].name} may not be used now")
            step = chosen
        self.apply(step)
        return step

    def turn_key(self) -> tuple | None:
        return None if self.player is None else (self.player, self.card.filled)

    def brief(self) -> str:
        faces = self.game.faces
        if self.is_terminal():
            return "game over"
        left = f"{self.rolls_left} throw{'s' if self.rolls_left != 1 else ''} left"
        if self.dice is not None:
            return f"{format_dice(self.dice, faces)}, {left}"
        if self.held or self.rolls_left < self.game.rolls:
            return f"holding {format_dice(self.held, faces) if self.held else 'nothing'}, {left}"
        return "turn start"

    def __str__(self) -> str:
        n = len(self.cards)
        first = self.player or 0
        cards = ";".join(card_text(self.game, self.cards[(first + k) % n]) for k in range(n))
        if self.dice is not None:
            dice = format_dice(self.dice, self.game.faces)
        elif self.held or self.rolls_left < self.game.rolls:
            dice = (format_dice(self.held, self.game.faces) if self.held else "") + "+"
        else:
            dice = "-"
        return f"{cards}/{dice}/{self.rolls_left}"


def start_state(game: ScorecardGame, players: int = 1) -> ScorecardState:
    check_players(players)
    card = Position((None,) * game.n_categories, None, game.rolls)
    return ScorecardState(game, (card,) * players, None, (), game.rolls)


def check_players(players: int) -> None:
    if not 1 <= players <= MAX_PLAYERS:
        raise InputError(f"scorecard games are played by 1 to {MAX_PLAYERS} players, not {players}")


def parse_state(game: ScorecardGame, text: str) -> ScorecardState:
    """A state from ``CARDS/DICE/ROLLS`` (see the module's docstring)."""
    if not isinstance(text, str) or not text.strip():
        raise InputError("no position given (write CARD/DICE/ROLLS, for example /11345/2)")
    parts = text.strip().split("/")
    if len(parts) not in (2, 3):
        raise InputError(f"write a position as CARD/DICE/ROLLS (for example /11345/2), not {text!r}")
    listed = parts[0].split(";")
    check_players(len(listed))
    cards = []
    for card_part in listed:
        cards.append(read_card(game, card_part))
    filled = [c.filled for c in cards]
    k = filled[0]
    behind = len(listed) - sum(1 for f in filled if f == k)
    if any(f not in (k, k + 1) for f in filled) or filled != sorted(filled) or (k == game.n_categories and behind):
        raise InputError("list the cards from the player to move, in turn order: the player to move has filled as "
                         "many boxes as each player after them, or one fewer "
                         f"(here {', '.join(map(str, filled))})")
    n = len(cards)
    by_seat = [cards[(k2 - behind) % n] for k2 in range(n)]  # listed i sits in seat (behind + i) mod n
    dice_text = parts[1].strip()
    held: Dice = ()
    dice: Dice | None = None
    if dice_text.endswith("+"):
        held = parse_dice(dice_text[:-1], game.faces, allow_empty=True)
    elif dice_text not in ("", "-"):
        dice = game.rolls_by_text.get(dice_text) or parse_dice(dice_text, game.faces)
    if len(parts) == 3:
        rolls_left = parse_int(parts[2], "rolls left")
    elif dice is None and not dice_text.endswith("+"):
        rolls_left = game.rolls
    else:
        raise InputError(f"say how many throws are left: {text.strip()}/N")
    if k == game.n_categories:
        if dice is not None or held:
            raise InputError("every box is filled: the game is over")
        return ScorecardState(game, tuple(by_seat), None, (), game.rolls)
    if dice is not None:
        check_throw(game, cards[0], dice, rolls_left)
    elif dice_text.endswith("+"):
        if len(held) > game.n_dice:
            raise InputError(f"{game.name} is played with {game.n_dice} dice")
        if not 1 <= rolls_left < game.rolls:
            raise InputError(f"while a re-throw is due, throws left must be 1..{game.rolls - 1}, not {rolls_left}")
    elif rolls_left != game.rolls:
        raise InputError(f"before the first roll there are {game.rolls} rolls left")
    return ScorecardState(game, tuple(by_seat), dice, held, rolls_left)
