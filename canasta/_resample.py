"""Information sets: states consistent with what one player has observed.

A search bot for an imperfect-information game does not know where the hidden cards are; it
*determinizes*: it samples a complete state that agrees with everything it has seen, plays on
in it, and averages over many samples. :meth:`GameState.resample` samples such a state from a
full state (for experiments that hold the truth), :func:`sample_state` from an
:class:`Observation` alone (what a bot under the :class:`Bot` protocol receives).

What a seat has observed
========================

The seat's :class:`Observation` (see :func:`observation`) is what it may know: its own hand,
the size of every hand, down hand and the stock, the table (melds, red threes faced), the
turn, the result, and the hand's public history. A sampled state keeps all of that exactly,
and also what the seat saw that the observation does not list, read from the history with
perfect recall:

* **The pile is public.** The dealt upcard and every card turned onto it (hoyle-1950 rule 13:
  a wild or red-three upcard "must immediately be covered by another card", face up) and every
  discard since were seen by the whole table, so every card of the pile is kept in its place,
  and so is a pile set aside for an initial meld (``Turn.pending``). ``sample_state`` cannot
  read the dealt cards from an observation (it records only discards); it keeps the pile's top
  and the discards the history shows, and samples the cards dealt under them, unless the
  caller passes them as ``upcards``.
* **Cards seen taken from the pile stay in the hand that took them** until they are seen to
  leave it: a player who took a pile holds the cards under its top (all of it, where the top is
  not melded), less the cards that hand has since melded, added or discarded of each kind (a
  card of a kind the player also held unseen might be either; the sample keeps the fewest he
  must still hold). A take that is retracted returns them to the pile. Red threes that come up
  with a pile are faced where the variant faces them, as in play.
* **Red threes** (variants that do not keep them in hand): a hidden red three is never placed
  in the hand of a player whose turn has begun this hand, who would have faced it, nor in any
  hand where red threes are faced at the deal or once the hand is over.

**Suits** (variants with sequences, as Samba: the hands, stock and pile hold card codes, see
:class:`Observation`): every card above is kept with its suit. The suits of the naturals in
groups on the table come from the history (the cards melded, added and shown to take the
pile, and the pile's top card taken); where the history does not tell them (it does not reach
back to the deal, or a take's top card was never seen with its suit) they are drawn among the
unseen cards of that rank. A sequence's cards are known from the meld itself.

Everything else is **unseen** and is shuffled uniformly: the rest of each other player's hand,
every down hand (new-canasta's down hands are unseen even by their owners), and the stock's
cards and order. What players' choices suggest about their hands (a pile not taken, a card not
discarded) is not used: a sample is uniform among the placements the observation allows.

A sampled state has the same public fields as the state it stands for (so the seat's
observation is unchanged, and when the seat is to act its legal actions are unchanged),
holds every card of the deck exactly once, and plays on like any state. Its hand result, once
the hand is over, is the one observed; the cards are resampled all the same.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Optional, Sequence, Union

import attrs

from . import _core
from ._actions import Action, Add, Answer, Discard, Done, Meld, Retract, Take
from ._cards import KIND_OF, N_CODES, N_KINDS, WILD_RANK, Card
from ._core._rules import SEQ
from ._errors import ArgumentError, integer, show
from ._state import GameState, Phase, Turn, _from_fields, _replace

if TYPE_CHECKING:
    from ._observation import Observation
    from ._variant import Variant

__all__ = ["resample", "sample_state"]

R3 = int(Card.RED_THREE)
B3 = int(Card.BLACK_THREE)
JK = int(Card.JOKER)
TWO = int(Card.TWO)
_USED = {"joker": JK, "two": TWO}

# places a hidden card can be dealt to
_HAND, _DOWN, _STOCK, _PILE, _PENDING = range(5)


class Knowledge:
    """(private) What one seat knows of where the cards are, read from its observation.

    ``known[s]`` is the least each other hand must hold of each kind (cards seen taken from
    the pile); ``pile`` and ``pending`` list the cards of the pile and of a pile set aside,
    bottom first, ``None`` for a card not seen; ``red_ok[s]`` says whether seat ``s``'s hand
    may hold a hidden red three; ``taker_left`` counts the cards the player who took the pile
    this turn (``taker``, -1: none or unknown) has since played from his hand (the take's own
    cards included), per kind.

    In a variant with suits every list is per card code (59 entries, the per-kind entries 4-14
    left at 0: a natural is counted only under its suited code), and ``groups`` counts the
    suited naturals the history shows in the table's groups (None: not read, none known).
    """

    __slots__ = ("seat", "known", "pile", "pending", "red_ok", "taker", "taker_left", "groups")

    def __init__(self, seat: int, known: list[list[int]], pile: list[Optional[int]],
                 pending: Optional[list[Optional[int]]], red_ok: list[bool], taker: int,
                 taker_left: list[int], groups: Optional[list[int]] = None) -> None:
        self.groups = groups
        self.seat = seat
        self.taker = taker
        self.known = known
        self.pile = pile
        self.pending = pending
        self.red_ok = red_ok
        self.taker_left = taker_left


def _complete(obs: Observation) -> bool:
    """Whether the observation's history reaches back to the deal (counts known)."""
    return all(ev.stock_cards is not None and ev.seat is not None for ev in obs.history)


