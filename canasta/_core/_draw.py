"""The start of a turn: drawing, taking the pile, passing, and asking "may I go out?" first.

Each check answers with the reason that refuses the action, or None when it is legal; the
legal-action generator keeps the actions whose checks pass, and ``why_illegal`` words the
first failing check.
"""

from __future__ import annotations

from itertools import compress
from operator import eq
from typing import Optional

from . import _reasons as W
from ._finish import (out_most, after_problem, may_go_out, arriving, capped, plan_cap, comp_due, comp_plans, comp_reason, dead_mask,
                      keep_for, opening_capped, opening_need, partner_ready, pending_hand, plan_melds, waiver)
from ._kernel import (stock_left, F_ASKED, F_HAD_MELDED, F_MUST, F_NO, F_NO_TAKE, F_YES, Core, Hand, meld_index, pile_below,
                      pile_cards, pile_top)
from ._opening import open_then_out
from ._plan import can_go_out, reach
from ._meldrules import card_rule
from ._reasons import Reason
from ._table import first_alike
from .._cards import SUIT_NAMES, SUIT_OF
from ._rules import (BIG, JK, KIND, PASS, RANKS, SEQ, TAKE, TWO, W_JOKER, W_ONTO, W_PAIR, W_TWO, WILD, Meld, Rules,
                     Spec, meld_key, seq_low, seq_rank, seq_suit)


STOCK_ENDS = ("the stock is exhausted, and in this variant the hand then ends: nobody takes the pile "
              "(hand-and-foot 7.4)")


def draw_guarantees_out(c: Core, seat: int) -> bool:
    """Whether the player can go out whatever card he draws (he holds a whole going out)."""
    R = c.d.R
    if R.draw_n != 1 or R.final_ban:
        return False  # (pennies-from-heaven 3.5: a card drawn might be one that may not be the last discard)
    side = R.side_of[seat]
    need = 0 if waiver(c, seat) else opening_need(c, side)
    return can_go_out_now(c, seat, need, False)


def can_go_out_now(c: Core, seat: int, need: int, allow_discard: bool) -> bool:
    """Whether ``seat`` can meld out from his hand as it is, with ``need`` points owed toward
    his side's initial meld (and the composition it must include)."""
    R = c.d.R
    side = R.side_of[seat]
    melds = c.melds[side]
    mask = c.info[side].open_mask
    cap = 0 if c.melds_before else R.cap_bits  # plan_cap(c)
    if not R.comp_any or c.melds_before:  # nothing asked of the initial meld's composition
        return can_go_out(R, c.hands[seat], melds, need, allow_discard, False, mask, cap,
                          out_most(c, side) if R.out_gate else BIG)
    most = out_most(c, side)
    for h3, m3, g in comp_plans(c, side, c.hands[seat], melds):
        if can_go_out(R, h3, m3, need - g, allow_discard, False, mask if m3 is melds else -1, cap, most):
            return True
    return False


def draw_problem(c: Core) -> Optional[Reason]:
    """Why drawing from the stock is refused, or None."""
    if not stock_left(c):
        return (W.DRAW_NO_STOCK,)
    if c.flags & F_MUST and not draw_guarantees_out(c, c.player):
        return (W.DRAW_MUST,)
    return None


# ------------------------------------------------------------------ taking the pile


def pile_problem(c: Core, seat: int) -> Optional[Reason]:
    """Why the pile cannot be taken in any way now, or None."""
    R = c.d.R
    if c.flags & F_NO_TAKE:
        return (W.TAKE_RETRACTED,)
    if R.stock_ends and not stock_left(c):
        return (W.TEXT, STOCK_ENDS)
    if R.open_from_hand and not c.opened[R.side_of[seat]]:
        return (W.TEXT, "your side makes its initial meld from its hand alone: it may take the pile only "
                "once it has melded (brazilian 3.1)")
    pile = c.pile
    if pile is None:
        return (W.TAKE_EMPTY,)
    top = pile[0]
    if (top < 4 and not (top <= TWO and R.wild_pair_any and wild_pair_ok(c, seat))) or (
            top in R.blocked and not (R.block_upcard and top >= 4 and c.turned & R.seat_mask)):
        # mexicana 3.3: a seven on top blocks the pile (A3, blocked_scope "upcard": until the first
        # turn of the hand ends)
        return (W.TAKE_BLOCKED, top)
    if not R.consecutive and c.took_last[seat]:
        return (W.TAKE_CONSECUTIVE,)
    if R.dead_ranks and (dead_mask(c) >> KIND[top]) & 1:
        return (W.TAKE_DEAD, top)  # modern-american 3.5
    return None


