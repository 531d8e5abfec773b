"""Per-player observations: what one seat may know of a game, and a numeric vector of it.

:func:`observation` (in ``_observe``) turns a :class:`GameState` into an :class:`Observation`
for one seat: everything that player may know and nothing more. Two states that differ only
in cards the player cannot see (the other hands' contents, the order of the stock, his own
unseen down hand) give equal observations.

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

:class:`ObservationEncoder` (in ``_encoder``) flattens an observation into a fixed-length list
of floats for machine learning, with the observing player as seat 0 so one network can play
any seat.

This module holds the observation as a value (:class:`Observation`, :class:`PublicTurn`,
:class:`PublicEvent`) and its dict form. Built on the values of a state's fields (``_fields``),
the cards and the actions; the states (``_state``), observing a state (``_observe``), the
public history, the encoder, resampling and the bots are built on it.
"""

from __future__ import annotations

import json
from typing import Any, Optional, Union

from attrs import field, frozen

from ._actions import Action, parse_action
from ._cards import _TOKENS, CODE_TOKENS, N_CODES, N_KINDS
from ._core._backend import _ext
from ._errors import ArgumentError, integer, show
from ._fields import HandResult, HandScore, Phase, ScoreItem, TableMeld, Turn

__all__ = [
    "Observation",
    "PublicEvent",
    "PublicTurn",
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
        if _DICT_NATIVE is not None:
            return _DICT_NATIVE(self, history, legend, _DICT_HELPERS)
        suited = len(self.hand) == N_CODES
        turn = _turn_dict(self.turn)
        r = self.result
        result = None if r is None else _result_dict(r)
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
            "turn": turn, "took_last": list(self.took_last), "last_turns": self.last_turns,
            "active": list(self.active), "precise": list(self.precise), "result": result,
            "winners": list(self.winners),
        })
        if history:
            out["history"] = _history_dicts(self.history)
        out["examined_pile"] = None if self.examined_pile is None else list(self.examined_pile)
        out["black_threes_aside"] = list(self.black_threes_aside)
        if self.pile_buried:
            out["pile_buried"] = self.pile_buried
        ids = self.legal_action_ids
        out["legal_actions"] = _legal_dicts(ids, self.legal_actions) if ids else []
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


_EVENT_DICTS_NATIVE: Any = getattr(_ext, "event_dicts", None)
"""(native) the dicts of a tuple of events, each new, copied from ``_EVENT_DICTS`` (made by
:func:`_event_dict` where missing): ``native/src/obsobj.rs``."""


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


def _turn_dict(t: PublicTurn) -> dict[str, Any]:
    """The dict of the turn ``t`` (new), made once per turn record and kept by its id."""
    turn = _TURN_DICT.get(id(t))
    if turn is None or turn[0] is not t:
        if len(_TURN_DICT) > 256:
            _TURN_DICT.clear()
        values = {name: getattr(t, name) for name in _TURN_KEYS}
        if values["pending_top"] < 0:
            values["pending_top"] = None
        turn = _TURN_DICT[id(t)] = (t, values)
    return dict(turn[1])


def _result_dict(r: HandResult) -> dict[str, Any]:
    """The dict of a hand's result (new)."""
    return {"went_out": r.went_out, "concealed": r.concealed, "reason": r.reason,
            "scores": [{"side": h.side, "total": h.total,
                        "items": [{"name": i.name, "count": i.count, "points": i.points} for i in h.items]}
                       for h in r.scores]}


def _history_dicts(events: tuple[PublicEvent, ...]) -> list[dict[str, Any]]:
    """The events' dicts (new ones)."""
    if _EVENT_DICTS_NATIVE is not None and type(events) is tuple:
        out: list[dict[str, Any]] = _EVENT_DICTS_NATIVE(events, _EVENT_DICTS, _event_dict)
        return out
    return [_event_dict(e) for e in events]


def _legal_dicts(ids: tuple[int, ...], actions: tuple[Action, ...]) -> list[dict[str, Any]]:
    """The legal actions' dicts ``{"id", "action"}`` (new ones), their texts kept per ids tuple."""
    hit = _LEGAL_TEXTS.get(id(ids))
    if hit is None or hit[0] is not ids or hit[1] is not actions:
        if len(_LEGAL_TEXTS) > 4096:
            _LEGAL_TEXTS.clear()
        hit = _LEGAL_TEXTS[id(ids)] = (ids, actions, tuple(zip(ids, [_action_text(a) for a in actions])))
    return [{"id": i, "action": text} for i, text in hit[2]]


_DICT_NATIVE: Any = getattr(_ext, "obs_dict", None)
"""(native) :meth:`Observation.to_dict` made in one call (``native/src/obsobj.rs``), reading the
dicts kept here and calling the functions above where they lack what is asked."""
_DICT_HELPERS: tuple[Any, ...] = (None, None, tuple(_TOKENS), tuple(CODE_TOKENS), _TURN_DICT, _turn_dict, _result_dict, _SIDE_BY_ID,
                 _melds_dicts, _history_dicts, _LEGAL_TEXTS, _legal_dicts)


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
_DICT_HELPERS = (_FORMAT, _VERSION) + _DICT_HELPERS[2:]


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

