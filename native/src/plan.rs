//! Turn planning (`canasta/_core/_plan.py`): can the initial minimum still be met (`reach`), can
//! this player still go out (`can_go_out`)? Ported line by line. The planners' entry points,
//! built on `canastas.rs`, `greedy.rs`, `sequences.rs` and `meldable.rs`; `opening.rs` and the
//! checks (`finish.rs`, `draw.rs`, `meld.rs`) use them.

use crate::canastas::{canastas_ok, open_ranks, side_canastas, RANKS};
use crate::cards::*;
use crate::greedy::greedy;
use crate::kernel::Hand;
use crate::meldable::any_meldable;
use crate::rules::{Meld, Melds, Rules};
use crate::sequences::{seq_orphans, sequence_plays};

/// Can more melds from `h` add `need` points while `keep` cards stay in hand?
pub fn reach(r: &Rules, h: &Hand, melds: &[Meld], need: i32, keep: i32) -> bool {
    if r.no_wild || r.deuce {
        // `_reach_view`: italian 4.5, the wild cards stay in hand in the initial meld's turn;
        // 4.4, the deuces go onto the open meld of deuces first
        if r.no_wild {
            let w = h.at(JK) + h.at(TWO);
            if w != 0 {
                let mut hl = *h;
                hl[JK as usize] = 0;
                hl[TWO as usize] = 0;
                return reach_plain(r, &hl, melds, need, 0.max(keep - w));
            }
            return reach_plain(r, h, melds, need, keep);
        }
        let (h2, m2, gain, _d, _s) = deuce_view(r, h, melds, false);
        return reach_plain(r, &h2, &m2, need - gain, keep);
    }
    reach_plain(r, h, melds, need, keep)
}

/// The hand and melds after putting the deuces held onto the side's open meld of deuces
/// (`_plan.deuce_view`): (hand, melds, points, whether a discard is still allowed, whether the
/// deuces could not all be placed).
pub fn deuce_view(r: &Rules, h: &Hand, melds: &[Meld], mut allow_discard: bool) -> (Hand, Melds, i32, bool, bool) {
    let tw = h.at(TWO);
    if tw == 0 {
        return (*h, melds.to_vec(), 0, allow_discard, false);
    }
    for i in 0..melds.len() {
        let m = melds[i];
        if m.rank == WILD {
            let room = r.cs - m.size();
            if room <= 0 {
                break;
            }
            let put = tw.min(room);
            let mut stuck = false;
            if r.deuce_excl && tw > room {
                if tw == room + 1 && allow_discard {
                    allow_discard = false;
                } else {
                    stuck = true;
                }
            }
            let mut hl = *h;
            hl[TWO as usize] -= put as u8;
            if r.deuce_excl && tw > room && !stuck {
                hl[TWO as usize] -= 1; // the last discard
            }
            let mut m2 = melds.to_vec();
            m2[i] = Meld::new(WILD, m.nat, m.jk, m.tw + put, m.r3);
            return (hl, m2, put * r.values[TWO as usize], allow_discard, stuck);
        }
    }
    (*h, melds.to_vec(), 0, allow_discard, false)
}

/// `can_go_out` with the planner's cap of `plan_cap` (bit 2: the turn of a side's initial meld
/// under `initial_meld.no_wild`, italian 4.5: no wild card is melded, so one may only be the last
/// discard).
#[allow(clippy::too_many_arguments)]
pub fn can_go_out_t(r: &Rules, h: &Hand, melds: &[Meld], need: i32, allow_discard: bool, own_canasta: bool, mask: i64,
                    cap: i32, most: i32) -> bool {
    if cap > 1 {
        let w = h.at(JK) + h.at(TWO);
        if w != 0 {
            if w > 1 || !allow_discard {
                return false;
            }
            let mut hl = *h;
            hl[JK as usize] = 0;
            hl[TWO as usize] = 0;
            return can_go_out(r, &hl, melds, need, false, own_canasta, mask, cap & 1 != 0, most);
        }
    }
    can_go_out(r, h, melds, need, allow_discard, own_canasta, mask, cap & 1 != 0, most)
}

fn reach_plain(r: &Rules, h: &Hand, melds: &[Meld], need: i32, keep: i32) -> bool {
    if h.suited() {
        if need <= 0 || reach(r, &h.first15(), melds, need, keep) {
            return if need <= 0 { h.sum15() >= keep } else { true };
        }
        let plays = sequence_plays(r, h, melds, false, false);
        return plays[1..].iter().any(|(h2, m2, pts, _)| reach(r, h2, m2, need - pts, keep));
    }
    if need <= 0 {
        return h.sum() >= keep;
    }
    let (pts, left) = greedy(r, h, melds, true);
    if pts < need {
        return false;
    }
    if left >= keep {
        return true;
    }
    let kinds: Vec<u8> = (0..h.len).filter(|&k| h[k as usize] != 0).collect();
    let mut hl = *h;
    for withheld in (keep - left)..=keep {
        if withhold(r, &mut hl, &kinds, 0, withheld, melds, need, keep, withheld) {
            return true;
        }
    }
    false
}

