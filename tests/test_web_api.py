"""The web app's JSON API (FastAPI TestClient): every endpoint, with good, malformed and hostile input."""

import json
import os
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from test_explain import TWO_PERSON_END
from webclient import TestClient

import dicesolver
from dicesolver.web.app import create_app


def settle(client, method, url, **kwargs):
    """Send a request, waiting out 202 (a table being solved) by polling its job."""
    for _ in range(600):
        response = client.request(method, url, **kwargs)
        if response.status_code != 202:
            return response
        job = response.json()["job"]
        assert job["state"] in ("running", "done")
        polled = client.get(f"/api/jobs/{job['id']}")
        assert polled.status_code == 200 and polled.json()["id"] == job["id"]
        time.sleep(0.1)
    raise AssertionError("the table never became ready")


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def play_to_end(client, view, line="t"):
    for _ in range(400):
        if view["over"]:
            return view
        if view["prompt"]:
            response = client.post(f"/api/play/{view['id']}/send", json={"line": line})
            assert response.status_code == 200, response.text
            view = response.json()
        else:
            view = client.get(f"/api/play/{view['id']}?wait=2").json()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("module", ["dicesolver.web.models", "dicesolver.core.results"])
def test_every_model_names_only_models_defined_above_it(module):
    """The oldest pydantic we allow (2.5, ``make test-floors``) cannot resolve a model named before it is defined
    when FastAPI builds a route's schema: every route using it failed there, though newer pydantic passes."""
    import ast
    import importlib

    tree = ast.parse(Path(importlib.import_module(module).__file__).read_text(encoding="utf-8"))
    classes = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
    defined: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            named = {n.id for field in node.body if isinstance(field, ast.AnnAssign)
                     for n in ast.walk(field.annotation) if isinstance(n, ast.Name)}
            early = named & classes - defined - {node.name}
            assert not early, f"{node.name} names {sorted(early)} before they exist"
            defined.add(node.name)


def test_games_and_schema(client):
    games = client.get("/api/games").json()
    kinds = {g["name"]: g["family"] for g in games}
    assert kinds["yahtzee"] == "scorecard" and kinds["skunk"] == "pushluck" and kinds["despirala(misere)"] == "despirala"
    yacht = client.get("/api/games/yacht").json()
    assert yacht["dice"] == 5 and len(yacht["categories"]) == 12 and "optimal" in yacht["bots"]
    pages = {g["name"]: g["page"] for g in games}  # what the page offers comes from the family, per game
    assert pages["skunk"]["max_opponents"] == 1 and "hold" in pages["skunk"]["quick"]
    assert pages["yacht"]["explore_odds"] and pages["despirala"]["explore"][0]["image"] == "simulation.png"
    for page in pages.values():  # every start position is one the advisor accepts
        assert page["start_position"] and page["quick"]
    assert client.get("/api/games/yahtzee(upper_bonus=off)").json()["name"] == "yahtzee(upper_bonus=off)"
    schema = client.get("/openapi.json").json()
    assert {"/api/advice", "/api/play", "/api/review", "/api/explore/odds"} <= set(schema["paths"])
    assert schema["info"]["version"] == dicesolver.__version__  # written once, in the package
    assert {"Advice", "Review", "Option"} <= set(schema["components"]["schemas"])
    page = client.get("/")
    assert page.status_code == 200 and "dicesolver" in page.text
    assert client.get("/static/app.js").status_code == 200


def test_explain_says_why_as_the_command_line_does(client):
    r = settle(client, "POST", "/api/explain", json={"game": "yacht-dice", "position": "/13456/2"})
    body = r.json()
    assert r.status_code == 200 and body["best"] == "keep 3456" and body["versus"] == body["options"][1]["action"]
    assert sum(body["options"][0]["breakdown"].values()) == pytest.approx(body["options"][0]["value"], abs=1e-9)
    r = settle(client, "POST", "/api/explain", json={"game": "yacht-dice", "position": "/13456/2", "versus": "keep 5"})
    assert r.status_code == 200 and r.json()["versus"] == "keep 5"
    r = settle(client, "POST", "/api/explain", json={"game": "yacht", "position": TWO_PERSON_END})
    body = r.json()  # the equity is not split: beside it, the points as if alone
    assert r.status_code == 200 and body["unit"] == "equity" and body["split_unit"] == "points", body
    assert sum(body["options"][0]["breakdown"].values()) == pytest.approx(body["options"][0]["points"], abs=1e-9)
    advice = settle(client, "POST", "/api/advice", json={"game": "yacht", "position": TWO_PERSON_END}).json()
    assert advice["explains"] is True and advice["options"][0]["action"] == body["best"]
    for body, status in (({"game": "yacht-dice", "position": "/13456/2", "versus": "keep 9"}, 400),
                         ({"game": "yacht-dice", "position": "/13456/2", "why": 1}, 422),
                         ({"game": "yacht-dice", "position": "/13456/2", "versus": "k" * 300}, 422)):
        r = settle(client, "POST", "/api/explain", json=body)
        assert r.status_code == status and r.json()["detail"], body


def test_a_page_asks_no_breakdown_that_is_built_on_disk_and_says_how_to_make_it(monkeypatch, tmp_path):
    """A game whose breakdown would not fit in memory (Maxi Yatzy's) has it built on disk by `advise --explain`
    alone: asked from a page before that, the answer is one line naming the command, and nothing is built.
    Here Yacht Dice, with the limit set below its table."""
    from dicesolver.scorecard.game import size

    monkeypatch.setattr(size, "TABLE_LIMIT_BYTES", 1000)
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    with TestClient(create_app()) as fresh:
        advice = settle(fresh, "POST", "/api/advice", json={"game": "yacht-dice", "position": "/13456/2"}).json()
        assert advice["explains"] is False
        r = settle(fresh, "POST", "/api/explain", json={"game": "yacht-dice", "position": "/13456/2"})
    assert r.status_code == 400 and "dicesolver advise yacht-dice POSITION --explain" in r.json()["detail"], r.json()
    assert not list(tmp_path.rglob("*breakdown*"))  # nothing built, not even begun


