"""Matches of 2-6 bots: every seating order, the same dice for each seat."""
