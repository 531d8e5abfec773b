"""Game states: the public, immutable, hashable positions, and dealing a new game.

A :class:`GameState` wraps the rules core's compact position (plain ints and tuples) and
builds its public fields (:class:`TableMeld`, :class:`Turn`, :class:`HandResult`, the history)
on first access; nothing about a state changes after it is made.
"""

from __future__ import annotations

import enum
import numbers
import os
import random
import secrets
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Optional, Union

from attrs import frozen

from . import _core
from ._actions import Action, ActionSpace, names_natural_without_suit, parse_action, space_of, spec_of, unsuited
from ._cards import _TOKENS, CODE_TOKENS, KIND_OF, N_KINDS, SEQUENCE_RANK, WILD_RANK, card_code
from ._core import Core, Deal, Result, Rules
from ._core._apply import apply_id as _apply_id
from ._core._legal import legal_ids as _legal_ids
from ._core._kernel import PH_HAND_OVER as _PH_HAND_OVER
from ._errors import ArgumentError, integer, show

if TYPE_CHECKING:
    from ._events import Event
    from ._observation import Observation
    from ._variant import Variant


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


class IllegalActionError(ValueError):
    """An action that the rules do not allow here; ``reason`` says which rule, ``action`` what."""

    action: Any
    """The action refused, as it was given (an :class:`Action`, its notation or its id)."""
    reason: str
    """Why the rules refuse it here, in a player's words (as :meth:`GameState.why_illegal`)."""

    def __init__(self, action: Any, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {str(action)!r}: {reason}")


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


class GameState:
    """A complete game position. Immutable: :meth:`apply` returns a new state.

    Seats are numbered clockwise from 0; ``side_of(seat)`` gives a seat's side. Hands are
    counts per card kind (see :class:`Card`; in a variant with sequences, 59 counts: per kind,
    then per :class:`SuitedCard`). Create one with :func:`new_game`,
    :func:`load_position` or :func:`state_from_json`. States compare equal when every public
    field is equal (the history aside), and are hashable.
    """

    __slots__ = ("_c", "_ids", "_acts", "_memo", "_view")

    _c: Core
    _ids: Optional[tuple[int, ...]]
    """The legal ids, once asked (one copy shared by the states that have the same)."""
    _acts: Optional[tuple[Action, ...]]
    """Their actions, once asked (shared likewise)."""
    _memo: Optional[dict[str, Any]]
    _view: Any
    """(``_observation``) the public part of this state's observations, once one is asked."""

    def __init__(self, core: Core) -> None:
        """(private) Wrap a core position; use :func:`new_game` to start a game."""
        self._c = core
        self._ids = None
        self._acts = None
        self._memo = None
        self._view = None

    def _cached(self, key: str) -> Any:
        memo = self._memo
        if memo is None:
            memo = self._memo = {}
        if key in memo:
            return memo[key]
        value = memo[key] = _BUILD[key](self._c)
        return value

    # ------------------------------------------------------------ the public fields

    @property
    def variant(self) -> Variant:
        """The variant played."""
        return self._c.d.R.variant

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self._c.d.R.players

    @property
    def seed(self) -> int:
        """The game's seed: the same seed deals the same game.

        It decides every later deal of the game (and so every card still to come): keep it
        from the players. A server never sends it, or a state, a save or a record holding it,
        to a client (send :meth:`observation` instead)."""
        return self._c.d.seed

    @property
    def hand_number(self) -> int:
        """The hand being played, counted from 0: the first hand is hand number 0.

        This is the number in data (saves, positions, records, observations, JSON), where it
        seeds the deal. Text for people counts from 1 and says so with the word "Hand": the
        CLI, ``str(state)``, the event texts and ``repr``
        show hand number 0 as "Hand 1" (``state.hand_number + 1``).
        """
        return self._c.d.hand_number

    @property
    def dealer(self) -> int:
        """The seat that dealt this hand."""
        return self._c.d.dealer

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's game score so far (this hand included once it is over)."""
        return self._c.totals

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's hand, as counts per card kind: 15 counts (index by :class:`Card`).

        In a variant with sequences (suited cards) 59 counts: per kind (all suits together),
        then per suited card (index by :class:`SuitedCard`); ``hand[Card.SEVEN]`` is the sum of
        the four sevens' counts."""
        h: tuple[tuple[int, ...], ...] = self._cached("hands")
        return h

    @property
    def down_hands(self) -> tuple[tuple[int, ...], ...]:
        """(new-canasta) each seat's down hand, as counts per card kind (empty elsewhere; 59
        counts in a variant with suited cards, as :attr:`hands`)."""
        h: tuple[tuple[int, ...], ...] = self._cached("downs")
        return h

    @property
    def melds(self) -> tuple[tuple[TableMeld, ...], ...]:
        """Each side's melds on the table, in the order they were made."""
        m: tuple[tuple[TableMeld, ...], ...] = self._cached("melds")
        return m

    @property
    def red_threes(self) -> tuple[int, ...]:
        """Red threes faced by each side."""
        return self._c.red

    @property
    def black_threes_aside(self) -> tuple[int, ...]:
        """Black threes each side has set aside from piles it took (cuban 3.5: out of play,
        scored by ``black_threes.set_aside_bonus``); zeros in other variants."""
        return self._c.aside

    @property
    def opened(self) -> tuple[bool, ...]:
        """Per side: it has made its initial meld."""
        return self._c.opened

    @property
    def melded(self) -> tuple[bool, ...]:
        """Per seat: he has melded this hand."""
        return self._c.melded

    @property
    def stock(self) -> tuple[int, ...]:
        """The stock, top card last: card kinds (card codes in a variant with suited cards:
        :class:`SuitedCard` for a natural)."""
        s: tuple[int, ...] = self._cached("stock")
        return s

    @property
    def pile(self) -> tuple[int, ...]:
        """The discard pile, top card last: card kinds (card codes in a variant with suited
        cards: :class:`SuitedCard` for a natural)."""
        p: tuple[int, ...] = self._cached("pile")
        return p

    @property
    def pile_buried(self) -> int:
        """How many cards at the bottom of :attr:`pile` are still face down: the packet dealt
        under the upcard where the variant buries one (``upcard.buried``, Italian 2.3), until
        the pile is taken; 0 in other variants. Nobody sees them, so observations never list
        them (the pile's size counts them)."""
        return self._c.buried

    @property
    def frozen(self) -> bool:
        """The pile is frozen (for every side)."""
        return self._c.frozen

    @property
    def current_player(self) -> Optional[int]:
        """The seat to act, or None when nobody is (the hand is over)."""
        p = self._c.player
        return None if p < 0 else p

    @property
    def phase(self) -> Phase:
        """Where the turn stands."""
        return _PHASES[self._c.phase]

    @property
    def turn(self) -> Turn:
        """What has happened so far in the current turn."""
        t: Turn = self._cached("turn")
        return t

    @property
    def took_last(self) -> tuple[bool, ...]:
        """Per seat: he took the pile in his last turn."""
        return self._c.took_last

    @property
    def last_turns(self) -> int:
        """(last-round stock exhaustion) turns left; -1 while the stock lasts."""
        return self._c.last_turns

    @property
    def active(self) -> tuple[int, ...]:
        """The seats playing this deal, in turn order."""
        return self._c.d.active

    @property
    def precise(self) -> tuple[int, ...]:
        """(new-canasta) dealers' seats credited with a precise dealer draw this hand."""
        return self._c.d.precise

    @property
    def result(self) -> Optional[HandResult]:
        """How the hand ended, once it is over."""
        r: Optional[HandResult] = self._cached("result")
        return r

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning sides, once the game is over."""
        return self._c.winners

    # ------------------------------------------------------------ queries

    @property
    def _rules(self) -> Rules:
        return self._c.d.R

    @property
    def _history(self) -> Any:
        return self._c.history

    def side_of(self, seat: int) -> int:
        """The side (0, 1, ...) that ``seat`` plays for (:class:`ArgumentError` for a seat not
        at the table)."""
        side_of = self._c.d.R.side_of
        if type(seat) is int and 0 <= seat < len(side_of):
            return side_of[seat]
        return side_of[integer(seat, "seat", 0, len(side_of) - 1)]

    @property
    def sides(self) -> int:
        """Number of sides."""
        return self._c.d.R.n_sides

    @property
    def is_hand_over(self) -> bool:
        """True when the hand has ended (also when the game has)."""
        return self._c.phase >= _PH_HAND_OVER

    @property
    def is_game_over(self) -> bool:
        """True when a side has reached the target and the game is decided."""
        return self._c.phase == _core.PH_GAME_OVER

    @property
    def core(self) -> str:
        """``"native"`` or ``"python"``: the rules core this state runs on (see
        :func:`core_info`)."""
        return "python" if type(self._c) is Core else "native"

    @property
    def action_space(self) -> ActionSpace:
        """The dense action ids of this variant and table size."""
        return space_of(self._c.d.R)

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions applied since this hand was dealt, oldest first."""
        h: tuple[Action, ...] = self._cached("history")
        return h

    def initial_need(self, side: int) -> int:
        """The initial-meld minimum for ``side`` this hand (0 once it has melded;
        :class:`ArgumentError` for a side not at the table)."""
        c = self._c
        if type(side) is not int or not 0 <= side < len(c.opened):
            side = integer(side, "side", 0, len(c.opened) - 1)
        if c.opened[side]:
            return 0
        return c.d.R.initial_need(c.totals[side], c.d.hand_number)

    def legal_action_ids(self) -> tuple[int, ...]:
        """The dense ids of :meth:`legal_actions`, in the same order."""
        ids = self._ids
        if ids is None:
            c = self._c
            if type(c) is Core:
                ids = space_of(c.d.R)._shared_ids(tuple(_legal_ids(c)))
            else:
                native: Any = c  # the native core's state (its methods are not Core's)
                ids = native.legal_ids()  # the native core shares equal tuples itself
            self._ids = ids
        return ids

    def legal_action_mask(self) -> bytes:
        """A mask over the action space: byte ``i`` is 1 when id ``i`` is legal here, else 0.

        ``numpy.frombuffer(state.legal_action_mask(), dtype=numpy.int8)`` views it as an array
        without copying. Masks are shared between states with the same legal actions.
        """
        c = self._c
        return space_of(c.d.R)._mask_of(self.legal_action_ids())

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action, in a fixed order, without duplicates in effect.

        Empty only when nobody is to act (hand or game over).
        """
        acts = self._acts
        if acts is None:
            acts = self._acts = space_of(self._c.d.R)._actions_of(self.legal_action_ids())
        return acts

    def _id_of(self, action: Union[Action, str, int]) -> int:
        """The id of ``action`` (an action, its notation or its id); -1 if the variant has none.

        Raises :class:`ActionParseError` for text that is not an action, :class:`ArgumentError`
        for an id out of range or a value of another type."""
        space = space_of(self._c.d.R)
        i = space._ident.get(id(action), -1)
        if i >= 0 and space.actions[i] is action:
            return i
        if isinstance(action, str):
            action = parse_action(action)
        elif isinstance(action, numbers.Integral) and not isinstance(action, bool):
            i = int(action)
            if not 0 <= i < space.size:
                raise ArgumentError("action", f"action id {show(action)} is out of range 0..{space.size - 1}")
            return i
        if not isinstance(action, Action):
            raise ArgumentError("action", f"expected an action, its notation or its id, not {show(action)}")
        i = space._ids.get(action, -1)
        if i < 0 and self._c.d.R.suited and names_natural_without_suit(action):
            same = self._same_but_suits(action)
            if len(same) == 1:  # the suits leave no choice: the one legal action it names
                return same[0]
        return i

    def _same_but_suits(self, action: Action) -> list[int]:
        """The legal actions' ids that ``action``, written without suits, names (variants with
        sequences): ``meld A A A`` names ``meld Ah Ad Ad`` and ``meld As Ad Ad`` where both are
        legal. A group's suits matter only through the cards they leave in the hand (the table
        keeps none for a group), so one such action is one choice; several are a real choice."""
        space = space_of(self._c.d.R)
        return [i for i in self.legal_action_ids() if unsuited(space.actions[i]) == action]

    def is_legal(self, action: Union[Action, str, int]) -> bool:
        """Whether ``action`` (an action, its notation or its id) is legal here.

        Raises :class:`ActionParseError` for text that is not an action, :class:`ArgumentError`
        for an id out of range or a value of another type."""
        i = self._id_of(action)
        return i >= 0 and i in self.legal_action_ids()

    def why_illegal(self, action: Union[Action, str, int]) -> Optional[str]:
        """The rule that forbids ``action`` here in a player's words, or None if legal.

        Raises like :meth:`is_legal` for an input that is not an action."""
        i = self._id_of(action)
        a = space_of(self._c.d.R).actions[i] if i >= 0 else _as_action(action)
        if i < 0 and self._c.d.R.suited and names_natural_without_suit(a):
            return self._why_without_suits(a)
        return _core.why(self._c, spec_of(a))

    def _why_without_suits(self, action: Action) -> str:
        """Why ``action``, naming natural cards without their suits in a variant with suits,
        is not played: it names several legal actions (the suits are a choice: which cards stay
        in the hand), or none (the rule that refuses it with the suits of the hand's cards)."""
        space = space_of(self._c.d.R)
        same = [space.actions[i] for i in self._same_but_suits(action)]
        if same:
            listed = ", ".join(f"'{a}'" for a in same[:-1]) + f" or '{same[-1]}'"
            return (f"'{action}' could be {listed}: name the cards with their suits (the cards kept in "
                    "your hand differ, and their suits matter for sequences)")
        from ._core._reasons import held_words

        hand = self.hands[self.current_player] if self.current_player is not None else ()
        suited = _with_suits_from_hand(action, hand)
        reason = _core.why(self._c, spec_of(suited)) if suited is not None else None
        if reason is None:
            return str(_core.why(self._c, spec_of(action)))
        named = _hand_cards(action)
        if reason.startswith("you hold") and any(hand[k] < named.count(k) for k in set(named)):
            return held_words(bytes(hand), tuple(named))  # by rank, as the action names them
        return reason

    def apply(self, action: Union[Action, str, int], seat: Optional[int] = None) -> GameState:
        """The state after ``action`` (an action, its notation, or its id: any integer but a
        ``bool``, numpy integers included).

        ``seat``: the seat that sends the action (a server passes the seat of the client it
        came from). When given, an action from any seat but the one to act (``current_player``;
        the partner answering "may I go out?" is to act then) is refused with
        :class:`IllegalActionError` ("it is seat 2's turn, not seat 1's"), before the action is
        even read.

        Raises :class:`IllegalActionError` naming the broken rule; this state is unchanged.
        Raises :class:`ActionParseError` for text that is not an action, :class:`ArgumentError`
        for an id out of range or a value of another type (``seat`` too: a seat not at the
        table).
        """
        c = self._c
        if seat is not None and seat != c.player:
            self._wrong_seat(action, seat)
        ids = self._ids
        if type(action) is int and ids is not None and action in ids:
            # the id path, its legal ids known: nothing else to check
            if type(c) is Core:
                return GameState(_apply_id(c, action))
            native: Any = c  # the native core's state
            return GameState(native.apply_legal(action))
        space = space_of(c.d.R)
        if type(action) is int and 0 <= action < space.size:
            i = action
        else:
            i = space._ident.get(id(action), -1)
            if i < 0 or space.actions[i] is not action:
                i = self._id_of(action)
        if ids is None:
            ids = self.legal_action_ids()
        if i < 0 or i not in ids:
            a = space.actions[i] if i >= 0 else _as_action(action)
            if i < 0 and c.d.R.suited and names_natural_without_suit(a):
                raise IllegalActionError(a, self._why_without_suits(a))
            raise IllegalActionError(a, _core.why(c, spec_of(a)) or "not legal here")
        if type(c) is Core:
            return GameState(_apply_id(c, i))
        native = c
        return GameState(native.apply_legal(i))

    def _wrong_seat(self, action: Any, seat: Any) -> None:
        """Refuse ``action`` sent by ``seat``, who is not to act (or check ``seat``)."""
        seat = integer(seat, "seat", 0, self.players - 1)
        p = self._c.player
        if p == seat:
            return
        who = "nobody is to act (the hand is over)" if p < 0 else f"it is seat {p}'s turn, not seat {seat}'s"
        raise IllegalActionError(action, who)

    def next_hand(self, precise_draws: Optional[tuple[int, ...]] = None,
                  adjustments: Optional[tuple[int, ...]] = None) -> GameState:
        """Deal the next hand (the deal rotates); only when the hand is over and the game is not.

        ``precise_draws`` records new-canasta's precise dealer draws (see :func:`new_game`);
        ``adjustments`` adds points per side to the totals first (penalties from a
        :class:`ScoreSheet`), so the next initial-meld minimum counts them.
        """
        c = self._c
        if c.phase != _core.PH_HAND_OVER:
            if c.phase == _core.PH_GAME_OVER:
                raise ValueError("the game is over: no next hand")
            raise ValueError("the hand is not over yet")
        R = c.d.R
        totals = c.totals
        if adjustments is not None:
            if isinstance(adjustments, (str, bytes)) or not isinstance(adjustments, Iterable):
                raise ArgumentError("adjustments", f"expected one integer per side, not {show(adjustments)}")
            adjust = [integer(a, "adjustments", -(1 << 31), 1 << 31) for a in adjustments]
            if len(adjust) != len(totals):
                raise ArgumentError("adjustments", f"give one number per side ({len(totals)}), not {len(adjust)}")
            totals = tuple(t + a for t, a in zip(totals, adjust))
        d = c.d
        given = _check_seats(precise_draws, "precise_draws", R.players)
        try:
            return GameState(_core.deal(R, d.seed, d.hand_number + 1, _core.next_dealer(R, d.dealer), totals,
                                        given))
        except ValueError as e:
            raise ArgumentError("precise_draws", str(e).removeprefix("precise_draws: ")) from None

    def observation(self, player: int) -> Observation:
        """What ``player`` (a seat) may know of this state: see :class:`Observation`."""
        from ._observation import observation

        return observation(self, player)

    def resample(self, player: int, rng: random.Random) -> GameState:
        """A state consistent with everything ``player`` (a seat) has observed, the hidden
        cards dealt again with ``rng`` (a ``random.Random``): an information-set sample, the
        basis of a search that must not see hidden cards.

        Kept: every public field (so ``player``'s observation is unchanged, and when he is to
        act his legal actions are too), his own hand, the whole pile and a pile set aside (the
        upcards were turned face up and every discard was seen), and in each other hand the
        cards it was seen to take from the pile and has not melded or discarded since.
        Shuffled uniformly among the unseen places: the rest of the other hands, every down
        hand, the stock and its order; a red three is never hidden in a hand that would have
        faced it. The ``seed`` and ``history`` are kept (the hand's public history is replayed
        from them). The result depends only on what ``player`` observed and on ``rng``.
        See :func:`sample_state` for the same from an :class:`Observation` alone.

        Raises ``ValueError`` for a seat not at the table, ``TypeError`` when ``rng`` is not a
        ``random.Random``.
        """
        from ._resample import resample

        return resample(self, player, rng)

    def hand_of(self, seat: int) -> tuple[int, ...]:
        """``seat``'s hand as counts per card kind (:class:`ArgumentError` for a seat not at
        the table)."""
        return self.hands[integer(seat, "seat", 0, self.players - 1)]

    # ------------------------------------------------------------ value semantics

    def _key(self) -> tuple[object, ...]:
        key: tuple[object, ...] = self._cached("key")
        return key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return not self == other

    def __hash__(self) -> int:
        h: int = self._cached("hash")
        return h

    def __repr__(self) -> str:
        c = self._c
        who = "nobody" if c.player < 0 else f"seat {c.player}"
        return (f"<GameState {c.d.R.variant.name} {c.d.R.players} players, seed {c.d.seed}, "
                f"hand {c.d.hand_number + 1}, {_PHASES[c.phase].value}, {who} to act, totals {c.totals}>")

    def __str__(self) -> str:
        """A short table view for people (well under 1,500 characters): the melds, red
        threes, the pile's top card and whether it is frozen, the stock, hand sizes, scores,
        whose turn it is. It shows no hidden card (no hand's contents)."""
        from ._view import table_view

        return table_view(self)

    def events_of(self, action: Union[Action, str, int]) -> tuple[Event, ...]:
        """What the table sees happen when ``action`` is played here: see :func:`events`.

        Applies the action (raising like :meth:`apply` when it is illegal); call
        :func:`events` with the state after to avoid applying it twice.
        """
        from ._events import events

        return events(self, action)

    def __iter__(self) -> Iterator[Any]:  # pragma: no cover - a state is not a sequence
        raise TypeError("GameState is not iterable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle, (_fields_of(self),))


def _hand_cards(action: Action) -> list[int]:
    """The cards ``action`` takes from the hand (card kinds or codes)."""
    from ._actions import Add, Discard, Meld, Take, TakeWay

    if isinstance(action, Meld):
        return list(action.cards)
    if isinstance(action, Take):
        if action.cards:
            return list(action.cards)
        wild = {TakeWay.JOKER: [0], TakeWay.TWO: [1]}.get(action.way)
        return [] if action.way is TakeWay.ONTO else [action.rank] + (wild if wild is not None else [action.rank])
    if isinstance(action, (Add, Discard)):
        return [action.card]
    return []


def _with_suits_from_hand(action: Action, hand: Any) -> Optional[Action]:
    """``action`` (natural cards named without suits) with the suits of cards in ``hand`` (59
    counts; the first held suit, clubs where none is), or None where it cannot be written so:
    the action the player would have had to type, for the rule that refuses it to be worded."""
    from ._actions import Add, Discard, Meld, Take, TakeWay

    left = list(hand) if len(hand) > N_KINDS else []

    def code(kind: int) -> int:
        if not 4 <= kind < N_KINDS:
            return kind
        for s in range(4):
            c = card_code(kind, s)
            if c < len(left) and left[c] > 0:
                left[c] -= 1
                return c
        return card_code(kind, 0)

    try:
        if isinstance(action, Meld):
            return Meld([code(c) for c in action.cards])
        if isinstance(action, Take):
            other = {TakeWay.JOKER: 0, TakeWay.TWO: 1}.get(action.way)
            first = code(action.rank)
            return Take(action.rank, action.way, 1, (first, code(action.rank) if other is None else other))
        if isinstance(action, Add):
            return Add(code(action.card), action.rank, action.meld)
        if isinstance(action, Discard):
            return Discard(code(action.card))
    except ValueError:
        return None
    return None


def _as_action(action: Union[Action, str, int]) -> Action:
    """``action`` as an :class:`Action` (``_id_of`` has checked it: an id is in range)."""
    if isinstance(action, Action):
        return action
    if isinstance(action, str):
        return parse_action(action)
    raise ArgumentError("action", f"expected an action, its notation or its id, not {show(action)}")


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


# =============================================================== building states


FIELDS = ("variant", "players", "seed", "hand_number", "dealer", "totals", "hands", "down_hands", "melds",
          "red_threes", "opened", "melded", "stock", "pile", "frozen", "current_player", "phase", "turn",
          "took_last", "last_turns", "active", "precise", "result", "winners")
"""The public fields of a state, in order."""


def _fields_of(state: GameState) -> dict[str, Any]:
    out = {name: getattr(state, name) for name in FIELDS}
    out["history"] = state.history
    out["history_seats"] = _history_seats(state)
    out["black_threes_aside"] = state._c.aside
    out["pile_buried"] = state._c.buried
    out["turns_done"] = tuple(bool((state._c.turned >> s) & 1) for s in range(state.players))
    out["playing_down"] = tuple(bool((state._c.turned >> (_core.FOOT + s)) & 1) for s in range(state.players))
    return out


def _history_seats(state: GameState) -> tuple[int, ...]:
    """(private) The seat that played each action of ``state.history``, oldest first (-1
    where not known: a history loaded without its seats)."""
    out: list[int] = []
    link: Any = state._c.history
    while link is not None:
        out.append(link[2])
        link = link[1]
    out.reverse()
    return tuple(out)


def _from_fields(variant: Variant, players: int, seed: int, hand_number: int, dealer: int,
                 totals: tuple[int, ...], hands: tuple[tuple[int, ...], ...],
                 down_hands: tuple[tuple[int, ...], ...], melds: tuple[tuple[TableMeld, ...], ...],
                 red_threes: tuple[int, ...], opened: tuple[bool, ...], melded: tuple[bool, ...],
                 stock: tuple[int, ...], pile: tuple[int, ...], frozen: bool, current_player: Optional[int],
                 phase: Phase, turn: Turn, took_last: tuple[bool, ...], last_turns: int,
                 active: tuple[int, ...], precise: tuple[int, ...] = (), result: Optional[HandResult] = None,
                 winners: tuple[int, ...] = (), history: tuple[Action, ...] = (),
                 rules: Optional[Rules] = None, history_seats: tuple[int, ...] = (),
                 black_threes_aside: tuple[int, ...] = (), turns_done: tuple[bool, ...] = (),
                 playing_down: tuple[Optional[bool], ...] = (), pile_buried: int = 0) -> GameState:
    """(private) A state from its public fields, as positions and saves give them. The
    caller has checked every value; ``history_seats`` (one seat per action of ``history``,
    -1 for not known) may be left out, and then no seat is known."""
    R = rules if rules is not None else _core.rules_for(variant, players)
    c = Core.__new__(Core)
    c.d = Deal(R, seed, hand_number, dealer, tuple(active), tuple(precise), tuple(stock))
    c.hands = tuple(bytes(h) for h in hands)
    c.downs = tuple(bytes(h) for h in down_hands)
    c.melds = tuple(tuple(meld_tuple(m) for m in side) for side in melds)
    c.info = tuple(_core.side_info(R, side) for side in c.melds)
    c.red = tuple(red_threes)
    c.aside = tuple(black_threes_aside) if black_threes_aside else (0,) * R.n_sides
    c.opened = tuple(bool(x) for x in opened)
    c.melded = tuple(bool(x) for x in melded)
    c.stock_n = len(stock)
    c.pile = _core.pile_of(tuple(pile))
    c.pile_n = len(pile)
    c.buried = pile_buried
    c.frozen = bool(frozen)
    c.player = -1 if current_player is None else current_player
    c.phase = _PHASE_NUMBER[phase]
    c.flags = _flags_of(turn)
    c.count = turn.count
    c.melds_before = turn.melds_before
    c.pending = tuple(turn.pending)
    c.pending_top = turn.pending_top
    c.start_hand = bytes(turn.start_hand)
    c.took_last = tuple(bool(x) for x in took_last)
    c.last_turns = last_turns
    c.totals = tuple(totals)
    c.result = None if result is None else _core_result(result)
    c.winners = tuple(winners)
    link: Any = None
    space = space_of(R)
    seats = history_seats if len(history_seats) == len(history) else (-1,) * len(history)
    for a, seat in zip(history, seats):
        link = (space.encode(a), link, seat)
    c.history = link
    # the seats that have finished a turn this hand (kept only where a rule asks it,
    # pile.no_discard_first_turn): as given, or those with a discard in its history
    c.turned = 0
    walk: Any = link if R.track_turns and not turns_done else None
    if R.track_turns:
        for s, done in enumerate(turns_done):
            if done:
                c.turned |= 1 << s
    while walk is not None:
        if walk[2] >= 0 and R.specs[walk[0]][0] == _core.DISCARD:
            c.turned |= 1 << walk[2]
        walk = walk[1]
    if R.partner_down:
        # who plays from his down hand (going_out.partner_down_hand): as given, else every seat
        # whose down hand is picked up
        for s in range(players):
            given = playing_down[s] if s < len(playing_down) else None
            if given if given is not None else not any(c.downs[s]):
                c.turned |= 1 << (_core.FOOT + s)
    return GameState(_core.to_native(c))


def _unpickle(fields: dict[str, Any]) -> GameState:
    return _from_fields(**fields)


def _replace(state: GameState, **changes: Any) -> GameState:
    """(private, for tests and loaders) ``state`` with some public fields replaced."""
    fields = _fields_of(state)
    unknown = set(changes) - set(fields)
    if unknown:
        raise TypeError(f"not fields of a state: {', '.join(sorted(unknown))}")
    fields.update(changes)
    return _from_fields(**fields)


SEED_BITS = 64
"""A seed is an integer of at most this many bits (either sign)."""
MAX_HAND_NUMBER = 1_000_000
"""The largest hand number a loaded position or save may give (a game is never that long)."""


def check_seed(seed: object, argument: str = "seed") -> int:
    """``seed`` as an ``int`` (numpy integers included), or an :class:`ArgumentError`."""
    if seed is None:
        raise ArgumentError(argument, "expected an integer, not None")
    return integer(seed, argument, -(1 << SEED_BITS) + 1, (1 << SEED_BITS) - 1)


def _check_seats(value: object, argument: str, players: int) -> Optional[tuple[int, ...]]:
    """``value`` (None or a sequence of seats) as a tuple of ints, checked."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ArgumentError(argument, f"expected a sequence of seats, not {show(value)}")
    return tuple(integer(x, argument, 0, players - 1) for x in value)


_CHECKED: dict[int, Any] = {}
"""Variant objects whose settings :func:`_check_built` has checked (by id, with the object)."""


def _check_built(variant: Variant) -> None:
    """A variant built in Python (``attrs.evolve`` of a loaded one, say) is checked as a file
    is: values out of bounds or contradicting each other raise :class:`VariantError`, before
    the engine could hang or fail on them. Once per variant object."""
    hit = _CHECKED.get(id(variant))
    if hit is not None and hit is variant:
        return
    from ._variant import VariantError
    from ._variant_checks import check_variant

    problems = check_variant(variant, f"variant {variant.name!r}")
    if problems:
        raise VariantError(problems)
    if len(_CHECKED) > 256:
        _CHECKED.clear()
    _CHECKED[id(variant)] = variant


def new_game(variant: Variant | str, players: Optional[int] = None, seed: Optional[int] = 0,
             dealer: Optional[int] = None, precise_draws: Optional[tuple[int, ...]] = None) -> GameState:
    """Deal the first hand of a new game.

    ``variant`` is a :class:`Variant` or a name/path for :func:`load_variant`; ``players``
    defaults to the variant's usual table (another count the variant does not allow raises
    a :class:`VariantError`, a ``ValueError``). The same seed gives the same game on any machine.

    ``seed`` is an integer (numpy integers included) of at most 64 bits, or None for fresh
    entropy: a random seed is drawn and kept as the state's ``seed``, so the game can still be
    saved, recorded and replayed. ``dealer`` is a seat (default: as the variant picks it).

    ``precise_draws`` (new-canasta's precise dealer draw): the dealers' seats who drew exactly
    the cards the deal needed and earn ``deal.precise_draw_bonus``; a table app records it here.
    When None, each dealer earns it with probability ``deal.precise_draw_probability``.

    An argument of the wrong type or out of range raises :class:`ArgumentError`.
    """
    from ._variant import Variant
    from ._variant_load import load_variant

    if isinstance(variant, (str, os.PathLike)):
        variant = load_variant(variant)
    elif not isinstance(variant, Variant):
        raise ArgumentError("variant", f"expected a Variant or a variant's name or path, not {show(variant)}")
    if players is None:
        players = variant.default_players
    players = integer(players, "players")
    if players.bit_length() > 63:  # (the variant's own message would print all its digits)
        from ._variant_terms import MAX_PLAYERS

        integer(players, "players", 1, MAX_PLAYERS)
    seed = secrets.randbits(SEED_BITS - 1) if seed is None else check_seed(seed)
    R = _core.find_rules(variant, players)
    if R is None:
        _check_built(variant)
        R = _core.rules_for(variant, players)
    if dealer is None:
        dealer = _core.first_dealer(R, seed)
    dealer = integer(dealer, "dealer", 0, players - 1)
    given = _check_seats(precise_draws, "precise_draws", players)
    try:
        return GameState(_core.deal(R, seed, 0, dealer, (0,) * R.n_sides, given))
    except ValueError as e:
        raise ArgumentError("precise_draws", str(e).removeprefix("precise_draws: ")) from None


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

