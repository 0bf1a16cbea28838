import numpy as np
import pytest
from tinygames import BONUS_GAME, PAIRS_GAME, tiny

from dicesolver import load_game
from dicesolver.core.errors import InputError
from dicesolver.scorecard.duel.compare import DUEL_STRATEGIES, compare_exact, elo
from dicesolver.scorecard.duel.table import DuelModel, DuelTable
from dicesolver.scorecard.bots.joe import category_choice, joe_tables, keep_choice


@pytest.fixture(scope="module")
def tiny_duel():
    game = tiny(PAIRS_GAME)
    model = DuelModel(game)
    return game, DuelTable(model, model.solve())


def test_malina_against_herself_is_the_solved_equity(tiny_duel):
    game, solution = tiny_duel
    r = compare_exact(solution, game, "malina", "malina")
    assert r.first == pytest.approx(solution.first_player_equity(), abs=1e-6)
    assert r.second == pytest.approx(-solution.first_player_equity(), abs=1e-6)


@pytest.mark.parametrize("a,b", [("malina", "maximus"), ("joe", "greedy"), ("whatever", "random"), ("malina", "joe")])
def test_comparisons_are_antisymmetric(tiny_duel, a, b):
    game, solution = tiny_duel
    ab, ba = compare_exact(solution, game, a, b), compare_exact(solution, game, b, a)
    assert ab.first == pytest.approx(-ba.second, abs=1e-6)
    assert ab.second == pytest.approx(-ba.first, abs=1e-6)


def test_malina_beats_everyone_and_mirror_matches_are_even(tiny_duel):
    game, solution = tiny_duel
    for other in DUEL_STRATEGIES:
        if other not in ("malina", "mindful"):  # mindful is close enough to win going second (test_mindful)
            r = compare_exact(solution, game, "malina", other)
            assert r.first > 0 and r.second > 0 and -1 <= r.first <= 1
    for same in ("random", "joe", "maximus"):
        r = compare_exact(solution, game, same, same)
        assert r.first == pytest.approx(0, abs=1e-6)  # score-blind twins: each wins as often as the other


def test_elo_equivalents():
    assert elo(0) == 0
    assert round(elo(-0.24)) == -85  # the essay: Joe's -0.24 is about 85 Elo points
    assert round(elo(0.039)) == 14  # Malina's 3.9 cents against Maximus: 14 Elo points


def test_unknown_strategy():
    with pytest.raises(InputError, match="unknown two-player strategy"):
        compare_exact(None, tiny(PAIRS_GAME), "joe", "wizard")


def test_joe_follows_the_essay():
    g = load_game("generala")
    used = 0  # everything open
    assert keep_choice(g, used, (1, 1, 1, 1, 5)) == (1, 1, 1, 1)  # 0-away from FOAK: keeps it
    # scoring: 1-1-1-4-5 is scored as Ones, not as Fours or Fives
    ones_fours_fives_open = (1 << 10) - 1 & ~(1 << 0 | 1 << 3 | 1 << 4)
    assert g.categories[category_choice(g, ones_fours_fives_open, (1, 1, 1, 4, 5))].name == "ones"


def test_joe_tie_rules():
    """Where the essay's words leave a choice: equally frequent faces -> one whose upper box is open;
    equally close scoring boxes -> the cheaper box; a completed pattern -> the most points."""
    g = load_game("generala")
    names = [c.name for c in g.categories]

    def used_except(*open_names):
        return (1 << g.n_categories) - 1 & ~sum(1 << names.index(n) for n in open_names)

    # 1-5-5-6-6 going for Four of a Kind: the Sixes are filled, so Joe keeps the fives
    assert keep_choice(g, used_except("ones", "fives", "poker", "generala"), (1, 5, 5, 6, 6)) == (5, 5)
    assert keep_choice(g, used_except("ones", "fives", "sixes", "poker", "generala"), (1, 5, 5, 6, 6)) == (6, 6)
    # 2-5-6-6-6 with the Sixes filled: Twos and Fives are one die each; junk goes in the cheaper Twos
    assert names[category_choice(g, used_except("twos", "fives", "full"), (2, 5, 6, 6, 6))] == "twos"
    # a completed pattern beats any upper box, the most points first
    assert names[category_choice(g, used_except("ones", "full", "poker"), (1, 1, 1, 1, 1))] == "poker"


