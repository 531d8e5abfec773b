//! Can every card be melded (`canasta/_core/_meldable.py`): how each rank's naturals are laid
//! and how many wild cards they need (`rank_plan`), and whether the wild cards then fit and the
//! side has its canastas (`any_meldable`). Built on `canastas.rs`; used by `plan.rs`'s
//! `can_go_out`.

use crate::canastas::{add_wild_cap, counted_canastas, kinds_short, meld_room, ranks_met, RANKS};
use crate::cards::*;
use crate::kernel::Hand;
use crate::rules::{Meld, Rules, BIG};

/// Open melds by rank, canastas, red-three slots, a wild-only meld, black threes melded, the
/// room left on the wild-only meld, ranks closed to new melds. The open melds are kept in one
/// list ordered by rank (in their order within a rank): `by_rank(r)` is a slice of it.
pub struct Summary {
    open: Vec<Meld>,
    start: [u8; 17],
    pub canastas: i32,
    pub red: i32,
    pub wild: bool,
    pub b3: i32,
    pub wild_room: i32,
    pub closed: i64,
}

impl Summary {
    #[inline]
    pub fn by_rank(&self, r: u8) -> &[Meld] {
        &self.open[self.start[r as usize] as usize..self.start[r as usize + 1] as usize]
    }
}

pub fn meld_summary(r: &Rules, melds: &[Meld]) -> Summary {
    let (mut canastas, mut red, mut b3, mut wild_room, mut closed) = (0, 0, 0, 0, 0i64);
    let mut wild = false;
    let mut count = [0u8; 16];
    let mut open: Vec<Meld> = Vec::new();
    for m in melds {
        if r.is_canasta(m) {
            canastas += 1;
        }
        if m.rank == B3 {
            b3 = m.nat;
            continue;
        }
        if m.rank == WILD {
            wild = true;
            wild_room = add_wild_cap(r, m, 0);
            continue;
        }
        if r.closed && m.size() >= r.cs {
            if m.jk + m.tw == 0 && m.r3 == 0 {
                red += 1;
            }
            if !r.multi && !r.new_after && m.rank < 63 {
                closed |= 1i64 << m.rank;
            }
            continue;
        }
        if (m.rank as usize) < 16 {
            count[m.rank as usize] += 1;
            open.push(*m);
        }
    }
    let mut start = [0u8; 17];
    for k in 0..16 {
        start[k + 1] = start[k] + count[k];
    }
    open.sort_by_key(|m| m.rank); // stable: a rank's melds keep their order
    if !r.count_all {
        canastas = counted_canastas(r, melds); // going_out.counted_kinds (italian 6.1)
    }
    Summary { open, start, canastas, red, wild, b3, wild_room, closed }
}

/// (wild cards needed, wild room, canastas formed, red-three slots formed, unlimited wild
/// room, (wilds to complete, room) per near-canasta)
#[derive(Clone, Debug)]
pub struct Plan {
    pub wmin: i32,
    pub wcap: i32,
    pub canastas: i32,
    pub red: i32,
    pub unlimited: bool,
    pub gaps: Vec<(i32, i32)>,
}

/// How `n` naturals of one rank are all melded, given the side's open melds `ms` of it.
/// The naturals to put on the meld `m` when the rest start a new meld too small to stand without
/// wild cards: `d` fewer, so that the new meld is laid of naturals alone, wherever the `d` wild
/// cards so saved could go on `m` instead (`_meldable._natural_new_meld`).
fn natural_new_meld(r: &Rules, m: &Meld, room_n: i32, put: i32, d: i32) -> i32 {
    let room_a = add_wild_cap(r, m, put).min(room_n - put);
    let room_b = add_wild_cap(r, m, put - d).min(room_n - put + d);
    if room_b >= (room_a + d).min(BIG / 2) {
        put - d
    } else {
        put
    }
}

