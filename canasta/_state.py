"""Game state values: immutable, hashable, cheap to copy."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, Iterator, Optional, Union, cast

from attrs import field, frozen

from ._cards import _TOKENS, N_KINDS, WILD_RANK, Card

if TYPE_CHECKING:
    from ._actions import Action, ActionSpace
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


@frozen(slots=True, cache_hash=True)
class TableMeld:
    """A meld on the table: its rank and how many naturals, jokers and deuces it holds."""

    rank: int
    naturals: int
    jokers: int = 0
    twos: int = 0
    red_three: bool = False
    """(new-canasta) a red three placed on this natural canasta."""

    @property
    def wilds(self) -> int:
        """Jokers and deuces in the meld."""
        return self.jokers + self.twos

    @property
    def size(self) -> int:
        """Cards in the meld (a red three topping is not counted)."""
        return self.naturals + self.jokers + self.twos

    def __str__(self) -> str:
        name = "wild" if self.rank == WILD_RANK else _TOKENS[self.rank]
        parts = [name] * (0 if self.rank == WILD_RANK else self.naturals)
        parts += ["JK"] * self.jokers + ["2"] * self.twos
        if self.red_three:
            parts.append("3r")
        return " ".join(parts)


@frozen(slots=True)
class Turn:
    """What has happened so far in the current turn."""

    drew: bool = False
    took: bool = False
    count: int = 0
    """Points melded this turn toward the side's initial meld (top card of a taken pile included)."""
    pending: tuple[int, ...] = ()
    """The rest of a pile being taken for an initial meld, set aside until the minimum is met."""
    pending_top: int = -1
    """(undo) the top card of a pile being taken for the initial meld."""
    asked: bool = False
    answer: Optional[bool] = None
    melded: bool = False
    black_threes: bool = False
    """Black threes were melded: the player must go out this turn."""
    must_out: bool = False
    """The pile was taken on the strength of a concealed going out: he must go out this turn."""
    touched_partner: bool = False
    own_canasta: bool = False
    melds_before: int = 0
    """The side's melds when the turn began."""
    had_melded: bool = False
    """Whether this player had melded earlier in the hand when the turn began."""
    no_take: bool = False
    """A retracted take: the player must now draw."""
    start_hand: tuple[int, ...] = ()
    """(undo) the hand before a take for the initial meld."""


@frozen(slots=True)
class ScoreItem:
    """One row of a hand's score: what it is, how many, and the points."""

    name: str
    count: int
    points: int


@frozen(slots=True)
class HandScore:
    """A side's itemised score for one hand; ``total`` is the sum of the items."""

    side: int
    items: tuple[ScoreItem, ...]

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
    scores: tuple[HandScore, ...]
    reason: str


class _Link:
    """A cons cell for the action history (O(1) append, shared between states)."""

    __slots__ = ("item", "prev", "length")

    def __init__(self, item: Any, prev: Optional["_Link"]) -> None:
        self.item = item
        self.prev = prev
        self.length: int = 1 if prev is None else prev.length + 1


