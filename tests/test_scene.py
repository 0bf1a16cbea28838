"""What the table says is data (``core.scene``): each family describes a state once, as a ``Scene``, and
the front ends render it. Every family's scenes, over whole random games of every game, say something at
every step; a few are pinned word for word."""

from __future__ import annotations

import pytest

from dicesolver.core import registry
from dicesolver.core.family import Family
from dicesolver.core.scene import Scene

from fuzzing import GAMES, playthrough

PRESENTATION_METHODS = ("narrate", "prompt", "announce", "legal_summary", "stand_prompt", "pause_before_throw",
                        "game_over", "board_at_turn_start")


@pytest.mark.parametrize("family", registry.families(), ids=lambda f: f.name)
def test_a_family_says_what_it_says_in_one_scene_not_method_by_method(family):
    for name in PRESENTATION_METHODS:
        assert not hasattr(Family, name) and not hasattr(type(family), name), (family.name, name)


@pytest.mark.parametrize("spec", GAMES)
@pytest.mark.parametrize("seed", [0, 1])
def test_every_state_of_a_game_has_its_scene(spec, seed):
    states, steps = playthrough(spec, seed, players=2 if spec in ("yacht", "generala") else None, to_end=True)
    game = states[0].game
    family = registry.family_of(game)
    names = ["you"] + [f"bot {i}" for i in range(1, game.n_players)]
    for i, state in enumerate(states):
        last = (states[i - 1], steps[i - 1]) if i else None
        scene = family.scene(state, names, 0, last)
        assert isinstance(scene, Scene)
        if last is not None:
            assert scene.narration, (spec, i, str(steps[i - 1]))
        if state.is_terminal():
            assert scene.over and not scene.prompt and not scene.legal
            continue
        assert scene.prompt.strip() and not scene.over, (spec, str(state))
        assert bool(scene.legal) != state.is_chance(), (spec, str(state))
        assert not (state.is_chance() and scene.stand_prompt)
    assert states[-1].is_terminal()


def test_the_words_of_a_yahtzee_turn():
    game = registry.load("yahtzee", 2)
    family = registry.family_of(game)
    names = ["you", "joe"]
    start = game.start()
    thrown = start.parse_step("12345")
    state = start.apply(thrown)
    assert family.scene(start, names).pause_before_throw
    scene = family.scene(state, names, 0, last=(start, thrown))
    assert scene.narration == "you throw 12345"
    assert scene.prompt == "[12345] 2 throws left - keep? "
    assert scene.stand_prompt == "[12345] score in which box? "
    assert scene.board_at_turn_start and not scene.pause_before_throw
    assert scene.legal[-1].startswith("score in: aces, twos")
    scored = state.parse_step("score large-straight")
    after = state.apply(scored)
    assert family.scene(after, names, 0, last=(state, scored)).narration == \
        "you scored 12345 in Large Straight for 40"
    assert family.scene(after, names).prompt == "the dice you rolled: "


def test_the_words_of_a_pig_turn():
    game = registry.load("pig")
    family = registry.family_of(game)
    names = ["you", "bot"]
    start = game.start()
    assert family.scene(start, names).prompt == "the dice you threw: "
    four = start.parse_step("4")
    state = start.apply(four)
    assert family.scene(state, names, 0, last=(start, four)) == Scene(
        prompt="turn total 4 (bank → 4): throw or hold? ", turn_start=("you 0 · bot 0 (goal 100)",),
        legal=("legal moves: throw, hold",), narration="you throw 4: +4 (turn total 4)")
