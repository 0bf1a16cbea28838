"""Figures of results, for every game (matplotlib's object API: no pyplot, nothing global, no display)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..core.extras import need

need("plot", "matplotlib")  # before matplotlib's own ImportError: one line naming the extra
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from ..core.errors import InputError
from ..core.family import MatchGames
from ..core.palette import BLUE, COLORS, GREEN, ORANGE, VERMILION
from ..core.protocol import Game
from ..core.results import Distribution, MatchResult, Review, TargetCurve
from .simulate import SimulationRun

SMALLEST_TEXT_POINTS = 9  # on a page at 100 px an inch: 12.5 CSS px
UNIT_LABELS = {"points": "expected final score", "ce": "certainty equivalent", "equity": "equity", "p_win": "P(win)", "p_target": "P(target)"}


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


def fit_to_width(fig: Figure, width: int) -> Figure:
    """The figure for a page ``width`` CSS pixels wide, drawn at 100 px an inch: its panels stacked one under
    the other when a row of them would not fit, every text at least 12 px, long titles wrapped."""
    specs = [(ax, spec) for ax in fig.axes if ax.get_label() != "<colorbar>" and (spec := ax.get_subplotspec())]
    wide, tall = fig.get_size_inches()
    if len({spec.colspan.start for _, spec in specs}) > 1 and width < 100 * wide * 0.8:  # too narrow for a row
        rows = [ax for ax, spec in sorted(specs, key=lambda p: (p[1].colspan.start, p[1].rowspan.start))]
        grid = fig.add_gridspec(len(rows), 1)
        for i, ax in enumerate(rows):
            ax.set_subplotspec(grid[i, 0])
        fig.set_size_inches(width / 100, len(rows) * min(width * 0.8, 420) / 100)
    else:
        tiers = len({spec.rowspan.start for _, spec in specs})  # panels one under another already
        fig.set_size_inches(width / 100, max(tall * width / wide, min(width * 0.75, 320) * max(1.0, 0.7 * tiers)) / 100)
    for ax in fig.axes:
        ax.tick_params(labelsize=SMALLEST_TEXT_POINTS)
        ax.title.set_wrap(True)
    for text in fig.findobj(Text):
        if text.get_text():
            text.set_fontsize(max(text.get_fontsize(), SMALLEST_TEXT_POINTS))
    return fig


def simulation_figure(game: Game, runs: Sequence[SimulationRun]) -> Figure:
    """The final-score histogram of each strategy (the Yacht Dice notebook's figure): with one strategy the games that
    reached the upper bonus shaded and its exact expectation marked, and, where the family records each
    box, how the first nine boxes were scored."""
    boxes = [r.details.get("boxes") for r in runs]
    with_boxes = all(b is not None for b in boxes) and runs[0].summary.categories
    fig = Figure(figsize=(12, 5.5) if with_boxes else (9, 4.5), layout="constrained")
    grid = fig.add_gridspec(3, 6 if with_boxes else 3)
    main = fig.add_subplot(grid[:, :3])
    lo = min(r.scores.min for r in runs)
    hi = max(r.scores.max for r in runs)
    bins = list(np.arange(lo, hi + 2) - 0.5 if hi - lo <= 150 else np.linspace(lo, hi + 1, 61))
    for i, run in enumerate(runs):
        color = COLORS[i % len(COLORS)]
        s = run.summary
        main.hist(run.scores.scores, weights=run.scores.counts, bins=bins, alpha=0.45 if len(runs) > 1 else 0.6,
                  color=color, label=f"{s.player}: mean {s.mean:.2f}, sd {s.sd:.1f}")
        bonus = run.details.get("bonus_scores")
        if len(runs) == 1 and s.bonus_rate is not None and bonus is not None and bonus.n:
            main.hist(bonus.scores, weights=bonus.counts, bins=bins, color=color,
                      label=f"got upper bonus: {100 * s.bonus_rate:.0f}%")
        if len(runs) == 1 and s.expected is not None:
            main.axvline(s.expected, color="black", linestyle="--", label=f"its exact expectation {s.expected:.2f}")
    main.set(xlabel="final score", ylabel="games", title=f"{game.canonical}: {runs[0].summary.games:,} games per player")
    main.legend(fontsize=8)
    if with_boxes:
        for k, cat in enumerate(runs[0].summary.categories[:9]):
            ax = fig.add_subplot(grid[k // 3, 3 + k % 3])
            for i, run in enumerate(runs):
                points = run.details["boxes"][k]
                values, counts = points.nonzero()
                used = values >= 0
                edges = list(np.arange(-0.5, max(1, int(values[used].max(initial=0))) + 1.5))
                ax.hist(values[used], weights=counts[used], bins=edges, density=True, alpha=0.5,
                        color=COLORS[i % len(COLORS)])
            ax.set_title(cat.category, fontsize=8)
            ax.tick_params(labelsize=6)
    return fig


def amount(x: float, unit: str, signed: bool = False) -> str:
    """A value of a review in words of its unit: points (a certainty equivalent is in points too), a chance in
    percent, an equity."""
    sign = "+" if signed else ""
    if unit in ("points", "ce"):
        return f"{x:{sign}.1f} points"
    if unit in ("p_win", "p_target"):
        percent = 100 * x
        return f"{percent:{sign}.2g}%" if 0 < abs(percent) < 0.1 else f"{percent:{sign}.1f}%"
    return f"{x:{sign}.3f} equity"


def review_title(s) -> str:
    """The review's sum in words: where the player started, what the dice and the decisions did, the result."""
    start = {"points": "expected at the start", "ce": "as a certainty equivalent at the start", "p_win": "to win at the start", "p_target": "to reach the target "
             "at the start"}.get(s.unit, "at the start")
    others = f"; the others' turns {amount(s.others, s.unit, True)}" if s.others else ""
    return (f"{s.game}, {s.player}: {amount(s.baseline, s.unit)} {start}\n"
            f"the dice (luck) {amount(s.luck, s.unit, True)}, the decisions cost {amount(s.loss, s.unit)}{others}; "
            f"result {amount(s.result, s.unit)}")


def review_figure(review: Review) -> Figure:
    """A reviewed game: the player's value through the game, and their cumulative luck and loss."""
    s = review.summary
    fig = Figure(figsize=(9, 6), layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True)
    events = [t.event for t in review.timeline]
    top.step(events, [t.value for t in review.timeline], where="post", color=BLUE)
    top.axhline(s.baseline, color="gray", linewidth=0.8)
    top.set(ylabel=UNIT_LABELS[s.unit], title=review_title(s))
    bottom.step(events, [t.luck for t in review.timeline], where="post", color=GREEN, label="cumulative luck")
    bottom.step(events, [-t.loss for t in review.timeline], where="post", color=VERMILION, linestyle="--",
                label="- cumulative loss")
    bottom.axhline(0, color="gray", linewidth=0.8)
    bottom.set(xlabel="event", ylabel=s.unit)
    bottom.legend()
    return fig


def training_figure(game: str, sessions: Sequence[Any]) -> Figure:
    """A player's proficiency over time: the mean loss per decision of each training session and reviewed
    game (``core.training.SessionResult``) as over a whole game's decisions (a session's ``compared``: the
    positions' difficulty taken out), sessions on new positions, on the deck of mistakes and reviewed games
    marked apart, with Verhoeff's aim for expected-score games (below 0.2)."""
    fig = Figure(figsize=(9, 4.5), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(1, len(sessions) + 1)
    y = np.array([s.mean_loss if s.compared is None else s.compared for s in sessions])
    ax.plot(x, y, color=BLUE, linewidth=1)
    kinds = np.array(["deck" if "deck" in s.source else "new" if s.source.startswith("trainer") else "game"
                      for s in sessions])
    for kind, color, marker, name in (("new", BLUE, "o", "training: new positions"),
                                      ("deck", VERMILION, "^", "training: the deck of mistakes"),
                                      ("game", ORANGE, "s", "reviewed game")):
        if (kinds == kind).any():
            ax.scatter(x[kinds == kind], y[kinds == kind], color=color, marker=marker, label=name, zorder=3)
    units = {s.unit for s in sessions}
    if units == {"points"}:
        ax.axhline(0.2, color=GREEN, linestyle="--", linewidth=1, label="Verhoeff's aim: below 0.2")
    ax.set(title=f"{game}: mean loss per decision, as over a whole game's (lower is better)", xlabel="session",
           ylabel="mean loss" + (f" ({units.pop()})" if len(units) == 1 else ""))
    ax.set_ylim(bottom=0)
    ax.legend()
    return fig


def distribution_figure(d: Distribution) -> Figure:
    """The exact final-score distribution of optimal play, with its mean and quartiles marked."""
    fig = Figure(figsize=(9, 4.5), layout="constrained")
    ax = fig.add_subplot()
    scores = np.array(sorted(d.probabilities))
    p = np.array([d.probabilities[s] for s in scores])
    shown = p > 1e-7
    ax.bar(scores[shown], p[shown], width=1.0, color=BLUE)
    for q, style in (("25", ":"), ("50", "--"), ("75", ":")):
        ax.axvline(d.percentiles[q], color="gray", linestyle=style, linewidth=1)
    ax.axvline(d.mean, color=VERMILION, linewidth=1.2, label=f"mean {d.mean:.2f}")
    ax.set(title=f"{d.game}: exact final-score distribution of optimal play (sd {d.sd:.2f})", xlabel="final score",
           ylabel="probability")
    ax.legend()
    return fig


def frontier_figure(f) -> Figure:
    """The risk appetites' trade-offs: each strategy's mean against its spread (left), and its percentiles
    against theta (right)."""
    fig = Figure(figsize=(10, 4.5), layout="constrained")
    left, right = fig.subplots(1, 2)
    thetas = [r.theta for r in f.rows]
    left.plot([r.sd for r in f.rows], [r.mean for r in f.rows], "o-")
    for r in f.rows:
        left.annotate(f"{r.theta:g}", (r.sd, r.mean), textcoords="offset points", xytext=(4, 4), fontsize=8)
    left.set_xlabel("standard deviation of the final score")
    left.set_ylabel("mean final score")
    left.set_title("mean against spread (each point a theta)")
    for q in f.rows[0].percentiles:
        right.plot(thetas, [r.percentiles[q] for r in f.rows], "o-", label=f"{q}th percentile")
        best = f.best[f"p{q}"]
        right.axvline(best, color="grey", lw=0.5, ls=":")
    right.set_xlabel("risk appetite theta")
    right.set_ylabel("final score")
    right.set_title(f"{f.game}: percentiles by theta\n(dotted: the best theta of each)")
    right.legend(fontsize=8)
    return fig


def appetite_figure(a) -> Figure:
    """The likelihood of each risk appetite given a player's choices, the estimate and its 95% interval."""
    fig = Figure(figsize=(7, 4), layout="constrained")
    ax = fig.subplots()
    thetas = [p.theta for p in a.profile]
    top = max(p.log_likelihood for p in a.profile)
    ax.plot(thetas, [p.log_likelihood - top for p in a.profile], "o-", color=VERMILION)
    ax.axvspan(a.low, a.high, color="grey", alpha=0.2, label="95% interval")
    ax.axvline(a.theta, color="black", lw=0.8, ls=":", label=f"estimate {a.theta:g}")
    ax.axvline(0.0, color="grey", lw=0.5)
    ax.set_xlabel("risk appetite theta (< 0 safer, > 0 bolder)")
    ax.set_ylabel("log-likelihood, from the best")
    ax.set_title(f"{a.game}: {a.player}'s choices ({a.informative} informative of {a.decisions})")
    ax.legend(fontsize=8)
    return fig


def target_curve_figure(c: TargetCurve) -> Figure:
    """The best chance of reaching each target, beside the expected-score strategy's (above), and the gain
    of playing for the target (below)."""
    fig = Figure(figsize=(9, 6), layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=[2.2, 1])
    t = np.array(c.targets)
    best, theirs = np.array(c.best), np.array(c.expected_score_strategy)
    top.plot(t, best, color=VERMILION, label="playing for the target")
    top.plot(t, theirs, color=BLUE, linestyle="--", label="playing for the expected score")
    top.set(title=f"{c.game}: the best chance of reaching each final score",
            ylabel="P(final score <= T)" if c.at_most else "P(final score >= T)")
    top.legend()
    bottom.fill_between(t, 0, best - theirs, color=VERMILION, alpha=0.35)
    right = c.largest_gain_at > 0.8 * t[-1]  # near the right edge: the label goes on the left of the peak
    bottom.annotate(f"+{c.largest_gain:.4f} at {c.largest_gain_at}", (c.largest_gain_at, c.largest_gain),
                    textcoords="offset points", xytext=(-6 if right else 6, -12), fontsize=9,
                    ha="right" if right else "left")
    bottom.set(xlabel="target T (points)", ylabel="gain in P")
    return fig


def match_figure(result: MatchResult, games: MatchGames) -> Figure:
    """A match: points per game with 95% intervals (left) and each player's final scores (right)."""
    fig = Figure(figsize=(11, 4.5), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=[1, 1.6])
    names = [p.player for p in result.players]
    colors = [COLORS[i % len(COLORS)] for i in range(len(names))]
    left.bar(names, [p.points_per_game for p in result.players], yerr=[p.points_ci95 for p in result.players],
             capsize=6, color=colors, alpha=0.8)
    left.axhline(0, color="black", linewidth=0.8)
    left.set_ylabel("points per game (win n-1, loss -1)")
    left.set_title(f"{result.game}: {result.games:,} games, 95% intervals", fontsize=10)
    left.tick_params(axis="x", labelrotation=20)
    totals = games.totals
    bins = np.linspace(int(totals.min()), int(totals.max()) + 1, 41)
    for k, (p, color) in enumerate(zip(result.players, colors)):
        right.hist(totals[:, k], bins=bins, alpha=0.45, color=color,
                   label=f"{p.player}: mean {p.mean_score:.1f}, wins {100 * p.win_rate:.1f}%")
    right.set(xlabel="final score", ylabel="games")
    right.legend(fontsize=8)
    return fig
