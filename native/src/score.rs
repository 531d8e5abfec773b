//! Scoring a hand (`canasta/_core/_score.py`): each side's itemised rows, in the order its
//! variant's source lists them.

use crate::cards::*;
use crate::kernel::Core;
use crate::rules::Rules;

pub type Rows = Vec<(String, i32, i64)>;

fn signed(signs: &[i32], canastas: i32) -> i64 {
    if signs.is_empty() {
        return 1;
    }
    (if (canastas as usize) < signs.len() { signs[canastas as usize] } else { signs[signs.len() - 1] }) as i64
}

fn at(table: &[i32], n: i32) -> i64 {
    (if (n as usize) < table.len() { table[n as usize] } else { table[table.len() - 1] }) as i64
}

/// `n` times `points`, in 64 bits (no product of a count and a variant's points can wrap).
#[inline]
fn times(n: i32, points: i32) -> i64 {
    n as i64 * points as i64
}

fn row(items: &mut Rows, name: &str, count: i32, points: i64) {
    items.push((name.to_string(), count, points));
}

/// One more canasta of `rank` in a side's count per rank, kept in the order first met.
fn bump(by: &mut Vec<(u8, i32)>, rank: u8) {
    match by.iter_mut().find(|(k, _)| *k == rank) {
        Some((_, n)) => *n += 1,
        None => by.push((rank, 1)),
    }
}

/// The rows of a side's rank canastas (`scoring.rank_canastas`), by rank.
fn rank_rows(items: &mut Rows, r: &Rules, rank_by: &[(u8, i32)]) {
    for &(rank, n) in rank_by {
        let pts = r.rank_bonus_by.iter().find(|(k, _)| *k == rank).map_or(0, |x| x.1);
        row(items, &format!("canastas of {}", plural(rank)), n, times(n, pts));
    }
}

