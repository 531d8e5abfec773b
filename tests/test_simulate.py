"""Simulation at scale: ``canasta.simulate`` and ``canasta simulate`` (issue 12, item 7).

The contract (canasta/_simulate.py): row ``i`` is the deal or game dealt with seed
``seed + i``, its bots seeded ``(seed + i) * 1000 + seat``; each row depends only on its own
seed, so the rows are identical whatever ``jobs`` and ``backend`` run them; a hand cap ends
games that never reach the target; the summary gives means with Student's t intervals and win
rates with Wilson intervals; bad input is a ``SimulationError`` naming it, and the command
exits 2 for a bad argument, 1 when a bot fails, without a traceback.
"""

from __future__ import annotations

import csv
import io
import json
import math
import sys
import textwrap
from pathlib import Path

import pytest

from canasta import GreedyBot, RandomBot, Simulation, SimulationError, SimulationRow, new_game, simulate
from canasta.cli import main
from canasta._simulate import mean_estimate, rate_estimate


def played_here(variant: str, seed: int, specs: list[type], players: int | None = None) -> SimulationRow:
    """One first deal played independently of simulate, through the bot protocol."""
    st = new_game(variant, players, seed=seed)
    bots = [specs[s % len(specs)](seed * 1000 + s) for s in range(st.players)]
    actions = 0
    while not st.is_hand_over:
        seat = st.current_player
        st = st.apply(bots[seat].choose(st.observation(seat), st.legal_actions()))
        actions += 1
    res = st.result
    scores = tuple(sc.total for sc in sorted(res.scores, key=lambda sc: sc.side))
    best = max(scores)
    winner = scores.index(best) if scores.count(best) == 1 else None
    ending = "stock exhausted" if res.went_out is None else ("went out concealed" if res.concealed else "went out")
    return SimulationRow(seed, scores, winner, actions, 1, ending)


def test_rows_are_the_deals_played_with_their_seeds() -> None:
    """Row i is deal ``seed + i`` played by bots seeded ``(seed + i) * 1000 + seat`` (mixed
    bots per seat), exactly as playing it here through the bot protocol gives."""
    sim = simulate("hoyle-1950", deals=3, seed=40, bots=["greedy", "random"] * 2)
    assert isinstance(sim, Simulation) and sim.mode == "deals" and sim.bots == ("greedy", "random") * 2
    assert list(sim.rows) == [played_here("hoyle-1950", 40 + i, [GreedyBot, RandomBot]) for i in range(3)]


def test_jobs_do_not_change_the_rows() -> None:
    """The same rows, in seed order, with one process and with two."""
    one = simulate("online", deals=6, players=2, seed=3, bots="greedy,random".split(","))
    two = simulate("online", deals=6, players=2, seed=3, bots="greedy,random".split(","), jobs=2)
    assert one.rows == two.rows
    assert [r.seed for r in two.rows] == list(range(3, 9))


def test_games_end_at_the_hand_cap() -> None:
    """new-canasta scores below zero for random bots, so their games never reach the target:
    the hand cap ends them, and the row names the leader as the winner."""
    sim = simulate("new-canasta", games=2, players=3, bots="random", max_hands=2, seed=1, jobs=2)
    for row in sim.rows:
        assert row.hands == 2 and row.ending == "hand cap"
        best = max(row.scores)
        assert row.winner == (row.scores.index(best) if row.scores.count(best) == 1 else None)
    assert sim.rows == simulate("new-canasta", games=2, players=3, bots="random", max_hands=2, seed=1).rows


def test_games_are_played_to_the_target() -> None:
    """Whole games: the totals reach the target (hoyle rule 61: 5,000 wins) and the winner is
    the engine's."""
    sim = simulate("hoyle-1950", games=2, seed=7)
    for row in sim.rows:
        assert row.ending == "game over" and max(row.scores) >= 5000 and row.hands > 1
        assert row.scores[row.winner] == max(row.scores)


