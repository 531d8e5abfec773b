"""Training on the vector environment with numpy alone: a linear softmax policy over the legal
ids, learned by REINFORCE against random bots.

``gymnasium.make_vec("canasta/Canasta-v0", num_envs=N)`` steps ``N`` games, one learned seat
each (the bots and the rows are native where the native core is built); the policy's logits
are a linear function of the observation vector, masked to the legal ids; at the end of each
game's episode its decisions are pushed toward the actions taken in proportion to the
episode's reward (the side's hand score difference, in thousands of points), less a running
baseline. A toy, to show the loop (a real agent wants a network: see
``train_maskable_ppo.py``).

    python examples/train_vector_numpy.py --updates 200 --envs 16
"""

from __future__ import annotations

import argparse
from typing import Any

import gymnasium
import numpy as np

import canasta.envs


def train(variant: str = "bicycle", envs: int = 16, steps: int = 2000, lr: float = 0.01, seed: int = 0) -> dict[str, Any]:
    """Train for ``steps`` vector steps; returns the weights and the episodes' rewards."""
    venv = gymnasium.make_vec(canasta.envs.GYMNASIUM_ID, num_envs=envs, variant=variant, illegal="raise")
    rng = np.random.default_rng(seed)
    obs, _ = venv.reset(seed=seed)
    size = obs["observation"].shape[1]
    n_actions = obs["action_mask"].shape[1]
    w = np.zeros((size, n_actions), dtype=np.float64)
    trail: list[list[tuple[Any, Any, int]]] = [[] for _ in range(envs)]  # per game: (x, mask, action)
    rewards_seen: list[float] = []
    baseline = 0.0
    for _ in range(steps):
        x = obs["observation"].astype(np.float64) / 10.0
        mask = obs["action_mask"].astype(bool)
        logits = np.where(mask, x @ w, -np.inf)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        actions = (p.cumsum(axis=1) > rng.random((envs, 1))).argmax(axis=1)
        for i in range(envs):
            trail[i].append((x[i], p[i], int(actions[i])))
        obs, rewards, terms, truncs, _ = venv.step(actions)
        for i in np.flatnonzero(terms | truncs):
            ret = float(rewards[i]) / 1000.0
            rewards_seen.append(float(rewards[i]))
            advantage = ret - baseline
            baseline += 0.05 * (ret - baseline)
            for xi, pi, a in trail[i]:
                grad = -np.outer(xi, pi)  # d log softmax(a) / dW = x (onehot(a) - p)
                grad[:, a] += xi
                w += lr * advantage * grad
            trail[i] = []
    return {"weights": w, "rewards": rewards_seen}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="bicycle")
    ap.add_argument("--envs", type=int, default=16)
    ap.add_argument("--steps", type=int, default=2000, help="vector steps (each plays one decision per game)")
    args = ap.parse_args()
    out = train(args.variant, args.envs, args.steps)
    r = out["rewards"]
    half = len(r) // 2
    print(f"{len(r)} episodes; mean reward, first half {np.mean(r[:half]):+.0f}, second half {np.mean(r[half:]):+.0f}")


if __name__ == "__main__":
    main()