def test_a_training_session_through_the_api(client):
    r = settle(client, "POST", "/api/train/questions", json={"game": "yacht", "questions": 3, "seed": 4})
    assert r.status_code == 200
    asked = r.json()["questions"]
    assert len(asked) == 3 and all(len(q["board"]["actions"]) > 1 for q in asked)
    answers = []
    for q in asked:  # the worst option each time
        action = q["board"]["actions"][-1]["action"]
        verdict = settle(client, "POST", "/api/train/answer",
                         json={"game": "yacht", "position": q["position"], "action": action}).json()
        assert verdict["action"] == action and verdict["cost"] >= 0 and verdict["best"]
        answers.append({"game": "yacht", "position": q["position"], "action": action})
    r = settle(client, "POST", "/api/train/finish", json={"game": "yacht", "answers": answers, "width": 390})
    body = r.json()
    assert r.status_code == 200 and body["decisions"] == 3 and body["plot"].startswith("data:image/png;base64,")
    assert body["mistakes"] == sum(n for k, n in body["labels"].items() if k != "best")
    assert body["rating"] in ("world class", "expert", "advanced", "intermediate", "casual", "beginner")
    assert body["compared"] > 0 and body["history"][-1]["rating"] == body["rating"]
    # served on this machine alone, the page's training is the terminal's: one history, one deck
    from dicesolver import load_game
    from dicesolver.core.training import TrainingRecord

    terminal = TrainingRecord.load(load_game("yacht"))
    assert terminal.sessions[-1].rating == body["rating"] and len(terminal.mistakes) >= body["mistakes"]
    again = settle(client, "POST", "/api/train/questions", json={"game": "yacht", "questions": 2, "seed": 5}).json()
    assert again["questions"][0]["note"].startswith("you lost")  # this browser's mistakes come first
    for url, body, status in (("/api/train/questions", {"game": "yacht", "questions": 31}, 422),
                              ("/api/train/answer", {"game": "yacht", "position": "/-/3", "action": "keep 1"}, 400),
                              ("/api/train/answer", {"game": "yacht", "position": "/11345/1", "action": "keep 7"}, 400),
                              ("/api/train/finish", {"game": "yacht", "answers": []}, 422),
                              ("/api/train/finish", {"game": "yacht", "answers": [  # a throw is no answer
                                  {"game": "yacht", "position": "/-/3", "action": "11345"}]}, 400)):
        r = settle(client, "POST", url, json=body)
        assert r.status_code == status and r.json()["detail"], (url, body)


def test_advice_matches_the_command_line_figures(client):
    r = settle(client, "POST", "/api/advice", json={"game": "skunk", "position": "0,87,32"})
    body = r.json()
    assert r.status_code == 200 and body["unit"] == "p_win" and body["details"]["thresholds"] == [33, 44, 100]
    r = settle(client, "POST", "/api/advice", json={"game": "despirala", "position": "none;5;123456"})
    options = r.json()["options"]
    assert options[0]["option"] == "Straight" and round(options[0]["value"], 3) == 460.054
    assert round(options[1]["cost"], 3) == 19.387
    r = settle(client, "POST", "/api/advice", json={"game": "yacht", "position": "/11345/1"})
    body = r.json()
    assert r.status_code == 200 and body["options"][0]["kind"] == "keep" and body["options"][0]["cost"] == 0
    assert all(a["value"] >= b["value"] for a, b in zip(body["options"], body["options"][1:]))
    r = settle(client, "POST", "/api/advice", json={"game": "yacht", "position": "/-/3"})
    assert r.status_code == 200 and r.json()["options"] == [] and r.json()["value"] > 0


@pytest.mark.parametrize("body, status, words", [
    ({"game": "nope", "position": "/-/3"}, 400, "unknown game"),
    ({"game": "yacht", "position": "/1134/1"}, 400, "5 dice"),
    ({"game": "yacht", "position": "/11347/1"}, 400, "not a face"),
    ({"game": "yahtzee", "position": "aces=7/11345/1"}, 400, "not a possible score"),
    ({"game": "yacht", "position": "/11345/9"}, 400, "rolls left"),
    ({"game": "skunk", "position": "0,100,3"}, 400, "below the goal"),
    ({"game": "despirala", "position": "Straight,Straight;5;123456"}, 400, "twice"),
    ({"game": "../../etc/passwd", "position": "/-/3"}, 400, "built-in games"),
    ({"game": "C:\\rules.toml", "position": "/-/3"}, 400, "built-in games"),
    ({"game": "yacht", "position": "x" * 3000}, 422, "position"),
    ({"game": "yacht"}, 422, "position"),
    ({"game": 7, "position": []}, 422, "game"),
])
def test_bad_advice_requests_are_clear_4xx(client, body, status, words):
    r = settle(client, "POST", "/api/advice", json=body)
    assert r.status_code == status and words in r.json()["detail"]


