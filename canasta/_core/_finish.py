"""Can the turn still be finished legally? The checks every drawing, taking and melding
action ends with, each answering with its reason (a :data:`~._reasons.Reason`) or None.

No dead ends: an action is legal only if, after it, the player can still end the turn by a
legal discard, or go out, as the rules in force this turn require (a binding "yes", black
threes melded, a pile taken to go out concealed; a "no" forbids emptying the hand).
"""

from __future__ import annotations

from typing import Optional

from . import _reasons as W
from ._kernel import FOOT, F_MUST, F_NO, F_YES, PH_FINAL_MELD, PH_INITIAL_TAKE, Core, Hand
from ._meldrules import deuce_open
from ._canastas import canastas_ok, kinds_short, ranks_short, side_canastas
from ._opening import Comp, comp_met, comp_options, open_then_out
from ._plan import can_go_out, reach
from ._reasons import Reason, num
from .._cards import SUIT_OF
from ._rules import BIG, COMP_CANASTA, JK, KIND, NO_COMP, SEQ, TWO, WILD, Meld, Rules, seq_low, seq_rank, seq_suit


def must_go_out(c: Core) -> bool:
    """A binding yes, black threes melded, a pile taken to go out concealed, or a meld grown past
    its size (brazilian 4.2, modern-american A5)."""
    return bool(c.flags & F_MUST) or past_max(c.d.R, c.melds[c.d.R.side_of[c.player]])


def past_max(R: Rules, melds: tuple[Meld, ...]) -> bool:
    """The side has a sequence longer than ``melds.sequences.max_size`` (brazilian 4.2), or a group
    longer than a closed canasta (``melds.past_closed_going_out``, modern-american A5), made in this
    turn, whose player must therefore go out in it."""
    if R.seq_past_max:
        for m in melds:
            if m[0] >= SEQ and m[1] > R.seq_max:
                return True
    if R.past_closed:
        for m in melds:
            if m[0] < SEQ and m[0] != WILD and m[1] + m[2] + m[3] > R.cs:
                return True
    return False


def may_go_out(c: Core) -> bool:
    """Not forbidden by the partner's "no", nor by a variant where going out needs a yes
    (``going_out.permission_required``, brazilian 6.1) unless the partner said yes."""
    flags = c.flags
    return not flags & F_NO and (not c.d.R.permission_required or bool(flags & F_YES))


def opening_need(c: Core, side: int) -> int:
    """Points still needed for the side's initial meld this turn (0 if opened)."""
    if c.opened[side]:
        return 0
    return max(0, c.d.R.initial_need(c.totals[side], c.d.hand_number) - c.count)


def capped(c: Core) -> bool:
    """No meld may reach canasta size anywhere in this turn: the variant says a canasta is
    "never" part of an initial meld, and the side had not melded when the turn began."""
    return c.d.R.initial_never and c.melds_before == 0


def plan_cap(c: Core) -> int:
    """``capped(c)`` for the turn planner's ``can_go_out``, plus 2 in the turn of a side's initial
    meld under ``initial_meld.no_wild`` (italian 4.5: no wild card is melded in it)."""
    return 0 if c.melds_before else c.d.R.cap_bits
def out_most(c: Core, side: int) -> int:
    """The most canastas ``side`` may have when it goes out this turn, for the turn planner's
    going-out plans: mexicana 6.2 (``going_out.red_threes_per_canasta``), a red three faced per
    canasta; the side's red threes are faced at the draw or the take (hoyle rule 14), so their
    number only grows during the turn and the present one is a safe bound. -1 (no plan) while a
    talon drawn at once (``deal.talon_when``) still waits for the side's initial meld: its cards
    would come into the hand unseen."""
    R = c.d.R
    if not R.out_gate:
        return BIG
    if R.talon_now and not c.opened[side]:
        return -1
    return c.red[side] // R.r3_per if R.r3_per else BIG


def has_down(c: Core, seat: int) -> bool:
    """Whether ``seat`` still has a down hand to play (new-canasta)."""
    return any(c.downs[seat])


