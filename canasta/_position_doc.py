"""The position document: its shape (the keys and tables a position may hold, checked by
structuring the parsed TOML), :class:`PositionError`, and the readers of its parts one by one:
cards, the variant, melds (checked against the variant's rules), the turn and the result.

Built on :mod:`canasta._files` (the shared readers of records, saves and positions),
:mod:`canasta._fields` and :mod:`canasta._core`'s rules; built upon by :mod:`canasta._position`,
which checks the parts together and builds the state (and writes positions). Private:
:class:`PositionError` is re-exported by :mod:`canasta`.
"""

from __future__ import annotations

import os
from typing import Annotated, Any, Optional

import attrs

from ._cards import _PARSE, _TOKENS, NATURAL_RANKS, WILD_RANK
from ._core import Rules
from ._fields import HandResult, HandScore, ScoreItem, TableMeld, Turn, _table_meld, meld_tuple
from ._files.reading import _bounded, _Expect, _Items, _show, _Style
from ._files.suited import _code_counts, _code_list, _suit_hint, _suited_meld
from ._variant import Variant, VariantError
from ._variant_load import _bundled, load_variant, variant_from_dict, variant_names


JK, TWO, R3, B3 = 0, 1, 2, 3
_CARD_HELP = "use JK, 2, 3r, 3b, 4..10, J, Q, K, A"

_TURN_CARDS = ("pending", "pending_top", "start_hand")


class PositionError(ValueError):
    """A position that cannot be loaded: ``path`` is the key at fault, ``problem`` what is wrong.

    ``str(error)`` is ``"<path>: <problem>"``, e.g.
    ``seats.2.hand: card 'Z' is not a card: use JK, 2, 3r, 3b, 4..10, J, Q, K, A``.
    """

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        """The key at fault, such as ``seats.2.hand`` (empty for text that is not TOML)."""
        self.problem = problem
        """What is wrong with it."""
        super().__init__(f"{path}: {problem}" if path else problem)

    def __reduce__(self) -> tuple[Any, ...]:
        # (as ArgumentError's: the fields, not the message)
        return (type(self), (self.path, self.problem))


# =============================================================== the document
#
# The shape of a position (which keys, of which types) is given by the attrs classes below and
# checked by structuring the parsed TOML into them with cattrs (see ``canasta._files.reading``); every
# key may be left out but ``variant``. What depends on the variant and the table (the number of
# seats and sides, bounds, cards adding up to the deck, ...) is checked by load_position after.

_TABLES = "expected [[{at}]] tables (an array of tables), got {got}"
_STYLE = _Style(PositionError, lambda path: f"a [{path}] table", unknown_sep=": ", cutoff=0.5,
                required="required")


@attrs.frozen(kw_only=True)
class _SeatDoc:
    """One ``[[seats]]`` table."""

    hand: str = ""
    down: str = ""
    melded: bool = False
    took_last: bool = False
    had_turn: bool = False
    playing_foot: Optional[bool] = None


@attrs.frozen(kw_only=True)
class _SideDoc:
    """One ``[[sides]]`` table (``opened`` None: not given)."""

    melds: Annotated[tuple[Annotated[str, _Expect('a meld as a string of cards such as "5 5 5 2"')], ...],
                     _Items("meld strings")] = ()
    red_threes: int = 0
    black_threes_aside: int = 0
    opened: Optional[bool] = None


def _turn_doc_class() -> type:
    """``[turn]``: every field of :class:`Turn`, each optional (None: not given)."""
    fields: dict[str, Any] = {}
    for a in attrs.fields(Turn):
        if a.name in _TURN_CARDS:
            tp: Any = Optional[str]
        elif a.name == "answer" or isinstance(a.default, bool):
            tp = Optional[bool]
        elif isinstance(a.default, int):
            tp = Optional[int]
        else:  # pragma: no cover - a new kind of Turn field needs a reader in _read_turn
            tp = Any
        fields[a.name] = attrs.field(type=tp, default=None)
    return attrs.make_class("_TurnDoc", fields, frozen=True, kw_only=True)


_TurnDoc = _turn_doc_class()


@attrs.frozen(kw_only=True)
class _ItemDoc:
    """One item of a side's score: ``{ name = ..., count = ..., points = ... }``."""

    name: str
    count: int
    points: int


@attrs.frozen(kw_only=True)
class _ScoreDoc:
    """One ``[[result.scores]]`` table (``side`` None: not given)."""

    side: Optional[int] = None
    items: Annotated[tuple[Annotated[_ItemDoc, _Expect("{ name = ..., count = ..., points = ... }")], ...],
                     _Items("{ name, count, points } tables")] = ()


