//! Sequences (`melds.sequences`; `canasta/_core/_sequences.py`): every way to play sequences
//! from a hand (`sequence_plays`, memoised on the table's `Rules`), and the naturals no sequence
//! could take (`seq_orphans`). Built on `canastas.rs` and `memo.rs`; used by `plan.rs` and
//! `opening.rs`.

use crate::canastas::{melds_bytes, open_ranks, RANKS};
use crate::cards::*;
use crate::kernel::Hand;
use crate::memo::key_hash;
use crate::rules::{Meld, Melds, Rules};
use std::rc::Rc;

/// Most combinations of sequence plays tried per question (`SEQ_PLAN_LIMIT`).
pub const SEQ_PLAN_LIMIT: usize = 1024;

/// (the hand left, as 15 counts per kind; the melds after; the points melded; a sequence
/// became a canasta)
pub type SeqPlay = (Hand, Melds, i32, bool);

type SeqKey = (Hand, Melds, bool, bool);

/// Naturals held once, of a rank with no open group of the side, that no sequence could take.
#[inline]
pub fn seq_orphans(r: &Rules, h: &Hand, melds: &[Meld]) -> i32 {
    let mask = open_ranks(r, melds);
    let (lo, hi) = (r.seq_lo, r.seq_hi);
    let mut n = 0;
    for rk in RANKS {
        if h.at(rk) != 1 || (mask >> rk) & 1 == 1 {
            continue;
        }
        let base = 4 * rk as usize - 1;
        let mut s = 0;
        while h[base + s] == 0 {
            s += 1;
        }
        if !(lo <= rk && rk <= hi) || !may_join(r, h, melds, rk, s as u8) {
            n += 1;
        }
    }
    n
}

fn may_join(r: &Rules, h: &Hand, melds: &[Meld], rk: u8, s: u8) -> bool {
    let (lo, hi) = (r.seq_lo as i32, r.seq_hi as i32);
    let rk = rk as i32;
    let s = s as i32;
    let mut below = 0;
    while rk - below - 1 >= lo && h[(4 * (rk - below - 1) - 1 + s) as usize] != 0 {
        below += 1;
    }
    let mut above = 0;
    while rk + above + 1 <= hi && h[(4 * (rk + above + 1) - 1 + s) as usize] != 0 {
        above += 1;
    }
    if below + above + 1 >= r.seq_min {
        return true;
    }
    for m in melds {
        if m.rank >= SEQ && seq_suit(m.rank) as i32 == s {
            let low = seq_low(m.rank) as i32;
            if (low - 1 - above <= rk && rk <= low - 1) || (low + m.nat <= rk && rk <= low + m.nat + below) {
                return true;
            }
        }
    }
    false
}

/// Every way to play sequences from the hand `h` (59 counts), the play of no sequence first.
pub fn sequence_plays(r: &Rules, h: &Hand, melds: &[Meld], cap: bool, out: bool) -> Rc<Vec<SeqPlay>> {
    let past = out && r.seq_past_max;
    if !any_sequence_play(r, h, melds, seq_top(r, cap, past)) {
        // the play of no sequence only (what `sequence_plays_calc` finds), without the memo
        return Rc::new(vec![(h.first15(), melds.to_vec(), 0, false)]);
    }
    use std::hash::Hash;
    let hash = key_hash(|f| {
        h.hash(f);
        melds.hash(f);
        cap.hash(f);
        past.hash(f);
    });
    let same = |k: &SeqKey| k.0 == *h && k.1 == melds && k.2 == cap && k.3 == past;
    if let Some(v) = r.memo.seq_plays.get(hash, same) {
        return v;
    }
    let v = Rc::new(sequence_plays_calc(r, h, melds, cap, past));
    let cost = melds_bytes(melds.len()) + 32 + v.iter().map(|p| std::mem::size_of::<SeqPlay>() + melds_bytes(p.1.capacity())).sum::<usize>();
    r.memo.seq_plays.insert(hash, (*h, melds.to_vec(), cap, past), v.clone(), cost);
    v
}

