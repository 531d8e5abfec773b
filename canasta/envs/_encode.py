"""The vector forms of a state, written fast: an observer's observation vector
(:class:`StateEncoder`, the numbers of :meth:`~canasta.ObservationEncoder.encode_array` made
straight from the state), the legal-action mask (:func:`mask_of`) and the full state for
centralised critics (:class:`StateLayout`).

Built on :mod:`canasta._encoder` (the layout), :mod:`canasta._knowledge` (the reading of a
hand's public history) and :mod:`canasta._state`; built upon by :mod:`canasta.envs._common` and
the adapters. Private: :class:`StateLayout` and :data:`STATE_LAYOUT_VERSION` are re-exported by
:mod:`canasta.envs`.
"""

from __future__ import annotations

import struct
from operator import itemgetter
from typing import Any, Callable, Optional, Sequence, TypeAlias

import numpy as np
import numpy.typing as npt

from .._actions import Add, Discard, Done, Meld, Retract, Take
from .._cards import N_KINDS
from .._core._rules import SEQ
from .._core._kernel import PH_INITIAL_TAKE as _PH_INITIAL_TAKE
from .._core._kernel import pile_cards
from .._encoder import ObservationEncoder
from .._knowledge import Reading
from .._state import GameState
from .._newgame import new_game


Float32Array: TypeAlias = "npt.NDArray[np.float32]"
Int8Array: TypeAlias = "npt.NDArray[np.int8]"


_TAKE = -2
_RETRACT = -3
_OTHER = -1
_F32 = np.float32
_frombuffer = np.frombuffer


class _View:
    """(private) One observer's last vector and what it was made from: the parts that changed
    since are written over it."""

    __slots__ = ("buf", "mv", "kv", "kr", "pending", "rows", "melds", "sides", "seat_part")

    def __init__(self, size: int, n_sides: int, players: int) -> None:
        self.buf = bytearray(4 * size)
        self.mv = memoryview(self.buf)
        """``buf`` without copying (never resized)."""
        self.kv = -1
        """The reading's version its ``known_cards`` rows were written at (-1: zeros)."""
        self.kr = -1
        """The reading they were written from (its number)."""
        self.pending = -2
        """The seat whose known cards lack a pile set aside (see ``StateEncoder._known``), -2: none."""
        self.rows: list[Any] = [None] * players
        self.melds: list[Any] = [None] * n_sides
        self.sides: Any = None
        self.seat_part: Any = None


class _Sizes(dict[bytes, int]):
    """Cards in a core hand, by the hand (kept: a hand is looked up at every call for every
    observer, and changes only when its owner acts)."""

    __slots__ = ("size",)

    def __init__(self, size: Callable[[bytes], int]) -> None:
        super().__init__()
        self.size = size

    def __missing__(self, hand: bytes) -> int:
        if len(self) > 100000:
            self.clear()
        n = self[hand] = self.size(hand)
        return n


# what a history action does to the encoder's reading (see StateEncoder._advance)
_NOTHING, _READ, _DISCARD, _TAKE_READ, _RETRACT_READ = range(5)


