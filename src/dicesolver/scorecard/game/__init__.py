"""A scorecard game itself: its rules (presets and rules files, checked by a schema), its scoring, its
positions and states, their text and array encodings, and a solve's size. Everything else in the family
stands on this folder; it values nothing."""
