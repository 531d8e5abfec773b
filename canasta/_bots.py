"""Computer players, the protocol they follow, and a helper that plays whole games between them.

A bot sees what a player at the table sees: :meth:`Bot.choose` receives the player's
:class:`Observation` and the legal actions, never the full :class:`GameState`, so no bot
can look at hidden cards. Three bots are provided, each deterministic for a given seed:

* :class:`RandomBot` picks uniformly among the legal actions.
* :class:`GreedyBot` plays a simple, sensible game: it takes the pile when it can, melds
  and adds what it can (canastas first, then the most points), keeps its wild cards for
  canastas, discards its least useful card, and goes out as soon as it can.
* :class:`SearchBot` (in ``_search``) samples the hidden cards and plays rollouts.

Bots only ever choose among the legal actions they are given, so they play every variant the
engine supports. :func:`play_game` plays a whole game (hand after hand) between bots.
"""

from __future__ import annotations

import random
import secrets
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol, Sequence, Union

from ._core import Rules, _plan, rules_for
from ._core._kernel import PH_INITIAL_TAKE as _PH_INITIAL_TAKE
from ._actions import Action, Add, Answer, Ask, Combine, Discard, Done, Draw, Meld, Pass, Retract, Take
from ._cards import KIND_OF, N_CODES, N_KINDS, SEQUENCE_RANK, WILD_RANK, Card
from ._core._rules import meld_key, seq_low, seq_rank, seq_suit
from ._errors import ArgumentError, integer, show
from ._state import GameState
from ._fields import HandResult, Phase, TableMeld, meld_tuple
from ._variant import Variant
from ._variant_terms import RANK_OF

if TYPE_CHECKING:
    from ._observation import Observation

__all__ = ["Bot", "GreedyBot", "RandomBot", "play_game"]

JK, TWO, R3, B3 = int(Card.JOKER), int(Card.TWO), int(Card.RED_THREE), int(Card.BLACK_THREE)
_MELDING = (Meld, Add, Combine)
M = tuple[int, int, int, int, int]
"""A meld as the rules core keeps it: (rank, naturals, jokers, twos, red-three topping 0/1); a
sequence (``_core._rules.seq_rank(suit, low)``, length, 0, 0, 0)."""


