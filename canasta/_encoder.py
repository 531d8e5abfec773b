"""The observation's vector form for machine learning: :class:`ObservationEncoder`, its layout
(:class:`Segment`) and the counts it reads off the public history (:func:`pile_discards`).

Built on the observation values (``_observation``), the public-history reading
(``_knowledge``) and, for writing into buffers, ``_obs_native``; the environments are built
on it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple, Optional, Union

from . import _core
from ._actions import Discard, Retract, Take
from ._cards import N_CODES, N_KINDS, WILD_RANK, Card
from ._core._rules import SEQ
from ._errors import ArgumentError, integer, show
from ._fields import Phase
from ._observation import Observation

if TYPE_CHECKING:
    import numpy
    import numpy.typing as npt

    from ._state import GameState
    from ._variant import Variant

__all__ = ["ObservationEncoder", "Segment"]


class Segment(NamedTuple):
    """One named part of an encoded observation: ``vector[offset : offset + prod(shape)]``,
    row-major in ``shape``."""

    name: str
    """The segment's name (``"own_hand"``, ``"melds"``, ...)."""
    offset: int
    """Where it starts in the vector."""
    shape: tuple[int, ...]
    """Its shape; the numbers are laid out row-major in it."""

    @property
    def length(self) -> int:
        """Numbers in the segment (the product of ``shape``)."""
        n = 1
        for d in self.shape:
            n *= d
        return n


TURN_FLAGS = ("drew", "took", "asked", "answer_yes", "answer_no", "melded", "black_threes",
              "must_out", "touched_partner", "own_canasta", "no_take", "natural_meld", "count", "pending_size")
"""The entries of the ``turn`` segment, in order (``count`` is scaled by 1/100); the names of
:class:`PublicTurn`'s fields, the answer as two flags."""

NO_TARGET_SCALE = 5000
"""What the ``totals`` segment divides by in a game without a target (``game.target = 0``,
a fixed number of hands)."""

MELD_FIELDS = ("naturals", "jokers", "twos", "red_three")
"""The entries of one meld slot in the ``melds`` segment, in order."""

SUITED_CARDS: tuple[int, ...] = (0, 1, 2, 3) + tuple(range(N_KINDS, N_CODES))
"""The card codes of a suited layout's card segments (``own_hand``, ``pile_top``,
``pile_discards``), in order: joker, deuce, red three, black three, then the 44 naturals with
their suits, ``4c 4d 4h 4s 5c ... As`` (codes 15-58)."""


