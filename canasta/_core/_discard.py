"""After the draw: discarding, asking "may I go out?", ``done`` and ``retract``, and the black
threes' last meld (nothing but the final discard may follow it).

Each check answers with the reason that refuses the action, or None when it is legal. Built on
``_meld`` (the hand's and the initial meld's helpers), ``_finish`` and ``_plan``; built upon by
``_meldphase`` and ``_legal``.
"""

from __future__ import annotations

from typing import Optional

from . import _reasons as W
from ._finish import (out_most, arriving, comp_plans, comp_problem, dead_mask, keep_for, out_problem, partner_ready,
                      past_max, waiver)
from ._kernel import (stock_left, F_ASKED, F_B3, F_DREW, F_MELDED, F_MUST, F_NO, F_OWN, F_TOOK, F_YES, PH_FINAL_MELD,
                      Core, Hand)
from ._meld import held_problem, need_left
from ._plan import can_go_out, reach
from ._reasons import Reason
from ._rules import BIG, KIND, Spec


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
