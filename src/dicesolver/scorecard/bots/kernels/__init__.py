"""The built-in strategies' decisions, in the kernels (so that the fast simulator and the Python players
always agree)."""
