"""``canasta simulate``: bots play many deals or games; rows and statistics."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from .._simulate import BUILTIN_BOTS, Estimate, Simulation, SimulationError, _bots_for, bot_factory, simulate
from .._newgame import new_game
from .._variant import Variant, VariantError
from .common import (BAD_INPUT, DEFAULT_MAX_HANDS, MAX_COUNT, MAX_JOBS, USAGE, add_players_seed, add_variant_arg,
                     int_in, isatty, load, plural, side_name)


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """The command's arguments."""
    simulate = sub.add_parser(
        "simulate", help="bots play many deals or games; rows and statistics",
        description="Bots play N first deals (--deals) or N whole games (--games); deal or game i "
                    "is dealt with seed S+i and its bots are seeded from that seed, so every row "
                    "is the same whatever --jobs and --backend. --format text (the default) prints "
                    "statistics: actions, how the deals or games ended, the mean score of each "
                    "side and how often each side won, with 95% confidence intervals. --format "
                    "jsonl or csv prints one row per deal or game (seed, winner, actions, hands, "
                    "ending, each side's score) on stdout, or in --output FILE, and the "
                    "statistics on stderr (on stdout with --output). Exit status: 0 done, 1 a "
                    "bot failed or the output could not be written, 2 a bad argument.",
    )
    add_variant_arg(simulate, default=None)
    count = simulate.add_mutually_exclusive_group(required=True)
    count.add_argument("--deals", "-n", type=int_in(1, MAX_COUNT), metavar="N", help="play N first deals")
    count.add_argument("--games", "-g", type=int_in(1, MAX_COUNT), metavar="N",
                       help="play N whole games (each until a side wins, at most --max-hands hands)")
    add_players_seed(simulate, "seed of the first deal or game; row i uses S+i (default: 0)")
    simulate.add_argument("--bots", "-b", default="greedy", metavar="LIST",
                          help="bot per seat, comma separated: " + ", ".join(BUILTIN_BOTS) + " (ismcts: a budget of descents, not a time limit, so that every row is the same anywhere)"
                               + ", or an importable module:callable (called with a seed, it returns a "
                                 "bot); one plays every seat (default: greedy)")
    simulate.add_argument("--jobs", "-j", type=int_in(1, MAX_JOBS), default=1, metavar="J",
                          help="worker processes (default: 1, this process)")
    simulate.add_argument("--backend", choices=("local", "ray"), default="local",
                          help="local processes, or Ray tasks (pip install \"canasta[ray]\"; a local "
                               "Ray instance with J CPUs unless --ray-address is given) (default: local)")
    simulate.add_argument("--ray-address", default=None, metavar="ADDR",
                          help="the Ray cluster to run on (default: start a local instance)")
    simulate.add_argument("--format", "-f", choices=("text", "jsonl", "csv"), default="text",
                          help="text statistics, or one row per deal or game as JSON Lines or CSV "
                               "(default: text)")
    simulate.add_argument("--output", "-o", default=None, metavar="FILE",
                          help="write the rows (or the text statistics) to FILE")
    simulate.add_argument("--max-hands", type=int_in(1, MAX_COUNT), default=DEFAULT_MAX_HANDS, metavar="H",
                          help=f"--games: stop a game after H hands if nobody has won, the leader "
                               f"winning (default: {DEFAULT_MAX_HANDS})")
    simulate.add_argument("--progress", action="store_true",
                          help="show progress on stderr even when it is not a terminal")
    simulate.set_defaults(func=run)


