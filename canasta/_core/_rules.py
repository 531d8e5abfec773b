"""A variant's settings compiled for one table size: plain ints, tuples and lookup tables.

Everything the core reads about a variant comes from a :class:`Rules` object, built once per
(variant, players) and shared by every state of that table. No code looks at a variant's name.

The dense action space is derived here: :attr:`Rules.specs` lists every action the variant can
use at this table, as small tuples (kind and arguments) in id order, with reverse lookups for
the legal-action generator. The public :class:`~canasta.ActionSpace` builds its action objects
from these specs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Optional

from .._cards import KIND_OF, N_CODES, N_KINDS, WILD_RANK, card_code, deck_counts, suited_deck
from .._variant_terms import RANK_OF

if TYPE_CHECKING:
    from .._variant import Variant

JK: Final = 0
TWO: Final = 1
R3: Final = 2
B3: Final = 3
RANKS: Final = (4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
WILD: Final = WILD_RANK
SEQ: Final = 16
"""A meld whose first item is ``SEQ`` or more is a sequence: ``SEQ + 16 * suit + lowest rank``
(melds.sequences); the side's sequences of a suit are numbered under the key ``SEQ + suit``."""
KIND: Final = KIND_OF
BIG: Final = 1 << 20
"""'No limit' for a meld's room and wild-card capacity."""
COMP_CLEAN: Final = 1
"""What a side's initial meld must include, as bits (:meth:`Rules.initial_comp`): a meld of three or
more naturals without a wild card (``initial_meld.natural_meld_first``, modern-american 4.9)."""
COMP_NATURAL: Final = 2
"""A canasta of one of the kinds whose bit is set (``initial_meld.steps[].canasta``, brazilian
7.2): of naturals only, ..."""
COMP_MIXED: Final = 4
"""... of naturals and wild cards, ..."""
COMP_WILD: Final = 8
"""... of wild cards only, ..."""
COMP_SEQ: Final = 16
"""... or a sequence."""
COMP_CANASTA: Final = COMP_NATURAL | COMP_MIXED | COMP_WILD | COMP_SEQ
_COMP_KIND: Final = {"natural": COMP_NATURAL, "mixed": COMP_MIXED, "wild": COMP_WILD, "sequence": COMP_SEQ}
NO_COMP: Final = (0, 0)
"""Nothing required of the initial meld's composition."""

# ------------------------------------------------------------------ action specs
# An action is (kind, a, b, c, cards); the ids are the positions in Rules.specs.
DRAW: Final = 0
PASS: Final = 1
DONE: Final = 2
RETRACT: Final = 3
ASK: Final = 4
ANSWER: Final = 5      # a = 1 for yes, 0 for no
TAKE: Final = 6        # a = rank, b = way, c = meld number (onto)
MELD: Final = 7        # cards = the meld's cards, naturals first
ADD: Final = 8         # a = card, b = rank, c = meld number
COMBINE: Final = 9     # a = rank, b = first, c = second
DISCARD: Final = 10    # a = card

W_PAIR: Final = 0
W_JOKER: Final = 1
W_TWO: Final = 2
W_ONTO: Final = 3
WAY_NAMES: Final = ("pair", "joker", "two", "onto")
WAY_SETTINGS: Final = ("natural_pair", "natural_and_wild", "natural_and_wild", "add_to_meld")

_CLASS = {"wild": (0, 1), "red_three": (2,), "black_three": (3,)}

Meld = tuple[int, int, int, int, int]
"""A meld on the table: (rank, naturals, jokers, twos, red three on top as 0/1); a sequence is
(``seq_rank(suit, lowest)``, its length, 0, 0, 0)."""


def seq_rank(suit: int, low: int) -> int:
    """The first item of a sequence meld of ``suit`` from rank ``low``."""
    return SEQ + 16 * suit + low


def seq_suit(r: int) -> int:
    """The suit of a sequence meld whose first item is ``r``."""
    return (r - SEQ) >> 4


def seq_low(r: int) -> int:
    """The lowest rank of a sequence meld whose first item is ``r``."""
    return (r - SEQ) & 15


def meld_key(r: int) -> int:
    """What numbers a side's melds: the rank of a group, ``SEQ + suit`` of a sequence."""
    return r if r < SEQ else SEQ + ((r - SEQ) >> 4)
Spec = tuple[int, int, int, int, tuple[int, ...]]
"""An action as data: (kind, a, b, c, cards); see the kinds above. Also any action a user
names, in the variant's space or not (a meld of any cards, a take of any rank)."""


