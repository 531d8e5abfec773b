//! After the draw: discarding, asking "may I go out?", `done` and `retract`, and the black
//! threes' last meld (`canasta/_core/_discard.py`). Built on `meld` (the hand's and the initial
//! meld's helpers), `finish` and `plan`; built upon by `meldphase` and `legal`.

use crate::cards::*;
use crate::finish::*;
use crate::kernel::*;
use crate::meld::{held_problem, need_left};
use crate::plan::{can_go_out_t, reach};
use crate::reasons::*;
use crate::rules::*;
use crate::{text, why};

pub fn discard_problem(c: &Core, seat: usize) -> Option<Reason> {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let h = &c.hand(seat);
    let flags = c.flags;
    let opening = !c.opened[side];
    let need_rem = need_left(c, side);
    if h.sum15() == 1 && !c.down(seat).any() {
        if flags & F_NO != 0 || (r.permission_required && flags & F_YES == 0) {
            return Some(why![DISCARD_OUT, int(seat as i64), int(GO_OUT_NO)]);
        }
        if let Some(gate) = out_problem(c, seat, c.melds(side)) {
            // (DISCARD_OUT, seat) + gate[:1] + gate[2:]: the gate's code, then its details after its seat
            let mut w = why![DISCARD_OUT, int(seat as i64), int(gate.code)];
            if explaining() {
                w.items.extend(gate.items[1..].iter().cloned());
            }
            return Some(w);
        }
        if opening && c.count > 0 && need_rem > 0 {
            if !waiver(c, seat) {
                return Some(just(DISCARD_INITIAL_OUT));
            }
            if r.conc_own && flags & F_OWN == 0 {
                return Some(just(DISCARD_CONCEALED_OWN));
            }
        }
        return comp_problem(c, side);
    }
    if flags & F_MUST != 0 || (r.past_any && past_max(r, c.melds(side))) {
        return Some(just(DISCARD_MUST));
    }
    if opening && c.count > 0 && need_rem > 0 {
        return Some(why![DISCARD_INITIAL, int(need_rem)]);
    }
    comp_problem(c, side)
}

/// The card kinds `seat` may not discard now (a mask; 0: none).
pub fn barred_discards(c: &Core, seat: usize, h: &Hand) -> u64 {
    let r = c.r();
    let mut barred = if (c.turned >> seat) & 1 == 0 { r.no_discard_first } else { 0 };
    if r.no_discard_on_empty && c.pile.is_none() {
        barred |= r.no_discard_empty;
        if r.no_discard_dead {
            let dead = dead_mask(c);
            for rk in 4..15 {
                if (dead >> rk) & 1 == 1 {
                    barred |= 1 << rk;
                }
            }
        }
    }
    if r.ban_until {
        barred |= banned_until(c, seat);
    }
    if barred != 0 && (0..h.len).all(|k| h.at(k) == 0 || (barred >> kind(k)) & 1 == 1) {
        barred = 0;
    }
    if r.final_ban != 0 && h.sum15() == 1 && !c.down(seat).any() {
        // pennies-from-heaven 3.5: no seven as the discard that goes out (no exception)
        barred |= r.final_ban;
    }
    barred
}

/// pennies-from-heaven 3.4 (`_discard.banned_until`): the ranks of `pile.no_discard_until_canasta`
/// whose canastas are not yet on the table (of every side, or of the player's own side).
pub fn banned_until(c: &Core, seat: usize) -> u64 {
    let r = c.r();
    let has = |melds: &[Meld], rank: u8| melds.iter().any(|m| m.rank == rank && r.is_canasta(m));
    let mut out = 0u64;
    let own = c.melds(r.side_of[seat] as usize);
    for rank in 4..15u8 {
        if (r.ban_own >> rank) & 1 == 1 && !has(own, rank) {
            out |= 1 << rank;
        }
        if (r.ban_each >> rank) & 1 == 1 && (0..r.n_sides).any(|s| !has(c.melds(s), rank)) {
            out |= 1 << rank;
        }
    }
    out
}

