"""Memory benchmark: what a state kept in a search tree costs beyond what it shares with its parent.

A search keeps states alive (a tree node holds its state; a path from the root holds every
state along it) and asks each for its ``legal_actions()``. ``GameState`` is immutable and
``apply`` builds the child from the parent, so a child can share most of its data (hands,
melds, the pile, the variant's compiled rules) with its parent; what matters is what each kept
state *adds*.

For each table this plays ``--deals`` seeded random playouts. A first, untraced pass chooses
the actions (uniform random over ``legal_actions()``) and warms the engine-wide memo caches, so
their growth is not counted. The deal is then replayed from a fresh ``new_game`` under
``tracemalloc``, keeping every state in a list allocated beforehand (as a search would keep a
path) and, in the ``legal`` mode, calling ``legal_actions()`` on each new state as a search
would (whatever the engine memoises on the state then counts). The traced memory is read after
each state; its increase is what that state added. Reported per table and mode: the median of
the per-state increases, their mean (the whole increase of the traced memory, after a
``gc.collect()``, divided by the number of kept states), and the largest. The root state is
made before tracing starts and is not counted. The ``bare`` mode replays the same actions
without calling ``legal_actions()`` (``apply`` may still need the parent's legal actions to
check the action; that is the engine's choice and is counted).

The target of issue 8: at most 1 KB (1,024 bytes) a kept state.

``--long N`` measures instead a long-running process (issue 28): N actions of play in one
process, on each core in turn (fresh processes; ``CANASTA_CORE=python`` for the Python core),
with the process's RSS (and the native heap's live bytes) every ``--every`` actions (default
50,000). Deal after deal of samba 4p and 6p, brazilian 4p and 6p, hoyle-1950, hand-and-foot,
new-canasta and bolivia at 4p; every third deal between ``GreedyBot`` seats (an observation
each decision), the others uniform-random; ``why_illegal`` of a random id on 5% of the
actions; a save and load (``state_to_json``/``state_from_json``) every 500 actions, play going
on from the loaded state; a 2-deal ``simulate`` every 20,000; every 100th state kept, the
last 2,000 of them. Target: the native core's RSS within 1.3x the Python core's.

    PYTHONPATH=. python benchmarks/memory.py --long 360000
    PYTHONPATH=. python benchmarks/memory.py
    PYTHONPATH=. python benchmarks/memory.py --tables hoyle-1950:4 --deals 50 --json
    python benchmarks/memory.py --base HEAD        # A/B: HEAD (A) against the working tree (B)
"""

from __future__ import annotations

import argparse
import array
import gc
import json
import random
import statistics
import sys
import tracemalloc
from typing import Any, Optional, Sequence

from _ab import (BENCH_DIR, DEFAULT_TABLES, BenchError, Compare, add_side_arguments, announce,
                 parse_table, prepared, render)

MODES = ("legal", "bare")
TARGET = 1024
LONG_TABLES = (("samba", 4), ("brazilian", 4), ("hoyle-1950", 4), ("brazilian", 6), ("hand-and-foot", 4),
               ("samba", 6), ("new-canasta", 4), ("bolivia", 4))
LONG_TARGET = 1.3


def _rss() -> tuple[int, int]:
    """The process's resident set size and its high-water mark, in bytes (Linux)."""
    with open("/proc/self/status") as f:
        fields = dict(line.split(":", 1) for line in f if ":" in line)
    return int(fields["VmRSS"].split()[0]) * 1024, int(fields["VmHWM"].split()[0]) * 1024


def long_loop(total: int, every: int) -> None:
    """Play ``total`` actions as the module's docstring says; print a JSON line every ``every``."""
    import collections
    import time

    import canasta

    heap = _native_heap()
    rng = random.Random(0)
    kept: collections.deque[Any] = collections.deque(maxlen=2000)
    variants = {name: canasta.load_variant(name) for name, _ in LONG_TABLES}
    n = deal = 0
    nxt = every
    t0 = time.perf_counter()
    while n < total:
        name, players = LONG_TABLES[deal % len(LONG_TABLES)]
        v = variants[name]
        st = canasta.new_game(v, players, seed=deal)
        bots = [canasta.GreedyBot(seed=deal * 10 + s) for s in range(players)] if deal % 3 == 0 else None
        k = 0
        while not st.is_hand_over and n < total and k < 4000:
            ids = st.legal_action_ids()
            if not ids:
                break  # (a dead end of issue 28's item 0: the next deal)
            if bots is not None and st.current_player is not None:
                a: Any = bots[st.current_player].choose(canasta.observation(st, st.current_player),
                                                        st.legal_actions())
            else:
                a = rng.choice(ids)
            if rng.random() < 0.05:
                st.why_illegal(rng.randrange(len(st.action_space)))
            st = st.apply(a)
            n += 1
            k += 1
            if n % 100 == 0:
                kept.append(st)
            if n % 500 == 0:
                st = canasta.state_from_json(canasta.state_to_json(st))
            if n % 20000 == 0:
                try:
                    canasta.simulate(v, deals=2, players=players, seed=n)
                except canasta.SimulationError:
                    pass  # (a greedy dead end of issue 28's item 0)
            if n >= nxt:
                rss, hwm = _rss()
                print(json.dumps({"actions": n, "rss": rss, "hwm": hwm, "heap": heap(),
                                  "seconds": round(time.perf_counter() - t0, 1),
                                  "core": canasta.core_info().name}), flush=True)
                nxt += every
        deal += 1


