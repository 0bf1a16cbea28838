"""The optional parts of the package (pyproject's extras): a command that needs one stops with one line that
names what to install, never a traceback."""

from __future__ import annotations

import importlib.util

from .errors import DicesolverError

EXTRAS = {"plot": "drawing figures (--plot)", "web": "the web app (dicesolver serve)",
          "rl": "the learning environments (dicesolver.rl)", "dask": "solving on a dask cluster (--dask)",
          "parquet": "Parquet files (label --out FILE.parquet)", "notebook": "tables as DataFrames (to_pandas)"}


class MissingExtra(DicesolverError):
    """An optional dependency is not installed: the message says which extra brings it."""


def _found(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or an import hook refusing it
        return False


def need(extra: str, *modules: str) -> None:
    """Stop with MissingExtra unless every one of ``modules`` can be imported (found, not imported: cheap)."""
    missing = [m for m in modules if not _found(m)]
    if missing:
        names = missing[0] if len(missing) == 1 else f"{', '.join(missing[:-1])} and {missing[-1]}"
        verb = "is" if len(missing) == 1 else "are"
        raise MissingExtra(f"{EXTRAS[extra]} needs {names}, which {verb} not installed: "
                           f"pip install 'dicesolver[{extra}]'")