class Bot(Protocol):
    """What :func:`play_game` and ``canasta simulate`` play with: anything with a ``choose``
    method that is given the player's view and returns one of the legal actions.

    A bot never receives the :class:`GameState`: ``observation`` is
    ``state.observation(seat)`` for the seat to act (its own hand, the sizes of the others,
    the table, the pile's top, the hand's public history, ...) and ``legal_actions`` is
    ``state.legal_actions()``. A bot that searches can sample complete states consistent
    with the observation with :func:`sample_state`.
    """

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The action to play: one of ``legal_actions``, for the seat ``observation.seat``."""
        ...


_ACTIONS = (Draw, Pass, Done, Retract, Ask, Answer, Take, Meld, Add, Combine, Discard)


def _check_acts(legal_actions: Sequence[Action]) -> Sequence[Action]:
    if (isinstance(legal_actions, (str, bytes)) or not isinstance(legal_actions, Sequence)
            or (legal_actions and not isinstance(legal_actions[0], _ACTIONS))):
        raise ArgumentError("legal_actions", f"expected the legal actions (state.legal_actions()), not "
                            f"{show(legal_actions)}")
    if not legal_actions:
        raise ValueError("legal_actions is empty: nobody is to act (the hand or game is over)")
    return legal_actions


def _seed(seed: object) -> Optional[int]:
    """A bot's seed: an integer (numpy's too) or ``None`` (fresh entropy), else :class:`ArgumentError`."""
    return None if seed is None else integer(seed, "seed")


def _bot_seed(seed: object, positional: object) -> Optional[int]:
    """The seed a bot keeps: ``seed`` checked; for a positional bot without one, fresh entropy
    drawn now and kept (so that the bot can be made again)."""
    if not isinstance(positional, bool):
        raise ArgumentError("positional", f"expected True or False, not {show(positional)}")
    s = _seed(seed)
    if s is None and positional:
        s = secrets.randbits(63)
    return s


def _position_rng(rng: random.Random, seed: Optional[int], hand_number: int, actions: int, seat: int) -> None:
    """Seed ``rng`` for one decision of a positional bot: from the bot's seed and the position
    (the hand, the actions played in it, the seat to act), the same in every process."""
    rng.seed(f"canasta-bot/{seed}/{hand_number}/{actions}/{seat}", version=2)


def _reseed_from(bot: Any, observation: Observation) -> None:
    _position_rng(bot.rng, bot.seed, observation.hand_number, len(observation.history), observation.seat)


def _reseed_from_state(bot: Any, state: GameState) -> None:
    seat = state.current_player
    assert seat is not None
    _position_rng(bot.rng, bot.seed, state.hand_number, len(state.history), seat)


class RandomBot:
    """Plays uniformly at random among the legal actions (seeded: the same seed, the same play).

    ``positional=True``: each choice's randomness comes from ``seed`` and the position (the
    hand number, the actions played in the hand so far, the seat), not from one generator run
    through the game, so the bot's choices are a function of the position: a server that
    restarts makes the bot again with the same seed and it plays on exactly as it would have,
    with nothing to save. (Without it, save ``bot.rng.getstate()`` and restore it with
    ``bot.rng.setstate(...)``.) With ``seed=None`` a positional bot draws a seed and keeps it
    in :attr:`seed`.
    """

    def __init__(self, seed: Optional[int] = 0, positional: bool = False) -> None:
        self.seed: Optional[int] = _bot_seed(seed, positional)
        """The bot's seed (None: fresh entropy, for a bot that is not positional)."""
        self.positional = positional
        """Whether each choice is drawn from the seed and the position (see above)."""
        self.rng = random.Random(self.seed)
        """The bot's random source, seeded with ``seed`` (a positional bot's, seeded again for
        each choice)."""

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """One of ``legal_actions``, each with equal probability (the observation is not read,
        but for the position of a positional bot).

        Raises ``ValueError`` when ``legal_actions`` is empty.
        """
        acts = _check_acts(legal_actions)
        if self.positional:
            _reseed_from(self, observation)
        return self.rng.choice(acts)

    def __repr__(self) -> str:
        return "RandomBot()"


def _ask(bot: Bot, state: GameState) -> Action:
    """``bot``'s choice in ``state``: ``bot.choose(state.observation(seat), legal_actions)``,
    the built-in bots asked without building the observation when they do not need it (the
    same choice, faster)."""
    kind = type(bot)
    if kind is RandomBot:
        if bot.positional:  # type: ignore[attr-defined]
            _reseed_from_state(bot, state)
        return bot.rng.choice(state.legal_actions())  # type: ignore[attr-defined]
    if kind is GreedyBot:
        return bot._choose_state(state)  # type: ignore[attr-defined]
    seat = state.current_player
    assert seat is not None
    return bot.choose(state.observation(seat), state.legal_actions())


# ------------------------------------------------------------------ helpers for GreedyBot


