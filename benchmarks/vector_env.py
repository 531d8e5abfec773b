"""Vector environment throughput: ``canasta.envs.vector_env`` against Gymnasium's sync vector env.

Both loops step ``--envs`` games of one table with a uniformly random legal action per game,
drawn the same way from the batch of masks (``argmax(random * mask)``, one numpy call for the
batch), and count agent steps (decisions taken by the learning side) per second of CPU time
(``time.process_time``: this process only, so other processes on a shared machine count less):

- ``gym-sync``: ``gymnasium.vector.SyncVectorEnv`` of ``gymnasium.make("canasta/Canasta-v0")``
  (one learned seat, random bots in the other seats, the wrappers ``gymnasium.make`` adds,
  Gymnasium's default autoreset: the step after an episode's end resets it, and its action is
  ignored); an agent step is one ``step`` of one game (the learned seat's decision and the bots'
  actions after it);
- ``gym-vector``: ``canasta.envs.gymnasium_vector_env`` (``gymnasium.make_vec``'s form of the
  same environment: one learned seat per game, random bots, same-step autoreset); an agent
  step as in ``gym-sync``;
- ``vector``: ``canasta.envs.vector_env``, every seat an agent: an agent step is one decision.
  Its observations are the same vectors and masks (the test suite checks it).

Each loop runs on both cores (``CANASTA_CORE``), each run in a fresh process. A round runs
every loop once, in alternating order; the report gives the medians of the rounds and the
median of their paired ratios to the baseline, ``gym-sync`` on the Python core. Issue 21's
target: ``vector`` at least 5x it with the Python core; issue 26's: at least 40x with the
native core (hoyle-1950, 4 players, 16 games).

``--memory`` measures instead what issue 26 asks of memory (a vector env of 1,024 games within
256 MB): the process's resident memory after importing and loading the variant, then its
high-water mark while ``vector_env(num_envs=--envs)`` plays ``--steps`` steps of every game
(hands end and are dealt anew meanwhile), read from ``/proc/self/statm`` every 50 steps.

    PYTHONPATH=. python benchmarks/vector_env.py
    PYTHONPATH=. python benchmarks/vector_env.py --table bicycle:4 --envs 32 --steps 20000 --runs 5
    PYTHONPATH=. python benchmarks/vector_env.py --memory --envs 1024 --steps 1000
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any, Callable, Optional, Sequence

import numpy as np

import canasta
import canasta.envs


def sample(masks: Any, rng: np.random.Generator) -> Any:
    """A uniformly random legal id per row (0 for a row without any)."""
    return np.argmax(rng.random(masks.shape, dtype=np.float32) * masks, axis=1)


def loop_gym(name: str, players: int, envs: int, steps: int, seed: int) -> tuple[int, float]:
    import gymnasium

    env = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make(canasta.envs.GYMNASIUM_ID, variant=name, players=players) for _ in range(envs)])
    rng = np.random.default_rng(seed)
    obs, _info = env.reset(seed=seed)
    done = 0
    start = time.process_time()
    while done < steps:
        obs, _r, _term, _trunc, _info = env.step(sample(obs["action_mask"], rng))
        done += envs
    secs = time.process_time() - start
    env.close()
    return done, secs


def loop_vector(name: str, players: int, envs: int, steps: int, seed: int) -> tuple[int, float]:
    env = canasta.envs.vector_env(name, players, envs, copy=False)
    rng = np.random.default_rng(seed)
    out = env.reset(seed=seed)
    done = 0
    start = time.process_time()
    while done < steps:
        out = env.step(sample(out.action_masks, rng))
        done += envs
    return done, time.process_time() - start


def loop_gym_vector(name: str, players: int, envs: int, steps: int, seed: int) -> tuple[int, float]:
    env = canasta.envs.gymnasium_vector_env(name, players, envs, copy=False)
    rng = np.random.default_rng(seed)
    obs, _info = env.reset(seed=seed)
    done = 0
    start = time.process_time()
    while done < steps:
        obs, _r, _term, _trunc, _info = env.step(sample(obs["action_mask"], rng))
        done += envs
    return done, time.process_time() - start


LOOPS: dict[str, Callable[[str, int, int, int, int], tuple[int, float]]] = {"gym-sync": loop_gym,
                                                                            "gym-vector": loop_gym_vector,
                                                                            "vector": loop_vector}


RUNS = [("gym-sync", "python"), ("gym-sync", "native"), ("gym-vector", "native"), ("vector", "python"),
        ("vector", "native")]
"""The loops timed, each on each core; the first is the baseline (issue 26's targets are ratios to it)."""


def child(loop: str, name: str, players: int, envs: int, steps: int, seed: int) -> dict[str, Any]:
    """One loop, timed in this process (on the core ``CANASTA_CORE`` picks), after a warm-up."""
    f = LOOPS[loop]
    f(name, players, envs, envs * 4, seed)
    n, secs = f(name, players, envs, steps, seed)
    return {"steps": n, "secs": secs, "core": str(canasta.core_info())}


def run_child(loop: str, core: str, args: Any, seed: int) -> float:
    """Agent steps per CPU second of ``loop`` on ``core``, in a fresh process."""
    import os
    import subprocess

    env = dict(os.environ, CANASTA_CORE=core)
    out = subprocess.run([sys.executable, __file__, "--child", loop, "--table", args.table, "--envs", str(args.envs),
                          "--steps", str(args.steps), "--seed", str(seed)], env=env, check=True,
                         capture_output=True, text=True).stdout
    got = json.loads(out.strip().splitlines()[-1])
    assert ("native" in got["core"]) == (core == "native"), got["core"]
    return float(got["steps"] / got["secs"])


def memory(name: str, players: int, envs: int, steps: int, seed: int) -> dict[str, Any]:
    """Resident memory (bytes) after the imports, and its high-water mark over ``steps`` steps of
    ``vector_env(num_envs=envs)`` (Linux: ``/proc/self/statm``)."""
    import os

    page = os.sysconf("SC_PAGE_SIZE")

    def rss() -> int:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * page

    canasta.load_variant(name)
    base = rss()
    env = canasta.envs.vector_env(name, players, envs, copy=False)
    rng = np.random.default_rng(seed)
    out = env.reset(seed=seed)
    peak = rss()
    for i in range(steps):
        out = env.step(sample(out.action_masks, rng))
        if i % 50 == 0:
            peak = max(peak, rss())
    peak = max(peak, rss())
    return {"variant": name, "players": players, "envs": envs, "steps": steps, "core": str(canasta.core_info()),
            "rss_base": base, "rss_peak": peak, "growth": peak - base}


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--table", default="hoyle-1950:4", help="VARIANT:PLAYERS (default: hoyle-1950:4)")
    ap.add_argument("--envs", type=int, default=16, help="games stepped together (default: 16)")
    ap.add_argument("--steps", type=int, default=8000, help="agent steps per loop and round (default: 8000)")
    ap.add_argument("--runs", type=int, default=5, help="rounds (default: 5)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="one JSON line instead of the report")
    ap.add_argument("--memory", action="store_true",
                    help="measure the resident memory of vector_env(num_envs=--envs) over --steps steps instead")
    ap.add_argument("--child", choices=list(LOOPS), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    name, _, p = args.table.partition(":")
    players = int(p) if p else canasta.load_variant(name).default_players
    if args.memory:
        got = memory(name, players, args.envs, args.steps, args.seed)
        if args.json:
            print(json.dumps(got))
        else:
            mb = 2 ** 20
            print(f"{name}, {players} players, vector_env of {args.envs} games, {args.steps} steps each, "
                  f"{got['core']}: resident {got['rss_base'] / mb:.0f} MB after the imports, "
                  f"{got['rss_peak'] / mb:.0f} MB at most while playing (+{got['growth'] / mb:.1f} MB)")
        return 0
    if args.child:
        print(json.dumps(child(args.child, name, players, args.envs, args.steps, args.seed)))
        return 0
    keys = [f"{loop} ({core})" for loop, core in RUNS]
    rates: dict[str, list[float]] = {k: [] for k in keys}
    ratios: dict[str, list[float]] = {k: [] for k in keys}
    for r in range(args.runs):
        order = list(range(len(RUNS))) if r % 2 == 0 else list(reversed(range(len(RUNS))))
        got: dict[str, float] = {}
        for j in order:
            loop, core = RUNS[j]
            got[keys[j]] = run_child(loop, core, args, args.seed + r)
        for k in keys:
            rates[k].append(got[k])
            ratios[k].append(got[k] / got[keys[0]])
        if not args.json:
            print(f"  round {r + 1}: " + ", ".join(f"{k} {got[k]:,.0f}" for k in keys), file=sys.stderr)
    med = statistics.median
    result = {"variant": name, "players": players, "envs": args.envs, "steps": args.steps, "runs": args.runs,
              "steps_per_s": {k: med(v) for k, v in rates.items()},
              "ratio": {k: med(v) for k, v in ratios.items()},
              "ratio_min": {k: min(v) for k, v in ratios.items()}, "ratio_max": {k: max(v) for k, v in ratios.items()},
              "canasta_file": canasta.__file__}
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{name}, {players} players, {args.envs} games stepped together, median of {args.runs} interleaved rounds "
          "(agent steps per CPU second; each loop in its own process, on the core named)")
    print()
    print(f"| loop | agent steps/s | x {keys[0]} (min-max of the rounds' ratios) |")
    print("|---|---:|---|")
    for k in keys:
        print(f"| {k} | {result['steps_per_s'][k]:,.0f} | {result['ratio'][k]:.2f} "
              f"({result['ratio_min'][k]:.2f}-{result['ratio_max'][k]:.2f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
