"""The initial meld: the plays from a hand toward it (:func:`opening_plays`), what it must
include (:func:`comp_options`, :func:`comp_met`; ``initial_meld.composition``), and going out
after taking the pile for it (:func:`open_then_out`, memoised).

Built on ``_plan``, ``_greedy``, ``_sequences`` and ``_canastas``; used by the checks
(``_finish``, ``_draw``, ``_meld``).
"""

from __future__ import annotations

from functools import lru_cache

from ._canastas import LOCK, Hand
from ._greedy import greedy
from ._plan import can_go_out
from ._rules import (B3, BIG, COMP_CANASTA, COMP_CLEAN, COMP_MIXED, COMP_NATURAL, COMP_SEQ, COMP_WILD, JK, RANKS, SEQ,
                     TWO, WILD, Meld, Rules, seq_low, seq_rank, seq_suit)
from ._sequences import sequence_plays

Comp = tuple[int, int]
"""What an initial meld must include: (``COMP_*`` bits, points), see ``Rules.initial_comp``."""


# ------------------------------------------------------------------ the initial meld, then out


@lru_cache(maxsize=1 << 14)
def open_then_out(R: Rules, h: Hand, melds: tuple[Meld, ...], rem: int, extra: Hand, cap: int,
                  opening_cap: bool, most: int = BIG) -> bool:
    """Bound to go out after taking the pile for the initial meld: can melds from ``h`` make up
    the ``rem`` points still missing (the pile set aside, ``extra``, comes into the hand only
    then: hoyle rule 41), and every card then be melded (one may be discarded last) so that the
    side goes out?

    An exact search over the plays the meld phase of such a take offers (new melds, additions;
    ``opening_cap``: none may reach canasta size), memoised per position, so that the phase can
    offer exactly the plays after which this stays true. ``cap`` and ``most`` are
    :func:`can_go_out`'s, for the turn's melds after the minimum."""
    if R.no_wild and (h[JK] or h[TWO] or extra[JK] or extra[TWO]):
        # italian 4.5: no wild card in this turn's melds; a bound (one could be the last discard)
        return False
    if len(h) > 15:
        # cards with suits (melds.sequences): the sequences from the hand first, then the rest as
        # below, whose going out (with the pile's cards) plans sequences again
        whole = _plus(h, extra)
        if not can_go_out(R, whole, melds, 0, True, False, -1, cap, most):
            return False
        return any(open_then_out(R, h2, melds2, rem - pts, extra[:15], cap, opening_cap, most)
                   for h2, melds2, pts, _c in sequence_plays(R, h, melds, opening_cap))
    whole = _plus(h, extra)
    if not can_go_out(R, whole, melds, 0, True, False, -1, cap, most):
        return False  # nothing melded first can help: the whole going out is a bound
    if rem <= 0:
        return True
    if greedy(R, h, melds, True)[0] < rem:
        return False
    for h2, melds2, gain in opening_plays(R, h, melds, opening_cap):
        if open_then_out(R, h2, melds2, rem - gain, extra, cap, opening_cap, most):
            return True
    return False


def _plus(h: Hand, extra: Hand) -> Hand:
    if not any(extra):
        return h
    return bytes([a + b for a, b in zip(h, extra)])


def _less(h: Hand, k: int, n: int) -> Hand:
    hl = bytearray(h)
    hl[k] -= n
    return bytes(hl)


