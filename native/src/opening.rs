//! The initial meld (`canasta/_core/_opening.py`): the plays from a hand toward it
//! (`opening_plays`), what it must include (`comp_options`, `comp_met`;
//! `initial_meld.composition`), and going out after taking the pile for it (`open_then_out`,
//! memoised on the table's `Rules`). Built on `plan.rs`, `greedy.rs`, `sequences.rs`,
//! `canastas.rs` and `memo.rs`; used by the checks (`finish.rs`, `draw.rs`, `meld.rs`).

use crate::canastas::{melds_bytes, LOCK, RANKS};
use crate::cards::*;
use crate::greedy::greedy;
use crate::kernel::Hand;
use crate::memo::key_hash;
use crate::plan::can_go_out;
use crate::rules::{Meld, Melds, Rules, COMP_CANASTA, COMP_CLEAN, COMP_MIXED, COMP_NATURAL, COMP_SEQ, COMP_WILD};
use crate::sequences::sequence_plays;

type OpenKey = (Hand, Melds, i32, Hand, bool, bool, i32);

// ------------------------------------------------------------------ the initial meld, then out

fn plus(h: &Hand, extra: &Hand) -> Hand {
    if !extra.any() {
        return *h;
    }
    let n = h.len.min(extra.len) as usize;
    let mut out = Hand::empty(n);
    for i in 0..n {
        out.c[i] = h.c[i].wrapping_add(extra.c[i]);
    }
    out
}

/// Bound to go out after taking the pile for the initial meld: can melds from `h` make up
/// the `rem` points still missing, and every card then be melded so that the side goes out?
#[allow(clippy::too_many_arguments)]
pub fn open_then_out(r: &Rules, h: &Hand, melds: &[Meld], rem: i32, extra: &Hand, cap: bool, opening_cap: bool,
                     most: i32) -> bool {
    use std::hash::Hash;
    let hash = key_hash(|f| {
        h.hash(f);
        melds.hash(f);
        rem.hash(f);
        extra.hash(f);
        cap.hash(f);
        opening_cap.hash(f);
        most.hash(f);
    });
    let same = |k: &OpenKey| {
        k.0 == *h && k.1 == melds && k.2 == rem && k.3 == *extra && k.4 == cap && k.5 == opening_cap && k.6 == most
    };
    if let Some(v) = r.memo.open_then_out.get(hash, same) {
        return v;
    }
    let v = open_then_out_calc(r, h, melds, rem, extra, cap, opening_cap, most);
    r.memo.open_then_out.insert(hash, (*h, melds.to_vec(), rem, *extra, cap, opening_cap, most), v,
                                melds_bytes(melds.len()));
    v
}

#[allow(clippy::too_many_arguments)]
fn open_then_out_calc(r: &Rules, h: &Hand, melds: &[Meld], rem: i32, extra: &Hand, cap: bool, opening_cap: bool,
                      most: i32) -> bool {
    if r.no_wild && (h.at(JK) + h.at(TWO) + extra.at(JK) + extra.at(TWO)) != 0 {
        // italian 4.5: no wild card in this turn's melds; a bound (one could be the last discard)
        return false;
    }
    if h.suited() {
        let whole = plus(h, extra);
        if !can_go_out(r, &whole, melds, 0, true, false, -1, cap, most) {
            return false;
        }
        let extra15 = extra.first15();
        let plays = sequence_plays(r, h, melds, opening_cap, false);
        return plays.iter().any(|(h2, m2, pts, _)| open_then_out(r, h2, m2, rem - pts, &extra15, cap, opening_cap, most));
    }
    let whole = plus(h, extra);
    if !can_go_out(r, &whole, melds, 0, true, false, -1, cap, most) {
        return false;
    }
    if rem <= 0 {
        return true;
    }
    if greedy(r, h, melds, true).0 < rem {
        return false;
    }
    for (h2, m2, gain) in opening_plays(r, h, melds, opening_cap) {
        if open_then_out(r, &h2, &m2, rem - gain, extra, cap, opening_cap, most) {
            return true;
        }
    }
    false
}

