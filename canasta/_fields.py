"""The values a game state's fields hold: :class:`Phase`, :class:`TableMeld`, :class:`Turn`,
:class:`ScoreItem`, :class:`HandScore` and :class:`HandResult`, and how a state's fields are
built from the rules core's compact position (and back), shared between states.

Built on the rules core (``_core``), the cards and the actions. The states (``_state``), the
observations, records and positions are built on it.
"""

from __future__ import annotations

import enum
from typing import Any, Optional

from attrs import frozen

from . import _core
from ._actions import Action, space_of
from ._cards import _TOKENS, CODE_TOKENS, KIND_OF, N_KINDS, SEQUENCE_RANK, WILD_RANK, card_code
from ._core import Core, Result
from ._errors import ArgumentError, integer, show


class Phase(enum.Enum):
    """Where a turn stands; it decides which kinds of action are legal."""

    DRAW = "draw"
    """Start of a turn: draw, take the pile, ask to go out, or (stock exhausted) pass."""
    ANSWER = "answer"
    """The partner answers "may I go out?"."""
    INITIAL_TAKE = "initial_take"
    """The pile is being taken for an initial meld: meld from the hand until the minimum is met."""
    MELD = "meld"
    """After drawing or taking: meld, add, combine, ask, discard."""
    FINAL_MELD = "final_meld"
    """The last card of the stock was a red three: meld, then ``done`` (no discard)."""
    HAND_OVER = "hand_over"
    """The hand has ended; :meth:`GameState.next_hand` deals the next."""
    GAME_OVER = "game_over"
    """A side reached the target."""


_PHASES = tuple(Phase)
"""The phases in the core's order (its ``PH_*`` numbers)."""
_PHASE_NUMBER = {p: i for i, p in enumerate(_PHASES)}