def opening_plays(R: Rules, h: Hand, melds: tuple[Meld, ...],
                  opening_cap: bool) -> list[tuple[Hand, tuple[Meld, ...], int]]:
    """The plays from ``h`` toward an initial meld: (hand after, melds after, points), one per
    distinct result. Additions (a natural, a joker, a deuce) to melds that may grow, new melds
    of three cards (a natural three, a natural pair with a wild card) and a meld of wild cards,
    as the meld phase offers them (no black threes, no red threes, no combining)."""
    vals = R.values
    out: list[tuple[Hand, tuple[Meld, ...], int]] = []
    jk = h[JK]
    two = h[TWO]
    cs = R.cs
    seen: list[Meld] = []
    excl = R.deuce_excl and any(m[0] == WILD and m[1] + m[2] + m[3] < cs for m in melds)
    for i in range(len(melds)):
        two = h[TWO]
        m = melds[i]
        r, nat, mj, mt, top = m
        if r == B3 or r >= SEQ or m in seen:
            continue
        seen.append(m)
        size = nat + mj + mt
        if (R.closed and size >= cs) or (opening_cap and size + 1 >= cs):
            continue
        if r != WILD and h[r]:
            out.append((_less(h, r, 1), melds[:i] + ((r, nat + 1, mj, mt, top),) + melds[i + 1:], vals[r]))
        if r != WILD and excl:
            two = 0  # italian 4.4: deuces only onto the open meld of deuces
        if (jk or two) and top != LOCK and (R.wild_on_canasta or not R.is_canasta(m)):
            if r == WILD:
                room = size < R.wild_meld_max
                if R.deuce:
                    # italian 4.3: a joker within the meld's limit, a deuce up to its size
                    if jk and R.valid((r, nat, mj + 1, mt, top)):
                        out.append((_less(h, JK, 1), melds[:i] + ((r, nat, mj + 1, mt, top),) + melds[i + 1:],
                                    vals[JK]))
                    if two:
                        out.append((_less(h, TWO, 1), melds[:i] + ((r, nat, mj, mt + 1, top),) + melds[i + 1:],
                                    vals[TWO]))
                    continue
            else:
                wc = R.wild_cap(nat)
                room = (R.unlimited and nat + wc >= cs and nat >= R.cmin_nat) or wc > mj + mt
            if room:
                if jk:
                    out.append((_less(h, JK, 1), melds[:i] + ((r, nat, mj + 1, mt, top),) + melds[i + 1:],
                                vals[JK]))
                if two:
                    out.append((_less(h, TWO, 1), melds[:i] + ((r, nat, mj, mt + 1, top),) + melds[i + 1:],
                                vals[TWO]))
    ranks = 0
    for m in melds:
        if R.blocks_new(m) or (m[0] == WILD and R.deuce):
            ranks |= 1 << m[0]
    two = 0 if excl else h[TWO]
    for r in RANKS:
        n = h[r]
        if n < 2 or (ranks >> r) & 1:
            continue
        if n >= 3 and R.trip_ok:
            out.append((_less(h, r, 3), melds + ((r, 3, 0, 0, 0),), 3 * vals[r]))
        if R.pair_wild_ok:
            if two:
                h2 = _less(h, r, 2)
                out.append((_less(h2, TWO, 1), melds + ((r, 2, 0, 1, 0),), 2 * vals[r] + vals[TWO]))
            if jk:
                h2 = _less(h, r, 2)
                out.append((_less(h2, JK, 1), melds + ((r, 2, 1, 0, 0),), 2 * vals[r] + vals[JK]))
    two = h[TWO]
    if R.wild_melds and not (ranks >> WILD) & 1 and jk + two >= R.min_size:
        n = R.min_size
        for j in range(n, -1, -1):
            d = n - j
            nm = (WILD, 0, j, d, 0)
            if jk >= j and two >= d and R.valid(nm):
                out.append((_less(_less(h, JK, j), TWO, d), melds + (nm,), j * vals[JK] + d * vals[TWO]))
    return out


# ------------------------------------------------------------------ what an initial meld must include


def has_clean(melds: tuple[Meld, ...]) -> bool:
    """Whether ``melds`` include a meld of three or more naturals without a wild card (a
    sequence is one: it never takes a wild card)."""
    for m in melds:
        if m[0] >= SEQ or (4 <= m[0] < WILD and m[1] >= 3 and m[2] + m[3] == 0):
            return True
    return False


