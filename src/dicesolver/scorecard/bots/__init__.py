"""The scorecard bots: their names (``names``), the players a user picks (``players``: the ``Player`` protocol and
the built-in strategies, deciding in the kernels), Joe, the contender, self-play and simulations. The package
itself imports nothing: the names are read without loading numba."""
