"""Where the compiled kernels live, without importing numba: the command line asks whether any kernel was
ever compiled here, to say so while a first run compiles them (``core.jit`` keeps the cache itself)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

ENV_KERNEL_CACHE = "DICESOLVER_KERNEL_CACHE"
PREFIX = "dicesolver-"


def cache_base() -> Path:
    """``$DICESOLVER_KERNEL_CACHE``, else numba's ``$NUMBA_CACHE_DIR``, else the user cache directory."""
    for var in (ENV_KERNEL_CACHE, "NUMBA_CACHE_DIR"):
        if os.environ.get(var):
            return Path(os.environ[var]).expanduser()
    return Path(platformdirs.user_cache_dir("dicesolver")) / "kernels"


def never_compiled(base: Path | None = None) -> bool:
    """True when no kernel of any version was ever compiled into the cache: a first run compiles them."""
    base = base or cache_base()
    try:
        return not any(next(d.rglob("*.nbi"), None) for d in base.glob(f"{PREFIX}*") if d.is_dir())
    except OSError:
        return False