/// The plays from `h` toward an initial meld: (hand after, melds after, points).
pub fn opening_plays(r: &Rules, h: &Hand, melds: &[Meld], opening_cap: bool) -> Vec<(Hand, Melds, i32)> {
    let vals = &r.values;
    let mut out = vec![];
    let jk = h.at(JK);
    let mut two;
    let cs = r.cs;
    let mut seen: Vec<Meld> = vec![];
    let excl = r.deuce_excl && melds.iter().any(|m| m.rank == WILD && m.size() < cs);
    for i in 0..melds.len() {
        two = h.at(TWO);
        let m = melds[i];
        if m.rank == B3 || m.rank >= SEQ || seen.contains(&m) {
            continue;
        }
        seen.push(m);
        let size = m.size();
        if (r.closed && size >= cs) || (opening_cap && size + 1 >= cs) {
            continue;
        }
        let with = |nm: Meld| -> Melds {
            let mut v = melds.to_vec();
            v[i] = nm;
            v
        };
        if m.rank != WILD && h.at(m.rank) != 0 {
            out.push((h.less(m.rank, 1), with(Meld::new(m.rank, m.nat + 1, m.jk, m.tw, m.r3)), vals[m.rank as usize]));
        }
        if m.rank != WILD && excl {
            two = 0; // italian 4.4: deuces only onto the open meld of deuces
        }
        if (jk != 0 || two != 0) && m.r3 != LOCK && (r.wild_on_canasta || !r.is_canasta(&m)) {
            if m.rank == WILD && r.deuce {
                // italian 4.3: a joker within the meld's limit, a deuce up to its size
                if jk != 0 && r.valid(&Meld::new(m.rank, m.nat, m.jk + 1, m.tw, m.r3)) {
                    out.push((h.less(JK, 1), with(Meld::new(m.rank, m.nat, m.jk + 1, m.tw, m.r3)), vals[JK as usize]));
                }
                if two != 0 {
                    out.push((h.less(TWO, 1), with(Meld::new(m.rank, m.nat, m.jk, m.tw + 1, m.r3)), vals[TWO as usize]));
                }
                continue;
            }
            let room = if m.rank == WILD {
                size < r.wild_meld_max
            } else {
                let wc = r.wild_cap(m.nat);
                (r.unlimited && m.nat + wc >= cs && m.nat >= r.cmin_nat) || wc > m.jk + m.tw
            };
            if room {
                if jk != 0 {
                    out.push((h.less(JK, 1), with(Meld::new(m.rank, m.nat, m.jk + 1, m.tw, m.r3)), vals[JK as usize]));
                }
                if two != 0 {
                    out.push((h.less(TWO, 1), with(Meld::new(m.rank, m.nat, m.jk, m.tw + 1, m.r3)), vals[TWO as usize]));
                }
            }
        }
    }
    let mut ranks: i64 = 0;
    for m in melds {
        if (r.blocks_new(m) || (m.rank == WILD && r.deuce)) && m.rank < 63 {
            ranks |= 1i64 << m.rank;
        }
    }
    two = if excl { 0 } else { h.at(TWO) };
    let app = |nm: Meld| -> Melds {
        let mut v = melds.to_vec();
        v.push(nm);
        v
    };
    for rk in RANKS {
        let n = h.at(rk);
        if n < 2 || (ranks >> rk) & 1 == 1 {
            continue;
        }
        if n >= 3 && r.trip_ok {
            out.push((h.less(rk, 3), app(Meld::new(rk, 3, 0, 0, 0)), 3 * vals[rk as usize]));
        }
        if r.pair_wild_ok {
            if two != 0 {
                out.push((h.less(rk, 2).less(TWO, 1), app(Meld::new(rk, 2, 0, 1, 0)), 2 * vals[rk as usize] + vals[TWO as usize]));
            }
            if jk != 0 {
                out.push((h.less(rk, 2).less(JK, 1), app(Meld::new(rk, 2, 1, 0, 0)), 2 * vals[rk as usize] + vals[JK as usize]));
            }
        }
    }
    two = h.at(TWO);
    if r.wild_melds && (ranks >> WILD) & 1 == 0 && jk + two >= r.min_size {
        let n = r.min_size;
        let mut j = n;
        while j >= 0 {
            let d = n - j;
            let nm = Meld::new(WILD, 0, j, d, 0);
            if jk >= j && two >= d && r.valid(&nm) {
                out.push((h.less(JK, j).less(TWO, d), app(nm), j * vals[JK as usize] + d * vals[TWO as usize]));
            }
            j -= 1;
        }
    }
    out
}

