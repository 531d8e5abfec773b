"""After the draw: laying new melds, adding to melds and combining melds.

Each check answers with the reason that refuses the action, or None when it is legal; the meld
phase's generators (``_meldphase``) keep the actions whose checks pass, and ``why_illegal``
words the first failing check. Built on ``_finish`` (can the turn still be finished),
``_plan``, ``_meldrules``, ``_table`` and ``_rules``; built upon by ``_discard``,
``_meldphase`` and ``_legal``.
"""

from __future__ import annotations

from typing import Optional

from . import _reasons as W
from ._finish import capped, comp_due, dead_mask, may_go_out, ok_problem, out_problem
from ._kernel import PH_FINAL_MELD, PH_INITIAL_TAKE, Core, Hand
from ._opening import comp_met
from ._meldrules import NO_WILD_TEXT, card_rule
from ._reasons import PLURALS, Reason, num
from ._table import first_alike
from .._cards import SUIT_NAMES, SUIT_OF
from ._rules import ADD, B3, COMBINE, JK, KIND, R3, SEQ, TWO, WILD, Meld, Rules, Spec, meld_key, seq_low, seq_rank


def _less_cards(h: Hand, cards: tuple[int, ...]) -> Hand:
    """``h`` without ``cards``, card codes (a suited natural leaves its kind's count too)."""
    hl = bytearray(h)
    for k in cards:
        hl[k] -= 1
        if k > 14:
            hl[(k + 1) >> 2] -= 1
    return bytes(hl)


def _less_card(h: Hand, k: int) -> Hand:
    """``h`` without the card code ``k``."""
    hl = bytearray(h)
    hl[k] -= 1
    if k > 14:
        hl[(k + 1) >> 2] -= 1
    return bytes(hl)


def held_problem(h: Hand, cards: tuple[int, ...]) -> Optional[Reason]:
    """'You hold no 7' when ``cards`` are not all in ``h``."""
    for k in cards:
        if h[k] < cards.count(k):
            return (W.HELD, h, cards)
    return None


def meld_shape_problem(R: Rules, m: Meld) -> Optional[Reason]:
    """Why the (new or grown) meld ``m`` is not a valid meld, or None if it is."""
    if R.valid(m):
        return None
    return (W.MELD_SHAPE, m)


def b3_last_ok(R: Rules, h2: Hand, final: bool) -> bool:
    """wikipedia: black threes "may only be melded as a players last meld before going out";
    new-canasta: the canasta of black threes "must be the last 7 cards in the player's hand"."""
    n = sum(h2[:15])
    return n == 0 or (n == 1 and not final and not R.b3_final)


def need_left(c: Core, side: int) -> int:
    R = c.d.R
    if c.opened[side]:
        return 0
    return max(0, R.initial_need(c.totals[side], c.d.hand_number) - c.count)


# ------------------------------------------------------------------ modern-american's meld rules


def wild_open(R: Rules, melds: tuple[Meld, ...]) -> bool:
    """The side has a meld of wild cards only that is not a canasta (modern-american 4.6)."""
    for m in melds:
        if m[0] == WILD and not R.is_canasta(m):
            return True
    return False


def wild_rule(c: Core, melds: tuple[Meld, ...], m: Optional[Meld]) -> Optional[str]:
    """Why a wild card may not go into the natural meld ``m`` (None: a new meld) now, or None:
    modern-american 4.3 (after the initial meld's turn only onto five naturals, never in a new
    meld), 4.5 (a natural meld of aces stays natural), 4.6 (not while the wild meld is open)."""
    R = c.d.R
    if m is not None and m[0] in R.stay_natural and m[2] + m[3] == 0:
        return (f"a meld of {PLURALS[m[0]]} laid without a wild card stays natural: it never takes "
                "one")
    if R.wild_min_nat and c.melds_before:
        if m is None:
            return ("after your side's initial meld a new meld has no wild card: wild cards go only "
                    f"onto a meld of {num(R.wild_min_nat)} or more natural cards")
        if m[1] < R.wild_min_nat:
            return (f"after your side's initial meld a wild card goes only onto a meld of "
                    f"{num(R.wild_min_nat)} or more natural cards (this one has {num(m[1])})")
    if R.wild_excl and wild_open(R, melds):
        return "while your side's meld of wild cards is not a canasta, wild cards go only onto it"
    if R.no_wild and not c.melds_before:
        return NO_WILD_TEXT
    return None



