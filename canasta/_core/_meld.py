"""After the draw: melding, adding, combining, asking, discarding, ``done`` and ``retract``.

Each check answers with the reason that refuses the action, or None when it is legal. The
generator :func:`meld_phase_ids` walks the candidate actions in their fixed order and keeps
those whose checks pass; where the side has opened, owes nothing and keeps two cards, the
turn-finishing check passes without planning (``after_problem``'s first cases), and the
generator says so without building the hand after the action.
"""

from __future__ import annotations

from itertools import compress
from operator import le
from typing import Optional

from . import _reasons as W
from ._finish import (out_most, arriving, capped, plan_cap, comp_due, comp_plans, comp_problem, dead_mask, keep_for, may_go_out,
                      ok_problem, out_problem, partner_ready, past_max, waiver)
from ._kernel import (stock_left, F_ASKED, F_B3, F_DREW, F_MELDED, F_MUST, F_NO, F_OWN, F_TOOK, F_YES, PH_FINAL_MELD,
                      PH_INITIAL_TAKE, Core, Hand)
from ._opening import comp_met
from ._plan import can_go_out, reach
from ._meldrules import NO_WILD_TEXT, card_rule
from ._reasons import PLURALS, Reason, num
from ._table import first_alike
from .._cards import SUIT_NAMES, SUIT_OF
from ._rules import ADD, B3, BIG, COMBINE, RANKS, JK, KIND, R3, SEQ, TWO, WILD, Meld, Rules, Spec, meld_key, seq_low, seq_rank


def _minus(h: Hand, cards: tuple[int, ...]) -> Hand:
    hl = bytearray(h)
    for k in cards:
        hl[k] -= 1
    return bytes(hl)


def _minus1(h: Hand, k: int) -> Hand:
    hl = bytearray(h)
    hl[k] -= 1
    return bytes(hl)


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
    return ok_problem(c, seat, h2, melds + (nm,), gain, False, probe)


def sequence_problem(c: Core, seat: int, probe: Spec) -> Optional[Reason]:
    """Why laying the new sequence ``probe`` (samba 4.3) is refused, or None."""
    R = c.d.R
    side = R.side_of[seat]
    cards = probe[4]
    suit = SUIT_OF[cards[0]]
    low = KIND[cards[0]]
    for j in range(len(cards)):
        k = cards[j]
        if k < 15:
            return (W.TEXT, "a sequence holds natural cards only: no wild card and no three (samba 4.3)")
        if SUIT_OF[k] != suit:
            return (W.TEXT, "a sequence must be one suit (samba 4.3)")
        if KIND[k] != low + j:
            return (W.TEXT, "a sequence's cards are in consecutive rank order, lowest first, with no gap; the ace "
                    "is high only (samba 4.3)")
    nm: Meld = (seq_rank(suit, low), len(cards), 0, 0, 0)
    if not R.seq_valid(nm):
        return (W.TEXT, f"a sequence runs from {R.variant.melds.sequences.lowest} to "
                f"{R.variant.melds.sequences.highest} and holds {num(R.seq_min)} to {num(R.seq_max)} cards")
    if dead_mask(c) and any((dead_mask(c) >> KIND[k]) & 1 for k in cards):
        return (W.DEAD_RANK, KIND[cards[0]])
    vals = R.values
    gain = 0
    for k in cards:
        gain += vals[k]
    return ok_problem(c, seat, _less_cards(c.hands[seat], cards), c.melds[side] + (nm,), gain, False, probe)


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
    m = melds[i]
    if r >= SEQ:
        return add_sequence_problem(c, seat, probe, i)
    first = same.index(first_alike(melds, i, c.melds_before)) + 1
    if first != number:
        other: Spec = (ADD, k, r, first, ())
        why = add_problem(c, seat, other)
        return why if why is not None else (W.TWIN, number, first, r, other)
    vals = R.values
    h2 = _less_card(h, k)
    if r == B3:
        if m[1] >= R.b3_max:
            return (W.B3_FULL,)
        nm: Meld = (B3, m[1] + 1, 0, 0, 0)
        return ok_problem(c, seat, h2, melds[:i] + (nm,) + melds[i + 1:], vals[B3], True, probe)
    size = m[1] + m[2] + m[3]
    full = R.closed and size >= R.cs
    if k == R3:
        if not full:
            return (W.R3_NOT_CANASTA, r)
        if m[2] + m[3]:
            return (W.R3_WILD, r)
        if m[4]:
            return (W.R3_AGAIN, r)
        nm = (m[0], m[1], 0, 0, 1)
        return ok_problem(c, seat, h2, melds[:i] + (nm,) + melds[i + 1:], 0, False, probe)
    if full:
        if R.past_closed and r != WILD:
            return add_past_problem(c, seat, probe, i)
        return (W.CLOSED, r)
    if r != WILD and (dead_mask(c) >> r) & 1:
        return (W.DEAD_RANK, r)
    nm = (m[0], m[1] + (KIND[k] == r), m[2] + (k == JK), m[3] + (k == TWO), m[4])
    if k <= TWO and not R.wild_on_canasta and R.is_canasta(m):
        return (W.TEXT, f"your {W.meld_words(r)} is a canasta: no wild card may be added to a canasta")
    why = meld_shape_problem(R, nm)
    if why is not None:
        return why
    if r != WILD and k <= TWO:
        text = wild_rule(c, melds, m)
        if text is not None:
            return (W.WILD_RULE, text)
    if k <= TWO and (R.deuce_excl or R.no_wild):
        text = card_rule(c, melds, r, k == JK, k == TWO)
        if text is not None:
            return (W.WILD_RULE, text)
    if ((not c.opened[side] and not R.initial_canasta) or capped(c)) and size + 1 >= R.cs:
        return (W.INITIAL_CANASTA,)
    return ok_problem(c, seat, h2, melds[:i] + (nm,) + melds[i + 1:], vals[k], False, probe)


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


