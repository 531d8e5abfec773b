"""The Gymnasium single-agent environment (see :func:`canasta.envs.gymnasium_env`)."""

from __future__ import annotations

import inspect
import random
from collections.abc import Mapping
from typing import Any, Callable, Iterator, Optional, Sequence, SupportsFloat, Union

import gymnasium
import numpy as np
from gymnasium import logger, spaces
from gymnasium.utils import seeding

from .._actions import Action
from .._bots import GreedyBot
from .._core import PH_HAND_OVER
from .._core import Core as _PyCore
from .._core import native_rules, rules_for
from .._core._backend import _ext
from .._playout import _planner, builtin_kind, seed_key
from .._state import GameState
from .._fields import HandResult
from .._variant import Variant
from ._common import (Config, EnvError, cards_text, describe, observation_space, observe_arrays, score_values,
                      seats_spec, win_values)
from ._encode import Float32Array, Int8Array

ObsDict = dict[str, Union[Float32Array, Int8Array]]
Move = Callable[[GameState], Union[Action, str, int]]

_empty, _zeros = np.empty, np.zeros
_F32, _I8 = np.dtype(np.float32), np.dtype(np.int8)

_MAX_SKIPPED = 100
"""Games a reset may skip because they end before the learned seat gets to act."""

_SEEDS = 1 << 62
"""Deal seeds the native environment takes (a larger one plays the episode in Python)."""

_ILLEGAL = ("raise", "penalty", "terminate")

_gym_step = None if _ext is None else _ext.gym_step


class LazyObservation(Mapping[str, Any]):
    """What a callable opponent is given: the observation of its seat in the environment's form
    (``{"observation": ..., "action_mask": ...}``), computed only when first read."""

    __slots__ = ("_env", "_state", "_seat", "_data")

    def __init__(self, env: CanastaGymEnv, state: GameState, seat: int) -> None:
        self._env = env
        self._state = state
        self._seat = seat
        self._data: Optional[ObsDict] = None

    def __getitem__(self, key: str) -> Any:
        data = self._data
        if data is None:
            data = self._data = self._env._observe(self._state, self._seat)
        return data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(("observation", "action_mask"))

    def __len__(self) -> int:
        return 2


class CanastaGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """Canasta for one learning agent: it plays seat ``seat``, bots play the other seats.
    Make one with :func:`canasta.envs.gymnasium_env` or
    ``gymnasium.make("canasta/Canasta-v0", variant=..., players=..., ...)`` (same options).

    * Observation: ``{"observation": float32 vector, "action_mask": int8 mask}``, the vector of
      :class:`~canasta.ObservationEncoder` for the learned seat and the mask of its legal ids
      (all zeros once the episode is over). :meth:`action_masks` gives the mask as booleans
      (the method sb3-contrib's ``MaskablePPO`` calls).
    * Action: ``Discrete(n)`` over the variant's dense action ids.
    * A step plays the agent's action, then the bots until the agent is to act again or the
      episode ends; the reward is what the agent's side earned meanwhile (rewards earned
      before its first decision of an episode come with its first step).
    * An illegal action (any id is in the action space; few are legal at a time): by default
      (``illegal="penalty"``) it changes nothing and the step returns ``illegal_reward`` with
      ``info["illegal_action"] = True``; ``"terminate"`` also ends the episode; ``"raise"``
      raises :class:`~canasta.IllegalActionError`.
    * ``reset(seed=s)`` deals ``canasta.new_game(variant, players, seed=s)`` (later resets
      without a seed deal ``s + 1``, ...); the bots made by the environment are seeded from
      the deal's seed, so an episode is reproducible. ``info["deal_seed"]`` says which.
    * A seat can sit out a deal (five-player hoyle-1950: four of the five play each hand).
      An episode of one hand is then the first hand of the game in which the learned seat
      plays: the bots play the hands before it during ``reset``, and their scores are no
      reward (a game episode counts them: they come with the first step).
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}
    _rng: Optional[np.random.Generator] = None
    _rng_seed: Optional[int] = None

    def __init__(self, variant: Union[Variant, str] = "hoyle-1950", players: Optional[int] = None, *,
                 seat: int = 0, opponents: Union[object, Sequence[object]] = "random",
                 episode: str = "hand", reward: str = "score", max_hands: int = 200,
                 illegal: str = "penalty", illegal_reward: float = -1.0,
                 render_mode: Optional[str] = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EnvError(f"render_mode: expected None, 'human' or 'ansi', not {render_mode!r}")
        self.config = Config(variant, players, episode, reward, max_hands, illegal, illegal_reward)
        """The checked options."""
        cfg = self.config
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < cfg.players:
            raise EnvError(f"seat: expected a seat from 0 to {cfg.players - 1}, not {seat!r}")
        self.seat = seat
        """The learned seat."""
        self._specs = seats_spec(opponents, cfg.players, seat)
        self.render_mode = render_mode
        self.observation_space = observation_space(cfg)
        self.action_space = spaces.Discrete(cfg.action_size)
        self._st: Optional[GameState] = None
        self._next_seed: Optional[int] = None
        self._moves: list[Optional[Move]] = []
        self._done = False
        self._terminated = False
        self._truncated = False
        self._carry = 0.0
        self._acted = False
        self._native_bots: Any = None
        self._bot_kinds: tuple[int, ...] = ()
        self._layout = cfg.native_layout
        self._size = cfg.encoder.size
        self._action_size = cfg.action_size
        self._planner: Any = None
        self._gym: Any = None
        """The native game (``native/src/gymenv.rs``), where the core is native and every seat
        but the learned one a built-in bot; made at the first reset."""
        self._on = False
        """Whether the episode is played by ``_gym`` (one native call a step)."""
        self._gym_st: Optional[GameState] = None
        """The native game's position as a state, once asked for (None: not made since it changed)."""
        self.deal_seed: Optional[int] = None
        """The seed of the game being played."""
        self._results: list[HandResult] = []
        self._pending: list[Any] = []
        """The native positions of the hands finished since ``hand_results`` was last read
        (a result is made only when read: about 35 µs a hand)."""

    @property
    def game_state(self) -> GameState:
        """The current :class:`~canasta.GameState` (every card: for analysis, not for the agent)."""
        st = self._state
        if st is None:
            raise RuntimeError("call reset() first")
        return st

    @property
    def _state(self) -> Optional[GameState]:
        if self._on:  # the native game's position (kept until it changes)
            st = self._gym_st
            if st is None:
                st = self._gym_st = GameState(_ext.gym_state(self._gym))
            return st
        return self._st

    @_state.setter
    def _state(self, st: Optional[GameState]) -> None:
        self._st = st

    @property
    def hand_results(self) -> list[HandResult]:
        """The results of the hands finished in this episode, in order."""
        if self._pending:
            self._results.extend([_result(h) for h in self._pending])
            self._pending = []
        return self._results

    @hand_results.setter
    def hand_results(self, results: list[HandResult]) -> None:
        self._results = results
        self._pending = []

    @property
    def _np_random(self) -> Optional[np.random.Generator]:
        # Gymnasium's generator (``np_random``), seeded at ``reset(seed=s)`` as ``Env.reset``
        # seeds it, but made only when read: making one costs about 20 µs, several steps' time
        rng = self._rng
        if rng is None and self._rng_seed is not None:
            rng, _ = seeding.np_random(self._rng_seed)
            self._rng, self._rng_seed = rng, None
        return rng

    @_np_random.setter
    def _np_random(self, rng: Optional[np.random.Generator]) -> None:
        self._rng, self._rng_seed = rng, None

    # ------------------------------------------------------------------ the Gymnasium API

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[dict[str, Any]] = None) -> tuple[ObsDict, dict[str, Any]]:
        """Deal a new episode and play the bots up to the agent's first decision; returns
        ``(observation, {"deal_seed": ...})``. ``options`` is unused."""
        if seed is not None:  # Gymnasium's reset, its generator made when first read
            if type(seed) is not int or seed < 0:
                seeding.np_random(seed)  # (its error)
            self._rng = None
            self._rng_seed = self._np_random_seed = seed
        if seed is not None:
            self._next_seed = int(seed)
        elif self._next_seed is None:
            self._next_seed = int(self.np_random.integers(0, 2**31))
        gym = self._native_env()
        if gym is not None and -_SEEDS < self._next_seed < _SEEDS - _MAX_SKIPPED:
            vec = _empty(self._size, _F32)
            mask = _empty(self._action_size, _I8)
            self._on = False
            self._st = self._gym_st = None
            self.deal_seed, hands = _ext.gym_reset(gym, self._next_seed, vec, mask)
            self._on = True
            self._next_seed = self.deal_seed + 1
            self._results = []
            self._pending = list(hands)
            self._done = self._terminated = self._truncated = False
            if self.render_mode == "human":
                self.render()
            return {"observation": vec, "action_mask": mask}, {"deal_seed": self.deal_seed}
        self._on = False
        for _ in range(_MAX_SKIPPED):
            deal_seed = self._next_seed
            self._next_seed += 1
            self._start(deal_seed)
            self._carry = self._advance()
            if not self._done:
                break
        else:  # pragma: no cover - no game ends before every seat has played
            raise RuntimeError(f"seat {self.seat} did not get to act in {_MAX_SKIPPED} games")
        if self.render_mode == "human":
            self.render()
        assert self._state is not None
        return self._observe(self._state, self.seat), {"deal_seed": self.deal_seed}

    def step(self, action: Any) -> tuple[ObsDict, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the agent's ``action`` (an id), then the bots up to its next decision."""
        if self._on:  # one native call: the action, the bots, the reward, the vector and mask
            aid = action if type(action) is int else int(action)
            vec = _empty(self._size, _F32)
            mask = _empty(self._action_size, _I8)
            got = _gym_step(self._gym, aid, vec, mask)  # type: ignore[misc]
            if got is None:  # an illegal action under illegal="raise": GameState.apply's error
                self.game_state.apply(aid)
                raise RuntimeError(f"action {aid} was refused but is legal")  # pragma: no cover
            reward, term, trunc, illegal, hands = got
            if hands:
                self._pending.extend(hands)
            if term or trunc:
                self._done = True
                self._terminated = term
                self._truncated = trunc
            if illegal:
                return {"observation": vec, "action_mask": mask}, reward, term, False, {"illegal_action": True}
            self._gym_st = None
            if self.render_mode == "human":
                self.render()
            return {"observation": vec, "action_mask": mask}, reward, term, trunc, {}
        st = self._state
        if st is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        reward, illegal = self._act(action)
        if illegal:
            return self._observe(st, self.seat), reward, self._terminated, False, {"illegal_action": True}
        if self.render_mode == "human":
            self.render()
        assert self._state is not None
        return self._observe(self._state, self.seat), reward, self._terminated, self._truncated, {}

    def _act(self, action: Any) -> tuple[float, bool]:
        """Play the agent's ``action`` and the bots after it: (the reward, whether the action
        was illegal and changed nothing)."""
        st = self._state
        assert st is not None
        aid = action if type(action) is int else int(action)
        reward = self._carry
        self._carry = 0.0
        c: Any = st._c  # (the native core's state, where it is not the Python core's)
        ids = st._ids
        try:
            if type(c) is not _PyCore and ids is not None and aid in ids:  # GameState.apply's id path
                self._state = GameState(c.apply_legal(aid))
            else:
                self._state = st.apply(aid)
            self._acted = True
        except ValueError:  # IllegalActionError, or an id out of range
            cfg = self.config
            if cfg.illegal == "raise":
                raise
            if cfg.illegal == "terminate":
                self._done = self._terminated = True
            return reward + cfg.illegal_reward, True
        return reward + self._advance(), False

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent as a boolean array (all False once the episode is over)."""
        if self._on:  # the legal ids of the last observation, natively
            mask = _zeros(self._action_size, np.bool_)
            _ext.gym_mask(self._gym, mask)
            return mask
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._observe(self._state, self.seat)["action_mask"].astype(bool)

    def render(self) -> Optional[str]:
        """The table as every player sees it (no hidden card), and the agent's hand: printed
        (``"human"``) or returned (``"ansi"``); with no render mode, a warning and None."""
        if self.render_mode is None:
            logger.warn("render() called without a render_mode; pass render_mode='human' or 'ansi'")
            return None
        if self._state is None:
            text = "(not reset yet)"
        else:
            hand = self._state.hands[self.seat]
            text = describe(self._state) + f"\n  seat {self.seat} (learned) holds: {cards_text(hand)}"
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ internals

    def _observe(self, st: GameState, seat: int) -> ObsDict:
        c = st._c
        lay = self._layout
        if lay is not None and type(c) is not _PyCore:  # observe_arrays' native path, inlined
            vec = _empty(self._size, _F32)
            if c.player == seat and not self._done:
                mask = _empty(self._action_size, _I8)
                ids = _ext.observe(lay, c, seat, vec, mask)
                if st._ids is None:  # the state keeps them for the step that follows
                    st._ids = ids
            else:
                _ext.observe(lay, c, seat, vec, None)
                mask = _zeros(self._action_size, _I8)
            return {"observation": vec, "action_mask": mask}
        vec, mask = observe_arrays(self.config, st, seat, c.player == seat and not self._done)
        return {"observation": vec, "action_mask": mask}

    def _native_env(self) -> Any:
        """The native game (made on first use), or None where the episode plays in Python: the
        Python core, or a seat played by something other than a built-in bot."""
        if self._gym is None:
            cfg = self.config
            kinds = [-1 if spec is None else builtin_kind(spec) for spec in self._specs]
            if cfg.native_layout is None or any(k is None for k in kinds):
                self._gym = False
                return None
            self._bot_kinds = tuple(-1 if k is None else k for k in kinds)
            probe = cfg.deal(0)
            if type(probe._c) is _PyCore:  # pragma: no cover - a native layout has a native core
                self._gym = False
                return None
            R = rules_for(cfg.variant, cfg.players)
            self._native_bots = self._gym = _ext.gym_new(
                native_rules(R), R, cfg.native_layout, self.seat, self._bot_kinds, cfg.episode == "game",
                cfg.reward == "win", cfg.max_hands, _ILLEGAL.index(cfg.illegal), float(cfg.illegal_reward),
                _planner(probe))
        return self._gym or None

    def _start(self, deal_seed: int) -> None:
        self.deal_seed = deal_seed
        self._state = self.config.deal(deal_seed)
        self.hand_results = []
        self._acted = False
        self._done = self._terminated = self._truncated = False
        # the built-in bots play natively where the game does, each seeded as its Python twin
        kinds = [-1 if spec is None else builtin_kind(spec) for spec in self._specs]
        self._bot_kinds = tuple(-1 if k is None else k for k in kinds)
        self._native_bots = None
        native = type(self._state._c) is not _PyCore and any(k >= 0 for k in self._bot_kinds)
        if native:
            self._native_bots = _ext.seat_bots(self._bot_kinds,
                                               tuple(seed_key(deal_seed * 1000 + s) for s in range(len(kinds))))
            if self._planner is None:
                self._planner = _planner(self._state)
        # (a seat its native bot plays needs no Python mover: making one costs 20 µs a deal)
        self._moves = [None if spec is None or (native and self._bot_kinds[s] >= 0)
                       else self._mover(spec, deal_seed * 1000 + s) for s, spec in enumerate(self._specs)]

    def _mover(self, spec: object, seed: int) -> Move:
        if spec == "random":
            choice = random.Random(seed).choice
            return lambda st: choice(st.legal_action_ids())
        if spec == "greedy":
            return _bot_move(_greedy(seed, self.config.variant))
        if isinstance(spec, type):
            return _bot_move(spec(seed))
        if hasattr(spec, "choose"):
            return _bot_move(spec)
        f: Callable[..., Any] = spec  # type: ignore[assignment]

        def move(st: GameState) -> Union[Action, str, int]:
            cur = st.current_player
            assert cur is not None
            return _action(f(LazyObservation(self, st, cur), st.legal_action_ids()))

        return move

    def _advance(self) -> float:
        """Play the bots until the agent is to act or the episode ends; the agent's reward."""
        cfg = self.config
        side = cfg.side_of[self.seat]
        st = self._state
        assert st is not None
        seat = self.seat
        moves = self._moves
        native = self._native_bots
        kinds = self._bot_kinds
        reward = 0.0
        while True:
            c = st._c
            if c.phase >= PH_HAND_OVER:  # the hand is over (or the game)
                assert st.result is not None
                # a hand before the agent's first decision is not part of a one-hand episode
                warmup = not self._acted and cfg.episode == "hand"
                if not warmup:
                    self.hand_results.append(st.result)
                    if cfg.reward == "score":
                        reward += score_values(st)[side]
                end = (cfg.episode == "hand" and not warmup) or st.is_game_over
                if end or len(self.hand_results) >= cfg.max_hands:
                    if end and cfg.reward == "win":
                        reward += win_values(st)[side]
                    self._done = True
                    self._terminated = end
                    self._truncated = not end
                    break
                st = st.next_hand()
                continue
            p = c.player
            if p == seat:
                break
            if native is not None and kinds[p] >= 0:
                st = GameState(_ext.play_to(c, native, self._planner))
                continue
            move = moves[p]
            assert move is not None
            st = st.apply(move(st))
        self._state = st
        return reward


def _result(core: Any) -> HandResult:
    """The result of a finished hand's native position."""
    result = GameState(core).result
    assert result is not None
    return result


def _action(a: Any) -> Union[Action, str, int]:
    """An opponent's answer as ``GameState.apply`` takes it (numpy integers become ints)."""
    if isinstance(a, (Action, str, int)):
        return a
    return int(a)


def _bot_move(bot: Any) -> Move:
    """Ask ``bot`` for its move as :func:`canasta.play_game` does: ``choose(state)``, or, for a
    bot of the observation protocol, ``choose(observation, legal_actions)``."""
    choose = bot.choose
    if _positional(choose) >= 2:
        def move(st: GameState) -> Union[Action, str, int]:
            cur = st.current_player
            assert cur is not None
            return _action(choose(st.observation(cur), st.legal_actions()))

        return move
    return lambda st: _action(choose(st))


def _greedy(seed: int, variant: Variant) -> Any:
    """A :class:`~canasta.GreedyBot` for ``variant`` (told the variant where it takes it)."""
    if "variant" in inspect.signature(GreedyBot).parameters:
        return GreedyBot(seed, variant=variant)  # type: ignore[call-arg, unused-ignore]
    return GreedyBot(seed)


def _positional(f: Callable[..., Any]) -> int:
    """How many positional parameters ``f`` requires."""
    try:
        params = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        return 1
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for p in params if p.kind in kinds and p.default is inspect.Parameter.empty)
