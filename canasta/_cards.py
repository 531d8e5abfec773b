"""Card kinds: the rules never look at suits except to tell red threes from black threes.

A hand is a tuple of counts indexed by card kind, so cards of equal rules-value in
different suits are one thing everywhere: in hands, in actions and in notation. The variants
with sequences (``melds.sequences``) are the exception: their natural cards carry suits
(:class:`SuitedCard`, card codes 15 to 58).
"""

from __future__ import annotations

import enum
from typing import Union

from ._errors import ArgumentError, integer, show


class Card(enum.IntEnum):
    """A card kind, as the rules see it (suits only matter for the threes).

    A kind's value is its index in a hand's 15 counts (``state.hands[seat][Card.KING]``);
    ``str(card)`` is its notation token (``JK``, ``2``, ``3r``, ``3b``, ``4`` to ``10``,
    ``J``, ``Q``, ``K``, ``A``) and :meth:`parse` reads one.
    """

    JOKER = 0
    """A joker (wild)."""
    TWO = 1
    """A deuce (wild)."""
    RED_THREE = 2
    """A red three."""
    BLACK_THREE = 3
    """A black three."""
    FOUR = 4
    """A four."""
    FIVE = 5
    """A five."""
    SIX = 6
    """A six."""
    SEVEN = 7
    """A seven."""
    EIGHT = 8
    """An eight."""
    NINE = 9
    """A nine."""
    TEN = 10
    """A ten."""
    JACK = 11
    """A jack."""
    QUEEN = 12
    """A queen."""
    KING = 13
    """A king."""
    ACE = 14
    """An ace."""

    @property
    def is_wild(self) -> bool:
        """Jokers and deuces are wild in every variant."""
        return self <= Card.TWO

    @property
    def is_natural_rank(self) -> bool:
        """Fours to aces: the ranks that form ordinary melds."""
        return self >= Card.FOUR

    def __str__(self) -> str:
        return _TOKENS[self]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card token such as ``K``, ``10``, ``JK``, ``2``, ``3r`` or ``3b``.

        Raises :class:`ArgumentError` (a ``ValueError``) naming ``text`` for anything else.
        """
        if not isinstance(text, str):
            raise ArgumentError("text", f"expected a card token (a string such as 'K'), not {show(text)}")
        card = _PARSE.get(text.strip().lower())
        if card is None:
            raise ArgumentError(
                "text", f"unknown card {show(text)}: use one of {', '.join(_TOKENS)} "
                "(JK is a joker, 3r a red three, 3b a black three)"
            )
        return card


N_KINDS = 15
WILD_RANK = 15  # the rank of a meld made of wild cards only (where a variant allows it); not a card kind
SEQUENCE_RANK = 16
"""The first sequence key: a side's sequences of suit ``s`` are numbered under ``SEQUENCE_RANK + s``
(16 clubs to 19 spades), in :attr:`Take.rank`, :attr:`Add.rank` and :attr:`TableMeld.rank`
(variants with ``melds.sequences``); not a card kind."""
NATURAL_RANKS = tuple(range(4, 15))
_TOKENS = ("JK", "2", "3r", "3b", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_PARSE = {t.lower(): Card(i) for i, t in enumerate(_TOKENS)}
_PARSE.update({"t": Card.TEN, "jo": Card.JOKER, "joker": Card.JOKER, "*": Card.JOKER})

EMPTY_HAND: tuple[int, ...] = (0,) * N_KINDS

CARD_NAMES = ("joker", "two", "red three", "black three", "four", "five", "six", "seven", "eight",
              "nine", "ten", "jack", "queen", "king", "ace")
"""A card kind's name in words, by kind."""
CARD_NAMES_PLURAL = ("jokers", "twos", "red threes", "black threes", "fours", "fives", "sixes",
                     "sevens", "eights", "nines", "tens", "jacks", "queens", "kings", "aces")
"""The plural of :data:`CARD_NAMES`."""


def count_words(count: int, kind: int) -> str:
    """``"1 joker"``, ``"3 sixes"``."""
    return f"{count} {CARD_NAMES[kind] if count == 1 else CARD_NAMES_PLURAL[kind]}"