def test_confidence_intervals() -> None:
    """Means: Student's t, mean +- t(0.975, n-1) s / sqrt(n); rates: Wilson's score interval."""
    e = mean_estimate([1, 2, 3, 4])
    half = 3.182 * math.sqrt(((1.5 ** 2) * 2 + (0.5 ** 2) * 2) / 3 / 4)
    assert e.mean == 2.5 and e.n == 4
    assert e.low == pytest.approx(2.5 - half) and e.high == pytest.approx(2.5 + half)
    big = mean_estimate([float(i % 7) for i in range(1000)])
    assert big.high - big.mean == pytest.approx(1.9623 * math.sqrt(
        sum((i % 7 - big.mean) ** 2 for i in range(1000)) / 999 / 1000), rel=1e-3)
    assert mean_estimate([5]).low is None
    w = rate_estimate(7, 10)  # Wilson (1927): 0.3968 to 0.8922
    assert w.mean == 0.7 and w.low == pytest.approx(0.3968, abs=1e-4) and w.high == pytest.approx(0.8922, abs=1e-4)
    assert rate_estimate(0, 5).low == 0.0


def test_summary_counts_the_rows() -> None:
    """The summary's counts and means are those of its rows."""
    sim = simulate("bicycle", deals=5, seed=2)
    s = sim.summary()
    assert s.n == 5 and sum(s.win_counts) + s.ties == 5 and sum(s.endings.values()) == 5
    for side in range(2):
        assert s.scores[side].mean == pytest.approx(sum(r.scores[side] for r in sim.rows) / 5)
        assert s.wins[side].mean == s.win_counts[side] / 5
    assert s.actions.mean == sum(r.actions for r in sim.rows) / 5


BOT_MODULE = """
import canasta

class FirstBot:
    '''Plays the first legal action.'''
    def __init__(self, seed):
        self.seed = seed
    def choose(self, observation, legal_actions):
        return legal_actions[0]

def make(seed):
    return FirstBot(seed)

def cheat(seed):
    return Cheater()

class Cheater:
    def choose(self, observation, legal_actions):
        return canasta.parse_action("discard JK")
"""


