"""Numba for the kernels, with an on-disk cache that can never serve stale machine code.

numba's ``cache=True`` keys a cached function by its own source file only: when a kernel calls a helper
from another module and the helper changes, the caller's cached code still has the old helper inlined.
So every kernel module takes ``njit`` from here, and importing this module first points numba's cache
at a directory named after a hash of *every* kernel source of the package (and numba's and Python's
versions): any edit to any kernel starts a fresh cache, and nothing compiled from other sources is
ever loaded.

A kernel calling a helper that is not inlined passes ``np.int64(0)`` rather than ``0``, and
``np.int64(i)`` rather than a ``prange`` index: numba compiles the helper anew for each argument type it
sees, and a literal ``0`` (``Literal[int](0)``) or the unsigned index of a parallel loop's body would each
add a compilation of the same code (the match kernel's game was compiled four times in the test suite).
Tables reach a kernel read-only (``core.arrays.frozen``) and float32 or float64 alike as a pair
(``scorecard.turn.engine.table_pair``), for the same reason.

A kernel copies an array into a slice element by element, never ``a[m] = b``: numba compiles the shape-mismatch
message of a slice assignment from an array, with the string formatting it needs, for each kernel that has one
(0.3-5 s a kernel on a fresh install; ``scripts/compile_report.py`` names any that do). The same goes for the
inlined helpers: each inlined copy of a long helper is compiled again, so a kernel calls the rare paths
(``bots.kernels.random_category``, ``scoring.yacht_again``) and inlines only what its inner loops need.

A kernel whose helpers pass many arrays around per situation takes ``borrowed`` views of its arguments:
numba's atomic reference counts on each array a variable holds were a third of the answer kernels' time.

A kernel whose whole body is one loop over independent items runs that loop in Python's threads (``Stripes``:
a ``nogil`` kernel called once a thread on every n-th item: the solve, ``simulate_games``, the batch answers,
the policy table, the target player, the two-person solve, Despirala's matches):
numba's parfor costs 2-12 s of compilation per kernel even for a loop of one call. Such a kernel whose
loop holds its body (not a call) borrows its array arguments and makes its scratch once, before the loop:
parfor did both on its own (its body got the arrays uncounted, and it hoisted allocations out of the loop),
and without them the policy table's games ran 10% slower (those games, ``play_policy``, stay in ``prange``:
the 10-million-game command was no faster with threads, on a noisy hour). A parallel loop that stays
(``prange``) calls a helper (``step_envs``, ``answer_range``, ...) instead of holding the body itself: numba's
parfor passes over a long body cost 8-18 s of compilation per kernel. A call passes every array whole
(about forty of them cost 180 ns), so a helper whose work is short takes a block of iterations
(``step_envs``: 64 environments' steps, 70 ns each). The helper borrows its array arguments first thing:
counted, every thread's atomic adds on the same shared counts made the batch environment's step four times
slower.

The cache lives under ``$DICESOLVER_KERNEL_CACHE`` (or numba's own ``$NUMBA_CACHE_DIR``), else under the
user cache directory, so ``make`` and a direct ``dicesolver`` command share one cache. Where that cannot be
written (a read-only home, a shared machine), the kernels go to a private folder of the user's in the
temporary folder, and failing that are compiled in memory for the process (``CACHE_DIR`` is None); either
way one ``CacheWarning`` names the variable to set. The few newest
hash directories are kept; older ones are removed. Inside one, a module's kernels are filed by the module's
place in the package, not by the absolute path of its file (numba's own way, ``KernelCacheLocator``): a
fresh clone or a reinstall of the same kernel sources, anywhere on the machine, loads what was compiled. A
compile into it holds a lock named by the kernel and its signature (``compiled_in_turn``): processes that
need the same kernel at once compile it once.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import shutil
import subprocess
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import numba
from numba.core import caching, cgutils, sigutils
from numba.core.compiler_lock import global_compiler_lock
from numba.extending import intrinsic
from numba import prange

from .errors import CacheWarning
from .kernel_cache import ENV_KERNEL_CACHE, PACKAGE, PREFIX, kernel_cache_dir, kernel_sources, private_temp_base, writable

__all__ = ["njit", "prange", "borrowed", "KernelCacheLocator", "load_registries_without_blas_probe", "kernel_sources",
           "kernel_cache_dir", "use_kernel_cache", "thread_count", "Stripes", "shared_stripes", "compiled",
           "log_compiles", "compiled_in_turn", "compile_lock_path", "compile_elsewhere"]

KEEP_CACHES = 4  # hash directories kept (several versions of the package may share one cache)
COMPILE_WAIT = 600.0  # seconds a process waits for another's compile of the same kernel before its own


def use_kernel_cache(paths: Iterable[Path], base: Path | None = None) -> Path | None:
    """Point numba's cache at the directory of these sources (before their kernels are decorated): the one
    under ``base`` (by default the configured cache), else a private temporary one; None, with kernels
    compiled in memory, when neither can be written."""
    wanted = kernel_cache_dir(paths, base)
    directory: Path | None = wanted
    if not writable(wanted):
        fallback = private_temp_base()
        directory = kernel_cache_dir(paths, fallback) if fallback is not None else None
        if directory is not None and not writable(directory):
            directory = None
        kept = f"compiled into {directory}" if directory else "compiled in memory, again in each process"
        warnings.warn(f"the kernel cache {wanted.parent} cannot be written: kernels are {kept} (set "
                      f"{ENV_KERNEL_CACHE} to a folder you can write to keep them)", CacheWarning, stacklevel=2)
    if directory is not None:
        numba.config.CACHE_DIR = str(directory)
        _prune(directory)
    return directory


def _prune(current: Path) -> None:
    """Remove all but the newest few hash directories beside ``current`` (best effort)."""
    with contextlib.suppress(OSError):
        current.mkdir(parents=True, exist_ok=True)
        os.utime(current)
        siblings = [p for p in current.parent.glob(f"{PREFIX}*") if p.is_dir() and p != current]
        siblings.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for old in siblings[KEEP_CACHES - 1:]:
            shutil.rmtree(old, ignore_errors=True)


# numba 0.68 names these without the underscore its older versions (the floor, 0.59) have
_CACHE_IMPL: Any = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
_USER_LOCATOR: Any = (getattr(caching, "UserProvidedCacheLocator", None)
                      or getattr(caching, "_UserProvidedCacheLocator"))


class KernelCacheLocator(_USER_LOCATOR):
    """numba's cache locator for the package's own kernels: ``<cache dir>/dicesolver_<subpackage>_...`` rather
    than a folder named by a hash of the module's absolute path, and a source stamp that is the module's
    content rather than its time. The cache directory is already named by the content of every kernel source,
    so the same sources find the same compiled kernels wherever they are installed or cloned."""

    def __init__(self, py_func: Any, py_file: str):
        super().__init__(py_func, py_file)
        place = Path(py_file).resolve().parent.relative_to(PACKAGE.parent)
        self._cache_path = os.path.join(numba.config.CACHE_DIR, "_".join(place.parts))

    def get_source_stamp(self) -> str:
        return hashlib.sha256(Path(self._py_file).read_bytes()).hexdigest()

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if not Path(py_file).resolve().is_relative_to(PACKAGE):
            return None  # another package's function: numba's own locators
        return super().from_function(py_func, py_file)


if KernelCacheLocator not in _CACHE_IMPL._locator_classes:
    _CACHE_IMPL._locator_classes.insert(0, KernelCacheLocator)

CACHE_DIR = use_kernel_cache(kernel_sources())


def njit(*args: Any, **options: Any) -> Any:
    """numba's ``njit``, each of whose compiles into the kernel cache is made by one process at a time
    (``compiled_in_turn``); with no cache to write, compiled in memory."""
    if CACHE_DIR is None:
        options["cache"] = False
    made = numba.njit(*args, **options)
    if isinstance(made, numba.core.dispatcher.Dispatcher):
        return compiled_in_turn(made)
    return lambda func: compiled_in_turn(made(func))


def compiled_in_turn(kernel: Any) -> Any:
    """A cached kernel whose compile for a signature holds a lock across processes: a second process that
    needs the same kernel meanwhile waits, then loads what the first wrote to the cache. Two test workers,
    or two processes of a server, otherwise each compiled the same kernels at once on a first run, each at
    half speed (``answer_mindful``: 7.5 s of CPU twice in every cold test suite).

    The lock is taken inside numba's own compiler lock, so that a process's threads take every lock in one
    order: a kernel's, then those of the kernels it calls (compiled while it is typed)."""
    if isinstance(getattr(kernel, "_cache", None), caching.NullCache):
        return kernel  # not cached: nothing to share
    compile_here = kernel.compile
    name = f"{kernel.py_func.__module__}.{kernel.py_func.__qualname__}"

    def compile(sig: Any) -> Any:
        args, _ = sigutils.normalize_signature(sig)
        if not kernel._can_compile or tuple(args) in kernel.overloads:
            return compile_here(sig)
        with global_compiler_lock, _compile_lock(name, str(tuple(args))):
            return compile_here(sig)  # loads from the cache what another process compiled meanwhile

    kernel.compile = compile
    return kernel


