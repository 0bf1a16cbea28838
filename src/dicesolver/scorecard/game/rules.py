"""Scorecard games (the Yahtzee family) described as data.

A rules file (TOML) gives the dice, the rolls per turn, the categories (from the scoring vocabulary),
an optional upper bonus, an optional extra-yacht bonus with its joker rule, the filling order, and
named variants. A variant value is a patch of dotted paths (``"categories.full_house.five_of_a_kind"
= true``) applied to the base definition. ``ScorecardGame`` is the validated, immutable result.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from ...core.display import ShownGame
from ...core.dice import DiceSpace, dice_space, format_dice
from ...core.errors import GameDefinitionError, InputError
from .rules_file import SetBonus as SetBonusRules
from .rules_file import YahtzeeBonus, check_rules, normalize_name
from .scoring import Category, make_category



@dataclass(frozen=True)
class Variant:
    """A named rule switch: its values (each a patch), the default and a one-line help."""

    key: str
    default: str
    values: dict[str, dict[str, Any]]
    help: str


@dataclass(frozen=True)
class SetBonus:
    """A bonus paid once, the moment the points in its boxes reach its threshold together."""

    name: str
    title: str
    boxes: tuple[int, ...]  # the boxes whose points count, in card order
    threshold: int
    points: int

    def earned(self, boxes: tuple[int | None, ...]) -> bool:
        return sum(boxes[c] or 0 for c in self.boxes) >= self.threshold


@dataclass(frozen=True)
class ExtraYachtRule:
    """Yahtzee's bonus for further yachts (when the yacht box holds its points) and its joker."""

    category: int  # index of the yacht category
    points: int  # bonus per extra yacht (0: none)
    joker: str  # "none", "forced" or "free"
    joker_categories: tuple[int, ...]  # lower boxes that score their fixed points under the joker
    times: int = 0  # further yachts paid at most (0: every one)

    def pays(self, paid: int) -> bool:
        """Whether a further yacht earns the bonus after ``paid`` bonuses."""
        return self.points > 0 and (self.times == 0 or paid < self.times)


