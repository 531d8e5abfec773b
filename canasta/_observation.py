"""Per-player observations: what one seat may know of a game, and a numeric vector of it.

:func:`observation` turns a :class:`GameState` into an :class:`Observation` for one seat:
everything that player may know and nothing more. Two states that differ only in cards the
player cannot see (the other hands' contents, the order of the stock, his own unseen down
hand) give equal observations.

What is public in Canasta, and so in an observation:

* the table: every side's melds, faced red threes, whether each side has made its initial
  meld and what its initial meld needs, the totals;
* the pile's size and its top card, whether it is frozen; the stock's size;
* the size of every hand and down hand (a down hand of new-canasta is unseen, even by its
  owner, until it is picked up: its owner gets only its size too);
* whose turn it is, the phase, and what has happened in the turn (``Turn`` without the
  hand before a take, and the cards set aside from a pile being taken only as a count);
* the hand result once the hand is over;
* the history of the hand: every action is announced at the table (a draw says only that
  the player drew), with the seat that played it, how many cards it took from the stock and
  which red threes it faced. The rules let a player see only the top discard, but every
  discard is a public event, so the history shows what went into the pile; that is intended.

:class:`ObservationEncoder` flattens an observation into a fixed-length list of floats for
machine learning, with the observing player as seat 0 so one network can play any seat.
"""

from __future__ import annotations

import json
import os
import threading
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple, Optional, Union

from attrs import field, frozen

from ._actions import (
    Action,
    Answer,
    Ask,
    Discard,
    Done,
    Retract,
    Take,
    parse_action,
)
from ._cards import _TOKENS, CODE_TOKENS, N_CODES, N_KINDS, WILD_RANK, Card
from . import _core
from ._core._rules import SEQ
from ._errors import ArgumentError, integer, show
from ._state import GameState, HandResult, HandScore, Phase, ScoreItem, TableMeld, Turn, _history_seats

if TYPE_CHECKING:
    import numpy
    import numpy.typing as npt

    from ._variant import Variant

__all__ = [
    "Observation",
    "ObservationEncoder",
    "PublicEvent",
    "PublicTurn",
    "Segment",
    "observation",
]


# =============================================================== the observation


@frozen(slots=True)
class PublicTurn:
    """The public part of the current turn's record (:class:`Turn`).

    Left out: ``start_hand`` (the hand before a take: hidden). ``pending``, the rest of a
    pile being taken for an initial meld, is set aside unseen and appears only as
    ``pending_size``.
    """

    drew: bool = False
    """The player has drawn from the stock this turn."""
    took: bool = False
    """The player has taken the pile this turn."""
    count: int = 0
    """Points melded this turn toward the side's initial meld."""
    pending_size: int = 0
    """Cards of a pile being taken for an initial meld, set aside until the minimum is met."""
    pending_top: int = -1
    """The top card of a pile being taken for the initial meld (-1: none)."""
    asked: bool = False
    """The player asked his partner "may I go out?"."""
    answer: Optional[bool] = None
    """The partner's answer (None: not asked or not answered yet)."""
    melded: bool = False
    """The player has melded this turn."""
    black_threes: bool = False
    """Black threes were melded: the player must go out this turn."""
    must_out: bool = False
    """The pile was taken for a concealed going out: the player must go out this turn."""
    touched_partner: bool = False
    """The player has added to a meld his partner made (not a concealed going out)."""
    own_canasta: bool = False
    """The player has completed a canasta of his own this turn."""
    melds_before: int = 0
    """The side's melds when the turn began."""
    had_melded: bool = False
    """Whether this player had melded earlier in the hand when the turn began."""
    no_take: bool = False
    """A take was retracted: the player must now draw."""
    natural_meld: bool = False
    """(``initial_meld.natural_meld_first``) the side's initial meld this turn includes a natural
    meld of three or more cards."""

    @classmethod
    def of(cls, turn: Turn) -> "PublicTurn":
        """The public part of ``turn``."""
        hit = _PUBLIC_TURNS.get(turn)
        if hit is not None:
            return hit
        if len(_PUBLIC_TURNS) > 4096:
            _PUBLIC_TURNS.clear()
        out = _PUBLIC_TURNS[turn] = cls(
            drew=turn.drew, took=turn.took, count=turn.count, pending_size=len(turn.pending),
            pending_top=turn.pending_top, asked=turn.asked, answer=turn.answer, melded=turn.melded,
            black_threes=turn.black_threes, must_out=turn.must_out,
            touched_partner=turn.touched_partner, own_canasta=turn.own_canasta,
            melds_before=turn.melds_before, had_melded=turn.had_melded, no_take=turn.no_take,
            natural_meld=turn.natural_meld,
        )
        return out


_PUBLIC_TURNS: dict[Turn, PublicTurn] = {}
"""The public part of each turn record seen (both are immutable): states share them."""


@frozen(slots=True)
class PublicEvent:
    """One action of the hand's history as the whole table saw it.

    ``stock_cards`` and ``red_threes`` count what the action made happen, including what it
    set off: the next player facing and replacing red threes at the start of his turn after a
    discard, red threes found in hands when the hand ends. Both are None when the history
    does not reach back to the deal (a state loaded with :func:`load_position` mid-hand);
    ``seat`` is then None where it cannot be told from the actions alone.
    """

    seat: Optional[int]
    """The seat that played the action."""
    action: Action
    """The action (a draw is only :class:`Draw`: the cards drawn are not public)."""
    stock_cards: Optional[int] = 0
    """Cards that left the stock during the action (drawn, or red threes replaced)."""
    red_threes: Optional[tuple[int, ...]] = None
    """Red threes faced during the action, per side (None: unknown)."""