@attrs.frozen(kw_only=True)
class _ResultDoc:
    """``[result]``."""

    went_out: Optional[int] = None
    concealed: bool = False
    reason: str = ""
    scores: Annotated[tuple[_ScoreDoc, ...], _Items("", tables=_TABLES)] = ()


@attrs.frozen(kw_only=True)
class _PositionDoc:
    """A position document; None stands for a key not given (TOML has no null)."""

    variant: Any = None  # a name, a path or a [variant] table (checked by the variant loader)
    players: Optional[int] = None
    seed: int = 0
    hand_number: int = 0
    dealer: Optional[int] = None
    totals: Optional[Annotated[tuple[int, ...], _Items("integers (one per side)")]] = None
    to_act: Optional[int] = None
    phase: str = "draw"
    pile: str = ""
    pile_buried: int = 0
    frozen: Optional[bool] = None
    stock: str = "rest"
    last_turns: Optional[int] = None
    winners: Optional[Annotated[tuple[Any, ...], _Items("sides")]] = None
    precise_draws: Optional[Annotated[tuple[Any, ...], _Items("seats")]] = None
    seats: Annotated[tuple[_SeatDoc, ...], _Items("", tables=_TABLES)] = ()
    sides: Annotated[tuple[_SideDoc, ...], _Items("", tables=_TABLES)] = ()
    turn: Optional[_TurnDoc] = None  # type: ignore[valid-type]
    result: Optional[_ResultDoc] = None


def _card(token: str, path: str) -> int:
    card = _PARSE.get(token.lower())
    if card is not None:
        return int(card)
    hint = _REST_HINT if token.lower() == "rest" else _suit_hint(token)
    raise PositionError(path, f"card {token!r} is not a card: {_CARD_HELP}{hint}")


_REST_HINT = " ('rest' may only end the stock)"


def _cards(text: str, path: str, suited: bool = False) -> list[int]:
    """Card kinds, or (``suited``: a variant with sequences) card codes, naturals with suits."""
    if suited:
        return _code_list(text, path, PositionError, _REST_HINT)
    return [_card(tok, path) for tok in text.split()]


# =============================================================== the variant


def _read_variant(ref: Any) -> Variant:
    if ref is None:
        raise PositionError("variant", "required: give a bundled variant name "
                            f"({', '.join(variant_names())}), a path to a variant file, "
                            "or a [variant] table")
    try:
        if isinstance(ref, dict):
            return variant_from_dict(ref, "[variant]")
        if not isinstance(ref, str):
            raise PositionError("variant", "expected a variant name, a path or a [variant] table, "
                                f"got {_show(ref)}")
        if ref in variant_names() and not os.path.isfile(ref):
            return _bundled(ref)  # read once per process (the variant module's cache)
        return load_variant(ref)
    except VariantError as e:
        raise PositionError("variant", str(e)) from None


# =============================================================== melds


