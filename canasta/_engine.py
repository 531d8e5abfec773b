"""The rules engine: dealing, legal actions, applying actions, turn planning and scoring.

Everything here reads the variant's settings through a compiled :class:`Rules` object; no
code looks at a variant's name.

No dead ends: an action is offered only when the turn can still be finished legally after
it. The planner functions (:func:`_reach`, :func:`_can_go_out`) answer "can the initial
minimum still be met while keeping cards to discard?" and "can this player still go out
this turn?" exactly enough for that.
"""

from __future__ import annotations

from functools import lru_cache

import attrs
from typing import Any, Optional

from ._actions import (
    ActionSpace,
    Add,
    Answer,
    Ask,
    Combine,
    Discard,
    Done,
    Draw,
    Meld,
    Pass,
    Retract,
    Take,
)
from ._cards import N_KINDS, WILD_RANK, deck_counts
from ._rng import Rng
from ._state import (
    GameState,
    HandResult,
    HandScore,
    Phase,
    ScoreItem,
    TableMeld,
    Turn,
    _Link,
)
from ._variant import Variant

JK, TWO, R3, B3 = 0, 1, 2, 3
RANKS = tuple(range(4, 15))
_CLASS = {"wild": (0, 1), "red_three": (2,), "black_three": (3,)}
_NO_TURN = Turn()
_BIG = 1 << 20  # "no limit" for room and wild-card capacity
_DRAW = Draw()