#[allow(clippy::too_many_arguments)]
fn withhold(r: &Rules, hl: &mut Hand, kinds: &[u8], start: usize, todo: i32, melds: &[Meld], need: i32, keep: i32,
            withheld: i32) -> bool {
    if todo == 0 {
        let (p2, l2) = greedy(r, hl, melds, true);
        return p2 >= need && l2 + withheld >= keep;
    }
    for i in start..kinds.len() {
        let k = kinds[i] as usize;
        if hl[k] != 0 {
            hl[k] -= 1;
            let ok = withhold(r, hl, kinds, i, todo - 1, melds, need, keep, withheld);
            hl[k] += 1;
            if ok {
                return true;
            }
        }
    }
    false
}

/// Can every card of `h` be melded (one may be discarded last) so the side goes out? `most`:
/// the most canastas the side may have when it goes out (`finish::out_most`; below 0, none).
#[allow(clippy::too_many_arguments)]
pub fn can_go_out(r: &Rules, h: &Hand, melds: &[Meld], need: i32, allow_discard: bool, own_canasta: bool, mask: i64,
                  cap: bool, most: i32) -> bool {
    if r.deuce && h.at(TWO) != 0 {
        let (h2, m2, gain, allow2, stuck) = deuce_view(r, h, melds, allow_discard);
        if h2 != *h {
            if stuck || cap {
                return false;
            }
            let formed = m2.iter().any(|m| m.rank == WILD && r.is_canasta(m))
                && !melds.iter().any(|m| m.rank == WILD && r.is_canasta(m));
            return can_go_out(r, &h2, &m2, need - gain, allow2, own_canasta && !formed, -1, cap, most);
        }
        if stuck {
            return false;
        }
    }
    if h.suited() {
        if seq_orphans(r, h, melds) > if allow_discard { 1 } else { 0 } {
            return false;
        }
        let plays = sequence_plays(r, h, melds, cap, true);
        for (h2, m2, pts, canasta) in plays.iter() {
            if can_go_out(r, h2, m2, need - pts, allow_discard, own_canasta && !canasta, -1, cap, most) {
                return true;
            }
        }
        return false;
    }
    if !r.plan_out {
        return false;
    }
    if h.at(R3) != 0 && !r.keep_r3 {
        return false;
    }
    // new-canasta: the canasta of black threes "must be the last 7 cards in the player's hand":
    // melded last, nothing may be discarded after it
    let allow_discard = allow_discard && !(r.b3_final && h.at(B3) >= 2);
    let mask = if mask < 0 { open_ranks(r, melds) } else { mask };
    let limit = if allow_discard { 1 } else { 0 };
    let mut first: i32 = -1;
    let mut orphans = 0;
    let mut short = 0;
    let min_size = r.min_size;
    for rk in RANKS {
        let n = h.at(rk);
        if n != 0 && (mask >> rk) & 1 == 0 {
            if n == 1 {
                orphans += 1;
                if orphans > limit {
                    return false;
                }
                if first < 0 {
                    first = rk as i32;
                }
            } else if n < min_size {
                short += min_size - n;
            }
        }
    }
    if short > h.at(JK) + h.at(TWO) {
        return false;
    }
    let b3 = h.at(B3);
    if b3 != 0 && (r.b3_never || (b3 < r.b3_min && (mask >> B3) & 1 == 0)) {
        orphans += b3;
        if orphans > limit {
            return false;
        }
        if first < 0 {
            first = B3 as i32;
        }
    }
    if (own_canasta || side_canastas(r, melds) < r.canastas_needed || (r.kinds_needed.is_some() && !canastas_ok(r, melds)))
        && !canasta_reachable(r, h, melds)
    {
        return false;
    }
    let choices: Vec<i32> = if first >= 0 {
        if (r.final_ban >> first) & 1 == 1 {
            return false; // pennies-from-heaven 3.5: a seven may not be the discard that goes out
        }
        vec![first]
    } else if allow_discard {
        let mut v = vec![-1];
        for k in 0..h.len as usize {
            let n = h[k];
            if n != 0 && !(k >= 4 && n == 2 && (mask >> k) & 1 == 0) && (r.final_ban >> k) & 1 == 0 {
                v.push(k as i32);
            }
        }
        v
    } else {
        vec![-1]
    };
    any_meldable(r, h, melds, need, own_canasta, &choices, cap, most)
}

/// Whether melding cards of `h` could complete a new canasta (a bound).
pub fn canasta_reachable(r: &Rules, h: &Hand, melds: &[Meld]) -> bool {
    let cs = r.cs;
    let wilds = h.at(JK) + h.at(TWO);
    let mut best = (4..15).map(|k| h.at(k)).max().unwrap_or(0);
    let mut b3_melded = 0;
    for m in melds {
        let size = m.size();
        if m.rank == B3 {
            b3_melded = m.nat;
        } else if m.rank != WILD && m.rank < SEQ && !(size >= cs && m.nat >= r.cmin_nat) {
            let v = size + h.at(m.rank);
            if v > best {
                best = v;
            }
        }
    }
    if best + wilds >= cs {
        return true;
    }
    !r.b3_never && h.at(B3) > 0 && h.at(B3) + b3_melded >= cs && cs > b3_melded
}