pub fn rank_plan(r: &Rules, n: i32, ms: &[Meld], opening: bool, dead: bool) -> Option<Plan> {
    let (mut wmin, mut wcap, mut canastas, mut red) = (0, 0, 0, 0);
    let mut unlimited = false;
    let mut gaps: Vec<(i32, i32)> = vec![];
    let mut others: &[Meld] = ms;
    let mut n = n;
    if n != 0 && dead {
        return None;
    }
    if n != 0 && !ms.is_empty() {
        let m = &ms[0];
        others = &ms[1..];
        let room_n = meld_room(r, m, opening);
        let mut put = n.min(room_n);
        let mut rest = n - put;
        if rest != 0 && r.new_after && rest >= r.min_nat && m.size() + put >= r.cs {
            // the meld closes as a canasta and the rest starts a new one
        } else {
            if rest != 0 && (rest < 2 || !r.multi) {
                if !r.multi {
                    return None;
                }
                if put >= 1 && rest == 1 {
                    put -= 1;
                    rest += 1;
                } else {
                    return None;
                }
            }
            if 0 < rest && rest < r.min_size && put >= r.min_size - rest {
                put = natural_new_meld(r, m, room_n, put, r.min_size - rest);
                rest = n - put;
            }
        }
        let size = m.size() + put;
        let nat = m.nat + put;
        let room_w = add_wild_cap(r, m, put).min(meld_room(r, m, opening) - put);
        if room_w >= BIG / 2 {
            unlimited = true;
        }
        wcap += room_w;
        if r.is_canasta(m) {
        } else if size >= r.cs && nat >= r.cmin_nat {
            canastas += 1;
            if r.closed && m.jk + m.tw == 0 {
                red += 1;
            }
        } else if r.cs - size <= room_w && nat >= r.cmin_nat {
            gaps.push((r.cs - size, room_w));
        }
        n = rest;
    }
    for m in others {
        let room = add_wild_cap(r, m, 0).min(meld_room(r, m, opening));
        wcap += room;
        if room >= BIG / 2 {
            unlimited = true;
        }
        if !r.is_canasta(m) && m.nat >= r.cmin_nat {
            let gap = r.cs - m.size();
            if gap <= room {
                gaps.push((gap, room));
            }
        }
    }
    if n != 0 {
        let limit = if r.closed { r.cs } else if opening && !r.initial_canasta { r.cs - 1 } else { BIG };
        let k = 1.max((n + limit - 1).div_euclid(limit));
        if k > 1 && !r.multi && !r.new_after {
            return None;
        }
        for i in 0..k {
            let part = if r.new_after && k > 1 {
                if i < k - 1 { limit } else { n - limit * (k - 1) }
            } else {
                n / k + if i < n % k { 1 } else { 0 }
            };
            if part < r.min_nat {
                return None;
            }
            let need_w = 0.max(r.min_size - part);
            let cap = r.wild_cap(part).min(limit - part);
            if need_w > cap {
                return None;
            }
            wmin += need_w;
            wcap += cap - need_w;
            if part >= r.cs && part >= r.cmin_nat {
                canastas += 1;
                if r.closed {
                    red += 1;
                }
                if r.unlimited {
                    unlimited = true;
                }
            } else {
                let gap = r.cs - part - need_w;
                let mut room = cap - need_w;
                if r.unlimited && part + r.wild_cap(part) >= r.cs && part >= r.cmin_nat {
                    room = BIG;
                }
                if gap <= room && part >= r.cmin_nat {
                    gaps.push((gap, room));
                }
            }
        }
    }
    Some(Plan { wmin, wcap, canastas, red, unlimited, gaps })
}