def _drop(hand: list[int], kind: int) -> None:
    if hand[kind] > 0:
        hand[kind] -= 1


def knowledge(obs: Observation, R: _core.Rules, upcards: Optional[Sequence[int]] = None,
              pile_seen: Optional[Sequence[int]] = None,
              pending_seen: Optional[Sequence[int]] = None) -> Knowledge:
    """(private) What ``obs.seat`` knows, from its observation.

    ``upcards``: the cards dealt to the pile (bottom first), when known. ``pile_seen`` and
    ``pending_seen``: the whole pile and pile set aside, to keep as they are when the history
    does not reach back to the deal (a position loaded mid-hand, or a fresh deal).
    """
    players = obs.players
    seat = obs.seat
    keep = R.keep_r3
    suited = R.suited
    n_codes = R.hand_len
    known = [[0] * n_codes for _ in range(players)]
    taker_left = [0] * n_codes
    groups: Optional[list[int]] = [0] * n_codes if suited else None
    pile: list[Optional[int]]
    pending: Optional[list[Optional[int]]] = None
    begun: set[int] = set()
    taker = -1
    history = obs.history
    if _complete(obs) and pile_seen is None:
        side_of = obs.side_of
        has_meld = [False] * len(obs.totals)
        seen_pile: list[int] = list(upcards) if upcards is not None else []
        dealt_below = upcards is None  # unseen dealt cards lie under ``seen_pile``
        snap: Optional[tuple[int, list[int], list[int], bool, bool, Optional[list[int]]]] = None
        take_rest: list[int] = []
        last_taker = -1
        for ev in history:
            s = ev.seat
            assert s is not None
            a: Action = ev.action
            if not isinstance(a, Answer):
                begun.add(s)
            if isinstance(a, Discard):
                _drop(known[s], a.card)
                seen_pile.append(a.card)
                taker = -1
            elif isinstance(a, Meld):
                for k in a.cards:
                    _drop(known[s], k)
                    if s == taker:
                        taker_left[k] += 1
                if groups is not None and len({KIND_OF[k] for k in a.cards if k >= N_KINDS}) == 1:
                    for k in a.cards:  # a group's naturals, with their suits (not a sequence)
                        if k >= N_KINDS:
                            groups[k] += 1
                has_meld[side_of[s]] = True
            elif isinstance(a, Add):
                _drop(known[s], a.card)
                if s == taker:
                    taker_left[a.card] += 1
                if groups is not None and a.card >= N_KINDS and a.rank < SEQ:
                    groups[a.card] += 1
            elif isinstance(a, Take):
                side = side_of[s]
                snap = (s, list(known[s]), list(seen_pile), dealt_below, has_meld[side],
                        None if groups is None else list(groups))
                top = a.rank
                if suited:  # the top card's code, if it was seen (-1: dealt, unseen)
                    top = seen_pile[-1] if seen_pile else -1
                left: list[int] = []
                if R.take_top and len(seen_pile) > R.take_top:
                    # hand-and-foot 3.2: only the top cards come; the rest of the pile stays
                    left = seen_pile[:-R.take_top]
                    seen_pile = seen_pile[-R.take_top:]
                if seen_pile:
                    rest = seen_pile[:-1]
                else:  # the whole pile was dealt: only its top was seen
                    rest = []
                taker_left = [0] * n_codes
                taker = last_taker = s
                if R.pair_melded or not has_meld[side]:
                    # the top card and the cards shown are melded; the rest comes up
                    if suited:
                        used = tuple(a.cards)
                        if groups is not None and a.rank < SEQ:
                            for k in used + (top,):
                                if k >= N_KINDS:
                                    groups[k] += 1
                    else:
                        used = (top, top) if a.way == "pair" else ((top, _USED[a.way]) if a.way in _USED else ())
                    for k in used:
                        _drop(known[s], k)
                        taker_left[k] += 1
                    has_meld[side] = True
                    arriving = rest
                else:  # new-canasta, a side that has melded: the whole pile comes up
                    arriving = rest + ([top] if top >= 0 else [])
                for k in arriving:
                    if k not in R.from_pile_aside:
                        known[s][k] += 1
                take_rest = rest
                if left or (R.take_top and dealt_below):
                    seen_pile = left  # cards of the pile below the ones taken stay
                else:
                    seen_pile = []
                    dealt_below = False
            elif isinstance(a, Retract):
                if snap is not None:
                    s0, hand0, pile0, below0, melded0, groups0 = snap
                    known[s0] = hand0
                    groups = groups0
                    seen_pile = pile0
                    dealt_below = below0
                    has_meld[side_of[s0]] = melded0
                    snap = None
                taker = -1
            else:  # draw, combine, ask, answer, pass, done
                if isinstance(a, Done):
                    taker = -1
        n = obs.pile_size
        if len(seen_pile) > n or (seen_pile and seen_pile[-1] != obs.pile_top):
            raise ValueError("observation: its history does not match its pile "
                             f"({len(seen_pile)} cards seen go onto a pile of {n})")
        if not dealt_below and len(seen_pile) != n:
            raise ValueError(f"observation: its history gives a pile of {len(seen_pile)} cards, not {n}")
        pile = [None] * (n - len(seen_pile)) + list(seen_pile)
        if n and pile[-1] is None:
            pile[-1] = obs.pile_top  # the top card is always seen
        if obs.turn.pending_size or obs.phase is Phase.INITIAL_TAKE:
            size = obs.turn.pending_size
            if last_taker < 0 or len(take_rest) > size:
                raise ValueError("observation: a pile set aside that its history does not explain")
            pending = [None] * (size - len(take_rest)) + list(take_rest)
            for k in take_rest:  # set aside: not in the taker's hand yet
                if k not in R.from_pile_aside:
                    _drop(known[last_taker], k)
    else:
        n = obs.pile_size
        if pile_seen is not None:
            pile = list(pile_seen)
        else:
            pile = [None] * n
            if n:
                pile[-1] = obs.pile_top
        if obs.turn.pending_size or obs.phase is Phase.INITIAL_TAKE:
            if pending_seen is not None:
                pending = list(pending_seen)
            else:
                pending = [None] * obs.turn.pending_size
        for ev in history:
            if ev.seat is not None and not isinstance(ev.action, Answer):
                begun.add(ev.seat)
    cur = obs.current_player
    if cur is not None and obs.phase is not Phase.ANSWER:
        begun.add(cur)
    over = obs.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    if keep:
        red_ok = [True] * players
    elif R.r3_at_deal or over:
        red_ok = [False] * players
    else:
        red_ok = [s not in begun for s in range(players)]
    known[seat] = _codes(obs.hand) if suited else list(obs.hand)
    return Knowledge(seat, known, pile, pending, red_ok, taker, taker_left, groups)


