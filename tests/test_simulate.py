import json

import numpy as np
import pytest
from test_cli import run
from tinygames import BONUS_GAME, PAIRS_GAME, SET_BONUS_GAME, tiny

from dicesolver import load_game
from dicesolver.analysis.simulate import simulate
from dicesolver.core.errors import InputError
from dicesolver.scorecard.bots.players import STRATEGIES, Player, make_player
from dicesolver.scorecard.game.position import Position, after_score, format_position, start_position
from dicesolver.scorecard.solitaire.policy_table import dice_stream
from dicesolver.scorecard.solitaire.table import TurnState, load_or_solve

Z_999 = 3.2905  # two-sided 99.9% normal quantile


@pytest.mark.parametrize("game_name,n", [("yacht-dice", 20_000), ("yahtzee", 20_000)])
def test_simulated_mean_agrees_with_exact_value(game_name, n):
    game = load_game(game_name)
    exact = load_or_solve(game)[0].root_value
    (run_,) = simulate(game, ["optimal"], n=n, seed=7)
    s = run_.summary
    assert abs(s.mean - exact) < Z_999 * s.stderr, (s.mean, exact, s.stderr)


@pytest.mark.parametrize("definition,choices", [(BONUS_GAME, {}), (SET_BONUS_GAME, {}),
                                                (SET_BONUS_GAME, {"times": "2", "upper": "off"})])
def test_tiny_game_with_joker_agrees_with_exact_value(definition, choices):
    game = tiny(definition, **choices)
    exact = load_or_solve(game)[0].root_value
    (run_,) = simulate(game, ["optimal"], n=200_000, seed=3)
    assert abs(run_.summary.mean - exact) < Z_999 * run_.summary.stderr


def test_optimal_beats_every_other_strategy():
    """Paired, game by game on the same dice: each strategy's games as the kernels play them (the simulation
    keeps only their counts)."""
    from dicesolver.scorecard.solitaire.policy_table import dice_stream
    from dicesolver.scorecard.bots.simulate import make_strategy

    game = load_game("yacht-dice")
    names = [p for p in STRATEGIES if p != "contender"]
    throws, rand = dice_stream(game, 11, 0, 1000)
    totals = {name: make_strategy(name, game, 11).play_many(throws, rand)[0] for name in names}  # closest: z = 10.7
    for name in names:
        if name != "optimal":
            diff = totals["optimal"] - totals[name]
            assert diff.mean() - Z_999 * diff.std(ddof=1) / np.sqrt(len(diff)) > 0, name


def test_the_counts_are_the_games_statistics_in_flat_memory():
    """The simulation's statistics from its counts, as numpy gives them on every game's score (the games
    streamed in chunks of a few, counted, dropped)."""
    from dicesolver.scorecard.bots import simulate as streaming
    from dicesolver.scorecard.solitaire.policy_table import dice_stream
    from dicesolver.scorecard.bots.simulate import make_strategy

    game = load_game("yacht")
    old_chunk, streaming.CHUNK = streaming.CHUNK, 97
    try:
        (run_,) = simulate(game, ["greedy"], n=1000, seed=4)
    finally:
        streaming.CHUNK = old_chunk
    totals, boxes, bonus, _ = make_strategy("greedy", game, 4).play_many(*dice_stream(game, 4, 0, 1000))
    s = run_.summary
    assert s.games == 1000 and s.mean == float(np.mean(totals)) and s.sd == pytest.approx(np.std(totals, ddof=1))
    assert s.percentiles == {str(p): float(np.percentile(totals, p, method="inverted_cdf")) for p in (5, 25, 50, 75, 95)}
    assert (s.min, s.max) == (totals.min(), totals.max())
    assert [c.mean for c in s.categories] == [float(np.mean(boxes[:, c])) for c in range(game.n_categories)]
    assert [c.scored_rate for c in s.categories] == [float(np.mean(boxes[:, c] > 0)) for c in range(game.n_categories)]
    assert run_.scores.counts.size < 400  # the counts of the scores met, not the games


def test_seed_002_agents_behave_as_described():
    game = load_game("yacht-dice")
    runs = {r.summary.player: r.summary for r in simulate(game, ["greedy", "ev", "bonus"], n=1000, seed=5)}
    assert runs["ev"].mean - runs["greedy"].mean > 8  # "roughly 15 points higher"
    assert runs["bonus"].bonus_rate > 0.8  # "achieves its goal roughly 90% of the time"


