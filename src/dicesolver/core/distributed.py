"""Level sweeps on dask.distributed: a table built level by level, each level a set of block tasks.

A table that is solved backwards in levels (each level reading only the one above it) is split into
blocks. The blocks of one level are independent tasks on the cluster; the driver waits for all of them
(the barrier), copies them into the table being built in place (core/inplace.py) and checkpoints the
level. Every task is idempotent: it reads the finished level above, which is immutable and
content-addressed (``level-<name>-<sha256>.npy``), computes its block and writes it to its own file
under a temporary name, renamed into place only when complete. A task that runs again after its worker
died therefore rewrites exactly the same bytes, and a driver killed at any point resumes at the first
level not checkpointed.

The storage directory must be seen by every worker and by the driver under the same path: a local
directory for a ``local:N`` cluster, a shared file system for a cluster of machines (docs/DASK.md).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

import numpy as np

from .errors import InputError
from .extras import need

if TYPE_CHECKING:  # a build's type only: loading a table needs none of it
    from .inplace import InPlaceBuild

CLUSTER_HELP = "'local:N' (N worker processes on this machine) or 'tcp://HOST:PORT' (a running scheduler)"
ProgressCallback = Callable[[int, int], None]


@dataclass(frozen=True)
class Block:
    """Cells start..stop of the table, computed by one task from ``args``."""

    start: int
    stop: int
    args: tuple[Any, ...]


@dataclass(frozen=True)
class Level:
    """One level of the table (cells start..stop), solved from the level before it in the list."""

    name: str
    start: int
    stop: int
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Cluster:
    """Where a big solve runs: a LocalCluster of N worker processes, or a running scheduler; and the
    directory for the levels' blocks (needed for a cluster of machines: every worker must see it)."""

    text: str
    local_workers: int | None  # N for 'local:N'
    address: str | None  # the scheduler's address for 'tcp://...'
    storage: Path | None = None

    @property
    def is_local(self) -> bool:
        return self.local_workers is not None


def parse_cluster(text: str, storage: str | Path | None = None) -> Cluster:
    """'local:N' or 'tcp://HOST:PORT' (InputError for anything else); the dask extra is checked here, as the
    command line is read, before any kernel compiles."""
    need("dask", "distributed")
    text = text.strip()
    where = Path(storage).expanduser().resolve() if storage else None
    if m := re.fullmatch(r"local:(\d{1,3})", text):
        n = int(m.group(1))
        if not 1 <= n <= 256:
            raise InputError(f"--dask local:N takes 1 to 256 workers, not {n}")
        return Cluster(text, n, None, where)
    if re.fullmatch(r"tcp://[A-Za-z0-9.\-\[\]:]+:\d{1,5}", text):
        if where is None:
            raise InputError("a cluster of machines needs --dask-storage: a directory that every worker and this "
                             "machine see under the same path ('dicesolver docs dask')")
        return Cluster(text, None, text, where)
    raise InputError(f"--dask {text!r}: expected {CLUSTER_HELP}")


def refuse(cluster: Cluster | None, what: str) -> None:
    """InputError when a cluster is asked for a solve that runs on one machine."""
    if cluster is not None:
        raise InputError(f"--dask: {what} is solved on this machine; Dask solves the exact two-person tables "
                         f"of scorecard games (solve GAME --players 2 --judge exact --dask ...)")