class IllegalActionError(ValueError):
    """An action that the rules do not allow here; ``reason`` says which rule, ``action`` what."""

    def __init__(self, action: Any, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {str(action)!r}: {reason}")


def _kinds(classes: tuple[str, ...]) -> frozenset[int]:
    out: set[int] = set()
    for c in classes:
        out.update(_CLASS[c])
    return frozenset(out)


class Rules:
    """The variant's settings compiled for one table size (private, fast to read)."""

    def __init__(self, variant: Variant, players: int) -> None:
        v = variant
        t = v.table(players)
        self.variant = v
        self.players = players
        self.table = t
        letters = sorted(set(t.sides))
        self.side_of = tuple(letters.index(ch) for ch in t.sides)
        self.n_sides = len(letters)
        self.members = tuple(tuple(s for s in range(players) if self.side_of[s] == i) for i in range(self.n_sides))
        self.hand_size = t.hand_size
        self.down_size = t.down_hand_size
        self.draw_n = t.draw
        self.active_n = t.active or players
        packs = v.deck.packs + v.deck.packs_per_player * players
        self.deck = deck_counts(packs, v.deck.jokers_per_pack)
        cv = v.scoring.card_values
        vals = [cv.joker, cv.two, 0, cv.black_three, cv.four, cv.five, cv.six, cv.seven, cv.eight,
                cv.nine, cv.ten, cv.jack, cv.queen, cv.king, cv.ace]
        self.values = tuple(vals)
        self.cover = _kinds(v.upcard.cover)
        self.cover_repeat = v.upcard.repeat
        self.upcard_freezes = _kinds(v.upcard.freezes)
        p = v.pile
        self.freeze_discard = _kinds(p.freeze_on_discard)
        self.blocked = _kinds(p.blocked_by)
        self.frozen_until_initial = p.frozen_until_initial_meld
        self.take_unfrozen = frozenset(p.take_unfrozen)
        self.take_frozen = frozenset(p.take_frozen)
        self.pair_melded = p.pair_melded
        self.one_card = p.one_card_hand_one_card_pile
        self.consecutive = p.consecutive_takes
        self.undo_take = p.failed_initial_take == "undo"
        m = v.melds
        self.min_size = m.min_size
        self.min_nat = m.min_naturals
        self.max_wild = m.max_wild
        self.ratio = m.wild_ratio
        self.unlimited = m.unlimited_wild_on_canasta
        self.cs = m.canasta_size
        self.cmin_nat = m.canasta_min_naturals
        self.closed = m.canasta_closed
        self.multi = m.multiple_per_rank
        self.combine = m.combine
        self.wild_melds = m.wild_melds
        self.initial_canasta = m.initial_may_be_canasta
        b = v.black_threes
        self.b3_rule = b.meld
        self.b3_min = b.min
        self.b3_max = b.max
        self.b3_bonus = b.canasta_bonus
        r = v.red_threes
        self.keep_r3 = r.handling == "keep"
        self.r3_at_deal = r.dealt == "at_deal"
        self.r3_bonus = r.bonus
        self.r3_minus = r.minus_without_meld
        self.r3_minus_table = r.minus
        self.r3_penalty = r.in_hand_penalty
        self.r3_canasta = r.canasta_bonus
        g = v.going_out
        self.canastas_needed = g.canastas
        self.out_bonus = g.bonus
        self.permission = g.permission and all(len(m) > 1 for m in self.members)
        self.ask_after_take = g.ask_after_take
        c = g.concealed
        self.conc_basis = c.basis
        self.conc_no_partner = c.no_partner_melds
        self.conc_own = c.own_canasta
        self.conc_min = c.minimum
        self.conc_bonus = c.bonus
        s = v.stock_exhausted
        self.last_round = s.mode == "last_round"
        self.must_take = s.must_take
        self.last_r3 = s.last_red_three
        sc = v.scoring
        self.nat_bonus = sc.natural_canasta
        self.mixed_bonus = sc.mixed_canasta
        self.wild_bonus = sc.wild_canasta
        self.target = v.game.target
        self.score_keeper = v.deal.score_keeper
        self.precise_bonus = v.deal.precise_draw_bonus
        self.precise_p = v.deal.precise_draw_probability
        self.space = ActionSpace(v, players)
        self.meld_acts: dict[tuple[int, ...], Meld] = {}
        self.add_acts: dict[tuple[int, int, int], Add] = {}
        for a in self.space.actions:
            if isinstance(a, Meld):
                self.meld_acts[a.cards] = a
            elif isinstance(a, Add):
                self.add_acts[(a.card, a.rank, a.meld)] = a
        self.discards = tuple(Discard(k) for k in range(N_KINDS))
        self.nn_wild_ok = self.wild_cap(2) >= 1 and self.min_nat <= 2
        self.keep_out = 2  # cards a player must hold to end a turn without going out

    # ---------------------------------------------------------- meld shape

    def wild_cap(self, naturals: int) -> int:
        """Most wild cards a meld with ``naturals`` naturals may hold (not a canasta)."""
        if self.ratio == "any":
            return self.max_wild
        if self.ratio == "at_most_naturals":
            return min(self.max_wild, naturals)
        return min(self.max_wild, naturals - 1)

    def is_canasta(self, m: TableMeld) -> bool:
        return m.size >= self.cs and (m.rank == WILD_RANK or m.naturals >= self.cmin_nat)

    def valid(self, m: TableMeld) -> bool:
        """Whether a (new or grown) meld is valid."""
        if m.rank == WILD_RANK:
            return m.naturals == 0 and m.size >= self.min_size
        if m.rank == B3:
            return m.wilds == 0 and self.b3_min <= m.naturals <= self.b3_max
        if m.naturals < self.min_nat or m.size < self.min_size:
            return False
        if self.closed and m.size > self.cs:
            return False
        if m.wilds <= self.wild_cap(m.naturals):
            return True
        return self.unlimited and m.size - m.wilds >= 0 and self._canasta_before_extra_wilds(m)

    def _canasta_before_extra_wilds(self, m: TableMeld) -> bool:
        # hoyle rule 25: "Wild cards in any number may be added to a completed canasta":
        # the canasta must be complete with at most the usual wild cards first.
        cap = self.wild_cap(m.naturals)
        return m.naturals + cap >= self.cs and m.naturals >= self.cmin_nat

    def need_for(self, score: int) -> int:
        return self.variant.initial_need(score)


_RULES: dict[tuple[int, int], tuple[Variant, Rules]] = {}


def rules_for(variant: Variant, players: int) -> Rules:
    """The compiled rules of ``variant`` for ``players`` (cached per variant object)."""
    hit = _RULES.get((id(variant), players))
    if hit is not None and hit[0] is variant:
        return hit[1]
    if len(_RULES) > 256:
        _RULES.clear()
    rules = Rules(variant, players)
    _RULES[(id(variant), players)] = (variant, rules)
    return rules


# =============================================================== dealing


def new_game(variant: Variant | str, players: Optional[int] = None, seed: int = 0,
             dealer: Optional[int] = None, precise_draws: Optional[tuple[int, ...]] = None) -> GameState:
    """Deal the first hand of a new game.

    ``variant`` is a :class:`Variant` or a name/path for :func:`load_variant`; ``players``
    defaults to the variant's usual table (another count the variant does not allow raises
    a :class:`VariantError`, a ``ValueError``). The same seed gives the same game on any machine.

    ``precise_draws`` (new-canasta's precise dealer draw): the dealers' seats who drew exactly
    the cards the deal needed and earn ``deal.precise_draw_bonus``; a table app records it here.
    When None, each dealer earns it with probability ``deal.precise_draw_probability``.
    """
    from ._variant import load_variant

    if isinstance(variant, str):
        variant = load_variant(variant)
    if players is None:
        players = variant.default_players
    R = rules_for(variant, players)
    if dealer is None:
        if variant.deal.first_dealer == "random":
            dealer = Rng(seed, "dealer").below(players)
        else:
            dealer = players - 1
            if R.score_keeper:
                dealer = _next_dealer(R, dealer - 1) if players > 1 else 0
    if not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat from 0 to {players - 1}, not {dealer}")
    totals = (0,) * R.n_sides
    return _deal(R, seed, 0, dealer, totals, precise_draws)


def _next_dealer(R: Rules, dealer: int) -> int:
    n = R.players
    d = (dealer + 1) % n
    if R.score_keeper and d == n - 1 and n > 1:
        d = 0
    return d


def _active_seats(R: Rules, hand_number: int) -> tuple[int, ...]:
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


def _dealers(R: Rules, dealer: int) -> tuple[int, ...]:
    """The seats that deal: the dealer, and (new-canasta) the down-hand dealer after him."""
    if R.down_size and R.players > 1:
        return (dealer, _next_dealer(R, dealer))
    return (dealer,)


def _precise(R: Rules, seed: int, hand_number: int, dealer: int,
             given: Optional[tuple[int, ...]]) -> tuple[int, ...]:
    dealers = _dealers(R, dealer)
    if given is not None:
        given = tuple(given)
        for s in given:
            if s not in dealers:
                raise ValueError(f"precise_draws: seat {s} did not deal this hand; the dealers are "
                                 + ", ".join(map(str, dealers)))
        if given and not R.precise_bonus:
            raise ValueError("precise_draws: this variant has no precise dealer draw bonus "
                             "(deal.precise_draw_bonus is 0)")
        return tuple(sorted(set(given)))
    if not R.precise_bonus or R.precise_p <= 0:
        return ()
    rng = Rng(seed, f"precise{hand_number}")
    return tuple(sorted({s for s in dealers if rng.random() < R.precise_p}))


def _deal(R: Rules, seed: int, hand_number: int, dealer: int, totals: tuple[int, ...],
          precise_draws: Optional[tuple[int, ...]] = None) -> GameState:
    precise = _precise(R, seed, hand_number, dealer, precise_draws)
    rng = Rng(seed, f"hand{hand_number}")
    deck: list[int] = []
    for kind, n in enumerate(R.deck):
        deck.extend([kind] * n)
    rng.shuffle(deck)
    stock = deck  # top of the stock is the end of the list
    active = _active_seats(R, hand_number)
    n = R.players
    hands = [[0] * N_KINDS for _ in range(n)]
    downs = [[0] * N_KINDS for _ in range(n)]
    order = [(dealer + 1 + i) % n for i in range(n)]
    order = [s for s in order if s in active]
    for _ in range(R.hand_size):
        for s in order:
            hands[s][stock.pop()] += 1
    for _ in range(R.down_size):
        for s in order:
            downs[s][stock.pop()] += 1
    # the upcard; covered while it is of a class the variant covers
    pile = [stock.pop()]
    frozen = pile[0] in R.upcard_freezes
    if pile[0] in R.cover:
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
                hands[s][stock.pop()] += 1
    first = _first_player(R, dealer, active)
    st = GameState(
        variant=R.variant, players=n, seed=seed, hand_number=hand_number, dealer=dealer,
        totals=totals, hands=tuple(tuple(h) for h in hands), down_hands=tuple(tuple(h) for h in downs),
        melds=((),) * R.n_sides, red_threes=tuple(red), opened=(False,) * R.n_sides,
        melded=(False,) * n, stock=tuple(stock), pile=tuple(pile), frozen=frozen,
        current_player=None, phase=Phase.DRAW, turn=_NO_TURN, took_last=(False,) * n,
        last_turns=-1, active=active, precise=precise, rules=R, history=None,
    )
    w = _Work(st)
    _begin_turn(w, first)
    return w.freeze()


def _first_player(R: Rules, dealer: int, active: tuple[int, ...]) -> int:
    n = R.players
    if R.score_keeper:
        # new-canasta: the player left of the down-hand dealer begins; never the score keeper
        s = (_next_dealer(R, dealer) + 1) % n
        if s == n - 1 and n > 1:
            s = 0
        return s
    if dealer in active:
        return active[(active.index(dealer) + 1) % len(active)]
    s = (dealer + 1) % n
    while s not in active:
        s = (s + 1) % n
    return s


def deal_next(st: GameState, precise_draws: Optional[tuple[int, ...]] = None,
              adjustments: Optional[tuple[int, ...]] = None) -> GameState:
    """The next hand of the game, dealt by the next dealer."""
    if st.phase is not Phase.HAND_OVER:
        if st.phase is Phase.GAME_OVER:
            raise ValueError("the game is over: no next hand")
        raise ValueError("the hand is not over yet")
    R: Rules = st._rules
    totals = st.totals
    if adjustments is not None:
        if len(adjustments) != len(totals):
            raise ValueError(f"adjustments: give one number per side ({len(totals)}), not {len(adjustments)}")
        totals = tuple(t + a for t, a in zip(totals, adjustments))
    return _deal(R, st.seed, st.hand_number + 1, _next_dealer(R, st.dealer), totals, precise_draws)


# =============================================================== mutable work copy


class _Work:
    """A mutable copy of the parts of a state that an action changes."""

    __slots__ = ("st", "R", "hands", "downs", "melds", "red", "opened", "melded", "stock", "pile",
                 "frozen", "player", "phase", "turn", "took_last", "last_turns", "result",
                 "totals", "winners", "history")

    def __init__(self, st: GameState) -> None:
        self.st = st
        self.R: Rules = st._rules
        self.hands = list(st.hands)
        self.downs = list(st.down_hands)
        self.melds = list(st.melds)
        self.red = st.red_threes
        self.opened = st.opened
        self.melded = st.melded
        self.stock = st.stock
        self.pile = st.pile
        self.frozen = st.frozen
        self.player = st.current_player
        self.phase = st.phase
        self.turn = st.turn
        self.took_last = st.took_last
        self.last_turns = st.last_turns
        self.result = st.result
        self.totals = st.totals
        self.winners = st.winners
        self.history = st._history

    def freeze(self) -> GameState:
        st = self.st
        return GameState(
            variant=st.variant, players=st.players, seed=st.seed, hand_number=st.hand_number,
            dealer=st.dealer, totals=self.totals, hands=tuple(self.hands), down_hands=tuple(self.downs),
            melds=tuple(self.melds), red_threes=self.red, opened=self.opened, melded=self.melded,
            stock=self.stock, pile=self.pile, frozen=self.frozen, current_player=self.player,
            phase=self.phase, turn=self.turn, took_last=self.took_last, last_turns=self.last_turns,
            active=st.active, precise=st.precise, result=self.result, winners=self.winners, rules=self.R,
            history=self.history,
        )

    def add_hand(self, seat: int, kind: int, n: int = 1) -> None:
        h = list(self.hands[seat])
        h[kind] += n
        self.hands[seat] = tuple(h)

    def set_side_tuple(self, name: str, side: int, value: Any) -> None:
        t = list(getattr(self, name))
        t[side] = value
        setattr(self, name, tuple(t))


def _tuple_set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1:]


# =============================================================== turn flow


def _next_seat(w: _Work, seat: int) -> int:
    active = w.st.active
    return active[(active.index(seat) + 1) % len(active)]


def _draw_cards(w: _Work, seat: int, n: int) -> bool:
    """Draw ``n`` cards, facing and replacing red threes. False if the hand ended."""
    R = w.R
    stock = w.stock
    h = list(w.hands[seat])
    side = R.side_of[seat]
    red = w.red
    drawn = 0
    last_was_r3 = False
    while drawn < n and stock:
        card = stock[-1]
        stock = stock[:-1]
        if card == R3 and not R.keep_r3:
            red = _tuple_set(red, side, red[side] + 1)
            last_was_r3 = True
            continue
        last_was_r3 = False
        h[card] += 1
        drawn += 1
    w.stock = stock
    w.red = red
    w.hands[seat] = tuple(h)
    if not stock and R.last_round and w.last_turns < 0:
        w.last_turns = len(w.st.active)
    if last_was_r3 and not stock:
        # the last card of the stock was a red three
        if R.last_r3 == "end":
            _end_hand(w, None, "the last card of the stock was a red three")
            return False
        w.phase = Phase.FINAL_MELD
        return True
    return True


