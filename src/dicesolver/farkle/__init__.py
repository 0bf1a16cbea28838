"""Farkle (Facebook Farkle, Zilch, Kingdom Come: Deliverance): exact two-person win probabilities."""
