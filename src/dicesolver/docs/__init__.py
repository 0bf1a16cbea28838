"""The documentation, shipped inside the package: the Markdown files beside this module are the project's
documents (the repository's README points to them here), so an installed copy has every one that a help
text or an error names. ``dicesolver docs [TOPIC]`` shows one in a terminal; ``dicesolver serve`` at
``/docs/TOPIC``. A topic is a file's name in any case, with or without ``.md`` (``guide``, ``RULES.md``)."""

from __future__ import annotations

import re
from importlib import resources
from importlib.abc import Traversable

from ..core.errors import InputError

__all__ = ["topics", "text", "file_name", "image", "example"]


def _folder() -> Traversable:
    return resources.files(__name__)


def topics() -> dict[str, str]:
    """Every topic (its name in lower case) with its title (the document's first heading), in name order."""
    found = {}
    for entry in sorted(_folder().iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".md"):
            heading = next((line for line in entry.read_text(encoding="utf-8").splitlines() if line.startswith("#")),
                           entry.name)
            found[entry.name[:-3].lower()] = heading.lstrip("#").strip()
    return found


def file_name(topic: str) -> str:
    """The file of ``topic`` (``guide``, ``GUIDE``, ``guide.md``): InputError naming the topics there are."""
    name = topic.strip()
    name = name[:-3] if name.lower().endswith(".md") else name
    if name.lower() not in topics():
        raise InputError(f"no document {topic!r}: the topics are {', '.join(topics())}")
    return f"{name.upper()}.md"


def text(topic: str) -> str:
    """The Markdown of ``topic``."""
    return _folder().joinpath(file_name(topic)).read_text(encoding="utf-8")


def image(name: str) -> bytes:
    """An image the documents show (``images/NAME.png``): InputError for any other name."""
    return _shipped("images", name, ".png").read_bytes()


def example(name: str) -> str:
    """A rules file the documents link to (``examples/NAME.toml``): InputError for any other name."""
    return _shipped("examples", name, ".toml").read_text(encoding="utf-8")


def _shipped(folder: str, name: str, suffix: str) -> Traversable:
    # a plain file name only: no folder, no dot-dot, nothing but the names the package ships
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*" + re.escape(suffix), name):
        raise InputError(f"no such file: {name!r}")
    found = _folder().joinpath(folder, name)
    if not found.is_file():
        raise InputError(f"no such file: {name!r}")
    return found