def canasta_comp(R: Rules, m: Meld) -> int:
    """The ``COMP_*`` bit of the canasta ``m``'s kind, or 0 when ``m`` is no canasta (or one of
    black threes)."""
    if not R.is_canasta(m) or m[0] == B3:
        return 0
    if m[0] >= SEQ:
        return COMP_SEQ
    if m[0] == WILD:
        return COMP_WILD
    return COMP_MIXED if m[2] + m[3] else COMP_NATURAL


def meld_points(R: Rules, m: Meld) -> int:
    """The card values of the meld ``m``'s cards."""
    vals = R.values
    if m[0] >= SEQ:
        low = seq_low(m[0])
        return sum(vals[r] for r in range(low, low + m[1]))
    return (m[1] * vals[m[0]] if m[0] != WILD else 0) + m[2] * vals[JK] + m[3] * vals[TWO]


def comp_met(R: Rules, melds: tuple[Meld, ...], comp: Comp) -> bool:
    """Whether the side's melds, all laid this turn (its initial meld), include what ``comp``
    asks: a natural meld of three or more cards (modern-american 4.9), a canasta of one of the
    kinds asked whose own cards count at least its points (brazilian 7.2)."""
    bits, points = comp
    if bits & COMP_CLEAN and not has_clean(melds):
        return False
    if bits & COMP_CANASTA:
        for m in melds:
            if canasta_comp(R, m) & bits and meld_points(R, m) >= points:
                return True
        return False
    return True


def comp_options(R: Rules, h: Hand, melds: tuple[Meld, ...], comp: Comp, dead: int,
                 cap: bool) -> list[tuple[Hand, tuple[Meld, ...], int]]:
    """The ways the turn's melds can come to include what ``comp`` asks, each as (the hand, the
    melds, the points melded from ``h``) once it is there: a meld on the table that qualifies, or
    a new one laid from ``h`` (``dead``: bits of ranks no meld may take; ``cap``: no meld may reach
    canasta size). The qualifying meld is locked (:data:`LOCK`): no plan puts a wild card in it.
    The turn can be finished with the composition met exactly when it can be finished, by the
    usual planning, from one of these."""
    out: list[tuple[Hand, tuple[Meld, ...], int]] = [(h, melds, 0)]
    if comp[0] & COMP_CANASTA:
        out = _canasta_options(R, h, melds, comp, dead, cap)
    if comp[0] & COMP_CLEAN:
        out = [o for h1, m1, g1 in out for o in _clean_options(R, h1, m1, g1, dead, cap)]
    return out


