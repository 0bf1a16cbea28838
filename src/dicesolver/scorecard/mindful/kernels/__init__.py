"""The future-score tables' build, the Mindful Maximus decision and its answers."""
