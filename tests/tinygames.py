"""Tiny scorecard games for kernel-vs-reference tests (2-3 dice, 3 faces)."""

from pathlib import Path

from dicesolver.scorecard.game.rules import build_game

# Built-in games whose solve takes minutes, and the reduced rules file tested in their place (the same code, the
# game's own kinds of box and variants, a table solved in a moment)
REDUCED = {"maxi-yatzy": str(Path(__file__).parent / "data" / "maxi-reduced.toml")}

ESSAY_TOY = {  # the Generala essay's toy: 2 three-sided dice, 2 rolls, Ones and Twos
    "name": "toy",
    "dice": 2,
    "faces": 3,
    "rolls": 2,
    "categories": [
        {"name": "ones", "kind": "upper", "face": 1},
        {"name": "twos", "kind": "upper", "face": 2},
    ],
}

BONUS_GAME = {  # upper bonus, an extra-yacht bonus with a joker, a straight, chance
    "name": "bonusgame",
    "dice": 3,
    "faces": 3,
    "rolls": 2,
    "upper_bonus": {"threshold": 6, "points": 10},
    "yahtzee_bonus": {"category": "yacht", "points": 20, "joker": "forced", "joker_categories": ["run"]},
    "categories": [
        {"name": "ones", "kind": "upper", "face": 1},
        {"name": "twos", "kind": "upper", "face": 2},
        {"name": "threes", "kind": "upper", "face": 3},
        {"name": "run", "kind": "straight", "faces": [1, 2, 3], "points": 15},
        {"name": "yacht", "kind": "yacht", "points": 12},
        {"name": "chance", "kind": "chance"},
    ],
    "variants": {
        "joker": {"default": "forced", "values": {"forced": {}, "free": {"yahtzee_bonus.joker": "free"},
                                                    "none": {"yahtzee_bonus.joker": "none"}}},
        "order": {"default": "free", "values": {"free": {}, "forced": {"order": "forced"}}},
    },
}

PAIRS_GAME = {  # the pattern kinds on 3 dice with 3 rolls
    "name": "pairs",
    "dice": 3,
    "faces": 3,
    "rolls": 3,
    "categories": [
        {"name": "pair", "kind": "pair"},
        {"name": "trips", "kind": "n_of_a_kind", "n": 3, "points": "sum_those"},
        {"name": "two", "kind": "n_of_a_kind", "n": 2, "points": 7},
        {"name": "seven", "kind": "sum_equals", "total": 7, "points": 9, "needs_pair": True},
        {"name": "threes", "kind": "upper", "face": 3},
    ],
}

MAXI_LIKE = {  # Maxi Yatzy's shape made small: more dice than boxes need, groups of different faces, a bonus
    "name": "maxilike",
    "dice": 4,
    "faces": 3,
    "rolls": 2,
    "upper_bonus": {"threshold": 9, "points": 20},
    "categories": [
        {"name": "ones", "kind": "upper", "face": 1},
        {"name": "twos", "kind": "upper", "face": 2},
        {"name": "threes", "kind": "upper", "face": 3},
        {"name": "two_pairs", "kind": "groups", "sizes": [2, 2]},
        {"name": "tower", "kind": "groups", "sizes": [3, 1], "points": 12},
        {"name": "maxi", "kind": "yacht", "points": 30},
    ],
}


SET_BONUS_GAME = {  # a bonus on lower boxes beside the upper one, and the extra-yacht bonus paid at most once
    "name": "setbonus",
    "dice": 3,
    "faces": 3,
    "rolls": 2,
    "upper_bonus": {"threshold": 6, "points": 10},
    "bonuses": [{"name": "lower_bonus", "boxes": ["run", "yacht", "chance"], "threshold": 20, "points": 7}],
    "yahtzee_bonus": {"category": "yacht", "points": 20, "times": 1, "joker": "forced", "joker_categories": ["run"]},
    "categories": [
        {"name": "ones", "kind": "upper", "face": 1},
        {"name": "twos", "kind": "upper", "face": 2},
        {"name": "threes", "kind": "upper", "face": 3},
        {"name": "run", "kind": "straight", "faces": [1, 2, 3], "points": 15},
        {"name": "yacht", "kind": "yacht", "points": 12},
        {"name": "chance", "kind": "chance"},
    ],
    "variants": {
        "times": {"default": "1", "values": {"1": {}, "2": {"yahtzee_bonus.times": 2},
                                             "every": {"yahtzee_bonus.times": 0}}},
        "upper": {"default": "on", "values": {"on": {}, "off": {"upper_bonus.points": 0}}},
        "joker": {"default": "forced", "values": {"forced": {}, "free": {"yahtzee_bonus.joker": "free"}}},
    },
}


def tiny(definition, **choices):
    return build_game(definition, {k: str(v) for k, v in choices.items()}, definition["name"])


def rules_file(definition, path):
    """``definition`` written as a rules file at ``path`` (the TOML these definitions need: numbers, strings,
    lists of them, tables, arrays of tables), for the command line to read back."""
    def value(v):
        if isinstance(v, str):
            return '"' + v + '"'
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return str(v)

    def table(d):
        return "".join(f"{k} = {value(v)}\n" for k, v in d.items()
                       if not isinstance(v, dict) and not (isinstance(v, list) and v and isinstance(v[0], dict)))

    lines = [table({k: v for k, v in definition.items() if k != "categories"})]
    for key, sub in definition.items():
        if isinstance(sub, dict) and key != "variants":
            lines.append(f"[{key}]\n" + table(sub))
    lines += [f"[[{key}]]\n" + table(item) for key, items in definition.items() if key != "categories"
              and isinstance(items, list) and items and isinstance(items[0], dict) for item in items]
    lines += ["[[categories]]\n" + table(c) for c in definition["categories"]]
    path.write_text("\n".join(lines))
    return path
