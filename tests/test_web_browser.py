"""End-to-end: the web app in real headless Chromium (Playwright driving Debian's /usr/bin/chromium).

Advice for a position, a whole game against a bot, its review, and the explore page; each page's
screenshot is checked (not blank) and, with UPDATE_SCREENSHOTS=1, written to src/dicesolver/docs/images for the README.
Skipped where Chromium or Playwright is missing (``.ci/run`` installs Chromium).
"""

import os
import re
import shutil
import time
from pathlib import Path

import pytest
from test_explain import TWO_PERSON_END

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

DOCS = Path(__file__).resolve().parents[1] / "src" / "dicesolver" / "docs" / "images"


@pytest.fixture(scope="module")
def server():
    from webclient import served

    from dicesolver.web import access
    from dicesolver.web.app import create_app

    # every phone of these tests is a new browser from 127.0.0.1, dozens a minute: more than a person opens
    saved, access.Browsers.NEW_PER_MINUTE = access.Browsers.NEW_PER_MINUTE, 10_000
    try:
        with served(create_app()) as port:
            yield f"http://127.0.0.1:{port}"
    finally:
        access.Browsers.NEW_PER_MINUTE = saved


@pytest.fixture(scope="module")
def page(server):
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        # the tests' own predicates are strings Playwright evaluates: the app's CSP forbids that, so the tests'
        # page sets it aside (test_the_page_works_under_its_content_security_policy keeps it)
        page = browser.new_page(viewport={"width": 1200, "height": 900}, bypass_csp=True)
        page.set_default_timeout(60_000)
        page.goto(server)
        page.wait_for_function("document.querySelectorAll('#advisor-game option').length > 5")
        yield page
        browser.close()


def open_phone(page, server):
    """A page of its own at 390x844 (its own storage), the app loaded and its games listed."""
    phone = page.context.browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
    phone.set_default_timeout(60_000)
    phone.goto(server)
    phone.wait_for_function("document.querySelectorAll('#advisor-game option').length > 5")
    return phone


def phone_in_context(page, server, **options):
    """A phone page in a browser context of its own (``options``: its colour scheme, service workers...), the
    app loaded and its games listed: (context, page); close the context when done."""
    context = page.context.browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True, **options)
    phone = context.new_page()
    phone.set_default_timeout(60_000)
    phone.goto(server)
    phone.wait_for_function("document.querySelectorAll('#play-game option').length > 5")
    return context, phone


def snapshot(page, name: str, tmp_path: Path) -> Path:
    """A full-page screenshot, checked to show something (many colours, not one flat fill)."""
    import matplotlib.image as mpimg
    import numpy as np

    path = tmp_path / f"web-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    pixels = mpimg.imread(path)[..., :3]
    assert pixels.shape[0] > 300 and pixels.std() > 0.05
    levels = (pixels * 15).astype(np.int64).reshape(-1, 3)  # each channel in 16 levels, a colour in 12 bits
    assert np.count_nonzero(np.bincount(levels @ np.array([256, 16, 1]), minlength=4096)) > 8
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
    page.click("#all-options")
    rows = page.locator("#advice-table tr.clickable")
    assert rows.count() > 20
    best = page.inner_text("#advice-table tr.best")
    assert "keep" in best and "0.0000" in best
    snapshot(page, "advisor", tmp_path)
    rows.first.focus()  # by keyboard: apply the best keep, those dice stay, one roll fewer
    page.keyboard.press("Enter")
    assert page.locator("#tray .die.kept").count() == len(re.search(r"keep (\d+)", best).group(1))
    assert page.input_value("#rolls-left") == "0"


def test_the_advisor_shows_the_best_few_and_clears_stale_advice(page):
    page.evaluate("localStorage.removeItem('dicesolver.advisor')")  # a browser that kept no Advisor card
    page.goto(page.url.split("#")[0])  # a fresh page on the Advisor tab (a game in play would reattach)
    page.wait_for_function("document.querySelectorAll('#advisor-game option').length > 5")
    page.click(".tab[data-page='advisor']")
    assert page.input_value("#advisor-game") == "yahtzee"  # the default game
    for face in "11345":
        page.click(f"#faces .die[data-face='{face}']")
    page.click("#advise")
    page.wait_for_selector("#advice-table tr.best")
    assert page.locator("#advice-table tr.clickable").count() == 8
    page.click("#all-options")
    assert page.locator("#advice-table tr.clickable").count() > 20
    page.select_option("#rolls-left", "2")
    page.evaluate("positionText = () => 'x/y/z'")  # a position the server refuses
    page.click("#advise")
    page.wait_for_selector("#message:not([hidden])")
    assert page.locator("#advice-table").count() == 0  # the old advice is gone: nothing to apply


def open_setup(page) -> None:
    """The game's setup, out of the way while a game is in play, brought back ("new game…")."""
    page.click(".tab[data-page='play']")
    if page.is_hidden("#setup"):
        page.click("#quick #new-game")


def press_start(page) -> None:
    """Start, confirming when a game is in play (it stays saved under Unfinished games)."""
    page.click("#play-start")
    if page.is_visible("#confirm-start"):
        page.click("#confirm-start")


def start_game(page, game: str, bots: list[str], seed: int) -> None:
    open_setup(page)
    page.select_option("#play-game", game)
    page.select_option("#play-bots", bots)
    page.select_option("#play-first", "you")
    page.fill("#play-seed", str(seed))
    page.set_checked("#play-manual", False)
    before = page.evaluate("state.session && state.session.id")
    press_start(page)
    page.wait_for_function("(old) => state.session && state.session.id !== old", arg=before)


def check_the_board(page, board: dict) -> None:
    """The board on the screen shows the snapshot, and the snapshot is the engine's state: the game's record
    on disk, replayed by the engine, ends in the position the board shows."""
    from dicesolver.core import registry, tables

    session = page.evaluate("state.session")
    playthrough = registry.read_record(tables.cache_dir() / "web-games" / session["record"])
    assert str(playthrough.states[-1]) == board["position"]
    view = board["view"]
    # the board is drawn once its advice is in (an await): the snapshot may be newer than the drawing for a moment
    page.wait_for_function("(p) => document.getElementById('board').dataset.position === p", arg=board["position"])
    text = page.inner_text("#board")
    if board["mover"] is None:
        assert "game over" in text
    if board["family"] == "scorecard":
        shown = view["dice"] or view["held"]
        assert page.locator("#board .bdie:not(.pad-face)").count() == len(shown)
        totals = page.locator("#board tr.total td").all_inner_texts()
        assert totals[1:] == [str(card["total"]) for card in view["cards"]]
        assert page.locator("#board button.score").count() == sum(a["kind"] == "score" for a in board["actions"])
    elif board["family"] == "pushluck":
        for score in view["scores"]:
            assert f"{score} / {view['goal']}" in text
        assert f"turn total {view['turn_total']}" in text if board["mover"] is not None else "game over" in text
        if board["actions"]:  # each player's chance of winning, from the position's value
            page.wait_for_selector("#board .pwin")
            assert page.locator("#board .pwin").count() == 2
    elif board["family"] == "farkle":
        for score in view["scores"]:
            assert f"{score} / {view['goal']}" in text
        if board["mover"] is not None:
            assert f"turn total {view['turn_total']}" in text
            assert page.locator("#board .bdie").count() == len(view["table"])
        if board["actions"]:  # each player's chance of winning, from the position's value
            page.wait_for_selector("#board .pwin")
            assert page.locator("#board .pwin").count() == 2
    else:
        points = page.locator("#board tr.total td").all_inner_texts()
        assert points[1:] == [str(seat["points"]) for seat in view["seats"]]
        assert page.locator("#board .moves button[data-line]").count() == len(board["actions"]) + board["throw"]


def click_a_move(page, board: dict, rng) -> None:
    """A move by clicking the board (dice to hold and Roll, a box, Throw/Hold, a Despirala move), or a key."""
    view = board["view"]
    if board["throw"]:
        page.keyboard.press("Enter") if rng.random() < 0.5 else page.click("#board button[data-line='']")
    elif board["family"] == "scorecard":
        if view["rolls_left"] > 0 and rng.random() < 0.6:
            for i in range(len(view["dice"])):
                if rng.random() < 0.5:
                    page.keyboard.press(str(i + 1)) if rng.random() < 0.5 else page.click(f"#board [data-die='{i}']")
            page.click("#board [data-roll]")
        else:
            boxes = page.locator("#board button.score")
            boxes.nth(rng.randrange(boxes.count())).click()
    elif board["family"] == "pushluck":
        page.keyboard.press("h" if view["turn_total"] >= 20 else "r")
    elif board["family"] == "farkle" and view["phase"] == "take":
        take = rng.choice(board["actions"])["action"]  # "take 155": its dice clicked on the table, or its button
        if rng.random() < 0.5:
            free = list(enumerate(view["table"]))
            for face in take.split()[1]:
                i = next(i for i, f in free if str(f) == face)
                free = [(j, f) for j, f in free if j != i]
                page.click(f"#board [data-die='{i}']")
            page.click("#board [data-take]")
        else:
            page.click(f"#board button[data-line='{take}']")
    elif board["family"] == "farkle":
        banks = any(a["kind"] == "bank" for a in board["actions"])
        page.keyboard.press("b" if banks and view["turn_total"] >= 300 else "r")
    else:
        moves = page.locator("#board .moves button[data-line]")
        moves.nth(rng.randrange(moves.count())).click()


