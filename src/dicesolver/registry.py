"""Every game by its game string: scorecard presets and rules files, the push-your-luck games and Despirala.

A game string is ``NAME`` or ``NAME(key=value,...)`` where NAME is a preset (``dicesolver games``) or
the path of a rules file (``./mygame.toml``). ``load_game`` returns the validated game; its
``canonical`` string (variants sorted, defaults omitted) is both the registry key and the cache key.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .core.errors import GameDefinitionError, InputError
from .core.gamestring import parse_game_string
from .core.jsonl import read_lines
from .despirala.rules import DespiralaGame, make_despirala
from .pushluck.rules import PUSH_GAMES, PushGame, make_push_game
from .scorecard.presets import load_scorecard_game, looks_like_path, preset_names
from .scorecard.rules import ScorecardGame

__all__ = ["load_game", "load_any_game", "push_game_names", "read_any_record"]

MAX_RECORD_BYTES = 5 * 2**20


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
    if not looks_like_path(base) and base.strip().lower() not in preset_names():
        raise GameDefinitionError(f"unknown game {base!r} (games: {', '.join(preset_names() + list(PUSH_GAMES) + ['despirala'])}; "
                                  "or a path to a .toml rules file)")
    return load_scorecard_game(base, choices)


def read_any_record(path: str | Path, warnings: list[str] | None = None):
    """A game record of any game: a ``PushRecord``, a ``DespiralaRecord`` or a scorecard ``GameRecord``."""
    from .despirala.records import despirala_record_from_lines
    from .pushluck.records import push_record_from_lines
    from .scorecard.records import read_record

    path = Path(path)
    lines = read_lines(path, MAX_RECORD_BYTES, warnings)
    number, header = lines[0]
    if not isinstance(header, dict) or header.get("type") != "game":
        raise InputError(f"{path}, line {number}: the first line must be the game header")
    game = load_any_game(str(header.get("game", "")))
    if isinstance(game, PushGame):
        return push_record_from_lines(path, lines, game)
    if isinstance(game, DespiralaGame):
        return despirala_record_from_lines(path, lines, game)
    return read_record(path, warnings)
