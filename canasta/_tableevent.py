"""One public event at the table as a value: :class:`Event` and :class:`EventKind`, and the
event's dict form.

Built on the cards and the actions; the states (``_state``, for :meth:`GameState.events_of`'s
type) and the events of a state (``_events``) are built on it.
"""

from __future__ import annotations

import enum
from typing import Any, Optional

from attrs import field, frozen

from ._actions import Action
from ._cards import CODE_TOKENS as _TOKENS  # (a card code's token: a kind's, or a suited card's, 7h)
from ._errors import ArgumentError, show

__all__ = ["Event", "EventKind"]


class EventKind(str, enum.Enum):
    """What an :class:`Event` reports. A ``str`` enum: ``EventKind.TAKE == "take"``.

    The first eleven are the actions themselves (one per action class); the others are what
    an action sets off.
    """

    DRAW = "draw"
    """A draw from the stock (``count`` cards; which ones is hidden)."""
    TAKE = "take"
    """The discard pile taken (``count``: the cards taken, the whole pile but where a variant
    takes only its top cards; ``cards``: its top card)."""
    MELD = "meld"
    """A new meld laid (``cards``, ``rank``)."""
    ADD = "add"
    """A card added to a meld (``cards``: the card; ``rank``; ``meld``: its number)."""
    COMBINE = "combine"
    """Two melds of one rank combined (``rank``)."""
    DISCARD = "discard"
    """A discard (``cards``: the card)."""
    ASK = "ask"
    """"Partner, may I go out?"."""
    ANSWER = "answer"
    """The partner's answer (``count``: 1 for yes, 0 for no)."""
    PASS = "pass"
    """The pile declined with the stock exhausted."""
    DONE = "done"
    """Melding finished without a discard (the stock's last card was a red three)."""
    RETRACT = "retract"
    """A take for the initial meld undone (``count``: the cards given back to the pile)."""
    RED_THREES = "red_threes"
    """Red threes laid down by a side (``count`` of them; ``seat`` None when found in hands at
    the hand's end)."""
    CANASTA = "canasta"
    """A side completed a canasta (``rank``; ``count``: its cards; ``natural``)."""
    FROZEN = "frozen"
    """The pile became frozen (``cards``: the card that froze it)."""
    GO_OUT = "go_out"
    """A player went out (``natural`` is True when concealed)."""
    HAND_END = "hand_end"
    """The hand ended (``points``: each side's score for the hand; ``count``: the hand, from 1)."""
    GAME_END = "game_end"
    """The game ended (``points``: the totals; ``sides``: the winning sides)."""
    DEAL = "deal"
    """(:func:`deal_events`) a hand was dealt (``seat``: the dealer; ``count``: the hand, from
    1; ``cards``: the pile's top card, the upcard; its text tells how many cards lie face down
    under it where the variant buries some, ``upcard.buried``)."""
    DOWN_HAND = "down_hand"
    """A player picked up his down hand, the foot of Hand and Foot (``seat``: whose;
    ``count``: its cards, which only he sees)."""
    TALON = "talon"
    """The player whose meld made his side's initial meld drew the side's talon at once
    (``deal.talon_when = "at_once"``; mexicana: thirteen cards; ``count``: the cards that left
    the stock, red threes among them faced; which ones is hidden)."""

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return f"EventKind.{self.name}"

    def __hash__(self) -> int:
        return str.__hash__(self)


def _event_kind(value: Any) -> EventKind:
    try:
        return EventKind(value)
    except ValueError:
        raise ArgumentError("Event.kind", f"expected an EventKind or its value ({', '.join(k.value for k in EventKind)}), "
                            f"not {show(value)}") from None


def _text(_: Any, __: Any, value: Any) -> None:
    if not isinstance(value, str):
        raise ArgumentError("Event.text", f"expected a string, not {show(value)}")