def settled(page) -> dict:
    """The game's session once the page waits for the person (or the game is over), its board drawn."""
    page.wait_for_function("state.session && !state.sending && !state.session.busy && state.session.board"
                           " && (state.session.prompt || state.session.over)")
    session = page.evaluate("state.session")
    page.wait_for_function("(p) => document.getElementById('board').dataset.position === p",
                           arg=session["board"]["position"])
    page.wait_for_function("performance.now() - state.tappedAt > SETTLE_MS")  # a tap now is no double tap
    return session


def play_by_clicking(page, game: str, bots: list[str], seed: int) -> None:
    """A whole game played on the drawn board, the board checked against the engine after every move."""
    import random

    rng = random.Random(seed)
    start_game(page, game, bots, seed)
    for _ in range(800):
        session = settled(page)
        check_the_board(page, session["board"])
        if session["over"]:
            return
        board = session["board"]
        assert board["actions"] or board["throw"], session["prompt"]
        click_a_move(page, board, rng)
    raise AssertionError(f"{game}: the game did not end")


def a_move_button(page, board: dict, rng) -> str:
    """A selector for one control on the board that sends a move (each kind in turn, by chance)."""
    view = board["view"]
    if board["throw"]:
        return "#board button[data-line='']"
    if board["family"] == "scorecard":
        choices = ["#board button.score"]
        if view["rolls_left"] > 0:
            choices += ["#board [data-roll]"] * 3 + ["#board .board-hint button[data-line]"]
        return rng.choice(choices)
    if board["family"] == "farkle" and view["phase"] == "take":
        return "#board .moves button[data-line]"
    enough = 300 if board["family"] == "farkle" else 20
    keep_going = [a for a in board["actions"] if a["kind"] not in ("hold", "bank") or view.get("turn_total", 0) >= enough]
    return f"#board button[data-line='{rng.choice(keep_going or board['actions'])['action']}']"


@pytest.mark.parametrize("game,bots", [("yacht", ["optimal"]), ("pig", ["hold-at-20"]), ("despirala", []),
                                       ("farkle(goal=1000,floor=-500)", ["bank-at-300"])])
def test_a_double_tap_plays_one_move(page, server, monkeypatch, game, bots):
    """At a table a finger lands twice: every control that sends a move, tapped twice on the same spot 50 to
    250 ms apart on a touch phone, plays one move (the second tap hits the board already answered, or the next
    one a moment after it appeared: neither plays)."""
    import random

    from dicesolver.web import sessions

    applied: list[str] = []
    drive = sessions.PlaySession._drive
    monkeypatch.setattr(sessions.PlaySession, "_drive",
                        lambda self, line: (line is not None and applied.append(line), drive(self, line))[-1])
    phone = page.context.browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True, has_touch=True)
    phone.set_default_timeout(60_000)
    phone.goto(server)
    phone.wait_for_function("document.querySelectorAll('#play-game option').length > 5")
    base, _, rules = game.partition("(")
    open_setup(phone)
    phone.select_option("#play-game", base)
    for rule in filter(None, rules.rstrip(")").split(",")):
        key, value = rule.split("=")
        phone.fill(f"#play-game-variants [data-key='{key}']", value)
    phone.select_option("#play-bots", bots)
    phone.select_option("#play-first", "you")
    phone.fill("#play-seed", "21")
    phone.set_checked("#play-manual", False)
    press_start(phone)
    rng = random.Random(game)
    taps = 0
    while taps < 12:
        session = settled(phone)
        if session["over"]:
            break
        button = phone.locator(a_move_button(phone, session["board"], rng)).first
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        before = len(applied)
        phone.touchscreen.tap(x, y)
        phone.wait_for_timeout(rng.randint(50, 250))
        phone.touchscreen.tap(x, y)
        settled(phone)
        assert len(applied) == before + 1, (game, applied[before:])
        taps += 1
    assert taps >= 6, f"{game}: the game ended after {taps} moves"
    phone.close()


def test_play_a_whole_game_against_a_bot_then_review_it(page, tmp_path):
    play_by_clicking(page, "pig", ["hold-at-20"], 11)
    page.wait_for_selector("#play-review .summary")
    summary = page.inner_text("#play-review .summary")
    assert re.search(r"You lost \d+\.\d percentage points to mistakes; the dice gave you [+−]?\d+\.\d", summary), summary
    assert page.locator("#play-review img.plot").evaluate("img => img.complete && img.naturalWidth > 300")
    snapshot(page, "play", tmp_path)
    page.click(".tab[data-page='review']")
    page.click("#refresh-records")
    page.wait_for_selector("#records button")
    listed = page.inner_text("#records li")
    assert re.search(r"pig: you \d+, hold-at-20 \d+ — (you|hold-at-20) won", listed), listed
    # one review per player, named (the newest record first; earlier tests' records may be listed after it)
    newest = page.locator("#records li").first
    assert newest.locator("button").count() == 2
    newest.locator("button", has_text="hold-at-20's").click()
    page.wait_for_selector("#review-out .review-cards li", state="attached")
    assert "Review of hold-at-20's game" in page.inner_text("#review-out")
    newest.locator("button", has_text="yours").click()
    page.wait_for_function("document.querySelector('#review-out').innerText.includes('Review of your game')")
    with page.expect_download() as download:  # the game as its record, opened again by the upload
        newest.locator("a.download").click()
    record = tmp_path / download.value.suggested_filename
    download.value.save_as(record)
    assert record.name.endswith(".jsonl") and record.read_text().count("\n") > 3
    page.evaluate("document.getElementById('review-out').innerHTML = ''")
    page.set_input_files("#upload", str(record))
    page.wait_for_selector("#review-out .review-cards li", state="attached")
    cards = page.locator("#review-out .review-cards li")
    assert cards.count() > 2
    losses = [float(x.split("−")[-1]) if "−" in x else 0.0 for x in cards.locator(".chip").all_text_contents()]
    assert losses == sorted(losses, reverse=True)  # the costliest decision first, the ones played best folded last
    snapshot(page, "review", tmp_path)


@pytest.mark.parametrize("game,bots,seed", [("yacht", [], 4), ("despirala", [], 2), ("kcd", ["bank-at-300"], 3)])
def test_a_whole_game_on_the_drawn_board(page, tmp_path, game, bots, seed):
    play_by_clicking(page, game, bots, seed)
    page.wait_for_selector("#play-review .summary")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1200  # the review fits the window
    snapshot(page, f"board-{game}", tmp_path)


@pytest.mark.essay
def test_a_whole_two_person_generala_game_against_malina_on_the_board(page, tmp_path):
    """Two-person Generala against the perfect player (the full table: `make test-essay`). The page shows
    the table's progress bar while it is solved, then the game goes on by itself."""
    page.set_default_timeout(900_000)
    try:
        play_by_clicking(page, "generala", ["malina"], 7)
    finally:
        page.set_default_timeout(60_000)
    page.wait_for_selector("#play-review .summary")
    assert "equity" in page.inner_text("#play-review")


def test_the_board_on_a_phone_with_hints_and_no_console_errors(page, server, tmp_path):
    phone = page.context.browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
    errors: list[str] = []
    phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    phone.on("pageerror", lambda e: errors.append(str(e)))
    phone.set_default_timeout(60_000)
    phone.goto(server)
    phone.wait_for_function("document.querySelectorAll('#play-game option').length > 5")
    start_game(phone, "yacht", [], 9)
    phone.wait_for_selector("#board .bdie[data-die]")
    phone.wait_for_selector("#board .hint-best")  # the hint is on from the start
    assert re.fullmatch(r"best \d+\.\d\d pts", phone.inner_text("#board .hint-best"))  # with its unit
    assert re.fullmatch(r"−\d+\.\d\d pts", phone.locator("#board .hint-cost").first.inner_text())
    assert "points expected" in phone.get_attribute("#board .hint-best", "title")  # and in words
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    snapshot(phone, "board-phone", tmp_path)
    phone.keyboard.press("?")  # off, and remembered across a reload
    phone.wait_for_selector("#board .hint-best", state="detached")
    phone.reload()
    phone.wait_for_selector("#board .bdie[data-die]")
    assert not phone.evaluate("board.hint") and phone.locator("#board .hint-best").count() == 0
    phone.keyboard.press("?")
    phone.wait_for_selector("#board .hint-best")
    phone.close()
    assert not errors


