import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicesolver.core.dice import DiceSpace, dice_space, format_dice, parse_dice
from dicesolver.core.errors import InputError


def test_counts_of_standard_spaces():
    five = dice_space(5, 6)
    assert five.n_rolls == 252 and len(five.rolls) == 252
    assert five.n_keeps == 462
    assert dice_space(6, 6).n_rolls == 462
    assert dice_space(3, 6).n_rolls == 56


@pytest.mark.parametrize("n,faces", [(2, 2), (2, 3), (3, 3), (5, 6), (6, 6), (4, 8)])
def test_probabilities_and_structure(n, faces):
    space = DiceSpace(n, faces)
    assert math.isclose(space.roll_probabilities.sum(), 1.0)
    assert space.roll_weights.sum() == faces**n
    assert space.rolls == space.keeps[space.roll_offset:]
    # keep_add: adding a die gives a keep one larger that contains the original
    for i, keep in enumerate(space.keeps):
        for f in range(1, faces + 1):
            j = space.keep_add[i, f - 1]
            if len(keep) == n:
                assert j == -1
            else:
                assert space.keeps[j] == tuple(sorted(keep + (f,)))
    # keep_sub: removing one die of each distinct face
    ptr, idx = space.keep_sub
    for i, keep in enumerate(space.keeps):
        subs = {space.keeps[j] for j in idx[ptr[i]:ptr[i + 1]]}
        assert len(subs) == len(set(keep))
        for s in subs:
            assert len(s) == len(keep) - 1


def test_outcomes_sum_to_one_and_match_transition():
    space = dice_space(5, 6)
    outs = space.outcomes((1, 1, 1))
    assert math.isclose(sum(p for _, p in outs), 1.0)
    assert math.isclose(dict(outs)[(1, 1, 1, 6, 6)], 1 / 36)  # the Yacht Dice notebook's check


def test_sub_keeps_of_a_roll():
    space = dice_space(5, 6)
    assert len(space.sub_keeps((1, 2, 3, 4, 5))) == 32
    assert len(space.sub_keeps((1, 1, 1, 1, 1))) == 6
    assert len(space.sub_keeps((1, 1, 2, 2, 3))) == 18


def test_parse_forgiving_and_errors():
    assert parse_dice("53141", 6) == (1, 1, 3, 4, 5)
    assert parse_dice("5 3 1 4 1", 6) == (1, 1, 3, 4, 5)
    assert parse_dice("1-1-3-4-5", 6) == (1, 1, 3, 4, 5)
    assert parse_dice("-", 6, allow_empty=True) == ()
    for bad in ("7", "1a", "0", ""):
        with pytest.raises(InputError):
            parse_dice(bad, 6)
    with pytest.raises(InputError):
        dice_space(5, 6).parse_roll("1234")
    with pytest.raises(InputError):
        dice_space(5, 6).parse_keep("66", roll=(1, 2, 3, 4, 6))
    with pytest.raises(InputError):
        DiceSpace(0, 6)


@given(st.integers(2, 12).flatmap(lambda f: st.tuples(st.just(f), st.lists(st.integers(1, f), max_size=6))))
def test_dice_text_round_trip(case):
    faces, dice = case
    text = format_dice(tuple(dice), faces)
    assert parse_dice(text, faces, allow_empty=True) == tuple(sorted(dice))


def test_counts_table():
    space = dice_space(5, 6)
    r = space.roll_index((1, 1, 3, 4, 5))
    assert list(space.counts[r]) == [2, 0, 1, 1, 1, 0]
    assert np.all(space.counts.sum(axis=1) == 5)


SPACES = [(1, 2), (2, 3), (3, 3), (5, 6), (6, 6), (4, 8), (6, 4), (3, 12), (7, 3), (8, 2)]


@pytest.mark.parametrize("n,faces", SPACES)
def test_roll_sub_keeps_against_the_multisets(n, faces):
    """The arrays form against its definition: every distinct sub-multiset of each roll, by keep index."""
    space = DiceSpace(n, faces)
    ptr, idx = space.roll_sub_keeps
    assert ptr[0] == 0 and ptr[-1] == len(idx)
    for r, roll in enumerate(space.rolls):
        assert idx[ptr[r]:ptr[r + 1]].tolist() == sorted(space.keep_index(k) for k in space.sub_keeps(roll))
    for k, keep in enumerate(space.keeps):
        assert space.keep_counts[k].tolist() == [keep.count(f) for f in range(1, faces + 1)]


def hold_mask_by_definition(roll: tuple[int, ...], keep: tuple[int, ...]) -> int:
    """The positions of the kept dice in the sorted roll, the first of equal dice first."""
    left = list(keep)
    mask = 0
    for i, d in enumerate(roll):
        if d in left:
            left.remove(d)
            mask |= 1 << i
    return mask


@pytest.mark.parametrize("n,faces", SPACES)
def test_hold_masks_against_their_definition(n, faces):
    from dicesolver.scorecard.turn.engine import hold_masks

    class Game:  # hold_masks reads only the game's dice
        dice = DiceSpace(n, faces)

    space = Game.dice
    ptr, idx = space.roll_sub_keeps
    expected = [hold_mask_by_definition(space.rolls[r], space.keeps[int(k)])
                for r in range(space.n_rolls) for k in idx[ptr[r]:ptr[r + 1]]]
    assert hold_masks(Game).tolist() == expected  # type: ignore[arg-type]
