"""The target judge: the best chance of at least (or more than) a score, its table, and the player that
plays for it."""
