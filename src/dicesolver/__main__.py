"""The ``dicesolver`` program (the console script, ``python -m dicesolver``): the command line in a process of
its own, set up for a short life. ``cli.main`` is the same command line without this set-up, for callers that
run it in their own process (tests, notebooks)."""

import gc
import os


def run() -> None:
    # A command allocates hundreds of thousands of objects as it imports the library and loads its tables,
    # almost none of them garbage: collecting every 700 allocations (Python's default) cost 20-30 ms of a
    # 0.3 s answer.
    gc.set_threshold(10_000, 10, 10)
    # pydantic finds its plugins by reading every installed distribution's entry points when it builds its first
    # validator (12-25 ms); the command has none. PYDANTIC_DISABLE_PLUGINS set and empty brings them back.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from .cli import main

    try:
        main()
    finally:
        # Everything left is freed with the process: the collection Python runs at exit only walks it (50 ms).
        gc.freeze()


if __name__ == "__main__":
    run()
