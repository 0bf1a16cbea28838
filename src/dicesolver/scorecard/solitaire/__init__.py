"""The expected-score judge of one player: its table (``table``), its answer engine (``answers``, with a
numpy form), and what the table makes possible: each option's value split by box (``breakdown``), the
final-score distribution, and the optimal player's decisions as a policy table for simulations."""