def _kinds(classes: tuple[str, ...]) -> frozenset[int]:
    out: set[int] = set()
    for c in classes:
        out.update(_CLASS[c] if c in _CLASS else (RANK_OF[c],))
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
        self.side_of: tuple[int, ...] = tuple(letters.index(ch) for ch in t.sides)
        self.n_sides = len(letters)
        self.members: tuple[tuple[int, ...], ...] = tuple(
            tuple(s for s in range(players) if self.side_of[s] == i) for i in range(self.n_sides))
        self.hand_size = t.hand_size
        self.down_size = t.down_hand_size
        self.draw_n = t.draw
        self.active_n = t.active or players
        packs = v.deck.packs + v.deck.packs_per_player * players
        self.deck = deck_counts(packs, v.deck.jokers_per_pack)
        if max(self.deck) > 255:
            # a hand is a count per card kind in one byte each
            raise ValueError(f"{v.name}: a deck of {max(self.deck)} cards of one kind is more than the "
                             "engine can hold (255)")
        cv = v.scoring.card_values
        self.values: tuple[int, ...] = (cv.joker, cv.two, 0, cv.black_three, cv.four, cv.five, cv.six,
                                        cv.seven, cv.eight, cv.nine, cv.ten, cv.jack, cv.queen, cv.king,
                                        cv.ace)
        self.values = self.values + tuple(self.values[KIND_OF[k]] for k in range(N_KINDS, N_CODES))
        sq = v.melds.sequences
        self.suited = sq.allowed
        """Cards carry suits: hands hold 59 counts (per kind, then per suited natural) and the
        stock and pile hold card codes (melds.sequences)."""
        self.seq_min = sq.min_size
        self.seq_max = sq.max_size
        self.seq_lo = RANK_OF[sq.lowest]
        self.seq_hi = RANK_OF[sq.highest]
        self.seq_bonus = v.scoring.sequence_canasta
        self.seq_past_max = sq.past_max_going_out
        self.hand_len = N_CODES if self.suited else N_KINDS
        self.max_seq_per_suit = 0
        self.suited_melds: Optional[tuple[dict[int, list[tuple[Meld, list[tuple[int, tuple[int, ...],
                                                                                 tuple[tuple[int, int], ...]]]]]],
                                          list[tuple[int, tuple[int, ...]]], list[tuple[int, tuple[int, ...]]]]] = None
        """The new melds by kind, for the generator of a variant with sequences (built on first use)."""
        self.deck_codes = suited_deck(self.deck) if self.suited else self.deck
        self.onto_canasta = v.pile.onto_canasta
        self.open_from_hand = v.pile.open_from_hand
        self.short_seq_below = v.scoring.short_sequence.below
        self.short_seq_points = v.scoring.short_sequence.points
        self.wild_on_canasta = v.melds.wild_on_canasta
        self.cover = _kinds(v.upcard.cover)
        self.cover_repeat = v.upcard.repeat
        self.upcard_freezes = _kinds(v.upcard.freezes)
        p = v.pile
        self.freeze_discard = _kinds(p.freeze_on_discard)
        self.blocked = _kinds(p.blocked_by)
        self.frozen_until_initial = p.frozen_until_initial_meld
        self.take_unfrozen = frozenset(p.take_unfrozen)
        self.take_frozen = frozenset(p.take_frozen)
        self.unfrozen_ways = _way_flags(self.take_unfrozen)
        self.frozen_ways = _way_flags(self.take_frozen)
        self.pair_melded = p.pair_melded
        # hand-and-foot 3.3: a wild card on top taken with two of the same wild card
        self.wild_pair_unfrozen = "wild_pair" in p.take_unfrozen
        self.wild_pair_frozen = "wild_pair" in p.take_frozen
        self.wild_pair_any = self.wild_pair_unfrozen or self.wild_pair_frozen
        self.one_card = p.one_card_hand_one_card_pile
        self.consecutive = p.consecutive_takes
        self.undo_take = p.failed_initial_take == "undo"
        self.no_discard_first = _kinds(p.no_discard_first_turn)
        self.block_upcard = p.blocked_scope == "upcard" and any(k >= 4 for k in self.blocked)
        """mexicana A3 (other reading): a natural rank blocks the pile only until the first turn ends."""
        self.track_turns = bool(self.no_discard_first) or self.block_upcard
        """The seats that have finished a turn this hand are kept (``Core.turned``)."""
        self.seat_mask = (1 << players) - 1
        empty: set[int] = set()
        for name in p.no_discard_on_empty:
            if name == "wild":
                empty.update((JK, TWO))
            elif name != "dead":
                empty.add(RANK_OF[name])
        self.no_discard_empty = frozenset(empty)
        self.no_discard_dead = "dead" in p.no_discard_on_empty
        self.no_discard_on_empty = bool(p.no_discard_on_empty)
        # pennies-from-heaven 3.4: ranks barred until every side (or the player's) has a canasta of them
        self.ban_each = frozenset(RANK_OF[b.rank] for b in p.no_discard_until_canasta if b.whose == "each_side")
        self.ban_own = frozenset(RANK_OF[b.rank] for b in p.no_discard_until_canasta if b.whose == "own_side")
        self.ban_until = bool(self.ban_each or self.ban_own)
        self.final_ban = frozenset(RANK_OF[x] for x in v.going_out.no_final_discard)
        """pennies-from-heaven 3.5: ranks that may not be the discard that goes out."""
        self.discard_bars = (bool(self.no_discard_first) or self.no_discard_on_empty
                             or self.ban_until or bool(self.final_ban))  # barred_discards
        self.take_top = p.take_top
        m = v.melds
        self.min_size = m.min_size
        self.min_nat = m.min_naturals
        self.max_wild = m.max_wild
        self.ratio = m.wild_ratio
        self.unlimited = m.unlimited_wild_on_canasta
        self.cs = m.canasta_size
        self.cmin_nat = m.canasta_min_naturals
        self.closed = m.canasta_closed
        self.past_closed = m.past_closed_going_out and self.closed
        """modern-american A5: in his going-out turn a player may add past a closed canasta's size."""
        self.past_any = self.seq_past_max or self.past_closed
        """A meld may pass its size in the going-out turn (then the player must go out)."""
        self.multi = m.multiple_per_rank
        self.new_after = m.new_after_canasta and not self.multi and self.closed
        self.natural_only = frozenset(RANK_OF[x] for x in m.natural_only)
        self.stay_natural = frozenset(RANK_OF[x] for x in m.stay_natural)
        self.wild_min_nat = m.wild_min_naturals
        self.wild_excl = m.wild_meld_exclusive
        self.dead_ranks = m.dead_ranks
        self.combine = m.combine
        self.deuce = m.deuce_melds
        """italian 4.3: a meld of deuces (kept as the meld of wild cards, ``WILD``: its deuces are its
        natural cards, its jokers its wild cards, closed at canasta size)."""
        self.deuce_excl = m.deuce_melds and m.deuce_meld_exclusive
        self.wild_melds = m.wild_melds or m.deuce_melds
        self.free_wild_melds = m.wild_melds
        """A meld of any wild cards may be formed (the planners' pool of wild cards may start one)."""
        self.wild_meld_max = m.wild_meld_max or (m.canasta_size if m.deuce_melds else BIG)
        self.no_wild = v.initial_meld.no_wild
        """italian 4.5: no wild card in the melds of a side's initial-meld turn."""
        self.card_rules = self.no_wild or self.deuce_excl
        """Where wild cards may go depends on the turn or the side's melds (``_meldrules``)."""
        self.plan_views = self.no_wild or self.deuce
        """The turn planner sees the hand through ``_plan.deuce_view`` or without its wild cards."""
        self.initial_canasta = m.initial_canasta == "always"
        self.initial_never = m.initial_canasta == "never"
        self.cap_bits = (1 if self.initial_never else 0) | (2 if self.no_wild else 0)
        """``_finish.plan_cap`` in the turn of a side's initial meld (0 after it)."""
        b = v.black_threes
        self.b3_rule = b.meld
        self.b3_never = b.meld == "never"
        self.b3_last = b.meld == "last_meld" or b.meld == "last_cards"
        self.b3_final = b.meld == "last_cards"
        self.b3_min = b.min
        self.b3_max = b.max
        self.b3_bonus = b.canasta_bonus
        self.b3_aside = b.from_pile == "set_aside"
        self.b3_aside_bonus = b.set_aside_bonus
        self.b3_faced = b.faced
        self.b3_sign = b.sign_by_canastas
        self.b3_penalty = b.in_hand_penalty
        r = v.red_threes
        self.keep_r3 = r.handling == "keep"
        self.r3_at_deal = r.dealt == "at_deal"
        self.r3_bonus = r.bonus
        self.r3_minus = r.minus_without_meld
        self.r3_minus_table = r.minus
        self.r3_penalty = r.in_hand_penalty
        self.r3_canasta = r.canasta_bonus
        self.r3_sign = r.sign_by_canastas
        self.r3_minus_rank = RANK_OF.get(r.minus_without_canasta_of, -1)
        """pennies-from-heaven 8.2: red threes minus without a canasta of this rank (-1: no such rule)."""
        # cards of a taken pile that do not come into the hand: red threes are faced (hoyle rule
        # 14), black threes set aside (cuban)
        self.from_pile_aside: tuple[int, ...] = ((() if self.keep_r3 else (R3,))
                                                 + ((B3,) if self.b3_aside or self.b3_faced else ()))
        g = v.going_out
        self.canastas_needed = g.canastas
        self.r3_per = g.red_threes_per_canasta
        """mexicana 6.2: faced red threes a side needs per canasta to go out (0: none)."""
        self.by_discard = g.by_discard
        self.no_unfinished = frozenset(WILD if x == "wild" else RANK_OF[x] for x in g.no_unfinished)
        k = g.canastas_by_kind
        self.kinds_needed: Optional[tuple[int, int, int, int]] = (
            (k.natural, k.mixed, k.wild, k.sequence) if k.natural or k.mixed or k.wild or k.sequence else None)
        self.rank_needed: tuple[tuple[int, int], ...] = tuple((RANK_OF[x.rank], x.count) for x in g.canastas_by_rank)
        """pennies-from-heaven 7.1: (rank, canastas of it) a side needs besides."""
        if self.rank_needed and self.kinds_needed is None:
            self.kinds_needed = (0, 0, 0, 0)  # the planner counts canastas required by kind or rank alike
        ck = g.counted_kinds
        self.count_all = (all(x in ck for x in ("natural", "mixed", "wild", "sequence"))
                          and ("rank" in ck or not v.scoring.rank_canastas))
        """Every kind of canasta counts toward ``going_out.canastas`` (else ``counted``)."""
        self.counted = ("natural" in ck, "mixed" in ck, "wild" in ck, "sequence" in ck, "rank" in ck)
        """natural, mixed, wild, sequence, rank (``scoring.rank_canastas``): whether it counts."""
        self.partner_down = g.partner_down_hand
        self.out_bonus = g.bonus
        self.permission = g.permission and all(len(ms) > 1 for ms in self.members)
        self.permission_required = g.permission_required and self.permission
        """brazilian 6.1: going out only after a yes."""
        self.ask_after_take = g.ask_after_take
        c = g.concealed
        self.conc_basis = c.basis
        self.conc_side = c.basis == "side"
        self.conc_no_partner = c.no_partner_melds
        self.conc_own = c.own_canasta
        self.conc_min = c.minimum
        self.conc_bonus = c.bonus
        s = v.stock_exhausted
        self.last_round = s.mode == "last_round"
        self.stock_ends = s.mode == "ends"
        """hand-and-foot 7.4: the hand ends when the player in turn finds the stock empty."""
        self.must_take = s.must_take
        self.last_r3 = s.last_red_three
        self.last_three_minus = s.last_three_minus
        sc = v.scoring
        self.nat_bonus = sc.natural_canasta
        self.mixed_bonus = sc.mixed_canasta
        self.wild_bonus = sc.wild_canasta
        self.nat_bonus_by: dict[int, int] = {RANK_OF[x.rank]: x.points for x in sc.natural_canastas
                                             if x.rank != "wild"}
        self.rank_bonus_by: dict[int, int] = {RANK_OF[x.rank]: x.points for x in sc.rank_canastas
                                              if x.rank != "wild"}
        """``scoring.rank_canastas``: canastas of these ranks, natural or mixed, are of a kind of their own."""
        self.unfinished_pen: dict[int, int] = {(WILD if x.rank == "wild" else RANK_OF[x.rank]): x.points
                                               for x in sc.unfinished_melds}
        self.held_pen: tuple[tuple[int, int, int], ...] = tuple((RANK_OF[x.rank], x.count, x.points) for x in sc.held)
        self.no_canasta_minus = sc.no_canasta_all_minus
        self.wild_bonus_by: dict[tuple[int, int], int] = {}
        for w in sc.wild_canastas:
            self.wild_bonus_by.setdefault((w.jokers, w.twos), w.bonus)
        self.wild_out_only = sc.wild_canasta_going_out_only
        """Italian 5.3: wild canasta bonuses only for the side that goes out."""
        self.canasta_sets: tuple[tuple[int, int, int, int, int], ...] = tuple(
            (x.natural, x.mixed, x.wild, x.any, x.bonus) for x in sc.canasta_sets)
        """Italian 5.4: (natural, mixed, wild, any, bonus) per line of ``scoring.canasta_sets``."""
        self.canasta_set_names: tuple[str, ...] = tuple(_set_name(x) for x in sc.canasta_sets)
        """The score row of each line: ``canasta set (5 natural)``."""
        self.target = v.game.target or BIG
        self.hands_limit = v.game.hands
        self.score_keeper = v.deal.score_keeper
        self.precise_bonus = v.deal.precise_draw_bonus
        self.precise_p = v.deal.precise_draw_probability
        self.talon = v.deal.talon
        self.down_up = (("empty_hand", "own_canasta", "side_canasta").index(v.deal.down_hand_up)
                        if self.down_size else 0)
        """When the down hand comes up: 0 when the hand is empty only; 1 also at once when the player
        completes a canasta; 2 also at once for the side when it completes its first (pennies-from-heaven A2)."""
        self.talon_aside = v.deal.talon_set_aside and any(self.talon)
        """modern-american A2 (older practice): the talon's packets set aside at the deal."""
        self.turn_card = v.deal.turn_card
        self.talon_now = v.deal.talon_when == "at_once" and any(self.talon)
        """mexicana 4.2: the talon comes the moment the side's initial meld is made (E11)."""
        self.out_gate = bool(self.r3_per or self.talon_now)
        """The turn planner's going-out plans have a most number of canastas (``_finish.out_most``)."""
        self.talon_pile = v.deal.talon_after_pile
        """mexicana A5: an initial meld made with the pile draws the talon too."""
        self.upcard_turned = v.upcard.turned
        self.buried = ("none", "rank_number", "point_value").index(v.upcard.buried)
        """Italian 2.3: 0 no packet under the upcard; 1 as many cards as its number; 2 its value."""
        self.natural_first = v.initial_meld.natural_meld_first
        im = v.initial_meld
        steps: list[tuple[int, int, int]] = []
        for st in im.steps:
            bits = 0
            for kind in st.canasta:
                bits |= _COMP_KIND[kind]
            steps.append((st.from_score, bits, st.need if bits and im.canasta_worth == "canasta" else 0))
        self.comp_steps: tuple[tuple[int, int, int], ...] = tuple(steps) if not im.by_hand else ()
        """Per step of ``initial_meld.steps``: (from, ``COMP_*`` canasta bits, points its canasta's own
        cards must count); none where the minimum goes by hand."""
        self.comp_any = self.natural_first or any(st[1] for st in self.comp_steps)
        """The initial meld has a composition to meet, checked on the turn's melds as a whole when
        the player finishes melding (see :meth:`initial_comp`)."""
        # the turn planner's going-out plans know nothing of these rules: where a variant has
        # them, a going out is checked exactly on the table's melds and never planned ahead
        self.plan_out = not (self.by_discard or self.no_unfinished or self.dead_ranks or self.natural_only
                             or self.stay_natural or self.wild_min_nat or self.wild_excl)
        self.plain = not self.plan_out or self.natural_first or self.deuce_excl or self.no_wild
        """The meld generator checks modern-american's meld rules (dead ranks, wild cards, a
        natural meld first)."""
        self.simple_out = (self.kinds_needed is None and not self.partner_down and not self.no_unfinished
                           and not self.r3_per)
        """Going out needs only a number of canastas."""
        self.no_wild_mask = 0
        for rank in self.natural_only | self.stay_natural:
            self.no_wild_mask |= 1 << rank
        self.keep_out = 2  # cards a player must hold to end a turn without going out
        # most wild cards a meld of n naturals may hold, for every n a deck allows
        self.wcap: tuple[int, ...] = tuple(self._wild_cap(n) for n in range(max(self.deck) + 8))
        self.nn_wild_ok = self.wild_cap(2) >= 1 and self.min_nat <= 2
        # a natural meld's size limit when laid (closed canastas; no canasta in an initial meld)
        self.small_cap_opening = self.cs - 1 if not self.initial_canasta else (self.cs if self.closed else BIG)
        self.small_cap = self.cs if self.closed else BIG
        self._need: dict[int, int] = {}
        self.need_by_hand: tuple[int, ...] = v.initial_meld.by_hand
        self.facade: object = None
        """The public ActionSpace of this table, set by the layer above."""
        self.native: object = None
        """The native core's rules of this table (``_backend.native_rules``): None until asked,
        False where the table runs on the Python core."""
        self.native_why = ""
        """Why the native core does not play this table ('' where it does)."""
        self._build_space()

    # ---------------------------------------------------------- meld shape

    def _wild_cap(self, naturals: int) -> int:
        if self.ratio == "any":
            return self.max_wild
        if self.ratio == "at_most_naturals":
            return min(self.max_wild, naturals)
        if self.ratio == "fewer_than_naturals":
            return min(self.max_wild, naturals - 1)
        return min(self.max_wild, naturals // 2)

    def wild_cap(self, naturals: int) -> int:
        """Most wild cards a meld with ``naturals`` naturals may hold (not a canasta)."""
        if 0 <= naturals < len(self.wcap):
            return self.wcap[naturals]
        return self._wild_cap(naturals)

    def seq_valid(self, m: Meld) -> bool:
        """Whether the sequence meld ``m`` is valid (samba 4.3, 4.4)."""
        low = (m[0] - SEQ) & 15
        return (self.seq_min <= m[1] <= self.seq_max and low >= self.seq_lo and low + m[1] - 1 <= self.seq_hi
                and m[2] + m[3] == 0)

    def is_canasta(self, m: Meld) -> bool:
        """Whether the meld ``m`` is a canasta."""
        return m[1] + m[2] + m[3] >= self.cs and (m[0] == WILD or m[1] >= self.cmin_nat)

    def valid(self, m: Meld) -> bool:
        """Whether a (new or grown) meld is valid."""
        rank, nat, jk, tw, _r3 = m
        wilds = jk + tw
        size = nat + wilds
        if rank >= SEQ:
            return self.seq_valid(m)
        if rank == WILD:
            if self.deuce:
                # italian 4.3 (A6): deuces are the meld's naturals, jokers its wild cards
                return (nat == 0 and tw >= self.min_nat and self.min_size <= size <= self.cs
                        and jk <= self.wild_cap(tw))
            return nat == 0 and self.min_size <= size <= self.wild_meld_max
        if rank == B3:
            return wilds == 0 and self.b3_min <= nat <= self.b3_max
        if nat < self.min_nat or size < self.min_size:
            return False
        if wilds and rank in self.natural_only:
            return False  # modern-american 4.4: a meld of sevens never takes a wild card
        if self.closed and size > self.cs:
            return False
        if wilds <= self.wild_cap(nat):
            return True
        # hoyle rule 25: "Wild cards in any number may be added to a completed canasta": the
        # canasta must be complete with at most the usual wild cards first.
        return self.unlimited and nat + self.wild_cap(nat) >= self.cs and nat >= self.cmin_nat

    def valid_past(self, m: Meld) -> bool:
        """Whether the group ``m``, grown past a closed canasta's size in a going-out turn
        (``melds.past_closed_going_out``), keeps the other limits of a meld."""
        rank, nat, jk, tw, _r3 = m
        wilds = jk + tw
        if rank >= SEQ or rank == WILD or rank == B3 or nat < self.min_nat:
            return False
        if wilds and rank in self.natural_only:
            return False  # modern-american 4.4
        return wilds <= self.wild_cap(nat)

    def blocks_new(self, m: Meld) -> bool:
        """Whether the side's meld ``m`` keeps it from starting another meld of the same rank:
        never where a side may hold several; with ``melds.new_after_canasta`` only until it is a
        closed canasta; otherwise always (one meld per rank)."""
        if self.multi:
            return False
        if self.new_after:
            return m[1] + m[2] + m[3] < self.cs
        return True

    def initial_need(self, score: int, hand: int = 0) -> int:
        """The initial-meld minimum for a side with cumulative ``score`` in hand number ``hand``
        (from 0; memoised)."""
        if self.need_by_hand:
            # hand-and-foot 4.5: a minimum by deal number, not by score
            by = self.need_by_hand
            return by[hand] if hand < len(by) else by[-1]
        need = self._need.get(score)
        if need is None:
            need = self.variant.initial_need(score)
            self._need[score] = need
        return need

    def initial_comp(self, score: int, hand: int = 0) -> tuple[int, int]:
        """What the initial meld of a side with cumulative ``score`` must include, whatever the
        order its melds are laid in: ``(bits, points)``, the bits ``COMP_*`` (modern-american 4.9:
        a natural meld; brazilian 7.2: a canasta of some kinds), ``points`` what that canasta's own
        cards must count (``initial_meld.canasta_worth = "canasta"``); ``(0, 0)`` for nothing."""
        bits = COMP_CLEAN if self.natural_first else 0
        points = 0
        if score >= 0:
            for st in self.comp_steps:
                if score >= st[0]:
                    # brazilian 7.2: from 7,000 the initial meld must include a canasta
                    bits = (bits & COMP_CLEAN) | st[1]
                    points = st[2]
        return (bits, points) if bits else NO_COMP

    # ---------------------------------------------------------- the action space

    def _build_space(self) -> None:
        """The dense ids: which take ways, which melds, how many melds of one rank a side can hold."""
        v = self.variant
        naturals_per_rank = self.deck[4]
        per_rank = max(1, naturals_per_rank // self.min_nat) if self.multi or self.new_after else 1
        self.max_melds_per_rank = per_rank
        specs: list[Spec] = [(DRAW, 0, 0, 0, ()), (PASS, 0, 0, 0, ()), (DONE, 0, 0, 0, ()),
                             (RETRACT, 0, 0, 0, ())]
        if v.going_out.permission:
            specs += [(ASK, 0, 0, 0, ()), (ANSWER, 1, 0, 0, ()), (ANSWER, 0, 0, 0, ())]
        if self.suited:
            specs += self._suited_specs(per_rank)
        else:
            specs += self._plain_specs(per_rank)
        self.specs: tuple[Spec, ...] = tuple(specs)
        self.size = len(specs)
        ids = {s: i for i, s in enumerate(specs)}
        self.ids: dict[Spec, int] = ids
        self.id_draw = ids[(DRAW, 0, 0, 0, ())]
        self.id_pass = ids[(PASS, 0, 0, 0, ())]
        self.id_done = ids[(DONE, 0, 0, 0, ())]
        self.id_retract = ids[(RETRACT, 0, 0, 0, ())]
        self.id_ask = ids.get((ASK, 0, 0, 0, ()), -1)
        self.id_yes = ids.get((ANSWER, 1, 0, 0, ()), -1)
        self.id_no = ids.get((ANSWER, 0, 0, 0, ()), -1)
        self.id_discard: tuple[int, ...] = tuple(ids.get((DISCARD, k, 0, 0, ()), -1) for k in range(self.hand_len))
        self.id_meld: dict[tuple[int, ...], int] = {s[4]: i for s, i in ids.items() if s[0] == MELD}
        self.id_take: dict[tuple[int, int, int], int] = {
            (s[1], s[2], s[3]): i for s, i in ids.items() if s[0] == TAKE and not s[4]}
        self.id_add: dict[tuple[int, int, int], int] = {
            (s[1], s[2], s[3]): i for s, i in ids.items() if s[0] == ADD}
        self.id_combine: dict[tuple[int, int, int], int] = {
            (s[1], s[2], s[3]): i for s, i in ids.items() if s[0] == COMBINE}
        # per rank, the three-card melds' ids: (r r r), (r r 2), (r r JK); and whether such
        # melds are valid at all in this variant (the same for every natural rank)
        self.id_trip: tuple[int, ...] = tuple(self.id_meld.get((r, r, r), -1) for r in range(N_KINDS))
        self.id_pair_two: tuple[int, ...] = tuple(self.id_meld.get((r, r, TWO), -1) for r in range(N_KINDS))
        self.id_pair_jk: tuple[int, ...] = tuple(self.id_meld.get((r, r, JK), -1) for r in range(N_KINDS))
        # per rank (and the wild rank) and meld number, the ids of adding a natural, a joker,
        # a deuce, a red three (-1 where the variant has no such addition)
        self.add_ids: tuple[tuple[tuple[int, int, int, int], ...], ...] = tuple(
            tuple((self.id_add.get((r, r, i), -1) if r != WILD else -1, self.id_add.get((JK, r, i), -1),
                   self.id_add.get((TWO, r, i), -1), self.id_add.get((R3, r, i), -1))
                  for i in range(per_rank + 2))
            for r in range(WILD + 1))
        self.trip_ok = self.valid((4, 3, 0, 0, 0))
        self.pair_wild_ok = self.nn_wild_ok and self.valid((4, 2, 0, 1, 0)) and self.valid((4, 2, 1, 0, 0))

    def _special_melds(self) -> list[tuple[int, ...]]:
        """New melds of black threes and of wild cards only, where the variant has them."""
        shapes: list[tuple[int, ...]] = []
        if not self.b3_never:
            shapes += [(B3,) * k for k in range(self.b3_min, self.b3_max + 1)]
        if self.wild_melds:
            n = self.min_size
            shapes += [(JK,) * (n - d) + (TWO,) * d for d in range(n + 1)
                       if not self.deuce or self.valid((WILD, 0, n - d, d, 0))]
        return shapes

    def _special_adds_and_combines(self, per_rank: int) -> list[Spec]:
        """Additions to the melds of black threes and of wild cards, and combinations."""
        specs: list[Spec] = []
        if not self.b3_never and self.b3_max > self.b3_min:
            specs.append((ADD, B3, B3, 1, ()))
        if self.wild_melds:
            specs += [(ADD, JK, WILD, 1, ()), (ADD, TWO, WILD, 1, ())]
        if self.combine:
            for r in RANKS:
                specs += [(COMBINE, r, i, j, ()) for i in range(1, per_rank + 1)
                          for j in range(i + 1, per_rank + 1)]
        return specs

    def _plain_specs(self, per_rank: int) -> list[Spec]:
        """Takes, melds, additions, combinations and discards of a variant without suits."""
        specs: list[Spec] = []
        ways = self.take_unfrozen | self.take_frozen
        for r in RANKS:
            if "natural_pair" in ways:
                specs.append((TAKE, r, W_PAIR, 1, ()))
            if "natural_and_wild" in ways:
                specs += [(TAKE, r, W_JOKER, 1, ()), (TAKE, r, W_TWO, 1, ())]
            if "add_to_meld" in ways:
                specs += [(TAKE, r, W_ONTO, i, ()) for i in range(1, per_rank + 1)]
        if "wild_pair" in ways:
            specs += [(TAKE, JK, W_PAIR, 1, ()), (TAKE, TWO, W_PAIR, 1, ())]
        shapes: list[tuple[int, ...]] = []
        for r in RANKS:
            shapes += [(r, r, r), (r, r, TWO), (r, r, JK)]
        shapes += self._special_melds()
        specs += [(MELD, 0, 0, 0, cards) for cards in shapes]
        add_cards = [JK, TWO]
        if self.keep_r3 and self.r3_canasta:
            add_cards.append(R3)
        for r in RANKS:
            for i in range(1, per_rank + 1):
                specs.append((ADD, r, r, i, ()))
                specs += [(ADD, c, r, i, ()) for c in add_cards]
        specs += self._special_adds_and_combines(per_rank)
        specs += [(DISCARD, k, 0, 0, ()) for k in range(N_KINDS)]
        return specs

    def _suited_specs(self, per_rank: int) -> list[Spec]:
        """The same for a variant with sequences: natural cards are named with their suits, and
        sequences are melded (three cards), added to at either end and taken onto."""
        specs: list[Spec] = []
        ways = self.take_unfrozen | self.take_frozen
        runs = self.seq_hi - self.seq_lo + 1
        per_suit = max(1, (self.deck[4] // 4) * (runs // self.seq_min))
        self.max_seq_per_suit = per_suit
        for r in RANKS:
            codes = [card_code(r, s) for s in range(4)]
            if "natural_pair" in ways:
                specs += [(TAKE, r, W_PAIR, 1, (codes[b], codes[a])) for a in range(4) for b in range(a, 4)]
            if "natural_and_wild" in ways:
                specs += [(TAKE, r, W_JOKER, 1, (codes[a], JK)) for a in range(4)]
                specs += [(TAKE, r, W_TWO, 1, (codes[a], TWO)) for a in range(4)]
            if "add_to_meld" in ways:
                specs += [(TAKE, r, W_ONTO, i, ()) for i in range(1, per_rank + 1)]
        if "add_to_meld" in ways:
            for s in range(4):
                specs += [(TAKE, SEQ + s, W_ONTO, i, ()) for i in range(1, per_suit + 1)]
        if "wild_pair" in ways:
            specs += [(TAKE, JK, W_PAIR, 1, ()), (TAKE, TWO, W_PAIR, 1, ())]
        shapes: list[tuple[int, ...]] = []
        for r in RANKS:
            codes = [card_code(r, s) for s in range(4)]
            shapes += [(codes[c], codes[b], codes[a]) for a in range(4) for b in range(a, 4) for c in range(b, 4)]
            for w in (TWO, JK):
                shapes += [(codes[b], codes[a], w) for a in range(4) for b in range(a, 4)]
        for s in range(4):
            for low in range(self.seq_lo, self.seq_hi - self.seq_min + 2):
                shapes.append(tuple(card_code(low + j, s) for j in range(self.seq_min)))
        shapes += self._special_melds()
        specs += [(MELD, 0, 0, 0, cards) for cards in shapes]
        add_cards = [JK, TWO]
        if self.keep_r3 and self.r3_canasta:
            add_cards.append(R3)
        for r in RANKS:
            for i in range(1, per_rank + 1):
                specs += [(ADD, card_code(r, s), r, i, ()) for s in range(4)]
                specs += [(ADD, c, r, i, ()) for c in add_cards]
        for s in range(4):
            for i in range(1, per_suit + 1):
                specs += [(ADD, card_code(r, s), SEQ + s, i, ()) for r in range(self.seq_lo, self.seq_hi + 1)]
        specs += self._special_adds_and_combines(per_rank)
        specs += [(DISCARD, k, 0, 0, ()) for k in range(N_CODES) if k < 4 or k >= N_KINDS]
        return specs

    def spec_id(self, spec: Spec) -> int:
        """The id of ``spec``, or -1 when the variant has no such action."""
        return self.ids.get(spec, -1)


def _set_name(line: Any) -> str:
    """The score row's name of a line of ``scoring.canasta_sets``: ``canasta set (4 natural + 1 mixed)``."""
    parts = [f"{n} {kind}" for kind, n in (("natural", line.natural), ("mixed", line.mixed), ("wild", line.wild),
                                           ("any", line.any)) if n]
    return f"canasta set ({' + '.join(parts)})"


def _way_flags(ways: frozenset[str]) -> int:
    out = 0
    for w in range(4):
        if WAY_SETTINGS[w] in ways:
            out |= 1 << w
    return out


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


def find_rules(variant: Variant, players: int) -> Optional[Rules]:
    """The compiled rules if already built, else None."""
    hit = _RULES.get((id(variant), players))
    return hit[1] if hit is not None and hit[0] is variant else None
