"""Simulation at scale: many seeded deals or games between bots, in parallel, with statistics.

:func:`simulate` plays first deals (``deals=N``) or whole games (``games=N``); deal or game
``i`` is dealt with seed ``seed + i`` and its bots are seeded from that seed, so each row
depends only on its own seed: the rows are the same whatever ``jobs`` and ``backend`` run
them, and in the same order. ``jobs=N`` runs them in ``N`` local processes;
``backend="ray"`` runs them as Ray tasks, on a cluster or a local Ray instance.
"""

from __future__ import annotations

import csv
import importlib
import io
import json
import math
import multiprocessing
import numbers
import sys
from typing import IO, Any, Callable, Optional, Sequence, Union

from attrs import frozen

from . import _playout
from ._bots import Bot, GreedyBot, RandomBot, _ask
from ._search import SearchBot
from ._state import GameState
from ._variant import Variant

__all__ = ["Estimate", "Simulation", "SimulationError", "SimulationRow", "SimulationSummary", "simulate"]

BotSpec = Union[str, Callable[[int], Any]]
"""A bot for :func:`simulate`: a built-in name, ``"module:callable"``, or a callable; each
is called with a seed and returns a bot (see :class:`Bot`)."""

ISMCTS_ITERATIONS = 100
"""The budget of the built-in ``ismcts`` bot of :func:`simulate`: descents a decision (a count,
not a time limit, so that every row is the same on any machine and under any load)."""


def ismcts_bot(seed: int) -> Bot:
    """The built-in ``ismcts`` bot of :func:`simulate`: an :class:`ISMCTSBot` with
    :data:`ISMCTS_ITERATIONS` descents a decision and no time limit."""
    from ._ismcts import ISMCTSBot

    return ISMCTSBot(seed, time_limit=None, iterations=ISMCTS_ITERATIONS)


BUILTIN_BOTS: dict[str, Callable[[int], Bot]] = {"greedy": GreedyBot, "random": RandomBot, "search": SearchBot,
                                                 "ismcts": ismcts_bot}
"""The bots known by name, the same names in every command of the ``canasta`` program:
``greedy`` (:class:`GreedyBot`), ``random`` (:class:`RandomBot`), ``search``
(:class:`SearchBot` with its default budget) and ``ismcts`` (:class:`ISMCTSBot` with
:data:`ISMCTS_ITERATIONS` descents a decision)."""

MAX_ACTIONS_PER_HAND = 20000
"""A hand that has not ended after this many actions stops the simulation (a bot that never
ends its turn)."""

ENDINGS = ("went out", "went out concealed", "stock exhausted")
"""How a deal can end (:attr:`SimulationRow.ending` of a deal)."""
GAME_ENDINGS = ("game over", "hand cap")
"""How a game can end: a side reached the target, or ``max_hands`` were played first."""


class SimulationError(ValueError):
    """Bad input to :func:`simulate` (the message names it), or a bot that failed during play
    (the message names the seed)."""


@frozen(slots=True)
class Estimate:
    """A mean with its 95% confidence interval (``low`` and ``high`` are None below two samples)."""

    mean: float
    """The sample mean (for a rate: the share, from 0 to 1)."""
    low: Optional[float]
    """The lower end of the 95% confidence interval."""
    high: Optional[float]
    """The upper end of the 95% confidence interval."""
    n: int
    """The number of samples."""

    def __str__(self) -> str:
        if self.low is None or self.high is None:
            return f"{self.mean:.1f}"
        return f"{self.mean:.1f} ({self.low:.1f} to {self.high:.1f})"

    @classmethod
    def of_mean(cls, values: Sequence[float]) -> Estimate:
        """The mean of ``values`` with Student's t 95% interval."""
        return mean_estimate(values)

    @classmethod
    def of_rate(cls, hits: int, n: int) -> Estimate:
        """The share ``hits / n`` with Wilson's 95% score interval (0 to 1)."""
        return rate_estimate(hits, n)