@frozen(slots=True)
class Observation:
    """Everything one seat may know of a game, and nothing more. Build with :func:`observation`.

    Per-seat tuples are indexed by absolute seat, per-side tuples by side (as
    :meth:`GameState.side_of`). Hands are counts per card kind (see :class:`Card`); in a
    variant with suits (``melds.sequences``, :attr:`suited`) a hand is 59 counts, per kind
    (0-14, all suits together) then per suited natural card (15-58, ``SuitedCard``), and the
    pile's cards are card codes (a natural with its suit, 15-58; never a bare kind 4-14).
    Observations are immutable, hashable and compare equal exactly when the player could not
    tell the two positions apart.
    """

    variant: str
    """The variant's name."""
    players: int
    """Seats at the table."""
    seat: int
    """The observing player's seat."""
    side: int
    """The observing player's side."""
    side_of: tuple[int, ...]
    """Each seat's side."""
    hand_number: int
    """The hand of the game, counted from 0 as :attr:`GameState.hand_number` (texts for
    people say "Hand 1" for hand number 0)."""
    dealer: int
    """The seat that dealt this hand."""
    totals: tuple[int, ...]
    """Cumulative totals per side (after this hand once it is over)."""
    current_player: Optional[int]
    """The seat to act, or None when nobody acts."""
    phase: Phase
    """Where the turn stands."""
    hand: tuple[int, ...]
    """The observing player's own hand, counts per kind (suited variants: 59 counts, per kind
    then per suited card)."""
    down_hand_size: int
    """Cards in the player's own down hand (new-canasta; unseen until picked up)."""
    hand_sizes: tuple[int, ...]
    """Cards in each seat's hand (only sizes: the contents of other hands are hidden)."""
    down_hand_sizes: tuple[int, ...]
    """Cards in each seat's down hand."""
    melds: tuple[tuple[TableMeld, ...], ...]
    """Every side's melds, in the order they were made (the numbering of ``add 7 to 7#2``);
    a sequence (suited variants) is a :class:`TableMeld` of rank ``16 + suit``, ``naturals``
    its length and ``low`` its lowest rank."""
    red_threes: tuple[int, ...]
    """Red threes faced per side."""
    opened: tuple[bool, ...]
    """Whether each side has made its initial meld."""
    melded: tuple[bool, ...]
    """Whether each seat has melded this hand."""
    initial_need: tuple[int, ...]
    """Each side's initial-meld minimum this hand (0 once it has melded)."""
    pile_size: int
    """Cards in the discard pile."""
    pile_top: Optional[int]
    """The top card of the pile (a card kind; a card code in a suited variant), or None when
    the pile is empty."""
    frozen: bool
    """Whether the pile is frozen for everyone (see :attr:`frozen_for` for each side)."""
    stock_size: int
    """Cards left in the stock."""
    turn: PublicTurn
    """What has happened so far in the current turn."""
    took_last: tuple[bool, ...]
    """Whether each seat took the pile on its last turn."""
    last_turns: int
    """(last-round stock exhaustion) turns left; -1 while the stock lasts."""
    active: tuple[int, ...]
    """The seats playing this deal, in turn order."""
    precise: tuple[int, ...]
    """(new-canasta) dealers' seats credited with a precise dealer draw this hand."""
    result: Optional[HandResult]
    """How the hand ended, once it is over (the hands are shown then)."""
    winners: tuple[int, ...]
    """The winning sides once the game is over."""
    history: tuple[PublicEvent, ...]
    """The hand's actions so far, oldest first, as the table saw them."""
    examined_pile: Optional[tuple[int, ...]] = None
    """The whole discard pile, bottom first, when this player may examine it now (the
    variant's ``pile.examine``: bicycle lets a player look through it during his first turn
    of the hand, before discarding); otherwise None (the top card is ``pile_top``). Cards
    still face down under the upcard (:attr:`pile_buried`) are not in it: they are unseen."""
    black_threes_aside: tuple[int, ...] = ()
    """Black threes each side has set aside from piles it took (cuban; public, out of play);
    ``()`` from an older caller that left it out, zeros per side from :func:`observation`."""
    pile_buried: int = 0
    """Cards at the bottom of the pile still face down: the packet dealt under the upcard where
    the variant buries one (``upcard.buried``, Italian 2.3), until the pile is taken. Public as a
    count (``pile_size`` includes them); nobody sees the cards, and :attr:`examined_pile` leaves
    them out. 0 in other variants (and in a dict without the key)."""
    frozen_for: tuple[bool, ...] = field(default=(), eq=False)
    """Per side: whether the pile is frozen for that side, either for everyone (:attr:`frozen`)
    or for a side that has not made its initial meld where the variant freezes it until then
    (``pile.frozen_until_initial_meld``). Derived from the fields above (left out of equality
    and hashing); ``()`` from an older caller or dict that left it out."""
    legal_actions: tuple[Action, ...] = field(default=(), eq=False)
    """The observing player's legal actions when he is to act (``current_player == seat``),
    in :meth:`GameState.legal_actions` order; otherwise ``()``. Carried for convenience (a
    client needs them): they are left out of equality and hashing."""
    legal_action_ids: tuple[int, ...] = field(default=(), eq=False)
    """The ids of ``legal_actions`` in the variant's :class:`ActionSpace`, in the same order
    (left out of equality and hashing too)."""

    def to_dict(self, *, history: bool = True, legend: bool = True) -> dict[str, Any]:
        """The observation as plain JSON-ready values (dicts, lists, strings, numbers, booleans
        and None); :meth:`from_dict` reads it back, equal. Every list and dict in it is new:
        change it freely. The shape (format version 2):

        * ``"format": "canasta-observation"``, ``"version": 2``, and ``"cards"``: the 15 card
          tokens by kind (``"JK"``, ``"2"``, ``"3r"``, ``"3b"``, ``"4"`` ... ``"A"``), the
          legend for every card kind below, which is an integer 0-14 (as :class:`Card`). In a
          variant with suits (:attr:`suited`) the legend is the 59 card codes' tokens (the 15
          kinds, then ``"4c"``, ``"4d"``, ``"4h"``, ``"4s"`` ... ``"As"``): hands are 59 counts
          (per kind, then per suited card), and the pile's top, the examined pile and a pending
          top are codes (15-58 for a natural with its suit).
        * Every field of the observation under its own name, with the same meaning: numbers,
          booleans and None as themselves, tuples as lists, ``phase`` as its value
          (``"draw"``); ``hand`` the player's own cards as counts: 15 by kind, or in a variant
          with suits 59 (per kind, then per suited card).
        * ``melds``: per side, a list of ``{"rank", "naturals", "jokers", "twos", "red_three",
          "text"}`` (``text`` is ``str(meld)``, ``"7 7 7 JK"``); in a suited variant each meld
          also has ``"low"`` (a sequence's lowest rank, ``rank`` being ``16 + suit`` and
          ``naturals`` its length; 0 for a group), and ``text`` lists a sequence's cards
          (``"5h 6h 7h"``).
        * ``turn``: the fields of :class:`PublicTurn`; ``pending_top`` is ``null`` when there is
          none (as in a state save; format version 1 wrote -1).
        * ``frozen_for``: per side, whether the pile is frozen for that side.
        * ``result``: None, or ``{"went_out", "concealed", "reason", "scores"}`` with
          ``scores`` per side ``{"side", "total", "items": [{"name", "count", "points"}]}``.
        * ``history``: ``[{"seat", "action", "stock_cards", "red_threes"}]`` with the action
          in the notation (``"take 7 7"``).
        * ``legal_actions``: ``[{"id": 17, "action": "take 7 7"}]``, the player's legal
          actions when he is to act (else ``[]``): send the ``id`` (or the text) back to
          :meth:`GameState.apply`.
        * ``hand_number`` counts from 0, as in the :class:`GameState` (the hand for people is
          ``hand_number + 1``).

        ``history=False`` leaves the ``history`` key out and ``legend=False`` the ``cards``
        key: the compact form for a client that keeps its own log (from the :class:`Event`
        of each action, :meth:`Event.to_dict`) and knows the card tokens. Without the history
        a dict costs what changes from one action to the next (the melds, the turn, the legal
        actions), not the hand so far; :meth:`from_dict` reads it back with an empty history.

        ``text`` and ``total`` are derived for readers and ignored by :meth:`from_dict`.
        """
        suited = len(self.hand) == N_CODES
        t = self.turn
        turn = _TURN_DICT.get(id(t))
        if turn is None or turn[0] is not t:
            if len(_TURN_DICT) > 256:
                _TURN_DICT.clear()
            values = {name: getattr(t, name) for name in _TURN_KEYS}
            if values["pending_top"] < 0:
                values["pending_top"] = None
            turn = _TURN_DICT[id(t)] = (t, values)
        r = self.result
        result: Optional[dict[str, Any]] = None
        if r is not None:
            result = {"went_out": r.went_out, "concealed": r.concealed, "reason": r.reason,
                      "scores": [{"side": h.side, "total": h.total,
                                  "items": [{"name": i.name, "count": i.count, "points": i.points}
                                            for i in h.items]} for h in r.scores]}
        out: dict[str, Any] = {"format": _FORMAT, "version": _VERSION}
        if legend:
            out["cards"] = list(CODE_TOKENS if suited else _TOKENS)
        out.update({
            "variant": self.variant, "players": self.players, "seat": self.seat, "side": self.side,
            "side_of": list(self.side_of), "hand_number": self.hand_number, "dealer": self.dealer,
            "totals": list(self.totals), "current_player": self.current_player, "phase": self.phase.value,
            "hand": list(self.hand), "down_hand_size": self.down_hand_size, "hand_sizes": list(self.hand_sizes),
            "down_hand_sizes": list(self.down_hand_sizes),
            "melds": _melds_dicts(self.melds, suited),
            "red_threes": list(self.red_threes), "opened": list(self.opened), "melded": list(self.melded),
            "initial_need": list(self.initial_need), "pile_size": self.pile_size, "pile_top": self.pile_top,
            "frozen": self.frozen, "frozen_for": list(self.frozen_for), "stock_size": self.stock_size,
            "turn": dict(turn[1]), "took_last": list(self.took_last), "last_turns": self.last_turns,
            "active": list(self.active), "precise": list(self.precise), "result": result,
            "winners": list(self.winners),
        })
        if history:
            out["history"] = [_event_dict(e) for e in self.history]
        out["examined_pile"] = None if self.examined_pile is None else list(self.examined_pile)
        out["black_threes_aside"] = list(self.black_threes_aside)
        if self.pile_buried:
            out["pile_buried"] = self.pile_buried
        ids = self.legal_action_ids
        if ids:
            hit = _LEGAL_TEXTS.get(id(ids))
            if hit is None or hit[0] is not ids or hit[1] is not self.legal_actions:
                if len(_LEGAL_TEXTS) > 4096:
                    _LEGAL_TEXTS.clear()
                hit = _LEGAL_TEXTS[id(ids)] = (ids, self.legal_actions, tuple(
                    zip(ids, [_action_text(a) for a in self.legal_actions])))
            out["legal_actions"] = [{"id": i, "action": text} for i, text in hit[2]]
        else:
            out["legal_actions"] = []
        return out

    def to_json(self, indent: Optional[int] = None) -> str:
        """:meth:`to_dict` as JSON text (``indent`` as :func:`json.dumps` takes it);
        :meth:`from_json` reads it back."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> "Observation":
        """The observation that :meth:`to_dict` gave ``data``.

        Raises :class:`ArgumentError` naming the key (``data.turn.drew``) for a value missing or
        of the wrong type, or a ``data`` of another format or version. It checks the shape, not
        whether a game could reach this observation (:func:`sample_state` does).
        """
        return _read_observation(data)

    @classmethod
    def from_json(cls, text: Union[str, bytes]) -> "Observation":
        """The observation that :meth:`to_json` gave ``text``; :class:`ArgumentError` for text
        that is not JSON or not an observation (as :meth:`from_dict`)."""
        if not isinstance(text, (str, bytes)):
            raise ArgumentError("text", f"expected JSON text, not {show(text)}")
        try:
            data = json.loads(text)
        except ValueError as e:
            raise ArgumentError("text", f"not JSON: {e}") from None
        return _read_observation(data)

    @property
    def sides(self) -> int:
        """Number of sides."""
        return len(self.totals)

    @property
    def suited(self) -> bool:
        """Whether the variant's cards carry suits (``melds.sequences``): the hand is then 59
        counts, per kind then per suited card."""
        return len(self.hand) == N_CODES

    @property
    def hand_size(self) -> int:
        """Cards in the observing player's own hand."""
        return sum(self.hand[:N_KINDS])


