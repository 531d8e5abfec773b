"""The Gymnasium environment's built-in opponents (``"random"``, ``"greedy"``) play natively
where the game does (``native/src/seatbots.rs``: one call plays them up to the learned seat's
turn) and play exactly what their Python twins play: the same episodes, observations, rewards
and final positions, seat for seat, seeded alike (``deal_seed * 1000 + seat``)."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="numpy: the rl extra is not installed")
envs = pytest.importorskip("canasta.envs", reason="the rl extra is not installed")

from canasta._core import _backend  # noqa: E402
from canasta.envs import _gymnasium  # noqa: E402

if _backend._ext is None:
    pytest.skip("the native core is not in use", allow_module_level=True)

CASES = [("hoyle-1950", 4, "random", {}), ("new-canasta", 4, "greedy", {"episode": "game", "max_hands": 2}),
         ("samba", 4, ["greedy", None, "random", "greedy"], {"seat": 1}),
         ("bicycle", 4, [None, "random", lambda obs, ids: ids[-1], "greedy"], {"reward": "win"})]


def _episodes(kw: dict[str, Any], opponents: Any, name: str, players: int) -> list[Any]:
    env = envs.gymnasium_env(name, players, opponents=opponents, **kw)
    rng = np.random.default_rng(1)
    log: list[Any] = []
    for episode in range(2):
        obs, info = env.reset(seed=20 + episode)
        log.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), info))
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, term, trunc, info = env.step(int(rng.choice(legal)))
            log.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term, trunc, info))
            assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
            done = term or trunc
        log.append(env.game_state._c.key())
        log.append(env.hand_results)
    return log


@pytest.mark.parametrize("name,players,opponents,kw", CASES, ids=[c[0] for c in CASES])
def test_native_opponents_play_as_the_python_bots(monkeypatch: pytest.MonkeyPatch, name: str, players: int,
                                                 opponents: Any, kw: dict[str, Any]) -> None:
    native = _episodes(kw, opponents, name, players)
    with monkeypatch.context() as m:
        m.setattr(_gymnasium, "builtin_kind", lambda spec: None)  # every bot in Python
        python = _episodes(kw, opponents, name, players)
    assert native == python


def test_the_opponents_play_natively() -> None:
    env = envs.gymnasium_env("hoyle-1950", opponents="greedy")
    env.reset(seed=3)
    assert env._native_bots is not None and env._bot_kinds == (-1, 1, 1, 1)


def test_reset_seeds_gymnasiums_generator_as_env_reset_does() -> None:
    """``reset(seed=s)`` seeds ``np_random`` as ``gymnasium.Env.reset`` does (the generator is
    made when first read)."""
    from gymnasium.utils import seeding

    env = envs.gymnasium_env("hoyle-1950")
    env.reset(seed=7)
    assert env.np_random_seed == 7
    assert env.np_random.integers(0, 2**31, 5).tolist() == seeding.np_random(7)[0].integers(0, 2**31, 5).tolist()
    env.reset()  # no seed: the generator goes on, not seeded again
    assert env.np_random_seed == 7
    with pytest.raises(Exception, match="[Ss]eed"):
        env.reset(seed=-1)
    fresh = envs.gymnasium_env("hoyle-1950")
    fresh.reset()  # no seed at all: a generator from entropy deals the first game
    assert fresh._np_random is not None and fresh.deal_seed is not None


def test_an_illegal_action_under_raise_changes_nothing() -> None:
    env = envs.gymnasium_env("hoyle-1950", illegal="raise")
    obs, _ = env.reset(seed=4)
    before = env.game_state
    with pytest.raises(ValueError):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    with pytest.raises(ValueError):
        env.step(2**70)
    assert env.game_state == before and env._on
    obs2, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.game_state != before