def keep_for(c: Core, seat: int) -> int:
    """Cards a player must hold after melding to end the turn without going out: none where a
    down hand of two cards or more comes up when the hand is used up (he goes on from it)."""
    down = c.downs[seat]
    if any(down):
        return max(0, c.d.R.keep_out - sum(down[:15]))
    return c.d.R.keep_out


def arriving(R: Rules, cards: tuple[int, ...]) -> int:
    """Cards of a taken pile that come into the hand (red threes are faced instead, black
    threes set aside where the variant says so)."""
    n = len(cards)
    for k in R.from_pile_aside:
        n -= cards.count(k)
    return n


def plus_pending(R: Rules, h: Hand, cards: tuple[int, ...]) -> Hand:
    """``h`` with the pile set aside for an initial meld come into it (red threes faced)."""
    hl = bytearray(h)
    aside = R.from_pile_aside
    for k in cards:
        if k not in aside:
            hl[k] += 1
            if k > 14:
                hl[(k + 1) >> 2] += 1
    return bytes(hl)


def pending_hand(R: Rules, cards: tuple[int, ...]) -> Hand:
    """The cards of a pile set aside for an initial meld that will come into the hand."""
    return plus_pending(R, bytes(R.hand_len), cards)


def opening_capped(c: Core) -> bool:
    """No meld may reach canasta size while the side's initial meld is being made."""
    return not c.d.R.initial_canasta or capped(c)


def waiver(c: Core, seat: int) -> bool:
    """Whether a concealed going out would waive the initial minimum for this player now."""
    R = c.d.R
    if R.conc_min == "required":
        return False
    if R.conc_min == "waived_if_stock" and c.flags & 2:  # F_TOOK
        return False
    if R.conc_basis == "player" and c.flags & 1024:  # F_HAD_MELDED
        return False
    return not c.opened[R.side_of[seat]]


def partner_ready(c: Core, seat: int) -> bool:
    """hand-and-foot 6.3: the partners of the player going out play from their down hands
    (picked up, and a turn begun with it or continued after it came up;
    ``going_out.partner_down_hand``); always true where the variant does not ask it."""
    R = c.d.R
    if not R.partner_down:
        return True
    turned = c.turned
    for s in R.members[R.side_of[seat]]:
        if s != seat and s in c.d.active and not (turned >> (FOOT + s)) & 1:
            return False
    return True


def dead_mask(c: Core) -> int:
    """Bit ``1 << rank`` for each rank made dead by a closed canasta of any side
    (``melds.dead_ranks``, modern-american 4.8); 0 where the variant has no dead ranks."""
    R = c.d.R
    if not R.dead_ranks:
        return 0
    mask = 0
    for info in c.info:
        mask |= info.rank_mask & ~info.open_mask
    return mask & ~(1 << WILD)


def plan_melds(c: Core, melds: tuple[Meld, ...]) -> tuple[Meld, ...]:
    """``melds`` as the turn planner should see them: a dead rank (modern-american 4.8) as a
    closed canasta of the side's, so that no natural of it is planned into a meld."""
    dead = dead_mask(c)
    if not dead:
        return melds
    R = c.d.R
    out = [m if not (dead >> m[0]) & 1 else (m[0], max(m[1], R.cs), 0, 0, 0) for m in melds]
    have = 0
    for m in melds:
        have |= 1 << m[0]
    for r in range(4, 15):
        if (dead >> r) & 1 and not (have >> r) & 1:
            out.append((r, R.cs, 0, 0, 0))
    return tuple(out)


def out_problem(c: Core, seat: int, melds: tuple[Meld, ...]) -> Optional[Reason]:
    """Why ``seat``'s side may not go out with the melds ``melds`` (its partners, the number
    and the kinds of its canastas, unfinished melds of the kinds listed), or None."""
    R = c.d.R
    if R.simple_out:
        have = side_canastas(R, melds)
        return None if have >= R.canastas_needed else (W.GO_OUT_CANASTAS, seat, have, (0, 0, 0, 0))
    if not partner_ready(c, seat):
        return (W.GO_OUT_PARTNER, seat)
    if R.no_unfinished:
        for m in melds:
            # modern-american 6.2: no unfinished meld of sevens, natural aces or wild cards
            if m[0] in R.no_unfinished and not R.is_canasta(m) and (m[0] == WILD or m[2] + m[3] == 0):
                return (W.GO_OUT_UNFINISHED, seat, m[0])
    if not canastas_ok(R, melds):
        return (W.GO_OUT_CANASTAS, seat, side_canastas(R, melds),
                kinds_short(R, melds) + (ranks_short(R, melds) if R.rank_needed else ()))
    if R.r3_per:
        # mexicana 6.2: at least one red three faced for each canasta the side has (A7: every
        # canasta, those completed this turn too)
        have = side_canastas(R, melds)
        red = c.red[R.side_of[seat]]
        if red < R.r3_per * have:
            return (W.TEXT, red_threes_words(R, have, red))
    return None