# ------------------------------------------------------------------ discarding, asking, done, retract


def discard_problem(c: Core, seat: int) -> Optional[Reason]:
    """Why discarding (any held card) is refused now, or None (the card is checked apart)."""
    R = c.d.R
    side = R.side_of[seat]
    h = c.hands[seat]
    flags = c.flags
    opening = not c.opened[side]
    need_rem = need_left(c, side) if opening else 0
    if sum(h[:15]) == 1 and not any(c.downs[seat]):
        if flags & F_NO or (R.permission_required and not flags & F_YES):
            return (W.DISCARD_OUT, seat, W.GO_OUT_NO)
        gate = out_problem(c, seat, c.melds[side])
        if gate is not None:
            return (W.DISCARD_OUT, seat) + gate[:1] + gate[2:]
        if opening and c.count > 0 and need_rem > 0:
            if not waiver(c, seat):
                return (W.DISCARD_INITIAL_OUT,)
            if R.conc_own and not flags & F_OWN:
                return (W.DISCARD_CONCEALED_OWN,)
        return comp_problem(c, side) if R.comp_any else None
    if flags & F_MUST or (R.past_any and past_max(R, c.melds[side])):
        return (W.DISCARD_MUST,)
    if opening and c.count > 0 and need_rem > 0:
        return (W.DISCARD_INITIAL, need_rem)
    return comp_problem(c, side) if R.comp_any else None


def barred_discards(c: Core, seat: int, h: Hand) -> frozenset[int]:
    """The card kinds ``seat`` may not discard now: cuban 3.4, no black three in a player's
    first turn of the hand (``pile.no_discard_first_turn``), unless he holds nothing else,
    so that a turn can always end."""
    R = c.d.R
    barred = R.no_discard_first if not (c.turned >> seat) & 1 else _NONE
    if R.no_discard_on_empty and c.pile is None:
        # modern-american 3.6: no seven, ace, wild or dead card onto an empty pile
        barred = barred | R.no_discard_empty
        if R.no_discard_dead:
            dead = dead_mask(c)
            barred = barred | frozenset(r for r in range(4, 15) if (dead >> r) & 1)
    if R.ban_until:
        barred = barred | banned_until(c, seat)
    if barred:
        for k in range(len(h)):
            if h[k] and KIND[k] not in barred:
                break
        else:
            barred = _NONE
    if R.final_ban and sum(h[:15]) == 1 and not any(c.downs[seat]):
        # pennies-from-heaven 3.5: no seven as the discard that goes out (no exception)
        barred = barred | R.final_ban
    return barred