def wild_pair_ok(c: Core, seat: int) -> bool:
    """Whether the pile's rules let a wild card on top be taken with a pair of it (hand-and-foot
    3.3), frozen or not as the pile is for this player's side."""
    R = c.d.R
    if is_frozen_for(c, R.side_of[seat]):
        return R.wild_pair_frozen
    return R.wild_pair_unfrozen


def is_frozen_for(c: Core, side: int) -> bool:
    """The pile is frozen, or frozen for this side until its initial meld."""
    R = c.d.R
    return c.frozen or (R.frozen_until_initial and not c.opened[side])


def hand_after_take(c: Core, seat: int, used: tuple[int, ...], top_to_hand: bool) -> Hand:
    """The hand after taking the pile with ``used`` (the top card too, if ``top_to_hand``)."""
    h = bytearray(c.hands[seat])
    for k in used:
        h[k] -= 1
        if k > 14:
            h[(k + 1) >> 2] -= 1
    below = pile_below(c)
    aside = c.d.R.from_pile_aside
    for k in below:
        if k not in aside:
            h[k] += 1
            if k > 14:
                h[(k + 1) >> 2] += 1
    if top_to_hand:
        k = pile_top(c)
        h[k] += 1
        if k > 14:
            h[(k + 1) >> 2] += 1
    return bytes(h)


def holds(h: Hand, cards: tuple[int, ...]) -> bool:
    """Whether the hand ``h`` holds all of ``cards``."""
    for k in cards:
        if h[k] < cards.count(k):
            return False
    return True


def used_cards(top: int, way: int) -> tuple[int, ...]:
    """The cards from the hand that a take ``way`` shows with the top card."""
    if way == W_PAIR:
        return (top, top)
    if way == W_JOKER:
        return (top, JK)
    if way == W_TWO:
        return (top, TWO)
    return ()


def take_result_meld(R: Rules, melds: tuple[Meld, ...], top: int, way: int, number: int,
                     used: tuple[int, ...], key: int = -1) -> tuple[tuple[Meld, ...], int]:
    """The side's melds after a take that melds its cards, and the meld's index (-1: invalid).
    ``key`` is the take's meld key (``SEQ + suit``: onto a sequence of that suit)."""
    if key >= SEQ:
        # samba 3.5: the top card extends one of the side's sequences at an end
        i = meld_index(melds, key, number)
        if i < 0:
            return melds, -1
        m = melds[i]
        low = seq_low(m[0])
        r = KIND[top]
        if SUIT_OF[top] != seq_suit(m[0]) or not (r == low - 1 or r == low + m[1]):
            return melds, -1
        nm = (seq_rank(seq_suit(m[0]), min(low, r)), m[1] + 1, 0, 0, 0)
        if not R.seq_valid(nm):
            return melds, -1
        return melds[:i] + (nm,) + melds[i + 1:], i
    if top > 14:
        top = KIND[top]
        used = tuple(KIND[k] for k in used)
    if top <= TWO:
        # hand-and-foot 3.3: the three wild cards go to the side's meld of wild cards, or start one
        add = (3, 0) if top == JK else (0, 3)
        for i in range(len(melds)):
            m = melds[i]
            if m[0] == WILD and m[2] + m[3] < R.wild_meld_max:
                nm = (WILD, 0, m[2] + add[0], m[3] + add[1], 0)
                if not R.valid(nm):
                    return melds, -1
                return melds[:i] + (nm,) + melds[i + 1:], i
        nm = (WILD, 0, add[0], add[1], 0)
        if not R.valid(nm) or any(m[0] == WILD for m in melds):
            return melds, -1
        return melds + (nm,), len(melds)
    nat = 1 + used.count(top)
    jk = used.count(JK)
    tw = used.count(TWO)
    if way == W_ONTO:
        i = meld_index(melds, top, number)
        m = melds[i]
        nm = (m[0], m[1] + 1, m[2], m[3], m[4])
        if not R.valid(nm):
            return melds, -1
        return melds[:i] + (nm,) + melds[i + 1:], i
    if not R.multi:
        for i in range(len(melds)):
            m = melds[i]
            if m[0] == top and R.blocks_new(m):
                nm = (top, m[1] + nat, m[2] + jk, m[3] + tw, m[4])
                if not R.valid(nm):
                    return melds, -1
                return melds[:i] + (nm,) + melds[i + 1:], i
    nm = (top, nat, jk, tw, 0)
    if not R.valid(nm):
        return melds, -1
    return melds + (nm,), len(melds)


