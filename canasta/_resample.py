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
* **What the turn says of a hand**: "may I go out?" is offered only to a player who can go out
  (hoyle-1950 rule 39; the engine never leaves a turn without a legal action), so while his
  partner is asked, the asker's sampled hand lets him ask; and a player who must go out this
  turn (the answer was yes, black threes melded, a pile taken to go out concealed) is dealt a
  hand he can go out with. Such samples are drawn by rejection (uniform among the placements
  that agree), at most :data:`MAX_TRIES` draws an answer.

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

Built on the states (``_state``), observing a state (``_observe``) and the public-history
reading (``_knowledge``); fills :meth:`GameState.resample`'s slot. The bots and searches are
built on it. Where the state (or the sample) runs on the native core and ``rng`` is a plain
``random.Random``, the unseen cards are dealt natively (``native/src/resample.rs``, see
:class:`NativeSampler`): the same samples, and the generator left in the same state, as here.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

import attrs

from . import _core, _state
from ._core import _backend
from ._cards import KIND_OF, N_CODES, N_KINDS, WILD_RANK, Card
from ._core._rules import SEQ
from ._errors import ArgumentError, integer, show
from ._core._kernel import F_MUST as _F_MUST
from ._core._kernel import PH_ANSWER as _PH_ANSWER
from ._core._kernel import PH_MELD as _PH_MELD
from ._core._draw import ask_first_problem as _ask_first
from ._core._discard import ask_after_problem as _ask_after
from ._fields import Phase, Turn
from ._knowledge import Knowledge, _complete, knowledge
from ._state import GameState, _from_fields, _replace

if TYPE_CHECKING:
    from ._observation import Observation
    from ._variant import Variant

__all__ = ["resample", "sample_state"]

R3 = int(Card.RED_THREE)
B3 = int(Card.BLACK_THREE)
JK = int(Card.JOKER)
TWO = int(Card.TWO)

# places a hidden card can be dealt to
_HAND, _DOWN, _STOCK, _PILE, _PENDING = range(5)



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


def _prepare(obs: Observation, R: _core.Rules, know: Knowledge) -> tuple[list[int], list[tuple[int, int]]]:
    """(private) What :func:`fill` deals: the unseen cards per kind or code (in a variant
    with suits, the groups' naturals still counted under their kinds, as taken), and the
    unseen places in their fixed order. No draw: the same for every sample of ``know``."""
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
    return pool, places


def fill(obs: Observation, R: _core.Rules, know: Knowledge, rng: Optional[random.Random]
         ) -> tuple[list[list[int]], list[list[int]], list[int], list[int], Optional[list[int]]]:
    """(private) Deal the unseen cards: hands, down hands, stock (top last), pile, pending.
    Uniformly at random with ``rng``; in a fixed order without (any placement will do).
    (``native/src/resample.rs`` deals them the same way, draw for draw.)"""
    players = obs.players
    n = R.hand_len
    pool, places = _prepare(obs, R, know)
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
    return _core.pile_cards(c)[c.buried:]  # the buried packet (Italian 2.3) was never seen


MAX_TRIES = 1000
"""Samples drawn for one answer at most, when the turn says something of a hidden hand (see
:func:`playable`); after as many, the last one is given."""


def playable(c: Any, observer: int) -> bool:
    """(private) Whether a sampled position agrees with what the turn says of a hand the
    observer cannot see. The engine offers "may I go out?" only to a player who can go out
    (hoyle-1950 rule 39; no turn is left without a legal action), so while the partner is
    asked the asker's hand must let him ask; and a player who must go out this turn (the
    answer was yes, black threes melded, a pile taken to go out concealed) must have a legal
    action. Always True for the observer's own turn (his hand is his own)."""
    ph = c.phase
    if ph == _PH_ANSWER:
        who = _core._apply.asker(c, c.player)
        if who == observer:
            return True
        # the asker's turn before he asked, on the Python core (the checks that word the
        # reasons live there; a native position is copied over)
        pre = _core.to_python(c)
        if pre is c:
            pre = c.copy()
        pre.player = who
        pre.flags = c.flags & ~_core.F_ASKED
        if c.flags & (_core.F_DREW | _core.F_TOOK):
            pre.phase = _PH_MELD
            return _ask_after(pre) is None
        pre.phase = _core.PH_DRAW
        return _ask_first(pre) is None
    if ph < _core.PH_HAND_OVER and c.player != observer and c.flags & _F_MUST:
        return bool(_core.legal_ids(c))
    return True