# ------------------------------------------------------------------ new melds


def meld_problem(c: Core, seat: int, probe: Spec) -> Optional[Reason]:
    """Why laying the new meld ``probe`` (cards from the hand) is refused, or None."""
    R = c.d.R
    side = R.side_of[seat]
    h = c.hands[seat]
    melds = c.melds[side]
    cards = probe[4]
    why = held_problem(h, cards)
    if why is not None:
        return why
    first = cards[0]
    r = WILD if first <= TWO else KIND[first]
    if first > 14 and KIND[cards[1]] != r:
        return sequence_problem(c, seat, probe)
    vals = R.values
    gain = 0
    nat = 0
    for k in cards:
        gain += vals[k]
        if k > TWO:
            nat += 1
    h2 = _less_cards(h, cards)
    nm = (r, nat, cards.count(JK), cards.count(TWO), 0)
    if r == B3:
        if any(m[0] == B3 for m in melds):
            return (W.B3_EXISTS,)
        if c.phase == PH_INITIAL_TAKE:
            return (W.B3_INITIAL_TAKE,)
        why = ok_problem(c, seat, h2, melds + (nm,), gain, True, probe)
        if why is not None:
            return why
        if R.b3_last and not b3_last_ok(R, h2, c.phase == PH_FINAL_MELD):
            return (W.B3_LAST_CARDS,) if R.b3_final else (W.B3_LAST,)
        return None
    why = new_meld_rule_problem(c, melds, nm)
    if why is not None:
        return why
    return ok_problem(c, seat, h2, melds + (nm,), gain, False, probe)


def new_meld_rule_problem(c: Core, melds: tuple[Meld, ...], nm: Meld) -> Optional[Reason]:
    """Why the side may not lay the new meld ``nm`` (of a rank or of wild cards, not of black
    threes) beside ``melds`` now, whatever cards make it: ``meld_problem``'s checks before the
    turn's end is planned (the same for every set of suits that makes it)."""
    R = c.d.R
    r = nm[0]
    if r == WILD:
        if any(m[0] == WILD for m in melds):
            return (W.WILD_EXISTS,)
    elif not R.multi and any(m[0] == r and R.blocks_new(m) for m in melds):
        return (W.RANK_EXISTS, r)
    if r != WILD and (dead_mask(c) >> r) & 1:
        return (W.DEAD_RANK, r)
    why = meld_shape_problem(R, nm)
    if why is not None:
        return why
    if r != WILD and nm[2] + nm[3]:
        text = wild_rule(c, melds, None)
        if text is not None:
            return (W.WILD_RULE, text)
    if R.deuce_excl or R.no_wild:
        text = card_rule(c, melds, r, nm[2], nm[3])
        if text is not None:
            return (W.WILD_RULE, text)
    return None


def sequence_problem(c: Core, seat: int, probe: Spec) -> Optional[Reason]:
    """Why laying the new sequence ``probe`` (samba 4.3) is refused, or None."""
    R = c.d.R
    side = R.side_of[seat]
    cards = probe[4]
    nm, why = new_sequence(c, cards)
    if nm is None:
        return why
    vals = R.values
    gain = 0
    for k in cards:
        gain += vals[k]
    return ok_problem(c, seat, _less_cards(c.hands[seat], cards), c.melds[side] + (nm,), gain, False, probe)