// ------------------------------------------------------------------ what an initial meld must include

/// (hand, melds, points melded from the hand) from which the rest of a turn is planned.
pub type Option3 = (Hand, Melds, i32);

/// Whether `melds` include a meld of three or more naturals without a wild card (a sequence is one).
pub fn has_clean(melds: &[Meld]) -> bool {
    melds.iter().any(|m| m.rank >= SEQ || (4 <= m.rank && m.rank < WILD && m.nat >= 3 && m.jk + m.tw == 0))
}

/// The COMP_* bit of the canasta `m`'s kind, or 0 (no canasta, or one of black threes).
pub fn canasta_comp(r: &Rules, m: &Meld) -> i32 {
    if !r.is_canasta(m) || m.rank == B3 {
        return 0;
    }
    if m.rank >= SEQ {
        return COMP_SEQ;
    }
    if m.rank == WILD {
        return COMP_WILD;
    }
    if m.jk + m.tw != 0 { COMP_MIXED } else { COMP_NATURAL }
}

/// The card values of the meld `m`'s cards.
pub fn meld_points(r: &Rules, m: &Meld) -> i32 {
    let vals = &r.values;
    if m.rank >= SEQ {
        let low = seq_low(m.rank) as i32;
        return (low..low + m.nat).map(|x| vals[x as usize]).sum();
    }
    (if m.rank != WILD { m.nat * vals[m.rank as usize] } else { 0 }) + m.jk * vals[JK as usize] + m.tw * vals[TWO as usize]
}

/// Whether the side's melds (its initial meld) include what `comp` asks.
pub fn comp_met(r: &Rules, melds: &[Meld], comp: (i32, i32)) -> bool {
    let (bits, points) = comp;
    if bits & COMP_CLEAN != 0 && !has_clean(melds) {
        return false;
    }
    if bits & COMP_CANASTA != 0 {
        return melds.iter().any(|m| canasta_comp(r, m) & bits != 0 && meld_points(r, m) >= points);
    }
    true
}

/// The ways the turn's melds can come to include what `comp` asks (see the Python core).
pub fn comp_options(r: &Rules, h: &Hand, melds: &[Meld], comp: (i32, i32), dead: i64, cap: bool) -> Vec<Option3> {
    let mut out: Vec<Option3> = vec![(*h, melds.to_vec(), 0)];
    if comp.0 & COMP_CANASTA != 0 {
        out = canasta_options(r, h, melds, comp, dead, cap);
    }
    if comp.0 & COMP_CLEAN != 0 {
        let mut next = vec![];
        for (h1, m1, g1) in out {
            next.extend(clean_options(r, &h1, &m1, g1, dead, cap));
        }
        out = next;
    }
    out
}

fn put(melds: &[Meld], i: i32, m: Meld) -> Melds {
    let mut v = melds.to_vec();
    if i < 0 {
        v.push(m);
    } else {
        v[i as usize] = m;
    }
    v
}

fn less_wild(h: &Hand, jk: i32, two: i32) -> Hand {
    let mut x = *h;
    x.c[JK as usize] = (x.c[JK as usize] as i32 - jk) as u8;
    x.c[TWO as usize] = (x.c[TWO as usize] as i32 - two) as u8;
    x
}

fn is_dead(dead: i64, r: i32) -> bool {
    (0..63).contains(&r) && (dead >> r) & 1 == 1
}

