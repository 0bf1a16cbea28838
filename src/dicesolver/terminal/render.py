"""The result objects drawn for a terminal with rich: one drawing per result type, for every game.

User text (names, positions, messages) is always printed as text, never read as markup.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..core.protocol import JUDGE_WORDS, UNIT_WORDS
from ..core.results import (
    Advice,
    Appetite,
    Board,
    ChartRow,
    Comparison,
    Decision,
    Distribution,
    Explanation,
    Frontier,
    MatchResult,
    OddsRow,
    PolicyEvaluation,
    Review,
    SimulationSummary,
    SolveInfo,
    StrategyFacts,
    TargetCurve,
)

# how a decision's label is shown in the review tables
LABEL_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "red", "massive blunder": "bold red"}
VALUE_HEADERS = {"points": "expected final score", "ce": "certainty equivalent", "equity": "equity", "p_win": "P(win)", "p_target": "P(target)"}


def fmt(value: float, unit: str) -> str:
    """A value as the unit is usually read: points with 4 decimals, equity signed, probabilities with 6."""
    if unit == "equity":
        return f"{value:+.4f}"
    if unit in ("p_win", "p_target"):
        return f"{value:.6f}"
    return f"{value:.4f}"


def fmt_short(value: float, unit: str) -> str:
    if unit == "equity":
        return f"{value:+.3f}"
    if unit in ("p_win", "p_target"):
        return f"{value:.3f}"
    return f"{value:.2f}"


def say(console: Console, text: str, style: str | None = None) -> None:
    """Print plain text (brackets in it are text, not markup)."""
    console.print(Text(text, style=style or ""), soft_wrap=True)


def solve_info(console: Console, info: SolveInfo, headline: str) -> None:
    console.print(Text.assemble((info.game, "bold"), ": ", headline))
    how = f"solved in {info.seconds:.2f} s" if info.solved_now else f"loaded from cache in {info.seconds:.2f} s"
    extra = f" ({info.details['sweeps']} sweeps)" if info.solved_now and "sweeps" in info.details else ""
    where = f"at {info.table_dir}" if Path(info.table_dir).exists() else "in memory only (the cache could not keep it)"
    say(console, f"{how}{extra}; table {info.states:,} states, {info.table_bytes / 2**20:.1f} MiB {where}")


def advice(console: Console, advice: Advice, brief: str, top: int = 0) -> None:
    console.print(Text.assemble((advice.game, "bold"), f"  {advice.position}  ({brief})"), soft_wrap=True)
    if not advice.options:
        word = UNIT_WORDS[advice.unit]
        if advice.player is None:
            say(console, f"The game is over: {word} {fmt(advice.value, advice.unit)}.")
        else:
            say(console, f"The dice are to be thrown. {word[0].upper() + word[1:]} with best play: "
                         f"{fmt(advice.value, advice.unit)}")
    else:
        table = options_table(advice, top)
        console.print(table)
        if top and len(advice.options) > top:
            say(console, f"({len(advice.options) - top} more options; --top 0 shows all)")
    for note in advice.notes:
        say(console, note)


def explanation(console: Console, why: Explanation, brief: str, top: int = 0, chances: bool = False) -> None:
    """``advise --explain``: the main reason in one sentence; every option with its value, its split (a race:
    winning this turn or later) or its spread (points), and its cost (``chances``: and the chance of each
    aspect with a fixed prize, where the options differ on it); then the best set against another aspect by
    aspect, with their chances, and in a sentence."""
    from ..core.why import chance_words

    console.print(Text.assemble((why.game, "bold"), f"  {why.position}  ({brief})"), soft_wrap=True)
    if why.reason:
        say(console, why.reason, "bold")
    alone = why.split_unit == "points"  # a chance or an equity, beside the points as if alone
    points = why.unit == "points" or alone
    value_words = VALUE_HEADERS[why.unit][0].upper() + VALUE_HEADERS[why.unit][1:]
    if not why.options:
        parts = ", ".join(f"{why.titles[k]} {fmt(v, 'points' if alone else why.unit)}" for k, v in
                          sorted(why.breakdown.items(), key=lambda kv: -kv[1]) if abs(v) >= 0.005 or not points)
        spread = f" (sd {why.sd:.2f})" if points else ""
        odds = "; chances: " + ", ".join(f"{why.titles[k]} {chance_words(p)}" for k, p in why.chances.items()) \
            if chances and why.chances else ""
        if alone:
            say(console, f"{value_words} {fmt(why.value, why.unit)}; as if alone, {why.points:.2f} points"
                         f"{spread}: {parts}{odds}.")
        else:
            say(console, f"{value_words} {fmt(why.value, why.unit)}{spread}: {parts}{odds}.")
        return
    shown = why.options[:top] if top else why.options
    varied = [k for k in why.options[0].chances  # a race's split is its chances already: not again
              if chances and (points or k not in why.breakdown)
              and max(o.chances[k] for o in shown) - min(o.chances[k] for o in shown) >= 0.005]
    table = Table()
    columns = ["#", "option", VALUE_HEADERS[why.unit]] + (["points alone"] if alone else []) + \
        (["sd"] if points else [why.titles[k] for k in why.breakdown]) + [why.titles[k] for k in varied]
    for col in columns + ["cost"]:
        table.add_column(col, justify="left" if col == "option" else "right")
    for i, o in enumerate(shown, 1):
        split = ([f"{o.points:.2f}"] if alone else []) + \
            ([f"{o.sd:.2f}"] if points else [fmt(v, why.unit) for v in o.breakdown.values()])
        cells = [chance_words(o.chances[k]) for k in varied]
        cost = fmt(o.cost, why.unit if why.unit != "equity" else "points")
        table.add_row(str(i), o.action, fmt(o.value, why.unit), *split, *cells, cost,
                      style="bold green" if i == 1 else None)
    if varied:
        table.title = "the chance of each prize" + (" (as if alone)" if alone else "") + " after each option"
    console.print(table)
    if top and len(why.options) > top:
        say(console, f"({len(why.options) - top} more options; --top 0 shows all)")
    if why.differences and points:
        diff = Table(title=f"why {why.best} over {why.versus}" + (": the points as if alone" if alone else ""))
        for col in ("aspect", str(why.best), str(why.versus), "difference"):
            diff.add_column(col, justify="left" if col == "aspect" else "right")

        def part(points: float, chance: float | None) -> str:
            return f"{points:.2f}" + (f" ({chance_words(chance)})" if chance is not None else "")

        for d in why.differences:
            if abs(d.difference) >= 0.005:
                diff.add_row(d.title, part(d.best, d.best_chance), part(d.other, d.other_chance), f"{d.difference:+.2f}")
        console.print(diff)
    say(console, why.summary + ".")


def options_table(advice: Advice, top: int = 0, title: str | None = None) -> Table:
    table = Table(title=title)
    with_points = any(o.points is not None for o in advice.options)
    table.add_column("#", justify="right")
    table.add_column("option")
    if with_points:
        table.add_column("points", justify="right")
    table.add_column(VALUE_HEADERS[advice.unit] + ("" if advice.higher_is_better else " (lower is better)"),
                     justify="right")
    table.add_column("cost", justify="right")
    shown = advice.options[:top] if top else advice.options
    for i, o in enumerate(shown, 1):
        cells = [str(i), o.action]
        if with_points:
            cells.append("" if o.points is None else str(o.points))
        cells += [fmt(o.value, advice.unit), fmt(o.cost, advice.unit if advice.unit != "equity" else "points")]
        table.add_row(*(Text(c) for c in cells), style="bold green" if i == 1 else None)
    return table


def board(console: Console, b: Board) -> None:
    table = Table(title=b.title, box=None, padding=(0, 2), show_header=len(b.columns) > 2 or b.columns[0] != "box")
    for i, col in enumerate(b.columns):
        table.add_column(col, justify="left" if i == 0 else "right")
    for r, row in enumerate(b.rows):
        style = "bold" if r in b.strong else "dim" if r in b.faint else None
        table.add_row(*(Text(c) for c in row), style=style)
    console.print(table)
    for line in b.lines:
        say(console, line)


def review(console: Console, result: Review) -> None:
    s = result.summary
    unit = s.unit
    others = [p for k, p in enumerate(s.players) if k != s.index]
    against = f" against {', '.join(others)}" if others else ""
    word = {"points": "expected final score", "ce": "certainty equivalent", "equity": "equity",
            "p_win": "probability of winning", "p_target": "probability of reaching the target"}[unit]
    whose = "your" if s.player == "you" else f"{s.player}'s"
    say(console, f"{s.game}: review of {whose} game{against} ({s.measure}, by {JUDGE_WORDS.get(s.judge, s.judge)})", "bold")
    table = Table()
    for col in ("turn", "moment", "choice", "value", "best instead", "loss", ""):
        table.add_column(col, justify="right" if col in ("turn", "value", "loss") else "left")
    for d in result.mine():
        if d.options <= 1:
            continue
        best = "" if d.chosen == d.best else f"{d.best} ({fmt_short(d.best_value, unit)})"
        table.add_row(str(d.turn), Text(d.brief), Text(d.chosen), fmt_short(d.chosen_value, unit), Text(best),
                      f"{d.loss:.3f}" if d.loss else "", d.label if d.loss else "", style=LABEL_STYLES.get(d.label))
    console.print(table)
    mine = [x for x in result.luck if x.seat == s.seat]
    if mine:
        worst = min(mine, key=lambda x: x.luck)
        best_ = max(mine, key=lambda x: x.luck)
        say(console, f"unluckiest throw: turn {worst.turn} {worst.outcome} ({worst.luck:+.3f}); "
                     f"luckiest: turn {best_.turn} {best_.outcome} ({best_.luck:+.3f})")
    ended = {"points": "final score", "ce": "final score", "equity": "result", "p_win": "result",
             "p_target": "result"}[unit]
    outcome = ended if s.complete else f"{word} now (unfinished game)"
    sign = "+" if s.higher_is_better else "-"
    terms = f"luck {s.luck:+.3f} - your loss {s.loss:.3f}" + (f" + the others' turns {s.others:+.3f}" if others else "")
    say(console, f"baseline {fmt_short(s.baseline, unit)} {sign} ({terms}) = {outcome} {fmt_short(s.result, unit)}"
        if not s.higher_is_better else f"baseline {fmt_short(s.baseline, unit)} + {terms} = {outcome} "
                                       f"{fmt_short(s.result, unit)}")
    if not s.higher_is_better:
        say(console, "(lower is better here: good luck lowers the score)")
    if others:
        losses: dict[str, float] = {}
        for d in result.decisions:
            if d.seat != s.seat:
                losses[d.player] = losses.get(d.player, 0.0) + d.loss
        say(console, "the others' decisions: " + ", ".join(f"{name}'s loss {v:.3f}" for name, v in losses.items()))
    counts = ", ".join(f"{k}: {v}" for k, v in sorted(s.labels.items()))
    say(console, f"{s.decisions_with_choice} decisions with a choice, mean loss {s.mean_loss:.4f}; {counts}")
    if s.rating:
        say(console, f"rating: {s.rating} (the game's scale, placed by its bots: dicesolver rating {s.game})", "bold")


def lessons(console: Console, taught: Sequence[tuple[Decision, str]]) -> None:
    """A review's costliest decisions, each with why (``core.why.lessons``)."""
    if not taught:
        say(console, "no decision lost anything worth telling")
        return
    say(console, "your costliest decisions, and why:", "bold")
    for d, text in taught:
        say(console, f"  turn {d.turn}, {d.brief} ({d.label}): {text}")