def _codes(hand: Sequence[int]) -> list[int]:
    """A suited hand's counts per card code only (the per-kind totals 4-14 set to 0)."""
    out = list(hand)
    out[4:N_KINDS] = [0] * (N_KINDS - 4)
    return out


def _full(codes: Sequence[int]) -> list[int]:
    """A suited hand of 59 counts from counts per card code: the per-kind totals filled in."""
    out = list(codes)
    for k in range(N_KINDS, N_CODES):
        out[KIND_OF[k]] += codes[k]
    return out


def _table_counts(obs: Observation, n: int = N_KINDS) -> list[int]:
    """Cards on the table per kind: melds (with red-three toppings), faced red threes and
    black threes set aside (cuban). With ``n = 59`` (suits): a sequence's cards per code, a
    group's naturals under their kind (4-14), their suits being another matter."""
    have = [0] * n
    for side in obs.melds:
        for m in side:
            if m.rank >= SEQ:
                low = getattr(m, "low", 0)
                for r in range(low, low + m.naturals):
                    have[4 * r - 1 + m.rank - SEQ] += 1
            elif m.rank != WILD_RANK:
                have[m.rank] += m.naturals
            have[JK] += m.jokers
            have[TWO] += m.twos
            have[R3] += int(m.red_three)
    have[R3] += sum(obs.red_threes)
    have[B3] += sum(obs.black_threes_aside)
    return have


