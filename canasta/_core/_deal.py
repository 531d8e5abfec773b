"""Dealing: the seats in play, the dealers, the shuffle, the hands, the upcard and the first turn."""

from __future__ import annotations

from typing import Optional

from .._cards import N_KINDS
from .._rng import Rng
from ._apply import begin_turn
from ._kernel import PH_DRAW, Core, Deal, pile_of
from ._rules import KIND, R3, Rules
from ._table import side_info

EMPTY = bytes(N_KINDS)


def next_dealer(R: Rules, dealer: int) -> int:
    """The seat that deals after ``dealer`` (new-canasta's score keeper never deals)."""
    n = R.players
    d = (dealer + 1) % n
    if R.score_keeper and d == n - 1 and n > 1:
        d = 0
    return d


def first_dealer(R: Rules, seed: int) -> int:
    """The dealer of a new game's first hand."""
    players = R.players
    if R.variant.deal.first_dealer == "random":
        return Rng(seed, "dealer").below(players)
    dealer = players - 1
    if R.score_keeper:
        dealer = next_dealer(R, dealer - 1) if players > 1 else 0
    return dealer


def active_seats(R: Rules, hand_number: int) -> tuple[int, ...]:
    """The seats playing this deal, in turn order."""
    if R.active_n >= R.players:
        return tuple(range(R.players))
    # hoyle rule 2 (five players): "only two of the three play at a time, rotating so that a
    # different one of the three is idle each deal"; the four who play alternate sides.
    big = max(R.members, key=len)
    out = big[hand_number % len(big)]
    lines = [[s for s in side if s != out] for side in R.members]
    order: list[int] = []
    for i in range(max(len(x) for x in lines)):
        for line in lines:
            if i < len(line):
                order.append(line[i])
    return tuple(order)


def dealers(R: Rules, dealer: int) -> tuple[int, ...]:
    """The seats that deal: the dealer, and (new-canasta) the down-hand dealer after him."""
    if R.down_size and R.players > 1:
        return (dealer, next_dealer(R, dealer))
    return (dealer,)


def precise_draws(R: Rules, seed: int, hand_number: int, dealer: int,
                  given: Optional[tuple[int, ...]]) -> tuple[int, ...]:
    """New-canasta's precise dealer draws: as given by a table app, or drawn by probability."""
    who = dealers(R, dealer)
    if given is not None:
        given = tuple(given)
        for s in given:
            if s not in who:
                raise ValueError(f"precise_draws: seat {s} did not deal this hand; the dealers are "
                                 + ", ".join(map(str, who)))
        if given and not R.precise_bonus:
            raise ValueError("precise_draws: this variant has no precise dealer draw bonus "
                             "(deal.precise_draw_bonus is 0)")
        return tuple(sorted(set(given)))
    if not R.precise_bonus or R.precise_p <= 0:
        return ()
    rng = Rng(seed, f"precise{hand_number}")
    return tuple(sorted({s for s in who if rng.random() < R.precise_p}))


def first_player(R: Rules, dealer: int, active: tuple[int, ...]) -> int:
    """Who plays first: left of the dealer (new-canasta: left of the down-hand dealer)."""
    n = R.players
    if R.score_keeper:
        # new-canasta: the player left of the down-hand dealer begins; never the score keeper
        s = (next_dealer(R, dealer) + 1) % n
        if s == n - 1 and n > 1:
            s = 0
        return s
    if dealer in active:
        return active[(active.index(dealer) + 1) % len(active)]
    s = (dealer + 1) % n
    while s not in active:
        s = (s + 1) % n
    return s


def buried_packet(R: Rules, stock: list[int]) -> tuple[list[int], int]:
    """Italian 2.3 (``upcard.buried``): turn the upcard, count off as many stock cards as its
    number (or value) face down, and put the upcard on them: the pile (bottom first) and the
    number of buried cards. A wild card or a three turned up goes to the bottom of the stock and
    the next card is turned (digest A2); ``stock`` (top last) is changed in place."""
    up = stock.pop()
    tries = len(stock)
    while KIND[up] < 4 and tries > 0:
        stock.insert(0, up)
        up = stock.pop()
        tries -= 1
    kind = KIND[up]
    n = kind if R.buried == 1 else R.values[kind]
    n = min(n, len(stock))
    packet = [stock.pop() for _ in range(n)]
    return packet + [up], n


def deal(R: Rules, seed: int, hand_number: int, dealer: int, totals: tuple[int, ...],
         given_precise: Optional[tuple[int, ...]] = None) -> Core:
    """Shuffle and deal a hand, and start the first turn."""
    precise = precise_draws(R, seed, hand_number, dealer, given_precise)
    rng = Rng(seed, f"hand{hand_number}")
    cards: list[int] = []
    for kind, count in enumerate(R.deck_codes):
        cards.extend([kind] * count)
    rng.shuffle(cards)
    stock = cards  # the top of the stock is the end of the list
    active = active_seats(R, hand_number)
    n = R.players
    size = R.hand_len
    hands = [[0] * size for _ in range(n)]
    downs = [[0] * size for _ in range(n)]
    order = [s for s in ((dealer + 1 + i) % n for i in range(n)) if s in active]
    for _ in range(R.hand_size):
        for s in order:
            card = stock.pop()
            hands[s][card] += 1
            if card >= N_KINDS:
                hands[s][KIND[card]] += 1
    for _ in range(R.down_size):
        for s in order:
            card = stock.pop()
            downs[s][card] += 1
            if card >= N_KINDS:
                downs[s][KIND[card]] += 1
    # the upcard; covered while it is of a class the variant covers
    buried = 0
    if R.buried:
        pile, buried = buried_packet(R, stock)
    else:
        pile = [stock.pop()] if R.upcard_turned else []  # modern-american 2.3: no upcard
    frozen = bool(pile) and pile[0] in R.upcard_freezes
    if pile and pile[0] in R.cover:
        while True:
            card = stock.pop()
            pile.append(card)
            if card in R.upcard_freezes:
                frozen = True
            if not R.cover_repeat or card not in R.cover or not stock:
                break
    red = [0] * R.n_sides
    if not R.keep_r3 and R.r3_at_deal:
        # wikipedia: a red three in the initial hand is played at once and replaced
        for s in order:
            while hands[s][R3] and stock:
                hands[s][R3] -= 1
                red[R.side_of[s]] += 1
                card = stock.pop()
                hands[s][card] += 1
                if card >= N_KINDS:
                    hands[s][KIND[card]] += 1
    c = Core.__new__(Core)
    c.d = Deal(R, seed, hand_number, dealer, active, precise, tuple(stock))
    c.hands = tuple(bytes(h) for h in hands)
    c.downs = tuple(bytes(h) for h in downs)
    c.melds = ((),) * R.n_sides
    c.info = (side_info(R, ()),) * R.n_sides
    c.red = tuple(red)
    c.aside = (0,) * R.n_sides
    c.turned = 0
    c.opened = (False,) * R.n_sides
    c.melded = (False,) * n
    c.stock_n = len(stock)
    c.pile = pile_of(tuple(pile))
    c.pile_n = len(pile)
    c.frozen = frozen
    c.buried = buried
    c.player = -1
    c.phase = PH_DRAW
    c.flags = 0
    c.count = 0
    c.melds_before = 0
    c.pending = ()
    c.pending_top = -1
    c.start_hand = b""
    c.took_last = (False,) * n
    c.last_turns = -1
    c.totals = totals
    c.result = None
    c.winners = ()
    c.history = None
    begin_turn(c, first_player(R, dealer, active))
    return c