def distribution(console: Console, d: Distribution) -> None:
    whose = f"the strategy of risk appetite theta={d.theta:g}" if d.theta else "optimal play"
    console.print(Text.assemble((d.game, "bold"), f": exact final-score distribution of {whose}"))
    say(console, f"mean {d.mean:.6f}  sd {d.sd:.4f}  mode {d.mode}  range {d.min}..{d.max}")
    say(console, "percentiles: " + "  ".join(f"p{q} {v}" for q, v in d.percentiles.items()))
    if d.bonus_probability is not None:
        say(console, f"P(upper bonus) {d.bonus_probability:.4f}")
    if d.extra_bonus_mean is not None:
        say(console, f"{d.extra_bonus_box or 'extra'} bonuses per game {d.extra_bonus_mean:.4f}")
    table = Table(title="P(box scores more than 0)")
    table.add_column("category")
    table.add_column("probability", justify="right")
    for name, x in d.category_probabilities.items():
        table.add_row(name, f"{x:.4f}")
    console.print(table)
    say(console, f"best probability of a perfect game (every box at its maximum): {d.perfect_game_probability:.6g} "
                 f"= 1 in {d.perfect_game_one_in:.4g}")


def target_curve(console: Console, c: TargetCurve, step: int = 25) -> None:
    reach = "finishing with at most each score" if c.at_most else "reaching each final score"
    console.print(Text.assemble((c.game, "bold"), f": the best chance of {reach}"))
    table = Table()
    for col in ("target", "playing for it", "playing for points", "gain"):
        table.add_column(col, justify="right")
    last = c.targets[-1]
    for t in [t for t in c.targets if t % step == 0 or t == last]:
        table.add_row(str(t), f"{c.best[t]:.6f}", f"{c.expected_score_strategy[t]:.6f}",
                      f"{c.best[t] - c.expected_score_strategy[t]:+.6f}")
    console.print(table)
    say(console, f"largest gain {c.largest_gain:+.6f} at {c.largest_gain_at} points ({c.seconds:.1f} s)")