class ObservationEncoder:
    """A fixed-length numeric vector form of :class:`Observation` for machine learning.

    ``ObservationEncoder(variant, players)`` (a :class:`Variant` or a name) fixes the layout
    for that variant and table size; :meth:`encode` gives a list of ``size`` floats.
    Seats are relative: the observing player is seat 0, the next player clockwise seat 1,
    and so on; sides are relative too: the observer's side first, then the others in the
    order their first seat follows him clockwise. So one network can play any seat.

    The segments, in order (``P`` players, ``S`` sides, ``R`` meld ranks, ``M`` melds per
    rank); :attr:`layout` gives each one's name, offset and shape:

    | name | shape | contents |
    |---|---|---|
    | ``own_hand`` | (15,) | own hand, count per card kind |
    | ``own_down_size`` | (1,) | own down hand size (only in a variant with down hands) |
    | ``other_hand_sizes`` | (P-1,) | hand sizes, next player first |
    | ``other_down_sizes`` | (P-1,) | down hand sizes (only with down hands) |
    | ``known_cards`` | (P-1, 15) | per other seat, next player first: the cards the hand's public history shows it holds, count per card kind: cards seen taken with the pile (or shown to take it) and not seen leaving that hand since (melded, added, discarded), by the rules :meth:`GameState.resample` keeps them with (a card of a kind the player also held unseen counts once: the fewest he must still hold); all 0 where the history does not reach back to the deal |
    | ``melds`` | (S, R, M, 4) | naturals, jokers, deuces and red-three topping (0/1) of each side's melds, per rank in :attr:`meld_ranks` order; slot ``m`` is meld number ``m+1`` of that rank; melds beyond ``M`` are summed into the last slot |
    | ``red_threes`` | (S,) | red threes faced |
    | ``black_threes_aside`` | (S,) | black threes set aside from taken piles or faced (only in a variant that does either: cuban's ``black_threes.from_pile = "set_aside"``, modern-american's ``black_threes.faced``) |
    | ``opened`` | (S,) | 1 when the side has made its initial meld |
    | ``initial_need`` | (S,) | initial-meld minimum / 100 |
    | ``totals`` | (S,) | cumulative total / the game's target (5,000 in a game of a fixed number of hands, target 0) |
    | ``dealer`` | (P,) | one-hot, relative |
    | ``active`` | (P,) | 1 for seats playing this deal, relative |
    | ``melded`` | (P,) | 1 for seats that have melded this hand, relative |
    | ``took_last`` | (P,) | 1 for seats that took the pile on their last turn, relative |
    | ``pile_size`` | (1,) | cards in the pile |
    | ``pile_top`` | (15,) | one-hot of the top card (all 0: empty pile) |
    | ``pile_discards`` | (15,) | cards the history shows were discarded onto the pile since it was last taken (:func:`pile_discards`) |
    | ``frozen`` | (1,) | 1 when the pile is frozen for everyone |
    | ``stock_size`` | (1,) | cards in the stock |
    | ``phase`` | (7,) | one-hot of :class:`Phase`, in its order |
    | ``current_player`` | (P,) | one-hot, relative (all 0: nobody acts) |
    | ``turn`` | (14,) | :data:`TURN_FLAGS`: 0/1 flags (the answer as two flags; ``natural_meld`` is :attr:`PublicTurn.natural_meld`), ``count`` / 100, pending size |
    | ``last_round`` | (2,) | 1 in a last round, and the turns left in it |

    Counts are plain numbers (not scaled) unless the table says otherwise. The history is
    not in the vector except as ``known_cards`` and ``pile_discards``. The segments come in
    three groups: the hands, then the table (melds to ``took_last``, which change seldom),
    then the pile, the stock and the turn.

    **Variants with suits** (``melds.sequences``: Samba) have their own layout, derived from
    the table the same way; variants without suits keep the table above exactly. In a suited
    layout :attr:`card_codes` is :data:`SUITED_CARDS` (48 codes: ``JK``, ``2``, ``3r``, ``3b``,
    then every natural with its suit, ``4c 4d 4h 4s 5c ... As``, code order) instead of the 15
    kinds, and :attr:`suited` is True:

    | name | shape | contents |
    |---|---|---|
    | ``own_hand`` | (48,) | own hand, count per card of :attr:`card_codes` (the per-kind totals are left out: they are sums of these) |
    | ``known_cards`` | (P-1, 48) | the cards known in each other hand, per card of :attr:`card_codes` |
    | ``melds`` | (S, R, M, 4) | the groups (melds of one rank), as above |
    | ``sequences`` | (S, 4, Q, L) | right after ``melds``: each side's sequences per suit (clubs, diamonds, hearts, spades), slot ``q`` being sequence number ``q+1`` of that suit (``hearts#2`` is slot 1), as a mask over the :attr:`sequence_ranks` (``L`` ranks, four to ace in Samba): 1 for each rank the sequence holds; sequences beyond ``Q`` (:attr:`sequence_slots`) are added into the last slot |
    | ``pile_top`` | (48,) | one-hot of the top card among :attr:`card_codes` |
    | ``pile_discards`` | (48,) | the discards onto the current pile, per card of :attr:`card_codes` |

    and every other segment as in the table above. Samba with four players has
    ``S = 2``, ``R = 12`` (black threes, four to ace), ``M = 6``, ``Q = 9``, ``L = 11``: a vector of
    1,713 numbers (792 of them the ``sequences``). Bolivia and Brazilian have wild-card melds
    too (their ``WILD_RANK`` row of ``melds``: ``R = 13``): 1,761 numbers with four players. A
    mask holds a sequence of any length (Brazilian lets one pass seven cards in the turn its
    player goes out), each of its ranks marked once.

    :meth:`encode_array` and :meth:`encode_batch` give numpy arrays (``float32``) instead of
    lists; numpy is needed only for them (``pip install "canasta[rl]"``).

    The layout is versioned like an environment: :attr:`LAYOUT_VERSION` is bumped whenever
    the vector of some observation changes (a segment added, removed, moved, resized, or its
    contents or scaling changed), so a network trained on one version is never silently fed
    another. Sizes that follow from the variant and table (``P``, ``S``, ``R``, ``M``) are
    part of the layout, not of its version: compare :attr:`size` too.
    """

    LAYOUT_VERSION = 2
    """The version of the vector layout (see above); version 2 is the table above (and, for
    variants with suits, the suited layout described with it). Version 1 had no
    ``known_cards`` and ``black_threes_aside`` segments, a ``turn`` of 13 entries (no
    ``natural_meld``), and ``dealer``, ``active``, ``melded`` and ``took_last`` after
    ``current_player``."""

    def __init__(self, variant: Union["Variant", str], players: int) -> None:
        from ._variant import Variant
        from ._variant_load import load_variant

        if isinstance(variant, (str, os.PathLike)):
            variant = load_variant(variant)
        elif not isinstance(variant, Variant):
            raise ArgumentError("variant", f"expected a Variant or a variant's name, not {show(variant)}")
        players = integer(players, "players")
        table = variant.table(players)
        self.variant = variant
        """The variant the layout is for."""
        self.players = players
        """The table size the layout is for."""
        letters = sorted(set(table.sides))
        self.side_of: tuple[int, ...] = tuple(letters.index(ch) for ch in table.sides)
        """Each absolute seat's side."""
        self.sides = len(letters)
        """Number of sides."""
        self.down_hands = table.down_hand_size > 0
        """Whether the layout has the down-hand segments."""
        from ._knowledge import known_cards

        R = _core.rules_for(variant, players)
        self._rules = R
        self._known_cards = known_cards
        self.black_threes_aside: bool = bool(R.b3_aside or R.b3_faced)
        """Whether the layout has the ``black_threes_aside`` segment (black threes set aside from
        taken piles, or faced)."""
        self.max_melds_per_rank: int = R.max_melds_per_rank
        """Meld slots per rank and side (``M``)."""
        self.suited: bool = R.suited
        """Whether the variant's cards carry suits (the suited layout: see above)."""
        self.card_codes: tuple[int, ...] = SUITED_CARDS if R.suited else tuple(range(N_KINDS))
        """The card codes of the ``own_hand``, ``pile_top`` and ``pile_discards`` entries, in
        order: the 15 kinds, or in a suited layout :data:`SUITED_CARDS`."""
        self._card_index = {c: i for i, c in enumerate(self.card_codes)}
        self.sequence_slots: int = R.max_seq_per_suit if R.suited else 0
        """Sequence slots per suit and side in the ``sequences`` segment (``Q``; 0 without
        suits)."""
        self.sequence_ranks: tuple[int, ...] = tuple(range(R.seq_lo, R.seq_hi + 1)) if R.suited else ()
        """The ranks of a sequence mask, in order (``L`` of them; empty without suits)."""
        ranks: list[int] = []
        if variant.black_threes.meld != "never":
            ranks.append(int(Card.BLACK_THREE))
        ranks += list(range(4, 15))
        if variant.melds.wild_melds or variant.melds.deuce_melds:
            ranks.append(WILD_RANK)  # a meld of wild cards only, or of deuces (italian 4.3)
        self.meld_ranks: tuple[int, ...] = tuple(ranks)
        """The meld ranks of the ``melds`` segment, in order (``WILD_RANK`` for wild melds)."""
        self._rank_index = {r: i for i, r in enumerate(ranks)}
        self._target = variant.game.target or NO_TARGET_SCALE
        p, s = players, self.sides
        nc = len(self.card_codes)
        shapes: list[tuple[str, tuple[int, ...]]] = [("own_hand", (nc,))]
        if self.down_hands:
            shapes.append(("own_down_size", (1,)))
        shapes.append(("other_hand_sizes", (p - 1,)))
        if self.down_hands:
            shapes.append(("other_down_sizes", (p - 1,)))
        shapes += [
            ("known_cards", (p - 1, nc)),
            ("melds", (s, len(ranks), self.max_melds_per_rank, len(MELD_FIELDS)))]
        if self.suited:
            shapes.append(("sequences", (s, 4, self.sequence_slots, len(self.sequence_ranks))))
        shapes.append(("red_threes", (s,)))
        if self.black_threes_aside:
            shapes.append(("black_threes_aside", (s,)))
        shapes += [
            ("opened", (s,)), ("initial_need", (s,)), ("totals", (s,)),
            ("dealer", (p,)), ("active", (p,)), ("melded", (p,)), ("took_last", (p,)),
            ("pile_size", (1,)), ("pile_top", (nc,)), ("pile_discards", (nc,)),
            ("frozen", (1,)), ("stock_size", (1,)), ("phase", (len(Phase),)),
            ("current_player", (p,)), ("turn", (len(TURN_FLAGS),)), ("last_round", (2,)),
        ]
        layout = []
        offset = 0
        for name, shape in shapes:
            seg = Segment(name, offset, shape)
            layout.append(seg)
            offset += seg.length
        self.layout: tuple[Segment, ...] = tuple(layout)
        """Every segment of the vector as ``(name, offset, shape)``, contiguous, in order."""
        self.size = offset
        """The length of every encoded vector."""
        self._by_name = {seg.name: seg for seg in layout}

    def segment(self, name: str) -> Segment:
        """The segment called ``name`` (an :class:`ArgumentError` if the layout has none)."""
        seg = self._by_name.get(name) if isinstance(name, str) else None
        if seg is None:
            raise ArgumentError("name", f"no segment {show(name)} in this layout; segments: "
                                + ", ".join(self._by_name))
        return seg

    def split(self, vector: Any) -> dict[str, list[float]]:
        """Cut an encoded vector into its segments (flat lists, row-major), by name.

        Raises :class:`ArgumentError` for a vector that is not a sequence of ``size`` items."""
        try:
            n = len(vector)
            vector[0:0]
        except TypeError:
            raise ArgumentError("vector", f"expected a sequence of {self.size} numbers, not {show(vector)}") from None
        if n != self.size:
            raise ArgumentError("vector", f"expected a vector of {self.size} numbers, not {n}")
        return {seg.name: list(vector[seg.offset: seg.offset + seg.length]) for seg in self.layout}

    def relative_sides(self, seat: int) -> tuple[int, ...]:
        """The absolute sides in the vector's order for an observer at ``seat``
        (:class:`ArgumentError` for a seat not at the table)."""
        seat = integer(seat, "seat", 0, self.players - 1)
        order: list[int] = []
        for k in range(self.players):
            side = self.side_of[(seat + k) % self.players]
            if side not in order:
                order.append(side)
        return tuple(order)

    def encode(self, obs: Observation) -> list[float]:
        """The observation as ``size`` floats laid out as :attr:`layout` says.

        Raises :class:`ArgumentError` (a ``ValueError``) for an observation of another variant
        or table size, or a value that is not an :class:`Observation`.
        """
        if not isinstance(obs, Observation):
            raise ArgumentError("obs", f"expected an Observation, not {show(obs)}")
        if obs.variant != self.variant.name or obs.players != self.players:
            raise ArgumentError("obs", f"this encoder is for {self.variant.name} with {self.players} "
                                f"players, not {obs.variant} with {obs.players}")
        hand_len = 59 if self.suited else 15
        if not isinstance(obs.hand, tuple) or len(obs.hand) != hand_len:
            raise ArgumentError("obs", f"not an observation play can give: its hand has "
                                f"{len(obs.hand) if isinstance(obs.hand, tuple) else show(obs.hand)} counts, "
                                f"not {hand_len}")
        try:
            out = self._encode(obs)
        except (ValueError, TypeError, IndexError, KeyError, AttributeError, ZeroDivisionError) as e:
            # (an Observation is a plain value anyone can build: a malformed one fails somewhere)
            raise ArgumentError("obs", f"not an observation play can give ({type(e).__name__}: {e})") from e
        if len(out) != self.size:
            raise ArgumentError("obs", f"not an observation play can give: it encodes to {len(out)} "
                                f"numbers, not {self.size}")
        return out

    def _encode(self, obs: Observation) -> list[float]:
        p = self.players
        me = obs.seat
        seats = [(me + k) % p for k in range(p)]
        sides = self.relative_sides(me)
        out: list[float] = []
        hand = obs.hand
        out += [float(hand[c]) for c in self.card_codes]
        if self.down_hands:
            out.append(float(obs.down_hand_size))
        out += [float(obs.hand_sizes[s]) for s in seats[1:]]
        if self.down_hands:
            out += [float(obs.down_hand_sizes[s]) for s in seats[1:]]
        known = self._known_cards(obs, self._rules)
        for s in seats[1:]:
            out += [float(known[s][c]) for c in self.card_codes]
        out += self._melds(obs, sides)
        if self.suited:
            out += self._sequences(obs, sides)
        out += [float(obs.red_threes[s]) for s in sides]
        if self.black_threes_aside:
            aside = obs.black_threes_aside or (0,) * len(obs.totals)
            out += [float(aside[s]) for s in sides]
        out += [float(obs.opened[s]) for s in sides]
        out += [obs.initial_need[s] / 100.0 for s in sides]
        out += [obs.totals[s] / self._target for s in sides]
        out += _one_hot(p, (obs.dealer - me) % p)
        active = set(obs.active)
        out += [float(s in active) for s in seats]
        out += [float(obs.melded[s]) for s in seats]
        out += [float(obs.took_last[s]) for s in seats]
        out.append(float(obs.pile_size))
        out += _one_hot(len(self.card_codes), None if obs.pile_top is None else self._card_index[obs.pile_top])
        discards = pile_discards(obs)
        out += [float(discards[c]) for c in self.card_codes]
        out.append(float(obs.frozen))
        out.append(float(obs.stock_size))
        out += _one_hot(len(Phase), list(Phase).index(obs.phase))
        cur = obs.current_player
        out += _one_hot(p, None if cur is None else (cur - me) % p)
        t = obs.turn
        out += [float(t.drew), float(t.took), float(t.asked), float(t.answer is True),
                float(t.answer is False), float(t.melded), float(t.black_threes),
                float(t.must_out), float(t.touched_partner), float(t.own_canasta),
                float(t.no_take), float(t.natural_meld), t.count / 100.0, float(t.pending_size)]
        out += [float(obs.last_turns >= 0), float(max(obs.last_turns, 0))]
        return out

    def encode_array(self, obs: Observation) -> npt.NDArray[numpy.float32]:
        """The observation as a numpy ``float32`` array of shape ``(size,)``: :meth:`encode`
        as an array (the same numbers, rounded to ``float32``). Needs numpy.

        Raises :class:`ArgumentError` (a ``ValueError``) like :meth:`encode`.
        """
        vector = self.encode(obs)  # (the arguments are checked whether numpy is installed or not)
        import numpy

        return numpy.array(vector, dtype=numpy.float32)

    def encode_into(self, state: "GameState", seat: int, out: Any, mask: Any = None) -> None:
        """Write the vector of ``state`` seen from ``seat`` straight into ``out``, and the
        state's legal-action mask into ``mask`` (if given, else None): the numbers of
        :meth:`encode` of ``state.observation(seat)`` and of ``state.legal_action_mask()``,
        without building the observation. On the native core both are computed natively and
        nothing is allocated; on the Python core they come from :meth:`encode`.

        ``out`` is any writable, contiguous buffer of :attr:`size` ``float32`` numbers (a numpy
        array, ``array.array("f")``, or a ``bytearray`` of ``4 * size`` bytes); ``mask`` one
        of as many one-byte numbers as the action space has ids (``int8``, ``uint8`` or
        ``bool``: a numpy array, ``bytearray``, ``array.array("b")``). It reads the state's
        history from the deal, as states dealt by :func:`new_game` or
        :meth:`GameState.next_hand` and played on hold it (the environments' states): for a
        position loaded mid-hand use :meth:`encode`.

        Raises :class:`ArgumentError` (a ``ValueError``) for a buffer of another type or
        length or a read-only one, a state of another variant or table size, or a seat not at
        the table.
        """
        writer = self.__dict__.get("_writer")
        if writer is None:
            from ._obs_native import Writer

            writer = self._writer = Writer(self)
        writer.write(state, seat, out, mask)

    def encode_batch(self, observations: Iterable[Observation]) -> npt.NDArray[numpy.float32]:
        """Many observations at once: a ``float32`` array of shape ``(n, size)`` whose row
        ``i`` is :meth:`encode_array` of the ``i``-th observation (``(0, size)`` for none).
        Needs numpy.

        Raises :class:`ArgumentError` (a ``ValueError``) if any observation is of another
        variant or table size, or is not an :class:`Observation`.
        """
        if isinstance(observations, Observation) or not isinstance(observations, Iterable):
            raise ArgumentError("observations", f"expected an iterable of Observations, not {show(observations)}")
        rows = [self.encode(o) for o in observations]
        import numpy

        if not rows:
            return numpy.zeros((0, self.size), dtype=numpy.float32)
        return numpy.array(rows, dtype=numpy.float32)

    def _melds(self, obs: Observation, sides: tuple[int, ...]) -> list[float]:
        m = self.max_melds_per_rank
        nr = len(self.meld_ranks)
        width = len(MELD_FIELDS)
        out = [0.0] * (len(sides) * nr * m * width)
        for si, side in enumerate(sides):
            seen: dict[int, int] = {}
            for meld in obs.melds[side]:
                ri = self._rank_index.get(meld.rank)
                if ri is None:  # pragma: no cover - the engine makes no such meld
                    continue
                slot = min(seen.get(meld.rank, 0), m - 1)
                seen[meld.rank] = seen.get(meld.rank, 0) + 1
                base = ((si * nr + ri) * m + slot) * width
                out[base] += meld.naturals
                out[base + 1] += meld.jokers
                out[base + 2] += meld.twos
                out[base + 3] = max(out[base + 3], float(meld.red_three))
        return out


    def _sequences(self, obs: Observation, sides: tuple[int, ...]) -> list[float]:
        q = self.sequence_slots
        width = len(self.sequence_ranks)
        lo = self.sequence_ranks[0]
        out = [0.0] * (len(sides) * 4 * q * width)
        for si, side in enumerate(sides):
            seen = [0, 0, 0, 0]
            for meld in obs.melds[side]:
                if meld.rank < SEQ:
                    continue
                suit = meld.rank - SEQ
                slot = min(seen[suit], q - 1)
                seen[suit] += 1
                base = ((si * 4 + suit) * q + slot) * width - lo
                low = getattr(meld, "low", 0)
                if meld.naturals < 1 or low < lo or low + meld.naturals - 1 > self.sequence_ranks[-1]:
                    # (a hand-built meld: its marks would land in another slot)
                    raise ValueError(f"a sequence of {meld.naturals} cards from rank {low} is not within "
                                     f"ranks {lo} to {self.sequence_ranks[-1]}")
                for r in range(low, low + meld.naturals):
                    out[base + r] += 1.0
        return out


def _one_hot(n: int, index: Optional[int]) -> list[float]:
    v = [0.0] * n
    if index is not None:
        v[index] = 1.0
    return v


def pile_discards(obs: Observation) -> tuple[int, ...]:
    """Counts per kind of the cards the history shows were discarded onto the current pile
    (in a variant with suits, per card code: 59 counts, the suited naturals at 15-58).

    Cards dealt into the pile (the upcard and any card covering it) are not counted: only
    the top card of the pile is seen, and only discards are announced.
    """
    n = len(obs.hand)
    known = [0] * n
    saved: list[int] = known
    for ev in obs.history:
        a = ev.action
        if isinstance(a, Discard):
            known[a.card] += 1
        elif isinstance(a, Take):
            saved, known = known, [0] * n
        elif isinstance(a, Retract):
            known = list(saved)
    return tuple(known)