def take_problem(c: Core, seat: int, probe: Spec) -> Optional[Reason]:
    """Why taking the pile as ``probe`` says is refused, or None."""
    R = c.d.R
    why = pile_problem(c, seat)
    if why is not None:
        return why
    if R.suited:
        return suited_take_problem(c, seat, probe)
    side = R.side_of[seat]
    top = pile_top(c)
    frozen = is_frozen_for(c, side)
    ways = R.frozen_ways if frozen else R.unfrozen_ways
    way = probe[2]
    if top <= TWO:
        if way != W_PAIR:
            return (W.TAKE_WAY, frozen, top)
    elif not (ways >> way) & 1:
        return (W.TAKE_WAY, frozen, top)
    if probe[1] != top:
        return (W.TAKE_TOP, top, probe[1])
    melds = c.melds[side]
    h = c.hands[seat]
    if way == W_ONTO:
        idxs = [i for i in range(len(melds)) if melds[i][0] == top]
        same = [melds[i] for i in idxs]
        number = probe[3]
        if not same:
            return (W.TAKE_NO_MELD, top)
        if number > len(same):
            return (W.TAKE_ONLY, top, len(same))
        if not c.opened[side]:
            return (W.TAKE_UNOPENED,)
        m = same[number - 1]
        first = idxs.index(first_alike(melds, idxs[number - 1], c.melds_before)) + 1
        if first != number:
            other: Spec = (TAKE, top, W_ONTO, first, ())
            why = take_problem(c, seat, other)
            return why if why is not None else (W.TWIN, number, first, top, other)
        if R.closed and m[1] + m[2] + m[3] >= R.cs:
            return (W.TAKE_CLOSED, top)
        if not R.onto_canasta and R.is_canasta(m):
            return onto_canasta_reason(top)
    else:
        used = used_cards(top, way)
        if not holds(h, used):
            return (W.HELD_TAKE, used, frozen and way == W_PAIR and h[top] == 1 and bool(h[JK] or h[TWO]))
    flags = c.flags
    return take_ok_problem(c, seat, probe, bool(flags & F_MUST), may_go_out(c))


