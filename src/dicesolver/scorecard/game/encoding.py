"""Scorecard games as arrays (``core.encoding``): every card, the dice, the throws left; actions are the
2^n sets of dice positions to hold (the sorted dice; holding all of them throws none) and then one per box.

A hold means a keep: holding either of two equal dice is the same keep, so every position set is legal
while a throw is left (``mask``), and a keep's own index (``action_of``) holds the first of equal dice.
"""

from __future__ import annotations

from functools import cached_property
from typing import Sequence

import numpy as np

from ...core.encoding import ArraySpec, Encoding
from ...core.dice import format_dice
from ...core.errors import InputError
from .rules import ScorecardGame
from .state import Keep, Score, ScorecardState


KERNEL_TEXTS = 256  # from this many position texts on, the kernel reads them (a few: Python, without numba)


class ScorecardEncoding(Encoding[ScorecardGame, ScorecardState]):
    def __init__(self, game: ScorecardGame):
        super().__init__(game)
        self.holds = 1 << game.n_dice
        maxima = game.max_scores.astype(np.int64)
        upper = sum(int(m) for c, m in enumerate(maxima) if game.categories[c].is_upper)
        extra = game.extra_yacht.points * game.n_categories if game.extra_yacht else 0
        self.max_total = int(maxima.sum()) + sum(b.points for b in game.bonuses) + extra
        self.max_upper = upper

    def observation_spec(self) -> dict[str, ArraySpec]:
        g, n = self.game, self.game.players
        return {
            "cards": ArraySpec((n, g.n_categories), -1, int(g.max_scores.max()),
                               "every card's boxes (-1: open); row 0 is the observer's, then the others in turn order"),
            "dice": ArraySpec((g.n_dice,), 0, g.faces, "the dice showing, sorted (0: a throw is due)"),
            "rolls_left": ArraySpec((1,), 0, g.rolls, "throws still allowed this turn"),
            "totals": ArraySpec((n,), 0, self.max_total, "every player's points so far, bonuses included"),
            "upper": ArraySpec((n,), 0, self.max_upper, "every player's upper-section sum (bonus progress)"),
        }

    def situation_spec(self) -> dict[str, ArraySpec]:
        g = self.game
        return self.observation_spec() | {
            "held": ArraySpec((g.n_dice,), 0, g.faces, "the dice held for the throw that is due, sorted (0: none)")}

    def situation(self, state: ScorecardState) -> dict[str, np.ndarray]:
        return {k: v[0] for k, v in self.situations([state]).items()}

    def situations(self, states: Sequence[ScorecardState]) -> dict[str, np.ndarray]:
        g = self.game
        n, p, d = len(states), g.players, g.n_dice
        cards = np.full((n, p, g.n_categories), -1, dtype=np.int64)
        totals, upper = np.zeros((n, p), dtype=np.int64), np.zeros((n, p), dtype=np.int64)
        dice, held = np.zeros((n, d), dtype=np.int64), np.zeros((n, d), dtype=np.int64)
        rolls_left = np.zeros((n, 1), dtype=np.int64)
        for i, state in enumerate(states):
            if len(state.cards) != p and p != 1:  # a solitaire table sees the card of the player on turn
                raise InputError(f"position {i} is a game of {len(state.cards)} players, not {p}")
            seat = state.player or 0
            for k in range(p):
                facts = state.cards[(seat + k) % len(state.cards)].facts(g)
                cards[i, k] = facts.row
                totals[i, k] = facts.total
                upper[i, k] = facts.upper
            if state.dice is not None:
                dice[i] = state.dice
            held[i, : len(state.held)] = state.held
            rolls_left[i, 0] = state.rolls_left
        return {"cards": cards, "dice": dice, "rolls_left": rolls_left, "totals": totals, "upper": upper,
                "held": held}

    def turn_start(self, state: ScorecardState, seat: int) -> dict[str, np.ndarray]:
        """One situation: ``seat``'s view of the cards as if its turn were starting (no dice showing)."""
        g = self.game
        rows = self.situations([state])
        p = len(state.cards)
        order = [(seat + k) % p for k in range(g.players)]
        rows["cards"][0] = [[-1 if v is None else v for v in state.cards[s].boxes] for s in order]
        rows["totals"][0] = [state.cards[s].total(g) for s in order]
        rows["upper"][0] = [state.cards[s].upper_total(g) for s in order]
        rows["dice"][:] = 0
        rows["held"][:] = 0
        rows["rolls_left"][:] = g.rolls
        return rows

    def parse_situations(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """Position texts as situations: the canonical form (``str(state)``) is read directly (many at once by
        a kernel, ``kernels.positions``), anything else (aliases, spaces, ``bonus=``, a refused position) by
        ``parse_state``, which says what is wrong."""
        n = len(texts)
        if n >= KERNEL_TEXTS and self.game.faces <= 9 and all(type(t) is str for t in texts):
            out, read = self._read_many(texts)
            slow = np.flatnonzero(read == 0).tolist()
        else:
            rows = [self._read(t) for t in texts]
            slow = [i for i, r in enumerate(rows) if r is None]
            out = {k: np.zeros((n, *spec.shape), dtype=np.int64) for k, spec in self.situation_spec().items()}
            for i, row in enumerate(rows):
                if row is not None:
                    for k, v in row.items():
                        out[k][i] = v
        if slow:
            states = []
            for i in slow:
                try:
                    states.append(self.game.parse_state(texts[i]))
                except InputError as exc:
                    raise InputError(f"position {i} ({str(texts[i])[:60]!r}): {exc}") from None
            parsed = self.situations(states)
            for k, v in parsed.items():
                out[k][slow] = v
        return out

    def _read_many(self, texts: Sequence[str]) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """The canonical texts among ``texts`` read by the kernel: the situations, and 1 where a text was read."""
        from .kernels.positions import read_positions

        g = self.game
        n = len(texts)
        joined = "".join(texts)
        if joined.isascii():  # a character a byte: the texts' bounds from their lengths
            data = joined.encode("ascii")
            lengths = np.fromiter(map(len, texts), dtype=np.int64, count=n)
        else:
            encoded = [t.encode("utf-8") for t in texts]
            data = b"".join(encoded)
            lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=n)
        ends = np.cumsum(lengths)
        starts = ends - lengths
        out = {k: np.zeros((n, *spec.shape), dtype=np.int64) for k, spec in self.situation_spec().items()}
        read = np.zeros(n, dtype=np.uint8)
        names, name_lengths, possible, rules = self._kernel_reader
        read_positions(np.frombuffer(data, dtype=np.uint8), starts, ends, names, name_lengths, possible, rules,
                       g.players, g.n_dice, g.faces, g.rolls, out["cards"], out["totals"], out["upper"], out["dice"],
                       out["held"], out["rolls_left"], read)
        return out, read

    @cached_property
    def _kernel_reader(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        from .kernel_rules import packed
        from .kernels.positions import name_table

        g = self.game
        names, lengths = name_table([c.name for c in g.categories])
        possible = np.zeros((g.n_categories, int(g.max_scores.max()) + 1), dtype=np.uint8)
        for c in range(g.n_categories):
            possible[c, g.possible_scores(c)] = 1
        return names, lengths, possible, packed(g.kernel_rules)

    @cached_property
    def _reader(self) -> tuple[dict, list, dict, dict]:
        """What ``_read`` looks up: box names, each box's possible scores, dice and held dice by their text."""
        g = self.game
        names = {c.name: i for i, c in enumerate(g.categories)}
        possible = [frozenset(g.possible_scores(c)) for c in range(g.n_categories)]
        rolls = {format_dice(r, g.faces): r for r in g.dice.rolls} if g.faces <= 9 else {}
        keeps = {format_dice(k, g.faces) + "+": k for k in g.dice.keeps if k} if g.faces <= 9 else {}
        keeps["+"] = ()
        return names, possible, rolls, keeps

    def _read(self, text: str) -> dict[str, np.ndarray] | None:
        """A canonical position's arrays without building its state; None when the text is not in the
        canonical form or not a position that can happen (``parse_state`` then reads it, or says why not)."""
        if not isinstance(text, str):
            return None
        parts = text.split("/")
        if len(parts) != 3 or not parts[2].isdigit() or not parts[2].isascii():
            return None
        g = self.game
        names, possible, rolls, keeps = self._reader
        listed = parts[0].split(";")
        p = g.players
        if len(listed) != p:
            return None
        cards = np.full((p, g.n_categories), -1, dtype=np.int64)
        totals, upper = np.zeros(p, dtype=np.int64), np.zeros(p, dtype=np.int64)
        filled = []
        for k, card_text in enumerate(listed):
            count = box_sum = up = 0
            if card_text:
                for item in card_text.split(","):
                    name, _, value = item.partition("=")
                    c = names.get(name)
                    if c is None or not value.isdigit() or not value.isascii() or cards[k, c] != -1:
                        return None
                    v = int(value)
                    if v not in possible[c]:
                        return None
                    cards[k, c] = v
                    count += 1
                    box_sum += v
                    if g.categories[c].is_upper:
                        up += v
            if g.forced_order and any(cards[k, c] == -1 and cards[k, c + 1] != -1 for c in range(g.n_categories - 1)):
                return None
            totals[k] = box_sum + (g.upper_points if g.has_upper_bonus and up >= g.upper_threshold else 0)
            for b in g.set_bonuses:
                if sum(int(cards[k, c]) for c in b.boxes if cards[k, c] >= 0) >= b.threshold:
                    totals[k] += b.points
            upper[k] = up
            filled.append(count)
        if any(f not in (filled[0], filled[0] + 1) for f in filled) or filled != sorted(filled):
            return None
        over = filled[0] == g.n_categories
        rolls_left = int(parts[2])
        dice, held = np.zeros(g.n_dice, dtype=np.int64), np.zeros(g.n_dice, dtype=np.int64)
        dice_text = parts[1]
        if dice_text in ("", "-"):
            if rolls_left != g.rolls:
                return None
        elif dice_text in rolls:
            if over or not 0 <= rolls_left < g.rolls:
                return None
            dice[:] = rolls[dice_text]
        elif dice_text in keeps:
            if over or not 1 <= rolls_left < g.rolls:
                return None
            kept = keeps[dice_text]
            held[: len(kept)] = kept
        else:
            return None
        return {"cards": cards, "dice": dice, "rolls_left": np.array([rolls_left], dtype=np.int64), "totals": totals,
                "upper": upper, "held": held}

    def action_labels(self) -> list[str]:
        n = self.game.n_dice
        holds = ["hold " + ("".join(str(i + 1) for i in range(n) if m >> i & 1) or "none") for m in range(self.holds)]
        return holds + [f"score {c.name}" for c in self.game.categories]

    def observe(self, state: ScorecardState, seat: int) -> dict[str, np.ndarray]:
        g = self.game
        order = [(seat + k) % len(state.cards) for k in range(len(state.cards))]
        cards = np.array([[-1 if v is None else v for v in state.cards[s].boxes] for s in order], dtype=np.int64)
        dice = np.zeros(g.n_dice, dtype=np.int64)
        if state.dice is not None:
            dice[:] = sorted(state.dice)
        return {"cards": cards, "dice": dice, "rolls_left": np.array([state.rolls_left], dtype=np.int64),
                "totals": np.array([state.cards[s].total(g) for s in order], dtype=np.int64),
                "upper": np.array([state.cards[s].upper_total(g) for s in order], dtype=np.int64)}

    def step_of(self, state: ScorecardState, action: int) -> Keep | Score:
        self.check_action(state, action)
        if action < self.holds:
            dice = sorted(state.dice or ())
            return Keep(tuple(d for i, d in enumerate(dice) if action >> i & 1), self.game.faces)
        c = action - self.holds
        return next(a for a in state.legal_actions() if isinstance(a, Score) and a.category == c)

    def action_of(self, state: ScorecardState, step) -> int:
        if isinstance(step, Score):
            return self.holds + step.category
        if isinstance(step, Keep):
            left = list(step.dice)
            mask = 0
            for i, d in enumerate(sorted(state.dice or ())):
                if d in left:
                    left.remove(d)
                    mask |= 1 << i
            if left:
                raise InputError(f"{step} is not a keep of these dice")
            return mask
        raise InputError(f"{step!r} is not a move of {self.game.name}")

    def is_legal(self, state: ScorecardState, action: int) -> bool:
        return bool(self.mask(state)[action])  # every hold of the dice, not only the one action_of gives

    def mask(self, state: ScorecardState) -> np.ndarray:
        flags = np.zeros(self.n_actions, dtype=np.int8)
        if state.to_move() is None or state.dice is None:
            return flags
        if state.rolls_left > 0:
            flags[: self.holds] = 1  # every hold is some keep
        for c, _, _ in self.game.legal_scores(state.card.boxes, state.dice, state.card.bonuses_paid(self.game)):
            flags[self.holds + c] = 1
        return flags
