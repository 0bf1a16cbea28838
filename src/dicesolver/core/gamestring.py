"""The game string: ``NAME`` or ``NAME(key=value, ...)``, the one syntax every family's games are named in."""

from __future__ import annotations

import re

from .errors import GameDefinitionError

_GAME_STRING = re.compile(r"^\s*(?P<base>[^()]+?)\s*(?:\((?P<args>[^()]*)\))?\s*$")


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