def fill(obs: Observation, R: _core.Rules, know: Knowledge, rng: Optional[random.Random]
         ) -> tuple[list[list[int]], list[list[int]], list[int], list[int], Optional[list[int]]]:
    """(private) Deal the unseen cards: hands, down hands, stock (top last), pile, pending.
    Uniformly at random with ``rng``; in a fixed order without (any placement will do)."""
    players = obs.players
    seat = know.seat
    n = R.hand_len
    pool = list(R.deck_codes)
    table = _table_counts(obs, n)
    for k in range(n):
        pool[k] -= table[k]
    for s in range(players):
        for k in range(n):
            pool[k] -= know.known[s][k]
    for seen in know.pile:
        if seen is not None:
            pool[seen] -= 1
    if know.pending is not None:
        for seen in know.pending:
            if seen is not None:
                pool[seen] -= 1
    # the unseen places, in a fixed order
    places: list[tuple[int, int]] = []
    for s in range(players):
        free = obs.hand_sizes[s] - sum(know.known[s]) if s != seat else 0
        if free < 0:
            raise ValueError(f"observation: seat {s} is known to hold {sum(know.known[s])} cards, "
                             f"more than the {obs.hand_sizes[s]} in its hand")
        places += [(_HAND, s)] * free
    for s in range(players):
        places += [(_DOWN, s)] * obs.down_hand_sizes[s]
    places += [(_STOCK, i) for i in range(obs.stock_size)]
    places += [(_PILE, i) for i, k in enumerate(know.pile) if k is None]
    if know.pending is not None:
        places += [(_PENDING, i) for i, k in enumerate(know.pending) if k is None]
    if R.suited:
        _group_suits(pool, know.groups, rng)
    if min(pool) < 0 or sum(pool) != len(places):
        raise ValueError(f"observation: the cards it shows do not fit the deck "
                         f"({sum(pool)} unseen cards for {len(places)} unseen places)")
    cards: list[int] = [-1] * len(places)
    reds = 0 if R.keep_r3 else pool[R3]
    if reds:
        ok = [i for i, (where, s) in enumerate(places) if where != _HAND or know.red_ok[s]]
        if reds > len(ok):
            raise ValueError(f"observation: {reds} hidden red threes and only {len(ok)} places "
                             "where a red three can be hidden")
        for i in (rng.sample(ok, reds) if rng is not None else ok[-reds:]):
            cards[i] = R3
        pool[R3] = 0
    rest = [k for k in range(n) for _ in range(pool[k])]
    if rng is not None:
        rng.shuffle(rest)
    it = iter(rest)
    for i in range(len(cards)):
        if cards[i] < 0:
            cards[i] = next(it)
    hands = [list(h) for h in know.known]
    downs = [[0] * n for _ in range(players)]
    stock = [0] * obs.stock_size
    pile = list(know.pile)
    pending = list(know.pending) if know.pending is not None else None
    for (where, i), k in zip(places, cards):
        if where == _HAND:
            hands[i][k] += 1
        elif where == _DOWN:
            downs[i][k] += 1
        elif where == _STOCK:
            stock[i] = k
        elif where == _PILE:
            pile[i] = k
        else:
            assert pending is not None
            pending[i] = k
    out_pile = [k for k in pile if k is not None]
    out_pending = None if pending is None else [k for k in pending if k is not None]
    if R.suited:
        hands = [_full(h) for h in hands]
        downs = [_full(h) for h in downs]
    return hands, downs, stock, out_pile, out_pending


def _group_suits(pool: list[int], groups: Optional[list[int]], rng: Optional[random.Random]) -> None:
    """(suits) Take the naturals in the table's groups out of ``pool`` (counts per code, the
    groups' naturals still counted under their kinds 4-14 as taken): those the history shows
    by their codes, the rest drawn among the unseen cards of their rank (uniformly with
    ``rng``; without, from the lowest suit)."""
    for k in range(4, N_KINDS):
        missing = -pool[k]  # the groups' naturals of rank k
        pool[k] = 0
        codes = range(4 * k - 1, 4 * k + 3)
        if groups is not None:
            for c in codes:
                seen = min(groups[c], missing)
                pool[c] -= seen
                missing -= seen
        if missing <= 0:
            continue
        cards = [c for c in codes for _ in range(max(pool[c], 0))]
        if missing > len(cards):
            raise ValueError(f"observation: the groups hold more naturals of rank {k} than the deck has")
        for c in (rng.sample(cards, missing) if rng is not None else cards[:missing]):
            pool[c] -= 1