def _begin_turn(w: _Work, seat: int) -> None:
    R = w.R
    w.player = seat
    w.phase = Phase.DRAW
    side = R.side_of[seat]
    w.turn = Turn(melds_before=len(w.melds[side]), had_melded=w.melded[seat])
    if not R.keep_r3 and w.hands[seat][R3]:
        # hoyle rule 13: at his first turn each player faces his red threes and replaces them
        n = w.hands[seat][R3]
        w.add_hand(seat, R3, -n)
        w.red = _tuple_set(w.red, side, w.red[side] + n)
        if not _draw_cards(w, seat, n):
            return
        if w.phase is Phase.FINAL_MELD:
            return
    if R.last_round and w.last_turns >= 0:
        if w.last_turns == 0:
            _end_hand(w, None, "the stock ran out and every player has had a last turn")
            return
        w.last_turns -= 1
    if not w.stock and not R.last_round:
        # forcing (hoyle rule 35): the hand ends when the player in turn cannot take the pile
        st = w.freeze()
        if not any(isinstance(a, Take) for a in _legal_draw_phase(st)):
            _end_hand(w, None, "the stock is exhausted and the player in turn cannot take the pile")


def _finish_turn(w: _Work) -> None:
    seat = w.player
    assert seat is not None
    # new-canasta: "A player is not allowed to pick up the Deck on 2 consecutive turns"
    w.took_last = _tuple_set(w.took_last, seat, w.turn.took)
    if w.R.down_size and not any(w.hands[seat]) and any(w.downs[seat]):
        # new-canasta: a player who discards his last looking card picks up his down hand
        w.hands[seat] = w.downs[seat]
        w.downs[seat] = (0,) * N_KINDS
    if w.R.last_round and w.last_turns == 0 and not w.stock:
        _end_hand(w, None, "the stock ran out and every player has had a last turn")
        return
    _begin_turn(w, _next_seat(w, seat))


# =============================================================== scoring


def _score_hand(w: _Work, went_out: Optional[int], concealed: bool) -> tuple[HandScore, ...]:
    R = w.R
    vals = R.values
    out = []
    for side in range(R.n_sides):
        items: list[ScoreItem] = []
        melds = w.melds[side]
        nat = mixed = wild = b3c = r3c = 0
        melded_pts = 0
        for m in melds:
            if m.rank == B3:
                melded_pts += m.naturals * vals[B3]
            elif m.rank != WILD_RANK:
                melded_pts += m.naturals * vals[m.rank]
            melded_pts += m.jokers * vals[JK] + m.twos * vals[TWO]
            if R.is_canasta(m):
                if m.rank == B3:
                    b3c += 1
                elif m.rank == WILD_RANK:
                    wild += 1
                elif m.wilds == 0:
                    if m.red_three and R.r3_canasta:
                        r3c += 1
                    else:
                        nat += 1
                else:
                    mixed += 1
        has_meld = bool(melds)
        if R.keep_r3:
            # new-canasta order: top count (canastas), to the bad (hand), to the good (melds)
            if r3c:
                items.append(ScoreItem("red three canastas", r3c, r3c * R.r3_canasta))
            if nat:
                items.append(ScoreItem("natural canastas", nat, nat * R.nat_bonus))
            if mixed:
                items.append(ScoreItem("mixed canastas", mixed, mixed * R.mixed_bonus))
            if wild:
                items.append(ScoreItem("wild canastas", wild, wild * R.wild_bonus))
            if b3c:
                items.append(ScoreItem("black three canastas", b3c, b3c * R.b3_bonus))
            if went_out is not None and R.side_of[went_out] == side:
                items.append(ScoreItem("going out", 1, R.out_bonus))
            precise = sum(1 for s in w.st.precise if R.side_of[s] == side)
            if precise:
                items.append(ScoreItem("precise dealer draw", precise, precise * R.precise_bonus))
            left = 0
            r3_left = 0
            for s in R.members[side]:
                for hand in (w.hands[s], w.downs[s]):
                    left += sum(hand[k] * vals[k] for k in range(N_KINDS))
                    r3_left += hand[R3]
            items.append(ScoreItem("cards left in hand", -1, -left))
            if r3_left:
                items.append(ScoreItem("red threes in hand", r3_left, -r3_left * R.r3_penalty))
            items.append(ScoreItem("melded cards", -1, melded_pts))
        else:
            items.append(ScoreItem("melded cards", -1, melded_pts))
            left = 0
            for s in R.members[side]:
                for hand in (w.hands[s], w.downs[s]):
                    left += sum(hand[k] * vals[k] for k in range(N_KINDS))
            items.append(ScoreItem("cards left in hand", -1, -left))
            if nat:
                items.append(ScoreItem("natural canastas", nat, nat * R.nat_bonus))
            if mixed:
                items.append(ScoreItem("mixed canastas", mixed, mixed * R.mixed_bonus))
            if wild:
                items.append(ScoreItem("wild canastas", wild, wild * R.wild_bonus))
            if b3c:
                items.append(ScoreItem("black three canastas", b3c, b3c * R.b3_bonus))
            n_red = w.red[side]
            if n_red:
                table = R.r3_bonus
                bonus = table[n_red] if n_red < len(table) else table[-1]
                if not has_meld and R.r3_minus:
                    minus = R.r3_minus_table or table
                    bonus = minus[n_red] if n_red < len(minus) else minus[-1]
                    items.append(ScoreItem("red threes (no meld)", n_red, -bonus))
                else:
                    items.append(ScoreItem("red threes", n_red, bonus))
            if went_out is not None and R.side_of[went_out] == side:
                items.append(ScoreItem("going out", 1, R.out_bonus))
                if concealed and R.conc_bonus:
                    items.append(ScoreItem("concealed", 1, R.conc_bonus))
        out.append(HandScore(side, tuple(items)))
    return tuple(out)


def _end_hand(w: _Work, went_out: Optional[int], reason: str) -> None:
    R = w.R
    if not R.keep_r3:
        # red threes still in a hand (a player who never had a turn) belong to the side
        for seat in range(R.players):
            n = w.hands[seat][R3]
            if n:
                w.add_hand(seat, R3, -n)
                side = R.side_of[seat]
                w.red = _tuple_set(w.red, side, w.red[side] + n)
    concealed = False
    bonus_seat = went_out
    if went_out is not None:
        if w.phase is Phase.FINAL_MELD or (R.last_round and not w.stock):
            # hoyle rule 41 / new-canasta: no going-out bonus once the stock is used up
            bonus_seat = None
            reason = "went out after the stock ran out (no going-out bonus)"
        else:
            concealed = _is_concealed(w, went_out)
    scores = _score_hand(w, bonus_seat, concealed)
    w.result = HandResult(went_out=went_out, concealed=concealed, scores=scores, reason=reason)
    w.totals = tuple(t + s.total for t, s in zip(w.totals, scores))
    w.player = None
    w.turn = _NO_TURN
    top = max(w.totals)
    if top >= R.target:
        w.phase = Phase.GAME_OVER
        w.winners = tuple(i for i, t in enumerate(w.totals) if t == top)
    else:
        w.phase = Phase.HAND_OVER


def _is_concealed(w: _Work, seat: int) -> bool:
    """Whether going out now is going out concealed, per the variant's definition."""
    R = w.R
    t = w.turn
    if R.conc_bonus == 0:
        return False
    if R.conc_basis == "side":
        # wikipedia: "makes their team's initial meld and goes out legally in the same turn"
        return t.melds_before == 0
    if t.had_melded:
        return False
    if R.conc_no_partner and t.touched_partner:
        return False
    if R.conc_own and not t.own_canasta:
        return False
    return True


# =============================================================== planner


def _meld_room(R: Rules, m: TableMeld, opening: bool) -> int:
    """Cards (naturals or wilds) that may still be added to ``m`` in size terms."""
    if opening and not R.initial_canasta:
        # new-canasta: "you cannot meld a Canasta ... for an initial meld"
        return max(0, R.cs - 1 - m.size)
    if R.closed:
        return max(0, R.cs - m.size)
    return _BIG


