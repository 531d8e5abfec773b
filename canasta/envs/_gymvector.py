"""The Gymnasium environment's vector form: ``N`` games, one learned seat each, the other seats
played by bots (see :class:`CanastaGymVectorEnv`)."""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .._core import Core as _PyCore
from .._core._backend import _ext
from .._variant import Variant
from ._common import EnvError
from ._gymnasium import CanastaGymEnv


class CanastaGymVectorEnv(VectorEnv):
    """``num_envs`` games of :class:`CanastaGymEnv` stepped together: a Gymnasium
    ``VectorEnv`` with one learned seat per game and bots in the other seats (the same options
    as :func:`canasta.envs.gymnasium_env`). Make one with
    :func:`canasta.envs.gymnasium_vector_env` or
    ``gymnasium.make_vec("canasta/Canasta-v0", num_envs=N, ...)``.

    ``reset(seed=s)`` deals game ``i`` with seed ``s + i`` (and each later episode the next
    seed not yet dealt: ``s + N``, ``s + N + 1``, ... in the order the episodes end); ``step(actions)`` plays one action
    id per game for its learned seat, then the bots up to its next decision. The observations
    are ``{"observation": (N, size) float32, "action_mask": (N, A) int8}`` (each row as
    :class:`CanastaGymEnv` gives it), the rewards ``(N,)`` ``float64``. A game whose episode ends
    is reset in the same step (``autoreset_mode`` ``SAME_STEP``): its row is then the first
    decision of the next episode, and ``infos["final_obs"]`` / ``infos["final_info"]`` hold the
    episode's last observation and info (``infos["_final_obs"]`` marks the games). The built-in
    bots play natively where the game does, and the rows are written natively into the
    environment's arrays; the arrays returned are new ones unless ``copy=False``.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, variant: Union[Variant, str] = "hoyle-1950", players: Optional[int] = None,
                 num_envs: int = 16, *, seat: int = 0, opponents: Union[object, Sequence[object]] = "random",
                 episode: str = "hand", reward: str = "score", max_hands: int = 200, illegal: str = "penalty",
                 illegal_reward: float = -1.0, copy: bool = True) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise EnvError(f"num_envs: expected a whole number of games, 1 or more, not {num_envs!r}")
        self.envs = [CanastaGymEnv(variant, players, seat=seat, opponents=opponents, episode=episode, reward=reward,
                                   max_hands=max_hands, illegal=illegal, illegal_reward=illegal_reward)
                     for _ in range(num_envs)]
        """The games (:class:`CanastaGymEnv`)."""
        first = self.envs[0]
        cfg = first.config
        self.config = cfg
        """The checked options."""
        self.num_envs = num_envs
        self.copy = bool(copy)
        """Whether the arrays returned are new (True) or the environment's buffers (False)."""
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, cfg.encoder.size), dtype=np.float32)
        self._masks = np.zeros((num_envs, cfg.action_size), dtype=np.int8)
        self._rows = [(self._obs[i], self._masks[i]) for i in range(num_envs)]
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terms = np.zeros(num_envs, dtype=np.bool_)
        self._truncs = np.zeros(num_envs, dtype=np.bool_)
        self._next_seed: Optional[int] = None
        """The seed of the next episode begun by an autoreset (None: each game's own next)."""
        self._reward_bits = self._rewards.view(np.int64)
        self._games: Optional[tuple[Any, ...]] = None
        """Every game's native game (``native/src/gymenv.rs``) where all are played natively:
        one native call steps them all."""

    def reset(self, *, seed: Optional[Union[int, Sequence[Optional[int]]]] = None,
              options: Optional[dict[str, Any]] = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal every game (game ``i``: ``seed + i``, or ``seed[i]`` for a list of seeds)."""
        n = self.num_envs
        if seed is None or isinstance(seed, int):
            seeds: list[Optional[int]] = [None if seed is None else seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise EnvError(f"seed: expected one seed per game ({n}), not {len(seeds)}")
        self._next_seed = None if seed is None or not isinstance(seed, int) else seed + n
        deal_seeds = np.zeros(n, dtype=np.int64)
        for i, env in enumerate(self.envs):
            env.reset(seed=seeds[i])
            assert env.deal_seed is not None
            deal_seeds[i] = env.deal_seed
            self._write(i, env)
        on = all(env._on for env in self.envs)
        self._games = tuple(env._gym for env in self.envs) if on else None
        self._rewards.fill(0.0)
        self._terms.fill(False)
        self._truncs.fill(False)
        return self._observations(), {"deal_seed": deal_seeds}

    def step(self, actions: Any) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        """Play ``actions[i]`` for game ``i``'s learned seat and the bots after it; a game whose
        episode ended is reset at once (see the class)."""
        n = self.num_envs
        if len(actions) != n:
            raise EnvError(f"actions: expected one action id per game ({n}), not {len(actions)}")
        rewards, terms, truncs = self._rewards, self._terms, self._truncs
        if self._games is not None:
            infos = self._native_step(actions)
        else:
            infos = self._python_step(actions)
        if self.copy:
            return self._observations(), rewards.copy(), terms.copy(), truncs.copy(), infos
        return self._observations(), rewards, terms, truncs, infos

    def _native_step(self, actions: Any) -> dict[str, Any]:
        """Every game stepped by one native call; Python records the hands that ended."""
        n = self.num_envs
        acts = actions if isinstance(actions, np.ndarray) and actions.dtype == np.int64 else None
        if acts is None or not acts.flags.c_contiguous or acts.ndim != 1:
            acts = np.array([a if type(a) is int else int(a) for a in actions], dtype=np.int64)
        assert self._games is not None
        events, self._next_seed = _ext.gym_vec_step(self._games, acts, self._obs, self._masks, self._reward_bits,
                                                    self._terms, self._truncs, self._next_seed)
        for env in self.envs:  # (their positions changed)
            env._gym_st = None
        infos: dict[str, Any] = {}
        for ev in events:
            i = ev[0]
            env = self.envs[i]
            if ev[1] is None:  # an illegal action under illegal="raise": GameState.apply's error
                env.game_state.apply(int(acts[i]))
                raise RuntimeError(f"action {acts[i]} was refused but is legal")  # pragma: no cover
            _, illegal, hands, final, played, new_hands, new_seed = ev
            if illegal:
                infos.setdefault("illegal_action", np.zeros(n, dtype=np.bool_))[i] = True
                infos["_illegal_action"] = infos["illegal_action"]
            if hands:
                env._pending.extend(hands)
            if final is not None:
                vec = np.empty(self.config.encoder.size, dtype=np.float32)
                _ext.observe(self.config.native_layout, final, env.seat, vec, None)
                if "final_obs" not in infos:
                    infos["final_obs"] = np.full(n, None, dtype=object)
                    infos["final_info"] = np.full(n, None, dtype=object)
                    infos["_final_obs"] = np.zeros(n, dtype=np.bool_)
                    infos["_final_info"] = infos["_final_obs"]
                infos["final_obs"][i] = {"observation": vec,
                                         "action_mask": np.zeros(self.config.action_size, dtype=np.int8)}
                infos["final_info"][i] = {"deal_seed": played, "hand_results": list(env.hand_results)}
                infos["_final_obs"][i] = True
                env.deal_seed = new_seed
                env._next_seed = new_seed + 1
                env._results = []
                env._pending = list(new_hands)
        return infos

    def _python_step(self, actions: Any) -> dict[str, Any]:
        """Each game stepped in turn (a game played in Python)."""
        n = self.num_envs
        ids = actions.tolist() if isinstance(actions, np.ndarray) else [int(a) for a in actions]
        rewards, terms, truncs = self._rewards, self._terms, self._truncs
        infos: dict[str, Any] = {}
        for i, env in enumerate(self.envs):
            if env._on:  # (a game played natively beside one played in Python)
                _, reward, term, trunc, info = env.step(ids[i])
                illegal = "illegal_action" in info
            else:
                reward, illegal = env._act(ids[i])
                term, trunc = env._terminated, env._truncated
            rewards[i] = reward
            terms[i] = term
            truncs[i] = trunc
            if illegal:
                infos.setdefault("illegal_action", np.zeros(n, dtype=np.bool_))[i] = True
                infos["_illegal_action"] = infos["illegal_action"]
            if term or trunc:
                st = env._state
                assert st is not None
                final = env._observe(st, env.seat)
                if "final_obs" not in infos:
                    infos["final_obs"] = np.full(n, None, dtype=object)
                    infos["final_info"] = np.full(n, None, dtype=object)
                    infos["_final_obs"] = np.zeros(n, dtype=np.bool_)
                    infos["_final_info"] = infos["_final_obs"]
                infos["final_obs"][i] = final
                infos["final_info"][i] = {"deal_seed": env.deal_seed, "hand_results": list(env.hand_results)}
                infos["_final_obs"][i] = True
                if self._next_seed is not None:
                    env.reset(seed=self._next_seed)
                    self._next_seed += 1
                else:
                    env.reset()
            self._write(i, env)
        return infos

    def _write(self, i: int, env: CanastaGymEnv) -> None:
        """Game ``i``'s row: its learned seat's vector and mask (natively where it can)."""
        st = env._state
        assert st is not None
        lay = self.config.native_layout
        obs, mask = self._rows[i]
        c = st._c
        if lay is not None and type(c) is not _PyCore:
            if c.player == env.seat and not env._done:
                ids = _ext.observe(lay, c, env.seat, obs, mask)
                if st._ids is None:  # the state keeps them for the step that follows
                    st._ids = ids
            else:
                _ext.observe(lay, c, env.seat, obs, None)
                mask.fill(0)
            return
        got = env._observe(st, env.seat)
        obs[:] = got["observation"]
        mask[:] = got["action_mask"]

    def _observations(self) -> dict[str, Any]:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._masks.copy()}
        return {"observation": self._obs, "action_mask": self._masks}

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""