def test_a_reload_shows_the_same_game_at_the_same_prompt(page, server):
    """The game's id is in the page's address (and local storage): a reload, or the address opened in a new
    visit, reattaches to the game in play with its board, its history and the dice picked out to hold. Another
    browser (a phone beside this one) given the same address sees no game: games belong to their browser."""
    start_game(page, "yacht", [], 13)
    page.wait_for_selector("#board .bdie[data-die]")
    page.click("#board [data-die='0']")
    page.click("#board [data-roll]")
    page.wait_for_function("state.session && !state.sending && !state.session.busy && state.session.prompt")
    page.click("#board [data-die='1']")
    page.keyboard.press("4")
    before = page.evaluate("state.session")
    assert page.url.endswith(f"#play/{before['id']}")
    page.reload()
    page.wait_for_function("(id) => state.session && state.session.id === id && state.session.board", arg=before["id"])
    after = page.evaluate("state.session")
    assert after["board"]["position"] == before["board"]["position"] and after["transcript"] == before["transcript"]
    page.wait_for_selector("#board .bdie[data-die]")
    held = page.locator("#board .bdie.held")
    assert [held.nth(i).get_attribute("data-die") for i in range(held.count())] == ["1", "3"]  # as picked
    assert "Roll 3 · " in page.inner_text("#board")  # the three dice not held
    address = page.url
    page.goto("about:blank")  # the page closed, and the address opened again
    page.goto(address)
    page.wait_for_function("(id) => state.session && state.session.id === id", arg=before["id"])
    assert page.evaluate("state.session.board.position") == before["board"]["position"]
    other = page.context.browser.new_page(bypass_csp=True)  # another browser: its own cookies
    other.goto(address)
    other.wait_for_function("document.querySelectorAll('#play-game option').length > 5")
    time.sleep(0.5)
    assert other.evaluate("state.session") is None and not other.url.endswith(before["id"])
    other.close()


def test_after_a_reload_the_controls_describe_the_game_in_play(page, server):
    """The Game list and the Bots list are the game's own after a reload (they were Pig's: the page's default)."""
    start_game(page, "yacht", ["greedy"], 3)
    page.wait_for_function("state.session && state.session.board")
    page.reload()
    page.wait_for_function("state.session && state.session.board")
    assert page.input_value("#play-game") == "yacht"
    bots = page.eval_on_selector_all("#play-bots option", "options => options.map((o) => o.value)")
    assert bots == page.evaluate("state.games.yacht.bots") and "hold-at-20" not in bots
    size = page.evaluate("document.getElementById('play-bots').size")  # the list shows its choices
    assert size >= min(6, len(bots))


def small_controls(page) -> list:
    """The board's controls (and the tabs, and the row of commands) a thumb could miss: under 44 x 44 px."""
    return page.evaluate("""() => [...document.querySelectorAll('#board button, #quick button, .tab, #board label')]
        .filter((e) => e.offsetParent !== null)
        .map((e) => [e.outerHTML.slice(0, 60), e.getBoundingClientRect()])
        .filter(([, r]) => Math.round(r.width) < 44 || Math.round(r.height) < 44)""")


def test_two_cards_with_the_upper_bonus_fit_a_phone(page, server):
    """Yahtzee against the optimal bot at 390 px: both players' columns, with their upper-bonus bars and
    notes, within the phone's width (they made the page 470 px wide)."""
    phone = open_phone(page, server)
    start_game(phone, "yahtzee", ["optimal"], 8)
    phone.wait_for_selector("#board .hint-cost")
    assert phone.locator("#board .upper-note").count() == 2
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.close()


def test_a_game_in_play_has_the_phone_screen_to_itself(page, server):
    """At 390x844: once a game starts its setup folds to one line, the dice and the whole 13-box card are on
    one screen, and New game asks before it leaves the game in play (which stays saved)."""
    phone = open_phone(page, server)
    start_game(phone, "yahtzee", [], 8)
    phone.wait_for_selector("#board .bdie[data-die]")
    assert phone.is_hidden("#setup")
    phone.click("#board [data-die='3']")  # picked out (raised), and announced as held
    assert phone.get_attribute("#board [data-die='3']", "aria-pressed") == "true"
    assert phone.get_attribute("#board [data-die='2']", "aria-pressed") == "false"
    note = phone.inner_text("#board .upper-note")  # the upper bonus: what is still needed, against par
    assert "63 to go" in note and "par" in note
    bar, fill = (phone.locator(f"#board .bar{inner}").first.bounding_box() for inner in ("", " > span"))
    assert abs(fill["x"] - bar["x"]) < 1  # it fills from the left
    total = phone.locator("#board tr.total").bounding_box()
    assert phone.locator("#board .bdie[data-die]").first.bounding_box()["y"] > 0
    assert total["y"] + total["height"] <= 844, total  # the card's last row without scrolling
    phone.wait_for_selector("#board .hint-best")
    small = small_controls(phone)
    assert not small, small  # every control of the board a thumb can hit
    phone.click("#board [data-show-all='1']")  # every option, its value and cost
    options = phone.locator("#board .options-table tr")
    assert options.count() - 1 == len(phone.evaluate("board.advice.options")) > 20
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    first = phone.evaluate("state.session.id")
    open_setup(phone)
    phone.click("#play-start")  # asks first: nothing started, nothing dropped
    phone.wait_for_selector("#confirm-start")
    assert phone.evaluate("state.session.id") == first
    phone.click("#confirm-cancel")
    assert phone.locator("#confirm-start").is_hidden() and phone.evaluate("state.session.id") == first
    phone.close()


def test_a_first_game_shows_its_progress_at_once(page, server, tmp_path, monkeypatch):
    """A game whose tables are not built yet says so as soon as New game is pressed (the table's bar follows
    when the solve takes more than a moment), and its board comes when they are."""
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))  # no table built yet
    open_setup(page)
    page.select_option("#play-game", "yacht-dice")
    page.select_option("#play-bots", ["greedy"])
    press_start(page)
    assert page.evaluate("!document.getElementById('progress').hidden")
    assert "yacht" in page.inner_text("#progress-label").lower()
    page.wait_for_function("state.session && state.session.game === 'yacht-dice' && state.session.board")
    page.wait_for_function("document.getElementById('progress').hidden")


def test_any_answer_that_keeps_the_page_waiting_shows_a_bar_within_a_second(page):
    """However a request waits (a table loading, a slow network), a moving bar shows within a second; it
    goes when the answer comes."""
    shown, hidden_after = page.evaluate("""async () => {
        const real = window.fetch;
        window.fetch = (...args) => new Promise((r) => setTimeout(r, 1500)).then(() => real(...args));
        try {
            const call = api("GET", "/api/games");
            await new Promise((r) => setTimeout(r, 700));
            const shown = !document.getElementById("progress").hidden;
            await call;
            return [shown, document.getElementById("progress").hidden];
        } finally { window.fetch = real; }
    }""")
    assert shown and hidden_after


def test_an_unfinished_game_is_continued_from_the_list(page, server):
    start_game(page, "pig", ["hold-at-20"], 21)
    page.wait_for_function("state.session && state.session.board && state.session.board.actions.length")
    page.keyboard.press("r")
    page.wait_for_function("state.session && !state.sending && !state.session.busy && state.session.prompt")
    game = page.evaluate("state.session")
    page.click("#quick button[data-line='quit']")  # stopped: saved, and listed as unfinished
    page.wait_for_function("state.session.stopped")
    page.click(".tab[data-page='advisor']")
    page.click(".tab[data-page='play']")
    page.wait_for_selector(f"#unfinished button[data-resume='{game['record']}']")
    page.click(f"#unfinished button[data-resume='{game['record']}']")
    page.wait_for_function("(name) => state.session && state.session.record === name && state.session.board && "
                           "!state.session.stopped", arg=game["record"])
    assert page.evaluate("state.session.board.position") == game["board"]["position"]


def test_the_advisor_card_keeps_its_sums_and_bonuses(page):
    """The upper section's sum towards the bonus and the total follow the typed boxes; extra-yacht bonuses are
    typed too (the position says bonus=N); scoring a box that reaches the bonus puts the box's own points in
    it, not the bonus."""
    page.evaluate("localStorage.removeItem('dicesolver.advisor')")  # a browser that kept no Advisor card
    page.goto(page.url.split("#")[0])  # a fresh page on the Advisor tab (a game in play would reattach)
    page.wait_for_function("document.querySelectorAll('#advisor-game option').length > 5")
    page.click(".tab[data-page='advisor']")
    page.select_option("#advisor-game", "yahtzee")
    for cat, value in (("Aces", 3), ("Twos", 6), ("Threes", 9), ("Fours", 12), ("Fives", 25), ("Yahtzee", 50)):
        page.fill(f"#card input[aria-label='{cat}']", str(value))  # fives=25: where an extra yahtzee went
    assert page.inner_text("#upper-sum") == "55 / 63 (8 to the bonus)"
    page.fill("#extras", "1")
    assert page.inner_text("#card-total") == str(55 + 50 + 100)
    assert "bonus=100" in page.inner_text("#position-text")
    for face in "66662":
        page.click(f"#faces .die[data-face='{face}']")
    page.select_option("#rolls-left", "0")
    page.click("#advise")
    page.wait_for_selector("#advice-table tr.best")
    page.locator("#advice-table tr.clickable", has_text="score sixes").click()
    assert page.input_value("#card input[aria-label='Sixes']") == "24"
    assert page.inner_text("#upper-sum") == "79 / 63 (+35 bonus)"
    assert page.inner_text("#card-total") == str(79 + 35 + 50 + 100)


