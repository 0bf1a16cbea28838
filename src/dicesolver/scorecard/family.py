"""The scorecard family (the Yahtzee family and games described in rules files) behind ``core.family``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from ..core.distributed import Cluster, refuse
from ..core.errors import InputError
from ..core.family import Family, GameRow, MatchGames, Progress, Simulated, TableSize, Variant
from ..core.playthrough import Playthrough
from ..core.protocol import Unit
from ..core.results import Board, Comparison, Distribution, OddsRow, SolveInfo, StrategyFacts, TargetCurve
from ..core.solved import SolvedGame
from ..core.aims import (FIELD_TEMPLATE, MAX_NEED, TARGET_TEMPLATE, THETA_TEMPLATE, AtLeast, Beat, Field,
                         FinalScoreGoal, Goal, Mean, RiskAppetite, check_theta, parse_field_player, parse_goal,
                         parse_target, parse_theta_player, theta_player)
from .bots.names import ALIASES, BOTS
from .bots.protocol import ScorecardBot
from .game.presets import load_scorecard_game, looks_like_path, preset_names
from .game.records import record_from_lines
from .game.rules import ScorecardGame
from .game.state import ScorecardState
from .scene import scene as scorecard_scene

if TYPE_CHECKING:
    from .batch.envs import ScorecardBatch
    from .game.encoding import ScorecardEncoding  # the solvers load numba kernels: imported when first needed
    from .mindful.solution import MindfulModel
    from .solitaire.solution import ExpectedScore

EXACT_BY_DEFAULT_CATEGORIES = 10  # bigger two-player games are judged exactly only when asked or already solved
SUBGAME_LIMIT = 5_000_000  # lanes: below this, an uncached two-player position is solved as a sub-game



def _info(game: ScorecardGame, unit: Unit, value: float, built: bool, seconds: float, states: int, nbytes: int,
          directory: str, **details: Any) -> SolveInfo:
    return SolveInfo(game=game.canonical, unit=unit, value=value, solved_now=built, seconds=seconds, states=states,
                     table_bytes=nbytes, table_dir=directory, details=details)


DUEL_CELL_SECONDS = 6e-7  # two-person Generala's 8.7e7 cells in 50 s on 2 cores (BENCHMARKS.md)
BIG_DUEL_CELL_SECONDS = 2.3e-6  # two-person Yacht's 1.56e9 cells in about an hour (its levels outgrow the caches)


class ScorecardFamily(Family[ScorecardGame, ScorecardState]):
    name = "scorecard"
    title = "scorecard games (the Yahtzee family, and your own rules files)"
    capabilities = frozenset({"batch", "compare", "strategy_facts", "target", "risk", "goals", "match", "simulate",
                              "distribution", "odds"})
    human_like = ("joe", "greedy")
    rating_bots = (("contender", "expert"), ("greedy", "intermediate"), ("semi-random", "beginner"))

    # -- games ---------------------------------------------------------------------------------------
    def names(self) -> list[str]:
        return preset_names()

    def owns(self, base: str) -> bool:
        return looks_like_path(base) or base.strip().lower() in self.names()

    def load(self, base: str, choices: dict[str, str]) -> ScorecardGame:
        return load_scorecard_game(base, choices)

    def catalog(self) -> list[GameRow]:
        rows: list[GameRow] = []
        for name in preset_names():
            game = load_scorecard_game(name, {})
            rows.append({"name": name, "title": game.title, "family": self.name, "dice": game.n_dice,
                         "faces": game.faces, "rolls": game.rolls, "categories": game.n_categories,
                         "players": "1-6",
                         "variants": {v.key: {"values": list(v.values), "default": v.default, "help": v.help}
                                      for v in self.variants(name)}})
        return rows

    def variants(self, base: str) -> list[Variant]:
        game = load_scorecard_game(base, {})
        return [Variant(v.key, v.help, v.default, tuple(v.values)) for v in game.variant_specs]

    def page(self, game: ScorecardGame) -> dict[str, Any]:
        return {"quick": ["", "all", "none", "hint", "card"], "max_opponents": 5,
                "explore": [{"title": "Final-score distribution of optimal play", "image": "distribution.png"},
                            {"title": "Risk appetites: mean against spread, and percentiles by theta",
                             "image": "frontier.png"}],
                "start_position": "/-"}

    # -- solutions -----------------------------------------------------------------------------------
    def facts(self, game: ScorecardGame) -> dict[str, Any]:
        return {"players": "1-6", "dice": game.n_dice, "faces": game.faces, "rolls": game.rolls,
                "categories": [{"name": c.name, "title": c.title, "max_points": max(game.possible_scores(i)),
                                "upper": c.is_upper} for i, c in enumerate(game.categories)],
                "upper_threshold": game.upper_threshold if game.has_upper_bonus else 0,
                "upper_points": game.upper_points if game.has_upper_bonus else 0,
                "extra_bonus": game.extra_yacht.points if game.extra_yacht else 0,
                "extra_bonus_box": game.extra_yacht.category if game.extra_yacht else -1}

    def judges(self, game: ScorecardGame) -> dict[str, str]:
        if game.players == 1:
            return {"points": "expected final score"}
        out = {}
        if game.players == 2 and _duel_capable(game):
            out["exact"] = "exact equity of the two-player table"
        if _mindful_fits(game.with_players(1)):
            out["mindful"] = "expected result when everyone plays Maximus from then on (Mindful Maximus)"
        out["points"] = "each player's expected final score, ignoring the others"
        return out

    def solve(self, game: ScorecardGame, judge: str | None = None, progress: Progress | None = None,
              rebuild: bool = False, on_problem: Callable[[str], None] | None = None,
              cluster: Cluster | None = None) -> SolvedGame:
        judges = self.judges(game)
        if judge is None and cluster is not None and game.players == 2:
            judge = "exact"  # a cluster is asked for to build the exact table
        judge = judge or _default_judge(game, judges)
        if judge == "exact" and game.players == 2:
            check_duel_game(game)  # why not, and how big its table would be
        if judge != "exact":
            refuse(cluster, f"{game.canonical} judged by {judge}")
        if judge not in judges:
            raise InputError(f"{game.canonical} with {game.players} player(s) is judged by "
                             f"{', '.join(judges)}, not {judge!r}")
        if judge == "points":
            return self._expected_score(game, progress, rebuild, on_problem)
        if judge == "exact":
            from .duel import table as duel
            from .duel.solution import DuelEquity

            single = game.with_players(1)
            table, seconds, built = duel.load_or_solve(single, progress=progress, rebuild=rebuild,
                                                       on_problem=on_problem, cluster=cluster)
            info = _info(game, "equity", table.first_player_equity(), built, seconds, int(table.values.shape[0]),
                         int(table.values.nbytes), str(duel.table_key(single).directory))
            return self._beside_points(DuelEquity(game, table, info))
        return self._mindful(game, progress, rebuild, on_problem)

    def _beside_points(self, solution: SolvedGame) -> SolvedGame:
        """A chance or an equity, explained beside the points of the player on turn as if alone."""
        from .solitaire.breakdown import breakdown_size
        from .game.size import solve_cost

        single = solution.game.with_players(1)

        def size() -> TableSize:
            cost = solve_cost(single)  # the points table, then its breakdown
            why = breakdown_size(single, cost.states)
            return TableSize(cost.table_bytes + why.bytes, cost.seconds + (why.seconds or 0.0))

        solution.explain_beside(lambda progress: self._expected_score(single, progress, False, None), size)
        return solution

    def table_size(self, game: ScorecardGame, player: str | None = None) -> TableSize | None:
        from .duel.table import level_cells, supports
        from .game.size import solve_cost

        single = game.with_players(1)
        if player is None:
            judge = _default_judge(game, self.judges(game))
            duel, solitaire = judge == "exact" and game.players == 2, judge == "points"
        else:
            key = _bot_key(player)
            if key.startswith(("target:", "field:", "theta:")):  # a goal's player reads the goal's tables
                return self.goal_size(game, parse_goal(key))
            duel = key == "malina" and supports(single)
            solitaire = not duel and key not in ("joe", "mindful")
        if duel:  # float32 cells
            cells = sum(level_cells(single).values())
            return TableSize(4 * cells, (DUEL_CELL_SECONDS if cells < 2.5e8 else BIG_DUEL_CELL_SECONDS) * cells)
        if solitaire:
            cost = solve_cost(single)
            return TableSize(cost.table_bytes, cost.seconds)
        return None

    def goal_size(self, game: ScorecardGame, goal: Goal) -> TableSize | None:
        from .game.size import needs_cost, solve_cost

        single = game.with_players(1)
        if isinstance(goal, (Mean, RiskAppetite)):  # a risk appetite's table: the mean's, solved in twice the time
            cost = solve_cost(single)
            return TableSize(cost.table_bytes, (2 if isinstance(goal, RiskAppetite) else 1) * cost.seconds)
        if isinstance(goal, Field) and goal.others is None:  # its aim is known once the others' scores are:
            return needs_cost(single, min(int(single.max_scores.sum()) + 100, MAX_NEED))  # at most past any score
        if isinstance(goal, FinalScoreGoal):
            return needs_cost(single, goal.needs())
        return None

    def _expected_score(self, game, progress, rebuild, on_problem) -> ExpectedScore:
        from .solitaire.table import load_or_solve
        from .solitaire.solution import ExpectedScore

        table, si = load_or_solve(game.with_players(1), progress=progress, rebuild=rebuild, on_problem=on_problem)
        info = _info(game, "points", table.root_value, si.built, si.seconds, int(table.values.shape[0]),
                     si.table_bytes, si.directory)
        return ExpectedScore(game, table, info)

    def risk_solution(self, game: ScorecardGame, theta: float, progress: Progress | None = None) -> SolvedGame:
        from .solitaire.solution import ScorecardCertaintyEquivalent
        from .solitaire.table import load_or_solve

        theta = check_theta(theta)
        if theta == 0.0:  # the mean: its own table, bit for bit
            return self._expected_score(game, progress, False, None)
        table, si = load_or_solve(game.with_players(1), progress=progress, theta=theta)
        info = _info(game, "ce", table.root_value, si.built, si.seconds, int(table.values.shape[0]),
                     si.table_bytes, si.directory, theta=theta).model_copy(update={"judge": "risk"})
        return ScorecardCertaintyEquivalent(game, table, info, theta)

    def _mindful(self, game, progress, rebuild, on_problem) -> MindfulModel:
        from .mindful.future import load_or_build, table_key
        from .mindful.player import MindfulPlayer
        from .mindful.solution import MindfulModel

        table, built, seconds = load_or_build(game.with_players(1), progress=progress, rebuild=rebuild,
                                              on_problem=on_problem)
        player = MindfulPlayer(game.with_players(1), table)
        result = MindfulModel(game, player, _info(game, "equity", 0.0, built, seconds, int(table.offset.shape[0]),
                                                  table.nbytes, str(table_key(game).directory)))
        value = result.value(game.start(), 0)
        result.info = result.info.model_copy(update={"value": value})
        self._beside_points(result)
        return result

    def quick_solution(self, state: ScorecardState) -> SolvedGame | None:
        """Two players: the exact table when it is on disk, else the sub-game below a late position."""
        game = state.game
        if game.players != 2 or not _duel_capable(game):
            return None
        from .duel import table as duel
        from .duel.solution import DuelEquity

        if (duel.table_key(game.with_players(1)).directory / "manifest.json").exists():
            return None  # the whole game's table answers (the registry keeps it loaded)
        me, other = state.card, state.opponents()[0]
        sub = duel.DuelModel(game, (me.used, other.used))
        if sub.size > SUBGAME_LIMIT:
            return None
        values = sub.solve()
        info = _info(game, "equity", float("nan"), True, 0.0, sub.size, int(values.nbytes), "",
                     subgame=str(state))
        return self._beside_points(DuelEquity(game, duel.DuelTable(sub, values), info))

    # -- players -------------------------------------------------------------------------------------
    def players(self, game: ScorecardGame) -> dict[str, str]:
        return dict(BOTS) | {TARGET_TEMPLATE: "plays its own card for the best chance of at least T points "
                                              "(e.g. target:300; solitaire play: simulate, play, matches of "
                                              "solitaire strategies)",
                             FIELD_TEMPLATE: "plays its own card for the best chance of the top score in a blind "
                                             "tournament of N against players who play for the mean (e.g. "
                                             "field:10; see solve --field)",
                             THETA_TEMPLATE: "plays its own card for the best certainty equivalent of a risk "
                                             "appetite X from -1 to 1 (e.g. theta:0.02 bold, theta:-0.02 "
                                             "cautious; see solve --theta)"}

    def check_player(self, game: ScorecardGame, name: str) -> None:
        if _bot_key(name) == "malina":
            check_duel_game(game.with_players(1))

    def bot_notes(self, game: ScorecardGame, names: Sequence[str]) -> list[str]:
        if len(names) > 2 and any(_safe_key(n) == "malina" for n in names):
            return ["malina plays the exact two-person strategy against the most dangerous opponent (the one her "
                    "equity is lowest against), as in matches"]
        return []

    def player(self, game: ScorecardGame, name: str, seed: int = 0, progress: Progress | None = None) -> ScorecardBot:
        key = _bot_key(name)
        single = game.with_players(1)
        aim = parse_target(key)
        if aim is not None:
            from .target.player import TargetPlayer

            return ScorecardBot(key, TargetPlayer.build(single, aim, progress))
        field = parse_field_player(key)
        if field is not None:
            from .target.player import TargetPlayer

            return ScorecardBot(key, TargetPlayer.for_goal(single, field, progress))
        if key == "joe":
            from .bots.joe import JoePlayer

            return ScorecardBot(key, JoePlayer(single))
        if key == "mindful":
            from .mindful.player import MindfulPlayer

            return ScorecardBot(key, MindfulPlayer(single))
        if key == "malina":
            from .duel import table as duel
            from .duel.malina import MalinaPlayer

            check_duel_game(single)
            return ScorecardBot(key, MalinaPlayer(duel.load_or_solve(single, progress=progress)[0]))
        from .bots.players import make_player

        return ScorecardBot(key, make_player(key, single, seed=seed))

    # -- records and the table -----------------------------------------------------------------------
    def read_record(self, path: Path, lines: list[tuple[int, Any]], game: ScorecardGame) -> Playthrough:
        return record_from_lines(path, lines).playthrough()

    def board(self, state: ScorecardState, names: Sequence[str]) -> Board:
        g = state.game
        cards = state.cards
        rows, faint = [], []
        last_upper = max((i for i, k in enumerate(g.categories) if k.is_upper), default=-1)
        for c, cat in enumerate(g.categories):
            rows.append([cat.name] + ["·" if p.boxes[c] is None else str(p.boxes[c]) for p in cards])
            if c == last_upper and g.has_upper_bonus:
                cells = []
                for p in cards:
                    up = p.upper_total(g)
                    cells.append(f"{up}/{g.upper_threshold} +{g.upper_points if up >= g.upper_threshold else 0}")
                faint.append(len(rows))
                rows.append(["upper (bonus)"] + cells)
        for b in g.set_bonuses:
            faint.append(len(rows))
            sums = [sum(p.boxes[c] or 0 for c in b.boxes) for p in cards]
            rows.append([b.title.lower()] + [f"{s}/{b.threshold} +{b.points if s >= b.threshold else 0}" for s in sums])
        if any(p.extra_bonus for p in cards):
            rows.append(["extra bonus"] + [str(p.extra_bonus) for p in cards])
        rows.append(["total"] + [str(p.total(g)) for p in cards])
        lines = []
        if len(cards) == 2:
            diff = cards[0].total(g) - cards[1].total(g)
            lines.append(f"{names[0]} {'lead' if diff > 0 else 'trail' if diff < 0 else 'are level'}"
                         + (f" by {abs(diff)}" if diff else "") if names[0] == "you" else
                         f"{names[0]} {diff:+d} against {names[1]}")
        return Board(title=f"{g.title} ({g.canonical})", columns=["box"] + list(names), rows=rows,
                     strong=[len(rows) - 1], faint=faint, lines=lines)

    def has_batch(self, game: ScorecardGame) -> bool:
        return True

    def batch(self, game: ScorecardGame, num_envs: int, judge: bool = False) -> ScorecardBatch:
        from .batch.envs import ScorecardBatch

        return ScorecardBatch(game.with_players(1), num_envs, judge)

    def encoding(self, game: ScorecardGame) -> ScorecardEncoding:
        from .game.encoding import ScorecardEncoding

        return ScorecardEncoding(game)

    def view(self, state: ScorecardState) -> dict[str, Any]:
        g = state.game
        return {
            "categories": [{"name": c.name, "title": c.title, "upper": c.is_upper, "max": int(most)}
                           for c, most in zip(g.categories, g.max_scores)],
            "cards": [{"boxes": list(p.boxes), "total": p.total(g), "upper": p.upper_total(g),
                       "extra_bonus": p.extra_bonus,
                       "sets": [sum(p.boxes[c] or 0 for c in b.boxes) for b in g.set_bonuses]} for p in state.cards],
            "upper_threshold": g.upper_threshold if g.has_upper_bonus else 0,
            "upper_points": g.upper_points if g.has_upper_bonus else 0,
            # the bonuses on other sets of boxes, each drawn like the upper one under the last of its boxes
            "set_bonuses": [{"title": b.title, "boxes": list(b.boxes), "threshold": b.threshold, "points": b.points}
                            for b in g.set_bonuses],
            "n_dice": g.n_dice, "faces": g.faces, "rolls": g.rolls,
            "dice": list(state.dice) if state.dice is not None else [], "held": list(state.held),
            "rolls_left": state.rolls_left,
        }

    def totals(self, state: ScorecardState) -> list[int]:
        return [c.total(state.game) for c in state.cards]

    scene = staticmethod(scorecard_scene)

    # -- capabilities --------------------------------------------------------------------------------
    def compare(self, game: ScorecardGame, a: str, b: str, progress: Progress | None = None) -> Comparison:
        from .duel import table as duel
        from .duel.compare import compare_exact, duel_strategy

        single = game.with_players(1)
        check_duel_game(single)
        duel_strategy(a, single), duel_strategy(b, single)  # unknown names fail before any long work
        optimal = None
        if "malina" in (a.strip().lower(), b.strip().lower()):
            optimal = duel.load_or_solve(single, progress=progress)[0]
        r = compare_exact(optimal, single, a, b, progress=progress)
        return Comparison.of(r.game, r.a, r.b, "equity", r.first, r.second, r.seconds)

    def target_solution(self, game: ScorecardGame, score: int, beat: bool = False, progress: Progress | None = None,
                        at: ScorecardState | None = None) -> SolvedGame:
        if score <= 0 and not beat:
            raise InputError("a target is a positive number of points (every game reaches 0)")
        if score < 0:
            raise InputError("a score to beat is 0 points or more")
        return self.goal_solution(game, Beat(score) if beat else AtLeast(score), progress)

    def goal_solution(self, game: ScorecardGame, goal: FinalScoreGoal, progress: Progress | None = None,
                      at: ScorecardState | None = None) -> SolvedGame:
        """The best chance of any goal on one player's final score, from the table of needs built for its
        utility (a field without scores plays against this game's mean-players' exact distribution); the
        whole game's table, whatever the position ``at``."""
        from .solitaire.table import TurnState
        from .target.solution import ScorecardTargetChance
        from .target.table import load_or_build_goal

        single = game.with_players(1)
        table, goal, built, seconds = load_or_build_goal(single, goal, progress)
        info = SolveInfo(game=single.canonical, unit="p_target", value=table.chance(TurnState(0), goal.aim()),
                         solved_now=built, seconds=seconds, states=int(table.V.shape[0]),
                         table_bytes=int(table.V.nbytes), table_dir=table.directory,
                         details={k: v for k, v in goal.details(0).items() if k not in ("score_so_far", "need")})
        return self._beside_points(ScorecardTargetChance(game, table, goal, info))

    def target_curve(self, game: ScorecardGame, up_to: int | None = None,
                     progress: Progress | None = None) -> TargetCurve:
        import time

        from .solitaire.distribution import score_distribution
        from .target.solution import ScorecardTargetChance

        start = time.perf_counter()
        single = game.with_players(1)
        dist = score_distribution(self._expected_score(single, progress, False, None).table, progress=progress)
        up_to = dist.percentile(95) if up_to is None else up_to
        if up_to <= 0:
            raise InputError("the curve goes up to a positive number of points")
        solution = self.target_solution(single, up_to, progress=progress)
        assert isinstance(solution, ScorecardTargetChance)
        best = solution.curve()[: up_to + 1]
        reach = np.cumsum(dist.probabilities[::-1])[::-1]  # the expected-score strategy's P(total >= T)
        theirs = np.array([reach[t] if t < len(reach) else 0.0 for t in range(up_to + 1)])
        gain = best - theirs
        at = int(np.argmax(gain))
        return TargetCurve(game=single.canonical, targets=list(range(up_to + 1)), best=[float(x) for x in best],
                           expected_score_strategy=[float(x) for x in theirs], largest_gain=float(gain[at]),
                           largest_gain_at=at, seconds=time.perf_counter() - start)

    def strategy_facts(self, game: ScorecardGame, progress: Progress | None = None) -> StrategyFacts:
        from .duel import table as duel
        from .duel.facts import strategy_facts

        single = game.with_players(1)
        check_duel_game(single)
        optimal = duel.load_or_solve(single, progress=progress)[0]
        return strategy_facts(optimal, progress)

    def match(self, game: ScorecardGame, names: list[str], n: int, seed: int,
              progress: Progress | None = None) -> MatchGames:
        from .match.play import MatchSetup, play_match

        single = game.with_players(1)
        MatchSetup.check_names(single, names)
        return play_match(single, names, n=n, seed=seed, progress=progress)

    def simulate(self, game: ScorecardGame, names: list[str], n: int, seed: int, samples: int = 0,
                 progress: Progress | None = None) -> list[Simulated]:
        from .bots.simulate import simulate

        if samples:
            raise InputError("--samples is for despirala")
        return simulate(game.with_players(1), [ALIASES.get(p.strip().lower(), p) for p in names], n=n, seed=seed,
                        progress=progress)

    def distribution(self, game: ScorecardGame, progress: Progress | None = None,
                     theta: float | None = None) -> Distribution:
        from .solitaire.distribution_cache import load_or_build

        single = game.with_players(1)
        theta = check_theta(theta) if theta is not None else 0.0
        risky = self.risk_solution(single, theta, progress) if theta else None

        def table():
            return (risky or self._expected_score(single, progress, False, None)).table

        dist, perfect = load_or_build(single, table, progress, theta)
        p = dist.probabilities
        support = np.nonzero(p > 0)[0]
        return Distribution(
            game=game.canonical, mean=dist.mean, sd=dist.sd,
            percentiles={str(q): dist.percentile(q) for q in (1, 5, 10, 25, 50, 75, 90, 95, 99)}, mode=dist.mode,
            min=int(support[0]), max=int(support[-1]), bonus_probability=dist.bonus_probability,
            extra_bonus_mean=dist.extra_bonus_mean,
            extra_bonus_box=single.categories[single.extra_yacht.category].name if single.extra_yacht else None,
            category_probabilities={c.name: float(x) for c, x in zip(game.categories, dist.category_probabilities)},
            perfect_game_probability=perfect, perfect_game_one_in=1 / perfect if perfect > 0 else float("inf"),
            probabilities={int(s): float(p[s]) for s in support}, theta=theta)

    def odds(self, game: ScorecardGame, exact: bool = False) -> list[OddsRow]:
        from .turn.odds import one_turn_odds

        return [OddsRow(category=r.category, max_points=r.max_points, expected_points=r.expected_points, p_max=r.p_max,
                        p_max_exact=r.p_max_exact) for r in one_turn_odds(game, exact=exact)]


