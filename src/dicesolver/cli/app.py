"""The ``dicesolver`` command: a thin front end. Every command asks the registry for the game (and through
it the game's family), calls the protocol or the analysis layer, and draws the result (``terminal.render``)
or prints it as JSON (the same models the library returns and the web API sends).

A user error (a bad die, an impossible scorecard, an unknown game, a malformed rules file or record)
prints one line and exits with code 2; nothing here prints a traceback for them.
"""

from __future__ import annotations

import sys
import time
import warnings

import typer
from rich.text import Text

from ..core.errors import CacheWarning, DicesolverError
from . import caching, comparing, exploring, playing, reading  # noqa: F401  (the commands, registered on ``app`` by import)
from .base import Settings, app, err, warn

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> None:
    """Entry point: exits 0 on success, 2 on a usage or input error, 130 when interrupted."""
    started = time.perf_counter()
    warnings.showwarning = _show_warning
    try:
        args = optional_values(global_flags_first(sys.argv[1:] if argv is None else argv))
        code = app(args=args, prog_name="dicesolver", standalone_mode=False)
    except typer.Abort:
        err.print("aborted")
        sys.exit(1)
    except DicesolverError as exc:
        if Settings.verbose:
            err.print_exception()
        fail(str(exc), 2)
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
    except Exception as exc:
        if not command_line_error(exc):
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":  # 'dicesolver' alone: typer has printed the help
            sys.exit(0)
        context = getattr(exc, "ctx", None)  # a usage error: which command's help to read
        see = f" (see '{context.command_path} --help')" if context is not None else ""
        fail(f"{exc.format_message()}{see}", exc.exit_code)  # type: ignore[attr-defined]
    if Settings.verbose:
        err.print(f"done in {time.perf_counter() - started:.2f} s")
    sys.exit(code if isinstance(code, int) else 0)


GLOBAL_FLAGS = ("-q", "--quiet", "-v", "--verbose")


def global_flags_first(argv: list[str]) -> list[str]:
    """``-q``/``-v`` typed after the command (``dicesolver simulate yacht -q``) moved before it, where click
    reads them; nothing after a ``--`` is touched."""
    end = argv.index("--") if "--" in argv else len(argv)
    flags = [a for a in argv[:end] if a in GLOBAL_FLAGS]
    return flags + [a for a in argv[:end] if a not in GLOBAL_FLAGS] + argv[end:]


OPTIONAL_VALUES = {"--tutor": "auto"}  # options whose value may be left out: the value they then take


def optional_values(argv: list[str]) -> list[str]:
    """An option of OPTIONAL_VALUES typed without its value (``play yacht --tutor``, ``--tutor --seed 3``) given
    its default, which typer cannot say: its value is the next word only where that is a number."""
    out: list[str] = []
    end = argv.index("--") if "--" in argv else len(argv)
    for i, word in enumerate(argv):
        out.append(word)
        if i < end and word in OPTIONAL_VALUES and not (i + 1 < end and _number(argv[i + 1])):
            out.append(OPTIONAL_VALUES[word])
    return out


def _number(word: str) -> bool:
    try:
        float(word)
        return True
    except ValueError:
        return False


def command_line_error(exc: Exception) -> bool:
    """Whether ``exc`` is click's error for a command line it refuses. Typer vendors click from 0.26 on and
    exports none of its exception classes but BadParameter, so they are known by what they carry: an exit
    code and a message to show."""
    return isinstance(exc, typer.BadParameter) or (hasattr(exc, "exit_code") and hasattr(exc, "format_message"))


_python_showwarning = warnings.showwarning


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Our own warnings (a cache that cannot be written) as one line, not Python's two with a source line."""
    if issubclass(category, CacheWarning):
        warn(" ".join(str(message).split()))
    else:
        _python_showwarning(message, category, filename, lineno, file, line)


def fail(message: str, code: int) -> None:
    err.print(Text.assemble(("error: ", "red"), " ".join(message.split())), soft_wrap=True)
    sys.exit(code)