/// Whether, for some choice (-1: keep every card; else a kind discarded last), every other card
/// of `h` can be melded so that the side then has its canastas.
#[allow(clippy::too_many_arguments)]
pub fn any_meldable(r: &Rules, h: &Hand, melds: &[Meld], need: i32, own_canasta: bool, choices: &[i32], cap: bool,
                    most: i32) -> bool {
    let s = meld_summary(r, melds);
    let kinds = r.kinds_needed.is_none()
        || (kinds_short(r, melds).iter().all(|&x| x == 0) && (r.rank_needed.is_empty() || ranks_met(r, melds)));
    let opening = need > 0 || cap;
    let dead = s.closed;
    let mut plans: [Option<Plan>; 15] = Default::default();
    let mut bad = 0;
    let (mut wmin, mut wcap, mut formed, mut red, mut unl) = (0, 0, 0, 0, 0);
    let mut gaps: Vec<(i32, i32, i32)> = vec![];
    for rk in RANKS {
        let n = h.at(rk);
        let ms = s.by_rank(rk);
        if n == 0 && ms.is_empty() {
            continue;
        }
        let p = rank_plan(r, n, ms, opening, dead != 0 && (dead >> rk) & 1 == 1);
        match &p {
            None => {
                bad += 1;
            }
            Some(p) => {
                wmin += p.wmin;
                wcap += p.wcap;
                formed += p.canastas;
                red += p.red;
                if p.unlimited {
                    unl += 1;
                }
                for &(gap, room) in &p.gaps {
                    gaps.push((gap, room, rk as i32));
                }
            }
        }
        plans[rk as usize] = p;
    }
    let mut total = 0;
    if opening {
        for k in 0..h.len as usize {
            total += h[k] as i32 * r.values[k];
        }
    }
    let size = h.sum();
    for &d in choices {
        let (mut dw, mut dc, mut df, mut dr, mut du, mut dg);
        if d < 4 {
            if bad != 0 {
                continue;
            }
            dw = wmin;
            dc = wcap;
            df = formed;
            dr = red;
            du = unl;
            dg = gaps.clone();
        } else {
            let old = &plans[d as usize];
            if bad - old.is_none() as i32 > 0 {
                continue;
            }
            let n = h.at(d as u8) - 1;
            let ms = s.by_rank(d as u8);
            let (new, present_d) = if n == 0 && ms.is_empty() {
                (None, false)
            } else {
                let p = rank_plan(r, n, ms, opening, dead != 0 && (dead >> d) & 1 == 1);
                if p.is_none() {
                    continue;
                }
                (p, true)
            };
            let (mut a, mut b, mut c, mut e, mut f) = (wmin, wcap, formed, red, unl);
            if let Some(o) = old {
                a -= o.wmin;
                b -= o.wcap;
                c -= o.canastas;
                e -= o.red;
                f -= o.unlimited as i32;
            }
            let mut g: Vec<(i32, i32, i32)>;
            if present_d {
                let nw = new.as_ref().unwrap();
                a += nw.wmin;
                b += nw.wcap;
                c += nw.canastas;
                e += nw.red;
                f += nw.unlimited as i32;
                g = gaps.iter().copied().filter(|x| x.2 != d).collect();
                g.extend(nw.gaps.iter().map(|&(gap, room)| (gap, room, d)));
            } else {
                g = gaps.iter().copied().filter(|x| x.2 != d).collect();
            }
            dw = a;
            dc = b;
            df = c;
            dr = e;
            du = f;
            dg = g;
        }
        // mexicana 6.2: the naturals of a rank laid so as to complete no canasta, rank after rank,
        // where the plan completes more canastas than the red threes allow (`any_meldable`)
        let split = most < BIG && r.multi && !r.closed && df != 0;
        let first = if split { dg.clone() } else { std::mem::take(&mut dg) };
        if meldable(r, h, &s, need, own_canasta, d, size, total, dw, dc, df, dr, du, first, kinds, most) {
            return true;
        }
        if !split {
            continue;
        }
        for rk in RANKS {
            let old = match &plans[rk as usize] {
                Some(o) if rk as i32 != d && o.canastas != 0 => o,
                _ => continue,
            };
            let alt = match split_plan(r, h.at(rk), s.by_rank(rk), opening) {
                Some(a) => a,
                None => continue,
            };
            dw += alt.wmin - old.wmin;
            dc += alt.wcap - old.wcap;
            df += alt.canastas - old.canastas;
            dr += alt.red - old.red;
            du += alt.unlimited as i32 - old.unlimited as i32;
            dg.retain(|g| g.2 != rk as i32);
            dg.extend(alt.gaps.iter().map(|&(gap, room)| (gap, room, rk as i32)));
            if meldable(r, h, &s, need, own_canasta, d, size, total, dw, dc, df, dr, du, dg.clone(), kinds, most) {
                return true;
            }
        }
    }
    false
}

/// `split_plan`: `rank_plan` with the `n` naturals laid so that they complete no canasta
/// (mexicana 6.2), where a side may hold several melds of a rank: the side's open melds of the
/// rank filled in turn up to one card short of a canasta, the rest in new melds of fewer than
/// canasta size, as even as may be (the melds filled give back naturals where the rest would be
/// too few for a meld of naturals alone).
#[cold]
#[inline(never)]
fn split_plan(r: &Rules, n: i32, ms: &[Meld], opening: bool) -> Option<Plan> {
    let cs = r.cs;
    let low = 3.max(r.min_size);
    if n == 0 || cs <= low {
        return None;
    }
    let mut puts: Vec<i32> = Vec::with_capacity(ms.len());
    let mut left = n;
    for m in ms {
        let t = if r.is_canasta(m) { 0 } else { left.min(0.max(cs - 1 - m.size())) };
        puts.push(t);
        left -= t;
    }
    if 0 < left && left < low {
        let mut back = low - left;
        for i in (0..puts.len()).rev() {
            let t = puts[i].min(back);
            puts[i] -= t;
            back -= t;
            left += t;
        }
        if back != 0 {
            return None;
        }
    }
    let mut out = Plan { wmin: 0, wcap: 0, canastas: 0, red: 0, unlimited: false, gaps: vec![] };
    let k = (left + cs - 2).div_euclid(cs - 1);
    for i in 0..ms.len() + k as usize {
        let p = if i < ms.len() {
            rank_plan(r, puts[i], std::slice::from_ref(&ms[i]), opening, false)?
        } else {
            let j = (i - ms.len()) as i32;
            rank_plan(r, left / k + if j < left % k { 1 } else { 0 }, &[], opening, false)?
        };
        out.wmin += p.wmin;
        out.wcap += p.wcap;
        out.canastas += p.canastas;
        out.red += p.red;
        out.unlimited = out.unlimited || p.unlimited;
        out.gaps.extend(p.gaps);
    }
    Some(out)
}

