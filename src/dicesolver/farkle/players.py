"""Farkle's bots: the optimal player (the exact table), a bank-at-N player and a human-like rule of thumb."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

from ..core.errors import InputError
from .rules import FarkleGame
from ..core.steps import Throw
from .state import Bank, FarkleState, Take, takes

if TYPE_CHECKING:
    from .solutions import FarkleWinProbability

FARKLE_STRATEGIES = {
    "optimal": "maximises the probability of winning (the exact solution)",
    "bank-at-300": "sets aside every scoring die and banks once 300 are at risk; bank-at-N for any N",
    "human": "a player's rule of thumb: keeps a lone 1 or 5 to throw more dice, banks with two dice or fewer "
             "left once 300 are at risk, and always at 1,000",
}
_BANK_AT = re.compile(r"^bank-?at-?(\d+)$")


def most_points(state: FarkleState) -> Take:
    """The set-aside worth the most, with the most dice left among equals."""
    options = takes(state.game, state.table)
    return max(options, key=lambda o: (o[1], -len(o[0].dice)))[0]


class BankAt:
    def __init__(self, n: int):
        self.n = n
        self.name = f"bank-at-{n}"

    def choose(self, state: FarkleState, rng: np.random.Generator) -> Take | Throw | Bank:
        if state.table:
            return most_points(state)
        return Bank() if state.can_bank() and state.turn_total >= self.n else Throw()


class HumanLike:
    name = "human"

    def choose(self, state: FarkleState, rng: np.random.Generator) -> Take | Throw | Bank:
        if state.table:
            best, points = max(takes(state.game, state.table), key=lambda o: (o[1], -len(o[0].dice)))
            left = len(state.table) - len(best.dice)
            if 0 < left <= 2 and len(state.table) >= 4:  # keep dice in hand: a lone 1 (or 5) instead
                for single in ((1,), (5,)):
                    if single in [t.dice for t, _ in takes(state.game, state.table)] and points < 500:
                        return Take(single)
            return best
        if not state.can_bank():
            return Throw()
        if state.turn_total >= 1000 or (state.left <= 2 and state.turn_total >= 300):
            return Bank()
        return Throw()


class Optimal:
    name = "optimal"

    def __init__(self, solution: FarkleWinProbability):
        self.solution = solution

    def choose(self, state: FarkleState, rng: np.random.Generator) -> Take | Throw | Bank:
        answers = self.solution.answers([state], parallel=False)
        code = int(answers.best()[0])
        step = self.solution.encoding.step_of(state, code)
        assert isinstance(step, (Take, Throw, Bank))
        return step


def strategy_names(game: FarkleGame) -> str:
    return f"optimal, bank-at-N (N a multiple of 50 up to {game.goal}) or human"


def make_farkle_player(name: str, game: FarkleGame, solution: FarkleWinProbability | None = None):
    key = str(name).strip().lower()
    if key in ("optimal", "opt"):
        if solution is None:
            raise InputError("the optimal strategy needs the solved game")
        return Optimal(solution)
    if key == "human":
        return HumanLike()
    if m := _BANK_AT.match(key):
        n = int(m.group(1))
        if not game.unit <= n <= game.goal or n % game.unit:
            raise InputError(f"bank-at-N needs N a multiple of {game.unit} from {game.unit} to {game.goal}, not {n}")
        return BankAt(max(n, game.min_bank))
    raise InputError(f"unknown strategy {name!r} for {game.canonical}: {strategy_names(game)}")