def test_malformed_and_huge_payloads(client):
    r = client.post("/api/advice", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    r = client.post("/api/advice", content=b"x" * (3 * 2**20), headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "MiB" in r.json()["detail"]
    r = client.post("/api/review", json={"record": "x" * 1_000_001})
    assert r.status_code == 422
    assert client.get("/api/jobs/nope").status_code == 404
    assert client.get("/api/play/nope").status_code == 404
    assert client.post("/api/play/nope/send", json={"line": "t"}).status_code == 404


def test_play_a_game_then_review_it(client):
    r = settle(client, "POST", "/api/play", json={"game": "pig(goal=15)", "opponents": ["hold-at-5"], "first": "you",
                                                    "seed": 4})
    assert r.status_code == 200, r.text
    view = r.json()
    assert "throw or hold" in view["prompt"] and not view["over"]
    hint = client.post(f"/api/play/{view['id']}/send", json={"line": "hint"}).json()
    assert "cost" in hint["transcript"]
    view = play_to_end(client, hint)
    assert "wins" in view["transcript"] or "you win" in view["transcript"]
    said = view["board"]["said"]  # the board shows the table's last words (Family.scene)
    assert len(said) == 1 and said[0].split(",")[0] in ("you win", "hold-at-5 wins") and said[0] in view["transcript"]
    review = client.get(f"/api/play/{view['id']}/review").json()
    s = review["review"]["summary"]
    assert s["unit"] == "p_win" and s["complete"] and review["plot"].startswith("data:image/png;base64,")
    ended = client.post(f"/api/play/{view['id']}/send", json={"line": "t"})
    assert ended.status_code == 400 and "ended" in ended.json()["detail"]
    records = client.get("/api/records").json()
    assert any(rec["name"] == view["record"] and rec["over"] for rec in records)
    mine = next(rec for rec in records if rec["name"] == view["record"])
    assert len(mine["scores"]) == len(mine["players"]) and all(isinstance(x, int) for x in mine["scores"])
    [winner] = mine["winners"]  # pig has no ties
    assert mine["scores"][mine["players"].index(winner)] == max(mine["scores"]) >= 15  # the goal
    saved = client.get(f"/api/records/{view['record']}/review").json()
    assert saved["review"]["summary"] == s


def test_play_despirala_and_scorecard_sessions(client):
    r = settle(client, "POST", "/api/play", json={"game": "despirala", "opponents": ["optimal"], "first": "you", "seed": 2})
    view = r.json()
    assert r.status_code == 200 and "goods 5" in view["prompt"]
    bad = client.post(f"/api/play/{view['id']}/send", json={"line": "Collect 9"}).json()
    assert "Collect takes one face" in bad["transcript"] and bad["prompt"]
    listed = client.post(f"/api/play/{view['id']}/send", json={"line": "List"}).json()
    assert "legal moves: Reroll" in listed["transcript"]
    quit_ = client.post(f"/api/play/{view['id']}/send", json={"line": "quit"}).json()
    assert quit_["stopped"] and not quit_["over"]
    r = settle(client, "POST", "/api/play", json={"game": "yacht", "opponents": [], "seed": 1})
    view = r.json()
    assert r.status_code == 200 and view["prompt"]


@pytest.mark.parametrize("body, status, words", [
    ({"game": "pig", "opponents": ["grandmaster"]}, 400, "grandmaster"),
    ({"game": "pig", "opponents": ["optimal", "optimal"]}, 400, "one bot"),
    ({"game": "despirala", "opponents": ["greedy"]}, 400, "unknown Despirala strategy"),
    ({"game": "yacht", "opponents": ["nobody"]}, 400, "nobody"),
    ({"game": "pig", "first": "me"}, 422, "first"),
    ({"game": "pig", "seed": -1}, 422, "seed"),
    ({"game": "pig", "opponents": ["a"] * 6}, 422, "opponents"),
])
def test_bad_play_requests(client, body, status, words):
    r = settle(client, "POST", "/api/play", json=body)
    assert r.status_code == status and words in r.json()["detail"]


def test_review_uploads_and_record_names(client, tmp_path):
    r = settle(client, "POST", "/api/play", json={"game": "pig(goal=12)", "opponents": ["hold-at-4"], "first": "you",
                                                    "seed": 9})
    view = play_to_end(client, r.json())
    folder = Path(os.environ["DICESOLVER_CACHE_DIR"]) / "web-games"
    text = (folder / view["record"]).read_text()
    r = settle(client, "POST", "/api/review", json={"record": text, "player": 1})
    assert r.status_code == 200 and r.json()["review"]["summary"]["player"] == "hold-at-4"
    for record, words in [("not json at all\n", "not valid JSON"), ('{"type": "game", "format": 1, "game": "pig"}\n', "two player"),
                          ('{"type": "game", "format": 1, "game": "../x"}\n', "built-in games"),
                          ('{"type": "game", "format": 1, "game": "nope"}\n', "unknown game"), ("[]\n", "header")]:
        r = client.post("/api/review", json={"record": record})
        assert r.status_code == 400 and words in r.json()["detail"], r.text
    r = client.post("/api/review", json={"record": text, "player": 3})
    assert r.status_code == 400 and "--player" in r.json()["detail"]
    assert not list((Path(os.environ["DICESOLVER_CACHE_DIR"]) / "uploads").iterdir())  # uploads are removed
    for name, status in [("..%2F..%2Fetc%2Fpasswd", 404), ("..jsonl", 404), ("a b.jsonl", 400), ("x.txt", 400),
                         ("missing.jsonl", 404)]:
        r = client.get(f"/api/records/{name}/review")
        assert r.status_code == status, (name, r.status_code)


def draw(client, game: str, image: str):
    """A figure as the page gets it: drawn by a POST (its tables solved first), then its image read by a GET."""
    r = settle(client, "POST", "/api/explore/figure", json={"game": game, "image": image})
    assert r.status_code == 200, r.text
    return client.get(r.json()["url"])


def test_explore(client):
    r = draw(client, "pig(goal=20)", "chart.png")
    assert r.status_code == 200 and r.headers["content-type"] == "image/png" and r.content[:4] == b"\x89PNG"
    r = settle(client, "GET", "/api/explore/odds", params={"game": "yacht"})
    rows = r.json()
    assert r.status_code == 200 and len(rows) == 12 and all(0 <= row["p_max"] <= 1 for row in rows)
    r = draw(client, "yacht", "distribution.png")
    assert r.status_code == 200 and r.content[:4] == b"\x89PNG"
    r = draw(client, "despirala", "simulation.png")
    assert r.status_code == 200 and r.content[:4] == b"\x89PNG"
    assert client.get("/api/explore/despirala.png", params={"game": "despirala"}).content == r.content
    for url, params in [("/api/explore/chart.png", {"game": "yacht"}), ("/api/explore/odds", {"game": "skunk"}),
                        ("/api/explore/distribution.png", {"game": "farkle"}), ("/api/explore/despirala.png", {"game": "pig"})]:
        r = client.get(url, params=params)
        assert r.status_code == 400


def test_slow_tables_answer_202_with_a_job(tmp_path, monkeypatch):
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    with TestClient(create_app(wait_seconds=0.0)) as c:
        r = c.post("/api/advice", json={"game": "skunk(goal=60)", "position": "0,0,0"})
        assert r.status_code in (200, 202)
        if r.status_code == 202:
            assert r.json()["status"] == "solving" and r.json()["job"]["label"] == "solving skunk(goal=60)"
        r = settle(c, "POST", "/api/advice", json={"game": "skunk(goal=60)", "position": "0,0,0"})
        assert r.status_code == 200


def test_hostile_requests_never_5xx_nor_write_outside_the_cache(tmp_path, monkeypatch):
    cache, home, work = tmp_path / "cache", tmp_path / "home", tmp_path / "work"
    for d in (cache, home, work):
        d.mkdir()
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(cache))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.chdir(work)
    hostile = ["../../x", "/etc/passwd", "yahtzee(joker=99)", "yacht(" + "x=1," * 200 + ")", "\u0000", "%s%s%n", "pig(goal=1e9)",
               "despirala(misere=maybe)", "skunk(goal=-5)", "'; DROP TABLE games; --"]
    with TestClient(create_app(wait_seconds=0.0)) as c:
        for game in hostile:
            for method, url, kwargs in [
                ("POST", "/api/advice", {"json": {"game": game, "position": "/-/3"}}),
                ("POST", "/api/play", {"json": {"game": game}}),
                ("GET", f"/api/games/{quote(game, safe='')}", {}),
                ("GET", "/api/explore/odds", {"params": {"game": game}}),
                ("GET", f"/api/records/{quote(game, safe='')}/review", {}),
            ]:
                r = c.request(method, url, **kwargs)
                assert r.status_code < 500, (method, url, game, r.text)
        for body in [b"null", b"[]", b"{\"game\": {}}", json.dumps({"game": "pig", "position": "1,2,3" * 100}).encode()]:
            r = c.post("/api/advice", content=body, headers={"Content-Type": "application/json"})
            assert 400 <= r.status_code < 500
    assert not any(home.rglob("*")) and not any(work.rglob("*"))


LATE = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,escalera=20,full=30,poker=40"


@pytest.mark.parametrize("game, position", [
    ("yacht-dice", "fives=20/13456/1"), ("skunk", "0,87,20"), ("despirala", "none;5;113456"),
    ("generala", f"{LATE};{LATE.replace('sixes=18', 'sixes=24')}/66666/2"),
])
def test_the_same_advice_json_from_the_library_the_cli_and_the_web(client, capsys, game, position):
    import dicesolver as ds
    from dicesolver.cli.app import main

    library = ds.advise(game, position).model_dump(mode="json")
    with pytest.raises(SystemExit) as done:
        main(["advise", game, position, "--json"])
    assert done.value.code in (0, None)
    cli = json.loads(capsys.readouterr().out)
    web = settle(client, "POST", "/api/advice", json={"game": game, "position": position})
    assert web.status_code == 200 and library == cli == web.json()



@pytest.mark.parametrize("game,bots", [("yacht", []), ("pig", ["hold-at-20"]), ("despirala", ["optimal"])])
def test_the_play_board_is_the_engines_state(client, game, bots):
    """Every answer of a game in play carries the drawn board's snapshot: the position (which the engine
    parses back to the same state), the family's view of it and exactly the person's legal actions."""
    import dicesolver as ds

    view = settle(client, "POST", "/api/play", json={"game": game, "opponents": bots, "seed": 5, "first": "you"}).json()
    for _ in range(6):
        board = view["board"]
        state = ds.parse_state(ds.load_game(game, len(board["names"])), board["position"])
        assert str(state) == board["position"] and board["family"] == ds.load_game(game).family
        assert board["names"][board["you"]] == "you" and len(board["totals"]) == len(board["names"])
        if board["actions"]:
            assert [a["action"] for a in board["actions"]] == [str(a) for a in state.legal_actions()]
            line = board["actions"][-1]["action"]
        else:
            assert board["throw"] and state.is_chance()
            line = ""
        view = client.post(f"/api/play/{view['id']}/send", json={"line": line}).json()
        while view["busy"]:
            view = client.get(f"/api/play/{view['id']}?wait=2").json()
        assert view["board"]["position"] != board["position"] or view["over"]
        if view["over"]:
            break


@pytest.mark.parametrize("game,bots", [("yacht", ["optimal"]), ("pig", ["hold-at-20"]), ("despirala", []),
                                       ("farkle(goal=1000,floor=-500)", ["bank-at-300"])])
def test_a_move_sent_twice_is_played_once(client, game, bots):
    """Every move sent twice with the board it was made on, at once (two threads) or one after the other: one
    is played, the other answered with the game as it stands (200, 'stale'), and the record gains one move."""
    import threading

    from dicesolver.core import registry, tables

    view = settle(client, "POST", "/api/play", json={"game": game, "opponents": bots, "seed": 3, "first": "you"}).json()
    record = tables.cache_dir() / "web-games" / view["record"]
    for turn in range(8):
        while view["busy"]:
            view = client.get(f"/api/play/{view['id']}?wait=2").json()
        if view["over"]:
            break
        board = view["board"]
        line = board["actions"][0]["action"] if board["actions"] else ""
        body = {"line": line, "moves": board["moves"]}
        before = len(registry.read_record(record).steps)
        answers: list = []
        if turn % 2:  # at the same moment
            barrier = threading.Barrier(2)

            def send() -> None:
                barrier.wait()
                answers.append(client.post(f"/api/play/{view['id']}/send", json=body))

            sends = [threading.Thread(target=send) for _ in range(2)]
            for t in sends:
                t.start()
            for t in sends:
                t.join(30)
        else:  # the second once the first is answered (the old board still on the screen)
            answers = [client.post(f"/api/play/{view['id']}/send", json=body) for _ in range(2)]
        assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
        assert sorted(a.json()["stale"] for a in answers) == [False, True]
        view = next(a.json() for a in answers if not a.json()["stale"])
        while view["busy"]:
            view = client.get(f"/api/play/{view['id']}?wait=2").json()
        # one move: the person's one decision (or throw), then whatever the dice and the bot did after it
        played = registry.read_record(record)
        decisions = [i for i in range(before, len(played.steps))
                     if played.states[i].player == board["you"] and not played.states[i].is_chance()]
        assert len(played.steps) > before and len(decisions) == (1 if line else 0), (line, decisions)
        stale = next(a.json() for a in answers if a.json()["stale"])
        assert stale["board"]["moves"] >= board["moves"] + 1


def test_an_unfinished_game_continues_after_a_server_restart(tmp_path, monkeypatch):
    """A game played half-way, the server gone (a new app on the same cache), the game listed as unfinished
    and continued from its record: it ends with the same record as the same game never interrupted."""
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))

    def moves(client, view, n):
        for _ in range(n):
            while view["busy"]:
                view = client.get(f"/api/play/{view['id']}?wait=2").json()
            if view["over"]:
                return view
            board = view["board"]
            line = "" if board["throw"] else board["actions"][0]["action"]
            view = client.post(f"/api/play/{view['id']}/send", json={"line": line}).json()
        return view

    body = {"game": "skunk", "opponents": ["hold-at-20"], "seed": 9, "first": "you"}
    with TestClient(create_app()) as first:
        view = moves(first, settle(first, "POST", "/api/play", json=body).json(), 12)
        position, name = view["board"]["position"], view["record"]
        browser = dict(first.cookies)  # the same browser comes back
    with TestClient(create_app(), cookies=browser) as second:  # the server restarted: its games in memory are gone
        listed = {r["name"]: r for r in second.get("/api/records").json()}
        assert listed[name]["over"] is False and listed[name]["turn"] >= 1 and listed[name]["date"]
        resumed = settle(second, "POST", "/api/play", json={"resume": name}).json()
        assert resumed["board"]["position"] == position and "continuing from its record" in resumed["transcript"]
        again = second.post("/api/play", json={"resume": name}).json()
        assert again["id"] == resumed["id"] == view["id"]  # one game writes one record; its page's address holds
        assert second.get(f"/api/play/{view['id']}").json()["board"]["position"] == position
        finished = moves(second, resumed, 2000)
        assert finished["over"]
        record = (tmp_path / "web-games" / name).read_text()
        unbroken = moves(second, settle(second, "POST", "/api/play", json=body).json(), 2000)
        assert (tmp_path / "web-games" / unbroken["record"]).read_text() == record
        assert second.post("/api/play", json={"resume": name}).status_code == 400  # finished: see Review
        assert second.delete(f"/api/records/{name}").status_code == 400  # finished games are kept


