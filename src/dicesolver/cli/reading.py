"""``dicesolver docs [TOPIC]``: the documents shipped with the package (``dicesolver.docs``), the same ones
the README and every help text name, readable wherever the package is installed."""

from __future__ import annotations

from typing import Optional

import typer
from rich.table import Table

from .base import JSON_HELP, app, emit, lazy_module, out

documents = lazy_module("dicesolver.docs")


def complete_topic(incomplete: str) -> list[str]:
    return [topic for topic in documents.topics() if topic.startswith(incomplete.lower())]


@app.command()
def docs(
    topic: Optional[str] = typer.Argument(None, help="a document: guide, rules, input, schema, api, web, rl, dask, "
                                          "findings, architecture (none: the list)", autocompletion=complete_topic),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Read the documentation: the list of documents, or one of them (through your pager on a terminal; the
    Markdown itself when piped)."""
    if topic is None:
        found = documents.topics()
        if json_output:
            emit([{"topic": name, "title": title} for name, title in found.items()])
            return
        table = Table(title="documents: dicesolver docs TOPIC (and /docs/TOPIC in 'dicesolver serve')")
        table.add_column("topic")
        table.add_column("title")
        for name, title in found.items():
            table.add_row(name, title)
        out.print(table)
        return
    markdown = documents.text(topic)
    if json_output:
        emit({"topic": documents.file_name(topic)[:-3].lower(), "markdown": markdown})
    elif out.is_terminal:
        from rich.markdown import Markdown  # here: markdown-it is 65 ms of every command's start otherwise

        with out.pager(styles=True):
            out.print(Markdown(markdown))
    else:
        out.file.write(markdown)
