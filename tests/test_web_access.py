"""Who may use the web app (the token of a server open to the network) and whose games are whose (each
browser sees its own)."""

import re
import time

import pytest
from webclient import TestClient

from dicesolver.cli.app import main
from dicesolver.web import access
from dicesolver.web.app import create_app
from test_web_api import play_to_end

TOKEN = "table-token-1234"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def settle(client, method, url, **kwargs):
    for _ in range(600):
        response = client.request(method, url, **kwargs)
        if response.status_code != 202:
            return response
        time.sleep(0.1)
    raise AssertionError("the table never became ready")


def test_without_the_token_nothing_is_served(cache):
    guarded = TestClient(create_app(token=TOKEN))
    for path in ("/api/games", "/api/records", "/api/jobs/x", "/openapi.json", "/static/app.js"):
        response = guarded.get(path)
        assert response.status_code == 401, path
        assert "token" in response.json()["detail"] and "records" not in response.text
    assert guarded.post("/api/advice", json={"game": "pig", "position": "0,0,0"}).status_code == 401
    page = guarded.get("/", headers={"accept": "text/html"})
    assert page.status_code == 401 and "<form" in page.text and "yahtzee" not in page.text.lower()
    wrong = guarded.get("/?token=not-the-token", headers={"accept": "text/html"})
    assert wrong.status_code == 401 and "Wrong token" in wrong.text
    assert guarded.get("/api/games", headers={"Authorization": "token nope"}).status_code == 401


def test_the_address_with_the_token_leaves_a_cookie(cache):
    browser = TestClient(create_app(token=TOKEN))
    visit = browser.get(f"/?token={TOKEN}", follow_redirects=False)
    assert visit.status_code == 303 and visit.headers["location"] == "/"  # the address bar loses the token
    cookies = visit.headers.get_list("set-cookie")
    # one cookie per port (two servers on one machine keep theirs), holding proof of the token, not the token
    proof = next(c.split(";")[0].split("=", 1)[1] for c in cookies if c.startswith(f"{access.TOKEN_COOKIE}-80="))
    assert re.fullmatch(r"[0-9a-f]{64}", proof) and all("HttpOnly" in c for c in cookies)
    assert not any(TOKEN in c for c in cookies)
    assert browser.get("/").status_code == 200  # from now on the cookie is enough
    # the proof is this start's and this port's: a restarted server, or another port of the host, asks again
    restarted = TestClient(create_app(token=TOKEN), cookies={f"{access.TOKEN_COOKIE}-80": proof})
    assert restarted.get("/api/games").status_code == 401
    other_port = TestClient(create_app(token=TOKEN), base_url="http://localhost:8001")
    assert other_port.get("/", follow_redirects=False, params={"token": TOKEN}).status_code == 303
    assert other_port.cookies.get(f"{access.TOKEN_COOKIE}-8001") not in (None, proof)
    assert browser.get("/api/games").status_code == 200
    assert browser.post("/api/advice", json={"game": "pig", "position": "0,0,0"}).status_code in (200, 202)
    # a program sends the header instead
    program = TestClient(create_app(token=TOKEN))
    for scheme in ("token", "Bearer"):
        assert program.get("/api/games", headers={"Authorization": f"{scheme} {TOKEN}"}).status_code == 200


def test_on_this_machine_alone_no_token_is_asked(cache):
    assert TestClient(create_app()).get("/api/games").status_code == 200


def _start_pig(client) -> dict:
    response = settle(client, "POST", "/api/play", json={"game": "pig", "opponents": ["hold-at-20"], "first": "you",
                                                         "seed": 7})
    assert response.status_code == 200, response.text
    return response.json()