_MELD_DICTS: tuple[dict[int, tuple[TableMeld, dict[str, Any]]], ...] = ({}, {})
"""The dict of a meld, by the meld's id (melds are immutable and shared), without and with
``low`` (a variant with suits): copied for each output."""
_TURN_DICT: dict[int, tuple[PublicTurn, dict[str, Any]]] = {}
_EVENT_DICTS: dict[int, tuple[PublicEvent, dict[str, Any]]] = {}
_TEXTS: dict[int, tuple[Action, str]] = {}
"""An action's notation, by the action's id (the action spaces' actions are shared)."""


def _action_text(a: Action) -> str:
    hit = _TEXTS.get(id(a))
    if hit is not None and hit[0] is a:
        return hit[1]
    if len(_TEXTS) > 1 << 16:
        _TEXTS.clear()
    text = str(a)
    _TEXTS[id(a)] = (a, text)
    return text


_LEGAL_TEXTS: dict[int, tuple[tuple[int, ...], tuple[Action, ...], tuple[tuple[int, str], ...]]] = {}
"""The (id, notation) pairs of a tuple of legal ids and its actions (states with the same legal
actions share the tuples), by the ids tuple's id."""


_SIDE_BY_ID: tuple[dict[int, tuple[tuple[TableMeld, ...], list[dict[str, Any]]]], ...] = ({}, {})
_SIDE_DICTS: tuple[dict[tuple[TableMeld, ...], list[dict[str, Any]]], ...] = ({}, {})
"""A side's melds' dicts, by the side's melds (states share most sides' melds from one action
to the next), without and with ``low``: copied for each output."""