#[allow(clippy::too_many_arguments)]
fn meldable(r: &Rules, h: &Hand, s: &Summary, need: i32, own_canasta: bool, d: i32, size: i32, total: i32, wmin: i32,
            wcap: i32, formed: i32, red: i32, unl: i32, mut gaps: Vec<(i32, i32, i32)>, kinds: bool, most: i32) -> bool {
    let mut canastas = s.canastas;
    if size - (d >= 0) as i32 == 0 {
        return need <= 0 && !own_canasta && canastas >= r.canastas_needed && canastas <= most && kinds;
    }
    if need > 0 && total - if d >= 0 { r.values[d as usize] } else { 0 } < need {
        return false;
    }
    let mut fresh = formed;
    if r.count_all || (r.counted[0] != 0 && r.counted[1] != 0 && (r.counted[4] != 0 || r.rank_bonus_by.is_empty())) {
        canastas += formed;
    } else {
        gaps.clear(); // a canasta of a rank may be natural or mixed: only a kind not counted is sure
    }
    let b3 = h.at(B3) - (d == B3 as i32) as i32;
    if b3 != 0 {
        if r.b3_never {
            return false;
        }
        let b3_melded = s.b3;
        let total_b3 = b3 + b3_melded;
        if !(r.b3_min <= total_b3 && total_b3 <= r.b3_max) {
            return false;
        }
        if total_b3 >= r.cs && b3_melded < r.cs {
            canastas += 1;
            fresh += 1;
        }
    }
    let mut unlimited = (s.wild && s.wild_room >= BIG / 2) || unl > 0;
    let wilds = h.at(JK) + h.at(TWO) - (d == JK as i32 || d == TWO as i32) as i32;
    if wilds < wmin {
        return false;
    }
    let mut spare = wilds - wmin;
    let mut done = 0usize; // gaps completed (the first of them, sorted)
    if canastas < r.canastas_needed || (own_canasta && fresh == 0) {
        gaps.sort();
        for &(gap, _room, _r) in &gaps {
            if spare < gap || (canastas >= r.canastas_needed && (fresh != 0 || !own_canasta)) {
                break;
            }
            spare -= gap;
            canastas += 1;
            fresh += 1;
            done += 1;
        }
    }
    if most < BIG && !within(r, canastas, most, spare, wcap - (wilds - wmin - spare), &gaps[done..]) {
        return false;
    }
    if canastas != 0 && r.unlimited {
        unlimited = true;
    }
    let leftover_wilds = wilds - wmin;
    if leftover_wilds > wcap && !unlimited {
        let over = leftover_wilds - wcap;
        if s.wild {
            if over > s.wild_room {
                return false;
            }
        } else if !(r.free_wild_melds && r.min_size <= over && over <= r.wild_meld_max) {
            return false;
        }
    }
    if canastas < r.canastas_needed || !kinds {
        return false;
    }
    if own_canasta && fresh == 0 {
        return false;
    }
    let r3 = h.at(R3) - (d == R3 as i32) as i32;
    if r3 != 0 && (!r.keep_r3 || r3 > s.red + red) {
        return false;
    }
    true
}

/// mexicana 6.2 (E15): `_within` of the Python core: whether the plan's `canastas` stay within
/// `most` while the `spare` wild cards still find `room`, a meld of `rest` (not completed) taking
/// at most one fewer than it lacks unless the side may complete it as one more canasta.
#[cold]
#[inline(never)]
fn within(r: &Rules, mut canastas: i32, most: i32, spare: i32, room: i32, rest: &[(i32, i32, i32)]) -> bool {
    if canastas > most {
        return false;
    }
    if spare == 0 || (r.unlimited && canastas != 0) {
        return true;
    }
    let mut rest = rest.to_vec();
    rest.sort_by_key(|g| g.0 as i64 - g.1 as i64);
    let mut safe = room as i64;
    for &(gap, rm, _r) in &rest {
        if rm >= BIG / 2 {
            return false;
        }
        safe -= (rm - gap + 1) as i64;
    }
    for &(gap, rm, _r) in &rest {
        if spare as i64 <= safe || canastas >= most {
            break;
        }
        safe += (rm - gap + 1) as i64;
        canastas += 1;
    }
    spare as i64 <= safe
}