type SuitOpt = (Vec<i32>, Vec<(i32, i32, i32)>, bool);

/// The longest a sequence may grow in these plays.
fn seq_top(r: &Rules, cap: bool, past: bool) -> i32 {
    if !cap {
        if past { r.seq_hi as i32 - r.seq_lo as i32 + 1 } else { r.seq_max }
    } else {
        r.seq_max.min(r.cs - 1)
    }
}

/// Whether `sequence_plays_calc` finds any play but the play of no sequence: a run of
/// `seq_min` cards of a suit held, or a card held that lengthens a sequence of the side.
fn any_sequence_play(r: &Rules, h: &Hand, melds: &[Meld], top: i32) -> bool {
    let (lo, hi) = (r.seq_lo as i32, r.seq_hi as i32);
    let held = |rk: i32, suit: i32| lo <= rk && rk <= hi && h[(4 * rk - 1 + suit) as usize] != 0;
    for m in melds {
        if m.rank >= SEQ && m.nat < top {
            let (suit, low) = (seq_suit(m.rank) as i32, seq_low(m.rank) as i32);
            if held(low - 1, suit) || held(low + m.nat, suit) {
                return true;
            }
        }
    }
    if top < r.seq_min {
        return false;
    }
    for suit in 0..4 {
        let mut run = 0;
        for rk in lo..=hi {
            run = if held(rk, suit) { run + 1 } else { 0 };
            if run >= r.seq_min {
                return true;
            }
        }
    }
    false
}

