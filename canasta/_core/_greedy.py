"""The most points meldable from a hand (:func:`greedy`): the bound the planners use for the
initial meld's minimum.

Built on ``_canastas``; used by ``_plan``, ``_opening`` and the checks.
"""

from __future__ import annotations

from ._canastas import Hand, add_wild_cap, meld_room
from ._rules import B3, JK, R3, RANKS, TWO, WILD, Meld, Rules


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
