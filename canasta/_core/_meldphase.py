"""The meld phase's generators: the legal action ids after the draw (MELD, FINAL_MELD,
INITIAL_TAKE), in order.

:func:`meld_phase_ids` walks the candidate actions in their fixed order and keeps those whose
checks pass; where the side has opened, owes nothing and keeps two cards, the turn-finishing
check passes without planning (``after_problem``'s first cases), and the generator says so
without building the hand after the action. :func:`suited_meld_phase_ids` does it where cards
carry suits. Built on ``_meld`` and ``_discard`` (the checks), ``_finish`` and ``_rules``;
built upon by ``_legal``.
"""

from __future__ import annotations

from itertools import compress
from operator import le
from typing import Optional

from ._discard import _NONE, _can_reach, ask_after_problem, barred_discards, discard_card_problem, discard_problem
from ._finish import comp_due, dead_mask, ok_problem, past_max
from ._kernel import (stock_left, F_ASKED, F_B3, F_DREW, F_MELDED, F_MUST, F_NO, F_TOOK, F_YES, PH_FINAL_MELD,
                      PH_INITIAL_TAKE, Core, Hand)
from ._meld import (_less_card, _less_cards, add_grown, add_problem, b3_last_ok, combine_problem, meld_problem,
                    new_meld_rule_problem, new_sequence, wild_rule)
from ._meldrules import card_rule
from ._reasons import Reason
from ._table import first_alike
from ._rules import ADD, B3, BIG, RANKS, JK, KIND, R3, SEQ, TWO, WILD, Meld, Rules, meld_key, seq_low


def _minus(h: Hand, cards: tuple[int, ...]) -> Hand:
    hl = bytearray(h)
    for k in cards:
        hl[k] -= 1
    return bytes(hl)


def _minus1(h: Hand, k: int) -> Hand:
    hl = bytearray(h)
    hl[k] -= 1
    return bytes(hl)


_TWOS = (2,) * 11


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

_GroupEntry = tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]]
"""A new meld of a rank: its id, its cards, and (card, count) for each card it needs."""
_Groups = dict[int, list[tuple[Meld, list[_GroupEntry]]]]


def _suited_tables(R: Rules) -> tuple[_Groups, list[tuple[int, tuple[int, ...]]], list[tuple[int, tuple[int, ...]]]]:
    """The new melds of a variant with sequences, by kind: groups per rank by shape (its meld:
    naturals, jokers, deuces), sequences, and the others (black threes, wild cards), as (id,
    cards) in id order; built once per table."""
    got = R.suited_melds
    if got is None:
        groups: _Groups = {}
        seqs: list[tuple[int, tuple[int, ...]]] = []
        others: list[tuple[int, tuple[int, ...]]] = []
        for i, sp in enumerate(R.specs):
            if sp[0] != 7:  # MELD
                continue
            cards = sp[4]
            if cards[0] > 14 and KIND[cards[1]] != KIND[cards[0]]:
                seqs.append((i, cards))
            elif cards[0] > 14:
                r = KIND[cards[0]]
                nm: Meld = (r, sum(1 for k in cards if k > TWO), cards.count(JK), cards.count(TWO), 0)
                shapes = groups.setdefault(r, [])
                for shape in shapes:
                    if shape[0] == nm:
                        break
                else:
                    shape = (nm, [])
                    shapes.append(shape)
                shape[1].append((i, cards, tuple((k, cards.count(k)) for k in sorted(set(cards)))))
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


def _finishable(c: Core, seat: int, side: int) -> tuple[bool, bool, bool]:
    """When ``ok_problem`` passes for any hand of a given size: (the side owes nothing this turn:
    no initial meld, composition or going out due; the player has a down hand; it is big enough
    to go on from). Then the player keeping two cards, or one or none with such a down hand,
    can end the turn (``after_problem``'s first cases), the suits of the cards an action takes
    from the hand do not matter, and no plan is made (see ``_passes``)."""
    R = c.d.R
    free = (c.phase != PH_INITIAL_TAKE and not c.flags & F_MUST
            and (c.opened[side] or R.initial_need(c.totals[side], c.d.hand_number) - c.count <= 0)
            and not comp_due(c, side)[0])
    downs = c.downs[seat]
    return free, any(downs), sum(downs[:15]) >= R.keep_out