fn sequence_plays_calc(r: &Rules, h: &Hand, melds: &[Meld], cap: bool, past: bool) -> Vec<SeqPlay> {
    let (lo, hi) = (r.seq_lo as i32, r.seq_hi as i32);
    let top = seq_top(r, cap, past);
    let mut per_suit: Vec<Vec<SuitOpt>> = vec![];
    for suit in 0..4u8 {
        let mut cnt = [0i32; 15];
        for rk in lo..=hi {
            cnt[rk as usize] = h[(4 * rk - 1 + suit as i32) as usize] as i32;
        }
        let ext: Vec<(i32, i32, i32)> = melds
            .iter()
            .enumerate()
            .filter(|(_, m)| m.rank >= SEQ && seq_suit(m.rank) == suit)
            .map(|(i, m)| (i as i32, seq_low(m.rank) as i32, m.nat))
            .collect();
        let mut opts: Vec<SuitOpt> = vec![];
        let mut used = vec![0i32; 15];
        let mut changes = Vec::with_capacity(8);
        suit_options(r, &mut cnt, &ext, 0, &mut changes, lo, r.seq_min, top, &mut opts, &mut used, false);
        per_suit.push(opts);
    }
    let vals = &r.values;
    // each suit's ways as (cards used per rank, points, changed melds, a canasta made)
    let mut ways: Vec<Vec<(Vec<(i32, i32)>, i32, Vec<(i32, Meld)>, bool)>> = vec![];
    for suit in 0..4u8 {
        let mut lst = vec![];
        for (used, changes, made) in &per_suit[suit as usize] {
            let pairs: Vec<(i32, i32)> = (lo..=hi).filter(|&rk| used[rk as usize] != 0).map(|rk| (rk, used[rk as usize])).collect();
            let pts = pairs.iter().map(|&(rk, n)| vals[rk as usize] * n).sum();
            let ch = changes.iter().map(|&(i, low, len)| (i, Meld::new(seq_rank(suit, low as u8), len, 0, 0, 0))).collect();
            lst.push((pairs, pts, ch, *made));
        }
        ways.push(lst);
    }
    let combos = ways.iter().fold(1usize, |n, w| n.saturating_mul(w.len()));
    let mut out: Vec<SeqPlay> = Vec::with_capacity(combos.min(SEQ_PLAN_LIMIT));
    let base = h.first15();
    'outer: for a in &ways[0] {
        for b in &ways[1] {
            for c in &ways[2] {
                for d in &ways[3] {
                    let mut hl = base;
                    // the melds changed in place, new ones after them in the order of the suits
                    let mut ml: Melds = Vec::with_capacity(melds.len() + 4);
                    ml.extend_from_slice(melds);
                    let mut pts = 0;
                    let mut canasta = false;
                    for (pairs, p, ch, made) in [a, b, c, d] {
                        if *made {
                            canasta = true;
                        }
                        pts += p;
                        for &(rk, n) in pairs {
                            hl.c[rk as usize] = (hl.c[rk as usize] as i32 - n) as u8;
                        }
                        for &(i, m) in ch {
                            if i >= 0 {
                                ml[i as usize] = m;
                            } else {
                                ml.push(m);
                            }
                        }
                    }
                    out.push((hl, ml, pts, canasta));
                    if out.len() >= SEQ_PLAN_LIMIT {
                        break 'outer;
                    }
                }
            }
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn suit_options(r: &Rules, cnt: &mut [i32; 15], ext: &[(i32, i32, i32)], e: usize, changes: &mut Vec<(i32, i32, i32)>, start: i32,
                min_len: i32, top: i32, out: &mut Vec<SuitOpt>, used: &mut Vec<i32>, made: bool) {
    let (lo, hi) = (r.seq_lo as i32, r.seq_hi as i32);
    if out.len() >= SEQ_PLAN_LIMIT {
        return;
    }
    if e < ext.len() {
        let (i, low, length) = ext[e];
        let mut downs = 0;
        while low - downs - 1 >= lo && cnt[(low - downs - 1) as usize] > 0 && length + downs + 1 <= top {
            downs += 1;
        }
        for d in 0..=downs {
            for rk in low - d..low {
                cnt[rk as usize] -= 1;
                used[rk as usize] += 1;
            }
            let mut ups = 0;
            let high = low + length - 1;
            while high + ups + 1 <= hi && cnt[(high + ups + 1) as usize] > 0 && length + d + ups + 1 <= top {
                ups += 1;
            }
            for u in 0..=ups {
                for rk in high + 1..high + u + 1 {
                    cnt[rk as usize] -= 1;
                    used[rk as usize] += 1;
                }
                // the changes so far, and this one (taken off again after: the callee reads them)
                let grown = d != 0 || u != 0;
                if grown {
                    changes.push((i, low - d, length + d + u));
                }
                suit_options(r, cnt, ext, e + 1, changes, lo, r.seq_min, top, out, used,
                             made || (length < r.cs && r.cs <= length + d + u));
                if grown {
                    changes.pop();
                }
                for rk in high + 1..high + u + 1 {
                    cnt[rk as usize] += 1;
                    used[rk as usize] -= 1;
                }
            }
            for rk in low - d..low {
                cnt[rk as usize] += 1;
                used[rk as usize] -= 1;
            }
        }
        return;
    }
    out.push((used.clone(), changes.to_vec(), made));
    for s in start..(hi - r.seq_min + 2) {
        if cnt[s as usize] == 0 {
            continue;
        }
        let first = if s == start { min_len } else { r.seq_min };
        let mut n = 0;
        while s + n <= hi && cnt[(s + n) as usize] > 0 && n < top {
            n += 1;
        }
        for length in first..=n {
            for rk in s..s + length {
                cnt[rk as usize] -= 1;
                used[rk as usize] += 1;
            }
            changes.push((-1, s, length));
            suit_options(r, cnt, ext, e, changes, s, length, top, out, used, made || length >= r.cs);
            changes.pop();
            for rk in s..s + length {
                cnt[rk as usize] += 1;
                used[rk as usize] -= 1;
            }
        }
    }
}