def _meld(text: str, path: str, R: Rules) -> TableMeld:
    vname = R.variant.name
    if R.suited:
        got = _suited_meld(text, path, R, PositionError)
        if isinstance(got, tuple):
            return _table_meld(got)  # a sequence (samba 4.3, 4.4)
        kinds = got
    else:
        kinds = _cards(text, path)
    if not kinds:
        raise PositionError(path, "an empty meld: write its cards, such as \"5 5 5 2\"")
    naturals = [k for k in kinds if k >= B3]
    ranks = sorted(set(naturals))
    if len(ranks) > 1:
        shown = " and ".join(_TOKENS[r] for r in ranks)
        raise PositionError(path, f"{text!r} mixes {shown}: a meld holds cards of one rank (and wild cards)")
    jk = kinds.count(JK)
    tw = kinds.count(TWO)
    r3 = kinds.count(R3)
    if not naturals and not jk and not tw:
        raise PositionError(path, f"{text!r} is not a meld: red threes are never melded "
                            "(new-canasta puts one on a natural canasta: \"K K K K K K K 3r\")")
    rank = ranks[0] if ranks else WILD_RANK
    m = TableMeld(rank, len(naturals), jk, tw, r3 > 0)
    bad = f"{text!r} is not a valid meld in {vname}: "
    if r3 > 1:
        raise PositionError(path, bad + "a canasta is topped with one red three at most")
    if rank == WILD_RANK:
        if not R.wild_melds:
            raise PositionError(path, bad + "a meld of wild cards only is not allowed "
                                "(it needs natural cards)")
        if m.size < R.min_size:
            raise PositionError(path, bad + f"a meld needs at least {R.min_size} cards, this has {m.size}")
        if m.size > R.wild_meld_max:
            raise PositionError(path, bad + f"a meld of wild cards only holds at most {R.wild_meld_max} "
                                f"cards, this has {m.size}")
        if R.deuce and not R.valid((WILD_RANK, 0, jk, tw, 0)):
            raise PositionError(path, bad + _deuce_words(R))
    elif rank == B3:
        if R.b3_rule == "never":
            raise PositionError(path, bad + "black threes are never melded")
        if m.wilds:
            raise PositionError(path, bad + "black threes are melded without wild cards")
        if not R.b3_min <= m.naturals <= R.b3_max:
            raise PositionError(path, bad + f"a meld of black threes holds {R.b3_min} to {R.b3_max} "
                                f"cards, this has {m.naturals}")
    else:
        if m.naturals < R.min_nat:
            raise PositionError(path, bad + f"a meld needs at least {R.min_nat} natural cards, "
                                f"this has {m.naturals}")
        if m.size < R.min_size:
            raise PositionError(path, bad + f"a meld needs at least {R.min_size} cards, this has {m.size}")
        if R.closed and m.size > R.cs:
            raise PositionError(path, bad + f"a canasta is exactly {R.cs} cards and takes no more, "
                                f"this meld has {m.size}")
        if not R.valid(meld_tuple(m)):
            cap = R.wild_cap(m.naturals)
            more = (" (more only on a completed canasta)" if R.unlimited else "")
            raise PositionError(path, bad + f"too many wild cards: with {m.naturals} natural cards a "
                                f"meld holds at most {cap} wild cards{more}, this has {m.wilds}")
    if r3 and not (R.keep_r3 and R.r3_canasta and R.closed and rank in NATURAL_RANKS and m.wilds == 0
                   and m.size >= R.cs):
        raise PositionError(path, bad + "a red three tops only a natural canasta, in a variant that "
                            "keeps red threes and scores red-three canastas (new-canasta)")
    if not R.valid(meld_tuple(m)):  # pragma: no cover - every reason is reported above
        raise PositionError(path, bad + "the rules do not allow it")
    return m

def _deuce_words(R: Any) -> str:
    """Why a meld of deuces (``melds.deuce_melds``, italian 4.3) is not valid."""
    return (f"a meld of deuces holds {R.min_size} to {R.cs} cards, at least {R.min_nat} deuces and at most "
            f"{R.max_wild} jokers")



# =============================================================== the turn and the result


def _read_turn(raw: Any, melds_before: int, had_melded: bool, suited: bool = False) -> Turn:
    kw: dict[str, Any] = {"melds_before": melds_before, "had_melded": had_melded}
    for a in attrs.fields(Turn):
        key = a.name
        value = getattr(raw, key)
        if value is None or key in _TURN_CARDS:
            continue
        if key == "answer" or isinstance(a.default, bool):
            kw[key] = value
        elif isinstance(a.default, int):
            kw[key] = _bounded(value, f"turn.{key}", 0, None, PositionError)
        else:  # pragma: no cover - a new kind of Turn field needs a reader here
            raise PositionError(f"turn.{key}", "this field cannot be given in a position yet")
    if raw.pending is not None:
        kw["pending"] = tuple(_cards(raw.pending, "turn.pending", suited))
    if raw.pending_top is not None:
        top = _cards(raw.pending_top, "turn.pending_top", suited)
        if len(top) != 1:
            raise PositionError("turn.pending_top", f"expected one card, got {len(top)}")
        kw["pending_top"] = top[0]
    if raw.start_hand is not None:
        # "" is a hand of no cards (as to_position writes one), not the default (no hand kept)
        kw["start_hand"] = _code_counts(_cards(raw.start_hand, "turn.start_hand", suited), suited)
    return Turn(**kw)


def _read_result(raw: _ResultDoc, R: Rules) -> HandResult:
    went_out = None if raw.went_out is None else _bounded(raw.went_out, "result.went_out", 0, R.players - 1,
                                                          PositionError)
    scores = []
    for i, sc in enumerate(raw.scores):
        at = f"result.scores.{i}"
        side = i if sc.side is None else _bounded(sc.side, f"{at}.side", 0, R.n_sides - 1, PositionError)
        if side != i:
            raise PositionError(f"{at}.side", f"the scores are listed one per side, in side order: "
                                f"result.scores.{i} is side {i}, not {side}")
        items = tuple(ScoreItem(it.name, it.count, it.points) for it in sc.items)
        scores.append(HandScore(side, items))
    return HandResult(went_out=went_out, concealed=raw.concealed, scores=tuple(scores), reason=raw.reason)