def test_a_cut_record_continues_from_its_last_event_and_can_be_discarded(tmp_path, monkeypatch):
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    with TestClient(create_app()) as client:
        view = settle(client, "POST", "/api/play", json={"game": "pig", "opponents": ["hold-at-20"], "seed": 3,
                                                        "first": "you"}).json()
        for _ in range(3):
            view = client.post(f"/api/play/{view['id']}/send", json={"line": "throw"}).json()
        name = view["record"]
        client.post(f"/api/play/{view['id']}/send", json={"line": "quit"})
        browser = dict(client.cookies)
    path = tmp_path / "web-games" / name
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])  # a kill in the middle of a write
    with TestClient(create_app(), cookies=browser) as client:
        resumed = settle(client, "POST", "/api/play", json={"resume": name}).json()
        assert "note:" in resumed["transcript"] and resumed["board"] is not None
        assert str(tmp_path) not in resumed["transcript"] and "half-written" in resumed["transcript"]  # no server path
        assert client.delete(f"/api/records/{name}").json() == {"discarded": name}  # quit and discarded at once
        assert client.get(f"/api/play/{resumed['id']}").status_code == 404  # gone with its record
        assert not path.exists() and client.post("/api/play", json={"resume": name}).status_code == 404
        assert client.post("/api/play", json={"resume": "../x.jsonl"}).status_code == 400
        assert client.post("/api/play", json={}).status_code == 400


