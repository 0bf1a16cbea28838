"""JSON Lines files that survive a crash: lines appended and synced one by one, whole rewrites done
atomically, and a half-written last line (what a kill mid-write leaves) ignored with a warning."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from .errors import InputError


def read_lines(path: str | Path, max_bytes: int, warnings: list[str] | None = None, what: str = "game record") -> list[tuple[int, Any]]:
    """The parsed lines of ``path`` with their line numbers (at least one; InputError otherwise)."""
    path = Path(path)
    try:
        if path.stat().st_size > max_bytes:
            raise InputError(f"{path}: a {what} may be at most {max_bytes} bytes")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"no {what} at {str(path)!r}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text file") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    lines = text.split("\n")
    complete = text.endswith("\n")
    parsed = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            parsed.append((number, json.loads(line)))
        except RecursionError:
            raise InputError(f"{path}, line {number}: nested too deeply to be a record line") from None
        except json.JSONDecodeError:
            if number == len(lines) and not complete and parsed:
                if warnings is not None:
                    warnings.append(f"{path}: ignored a half-written last line")
                break
            raise InputError(f"{path}, line {number}: not valid JSON") from None
        except ValueError:  # a number of more digits than Python converts
            raise InputError(f"{path}, line {number}: a number too long to be a record's") from None
    if not parsed:
        raise InputError(f"{path}: empty {what}")
    return parsed


RECORD_FORMAT = 1
HEADER_KEYS = {"type", "format", "game", "seed", "players", "manual_dice"}


@dataclass
class RecordHeader:
    """The fields every record's header line has, checked; ``extra`` holds the family's own."""

    players: list[str]
    seed: int | None
    manual_dice: bool
    extra: dict[str, Any]


def read_header(path: str | Path, header: Any, players: tuple[int, int], default_players: list[str] | None = None,
                known: Iterable[str] = ()) -> RecordHeader:
    """A record's header line checked (InputError naming the file): the format, ``players[0]`` to
    ``players[1]`` names of at most 40 characters, the seed; the keys not in ``known`` go to ``extra``."""
    if not isinstance(header, dict) or header.get("type") != "game":
        raise InputError(f"{path}: the first line must be the game header")
    if header.get("format") != RECORD_FORMAT:
        raise InputError(f"{path}: unsupported record format {header.get('format')!r}")
    names = header.get("players") or default_players
    low, high = players
    if (not isinstance(names, list) or not low <= len(names) <= high
            or not all(isinstance(p, str) and 0 < len(p) <= 40 for p in names)):
        count = f"{low} to {high}" if low != high else {1: "one", 2: "two"}.get(low, str(low))
        raise InputError(f"{path}: a record of this game needs {count} player names")
    seed = header.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise InputError(f"{path}: seed must be a number")
    skip = HEADER_KEYS | set(known)
    return RecordHeader(list(names), seed, bool(header.get("manual_dice", False)),
                        {k: v for k, v in header.items() if k not in skip})


def append_line(path: str | Path, obj: dict[str, Any], mode: str = "a") -> None:
    """Append one line and sync it (``mode="x"`` creates the file and refuses to overwrite one)."""
    with open(path, mode, encoding="utf-8") as fh:
        fh.write(json.dumps(obj) + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def write_lines(path: str | Path, objs: Iterable[dict[str, Any]]) -> None:
    """Replace the file with these lines atomically (temporary file, sync, rename); a file that already
    holds exactly them is left as it is (others watching it see no change)."""
    path = Path(path)
    text = "".join(json.dumps(obj) + "\n" for obj in objs)
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except (OSError, UnicodeDecodeError):
        pass
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)

