"""The web server against a hostile client: GETs that would build tables, bodies that never end, clients that
send their headers a byte at a time or open connection after connection, records that name their game
oddly, and a server killed under its workers. Each test fails on the server as it was before issue 52."""

import json
import os
import signal
import socket
import subprocess
import sys
import re
import threading
import time
from pathlib import Path

import pytest
from webclient import TestClient, free_port, served

from dicesolver.web import access, connections
from dicesolver.web.app import create_app
from dicesolver.web.bodies import MAX_BODY_BYTES
from test_web_api import settle


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def files_under(folder: Path) -> list[Path]:
    """The files a request could have written: the key a server signs browser ids with, made as it starts, aside."""
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name != access.BROWSER_KEY) \
        if folder.exists() else []


# -- GETs only read --------------------------------------------------------------------------------------------

def test_a_chart_of_an_unsolved_variant_is_refused_by_get_and_drawn_by_post(cache):
    """An <img> on any page could ask for a variant nobody solved: the GET says so (409) and writes nothing;
    the page's POST builds it as a job, and the GET then reads the drawn image."""
    client = TestClient(create_app())
    for url in ("/api/explore/chart.png?game=pig(goal=40)", "/api/explore/distribution.png?game=yacht",
                "/api/explore/simulation.png?game=despirala"):
        response = client.get(url)
        assert response.status_code == 409 and "not solved yet" in response.json()["detail"], url
    told = client.get("/api/explore/chart.png?game=pig(goal=40)").json()["detail"]
    assert "about 512.0 KB, under a second to build" in told  # 40**3 float64 chances
    assert files_under(cache) == [] and client.app.state.solutions._jobs == {}
    drawn = settle(client, "POST", "/api/explore/figure", json={"game": "pig(goal=40)", "image": "chart.png"})
    assert drawn.status_code == 200 and files_under(cache)
    image = client.get(drawn.json()["url"])
    assert image.status_code == 200 and image.content[:4] == b"\x89PNG"
    # another server on the same cache draws it from the table on disk, in the GET, writing nothing
    written = files_under(cache)
    again = TestClient(create_app()).get("/api/explore/chart.png?game=pig(goal=40)")
    assert again.status_code == 200 and again.content[:4] == b"\x89PNG" and files_under(cache) == written


def test_reviewing_a_saved_game_by_get_builds_nothing(cache):
    """A game played, its tables then gone (cleared, or another machine's record): the GET of its review says
    409 and writes nothing; the page's POST solves it as a job and reviews it."""
    import shutil

    from test_web_api import play_to_end

    client = TestClient(create_app())
    view = settle(client, "POST", "/api/play", json={"game": "pig(goal=30)", "opponents": ["hold-at-20"],
                                                     "first": "you", "seed": 3}).json()
    assert play_to_end(client, view, line="r")["over"]
    for folder in cache.iterdir():
        if folder.name != "web-games":
            shutil.rmtree(folder)
    before = files_under(cache)
    fresh = TestClient(create_app(), cookies=dict(client.cookies))
    url = f"/api/records/{view['record']}/review"
    response = fresh.get(url)
    assert response.status_code == 409 and "not solved yet" in response.json()["detail"]
    assert files_under(cache) == before and fresh.app.state.solutions._jobs == {}
    reviewed = settle(fresh, "POST", url)
    assert reviewed.status_code == 200 and reviewed.json()["review"]["summary"]["player"] == "you"
    assert fresh.get(url).status_code == 200  # solved now: the GET reads it


def test_a_record_naming_its_game_as_a_list_is_refused_before_anything_is_opened(cache, tmp_path, monkeypatch):
    """A header whose game is a list once slipped past the rules-file guard and was opened as a path."""
    monkeypatch.chdir(tmp_path)
    bait = tmp_path / "['rules.toml']"
    bait.write_text("not read")
    client = TestClient(create_app())
    for game in (["rules.toml"], {"path": "rules.toml"}, 7):
        record = json.dumps({"format": "dicesolver-record", "version": 1, "game": game, "players": ["a"]}) + "\n"
        response = client.post("/api/review", json={"record": record, "player": 0})
        assert response.status_code == 400 and "game string" in response.json()["detail"], game
        assert str(tmp_path) not in response.text