def compile_lock_path(kernel: str, signature: str, cache_dir: Path | None = None) -> Path:
    """The file a compile of ``kernel`` (its module and name) for ``signature`` (its argument types) locks, in
    ``cache_dir`` (by default numba's, this version's)."""
    digest = hashlib.sha256(signature.encode()).hexdigest()[:16]
    return Path(cache_dir or numba.config.CACHE_DIR) / "locks" / f"{kernel}-{digest}.lock"


@contextlib.contextmanager
def _compile_lock(kernel: str, signature: str) -> Iterator[None]:
    from filelock import FileLock, Timeout

    path = compile_lock_path(kernel, signature)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(path, timeout=COMPILE_WAIT)
        lock.acquire()
    except (OSError, Timeout):  # a cache we cannot write, or a compile that never ends: compile here
        yield
        return
    try:
        yield
    finally:
        lock.release()


def load_registries_without_blas_probe() -> None:
    """Load numba's CPU registries now, with its BLAS probe answered "no".

    The first call of any compiled function loads numba's array registry, which imports scipy.linalg
    when scipy is installed, only to learn whether BLAS is there: 90 ms, a tenth of a whole
    ``dicesolver solve yahtzee``. No kernel uses BLAS (the probe only picks np.convolve's inner
    product), so the one module the probe imports is hidden while the registries load. numba's
    np.dot and np.linalg import scipy themselves when compiled, and scipy is untouched afterwards.
    """
    from numba.core.registry import cpu_target

    probe = "scipy.linalg.cython_blas"
    if probe in sys.modules:  # scipy's BLAS is loaded already: nothing to save
        cpu_target.target_context.refresh()
        return
    sys.modules[probe] = None  # type: ignore[assignment]  # an import of it raises ImportError
    try:
        cpu_target.target_context.refresh()
    finally:
        if sys.modules.get(probe, 0) is None:
            del sys.modules[probe]


