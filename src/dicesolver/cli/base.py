"""What every command shares: the Typer app they register on, the consoles, JSON output, warnings and the
progress bar.

The command modules import the library (numpy, pydantic, the registry) lazily, with ``lazy_module``: a
command line waits only for what its command uses, and ``dicesolver --help`` for none of it."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import sys
import threading
import time
from types import ModuleType
from typing import Any, Callable, Iterator

import typer
from rich.console import Console
from rich.text import Text

from ..core.errors import InputError
from ..core.extras import need
from ..core.pace import Pace

app = typer.Typer(
    help="Optimal strategies for dice games: solve, advise, play, analyze, compare.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion for bash, zsh, fish and PowerShell
    pretty_exceptions_enable=False,
)


def _width(stream: Any) -> int | None:
    """Rich's width for a stream: the terminal's; piped or redirected, $COLUMNS or wide enough for any table
    (rich would cut tables at 80 columns: `simulate ... > out.txt` used to hold `256…`)."""
    if stream.isatty():
        return None
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else 200


# emoji=False: no ":name:" in a player's or a game's name turns into an emoji (and rich's emoji table is not loaded)
out = Console(highlight=False, emoji=False, width=_width(sys.stdout))
err = Console(stderr=True, highlight=False, emoji=False, width=_width(sys.stderr))


class Settings:
    """What the options before the command set: --quiet (no progress, no warnings), --verbose (a
    traceback with each error, and how long the command took)."""

    quiet = False
    verbose = False


def _version(value: bool) -> None:
    if value:
        from .. import __version__

        out.print(f"dicesolver {__version__}")
        raise typer.Exit()


@app.callback()
def options(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="print the version"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress and no warnings on stderr"),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="a traceback with each error, and the time taken"),
) -> None:
    """Optimal strategies for dice games: solve, advise, play, analyze, compare."""
    if quiet and verbose:
        raise typer.BadParameter("--quiet and --verbose contradict each other")
    Settings.quiet, Settings.verbose = quiet, verbose

GAME_HELP = ("a game: a name with optional variants, e.g. 'yahtzee(joker=free)', 'skunk(goal=50)', 'despirala', "
             "or a .toml rules file (see 'dicesolver games')")
JSON_HELP = "print JSON (the models of 'dicesolver schema')"


def complete_game(incomplete: str) -> list[str]:
    """The shell's completion of a game: the built-in names, and the rules files here, that start so."""
    from pathlib import Path

    from ..core import registry

    names = sorted({name for family in registry.families() for name in family.names()})
    folder = Path(incomplete).parent if "/" in incomplete else Path(".")
    try:
        files = sorted(str(p) if "/" in incomplete else p.name for p in folder.glob("*.toml"))
    except OSError:
        files = []
    return [name for name in names + files if name.startswith(incomplete)]


def game_argument(default: Any = ..., help: str = GAME_HELP) -> Any:
    """The GAME argument of a command, completed by the shell (``complete_game``)."""
    return typer.Argument(default, help=help, autocompletion=complete_game)


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
    if Settings.quiet:
        return
    err.print(Text.assemble(("warning: ", "yellow"), message), soft_wrap=True)  # one line, paths unbroken


@contextlib.contextmanager
def progress(label: str, quiet: bool = False) -> Iterator[Callable[[int, int], None]]:
    """Progress of a wait, on stderr, and its (done, total) callback: a bar on a terminal, lines elsewhere
    (``LineProgress``: a notebook's ``!dicesolver``, a subprocess, CI); nothing when quiet. With ``--json``
    too: the JSON goes to stdout, the progress to stderr.

    Until the first callback the bar pulses (work of unknown length, such as compiling kernels or a big
    game's dice); then it shows the share done, the time taken and the time left. On a first run, when no
    solver kernel was ever compiled on this machine, the label says that they compile as it goes (once): a
    first solve works on while its faster kernel compiles, so "first" misread the whole wait."""
    from ..core import tables
    from ..core.kernel_cache import kernels_kept, never_compiled, writable

    if quiet or Settings.quiet:
        yield Reporter(lambda done, total: None, lambda what: None)
        return
    if not writable(tables.cache_dir()):  # said in a warning when the table is made; the label must not promise
        label = label.replace(" (once; cached)", " (not kept)")
    if never_compiled():
        label += " + compiling kernels (once)" if kernels_kept() else " + compiling kernels"
    if not err.is_terminal:
        with LineProgress(label) as lines:
            yield Reporter(lines.update, lines.stage)
        return
    with terminal_bar(err) as bar:
        pace = Pace()
        task = bar.add_task(_described(label), total=None, pace=pace)

        def update(done: int, total: int) -> None:
            if total > 0:
                pace.report(min(max(done / total, 0.0), 1.0), time.monotonic())
            bar.update(task, completed=done, total=total)

        def stage(what: str) -> None:
            pace.restart()
            bar.reset(task, total=None, description=_described(f"{label}: {what}"))

        yield Reporter(update, stage)