@pytest.fixture
def bot_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """An importable module of bots (``simbots``), in a temporary directory on sys.path."""
    (tmp_path / "simbots.py").write_text(textwrap.dedent(BOT_MODULE), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("simbots", None)
    return "simbots"


def test_importable_bots(bot_module: str) -> None:
    """``module:callable`` names a bot maker called with the seed (a class or a function)."""
    a = simulate("online", deals=2, players=2, bots=[f"{bot_module}:make", "greedy"])
    b = simulate("online", deals=2, players=2, bots=[f"{bot_module}:FirstBot", "greedy"], jobs=2)
    assert a.rows == b.rows
    assert a.bots == (f"{bot_module}:make", "greedy")


def test_bad_input_is_a_simulation_error(bot_module: str) -> None:
    """Each mistake is a SimulationError (a ValueError) that names it."""
    cases = [
        (dict(deals=1, bots="clever"), "unknown bot 'clever'"),
        (dict(deals=1, bots="nosuchmodule:x"), "cannot import module 'nosuchmodule'"),
        (dict(deals=1, bots=f"{bot_module}:missing"), "has no 'missing'"),
        (dict(deals=1, bots=["greedy"] * 3), "3 bots for 4 players"),
        (dict(deals=1, games=1), "either deals or games"),
        (dict(), "either deals or games"),
        (dict(deals=0), "deals must be at least 1"),
        (dict(deals=1, jobs=0), "jobs must be at least 1"),
        (dict(deals=1, backend="dask"), "backend must be 'local' or 'ray'"),
        (dict(deals=1, players=9), "players: .*9 players is not allowed"),
        (dict(deals=1, bots=f"{bot_module}:cheat"), "seed 0: hand 1: the bot of seat 0 .* failed: IllegalActionError"),
    ]
    for kwargs, message in cases:
        with pytest.raises(SimulationError, match=message):
            simulate("hoyle-1950", **kwargs)  # type: ignore[arg-type]
    assert issubclass(SimulationError, ValueError)


# ------------------------------------------------------------------ the command


def test_command_writes_csv_rows_and_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    """``--format csv``: a header and one row per deal on stdout, the statistics on stderr."""
    assert main(["simulate", "hoyle-1950", "--deals", "3", "--seed", "5", "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(out)))
    sim = simulate("hoyle-1950", deals=3, seed=5)
    assert [int(r["seed"]) for r in rows] == [5, 6, 7]
    for got, row in zip(rows, sim.rows):
        assert (int(got["score_0"]), int(got["score_1"])) == row.scores
        assert got["winner"] == ("" if row.winner is None else str(row.winner))
        assert int(got["actions"]) == row.actions and got["ending"] == row.ending
    assert "average hand score per side:" in err and "deals won per side" in err


def test_command_writes_jsonl_games_to_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--games N --format jsonl --output FILE --jobs 2``: one JSON object a game in the
    file, the statistics on stdout."""
    path = tmp_path / "rows.jsonl"
    assert main(["simulate", "bicycle", "--games", "2", "--format", "jsonl", "--output", str(path),
                 "--jobs", "2", "--bots", "random", "--max-hands", "2"]) == 0
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    sim = simulate("bicycle", games=2, bots="random", max_hands=2)
    assert lines == [r.as_dict() for r in sim.rows]
    out = capsys.readouterr().out
    assert "bicycle: 2 games" in out and "average hands per game: 2.0" in out


def test_command_exit_status(bot_module: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """2 for a bad argument, 1 when a bot fails during play or the output cannot be written;
    a message and no traceback either way."""
    assert main(["simulate", "hoyle-1950", "-n", "1", "--bots", "nosuchmodule:x"]) == 2
    err = capsys.readouterr().err
    assert "cannot import module 'nosuchmodule'" in err and "Traceback" not in err
    assert main(["simulate", "hoyle-1950", "-n", "1", "--bots", f"{bot_module}:cheat"]) == 1
    err = capsys.readouterr().err
    assert "seed 0: hand 1: the bot of seat 0" in err and "Traceback" not in err
    assert main(["simulate", "hoyle-1950", "-n", "1", "-f", "csv", "-o", str(tmp_path)]) == 1
    assert f"{tmp_path}: " in capsys.readouterr().err
    for args in (["-n", "1", "-g", "1"], ["-g", "0"], ["-n", "1", "-j", "0"], ["-n", "1", "--format", "xml"]):
        with pytest.raises(SystemExit) as exc:
            main(["simulate", "hoyle-1950", *args])
        assert exc.value.code == 2


def test_command_progress_is_plain_text_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    """``--progress`` when stderr is not a terminal: plain lines, never a bar's escape codes."""
    assert main(["simulate", "online", "-p", "2", "-g", "1", "--max-hands", "1", "--progress"]) == 0
    err = capsys.readouterr().err
    assert "simulating: 1/1 games (100%)" in err and "\x1b" not in err


# ------------------------------------------------------------------ Ray


@pytest.mark.slow
def test_ray_backend_gives_the_same_rows() -> None:
    """``backend="ray"`` on a local Ray instance: the rows of the local backend, in order."""
    pytest.importorskip("ray", reason='ray is not installed (pip install "canasta[ray]")')
    local = simulate("hoyle-1950", deals=6, seed=11, bots=["greedy", "random"] * 2)
    ray_sim = simulate("hoyle-1950", deals=6, seed=11, bots=["greedy", "random"] * 2, backend="ray", jobs=2)
    assert ray_sim.rows == local.rows


def test_a_failure_in_the_native_core_names_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: a ``simulate`` that fails in the native core (here its planner, a Python
    callback, raising for the deal of seed 3) names the failing seed, as the Python core's
    ``seed 3: hand 1: the bot of seat ...`` does, and is a ``SimulationError`` (the command's
    exit 1, no traceback), not a bare ``RuntimeError``."""
    import canasta._playout as playout
    from canasta import GameState
    from canasta._coreinfo import core_info

    if core_info().name != "native":
        pytest.skip("the native core is not built")
    real = playout._planner

    def failing(state: GameState) -> object:
        plan = real(state)

        def at(core: object, seat: int) -> object:
            if GameState(core).seed == 3:
                raise RuntimeError("planner broke")
            return plan(core, seat)

        return at

    monkeypatch.setattr(playout, "_planner", failing)
    with pytest.raises(SimulationError, match=r"^seed 3: .*RuntimeError: planner broke"):
        simulate("samba", deals=6, seed=0)