class _Info:
    """The few variant numbers the greedy bot reads, compiled once per variant."""

    def __init__(self, variant: Variant) -> None:
        cv = variant.scoring.card_values
        self.values: tuple[int, ...] = (cv.joker, cv.two, 0, cv.black_three, cv.four, cv.five, cv.six, cv.seven,
                       cv.eight, cv.nine, cv.ten, cv.jack, cv.queen, cv.king, cv.ace)
        # (a suited card's value is its kind's: variants with sequences)
        self.values = self.values + tuple(self.values[KIND_OF[k]] for k in range(N_KINDS, N_CODES))
        self.seq_bonus = variant.scoring.sequence_canasta
        m = variant.melds
        self.cs = m.canasta_size
        self.cmin_nat = m.canasta_min_naturals
        self.closed = m.canasta_closed
        s = variant.scoring
        self.nat_bonus = s.natural_canasta
        self.mixed_bonus = s.mixed_canasta
        self.wild_bonus = s.wild_canasta
        self.keep_r3 = variant.red_threes.handling == "keep"
        self.r3_bonus = variant.red_threes.bonus
        # mexicana 7.1: a canasta of these ranks scores its own points (scoring.rank_canastas)
        self.rank_bonus = {RANK_OF[x.rank]: x.points for x in s.rank_canastas if x.rank in RANK_OF}
        # modern-american 7.6, 7.7: melds that cost points while unfinished, cards that cost
        # points when too many are held
        self.unfinished = frozenset(WILD_RANK if x.rank == "wild" else RANK_OF[x.rank]
                                    for x in s.unfinished_melds)
        self.held = {RANK_OF[x.rank]: x.count for x in s.held}
        # hand-and-foot 6.2: going out needs a canasta of wild cards (going_out.canastas_by_kind)
        self.wild_needed = variant.going_out.canastas_by_kind.wild
        # italian 4.3: deuces melded as a rank of their own (a canasta of seven, 3,000)
        self.deuce = m.deuce_melds

    def is_canasta(self, m: M) -> bool:
        return m[1] + m[2] + m[3] >= self.cs and (m[0] == WILD_RANK or m[1] >= self.cmin_nat)

    def canasta_bonus(self, m: M) -> int:
        if not self.is_canasta(m):
            return 0
        if m[0] == WILD_RANK:
            return self.wild_bonus
        if m[0] >= SEQUENCE_RANK:
            return self.seq_bonus
        if m[0] in self.rank_bonus:
            return self.rank_bonus[m[0]]
        return self.nat_bonus if m[2] + m[3] == 0 else self.mixed_bonus

    def table_value(self, melds: Sequence[M], red_threes: int) -> int:
        """Points a side has on the table: melded cards, canasta bonuses, red threes."""
        v = self.values
        total = 0
        for m in melds:
            if m[0] >= SEQUENCE_RANK:
                low = seq_low(m[0])
                total += sum(v[r] for r in range(low, low + m[1]))
            elif m[0] != WILD_RANK:
                total += m[1] * v[m[0]]
            total += m[2] * v[JK] + m[3] * v[TWO] + self.canasta_bonus(m)
        n = red_threes
        if n and not self.keep_r3:
            table = self.r3_bonus
            total += table[n] if n < len(table) else table[-1]
        return total


_INFO: dict[int, tuple[Variant, _Info]] = {}


def _info(variant: Variant) -> _Info:
    hit = _INFO.get(id(variant))
    if hit is not None and hit[0] is variant:
        return hit[1]
    if len(_INFO) > 64:
        _INFO.clear()
    info = _Info(variant)
    _INFO[id(variant)] = (variant, info)
    return info


def _meld_index(melds: Sequence[M], rank: int, number: int) -> int:
    """Position in ``melds`` of the side's meld number ``number`` (from 1) of ``rank``."""
    n = 0
    for i, m in enumerate(melds):
        if m[0] == rank or (m[0] >= SEQUENCE_RANK and meld_key(m[0]) == rank):
            n += 1
            if n == number:
                return i
    return -1


def _extends(m: M, card: int) -> bool:
    """Whether the suited ``card`` fits at an end of the sequence ``m``."""
    if card < N_KINDS or (card + 1) & 3 != seq_suit(m[0]):
        return False
    low = seq_low(m[0])
    return KIND_OF[card] in (low - 1, low + m[1])


class _View:
    """What the greedy policy reads of a position: the same from an observation and a state."""

    __slots__ = ("variant", "R", "info", "phase", "seat", "side", "sides", "totals", "melds", "red_threes",
                 "opened", "hand", "pile_size", "stock_size", "n_active", "plan", "down")

    variant: Variant
    R: Rules
    info: _Info
    phase: Phase
    seat: int
    side: int
    sides: int
    totals: tuple[int, ...]
    melds: tuple[tuple[M, ...], ...]
    red_threes: tuple[int, ...]
    opened: tuple[bool, ...]
    hand: Sequence[int]
    pile_size: int
    stock_size: int
    n_active: int
    plan: Callable[[], GameState]
    """A state to plan the rest of the turn in (the player's own cards and the table as they are)."""
    down: bool
    """The player still has a down hand to play."""


