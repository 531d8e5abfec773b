"""Can every card be melded: how each rank's naturals are laid and how many wild cards they need
(:func:`rank_plan`), and whether the wild cards then fit and the side has its canastas
(:func:`any_meldable`).

Built on ``_canastas``; used by ``_plan``'s :func:`~canasta._core._plan.can_go_out`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

from ._canastas import Hand, _counted_canastas, add_wild_cap, kinds_short, meld_room, ranks_met
from ._rules import B3, BIG, JK, R3, RANKS, TWO, WILD, Meld, Rules


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
