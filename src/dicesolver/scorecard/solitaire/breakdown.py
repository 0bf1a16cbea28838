"""Why an option is worth what it is (``dicesolver advise --explain``, ``ds.explain``): its expected final
score split over what produces it (each box, the upper bonus, the extra bonuses) under optimal play from
there, and the standard deviation of the final score.

Every turn-start state's split and variance are a table, built once from the solitaire table by one
backward sweep over the turn's distinct outcomes (``kernels/breakdown.py``) and cached like every table
(each box, the two bonuses and the variance: 16 float64 a state for Yahtzee, 74 MB). One position's options
are then the turn widget run in numpy over rows of [aspects..., future mean, future variance], each choice
made by value as the optimal player makes it (the first best), each throw a mixture (the law of total
variance)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import numpy as np

from ...core import tables
from ...core.errors import TableError
from ...core.family import TableSize, tell_stage
from ..game.rules import ScorecardGame
from .table import SolitaireModel, SolitaireTable
from ..turn.widget import keep_steps

if TYPE_CHECKING:
    from ...core.inplace import InPlaceBuild
    from .answers_numpy import SolitaireNumpy

BREAKDOWN_KIND = "breakdown"
UPPER_BONUS, EXTRA_BONUS = "upper_bonus", "extra_bonus"
CHUNK_STATES = 20_000  # states per batch of turn outcomes (as the distribution's)
STATES_PER_SECOND = 60_000  # the sweep's pace on the 2-core machine (Yahtzee 8.6 s, Yatzy 24.9 s)


def aspect_names(game: ScorecardGame) -> list[str]:
    """The table's columns: the boxes by name, then the upper bonus and the extra bonuses."""
    return [c.name for c in game.categories] + [UPPER_BONUS, EXTRA_BONUS]


def aspect_titles(game: ScorecardGame) -> dict[str, str]:
    """Each aspect's name in words."""
    bonuses = "upper bonus" if not game.set_bonuses else "bonuses"  # the column holds every set bonus
    return {c.name: c.title for c in game.categories} | {UPPER_BONUS: bonuses, EXTRA_BONUS: "extra bonuses"}


def aspect_prizes(game: ScorecardGame) -> dict[str, float]:
    """The aspects that pay one fixed amount when they pay, and that amount: the boxes of fixed points (the
    straights, a full house, the Yahtzee box) and the upper bonus where it is the only set bonus. Each one's
    expected points over its prize is the chance it pays (``core.why.chances_of``)."""
    prizes = {c.name: float(c.fixed_points) for c in game.categories if c.fixed_points}
    if game.has_upper_bonus and not game.set_bonuses and game.upper_points > 0:
        prizes[UPPER_BONUS] = float(game.upper_points)
    return prizes


@dataclass(frozen=True)
class BreakdownTable:
    """Every turn-start state's expected future points by aspect, and the variance of its future points."""

    game: ScorecardGame
    model: SolitaireModel
    values: np.ndarray  # [state] the solitaire table: expected future points
    aspects: np.ndarray  # [state, aspect]
    variance: np.ndarray  # [state]


