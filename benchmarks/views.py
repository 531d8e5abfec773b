"""Per-seat views for a game server: what observing every seat after every action costs.

A server sends each seat its view after every action. This script measures, per action of
whole hands, interleaved run by run:

* ``engine``: ``legal_actions()`` and ``apply`` (what the game itself costs);
* ``views``: the same, plus every seat's :func:`canasta.observation` and its compact dict
  (``to_dict(history=False, legend=False)``, the form for a client that keeps its own log);
* ``full``: the same with the full dicts (``to_dict()``: the hand's history and the card
  legend in every dict), for comparison.

It prints the medians (min, max) of ``--runs`` runs in microseconds per action and the ratios
to ``engine``; the issue 23 target is ``views / engine <= 3`` for samba with four seats. The
hands are played first (by ``--policy``: the greedy bot, as a server's bots play, or uniform
random) and their action ids replayed in every run, so every run times the same actions.

    PYTHONPATH=. python benchmarks/views.py                       # samba, 4 seats, greedy
    PYTHONPATH=. python benchmarks/views.py --variant hand-and-foot --policy random
    PYTHONPATH=. python benchmarks/views.py --json                # one JSON line
    PYTHONPATH=. python benchmarks/views.py --profile views       # cProfile of one mode

Only the public API is used, so the script runs against any revision that has
``to_dict(history=..., legend=...)``; for an older one, ``--full-only`` measures ``full``.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from typing import Any, Callable

import canasta


def record_hands(variant: canasta.Variant, players: int, deals: int, seed: int, policy: str) -> list[list[int]]:
    """The action ids of ``deals`` hands (one per seed from ``seed``), played by ``policy``."""
    hands = []
    for i in range(deals):
        st = canasta.new_game(variant, players, seed=seed + i)
        rng = random.Random(seed + i)
        bots = [canasta.GreedyBot(seed + i + s, variant=variant) for s in range(players)]
        ids: list[int] = []
        while not st.is_hand_over:
            acts = st.legal_actions()
            if policy == "greedy":
                seat = st.current_player
                assert seat is not None
                a = bots[seat].choose(st.observation(seat), acts)
            else:
                a = rng.choice(acts)
            i_ = st.action_space.encode(a)
            ids.append(i_)
            st = st.apply(i_)
        hands.append(ids)
    return hands


def run(mode: str, variant: canasta.Variant, players: int, seed: int, hands: list[list[int]]) -> float:
    """Seconds per action of one run of ``mode`` over ``hands``."""
    seats = range(players)
    n = 0
    gc.collect()
    t0 = time.perf_counter()
    for i, ids in enumerate(hands):
        st = canasta.new_game(variant, players, seed=seed + i)
        for a in ids:
            st.legal_actions()
            st = st.apply(a)
            if mode == "views":
                for s in seats:
                    st.observation(s).to_dict(history=False, legend=False)
            elif mode == "full":
                for s in seats:
                    st.observation(s).to_dict()
            n += 1
    return (time.perf_counter() - t0) / n


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="samba")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=6, help="hands played (default 6)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--runs", type=int, default=7, help="runs of each mode (default 7), interleaved")
    p.add_argument("--policy", choices=("greedy", "random"), default="greedy")
    p.add_argument("--full-only", action="store_true", help="measure engine and full only (older revisions)")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.add_argument("--profile", choices=("engine", "views", "full"), help="cProfile one run of a mode instead")
    args = p.parse_args(argv)

    variant = canasta.load_variant(args.variant)
    players = args.players or variant.default_players
    hands = record_hands(variant, players, args.deals, args.seed, args.policy)
    actions = sum(len(h) for h in hands)
    modes = ["engine", "full"] if args.full_only else ["engine", "views", "full"]
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.runcall(run, args.profile, variant, players, args.seed, hands)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return 0
    for m in modes:  # warm-up: caches as a running server has them
        run(m, variant, players, args.seed, hands[:1])
    times: dict[str, list[float]] = {m: [] for m in modes}
    for r in range(args.runs):
        order = modes if r % 2 == 0 else modes[::-1]
        for m in order:
            times[m].append(run(m, variant, players, args.seed, hands))
    med = {m: statistics.median(v) for m, v in times.items()}
    ratio = {m: med[m] / med["engine"] for m in modes}
    if args.json:
        print(json.dumps({"variant": args.variant, "players": players, "policy": args.policy, "actions": actions,
                          "us_per_action": {m: round(v * 1e6, 1) for m, v in med.items()},
                          "ratio": {m: round(v, 2) for m, v in ratio.items()}}))
        return 0
    print(f"{args.variant}, {players} seats, {len(hands)} hands by {args.policy} play, {actions} actions; "
          f"{args.runs} interleaved runs; canasta from {canasta.__file__}")
    print(f"{'mode':8} {'us/action median (min, max)':>32} {'x engine':>9}")
    show: Callable[[float], str] = lambda x: f"{x * 1e6:,.1f}"  # noqa: E731
    for m in modes:
        v = times[m]
        print(f"{m:8} {show(med[m]):>14} ({show(min(v))}, {show(max(v))}) {ratio[m]:>12.2f}")
    if "views" in ratio:
        verdict = "met" if ratio["views"] <= 3 else "NOT met"
        print(f"target views <= 3x engine: {verdict} ({ratio['views']:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
