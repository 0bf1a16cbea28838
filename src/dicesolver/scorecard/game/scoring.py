"""The scoring vocabulary: category kinds and their parameters.

Each kind turns the face counts of a roll into points and can describe itself in words. A rules file
names a kind and its parameters; ``make_category`` validates them and builds the scorer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ...core.errors import GameDefinitionError

Counts = tuple[int, ...]  # counts[f-1] = number of dice showing f


def _total(counts: Counts) -> int:
    return sum((f + 1) * c for f, c in enumerate(counts))


def _has_run(counts: Counts, length: int) -> bool:
    run = 0
    for c in counts:
        run = run + 1 if c else 0
        if run >= length:
            return True
    return False


@dataclass(frozen=True)
class Category:
    """One box of a scorecard: its name, kind, parameters and scoring function."""

    name: str
    kind: str
    params: tuple[tuple[str, Any], ...]
    title: str
    aliases: tuple[str, ...]
    score: Callable[[Counts], int]
    description: str
    fixed_points: int | None  # the points when satisfied, for fixed-score kinds (used by jokers)

    @property
    def is_upper(self) -> bool:
        return self.kind == "upper"

    @property
    def face(self) -> int:
        return dict(self.params).get("face", 0)


def _points_text(points: Any, n: int | None = None) -> str:
    if points == "sum_all":
        return "the sum of all dice"
    if points == "sum_those":
        return f"the sum of those {n} dice"
    if points == "sum":
        return "the sum of all dice"
    return f"{points} points"


def _check_points(name: str, points: Any, allowed: tuple[str, ...]) -> None:
    if isinstance(points, bool) or not (isinstance(points, int) or points in allowed):
        choices = ", ".join(allowed + ("a whole number",))
        raise GameDefinitionError(f"category {name!r}: points must be one of {choices}, not {points!r}")
    if isinstance(points, int) and points < 0:
        raise GameDefinitionError(f"category {name!r}: points must not be negative")


def _kind_upper(name: str, n_dice: int, faces: int, face: int) -> tuple[Callable, str, int | None]:
    if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= faces:
        raise GameDefinitionError(f"category {name!r}: face must be 1..{faces}, not {face!r}")
    return (lambda c: face * c[face - 1]), f"{face} point{'s' if face != 1 else ''} for each die showing {face}", None


def _kind_n_of_a_kind(
    name: str, n_dice: int, faces: int, n: int, points: Any = "sum_all"
) -> tuple[Callable, str, int | None]:
    if not isinstance(n, int) or not 2 <= n <= n_dice:
        raise GameDefinitionError(f"category {name!r}: n must be 2..{n_dice}, not {n!r}")
    _check_points(name, points, ("sum_all", "sum_those"))

    def score(c: Counts) -> int:
        best = max((f + 1 for f, k in enumerate(c) if k >= n), default=0)
        if not best:
            return 0
        if points == "sum_all":
            return _total(c)
        if points == "sum_those":
            return n * best
        return points

    words = "all dice the same" if n == n_dice else f"at least {n} dice the same"
    return score, f"{_points_text(points, n)} with {words}", (points if isinstance(points, int) else None)


def _kind_yacht(name: str, n_dice: int, faces: int, points: int = 50) -> tuple[Callable, str, int | None]:
    _check_points(name, points, ())
    return (lambda c: points if max(c) == n_dice else 0), f"{points} points with all dice the same", points


def _kind_full_house(
    name: str, n_dice: int, faces: int, points: Any = "sum", five_of_a_kind: bool = False
) -> tuple[Callable, str, int | None]:
    _check_points(name, points, ("sum",))
    if not isinstance(five_of_a_kind, bool):
        raise GameDefinitionError(f"category {name!r}: five_of_a_kind must be true or false")

    def score(c: Counts) -> int:
        ranked = sorted(c, reverse=True)
        ok = ranked[0] >= 3 and len(ranked) > 1 and ranked[1] >= 2
        if five_of_a_kind and ranked[0] == n_dice:
            ok = True
        if not ok:
            return 0
        return _total(c) if points == "sum" else points

    extra = " (all dice the same also counts)" if five_of_a_kind else " (all dice the same does not count)"
    text = f"{_points_text(points)} for three of one face and two of another{extra}"
    return score, text, (points if isinstance(points, int) else None)


def _kind_straight(
    name: str, n_dice: int, faces: int, points: int, length: int | None = None, faces_sets: Any = None
) -> tuple[Callable, str, int | None]:
    _check_points(name, points, ())
    if (length is None) == (faces_sets is None):
        raise GameDefinitionError(f"category {name!r}: a straight needs either length or faces")
    if length is not None:
        if not isinstance(length, int) or not 2 <= length <= min(n_dice, faces):
            raise GameDefinitionError(f"category {name!r}: length must be 2..{min(n_dice, faces)}")
        return (lambda c: points if _has_run(c, length) else 0), (
            f"{points} points for {length} consecutive faces"
        ), points
    sets = faces_sets
    if not isinstance(sets, list) or not sets:
        raise GameDefinitionError(f"category {name!r}: faces must be a list of face lists")
    if all(isinstance(x, int) for x in sets):
        sets = [sets]
    checked = []
    for s in sets:
        if (
            not isinstance(s, list)
            or not s
            or len(s) > n_dice
            or len(set(s)) != len(s)
            or not all(isinstance(f, int) and 1 <= f <= faces for f in s)
        ):
            raise GameDefinitionError(f"category {name!r}: bad face list {s!r}")
        checked.append(tuple(sorted(s)))

    def score(c: Counts) -> int:
        return points if any(all(c[f - 1] for f in s) for s in checked) else 0

    shown = " or ".join("-".join(map(str, s)) for s in checked)
    return score, f"{points} points for {shown}", points


def _kind_pair(name: str, n_dice: int, faces: int) -> tuple[Callable, str, int | None]:
    def score(c: Counts) -> int:
        return max((2 * (f + 1) for f, k in enumerate(c) if k >= 2), default=0)

    return score, "the sum of the two dice of the highest pair", None


def _kind_two_pairs(
    name: str, n_dice: int, faces: int, four_of_a_kind: bool = False
) -> tuple[Callable, str, int | None]:
    if not isinstance(four_of_a_kind, bool):
        raise GameDefinitionError(f"category {name!r}: four_of_a_kind must be true or false")

    def score(c: Counts) -> int:
        pairs = [f + 1 for f, k in enumerate(c) if k >= 2]
        if len(pairs) >= 2:
            return 2 * sum(sorted(pairs)[-2:])
        if four_of_a_kind:
            quads = [f + 1 for f, k in enumerate(c) if k >= 4]
            if quads:
                return 4 * max(quads)
        return 0

    extra = " (four of a kind also counts)" if four_of_a_kind else ""
    return score, f"the sum of two different pairs{extra}", None


def _kind_groups(name: str, n_dice: int, faces: int, sizes: Any, points: Any = "sum") -> tuple[Callable, str, int | None]:
    """Groups of dice of different faces, at least ``sizes`` of each: [2, 2, 2] three pairs, [3, 2] a full
    house of the grouped dice alone, [3, 3] two triples, [4, 2] four and a pair (Maxi Yatzy's boxes). "sum"
    scores the dice in the groups, the faces chosen for the most points."""
    _check_points(name, points, ("sum",))
    if (not isinstance(sizes, list) or not sizes or len(sizes) > faces
            or not all(isinstance(k, int) and not isinstance(k, bool) and k >= 1 for k in sizes)
            or sum(sizes) > n_dice):
        raise GameDefinitionError(f"category {name!r}: sizes must be a list of group sizes (each 1 or more) "
                                  f"that {n_dice} dice of {faces} faces can hold, not {sizes!r}")
    wanted = tuple(sorted(sizes, reverse=True))

    def best(c: Counts, k: int, taken: frozenset) -> int:
        """The most points of groups wanted[k:] from faces not taken (-1: they cannot be made)."""
        if k == len(wanted):
            return 0
        top = -1
        for f, have in enumerate(c):
            if have >= wanted[k] and f not in taken:
                rest = best(c, k + 1, taken | {f})
                if rest >= 0:
                    top = max(top, wanted[k] * (f + 1) + rest)
        return top

    def score(c: Counts) -> int:
        found = best(c, 0, frozenset())
        if found < 0:
            return 0
        return found if points == "sum" else points

    shape = "+".join(map(str, wanted))
    paid = "the sum of those dice" if points == "sum" else f"{points} points"
    text = f"{paid} for groups of {shape} dice, each group of a different face"
    return score, text, (points if isinstance(points, int) else None)


def _kind_chance(name: str, n_dice: int, faces: int) -> tuple[Callable, str, int | None]:
    return _total, "the sum of all dice", None


def _kind_sum_equals(
    name: str, n_dice: int, faces: int, total: int, points: int, needs_pair: bool = False
) -> tuple[Callable, str, int | None]:
    _check_points(name, points, ())
    if not isinstance(total, int) or not n_dice <= total <= n_dice * faces:
        raise GameDefinitionError(f"category {name!r}: total must be {n_dice}..{n_dice * faces}")

    def score(c: Counts) -> int:
        if _total(c) != total or (needs_pair and max(c) < 2):
            return 0
        return points

    extra = " including a pair" if needs_pair else ""
    return score, f"{points} points when the dice sum to {total}{extra}", points


KINDS: dict[str, Callable[..., tuple[Callable, str, int | None]]] = {
    "upper": _kind_upper,
    "n_of_a_kind": _kind_n_of_a_kind,
    "yacht": _kind_yacht,
    "full_house": _kind_full_house,
    "straight": _kind_straight,
    "pair": _kind_pair,
    "two_pairs": _kind_two_pairs,
    "groups": _kind_groups,
    "chance": _kind_chance,
    "sum_equals": _kind_sum_equals,
}

_PARAMS = {
    "upper": {"face"},
    "n_of_a_kind": {"n", "points"},
    "yacht": {"points"},
    "full_house": {"points", "five_of_a_kind"},
    "straight": {"points", "length", "faces"},
    "pair": set(),
    "two_pairs": {"four_of_a_kind"},
    "groups": {"sizes", "points"},
    "chance": set(),
    "sum_equals": {"total", "points", "needs_pair"},
}


def make_category(spec: dict[str, Any], n_dice: int, faces: int) -> Category:
    """Build a category from its rules-file table: name, kind, optional title/aliases, parameters."""
    if not isinstance(spec, dict):
        raise GameDefinitionError(f"a category must be a table, not {spec!r}")
    name = spec.get("name")
    if not isinstance(name, str) or not name.strip():
        raise GameDefinitionError(f"a category needs a name: {spec!r}")
    kind = spec.get("kind")
    if kind not in KINDS:
        raise GameDefinitionError(
            f"category {name!r}: unknown kind {kind!r} (known kinds: {', '.join(sorted(KINDS))})"
        )
    params = {k: v for k, v in spec.items() if k not in ("name", "kind", "title", "aliases")}
    unknown = set(params) - _PARAMS[kind]
    if unknown:
        raise GameDefinitionError(
            f"category {name!r}: unknown parameter(s) {', '.join(sorted(unknown))} for kind {kind!r}"
        )
    call_params = dict(params)
    if kind == "straight" and "faces" in call_params:
        call_params["faces_sets"] = call_params.pop("faces")
    try:
        score, description, fixed = KINDS[kind](name, n_dice, faces, **call_params)
    except TypeError as exc:
        raise GameDefinitionError(f"category {name!r}: missing or bad parameters for {kind!r} ({exc})")
    aliases = spec.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise GameDefinitionError(f"category {name!r}: aliases must be a list of strings")
    title = spec.get("title", name.replace("_", " ").title())
    return Category(
        name=name,
        kind=kind,
        params=tuple(sorted((k, _freeze(v)) for k, v in params.items())),
        title=str(title),
        aliases=tuple(aliases),
        score=score,
        description=description,
        fixed_points=fixed,
    )


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value