def new_sequence(c: Core, cards: tuple[int, ...]) -> tuple[Optional[Meld], Optional[Reason]]:
    """The new sequence ``cards`` make (and None), or (None and) why it may not be laid now
    whatever the rest of the hand: ``sequence_problem``'s checks before the turn's end is planned."""
    R = c.d.R
    suit = SUIT_OF[cards[0]]
    low = KIND[cards[0]]
    for j in range(len(cards)):
        k = cards[j]
        if k < 15:
            return None, (W.TEXT, "a sequence holds natural cards only: no wild card and no three (samba 4.3)")
        if SUIT_OF[k] != suit:
            return None, (W.TEXT, "a sequence must be one suit (samba 4.3)")
        if KIND[k] != low + j:
            return None, (W.TEXT, "a sequence's cards are in consecutive rank order, lowest first, with no gap; "
                          "the ace is high only (samba 4.3)")
    nm: Meld = (seq_rank(suit, low), len(cards), 0, 0, 0)
    if not R.seq_valid(nm):
        return None, (W.TEXT, f"a sequence runs from {R.variant.melds.sequences.lowest} to "
                      f"{R.variant.melds.sequences.highest} and holds {num(R.seq_min)} to {num(R.seq_max)} cards")
    if dead_mask(c) and any((dead_mask(c) >> KIND[k]) & 1 for k in cards):
        return None, (W.DEAD_RANK, KIND[cards[0]])
    return nm, None


def add_sequence_problem(c: Core, seat: int, probe: Spec, i: int) -> Optional[Reason]:
    """Why adding a card to the side's sequence (meld ``i``) is refused, or None (samba 4.3,
    4.4: a sequence grows at its ends by cards of its suit, to seven at most)."""
    R = c.d.R
    side = R.side_of[seat]
    melds = c.melds[side]
    k, key, number = probe[1], probe[2], probe[3]
    m = melds[i]
    same = [j for j in range(len(melds)) if meld_key(melds[j][0]) == key]
    first = same.index(first_alike(melds, i, c.melds_before)) + 1
    if first != number:
        other: Spec = (ADD, k, key, first, ())
        why = add_problem(c, seat, other)
        return why if why is not None else (W.TWIN, number, first, key, other)
    if k < 15 or SUIT_OF[k] != key - SEQ:
        return (W.TEXT, f"a sequence of {SUIT_NAMES[key - SEQ]} takes only natural cards of {SUIT_NAMES[key - SEQ]}")
    low = seq_low(m[0])
    high = low + m[1] - 1
    past = m[1] >= R.seq_max
    if past and not R.seq_past_max:
        return (W.TEXT, f"that sequence is a samba ({num(R.seq_max)} cards): it takes no more cards (samba 4.4)")
    kr = KIND[k]
    if kr != low - 1 and kr != high + 1:
        return (W.TEXT, f"the {W.NAMES[k]} does not extend that sequence ({W.NAMES[low]} to {W.NAMES[high]}) at "
                "either end")
    nm: Meld = (seq_rank(key - SEQ, min(low, kr)), m[1] + 1, 0, 0, 0)
    if past:
        # brazilian 4.2: past seven only in the turn of going out (and so, 6.1, after a yes)
        if not may_go_out(c):
            return (W.TEXT, f"a sequence of {num(R.seq_max)} takes another card only in the turn its player goes "
                    f"out, and {W.no_out_words(c)}")
        if not (R.seq_lo <= min(low, kr) and max(high, kr) <= R.seq_hi):
            return (W.TEXT, f"a sequence runs from {R.variant.melds.sequences.lowest} to "
                    f"{R.variant.melds.sequences.highest}")
        why = ok_problem(c, seat, _less_card(c.hands[seat], k), melds[:i] + (nm,) + melds[i + 1:], R.values[k],
                         False, probe)
        if why is not None:
            return (W.TEXT, f"a sequence of {num(R.seq_max)} takes another card only in the turn its player goes out, "
                    f"and you could not go out after it ({W.words(c, why)})")
        return None
    if not R.seq_valid(nm):
        return (W.TEXT, f"a sequence runs from {R.variant.melds.sequences.lowest} to "
                f"{R.variant.melds.sequences.highest}: the ace is high only, with no wrap-around (samba 4.3)")
    if (dead_mask(c) >> kr) & 1:
        return (W.DEAD_RANK, kr)
    if ((not c.opened[side] and not R.initial_canasta) or capped(c)) and m[1] + 1 >= R.cs:
        return (W.INITIAL_CANASTA,)
    return ok_problem(c, seat, _less_card(c.hands[seat], k), melds[:i] + (nm,) + melds[i + 1:], R.values[k], False,
                      probe)


# ------------------------------------------------------------------ additions


