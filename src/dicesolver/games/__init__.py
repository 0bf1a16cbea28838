"""Games as data: the registry of presets, game strings, and user rules files.

A game string is ``NAME`` or ``NAME(key=value,...)`` where NAME is a preset (``dicesolver games``) or
the path of a rules file (``./mygame.toml``). ``load_game`` returns the validated game; its
``canonical`` string (variants sorted, defaults omitted) is both the registry key and the cache key.
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import GameDefinitionError
from .despirala import DespiralaGame, make_despirala
from .pushluck import PUSH_GAMES, PushGame, make_push_game
from .scorecard import ScorecardGame, Variant, build_game

__all__ = ["ScorecardGame", "PushGame", "DespiralaGame", "Variant", "load_game", "load_any_game", "preset_names", "parse_game_string",
           "preset_definition", "push_game_names"]

MAX_RULES_FILE_BYTES = 256 * 1024
_GAME_STRING = re.compile(r"^\s*(?P<base>[^()]+?)\s*(?:\((?P<args>[^()]*)\))?\s*$")


def preset_names() -> list[str]:
    folder = resources.files(__package__) / "presets"
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


@lru_cache(maxsize=None)
def preset_definition(name: str) -> dict[str, Any]:
    text = (resources.files(__package__) / "presets" / f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def parse_game_string(text: str) -> tuple[str, dict[str, str]]:
    """Split ``yatzy(fh5, tp4=on)`` into ("yatzy", {"fh5": "on", "tp4": "on"})."""
    if not isinstance(text, str) or not text.strip():
        raise GameDefinitionError("no game given")
    m = _GAME_STRING.match(text)
    if not m:
        raise GameDefinitionError(f"cannot read the game {text!r}: write NAME or NAME(key=value,...)")
    choices: dict[str, str] = {}
    args = m.group("args")
    if args:
        for part in args.split(","):
            part = part.strip()
            if not part:
                continue
            key, sep, value = part.partition("=")
            key = key.strip().lower()
            if not re.fullmatch(r"[a-z0-9_]+", key):
                raise GameDefinitionError(f"bad variant {part!r} in {text!r}")
            if key in choices:
                raise GameDefinitionError(f"variant {key!r} given twice in {text!r}")
            choices[key] = value.strip() if sep else "on"
    return m.group("base"), choices


def _read_rules_file(path: Path) -> dict[str, Any]:
    try:
        if not path.is_file():
            raise GameDefinitionError(f"no rules file at {str(path)!r}")
        if path.stat().st_size > MAX_RULES_FILE_BYTES:
            raise GameDefinitionError(f"{path}: a rules file may be at most {MAX_RULES_FILE_BYTES} bytes")
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise GameDefinitionError(f"{path}: not valid TOML ({exc})") from None
    except UnicodeDecodeError:
        raise GameDefinitionError(f"{path}: not a text file") from None
    except OSError as exc:
        raise GameDefinitionError(f"cannot read {path}: {exc.strerror}") from None


def _looks_like_path(base: str) -> bool:
    return base.endswith(".toml") or "/" in base or "\\" in base


@lru_cache(maxsize=256)
def _load_preset(base: str, frozen_choices: tuple[tuple[str, str], ...]) -> ScorecardGame:
    return build_game(preset_definition(base), dict(frozen_choices), base)


def push_game_names() -> list[str]:
    return list(PUSH_GAMES)


@lru_cache(maxsize=64)
def _load_push_game(base: str, frozen_choices: tuple[tuple[str, str], ...]) -> PushGame:
    return make_push_game(base, dict(frozen_choices))


def load_any_game(text: str | ScorecardGame | PushGame | DespiralaGame) -> ScorecardGame | PushGame | DespiralaGame:
    """A scorecard game, a push-your-luck game (``pig``, ``skunk(goal=50)``, ``pig(faces=2,goal=10)``) or
    Despirala (``despirala``, ``despirala(misere)``)."""
    if isinstance(text, (ScorecardGame, PushGame, DespiralaGame)):
        return text
    base, choices = parse_game_string(text)
    key = base.strip().lower()
    if key in PUSH_GAMES:
        return _load_push_game(key, tuple(sorted(choices.items())))
    if key == "despirala":
        return make_despirala(choices)
    return load_game(text)


def load_game(text: str | ScorecardGame) -> ScorecardGame:
    """A game from a game string (preset name or rules-file path, with optional variants)."""
    if isinstance(text, ScorecardGame):
        return text
    base, choices = parse_game_string(text)
    if base.strip().lower() in PUSH_GAMES:
        raise GameDefinitionError(f"{base.strip()} is a push-your-luck game: it works with solve, advise, chart, compare, "
                                  "play and analyze, not with this command")
    if base.strip().lower() == "despirala":
        raise GameDefinitionError("despirala works with rules, solve, advise and simulate, not with this command")
    if _looks_like_path(base):
        path = Path(base).expanduser()
        return build_game(_read_rules_file(path), choices, str(path))
    key = base.strip().lower()
    names = preset_names()
    if key not in names:
        raise GameDefinitionError(f"unknown game {base!r} (games: {', '.join(names + list(PUSH_GAMES) + ['despirala'])}; "
                                  "or a path to a .toml rules file)")
    return _load_preset(key, tuple(sorted(choices.items())))
