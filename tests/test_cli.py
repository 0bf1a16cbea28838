import json

import pytest

from dicesolver.cli.app import main


def run(capsys, *argv):
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    captured = capsys.readouterr()
    return exit_info.value.code or 0, captured.out, captured.err


def test_games_and_rules(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0 and "yahtzee" in out and "joker=forced|free" in out
    code, out, _ = run(capsys, "games", "--json")
    assert {g["name"] for g in json.loads(out)} >= {"yahtzee", "generala", "crag"}
    code, out, _ = run(capsys, "rules", "yahtzee(joker=free)")
    assert code == 0 and "Joker (free)" in out and "Upper bonus: 35" in out
    # the preset's summary says "forced joker": said to be its default, with what this game changes
    assert "forced joker. (its defaults; here joker=free, as below)" in " ".join(out.split())
    code, out, _ = run(capsys, "rules", "yahtzee")
    assert "its defaults" not in out


def test_the_words_a_player_meets(capsys, tmp_path, monkeypatch):
    """One spelling of keep none; the extra bonus named by its box; an empty training history said in words."""
    code, out, _ = run(capsys, "advise", "yahtzee", "/11234/2", "--top", "0")
    assert code == 0 and "keep none" in out and "reroll all" not in out
    code, out, _ = run(capsys, "distribution", "yahtzee")
    assert code == 0 and "yahtzee bonuses per game" in out and "extra-yacht" not in out
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, out, _ = run(capsys, "train", "yacht", "--history")
    assert code == 0 and "no training sessions of yacht yet" in out and "0 positions in your deck" in out


def test_solve_json_has_value(capsys):
    code, out, _ = run(capsys, "solve", "yacht-dice", "--json")
    assert code == 0
    assert json.loads(out)["value"] == pytest.approx(191.77436918834172, abs=1e-9)
    code, out, _ = run(capsys, "solve", "yacht-dice")
    assert code == 0 and "191.774369" in out


def test_every_answer_names_its_judge(capsys, tmp_path):
    """The JSON says what answered: a two-person game with bonuses (as two-person Yacht without its exact
    table) is the Mindful model."""
    from test_rl import bonus_rules

    code, out, _ = run(capsys, "solve", "yacht-dice", "--json")
    assert json.loads(out)["judge"] == "points"
    rules = str(bonus_rules(tmp_path))
    code, out, _ = run(capsys, "solve", rules, "--players", "2", "--json")
    data = json.loads(out)
    assert code == 0 and data["judge"] == "mindful" and data["unit"] == "equity"
    code, out, _ = run(capsys, "advise", rules, "ones=1;ones=2/123/1", "--json")
    assert code == 0 and json.loads(out)["judge"] == "mindful"
    code, out, _ = run(capsys, "advise", "pig", "0,0,4", "--json")
    assert json.loads(out)["judge"] == "exact"
    code, out, _ = run(capsys, "solve", rules, "--target", "20", "--json")
    assert json.loads(out)["judge"] == "target"
    policy = tmp_path / "policy.py"
    policy.write_text("import numpy as np\n\ndef last(obs):\n    return int(np.nonzero(obs['action_mask'])[0][-1])\n")
    code, out, _ = run(capsys, "rl-eval", "yacht-dice", "--policy", f"{policy}:last", "-n", "3", "--json")
    assert code == 0 and json.loads(out)["judge"] == "points"


def test_advise(capsys):
    code, out, _ = run(capsys, "advise", "yacht-dice", "/13456/2", "--json")
    data = json.loads(out)
    assert code == 0 and data["options"][0]["option"] == "3456" and data["options"][0]["cost"] == 0
    code, out, _ = run(capsys, "advise", "yacht-dice", "ones=3/13456/0", "--top", "3")
    assert code == 0 and "score small_straight" in out and "more options" in out
    code, out, _ = run(capsys, "advise", "yacht-dice", "/-/3")
    assert code == 0 and "dice are to be thrown" in out


def test_odds(capsys):
    code, out, _ = run(capsys, "odds", "generala", "--category", "generala", "--exact", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 1 and rows[0]["p_max_exact"] == "347897/7558272"
    code, out, _ = run(capsys, "odds", "yacht-dice")
    assert code == 0 and "23.3333" in out


@pytest.mark.parametrize(
    "argv,message",
    [
        (["solve", "nosuch"], "unknown game"),
        (["solve", "yahtzee(joker=wild)"], "takes forced|free"),
        (["solve", "/nonexistent/game.toml"], "no rules file"),
        (["advise", "yahtzee", "/11117/0"], "not a face"),
        (["advise", "yahtzee", "aces=9/11111/0"], "not a possible score"),
        (["advise", "yahtzee", "/1111/0"], "5 dice"),
        (["advise", "yahtzee", "garbage"], "CARD/DICE/ROLLS"),
        (["odds", "yahtzee", "--category", "sevens"], "not a category"),
        (["rules", "yatzy(colour=red)"], "no variant"),
    ],
)
def test_bad_input_one_line_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err and err.strip().count("\n") <= 1


def test_usage_errors_exit_2(capsys):
    code, _, _ = run(capsys, "solve")
    assert code == 2
    code, _, _ = run(capsys, "frobnicate")
    assert code == 2


def test_malformed_rules_file_exit_2(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("name = 'x'\ndice = [")
    code, _, err = run(capsys, "solve", str(path))
    assert code == 2 and "not valid TOML" in err