def _canasta_options(R: Rules, h: Hand, melds: tuple[Meld, ...], comp: Comp, dead: int,
                     cap: bool) -> list[tuple[Hand, tuple[Meld, ...], int]]:
    """``comp_options`` for a canasta of the kinds ``comp`` asks, its own cards counting at least
    its points (brazilian 7.2): one on the table, or a meld of the turn, or a new one, made a
    canasta of such a kind from the hand. A natural canasta where a mixed one would not do is
    locked against wild cards."""
    bits, points = comp
    out: list[tuple[Hand, tuple[Meld, ...], int]] = []
    for i in range(len(melds)):
        m = melds[i]
        kind = canasta_comp(R, m)
        if kind & bits and meld_points(R, m) >= points:
            if kind != COMP_NATURAL or bits & COMP_MIXED:
                return [(h, melds, 0)]  # there, and it stays a canasta of a kind asked
            out.append((h, melds[:i] + ((m[0], m[1], 0, 0, LOCK),) + melds[i + 1:], 0))
    if cap:
        return out
    vals = R.values
    cs = R.cs
    jk, two = h[JK], h[TWO]
    excl = R.wild_excl and any(m[0] == WILD and not R.is_canasta(m) for m in melds)
    for r in RANKS if bits & (COMP_NATURAL | COMP_MIXED) else ():
        if (dead >> r) & 1:
            continue
        v = vals[r]
        bases = [(i, melds[i]) for i in range(len(melds)) if melds[i][0] == r and not R.is_canasta(melds[i])]
        if R.multi or not any(m[0] == r and R.blocks_new(m) for m in melds):
            bases.append((-1, (r, 0, 0, 0, 0)))
        for i, m in bases:
            nat0, w0 = m[1], m[2] + m[3]
            if bits & COMP_NATURAL and not w0:
                t = max(cs - nat0, 0)
                while t <= h[r] and (nat0 + t) * v < points:
                    t += 1
                nm = (r, nat0 + t, 0, 0, 0 if bits & COMP_MIXED else LOCK)
                if t <= h[r] and R.valid(nm) and nat0 + t >= R.cmin_nat:
                    out.append((take_naturals(h, r, t), _put(melds, i, nm), t * v))
            if not bits & COMP_MIXED or r in R.natural_only or excl or (r in R.stay_natural and i >= 0 and not w0):
                continue
            for wild in range(max(1, w0), R.max_wild + 1):
                w = wild - w0
                t = cs - wild - nat0
                if t < 0 or t > h[r] or w > jk + two:
                    continue
                for j in range(max(0, w - two), min(w, jk) + 1):
                    nj, nt = m[2] + j, m[3] + w - j
                    tt = t
                    while tt <= h[r] and (nat0 + tt) * v + nj * vals[JK] + nt * vals[TWO] < points:
                        tt += 1
                    nm = (r, nat0 + tt, nj, nt, 0)
                    if tt <= h[r] and R.valid(nm) and nat0 + tt >= R.cmin_nat:
                        h3 = take_naturals(h, r, tt)
                        h3 = _less_wild(h3, j, w - j)
                        out.append((h3, _put(melds, i, nm), tt * v + j * vals[JK] + (w - j) * vals[TWO]))
    if bits & COMP_WILD and R.wild_melds and R.wild_meld_max >= cs:
        bases = [(i, melds[i]) for i in range(len(melds)) if melds[i][0] == WILD and not R.is_canasta(melds[i])]
        if not any(m[0] == WILD for m in melds):
            bases.append((-1, (WILD, 0, 0, 0, 0)))
        for i, m in bases:
            size = m[2] + m[3]
            for total in range(max(cs, size), min(R.wild_meld_max, size + jk + two) + 1):
                w = total - size
                done = False
                for j in range(max(0, w - two), min(w, jk) + 1):
                    nm = (WILD, 0, m[2] + j, m[3] + w - j, 0)
                    if meld_points(R, nm) >= points and R.valid(nm):
                        out.append((_less_wild(h, j, w - j), _put(melds, i, nm), j * vals[JK] + (w - j) * vals[TWO]))
                        done = True
                if done:
                    break  # more wild cards only for the points asked
    if bits & COMP_SEQ and len(h) > 15:
        _sequence_canastas(R, h, melds, points, dead, out)
    return out


def _put(melds: tuple[Meld, ...], i: int, m: Meld) -> tuple[Meld, ...]:
    """``melds`` with meld ``i`` replaced by ``m`` (``i`` -1: ``m`` added)."""
    if i < 0:
        return melds + (m,)
    return melds[:i] + (m,) + melds[i + 1:]


def _less_wild(h: Hand, jk: int, two: int) -> Hand:
    hl = bytearray(h)
    hl[JK] -= jk
    hl[TWO] -= two
    return bytes(hl)


