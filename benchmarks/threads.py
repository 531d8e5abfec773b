"""``canasta.simulate`` in threads side by side against the same deals in one thread.

Each round simulates ``--deals`` first deals from ``--seed`` twice, in alternating order: once
in one thread, and once split among ``--threads`` threads of the same process (each its own
seeds), and times both (the threads are a pool's, kept through the rounds). The native core plays a simulation's deals without the GIL (issue
28, item 11), so the threads run on separate cores; with the GIL held they take turns and the
ratio is about 1. It prints the median seconds of each, the median of the rounds' paired
ratios (one thread's time over the threads' time: the speed-up, at most the number of free
cores), the ratio of their CPU seconds (the cost of running side by side: above 1 is time spent
waiting on shared locks), the threads' CPU seconds per wall second (above 1: they did run in
parallel), and checks that the threads' rows are the single thread's. On a machine whose cores
are busy (see the load average printed) no speed-up can show.

    PYTHONPATH=. python benchmarks/threads.py                          # hoyle-1950 4p, 600 greedy deals, 2 threads
    PYTHONPATH=. python benchmarks/threads.py --variant samba --deals 300 --rounds 5
    PYTHONPATH=. python benchmarks/threads.py --bots random --deals 2000 --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import canasta
from canasta import simulate


def run_threads(pool: ThreadPoolExecutor, threads: int, variant: str, players: int, bots: str, seed: int,
                deals: int) -> tuple[float, float, list[Any]]:
    """Seconds (wall and the process's CPU) to simulate ``deals`` deals split among the
    ``threads`` threads of ``pool``, and the rows in seed order."""
    share = [deals // threads + (1 if i < deals % threads else 0) for i in range(threads)]
    firsts = [seed + sum(share[:i]) for i in range(threads)]
    start, cpu = time.perf_counter(), time.process_time()
    jobs = [pool.submit(lambda i: simulate(variant, deals=share[i], players=players, seed=firsts[i], bots=bots).rows, i)
            for i in range(threads)]
    out = [job.result() for job in jobs]
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    return took, cpu, [row for rows in out for row in rows]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="hoyle-1950")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="greedy", help="random or greedy (every seat)")
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", action="store_true", help="one JSON line instead of the table")
    a = ap.parse_args()

    # the pools live through the rounds, as a program's threads do: each thread keeps its copy of
    # the table's rules (and its memos) from one simulate call to the next
    pools = {1: ThreadPoolExecutor(1), a.threads: ThreadPoolExecutor(a.threads)}
    for t, pool in pools.items():  # warm up: imports, the rules, every thread's copy of them
        run_threads(pool, t, a.variant, a.players, a.bots, a.seed, a.deals)
    one, many, ratios, cpu_ratios, parallel = [], [], [], [], []
    for r in range(a.rounds):
        order = (1, a.threads) if r % 2 == 0 else (a.threads, 1)
        times: dict[int, float] = {}
        cpus: dict[int, float] = {}
        rows: dict[int, list[Any]] = {}
        for t in order:
            times[t], cpus[t], rows[t] = run_threads(pools[t], t, a.variant, a.players, a.bots, a.seed, a.deals)
        if rows[1] != rows[a.threads]:
            raise SystemExit("the threads' rows differ from one thread's")
        one.append(times[1])
        many.append(times[a.threads])
        ratios.append(times[1] / times[a.threads])
        cpu_ratios.append(cpus[a.threads] / cpus[1])
        parallel.append(cpus[a.threads] / times[a.threads])
    result = {
        "variant": a.variant, "players": a.players, "bots": a.bots, "deals": a.deals, "threads": a.threads,
        "core": canasta.core_info(), "one_thread_s": statistics.median(one), "threads_s": statistics.median(many),
        "speedup_median": statistics.median(ratios), "speedup_min": min(ratios), "speedup_max": max(ratios),
        "cpu_ratio_median": statistics.median(cpu_ratios), "threads_cpu_per_wall": statistics.median(parallel),
        "load_average": os.getloadavg()[0],
    }
    if a.json:
        print(json.dumps(result))
    else:
        print(f"{a.variant} {a.players}p, {a.deals} {a.bots} deals, {a.rounds} rounds ({result['core']})")
        print(f"  one thread      {result['one_thread_s']:.3f} s (median)")
        print(f"  {a.threads} threads       {result['threads_s']:.3f} s (median)")
        print(f"  speed-up        {result['speedup_median']:.2f}x (min {min(ratios):.2f}, max {max(ratios):.2f})")
        print(f"  CPU, threads/one {result['cpu_ratio_median']:.2f}x; the threads' CPU seconds a wall second "
              f"{result['threads_cpu_per_wall']:.2f} (above 1: in parallel); load average {result['load_average']:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