def suited_take_problem(c: Core, seat: int, probe: Spec) -> Optional[Reason]:
    """``take_problem`` where cards carry suits (melds.sequences): the pair's suits are named,
    and the top card may go onto a sequence of its suit (samba 3.5, 3.6)."""
    R = c.d.R
    side = R.side_of[seat]
    top = pile_top(c)
    frozen = is_frozen_for(c, side)
    ways = R.frozen_ways if frozen else R.unfrozen_ways
    way = probe[2]
    if not (ways >> way) & 1:
        return (W.TAKE_WAY, frozen, top)
    key = probe[1]
    rank = KIND[top]
    melds = c.melds[side]
    if way == W_ONTO:
        seq = key >= SEQ
        if not seq and key != rank:
            return (W.TAKE_TOP, top, key)
        idxs = [i for i in range(len(melds)) if meld_key(melds[i][0]) == key]
        number = probe[3]
        if seq and SUIT_OF[top] != key - SEQ:
            return (W.TEXT, f"the top card, {W.NAMES[top]}, is not of {SUIT_NAMES[key - SEQ]}: it cannot go on a "
                    f"sequence of {SUIT_NAMES[key - SEQ]}")
        if not idxs:
            return (W.TAKE_NO_MELD, key) if not seq else (
                W.TEXT, f"your side has no sequence of {SUIT_NAMES[key - SEQ]}, and the pile can never start "
                "one (samba 3.6)")
        if number > len(idxs):
            return (W.TAKE_ONLY, key, len(idxs))
        if not c.opened[side]:
            return (W.TAKE_UNOPENED,)
        i = idxs[number - 1]
        m = melds[i]
        first = idxs.index(first_alike(melds, i, c.melds_before)) + 1
        if first != number:
            other: Spec = (TAKE, key, W_ONTO, first, ())
            why = take_problem(c, seat, other)
            return why if why is not None else (W.TWIN, number, first, key, other)
        if seq:
            if m[1] >= R.seq_max:
                return (W.TEXT, f"that sequence of {SUIT_NAMES[key - SEQ]} is a samba: it takes no more cards")
            low = seq_low(m[0])
            if rank != low - 1 and rank != low + m[1]:
                return (W.TEXT, f"the top card, {W.NAMES[top]}, does not extend that sequence at either end "
                        "(the pile is never taken to join a card from the hand to a sequence)")
        elif R.closed and m[1] + m[2] + m[3] >= R.cs:
            return (W.TAKE_CLOSED, rank)
        elif not R.onto_canasta and R.is_canasta(m):
            return onto_canasta_reason(rank)
    else:
        if key != rank:
            return (W.TAKE_TOP, top, key)
        used = probe[4]
        if not holds(c.hands[seat], used):
            return (W.HELD_TAKE, used, False)
    flags = c.flags
    return take_ok_problem(c, seat, probe, bool(flags & F_MUST), may_go_out(c))


def onto_canasta_reason(rank: int) -> Reason:
    """pile.onto_canasta = false (samba 3.5, 3.6): the top card goes only onto a meld that is not
    yet a canasta."""
    return (W.TEXT, f"your meld of {W.PLURALS[KIND[rank]]} is already a canasta: the top card goes only onto a "
            "meld that is not yet one (take the pile with a natural pair instead)")


def take_ok_problem(c: Core, seat: int, probe: Spec, must: bool, may_out: bool) -> Optional[Reason]:
    """Why a take that the pile rules allow leaves the turn impossible to finish, or None."""
    R = c.d.R
    side = R.side_of[seat]
    h = c.hands[seat]
    if c.pile_n == 1 and sum(h[:15]) == 1:
        if R.one_card == "forbidden":
            return (W.ONE_CARD, False)
        if R.one_card == "unless_forced" and stock_left(c):
            return (W.ONE_CARD, True)
    if must and c.buried:
        # upcard.buried (italian 2.3): the cards face down under the upcard are unseen, so no
        # going out can be planned on them (nor may the offer of an ask depend on them)
        return (W.TEXT, f"you would be bound to go out this turn, and {W.num(c.buried)} of the pile's cards "
                "lie face down, unseen: a going out cannot be counted on them; draw instead")
    top = c.pile[0]  # type: ignore[index]
    way = probe[2]
    if (way == W_JOKER or way == W_TWO) and (R.deuce_excl or R.no_wild):
        # italian 4.4, 4.5: the wild card shown with the natural goes into a meld
        text = card_rule(c, c.melds[side], KIND[top], way == W_JOKER, way == W_TWO)
        if text is not None:
            return (W.WILD_RULE, text)
    used = probe[4] or used_cards(top, way)
    opened = c.opened[side]
    melds = c.melds[side]
    if not R.pair_melded and opened:
        return after_problem(c, seat, hand_after_take(c, seat, (), True), melds, must, may_out, probe)
    melds2, idx = take_result_meld(R, melds, top, way, probe[3], used, probe[1])
    if idx < 0:
        return (W.TAKE_MELD, probe, used)
    if opened:
        return after_problem(c, seat, hand_after_take(c, seat, used, False), melds2, must, may_out, probe)
    # a take for the initial meld: the top card and the cards shown count, the rest of the
    # pile comes into the hand only once the minimum is met (hoyle rules 33 and 41)
    if R.undo_take and not must:
        return None
    vals = R.values
    got = vals[top]
    for k in used:
        got += vals[k]
    count = c.count + got
    need = R.initial_need(c.totals[side], c.d.hand_number) - count
    if need <= 0:
        first: Optional[Reason] = None
        for h3, m3, _g in comp_plans(c, side, hand_after_take(c, seat, used, False), melds2):
            why = after_problem(c, seat, h3, m3, must, may_out, probe)
            if why is None:
                return None
            first = first or why
        return first or comp_reason(R, melds2, comp_due(c, side), True)
    hl = bytearray(h)
    for k in used:
        hl[k] -= 1
        if k > 14:
            hl[(k + 1) >> 2] -= 1
    h2 = bytes(hl)
    keep = max(0, keep_for(c, seat) - arriving(R, pile_below(c)))
    if must:
        return must_initial_take_problem(c, seat, probe, used, h2, melds2, count, need, keep, may_out)
    if take_reaches(c, side, h2, melds2, need, keep):
        return None
    if concealed_take(c, seat, used, melds2, may_out):
        return None
    return (W.TAKE_SHORT, count, h2, melds2, need, keep, may_out)


