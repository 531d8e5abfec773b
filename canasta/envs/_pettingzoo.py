"""The PettingZoo AEC environment (see :func:`canasta.envs.pettingzoo_env`)."""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv

from .._core import PH_HAND_OVER
from .._core import Core as _PyCore
from .._core._backend import _ext
from .._state import GameState
from .._fields import HandResult
from .._variant import Variant
from ._common import (Config, EnvError, describe, fresh_seed, observe_arrays, observation_space, score_values,
                      state_space, win_values)
from ._encode import Float32Array, Int8Array

ObsDict = dict[str, Union[Float32Array, Int8Array]]

_empty, _zeros = np.empty, np.zeros
_F32, _I8 = np.dtype(np.float32), np.dtype(np.int8)
_observe: Any = _ext.observe if _ext is not None else None


class CanastaAECEnv(AECEnv):
    """Canasta as a PettingZoo AEC environment; make one with :func:`canasta.envs.pettingzoo_env`,
    which documents the options.

    The agents are ``player_0`` ... ``player_{n-1}``, one per seat. The agent to act
    (``agent_selection``) is always the seat to act in the game (``state.current_player``): a
    turn is several decisions in a row by the same agent, and the partner answers "may I go
    out?" in the middle of it. Each observation is ``{"observation": float32 vector,
    "action_mask": int8 mask}``; the mask is all zeros for an agent that is not to act.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "canasta_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, variant: Union[Variant, str] = "hoyle-1950", players: Optional[int] = None, *,
                 episode: str = "hand", reward: str = "score", max_hands: int = 200,
                 illegal: str = "terminate", illegal_reward: float = -1.0,
                 render_mode: Optional[str] = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EnvError(f"render_mode: expected None, 'human' or 'ansi', not {render_mode!r}")
        self.config = Config(variant, players, episode, reward, max_hands, illegal, illegal_reward)
        """The checked options."""
        cfg = self.config
        self.render_mode = render_mode
        """``None``, ``"human"`` (:meth:`render` prints) or ``"ansi"`` (:meth:`render` returns the text)."""
        self.possible_agents = [f"player_{s}" for s in range(cfg.players)]
        """Every agent, by seat: ``player_0`` is seat 0."""
        self.agents: list[str] = []
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self._space = observation_space(cfg)
        self.observation_spaces = {a: self._space for a in self.possible_agents}
        """One observation space per agent (the same object)."""
        action = spaces.Discrete(cfg.action_size)
        self.action_spaces = {a: action for a in self.possible_agents}
        """One action space per agent: ``Discrete(size of the variant's action space)``."""
        self.state_space = state_space(cfg)
        """The ``Box`` of :meth:`state` (:class:`~canasta.envs.StateLayout`)."""
        self.state_layout = cfg.state_layout
        """The layout of :meth:`state`: its segments and version."""
        self._layout = cfg.native_layout
        self._size = cfg.encoder.size
        self._action_size = cfg.action_size
        self._state: Optional[GameState] = None
        self._next_seed: Optional[int] = None
        self._dirty = False
        self._over = False
        self.deal_seed: Optional[int] = None
        """The seed of the game being played (``canasta.new_game(variant, players, seed=...)``)."""
        self.hand_results: list[HandResult] = []
        """The results of the hands finished in this episode, in order."""

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of ``agent`` (the same object for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of ``agent``: ``Discrete(n)`` over the dense action ids."""
        return self.action_spaces[agent]

    @property
    def game_state(self) -> GameState:
        """The current :class:`~canasta.GameState` (every card: for analysis, not for agents)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def agent_of(self, seat: int) -> str:
        """The agent name of ``seat``."""
        return self.possible_agents[seat]

    # ------------------------------------------------------------------ the AEC API

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        """Deal a new episode: ``seed`` deals ``canasta.new_game(variant, players, seed=seed)``;
        each later reset without a seed deals the next seed (``seed + 1``, ...). Without any
        seed, the first one comes from the operating system's entropy. ``options`` is unused."""
        if seed is not None:
            self._next_seed = int(seed)
        elif self._next_seed is None:
            self._next_seed = fresh_seed()
        self.deal_seed = self._next_seed
        self._next_seed += 1
        st = self._state = self.config.deal(self.deal_seed)
        self.hand_results = []
        self._over = False
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._dirty = False
        self._skip_agent_selection = None
        cur = st.current_player
        assert cur is not None
        self.agent_selection = self.possible_agents[cur]

    def state(self) -> Float32Array:
        """The full state, every card in it, as one ``float32`` vector (for a centralised critic):
        each seat's observation vector, then the stock, the whole pile, a pile set aside and the
        down hands, as :class:`~canasta.envs.StateLayout` (``state_layout``) lays them out.
        Versioned by :data:`~canasta.envs.STATE_LAYOUT_VERSION`. A new array."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        cfg = self.config
        return cfg.state_layout.encode(self._state, cfg.fast)

    def observe(self, agent: str) -> ObsDict:
        """``{"observation": the encoder's vector for the agent's seat, "action_mask": the legal
        ids}``, both new arrays. The mask is all zeros when the agent has no action: it is not
        the agent to act, or the episode is over (the agents' last observations); nothing can
        be sampled from it then (a masked softmax over it divides by zero)."""
        st = self._state
        if st is None:
            raise RuntimeError("call reset() first")
        seat = self._seat[agent]
        c = st._c
        lay = self._layout
        if lay is not None and type(c) is not _PyCore:  # observe_arrays' native path, inlined
            vec = _empty(self._size, _F32)
            if c.player == seat and not self._over:
                mask = _empty(self._action_size, _I8)
                ids = _observe(lay, c, seat, vec, mask)
                if st._ids is None:  # the state keeps them for the step that follows
                    st._ids = ids
            else:
                _observe(lay, c, seat, vec, None)
                mask = _zeros(self._action_size, _I8)
            return {"observation": vec, "action_mask": mask}
        vec, mask = observe_arrays(self.config, st, seat, c.player == seat and not self._over)
        return {"observation": vec, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Optional[ObsDict], float, bool, bool, dict[str, Any]]:
        """``(observation, cumulative reward, terminated, truncated, info)`` of the agent to act
        (``agent_selection``); the observation is None when ``observe`` is false."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        """Play ``action`` (a dense id) for ``agent_selection``; ``None`` for an agent that is
        terminated or truncated (which removes it)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self._state
        assert st is not None
        if self._dirty:
            self._clear_rewards()
            self._dirty = False
        aid = action if type(action) is int else int(action)
        c: Any = st._c  # (the native core's state, where it is not the Python core's)
        ids = st._ids
        try:
            if type(c) is _PyCore:
                nxt = st.apply(aid)
            elif ids is not None and aid in ids:  # GameState.apply's id path, inlined
                nxt = GameState(c.apply_legal(aid))
            else:
                # the native core checks the id itself (the state's legal ids never made)
                try:
                    nxt = GameState(c.apply(aid))
                except ValueError:  # refused: the state's own error, as below
                    nxt = st.apply(aid)
        except ValueError:  # IllegalActionError, or an id out of range
            if self.config.illegal == "raise":
                raise
            self._illegal(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        c = nxt._c
        if c.phase >= PH_HAND_OVER:  # the hand is over (or the game)
            self._hand_over(nxt)
        else:
            self._state = nxt
            self.agent_selection = self.possible_agents[c.player]
        if self.render_mode == "human":
            self.render()

    def _hand_over(self, st: GameState) -> None:
        cfg = self.config
        assert st.result is not None
        self.hand_results.append(st.result)
        values: Optional[tuple[float, ...]] = None
        if cfg.reward == "score":
            values = score_values(st)
        end = cfg.episode == "hand" or st.is_game_over
        truncate = not end and len(self.hand_results) >= cfg.max_hands
        if end and cfg.reward == "win":
            values = win_values(st)
        if values is not None:
            side_of = cfg.side_of
            rewards = self.rewards
            for s, a in enumerate(self.possible_agents):
                rewards[a] = values[side_of[s]]
            self._dirty = True
            self._accumulate_rewards()
        if end or truncate:
            self._state = st
            self._over = True
            flags = self.truncations if truncate else self.terminations
            for a in self.agents:
                flags[a] = True
            self._deads_step_first()
            return
        nxt = self._state = st.next_hand()
        cur = nxt.current_player
        assert cur is not None
        self.agent_selection = self.possible_agents[cur]

    def _illegal(self, agent: str) -> None:
        cfg = self.config
        self._cumulative_rewards[agent] = 0.0
        self.rewards[agent] = cfg.illegal_reward
        self._dirty = True
        self._accumulate_rewards()
        if cfg.illegal == "terminate":
            self._over = True
            for a in self.agents:
                self.terminations[a] = True
            self._deads_step_first()

    def render(self) -> Optional[str]:
        """The table as every player sees it (no hidden card): printed (``"human"``), or returned
        (``"ansi"``); with no render mode, a warning and None."""
        if self.render_mode is None:
            logger.warn("render() called without a render_mode; "
                        "pass render_mode='human' or 'ansi' to pettingzoo_env()")
            return None
        if self._state is None:
            text = "(not reset yet)"
        else:
            text = describe(self._state)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""
