"""The Farkle family (Farkle as Facebook plays it, Zilch, Kingdom Come's) behind ``core.family``."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence


from ..core.distributed import Cluster, refuse
from ..core.errors import InputError
from ..core.family import Family, GameRow, MatchGames, Progress, TableSize, Variant
from ..core.playthrough import Playthrough
from ..core.results import Board, ChartRow, OddsRow, SolveInfo
from .records import FarkleEvent, farkle_record_from_lines
from .rules import DICE, PRESETS, FarkleGame, format_dice, MAX_GOAL, UNIT, make_farkle_game
from ..core.steps import Throw
from .scene import scene as farkle_scene
from .state import Bank, FarkleState, Take, takes

if TYPE_CHECKING:
    from .encoding import FarkleEncoding  # the solver and the bots load numba kernels: imported when first needed
    from .solutions import FarkleWinProbability


@lru_cache(maxsize=64)
def _load(base: str, frozen_choices: tuple[tuple[str, str], ...]) -> FarkleGame:
    return make_farkle_game(base, dict(frozen_choices))


class FarkleFamily(Family[FarkleGame, FarkleState]):
    name = "farkle"
    title = "Farkle games for two"
    capabilities = frozenset({"chart", "odds", "match"})
    human_like = ("human", "bank-at-300")

    def names(self) -> list[str]:
        return list(PRESETS)

    def load(self, base: str, choices: dict[str, str]) -> FarkleGame:
        return _load(base.strip().lower(), tuple(sorted(choices.items())))

    def catalog(self) -> list[GameRow]:
        rows: list[GameRow] = []
        for name in PRESETS:
            g = self.load(name, {})
            rows.append({"name": name, "title": g.title, "family": self.name, "dice": DICE, "faces": 6,
                         "goal": g.goal, "players": "2", "parameters": "goal=N" + (", floor=N" if g.penalty else ""),
                         # the conformance test's stand-in: the same code on a table solved in seconds
                         "test_spec": f"{name}(goal=1000" + (",floor=-500)" if g.penalty else ")")})
        return rows

    def variants(self, base: str) -> list[Variant]:
        game = self.load(base, {})
        goal = Variant("goal", "the points that win", str(game.goal), low=500, high=MAX_GOAL, step=UNIT)
        if not game.penalty:
            return [goal]
        return [goal, Variant("floor", "the lowest a score may fall to by Farkle penalties", str(game.floor),
                              low=-MAX_GOAL, high=0, step=UNIT)]

    def facts(self, game: FarkleGame) -> dict[str, Any]:
        return {"players": "2", "dice": DICE, "faces": 6, "goal": game.goal}

    def page(self, game: FarkleGame) -> dict[str, Any]:
        return {"quick": ["throw", "bank", "hint", "score"], "max_opponents": 1,
                "explore": [{"title": "Strategy chart", "image": "chart.png"}], "start_position": "0,0"}

    def judges(self, game: FarkleGame) -> dict[str, str]:
        return {"exact": "probability of winning under optimal play by both"}

    def table_size(self, game: FarkleGame, player: str | None = None) -> TableSize | None:
        from math import prod

        from .solver import state_count, table_shape

        # float64 turn-start chances; 2.5-2.9 µs a state on 2 cores (farkle goal 1000 and 2000)
        return TableSize(8 * prod(table_shape(game)), 3e-6 * state_count(game))

    def solve(self, game: FarkleGame, judge: str | None = None, progress: Progress | None = None,
              rebuild: bool = False, on_problem: Callable[[str], None] | None = None,
              cluster: Cluster | None = None) -> FarkleWinProbability:
        from .solutions import FarkleWinProbability
        from .solver import load_or_solve, state_count

        refuse(cluster, game.canonical)
        if judge not in (None, "exact"):
            raise InputError(f"{game.canonical} is judged exactly (probability of winning), not by {judge!r}")
        solution, built, seconds, manifest = load_or_solve(game, progress, rebuild, on_problem)
        info = SolveInfo(game=game.canonical, unit="p_win", value=solution.root_value, solved_now=built,
                         seconds=seconds, states=state_count(game), table_bytes=int(solution.starts.nbytes),
                         table_dir=_table_dir(game),
                         details={"sweeps": manifest.get("sweeps"), "turn_starts": int(solution.starts.size)})
        return FarkleWinProbability(game, solution, info)

    def players(self, game: FarkleGame) -> dict[str, str]:
        from .players import FARKLE_STRATEGIES

        return dict(FARKLE_STRATEGIES)

    def default_opponents(self, game: FarkleGame) -> list[str]:
        return ["optimal"]

    def check_player(self, game: FarkleGame, name: str) -> None:
        from .players import make_farkle_player

        if str(name).strip().lower() not in ("optimal", "opt"):
            make_farkle_player(name, game)

    def player(self, game: FarkleGame, name: str, seed: int = 0, progress: Progress | None = None):
        from .players import make_farkle_player

        key = str(name).strip().lower()
        solution = self.solve(game, progress=progress) if key in ("optimal", "opt") else None
        return make_farkle_player(name, game, solution)

    # -- records and the table -----------------------------------------------------------------------
    def read_record(self, path: Path, lines: list[tuple[int, Any]], game: FarkleGame) -> Playthrough:
        return farkle_record_from_lines(path, lines, game).playthrough()

    def board(self, state: FarkleState, names: Sequence[str]) -> Board:
        rows = [[names[s], f"{state.scores[s]:,}", "x" * state.farkles[s] or "-"] for s in (0, 1)]
        lines = [f"goal {state.game.goal:,}"]
        if state.winner is None:
            lines.append(f"{names[state.mover]} to play: {state.brief()}")
        return Board(title=state.game.title, columns=["player", "banked", "Farkles in a row"], rows=rows, lines=lines)

    def encoding(self, game: FarkleGame) -> FarkleEncoding:
        from .encoding import FarkleEncoding

        return FarkleEncoding(game)

    def view(self, state: FarkleState) -> dict[str, Any]:
        g = state.game
        return {"goal": g.goal, "floor": g.floor, "scores": list(state.scores), "farkles": list(state.farkles),
                "farkle_limit": g.farkle_limit, "penalty": g.penalty, "turn_total": state.turn_total,
                "left": state.left, "table": list(state.table),
                "phase": state.phase if state.winner is None else "over",
                "winner": state.winner,
                "takes": [{"dice": list(t.dice), "points": p} for t, p in takes(g, state.table)] if state.table else []}

    def totals(self, state: FarkleState) -> list[int]:
        return list(state.scores)

    scene = staticmethod(farkle_scene)

    # -- capabilities --------------------------------------------------------------------------------
    def chart_figure(self, game: FarkleGame):
        from .chart import chart_figure

        return chart_figure(game, self.solve(game).table)

    def chart(self, game: FarkleGame, mine: int | None = None, theirs: int | None = None) -> list[ChartRow]:
        from .chart import chart_rows

        return [ChartRow(mine=r.mine, theirs=r.theirs, win=r.win, thresholds=r.thresholds, dice=r.dice)
                for r in chart_rows(game, self.solve(game).table, mine, theirs)]

    def odds(self, game: FarkleGame, exact: bool = False) -> list[OddsRow]:
        """One throw of 1 to 6 dice: the expected points of its best set-aside, the most it can score and
        the chance of that, the chance of a Farkle and of hot dice."""
        from fractions import Fraction

        from .solitaire import throw_odds

        return [OddsRow(category=f"throw {r.dice} di{'e' if r.dice == 1 else 'ce'}", max_points=r.most,
                        expected_points=r.best_points, p_max=r.p_most,
                        p_max_exact=str(Fraction(round(r.p_most * 6 ** r.dice), 6 ** r.dice)) if exact else None,
                        p_nothing=r.p_farkle, p_every_die=r.p_hot_dice)
                for r in throw_odds(game)]

    def match(self, game: FarkleGame, names: list[str], n: int, seed: int,
              progress: Progress | None = None) -> MatchGames:
        from .match import farkle_match

        if len(names) != 2:
            raise InputError("a Farkle match is between two bots, e.g. optimal human")
        bots = [self.player(game, name, seed, progress) for name in names]
        return farkle_match(game, bots, n, seed, progress)


def _table_dir(game: FarkleGame) -> str:
    from ..core import tables
    from .solver import KIND

    return str(tables.TableKey(KIND, game.canonical, game.fingerprint).directory)


FAMILY = FarkleFamily()