def test_each_browser_sees_its_own_games(cache):
    app = create_app(token=TOKEN)
    phones = [TestClient(app, headers={"Authorization": f"token {TOKEN}"}) for _ in range(2)]
    mine, theirs = phones
    game = _start_pig(mine)
    record = game["record"]
    assert [r["name"] for r in mine.get("/api/records").json()] == [record]
    assert theirs.get("/api/records").json() == []  # the other phone sees nothing of it
    assert theirs.get(f"/api/play/{game['id']}").status_code == 404
    assert theirs.post(f"/api/play/{game['id']}/send", json={"line": "r"}).status_code == 404
    assert theirs.post("/api/play", json={"game": "", "resume": record}).status_code == 404
    assert theirs.delete(f"/api/records/{record}").status_code == 404
    assert theirs.get(f"/api/records/{record}/review").status_code == 404
    # the owner still plays it; the other phone's own game is its own
    assert mine.post(f"/api/play/{game['id']}/send", json={"line": "r"}).status_code == 200
    other = _start_pig(theirs)
    assert [r["name"] for r in theirs.get("/api/records").json()] == [other["record"]]
    assert [r["name"] for r in mine.get("/api/records").json()] == [record]
    # the Review tab still reviews any record uploaded to it
    over = play_to_end(mine, mine.get(f"/api/play/{game['id']}").json(), line="r")
    assert over["over"]
    text = (cache / "web-games" / record).read_text()
    uploaded = settle(theirs, "POST", "/api/review", json={"record": text, "player": 0})
    assert uploaded.status_code == 200 and uploaded.json()["review"]["summary"]["player"] == "you"


def test_browser_ids_are_the_servers_own_and_minted_a_few_a_minute_per_address(cache):
    """An id a client makes up is no id (it is given one of the server's, signed); cookie-less clients from one
    address get at most Browsers.NEW_PER_MINUTE new ids a minute, then cannot start a game (429), while a
    browser that kept its cookie plays on and another address is not held back. A signed id holds across a
    restart (the key is in the cache folder), and an id from before ids were signed is kept where a game
    names it as its owner."""
    app = create_app()
    player = TestClient(app, client=("127.0.0.1", 40000))
    game = _start_pig(player)
    signed = player.cookies.get(access.BROWSER_COOKIE)
    assert access.SIGNED_BROWSER.match(signed)
    made_up = TestClient(app, client=("127.0.0.9", 40000), cookies={access.BROWSER_COOKIE: "ab" * 16})
    given = made_up.get("/api/records").cookies.get(access.BROWSER_COOKIE)
    assert access.SIGNED_BROWSER.match(given) and given != signed
    forged = TestClient(app, client=("127.0.0.9", 40000), cookies={access.BROWSER_COOKIE: signed[:33] + "0" * 32})
    assert forged.get("/api/records").json() == []  # not the player's games
    refused = 0
    for _ in range(access.Browsers.NEW_PER_MINUTE + 5):  # a flood of new clients from one address
        r = TestClient(app, client=("127.0.0.2", 40000)).post(
            "/api/play", json={"game": "pig", "opponents": ["hold-at-20"], "first": "you"})
        refused += r.status_code == 429
        assert r.status_code in (200, 429), r.text
    assert refused == 5
    r = TestClient(app, client=("127.0.0.2", 40001)).post("/api/play", json={"game": "pig", "first": "you"})
    assert r.status_code == 429 and "new browsers from your address" in r.json()["detail"]
    assert _start_pig(player)["record"]  # the player with a cookie plays on, from any address
    assert _start_pig(TestClient(app, client=("127.0.0.3", 40000)))["record"]  # another address too
    again = TestClient(create_app(), cookies={access.BROWSER_COOKIE: signed})  # a restart: the same browser
    assert game["record"] in [r["name"] for r in again.get("/api/records").json()]
    legacy = "cd" * 16
    (cache / "web-games" / (game["record"] + access.OWNER_SUFFIX)).write_text(legacy + "\n")
    old = TestClient(create_app(), cookies={access.BROWSER_COOKIE: legacy})
    listed = old.get("/api/records")
    assert [r["name"] for r in listed.json()] == [game["record"]]
    assert access.SIGNED_BROWSER.match(listed.cookies.get(access.BROWSER_COOKIE)).group(1) == legacy  # now signed