fn canasta_options(r: &Rules, h: &Hand, melds: &[Meld], comp: (i32, i32), dead: i64, cap: bool) -> Vec<Option3> {
    let (bits, points) = comp;
    let mut out: Vec<Option3> = vec![];
    for i in 0..melds.len() {
        let m = melds[i];
        let kind = canasta_comp(r, &m);
        if kind & bits != 0 && meld_points(r, &m) >= points {
            if kind != COMP_NATURAL || bits & COMP_MIXED != 0 {
                return vec![(*h, melds.to_vec(), 0)];
            }
            out.push((*h, put(melds, i as i32, Meld::new(m.rank, m.nat, 0, 0, LOCK)), 0));
        }
    }
    if cap {
        return out;
    }
    let vals = &r.values;
    let cs = r.cs;
    let (jk, two) = (h.at(JK), h.at(TWO));
    let excl = r.wild_excl && melds.iter().any(|m| m.rank == WILD && !r.is_canasta(m));
    if bits & (COMP_NATURAL | COMP_MIXED) != 0 {
        for rk in RANKS {
            if is_dead(dead, rk as i32) {
                continue;
            }
            let v = vals[rk as usize];
            let mut bases: Vec<(i32, Meld)> =
                (0..melds.len()).filter(|&i| melds[i].rank == rk && !r.is_canasta(&melds[i])).map(|i| (i as i32, melds[i])).collect();
            if r.multi || !melds.iter().any(|m| m.rank == rk && r.blocks_new(m)) {
                bases.push((-1, Meld::new(rk, 0, 0, 0, 0)));
            }
            let hr = h.at(rk);
            for (i, m) in bases {
                let (nat0, w0) = (m.nat, m.jk + m.tw);
                if bits & COMP_NATURAL != 0 && w0 == 0 {
                    let mut t = (cs - nat0).max(0);
                    while t <= hr && (nat0 + t) * v < points {
                        t += 1;
                    }
                    let nm = Meld::new(rk, nat0 + t, 0, 0, if bits & COMP_MIXED != 0 { 0 } else { LOCK });
                    if t <= hr && r.valid(&nm) && nat0 + t >= r.cmin_nat {
                        out.push((take_naturals(h, rk, t), put(melds, i, nm), t * v));
                    }
                }
                if bits & COMP_MIXED == 0 || r.natural_only_has(rk) || excl || (r.stay_natural_has(rk) && i >= 0 && w0 == 0) {
                    continue;
                }
                for wild in w0.max(1)..=r.max_wild {
                    let w = wild - w0;
                    let t = cs - wild - nat0;
                    if t < 0 || t > hr || w > jk + two {
                        continue;
                    }
                    for j in (w - two).max(0)..=w.min(jk) {
                        let (nj, nt) = (m.jk + j, m.tw + w - j);
                        let mut tt = t;
                        while tt <= hr && (nat0 + tt) * v + nj * vals[JK as usize] + nt * vals[TWO as usize] < points {
                            tt += 1;
                        }
                        let nm = Meld::new(rk, nat0 + tt, nj, nt, 0);
                        if tt <= hr && r.valid(&nm) && nat0 + tt >= r.cmin_nat {
                            let h3 = less_wild(&take_naturals(h, rk, tt), j, w - j);
                            out.push((h3, put(melds, i, nm), tt * v + j * vals[JK as usize] + (w - j) * vals[TWO as usize]));
                        }
                    }
                }
            }
        }
    }
    if bits & COMP_WILD != 0 && r.wild_melds && r.wild_meld_max >= cs {
        let mut bases: Vec<(i32, Meld)> =
            (0..melds.len()).filter(|&i| melds[i].rank == WILD && !r.is_canasta(&melds[i])).map(|i| (i as i32, melds[i])).collect();
        if !melds.iter().any(|m| m.rank == WILD) {
            bases.push((-1, Meld::new(WILD, 0, 0, 0, 0)));
        }
        for (i, m) in bases {
            let size = m.jk + m.tw;
            for total in cs.max(size)..=r.wild_meld_max.min(size + jk + two) {
                let w = total - size;
                let mut done = false;
                for j in (w - two).max(0)..=w.min(jk) {
                    let nm = Meld::new(WILD, 0, m.jk + j, m.tw + w - j, 0);
                    if meld_points(r, &nm) >= points && r.valid(&nm) {
                        out.push((less_wild(h, j, w - j), put(melds, i, nm), j * vals[JK as usize] + (w - j) * vals[TWO as usize]));
                        done = true;
                    }
                }
                if done {
                    break;
                }
            }
        }
    }
    if bits & COMP_SEQ != 0 && h.suited() {
        sequence_canastas(r, h, melds, points, dead, &mut out);
    }
    out
}