def take_reaches(c: Core, side: int, h2: Hand, melds2: tuple[Meld, ...], need: int, keep: int) -> bool:
    """After a take for the initial meld below its minimum (hand ``h2``, melds ``melds2``): can
    melds from the hand make up the ``need`` points still owed (and the composition the initial
    meld must include) while ``keep`` cards stay in hand? (hoyle rule 41)"""
    R = c.d.R
    for h3, m3, g in comp_plans(c, side, h2, melds2):
        if reach(R, h3, plan_melds(c, m3), need - g, keep):
            return True
    return False


def must_initial_take_problem(c: Core, seat: int, probe: Spec, used: tuple[int, ...], h2: Hand,
                              melds2: tuple[Meld, ...], count: int, need: int, keep: int,
                              may_out: bool) -> Optional[Reason]:
    """Why a take for the initial meld, below the minimum, leaves a player who must go out this
    turn (a binding yes) unable to, or None. The take goes on as it would without the yes
    (``apply_take``): where the hand can make up the minimum, the rest of the pile is set aside
    until it does (hoyle rule 41), and the player must then meld out with it; where it cannot,
    he goes out concealed with the whole pile (hoyle rule 62)."""
    R = c.d.R
    if any(c.downs[seat]):
        return (W.MUST_DOWN,)
    why = (W.TAKE_MUST_INITIAL, probe, count, h2, melds2, need, keep, may_out)
    cap = plan_cap(c)
    side = R.side_of[seat]
    # a bound for both ways: every card, the whole pile's too, melded out
    most = out_most(c, side)
    if not any(can_go_out(R, h3, m3, 0, True, False, -1, cap, most)
               for h3, m3, g in comp_plans(c, side, hand_after_take(c, seat, used, False), melds2)):
        return why
    if R.undo_take or any(reach(R, h3, m3, need - g, keep) for h3, m3, g in comp_plans(c, side, h2, melds2)):
        extra = pending_hand(R, pile_below(c))
        if any(open_then_out(R, h3, m3, need - g, extra, cap, opening_capped(c), most)
               for h3, m3, g in comp_plans(c, side, h2, melds2)):
            return None
        return why
    if concealed_take(c, seat, used, melds2, may_out):
        return None
    return why


def concealed_take(c: Core, seat: int, used: tuple[int, ...], melds2: tuple[Meld, ...], may_out: bool) -> bool:
    """hoyle rule 62: a concealed hand "need not have any specific minimum count", so a side
    that has not melded may take the pile below the minimum if the player then goes out
    concealed with it."""
    R = c.d.R
    if not may_out or not waiver_if_taking(c) or any(c.downs[seat]):
        return False
    cap = plan_cap(c)
    most = out_most(c, R.side_of[seat])
    return any(can_go_out(R, h3, m3, 0, True, False, -1, cap, most)
               for h3, m3, g in comp_plans(c, R.side_of[seat], hand_after_take(c, seat, used, False), melds2))