def resample(state: GameState, player: int, rng: random.Random) -> GameState:
    """A state consistent with everything ``player`` has observed in ``state``.

    See :meth:`GameState.resample`.
    """
    _check_rng(rng)
    native = _native_rng(rng) and state.core == "native"
    if native and type(player) is int:
        # (a search samples one state many times: its reading and sampler are kept on it)
        memo = state._memo
        if memo is None:
            memo = state._memo = {}
        sampler = memo.get(("resample", player))
        if sampler is None:
            sampler = memo[("resample", player)] = _resample_sampler(state, *_reading(state, player))
        status, got = sampler.draw(rng, MAX_TRIES, 1, ())
        if got is not None:
            return got
    obs, R, know = _reading(state, player)
    if native and type(player) is not int:
        status, got = _resample_sampler(state, obs, R, know).draw(rng, MAX_TRIES, 1, ())
        if got is not None:
            return got
    for _ in range(MAX_TRIES):
        out = _resample_once(state, obs, R, know, rng)
        if playable(out._c, player):
            break
    return out


def _reading(state: GameState, player: int) -> tuple[Observation, _core.Rules, Knowledge]:
    """``player``'s observation of ``state`` and what it knows of the cards (checks the seat)."""
    from ._observe import observation

    obs = observation(state, player)  # checks the seat
    R = state._rules
    if obs.history and _complete(obs):
        know = knowledge(obs, R, upcards=_dealt_pile(state))
    else:
        # the cards still face down under the upcard (Italian 2.3) are unseen: dealt again
        b = state._c.buried
        know = knowledge(obs, R, pile_seen=(None,) * b + state.pile[b:] if b else state.pile,
                         pending_seen=state.turn.pending)
    return obs, R, know


def _resample_sampler(state: GameState, obs: Observation, R: _core.Rules, know: Knowledge) -> NativeSampler:
    """The native sampler of :func:`resample` (``state`` native)."""
    cur = state._c.player
    if state.phase is Phase.ANSWER:
        cur = _core._apply.asker(state._c, cur)
    start = state.turn.start_hand
    if start and cur >= 0:  # (as _resample_once: the hand before the take, from the new hand)
        return NativeSampler(state, obs, R, know, False, cur, [b - a for b, a in zip(start, state.hands[cur])], True)
    return NativeSampler(state, obs, R, know, False, -1, (), True)


def _resample_once(state: GameState, obs: Observation, R: _core.Rules, know: Knowledge,
                   rng: random.Random) -> GameState:
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
    them, dealt cards still in the pile under discards are sampled too. Where the variant
    buries a packet under the upcard (``upcard.buried``), the face-up cards only: the buried
    ones (``Observation.pile_buried``) are never seen, and always sampled. The result is the same
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
    if rng is not None:
        sampler = sampler_for(obs, R, know, with_history, rng)
        if sampler is not None:
            status, got = sampler.draw(rng, MAX_TRIES, 1, ())
            if got is not None:
                return got
    for _ in range(MAX_TRIES if rng is not None else 1):
        out = _sample_once(obs, rng, R, know, with_history)
        if rng is None or playable(out._c, obs.seat):
            break
    return out


def _native_rng(rng: object) -> bool:
    """Whether ``rng`` is a plain ``random.Random`` (whose draws the native core ports), and
    the native core built has the sampler."""
    return type(rng) is random.Random and hasattr(_backend._ext, "sample_draw")


