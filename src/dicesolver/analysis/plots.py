"""Figures (matplotlib's object API; no pyplot, so nothing global and no display needed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..core.errors import InputError
from ..scorecard.rules import ScorecardGame

COLORS = ["royalblue", "tab:red", "tab:green", "tab:orange", "tab:purple", "tab:brown", "teal", "tab:gray", "gold"]


def save_figure(fig: Figure, path: str | Path) -> Path:
    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise InputError(f"plot file must end in .png, .svg or .pdf, not {path.name!r}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        FigureCanvasAgg(fig)
        fig.savefig(path, dpi=110)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror}") from None
    return path


def simulation_figure(game: ScorecardGame, runs: list) -> Figure:
    """Seed 002's summary figure: the final-score histogram (with the bonus games shaded when there is
    one player) and, on the right, how each of the first nine categories was scored."""
    fig = Figure(figsize=(12, 5.5), layout="constrained")
    grid = fig.add_gridspec(3, 6)
    main = fig.add_subplot(grid[:, :3])
    hi = max(int(r.totals.max()) for r in runs)
    lo = min(int(r.totals.min()) for r in runs)
    bins = np.linspace(lo, hi + 1, 41)
    for i, run in enumerate(runs):
        color = COLORS[i % len(COLORS)]
        s = run.summary
        label = f"{s.player}: mean {s.mean:.2f}, sd {s.sd:.1f}"
        main.hist(run.totals, bins=bins, alpha=0.45 if len(runs) > 1 else 0.5, color=color, label=label)
        if len(runs) == 1 and s.bonus_rate is not None:
            main.hist(run.totals[run.bonus], bins=bins, color=color, label=f"got upper bonus: {100 * s.bonus_rate:.0f}%")
    main.set_xlabel("final score")
    main.set_ylabel("games")
    main.set_title(f"{game.canonical}: {runs[0].summary.games:,} games per player")
    main.legend(fontsize=8)
    for k, cat in enumerate(game.categories[:9]):
        ax = fig.add_subplot(grid[k // 3, 3 + k % 3])
        for i, run in enumerate(runs):
            values = run.boxes[:, k]
            values = values[values >= 0]
            edges = np.arange(-0.5, max(1, int(game.max_scores[k])) + 1.5, max(1, cat.face) if cat.is_upper else 1)
            ax.hist(values, bins=edges, density=True, alpha=0.5, color=COLORS[i % len(COLORS)])
        ax.set_title(cat.name, fontsize=8)
        ax.tick_params(labelsize=6)
    return fig


def review_figure(review) -> Figure:
    """Cumulative luck and loss through a reviewed game."""
    fig = Figure(figsize=(9, 4), layout="constrained")
    ax = fig.add_subplot()
    steps = np.arange(len(review.timeline))
    luck = [t[1] for t in review.timeline]
    loss = [t[2] for t in review.timeline]
    ax.plot(steps, luck, color="tab:blue", label="cumulative luck")
    ax.plot(steps, [-x for x in loss], color="tab:red", label="cumulative loss (negated)")
    ax.axhline(0, color="gray", linewidth=0.8)
    s = review.summary
    ax.set_title(f"{s.game}, {s.player}: baseline {s.baseline:.1f} + luck {s.luck:+.1f} - loss {s.loss:.1f} "
                 f"= {s.final_score:.1f}")
    ax.set_xlabel("event")
    ax.set_ylabel("points")
    ax.legend()
    return fig


def push_review_figure(review) -> Figure:
    """The reviewed player's probability of winning through a push-your-luck game."""
    fig = Figure(figsize=(9, 4), layout="constrained")
    ax = fig.add_subplot()
    steps = [t[0] for t in review.timeline]
    ax.step(steps, [t[1] for t in review.timeline], where="post", color="tab:blue")
    ax.axhline(0.5, color="gray", linewidth=0.8)
    s = review.summary
    ax.set(ylim=(-0.02, 1.02), xlabel="event", ylabel="P(win)",
           title=f"{s.game}, {s.player}: baseline {s.baseline:.3f} + luck {s.luck:+.3f} - loss {s.loss:.3f} "
                 f"- {s.opponent}'s luck {s.opponent_luck:+.3f} + their loss {s.opponent_loss:.3f} = {s.result:.3f}")
    return fig


