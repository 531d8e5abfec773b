"""Actions: the atomic decisions of a turn, their text notation and their dense ids.

Notation (case-insensitive when read; ``str(action)`` gives the canonical form)::

    draw                  draw from the stock
    take 7 7              take the pile: top 7 with a natural pair of 7s from the hand
    take 7 JK / take 7 2  take the pile: top 7 with a natural 7 and a joker / a deuce
    take onto 7           take the pile: add the top 7 to the side's 7s meld (``7#2``: the second)
    meld 7 7 7            new meld from the hand (``meld 7 7 2``, ``meld 3b 3b 3b``, ``meld JK JK 2``)
    add 7                 add a card to the side's meld of its rank
    add JK to 7           add a card to a named meld (``add 2 to 7#2``, ``add 3r to 7``)
    combine 7#1 7#2       combine two melds of one rank
    discard 7             discard, ending the turn
    ask                   "Partner, may I go out?"
    yes / no              the partner's binding answer
    pass                  with the stock exhausted: do not take the pile
    done                  finish melding when no discard is allowed (last card a red three)
    retract               undo a take for the initial meld that cannot reach the minimum

In a variant with sequences (``melds.sequences``, as Samba) natural cards carry their suits
(:class:`SuitedCard`), and the actions name them so::

    discard 7h            discard the seven of hearts
    take 7h 7s            take the pile: top 7 with the 7h and the 7s from the hand
    take onto hearts      take the pile: the top card onto the side's hearts sequence (``hearts#2``)
    meld 7s 7h 2          a group (naturals by code, highest first, then wild cards)
    meld 5h 6h 7h         a sequence: three naturals of one suit in a row, lowest first
    add 7d to 7#2         add a card to a group
    add 8h to hearts      add a card to the side's hearts sequence, at either end
"""

from __future__ import annotations

import difflib
import enum
import numbers
from typing import TYPE_CHECKING, Any, Iterable, Optional, Union

from attrs import field, fields, frozen

from ._cards import _TOKENS, CODE_TOKENS, KIND_OF, N_CODES, N_KINDS, SEQUENCE_RANK, SUIT_NAMES, WILD_RANK, Card, parse_code
from ._core import _rules as K
from ._core._notation import meld_ref as _meld_ref
from ._core._notation import text as _text
from ._errors import ArgumentError, integer, show

if TYPE_CHECKING:
    from ._variant import Variant



class TakeWay(str, enum.Enum):
    """How the discard pile is taken (:attr:`Take.way`).

    A ``str`` enum: each member equals its value (``TakeWay.PAIR == "pair"``), hashes like
    it and prints as it, so code written with the strings keeps working, and :class:`Take`
    accepts either (``Take(7, TakeWay.PAIR)`` or ``Take(7, "pair")``; the field always holds
    the member).
    """

    PAIR = "pair"
    """With a natural pair of the top card's rank from the hand (``take 7 7``)."""
    JOKER = "joker"
    """With one natural of the top card's rank and a joker (``take 7 JK``)."""
    TWO = "two"
    """With one natural of the top card's rank and a deuce (``take 7 2``)."""
    ONTO = "onto"
    """By adding the top card to a meld of its rank on the table (``take onto 7``), or to a
    sequence of its suit (``take onto hearts``)."""

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return f"TakeWay.{self.name}"

    def __hash__(self) -> int:
        return str.__hash__(self)


_WAYS = {TakeWay.PAIR: K.W_PAIR, TakeWay.JOKER: K.W_JOKER, TakeWay.TWO: K.W_TWO, TakeWay.ONTO: K.W_ONTO}
_WAY_OF: dict[str, TakeWay] = {w.value: w for w in TakeWay}
"""A way by its value (a member, equal and hashing like its value, finds itself)."""


MAX_MELD_NUMBER = 9999
"""The largest meld number an action may name (``7#9999``); a side never holds that many."""


class ActionParseError(ValueError):
    """Text that is not an action in the notation (or not text at all: ``parse_action(None)``)."""


