"""A/B playout benchmark: the working tree (B) against a git revision (A), interleaved.

The base revision is exported with ``git archive REV | tar -x`` into a temporary directory.
Each round runs, for every table and path, this tree's ``playout.py --json --runs 1`` once for
A and once for B, each in a fresh subprocess whose ``PYTHONPATH`` is that side's copy; the
order alternates between rounds (A, B, then B, A, ...), so drift and noise from the machine
fall on both sides alike. The summary gives, per table and path, the median deals/s and
actions/s of A and of B, and the ratio B/A: the median of the rounds' paired ratios with its
min and max. Above 1 means B is faster.

With A and B the same code (``--base HEAD`` and a clean tree) the ratios measure the noise.

    python benchmarks/ab.py                               # A = HEAD, B = working tree
    python benchmarks/ab.py --base HEAD~1 --rounds 7
    python benchmarks/ab.py --tables hoyle-1950:4 --paths ids --markdown
    python benchmarks/ab.py --base main --head-rev HEAD   # both sides from git
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Optional, Sequence

from _ab import (BENCH_DIR, DEFAULT_TABLES, BenchError, Compare, Side, add_side_arguments,
                 announce, parse_table, prepared, render, round_order)

PLAYOUT = BENCH_DIR / "playout.py"
PATHS = ("objects", "ids")
HOYLE = ("hoyle-1950", 4)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the comparison; ``argv`` defaults to the command line. Exit 1 if a run failed."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_side_arguments(ap, base_default="HEAD")
    ap.add_argument("--tables", nargs="+", type=parse_table, metavar="VARIANT:PLAYERS",
                    default=[parse_table(t) for t in DEFAULT_TABLES],
                    help="tables to play (default: " + " ".join(DEFAULT_TABLES) + ")")
    ap.add_argument("--paths", nargs="+", choices=PATHS, default=None,
                    help="playout paths (default: objects ids)")
    ap.add_argument("--path", action="append", choices=PATHS, default=None,
                    help="a playout path (repeatable; the same as --paths)")
    ap.add_argument("--rounds", type=int, default=5, help="A/B rounds (default: 5)")
    ap.add_argument("--deals", type=int, default=300, help="deals per run (default: 300)")
    ap.add_argument("--seed", type=int, default=0, help="deal i uses seed S+i (default: 0)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per run (default: 900)")
    ap.add_argument("--markdown", action="store_true",
                    help="print the summary as Markdown tables, ready for a note")
    ap.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.deals < 1:
        ap.error("--rounds and --deals must be at least 1")
    paths = list(dict.fromkeys((args.paths or []) + (args.path or []))) or list(PATHS)
    tables: list[tuple[str, int]] = list(dict.fromkeys(args.tables))
    log = sys.stderr
    try:
        with prepared(args.base, args.head_rev, args.python) as (env, sides):
            announce(env, sides)
            print(f"{args.rounds} rounds, {args.deals} deals per run, seed {args.seed}, "
                  f"python {args.python}", file=log)
            results, failed = _rounds(env, sides, tables, paths, args, log)
    except BenchError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    _report(sides, tables, paths, results, failed, args)
    return 1 if failed else 0


Cell = tuple[str, int, str]  # (variant, players, path)


def _rounds(env: Any, sides: Sequence[Side], tables: Sequence[tuple[str, int]],
            paths: Sequence[str], args: argparse.Namespace, log: Any
            ) -> tuple[dict[Cell, dict[str, list[dict[str, Any]]]], dict[Cell, str]]:
    """Play every round; results per cell and side label, and the cells that failed."""
    results: dict[Cell, dict[str, list[dict[str, Any]]]] = {}
    failed: dict[Cell, str] = {}
    for r in range(args.rounds):
        start = time.perf_counter()
        for variant, players in tables:
            for path in paths:
                cell = (variant, players, path)
                if cell in failed:
                    continue
                got: dict[str, dict[str, Any]] = {}
                order = round_order(sides, r)
                try:
                    for side in order:
                        got[side.label] = env.run_json(side, [
                            str(PLAYOUT), "--json", "--runs", "1", "--variant", variant,
                            "--players", str(players), "--deals", str(args.deals),
                            "--seed", str(args.seed), "--path", path], timeout=args.timeout)
                except BenchError as e:
                    failed[cell] = str(e)
                    print(f"round {r + 1}: {variant}:{players} {path}: FAILED\n{e}", file=log)
                    continue
                slot = results.setdefault(cell, {})
                for label, data in got.items():
                    slot.setdefault(label, []).append(data)
                line = "  ".join(f"{label} {got[label]['deals_per_s']:.1f} deals/s"
                                 for label in sorted(got))
                ratio = (f", B/A {got['B']['deals_per_s'] / got['A']['deals_per_s']:.3f}"
                         if "A" in got else "")
                print(f"round {r + 1}/{args.rounds}: {variant}:{players} {path:7} "
                      f"({''.join(s.label for s in order)}): {line}{ratio}", file=log)
        print(f"round {r + 1} took {time.perf_counter() - start:.0f} s", file=log)
    return results, failed


def _fmt(x: float, digits: int) -> str:
    return f"{x:,.{digits}f}"


def _report(sides: Sequence[Side], tables: Sequence[tuple[str, int]], paths: Sequence[str],
            results: dict[Cell, dict[str, list[dict[str, Any]]]], failed: dict[Cell, str],
            args: argparse.Namespace) -> None:
    """Print the summary table and the within-side ratios (issue 8's targets)."""
    labels = [s.label for s in sides]
    has_a = "A" in labels
    rows: list[list[str]] = []
    summary: dict[str, Any] = {"sides": {s.label: s.name for s in sides}, "rounds": args.rounds,
                               "deals": args.deals, "seed": args.seed, "cells": []}
    medians: dict[tuple[str, Cell], dict[str, float]] = {}
    for variant, players in tables:
        for path in paths:
            cell = (variant, players, path)
            name = f"{variant}:{players}"
            if cell not in results:
                rows.append([name, path] + ["failed"] + [""] * (6 if has_a else 2))
                continue
            runs = results[cell]
            deals = Compare(tuple(d["deals_per_s"] for d in runs.get("A", [])),
                            tuple(d["deals_per_s"] for d in runs["B"]))
            acts = Compare(tuple(d["actions_per_s"] for d in runs.get("A", [])),
                           tuple(d["actions_per_s"] for d in runs["B"]))
            per_deal = {lab: runs[lab][0]["actions_per_deal"] for lab in labels}
            for lab, cmp_d, cmp_a in (("B", deals.median_b, acts.median_b),) + (
                    (("A", deals.median_a, acts.median_a),) if has_a else ()):
                medians[(lab, cell)] = {"deals": cmp_d, "actions": cmp_a}
            entry: dict[str, Any] = {"variant": variant, "players": players, "path": path,
                                     "actions_per_deal": per_deal, "deals_per_s": deals.as_dict(),
                                     "actions_per_s": acts.as_dict()}
            summary["cells"].append(entry)
            if has_a:
                same = per_deal["A"] == per_deal["B"]
                rows.append([name, path, _fmt(deals.median_a, 1), _fmt(deals.median_b, 1),
                             deals.ratio_text(), _fmt(acts.median_a, 0), _fmt(acts.median_b, 0),
                             acts.ratio_text(),
                             _fmt(per_deal["B"], 1) + ("" if same else f" (A {per_deal['A']:.1f})")])
            else:
                rows.append([name, path, _fmt(deals.median_b, 1), _fmt(acts.median_b, 0),
                             _fmt(per_deal["B"], 1)])
    if has_a:
        headers = ["table", "path", "A deals/s", "B deals/s", "B/A deals/s (min-max)",
                   "A actions/s", "B actions/s", "B/A actions/s (min-max)", "actions/deal"]
        right = [False, False, True, True, True, True, True, True, True]
    else:
        headers = ["table", "path", "B deals/s", "B actions/s", "actions/deal"]
        right = [False, False, True, True, True]
    targets = _targets(labels, tables, paths, medians)
    summary["targets"] = targets[1]
    if args.json:
        print(json.dumps(summary))
        return
    md = args.markdown
    intro = "; ".join(f"{s.label} = {s.name}" for s in sides)
    print(("" if md else "\n") + f"{intro}. Medians of {args.rounds} interleaved rounds, "
          f"{args.deals} deals per run, seed {args.seed}; B/A is the median of the rounds' "
          "paired ratios (min-max); above 1 means B is faster.\n")
    print(render(headers, rows, markdown=md, right=right))
    if targets[0]:
        print()
        print(render(["side", "measure", "value", "target"], targets[0], markdown=md,
                     right=[False, False, True, False]))
    for cell, err in failed.items():
        print(f"\nfailed: {cell[0]}:{cell[1]} {cell[2]}: {err.splitlines()[0]}")


def _targets(labels: Sequence[str], tables: Sequence[tuple[str, int]], paths: Sequence[str],
             medians: dict[tuple[str, Cell], dict[str, float]]
             ) -> tuple[list[list[str]], list[dict[str, Any]]]:
    """Issue 8's within-side measures, from the medians: rows to print and their data."""
    rows: list[list[str]] = []
    data: list[dict[str, Any]] = []

    def add(label: str, measure: str, value: float, text: str, target: str) -> None:
        rows.append([label, measure, text, target])
        data.append({"side": label, "measure": measure, "value": value, "target": target})

    for label in labels:
        hoyle = (HOYLE[0], HOYLE[1], "objects")
        if (label, hoyle) in medians:
            v = medians[(label, hoyle)]["deals"]
            add(label, "hoyle-1950:4 objects deals/s", v, _fmt(v, 1),
                ">= 1,000 (pure Python), 3,000 (compiled)")
        for variant, players in tables:
            ob, ids = (variant, players, "objects"), (variant, players, "ids")
            if (label, ob) in medians and (label, ids) in medians:
                v = medians[(label, ids)]["deals"] / medians[(label, ob)]["deals"]
                add(label, f"{variant}:{players} ids/objects deals/s", v, f"{v:.2f}x", ">= 1.3x")
        for path in paths:
            base = (HOYLE[0], HOYLE[1], path)
            if (label, base) not in medians:
                continue
            for variant, players in tables:
                cell = (variant, players, path)
                if (variant, players) == HOYLE or (label, cell) not in medians:
                    continue
                v = medians[(label, cell)]["actions"] / medians[(label, base)]["actions"]
                add(label, f"{variant}:{players} / hoyle-1950:4 actions/s ({path})", v,
                    f"{v:.2f}x", ">= 0.5x (within 2x)")
    return rows, data


if __name__ == "__main__":
    sys.exit(main())