fn sequence_canastas(r: &Rules, h: &Hand, melds: &[Meld], points: i32, dead: i64, out: &mut Vec<Option3>) {
    let (cs, lo, hi) = (r.cs, r.seq_lo as i32, r.seq_hi as i32);
    let top = r.seq_max;
    let vals = &r.values;
    let mut runs: Vec<(i32, i32, i32, i32)> = vec![];
    for i in 0..melds.len() {
        let m = melds[i];
        if m.rank >= SEQ && !r.is_canasta(&m) {
            runs.push((i as i32, seq_suit(m.rank) as i32, seq_low(m.rank) as i32, m.nat));
        }
    }
    for suit in 0..4 {
        runs.push((-1, suit, 0, 0));
    }
    for (i, suit, low, length) in runs {
        let starts: std::ops::Range<i32> = if i >= 0 { lo.max(low + length - top)..low + 1 } else { lo..hi - cs + 2 };
        for a in starts {
            let bstart = (a + cs - 1).max(if i >= 0 { low + length - 1 } else { 0 });
            for b in bstart..=hi.min(a + top - 1) {
                let need: Vec<i32> = (a..=b).filter(|&x| i < 0 || !(low <= x && x < low + length)).collect();
                if need.iter().any(|&x| h[(4 * x - 1 + suit) as usize] == 0 || is_dead(dead, x)) {
                    continue;
                }
                if (a..=b).map(|x| vals[x as usize]).sum::<i32>() < points {
                    continue;
                }
                let mut hl = *h;
                for &x in &need {
                    hl.c[(4 * x - 1 + suit) as usize] -= 1;
                    hl.c[x as usize] -= 1;
                }
                let nm = Meld::new(seq_rank(suit as u8, a as u8), b - a + 1, 0, 0, 0);
                out.push((hl, put(melds, i, nm), need.iter().map(|&x| vals[x as usize]).sum()));
                break;
            }
        }
    }
}

fn clean_options(r: &Rules, h: &Hand, melds: &[Meld], gain: i32, dead: i64, cap: bool) -> Vec<Option3> {
    for m in melds {
        if m.rank >= SEQ || (m.r3 == LOCK && m.nat >= 3) {
            return vec![(*h, melds.to_vec(), gain)];
        }
    }
    let mut out: Vec<Option3> = vec![];
    for i in 0..melds.len() {
        let m = melds[i];
        if 4 <= m.rank && m.rank < WILD && m.nat >= 3 && m.jk + m.tw == 0 {
            out.push((*h, put(melds, i as i32, Meld::new(m.rank, m.nat, 0, 0, LOCK)), gain));
        }
    }
    let k = 3.max(r.min_size);
    let vals = &r.values;
    if cap && k >= r.cs {
        return out;
    }
    for rk in RANKS {
        if h.at(rk) < k || is_dead(dead, rk as i32) || !r.valid(&Meld::new(rk, k, 0, 0, 0)) {
            continue;
        }
        if !r.multi && melds.iter().any(|m| m.rank == rk && r.blocks_new(m)) {
            continue;
        }
        out.push((take_naturals(h, rk, k), put(melds, -1, Meld::new(rk, k, 0, 0, LOCK)), gain + k * vals[rk as usize]));
    }
    if h.suited() && !(cap && r.seq_min >= r.cs) {
        for suit in 0..4u8 {
            for low in r.seq_lo as i32..(r.seq_hi as i32 - r.seq_min + 2) {
                let codes: Vec<usize> = (0..r.seq_min).map(|j| (4 * (low + j) - 1 + suit as i32) as usize).collect();
                if codes.iter().any(|&k2| h[k2] == 0 || is_dead(dead, ((k2 + 1) >> 2) as i32)) {
                    continue;
                }
                let mut hl = *h;
                let mut pts = 0;
                for &k2 in &codes {
                    hl.c[k2] -= 1;
                    hl.c[(k2 + 1) >> 2] -= 1;
                    pts += vals[k2];
                }
                out.push((hl, put(melds, -1, Meld::new(seq_rank(suit, low as u8), r.seq_min, 0, 0, 0)), gain + pts));
            }
        }
    }
    out
}

/// `h` less `n` naturals of rank `r`; with suits, of the suits held most first (lowest suit
/// among equals).
pub fn take_naturals(h: &Hand, r: u8, n: i32) -> Hand {
    let mut hl = *h;
    hl.c[r as usize] = (hl.c[r as usize] as i32 - n) as u8;
    if h.suited() {
        let base = 4 * r as usize - 1;
        for _ in 0..n {
            let mut best = base;
            for code in base + 1..base + 4 {
                if hl.c[code] > hl.c[best] {
                    best = code;
                }
            }
            hl.c[best] = hl.c[best].wrapping_sub(1);
        }
    }
    hl
}
