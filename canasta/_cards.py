"""Card kinds: the rules never look at suits except to tell red threes from black threes.

A hand is a tuple of counts indexed by card kind, so cards of equal rules-value in
different suits are one thing everywhere: in hands, in actions and in notation.
"""

from __future__ import annotations

import enum

from ._errors import ArgumentError, show


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
    """``"K K 5 JK"`` style text of a hand, highest rank first, wild cards last."""
    order = (14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
    return " ".join(_TOKENS[k] for k in order for _ in range(counts[k]))


def sequence_text(cards: tuple[int, ...] | list[int]) -> str:
    """Text of an ordered sequence of kinds (a pile or a stock)."""
    return " ".join(_TOKENS[k] for k in cards)


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
