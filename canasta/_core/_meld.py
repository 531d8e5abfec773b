"""After the draw: melding, adding, combining, asking, discarding, ``done`` and ``retract``.

Each check answers with the reason that refuses the action, or None when it is legal. The
generator :func:`meld_phase_ids` walks the candidate actions in their fixed order and keeps
those whose checks pass; where the side has opened, owes nothing and keeps two cards, the
turn-finishing check passes without planning (``after_problem``'s first cases), and the
generator says so without building the hand after the action.
"""

from __future__ import annotations

from itertools import compress
from typing import Optional

from . import _reasons as W
from ._finish import arriving, capped, dead_mask, keep_for, ok_problem, out_problem, waiver
from ._kernel import (F_NATURAL, F_ASKED, F_B3, F_DREW, F_MELDED, F_MUST, F_NO, F_OWN, F_TOOK, F_YES, PH_FINAL_MELD,
                      PH_INITIAL_TAKE, Core, Hand)
from ._plan import can_go_out, reach
from ._reasons import PLURALS, Reason, num
from ._table import first_alike
from ._rules import ADD, B3, COMBINE, JK, R3, TWO, WILD, Meld, Rules, Spec


def _minus(h: Hand, cards: tuple[int, ...]) -> Hand:
    hl = list(h)
    for k in cards:
        hl[k] -= 1
    return bytes(hl)


def _minus1(h: Hand, k: int) -> Hand:
    hl = list(h)
    hl[k] -= 1
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
    n = sum(h2)
    return n == 0 or (n == 1 and not final and not R.b3_final)


def need_left(c: Core, side: int) -> int:
    R = c.d.R
    if c.opened[side]:
        return 0
    return max(0, R.initial_need(c.totals[side], c.d.hand_number) - c.count)


# ------------------------------------------------------------------ modern-american's meld rules


def needs_natural(c: Core) -> bool:
    """The side is making its initial meld and has laid no natural meld yet this turn
    (``initial_meld.natural_meld_first``, modern-american 4.9)."""
    return c.d.R.natural_first and c.melds_before == 0 and not c.flags & F_NATURAL


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
    r = WILD if first <= TWO else first
    vals = R.values
    gain = 0
    nat = 0
    for k in cards:
        gain += vals[k]
        if k > TWO:
            nat += 1
    h2 = _minus(h, cards)
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
    if needs_natural(c) and (r == WILD or nm[2] + nm[3]):
        return (W.NATURAL_FIRST,)
    if r != WILD and nm[2] + nm[3]:
        text = wild_rule(c, melds, None)
        if text is not None:
            return (W.WILD_RULE, text)
    return ok_problem(c, seat, h2, melds + (nm,), gain, False, probe)


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
    same = [i for i in range(len(melds)) if melds[i][0] == r]
    if not same:
        return (W.ADD_NO_MELD, r)
    if number > len(same):
        return (W.ADD_ONLY, r, len(same))
    if not h[k]:
        return (W.HELD, h, (k,))
    i = same[number - 1]
    m = melds[i]
    first = same.index(first_alike(melds, i, c.melds_before)) + 1
    if first != number:
        other: Spec = (ADD, k, r, first, ())
        why = add_problem(c, seat, other)
        return why if why is not None else (W.TWIN, number, first, r, other)
    vals = R.values
    h2 = _minus1(h, k)
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
        return (W.CLOSED, r)
    if r != WILD and (dead_mask(c) >> r) & 1:
        return (W.DEAD_RANK, r)
    nm = (m[0], m[1] + (k == r), m[2] + (k == JK), m[3] + (k == TWO), m[4])
    why = meld_shape_problem(R, nm)
    if why is not None:
        return why
    if needs_natural(c):
        return (W.NATURAL_FIRST,)
    if r != WILD and k <= TWO:
        text = wild_rule(c, melds, m)
        if text is not None:
            return (W.WILD_RULE, text)
    if ((not c.opened[side] and not R.initial_canasta) or capped(c)) and size + 1 >= R.cs:
        return (W.INITIAL_CANASTA,)
    return ok_problem(c, seat, h2, melds[:i] + (nm,) + melds[i + 1:], vals[k], False, probe)


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
    nm = (r, m1[1] + m2[1], m1[2] + m2[2], m1[3] + m2[3], 0)
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
    need_rem = need_left(c, side)
    if sum(h) == 1 and not any(c.downs[seat]):
        if flags & F_NO:
            return (W.DISCARD_OUT, seat, W.GO_OUT_NO)
        gate = out_problem(c, seat, c.melds[side])
        if gate is not None:
            return (W.DISCARD_OUT, seat) + gate[:1] + gate[2:]
        if opening and c.count > 0 and need_rem > 0:
            if not waiver(c, seat):
                return (W.DISCARD_INITIAL_OUT,)
            if R.conc_own and not flags & F_OWN:
                return (W.DISCARD_CONCEALED_OWN,)
        return None
    if flags & F_MUST:
        return (W.DISCARD_MUST,)
    if opening and c.count > 0 and need_rem > 0:
        return (W.DISCARD_INITIAL, need_rem)
    return None


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
    if not barred:
        return _NONE
    for k in range(len(h)):
        if h[k] and k not in barred:
            return barred
    return _NONE