def frontier(console: Console, f: Frontier) -> None:
    console.print(Text.assemble((f.game, "bold"), ": the strategy of each risk appetite, from its exact final scores"))
    table = Table()
    cols = ["theta", "certainty equiv.", "mean", "sd", "p5", "p50", "p95", "p99", "wins 2", "wins 10", "wins 100"]
    for col in cols:
        table.add_column(col, justify="right")
    for r in f.rows:
        table.add_row(f"{r.theta:g}", f"{r.certainty_equivalent:.2f}", f"{r.mean:.2f}", f"{r.sd:.2f}",
                      *(str(v) for v in r.percentiles.values()), *(f"{100 * w:.2f}%" for w in r.field_wins.values()))
    console.print(table)
    say(console, "best theta by each measure: " + ", ".join(f"{name} {theta:g}" for name, theta in f.best.items()))
    checked = [r for r in f.rows if r.simulated is not None]
    if checked:
        games = checked[0].simulated.games if checked[0].simulated else 0
        check = Table(title=f"checked by {games:,} simulated games of each (the same dice): simulated, "
                            "then the 95% interval's half-width, then exact")
        for col in ("theta", "mean", "sd", "p5", "p50", "p95", "p99", "wins 10"):
            check.add_column(col, justify="right")
        for r in checked:
            s = r.simulated
            assert s is not None
            half = 1.96 * s.sd / s.games**0.5
            wins = s.field_wins["10"]
            wins_half = 1.96 * (wins * (1 - wins) / s.games) ** 0.5
            check.add_row(f"{r.theta:g}", f"{s.mean:.2f} ± {half:.2f} ({r.mean:.2f})", f"{s.sd:.2f} ({r.sd:.2f})",
                          *(f"{s.percentiles[q]} ({r.percentiles[q]})" for q in r.percentiles),
                          f"{100 * wins:.2f}% ± {100 * wins_half:.2f} ({100 * r.field_wins['10']:.2f}%)")
        console.print(check)


