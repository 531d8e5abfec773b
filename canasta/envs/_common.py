"""What the adapters share: their options, the fast vector form of a state, rewards, spaces.

Private: the public names are re-exported by :mod:`canasta.envs`.
"""

from __future__ import annotations

import random
import struct
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence, TypeAlias, Union

import numpy as np
import numpy.typing as npt

from .._actions import Discard, Retract, Take
from .._cards import CODE_TOKENS, N_CODES, N_KINDS
from .._core._rules import SEQ
from .._observation import ObservationEncoder
from .._state import GameState, new_game
from .._variant import Variant, VariantError, load_variant

if TYPE_CHECKING:
    from gymnasium import spaces

REWARDS = ("score", "win")
"""The reward options: ``"score"`` (each hand's score difference, per side) and ``"win"``
(+1 / -1 when the episode ends)."""

EPISODES = ("hand", "game")
"""The episode options: one hand (the first deal of a new game), or a whole game."""

ILLEGAL = ("raise", "penalty", "terminate")
"""What an illegal action does: raise :class:`~canasta.IllegalActionError`; or cost
``illegal_reward`` and change nothing; or cost ``illegal_reward`` and end the episode."""


class EnvError(ValueError):
    """A bad argument to an environment: the message starts with the argument's name
    (``players: 6 players is not allowed for bicycle; allowed: 4``)."""


Float32Array: TypeAlias = "npt.NDArray[np.float32]"
Int8Array: TypeAlias = "npt.NDArray[np.int8]"


class Config:
    """The checked options of an environment (every adapter takes the same ones)."""

    def __init__(self, variant: Union[Variant, str], players: Optional[int], episode: str, reward: str,
                 max_hands: int, illegal: str, illegal_reward: float) -> None:
        if isinstance(variant, Variant):
            v = variant
        elif isinstance(variant, str):
            try:
                v = load_variant(variant)
            except (VariantError, OSError) as e:
                raise EnvError(f"variant: {e}") from e
        else:
            raise EnvError(f"variant: expected a Variant or a name, not {variant!r}")
        if players is None:
            players = v.default_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise EnvError(f"players: expected a number of players, not {players!r}")
        if str(players) not in v.tables:
            allowed = ", ".join(sorted(v.tables, key=int))
            raise EnvError(f"players: {players} players is not allowed for {v.name}; allowed: {allowed}")
        _choose("episode", episode, EPISODES)
        _choose("reward", reward, REWARDS)
        _choose("illegal", illegal, ILLEGAL)
        if isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 1:
            raise EnvError(f"max_hands: expected a whole number of hands, 1 or more, not {max_hands!r}")
        try:
            illegal_reward = float(illegal_reward)
        except (TypeError, ValueError):
            raise EnvError(f"illegal_reward: expected a number, not {illegal_reward!r}") from None
        self.variant = v
        self.players = players
        self.episode = episode
        self.reward = reward
        self.max_hands = max_hands
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.encoder = ObservationEncoder(v, players)
        self.fast = StateEncoder(self.encoder)
        probe = new_game(v, players, seed=0)
        self.action_size = probe.action_space.size
        self.side_of = tuple(probe.side_of(s) for s in range(players))
        self.sides = probe.sides

    def deal(self, seed: int) -> GameState:
        """The first hand of the game with ``seed``."""
        return new_game(self.variant, self.players, seed=seed)