/// Each side's rows; `went_out` is the seat earning the going-out bonus, or -1; `three_last`
/// is `side * 16 + kind` of a three drawn as the stock's last card, or -1.
pub fn score_hand(c: &Core, went_out: i32, concealed: bool, three_last: i32) -> Vec<Rows> {
    let (last_side, last_kind) = if three_last >= 0 { (three_last >> 4, three_last & 15) } else { (-1, -1) };
    let r: &Rules = c.r();
    let vals = &r.values;
    let mut out = vec![];
    for side in 0..r.n_sides {
        let mut items: Rows = vec![];
        let melds = c.melds(side);
        let (mut nat, mut mixed, mut wild, mut b3c, mut r3c) = (0, 0, 0, 0, 0);
        let mut wild_by: Vec<(i32, i32)> = vec![];
        let mut nat_by: Vec<(u8, i32)> = vec![];
        let mut rank_by: Vec<(u8, i32)> = vec![];
        let (mut unfinished, mut unfinished_n) = (0i64, 0);
        let mut melded_pts: i64 = 0;
        let (mut seqc, mut short) = (0, 0);
        for m in melds {
            let rank = m.rank;
            if rank >= SEQ {
                let low = seq_low(rank) as i32;
                for rk in low..low + m.nat {
                    melded_pts += vals[rk as usize] as i64;
                }
                if r.is_canasta(m) {
                    seqc += 1;
                }
                if m.nat < r.short_seq_below {
                    short += 1;
                }
                continue;
            }
            if rank == B3 {
                melded_pts += times(m.nat, vals[B3 as usize]);
            } else if rank != WILD {
                melded_pts += times(m.nat, vals[rank as usize]);
            }
            melded_pts += times(m.jk, vals[JK as usize]) + times(m.tw, vals[TWO as usize]);
            if r.is_canasta(m) {
                if rank == B3 {
                    b3c += 1;
                } else if rank == WILD {
                    match r.wild_bonus_by.iter().find(|(k, _)| *k == (m.jk, m.tw)) {
                        None => wild += 1,
                        Some(&(_, special)) => match wild_by.iter_mut().find(|(b, _)| *b == special) {
                            Some((_, n)) => *n += 1,
                            None => wild_by.push((special, 1)),
                        },
                    }
                } else if m.jk + m.tw == 0 {
                    if m.r3 != 0 && r.r3_canasta != 0 {
                        r3c += 1;
                    } else if r.rank_bonus_by.iter().any(|(k, _)| *k == rank) {
                        bump(&mut rank_by, rank);
                    } else if r.nat_bonus_by.iter().any(|(k, _)| *k == rank) {
                        match nat_by.iter_mut().find(|(k, _)| *k == rank) {
                            Some((_, n)) => *n += 1,
                            None => nat_by.push((rank, 1)),
                        }
                    } else {
                        nat += 1;
                    }
                } else if r.rank_bonus_by.iter().any(|(k, _)| *k == rank) {
                    // mexicana 5.2 (RG): a canasta of sevens, natural or mixed, scores 1,000
                    bump(&mut rank_by, rank);
                } else {
                    mixed += 1;
                }
            } else if !r.unfinished_pen.is_empty() {
                if let Some(&(_, pen)) = r.unfinished_pen.iter().find(|(k, _)| *k == rank) {
                    if rank == WILD || m.jk + m.tw == 0 {
                        unfinished += pen as i64;
                        unfinished_n += 1;
                    }
                }
            }
        }
        let out_here = went_out >= 0 && r.side_of[went_out as usize] as usize == side;
        let (mut left, mut r3_left, mut b3_left, mut held, mut held_n) = (0i64, 0, 0, 0i64, 0);
        for &s in &r.members[side] {
            for hand in [c.hand(s as usize), c.down(s as usize)] {
                for k in 0..15 {
                    left += times(hand[k] as i32, vals[k]);
                }
                if r.b3_penalty != 0 {
                    left -= times(hand.at(B3), vals[B3 as usize]);
                }
                r3_left += hand.at(R3);
                b3_left += hand.at(B3);
            }
            for &(rank, count, points) in &r.held_pen {
                if c.hand(s as usize).at(rank) + c.down(s as usize).at(rank) >= count {
                    held += points as i64;
                    held_n += 1;
                }
            }
        }
        if r.keep_r3 {
            if r3c != 0 {
                row(&mut items, "red three canastas", r3c, times(r3c, r.r3_canasta));
            }
            rank_rows(&mut items, r, &rank_by);
            if nat != 0 {
                row(&mut items, "natural canastas", nat, times(nat, r.nat_bonus));
            }
            if mixed != 0 {
                row(&mut items, "mixed canastas", mixed, times(mixed, r.mixed_bonus));
            }
            if wild != 0 {
                row(&mut items, "wild canastas", wild, times(wild, r.wild_bonus));
            }
            if b3c != 0 {
                row(&mut items, "black three canastas", b3c, times(b3c, r.b3_bonus));
            }
            if out_here {
                row(&mut items, "going out", 1, r.out_bonus as i64);
            }
            let precise = c.d.precise.iter().filter(|&&s| r.side_of[s as usize] as usize == side).count() as i32;
            if precise != 0 {
                row(&mut items, "precise dealer draw", precise, times(precise, r.precise_bonus));
            }
            row(&mut items, "cards left in hand", -1, -left);
            if r3_left != 0 {
                row(&mut items, "red threes in hand", r3_left, -times(r3_left, r.r3_penalty));
            }
            row(&mut items, "melded cards", -1, melded_pts);
        } else {
            let canastas_all = nat + mixed + wild + b3c + r3c + seqc + wild_by.iter().map(|x| x.1).sum::<i32>()
                + nat_by.iter().map(|x| x.1).sum::<i32>() + rank_by.iter().map(|x| x.1).sum::<i32>();
            if r.no_canasta_minus && canastas_all == 0 {
                row(&mut items, "melded cards (no canasta)", -1, -melded_pts);
            } else {
                row(&mut items, "melded cards", -1, melded_pts);
            }
            row(&mut items, "cards left in hand", -1, -left);
            for &(rank, n) in &nat_by {
                let pts = r.nat_bonus_by.iter().find(|(k, _)| *k == rank).unwrap().1;
                row(&mut items, &format!("natural canastas of {}", plural(rank)), n, times(n, pts));
            }
            rank_rows(&mut items, r, &rank_by);
            if nat != 0 {
                row(&mut items, "natural canastas", nat, times(nat, r.nat_bonus));
            }
            if mixed != 0 {
                row(&mut items, "mixed canastas", mixed, times(mixed, r.mixed_bonus));
            }
            if seqc != 0 {
                row(&mut items, "sequence canastas", seqc, times(seqc, r.seq_bonus));
            }
            if r.wild_out_only && !out_here {
                // Italian 5.3 (PB): wild canasta bonuses only for the side that goes out
                let n_wild = wild + wild_by.iter().map(|x| x.1).sum::<i32>();
                if n_wild != 0 {
                    row(&mut items, "wild canastas (not out)", n_wild, 0);
                }
            } else {
                if wild != 0 {
                    row(&mut items, "wild canastas", wild, times(wild, r.wild_bonus));
                }
                for &(bonus, n) in &wild_by {
                    row(&mut items, &format!("wild canastas of {bonus}"), n, times(n, bonus));
                }
            }
            if b3c != 0 {
                row(&mut items, "black three canastas", b3c, times(b3c, r.b3_bonus));
            }
            if !r.canasta_sets.is_empty() {
                // Italian 5.4 (RG, HSW): every line of sets of canastas the side meets (A8)
                let naturals = nat + nat_by.iter().map(|x| x.1).sum::<i32>();
                let wilds = wild + wild_by.iter().map(|x| x.1).sum::<i32>();
                for (line, name) in r.canasta_sets.iter().zip(&r.canasta_set_names) {
                    if naturals >= line[0] && mixed >= line[1] && wilds >= line[2] && canastas_all >= line[3] {
                        row(&mut items, name, 1, line[4] as i64);
                    }
                }
            }
            let n_red = c.red[side] - (last_side == side as i32 && last_kind == R3 as i32) as i32;
            if n_red != 0 {
                let table = &r.r3_bonus;
                let bonus = at(table, n_red);
                let signs = &r.r3_sign;
                let rank = r.r3_minus_rank;
                if rank >= 0 && !melds.iter().any(|m| m.rank as i32 == rank && r.is_canasta(m)) {
                    // pennies-from-heaven 8.2: minus for a side without a canasta of sevens
                    let minus = if r.r3_minus_table.is_empty() { table } else { &r.r3_minus_table };
                    row(&mut items, &format!("red threes (no canasta of {})", plural(rank as u8)), n_red, -at(minus, n_red));
                } else if !signs.is_empty() {
                    let sign = signed(signs, canastas_all);
                    if sign < 0 {
                        let minus = if r.r3_minus_table.is_empty() { table } else { &r.r3_minus_table };
                        row(&mut items, "red threes (too few canastas)", n_red, -at(minus, n_red));
                    } else if sign == 0 {
                        row(&mut items, "red threes (count nothing)", n_red, 0);
                    } else {
                        row(&mut items, "red threes", n_red, bonus);
                    }
                } else if melds.is_empty() && r.r3_minus {
                    let minus = if r.r3_minus_table.is_empty() { table } else { &r.r3_minus_table };
                    row(&mut items, "red threes (no meld)", n_red, -at(minus, n_red));
                } else {
                    row(&mut items, "red threes", n_red, bonus);
                }
            }
            if r3_left != 0 && r.r3_penalty != 0 {
                row(&mut items, "red threes in hand", r3_left, -times(r3_left, r.r3_penalty));
            }
            let black = c.aside[side] - (last_side == side as i32 && last_kind == B3 as i32) as i32;
            if black != 0 {
                let points = at(&r.b3_aside_bonus, black) * signed(&r.b3_sign, canastas_all);
                row(&mut items, if r.b3_faced { "black threes faced" } else { "black threes set aside" }, black, points);
            }
            if b3_left != 0 && r.b3_penalty != 0 {
                row(&mut items, "black threes in hand", b3_left, -times(b3_left, r.b3_penalty));
            }
            if last_side == side as i32 {
                row(&mut items, "three drawn last", 1, -(r.last_three_minus as i64));
            }
            if unfinished != 0 {
                row(&mut items, "unfinished melds", unfinished_n, -unfinished);
            }
            if short != 0 {
                row(&mut items, "short sequences", short, -times(short, r.short_seq_points));
            }
            if held != 0 {
                row(&mut items, "cards of a rank held", held_n, -held);
            }
            if out_here {
                row(&mut items, "going out", 1, r.out_bonus as i64);
                if concealed && r.conc_bonus != 0 {
                    row(&mut items, "concealed", 1, r.conc_bonus as i64);
                }
            }
        }
        out.push(items);
    }
    out
}

pub fn side_total(rows: &Rows) -> i64 {
    rows.iter().fold(0i64, |t, r| t.checked_add(r.2).expect("a hand's score beyond 64-bit integers"))
}

/// A side's game total after the hand scored `rows`. The tables deal natively only totals
/// below 2**62 (`_backend.NATIVE_TOTAL`), so this never overflows; if it did, it fails loudly
/// rather than wrap.
pub fn add_total(total: i64, rows: &Rows) -> i64 {
    total.checked_add(side_total(rows)).expect("a game total beyond 64-bit integers")
}
