"""Numba kernels for scorecard games (private: arrays in, arrays out), one job per module:

* ``widget``: the turn widget (keep values, best keeps) over contiguous lanes;
* ``scoring``: scoring a final roll under the rules (jokers, forced order, bonuses);
* ``solitaire``: the expected-score solve; ``policy``: the optimal policy of one set of used boxes;
* ``policy_table``: that policy for every turn start as a table, and games played by reading it;
* ``strategies``: the built-in strategies' decisions and fast simulation; ``stream``: the simulations' dice;
* ``distribution``: forward propagation of the optimal strategy's score distribution;
* ``future``: future-score distribution tables; ``mindful``: Mindful Maximus's values;
* ``target``: the best chance of reaching a target score;
* ``duel`` and ``duel_eval``: two-player equity solve, strategy evaluation and forward pass;
* ``match``: multi-player matches;
* the batch answer engine: ``answers`` (one card, the expected-score table), ``duel_answers`` (two players,
  the exact table), ``mindful_answers`` (Mindful Maximus), what they share in ``answer_rows``, and
  ``positions`` (canonical position texts read many at once);
* ``batch``: many one-player games stepped at once, for learning agents.

Helpers are ``inline="always"``: measured here, code loaded from numba's cache ran 2-3x slower than a
fresh compile when helpers were separate functions (calls between cached functions are not inlined),
and the same once inlined. Every module takes ``njit`` from ``core.jit``, whose cache is keyed by a hash
of all kernel sources, so a changed helper in one module is never served stale to a caller in another.
"""
