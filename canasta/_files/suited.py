"""Suited cards as text, in the files of a variant with sequences.

In a variant with sequences (melds.sequences, as Samba) natural cards carry suits: hands, down
hands, the pile, the stock and a pending pile are written with suited tokens ("7h 10s JK 2 3r");
a group meld is written as in every variant ("7 7 7 JK": a group keeps no suits) and a
sequence by its cards, lowest first ("5h 6h 7h"). The files of the other variants do not change.

Built on the cards and the rules; built upon by ``saves`` and positions (``canasta._position``).
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from .._cards import (
    _PARSE,
    _PARSE_CODE,
    CARD_NAMES,
    CARD_NAMES_PLURAL,
    CODE_TOKENS,
    KIND_OF,
    N_CODES,
    N_KINDS,
    SUIT_NAMES,
    SUIT_OF,
    WILD_RANK,
    card_code,
    cards_text,
    deck_mismatch,
    parse_code,
)
from .._core import Rules
from .._core._rules import SEQ, seq_low, seq_rank, seq_suit
from .._errors import ArgumentError

JK, TWO, R3, B3 = 0, 1, 2, 3


_SUITED_HELP = "use a natural card with its suit (7h, 10s, Ac; suits c, d, h, s), or JK, 2, 3r, 3b"
_SUIT_HINT = " (suits are written only in a variant with sequences, melds.sequences)"
_HAND_ORDER = tuple(range(N_CODES - 1, N_KINDS - 1, -1)) + (B3, R3, TWO, JK)
"""A suited hand's cards as written: highest code first (aces of spades, hearts, diamonds,
clubs, then kings, ...), then black threes, red threes, deuces and jokers."""
_CODE = {t: i for i, t in enumerate(CODE_TOKENS) if i >= N_KINDS or i <= B3}  # canonical tokens, for speed
Meld = tuple[int, int, int, int, int]


def _code_list(text: str, path: str, error: Callable[[str, str], Exception], hint: str = "") -> list[int]:
    """The card codes of a card string of a variant with sequences (naturals with their suits);
    a token that is not one is ``error(path, ...)`` with :func:`parse_code`'s words."""
    toks = text.split()
    try:
        return [_CODE[t] for t in toks]
    except KeyError:
        pass
    out = []
    for tok in toks:
        try:
            out.append(parse_code(tok, True))
        except ArgumentError as e:
            raise error(path, f"{e.problem}{hint if tok.lower() == 'rest' else ''}") from None
    return out


def _suit_hint(token: str) -> str:
    """A hint for a suited token read in a variant without suits."""
    return _SUIT_HINT if token.strip().lower() in _PARSE_CODE else ""


def _code_counts(codes: Iterable[int], suited: bool) -> tuple[int, ...]:
    """A hand's counts from its cards: 15 per kind, or (``suited``) 59, per kind then per code."""
    c = [0] * (N_CODES if suited else N_KINDS)
    for x in codes:
        c[x] += 1
        if x >= N_KINDS:
            c[KIND_OF[x]] += 1
    return tuple(c)


def _hand_text(counts: tuple[int, ...], suited: bool) -> str:
    """A hand as written: ``"K K 5 JK"``, or (``suited``) ``"Ks Kh 5c JK"``."""
    if not suited:
        return cards_text(counts)
    return " ".join(CODE_TOKENS[c] for c in _HAND_ORDER for _ in range(counts[c]))


def _row_text(cards: Iterable[int]) -> str:
    """Cards in order (a pile, a stock): ``"7h 10s JK"`` (kinds as :func:`sequence_text`)."""
    return " ".join(CODE_TOKENS[c] for c in cards)


def _sequence_cards(m: Meld) -> list[int]:
    """The card codes of the sequence meld ``m``, lowest first."""
    suit, low = seq_suit(m[0]), seq_low(m[0])
    return [card_code(r, suit) for r in range(low, low + m[1])]


