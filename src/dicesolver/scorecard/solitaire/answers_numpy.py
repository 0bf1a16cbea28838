"""The solitaire answer kernel (``kernels/answers.py``) in numpy and Python, for a few situations: the
same contract (the situations' arrays in, ``Answers`` out, the same refusals) and the same sums in the
same order, so the same answers to the bit.

It answers where the compiled kernel would cost more than the answer: a one-shot command's single
position (loading numba and the kernel from their cache takes 0.4 s, compiling them on a fresh install
30 s or more), and a few situations while the kernel is not compiled (``SolitaireEngine`` picks). A
situation takes 0.1-0.5 ms here, against the kernel's 5-10 µs. The tests hold the two forms equal on
thousands of situations of every scorecard game, refused ones included.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from ...core.answers import Answers, Situations, as_situations, empty_buffers
from ..game.kernel_rules import code_of, lane_of

if TYPE_CHECKING:
    from .answers import SolitaireEngine

NEG = -1.0e300  # kernels/widget.py's
# what a situation is, and why one is refused (kernels/answers.py's numbers)
TERMINAL, TURN_START, RETHROW, DECISION, WON = 0, 1, 2, 3, 4
BAD_BOX, BAD_ORDER, BAD_DICE, BAD_ROLLS, BAD_HELD, OVER_WITH_DICE, BAD_TOTAL, NEED_BEYOND_TABLE = range(1, 9)
PASS = -1
KEYS = ("cards", "totals", "dice", "held", "rolls_left")


class SolitaireNumpy:
    """``SolitaireEngine``'s kernel for a few situations, in numpy (see the module docstring)."""

    def __init__(self, engine: SolitaireEngine, hold_masks: np.ndarray, sub_pad: np.ndarray, possible: np.ndarray):
        """``engine``'s tables and rules, with the arrays its kernel reads: each roll's keeps as the encoding's
        hold actions, each keep's one-die-smaller keeps (padded), and the scores each box can hold."""
        from ..turn.widget import keep_steps

        m = engine._model
        game = m.game
        dice = game.dice
        self.engine = engine
        wide, narrow = engine._pair
        self.table = wide if wide.shape[0] else narrow
        self.aim = tuple(float(x) for x in engine._aim)
        self.tie, self.width = engine.tie, engine._width
        self.n_cats, self.n_dice, self.faces, self.rolls = game.n_categories, game.n_dice, game.faces, game.rolls
        self.n_rolls, self.n_keeps, self.roll_offset = dice.n_rolls, dice.n_keeps, dice.roll_offset
        rules = m.rules  # the kernels' own rules, read as Python numbers and lists
        self.rules, self.general, self.times = rules, bool(rules.general), int(rules.times)
        self.threshold, self.upper_points = int(rules.threshold), int(rules.upper_points)
        self.yacht_cat, self.xbonus, self.joker_mode, self.forced = (int(rules.yacht_cat), int(rules.xbonus),
                                                                     int(rules.joker_mode), bool(rules.forced_order))
        self.offset = rules.offset.tolist()
        self.n_bonus_lanes, self.n_groups = rules.n_bonus_lanes.tolist(), rules.n_groups.tolist()
        self.scores = rules.scores
        self.scores_t = np.ascontiguousarray(rules.scores.T, dtype=np.float64)
        self.upper_face = rules.upper_face.tolist()
        self.joker_pts = rules.joker_pts.tolist()
        self.roll_yacht_face = rules.roll_yacht_face.tolist()
        self.yacht_rolls = [r for r in range(dice.n_rolls) if self.roll_yacht_face[r]]
        self.upper_cat_of_face = rules.upper_cat_of_face.tolist()
        self.keep_add = m.keep_add.astype(np.int64)
        self.keep_add_list = self.keep_add.tolist()
        self.counts_t = np.ascontiguousarray(dice.counts.T)
        self.possible = possible
        self.max_points = self.possible.shape[1] - 1
        ptr, idx = dice.roll_sub_keeps
        self.roll_sub_ptr, self.roll_sub_idx = ptr.tolist(), idx.tolist()
        self.roll_sub_mask = hold_masks.tolist()
        steps = keep_steps(dice)
        # the keeps by size, for the stages' passes in the kernels' order (expectation: largest first; best
        # keep: smallest first, each keep after the one-die-smaller keeps it compares)
        self.by_size = steps.by_size
        self.sub_rows = [sub_pad[rows] for rows in steps.by_size]
        self.add_rows = [self.keep_add[rows] for rows in steps.by_size]

    # -- the contract ------------------------------------------------------------------------------------
    def answer(self, situations: Situations) -> Answers:
        """Every legal option of every situation, as ``SolitaireEngine.answer`` (InputError naming the first
        refused)."""
        e = self.engine
        cards, totals, dice, held, rolls_left = as_situations(situations, KEYS)
        n = cards.shape[0]
        if (cards.ndim != 3 or cards.shape[2] != self.n_cats or cards.shape[1] < 1 or totals.ndim != 2
                or totals.shape[1] < 1 or dice.shape[1:] != (self.n_dice,) or held.shape[1:] != (self.n_dice,)
                or rolls_left.shape[1:] != (1,)):
            from ...core.errors import InputError

            raise InputError(f"situations of this game are cards (n, 1+ players, {self.n_cats} boxes), totals "
                             f"(n, players), dice and held (n, {self.n_dice}), rolls_left (n, 1)")
        floats, ints = empty_buffers(n, self.width)
        refused = 0
        for i in range(n):
            reason = self.answer_one(cards[i, 0].tolist(), int(totals[i, 0]), dice[i].tolist(), held[i].tolist(),
                                     int(rolls_left[i, 0]), floats[i], ints[i])
            if reason:
                ints[i, self.width] = -reason
                refused += 1
        out = Answers(floats, ints, e.judge, e.unit)
        return out.check(e._reasons) if refused else out

    # -- one situation -------------------------------------------------------------------------------------
    def answer_one(self, card: list[int], total: int, dice: list[int], held: list[int], m: int,
                   out_f: np.ndarray, out_i: np.ndarray) -> int:
        """Write one situation's answers into its rows; returns the reason it is refused, or 0."""
        read = self.read_card(card, total)
        if isinstance(read, int):
            return read
        used, t, g, key = read
        full = used == (1 << self.n_cats) - 1
        r = self.keep_of(dice)
        h = self.keep_of(held)
        if r == -1 or h == -1:
            return BAD_DICE
        if r >= 0:  # dice showing: a decision
            if 0 in dice:
                return BAD_DICE
            if h != -2:
                return BAD_HELD
            if full:
                return OVER_WITH_DICE
            if m < 0 or m >= self.rolls:
                return BAD_ROLLS
            kind, r = DECISION, r - self.roll_offset
        elif full:
            if h != -2:
                return OVER_WITH_DICE
            kind = TERMINAL
        elif h == -2 and m == self.rolls:
            kind = TURN_START
        elif m < 1 or m >= self.rolls:
            return BAD_ROLLS
        else:
            kind, h = RETHROW, max(h, 0)
        passing = False
        if kind == RETHROW and h >= self.roll_offset:  # every die held: the decision it leads to
            kind, r, m, passing = DECISION, h - self.roll_offset, m - 1, True
        target, largest, tie_worth = self.aim
        need = int(target) - total
        if target >= 0 and kind != TERMINAL:
            if need < 0:
                kind = WON
            elif need > largest:
                return NEED_BEYOND_TABLE
            key = key * (int(largest) + 1) + need
        self.write(kind, used, t, g, total, key, r, h, m, need, passing, out_f, out_i)
        return 0

    def read_card(self, card: list[int], total: int) -> int | tuple[int, int, int, int]:
        """The card checked (kernels.answers.read_card): the reason it is refused, or (used boxes, upper total
        capped to its lane, flag group, the table index of its turn state)."""
        used = box_sum = up = 0
        possible, top = self.possible, self.max_points
        for c, v in enumerate(card):
            if v == -1:
                continue
            if v < 0 or v > top or possible[c, v] == 0:
                return BAD_BOX
            used |= 1 << c
            box_sum += v
            if self.upper_face[c] > 0:
                up += v
        if self.forced and used & (used + 1):
            return BAD_ORDER
        if self.general:
            return self.read_general_card(card, total, used, box_sum)
        threshold = self.threshold
        extra = total - box_sum - (self.upper_points if threshold > 0 and up >= threshold else 0)
        if extra < 0 or (extra > 0 and (self.xbonus == 0 or extra % self.xbonus != 0)):
            return BAD_TOTAL
        lu = self.n_bonus_lanes[used]
        t = min(up, threshold, lu - 1) if threshold > 0 else 0
        yc = self.yacht_cat
        g = 1 if yc >= 0 and card[yc] > 0 and self.n_groups[used] == 2 else 0
        return used, t, g, self.offset[used] + g * lu + t

    def read_general_card(self, card: list[int], total: int, used: int, box_sum: int):
        """``read_card``'s end for general bonuses (kernels.answers.read_general_card)."""
        t = won = 0
        for c, v in enumerate(card):
            if v != -1:
                t, gain = self.bonus_step(t, v, c)
                won += gain
        extra = total - box_sum - won
        if extra < 0 or (extra > 0 and (self.xbonus == 0 or extra % self.xbonus != 0)):
            return BAD_TOTAL
        paid = extra // self.xbonus if self.xbonus else 0
        yc, g = self.yacht_cat, 0
        if yc >= 0 and card[yc] > 0 and self.n_groups[used] > 1:
            if self.times and paid > self.times:
                return BAD_TOTAL
            g = 1 + paid if self.times else 1
        lu = self.n_bonus_lanes[used]
        return used, t, g, self.offset[used] + g * lu + self.lane_of(used, t)

    def keep_of(self, row: list[int]) -> int:
        """The keep index of the dice in a row (zeros skipped); -1: a die out of range, -2: none."""
        k = seen = 0
        for f in row:
            if f == 0:
                continue
            if f < 0 or f > self.faces:
                return -1
            k = self.keep_add_list[k][f - 1]
            seen += 1
        return k if seen else -2

    def write(self, kind: int, u: int, t: int, g: int, total: int, key: int, r: int, h: int, m: int, need: int,
              passing: bool, out_f: np.ndarray, out_i: np.ndarray) -> None:
        """kernels.answers.answer_one, with the stages it reads."""
        width = self.width
        aimed = self.aim[0] >= 0
        base = 0.0 if aimed else float(total)
        if kind != DECISION and kind != WON or (kind == WON and r < 0):
            out_i[:width] = -1
            out_f[: 2 * width] = np.nan
            out_i[width] = 0
        if kind == TERMINAL:
            if not aimed:
                out_f[2 * width] = float(total)
            else:  # past the aim certain, else the goal's utility: its full card's row (kernels.answers.answer_one)
                full = self.offset[(1 << self.n_cats) - 1] * (int(self.aim[1]) + 1)
                out_f[2 * width] = 1.0 if need < 0 else (self.entry(full + need) if need <= self.aim[1] else 0.0)
            return
        if kind == TURN_START:
            out_f[2 * width] = base + self.entry(key)
            return
        if kind == WON and r < 0:
            out_f[2 * width] = 1.0
            return
        stage = self.stages(u, g, t, need, m)[m] if kind != WON and m > 0 else None
        if kind == RETHROW:
            assert stage is not None
            out_f[2 * width] = base + stage[h]
            return
        won = kind == WON
        codes: list[int] = []
        values: list[float] = []
        last = self.roll_sub_ptr[r + 1] - 1  # the whole roll: keeping every die comes last
        if m > 0:
            for p in range(self.roll_sub_ptr[r], last):
                codes.append(self.roll_sub_mask[p])
                values.append(1.0 if won else base + float(stage[self.roll_sub_idx[p]]))  # type: ignore[index]
        boxes = len(values)
        holds = 1 << self.n_dice
        only = self.first_open(u) if self.forced else -1
        for c in range(self.n_cats):
            if (u >> c) & 1 or (only >= 0 and c != only):
                continue
            ok, v = self.score_value(u, g, t, r, c, need)
            if ok:
                codes.append(holds + c)
                values.append(base + v)
        if m > 0:
            codes.append(self.roll_sub_mask[last])
            if won:
                values.append(1.0)
            elif m >= 2:
                values.append(base + float(stage[self.roll_offset + r]))  # type: ignore[index]
            else:  # with one throw left, keeping every die is worth the best box
                values.append(max([NEG] + values[boxes:]))
        n = len(values)
        best = max([NEG] + values)
        if passing:  # a throw of no dice: the decision's value, and no options of its own
            out_i[:width] = -1
            out_f[: 2 * width] = np.nan
            out_i[width] = 0
            out_f[2 * width] = best
            return
        tie = self.tie
        out_i[:n] = codes
        out_i[n:width] = -1
        out_f[:n] = values
        out_f[n:width] = np.nan
        out_f[width: width + n] = [best - v if best - v > tie else 0.0 for v in values]
        out_f[width + n: 2 * width] = np.nan
        out_f[2 * width] = best
        out_i[width] = n

    # -- the rules and the table ---------------------------------------------------------------------------
    def entry(self, k: int) -> float:
        return float(self.table[k])

    def first_open(self, u: int) -> int:
        for c in range(self.n_cats):
            if not (u >> c) & 1:
                return c
        return -1

    def score_choice(self, u: int, g: int, r: int, c: int) -> tuple[bool, int, int]:
        """kernels.scoring.score_choice (in a game played in card order the callers offer only the first
        open box, so the order is not checked again)."""
        s = int(self.scores[r, c])
        f = self.roll_yacht_face[r]
        yc, joker = self.yacht_cat, self.joker_mode
        if f == 0 or yc < 0 or not (u >> yc) & 1 or joker == 0 and self.xbonus == 0:
            return True, s, 0
        extra = self.xbonus if g >= 1 and (self.times == 0 or g <= self.times) else 0
        if joker == 0:
            return True, s, extra
        uc = self.upper_cat_of_face[f]
        matching_open = uc >= 0 and not (u >> uc) & 1
        if joker == 1:  # forced joker
            if matching_open:
                return c == uc, s, extra
            if self.upper_face[c] > 0:
                for d in range(self.n_cats):
                    if self.upper_face[d] == 0 and not (u >> d) & 1:
                        return False, 0, 0
                return True, s, extra
            if self.joker_pts[c] >= 0:
                return True, self.joker_pts[c], extra
            return True, s, extra
        if self.joker_pts[c] >= 0 and not matching_open:
            return True, self.joker_pts[c], extra
        return True, s, extra

    def bonus_step(self, t: int, pts: int, c: int) -> tuple[int, int]:
        """kernels.scoring.bonus_step: the progress code after box c, and the set bonuses it pays."""
        if not self.general:
            return self.upper_step(t, pts, c)
        r, gain = self.rules, 0
        for b in range(len(r.bonus_threshold)):
            if (int(r.in_bonus[c]) >> b) & 1:
                threshold, stride = int(r.bonus_threshold[b]), int(r.code_stride[b])
                was = t // stride % (threshold + 1)
                now = min(was + pts, threshold)
                t += (now - was) * stride
                if now == threshold and was < threshold:
                    gain += int(r.bonus_points[b])
        return t, gain

    def lane_of(self, u: int, t: int) -> int:
        return lane_of(self.rules, u, t)

    def code_of(self, u: int, lane: int) -> int:
        return code_of(self.rules, u, lane)

    def upper_step(self, t: int, pts: int, c: int) -> tuple[int, int]:
        if self.upper_face[c] == 0 or self.threshold == 0:
            return t, 0
        t2 = t + pts
        if t2 >= self.threshold:
            return self.threshold, (self.upper_points if t < self.threshold else 0)
        return t2, 0

    def next_group(self, u: int, g: int, c: int, pts: int, groups_next: int, extra: int = 0) -> int:
        if groups_next == 1:
            return 0
        if c == self.yacht_cat and not (u >> self.yacht_cat) & 1:
            return 1 if pts > 0 else 0
        if extra > 0 and self.times > 0:
            return g + 1
        return g

    def score_value(self, u: int, g: int, t: int, r: int, c: int, need: int) -> tuple[bool, float]:
        """kernels.answers.score_value: (allowed, the value of scoring roll r in box c with the rest of the
        game)."""
        allowed, pts, extra = self.score_choice(u, g, r, c)
        if not allowed:
            return False, NEG
        t2, gain = self.bonus_step(t, pts, c)
        nu = u | (1 << c)
        ln = self.n_bonus_lanes[nu]
        t2 = self.lane_of(nu, t2)
        ng = self.next_group(u, g, c, pts, self.n_groups[nu], extra)
        now = pts + gain + extra
        index = self.offset[nu] + ng * ln + t2
        if self.aim[0] < 0:
            return True, float(now) + self.entry(index)
        rest = need - now
        if rest < 0:
            return True, 1.0
        return True, self.entry(index * (int(self.aim[1]) + 1) + rest)

    # -- the turn's stages -----------------------------------------------------------------------------------
    def stages(self, u: int, g: int, t: int, need: int, top: int) -> list[np.ndarray]:
        """kernels.answers.turn_stages: stages 0..top of one turn state (each a row over the keeps)."""
        stage = np.empty(self.n_keeps)
        stage[self.roll_offset:] = self.finals(u, g, t, need)
        theta = self.aim[2] if self.aim[0] < 0 else 0.0  # a risk appetite (kernels.answers.risk_of)
        if theta:  # the stages over utilities, then back to certainty equivalents (turn.kernels.risk)
            finals = stage[self.roll_offset:]
            shift = finals.max() if theta > 0 else finals.min()
            sign = 1.0 if theta > 0 else -1.0
            stage[self.roll_offset:] = sign * np.exp(theta * (finals - shift))
            out = self._stages(stage, top)
            out[0][self.roll_offset:] = shift + np.log(sign * out[0][self.roll_offset:]) / theta
            for later in out[1:]:
                later[:] = shift + np.log(sign * later) / theta
            return out
        return self._stages(stage, top)

    def _stages(self, stage: np.ndarray, top: int) -> list[np.ndarray]:
        """Stages 1..top after ``stage`` (stage 0), by the widget's maxima and means."""
        out = [stage]
        for m in range(1, top + 1):
            stage = stage.copy()
            if m >= 2:
                for s in range(1, self.n_dice + 1):  # smallest first: a keep's smaller keeps are final
                    rows = self.by_size[s]
                    stage[rows] = np.maximum(stage[rows], stage[self.sub_rows[s]].max(axis=1))
            for s in range(self.n_dice - 1, -1, -1):  # largest first: a keep's larger keeps are final
                src = stage[self.add_rows[s]]
                if self.faces == 6:  # the kernel's tree of sums (widget.expect_one)
                    total = ((src[:, 0] + src[:, 1]) + (src[:, 2] + src[:, 3])) + (src[:, 4] + src[:, 5])
                    stage[self.by_size[s]] = total * (1.0 / 6.0)
                else:
                    total = np.zeros(len(src))
                    for f in range(self.faces):
                        total += src[:, f]
                    stage[self.by_size[s]] = total * (1.0 / self.faces)
            out.append(stage)
        return out

    @cached_property
    def _box_rows(self) -> list[np.ndarray]:
        return [self.scores_t[c] for c in range(self.n_cats)]

    def finals(self, u: int, g: int, t: int, need: int) -> np.ndarray:
        """kernels.answers.finals: the best value of scoring each final roll now."""
        row = np.full(self.n_rolls, NEG)
        only = self.first_open(u) if self.forced else -1
        opened = [c for c in range(self.n_cats) if not (u >> c) & 1 and (only < 0 or c == only)]
        if self.aim[0] >= 0 or self.general:  # chances of a need, or general bonuses: every box of every roll alone
            for c in opened:
                for r in range(self.n_rolls):
                    ok, v = self.score_value(u, g, t, r, c, need)
                    if ok and v > row[r]:
                        row[r] = v
            return row
        n_dice = self.n_dice
        conts: dict[int, list[float]] = {}
        for c in opened:
            nu = u | (1 << c)
            ln, base, groups = self.n_bonus_lanes[nu], self.offset[nu], self.n_groups[nu]
            if self.upper_face[c] > 0 and self.threshold > 0:
                face = self.upper_face[c]
                after, by_count = [], np.empty(n_dice + 1)
                for k in range(n_dice + 1):
                    pts = k * face
                    t2, gain = self.upper_step(t, pts, c)
                    t2 = min(t2, ln - 1)
                    after.append(self.entry(base + self.next_group(u, g, c, pts, groups) * ln + t2))
                    by_count[k] = float(pts + gain) + after[k]
                conts[c] = after
                np.maximum(row, by_count[self.counts_t[face - 1]], out=row)
            else:
                t2 = min(t, ln - 1)
                if_zero = self.entry(base + self.next_group(u, g, c, 0, groups) * ln + t2)
                if_points = self.entry(base + self.next_group(u, g, c, 1, groups) * ln + t2)
                conts[c] = [if_zero, if_points]
                pts = self._box_rows[c]
                np.maximum(row, pts + (np.where(pts > 0, if_points, if_zero) if if_zero != if_points else if_zero),
                           out=row)
        yc = self.yacht_cat
        if yc >= 0 and (u >> yc) & 1 and (self.joker_mode != 0 or self.xbonus != 0):
            for r in self.yacht_rolls:  # a yacht's boxes under the extra-yacht rules
                best = NEG
                for c in opened:
                    ok, pts, extra = self.score_choice(u, g, r, c)
                    if not ok:
                        continue
                    if self.upper_face[c] > 0 and self.threshold > 0:
                        k = int(self.counts_t[self.upper_face[c] - 1][r])
                        if pts != k * self.upper_face[c]:  # not counted from the dice: priced alone
                            v = self.score_value(u, g, t, r, c, need)[1]
                        else:
                            v = float(pts + self.upper_step(t, pts, c)[1] + extra) + conts[c][k]
                    else:
                        v = float(pts + extra) + conts[c][1 if pts > 0 else 0]
                    best = max(best, v)
                row[r] = best
        return row
