"""Turn planning: can the initial minimum still be met, can this player still go out?

No dead ends: an action is offered only when the turn can still be finished legally after it.
:func:`reach` answers "can more melds add ``need`` points while ``keep`` cards stay in hand?"
and :func:`can_go_out` "can every card of the hand be melded (one may be discarded last) so
that the side goes out?", exactly enough for that. :func:`open_then_out` answers both in turn
for a player bound to go out (a "yes") who takes the pile for his side's initial meld: the
minimum from the hand first, then every card with the rest of the pile.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

from itertools import product

from ._memo import bounded_memo
from ._rules import (B3, BIG, COMP_CANASTA, COMP_CLEAN, COMP_MIXED, COMP_NATURAL, COMP_SEQ, COMP_WILD, JK, R3, RANKS, SEQ, TWO, WILD, Meld, Rules, seq_low, seq_rank,
                     seq_suit)

Hand = bytes
Comp = tuple[int, int]
"""What an initial meld must include: (``COMP_*`` bits, points), see ``Rules.initial_comp``."""
LOCK = 2
"""A planned meld whose fifth item is ``LOCK`` takes no wild card: it is the natural meld an
initial meld must include (:func:`comp_options`), kept natural to the end of the turn."""


def meld_room(R: Rules, m: Meld, opening: bool) -> int:
    """Cards (naturals or wilds) that may still be added to ``m`` in size terms."""
    if opening and not R.initial_canasta:
        # new-canasta: "you cannot meld a Canasta ... for an initial meld"
        return max(0, R.cs - 1 - (m[1] + m[2] + m[3]))
    if R.closed:
        return max(0, R.cs - (m[1] + m[2] + m[3]))
    return BIG


def add_wild_cap(R: Rules, m: Meld, extra_nat: int) -> int:
    """Wild cards that may be added to ``m`` after ``extra_nat`` naturals are added."""
    rank = m[0]
    if rank == WILD:
        if R.deuce:
            # italian 4.3: the jokers a meld of deuces still takes (its deuces are its naturals)
            return max(0, min(R.cs - (m[1] + m[2] + m[3]), R.wild_cap(m[3]) - m[2]))
        room = max(0, R.wild_meld_max - (m[2] + m[3])) if R.wild_meld_max < BIG else BIG
        if not R.wild_on_canasta:
            # samba 4.7: the last wild card goes on while the meld is not yet a canasta
            room = min(room, max(0, R.cs - (m[2] + m[3])))
        return room
    if rank == B3:
        return 0
    if rank in R.natural_only or (rank in R.stay_natural and m[2] + m[3] == 0):
        return 0  # modern-american 4.4, 4.5
    if m[4] == LOCK:
        return 0  # the initial meld's natural meld stays natural (comp_options)
    if not R.wild_on_canasta and R.is_canasta(m):
        return 0  # samba 4.7: no wild card onto a canasta
    nat = m[1] + extra_nat
    cap = R.wild_cap(nat)
    if R.unlimited and nat + cap >= R.cs and nat >= R.cmin_nat:
        return BIG
    if not R.wild_on_canasta:
        return _room_before_canasta(R, m, extra_nat)
    return max(0, cap - m[2] - m[3])


def _room_before_canasta(R: Rules, m: Meld, extra_nat: int) -> int:
    """``add_wild_cap`` where no wild card may be added to a canasta (samba 4.7): cards go on one
    at a time, so every wild card goes on while the meld is not yet a canasta. The best order
    adds ``x`` of the ``extra_nat`` naturals first (for a meld's ratio of wild cards to
    naturals), then the wild cards, then the other naturals: the last wild card goes on a meld of
    ``m[1] + x + w - 1`` cards (``w`` its wild cards then), which must be short of a canasta."""
    w0 = m[2] + m[3]
    best = 0
    for x in range(extra_nat + 1):
        nat = m[1] + x
        w = R.wild_cap(nat)
        if nat >= R.cmin_nat:
            w = min(w, R.cs - nat)
        if w > best:
            best = w
    return max(0, best - w0)


def side_canastas(R: Rules, melds: tuple[Meld, ...]) -> int:
    """Canastas among ``melds``."""
    cs = R.cs
    cmin = R.cmin_nat
    n = 0
    if not R.count_all:
        return _counted_canastas(R, melds)
    for m in melds:
        if m[1] + m[2] + m[3] >= cs and (m[0] == WILD or m[1] >= cmin):
            n += 1
    return n


def _counted_canastas(R: Rules, melds: tuple[Meld, ...]) -> int:
    """Canastas among ``melds`` of the kinds ``going_out.counted_kinds`` lists (italian 6.1: a
    canasta of wild cards does not count)."""
    nat, mixed, wild, seq, rank = R.counted
    n = 0
    for m in melds:
        if R.is_canasta(m):
            r = m[0]
            if r >= SEQ:
                n += seq
            elif r == WILD:
                n += wild
            elif r in R.rank_bonus_by:
                n += rank  # scoring.rank_canastas: a kind of its own
            elif m[2] + m[3]:
                n += mixed
            else:
                n += nat
    return n


def kinds_short(R: Rules, melds: tuple[Meld, ...]) -> tuple[int, int, int, int]:
    """Natural, mixed, wild and sequence canastas the side still lacks of
    ``going_out.canastas_by_kind`` (hand-and-foot 6.2, bolivia 6.1), all 0 when none is required."""
    need = R.kinds_needed
    if need is None:
        return (0, 0, 0, 0)
    nat = mixed = wild = seq = 0
    for m in melds:
        if R.is_canasta(m):
            if m[0] >= SEQ:
                seq += 1
            elif m[0] == WILD:
                wild += 1
            elif m[0] in R.rank_bonus_by:
                pass  # a rank canasta (scoring.rank_canastas) is neither natural nor mixed
            elif m[2] + m[3]:
                mixed += 1
            else:
                nat += 1
    return (max(0, need[0] - nat), max(0, need[1] - mixed), max(0, need[2] - wild), max(0, need[3] - seq))


def ranks_short(R: Rules, melds: tuple[Meld, ...]) -> tuple[int, ...]:
    """For each rank of ``going_out.canastas_by_rank`` (pennies-from-heaven 7.1: sevens), the rank
    and the canastas of it (natural or mixed) the side still lacks, flattened: ``(7, 1)``."""
    out: list[int] = []
    for rank, need in R.rank_needed:
        have = 0
        for m in melds:
            if m[0] == rank and R.is_canasta(m):
                have += 1
        out += (rank, max(0, need - have))
    return tuple(out)


def ranks_met(R: Rules, melds: tuple[Meld, ...]) -> bool:
    """Whether the side has the canastas of each rank ``going_out.canastas_by_rank`` asks."""
    for rank, need in R.rank_needed:
        have = 0
        for m in melds:
            if m[0] == rank and R.is_canasta(m):
                have += 1
        if have < need:
            return False
    return True


def canastas_ok(R: Rules, melds: tuple[Meld, ...]) -> bool:
    """Whether the side's canastas let it go out (their number, their kinds and ranks)."""
    return side_canastas(R, melds) >= R.canastas_needed and (R.kinds_needed is None or (
        not any(kinds_short(R, melds)) and (not R.rank_needed or ranks_met(R, melds))))