def banned_until(c: Core, seat: int) -> frozenset[int]:
    """pennies-from-heaven 3.4: the ranks of ``pile.no_discard_until_canasta`` whose canastas are not
    yet on the table (of every side, or of the player's own side)."""
    R = c.d.R
    out: set[int] = set()
    own = c.melds[R.side_of[seat]]
    for rank in R.ban_own:
        if not any(m[0] == rank and R.is_canasta(m) for m in own):
            out.add(rank)
    for rank in R.ban_each:
        for melds in c.melds:
            if not any(m[0] == rank and R.is_canasta(m) for m in melds):
                out.add(rank)
                break
    return frozenset(out)


_NONE: frozenset[int] = frozenset()
_TWOS = (2,) * 11


def discard_card_problem(c: Core, seat: int, card: int) -> Optional[Reason]:
    """Why discarding ``card`` in particular is refused now, or None."""
    if KIND[card] in barred_discards(c, seat, c.hands[seat]):
        R = c.d.R
        if card in R.no_discard_first and not (c.turned >> seat) & 1:
            return (W.TEXT, f"you may not discard {W.a_card(card)} in your first turn of the hand "
                    "while you hold another card")
        if R.final_ban and KIND[card] in R.final_ban and sum(c.hands[seat][:15]) == 1 and not any(c.downs[seat]):
            return (W.TEXT, f"{W.a_card(card)} may not be the discard with which you go out")
        if R.ban_until and KIND[card] in banned_until(c, seat):
            whose = "each side has" if KIND[card] in R.ban_each else "your side has"
            return (W.TEXT, f"you may not discard {W.a_card(card)} until {whose} completed a canasta of "
                    f"{W.PLURALS[KIND[card]]}, while you hold a card of another rank")
        return (W.TEXT, f"you may not discard {W.a_card(card)} onto an empty pile while you hold a card "
                "that may go there")
    return None


def ask_after_problem(c: Core) -> Optional[Reason]:
    """Why asking "may I go out?" after the draw is refused, or None (hoyle rule 39)."""
    R = c.d.R
    flags = c.flags
    if not R.permission:
        return (W.ASK_NO_PARTNER,)
    if flags & (F_ASKED | F_YES | F_NO):
        return (W.ASK_AGAIN,)
    if flags & F_TOOK and not R.ask_after_take:
        return (W.ASK_AFTER_TAKE,)
    if flags & F_MELDED:
        return (W.ASK_AFTER_MELD,)
    if not flags & (F_DREW | F_TOOK):
        return (W.ASK_NOTHING,)
    seat = c.player
    if any(c.downs[seat]) or (R.partner_down and not partner_ready(c, seat)):
        return (W.ASK_NOTHING,)  # he cannot go out this turn: a yes would bind him to
    side = R.side_of[seat]
    melds = c.melds[side]
    need = 0 if waiver(c, seat) else need_left(c, side)
    mask = c.info[side].open_mask
    mb = c.melds_before
    cap = 0 if mb else R.cap_bits  # plan_cap(c)
    most = out_most(c, side) if R.out_gate else BIG
    if not R.comp_any or mb:  # nothing asked of the initial meld's composition
        return None if can_go_out(R, c.hands[seat], melds, need, True, False, mask, cap, most) else (W.ASK_NOTHING,)
    for h3, m3, g in comp_plans(c, side, c.hands[seat], melds):
        if can_go_out(R, h3, m3, need - g, True, False, mask if m3 is melds else -1, cap, most):
            return None
    return (W.ASK_NOTHING,)


def retract_problem(c: Core) -> Optional[Reason]:
    """Why undoing a take for the initial meld is refused (new-canasta), or None."""
    R = c.d.R
    seat = c.player
    side = R.side_of[seat]
    if R.undo_take and not _can_reach(c, seat, side):
        return None
    return (W.RETRACT_REACH,)


def _can_reach(c: Core, seat: int, side: int) -> bool:
    R = c.d.R
    keep = max(0, keep_for(c, seat) - arriving(R, c.pending))
    need = need_left(c, side)
    return any(reach(R, h3, m3, need - g, keep) for h3, m3, g in comp_plans(c, side, c.hands[seat], c.melds[side]))


