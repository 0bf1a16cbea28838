"""The push-your-luck family (Pig, Skunk, Big Pig) behind ``core.family``."""

from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from ..core.distributed import Cluster, refuse
from ..core.errors import InputError
from ..core.family import Family, GameRow, Progress, TableSize, Variant
from ..core.playthrough import Playthrough
from ..core.results import Board, ChartRow, Comparison, SolveInfo
from .records import PushEvent, push_record_from_lines
from .rules import ADD, BUST, PUSH_GAMES, PushGame, format_throw, MAX_FACES, MAX_GOAL, make_push_game
from ..core.steps import Throw
from .scene import scene as push_scene
from .state import Hold, PushState

if TYPE_CHECKING:
    from .encoding import PushEncoding  # the solver and the players load numba kernels: imported when first needed
    from .players import PushPlayer
    from .solutions import WinProbability


class PushBot:
    """A push-your-luck strategy (a fixed throw/hold policy) as a protocol player."""

    def __init__(self, player: PushPlayer):
        self.name = player.name
        self.policy = player

    def choose(self, state: PushState, rng: np.random.Generator) -> Throw | Hold:
        return Throw() if self.policy.throws(state.mine, state.theirs, state.turn_total) else Hold()


@lru_cache(maxsize=64)
def _load(base: str, frozen_choices: tuple[tuple[str, str], ...]) -> PushGame:
    return make_push_game(base, dict(frozen_choices))


class PushLuckFamily(Family[PushGame, PushState]):
    name = "pushluck"
    title = "push-your-luck games for two"
    capabilities = frozenset({"compare", "chart"})
    human_like = ("hold-at-20", "keep-pace")
    rating_bots = (("keep-pace", "expert"), ("hold-at-20", "intermediate"), ("hold-at-10", "beginner"))

    def names(self) -> list[str]:
        return list(PUSH_GAMES)

    def load(self, base: str, choices: dict[str, str]) -> PushGame:
        return _load(base.strip().lower(), tuple(sorted(choices.items())))

    def catalog(self) -> list[GameRow]:
        rows: list[GameRow] = []
        for name in PUSH_GAMES:
            g = self.load(name, {})
            rows.append({"name": name, "title": g.title, "family": self.name, "dice": g.n_dice, "faces": g.faces,
                         "goal": g.goal, "players": "2",
                         "parameters": "goal=N" + (", faces=N (faces=2: piglet, a coin)" if name == "pig" else "")})
        return rows

    def variants(self, base: str) -> list[Variant]:
        game = self.load(base, {})
        goal = Variant("goal", "the points that win", str(game.goal), low=2, high=MAX_GOAL)
        if base != "pig":
            return [goal]
        return [goal, Variant("faces", "the die's faces (2: piglet, a coin)", str(game.faces), low=2, high=MAX_FACES)]

    def facts(self, game: PushGame) -> dict[str, Any]:
        return {"players": "2", "dice": game.n_dice, "faces": game.faces, "goal": game.goal}

    def page(self, game: PushGame) -> dict[str, Any]:
        return {"quick": ["throw", "hold", "hint", "score"], "max_opponents": 1,
                "explore": [{"title": "Strategy chart", "image": "chart.png"}], "start_position": "0,0,0"}

    def judges(self, game: PushGame) -> dict[str, str]:
        return {"exact": "probability of winning under optimal play by both"}

    def table_size(self, game: PushGame, player: str | None = None) -> TableSize | None:
        cells = game.goal**3  # float64 chances by (mine, theirs, turn total); 0.15-0.35 µs a cell (pig, skunk)
        return TableSize(8 * cells, 3.5e-7 * cells)

    def solve(self, game: PushGame, judge: str | None = None, progress: Progress | None = None,
              rebuild: bool = False, on_problem: Callable[[str], None] | None = None,
              cluster: Cluster | None = None) -> WinProbability:
        from .solutions import WinProbability
        from .solver import load_or_solve

        refuse(cluster, game.canonical)
        if judge not in (None, "exact"):
            raise InputError(f"{game.canonical} is judged exactly (probability of winning), not by {judge!r}")
        table, li = load_or_solve(game, rebuild=rebuild, on_problem=on_problem)
        states = game.goal * (game.goal + 1) * game.goal // 2
        info = SolveInfo(game=game.canonical, unit="p_win", value=table.root_value, solved_now=li.built,
                         seconds=li.seconds, states=states, table_bytes=li.table_bytes, table_dir=li.directory,
                         details={"sweeps": li.sweeps})
        return WinProbability(game, table, info)

    def players(self, game: PushGame) -> dict[str, str]:
        from .players import PUSH_STRATEGIES

        return dict(PUSH_STRATEGIES)

    def default_opponents(self, game: PushGame) -> list[str]:
        return ["optimal"]

    def player(self, game: PushGame, name: str, seed: int = 0, progress: Progress | None = None) -> PushBot:
        from ..core import registry
        from .players import make_push_player
        from .solutions import WinProbability

        key = str(name).strip().lower()
        # the process's own solution (registry.solve keeps it): every bot of the game shares its read-only policy
        table = None
        if key in ("optimal", "opt"):
            solved = registry.solve(game, progress=progress)
            assert isinstance(solved, WinProbability)
            table = solved.table

        return PushBot(make_push_player(name, game, table))

    # -- records and the table -----------------------------------------------------------------------
    def read_record(self, path: Path, lines: list[tuple[int, Any]], game: PushGame) -> Playthrough:
        return push_record_from_lines(path, lines, game).playthrough()

    def board(self, state: PushState, names: Sequence[str]) -> Board:
        rows = [[names[s], str(state.scores[s])] for s in (0, 1)]
        lines = [f"goal {state.game.goal}"]
        if state.winner is None:
            lines.append(f"{names[state.mover]} to play, {state.turn_total} at risk")
        return Board(title=state.game.title, columns=["player", "banked"], rows=rows, lines=lines)

    def encoding(self, game: PushGame) -> PushEncoding:
        from .encoding import PushEncoding

        return PushEncoding(game)

    def view(self, state: PushState) -> dict[str, Any]:
        g = state.game
        return {"goal": g.goal, "n_dice": g.n_dice, "faces": g.faces, "scores": list(state.scores),
                "turn_total": state.turn_total, "throwing": state.throwing, "winner": state.winner}

    def totals(self, state: PushState) -> list[int]:
        return list(state.scores)

    scene = staticmethod(push_scene)

    # -- capabilities --------------------------------------------------------------------------------
    def compare(self, game: PushGame, a: str, b: str, progress: Progress | None = None) -> Comparison:
        from .solver import evaluate

        start = time.perf_counter()
        table = self.solve(game).table
        from .players import make_push_player

        pa, pb = make_push_player(a, game, table), make_push_player(b, game, table)
        a_moving, b_moving = evaluate(game, pa.policy, pb.policy)
        first, second = float(a_moving[0, 0, 0]), 1.0 - float(b_moving[0, 0, 0])
        return Comparison.of(game.canonical, pa.name, pb.name, "p_win", first, second, time.perf_counter() - start)

    def chart_figure(self, game: PushGame):
        from .chart import chart_figure

        return chart_figure(self.solve(game).table)

    def chart(self, game: PushGame, mine: int | None = None, theirs: int | None = None) -> list[ChartRow]:
        from .chart import chart_rows

        return [ChartRow(mine=r.mine, theirs=r.theirs, win=r.win, thresholds=r.thresholds)
                for r in chart_rows(self.solve(game).table, mine, theirs)]


FAMILY = PushLuckFamily()
