"""Labelled situations written to a file (``dicesolver label``): Parquet (columns of arrays, written with
pyarrow, the optional extra ``parquet``) or JSON Lines (one object per situation). The layout is in
docs/SCHEMA.md. A file is written under a temporary name and renamed when complete: an interrupted run
(a kill, a full disk) leaves no half-written dataset behind."""

from __future__ import annotations

import json
import os
from collections import deque
from pathlib import Path
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Iterable, Iterator

import numpy as np

from .. import __version__
from ..core.errors import InputError
from ..core.solved import SolvedGame
from . import labels
from ..core.extras import need
from .labels import Chunk

if TYPE_CHECKING:
    import pyarrow as pa

FORMATS = {".parquet": "parquet", ".jsonl": "jsonl"}
WRITES_AHEAD = 3  # chunks handed to the writer's thread before the sampling waits for the first of them
FLUSH_BYTES = 64 << 20  # a written file's pages sent to disk as it grows, every this many bytes


STDOUT = "-"  # --out -: JSON Lines on standard output


def format_of(path: str | Path) -> str:
    if str(path) == STDOUT:
        return "jsonl"
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"{path}: the output is a .parquet or a .jsonl file")
    if FORMATS[suffix] == "parquet":
        need("parquet", "pyarrow")  # or write .jsonl
    return FORMATS[suffix]


def metadata(solution: SolvedGame, source: str, perturb: float, seed: int) -> dict[str, Any]:
    """What every file says about its rows: the game, the judge, how the games were sampled, and what the
    codes and arrays mean."""
    encoding = solution.encoding
    return {"game": solution.game.canonical, "players": solution.game.n_players, "judge": solution.judge,
            "unit": solution.unit, "higher_is_better": solution.higher_is_better, "source": source,
            "perturb": perturb if source == "perturbed" else None, "seed": seed, "dicesolver": __version__,
            "actions": encoding.action_labels(),
            "situation": {k: {"shape": list(v.shape), "low": v.low, "high": v.high, "about": v.about}
                          for k, v in encoding.situation_spec().items()}}


def warm_up(solution: SolvedGame, n: int, source: str, perturb: float, kind: str) -> None:
    """Run the first step of a run of ``n`` rows, written nowhere: numba's kernels are loaded from their
    cache and pyarrow imported (0.3-0.5 s for Yahtzee), so that ``label`` times its rows, not that
    loading, as it does not time the table's."""
    chunk = next(iter(labels.sample(solution, n, source, perturb)))
    if kind == "parquet":
        _table(chunk)
    else:
        from .label_jsonl import LineLayout

        LineLayout(metadata(solution, source, perturb, 0)).text(chunk)