@pytest.mark.parametrize("name", ["yacht", "generala", "bonus", "pairs"])
def test_joes_tables_are_his_choices(name):
    """The tables the kernels read (every used set and roll at once) hold Joe's own choices, position by
    position: every one on the tiny games, 3,000 sampled ones on the full cards."""
    game = {"bonus": lambda: tiny(BONUS_GAME), "pairs": lambda: tiny(PAIRS_GAME)}.get(name, lambda: load_game(name))()
    keep_table, cat_table = joe_tables(game)
    dice = game.dice
    every = [(a, r) for a in range((1 << game.n_categories) - 1) for r in range(dice.n_rolls)]
    rng = np.random.default_rng(5)
    picks = every if len(every) <= 3_000 else [every[i] for i in rng.choice(len(every), 3_000, replace=False)]
    for a, r in picks:
        roll = dice.rolls[r]
        assert (keep_table[a, :, r] == dice.keep_index(keep_choice(game, a, roll))).all(), (a, roll)
        assert cat_table[a, r] == category_choice(game, a, roll), (a, roll)


def test_cli_compare(capsys, tmp_path):
    import json

    from test_cli import run

    path = tmp_path / "tiny.toml"
    path.write_text('name = "tiny"\ndice = 3\nfaces = 3\nrolls = 3\n'
                    '[[categories]]\nname = "pair"\nkind = "pair"\n'
                    '[[categories]]\nname = "threes"\nkind = "upper"\nface = 3\n'
                    '[[categories]]\nname = "trips"\nkind = "n_of_a_kind"\nn = 3\npoints = 10\n')
    code, out, _ = run(capsys, "compare", str(path), "malina", "joe", "--json")
    data = json.loads(out)
    assert code == 0 and data["first"] > 0 and data["second"] > 0
    code, _, err = run(capsys, "compare", "yahtzee", "malina", "joe")
    assert code == 2 and "upper bonus" in err
    code, _, err = run(capsys, "compare", str(path), "malina", "wizard")
    assert code == 2 and "unknown two-player strategy" in err


def test_out_of_core_comparison_is_the_in_memory_one(tiny_duel, fresh_cache, monkeypatch):
    """Two-person Yacht's value tables live on disk, a level at a time; on a tiny game forced to do the
    same, every strategy pair comes out exactly as in memory, and the scratch files are gone afterwards."""
    from dicesolver.scorecard.duel import compare
    from dicesolver.scorecard.duel import table as duel
    from dicesolver.scorecard.duel.facts import waive_facts

    game, in_memory = tiny_duel
    on_disk, _, _ = duel.load_or_solve(game)  # the table memory-mapped from its file
    assert isinstance(on_disk.values, np.memmap)
    expected = {(a, b): compare_exact(in_memory, game, a, b) for a, b in [("malina", "maximus"), ("joe", "malina")]}
    monkeypatch.setattr(compare, "IN_MEMORY_CELLS", 0)
    for (a, b), want in expected.items():
        got = compare_exact(on_disk, game, a, b)
        assert (got.first, got.second) == (want.first, want.second)
    assert not any((fresh_cache / "scratch").iterdir())
    assert waive_facts(on_disk) == waive_facts(in_memory)


def test_no_room_for_the_value_tables_is_one_line(tiny_duel, fresh_cache, monkeypatch):
    import shutil
    from collections import namedtuple

    from dicesolver.core.errors import TableError
    from dicesolver.scorecard.duel import compare

    game, solution = tiny_duel
    monkeypatch.setattr(compare, "IN_MEMORY_CELLS", 0)
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**9, 10**9, 1000))
    with pytest.raises(TableError, match="not enough disk space to compare exactly"):
        compare_exact(solution, game, "malina", "maximus")