pub fn discard_card_problem(c: &Core, seat: usize, card: u8) -> Option<Reason> {
    if (barred_discards(c, seat, &c.hand(seat)) >> kind(card)) & 1 == 1 {
        let r = c.r();
        if (r.no_discard_first >> card) & 1 == 1 && (c.turned >> seat) & 1 == 0 {
            return Some(text!("you may not discard {} in your first turn of the hand while you hold another card",
                                     a_card(card)));
        }
        let k = kind(card);
        if (r.final_ban >> k) & 1 == 1 && c.hand(seat).sum15() == 1 && !c.down(seat).any() {
            return Some(text!("{} may not be the discard with which you go out", a_card(card)));
        }
        if r.ban_until && (banned_until(c, seat) >> k) & 1 == 1 {
            let whose = if (r.ban_each >> k) & 1 == 1 { "each side has" } else { "your side has" };
            return Some(text!(
                "you may not discard {} until {} completed a canasta of {}, while you hold a card of another rank",
                a_card(card),
                whose,
                plural(k)
            ));
        }
        return Some(text!("you may not discard {} onto an empty pile while you hold a card that may go there",
                                 a_card(card)));
    }
    None
}

pub fn ask_after_problem(c: &Core) -> Option<Reason> {
    let r = c.r();
    let flags = c.flags;
    if !r.permission {
        return Some(just(ASK_NO_PARTNER));
    }
    if flags & (F_ASKED | F_YES | F_NO) != 0 {
        return Some(just(ASK_AGAIN));
    }
    if flags & F_TOOK != 0 && !r.ask_after_take {
        return Some(just(ASK_AFTER_TAKE));
    }
    if flags & F_MELDED != 0 {
        return Some(just(ASK_AFTER_MELD));
    }
    if flags & (F_DREW | F_TOOK) == 0 {
        return Some(just(ASK_NOTHING));
    }
    let seat = c.player as usize;
    if c.down(seat).any() || !partner_ready(c, seat) {
        return Some(just(ASK_NOTHING)); // he cannot go out this turn: a yes would bind him to
    }
    let side = r.side_of[seat] as usize;
    let need = if waiver(c, seat) { 0 } else { need_left(c, side) };
    let cap = plan_cap(c);
    let most = out_most(c, side);
    if any_comp_plan(c, side, &c.hand(seat), c.melds(side), |h3, m3, g| can_go_out_t(r, h3, m3, need - g, true, false, -1, cap, most)) {
        return None;
    }
    Some(just(ASK_NOTHING))
}

pub fn retract_problem(c: &Core) -> Option<Reason> {
    let r = c.r();
    let seat = c.player as usize;
    let side = r.side_of[seat] as usize;
    if r.undo_take && !can_reach(c, seat, side) {
        return None;
    }
    Some(just(RETRACT_REACH))
}

pub fn can_reach(c: &Core, seat: usize, side: usize) -> bool {
    let r = c.r();
    let keep = 0.max(keep_for(c, seat) - arriving(r, &c.pending));
    let need = need_left(c, side);
    any_comp_plan(c, side, &c.hand(seat), c.melds(side), |h3, m3, g| reach(r, h3, m3, need - g, keep))
}

pub fn done_problem(c: &Core) -> Option<Reason> {
    let r = c.r();
    if c.phase == PH_FINAL_MELD {
        return comp_problem(c, r.side_of[c.player as usize] as usize);
    }
    if stock_left(c) == 0 && r.last_round {
        let seat = c.player as usize;
        if (c.flags & F_B3 != 0 && r.b3_last)
            || (c.hand(seat).any() && discard_problem(c, seat).is_none() && (!r.discard_bars || some_discard(c, seat)))
        {
            return Some(just(DONE_DISCARD));
        }
        return comp_problem(c, r.side_of[seat] as usize);
    }
    Some(just(DONE_NOT_FINAL))
}

/// `_discard._some_discard`: whether some card held may be discarded, the discard bars considered.
fn some_discard(c: &Core, seat: usize) -> bool {
    let h = c.hand(seat);
    let barred = barred_discards(c, seat, &h);
    (0..h.len).any(|k| h.at(k) != 0 && (barred >> kind(k)) & 1 == 0)
}

pub fn b3_last_problem(c: &Core, probe: &Spec) -> Option<Reason> {
    if probe.kind == DISCARD {
        let seat = c.player as usize;
        let h = &c.hand(seat);
        if let Some(w) = held_problem(h, &[probe.a as u8]) {
            return Some(w);
        }
        if h.sum15() == 1 && c.phase != PH_FINAL_MELD {
            return None;
        }
    }
    Some(just(B3_LAST_ONLY))
}