def done_problem(c: Core) -> Optional[Reason]:
    """Why ``done`` is refused in the meld phase, or None."""
    R = c.d.R
    if c.phase == PH_FINAL_MELD:
        return comp_problem(c, R.side_of[c.player])
    if not stock_left(c) and R.last_round:
        seat = c.player
        if (c.flags & F_B3 and R.b3_last) or (any(c.hands[seat]) and discard_problem(c, seat) is None
                                              and (not R.discard_bars or _some_discard(c, seat))):
            return (W.DONE_DISCARD,)
        return comp_problem(c, R.side_of[seat])
    return (W.DONE_NOT_FINAL,)


def _some_discard(c: Core, seat: int) -> bool:
    """Whether some card held may be discarded, the discard bars considered (none may where
    the only card is one that may not go out: ``going_out.no_final_discard``)."""
    h = c.hands[seat]
    barred = barred_discards(c, seat, h)
    return any(h[k] and KIND[k] not in barred for k in range(len(h)))


def b3_last_problem(c: Core, probe: Spec) -> Optional[Reason]:
    """wikipedia: black threes "may only be melded as a players last meld before going out":
    once they are down, nothing but the final discard may follow."""
    kind = probe[0]
    if kind == 10:  # a discard: of a held card, and only the last one
        seat = c.player
        h = c.hands[seat]
        why = held_problem(h, (probe[1],))
        if why is not None:
            return why
        if sum(h[:15]) == 1 and c.phase != PH_FINAL_MELD:
            return None
    return (W.B3_LAST_ONLY,)


# ------------------------------------------------------------------ the generator


