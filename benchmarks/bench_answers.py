"""Benchmark for issue 34: answers at the speed of a lookup, side by side with the PyPI peer ``yatzy-solver``.

The peer is installed in its own virtual environment (``benchmarks/.peer-venv``, made on first use) and
run in its own process, at the same time as ours in turns, so that both see the same machine. It samples
the situations: its exporter plays ``--n`` optimal Yahtzee games' worth of decisions, and each of its
situations (filled boxes, upper total, whether the Yahtzee box holds 50, dice, throws left) is written as
our position (the upper total spread over the filled upper boxes, the other filled boxes 0). Every option's
value is compared (ours counts the points already scored, the peer's the points to come: the
differences between options must agree; ours also offers holding all five dice, which the peer leaves
out), then timed:

* one situation in-process after warm-up: ours given as arrays (``SolvedGame.answer``) and as position
  text (``encoding.parse_situations`` + ``answer``), and the whole ``dicesolver.advise`` (an ``Advice``
  with every option in words); the peer's ``Solver.option_values(notation)``;
* a batch: ``--batch`` situations of the exporter's games (most of them distinct: the opening throws
  repeat), answered at once, the best of three calls (ours on all cores; the peer's
  ``option_values_batch`` over ``Variant.situation_arrays``). Repeating a few thousand situations instead
  would flatter ours, which works out each turn state's keep stages once for all its situations;
* a review of a recorded solitaire game (``SolvedGame.review``), ``rl.evaluate`` games per second (the
  optimal policy, and a random one judged against it), and two-person tables read from disk (Generala,
  and Yacht or Crag where their tables are in the cache).

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_answers.py [--n 2000] [--batch 1000000]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
import venv
from pathlib import Path

import numpy as np

import dicesolver as ds
from dicesolver.core import registry

PEER_VENV = Path(__file__).parent / ".peer-venv"
PEER_PYTHON = PEER_VENV / "bin" / "python"
UPPER = ("aces", "twos", "threes", "fours", "fives", "sixes")
LOWER = ("three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight", "five_of_a_kind",
         "chance")
OURS = {name: name for name in LOWER} | {"five_of_a_kind": "yahtzee"}

PEER_SCRIPT = textwrap.dedent("""
    import json, sys, time
    import numpy as np
    import yatzy_solver as y
    n, batch_n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    variant = y.Variant("american+forced-joker")
    began = time.perf_counter()
    solver = y.Solver.build(variant)
    built = time.perf_counter() - began
    solver.export(out, max(n, batch_n), source="optimal", seed=34, format="jsonl")
    notations = [json.loads(line)["notation"] for line in open(out)]
    for t in notations[:n]:
        solver.option_values(t)
    began = time.perf_counter()
    for t in notations[:n]:
        solver.option_values(t)
    single = (time.perf_counter() - began) / len(notations[:n])
    arrays = variant.situation_arrays(notations)
    solver.option_values_batch(**variant.situation_arrays(notations[:n]))
    batch = 0.0
    for _ in range(3):  # the best of three, as ours: the first touches the answers' memory
        began = time.perf_counter()
        solver.option_values_batch(**arrays)
        batch = max(batch, len(arrays["dice"]) / (time.perf_counter() - began))
    print(json.dumps({"build": built, "single": single, "batch": batch, "n": len(notations)}))
""")


def peer_python() -> Path:
    """The peer's own virtual environment (made and filled with yatzy-solver and numpy on first use)."""
    if not PEER_PYTHON.exists():
        venv.create(PEER_VENV, with_pip=True)
        subprocess.run([str(PEER_PYTHON), "-m", "pip", "install", "--quiet", "yatzy-solver==1.0.0", "numpy"], check=True)
    return PEER_PYTHON


def spread(total: int, faces: list[int]) -> dict[int, int]:
    """Scores for the filled upper boxes (faces) that add up to ``total`` (or, capped at 63, to at least
    63): each box a multiple of its face, at most five of it."""
    reach: dict[int, dict[int, int]] = {0: {}}
    for f in faces:
        step: dict[int, dict[int, int]] = {}
        for have, boxes in reach.items():
            for k in range(6):
                step.setdefault(have + k * f, {**boxes, f: k * f})
        reach = step
    for score in sorted(reach):
        if score == total or (total >= 63 and score >= 63):
            return reach[score]
    raise ValueError(f"no upper boxes {faces} add up to {total}")