def greedy(R: Rules, h: Hand | list[int], melds: tuple[Meld, ...], opening: bool) -> tuple[int, int]:
    """Most points meldable from ``h`` (ignoring how many cards must stay in hand).

    Returns (points, cards left unmelded). Black threes are never counted here: they are
    melded only when going out.
    """
    vals = R.values
    by_rank: dict[int, list[Meld]] = {}
    wild_meld = False
    wild_room = 0
    for m in melds:
        if m[0] == WILD:
            wild_meld = True
            wild_room = add_wild_cap(R, m, 0)
        lst = by_rank.get(m[0])
        if lst is None:
            by_rank[m[0]] = [m]
        else:
            lst.append(m)
    pts = 0
    cap = 0
    left = h[B3] + h[R3]
    pairs: list[int] = []
    small_cap = R.small_cap_opening if opening else R.small_cap
    # modern-american 4.4: sevens never take a wild card (a natural meld of aces takes none
    # either, but a new one may be laid with one in the initial meld: add_wild_cap has the rest)
    plain = R.natural_only
    for r in RANKS:
        n = h[r]
        ms = by_rank.get(r)
        if ms:
            rem = n
            mcap = 0
            for m in ms:
                room = meld_room(R, m, opening)
                take = min(rem, room)
                rem -= take
                mcap += min(add_wild_cap(R, m, take), max(0, room - take))
            if R.multi and 0 < rem < 3 <= n and (n >= R.min_nat and n >= R.min_size):
                # filling the melds on the table would strand the last naturals: a new meld of
                # the rank takes them all instead (a side may hold two melds of one rank), and
                # the melds on the table keep their room for wild cards
                for m in ms:
                    cap += min(add_wild_cap(R, m, 0), meld_room(R, m, opening))
            else:
                cap += mcap
                pts += (n - rem) * vals[r]
                n = rem
                if not n:
                    continue
                if not R.multi:
                    left += n
                    continue
        if n >= 3 or (n >= R.min_nat and n >= R.min_size):
            pts += n * vals[r]
            if r in plain:
                pass
            elif n <= small_cap:
                cap += min(R.wild_cap(n), small_cap - n)
            else:
                a, b = (n + 1) // 2, n // 2
                cap += min(R.wild_cap(a), small_cap - a) + min(R.wild_cap(b), small_cap - b)
        elif n == 2 and R.min_nat <= 2 and R.wild_cap(2) >= 1 and r not in plain:
            pairs.append(vals[r])
        else:
            left += n
    wilds = h[JK] + h[TWO]
    p = min(len(pairs), wilds)
    if p:
        pairs.sort(reverse=True)
        for i in range(p):
            pts += 2 * pairs[i]
        cap += p * (R.wild_cap(2) - 1)
    left += 2 * (len(pairs) - p)
    rest = wilds - p
    placed = min(rest, cap)
    if R.wild_excl and wild_meld and wild_room:
        # modern-american 4.6: while the side's wild meld is open, wild cards go only there
        p = 0
        pts -= sum(2 * x for x in sorted(pairs, reverse=True)[:min(len(pairs), wilds)])
        left += 2 * min(len(pairs), wilds)
        rest = wilds
        placed = 0
        extra = rest
        placed += min(extra, wild_room)
        used = placed
        jk = min(h[JK], used)
        pts += jk * vals[JK] + (used - jk) * vals[TWO]
        left += wilds - used
        return pts, left
    if R.wild_melds and not R.wild_excl:
        # the rest onto the side's meld of wild cards, or into a new one
        extra = rest - placed
        if wild_meld:
            placed += min(extra, wild_room)
        elif extra >= R.min_size and R.free_wild_melds:
            placed += min(extra, R.wild_meld_max)
    used = p + placed
    jk = min(h[JK], used)
    pts += jk * vals[JK] + (used - jk) * vals[TWO]
    left += wilds - used
    return pts, left