def meld_phase_ids(c: Core) -> list[int]:
    """The legal action ids after the draw (MELD, FINAL_MELD, INITIAL_TAKE), in order."""
    R = c.d.R
    seat = c.player
    side = R.side_of[seat]
    h = c.hands[seat]
    flags = c.flags
    phase = c.phase
    final = phase == PH_FINAL_MELD
    if flags & F_B3 and R.b3_last:
        if final:
            return [R.id_done]
        if sum(h) == 1:
            return [R.id_discard[k] for k in range(len(h)) if h[k]]
        return []
    initial_take = phase == PH_INITIAL_TAKE
    opened = c.opened[side]
    must = flags & F_MUST
    melds = c.melds[side]
    info = c.info[side]
    vals = R.values
    specs = R.specs
    acts: list[int] = []
    n_hand = sum(h)
    downs = c.downs[seat]
    down = any(downs) and sum(downs[:15]) >= R.keep_out  # a down hand to go on from (after_problem)
    # Where the side has opened and owes nothing this turn, any action that leaves two cards
    # in hand (or a down hand to come) leaves the turn finishable: after_problem's first cases.
    easy = (opened and not must and not final and not initial_take
            and not (R.comp_any and not c.melds_before and comp_due(c, side)[0]))
    easy_meld = easy and (n_hand >= 5 or down)
    easy_add = easy and (n_hand >= 3 or down)
    jk = h[JK]
    two = h[TWO]
    # new melds: a natural pair or three, with a wild card or without
    skip = 0 if R.multi else (info.open_mask if R.new_after else info.rank_mask)
    # modern-american: dead ranks (4.8), the wild-card rules (4.3, 4.6; 4.4 and 4.5 are in the
    # meld's validity and its wild room); the initial meld's natural meld (4.9) is ok_problem's
    plain = R.plain
    jk_w = jk
    two_w = two
    if R.card_rules:
        # italian 4.4, 4.5: which wild cards may go into a natural meld now, and into the meld of
        # deuces (none in the initial meld's turn)
        if card_rule(c, melds, 4, 1, 0) is not None:
            jk = two = jk_w = two_w = 0
        elif card_rule(c, melds, 4, 0, 1) is not None:
            two = 0
    if plain:
        dead = dead_mask(c)
        skip |= dead
        new_wild_ok = wild_rule(c, melds, None) is None
        natural_only = R.natural_only
    else:
        dead = 0
        new_wild_ok = True
        natural_only = _NONE
    trip_ok = R.trip_ok
    pair_ok = R.pair_wild_ok and new_wild_ok and (two or jk)
    for r in compress(RANKS, map(le, _TWOS, h[4:15])):  # the ranks held twice or more
        if (skip >> r) & 1:
            continue
        if trip_ok and h[r] >= 3:
            mid = R.id_trip[r]
            if easy_meld or ok_problem(c, seat, _minus(h, (r, r, r)), melds + ((r, 3, 0, 0, 0),), 3 * vals[r],
                                       False, specs[mid]) is None:
                acts.append(mid)
        if pair_ok and r not in natural_only:
            if two:
                mid = R.id_pair_two[r]
                if easy_meld or ok_problem(c, seat, _minus(h, (r, r, TWO)), melds + ((r, 2, 0, 1, 0),),
                                           2 * vals[r] + vals[TWO], False, specs[mid]) is None:
                    acts.append(mid)
            if jk:
                mid = R.id_pair_jk[r]
                if easy_meld or ok_problem(c, seat, _minus(h, (r, r, JK)), melds + ((r, 2, 1, 0, 0),),
                                           2 * vals[r] + vals[JK], False, specs[mid]) is None:
                    acts.append(mid)
    # black threes, only when going out
    if not R.b3_never and h[B3] >= R.b3_min and info.b3 < 0 and not initial_take:
        meld_ids = R.id_meld
        for size in range(R.b3_min, min(h[B3], R.b3_max) + 1):
            cards = (B3,) * size
            mid = meld_ids[cards]
            h2 = _minus(h, cards)
            if ok_problem(c, seat, h2, melds + ((B3, size, 0, 0, 0),), vals[B3] * size, True,
                          specs[mid]) is None:
                if not R.b3_last or b3_last_ok(R, h2, final):
                    acts.append(mid)
    # a meld of wild cards only (of deuces: italian 4.3)
    if R.wild_melds and not info.wild and jk_w + two_w >= R.min_size:
        meld_ids = R.id_meld
        for j in range(R.min_size, -1, -1):
            d = R.min_size - j
            if jk_w >= j and two_w >= d and (not R.deuce or R.valid((WILD, 0, j, d, 0))):
                cards = (JK,) * j + (TWO,) * d
                mid = meld_ids[cards]
                if ok_problem(c, seat, _minus(h, cards), melds + ((WILD, 0, j, d, 0),),
                              j * vals[JK] + d * vals[TWO], False, specs[mid]) is None:
                    acts.append(mid)
    # additions to melds
    mb = c.melds_before
    # no meld may reach canasta size while the initial meld is made (or in this turn: capped)
    opening_cap = (not opened and not R.initial_canasta) or (R.initial_never and not mb)
    grow_below = R.cs - 1 if opening_cap else BIG
    r3 = h[R3] and R.keep_r3 and R.r3_canasta
    past = R.past_closed and n_hand <= 2
    for i, r, number, m, size, full, wild_room, id_nat, id_jk, id_two, id_r3, twins in info.adds:
        if twins and first_alike(melds, i, mb) != i:
            continue  # the same play as on an earlier meld just like it
        if plain:
            if (dead >> r) & 1 and not (full and R.past_closed):
                continue
            if wild_room and r != WILD and wild_rule(c, melds, m) is not None:
                wild_room = False
        if r == B3:
            if h[B3] and m[1] < R.b3_max:
                if ok_problem(c, seat, _minus1(h, B3), melds[:i] + ((B3, m[1] + 1, 0, 0, 0),) + melds[i + 1:],
                              vals[B3], True, specs[id_nat]) is None:
                    acts.append(id_nat)
            continue
        if full and past and r != WILD:
            # modern-american A5: past a closed canasta as the last play before going out
            for aid in (id_nat if h[r] else -1, id_jk if jk else -1, id_two if two else -1):
                if aid >= 0 and add_problem(c, seat, specs[aid]) is None:
                    acts.append(aid)
        if r == WILD and R.deuce:
            # italian 4.3: deuces onto the meld of deuces up to its size; jokers within its limit
            if size < grow_below:
                if jk_w and R.valid((WILD, 0, m[2] + 1, m[3], 0)) and ok_problem(
                        c, seat, _minus1(h, JK), melds[:i] + ((r, m[1], m[2] + 1, m[3], m[4]),) + melds[i + 1:],
                        vals[JK], False, specs[id_jk]) is None:
                    acts.append(id_jk)
                if two_w and size < R.cs and ok_problem(
                        c, seat, _minus1(h, TWO), melds[:i] + ((r, m[1], m[2], m[3] + 1, m[4]),) + melds[i + 1:],
                        vals[TWO], False, specs[id_two]) is None:
                    acts.append(id_two)
            continue
        if not full and size < grow_below:
            if r != WILD and h[r]:
                if easy_add or ok_problem(c, seat, _minus1(h, r), melds[:i] + ((r, m[1] + 1, m[2], m[3], m[4]),)
                                          + melds[i + 1:], vals[r], False, specs[id_nat]) is None:
                    acts.append(id_nat)
            if wild_room:
                if jk:
                    if easy_add or ok_problem(c, seat, _minus1(h, JK), melds[:i] + ((r, m[1], m[2] + 1, m[3], m[4]),)
                                              + melds[i + 1:], vals[JK], False, specs[id_jk]) is None:
                        acts.append(id_jk)
                if two:
                    if easy_add or ok_problem(c, seat, _minus1(h, TWO), melds[:i] + ((r, m[1], m[2], m[3] + 1, m[4]),)
                                              + melds[i + 1:], vals[TWO], False, specs[id_two]) is None:
                        acts.append(id_two)
        if r3 and full and m[2] + m[3] == 0 and not m[4] and r != WILD:
            if ok_problem(c, seat, _minus1(h, R3), melds[:i] + ((r, m[1], 0, 0, 1),) + melds[i + 1:], 0, False,
                          specs[id_r3]) is None:
                acts.append(id_r3)
    # combining two melds of one rank (hoyle rule 30)
    if info.combines and not initial_take:
        easy_combine = easy and (n_hand >= 2 or down)
        mb = c.melds_before
        seen: list[tuple[tuple[Meld, bool], tuple[Meld, bool]]] = []
        for cid, combined, ia, ib in info.combines:
            # two melds just like two others, on the same sides of the turn's start: the same play
            x = (melds[ia], ia >= mb)
            y = (melds[ib], ib >= mb)
            key = (x, y) if x <= y else (y, x)
            if key in seen:
                continue
            seen.append(key)
            if easy_combine or ok_problem(c, seat, h, combined, 0, False, specs[cid]) is None:
                acts.append(cid)
    if initial_take:
        if R.undo_take and not _can_reach(c, seat, side):
            acts.append(R.id_retract)
        return acts
    # ask after drawing from the stock, before melding (hoyle rule 39)
    if (R.permission and not final and not flags & (F_ASKED | F_YES | F_NO | F_MELDED)
            and (flags & F_DREW or (flags & F_TOOK and R.ask_after_take))):
        if ask_after_problem(c) is None:
            acts.append(R.id_ask)
    if final:
        acts.append(R.id_done)
        return acts
    # discards
    if n_hand and discard_problem(c, seat) is None:
        if R.discard_bars and (barred := barred_discards(c, seat, h)):
            barred_all = len(acts)
            acts.extend(R.id_discard[k] for k in range(len(h)) if h[k] and k not in barred)
            if len(acts) == barred_all and R.last_round and not stock_left(c):
                acts.append(R.id_done)  # the last round, his only card one that may not go out
        else:
            acts.extend(compress(R.id_discard, h))
    elif R.last_round and not stock_left(c):
        # new-canasta's last round has no draw: a player who may not empty his hand
        # ("must hold at least one card") ends the turn without discarding
        acts.append(R.id_done)
    return acts



