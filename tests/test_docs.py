"""The documents travel with the package: ``dicesolver docs [TOPIC]`` reads them anywhere the package is
installed, ``serve`` shows them at /docs/TOPIC with every link between them working, every document a help
text or an error names exists, and the wheel carries them."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from webclient import TestClient

from dicesolver import docs
from dicesolver.web.app import create_app
from dicesolver.web.documents import slug

ROOT = Path(__file__).resolve().parents[1]
TOPICS = ["api", "architecture", "dask", "findings", "guide", "input", "rl", "rules", "schema", "web"]


def dicesolver(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dicesolver", *args], capture_output=True, text=True, timeout=120)


def test_the_command_lists_the_documents_and_shows_one():
    assert list(docs.topics()) == TOPICS
    listed = dicesolver("docs")
    assert listed.returncode == 0 and all(topic in listed.stdout for topic in TOPICS)
    shown = dicesolver("docs", "RULES.md")  # piped: the Markdown itself
    assert shown.returncode == 0 and shown.stdout == docs.text("rules")
    assert shown.stdout.startswith("# The rules dicesolver plays")
    missing = dicesolver("docs", "nope")
    assert missing.returncode == 2 and missing.stderr.strip().splitlines() == [
        f"error: no document 'nope': the topics are {', '.join(TOPICS)}"]


def test_every_document_a_message_names_exists():
    """'dicesolver docs X' in any help text, error, preset or document names a topic there is."""
    named = set()
    for path in (ROOT / "src" / "dicesolver").rglob("*"):
        if path.suffix in (".py", ".toml", ".md", ".js", ".html"):
            named |= set(re.findall(r"dicesolver docs ([a-z]+)", path.read_text(encoding="utf-8")))
    named |= set(re.findall(r"dicesolver docs ([a-z]+)", (ROOT / "README.md").read_text(encoding="utf-8")))
    assert named and named <= set(TOPICS), named - set(TOPICS)


def test_the_web_pages_of_the_documents_and_every_link_between_them():
    """Each document at /docs/TOPIC; each relative link in it (another document, a heading in one, an image,
    an example rules file) answers 200 and lands on a heading that is there; nothing else is served."""
    with TestClient(create_app()) as client:
        pages = {topic: client.get(f"/docs/{topic}") for topic in TOPICS}
        assert all(p.status_code == 200 and p.headers["content-type"].startswith("text/html") for p in pages.values())
        ids = {topic: set(re.findall(r'<h[1-6] id="([^"]+)"', p.text)) for topic, p in pages.items()}
        checked = 0
        for topic, page in pages.items():
            for link in re.findall(r'(?:href|src)="([^"]+)"', page.text):
                if link.startswith(("http", "/", "mailto:")):
                    continue
                target, _, anchor = link.partition("#")
                if target:
                    answer = client.get(f"/docs/{target}")
                    assert answer.status_code == 200, (topic, link)
                if anchor:
                    landing = target[:-3].lower() if target.endswith(".md") else topic
                    assert anchor in ids[landing], (topic, link)
                checked += 1
        assert checked > 30
        for path in ("/docs/nope", "/docs/images/..%2F__init__.py", "/docs/examples/..%2F..%2Fpyproject.toml",
                     "/docs/images/nothing.png", "/docs/%2e%2e"):
            assert client.get(path).status_code == 404, path


def test_a_heading_slug_is_githubs():
    assert slug("Two players: Malina") == "two-players-malina"
    assert slug("Farkle (Facebook Farkle, Zilch, Kingdom Come)") == "farkle-facebook-farkle-zilch-kingdom-come"


def test_the_wheel_carries_the_documents(tmp_path):
    """What an installed copy has: every document, its images and its example rules files."""
    import zipfile

    built = subprocess.run([sys.executable, "-m", "uv", "build", "-q", "--wheel", "-o", str(tmp_path), str(ROOT)],
                           capture_output=True, text=True, timeout=300)
    if built.returncode != 0 and "No module named uv" in built.stderr:
        pytest.skip("uv is not installed here")
    assert built.returncode == 0, built.stderr
    names = zipfile.ZipFile(next(tmp_path.glob("*.whl"))).namelist()
    assert {f"dicesolver/docs/{t.upper()}.md" for t in TOPICS} <= set(names)
    assert "dicesolver/docs/images/web-play.png" in names and "dicesolver/docs/examples/yahtzee-bonus-once.toml" in names