def _view_of_state(st: GameState) -> _View:
    c = st._c
    R = c.d.R
    v = _View()
    seat = c.player
    v.variant = R.variant
    v.R = R
    v.info = _info(R.variant)
    v.phase = st.phase
    v.seat = seat
    v.side = R.side_of[seat]
    v.sides = R.n_sides
    v.totals = c.totals
    v.melds = c.melds
    v.red_threes = c.red
    v.opened = c.opened
    v.hand = c.hands[seat]
    v.pile_size = c.pile_n
    v.stock_size = c.stock_n
    v.n_active = len(c.d.active)
    v.plan = lambda: st
    v.down = any(c.downs[seat])
    return v


def _view_of_observation(obs: Observation, variant: Variant) -> _View:
    v = _View()
    v.variant = variant
    v.R = rules_for(variant, obs.players)
    v.info = _info(variant)
    v.phase = obs.phase
    v.seat = obs.seat
    v.side = obs.side
    v.sides = obs.sides
    v.totals = obs.totals
    v.melds = tuple(tuple(meld_tuple(m) for m in side) for side in obs.melds)
    v.red_threes = obs.red_threes
    v.opened = obs.opened
    v.hand = obs.hand
    v.pile_size = obs.pile_size
    v.stock_size = obs.stock_size
    v.n_active = len(obs.active)
    v.down = obs.down_hand_size > 0

    def plan() -> GameState:
        # any state with this player's cards, the table and the turn as observed: the plan
        # plays this player's own cards only (the other hands are sampled, never read)
        from ._resample import _sample

        return _sample(obs, None, variant, None, False)

    v.plan = plan
    return v


def _standing(v: _View, side: int) -> int:
    return v.totals[side] + v.info.table_value(v.melds[side], v.red_threes[side])


def _ahead(v: _View, side: int) -> bool:
    mine = _standing(v, side)
    return all(mine >= _standing(v, s) for s in range(v.sides) if s != side)


def side_is_ahead(position: Union[GameState, Observation], side: int,
                  variant: Optional[Variant] = None) -> bool:
    """Whether ``side``'s game total plus what it has on the table is at least every other
    side's (public: the same from a state and from any seat's observation of it)."""
    if isinstance(position, GameState):
        variant = position.variant
    elif variant is None:
        from ._resample import resolve_variant

        variant = resolve_variant(position.variant, position.players)
    info = _info(variant)
    melds, reds, totals = position.melds, position.red_threes, position.totals

    def standing(s: int) -> int:
        return totals[s] + info.table_value([meld_tuple(m) for m in melds[s]], reds[s])

    mine = standing(side)
    return all(mine >= standing(s) for s in range(len(totals)) if s != side)


