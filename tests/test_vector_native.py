"""``canasta.envs.vector_env`` on the native core (``native/src/vecenv.rs``: every game stepped
in one native call) gives exactly what its Python loop gives: the same observations, masks,
seats, rewards, terminations and truncations at every step, the same final states, hand
results and deal seeds, for every option (episodes of a hand or a game, score or win rewards,
illegal actions penalised or ending the episode, ``max_hands`` truncation).
"""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="numpy: the rl extra is not installed")
envs = pytest.importorskip("canasta.envs", reason="the rl extra is not installed")

from canasta._core import _backend  # noqa: E402

if _backend._ext is None:
    pytest.skip("the native core is not in use", allow_module_level=True)

OPTIONS = [
    ("hoyle-1950", 4, {}),
    ("samba", 4, {"reward": "win"}),
    ("hand-and-foot", 4, {}),
    ("new-canasta", 3, {"episode": "game", "max_hands": 2}),
    ("hoyle-1950", 2, {"episode": "game", "reward": "win", "max_hands": 3, "illegal": "penalty"}),
    ("bolivia", 2, {"illegal": "terminate", "illegal_reward": -3.5}),
]


@pytest.mark.parametrize("name,players,kw", OPTIONS, ids=[f"{n}-{p}-{i}" for i, (n, p, _) in enumerate(OPTIONS)])
def test_native_games_step_as_the_python_loop(name: str, players: int, kw: dict) -> None:  # type: ignore[type-arg]
    native = envs.vector_env(name, players, num_envs=5, **kw)
    python = envs.vector_env(name, players, num_envs=5, **kw)
    python._native = None  # the Python loop, on the same (native) positions
    assert native._native is not None
    rng = np.random.default_rng(3)
    a, b = native.reset(seed=40), python.reset(seed=40)
    ended = 0
    for step in range(700):
        for x, y, what in zip(a, b, a._fields):
            assert np.array_equal(x, y), f"step {step}: {what}"
        assert native.deal_seeds == python.deal_seeds
        assert [None if s is None else s._c.key() for s in native.final_states] == \
               [None if s is None else s._c.key() for s in python.final_states]
        assert native.final_results == python.final_results and native.hand_results == python.hand_results
        ended += int(a.terminations.sum() + a.truncations.sum())
        acts = native.sample_actions(rng)
        if kw.get("illegal") and step % 17 == 0:
            acts[step % 5] = int(np.flatnonzero(a.action_masks[step % 5] == 0)[0])
        a, b = native.step(acts), python.step(acts.copy())
    assert ended >= 1
    assert [s._c.key() for s in native.states] == [s._c.key() for s in python.states]
    assert np.array_equal(native.state(), python.state())


def test_an_illegal_action_raises_as_the_python_loop() -> None:
    import canasta

    env = envs.vector_env("hoyle-1950", num_envs=3)
    out = env.reset(seed=1)
    acts = env.sample_actions(np.random.default_rng(0))
    acts[1] = int(np.flatnonzero(out.action_masks[1] == 0)[0])
    with pytest.raises(canasta.IllegalActionError):
        env.step(acts)
    with pytest.raises(envs.EnvError, match="^actions: "):
        env.step(["x", 1, 2])