def _described(text: str) -> str:
    return text.replace("[", "\\[")


def terminal_bar(console: Console) -> Any:
    """The bar on a terminal, readable at 80 columns: the label takes what room is left (cut with an
    ellipsis), and the bar, the share done and the time always show; the time is one column that says
    which it is: "12 s so far" until a pace is known, then "about 40 s left" (the same estimate as the
    lines elsewhere, ``Pace``)."""
    from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn
    from rich.table import Column

    class Share(ProgressColumn):
        def render(self, task: Any) -> Text:
            return Text(f"{task.percentage:>3.0f}%" if task.total else "    ")

    class When(ProgressColumn):
        def render(self, task: Any) -> Text:
            pace: Pace = task.fields["pace"]
            left = pace.left(time.monotonic()) if task.total else None
            said = f"about {seconds(left)} left" if left is not None else f"{seconds(task.elapsed or 0.0)} so far"
            return Text(f"{said:>16}")

    return Progress(TextColumn("{task.description}", table_column=Column(ratio=1, no_wrap=True, overflow="ellipsis",
                                                                          min_width=12)),
                    BarColumn(bar_width=16), Share(), When(), console=console, transient=True, expand=True)


class Reporter:
    """The (done, total) callback a command hands the library, with ``stage(what)``: the work says what it
    does from now on (``core.family.tell_stage``), such as building a table before playing from it."""

    def __init__(self, update: Callable[[int, int], None], stage: Callable[[str], None]):
        self._update, self.stage = update, stage

    def __call__(self, done: int, total: int) -> None:
        self._update(done, total)


class LineProgress:
    """Progress as lines, for a stderr that is not a terminal: nothing for a wait shorter than ``GRACE``
    seconds; then a line when it passes GRACE, one at each further tenth done (at most one every ``EVERY``
    seconds), one every ``SILENT`` seconds while no share is known (compiling), each with the time taken and,
    once a share is known, an estimate of the time left; and a last line when it ends."""

    GRACE, EVERY, SILENT = 2.0, 2.0, 15.0

    def __init__(self, label: str, stream: Any = None, clock: Callable[[], float] = time.monotonic):
        self.label, self.stream, self.clock = label, stream, clock
        self.base = label
        self.start = clock()
        self.pace = Pace()
        self.printed_share = -1.0
        self.last_line = -1.0  # when the last line was written (-1: none yet)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick, daemon=True)

    def __enter__(self) -> LineProgress:
        self._ticker.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._ticker.join()
        with self._lock:
            if self.last_line >= 0:
                failed = exc[0] is not None
                self._write(f"{self.label}: {'stopped' if failed else 'done'} after {self._took()}")

    def stage(self, what: str) -> None:
        """From now on the work is ``what``: a line says so (once the wait has passed GRACE), and its shares
        and pace start anew."""
        with self._lock:
            self.label = f"{self.base}: {what}"
            self.pace.restart()
            self.printed_share = -1.0
            now = self.clock()
            if now - self.start >= self.GRACE:
                self._line(now)

    def update(self, done: int, total: int) -> None:
        if total <= 0:
            return
        share = min(max(done / total, 0.0), 1.0)
        with self._lock:
            now = self.clock()
            if self.pace.report(share, now):
                self.printed_share = -1.0
            if now - self.start < self.GRACE or share >= 1.0:
                return
            if share - self.printed_share >= 0.1 - 1e-9 and now - self.last_line >= self.EVERY:
                self._line(now)

    def _tick(self) -> None:
        """Lines while the callback is silent: after GRACE seconds, then every SILENT seconds."""
        wait = self.GRACE
        while not self._stop.wait(wait):
            with self._lock:
                now = self.clock()
                if self.last_line < 0 or now - self.last_line >= self.SILENT:
                    self._line(now)
            wait = 0.5

    def _line(self, now: float) -> None:
        """A line: the share done and the time left, at the pace since the first share was reported (what came
        before it, such as compiling, says nothing of the pace), or only the time taken while none is known."""
        left, share = self.pace.left(now), self.pace.share
        if left is None or share is None:
            self._write(f"{self.label}: working, {self._took()}")
        else:
            self._write(f"{self.label}: {100 * share:.0f}% after {self._took()}, about {seconds(left)} left")
            self.printed_share = share
        self.last_line = now

    def _took(self) -> str:
        return seconds(self.clock() - self.start)

    def _write(self, line: str) -> None:
        stream = self.stream or sys.stderr
        stream.write(line + "\n")
        stream.flush()