@frozen(slots=True)
class SimulationRow:
    """One deal or game of a simulation."""

    seed: int
    """The seed it was dealt with (the bots were seeded from it)."""
    scores: tuple[int, ...]
    """Per side: the hand's score (a deal) or the final totals (a game)."""
    winner: Optional[int]
    """The side with the highest score, None when sides tie for it (a game stopped at the hand
    cap counts its leader)."""
    actions: int
    """Actions played."""
    hands: int
    """Hands played (1 for a deal)."""
    ending: str
    """A deal: how its hand ended (:data:`ENDINGS`); a game: ``"game over"`` or ``"hand cap"``."""

    def as_dict(self) -> dict[str, Any]:
        """The row as plain JSON values (the JSON Lines form)."""
        return {"seed": self.seed, "scores": list(self.scores), "winner": self.winner,
                "actions": self.actions, "hands": self.hands, "ending": self.ending}


def _t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom."""
    table = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
             2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
             2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
    if df <= len(table):
        return table[df - 1]
    z = 1.959964
    # Cornish-Fisher expansion (accurate to 1e-3 beyond 30 degrees of freedom)
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def mean_estimate(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` with Student's t 95% interval."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, None, None, 0)
    mean = sum(values) / n
    if n < 2:
        return Estimate(mean, None, None, n)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = _t95(n - 1) * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


def rate_estimate(hits: int, n: int) -> Estimate:
    """The share ``hits / n`` with Wilson's 95% score interval."""
    if n == 0:
        return Estimate(0.0, None, None, 0)
    z = 1.959964
    p = hits / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


@frozen(slots=True)
class SimulationSummary:
    """Statistics of a simulation's rows, with 95% confidence intervals."""

    n: int
    """Rows (deals or games)."""
    actions: Estimate
    """Actions per deal or game."""
    hands: Estimate
    """Hands per row (1 for deals)."""
    scores: tuple[Estimate, ...]
    """Per side: the mean score (hand score of a deal, final total of a game)."""
    wins: tuple[Estimate, ...]
    """Per side: the share of rows it won (Wilson interval)."""
    win_counts: tuple[int, ...]
    """Per side: rows won."""
    ties: int
    """Rows no single side won."""
    endings: dict[str, int]
    """How the rows ended: counts per :data:`ENDINGS` (deals) or :data:`GAME_ENDINGS` (games)."""


@frozen(slots=True)
class Simulation:
    """What :func:`simulate` returns: the rows in seed order, and what was played."""

    variant: str
    """The variant's name."""
    players: int
    """Seats at the table."""
    mode: str
    """``"deals"`` (first deals) or ``"games"`` (whole games)."""
    seed: int
    """The first seed: row ``i`` has seed ``seed + i``."""
    bots: tuple[str, ...]
    """The bot of each seat, as named."""
    side_of: tuple[int, ...]
    """Each seat's side."""
    rows: tuple[SimulationRow, ...]
    """One row per deal or game, in seed order."""

    @property
    def sides(self) -> int:
        """Number of sides."""
        return max(self.side_of) + 1

    def summary(self) -> SimulationSummary:
        """Means and win rates with 95% confidence intervals."""
        rows = self.rows
        n = len(rows)
        sides = self.sides
        wins = [0] * sides
        ties = 0
        kinds = ENDINGS if self.mode == "deals" else GAME_ENDINGS
        endings = {k: 0 for k in kinds}
        for r in rows:
            if r.winner is None:
                ties += 1
            else:
                wins[r.winner] += 1
            endings[r.ending] = endings.get(r.ending, 0) + 1
        return SimulationSummary(
            n=n, actions=mean_estimate([r.actions for r in rows]), hands=mean_estimate([r.hands for r in rows]),
            scores=tuple(mean_estimate([r.scores[s] for r in rows]) for s in range(sides)),
            wins=tuple(rate_estimate(w, n) for w in wins), win_counts=tuple(wins), ties=ties, endings=endings)

    def write(self, stream: IO[str], format: str = "jsonl") -> None:
        """Write the rows to ``stream``: ``"jsonl"`` (one JSON object a line, as
        :meth:`SimulationRow.as_dict`) or ``"csv"`` (a header, then ``seed, winner, actions,
        hands, ending, score_0, score_1, ...``; an empty winner is a tie).

        Raises ``ValueError`` for another format.
        """
        if format == "jsonl":
            for r in self.rows:
                stream.write(json.dumps(r.as_dict()) + "\n")
        elif format == "csv":
            w = csv.writer(stream, lineterminator="\n")
            w.writerow(["seed", "winner", "actions", "hands", "ending"]
                       + [f"score_{s}" for s in range(self.sides)])
            for r in self.rows:
                w.writerow([r.seed, "" if r.winner is None else r.winner, r.actions, r.hands, r.ending,
                            *r.scores])
        else:
            raise ValueError(f"format must be 'jsonl' or 'csv', not {format!r}")

    def text(self, format: str = "jsonl") -> str:
        """The rows as :meth:`write` writes them, as a string."""
        buf = io.StringIO()
        self.write(buf, format)
        return buf.getvalue()