@frozen(slots=True, eq=True)
class GameState:
    """A complete game position. Immutable: :meth:`apply` returns a new state.

    Seats are numbered clockwise from 0; ``side_of(seat)`` gives a seat's side. Hands are
    counts per card kind (see :class:`Card`). Create one with :func:`new_game` or
    :func:`load_position`.
    """

    variant: "Variant"
    players: int
    seed: int
    hand_number: int
    dealer: int
    totals: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    down_hands: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[TableMeld, ...], ...]
    red_threes: tuple[int, ...]
    opened: tuple[bool, ...]
    melded: tuple[bool, ...]
    stock: tuple[int, ...]
    pile: tuple[int, ...]
    frozen: bool
    current_player: Optional[int]
    phase: Phase
    turn: Turn
    took_last: tuple[bool, ...]
    last_turns: int
    """(last-round stock exhaustion) turns left; -1 while the stock lasts."""
    active: tuple[int, ...]
    precise: tuple[int, ...] = ()
    """(new-canasta) dealers' seats credited with a precise dealer draw this hand."""
    result: Optional[HandResult] = None
    winners: tuple[int, ...] = ()
    _rules: Any = field(default=None, eq=False, repr=False)
    _history: Optional[_Link] = field(default=None, eq=False, repr=False)
    _cache: list[Any] = field(factory=list, eq=False, repr=False)

    # ------------------------------------------------------------ queries

    def side_of(self, seat: int) -> int:
        """The side (0, 1, ...) that ``seat`` plays for."""
        return int(self._rules.side_of[seat])

    @property
    def sides(self) -> int:
        """Number of sides."""
        return int(self._rules.n_sides)

    @property
    def is_hand_over(self) -> bool:
        """True when the hand has ended (also when the game has)."""
        return self.phase in (Phase.HAND_OVER, Phase.GAME_OVER)

    @property
    def is_game_over(self) -> bool:
        """True when a side has reached the target and the game is decided."""
        return self.phase is Phase.GAME_OVER

    @property
    def action_space(self) -> "ActionSpace":
        """The dense action ids of this variant and table size."""
        space: ActionSpace = self._rules.space
        return space

    @property
    def history(self) -> tuple["Action", ...]:
        """The actions applied since this hand was dealt, oldest first."""
        out = []
        link = self._history
        while link is not None:
            out.append(link.item)
            link = link.prev
        return tuple(reversed(out))

    def initial_need(self, side: int) -> int:
        """The initial-meld minimum for ``side`` this hand (0 once it has melded)."""
        if self.opened[side]:
            return 0
        return int(self.variant.initial_need(self.totals[side]))

    def legal_actions(self) -> tuple["Action", ...]:
        """Every legal action, in a fixed order, without duplicates in effect.

        Empty only when nobody is to act (hand or game over).
        """
        if not self._cache:
            from ._engine import legal_actions

            acts = legal_actions(self)
            self._cache.append(acts)
            self._cache.append(frozenset(acts))
        cached: tuple[Action, ...] = self._cache[0]
        return cached

    def legal_action_ids(self) -> tuple[int, ...]:
        """The dense ids of :meth:`legal_actions`, in the same order."""
        enc = self._rules.space._ids
        return tuple(enc[a] for a in self.legal_actions())

    def is_legal(self, action: "Action") -> bool:
        """Whether ``action`` is legal here."""
        self.legal_actions()
        return action in self._cache[1]

    def why_illegal(self, action: Union["Action", str]) -> Optional[str]:
        """The rule that forbids ``action`` here in a player's words, or None if legal."""
        from ._actions import parse_action
        from ._engine import explain

        if isinstance(action, str):
            action = parse_action(action)
        if self.is_legal(action):
            return None
        return explain(self, action)

    def apply(self, action: Union["Action", str, int]) -> "GameState":
        """The state after ``action`` (an action, its notation, or its id).

        Raises :class:`IllegalActionError` naming the broken rule; this state is unchanged.
        """
        from ._actions import parse_action
        from ._engine import IllegalActionError, apply_action, explain

        if isinstance(action, str):
            action = parse_action(action)
        elif isinstance(action, int):
            action = cast("Action", self._rules.space.decode(action))
        if not self.is_legal(action):
            raise IllegalActionError(action, explain(self, action))
        return apply_action(self, action)

    def next_hand(self, precise_draws: Optional[tuple[int, ...]] = None,
                  adjustments: Optional[tuple[int, ...]] = None) -> "GameState":
        """Deal the next hand (the deal rotates); only when the hand is over and the game is not.

        ``precise_draws`` records new-canasta's precise dealer draws (see :func:`new_game`);
        ``adjustments`` adds points per side to the totals first (penalties from a
        :class:`ScoreSheet`), so the next initial-meld minimum counts them.
        """
        from ._engine import deal_next

        return deal_next(self, precise_draws, adjustments)

    def observation(self, player: int) -> "Observation":
        """What ``player`` (a seat) may know of this state: see :class:`Observation`."""
        from ._observation import observation

        return observation(self, player)

    def hand_of(self, seat: int) -> tuple[int, ...]:
        """``seat``'s hand as counts per card kind."""
        return self.hands[seat]

    def __iter__(self) -> Iterator[Any]:  # pragma: no cover - attrs frozen classes are not iterable
        raise TypeError("GameState is not iterable")


def card_totals(hands: Any, downs: Any, melds: Any, red_threes: Any, loose: Any) -> tuple[int, ...]:
    """Counts per kind of every card of a state: hands, down hands, melds (naturals at their
    rank, jokers, deuces, red-three toppings), faced red threes and ``loose`` cards (stock,
    pile, a pile set aside)."""
    have = [0] * N_KINDS
    for h in list(hands) + list(downs):
        for k in range(N_KINDS):
            have[k] += h[k]
    for ms in melds:
        for m in ms:
            if m.rank != WILD_RANK:
                have[m.rank] += m.naturals
            have[0] += m.jokers
            have[1] += m.twos
            have[2] += int(m.red_three)
    have[2] += sum(red_threes)
    for k in loose:
        have[k] += 1
    return tuple(have)


EMPTY = (0,) * N_KINDS
_ = Card
