"""The scorecard kernels before and after a change, side by side (a change to the kernels must keep every
built-in game's speed and table bits; BENCHMARKS.md, "One rules object in the kernels").

This machine's speed drifts by 10-40% between processes, so the code before (a git worktree of ``--base``)
and the working tree run in alternate processes, ``--rounds`` times each, each process with its own warm
kernel cache; every figure is the best of a few calls inside one process. Measured: the Yahtzee and Yatzy
solves (parallel kernel), ``ds.advise`` on Yatzy, ``ds.advise_many`` over 20,000 Yahtzee texts, Yahtzee's
exact distribution, 50,000 optimal and greedy Yahtzee games, three-player matches, judged steps of the vector
environment, Yacht's target table to 150; and the sha256 of the tables, which must not change.

Usage: ``python benchmarks/ab_kernels.py --base HEAD~1 [--rounds 2]``; prints Markdown.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from timing import best_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def best(call, n: int = 3) -> float:
    return best_of(call, n)


def measure() -> dict:
    """Every figure of one process, with the tables' hashes."""
    import numpy as np

    import dicesolver as ds
    from dicesolver.analysis.simulate import simulate
    from dicesolver.scorecard.solitaire.distribution import score_distribution
    from dicesolver.scorecard.solitaire.table import SolitaireModel, load_or_solve
    from dicesolver.scorecard.target import table as target

    figures, hashes = {}, {}
    for name in ("yahtzee", "yatzy"):
        model = SolitaireModel(ds.load_game(name))
        model.solve(parallel=True)  # compiled or loaded first
        figures[f"{name.title()} solve (s)"] = best(lambda: model.solve(parallel=True))
        hashes[name] = hashlib.sha256(model.solve(parallel=True).tobytes()).hexdigest()[:12]
    yahtzee = ds.solve("yahtzee")
    rng = np.random.default_rng(1)
    texts = []
    for _ in range(200):  # decisions met in random games
        state = yahtzee.game.start()
        while not state.is_terminal():
            steps = state.chance_outcomes() if state.is_chance() else [(a, 1) for a in state.legal_actions()]
            state = state.apply(steps[rng.integers(len(steps))][0])
            if not state.is_chance() and not state.is_terminal():
                texts.append(str(state))
    texts = (texts * 100)[:20_000]
    ds.advise_many(yahtzee.game, texts[:100])  # compiles the kernel that single answers use once it is found
    figures["`ds.advise_many`, 20,000 Yahtzee texts (a second)"] = 20_000 / best(
        lambda: ds.advise_many(yahtzee.game, texts), 7)
    yatzy = ds.solve("yatzy").game
    for _ in range(300):
        ds.advise(yatzy, "/13456/2")

    def advise_2000():
        for _ in range(2000):
            ds.advise(yatzy, "/13456/2")
    figures["`ds.advise(\"yatzy\", text)` (µs)"] = best(advise_2000) / 2000 * 1e6
    table = load_or_solve(yahtzee.game)[0]
    score_distribution(table)
    figures["Yahtzee's exact distribution (s)"] = best(lambda: score_distribution(table), 2)
    hashes["distribution"] = hashlib.sha256(score_distribution(table).probabilities.tobytes()).hexdigest()[:12]
    simulate(yahtzee.game, ["optimal", "greedy"], n=2000, seed=1)
    for player in ("optimal", "greedy"):
        figures[f"50,000 {player} Yahtzee games (s)"] = best(
            lambda: simulate(yahtzee.game, [player], n=50_000, seed=5), 5)
    from dicesolver.scorecard.batch.envs import ScorecardBatch
    from dicesolver.scorecard.match.play import play_match

    play_match(yahtzee.game, ["optimal", "greedy", "random"], n=300, seed=1)
    figures["3,000 three-player Yahtzee matches (s)"] = best(
        lambda: play_match(yahtzee.game, ["optimal", "greedy", "random"], n=3000, seed=2), 3)
    batch = ScorecardBatch(yahtzee.game, 4096, judge=True)
    choices = np.random.default_rng(3).random((64, 4096, batch.encoding.n_actions))

    def steps():
        batch.reset(seed=4)
        for k in range(64):
            batch.step(np.argmax(batch.mask * choices[k], axis=1))
    steps()
    figures["64 judged steps of 4,096 Yahtzee environments (s)"] = best(steps, 3)
    yacht = ds.load_game("yacht")
    target.build(yacht, 150)
    figures["Yacht's target table to 150 (s)"] = best(lambda: target.build(yacht, 150), 2)
    hashes["target"] = hashlib.sha256(np.asarray(target.build(yacht, 150).curve()).tobytes()).hexdigest()[:12]
    return {"figures": figures, "hashes": hashes}


def run(source: Path, cache: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(source / "src"), DICESOLVER_KERNEL_CACHE=str(cache))
    done = subprocess.run([sys.executable, __file__, "--measure"], env=env, capture_output=True, text=True,
                          check=True, cwd=tempfile.gettempdir())
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD~1", help="the commit to compare the working tree with")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure()))
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", str(base), args.base], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            runs = {"before": [], "after": []}
            for _ in range(args.rounds):  # alternate: the machine's drift falls on both alike
                runs["before"].append(run(base, Path(tmp) / "kernels-before"))
                runs["after"].append(run(ROOT, Path(tmp) / "kernels-after"))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)
    print(f"| workload | before ({args.base}) | after (working tree) |\n|---|---|---|")
    for name in runs["before"][0]["figures"]:
        cells = [", ".join(f"{r['figures'][name]:,.3f}" if r["figures"][name] < 1000 else
                           f"{r['figures'][name]:,.0f}" for r in runs[side]) for side in ("before", "after")]
        print(f"| {name} | {cells[0]} | {cells[1]} |")
    same = all(r["hashes"] == runs["before"][0]["hashes"] for side in runs.values() for r in side)
    print(f"| table hashes ({', '.join(runs['before'][0]['hashes'])}) | | {'identical' if same else 'DIFFERENT'} |")


if __name__ == "__main__":
    main()
