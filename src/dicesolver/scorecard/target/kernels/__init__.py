"""The target table's solve, answers and games."""