@frozen(slots=True, cache_hash=True)
class TableMeld:
    """A meld on the table: its rank and how many naturals, jokers and deuces it holds.

    ``str(meld)`` lists its cards (``7 7 7 JK``; a meld of wild cards only shows as
    ``wild JK 2 2``). Fields of the wrong type or out of range (a rank that is not a meld
    rank, a negative count) raise :class:`ArgumentError`.

    A sequence (variants with ``melds.sequences``) has ``rank`` ``SEQUENCE_RANK + suit`` (16
    clubs to 19 spades), its length in ``naturals`` and its lowest rank in ``low``; it holds
    no wild card, and ``str(meld)`` lists its cards (``5h 6h 7h``).
    """

    rank: int
    """The meld's rank: a card kind from black three (3) to ace (14), ``WILD_RANK`` (15)
    for a meld of wild cards only, or ``SEQUENCE_RANK + suit`` (16-19) for a sequence."""
    naturals: int
    """Natural cards of ``rank`` in it (0 for a meld of wild cards; a sequence's length)."""
    jokers: int = 0
    """Jokers in it."""
    twos: int = 0
    """Deuces in it."""
    red_three: bool = False
    """(new-canasta) a red three placed on this natural canasta."""
    low: int = 0
    """(a sequence) the rank of its lowest card, four (4) to ace (14); 0 for a group."""

    def __attrs_post_init__(self) -> None:
        if not (type(self.rank) is int and 3 <= self.rank <= WILD_RANK and type(self.naturals) is int
                and type(self.jokers) is int and type(self.twos) is int
                and self.naturals >= 0 and self.jokers >= 0 and self.twos >= 0
                and type(self.red_three) is bool and self.low == 0 and type(self.low) is int):
            self._refuse()

    def _refuse(self) -> None:
        """Raise the :class:`ArgumentError` for the first bad field."""
        rank = integer(self.rank, "TableMeld.rank")
        if not (3 <= rank <= WILD_RANK or SEQUENCE_RANK <= rank < SEQUENCE_RANK + 4):
            integer(self.rank, "TableMeld.rank", 3, WILD_RANK)  # (the groups' range, the usual case)
            raise ArgumentError("TableMeld.rank", f"must be from 3 to 15, or from 16 to 19 (a sequence: "
                                f"SEQUENCE_RANK + suit), not {show(self.rank)}")
        for name in ("naturals", "jokers", "twos"):
            integer(getattr(self, name), f"TableMeld.{name}", 0)
        if not isinstance(self.red_three, bool):
            raise ArgumentError("TableMeld.red_three", f"expected True or False, not {show(self.red_three)}")
        low = integer(self.low, "TableMeld.low", 0, 14)
        if rank >= SEQUENCE_RANK:
            if not 4 <= low <= 14 or low + integer(self.naturals, "TableMeld.naturals") > 15:
                raise ArgumentError("TableMeld.low", f"a sequence's lowest rank is from 4 to 14 and its highest card "
                                    f"at most an ace, not low {show(self.low)} with {show(self.naturals)} cards")
            if self.jokers or self.twos or self.red_three:
                raise ArgumentError("TableMeld.jokers", "a sequence holds natural cards only")
        elif low:
            raise ArgumentError("TableMeld.low", f"names a sequence's lowest rank; a group has low 0, not {show(low)}")
        # numpy or enum integers: accepted, stored as plain ints
        for name in ("rank", "naturals", "jokers", "twos", "low"):
            object.__setattr__(self, name, int(getattr(self, name)))

    @property
    def is_sequence(self) -> bool:
        """A sequence of one suit (``rank`` ``SEQUENCE_RANK + suit``), not a group of one rank."""
        return self.rank >= SEQUENCE_RANK

    @property
    def cards(self) -> tuple[int, ...]:
        """(a sequence) its cards as suited card codes, lowest first; empty for a group."""
        if self.rank < SEQUENCE_RANK:
            return ()
        return tuple(card_code(r, self.rank - SEQUENCE_RANK) for r in range(self.low, self.low + self.naturals))

    @property
    def wilds(self) -> int:
        """Jokers and deuces in the meld."""
        return self.jokers + self.twos

    @property
    def size(self) -> int:
        """Cards in the meld (a red three topping is not counted)."""
        return self.naturals + self.jokers + self.twos

    def __str__(self) -> str:
        if self.rank >= SEQUENCE_RANK:
            return " ".join(CODE_TOKENS[c] for c in self.cards)
        name = "wild" if self.rank == WILD_RANK else _TOKENS[self.rank]
        parts = [name] * (0 if self.rank == WILD_RANK else self.naturals)
        parts += ["JK"] * self.jokers + ["2"] * self.twos
        if self.red_three:
            parts.append("3r")
        return " ".join(parts)


def meld_tuple(m: TableMeld) -> tuple[int, int, int, int, int]:
    """The core's form of a meld: (rank, naturals, jokers, twos, red three as 0/1); a sequence's
    is (``16 + 16 * suit + low``, length, 0, 0, 0)."""
    if m.rank >= SEQUENCE_RANK:
        return (SEQUENCE_RANK + 16 * (m.rank - SEQUENCE_RANK) + m.low, m.naturals, 0, 0, 0)
    return (m.rank, m.naturals, m.jokers, m.twos, int(m.red_three))


@frozen(slots=True)
class Turn:
    """What has happened so far in the current turn."""

    drew: bool = False
    """The player has drawn from the stock this turn."""
    took: bool = False
    """The player has taken the pile this turn."""
    count: int = 0
    """Points melded this turn toward the side's initial meld (top card of a taken pile included)."""
    pending: tuple[int, ...] = ()
    """The rest of a pile being taken for an initial meld, set aside until the minimum is met."""
    pending_top: int = -1
    """(undo) the top card of a pile being taken for the initial meld."""
    asked: bool = False
    """The player asked his partner "may I go out?"."""
    answer: Optional[bool] = None
    """The partner's answer (None: not asked, or not answered yet)."""
    melded: bool = False
    """The player has melded this turn."""
    black_threes: bool = False
    """Black threes were melded: the player must go out this turn."""
    must_out: bool = False
    """The pile was taken on the strength of a concealed going out: he must go out this turn."""
    touched_partner: bool = False
    """The player has added to a meld his partner made (so his going out is not concealed)."""
    own_canasta: bool = False
    """The player has completed a canasta of his own this turn."""
    melds_before: int = 0
    """The side's melds when the turn began."""
    had_melded: bool = False
    """Whether this player had melded earlier in the hand when the turn began."""
    no_take: bool = False
    """A retracted take: the player must now draw."""
    natural_meld: bool = False
    """(``initial_meld.natural_meld_first``) the side's initial meld, this turn, includes a meld of
    three or more naturals without a wild card (laid, or the pile taken with a natural pair)."""
    start_hand: tuple[int, ...] = ()
    """(undo) the hand before a take for the initial meld."""


