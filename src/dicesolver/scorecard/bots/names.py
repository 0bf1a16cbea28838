"""The names of the scorecard bots and what each does: the one list that the CLI, the web, matches and tests
read (``bots.players.make_player`` builds them)."""

from __future__ import annotations


STRATEGIES: dict[str, str] = {  # the solitaire strategies, decided in the kernels
    "optimal": "maximises the expected final score (the exact solitaire solution)",
    "greedy": "keeps for, and scores, the most points this turn (the Yacht Dice notebook's greedy agent)",
    "random": "random keeps (each die kept with probability 1/2) and a random open category",
    "semi-random": "random keeps, then the category scoring the most points now",
    "whatever": "never re-rolls and scores the most points now",
    "ev": "the Yacht Dice notebook's expected-value agent: hand value = points minus the category's one-turn "
          "expectation",
    "bonus": "the Yacht Dice notebook's bonus agent: upper boxes worth +100 with three or more dice of the face, "
             "-100 with fewer",
    "perfect": "the Yacht Dice notebook's perfect-game agent: plays only for each category's maximum",
    "contender": "the Yacht Dice notebook's contender: static hand values refined by simulation (a few seconds to "
                 "build)",
}

# every scorecard bot a user can name (the CLI, the web, matches and tests all read this one list): the
# solitaire strategies, then those that look at the other players
BOTS: dict[str, str] = {
    **{name: (text + "; also 'maximus'" if name == "optimal" else text) for name, text in STRATEGIES.items()},
    "joe": "the Generala essay's human-like player: goes for the pattern he is closest to",
    "mindful": "Mindful Maximus: the best expected result, assuming every player plays Maximus from here on",
    "malina": "the exact two-player strategy (games without bonuses); with more players, against the most "
              "dangerous opponent",
}
ALIASES = {"maximus": "optimal"}
