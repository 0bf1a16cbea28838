"""Scorecard games by name: the presets shipped in ``presets/`` and rules files given by path.

A rules file may build on another (``extends = "yahtzee"``, a preset's name or a rules file's path,
relative to the file): its keys replace the base's, its tables (``upper_bonus``, ``yahtzee_bonus``) are
merged key by key, its ``variants``, when given, are all its variants (a base's variant may patch a box
the new card lacks), and its ``categories``, when given, are its whole card in order, where a box given by
its name alone is the base's box of that name (with any other key given replacing the base's).
"""

from __future__ import annotations

import copy
import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ...core.errors import GameDefinitionError
from .rules import ScorecardGame, build_game
from .rules_file import check_toml_text

MAX_RULES_FILE_BYTES = 256 * 1024
MAX_EXTENDS = 8  # bases above a rules file: a chain longer than any real family of house rules


def preset_names() -> list[str]:
    folder = resources.files(__package__) / "presets"
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


@lru_cache(maxsize=None)
def preset_definition(name: str) -> dict[str, Any]:
    """A preset's rules, its base's (``extends``) merged in."""
    return resolve_extends(_preset_text(name), name, ())


def _preset_text(name: str) -> dict[str, Any]:
    text = (resources.files(__package__) / "presets" / f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def resolve_extends(definition: dict[str, Any], where: str, below: tuple[str, ...]) -> dict[str, Any]:
    """``definition`` with the base it extends merged in (recursively); ``where`` names it (a preset's name
    or a file's path), ``below`` the files that extend it (to refuse a cycle)."""
    base = definition.get("extends")
    if base is None:
        return definition
    if not isinstance(base, str) or not base:
        raise GameDefinitionError(f"{where}: extends must name a game (a preset or a rules file), not {base!r}")
    chain = (*below, where)
    if len(chain) > MAX_EXTENDS:
        raise GameDefinitionError(f"{where}: extends goes more than {MAX_EXTENDS} games deep ({' -> '.join(chain)})")
    if looks_like_path(base):
        folder = Path(where).parent if looks_like_path(where) else Path.cwd()
        path = (folder / Path(base).expanduser()).resolve()
        key = str(path)
        if key in chain:
            raise GameDefinitionError(f"{where}: extends makes a cycle ({' -> '.join((*chain, key))})")
        parent = resolve_extends(_read_file(path), key, chain)
    else:
        key = base.strip().lower()
        if key in chain:
            raise GameDefinitionError(f"{where}: extends makes a cycle ({' -> '.join((*chain, key))})")
        if key not in preset_names():
            raise GameDefinitionError(f"{where}: extends {base!r}, which is no preset "
                                      f"({', '.join(preset_names())}) and no .toml rules file")
        parent = resolve_extends(_preset_text(key), key, chain)
    return _merged(parent, {k: v for k, v in definition.items() if k != "extends"}, where)


def _merged(base: dict[str, Any], child: dict[str, Any], where: str) -> dict[str, Any]:
    merged = copy.deepcopy(base)
    for key, value in child.items():
        if key == "categories":
            merged[key] = _card(base.get("categories", []), value, where)
        elif key == "variants":
            merged[key] = copy.deepcopy(value)
        elif isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **copy.deepcopy(value)}
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def _card(base: list[Any], child: Any, where: str) -> Any:
    """The child's card: each box its own, or the base's box of its name with the child's keys over it."""
    if not isinstance(child, list):
        return child  # the schema says what is wrong with it
    boxes = {c.get("name"): c for c in base if isinstance(c, dict)}
    card = []
    for box in child:
        if isinstance(box, dict) and "kind" not in box and box.get("name") in boxes:
            card.append({**copy.deepcopy(boxes[box["name"]]), **copy.deepcopy(box)})
        elif isinstance(box, dict) and "kind" not in box and set(box) == {"name"}:
            raise GameDefinitionError(f"{where}: categories: {box['name']!r} names no box of the game it extends "
                                      f"({', '.join(map(str, boxes))})")
        else:
            card.append(copy.deepcopy(box))
    return card


def read_rules_file(path: Path) -> dict[str, Any]:
    """A rules file's rules, its base's (``extends``) merged in."""
    return resolve_extends(_read_file(path), str(path), ())


def _read_file(path: Path) -> dict[str, Any]:
    try:
        if not path.is_file():
            raise GameDefinitionError(f"no rules file at {str(path)!r}")
        if path.stat().st_size > MAX_RULES_FILE_BYTES:
            raise GameDefinitionError(f"{path}: a rules file may be at most {MAX_RULES_FILE_BYTES} bytes")
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise GameDefinitionError(f"{path}: not a text file") from None
    except OSError as exc:
        raise GameDefinitionError(f"cannot read {path}: {exc.strerror}") from None
    check_toml_text(text, str(path))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GameDefinitionError(f"{path}: not valid TOML ({exc})") from None
    except ValueError:  # tomllib's own, for a number of more digits than Python converts
        raise GameDefinitionError(f"{path}: a number too long to be a rules file's") from None
    except RecursionError:
        raise GameDefinitionError(f"{path}: nested too deeply to be a rules file") from None


def looks_like_path(base: str) -> bool:
    return base.endswith(".toml") or "/" in base or "\\" in base


@lru_cache(maxsize=256)
def _load_preset(base: str, frozen_choices: tuple[tuple[str, str], ...]) -> ScorecardGame:
    return build_game(preset_definition(base), dict(frozen_choices), base)


def load_scorecard_game(base: str, choices: dict[str, str]) -> ScorecardGame:
    """A preset (by name) or a rules file (by path), with variant choices."""
    if looks_like_path(base):
        try:
            path = Path(base).expanduser()
        except RuntimeError:  # ~user of a user this machine does not have
            raise GameDefinitionError(f"no home directory for {base.split('/')[0]!r} (in {base!r})") from None
        return build_game(read_rules_file(path), choices, str(path))
    key = base.strip().lower()
    if key not in preset_names():
        raise GameDefinitionError(f"unknown game {base!r} (scorecard presets: {', '.join(preset_names())}; or a .toml rules file)")
    return _load_preset(key, tuple(sorted(choices.items())))