def _kind(value: Any, argument: str, high: int = N_KINDS - 1) -> int:
    """``value`` as a card kind (an ``int`` or a :class:`Card`; ``WILD_RANK`` too when ``high``
    allows), or an :class:`ArgumentError` naming ``argument`` and saying what a kind is."""
    if type(value) is int and 0 <= value <= high:
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return integer(value, argument, 0, high)
    wild = " or WILD_RANK (15, a meld of wild cards only)" if high == WILD_RANK else ""
    hint = ""
    if isinstance(value, str):
        hint = f"; for the token {show(value)} write Card.parse({show(value)})"
    raise ArgumentError(argument, f"expected a card kind: a Card (Card.SEVEN) or its value 0-14{wild}, "
                        f"not {show(value)}{hint}")


def _code(value: Any, argument: str) -> int:
    """``value`` as a card: a kind (0-14, a :class:`Card`) or a suited card's code (15-58, a
    :class:`SuitedCard`), or an :class:`ArgumentError` naming ``argument``."""
    if type(value) is int and 0 <= value < N_CODES:
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        if 0 <= int(value) < N_CODES:
            return int(value)
        raise ArgumentError(argument, f"must be a card kind from 0 to 14 or a suited card's code from 15 to 58 "
                            f"(a Card or a SuitedCard), not {show(value)}")
    hint = ""
    if isinstance(value, str):
        hint = f"; for the token {show(value)} write Card.parse({show(value)}) (SuitedCard.parse for '7h')"
    raise ArgumentError(argument, f"expected a card kind: a Card (Card.SEVEN) or its value 0-14, or a suited "
                        f"card (SuitedCard.SEVEN_HEARTS, 15-58), not {show(value)}{hint}")


def _meld_rank(value: Any, argument: str, wild: bool) -> int:
    """``value`` as the rank naming a side's melds: a card kind (``WILD_RANK`` too with ``wild``),
    or a sequence key ``SEQUENCE_RANK + suit`` (16-19)."""
    if type(value) is int and (0 <= value <= (WILD_RANK if wild else N_KINDS - 1)
                               or SEQUENCE_RANK <= value < SEQUENCE_RANK + 4):
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        v = int(value)
        if 0 <= v <= (WILD_RANK if wild else N_KINDS - 1) or SEQUENCE_RANK <= v < SEQUENCE_RANK + 4:
            return v
        kinds = "from 0 to 15 (a card kind, or WILD_RANK)" if wild else "from 0 to 14 (a card kind)"
        raise ArgumentError(argument, f"must be {kinds} or from 16 to 19 (a sequence: SEQUENCE_RANK + suit), "
                            f"not {show(value)}")
    return _kind(value, argument, WILD_RANK if wild else N_KINDS - 1)


def _take_rank(value: Any) -> int:
    return _meld_rank(value, "Take.rank", False)


