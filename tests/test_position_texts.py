"""Position texts read many at once by the kernel (``scorecard/game/kernels/positions.py``) against the reading
of one text at a time: the same situations from canonical texts, non-canonical ones read by parse_state,
refused ones named by their index."""

from __future__ import annotations

import numpy as np
import pytest

import dicesolver as ds
from dicesolver.core.errors import InputError
from dicesolver.scorecard.game.encoding import KERNEL_TEXTS
from golden import CASES, read

RECORDED = read()


def one_at_a_time(encoding, texts):
    rows = [encoding.parse_situations([t]) for t in texts]
    return {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}


def variants(text: str, rng) -> list[str]:
    """The text, and others near it: non-canonical forms (read by parse_state) and broken ones."""
    cards, dice, rolls = text.split("/")
    out = [text, f"{cards}/{dice}/{int(rolls) + 1}", f"{cards}/{dice[::-1]}/{rolls}", f" {text}",
           f"{cards}/{dice}/{rolls}/", f"{cards.replace('=', '= ')}/{dice}/{rolls}", f"{cards}/{dice}+/1"]
    if cards:
        out.append(f"{cards},{cards.split(',')[0]}/{dice}/{rolls}")  # a box twice
    return [out[0]] + [out[i] for i in rng.choice(range(1, len(out)), 2, replace=False)]


@pytest.mark.parametrize("name", ["yahtzee", "bonusgame", "bonusgame-forced-order", "pairs", "pairs-duel",
                                  "yacht-mindful-3"])
def test_the_kernel_reads_texts_as_they_are_read_one_at_a_time(name):
    make, _ = CASES[name]
    solution, _ = make()
    encoding = solution.encoding
    texts = [t for t, _, _ in RECORDED[name]]
    while len(texts) < KERNEL_TEXTS:
        texts = texts * 2
    batch = encoding.parse_situations(texts)
    alone = one_at_a_time(encoding, texts)
    for k in alone:
        np.testing.assert_array_equal(batch[k], alone[k], err_msg=k)
    # the kernel reads what the one-at-a-time reader reads (the rest, such as bonus=, goes to parse_state)
    assert encoding._read_many(texts)[1].tolist() == [int(encoding._read(t) is not None) for t in texts]
    rng = np.random.default_rng(7)
    mixed, good = [], []
    for t in texts[:400]:
        for v in variants(t, rng):
            try:
                encoding.parse_situations([v])
            except InputError:
                continue
            mixed.append(v)
    batch = encoding.parse_situations(mixed)
    alone = one_at_a_time(encoding, mixed)
    for k in alone:
        np.testing.assert_array_equal(batch[k], alone[k], err_msg=k)


def test_a_refused_text_among_many_is_named_by_its_index():
    texts = ["/12345/2"] * 300
    texts[271] = "/12345/7"
    with pytest.raises(InputError, match=r"position 271 \('/12345/7'\)"):
        ds.advise_many("yacht", texts)
    texts[271] = "chance=5/12345/1"
    assert len(ds.advise_many("yacht", texts)) == 300


@pytest.mark.parametrize("name", ["yahtzee", "bonusgame", "pairs-duel", "yacht-mindful-3"])
def test_a_cards_remembered_facts_are_what_its_boxes_say(name):
    """``Position.facts`` (text, row, total, upper sum), made once a card, against the card's own methods, on
    every card of the recorded positions, read from text and made by play."""
    from dicesolver.scorecard.game.state import card_text

    make, _ = CASES[name]
    solution, _ = make()
    game = solution.game
    states = [game.parse_state(t) for t, _, _ in RECORDED[name]]
    for state in states:
        for card in state.cards:
            for _ in range(2):  # made, then remembered
                facts = card.facts(game)
                assert facts.row == [-1 if v is None else v for v in card.boxes]
                assert (facts.total, facts.upper) == (card.total(game), card.upper_total(game))
                assert card_text(game, card) == facts.text
                assert game.parse_state(f"{facts.text}/-/{game.rolls}").cards[0].boxes == card.boxes
        assert game.parse_state(str(state)) == state
