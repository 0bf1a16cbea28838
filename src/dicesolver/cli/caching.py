"""Commands about what dicesolver keeps on disk: ``cache`` (list it, ``cache clear`` remove it) and
``warmup`` (solve and compile ahead of time, before a game night)."""

from __future__ import annotations

import time
from typing import List, Optional

import typer
from rich.table import Table
from rich.text import Text

from .base import GAME_HELP, JSON_HELP, app, emit, game_argument, lazy_module, out, progress

caches = lazy_module("dicesolver.core.caches")
registry = lazy_module("dicesolver.core.registry")
tables = lazy_module("dicesolver.core.tables")
kernel_cache = lazy_module("dicesolver.core.kernel_cache")

cache_app = typer.Typer(help="List what is cached (solved tables, compiled kernels), or clear it.",
                        invoke_without_command=True, no_args_is_help=False)
app.add_typer(cache_app, name="cache")


def mib(n: int) -> str:
    return f"{n / 2**20:,.1f} MiB" if n >= 2**20 else f"{n / 2**10:,.0f} KiB"


@cache_app.callback()
def cache(ctx: typer.Context, json_output: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """List the solved tables (by kind and game) and the compiled kernels, with their sizes and places.
    'dicesolver cache clear [GAME]' removes them."""
    if ctx.invoked_subcommand is not None:
        return
    found, kernels = caches.cached_tables(), caches.compiled_kernels()
    if json_output:
        emit({"tables_dir": str(tables.cache_dir()), "tables": [t.as_dict() for t in found],
              "kernels_dir": str(kernel_cache.cache_base()), "kernels": [k.as_dict() for k in kernels]})
        return
    table = Table(title=f"solved tables in {tables.cache_dir()}")
    for col in ("kind", "game", "size", "written"):
        table.add_column(col, justify="right" if col == "size" else "left")
    for t in found:
        table.add_row(t.kind, Text(t.game), mib(t.bytes), t.created[:16].replace("T", " ") if t.complete else
                      "unfinished")
    out.print(table if found else Text(f"no solved tables in {tables.cache_dir()}"))
    kt = Table(title=f"compiled kernels in {kernel_cache.cache_base()}")
    for col in ("folder", "kernels", "size", "version"):
        kt.add_column(col, justify="right" if col in ("kernels", "size") else "left")
    for k in kernels:
        kt.add_row(Text(k.path.rsplit("/", 1)[-1]), str(k.kernels), mib(k.bytes), "this one" if k.current else "other")
    out.print(kt if kernels else Text(f"no compiled kernels in {kernel_cache.cache_base()}"))
    total = sum(t.bytes for t in found) + sum(k.bytes for k in kernels)
    out.print(Text(f"{len(found)} tables and {sum(k.kernels for k in kernels)} compiled kernels: {mib(total)} in all"))


@cache_app.command("clear")
def cache_clear(
    game: Optional[str] = typer.Argument(None, help="only this game's tables (a bare name, such as 'yahtzee', "
                                         "also its variants'); by default every table and the compiled kernels"),
    kernels: bool = typer.Option(False, "--kernels", help="only the compiled kernels"),
) -> None:
    """Remove cached tables and compiled kernels (saved games and records are never touched). A table removed
    is solved again when next asked for; kernels removed are compiled again."""
    removed_tables, removed_kernels = [], []
    if not kernels:
        found = caches.cached_tables()
        if game is not None:
            g = registry.load(game)
            bare = "(" not in game and not game.endswith(".toml")
            found = [t for t in found if caches.belongs_to(t, g.canonical, bare)]
        for t in found:
            caches.remove_table(t)
            removed_tables.append(t)
    if kernels or game is None:
        for k in caches.compiled_kernels():
            caches.remove_kernels(k)
            removed_kernels.append(k)
    freed = sum(t.bytes for t in removed_tables) + sum(k.bytes for k in removed_kernels)
    out.print(Text(f"removed {len(removed_tables)} tables and {len(removed_kernels)} folders of compiled kernels "
                   f"({mib(freed)})"))


@app.command()
def warmup(
    games: Optional[List[str]] = game_argument(None, help="the games to prepare (default: yahtzee); " + GAME_HELP),
    single: bool = typer.Option(False, "--single", help="only the kernels that answer one position at a time "
                                "(what a program asking position after position needs; a fraction of the time)"),
    json_output: bool = typer.Option(False, "--json", help="each game prepared and its seconds, as JSON"),
) -> None:
    """Solve games and compile their kernels now, so that the first question of a game night is answered at
    once: each game's table is solved (or found cached), then the kernels that answer its positions, one at
    a time and in batches, are compiled (or loaded)."""
    ready = []
    for spec in games or ["yahtzee"]:
        began = time.perf_counter()
        g = registry.load(spec)
        with progress(f"{g.canonical}: solving (once; cached)") as update:
            solution = registry.solve(g, progress=update)
        with progress(f"{g.canonical}: compiling the kernels that answer its positions (once per install)"):
            solution.warm_up(single)
        ready.append({"game": g.canonical, "seconds": round(time.perf_counter() - began, 3)})
        if not json_output:
            out.print(Text(f"{g.canonical}: ready ({ready[-1]['seconds']:.1f} s)"))
    if json_output:
        emit(ready)
