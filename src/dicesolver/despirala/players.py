"""Despirala bots: the expected-score strategy of a table (the exact one, ``optimal``, or a Monte Carlo
model, ``mc-N``) and the competitive strategy (``competitive``), which plays to beat the others.

The competitive strategy looks one decision ahead. For each option it needs the distribution of its own
final score: the option's outcomes (a completion's number of rethrows or failure; a collect's hits) lead to
turn ends, and from a turn end on everybody is assumed to play the expected-score strategy. Those
distributions are simulated (``samples`` games from each turn end, the same random streams for every state
so that options are compared with common random numbers) and shifted so that their means equal the exact
expected values. The opponents' final scores are simulated the same way from where they stand. The option
chosen maximises the expected number of opponents beaten (a tie counts half), that is, the best expected
rank; with no opponents it is the expected-score strategy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..core.errors import InputError
from .rules import COMBINATIONS, GOODS_PER_TURN, N_DICE, DespiralaGame, Move
from .solution import collect_state_values
from .solver import DespiralaSolution, H, binomial_table, completion_odds, pick_shape, turn_options
from .state import COLLECT, DECIDE, DespiralaState

DESPIRALA_STRATEGIES = {
    "optimal": "maximises the expected final score (minimises it in misere play): the exact solution",
    "competitive": "plays to finish ahead of the others: the best expected rank against their simulated scores",
    "mc-5": "a Monte Carlo model: every average over the 462 throws replaced by 5 sampled throws (weak); mc-N for "
            "any N",
}
_MC = re.compile(r"^mc-?([0-9]{1,7})$")
SCORE_GRID = np.arange(0, 1001, dtype=np.float64)


def _better(mode: str) -> float:
    return 1.0 if mode == "normal" else -1.0


@dataclass
class ExpectedScorePlayer:
    """Plays the best move of a table of expected final scores."""

    name: str
    solution: DespiralaSolution

    def choose(self, game: DespiralaGame, state: DespiralaState) -> Move:
        seat = state.seat
        if state.phase == DECIDE:
            return turn_options(self.solution, seat.free, seat.goods, state.dice)[0][0]
        if state.phase == COLLECT:
            values = collect_state_values(self.solution, state)
            sign = _better(self.solution.mode)
            return Move(max(values, key=lambda k: sign * values[k]))
        raise InputError("no decision is due now")


@dataclass
class CompetitivePlayer:
    """Maximises the expected number of opponents beaten (see the module's docstring)."""

    solution: DespiralaSolution
    samples: int = 400
    prune: float = 25.0  # options further than this (in expected points) from the best are not considered
    margin: float = 2.0  # standard errors by which a move must beat the expected-score move
    name: str = "competitive"
    _futures: dict = field(default_factory=dict, repr=False)

    def future(self, free: int, goods: int) -> np.ndarray:
        """Simulated future points + final goods from a turn end leaving ``free`` and ``goods`` (goods may be
        as low as -5: the start of a Reroll's throw), shifted to the exact expected value."""
        if free == 0:
            return np.array([float(max(goods, 0))])
        key = (free, goods)
        cached = self._futures.get(key)
        if cached is None:
            from .simulate import play_games

            W = np.asarray(self.solution.W)
            scores = play_games(W, self.solution.mode, self.samples, seed=20261122, start=(free, goods, 0)).astype(float)
            exact = W[free, min(goods + GOODS_PER_TURN, H - 1)]
            cached = (scores + (exact - scores.mean())).astype(np.float32)
            self._futures[key] = cached
        return cached

    def beat_curve(self, state: DespiralaState) -> np.ndarray | None:
        """B[s]: the expected number of opponents a final score of s beats (ties half), on SCORE_GRID."""
        others = [s for i, s in enumerate(state.seats) if i != state.mover]
        if not others:
            return None
        sign = _better(self.solution.mode)
        curve = np.zeros_like(SCORE_GRID)
        for seat in others:
            finals = seat.points + self.future(seat.free, seat.goods).astype(np.float64)
            # each simulated score spread over [x - 1/2, x + 1/2]: an exact tie counts half
            diff = sign * (SCORE_GRID[:, None] - finals[None, :]) + 0.5
            curve += np.clip(diff, 0.0, 1.0).mean(axis=1)
        return curve

    def _end(self, curve: np.ndarray, points: float, free: int, goods: int) -> tuple[float, float]:
        """(estimate, its variance) of the opponents beaten when the turn ends with ``points``, ``free``, ``goods``."""
        beaten = np.interp(points + self.future(free, goods), SCORE_GRID, curve)
        return float(beaten.mean()), float(beaten.var() / len(beaten))

    def _pick(self, curve, state: DespiralaState, move: Move) -> tuple[float, float]:
        seat = state.seat
        combo = COMBINATIONS[move.combination]
        after = seat.free & ~(1 << combo.index)
        h = seat.goods
        if combo.is_collect:
            return self._collect(curve, seat.points, after, combo.collect_face(),
                                 state.dice.count(combo.collect_face()), h, {})
        pts = combo.target(move.args)[1]
        s = pick_shape(combo.index, move.args, state.dice)
        q, qcum = completion_odds()
        outcomes = [(1.0 - qcum[s, h], self._end(curve, seat.points, after, 0))]
        outcomes += [(q[s, t], self._end(curve, seat.points + pts, after, h - t))
                     for t in range(h + 1) if q[s, t] > 1e-7]  # the rarest completions are left out (renormalised)
        total = sum(w for w, _ in outcomes)
        return (sum(w * m for w, (m, _) in outcomes) / total, sum(w * w * v for w, (_, v) in outcomes) / total ** 2)

    def _collect(self, curve, points: int, after: int, face: int, have: int, goods: int, memo: dict,
                 continue_only: bool = False) -> tuple[float, float]:
        key = (have, goods, continue_only)
        if key in memo:
            return memo[key]
        best = (-np.inf, 0.0) if continue_only else self._end(curve, points + face * have, after, goods)
        if goods > 0 and have < N_DICE:
            b = binomial_table()[N_DICE - have]
            parts = [(b[j], self._collect(curve, points, after, face, have + j, goods - 1, memo))
                     for j in range(N_DICE - have + 1)]
            go = (sum(w * m for w, (m, _) in parts), sum(w * w * v for w, (_, v) in parts))
            best = max(best, go)
        memo[key] = best
        return best

    def option_values(self, game: DespiralaGame, state: DespiralaState) -> list[tuple[Move, float, float, float]]:
        """(move, expected opponents beaten, its standard error, expected final score) for the moves
        considered, the expected-score best first, then by opponents beaten."""
        curve = self.beat_curve(state)
        seat = state.seat
        sign = _better(self.solution.mode)
        if state.phase == COLLECT:
            combo = COMBINATIONS[state.combination]
            values = collect_state_values(self.solution, state)
            if curve is None:
                return sorted(((Move(k), 0.0, 0.0, v) for k, v in values.items()), key=lambda r: -sign * r[3])
            after = seat.free & ~(1 << combo.index)
            memo: dict = {}
            estimates = {"stop": self._end(curve, seat.points + combo.collect_face() * state.have, after, seat.goods)}
            if "continue" in values:
                estimates["continue"] = self._collect(curve, seat.points, after, combo.collect_face(), state.have,
                                                      seat.goods, memo, continue_only=True)
            rows = [(Move(k), m, v ** 0.5, values[k]) for k, (m, v) in estimates.items()]
            return sorted(rows, key=lambda r: -sign * r[3])
        if state.phase != DECIDE:
            raise InputError("no decision is due now")
        options = turn_options(self.solution, seat.free, seat.goods, state.dice)
        considered = [(m, v) for m, v in options if abs(options[0][1] - v) <= self.prune]
        if curve is None:
            return [(m, 0.0, 0.0, v) for m, v in considered]
        rows = []
        for move, ev in considered:
            if move.kind == "reroll":
                m, v = self._end(curve, seat.points, seat.free, seat.goods - 1 - GOODS_PER_TURN)
            else:
                m, v = self._pick(curve, state, move)
            rows.append((move, m, v ** 0.5, ev))
        return rows

    def choose(self, game: DespiralaGame, state: DespiralaState) -> Move:
        """The expected-score move, unless another one beats more opponents by a margin the simulation's
        noise cannot explain (``margin`` standard errors): picking the best of many noisy estimates
        would otherwise favour the luckiest estimate, not the best move."""
        rows = self.option_values(game, state)
        default = rows[0]
        best = max(rows, key=lambda r: r[1])
        if best[1] - default[1] > self.margin * (best[2] ** 2 + default[2] ** 2) ** 0.5:
            return best[0]
        return default[0]


def make_despirala_player(name: str, game: DespiralaGame, solution: DespiralaSolution, seed: int = 0):
    """A bot by name: optimal, competitive, or mc-N (a Monte Carlo model with N samples per state)."""
    key = str(name).strip().lower()
    if key in ("optimal", "ev", "expected"):
        return ExpectedScorePlayer("optimal", solution)
    if key == "competitive":
        return CompetitivePlayer(solution)
    m = _MC.match(key)
    if m:
        n = int(m.group(1))
        if not 1 <= n <= 1000:
            raise InputError("mc-N takes N from 1 to 1000 samples per state")
        from .solver import solve

        W = solve(game.mode, samples=n, seed=seed)
        from ..core.arrays import frozen

        return ExpectedScorePlayer(f"mc-{n}", DespiralaSolution(game.mode, frozen(W)))
    raise InputError(f"unknown Despirala strategy {name!r}: optimal, competitive or mc-N (e.g. mc-5)")
