"""Solved tables on disk.

Layout: ``<cache>/<kind>/<game-slug>-<fingerprint16>/`` holding one ``.npy`` file per array and
``manifest.json`` (format version, kind, canonical game string, game fingerprint, shapes, dtypes, sizes,
sha256 of every file, the root value). The cache is the user cache dir (platformdirs), or
``$DICESOLVER_CACHE_DIR``.

Writes go to a temporary directory beside the final one and are renamed into place, so a reader
never sees half a table. A per-table lock file serialises solvers: a second process asking for the
same table waits, then loads what the first one wrote. Reads verify everything in the manifest;
anything that does not match raises ``TableError`` and the caller rebuilds.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
import warnings
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
import platformdirs

from .errors import CacheWarning, DicesolverError, TableError

FORMAT_VERSION = 1
ENV_CACHE_DIR = "DICESOLVER_CACHE_DIR"
_HASH_CHUNK = 1 << 22
VERIFY_LIMIT = 32 * 2**20  # bytes: checksumming 32 MB on every load takes about 0.05 s on a slow core


def cache_dir() -> Path:
    override = os.environ.get(ENV_CACHE_DIR)
    return Path(override).expanduser() if override else Path(platformdirs.user_cache_dir("dicesolver"))


_BUILDS_REFUSED: ContextVar[bool] = ContextVar("builds_refused", default=False)


class NotBuilt(DicesolverError):
    """A table is not on disk where building one was refused (``refuse_builds``: a web GET, which only reads)."""

    def __init__(self, key: TableKey, size: Any = None):
        about = f", {size.describe()}" if size is not None else ""  # a core.family.TableSize
        super().__init__(f"{key.game} is not solved yet (its {key.kind} table{about})")
        self.key, self.size = key, size


@contextlib.contextmanager
def refuse_builds() -> Iterator[None]:
    """Within it, a table that is not on disk raises ``NotBuilt`` instead of being built: nothing is written."""
    token = _BUILDS_REFUSED.set(True)
    try:
        yield
    finally:
        _BUILDS_REFUSED.reset(token)


def may_build(key: TableKey) -> None:
    """Called before a table is built (or its lock file made): raises ``NotBuilt`` where builds are refused."""
    if _BUILDS_REFUSED.get():
        raise NotBuilt(key)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9=,._-]+", "_", text)[:80].strip("_") or "game"


@dataclass(frozen=True)
class TableKey:
    """What identifies a table: its kind (solver), the game's canonical string and fingerprint."""

    kind: str
    game: str
    fingerprint: str

    @property
    def directory(self) -> Path:
        return cache_dir() / self.kind / f"{_slug(Path(self.game).name)}-{self.fingerprint[:16]}"


@dataclass
class LoadedTable:
    arrays: dict[str, np.ndarray]
    manifest: dict[str, Any]
    directory: Path


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_HASH_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def make_manifest(key: TableKey, root_value: float, entries: dict[str, Any], extra: dict[str, Any] | None = None
                  ) -> dict[str, Any]:
    """The manifest of a table whose array files are described by ``entries`` (file, shape, dtype, bytes,
    sha256)."""
    return {
        "format_version": FORMAT_VERSION,
        "kind": key.kind,
        "game": key.game,
        "fingerprint": key.fingerprint,
        "root_value": float(root_value),
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "arrays": entries,
        **(extra or {}),
    }


def save(key: TableKey, arrays: dict[str, np.ndarray], root_value: float, extra: dict[str, Any] | None = None) -> Path:
    """Write a table atomically (temporary directory, fsync, rename)."""
    final = key.directory
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=final.parent))
    try:
        entries = {}
        for name, array in arrays.items():
            path = tmp / f"{name}.npy"
            with open(path, "wb") as fh:
                np.save(fh, np.ascontiguousarray(array), allow_pickle=False)
                fh.flush()
                os.fsync(fh.fileno())
            entries[name] = {
                "file": path.name,
                "shape": list(array.shape),
                "dtype": str(array.dtype),
                "bytes": path.stat().st_size,
                "sha256": sha256(path),
            }
        with open(tmp / "manifest.json", "w", encoding="utf-8") as fh:
            json.dump(make_manifest(key, root_value, entries, extra), fh, indent=2)
            fh.flush()
            os.fsync(fh.fileno())
        fsync_dir(tmp)
        if final.exists():
            trash = Path(tempfile.mkdtemp(prefix=".old-", dir=final.parent))
            os.rename(final, trash / "table")
            shutil.rmtree(trash, ignore_errors=True)
        os.rename(tmp, final)
        fsync_dir(final.parent)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return final