# ------------------------------------------------------------------ bots by name


def bot_factory(spec: BotSpec) -> Callable[[int], Any]:
    """The bot maker a spec names: a built-in name (:data:`BUILTIN_BOTS`), ``"module:callable"``
    (imported; ``callable`` may be dotted, ``pkg.mod:Class.make``), or a callable itself.

    Raises :class:`SimulationError` naming the spec when it names nothing callable.
    """
    if callable(spec):
        return spec
    if not isinstance(spec, str):
        raise SimulationError(f"bots: expected a bot name, 'module:callable' or a callable, not {spec!r}")
    text = spec.strip()
    builtin = BUILTIN_BOTS.get(text.lower())
    if builtin is not None:
        return builtin
    if ":" not in text:
        raise SimulationError(f"unknown bot {text!r}: choose from {', '.join(BUILTIN_BOTS)}, "
                              "or give an importable 'module:callable'")
    module_name, _, attr = text.partition(":")
    if not module_name or not attr:
        raise SimulationError(f"bot {text!r}: write it as 'module:callable'")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as e:
        raise SimulationError(f"bot {text!r}: cannot import module {module_name!r} ({e})") from None
    except Exception as e:  # noqa: BLE001 - the user's module failed while loading
        raise SimulationError(f"bot {text!r}: importing {module_name!r} failed: {type(e).__name__}: {e}") from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise SimulationError(f"bot {text!r}: module {module_name!r} has no {attr!r}") from None
    if not callable(obj):
        raise SimulationError(f"bot {text!r}: {attr!r} is not callable (give a class or a function "
                              "that takes a seed and returns a bot)")
    return obj


def bot_name(spec: BotSpec) -> str:
    """How a bot spec is shown: its name, or the callable's qualified name."""
    if isinstance(spec, str):
        text = spec.strip()
        return text.lower() if text.lower() in BUILTIN_BOTS else text
    module = getattr(spec, "__module__", None)
    name = getattr(spec, "__qualname__", None) or repr(spec)
    return f"{module}:{name}" if module else name


def _bots_for(specs: Sequence[BotSpec], players: int) -> list[BotSpec]:
    """One spec per seat: a single spec plays every seat."""
    out = list(specs)
    if not out:
        raise SimulationError("bots: give at least one bot")
    if len(out) == 1:
        out = out * players
    if len(out) != players:
        raise SimulationError(f"bots: {len(out)} bots for {players} players: give one, or one per seat")
    return out


# ------------------------------------------------------------------ playing


@frozen(slots=True)
class _Job:
    """What every chunk of a simulation shares (picklable, for processes and Ray)."""

    variant: Variant
    players: int
    specs: tuple[BotSpec, ...]
    games: bool
    max_hands: int
    max_actions: int


def _scores(st: GameState) -> tuple[int, ...]:
    """Each side's score of the hand just ended (read from the core: no HandResult built)."""
    res = st._c.result
    assert res is not None
    return tuple(sum(row[2] for row in side) for side in res.scores)


def _leader(scores: Sequence[int]) -> Optional[int]:
    best = max(scores)
    top = [s for s, v in enumerate(scores) if v == best]
    return top[0] if len(top) == 1 else None


def _play_hand(st: GameState, bots: list[Any], seed: int, max_actions: int) -> tuple[GameState, int]:
    count = 0
    while not st.is_hand_over:
        seat = st.current_player
        assert seat is not None
        bot = bots[seat]
        try:
            action = _ask(bot, st)
            st = st.apply(action)
        except Exception as e:  # noqa: BLE001 - the bot's failure, reported with its seed
            raise SimulationError(f"seed {seed}: hand {st.hand_number + 1}: the bot of seat {seat} "
                                  f"({bot!r}) failed: {type(e).__name__}: {e}") from None
        count += 1
        if count > max_actions:
            raise SimulationError(f"seed {seed}: hand {st.hand_number + 1} has not ended after "
                                  f"{max_actions} actions")
    return st, count