def test_records_from_before_owners_stay_with_this_machine(cache):
    local = TestClient(create_app())
    game = _start_pig(local)
    (cache / "web-games" / (game["record"] + access.OWNER_SUFFIX)).unlink()  # as a game from an older version
    assert [r["name"] for r in TestClient(create_app()).get("/api/records").json()] == [game["record"]]
    networked = TestClient(create_app(token=TOKEN), headers={"Authorization": f"token {TOKEN}"})
    assert networked.get("/api/records").json() == []


def test_discarding_a_game_removes_its_owner_file(cache):
    client = TestClient(create_app())
    game = _start_pig(client)
    client.post(f"/api/play/{game['id']}/send", json={"line": "quit"})
    for _ in range(100):
        if client.get(f"/api/play/{game['id']}").json()["stopped"]:
            break
        time.sleep(0.05)
    assert client.delete(f"/api/records/{game['record']}").status_code == 200
    assert [p.name for p in (cache / "web-games").iterdir()] == [access.BROWSER_KEY]  # the game and its files gone


def run(capsys, *argv):
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    captured = capsys.readouterr()
    return exit_info.value.code or 0, captured.out, captured.err


@pytest.mark.parametrize("argv, words", [
    (["--token", "short"], "16 or more"),
    (["--token", "12345678"], "16 or more"),
    (["--token", "has spaces in it, too"], "letters, digits"),
    (["--token", "passwordpassword1"], "repeats like"),
    (["--token", "qwerty123456qwerty"], "commonly used password"),
    (["--token", "abababababababababab"], "repeats"),
    (["--token", "Passw0rd-Passw0rd"], "guesses find it"),
    (["--token", "qwertyuiopasdfgh"], "commonly used password"),
    (["--token", "aaaabbbbccccddddeeeeffffgggghhhh"], "guesses find it"),
    (["--token", "dicesolver-2026-12-07"], "guesses find it"),
    (["--no-token", "--token", "abcdefgh1-xyz-7890"], "contradict"),
    (["--token", "abcdefgh1-xyz-7890", "--token-file", "x"], "contradict"),
    (["--token-file", "/nonexistent/token"], "cannot read"),
    (["--allow-host", "http://evil.example/"], "--allow-host"),
    (["--lan", "--host", "127.0.0.1"], "this machine only"),
])
def test_serve_refuses_contradictions(capsys, monkeypatch, argv, words):
    monkeypatch.setattr("dicesolver.web.serving.serve", lambda *args: pytest.fail("served despite " + " ".join(argv)))
    code, _, err = run(capsys, "serve", *argv)
    assert code == 2 and words in err


def test_serve_lan_prints_the_address_with_its_token_and_a_qr_code(capsys, monkeypatch):
    served = {}
    monkeypatch.setattr("dicesolver.web.serving.serve", lambda host, port, token, workers, hosts, *limits: served.update(
        host=host, port=port, token=token, workers=workers, network=hosts.network))
    monkeypatch.delenv(access.TOKEN_FROM_USER_ENV, raising=False)
    monkeypatch.setattr(access, "lan_address", lambda: "192.168.1.23")
    code, out, _ = run(capsys, "serve", "--lan", "--port", "8123")
    assert code == 0 and served["host"] == "0.0.0.0" and served["port"] == 8123
    token = served["token"]
    assert token and len(token) >= 24
    assert f"http://192.168.1.23:8123/?token={token}" in out
    assert "█" in out and out.count("\n") > 15  # the QR code, drawn in the terminal

    assert served["network"]
    code, out, _ = run(capsys, "serve", "--host", "0.0.0.0", "--token", "my-own-token-at-the-table")
    assert code == 0 and served["token"] == "my-own-token-at-the-table" and "?token=my-own-token-at-the-table" in out

    code, out, err = run(capsys, "serve", "--lan", "--no-token")
    assert code == 0 and served["token"] is None and "without a token" in err

    code, out, _ = run(capsys, "serve")  # this machine alone: as before
    assert code == 0 and served == {"host": "127.0.0.1", "port": 8000, "token": None, "workers": 1, "network": False}
    assert "http://127.0.0.1:8000/ " in out and "█" not in out


