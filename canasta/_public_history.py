"""The hand's public history: its actions as the whole table saw them (:class:`PublicEvent`),
read from the state's deal, kept incrementally per history link.

Built on the states (``_state``) and the observation values (``_observation``); observing a
state (``_observe``) and the event log (``_events``) are built on it.
"""

from __future__ import annotations

import threading
from operator import sub
from typing import Any, Optional

from . import _core
from ._actions import Action, Answer, Ask, Discard, Done
from ._cards import N_KINDS
from ._observation import PublicEvent, PublicTurn
from ._state import GameState, _history_seats


def _public_core(st: GameState) -> tuple[Any, ...]:
    """The parts of a state every player sees (to check a replay without hidden cards)."""
    return (
        st.players, st.hand_number, st.dealer, st.totals,
        tuple(sum(h[:N_KINDS]) for h in st.hands), tuple(sum(h[:N_KINDS]) for h in st.down_hands),
        st.melds, st.red_threes, st.opened, st.melded, len(st.pile), st.pile_buried,
        st.pile[-1] if st.pile else None, st.frozen, len(st.stock), st.current_player,
        st.phase, PublicTurn.of(st.turn), st.took_last, st.last_turns, st.active, st.precise,
        st.result, st.winners,
    )


_REPLAYS: dict[int, tuple[Any, tuple[Any, ...], GameState, tuple[PublicEvent, ...], int]] = {}
"""The public history at a history link: (link, hand key, a state at that link, its events, the
seats that have discarded as a bit mask). Bounded: the oldest quarter goes when it is full."""
_REPLAYS_MAX = 4096


def _hand_key(state: GameState) -> tuple[Any, ...]:
    totals = state.totals
    if state.result is not None:
        totals = tuple(t - s.total for t, s in zip(totals, state.result.scores))
    return (id(state._rules), state.seed, state.hand_number, state.dealer, totals, state.precise)


_REPLAYS_LOCK = threading.Lock()
"""Taken to change ``_REPLAYS`` (two threads evicting the same entries raised KeyError); a
lookup takes no lock (one dict lookup is atomic)."""