def _native_hand(st: GameState, native_bots: Any, seed: int, max_actions: int) -> tuple[GameState, int]:
    """``_play_hand`` in the native core (built-in bots only): the same game, the same errors."""
    try:
        st, count = _playout.play(st, native_bots, max_actions + 1)
    except Exception as e:  # noqa: BLE001 - reported with its seed, as _play_hand reports a bot's failure
        raise SimulationError(f"seed {seed}: hand {st.hand_number + 1}: the built-in bots failed in the "
                              f"native core: {type(e).__name__}: {e}") from None
    if not st.is_hand_over:
        raise SimulationError(f"seed {seed}: hand {st.hand_number + 1} has not ended after {max_actions} actions")
    return st, count


def _play_one(job: _Job, factories: list[Callable[[int], Any]], seed: int) -> SimulationRow:
    from ._newgame import new_game

    st = new_game(job.variant, job.players, seed=seed)
    found = [_playout.builtin_kind(spec) for spec in job.specs]
    kinds = [k for k in found if k is not None]
    if _playout.available(st) and len(kinds) == len(found):
        # every bot built in: whole hands in the native core, each bot seeded as below
        native = _playout.bots(kinds, [seed * 1000 + s for s in range(len(kinds))], range(len(kinds)))
        return _row(job, st, seed, lambda state: _native_hand(state, native, seed, job.max_actions))
    bots = []
    for s, make in enumerate(factories):
        try:
            bot = make(seed * 1000 + s)
        except Exception as e:  # noqa: BLE001 - the user's factory failed
            raise SimulationError(f"seed {seed}: making the bot of seat {s} ({bot_name(job.specs[s])}) "
                                  f"failed: {type(e).__name__}: {e}") from None
        if not callable(getattr(bot, "choose", None)):
            raise SimulationError(f"bot {bot_name(job.specs[s])!r} made {bot!r}, which has no "
                                  "choose(observation, legal_actions) method")
        bots.append(bot)
    return _row(job, st, seed, lambda state: _play_hand(state, bots, seed, job.max_actions))


def _row(job: _Job, st: GameState, seed: int, play: Callable[[GameState], tuple[GameState, int]]) -> SimulationRow:
    """The row of the deal or game begun at ``st``, each hand played by ``play``."""
    st, actions = play(st)
    if not job.games:
        res = st._c.result
        assert res is not None
        scores = _scores(st)
        ending = "stock exhausted" if res.went_out < 0 else ("went out concealed" if res.concealed else "went out")
        return SimulationRow(seed, scores, _leader(scores), actions, 1, ending)
    hands = 1
    while not st.is_game_over and hands < job.max_hands:
        st = st.next_hand()
        st, count = play(st)
        actions += count
        hands += 1
    totals = st.totals
    if st.is_game_over:
        winner = st.winners[0] if len(st.winners) == 1 else None
        return SimulationRow(seed, totals, winner, actions, hands, "game over")
    return SimulationRow(seed, totals, _leader(totals), actions, hands, "hand cap")


def _run_chunk(job: _Job, first: int, count: int) -> list[SimulationRow]:
    """Rows for seeds ``first`` to ``first + count - 1`` (a worker's task)."""
    native = _native_chunk(job, first, count)
    if native is not None:
        return native
    factories = [bot_factory(spec) for spec in job.specs]
    return [_play_one(job, factories, first + i) for i in range(count)]