@dataclass(frozen=True, repr=False)
class ScorecardGame(ShownGame):
    name: str
    title: str
    summary: str
    n_dice: int
    faces: int
    rolls: int
    categories: tuple[Category, ...]
    upper_threshold: int
    upper_points: int
    extra_yacht: ExtraYachtRule | None
    forced_order: bool
    set_bonuses: tuple[SetBonus, ...] = ()  # the bonuses on other sets of boxes than the upper section
    variant_specs: tuple[Variant, ...] = ()
    variant_values: tuple[tuple[str, str], ...] = ()
    source: str = ""  # preset name, or the path of the rules file
    canonical: str = field(default="", compare=False)
    players: int = 1
    definition: Any = field(default=None, compare=False, repr=False)  # the rules as read, to rebuild from
    family: ClassVar[str] = "scorecard"

    def __reduce__(self):
        """Pickled as its rules and choices (its scoring functions are closures): a Dask worker rebuilds it."""
        return _rebuild, (self.definition, dict(self.variant_values), self.source, self.players)

    # -- the game protocol -------------------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return self.players

    def with_players(self, n: int) -> ScorecardGame:
        from .state import check_players

        check_players(n)
        if n == self.players:
            return self
        game = replace(self, players=n)
        for name in ("score_table", "max_scores", "fingerprint", "kernel_rules"):  # the same rules: share them
            if name in self.__dict__:
                game.__dict__[name] = self.__dict__[name]
        return game

    def start(self):
        from .state import start_state

        return start_state(self, self.players)

    def parse_state(self, text: str):
        from .state import parse_state

        return parse_state(self, text)

    # -- basic facts -------------------------------------------------------------------------------
    @property
    def n_categories(self) -> int:
        return len(self.categories)

    @property
    def dice(self) -> DiceSpace:
        return dice_space(self.n_dice, self.faces)

    @property
    def has_upper_bonus(self) -> bool:
        return self.upper_points > 0 and self.upper_threshold > 0

    @cached_property
    def bonuses(self) -> tuple[SetBonus, ...]:
        """Every bonus paid on a set of boxes reaching a threshold: the upper bonus first, where there is one."""
        upper = (SetBonus("upper_bonus", "Upper bonus", tuple(c for c, cat in enumerate(self.categories)
                                                              if cat.is_upper), self.upper_threshold,
                          self.upper_points),) if self.has_upper_bonus else ()
        return upper + self.set_bonuses

    def bonuses_earned(self, boxes: tuple[int | None, ...]) -> int:
        """The points of every set bonus that a card's boxes have earned."""
        return sum(b.points for b in self.bonuses if b.earned(boxes))

    @property
    def tracks_yacht_flag(self) -> bool:
        """Whether the state needs to know if the yacht box holds its points (for the bonus)."""
        return self.extra_yacht is not None and self.extra_yacht.points > 0

    @property
    def upper_mask(self) -> int:
        return sum(1 << i for i, c in enumerate(self.categories) if c.is_upper)

    @cached_property
    def score_table(self) -> np.ndarray:
        """score_table[r, c]: points of roll r in category c under the base rules (no joker)."""
        counts = self.dice.counts
        table = np.zeros((self.dice.n_rolls, self.n_categories), dtype=np.int32)
        for r in range(self.dice.n_rolls):
            cts = tuple(int(x) for x in counts[r])
            for c, cat in enumerate(self.categories):
                table[r, c] = cat.score(cts)
        return table

    @cached_property
    def max_scores(self) -> np.ndarray:
        return self.score_table.max(axis=0)

    @cached_property
    def kernel_rules(self):  # -> KernelRules (kernel_rules.py, imported when first asked)
        """The rules and the table layout as every kernel takes them: one argument, built once per game."""
        from .kernel_rules import kernel_rules

        return kernel_rules(self)

    @cached_property
    def fingerprint(self) -> str:
        """Hash of everything a solver depends on: equal fingerprints mean equal tables."""
        h = hashlib.sha256()
        h.update(json.dumps(self.solver_facts(), sort_keys=True).encode())
        h.update(self.score_table.tobytes())
        return h.hexdigest()

    def solver_facts(self) -> dict[str, Any]:
        x = self.extra_yacht
        return {
            "dice": self.n_dice,
            "faces": self.faces,
            "rolls": self.rolls,
            "upper": [c.face if c.is_upper else 0 for c in self.categories],
            "upper_bonus": [self.upper_threshold, self.upper_points] if self.has_upper_bonus else None,
            "extra_yacht": None
            if x is None or (x.points == 0 and x.joker == "none")
            else [x.category, x.points, x.joker, list(x.joker_categories)],
            "joker_points": [c.fixed_points for c in self.categories],
            "forced_order": self.forced_order,
        } | ({"extra_yacht_times": x.times} if x is not None and x.times else {}) | (
            {"set_bonuses": [[list(b.boxes), b.threshold, b.points] for b in self.set_bonuses]}
            if self.set_bonuses else {})  # keys only where a game has them: the other games' tables keep their names

    # -- categories by name ------------------------------------------------------------------------
    @cached_property
    def category_names(self) -> tuple[str, ...]:
        """Each box's canonical name, in card order."""
        return tuple(c.name for c in self.categories)

    @cached_property
    def upper_boxes(self) -> tuple[bool, ...]:
        """Whether each box is in the upper section."""
        return tuple(c.is_upper for c in self.categories)

    @cached_property
    def rolls_by_text(self) -> dict[str, tuple[int, ...]]:
        """Every roll by its canonical text ("11345"), read without parsing."""
        return {format_dice(r, self.faces): tuple(r) for r in self.dice.rolls}

    @cached_property
    def cards_read(self) -> dict[str, Any]:
        """Cards read from their text (``position.read_card``), by the text."""
        return {}

    @cached_property
    def _forgiving_names(self) -> dict[str, int]:
        """Each box's name, title and aliases, normalised, to its index (the first box where two share one)."""
        names: dict[str, int] = {}
        for i, cat in enumerate(self.categories):
            for n in (cat.name, cat.title, *cat.aliases):
                names.setdefault(normalize_name(n), i)
        names.pop("", None)
        return names

    @cached_property
    def _natural_points(self) -> dict[tuple, tuple[int, ...]]:
        """Each box's points for a roll without the joker rules, by the roll: ``legal_scores`` at every decision."""
        return {}

    @cached_property
    def category_by_name(self) -> dict[str, int]:
        """Each box's canonical name, exactly as positions are written, to its index."""
        return {name: i for i, name in enumerate(self.category_names)}

    def category_index(self, text: str) -> int:
        """Find a category by name, title or alias, forgivingly (case, spaces, dashes ignored)."""
        found = self.category_by_name.get(text)  # a canonical name (the usual case) needs no normalising
        if found is None:
            found = self._forgiving_names.get(text)
        if found is not None:
            return found
        key = normalize_name(text)
        if not key:
            raise InputError("no category given")
        if key in self._forgiving_names:
            return self._forgiving_names[key]
        matches = [i for i, c in enumerate(self.categories) if normalize_name(c.name).startswith(key)]
        if len(matches) == 1:
            return matches[0]
        known = ", ".join(c.name for c in self.categories)
        raise InputError(f"{text!r} is not a category of {self.name} (categories: {known})")

    @cached_property
    def _possible_scores(self) -> tuple[frozenset[int], ...]:
        sets = []
        x = self.extra_yacht
        for c in range(self.n_categories):
            values = set(self.score_table[:, c].tolist())  # not np.unique: it imports numpy.ma (30 ms of an advice)
            if x is not None and x.joker != "none" and c in x.joker_categories:
                values.add(int(self.categories[c].fixed_points or 0))
            values.add(0)
            sets.append(frozenset(values))
        return tuple(sets)

    def is_possible_score(self, c: int, points: int) -> bool:
        return points in self._possible_scores[c]

    def possible_scores(self, c: int) -> list[int]:
        return sorted(self._possible_scores[c])

    # -- scoring a final roll ------------------------------------------------------------------------
    def legal_scores(self, boxes: tuple, dice: tuple, paid: int = 0) -> list[tuple[int, int, int]]:
        """(category, points in the box, extra-yacht bonus) for every legal way to score ``dice``, after
        ``paid`` extra-yacht bonuses.

        Follows docs/RULES.md directly (the kernels implement the same rules on arrays; tests compare them).
        """
        open_cats = [c for c, v in enumerate(boxes) if v is None]
        if self.forced_order:
            open_cats = open_cats[:1]
        natural = self._natural_points.get(dice)
        if natural is None:
            counts = tuple(dice.count(f) for f in range(1, self.faces + 1))
            natural = self._natural_points[dice] = tuple(cat.score(counts) for cat in self.categories)
        x = self.extra_yacht
        if x is None or boxes[x.category] is None or min(dice) != max(dice):  # not a five of a kind
            return [(c, natural[c], 0) for c in open_cats]
        extra = x.points if boxes[x.category] > 0 and x.pays(paid) else 0
        matching = [c for c, cat in enumerate(self.categories) if cat.is_upper and cat.face == dice[0]]
        matching_open = bool(matching) and boxes[matching[0]] is None
        if x.joker == "none":
            return [(c, natural[c], extra) for c in open_cats]

        def joker_points(c: int) -> int:
            fixed = self.categories[c].fixed_points
            return fixed if c in x.joker_categories and fixed is not None else natural[c]

        if x.joker == "forced":
            if matching_open and matching[0] in open_cats:
                return [(matching[0], natural[matching[0]], extra)]
            lower = [c for c in open_cats if not self.categories[c].is_upper]
            if lower:
                return [(c, joker_points(c), extra) for c in lower]
            return [(c, natural[c], extra) for c in open_cats]
        return [(c, natural[c] if matching_open else joker_points(c), extra) for c in open_cats]

    # -- words -------------------------------------------------------------------------------------
    def describe(self) -> list[str]:
        """The rules in words, one line each."""
        lines = [
            f"{self.title}: {self.n_dice} dice with {self.faces} faces, "
            f"{self.rolls} roll{'s' if self.rolls != 1 else ''} per turn "
            f"(keep any dice between rolls), {self.n_categories} categories, {self.n_categories} turns.",
        ]
        if self.summary:  # the preset's words; its variants changed here are said beside them
            changed = self.canonical[self.canonical.index("("):] if self.canonical.endswith(")") else ""
            lines.append(f"{self.summary} (its defaults; here {changed[1:-1]}, as below)" if changed else self.summary)
        lines.append("Categories (any box may be scratched for 0):" if not self.forced_order else
                     "Categories, filled in this order (the card order is forced):")
        for cat in self.categories:
            lines.append(f"  {cat.name:<16} {cat.description}")
        if self.has_upper_bonus:
            lines.append(
                f"Upper bonus: {self.upper_points} points when the upper categories total "
                f"{self.upper_threshold} or more."
            )
        for b in self.set_bonuses:
            names = ", ".join(self.categories[c].name for c in b.boxes)
            lines.append(f"{b.title}: {b.points} points when {names} total {b.threshold} or more.")
        x = self.extra_yacht
        if x is not None and (x.points or x.joker != "none"):
            yname = self.categories[x.category].name
            if x.points:
                which = (f"for each further {yname}" if not x.times else
                         f"for a further {yname}, once" if x.times == 1 else f"for each of {x.times} further {yname}s")
                lines.append(f"Extra {yname} bonus: {x.points} points {which} while the {yname} box holds its points.")
            jokers = ", ".join(self.categories[c].name for c in x.joker_categories)
            if x.joker == "forced":
                lines.append(
                    f"Joker (forced): with a further {yname}, the matching upper box must be used if open; "
                    f"otherwise any open lower box ({jokers} score their full points); "
                    "otherwise a zero in an open upper box."
                )
            elif x.joker == "free":
                lines.append(
                    f"Joker (free): a further {yname} may go in any open box; {jokers} score their full "
                    "points only if the matching upper box is already filled."
                )
        if self.variant_specs:
            lines.append("Variants:")
            current = dict(self.variant_values)
            for v in self.variant_specs:
                values = "|".join(v.values)
                help = f": {v.help}" if v.help else ""
                lines.append(f"  {v.key}={values} (now {current.get(v.key, v.default)}, default {v.default}){help}")
        return lines