def seconds(s: float) -> str:
    """A duration in words a person reads at a glance: 4.2 s, 95 s, 12 min."""
    if s < 10:
        return f"{s:.1f} s"
    if s < 600:
        return f"{s:.0f} s"
    return f"{s / 60:.0f} min"


def needs_plot(path: str | None) -> str | None:
    """A --plot option's check, made as the command line is read: a missing plot extra is said before any
    work (a simulation of minutes, a table built), not after it."""
    if path is not None:
        need("plot", "matplotlib")
    return path


def save_plot(figure: Callable[[], Any], path: str) -> None:
    """``figure()`` drawn to ``path``: matplotlib (the plot extra) is imported here, only for a --plot."""
    need("plot", "matplotlib")
    from ..analysis.plots import save_figure

    save_figure(figure(), path)


def report(result: Any, draw: Callable[[], None], json_output: bool, plot: str | None = None,
           figure: Callable[[], Any] | None = None) -> None:
    """A command's result: its figure written first (``--plot``), then the result as JSON or drawn."""
    if plot and figure is not None:
        save_plot(figure, plot)
    if json_output:
        emit(result)
        return
    draw()
    if plot:
        out.print(Text(f"plot written to {plot}"), soft_wrap=True)



FIELD_HELP = ("play to win a blind tournament of N players: you and N-1 others who each play alone, for the mean "
              "or as --field-scores says; the best chance of the top score, a tie for it shared (solitaire "
              "scorecard games)")
FIELD_SCORES_HELP = ("the others' final scores in a blind tournament are drawn from the scores in this file (whole "
                     "numbers, e.g. your league's; --field N: N players, 2 by default)")


PERCENTILE_HELP = ("play for the highest Q-th percentile of your final score (e.g. 5: the most you reach 95% of the "
                   "time; solitaire scorecard games)")


def goal_of(target: int | None = None, beat: int | None = None, theta: float | None = None,
            field: int | None = None, field_scores: str | None = None, percentile: float | None = None) -> Any:
    """The one goal (``core.aims.Goal``) that the aim options name, or None for the mean; InputError for
    two goals at once or a malformed one."""
    from ..core import aims

    given = [flag for flag, value in (("--target", target), ("--beat", beat), ("--theta", theta),
                                      ("--field", field if field is not None else field_scores),
                                      ("--percentile", percentile)) if value is not None]
    if len(given) > 1:
        raise InputError(f"{' and '.join(given)} are different goals: give one")
    if theta is not None:
        theta = aims.check_theta(theta)
        return aims.RiskAppetite(theta) if theta else None
    if target is not None:
        if target <= 0:
            raise InputError("a target is a positive number of points (every game reaches 0)")
        return aims.AtLeast(target)
    if beat is not None:
        if beat < 0:
            raise InputError("a score to beat is 0 points or more")
        return aims.Beat(beat)
    if percentile is not None:
        return aims.Percentile(0, percentile)
    if field is None and field_scores is None:
        return None
    goal = aims.Field(2 if field is None else field)
    if field_scores is not None:
        goal = goal.against(aims.read_field_scores(field_scores), f"players who scored as in {field_scores}")
    return goal
