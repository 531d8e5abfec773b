//! The most points meldable from a hand (`canasta/_core/_greedy.py`): the bound the planners
//! use for the initial meld's minimum. Built on `canastas.rs`; used by `plan.rs`, `opening.rs`
//! and the checks.

use crate::canastas::{add_wild_cap, meld_room, RANKS};
use crate::cards::*;
use crate::kernel::Hand;
use crate::rules::{Meld, Rules};

/// Most points meldable from `h` (ignoring how many cards must stay in hand): (points, cards
/// left unmelded).
pub fn greedy(r: &Rules, h: &Hand, melds: &[Meld], opening: bool) -> (i32, i32) {
    let vals = &r.values;
    let mut wild_meld = false;
    let mut wild_room = 0;
    for m in melds {
        if m.rank == WILD {
            wild_meld = true;
            wild_room = add_wild_cap(r, m, 0);
        }
    }
    let mut pts = 0;
    let mut cap = 0;
    let mut left = h.at(B3) + h.at(R3);
    let mut pairs: Vec<i32> = vec![];
    let small_cap = if opening { r.small_cap_opening } else { r.small_cap };
    for rk in RANKS {
        let mut n = h.at(rk);
        let mut has = false;
        for m in melds {
            if m.rank == rk {
                has = true;
                break;
            }
        }
        if has {
            let mut rem = n;
            let mut mcap = 0;
            for m in melds.iter().filter(|m| m.rank == rk) {
                let room = meld_room(r, m, opening);
                let take = rem.min(room);
                rem -= take;
                mcap += add_wild_cap(r, m, take).min(0.max(room - take));
            }
            if r.multi && 0 < rem && rem < 3 && 3 <= n && (n >= r.min_nat && n >= r.min_size) {
                for m in melds.iter().filter(|m| m.rank == rk) {
                    cap += add_wild_cap(r, m, 0).min(meld_room(r, m, opening));
                }
            } else {
                cap += mcap;
                pts += (n - rem) * vals[rk as usize];
                n = rem;
                if n == 0 {
                    continue;
                }
                if !r.multi {
                    left += n;
                    continue;
                }
            }
        }
        if n >= 3 || (n >= r.min_nat && n >= r.min_size) {
            pts += n * vals[rk as usize];
            if r.natural_only_has(rk) {
            } else if n <= small_cap {
                cap += r.wild_cap(n).min(small_cap - n);
            } else {
                let (a, b) = ((n + 1) / 2, n / 2);
                cap += r.wild_cap(a).min(small_cap - a) + r.wild_cap(b).min(small_cap - b);
            }
        } else if n == 2 && r.min_nat <= 2 && r.wild_cap(2) >= 1 && !r.natural_only_has(rk) {
            pairs.push(vals[rk as usize]);
        } else {
            left += n;
        }
    }
    let wilds = h.at(JK) + h.at(TWO);
    let p = (pairs.len() as i32).min(wilds);
    if p != 0 {
        pairs.sort_by(|a, b| b.cmp(a));
        for i in 0..p as usize {
            pts += 2 * pairs[i];
        }
        cap += p * (r.wild_cap(2) - 1);
    }
    left += 2 * (pairs.len() as i32 - p);
    let rest = wilds - p;
    let mut placed = rest.min(cap);
    if r.wild_excl && wild_meld && wild_room != 0 {
        let mut sorted = pairs.clone();
        sorted.sort_by(|a, b| b.cmp(a));
        let k = (pairs.len() as i32).min(wilds) as usize;
        pts -= sorted[..k].iter().map(|x| 2 * x).sum::<i32>();
        left += 2 * (pairs.len() as i32).min(wilds);
        let rest = wilds;
        let mut placed = 0;
        let extra = rest;
        placed += extra.min(wild_room);
        let used = placed;
        let jk = h.at(JK).min(used);
        pts += jk * vals[JK as usize] + (used - jk) * vals[TWO as usize];
        left += wilds - used;
        return (pts, left);
    }
    if r.wild_melds && !r.wild_excl {
        let extra = rest - placed;
        if wild_meld {
            placed += extra.min(wild_room);
        } else if extra >= r.min_size && r.free_wild_melds {
            placed += extra.min(r.wild_meld_max);
        }
    }
    let used = p + placed;
    let jk = h.at(JK).min(used);
    pts += jk * vals[JK as usize] + (used - jk) * vals[TWO as usize];
    left += wilds - used;
    (pts, left)
}
