"""Where the compiled kernels live, without importing numba: the command line asks whether any kernel was
ever compiled here, to say so while a first run compiles them (``core.jit`` keeps the cache itself)."""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Iterable

import platformdirs

ENV_KERNEL_CACHE = "DICESOLVER_KERNEL_CACHE"
PREFIX = "dicesolver-"
PACKAGE = Path(__file__).resolve().parent.parent


def kernel_sources(package: Path = PACKAGE) -> list[Path]:
    """Every kernel module of the package, at any depth: ``kernels.py`` and ``kernels/*.py`` (a family's, or
    one of its judges': ``scorecard/duel/kernels/``), ``core/jit.py``, and the modules that define the named
    tuples kernels are handed (``core/arrays.py``'s dice graph, ``kernel_rules.py``'s rules): a compiled
    kernel holds their fields' layout."""
    found = {p for p in package.rglob("*.py") if p.name == "kernels.py" or p.parent.name == "kernels"}
    found |= set(package.rglob("kernel_rules.py"))
    return sorted(found | {package / "core" / "jit.py", package / "core" / "arrays.py"})


def source_hash(paths: Iterable[Path]) -> str:
    """What names a version of the kernels: numba's and Python's versions and every kernel source."""
    h = hashlib.sha256(f"numba {metadata.version('numba')} python {sys.version_info[:2]}".encode())
    for path in sorted(Path(p) for p in paths):
        h.update("/".join(path.parts[-2:]).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def kernel_cache_dir(paths: Iterable[Path], base: Path | None = None) -> Path:
    return (base or cache_base()) / f"{PREFIX}{source_hash(paths)}"


def current_dir(base: Path | None = None) -> Path:
    """The folder of this version's compiled kernels."""
    return kernel_cache_dir(kernel_sources(), base)


def cache_base() -> Path:
    """``$DICESOLVER_KERNEL_CACHE``, else numba's ``$NUMBA_CACHE_DIR``, else the user cache directory."""
    for var in (ENV_KERNEL_CACHE, "NUMBA_CACHE_DIR"):
        if os.environ.get(var):
            return Path(os.environ[var]).expanduser()
    return Path(platformdirs.user_cache_dir("dicesolver")) / "kernels"


def never_compiled(base: Path | None = None) -> bool:
    """True when no kernel of any version was ever compiled into the cache (or, by default, the private
    temporary one that stands in for a cache that cannot be written): a first run compiles them."""
    bases = [base] if base else [cache_base(), _private_temp_path()]
    try:
        return not any(next(d.rglob("*.nbi"), None) for b in bases for d in b.glob(f"{PREFIX}*") if d.is_dir())
    except OSError:
        return False


def writable(folder: Path) -> bool:
    """Whether files can be made in ``folder`` (made first if it is missing)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _private_temp_path() -> Path:
    getuid = getattr(os, "getuid", None)
    return Path(tempfile.gettempdir()) / (f"dicesolver-kernels-{getuid()}" if getuid else "dicesolver-kernels")


def private_temp_base() -> Path | None:
    """A kernel cache of this user's own in the temporary folder, for when the usual one cannot be written:
    used only if it is a real folder this user owns that nobody else may write (numba's cache files are
    pickles: a folder another user could write to could hand this process code to run)."""
    folder = _private_temp_path()
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # Windows: the temporary folder is the user's own already
        return folder if writable(folder) else None
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != getuid() or info.st_mode & 0o022:
        return None
    return folder if writable(folder) else None


def kernels_kept() -> bool:
    """Whether kernels compiled now are kept for the next process (a cache folder, or the private temporary
    one, can be written)."""
    return writable(cache_base()) or private_temp_base() is not None
