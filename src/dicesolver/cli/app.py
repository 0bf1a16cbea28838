"""The ``dicesolver`` command: a thin front end. Every command asks the registry for the game (and through
it the game's family), calls the protocol or the analysis layer, and draws the result (``terminal.render``)
or prints it as JSON (the same models the library returns and the web API sends).

A user error (a bad die, an impossible scorecard, an unknown game, a malformed rules file or record)
prints one line and exits with code 2; nothing here prints a traceback for them.
"""

from __future__ import annotations

import sys

import typer

try:  # typer vendors click from 0.2x on; its command-line errors are that click's
    from typer._click import exceptions as click
except ImportError:  # pragma: no cover - older typer, on the PyPI click
    from click import exceptions as click  # type: ignore[no-redef]

from rich.text import Text

from ..core.errors import DicesolverError
from . import caching, comparing, exploring, playing  # noqa: F401  (the commands, registered on ``app`` by import)
from .base import app, err

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> None:
    """Entry point: exits 0 on success, 2 on a usage or input error, 130 when interrupted."""
    try:
        code = app(args=argv, prog_name="dicesolver", standalone_mode=False)
    except click.NoArgsIsHelpError:  # 'dicesolver' alone: typer has printed the help
        sys.exit(0)
    except click.UsageError as exc:  # a command line click refuses: one line, as our own errors
        command = exc.ctx.command_path if exc.ctx else "dicesolver"
        fail(f"{exc.format_message()} (see '{command} --help')", exc.exit_code)
    except click.ClickException as exc:
        fail(exc.format_message(), exc.exit_code)
    except typer.Abort:
        err.print("aborted")
        sys.exit(1)
    except DicesolverError as exc:
        fail(str(exc), 2)
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


def fail(message: str, code: int) -> None:
    err.print(Text.assemble(("error: ", "red"), " ".join(message.split())), soft_wrap=True)
    sys.exit(code)


if __name__ == "__main__":
    main()
