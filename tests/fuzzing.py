"""Hypothesis strategies for hostile input: valid texts of every input language, then mutated.

Each language's valid texts come from the games themselves (random playthroughs through the protocol,
the presets' rules, records written by the families), so the fuzzer starts next to the grammar and the
mutations reach the corners a careless or hostile user would: a character changed, deleted or doubled, a
piece repeated, a number made huge, a JSON value of the wrong type, deep nesting.
"""

from __future__ import annotations

import copy
import json
import random
from functools import lru_cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from dicesolver.core import records as core_records
from dicesolver.core import registry
from dicesolver.core.playthrough import Playthrough

GAMES = ["yahtzee", "yahtzee(joker=free)", "yacht", "generala", "crag", "yatzy", "yacht-dice", "yazy",
         "pig", "skunk", "big-pig", "despirala", "despirala(misere)", "pig(goal=30)", "farkle", "zilch", "kcd"]
TWO_PLAYER = ["generala", "yacht", "yahtzee"]
SPECS = GAMES + ["yahtzee(upper_bonus=off,yahtzee_bonus=off)", "yatzy(forced=on)", "skunk(goal=50)",
                 "big-pig(goal=40)", "despirala(play=normal)", "generala(fh5=on)", "farkle(goal=1000,floor=-500)"]
# Characters the languages use, and a few that look like them (superscripts, other scripts' digits, markup).
ALPHABET = "0123456789/;,=-+.:() []{}~!_abcdefhklnoprstuvwxyz" + "²³٣\n\t\\\"'" + "[/x]"
HUGE = ["9" * 5_000, "99999999999", "-1", "--1", "+1", "1e3", "0x1f", "1_000", "²", ""]


@lru_cache(maxsize=None)
def game(spec: str, players: int | None = None):
    return registry.load(spec, players)


SEEDS = st.integers(0, 399)  # few enough that the games are played once and cached


@lru_cache(maxsize=None)
def playthrough(spec: str, seed: int, players: int | None = None, max_steps: int = 60,
                to_end: bool = False) -> tuple[list, list]:
    """The states and steps of a random game (``to_end``: until it is over): random legal actions, outcomes
    drawn by their odds."""
    rng = random.Random(seed)
    state = game(spec, players).start()
    states, steps = [state], []
    wanted = rng.randrange(max_steps)
    while to_end or len(steps) < wanted:
        if state.is_terminal():
            break
        if state.is_chance():
            outcomes = state.chance_outcomes()
            step = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            step = rng.choice(list(state.legal_actions()))
        steps.append(step)
        state = state.apply(step)
        states.append(state)
    return states, steps


def mutate(text: str, draw) -> str:
    """One to four edits of ``text``: insert, delete, replace, repeat a piece, cut, or put in a big number."""
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["insert", "delete", "replace", "repeat", "cut", "number"]))
        char = draw(st.one_of(st.sampled_from(ALPHABET), st.characters(codec="utf-8")))
        if edit == "insert":
            text = text[:i] + char + text[i:]
        elif edit == "delete":
            text = text[:i] + text[i + 1:]
        elif edit == "replace":
            text = text[:i] + char + text[i + 1:]
        elif edit == "repeat":
            j = draw(st.integers(i, len(text)))
            text = text[:j] + text[i:j] * draw(st.integers(2, 5)) + text[j:]
        elif edit == "cut":
            text = text[:i]
        else:
            text = text[:i] + draw(st.sampled_from(HUGE)) + text[i:]
    return text


@st.composite
def positions(draw, games: tuple[str, ...] = tuple(GAMES), one_player: bool = False) -> tuple[str, str]:
    """(game, position text): a position reached in a random game, as text, usually mutated.

    ``one_player``: scorecard positions of one player only (no ';'), for tests that solve what they read
    (a two-person table of Yacht is an hour's work)."""
    spec = draw(st.sampled_from(games))
    players = 2 if spec in TWO_PLAYER and not one_player and draw(st.booleans()) else None
    states, _ = playthrough(spec, draw(SEEDS), players)
    text = typed(str(draw(st.sampled_from(states))), draw)
    return spec, text.replace(";", ",") if one_player and spec in TWO_PLAYER else text


def typed(text: str, draw) -> str:
    """What a user types where ``text`` is valid: itself, a mutation of it (most often), or anything."""
    how = draw(st.sampled_from(["valid", "mutated", "mutated", "mutated", "anything"]))
    if how == "valid":
        return text
    return mutate(text, draw) if how == "mutated" else draw(st.text(max_size=40))