def waiver_if_taking(c: Core) -> bool:
    """Whether a concealed going out after taking the pile waives the minimum."""
    R = c.d.R
    if R.conc_min != "waived":
        return False
    return not (R.conc_basis == "player" and c.flags & F_HAD_MELDED)


def take_options(c: Core, seat: int) -> list[Spec]:
    """Takes allowed by the pile rules alone, in the order they are offered."""
    R = c.d.R
    if R.suited:
        if pile_problem(c, seat) is not None:
            return []
        return suited_take_options(c, seat)
    pile = c.pile
    if pile is None:
        return []
    top = pile[0]
    h = c.hands[seat]
    side = R.side_of[seat]
    if not h[top] and not (c.info[side].rank_mask >> top) & 1:
        return []  # no card to show with it and no meld to take it onto: no take
    if pile_problem(c, seat) is not None:
        return []
    ways = R.frozen_ways if is_frozen_for(c, side) else R.unfrozen_ways
    out: list[Spec] = []
    if top <= TWO:
        # pile_problem let it through: a wild pair may take it (hand-and-foot 3.3)
        if h[top] >= 2:
            out.append((TAKE, top, W_PAIR, 1, ()))
        return out
    if ways & 1 and h[top] >= 2:
        out.append((TAKE, top, W_PAIR, 1, ()))
    if ways & 2 and h[top] >= 1:
        if h[JK]:
            out.append((TAKE, top, W_JOKER, 1, ()))
        if h[TWO]:
            out.append((TAKE, top, W_TWO, 1, ()))
    if ways & 8 and c.opened[side]:
        melds = c.melds[side]
        mb = c.melds_before
        n = 0
        for i in range(len(melds)):
            m = melds[i]
            if m[0] != top:
                continue
            n += 1
            if first_alike(melds, i, mb) != i:
                continue  # the same play as onto an earlier meld just like it
            if R.closed and m[1] + m[2] + m[3] >= R.cs:
                continue
            if not R.onto_canasta and R.is_canasta(m):
                continue
            out.append((TAKE, top, W_ONTO, n, ()))
    return out


def suited_take_options(c: Core, seat: int) -> list[Spec]:
    """``take_options`` where cards carry suits: a pair of each two suits held, a natural of each
    suit with a wild card, onto each meld of the top card's rank or sequence of its suit."""
    R = c.d.R
    side = R.side_of[seat]
    top = pile_top(c)
    if top < 15:
        return []  # a wild card or a three on top (pile_problem let a wild pair through: no such rule here)
    ways = R.frozen_ways if is_frozen_for(c, side) else R.unfrozen_ways
    h = c.hands[seat]
    rank = KIND[top]
    base = 4 * rank - 1
    out: list[Spec] = []
    if ways & 1 and h[rank] >= 2:
        for a in range(4):
            for b in range(a, 4):
                if h[base + a] and h[base + b] and (a != b or h[base + a] >= 2):
                    out.append((TAKE, rank, W_PAIR, 1, (base + b, base + a)))
    if ways & 2 and h[rank]:
        for w, way in ((JK, W_JOKER), (TWO, W_TWO)):
            if h[w]:
                out.extend((TAKE, rank, way, 1, (base + a, w)) for a in range(4) if h[base + a])
    if ways & 8 and c.opened[side]:
        melds = c.melds[side]
        mb = c.melds_before
        key = SEQ + SUIT_OF[top]
        n = 0
        for i in range(len(melds)):
            m = melds[i]
            if m[0] != rank:
                continue
            n += 1
            if first_alike(melds, i, mb) != i or (R.closed and m[1] + m[2] + m[3] >= R.cs):
                continue
            if not R.onto_canasta and R.is_canasta(m):
                continue
            out.append((TAKE, rank, W_ONTO, n, ()))
        n = 0
        for i in range(len(melds)):
            m = melds[i]
            if m[0] < SEQ or meld_key(m[0]) != key:
                continue
            n += 1
            low = seq_low(m[0])
            if first_alike(melds, i, mb) != i or m[1] >= R.seq_max or (rank != low - 1 and rank != low + m[1]):
                continue
            out.append((TAKE, key, W_ONTO, n, ()))
    return out


# ------------------------------------------------------------------ passing and asking first