def load(key: TableKey, verify: bool | None = None) -> LoadedTable:
    """Open a table memory-mapped, checking it against its manifest; TableError when anything is off.

    ``verify``: check the files' checksums too; by default only for tables up to VERIFY_LIMIT bytes (a
    big table is checksummed when it is written, and on demand: ``dicesolver solve --verify``). Sizes,
    shapes and types are always checked."""
    directory = key.directory
    manifest_path = directory / "manifest.json"
    if not manifest_path.exists():
        raise TableError(f"no {key.kind} table for {key.game} in {directory.parent}")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TableError(f"unreadable manifest in {directory} ({exc})") from None
    if not isinstance(manifest, dict):
        raise TableError(f"malformed manifest in {directory}")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise TableError(f"stale table in {directory} (format {manifest.get('format_version')}, need {FORMAT_VERSION})")
    if manifest.get("kind") != key.kind or manifest.get("fingerprint") != key.fingerprint:
        raise TableError(f"foreign table in {directory} (made for another game or solver)")
    entries = manifest.get("arrays")
    if not isinstance(entries, dict) or not entries:
        raise TableError(f"malformed manifest in {directory} (no arrays)")
    arrays = {}
    for name, entry in entries.items():
        try:
            path = directory / str(entry["file"])
            if path.parent != directory:
                raise TableError(f"malformed manifest in {directory}")
            if not path.exists():
                raise TableError(f"table file {path.name} is missing in {directory}")
            if path.stat().st_size != int(entry["bytes"]):
                raise TableError(f"table file {path.name} is truncated or padded in {directory}")
            if (verify or (verify is None and int(entry["bytes"]) <= VERIFY_LIMIT)) and sha256(path) != entry["sha256"]:
                raise TableError(f"table file {path.name} is corrupt (checksum mismatch) in {directory}")
            array = np.load(path, mmap_mode="r", allow_pickle=False)
        except TableError:
            raise
        except (KeyError, TypeError, ValueError, OSError) as exc:
            raise TableError(f"unreadable table file for {name!r} in {directory} ({exc})") from None
        if list(array.shape) != list(entry["shape"]) or str(array.dtype) != entry["dtype"]:
            raise TableError(f"table file {name!r} in {directory} does not match its manifest")
        arrays[name] = array
    return LoadedTable(arrays, manifest, directory)


def verify_files(directory: str | Path) -> str | None:
    """Checksum every file a table's manifest lists: None when all match, else what is wrong (one line)."""
    directory = Path(directory)
    try:
        entries = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))["arrays"]
        for entry in entries.values():
            path = directory / str(entry["file"])
            if path.parent != directory or not path.exists():
                return f"table file {entry['file']} is missing in {directory}"
            if sha256(path) != entry["sha256"]:
                return f"table file {path.name} is corrupt (checksum mismatch) in {directory}"
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return f"unreadable table in {directory} ({exc})"
    return None


@contextlib.contextmanager
def lock(key: TableKey) -> Iterator[None]:
    """Exclusive per-table lock (released automatically if the process dies)."""
    from filelock import FileLock  # here: only a build takes the lock, and importing it is 10-20 ms of a command

    path = key.directory.with_name(key.directory.name + ".lock")
    guard = FileLock(path)  # flock on POSIX, msvcrt on Windows: the system drops it with the process
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        guard.acquire()
    except OSError:  # a cache we cannot write to: nothing will be saved there, so there is nothing to guard
        yield
        return
    try:
        yield
    finally:
        guard.release()


def load_or_build(
    key: TableKey,
    build: Callable[[], tuple[dict[str, np.ndarray], float, dict[str, Any]]],
    check: Callable[[LoadedTable], None] | None = None,
    rebuild: bool = False,
    on_problem: Callable[[str], None] | None = None,
) -> tuple[LoadedTable, bool]:
    """Load a verified table, building (and saving) it when it is missing or bad.

    ``build`` returns (arrays, root_value, extra manifest fields); ``check`` raises TableError when
    the loaded table fails a semantic test (such as its root value). Returns (table, built_now).
    """

    def attempt() -> LoadedTable | None:
        if rebuild:
            return None
        try:
            table = load(key)
            if check:
                check(table)
            return table
        except TableError as exc:
            if key.directory.exists() and on_problem:
                on_problem(f"{exc}; rebuilding it")
            return None

    table = attempt()
    if table is not None:
        return table, False
    may_build(key)
    with lock(key):
        if not rebuild:
            try:
                table = load(key)
                if check:
                    check(table)
                return table, False
            except TableError:
                pass
        arrays, root, extra = build()
        try:
            save(key, arrays, root, extra)
        except OSError as exc:  # a full disk, a read-only cache: the solve is still good, just not kept
            needed = sum(int(a.nbytes) for a in arrays.values())
            size = f"{needed / 2**20:.1f} MiB" if needed >= 2**20 // 10 else f"{max(1, needed // 1024)} KiB"
            problem = (f"could not save the table in {key.directory.parent} ({exc.strerror or exc}; it needs "
                       f"about {size}): it is used now and solved again next time (set "
                       f"{ENV_CACHE_DIR} to a folder you can write to keep it)")
            if on_problem:
                on_problem(problem)
            else:
                warnings.warn(problem, CacheWarning, stacklevel=2)
            manifest = {"format_version": FORMAT_VERSION, "kind": key.kind, "game": key.game,
                        "fingerprint": key.fingerprint, "root_value": float(root), **extra, "saved": False,
                        "arrays": {name: {"shape": list(a.shape), "dtype": str(a.dtype), "bytes": int(a.nbytes)}
                                   for name, a in arrays.items()}}
            return LoadedTable(dict(arrays), manifest, key.directory), True
    return load(key), True