def red_threes_words(R: Rules, canastas: int, red: int) -> str:
    """mexicana 6.2: the side has too few red threes faced for its canastas."""
    per = "a red three" if R.r3_per == 1 else f"{num(R.r3_per)} red threes"
    return (f"your side may go out only with {per} faced for each of its canastas: it would have "
            f"{num(canastas)} canasta{'s' if canastas != 1 else ''} and {num(red) if red else 'no'} red "
            f"three{'s' if red != 1 else ''}; keep at least {num(R.keep_out)} cards, one to discard")


def comp_due(c: Core, side: int) -> Comp:
    """What the side's initial meld must include, where this turn is its initial meld's (the
    side had no meld when the turn began): ``Rules.initial_comp`` for its score; else nothing."""
    R = c.d.R
    if not R.comp_any or c.melds_before:
        return NO_COMP
    return R.initial_comp(c.totals[side], c.d.hand_number)


def comp_plans(c: Core, side: int, h: Hand, melds: tuple[Meld, ...]) -> list[tuple[Hand, tuple[Meld, ...], int]]:
    """The (hand, melds, points) from which the rest of the turn is planned: as they are, or,
    where the initial meld has a composition to meet, each way of meeting it
    (``_opening.comp_options``; modern-american 4.9: the melds of the turn as a whole, in any order)."""
    comp = comp_due(c, side)
    if not comp[0]:
        return [(h, melds, 0)]
    return comp_options(c.d.R, h, melds, comp, dead_mask(c), opening_capped(c))


def comp_problem(c: Core, side: int) -> Optional[Reason]:
    """Why the turn may not end now: the side's initial meld, laid this turn, lacks what it must
    include (modern-american 4.9); None when it has it or the side laid nothing."""
    comp = comp_due(c, side)
    melds = c.melds[side]
    if not comp[0] or not melds or comp_met(c.d.R, melds, comp):
        return None
    return comp_reason(c.d.R, melds, comp, False)


def comp_reason(R: Rules, melds: tuple[Meld, ...], comp: Comp, after: bool) -> Reason:
    """The reason naming what the initial meld lacks of ``comp`` (``after``: it could not come
    after the action refused): the canasta asked first (brazilian 7.2), then the natural meld
    (modern-american 4.9)."""
    bits, points = comp
    if bits & COMP_CANASTA and not comp_met(R, melds, (bits & COMP_CANASTA, points)):
        return (W.INITIAL_COMP, bits & COMP_CANASTA, points, after)
    return (W.NATURAL_FIRST, after)


def final_ban_problem(c: Core, seat: int, k: int, melds: tuple[Meld, ...]) -> Optional[Reason]:
    """pennies-from-heaven 3.5: a player left with the one card ``k``, of a rank that may not be the
    discard that goes out (``going_out.no_final_discard``), must be able to go out by melding it
    onto one of the side's melds ``melds``; the reason why he could not, or None."""
    R = c.d.R
    if not R.by_discard:
        for i in range(len(melds)):
            r, nat, jk, tw, r3 = melds[i]
            if r != KIND[k]:
                continue
            m = (r, nat + 1, jk, tw, r3)
            if R.valid(m) and out_problem(c, seat, melds[:i] + (m,) + melds[i + 1:]) is None:
                return None
    return (W.TEXT, f"you would be left with {W.a_card(k)} alone, which may not be the discard with which "
            "you go out, and you could not go out by melding it")