def add_problem(c: Core, seat: int, probe: Spec) -> Optional[Reason]:
    """Why adding a card to a meld as ``probe`` says is refused, or None."""
    R = c.d.R
    side = R.side_of[seat]
    h = c.hands[seat]
    melds = c.melds[side]
    k = probe[1]
    r = probe[2]
    number = probe[3]
    same = [i for i in range(len(melds)) if melds[i][0] == r] if r < SEQ else [
        i for i in range(len(melds)) if meld_key(melds[i][0]) == r]
    if not same:
        return (W.ADD_NO_MELD, r)
    if number > len(same):
        return (W.ADD_ONLY, r, len(same))
    if not h[k]:
        return (W.HELD, h, (k,))
    i = same[number - 1]
    if r >= SEQ:
        return add_sequence_problem(c, seat, probe, i)
    first = same.index(first_alike(melds, i, c.melds_before)) + 1
    if first != number:
        other: Spec = (ADD, k, r, first, ())
        why = add_problem(c, seat, other)
        return why if why is not None else (W.TWIN, number, first, r, other)
    nm, gain, b3, why = add_grown(c, seat, probe, i)
    if nm is None:
        return why
    return ok_problem(c, seat, _less_card(h, k), melds[:i] + (nm,) + melds[i + 1:], gain, b3, probe)


def add_grown(c: Core, seat: int, probe: Spec, i: int) -> tuple[Optional[Meld], int, bool, Optional[Reason]]:
    """``add_problem`` past finding the meld (``i``, of a rank, the wild cards or the black threes,
    not the first of several just alike): (None, 0, False, the answer), or the grown meld, the
    points it adds and whether it is the black threes' (and None) when the answer is whether the
    turn can still be finished with the card melded (``ok_problem``). The same for every natural
    card of the meld's rank, whatever its suit."""
    R = c.d.R
    side = R.side_of[seat]
    melds = c.melds[side]
    k = probe[1]
    r = probe[2]
    m = melds[i]
    vals = R.values
    if r == B3:
        if m[1] >= R.b3_max:
            return None, 0, False, (W.B3_FULL,)
        return (B3, m[1] + 1, 0, 0, 0), vals[B3], True, None
    size = m[1] + m[2] + m[3]
    full = R.closed and size >= R.cs
    if k == R3:
        if not full:
            return None, 0, False, (W.R3_NOT_CANASTA, r)
        if m[2] + m[3]:
            return None, 0, False, (W.R3_WILD, r)
        if m[4]:
            return None, 0, False, (W.R3_AGAIN, r)
        return (m[0], m[1], 0, 0, 1), 0, False, None
    if full:
        if R.past_closed and r != WILD:
            return None, 0, False, add_past_problem(c, seat, probe, i)
        return None, 0, False, (W.CLOSED, r)
    if r != WILD and (dead_mask(c) >> r) & 1:
        return None, 0, False, (W.DEAD_RANK, r)
    nm = (m[0], m[1] + (KIND[k] == r), m[2] + (k == JK), m[3] + (k == TWO), m[4])
    if k <= TWO and not R.wild_on_canasta and R.is_canasta(m):
        return None, 0, False, (W.TEXT, f"your {W.meld_words(r)} is a canasta: no wild card may be added to a canasta")
    why = meld_shape_problem(R, nm)
    if why is not None:
        return None, 0, False, why
    if r != WILD and k <= TWO:
        text = wild_rule(c, melds, m)
        if text is not None:
            return None, 0, False, (W.WILD_RULE, text)
    if k <= TWO and (R.deuce_excl or R.no_wild):
        text = card_rule(c, melds, r, k == JK, k == TWO)
        if text is not None:
            return None, 0, False, (W.WILD_RULE, text)
    if ((not c.opened[side] and not R.initial_canasta) or capped(c)) and size + 1 >= R.cs:
        return None, 0, False, (W.INITIAL_CANASTA,)
    return nm, vals[k], False, None