@pytest.mark.parametrize("path,body", [("/api/play", {"game": "yahtzee", "resum": "x.jsonl"}),
                                       ("/api/advice", {"game": "yacht", "position": "/-/3", "player": 1}),
                                       ("/api/review", {"record": "{}", "seat": 0})])
def test_an_unknown_field_is_refused_by_name(client, path, body):
    response = client.post(path, json=body)
    extra = (set(body) - {"game", "position", "record"}).pop()
    assert response.status_code == 422 and extra in response.json()["detail"]


def _server(port: int, cache: Path):
    import subprocess
    import sys
    import urllib.request

    env = {**os.environ, "DICESOLVER_CACHE_DIR": str(cache)}
    proc = subprocess.Popen([sys.executable, "-m", "dicesolver", "serve", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/pig", timeout=1)
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


def _browser():
    """One browser, whatever the server: its cookies kept (the id a server signed holds across its restarts, its
    key being in the cache folder)."""
    import http.cookiejar
    import urllib.request

    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


BROWSER = _browser()


def _call(port: int, method: str, path: str, body: dict | None = None) -> dict:
    import urllib.request

    for _ in range(600):
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                         data=json.dumps(body).encode() if body is not None else None,
                                         headers={"Content-Type": "application/json"})
        with BROWSER.open(request, timeout=60) as response:
            data = json.loads(response.read())
            if response.status != 202:
                return data
        time.sleep(0.2)  # a table being solved
    raise AssertionError(f"{path} never answered")


def _first_moves(port: int, view: dict, n: int) -> dict:
    """``n`` moves of a fixed policy (the first legal action, Enter to throw): the same game every time."""
    for _ in range(n):
        while view["busy"]:
            view = _call(port, "GET", f"/api/play/{view['id']}?wait=2")
        if view["over"]:
            break
        board = view["board"]
        view = _call(port, "POST", f"/api/play/{view['id']}/send",
                     {"line": "" if board["throw"] else board["actions"][0]["action"]})
    return view


@pytest.mark.parametrize("game,bots,played", [("yahtzee", [], 17), ("skunk", ["hold-at-20"], 9)])
def test_sigkill_of_the_server_mid_move_loses_nothing(tmp_path, game, bots, played):
    """The server killed (SIGKILL) while it answers a move: the record holds that move whole or not at all,
    and the game, continued by record name on a new server, ends with the record of the same game never
    interrupted, byte for byte."""
    import signal
    import socket
    import threading

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    body = {"game": game, "opponents": bots, "seed": 17, "first": "you"}
    server = _server(port, tmp_path)
    try:
        view = _first_moves(port, _call(port, "POST", "/api/play", body), played)
        board = view["board"]
        line = "" if board["throw"] else board["actions"][0]["action"]
        def send() -> None:
            try:
                _call(port, "POST", f"/api/play/{view['id']}/send", {"line": line})
            except OSError:  # the server is killed while it answers: no answer is what this test is about
                pass

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        time.sleep(0.005)
        server.send_signal(signal.SIGKILL)
        server.wait(10)
    finally:
        server.kill()
    record = tmp_path / "web-games" / view["record"]
    text = record.read_text()  # each line whole: the move is in the record or not at all
    assert text.endswith("\n") and all(json.loads(line) for line in text.splitlines())
    server = _server(port, tmp_path)
    try:
        unfinished = [r["name"] for r in _call(port, "GET", "/api/records") if not r["over"]]
        assert view["record"] in unfinished
        resumed = _call(port, "POST", "/api/play", {"resume": view["record"]})
        assert _first_moves(port, resumed, 3000)["over"]
        unbroken = _first_moves(port, _call(port, "POST", "/api/play", body), 3000)
        assert unbroken["over"]
        assert record.read_text() == (tmp_path / "web-games" / unbroken["record"]).read_text()
    finally:
        server.kill()


def test_a_hundred_abandoned_games_lock_nobody_out(tmp_path, monkeypatch):
    """Abandoned games are put away to disk (32 live at most) instead of refusing new ones; the page of a
    game put away finds it again, continued from its record at the same position."""
    from dicesolver.web import records

    monkeypatch.setattr(records, "STARTS_PER_MINUTE", 1000)  # many browsers' games, here from one
    monkeypatch.setattr(records, "MAX_UNFINISHED", 1000)
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    with TestClient(create_app()) as client:
        views = [settle(client, "POST", "/api/play", json={"game": "pig", "opponents": ["hold-at-20"], "seed": k,
                                                           "first": "you"}) for k in range(101)]
        assert all(v.status_code == 200 for v in views)
        first = views[0].json()
        again = client.get(f"/api/play/{first['id']}").json()
        assert again["board"]["position"] == first["board"]["position"] and again["record"] == first["record"]
        moved = client.post(f"/api/play/{first['id']}/send", json={"line": "hold"})
        assert moved.status_code == 200


def test_games_beyond_the_memory_budget_are_put_away_oldest_first_and_resume(tmp_path, monkeypatch):
    """The games held in memory fit a budget as well as a count: past it the longest-waiting are put away
    (the game asked for stays), and a game put away continues from its record where it stood."""
    from dicesolver.web import records, sessions

    monkeypatch.setattr(records, "STARTS_PER_MINUTE", 1000)
    monkeypatch.setattr(records, "MAX_UNFINISHED", 1000)
    monkeypatch.setattr(sessions, "MEMORY_BUDGET", 3 * sessions.GAME_BYTES + 100_000)
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    with TestClient(create_app()) as client:
        store = client.app.state.sessions
        views = [settle(client, "POST", "/api/play", json={"game": "pig", "opponents": ["hold-at-20"], "seed": k,
                                                           "first": "you"}).json() for k in range(6)]
        held = [v["id"] for v in views if store.get(v["id"]) is not None]
        assert held == [v["id"] for v in views[-3:]]
        assert sum(s.footprint() for s in store._sessions.values()) <= sessions.MEMORY_BUDGET
        first = client.get(f"/api/play/{views[0]['id']}").json()  # put away: continued from its record
        assert first["board"]["position"] == views[0]["board"]["position"] and first["record"] == views[0]["record"]
        assert client.post(f"/api/play/{views[0]['id']}/send", json={"line": "roll"}).status_code == 200


def test_a_game_keeps_a_bounded_transcript_however_many_hints_it_is_asked(tmp_path, monkeypatch):
    """A page asking for hints for ever does not grow its game without end: the transcript is cut."""
    from dicesolver.web import sessions

    monkeypatch.setattr(sessions, "MAX_TRANSCRIPT", 2_000)
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    with TestClient(create_app()) as client:
        view = settle(client, "POST", "/api/play", json={"game": "yacht-dice", "seed": 3}).json()
        game = client.app.state.sessions.get(view["id"])
        for _ in range(40):
            view = client.post(f"/api/play/{view['id']}/send", json={"line": "hint"}).json()
        assert game._buffer.tell() <= 2 * 2_000 + 3_000 and len(view["transcript"]) <= 2_000
        assert view["prompt"] and "best options" in view["transcript"]


def test_a_game_waiting_for_its_player_holds_no_thread(tmp_path, monkeypatch):
    """Forty games waiting at a prompt add no thread: each line runs the game only to its next prompt."""
    import threading

    from dicesolver.web import records

    monkeypatch.setattr(records, "STARTS_PER_MINUTE", 1000)  # many browsers' games, here from one
    monkeypatch.setattr(records, "MAX_UNFINISHED", 1000)
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    with TestClient(create_app()) as client:
        settle(client, "POST", "/api/play", json={"game": "pig", "opponents": ["hold-at-20"], "first": "you"})
        before = threading.active_count()
        views = [settle(client, "POST", "/api/play", json={"game": "pig", "opponents": ["hold-at-20"], "seed": k,
                                                           "first": "you"}).json() for k in range(40)]
        assert all(v["prompt"] and not v["busy"] for v in views)
        assert threading.active_count() <= before + 2


def test_lines_that_move_nothing_are_answered_once_in_the_transcript(client):
    """A hint, a mistake and 'stand' (then the box at the stand prompt, sent separately) in a game that
    waits with no thread between them: each answered once, and the box is scored from the stand prompt."""
    view = settle(client, "POST", "/api/play", json={"game": "yacht-dice", "seed": 3}).json()
    while view["board"]["throw"]:
        view = client.post(f"/api/play/{view['id']}/send", json={"line": ""}).json()
    for line in ("hint", "nonsense", "stand"):
        view = client.post(f"/api/play/{view['id']}/send", json={"line": line}).json()
    assert view["transcript"].count("best options") == 1 and "which box?" in view["prompt"]
    assert view["transcript"].count("'nonsense' is not") == 1 and view["transcript"].count("keep? stand") == 1
    moved = client.post(f"/api/play/{view['id']}/send", json={"line": "choice"}).json()
    assert moved["board"]["view"] != view["board"]["view"] and "which box? choice" in moved["transcript"]
    assert moved["transcript"].count("best options") == 1


def test_messages_speak_of_the_users_input_not_the_servers(client):
    r = client.post("/api/review", json={"record": "not json"})
    assert r.status_code == 400 and r.json()["detail"].startswith("your record") and "/" not in r.json()["detail"]
    r = client.post("/api/advice", json={"game": "yahtzeee", "position": "/-/3"})
    assert r.status_code == 400 and "yahtzee" in r.json()["detail"] and ".toml" not in r.json()["detail"]


def test_a_bots_tables_are_built_through_the_job_queue(fresh_cache):
    """Starting a game builds its bots' tables in the one job queue (202 and a progress bar), never in the
    request's thread; once built they are on disk, and an unknown bot fails its job with its reason."""
    import time

    from dicesolver.core import registry
    from dicesolver.core.errors import DicesolverError
    from dicesolver.web.solutions import NotReady, SolutionStore

    store = SolutionStore(wait_seconds=0)
    game = registry.load("yacht", 2)
    with pytest.raises(NotReady) as pending:
        store.bot(game, "target:120")
    job = pending.value.job
    assert "target:120" in job.label and store.job(job.id) is job
    deadline = time.time() + 120
    while job.state == "running" and time.time() < deadline:
        time.sleep(0.1)
    assert job.state == "done"
    store.bot(game, "target:120")  # at once now
    with pytest.raises(DicesolverError, match="unknown player"):
        store.bot(game, "nobody", wait=30)


def test_keeping_every_die_with_my_own_dice_goes_on_at_once(client):
    """The phone at the table: following a 'keep all five' hint with my own dice never asks for '0 dice'."""
    view = settle(client, "POST", "/api/play", json={"game": "yacht", "manual_dice": True, "seed": 2}).json()
    view = client.post(f"/api/play/{view['id']}/send", json={"line": "6 6 6 1 2"}).json()
    assert "keep" in view["prompt"]
    view = client.post(f"/api/play/{view['id']}/send", json={"line": "12666"}).json()
    assert "keep" in view["prompt"] and "1 throw left" in view["prompt"], view["prompt"]
    assert view["board"]["view"]["dice"] == [1, 2, 6, 6, 6] and view["board"]["view"]["rolls_left"] == 1


def test_my_own_throw_is_asked_for_on_the_board_in_every_family(client):
    """With my own dice the board says what to enter, from the throw's outcomes alone: how many dice and
    faces (only the dice thrown, not those kept), or the outcomes by name where they are not dice."""
    view = settle(client, "POST", "/api/play", json={"game": "yacht", "manual_dice": True, "seed": 2}).json()
    assert view["board"]["request"] == {"prompt": "the dice you rolled: ", "dice": 5, "faces": 6, "choices": []}
    view = client.post(f"/api/play/{view['id']}/send", json={"line": "66612"}).json()
    assert view["board"]["request"] is None and view["board"]["actions"]  # my decision now
    view = client.post(f"/api/play/{view['id']}/send", json={"line": "keep 66"}).json()
    assert view["board"]["request"]["dice"] == 3  # two kept: three thrown
    for game, dice in (("skunk", 2), ("pig", 1), ("kcd", 6)):
        view = settle(client, "POST", "/api/play", json={"game": game, "manual_dice": True, "first": "you",
                                                          "opponents": [], "seed": 1}).json()
        request = view["board"]["request"]
        assert (request["dice"], request["faces"], request["choices"]) == (dice, 6, []), game
    # Despirala: six dice, then (after a combination is picked) how its completion went, by name
    view = settle(client, "POST", "/api/play", json={"game": "despirala", "manual_dice": True, "seed": 1}).json()
    assert view["board"]["request"]["dice"] == 6
    view = client.post(f"/api/play/{view['id']}/send", json={"line": "123456"}).json()
    moves = [a["action"] for a in view["board"]["actions"]]
    for move in moves:
        after = client.post(f"/api/play/{view['id']}/send", json={"line": move, "moves": view["board"]["moves"]}).json()
        request = after["board"]["request"]
        if request and request["choices"]:
            labels = [c["label"] for c in request["choices"]]
            assert "failed" in labels and all(c["action"] == c["label"] for c in request["choices"])
            break
        client.post(f"/api/play/{view['id']}/send", json={"line": "undo"})
    else:
        raise AssertionError(f"no move led to a completion: {moves}")


def test_a_game_downloads_as_its_record_and_reviews_from_the_upload(client):
    """A game, finished or not, downloads as its record (whole lines, named as on disk); the same text uploaded
    reviews it. Another browser gets 404 for it, as for any name it does not own."""
    view = settle(client, "POST", "/api/play", json={"game": "pig", "opponents": ["hold-at-20"], "seed": 5,
                                                      "first": "you"}).json()
    half = client.get(f"/api/records/{view['record']}")
    assert half.status_code == 200 and half.headers["content-type"].startswith("application/x-ndjson")
    assert f'filename="{view["record"]}"' in half.headers["content-disposition"]
    assert half.text.endswith("\n") and json.loads(half.text.splitlines()[0])["game"].startswith("pig")
    view = play_to_end(client, view, line="r")
    whole = client.get(f"/api/records/{view['record']}").text
    assert len(whole.splitlines()) > len(half.text.splitlines())
    review = client.post("/api/review", json={"record": whole, "player": 0})
    assert review.status_code == 200 and review.json()["review"]["summary"]["complete"]
    with TestClient(create_app()) as stranger:
        assert stranger.get(f"/api/records/{view['record']}").status_code == 404


def test_advice_for_a_goal(client):
    """A goal in the advice request: the figures of ``ds.advise(..., goal=...)``; goals are a bounded set on
    the web (theta on a grid, a menu of fields), anything else is a 400 with one line."""
    import dicesolver as ds

    for goal, unit in (("field:3", "p_target"), ("theta:-0.02", "ce"), ("target:150", "p_target"),
                       ("mean", "points")):
        body = settle(client, "POST", "/api/advice",
                      json={"game": "yacht", "position": "/11236/2", "goal": goal}).json()
        want = ds.advise("yacht", "/11236/2", goal=goal)
        assert body["unit"] == unit and body["options"][0]["action"] == want.best.action, goal
        assert body["options"][0]["value"] == pytest.approx(want.best.value, abs=1e-12), goal
    for goal in ("theta:0.013", "theta:0.5", "field:1001", "field:1", "field:7", "median", "field:x", "theta:nan",
                 "percentile:5"):
        r = settle(client, "POST", "/api/advice", json={"game": "yacht", "position": "/11236/2", "goal": goal})
        assert r.status_code == 400 and r.json()["detail"] and "Traceback" not in r.text, goal
    r = settle(client, "POST", "/api/advice", json={"game": "pig", "position": "0,0,0", "goal": "field:3"})
    assert r.status_code == 400 and "not for pig" in r.json()["detail"]
    body = settle(client, "POST", "/api/advice",  # Despirala plays with a risk appetite too
                  json={"game": "despirala", "position": "none;5;123456", "goal": "theta:0.02"}).json()
    want = ds.advise("despirala", "none;5;123456", theta=0.02)
    assert body["unit"] == "ce" and body["options"][0]["value"] == pytest.approx(want.best.value, abs=1e-12)
    despirala = client.get("/api/games/despirala").json()
    assert "theta" in despirala["page"]["goals"] and not any(":" in bot for bot in despirala["bots"])
    r = settle(client, "POST", "/api/advice", json={"game": "yacht", "position": "/11236/2", "goal": "x" * 41})
    assert r.status_code == 422


def test_the_frontier_drawn_on_the_explore_page(client):
    """The explore page's risk-appetite figure: drawn by a job (each theta's table), then read by a GET."""
    info = client.get("/api/games").json()
    yacht = next(g for g in info if g["name"] == "yacht")
    assert "frontier.png" in [x["image"] for x in yacht["page"]["explore"]]
    r = draw(client, "yacht", "frontier.png")
    assert r.status_code == 200 and r.headers["content-type"] == "image/png" and r.content[:4] == b"\x89PNG"


def registry_load_reads(path) -> bool:
    from dicesolver.core import registry

    return registry.load(str(path)).canonical is not None


def test_a_records_header_is_read_once_whatever_its_first_lines(client, tmp_path, monkeypatch):
    """The rules-file guard reads the header the reader reads: blank first lines, CR line ends, a BOM or
    whitespace before the header cannot make the server open a file a record names (a real rules file here)."""
    import shutil

    from dicesolver.scorecard.game import presets

    rules = tmp_path / "mine.toml"
    shutil.copy(Path(presets.__file__).parent / "presets" / "yacht.toml", rules)
    opened = []
    real = presets._read_file
    monkeypatch.setattr(presets, "_read_file", lambda path: opened.append(path) or real(path))
    assert registry_load_reads(rules) and opened == [rules]  # the watch sees a rules file read
    opened.clear()
    header = json.dumps({"type": "game", "format": 2, "game": str(rules), "players": ["you"]})
    for text in (f"\n{header}\n", f"\n\n  \n{header}\n", f"\r\n{header}\r\n", f"   \n{header}\n", f"\t{header}\n",
                 f"\ufeff{header}\n", f"{header}\n", f"\n{header}\n{{\"type\": \"throw\"}}\n"):
        r = client.post("/api/review", json={"record": text})
        assert 400 <= r.status_code < 500, (text, r.status_code, r.text)
        assert str(tmp_path) not in r.json()["detail"], r.text
    assert opened == []
    for game in ([1], {"a": 1}, "", None):
        r = client.post("/api/review", json={"record": json.dumps({"type": "game", "format": 2, "game": game}) + "\n"})
        assert r.status_code == 400 and "game string" in r.json()["detail"], (game, r.text)


def test_a_build_longer_than_the_servers_limit_is_refused_with_the_command(client):
    """An 11-hour build asked by a page is refused by its estimate (413, the estimate and the command that
    builds it ahead), before it holds the long lane; a quick one in the same server goes on."""
    r = settle(client, "POST", "/api/explore/figure", json={"game": "farkle(goal=20000,floor=-20000)",
                                                             "image": "chart.png"})
    detail = r.json()["detail"]
    assert r.status_code == 413 and "--max-build-minutes" in detail and "h to build" in detail, r.text
    assert "dicesolver solve farkle(floor=-20000,goal=20000) --players 2" in detail
    assert draw(client, "pig(goal=20)", "chart.png").status_code == 200


def test_no_build_past_the_servers_disk_budget_for_tables(tmp_path, monkeypatch):
    """Every goal, variant and field a page may ask for is a table kept on disk: past ``--max-cache-gb`` of
    tables in all, a build is refused (413: what the cache holds, the limit, how to make room), while a table
    already on disk is still read."""
    from dicesolver.web.solutions import cache_bytes

    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    with TestClient(create_app()) as roomy:
        assert draw(roomy, "pig(goal=20)", "chart.png").status_code == 200  # built: its table on disk
    held = cache_bytes()
    assert held > 0
    with TestClient(create_app(max_cache_gb=(held + 1000) / 1e9)) as full:
        r = settle(full, "POST", "/api/explore/figure", json={"game": "pig(goal=29)", "image": "chart.png"})
        detail = r.json()["detail"]
        assert r.status_code == 413 and "--max-cache-gb" in detail and "cache clear" in detail, r.text
        assert draw(full, "pig(goal=20)", "chart.png").status_code == 200  # on disk: read, not built
    assert cache_bytes() == held


def test_past_the_servers_count_of_trainers_only_known_ones_train(monkeypatch, tmp_path):
    """Served to the network, each browser trains on its own: at MAX_TRAINERS browsers with training records
    (here 1), a new browser is refused (429) while the one that has records trains on: a flood of new browsers
    cannot fill the disk with decks."""
    from dicesolver.web import app as web_app

    # no other test's trainers (the run's shared table cache stays: an empty one built yacht's tables again,
    # 100 s of a cold suite)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(web_app, "MAX_TRAINERS", 1)
    app = create_app(personal=False)
    known = TestClient(app)
    asked = settle(known, "POST", "/api/train/questions", json={"game": "yacht", "questions": 1, "seed": 4}).json()
    q = asked["questions"][0]
    answer = {"game": "yacht", "position": q["position"], "action": q["board"]["actions"][-1]["action"]}
    assert settle(known, "POST", "/api/train/finish", json={"game": "yacht", "answers": [answer]}).status_code == 200
    refused = TestClient(app).post("/api/train/questions", json={"game": "yacht", "questions": 1})
    assert refused.status_code == 429 and "trained here before" in refused.json()["detail"]
    assert settle(known, "POST", "/api/train/questions", json={"game": "yacht", "questions": 1}).status_code == 200


def test_the_tutor_asks_before_a_costly_move_and_the_review_lists_it(client):
    """A game started with the tutor: the worst move is not made but shown on the board as the tutor's warning
    (the move, its cost, the best and why); 'no' takes it back (the game unmoved), the same move again is played
    anyway; the record keeps the warning beside the move, and the review lists it as not heeded."""
    from dicesolver.core import registry, tables

    view = settle(client, "POST", "/api/play", json={"game": "pig(goal=30)", "opponents": ["hold-at-10"],
                                                     "first": "you", "seed": 2, "tutor": True}).json()
    assert "tutor: a move costing more than" in view["transcript"]
    while view["busy"] or not view["board"]["actions"]:
        view = client.get(f"/api/play/{view['id']}?wait=2").json() if view["busy"] else \
            client.post(f"/api/play/{view['id']}/send", json={"line": ""}).json()
    board = view["board"]
    advice = client.post("/api/advice", json={"game": "pig(goal=30)", "position": board["position"]}).json()
    worst = advice["options"][-1]
    assert worst["cost"] > 0.01, advice  # more than the tutor's threshold: a percentage point
    asked = client.post(f"/api/play/{view['id']}/send", json={"line": worst["action"], "moves": board["moves"]}).json()
    warning = asked["board"]["tutor"]
    assert warning["move"] == worst["action"] and warning["best"] == advice["options"][0]["action"]
    assert warning["cost"] == pytest.approx(worst["cost"], abs=1e-9) and warning["reason"]
    assert asked["board"]["moves"] == board["moves"] and "play it anyway?" in asked["prompt"]
    back = client.post(f"/api/play/{view['id']}/send", json={"line": "no", "moves": board["moves"]}).json()
    assert back["board"]["tutor"] is None and back["board"]["moves"] == board["moves"] and "taken back" in back["transcript"]
    played = client.post(f"/api/play/{view['id']}/send", json={"line": worst["action"], "moves": board["moves"]}).json()
    assert played["board"]["tutor"] is None and played["board"]["moves"] > board["moves"]
    record = registry.read_record(tables.cache_dir() / "web-games" / view["record"])
    [note] = [n["tutor"] for n in record.notes.values()]
    assert note["move"] == note["played"] == worst["action"] and note["heeded"] is False
    assert record.details["tutor"] == 0.01  # a game resumed goes on with its tutor
    reviewed = client.get(f"/api/records/{view['record']}/review").json()["review"]
    assert [(w["move"], w["heeded"]) for w in reviewed["tutor"]] == [(worst["action"], False)]
    assert client.post("/api/play", json={"game": "pig", "tutor": True, "tutor_threshold": -1}).status_code == 422
