"""Despirala behind ``core.family``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from ..core.aims import (AT_LEAST, BEAT, MAX_NEED, NEED_STEP, AtLeast, Beat, Field, FinalScoreGoal, Goal, Percentile,
                         RiskAppetite, parse_field_player, parse_target, parse_theta_player, table_needs)
from ..core.counts import ScoreCounts
from ..core.distributed import Cluster, refuse
from ..core.errors import InputError
from ..core.family import Family, GameRow, MatchGames, Progress, Simulated, TableSize, Variant
from ..core.playthrough import Playthrough
from ..core.results import Board, Distribution, SolveInfo, TargetCurve
from .records import DespiralaRecord, despirala_record_from_lines
from .rules import (ALL_FREE, COMBINATION_WORDS, COMBINATIONS, GOODS_PER_TURN, MOVE_WORDS, DespiralaGame, Move,
                    format_throw, make_despirala)
from .scene import scene as despirala_scene
from .state import COLLECT, COMPLETE, DespiralaState, Event, SixDice

if TYPE_CHECKING:
    from .encoding import DespiralaEncoding  # the solver and the players load numba kernels: imported when first needed
    from .solutions import DespiralaCertaintyEquivalent, DespiralaTargetChance, ExpectedFinalScore


# rates of the 2-core reference machine (BENCHMARKS.md): a goal's table of needs a cell, a risk appetite's table,
# the mean-players' distribution; a field against them reaches at most past every final score they make
NEED_CELL_SECONDS = 1.8e-6
RISK_SECONDS = 3.0
DISTRIBUTION_SECONDS = 60.0
MOST_FINAL = 600


class DespiralaBot:
    """A Despirala strategy (``choose(game, state)``) as a protocol player."""

    def __init__(self, strategy: Any):
        self.name = strategy.name
        self.strategy = strategy

    def choose(self, state: DespiralaState, rng: np.random.Generator) -> Move:
        return self.strategy.choose(state.game, state)


class DespiralaFamily(Family[DespiralaGame, DespiralaState]):
    name = "despirala"
    title = "Despirala"
    capabilities = frozenset({"target", "goals", "simulate", "match", "risk", "distribution"})
    human_like = ("mc-5",)
    rating_bots = (("mc-50", "expert"), ("mc-5", "intermediate"), ("mc-1", "beginner"))

    def names(self) -> list[str]:
        return ["despirala"]

    def featured(self) -> list[str]:
        return ["despirala", "despirala(misere)"]

    def load(self, base: str, choices: dict[str, str]) -> DespiralaGame:
        return make_despirala(choices)

    def catalog(self) -> list[GameRow]:
        return [{"name": "despirala", "title": "Despirala", "family": self.name, "dice": 6, "faces": 6,
                 "players": "1-6", "variants": {v.key: {"values": list(v.values), "default": v.default, "help": v.help}
                                                for v in self.variants("despirala")}}]

    def variants(self, base: str) -> list[Variant]:
        return [Variant("play", "misere: the lowest final score wins, no Reroll", "normal", ("normal", "misere"))]

    def facts(self, game: DespiralaGame) -> dict[str, Any]:
        return {"players": "1-6", "dice": 6, "faces": 6, "combinations": [c.name for c in COMBINATIONS],
                "goods_per_turn": GOODS_PER_TURN, "combination_words": [COMBINATION_WORDS[c.name] for c in COMBINATIONS], "move_words": MOVE_WORDS}

    def page(self, game: DespiralaGame) -> dict[str, Any]:
        return {"quick": ["List", "hint", "Reroll", "Continue", "Stop", "score"], "max_opponents": 5,
                "start_position": "none;5;123456",
                "explore": [{"title": "Final scores of 100,000 games played by the exact model",
                             "image": "simulation.png"}]}

    def judges(self, game: DespiralaGame) -> dict[str, str]:
        return {"points": "expected final score (each player's own)"}

    def solve(self, game: DespiralaGame, judge: str | None = None, progress: Progress | None = None,
              rebuild: bool = False, on_problem: Callable[[str], None] | None = None,
              cluster: Cluster | None = None) -> ExpectedFinalScore:
        from .solutions import ExpectedFinalScore
        from .solver import load_or_solve

        refuse(cluster, "Despirala")
        if judge not in (None, "points"):
            raise InputError(f"Despirala is judged by expected final score, not by {judge!r}")
        table, li = load_or_solve(game.mode, rebuild=rebuild, progress=progress, on_problem=on_problem)
        info = SolveInfo(game=game.canonical, unit="points", value=table.root_value, solved_now=li.built,
                         seconds=li.seconds, states=int(table.W.shape[0] * table.W.shape[1]),
                         table_bytes=li.table_bytes, table_dir=li.directory)
        return ExpectedFinalScore(game, table, info)

    def risk_solution(self, game: DespiralaGame, theta: float, progress: Progress | None = None
                      ) -> ExpectedFinalScore | DespiralaCertaintyEquivalent:
        """Normal play with a risk appetite (misere play is refused: ``solver.check_appetite``); theta = 0 is
        the mean's own solution, bit for bit."""
        from .solutions import DespiralaCertaintyEquivalent
        from .solver import check_appetite, load_or_solve

        if not check_appetite(game.mode, theta):
            return self.solve(game, progress=progress)
        table, li = load_or_solve(game.mode, progress=progress, theta=theta)
        info = SolveInfo(game=game.canonical, unit="ce", judge="risk", value=table.root_value, solved_now=li.built,
                         seconds=li.seconds, states=int(table.W.shape[0] * table.W.shape[1]),
                         table_bytes=li.table_bytes, table_dir=li.directory, details={"theta": theta})
        return DespiralaCertaintyEquivalent(game, table, info)

    def distribution(self, game: DespiralaGame, progress: Progress | None = None,
                     theta: float | None = None) -> Distribution:
        """The exact final-score distribution of expected-score play (``theta``: of that risk appetite's
        strategy), from the table of every turn start's distribution (``future``, built once and cached)."""
        from .future import load_or_build

        table = self.risk_solution(game, theta or 0.0, progress).table
        p = np.asarray(load_or_build(table, progress).start(ALL_FREE, GOODS_PER_TURN), dtype=np.float64)
        p = p / p.sum()
        scores = np.arange(len(p))
        mean = float(p @ scores)
        cdf = np.cumsum(p)
        support = np.nonzero(p > 0)[0]
        top = int(support[-1])
        best = float(p[top])
        return Distribution(
            game=game.canonical, theta=float(table.theta), mean=mean, sd=float(np.sqrt(p @ (scores - mean) ** 2)),
            percentiles={str(q): int(np.searchsorted(cdf, q / 100 - 1e-12))
                         for q in (1, 5, 10, 25, 50, 75, 90, 95, 99)},
            mode=int(np.argmax(p)), min=int(support[0]), max=top,
            perfect_game_probability=best, perfect_game_one_in=1 / best if best > 0 else float("inf"),
            probabilities={int(x): float(p[x]) for x in support})

    def players(self, game: DespiralaGame) -> dict[str, str]:
        from .players import DESPIRALA_STRATEGIES

        return dict(DESPIRALA_STRATEGIES)

    def player(self, game: DespiralaGame, name: str, seed: int = 0, progress: Progress | None = None) -> DespiralaBot:
        from .players import make_despirala_player

        table = self.solve(game, progress=progress).table
        return DespiralaBot(make_despirala_player(name, game, table, seed=seed, progress=progress))

    def check_player(self, game: DespiralaGame, name: str) -> None:
        from .players import check_despirala_player

        check_despirala_player(name)

    # -- playing for a score ---------------------------------------------------------------------------
    def target_solution(self, game: DespiralaGame, score: int, beat: bool = False, progress: Progress | None = None,
                        at: DespiralaState | None = None) -> DespiralaTargetChance:
        """From a position ``at``, only the sets of combinations its players still have free are solved, for
        the needs their points leave: an endgame's table is built in moments."""
        if score <= 0 and not beat:
            raise InputError("a target is a positive number of points (every game reaches 0)")
        if score < 0:
            raise InputError("a score to beat is 0 points or more")
        return self._needs_solution(game, Beat(score) if beat else AtLeast(score), progress, at)

    def goal_solution(self, game: DespiralaGame, goal: FinalScoreGoal, progress: Progress | None = None,
                      at: DespiralaState | None = None) -> DespiralaTargetChance:
        """Any goal on one's own final score (normal play; misere plays for targets and scores to beat): a
        blind field without scores plays against mean-players, their exact final-score distribution (built
        once, as ``distribution``); a percentile is the target T found from the target tables. From a position
        ``at``, only what follows it is solved, as for a target."""
        if isinstance(goal, (AtLeast, Beat)) and not isinstance(goal, Percentile):
            return self.target_solution(game, goal.score, isinstance(goal, Beat), progress, at)
        if game.mode != "normal":
            raise InputError(f"misere Despirala plays for targets and scores to beat, not for {goal.words()}")
        if isinstance(goal, Field) and goal.others is None:
            mean_players = self.distribution(game, progress)
            goal = goal.against(np.array(mean_players.pmf()), "players who play for the mean")
        if isinstance(goal, Percentile) and not goal.score:
            goal = goal.resolved(self._best_percentile(game, goal.q, progress))
        return self._needs_solution(game, goal, progress, at)

    def goal_size(self, game: DespiralaGame, goal: Goal) -> TableSize | None:
        """A risk appetite's table is the mean's shape; a goal's table of needs is 4 bytes a cell, 1.8 µs each
        (BENCHMARKS.md: the field of 10's, 552 needs, 1.49 GB in 671 s; a target's prunes more), and a field or
        percentile without scores reads the mean-players' distribution (0.86 GB, about a minute) too."""
        from .future import layout as future_layout
        from .solver import H
        from .target import layout

        if isinstance(goal, RiskAppetite):
            return TableSize((ALL_FREE + 1) * H * 8, RISK_SECONDS)
        if not isinstance(goal, FinalScoreGoal):
            return None
        unknown = (isinstance(goal, Field) and goal.others is None) or (isinstance(goal, Percentile) and not goal.score)
        N = MOST_FINAL if unknown else goal.needs()
        cells = layout(N)[2]
        extra = TableSize(future_layout()[2] * 4, DISTRIBUTION_SECONDS) if unknown else TableSize(0, 0.0)
        return TableSize(cells * 4 + extra.bytes, cells * NEED_CELL_SECONDS + (extra.seconds or 0.0))

    def _best_percentile(self, game: DespiralaGame, q: float, progress: Progress | None) -> int:
        """The largest T whose best chance of at least T points is over 1 - q/100 (``aims.Percentile``), from
        target tables of needs from the mean-players' q-th percentile up, doubled while their last target is
        still that likely."""
        from .target import load_or_build

        start = self.distribution(game, progress).percentiles.get(f"{q:g}") or 0
        N = table_needs(max(start + NEED_STEP, 1))
        while True:
            curve = load_or_build(game.mode, N, progress)[0].curve()
            likely = np.nonzero(curve > 1 - q / 100)[0]
            if likely[-1] < N or N >= MAX_NEED:
                return max(int(likely[-1]), 1)
            N = min(table_needs(2 * N), MAX_NEED)

    def _needs_solution(self, game: DespiralaGame, goal: FinalScoreGoal, progress: Progress | None,
                        at: DespiralaState | None) -> DespiralaTargetChance:
        from .breakdown import breakdown_size
        from .solutions import DespiralaTargetChance
        from .target import load_or_build

        targets = isinstance(goal, (AtLeast, Beat))  # targets share tables of needs by NEED_STEP
        within, need = ALL_FREE, goal.aim()
        if at is not None and not at.over:
            within = 0
            for seat in at.seats:
                within |= seat.free
            need = max(1, goal.aim() - min(seat.points for seat in at.seats))
        N = table_needs(need) if targets else min(need, goal.needs())
        row = None if targets else goal.full_card_row()[: N + 1]
        table, built, seconds = load_or_build(game.mode, N, progress, tie=BEAT if isinstance(goal, Beat) else AT_LEAST,
                                              within=within, row=row, goal="" if targets else goal.text())
        details = {k: v for k, v in goal.details(0).items() if k not in ("score_so_far", "need")}
        info = SolveInfo(game=game.canonical, unit="p_target", value=0.0, solved_now=built, seconds=seconds,
                         states=int(table.V.shape[0]), table_bytes=int(table.V.nbytes), table_dir=table.directory,
                         details=details)
        solved = DespiralaTargetChance(game, table, goal, info)
        # the value: the chance from the start, or from the position when only its endgame is solved
        value = solved.state_value(at) if at is not None and within != ALL_FREE else \
            table.start(ALL_FREE, GOODS_PER_TURN, goal.aim())
        solved.info = info.model_copy(update={"value": value})
        solved.explain_beside(lambda progress: self.solve(game, progress=progress), breakdown_size)  # the points alone
        return solved

    def target_curve(self, game: DespiralaGame, up_to: int | None = None,
                     progress: Progress | None = None) -> TargetCurve:
        import time

        from .future import load_or_build as load_distributions

        start = time.perf_counter()
        expected = self.solve(game, progress=progress).table
        dist = load_distributions(expected, progress).start(ALL_FREE, GOODS_PER_TURN)
        normal = game.mode == "normal"
        # the expected-score strategy's own chance of each target: P(final >= T), or P(final <= T) in misere
        reach = np.cumsum(dist[::-1])[::-1] if normal else np.cumsum(dist)
        if up_to is None:  # its 95th percentile (5th in misere): where the chances become small
            up_to = int(np.searchsorted(np.cumsum(dist), 0.95 if normal else 0.05))
        if up_to <= 0:
            raise InputError("the curve goes up to a positive number of points")
        best = self.target_solution(game, up_to, progress=progress).curve()[: up_to + 1]
        theirs = np.array([reach[t] if t < len(reach) else float(not normal) for t in range(up_to + 1)])
        gain = best - theirs
        at = int(np.argmax(gain))
        return TargetCurve(game=game.canonical, targets=list(range(up_to + 1)), best=[float(x) for x in best],
                           expected_score_strategy=[float(x) for x in theirs], largest_gain=float(gain[at]),
                           largest_gain_at=at, seconds=time.perf_counter() - start, at_most=not normal)

    # -- records and the table -----------------------------------------------------------------------
    def read_record(self, path: Path, lines: list[tuple[int, Any]], game: DespiralaGame) -> Playthrough:
        return playthrough_of(despirala_record_from_lines(path, lines, game))

    def board(self, state: DespiralaState, names: Sequence[str]) -> Board:
        rows = []
        for i, seat in enumerate(state.seats):
            left = ", ".join(c.name for c in COMBINATIONS if seat.free & (1 << c.index))
            rows.append([names[i], str(seat.points), str(seat.goods), left or "-"])
        strong = [state.mover] if not state.over else []
        return Board(title=f"round {state.round} of 14", columns=["player", "points", "goods", "combinations left"],
                     rows=rows, strong=strong)

    def encoding(self, game: DespiralaGame) -> DespiralaEncoding:
        from .encoding import DespiralaEncoding

        return DespiralaEncoding(game)

    def view(self, state: DespiralaState) -> dict[str, Any]:
        return {
            "combinations": [{"index": c.index, "name": c.name, "words": COMBINATION_WORDS[c.name]} for c in COMBINATIONS],
            "move_words": MOVE_WORDS,
            "seats": [{"free": [c.index for c in COMBINATIONS if seat.free & (1 << c.index)], "goods": seat.goods,
                       "points": seat.points} for seat in state.seats],
            "round": state.round, "rounds": len(COMBINATIONS), "phase": state.phase, "dice": list(state.dice),
            "combination": state.combination, "have": state.have,
        }

    def totals(self, state: DespiralaState) -> list[int]:
        return [s.final if state.over else s.points for s in state.seats]

    scene = staticmethod(despirala_scene)

    # -- capabilities --------------------------------------------------------------------------------
    def simulate(self, game: DespiralaGame, names: list[str], n: int, seed: int, samples: int = 0,
                 progress: Progress | None = None) -> list[Simulated]:
        from .simulate import simulate_despirala

        aim = parse_target(names[0]) if len(names) == 1 else None
        field = parse_field_player(names[0]) if len(names) == 1 else None
        goal = AtLeast(aim) if aim is not None else field
        if goal is not None:
            return [self._simulate_goal(game, goal, n, seed, samples, progress)]
        thetas = [0.0 if name.strip().lower() == "optimal" else parse_theta_player(name) for name in names]
        if any(name.strip().lower() != "optimal" for name in names) and all(t is not None for t in thetas):
            # risk appetites (theta:0 and optimal: the mean), one by one
            return [self._simulate_appetite(game, float(t or 0.0), n, seed, samples, progress, name)
                    for name, t in zip(names, thetas)]
        if names not in ([], ["optimal"]):
            raise InputError("Despirala simulates its expected-score table (optimal; --samples N for a Monte Carlo "
                             "model), a goal's player (target:T, field:N) or risk appetites (theta:X); for its other "
                             "bots use match")
        stats, scores = simulate_despirala(game.mode, n, seed, samples)
        label = "optimal" if not samples else f"mc-{samples}"
        return [Simulated(label, ScoreCounts.of(scores), {"expected": stats.expected}, {"model": stats.model},
                          stats.seconds)]

    def _simulate_appetite(self, game: DespiralaGame, theta: float, n: int, seed: int, samples: int,
                           progress: Progress | None, label: str) -> Simulated:
        """``n`` games of a risk appetite's strategy, with the certainty equivalent its table promises and the
        one the games show (ln of the mean of exp(theta X), over theta)."""
        import time

        from .simulate import play_games
        from .solver import check_appetite, load_or_solve

        if samples:
            raise InputError("--samples goes with the expected-score table, not with a risk appetite")
        table = load_or_solve(game.mode, progress=progress, theta=check_appetite(game.mode, theta))[0]
        start = time.perf_counter()
        scores = play_games(np.asarray(table.W), game.mode, n, seed, theta=theta)
        x = scores.astype(np.float64)
        far = x.max() if theta > 0 else x.min()  # exp of the scores from the one that weighs most: no overflow
        shown = float(far + np.log(np.mean(np.exp(theta * (x - far)))) / theta) if theta else float(x.mean())
        return Simulated(label.strip().lower(), ScoreCounts.of(scores),
                         {"certainty_equivalent": table.root_value,
                          "simulated_certainty_equivalent": shown},
                         {"model": "exact"}, time.perf_counter() - start)

    def _simulate_goal(self, game: DespiralaGame, goal: FinalScoreGoal, n: int, seed: int, samples: int,
                       progress: Progress | None) -> Simulated:
        """``n`` games of a goal's player (target:T, field:N), how often they reach the goal (for a field, the
        mean of its utility: the share of fields won) beside its exact chance."""
        import time

        from .simulate import play_target_games
        from .target import load_or_build

        if samples:
            raise InputError("--samples goes with the expected-score table, not with a goal's player")
        if isinstance(goal, AtLeast):  # misere too: at most T
            table = load_or_build(game.mode, table_needs(goal.score), progress)[0]
            chance = table.start(ALL_FREE, GOODS_PER_TURN, goal.score)
        else:
            solved = self.goal_solution(game, goal, progress)
            table, goal, chance = solved.table, solved.final_goal, solved.root_value
        start = time.perf_counter()
        scores = play_target_games(table, goal.aim(), n, seed)
        if isinstance(goal, AtLeast):
            worth = (scores >= goal.score) if game.mode == "normal" else (scores <= goal.score)
        else:
            worth = goal.utility(scores)
        return Simulated(goal.text(), ScoreCounts.of(scores),
                         {"goal": goal.text(), "target": goal.score if isinstance(goal, AtLeast) else None,
                          "target_rate": float(np.mean(worth)), "target_chance": chance},
                         {"model": "exact"}, time.perf_counter() - start)

    def match(self, game: DespiralaGame, names: list[str], n: int, seed: int,
              progress: Progress | None = None) -> MatchGames:
        from .match import despirala_match

        if len(names) != 2:
            raise InputError("a Despirala match is between two strategies, e.g. competitive optimal")
        table = self.solve(game).table
        from .players import make_despirala_player

        a, b = (make_despirala_player(p, game, table, seed=seed, progress=progress) for p in names)
        if a.name == b.name:
            b.name = f"{b.name} (2)"
        return despirala_match(game, a, b, n, seed, progress=progress)


def playthrough_of(record: DespiralaRecord) -> Playthrough:
    """A Despirala record's events as protocol steps (seats are the record's players in order)."""
    from .state import Completion, Hits

    state = record.game.with_players(len(record.players)).start()
    steps: list[Any] = []
    for i, e in enumerate(record.events):
        if e.type == "move":
            step: Any = e.move
        elif e.type == "throw":
            step = SixDice(tuple(sorted(e.dice)))
        elif e.type == "completion":
            step = Completion(e.rethrows, e.completed)
        else:
            step = Hits(e.hits)
        if state.player != e.player:
            raise InputError(f"event {i + 1}: it is {record.players[state.player]}'s turn")
        try:
            state = state.apply(step)
        except InputError as exc:
            raise InputError(f"event {i + 1}: {exc}") from None
        steps.append(step)
    bots = {str(i): s for i, s in enumerate(record.strategies) if s is not None}
    details = {"manual_dice": record.manual_dice, "bots": bots, **record.extra}
    game = record.game.with_players(len(record.players))
    return Playthrough(game, list(record.players), steps, 0, record.seed, details)


FAMILY = DespiralaFamily()