def _check_rng(rng: object) -> random.Random:
    if not isinstance(rng, random.Random):
        raise ArgumentError("rng", f"expected a random.Random, not {show(rng)}")
    return rng


def _dealt_pile(state: GameState) -> Optional[tuple[int, ...]]:
    """The cards dealt to the pile this hand (turned face up for all to see), or None."""
    totals = state.totals
    res = state.result
    if res is not None:
        totals = tuple(t - s.total for t, s in zip(totals, res.scores))
    try:
        c = _core.deal(state._rules, state.seed, state.hand_number, state.dealer, totals, state.precise)
    except ValueError:  # pragma: no cover - a state that no deal of its game gives
        return None
    return _core.pile_cards(c)


def resample(state: GameState, player: int, rng: random.Random) -> GameState:
    """A state consistent with everything ``player`` has observed in ``state``.

    See :meth:`GameState.resample`.
    """
    from ._observation import observation

    _check_rng(rng)
    obs = observation(state, player)  # checks the seat
    R = state._rules
    if obs.history and _complete(obs):
        know = knowledge(obs, R, upcards=_dealt_pile(state))
    else:
        know = knowledge(obs, R, pile_seen=state.pile, pending_seen=state.turn.pending)
    hands, downs, stock, pile, pending = fill(obs, R, know, rng)
    turn = state.turn
    if pending is not None:
        turn = attrs.evolve(turn, pending=tuple(pending))
    cur = state._c.player
    if state.phase is Phase.ANSWER:
        cur = _core._apply.asker(state._c, cur)
    if turn.start_hand and cur >= 0:
        # the hand before the take: the same cards played since, from the new hand
        old = state.hands[cur]
        turn = attrs.evolve(turn, start_hand=tuple(
            max(0, h + b - a) for h, b, a in zip(hands[cur], turn.start_hand, old)))
    return _replace(state, hands=tuple(tuple(h) for h in hands), down_hands=tuple(tuple(h) for h in downs),
                    stock=tuple(stock), pile=tuple(pile), turn=turn)


def sample_state(observation: Observation, rng: random.Random, variant: Union[Variant, str, None] = None,
                 upcards: Optional[Sequence[int]] = None) -> GameState:
    """A complete state consistent with ``observation``, the hidden cards sampled with ``rng``.

    What a bot receives under the :class:`Bot` protocol is an observation, never the state; a
    searching bot *determinizes* with this function: it samples states that agree with
    everything it has seen and plays on in them. The sampled state has the observation's
    public fields, the observing seat's hand, and the cards the history shows in place (see
    :meth:`GameState.resample` for what is kept); the other cards are shuffled uniformly among
    the unseen places. Its ``seed`` (which deals later hands) is drawn from ``rng`` and its
    ``history`` is the observation's actions.

    ``variant``: the variant played (a :class:`Variant` or a bundled name); by default the
    one the observation names, which must then be a bundled variant or one already played in
    this process. ``upcards``: the cards dealt to the pile this hand, bottom first (card
    codes in a variant with suits), if the caller saw them (an observation records only the top card and the discards); without
    them, dealt cards still in the pile under discards are sampled too. The result is the same
    for the same observation and the same state of ``rng``.

    Raises :class:`ArgumentError` (a ``ValueError`` and a ``TypeError``) for an observation
    that no deal of the variant can give (a hand-built one, say), for ``rng`` not a
    ``random.Random`` and for bad ``upcards``.
    """
    from ._observation import Observation
    from ._variant import VariantError

    if not isinstance(observation, Observation):
        raise ArgumentError("observation", f"expected an Observation, not {show(observation)}")
    if upcards is not None:
        if isinstance(upcards, (str, bytes)) or not isinstance(upcards, Sequence):
            raise ArgumentError("upcards", f"expected a sequence of card kinds, not {show(upcards)}")
        if observation.suited:  # card codes: a natural with its suit (15-58), or 0-3
            upcards = [integer(k, "upcards", 0, N_CODES - 1) for k in upcards]
            bare = [k for k in upcards if 4 <= k < N_KINDS]
            if bare:
                raise ArgumentError("upcards", f"{bare[0]} is a card kind without a suit: in a variant with "
                                    "sequences a natural card is its suited code (15-58, a SuitedCard)")
        else:
            upcards = [integer(k, "upcards", 0, N_KINDS - 1) for k in upcards]
    try:
        return _sample(observation, rng, variant, upcards, True)
    except (ArgumentError, VariantError):
        raise
    except (ValueError, TypeError, IndexError, KeyError, AttributeError) as e:
        # (an Observation is a plain value anyone can build: one no deal gives fails somewhere)
        msg = str(e).removeprefix("observation: ")
        raise ArgumentError("observation", f"no deal of the variant gives this observation: {msg}") from e