class _Progress:
    """Progress on stderr: a plain-text line (rewritten in place on a terminal, else every 10%)."""

    def __init__(self, total: int, stream: TextIO, enabled: bool, what: str = "deals") -> None:
        self.total = total
        self.stream = stream
        self.enabled = enabled
        self.what = what
        self.tty = enabled and isatty(stream)
        self.shown = -1

    def __enter__(self) -> _Progress:
        self.update(0, self.total)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.tty and self.shown >= 0 and exc[0] is not None:
            self.stream.write("\n")

    def update(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        pct = 100 * done // total
        line = f"simulating: {done}/{total} {self.what} ({pct}%)"
        if self.tty:
            self.stream.write("\r" + line)
            if done == total:
                self.stream.write("\n")
            self.stream.flush()
            self.shown = pct
        elif pct // 10 > self.shown or done == total:
            self.shown = pct // 10
            print(line, file=self.stream, flush=True)


class _RichProgress:
    """A rich progress bar on stderr (the ``cli`` extra), on a terminal."""

    def __init__(self, total: int, stream: TextIO, what: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(TextColumn(f"simulating {what}"), BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), console=Console(file=stream), transient=False)
        self.task = self.bar.add_task("simulate", total=total)

    def __enter__(self) -> _RichProgress:
        self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.stop()

    def update(self, done: int, total: int) -> None:
        self.bar.update(self.task, completed=done, total=total)


def _progress_for(total: int, what: str, forced: bool) -> Any:
    """rich's bar on a terminal when rich is installed; plain text otherwise (on a terminal,
    or with --progress); nothing when stderr is not a terminal and --progress is not given."""
    tty = isatty(sys.stderr)
    if tty:
        try:
            return _RichProgress(total, sys.stderr, what)
        except ImportError:
            pass
    return _Progress(total, sys.stderr, forced or tty, what)


def _ci(e: Estimate, pct: bool = False) -> str:
    if e.low is None or e.high is None:
        return ""
    if pct:
        return f"  ({100 * e.low:.1f}% to {100 * e.high:.1f}%)"
    return f"  ({e.low:.1f} to {e.high:.1f})"


def _print_summary(sim: Simulation, variant: Variant, out: TextIO) -> None:
    """The text summary: means and win rates with their 95% confidence intervals."""
    s = sim.summary()
    n = s.n
    st = new_game(variant, sim.players, seed=sim.seed)  # for the sides' names
    unit = "deal" if sim.mode == "deals" else "game"
    names = list(sim.bots)
    bots_text = names[0] if len(set(names)) == 1 else ", ".join(names)
    print(f"{variant.name}: {plural(n, unit)}, {sim.players} players, bots: {bots_text}, "
          f"seeds {sim.seed}..{sim.seed + n - 1}", file=out)
    print("means with 95% confidence intervals in parentheses", file=out)
    print(f"average actions per {unit}: {s.actions.mean:.1f}{_ci(s.actions)}", file=out)
    if sim.mode == "games":
        print(f"average hands per game: {s.hands.mean:.1f}{_ci(s.hands)}", file=out)
    print(f"{unit}s ended:", file=out)
    for how, k in s.endings.items():
        print(f"  {how + ':':<22}{k:>6}  {100 * k / n:5.1f}%", file=out)
    print("average hand score per side:" if sim.mode == "deals" else "average final score per side:", file=out)
    for side in range(st.sides):
        e = s.scores[side]
        print(f"  {side_name(st, side) + ':':<30}{e.mean:>9.1f}{_ci(e)}", file=out)
    what = "the higher hand score" if sim.mode == "deals" else "the higher final score"
    print(f"{unit}s won per side ({what}):", file=out)
    for side in range(st.sides):
        k = s.win_counts[side]
        print(f"  {side_name(st, side) + ':':<30}{k:>6}  {100 * k / n:5.1f}%{_ci(s.wins[side], True)}",
              file=out)
    print(f"  {'tied:':<30}{s.ties:>6}  {100 * s.ties / n:5.1f}%", file=out)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Simulate and print; the exit status."""
    variant = load(args.variant, sys.stderr)
    if variant is None:
        return BAD_INPUT
    players = args.players if args.players is not None else variant.default_players
    specs = [n.strip() for n in args.bots.split(",") if n.strip()]
    games = args.games is not None
    total = args.games if games else args.deals
    try:
        variant.table(players)
        specs = _bots_for(specs, players)
        for spec in specs:
            bot_factory(spec)
        if args.backend == "ray":
            import ray  # noqa: F401 - only to say early that it is missing
    except ImportError:
        print('canasta simulate: --backend ray needs the ray package: pip install "canasta[ray]"',
              file=sys.stderr)
        return USAGE
    except (VariantError, SimulationError) as e:
        print(f"canasta simulate: {e}", file=sys.stderr)
        return USAGE
    what = "games" if games else "deals"
    try:
        with _progress_for(total, what, args.progress) as bar:
            sim = simulate(variant, deals=None if games else total, games=total if games else None,
                           players=players, bots=specs, seed=args.seed, jobs=args.jobs,
                           backend=args.backend, max_hands=args.max_hands, progress=bar.update,
                           ray_address=args.ray_address)
    except SimulationError as e:
        print(f"canasta simulate: {e}", file=sys.stderr)
        return 1
    if args.format == "text":
        if args.output is not None:
            try:
                with open(args.output, "w", encoding="utf-8") as f:
                    _print_summary(sim, variant, f)
            except OSError as e:
                print(f"{args.output}: {e.strerror or e}", file=sys.stderr)
                return 1
            return 0
        _print_summary(sim, variant, out)
        return 0
    # rows as JSON Lines or CSV: on stdout (the summary then goes to stderr), or to --output
    if args.output is not None:
        try:
            with open(args.output, "w", encoding="utf-8", newline="") as f:
                sim.write(f, args.format)
        except OSError as e:
            print(f"{args.output}: {e.strerror or e}", file=sys.stderr)
            return 1
        _print_summary(sim, variant, out)
    else:
        sim.write(out, args.format)
        out.flush()
        _print_summary(sim, variant, sys.stderr)
    return 0