def _melds_dicts(melds: tuple[tuple[TableMeld, ...], ...], suited: bool) -> list[list[dict[str, Any]]]:
    """The melds' dicts (new ones, copied from those kept per side)."""
    cache = _SIDE_DICTS[suited]
    by_id = _SIDE_BY_ID[suited]
    out = []
    for side in melds:
        hit = by_id.get(id(side))  # (the seats' views of one state share its melds)
        if hit is not None and hit[0] is side:
            row = hit[1]
        else:
            cached = cache.get(side)
            if cached is None:
                if len(cache) > 4096:
                    cache.clear()
                cached = cache[side] = [_meld_dict(m, suited) for m in side]
            row = cached
            if len(by_id) > 4096:
                by_id.clear()
            by_id[id(side)] = (side, row)
        out.append([d.copy() for d in row])
    return out


def _meld_dict(m: TableMeld, suited: bool) -> dict[str, Any]:
    cache = _MELD_DICTS[suited]
    hit = cache.get(id(m))
    if hit is not None and hit[0] is m:
        return dict(hit[1])
    out: dict[str, Any] = {"rank": m.rank, "naturals": m.naturals, "jokers": m.jokers, "twos": m.twos,
                           "red_three": m.red_three}
    if suited:
        out["low"] = getattr(m, "low", 0)
    out["text"] = str(m)
    if len(cache) > 1 << 14:
        cache.clear()
    cache[id(m)] = (m, out)
    return dict(out)


def _event_dict(e: PublicEvent) -> dict[str, Any]:
    hit = _EVENT_DICTS.get(id(e))
    if hit is None or hit[0] is not e:
        if len(_EVENT_DICTS) > 1 << 16:
            _EVENT_DICTS.clear()
        hit = _EVENT_DICTS[id(e)] = (e, {"seat": e.seat, "action": _action_text(e.action),
                                         "stock_cards": e.stock_cards, "red_threes": e.red_threes})
    out = dict(hit[1])
    if out["red_threes"] is not None:
        out["red_threes"] = list(out["red_threes"])
    return out


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


# =============================================================== the dict form

_FORMAT = "canasta-observation"
_VERSION = 2
_VERSIONS = (1, 2)
"""The versions :meth:`Observation.from_dict` reads (1: ``turn.pending_top`` -1 for none,
``cards`` and ``history`` always present)."""
_TURN_KEYS = ("drew", "took", "count", "pending_size", "pending_top", "asked", "answer", "melded",
              "black_threes", "must_out", "touched_partner", "own_canasta", "melds_before", "had_melded",
              "no_take", "natural_meld")
_INTS = ("players", "seat", "side", "hand_number", "dealer", "down_hand_size", "pile_size", "stock_size",
         "last_turns")
_INT_LISTS = ("side_of", "totals", "hand", "hand_sizes", "down_hand_sizes", "red_threes", "initial_need",
              "active", "precise", "winners", "black_threes_aside")
_BOOL_LISTS = ("opened", "melded", "took_last")
_MAX_INT = 1 << 62


def _need(data: Any, key: str, where: str) -> Any:
    if not isinstance(data, dict):
        raise ArgumentError(where or "data", f"expected an object (a dict), not {show(data)}")
    if key not in data:
        raise ArgumentError(f"{where}.{key}" if where else key, "missing")
    return data[key]


