"""Observing a state: :func:`observation`, what one seat may know of a :class:`GameState` (see
:class:`Observation`), with the parts every seat shares computed once per state.

Built on the states (``_state``), the observation values (``_observation``) and the public
history (``_public_history``); fills :meth:`GameState.observation`'s slot. Resampling, the
bots and the environments are built on it.
"""

from __future__ import annotations

from typing import Any, Optional

from . import _state
from ._cards import N_KINDS
from ._errors import ArgumentError, integer, show
from ._observation import Observation, PublicTurn
from ._public_history import _history_and_discards
from ._state import GameState

__all__ = ["observation"]


def observation(state: GameState, player: int) -> Observation:
    """What ``player`` (a seat) may know of ``state``: see :class:`Observation`.

    Cost: the parts every seat sees are computed once per state and shared by the seats'
    observations, and the public history is kept incrementally: when the state before the
    last action was observed (by any seat), the new observation adds that one action's event
    to the history it had, whatever the length of the hand. So a game server observing
    every seat after every action pays for what changed, not for the hand so far; a state
    reached by several actions since the last one observed replays only those actions.

    Raises :class:`ArgumentError` (a ``ValueError``) for a seat that is not at the table or a
    value of another type.
    """
    if not isinstance(state, GameState):
        raise ArgumentError("state", f"expected a GameState, not {show(state)}")
    if type(player) is not int:
        player = integer(player, "player")
    if not 0 <= player < state.players:
        raise ArgumentError("player", f"must be a seat from 0 to {state.players - 1}, not {show(player)}")
    pub: Optional[_Public] = state._view
    if pub is None:
        pub = state._view = _Public(state)
    mine = state.current_player == player
    return Observation(
        seat=player, side=pub.side_of[player], hand=pub.hands[player],
        down_hand_size=pub.down_hand_sizes[player],
        examined_pile=(state.pile[state._c.buried:] if pub.examine != "never" and pub.may_examine(state, player)
                       else None),
        legal_actions=state.legal_actions() if mine else (),
        legal_action_ids=state.legal_action_ids() if mine else (),
        **pub.shared,
    )


class _Public:
    """(private) The parts of a state's observations that every seat shares, computed once
    per state (kept on the state) from its public fields and its public history."""

    __slots__ = ("shared", "side_of", "hands", "down_hand_sizes", "discarded", "examine")

    def __init__(self, state: GameState) -> None:
        events, discarded = _history_and_discards(state)
        players, sides = state.players, state.sides
        side_of = _sides_of(state)
        hands = state.hands
        downs = state.down_hands
        opened = state.opened
        frozen = state.frozen
        until = state.variant.pile.frozen_until_initial_meld
        pile = state.pile
        self.side_of = side_of
        self.hands = hands
        self.down_hand_sizes = tuple(sum(h[:N_KINDS]) for h in downs)
        self.discarded = discarded
        self.examine = state.variant.pile.examine if pile else "never"
        self.shared: dict[str, Any] = {
            "variant": state.variant.name, "players": players, "side_of": side_of,
            "hand_number": state.hand_number, "dealer": state.dealer, "totals": state.totals,
            "current_player": state.current_player, "phase": state.phase,
            "hand_sizes": tuple(sum(h[:N_KINDS]) for h in hands), "down_hand_sizes": self.down_hand_sizes,
            "melds": state.melds, "red_threes": state.red_threes, "opened": opened, "melded": state.melded,
            "initial_need": tuple(state.initial_need(s) for s in range(sides)),
            "pile_size": len(pile), "pile_top": pile[-1] if pile else None, "frozen": frozen,
            "stock_size": len(state.stock), "turn": PublicTurn.of(state.turn), "took_last": state.took_last,
            "last_turns": state.last_turns, "active": state.active, "precise": state.precise,
            "result": state.result, "winners": state.winners, "history": events,
            "black_threes_aside": state.black_threes_aside, "pile_buried": state._c.buried,
            "frozen_for": tuple(frozen or (until and not o) for o in opened),
        }

    def may_examine(self, state: GameState, player: int) -> bool:
        """Whether ``player`` may look through the whole pile now (``pile.examine``)."""
        when = self.examine
        if when == "never":
            return False
        if when == "always":
            return True
        # first_turn: his turn, and no discard of his yet this hand (a position loaded mid-hand
        # counts from the loading, its history's start)
        return state.current_player == player and not (self.discarded >> player) & 1


_SIDES: dict[tuple[int, int], tuple[Any, tuple[int, ...]]] = {}


def _sides_of(state: GameState) -> tuple[int, ...]:
    """Each seat's side, computed once per variant object and table size."""
    variant = state.variant
    key = (id(variant), state.players)
    hit = _SIDES.get(key)
    if hit is None or hit[0] is not variant:
        if len(_SIDES) > 256:
            _SIDES.clear()
        hit = _SIDES[key] = (variant, tuple(state.side_of(s) for s in range(state.players)))
    return hit[1]


_state._OBSERVATION = observation  # GameState.observation (see the slots at the end of _state)