@frozen(slots=True)
class Event:
    """One public event at the table: a ``text`` for people and the same facts as fields.

    Fields that do not apply to a kind keep their defaults (None, ``()``, 0, False); see
    :class:`EventKind` for what each kind sets.
    """

    kind: EventKind = field(converter=_event_kind)
    """What happened (an :class:`EventKind`; its string value is accepted)."""
    text: str = field(validator=_text)
    """One sentence for people, e.g. ``"Seat 1 took the pile: 7 cards (top 9)."``."""
    seat: Optional[int] = None
    """The seat that acted (None when no one seat did: a hand's end)."""
    side: Optional[int] = None
    """The side concerned (the actor's side for an action)."""
    action: Optional[Action] = None
    """The action played (for the kinds that are actions, and for the events it set off)."""
    cards: tuple[int, ...] = ()
    """Public cards concerned, as card kinds (card codes, :class:`SuitedCard` for a natural,
    in a variant with suited cards): a meld's cards, the card added or discarded, the
    pile's top card taken. Never a card only one player saw."""
    count: int = 0
    """A number of cards (drawn, taken, red threes, a canasta's size), or as :class:`EventKind` says."""
    rank: Optional[int] = None
    """The meld rank concerned (``WILD_RANK``, 15, for a meld of wild cards only;
    ``SEQUENCE_RANK + suit``, 16-19, for a sequence)."""
    meld: int = 0
    """The meld's number among the side's melds of ``rank`` (from 1), for ``ADD``/``COMBINE``."""
    natural: bool = False
    """A natural canasta (``CANASTA``); a concealed going out (``GO_OUT``); a yes (``ANSWER``)."""
    points: tuple[int, ...] = ()
    """Per side: the hand's scores (``HAND_END``) or the game's totals (``GAME_END``)."""
    sides: tuple[int, ...] = ()
    """(``GAME_END``) the winning sides."""

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict[str, Any]:
        """The event as plain JSON-ready values; :meth:`from_dict` reads it back, equal.

        ``{"kind": "take", "text": "...", "seat": 1, "side": 1, "action": "take 7 7",
        "cards": [7], "tokens": ["7"], "count": 7, "rank": 7, "meld": 0, "natural": false,
        "points": [], "sides": []}``: every field under its own name, ``kind`` as its value,
        ``action`` in the notation (or null), tuples as lists; ``tokens`` are the ``cards``'
        notation tokens (:func:`card_token`), for readers, and ignored by :meth:`from_dict`.
        """
        return {
            "kind": self.kind.value, "text": self.text, "seat": self.seat, "side": self.side,
            "action": None if self.action is None else str(self.action), "cards": list(self.cards),
            "tokens": [_TOKENS[c] for c in self.cards], "count": self.count, "rank": self.rank,
            "meld": self.meld, "natural": self.natural, "points": list(self.points), "sides": list(self.sides),
        }

    @classmethod
    def from_dict(cls, data: Any) -> "Event":
        """The event that :meth:`to_dict` gave ``data``.

        Raises :class:`ArgumentError` naming the key (``data.count``) for a value missing or of
        the wrong type (a card code out of range, an action that is not notation).
        """
        return _read_event(data)


def _read_event(data: Any) -> Event:
    """The reader of :meth:`Event.from_dict`."""
    from ._actions import parse_action

    if not isinstance(data, dict):
        raise ArgumentError("data", f"expected an object (a dict), not {show(data)}")

    def need(key: str) -> Any:
        if key not in data:
            raise ArgumentError(f"data.{key}", "missing")
        return data[key]

    def int_(value: Any, where: str, optional: bool = False, low: int = -(1 << 62), high: int = 1 << 62) -> Any:
        if value is None and optional:
            return None
        if type(value) is not int or not low <= value <= high:
            raise ArgumentError(where, f"expected an integer{f' from {low} to {high}' if high < 1 << 62 else ''}"
                                f"{' or null' if optional else ''}, not {show(value)}")
        return value

    def ints(key: str, high: int = 1 << 62) -> tuple[int, ...]:
        value = need(key)
        if not isinstance(value, list):
            raise ArgumentError(f"data.{key}", f"expected a list of integers, not {show(value)}")
        low = 0 if high < 1 << 62 else -(1 << 62)
        return tuple(int_(v, f"data.{key}.{i}", low=low, high=high) for i, v in enumerate(value))

    kind = need("kind")
    try:
        kind = EventKind(kind)
    except ValueError:
        raise ArgumentError("data.kind", f"expected one of {', '.join(k.value for k in EventKind)}, "
                            f"not {show(kind)}") from None
    text = need("text")
    if not isinstance(text, str):
        raise ArgumentError("data.text", f"expected a string, not {show(text)}")
    action = need("action")
    if action is not None:
        if not isinstance(action, str):
            raise ArgumentError("data.action", f"expected an action in notation or null, not {show(action)}")
        try:
            action = parse_action(action)
        except ValueError as e:
            raise ArgumentError("data.action", str(e)) from None
    natural = need("natural")
    if type(natural) is not bool:
        raise ArgumentError("data.natural", f"expected true or false, not {show(natural)}")
    return Event(kind, text, seat=int_(need("seat"), "data.seat", True), side=int_(need("side"), "data.side", True),
                 action=action, cards=ints("cards", len(_TOKENS) - 1), count=int_(need("count"), "data.count"),
                 rank=int_(need("rank"), "data.rank", True), meld=int_(need("meld"), "data.meld"),
                 natural=natural, points=ints("points"), sides=ints("sides"))