def test_the_qr_code_drawn_is_the_addresss():
    """Read back from the terminal's half blocks (light modules drawn, two rows a line, a border of 2), the
    drawing is segno's QR matrix of the address, module for module."""
    import segno

    url = "http://192.168.1.23:8000/?token=abc"
    light = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}
    rows = []
    for line in access.qr_text(url).splitlines():
        rows += [[light[c][0] for c in line], [light[c][1] for c in line]]
    matrix = segno.make(url, error="m").matrix
    n = len(matrix)
    assert all(rows[2 + i][2 + j] == (0 if matrix[i][j] else 1) for i in range(n) for j in range(n))


def test_the_app_can_be_added_to_a_home_screen(cache):
    """A web app manifest with its icons (each the size it says), reachable without the token: a phone fetches
    them without the page's cookies, and they hold no data."""
    import struct

    client = TestClient(create_app(token=TOKEN))
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone" and manifest["name"] == "dicesolver"
    sizes = set()
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200, icon["src"]
        if icon["type"] == "image/png":
            assert image.content[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", image.content[16:24])
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(width)
        else:
            assert image.content.lstrip().startswith(b"<svg")
    assert {192, 512} <= sizes
    assert client.get("/static/app.js").status_code == 401  # everything else still needs the token
    page = TestClient(create_app()).get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page and "apple-touch-icon" in page


def test_the_token_can_stay_out_of_the_process_list(capsys, monkeypatch, tmp_path):
    """From $DICESOLVER_TOKEN or a file, where other users of the machine cannot read it in ``ps``."""
    served = {}
    monkeypatch.setattr("dicesolver.web.serving.serve", lambda host, port, token, workers, hosts, *limits: served.update(
        token=token))
    monkeypatch.setenv(access.TOKEN_FROM_USER_ENV, "from-the-environment-42")
    code, out, _ = run(capsys, "serve", "--lan")
    assert code == 0 and served["token"] == "from-the-environment-42"
    kept = tmp_path / "token"
    kept.write_text("from-a-file-at-the-table\n")
    code, out, _ = run(capsys, "serve", "--lan", "--token-file", str(kept))
    assert code == 0 and served["token"] == "from-a-file-at-the-table"
    kept.write_text("weak\n")
    code, _, err = run(capsys, "serve", "--lan", "--token-file", str(kept))
    assert code == 2 and "16 or more" in err


# -- names and origins: DNS rebinding and foreign pages --------------------------------------------------------

@pytest.mark.parametrize("host, network, extra, allowed", [
    ("localhost:8000", False, (), True), ("127.0.0.1:8000", False, (), True), ("[::1]:8000", False, (), True),
    ("LOCALHOST", False, (), True), ("app.localhost:8000", False, (), True),
    ("evil.example:8000", False, (), False), ("evil.example", False, (), False), ("", False, (), False),
    ("192.168.1.23:8000", False, (), False), ("127.0.0.1.evil.example", False, (), False),
    ("dice.local:8000", False, ("dice.local",), True), ("dice.local.:8000", False, ("dice.local",), True),
    ("192.168.1.23:8000", True, (), True), ("[fe80::1]:8000", True, (), True), ("evil.example", True, (), False),
])
def test_the_server_answers_only_to_its_own_names(host, network, extra, allowed):
    assert access.Hosts(network, extra).allows(host) == allowed


def test_a_rebound_name_gets_nothing_and_changes_nothing(cache):
    """A page at evil.example whose name now points at 127.0.0.1 sends Host: evil.example: 403 before any
    work, for reads and for the requests that would start solves or discard games."""
    client = TestClient(create_app())
    foreign = {"Host": "evil.example:8000", "Origin": "http://evil.example:8000"}
    assert client.get("/api/games", headers={"Host": "evil.example:8000"}).status_code == 403
    for method, url, body in (("POST", "/api/advice", {"game": "crag", "position": "0,0,0"}),
                              ("POST", "/api/play", {"game": "yacht", "opponents": ["optimal"]}),
                              ("POST", "/api/explain", {"game": "yacht", "position": "/11345/1"}),
                              ("POST", "/api/train/questions", {"game": "yacht", "questions": 2}),
                              ("POST", "/api/train/answer", {"game": "yacht", "position": "/11345/1",
                                                             "action": "keep 1"}),
                              ("DELETE", "/api/records/x.jsonl", None)):
        response = client.request(method, url, json=body, headers=foreign)
        assert response.status_code == 403 and "name" in response.json()["detail"]
    assert "set-cookie" not in client.get("/", headers={"Host": "evil.example"}).headers
    allowed = TestClient(create_app(hosts=access.Hosts(False, ["dice.local"])), base_url="http://dice.local:8000")
    assert allowed.get("/api/games").status_code == 200


def test_another_sites_page_cannot_change_anything_nor_read_the_api(cache):
    client = TestClient(create_app())
    move = {"game": "pig", "position": "0,0,0"}
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Origin": "http://localhost:9999"}, {"Sec-Fetch-Site": "cross-site"},
                    {"Origin": "http://localhost", "Sec-Fetch-Site": "same-site"}):
        assert client.post("/api/advice", json=move, headers=headers).status_code == 403, headers
        assert client.post("/api/train/questions", json={"game": "yacht"}, headers=headers).status_code == 403
    # an <img> or fetch from another site's page: nothing from /api; the page itself still opens from a link
    assert client.get("/api/records", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
    assert client.get("/", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 200
    # the app's own page, and programs (no Origin), as before
    assert client.post("/api/advice", json=move, headers={"Origin": "http://localhost",
                                                          "Sec-Fetch-Site": "same-origin"}).status_code in (200, 202)
    assert client.post("/api/advice", json=move).status_code in (200, 202)


def test_the_token_address_redirects_only_to_this_server(cache):
    browser = TestClient(create_app(token=TOKEN))
    for path, where in ((f"//evil.example/x?token={TOKEN}", "/evil.example/x"), (f"/\\evil.example?token={TOKEN}",
                                                                                   "/%5Cevil.example"),
                        (f"/?token={TOKEN}&a=1", "/?a=1")):
        visit = browser.get(f"http://localhost{path}", follow_redirects=False)  # the path as it was sent
        assert visit.status_code == 303 and visit.headers["location"] == where, path


def test_wrong_tokens_are_slowed_and_told(cache, capsys):
    """The first few wrong tokens from an address are answered at once, the next ones ever more slowly (up to
    2 s), and stderr says so once a minute, not once a guess."""
    import asyncio

    failures = access.Failures()
    took = []
    for _ in range(access.Failures.FREE + 3):
        start = time.perf_counter()
        asyncio.run(failures.failed("10.0.0.9"))
        took.append(time.perf_counter() - start)
    assert max(took[:access.Failures.FREE]) < 0.05 and took[-1] >= 0.35 and took[-1] > took[-2] > took[-3]
    err = capsys.readouterr().err
    assert err.count("wrong token from 10.0.0.9") == 1
    asyncio.run(failures.failed("10.0.0.10"))  # another address starts free
    assert "10.0.0.10" in capsys.readouterr().err


def test_thousands_of_wrong_tokens_never_get_a_5xx_and_lock_out_guessing(cache, capsys, monkeypatch):
    """Wrong tokens from one address, then from many (the throttle's delay stubbed to nothing, so that thousands
    run in a second): never a 5xx; after the lockout's count a guess is not checked (429 with Retry-After), the
    right token offered as a guess included, while a browser holding the token's cookie goes on; stderr gets a
    bounded number of lines."""
    import asyncio

    slept = []

    async def pause(self, delay: float) -> None:
        slept.append(delay)

    monkeypatch.setattr(access.Failures, "pause", pause)
    app = create_app(token=TOKEN)
    codes: dict[int, int] = {}

    async def ask(client: str, token: str, cookie: str | None = None) -> tuple[int, dict[str, str]]:
        headers = [(b"host", b"localhost"), (b"authorization", f"token {token}".encode())] if token else \
            [(b"host", b"localhost")]
        if cookie:
            headers.append((b"cookie", cookie.encode()))
        scope = {"type": "http", "method": "GET", "path": "/api/games", "raw_path": b"/api/games", "query_string": b"",
                 "headers": headers, "client": (client, 5000), "server": ("localhost", 8000), "scheme": "http",
                 "http_version": "1.1", "root_path": "", "asgi": {"version": "3.0"}}
        said: dict = {}

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            if message["type"] == "http.response.start":
                said["status"] = message["status"]
                said["headers"] = {k.decode().lower(): v.decode() for k, v in message["headers"]
                                   if k.decode().lower() != "set-cookie" or v.startswith(access.TOKEN_COOKIE.encode())}

        await app(scope, receive, send)
        codes[said["status"]] = codes.get(said["status"], 0) + 1
        return said["status"], said["headers"]

    async def attack():
        status, headers = await ask("10.0.0.1", TOKEN)  # a browser that opened the address: its cookie
        cookie = headers["set-cookie"].split(";")[0]
        assert status == 200 and cookie.startswith(access.token_cookie({"server": ("localhost", 8000)}))
        for i in range(3000):
            status, _ = await ask("10.1.1.1", f"guess-{i}")
            assert status in (401, 429), status
        status, headers = await ask("10.1.1.1", TOKEN)  # even the right one: guesses are not checked now
        assert status == 429 and int(headers["retry-after"]) > 0
        assert (await ask("10.1.1.1", "", cookie))[0] == 200  # the cookie's browser goes on
        assert (await ask("10.2.2.2", TOKEN))[0] == 200  # another address is not locked out by one
        for i in range(3000):  # many addresses, a few guesses each: the lockout of all
            status, _ = await ask(f"10.3.{i // 250}.{i % 250}", f"guess-{i}")
            assert status in (401, 429), status
        assert (await ask("10.4.4.4", TOKEN))[0] == 429
        assert (await ask("10.4.4.4", "", cookie))[0] == 200

    asyncio.run(attack())
    assert not any(code >= 500 for code in codes) and codes[429] > 2000
    assert max(slept) <= access.Failures.MAX_DELAY
    assert capsys.readouterr().err.count("\n") <= access.Failures.MAX_LINES


def test_every_response_carries_the_security_headers(cache):
    client = TestClient(create_app(token=TOKEN))
    for response in (client.get("/api/games"), client.get("/", headers={"Authorization": f"token {TOKEN}"}),
                     client.get("/api/games", headers={"Host": "evil.example"})):
        headers = response.headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], response.status_code
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"


def test_the_api_docs_work_offline_from_the_package(cache):
    client = TestClient(create_app())
    page = client.get("/docs")
    assert page.status_code == 200 and "/static/docs.js" in page.text
    assert "cdn" not in page.text.lower() and "https://" not in page.text
    script = client.get("/static/docs.js")
    assert script.status_code == 200 and "/openapi.json" in script.text and "https://" not in script.text
    assert client.get("/redoc").status_code == 404