def reach(R: Rules, h: Hand, melds: tuple[Meld, ...], need: int, keep: int) -> bool:
    """Can more melds from ``h`` add ``need`` points while ``keep`` cards stay in hand?"""
    if R.plan_views:
        h, melds, need, keep = _reach_view(R, h, melds, need, keep)
    if len(h) > 15:
        if need <= 0 or reach(R, h[:15], melds, need, keep):
            return sum(h[:15]) >= keep if need <= 0 else True
        return any(reach(R, h2, melds2, need - pts, keep)
                   for h2, melds2, pts, _c in sequence_plays(R, h, melds, False)[1:])
    if need <= 0:
        return sum(h) >= keep
    pts, left = greedy(R, h, melds, True)
    if pts < need:
        return False
    if left >= keep:
        return True
    # withhold cards from the best melding, every way, until enough stay in hand
    kinds = [k for k in range(len(h)) if h[k]]
    hl = list(h)
    for withheld in range(keep - left, keep + 1):
        if _withhold(R, hl, kinds, 0, withheld, melds, need, keep, withheld):
            return True
    return False


def _reach_view(R: Rules, h: Hand, melds: tuple[Meld, ...], need: int, keep: int) -> tuple[Hand, tuple[Meld, ...], int, int]:
    """``reach``'s question as the planner sees it: in the initial meld's turn with
    ``initial_meld.no_wild`` the wild cards stay in hand (italian 4.5); with a meld of deuces open,
    the deuces go onto it first (italian 4.4)."""
    if R.no_wild:
        w = h[JK] + h[TWO]
        if w:
            hl = bytearray(h)
            hl[JK] = hl[TWO] = 0
            return bytes(hl), melds, need, max(0, keep - w)
        return h, melds, need, keep
    h2, melds2, gain, _discard, _full = deuce_view(R, h, melds, False)
    return h2, melds2, need - gain, keep


def deuce_view(R: Rules, h: Hand, melds: tuple[Meld, ...], allow_discard: bool
               ) -> tuple[Hand, tuple[Meld, ...], int, bool, bool]:
    """The hand and melds after putting the deuces held onto the side's open meld of deuces
    (``melds.deuce_melds``), as every plan of the turn planner does first: (hand, melds, points,
    whether a discard is still allowed, whether the deuces could not all be placed). With
    ``melds.deuce_meld_exclusive`` a deuce goes nowhere else (italian 4.4), so one more than the
    meld's room is the last discard, and more cannot be played."""
    tw = h[TWO]
    if not tw:
        return h, melds, 0, allow_discard, False
    for i in range(len(melds)):
        m = melds[i]
        if m[0] == WILD:
            room = R.cs - (m[1] + m[2] + m[3])
            if room <= 0:
                break
            put = min(tw, room)
            stuck = False
            if R.deuce_excl and tw > room:
                if tw == room + 1 and allow_discard:
                    allow_discard = False
                else:
                    stuck = True
            hl = bytearray(h)
            hl[TWO] -= put
            if R.deuce_excl and tw > room and not stuck:
                hl[TWO] -= 1  # the last discard
            nm = (WILD, m[1], m[2], m[3] + put, m[4])
            return bytes(hl), melds[:i] + (nm,) + melds[i + 1:], put * R.values[TWO], allow_discard, stuck
    return h, melds, 0, allow_discard, False


def _withhold(R: Rules, hl: list[int], kinds: list[int], start: int, todo: int, melds: tuple[Meld, ...],
              need: int, keep: int, withheld: int) -> bool:
    if todo == 0:
        p2, l2 = greedy(R, hl, melds, True)
        return p2 >= need and l2 + withheld >= keep
    for i in range(start, len(kinds)):
        k = kinds[i]
        if hl[k]:
            hl[k] -= 1
            ok = _withhold(R, hl, kinds, i, todo - 1, melds, need, keep, withheld)
            hl[k] += 1
            if ok:
                return True
    return False


def open_ranks(R: Rules, melds: tuple[Meld, ...]) -> int:
    """Bit ``1 << rank`` for each rank with a meld that can still grow (not a closed canasta)."""
    mask = 0
    closed = R.closed
    cs = R.cs
    for m in melds:
        if not (closed and m[1] + m[2] + m[3] >= cs):
            mask |= 1 << m[0]
    return mask


