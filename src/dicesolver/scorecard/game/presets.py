"""Scorecard games by name: the presets shipped in ``presets/`` and rules files given by path."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ...core.errors import GameDefinitionError
from .rules import ScorecardGame, build_game
from .rules_file import check_toml_text

MAX_RULES_FILE_BYTES = 256 * 1024


def preset_names() -> list[str]:
    folder = resources.files(__package__) / "presets"
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


@lru_cache(maxsize=None)
def preset_definition(name: str) -> dict[str, Any]:
    text = (resources.files(__package__) / "presets" / f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def read_rules_file(path: Path) -> dict[str, Any]:
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
