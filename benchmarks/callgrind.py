"""Instructions per action, counted by valgrind's callgrind: a speed measure that does not move
with the machine's load.

A fixed playout (seeded hands of one table, a uniform-random choice over ``legal_action_ids()``
or ``legal_actions()``) runs under ``valgrind --tool=callgrind`` for each side twice: a base run
plays the first deal only (``import canasta``, the variant loaded, its action space built, and
whatever the engine builds on first use), the measured run that deal and ``--deals`` more; the
difference divided by the actions of those ``--deals`` deals is the cost of one action, dealing
included. (Subtracting an import-only run instead left one-time costs of first use in the
playout, several thousand instructions an action over 4 deals.) The same binary, inputs and
environment give the same count whatever else the machine is doing, so one run per side is
enough, and two revisions compare exactly.

Sides are as in ``ab.py``: A is ``--base`` (a git revision, exported; its native core is built
there when it has one), B the working tree or ``--head-rev``. ``--core python`` sets
``CANASTA_CORE=python`` for both sides (the pure core even where a native one is built);
``--core native`` (the default) lets each side run the core it has.

    python benchmarks/callgrind.py                              # B = working tree only
    python benchmarks/callgrind.py --base e0b80d5 --core python # pure core against e0b80d5
    python benchmarks/callgrind.py --base HEAD --tables hoyle-1950:4 samba:4 --deals 4
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _ab import BenchError, Env, Side, add_side_arguments, announce, parse_table, prepared, render  # noqa: E402

PLAYOUT = """
import json, random, sys
import canasta
variant, players, deals, seed, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
v = canasta.load_variant(variant)
st = canasta.new_game(v, players, seed=seed)
st.legal_actions()  # the action space built: a one-time cost, in the base run too
actions = 0
rng = random.Random(seed)
for i in range(deals):
    st = canasta.new_game(v, players, seed=seed + i)
    while not st.is_hand_over:
        if path == "ids":
            st = st.apply(rng.choice(st.legal_action_ids()))
        else:
            st = st.apply(rng.choice(st.legal_actions()))
        actions += 1
core = getattr(st, "core", "python")
print(json.dumps({"actions": actions, "core": core, "canasta_file": canasta.__file__}))
"""


def count(env: Env, side: Side, args: list[str], core: str, out: Path, warm: bool = False) -> tuple[int, dict[str, Any]]:
    """Instructions of one child run under callgrind, and the JSON line it printed. With
    ``warm``, the same run first without valgrind, uncounted: every module it imports gets its
    ``.pyc`` written, so that no counted run pays for compiling (a module first imported while
    a hand is played was compiled by whichever counted run came first)."""
    child = env.env(side)
    if core == "python":
        child["CANASTA_CORE"] = "python"
    if warm:
        subprocess.run([env.python, "-c", PLAYOUT, *args], env=child, cwd=env.scratch, capture_output=True, check=False)
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-instr=no",
           env.python, "-c", PLAYOUT, *args]
    proc = subprocess.run(cmd, env=child, cwd=env.scratch, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"side {side.label}: valgrind failed:\n{proc.stderr[-2000:]}")
    total = None
    for line in out.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            total = int(line.split()[1])
    if total is None:
        raise BenchError(f"side {side.label}: no total in {out}")
    lines = [x for x in proc.stdout.splitlines() if x.strip()]
    return total, json.loads(lines[-1])


def build_native(side: Side) -> str:
    """Build the side's native core into its tree when it has one and cargo is there."""
    script = side.root / "native" / "build.py"
    if not script.is_file() or shutil.which("cargo") is None:
        return "none"
    if side.name == "working tree":
        return "as built" if any((side.root / "canasta").glob("_native*.so")) else "not built"
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"side {side.label}: building its native core failed:\n{proc.stdout[-1000:]}{proc.stderr[-1000:]}")
    return "built"


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_side_arguments(ap, base_default=None)
    ap.add_argument("--tables", nargs="+", default=["hoyle-1950:4"], help="variant:players (default hoyle-1950:4)")
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--path", choices=("ids", "objects"), default="ids")
    ap.add_argument("--core", choices=("native", "python"), default="native")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    with prepared(a.base, a.head_rev, a.python) as (env, sides):
        announce(env, sides)
        if a.core == "native":
            for side in sides:
                print(f"side {side.label}: native core {build_native(side)}")
        rows = []
        results: dict[tuple[str, str], float] = {}
        with tempfile.TemporaryDirectory() as tmp:
            for table in a.tables:
                variant, players = parse_table(table)
                for side in sides:
                    # the base run plays the first deal (warming what is built on first use), the
                    # measured run that deal and --deals more: the difference is --deals deals
                    base, first = count(env, side, [variant, str(players), "1", str(a.seed), a.path], a.core,
                                        Path(tmp) / "base.out", warm=True)
                    total, info = count(env, side, [variant, str(players), str(a.deals + 1), str(a.seed), a.path],
                                        a.core, Path(tmp) / "run.out")
                    actions = info["actions"] - first["actions"]
                    per = (total - base) / actions
                    results[(table, side.label)] = per
                    rows.append([table, f"{side.label} ({side.name})", info["core"], str(actions),
                                 f"{base:,}", f"{total:,}", f"{per:,.0f}"])
        print(render(["table", "side", "core", "actions", "base Ir (1 deal)", "playout Ir", "Ir per action"], rows,
                     a.markdown))
        if len(sides) == 2:
            ratio_rows = []
            for table in a.tables:
                ia, ib = results[(table, "A")], results[(table, "B")]
                ratio_rows.append([table, f"{ia:,.0f}", f"{ib:,.0f}", f"{ib / ia:.3f}", f"{ia / ib:.2f}x"])
            print(render(["table", "A Ir/action", "B Ir/action", "B/A", "speed-up A/B"], ratio_rows, a.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