def _passes(R: Rules, fin: tuple[bool, bool, bool], melds2: tuple[Meld, ...], left: int) -> bool:
    """``ok_problem(c, seat, h2, melds2, gain, False, _)`` is None for every ``h2`` of ``left``
    cards (``fin``: ``_finishable``)."""
    free, down, down_enough = fin
    return (free and ((left >= 1 or down_enough) if down else left >= 2)
            and not (R.past_any and past_max(R, melds2)))


def suited_meld_phase_ids(c: Core) -> list[int]:
    """``meld_phase_ids`` where cards carry suits (melds.sequences): every candidate action
    the hand allows, kept where its check passes (the same checks ``why_illegal`` words). A
    meld's rules are checked once for all the suits that make it, and the turn's end is planned
    per set of suits only where the hand left matters."""
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
    n_hand = sum(h[:15])
    fin = _finishable(c, seat, side)
    vals = R.values
    jk = h[JK]
    two = h[TWO]
    for r in range(4, 15):
        n = h[r]
        if n < 2:
            continue
        for nm, entries in groups.get(r, ()):
            if nm[1] > n or nm[2] > jk or nm[3] > two:
                continue
            held = [e for e in entries if all(h[k] >= q for k, q in e[2])]
            if not held or new_meld_rule_problem(c, melds, nm) is not None:
                continue
            melds2 = melds + (nm,)
            easy = _passes(R, fin, melds2, n_hand - nm[1] - nm[2] - nm[3])
            for mid, cards, _need in held:
                if easy or ok_problem(c, seat, _less_cards(h, cards), melds2, sum(vals[k] for k in cards), False,
                                      specs[mid]) is None:
                    acts.append(mid)
    for mid, cards in seqs:
        if h[cards[0]] and h[cards[1]] and h[cards[2]] and (len(cards) == 3 or _held(h, cards)):
            seq, _why = new_sequence(c, cards)
            if seq is None:
                continue
            melds2 = melds + (seq,)
            if _passes(R, fin, melds2, n_hand - len(cards)) or ok_problem(
                    c, seat, _less_cards(h, cards), melds2, sum(vals[k] for k in cards), False, specs[mid]) is None:
                acts.append(mid)
    for mid, cards in others:
        if _held(h, cards) and meld_problem(c, seat, specs[mid]) is None:
            acts.append(mid)
    # additions: to each meld, every card that could go on it; a meld's rules checked once for the
    # naturals of its rank whatever their suits (add_grown)
    mb = c.melds_before
    numbers: dict[int, int] = {}
    for i in range(len(melds)):
        m = melds[i]
        key = meld_key(m[0])
        number = numbers.get(key, 0) + 1
        numbers[key] = number
        if key >= SEQ:
            low = seq_low(m[0])
            suit = key - SEQ
            for k in [4 * r - 1 + suit for r in (low - 1, low + m[1]) if R.seq_lo <= r <= R.seq_hi]:
                if not h[k]:
                    continue
                aid = ids.get((ADD, k, key, number, ()))
                if aid is not None and add_problem(c, seat, specs[aid]) is None:
                    acts.append(aid)
            continue
        if first_alike(melds, i, mb) != i:
            continue  # the same play as on an earlier meld just like it: never offered (add_problem)
        # the cards that could go on it, a class at a time: naturals of its rank (any suit), a joker,
        # a deuce, a red three; the black threes' meld takes black threes
        if key == B3:
            classes: tuple[tuple[int, ...], ...] = ((B3,),)
        elif key == WILD:
            classes = ((JK,), (TWO,))
        else:
            classes = (tuple(4 * key - 1 + s for s in range(4)), (JK,), (TWO,), (R3,))
        for cls in classes:
            grown: Optional[tuple[Optional[Meld], int, bool, Optional[Reason]]] = None
            melds2 = melds
            easy = False
            for k in cls:
                if not h[k]:
                    continue
                aid = ids.get((ADD, k, key, number, ()))
                if aid is None:
                    continue
                probe = specs[aid]
                if grown is None:
                    grown = add_grown(c, seat, probe, i)
                    if grown[0] is not None:
                        melds2 = melds[:i] + (grown[0],) + melds[i + 1:]
                        easy = not grown[2] and _passes(R, fin, melds2, n_hand - 1)
                grown_meld, gain, b3, why = grown
                if grown_meld is None:
                    ok = why is None
                else:
                    # a natural of another suit adds its own points
                    ok = easy or ok_problem(c, seat, _less_card(h, k), melds2, vals[k] if k > 14 else gain, b3,
                                            probe) is None
                if ok:
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