def _suited_meld(text: str, path: str, R: Rules, error: Callable[[str, str], Exception]) -> list[int] | Meld:
    """A meld string of a variant with sequences: the card kinds of a group (a group keeps no
    suits: ``"7 7 7 JK"``; suits written on its naturals are dropped), or the core tuple of a
    sequence (``"5h 6h 7h"``: natural cards of one suit in consecutive ranks, samba 4.3, 4.4)."""
    codes = []
    for tok in text.split():
        low = tok.lower()
        code = _PARSE_CODE.get(low)
        if code is None:
            kind = _PARSE.get(low)
            if kind is None:
                raise error(path, f"{tok!r} is not a card: {_SUITED_HELP}")
            code = int(kind)
        codes.append(code)
    ranks = sorted({KIND_OF[c] for c in codes if c >= B3})
    if len(ranks) <= 1:
        return [KIND_OF[c] for c in codes]
    bad = f"{text!r} is not a valid meld in {R.variant.name}: "
    if any(c < N_KINDS for c in codes):
        if any(c < B3 for c in codes) or B3 in ranks or not R.suited:
            raise error(path, bad + "a group holds cards of one rank (and wild cards), a sequence natural "
                        "cards only: fours to aces of one suit, no wild card and no three")
        shown = " and ".join(CARD_NAMES_PLURAL[r] for r in ranks)
        raise error(path, f"{text!r} mixes {shown}: a group holds cards of one rank (and wild cards), "
                    "and a sequence is written with its cards' suits, lowest first, such as \"5h 6h 7h\"")
    suits = sorted({SUIT_OF[c] for c in codes})
    if len(suits) > 1:
        raise error(path, bad + "a sequence holds cards of one suit, this mixes "
                    + " and ".join(SUIT_NAMES[s] for s in suits))
    got = sorted(KIND_OF[c] for c in codes)
    if got != list(range(got[0], got[0] + len(got))):
        raise error(path, bad + "a sequence is cards of one suit in consecutive ranks (no gap, no rank "
                    "twice, no wrap-around from ace to four)")
    if got[0] < R.seq_lo or got[-1] > R.seq_hi:
        raise error(path, bad + f"a sequence runs from {CARD_NAMES[R.seq_lo]} up to {CARD_NAMES[R.seq_hi]}")
    # (melds.sequences.past_max_going_out, brazilian 4.2: longer in the turn its player goes out)
    most = R.seq_hi - R.seq_lo + 1 if R.seq_past_max else R.seq_max
    if not R.seq_min <= len(got) <= most:
        more = " (more only in the turn its player goes out)" if R.seq_past_max else ""
        raise error(path, bad + f"a sequence holds {R.seq_min} to {R.seq_max} cards{more}, this has {len(got)}")
    m = (seq_rank(suits[0], got[0]), len(got), 0, 0, 0)
    if len(got) <= R.seq_max and not R.valid(m):  # pragma: no cover - every reason is given above
        raise error(path, bad + "the rules do not allow it")
    return m


def _code_words(count: int, code: int) -> str:
    """``"1 seven of hearts"``, ``"3 sevens of hearts"``."""
    k = KIND_OF[code]
    return f"{count} {CARD_NAMES[k] if count == 1 else CARD_NAMES_PLURAL[k]} of {SUIT_NAMES[SUIT_OF[code]]}"


def _suited_counts(hands: Iterable[Sequence[int]], melds: Iterable[Iterable[Meld]], red_threes: Iterable[int],
                   loose: Iterable[int]) -> tuple[list[int], list[int]]:
    """Every card of a state of a variant with sequences: counts per kind (hands, melds, faced red
    threes, ``loose`` cards) and per suited code (the same but groups, which keep no suits)."""
    kind = [0] * N_KINDS
    code = [0] * N_CODES
    for h in hands:
        for k in range(N_KINDS):
            kind[k] += h[k]
        for c in range(N_KINDS, N_CODES):
            code[c] += h[c]
    for ms in melds:
        for m in ms:
            if m[0] >= SEQ:
                for c in _sequence_cards(m):
                    kind[KIND_OF[c]] += 1
                    code[c] += 1
                continue
            if m[0] != WILD_RANK:
                kind[m[0]] += m[1]
            kind[JK] += m[2]
            kind[TWO] += m[3]
            kind[R3] += m[4]
    kind[R3] += sum(red_threes)
    for c in loose:
        kind[KIND_OF[c]] += 1
        if c >= N_KINDS:
            code[c] += 1
    return kind, code


def _suited_mismatch(kind: list[int], code: list[int], R: Rules, deck_name: str, what: str,
                     missing: bool = True) -> list[str]:
    """As :func:`deck_mismatch` per kind, then each suited card more often than the deck has it
    (a suited card missing shows as its kind missing, or sits in a group, which keeps no suits)."""
    parts = deck_mismatch(kind, R.deck, deck_name, what, missing=missing)
    deck = R.deck_codes
    parts += [f"{_code_words(code[c] - deck[c], c)} too many: {deck_name} has {_code_words(deck[c], c)}, "
              f"{what} has {code[c]}" for c in range(N_KINDS, N_CODES) if code[c] > deck[c]]
    return parts
