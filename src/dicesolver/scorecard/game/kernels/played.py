"""What a kernel that plays many one-player games writes of each (the strategies' ``simulate_games``, the
target player's ``target_games``): one argument, lent borrowed as ``scoring.lend`` lends the rules."""

from typing import NamedTuple

import numpy as np

from ....core.jit import borrowed, njit


class PlayedGames(NamedTuple):
    """Game i's final total, boxes (-1 for one left open), whether the upper bonus was reached, and how many
    extra-yacht bonuses were paid."""

    total: np.ndarray  # int64 [game]
    boxes: np.ndarray  # int64 [game, box]
    bonus: np.ndarray  # int64 [game]: 0 or 1
    extra: np.ndarray  # int64 [game]

    def results(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(totals, boxes, whether the upper bonus was reached, extra bonuses): what ``play_many`` returns."""
        return self.total, self.boxes, self.bonus.astype(bool), self.extra

    @classmethod
    def empty(cls, n_games: int, n_boxes: int) -> "PlayedGames":
        return cls(np.zeros(n_games, dtype=np.int64), np.zeros((n_games, n_boxes), dtype=np.int64),
                   np.zeros(n_games, dtype=np.int64), np.zeros(n_games, dtype=np.int64))


@njit(cache=True, inline="always")
def lend_played(out):
    return PlayedGames(borrowed(out.total), borrowed(out.boxes), borrowed(out.bonus), borrowed(out.extra))