def position(row: dict) -> str:
    """A peer situation as our Yahtzee position text."""
    filled = row["filled"]
    names = UPPER + LOWER
    upper_faces = [i + 1 for i in range(6) if filled >> i & 1]
    upper = spread(row["upper"], upper_faces)
    boxes = [f"{UPPER[f - 1]}={upper[f]}" for f in upper_faces]
    for i, name in enumerate(LOWER, start=6):
        if filled >> i & 1:
            points = 50 if name == "five_of_a_kind" and row["five_of_a_kind"] else 0
            boxes.append(f"{OURS[names[i]]}={points}")
    dice = "".join(str(d) for d in sorted(row["dice"]))
    return f"{','.join(boxes)}/{dice}/{row['rolls_left']}"


def per_call(fn, items, repeat: int = 3) -> float:
    """The best of ``repeat`` passes over ``items``, in seconds per item."""
    for item in items[:50]:
        fn(item)
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, (time.perf_counter() - began) / len(items))
    return best


def positions_met(game_name: str, n: int, seed: int = 0) -> list[str]:
    """The texts of ``n`` distinct decisions met in random games of ``game_name`` (random legal moves)."""
    import random

    from dicesolver.core import registry

    rng, game = random.Random(seed), registry.load(game_name)
    found: dict[str, None] = {}
    while len(found) < n:
        state = game.start()
        while not state.is_terminal() and len(found) < n:
            if state.is_chance():
                outcomes = state.chance_outcomes()
                state = state.apply(rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0])
            else:
                found[str(state)] = None
                state = state.apply(rng.choice(state.legal_actions()))
    return list(found)


def compare(rows: list[dict], texts: list[str], solution) -> float:
    """The largest disagreement between our options' values and the peer's, each counted from the best."""
    answers = solution.answer(solution.encoding.parse_situations(texts))
    keep_all = (1 << solution.game.n_dice) - 1  # holding every die: ours offers it, the peer does not
    worst = 0.0
    for i, row in enumerate(rows):
        theirs = sorted(o["value"] for o in row["options"])
        ours = sorted(v for c, v, _ in answers.options(i) if c != keep_all)
        assert len(theirs) == len(ours), (texts[i], len(theirs), len(ours))
        worst = max(worst, max(abs((a - ours[-1]) - (b - theirs[-1])) for a, b in zip(ours, theirs)))
    return worst


def two_person(spec: str, n: int = 100_000) -> float | None:
    """Situations per second from a two-person table on disk (None where it is not in the cache): ``n``
    decisions met on random walks through games, most of them distinct."""
    game = registry.load(spec, 2)
    from dicesolver.scorecard.duel import table as duel

    if not (duel.table_key(game.with_players(1)).directory / "manifest.json").exists() and spec != "generala":
        return None
    solution = registry.solve(game, judge="exact")
    rng = np.random.default_rng(0)
    states, state = [], game.start()
    while len(states) < n:
        state = game.start() if state.is_terminal() else state
        if state.is_chance():
            outcomes = state.chance_outcomes()
            p = np.array([q for _, q in outcomes])
            state = state.apply(outcomes[rng.choice(len(outcomes), p=p / p.sum())][0])
        else:
            states.append(state)
            actions = state.legal_actions()
            state = state.apply(actions[rng.integers(len(actions))])
    sits = solution.encoding.situations(states)
    solution.answer({k: v[:1000] for k, v in sits.items()})
    began = time.perf_counter()
    solution.answer(sits)
    return n / (time.perf_counter() - began)


