"""Startup benchmark: ``import canasta``, and the first game, in fresh processes.

Each run is a fresh interpreter that measures, with ``time.perf_counter``:

- ``import canasta`` (nothing of the package loaded before it);
- then ``new_game(variant, players, seed=seed)`` and its first ``legal_actions()``: cold, so it
  includes loading and compiling the variant file and whatever the engine imports lazily.

The parent also times each child from start to exit (the interpreter's own startup included).
The medians of ``--runs`` runs are printed; then ``python -X importtime -c "import canasta"``
is run once and its ten modules with the largest self time are listed. One untimed run first
writes the ``.pyc`` files (under a temporary ``PYTHONPYCACHEPREFIX``), so the runs measure a
warm bytecode cache, as an installed package has.

The targets of issue 8: ``import canasta`` under 100 ms; ``new_game`` with the first
``legal_actions()`` under 10 ms.

With ``--base REV`` the runs are A/B interleaved between REV (A) and the working tree (B), and
the ratios B/A (the median of the rounds' paired ratios, with min-max) are printed; below 1
means B starts faster.

    python benchmarks/startup.py
    python benchmarks/startup.py --runs 11 --json
    python benchmarks/startup.py --base HEAD
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any, Optional, Sequence

from _ab import (BenchError, Compare, Env, Side, add_side_arguments, announce, prepared, render,
                 round_order)

# The child: nothing but `time` is imported before canasta (json only afterwards).
CHILD = """\
import sys, time
t0 = time.perf_counter()
import canasta
t1 = time.perf_counter()
st = canasta.new_game(sys.argv[1], int(sys.argv[2]), seed=int(sys.argv[3]))
t2 = time.perf_counter()
acts = st.legal_actions()
t3 = time.perf_counter()
import json
print(json.dumps({"import_ms": (t1 - t0) * 1e3, "new_game_ms": (t2 - t1) * 1e3,
                  "legal_ms": (t3 - t2) * 1e3, "first_game_ms": (t3 - t1) * 1e3,
                  "legal_actions": len(acts), "canasta_file": canasta.__file__}))
"""

MEASURES = (
    ("import_ms", "import canasta", "< 100 ms"),
    ("first_game_ms", "new_game + first legal_actions()", "< 10 ms"),
    ("new_game_ms", "  of which new_game", ""),
    ("legal_ms", "  of which legal_actions()", ""),
    ("process_ms", "whole process (interpreter start to exit)", ""),
)


def one_run(env: Env, side: Side, args: argparse.Namespace) -> dict[str, Any]:
    """One fresh child for ``side``: its measures, and the parent's wall time of it."""
    start = time.perf_counter()
    data = env.run_json(side, ["-c", CHILD, args.variant, str(args.players), str(args.seed)],
                        timeout=120)
    data["process_ms"] = (time.perf_counter() - start) * 1e3
    return data


def import_times(env: Env, side: Side, top: int = 10) -> tuple[list[tuple[str, int, int]], int]:
    """``-X importtime`` of ``import canasta``: the ``top`` modules by self time as
    (module, self us, cumulative us), and the cumulative us of ``canasta`` itself."""
    err = env.run(side, ["-X", "importtime", "-c", "import canasta"], timeout=120).stderr
    rows: list[tuple[str, int, int]] = []
    for line in err.splitlines():
        if not line.startswith("import time:"):
            continue
        parts = line[len("import time:"):].split("|")
        if len(parts) != 3 or not parts[0].strip().isdigit():
            continue
        rows.append((parts[2].rstrip(), int(parts[0]), int(parts[1])))
    total = next((cum for name, _, cum in rows if name.strip() == "canasta"), 0)
    return sorted(rows, key=lambda r: -r[1])[:top], total


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the benchmark; ``argv`` defaults to the command line."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7, help="fresh processes per side (default: 7)")
    ap.add_argument("--variant", default="hoyle-1950", help="variant of the first game "
                    "(default: hoyle-1950)")
    ap.add_argument("--players", type=int, default=4, help="players (default: 4)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game (default: 1)")
    ap.add_argument("--json", action="store_true", help="print one JSON line with the results")
    ap.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    ap.add_argument("--no-importtime", action="store_true",
                    help="skip the -X importtime listing")
    add_side_arguments(ap, base_default=None)
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    log = sys.stderr
    try:
        with prepared(args.base, args.head_rev, args.python) as (env, sides):
            announce(env, sides)
            for side in sides:  # untimed: writes the .pyc files, loads the OS file cache
                one_run(env, side, args)
            runs: dict[str, list[dict[str, Any]]] = {s.label: [] for s in sides}
            for r in range(args.runs):
                for side in round_order(sides, r):
                    runs[side.label].append(one_run(env, side, args))
                print(f"run {r + 1}/{args.runs}: " + "  ".join(
                    f"{lab} import {runs[lab][-1]['import_ms']:.1f} ms, first game "
                    f"{runs[lab][-1]['first_game_ms']:.2f} ms" for lab in sorted(runs)), file=log)
            imports = ({} if args.no_importtime
                       else {s.label: import_times(env, s) for s in sides})
    except BenchError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    labels = sorted(runs)
    med = statistics.median
    if args.json:
        out: dict[str, Any] = {"runs": args.runs, "variant": args.variant,
                               "players": args.players, "seed": args.seed,
                               "sides": {s.label: s.name for s in sides}}
        for lab in labels:
            out[lab] = {key: med(d[key] for d in runs[lab]) for key, _, _ in MEASURES}
            out[lab]["canasta_file"] = runs[lab][0]["canasta_file"]
            if lab in imports:
                out[lab]["importtime_top"] = [list(r) for r in imports[lab][0]]
                out[lab]["importtime_canasta_us"] = imports[lab][1]
        if "A" in runs:
            out["ratio"] = {key: Compare(tuple(d[key] for d in runs["A"]),
                                         tuple(d[key] for d in runs["B"])).as_dict()
                            for key, _, _ in MEASURES}
        print(json.dumps(out))
        return 0
    md = args.markdown
    headers = ["measure"] + [f"{lab} median ms" for lab in labels]
    if "A" in runs:
        headers.append("B/A (min-max)")
    headers.append("target")
    rows = []
    for key, name, target in MEASURES:
        row = [name] + [f"{med(d[key] for d in runs[lab]):.2f}" for lab in labels]
        if "A" in runs:
            row.append(Compare(tuple(d[key] for d in runs["A"]),
                               tuple(d[key] for d in runs["B"])).ratio_text())
        rows.append(row + [target])
    who = "; ".join(f"{s.label} = {s.name}" for s in sides)
    print(f"{who}. Medians of {args.runs} fresh processes"
          + (" per side, A/B interleaved" if "A" in runs else "")
          + f"; first game: new_game({args.variant!r}, {args.players}, seed={args.seed}).\n")
    print(render(headers, rows, markdown=md, right=[False] + [True] * (len(headers) - 2)
                 + [False]))
    for lab in labels:
        if lab not in imports:
            continue
        top, total = imports[lab]
        print(f"\n{lab}: python -X importtime -c 'import canasta' (once): canasta cumulative "
              f"{total / 1e3:.1f} ms; top 10 modules by self time:\n")
        print(render(["module", "self ms", "cumulative ms"],
                     [[name.strip(), f"{s / 1e3:.2f}", f"{c / 1e3:.2f}"]
                      for name, s, c in top], markdown=md, right=[False, True, True]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
