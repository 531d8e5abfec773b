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

from canasta._core import _backend  # noqa: E402

NATIVE = _backend._ext is not None


CASES = [("hoyle-1950", {}), ("new-canasta", {"opponents": ["greedy", None, "random"], "players": 3, "seat": 1}),
         ("samba", {"episode": "game", "max_hands": 2, "reward": "win", "illegal": "terminate"}),
         ("bicycle", {"opponents": "greedy", "episode": "game", "max_hands": 3})]


@pytest.mark.parametrize("singles_in_python", [False, True], ids=["native-singles", "python-singles"])
@pytest.mark.parametrize("name,kw", CASES, ids=[c[0] for c in CASES])
def test_each_game_plays_as_the_single_environment(monkeypatch: pytest.MonkeyPatch, name: str, kw: dict[str, Any],
                                                   singles_in_python: bool) -> None:
    """The vector form (one native call for every game, ``gymenv.rs``) against single
    environments, played natively or by the Python loop (the reference: every bot in Python)."""
    n = 3
    venv = envs.gymnasium_vector_env(name, num_envs=n, **kw)
    singles = [envs.gymnasium_env(name, **kw) for _ in range(n)]
    obs, info = venv.reset(seed=10)
    assert list(info["deal_seed"]) == [10, 11, 12]
    if singles_in_python:
        from canasta.envs import _gymnasium

        monkeypatch.setattr(_gymnasium, "builtin_kind", lambda spec: None)
    single_obs = [e.reset(seed=10 + i)[0] for i, e in enumerate(singles)]
    assert all(e._on == (NATIVE and not singles_in_python) for e in singles)
    assert all(e._on == NATIVE for e in venv.envs) and (venv._games is not None) == NATIVE
    _compare(venv, singles, obs, single_obs, 10 + n, bool(kw.get("illegal")), 300)


def _compare(venv: Any, singles: list[Any], obs: Any, single_obs: list[Any], next_seed: int, illegal: bool,
             steps: int) -> None:
    n = len(singles)
    rng = np.random.default_rng(4)
    ended = 0
    for step in range(steps):
        for i in range(n):
            assert np.array_equal(obs["observation"][i], single_obs[i]["observation"]), f"step {step}, game {i}"
            assert np.array_equal(obs["action_mask"][i], single_obs[i]["action_mask"])
        acts = np.argmax(rng.random(obs["action_mask"].shape) * obs["action_mask"], axis=1)
        if illegal and step % 50 == 7:
            acts[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
        obs, rewards, terms, truncs, infos = venv.step(acts)
        for i, e in enumerate(singles):
            o, r, t, tr, inf = e.step(int(acts[i]))
            assert rewards[i] == r and terms[i] == t and truncs[i] == tr, f"step {step}, game {i}"
            assert bool(infos.get("illegal_action", np.zeros(n))[i]) == ("illegal_action" in inf)
            if t or tr:
                ended += 1
                assert infos["_final_obs"][i]
                assert np.array_equal(infos["final_obs"][i]["observation"], o["observation"])
                assert not infos["final_obs"][i]["action_mask"].any()
                assert infos["final_info"][i]["deal_seed"] == e.deal_seed
                assert infos["final_info"][i]["hand_results"] == e.hand_results
                o, _ = e.reset(seed=next_seed)
                next_seed += 1
            single_obs[i] = o
        assert [e.hand_results for e in venv.envs] == [e.hand_results for e in singles]
        assert [e.deal_seed for e in venv.envs] == [e.deal_seed for e in singles]
    assert steps == 0 or ended >= 2


def test_a_game_played_in_python_beside_native_ones() -> None:
    """A seed too large for the native core: that game plays in Python, the others natively,
    each as a single environment plays it."""
    seeds = [10, 2**62 + 5, 12]
    venv = envs.gymnasium_vector_env("hoyle-1950", num_envs=3)
    singles = [envs.gymnasium_env("hoyle-1950") for _ in range(3)]
    obs, info = venv.reset(seed=seeds)
    assert [e._on for e in venv.envs] == [NATIVE, False, NATIVE] and venv._games is None
    single_obs = [e.reset(seed=s)[0] for e, s in zip(singles, seeds)]
    _compare(venv, singles, obs, single_obs, 0, False, 0)
    rng = np.random.default_rng(5)
    for step in range(120):
        acts = np.argmax(rng.random(obs["action_mask"].shape) * obs["action_mask"], axis=1)
        obs, rewards, terms, truncs, infos = venv.step(acts)
        for i, e in enumerate(singles):
            o, r, t, tr, inf = e.step(int(acts[i]))
            assert rewards[i] == r and terms[i] == t and truncs[i] == tr
            if t or tr:
                o, _ = e.reset()
            single_obs[i] = o
            assert np.array_equal(obs["observation"][i], o["observation"]), f"step {step}, game {i}"
            assert np.array_equal(obs["action_mask"][i], o["action_mask"])


def test_an_illegal_action_raises_as_the_state_does() -> None:
    venv = envs.gymnasium_vector_env("hoyle-1950", num_envs=2, illegal="raise")
    obs, _ = venv.reset(seed=3)
    acts = np.array([int(np.flatnonzero(obs["action_mask"][0])[0]), int(np.flatnonzero(obs["action_mask"][1] == 0)[0])])
    with pytest.raises(envs.IllegalActionError if hasattr(envs, "IllegalActionError") else ValueError):
        venv.step(acts)


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