def _take_cards(value: Any) -> tuple[int, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ArgumentError("Take.cards", f"expected the two cards shown from the hand (suited cards such as "
                            f"SuitedCard.SEVEN_HEARTS, or a joker or deuce), not {show(value)}")
    cards = [_code(c, "Take.cards") for c in value]
    return tuple(sorted((c for c in cards if c > Card.TWO), reverse=True) + sorted(c for c in cards if c <= Card.TWO))


def _take_meld(value: Any) -> int:
    return integer(value, "Take.meld", 1, MAX_MELD_NUMBER)


def _add_card(value: Any) -> int:
    return _code(value, "Add.card")


def _add_rank(value: Any) -> int:
    return _meld_rank(value, "Add.rank", True)


def _add_meld(value: Any) -> int:
    return integer(value, "Add.meld", 1, MAX_MELD_NUMBER)


def _combine_rank(value: Any) -> int:
    return _meld_rank(value, "Combine.rank", True)


def _combine_first(value: Any) -> int:
    return integer(value, "Combine.first", 1, MAX_MELD_NUMBER)


def _combine_second(value: Any) -> int:
    return integer(value, "Combine.second", 1, MAX_MELD_NUMBER)


def _discard_card(value: Any) -> int:
    return _code(value, "Discard.card")


def _way(value: Any) -> TakeWay:
    way = _WAY_OF.get(value) if isinstance(value, str) else None
    if way is None:
        raise ArgumentError("Take.way", "expected a TakeWay (TakeWay.PAIR, JOKER, TWO or ONTO) or its value "
                            f"({', '.join(repr(w.value) for w in TakeWay)}), not {show(value)}")
    return way


def _yes(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ArgumentError("Answer.yes", f"expected True or False, not {show(value)}")
    return value


def _meld_order(cards: Iterable[int]) -> tuple[int, ...]:
    """A meld's cards in the notation's order: naturals (highest first), then jokers, then
    deuces; suited naturals of more than one rank (a sequence) lowest first."""
    naturals = [c for c in cards if c > Card.TWO]
    wilds = sorted(c for c in cards if c <= Card.TWO)
    if naturals and min(naturals) >= N_KINDS and len({KIND_OF[c] for c in naturals}) > 1:
        naturals.sort()
    else:
        naturals.sort(reverse=True)
    return tuple(naturals + wilds)


def _meld_cards(value: Any) -> tuple[int, ...]:
    """A new meld's cards, checked, in the notation's order (:func:`_meld_order`)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        hint = f"; for text write parse_action('meld ...')" if isinstance(value, str) else ""
        raise ArgumentError("Meld.cards", f"expected a sequence of card kinds (Card.SEVEN or 0-14) or suited "
                            f"cards (SuitedCard.SEVEN_HEARTS), not {show(value)}{hint}")
    cards = [_code(c, "Meld.cards") for c in value]
    if len(cards) < 3:
        raise ArgumentError("Meld.cards", f"a new meld has at least three cards, not {len(cards)}")
    return _meld_order(cards)


class Action:
    """Base class of every action: a small immutable value with a text notation.

    ``str(action)`` is its notation and :func:`parse_action` reads it back; an
    :class:`ActionSpace` gives it a dense integer id.
    """

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        # Every pickle protocol rebuilds an action from its fields. attrs' pickled state of an
        # action without fields (Draw, Ask...) is empty, so protocols 0 and 1 never restored
        # it and left the cached hash unset (AttributeError '_attrs_cached_hash').
        cls: Any = type(self)  # (an attrs class: every action class is one)
        return cls, tuple(getattr(self, a.name) for a in fields(cls))

    def _spec(self) -> K.Spec:
        raise ArgumentError("action", f"{type(self).__name__} is not one of the action classes "
                            "(Draw, Take, Meld, Add, Combine, Discard, Ask, Answer, Pass, Done, Retract)")

    def __str__(self) -> str:
        return _text(self._spec())


@frozen(slots=True, cache_hash=True)
class Draw(Action):
    """Draw from the stock (as many cards as the table draws)."""

    def _spec(self) -> K.Spec:
        return (K.DRAW, 0, 0, 0, ())


@frozen(slots=True, cache_hash=True)
class Take(Action):
    """Take the discard pile.

    ``way`` is a :class:`TakeWay` (or its string, kept for compatibility): ``PAIR`` (a natural
    pair of the top card's rank), ``JOKER`` or ``TWO`` (one natural and that wild card) or
    ``ONTO`` (add the top card to the side's meld number ``meld`` of that rank). ``rank`` is
    the rank of the top card, a card kind (the rules refuse a take of a wild card or a three,
    but it can be named: ``take JK JK``). Fields out of range, a way ``JOKER``/``TWO`` with a
    wild ``rank``, or a ``meld`` other than 1 with a way other than ``ONTO``, raise
    :class:`ArgumentError`.

    In a variant with sequences (``melds.sequences``) a take with a pair or a natural and a
    wild card names the cards shown from the hand in ``cards`` (``take 7h 7s`` is
    ``Take(7, "pair", cards=(SuitedCard.SEVEN_SPADES, SuitedCard.SEVEN_HEARTS))``), and a take
    onto a sequence has ``rank`` ``SEQUENCE_RANK + suit`` (``take onto hearts`` is ``Take(18,
    "onto")``). ``cards`` that do not fit ``rank`` and ``way`` raise :class:`ArgumentError`.
    """

    rank: int = field(converter=_take_rank)
    """The rank of the pile's top card (a card kind, 0-14), or for a take onto a sequence its
    key ``SEQUENCE_RANK + suit`` (16 clubs, 17 diamonds, 18 hearts, 19 spades)."""
    way: TakeWay = field(converter=_way)
    """How the pile is taken (a :class:`TakeWay`; its string value is accepted)."""
    meld: int = field(default=1, converter=_take_meld)
    """(``ONTO`` only) the number of the side's meld of ``rank`` the top card goes on, from 1."""
    cards: tuple[int, ...] = field(default=(), converter=_take_cards)
    """(variants with sequences) the two cards shown from the hand with a pair or a natural
    and a wild card: suited cards (:class:`SuitedCard`), naturals highest first, then the wild
    card; empty in variants without suits and for a take onto a meld."""

    def __attrs_post_init__(self) -> None:
        if self.meld != 1 and self.way is not TakeWay.ONTO:
            raise ArgumentError("Take.meld", f"names a meld only for a take 'onto' a meld; a take "
                                f"{self.way.value!r} has meld 1, not {self.meld}")
        if self.rank >= SEQUENCE_RANK and self.way is not TakeWay.ONTO:
            raise ArgumentError("Take.rank", f"a sequence ({self.rank}: {SUIT_NAMES[self.rank - SEQUENCE_RANK]}) "
                                f"is named only by a take 'onto' it, not {self.way.value!r}")
        if self.rank <= Card.TWO and self.way in (TakeWay.JOKER, TakeWay.TWO):
            raise ArgumentError("Take.way", f"a take of a wild top card ({_TOKENS[self.rank]}) is written "
                                f"as a pair ('take {_TOKENS[self.rank]} {_TOKENS[self.rank]}'), "
                                f"not {self.way.value!r}")
        if self.cards:
            self._check_cards()

    def __repr__(self) -> str:
        cards = f", cards={self.cards!r}" if self.cards else ""  # (shown only where a take names cards)
        return f"Take(rank={self.rank!r}, way={self.way!r}, meld={self.meld!r}{cards})"

    def _check_cards(self) -> None:
        cards, rank, way = self.cards, self.rank, self.way
        if way is TakeWay.ONTO:
            raise ArgumentError("Take.cards", f"a take onto a meld shows no cards from the hand, not "
                                f"{' '.join(CODE_TOKENS[c] for c in cards)}")
        want = {TakeWay.PAIR: "two suited naturals of the top card's rank ('take 7h 7s')",
                TakeWay.JOKER: "a suited natural of the top card's rank and a joker ('take 7h JK')",
                TakeWay.TWO: "a suited natural of the top card's rank and a deuce ('take 7h 2')"}[way]
        second_ok = (cards[1] >= N_KINDS and KIND_OF[cards[1]] == rank if way is TakeWay.PAIR
                     else cards[1] == (Card.JOKER if way is TakeWay.JOKER else Card.TWO))
        if not (len(cards) == 2 and cards[0] >= N_KINDS and KIND_OF[cards[0]] == rank and second_ok):
            raise ArgumentError("Take.cards", f"a take {way.value!r} of the rank {CODE_TOKENS[rank]} shows {want}, "
                                f"not {' '.join(CODE_TOKENS[c] for c in cards) or 'nothing'}")

    def _spec(self) -> K.Spec:
        return (K.TAKE, self.rank, _WAYS.get(self.way, -1), self.meld, self.cards)


@frozen(slots=True, cache_hash=True)
class Meld(Action):
    """Lay a new meld from the hand: ``cards`` are three or more card kinds, kept in the
    notation's order (naturals highest first, then jokers, then deuces) whatever order they
    are given in. Bad cards raise :class:`ArgumentError`.

    In a variant with sequences the naturals are suited cards (:class:`SuitedCard`): a group
    lists them by code, highest first (``meld 7s 7h 2``), a sequence lowest first (``meld 5h
    6h 7h``)."""

    cards: tuple[int, ...] = field(converter=_meld_cards)
    """The meld's cards as card kinds (or suited cards), naturals (highest first; a sequence
    lowest first), then jokers, then deuces."""

    @property
    def rank(self) -> int:
        """The meld's rank (``WILD_RANK`` for a meld of wild cards only; a sequence's is the
        rank of its lowest card, a suited card's is its kind)."""
        first = self.cards[0]
        return WILD_RANK if first <= Card.TWO else KIND_OF[first]

    def _spec(self) -> K.Spec:
        return (K.MELD, 0, 0, 0, self.cards)


@frozen(slots=True, cache_hash=True)
class Add(Action):
    """Add one card from the hand to the side's meld number ``meld`` of ``rank``.

    ``card`` is a card kind; ``rank`` a card kind or ``WILD_RANK`` (15: the meld of wild cards
    only); ``meld`` counts from 1. Fields out of range raise :class:`ArgumentError`.

    In a variant with sequences ``card`` is a suited card (:class:`SuitedCard`) for a natural,
    and ``rank`` may be a sequence key ``SEQUENCE_RANK + suit``: ``add 8h to hearts`` is
    ``Add(SuitedCard.EIGHT_HEARTS, 18)``.
    """

    card: int = field(converter=_add_card)
    """The card added, a card kind (0-14) or a suited card's code (15-58)."""
    rank: int = field(converter=_add_rank)
    """The rank of the meld it goes on: a card kind, ``WILD_RANK`` (15) for a meld of wild
    cards, or ``SEQUENCE_RANK + suit`` (16-19) for a sequence."""
    meld: int = field(default=1, converter=_add_meld)
    """Which of the side's melds of ``rank``, from 1 (in the order they were made)."""

    def _spec(self) -> K.Spec:
        return (K.ADD, self.card, self.rank, self.meld, ())


@frozen(slots=True, cache_hash=True)
class Combine(Action):
    """Combine two melds of one rank (``first`` < ``second``, numbered from 1).

    ``rank`` is a card kind or ``WILD_RANK``. Fields out of range, or ``first`` not below
    ``second``, raise :class:`ArgumentError`.
    """

    rank: int = field(converter=_combine_rank)
    """The rank of both melds: a card kind, or ``WILD_RANK`` (15)."""
    first: int = field(converter=_combine_first)
    """The number of the meld kept, from 1."""
    second: int = field(converter=_combine_second)
    """The number of the meld joined to it (greater than ``first``)."""

    def __attrs_post_init__(self) -> None:
        if self.first >= self.second:
            raise ArgumentError("Combine.second", f"must be greater than first ({self.first}), "
                                f"not {self.second}: 'combine 7#1 7#2' is Combine(7, 1, 2)")

    def _spec(self) -> K.Spec:
        return (K.COMBINE, self.rank, self.first, self.second, ())

    def __str__(self) -> str:
        if self.rank >= SEQUENCE_RANK:  # (no variant combines sequences; the text names them)
            name = _meld_ref(self.rank, 1)
            return f"combine {name}#{self.first} {name}#{self.second}"
        return _text(self._spec())


@frozen(slots=True, cache_hash=True)
class Discard(Action):
    """Discard a card, ending the turn (going out if it is the last). ``card`` is a card
    kind (0 to 14), or in a variant with sequences a suited card (15 to 58, ``discard 7h``);
    anything else raises :class:`ArgumentError`."""

    card: int = field(converter=_discard_card)
    """The card discarded, a card kind (0-14) or a suited card's code (15-58)."""

    def _spec(self) -> K.Spec:
        return (K.DISCARD, self.card, 0, 0, ())


@frozen(slots=True, cache_hash=True)
class Ask(Action):
    """Ask a partner "may I go out?"."""

    def _spec(self) -> K.Spec:
        return (K.ASK, 0, 0, 0, ())


@frozen(slots=True, cache_hash=True)
class Answer(Action):
    """A partner's binding answer to "may I go out?": ``yes`` is True or False (anything else
    raises :class:`ArgumentError`)."""

    yes: bool = field(converter=_yes)
    """True for "yes, go out" (binding), False for "no"."""

    def _spec(self) -> K.Spec:
        return (K.ANSWER, int(self.yes), 0, 0, ())


@frozen(slots=True, cache_hash=True)
class Pass(Action):
    """Decline the pile when the stock is exhausted."""

    def _spec(self) -> K.Spec:
        return (K.PASS, 0, 0, 0, ())


@frozen(slots=True, cache_hash=True)
class Done(Action):
    """Finish melding when the rules allow no discard (last card of the stock a red three)."""

    def _spec(self) -> K.Spec:
        return (K.DONE, 0, 0, 0, ())


@frozen(slots=True, cache_hash=True)
class Retract(Action):
    """Undo a take for the initial meld that cannot reach the minimum (new-canasta)."""

    def _spec(self) -> K.Spec:
        return (K.RETRACT, 0, 0, 0, ())


ACTION_TYPES = (Draw, Take, Meld, Add, Combine, Discard, Ask, Answer, Pass, Done, Retract)

_SIMPLE = {"draw": Draw(), "ask": Ask(), "yes": Answer(True), "no": Answer(False),
           "pass": Pass(), "done": Done(), "retract": Retract()}


def _quote(text: str) -> str:
    """``text`` quoted for a message, shortened when long."""
    return repr(text) if len(text) <= 80 else repr(text[:77] + "...")


_SUITED = {t.lower(): i for i, t in enumerate(CODE_TOKENS) if i >= N_KINDS}
_SUITED.update({"t" + t[2:].lower(): i for i, t in enumerate(CODE_TOKENS) if t.startswith("10")})
_SEQUENCES = {name: SEQUENCE_RANK + s for s, name in enumerate(SUIT_NAMES)}


def _card(tok: str, text: str) -> int:
    if len(tok) > 8:  # (no card token is longer: keep the message short)
        raise ActionParseError(f"{_quote(text)}: unknown card {_quote(tok[:20])}: use one of {', '.join(_TOKENS)}")
    code = _SUITED.get(tok.lower())
    if code is not None:
        return code
    try:
        return int(Card.parse(tok))
    except ArgumentError as e:
        raise ActionParseError(f"{_quote(text)}: {e.problem}; in a variant with sequences a natural card "
                               "carries its suit: 7h, 10s, Ac") from None


def _ref(tok: str, text: str) -> tuple[int, int]:
    name, sep, idx = tok.partition("#")
    low = name.lower()
    if low == "wild":
        rank = WILD_RANK
    elif low in _SEQUENCES:
        rank = _SEQUENCES[low]
    else:
        rank = KIND_OF[_card(name, text)]  # (a suited card, '7h#2', names its rank's melds)
    if sep:
        if not (idx.isascii() and idx.isdigit()) or len(idx) > 8 or not 1 <= int(idx) <= MAX_MELD_NUMBER:
            raise ActionParseError(f"{_quote(text)}: meld number {_quote(idx)} must be 1, 2, ... (at most "
                                   f"{MAX_MELD_NUMBER}), as in '7#2'")
        return rank, int(idx)
    return rank, 1


_WILD_TOP = "the top card of a pile that can be taken is never wild (a wild card freezes the pile)"


def parse_action(text: str) -> Action:
    """Read an action from its notation (see the module documentation).

    Raises :class:`ActionParseError` (a ``ValueError``) saying what is wrong, or
    :class:`ArgumentError` when ``text`` is not a string. ``parse_action(str(a)) == a`` for
    every action ``a``.
    """
    if not isinstance(text, str):
        raise ArgumentError("text", f"expected the notation of an action (a string), not {show(text)}")
    words = text.strip().split()
    if not words:
        raise ActionParseError("empty action: try 'draw', 'discard 7', 'meld 7 7 7'")
    verb, args = words[0].lower(), words[1:]
    if verb in _SIMPLE:
        if args:
            raise ActionParseError(f"{_quote(text)}: '{verb}' takes nothing after it")
        return _SIMPLE[verb]
    if verb == "discard":
        if len(args) != 1:
            raise ActionParseError(f"{_quote(text)}: write 'discard CARD', e.g. 'discard 7'")
        return Discard(_card(args[0], text))
    if verb == "meld":
        if len(args) < 3:
            raise ActionParseError(f"{_quote(text)}: a new meld needs at least three cards, e.g. 'meld 7 7 7'")
        return Meld(_meld_order([_card(a, text) for a in args]))
    if verb == "add":
        if len(args) == 1:
            card = _card(args[0], text)
            return Add(card, KIND_OF[card], 1)
        if len(args) == 3 and args[1].lower() == "to":
            rank, idx = _ref(args[2], text)
            return Add(_card(args[0], text), rank, idx)
        raise ActionParseError(f"{_quote(text)}: write 'add CARD' or 'add CARD to RANK', e.g. 'add JK to 7'")
    if verb == "take":
        if len(args) == 2 and args[0].lower() == "onto":
            rank, idx = _ref(args[1], text)
            if rank == WILD_RANK:
                raise ActionParseError(f"{_quote(text)}: {_WILD_TOP}; take onto a meld of natural cards, "
                                       "e.g. 'take onto 7'")
            return Take(rank, TakeWay.ONTO, idx)
        if len(args) == 2:
            a, b = _card(args[0], text), _card(args[1], text)
            if a <= Card.TWO:
                a, b = b, a
            if a <= Card.TWO and b != a:
                raise ActionParseError(f"{_quote(text)}: the two cards must be a pair, or a natural and a wild card")
            if a >= N_KINDS:  # suited cards: the hand's cards are named (variants with sequences)
                if b > Card.TWO and not (b >= N_KINDS and KIND_OF[b] == KIND_OF[a]):
                    raise ActionParseError(f"{_quote(text)}: the two cards must be a pair of one rank, each with "
                                           "its suit ('take 7h 7s'), or a natural and a wild card ('take 7h JK')")
                way = TakeWay.PAIR if b > Card.TWO else TakeWay.JOKER if b == Card.JOKER else TakeWay.TWO
                return Take(KIND_OF[a], way, 1, (a, b))
            if b == a:
                return Take(a, TakeWay.PAIR)
            if b >= N_KINDS:
                raise ActionParseError(f"{_quote(text)}: the two cards must both carry their suits ('take 7h 7s') "
                                       "or neither ('take 7 7')")
            if b == Card.JOKER:
                return Take(a, TakeWay.JOKER)
            if b == Card.TWO:
                return Take(a, TakeWay.TWO)
            raise ActionParseError(f"{_quote(text)}: the two cards must be a pair, or a natural and a wild card")
        raise ActionParseError(f"{_quote(text)}: write 'take 7 7', 'take 7 JK' or 'take onto 7'")
    if verb == "combine":
        if len(args) == 2:
            r1, i1 = _ref(args[0], text)
            r2, i2 = _ref(args[1], text)
            if r1 != r2 or i1 == i2:
                raise ActionParseError(f"{_quote(text)}: combine two different melds of one rank, e.g. 'combine 7#1 7#2'")
            return Combine(r1, min(i1, i2), max(i1, i2))
        raise ActionParseError(f"{_quote(text)}: write 'combine 7#1 7#2'")
    verbs = ["draw", "take", "meld", "add", "combine", "discard", "ask", "yes", "no", "pass", "done", "retract"]
    close = difflib.get_close_matches(verb[:20], verbs, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ActionParseError(f"{_quote(text)}: unknown action {_quote(verb)}{hint}; actions are {', '.join(verbs)}")


class ActionSpace:
    """The dense integer ids of every action a variant can use at a table size.

    Ids run from 0 to ``size - 1``; :meth:`encode` and :meth:`decode` convert. The space is
    derived from the variant's settings (which take ways, which melds, how many melds of one
    rank a side can hold), so a variant without a rule has no ids for it.
    """

    def __init__(self, variant: Variant, players: int) -> None:
        """The space of ``variant`` (a :class:`Variant`) at a table of ``players``; a
        :class:`VariantError` for a table size the variant does not have."""
        from ._core import rules_for
        from ._variant import Variant

        if not isinstance(variant, Variant):
            raise ArgumentError("variant", f"expected a Variant, not {show(variant)}")
        self._init(rules_for(variant, integer(players, "players")))

    def _init(self, R: K.Rules) -> None:
        self.actions: tuple[Action, ...] = tuple(_from_spec(s) for s in R.specs)
        """Every action of the space; ``actions[i]`` has id ``i``."""
        self.size = len(self.actions)
        """The number of ids (``len(space)``)."""
        self._ids = {a: i for i, a in enumerate(self.actions)}
        self._ident = {id(a): i for i, a in enumerate(self.actions)}
        self.players = R.players
        """The table size the space is for."""
        self.draw_count = R.draw_n
        """Cards a draw takes from the stock at this table."""
        self.max_melds_per_rank = R.max_melds_per_rank
        """How many melds of one rank a side can hold (the ``#n`` of ``add 7 to 7#2`` goes up to it)."""
        self._shared: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._acts: dict[tuple[int, ...], tuple[Action, ...]] = {}
        self._masks: dict[tuple[int, ...], bytes] = {}

    def _shared_ids(self, ids: tuple[int, ...]) -> tuple[int, ...]:
        """One shared copy of the legal ids ``ids`` for every state that has them."""
        shared = self._shared.get(ids)
        if shared is None:
            if len(self._shared) >= 1 << 12:
                self._shared.clear()
                self._acts.clear()
                self._masks.clear()
            shared = self._shared[ids] = ids
        return shared

    def _mask_of(self, ids: tuple[int, ...]) -> bytes:
        """The legal-action mask of ``ids`` (shared likewise)."""
        mask = self._masks.get(ids)
        if mask is None:
            m = bytearray(self.size)
            for i in ids:
                m[i] = 1
            mask = self._masks[ids] = bytes(m)
        return mask

    def _actions_of(self, ids: tuple[int, ...]) -> tuple[Action, ...]:
        """The actions of the legal ids ``ids`` (shared likewise)."""
        acts = self._acts.get(ids)
        if acts is None:
            actions = self.actions
            acts = self._acts[ids] = tuple([actions[i] for i in ids])
        return acts

    def encode(self, action: Action) -> int:
        """The id of ``action``; an :class:`ArgumentError` (a ``ValueError``) if this variant
        has no such action or ``action`` is not an :class:`Action`."""
        if not isinstance(action, Action):
            raise ArgumentError("action", f"expected an Action, not {show(action)}")
        try:
            return self._ids[action]
        except KeyError:
            raise ArgumentError("action", f"{action} is not an action of this variant") from None

    def decode(self, action_id: int) -> Action:
        """The action with id ``action_id`` (any integer but a ``bool``, numpy integers
        included); an :class:`ArgumentError` (a ``ValueError``) when out of range."""
        i = integer(action_id, "action_id")
        if not 0 <= i < self.size:
            raise ArgumentError("action_id", f"action id {i} is out of range 0..{self.size - 1}")
        return self.actions[i]

    def __len__(self) -> int:
        return self.size

    def __contains__(self, action: object) -> bool:
        try:
            return action in self._ids
        except TypeError:  # unhashable: not an action
            return False


_WAY_NAMES = (TakeWay.PAIR, TakeWay.JOKER, TakeWay.TWO, TakeWay.ONTO)
_SIMPLE_ACTIONS: dict[int, Action] = {K.DRAW: Draw(), K.PASS: Pass(), K.DONE: Done(), K.RETRACT: Retract(),
                                      K.ASK: Ask()}


def _from_spec(s: K.Spec) -> Action:
    kind = s[0]
    simple = _SIMPLE_ACTIONS.get(kind)
    if simple is not None:
        return type(simple)()
    if kind == K.ANSWER:
        return Answer(bool(s[1]))
    if kind == K.TAKE:
        return Take(s[1], _WAY_NAMES[s[2]], s[3], s[4])
    if kind == K.MELD:
        return Meld(s[4])
    if kind == K.ADD:
        return Add(s[1], s[2], s[3])
    if kind == K.COMBINE:
        return Combine(s[1], s[2], s[3])
    return Discard(s[1])


def unsuited(action: Action) -> Action:
    """``action`` with its natural cards named by rank only (``meld Ah Ad Ad`` is ``meld A A A``,
    ``take 7h 7s`` is ``take 7 7``, ``add 7d to 7`` is ``add 7 to 7``); itself when it names no
    suited card. In a variant with sequences the suits of a group's cards matter only through
    the cards they leave in the hand, so a position accepts the unsuited form where it leaves
    no choice (:meth:`GameState.apply`)."""
    if isinstance(action, Meld):
        if any(c >= N_KINDS for c in action.cards):
            return Meld(_meld_order([KIND_OF[c] for c in action.cards]))
    elif isinstance(action, Take):
        if action.cards:
            return Take(action.rank, action.way, action.meld)
    elif isinstance(action, Add):
        if action.card >= N_KINDS:
            return Add(KIND_OF[action.card], action.rank, action.meld)
    elif isinstance(action, Discard):
        if action.card >= N_KINDS:
            return Discard(KIND_OF[action.card])
    return action


def names_natural_without_suit(action: Action) -> bool:
    """Whether ``action`` names a natural card (four to ace) by its rank only, as a variant
    without suits writes it (``meld 7 7 7``, ``take 7 7``, ``add 7``, ``discard 7``)."""
    if isinstance(action, Meld):
        return any(Card.FOUR <= c < N_KINDS for c in action.cards)
    if isinstance(action, Take):
        return not action.cards and action.way is not TakeWay.ONTO and Card.FOUR <= action.rank < N_KINDS
    if isinstance(action, (Add, Discard)):
        return Card.FOUR <= action.card < N_KINDS
    return False


def space_of(R: K.Rules) -> ActionSpace:
    """The action space of the compiled rules ``R`` (built once per table)."""
    space: Optional[ActionSpace] = R.facade  # type: ignore[assignment]
    if space is None:
        space = ActionSpace.__new__(ActionSpace)
        space._init(R)
        R.facade = space
    return space


def spec_of(action: Action) -> K.Spec:
    """The core's description of ``action``."""
    return action._spec()
