"""Several server processes (``dicesolver serve --workers N``): any process continues any game from its
record, one move at a time, never a lost or doubled move. Two apps on one cache stand for two processes
(each its own games in memory and its own tables); the last test runs real worker processes."""

import http.cookiejar
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from webclient import TestClient

from dicesolver.web.app import create_app
from test_web_api import settle

BODY = {"game": "skunk", "opponents": ["hold-at-20"], "seed": 9, "first": "you"}


def next_line(view: dict) -> str:
    """A fixed policy: Enter to throw, else the first legal action."""
    board = view["board"]
    return "" if board["throw"] else board["actions"][0]["action"]


def play_through(clients: list, view: dict, moves: int = 3000) -> dict:
    """Moves sent to the clients in turn (each a process), every view read from the next one."""
    for k in range(moves):
        client = clients[k % len(clients)]
        while view["busy"]:
            view = client.get(f"/api/play/{view['id']}?wait=2").json()
        if view["over"]:
            return view
        response = client.post(f"/api/play/{view['id']}/send",
                               json={"line": next_line(view), "moves": view["board"]["moves"]})
        assert response.status_code == 200, response.text
        view = response.json()
    raise AssertionError("the game did not end")


@pytest.fixture
def two_processes(tmp_path, monkeypatch):
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    with TestClient(create_app()) as first:
        browser = dict(settle(first, "GET", "/api/games").cookies)
        with TestClient(create_app(), cookies=browser) as second:
            first.cookies.update(browser)
            yield first, second


def test_a_game_moved_by_two_processes_in_turn_is_the_unbroken_game(two_processes, tmp_path):
    first, second = two_processes
    view = settle(first, "POST", "/api/play", json=BODY).json()
    finished = play_through([first, second], view)
    assert finished["over"]
    # the same game in one process: the same record, byte for byte
    unbroken = play_through([first], settle(first, "POST", "/api/play", json=BODY).json())
    games = tmp_path / "web-games"
    assert (games / finished["record"]).read_text() == (games / unbroken["record"]).read_text()
    # both processes show the finished game's end and its review, and list both games as finished
    for client in (first, second):
        end = client.get(f"/api/play/{view['id']}?wait=5").json()
        assert end["over"] and end["board"]["position"] == finished["board"]["position"]
        review = client.get(f"/api/play/{view['id']}/review")
        assert review.status_code == 200 and review.json()["review"]["summary"]["player"] == "you"
        assert [r["over"] for r in client.get("/api/records").json()] == [True, True]


def test_two_tabs_sending_at_once_move_the_game_once(two_processes, tmp_path):
    """The same line sent at the same moment from two tabs, one on each process, ten times over: each time one
    is applied and the other is not (answered with the game as it stands, marked stale, or refused with 409
    when the other process held the record too long), and the record gains that one move."""
    first, second = two_processes
    view = settle(first, "POST", "/api/play", json=BODY).json()
    record = tmp_path / "web-games" / view["record"]
    for _ in range(10):
        while view["busy"]:
            view = first.get(f"/api/play/{view['id']}?wait=2").json()
        if view["over"]:
            break
        before = record.read_text().count("\n")
        body = {"line": next_line(view), "moves": view["board"]["moves"]}
        answers: list = []
        barrier = threading.Barrier(2)

        def send(client) -> None:
            barrier.wait()
            answers.append(client.post(f"/api/play/{view['id']}/send", json=body))

        tabs = [threading.Thread(target=send, args=(c,)) for c in (first, second)]
        for t in tabs:
            t.start()
        for t in tabs:
            t.join(30)
        applied = [a for a in answers if a.status_code == 200 and not a.json()["stale"]]
        refused = [a for a in answers if a not in applied]
        assert len(applied) == 1 and len(refused) == 1, [a.text for a in answers]
        assert refused[0].status_code == 200 or "moving this game" in refused[0].json()["detail"], refused[0].text
        view = applied[0].json()
        while view["busy"]:
            view = first.get(f"/api/play/{view['id']}?wait=2").json()
        after = record.read_text()
        events = after.count("\n")
        assert events > before and after.endswith("\n")
        # one move: the record is the one a single send would have made (the bot's replies included)
        assert all(json.loads(line) for line in after.splitlines())
    # the game, moved by both, is the unbroken one
    finished = play_through([second, first], view)
    unbroken = play_through([first], settle(first, "POST", "/api/play", json=BODY).json())
    games = tmp_path / "web-games"
    assert (games / finished["record"]).read_text() == (games / unbroken["record"]).read_text()


