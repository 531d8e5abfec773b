"""Information-set samples per call, dealt natively (``native/src/resample.rs``) against the
Python path, on the native core: ``GameState.resample`` (the same state again, as a search
samples it, and a new state object each call), ``sample_state`` from an observation, and a
search's sampling (``_resample._sample`` with its reading kept, as ``ISMCTSBot`` and
``SearchBot`` draw).

The Python path is forced with a subclass of ``random.Random`` (the same draws; the native
sampler takes only a plain ``random.Random``), so both paths give the same states. Positions:
seeded hands of ``--variant`` played by ``GreedyBot``, every ``--every``-th action. The two paths
run interleaved in one process, ``--rounds`` times; it prints the median microseconds a call
and the median of the rounds' ratios (min-max). The machine's load moves the times, less the
ratios.

    PYTHONPATH=. python benchmarks/ismcts_resample.py
    PYTHONPATH=. python benchmarks/ismcts_resample.py --variant samba --rounds 7
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any, Callable

from canasta import GreedyBot, load_variant, new_game, sample_state
from canasta import _resample
from canasta._core import rules_for
from canasta._knowledge import knowledge
from canasta._state import GameState


class PythonDraws(random.Random):
    """``random.Random`` itself, but a subclass: the samples take the Python path."""


def positions(variant: str, players: int, seed: int, hands: int, every: int) -> list[GameState]:
    v = load_variant(variant)
    out = []
    for h in range(hands):
        st = new_game(v, players or v.default_players, seed=seed + h)
        bot = GreedyBot(seed + h, v)
        i = 0
        while not st.is_hand_over:
            if i % every == 0 and st.current_player is not None:
                out.append(st)
            st = st.apply(bot._choose_state(st))
            i += 1
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="bicycle")
    p.add_argument("--players", type=int, default=0, help="0: the variant's usual table")
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--hands", type=int, default=2)
    p.add_argument("--every", type=int, default=5)
    p.add_argument("--repeat", type=int, default=5, help="calls per position and case")
    p.add_argument("--rounds", type=int, default=5)
    a = p.parse_args()
    states = positions(a.variant, a.players, a.seed, a.hands, a.every)
    if states[0].core != "native":
        print("the native core is not in use", file=sys.stderr)
        return 1
    seat = [(s.current_player + 1) % s.players for s in states]
    obs = [s.observation(k) for s, k in zip(states, seat)]
    R = rules_for(states[0].variant, states[0].players)

    def cases(make: Callable[[int], random.Random]) -> dict[str, Callable[[], Any]]:
        rng = make(1)
        # (each case gets its own readings, made before it is timed, as a search makes them once)
        knows = [knowledge(o, R) for o in obs]
        return {
            "resample, the same state again": lambda: [s.resample(k, rng) for s, k in zip(states, seat)
                                                       for _ in range(a.repeat)],
            "resample, a new state object": lambda: [GameState(s._c).resample(k, rng) for s, k in zip(states, seat)
                                                     for _ in range(a.repeat)],
            "sample_state (an observation)": lambda: [sample_state(o, rng) for o in obs for _ in range(a.repeat)],
            "a search's sample (reading kept)": lambda: [_resample._sample(o, rng, None, None, False, kn, R)
                                                         for o, kn in zip(obs, knows) for _ in range(a.repeat)],
        }

    calls = len(states) * a.repeat
    times: dict[str, dict[str, list[float]]] = {}
    for r in range(a.rounds):
        order = [("native", random.Random), ("python", PythonDraws)]
        if r % 2:
            order.reverse()
        for path, make in order:
            for name, f in cases(make).items():
                t = time.process_time()
                f()
                times.setdefault(name, {}).setdefault(path, []).append((time.process_time() - t) / calls * 1e6)
    print(f"{a.variant}, {len(states)} positions x {a.repeat} calls, {a.rounds} rounds (CPU microseconds a call, medians)")
    print("| call | native path | Python path | Python / native (min-max) |")
    print("|---|---:|---:|---|")
    for name, got in times.items():
        ratios = [py / nat for py, nat in zip(got["python"], got["native"])]
        print(f"| {name} | {statistics.median(got['native']):.0f} | {statistics.median(got['python']):.0f} | "
              f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
