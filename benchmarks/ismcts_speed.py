"""ISMCTSBot's seconds a decision at a fixed budget: its descents and rollouts in the native core
against the same search in Python, interleaved fresh processes, and the choices compared.

Each round plays the same hands (``--variant``, ``--players``, deals ``--seed`` on) with an
``ISMCTSBot(iterations=--iterations, time_limit=None)`` in the even seats and ``GreedyBot`` in
the others, once per mode, in alternating order, each in a fresh process, and times the
searched decisions in CPU seconds of the process (``time.process_time``: other work on a
shared machine counts less). Modes:

- ``native``: the native core, the descents natively (``native/src/ismcts.rs``, the default);
- ``python-sample``: the native core, the descents natively, the samples dealt in Python
  (``_resample.fill``: the path before the native sampler, forced);
- ``python-tree``: the native core, the descents in Python (the fallback path, forced);
- ``python``: the Python core (``CANASTA_CORE=python``; slow: give it few hands).

It prints each mode's median seconds a searched decision, the median of the rounds' paired
ratios to ``native`` (min-max), and checks that every mode chose the same actions with the same
statistics (a seeded search must: issue 26). The tree's native core must be built.

    PYTHONPATH=. python benchmarks/ismcts_speed.py                                 # bicycle 4p, 1 hand, 20 iterations, 3 rounds
    PYTHONPATH=. python benchmarks/ismcts_speed.py --modes native python-tree python --iterations 8
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

SCRIPT = r"""
import json, sys, time
import canasta
from canasta import GreedyBot, ISMCTSBot, load_variant, new_game
from canasta import _ismcts
mode, variant, players, seed, hands, iterations = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
if mode == "python-tree":
    _ismcts._NativeTree.supported = staticmethod(lambda: False)
if mode in ("python-tree", "python-sample"):
    from canasta import _resample
    _resample._native_rng = lambda rng: False
v = load_variant(variant)
players = players or v.default_players
spent, decisions, chosen = 0.0, 0, []
for h in range(hands):
    st = new_game(v, players, seed=seed + h)
    bots = [ISMCTSBot(seed + h + s, time_limit=None, iterations=iterations, variant=v) if s % 2 == 0
            else GreedyBot(s, variant=v) for s in range(players)]
    while not st.is_hand_over:
        seat = st.current_player
        acts = st.legal_actions()
        t = time.process_time()
        a = bots[seat].choose(st.observation(seat), acts)
        if seat % 2 == 0 and len(acts) > 1:
            spent += time.process_time() - t
            decisions += 1
            chosen.append([str(a), sorted((str(k), n, m) for k, (n, m) in bots[seat].last_stats.items())])
        st = st.apply(a)
print(json.dumps({"s_per_decision": spent / max(1, decisions), "decisions": decisions, "chosen": chosen,
                  "core": canasta.core_info().name}))
"""


def run(mode: str, a: argparse.Namespace) -> dict:
    env = dict(os.environ)
    if mode == "python":
        env["CANASTA_CORE"] = "python"
    else:
        env.pop("CANASTA_CORE", None)
    proc = subprocess.run([sys.executable, "-c", SCRIPT, mode, a.variant, str(a.players), str(a.seed), str(a.hands),
                           str(a.iterations)], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{mode}: {proc.stderr}")
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    want = "python" if mode == "python" else "native"
    if data["core"] != want:
        raise SystemExit(f"{mode}: ran the {data['core']} core (is the native core built?)")
    return data


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="bicycle")
    p.add_argument("--players", type=int, default=0, help="0: the variant's usual table")
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--hands", type=int, default=1)
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--modes", nargs="+", choices=("native", "python-sample", "python-tree", "python"), default=["native", "python-sample"])
    a = p.parse_args()
    modes = list(dict.fromkeys(["native"] + a.modes))
    got: dict[str, list[float]] = {m: [] for m in modes}
    ratios: dict[str, list[float]] = {m: [] for m in modes}
    reference = None
    for r in range(a.rounds):
        order = modes if r % 2 == 0 else modes[::-1]
        this: dict[str, float] = {}
        for mode in order:
            data = run(mode, a)
            this[mode] = data["s_per_decision"]
            got[mode].append(data["s_per_decision"])
            if reference is None:
                reference = data["chosen"]
            elif data["chosen"] != reference:
                print(f"round {r + 1}: {mode} chose differently", file=sys.stderr)
                return 1
        for mode in modes:
            ratios[mode].append(this[mode] / this["native"])
        print(f"round {r + 1}: " + ", ".join(f"{m} {this[m]:.4f} s" for m in modes), file=sys.stderr, flush=True)
    print(f"{a.variant} ({a.players or 'usual'} players), {a.hands} hands from seed {a.seed}, "
          f"{a.iterations} iterations a decision, {a.rounds} rounds, {len(reference or [])} searched decisions a run; "
          "the same choices and statistics in every mode")
    print("| mode | CPU s a searched decision (median) | x native (min-max) |")
    print("|---|---:|---|")
    for m in modes:
        rs = ratios[m]
        print(f"| {m} | {statistics.median(got[m]):.4f} | {statistics.median(rs):.2f}x ({min(rs):.2f}-{max(rs):.2f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