def can_go_out(R: Rules, h: Hand, melds: tuple[Meld, ...], need: int, allow_discard: bool = True,
               own_canasta: bool = False, mask: int = -1, cap: int = False, most: int = BIG) -> bool:
    """Can every card of ``h`` be melded (one may be discarded last) so the side goes out?

    ``mask`` is ``open_ranks(R, melds)`` when the caller has it. No meld may reach canasta size
    while ``need`` is still owed (where the variant forbids a canasta in an initial meld), nor
    anywhere with ``cap`` (the turn of an initial meld, where the variant says "never"). ``cap``'s
    bit 2 marks the turn of a side's initial meld under ``initial_meld.no_wild`` (italian 4.5): no
    wild card is melded, so one may only be the last discard. ``most``: the most canastas the side
    may have when it goes out (:func:`out_most`; below 0, no going out can be planned)."""
    if R.plan_views:
        if cap > 1:
            w = h[JK] + h[TWO]
            cap = bool(cap & 1)
            if w:
                if w > 1 or not allow_discard:
                    return False
                hl = bytearray(h)
                hl[JK] = hl[TWO] = 0
                return can_go_out(R, bytes(hl), melds, need, False, own_canasta, mask, cap, most)
        if R.deuce and h[TWO]:
            h2, melds2, gain, allow2, stuck = deuce_view(R, h, melds, allow_discard)
            if stuck or (h2 is not h and cap):
                return False
            if h2 is not h:
                formed = R.is_canasta(melds2[[m[0] for m in melds2].index(WILD)]) and not any(
                    m[0] == WILD and R.is_canasta(m) for m in melds)
                return can_go_out(R, h2, melds2, need - gain, allow2, own_canasta and not formed, -1, cap, most)
    if len(h) > 15:
        if _seq_orphans(R, h, melds) > (1 if allow_discard else 0):
            return False  # naturals that neither a group nor a sequence can take
        for h2, melds2, pts, canasta in sequence_plays(R, h, melds, cap, True):
            if can_go_out(R, h2, melds2, need - pts, allow_discard, own_canasta and not canasta, -1, cap, most):
                return True
        return False
    if not R.plan_out:
        return False  # going out is checked exactly, on the table's melds (Rules.plan_out)
    if h[R3] and not R.keep_r3:
        return False
    if R.b3_final and h[B3] >= 2:
        # new-canasta: the canasta of black threes "must be the last 7 cards in the player's
        # hand": melded last, nothing may be discarded after it
        allow_discard = False
    # A natural held once, with no open meld of its rank, can only be the last discard:
    # two such cards (or one with no discard allowed) rule going out out at once.
    if mask < 0:
        mask = open_ranks(R, melds)
    limit = 1 if allow_discard else 0
    first = -1
    orphans = 0
    short = 0  # wild cards that new melds of the unmelded ranks need at least
    min_size = R.min_size
    for r, n in zip(RANKS, h[4:15]):
        if n and not (mask >> r) & 1:
            if n == 1:
                orphans += 1
                if orphans > limit:
                    return False
                if first < 0:
                    first = r
            elif n < min_size:
                short += min_size - n
    if short > h[JK] + h[TWO]:
        return False  # discarding cannot help: no choice lowers this need or adds a wild card
    b3 = h[B3]
    if b3 and (R.b3_never or (b3 < R.b3_min and not (mask >> B3) & 1)):
        orphans += b3
        if orphans > limit:
            return False
        if first < 0:
            first = B3
    # a cheap necessary condition: a side short of canastas needs a rank that can reach one
    if own_canasta or side_canastas(R, melds) < R.canastas_needed or (
            R.kinds_needed is not None and not canastas_ok(R, melds)):
        if not canasta_reachable(R, h, melds):
            return False
    if first >= 0:
        if first in R.final_ban:
            return False  # pennies-from-heaven 3.5: a seven may not be the discard that goes out
        choices = [first]
    elif allow_discard:
        # discarding one of an unmelded natural pair would leave a single that cannot be melded
        choices = [-1] + [k for k in range(len(h)) if h[k] and not (k >= 4 and h[k] == 2 and not (mask >> k) & 1)
                          and k not in R.final_ban]
    else:
        choices = [-1]
    return any_meldable(R, h, melds, need, own_canasta, choices, cap, most)


def canasta_reachable(R: Rules, h: Hand, melds: tuple[Meld, ...]) -> bool:
    """Whether melding cards of ``h`` could complete a new canasta: some rank whose naturals,
    with every wild card held, reach canasta size on a meld that is not yet a canasta (or
    black threes, in a variant with black-three canastas). A bound: ``any_meldable`` forms
    no new canasta where this is False."""
    cs = R.cs
    wilds = h[JK] + h[TWO]
    best = max(h[4:15])
    b3_melded = 0
    for m in melds:
        r = m[0]
        size = m[1] + m[2] + m[3]
        if r == B3:
            b3_melded = m[1]
        elif r != WILD and r < SEQ and not (size >= cs and m[1] >= R.cmin_nat):
            if size + h[r] > best:
                best = size + h[r]
    if best + wilds >= cs:
        return True
    return not R.b3_never and h[B3] > 0 and h[B3] + b3_melded >= cs > b3_melded


@lru_cache(maxsize=256)
def meld_summary(R: Rules, melds: tuple[Meld, ...]) -> Summary:
    """Open melds by rank, canastas, red-three slots, a wild-only meld, black threes melded,
    and the room left on the wild-only meld."""
    by_rank: dict[int, list[Meld]] = {}
    canastas = red = b3 = wild_room = closed = 0
    wild = False
    for m in melds:
        if R.is_canasta(m):
            canastas += 1
        if m[0] == B3:
            b3 = m[1]
            continue
        if m[0] == WILD:
            wild = True
            wild_room = add_wild_cap(R, m, 0)
            continue
        if R.closed and m[1] + m[2] + m[3] >= R.cs:
            if m[2] + m[3] == 0 and not m[4]:
                red += 1
            if not R.multi and not R.new_after:
                closed |= 1 << m[0]  # one meld per rank: no new meld of this rank
            continue
        by_rank.setdefault(m[0], []).append(m)
    if not R.count_all:
        canastas = _counted_canastas(R, melds)  # going_out.counted_kinds (italian 6.1)
    return {r: tuple(ms) for r, ms in by_rank.items()}, canastas, red, wild, b3, wild_room, closed


