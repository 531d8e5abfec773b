"""``canasta.simulate`` throughput: one process against ``--jobs`` processes, A/B interleaved.

Each round runs the same simulation (``--deals`` first deals, or ``--games`` games, from
``--seed``) once in this process (``jobs=1``) and once with ``--jobs`` local processes, in
alternating order, and times both (the processes' start-up included). It prints the median
rows per second of each, the median of the rounds' paired ratios (with their min and max),
and checks that every run gave the same rows. ``--backend ray`` adds a Ray run to each round
(a local Ray instance started once, outside the timings; the target is identical rows, not
speed).

Issue 12's target: ``simulate --jobs 2`` at least 1.8x the single-process throughput on the
2-core machine. Only the public API of ``canasta`` is used.

    PYTHONPATH=. python benchmarks/simulate.py                     # hoyle-1950 4p, 1500 greedy deals, 5 rounds
    PYTHONPATH=. python benchmarks/simulate.py --bots random --deals 3000
    PYTHONPATH=. python benchmarks/simulate.py --games 40 --rounds 3 --json
    PYTHONPATH=. python benchmarks/simulate.py --deals 600 --rounds 3 --backend ray
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from typing import Any, Callable

import canasta
from canasta import simulate


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="hoyle-1950")
    p.add_argument("--players", type=int, default=None)
    count = p.add_mutually_exclusive_group()
    count.add_argument("--deals", type=int, default=1500)
    count.add_argument("--games", type=int, default=0)
    p.add_argument("--bots", default="greedy", help="comma separated, as the command takes them")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="ray: also time a Ray run in each round (default: local only)")
    p.add_argument("--json", action="store_true", help="one JSON line instead of the report")
    args = p.parse_args()
    n = args.games or args.deals
    what = "games" if args.games else "deals"
    bots = [b.strip() for b in args.bots.split(",")]

    def run(jobs: int, backend: str = "local") -> Any:
        return simulate(args.variant, deals=None if args.games else n, games=args.games or None,
                        players=args.players, bots=bots, seed=args.seed, jobs=jobs, backend=backend)

    ray_started = False
    if args.backend == "ray":
        import ray

        ray.init(num_cpus=args.jobs, include_dashboard=False, log_to_driver=False)
        ray_started = True
    # warm-up, untimed: the variant loaded and compiled, the engine's caches filled
    simulate(args.variant, deals=5, players=args.players, bots=bots, seed=args.seed)
    one: list[float] = []
    many: list[float] = []
    rays: list[float] = []
    ratios: list[float] = []
    reference = None
    try:
        for r in range(args.rounds):
            order = [1, args.jobs] if r % 2 == 0 else [args.jobs, 1]
            got: dict[int, float] = {}
            for jobs in order:
                seconds, sim = timed(lambda: run(jobs))
                got[jobs] = seconds
                if reference is None:
                    reference = sim.rows
                elif sim.rows != reference:
                    print(f"round {r + 1}: jobs={jobs} gave different rows", file=sys.stderr)
                    return 1
            one.append(n / got[1])
            many.append(n / got[args.jobs])
            ratios.append(got[1] / got[args.jobs])
            line = (f"round {r + 1}: jobs=1 {n / got[1]:7.1f} {what}/s, jobs={args.jobs} "
                    f"{n / got[args.jobs]:7.1f} {what}/s, ratio {got[1] / got[args.jobs]:.2f}")
            if ray_started:
                seconds, sim = timed(lambda: run(args.jobs, "ray"))
                if sim.rows != reference:
                    print(f"round {r + 1}: the Ray backend gave different rows", file=sys.stderr)
                    return 1
                rays.append(n / seconds)
                line += f", ray {n / seconds:7.1f} {what}/s (same rows)"
            if not args.json:
                print(line, file=sys.stderr, flush=True)
    finally:
        if ray_started:
            ray.shutdown()
    result = {
        "variant": args.variant, "players": args.players, "bots": args.bots, "mode": what, "n": n,
        "rounds": args.rounds, "jobs": args.jobs, "cpus": os.cpu_count(),
        "single_per_s": statistics.median(one), "jobs_per_s": statistics.median(many),
        "ratio_median": statistics.median(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios),
        "ray_per_s": statistics.median(rays) if rays else None, "same_rows": True,
        "canasta_file": canasta.__file__,
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.variant} ({args.players or 'usual'} players), {n} {what}, bots {args.bots}, "
          f"{args.rounds} rounds, {os.cpu_count()} CPUs")
    print(f"jobs=1:  median {result['single_per_s']:.1f} {what}/s")
    print(f"jobs={args.jobs}:  median {result['jobs_per_s']:.1f} {what}/s")
    print(f"speedup: median {result['ratio_median']:.2f}x (min {result['ratio_min']:.2f}, "
          f"max {result['ratio_max']:.2f}); the rows of every run are identical")
    if rays:
        print(f"ray (jobs={args.jobs}): median {result['ray_per_s']:.1f} {what}/s, the same rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