# -- building a game from a definition ------------------------------------------------------------


def _apply_patch(definition: dict[str, Any], patch: dict[str, Any], where: str) -> None:
    for path, value in patch.items():
        parts = path.split(".")
        if parts[0] == "categories":
            if len(parts) != 3:
                raise GameDefinitionError(f"{where}: patch path {path!r} must be categories.NAME.FIELD")
            cats = [c for c in definition.get("categories", []) if c.get("name") == parts[1]]
            if not cats:
                raise GameDefinitionError(f"{where}: patch names unknown category {parts[1]!r}")
            cats[0][parts[2]] = copy.deepcopy(value)
            continue
        node = definition
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise GameDefinitionError(f"{where}: patch path {path!r} goes through a non-table")
        node[parts[-1]] = copy.deepcopy(value)


def _parse_variants(raw: dict[str, Any] | None) -> tuple[Variant, ...]:
    """The variants of a rules file the schema has accepted (rules_file.Variant)."""
    result = []
    for key, spec in sorted((raw or {}).items()):
        values = dict(spec["values"])
        default = spec.get("default")
        if default is None:  # unset (or null, from a definition built in Python): the first value
            default = next(iter(values))
        result.append(Variant(key=key, default=default, values=values, help=spec.get("help", "")))
    return tuple(result)