def test_uploads_a_crash_left_behind_are_removed_at_start(cache):
    uploads = cache / "uploads"
    uploads.mkdir(parents=True)
    (uploads / "tmpabc.jsonl").write_text("{}\n")
    create_app()
    assert list(uploads.iterdir()) == []


# -- a real server: bodies, slow clients, many connections -------------------------------------------------------

@pytest.fixture
def served_app(cache, monkeypatch):
    """The app under uvicorn on a free loopback port with the server's connection guard, tightened for a test:
    headers within 1 s, at most 12 connections: (its port, the app)."""
    monkeypatch.setattr(connections.GuardedH11, "HEADER_SECONDS", 1.0)
    monkeypatch.setattr(connections.GuardedH11, "MAX_CONNECTIONS", 12)
    app = create_app()
    with served(app, http=connections.GuardedH11) as port:
        yield port, app


@pytest.fixture
def server(served_app):
    return served_app[0]


def busy_requests(port: int, app, n: int) -> list[socket.socket]:
    """``n`` connections each with a request the app is answering: the wait for a bot's move in a game made
    busy (as while a move is applied) for 10 s."""
    player = TestClient(app)  # not entered: the served app's lifespan is uvicorn's
    game = settle(player, "POST", "/api/play", json={"game": "pig", "opponents": ["hold-at-20"],
                                                     "first": "you"}).json()
    cookie = "; ".join(f"{k}={v}" for k, v in player.cookies.items())
    app.state.sessions.get(game["id"])._idle.clear()
    held = []
    for _ in range(n):
        conn = socket.create_connection(("127.0.0.1", port), timeout=10)
        conn.sendall(f"GET /api/play/{game['id']}?wait=10 HTTP/1.1\r\nHost: localhost\r\nCookie: {cookie}\r\n\r\n"
                     .encode())
        held.append(conn)
    time.sleep(0.3)
    return held


def ask(port: int, path: str = "/api/games/pig", timeout: float = 10) -> int:
    """A well-behaved client's request: its status."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
        reply = b""
        while b"\r\n" not in reply:
            chunk = conn.recv(4096)
            if not chunk:
                break
            reply += chunk
    return int(reply.split()[1]) if reply else 0


def test_a_chunked_body_is_refused_once_it_passes_the_limit(server):
    """No Content-Length, a body that never ends: 413 once the bytes counted pass 2 MiB, the connection
    closed, and the server no bigger for it."""
    with socket.create_connection(("127.0.0.1", server), timeout=20) as conn:
        conn.sendall(b"POST /api/advice HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"%x\r\n%s\r\n" % (65536, b" " * 65536)
        sent, reply = 0, b""
        conn.settimeout(0.01)
        while sent < 64 * MAX_BODY_BYTES and not reply:
            try:
                conn.sendall(chunk)
                sent += 65536
                reply = conn.recv(4096)
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
        conn.settimeout(10)
        reply += conn.recv(4096) if not reply else b""
    assert reply.startswith(b"HTTP/1.1 413"), reply[:80]
    assert sent < 16 * MAX_BODY_BYTES  # refused while it streamed, not after reading it all
    assert ask(server) == 200


def test_a_client_that_trickles_its_headers_is_cut_off(server):
    with socket.create_connection(("127.0.0.1", server), timeout=10) as slow:
        slow.sendall(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n")  # and never the blank line
        start = time.monotonic()
        assert slow.recv(1024) == b""  # closed by the server
        assert 0.8 < time.monotonic() - start < 5
    assert ask(server) == 200


def closed_among(conns: list[socket.socket]) -> int:
    """How many of ``conns`` the server has closed."""
    closed = 0
    for conn in conns:
        conn.settimeout(2)
        try:
            closed += conn.recv(1024) == b""
        except OSError:
            closed += 1
    return closed


def test_connections_held_open_without_a_request_make_room_for_new_ones(server):
    """At the cap, the connection waiting longest for its headers is closed for a new one: a client holding
    connections open cannot lock the others out."""
    idle = [socket.create_connection(("127.0.0.1", server), timeout=10) for _ in range(30)]
    try:
        for _ in range(5):
            assert ask(server) == 200
        assert closed_among(idle[:18]) == 18  # the oldest were closed to make room
    finally:
        for conn in idle:
            conn.close()


def slow_body(port: int) -> socket.socket:
    """A request whose headers came, and whose body is still coming: a connection busy with a request."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=10)
    conn.sendall(b"POST /api/advice HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 1000\r\n\r\n{\"game\": ")
    return conn