def despirala_review_figure(review) -> Figure:
    """A Despirala review: the expected final score through the game, and cumulative luck and mistakes."""
    fig = Figure(figsize=(9, 6), layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True)
    s = review.summary
    sign = -1.0 if s.game.endswith("(misere)") else 1.0
    steps = [t[0] for t in review.timeline]
    expected = [s.baseline + sign * (luck - loss) for _, luck, loss in review.timeline]
    top.step(steps, expected, where="post", color="tab:blue")
    top.axhline(s.baseline, color="gray", linewidth=0.8)
    top.set(ylabel="expected final score", title=f"{s.game}, {s.player}: baseline {s.baseline:.1f}, luck {s.luck:+.1f}, "
                                                   f"mistakes {s.loss:.1f}, final {s.final_score:.1f}")
    bottom.step(steps, [t[1] for t in review.timeline], where="post", color="tab:green", label="cumulative luck")
    bottom.step(steps, [-t[2] for t in review.timeline], where="post", color="tab:red", label="- cumulative mistakes")
    bottom.axhline(0, color="gray", linewidth=0.8)
    bottom.set(xlabel="event", ylabel="points")
    bottom.legend()
    return fig


def despirala_figure(stats, scores) -> Figure:
    """The final-score histogram of simulated Despirala games, with the mean and the model's own value."""
    fig = Figure(figsize=(9, 4.5), layout="constrained")
    ax = fig.add_subplot()
    lo, hi = int(scores.min()), int(scores.max())
    ax.hist(scores, bins=np.arange(lo, hi + 2) - 0.5 if hi - lo <= 150 else 80, color="royalblue", alpha=0.8)
    ax.axvline(stats.mean, color="black", label=f"mean {stats.mean:.1f}")
    ax.axvline(stats.expected, color="tab:red", linestyle="--", label=f"the model's own value {stats.expected:.1f}")
    ax.set(title=f"{'despirala' if stats.mode == 'normal' else 'despirala(misere)'}: {stats.games:,} games, "
                 f"{stats.model} model", xlabel="final score", ylabel="games")
    ax.legend()
    return fig


def distribution_figure(game: ScorecardGame, dist) -> Figure:
    """The exact final-score distribution of optimal play, with its mean and quartiles marked."""
    fig = Figure(figsize=(9, 4.5), layout="constrained")
    ax = fig.add_subplot()
    p = dist.probabilities
    hi = int(np.nonzero(p > 1e-7)[0][-1])
    ax.bar(np.arange(hi + 1), p[: hi + 1], width=1.0, color="royalblue")
    for q, style in ((25, ":"), (50, "--"), (75, ":")):
        ax.axvline(dist.percentile(q), color="gray", linestyle=style, linewidth=1)
    ax.axvline(dist.mean, color="tab:red", linewidth=1.2, label=f"mean {dist.mean:.2f}")
    ax.set_title(f"{game.canonical}: exact final-score distribution of optimal play (sd {dist.sd:.2f})")
    ax.set_xlabel("final score")
    ax.set_ylabel("probability")
    ax.legend()
    return fig


def match_figure(summary) -> Figure:
    """A match: points per game with 95% intervals (left) and each player's final scores (right)."""
    fig = Figure(figsize=(11, 4.5), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=[1, 1.6])
    names = [p.player for p in summary.players]
    ppg = [p.points_per_game for p in summary.players]
    err = [p.points_ci95 for p in summary.players]
    colors = [COLORS[i % len(COLORS)] for i in range(len(names))]
    left.bar(names, ppg, yerr=err, capsize=6, color=colors, alpha=0.8)
    left.axhline(0, color="black", linewidth=0.8)
    left.set_ylabel("points per game (win n-1, loss -1)")
    left.set_title(f"{summary.game}: {summary.games:,} games, 95% intervals", fontsize=10)
    left.tick_params(axis="x", labelrotation=20)
    lo = min(int(t.min()) for t in summary.totals)
    hi = max(int(t.max()) for t in summary.totals)
    bins = np.linspace(lo, hi + 1, 41)
    for p, totals, color in zip(summary.players, summary.totals, colors):
        right.hist(totals, bins=bins, alpha=0.45, color=color,
                   label=f"{p.player}: mean {p.mean_score:.1f}, wins {100 * p.win_rate:.1f}%")
    right.set_xlabel("final score")
    right.set_ylabel("games")
    right.legend(fontsize=8)
    return fig