def long_report(total: int, every: int, markdown: bool) -> int:
    """Run :func:`long_loop` on each core in a fresh process; print the RSS table."""
    import os
    import subprocess

    runs: dict[str, list[dict[str, Any]]] = {}
    for core in ("native", "python"):
        env = dict(os.environ)
        if core == "python":
            env["CANASTA_CORE"] = "python"
        out = subprocess.run([sys.executable, __file__, "--long-child", str(total), "--every", str(every)],
                             env=env, capture_output=True, text=True, check=True).stdout
        runs[core] = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    mb = 1 << 20
    rows = []
    for nat, py in zip(runs["native"], runs["python"]):
        rows.append([f"{nat['actions']:,}", f"{nat['rss'] / mb:,.0f}", f"{nat['heap'] / mb:,.1f}",
                     f"{py['rss'] / mb:,.0f}", f"{nat['rss'] / py['rss']:.2f}"])
    print(f"RSS (MB) over {total:,} actions, every {every:,}; cores: native = "
          f"{runs['native'][-1]['core'] if runs['native'] else '?'}, python = "
          f"{runs['python'][-1]['core'] if runs['python'] else '?'}\n")
    print(render(["actions", "native RSS", "native heap", "python RSS", "native/python"], rows,
                 markdown=markdown, right=[True] * 5))
    if runs["native"] and runs["python"]:
        peak = max(r["hwm"] for r in runs["native"]) / max(r["hwm"] for r in runs["python"])
        print(f"\nhigh-water marks: native {max(r['hwm'] for r in runs['native']) / mb:,.0f} MB, python "
              f"{max(r['hwm'] for r in runs['python']) / mb:,.0f} MB ({peak:.2f}x; target <= {LONG_TARGET}x)")
    return 0


def record(variant: Any, players: int, seed: int) -> list[Any]:
    """The actions of one seeded random playout (the engine's caches warm up on the way)."""
    from canasta import new_game

    rng = random.Random(seed)
    st = new_game(variant, players, seed=seed)
    actions = []
    while not st.is_hand_over:
        a = rng.choice(st.legal_actions())
        actions.append(a)
        st = st.apply(a)
    return actions


def _native_heap() -> Any:
    """The native core's live heap bytes (0 where the Python core runs): tracemalloc sees only
    Python's allocator, and a native position keeps its parts in the native core's."""
    try:
        import canasta

        if getattr(canasta, "core_info", None) is not None and canasta.core_info().name == "native":
            from canasta import _native

            return _native.heap
    except ImportError:
        pass
    return lambda: 0


def replay(variant: Any, players: int, seed: int, actions: Sequence[Any], legal: bool
           ) -> tuple[list[int], int]:
    """Replay ``actions`` under tracemalloc keeping every state; (per-state bytes, total bytes).

    The list of states and the array of per-state increases are allocated before tracing
    starts (an array holds raw integers, so storing an increase allocates nothing).
    """
    from canasta import new_game

    root = new_game(variant, players, seed=seed)
    root.legal_actions()
    kept: list[Any] = [None] * len(actions)
    steps = array.array("q", bytes(8 * len(actions)))
    gc.collect()
    tracemalloc.start()
    try:
        python_heap = tracemalloc.get_traced_memory
        native_heap = _native_heap()

        def traced() -> tuple[int, int]:
            # what Python's allocator holds (tracemalloc) plus what the native core's holds
            return (python_heap()[0] + native_heap(), 0)

        before = last = traced()[0]
        st = root
        for i, a in enumerate(actions):
            st = st.apply(a)
            if legal:
                st.legal_actions()
            kept[i] = st
            now = traced()[0]
            steps[i] = now - last
            last = now
        del st
        gc.collect()
        total = traced()[0] - before
    finally:
        tracemalloc.stop()
    del kept
    return steps.tolist(), total


