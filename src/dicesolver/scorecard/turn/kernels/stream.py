"""The dice stream of simulations: a counter-based generator (splitmix64's output function of a keyed
counter), so that die ``d`` of throw ``s`` of turn ``turn`` of game ``i`` depends on (seed, i, turn, s, d)
only: a game's dice are the same however games are split between chunks and threads, and every
strategy of one simulation meets the same dice (``draw_dice`` writes them out for the strategies that
are played from arrays; the policy-table simulator draws them in its kernel).
"""

import numpy as np

from ....core.jit import njit, prange

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
DICE_STREAM = np.uint64(1)
RAND_STREAM = np.uint64(2)
MASK32 = np.uint64(0xFFFFFFFF)
DICE_PER_WORD = 5


@njit(cache=True, inline="always")
def mix64(x):
    """splitmix64's finaliser: a bijection of 64-bit words that scatters every input bit."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True, inline="always")
def stream_key(seed, stream):
    return mix64(np.uint64(seed) * GOLDEN + stream)


@njit(cache=True, inline="always")
def throw_word(key, game, turn, throw, group, n_turns, rolls, groups):
    """64 random bits for dice 5 * group .. 5 * group + 4 of one throw: splitmix64's output number
    ``counter`` for the stream's key (a counter-based generator: any game's dice without the others')."""
    counter = ((np.uint64(game) * np.uint64(n_turns) + np.uint64(turn)) * np.uint64(rolls) + np.uint64(throw)) \
        * np.uint64(groups) + np.uint64(group)
    return mix64(key + (counter + np.uint64(1)) * GOLDEN)


@njit(cache=True, inline="always")
def next_face(x, faces):
    """(face 1 .. faces, the bits left): the high word of x * faces, and its low 64 bits for the next die
    (five dice use the top 13 bits of 64: the faces' bias stays below 1e-15)."""
    lo = (x & MASK32) * np.uint64(faces)
    hi = (x >> np.uint64(32)) * np.uint64(faces) + (lo >> np.uint64(32))
    return 1 + np.int64(hi >> np.uint64(32)), ((hi & MASK32) << np.uint64(32)) | (lo & MASK32)


@njit(cache=True, parallel=True)
def draw_dice(seed, first_game, faces, out):
    """out[game, turn, throw, die] = the stream's dice of games first_game, first_game + 1, ..."""
    n_games, n_turns, rolls, n_dice = out.shape
    groups = (n_dice + DICE_PER_WORD - 1) // DICE_PER_WORD
    key = stream_key(seed, DICE_STREAM)
    for i in prange(n_games):
        for turn in range(n_turns):
            for s in range(rolls):
                x = np.uint64(0)
                for d in range(n_dice):
                    if d % DICE_PER_WORD == 0:
                        x = throw_word(key, first_game + i, turn, s, d // DICE_PER_WORD, n_turns, rolls, groups)
                    out[i, turn, s, d], x = next_face(x, faces)


@njit(cache=True, parallel=True)
def draw_rand(seed, first_game, out):
    """out[game, turn, throw] = the stream's random numbers in [0, 2^62) for the random strategies."""
    n_games, n_turns, rolls = out.shape
    key = stream_key(seed, RAND_STREAM)
    for i in prange(n_games):
        for turn in range(n_turns):
            for s in range(rolls):
                out[i, turn, s] = np.int64(throw_word(key, first_game + i, turn, s, 0, n_turns, rolls, 1)
                                           >> np.uint64(2))