def _sample(obs: Observation, rng: Optional[random.Random], variant: Union[Variant, str, None],
            upcards: Optional[Sequence[int]], with_history: bool,
            know: Optional[Knowledge] = None, R: Optional[_core.Rules] = None) -> GameState:
    """:func:`sample_state`; ``with_history=False`` leaves the history out (a search's
    rollouts never read it), ``know`` and ``R`` reuse an earlier reading of the observation.
    ``rng=None`` places the unseen cards in a fixed order (seed 0): a state to plan the
    observing player's own cards in, where the others do not matter."""
    if rng is not None:
        _check_rng(rng)
    if R is None:
        R = _core.rules_for(resolve_variant(obs.variant, obs.players, variant), obs.players)
    if know is None:
        know = knowledge(obs, R, upcards=upcards)
    hands, downs, stock, pile, pending = fill(obs, R, know, rng)
    t = obs.turn
    start: tuple[int, ...] = ()
    cur = know.taker
    if cur < 0 and obs.phase is not Phase.ANSWER and obs.current_player is not None:
        cur = obs.current_player
    if t.took and cur >= 0:
        # the hand before the take: the cards played from it since come back (exact while
        # the pile is set aside; later the taken cards are in the hand too, and it is unused)
        left = _full(know.taker_left) if R.suited else know.taker_left
        start = tuple(h + x for h, x in zip(hands[cur], left))
    turn = Turn(drew=t.drew, took=t.took, count=t.count, pending=tuple(pending or ()),
                pending_top=t.pending_top, asked=t.asked, answer=t.answer, melded=t.melded,
                black_threes=t.black_threes, must_out=t.must_out, touched_partner=t.touched_partner,
                own_canasta=t.own_canasta, melds_before=t.melds_before, had_melded=t.had_melded,
                no_take=t.no_take, natural_meld=t.natural_meld, start_hand=start)
    history = tuple(ev.action for ev in obs.history) if with_history else ()
    seats = tuple(-1 if ev.seat is None else ev.seat for ev in obs.history) if with_history else ()
    return _from_fields(
        R.variant, obs.players, rng.getrandbits(32) if rng is not None else 0, obs.hand_number, obs.dealer, obs.totals,
        tuple(tuple(h) for h in hands), tuple(tuple(h) for h in downs), obs.melds, obs.red_threes,
        obs.opened, obs.melded, tuple(stock), tuple(pile), obs.frozen, obs.current_player, obs.phase,
        turn, obs.took_last, obs.last_turns, obs.active, obs.precise, obs.result, obs.winners,
        history, rules=R, history_seats=seats, black_threes_aside=obs.black_threes_aside)


def resolve_variant(name: str, players: int, variant: Union[Variant, str, None] = None) -> Variant:
    """(private) The variant an observation names: ``variant`` if given (a name is loaded),
    else one of that name already compiled for ``players`` in this process, else the bundled
    one. Raises ``ValueError`` naming the variant when there is none."""
    from ._variant import Variant, load_variant, variant_names

    if isinstance(variant, Variant):
        if variant.name != name:
            raise ArgumentError("variant", f"the observation is of {name!r}, not {variant.name!r}")
        return variant
    if isinstance(variant, str):
        return load_variant(variant)
    if variant is not None:
        raise ArgumentError("variant", f"expected a Variant, a name or None, not {show(variant)}")
    for key, (v, _) in list(_core._rules._RULES.items()):
        if v.name == name and key[1] == players:
            return v
    if name in variant_names():
        return load_variant(name)
    raise ArgumentError("variant", f"{name!r} is not a bundled variant and has not been played in this "
                        "process; pass the Variant")

