"""Playout benchmark: uniform-random bots over the full ``legal_actions()``.

Each deal is one hand from ``new_game(variant, players, seed=seed + i)`` played until the hand
is over (``next_hand`` is never called). A run plays ``--deals`` deals; the benchmark repeats
``--runs`` runs and prints deals per second and actions per second as the median of the runs
(with the min and max), and the average number of actions per deal. The engine's memo
caches are emptied before each run, so runs replaying the same deals are comparable.

    PYTHONPATH=. python benchmarks/playout.py --variant hoyle-1950 --players 4 --deals 300 --seed 0
    PYTHONPATH=. python benchmarks/playout.py --variant hoyle-1950 --deals 100 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import sys
import time
from typing import Optional, Sequence

from canasta import VariantError, load_variant, new_game, variant_names


def clear_caches() -> None:
    """Empty the engine's memo caches, so that every run starts equally cold.

    Runs replay the same deals; without this a later run would find the planner's answers
    to the earlier runs' positions already cached.
    """
    from canasta import _engine

    for obj in list(vars(_engine).values()):
        clear = getattr(obj, "cache_clear", None)
        if callable(clear):
            clear()


def play_deals(variant: object, players: int, deals: int, seed: int) -> tuple[int, float]:
    """Play ``deals`` deals with uniform-random choices; returns (actions, seconds)."""
    actions = 0
    start = time.perf_counter()
    for i in range(deals):
        rng = random.Random(seed + i)
        choice = rng.choice
        st = new_game(variant, players, seed=seed + i)  # type: ignore[arg-type]
        while not st.is_hand_over:
            st = st.apply(choice(st.legal_actions()))
            actions += 1
    return actions, time.perf_counter() - start


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the benchmark; ``argv`` defaults to the command line."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="hoyle-1950",
                    help="bundled variant name or variant file (default: hoyle-1950; bundled: "
                         + ", ".join(variant_names()) + ")")
    ap.add_argument("--players", type=int, default=None,
                    help="players at the table (default: the variant's usual table)")
    ap.add_argument("--deals", type=int, default=300, help="deals per run (default: 300)")
    ap.add_argument("--seed", type=int, default=0, help="deal i uses seed S+i (default: 0)")
    ap.add_argument("--runs", type=int, default=5, help="runs to take the median of (default: 5)")
    ap.add_argument("--profile", action="store_true",
                    help="run cProfile over one run and print the top 25 functions by cumulative "
                         "and by total time (instead of timing runs)")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.runs < 1:
        ap.error("--deals and --runs must be at least 1")
    try:
        variant = load_variant(args.variant)
        players = args.players if args.players is not None else variant.default_players
        variant.table(players)  # a clear error for a table size the variant does not allow
    except (VariantError, OSError) as e:
        ap.error(str(e))
    print(f"variant {variant.name}, {players} players, {args.deals} deals per run, seed {args.seed}, "
          f"python {sys.version.split()[0]}")
    # warm up: compile the variant's rules and the caches once, outside the timing
    play_deals(variant, players, 1, args.seed)
    if args.profile:
        clear_caches()
        prof = cProfile.Profile()
        prof.enable()
        actions, secs = play_deals(variant, players, args.deals, args.seed)
        prof.disable()
        print(f"profiled run: {args.deals} deals, {actions} actions, {secs:.2f} s (under the profiler)")
        for key in ("cumulative", "tottime"):
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats(key).print_stats(25)
            print(f"\n--- top 25 by {key} ---")
            print(_table(out.getvalue()))
        return 0
    deal_rates, action_rates, counts = [], [], []
    for r in range(args.runs):
        clear_caches()
        actions, secs = play_deals(variant, players, args.deals, args.seed)
        deal_rates.append(args.deals / secs)
        action_rates.append(actions / secs)
        counts.append(actions)
        print(f"  run {r + 1}: {secs:.3f} s, {args.deals / secs:.1f} deals/s, {actions / secs:.0f} actions/s")
    med = statistics.median
    print(f"deals/s:   median {med(deal_rates):.1f} (min {min(deal_rates):.1f}, max {max(deal_rates):.1f})")
    print(f"actions/s: median {med(action_rates):.0f} (min {min(action_rates):.0f}, max {max(action_rates):.0f})")
    print(f"actions per deal: {statistics.mean(counts) / args.deals:.1f}")
    return 0


def _table(report: str) -> str:
    """The function table of a pstats report (without its preamble)."""
    lines = report.splitlines()
    for i, line in enumerate(lines):
        if line.lstrip().startswith("ncalls"):
            return "\n".join(lines[i:]).rstrip()
    return report.rstrip()


if __name__ == "__main__":
    sys.exit(main())