def check_duel_game(game: ScorecardGame) -> None:
    """InputError where the exact two-player solver cannot play the game (the solver's kernels load only then)."""
    from .duel.table import check_duel_game as check

    check(game)


_MINDFUL_BYTES: dict[str, int] = {}  # Mindful Maximus's table bound, by the rules' fingerprint


def _mindful_fits(game: ScorecardGame) -> bool:
    """Whether Mindful Maximus's table is within the limit for one table (Maxi Yatzy's would be about 90 GB:
    its games with others are judged by each player's points), or allowed beyond it."""
    from .game.size import TABLE_LIMIT_BYTES, big_allowed
    from .mindful.future import future_size
    from .solitaire.table import SolitaireModel

    if game.fingerprint not in _MINDFUL_BYTES:
        _MINDFUL_BYTES[game.fingerprint] = future_size(SolitaireModel(game)).bytes
    return _MINDFUL_BYTES[game.fingerprint] <= TABLE_LIMIT_BYTES or big_allowed()


def _default_judge(game: ScorecardGame, judges: dict[str, str]) -> str:
    """The exact two-player table, where it is on disk or quick to build (Generala: under a minute on two
    cores); Mindful Maximus for bigger games (two-person Yacht's table takes the better part of an hour)."""
    if "exact" in judges and game.n_categories > EXACT_BY_DEFAULT_CATEGORIES:
        from .duel import table as duel

        if not (duel.table_key(game.with_players(1)).directory / "manifest.json").exists():
            return next(j for j in judges if j != "exact")
    return next(iter(judges))


def _safe_key(name: str) -> str:
    return str(name).strip().lower()


def _bot_key(name: str) -> str:
    key = str(name).strip().lower().replace("_", "-")
    aim = parse_target(key)
    if aim is not None:
        return f"target:{aim}"
    field = parse_field_player(key)
    if field is not None:
        return field.text()
    theta = parse_theta_player(key)
    if theta is not None:
        return theta_player(theta)
    key = ALIASES.get(key, key)
    if key not in BOTS:
        raise InputError(f"unknown player {name!r} (players: {', '.join(BOTS)})")
    return key


def _duel_capable(game: ScorecardGame) -> bool:
    from .duel.table import supports

    return supports(game)


FAMILY = ScorecardFamily()