def test_a_line_for_a_game_that_has_moved_on_is_not_applied(two_processes):
    """A move made on a board already answered (a second tap, another device's tab) plays nothing: the answer
    is the game as it stands, marked stale, from either process."""
    first, second = two_processes
    view = settle(first, "POST", "/api/play", json=BODY).json()
    seen = view["board"]["moves"]
    moved = first.post(f"/api/play/{view['id']}/send", json={"line": next_line(view), "moves": seen})
    assert moved.status_code == 200
    while moved.json()["busy"]:
        moved = first.get(f"/api/play/{view['id']}?wait=2")
    assert moved.json()["board"]["moves"] > seen
    for client in (second, first):  # from another device, or a second tab of this one
        now = client.get(f"/api/play/{view['id']}").json()["board"]["moves"]
        again = client.post(f"/api/play/{view['id']}/send", json={"line": next_line(view), "moves": seen})
        assert again.status_code == 200 and again.json()["stale"], again.text
        assert again.json()["board"]["moves"] == now == moved.json()["board"]["moves"]


# one browser, whatever the process answers: the id the server signed (its key in the shared cache folder)
BROWSER = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def _call(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json", "Connection": "close"})
    try:
        with BROWSER.open(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _settled(port: int, method: str, path: str, body: dict | None = None) -> dict:
    for _ in range(600):
        status, data = _call(port, method, path, body)
        if status != 202:
            assert status == 200, data
            return data
        time.sleep(0.2)
    raise AssertionError(f"{path} never answered")


def _server_processes(pid: int) -> set[int]:
    """The server processes the command started (its children running the spawned worker)."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == pid and b"spawn_main" in command:
            out.add(int(stat.parent.name))
    return out


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts the worker processes in /proc")
def test_serve_with_two_worker_processes(tmp_path):
    """``dicesolver serve --workers 2``: two processes answer on one port (each request on a new connection,
    so the kernel spreads them), a whole game played through them is the unbroken game, and a process
    killed is replaced."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "DICESOLVER_CACHE_DIR": str(tmp_path)}
    server = subprocess.Popen([sys.executable, "-m", "dicesolver", "serve", "--port", str(port), "--workers", "2"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        for _ in range(600):
            try:
                if _call(port, "GET", "/api/games/pig")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not start")
        workers = _server_processes(server.pid)
        assert len(workers) == 2, workers
        body = {"game": "pig", "opponents": ["hold-at-20"], "seed": 5, "first": "you"}
        views = []
        for _ in range(2):
            view = _settled(port, "POST", "/api/play", body)
            for _ in range(3000):
                while view["busy"]:
                    view = _settled(port, "GET", f"/api/play/{view['id']}?wait=2")
                if view["over"]:
                    break
                status, answer = _call(port, "POST", f"/api/play/{view['id']}/send",
                                       {"line": next_line(view), "moves": view["board"]["moves"]})
                assert status == 200, answer
                view = answer
            assert view["over"]
            views.append(view)
        games = tmp_path / "web-games"
        assert (games / views[0]["record"]).read_text() == (games / views[1]["record"]).read_text()
        killed = min(workers)
        os.kill(killed, 9)
        for _ in range(300):
            now = _server_processes(server.pid)
            if len(now) == 2 and killed not in now:
                break
            time.sleep(0.1)
        assert len(now) == 2 and killed not in now, now
        assert all(_settled(port, "GET", "/api/games/pig")["name"] == "pig" for _ in range(10))
    finally:
        os.killpg(server.pid, 9)
        server.wait(10)
