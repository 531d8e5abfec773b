"""The Gymnasium environment's vector form (``gymnasium_vector_env``, ``gymnasium.make_vec``):
each game's rows are what a single :class:`CanastaGymEnv` gives for the same seeds and
actions (observations, masks, rewards, terminations, truncations), with the same-step
autoreset it documents."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="numpy: the rl extra is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="gymnasium: the rl extra is not installed")
envs = pytest.importorskip("canasta.envs", reason="the rl extra is not installed")


@pytest.mark.parametrize("name,kw", [("hoyle-1950", {}), ("new-canasta", {"opponents": ["greedy", None, "random"], "players": 3, "seat": 1}),
                                     ("samba", {"episode": "game", "max_hands": 2, "reward": "win",
                                                "illegal": "terminate"})])
def test_each_game_plays_as_the_single_environment(name: str, kw: dict[str, Any]) -> None:
    n = 3
    venv = envs.gymnasium_vector_env(name, num_envs=n, **kw)
    singles = [envs.gymnasium_env(name, **kw) for _ in range(n)]
    obs, info = venv.reset(seed=10)
    assert list(info["deal_seed"]) == [10, 11, 12]
    single_obs = [e.reset(seed=10 + i)[0] for i, e in enumerate(singles)]
    next_seed = 10 + n
    rng = np.random.default_rng(4)
    ended = 0
    for step in range(400):
        for i in range(n):
            assert np.array_equal(obs["observation"][i], single_obs[i]["observation"]), f"step {step}, game {i}"
            assert np.array_equal(obs["action_mask"][i], single_obs[i]["action_mask"])
        acts = np.argmax(rng.random(obs["action_mask"].shape) * obs["action_mask"], axis=1)
        if kw.get("illegal") and step % 50 == 7:
            acts[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
        obs, rewards, terms, truncs, infos = venv.step(acts)
        for i, e in enumerate(singles):
            o, r, t, tr, inf = e.step(int(acts[i]))
            assert rewards[i] == r and terms[i] == t and truncs[i] == tr, f"step {step}, game {i}"
            if t or tr:
                ended += 1
                assert infos["_final_obs"][i]
                assert np.array_equal(infos["final_obs"][i]["observation"], o["observation"])
                o, _ = e.reset(seed=next_seed)
                next_seed += 1
            single_obs[i] = o
    assert ended >= 2


def test_make_vec_gives_the_native_vector_form() -> None:
    venv = gymnasium.make_vec(envs.GYMNASIUM_ID, num_envs=2, variant="bicycle")
    assert isinstance(venv, envs.CanastaGymVectorEnv)
    obs, _ = venv.reset(seed=0)
    assert venv.observation_space.contains(obs)
    assert venv.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    with pytest.raises(envs.EnvError, match="^num_envs: "):
        envs.gymnasium_vector_env(num_envs=0)
    with pytest.raises(envs.EnvError, match="^actions: "):
        venv.step([0])