def _int(value: Any, where: str, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if type(value) is not int:
        raise ArgumentError(where, f"expected an integer{' or null' if optional else ''}, not {show(value)}")
    return integer(value, where, -_MAX_INT, _MAX_INT)


def _bool(value: Any, where: str, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if type(value) is not bool:
        raise ArgumentError(where, f"expected true or false{' or null' if optional else ''}, not {show(value)}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ArgumentError(where, f"expected a string, not {show(value)}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ArgumentError(where, f"expected a list, not {show(value)}")
    return value


def _read_observation(data: Any) -> Observation:
    """The reader of :meth:`Observation.from_dict`."""
    w = "data"
    if _need(data, "format", w) != _FORMAT:
        raise ArgumentError("data.format", f"expected {_FORMAT!r}, not {show(data['format'])}")
    version = _need(data, "version", w)
    if type(version) is not int or version not in _VERSIONS:
        raise ArgumentError("data.version", f"expected {' or '.join(map(str, _VERSIONS))}, not {show(version)}")
    f: dict[str, Any] = {"variant": _str(_need(data, "variant", w), "data.variant")}
    for key in _INTS:
        f[key] = _int(_need(data, key, w), f"data.{key}")
    for key in _INT_LISTS:
        f[key] = tuple(_int(v, f"data.{key}.{i}") for i, v in enumerate(_list(_need(data, key, w), f"data.{key}")))
    for key in _BOOL_LISTS:
        f[key] = tuple(_bool(v, f"data.{key}.{i}") for i, v in enumerate(_list(_need(data, key, w), f"data.{key}")))
    f["current_player"] = _int(_need(data, "current_player", w), "data.current_player", optional=True)
    f["pile_top"] = _int(_need(data, "pile_top", w), "data.pile_top", optional=True)
    f["frozen"] = _bool(_need(data, "frozen", w), "data.frozen")
    phase = _need(data, "phase", w)
    try:
        f["phase"] = Phase(phase)
    except ValueError:
        raise ArgumentError("data.phase", f"expected one of {', '.join(p.value for p in Phase)}, "
                            f"not {show(phase)}") from None
    melds = []
    for s, side in enumerate(_list(_need(data, "melds", w), "data.melds")):
        row = []
        for j, m in enumerate(_list(side, f"data.melds.{s}")):
            at = f"data.melds.{s}.{j}"
            values = [_int(_need(m, "rank", at), f"{at}.rank"), _int(_need(m, "naturals", at), f"{at}.naturals"),
                      _int(_need(m, "jokers", at), f"{at}.jokers"), _int(_need(m, "twos", at), f"{at}.twos"),
                      _bool(_need(m, "red_three", at), f"{at}.red_three")]
            extra: dict[str, Any] = {}
            if isinstance(m, dict) and "low" in m:  # (a suited variant's melds)
                low = _int(m["low"], f"{at}.low")
                if low:
                    extra["low"] = low
            try:
                row.append(TableMeld(*values, **extra))
            except ArgumentError as e:  # (TableMeld.rank -> data.melds.0.0.rank)
                raise ArgumentError(f"{at}.{e.argument.rpartition('.')[2]}", e.problem) from None
        melds.append(tuple(row))
    f["melds"] = tuple(melds)
    turn = _need(data, "turn", w)
    tf: dict[str, Any] = {}
    for key in _TURN_KEYS:
        value = _need(turn, key, "data.turn")
        at = f"data.turn.{key}"
        if key == "pending_top":
            tf[key] = -1 if value is None and version >= 2 else _int(value, at)
            continue
        tf[key] = _bool(value, at, optional=key == "answer") if key not in (
            "count", "pending_size", "melds_before") else _int(value, at)
    f["turn"] = PublicTurn(**tf)
    r = _need(data, "result", w)
    if r is None:
        f["result"] = None
    else:
        scores = []
        for s, sc in enumerate(_list(_need(r, "scores", "data.result"), "data.result.scores")):
            at = f"data.result.scores.{s}"
            items = tuple(ScoreItem(_str(_need(it, "name", f"{at}.items.{k}"), f"{at}.items.{k}.name"),
                                    _int(_need(it, "count", f"{at}.items.{k}"), f"{at}.items.{k}.count"),
                                    _int(_need(it, "points", f"{at}.items.{k}"), f"{at}.items.{k}.points"))
                          for k, it in enumerate(_list(_need(sc, "items", at), f"{at}.items")))
            scores.append(HandScore(_int(_need(sc, "side", at), f"{at}.side"), items))
        f["result"] = HandResult(went_out=_int(_need(r, "went_out", "data.result"), "data.result.went_out", True),
                                 concealed=_bool(_need(r, "concealed", "data.result"), "data.result.concealed"),
                                 scores=tuple(scores), reason=_str(_need(r, "reason", "data.result"), "data.result.reason"))
    history = []
    if "frozen_for" in data or version >= 2:
        f["frozen_for"] = tuple(_bool(v, f"data.frozen_for.{i}")
                                for i, v in enumerate(_list(_need(data, "frozen_for", w), "data.frozen_for")))
    raw_history = data.get("history", []) if version >= 2 else _need(data, "history", w)
    for k, ev in enumerate(_list(raw_history, "data.history")):
        at = f"data.history.{k}"
        red = _need(ev, "red_threes", at)
        history.append(PublicEvent(
            seat=_int(_need(ev, "seat", at), f"{at}.seat", True), action=_action(_need(ev, "action", at), f"{at}.action"),
            stock_cards=_int(_need(ev, "stock_cards", at), f"{at}.stock_cards", True),
            red_threes=None if red is None else tuple(_int(v, f"{at}.red_threes.{i}")
                                                      for i, v in enumerate(_list(red, f"{at}.red_threes")))))
    f["history"] = tuple(history)
    if "pile_buried" in data:
        f["pile_buried"] = _int(data["pile_buried"], "data.pile_buried")
    pile = _need(data, "examined_pile", w)
    f["examined_pile"] = None if pile is None else tuple(
        _int(v, f"data.examined_pile.{i}") for i, v in enumerate(_list(pile, "data.examined_pile")))
    legal = _list(_need(data, "legal_actions", w), "data.legal_actions")
    f["legal_action_ids"] = tuple(_int(_need(x, "id", f"data.legal_actions.{i}"), f"data.legal_actions.{i}.id")
                                  for i, x in enumerate(legal))
    f["legal_actions"] = tuple(_action(_need(x, "action", f"data.legal_actions.{i}"), f"data.legal_actions.{i}.action")
                               for i, x in enumerate(legal))
    return Observation(**f)


def _action(value: Any, where: str) -> Action:
    try:
        return parse_action(_str(value, where))
    except ValueError as e:
        if isinstance(e, ArgumentError):
            raise
        raise ArgumentError(where, str(e)) from None


# =============================================================== the public history


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
        ev = PublicEvent(seat=seat, action=action, stock_cards=len(before.stock) - len(state.stock),
                         red_threes=tuple(c - b for b, c in zip(before.red_threes, state.red_threes)))
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


class Segment(NamedTuple):
    """One named part of an encoded observation: ``vector[offset : offset + prod(shape)]``,
    row-major in ``shape``."""

    name: str
    """The segment's name (``"own_hand"``, ``"melds"``, ...)."""
    offset: int
    """Where it starts in the vector."""
    shape: tuple[int, ...]
    """Its shape; the numbers are laid out row-major in it."""

    @property
    def length(self) -> int:
        """Numbers in the segment (the product of ``shape``)."""
        n = 1
        for d in self.shape:
            n *= d
        return n


TURN_FLAGS = ("drew", "took", "asked", "answer_yes", "answer_no", "melded", "black_threes",
              "must_out", "touched_partner", "own_canasta", "no_take", "natural_meld", "count", "pending_size")
"""The entries of the ``turn`` segment, in order (``count`` is scaled by 1/100); the names of
:class:`PublicTurn`'s fields, the answer as two flags."""

NO_TARGET_SCALE = 5000
"""What the ``totals`` segment divides by in a game without a target (``game.target = 0``,
a fixed number of hands)."""

MELD_FIELDS = ("naturals", "jokers", "twos", "red_three")
"""The entries of one meld slot in the ``melds`` segment, in order."""

SUITED_CARDS: tuple[int, ...] = (0, 1, 2, 3) + tuple(range(N_KINDS, N_CODES))
"""The card codes of a suited layout's card segments (``own_hand``, ``pile_top``,
``pile_discards``), in order: joker, deuce, red three, black three, then the 44 naturals with
their suits, ``4c 4d 4h 4s 5c ... As`` (codes 15-58)."""


class ObservationEncoder:
    """A fixed-length numeric vector form of :class:`Observation` for machine learning.

    ``ObservationEncoder(variant, players)`` (a :class:`Variant` or a name) fixes the layout
    for that variant and table size; :meth:`encode` gives a list of ``size`` floats.
    Seats are relative: the observing player is seat 0, the next player clockwise seat 1,
    and so on; sides are relative too: the observer's side first, then the others in the
    order their first seat follows him clockwise. So one network can play any seat.

    The segments, in order (``P`` players, ``S`` sides, ``R`` meld ranks, ``M`` melds per
    rank); :attr:`layout` gives each one's name, offset and shape:

    | name | shape | contents |
    |---|---|---|
    | ``own_hand`` | (15,) | own hand, count per card kind |
    | ``own_down_size`` | (1,) | own down hand size (only in a variant with down hands) |
    | ``other_hand_sizes`` | (P-1,) | hand sizes, next player first |
    | ``other_down_sizes`` | (P-1,) | down hand sizes (only with down hands) |
    | ``known_cards`` | (P-1, 15) | per other seat, next player first: the cards the hand's public history shows it holds, count per card kind: cards seen taken with the pile (or shown to take it) and not seen leaving that hand since (melded, added, discarded), by the rules :meth:`GameState.resample` keeps them with (a card of a kind the player also held unseen counts once: the fewest he must still hold); all 0 where the history does not reach back to the deal |
    | ``melds`` | (S, R, M, 4) | naturals, jokers, deuces and red-three topping (0/1) of each side's melds, per rank in :attr:`meld_ranks` order; slot ``m`` is meld number ``m+1`` of that rank; melds beyond ``M`` are summed into the last slot |
    | ``red_threes`` | (S,) | red threes faced |
    | ``black_threes_aside`` | (S,) | black threes set aside from taken piles or faced (only in a variant that does either: cuban's ``black_threes.from_pile = "set_aside"``, modern-american's ``black_threes.faced``) |
    | ``opened`` | (S,) | 1 when the side has made its initial meld |
    | ``initial_need`` | (S,) | initial-meld minimum / 100 |
    | ``totals`` | (S,) | cumulative total / the game's target (5,000 in a game of a fixed number of hands, target 0) |
    | ``dealer`` | (P,) | one-hot, relative |
    | ``active`` | (P,) | 1 for seats playing this deal, relative |
    | ``melded`` | (P,) | 1 for seats that have melded this hand, relative |
    | ``took_last`` | (P,) | 1 for seats that took the pile on their last turn, relative |
    | ``pile_size`` | (1,) | cards in the pile |
    | ``pile_top`` | (15,) | one-hot of the top card (all 0: empty pile) |
    | ``pile_discards`` | (15,) | cards the history shows were discarded onto the pile since it was last taken (:func:`pile_discards`) |
    | ``frozen`` | (1,) | 1 when the pile is frozen for everyone |
    | ``stock_size`` | (1,) | cards in the stock |
    | ``phase`` | (7,) | one-hot of :class:`Phase`, in its order |
    | ``current_player`` | (P,) | one-hot, relative (all 0: nobody acts) |
    | ``turn`` | (14,) | :data:`TURN_FLAGS`: 0/1 flags (the answer as two flags; ``natural_meld`` is :attr:`PublicTurn.natural_meld`), ``count`` / 100, pending size |
    | ``last_round`` | (2,) | 1 in a last round, and the turns left in it |

    Counts are plain numbers (not scaled) unless the table says otherwise. The history is
    not in the vector except as ``known_cards`` and ``pile_discards``. The segments come in
    three groups: the hands, then the table (melds to ``took_last``, which change seldom),
    then the pile, the stock and the turn.

    **Variants with suits** (``melds.sequences``: Samba) have their own layout, derived from
    the table the same way; variants without suits keep the table above exactly. In a suited
    layout :attr:`card_codes` is :data:`SUITED_CARDS` (48 codes: ``JK``, ``2``, ``3r``, ``3b``,
    then every natural with its suit, ``4c 4d 4h 4s 5c ... As``, code order) instead of the 15
    kinds, and :attr:`suited` is True:

    | name | shape | contents |
    |---|---|---|
    | ``own_hand`` | (48,) | own hand, count per card of :attr:`card_codes` (the per-kind totals are left out: they are sums of these) |
    | ``known_cards`` | (P-1, 48) | the cards known in each other hand, per card of :attr:`card_codes` |
    | ``melds`` | (S, R, M, 4) | the groups (melds of one rank), as above |
    | ``sequences`` | (S, 4, Q, L) | right after ``melds``: each side's sequences per suit (clubs, diamonds, hearts, spades), slot ``q`` being sequence number ``q+1`` of that suit (``hearts#2`` is slot 1), as a mask over the :attr:`sequence_ranks` (``L`` ranks, four to ace in Samba): 1 for each rank the sequence holds; sequences beyond ``Q`` (:attr:`sequence_slots`) are added into the last slot |
    | ``pile_top`` | (48,) | one-hot of the top card among :attr:`card_codes` |
    | ``pile_discards`` | (48,) | the discards onto the current pile, per card of :attr:`card_codes` |

    and every other segment as in the table above. Samba with four players has
    ``S = 2``, ``R = 12`` (black threes, four to ace), ``M = 6``, ``Q = 9``, ``L = 11``: a vector of
    1,713 numbers (792 of them the ``sequences``). Bolivia and Brazilian have wild-card melds
    too (their ``WILD_RANK`` row of ``melds``: ``R = 13``): 1,761 numbers with four players. A
    mask holds a sequence of any length (Brazilian lets one pass seven cards in the turn its
    player goes out), each of its ranks marked once.

    :meth:`encode_array` and :meth:`encode_batch` give numpy arrays (``float32``) instead of
    lists; numpy is needed only for them (``pip install "canasta[rl]"``).

    The layout is versioned like an environment: :attr:`LAYOUT_VERSION` is bumped whenever
    the vector of some observation changes (a segment added, removed, moved, resized, or its
    contents or scaling changed), so a network trained on one version is never silently fed
    another. Sizes that follow from the variant and table (``P``, ``S``, ``R``, ``M``) are
    part of the layout, not of its version: compare :attr:`size` too.
    """

    LAYOUT_VERSION = 2
    """The version of the vector layout (see above); version 2 is the table above (and, for
    variants with suits, the suited layout described with it). Version 1 had no
    ``known_cards`` and ``black_threes_aside`` segments, a ``turn`` of 13 entries (no
    ``natural_meld``), and ``dealer``, ``active``, ``melded`` and ``took_last`` after
    ``current_player``."""

    def __init__(self, variant: Union["Variant", str], players: int) -> None:
        from ._variant import Variant
        from ._variant_load import load_variant

        if isinstance(variant, (str, os.PathLike)):
            variant = load_variant(variant)
        elif not isinstance(variant, Variant):
            raise ArgumentError("variant", f"expected a Variant or a variant's name, not {show(variant)}")
        players = integer(players, "players")
        table = variant.table(players)
        self.variant = variant
        """The variant the layout is for."""
        self.players = players
        """The table size the layout is for."""
        letters = sorted(set(table.sides))
        self.side_of: tuple[int, ...] = tuple(letters.index(ch) for ch in table.sides)
        """Each absolute seat's side."""
        self.sides = len(letters)
        """Number of sides."""
        self.down_hands = table.down_hand_size > 0
        """Whether the layout has the down-hand segments."""
        from ._resample import known_cards

        R = _core.rules_for(variant, players)
        self._rules = R
        self._known_cards = known_cards
        self.black_threes_aside: bool = bool(R.b3_aside or R.b3_faced)
        """Whether the layout has the ``black_threes_aside`` segment (black threes set aside from
        taken piles, or faced)."""
        self.max_melds_per_rank: int = R.max_melds_per_rank
        """Meld slots per rank and side (``M``)."""
        self.suited: bool = R.suited
        """Whether the variant's cards carry suits (the suited layout: see above)."""
        self.card_codes: tuple[int, ...] = SUITED_CARDS if R.suited else tuple(range(N_KINDS))
        """The card codes of the ``own_hand``, ``pile_top`` and ``pile_discards`` entries, in
        order: the 15 kinds, or in a suited layout :data:`SUITED_CARDS`."""
        self._card_index = {c: i for i, c in enumerate(self.card_codes)}
        self.sequence_slots: int = R.max_seq_per_suit if R.suited else 0
        """Sequence slots per suit and side in the ``sequences`` segment (``Q``; 0 without
        suits)."""
        self.sequence_ranks: tuple[int, ...] = tuple(range(R.seq_lo, R.seq_hi + 1)) if R.suited else ()
        """The ranks of a sequence mask, in order (``L`` of them; empty without suits)."""
        ranks: list[int] = []
        if variant.black_threes.meld != "never":
            ranks.append(int(Card.BLACK_THREE))
        ranks += list(range(4, 15))
        if variant.melds.wild_melds or variant.melds.deuce_melds:
            ranks.append(WILD_RANK)  # a meld of wild cards only, or of deuces (italian 4.3)
        self.meld_ranks: tuple[int, ...] = tuple(ranks)
        """The meld ranks of the ``melds`` segment, in order (``WILD_RANK`` for wild melds)."""
        self._rank_index = {r: i for i, r in enumerate(ranks)}
        self._target = variant.game.target or NO_TARGET_SCALE
        p, s = players, self.sides
        nc = len(self.card_codes)
        shapes: list[tuple[str, tuple[int, ...]]] = [("own_hand", (nc,))]
        if self.down_hands:
            shapes.append(("own_down_size", (1,)))
        shapes.append(("other_hand_sizes", (p - 1,)))
        if self.down_hands:
            shapes.append(("other_down_sizes", (p - 1,)))
        shapes += [
            ("known_cards", (p - 1, nc)),
            ("melds", (s, len(ranks), self.max_melds_per_rank, len(MELD_FIELDS)))]
        if self.suited:
            shapes.append(("sequences", (s, 4, self.sequence_slots, len(self.sequence_ranks))))
        shapes.append(("red_threes", (s,)))
        if self.black_threes_aside:
            shapes.append(("black_threes_aside", (s,)))
        shapes += [
            ("opened", (s,)), ("initial_need", (s,)), ("totals", (s,)),
            ("dealer", (p,)), ("active", (p,)), ("melded", (p,)), ("took_last", (p,)),
            ("pile_size", (1,)), ("pile_top", (nc,)), ("pile_discards", (nc,)),
            ("frozen", (1,)), ("stock_size", (1,)), ("phase", (len(Phase),)),
            ("current_player", (p,)), ("turn", (len(TURN_FLAGS),)), ("last_round", (2,)),
        ]
        layout = []
        offset = 0
        for name, shape in shapes:
            seg = Segment(name, offset, shape)
            layout.append(seg)
            offset += seg.length
        self.layout: tuple[Segment, ...] = tuple(layout)
        """Every segment of the vector as ``(name, offset, shape)``, contiguous, in order."""
        self.size = offset
        """The length of every encoded vector."""
        self._by_name = {seg.name: seg for seg in layout}

    def segment(self, name: str) -> Segment:
        """The segment called ``name`` (an :class:`ArgumentError` if the layout has none)."""
        seg = self._by_name.get(name) if isinstance(name, str) else None
        if seg is None:
            raise ArgumentError("name", f"no segment {show(name)} in this layout; segments: "
                                + ", ".join(self._by_name))
        return seg

    def split(self, vector: Any) -> dict[str, list[float]]:
        """Cut an encoded vector into its segments (flat lists, row-major), by name.

        Raises :class:`ArgumentError` for a vector that is not a sequence of ``size`` items."""
        try:
            n = len(vector)
            vector[0:0]
        except TypeError:
            raise ArgumentError("vector", f"expected a sequence of {self.size} numbers, not {show(vector)}") from None
        if n != self.size:
            raise ArgumentError("vector", f"expected a vector of {self.size} numbers, not {n}")
        return {seg.name: list(vector[seg.offset: seg.offset + seg.length]) for seg in self.layout}

    def relative_sides(self, seat: int) -> tuple[int, ...]:
        """The absolute sides in the vector's order for an observer at ``seat``
        (:class:`ArgumentError` for a seat not at the table)."""
        seat = integer(seat, "seat", 0, self.players - 1)
        order: list[int] = []
        for k in range(self.players):
            side = self.side_of[(seat + k) % self.players]
            if side not in order:
                order.append(side)
        return tuple(order)

    def encode(self, obs: Observation) -> list[float]:
        """The observation as ``size`` floats laid out as :attr:`layout` says.

        Raises :class:`ArgumentError` (a ``ValueError``) for an observation of another variant
        or table size, or a value that is not an :class:`Observation`.
        """
        if not isinstance(obs, Observation):
            raise ArgumentError("obs", f"expected an Observation, not {show(obs)}")
        if obs.variant != self.variant.name or obs.players != self.players:
            raise ArgumentError("obs", f"this encoder is for {self.variant.name} with {self.players} "
                                f"players, not {obs.variant} with {obs.players}")
        hand_len = 59 if self.suited else 15
        if not isinstance(obs.hand, tuple) or len(obs.hand) != hand_len:
            raise ArgumentError("obs", f"not an observation play can give: its hand has "
                                f"{len(obs.hand) if isinstance(obs.hand, tuple) else show(obs.hand)} counts, "
                                f"not {hand_len}")
        try:
            out = self._encode(obs)
        except (ValueError, TypeError, IndexError, KeyError, AttributeError, ZeroDivisionError) as e:
            # (an Observation is a plain value anyone can build: a malformed one fails somewhere)
            raise ArgumentError("obs", f"not an observation play can give ({type(e).__name__}: {e})") from e
        if len(out) != self.size:
            raise ArgumentError("obs", f"not an observation play can give: it encodes to {len(out)} "
                                f"numbers, not {self.size}")
        return out

    def _encode(self, obs: Observation) -> list[float]:
        p = self.players
        me = obs.seat
        seats = [(me + k) % p for k in range(p)]
        sides = self.relative_sides(me)
        out: list[float] = []
        hand = obs.hand
        out += [float(hand[c]) for c in self.card_codes]
        if self.down_hands:
            out.append(float(obs.down_hand_size))
        out += [float(obs.hand_sizes[s]) for s in seats[1:]]
        if self.down_hands:
            out += [float(obs.down_hand_sizes[s]) for s in seats[1:]]
        known = self._known_cards(obs, self._rules)
        for s in seats[1:]:
            out += [float(known[s][c]) for c in self.card_codes]
        out += self._melds(obs, sides)
        if self.suited:
            out += self._sequences(obs, sides)
        out += [float(obs.red_threes[s]) for s in sides]
        if self.black_threes_aside:
            aside = obs.black_threes_aside or (0,) * len(obs.totals)
            out += [float(aside[s]) for s in sides]
        out += [float(obs.opened[s]) for s in sides]
        out += [obs.initial_need[s] / 100.0 for s in sides]
        out += [obs.totals[s] / self._target for s in sides]
        out += _one_hot(p, (obs.dealer - me) % p)
        active = set(obs.active)
        out += [float(s in active) for s in seats]
        out += [float(obs.melded[s]) for s in seats]
        out += [float(obs.took_last[s]) for s in seats]
        out.append(float(obs.pile_size))
        out += _one_hot(len(self.card_codes), None if obs.pile_top is None else self._card_index[obs.pile_top])
        discards = pile_discards(obs)
        out += [float(discards[c]) for c in self.card_codes]
        out.append(float(obs.frozen))
        out.append(float(obs.stock_size))
        out += _one_hot(len(Phase), list(Phase).index(obs.phase))
        cur = obs.current_player
        out += _one_hot(p, None if cur is None else (cur - me) % p)
        t = obs.turn
        out += [float(t.drew), float(t.took), float(t.asked), float(t.answer is True),
                float(t.answer is False), float(t.melded), float(t.black_threes),
                float(t.must_out), float(t.touched_partner), float(t.own_canasta),
                float(t.no_take), float(t.natural_meld), t.count / 100.0, float(t.pending_size)]
        out += [float(obs.last_turns >= 0), float(max(obs.last_turns, 0))]
        return out

    def encode_array(self, obs: Observation) -> npt.NDArray[numpy.float32]:
        """The observation as a numpy ``float32`` array of shape ``(size,)``: :meth:`encode`
        as an array (the same numbers, rounded to ``float32``). Needs numpy.

        Raises :class:`ArgumentError` (a ``ValueError``) like :meth:`encode`.
        """
        vector = self.encode(obs)  # (the arguments are checked whether numpy is installed or not)
        import numpy

        return numpy.array(vector, dtype=numpy.float32)

    def encode_into(self, state: "GameState", seat: int, out: Any, mask: Any = None) -> None:
        """Write the vector of ``state`` seen from ``seat`` straight into ``out``, and the
        state's legal-action mask into ``mask`` (if given, else None): the numbers of
        :meth:`encode` of ``state.observation(seat)`` and of ``state.legal_action_mask()``,
        without building the observation. On the native core both are computed natively and
        nothing is allocated; on the Python core they come from :meth:`encode`.

        ``out`` is any writable, contiguous buffer of :attr:`size` ``float32`` numbers (a numpy
        array, ``array.array("f")``, or a ``bytearray`` of ``4 * size`` bytes); ``mask`` one
        of as many one-byte numbers as the action space has ids (``int8``, ``uint8`` or
        ``bool``: a numpy array, ``bytearray``, ``array.array("b")``). It reads the state's
        history from the deal, as states dealt by :func:`new_game` or
        :meth:`GameState.next_hand` and played on hold it (the environments' states): for a
        position loaded mid-hand use :meth:`encode`.

        Raises :class:`ArgumentError` (a ``ValueError``) for a buffer of another type or
        length or a read-only one, a state of another variant or table size, or a seat not at
        the table.
        """
        writer = self.__dict__.get("_writer")
        if writer is None:
            from ._obs_native import Writer

            writer = self._writer = Writer(self)
        writer.write(state, seat, out, mask)

    def encode_batch(self, observations: Iterable[Observation]) -> npt.NDArray[numpy.float32]:
        """Many observations at once: a ``float32`` array of shape ``(n, size)`` whose row
        ``i`` is :meth:`encode_array` of the ``i``-th observation (``(0, size)`` for none).
        Needs numpy.

        Raises :class:`ArgumentError` (a ``ValueError``) if any observation is of another
        variant or table size, or is not an :class:`Observation`.
        """
        if isinstance(observations, Observation) or not isinstance(observations, Iterable):
            raise ArgumentError("observations", f"expected an iterable of Observations, not {show(observations)}")
        rows = [self.encode(o) for o in observations]
        import numpy

        if not rows:
            return numpy.zeros((0, self.size), dtype=numpy.float32)
        return numpy.array(rows, dtype=numpy.float32)

    def _melds(self, obs: Observation, sides: tuple[int, ...]) -> list[float]:
        m = self.max_melds_per_rank
        nr = len(self.meld_ranks)
        width = len(MELD_FIELDS)
        out = [0.0] * (len(sides) * nr * m * width)
        for si, side in enumerate(sides):
            seen: dict[int, int] = {}
            for meld in obs.melds[side]:
                ri = self._rank_index.get(meld.rank)
                if ri is None:  # pragma: no cover - the engine makes no such meld
                    continue
                slot = min(seen.get(meld.rank, 0), m - 1)
                seen[meld.rank] = seen.get(meld.rank, 0) + 1
                base = ((si * nr + ri) * m + slot) * width
                out[base] += meld.naturals
                out[base + 1] += meld.jokers
                out[base + 2] += meld.twos
                out[base + 3] = max(out[base + 3], float(meld.red_three))
        return out


    def _sequences(self, obs: Observation, sides: tuple[int, ...]) -> list[float]:
        q = self.sequence_slots
        width = len(self.sequence_ranks)
        lo = self.sequence_ranks[0]
        out = [0.0] * (len(sides) * 4 * q * width)
        for si, side in enumerate(sides):
            seen = [0, 0, 0, 0]
            for meld in obs.melds[side]:
                if meld.rank < SEQ:
                    continue
                suit = meld.rank - SEQ
                slot = min(seen[suit], q - 1)
                seen[suit] += 1
                base = ((si * 4 + suit) * q + slot) * width - lo
                low = getattr(meld, "low", 0)
                if meld.naturals < 1 or low < lo or low + meld.naturals - 1 > self.sequence_ranks[-1]:
                    # (a hand-built meld: its marks would land in another slot)
                    raise ValueError(f"a sequence of {meld.naturals} cards from rank {low} is not within "
                                     f"ranks {lo} to {self.sequence_ranks[-1]}")
                for r in range(low, low + meld.naturals):
                    out[base + r] += 1.0
        return out


def _one_hot(n: int, index: Optional[int]) -> list[float]:
    v = [0.0] * n
    if index is not None:
        v[index] = 1.0
    return v


def pile_discards(obs: Observation) -> tuple[int, ...]:
    """Counts per kind of the cards the history shows were discarded onto the current pile
    (in a variant with suits, per card code: 59 counts, the suited naturals at 15-58).

    Cards dealt into the pile (the upcard and any card covering it) are not counted: only
    the top card of the pile is seen, and only discards are announced.
    """
    n = len(obs.hand)
    known = [0] * n
    saved: list[int] = known
    for ev in obs.history:
        a = ev.action
        if isinstance(a, Discard):
            known[a.card] += 1
        elif isinstance(a, Take):
            saved, known = known, [0] * n
        elif isinstance(a, Retract):
            known = list(saved)
    return tuple(known)