def add_past_problem(c: Core, seat: int, probe: Spec, i: int) -> Optional[Reason]:
    """Why adding a card past the size of the closed canasta ``i`` is refused, or None
    (``melds.past_closed_going_out``, modern-american A5, Wikipedia's common exception): only as the
    player's last play before going out, within the meld's limits on wild cards. The canasta's
    rank being dead (4.8) does not bar it: the exception is for that canasta."""
    R = c.d.R
    side = R.side_of[seat]
    melds = c.melds[side]
    m = melds[i]
    k = probe[1]
    r = m[0]
    past = f"a canasta takes a card past {num(R.cs)} only as the last play of a player going out"
    if not may_go_out(c):
        return (W.TEXT, f"{past}, and {W.no_out_words(c)}")
    nm = (r, m[1] + (KIND[k] == r), m[2] + (k == JK), m[3] + (k == TWO), m[4])
    if not R.valid_past(nm):
        shape = W.meld_shape_words(R, (r, nm[1], nm[2], nm[3], 0))
        return (W.TEXT, f"{past}, within a meld's limits on wild cards: {shape}" if nm[2] + nm[3] else past)
    if k <= TWO:
        text = wild_rule(c, melds, m)
        if text is not None:
            return (W.WILD_RULE, text)
    h2 = _less_card(c.hands[seat], k)
    melds2 = melds[:i] + (nm,) + melds[i + 1:]
    left = sum(h2[:15])
    if any(c.downs[seat]) or left > 1:
        return (W.TEXT, f"{past}: you would still hold {num(left)} cards" if not any(c.downs[seat])
                else f"{past}, and you still have a down hand to play")
    comp = comp_due(c, side)
    if not c.opened[side] or (comp[0] and not comp_met(R, melds2, comp)):
        return (W.TEXT, f"{past}, and your side's initial meld would not be complete")
    gate = out_problem(c, seat, melds2)
    if gate is not None:
        return gate
    if left == 0 and R.by_discard:
        return (W.OUT_BY_DISCARD, probe)
    return None


# ------------------------------------------------------------------ combining


def combine_problem(c: Core, seat: int, probe: Spec) -> Optional[Reason]:
    """Why combining two melds of one rank (hoyle rule 30) is refused, or None."""
    R = c.d.R
    side = R.side_of[seat]
    melds = c.melds[side]
    r = probe[1]
    a = probe[2]
    b = probe[3]
    same = [i for i in range(len(melds)) if melds[i][0] == r]
    if len(same) < 2:
        return (W.COMBINE_NONE, r, len(same))
    if b > len(same):
        return (W.ADD_ONLY, r, len(same))
    m1 = melds[same[a - 1]]
    m2 = melds[same[b - 1]]
    # melds just like two others, on the same sides of the turn's start, make the same
    # combination: only the first such pair is offered
    mb = c.melds_before
    p1 = (m1, same[a - 1] >= mb)
    p2 = (m2, same[b - 1] >= mb)
    for x in range(len(same)):
        for y in range(x + 1, len(same)):
            if (x + 1, y + 1) == (a, b):
                break
            px = (melds[same[x]], same[x] >= mb)
            py = (melds[same[y]], same[y] >= mb)
            if (px == p1 and py == p2) or (px == p2 and py == p1):
                other: Spec = (COMBINE, r, x + 1, y + 1, ())
                why = combine_problem(c, seat, other)
                return why if why is not None else (W.SAME_COMBINE, r, other)
        else:
            continue
        break
    if m1[2] + m1[3] + m2[2] + m2[3] > R.max_wild:
        return (W.COMBINE_WILD, m1[2] + m1[3] + m2[2] + m2[3])
    if not R.wild_on_canasta and ((R.is_canasta(m1) and m2[2] + m2[3]) or (R.is_canasta(m2) and m1[2] + m1[3])):
        return (W.TEXT, f"one of these melds of {PLURALS[r]} is a canasta and the other holds a wild card: no wild "
                "card may be added to a canasta")
    nm = (r, m1[1] + m2[1], m1[2] + m2[2], m1[3] + m2[3], 0)
    if R.closed and nm[1] + nm[2] + nm[3] > R.cs:
        # a closed canasta holds no more than its size (melds.canasta_closed): two melds that
        # together pass it stay apart, as no card may be added past it
        return (W.TEXT, f"a canasta holds at most {num(R.cs)} cards: these melds of {PLURALS[r]} together would hold "
                f"{num(nm[1] + nm[2] + nm[3])}")
    new = [melds[j] for j in range(len(melds)) if j != same[b - 1]]
    new[same[a - 1]] = nm
    return ok_problem(c, seat, c.hands[seat], tuple(new), 0, False, probe)