def one_card_out(R: Rules, k: int, melds: tuple[Meld, ...], no_wild: bool = False) -> bool:
    """Whether melding the single card ``k`` onto one of ``melds`` gives the side the canastas
    to go out (exact, for canastas required by kind: the planner only counts them). ``no_wild``:
    no wild card is melded this turn (italian 4.5)."""
    if k <= TWO and (no_wild or (k == TWO and R.deuce_excl and deuce_open(R, melds))):
        # italian 4.4: a deuce goes only onto the open meld of deuces
        melds_ok = () if no_wild else tuple(m for m in melds if m[0] == WILD)
        return any(R.valid((WILD, m[1], m[2], m[3] + 1, m[4])) and canastas_ok(
            R, tuple(x if x is not m else (WILD, m[1], m[2], m[3] + 1, m[4]) for x in melds)) for m in melds_ok)
    for i in range(len(melds)):
        r, nat, jk, tw, r3 = melds[i]
        if r >= SEQ:
            low = seq_low(r)
            if k < 15 or SUIT_OF[k] != seq_suit(r) or KIND[k] not in (low - 1, low + nat):
                continue
            m = (seq_rank(seq_suit(r), min(low, KIND[k])), nat + 1, 0, 0, 0)
        elif KIND[k] == r and r != WILD:
            m = (r, nat + 1, jk, tw, r3)
        elif k == JK or k == TWO:
            m = (r, nat, jk + (k == JK), tw + (k == TWO), r3)
        else:
            continue
        if R.valid(m) and canastas_ok(R, melds[:i] + (m,) + melds[i + 1:]):
            return True
    return False


def after_problem(c: Core, seat: int, h: Hand, melds: tuple[Meld, ...], must: bool, may_out: bool,
                  what: object) -> Optional[Reason]:
    """Why the turn could not be finished from hand ``h`` with side melds ``melds`` (the side
    has opened), or None when it can. ``what`` names the action for the words."""
    R = c.d.R
    down = any(c.downs[seat])
    if must:
        if down:
            return (W.MUST_DOWN,)
        if (not R.partner_down or partner_ready(c, seat)) and can_go_out(R, h, melds, 0, True, False, -1, plan_cap(c),
                                                                                     out_most(c, R.side_of[seat])):
            return None
        return (W.MUST_MELD_ALL, what)
    if down:
        if any(h[:15]) or sum(c.downs[seat][:15]) >= R.keep_out:
            return None
        # melded out: the down hand comes up now and the turn goes on from it; a down hand of one
        # card can only be discarded, going out (a house rule's tables.N.down_hand_size = 1)
        h = c.downs[seat]
    n = sum(h[:15])
    if n >= 2:
        return None
    if not may_out:
        return (W.NO_KEEP, what, n)
    final = c.phase == PH_FINAL_MELD
    if final and n == 1:
        return None
    if n == 1 and R.final_ban:
        k = next(k for k in range(len(h) - 1, -1, -1) if h[k])
        if KIND[k] in R.final_ban:
            return final_ban_problem(c, seat, k, melds)
    if n == 0 and R.by_discard:
        return (W.OUT_BY_DISCARD, what)
    gate = out_problem(c, seat, melds)
    if gate is None:
        return None
    if R.by_discard:
        return gate  # the last card is discarded: the melds are those on the table now
    if n == 1 and gate[0] == W.GO_OUT_CANASTAS:
        if R.kinds_needed is None:
            if can_go_out(R, h, melds, 0, not final, False, -1, plan_cap(c), out_most(c, R.side_of[seat])):
                return None
        elif one_card_out(R, next(k for k in range(len(h) - 1, -1, -1) if h[k]), melds, plan_cap(c) > 1):
            return None
    return gate