class NativeSampler:
    """(private) One seat's samples dealt natively (``native/src/resample.rs``; ``cap`` None
    where the cards do not fit the places, which a first sample tells): the same
    states, with the same draws from the same ``random.Random``, as :func:`fill` and the
    rejection draws of :func:`resample` and :func:`_sample` give on the Python core.

    ``template``: a native state of the public fields (the state resampled, or one of the
    observation's); ``draw_seed``: a new ``seed`` drawn after the cards (``sample_state``),
    else the template's kept; ``start_seat``, ``start_delta``, ``clamp``: the hand before a take
    (``Turn.start_hand``) of that seat is its new hand plus ``start_delta`` (at 0 at least with
    ``clamp``); -1: the template's is kept."""

    __slots__ = ("ext", "cap")

    def __init__(self, template: GameState, obs: Observation, R: _core.Rules, know: Knowledge, draw_seed: bool,
                 start_seat: int, start_delta: Sequence[int], clamp: bool) -> None:
        pool, places = _prepare(obs, R, know)
        where, index = zip(*places) if places else ((), ())
        self.ext = _backend._ext
        self.cap = self.ext.sampler(
            template._c, draw_seed, know.seat, pool, where, index, know.red_ok, know.known,
            [-1 if k is None else k for k in know.pile],
            None if know.pending is None else [-1 if k is None else k for k in know.pending],
            know.groups, start_seat, start_delta, clamp)

    def draw(self, rng: random.Random, tries: int, consistent: int, cands: Sequence[int]
             ) -> tuple[int, Optional[GameState]]:
        """Samples drawn with ``rng`` (its own ``getrandbits`` called back, so it is left as
        the Python draws leave it) until one is
        :func:`playable` (at most ``tries``), repeated at most ``consistent`` times until every
        action id of ``cands`` is legal in it. (0, the sample); (1, None): none had them all
        legal; (2, None): the cards do not fit the places (nothing drawn: the Python path
        raises its error)."""
        if self.cap is None:
            return 2, None
        status, core = self.ext.sample_draw(self.cap, rng, tries, consistent, cands)
        return status, None if core is None else GameState(core)


def sampler_for(obs: Observation, R: _core.Rules, know: Knowledge, with_history: bool, rng: object
                ) -> Optional[NativeSampler]:
    """(private) A :class:`NativeSampler` of ``_sample(obs, rng, ..., with_history, know, R)``,
    or None where the samples are not dealt natively (the Python core, a generator other than
    a plain ``random.Random``, an observation no deal gives). Kept on ``know`` for the next
    samples of it (a search draws many)."""
    if not _native_rng(rng):
        return None
    cache = know.samplers
    if cache is None:
        cache = know.samplers = {}
    got = cache.get(with_history)
    if got is not None and got[0] is R:
        return got[1]
    try:
        template = _template(obs, R, know, with_history)
        sampler = None
        if template.core == "native":
            cur = _start_seat(obs, know)
            left = (_full(know.taker_left) if R.suited else know.taker_left) if cur >= 0 else ()
            sampler = NativeSampler(template, obs, R, know, True, cur, left, False)
            if sampler.cap is None:  # (the cards do not fit: the Python path raises the error)
                sampler = None
    except (ValueError, TypeError, IndexError, KeyError, AttributeError, OverflowError):
        sampler = None  # (the Python path raises the error, after the same draws)
    cache[with_history] = (R, sampler)
    return sampler


def _sample_once(obs: Observation, rng: Optional[random.Random], R: _core.Rules, know: Knowledge,
                 with_history: bool) -> GameState:
    hands, downs, stock, pile, pending = fill(obs, R, know, rng)
    start: tuple[int, ...] = ()
    cur = _start_seat(obs, know)
    if cur >= 0:
        # the hand before the take: the cards played from it since come back (exact while
        # the pile is set aside; later the taken cards are in the hand too, and it is unused)
        left = _full(know.taker_left) if R.suited else know.taker_left
        start = tuple(h + x for h, x in zip(hands[cur], left))
    return _build(obs, R, hands, downs, stock, pile, pending, start, rng.getrandbits(32) if rng is not None else 0,
                  with_history)