def measure(table: tuple[str, int], deals: int, seed: int) -> dict[str, Any]:
    """Bytes a kept state adds, per mode, over ``deals`` playouts of ``table``."""
    import canasta

    variant = canasta.load_variant(table[0])
    out: dict[str, Any] = {"variant": variant.name, "players": table[1], "deals": deals,
                           "seed": seed, "canasta_file": canasta.__file__}
    steps: dict[str, list[int]] = {m: [] for m in MODES}
    totals: dict[str, int] = {m: 0 for m in MODES}
    states = 0
    for i in range(deals):
        actions = record(variant, table[1], seed + i)
        states += len(actions)
        for mode in MODES:
            s, total = replay(variant, table[1], seed + i, actions, legal=(mode == "legal"))
            steps[mode] += s
            totals[mode] += total
    out["states"] = states
    for mode in MODES:
        out[mode] = {"median": statistics.median(steps[mode]) if steps[mode] else 0,
                     "mean": totals[mode] / states if states else 0,
                     "max": max(steps[mode], default=0)}
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the benchmark; ``argv`` defaults to the command line."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", nargs="+", type=parse_table, metavar="VARIANT:PLAYERS",
                    default=[parse_table(t) for t in DEFAULT_TABLES],
                    help="tables to play (default: " + " ".join(DEFAULT_TABLES) + ")")
    ap.add_argument("--deals", type=int, default=20, help="playouts per table (default: 20)")
    ap.add_argument("--seed", type=int, default=0, help="deal i uses seed S+i (default: 0)")
    ap.add_argument("--json", action="store_true", help="print one JSON line with the results")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--long", type=int, metavar="N", help="the long-running loop of N actions on both cores instead")
    ap.add_argument("--every", type=int, default=50_000, help="(--long) RSS every this many actions")
    ap.add_argument("--long-child", type=int, help=argparse.SUPPRESS)
    add_side_arguments(ap, base_default=None)
    args = ap.parse_args(argv)
    if args.long_child is not None:
        long_loop(args.long_child, args.every)
        return 0
    if args.long is not None:
        return long_report(args.long, args.every, args.markdown)
    if args.deals < 1:
        ap.error("--deals must be at least 1")
    tables: list[tuple[str, int]] = list(dict.fromkeys(args.tables))
    if args.base is None and args.head_rev is None:
        import canasta

        results = {"B": [measure(t, args.deals, args.seed) for t in tables]}
        names = {"B": f"canasta from {canasta.__file__}"}
    else:
        results, names = {}, {}
        try:
            with prepared(args.base, args.head_rev, args.python) as (env, sides):
                announce(env, sides)
                for side in sides:
                    names[side.label] = side.name
                    results[side.label] = []
                    for variant, players in tables:
                        results[side.label].append(env.run_json(side, [
                            str(BENCH_DIR / "memory.py"), "--json", "--tables",
                            f"{variant}:{players}", "--deals", str(args.deals),
                            "--seed", str(args.seed)])["tables"][0])
        except BenchError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
    if args.json:
        if len(results) > 1:
            print(json.dumps({"sides": names, "by_side": results}))
        else:
            print(json.dumps({"tables": results["B"],
                              "canasta_file": results["B"][0]["canasta_file"]}))
        return 0
    _report(results, names, args)
    return 0


def _report(results: dict[str, list[dict[str, Any]]], names: dict[str, str],
            args: argparse.Namespace) -> None:
    labels = sorted(results)
    rows: list[list[str]] = []
    for i, b in enumerate(results["B"]):
        for mode in MODES:
            row = [f"{b['variant']}:{b['players']}", mode, f"{b['states']:,}"]
            for lab in labels:
                r = results[lab][i][mode]
                row += [f"{r['median']:,.0f}", f"{r['mean']:,.0f}"]
            if "A" in results:
                a = results["A"][i][mode]
                row.append(Compare((a["mean"],), (b[mode]["mean"],)).ratio_text())
            row.append("yes" if b[mode]["median"] <= TARGET and b[mode]["mean"] <= TARGET else "NO")
            rows.append(row)
    headers = ["table", "mode", "states"]
    for lab in labels:
        pre = f"{lab} " if len(labels) > 1 else ""
        headers += [f"{pre}median bytes", f"{pre}mean bytes"]
    if "A" in results:
        headers.append("B/A mean")
    headers.append("B <= 1,024")
    who = "; ".join(f"{lab} = {names[lab]}" for lab in labels)
    print(f"{who}. Bytes a kept state adds (tracemalloc, per state), {args.deals} playouts per table, "
          f"seed {args.seed}; legal: legal_actions() called on every state, bare: not.\n")
    print(render(headers, rows, markdown=args.markdown,
                 right=[False, False] + [True] * (len(headers) - 2)))


if __name__ == "__main__":
    sys.exit(main())
