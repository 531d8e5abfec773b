"""The compact inner state of a game: plain ints and tuples behind the public ``GameState``.

A :class:`Core` is built once and never changed after it is handed out: :func:`apply`
(in ``_apply``) copies the core it is given and changes only the copy. Hands are counts per
card kind, melds are 5-tuples ``(rank, naturals, jokers, twos, red three)``, the turn's
yes/no facts are bits of one int (``F_*``), the stock is the dealt deck's order with a count
of the cards left in it.
"""

from __future__ import annotations

from typing import Any, Final, Optional

from ._rules import Meld, Rules
from ._table import SideInfo, appended_info, grown_info, side_info

# phases (the public Phase enum is built from these, in this order)
PH_DRAW: Final = 0
PH_ANSWER: Final = 1
PH_INITIAL_TAKE: Final = 2
PH_MELD: Final = 3
PH_FINAL_MELD: Final = 4
PH_HAND_OVER: Final = 5
PH_GAME_OVER: Final = 6

# the turn's facts (the public Turn value is built from these)
F_DREW: Final = 1
F_TOOK: Final = 2
F_ASKED: Final = 4
F_YES: Final = 8          # the partner answered yes
F_NO: Final = 16          # the partner answered no
F_MELDED: Final = 32
F_B3: Final = 64          # black threes were melded: he must go out this turn
F_MUST_OUT: Final = 128   # the pile was taken to go out concealed: he must go out this turn
F_TOUCHED: Final = 256    # he added to a meld of his partner's
F_OWN: Final = 512        # he completed a canasta of his own
F_HAD_MELDED: Final = 1024  # he had melded earlier in the hand when the turn began
F_NO_TAKE: Final = 2048   # a retracted take: he must now draw
F_NATURAL: Final = 4096   # his side's initial meld includes a natural meld (initial_meld.natural_meld_first)
F_MUST: Final = F_YES | F_B3 | F_MUST_OUT

FOOT: Final = 16
"""``Core.turned`` bit ``1 << (FOOT + seat)``: that seat plays from his down hand (foot)."""

Hand = bytes
"""A hand: the count of each card kind (a ``bytes``, so it costs little and the GC skips it)."""
SideMelds = tuple[Meld, ...]
PileLink = Optional[tuple[int, object]]
"""The discard pile: (top card, the pile below it), so that a discard adds one small tuple."""
Link = Optional[tuple[int, object, int]]
"""The action history: (action id, previous link, seat that acted, or -1 when not known),
newest first; shared between states."""
Scores = tuple[tuple[tuple[str, int, int], ...], ...]
"""A hand's itemised score per side: (name, count, points) rows."""


class Deal:
    """What stays fixed through one hand: the table's rules and how the hand was dealt."""

    __slots__ = ("R", "seed", "hand_number", "dealer", "active", "precise", "stock")

    R: Rules
    seed: int
    hand_number: int
    dealer: int
    active: tuple[int, ...]
    precise: tuple[int, ...]
    stock: tuple[int, ...]
    """The stock as dealt (top last); a core holds the first ``stock_n`` of these."""

    def __init__(self, R: Rules, seed: int, hand_number: int, dealer: int, active: tuple[int, ...],
                 precise: tuple[int, ...], stock: tuple[int, ...]) -> None:
        self.R = R
        self.seed = seed
        self.hand_number = hand_number
        self.dealer = dealer
        self.active = active
        self.precise = precise
        self.stock = stock


class Result:
    """How a hand ended: who went out (-1: nobody), concealed, the itemised scores, why."""

    __slots__ = ("went_out", "concealed", "scores", "reason")

    went_out: int
    concealed: bool
    scores: Scores
    reason: str

    def __init__(self, went_out: int, concealed: bool, scores: Scores, reason: str) -> None:
        self.went_out = went_out
        self.concealed = concealed
        self.scores = scores
        self.reason = reason

    def key(self) -> tuple[int, bool, Scores, str]:
        return (self.went_out, self.concealed, self.scores, self.reason)