def sweep(solution: SolitaireTable, aspects: np.ndarray | None, variance: np.ndarray | None,
          progress: Callable[[int, int], None] | None = None, build: InPlaceBuild | None = None) -> None:
    """Every state's aspects and variance into ``aspects`` [state, aspect] and ``variance`` [state] (zero
    where nothing is to come), level by level from the last turn back; ``progress(states done, states)``.

    ``build``: the table is built in place on disk (``core.inplace``), one level a step: ``aspects`` and
    ``variance`` are then None, and each level maps the files anew (only the pages of this level and the
    one it reads stay in memory) and is checkpointed, so that a killed build carries on from its last
    level."""
    from ...core.jit import Stripes
    from .distribution import OutcomeBuffers, turn_outcome_batch
    from .kernels.breakdown import pull_breakdown

    model, game = solution.model, solution.game
    n_aspects = game.n_categories + 2
    values = np.ascontiguousarray(solution.values)
    levels = model.levels()[:-1]  # the full card has nothing to come
    work = [int((model.n_bonus_lanes[us] * model.n_groups[us]).sum()) for us in levels]
    total, done = sum(work), 0
    buffers = OutcomeBuffers()
    with Stripes() as stripes:  # one pool of threads for every level's kernels
        for k in range(len(levels) - 1, -1, -1):
            us, step = levels[k], f"level {k}"
            if build is not None:
                if step in build.done:
                    done += work[k]
                    continue
                maps = (build.segment("aspects", 0, model.size * n_aspects, writable=True),
                        build.segment("variance", 0, model.size, writable=True))
                aspects, variance = np.asarray(maps[0]).reshape(model.size, n_aspects), np.asarray(maps[1])
            lanes = (model.n_bonus_lanes[us] * model.n_groups[us]).astype(np.int64)
            start = 0
            while start < len(us):
                stop = start + max(1, int(np.searchsorted(np.cumsum(lanes[start:]), CHUNK_STATES, side="right")))
                chunk = us[start:stop].astype(np.int64)
                chunk_lanes = lanes[start:stop]
                slots = np.concatenate([[0], np.cumsum(chunk_lanes)[:-1]]).astype(np.int64)
                n_states = int(chunk_lanes.sum())
                outcomes = turn_outcome_batch(model, values, chunk, slots, n_states, stripes, None, buffers)
                rows = (np.repeat(model.offset[chunk].astype(np.int64), chunk_lanes)
                        + np.arange(n_states) - np.repeat(slots, chunk_lanes))
                stripes.each(pull_breakdown, rows, outcomes, values, model.rules, aspects, variance)
                if build is not None:
                    build.release(list(maps))  # the chunk's pages: its states lie all over the file
                start = stop
                done += n_states
                if progress:
                    progress(done, total)
            if build is not None:
                build.checkpoint(step, list(maps))
                del maps, aspects, variance  # unmapped: this level's pages leave the process


def in_memory(game: ScorecardGame, states: int) -> bool:
    """Whether the breakdown table is built in memory (float64), or in place on disk (float32, a level at a
    time: Maxi Yatzy's 61.6 million turn starts would need 11.3 GB in memory), beyond the limit for one table."""
    from ..game.size import TABLE_LIMIT_BYTES

    return states * (game.n_categories + 3) * 8 <= TABLE_LIMIT_BYTES


def breakdown_size(game: ScorecardGame, states: int) -> TableSize:
    """The breakdown table's bytes for a game of ``states`` turn states (each state's aspects and variance,
    float64 in memory, float32 on disk for the biggest games: ``in_memory``) and build time (60,000 states a
    second on the 2-core machine, BENCHMARKS.md)."""
    width = 8 if in_memory(game, states) else 4
    return TableSize(states * (game.n_categories + 3) * width, states / STATES_PER_SECOND)


def explainable(game: ScorecardGame, states: int) -> bool:
    """Whether the breakdown table is cached, or may be built in memory here (within the limits for one
    table): what the trainer, a review and the pages ask for. A table built on disk (``in_memory``: the
    biggest games) is built when asked for by name (``advise --explain``), minutes the first time."""
    from ..game.size import LIMIT_SECONDS, big_allowed

    size = breakdown_size(game, states)
    if in_memory(game, states) and (size.seconds or 0.0) <= LIMIT_SECONDS or big_allowed():
        return True
    return (tables.TableKey(BREAKDOWN_KIND, game.canonical, game.fingerprint).directory / "manifest.json").exists()