def write(path: str | Path, solution: SolvedGame, chunks: Iterable[Chunk], about: dict[str, Any],
          progress: Callable[[int], None] | None = None) -> int:
    """Write every chunk to ``path`` (its format by its suffix); the number of rows written."""
    path = Path(path)
    kind = format_of(path)
    if path.is_dir():
        raise InputError(f"{path} is a directory")
    if not path.parent.exists():
        raise InputError(f"no such directory: {path.parent}")
    tmp = path.with_name(path.name + ".tmp")
    try:
        rows = (_parquet if kind == "parquet" else _jsonl)(tmp, solution, chunks, about, progress)
        with open(tmp, "rb") as fh:  # on disk before it takes the dataset's name
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise InputError(f"could not write {path}: {exc.strerror or exc}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return rows


def stream(fh: BinaryIO, solution: SolvedGame, chunks: Iterable[Chunk], about: dict[str, Any],
           progress: Callable[[int], None] | None = None) -> int:
    """JSON Lines written to an open stream as they are made (``--out -``: to a pipe); the rows written."""
    from .label_jsonl import LineLayout

    layout = LineLayout(about)

    def write(chunk: Chunk) -> None:
        fh.write(layout.text(chunk).data)
        fh.flush()

    return _on_the_writers_thread(chunks, write, progress)


def _parquet(path: Path, solution: SolvedGame, chunks: Iterable[Chunk], about: dict[str, Any],
             progress: Callable[[int], None] | None) -> int:
    """Each chunk becomes a row group, laid out, encoded and written on the writer's thread
    (``_on_the_writers_thread``)."""
    import pyarrow.parquet as pq

    writer: pq.ParquetWriter | None = None
    flush = _Flush(path)

    def write(chunk: Chunk) -> None:
        nonlocal writer
        table = _table(chunk)
        if writer is None:
            schema = table.schema.with_metadata({"dicesolver": json.dumps(about)})
            # dictionaries cost more time than they save here
            writer = pq.ParquetWriter(str(path), schema, use_dictionary=False, write_statistics=False,
                                      compression=_compression(schema))
        writer.write_table(table.replace_schema_metadata(writer.schema.metadata))
        flush()

    try:
        return _on_the_writers_thread(chunks, write, progress)
    finally:
        if writer is not None:
            writer.close()
        flush.close()


def _jsonl(path: Path, solution: SolvedGame, chunks: Iterable[Chunk], about: dict[str, Any],
           progress: Callable[[int], None] | None) -> int:
    """Each chunk's lines laid out (``label_jsonl``) and written on the writer's thread
    (``_on_the_writers_thread``)."""
    from .label_jsonl import LineLayout

    layout = LineLayout(about)
    flush = _Flush(path)
    with open(path, "wb") as fh:
        def write(chunk: Chunk) -> None:
            fh.write(layout.text(chunk).data)
            fh.flush()
            flush()

        try:
            return _on_the_writers_thread(chunks, write, progress)
        finally:
            flush.close()


def _on_the_writers_thread(chunks: Iterable[Chunk], write: Callable[[Chunk], None],
                           progress: Callable[[int], None] | None) -> int:
    """Hand each chunk to ``write`` on a thread of its own while the next chunks are sampled (the kernels,
    numpy, pyarrow and file writes let go of the GIL for most of their work); the rows handed over. The
    sampling runs up to WRITES_AHEAD chunks ahead: the answer kernel holds the GIL for a whole step, so
    the writer sometimes waits for it, and with one chunk ahead the sampling then waited for the writer
    (0.4 s of 5.4 for 2,000,000 Parquet rows; 0.06 s with three). Once a write fails, the chunks queued
    behind it are not written, and its error is raised here."""
    failed = False

    def guarded(chunk: Chunk) -> None:
        nonlocal failed
        if failed:
            return
        try:
            write(chunk)
        except BaseException:
            failed = True
            raise

    rows = 0
    pending: deque[Future[None]] = deque()
    with ThreadPoolExecutor(1, thread_name_prefix="label-writer") as pool, _a_core_for_the_writer():
        try:
            for chunk in chunks:
                if len(pending) == WRITES_AHEAD:
                    pending.popleft().result()  # memory stays WRITES_AHEAD + 1 chunks
                pending.append(pool.submit(guarded, chunk))
                rows += len(chunk)
                if progress:
                    progress(rows)
            while pending:
                pending.popleft().result()
        finally:
            wait(pending)  # never close the file under a write
    return rows


class _Flush:
    """Sends a file's pages to disk as it grows (every FLUSH_BYTES, on the writer's thread, while the next
    chunk is sampled), so that the fsync before it takes its name has only the last ones left: 0.3 s of a
    2,000,000-row Parquet file, with both cores idle, was spent there."""

    def __init__(self, path: Path):
        self.path, self.fd, self.flushed = path, -1, 0

    def __call__(self) -> None:
        try:
            if self.fd < 0:
                self.fd = os.open(self.path, os.O_RDONLY)  # the same file's pages, whoever wrote them
            size = os.fstat(self.fd).st_size
            if size - self.flushed >= FLUSH_BYTES:
                getattr(os, "fdatasync", os.fsync)(self.fd)
                self.flushed = size
        except OSError:  # an early flush is only a head start: the fsync at the end says what went wrong
            pass

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


@contextmanager
def _a_core_for_the_writer() -> Iterator[None]:
    """The sampling's parallel kernels on one thread fewer meanwhile (at least one), leaving the writer a
    core: sharing one, the kernels' threads waited on each other and spun (libgomp) while the writer ran,
    a fifth more CPU for the same rows."""
    import numba

    threads = numba.get_num_threads()
    numba.set_num_threads(max(1, threads - 1))
    try:
        yield
    finally:
        numba.set_num_threads(threads)


UNCOMPRESSED = ("values", "costs")  # the options' floats: snappy took 0.25 s a million rows to save 15% of them


def _compression(schema: pa.Schema) -> dict[str, str]:
    """Each column's codec, by its path in the file: snappy, but none for the options' values and costs."""
    import pyarrow as pa

    def path(field: pa.Field) -> str:
        nested = pa.types.is_list(field.type) or pa.types.is_fixed_size_list(field.type)
        return f"{field.name}.list.element" if nested else field.name

    return {path(f): "none" if f.name in UNCOMPRESSED else "snappy" for f in schema}


def _table(chunk: Chunk) -> pa.Table:
    """A chunk's columns, every field and list item declared required (parquet then writes no definition
    levels for them: a third less time for the option lists), the options as lists without their padding."""
    import pyarrow as pa

    from .kernels import unpad

    def column(values: np.ndarray, kind: pa.DataType) -> pa.Array:
        return pa.array(values.astype(kind.to_pandas_dtype(), copy=False), kind)

    def lists(kind: pa.DataType, size: int = -1) -> pa.DataType:
        return pa.list_(pa.field("item", kind, nullable=False), size)

    a = chunk.answers
    columns = {"index": column(chunk.game, pa.int64()), "decision": column(chunk.decision, pa.int32()),
               "player": column(chunk.player, pa.int8())}
    if chunk.positions is not None:
        columns["position"] = pa.array(chunk.positions, pa.string())
    for key, value in chunk.situations.items():
        if value.ndim > 1:
            flat = value.reshape(value.shape[0], -1)
            columns[key] = pa.FixedSizeListArray.from_arrays(column(flat.reshape(-1), pa.int32()),
                                                             type=lists(pa.int32(), flat.shape[1]))
        else:
            columns[key] = column(value, pa.int32())
    rows = chunk.answer_rows()
    columns["value"] = column(a.value[rows], pa.float64())
    offsets, *options = unpad(*a.buffers, a.width, rows)
    starts = pa.array(offsets)
    for name, items in zip(("codes", "values", "costs"), options):
        flat = pa.array(items)
        columns[name] = pa.ListArray.from_arrays(starts, flat, type=lists(flat.type))
    return pa.Table.from_arrays(list(columns.values()),
                                schema=pa.schema([pa.field(k, v.type, nullable=False) for k, v in columns.items()]))
