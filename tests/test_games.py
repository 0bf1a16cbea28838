import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dicesolver as ds
from dicesolver import load_game
from dicesolver.core.errors import GameDefinitionError, InputError
from dicesolver.scorecard.game.presets import preset_names

PRESETS = ["crag", "generala", "maxi-yatzy", "yacht", "yacht-dice", "yahtzee", "yatzy", "yazy"]


def score(game, dice, category):
    g = load_game(game)
    r = g.dice.roll_index(tuple(int(d) for d in dice))
    return int(g.score_table[r, g.category_index(category)])


def test_presets_are_all_there():
    assert preset_names() == PRESETS
    assert [load_game(n).n_categories for n in PRESETS] == [13, 10, 20, 12, 12, 13, 15, 11]


@pytest.mark.parametrize(
    "game,dice,category,points",
    [
        # yahtzee (RULES.md)
        ("yahtzee", "11166", "three_of_a_kind", 15),
        ("yahtzee", "11116", "four_of_a_kind", 10),
        ("yahtzee", "22333", "full_house", 25),
        ("yahtzee", "33333", "full_house", 0),  # 5oak is no full house except as a joker
        ("yahtzee", "12346", "small_straight", 30),
        ("yahtzee", "23456", "large_straight", 40),
        ("yahtzee", "12356", "small_straight", 0),
        ("yahtzee", "44444", "yahtzee", 50),
        ("yahtzee", "12356", "chance", 17),
        # yatzy
        ("yatzy", "33446", "one_pair", 8),
        ("yatzy", "33446", "two_pairs", 14),
        ("yatzy", "33336", "two_pairs", 0),
        ("yatzy(tp4)", "33336", "two_pairs", 12),
        ("yatzy", "33356", "three_of_a_kind", 9),
        ("yatzy", "33336", "four_of_a_kind", 12),
        ("yatzy", "12345", "small_straight", 15),
        ("yatzy", "23456", "small_straight", 0),
        ("yatzy", "23456", "large_straight", 20),
        ("yatzy", "22333", "full_house", 13),
        ("yatzy", "33333", "full_house", 0),
        ("yatzy(fh5)", "33333", "full_house", 15),
        ("yatzy", "66666", "yatzy", 50),
        # yacht
        ("yacht", "33333", "full_house", 15),
        ("yacht", "33336", "four_of_a_kind", 12),
        ("yacht", "12345", "little_straight", 30),
        ("yacht", "23456", "big_straight", 30),
        ("yacht", "12346", "little_straight", 0),
        # yacht-dice (the Yacht Dice notebook)
        ("yacht-dice", "11166", "full_house", 15),
        ("yacht-dice", "44444", "full_house", 20),
        ("yacht-dice", "44445", "four_of_a_kind", 21),
        ("yacht-dice", "12346", "small_straight", 15),
        ("yacht-dice", "12345", "large_straight", 30),
        # yazy
        ("yazy", "33333", "full_house", 0),
        ("yazy", "23456", "straight", 40),
        # generala
        ("generala", "13456", "escalera", 0),
        ("generala", "23456", "escalera", 20),
        ("generala", "55555", "full", 30),
        ("generala", "55552", "poker", 40),
        ("generala", "55555", "generala", 50),
        # crag
        ("crag", "246", "even_straight", 20),
        ("crag", "135", "odd_straight", 20),
        ("crag", "456", "high_straight", 20),
        ("crag", "123", "low_straight", 20),
        ("crag", "444", "three_of_a_kind", 25),
        ("crag", "256", "thirteen", 26),
        ("crag", "166", "thirteen", 26),
        ("crag", "166", "crag", 50),
        ("crag", "256", "crag", 0),
        # maxi-yatzy: the printed examples of the rules it follows (dicesolver/docs/RULES.md), and the groups' edges
        ("maxi-yatzy", "311614", "ones", 3),
        ("maxi-yatzy", "463166", "sixes", 18),
        ("maxi-yatzy", "642651", "one_pair", 12),
        ("maxi-yatzy", "213355", "two_pairs", 16),
        ("maxi-yatzy", "225566", "three_pairs", 26),
        ("maxi-yatzy", "453554", "three_of_a_kind", 15),
        ("maxi-yatzy", "242252", "four_of_a_kind", 8),
        ("maxi-yatzy", "332333", "five_of_a_kind", 15),
        ("maxi-yatzy", "123453", "small_straight", 15),
        ("maxi-yatzy", "234566", "large_straight", 20),
        ("maxi-yatzy", "123456", "full_straight", 21),
        ("maxi-yatzy", "344666", "full_house", 26),
        ("maxi-yatzy", "222555", "villa", 21),
        ("maxi-yatzy", "336666", "tower", 30),
        ("maxi-yatzy", "342654", "chance", 24),
        ("maxi-yatzy", "555555", "maxi_yatzy", 100),
        ("maxi-yatzy", "555555", "villa", 0),  # one face is one group
        ("maxi-yatzy", "555555", "tower", 0),
        ("maxi-yatzy", "444466", "three_pairs", 0),
        ("maxi-yatzy", "444466", "two_pairs", 20),  # the best two pairs of different faces
        ("maxi-yatzy", "444466", "full_house", 24),  # 444 and 66
        ("maxi-yatzy", "555566", "full_house", 27),
        ("maxi-yatzy", "112233", "full_house", 0),
        ("maxi-yatzy", "123456", "small_straight", 15),
    ],
)
def test_scoring_follows_rules(game, dice, category, points):
    assert score(game, dice, category) == points