def test_the_advisor_dice_are_reachable_by_keyboard(page):
    """Faces and tray dice are buttons (Enter adds and removes them), and the drawn board's shortcuts stay
    on the Play page: Enter in the Advisor never throws the dice of a game in play on the other tab."""
    start_game(page, "yacht", [], 5)
    page.wait_for_function("state.session && state.session.prompt")
    before = page.evaluate("state.session.transcript")
    page.click(".tab[data-page='advisor']")
    page.select_option("#advisor-game", "yacht")
    page.click("#clear-dice")
    for face in "123":
        page.press(f"#faces .die[data-face='{face}']", "Enter")
    assert page.inner_text("#position-text").startswith("/123/")
    page.press("#tray .die[data-index='1']", "Enter")  # remove the 2 by keyboard
    assert page.inner_text("#position-text").startswith("/13/")
    page.keyboard.press("r")
    time.sleep(0.5)
    assert page.evaluate("state.session.transcript") == before  # the game on the Play tab did not move


def own_dice_game_on_a_phone(page, server, game: str, bots: list[str] | None = None):
    """A 390x844 phone starting ``game`` (a game string: its variants set on the page's picker) with my own
    dice, against ``bots`` (the game's default without), me first, its page returned."""
    base, _, rules = game.partition("(")
    phone = open_phone(page, server)
    open_setup(phone)
    phone.select_option("#play-game", base)
    for rule in filter(None, rules.rstrip(")").split(",")):
        key, value = rule.split("=")
        phone.fill(f"#play-game-variants [data-key='{key}']", value)
    phone.select_option("#play-bots", bots or [])
    phone.select_option("#play-first", "you")
    phone.fill("#play-seed", "5")  # the bots' dice: the same game every run (a bot's first turn could end it)
    phone.check("#play-manual")
    press_start(phone)
    return phone


@pytest.mark.parametrize("game,bots", [("yahtzee", []),
                                       pytest.param("generala", ["malina"], marks=pytest.mark.essay)])
def test_keeping_every_die_with_my_own_dice_is_no_dead_end(page, server, game, bots):
    """On a phone with my own dice: a throw entered by taps, then every die kept (as a 'keep all five' hint
    says). The game goes straight on to the next keep with one throw fewer; it used to ask for 'the 0 dice
    you threw' for ever (Yahtzee alone; Generala against Malina, the two-person table: `make test-essay`)."""
    phone = own_dice_game_on_a_phone(page, server, game, bots)
    phone.set_default_timeout(900_000 if bots else 60_000)  # the two-person table is solved first
    phone.wait_for_function("state.session && state.session.board && !state.session.busy && state.session.prompt")
    for face in (6, 6, 6, 1, 2):
        phone.click(f"#board .pad-face[data-enter='{face}']")
    phone.click("#board .pad-done")
    phone.wait_for_function("state.session.board.actions.length > 0 && !state.session.busy")
    phone.evaluate("sendLine('keep 12666')")
    phone.wait_for_function("!state.sending && !state.session.busy && state.session.board.view.rolls_left === 1")
    board = phone.evaluate("state.session.board")
    assert board["actions"] and sorted(board["view"]["dice"]) == [1, 2, 6, 6, 6]
    assert phone.locator("#board .pad-face").count() == 0  # no dice asked for
    assert "throw left" in phone.evaluate("state.session.prompt")
    phone.close()


def test_a_whole_game_with_my_own_dice_on_a_phone(page, server, tmp_path):
    """At the table with real dice, on a 390x844 phone: each throw entered by tapping its faces, the advice
    one tap away and the same as the library's for every position, the best option taken by one tap, the
    scorecard always in view without scrolling sideways, until the game is over."""
    import random

    import dicesolver

    phone = own_dice_game_on_a_phone(page, server, "yacht")
    phone.wait_for_function("state.session && state.session.board")
    assert phone.is_checked("#hint-toggle")  # the hint is on from the start
    rng = random.Random(2026)
    throws = 0
    for _ in range(200):
        session = settled(phone)
        board = session["board"]
        check_the_board(phone, board)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        if session["over"]:
            break
        view = board["view"]
        if not board["actions"]:  # our throw: tap the faces of the dice thrown, then confirm
            count = view["n_dice"] - len(view["held"])
            assert board["request"]["dice"] == count, (board["request"], view)
            assert phone.locator("#board .pad-face").count() == 6
            thrown = [rng.randint(1, 6) for _ in range(count)]
            for face in thrown:
                phone.click(f"#board .pad-face[data-enter='{face}']")
            if throws == 3:  # the picture in the README: a throw entered, the card below
                snapshot(phone, "phone-own-dice", tmp_path)
            box = phone.locator("#board .pad-face").first.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44  # thumb-sized
            phone.click("#board .pad-done")
            phone.wait_for_function("(p) => state.session.board && state.session.board.position !== p && "
                                    "!state.session.busy", arg=board["position"])
            shown = phone.evaluate("state.session.board.view.dice")
            assert sorted(shown) == sorted(view["held"] + thrown)
            throws += 1
            continue
        phone.wait_for_function("(p) => board.adviceFor === p + '|'", arg=board["position"])
        advice = phone.evaluate("board.advice")
        library = dicesolver.advise("yacht", board["position"])
        assert [o["action"] for o in advice["options"]] == [o.action for o in library.options]
        assert all(abs(a["value"] - o.value) < 1e-9 and abs(a["cost"] - o.cost) < 1e-9
                   for a, o in zip(advice["options"], library.options))
        best = advice["options"][0]
        if best["kind"] == "keep":  # one tap on the best keep in the hint line
            phone.click(f"#board .board-hint button[data-line='{best['action']}']")
        else:
            phone.click(f"#board button.score[data-line='{best['action']}']")
    else:
        raise AssertionError("the game did not end")
    assert throws >= 12
    phone.close()


def tap_a_move(phone, board: dict, rng) -> None:
    """One move by taps alone: the faces of my own throw (or its outcome) on the pad, then Done; else a button."""
    request = board["request"]
    if request and request["dice"]:
        assert phone.locator("#board .pad-face").count() == request["faces"]
        for _ in range(request["dice"]):
            phone.click(f"#board .pad-face[data-enter='{rng.randint(1, request['faces'])}']")
        phone.click("#board .pad-done")
    elif request:
        choices = phone.locator("#board .pad-choices button")
        assert choices.count() == len(request["choices"])
        choices.nth(rng.randrange(choices.count())).click()
    elif board["family"] == "scorecard" and board["view"]["rolls_left"] > 0 and rng.random() < 0.5:
        phone.click("#board [data-roll]")
    else:
        view = board["view"]
        enough = 300 if board["family"] == "farkle" else 20  # a turn total worth keeping
        moves = [a for a in board["actions"]
                 if not (a["kind"] in ("hold", "bank") and view.get("turn_total", 999) < enough)] or board["actions"]
        phone.click(f"#board button[data-line='{rng.choice(moves)['action']}']")


@pytest.mark.parametrize("game", ["skunk", "farkle(goal=1000,floor=-500)", "despirala"])
def test_a_whole_game_with_my_own_dice_by_taps_alone(page, server, game):
    """Every family's own dice on the board (Skunk's two dice, Farkle's six or fewer, Despirala's throws and
    its outcomes by name): a whole game against the default bot played by taps alone, nothing typed, within
    the phone's width."""
    import random

    phone = own_dice_game_on_a_phone(page, server, game)
    rng = random.Random(53)
    requests = 0
    for _ in range(1500):
        session = settled(phone)
        board = session["board"]
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        assert not small_controls(phone)
        if session["over"]:
            break
        assert board["actions"] or board["request"], session["prompt"]
        if board["family"] == "farkle":  # a bank's bar is empty at 0 and below (it used to start at the floor)
            fills = phone.eval_on_selector_all("#board .bank .bar > span:first-child", "s => s.map((e) => e.style.width)")
            assert [w == "0%" for w in fills] == [score <= 0 for score in board["view"]["scores"]], fills
        if board["actions"] and game != "despirala":  # the chance of winning, in words
            phone.wait_for_selector("#board .chance")
            assert re.search(r"you win \d+\.\d% of games from here", phone.inner_text("#board .chance"))
        if board["request"]:
            requests += 1
            assert board["request"]["prompt"].rstrip(": ?").lower() in phone.inner_text("#board .dice-pad").lower()
        tap_a_move(phone, board, rng)
    else:
        raise AssertionError(f"{game}: the game did not end")
    assert requests >= 3
    assert "game over" in phone.inner_text("#board")
    phone.wait_for_selector("#play-review .review-cards li", state="attached")  # its review fits the phone too
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.close()


def test_the_advisor_on_a_phone(page, server):
    """The Advisor at 390x844: thumb-sized dice to enter a throw, the card and the ranked options without
    scrolling sideways, and an option applied with one tap."""
    phone = open_phone(page, server)
    phone.select_option("#advisor-game", "yacht")
    face = phone.locator("#faces .die").first.bounding_box()
    assert face["width"] >= 44 and face["height"] >= 44
    for f in "11345":
        phone.click(f"#faces .die[data-face='{f}']")
    phone.click("#advise")
    phone.wait_for_selector("#advice-table tr.best")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    best = phone.inner_text("#advice-table tr.best td:nth-child(2)")
    phone.click("#advice-table tr.best")  # one tap applies it: the dice kept, a throw fewer
    assert phone.inner_text("#position-text").startswith("/" + best.split()[-1] + "/")
    boxes = phone.locator("#card input[data-cat]")  # a long position: most boxes filled
    for i in range(boxes.count() - 2):
        boxes.nth(i).fill("0")
    assert len(phone.inner_text("#position-text")) > 80, phone.inner_text("#position-text")
    for f in "66":
        phone.click(f"#faces .die[data-face='{f}']")
    phone.click("#advise")
    phone.wait_for_selector("#advice-table tr.best")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # the text wraps; the page does not widen
    phone.close()


