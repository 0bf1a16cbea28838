"""Mindful Maximus: any number of players, each option valued by its expected result when everyone plays
Maximus from then on; the future-score tables it reads, its answer engine and its player."""
