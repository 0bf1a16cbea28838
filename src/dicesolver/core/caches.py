"""What dicesolver keeps on disk to answer fast, for ``dicesolver cache``: the solved tables (by game and
kind, ``core.tables``) and the compiled kernels (``core.kernel_cache``), listed with their sizes and
places, and removed on request. Saved games and uploaded records live beside the tables and are never
touched: they are the user's, not a cache."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from filelock import FileLock

from . import kernel_cache, tables

USER_DATA = {"web-games", "uploads"}  # folders of the cache directory that hold the user's own files


@dataclass(frozen=True)
class CachedTable:
    kind: str  # the solver that made it (solitaire-ev, duel-exact, pushluck...)
    game: str  # the game (and for derived tables, what they answer) as the manifest names it
    path: str
    bytes: int
    created: str  # when it was written ("" for a build that did not finish)
    complete: bool  # False: a build left unfinished (its next solve resumes or replaces it)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CompiledKernels:
    path: str
    bytes: int
    kernels: int  # compiled functions (one index file each)
    current: bool  # compiled from this version's sources (the others serve other installed versions)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def size_of(path: Path) -> int:
    """Bytes on disk of a file or of everything under a folder (best effort)."""
    if path.is_file():
        return path.stat().st_size
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_size
    return total


def cached_tables() -> list[CachedTable]:
    """Every table in the cache directory, by kind then game."""
    base = tables.cache_dir()
    found: list[CachedTable] = []
    if not base.is_dir():
        return found
    kernels = kernel_cache.cache_base().resolve()  # by default a folder beside the tables: not a kind of table
    for kind_dir in sorted(p for p in base.iterdir()
                           if p.is_dir() and p.name not in USER_DATA and p.resolve() != kernels):
        for table in sorted(p for p in kind_dir.iterdir() if p.is_dir() and not p.name.startswith(".")):
            manifest: dict[str, Any] = {}
            with contextlib.suppress(OSError, ValueError):
                manifest = json.loads((table / "manifest.json").read_text(encoding="utf-8"))
            if not isinstance(manifest, dict):
                manifest = {}
            game = str(manifest.get("game") or table.name.rsplit("-", 1)[0])
            found.append(CachedTable(kind_dir.name, game, str(table), size_of(table), str(manifest.get("created", "")),
                                     bool(manifest)))
    return found


def compiled_kernels() -> list[CompiledKernels]:
    """Every folder of compiled kernels (one per version of the kernels' sources), this version's first."""
    base = kernel_cache.cache_base()
    current = kernel_cache.current_dir(base).name
    found: list[CompiledKernels] = []
    if base.is_dir():
        for d in base.glob(f"{kernel_cache.PREFIX}*"):
            if d.is_dir():
                found.append(CompiledKernels(str(d), size_of(d), sum(1 for _ in d.rglob("*.nbi")), d.name == current))
    return sorted(found, key=lambda k: not k.current)


def belongs_to(table: CachedTable, canonical: str, bare: bool) -> bool:
    """Whether a table is the game's: its own, or derived from it (``yahtzee at least 300 to 1575``); a bare
    name (no variants given) also owns its variants' (``yahtzee(joker=free)``) and modes' tables."""
    game = table.game
    return game == canonical or game.startswith(canonical + " ") or (bare and game.startswith(canonical + "("))


def remove_table(table: CachedTable) -> None:
    """Remove one table under its lock (a solve of it in progress finishes first)."""
    path = Path(table.path)
    lock_path = path.with_name(path.name + ".lock")
    with contextlib.ExitStack() as stack:
        with contextlib.suppress(OSError):
            stack.enter_context(FileLock(lock_path))
        trash = Path(tempfile.mkdtemp(prefix=".old-", dir=path.parent))
        with contextlib.suppress(FileNotFoundError):
            os.rename(path, trash / "table")
        shutil.rmtree(trash, ignore_errors=True)


def remove_kernels(kernels: CompiledKernels) -> None:
    shutil.rmtree(kernels.path, ignore_errors=True)