def test_why_the_best_is_the_best_on_a_phone(page, server, tmp_path):
    """A tap on "why" in the Advisor and on the board's hint: where the best option's points come from against
    the second's (or the one picked), box by box, and the spread of each; all on a phone's width."""
    phone = open_phone(page, server)
    phone.select_option("#advisor-game", "yacht")
    for f in "13456":
        phone.click(f"#faces .die[data-face='{f}']")
    phone.click("#advise")
    phone.wait_for_selector("#advice-table tr.best")
    phone.click("#why-button")
    phone.wait_for_selector("#why-area .why-table td")
    text = phone.inner_text("#why-area")
    assert "points more on average" in text and "standard deviation" in text
    assert " beats " in phone.inner_text("#why-area .why-reason")  # the main reason first, in one sentence
    assert re.search(r"\d+\.\d\d \((\d+%|about 1 in [\d,]+)\)", text)  # a prize's chance beside its points
    versus = phone.locator("#why-area select.why-versus")
    assert versus.bounding_box()["height"] >= 44
    last = versus.locator("option").last.get_attribute("value")
    versus.select_option(last)  # set against the worst option instead: the panel is drawn again for it
    phone.wait_for_function("(v) => document.querySelector('#why-area select.why-versus')?.value === v", arg=last)
    assert phone.inner_text("#why-area") != text
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    snapshot(phone, "why-phone", tmp_path)
    start_game(phone, "yacht", [], 9)
    phone.click("#board button[data-why]")
    phone.wait_for_selector("#board .why-table td")
    assert "points more on average" in phone.inner_text("#board .why")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    snapshot(phone, "why-board-phone", tmp_path)
    # a two-person equity: the panel the page draws for it, the points as if alone beside the equity
    text = phone.evaluate("""async (position) => {
        const area = document.createElement("div");
        document.getElementById("board").appendChild(area);
        await explainInto(area, "yacht", position);
        return area.innerText; }""", TWO_PERSON_END)
    assert "more equity; as if alone it scores" in text and "where the points come from, as if alone" in text, text
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.close()


def test_the_page_works_under_its_content_security_policy(page, server):
    """The app's own page with its CSP in force (no eval, no inline script, no third-party code): the games
    load, the API's page lists it, and no violation is reported."""
    strict = page.context.browser.new_page(viewport={"width": 390, "height": 844})
    problems: list[str] = []
    strict.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    strict.on("pageerror", lambda e: problems.append(str(e)))
    strict.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    strict.goto(server)
    strict.wait_for_selector("#advisor-game option:nth-child(6)", state="attached")
    strict.goto(server + "/docs")
    strict.wait_for_selector("#endpoints .endpoint", state="attached")
    strict.close()
    assert not problems, problems


def serious_violations(page) -> list[str]:
    """axe-core's scan of the page as it is now: each serious or critical violation, with where it is."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def test_a_training_session_on_a_phone(page, server, tmp_path):
    """The Train tab at 390x844: five positions answered by taps (the best, then the worst, in turn), each
    judged with its cost, the best and why; then the session's proficiency and its plot; nothing wider than
    the phone, every tap target 44 px, and no serious accessibility violation."""
    phone = page.context.browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
    phone.set_default_timeout(60_000)
    phone.goto(server)
    phone.wait_for_function("document.querySelectorAll('#train-game option').length > 5")
    phone.click(".tab[data-page='train']")
    phone.select_option("#train-game", "yacht")
    phone.select_option("#train-count", "5")
    phone.click("#train-go")
    for i in range(5):
        phone.wait_for_selector("#train-out [data-answer]:not([disabled])")
        assert f"question {i + 1} of 5" in phone.inner_text("#train-out")
        answers = phone.locator("#train-out [data-answer]")
        assert min(answers.nth(k).bounding_box()["height"] for k in range(answers.count())) >= 44
        answers.nth(0 if i % 2 == 0 else answers.count() - 1).click()
        phone.wait_for_selector("#train-next")
        verdict = phone.inner_text("#train-verdict")
        assert "The best" in verdict or ("costs" in verdict and "points more on average" in verdict), verdict
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        if i == 1:
            snapshot(phone, "train-phone", tmp_path)
            assert not serious_violations(phone)
        phone.click("#train-next")
    phone.wait_for_selector("#train-out img.plot")
    assert "5 decisions: a mean loss of" in phone.inner_text("#train-out")
    assert re.search(r"Rating: (world class|expert|advanced|intermediate|casual|beginner) \(as \d+\.\d{3} a decision",
                     phone.inner_text("#train-out .rating"))
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.close()


def test_every_tab_passes_an_accessibility_scan(page, server):
    """axe-core on each tab, on a phone, with something on it (advice, a game's board with my own dice and
    with drawn dice, a review, a chart): no serious or critical violation."""
    phone = own_dice_game_on_a_phone(page, server, "yacht")
    phone.wait_for_selector("#board .pad-face")
    found = {"play, my own dice": serious_violations(phone)}
    start_game(phone, "yacht", [], 5)
    phone.wait_for_selector("#board .hint-best")
    found["play, the board"] = serious_violations(phone)
    phone.click(".tab[data-page='advisor']")
    for f in "11345":
        phone.click(f"#faces .die[data-face='{f}']")
    phone.click("#advise")
    phone.wait_for_selector("#advice-table tr.best")
    phone.click("#why-button")
    phone.wait_for_selector("#why-area .why-table td")
    found["advisor, with why"] = serious_violations(phone)
    phone.click(".tab[data-page='explore']")
    phone.select_option("#explore-game", "pig")
    phone.click("#explore-go")
    phone.wait_for_selector("#explore-out img.plot")
    phone.wait_for_function("document.querySelector('#explore-out img.plot').complete")
    shown, natural = phone.evaluate("""() => { const img = document.querySelector('#explore-out img.plot');
        return [img.getBoundingClientRect().width, [img.naturalWidth, img.naturalHeight]]; }""")
    assert shown <= 390 and natural[0] >= 2 * shown - 80  # drawn for the phone (twice the pixels), not shrunk
    assert natural[1] > 2 * natural[0]  # the chart's three panels one under the other
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    found["explore"] = serious_violations(phone)
    start_game(phone, "pig", ["hold-at-20"], 3)  # a finished game to review, played quickly by the page itself
    phone.evaluate("""async () => {
        for (let i = 0; i < 500 && !state.session.over; i++) {
            while (state.session.busy || state.sending) await new Promise((r) => setTimeout(r, 20));
            const b = state.session.board;
            if (state.session.over) break;
            await sendLine(b.throw ? "" : b.view.turn_total >= 20 ? "h" : "r");
        }
    }""")
    phone.click(".tab[data-page='review']")
    phone.click("#refresh-records")
    phone.wait_for_selector("#records li button")
    phone.locator("#records li button").first.click()
    phone.wait_for_selector("#review-out .review-cards li", state="attached")
    phone.locator("#review-out button[data-why-position]").first.click()  # a costly decision's why, on a tap
    phone.wait_for_selector("#review-out .why-table td")
    assert "how the game is won" in phone.inner_text("#review-out .why")
    found["review, with a why"] = serious_violations(phone)
    phone.close()
    assert not any(found.values()), found


def test_a_whole_game_by_keyboard_alone(page, server):
    """No pointer: dice held with 1-5, r rolls, Tab reaches a box and Enter scores it, and after each move the
    focus stays on the board (it used to drop to the page: ten Tabs back to the first box)."""
    import random

    rng = random.Random(7)
    start_game(page, "yacht", [], 21)
    page.wait_for_selector("#board button")
    page.focus("#board button")  # a keyboard user's first Tab into the board
    tabs = 0
    for _ in range(300):
        session = settled(page)
        board = session["board"]
        if session["over"]:
            break
        if board["throw"]:
            page.keyboard.press("Enter")  # the focus is on Throw (or on the page: Enter throws)
            continue
        if board["view"]["rolls_left"] > 0 and rng.random() < 0.6:
            for i in range(5):
                if rng.random() < 0.4:
                    page.keyboard.press(str(i + 1))
            page.keyboard.press("r")
            continue
        for _ in range(40):  # Tab to the next box to score
            page.keyboard.press("Tab")
            tabs += 1
            if page.evaluate("document.activeElement.classList.contains('score')"):
                break
        else:
            raise AssertionError(f"no box reached by Tab: {page.evaluate('document.activeElement.outerHTML.slice(0, 80)')} {board}")
        page.keyboard.press("Enter")
    else:
        raise AssertionError("the game did not end")
    assert "game over" in page.inner_text("#board")
    assert tabs < 13 * 12, tabs  # the focus stayed near the boxes
    page.focus(".tab[data-page='play']")  # the tabs: arrows move along them
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.page") == "review"
    assert page.get_attribute(".tab[data-page='review']", "aria-selected") == "true"
    page.keyboard.press("ArrowLeft")
    assert page.is_visible("#board")


def test_offline_the_page_still_opens_and_says_the_game_is_saved(page, server):
    """The service worker keeps the page's shell: with the network gone a reload still shows the app, an
    action says the server is not reachable and the game is saved, and Try again works once it is back."""
    context, phone = phone_in_context(page, server)
    phone.evaluate("navigator.serviceWorker.ready.then(() => true)")
    phone.reload()  # now under the worker's control
    phone.wait_for_function("navigator.serviceWorker.controller !== null")
    context.set_offline(True)
    phone.reload()
    phone.wait_for_selector("#advise")  # the shell, from the worker's cache
    phone.wait_for_function("document.getElementById('message').innerText.includes('not reachable')")
    assert "your game is saved" in phone.inner_text("#message")
    context.set_offline(False)
    phone.click("#retry")  # the games list loads, and the message goes
    phone.wait_for_function("document.querySelectorAll('#advisor-game option').length > 5")
    assert phone.is_hidden("#message")
    context.close()


def test_without_a_service_worker_an_open_page_still_says_the_game_is_saved(page, server):
    """Over the LAN (plain http at a LAN address is not a secure context: no service worker) the page in
    memory still works through a lost connection: an action says the server is not reachable and the game
    is saved, and Try again carries on once it is back (dicesolver/docs/WEB.md says what a reload does there)."""
    context, phone = phone_in_context(page, server, service_workers="block")
    assert phone.evaluate("navigator.serviceWorker === undefined || navigator.serviceWorker.controller === null")
    start_game(phone, "yacht", [], 6)
    phone.wait_for_selector("#board .hint-best")
    position = phone.evaluate("state.session.board.position")
    context.set_offline(True)
    phone.locator("#board button[data-line]").first.click()
    phone.wait_for_function("document.getElementById('message').innerText.includes('not reachable')")
    assert "your game is saved" in phone.inner_text("#message")
    assert phone.evaluate("state.session.board.position") == position  # nothing applied, nothing lost
    context.set_offline(False)
    phone.click("#retry")
    phone.wait_for_function("(p) => state.session.board.position !== p", arg=position)
    assert phone.is_hidden("#message")
    context.close()


def test_dark_mode_follows_the_system_and_passes_the_scan(page, server):
    """With the system in dark mode the page is dark, and its colours still pass axe's contrast checks."""
    context, phone = phone_in_context(page, server, color_scheme="dark")
    start_game(phone, "yacht", [], 6)
    phone.wait_for_selector("#board .hint-best")
    background = phone.evaluate("getComputedStyle(document.body).backgroundColor")
    assert sum(map(int, re.findall(r"\d+", background)[:3])) < 150, background
    assert not serious_violations(phone)
    context.close()


