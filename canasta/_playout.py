"""Whole playouts in the native core: hands played to their end by the built-in bots
(``RandomBot``, ``GreedyBot``) without a Python call per action.

The native core ports the two policies choice for choice, with Python's own generator
(``random.Random``'s MT19937, seeded the same way), so a seed gives the same game on either
core; ``simulate`` and ``SearchBot``'s rollouts use it when the table runs natively, and the
Python loop otherwise. Where GreedyBot plans its going out from its observation (from a down
hand, or while taking the pile for an initial meld) the state it plans in is sampled by the
Python side (``_resample._sample``), as ``GreedyBot.choose`` does.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ._core import _backend
from ._state import GameState

RANDOM = 0
GREEDY = 1


def seed_key(seed: int) -> tuple[int, ...]:
    """``random.Random(seed)``'s key: ``abs(seed)`` in 32-bit words, least significant first."""
    n = abs(seed)
    out = [n & 0xFFFFFFFF]
    n >>= 32
    while n:
        out.append(n & 0xFFFFFFFF)
        n >>= 32
    return tuple(out)


def available(state: GameState) -> bool:
    """Whether ``state`` runs on the native core (so its hand can be played out natively)."""
    return state.core == "native"


def bots(kinds: Sequence[int], seeds: Sequence[int], seat_bot: Sequence[int]) -> Any:
    """Native bots: per bot its kind (:data:`RANDOM`, :data:`GREEDY`) and seed (as
    ``RandomBot(seed)``/``GreedyBot(seed)``); per seat the bot that plays it."""
    ext = _backend._ext
    return ext.bots(tuple(kinds), tuple(seed_key(s) for s in seeds), tuple(seat_bot))


def _planner(state: GameState) -> Any:
    variant = state.variant

    def plan(core: Any, seat: int) -> Any:
        from ._observe import observation
        from ._resample import _sample

        obs = observation(GameState(core), seat)
        return _sample(obs, None, variant, None, False)._c

    return plan


def play(state: GameState, native_bots: Any, max_actions: int) -> tuple[GameState, int]:
    """Play ``state``'s hand on with ``native_bots`` until it is over or ``max_actions`` are
    played: (the state reached, actions played)."""
    core, count = _backend._ext.play(state._c, native_bots, max_actions, _planner(state))
    return GameState(core), count


def greedy_rollout(state: GameState, seed: int, depth: int) -> GameState:
    """``state`` played on by one ``GreedyBot(seed)`` in every seat, at most ``depth`` actions."""
    end, _ = play(state, bots((GREEDY,), (seed,), (0,) * state.players), depth)
    return end


def builtin_kind(spec: Any) -> Optional[int]:
    """The native kind of a built-in bot named by ``spec`` (``"random"``, ``"greedy"``), else None."""
    return {"random": RANDOM, "greedy": GREEDY}.get(spec) if isinstance(spec, str) else None