load_registries_without_blas_probe()


@intrinsic
def borrowed(typingctx, array):
    """The same array, not reference-counted: a kernel's own view of an argument or of a part of one, for
    the length of the call that holds the argument.

    numba counts references to every array a variable holds, with an atomic add and subtract on the
    owner's count, and its pruning of the pairs does not see through loops and branches: the answer
    kernels, whose helpers unpack a model of twenty arrays for every option of every situation, spent a
    third of their time on those counts. A view with no owner (no meminfo) costs nothing to count. It must
    not outlive the call whose arguments own its memory: never return it or store it."""
    def codegen(context, builder, signature, args):
        view = context.make_array(signature.args[0])(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen


def compiled(kernel: Any) -> bool:
    """Whether a kernel answers without compiling: compiled in this process, or found in the kernel cache
    (its index holds an entry for the kernel's current source)."""
    if kernel.signatures:
        return True
    try:
        return bool(kernel._cache._cache_file._load_index())
    except (AttributeError, OSError, EOFError, ValueError, pickle.UnpicklingError):
        return False


ENV_BACKGROUND = "DICESOLVER_COMPILE_IN_BACKGROUND"  # "0": a process answering in numpy starts no compile


def compile_elsewhere(game: str) -> subprocess.Popen | None:
    """Start ``dicesolver warmup --single GAME`` in a process of its own, in the background, to compile the kernels that
    answer ``game``'s positions into the kernel cache, where this process finds them (``NumpyFirst``). Nothing
    is started where no cache keeps kernels, or where $DICESOLVER_COMPILE_IN_BACKGROUND is 0."""
    if CACHE_DIR is None or os.environ.get(ENV_BACKGROUND, "1") == "0":
        return None
    try:
        return subprocess.Popen([sys.executable, "-m", "dicesolver", "--quiet", "warmup", "--single", game],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
    except OSError:  # no process to spare: the numpy form goes on answering
        return None


def log_compiles(path: str | Path, context: Callable[[], dict[str, Any]] = dict) -> None:
    """Append a JSON line to ``path`` for every compile numba makes in this process from now on: the
    kernel, its signature, the seconds it took, when it ended (``time.perf_counter``) and ``context()``'s
    fields (where a first use or a cold test suite spends its time: ``scripts/compile_report.py``)."""
    import json
    import time

    from numba.core import event

    class Listener(event.Listener):
        def __init__(self) -> None:
            self.started: dict[tuple[int, str], float] = {}

        def on_start(self, ev: Any) -> None:
            self.started[id(ev.data["dispatcher"]), str(ev.data["args"])] = time.perf_counter()

        def on_end(self, ev: Any) -> None:
            d, args = ev.data["dispatcher"], str(ev.data["args"])
            now = time.perf_counter()
            took = now - self.started.pop((id(d), args), now)
            row = {"kernel": f"{d.py_func.__module__}.{d.py_func.__qualname__}", "signature": args,
                   "seconds": round(took, 3), "ended": round(now, 3), **context()}
            with open(path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")

    event.register("numba:compile", Listener())


def thread_count() -> int:
    """The threads a kernel may use: numba's setting (``NUMBA_NUM_THREADS``, or ``numba.set_num_threads``
    once its threading layer runs), read without starting that layer (a first solve need not load it)."""
    from numba.np.ufunc import parallel

    if parallel._is_initialized:
        return int(numba.get_num_threads())
    return int(numba.config.NUMBA_NUM_THREADS)


class Stripes:
    """Python threads that run a ``nogil`` kernel on every n-th item of a level: ``run(call)`` calls
    ``call(s, n)`` for s in 0..n-1, one a thread, and returns when all are done.

    Used where a kernel's whole body is one parallel loop: numba's ``prange`` compiles that loop's parfor
    (6-12 s for the solitaire solve) where a call from Python's threads costs 50 µs a level."""

    def __init__(self, threads: int | None = None):
        self.n = max(1, threads if threads is not None else thread_count())
        self._pool = ThreadPoolExecutor(self.n - 1) if self.n > 1 else None

    def run(self, call: Callable[[int, int], object]) -> None:
        if self._pool is None:
            call(0, 1)
            return
        futures = [self._pool.submit(call, s, self.n) for s in range(1, self.n)]
        call(0, self.n)  # the calling thread takes the first stripe
        for f in futures:
            f.result()

    def each(self, kernel: Callable[..., object], *args: Any) -> None:
        """``kernel(stripe, n_stripes, *args)`` on every thread (a kernel that takes its part of the items)."""
        self.run(lambda stripe, n_stripes: kernel(stripe, n_stripes, *args))

    def __enter__(self) -> Stripes:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown()


_SHARED: dict[int, Stripes] = {}


def shared_stripes() -> Stripes:
    """One ``Stripes`` kept for the process, of ``thread_count()`` threads, for calls too short to start
    threads of their own (a batch of answers). Callers on several threads share it safely: a stripe never
    waits for another."""
    n = thread_count()
    stripes = _SHARED.get(n)
    if stripes is None:
        stripes = _SHARED.setdefault(n, Stripes(n))
    return stripes
