"""`python -m dicesolver`: the command line, as `dicesolver`."""

from .cli import main

main()
