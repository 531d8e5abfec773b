"""The search bot against the greedy bot: hands (or games) won, with 95% confidence intervals.

Each deal ``seed + i`` is played twice, the search bots holding one side and then the other
(a duplicate format: both sides see the same cards, so the luck of the deal cancels), by
``canasta.simulate`` with ``--jobs`` processes. A hand is won by the side with the higher hand
score (a game by the side that reaches the target first, ``--games``). It prints the search
side's wins, ties and losses, its win rate with Wilson's 95% interval, and the mean score
margin (search side minus the greedy side) with Student's t interval.

Only the public API of ``canasta`` is used.

    PYTHONPATH=. python benchmarks/search_bot.py                      # hoyle-1950, 2 players, 150 deals x 2
    PYTHONPATH=. python benchmarks/search_bot.py --deals 20 --rollouts 8   # a quick look
    PYTHONPATH=. python benchmarks/search_bot.py --variant bicycle --players 4 --deals 100
    PYTHONPATH=. python benchmarks/search_bot.py --games 50 --json
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from typing import Any

import canasta
from canasta import Estimate, SearchBot, load_variant, new_game, simulate


def run(args: argparse.Namespace) -> dict[str, Any]:
    variant = load_variant(args.variant)
    players = args.players or variant.default_players
    state = new_game(variant, players, seed=args.seed)
    n = args.games or args.deals
    what = "games" if args.games else "deals"
    search = functools.partial(SearchBot, rollouts=args.rollouts, objective=args.objective,
                               margin=args.margin, time_limit=args.time_limit)
    wins = ties = losses = 0
    margins: list[float] = []
    start = time.perf_counter()
    for side in (0, 1):
        bots: list[Any] = [search if state.side_of(s) == side else "greedy" for s in range(players)]

        def progress(done: int, total: int, side: int = side) -> None:
            print(f"\r  search bots on side {side}: {done}/{total} {what}", end="", file=sys.stderr, flush=True)

        sim = simulate(variant, deals=args.deals or None, games=args.games or None, players=players,
                       bots=bots, seed=args.seed, jobs=args.jobs, progress=progress)
        print(file=sys.stderr)
        for row in sim.rows:
            mine = row.scores[side]
            best_other = max(v for s, v in enumerate(row.scores) if s != side)
            margins.append(mine - best_other)
            if row.winner == side:
                wins += 1
            elif row.winner is None:
                ties += 1
            else:
                losses += 1
    seconds = time.perf_counter() - start
    played = wins + ties + losses
    rate = Estimate.of_rate(wins, played)
    margin = Estimate.of_mean(margins)
    return {
        "variant": variant.name, "players": players, "mode": what, "deals": n, "played": played,
        "seed": args.seed, "rollouts": args.rollouts, "objective": args.objective, "margin_se": args.margin,
        "time_limit": args.time_limit, "jobs": args.jobs, "wins": wins, "ties": ties, "losses": losses,
        "win_rate": rate.mean, "win_rate_low": rate.low, "win_rate_high": rate.high,
        "mean_margin": margin.mean, "mean_margin_low": margin.low, "mean_margin_high": margin.high,
        "seconds": seconds, "seconds_per_row": seconds * args.jobs / played, "canasta_file": canasta.__file__,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="hoyle-1950")
    p.add_argument("--players", type=int, default=2)
    count = p.add_mutually_exclusive_group()
    count.add_argument("--deals", type=int, default=150, help="deals, each played twice (default: 150)")
    count.add_argument("--games", type=int, default=0, help="whole games instead, each played twice")
    p.add_argument("--seed", type=int, default=1000, help="first deal's seed (default: 1000)")
    p.add_argument("--rollouts", type=int, default=32, help="SearchBot samples per decision (default: 32)")
    p.add_argument("--objective", choices=("win", "score"), default="score", help="SearchBot objective (default: score, its own default)")
    p.add_argument("--margin", type=float, default=1.0, help="SearchBot margin in standard errors (default: 1)")
    p.add_argument("--time-limit", type=float, default=None, help="SearchBot seconds per decision")
    p.add_argument("--jobs", type=int, default=2, help="processes (default: 2)")
    p.add_argument("--json", action="store_true", help="print one JSON line instead of the report")
    args = p.parse_args()
    if args.games:
        args.deals = 0
    r = run(args)
    if args.json:
        print(json.dumps(r))
        return 0
    unit = "hands" if r["mode"] == "deals" else "games"
    print(f"{r['variant']}, {r['players']} players: SearchBot(rollouts={r['rollouts']}, "
          f"objective={r['objective']!r}, margin={r['margin_se']}) against GreedyBot")
    print(f"{r['played']} {unit} ({r['deals']} {r['mode']} from seed {r['seed']}, each with the search "
          f"bots on either side), {r['seconds']:.0f} s with {r['jobs']} processes "
          f"({r['seconds_per_row']:.1f} s a {unit[:-1]} per process)")
    print(f"search side won {r['wins']}, tied {r['ties']}, lost {r['losses']}")
    print(f"win rate: {100 * r['win_rate']:.1f}%  (95% CI {100 * r['win_rate_low']:.1f}% to "
          f"{100 * r['win_rate_high']:.1f}%)")
    print(f"mean margin: {r['mean_margin']:+.1f} points  (95% CI {r['mean_margin_low']:+.1f} to "
          f"{r['mean_margin_high']:+.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
