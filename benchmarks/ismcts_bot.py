"""ISMCTSBot against another bot: hands won with Wilson's 95% interval, and seconds per decision.

Each deal ``seed + i`` is played twice, the ISMCTS bots holding one side and then the other
(a duplicate format: both sides see the same cards, so the luck of the deal cancels). A hand is
won by the side with the higher hand score; a tie is not a win. The opponent is ``greedy``
(:class:`~canasta.GreedyBot`) or ``search`` (:class:`~canasta.SearchBot`); with ``search`` both
bots get the same ``--time-limit`` per decision (the equal-time match of issue 21), SearchBot's
sample budget being unlimited so that time is its only limit.

It prints the ISMCTS side's wins, ties and losses, its win rate with Wilson's 95% interval, the
mean score margin (ISMCTS side minus the other) with Student's t interval, and each bot's mean
and largest seconds per decision it searched (a decision with one legal action is not one).

Only the public API of ``canasta`` is used. Run it niced: it is CPU heavy.

    PYTHONPATH=. nice -n 10 python benchmarks/ismcts_bot.py --opponent greedy --deals 150
    PYTHONPATH=. nice -n 10 python benchmarks/ismcts_bot.py --opponent search --deals 150 --time-limit 0.25
    PYTHONPATH=. python benchmarks/ismcts_bot.py --deals 5 --iterations 50      # a quick look
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from typing import Any, Optional

import canasta
from canasta import Estimate, GreedyBot, ISMCTSBot, SearchBot, load_variant, new_game


class Timed:
    """A bot wrapper that records the seconds of each decision with more than one legal action."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.times: list[float] = []

    def choose(self, observation: Any, legal_actions: Any) -> Any:
        start = time.perf_counter()
        action = self.bot.choose(observation, legal_actions)
        if len(legal_actions) > 1:
            self.times.append(time.perf_counter() - start)
        return action


def make_bot(kind: str, seed: int, args: argparse.Namespace, variant: canasta.Variant) -> Any:
    if kind == "ismcts":
        return ISMCTSBot(seed, time_limit=args.time_limit, iterations=args.iterations, variant=variant)
    if kind == "search":
        # time is its only limit (at least one sample, as always); without a time limit, --rollouts
        rollouts = 10**9 if args.time_limit is not None else args.rollouts
        return SearchBot(seed, rollouts=rollouts, time_limit=args.time_limit, variant=variant)
    return GreedyBot(seed, variant=variant)


def play_deal(task: tuple[int, int, argparse.Namespace]) -> dict[str, Any]:
    """One hand: deal ``seed``, the ISMCTS bots on ``side``."""
    seed, side, args = task
    variant = load_variant(args.variant)
    players = args.players or variant.default_players
    st = new_game(variant, players, seed=seed)
    bots = [Timed(make_bot(args.bot if st.side_of(s) == side else args.opponent, seed * 1000 + s, args, variant))
            for s in range(players)]
    count = 0
    while not st.is_hand_over:
        seat = st.current_player
        assert seat is not None
        st = st.apply(bots[seat].choose(st.observation(seat), st.legal_actions()))
        count += 1
    assert st.result is not None
    scores = [0] * st.sides
    for sc in st.result.scores:
        scores[sc.side] = sc.total
    mine = [t for s, b in enumerate(bots) if st.side_of(s) == side for t in b.times]
    theirs = [t for s, b in enumerate(bots) if st.side_of(s) != side for t in b.times]
    return {"seed": seed, "side": side, "scores": scores, "actions": count, "ismcts_times": mine,
            "other_times": theirs}


