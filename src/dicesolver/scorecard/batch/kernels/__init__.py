"""The vectorised environment's step."""
