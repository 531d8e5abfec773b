"""The vector environment: many games stepped together, every seat an agent (see
:class:`CanastaVectorEnv`)."""

from __future__ import annotations

import random
from typing import Any, NamedTuple, Optional, Sequence, Union

import numpy as np

from .._core import PH_HAND_OVER, native_rules, rules_for
from .._core._backend import _ext
from .._state import GameState
from .._fields import HandResult
from .._variant import Variant
from ._common import (ILLEGAL, Config, EnvError, fresh_seed, observation_space, score_values, state_space,
                      win_values)
from ._encode import Float32Array, Int8Array, StateEncoder

_SEEDS = 1 << 62
"""Seeds the native games take (a reset with a larger one plays the games in Python)."""


class VectorStep(NamedTuple):
    """What :meth:`CanastaVectorEnv.reset` and :meth:`CanastaVectorEnv.step` return: one row per
    game (``N`` games, ``P`` players, ``A`` action ids, ``size`` numbers per observation)."""

    observations: Float32Array
    """``(N, size)`` ``float32``: each game's observation vector for the seat to act next
    (:class:`~canasta.ObservationEncoder`'s vector, that seat seeing itself as seat 0). In a
    game whose episode ended in this step, the first decision of the next episode."""
    action_masks: Int8Array
    """``(N, A)`` ``int8``: 1 for the legal action ids of that seat (never all 0: every row is
    a decision to make)."""
    seats: Any
    """``(N,)`` ``int64``: the seat each row is for (the seat to act)."""
    rewards: Float32Array
    """``(N, P)`` ``float32``: what each seat earned in this step, by seat: its side's reward
    (nonzero when a hand or the episode ends, or for an illegal action)."""
    terminations: Any
    """``(N,)`` ``bool``: the episode ended in this step (the game was dealt anew)."""
    truncations: Any
    """``(N,)`` ``bool``: the episode was cut short in this step (``max_hands``; dealt anew)."""