def run(args: argparse.Namespace) -> dict[str, Any]:
    variant = load_variant(args.variant)
    players = args.players or variant.default_players
    tasks = [(args.seed + i, side, args) for i in range(args.deals) for side in (0, 1)]
    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            for row in pool.imap_unordered(play_deal, tasks):
                rows.append(row)
                print(f"\r  {len(rows)}/{len(tasks)} hands", end="", file=sys.stderr, flush=True)
    else:
        for task in tasks:
            rows.append(play_deal(task))
            print(f"\r  {len(rows)}/{len(tasks)} hands", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    seconds = time.perf_counter() - start
    wins = ties = losses = 0
    margins: list[float] = []
    for row in rows:
        side, scores = row["side"], row["scores"]
        other = max(v for s, v in enumerate(scores) if s != side)
        margins.append(scores[side] - other)
        if scores[side] > other:
            wins += 1
        elif scores[side] == other:
            ties += 1
        else:
            losses += 1
    mine = [t for r in rows for t in r["ismcts_times"]]
    theirs = [t for r in rows for t in r["other_times"]]
    rate = Estimate.of_rate(wins, len(rows))
    margin = Estimate.of_mean(margins)

    def mean(xs: list[float]) -> Optional[float]:
        return sum(xs) / len(xs) if xs else None

    return {
        "variant": variant.name, "players": players, "bot": args.bot, "opponent": args.opponent, "deals": args.deals,
        "hands": len(rows), "seed": args.seed, "time_limit": args.time_limit, "iterations": args.iterations,
        "wins": wins, "ties": ties, "losses": losses, "win_rate": rate.mean, "win_rate_low": rate.low,
        "win_rate_high": rate.high, "mean_margin": margin.mean, "mean_margin_low": margin.low,
        "mean_margin_high": margin.high, "ismcts_s_per_decision": mean(mine), "ismcts_s_max": max(mine, default=None),
        "ismcts_decisions": len(mine), "other_s_per_decision": mean(theirs), "other_s_max": max(theirs, default=None),
        "other_decisions": len(theirs), "actions_per_hand": mean([float(r["actions"]) for r in rows]),
        "seconds": seconds, "jobs": args.jobs, "canasta_file": canasta.__file__,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="bicycle")
    p.add_argument("--players", type=int, default=0, help="0: the variant's usual table")
    p.add_argument("--opponent", choices=("greedy", "search"), default="greedy")
    p.add_argument("--bot", choices=("ismcts", "search", "greedy"), default="ismcts",
                   help="the bot measured (default: ismcts; search or greedy to calibrate)")
    p.add_argument("--deals", type=int, default=150, help="deals, each played twice (default: 150, 300 hands)")
    p.add_argument("--seed", type=int, default=1000, help="first deal's seed (default: 1000)")
    p.add_argument("--time-limit", type=float, default=0.25, help="seconds per decision, both bots (default: 0.25)")
    p.add_argument("--no-time-limit", dest="time_limit", action="store_const", const=None,
                   help="no time limit: --iterations (ISMCTS) and --rollouts (SearchBot) only")
    p.add_argument("--iterations", type=int, default=None, help="ISMCTSBot iterations per decision (default: none)")
    p.add_argument("--rollouts", type=int, default=8, help="SearchBot samples without a time limit (default: 8)")
    p.add_argument("--jobs", type=int, default=1, help="processes (default: 1)")
    p.add_argument("--json", action="store_true", help="print one JSON line instead of the report")
    args = p.parse_args()
    if args.time_limit is None and args.iterations is None and "ismcts" in (args.bot, args.opponent):
        p.error("give --time-limit or --iterations")
    r = run(args)
    if args.json:
        print(json.dumps(r))
        return 0
    budget = f"{r['time_limit']} s" if r["time_limit"] is not None else "no time limit"
    if r["iterations"] is not None:
        budget += f", at most {r['iterations']} iterations"
    print(f"{r['variant']}, {r['players']} players: ISMCTSBot ({budget}) against {r['opponent']}")
    print(f"{r['hands']} hands ({r['deals']} deals from seed {r['seed']}, each with the ISMCTS bots on either "
          f"side), {r['seconds']:.0f} s with {r['jobs']} processes, {r['actions_per_hand']:.0f} actions a hand")
    print(f"ISMCTS side won {r['wins']}, tied {r['ties']}, lost {r['losses']}")
    print(f"win rate: {100 * r['win_rate']:.1f}%  (95% CI {100 * r['win_rate_low']:.1f}% to "
          f"{100 * r['win_rate_high']:.1f}%)")
    print(f"mean margin: {r['mean_margin']:+.1f} points  (95% CI {r['mean_margin_low']:+.1f} to "
          f"{r['mean_margin_high']:+.1f})")
    for who, key in (("ISMCTSBot", "ismcts"), (r["opponent"], "other")):
        if r[f"{key}_s_per_decision"] is not None:
            print(f"{who}: {r[f'{key}_s_per_decision']:.3f} s a searched decision on average, at most "
                  f"{r[f'{key}_s_max']:.3f} s ({r[f'{key}_decisions']} decisions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
