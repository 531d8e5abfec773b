"""Scoring a hand: each side's itemised rows, in the order its variant's source lists them."""

from __future__ import annotations

from ._kernel import Core, Scores
from ._rules import B3, JK, R3, TWO, WILD


def score_hand(c: Core, went_out: int, concealed: bool) -> Scores:
    """Each side's rows (name, count, points); ``went_out`` is the seat earning the going-out
    bonus, or -1."""
    R = c.d.R
    vals = R.values
    out = []
    for side in range(R.n_sides):
        items: list[tuple[str, int, int]] = []
        melds = c.melds[side]
        nat = mixed = wild = b3c = r3c = 0
        wild_by: dict[int, int] = {}
        melded_pts = 0
        for m in melds:
            rank = m[0]
            if rank == B3:
                melded_pts += m[1] * vals[B3]
            elif rank != WILD:
                melded_pts += m[1] * vals[rank]
            melded_pts += m[2] * vals[JK] + m[3] * vals[TWO]
            if R.is_canasta(m):
                if rank == B3:
                    b3c += 1
                elif rank == WILD:
                    special = R.wild_bonus_by.get((m[2], m[3]))
                    if special is None:
                        wild += 1
                    else:
                        wild_by[special] = wild_by.get(special, 0) + 1
                elif m[2] + m[3] == 0:
                    if m[4] and R.r3_canasta:
                        r3c += 1
                    else:
                        nat += 1
                else:
                    mixed += 1
        out_here = went_out >= 0 and R.side_of[went_out] == side
        left = 0
        r3_left = 0
        for s in R.members[side]:
            for hand in (c.hands[s], c.downs[s]):
                for k in range(len(hand)):
                    left += hand[k] * vals[k]
                r3_left += hand[R3]
        if R.keep_r3:
            # new-canasta order: top count (canastas), to the bad (hand), to the good (melds)
            if r3c:
                items.append(("red three canastas", r3c, r3c * R.r3_canasta))
            if nat:
                items.append(("natural canastas", nat, nat * R.nat_bonus))
            if mixed:
                items.append(("mixed canastas", mixed, mixed * R.mixed_bonus))
            if wild:
                items.append(("wild canastas", wild, wild * R.wild_bonus))
            if b3c:
                items.append(("black three canastas", b3c, b3c * R.b3_bonus))
            if out_here:
                items.append(("going out", 1, R.out_bonus))
            precise = sum(1 for s in c.d.precise if R.side_of[s] == side)
            if precise:
                items.append(("precise dealer draw", precise, precise * R.precise_bonus))
            items.append(("cards left in hand", -1, -left))
            if r3_left:
                items.append(("red threes in hand", r3_left, -r3_left * R.r3_penalty))
            items.append(("melded cards", -1, melded_pts))
        else:
            items.append(("melded cards", -1, melded_pts))
            items.append(("cards left in hand", -1, -left))
            if nat:
                items.append(("natural canastas", nat, nat * R.nat_bonus))
            if mixed:
                items.append(("mixed canastas", mixed, mixed * R.mixed_bonus))
            if wild:
                items.append(("wild canastas", wild, wild * R.wild_bonus))
            for bonus, n in wild_by.items():
                # cuban 5.1: wild canastas scored by their cards
                items.append((f"wild canastas of {bonus}", n, n * bonus))
            if b3c:
                items.append(("black three canastas", b3c, b3c * R.b3_bonus))
            n_red = c.red[side]
            if n_red:
                table = R.r3_bonus
                bonus = table[n_red] if n_red < len(table) else table[-1]
                signs = R.r3_sign
                if signs:
                    # cuban 7.4: plus with a canasta, minus without
                    have = nat + mixed + wild + b3c + r3c + sum(wild_by.values())
                    sign = signs[have] if have < len(signs) else signs[-1]
                    if sign < 0:
                        minus = R.r3_minus_table or table
                        items.append(("red threes (too few canastas)", n_red,
                                      -(minus[n_red] if n_red < len(minus) else minus[-1])))
                    elif sign == 0:
                        items.append(("red threes (count nothing)", n_red, 0))
                    else:
                        items.append(("red threes", n_red, bonus))
                elif not melds and R.r3_minus:
                    minus = R.r3_minus_table or table
                    bonus = minus[n_red] if n_red < len(minus) else minus[-1]
                    items.append(("red threes (no meld)", n_red, -bonus))
                else:
                    items.append(("red threes", n_red, bonus))
            if r3_left and R.r3_penalty:
                # hand-and-foot 7.2: a red three still in a hand or an unplayed foot
                items.append(("red threes in hand", r3_left, -r3_left * R.r3_penalty))
            black = c.aside[side]
            if black:
                table = R.b3_aside_bonus
                items.append(("black threes set aside", black, table[black] if black < len(table) else table[-1]))
            if out_here:
                items.append(("going out", 1, R.out_bonus))
                if concealed and R.conc_bonus:
                    items.append(("concealed", 1, R.conc_bonus))
        out.append(tuple(items))
    return tuple(out)


def side_total(rows: tuple[tuple[str, int, int], ...]) -> int:
    """The net points of a side's rows."""
    total = 0
    for row in rows:
        total += row[2]
    return total