def review_seconds() -> float:
    """The best time of reviewing a recorded solitaire Yahtzee game (played by the optimal bot)."""
    from dicesolver.scorecard.bots.players import make_player
    from dicesolver.scorecard.bots.selfplay import play_game

    game = registry.load("yahtzee")
    playthrough = play_game(game, make_player("greedy", game), 7).playthrough()
    solution = registry.solve(game)
    solution.review(playthrough)
    times = []
    for _ in range(20):
        began = time.perf_counter()
        solution.review(playthrough)
        times.append(time.perf_counter() - began)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="situations sampled by the peer's exporter")
    parser.add_argument("--batch", type=int, default=1_000_000, help="situations in the timed batch")
    parser.add_argument("--games", type=int, default=20_000, help="games for rl.evaluate")
    args = parser.parse_args()
    solution = ds.solve("yahtzee")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "peer.jsonl"
        peer = json.loads(subprocess.run([str(peer_python()), "-c", PEER_SCRIPT, str(args.n), str(args.batch), str(out)],
                                         check=True, capture_output=True, text=True).stdout)
        rows = [json.loads(line) for line in out.read_text().splitlines()]
    every = [position(r) for r in rows]
    rows, texts = rows[:args.n], every[:args.n]
    worst = compare(rows, texts, solution)
    encoding = solution.encoding
    one_by_one = [{k: v[i: i + 1].copy() for k, v in encoding.parse_situations(texts).items()} for i in range(len(texts))]
    arrays = per_call(lambda s: solution.answer(s), one_by_one)
    text = per_call(lambda t: solution.answer(encoding.parse_situations([t])), texts)
    # a third of the texts for each measure, each text once (a card once read is remembered)
    thirds = [texts[i::3] for i in range(3)]
    advice = per_call(lambda t: ds.advise("yahtzee", t), thirds[0], repeat=1)
    advice_best = per_call(lambda t: ds.advise("yahtzee", t).best, thirds[1], repeat=1)
    advice_all = per_call(lambda t: ds.advise("yahtzee", t).options, thirds[2], repeat=1)
    whole = encoding.parse_situations(every)
    solution.answer(encoding.parse_situations(texts))
    batch = 0.0
    for _ in range(3):  # the best of three: a process's first touch of that much fresh memory is slow on a VM
        began = time.perf_counter()
        solution.answer(whole)
        batch = max(batch, len(whole["dice"]) / (time.perf_counter() - began))
    began = time.perf_counter()
    many = ds.advise_many("yahtzee", texts * 50)
    texts_per_s = len(many) / (time.perf_counter() - began)

    print(f"## Answers at the speed of a lookup ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, "
          f"{args.n:,} Yahtzee situations from the peer's exporter)\n")
    print(f"Every option's value agrees with yatzy-solver's to {worst:.1e} (counted from each situation's best).\n")
    print("| Yahtzee | dicesolver | yatzy-solver 1.0.0 | peer / ours |\n|---|---:|---:|---:|")
    print(f"| one situation as arrays (µs) | {arrays * 1e6:.1f} | {peer['single'] * 1e6:.1f} (notation) | "
          f"{peer['single'] / arrays:.2f} |")
    print(f"| one situation as position text (µs) | {text * 1e6:.1f} | {peer['single'] * 1e6:.1f} | "
          f"{peer['single'] / text:.2f} |")
    print(f"| `advise(game, text)`: an Advice in words, its options made when read (µs) | {advice * 1e6:.0f} | | |")
    print(f"| `advise(game, text).best` (µs) | {advice_best * 1e6:.0f} | | |")
    print(f"| `advise(game, text).options`: every option made (µs) | {advice_all * 1e6:.0f} | | |")
    print(f"| batch of {len(whole['dice']):,} ({len(set(every)):,} distinct) as arrays (situations/s) | {batch:,.0f} | "
          f"{peer['batch']:,.0f} | "
          f"{batch / peer['batch']:.2f} (ours / peer) |")
    print(f"| `advise_many` of {len(many):,} texts (situations/s) | {texts_per_s:,.0f} | | |")
    print()
    print("| `advise(game, text)`, the other families: 3,000 decisions met in random games, each once | µs |")
    print("|---|---:|")
    for name in ("pig", "skunk", "despirala"):
        ds.solve(name).warm_up()  # its kernels compiled, as after `dicesolver warmup` (not the numpy form)
        met = positions_met(name, 3_050)
        print(f"| {name} | {per_call(lambda t: ds.advise(name, t), met, repeat=1) * 1e6:.0f} |")
    print()
    print("| answer | measure |\n|---|---:|")
    print(f"| review of a recorded solitaire Yahtzee game | {review_seconds() * 1e3:.2f} ms |")
    import dicesolver.rl as rl

    rl.evaluate("optimal", "yahtzee", n=200)  # its kernels compiled (or loaded) before the timing
    rl.evaluate(rl.random_policy(), "yahtzee", n=200)
    best = rl.evaluate("optimal", "yahtzee", n=args.games)
    print(f"| `rl.evaluate` of the optimal policy, {args.games:,} Yahtzee games | {args.games / best.seconds:,.0f} games/s |")
    rand = rl.evaluate(rl.random_policy(), "yahtzee", n=args.games)
    print(f"| `rl.evaluate` of a random policy (and the optimal on the same dice) | {args.games / rand.seconds:,.0f} "
          f"games/s |")
    for spec in ("generala", "yacht", "crag"):
        rate = two_person(spec)
        if rate is not None:
            print(f"| two-person {spec} from the exact table on disk | {rate:,.0f} situations/s |")
        else:
            print(f"| two-person {spec} | table not in the cache |")


if __name__ == "__main__":
    sys.exit(main())