def test_generala_maximum_score_is_245():
    g = load_game("generala")
    assert int(g.max_scores.sum()) - 50 + 50 == 5 + 10 + 15 + 20 + 25 + 30 + 20 + 30 + 40 + 50
    assert int(g.max_scores.sum()) == 245


def test_canonical_strings():
    assert load_game("yahtzee").canonical == "yahtzee"
    assert load_game("yahtzee(joker=forced)").canonical == "yahtzee"
    assert load_game("Yahtzee( joker = free )").canonical == "yahtzee(joker=free)"
    assert load_game("yatzy(tp4,fh5)").canonical == "yatzy(fh5=on,tp4=on)"
    assert load_game("yatzy(fh5=yes)").canonical == "yatzy(fh5=on)"
    # equal rules, equal fingerprint: the cache key
    assert load_game("yahtzee").fingerprint == load_game("yahtzee(joker=forced)").fingerprint
    assert load_game("yahtzee").fingerprint != load_game("yahtzee(joker=free)").fingerprint


@given(st.sampled_from(["yahtzee", "yatzy"]), st.data())
def test_canonical_round_trip(name, data):
    game = load_game(name)
    choices = {v.key: data.draw(st.sampled_from(list(v.values))) for v in game.variant_specs}
    text = name + "(" + ",".join(f"{k}={v}" for k, v in choices.items()) + ")"
    g = load_game(text)
    assert load_game(g.canonical).canonical == g.canonical
    assert load_game(g.canonical).fingerprint == g.fingerprint


@pytest.mark.parametrize(
    "text,message",
    [
        ("nosuch", "unknown game"),
        ("yahtzee(joker=wild)", "takes forced|free"),
        ("yahtzee(colour=red)", "no variant"),
        ("yahtzee(joker=free,joker=forced)", "given twice"),
        ("yahtzee(", "cannot read"),
        ("", "no game"),
        ("./missing.toml", "no rules file"),
    ],
)
def test_bad_game_strings(text, message):
    with pytest.raises(GameDefinitionError, match=message):
        load_game(text)


RULES_OK = """
name = "mini"
dice = 2
faces = 3
rolls = 2
[[categories]]
name = "ones"
kind = "upper"
face = 1
[[categories]]
name = "twos"
kind = "upper"
face = 2
"""


def test_user_rules_file(tmp_path):
    path = tmp_path / "mini.toml"
    path.write_text(RULES_OK)
    game = load_game(str(path))
    assert game.n_dice == 2 and game.n_categories == 2
    assert game.canonical == str(path)