_TURN_FLAGS = (("drew", _core.F_DREW), ("took", _core.F_TOOK), ("asked", _core.F_ASKED),
               ("melded", _core.F_MELDED), ("black_threes", _core.F_B3), ("must_out", _core.F_MUST_OUT),
               ("touched_partner", _core.F_TOUCHED), ("own_canasta", _core.F_OWN),
               ("had_melded", _core.F_HAD_MELDED), ("no_take", _core.F_NO_TAKE),
               ("natural_meld", _core.F_NATURAL))


def _turn_of(c: Core) -> Turn:
    f = c.flags
    answer = True if f & _core.F_YES else (False if f & _core.F_NO else None)
    return Turn(drew=bool(f & _core.F_DREW), took=bool(f & _core.F_TOOK), count=c.count, pending=c.pending,
                pending_top=c.pending_top, asked=bool(f & _core.F_ASKED), answer=answer,
                melded=bool(f & _core.F_MELDED), black_threes=bool(f & _core.F_B3),
                must_out=bool(f & _core.F_MUST_OUT), touched_partner=bool(f & _core.F_TOUCHED),
                own_canasta=bool(f & _core.F_OWN), melds_before=c.melds_before,
                had_melded=bool(f & _core.F_HAD_MELDED), no_take=bool(f & _core.F_NO_TAKE),
                natural_meld=bool(f & _core.F_NATURAL), start_hand=tuple(c.start_hand))


def _flags_of(t: Turn) -> int:
    f = 0
    for name, bit in _TURN_FLAGS:
        if getattr(t, name):
            f |= bit
    if t.answer is True:
        f |= _core.F_YES
    elif t.answer is False:
        f |= _core.F_NO
    return f


@frozen(slots=True)
class ScoreItem:
    """One row of a hand's score: what it is, how many, and the points."""

    name: str
    """What the row counts, in words (``"natural canastas"``, ``"going out"``, ``"cards in hand"``)."""
    count: int
    """How many of them."""
    points: int
    """The points they score (negative for a deduction)."""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise ArgumentError("ScoreItem.name", f"expected a string, not {show(self.name)}")
        _set_int(self, "count", "ScoreItem.count")
        _set_int(self, "points", "ScoreItem.points")


@frozen(slots=True)
class HandScore:
    """A side's itemised score for one hand; ``total`` is the sum of the items."""

    side: int
    """The side scored."""
    items: tuple[ScoreItem, ...]
    """The rows of the score, in the order a score sheet lists them."""

    def __attrs_post_init__(self) -> None:
        _set_int(self, "side", "HandScore.side", 0)
        if not isinstance(self.items, tuple) or not all(isinstance(i, ScoreItem) for i in self.items):
            raise ArgumentError("HandScore.items", f"expected a tuple of ScoreItems, not {show(self.items)}")

    @property
    def total(self) -> int:
        """The hand's net score for this side."""
        return sum(i.points for i in self.items)

    def get(self, name: str) -> int:
        """Points of the item called ``name`` (0 if absent)."""
        return sum(i.points for i in self.items if i.name == name)


@frozen(slots=True)
class HandResult:
    """How a hand ended and what each side scored."""

    went_out: Optional[int]
    """The seat that went out, or None (stock exhausted)."""
    concealed: bool
    """He went out concealed (melding his whole hand in one turn)."""
    scores: tuple[HandScore, ...]
    """Each side's itemised score for the hand, by side."""
    reason: str
    """How the hand ended, in words."""

    def __attrs_post_init__(self) -> None:
        if self.went_out is not None:
            _set_int(self, "went_out", "HandResult.went_out", 0)
        if not isinstance(self.concealed, bool):
            raise ArgumentError("HandResult.concealed", f"expected True or False, not {show(self.concealed)}")
        if not isinstance(self.scores, tuple) or not all(isinstance(h, HandScore) for h in self.scores):
            raise ArgumentError("HandResult.scores", f"expected a tuple of HandScores, one per side, "
                                f"not {show(self.scores)}")
        if not isinstance(self.reason, str):
            raise ArgumentError("HandResult.reason", f"expected a string, not {show(self.reason)}")