_BOOL_WORDS = {"on": "on", "true": "on", "yes": "on", "1": "on", "off": "off", "false": "off", "no": "off", "0": "off"}


def resolve_variant_choices(
    variants: tuple[Variant, ...], choices: dict[str, str], game_name: str
) -> dict[str, str]:
    """Check requested variant values; return the full assignment (defaults filled in)."""
    by_key = {v.key: v for v in variants}
    result = {v.key: v.default for v in variants}
    for key, value in choices.items():
        if key not in by_key:
            known = ", ".join(by_key) or "none"
            raise GameDefinitionError(f"{game_name} has no variant {key!r} (variants: {known})")
        spec = by_key[key]
        value = value.strip().lower()
        if value not in spec.values and _BOOL_WORDS.get(value) in spec.values:
            value = _BOOL_WORDS[value]
        if value not in spec.values:
            raise GameDefinitionError(
                f"variant {key} of {game_name} takes {'|'.join(spec.values)}, not {value!r}"
            )
        result[key] = value
    return result


def build_game(definition: dict[str, Any], choices: dict[str, str], source: str) -> ScorecardGame:
    """Validate a rules definition (as loaded from TOML), apply variant choices, build the game.

    The schema (rules_file.py) is checked twice: on the file as written, and on the rules the chosen
    variants make, so that a variant cannot patch in what the file could not say.
    """
    where = source
    rules = check_rules(definition, where)
    name = rules.name
    variants = _parse_variants(definition.get("variants"))
    assignment = resolve_variant_choices(variants, choices, name)
    resolved = copy.deepcopy({k: v for k, v in definition.items() if k != "variants"})
    for spec in variants:
        _apply_patch(resolved, spec.values[assignment[spec.key]], f"{where} variant {spec.key}")
    if resolved != {k: v for k, v in definition.items() if k != "variants"}:
        rules = check_rules(resolved, f"{where} ({', '.join(f'{k}={v}' for k, v in sorted(assignment.items()))})")

    n_dice, faces = rules.dice, rules.faces
    try:
        categories = tuple(make_category(c, n_dice, faces) for c in resolved["categories"])
    except GameDefinitionError as exc:
        raise GameDefinitionError(f"{where}: {exc}") from None
    threshold = points = 0
    if rules.upper_bonus is not None and rules.upper_bonus.points:
        threshold, points = rules.upper_bonus.threshold, rules.upper_bonus.points
        if not any(c.is_upper for c in categories):
            raise GameDefinitionError(f"{where}: upper_bonus: an upper bonus needs upper categories")
    extra = _extra_yacht_rule(rules.yahtzee_bonus, categories, n_dice, where) if rules.yahtzee_bonus else None
    set_bonuses = tuple(_set_bonus(b, categories, f"{where}: bonuses[{i}] {b.name!r}")
                        for i, b in enumerate(rules.bonuses) if b.points)

    non_default = {k: v for k, v in sorted(assignment.items()) if v != next(s.default for s in variants if s.key == k)}
    base = source if source.endswith(".toml") else name
    canonical = base + ("(" + ",".join(f"{k}={v}" for k, v in non_default.items()) + ")" if non_default else "")
    return ScorecardGame(
        name=name,
        title=rules.title or name.title(),
        summary=rules.summary,
        n_dice=n_dice,
        faces=faces,
        rolls=rules.rolls,
        categories=categories,
        upper_threshold=threshold,
        upper_points=points,
        extra_yacht=extra,
        forced_order=rules.order == "forced",
        set_bonuses=set_bonuses,
        variant_specs=variants,
        variant_values=tuple(sorted(assignment.items())),
        source=source,
        canonical=canonical,
        definition=copy.deepcopy(definition),
    )


