"""The text of a Despirala state, for any number of players.

The player to move comes first, then the others in turn order, separated by `` | ``. The mover's part is
the advice language ``USED;GOODS;DICE`` with what is pending after it:

* ``USED``: the combinations used (``Straight,Collect 3``), ``none``, or ``all`` once the sheet is full;
* ``GOODS``: the goods held now (this turn's 5 included);
* ``DICE``: the six dice showing, or ``-`` while the turn's throw (or a Reroll's) is due;
* then, when something is pending: ``completing Three pairs 3 5 6`` (the missing dice are being
  thrown), ``collecting 3s: 4`` (Continue or Stop) or ``collecting 3s: 4, rethrowing`` (the non-3s are
  being thrown);
* and ``points N`` when the player has scored points.

The other players' parts are ``USED;GOODS`` (and ``points N``). At the end of the game every part is a
sheet, listed from seat 0: ``all;3;points 412``. Example: ``none;5;113456`` (a first throw), or for two
players ``Straight;7;-;points 50 | Kamerun;5;points 45``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.numbers import is_digits
from .rules import (
    ALL_FREE,
    COMBINATIONS,
    GOODS_PER_TURN,
    N_DICE,
    TURNS,
    combination_by_name,
    format_throw,
    parse_move,
    parse_throw,
)

if TYPE_CHECKING:
    from .rules import DespiralaGame
    from .state import DespiralaState, Seat

SEPARATOR = " | "
_COLLECTING = re.compile(r"^collecting\s+([1-6])s?\s*:\s*([0-9])\s*(,\s*rethrowing)?$")


# a position's text is read and written once per piece of advice, and its list of used combinations was
# a third of that: the lists a process meets are remembered (a few thousand of the 16,384)
@lru_cache(maxsize=4096)
def used_text(free: int) -> str:
    if free == 0:
        return "all"
    used = [c.name for c in COMBINATIONS if not free & (1 << c.index)]
    return ",".join(used) or "none"


@lru_cache(maxsize=4096)
def parse_used(text: str) -> int:
    """The free combinations from the used ones (``none``, ``all``, or comma-separated names)."""
    t = text.strip()
    if t.lower() == "all":
        return 0
    free = ALL_FREE
    if t.lower() not in ("", "-", "none"):
        for name in t.split(","):
            c = combination_by_name(name)
            if not free & (1 << c.index):
                raise InputError(f"{c.name} is listed twice")
            free &= ~(1 << c.index)
    return free


def _sheet(seat: Seat) -> str:
    return f"{used_text(seat.free)};{seat.goods}" + (f";points {seat.points}" if seat.points else "")


def state_text(state: DespiralaState) -> str:
    from .state import COLLECT, COMPLETE, HITS, THROW

    n = len(state.seats)
    if state.over:
        return SEPARATOR.join(_sheet(s) for s in state.seats)
    me = state.seat
    parts = [f"{used_text(me.free)};{me.goods};{'-' if state.phase == THROW else format_throw(state.dice)}"]
    if state.phase == COMPLETE:
        combo = COMBINATIONS[state.combination]
        parts.append("completing " + " ".join([combo.name] + [str(a) for a in state.args]))
    elif state.phase in (COLLECT, HITS):
        face = COMBINATIONS[state.combination].collect_face()
        parts.append(f"collecting {face}s: {state.have}" + (", rethrowing" if state.phase == HITS else ""))
    if me.points:
        parts.append(f"points {me.points}")
    others = [_sheet(state.seats[(state.mover + k) % n]) for k in range(1, n)]
    return SEPARATOR.join([";".join(parts)] + others)


def _int(text: str, what: str) -> int:
    t = text.strip()
    if not is_digits(t) or len(t) > 6:
        raise InputError(f"{what} must be a whole number, not {text!r}")
    return int(t)


def _sheet_fields(fields: list[str], where: str) -> tuple[int, int, int, list[str]]:
    """(free, goods, points, the other fields) of one player's part."""
    if len(fields) < 2:
        raise InputError(f"{where}: write USED;GOODS;DICE (e.g. 'none;5;113456')")
    free = parse_used(fields[0])
    goods = _int(fields[1], "goods")
    points = 0
    rest = []
    for f in fields[2:]:
        low = f.strip().lower()
        if low.startswith("points"):
            points = _int(low[len("points"):], "points")
        else:
            rest.append(f.strip())
    turns_played = TURNS - bin(free).count("1")
    most = GOODS_PER_TURN * min(turns_played + 1, TURNS)
    if not 0 <= goods <= most:
        raise InputError(f"{where}: after {turns_played} turns a player holds 0 to {most} goods, not {goods}")
    return free, goods, points, rest


