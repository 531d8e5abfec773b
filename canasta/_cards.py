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


def deck_counts(packs: int, jokers_per_pack: int) -> tuple[int, ...]:
    """Counts per kind of ``packs`` standard 52-card packs plus their jokers."""
    counts = [4 * packs] * N_KINDS
    counts[Card.JOKER] = jokers_per_pack * packs
    counts[Card.RED_THREE] = 2 * packs
    counts[Card.BLACK_THREE] = 2 * packs
    return tuple(counts)