def _native_chunk(job: _Job, first: int, count: int) -> Optional[list[SimulationRow]]:
    """The rows played whole in the native core (every bot built in, the table native, the
    seeds in range), or None. The same rows as :func:`_play_one`'s, deal for deal."""
    kinds = [_playout.builtin_kind(spec) for spec in job.specs]
    if any(k is None for k in kinds) or not -(1 << 53) < first < first + count < (1 << 53):
        return None
    from ._core import native_rules, rules_for

    R = rules_for(job.variant, job.players)
    n = native_rules(R)
    if n is None:
        return None
    from ._newgame import new_game

    planner = _playout._planner(new_game(job.variant, job.players, seed=first))
    ext = _backend_ext()
    try:
        rows = ext.simulate(n, R, first, count, tuple(kinds), job.games, job.max_hands, job.max_actions, planner)
    except Exception as e:  # noqa: BLE001 - the native core names no seed: find the one that fails
        failing = first
        for seed in range(first, first + count):
            try:
                ext.simulate(n, R, seed, 1, tuple(kinds), job.games, job.max_hands, job.max_actions, planner)
            except Exception:  # noqa: BLE001
                failing = seed
                break
        raise SimulationError(f"seed {failing}: the built-in bots failed in the native core: "
                              f"{type(e).__name__}: {e}") from None
    out = []
    for i, row in enumerate(rows):
        if len(row) == 2:  # (seed, hand): a hand that did not end
            raise SimulationError(f"seed {row[0]}: hand {row[1]} has not ended after {job.max_actions} actions")
        scores, leader, actions, hands, ending = row
        out.append(SimulationRow(first + i, scores, leader, actions, hands, ending))
    return out


def _backend_ext() -> Any:
    from ._core import _backend

    return _backend._ext


def _run_indexed(task: tuple[int, _Job, int, int]) -> tuple[int, list[SimulationRow]]:
    index, job, first, count = task
    return index, _run_chunk(job, first, count)


