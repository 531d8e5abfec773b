"""Environments for reinforcement learning: PettingZoo, Gymnasium and OpenSpiel adapters.

Needs the ``rl`` extra (``pip install "canasta[rl]"``: numpy, pettingzoo, gymnasium,
open_spiel); ``import canasta`` alone never imports any of them.

* :func:`pettingzoo_env`: every seat an agent (PettingZoo AEC, like PettingZoo's classic card
  games);
* :func:`gymnasium_env`: one learned seat, the others played by bots; also registered, on
  ``import canasta.envs``, as ``gymnasium.make("canasta/Canasta-v0", ...)``;
* :func:`vector_env`: ``N`` games stepped together, every seat an agent, numpy arrays in and
  out (:class:`CanastaVectorEnv`);
* :func:`gymnasium_vector_env`: ``N`` games of the Gymnasium environment, one learned seat
  each, as a Gymnasium ``VectorEnv`` (:class:`CanastaGymVectorEnv`; also
  ``gymnasium.make_vec("canasta/Canasta-v0", num_envs=N, ...)``);
* :mod:`canasta.envs.openspiel`: ``register()`` makes ``pyspiel.load_game("python_canasta")``
  (with ``resample_from_infostate``, so OpenSpiel's ``ISMCTSBot`` plays it).

Every adapter takes the same options (``variant``, ``players``, ``episode``, ``reward``, ...),
plays every variant and table size, and observes with the same vector
(:class:`~canasta.ObservationEncoder`, layout version
:attr:`~canasta.ObservationEncoder.LAYOUT_VERSION`) and the same mask over the variant's dense
action ids. The PettingZoo environment and the vector environment also give the full state
for centralised critics (``state()``, laid out by :class:`StateLayout`, versioned by
:data:`STATE_LAYOUT_VERSION`). The guide page "Canasta for AI research" explains them with
examples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

try:
    import gymnasium as _gym
    import numpy as _numpy  # noqa: F401 - a clear error now rather than at the first reset
except ImportError as _e:  # pragma: no cover - the rl extra is not installed
    raise ImportError(f"canasta.envs needs the rl extra: pip install \"canasta[rl]\" ({_e})") from _e

from .._variant import Variant
from ._common import EPISODES, ILLEGAL, REWARDS, EnvError
from ._encode import STATE_LAYOUT_VERSION, StateLayout
from ._gymnasium import CanastaGymEnv
from ._gymvector import CanastaGymVectorEnv
from ._vector import CanastaVectorEnv, VectorStep

if TYPE_CHECKING:
    from ._pettingzoo import CanastaAECEnv

__all__ = [
    "EPISODES", "GYMNASIUM_ID", "ILLEGAL", "REWARDS", "STATE_LAYOUT_VERSION", "CanastaAECEnv", "CanastaGymEnv",
    "CanastaGymVectorEnv", "CanastaVectorEnv", "EnvError", "StateLayout", "VectorStep", "gymnasium_env",
    "gymnasium_vector_env", "pettingzoo_env", "vector_env",
]

GYMNASIUM_ID = "canasta/Canasta-v0"
"""The id the Gymnasium environment is registered under (``gymnasium.make(GYMNASIUM_ID, ...)``)."""


def pettingzoo_env(variant: Union[Variant, str] = "hoyle-1950", players: Optional[int] = None, *,
                   episode: str = "hand", reward: str = "score", max_hands: int = 200,
                   illegal: str = "terminate", illegal_reward: float = -1.0,
                   render_mode: Optional[str] = None) -> CanastaAECEnv:
    """A PettingZoo AEC environment of ``variant`` (a :class:`~canasta.Variant` or a name) with
    ``players`` seats (default: the variant's usual table), one agent per seat.

    :param episode: ``"hand"``: an episode is the first hand of a new game; ``"game"``: a
        whole game, hand after hand, until a side wins (truncated after ``max_hands`` hands).
    :param reward: ``"score"``: when a hand ends, every agent gets its side's hand score
        minus the mean of the other sides' (with two sides, the plain difference), in points;
        ``"win"``: when the episode ends, +1 for the winning side(s), -1 for the others, 0
        for everyone on a tie or a truncation (after one hand the leaders on the totals win).
    :param max_hands: (game episodes) hands after which an undecided game is truncated.
    :param illegal: what an action that is not legal does: ``"terminate"`` (the default, as
        PettingZoo's classic games: the episode ends, the agent gets ``illegal_reward``, the
        others 0), ``"penalty"`` (the agent gets ``illegal_reward``, nothing else changes and
        it acts again) or ``"raise"`` (:class:`~canasta.IllegalActionError`).
    :param render_mode: ``None``, ``"human"`` (print the table after every step) or ``"ansi"``.
    :raises EnvError: for a bad option, naming it (an unknown variant, a table size the
        variant does not have, an unknown reward ...).

    ``reset(seed=s)`` deals ``canasta.new_game(variant, players, seed=s)``; later resets
    without a seed deal ``s + 1``, ``s + 2``, ...
    """
    from ._pettingzoo import CanastaAECEnv

    return CanastaAECEnv(variant, players, episode=episode, reward=reward, max_hands=max_hands,
                         illegal=illegal, illegal_reward=illegal_reward, render_mode=render_mode)


def gymnasium_env(variant: Union[Variant, str] = "hoyle-1950", players: Optional[int] = None, *,
                  seat: int = 0, opponents: Union[object, Sequence[object]] = "random",
                  episode: str = "hand", reward: str = "score", max_hands: int = 200,
                  illegal: str = "penalty", illegal_reward: float = -1.0,
                  render_mode: Optional[str] = None) -> CanastaGymEnv:
    """A Gymnasium environment in which the agent plays ``seat`` and bots play the others;
    the same as ``gymnasium.make("canasta/Canasta-v0", ...)`` without the wrappers.

    :param opponents: one for every other seat, or a list with one per seat (``None`` at
        ``seat``). Each is ``"random"`` (uniform among the legal actions), ``"greedy"``
        (:class:`~canasta.GreedyBot`), a bot class (made anew at each reset with a seed),
        a bot (an object with ``choose``, asked as :func:`~canasta.play_game` asks it), or a
        callable ``f(observation, legal_action_ids) -> action`` given the seat's observation
        in this environment's form (see :class:`CanastaGymEnv`).
    :param illegal: ``"penalty"`` (the default: the step costs ``illegal_reward``, nothing
        changes, the agent acts again), ``"terminate"`` (the episode ends with
        ``illegal_reward``) or ``"raise"``.

    The other options are those of :func:`pettingzoo_env`; the reward is the learned seat's
    side's.
    """
    return CanastaGymEnv(variant, players, seat=seat, opponents=opponents, episode=episode, reward=reward,
                         max_hands=max_hands, illegal=illegal, illegal_reward=illegal_reward,
                         render_mode=render_mode)


def gymnasium_vector_env(variant: Union[Variant, str] = "hoyle-1950", players: Optional[int] = None,
                         num_envs: int = 16, *, seat: int = 0, opponents: Union[object, Sequence[object]] = "random",
                         episode: str = "hand", reward: str = "score", max_hands: int = 200,
                         illegal: str = "penalty", illegal_reward: float = -1.0,
                         copy: bool = True) -> CanastaGymVectorEnv:
    """``num_envs`` games of :func:`gymnasium_env` (one learned seat each, bots in the other
    seats) as a Gymnasium ``VectorEnv`` (:class:`CanastaGymVectorEnv`), the same as
    ``gymnasium.make_vec("canasta/Canasta-v0", num_envs=num_envs, ...)``.

    Game ``i`` of ``reset(seed=s)`` is dealt seed ``s + i``; a game whose episode ends is reset
    in the same step (``autoreset_mode`` ``SAME_STEP``, the episode's last observation in
    ``infos["final_obs"]``). The built-in bots play natively and the rows are written natively
    where the table runs on the native core. ``copy=False`` returns the environment's own
    arrays, overwritten by the next call. The other options are those of
    :func:`gymnasium_env`.
    """
    return CanastaGymVectorEnv(variant, players, num_envs, seat=seat, opponents=opponents, episode=episode,
                               reward=reward, max_hands=max_hands, illegal=illegal, illegal_reward=illegal_reward,
                               copy=copy)


def vector_env(variant: Union[Variant, str] = "hoyle-1950", players: Optional[int] = None, num_envs: int = 16, *,
               episode: str = "hand", reward: str = "score", max_hands: int = 200, illegal: str = "raise",
               illegal_reward: float = -1.0, copy: bool = True) -> CanastaVectorEnv:
    """``num_envs`` games of ``variant`` with ``players`` seats, stepped together, every seat an
    agent (self-play): :class:`CanastaVectorEnv`, a batched API of numpy arrays.

    ``reset(seed=s)`` deals game ``i`` with seed ``s + i``; ``step(actions)`` plays one action
    id per game, for the seat to act there; both return a :class:`VectorStep`
    (``observations``, ``action_masks``, ``seats``, ``rewards`` per seat, ``terminations``,
    ``truncations``). A game whose episode ends is dealt anew in the same step.

    :param illegal: ``"raise"`` (the default: :class:`~canasta.IllegalActionError`),
        ``"penalty"`` or ``"terminate"``, as :func:`pettingzoo_env`.
    :param copy: return new arrays (the default), or the environment's own buffers,
        overwritten by the next call (faster).

    The other options are those of :func:`pettingzoo_env`.
    """
    return CanastaVectorEnv(variant, players, num_envs, episode=episode, reward=reward, max_hands=max_hands,
                            illegal=illegal, illegal_reward=illegal_reward, copy=copy)


def __getattr__(name: str) -> Any:
    if name == "CanastaAECEnv":
        from ._pettingzoo import CanastaAECEnv

        return CanastaAECEnv
    raise AttributeError(f"module 'canasta.envs' has no attribute {name!r}")


if GYMNASIUM_ID not in _gym.registry:
    _gym.register(id=GYMNASIUM_ID, entry_point="canasta.envs._gymnasium:CanastaGymEnv",
                  vector_entry_point="canasta.envs._gymvector:CanastaGymVectorEnv")