class Core:
    """One position. Treat as immutable once returned: change only a fresh :meth:`copy`."""

    __slots__ = ("d", "hands", "downs", "melds", "info", "red", "aside", "turned", "opened", "melded", "stock_n", "pile",
                 "pile_n", "buried", "frozen", "player", "phase", "flags", "count", "melds_before", "pending",
                 "pending_top", "start_hand", "took_last", "last_turns", "totals", "result",
                 "winners", "history")

    d: Deal
    hands: tuple[Hand, ...]
    downs: tuple[Hand, ...]
    melds: tuple[SideMelds, ...]
    info: tuple[SideInfo, ...]
    """Each side's melds, summarised (see ``_table``); kept with ``melds`` by :meth:`set_melds`."""
    red: tuple[int, ...]
    """Faced red threes per side."""
    aside: tuple[int, ...]
    """Black threes per side set aside from taken piles (``black_threes.from_pile``)."""
    turned: int
    """Per-seat facts of the hand, as bits: ``1 << seat``, he has finished a turn (kept where
    ``pile.no_discard_first_turn`` asks it); ``1 << (FOOT + seat)``, he plays from his down hand
    (kept where ``going_out.partner_down_hand`` asks it)."""
    opened: tuple[bool, ...]
    """Per side: it has made its initial meld."""
    melded: tuple[bool, ...]
    """Per seat: he has melded this hand."""
    stock_n: int
    pile: PileLink
    pile_n: int
    """Cards in the pile."""
    buried: int
    """Cards at the bottom of the pile still face down (``upcard.buried``, Italian 2.3): the packet
    dealt under the upcard, until the pile is taken."""
    frozen: bool
    player: int
    """The seat to act, or -1 when nobody is."""
    phase: int
    flags: int
    count: int
    """Points melded this turn toward the side's initial meld."""
    melds_before: int
    pending: tuple[int, ...]
    """The rest of a pile being taken for an initial meld, set aside until the minimum is met."""
    pending_top: int
    start_hand: Hand
    took_last: tuple[bool, ...]
    last_turns: int
    totals: tuple[int, ...]
    result: Optional[Result]
    winners: tuple[int, ...]
    history: Link

    def copy(self) -> Core:
        """A fresh copy to change (the copy shares every tuple with this core)."""
        n = Core.__new__(Core)
        n.d = self.d
        n.hands = self.hands
        n.downs = self.downs
        n.melds = self.melds
        n.info = self.info
        n.red = self.red
        n.aside = self.aside
        n.turned = self.turned
        n.opened = self.opened
        n.melded = self.melded
        n.stock_n = self.stock_n
        n.pile = self.pile
        n.pile_n = self.pile_n
        n.buried = self.buried
        n.frozen = self.frozen
        n.player = self.player
        n.phase = self.phase
        n.flags = self.flags
        n.count = self.count
        n.melds_before = self.melds_before
        n.pending = self.pending
        n.pending_top = self.pending_top
        n.start_hand = self.start_hand
        n.took_last = self.took_last
        n.last_turns = self.last_turns
        n.totals = self.totals
        n.result = self.result
        n.winners = self.winners
        n.history = self.history
        return n

    def set_melds(self, side: int, melds: SideMelds) -> None:
        """Give ``side`` the melds ``melds`` (and their summary)."""
        lst = list(self.melds)
        lst[side] = melds
        self.melds = tuple(lst)
        infos = list(self.info)
        infos[side] = side_info(self.d.R, melds)
        self.info = tuple(infos)

    def grow_meld(self, side: int, melds: SideMelds, i: int) -> None:
        """Give ``side`` the melds ``melds``, in which only meld ``i`` changed (same rank)."""
        lst = list(self.melds)
        lst[side] = melds
        self.melds = tuple(lst)
        infos = list(self.info)
        infos[side] = grown_info(self.d.R, infos[side], melds, i)
        self.info = tuple(infos)

    def append_meld(self, side: int, melds: SideMelds) -> None:
        """Give ``side`` the melds ``melds``: the ones it had and a new meld last."""
        lst = list(self.melds)
        lst[side] = melds
        self.melds = tuple(lst)
        infos = list(self.info)
        infos[side] = appended_info(self.d.R, infos[side], melds)
        self.info = tuple(infos)

    def stock(self) -> tuple[int, ...]:
        """The cards left in the stock, top last."""
        return self.d.stock[: self.stock_n]

    def key(self) -> tuple[object, ...]:
        """Everything that makes two positions equal (not the history)."""
        d = self.d
        res = self.result
        return (d.R.variant, d.R.players, d.seed, d.hand_number, d.dealer, d.active, d.precise,
                self.totals, self.hands, self.downs, self.melds, self.red, self.aside, self.turned, self.opened, self.melded,
                self.stock(), pile_cards(self), self.buried, self.frozen, self.player, self.phase, self.flags, self.count,
                self.melds_before, self.pending, self.pending_top, self.start_hand, self.took_last,
                self.last_turns, None if res is None else res.key(), self.winners)