@st.composite
def steps(draw) -> tuple[Any, str]:
    """(state, step text): a state of a random game and a typed step, usually a mutated legal one."""
    spec = draw(st.sampled_from(GAMES))
    states, taken = playthrough(spec, draw(SEEDS))
    if not taken:
        return states[0], draw(st.text(max_size=20))
    i = draw(st.integers(0, len(taken) - 1))
    return states[i], typed(str(taken[i]), draw)


@st.composite
def game_specs(draw) -> str:
    return mutate(draw(st.sampled_from(SPECS)), draw)


# -- rules files -------------------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.sampled_from([0, 1, 6, 63, 3_000_000_000])
    | st.floats(allow_nan=True) | st.text(max_size=12) | st.sampled_from(["upper", "sum_all", "yahtzee", "forced"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _paths(value, prefix + (i,))
    return found


@st.composite
def rules_definitions(draw) -> dict:
    """A preset's rules (as loaded from TOML) with one to three keys changed, removed or added."""
    from dicesolver.scorecard.game.presets import preset_definition, preset_names

    definition = copy.deepcopy(preset_definition(draw(st.sampled_from(preset_names()))))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(definition)))
        parent = definition
        for part in path[:-1]:
            parent = parent[part]
        edit = draw(st.sampled_from(["set", "set", "delete", "add"]))
        if edit == "set":
            parent[path[-1]] = draw(JSON_VALUES)
        elif edit == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["points", "face", "n", "faces", "kind", "name", "x", "values"]))] = draw(JSON_VALUES)
    return definition


@st.composite
def rules_texts(draw) -> str:
    """A preset's rules file as text, mutated character by character."""
    from importlib import resources

    from dicesolver.scorecard.game.presets import preset_names

    name = draw(st.sampled_from(preset_names()))
    text = (resources.files("dicesolver.scorecard.game") / "presets" / f"{name}.toml").read_text(encoding="utf-8")
    return mutate(text, draw)


# -- records -----------------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def record_lines(spec: str, seed: int, players: int = 2) -> list[dict]:
    """The lines of a record of a random game, as `play` writes them (one step a line)."""
    states, taken = playthrough(spec, seed, players if spec in TWO_PLAYER else None)
    g = states[0].game
    names = [f"player {i}" for i in range(g.n_players)]
    return core_records.lines(Playthrough(g, names, list(taken), seed=seed))


OLD_RECORDS = sorted(p.name for p in (Path(__file__).parent / "data" / "records_v1").glob("*.jsonl"))


@lru_cache(maxsize=None)
def old_record_lines(name: str) -> list[dict]:
    """A record of format 1 (each family's own events), as the families wrote them until 2026-11-28."""
    text = (Path(__file__).parent / "data" / "records_v1" / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


@st.composite
def records(draw, players: int = 2) -> str:
    """A record's text (``players`` for the scorecard games; the others have their own number): lines dropped, repeated or swapped, values of the wrong type, cut, deeply nested."""
    if draw(st.integers(0, 3)) == 0:  # a game saved before records were one step a line (format 1)
        lines = copy.deepcopy(old_record_lines(draw(st.sampled_from(OLD_RECORDS))))
    else:
        spec = draw(st.sampled_from(["yacht", "yahtzee", "generala", "pig(goal=30)", "skunk", "despirala"]))
        lines = copy.deepcopy(record_lines(spec, draw(SEEDS), players))
    for _ in range(draw(st.integers(0, 3))):
        edit = draw(st.sampled_from(["drop", "repeat", "swap", "value", "delete_key", "nest", "text"]))
        i = draw(st.integers(0, len(lines) - 1))
        if edit == "drop" and len(lines) > 1:
            lines.pop(i)
        elif edit == "repeat":
            lines.insert(i, copy.deepcopy(lines[i]))
        elif edit == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif edit in ("value", "delete_key") and isinstance(lines[i], dict) and lines[i]:
            key = draw(st.sampled_from(sorted(lines[i])))
            if edit == "value":
                lines[i][key] = draw(JSON_VALUES)
            else:
                del lines[i][key]
        elif edit == "nest":
            lines[i] = json.loads("[" * 200 + "]" * 200)
        elif edit == "text":
            text = json.dumps(lines[i])
            lines[i] = mutate(text, draw)  # type: ignore[assignment]
    return "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n"
