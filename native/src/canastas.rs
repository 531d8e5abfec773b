//! What a side's melds allow and lack, as the planners measure them (`canasta/_core/_canastas.py`):
//! the room a meld has for wild cards (`meld_room`, `add_wild_cap`) and the canastas the side has
//! and still needs to go out (`side_canastas`, `kinds_short`, `ranks_short`, `canastas_ok`). Built
//! on `rules.rs`; the planners (`greedy.rs`, `sequences.rs`, `meldable.rs`, `plan.rs`,
//! `opening.rs`) and the checks above them use it.

use crate::cards::*;
use crate::rules::{Meld, Rules, BIG};

pub const RANKS: std::ops::Range<u8> = 4..15;

/// A planned meld whose fifth item is `LOCK` takes no wild card: it is the natural meld an
/// initial meld must include (`comp_options`), kept natural to the end of the turn.
pub const LOCK: u8 = 2;

/// The bytes a vector of `n` melds holds on the heap (the heap's blocks are of 16 bytes).
pub fn melds_bytes(n: usize) -> usize {
    (n * std::mem::size_of::<Meld>()).div_ceil(16) * 16
}

pub fn meld_room(r: &Rules, m: &Meld, opening: bool) -> i32 {
    if opening && !r.initial_canasta {
        return 0.max(r.cs - 1 - m.size());
    }
    if r.closed {
        return 0.max(r.cs - m.size());
    }
    BIG
}

pub fn add_wild_cap(r: &Rules, m: &Meld, extra_nat: i32) -> i32 {
    let rank = m.rank;
    if rank == WILD {
        if r.deuce {
            // italian 4.3: the jokers a meld of deuces still takes (its deuces are its naturals)
            return 0.max((r.cs - m.size()).min(r.wild_cap(m.tw) - m.jk));
        }
        let room = if r.wild_meld_max < BIG { 0.max(r.wild_meld_max - (m.jk + m.tw)) } else { BIG };
        if !r.wild_on_canasta {
            // samba 4.7: the last wild card goes on while the meld is not yet a canasta
            return room.min(0.max(r.cs - (m.jk + m.tw)));
        }
        return room;
    }
    if rank == B3 {
        return 0;
    }
    if r.natural_only_has(rank) || (r.stay_natural_has(rank) && m.jk + m.tw == 0) {
        return 0;
    }
    if m.r3 == LOCK {
        return 0; // the initial meld's natural meld stays natural (comp_options)
    }
    if !r.wild_on_canasta && r.is_canasta(m) {
        return 0;
    }
    let nat = m.nat + extra_nat;
    let cap = r.wild_cap(nat);
    if r.unlimited && nat + cap >= r.cs && nat >= r.cmin_nat {
        return BIG;
    }
    if !r.wild_on_canasta {
        return room_before_canasta(r, m, extra_nat);
    }
    0.max(cap - m.jk - m.tw)
}

/// `add_wild_cap` where no wild card may be added to a canasta (samba 4.7): every wild card goes
/// on while the meld is not yet a canasta, after `x` of the `extra_nat` naturals (the best `x`).
fn room_before_canasta(r: &Rules, m: &Meld, extra_nat: i32) -> i32 {
    let mut best = 0;
    for x in 0..=extra_nat.max(0) {
        let nat = m.nat + x;
        let mut w = r.wild_cap(nat);
        if nat >= r.cmin_nat {
            w = w.min(r.cs - nat);
        }
        if w > best {
            best = w;
        }
    }
    0.max(best - m.jk - m.tw)
}

pub fn side_canastas(r: &Rules, melds: &[Meld]) -> i32 {
    let mut n = 0;
    if !r.count_all {
        return counted_canastas(r, melds);
    }
    for m in melds {
        if m.size() >= r.cs && (m.rank == WILD || m.nat >= r.cmin_nat) {
            n += 1;
        }
    }
    n
}

/// Canastas among `melds` of the kinds `going_out.counted_kinds` lists (italian 6.1: a canasta
/// of wild cards does not count).
pub fn counted_canastas(r: &Rules, melds: &[Meld]) -> i32 {
    let [nat, mixed, wild, seq, rank] = r.counted;
    let mut n = 0;
    for m in melds {
        if r.is_canasta(m) {
            n += if m.rank >= SEQ {
                seq
            } else if m.rank == WILD {
                wild
            } else if r.rank_bonus_by.iter().any(|(k, _)| *k == m.rank) {
                rank // scoring.rank_canastas: a kind of its own
            } else if m.jk + m.tw != 0 {
                mixed
            } else {
                nat
            };
        }
    }
    n
}

pub fn kinds_short(r: &Rules, melds: &[Meld]) -> [i32; 4] {
    let Some(need) = r.kinds_needed else { return [0; 4] };
    let (mut nat, mut mixed, mut wild, mut seq) = (0, 0, 0, 0);
    for m in melds {
        if r.is_canasta(m) {
            if m.rank >= SEQ {
                seq += 1;
            } else if m.rank == WILD {
                wild += 1;
            } else if r.rank_bonus_by.iter().any(|(k, _)| *k == m.rank) {
                // a rank canasta (scoring.rank_canastas) is neither natural nor mixed
            } else if m.jk + m.tw != 0 {
                mixed += 1;
            } else {
                nat += 1;
            }
        }
    }
    [0.max(need[0] - nat), 0.max(need[1] - mixed), 0.max(need[2] - wild), 0.max(need[3] - seq)]
}

/// `_canastas.ranks_short`: per rank of `going_out.canastas_by_rank`, the rank and the canastas of it
/// the side still lacks, flattened.
pub fn ranks_short(r: &Rules, melds: &[Meld]) -> Vec<i64> {
    let mut out = Vec::with_capacity(2 * r.rank_needed.len());
    for &(rank, need) in &r.rank_needed {
        let have = melds.iter().filter(|m| m.rank == rank && r.is_canasta(m)).count() as i32;
        out.push(rank as i64);
        out.push(0.max(need - have) as i64);
    }
    out
}

/// Whether the side has the canastas of each rank `going_out.canastas_by_rank` asks.
pub fn ranks_met(r: &Rules, melds: &[Meld]) -> bool {
    r.rank_needed.iter().all(|&(rank, need)| melds.iter().filter(|m| m.rank == rank && r.is_canasta(m)).count() as i32 >= need)
}

pub fn canastas_ok(r: &Rules, melds: &[Meld]) -> bool {
    side_canastas(r, melds) >= r.canastas_needed
        && (r.kinds_needed.is_none()
            || (kinds_short(r, melds).iter().all(|&x| x == 0) && (r.rank_needed.is_empty() || ranks_met(r, melds))))
}

/// Bit `1 << rank` for each rank with a meld that can still grow (not a closed canasta).
pub fn open_ranks(r: &Rules, melds: &[Meld]) -> i64 {
    let mut mask: i64 = 0;
    for m in melds {
        if !(r.closed && m.size() >= r.cs) && m.rank < 63 {
            mask |= 1i64 << m.rank;
        }
    }
    mask
}