Plan = tuple[int, int, int, int, bool, tuple[tuple[int, int], ...]]
Summary = tuple[dict[int, tuple[Meld, ...]], int, int, bool, int, int, int]


@lru_cache(maxsize=1 << 16)
def rank_plan(R: Rules, n: int, ms: tuple[Meld, ...], opening: bool, dead: bool = False) -> Optional[Plan]:
    """How ``n`` naturals of one rank are all melded, given the side's open melds ``ms`` of it
    (``dead``: the side's only meld of the rank is a closed canasta, so none can be).

    Returns None if they cannot be, else (wild cards needed, wild room, canastas formed,
    red-three slots formed, unlimited wild room, (wilds to complete, room) per near-canasta).
    """
    wmin = wcap = canastas = red = 0
    unlimited = False
    gaps: list[tuple[int, int]] = []
    others = ms
    if n and dead:
        return None
    if n and ms:
        m = ms[0]
        others = ms[1:]
        room_n = meld_room(R, m, opening)
        put = min(n, room_n)
        rest = n - put
        if rest and R.new_after and rest >= R.min_nat and m[1] + m[2] + m[3] + put >= R.cs:
            pass  # the meld closes as a canasta and the rest starts a new one (new_after_canasta)
        else:
            if rest and (rest < 2 or not R.multi):
                if not R.multi:
                    return None
                if put >= 1 and rest == 1:
                    # keep a natural back for a new meld of the rest
                    put -= 1
                    rest += 1
                else:
                    return None
            if 0 < rest < R.min_size and put >= R.min_size - rest:
                put = _natural_new_meld(R, m, room_n, put, R.min_size - rest)
                rest = n - put
        size = m[1] + m[2] + m[3] + put
        nat = m[1] + put
        room_w = min(add_wild_cap(R, m, put), meld_room(R, m, opening) - put)
        if room_w >= BIG // 2:
            unlimited = True
        wcap += room_w
        if R.is_canasta(m):
            pass
        elif size >= R.cs and nat >= R.cmin_nat:
            canastas += 1
            if R.closed and m[2] + m[3] == 0:
                red += 1
        elif R.cs - size <= room_w and nat >= R.cmin_nat:
            gaps.append((R.cs - size, room_w))
        n = rest
    for m in others:  # melds of the rank that take no naturals: room for wild cards
        room = min(add_wild_cap(R, m, 0), meld_room(R, m, opening))
        wcap += room
        if room >= BIG // 2:
            unlimited = True
        if not R.is_canasta(m) and m[1] >= R.cmin_nat:
            gap = R.cs - (m[1] + m[2] + m[3])
            if gap <= room:
                gaps.append((gap, room))
    if n:
        # new meld(s) of the rank from the remaining naturals
        limit = R.cs if R.closed else (R.cs - 1 if opening and not R.initial_canasta else BIG)
        k = max(1, -(-n // limit))
        if k > 1 and not R.multi and not R.new_after:
            return None  # one meld per rank, and it cannot hold them all
        for i in range(k):
            if R.new_after and k > 1:
                # one open meld at a time: each closes as a canasta before the next starts
                part = limit if i < k - 1 else n - limit * (k - 1)
            else:
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
                    room = BIG
                if gap <= room and part >= R.cmin_nat:
                    gaps.append((gap, room))
    return wmin, wcap, canastas, red, unlimited, tuple(gaps)


def _natural_new_meld(R: Rules, m: Meld, room_n: int, put: int, d: int) -> int:
    """The naturals to put on the meld ``m`` (whose size stops them at ``room_n``) when the rest
    start a new meld too small to stand without wild cards: ``d`` fewer, so that the new meld is
    laid of naturals alone, wherever the ``d`` wild cards so saved could go on ``m`` instead
    (then nothing is lost: the same canasta can be made of ``m``, with less need of wild cards).
    Without it a player holding, say, five nines to a meld of three with room for four more could
    be told he cannot meld them all (two onto the meld, three laid anew)."""
    room_a = min(add_wild_cap(R, m, put), room_n - put)
    room_b = min(add_wild_cap(R, m, put - d), room_n - put + d)
    return put - d if room_b >= min(room_a + d, BIG // 2) else put


def any_meldable(R: Rules, h: Hand, melds: tuple[Meld, ...], need: int, own_canasta: bool,
                 choices: list[int], cap: int = False, most: int = BIG) -> bool:
    """Whether, for some choice (-1: keep every card; else a kind discarded last), every other
    card of ``h`` can be melded so that the side then has its canastas.

    The ranks are planned once for the whole hand (:func:`rank_plan`); each choice changes the
    plan of one rank at most.
    """
    s = meld_summary(R, melds)
    # canastas of the kinds required: only those already on the table count here (a bound:
    # the planner tracks how many canastas form, not their kinds)
    kinds = R.kinds_needed is None or (not any(kinds_short(R, melds)) and (not R.rank_needed
                                                                             or ranks_met(R, melds)))
    opening = need > 0 or cap  # no meld may reach canasta size (see meld_room)
    by_rank = s[0]
    dead = s[6]  # ranks whose only meld is a closed canasta (one meld per rank); mostly 0
    plans: list[Optional[Plan]] = [None] * 15
    present = 0  # bit per rank with cards or melds
    bad = 0  # ranks whose naturals cannot all be melded
    wmin = wcap = formed = red = unl = 0
    gaps: list[tuple[int, int, int]] = []
    for r in RANKS:
        n = h[r]
        ms = by_rank.get(r)
        if not n and ms is None:
            continue
        present |= 1 << r
        if dead and (dead >> r) & 1:
            p = rank_plan(R, n, ms if ms is not None else (), opening, True)
        else:
            p = rank_plan(R, n, ms if ms is not None else (), opening)
        plans[r] = p
        if p is None:
            bad += 1
            continue
        wmin += p[0]
        wcap += p[1]
        formed += p[2]
        red += p[3]
        if p[4]:
            unl += 1
        for gap, room in p[5]:
            gaps.append((gap, room, r))
    total = 0
    if opening:
        vals = R.values
        for k in range(len(h)):
            total += h[k] * vals[k]
    size = sum(h)
    for d in choices:
        if d < 0 or d < 4:
            if bad:
                continue
            dw = wmin
            dc = wcap
            df = formed
            dr = red
            du = unl
            dg = gaps
        else:
            old = plans[d]
            if bad - (old is None) > 0:
                continue
            n = h[d] - 1
            ms = by_rank.get(d)
            if not n and ms is None:
                new: Optional[Plan] = None
                present_d = False
            else:
                if dead and (dead >> d) & 1:
                    new = rank_plan(R, n, ms if ms is not None else (), opening, True)
                else:
                    new = rank_plan(R, n, ms if ms is not None else (), opening)
                if new is None:
                    continue
                present_d = True
            dw = wmin
            dc = wcap
            df = formed
            dr = red
            du = unl
            if old is not None:
                dw -= old[0]
                dc -= old[1]
                df -= old[2]
                dr -= old[3]
                du -= old[4]
            if present_d and new is not None:
                dw += new[0]
                dc += new[1]
                df += new[2]
                dr += new[3]
                du += new[4]
                dg = [g for g in gaps if g[2] != d] + [(gap, room, d) for gap, room in new[5]]
            else:
                dg = [g for g in gaps if g[2] != d]
        if _meldable(R, h, s, need, own_canasta, d, size, total, dw, dc, df, dr, du, dg, kinds, most):
            return True
        if most < BIG and R.multi and not R.closed and df:
            # mexicana 6.2: the naturals of a rank laid so as to complete no canasta, rank after
            # rank, where the plan completes more canastas than the red threes allow
            for r in RANKS:
                old = plans[r]
                if r == d or old is None or not old[2]:
                    continue
                alt = split_plan(R, h[r], by_rank.get(r, ()), bool(opening))
                if alt is None:
                    continue
                dw += alt[0] - old[0]
                dc += alt[1] - old[1]
                df += alt[2] - old[2]
                dr += alt[3] - old[3]
                du += alt[4] - old[4]
                dg = [g for g in dg if g[2] != r] + [(gap, room, r) for gap, room in alt[5]]
                if _meldable(R, h, s, need, own_canasta, d, size, total, dw, dc, df, dr, du, dg, kinds, most):
                    return True
    return False


def split_plan(R: Rules, n: int, ms: tuple[Meld, ...], opening: bool) -> Optional[Plan]:
    """:func:`rank_plan` with the ``n`` naturals laid so that they complete no canasta (mexicana
    6.2: a side may go out with no more canastas than red threes), where a side may hold several
    melds of a rank: the side's open melds of the rank filled in turn up to one card short of a
    canasta, the rest in new melds of fewer than canasta size, as even as may be (the melds
    filled give back naturals where the rest would be too few for a meld of naturals alone).
    None where that cannot be done."""
    cs = R.cs
    low = max(3, R.min_size)  # a new meld of naturals alone
    if not n or cs <= low:
        return None
    puts = []
    left = n
    for m in ms:
        t = 0 if R.is_canasta(m) else min(left, max(0, cs - 1 - (m[1] + m[2] + m[3])))
        puts.append(t)
        left -= t
    if 0 < left < low:
        back = low - left
        for i in range(len(puts) - 1, -1, -1):
            t = min(puts[i], back)
            puts[i] -= t
            back -= t
            left += t
        if back:
            return None
    wmin = wcap = formed = red = 0
    unl = False
    gaps: list[tuple[int, int]] = []
    k = -(-left // (cs - 1))
    plans = [rank_plan(R, puts[i], (ms[i],), opening) for i in range(len(ms))]
    plans += [rank_plan(R, left // k + (1 if i < left % k else 0), (), opening) for i in range(k)]
    for p in plans:
        if p is None:
            return None
        wmin += p[0]
        wcap += p[1]
        formed += p[2]
        red += p[3]
        unl = unl or p[4]
        gaps += p[5]
    return wmin, wcap, formed, red, unl, tuple(gaps)


def _meldable(R: Rules, h: Hand, s: Summary, need: int, own_canasta: bool, d: int, size: int, total: int,
              wmin: int, wcap: int, formed: int, red: int, unl: int, gaps: list[tuple[int, int, int]],
              kinds: bool = True, most: int = BIG) -> bool:
    """Whether the hand ``h`` less the card ``d`` (-1: none) melds out, given the sums of its
    ranks' plans: enough wild cards for the new melds and room for the rest, the canastas
    the side needs (the spare wild cards completing the nearest ones), a canasta of the
    player's own where concealed going out asks for one, red threes only where they may
    top a canasta, and no more canastas than ``most`` (mexicana 6.2: the red threes faced)."""
    canastas = s[1]
    if size - (d >= 0) == 0:
        # nothing left to meld: the side goes out with the canastas it has
        return need <= 0 and not own_canasta and R.canastas_needed <= canastas <= most and kinds
    if need > 0 and total - (R.values[d] if d >= 0 else 0) < need:
        return False
    fresh = formed
    if R.count_all or (R.counted[0] and R.counted[1] and (R.counted[4] or not R.rank_bonus_by)):
        canastas += formed
    else:
        gaps = []  # a canasta of a rank may be natural or mixed: only a kind not counted is sure
    b3 = h[B3] - (d == B3)
    if b3:
        if R.b3_never:
            return False
        b3_melded = s[4]
        total_b3 = b3 + b3_melded
        if not R.b3_min <= total_b3 <= R.b3_max:
            return False
        if total_b3 >= R.cs and b3_melded < R.cs:
            canastas += 1
            fresh += 1
    unlimited = (s[3] and s[5] >= BIG // 2) or unl > 0
    wilds = h[JK] + h[TWO] - (d == JK or d == TWO)
    if wilds < wmin:
        return False
    spare = wilds - wmin
    done = 0  # gaps completed (the first of them, sorted)
    if canastas < R.canastas_needed or (own_canasta and not fresh):
        gaps = sorted(gaps)
        for gap, _room, _r in gaps:
            if spare < gap or (canastas >= R.canastas_needed and (fresh or not own_canasta)):
                break
            spare -= gap
            canastas += 1
            fresh += 1
            done += 1
    if most < BIG and not _within(R, canastas, most, spare, wcap - (wilds - wmin - spare), gaps, done):
        return False
    if canastas and R.unlimited:
        unlimited = True
    leftover_wilds = wilds - wmin
    if leftover_wilds > wcap and not unlimited:
        # the rest onto the side's meld of wild cards, or into a new one
        over = leftover_wilds - wcap
        if s[3]:
            if over > s[5]:
                return False
        elif not (R.free_wild_melds and R.min_size <= over <= R.wild_meld_max):
            return False
    if canastas < R.canastas_needed or not kinds:
        return False
    if own_canasta and not fresh:
        return False
    r3 = h[R3] - (d == R3)
    if r3:
        if not R.keep_r3 or r3 > s[2] + red:
            return False
    return True


def _within(R: Rules, canastas: int, most: int, spare: int, room: int, gaps: list[tuple[int, int, int]],
            done: int) -> bool:
    """mexicana 6.2 (E15): whether the plan's ``canastas`` stay within ``most`` while the ``spare``
    wild cards still find ``room`` (what the melds can still take): a meld a wild card would complete
    takes at most one fewer than it lacks, unless the side may complete it as one more canasta
    (those with the most room first). Wild cards onto a canasta (``melds.unlimited_wild_on_canasta``)
    complete none; a meld of wild cards only is not counted on (a bound: it may refuse, never offer
    a plan that breaks the gate)."""
    if canastas > most:
        return False
    if not spare or (R.unlimited and canastas):
        return True
    rest = sorted(gaps[done:], key=lambda g: g[0] - g[1])  # gaps[:done] were completed (sorted)
    safe = room
    for gap, rm, _r in rest:
        if rm >= BIG // 2:
            return False
        safe -= rm - gap + 1
    for gap, rm, _r in rest:
        if spare <= safe or canastas >= most:
            break
        safe += rm - gap + 1
        canastas += 1
    return spare <= safe


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


# ------------------------------------------------------------------ sequences (melds.sequences)

SEQ_PLAN_LIMIT = 1024
"""Most combinations of sequence plays tried per question: beyond it the planner answers from
those tried (a bound that can only refuse, never offer a play that strands the turn)."""


def _seq_orphans(R: Rules, h: Hand, melds: tuple[Meld, ...]) -> int:
    """Naturals held once, of a rank with no open group of the side, that no sequence could take
    (no run of three of their suit among the cards held, nor a chain of them to an end of a
    sequence of the side): each can only be the last discard. A bound: it may count too few."""
    mask = open_ranks(R, melds)
    lo, hi = R.seq_lo, R.seq_hi
    n = 0
    for r in RANKS:
        if h[r] != 1 or (mask >> r) & 1:
            continue
        base = 4 * r - 1
        s = 0
        while not h[base + s]:
            s += 1
        if not lo <= r <= hi or not _may_join(R, h, melds, r, s):
            n += 1
    return n


def _may_join(R: Rules, h: Hand, melds: tuple[Meld, ...], r: int, s: int) -> bool:
    """Whether the natural of rank ``r`` and suit ``s`` could be in a sequence (see ``_seq_orphans``)."""
    lo, hi = R.seq_lo, R.seq_hi
    below = 0
    while r - below - 1 >= lo and h[4 * (r - below - 1) - 1 + s]:
        below += 1
    above = 0
    while r + above + 1 <= hi and h[4 * (r + above + 1) - 1 + s]:
        above += 1
    if below + above + 1 >= R.seq_min:
        return True
    for m in melds:
        if m[0] >= SEQ and seq_suit(m[0]) == s:
            low = seq_low(m[0])
            if low - 1 - above <= r <= low - 1 or low + m[1] <= r <= low + m[1] + below:
                return True
    return False


def sequence_plays(R: Rules, h: Hand, melds: tuple[Meld, ...], cap: int,
                   out: bool = False) -> list[tuple[Hand, tuple[Meld, ...], int, bool]]:
    """Every way to play sequences from the hand ``h`` (59 counts: per kind, then per suited card):
    new sequences and cards added at the ends of the side's sequences, each suit on its own.
    Returns (the hand left, as 15 counts per kind; the melds after; the points melded; whether a
    sequence became a canasta), the play of no sequence first. ``cap``: no sequence may reach
    canasta size; ``out``: the plays of a going out (brazilian 4.2: a sequence may then pass its
    size). The rest of the hand is then planned by rank, as groups."""
    return _sequence_plays(R, bytes(h), melds, cap, out and R.seq_past_max)


SEQ_MEMO = (512, 1 << 14)
"""The sequence plays kept: at most 512 answers and 16,384 plays in all (about 6 MB)."""


@bounded_memo(*SEQ_MEMO, cost=len)
def _sequence_plays(R: Rules, h: bytes, melds: tuple[Meld, ...], cap: int,
                    past: bool) -> list[tuple[Hand, tuple[Meld, ...], int, bool]]:
    per_suit: list[list[tuple[tuple[int, ...], tuple[tuple[int, int, int], ...], bool]]] = []
    lo, hi = R.seq_lo, R.seq_hi
    top = (R.seq_hi - R.seq_lo + 1 if past else R.seq_max) if not cap else min(R.seq_max, R.cs - 1)
    for suit in range(4):
        cnt = [0] * 15
        for r in range(lo, hi + 1):
            cnt[r] = h[4 * r - 1 + suit]
        ext = [(i, seq_low(m[0]), m[1]) for i, m in enumerate(melds) if m[0] >= SEQ and seq_suit(m[0]) == suit]
        opts: list[tuple[tuple[int, ...], tuple[tuple[int, int, int], ...], bool]] = []
        _suit_options(R, cnt, ext, 0, [], lo, R.seq_min, top, opts)
        per_suit.append(opts)
    vals = R.values
    # each suit's ways as (cards used per rank, points, new melds / changed melds, a canasta made)
    ways: list[list[tuple[tuple[tuple[int, int], ...], int, tuple[tuple[int, Meld], ...], bool]]] = []
    for suit in range(4):
        lst = []
        for used, changes, made in per_suit[suit]:
            pairs = tuple((r, used[r]) for r in range(lo, hi + 1) if used[r])
            pts = sum(vals[r] * n for r, n in pairs)
            melds_ch = tuple((i, (seq_rank(suit, low), length, 0, 0, 0)) for i, low, length in changes)
            lst.append((pairs, pts, melds_ch, made))
        ways.append(lst)
    out: list[tuple[Hand, tuple[Meld, ...], int, bool]] = []
    base = h[:15]
    for combo in product(*ways):
        hl = list(base)
        ml = list(melds)
        new: list[Meld] = []
        pts = 0
        canasta = False
        for pairs, p, melds_ch, made in combo:
            if made:
                canasta = True
            pts += p
            for r, n in pairs:
                hl[r] -= n
            for i, m in melds_ch:
                if i >= 0:
                    ml[i] = m
                else:
                    new.append(m)
        out.append((bytes(hl), tuple(ml) + tuple(new) if new else tuple(ml), pts, canasta))
        if len(out) >= SEQ_PLAN_LIMIT:
            break
    return out


def _suit_options(R: Rules, cnt: list[int], ext: list[tuple[int, int, int]], e: int,
                  changes: list[tuple[int, int, int]], start: int, min_len: int, top: int,
                  out: list[tuple[tuple[int, ...], tuple[tuple[int, int, int], ...], bool]],
                  used: Optional[list[int]] = None, made: bool = False) -> None:
    """Append to ``out`` every way to play the cards ``cnt`` (per rank, of one suit): first the
    side's sequences ``ext[e:]`` extended at either end, then new sequences in order of their
    lowest rank (then length), so that each way comes once."""
    if used is None:
        used = [0] * 15
    lo, hi = R.seq_lo, R.seq_hi
    if len(out) >= SEQ_PLAN_LIMIT:
        return
    if e < len(ext):
        i, low, length = ext[e]
        downs = 0
        while low - downs - 1 >= lo and cnt[low - downs - 1] > 0 and length + downs + 1 <= top:
            downs += 1
        for d in range(downs + 1):
            for r in range(low - d, low):
                cnt[r] -= 1
                used[r] += 1
            ups = 0
            high = low + length - 1
            while high + ups + 1 <= hi and cnt[high + ups + 1] > 0 and length + d + ups + 1 <= top:
                ups += 1
            for u in range(ups + 1):
                for r in range(high + 1, high + u + 1):
                    cnt[r] -= 1
                    used[r] += 1
                ch = changes + [(i, low - d, length + d + u)] if d or u else changes
                _suit_options(R, cnt, ext, e + 1, ch, lo, R.seq_min, top, out, used,
                              made or (length < R.cs <= length + d + u))
                for r in range(high + 1, high + u + 1):
                    cnt[r] += 1
                    used[r] -= 1
            for r in range(low - d, low):
                cnt[r] += 1
                used[r] -= 1
        return
    out.append((tuple(used), tuple(changes), made))
    for s in range(start, hi - R.seq_min + 2):
        if cnt[s] == 0:
            continue
        first = min_len if s == start else R.seq_min
        n = 0
        while s + n <= hi and cnt[s + n] > 0 and n < top:
            n += 1
        for length in range(first, n + 1):
            for r in range(s, s + length):
                cnt[r] -= 1
                used[r] += 1
            _suit_options(R, cnt, ext, e, changes + [(-1, s, length)], s, length, top, out, used,
                          made or length >= R.cs)
            for r in range(s, s + length):
                cnt[r] += 1
                used[r] -= 1