def _remember(link: Any, key: tuple[Any, ...], state: GameState, events: tuple[PublicEvent, ...],
              discarded: int) -> None:
    with _REPLAYS_LOCK:
        if len(_REPLAYS) >= _REPLAYS_MAX:
            for k in list(_REPLAYS)[: _REPLAYS_MAX // 4]:
                del _REPLAYS[k]
        _REPLAYS[id(link)] = (link, key, state, events, discarded)


def _deal_of(state: GameState) -> Optional[GameState]:
    """The deal of ``state``'s hand, as :func:`new_game` or :meth:`GameState.next_hand` gave it
    (from the seed, the hand number, the dealer, the totals before the hand and the precise
    draws), or None when no deal of the game gives those."""
    totals = _hand_key(state)[4]
    try:
        return GameState(_core.deal(state._rules, state.seed, state.hand_number, state.dealer, totals,
                                    state.precise))
    except Exception:  # a state no deal of this game can give
        return None


def _discards(events: tuple[PublicEvent, ...]) -> int:
    """The seats that discarded in ``events``, as a bit mask."""
    out = 0
    for ev in events:
        if ev.seat is not None and isinstance(ev.action, Discard):
            out |= 1 << ev.seat
    return out


def _replay(state: GameState) -> Optional[tuple[tuple[PublicEvent, ...], int]]:
    """The hand's events (and the seats that discarded), or None if the state did not come from
    its deal (judged by public parts only, so hidden cards never change the answer).

    Incremental: when the state one action back was seen here (its history link is
    remembered), the one new event is read off the two states' public fields (who was to act,
    the stock's size, the red threes faced); otherwise the actions since the last state seen
    (or since the deal) are replayed."""
    key = _hand_key(state)
    top = state._history
    links: list[Any] = []
    link = top
    hit = None
    while link is not None:
        found = _REPLAYS.get(id(link))
        if found is not None and found[0] is link and found[1] == key:
            hit = found
            break
        links.append(link)
        link = link[1]
    if hit is not None and not links:
        return hit[3], hit[4]
    actions = state.action_space.actions
    if hit is not None and len(links) == 1:
        before = hit[2]
        seat = before.current_player
        if seat is None:
            return None
        action = actions[top[0]]
        b, c = before._c, state._c
        ev = PublicEvent(seat=seat, action=action, stock_cards=b.stock_n - c.stock_n,
                         red_threes=tuple(map(sub, c.red, b.red)))
        events = hit[3] + (ev,)
        discarded = hit[4] | (1 << seat) if isinstance(action, Discard) else hit[4]
        _remember(top, key, state, events, discarded)
        return events, discarded
    if hit is None:
        dealt = _deal_of(state)
        if dealt is None:
            return None
        sim = dealt._c
        ev_list: list[PublicEvent] = []
        discarded = 0
    else:
        sim = hit[2]._c
        ev_list = list(hit[3])
        discarded = hit[4]
    for link in reversed(links):
        action_id = link[0]
        seat = sim.player
        if seat < 0:
            return None
        try:
            nxt = _core.apply_id(sim, action_id)
        except Exception:  # the history does not fit this deal
            return None
        action = actions[action_id]
        ev_list.append(PublicEvent(
            seat=seat, action=action, stock_cards=sim.stock_n - nxt.stock_n,
            red_threes=tuple(b - c for b, c in zip(nxt.red, sim.red)),
        ))
        if isinstance(action, Discard):
            discarded |= 1 << seat
        sim = nxt
        if link is not top:
            _remember(link, key, GameState(sim), tuple(ev_list), discarded)
    if _public_core(GameState(sim)) != _public_core(state):
        return None
    events = tuple(ev_list)
    _remember(top, key, state, events, discarded)
    return events, discarded


def _prev_mate(R: Any, seat: int) -> int:
    mates = R.members[R.side_of[seat]]
    for k in range(1, R.players):
        s: int = (seat - k) % R.players
        if s in mates:
            return s
    return seat


def _next_mate(R: Any, seat: int) -> int:
    mates = R.members[R.side_of[seat]]
    for k in range(1, R.players):
        s: int = (seat + k) % R.players
        if s in mates:
            return s
    return seat


def _seats_backward(state: GameState, actions: tuple[Action, ...]) -> list[Optional[int]]:
    """Who played each action, worked back from the state's player in turn (public only)."""
    R = state._rules
    active = state.active
    seats: list[Optional[int]] = [None] * len(actions)
    nxt: Optional[int] = state.current_player
    for i in range(len(actions) - 1, -1, -1):
        a = actions[i]
        if i == len(actions) - 1 and state.result is not None:
            # the action that ended the hand: only going out names its player
            actor = state.result.went_out
        elif nxt is None:
            actor = None
        elif isinstance(a, Ask):
            actor = _prev_mate(R, nxt)
        elif isinstance(a, Answer):
            actor = _next_mate(R, nxt)
        elif isinstance(a, (Discard, Done)):
            actor = active[(active.index(nxt) - 1) % len(active)] if nxt in active else None
        else:
            actor = nxt
        seats[i] = actor
        nxt = actor
    return seats


def public_history(state: GameState) -> tuple[PublicEvent, ...]:
    """The actions of the hand so far as the table saw them (see :class:`PublicEvent`).

    The seats and what each action drew and faced come from the hand's deal (the state's
    seed, hand number, dealer and totals): the events of the state one action back, when it
    was observed, and that action's, read off the two states' public fields; otherwise the
    hand replayed from the last state observed, or from its deal. A state whose history does not
    reach back to the deal (played on from a loaded position) has the seat recorded with each
    action since, and ``None`` for the counts; for a history loaded without its seats (an
    older save) the seats are worked back from the player in turn.
    """
    return _history_and_discards(state)[0]


def _history_and_discards(state: GameState) -> tuple[tuple[PublicEvent, ...], int]:
    """:func:`public_history`, and the seats that discarded in it as a bit mask."""
    if state._history is None:
        return (), 0
    found = _replay(state)
    if found is not None:
        return found
    actions = state.history
    seats: list[Optional[int]] = list(_history_seats(state))
    if any(s < 0 for s in seats if s is not None):
        worked = _seats_backward(state, actions)
        seats = [w if s is None or s < 0 else s for s, w in zip(seats, worked)]
    events = tuple(PublicEvent(seat=s, action=a, stock_cards=None, red_threes=None)
                   for s, a in zip(seats, actions))
    return events, _discards(events)


# =============================================================== the vector form