class StateEncoder:
    """:meth:`ObservationEncoder.encode_array` of ``state.observation(seat)``, computed straight
    from the state (no :class:`Observation` is built): the same numbers, several times faster.

    The encoder keeps each observer's last vector (as ``float32`` bytes) and writes over it
    only what changed since: the hands, the pile and the turn at every call, the table's
    segments (``known_cards`` to ``took_last``) when the tuples they come from changed (each
    side's melds block is made once per melds tuple for every observer, and a meld laid or
    grown rewrites one slot of it). The cards known in the other hands and the discards onto
    the pile are read from the hand's history one new action per call (an episode goes
    forward; a state off that line reads its hand's history from the deal).
    ``tests/test_envs.py`` checks that both forms agree on playouts of every variant, the
    states visited in and out of order.

    It reads states dealt by :func:`~canasta.new_game` or :meth:`~canasta.GameState.next_hand`
    and played on (their history reaches back to the deal), as the environments make them.
    """

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.encoder = encoder
        p = encoder.players
        self.players = p
        self.size = encoder.size
        self.down_hands = encoder.down_hands
        self.target = encoder.variant.game.target or 5000  # totals / target; a game of fixed deals: / 5000
        self.seats = tuple(tuple((me + k) % p for k in range(p)) for me in range(p))
        self.rel_sides = tuple(encoder.relative_sides(me) for me in range(p))
        self.m = encoder.max_melds_per_rank
        self.nr = len(encoder.meld_ranks)
        self.rank_index = {r: i for i, r in enumerate(encoder.meld_ranks)}
        n_phases = encoder.segment("phase").length
        probe = new_game(encoder.variant, p, seed=0)
        self.R = probe._rules
        space = probe.action_space
        self.actions = space.actions
        self.suited = encoder.suited
        codes = encoder.card_codes
        self.codes = codes
        nc = len(codes)
        self.n_cards = nc
        """The card entries of ``own_hand``, ``pile_top``, ``pile_discards`` (15 kinds; 48 codes
        in a suited layout)."""
        index = {c: i for i, c in enumerate(codes)}
        kinds = []
        steps = []
        for a in space.actions:
            if isinstance(a, Discard):
                kinds.append(index[int(a.card)])  # its entry in ``pile_discards``
                steps.append(_DISCARD)
            elif isinstance(a, Take):
                kinds.append(_TAKE)
                steps.append(_TAKE_READ)
            elif isinstance(a, Retract):
                kinds.append(_RETRACT)
                steps.append(_RETRACT_READ)
            else:
                kinds.append(_OTHER)
                # draws, asks, answers, passes and combines move no card the history shows: they
                # change nothing of the reading but the seats that began a turn, which the
                # encoder does not read
                steps.append(_READ if isinstance(a, (Meld, Add, Done)) else _NOTHING)
        self.kinds = tuple(kinds)
        self.steps = tuple(steps)
        self.no_melds = bytes(4 * self.nr * self.m * 4)
        n_sides = encoder.sides
        self.n_sides = n_sides
        self.aside = encoder.black_threes_aside
        self.own_cards: Callable[[Any], Any] = _getter(list(codes)) if self.suited else _same
        """A core hand's entries of ``own_hand``."""
        self.hand_size: Callable[[bytes], int] = _size_suited if self.suited else sum
        """Cards in a core hand (a suited hand's per-kind counts only)."""
        self._sizes = _Sizes(self.hand_size)
        self.plain = not self.suited and not self.down_hands
        head_n = nc + (p - 1) + (p if self.down_hands else 0)
        self.head = struct.Struct(f"<{head_n}f")
        """own hand (15 kinds, or 48 codes), [own down size], other hand sizes, [other down sizes]"""
        self.q = encoder.sequence_slots
        self.seq_ranks = encoder.sequence_ranks
        self.no_sequences = bytes(4 * 4 * self.q * len(self.seq_ranks))
        self.size_getters = tuple(_getter(list(self.seats[me][1:])) for me in range(p))
        """Per observer, the other seats' items of a per-seat tuple, next seat first."""
        per_side = 5 if self.aside else 4
        self.side_getters = tuple(
            _getter([k * n_sides + side for k in range(per_side) for side in self.rel_sides[me]]) for me in range(p))
        self.sides_pack = struct.Struct(f"<{per_side * n_sides}f")
        self.seat_getters = tuple(_getter([k * p + s for k in range(3) for s in self.seats[me]]) for me in range(p))
        self.seats_pack = struct.Struct(f"<{3 * p}f")
        self.row_pack = struct.Struct(f"<{nc}f")
        self.four = struct.Struct("<4f")
        self.num = tuple(struct.pack("<f", i) for i in range(sum(_deck_of(encoder)) + 1))
        """``num[i]``: the number ``i`` packed (the counts of cards: pile, stock, a flag)."""
        self.top_hot = {k: _hot_bytes(nc, index.get(k, -1)) for k in [-1, *codes]}
        self.phase_hot = tuple(_hot_bytes(n_phases, k) for k in range(n_phases))
        self.seat_hot = tuple(tuple(_hot_bytes(p, -1 if s < 0 else (s - me) % p) for s in range(-1, p))
                              for me in range(p))
        self.turn_flags = _turn_bits()
        self.flags_pack = struct.Struct(f"<{len(self.turn_flags)}f")
        self.counts_pack = struct.Struct(f"<{nc}f")
        # byte offsets of the parts written separately
        seg = encoder.segment
        self.at_head_end = 4 * head_n
        self.at_known = 4 * seg("known_cards").offset
        self.row_bytes = 4 * nc
        self.at_melds = 4 * seg("melds").offset
        self.melds_bytes = len(self.no_melds)
        self.at_sequences = 4 * seg("sequences").offset if self.suited else 0
        self.sequences_bytes = len(self.no_sequences)
        self.at_sides = 4 * seg("red_threes").offset
        self.at_dealer = 4 * seg("dealer").offset
        self.at_seats = 4 * seg("active").offset
        self.at_pile = 4 * seg("pile_size").offset
        self.at_turn = 4 * seg("phase").offset
        self._views: list[Optional[_View]] = [None] * p
        self._turns: dict[tuple[int, ...], bytes] = {}
        self._side_parts: dict[tuple[Any, ...], bytes] = {}
        self._seat_parts: dict[tuple[Any, ...], bytes] = {}
        self._blocks: list[Optional[tuple[Any, bytearray, list[int]]]] = [None] * n_sides
        """Per side, the last melds block made: (melds, block, byte offset of each meld's slot)."""
        self._meld_packs: dict[tuple[int, ...], bytes] = {}
        self._rows: dict[tuple[int, ...], bytes] = {}
        self._no_row = bytes(4 * nc)
        self._empty_discards = self.counts_pack.pack(*(0,) * nc)
        # the line of play read so far: the last history link read, the reading of the hand's
        # public history up to it, and the discards onto the pile (counts, counts before the
        # last take, packed)
        self._link: Any = None
        self._reading: Optional[Reading] = None
        self._readings = 0
        """Readings started (a key of what is kept of a reading, with its versions)."""
        self._disc: list[int] = [0] * nc
        self._disc_saved: list[int] = [0] * nc
        self._disc_packed: Optional[bytes] = self._empty_discards

    def encode(self, state: GameState, seat: int) -> Float32Array:
        """The vector of ``state`` seen from ``seat`` (a new, writable ``float32`` array)."""
        return _frombuffer(self.view(state, seat)[:], _F32)

    def encode_bytes(self, state: GameState, seat: int) -> bytearray:
        """The vector of ``state`` seen from ``seat`` as its ``float32`` bytes (a new bytearray)."""
        return self.view(state, seat)[:]

    def view(self, state: GameState, seat: int) -> bytearray:
        """The vector of ``state`` seen from ``seat`` as its ``float32`` bytes: the encoder's own
        buffer for that observer, overwritten by the next call for him (copy it to keep it)."""
        c = state._c
        v = self.table(c, seat)
        buf = v.buf
        if self.plain:
            hands = c.hands
            buf[: self.at_head_end] = self.head.pack(*hands[seat], *map(self._sizes.__getitem__,
                                                                        self.size_getters[seat](hands)))
        else:
            self._head(buf, c, seat)
        buf[self.at_pile:] = self.tail(c, seat)
        return buf

    def tail(self, c: Any, seat: int) -> bytes:
        """The segments from ``pile_size`` to the end (the pile, the stock, the turn), packed,
        of the core ``c`` seen from ``seat`` (after :meth:`table` read its history)."""
        disc = self._disc_packed
        if disc is None:
            disc = self._disc_packed = self.counts_pack.pack(*self._disc)
        pile = c.pile
        num = self.num
        key = (seat, c.player, c.phase, c.flags, c.count, len(c.pending), c.last_turns)
        turn = self._turns.get(key)
        if turn is None:
            turn = self._turn_part(key)
        return b"".join((num[c.pile_n], self.top_hot[-1 if pile is None else pile[0]], disc, num[c.frozen],
                         num[c.stock_n], turn))

    def table(self, c: Any, seat: int) -> _View:
        """The observer's view with its table segments (``known_cards`` to ``took_last``) brought
        up to the core ``c``: the history read on, and what changed written over."""
        v = self._views[seat]
        if v is None:
            v = self._views[seat] = _View(self.size, self.n_sides, self.players)
        # the history: read on (one new action, usually)
        link = c.history
        last = self._link
        if link is not last:
            if link is not None and last is not None and link[1] is last:
                aid = link[0]
                step = self.steps[aid]
                if step:
                    self._read(link, aid, step)
                self._link = link
            else:
                self._advance(link)
        r = self._reading
        if r is None:
            if v.kv >= 0:
                at = self.at_known
                v.buf[at: at + (self.players - 1) * self.row_bytes] = self._no_row * (self.players - 1)
                v.kv = -1
                v.rows = [None] * self.players
        else:
            # while a pile is set aside (new-canasta), its cards are not yet in the taker's
            # known cards: his row then differs from the same version's row at other times
            aside = (c.phase == _PH_INITIAL_TAKE or bool(c.pending)) and bool(r.take_rest) and r.last_taker >= 0
            pending = r.last_taker if aside else -2
            if v.kv != r.version or v.kr != self._readings or v.pending != pending:
                self._known(v, r, seat, pending)
        melds = c.melds
        vm = v.melds
        if self.n_sides == 2:
            s0, s1 = self.rel_sides[seat]
            if vm[0] != melds[s0] or vm[1] != melds[s1]:
                self._melds(v, melds, seat)
        else:
            for i, side in enumerate(self.rel_sides[seat]):
                if vm[i] != melds[side]:
                    self._melds(v, melds, seat)
                    break
        d = c.d
        part = v.sides
        if part is None or part[0] != c.red or part[1] != c.totals or part[2] != c.opened \
                or part[3] is not d or part[4] != c.aside:
            self._sides(v, c, seat)
        part = v.seat_part
        if part is None or part[0] != c.melded or part[1] != c.took_last or part[2] is not d:
            self._seat_part(v, c, seat)
        return v

    def _head(self, buf: bytearray, c: Any, seat: int) -> None:
        """Write ``own_hand`` to ``other_down_sizes`` (a layout with suits or down hands)."""
        hands = c.hands
        size = self._sizes.__getitem__
        others = self.size_getters[seat]
        if self.down_hands:
            downs = c.downs
            buf[: self.at_head_end] = self.head.pack(*self.own_cards(hands[seat]), size(downs[seat]),
                                                     *map(size, others(hands)), *map(size, others(downs)))
        else:
            buf[: self.at_head_end] = self.head.pack(*self.own_cards(hands[seat]), *map(size, others(hands)))

    def _read(self, link: Any, aid: int, step: int) -> None:
        """Read one more action of the history (``link``), which moves cards the history shows."""
        r = self._reading
        assert r is not None
        r.read(link[2], self.actions[aid])
        if step == _DISCARD:
            self._disc[self.kinds[aid]] += 1
            self._disc_packed = None
        elif step == _TAKE_READ:
            self._disc_saved = self._disc
            self._disc = [0] * self.n_cards
            self._disc_packed = None
        elif step == _RETRACT_READ:  # a retracted take: the discards come back
            self._disc = list(self._disc_saved)
            self._disc_packed = None

    def _advance(self, link: Any) -> None:
        """Read the hand's history up to ``link``: on from the last link read when ``link``
        follows it, else from the deal."""
        if link is None:
            self._link = None
            self._reading = None
            self._disc = [0] * self.n_cards
            self._disc_saved = list(self._disc)
            self._disc_packed = self._empty_discards
            return
        last = self._link
        chain = []
        node = link
        while node is not None and node is not last:
            chain.append(node)
            node = node[1]
        chain.reverse()
        if node is None or last is None:  # another line of play: from the deal
            self._reading = Reading(self.R, self.R.side_of)
            self._readings += 1
            self._disc = [0] * self.n_cards
            self._disc_saved = list(self._disc)
            self._disc_packed = None
        steps = self.steps
        for node in chain:
            aid = node[0]
            step = steps[aid]
            if step:
                self._read(node, aid, step)
        self._link = link

    def reading(self, c: Any) -> Optional[Reading]:
        """The hand's public history read up to the state of ``c`` (None: no action yet)."""
        if c.history is not self._link:
            self._advance(c.history)
        return self._reading

    def _known(self, v: _View, r: Reading, seat: int, pending: int) -> None:
        """Write the ``known_cards`` rows that changed since the observer's last vector;
        ``pending``: the seat whose pile is set aside (its row lacks that pile), -2: none."""
        if pending != v.pending or v.kr != self._readings:
            v.rows = [None] * self.players
            v.pending = pending
        known = r.known_now(True) if pending >= 0 else r.known
        versions = r.versions
        rows = v.rows
        buf = v.buf
        at = self.at_known
        n = self.row_bytes
        readings = self._readings
        for s in self.seats[seat][1:]:
            version = versions[s]
            if rows[s] != version:
                key = (readings, s, version, s == pending)
                packed = self._rows.get(key)
                if packed is None:
                    if len(self._rows) > 8192:
                        self._rows.clear()
                    row = known[s]
                    packed = self._rows[key] = self.row_pack.pack(*(row if not self.suited
                                                                    else [row[k] for k in self.codes]))
                buf[at: at + n] = packed
                rows[s] = version
            at += n
        v.kv = r.version
        v.kr = readings

    def _melds(self, v: _View, melds: Any, seat: int) -> None:
        """Write the ``melds`` (and ``sequences``) blocks of the sides whose melds changed."""
        buf = v.buf
        vm = v.melds
        n = self.melds_bytes
        for i, side in enumerate(self.rel_sides[seat]):
            side_melds = melds[side]
            if vm[i] == side_melds:
                continue
            at = self.at_melds + i * n
            buf[at: at + n] = self._block(side, side_melds) if side_melds else self.no_melds
            if self.suited:
                q = self.sequences_bytes
                at = self.at_sequences + i * q
                buf[at: at + q] = self._sequences(side_melds)
            vm[i] = side_melds

    def _block(self, side: int, side_melds: Any) -> bytearray:
        """The ``melds`` block of one side (``R * M * 4`` numbers): the side's last block with the
        slot of a meld laid or grown since rewritten, or made anew."""
        last = self._blocks[side]
        if last is not None:
            old, block, slots = last
            if old == side_melds:
                return block
            n = len(old)
            if len(side_melds) == n + 1 and side_melds[:n] == old:  # (meld tuples: == checks identity first)
                meld = side_melds[n]
                ri = self.rank_index.get(meld[0])
                number = sum(1 for m in old if m[0] == meld[0])
                if ri is not None and number < self.m:
                    at = (ri * self.m + number) * 16
                    block[at: at + 16] = self._meld_pack(meld)
                    slots.append(at)
                    self._blocks[side] = (side_melds, block, slots)
                    return block
            elif len(side_melds) == n:
                changed = [i for i in range(n) if side_melds[i] != old[i]]
                if len(changed) == 1:
                    i = changed[0]
                    if side_melds[i][0] == old[i][0] and slots[i] >= 0:
                        at = slots[i]
                        block[at: at + 16] = self._meld_pack(side_melds[i])
                        self._blocks[side] = (side_melds, block, slots)
                        return block
        block, slots = self._side_melds(side_melds)
        self._blocks[side] = (side_melds, block, slots)
        return block

    def _meld_pack(self, meld: Any) -> bytes:
        """One meld's four numbers, packed (kept by the meld's tuple)."""
        packed = self._meld_packs.get(meld)
        if packed is None:
            if len(self._meld_packs) > 20000:
                self._meld_packs.clear()
            packed = self._meld_packs[meld] = self.four.pack(meld[1], meld[2], meld[3], 1.0 if meld[4] else 0.0)
        return packed

    def _side_melds(self, side_melds: Any) -> tuple[bytearray, list[int]]:
        """The ``melds`` block of one side (``R * M * 4`` numbers) made anew, and the byte
        offset of each meld's slot (-1: none, or shared with another meld)."""
        m = self.m
        index = self.rank_index
        buf = bytearray(self.no_melds)
        slots: list[int] = []
        seen: dict[int, int] = {}
        for meld in side_melds:
            rank = meld[0]
            ri = index.get(rank)
            if ri is None:  # a sequence (its own segment), or no meld the engine makes
                slots.append(-1)
                continue
            k = seen.get(rank, 0)
            seen[rank] = k + 1
            if k >= m:  # pragma: no cover - M is the most melds of a rank a side can have
                return bytearray(self._side_melds_summed(side_melds)), [-1] * len(side_melds)
            at = (ri * m + k) * 16
            buf[at: at + 16] = self._meld_pack(meld)
            slots.append(at)
        return buf, slots

    def _sides(self, v: _View, c: Any, seat: int) -> None:
        """Write the per-side segments (red threes, [black threes aside], opened, initial-meld
        need / 100, total / target, in the observer's order of sides) and the dealer."""
        d = c.d
        red, opened, totals = c.red, c.opened, c.totals
        aside = c.aside if self.aside else ()
        key = (seat, red, aside, opened, totals, d.hand_number, d.dealer)
        packed = self._side_parts.get(key)
        if packed is None:
            if len(self._side_parts) > 4096:
                self._side_parts.clear()
            need = d.R.initial_need
            hand = d.hand_number
            target = self.target
            values = (red + aside + opened + tuple(0.0 if opened[s] else need(totals[s], hand) / 100.0
                                                   for s in range(len(totals)))
                      + tuple(t / target for t in totals))
            packed = self._side_parts[key] = (self.sides_pack.pack(*self.side_getters[seat](values))
                                              + self.seat_hot[seat][d.dealer + 1])
        v.buf[self.at_sides: self.at_seats] = packed
        v.sides = (red, totals, opened, d, c.aside)

    def _seat_part(self, v: _View, c: Any, seat: int) -> None:
        """Write the per-seat segments (active, melded, took last, from the observer on)."""
        d = c.d
        key = (seat, d.active, c.melded, c.took_last)
        packed = self._seat_parts.get(key)
        if packed is None:
            if len(self._seat_parts) > 4096:
                self._seat_parts.clear()
            active = d.active
            flags = tuple(s in active for s in range(self.players))
            packed = self._seat_parts[key] = self.seats_pack.pack(
                *self.seat_getters[seat](flags + c.melded + c.took_last))
        v.buf[self.at_seats: self.at_pile] = packed
        v.seat_part = (c.melded, c.took_last, d)

    def _turn_part(self, key: tuple[int, ...]) -> bytes:
        """The ``phase``, ``current_player``, ``turn`` and ``last_round`` segments, packed (kept)."""
        if len(self._turns) > 8192:
            self._turns.clear()
        seat, player, phase, f, count, pending, lt = key
        flags = self.flags_pack.pack(*(bool(f & bit) for bit in self.turn_flags))
        end = self.four.pack(count / 100.0, pending, lt >= 0, lt if lt > 0 else 0)
        packed = self._turns[key] = b"".join((self.phase_hot[phase], self.seat_hot[seat][player + 1], flags, end))
        return packed

    def _sequences(self, side_melds: Any) -> bytes:
        """The ``sequences`` block of one side (suited layouts: ``4 * Q * L`` numbers)."""
        if not any(m[0] >= SEQ for m in side_melds):
            return self.no_sequences
        q = self.q
        width = len(self.seq_ranks)
        lo = self.seq_ranks[0]
        block = [0.0] * (4 * q * width)
        seen = [0, 0, 0, 0]
        for m in side_melds:
            if m[0] < SEQ:
                continue
            suit, low = (m[0] - SEQ) >> 4, (m[0] - SEQ) & 15
            slot = min(seen[suit], q - 1)
            seen[suit] += 1
            base = (suit * q + slot) * width - lo
            for r in range(low, low + m[1]):
                block[base + r] += 1.0
        return struct.pack(f"<{len(block)}f", *block)

    def _side_melds_summed(self, side_melds: Any) -> bytes:  # pragma: no cover - see _side_melds
        """The block when a rank has more melds than slots: the extra ones summed into the last."""
        m = self.m
        block = [0.0] * (self.nr * m * 4)
        seen: dict[int, int] = {}
        for meld in side_melds:
            ri = self.rank_index.get(meld[0])
            if ri is None:
                continue
            n = seen.get(meld[0], 0)
            seen[meld[0]] = n + 1
            base = (ri * m + min(n, m - 1)) * 4
            block[base] += meld[1]
            block[base + 1] += meld[2]
            block[base + 2] += meld[3]
            if meld[4]:
                block[base + 3] = 1.0
        return struct.pack(f"<{len(block)}f", *block)


