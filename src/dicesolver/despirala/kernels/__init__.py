"""Despirala's numba kernels: the expected-score solve and its simulation (``expected``), the exact
future-score distributions of that strategy (``future``), and play to win (``competitive``)."""
