"""Scoring a hand: each side's itemised rows, in the order its variant's source lists them."""

from __future__ import annotations

from ._kernel import Core, Scores
from ._reasons import PLURALS
from ._rules import B3, JK, R3, SEQ, TWO, WILD, seq_low


def _signed(signs: tuple[int, ...], canastas: int) -> int:
    """The sign (-1, 0, 1) a bonus card counts with, by the side's canastas (1: no table)."""
    if not signs:
        return 1
    return signs[canastas] if canastas < len(signs) else signs[-1]


def score_hand(c: Core, went_out: int, concealed: bool, three_last: int = -1) -> Scores:
    """Each side's rows (name, count, points); ``went_out`` is the seat earning the going-out
    bonus, or -1; ``three_last`` is ``side * 16 + kind`` of a three drawn as the stock's last
    card, laid out but scored apart (modern-american 7.5), or -1."""
    last_side, last_kind = (three_last >> 4, three_last & 15) if three_last >= 0 else (-1, -1)
    R = c.d.R
    vals = R.values
    out = []
    for side in range(R.n_sides):
        items: list[tuple[str, int, int]] = []
        melds = c.melds[side]
        nat = mixed = wild = b3c = r3c = 0
        wild_by: dict[int, int] = {}
        nat_by: dict[int, int] = {}
        rank_by: dict[int, int] = {}
        unfinished = 0
        unfinished_n = 0
        melded_pts = 0
        seqc = 0
        short = 0
        for m in melds:
            rank = m[0]
            if rank >= SEQ:
                # a sequence: its cards' values, and a canasta of its own kind (samba 5.1)
                low = seq_low(rank)
                for r in range(low, low + m[1]):
                    melded_pts += vals[r]
                if R.is_canasta(m):
                    seqc += 1
                if m[1] < R.short_seq_below:
                    short += 1  # brazilian 7.3: a sequence under five cards
                continue
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
                    elif rank in R.rank_bonus_by:
                        rank_by[rank] = rank_by.get(rank, 0) + 1
                    elif rank in R.nat_bonus_by:
                        nat_by[rank] = nat_by.get(rank, 0) + 1
                    else:
                        nat += 1
                elif rank in R.rank_bonus_by:
                    # mexicana 5.2 (RG): a canasta of sevens, natural or mixed, scores 1,000
                    rank_by[rank] = rank_by.get(rank, 0) + 1
                else:
                    mixed += 1
            elif R.unfinished_pen and rank in R.unfinished_pen and (rank == WILD or m[2] + m[3] == 0):
                # modern-american 7.6: an unfinished meld of sevens, natural aces or wild cards
                unfinished += R.unfinished_pen[rank]
                unfinished_n += 1
        out_here = went_out >= 0 and R.side_of[went_out] == side
        left = 0
        r3_left = 0
        b3_left = 0
        held = 0
        held_n = 0
        for s in R.members[side]:
            for hand in (c.hands[s], c.downs[s]):
                for k in range(15):
                    left += hand[k] * vals[k]
                if R.b3_penalty:
                    left -= hand[B3] * vals[B3]  # the penalty counts instead (bolivia 7.3)
                r3_left += hand[R3]
                b3_left += hand[B3]
            for rank, count, points in R.held_pen:
                # modern-american 7.7: three or more aces (or sevens) held, once per rank
                if c.hands[s][rank] + c.downs[s][rank] >= count:
                    held += points
                    held_n += 1
        if R.keep_r3:
            # new-canasta order: top count (canastas), to the bad (hand), to the good (melds)
            if r3c:
                items.append(("red three canastas", r3c, r3c * R.r3_canasta))
            for rank, n in rank_by.items():
                items.append((f"canastas of {PLURALS[rank]}", n, n * R.rank_bonus_by[rank]))
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
            canastas_all = (nat + mixed + wild + b3c + r3c + seqc + sum(wild_by.values())
                            + sum(nat_by.values()) + sum(rank_by.values()))
            if R.no_canasta_minus and not canastas_all:
                # modern-american 7.8: a side without a canasta counts its melded cards minus
                items.append(("melded cards (no canasta)", -1, -melded_pts))
            else:
                items.append(("melded cards", -1, melded_pts))
            items.append(("cards left in hand", -1, -left))
            for rank, n in nat_by.items():
                items.append((f"natural canastas of {PLURALS[rank]}", n, n * R.nat_bonus_by[rank]))
            for rank, n in rank_by.items():
                items.append((f"canastas of {PLURALS[rank]}", n, n * R.rank_bonus_by[rank]))
            if nat:
                items.append(("natural canastas", nat, nat * R.nat_bonus))
            if mixed:
                items.append(("mixed canastas", mixed, mixed * R.mixed_bonus))
            if seqc:
                items.append(("sequence canastas", seqc, seqc * R.seq_bonus))
            if R.wild_out_only and not out_here:
                # Italian 5.3 (PB): wild canasta bonuses only for the side that goes out
                n_wild = wild + sum(wild_by.values())
                if n_wild:
                    items.append(("wild canastas (not out)", n_wild, 0))
            else:
                if wild:
                    items.append(("wild canastas", wild, wild * R.wild_bonus))
                for bonus, n in wild_by.items():
                    # cuban 5.1: wild canastas scored by their cards
                    items.append((f"wild canastas of {bonus}", n, n * bonus))
            if b3c:
                items.append(("black three canastas", b3c, b3c * R.b3_bonus))
            if R.canasta_sets:
                # Italian 5.4 (RG, HSW): every line of sets of canastas the side meets (A8)
                naturals = nat + sum(nat_by.values())
                wilds = wild + sum(wild_by.values())
                for (need_nat, need_mixed, need_wild, need_any, bonus), name in zip(R.canasta_sets,
                                                                                   R.canasta_set_names):
                    if naturals >= need_nat and mixed >= need_mixed and wilds >= need_wild and canastas_all >= need_any:
                        items.append((name, 1, bonus))
            n_red = c.red[side] - (last_side == side and last_kind == R3)
            if n_red:
                table = R.r3_bonus
                bonus = table[n_red] if n_red < len(table) else table[-1]
                signs = R.r3_sign
                rank = R.r3_minus_rank
                if rank >= 0 and not any(m[0] == rank and R.is_canasta(m) for m in melds):
                    # pennies-from-heaven 8.2: minus for a side without a canasta of sevens
                    minus = R.r3_minus_table or table
                    items.append((f"red threes (no canasta of {PLURALS[rank]})", n_red,
                                  -(minus[n_red] if n_red < len(minus) else minus[-1])))
                elif signs:
                    # cuban 7.4: plus with a canasta, minus without
                    sign = _signed(signs, canastas_all)
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
            black = c.aside[side] - (last_side == side and last_kind == B3)
            if black:
                table = R.b3_aside_bonus
                points = (table[black] if black < len(table) else table[-1]) * _signed(R.b3_sign, canastas_all)
                items.append(("black threes faced" if R.b3_faced else "black threes set aside", black, points))
            if b3_left and R.b3_penalty:
                items.append(("black threes in hand", b3_left, -b3_left * R.b3_penalty))
            if last_side == side:
                items.append(("three drawn last", 1, -R.last_three_minus))
            if unfinished:
                items.append(("unfinished melds", unfinished_n, -unfinished))
            if short:
                items.append(("short sequences", short, -short * R.short_seq_points))
            if held:
                items.append(("cards of a rank held", held_n, -held))
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