def test_a_rules_file_extends_a_preset(tmp_path):
    """``extends``: the base's rules with the file's keys over them; tables merged key by key; a card given
    box by box, a box named alone being the base's."""
    house = tmp_path / "house.toml"
    house.write_text('extends = "yahtzee"\nname = "house"\n[upper_bonus]\npoints = 50\n')
    game, yahtzee = load_game(str(house)), load_game("yahtzee")
    assert (game.name, game.upper_points, game.upper_threshold) == ("house", 50, 63)
    assert game.category_names == yahtzee.category_names and (game.score_table == yahtzee.score_table).all()
    assert [v.key for v in game.variant_specs] == [v.key for v in yahtzee.variant_specs]
    short = tmp_path / "short.toml"  # a file extending a file: its own card, in its own order
    short.write_text('extends = "house.toml"\nname = "short"\nvariants = {}\nyahtzee_bonus = { enabled = false }\n'
                     '[[categories]]\nname = "chance"\n[[categories]]\nname = "sixes"\n'
                     '[[categories]]\nname = "pairs"\nkind = "groups"\nsizes = [2, 2]\n')
    small = load_game(str(short))
    assert small.category_names == ("chance", "sixes", "pairs") and small.upper_points == 50
    assert small.categories[0].aliases == yahtzee.categories[yahtzee.category_index("chance")].aliases
    assert small.variant_specs == ()


def test_maxi_yatzy_is_built_on_yatzy():
    maxi, yatzy = load_game("maxi-yatzy"), load_game("yatzy")
    shared = [n for n in maxi.category_names if n in yatzy.category_names]
    assert len(shared) == 14 and maxi.n_dice == 6 and (maxi.upper_threshold, maxi.upper_points) == (84, 100)
    for name in ("ones", "one_pair", "small_straight", "chance"):
        mine, theirs = maxi.categories[maxi.category_index(name)], yatzy.categories[yatzy.category_index(name)]
        assert (mine.kind, mine.params, mine.aliases) == (theirs.kind, theirs.params, theirs.aliases)
    assert load_game("maxi-yatzy(bonus=50)").upper_points == 50


@pytest.mark.parametrize(
    "files,message",
    [
        ({"a.toml": 'extends = "b.toml"', "b.toml": 'extends = "a.toml"'}, "extends makes a cycle"),
        ({"a.toml": 'extends = "a.toml"'}, "extends makes a cycle"),
        ({"a.toml": 'extends = "nosuch"'}, "extends 'nosuch', which is no preset"),
        ({"a.toml": 'extends = "missing.toml"'}, "no rules file"),
        ({"a.toml": "extends = 3"}, "extends must name a game"),
        ({"a.toml": 'extends = "yatzy"\n[[categories]]\nname = "sevens"'}, "'sevens' names no box"),
        ({"a.toml": 'extends = "yatzy"\n[upper_bonus]\npoints = -1'}, "upper_bonus.points"),
    ],
)
def test_bad_extends_is_one_clear_error(tmp_path, files, message):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    with pytest.raises(GameDefinitionError, match=message):
        load_game(str(tmp_path / "a.toml"))


