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
    python benchmarks/cores.py --simulate --rounds 5        # simulate(), random and greedy bots
    python benchmarks/cores.py --search --rounds 3          # SearchBot(rollouts=32): s a decision

``--simulate`` times ``canasta.simulate(variant, deals=N, bots=B)`` for random and greedy bots
(whole native playouts against the Python loop) and reports deals/s; ``--search`` times
``SearchBot(rollouts=32).choose`` over the searched decisions of seeded hoyle-1950 2p hands and
reports seconds a decision, checking that both cores chose the same actions.
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


SIMULATE = """
import json, sys, time, canasta
variant, players, deals, bots, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
canasta.simulate(variant, deals=1, players=players, bots=bots, seed=seed)  # warm-up: rules, space
t = time.perf_counter()
rows = canasta.simulate(variant, deals=deals, players=players, bots=bots, seed=seed).rows
dt = time.perf_counter() - t
print(json.dumps({"deals_per_s": deals / dt, "rows": [list(r.scores) for r in rows],
                  "core": canasta.core_info().name, "canasta_file": canasta.__file__}))
"""

SEARCH = """
import json, sys, time, canasta
hands, rollouts = int(sys.argv[1]), int(sys.argv[2])
spent = 0.0
decisions = 0
chosen = []
for h in range(hands):
    st = canasta.new_game("hoyle-1950", 2, seed=500 + h)
    bots = [canasta.SearchBot(seed=s, rollouts=rollouts) for s in range(2)]
    while not st.is_hand_over and decisions < 400:
        seat = st.current_player
        obs, acts = st.observation(seat), st.legal_actions()
        t = time.perf_counter()
        a = bots[seat].choose(obs, acts)
        dt = time.perf_counter() - t
        if bots[seat].last_values:
            spent += dt
            decisions += 1
        chosen.append(str(a))
        st = st.apply(a)
print(json.dumps({"s_per_decision": spent / max(1, decisions), "decisions": decisions, "chosen": chosen,
                  "core": canasta.core_info().name, "canasta_file": canasta.__file__}))
"""


def run_script(env: Env, side: Side, core: str, script: str, args: list[str]) -> dict:
    child_env = env.env(side)
    if core == "python":
        child_env["CANASTA_CORE"] = "python"
    else:
        child_env.pop("CANASTA_CORE", None)
    proc = subprocess.run([env.python, "-c", script, *args], env=child_env, cwd=env.scratch, capture_output=True,
                          text=True)
    if proc.returncode != 0:
        raise BenchError(f"{core}: {proc.stderr[-2000:]}")
    import json

    data: dict = json.loads([x for x in proc.stdout.splitlines() if x.strip()][-1])
    if data["core"] != core:
        raise BenchError(f"asked for the {core} core, ran the {data['core']} core")
    return data


def simulate_mode(env: Env, side: Side, a: argparse.Namespace) -> int:
    rows = []
    for table in a.tables:
        variant, players = parse_table(table)
        for bots in ("random", "greedy"):
            got: dict[str, list[float]] = {"python": [], "native": []}
            for r in range(a.rounds):
                order = ["python", "native"] if r % 2 == 0 else ["native", "python"]
                seen = {}
                for core in order:
                    deals = a.deals if core == "native" else (a.python_deals or max(10, a.deals // 20))
                    data = run_script(env, side, core, SIMULATE, [variant, str(players), str(deals), bots, str(100 * r)])
                    got[core].append(data["deals_per_s"])
                    seen[core] = data["rows"][:10]
                if seen["python"] != seen["native"]:
                    raise BenchError(f"{table} {bots}: the cores' rows differ")
                print(f"round {r + 1}: {table} {bots}: python {got['python'][-1]:,.1f} deals/s, "
                      f"native {got['native'][-1]:,.1f} deals/s", file=sys.stderr)
            cmp = Compare(tuple(got["python"]), tuple(got["native"]))
            rows.append([table, bots, f"{statistics.median(got['python']):,.1f}", f"{statistics.median(got['native']):,.1f}",
                         cmp.ratio_text()])
    print(render(["table", "bots", "python deals/s", "native deals/s", "native/python (min-max)"], rows, a.markdown))
    return 0


def search_mode(env: Env, side: Side, a: argparse.Namespace) -> int:
    got: dict[str, list[float]] = {"python": [], "native": []}
    chosen = {}
    for r in range(a.rounds):
        order = ["python", "native"] if r % 2 == 0 else ["native", "python"]
        for core in order:
            data = run_script(env, side, core, SEARCH, [str(a.hands), "32"])
            got[core].append(data["s_per_decision"])
            chosen[core] = data["chosen"]
        if chosen["python"] != chosen["native"]:
            raise BenchError("SearchBot chose differently on the two cores")
        print(f"round {r + 1}: python {got['python'][-1]:.3f} s, native {got['native'][-1]:.4f} s a decision "
              f"({data['decisions']} decisions)", file=sys.stderr)
    cmp = Compare(tuple(got["native"]), tuple(got["python"]))
    print(render(["what", "python s/decision", "native s/decision", "python/native (min-max)"],
                 [["SearchBot(rollouts=32), hoyle-1950 2p", f"{statistics.median(got['python']):.3f}",
                   f"{statistics.median(got['native']):.4f}", cmp.ratio_text()]], a.markdown))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", nargs="+", default=DEFAULT_TABLES)
    ap.add_argument("--paths", nargs="+", choices=("objects", "ids"), default=["ids", "objects"])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--python-deals", type=int, default=None,
                    help="deals of a Python-core run (default: --deals / 5: the pure core is slower)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--simulate", action="store_true", help="time simulate() with random and greedy bots instead")
    ap.add_argument("--search", action="store_true", help="time SearchBot(rollouts=32) decisions instead")
    ap.add_argument("--hands", type=int, default=2, help="--search: hands played")
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
        if a.simulate:
            if a.tables == DEFAULT_TABLES:
                a.tables = ["hoyle-1950:4"]
            return simulate_mode(env, side, a)
        if a.search:
            return search_mode(env, side, a)
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
