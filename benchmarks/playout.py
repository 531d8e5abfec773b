"""Playout benchmark: uniform-random bots over the full ``legal_actions()``.

Each deal is one hand from ``new_game(variant, players, seed=seed + i)`` played until the hand
is over (``next_hand`` is never called). A run plays ``--deals`` deals; the benchmark repeats
``--runs`` runs and prints deals per second and actions per second as the median of the runs
(with the min and max), and the average number of actions per deal. The engine's memo
caches are emptied before each run, so runs replaying the same deals are comparable.

``--path`` chooses how the bot acts: ``objects`` (the default) picks
``rng.choice(st.legal_actions())`` and applies the action; ``ids`` picks
``rng.choice(st.legal_action_ids())`` and applies the int. Both lists are in the same order,
so with the same seed both paths play the same games. ``--json`` prints one JSON line with the
medians instead of the report (for ``ab.py`` and other scripts).

Only the public API of ``canasta`` is used, so the script runs against any version of the
engine; ``ab.py`` runs it A/B against a git revision.

    PYTHONPATH=. python benchmarks/playout.py --variant hoyle-1950 --players 4 --deals 300 --seed 0
    PYTHONPATH=. python benchmarks/playout.py --variant new-canasta --players 10 --path ids
    PYTHONPATH=. python benchmarks/playout.py --variant hoyle-1950 --deals 100 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import statistics
import sys
import time
from typing import Any, Callable, Optional, Sequence

import canasta
from canasta import VariantError, load_variant, new_game, variant_names


def clear_caches() -> int:
    """Empty the engine's memo caches, so that every run starts equally cold; returns how many.

    Runs replay the same deals; without this a later run would find the planner's answers
    to the earlier runs' positions already cached. Every ``functools`` cache (an object with
    ``cache_clear`` and ``cache_info``) found in a loaded ``canasta`` module or submodule is
    cleared: at module level, and as an attribute of a class defined there. The engine can
    be reorganised freely; memos that are not ``functools`` caches are not seen.
    """
    seen: set[int] = set()
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "canasta" or name.startswith("canasta.")):
            continue
        try:
            values = list(vars(module).values())
        except TypeError:
            continue
        for obj in values:
            candidates = [obj]
            if isinstance(obj, type) and getattr(obj, "__module__", None) == name:
                candidates += [getattr(v, "__func__", v) for v in list(vars(obj).values())]
            for cand in candidates:
                if id(cand) in seen:
                    continue
                try:
                    clear = getattr(cand, "cache_clear", None)
                    info = getattr(cand, "cache_info", None)
                except Exception:  # an exotic object whose attributes raise: not a cache
                    continue
                if callable(clear) and callable(info) and not isinstance(cand, type):  # (a class: its methods unbound)
                    seen.add(id(cand))
                    clear()
    return len(seen)


def play_objects(variant: object, players: int, deals: int, seed: int) -> tuple[int, float]:
    """Play ``deals`` deals choosing among ``legal_actions()``; returns (actions, seconds)."""
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


def play_ids(variant: object, players: int, deals: int, seed: int) -> tuple[int, float]:
    """Play ``deals`` deals choosing among ``legal_action_ids()``; returns (actions, seconds)."""
    actions = 0
    start = time.perf_counter()
    for i in range(deals):
        rng = random.Random(seed + i)
        choice = rng.choice
        st = new_game(variant, players, seed=seed + i)  # type: ignore[arg-type]
        while not st.is_hand_over:
            st = st.apply(choice(st.legal_action_ids()))
            actions += 1
    return actions, time.perf_counter() - start


PATHS: dict[str, Callable[[object, int, int, int], tuple[int, float]]] = {
    "objects": play_objects,
    "ids": play_ids,
}

# kept for callers of the old name
play_deals = play_objects


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
    ap.add_argument("--path", choices=sorted(PATHS), default="objects",
                    help="objects: apply(rng.choice(legal_actions())); ids: "
                         "apply(rng.choice(legal_action_ids())) (default: objects)")
    ap.add_argument("--json", action="store_true",
                    help="print only one JSON line with the medians (for scripts)")
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
    play = PATHS[args.path]
    say: Callable[[str], None] = (lambda s: None) if args.json else print
    say(f"variant {variant.name}, {players} players, {args.deals} deals per run, seed {args.seed}, "
        f"path {args.path}, python {sys.version.split()[0]}")
    # warm up: compile the variant's rules and the caches once, outside the timing
    play(variant, players, 1, args.seed)
    if args.profile:
        clear_caches()
        prof = cProfile.Profile()
        prof.enable()
        actions, secs = play(variant, players, args.deals, args.seed)
        prof.disable()
        print(f"profiled run: {args.deals} deals, {actions} actions, {secs:.2f} s (under the profiler)")
        for key in ("cumulative", "tottime"):
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats(key).print_stats(25)
            print(f"\n--- top 25 by {key} ---")
            print(_table(out.getvalue()))
        return 0
    deal_rates: list[float] = []
    action_rates: list[float] = []
    counts: list[int] = []
    for r in range(args.runs):
        clear_caches()
        actions, secs = play(variant, players, args.deals, args.seed)
        deal_rates.append(args.deals / secs)
        action_rates.append(actions / secs)
        counts.append(actions)
        say(f"  run {r + 1}: {secs:.3f} s, {args.deals / secs:.1f} deals/s, {actions / secs:.0f} actions/s")
    med = statistics.median
    per_deal = statistics.mean(counts) / args.deals
    if args.json:
        result: dict[str, Any] = {
            "variant": variant.name, "players": players, "path": args.path,
            "deals_per_s": med(deal_rates), "actions_per_s": med(action_rates),
            "actions_per_deal": per_deal,
            "deals_per_s_min": min(deal_rates), "deals_per_s_max": max(deal_rates),
            "actions_per_s_min": min(action_rates), "actions_per_s_max": max(action_rates),
            "deals": args.deals, "runs": args.runs, "seed": args.seed,
            "python": sys.version.split()[0], "canasta_version": canasta.__version__,
            "canasta_file": canasta.__file__,
        }
        print(json.dumps(result))
        return 0
    print(f"deals/s:   median {med(deal_rates):.1f} (min {min(deal_rates):.1f}, max {max(deal_rates):.1f})")
    print(f"actions/s: median {med(action_rates):.0f} (min {min(action_rates):.0f}, max {max(action_rates):.0f})")
    print(f"actions per deal: {per_deal:.1f}")
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
