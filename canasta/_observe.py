"""Observing a state: :func:`observation`, what one seat may know of a :class:`GameState` (see
:class:`Observation`), with the parts every seat shares computed once per state.

Built on the states (``_state``), the observation values (``_observation``) and the public
history (``_public_history``); fills :meth:`GameState.observation`'s slot. Resampling, the
bots and the environments are built on it.
"""

from __future__ import annotations

import struct
from typing import Any, Optional

import attrs

from . import _core, _state
from ._cards import N_KINDS
from ._core._backend import _ext
from ._errors import ArgumentError, integer, show
from ._fields import _PHASES, TableMeld, _table_meld
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
    mine = pub.current_player == player
    if _NEW is not None:
        return _NEW(Observation, _NAMES, pub.values + (
            player, pub.side_of[player], pub.hands[player], pub.down_hand_sizes[player],
            state.pile[state._c.buried:] if pub.examine != "never" and pub.may_examine(state, player) else None,
            state.legal_actions() if mine else (), state.legal_action_ids() if mine else ()))
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

    __slots__ = ("values", "side_of", "hands", "down_hand_sizes", "discarded", "examine", "current_player")

    def __init__(self, state: GameState) -> None:
        events, discarded = _history_and_discards(state)
        c = state._c
        if _PUBLIC is not None and type(c) is not _core.Core:
            self._native(state, events, discarded)
            return
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
        self.current_player = state.current_player
        # (in _SHARED order)
        self.values = (
            state.variant.name, players, side_of, state.hand_number, state.dealer, state.totals,
            state.current_player, state.phase, tuple(sum(h[:N_KINDS]) for h in hands), self.down_hand_sizes,
            state.melds, state.red_threes, opened, state.melded, tuple(state.initial_need(s) for s in range(sides)),
            len(pile), pile[-1] if pile else None, frozen, len(state.stock), PublicTurn.of(state.turn), state.took_last,
            state.last_turns, state.active, state.precise, state.result, state.winners, events,
            state.black_threes_aside, state._c.buried, tuple(frozen or (until and not o) for o in opened),
        )

    def _native(self, state: GameState, events: tuple[Any, ...], discarded: int) -> None:
        """The same fields read from a native position in one call (``native/src/obsobj.rs``)."""
        (hands, hand_sizes, downs, melds, red, aside, opened, melded, need, pile_size, pile_top, frozen, frozen_for,
         stock_size, turn, took_last, last_turns, active, precise, winners, totals, player, phase, hand_number,
         dealer, buried) = _PUBLIC(state._c, _SIDE_MELDS, _side_melds, _TURNS, _public_turn)
        variant = state.variant
        side_of = _sides_of(state)
        self.side_of = side_of
        self.hands = hands
        self.down_hand_sizes = downs
        self.discarded = discarded
        self.examine = variant.pile.examine if pile_size else "never"
        self.current_player = player
        self.values = (  # (in _SHARED order)
            variant.name, len(side_of), side_of, hand_number, dealer, totals, player, _PHASES[phase], hand_sizes, downs,
            melds, red, opened, melded, need, pile_size, pile_top, frozen, stock_size, turn, took_last, last_turns,
            active, precise, state.result, winners, events, aside, buried, frozen_for,
        )

    @property
    def shared(self) -> dict[str, Any]:
        """The shared fields by name."""
        return dict(zip(_SHARED, self.values))

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


_SHARED = ("variant", "players", "side_of", "hand_number", "dealer", "totals", "current_player", "phase",
           "hand_sizes", "down_hand_sizes", "melds", "red_threes", "opened", "melded", "initial_need", "pile_size",
           "pile_top", "frozen", "stock_size", "turn", "took_last", "last_turns", "active", "precise", "result",
           "winners", "history", "black_threes_aside", "pile_buried", "frozen_for")
"""The fields every seat's observation of a state shares, in ``_Public.values`` order."""
_NAMES = _SHARED + ("seat", "side", "hand", "down_hand_size", "examined_pile", "legal_actions", "legal_action_ids")
"""Every field of :class:`Observation`: the shared ones, then the seat's own."""

_NEW: Any = getattr(_ext, "obs_new", None)
"""(native) an :class:`Observation` made from :data:`_NAMES` and their values, its fields set as
its ``__init__`` sets them (which only stores them), without the keyword call."""
if {f.name for f in attrs.fields(Observation)} != set(_NAMES) or len(_NAMES) != len(set(_NAMES)):
    _NEW = None  # (a field added to Observation and not here: its __init__ makes it)
_PUBLIC: Any = getattr(_ext, "obs_public", None)
"""(native) the shared fields of a native position in one call."""

_SIDE_MELDS: dict[bytes, tuple[TableMeld, ...]] = {}
"""A side's melds, by their bytes as ``obs_public`` writes them (``obsobj.rs``: per meld its
rank, naturals, jokers, twos and red three, ``<BiiiB``), shared by the states that have them."""
_TURNS: dict[tuple[int, ...], PublicTurn] = {}
"""A :class:`PublicTurn`, by ``(flags, count, pending size, pending top, melds before)``."""
_MELD = struct.Struct("<BiiiB")


def _side_melds(key: bytes) -> tuple[TableMeld, ...]:
    """The :class:`TableMeld` of each meld in ``key`` (see :data:`_SIDE_MELDS`)."""
    return tuple(_table_meld(m) for m in _MELD.iter_unpack(key))


def _public_turn(key: tuple[int, ...]) -> PublicTurn:
    """The :class:`PublicTurn` of a turn's ``(flags, count, pending size, pending top, melds before)``,
    as :meth:`PublicTurn.of` gives it for the :class:`Turn` that has them."""
    f, count, pending_size, pending_top, melds_before = key
    return PublicTurn(
        drew=bool(f & _core.F_DREW), took=bool(f & _core.F_TOOK), count=count, pending_size=pending_size,
        pending_top=pending_top, asked=bool(f & _core.F_ASKED),
        answer=True if f & _core.F_YES else (False if f & _core.F_NO else None), melded=bool(f & _core.F_MELDED),
        black_threes=bool(f & _core.F_B3), must_out=bool(f & _core.F_MUST_OUT),
        touched_partner=bool(f & _core.F_TOUCHED), own_canasta=bool(f & _core.F_OWN), melds_before=melds_before,
        had_melded=bool(f & _core.F_HAD_MELDED), no_take=bool(f & _core.F_NO_TAKE),
        natural_meld=bool(f & _core.F_NATURAL))


_state._OBSERVATION = observation  # GameState.observation (see the slots at the end of _state)
