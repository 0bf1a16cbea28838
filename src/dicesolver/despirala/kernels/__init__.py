"""Despirala's numba kernels: the expected-score solve and its simulation (``expected``), the exact
future-score distributions of that strategy (``future``), its value split by combination (``breakdown``),
and play to win (``competitive``)."""