def _same(hand: Any) -> Any:
    """A core hand as it is (its counts are the ``own_hand`` entries of a layout without suits)."""
    return hand


def _size_suited(hand: bytes) -> int:
    """Cards in a suited core hand (its per-kind counts)."""
    return sum(hand[:N_KINDS])


def _deck_of(encoder: ObservationEncoder) -> tuple[int, ...]:
    """The deck of the encoder's table: the count of each card kind."""
    deck: tuple[int, ...] = new_game(encoder.variant, encoder.players, seed=0)._rules.deck
    return deck


def _getter(indices: list[int]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """``t -> tuple(t[i] for i in indices)``, in C."""
    get = itemgetter(*indices)
    if len(indices) == 1:
        return lambda t: (get(t),)
    return get


def _hot_bytes(n: int, k: int) -> bytes:
    """A one-hot of ``n`` floats with a 1 at ``k`` (all 0 for ``k = -1``), packed."""
    return struct.pack(f"<{n}f", *(1.0 if i == k else 0.0 for i in range(n)))


def _turn_bits() -> tuple[int, ...]:
    from .. import _core

    # TURN_FLAGS order: drew, took, asked, answer yes, answer no, melded, black threes,
    # must out, touched partner, own canasta, no take, natural meld (then count and pending size)
    return (_core.F_DREW, _core.F_TOOK, _core.F_ASKED, _core.F_YES, _core.F_NO, _core.F_MELDED,
            _core.F_B3, _core.F_MUST_OUT, _core.F_TOUCHED, _core.F_OWN, _core.F_NO_TAKE, _core.F_NATURAL)


_MASKS: dict[int, tuple[tuple[int, ...], Int8Array]] = {}
"""Masks (read-only arrays, copied out) by the legal ids they are of: the engine shares one
tuple of legal ids between the states that have them, so the tuple's identity finds the mask."""


def mask_of(state: GameState) -> Int8Array:
    """The legal-action mask of ``state`` as a new ``int8`` array."""
    ids = state.legal_action_ids()
    hit = _MASKS.get(id(ids))
    if hit is None or hit[0] is not ids:
        if len(_MASKS) > 8192:
            _MASKS.clear()
        hit = _MASKS[id(ids)] = (ids, _frombuffer(state.legal_action_mask(), dtype=np.int8))
    return hit[1].copy()


# ------------------------------------------------------------------ the full state


STATE_LAYOUT_VERSION = 1
"""The version of the full-state layout (:class:`StateLayout`): bumped whenever the vector of
some state changes, like :attr:`~canasta.ObservationEncoder.LAYOUT_VERSION` (which the
``seats`` segment follows: compare both)."""


class StateLayout:
    """The full state of a game as one ``float32`` vector, for centralised critics (MAPPO,
    QMIX-style value mixing): what ``env.state()`` returns. Every card is in it.

    The segments, in order (``P`` players, ``N`` the observation vector's size, ``C`` card
    entries: the encoder's ``card_codes``, 15 kinds or, with suits, 48 codes):

    | name | shape | contents |
    |---|---|---|
    | ``seats`` | (P, N) | row ``s``: the observation vector of seat ``s`` (:class:`~canasta.ObservationEncoder`, seat ``s`` seeing itself as seat 0); so each hand is in its owner's row |
    | ``stock`` | (C,) | the cards in the stock, count per card |
    | ``stock_top`` | (C,) | one-hot of the stock's top card, the next one drawn (all 0: the stock is empty) |
    | ``pile`` | (C,) | every card in the discard pile, count per card (the cards dealt under the upcard too) |
    | ``pending`` | (C,) | the cards of a pile set aside for an initial meld (new-canasta), count per card |
    | ``down_hands`` | (P, C) | each seat's down hand, count per card (only in a variant with down hands: new-canasta) |

    Versioned by :data:`STATE_LAYOUT_VERSION`; ``segment(name)`` finds a segment, ``size`` is
    the length.
    """

    def __init__(self, encoder: ObservationEncoder) -> None:
        from .._encoder import Segment

        p = encoder.players
        nc = len(encoder.card_codes)
        shapes: list[tuple[str, tuple[int, ...]]] = [("seats", (p, encoder.size)), ("stock", (nc,)),
                                                     ("stock_top", (nc,)), ("pile", (nc,)), ("pending", (nc,))]
        if encoder.down_hands:
            shapes.append(("down_hands", (p, nc)))
        layout = []
        at = 0
        for name, shape in shapes:
            seg = Segment(name, at, shape)
            layout.append(seg)
            at += seg.length
        self.layout: tuple[Any, ...] = tuple(layout)
        """The segments, as :class:`~canasta.Segment` values (name, offset, shape)."""
        self.size = at
        """The length of the vector."""
        self.version = STATE_LAYOUT_VERSION
        """:data:`STATE_LAYOUT_VERSION`."""
        self._by_name = {seg.name: seg for seg in layout}
        self._codes = list(encoder.card_codes)
        self._index = {c: i for i, c in enumerate(encoder.card_codes)}
        self._players = p
        self._nc = nc
        self._down = encoder.down_hands

    def segment(self, name: str) -> Any:
        """The segment called ``name`` (``KeyError`` if there is none)."""
        return self._by_name[name]

    def encode(self, state: GameState, fast: StateEncoder) -> Float32Array:
        """The full state of ``state`` (``fast`` makes the seats' vectors)."""
        p = self._players
        nc = self._nc
        out = np.empty(self.size, dtype=np.float32)
        n = fast.size
        c = state._c
        for s in range(p):
            out[s * n: (s + 1) * n] = _frombuffer(fast.view(state, s), _F32)
        at = p * n
        index = self._index
        for cards in (c.stock(), ):
            out[at: at + nc] = self._counts(cards)
        at += nc
        top = np.zeros(nc, dtype=np.float32)
        if c.stock_n:
            top[index[c.d.stock[c.stock_n - 1]]] = 1.0
        out[at: at + nc] = top
        at += nc
        out[at: at + nc] = self._counts(pile_cards(c))
        at += nc
        out[at: at + nc] = self._counts(c.pending)
        at += nc
        if self._down:
            codes = self._codes
            for s in range(p):
                down = c.downs[s]
                out[at: at + nc] = [down[k] for k in codes]
                at += nc
        return out

    def _counts(self, cards: Sequence[int]) -> Float32Array:
        """Counts per card entry of a list of card codes."""
        counts = np.zeros(self._nc, dtype=np.float32)
        index = self._index
        for k in cards:
            counts[index[k]] += 1.0
        return counts