def _chunks(n: int, seed: int, workers: int) -> list[tuple[int, int]]:
    """(first seed, count) of each task: small enough to balance the workers and to show
    progress, large enough to keep the overhead low."""
    size = max(1, min(32, n // (workers * 8) if workers > 1 else 32))
    return [(seed + i, min(size, n - i)) for i in range(0, n, size)]


Progress = Callable[[int, int], Any]


def simulate(variant: Union[Variant, str], deals: Optional[int] = None, games: Optional[int] = None, *,
             players: Optional[int] = None, bots: Union[BotSpec, Sequence[BotSpec]] = "greedy",
             seed: int = 0, jobs: int = 1, backend: str = "local", max_hands: int = 200,
             progress: Optional[Progress] = None, ray_address: Optional[str] = None) -> Simulation:
    """Play ``deals`` first deals or ``games`` whole games between bots; one row each.

    ``variant``: a :class:`Variant` or a name/path for :func:`load_variant`; ``players``
    defaults to its usual table. Give exactly one of ``deals`` and ``games``. Row ``i`` is
    dealt with seed ``seed + i`` and seat ``s``'s bot is made with seed
    ``(seed + i) * 1000 + s``, so every row depends only on its own seed.

    ``bots``: one spec, or one per seat; a spec is a built-in name (``"greedy"``,
    ``"random"``, ``"search"``, ``"ismcts"``: :data:`BUILTIN_BOTS`), an importable ``"module:callable"``, or a callable; the
    callable is called with the bot's seed and returns a bot (see :class:`Bot`). With
    ``jobs`` above 1 or ``backend="ray"`` a callable must be importable by the workers (a
    module-level class or function).

    A game ends when a side reaches the target or after ``max_hands`` hands (so that bots
    that score below zero, random ones in a variant with penalties, still finish; the row's
    ending is then ``"hand cap"`` and its winner the leader). A hand still going after
    :data:`MAX_ACTIONS_PER_HAND` actions stops the simulation.

    ``jobs``: local worker processes (1: in this process). ``backend="ray"`` runs the rows
    as Ray tasks (``pip install "canasta[ray]"``): on the cluster at ``ray_address``, on the
    Ray instance already started in this process, or on a local instance started (and shut
    down) for the call. The rows are the same, in seed order, whatever the jobs and backend.
    ``progress(done, total)`` is called as rows are finished.

    Raises :class:`SimulationError` (a ``ValueError``) naming the input at fault: a count
    below 1 or both or neither given, an unknown bot, a wrong number of bots, a backend
    that is not available, or a bot that fails during play (naming the seed).
    """
    from ._newgame import new_game
    from ._variant import VariantError
    from ._variant_load import load_variant

    if (deals is None) == (games is None):
        raise SimulationError("give either deals or games (how many to play), not both or neither")
    n = deals if deals is not None else games
    assert n is not None
    what = "deals" if deals is not None else "games"
    if not isinstance(n, int) or n < 1:
        raise SimulationError(f"{what} must be at least 1, not {n!r}")
    if not isinstance(jobs, int) or jobs < 1:
        raise SimulationError(f"jobs must be at least 1, not {jobs!r}")
    if not isinstance(max_hands, int) or max_hands < 1:
        raise SimulationError(f"max_hands must be at least 1, not {max_hands!r}")
    if backend not in ("local", "ray"):
        raise SimulationError(f"backend must be 'local' or 'ray', not {backend!r}")
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise SimulationError(f"seed must be an integer, not {seed!r}")
    seed = int(seed)
    if isinstance(variant, str):
        try:
            variant = load_variant(variant)
        except VariantError as e:
            raise SimulationError(f"variant: {e}") from None
    elif not isinstance(variant, Variant):
        raise SimulationError(f"variant must be a Variant or a variant's name or file, not {variant!r}")
    if players is None:
        players = variant.default_players
    if isinstance(players, bool) or not isinstance(players, int):
        raise SimulationError(f"players must be an integer, not {players!r}")
    try:
        variant.table(players)
    except VariantError as e:
        raise SimulationError(f"players: {e}") from None
    if not (isinstance(bots, str) or callable(bots)) and (isinstance(bots, bytes) or not hasattr(bots, "__iter__")):
        raise SimulationError(f"bots must be a bot's name, 'module:callable', a callable, or one of these per "
                              f"seat, not {bots!r}")
    specs = _bots_for([bots] if isinstance(bots, str) or callable(bots) else list(bots), players)
    for spec in specs:
        bot_factory(spec)  # fail here, not in a worker
    st = new_game(variant, players, seed=seed)
    job = _Job(variant, players, tuple(specs), what == "games", max_hands, MAX_ACTIONS_PER_HAND)
    if backend == "ray":
        rows = _run_ray(job, n, seed, jobs, progress, ray_address)
    elif jobs == 1:
        rows = []
        for first, count in _chunks(n, seed, 1):
            rows.extend(_run_chunk(job, first, count))
            if progress is not None:
                progress(len(rows), n)
    else:
        rows = _run_processes(job, n, seed, jobs, progress)
    return Simulation(variant=variant.name, players=players, mode=what, seed=seed,
                      bots=tuple(bot_name(s) for s in specs),
                      side_of=tuple(st.side_of(s) for s in range(players)), rows=tuple(rows))


def _run_processes(job: _Job, n: int, seed: int, jobs: int, progress: Optional[Progress]) -> list[SimulationRow]:
    tasks = [(i, job, first, count) for i, (first, count) in enumerate(_chunks(n, seed, jobs))]
    methods = multiprocessing.get_all_start_methods()
    # fork: the workers start at once with the package loaded (the parent has no threads yet)
    ctx = multiprocessing.get_context("fork" if "fork" in methods and sys.platform != "darwin" else "spawn")
    results: list[Optional[list[SimulationRow]]] = [None] * len(tasks)
    done = 0
    with ctx.Pool(min(jobs, len(tasks))) as pool:
        for index, rows in pool.imap_unordered(_run_indexed, tasks):
            results[index] = rows
            done += len(rows)
            if progress is not None:
                progress(done, n)
    return [row for chunk in results if chunk is not None for row in chunk]


def _run_ray(job: _Job, n: int, seed: int, jobs: int, progress: Optional[Progress],
             address: Optional[str]) -> list[SimulationRow]:
    try:
        import ray
    except ImportError:
        raise SimulationError('backend: "ray" needs the ray package: pip install "canasta[ray]"') from None
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:  # a local instance with one CPU per job
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        workers = max(jobs, int(ray.cluster_resources().get("CPU", jobs)))
        remote = ray.remote(num_cpus=1)(_run_chunk)
        refs = {remote.remote(job, first, count): i for i, (first, count) in enumerate(_chunks(n, seed, workers))}
        results: list[Optional[list[SimulationRow]]] = [None] * len(refs)
        pending = list(refs)
        done = 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                try:
                    rows = ray.get(ref)
                except Exception as e:  # a task's error arrives wrapped: report the cause
                    cause = getattr(e, "cause", None)
                    if isinstance(cause, SimulationError):
                        raise SimulationError(str(cause)) from None
                    raise
                results[refs[ref]] = rows
                done += len(rows)
                if progress is not None:
                    progress(done, n)
    finally:
        if started:
            ray.shutdown()
    return [row for chunk in results if chunk is not None for row in chunk]
