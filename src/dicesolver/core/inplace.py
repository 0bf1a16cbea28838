"""Tables too big to hold in memory, built in place on disk, step by step, and resumed after a kill.

The arrays are ``.npy`` files in a partial directory beside the final one (``.partial-<name>``),
created sparse at their full size and written through memory maps one segment at a time: a solver maps
only the segments it writes and reads, so its memory stays at a few segments however big the table. After
each step the solver checkpoints: the files are flushed and synced, then the step's name is added to
``progress.json`` (written atomically). A process killed at any point leaves the partial directory; the
next one finds the steps done and carries on from there. When every step is done the checksums and
``manifest.json`` are written and the directory is renamed into place, exactly like ``tables.save``.
"""

from __future__ import annotations

import json
import mmap
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from . import tables
from .errors import TableError

PROGRESS = "progress.json"


@dataclass
class InPlaceBuild:
    """The partial directory of one table: its arrays' files and the steps already done."""

    key: tables.TableKey
    directory: Path
    specs: dict[str, tuple[int, str]]  # name -> (cells, dtype)
    done: set[str] = field(default_factory=set)

    def segment(self, name: str, start: int, stop: int, writable: bool = False) -> np.memmap:
        """Cells start..stop of array ``name``, memory-mapped (only what is touched is read)."""
        cells, dtype = self.specs[name]
        if not 0 <= start <= stop <= cells:
            raise ValueError(f"segment {start}..{stop} outside {name} ({cells} cells)")
        path = self.directory / f"{name}.npy"
        header = _header_bytes(path)
        size = np.dtype(dtype).itemsize
        return np.memmap(path, dtype=dtype, mode="r+" if writable else "r", offset=header + start * size,
                         shape=(max(stop - start, 0),))

    @staticmethod
    def release(segments: list[np.memmap]) -> None:
        """Let the process's pages of ``segments`` go (their writes stay in the file's page cache, written back
        by the system): a solver whose steps touch cells all over a file maps it whole, and without this
        its resident memory grew to the file's size (Maxi Yatzy's breakdown, 5 GB) though each step needs a
        few pages of it. Nothing where the system has no ``madvise``."""
        for segment in segments:
            mapped = getattr(segment, "_mmap", None)
            if mapped is not None and hasattr(mmap, "MADV_DONTNEED"):
                mapped.madvise(mmap.MADV_DONTNEED)

    def checkpoint(self, step: str, written: list[np.memmap]) -> None:
        """Make ``written`` durable, then record ``step`` as done (in that order: a crash between the two
        only repeats the step)."""
        for segment in written:
            segment.flush()
        for name in self.specs:
            with open(self.directory / f"{name}.npy", "rb+") as fh:
                os.fsync(fh.fileno())
        self.done.add(step)
        _write_json(self.directory / PROGRESS, {"kind": self.key.kind, "fingerprint": self.key.fingerprint,
                                                "done": sorted(self.done)})


def needed_bytes(specs: dict[str, tuple[int, str]]) -> int:
    return sum(cells * np.dtype(dtype).itemsize for cells, dtype in specs.values())


def open_build(key: tables.TableKey, specs: dict[str, tuple[int, str]], restart: bool = False) -> InPlaceBuild:
    """The partial directory of ``key``: the one a killed build left (its steps kept), or a new one.

    Refuses at once, in one line, when the disk has not the room the table still needs."""
    final = key.directory
    partial = final.with_name(".partial-" + final.name)
    if restart or not _resumable(partial, key, specs):
        shutil.rmtree(partial, ignore_errors=True)
    if partial.exists():
        state = json.loads((partial / PROGRESS).read_text(encoding="utf-8"))
        build = InPlaceBuild(key, partial, specs, set(state["done"]))
    else:
        build = InPlaceBuild(key, partial, specs)
    allocated = sum(_allocated(partial / f"{name}.npy") for name in specs)
    still_needed = needed_bytes(specs) - allocated
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # built in place, on disk: a cache that cannot be written cannot hold it
        raise TableError(f"cannot write the table of {key.game} ({key.kind}) in {final.parent} "
                         f"({exc.strerror or exc}): set DICESOLVER_CACHE_DIR to a folder you can write") from None
    free = shutil.disk_usage(final.parent).free
    if still_needed > free:
        raise TableError(f"not enough disk space for the table of {key.game} ({key.kind}): it needs "
                         f"{_size(still_needed)} more in {final.parent}, which has {_size(free)} free")
    if not partial.exists():
        partial.mkdir(parents=True)
        for name, (cells, dtype) in specs.items():
            array = np.lib.format.open_memmap(partial / f"{name}.npy", mode="w+", dtype=dtype, shape=(cells,))
            array.flush()
            del array  # the file stays sparse: blocks are allocated as the steps write them
        _write_json(partial / PROGRESS, {"kind": key.kind, "fingerprint": key.fingerprint, "done": []})
    return build


def finish_build(build: InPlaceBuild, root_value: float, extra: dict[str, Any] | None = None) -> Path:
    """Checksum the arrays, write the manifest and move the table into place."""
    entries = {}
    for name, (cells, dtype) in build.specs.items():
        path = build.directory / f"{name}.npy"
        entries[name] = {"file": path.name, "shape": [cells], "dtype": str(np.dtype(dtype)),
                         "bytes": path.stat().st_size, "sha256": tables.sha256(path)}
    manifest = tables.make_manifest(build.key, root_value, entries, extra)
    (build.directory / PROGRESS).unlink()
    _write_json(build.directory / "manifest.json", manifest)
    final = build.key.directory
    if final.exists():
        shutil.rmtree(final)
    os.rename(build.directory, final)
    tables.fsync_dir(final.parent)
    return final


def run(key: tables.TableKey, specs: dict[str, tuple[int, str]],
        fill: Callable[[InPlaceBuild], tuple[float, dict[str, Any]]], restart: bool = False, reuse: bool = True
        ) -> Path:
    """Build a table in place under the table's lock: ``fill`` does the steps not yet done (checkpointing
    each) and returns the root value and extra manifest fields. ``reuse``: when another process finished
    the table while this one waited for the lock, keep it."""
    if not (reuse and (key.directory / "manifest.json").exists()):
        tables.may_build(key)
    with tables.lock(key):
        if reuse and (key.directory / "manifest.json").exists():
            return key.directory
        build = open_build(key, specs, restart)
        root, extra = fill(build)
        return finish_build(build, root, extra)


def _resumable(partial: Path, key: tables.TableKey, specs: dict[str, tuple[int, str]]) -> bool:
    try:
        state = json.loads((partial / PROGRESS).read_text(encoding="utf-8"))
        if state.get("kind") != key.kind or state.get("fingerprint") != key.fingerprint:
            return False
        for name, (cells, dtype) in specs.items():
            array = np.load(partial / f"{name}.npy", mmap_mode="r")
            if array.shape != (cells,) or array.dtype != np.dtype(dtype):
                return False
        return isinstance(state.get("done"), list)
    except (OSError, ValueError, TypeError, AttributeError):
        return False


def _header_bytes(path: Path) -> int:
    with open(path, "rb") as fh:
        version = np.lib.format.read_magic(fh)
        if version == (1, 0):
            np.lib.format.read_array_header_1_0(fh)
        else:
            np.lib.format.read_array_header_2_0(fh)
        return fh.tell()


def _allocated(path: Path) -> int:
    try:
        return path.stat().st_blocks * 512
    except OSError:
        return 0


def _write_json(path: Path, obj: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(obj, fh, indent=2)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _size(n: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"
