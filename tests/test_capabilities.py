"""What only some families do is declared as data (``Family.capabilities``): a family implements exactly the
methods of the capabilities it declares, and any other answers its capability's one line."""

from __future__ import annotations

import pytest

from dicesolver.core import registry
from dicesolver.core.aims import Field
from dicesolver.core.errors import InputError
from dicesolver.core.family import CAPABILITIES, Family

METHODS = {"batch": ["batch"], "compare": ["compare"], "strategy_facts": ["strategy_facts"],
           "target": ["target_solution", "target_curve"], "risk": ["risk_solution"],
           "goals": ["goal_solution"], "match": ["match"], "odds": ["odds"],
           "distribution": ["distribution"], "chart": ["chart", "chart_figure"], "simulate": ["simulate"]}
CALLS = {"batch": lambda f, g: f.batch(g, 4), "compare": lambda f, g: f.compare(g, "a", "b"),
         "strategy_facts": lambda f, g: f.strategy_facts(g), "target": lambda f, g: f.target_curve(g),
         "risk": lambda f, g: f.risk_solution(g, 0.01), "goals": lambda f, g: f.goal_solution(g, Field(3)),
         "match": lambda f, g: f.match(g, ["a", "b"], 10, 0), "odds": lambda f, g: f.odds(g),
         "distribution": lambda f, g: f.distribution(g), "chart": lambda f, g: f.chart(g),
         "simulate": lambda f, g: f.simulate(g, ["a"], 10, 0)}


def test_every_capability_has_its_methods_and_its_words():
    assert set(METHODS) == set(CAPABILITIES) == set(CALLS)


@pytest.mark.parametrize("family", registry.families(), ids=lambda f: f.name)
def test_a_family_implements_what_it_declares_and_nothing_else(family):
    assert family.capabilities <= set(CAPABILITIES), family.capabilities - set(CAPABILITIES)
    for capability, names in METHODS.items():
        for name in names:
            implemented = getattr(type(family), name) is not getattr(Family, name)
            assert implemented == family.can(capability), (family.name, capability, name)


@pytest.mark.parametrize("family", registry.families(), ids=lambda f: f.name)
def test_what_a_family_cannot_do_is_one_clear_error(family):
    game = registry.load(family.names()[0])
    for capability in set(CAPABILITIES) - family.capabilities:
        with pytest.raises(InputError) as refused:
            CALLS[capability](family, game)
        assert game.canonical in str(refused.value), (family.name, capability)
