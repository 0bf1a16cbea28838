"""The documents shipped with the package (``dicesolver.docs``) as web pages: ``/docs/TOPIC``, with their
images and example files, for a server whose user has no repository at hand (a phone at the table)."""

from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt

from .. import docs

# CommonMark with tables; raw HTML in a document is shown as text, and markdown-it refuses javascript: links
_RENDERER = MarkdownIt("commonmark", {"html": False}).enable("table")


def page(topic: str) -> str:
    """The HTML page of ``topic`` (InputError for a document there is not), with a bar of every document."""
    name = docs.file_name(topic)[:-3].lower()
    body = _render(docs.text(topic))
    bar = " · ".join(f'<a href="/docs/{t}"{" aria-current=page" if t == name else ""}>{html.escape(t)}</a>'
                     for t in docs.topics())
    title = html.escape(docs.topics()[name])
    return (f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>dicesolver: {title}</title>\n'
            f'<link rel="icon" href="/static/icon.svg" type="image/svg+xml">\n'
            f'<link rel="stylesheet" href="/static/style.css">\n</head>\n<body>\n'
            f'<nav class="doc-bar"><a href="/">dicesolver</a> · <a href="/docs">the JSON API</a> · {bar}</nav>\n'
            f'<main class="document">\n{body}</main>\n</body>\n</html>\n')


def _render(markdown: str) -> str:
    """The document's HTML, each heading with the id GitHub gives it, so that links such as
    ``GUIDE.md#your-own-game`` land where they do in the repository."""
    tokens = _RENDERER.parse(markdown)
    for opening, inline in zip(tokens, tokens[1:]):
        if opening.type == "heading_open":
            opening.attrSet("id", slug(inline.content))
    return _RENDERER.renderer.render(tokens, _RENDERER.options, {})


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
