import json

import pytest
from records_v1 import write_v1
from test_cli import run
from test_play import TINY_RULES
from tinygames import PAIRS_GAME, tiny

from dicesolver.core.results import SolveInfo
from dicesolver.core.review import LABELS, label
from dicesolver.scorecard.duel.table import DuelModel, DuelTable
from dicesolver.scorecard.bots.joe import JoePlayer
from dicesolver.scorecard.duel.malina import MalinaPlayer
from dicesolver.scorecard.bots.selfplay import play_match_game
from dicesolver.scorecard.duel.solution import DuelEquity


def duel_review(solution, record, player):
    """The review of one player's two-player game in exact equity."""
    info = SolveInfo(game=solution.game.canonical, unit="equity", value=solution.first_player_equity(), solved_now=True,
                     seconds=0.0, states=solution.model.size, table_bytes=0, table_dir="")
    return DuelEquity(solution.game, solution, info).review(record.playthrough(), player)


@pytest.fixture(scope="module")
def duel():
    game = tiny(PAIRS_GAME)
    model = DuelModel(game)
    return game, DuelTable(model, model.solve())


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_malina_has_no_loss_and_the_review_telescopes(duel, seed):
    game, solution = duel
    record = play_match_game(game, [MalinaPlayer(solution), JoePlayer(game)], seed, first=seed % 2)
    mine, theirs = duel_review(solution, record, 0).summary, duel_review(solution, record, 1).summary
    assert mine.loss == 0 and all(d.loss == 0 for d in duel_review(solution, record, 0).mine())
    for s in (mine, theirs):
        assert s.complete and s.result in (-1.0, 0.0, 1.0)
        assert s.baseline + s.luck - s.loss + s.others == pytest.approx(s.result, abs=1e-5)
    assert mine.result == -theirs.result and mine.loss == theirs.others_loss


def test_duel_labels():
    assert [b for b, _ in LABELS["equity"]][:3] == [0.02, 0.05, 0.10]
    assert label(0, "equity") == "best" and label(0.01, "equity") == "inaccuracy"
    assert label(0.31, "equity") == "massive blunder"


def test_cli_analyze_two_player_record(capsys, tmp_path, fresh_cache):
    rules = tmp_path / "tiny.toml"
    rules.write_text(TINY_RULES)
    from dicesolver import load_game

    game = load_game(str(rules))
    model = DuelModel(game)
    record = play_match_game(game, [JoePlayer(game), MalinaPlayer(DuelTable(model, model.solve()))], 4)
    path = tmp_path / "duel.jsonl"
    write_v1(path, record)
    code, out, _ = run(capsys, "analyze", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["summary"]["players"] == ["joe", "malina"] and data["summary"]["others_loss"] == 0
    code, out, _ = run(capsys, "analyze", str(path))
    assert code == 0 and "baseline" in out and "equity" in out
    code, out, _ = run(capsys, "analyze", str(path), "--points", "--json")
    assert code == 0 and json.loads(out)["summary"]["unit"] == "points"


def test_exact_scratch_statistics_match_self_play(duel):
    import numpy as np

    from dicesolver.scorecard.duel.facts import opening_keeps, waive_facts

    game, solution = duel
    facts = waive_facts(solution)
    zeros = np.zeros(game.n_categories)
    games = 1500
    for seed in range(games):
        record = play_match_game(game, [MalinaPlayer(solution), MalinaPlayer(solution)], seed)
        for e in record.events:
            if e.type == "score" and e.points == 0:
                zeros[e.category] += 1
    exact = np.array(list(facts.zero_by_category.values()))
    # each box scores 0 at most once per player: a binomial-like count per game
    assert np.all(np.abs(zeros / games - exact) < 4 * np.sqrt(2 * exact / games) + 0.005)
    assert 0 <= facts.waives_per_turn <= facts.zero_per_turn <= 1
    keeps = opening_keeps(solution)
    assert len(keeps) == game.dice.n_rolls


def test_scratch_statistics_do_not_depend_on_how_the_work_is_cut(duel, monkeypatch):
    """The forward pass writes one shared next level from many chunks at once (cut only where the other
    player's set changes); cut into tiny chunks and batches, it gives the same facts, and its progress
    counts every cell once."""
    import numpy as np

    from dicesolver.scorecard.duel import facts

    _, solution = duel
    whole = facts.waive_facts(solution)
    steps = []
    monkeypatch.setattr(facts, "CHUNK_CELLS", 3)
    monkeypatch.setattr(facts, "BATCH_CELLS", 7)
    cut = facts.waive_facts(solution, progress=lambda done, total: steps.append((done, total)))
    for name, value in whole.zero_by_category.items():
        assert cut.zero_by_category[name] == pytest.approx(value, abs=1e-12)
        assert cut.waives_by_category[name] == pytest.approx(whole.waives_by_category[name], abs=1e-12)
    assert len(steps) > len(solution.model.segments)  # several batches a level
    done = np.array([d for d, _ in steps])
    assert np.all(np.diff(done) > 0) and done[-1] == steps[-1][1] == sum(s.cells for s in solution.model.segments)


def test_strategy_facts_from_the_cli(capsys, tmp_path, fresh_cache):
    """`dicesolver facts`: the scratch statistics, and the opening rolls where the perfect player's keep
    departs from Maximus's, each checked against both players' own advice."""
    import dicesolver as ds

    rules = tmp_path / "departs.toml"  # a game small enough to solve in a moment, where they depart
    rules.write_text('name = "departs"\ndice = 3\nfaces = 4\nrolls = 3\n'
                     '[[categories]]\nname = "pair"\nkind = "pair"\n'
                     '[[categories]]\nname = "trips"\nkind = "n_of_a_kind"\nn = 3\npoints = 25\n'
                     '[[categories]]\nname = "sum"\nkind = "chance"\n'
                     '[[categories]]\nname = "threes"\nkind = "upper"\nface = 3\n')
    code, out, _ = run(capsys, "facts", str(rules), "--json")
    facts = json.loads(out)
    assert code == 0 and [b["box"] for b in facts["boxes"]] == ["pair", "trips", "sum", "threes"]
    assert 0 <= facts["waives_per_turn"] <= facts["zero_per_turn"] <= 1
    assert sum(b["zero"] for b in facts["boxes"]) == pytest.approx(facts["zero_per_turn"] * 8)
    assert facts["opening_rolls"] == 20 and facts["departures"]  # 3d4: twenty rolls
    costs = [d["cost"] for d in facts["departures"]]
    assert costs == sorted(costs, reverse=True) and min(costs) > 1e-6
    solo = ds.solve(str(rules))
    for d in facts["departures"]:
        roll = d["roll"]
        mine = {o.option: o for o in ds.advise(str(rules), f"-;-/{roll}/2").options}
        theirs = {o.option: o for o in solo.advise(f"/{roll}/2").options}
        assert mine[d["keep"]].cost == 0 and mine[d["maximus_keep"]].cost == pytest.approx(d["cost"], abs=1e-6)
        assert theirs[d["maximus_keep"]].cost == 0 and d["keep"] != d["maximus_keep"]
    code, out, _ = run(capsys, "facts", str(rules))
    assert code == 0 and "waived" in out and "departs from Maximus" in out
    code, _, err = run(capsys, "facts", "yahtzee")
    assert code == 2 and "upper bonus" in err
    code, _, err = run(capsys, "facts", "pig")
    assert code == 2 and "strategy facts" in err