class GreedyBot:
    """A simple, sensible player; deterministic for a given seed (the seed only breaks ties).

    It reads only its observation: its own hand, the table, the sizes of the pile and the
    stock, the scores.

    * Draw phase: takes the pile whenever it legally can (adding the top card to a meld or
      with a natural pair first; with a wild card only for a pile of three cards or more),
      otherwise draws; with the stock exhausted it takes if it can, else passes.
    * Meld phase: if it can go out this turn it does (asking its partner first where the
      rules allow asking, it asks only when its side is ahead, as its partner would answer
      yes then; behind, it goes out without asking); otherwise it melds and adds natural
      cards (completing canastas first, then the most points), spends a wild card only to
      complete a canasta or to make its side's initial meld, and then discards its least
      useful card: a red three where red threes are kept in hand (they cost points if still
      held at the end), then a black three (a blocker), then a low singleton; never a wild
      card while it has anything else and never a card it could have melded.
      When the stock is nearly out, or after the last card was a red three, it melds everything.
      Where the variant charges for unfinished melds of a rank (``scoring.unfinished_melds``) it
      starts one only holding most of a canasta of it, and where it charges for holding many
      cards of a rank (``scoring.held``) it lets them go first. Where going out needs a
      canasta of wild cards (``going_out.canastas_by_kind.wild``: hand-and-foot) it melds and
      adds its wild cards to a meld of wild cards until its side has that canasta.
      Whether it can go out is found by playing its own cards forward in a state sampled
      from its observation (:func:`sample_state`; only its own cards and the table matter).
    * "May I go out?": answers yes when its side is ahead (game total plus table), else no.

    ``variant``: the variant played; by default the one the observations name (a bundled
    variant, or one already played in this process). ``positional=True``: its ties are
    broken by randomness drawn from ``seed`` and the position, so that a restarted server
    makes the bot again and it plays on exactly (see :class:`RandomBot`).
    """

    def __init__(self, seed: Optional[int] = 0, variant: Optional[Variant] = None, positional: bool = False) -> None:
        if variant is not None and not isinstance(variant, Variant):
            raise ArgumentError("variant", f"expected a Variant (load_variant) or None, not {show(variant)}")
        self.seed: Optional[int] = _bot_seed(seed, positional)
        """The bot's seed (None: fresh entropy, for a bot that is not positional)."""
        self.positional = positional
        """Whether each choice's tie-breaks are drawn from the seed and the position."""
        self.rng = random.Random(self.seed)
        """The bot's random source, seeded with ``seed`` (a positional bot's, seeded again for
        each choice)."""
        self.variant = variant
        """The variant played, or ``None`` for the one each observation names."""
        self._variants: dict[tuple[str, int], Variant] = {}

    def __repr__(self) -> str:
        return "GreedyBot()"

    def _variant_of(self, obs: Observation) -> Variant:
        key = (obs.variant, obs.players)
        v = self._variants.get(key)
        if v is None:
            from ._resample import resolve_variant

            v = self._variants[key] = resolve_variant(obs.variant, obs.players, self.variant)
        return v

    # ------------------------------------------------------------------ choice

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The greedy bot's action: always one of ``legal_actions``.

        Raises ``ValueError`` when ``legal_actions`` is empty.
        """
        from ._observation import Observation

        if not isinstance(observation, Observation):
            raise ArgumentError("observation", f"expected an Observation (state.observation(seat)), not "
                                f"{show(observation)}")
        acts = tuple(_check_acts(legal_actions))
        if len(acts) == 1:
            return acts[0]
        if self.positional:
            _reseed_from(self, observation)
        return self._decide(_view_of_observation(observation, self._variant_of(observation)), acts)

    def _choose_state(self, state: GameState) -> Action:
        """(private) The same choice as :meth:`choose` given ``state``'s observation, read
        from the state where that is faster: the policy reads only what the seat observes,
        and plans its going out on the state itself unless the plan could meet cards the
        seat has not seen (its own down hand, the dealt cards of a pile it is taking)."""
        acts = state.legal_actions()
        if len(acts) == 1:
            return acts[0]
        c = state._c
        seat = c.player
        if any(c.downs[seat]) or c.phase == _PH_INITIAL_TAKE:
            return self.choose(state.observation(seat), acts)
        if self.positional:
            _reseed_from_state(self, state)
        return self._decide(_view_of_state(state), acts)

    def _decide(self, v: _View, acts: tuple[Action, ...]) -> Action:
        ph = v.phase
        if ph is Phase.ANSWER:
            return Answer(_ahead(v, v.side))
        if ph is Phase.DRAW:
            return self._draw_phase(v, acts)
        return self._meld_phase(v, acts)

    def _draw_phase(self, v: _View, acts: tuple[Action, ...]) -> Action:
        takes = [a for a in acts if isinstance(a, Take)]
        order = {"onto": 0, "pair": 1, "two": 2, "joker": 3}
        takes.sort(key=lambda a: order.get(a.way, 9))
        can_draw = any(isinstance(a, Draw) for a in acts)
        for t in takes:
            if t.way in ("onto", "pair") or v.pile_size >= 3 or not can_draw:
                return t
        if can_draw:
            return Draw()
        if takes:
            return takes[0]
        if Pass() in acts:
            return Pass()
        return acts[0]

    def _meld_phase(self, v: _View, acts: tuple[Action, ...]) -> Action:
        if v.phase is Phase.INITIAL_TAKE and Retract() in acts:
            return Retract()
        info = v.info
        side = v.side
        # go out when possible (asking first where the partner may be asked)
        if Ask() in acts and _ahead(v, side):
            return Ask()  # offered only when this player can go out this turn
        plan = self._plan_out(v, acts, info)
        if plan is not None:
            return plan
        meld_all = v.phase is Phase.FINAL_MELD or v.stock_size <= 2 * v.n_active
        melds = [a for a in acts if isinstance(a, _MELDING)]
        mine = v.melds[side]
        wanted = [a for a in melds if meld_all or self._wanted(v, mine, a, info)]
        if wanted:
            return max(wanted, key=lambda a: self._meld_score(mine, a, info))
        discards = [a for a in acts if isinstance(a, Discard)]
        if discards:
            return min(discards, key=lambda a: self._keep_score(v, a.card, info))
        if Done() in acts:
            return Done()
        if melds:
            return max(melds, key=lambda a: self._meld_score(mine, a, info))
        # nothing else (e.g. an Ask only): play what the rules leave
        return acts[0]

    # ------------------------------------------------------------------ going out

    def _plan_out(self, v: _View, acts: tuple[Action, ...], info: _Info) -> Optional[Action]:
        """The first action of a way to go out this turn found by melding everything, or None."""
        seat = v.seat
        if not any(isinstance(a, _MELDING) for a in acts) and not (
                sum(v.hand[:N_KINDS]) == 1 and any(isinstance(x, Discard) for x in acts)) and Done() not in acts:
            return None  # nothing to play toward going out (the plan would stop at once)
        R = v.R
        # mexicana 6.2: no more canastas than the side's faced red threes allow
        most = v.red_threes[v.side] // R.r3_per if R.r3_per else _plan.BIG
        if not v.down and v.phase is not Phase.INITIAL_TAKE and not _plan.can_go_out(
                R, bytes(v.hand), v.melds[v.side], 0, most=most):
            # the rules' own test (the loosest: no minimum owed, a last discard allowed):
            # these cards cannot all be melded onto the table, so no play goes out this turn
            return None
        first: Optional[Action] = None
        cur = v.plan()
        for _ in range(200):
            c = cur._c
            if c.player != seat or cur.is_hand_over:
                break
            here = acts if first is None else cur.legal_actions()
            melds = [a for a in here if isinstance(a, _MELDING)]
            if melds:
                side_melds = c.melds[c.d.R.side_of[seat]]
                a: Action = max(melds, key=lambda m: self._meld_score(side_melds, m, info))
            elif sum(c.hands[seat][:N_KINDS]) == 1 and any(isinstance(x, Discard) for x in here):
                a = next(x for x in here if isinstance(x, Discard))
            elif Done() in here and sum(c.hands[seat][:N_KINDS]) == 0:
                a = Done()
            else:
                return None
            if first is None:
                first = a
            if not cur.is_legal(a):
                return None
            cur = cur.apply(a)
        if first is not None and (cur.is_hand_over and cur.result is not None
                                  and cur.result.went_out == seat):
            return first
        return None

    # ------------------------------------------------------------------ melding

    @staticmethod
    def _after(melds: Sequence[M], a: Action) -> tuple[Optional[M], Optional[M]]:
        """(meld before, meld after) of the meld ``a`` changes (None before for a new meld)."""
        if isinstance(a, Meld):
            c = a.cards
            rank = a.rank
            if len(c) > 1 and c[0] >= N_KINDS and KIND_OF[c[1]] != KIND_OF[c[0]]:  # a sequence
                return None, (seq_rank((c[0] + 1) & 3, rank), len(c), 0, 0, 0)
            nat = sum(1 for k in c if k > TWO) if rank != WILD_RANK else 0
            return None, (rank, nat, c.count(JK), c.count(TWO), 0)
        if isinstance(a, Add):
            i = _meld_index(melds, a.rank, a.meld)
            if i < 0:
                return None, None
            m = melds[i]
            if m[0] >= SEQUENCE_RANK:  # a sequence grows at either end
                low = seq_low(m[0])
                return m, (seq_rank(seq_suit(m[0]), min(low, KIND_OF[a.card])), m[1] + 1, 0, 0, 0)
            if a.card == R3:
                return m, (m[0], m[1], m[2], m[3], 1)
            card = a.card
            return m, (m[0], m[1] + (card > TWO), m[2] + (card == JK), m[3] + (card == TWO), m[4])
        if isinstance(a, Combine):
            i = _meld_index(melds, a.rank, a.first)
            j = _meld_index(melds, a.rank, a.second)
            if i < 0 or j < 0:
                return None, None
            m1, m2 = melds[i], melds[j]
            return m1, (a.rank, m1[1] + m2[1], m1[2] + m2[2], m1[3] + m2[3], 0)
        return None, None

    @staticmethod
    def _completes_after(before: Optional[M], after: Optional[M], a: Action, info: _Info) -> bool:
        if after is None:
            return False
        if isinstance(a, Add) and a.card == R3:
            return True
        return info.is_canasta(after) and not (before is not None and info.is_canasta(before))

    def _completes(self, melds: Sequence[M], a: Action, info: _Info) -> bool:
        before, after = self._after(melds, a)
        return self._completes_after(before, after, a, info)

    def _wanted(self, v: _View, melds: Sequence[M], a: Action, info: _Info) -> bool:
        """Whether the bot plays this meld action now (outside its meld-everything modes)."""
        if isinstance(a, Combine):
            return True
        if isinstance(a, Meld):
            if a.rank == B3:
                return False  # black threes are melded only as part of going out
            if a.rank == WILD_RANK and (info.deuce or self._wild_canasta_wanted(v, melds, info)):
                return True  # (italian: the bot melds its deuces as their own rank)
            if a.rank in info.unfinished:
                # a meld that costs points until it is a canasta: only with most of one in hand
                held = v.hand[JK] + v.hand[TWO] if a.rank == WILD_RANK else v.hand[a.rank]
                return held >= info.cs - 1
            if all(k > TWO for k in a.cards):
                return True
            return not v.opened[v.side] or v.phase is Phase.INITIAL_TAKE
        if isinstance(a, Add):
            if a.card > TWO or a.card == R3:
                return True
            if a.rank == WILD_RANK and ((info.deuce and a.card == TWO) or self._wild_canasta_wanted(v, melds, info)):
                return True
            return self._completes(melds, a, info)
        return False

    @staticmethod
    def _wild_canasta_wanted(v: _View, melds: Sequence[M], info: _Info) -> bool:
        """Whether the side still lacks a canasta of wild cards that going out needs (hand-and-foot
        6.2: "two clean piles, two dirty piles and one wild pile"): the bot then melds its wild
        cards together, as soon as it holds three, rather than keeping them for other melds."""
        if not info.wild_needed:
            return False
        done = sum(1 for m in melds if m[0] == WILD_RANK and info.is_canasta(m))
        return done < info.wild_needed

    def _meld_score(self, melds: Sequence[M], a: Action, info: _Info) -> tuple[int, int, int, int, float]:
        """Higher is better: completes a canasta, uses no wild card, the biggest meld, points, chance."""
        v = info.values
        before, after = self._after(melds, a)
        size = after[1] + after[2] + after[3] if after is not None else 0
        if isinstance(a, Meld):
            pts = sum(v[k] for k in a.cards)
            natural = all(k > TWO for k in a.cards)
        elif isinstance(a, Add):
            pts = v[a.card]
            natural = a.card > TWO
        else:
            pts, natural = 0, True
        return (int(self._completes_after(before, after, a, info)), int(natural), size, pts, self.rng.random())

    # ------------------------------------------------------------------ discarding

    def _keep_score(self, v: _View, card: int, info: _Info) -> tuple[float, float]:
        """How much the bot wants to keep ``card``; it discards the lowest."""
        h = v.hand
        tie = self.rng.random()
        if card == B3:
            return (-100.0, tie)  # a black three blocks the next player from the pile
        if card == R3:
            return (-200.0, tie)  # where red threes stay in hand they cost points at the end
        if card <= TWO:
            return (1000.0 + info.values[card], tie)
        side = v.side
        score = float(info.values[card])
        kind = KIND_OF[card]  # (a suited card's rank: the card itself where cards have no suits)
        if h[kind] >= 2:
            score += 200  # a pair: it can take the pile
        if kind in info.held and h[kind] >= info.held[kind] - 1 and not any(
                m[0] == kind for m in v.melds[side]):
            score -= 400  # too many of a rank cost points at the end (modern-american 7.7)
        own = [m for m in v.melds[side] if m[0] == kind]
        if own and info.closed and all(m[1] + m[2] + m[3] >= info.cs for m in own):
            score -= 30  # the meld is closed: the card is dead
        for other in range(v.sides):
            if other != side and any(m[0] == kind or (m[0] >= SEQUENCE_RANK and _extends(m, card))
                                     for m in v.melds[other]):
                score += 300  # the opponents could add it to their meld and take the pile
        return (score, tie)


# ------------------------------------------------------------------ whole games


OnAction = Callable[[GameState, Action, GameState], Any]


def play_game(variant: Union[Variant, str], players: Optional[int] = None,
              bots: Union[Bot, Sequence[Bot], None] = None, seed: int = 0,
              on_action: Optional[OnAction] = None, max_hands: int = 200,
              max_actions_per_hand: int = 20000) -> tuple[GameState, list[HandResult]]:
    """Play a whole game between bots and return ``(final_state, hand_results)``.

    ``variant`` is a :class:`Variant` or a bundled name; ``players`` defaults to the
    variant's usual table. ``bots`` is one bot per seat (a single bot plays every seat;
    default: a :class:`GreedyBot` per seat seeded from ``seed``); each is asked
    ``choose(state.observation(seat), state.legal_actions())`` in turn (see :class:`Bot`).
    The deal uses ``seed``. ``on_action(before, action, after)`` is called after each
    action with the states. Hands are dealt with :meth:`GameState.next_hand` until a side
    wins; after ``max_hands`` hands the game stops undecided (``final_state.is_game_over``
    is then False). A bot returning an illegal action raises :class:`IllegalActionError`;
    more than ``max_actions_per_hand`` actions in one hand raises ``RuntimeError``.
    """
    from ._newgame import new_game

    max_hands = integer(max_hands, "max_hands", 1)
    max_actions_per_hand = integer(max_actions_per_hand, "max_actions_per_hand", 1)
    if on_action is not None and not callable(on_action):
        raise ArgumentError("on_action", f"expected a function (before, action, after) or None, not {show(on_action)}")
    st = new_game(variant, players, seed=seed)
    n = st.players
    if bots is None:
        seats: list[Bot] = [GreedyBot(st.seed * 1000 + s, variant=st.variant) for s in range(n)]
    elif hasattr(bots, "choose"):
        seats = [bots] * n
    else:
        if isinstance(bots, (str, bytes)) or not hasattr(bots, "__iter__"):
            raise ArgumentError("bots", "expected a bot (an object with a choose(observation, legal_actions) "
                                f"method) or one bot per seat, not {show(bots)}")
        seats = list(bots)
        if len(seats) != n:
            raise ArgumentError("bots", f"{len(seats)} bots for {n} seats: give one bot per seat")
        for i, bot in enumerate(seats):
            if not hasattr(bot, "choose"):
                raise ArgumentError(f"bots.{i}", "expected a bot (an object with a choose(observation, "
                                    f"legal_actions) method), not {show(bot)}")
    results: list[HandResult] = []
    while True:
        count = 0
        while not st.is_hand_over:
            seat = st.current_player
            assert seat is not None
            action = _ask(seats[seat], st)
            after = st.apply(action)
            if on_action is not None:
                on_action(st, action, after)
            st = after
            count += 1
            if count > max_actions_per_hand:
                raise RuntimeError(f"hand {st.hand_number + 1} has not ended after {count} actions")
        assert st.result is not None
        results.append(st.result)
        if st.is_game_over or len(results) >= max_hands:
            return st, results
        st = st.next_hand()