def _add_wild_cap(R: Rules, m: TableMeld, extra_nat: int) -> int:
    """Wild cards that may be added to ``m`` after ``extra_nat`` naturals are added."""
    if m.rank == WILD_RANK:
        return _BIG
    if m.rank == B3:
        return 0
    nat = m.naturals + extra_nat
    cap = R.wild_cap(nat) - m.wilds
    if R.unlimited and nat + R.wild_cap(nat) >= R.cs and nat >= R.cmin_nat:
        return _BIG
    return max(0, cap)


def _greedy(R: Rules, h: tuple[int, ...] | list[int], melds: tuple[TableMeld, ...], opening: bool) -> tuple[int, int]:
    """Most points meldable from ``h`` (ignoring how many cards must stay in hand).

    Returns (points, cards left unmelded). Black threes are never counted here: they are
    melded only when going out.
    """
    vals = R.values
    by_rank: dict[int, list[TableMeld]] = {}
    wild_meld = False
    for m in melds:
        if m.rank == WILD_RANK:
            wild_meld = True
        by_rank.setdefault(m.rank, []).append(m)
    pts = 0
    cap = 0
    left = h[B3] + h[R3]
    pairs: list[int] = []
    small_cap = R.cs - 1 if (opening and not R.initial_canasta) else (R.cs if R.closed else _BIG)
    for r in RANKS:
        n = h[r]
        ms = by_rank.get(r)
        if ms:
            rem = n
            for m in ms:
                room = min(_meld_room(R, m, opening), _BIG)
                take = min(rem, room)
                rem -= take
                cap += min(_add_wild_cap(R, m, take), max(0, room - take))
            pts += (n - rem) * vals[r]
            n = rem
            if not n:
                continue
            if not R.multi:
                left += n
                continue
        if n >= 3 or (n >= R.min_nat and n >= R.min_size):
            pts += n * vals[r]
            if n <= small_cap:
                cap += min(R.wild_cap(n), small_cap - n)
            else:
                a, b = (n + 1) // 2, n // 2
                cap += min(R.wild_cap(a), small_cap - a) + min(R.wild_cap(b), small_cap - b)
        elif n == 2 and R.min_nat <= 2 and R.wild_cap(2) >= 1:
            pairs.append(r)
        else:
            left += n
    wilds = h[JK] + h[TWO]
    pairs.sort(key=lambda r: -vals[r])
    p = min(len(pairs), wilds)
    for r in pairs[:p]:
        pts += 2 * vals[r]
        cap += R.wild_cap(2) - 1
    for r in pairs[p:]:
        left += 2
    rest = wilds - p
    placed = min(rest, cap)
    if R.wild_melds and (wild_meld or rest - placed >= R.min_size):
        placed = rest
    used = p + placed
    jk = min(h[JK], used)
    pts += jk * vals[JK] + (used - jk) * vals[TWO]
    left += wilds - used
    return pts, left


def _reach(R: Rules, h: tuple[int, ...], melds: tuple[TableMeld, ...], need: int, keep: int) -> bool:
    """Can more melds from ``h`` add ``need`` points while ``keep`` cards stay in hand?"""
    if need <= 0:
        return sum(h) >= keep
    return _reach_cached(R, h, melds, need, keep)


def _reach_cached(R: Rules, h: tuple[int, ...], melds: tuple[TableMeld, ...], need: int, keep: int) -> bool:
    pts, left = _greedy(R, h, melds, True)
    if pts < need:
        return False
    if left >= keep:
        return True
    # withhold cards from the best melding, every way, until enough stay in hand
    kinds = [k for k in range(N_KINDS) if h[k]]
    short = keep - left
    hl = list(h)

    def rec(start: int, todo: int) -> bool:
        if todo == 0:
            p2, l2 = _greedy(R, hl, melds, True)
            return p2 >= need and l2 + withheld >= keep
        for i in range(start, len(kinds)):
            k = kinds[i]
            if hl[k]:
                hl[k] -= 1
                ok = rec(i, todo - 1)
                hl[k] += 1
                if ok:
                    return True
        return False

    for withheld in range(short, keep + 1):
        if rec(0, withheld):
            return True
    return False


def _can_go_out(R: Rules, h: tuple[int, ...], melds: tuple[TableMeld, ...], need: int,
                canastas_now: int, allow_discard: bool = True, own_canasta: bool = False) -> bool:
    """Can every card of ``h`` be melded (one may be discarded last) so the side goes out?"""
    return _can_go_out_cached(R, h, melds, need, canastas_now, allow_discard, own_canasta)


def _can_go_out_cached(R: Rules, h: tuple[int, ...], melds: tuple[TableMeld, ...], need: int,
                       canastas_now: int, allow_discard: bool, own_canasta: bool) -> bool:
    # A natural held once, with no open meld of its rank, can only be the last discard:
    # two such cards (or one with no discard allowed) rule going out out at once.
    open_ranks = {m.rank for m in melds if not (R.closed and m.size >= R.cs)}
    orphans = [r for r in RANKS if h[r] == 1 and r not in open_ranks]
    if h[B3] and (R.b3_rule == "never" or (h[B3] < R.b3_min and B3 not in open_ranks)):
        orphans += [B3] * h[B3]
    if h[R3] and not R.keep_r3:
        return False
    if len(orphans) > (1 if allow_discard else 0):
        return False
    choices: list[Optional[int]]
    if orphans:
        choices = [orphans[0]]
    else:
        choices = [None]
        if allow_discard:
            # discarding one of an unmelded natural pair would leave a single that cannot be melded
            choices += [k for k in range(N_KINDS)
                        if h[k] and not (k >= 4 and h[k] == 2 and k not in open_ranks)]
    for d in choices:
        c = list(h)
        if d is not None:
            c[d] -= 1
        if _all_meldable(R, c, melds, need, own_canasta):
            return True
    return False



@lru_cache(maxsize=1 << 12)
def _meld_summary(R: Rules, melds: tuple[TableMeld, ...]) -> tuple[dict[int, tuple[TableMeld, ...]], int, int, bool, int]:
    """Open melds by rank, canastas, red-three slots, a wild-only meld, black threes melded."""
    by_rank: dict[int, list[TableMeld]] = {}
    canastas = red = b3 = 0
    wild = False
    for m in melds:
        if R.is_canasta(m):
            canastas += 1
        if m.rank == B3:
            b3 = m.naturals
            continue
        if m.rank == WILD_RANK:
            wild = True
            continue
        if R.closed and m.size >= R.cs:
            if m.wilds == 0 and not m.red_three:
                red += 1
            continue
        by_rank.setdefault(m.rank, []).append(m)
    return {r: tuple(ms) for r, ms in by_rank.items()}, canastas, red, wild, b3