def load_or_build(game: ScorecardGame, solution: Callable[[], SolitaireTable],
                  progress: Callable[[int, int], None] | None = None) -> BreakdownTable:
    """The breakdown table of a one-player game: from the cache, or built now from ``solution()`` (with
    ``progress``) and cached; the biggest games' in place on disk (``in_memory``), resumed after a kill."""
    from ...core import inplace
    from ..game.size import check_table

    table = solution()
    model = table.model
    n_aspects = game.n_categories + 2
    key = tables.TableKey(BREAKDOWN_KIND, game.canonical, game.fingerprint)
    what = f"explaining its {model.size:,} turn starts (each box's share and the spread)"
    size = breakdown_size(game, model.size)

    def check(loaded: tables.LoadedTable) -> None:
        aspects, variance = loaded.arrays.get("aspects"), loaded.arrays.get("variance")
        tolerance = 1e-6 if aspects is not None and aspects.dtype == np.float64 else 1e-3  # float32: 7 digits
        if (aspects is None or variance is None or aspects.size != model.size * n_aspects
                or variance.shape != (model.size,)
                or abs(float(aspects.reshape(model.size, n_aspects)[model.offset[0]].sum()) - table.root_value)
                > tolerance):
            raise TableError(f"breakdown table in {loaded.directory} does not fit {game.name}")

    if in_memory(game, model.size):
        def build():
            check_table(game, what, size)
            tell_stage(progress, f"explaining every one of its {model.size:,} turn starts, once")
            aspects, variance = np.zeros((model.size, n_aspects)), np.zeros(model.size)
            sweep(table, aspects, variance, progress)
            return {"aspects": aspects, "variance": variance}, float(aspects[model.offset[0]].sum()), {}

        loaded, _ = tables.load_or_build(key, build, check)
    else:
        try:
            loaded = tables.load(key)
        except TableError:
            check_table(game, what, TableSize(0, size.seconds))  # on disk: its time is the limit here

            def fill(build: InPlaceBuild) -> tuple[float, dict]:
                tell_stage(progress, f"explaining every one of its {model.size:,} turn starts, once, on disk "
                                     f"({size.describe().removeprefix('about ')}; resumed if stopped)")
                sweep(table, None, None, progress, build)
                root = build.segment("aspects", model.offset[0] * n_aspects, (model.offset[0] + 1) * n_aspects)
                return float(np.asarray(root, dtype=np.float64).sum()), {}

            inplace.run(key, {"aspects": (model.size * n_aspects, "float32"), "variance": (model.size, "float32")},
                        fill)
            loaded = tables.load(key)
        check(loaded)
    return BreakdownTable(game, model, np.asarray(table.values),
                          np.asarray(loaded.arrays["aspects"]).reshape(model.size, n_aspects),
                          np.asarray(loaded.arrays["variance"]))


@dataclass(frozen=True)
class Why:
    """A decision's options explained: ``codes`` as the answer engine lists them, and for each a row of
    ``rows``: its expected future points by aspect, then their sum's mean and variance (future points only:
    the card's points so far are ``so_far``, by aspect). ``position`` is the same row for the position
    itself (its best option's, at a decision)."""

    codes: list[int]
    rows: np.ndarray
    position: np.ndarray
    so_far: np.ndarray


