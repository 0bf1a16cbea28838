"""The kernels of the game itself: scoring a roll in a box (``scoring``), reading position texts
many at once (``positions``)."""
