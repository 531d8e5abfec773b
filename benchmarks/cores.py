"""The native core against the Python core of the same tree, side by side in one run.

For each table and path, ``playout.py --json --runs 1`` runs once with ``CANASTA_CORE=python``
(the pure core) and once with the native core, each in a fresh process, the order alternating
from round to round; the summary gives the median deals/s and actions/s of each core and
**native/python: the median of the rounds' paired ratios** (with their min-max), plus the
actions/s of each table as a ratio to hoyle-1950 4p on the native core (issue 18: new-canasta
10p, samba 4p and hand-and-foot 4p within 3x of it). The tree's native core must be built
(``python native/build.py``, or an installed wheel).

    python benchmarks/cores.py                                   # the issue 18 tables, both paths
    python benchmarks/cores.py --tables hoyle-1950:4 --paths ids --rounds 9 --deals 300
    python benchmarks/cores.py --markdown > /tmp/cores.md
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _ab import REPO, BenchError, Compare, Env, Side, parse_table, render  # noqa: E402

PLAYOUT = str(Path(__file__).resolve().parent / "playout.py")
DEFAULT_TABLES = ["hoyle-1950:4", "new-canasta:10", "samba:4", "hand-and-foot:4"]


def run(env: Env, side: Side, core: str, args: list[str]) -> dict[str, float]:
    child_env = env.env(side)
    if core == "python":
        child_env["CANASTA_CORE"] = "python"
    else:
        child_env.pop("CANASTA_CORE", None)
    proc = subprocess.run([env.python, PLAYOUT, *args, "--json", "--runs", "1"], env=child_env, cwd=env.scratch,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"{core}: {proc.stderr[-2000:]}")
    import json

    data = json.loads([x for x in proc.stdout.splitlines() if x.strip()][-1])
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", nargs="+", default=DEFAULT_TABLES)
    ap.add_argument("--paths", nargs="+", choices=("objects", "ids"), default=["ids", "objects"])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--python-deals", type=int, default=None,
                    help="deals of a Python-core run (default: --deals / 5: the pure core is slower)")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args(argv)
    import tempfile

    with tempfile.TemporaryDirectory(prefix="canasta-cores-") as tmp:
        env = Env(sys.executable, Path(tmp))
        side = Side("B", "working tree", REPO)
        check = subprocess.run([sys.executable, "-c", "import canasta; print(canasta.core_info().name)"],
                               env=env.env(side), cwd=tmp, capture_output=True, text=True)
        if check.stdout.strip() != "native":
            print(f"the tree's native core is not built (python native/build.py): {check.stdout}{check.stderr}",
                  file=sys.stderr)
            return 2
        py_deals = a.python_deals or max(20, a.deals // 5)
        results: dict[tuple[str, str], dict[str, list[float]]] = {}
        for r in range(a.rounds):
            for table in a.tables:
                variant, players = parse_table(table)
                for path in a.paths:
                    got = results.setdefault((table, path), {"python": [], "native": [], "apd": []})
                    order = ["python", "native"] if r % 2 == 0 else ["native", "python"]
                    for core in order:
                        deals = py_deals if core == "python" else a.deals
                        data = run(env, side, core, ["--variant", variant, "--players", str(players), "--deals",
                                                     str(deals), "--path", path, "--seed", str(1000 * r)])
                        got[core].append(float(data["actions_per_s"]))
                    print(f"round {r + 1}: {table} {path}: python {got['python'][-1]:,.0f} actions/s, "
                          f"native {got['native'][-1]:,.0f} actions/s", file=sys.stderr)
        rows = []
        hoyle = {path: statistics.median(results[("hoyle-1950:4", path)]["native"])
                 for path in a.paths if ("hoyle-1950:4", path) in results}
        for (table, path), got in results.items():
            cmp = Compare(tuple(got["python"]), tuple(got["native"]))
            native = statistics.median(got["native"])
            rel = f"{native / hoyle[path]:.2f}" if path in hoyle else ""
            rows.append([table, path, f"{statistics.median(got['python']):,.0f}", f"{native:,.0f}",
                         cmp.ratio_text(), rel])
        print(render(["table", "path", "python actions/s", "native actions/s", "native/python (min-max)",
                      "native vs hoyle-1950:4"], rows, a.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