@lru_cache(maxsize=1 << 16)
def _rank_plan(R: Rules, n: int, ms: tuple[TableMeld, ...], opening: bool
               ) -> Optional[tuple[int, int, int, int, bool, tuple[tuple[int, int], ...]]]:
    """How ``n`` naturals of one rank are all melded, given the side's open melds ``ms`` of it.

    Returns None if they cannot be, else (wild cards needed, wild room, canastas formed,
    red-three slots formed, unlimited wild room, (wilds to complete, room) per near-canasta).
    """
    wmin = wcap = canastas = red = 0
    unlimited = False
    gaps: list[tuple[int, int]] = []
    others = ms
    if n and ms:
        m = ms[0]
        others = ms[1:]
        room_n = _meld_room(R, m, opening)
        put = min(n, room_n)
        rest = n - put
        if rest and (rest < 2 or not R.multi):
            if not R.multi:
                return None
            if put >= 1 and rest == 1:
                # keep a natural back for a new meld of the rest
                put -= 1
                rest += 1
            else:
                return None
        size = m.size + put
        nat = m.naturals + put
        room_w = min(_add_wild_cap(R, m, put), _meld_room(R, m, opening) - put)
        if room_w >= _BIG // 2:
            unlimited = True
        wcap += room_w
        if R.is_canasta(m):
            pass
        elif size >= R.cs and nat >= R.cmin_nat:
            canastas += 1
            if R.closed and m.wilds == 0:
                red += 1
        elif R.cs - size <= room_w and nat >= R.cmin_nat:
            gaps.append((R.cs - size, room_w))
        n = rest
    for m in others:  # melds of the rank that take no naturals: room for wild cards
        room = min(_add_wild_cap(R, m, 0), _meld_room(R, m, opening))
        wcap += room
        if room >= _BIG // 2:
            unlimited = True
        if not R.is_canasta(m) and m.naturals >= R.cmin_nat:
            gap = R.cs - m.size
            if gap <= room:
                gaps.append((gap, room))
    if n:
        # new meld(s) of the rank from the remaining naturals
        limit = R.cs if R.closed else (R.cs - 1 if opening and not R.initial_canasta else _BIG)
        k = max(1, -(-n // limit))
        for i in range(k):
            part = n // k + (1 if i < n % k else 0)
            if part < R.min_nat:
                return None
            need_w = max(0, R.min_size - part)
            cap = min(R.wild_cap(part), limit - part)
            if need_w > cap:
                return None
            wmin += need_w
            wcap += cap - need_w
            if part >= R.cs and part >= R.cmin_nat:
                canastas += 1
                if R.closed:
                    red += 1
                if R.unlimited:
                    unlimited = True
            else:
                gap = R.cs - part - need_w
                room = cap - need_w
                if R.unlimited and part + R.wild_cap(part) >= R.cs and part >= R.cmin_nat:
                    room = _BIG
                if gap <= room and part >= R.cmin_nat:
                    gaps.append((gap, room))
    return wmin, wcap, canastas, red, unlimited, tuple(gaps)


def _all_meldable(R: Rules, c: list[int], melds: tuple[TableMeld, ...], need: int, own_canasta: bool) -> bool:
    """Whether every card of ``c`` can be melded so that the side then has its canastas."""
    open_by_rank, canastas, red_slots, unlimited, b3_melded = _meld_summary(R, melds)
    if not any(c):
        # nothing left to meld: the side goes out with the canastas it has
        return need <= 0 and not own_canasta and canastas >= R.canastas_needed
    vals = R.values
    opening = need > 0
    if opening and sum(c[k] * vals[k] for k in range(N_KINDS)) < need:
        return False
    fresh = 0  # canastas formed by this plan
    if c[B3]:
        if R.b3_rule == "never":
            return False
        total = c[B3] + b3_melded
        if not R.b3_min <= total <= R.b3_max:
            return False
        if total >= R.cs and b3_melded < R.cs:
            canastas += 1
            fresh += 1
    wmin = wcap = 0
    gaps: list[tuple[int, int]] = []
    for r in RANKS:
        n = c[r]
        ms = open_by_rank.get(r, ())
        if not n and not ms:
            continue
        plan = _rank_plan(R, n, ms, opening)
        if plan is None:
            return False
        wmin += plan[0]
        wcap += plan[1]
        canastas += plan[2]
        fresh += plan[2]
        red_slots += plan[3]
        unlimited = unlimited or plan[4]
        gaps.extend(plan[5])
    wilds = c[JK] + c[TWO]
    if wilds < wmin:
        return False
    spare = wilds - wmin
    if canastas < R.canastas_needed or (own_canasta and not fresh):
        gaps.sort()
        for gap, _room in gaps:
            if spare < gap or (canastas >= R.canastas_needed and (fresh or not own_canasta)):
                break
            spare -= gap
            canastas += 1
            fresh += 1
    if canastas and R.unlimited:
        unlimited = True
    leftover_wilds = wilds - wmin
    if leftover_wilds > wcap and not unlimited:
        if not (R.wild_melds and leftover_wilds - wcap >= R.min_size):
            return False
    if canastas < R.canastas_needed:
        return False
    if own_canasta and not fresh:
        return False
    if c[R3]:
        if not R.keep_r3 or c[R3] > red_slots:
            return False
    return True


# =============================================================== legal actions


def _side_canastas(R: Rules, melds: tuple[TableMeld, ...]) -> int:
    return sum(1 for m in melds if R.is_canasta(m))


def _may_go_out(st: GameState) -> bool:
    return st.turn.answer is not False


def _must_go_out(st: GameState) -> bool:
    t = st.turn
    return t.answer is True or t.black_threes or t.must_out


def _opening_need(st: GameState, side: int) -> int:
    """Points still needed for the side's initial meld this turn (0 if opened)."""
    if st.opened[side]:
        return 0
    return max(0, st.variant.initial_need(st.totals[side]) - st.turn.count)


def _waiver(st: GameState, seat: int) -> bool:
    """Whether a concealed going out would waive the initial minimum for this player now."""
    R: Rules = st._rules
    if R.conc_min == "required":
        return False
    if R.conc_min == "waived_if_stock" and st.turn.took:
        return False
    side = R.side_of[seat]
    if R.conc_basis == "player" and st.turn.had_melded:
        return False
    return not st.opened[side]


def legal_actions(st: GameState) -> tuple[Any, ...]:
    """All legal actions of ``st``, in a fixed order."""
    ph = st.phase
    if ph is Phase.DRAW:
        return tuple(_legal_draw_phase(st))
    if ph is Phase.MELD or ph is Phase.FINAL_MELD or ph is Phase.INITIAL_TAKE:
        return tuple(_legal_meld_phase(st))
    if ph is Phase.ANSWER:
        return (Answer(True), Answer(False))
    return ()


def _hand_after_take(st: GameState, seat: int, used: tuple[int, ...], top_to_hand: bool) -> list[int]:
    h = list(st.hands[seat])
    for k in used:
        h[k] -= 1
    R: Rules = st._rules
    for k in st.pile[:-1]:
        if k == R3 and not R.keep_r3:
            continue
        h[k] += 1
    if top_to_hand:
        h[st.pile[-1]] += 1
    return h


def _take_options(st: GameState, seat: int) -> list[tuple[Take, tuple[int, ...]]]:
    """Takes allowed by the pile rules alone: (action, cards from hand)."""
    R: Rules = st._rules
    pile = st.pile
    if not pile or st.turn.no_take:
        return []
    top = pile[-1]
    if top in R.blocked or top < 4:
        return []
    if not R.consecutive and st.took_last[seat]:
        return []
    side = R.side_of[seat]
    frozen = st.frozen or (R.frozen_until_initial and not st.opened[side])
    ways = R.take_frozen if frozen else R.take_unfrozen
    h = st.hands[seat]
    out: list[tuple[Take, tuple[int, ...]]] = []
    melds = st.melds[side]
    same = [i for i, m in enumerate(melds) if m.rank == top]
    if "natural_pair" in ways and h[top] >= 2:
        out.append((Take(top, "pair"), (top, top)))
    if "natural_and_wild" in ways and h[top] >= 1:
        if h[JK]:
            out.append((Take(top, "joker"), (top, JK)))
        if h[TWO]:
            out.append((Take(top, "two"), (top, TWO)))
    if "add_to_meld" in ways and same and st.opened[side]:
        seen = set()
        for n, i in enumerate(same, 1):
            m = melds[i]
            if m in seen:
                continue
            seen.add(m)
            if R.closed and m.size >= R.cs:
                continue
            out.append((Take(top, "onto", n), ()))
    return out


def _take_result_meld(R: Rules, melds: tuple[TableMeld, ...], take: Take, used: tuple[int, ...]) -> tuple[tuple[TableMeld, ...], Optional[int]]:
    """The side's melds after a take that melds its cards; None index if invalid."""
    top = take.rank
    nat = 1 + sum(1 for k in used if k == top)
    jk = sum(1 for k in used if k == JK)
    tw = sum(1 for k in used if k == TWO)
    same = [i for i, m in enumerate(melds) if m.rank == top]
    if take.way == "onto":
        i = same[take.meld - 1]
        m = melds[i]
        nm = TableMeld(m.rank, m.naturals + 1, m.jokers, m.twos, m.red_three)
        if not R.valid(nm):
            return melds, None
        return melds[:i] + (nm,) + melds[i + 1:], i
    if same and not R.multi:
        i = same[0]
        m = melds[i]
        nm = TableMeld(top, m.naturals + nat, m.jokers + jk, m.twos + tw, m.red_three)
        if not R.valid(nm):
            return melds, None
        return melds[:i] + (nm,) + melds[i + 1:], i
    nm = TableMeld(top, nat, jk, tw)
    if not R.valid(nm):
        return melds, None
    return melds + (nm,), len(melds)


def _legal_draw_phase(st: GameState) -> list[Any]:
    R: Rules = st._rules
    seat = st.current_player
    assert seat is not None
    side = R.side_of[seat]
    acts: list[Any] = []
    must = _must_go_out(st)
    may_out = _may_go_out(st)
    has_stock = bool(st.stock)
    if has_stock:
        if not must or _draw_guarantees_out(st, seat):
            acts.append(_DRAW)
    takes = []
    for take, used in _take_options(st, seat):
        if _take_ok(st, seat, take, used, must, may_out):
            takes.append(take)
    if not has_stock and not R.last_round:
        forced = False
        if R.must_take == "any_legal" and takes:
            forced = True
        elif R.must_take == "add_to_meld" and any(_adds_to_meld(st, side, t) for t in takes):
            forced = True
        acts.extend(takes)
        if takes and not forced:
            acts.append(Pass())
        return acts
    acts.extend(takes)
    if not has_stock and R.last_round:
        acts.append(Pass())
    if (R.permission and not st.turn.asked and st.turn.answer is None
            and _able_to_go_out_before_draw(st, seat)):
        acts.append(Ask())
    return acts


def _adds_to_meld(st: GameState, side: int, take: Take) -> bool:
    # hoyle rule 35: compulsory to take the discard "if it is legally possible to add it to a
    # meld"; bicycle: "if it matches a meld on their side and the pack is not frozen". Adding
    # the top card alone to a meld is possible only when the pile is not frozen.
    return take.way == "onto"


def _draw_guarantees_out(st: GameState, seat: int) -> bool:
    R: Rules = st._rules
    if R.draw_n != 1:
        return False
    side = R.side_of[seat]
    melds = st.melds[side]
    need = 0 if _waiver(st, seat) else _opening_need(st, side)
    return _can_go_out(R, st.hands[seat], melds, need, _side_canastas(R, melds), False)


def _able_to_go_out_before_draw(st: GameState, seat: int) -> bool:
    if _draw_guarantees_out(st, seat):
        return True
    for take, used in _take_options(st, seat):
        if _take_ok(st, seat, take, used, True, True):
            return True
    return False


def _take_ok(st: GameState, seat: int, take: Take, used: tuple[int, ...], must: bool, may_out: bool) -> bool:
    """Whether a take leaves the turn completable (and obeys the one-card rule)."""
    R: Rules = st._rules
    side = R.side_of[seat]
    h = st.hands[seat]
    hand_n = sum(h)
    if hand_n == 1 and len(st.pile) == 1:
        if R.one_card == "forbidden":
            return False
        if R.one_card == "unless_forced" and st.stock:
            return False
    opened = st.opened[side]
    if not R.pair_melded and opened:
        h2 = _hand_after_take(st, seat, (), True)
        return _after_ok(st, seat, tuple(h2), st.melds[side], must, may_out, 0)
    melds2, idx = _take_result_meld(R, st.melds[side], take, used)
    if idx is None:
        return False
    if opened:
        h2 = _hand_after_take(st, seat, used, False)
        return _after_ok(st, seat, tuple(h2), melds2, must, may_out, 0)
    # a take for the initial meld: the top card and the cards shown count, the rest of the
    # pile comes into the hand only once the minimum is met (hoyle rule 33)
    if must:
        return False
    if R.undo_take:
        return True
    hl = list(h)
    for k in used:
        hl[k] -= 1
    vals = R.values
    got = vals[take.rank] * (1 + sum(1 for k in used if k == take.rank)) + sum(vals[k] for k in used if k != take.rank)
    need = st.variant.initial_need(st.totals[side]) - st.turn.count - got
    keep = max(0, _keep(st, seat) - _arriving(R, st.pile[:-1]))
    if need <= 0:
        return _after_ok(st, seat, tuple(_hand_after_take(st, seat, used, False)), melds2, must, may_out, 0)
    return _reach(R, tuple(hl), melds2, need, keep) or _concealed_take(st, seat, used, melds2, may_out)


def _concealed_take(st: GameState, seat: int, used: tuple[int, ...], melds2: tuple[TableMeld, ...],
                    may_out: bool) -> bool:
    """hoyle rule 62: a concealed hand "need not have any specific minimum count", so a side
    that has not melded may take the pile below the minimum if the player then goes out
    concealed with it."""
    R: Rules = st._rules
    if not may_out or not _waiver_if_taking(st, seat) or any(st.down_hands[seat]):
        return False
    h2 = tuple(_hand_after_take(st, seat, used, False))
    return _can_go_out(R, h2, melds2, 0, _side_canastas(R, melds2))


def _waiver_if_taking(st: GameState, seat: int) -> bool:
    R: Rules = st._rules
    if R.conc_min != "waived":
        return False
    return not (R.conc_basis == "player" and st.turn.had_melded)


def _arriving(R: Rules, cards: tuple[int, ...]) -> int:
    """Cards of a taken pile that come into the hand (red threes are faced instead)."""
    if R.keep_r3:
        return len(cards)
    return len(cards) - cards.count(R3)


def _plus_pending(R: Rules, h: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    hl = list(h)
    for k in cards:
        if k != R3 or R.keep_r3:
            hl[k] += 1
    return tuple(hl)


def _keep(st: GameState, seat: int) -> int:
    """Cards a player must hold after melding to end the turn without going out."""
    if any(st.down_hands[seat]):
        return 0
    keep: int = st._rules.keep_out
    return keep


def _after_ok(st: GameState, seat: int, h: tuple[int, ...], melds: tuple[TableMeld, ...],
              must: bool, may_out: bool, count_gain: int) -> bool:
    """Whether the turn can be finished from hand ``h`` with side melds ``melds`` (side opened)."""
    R: Rules = st._rules
    n = sum(h)
    down = any(st.down_hands[seat])
    if must:
        return _can_go_out(R, h, melds, 0, _side_canastas(R, melds)) if not down else False
    if down:
        return True
    if n >= 2:
        return True
    if not may_out:
        return False
    final = st.phase is Phase.FINAL_MELD
    if final and n == 1:
        return True
    # n is 0 or 1: going out now, by melding the last card or by discarding it
    canastas = _side_canastas(R, melds)
    if canastas >= R.canastas_needed:
        return True
    return n == 1 and _can_go_out(R, h, melds, 0, canastas, not final)


def _legal_meld_phase(st: GameState) -> list[Any]:
    R: Rules = st._rules
    seat = st.current_player
    assert seat is not None
    side = R.side_of[seat]
    h = st.hands[seat]
    melds = st.melds[side]
    t = st.turn
    opened = st.opened[side]
    final = st.phase is Phase.FINAL_MELD
    initial_take = st.phase is Phase.INITIAL_TAKE
    must = _must_go_out(st)
    may_out = _may_go_out(st)
    vals = R.values
    need_rem = _opening_need(st, side)
    opening = not opened
    acts: list[Any] = []

    def ok(h2: tuple[int, ...], melds2: tuple[TableMeld, ...], gain: int, b3: bool = False) -> bool:
        if initial_take:
            rem = need_rem - gain
            if rem <= 0:
                return _after_ok(st, seat, _plus_pending(R, h2, t.pending), melds2, must, may_out, 0)
            return _reach(R, h2, melds2, rem, max(0, _keep(st, seat) - _arriving(R, t.pending)))
        if opening and need_rem > 0:
            rem = need_rem - gain
            if rem <= 0:
                return _after_ok(st, seat, h2, melds2, must or b3, may_out, gain)
            if not must and not b3 and _reach(R, h2, melds2, rem, _keep(st, seat)):
                return True
            if not may_out or any(st.down_hands[seat]):
                return False
            waive = _waiver(st, seat)
            # a side that has not melded has only this turn's melds, so a canasta it holds
            # at going out is the player's own (hoyle rule 47)
            return _can_go_out(R, h2, melds2, 0 if waive else rem, _side_canastas(R, melds2), not final)
        if b3:
            return may_out and not any(st.down_hands[seat]) and _can_go_out(
                R, h2, melds2, 0, _side_canastas(R, melds2), not final)
        return _after_ok(st, seat, h2, melds2, must, may_out, gain)

    by_rank: dict[int, list[int]] = {}
    for i, m in enumerate(melds):
        by_rank.setdefault(m.rank, []).append(i)
    n_hand = sum(h)
    down = any(st.down_hands[seat])
    if t.black_threes and R.b3_rule == "last_meld":
        # wikipedia: black threes "may only be melded as a players last meld before going out"
        return [R.discards[k] for k in range(N_KINDS) if h[k]] if n_hand == 1 and not final else (
            [Done()] if final else [])
    # fast path: an opened side, no obligation, and cards enough left to discard and keep
    easy = opened and not must and not final and not initial_take
    meld_get = R.meld_acts.get
    add_get = R.add_acts.get
    # new melds
    for r in RANKS:
        n = h[r]
        if n < 2:
            continue
        if r in by_rank and not R.multi:
            continue
        shapes: list[tuple[int, ...]] = []
        if n >= 3:
            shapes.append((r, r, r))
        if R.nn_wild_ok:
            if h[TWO]:
                shapes.append((r, r, TWO))
            if h[JK]:
                shapes.append((r, r, JK))
        for cards in shapes:
            if easy and (n_hand - 3 >= 2 or down):
                acts.append(meld_get(cards) or Meld(cards))
                continue
            h2 = list(h)
            for k in cards:
                h2[k] -= 1
            nm = TableMeld(r, 3 - (cards[2] <= TWO), int(cards[2] == JK), int(cards[2] == TWO))
            if not R.valid(nm):
                continue
            gain = vals[r] * 2 + vals[cards[2]]
            if ok(tuple(h2), melds + (nm,), gain):
                acts.append(meld_get(cards) or Meld(cards))
    # black threes, only when going out
    if R.b3_rule != "never" and h[B3] >= R.b3_min and B3 not in by_rank and not initial_take:
        for size in range(R.b3_min, min(h[B3], R.b3_max) + 1):
            cards = (B3,) * size
            h2 = list(h)
            h2[B3] -= size
            nm = TableMeld(B3, size)
            if ok(tuple(h2), melds + (nm,), vals[B3] * size, True):
                if R.b3_rule != "last_meld" or _b3_last_ok(R, tuple(h2), final):
                    acts.append(meld_get(cards) or Meld(cards))
    # a meld of wild cards only
    if R.wild_melds and WILD_RANK not in by_rank and h[JK] + h[TWO] >= R.min_size:
        for j in range(R.min_size, -1, -1):
            d = R.min_size - j
            if h[JK] >= j and h[TWO] >= d:
                cards = (JK,) * j + (TWO,) * d
                h2 = list(h)
                h2[JK] -= j
                h2[TWO] -= d
                nm = TableMeld(WILD_RANK, 0, j, d)
                if ok(tuple(h2), melds + (nm,), sum(vals[k] for k in cards)):
                    acts.append(Meld(cards))
    # additions to melds
    for r, idxs in by_rank.items():
        seen: set[TableMeld] = set()
        multi = len(idxs) > 1
        for n_i, i in enumerate(idxs, 1):
            m = melds[i]
            if multi:
                if m in seen:
                    continue
                seen.add(m)
            if m.rank == B3:
                if h[B3] and m.naturals < R.b3_max:
                    h2 = list(h)
                    h2[B3] -= 1
                    nm = TableMeld(B3, m.naturals + 1)
                    m2 = melds[:i] + (nm,) + melds[i + 1:]
                    if ok(tuple(h2), m2, vals[B3], True):
                        acts.append(Add(B3, B3, 1))
                continue
            full = R.closed and m.size >= R.cs
            if not full and not (opening and not R.initial_canasta and m.size + 1 >= R.cs):
                cands = []
                if m.rank != WILD_RANK and h[r]:
                    cands.append(r)
                if h[JK] or h[TWO]:
                    room = _add_wild_cap(R, m, 0)
                    if room > 0:
                        if h[JK]:
                            cands.append(JK)
                        if h[TWO]:
                            cands.append(TWO)
                for k in cands:
                    if easy and (n_hand - 1 >= 2 or down):
                        acts.append(add_get((k, m.rank, n_i)) or Add(k, m.rank, n_i))
                        continue
                    nm = TableMeld(m.rank, m.naturals + (k == r), m.jokers + (k == JK), m.twos + (k == TWO),
                                   m.red_three)
                    if not R.valid(nm):
                        continue
                    h2 = list(h)
                    h2[k] -= 1
                    m2 = melds[:i] + (nm,) + melds[i + 1:]
                    if ok(tuple(h2), m2, vals[k]):
                        acts.append(add_get((k, m.rank, n_i)) or Add(k, m.rank, n_i))
            if R.keep_r3 and R.r3_canasta and h[R3] and full and m.wilds == 0 \
                    and not m.red_three and m.rank != WILD_RANK:
                h2 = list(h)
                h2[R3] -= 1
                nm = TableMeld(m.rank, m.naturals, 0, 0, True)
                m2 = melds[:i] + (nm,) + melds[i + 1:]
                if ok(tuple(h2), m2, 0):
                    acts.append(Add(R3, m.rank, n_i))
    # combining two melds of one rank (hoyle rule 30)
    if R.combine and not initial_take:
        for r, idxs in by_rank.items():
            if r in (B3, WILD_RANK) or len(idxs) < 2:
                continue
            pairs_seen: set[tuple[TableMeld, TableMeld]] = set()
            for a in range(len(idxs)):
                for b in range(a + 1, len(idxs)):
                    m1, m2_ = melds[idxs[a]], melds[idxs[b]]
                    if m1.wilds + m2_.wilds > R.max_wild:
                        continue
                    # identical melds make identical combinations: offer one of them
                    key = (m1, m2_) if hash(m1) <= hash(m2_) else (m2_, m1)
                    if key in pairs_seen:
                        continue
                    pairs_seen.add(key)
                    nm = TableMeld(r, m1.naturals + m2_.naturals, m1.jokers + m2_.jokers, m1.twos + m2_.twos)
                    new = tuple(x for j, x in enumerate(melds) if j != idxs[b])
                    new = new[:idxs[a]] + (nm,) + new[idxs[a] + 1:]
                    if ok(h, new, 0):
                        acts.append(Combine(r, a + 1, b + 1))
    if initial_take:
        if R.undo_take and not _reach(R, h, melds, need_rem, max(0, _keep(st, seat) - _arriving(R, t.pending))):
            acts.append(Retract())
        return acts
    # ask after drawing from the stock, before melding (hoyle rule 39)
    if (R.permission and not final and not t.asked and t.answer is None and not t.melded
            and (t.drew or (t.took and R.ask_after_take))):
        need = 0 if _waiver(st, seat) else need_rem
        if _can_go_out(R, h, melds, need, _side_canastas(R, melds), True):
            acts.append(Ask())
    if final:
        acts.append(Done())
        return acts
    # discards
    n = n_hand
    discards = R.discards
    for k in range(N_KINDS):
        if not h[k]:
            continue
        if n == 1 and not down:
            if not may_out:
                continue
            if _side_canastas(R, melds) < R.canastas_needed:
                continue
            if opening and t.count > 0 and need_rem > 0:
                if not _waiver(st, seat) or (R.conc_own and not t.own_canasta):
                    continue
        else:
            if must:
                continue
            if opening and t.count > 0 and need_rem > 0:
                continue
        acts.append(discards[k])
    if not st.stock and R.last_round and not any(isinstance(a, Discard) for a in acts):
        # new-canasta's last round has no draw: a player who may not empty his hand
        # ("must hold at least one card") ends the turn without discarding
        acts.append(Done())
    return acts


def _b3_last_ok(R: Rules, h2: tuple[int, ...], final: bool) -> bool:
    # wikipedia: black threes "may only be melded as a players last meld before going out"
    n = sum(h2)
    return n == 0 or (n == 1 and not final)


# =============================================================== apply


def apply_action(st: GameState, a: Any) -> GameState:
    """The state after the legal action ``a`` (legality is checked by the caller)."""
    w = _Work(st)
    w.history = _Link(a, st._history)
    R = w.R
    seat = st.current_player
    assert seat is not None
    side = R.side_of[seat]
    t = st.turn
    if isinstance(a, Draw):
        w.turn = _evolve(t, drew=True)
        w.phase = Phase.MELD
        _draw_cards(w, seat, R.draw_n)
    elif isinstance(a, Take):
        _apply_take(w, st, seat, side, a)
    elif isinstance(a, Meld):
        _apply_meld(w, st, seat, side, a)
    elif isinstance(a, Add):
        _apply_add(w, st, seat, side, a)
    elif isinstance(a, Combine):
        melds = st.melds[side]
        idxs = [i for i, m in enumerate(melds) if m.rank == a.rank]
        i, j = idxs[a.first - 1], idxs[a.second - 1]
        m1, m2 = melds[i], melds[j]
        nm = TableMeld(a.rank, m1.naturals + m2.naturals, m1.jokers + m2.jokers, m1.twos + m2.twos)
        new = list(melds)
        new[i] = nm
        del new[j]
        w.melds[side] = tuple(new)
        before = t.melds_before
        touched = t.touched_partner or i < before
        if j < before:
            before -= 1
        w.turn = _evolve(t, melds_before=before, touched_partner=touched)
    elif isinstance(a, Discard):
        w.add_hand(seat, a.card, -1)
        w.pile = st.pile + (a.card,)
        if a.card in R.freeze_discard:
            w.frozen = True
        if not any(w.hands[seat]) and not any(st.down_hands[seat]):
            _end_hand(w, seat, "went out")
        else:
            _finish_turn(w)
    elif isinstance(a, Ask):
        w.turn = _evolve(t, asked=True)
        w.phase = Phase.ANSWER
        w.player = _partner(st, seat)
    elif isinstance(a, Answer):
        asker = _asker(st)
        w.player = asker
        w.turn = _evolve(t, answer=a.yes)
        w.phase = Phase.DRAW if not (t.drew or t.took) else Phase.MELD
    elif isinstance(a, Pass):
        if R.last_round:
            w.phase = Phase.MELD
        else:
            _end_hand(w, None, "the stock is exhausted and the player in turn did not take the pile")
    elif isinstance(a, Done):
        if st.phase is Phase.FINAL_MELD:
            _end_hand(w, None, "the last card of the stock was a red three")
        else:
            _finish_turn(w)
    elif isinstance(a, Retract):
        # new-canasta: "he takes the pair back into his hand and returns the third card ...
        # back to the discard pile. The player has not officially discarded, but must draw"
        w.hands[seat] = t.start_hand
        w.melds[side] = st.melds[side][: t.melds_before]
        w.pile = t.pending + (t.pending_top,)
        w.turn = Turn(melds_before=t.melds_before, had_melded=t.had_melded, no_take=True)
        w.phase = Phase.DRAW
        w.melded = _tuple_set(w.melded, seat, t.had_melded)
        w.took_last = _tuple_set(w.took_last, seat, False)
    else:  # pragma: no cover
        raise TypeError(f"not an action: {a!r}")
    if w.phase in (Phase.MELD, Phase.FINAL_MELD) and w.player == seat:
        _check_emptied(w, seat, side)
    return w.freeze()


_TURN_FIELDS = tuple(f.name for f in attrs.fields(Turn))


def _evolve(t: Turn, **kw: Any) -> Turn:
    return Turn(*[kw[f] if f in kw else getattr(t, f) for f in _TURN_FIELDS])


def _partner(st: GameState, seat: int) -> int:
    """The partner asked "may I go out?": the next seat of the side playing this deal."""
    R: Rules = st._rules
    side = R.side_of[seat]
    order = st.active
    i = order.index(seat)
    for k in range(1, len(order)):
        s = order[(i + k) % len(order)]
        if R.side_of[s] == side:
            return s
    return seat


def _asker(st: GameState) -> int:
    """The player who asked "may I go out?" (the partner answering is current)."""
    R: Rules = st._rules
    me = st.current_player
    assert me is not None
    side = R.side_of[me]
    order = st.active
    i = order.index(me)
    for k in range(1, len(order)):
        s = order[(i - k) % len(order)]
        if R.side_of[s] == side:
            return s
    return me


def _apply_take(w: _Work, st: GameState, seat: int, side: int, a: Take) -> None:
    R = w.R
    t = st.turn
    top = st.pile[-1]
    used: tuple[int, ...] = ()
    if a.way == "pair":
        used = (top, top)
    elif a.way == "joker":
        used = (top, JK)
    elif a.way == "two":
        used = (top, TWO)
    w.took_last = _tuple_set(w.took_last, seat, True)
    opened = st.opened[side]
    if not R.pair_melded and opened:
        h = list(st.hands[seat])
        rest = st.pile
        for k in rest:
            if k == R3 and not R.keep_r3:
                w.red = _tuple_set(w.red, side, w.red[side] + 1)
            else:
                h[k] += 1
        w.hands[seat] = tuple(h)
        w.pile = ()
        w.frozen = False
        w.turn = _evolve(t, took=True)
        w.phase = Phase.MELD
        return
    melds2, idx = _take_result_meld(R, st.melds[side], a, used)
    assert idx is not None
    h = list(st.hands[seat])
    for k in used:
        h[k] -= 1
    w.melds[side] = melds2
    w.melded = _tuple_set(w.melded, seat, True)
    vals = R.values
    gain = vals[top] + sum(vals[k] for k in used)
    touched = t.touched_partner or (a.way == "onto" and idx < t.melds_before)
    count = t.count + (0 if opened else gain)
    own = t.own_canasta or (R.is_canasta(melds2[idx]) and idx >= t.melds_before)
    w.turn = _evolve(t, took=True, melded=True, count=count, touched_partner=touched, own_canasta=own,
                     start_hand=st.hands[seat], pending_top=top)
    w.hands[seat] = tuple(h)
    w.pile = ()
    w.frozen = False
    need = 0 if opened else st.variant.initial_need(st.totals[side])
    if opened or count >= need:
        if not opened:
            w.opened = _tuple_set(w.opened, side, True)
        _pick_up(w, seat, side, st.pile[:-1])
        w.phase = Phase.MELD
    elif not R.undo_take and not _reach(R, tuple(h), melds2, need - count,
                                        max(0, _keep(st, seat) - _arriving(R, st.pile[:-1]))):
        # taken for a concealed going out below the minimum: the pile comes up at once
        _pick_up(w, seat, side, st.pile[:-1])
        w.turn = _evolve(w.turn, must_out=True)
        w.phase = Phase.MELD
    else:
        w.turn = _evolve(w.turn, pending=st.pile[:-1])
        w.phase = Phase.INITIAL_TAKE


def _pick_up(w: _Work, seat: int, side: int, cards: tuple[int, ...]) -> None:
    R = w.R
    h = list(w.hands[seat])
    for k in cards:
        if k == R3 and not R.keep_r3:
            # a red three taken in the pile is faced but not replaced (hoyle rule 14)
            w.red = _tuple_set(w.red, side, w.red[side] + 1)
        else:
            h[k] += 1
    w.hands[seat] = tuple(h)


def _gain_turn(w: _Work, st: GameState, side: int, gain: int, melds2: tuple[TableMeld, ...], idx: int,
               touched: bool) -> None:
    R = w.R
    t = w.turn
    seat = st.current_player
    assert seat is not None  # only a legal action is applied: someone is to act
    opened = st.opened[side]
    count = t.count + (0 if opened else gain)
    own = t.own_canasta or (R.is_canasta(melds2[idx]) and idx >= t.melds_before)
    w.turn = _evolve(t, melded=True, count=count, touched_partner=t.touched_partner or touched, own_canasta=own)
    w.melds[side] = melds2
    w.melded = _tuple_set(w.melded, seat, True)
    if not opened and count >= st.variant.initial_need(st.totals[side]):
        w.opened = _tuple_set(w.opened, side, True)
        if st.phase is Phase.INITIAL_TAKE:
            pending = w.turn.pending
            w.turn = _evolve(w.turn, pending=())
            _pick_up(w, seat, side, pending)
            w.phase = Phase.MELD


def _apply_meld(w: _Work, st: GameState, seat: int, side: int, a: Meld) -> None:
    R = w.R
    h = list(st.hands[seat])
    for k in a.cards:
        h[k] -= 1
    w.hands[seat] = tuple(h)
    r = a.rank
    nat = sum(1 for k in a.cards if k > TWO)
    nm = TableMeld(r, nat, sum(1 for k in a.cards if k == JK), sum(1 for k in a.cards if k == TWO))
    melds2 = st.melds[side] + (nm,)
    gain = sum(R.values[k] for k in a.cards)
    _gain_turn(w, st, side, gain, melds2, len(melds2) - 1, False)
    if r == B3:
        w.turn = _evolve(w.turn, black_threes=True)


def _apply_add(w: _Work, st: GameState, seat: int, side: int, a: Add) -> None:
    R = w.R
    w.add_hand(seat, a.card, -1)
    melds = st.melds[side]
    idxs = [i for i, m in enumerate(melds) if m.rank == a.rank]
    i = idxs[a.meld - 1]
    m = melds[i]
    if a.card == R3:
        nm = TableMeld(m.rank, m.naturals, m.jokers, m.twos, True)
    else:
        nm = TableMeld(m.rank, m.naturals + (a.card == m.rank or a.card == B3), m.jokers + (a.card == JK),
                       m.twos + (a.card == TWO), m.red_three)
    melds2 = melds[:i] + (nm,) + melds[i + 1:]
    gain = 0 if a.card == R3 else R.values[a.card]
    _gain_turn(w, st, side, gain, melds2, i, i < st.turn.melds_before)
    if a.rank == B3:
        w.turn = _evolve(w.turn, black_threes=True)


def _check_emptied(w: _Work, seat: int, side: int) -> None:
    """A hand emptied by melding: the down hand comes up, or the player has gone out."""
    if any(w.hands[seat]):
        return
    if any(w.downs[seat]):
        w.hands[seat] = w.downs[seat]
        w.downs[seat] = (0,) * N_KINDS
        return
    if w.phase is Phase.INITIAL_TAKE:
        return
    _end_hand(w, seat, "went out")


# =============================================================== explanations


def explain(st: GameState, a: Any) -> str:
    """Why ``a`` is not legal in ``st``, in a player's words."""
    from ._explain import explain as _ex

    return _ex(st, a)
