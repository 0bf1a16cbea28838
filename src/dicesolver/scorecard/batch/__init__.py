"""Many scorecard games stepped at once: the vectorised environment behind reinforcement learning and
large labelled datasets."""