def _rebuild(definition: dict[str, Any], choices: dict[str, str], source: str, players: int) -> ScorecardGame:
    return build_game(definition, choices, source).with_players(players)


def _set_bonus(bonus: SetBonusRules, categories: tuple[Category, ...], where: str) -> SetBonus:
    index = {c.name: i for i, c in enumerate(categories)}
    unknown = [name for name in bonus.boxes if name not in index]
    if unknown:
        raise GameDefinitionError(f"{where}.boxes: {unknown[0]!r} is not one of the game's categories")
    boxes = tuple(sorted({index[name] for name in bonus.boxes}))
    return SetBonus(bonus.name, bonus.title or bonus.name.replace("_", " ").capitalize(), boxes, bonus.threshold,
                    bonus.points)


def _extra_yacht_rule(
    bonus: YahtzeeBonus, categories: tuple[Category, ...], n_dice: int, where: str
) -> ExtraYachtRule | None:
    where = f"{where}: yahtzee_bonus"
    if not bonus.enabled:  # switched off (by a variant, or by a game built on one that has it): nothing to check
        return None
    index = {c.name: i for i, c in enumerate(categories)}
    if bonus.category not in index:
        raise GameDefinitionError(f"{where}.category: {bonus.category!r} is not one of the game's categories")
    yacht = categories[index[bonus.category]]
    if yacht.kind != "yacht" and not (yacht.kind == "n_of_a_kind" and dict(yacht.params)["n"] == n_dice):
        raise GameDefinitionError(f"{where}.category: the bonus category must be an all-dice-the-same category")
    jokers = []
    for name in bonus.joker_categories:
        if name not in index or categories[index[name]].fixed_points is None or categories[index[name]].is_upper:
            raise GameDefinitionError(f"{where}.joker_categories: {name!r} must be a fixed-points lower category")
        jokers.append(index[name])
    if not bonus.enabled or (bonus.points == 0 and bonus.joker == "none"):
        return None
    return ExtraYachtRule(index[bonus.category], bonus.points, bonus.joker, tuple(jokers), bonus.times)