def test_reproducible_and_seed_dependent():
    game = load_game("yacht")
    a = simulate(game, ["greedy"], n=500, seed=1)[0].scores
    b = simulate(game, ["greedy"], n=500, seed=1)[0].scores
    c = simulate(game, ["greedy"], n=500, seed=2)[0].scores
    assert a == b and a != c


def replay(game, player, throws):
    """Play one game through the Python Player interface with pre-drawn dice; return the total."""
    from dicesolver.scorecard.game.position import after_roll, after_score, start_position

    position = start_position(game)
    rng = np.random.default_rng(0)
    for turn in range(game.n_categories):
        position = after_roll(position, tuple(int(d) for d in throws[turn, 0]))
        for s in range(1, game.rolls):
            keep = player.choose_keep(position, rng)
            thrown = tuple(int(d) for d in throws[turn, s, : game.n_dice - len(keep)])
            position = after_roll(position, keep + thrown)
        position = after_score(game, position, player.choose_category(position, rng))
    return position.total(game)


@pytest.mark.parametrize("name", ["optimal", "greedy", "ev", "whatever", "perfect"])
def test_python_players_make_the_kernel_decisions(name):
    game = load_game("yahtzee")
    player = make_player(name, game)
    assert isinstance(player, Player)
    throws, rand = dice_stream(game, 4, 0, 20)
    totals, _, _, _ = player.play_many(throws, rand)
    assert [replay(game, player, throws[i]) for i in range(20)] == list(totals)


def test_players_choose_legal_moves():
    game = load_game("yahtzee")
    rng = np.random.default_rng(0)
    for name in ["random", "semi-random", "optimal"]:
        player = make_player(name, game)
        position = Position((None,) * 13, (1, 1, 3, 4, 5), 2)
        keep = player.choose_keep(position, rng)
        assert all(keep.count(d) <= (1, 1, 3, 4, 5).count(d) for d in keep)
        final = Position((0,) * 4 + (None,) * 9, (5, 5, 5, 5, 5), 0)
        assert final.boxes[player.choose_category(final, rng)] is None


def test_unknown_player_and_bad_counts():
    with pytest.raises(InputError, match="unknown player"):
        simulate(load_game("yacht"), ["magician"], n=10)
    with pytest.raises(InputError):
        simulate(load_game("yacht"), ["greedy"], n=0)


def test_cli_simulate(capsys, tmp_path):
    code, out, _ = run(capsys, "simulate", "yacht", "-p", "greedy", "-p", "ev", "-n", "300", "--json",
                       "--plot", str(tmp_path / "h.png"))
    rows = json.loads(out)
    assert code == 0 and [r["player"] for r in rows] == ["greedy", "ev"]
    assert set(rows[0]["percentiles"]) == {"5", "25", "50", "75", "95"}
    assert (tmp_path / "h.png").stat().st_size > 10_000
    code, _, err = run(capsys, "simulate", "yacht", "-p", "magician")
    assert code == 2 and "unknown player" in err
    code, _, err = run(capsys, "simulate", "yacht", "--plot", str(tmp_path / "h.txt"), "-n", "10")
    assert code == 2 and ".png" in err


def test_the_policy_table_plays_the_games_of_the_deciding_player(monkeypatch):
    """The optimal player reading its decisions from the policy table plays every game as the kernel that
    recomputes them each turn, on the same dice: the stream written out, or drawn in the kernel."""
    from dicesolver.scorecard.bots import strategies as scorecard

    n = 2_000
    monkeypatch.setattr(scorecard, "POLICY_MIN_GAMES", n)  # the table plays batches this large
    monkeypatch.setattr(scorecard, "POLICY_BUILD_GAMES", n)  # and is built for them
    for game in (load_game("yahtzee"), tiny(BONUS_GAME), tiny(SET_BONUS_GAME)):
        player = make_player("optimal", game)
        throws, rand = dice_stream(game, 8, 0, n)
        from_table = player.play_many(throws, rand)
        for a, b in zip(player.policy().play(n, seed=8), from_table):
            assert np.array_equal(a, b)
        monkeypatch.setattr(scorecard, "POLICY_MIN_GAMES", 10**9)
        deciding = player.play_many(throws, rand)
        monkeypatch.setattr(scorecard, "POLICY_MIN_GAMES", n)
        for a, b in zip(from_table, deciding):
            assert np.array_equal(a, b)


@pytest.mark.parametrize("name,game", [("greedy", "yahtzee"), ("greedy", "tiny-bonus-free"), ("ev", "tiny-forced"),
                                       ("bonus", "tiny-pairs"), ("greedy", "tiny-set-bonus")])
