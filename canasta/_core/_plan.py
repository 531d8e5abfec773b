"""Turn planning: can the initial minimum still be met, can this player still go out?

No dead ends: an action is offered only when the turn can still be finished legally after it.
:func:`reach` answers "can more melds add ``need`` points while ``keep`` cards stay in hand?"
and :func:`can_go_out` "can every card of the hand be melded (one may be discarded last) so
that the side goes out?", exactly enough for that. ``_opening``'s
:func:`~canasta._core._opening.open_then_out` answers both in turn for a player bound to go out
(a "yes") who takes the pile for his side's initial meld: the minimum from the hand first, then
every card with the rest of the pile.

The planners' entry points, built on ``_canastas``, ``_greedy``, ``_sequences`` and
``_meldable``; ``_opening`` and the checks (``_finish``, ``_draw``, ``_meld``) use them.
"""

from __future__ import annotations

from ._canastas import Hand, canastas_ok, open_ranks, side_canastas
from ._greedy import greedy
from ._meldable import any_meldable
from ._rules import B3, BIG, JK, R3, RANKS, SEQ, TWO, WILD, Meld, Rules
from ._sequences import _seq_orphans, sequence_plays


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