# ------------------------------------------------------------------ the generator, cards with suits


def _suited_tables(R: Rules) -> tuple[dict[int, list[tuple[int, tuple[int, ...]]]], list[tuple[int, tuple[int, ...]]],
                                      list[tuple[int, tuple[int, ...]]]]:
    """The new melds of a variant with sequences, by kind: groups per rank, sequences, and the
    others (black threes, wild cards), as (id, cards) in id order; built once per table."""
    got = R.suited_melds
    if got is None:
        groups: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        seqs: list[tuple[int, tuple[int, ...]]] = []
        others: list[tuple[int, tuple[int, ...]]] = []
        for i, sp in enumerate(R.specs):
            if sp[0] != 7:  # MELD
                continue
            cards = sp[4]
            if cards[0] > 14 and KIND[cards[1]] != KIND[cards[0]]:
                seqs.append((i, cards))
            elif cards[0] > 14:
                groups.setdefault(KIND[cards[0]], []).append((i, cards))
            else:
                others.append((i, cards))
        got = (groups, seqs, others)
        R.suited_melds = got
    return got


def _held(h: Hand, cards: tuple[int, ...]) -> bool:
    for k in cards:
        if h[k] < cards.count(k):
            return False
    return True


def suited_meld_phase_ids(c: Core) -> list[int]:
    """``meld_phase_ids`` where cards carry suits (melds.sequences): every candidate action
    the hand allows, kept where its check passes (the same checks ``why_illegal`` words)."""
    R = c.d.R
    seat = c.player
    side = R.side_of[seat]
    h = c.hands[seat]
    flags = c.flags
    phase = c.phase
    final = phase == PH_FINAL_MELD
    ids = R.ids
    specs = R.specs
    if flags & F_B3 and R.b3_last:
        if final:
            return [R.id_done]
        if sum(h[:15]) == 1:
            return [R.id_discard[k] for k in range(len(h)) if h[k] and R.id_discard[k] >= 0]
        return []
    initial_take = phase == PH_INITIAL_TAKE
    melds = c.melds[side]
    acts: list[int] = []
    groups, seqs, others = _suited_tables(R)
    for r in range(4, 15):
        if h[r] < 2:
            continue
        for mid, cards in groups.get(r, ()):
            if _held(h, cards) and meld_problem(c, seat, specs[mid]) is None:
                acts.append(mid)
    for mid, cards in seqs:
        if h[cards[0]] and h[cards[1]] and h[cards[2]] and meld_problem(c, seat, specs[mid]) is None:
            acts.append(mid)
    for mid, cards in others:
        if _held(h, cards) and meld_problem(c, seat, specs[mid]) is None:
            acts.append(mid)
    # additions: to each meld, every card that could go on it
    numbers: dict[int, int] = {}
    for i in range(len(melds)):
        m = melds[i]
        key = meld_key(m[0])
        number = numbers.get(key, 0) + 1
        numbers[key] = number
        if key >= SEQ:
            low = seq_low(m[0])
            suit = key - SEQ
            cands = [4 * r - 1 + suit for r in (low - 1, low + m[1]) if R.seq_lo <= r <= R.seq_hi]
        elif key == B3:
            cands = [B3]
        elif key == WILD:
            cands = [JK, TWO]
        else:
            cands = [4 * key - 1 + s for s in range(4)] + [JK, TWO, R3]
        for k in cands:
            if not h[k]:
                continue
            aid = ids.get((ADD, k, key, number, ()))
            if aid is not None and add_problem(c, seat, specs[aid]) is None:
                acts.append(aid)
    if R.combine and not initial_take:
        for cid, _combined, _ia, _ib in c.info[side].combines:
            if combine_problem(c, seat, specs[cid]) is None:
                acts.append(cid)
    if initial_take:
        if R.undo_take and not _can_reach(c, seat, side):
            acts.append(R.id_retract)
        return sorted(acts)
    acts.sort()
    if (R.permission and not final and not flags & (F_ASKED | F_YES | F_NO | F_MELDED)
            and (flags & F_DREW or (flags & F_TOOK and R.ask_after_take))):
        if ask_after_problem(c) is None:
            acts.append(R.id_ask)
    if final:
        acts.append(R.id_done)
        return acts
    if sum(h[:15]) and discard_problem(c, seat) is None:
        barred_all = len(acts)
        for k in range(len(h)):
            if h[k] and R.id_discard[k] >= 0 and discard_card_problem(c, seat, k) is None:
                acts.append(R.id_discard[k])
        if len(acts) == barred_all and R.last_round and not stock_left(c):
            acts.append(R.id_done)  # the last round, his only card one that may not go out
    elif not stock_left(c) and R.last_round:
        acts.append(R.id_done)
    return acts