def parse_state(game: DespiralaGame, text: str) -> DespiralaState:
    """A state from its text (see the module's docstring); the advice language ``USED;GOODS;DICE`` too."""
    from .state import COLLECT, COMPLETE, DECIDE, HITS, OVER, THROW, DespiralaState, Seat

    if not isinstance(text, str) or not text.strip():
        raise InputError("no position given (write USED;GOODS;DICE, e.g. 'none;5;113456')")
    parts = [p.strip() for p in text.split("|")]
    if not 1 <= len(parts) <= 6:
        raise InputError("Despirala is played by 1 to 6 players")
    sheets = [_sheet_fields(p.split(";"), f"player {k + 1}") for k, p in enumerate(parts)]
    used = [TURNS - bin(free).count("1") for free, _, _, _ in sheets]
    if all(u == TURNS for u in used):
        if any(rest for *_, rest in sheets):
            raise InputError("every combination is used: the game is over")
        seats = tuple(Seat(free, goods, points) for free, goods, points, _ in sheets)
        return DespiralaState(seats, 0, TURNS, OVER, game=game)
    k = used[0]
    behind = sum(1 for u in used if u == k + 1)
    if any(u not in (k, k + 1) for u in used) or used != sorted(used) or k == TURNS:
        raise InputError("list the players from the one to move, in turn order: the player to move has used as many "
                         f"combinations as each player after them, or one fewer (here {', '.join(map(str, used))})")
    if any(rest for *_, rest in sheets[1:]):
        raise InputError("only the player to move has dice: the others are written USED;GOODS")
    free, goods, points, rest = sheets[0]
    if not rest:
        raise InputError("write the mover's dice after the goods: USED;GOODS;DICE (- while the throw is due)")
    dice_text, pending = rest[0], rest[1:]
    n = len(parts)
    by_seat = [Seat(*sheets[(s - behind) % n][:3]) for s in range(n)]
    mover = behind % n
    round_ = k + 1
    if dice_text in ("-", ""):
        if pending:
            raise InputError("nothing can be pending before the dice are thrown")
        return DespiralaState(tuple(by_seat), mover, round_, THROW, game=game)
    dice = parse_throw(dice_text)
    if not pending:
        return DespiralaState(tuple(by_seat), mover, round_, DECIDE, dice, game=game)
    if len(pending) > 1:
        raise InputError(f"one thing at a time can be pending, not {'; '.join(pending)}")
    what = pending[0].lower()
    m = _COLLECTING.match(what)
    if m:
        face, have = int(m.group(1)), int(m.group(2))
        combo = face - 1
        if not free & (1 << combo):
            raise InputError(f"Collect {face} is already used")
        if not dice.count(face) <= have <= N_DICE:
            raise InputError(f"collecting {face}s from {format_throw(dice)}: between {dice.count(face)} and 6 collected")
        phase = HITS if m.group(3) else COLLECT
        if phase == HITS and have == N_DICE:
            raise InputError("all six dice are collected: nothing to rethrow")
        return DespiralaState(tuple(by_seat), mover, round_, phase, dice, combo, (), have, game=game)
    if not what.startswith("completing "):
        raise InputError(f"cannot read {pending[0]!r}: write 'completing COMBINATION' or 'collecting Fs: N'")
    move = parse_move(pending[0].strip()[len("completing "):])
    combo_ = COMBINATIONS[move.combination]
    if move.kind != "pick" or combo_.is_collect:
        raise InputError(f"{pending[0]!r}: only a non-collect combination is completed")
    if not free & (1 << combo_.index):
        raise InputError(f"{combo_.name} is already used")
    state = DespiralaState(tuple(by_seat), mover, round_, COMPLETE, dice, combo_.index, move.args, 0, game=game)
    if not state.target_missing():
        raise InputError(f"{move.text()} is complete in {format_throw(dice)}: nothing to complete")
    return state