def deck_mismatch(have: tuple[int, ...] | list[int], deck: tuple[int, ...], deck_name: str,
                  what: str, missing: bool = True) -> list[str]:
    """One phrase per card kind whose count differs from the deck's: kinds in excess first,
    then (``missing``) kinds short of the deck."""
    out = [f"{count_words(have[k] - deck[k], k)} too many: {deck_name} has "
           f"{count_words(deck[k], k)}, {what} has {have[k]}" for k in range(N_KINDS) if have[k] > deck[k]]
    if missing:
        out += [f"{count_words(deck[k] - have[k], k)} missing: {deck_name} has "
                f"{count_words(deck[k], k)}, {what} has {have[k]}" for k in range(N_KINDS) if have[k] < deck[k]]
    return out


def hand_from_cards(cards: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Counts per kind from a sequence of kinds."""
    counts = [0] * N_KINDS
    for c in cards:
        counts[c] += 1
    return tuple(counts)


def cards_text(counts: tuple[int, ...] | list[int]) -> str:
    """``"K K 5 JK"`` style text of a hand, highest rank first, wild cards last; a hand of 59
    counts (suited cards) lists its naturals with their suits, by code (``"As Kh 5c 3r JK"``)."""
    if len(counts) > N_KINDS:
        return " ".join(CODE_TOKENS[k] for k in _SUITED_ORDER for _ in range(counts[k]))
    order = (14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
    return " ".join(_TOKENS[k] for k in order for _ in range(counts[k]))


def sequence_text(cards: tuple[int, ...] | list[int]) -> str:
    """Text of an ordered sequence of kinds or card codes (a pile or a stock)."""
    return " ".join(CODE_TOKENS[k] for k in cards)


def parse_cards(text: str) -> list[int]:
    """Kinds from space-separated card tokens, in order."""
    return [int(Card.parse(t)) for t in text.split()]


class Suit(enum.IntEnum):
    """A suit, for the variants whose melds include sequences (``melds.sequences``).

    ``str(suit)`` is its letter in the notation (``c``, ``d``, ``h``, ``s``)."""

    CLUBS = 0
    """Clubs (``c``)."""
    DIAMONDS = 1
    """Diamonds (``d``)."""
    HEARTS = 2
    """Hearts (``h``)."""
    SPADES = 3
    """Spades (``s``)."""

    def __str__(self) -> str:
        return SUIT_LETTERS[self]


SUIT_LETTERS = "cdhs"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
N_CODES = 59
"""Card codes: the 15 card kinds, then (variants with sequences) a natural card of each rank and
suit, ``4 * rank - 1 + suit``: 15 (four of clubs) to 58 (ace of spades). A hand of such a variant
holds 59 counts: per kind (all suits together), then per suited card."""


def card_code(kind: int, suit: int) -> int:
    """The code of a natural card of ``kind`` (4-14) and ``suit`` (0-3)."""
    return 4 * kind - 1 + suit


KIND_OF: tuple[int, ...] = tuple(range(N_KINDS)) + tuple((c + 1) >> 2 for c in range(N_KINDS, N_CODES))
"""A card code's kind (its rank)."""
SUIT_OF: tuple[int, ...] = (-1,) * N_KINDS + tuple((c + 1) & 3 for c in range(N_KINDS, N_CODES))
"""A card code's suit, -1 for a plain kind."""
CODE_TOKENS: tuple[str, ...] = _TOKENS + tuple(_TOKENS[KIND_OF[c]] + SUIT_LETTERS[SUIT_OF[c]]
                                                for c in range(N_KINDS, N_CODES))
"""The notation of each card code (``7``, ``7h``)."""
_PARSE_CODE = {t.lower(): i for i, t in enumerate(CODE_TOKENS) if i >= N_KINDS}
for _k in range(4, N_KINDS):
    for _s in range(4):
        if _k == 10:
            _PARSE_CODE["t" + SUIT_LETTERS[_s]] = card_code(_k, _s)


def parse_code(text: str, suited: bool) -> int:
    """A card code from a token: a kind (``7``, ``JK``, ``3r``), or with ``suited`` a natural card
    with its suit (``7h``, ``10s``, ``Ac``). Raises :class:`ArgumentError` naming ``text``."""
    if suited and isinstance(text, str):
        code = _PARSE_CODE.get(text.strip().lower())
        if code is not None:
            return code
        kind = _PARSE.get(text.strip().lower())
        if kind is not None and kind < 4:
            return int(kind)
        if kind is not None:
            raise ArgumentError("text", f"{show(text)} has no suit: in a variant with sequences a natural card "
                                f"is written with its suit, such as {_TOKENS[kind]}h (c, d, h, s)")
        raise ArgumentError("text", f"unknown card {show(text)}: use a natural card with its suit (7h, 10s, "
                            "Ac), or JK, 2, 3r, 3b")
    return int(Card.parse(text))


_SUITED_ORDER = tuple(range(N_CODES - 1, N_KINDS - 1, -1)) + (3, 2, 1, 0)


def code_words(code: int) -> str:
    """A card code in words: ``"a seven"``-style kinds, ``"the seven of hearts"``."""
    if code < N_KINDS:
        return CARD_NAMES[code]
    return f"{CARD_NAMES[KIND_OF[code]]} of {SUIT_NAMES[SUIT_OF[code]]}"


def suited_deck(deck: tuple[int, ...]) -> tuple[int, ...]:
    """Counts per card code of a deck given per kind: naturals split evenly among the suits."""
    out = list(deck[:4]) + [0] * (N_CODES - 4)
    for k in range(4, N_KINDS):
        for s in range(4):
            out[card_code(k, s)] = deck[k] // 4
    return tuple(out)


def deck_counts(packs: int, jokers_per_pack: int) -> tuple[int, ...]:
    """Counts per kind of ``packs`` standard 52-card packs plus their jokers."""
    counts = [4 * packs] * N_KINDS
    counts[Card.JOKER] = jokers_per_pack * packs
    counts[Card.RED_THREE] = 2 * packs
    counts[Card.BLACK_THREE] = 2 * packs
    return tuple(counts)


class SuitedCard(enum.IntEnum):
    """A natural card with its suit, for the variants whose melds include sequences
    (``melds.sequences``, as Samba): a card code from 15 (four of clubs) to 58 (ace of spades),
    ``4 * kind - 1 + suit``.

    In such a variant a hand holds 59 counts: per kind (0-14, every suit together), then per
    suited card (``state.hands[seat][SuitedCard.SEVEN_HEARTS]``); the stock and the pile hold
    card codes (a suited card, or a joker, deuce or three as its :class:`Card`), and actions
    name natural cards by their codes (``discard 7h``). ``str(card)`` is its notation token
    (``7h``, ``10s``, ``Ac``) and :meth:`parse` reads one.
    """

    FOUR_CLUBS = 15
    """A four of clubs (``4c``)."""
    FOUR_DIAMONDS = 16
    """A four of diamonds (``4d``)."""
    FOUR_HEARTS = 17
    """A four of hearts (``4h``)."""
    FOUR_SPADES = 18
    """A four of spades (``4s``)."""
    FIVE_CLUBS = 19
    """A five of clubs (``5c``)."""
    FIVE_DIAMONDS = 20
    """A five of diamonds (``5d``)."""
    FIVE_HEARTS = 21
    """A five of hearts (``5h``)."""
    FIVE_SPADES = 22
    """A five of spades (``5s``)."""
    SIX_CLUBS = 23
    """A six of clubs (``6c``)."""
    SIX_DIAMONDS = 24
    """A six of diamonds (``6d``)."""
    SIX_HEARTS = 25
    """A six of hearts (``6h``)."""
    SIX_SPADES = 26
    """A six of spades (``6s``)."""
    SEVEN_CLUBS = 27
    """A seven of clubs (``7c``)."""
    SEVEN_DIAMONDS = 28
    """A seven of diamonds (``7d``)."""
    SEVEN_HEARTS = 29
    """A seven of hearts (``7h``)."""
    SEVEN_SPADES = 30
    """A seven of spades (``7s``)."""
    EIGHT_CLUBS = 31
    """An eight of clubs (``8c``)."""
    EIGHT_DIAMONDS = 32
    """An eight of diamonds (``8d``)."""
    EIGHT_HEARTS = 33
    """An eight of hearts (``8h``)."""
    EIGHT_SPADES = 34
    """An eight of spades (``8s``)."""
    NINE_CLUBS = 35
    """A nine of clubs (``9c``)."""
    NINE_DIAMONDS = 36
    """A nine of diamonds (``9d``)."""
    NINE_HEARTS = 37
    """A nine of hearts (``9h``)."""
    NINE_SPADES = 38
    """A nine of spades (``9s``)."""
    TEN_CLUBS = 39
    """A ten of clubs (``10c``)."""
    TEN_DIAMONDS = 40
    """A ten of diamonds (``10d``)."""
    TEN_HEARTS = 41
    """A ten of hearts (``10h``)."""
    TEN_SPADES = 42
    """A ten of spades (``10s``)."""
    JACK_CLUBS = 43
    """A jack of clubs (``Jc``)."""
    JACK_DIAMONDS = 44
    """A jack of diamonds (``Jd``)."""
    JACK_HEARTS = 45
    """A jack of hearts (``Jh``)."""
    JACK_SPADES = 46
    """A jack of spades (``Js``)."""
    QUEEN_CLUBS = 47
    """A queen of clubs (``Qc``)."""
    QUEEN_DIAMONDS = 48
    """A queen of diamonds (``Qd``)."""
    QUEEN_HEARTS = 49
    """A queen of hearts (``Qh``)."""
    QUEEN_SPADES = 50
    """A queen of spades (``Qs``)."""
    KING_CLUBS = 51
    """A king of clubs (``Kc``)."""
    KING_DIAMONDS = 52
    """A king of diamonds (``Kd``)."""
    KING_HEARTS = 53
    """A king of hearts (``Kh``)."""
    KING_SPADES = 54
    """A king of spades (``Ks``)."""
    ACE_CLUBS = 55
    """An ace of clubs (``Ac``)."""
    ACE_DIAMONDS = 56
    """An ace of diamonds (``Ad``)."""
    ACE_HEARTS = 57
    """An ace of hearts (``Ah``)."""
    ACE_SPADES = 58
    """An ace of spades (``As``)."""

    @property
    def kind(self) -> Card:
        """The card's kind, its rank (``SuitedCard.SEVEN_HEARTS.kind is Card.SEVEN``)."""
        return Card(KIND_OF[self])

    @property
    def suit(self) -> Suit:
        """The card's suit (``SuitedCard.SEVEN_HEARTS.suit is Suit.HEARTS``)."""
        return Suit(SUIT_OF[self])

    def __str__(self) -> str:
        return CODE_TOKENS[self]

    @classmethod
    def of(cls, kind: int, suit: int) -> SuitedCard:
        """The natural card of ``kind`` (a :class:`Card` from four to ace, or 4-14) and ``suit``
        (a :class:`Suit` or 0-3). Raises :class:`ArgumentError` for anything else."""
        k = integer(kind, "kind", 4, 14)
        s = integer(suit, "suit", 0, 3)
        return cls(card_code(k, s))

    @classmethod
    def parse(cls, text: str) -> SuitedCard:
        """Read a suited card token such as ``7h``, ``10s``, ``Tc`` or ``Ad`` (case-insensitive).

        Raises :class:`ArgumentError` (a ``ValueError``) naming ``text`` for anything else,
        a wild card or a three included (those are :class:`Card` values).
        """
        if not isinstance(text, str):
            raise ArgumentError("text", f"expected a suited card token (a string such as '7h'), not {show(text)}")
        code = parse_code(text, True)
        if code < N_KINDS:
            raise ArgumentError("text", f"{show(text)} is not a natural card with a suit: use a token such as "
                                "7h, 10s or Ac (jokers, deuces and threes are Card values)")
        return cls(code)


def code_of(value: int) -> Union[Card, SuitedCard]:
    """A card code (0-58) as its public value: a :class:`Card` below 15, a :class:`SuitedCard` from 15."""
    return Card(value) if value < N_KINDS else SuitedCard(value)


def card_token(code: int) -> str:
    """The notation token of a card code: a :class:`Card` (0-14: ``"JK"``, ``"2"``, ``"3r"``,
    ``"3b"``, ``"4"`` ... ``"A"``) or a :class:`SuitedCard` (15-58: ``"4c"`` ... ``"As"``), as
    actions, events, observations and saves write it; plain integers and numpy integers are
    taken too. ``card_token(Card.SEVEN) == "7"``, ``card_token(29) == "7h"``.

    Raises :class:`ArgumentError` for a value that is not a card code.
    """
    if type(code) is int and 0 <= code < N_CODES:
        return CODE_TOKENS[code]
    return CODE_TOKENS[integer(code, "code", 0, N_CODES - 1)]