def _set_int(value: Any, name: str, argument: str, low: Optional[int] = None) -> None:
    """Check the integer field ``name`` of the frozen ``value`` (an ``int`` kept as it is,
    another integral type stored as an ``int``), or raise :class:`ArgumentError`."""
    v = getattr(value, name)
    if type(v) is not int or (low is not None and v < low):
        object.__setattr__(value, name, integer(v, argument, low))


def _result_of(r: Result) -> HandResult:
    return HandResult(
        went_out=None if r.went_out < 0 else r.went_out, concealed=r.concealed,
        scores=tuple(HandScore(side, tuple(ScoreItem(*row) for row in rows)) for side, rows in enumerate(r.scores)),
        reason=r.reason)


def _core_result(r: HandResult) -> Result:
    return Result(-1 if r.went_out is None else r.went_out, r.concealed,
                  tuple(tuple((i.name, i.count, i.points) for i in s.items) for s in r.scores), r.reason)


_MELDS: dict[tuple[int, int, int, int, int], TableMeld] = {}
"""One shared TableMeld per core meld tuple (they are immutable; states share most melds)."""


def _table_meld(m: tuple[int, int, int, int, int]) -> TableMeld:
    """The :class:`TableMeld` of the core's meld tuple ``m``, shared."""
    meld = _MELDS.get(m)
    if meld is None:
        if len(_MELDS) >= 1 << 14:
            _MELDS.clear()
        if m[0] >= SEQUENCE_RANK:
            meld = TableMeld(SEQUENCE_RANK + ((m[0] - SEQUENCE_RANK) >> 4), m[1], low=(m[0] - SEQUENCE_RANK) & 15)
        else:
            meld = TableMeld(m[0], m[1], m[2], m[3], bool(m[4]))
        _MELDS[m] = meld
    return meld


def _history_of(c: Core) -> tuple[Action, ...]:
    acts = space_of(c.d.R).actions
    out = []
    link: Any = c.history
    while link is not None:
        out.append(acts[link[0]])
        link = link[1]
    out.reverse()
    return tuple(out)


_BUILD = {
    "pile": _core.pile_cards,
    "hands": lambda c: tuple(tuple(h) for h in c.hands),
    "downs": lambda c: tuple(tuple(h) for h in c.downs),
    "melds": lambda c: tuple(tuple(_table_meld(m) for m in side) for side in c.melds),
    "stock": lambda c: c.d.stock[: c.stock_n],
    "turn": _turn_of,
    "result": lambda c: None if c.result is None else _result_of(c.result),
    "history": _history_of,
    "key": lambda c: c.key(),
    "hash": lambda c: hash(c.key()),
}



def card_totals(hands: Any, downs: Any, melds: Any, red_threes: Any, loose: Any) -> tuple[int, ...]:
    """Counts per kind of every card of a state: hands, down hands, melds (naturals at their
    rank, jokers, deuces, red-three toppings; a sequence's cards at theirs), faced red threes
    and ``loose`` cards (stock, pile, a pile set aside: card codes, counted at their kinds)."""
    have = [0] * N_KINDS
    for h in list(hands) + list(downs):
        for k in range(N_KINDS):
            have[k] += h[k]
    for ms in melds:
        for m in ms:
            if m.rank >= SEQUENCE_RANK:
                for r in range(m.low, m.low + m.naturals):
                    have[r] += 1
            elif m.rank != WILD_RANK:
                have[m.rank] += m.naturals
            have[0] += m.jokers
            have[1] += m.twos
            have[2] += int(m.red_three)
    have[2] += sum(red_threes)
    for k in loose:
        have[KIND_OF[k]] += 1
    return tuple(have)