@contextmanager
def connect(spec: Cluster, timeout: float = 20.0) -> Iterator[Any]:
    """A dask Client: on a LocalCluster started here (one thread per worker process), or on the scheduler."""
    need("dask", "distributed")
    from distributed import Client, LocalCluster

    if spec.is_local:
        with LocalCluster(n_workers=spec.local_workers, threads_per_worker=1, processes=True,
                          dashboard_address=":0") as cluster, Client(cluster) as client:
            yield client
    else:
        try:
            client = Client(spec.address, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            raise InputError(f"--dask {spec.address}: no scheduler answers there ({exc})") from None
        with client:
            yield client


def split(start: int, stop: int, weights: np.ndarray, most: int) -> list[tuple[int, int]]:
    """Consecutive index ranges of ``weights`` (start..stop) each weighing at most ``most`` (or one item)."""
    if start >= stop:
        return []
    bounds = [start]
    total = 0
    for i in range(start, stop):
        w = int(weights[i])
        if total and total + w > most:
            bounds.append(i)
            total = 0
        total += w
    bounds.append(stop)
    return list(zip(bounds[:-1], bounds[1:]))


def sweep(client: Any, build: InPlaceBuild, array: str, levels: Sequence[Level],
          task: Callable[..., np.ndarray], storage: Path, progress: ProgressCallback | None = None,
          threads: int | None = None, prefix: str = "level") -> None:
    """Solve every level of ``build``'s ``array`` not yet checkpointed, in order, on the cluster.

    ``task(*block.args, above, above_base)`` returns the block's cells; ``above`` is the previous level
    (memory-mapped, its first cell at table offset ``above_base``), or None for the first level. ``threads``:
    the kernels' threads per task (default: the worker machine's cores over the worker's task slots)."""
    from distributed import as_completed  # dask is imported only by a solve that asks for it (start-up)

    storage.mkdir(parents=True, exist_ok=True)
    total = sum(level.stop - level.start for level in levels)
    done = sum(level.stop - level.start for level in levels if f"level {level.name}" in build.done)
    if progress:
        progress(done, total)
    above: Level | None = None
    for level in levels:
        step = f"level {level.name}"
        if step not in build.done:
            above_file = _level_file(build, array, above, storage) if above else None
            blocks_dir = storage / f"blocks-{level.name}"
            blocks_dir.mkdir(exist_ok=True)
            paths = [blocks_dir / f"{b.start}-{b.stop}.npy" for b in level.blocks]
            futures = [client.submit(_run_block, task, b.args, above_file, above.start if above else 0, str(path),
                                     threads,
                                     key=f"{prefix}-{level.name}-{b.start}-{b.stop}", retries=2)
                       for b, path in zip(level.blocks, paths)]
            cells = {f.key: b.stop - b.start for f, b in zip(futures, level.blocks)}
            for future in as_completed(futures):
                future.result()  # a task that failed for good raises here
                done += cells[future.key]
                if progress:
                    progress(done, total)
            # the barrier: every block is on storage; copy them into the table and checkpoint the level
            out = build.segment(array, level.start, level.stop, writable=True)
            for b, path in zip(level.blocks, paths):
                out[b.start - level.start:b.stop - level.start] = np.load(path, mmap_mode="r")
            build.checkpoint(step, [out])
            del out
            shutil.rmtree(blocks_dir, ignore_errors=True)
            if above is not None:  # no level below this one reads it any more
                for stale in storage.glob(f"level-{above.name}-*.npy"):
                    stale.unlink()
        above = level


def _level_file(build: InPlaceBuild, array: str, level: Level, storage: Path) -> str:
    """The finished level's content-addressed file on storage (written from the table if not there yet)."""
    cells = build.segment(array, level.start, level.stop)
    h = hashlib.sha256()
    for i in range(0, cells.size, 1 << 24):  # 64 MB at a time
        h.update(np.ascontiguousarray(cells[i:i + (1 << 24)]).tobytes())
    digest = h.hexdigest()
    path = storage / f"level-{level.name}-{digest}.npy"
    if not path.exists():
        _save_atomically(path, cells)
    return str(path)


def _run_block(task: Callable[..., np.ndarray], args: tuple[Any, ...], above_file: str | None, above_base: int,
               out_path: str, threads: int | None) -> str:
    """On a worker: one block, written under a temporary name and renamed into place."""
    import numba
    from distributed import get_worker

    if threads is None:  # share the machine's cores among the worker's task slots
        threads = max(1, (os.cpu_count() or 1) // max(1, get_worker().state.nthreads))
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    above = np.load(above_file, mmap_mode="r") if above_file else None
    cells = task(*args, above, above_base)
    _save_atomically(Path(out_path), cells)
    return out_path


def _save_atomically(path: Path, cells: np.ndarray) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        with open(tmp, "wb") as fh:
            np.save(fh, np.asarray(cells))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
