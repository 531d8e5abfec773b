"""Sequences (``melds.sequences``): every way to play sequences from a hand
(:func:`sequence_plays`, memoised), and the naturals no sequence could take (:func:`_seq_orphans`).

Built on ``_canastas`` and ``_memo``; used by ``_plan`` and ``_opening``.
"""

from __future__ import annotations

from itertools import product
from typing import Optional

from ._canastas import Hand, open_ranks
from ._memo import bounded_memo
from ._rules import RANKS, SEQ, Meld, Rules, seq_low, seq_rank, seq_suit


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
    past = out and R.seq_past_max
    if not _any_sequence_play(R, h, melds, _seq_top(R, cap, past)):
        return [(bytes(h[:15]), melds, 0, False)]  # the play of no sequence only, without the memo
    return _sequence_plays(R, bytes(h), melds, cap, past)


def _seq_top(R: Rules, cap: int, past: bool) -> int:
    """The longest a sequence may grow in these plays."""
    return (R.seq_hi - R.seq_lo + 1 if past else R.seq_max) if not cap else min(R.seq_max, R.cs - 1)


def _any_sequence_play(R: Rules, h: Hand, melds: tuple[Meld, ...], top: int) -> bool:
    """Whether ``_sequence_plays`` finds any play but the play of no sequence: a run of
    ``seq_min`` cards of a suit held, or a card held that lengthens a sequence of the side."""
    lo, hi = R.seq_lo, R.seq_hi
    for m in melds:
        if m[0] >= SEQ and m[1] < top:
            suit = seq_suit(m[0])
            low = seq_low(m[0])
            for r in (low - 1, low + m[1]):
                if lo <= r <= hi and h[4 * r - 1 + suit]:
                    return True
    if top < R.seq_min:
        return False
    need = R.seq_min
    for suit in range(4):
        run = 0
        for r in range(lo, hi + 1):
            run = run + 1 if h[4 * r - 1 + suit] else 0
            if run >= need:
                return True
    return False


SEQ_MEMO = (512, 1 << 14)
"""The sequence plays kept: at most 512 answers and 16,384 plays in all (about 6 MB)."""


@bounded_memo(*SEQ_MEMO, cost=len)
def _sequence_plays(R: Rules, h: bytes, melds: tuple[Meld, ...], cap: int,
                    past: bool) -> list[tuple[Hand, tuple[Meld, ...], int, bool]]:
    per_suit: list[list[tuple[tuple[int, ...], tuple[tuple[int, int, int], ...], bool]]] = []
    lo, hi = R.seq_lo, R.seq_hi
    top = _seq_top(R, cap, past)
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
