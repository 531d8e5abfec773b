"""What a side's melds allow and lack, as the planners measure them: the room a meld has for wild
cards (:func:`meld_room`, :func:`add_wild_cap`) and the canastas the side has and still needs to
go out (:func:`side_canastas`, :func:`kinds_short`, :func:`ranks_short`, :func:`canastas_ok`).

Built on ``_rules``; the planners (``_greedy``, ``_sequences``, ``_meldable``, ``_plan``,
``_opening``) and the checks above them use it.
"""

from __future__ import annotations

from ._rules import B3, BIG, SEQ, WILD, Meld, Rules

Hand = bytes
LOCK = 2
"""A planned meld whose fifth item is ``LOCK`` takes no wild card: it is the natural meld an
initial meld must include (:func:`~canasta._core._opening.comp_options`), kept natural to the end of the turn."""


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


def open_ranks(R: Rules, melds: tuple[Meld, ...]) -> int:
    """Bit ``1 << rank`` for each rank with a meld that can still grow (not a closed canasta)."""
    mask = 0
    closed = R.closed
    cs = R.cs
    for m in melds:
        if not (closed and m[1] + m[2] + m[3] >= cs):
            mask |= 1 << m[0]
    return mask