def _sequence_canastas(R: Rules, h: Hand, melds: tuple[Meld, ...], points: int, dead: int,
                       out: list[tuple[Hand, tuple[Meld, ...], int]]) -> None:
    """Append to ``out`` the ways a sequence of the turn, or a new one, becomes a canasta from the
    hand (59 counts), its cards counting at least ``points``."""
    cs, lo, hi = R.cs, R.seq_lo, R.seq_hi
    top = R.seq_max
    vals = R.values
    runs: list[tuple[int, int, int, int]] = []  # (meld index or -1, suit, low, length) as it is
    for i in range(len(melds)):
        m = melds[i]
        if m[0] >= SEQ and not R.is_canasta(m):
            runs.append((i, seq_suit(m[0]), seq_low(m[0]), m[1]))
    for suit in range(4):
        runs.append((-1, suit, 0, 0))
    for i, suit, low, length in runs:
        if i >= 0:
            starts = range(max(lo, low + length - top), low + 1)
        else:
            starts = range(lo, hi - cs + 2)
        for a in starts:
            for b in range(max(a + cs - 1, low + length - 1 if i >= 0 else 0), min(hi, a + top - 1) + 1):
                need = [r for r in range(a, b + 1) if i < 0 or not low <= r < low + length]
                if any(not h[4 * r - 1 + suit] or (dead >> r) & 1 for r in need):
                    continue
                if sum(vals[r] for r in range(a, b + 1)) < points:
                    continue
                hl = list(h)
                for r in need:
                    hl[4 * r - 1 + suit] -= 1
                    hl[r] -= 1
                nm = (seq_rank(suit, a), b - a + 1, 0, 0, 0)
                out.append((bytes(hl), _put(melds, i, nm), sum(vals[r] for r in need)))
                break  # a longer sequence from the same start only for the points asked


def _clean_options(R: Rules, h: Hand, melds: tuple[Meld, ...], gain: int, dead: int,
                   cap: bool) -> list[tuple[Hand, tuple[Meld, ...], int]]:
    """``comp_options`` for a natural meld of three or more cards (modern-american 4.9)."""
    for m in melds:
        if m[0] >= SEQ or (m[4] == LOCK and m[1] >= 3):
            return [(h, melds, gain)]  # already there, and natural for good
    out: list[tuple[Hand, tuple[Meld, ...], int]] = []
    for i in range(len(melds)):
        m = melds[i]
        if 4 <= m[0] < WILD and m[1] >= 3 and m[2] + m[3] == 0:
            out.append((h, melds[:i] + ((m[0], m[1], 0, 0, LOCK),) + melds[i + 1:], gain))
    k = max(3, R.min_size)
    vals = R.values
    if cap and k >= R.cs:
        return out
    for r in RANKS:
        if h[r] < k or (dead >> r) & 1 or not R.valid((r, k, 0, 0, 0)):
            continue
        if not R.multi and any(m[0] == r and R.blocks_new(m) for m in melds):
            continue
        out.append((take_naturals(h, r, k), melds + ((r, k, 0, 0, LOCK),), gain + k * vals[r]))
    if len(h) > 15 and not (cap and R.seq_min >= R.cs):
        # a new sequence (samba 4.3) is a natural meld of three or more too
        for suit in range(4):
            for low in range(R.seq_lo, R.seq_hi - R.seq_min + 2):
                codes = [4 * (low + j) - 1 + suit for j in range(R.seq_min)]
                if any(not h[k2] or (dead >> ((k2 + 1) >> 2)) & 1 for k2 in codes):
                    continue
                hl = list(h)
                pts = 0
                for k2 in codes:
                    hl[k2] -= 1
                    hl[(k2 + 1) >> 2] -= 1
                    pts += vals[k2]
                out.append((bytes(hl), melds + ((seq_rank(suit, low), R.seq_min, 0, 0, 0),), gain + pts))
    return out


def take_naturals(h: Hand, r: int, n: int) -> Hand:
    """``h`` less ``n`` naturals of rank ``r``; where cards carry suits (59 counts), of the suits
    held most first (the lowest suit among equals)."""
    hl = bytearray(h)
    hl[r] -= n
    if len(h) > 15:
        base = 4 * r - 1
        for _ in range(n):
            best = base
            for code in range(base + 1, base + 4):
                if hl[code] > hl[best]:
                    best = code
            hl[best] -= 1
    return bytes(hl)
