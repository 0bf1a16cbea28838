"""What every command shares: the Typer app they register on, the consoles, JSON output, warnings and the
progress bar.

The command modules import the library (numpy, pydantic, the registry) lazily, with ``lazy_module``: a
command line waits only for what its command uses, and ``dicesolver --help`` for none of it."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import sys
from types import ModuleType
from typing import Any, Callable, Iterator

import typer
from rich.console import Console
from rich.text import Text

app = typer.Typer(
    help="Optimal strategies for dice games: solve, advise, play, analyze, compare.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

GAME_HELP = ("a game: a name with optional variants, e.g. 'yahtzee(joker=free)', 'skunk(goal=50)', 'despirala', "
             "or a .toml rules file (see 'dicesolver games')")
JSON_HELP = "print JSON (the models of 'dicesolver schema')"


def lazy_module(name: str) -> ModuleType:
    """The module ``name``, executed when one of its attributes is first read (importlib's LazyLoader)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module named {name!r}")
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


def emit(obj: Any) -> None:
    """Print a result (a model, or a list or dict of them) as JSON."""
    def plain(x: Any) -> Any:
        if hasattr(x, "model_dump"):  # a pydantic model (pydantic itself is imported by the results)
            return x.model_dump(mode="json")
        if isinstance(x, (list, tuple)):
            return [plain(v) for v in x]
        if isinstance(x, dict):
            return {k: plain(v) for k, v in x.items()}
        return x

    print(json.dumps(plain(obj), indent=2))


def warn(message: str) -> None:
    err.print(Text.assemble(("warning: ", "yellow"), message), soft_wrap=True)  # one line, paths unbroken


@contextlib.contextmanager
def progress(label: str, quiet: bool = False) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on the terminal (none when quiet or not a terminal) and its (done, total) callback.

    Until the first callback the bar pulses (work of unknown length, such as compiling a big game's dice);
    then it shows the share done, the time taken and the time left. On a first run, when no solver kernel
    was ever compiled on this machine, the label says that they are compiled first (once)."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from ..core.kernel_cache import never_compiled

    if not quiet and err.is_terminal and never_compiled():
        label += " - compiling the solver kernels first (once per install: about half a minute)"

    with Progress(TextColumn(label.replace("[", "\\[")), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                  TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                  console=err, transient=True, disable=quiet or not err.is_terminal) as bar:
        task = bar.add_task(label, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def report(result: Any, draw: Callable[[], None], json_output: bool, plot: str | None = None,
           figure: Callable[[], Any] | None = None) -> None:
    """A command's result: its figure written first (``--plot``), then the result as JSON or drawn."""
    if plot and figure is not None:
        from ..analysis.plots import save_figure

        save_figure(figure(), plot)
    if json_output:
        emit(result)
        return
    draw()
    if plot:
        out.print(Text(f"plot written to {plot}"), soft_wrap=True)

