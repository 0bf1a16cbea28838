"""The turn widget's kernels, the rows of an answer's options, and the dice stream of a seed: shared by every
judge's kernels."""