def appetite(console: Console, a: Appetite) -> None:
    console.print(Text.assemble((a.game, "bold"), f": {a.player}'s risk appetite, from {a.decisions} decisions in "
                                f"{a.records} record{'s' if a.records != 1 else ''}"))
    edge = " (at the edge of the grid: perhaps further)" if a.theta in (a.profile[0].theta, a.profile[-1].theta) \
        and a.theta != 0 else ""
    say(console, f"theta {a.theta:g}{edge}, 95% interval {a.low:g} to {a.high:g}: {a.words}")
    say(console, f"{a.informative} of the decisions tell appetites apart (the strategies of different theta choose "
                 "differently there); the others say nothing about it")
    table = Table()
    for col in ("theta", "log-likelihood", "rationality (per point)"):
        table.add_column(col, justify="right")
    for p in a.profile:
        mark = " *" if p.theta == a.theta else ""
        table.add_row(f"{p.theta:g}{mark}", f"{p.log_likelihood:.2f}", f"{p.rationality:.2f}")
    console.print(table)


def policy_evaluation(console: Console, e: PolicyEvaluation) -> None:
    console.print(Text.assemble((e.game, "bold"), f": {e.policy}, {e.games:,} games from seed {e.seed}"))
    say(console, f"mean score {e.mean:.2f} ± {e.ci95:.2f}; the optimal player on the same seeds {e.optimal_mean:.2f} "
                 f"(exactly {e.optimal_value:.2f} expected)")
    say(console, f"points lost per game {e.gap:.2f} ± {e.gap_ci95:.2f}; exact regret {e.regret_per_decision:.4f} per "
                 f"decision, {e.regret_per_game:.2f} per game ({e.decisions:,} decisions, {e.seconds:.1f} s)")