def _start_seat(obs: Observation, know: Knowledge) -> int:
    """The seat whose hand before the take ``Turn.start_hand`` is, or -1 (no take this turn)."""
    cur = know.taker
    if cur < 0 and obs.phase is not Phase.ANSWER and obs.current_player is not None:
        cur = obs.current_player
    return cur if obs.turn.took else -1


def _template(obs: Observation, R: _core.Rules, know: Knowledge, with_history: bool) -> GameState:
    """The state of :func:`_sample_once` but for the cards it deals (the known cards only, the
    unseen places left empty or 0) and the hand before a take: what the native sampler deals
    into. Seats play from their down hands as in a sample (where they are empty)."""
    hands = [_full(h) for h in know.known] if R.suited else know.known
    zero = [0] * R.hand_len
    pile = [0 if k is None else k for k in know.pile]
    pending = None if know.pending is None else [0 if k is None else k for k in know.pending]
    return _build(obs, R, hands, [zero] * obs.players, [0] * obs.stock_size, pile, pending, (), 0, with_history,
                  tuple(size == 0 for size in obs.down_hand_sizes))


def _build(obs: Observation, R: _core.Rules, hands: Sequence[Sequence[int]], downs: Sequence[Sequence[int]],
           stock: Sequence[int], pile: Sequence[int], pending: Optional[Sequence[int]], start: tuple[int, ...],
           seed: int, with_history: bool, playing_down: tuple[Optional[bool], ...] = ()) -> GameState:
    t = obs.turn
    turn = Turn(drew=t.drew, took=t.took, count=t.count, pending=tuple(pending or ()),
                pending_top=t.pending_top, asked=t.asked, answer=t.answer, melded=t.melded,
                black_threes=t.black_threes, must_out=t.must_out, touched_partner=t.touched_partner,
                own_canasta=t.own_canasta, melds_before=t.melds_before, had_melded=t.had_melded,
                no_take=t.no_take, natural_meld=t.natural_meld, start_hand=start)
    history = tuple(ev.action for ev in obs.history) if with_history else ()
    seats = tuple(-1 if ev.seat is None else ev.seat for ev in obs.history) if with_history else ()
    return _from_fields(
        R.variant, obs.players, seed, obs.hand_number, obs.dealer, obs.totals,
        tuple(tuple(h) for h in hands), tuple(tuple(h) for h in downs), obs.melds, obs.red_threes,
        obs.opened, obs.melded, tuple(stock), tuple(pile), obs.frozen, obs.current_player, obs.phase,
        turn, obs.took_last, obs.last_turns, obs.active, obs.precise, obs.result, obs.winners,
        history, rules=R, history_seats=seats, black_threes_aside=obs.black_threes_aside,
        pile_buried=obs.pile_buried, playing_down=playing_down)


def resolve_variant(name: str, players: int, variant: Union[Variant, str, None] = None) -> Variant:
    """(private) The variant an observation names: ``variant`` if given (a name is loaded),
    else the bundled one of that name unless only other variants of that name (house rules) have
    been compiled for ``players`` in this process, then the first of those. Raises ``ValueError`` naming the variant when there is none."""
    from ._variant import Variant
    from ._variant_load import load_variant, variant_names

    if isinstance(variant, Variant):
        if variant.name != name:
            raise ArgumentError("variant", f"the observation is of {name!r}, not {variant.name!r}")
        return variant
    if isinstance(variant, str):
        return load_variant(variant)
    if variant is not None:
        raise ArgumentError("variant", f"expected a Variant, a name or None, not {show(variant)}")
    played = [v for key, (v, _) in list(_core._rules._RULES.items()) if v.name == name and key[1] == players]
    bundled = load_variant(name) if name in variant_names() else None
    if bundled is not None and (not played or any(v is bundled or v == bundled for v in played)):
        # (house rules may keep a bundled variant's name: where the bundled one has been played
        # too, an observation naming it is of the bundled one, not of the first compiled)
        return bundled
    if played:
        return played[0]
    raise ArgumentError("variant", f"{name!r} is not a bundled variant and has not been played in this "
                        "process; pass the Variant")


_state._RESAMPLE = resample  # GameState.resample (see the slots at the end of _state)
