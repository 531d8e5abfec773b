"""A side's melds, summarised once when they change and shared by every position until then.

Generating legal actions asks the same questions of a side's melds at every decision: which
ranks have melds, which can still grow, which additions exist and their ids, which pairs
could be combined. The answers depend on the melds alone, so a :class:`SideInfo` is built
when a side's melds change (a meld, an addition, a take, a combine) and is carried by every
core that shares those melds.
"""

from __future__ import annotations

from functools import lru_cache

from ._rules import B3, SEQ, WILD, Meld, Rules


AddEntry = tuple[int, int, int, Meld, int, bool, bool, int, int, int, int, tuple[int, ...]]
"""A meld that additions may go to: (index, rank, number of its rank, meld, size, closed
canasta, a wild card may go on it, id of adding a natural, a joker, a deuce, a red three,
indices of the earlier melds just like it)."""

CombineEntry = tuple[int, tuple[Meld, ...], int, int]
"""Two melds of one rank that may be combined: (action id, the side's melds after combining
them, their indices)."""


class SideInfo:
    """What generation needs to know of one side's melds."""

    __slots__ = ("rank_mask", "open_mask", "canastas", "adds", "combines", "b3", "wild", "repeated")

    rank_mask: int
    """Bit ``1 << rank`` for each rank the side has a meld of."""
    open_mask: int
    """Bit ``1 << rank`` for each rank with a meld that can still grow (not a closed canasta)."""
    canastas: int
    adds: tuple[AddEntry, ...]
    combines: tuple[CombineEntry, ...]
    b3: int
    """Index of the side's meld of black threes, or -1."""
    wild: bool
    """The side has a meld of wild cards only."""
    repeated: bool
    """The side has two melds of some rank (then ``adds`` is not one entry per meld)."""


def side_info(R: Rules, melds: tuple[Meld, ...]) -> SideInfo:
    """Summarise a side's melds."""
    info = SideInfo.__new__(SideInfo)
    rank_mask = 0
    open_mask = 0
    canastas = 0
    b3 = -1
    cs = R.cs
    cmin = R.cmin_nat
    closed = R.closed
    add_ids = R.add_ids
    counts = [0] * (WILD + 1)
    seen: dict[Meld, list[int]] = {}
    adds: list[AddEntry] = []
    repeated = False
    for i in range(len(melds)):
        m = melds[i]
        r, nat, jk, tw, _r3 = m
        size = nat + jk + tw
        if r >= SEQ:
            # a sequence (melds.sequences): counted as a canasta at canasta size; its additions
            # are generated apart, and a side with one is summarised anew at every change
            repeated = True
            if size >= cs:
                canastas += 1
            continue
        bit = 1 << r
        if rank_mask & bit:
            repeated = True
        rank_mask |= bit
        full = closed and size >= cs
        if not full:
            open_mask |= bit
        if size >= cs and (r == WILD or nat >= cmin):
            canastas += 1
        number = counts[r] + 1
        counts[r] = number
        if r == B3:
            b3 = i
        twins = seen.get(m)
        if twins is None:
            seen[m] = [i]
            before: tuple[int, ...] = ()
        else:
            before = tuple(twins)
            twins.append(i)
        wild_room = has_wild_room(R, m)
        ids = add_ids[r][number]
        adds.append((i, r, number, m, size, full, wild_room, ids[0], ids[1], ids[2], ids[3], before))
    if repeated and len(adds) > 1:
        # keep additions grouped by rank, ranks in the order of their first meld
        order: dict[int, int] = {}
        for e in adds:
            order.setdefault(e[1], len(order))
        adds.sort(key=lambda e: (order[e[1]], e[0]))
    combines: list[CombineEntry] = []
    if R.combine and repeated:
        for r in range(4, 15):
            if counts[r] < 2:
                continue
            idxs = [i for i in range(len(melds)) if melds[i][0] == r]
            for a in range(len(idxs)):
                for b in range(a + 1, len(idxs)):
                    m1 = melds[idxs[a]]
                    m2 = melds[idxs[b]]
                    if m1[2] + m1[3] + m2[2] + m2[3] > R.max_wild:
                        continue
                    if not R.wild_on_canasta and ((_is_canasta(R, m1) and m2[2] + m2[3])
                                                  or (_is_canasta(R, m2) and m1[2] + m1[3])):
                        continue  # samba 4.7
                    if R.closed and m1[1] + m1[2] + m1[3] + m2[1] + m2[2] + m2[3] > cs:
                        continue  # no closed canasta past its size (combine_problem)
                    new = [melds[j] for j in range(len(melds)) if j != idxs[b]]
                    new[idxs[a]] = (r, m1[1] + m2[1], m1[2] + m2[2], m1[3] + m2[3], 0)
                    combines.append((R.id_combine[(r, a + 1, b + 1)], tuple(new), idxs[a], idxs[b]))
        if len(combines) > 1:
            first: dict[int, int] = {}
            for i in range(len(melds)):
                first.setdefault(melds[i][0], i)
            combines.sort(key=lambda ce: first[R.specs[ce[0]][1]])
    info.rank_mask = rank_mask
    info.open_mask = open_mask
    info.canastas = canastas
    info.adds = tuple(adds)
    info.combines = tuple(combines)
    info.b3 = b3
    info.wild = bool((rank_mask >> WILD) & 1)
    info.repeated = repeated
    return info