def ok_problem(c: Core, seat: int, h2: Hand, melds2: tuple[Meld, ...], gain: int, b3: bool,
               what: object) -> Optional[Reason]:
    """Why melding (to hand ``h2`` and side melds ``melds2``, ``gain`` points toward an initial
    meld; ``b3``: black threes) leaves the turn impossible to finish, or None. Where the initial
    meld has a composition to meet, the turn must be finishable with it met (modern-american 4.9)."""
    R = c.d.R
    if not R.comp_any or c.melds_before:  # nothing asked of the initial meld's composition
        return _ok_problem(c, seat, h2, melds2, gain, b3, what)
    side = R.side_of[seat]
    comp = comp_due(c, side)
    if not comp[0]:
        return _ok_problem(c, seat, h2, melds2, gain, b3, what)
    first: Optional[Reason] = None
    for h3, m3, g in comp_options(R, h2, melds2, comp, dead_mask(c), opening_capped(c)):
        why = _ok_problem(c, seat, h3, m3, gain + g, b3, what)
        if why is None:
            return None
        if first is None:
            first = why
    if first is not None and comp_met(R, melds2, comp):
        return first  # the composition is there: something else stops the turn
    return comp_reason(R, melds2, comp, True)


def _ok_problem(c: Core, seat: int, h2: Hand, melds2: tuple[Meld, ...], gain: int, b3: bool,
                what: object) -> Optional[Reason]:
    """``ok_problem`` with the composition of the initial meld met (or none asked)."""
    R = c.d.R
    side = R.side_of[seat]
    flags = c.flags
    must = bool(flags & F_MUST) or (R.past_any and past_max(R, melds2))
    may_out = not flags & F_NO and (not R.permission_required or bool(flags & F_YES))
    opened = c.opened[side]
    need_rem = 0 if opened else max(0, R.initial_need(c.totals[side], c.d.hand_number) - c.count)
    if c.phase == PH_INITIAL_TAKE:
        rem = need_rem - gain
        if rem <= 0:
            return after_problem(c, seat, plus_pending(R, h2, c.pending), melds2, must, may_out, what)
        if must:
            # bound to go out (a yes): the minimum first, then every card with the pile's
            if any(c.downs[seat]):
                return (W.MUST_DOWN,)
            if open_then_out(R, h2, melds2, rem, pending_hand(R, c.pending), capped(c), opening_capped(c),
                             out_most(c, side)):
                return None
            return (W.MUST_INITIAL, c.count + gain, what, False)
        keep = max(0, keep_for(c, seat) - arriving(R, c.pending))
        if reach(R, h2, plan_melds(c, melds2) if R.dead_ranks else melds2, rem, keep):
            return None
        return (W.INITIAL_SHORT, c.count + gain, h2, melds2, rem, keep)
    if not opened and need_rem > 0:
        rem = need_rem - gain
        down = any(c.downs[seat])
        if rem <= 0:
            if b3:
                if after_problem(c, seat, h2, melds2, True, may_out, what) is None:
                    return None
                return (W.B3_OUT, seat, h2, melds2)
            return after_problem(c, seat, h2, melds2, must, may_out, what)
        keep = keep_for(c, seat)
        if not must and not b3 and reach(R, h2, plan_melds(c, melds2) if R.dead_ranks else melds2, rem, keep):
            return None
        if not may_out or down:
            if b3:
                return (W.B3_OUT, seat, h2, melds2)
            if must:
                return (W.MUST_INITIAL, c.count + gain, what, False)
            return (W.INITIAL_SHORT, c.count + gain, h2, melds2, rem, keep)
        waive = waiver(c, seat)
        # a side that has not melded has only this turn's melds, so a canasta it holds
        # at going out is the player's own (hoyle rule 47)
        if (not R.partner_down or partner_ready(c, seat)) and can_go_out(
                R, h2, melds2, 0 if waive else rem, c.phase != PH_FINAL_MELD, False, -1, plan_cap(c),
                out_most(c, side)):
            return None
        if b3:
            return (W.B3_OUT, seat, h2, melds2)
        if must:
            return (W.MUST_INITIAL, c.count + gain, what, waive)
        return (W.INITIAL_SHORT_OUT, c.count + gain, h2, melds2, rem, keep, waive)
    if b3:
        if may_out and not any(c.downs[seat]) and (not R.partner_down or partner_ready(c, seat)) and can_go_out(
                R, h2, melds2, 0, c.phase != PH_FINAL_MELD, False, -1, plan_cap(c), out_most(c, side)):
            return None
        return (W.B3_OUT, seat, h2, melds2)
    return after_problem(c, seat, h2, melds2, must, may_out, what)
