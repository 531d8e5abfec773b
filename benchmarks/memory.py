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
    add_side_arguments(ap, base_default=None)
    args = ap.parse_args(argv)
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
