"""How results look in a notebook: small HTML tables (``_repr_html_``), dice drawn as dice, and tables as
pandas DataFrames (``to_pandas``; pandas is the ``notebook`` extra)."""

from __future__ import annotations

import html
import re
from typing import Any, Sequence

from .extras import need

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
SHOWN_ROWS = 12  # a notebook shows the first few rows; the object holds them all


def dice_text(text: str) -> str:
    """Runs of faces 1-6 drawn as dice (``keep 1133`` is ``keep ⚀⚀⚂⚂``); other text as it is."""
    return re.sub(r"(?<![\w=,;])[1-6]{2,6}(?![\w=])", lambda m: "".join(DIE_FACES[int(d) - 1] for d in m.group(0)),
                  text)


def table(caption: str, headers: Sequence[str], rows: Sequence[Sequence[Any]], more: int = 0) -> str:
    """A small HTML table: numbers right-aligned (floats to 4 places), text escaped."""
    def cell(x: Any) -> str:
        if isinstance(x, float):
            return f'<td style="text-align:right">{x:.4f}</td>'
        if isinstance(x, int):
            return f'<td style="text-align:right">{x}</td>'
        return f"<td>{html.escape(str(x))}</td>"

    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(cell(x) for x in row) + "</tr>" for row in rows)
    tail = f'<tr><td colspan="{len(headers)}">… {more} more</td></tr>' if more else ""
    return f"<table><caption>{html.escape(caption)}</caption><tr>{head}</tr>{body}{tail}</table>"


def frame(columns: dict[str, Any]) -> Any:
    """A pandas DataFrame of ``columns`` (pandas: the notebook extra)."""
    need("notebook", "pandas")
    import pandas as pd

    return pd.DataFrame(columns)


class ShownGame:
    """A game as a notebook shows it: its game string and title (a rules object's own repr runs to pages),
    and its rules in words as HTML. Mixed into each family's game class (a dataclass with ``repr=False``)."""

    def __repr__(self) -> str:
        game: Any = self  # a Game of the protocol (each family's class declares its fields its own way)
        players = f"{game.n_players} player{'s' if game.n_players != 1 else ''}"
        return f"<{type(self).__name__} {game.canonical!r}: {game.title}, {players}>"

    def _repr_html_(self) -> str:
        game: Any = self
        items = "".join(f"<li>{html.escape(line)}</li>" for line in game.describe())
        return f"<b>{html.escape(game.canonical)}</b>: {html.escape(game.title)}<ul>{items}</ul>"
