"""The two-person table's level sweep (``solve``), its answers, and the exact evaluation of two
strategies against each other (``eval``)."""
