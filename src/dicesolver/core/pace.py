"""The time left of a long piece of work, from the shares of it done so far: one estimate for every front
end (the command line's lines, the web app's bar)."""

from __future__ import annotations


class Pace:
    """Shares done (0..1) as they are reported, and the time left at the pace since the first of them.

    The first share starts the clock: what came before it (compiling a kernel, reading a table) says nothing
    of the pace. A share that goes back starts a new stage (a table built, then the work that reads it),
    whose pace starts then."""

    def __init__(self) -> None:
        self.share: float | None = None  # the last share reported
        self.first: tuple[float, float] | None = None  # (when, share) of this stage's first report

    def restart(self) -> None:
        """A new stage: forget the shares so far."""
        self.share, self.first = None, None

    def report(self, share: float, now: float) -> bool:
        """Records ``share`` done at ``now``; true when it starts a stage (the first share, or one going back)."""
        share = min(max(share, 0.0), 1.0)
        starts = self.first is None or (self.share is not None and share < self.share)
        if starts:
            self.first = (now, share)
        self.share = share
        return starts

    def left(self, now: float) -> float | None:
        """Seconds left at this stage's pace so far; None until a second share shows a pace."""
        if self.first is None or self.share is None:
            return None
        since, share0 = self.first
        if self.share <= share0 or now <= since:
            return None
        return (1.0 - self.share) * (now - since) / (self.share - share0)
