"""Joe Simpleton, the Generala essay's human-like player: he thinks in patterns, not equities.

The *distance* of a roll to a category is the number of dice that must change to complete it:

* an upper box (Ones..Sixes): the dice not showing its face (5 - count);
* n of a kind / all dice the same: n minus the largest count (0 when reached);
* full house: for the best pair of faces x != y, the missing dice of three x's plus two y's (0 for
  five of a kind where it counts);
* a straight: the faces of the nearest target (1-2-3-4-5 or 2-3-4-5-6, or the exact sets) not showing;
* chance: 0; other kinds: 0 when the box would score now, else the number of dice.

Keeping: Joe picks the open category he is closest to and keeps the dice of its pattern (all dice of
the face for upper boxes and n-of-a-kind, three x's and two y's for a full house, one die of each
needed face for a straight, 4s, 5s and 6s for chance), throwing the rest. Ties between categories go
to the bigger maximum score, then to the earlier box on the card. Going for n of a kind, he chases
the most frequent face, and among equally frequent faces one whose upper box is still open (so a
miss still scores there), then the higher face; other pattern ties go to the higher face.

Scoring: a completed pattern (distance 0) that scores, the most points first. Otherwise the closest
open category that scores more than 0, and among equally close ones the cheapest box (the smaller
maximum score: junk goes in the low boxes), then the earlier box. If none scores, Joe scratches the
open category he is furthest from (ties: the smaller maximum score, then the earlier box).

The essay describes Joe in words only and measures him exactly: -0.24 per game against Malina. The
two tie rules for faces and cheap boxes are ours, chosen because people play that way; with them our
Joe is also -0.24 against Malina (-0.2394; -0.3002 without them). See docs/FINDINGS.md, "Two players: Malina".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.dice import Dice
from ..game.position import Position
from ..game.rules import ScorecardGame


def _pattern(game: ScorecardGame, c: int, roll: Dice) -> tuple[int, Dice]:
    """(distance, dice of the pattern to keep) of a roll for category c."""
    cat = game.categories[c]
    n = game.n_dice
    counts = {f: roll.count(f) for f in range(1, game.faces + 1)}
    params = dict(cat.params)
    if cat.kind == "upper":
        f = cat.face
        return n - counts[f], (f,) * counts[f]
    if cat.kind in ("yacht", "n_of_a_kind"):
        need = n if cat.kind == "yacht" else params["n"]
        face = max(counts, key=lambda f: (counts[f], f))
        return max(0, need - counts[face]), (face,) * counts[face]
    if cat.kind == "full_house":
        if params.get("five_of_a_kind", False):
            face = max(counts, key=lambda f: (counts[f], f))
            if counts[face] == n:
                return 0, roll
        # the nearest pair of faces (three of x, two of y); ties go to the higher x, then the higher y
        dist, x, y = min((max(0, 3 - counts[x]) + max(0, 2 - counts[y]), -x, -y)
                         for x in range(1, game.faces + 1) for y in range(1, game.faces + 1) if x != y)
        x, y = -x, -y
        return dist, tuple(sorted((x,) * min(3, counts[x]) + (y,) * min(2, counts[y])))
    if cat.kind == "straight":
        if "length" in params:
            length = params["length"]
            targets = [tuple(range(s, s + length)) for s in range(1, game.faces - length + 2)]
        else:
            targets = [tuple(t) for t in params["faces"]] if isinstance(params["faces"][0], tuple) else [params["faces"]]
        target = min(targets, key=lambda t: (sum(1 for f in t if not counts[f]), -max(t)))
        return sum(1 for f in target if not counts[f]), tuple(f for f in target if counts[f])
    if cat.kind == "chance":
        return 0, tuple(d for d in roll if d >= (game.faces + 1) * 2 // 3)
    scores_now = cat.score(tuple(counts[f] for f in range(1, game.faces + 1)))
    return (0, roll) if scores_now else (n, ())


_PATTERNS: dict[str, tuple[np.ndarray, list[list[Dice]]]] = {}


def _roll_patterns(game: ScorecardGame) -> tuple[np.ndarray, list[list[Dice]]]:
    if game.fingerprint not in _PATTERNS:
        _PATTERNS[game.fingerprint] = _compute_patterns(game)
    return _PATTERNS[game.fingerprint]


def _compute_patterns(game: ScorecardGame) -> tuple[np.ndarray, list[list[Dice]]]:
    dist = np.zeros((game.dice.n_rolls, game.n_categories), dtype=np.int64)
    keeps: list[list[Dice]] = []
    for r, roll in enumerate(game.dice.rolls):
        row = []
        for c in range(game.n_categories):
            dist[r, c], keep = _pattern(game, c, roll)
            row.append(keep)
        keeps.append(row)
    return dist, keeps


def keep_choice(game: ScorecardGame, used: int, roll: Dice) -> Dice:
    dist, keeps = _roll_patterns(game)
    r = game.dice.roll_index(roll)
    maxs = game.max_scores
    open_cats = [c for c in range(game.n_categories) if not used >> c & 1]
    c = min(open_cats, key=lambda c: (dist[r, c], -int(maxs[c]), c))
    if game.categories[c].kind in ("yacht", "n_of_a_kind"):
        return _of_a_kind_keep(game, used, roll)
    return keeps[r][c]


def _of_a_kind_keep(game: ScorecardGame, used: int, roll: Dice) -> Dice:
    open_upper = {cat.face for c, cat in enumerate(game.categories) if cat.kind == "upper" and not used >> c & 1}
    return _most_frequent(roll, open_upper)


def _most_frequent(roll: Dice, open_upper: set[int]) -> Dice:
    """All dice of the most frequent face; among equally frequent faces one whose upper box is open."""
    face = max(set(roll), key=lambda f: (roll.count(f), f in open_upper, f))
    return (face,) * roll.count(face)


def category_choice(game: ScorecardGame, used: int, roll: Dice) -> int:
    dist, _ = _roll_patterns(game)
    r = game.dice.roll_index(roll)
    scores = game.score_table[r]
    maxs = game.max_scores
    open_cats = [c for c in range(game.n_categories) if not used >> c & 1]
    scoring = [c for c in open_cats if scores[c] > 0]
    complete = [c for c in scoring if dist[r, c] == 0]
    if complete:
        return min(complete, key=lambda c: (-int(scores[c]), c))
    if scoring:
        return min(scoring, key=lambda c: (dist[r, c], int(maxs[c]), c))
    return max(open_cats, key=lambda c: (dist[r, c], -int(maxs[c]), -c))


def joe_tables(game: ScorecardGame) -> tuple[np.ndarray, np.ndarray]:
    """keep_table[a, throws left - 1, roll] (keep index) and cat_table[a, roll] for every used set a:
    ``keep_choice`` and ``category_choice`` for every used set and roll at once, their tie rules as
    lexicographic keys (a million calls of them took 12 s for Yacht; this takes a fraction of a second)."""
    n_cats, dice = game.n_categories, game.dice
    n_sets = 1 << n_cats
    dist, keeps = _roll_patterns(game)
    scores = np.asarray(game.score_table, dtype=np.int64)
    maxs = np.asarray(game.max_scores, dtype=np.int64)
    cats, rolls = np.arange(n_cats, dtype=np.int64), np.arange(dice.n_rolls)
    base = int(max(dist.max(), scores.max(), maxs.max())) + n_cats + 1  # every key's digits below it
    # keep: the closest open category (then the bigger maximum, then the earlier box)
    keep_key = (dist * base + (maxs.max() - maxs)) * base + cats
    pattern_keep = np.array([[dice.keep_index(k) for k in row] for row in keeps], dtype=np.int64)
    of_a_kind = np.array([cat.kind in ("yacht", "n_of_a_kind") for cat in game.categories])
    upper_face = [(c, cat.face) for c, cat in enumerate(game.categories) if cat.kind == "upper"]
    kind_keep = _of_a_kind_keeps(game)  # [open upper faces as bits, roll]
    # scoring: a completed pattern with the most points; else the closest scoring box with the smaller
    # maximum; else scratch the furthest box (then the smaller maximum), the earlier box on every tie
    scoring = scores > 0
    complete_key = np.where(scoring & (dist == 0), (scores.max() - scores) * base + cats, -1)
    scoring_key = np.where(scoring, (dist * base + maxs) * base + cats, -1)
    scratch_key = ((dist.max() - dist) * base + maxs) * base + cats
    keep_table = np.zeros((n_sets, max(game.rolls - 1, 1), dice.n_rolls), dtype=np.int64)
    cat_table = np.zeros((n_sets, dice.n_rolls), dtype=np.int64)
    big = np.iinfo(np.int64).max
    for lo in range(0, n_sets - 1, 256):
        sets = np.arange(lo, min(lo + 256, n_sets - 1))
        used = (sets[:, None] >> cats) & 1 == 1  # [set, category]
        closed = used[:, None, :]

        def first(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """Per (set, roll): the open box of the smallest key (a key < 0: not a candidate), and whether
            any box is one."""
            k = np.where(closed | (key[None] < 0), big, key[None])
            return k.argmin(axis=2), k.min(axis=2) < big

        closest, _ = first(keep_key)
        open_upper = np.zeros(len(sets), dtype=np.int64)
        for c, face in upper_face:
            open_upper |= np.where(used[:, c], 0, 1 << (face - 1))
        keep = np.where(of_a_kind[closest], kind_keep[open_upper[:, None], rolls], pattern_keep[rolls, closest])
        keep_table[sets] = keep[:, None, :]
        done, any_done = first(complete_key)
        best, any_scoring = first(scoring_key)
        scratch, _ = first(scratch_key)
        cat_table[sets] = np.where(any_done, done, np.where(any_scoring, best, scratch))
    return keep_table, cat_table


def _of_a_kind_keeps(game: ScorecardGame) -> np.ndarray:
    """[open upper faces (bit f-1 for face f), roll]: the keep index of ``_of_a_kind_keep``."""
    dice = game.dice
    table = np.zeros((1 << game.faces, dice.n_rolls), dtype=np.int64)
    for bits in range(1 << game.faces):
        open_upper = {f for f in range(1, game.faces + 1) if bits >> (f - 1) & 1}
        for r, roll in enumerate(dice.rolls):
            table[bits, r] = dice.keep_index(_most_frequent(roll, open_upper))
    return table


@dataclass
class JoePlayer:
    """Joe as a ``Player`` for play and simulation (his decisions ignore the scores)."""

    game: ScorecardGame
    name: str = "joe"

    def choose_keep(self, position: Position, rng: np.random.Generator, opponents=()) -> Dice:
        return keep_choice(self.game, position.used, position.showing)

    def choose_category(self, position: Position, rng: np.random.Generator, opponents=()) -> int:
        return category_choice(self.game, position.used, position.showing)