@lru_cache(maxsize=1 << 12)
def has_wild_room(R: Rules, m: Meld) -> bool:
    """Whether a wild card may still go on the meld ``m`` (``add_wild_cap(R, m, 0) > 0``)."""
    r, nat, jk, tw, _r3 = m
    if r == WILD:
        return nat + jk + tw < R.wild_meld_max
    if r == B3 or ((R.no_wild_mask >> r) & 1 and (r in R.natural_only or jk + tw == 0)):
        return False  # modern-american 4.4, 4.5
    cap = R.wcap[nat] if nat < len(R.wcap) else R.wild_cap(nat)
    if not R.wild_on_canasta and nat + jk + tw >= R.cs and nat >= R.cmin_nat:
        return False  # samba 4.7: no wild card onto a canasta
    return (R.unlimited and nat + cap >= R.cs and nat >= R.cmin_nat) or cap > jk + tw


def _entry(R: Rules, i: int, m: Meld, number: int) -> AddEntry:
    r, nat, jk, tw, _r3 = m
    size = nat + jk + tw
    ids = R.add_ids[r][number]
    return (i, r, number, m, size, R.closed and size >= R.cs, has_wild_room(R, m), ids[0], ids[1], ids[2], ids[3],
            ())


def _is_canasta(R: Rules, m: Meld) -> bool:
    return m[1] + m[2] + m[3] >= R.cs and (m[0] == WILD or m[1] >= R.cmin_nat)


def grown_info(R: Rules, info: SideInfo, melds: tuple[Meld, ...], i: int) -> SideInfo:
    """The summary after meld ``i`` grew (same rank), from the summary before."""
    if info.repeated:
        return side_info(R, melds)
    m = melds[i]
    old = info.adds[i]
    e = _entry(R, i, m, 1)
    new = SideInfo.__new__(SideInfo)
    new.rank_mask = info.rank_mask
    new.open_mask = info.open_mask & ~(1 << m[0]) if e[5] else info.open_mask
    new.canastas = info.canastas + (_is_canasta(R, m) - _is_canasta(R, old[3]))
    adds = list(info.adds)
    adds[i] = e
    new.adds = tuple(adds)
    new.combines = info.combines
    new.b3 = info.b3
    new.wild = info.wild
    new.repeated = False
    return new


def appended_info(R: Rules, info: SideInfo, melds: tuple[Meld, ...]) -> SideInfo:
    """The summary after a new meld was laid (the last of ``melds``), from the summary before."""
    i = len(melds) - 1
    m = melds[i]
    bit = 1 << m[0]
    if info.repeated or info.rank_mask & bit or m[0] >= SEQ:
        return side_info(R, melds)
    e = _entry(R, i, m, 1)
    new = SideInfo.__new__(SideInfo)
    new.rank_mask = info.rank_mask | bit
    new.open_mask = info.open_mask if e[5] else info.open_mask | bit
    new.canastas = info.canastas + _is_canasta(R, m)
    new.adds = info.adds + (e,)
    new.combines = info.combines
    new.b3 = i if m[0] == B3 else info.b3
    new.wild = info.wild or m[0] == WILD
    new.repeated = False
    return new


def first_alike(melds: tuple[Meld, ...], i: int, melds_before: int) -> int:
    """The index of the first meld just like meld ``i`` and on the same side of the turn's
    start (both made before this turn, or both during it); ``i`` itself if none comes first.

    Adding to either of two such melds, or taking the pile onto either, is the same play, so
    only the first is offered. Melds alike but on different sides of the turn's start differ:
    adding to a meld made before the turn is adding to one's partner's meld (no concealed
    going out, hoyle rule 61), and completing a canasta made this turn is one's own.
    """
    m = melds[i]
    own = i >= melds_before
    for j in range(i):
        if melds[j] == m and (j >= melds_before) == own:
            return j
    return i