_NONE: frozenset[int] = frozenset()


def discard_card_problem(c: Core, seat: int, card: int) -> Optional[Reason]:
    """Why discarding ``card`` in particular is refused now, or None."""
    if card in barred_discards(c, seat, c.hands[seat]):
        R = c.d.R
        if card in R.no_discard_first and not (c.turned >> seat) & 1:
            return (W.TEXT, f"you may not discard {W.a_card(card)} in your first turn of the hand "
                    "while you hold another card")
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
    side = R.side_of[seat]
    melds = c.melds[side]
    need = 0 if waiver(c, seat) else need_left(c, side)
    if can_go_out(R, c.hands[seat], melds, need, True, False, c.info[side].open_mask, capped(c)):
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
    return reach(R, c.hands[seat], c.melds[side], need_left(c, side), keep)


def done_problem(c: Core) -> Optional[Reason]:
    """Why ``done`` is refused in the meld phase, or None."""
    if c.phase == PH_FINAL_MELD:
        return None
    R = c.d.R
    if not c.stock_n and R.last_round:
        seat = c.player
        if (c.flags & F_B3 and R.b3_last) or (any(c.hands[seat]) and discard_problem(c, seat) is None):
            return (W.DONE_DISCARD,)
        return None
    return (W.DONE_NOT_FINAL,)


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
        if sum(h) == 1 and c.phase != PH_FINAL_MELD:
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
    down = any(c.downs[seat])
    # Where the side has opened and owes nothing this turn, any action that leaves two cards
    # in hand (or a down hand to come) leaves the turn finishable: after_problem's first cases.
    easy = opened and not must and not final and not initial_take
    easy_meld = easy and (n_hand >= 5 or down)
    easy_add = easy and (n_hand >= 3 or down)
    jk = h[JK]
    two = h[TWO]
    # new melds: a natural pair or three, with a wild card or without
    skip = 0 if R.multi else (info.open_mask if R.new_after else info.rank_mask)
    # modern-american: dead ranks (4.8), a natural meld first in the initial meld (4.9), the
    # wild-card rules (4.3, 4.6; 4.4 and 4.5 are in the meld's validity and its wild room)
    plain = R.plain
    if plain:
        dead = dead_mask(c)
        skip |= dead
        natural_first = needs_natural(c)
        new_wild_ok = not natural_first and wild_rule(c, melds, None) is None
    else:
        dead = 0
        natural_first = False
        new_wild_ok = True
    for r in range(4, 15):
        n = h[r]
        if n < 2 or (skip >> r) & 1:
            continue
        if n >= 3 and R.trip_ok:
            mid = R.id_trip[r]
            if easy_meld or ok_problem(c, seat, _minus(h, (r, r, r)), melds + ((r, 3, 0, 0, 0),), 3 * vals[r],
                                       False, specs[mid]) is None:
                acts.append(mid)
        if R.pair_wild_ok and new_wild_ok and not (plain and r in R.natural_only):
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
    # a meld of wild cards only
    if R.wild_melds and not info.wild and jk + two >= R.min_size and not natural_first:
        meld_ids = R.id_meld
        for j in range(R.min_size, -1, -1):
            d = R.min_size - j
            if jk >= j and two >= d:
                cards = (JK,) * j + (TWO,) * d
                mid = meld_ids[cards]
                if ok_problem(c, seat, _minus(h, cards), melds + ((WILD, 0, j, d, 0),),
                              j * vals[JK] + d * vals[TWO], False, specs[mid]) is None:
                    acts.append(mid)
    # additions to melds
    opening_cap = (not opened and not R.initial_canasta) or capped(c)
    r3 = h[R3] and R.keep_r3 and R.r3_canasta
    mb = c.melds_before
    for i, r, number, m, size, full, wild_room, id_nat, id_jk, id_two, id_r3, twins in info.adds:
        if twins and first_alike(melds, i, mb) != i:
            continue  # the same play as on an earlier meld just like it
        if plain:
            if natural_first or (dead >> r) & 1:
                continue
            if wild_room and r != WILD and wild_rule(c, melds, m) is not None:
                wild_room = False
        if r == B3:
            if h[B3] and m[1] < R.b3_max:
                if ok_problem(c, seat, _minus1(h, B3), melds[:i] + ((B3, m[1] + 1, 0, 0, 0),) + melds[i + 1:],
                              vals[B3], True, specs[id_nat]) is None:
                    acts.append(id_nat)
            continue
        if not full and not (opening_cap and size + 1 >= R.cs):
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
        barred = barred_discards(c, seat, h) if R.no_discard_first or R.no_discard_on_empty else _NONE
        if barred:
            acts.extend(R.id_discard[k] for k in range(len(h)) if h[k] and k not in barred)
        else:
            acts.extend(compress(R.id_discard, h))
    elif not c.stock_n and R.last_round:
        # new-canasta's last round has no draw: a player who may not empty his hand
        # ("must hold at least one card") ends the turn without discarding
        acts.append(R.id_done)
    return acts