def test_bodies_that_trickle_in_make_room_for_new_requests(server):
    """At the cap, a connection whose body is still coming is closed for a new one, the oldest first: a client
    that sends headers and then a byte now and then holds no slot another client needs."""
    slow = [slow_body(server) for _ in range(30)]
    time.sleep(0.3)
    try:
        assert [ask(server) for _ in range(4)] == [200] * 4
        assert closed_among(slow[:18]) == 18  # the oldest were closed to make room
    finally:
        for conn in slow:
            conn.close()


def test_at_the_cap_a_connection_just_opened_is_not_closed_for_the_next(server):
    """Every slot held by trickled bodies: a client that has connected but whose request the server has not
    read yet keeps its connection when another connects (the trickled bodies go first), and is answered."""
    slow = [slow_body(server) for _ in range(11)]
    time.sleep(0.3)
    try:
        with socket.create_connection(("127.0.0.1", server), timeout=10) as first:
            time.sleep(0.2)  # accepted, nothing sent yet
            assert ask(server) == 200  # the next client, at the cap
            first.sendall(b"GET /api/games/pig HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            assert first.recv(64).startswith(b"HTTP/1.1 200")
    finally:
        for conn in slow:
            conn.close()


def test_past_the_cap_of_busy_connections_a_new_one_gets_503_told_once(served_app, capfd):
    """When every connection has a request the app is answering, a new one gets 503, and stderr says so once,
    not once a socket."""
    server, app = served_app
    busy = busy_requests(server, app, 12)
    try:
        statuses = [ask(server) for _ in range(4)]
        assert statuses == [503] * 4, statuses
    finally:
        for conn in busy:
            conn.close()
    for _ in range(50):
        if ask(server) == 200:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the server did not recover")
    assert capfd.readouterr().err.count("connections open") == 1


def test_a_body_that_does_not_come_in_time_is_refused(server, monkeypatch):
    from dicesolver.web import bodies

    monkeypatch.setattr(bodies, "BODY_SECONDS", 1.0)
    with slow_body(server) as conn:
        start = time.monotonic()
        reply = conn.recv(1024)
    assert reply.startswith(b"HTTP/1.1 408") and time.monotonic() - start < 5


# -- workers die with their parent ---------------------------------------------------------------------------

def answers(port: int, process: subprocess.Popen) -> None:
    """Waits until the server ``process`` started answers on ``port`` (an AssertionError if it ends first)."""
    for _ in range(600):
        try:
            if ask(port) == 200:
                return
        except OSError:
            time.sleep(0.1)
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else "it ended"
    raise AssertionError("the server did not answer")


def _children(pid: int) -> set[int]:
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                out.add(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the worker processes in /proc")
def test_workers_die_with_a_killed_server_and_the_port_is_free_again(tmp_path):
    port = free_port()
    env = {**os.environ, "DICESOLVER_CACHE_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "dicesolver", "serve", "--port", str(port), "--workers", "2"]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    again = None
    try:
        answers(port, server)
        workers = _children(server.pid)
        assert len(workers) >= 2
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        deadline = time.monotonic() + 15
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(w) for w in workers), "a worker outlived its server"
        again = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        answers(port, again)  # it binds the port at once
    finally:
        for process in (server, again):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(20)


def test_table_builds_wait_in_one_queue_and_a_full_queue_is_refused(cache):
    """One build at a time, the next few waiting their turn (their bar says so); past the queue's length a
    request is refused with 503 at once; reading a table on disk never waits for builds."""
    from dicesolver.core import tables
    from dicesolver.web.solutions import Busy, NotReady, SolutionStore

    store = SolutionStore(wait_seconds=0)
    release = threading.Event()
    building: list[str] = []
    most = []

    def work_for(name: str, on_disk: bool = False):
        def work(progress):
            if not on_disk:
                tables.may_build(tables.TableKey("test", name, "0" * 16))  # NotBuilt while builds are refused
                building.append(name)
                most.append(len(building))
                release.wait(20)
                building.remove(name)
            return name
        return work

    jobs = []
    for i in range(SolutionStore.MAX_BUILDS):
        with pytest.raises(NotReady) as pending:
            store.prepare(f"k{i}", f"solving g{i}", work_for(f"g{i}"))
        jobs.append(pending.value.job)
    deadline = time.monotonic() + 10
    while len(store._lanes["long"]) < SolutionStore.MAX_BUILDS and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(building) == 1 and [j.label.endswith("before it") for j in store._lanes["long"]] == [False, True, True, True]
    with pytest.raises(Busy, match="one at a time"):
        store.prepare("k9", "solving g9", work_for("g9"))
    assert store.prepare("disk", "loading", work_for("disk", on_disk=True)) == "disk"  # never queued
    release.set()
    for job in jobs:
        while job.state == "running" and time.monotonic() < deadline + 20:
            time.sleep(0.01)
        assert job.state == "done"
    assert max(most) == 1 and store.prepare("k9", "solving g9", work_for("g9"), wait=5) == "g9"


def test_one_client_never_holds_every_place_in_a_build_lane(cache):
    """Builds asked from one address take at most MAX_BUILDS_PER_CLIENT places of a lane: the next one from it
    is refused (503: wait for yours), while another address still gets a place."""
    from dicesolver.core import tables
    from dicesolver.web.solutions import REQUESTER, Busy, NotReady, SolutionStore

    store = SolutionStore(wait_seconds=0)
    release = threading.Event()

    def work(progress):
        tables.may_build(tables.TableKey("test", "slow", "0" * 16))
        release.wait(20)
        return "built"

    def ask(key: str, client: str):
        """The job started for ``client``, once it has its place in the lane (or failed)."""
        REQUESTER.set(client)
        with pytest.raises(NotReady) as pending:
            store.prepare(key, key, work)
        job = pending.value.job
        while job.state == "running" and job not in store._lanes["long"]:
            time.sleep(0.01)
        return job

    try:
        jobs = [ask(f"mine{i}", "10.0.0.66") for i in range(SolutionStore.MAX_BUILDS_PER_CLIENT)]
        assert [j.state for j in jobs] == ["running"] * SolutionStore.MAX_BUILDS_PER_CLIENT
        with pytest.raises(Busy, match="your address"):  # one more from the same address
            store.prepare("mine-more", "mine-more", work, wait=5)
        theirs = ask("theirs", "10.0.0.77")
        assert theirs.state == "running" and theirs in store._lanes["long"]
    finally:
        REQUESTER.set("")
        release.set()


def test_a_build_nobody_asks_about_stops_and_gives_way(cache, monkeypatch):
    """A page that asked for a long build and went away: once nobody has asked about the job for
    ORPHAN_SECONDS, the build stops at its next progress report (the next build in its lane goes); a job its
    page polls goes on, and a warmup's goes on unasked."""
    from dicesolver.core import tables
    from dicesolver.web import solutions
    from dicesolver.web.solutions import NotReady, SolutionStore

    monkeypatch.setattr(solutions, "ORPHAN_SECONDS", 0.5)
    store = SolutionStore(wait_seconds=0)

    def work(progress):
        tables.may_build(tables.TableKey("test", "slow", "0" * 16))
        for step in range(30):
            progress(step, 30)
            time.sleep(0.1)
        return "built"

    jobs = {}
    for key, expires in (("left", True), ("polled", True), ("warmup", False)):
        with pytest.raises(NotReady) as pending:
            store.prepare(key, key, work, expires=expires)
        jobs[key] = pending.value.job
    deadline = time.monotonic() + 30
    while any(j.state == "running" for j in jobs.values()) and time.monotonic() < deadline:
        store.job(jobs["polled"].id)  # its page polls it
        time.sleep(0.1)
    assert jobs["left"].state == "failed" and "nobody asked" in jobs["left"].error
    assert jobs["polled"].state == "done" and jobs["warmup"].state == "done"


def test_an_app_that_stops_stops_its_table_builds(cache):
    """Leaving the app (its lifespan's end: a served app's shutdown, a test's ``with TestClient``) stops the
    build running and the builds waiting their turn, each at its next progress report, and refuses new jobs
    (503): a build left behind kept a core and the shared threads busy after its app was gone."""
    from dicesolver.core import tables
    from dicesolver.web.solutions import JOB_THREAD, NotReady, Stopped

    reports = []

    def endless(name: str):
        def work(progress):
            tables.may_build(tables.TableKey("test", name, "0" * 16))  # a build: in the queue
            while True:  # a long build, reporting its levels
                progress(len(reports), 0)
                reports.append(name)
                time.sleep(0.01)
        return work

    with TestClient(create_app(wait_seconds=0)) as client:
        store = client.app.state.solutions
        jobs = []
        for name in ("first", "second"):
            with pytest.raises(NotReady) as pending:
                store.prepare(name, f"solving {name}", endless(name))
            jobs.append(pending.value.job)
        deadline = time.monotonic() + 10
        while not (reports and jobs[1].label.endswith("before it")) and time.monotonic() < deadline:
            time.sleep(0.01)  # the first building, the second queued (its thread may not be there yet)
        assert jobs[1].label.endswith("before it")  # waiting its turn
    assert not [t for t in threading.enumerate() if t.name.startswith(JOB_THREAD)]  # stopped and joined
    assert [j.state for j in jobs] == ["failed", "failed"] and all(isinstance(j.failure, Stopped) for j in jobs)
    assert set(reports) == {"first"}  # the second never started
    with pytest.raises(Stopped):
        store.prepare("third", "solving third", endless("third"))
    response = client.post("/api/advice", json={"game": "pig(goal=35)", "position": "0,0,0"})
    assert response.status_code == 503 and "stopping" in response.json()["detail"], response.text


def test_a_full_build_queue_is_503_on_the_web(cache, monkeypatch):
    from dicesolver.web.solutions import SolutionStore

    monkeypatch.setattr(SolutionStore, "MAX_BUILDS", 0)
    client = TestClient(create_app())
    response = client.post("/api/advice", json={"game": "pig(goal=35)", "position": "0,0,0"})
    assert response.status_code == 503 and "try again" in response.json()["detail"]


def test_no_server_path_in_anything_a_client_sees(cache, tmp_path):
    """Every answer of a whole game, its records, its review, advice and errors: none names a path of the
    server (its cache, its working directory)."""
    from test_web_api import play_to_end

    client = TestClient(create_app())
    seen: list[str] = []

    def keep(response):
        seen.append(response.text)
        return response

    view = keep(settle(client, "POST", "/api/play", json={"game": "pig(goal=30)", "opponents": ["hold-at-20"],
                                                          "first": "you", "seed": 4})).json()
    for _ in range(400):
        if view["over"]:
            break
        view = keep(client.post(f"/api/play/{view['id']}/send", json={"line": "r"})).json()
        while view["busy"]:
            view = keep(client.get(f"/api/play/{view['id']}?wait=2")).json()
    assert view["over"]
    keep(client.get("/api/records"))
    keep(settle(client, "POST", f"/api/records/{view['record']}/review"))
    keep(settle(client, "POST", "/api/advice", json={"game": "pig(goal=30)", "position": "0,0,0"}))
    for bad in ({"game": "pig(goal=30)", "position": "nonsense"}, {"game": "/etc/passwd", "position": "x"}):
        keep(client.post("/api/advice", json=bad))
    keep(client.post("/api/review", json={"record": "{\"game\": \"pig\"}\nnot json\n", "player": 0}))
    keep(client.get("/api/records/nothing.jsonl/review"))
    text = "\n".join(seen)
    for path in {str(cache), str(tmp_path), os.getcwd(), str(Path.home())}:
        assert path not in text, path


def test_messages_name_no_server_folder(cache):
    from dicesolver.web.app import without_paths

    message = f"could not save the table in {cache}/solitaire (No space left on device)"
    assert without_paths(message) == "could not save the table in the server's cache/solitaire (No space left on device)"
    assert str(Path.home()) not in without_paths(f"cannot read {Path.home()}/x")


# -- bounds for one browser -------------------------------------------------------------------------------------

def test_one_browser_starts_a_bounded_number_of_games(cache, monkeypatch):
    """30 new games a minute at most (here 5; 429 after); at most 20 unfinished: the oldest one abandoned for a week
    is put out to make room, else 429; the list is paged."""
    from dicesolver.web import records

    monkeypatch.setattr(records, "STARTS_PER_MINUTE", 5)
    monkeypatch.setattr(records, "MAX_UNFINISHED", 4)
    client = TestClient(create_app())
    # own dice: each game waits for the person's first throw (with drawn dice, the forced first rolls of a turn are
    # played for them, and two 1s against the bot's 20s had ended a game of 30 at once, one run in ten)
    body = {"game": "pig(goal=30)", "opponents": ["hold-at-20"], "first": "you", "manual_dice": True}
    started = [settle(client, "POST", "/api/play", json=body) for _ in range(4)]
    assert all(r.status_code == 200 for r in started)
    full = client.post("/api/play", json=body)
    assert full.status_code == 429 and "unfinished" in full.json()["detail"]
    names = [r.json()["record"] for r in started]
    oldest = cache / "web-games" / names[0]
    week_ago = time.time() - 8 * 24 * 3600
    os.utime(oldest, (week_ago, week_ago))
    assert settle(client, "POST", "/api/play", json=body).status_code == 200  # the abandoned one made room
    assert not oldest.exists() and not oldest.with_name(oldest.name + ".owner").exists()
    listed = client.get("/api/records").json()
    assert len(listed) == 4 and names[0] not in [r["name"] for r in listed]
    assert [r["name"] for r in client.get("/api/records?offset=1&limit=2").json()] == [r["name"] for r in listed[1:3]]
    monkeypatch.setattr(records, "MAX_UNFINISHED", 100)  # the rate alone: 5 started in this minute already
    again = client.post("/api/play", json=body)
    assert again.status_code == 429 and "a minute" in again.json()["detail"]
    other = TestClient(create_app())  # another browser has its own share
    assert settle(other, "POST", "/api/play", json=body).status_code == 200


def test_past_the_servers_count_of_games_only_known_browsers_start_more(cache, monkeypatch):
    """At MAX_RECORDS games on disk (here 3), a browser new to the server is refused (429) while one that has
    games here starts another: a flood of new browsers cannot crowd out the players the server knows."""
    from dicesolver.web import records

    monkeypatch.setattr(records, "MAX_RECORDS", 3)
    app = create_app()
    body = {"game": "pig(goal=30)", "opponents": ["hold-at-20"], "first": "you", "manual_dice": True}
    known = TestClient(app)
    assert settle(known, "POST", "/api/play", json=body).status_code == 200
    for _ in range(2):
        assert settle(TestClient(app), "POST", "/api/play", json=body).status_code == 200
    refused = TestClient(app).post("/api/play", json=body)
    assert refused.status_code == 429 and "played here before" in refused.json()["detail"]
    assert settle(known, "POST", "/api/play", json=body).status_code == 200


def test_an_unknown_game_id_costs_a_lookup_not_a_walk_through_every_record(cache, monkeypatch):
    from dicesolver.web import sessions as web_sessions

    client = TestClient(create_app())
    settle(client, "POST", "/api/play", json={"game": "pig(goal=30)", "opponents": ["hold-at-20"], "first": "you"})
    walks = []
    real = Path.glob
    monkeypatch.setattr(web_sessions.Path, "glob", lambda self, pattern: walks.append(pattern) or real(self, pattern))
    for k in range(20):
        assert client.get(f"/api/play/{k:016x}").status_code == 404
    assert client.get("/api/play/not-an-id").status_code == 404
    assert len(walks) <= 1


def test_a_game_being_scanned_for_is_found_by_every_request_meanwhile(cache, monkeypatch):
    """A record another process wrote is found by a request that comes while a first request's scan of the
    folder is still under way (as when a worker restarts): it scans too, rather than answering 404."""
    from dicesolver.web import sessions as web_sessions

    folder = cache / "web-games"
    folder.mkdir(parents=True)
    store = web_sessions.SessionStore(folder)
    record = folder / "pig-1-abcd.jsonl"
    record.write_text("{}\n")
    real = Path.glob

    def slow_glob(self, pattern):
        time.sleep(0.5)  # a folder of many records
        return real(self, pattern)

    monkeypatch.setattr(web_sessions.Path, "glob", slow_glob)
    found: list = []
    first = threading.Thread(target=lambda: found.append(store.record_of(web_sessions.game_id(record))))
    first.start()
    time.sleep(0.1)
    assert store.record_of(web_sessions.game_id(record)) == record  # while the first scan is under way
    first.join()
    assert found == [record]


def test_one_address_holds_at_most_its_share_of_connections(served_app, monkeypatch):
    """Busy connections from one address past its share: that address gets 503, the cap is not reached."""
    server, app = served_app
    monkeypatch.setattr(connections.GuardedH11, "MAX_PER_ADDRESS", 5)
    busy = busy_requests(server, app, 5)
    try:
        assert ask(server) == 503  # the sixth from 127.0.0.1 (the cap of 12 is not reached)
    finally:
        for conn in busy:
            conn.close()
    time.sleep(0.3)
    assert ask(server) == 200


def test_a_table_beyond_the_servers_limit_is_refused_with_its_size(cache):
    """Two-person Crag's table (about 20 GB) is not built because a page asked: 413 with its size, before
    anything is written; a table within the limit is built as before."""
    from dicesolver.core import registry

    crag = registry.load("crag", 2)
    assert registry.family_of(crag).table_size(crag, "malina").bytes > 15e9
    client = TestClient(create_app(max_table_gb=0.005))
    body = {"game": "crag", "opponents": ["malina"], "first": "you"}
    response = settle(client, "POST", "/api/play", json=body)
    assert response.status_code == 413 and "about 19.7 GB, about 3.1 h to build" in response.json()["detail"]
    written = files_under(cache)  # the hints' small tables (Mindful's), not the two-person table
    assert sum(p.stat().st_size for p in written) < 50e6 and not any("duel" in str(p) for p in written)
    big_pig = settle(client, "POST", "/api/advice", json={"game": "pig(goal=200)", "position": "0,0,0"})
    assert big_pig.status_code == 413  # 64 MB of chances over a 5 MB limit
    assert settle(client, "POST", "/api/advice", json={"game": "pig(goal=40)", "position": "0,0,0"}).status_code == 200


def test_a_table_to_build_is_told_with_its_size_and_time():
    """From the rules alone, against what BENCHMARKS.md measured on the 2-core machine."""
    from dicesolver.core import registry

    def told(name: str, players: int | None = None, bot: str | None = None) -> str:
        game = registry.load(name, players)
        return registry.family_of(game).table_size(game, bot).describe()

    assert told("generala", 2) == "about 347.1 MB, about 52 s to build on 2 cores"  # measured: 49-51 s
    assert told("yacht", 2, "malina") == "about 6.2 GB, about 60 min to build on 2 cores"  # measured: about an hour
    assert told("pig") == "about 8.0 MB, under a second to build"
    assert told("farkle(goal=1000)").endswith("about 28 s to build on 2 cores")  # measured: 26.8 s
    assert registry.family_of(registry.load("despirala")).table_size(registry.load("despirala")) is None


def test_a_quick_build_never_waits_behind_a_long_one(cache):
    """Builds go in two lanes by their estimate: a 1-second table is built while a long build runs (it used to
    wait 10 minutes behind a Farkle build); the long build says its estimate and the command that builds it
    ahead of time before it starts; a build waiting its turn says for about how long."""
    from dicesolver.core import tables
    from dicesolver.core.family import TableSize
    from dicesolver.web.solutions import NotReady, SolutionStore

    store = SolutionStore(wait_seconds=0)
    release = threading.Event()

    def work_for(name: str, hold: bool):
        def work(progress):
            tables.may_build(tables.TableKey("test", name, "0" * 16))  # NotBuilt while builds are refused
            if progress:
                progress(1, 4)
            if hold:
                release.wait(20)
            return name
        return work

    long_size = lambda: TableSize(10**9, 2100.0)  # noqa: E731  (35 minutes)
    try:
        lanes_of_builds(store, release, work_for, long_size)
    finally:
        release.set()


def lanes_of_builds(store, release, work_for, long_size):
    from dicesolver.core.family import TableSize
    from dicesolver.web.solutions import NotReady

    with pytest.raises(NotReady) as first:
        store.prepare("long", "solving farkle", work_for("farkle", True), size=long_size,
                      ahead="dicesolver warmup farkle")
    with pytest.raises(NotReady) as second:
        store.prepare("long2", "solving zilch", work_for("zilch", True), size=long_size)
    deadline = time.monotonic() + 10
    while len(store._lanes["long"]) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert first.value.job.label == ("solving farkle (once: about 35 min on this machine; 'dicesolver warmup farkle' "
                                     "builds it ahead of time)")
    time.sleep(1.2)  # the waiting job's words, worked out again each second
    assert re.fullmatch(r"solving zilch \(once: about 35 min on this machine\): waiting for 1 table build before it, "
                        r"about \d+ (s|min)", second.value.job.label), second.value.job.label
    began = time.monotonic()
    quick = store.prepare("quick", "solving yatzy", work_for("yatzy", False), wait=10,
                          size=lambda: TableSize(10**6, 1.0))
    assert quick == "yatzy" and time.monotonic() - began < 5  # beside the long build, not after it
    release.set()
    for job in (first.value.job, second.value.job):
        while job.state == "running" and time.monotonic() < deadline + 20:
            time.sleep(0.01)
        assert job.state == "done"


def test_a_server_started_with_warmup_builds_those_tables_as_it_starts(cache):
    """``serve --warmup GAME``: the app starts the game's table as it starts, in its build lanes, so that the
    first page to ask finds it built (or its job and bar); an unknown game is a usage error before serving."""
    from dicesolver.web.solutions import SolutionStore

    app = create_app(warmup=["generala"])
    with TestClient(app) as client:
        store: SolutionStore = app.state.solutions
        deadline = time.monotonic() + 60
        while not store.ready(ds_load("generala")) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert store.ready(ds_load("generala"))
        assert client.post("/api/advice", json={"game": "generala", "position": "/11345/1"}).status_code == 200
    done = subprocess.run([sys.executable, "-m", "dicesolver", "serve", "--warmup", "nosuchgame"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "unknown game 'nosuchgame'" in done.stderr


def ds_load(spec):
    import dicesolver as ds

    return ds.load_game(spec)


def test_pollers_of_a_busy_game_hold_no_thread(cache):
    """Sixty clients waiting on a game busy with a move (GET /api/play/ID?wait=3) hold no thread each: another
    client's GET /api/games is answered at once, not after the pool of threads (40) frees up."""
    import threading
    import urllib.request

    import httpx2

    app = create_app()
    with served(app) as port:
        base = f"http://127.0.0.1:{port}"
        with httpx2.Client(base_url=base) as player:
            game = settle(player, "POST", "/api/play", json={"game": "pig", "opponents": ["hold-at-20"],
                                                             "first": "you"}).json()
            session = app.state.sessions.get(game["id"])
            session._idle.clear()  # as while a move is applied
            cookie = "; ".join(f"{k}={v}" for k, v in player.cookies.items())

            def poll() -> None:
                request = urllib.request.Request(f"{base}/api/play/{game['id']}?wait=3", headers={"Cookie": cookie})
                urllib.request.urlopen(request, timeout=30).read()

            pollers = [threading.Thread(target=poll, daemon=True) for _ in range(60)]
            for thread in pollers:
                thread.start()
            time.sleep(0.5)  # all of them waiting now
            start = time.perf_counter()
            assert urllib.request.urlopen(f"{base}/api/games/pig", timeout=30).status == 200
            took = time.perf_counter() - start
            session._idle.set()
            for thread in pollers:
                thread.join(30)
    assert took < 1.0, took