def comparison(console: Console, c: Comparison) -> None:
    what = "exactly" if c.unit == "equity" else f"exactly (probability that {c.a} wins)"
    console.print(Text.assemble((c.game, "bold"), f": {c.a} against {c.b}, {what}"))
    for label, value, e in (("going first: ", c.first, c.elo_first), ("going second:", c.second, c.elo_second),
                            ("average:     ", c.average, c.elo)):
        say(console, f"  {label} {fmt(value, c.unit)}  (Elo {e:+.1f})")
    say(console, f"  {c.seconds:.1f} s")


def strategy_facts(console: Console, f: StrategyFacts, shown: int = 12) -> None:
    console.print(Text.assemble((f.game, "bold"), ": how the perfect two-player strategy plays (exact)"))
    say(console, f"boxes scored 0 per turn: {f.zero_per_turn:.4f}, of which waived (another open box would have "
                 f"scored): {f.waives_per_turn:.4f}")
    boxes = Table(title="scored 0, per game (both players)")
    for col in ("box", "scored 0", "waived"):
        boxes.add_column(col, justify="left" if col == "box" else "right")
    for b in sorted(f.boxes, key=lambda b: -b.zero):
        boxes.add_row(b.box, f"{b.zero:.4f}", f"{b.waived:.4f}")
    console.print(boxes)
    say(console, f"opening rolls where the keep departs from Maximus's: {len(f.departures)} of {f.opening_rolls}")
    if f.departures:
        table = Table(title=f"the costliest {min(shown, len(f.departures))} (equity with perfect play afterwards)")
        for col in ("roll", "keep", "equity", "Maximus keeps", "equity", "cost"):
            table.add_column(col, justify="left" if col in ("roll", "keep", "Maximus keeps") else "right")
        for d in f.departures[:shown]:
            table.add_row(d.roll, d.keep, f"{d.equity:+.5f}", d.maximus_keep, f"{d.maximus_equity:+.5f}",
                          f"{d.cost:.5f}")
        console.print(table)
    say(console, f"  {f.seconds:.1f} s")