class TurnWhy:
    """One position's options explained, from the breakdown table (numpy; the answer engine's numpy form
    ``nz`` gives the rules and the order of the options)."""

    def __init__(self, table: BreakdownTable, nz: SolitaireNumpy):
        self.table, self.nz = table, nz
        game = table.game
        self.n_aspects = game.n_categories + 2
        self.mean_col, self.var_col = self.n_aspects, self.n_aspects + 1
        self.steps = keep_steps(game.dice)
        self.full = (1 << game.n_categories) - 1
        # each roll's keeps in the kernels' order (the whole roll last), padded with -1
        ptr, idx = nz.roll_sub_ptr, nz.roll_sub_idx
        widest = max(ptr[r + 1] - ptr[r] for r in range(nz.n_rolls))
        self.roll_keeps = np.full((nz.n_rolls, widest), -1, dtype=np.int64)
        for r in range(nz.n_rolls):
            self.roll_keeps[r, :ptr[r + 1] - ptr[r]] = idx[ptr[r]:ptr[r + 1]]

    def _next(self, u: int, g: int, t: int, c: int, pts: int, extra: int) -> tuple[int, int]:
        """(the table index after scoring pts in box c earning ``extra``, the set bonuses this pays)."""
        nz = self.nz
        t2, gain = nz.bonus_step(t, pts, c)
        nu = u | (1 << c)
        ln = nz.n_bonus_lanes[nu]
        return nz.offset[nu] + nz.next_group(u, g, c, pts, nz.n_groups[nu], extra) * ln + nz.lane_of(nu, t2), gain

    def box_row(self, u: int, g: int, t: int, r: int, c: int) -> np.ndarray | None:
        """The row of scoring roll r in box c (None where the rules forbid it)."""
        allowed, pts, extra = self.nz.score_choice(u, g, r, c)
        if not allowed:
            return None
        index, gain = self._next(u, g, t, c, pts, extra)
        tb = self.table
        row = np.zeros(self.n_aspects + 2)
        if u | (1 << c) != self.full:
            row[:self.n_aspects] = tb.aspects[index]
            row[self.mean_col] = tb.values[index]
            row[self.var_col] = tb.variance[index]
        row[c] += pts
        row[self.n_aspects - 2] += gain
        row[self.n_aspects - 1] += extra
        row[self.mean_col] += pts + gain + extra
        return row

    def finals(self, u: int, g: int, t: int) -> np.ndarray:
        """[roll, column]: each final roll scored in its best box (the first best, as the optimal player), every
        roll of a box at once; a yacht's rolls under the extra-yacht rules one by one."""
        nz, tb = self.nz, self.table
        n = self.n_aspects
        only = nz.first_open(u) if nz.forced else -1
        opened = [c for c in range(nz.n_cats) if not (u >> c) & 1 and (only < 0 or c == only)]
        yc = nz.yacht_cat
        special = nz.yacht_rolls if yc >= 0 and (u >> yc) & 1 and (nz.joker_mode != 0 or nz.xbonus != 0) else []
        out = np.zeros((nz.n_rolls, n + 2))
        best = np.full(nz.n_rolls, -np.inf)
        if nz.general:  # general bonuses: roll by roll, by the rules themselves
            for c in opened:
                for r in range(nz.n_rolls):
                    row = self.box_row(u, g, t, r, c)
                    if row is not None and row[self.mean_col] > best[r]:
                        out[r], best[r] = row, row[self.mean_col]
            return out
        for c in opened:
            pts = nz.scores[:, c].astype(np.int64)
            extra = np.zeros(nz.n_rolls, dtype=np.int64)
            allowed = np.ones(nz.n_rolls, dtype=bool)
            for r in special:
                allowed[r], pts[r], extra[r] = nz.score_choice(u, g, r, c)
            nu = u | (1 << c)
            if nz.upper_face[c] > 0 and nz.threshold > 0:
                reached = t + pts >= nz.threshold
                t2 = np.minimum(t + pts, nz.threshold)
                gain = np.where(reached & (t < nz.threshold), nz.upper_points, 0)
            else:
                t2 = np.full(nz.n_rolls, t)
                gain = np.zeros(nz.n_rolls, dtype=np.int64)
            ln = nz.n_bonus_lanes[nu]
            if nz.n_groups[nu] == 1:
                group = np.zeros(nz.n_rolls, dtype=np.int64)
            elif c == yc and not (u >> yc) & 1:
                group = (pts > 0).astype(np.int64)
            else:
                group = np.full(nz.n_rolls, g)
            index = nz.offset[nu] + group * ln + np.minimum(t2, ln - 1)
            rows = np.zeros((nz.n_rolls, n + 2))
            if nu != self.full:
                rows[:, :n] = tb.aspects[index]
                rows[:, self.mean_col] = tb.values[index]
                rows[:, self.var_col] = tb.variance[index]
            rows[:, c] += pts
            rows[:, n - 2] += gain
            rows[:, n - 1] += extra
            rows[:, self.mean_col] += pts + gain + extra
            worth = np.where(allowed, rows[:, self.mean_col], -np.inf)
            better = worth > best
            out[better] = rows[better]
            best[better] = worth[better]
        return out

    def stages(self, u: int, g: int, t: int, top: int) -> list[np.ndarray]:
        """As ``SolitaireNumpy.stages``, on rows: stage m's row of each keep (m throws left to take). Each
        roll keeps what the optimal player keeps: the first best of its keeps by the engine's own values (the
        same to the bit as the kernels'), so that equal choices are broken as the table's sweep breaks them."""
        nz, steps = self.nz, self.steps
        values = nz.stages(u, g, t, 0, max(top - 1, 0))
        stage = np.zeros((nz.n_keeps, self.n_aspects + 2))
        stage[nz.roll_offset:] = self.finals(u, g, t)
        out = [stage]
        rolls = nz.roll_offset + np.arange(nz.n_rolls)
        for m in range(1, top + 1):
            stage = stage.copy()
            if m >= 2:  # each roll: its best keep with m - 1 throws to come after the next
                worth = np.where(self.roll_keeps >= 0, values[m - 1][self.roll_keeps], -np.inf)
                stage[rolls] = out[m - 1][self.roll_keeps[np.arange(nz.n_rolls), worth.argmax(axis=1)]]
            for s in range(nz.n_dice - 1, -1, -1):  # each smaller keep: a mixture over the next die's faces
                children = stage[steps.larger[s]]
                mean = children[:, :, self.mean_col].mean(axis=1)
                spread = children[:, :, self.var_col] + (children[:, :, self.mean_col] - mean[:, None]) ** 2
                stage[steps.by_size[s]] = children.mean(axis=1)
                stage[steps.by_size[s], self.var_col] = spread.mean(axis=1)
            out.append(stage)
        return out

    def so_far(self, card: list[int], total: int) -> np.ndarray:
        """The card's points by aspect (the boxes filled, the set bonuses paid, the extra bonuses)."""
        nz = self.nz
        out = np.zeros(self.n_aspects)
        code = 0
        for c, v in enumerate(card):
            if v >= 0:
                out[c] = v
                code, gain = nz.bonus_step(code, v, c)
                out[self.n_aspects - 2] += gain
        out[self.n_aspects - 1] = total - out.sum()
        return out

    def explain(self, card: list[int], total: int, dice: list[int], held: list[int], m: int) -> Why:
        """The options of a situation (one player's card, its total, the dice showing, held, throws left) in
        the answer engine's order; a situation the engine would refuse is the caller's to refuse first."""
        from .answers_numpy import NEG

        nz = self.nz
        read = nz.read_card(card, total)
        assert not isinstance(read, int), "a refused card"
        u, t, g, key = read
        so_far = self.so_far(card, total)
        empty = np.zeros((0, self.n_aspects + 2))
        r, h = nz.keep_of(dice), nz.keep_of(held)
        if u == self.full:
            return Why([], empty, np.zeros(self.n_aspects + 2), so_far)
        if r < 0:  # no dice showing: before a turn, or before a re-throw of the dice held
            if h == -2 and m == nz.rolls:
                tb = self.table
                row = np.concatenate([tb.aspects[key], [tb.values[key], tb.variance[key]]])
                return Why([], empty, row, so_far)
            h = max(h, 0)
            if h < nz.roll_offset:
                return Why([], empty, self.stages(u, g, t, m)[m][h], so_far)
            r, m = h, m - 1  # every die held: the decision it leads to, with no options of its own
            passing = True
        else:
            passing = False
        r -= nz.roll_offset
        stage = self.stages(u, g, t, m)[m] if m > 0 else None
        codes: list[int] = []
        rows: list[np.ndarray] = []
        last = nz.roll_sub_ptr[r + 1] - 1
        if stage is not None:
            for p in range(nz.roll_sub_ptr[r], last):
                codes.append(nz.roll_sub_mask[p])
                rows.append(stage[nz.roll_sub_idx[p]])
        boxes = len(rows)
        only = nz.first_open(u) if nz.forced else -1
        for c in range(nz.n_cats):
            if (u >> c) & 1 or (only >= 0 and c != only):
                continue
            box = self.box_row(u, g, t, r, c)
            if box is not None:
                codes.append((1 << nz.n_dice) + c)
                rows.append(box)
        if stage is not None:
            codes.append(nz.roll_sub_mask[last])
            if m >= 2:
                rows.append(stage[nz.roll_offset + r])
            else:  # with one throw left, keeping every die is worth the best box (the first best)
                scored = rows[boxes:]
                rows.append(scored[int(np.argmax([row[self.mean_col] for row in scored]))] if scored
                            else np.full(self.n_aspects + 2, NEG))
        table = np.array(rows) if rows else empty
        best = table[int(np.argmax(table[:, self.mean_col]))] if len(table) else np.zeros(self.n_aspects + 2)
        if passing:
            return Why([], empty, best, so_far)
        return Why(codes, table, best, so_far)