def _choose(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise EnvError(f"{name}: expected one of {', '.join(repr(a) for a in allowed)}, not {value!r}")


def fresh_seed() -> int:
    """A deal seed from the operating system's entropy (an unseeded first reset)."""
    return random.SystemRandom().getrandbits(31)


# ------------------------------------------------------------------ rewards


def score_values(state: GameState) -> tuple[float, ...]:
    """Per side, the finished hand's score difference: the side's hand score minus the mean
    of the other sides' (with two sides, the plain difference; the values sum to zero)."""
    result = state.result
    assert result is not None
    scores = [s.total for s in result.scores]
    n = len(scores)
    total = sum(scores)
    if n < 2:
        return tuple(float(s) for s in scores)
    return tuple(float(s) - (total - s) / (n - 1) for s in scores)


def hand_score_bound(state: GameState) -> int:
    """A bound on the absolute value of any side's score for one hand at this table: every
    card counted once at its card value, every possible canasta at the largest bonus, the
    largest red-three table entry, red threes held, going out, concealed, the precise draws."""
    R = state._rules
    deck = R.deck
    cards = sum(n * abs(v) for n, v in zip(deck, R.values))
    canastas = (sum(deck) // max(R.cs, 1)) * max(abs(R.nat_bonus), abs(R.mixed_bonus), abs(R.wild_bonus),
                                                 abs(R.b3_bonus), abs(R.r3_canasta))
    threes = max([abs(x) for x in list(R.r3_bonus) + list(R.r3_minus_table or ())] or [0])
    threes += deck[2] * abs(R.r3_penalty)
    out = abs(R.out_bonus) + abs(R.conc_bonus) + R.players * abs(R.precise_bonus)
    return int(cards + canastas + threes + out)


def win_values(state: GameState) -> tuple[float, ...]:
    """Per side, +1 for a winning side and -1 for the others (0 for every side when all tie).

    The winners are ``state.winners`` once the game is over, else the sides with the highest
    total (an episode of one hand).
    """
    totals = state.totals
    if state.is_game_over:
        winners = set(state.winners)
    else:
        best = max(totals)
        winners = {s for s, t in enumerate(totals) if t == best}
    if len(winners) == len(totals) or not winners:
        return (0.0,) * len(totals)
    return tuple(1.0 if s in winners else -1.0 for s in range(len(totals)))


# ------------------------------------------------------------------ the vector form of a state


_TAKE = -2
_RETRACT = -3
_OTHER = -1


class StateEncoder:
    """:meth:`ObservationEncoder.encode_array` of ``state.observation(seat)``, computed straight
    from the state (no :class:`Observation` is built): the same numbers, several times faster.

    The vector is assembled as ``float32`` bytes: the parts that change rarely (each side's
    melds, the table's totals and red threes, the discards onto the pile, the one-hots) are
    packed once and kept by the tuple they come from; only the rest is packed at each call.
    ``tests/test_envs.py`` checks that both forms agree on playouts of every variant.
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
        space = new_game(encoder.variant, p, seed=0).action_space
        kinds = []
        for a in space.actions:
            if isinstance(a, Discard):
                kinds.append(int(a.card))
            elif isinstance(a, Take):
                kinds.append(_TAKE)
            elif isinstance(a, Retract):
                kinds.append(_RETRACT)
            else:
                kinds.append(_OTHER)
        self.suited = encoder.suited
        codes = encoder.card_codes
        nc = len(codes)
        self.n_cards = nc
        """The card entries of ``own_hand``, ``pile_top``, ``pile_discards`` (15 kinds; 48 codes
        in a suited layout)."""
        index = {c: i for i, c in enumerate(codes)}
        # a discard's entry in ``pile_discards`` (its kind; in a suited layout its code's place)
        self.kinds = tuple(index[k] if k >= 0 else k for k in kinds)
        self.no_melds = bytes(4 * self.nr * self.m * 4)
        n_sides = encoder.sides
        # the head: own hand (15, or 48 codes), [own down size], other hand sizes, [other down sizes]
        head_n = nc + (p - 1) + (p if self.down_hands else 0)
        self.head = struct.Struct(f"<{head_n}f")
        self.own_cards: Callable[[Any], Any] = _getter(list(codes)) if self.suited else tuple
        """A core hand's entries of ``own_hand``."""
        self.hand_size: Callable[[bytes], int] = _size_suited if self.suited else sum
        """Cards in a core hand (a suited hand's per-kind counts only)."""
        self.q = encoder.sequence_slots
        self.seq_ranks = encoder.sequence_ranks
        self.no_sequences = bytes(4 * 4 * self.q * len(self.seq_ranks))
        self.size_getters = tuple(_getter(list(self.seats[me][1:])) for me in range(p))
        """Per observer, the other seats' items of a per-seat tuple, next seat first."""
        self.side_getters = tuple(
            _getter([k * n_sides + side for k in range(4) for side in self.rel_sides[me]]) for me in range(p))
        self.sides_pack = struct.Struct(f"<{4 * n_sides}f")
        self.seat_getters = tuple(_getter([k * p + s for k in range(3) for s in self.seats[me]]) for me in range(p))
        self.seats_pack = struct.Struct(f"<{3 * p}f")
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
        self._flags: dict[int, bytes] = {}
        self._tables: dict[tuple[Any, ...], tuple[bytes, bytes]] = {}
        self._ends: dict[tuple[int, int, int], bytes] = {}
        self._last_discards: Optional[tuple[Any, tuple[int, ...], tuple[int, ...], bytes]] = None
        self._meld_blocks: dict[int, tuple[Any, bytes]] = {}
        self._meld_packs: dict[tuple[int, ...], bytes] = {}
        self._empty_discards = self.counts_pack.pack(*(0,) * nc)

    def encode(self, state: GameState, seat: int) -> Float32Array:
        """The vector of ``state`` seen from ``seat`` (a new, writable ``float32`` array)."""
        c = state._c
        d = c.d
        hands = c.hands
        others = self.size_getters[seat]
        size = self.hand_size
        own = self.own_cards(hands[seat])
        if self.down_hands:
            downs = c.downs
            head = self.head.pack(*own, size(downs[seat]), *map(size, others(hands)),
                                  *map(size, others(downs)))
        else:
            head = self.head.pack(*own, *map(size, others(hands)))
        parts = [head]
        melds = c.melds
        blocks = self._meld_blocks
        for side in self.rel_sides[seat]:
            side_melds = melds[side]
            if side_melds:
                hit = blocks.get(id(side_melds))
                if hit is not None and hit[0] is side_melds:
                    parts.append(hit[1])
                else:
                    parts.append(self._side_melds(side_melds))
            else:
                parts.append(self.no_melds)
        if self.suited:
            parts += [self._sequences(melds[side]) for side in self.rel_sides[seat]]
        key = (seat, c.red, c.opened, c.totals, d.active, c.melded, c.took_last, d.hand_number)
        table = self._tables.get(key)
        if table is None:
            table = self._table_parts(key, c)
        sides, seat_part = table
        pile = c.pile
        hot = self.seat_hot[seat]
        f = c.flags
        flags = self._flags.get(f)
        if flags is None:
            flags = self._flags[f] = self.flags_pack.pack(*(bool(f & bit) for bit in self.turn_flags))
        num = self.num
        key2 = (c.count, len(c.pending), c.last_turns)
        end = self._ends.get(key2)
        if end is None:
            end = self._end_part(key2)
        parts += (sides, num[c.pile_n], self.top_hot[-1 if pile is None else pile[0]],
                  self._pile_discards(c.history), num[c.frozen], num[c.stock_n], self.phase_hot[c.phase],
                  hot[c.player + 1], hot[d.dealer + 1], seat_part, flags, end)
        return np.frombuffer(bytearray().join(parts), dtype=np.float32)

    def _end_part(self, key: tuple[int, int, int]) -> bytes:
        """The turn's count / 100 and pending size, and the last round's two numbers, packed."""
        if len(self._ends) > 4096:
            self._ends.clear()
        count, pending, lt = key
        packed = self._ends[key] = self.four.pack(count / 100.0, pending, lt >= 0, lt if lt > 0 else 0)
        return packed

    def _table_parts(self, key: tuple[Any, ...], c: Any) -> tuple[bytes, bytes]:
        """The packed per-side part (red threes, opened, initial-meld need / 100, total /
        target, in the observer's order of sides) and per-seat part (active, melded, took
        last, from the observer on), kept by the tuples they come from: they change seldom."""
        if len(self._tables) > 4096:
            self._tables.clear()
        seat, red, opened, totals, active, melded, took, hand = key
        need = c.d.R.initial_need
        target = self.target
        values = (red + opened + tuple(0.0 if opened[s] else need(totals[s], hand) / 100.0
                                       for s in range(len(totals)))
                  + tuple(t / target for t in totals))
        flags = tuple(s in active for s in range(self.players))
        parts = self._tables[key] = (self.sides_pack.pack(*self.side_getters[seat](values)),
                                     self.seats_pack.pack(*self.seat_getters[seat](flags + melded + took)))
        return parts

    def _side_melds(self, side_melds: Any) -> bytes:
        """The ``melds`` block of one side (``R * M * 4`` numbers) as bytes, kept by melds
        tuple: melds change only when someone melds, and unchanged melds are shared by states.
        Each meld's four numbers are packed once (kept by the meld's tuple) and copied into
        its slot of a zero block."""
        m = self.m
        index = self.rank_index
        packs = self._meld_packs
        buf = bytearray(self.no_melds)
        seen: dict[int, int] = {}
        for meld in side_melds:
            rank = meld[0]
            ri = index.get(rank)
            if ri is None:  # pragma: no cover - the engine makes no such meld
                continue
            n = seen.get(rank, 0)
            seen[rank] = n + 1
            if n >= m:  # pragma: no cover - M is the most melds of a rank a side can have
                return self._side_melds_summed(side_melds)
            packed = packs.get(meld)
            if packed is None:
                packed = packs[meld] = self.four.pack(meld[1], meld[2], meld[3], 1.0 if meld[4] else 0.0)
            at = (ri * m + n) * 16
            buf[at: at + 16] = packed
        block = bytes(buf)
        memo = self._meld_blocks
        if len(memo) > 20000:
            memo.clear()
            packs.clear()
        memo[id(side_melds)] = (side_melds, block)
        return block

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

    def _pile_discards(self, link: Any) -> bytes:
        """Counts per kind of the discards onto the current pile (``pile_discards``), from the
        hand's history, packed. The last answer is kept: a state that follows the last one
        encoded (the usual case: an episode goes forward) costs only its new actions; any
        other walks its hand's history from the deal."""
        if link is None:
            return self._empty_discards
        last = self._last_discards
        stop = None
        if last is not None:
            if last[0] is link:
                return last[3]
            stop = last[0]
        chain: list[Any] = []
        node = link
        while node is not None and node is not stop:
            chain.append(node)
            node = node[1]
        if node is not None and last is not None:
            known, saved = list(last[1]), last[2]
        else:
            known, saved = [0] * self.n_cards, (0,) * self.n_cards
        kinds = self.kinds
        for node in reversed(chain):
            k = kinds[node[0]]
            if k >= 0:
                known[k] += 1
            elif k == _TAKE:
                saved = tuple(known)
                known = [0] * self.n_cards
            elif k == _RETRACT:
                known = list(saved)
        packed = self.counts_pack.pack(*known)
        self._last_discards = (link, tuple(known), saved, packed)
        return packed


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
    # must out, touched partner, own canasta, no take (then count and pending size)
    return (_core.F_DREW, _core.F_TOOK, _core.F_ASKED, _core.F_YES, _core.F_NO, _core.F_MELDED,
            _core.F_B3, _core.F_MUST_OUT, _core.F_TOUCHED, _core.F_OWN, _core.F_NO_TAKE)


def mask_of(state: GameState) -> Int8Array:
    """The legal-action mask of ``state`` as a new ``int8`` array."""
    return np.frombuffer(state.legal_action_mask(), dtype=np.int8).copy()


# ------------------------------------------------------------------ spaces


_FLAG_SEGMENTS = frozenset({"opened", "pile_top", "frozen", "phase", "current_player", "dealer", "active",
                            "melded", "took_last"})


def vector_bounds(config: Config) -> tuple[Float32Array, Float32Array]:
    """Low and high bounds of every number of the vector: 0 to 1 for flags and one-hots, 0 to
    the deck's size for counts (and the scaled counts); for the totals / target, as many
    hands as an episode can see times :func:`hand_score_bound`, over the target (one hand
    episode sees one hand, unless seats sit out deals: a learned seat's episode may follow
    hands it sat out)."""
    enc = config.encoder
    probe = new_game(config.variant, config.players, seed=0)
    deck = float(sum(probe._rules.deck))
    everyone_plays = probe._rules.active_n == config.players
    hands = 1 if config.episode == "hand" and everyone_plays else config.max_hands
    totals = float(hands * hand_score_bound(probe) / (config.variant.game.target or 5000))
    low = np.zeros(enc.size, dtype=np.float32)
    high = np.full(enc.size, deck, dtype=np.float32)
    for seg in enc.layout:
        sl = slice(seg.offset, seg.offset + seg.length)
        if seg.name in _FLAG_SEGMENTS:
            high[sl] = 1.0
        elif seg.name == "totals":
            low[sl] = -totals
            high[sl] = totals
    return low, high


def observation_space(config: Config) -> spaces.Dict:
    """``Dict(observation=Box(float32), action_mask=Box(0, 1, int8))``."""
    from gymnasium import spaces

    low, high = vector_bounds(config)
    return spaces.Dict({
        "observation": spaces.Box(low=low, high=high, shape=(config.encoder.size,), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(config.action_size,), dtype=np.int8),
    })


# ------------------------------------------------------------------ rendering


def describe(state: GameState) -> str:
    """A few lines of what the whole table sees (no hidden card): for ``render()``."""
    cur = state.current_player
    who = "nobody" if cur is None else f"seat {cur}"
    lines = [f"{state.variant.name}, {state.players} players, hand {state.hand_number + 1}: "
             f"{state.phase.value}, {who} to act"]
    for side in range(state.sides):
        melds = "; ".join(str(m) for m in state.melds[side]) or "-"
        lines.append(f"  side {side}: total {state.totals[side]}, red threes {state.red_threes[side]}, "
                     f"melds {melds}")
    pile = state.pile
    top = "-" if not pile else _card_name(pile[-1])
    lines.append(f"  pile {len(pile)} (top {top}{', frozen' if state.frozen else ''}), "
                 f"stock {len(state.stock)}, hands {' '.join(str(sum(h[:N_KINDS])) for h in state.hands)}")
    if state.history:
        lines.append(f"  last action: {state.history[-1]}")
    result = state.result
    if result is not None:
        lines.append("  hand over: " + ", ".join(f"side {s.side} {s.total:+d}" for s in result.scores))
    return "\n".join(lines)


def _card_name(kind: int) -> str:
    return CODE_TOKENS[kind]


def cards_text(hand: Any) -> str:
    """A hand (counts per kind) as its cards' notation, ``JK 7 7 K`` (``-`` when empty); a
    suited hand (59 counts) by its cards with their suits, ``JK 7h 7s Kc``."""
    if len(hand) == N_CODES:
        return " ".join(CODE_TOKENS[k] for k in range(N_CODES) if not 4 <= k < N_KINDS
                        for _ in range(hand[k])) or "-"
    return " ".join(CODE_TOKENS[k] for k in range(len(hand)) for _ in range(hand[k])) or "-"


# ------------------------------------------------------------------ opponents (Gymnasium)


Policy = Callable[[Any, tuple[int, ...]], Any]
"""A custom opponent: ``f(observation, legal_action_ids) -> action`` (an id, an action or its
notation)."""


def seats_spec(spec: Union[object, Sequence[object]], players: int, seat: int) -> list[object]:
    """One opponent spec per seat (None at the learned seat)."""
    if isinstance(spec, (list, tuple)):
        specs = list(spec)
        if len(specs) != players:
            raise EnvError(f"opponents: give one opponent per seat ({players}, None at seat {seat}), "
                           f"not {len(specs)}")
        if specs[seat] is not None:
            raise EnvError(f"opponents: the entry of the learned seat {seat} must be None")
    else:
        specs = [spec] * players
        specs[seat] = None
    for s, one in enumerate(specs):
        if s == seat:
            continue
        if isinstance(one, str):
            if one not in ("random", "greedy"):
                raise EnvError(f"opponents: unknown bot {one!r}; the built-in bots are 'random' and 'greedy'")
        elif not (isinstance(one, type) or hasattr(one, "choose") or callable(one)):
            raise EnvError(f"opponents: expected 'random', 'greedy', a bot class, a bot or a callable, "
                           f"not {one!r}")
    return specs
