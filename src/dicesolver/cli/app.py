"""The ``dicesolver`` command: a thin front end. Every command asks the registry for the game (and through
it the game's family), calls the protocol or the analysis layer, and draws the result (``terminal.render``)
or prints it as JSON (the same models the library returns and the web API sends).

A user error (a bad die, an impossible scorecard, an unknown game, a malformed rules file or record)
prints one line and exits with code 2; nothing here prints a traceback for them.
"""

from __future__ import annotations

import sys

from rich.text import Text

from ..core.errors import DicesolverError
from . import comparing, exploring, playing  # noqa: F401  (the commands, registered on ``app`` by import)
from .base import app, err

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> None:
    """Entry point: exits 0 on success, 2 on a usage or input error, 130 when interrupted."""
    try:
        app(args=argv, prog_name="dicesolver")
    except DicesolverError as exc:
        err.print(Text.assemble(("error: ", "red"), str(exc)), soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
