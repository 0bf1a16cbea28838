"""A match game played in the kernels."""