def match(console: Console, m: MatchResult) -> None:
    table = Table(title=f"{m.game}: {m.games:,} games ({m.deals:,} deals x {m.rotations} seating orders), seed {m.seed}")
    for col in ("player", "points/game", "±95%", "wins", "±95%", "ties", "won (ties shared)", "mean score", "sd"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for p in m.players:
        table.add_row(Text(p.player), f"{p.points_per_game:+.4f}", f"{p.points_ci95:.4f}", f"{100 * p.win_rate:.2f}%",
                      f"{100 * p.win_ci95:.2f}%", f"{100 * p.tie_rate:.2f}%", f"{100 * p.share:.1f}%",
                      f"{p.mean_score:.2f}", f"{p.score_sd:.2f}")
    console.print(table)
    if m.rotations > 1:
        seats = Table(title="won (ties shared) and average place by seat: 1 moves first", box=None)
        seats.add_column("player")
        for k in range(m.rotations):
            seats.add_column(f"seat {k + 1}", justify="right")
        for p in m.players:
            seats.add_row(Text(p.player), *(f"{100 * v:.1f}% ± {100 * ci:.1f}, place {rank:.3f}" for v, ci, rank in
                                             zip(p.share_by_seat, p.share_ci95_by_seat, p.rank_by_seat)))
        console.print(seats)


def simulation(console: Console, runs: Sequence[SimulationSummary], title: str) -> None:
    table = Table(title=title)
    with_bonus = any(r.bonus_rate is not None for r in runs)
    with_expected = any(r.expected is not None for r in runs)
    for col in ("player", "mean", "sd", "±95%", "p5", "p25", "median", "p75", "p95", "mode"):
        table.add_column(col, justify="left" if col == "player" else "right")
    if with_expected:
        table.add_column("expected", justify="right")
    if with_bonus:
        table.add_column("bonus", justify="right")
    with_ce = any(r.certainty_equivalent is not None for r in runs)
    if with_ce:
        table.add_column("certainty equivalent", justify="right")
    aims = sorted({r.goal for r in runs if r.goal is not None})
    if aims:
        target = next((r.target for r in runs if r.target is not None), None)
        title = f"reached {target}" if target is not None else f"won ({aims[0]})"
        table.add_column(title if len(aims) == 1 else "reached its goal", justify="right")
    for s in runs:
        row: list[Text | str] = [Text(s.player), f"{s.mean:.2f}", f"{s.sd:.2f}", f"{1.96 * s.stderr:.2f}"]
        row += [f"{s.percentiles[str(p)]:.0f}" for p in (5, 25, 50, 75, 95)] + [str(s.mode)]
        if with_expected:
            row.append("" if s.expected is None else f"{s.expected:.3f}")
        if with_bonus:
            row.append("" if s.bonus_rate is None else f"{100 * s.bonus_rate:.1f}%")
        if with_ce:
            row.append("" if s.certainty_equivalent is None else
                       f"{s.simulated_certainty_equivalent:.2f} (exactly {s.certainty_equivalent:.3f})")
        if s.target_rate is not None:
            ci = 1.96 * (s.target_rate * (1 - s.target_rate) / s.games) ** 0.5
            exact = "" if s.target_chance is None else f" (exactly {100 * s.target_chance:.2f}%)"
            row.append(f"{100 * s.target_rate:.2f}% ± {100 * ci:.2f}{exact}")
        elif aims:
            row.append("")
        table.add_row(*row)
    console.print(table)
    if any(r.categories for r in runs):
        cats = Table(title="categories: how often each scores (mean points)")
        cats.add_column("category")
        for r in runs:
            cats.add_column(Text(r.player), justify="right")
        for k, c in enumerate(runs[0].categories):
            cats.add_row(c.category, *[f"{100 * r.categories[k].scored_rate:.1f}% ({r.categories[k].mean:.2f})"
                                       for r in runs])
        console.print(cats)


def odds(console: Console, rows: Sequence[OddsRow], title: str, exact: bool) -> None:
    table = Table(title=title)
    nothing = any(r.p_nothing is not None for r in rows)  # the columns a game's rows have
    every = any(r.p_every_die is not None for r in rows)
    columns = ("category", "expected points", "max", "P(max)") + (("P(max) exactly",) if exact else ()) + \
        (("P(nothing)",) if nothing else ()) + (("P(every die)",) if every else ())
    for col in columns:
        table.add_column(col, justify="left" if col == "category" else "right")
    for r in rows:
        cells = [r.category, f"{r.expected_points:.4f}", str(r.max_points), f"{r.p_max:.6f}"]
        if exact:
            cells.append(r.p_max_exact or "")
        if nothing:
            cells.append("" if r.p_nothing is None else f"{r.p_nothing:.6f}")
        if every:
            cells.append("" if r.p_every_die is None else f"{r.p_every_die:.6f}")
        table.add_row(*cells)
    console.print(table)


def chart(console: Console, rows: Sequence[ChartRow]) -> None:
    for r in rows:
        dice = f" [{r.dice} di{'e' if r.dice == 1 else 'ce'}]" if r.dice is not None else ""
        say(console, f"({r.mine},{r.theirs}){dice} {r.win:.7f} - {' '.join(map(str, r.thresholds))}")


__all__ = ["LABEL_STYLES", "fmt", "say", "escape", "solve_info", "advice", "options_table", "board", "review",
           "comparison", "distribution", "match", "simulation", "odds", "chart"]


def tutor_warnings(console: Console, review: Review) -> None:
    """A game played with the tutor: each warning, and whether it was heeded."""
    if not review.tutor:
        say(console, "tutor: no warning this game")
        return
    heeded = sum(w.heeded for w in review.tutor)
    table = Table(title=f"the tutor's warnings: {heeded} heeded, {len(review.tutor) - heeded} not")
    for col in ("position", "warned", "cost", "best", "played"):
        table.add_column(col, justify="right" if col == "cost" else "left")
    for w in review.tutor:
        table.add_row(w.position, w.move, fmt(w.cost, review.summary.unit), w.best,
                      w.played + ("" if w.heeded else " (anyway)"), style=None if w.heeded else "yellow")
    console.print(table)