def pass_problem(c: Core) -> Optional[Reason]:
    """Why declining the pile is refused, or None."""
    R = c.d.R
    if stock_left(c):
        return (W.PASS_STOCK,)
    if R.stock_ends:
        return (W.TEXT, STOCK_ENDS)
    if R.last_round:
        return None
    flags = c.flags
    must = bool(flags & F_MUST)
    may_out = may_go_out(c)
    takes = [t for t in take_options(c, c.player) if take_ok_problem(c, c.player, t, must, may_out) is None]
    if not takes:
        return (W.FALLBACK_CODE, (PASS, 0, 0, 0, ()))
    if R.must_take == "any_legal":
        return (W.PASS_MUST_ANY,)
    if R.must_take == "add_to_meld" and any(t[2] == W_ONTO for t in takes):
        return (W.PASS_MUST_ONTO,)
    return None


def able_before_draw(c: Core, seat: int) -> bool:
    """Whether the player is able to go out this turn, asked before drawing: whatever he
    draws, or through some take of the pile."""
    R = c.d.R
    if any(c.downs[seat]) or (R.partner_down and not partner_ready(c, seat)):
        return False  # a down hand still to play, or a partner not yet in his: no going out now
    side = R.side_of[seat]
    h = c.hands[seat]
    mask = c.info[side].open_mask
    # single naturals of ranks with no open meld: each can only be the last discard
    singles = [r for r in compress(RANKS, map(eq, _ONES, h[4:15])) if not (mask >> r) & 1]
    if not singles and R.draw_n == 1 and not R.final_ban:
        need = 0 if waiver(c, seat) else opening_need(c, side)
        if can_go_out_now(c, seat, need, False):
            return True
    # a cheap filter: two such singles of ranks not in the pile stay single after any take
    # (not where a single may join a sequence)
    if len(singles) > 1 and not R.suited:
        pile = pile_cards(c)
        if sum(1 for r in singles if r not in pile) > 1:
            return False
    for t in take_options(c, seat):
        if take_ok_problem(c, seat, t, True, True) is None:
            return True
    return False


_ONES = (1,) * 11


def ask_first_problem(c: Core) -> Optional[Reason]:
    """Why asking "may I go out?" before drawing is refused, or None (see also the meld phase)."""
    R = c.d.R
    if not R.permission:
        return (W.ASK_NO_PARTNER,)
    if c.flags & (F_ASKED | F_YES | F_NO):
        return (W.ASK_AGAIN,)
    if not stock_left(c) and not R.last_round:
        return (W.ASK_STOCK,)
    if not able_before_draw(c, c.player):
        return (W.ASK_STOCK,) if not stock_left(c) else (W.ASK_NOTHING,)
    return None


def draw_phase_ids(c: Core) -> list[int]:
    """The legal action ids at the start of a turn, in order."""
    R = c.d.R
    seat = c.player
    flags = c.flags
    must = bool(flags & F_MUST)
    may_out = not flags & F_NO and (not R.permission_required or bool(flags & F_YES))
    acts: list[int] = []
    has_stock = (stock_left(c) if R.talon_aside else c.stock_n) > 0
    if not has_stock and R.stock_ends:
        return acts  # the hand is over (begin_turn ends it): hand-and-foot 7.4
    if has_stock and (not must or draw_guarantees_out(c, seat)):
        acts.append(R.id_draw)
    takes: list[int] = []
    onto = False
    ids = R.id_take
    for t in take_options(c, seat):
        if take_ok_problem(c, seat, t, must, may_out) is None:
            takes.append(ids[(t[1], t[2], t[3])] if not t[4] else R.ids[t])
            if t[2] == W_ONTO:
                onto = True
    if not has_stock and not R.last_round:
        forced = (R.must_take == "any_legal" and bool(takes)) or (R.must_take == "add_to_meld" and onto)
        acts += takes
        if takes and not forced:
            acts.append(R.id_pass)
        return acts
    acts += takes
    if not has_stock:
        acts.append(R.id_pass)
    if R.permission and not flags & (F_ASKED | F_YES | F_NO) and able_before_draw(c, seat):
        acts.append(R.id_ask)
    return acts