def reserved(c: Core) -> int:
    """Cards at the bottom of the stock that are the talon's packets set aside at the deal and
    not yet taken (``deal.talon_set_aside``, modern-american A2): the i-th side to make its
    initial meld takes the i-th packet after its discard. 0 where the variant sets none aside."""
    R = c.d.R
    if not R.talon_aside:
        return 0
    k = 0
    for o in c.opened:
        if o:
            k += 1
    if c.player >= 0 and c.melds_before == 0 and c.opened[R.side_of[c.player]]:
        k -= 1  # this side opened this turn: its packet comes after the discard
    return sum(R.talon[k:])


def stock_left(c: Core) -> int:
    """Cards a player may still draw from the stock (all of it, but talon packets set aside)."""
    return c.stock_n - reserved(c) if c.d.R.talon_aside else c.stock_n


_PILE: tuple[PileLink, tuple[int, ...]] = (None, ())
"""The last pile asked of :func:`pile_cards` and its cards (the link held, so its identity stays
its own): a position's checks ask for its pile several times, and the next position's pile is
mostly this one with a discard on top."""


def pile_cards(c: Core) -> tuple[int, ...]:
    """The pile's cards, bottom first (its top card last)."""
    global _PILE
    link: Any = c.pile
    memo = _PILE
    if link is memo[0]:
        return memo[1]
    if link is not None and link[1] is memo[0]:
        cards = memo[1] + (link[0],)  # a discard on the pile last asked
    else:
        out: list[int] = []
        append = out.append
        top = link
        while link is not None:
            append(link[0])
            link = link[1]
        out.reverse()
        cards = tuple(out)
        link = top
    _PILE = (link, cards)
    return cards


def pile_top(c: Core) -> int:
    """The top card of the pile (which is not empty)."""
    pile = c.pile
    assert pile is not None
    return pile[0]


def pile_below(c: Core) -> tuple[int, ...]:
    """The cards under its top card that a take of the pile brings, bottom first: the whole
    pile, or the cards down to ``pile.take_top`` (hand-and-foot 3.2: the top seven cards)."""
    n = c.d.R.take_top
    cards = pile_cards(c)
    if n and len(cards) > n:
        return cards[-n:-1]
    return cards[:-1]


def pile_of(cards: tuple[int, ...]) -> PileLink:
    """The pile made of ``cards`` (bottom first)."""
    link: PileLink = None
    for k in cards:
        link = (k, link)
    return link


def meld_index(melds: SideMelds, rank: int, number: int) -> int:
    """The index in ``melds`` of the side's meld number ``number`` (from 1) of ``rank``, or -1
    (``rank`` ``SEQ + suit``: of the side's sequences of that suit)."""
    if rank >= 16:
        for i in range(len(melds)):
            r = melds[i][0]
            if r >= 16 and 16 + ((r - 16) >> 4) == rank:
                number -= 1
                if number == 0:
                    return i
        return -1
    for i in range(len(melds)):
        if melds[i][0] == rank:
            number -= 1
            if number == 0:
                return i
    return -1


def set_at(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    """``t`` with item ``i`` replaced by ``v``."""
    lst = list(t)
    lst[i] = v
    return tuple(lst)


def set_flag_at(t: tuple[bool, ...], i: int, v: bool) -> tuple[bool, ...]:
    """``t`` with item ``i`` replaced by ``v`` (``t`` itself if it already holds ``v``)."""
    if t[i] == v:
        return t
    lst = list(t)
    lst[i] = v
    return tuple(lst)


def set_hand(t: tuple[Hand, ...], i: int, h: Hand) -> tuple[Hand, ...]:
    """``t`` with hand ``i`` replaced by ``h``."""
    lst = list(t)
    lst[i] = h
    return tuple(lst)