def all_violations(page) -> list[str]:
    """axe-core's scan, every violation of any impact (heading order included)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}) at {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"]]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_tab_fits_a_phone_at_twice_the_text_size_and_passes_the_scan(page, server, scheme):
    """At 390 px with the text at 200% (the root font size doubled, as a phone's text setting does), no tab
    scrolls sideways: the Advisor with its advice, a two-player board, Explore's odds (a wide table scrolls
    in its own box), the trainer. Each, at the usual size, passes axe with no violation at all, in light and
    dark mode (headings in order: a phone's hidden tab headings stay for screen readers)."""
    context, phone = phone_in_context(page, server, color_scheme=scheme)
    wide, found = {}, {}

    def check(name: str) -> None:
        found[name] = all_violations(phone)
        phone.evaluate("document.documentElement.style.fontSize = '200%'")
        phone.wait_for_timeout(100)
        width = phone.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[name] = width
        phone.evaluate("document.documentElement.style.fontSize = ''")

    every_tab_with_content(phone, check)
    context.close()
    assert not wide, wide
    assert not any(found.values()), found


def every_tab_with_content(phone, check) -> None:
    """Each tab with what makes it widest: the Advisor with its advice, a two-player board with its hints,
    Explore's odds table, a training question; ``check(name)`` at each."""
    phone.click(".tab[data-page='advisor']")
    phone.select_option("#advisor-game", "yahtzee")
    for f in "11345":
        phone.click(f"#faces .die[data-face='{f}']")
    phone.click("#advise")
    phone.wait_for_selector("#advice-table tr.best")
    check("advisor")
    start_game(phone, "yahtzee", ["optimal"], 8)
    phone.wait_for_selector("#board .hint-cost")
    check("play, two cards")
    phone.click(".tab[data-page='explore']")
    phone.select_option("#explore-game", "yacht")
    phone.click("#explore-go")
    phone.wait_for_selector("#explore-out .table-scroll td")
    check("explore")
    phone.click(".tab[data-page='train']")
    phone.select_option("#train-game", "yacht")
    phone.select_option("#train-count", "5")
    phone.click("#train-go")
    phone.wait_for_selector(".train-options button")
    check("train")


def test_a_variant_is_picked_on_the_page_and_kept_after_a_reload(page, server):
    """Any game string the command line takes, picked from the rules the registry lists beside each game: a
    Pig to 50 with a seven-sided die played, the controls the same after a reload; the Advisor on Yahtzee with
    the free joker asks for that game."""
    open_setup(page)
    page.select_option("#play-game", "pig")
    assert page.locator("#play-game-variants [data-key]").count() == 2  # goal, faces
    page.fill("#play-game-variants [data-key='goal']", "50")
    page.fill("#play-game-variants [data-key='faces']", "7")
    page.select_option("#play-bots", ["hold-at-20"])
    page.select_option("#play-first", "you")
    before = page.evaluate("state.session && state.session.id")
    press_start(page)
    page.wait_for_function("(old) => state.session && state.session.id !== old && state.session.board", arg=before)
    assert page.evaluate("state.session.game") == "pig(faces=7,goal=50)"
    assert page.evaluate("state.session.board.view.goal") == 50
    page.reload()
    page.wait_for_function("state.session && state.session.board")
    assert page.input_value("#play-game") == "pig"
    assert page.input_value("#play-game-variants [data-key='goal']") == "50"
    assert page.input_value("#play-game-variants [data-key='faces']") == "7"
    page.click(".tab[data-page='advisor']")
    page.select_option("#advisor-game", "yahtzee")
    page.select_option("#advisor-game-variants [data-key='joker']", "free")
    page.wait_for_function("state.advisor.name === 'yahtzee(joker=free)'")
    for face in "66666":
        page.click(f"#faces .die[data-face='{face}']")
    with page.expect_request(lambda r: r.url.endswith("/api/advice") and "joker=free" in (r.post_data or "")):
        page.click("#advise")
    page.wait_for_selector("#advice-table tr.best")
    page.select_option("#advisor-game-variants [data-key='joker']", "forced")
    page.wait_for_function("state.advisor.name === 'yahtzee'")


def test_the_advisor_keeps_its_card_across_a_reload_with_undo(page, server):
    """A phone drops a tab, a player reloads: the Advisor comes back with the game, the card, the dice and the
    throws left as they were (this browser's storage), and every applied row can be taken back."""
    phone = open_phone(page, server)
    phone.select_option("#advisor-game", "yacht")
    phone.wait_for_function("document.querySelector('#position-text').textContent.startsWith('/-/')")
    phone.locator("#card input[data-cat]").nth(5).fill("18")  # sixes=18
    for f in "22566":
        phone.click(f"#faces .die[data-face='{f}']")
    phone.select_option("#rolls-left", "1")
    before = phone.inner_text("#position-text")
    assert before == "sixes=18/22566/1"
    phone.click("#advise")
    phone.wait_for_selector("#advice-table tr.best")
    phone.click("#advice-table tr.best")  # applied: a keep, a throw fewer
    applied = phone.inner_text("#position-text")
    assert applied != before and phone.is_enabled("#advisor-undo")
    phone.reload()
    phone.wait_for_function("(t) => document.querySelector('#position-text').textContent === t", arg=applied)
    assert phone.input_value("#advisor-game") == "yacht"
    phone.click("#advisor-undo")  # the applied row taken back, after the reload too
    assert phone.inner_text("#position-text") == before
    assert not phone.is_enabled("#advisor-undo")
    phone.click("#advisor-new")  # an empty card; Undo brings the old one back
    assert phone.inner_text("#position-text") == "/-/3"
    phone.click("#advisor-undo")
    assert phone.inner_text("#position-text") == before
    phone.select_option("#advisor-game", "yahtzee")  # each game keeps its own card
    phone.select_option("#advisor-game", "yacht")
    phone.wait_for_function("(t) => document.querySelector('#position-text').textContent === t", arg=before)
    assert phone.locator("#advisor-undo").bounding_box()["height"] >= 44
    phone.close()


def test_the_advisor_applies_a_hold_in_pig_and_undoes_it(page, server):
    """Push-your-luck games apply too: holding banks the turn total into the player's score; Undo takes it back."""
    phone = open_phone(page, server)
    phone.select_option("#advisor-game", "pig")
    phone.wait_for_selector("#advisor-push:not([hidden])")
    phone.fill("#push-mine", "80")
    phone.fill("#push-theirs", "40")
    phone.fill("#push-total", "12")
    phone.click("#advise")
    phone.wait_for_selector("#advice-table tr.best")
    assert small_advisor_controls(phone) == []
    phone.locator("#advice-table tr.clickable", has_text="hold").click()
    assert phone.inner_text("#position-text") == "92,40,0"
    phone.click("#advisor-undo")
    assert phone.inner_text("#position-text") == "80,40,12"
    phone.close()


def test_despirala_combinations_are_explained_in_one_tap(page, server):
    """'Kamerun', 'Collect 3': what each combination is and scores, one tap away in the Advisor and on the board."""
    phone = open_phone(page, server)
    phone.select_option("#advisor-game", "despirala")
    phone.wait_for_selector("#advisor-despirala:not([hidden])")
    assert not phone.is_visible("#combo-words li")
    phone.click("#combo-words summary")
    words = phone.inner_text("#combo-words")
    assert "Kamerun: 4 5 5 6 6 6: 45 points" in words and "Collect 3: keep every 3 thrown, 3 points each" in words
    assert phone.locator("#combo-words summary").bounding_box()["height"] >= 44
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    start_game(phone, "despirala", [], 5)
    phone.wait_for_selector("#board .combo-words")
    phone.click("#board .combo-words summary")
    assert "Despirala: five 1s and a 6" in phone.inner_text("#board .combo-words")
    phone.close()


def test_a_race_board_says_each_moves_chance_to_win(page, server):
    """Pig's hint in words: the best move's chance to win, each other's and what it gives away against the best
    (it read 'P(win) 0.5123 best 0.5123')."""
    phone = open_phone(page, server)
    start_game(phone, "pig", ["optimal"], 4)
    phone.wait_for_selector("#board .hint-best")
    assert re.fullmatch(r"best, \d+\.\d% to win", phone.inner_text("#board .hint-best"))
    assert all(re.fullmatch(r"\d+\.\d% to win", t) for t in phone.locator("#board .bank .pwin").all_inner_texts())
    others = phone.locator("#board .hint-cost")
    if others.count():
        assert re.fullmatch(r"\d+\.\d% to win \(−\d+\.\d%\)", " ".join(others.first.inner_text().split()))
    phone.close()


def small_advisor_controls(phone) -> list:
    """The Advisor's controls a thumb could miss: under 44 x 44 px (a checkbox counts by its label)."""
    return phone.evaluate("""() => [...document.querySelectorAll(
            '#advisor button, #advisor select, #advisor input:not([type=checkbox]), #advisor label, #advice-table tr.clickable')]
        .filter((e) => e.offsetParent !== null)
        .map((e) => [e.outerHTML.slice(0, 70), e.getBoundingClientRect()])
        .filter(([, r]) => Math.round(r.width) < 44 || Math.round(r.height) < 44)""")


def in_view(phone, selector: str) -> bool:
    box = phone.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844


def test_a_turn_on_the_phone_advisor_in_few_taps(page, server, tmp_path):
    """The Advisor as a phone page at 390x844: every target a thumb's size; the advice comes as the last die
    of a throw is tapped, next to the dice (no scrolling between a throw and its advice); a tap applies an
    option; the card is a score pad (a tap on a box's points scores the dice there). A turn of Yacht takes the
    faces of the dice and one tap a throw."""
    phone = open_phone(page, server)
    phone.select_option("#advisor-game", "yacht")
    taps = 0

    def throw(faces: str) -> None:
        nonlocal taps
        for f in faces:
            phone.click(f"#faces .die[data-face='{f}']")
            taps += 1

    throw("11345")  # no Advise tap: the advice comes with the fifth die
    phone.wait_for_selector("#advice-table tr.best")
    assert phone.evaluate("window.scrollY") == 0 and in_view(phone, "#tray") and in_view(phone, "#advice-table tr.best")
    assert small_advisor_controls(phone) == []
    snapshot(phone, "advisor-phone", tmp_path)
    keep = phone.inner_text("#advice-table tr.best td:nth-child(2)")
    phone.click("#advice-table tr.best")
    taps += 1
    kept = re.search(r"keep (\d+)", keep)
    assert kept, keep
    assert phone.locator("#tray .die.kept").count() == len(kept.group(1))
    throw("66666"[: 5 - len(kept.group(1))])
    phone.wait_for_selector("#advice-table tr.best")
    assert phone.inner_text("#position-text").endswith("/1")
    pad = phone.locator("#card button.pad-score")  # each open box offers the dice's points there
    assert pad.count() == 12 and small_advisor_controls(phone) == []
    first = pad.first
    label = first.get_attribute("aria-label")
    points = re.search(r"score (\d+) in (.+)", label)
    first.click()  # scored from the pad, a turn of two throws: the faces of the dice and two taps
    taps += 1
    assert phone.input_value(f"#card input[aria-label='{points.group(2)}']") == points.group(1)
    assert phone.inner_text("#position-text").endswith("/-/3")
    assert taps == 5 + (5 - len(kept.group(1))) + 2
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.close()


def test_friends_at_a_table_each_keep_a_card(page, server):
    """A score pad for several players without bots: each keeps a card, the advice is for whoever is on turn,
    the turn passes when a box is scored; a reload keeps them all, and Undo takes a step back across turns."""
    phone = open_phone(page, server)
    phone.select_option("#advisor-game", "yacht")
    phone.click("#add-player")
    assert phone.locator("#advisor-players button.player").count() == 2
    assert "Player 2" in phone.inner_text("#advisor-players .on-turn")
    phone.click("#advisor-players button.player >> nth=0")  # Player 1 begins
    for f in "66666":
        phone.click(f"#faces .die[data-face='{f}']")
    phone.wait_for_selector("#advice-table tr.best")
    phone.locator("#card button.pad-score[aria-label='score 50 in Yacht']").click()
    assert "Player 2" in phone.inner_text("#advisor-players .on-turn")  # the turn passed, with an empty card
    assert phone.inner_text("#position-text") == "/-/3"
    assert "Player 2's turn" in phone.inner_text("#advice")
    for f in "22222":
        phone.click(f"#faces .die[data-face='{f}']")
    phone.wait_for_selector("#advice-table tr.best")
    phone.locator("#card button.pad-score[aria-label='score 10 in Twos']").click()
    assert "Player 1" in phone.inner_text("#advisor-players .on-turn")
    assert phone.inner_text("#position-text") == "yacht=50/-/3"
    phone.reload()
    phone.wait_for_function("document.querySelector('#position-text').textContent === 'yacht=50/-/3'")
    phone.click("#advisor-players button.player >> nth=1")
    assert phone.inner_text("#position-text") == "twos=10/-/3"
    phone.click("#advisor-undo")  # Player 2's box taken back: Player 2 on turn with the dice
    assert "Player 2" in phone.inner_text("#advisor-players .on-turn")
    assert phone.inner_text("#position-text") == "/22222/2"
    assert small_advisor_controls(phone) == []
    phone.close()


def test_the_advisor_applies_farkle_and_despirala_options(page, server):
    """Every family applies a tapped option: Farkle's dice set aside add their points and leave the rest to
    throw (then bank or throw is advised at once), a bank adds the turn total; Despirala's Collect goes on with
    Continue (a good, the other dice thrown) and Stop (the combination used, the next turn's goods), and a
    combination picked is marked used."""
    phone = open_phone(page, server)
    phone.select_option("#advisor-game", "farkle")
    phone.fill("#advisor-game-variants [data-key='goal']", "1000")
    phone.fill("#advisor-game-variants [data-key='floor']", "-500")
    phone.press("#advisor-game-variants [data-key='floor']", "Tab")  # a number is taken as the field is left
    phone.wait_for_function("state.advisor.name === 'farkle(floor=-500,goal=1000)'")
    phone.fill("#farkle-dice", "155234")  # six dice typed: advised at once
    phone.wait_for_selector("#advice-table tr.best")
    assert phone.inner_text("#advice-table tr.best td:nth-child(3)") == "100"  # a take's points
    phone.locator("#advice-table tr.clickable", has_text="take 1").first.click()
    assert phone.inner_text("#position-text") == "0,0,100,5"
    phone.wait_for_selector("#advice-table tr.clickable:has-text('bank')")  # bank or throw, advised at once
    assert small_advisor_controls(phone) == []
    phone.locator("#advice-table tr.clickable", has_text="bank").click()
    assert phone.inner_text("#position-text") == "100,0"
    phone.click("#advisor-undo")
    assert phone.inner_text("#position-text") == "0,0,100,5"

    phone.select_option("#advisor-game", "despirala")
    phone.wait_for_selector("#advisor-despirala:not([hidden])")
    for f in "333456":
        phone.click(f"#dfaces .die[data-face='{f}']")
    phone.wait_for_selector("#advice-table tr.best")
    phone.evaluate("applyOption(state.advice.options.findIndex((o) => o.action === 'Collect 3'))")
    assert phone.inner_text("#position-text") == "none;5;333456;collecting 3s: 3"
    phone.wait_for_selector("#advice-table tr.clickable:has-text('Continue')")
    phone.locator("#advice-table tr.clickable", has_text="Continue").click()
    assert phone.inner_text("#position-text") == "none;4;333;collecting 3s: 3"  # the other dice thrown again
    for f in "331":
        phone.click(f"#dfaces .die[data-face='{f}']")
    phone.wait_for_selector("#advice-table tr.clickable:has-text('Stop')")
    assert phone.inner_text("#position-text") == "none;4;133333;collecting 3s: 5"
    phone.locator("#advice-table tr.clickable", has_text="Stop").click()
    assert phone.inner_text("#position-text") == "Collect 3;9;-"
    for f in "455666":
        phone.click(f"#dfaces .die[data-face='{f}']")
    phone.wait_for_selector("#advice-table tr.best")
    phone.evaluate("applyOption(state.advice.options.findIndex((o) => o.action === 'Kamerun'))")
    assert phone.inner_text("#position-text") == "Collect 3,Kamerun;14;-"
    assert small_advisor_controls(phone) == []
    phone.close()


def test_every_tab_reflows_at_four_hundred_percent_zoom(page, server):
    """400% zoom on a 1280 x 1024 screen leaves 320 x 256 CSS px (the accessibility guidelines' reflow case): no tab
    scrolls sideways, the Advisor with its advice and a game in play included (a wide table scrolls in its box)."""
    context = page.context.browser.new_context(viewport={"width": 320, "height": 256}, bypass_csp=True)
    phone = context.new_page()
    phone.set_default_timeout(60_000)
    phone.goto(server)
    phone.wait_for_function("document.querySelectorAll('#advisor-game option').length > 5")
    wide = {}

    def check(name: str) -> None:
        width = phone.evaluate("document.documentElement.scrollWidth")
        if width > 320:
            wide[name] = width

    every_tab_with_content(phone, check)
    context.close()
    assert not wide, wide


def test_the_advisor_plays_for_a_goal_on_a_phone(page, server):
    """Play for: the most points, a risk appetite (a slider), a target, the top of a blind field; the advice is
    the goal's (its figures are ds.advise's), changes as the goal does, and the goal is kept after a reload.
    A game without goals has no such row; every control a thumb's size."""
    import dicesolver as ds

    phone = open_phone(page, server)
    phone.select_option("#advisor-game", "yacht")
    assert phone.is_visible("#advisor-goal-row")
    for f in "11236":
        phone.click(f"#faces .die[data-face='{f}']")
    phone.wait_for_selector("#advice-table tr.best")
    for kind, setting, goal in (("field", ("#advisor-goal-field", "3"), "field:3"),
                                ("target", ("#advisor-goal-target", "150"), "target:150"),
                                ("theta", None, "theta:-0.05")):
        phone.select_option("#advisor-goal", kind)
        if kind == "field":
            phone.select_option(*setting)
        elif setting:
            phone.fill(*setting)
            phone.dispatch_event(setting[0], "change")
        else:
            phone.evaluate("() => { const r = document.getElementById('advisor-goal-theta'); r.value = '-0.05';"
                           " r.dispatchEvent(new Event('input')); r.dispatchEvent(new Event('change')); }")
            assert phone.inner_text("#advisor-goal-theta-out") == "-0.050"
        want = ds.advise("yacht", "/11236/2", goal=goal)
        phone.wait_for_function("(v) => state.advice && Math.abs(state.advice.options[0].value - v) < 1e-9",
                                arg=want.best.value)
        assert phone.inner_text("#advice-table tr.best td:nth-child(2)").startswith(want.best.action)
        assert small_advisor_controls(phone) == [] and phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.reload()
    phone.wait_for_function("document.querySelectorAll('#advisor-game option').length > 5")
    assert phone.input_value("#advisor-goal") == "theta" and phone.input_value("#advisor-goal-theta") == "-0.05"
    phone.select_option("#advisor-game", "pig")
    phone.wait_for_function("document.getElementById('advisor-goal-row').hidden")
    phone.close()


def test_the_board_hint_plays_for_the_boards_goal(page, server):
    """The Play board's hint takes a goal of its own ("Play for", shown with the hint): its best move and value
    are ds.advise's for that goal, the chance is said in words, and the goal is kept after a reload; the Advisor's
    own goal is another setting."""
    import dicesolver as ds

    phone = open_phone(page, server)
    errors = []
    phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    phone.on("pageerror", lambda e: errors.append(str(e)))
    phone.click(".tab[data-page='play']")
    start_game(phone, "yacht", [], seed=3)
    phone.wait_for_selector("#board .hint-best")
    assert phone.is_visible("#board-goal-row") and phone.input_value("#board-goal") == "mean"
    phone.select_option("#board-goal", "target")
    phone.fill("#board-goal-target", "150")
    phone.dispatch_event("#board-goal-target", "change")
    position = phone.evaluate("state.session.board.position")
    want = ds.advise("yacht", position, goal="target:150")
    phone.wait_for_function("(v) => board.advice && board.advice.unit === 'p_target'"
                            " && Math.abs(board.advice.options[0].value - v) < 1e-9", arg=want.best.value)
    phone.wait_for_selector("#board .hint-best")
    assert phone.inner_text("#board .hint-best") == f"best {100 * want.best.value:.1f}%"
    assert "reach the goal" in phone.inner_text("#board .chance")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390 and errors == []
    phone.click("#hint-toggle")  # the goal is the hint's: no hint, no row (the field left says no new goal)
    phone.wait_for_function("document.getElementById('board-goal-row').hidden")
    phone.click("#hint-toggle")
    phone.wait_for_selector("#board .hint-best")
    phone.reload()
    phone.wait_for_function("document.querySelectorAll('#advisor-game option').length > 5")
    assert phone.input_value("#board-goal") == "target" and phone.input_value("#board-goal-target") == "150"
    assert phone.input_value("#advisor-goal") == "mean"
    phone.close()


def test_a_bonus_on_another_set_of_boxes_has_its_bar_on_the_board(page, server):
    """A game with a bonus on the lower boxes (the example rules file): the board draws it as it draws the
    upper bonus, under the last of its boxes, with its bar and what is still needed, on a phone's width.
    The board is the server's own snapshot of a position (web.sessions.position_board)."""
    import json
    from pathlib import Path

    import dicesolver as ds
    from dicesolver.web.sessions import position_board

    rules = Path(ds.__file__).parent / "docs" / "examples" / "yahtzee-lower-bonus.toml"
    state = ds.parse_state(str(rules), "three_of_a_kind=24,four_of_a_kind=26,chance=22/12345/1")
    board = position_board(state).model_dump(mode="json")
    assert board["view"]["set_bonuses"][0]["title"] == "Lower bonus" and board["view"]["cards"][0]["sets"] == [72]
    phone = open_phone(page, server)
    phone.evaluate("(b) => { $('board').hidden = false; $('board').innerHTML = scorecardBoard(b, null); }",
                   json.loads(json.dumps(board)))
    row = phone.locator("#board tr.faint", has_text="Lower bonus: 25 at 150")
    assert row.count() == 1 and "78 to go" in row.inner_text() and row.locator(".bar").count() == 1
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.close()


def test_the_documents_read_on_a_phone(page, server):
    """/docs/TOPIC on a 390 px phone: the page no wider than the screen (wide tables and code scroll inside
    themselves), its images within it, and the bar of documents leading to another."""
    phone = page.context.browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
    phone.goto(server + "/docs/guide")
    phone.wait_for_selector("main.document h1")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.evaluate("Math.max(...[...document.images].map((i) => i.getBoundingClientRect().right))") <= 390
    phone.click("nav.doc-bar a[href='/docs/rules']")
    phone.wait_for_selector("main.document h1")
    assert phone.inner_text("main.document h1") == "The rules dicesolver plays"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.close()


def test_the_tutor_on_a_phone_warns_and_takes_a_move_back(page, server):
    """A game started with the tutor: the costliest move tapped is not made; the board shows the tutor's
    warning (the move, its cost, the best and why) with Take it back and Play it anyway, fitting a phone;
    taking it back leaves the game where it was, with its moves to tap again."""
    phone = open_phone(page, server)
    open_setup(phone)
    phone.set_checked("#play-tutor", True)
    start_game(phone, "pig", ["hold-at-20"], 2)
    for _ in range(20):  # throw until there is a choice to make
        phone.wait_for_function("state.session && !state.session.busy && state.session.board")
        if phone.evaluate("state.session.board.actions.length > 1"):
            break
        phone.click("#board button[data-line='']")
        phone.wait_for_function("(n) => state.session.board.moves > n",
                                arg=phone.evaluate("state.session.board.moves"))
    moves = phone.evaluate("state.session.board.moves")
    worst = phone.evaluate("""async () => {
        const b = state.session.board;
        const r = await fetch('/api/advice', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                              body: JSON.stringify({game: "pig", position: b.position})});
        const options = (await r.json()).options;
        return options[options.length - 1].action; }""")
    phone.click(f"#board button[data-line='{worst}']")
    phone.wait_for_selector("#board .tutor-card")
    card = phone.inner_text("#board .tutor-card")
    assert "Tutor:" in card and "costs" in card and "Take it back" in card and "Play it anyway" in card
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert all(b["height"] >= 44 for b in (phone.locator(f"#board .tutor-card button >> nth={i}").bounding_box()
                                           for i in range(2)))
    assert phone.locator(f"#board button[data-line='{worst}']").count() == 0  # nothing else to tap meanwhile
    phone.wait_for_timeout(400)  # a person reads the warning: a tap within 350 ms is a double tap's second half
    phone.click("#board .tutor-card button[data-line='no']")
    phone.wait_for_function("state.session.board && !state.session.board.tutor && state.session.board.actions.length > 1")
    assert phone.evaluate("state.session.board.moves") == moves
    phone.wait_for_selector(f"#board button[data-line='{worst}']")
    phone.close()
