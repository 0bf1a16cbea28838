"""Advice in two-player positions: every option with its equity (+1 win, 0 draw, -1 loss for the mover)
and its cost against the best.

Notation: ``MOVER_CARD;OTHER_CARD/DICE/ROLLS``: the cards of the player to move and of the opponent (the
solitaire card syntax, e.g. ``ones=3,full=30``), the dice showing and the throws left. The mover has
filled as many boxes as the opponent or one fewer. Example: ``ones=3;escalera=20/12266/2``.
"""

from __future__ import annotations

from ..core.dice import format_dice, parse_dice
from ..core.errors import InputError, TableError
from . import duel
from .advice import Advice, _ranked
from .position import Position, _parse_int, parse_card, validate
from .rules import ScorecardGame

SUBGAME_LIMIT = 5_000_000  # lanes: below this, an uncached position is solved as a sub-game


def parse_duel_position(game: ScorecardGame, text: str) -> tuple[Position, Position]:
    """(mover's position with the dice, opponent's card) from ``MOVER;OTHER/DICE/ROLLS``."""
    if not isinstance(text, str) or text.count(";") != 1:
        raise InputError("write a two-player position as MOVER_CARD;OTHER_CARD/DICE/ROLLS")
    cards, _, rest = text.partition("/")
    mover_text, other_text = cards.split(";")
    parts = rest.split("/")
    if len(parts) not in (1, 2):
        raise InputError("write a two-player position as MOVER_CARD;OTHER_CARD/DICE/ROLLS")
    mb, me = parse_card(game, mover_text)
    ob, oe = parse_card(game, other_text)
    dice_text = parts[0].strip()
    dice = None if dice_text in ("", "-") else parse_dice(dice_text, game.faces)
    rolls_left = _parse_int(parts[1], "rolls left") if len(parts) == 2 else game.rolls
    mover = validate(game, Position(mb, dice, rolls_left, me))
    other = validate(game, Position(ob, None, game.rolls, oe))
    filled_m = sum(v is not None for v in mb)
    filled_o = sum(v is not None for v in ob)
    if filled_o - filled_m not in (0, 1):
        raise InputError("the player to move has filled as many boxes as the opponent, or one fewer "
                         f"(here {filled_m} and {filled_o})")
    return mover, other


def duel_solution_for(game: ScorecardGame, mover: int, other: int, progress=None) -> duel.DuelSolution:
    """The full table if cached, else the sub-game below the position when small, else the full solve."""
    key = duel.table_key(game)
    try:
        table = duel.tables.load(key)
        return duel.DuelSolution(duel.DuelModel(game), table.arrays["values"])
    except TableError:
        pass
    sub = duel.DuelModel(game, (mover, other))
    if sub.size <= SUBGAME_LIMIT:
        return duel.DuelSolution(sub, sub.solve())
    return duel.load_or_solve(game, progress)[0]


def duel_advise(game: ScorecardGame, text: str, progress=None) -> Advice:
    mover, other = parse_duel_position(game, text)
    diff = mover.total(game) - other.total(game)
    pos = duel.DuelPosition(mover.used, other.used, diff)
    solution = duel_solution_for(game, mover.used, other.used, progress)
    if mover.dice is None:
        return Advice(game.canonical, text, diff, mover.rolls_left, solution.equity(pos), [])
    if mover.rolls_left == 0:
        eq = solution.category_equities(pos, mover.dice)
        items = [(game.categories[c].name, v, int(game.score_table[game.dice.roll_index(mover.dice), c]))
                 for c, v in eq.items()]
        ranked = _ranked("category", items)
    else:
        eq = solution.keep_equities(pos, mover.dice, mover.rolls_left)
        ranked = _ranked("keep", [(format_dice(k, game.faces), v, None) for k, v in eq.items()])
    return Advice(game.canonical, text, diff, mover.rolls_left, ranked[0].value, ranked)