class CanastaVectorEnv:
    """``num_envs`` games of one table stepped together, every seat an agent: a batched, numpy
    form of the PettingZoo environment for self-play training. Make one with
    :func:`canasta.envs.vector_env`, which documents the options.

    :meth:`reset` deals every game and :meth:`step` plays one action in every game (the action
    of the seat to act there), each returning a :class:`VectorStep` of numpy arrays: the next
    observations and masks, the seats they are for, the rewards of every seat, the
    terminations and truncations. A game whose episode ends is dealt anew in the same step
    (the next seed), so every row is always a decision to make; its final state is in
    :attr:`final_states`. The arrays are new ones at every call unless ``copy=False``, which
    returns the environment's own buffers, overwritten by the next call.

    The observation vectors and masks are exactly those of the other adapters
    (``encode_array(state.observation(seat))`` and ``state.legal_action_mask()``). Where the
    table runs on the native core, one native call steps every game, deals anew the ones
    whose episode ended and writes every row into the environment's arrays (Python records
    the hands that ended); otherwise the hands' segments are made for all the games at once
    with numpy, the rest of each row incrementally from the same seat's previous vector.
    """

    def __init__(self, variant: Union[Variant, str] = "hoyle-1950", players: Optional[int] = None,
                 num_envs: int = 16, *, episode: str = "hand", reward: str = "score", max_hands: int = 200,
                 illegal: str = "raise", illegal_reward: float = -1.0, copy: bool = True) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise EnvError(f"num_envs: expected a whole number of games, 1 or more, not {num_envs!r}")
        self.config = Config(variant, players, episode, reward, max_hands, illegal, illegal_reward)
        """The checked options."""
        cfg = self.config
        n = num_envs
        p = cfg.players
        enc = cfg.encoder
        self.num_envs = n
        """Games stepped together (``N``)."""
        self.players = p
        """Seats at each table (``P``)."""
        self.observation_size = enc.size
        """Numbers in an observation vector."""
        self.action_size = cfg.action_size
        """Action ids (``A``)."""
        self.copy = bool(copy)
        """Whether the arrays returned are new (True) or the environment's buffers (False)."""
        self.single_observation_space = observation_space(cfg)
        """The ``Dict`` space of one row (``observation``, ``action_mask``), as the other adapters'."""
        from gymnasium import spaces

        self.single_action_space = spaces.Discrete(cfg.action_size)
        """``Discrete(A)``: one game's action."""
        self.single_state_space = state_space(cfg)
        """The ``Box`` of one game's full state (:meth:`state`)."""
        self._encoders_made: list[StateEncoder] = []
        self._obs = np.zeros((n, enc.size), dtype=np.float32)
        self._masks = np.zeros((n, cfg.action_size), dtype=np.int8)
        self._seats = np.zeros(n, dtype=np.int64)
        self._rewards = np.zeros((n, p), dtype=np.float32)
        self._terms = np.zeros(n, dtype=bool)
        self._truncs = np.zeros(n, dtype=bool)
        self._omv = memoryview(self._obs.data).cast("B")  # the buffers' bytes, written row by row
        self._mmv = memoryview(self._masks.data).cast("B")
        self._row = 4 * enc.size
        self._states: list[Optional[GameState]] = [None] * n
        self._hands_done = [0] * n
        self._next_seed: Optional[int] = None
        self.deal_seeds: list[Optional[int]] = [None] * n
        """The seed each game was dealt with."""
        self.final_states: list[Optional[GameState]] = [None] * n
        """For each game whose episode ended in the last step, its final state (else None)."""
        self.hand_results: list[list[HandResult]] = [[] for _ in range(n)]
        """Each game's finished hands in its current episode."""
        self.final_results: list[Optional[list[HandResult]]] = [None] * n
        """For each game whose episode ended in the last step, the results of its hands (else None)."""
        fast = cfg.fast
        self._plain = fast.plain
        self._at_head = fast.at_head_end
        self._at_known = fast.at_known
        self._at_pile = fast.at_pile
        self._codes = np.array(enc.card_codes, dtype=np.intp)
        self._rel = np.array([[(s + k) % p for k in range(1, p)] for s in range(p)], dtype=np.intp)
        self._nc = len(enc.card_codes)
        self._native: Any = None
        """The native games (None: the table plays on the Python core, see :meth:`_native_step`)."""
        self._native_on = False
        """Whether the games dealt at the last reset are the native ones."""
        self._ended: list[int] = []
        """The games whose episode ended in the last native step."""
        self._actions = np.zeros(n, dtype=np.int64)
        if cfg.native_layout is not None:
            R = rules_for(cfg.variant, p)
            self._native = _ext.vec_new(native_rules(R), R, cfg.native_layout, n, cfg.episode == "game",
                                        cfg.reward == "win", cfg.max_hands, ILLEGAL.index(cfg.illegal),
                                        cfg.illegal_reward)

    # ------------------------------------------------------------------ the API

    @property
    def states(self) -> list[GameState]:
        """Each game's current :class:`~canasta.GameState` (every card: for analysis)."""
        if self._native_on:
            return [GameState(c) for c in _ext.vec_get(self._native)]
        if self._states[0] is None:
            raise RuntimeError("call reset() first")
        return list(self._states)  # type: ignore[arg-type]

    def reset(self, seed: Optional[int] = None) -> VectorStep:
        """Deal every game: game ``i`` gets seed ``seed + i`` (``canasta.new_game(variant,
        players, seed=seed + i)``), and each later episode the next seed not yet dealt
        (``seed + N``, ``seed + N + 1``, ... in the order the episodes end). Without a seed,
        the first one comes from the operating system's entropy."""
        self._next_seed = int(seed) if seed is not None else fresh_seed()
        n = self.num_envs
        self._native_on = self._native is not None and -_SEEDS < self._next_seed < _SEEDS
        if self._native_on:
            self._ended = []
            _ext.vec_step(self._native, None, self._next_seed, self._obs, self._masks, self._seats, self._rewards,
                          self._terms, self._truncs)
            self.deal_seeds = [self._next_seed + i for i in range(n)]
            self._next_seed += n
            self.final_states = [None] * n
            self.final_results = [None] * n
            self.hand_results = [[] for _ in range(n)]
            self._states = [None] * n
            return self._result()
        for i in range(self.num_envs):
            self._deal(i)
            self.final_states[i] = None
            self.final_results[i] = None
        self._rewards.fill(0.0)
        self._terms.fill(False)
        self._truncs.fill(False)
        self._observe()
        return self._result()

    def step(self, actions: Any) -> VectorStep:
        """Play ``actions[i]`` (an action id) in game ``i``, for the seat to act there.

        An id that is not legal raises :class:`~canasta.IllegalActionError` (``illegal="raise"``,
        the default; no game has changed then only if it was the first one's), costs
        ``illegal_reward`` and changes nothing (``"penalty"``), or costs it and ends the episode
        (``"terminate"``)."""
        n = self.num_envs
        if self._native_on:
            return self._native_step(actions)
        states = self._states
        if states[0] is None:
            raise RuntimeError("call reset() before step()")
        if len(actions) != n:
            raise EnvError(f"actions: expected one action id per game ({n}), not {len(actions)}")
        ids = actions.tolist() if isinstance(actions, np.ndarray) else [int(a) for a in actions]
        rewards = self._rewards
        rewards.fill(0.0)
        terms = self._terms
        truncs = self._truncs
        terms.fill(False)
        truncs.fill(False)
        finals = self.final_states
        cfg = self.config
        for i in range(n):
            st = states[i]
            assert st is not None
            finals[i] = None
            self.final_results[i] = None
            try:
                nxt = st.apply(ids[i])
            except ValueError:  # IllegalActionError, or an id out of range
                if cfg.illegal == "raise":
                    raise
                rewards[i, st._c.player] += cfg.illegal_reward
                if cfg.illegal == "terminate":
                    terms[i] = True
                    finals[i] = st
                    self.final_results[i] = self.hand_results[i]
                    self._deal(i)
                continue
            if nxt._c.phase >= PH_HAND_OVER:
                self._hand_over(i, nxt)
            else:
                states[i] = nxt
        self._observe()
        return self._result()

    def state(self) -> Float32Array:
        """Every game's full state (``(N, state size)``, :class:`~canasta.envs.StateLayout`),
        for a centralised critic."""
        states = self.states
        lay = self.config.state_layout
        return np.stack([lay.encode(st, enc) for st, enc in zip(states, self._encoders)])

    @property
    def _encoders(self) -> list[StateEncoder]:
        """Each game's incremental Python encoder (made when first needed: the native games
        need none)."""
        if not self._encoders_made:
            self._encoders_made = [StateEncoder(self.config.encoder) for _ in range(self.num_envs)]
        return self._encoders_made

    def sample_actions(self, rng: Optional[np.random.Generator] = None) -> Any:
        """A uniformly random legal action id for every game (``(N,)`` ``int64``), from the
        current masks: what a random agent plays."""
        rng = rng if rng is not None else np.random.default_rng()
        noise = rng.random(self._masks.shape, dtype=np.float32)
        return np.argmax(noise * self._masks, axis=1)

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ internals

    def _native_step(self, actions: Any) -> VectorStep:
        """:meth:`step` on the native games: one call plays every game, deals anew the ones
        whose episode ended and writes every row; the hands that ended come back to be
        recorded here."""
        n = self.num_envs
        if len(actions) != n:
            raise EnvError(f"actions: expected one action id per game ({n}), not {len(actions)}")
        acts = actions
        if not (type(acts) is np.ndarray and acts.dtype == np.int64 and acts.flags.c_contiguous and acts.ndim == 1):
            acts = self._actions
            try:
                acts[:] = actions
            except (TypeError, ValueError, OverflowError):
                raise EnvError(f"actions: expected one action id per game, not {actions!r}") from None
        finals = self.final_states
        results = self.final_results
        for i in self._ended:
            finals[i] = None
            results[i] = None
        self._ended = []
        events = _ext.vec_step(self._native, acts, None, self._obs, self._masks, self._seats, self._rewards,
                               self._terms, self._truncs)
        for ev in events:
            i = ev[0]
            if type(ev[1]) is int:  # an illegal action, illegal="raise": the error the state gives
                GameState(_ext.vec_get(self._native)[i]).apply(int(acts[i]))
                raise AssertionError("the native games refused a legal action")  # pragma: no cover
            _, core, hand_over, ended, seed = ev
            st = GameState(core)
            if hand_over:
                self.hand_results[i].append(st.result)
            if ended:
                finals[i] = st
                results[i] = self.hand_results[i]
                self.hand_results[i] = []
                self.deal_seeds[i] = seed
                self._next_seed = max(self._next_seed or 0, seed + 1)
                self._ended.append(i)
        return self._result()

    def _deal(self, i: int) -> None:
        assert self._next_seed is not None
        seed = self._next_seed
        self._next_seed += 1
        self.deal_seeds[i] = seed
        self._states[i] = self.config.deal(seed)
        self._hands_done[i] = 0
        self.hand_results[i] = []

    def _hand_over(self, i: int, st: GameState) -> None:
        cfg = self.config
        assert st.result is not None
        self.hand_results[i].append(st.result)
        self._hands_done[i] += 1
        values: Optional[tuple[float, ...]] = None
        if cfg.reward == "score":
            values = score_values(st)
        end = cfg.episode == "hand" or st.is_game_over
        truncate = not end and self._hands_done[i] >= cfg.max_hands
        if end and cfg.reward == "win":
            values = win_values(st)
        if values is not None:
            row = self._rewards[i]
            side_of = cfg.side_of
            for s in range(self.players):
                row[s] += values[side_of[s]]
        if end or truncate:
            (self._terms if end else self._truncs)[i] = True
            self.final_states[i] = st
            self.final_results[i] = self.hand_results[i]
            self._deal(i)
            return
        self._states[i] = st.next_hand()

    def _observe(self) -> None:
        """Write every game's row: the observation of the seat to act, and its mask."""
        omv = self._omv
        mmv = self._mmv
        row = self._row
        a = self.action_size
        at_known = self._at_known
        at_pile = self._at_pile
        seats = self._seats
        cores = []
        for i, (st, enc) in enumerate(zip(self._states, self._encoders)):
            assert st is not None
            c = st._c
            seat = c.player
            seats[i] = seat
            cores.append(c)
            v = enc.table(c, seat)
            base = i * row
            omv[base + at_known: base + at_pile] = v.mv[at_known:at_pile]
            omv[base + at_pile: base + row] = enc.tail(c, seat)
            mmv[i * a: (i + 1) * a] = st.legal_action_mask()
        self._heads(cores)

    def _heads(self, cores: list[Any]) -> None:
        """The hands' segments of every row at once (``own_hand`` to ``other_down_sizes``)."""
        n = self.num_envs
        p = self.players
        seats = self._seats
        hands = np.frombuffer(b"".join([h for c in cores for h in c.hands]), dtype=np.uint8).reshape(n, p, -1)
        rows = np.arange(n)
        counts = hands[:, :, :15]
        sizes = counts.sum(axis=2)
        own = hands[rows, seats]
        obs = self._obs
        nc = self._nc
        obs[:, :nc] = own[:, self._codes] if nc != own.shape[1] else own
        rel = self._rel[seats]
        at = nc
        if self.config.encoder.down_hands:
            downs = np.frombuffer(b"".join([h for c in cores for h in c.downs]),
                                  dtype=np.uint8).reshape(n, p, -1)[:, :, :15].sum(axis=2)
            obs[:, at] = downs[rows, seats]
            at += 1
            obs[:, at: at + p - 1] = sizes[rows[:, None], rel]
            at += p - 1
            obs[:, at: at + p - 1] = downs[rows[:, None], rel]
        else:
            obs[:, at: at + p - 1] = sizes[rows[:, None], rel]

    def _result(self) -> VectorStep:
        if self.copy:
            return VectorStep(self._obs.copy(), self._masks.copy(), self._seats.copy(), self._rewards.copy(),
                              self._terms.copy(), self._truncs.copy())
        return VectorStep(self._obs, self._masks, self._seats, self._rewards, self._terms, self._truncs)