def test_a_static_strategy_plays_the_same_games_from_its_stage_table(monkeypatch, name, game):
    """A static strategy (greedy, the Yacht Dice notebook's agents) reads its keep values from a table of every used set's
    in simulations of many games: the same games, on the same dice, as computing them at every turn; and no
    table where it would be too big."""
    from dicesolver.scorecard.bots import strategies

    games = {"yahtzee": lambda: load_game("yahtzee"), "tiny-bonus-free": lambda: tiny(BONUS_GAME, joker="free"),
             "tiny-forced": lambda: tiny(BONUS_GAME, order="forced"), "tiny-pairs": lambda: tiny(PAIRS_GAME),
             "tiny-set-bonus": lambda: tiny(SET_BONUS_GAME)}
    g = games[game]()
    n = 400
    throws, rand = dice_stream(g, 12, 0, n)
    monkeypatch.setattr(strategies, "STAGE_TABLE_MIN_GAMES", n)
    player = make_player(name, g)
    from_table = player.play_many(throws, rand)
    assert player.stage_table().shape[0] == 1 << g.n_categories
    monkeypatch.setattr(strategies, "STAGE_TABLE_MIN_GAMES", 10**9)
    for a, b in zip(from_table, player.play_many(throws, rand)):
        assert np.array_equal(a, b)
    monkeypatch.setattr(strategies, "STAGE_TABLE_MAX_BYTES", 0)
    monkeypatch.setattr(strategies, "STAGE_TABLE_MIN_GAMES", n)
    small = make_player(name, g)
    assert small.stage_table().shape[0] == 0
    for a, b in zip(from_table, small.play_many(throws, rand)):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("name,game,start", [("optimal", "yahtzee", (0, 0, 0, 0)), ("optimal", "yahtzee", (1 << 2, 9, 0, 9)),
                                             ("greedy", "tiny-bonus-free", (0, 0, 0, 0)),
                                             ("optimal", "tiny-forced", (0, 0, 0, 0))])
def test_the_memo_of_the_first_turns_plays_the_same_games(monkeypatch, name, game, start):
    """A strategy that works out its stages at every turn keeps its first turns' in a memo: the same games as
    with no memo, and as with a memo of three slots, whose states keep evicting one another."""
    from dicesolver.scorecard.bots import strategies

    games = {"yahtzee": lambda: load_game("yahtzee"), "tiny-bonus-free": lambda: tiny(BONUS_GAME, joker="free"),
             "tiny-forced": lambda: tiny(BONUS_GAME, order="forced")}
    g = games[game]()
    throws, rand = dice_stream(g, 5, 0, 600)
    monkeypatch.setattr(strategies, "STAGE_TABLE_MIN_GAMES", 10**9)  # a static strategy decides at every turn
    player = make_player(name, g)
    player.reads_policy = lambda n: False
    with_memo = player.play_many(throws, rand, start=start)
    for slots in (0, 3):
        monkeypatch.setattr(strategies, "MEMO_SLOTS", slots)
        for a, b in zip(with_memo, player.play_many(throws, rand, start=start)):
            assert np.array_equal(a, b)


def reached_by_hand(game, policy) -> set[int]:
    """The turn starts the optimal player can reach from the empty card, each final roll scored in the box
    the table says, by the protocol's own scoring (``after_score``): a reference for ``mark_reached``."""
    m = policy.model
    cat_shift = (game.rolls - 1) * policy.keep_bits
    seen: set[int] = set()
    todo = [start_position(game)]
    while todo:
        pos = todo.pop()
        if pos.is_over():
            continue
        state = m.index(TurnState(pos.used, pos.progress(game), pos.group(game)))
        if state in seen:
            continue
        seen.add(state)
        row = policy.rows[state]
        assert row >= 0, f"{format_position(game, pos)} is reached but has no decisions"
        for r, dice in enumerate(game.dice.rolls):
            box = int(policy.decisions[row, r]) >> cat_shift
            todo.append(after_score(game, Position(pos.boxes, dice, 0, pos.extra_bonus), box))
    return seen


@pytest.mark.parametrize("definition,choices", [(BONUS_GAME, {}), (BONUS_GAME, {"joker": "free"}),
                                                (BONUS_GAME, {"order": "forced"}), (PAIRS_GAME, {}),
                                                (SET_BONUS_GAME, {}), (SET_BONUS_GAME, {"times": "2"})])
