"""Train MaskablePPO (sb3-contrib) on ``canasta/Canasta-v0``, then play it against the built-in bots.

The agent learns one seat; the other seats are played by ``--opponent`` bots during training.
Every decision's legal ids come from the environment's own mask (``env.action_masks()``, which
MaskablePPO calls), so the agent never plays an illegal action. After training, the policy
(deterministic) plays ``--eval-hands`` one-hand episodes against uniformly random bots and
against ``GreedyBot``, new deals it did not train on, and the script prints the hands it won
with Wilson's 95% interval (a hand is won when the agent's side scores more than the other).

Needs ``pip install "canasta[rl]" sb3-contrib`` (sb3-contrib brings stable-baselines3 and
torch; ``pip install "canasta[examples]"`` installs them all).

    python examples/train_maskable_ppo.py                          # hoyle-1950, 2 players, 20,000 steps
    python examples/train_maskable_ppo.py --steps 100000 --variant bicycle --players 4
    python examples/train_maskable_ppo.py --steps 256 --eval-hands 4   # a quick look
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Optional, Sequence

import gymnasium

import canasta
import canasta.envs  # registers canasta/Canasta-v0


def make_env(variant: str, players: int, opponents: str) -> gymnasium.Env:  # type: ignore[type-arg]
    """One learned seat (0) of ``variant``, ``opponents`` bots ("random" or "greedy") in the others."""
    return gymnasium.make(canasta.envs.GYMNASIUM_ID, variant=variant, players=players, opponents=opponents)


def train(variant: str, players: int, steps: int, seed: int, opponents: str = "random") -> Any:
    """A MaskablePPO model trained for ``steps`` environment steps."""
    from sb3_contrib import MaskablePPO

    env = make_env(variant, players, opponents)
    n_steps = min(2048, max(64, steps // 4))
    model = MaskablePPO("MultiInputPolicy", env, n_steps=n_steps, batch_size=min(64, n_steps), seed=seed,
                        verbose=0, device="cpu")
    model.learn(total_timesteps=steps)
    return model


def evaluate(model: Any, variant: str, players: int, opponents: str, hands: int, seed: int) -> dict[str, Any]:
    """The trained policy's hands won against ``opponents`` bots, deals ``seed``, ``seed + 1``, ..."""
    env = make_env(variant, players, opponents)
    wins = 0
    margin = 0.0
    obs, _info = env.reset(seed=seed)
    for _ in range(hands):
        total = 0.0
        while True:
            masks = env.unwrapped.action_masks()  # type: ignore[attr-defined]
            action, _state = model.predict(obs, action_masks=masks, deterministic=True)
            obs, reward, terminated, truncated, _info = env.step(int(action))
            total += float(reward)
            if terminated or truncated:
                break
        wins += total > 0
        margin += total
        obs, _info = env.reset()  # the next deal: seed + 1, ...
    rate = canasta.Estimate.of_rate(wins, hands)
    return {"opponents": opponents, "hands": hands, "wins": wins, "win_rate": rate.mean, "low": rate.low,
            "high": rate.high, "mean_score_margin": margin / hands if hands else 0.0}


def main(argv: Optional[Sequence[str]] = None) -> dict[str, Any]:
    """Train, evaluate, print the report; returns the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="hoyle-1950")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--steps", type=int, default=20000, help="training steps (default: 20,000)")
    ap.add_argument("--opponent", choices=("random", "greedy"), default="random",
                    help="the bots in the other seats while training (default: random)")
    ap.add_argument("--eval-hands", type=int, default=300, help="hands played against each bot (default: 300)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print one JSON line instead of the report")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    model = train(args.variant, args.players, args.steps, args.seed, args.opponent)
    trained = time.perf_counter() - start
    # evaluation deals start far from the training ones (training dealt seeds from Gymnasium's np_random)
    results = [evaluate(model, args.variant, args.players, bot, args.eval_hands, 10**6 + args.seed)
               for bot in ("random", "greedy")]
    report = {"variant": args.variant, "players": args.players, "steps": args.steps, "seed": args.seed,
              "train_opponent": args.opponent, "train_seconds": trained, "results": results}
    if args.json:
        print(json.dumps(report))
        return report
    print(f"MaskablePPO on {args.variant}, {args.players} players: {args.steps:,} steps against {args.opponent} "
          f"bots in {trained:.0f} s")
    print()
    print("| against | hands | won | win rate (95% CI) | mean score margin |")
    print("|---|---|---|---|---|")
    for r in results:
        if r["hands"]:
            print(f"| {r['opponents']} | {r['hands']} | {r['wins']} | {100 * r['win_rate']:.1f}% "
                  f"({100 * r['low']:.1f}-{100 * r['high']:.1f}%) | {r['mean_score_margin']:+.0f} |")
    return report


if __name__ == "__main__":
    main()
    sys.exit(0)
