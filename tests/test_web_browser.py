"""End-to-end: the web app in real headless Chromium (Playwright driving Debian's /usr/bin/chromium).

Advice for a position, a whole game against a bot, its review, and the explore page; each page's
screenshot is checked (not blank) and, with UPDATE_SCREENSHOTS=1, written to docs/images for the README.
Skipped where Chromium or Playwright is missing (``.ci/run`` installs Chromium).
"""

import os
import re
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

DOCS = Path(__file__).resolve().parents[1] / "docs" / "images"


@pytest.fixture(scope="module")
def server():
    import uvicorn

    from dicesolver.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def page(server):
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.set_default_timeout(60_000)
        page.goto(server)
        page.wait_for_function("document.querySelectorAll('#advisor-game option').length > 5")
        yield page
        browser.close()


def snapshot(page, name: str, tmp_path: Path) -> Path:
    """A full-page screenshot, checked to show something (many colours, not one flat fill)."""
    import matplotlib.image as mpimg
    import numpy as np

    path = tmp_path / f"web-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    pixels = mpimg.imread(path)[..., :3]
    assert pixels.shape[0] > 300 and pixels.std() > 0.05
    assert len(np.unique((pixels * 15).astype(int).reshape(-1, 3), axis=0)) > 8
    if os.environ.get("UPDATE_SCREENSHOTS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, DOCS / path.name)
    return path


def test_advice_for_a_position_and_applying_it(page, tmp_path):
    page.select_option("#advisor-game", "yacht")
    for face in "11345":
        page.click(f"#faces .die[data-face='{face}']")
    page.select_option("#rolls-left", "1")
    assert page.inner_text("#position-text") == "/11345/1"
    page.click("#advise")
    page.wait_for_selector("#advice-table tr.best")
    rows = page.locator("#advice-table tr.clickable")
    assert rows.count() > 20
    best = page.inner_text("#advice-table tr.best")
    assert "keep" in best and "0.0000" in best
    snapshot(page, "advisor", tmp_path)
    rows.first.click()  # apply the best keep: those dice stay, one roll fewer
    assert page.locator("#tray .die.kept").count() == len(re.search(r"keep (\d+)", best).group(1))
    assert page.input_value("#rolls-left") == "0"


def test_play_a_whole_game_against_a_bot_then_review_it(page, tmp_path):
    page.click(".tab[data-page='play']")
    page.select_option("#play-game", "pig")
    page.select_option("#play-bots", "hold-at-20")
    page.select_option("#play-first", "you")
    page.fill("#play-seed", "11")
    page.click("#play-start")
    for _ in range(600):
        page.wait_for_function("document.querySelector('#prompt').textContent !== 'thinking…'")
        if page.inner_text("#prompt") == "game over":
            break
        if not page.locator("#quick button").count():
            page.wait_for_timeout(100)
            continue
        lines = page.inner_text("#transcript").rstrip().splitlines()
        total = re.search(r"turn total (\d+)", lines[-1] if lines else "")
        word = "hold" if total and int(total.group(1)) >= 20 else "throw"
        try:
            page.click(f"#quick button[data-line='{word}']", timeout=2000)
        except playwright.TimeoutError:  # the page re-rendered (a bot's turn) between looking and clicking
            continue
    else:
        raise AssertionError("the game did not end")
    page.wait_for_selector("#play-review .summary")
    assert "baseline" in page.inner_text("#play-review .summary")
    assert page.locator("#play-review img.plot").evaluate("img => img.complete && img.naturalWidth > 300")
    snapshot(page, "play", tmp_path)
    page.click(".tab[data-page='review']")
    page.click("#refresh-records")
    page.wait_for_selector("#records button")
    page.locator("#records button").first.click()
    page.wait_for_selector("#review-out table.review-table")
    assert page.locator("#review-out table.review-table tr").count() > 2
    assert "Review of you's game" in page.inner_text("#review-out")
    snapshot(page, "review", tmp_path)


def test_explore_and_a_bad_position(page, tmp_path):
    page.click(".tab[data-page='explore']")
    page.select_option("#explore-game", "yacht")
    page.click("#explore-go")
    page.wait_for_selector("#explore-out img.plot")
    page.wait_for_function("document.querySelector('#explore-out img.plot').naturalWidth > 300")
    assert "big_straight\t30\t5.905" in page.inner_text("#explore-out")
    snapshot(page, "explore", tmp_path)
    page.click(".tab[data-page='advisor']")
    page.select_option("#advisor-game", "skunk")
    page.fill("#push-mine", "150")
    page.click("#advise")
    page.wait_for_selector("#message:not([hidden])")
    assert "below the goal" in page.inner_text("#message")