def test_the_policy_table_holds_the_states_the_optimal_player_reaches(definition, choices):
    game = tiny(definition, **choices)
    policy = make_player("optimal", game).policy()
    assert set(np.flatnonzero(policy.rows >= 0).tolist()) == reached_by_hand(game, policy)
    used = policy.rows[policy.rows >= 0]
    assert set(used.tolist()) == set(range(len(policy.decisions)))  # every row is some state's
    assert len(np.unique(policy.decisions, axis=0)) == len(policy.decisions)  # and no row repeats another


def test_a_start_the_policy_table_does_not_hold_is_played_by_deciding(monkeypatch):
    """A start the optimal player never comes to (in the tiny bonus game, from the empty card) is not in the
    table: ``play`` refuses it, and the player's games from it are decided turn by turn, as without a table."""
    from dicesolver.scorecard.bots import strategies as scorecard

    game = tiny(BONUS_GAME)
    player = make_player("optimal", game)
    policy = player.policy()
    m = policy.model
    state = int(np.flatnonzero(policy.rows < 0)[0])
    used = int(np.searchsorted(m.offset, state, side="right") - 1)
    lanes = int(m.n_bonus_lanes[used])
    start = (used, (state - m.offset[used]) % lanes, (state - m.offset[used]) // lanes, 7)
    assert used != m.full and not policy.covers(start) and policy.covers((0, 0, 0, 0))
    with pytest.raises(ValueError, match="does not cover"):
        policy.play(10, start=start)
    n = 500
    throws, rand = dice_stream(game, 5, 0, n)
    monkeypatch.setattr(scorecard, "POLICY_MIN_GAMES", n)
    monkeypatch.setattr(scorecard, "POLICY_BUILD_GAMES", n)
    with_table = player.play_many(throws, rand, start=start)
    monkeypatch.setattr(scorecard, "POLICY_MIN_GAMES", 10**9)
    deciding = player.play_many(throws, rand, start=start)
    for a, b in zip(with_table, deciding):
        assert np.array_equal(a, b)
    assert (with_table[0] >= 7).all()


def test_the_dice_stream_is_the_same_however_it_is_cut():
    """A game's dice depend on the seed and its number only: chunks, threads and strategies see the same."""
    game = load_game("yahtzee")
    whole, rand = dice_stream(game, 3, 0, 1000)
    part, part_rand = dice_stream(game, 3, 400, 100)
    assert np.array_equal(whole[400:500], part) and np.array_equal(rand[400:500], part_rand)
    assert not np.array_equal(dice_stream(game, 4, 0, 1000)[0], whole)
    faces = np.bincount(whole.ravel(), minlength=7)[1:]
    expected = whole.size / 6
    assert ((faces - expected) ** 2 / expected).sum() < 20.5  # chi-square, 5 degrees of freedom, p = 0.001


def test_building_the_policy_table_says_so_with_its_size(fresh_cache):
    """A first large simulation tells what it waits for: the policy table, built once, and how big."""
    game = tiny(BONUS_GAME)
    stages: list[str] = []
    shares: list[tuple[int, int]] = []

    class Listener:
        def __call__(self, done: int, total: int) -> None:
            shares.append((done, total))

        def stage(self, what: str) -> None:
            stages.append(what)

    policy = make_player("optimal", game).policy(Listener())
    size = policy.model.size
    assert stages == [f"building its policy table, once ({size:,} states, "
                      f"{size * game.dice.n_rolls * policy.decisions.itemsize / 2**20:,.0f} MiB while it builds)"]
    assert shares and shares[-1][0] == shares[-1][1]
    stages.clear()
    make_player("optimal", game).policy(Listener())  # from the cache now: nothing to wait for
    assert stages == []


def test_a_first_run_on_a_fresh_install_decides_as_it_goes_rather_than_compile_the_policy_table(monkeypatch,
                                                                                               fresh_cache):
    """The policy table is worth building for 20,000 games once its kernels are compiled (seconds), but on a
    fresh install only from 250,000 (compiling them costs what 250,000 games deciding as they go do)."""
    from dicesolver.scorecard.solitaire import policy_table
    from dicesolver.scorecard.bots import strategies

    player = make_player("optimal", load_game("yacht"))
    monkeypatch.setattr(policy_table, "compiled", lambda kernel: True)  # the kernels compiled
    assert player.reads_policy(20_000) and not player.reads_policy(19_999)
    monkeypatch.setattr(policy_table, "compiled", lambda kernel: False)  # a fresh install
    assert not player.reads_policy(strategies.POLICY_BUILD_GAMES - 1)
    assert player.reads_policy(strategies.POLICY_BUILD_GAMES)
    player.policy()  # built (and cached) by a long run: from then on it is read
    assert player.reads_policy(20_000) and make_player("optimal", load_game("yacht")).reads_policy(20_000)