@pytest.mark.parametrize(
    "text,message",
    [
        ("name = 'x'\ndice = [", "not valid TOML"),
        ("name = 'x'\ndice = 5", "categories: missing"),
        ("name = 'x'\ndice = 99\n[[categories]]\nname='a'\nkind='chance'", "dice: should be less than or equal to 8"),
        ("name = 'x'\ndice = 5\n[[categories]]\nname='a'\nkind='magic'", "unknown kind"),
        ("name = 'x'\ndice = 5\n[[categories]]\nname='a'\nkind='upper'\nface=9", "face must be"),
        ("name = 'x'\ndice = 5\n[[categories]]\nname='a'\nkind='upper'", r"categories\[0\] 'a'.face: missing"),
        ("name = 'x'\ndice = 5\n[[categories]]\nname='a'\nkind='chance'\ncolour=1", "colour: unknown key"),
        ("name = 'x'\ndice = 5\n[[categories]]\nname='a'\nkind='chance'\n[[categories]]\nname='a'\nkind='chance'",
         "would name both"),
        ("name = 'x'\ndice = 5\nextra = 1\n[[categories]]\nname='a'\nkind='chance'", "extra: unknown key"),
        ("name = 'X Y'\ndice = 5\n[[categories]]\nname='a'\nkind='chance'", "lower-case"),
    ],
)
def test_malformed_rules_files(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(GameDefinitionError, match=message):
        load_game(str(path))


def test_rules_file_not_text(tmp_path):
    path = tmp_path / "bin.toml"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(GameDefinitionError):
        load_game(str(path))


def test_category_lookup_is_forgiving():
    g = load_game("yahtzee")
    assert g.category_index("Full House") == g.category_index("fh") == g.category_index("FULL-HOUSE")
    assert g.category_index("ones") == 0
    with pytest.raises(InputError, match="not a category"):
        g.category_index("sevens")


def test_rules_in_words_mention_every_category():
    for name in PRESETS:
        g = load_game(name)
        text = "\n".join(g.describe())
        for cat in g.categories:
            assert cat.name in text


def test_the_rules_examples_of_the_docs_read_and_solve_as_documented():
    """dicesolver/docs/RULES.md's two worked examples: a lower-section bonus beside Yahtzee's upper one (its states as the
    docs count them; its solve, minutes, is BENCHMARKS.md's), and the Yahtzee bonus paid once, worth less than
    Yahtzee's bonus paid every time and more than none."""
    import dicesolver as ds

    docs = Path(__file__).parent.parent / "src" / "dicesolver" / "docs" / "examples"
    lower = ds.load_game(str(docs / "yahtzee-lower-bonus.toml"))
    assert [b.name for b in lower.bonuses] == ["upper_bonus", "lower_bonus"]
    assert "Lower bonus: 25 points when three_of_a_kind, four_of_a_kind, full_house, small_straight, " \
           "large_straight, yahtzee, chance total 150 or more." in lower.describe()
    assert int(lower.kernel_rules.offset[-1]) == 67_782_939
    def start(spec):
        solution = ds.solve(spec)
        return solution.value(solution.game.start())

    once = start(str(docs / "yahtzee-bonus-once.toml"))
    assert start("yahtzee(yahtzee_bonus=off)") < once < start("yahtzee")
    assert once == pytest.approx(253.425170, abs=1e-6)


@pytest.mark.parametrize("bonus,words", [
    ({"name": "lower", "boxes": ["nowhere"], "threshold": 10, "points": 5}, "bonuses[0] 'lower'.boxes: 'nowhere' is not"),
    ({"name": "lower", "boxes": [], "threshold": 10, "points": 5}, "bonuses[0].boxes: List should have at least 1"),
    ({"name": "lower", "boxes": ["chance"], "threshold": 0, "points": 5}, "bonuses[0].threshold: should be greater"),
])
def test_a_bad_set_bonus_is_one_clear_error(bonus, words):
    from tinygames import SET_BONUS_GAME, tiny

    from dicesolver.core.errors import GameDefinitionError

    with pytest.raises(GameDefinitionError, match=re.escape(words)):
        tiny({**SET_BONUS_GAME, "bonuses": [bonus]})


def test_a_yacht_bonus_paid_more_often_than_the_limit_is_refused():
    from tinygames import SET_BONUS_GAME, tiny

    from dicesolver.core.errors import GameDefinitionError, InputError

    with pytest.raises(GameDefinitionError, match="yahtzee_bonus.times: should be less than or equal to 8"):
        tiny({**SET_BONUS_GAME, "yahtzee_bonus": {**SET_BONUS_GAME["yahtzee_bonus"], "times": 9}})
    game = tiny(SET_BONUS_GAME)  # paid at most once: a card holding two bonuses is not one of its cards
    with pytest.raises(InputError, match=re.escape("the bonus is paid at most once in setbonus (bonus=40 holds 2)")):
        ds.advise(game, "twos=6,threes=9,yacht=12,bonus=40/111/0")
