//! A side's melds, summarised once when they change (`canasta/_core/_table.py`).

use crate::cards::*;
use crate::rules::{Meld, Melds, Rules};

/// A meld that additions may go to.
#[derive(Clone, Debug)]
pub struct AddEntry {
    pub i: usize,
    pub r: u8,
    pub number: i32,
    pub m: Meld,
    pub size: i32,
    /// a closed canasta
    pub full: bool,
    /// a wild card may go on it
    pub wild_room: bool,
    /// ids of adding a natural, a joker, a deuce, a red three
    pub ids: [i32; 4],
    /// an earlier meld is just like it
    pub twins: bool,
}

/// Two melds of one rank that may be combined: (action id, the side's melds after, indices).
#[derive(Clone, Debug)]
pub struct CombineEntry {
    pub id: i32,
    pub melds: Melds,
    pub ia: usize,
    pub ib: usize,
}

#[derive(Clone, Debug, Default)]
pub struct SideInfo {
    pub rank_mask: i64,
    pub open_mask: i64,
    pub canastas: i32,
    pub adds: Vec<AddEntry>,
    pub combines: Vec<CombineEntry>,
    pub b3: i32,
    pub wild: bool,
    pub repeated: bool,
}

fn is_canasta(r: &Rules, m: &Meld) -> bool {
    m.nat + m.jk + m.tw >= r.cs && (m.rank == WILD || m.nat >= r.cmin_nat)
}

/// Whether a wild card may still go on the meld `m`.
pub fn has_wild_room(r: &Rules, m: &Meld) -> bool {
    let (rank, nat, jk, tw) = (m.rank, m.nat, m.jk, m.tw);
    if rank == WILD {
        return nat + jk + tw < r.wild_meld_max;
    }
    if rank == B3 || ((r.no_wild_mask >> rank) & 1 == 1 && (r.natural_only_has(rank) || jk + tw == 0)) {
        return false; // modern-american 4.4, 4.5
    }
    let cap = r.wild_cap(nat);
    if !r.wild_on_canasta && nat + jk + tw >= r.cs && nat >= r.cmin_nat {
        return false; // samba 4.7
    }
    (r.unlimited && nat + cap >= r.cs && nat >= r.cmin_nat) || cap > jk + tw
}

fn add_ids(r: &Rules, rank: u8, number: i32) -> [i32; 4] {
    let row = &r.add_ids[rank as usize];
    if number >= 0 && (number as usize) < row.len() { row[number as usize] } else { [-1; 4] }
}

/// Summarise a side's melds.
pub fn side_info(r: &Rules, melds: &[Meld]) -> SideInfo {
    let mut rank_mask: i64 = 0;
    let mut open_mask: i64 = 0;
    let mut canastas = 0;
    let mut b3 = -1;
    let mut counts = [0i32; WILD as usize + 1];
    let mut adds: Vec<AddEntry> = Vec::with_capacity(melds.len());
    let mut repeated = false;
    for (i, m) in melds.iter().enumerate() {
        let size = m.size();
        if m.rank >= SEQ {
            repeated = true;
            if size >= r.cs {
                canastas += 1;
            }
            continue;
        }
        let bit = 1i64 << m.rank;
        if rank_mask & bit != 0 {
            repeated = true;
        }
        rank_mask |= bit;
        let full = r.closed && size >= r.cs;
        if !full {
            open_mask |= bit;
        }
        if size >= r.cs && (m.rank == WILD || m.nat >= r.cmin_nat) {
            canastas += 1;
        }
        let number = counts[m.rank as usize] + 1;
        counts[m.rank as usize] = number;
        if m.rank == B3 {
            b3 = i as i32;
        }
        // an earlier meld just like it (only where an earlier meld has its rank)
        let twins = number > 1 && melds[..i].contains(m);
        adds.push(AddEntry {
            i,
            r: m.rank,
            number,
            m: *m,
            size,
            full,
            wild_room: has_wild_room(r, m),
            ids: add_ids(r, m.rank, number),
            twins,
        });
    }
    if repeated && adds.len() > 1 {
        // keep additions grouped by rank, ranks in the order of their first meld
        let mut first = [usize::MAX; WILD as usize + 1];
        for (k, e) in adds.iter().enumerate() {
            if first[e.r as usize] == usize::MAX {
                first[e.r as usize] = k;
            }
        }
        adds.sort_by_key(|e| (first[e.r as usize], e.i));
    }
    let mut combines: Vec<CombineEntry> = vec![];
    if r.combine && repeated {
        for rank in 4..15u8 {
            if counts[rank as usize] < 2 {
                continue;
            }
            let idxs: Vec<usize> = (0..melds.len()).filter(|&i| melds[i].rank == rank).collect();
            for a in 0..idxs.len() {
                for b in a + 1..idxs.len() {
                    let m1 = melds[idxs[a]];
                    let m2 = melds[idxs[b]];
                    if m1.jk + m1.tw + m2.jk + m2.tw > r.max_wild {
                        continue;
                    }
                    if !r.wild_on_canasta
                        && ((is_canasta(r, &m1) && m2.jk + m2.tw != 0) || (is_canasta(r, &m2) && m1.jk + m1.tw != 0))
                    {
                        continue; // samba 4.7
                    }
                    if r.closed && m1.size() + m2.size() > r.cs {
                        continue; // no closed canasta past its size (combine_problem)
                    }
                    let mut new: Melds = (0..melds.len()).filter(|&j| j != idxs[b]).map(|j| melds[j]).collect();
                    new[idxs[a]] = Meld::new(rank, m1.nat + m2.nat, m1.jk + m2.jk, m1.tw + m2.tw, 0);
                    let id = r.id_combine.get(&(rank as i32, a as i32 + 1, b as i32 + 1)).map(|&x| x as i32).unwrap_or(-1);
                    combines.push(CombineEntry { id, melds: new, ia: idxs[a], ib: idxs[b] });
                }
            }
        }
        if combines.len() > 1 {
            let first = |rank: i32| melds.iter().position(|m| m.rank as i32 == rank).unwrap_or(usize::MAX);
            combines.sort_by_key(|ce| first(r.specs[ce.id as usize].a));
        }
    }
    SideInfo {
        rank_mask,
        open_mask,
        canastas,
        adds,
        combines,
        b3,
        wild: (rank_mask >> WILD) & 1 == 1,
        repeated,
    }
}

fn entry(r: &Rules, i: usize, m: &Meld, number: i32) -> AddEntry {
    let size = m.size();
    AddEntry {
        i,
        r: m.rank,
        number,
        m: *m,
        size,
        full: r.closed && size >= r.cs,
        wild_room: has_wild_room(r, m),
        ids: add_ids(r, m.rank, number),
        twins: false,
    }
}

/// The summary after meld `i` grew (same rank), from the summary before.
pub fn grown_info(r: &Rules, info: &SideInfo, melds: &[Meld], i: usize) -> SideInfo {
    if info.repeated {
        return side_info(r, melds);
    }
    let m = melds[i];
    let old = &info.adds[i];
    let e = entry(r, i, &m, 1);
    let open_mask = if e.full { info.open_mask & !(1i64 << m.rank) } else { info.open_mask };
    let canastas = info.canastas + (is_canasta(r, &m) as i32 - is_canasta(r, &old.m) as i32);
    let mut adds = info.adds.clone();
    adds[i] = e;
    SideInfo {
        rank_mask: info.rank_mask,
        open_mask,
        canastas,
        adds,
        combines: info.combines.clone(),
        b3: info.b3,
        wild: info.wild,
        repeated: false,
    }
}

/// The summary after a new meld was laid (the last of `melds`), from the summary before.
pub fn appended_info(r: &Rules, info: &SideInfo, melds: &[Meld]) -> SideInfo {
    let i = melds.len() - 1;
    let m = melds[i];
    if m.rank >= SEQ || info.repeated || info.rank_mask & (1i64 << m.rank) != 0 {
        return side_info(r, melds);
    }
    let bit = 1i64 << m.rank;
    let e = entry(r, i, &m, 1);
    let open_mask = if e.full { info.open_mask } else { info.open_mask | bit };
    let mut adds = info.adds.clone();
    adds.push(e);
    SideInfo {
        rank_mask: info.rank_mask | bit,
        open_mask,
        canastas: info.canastas + is_canasta(r, &m) as i32,
        adds,
        combines: info.combines.clone(),
        b3: if m.rank == B3 { i as i32 } else { info.b3 },
        wild: info.wild || m.rank == WILD,
        repeated: false,
    }
}

/// The index of the first meld just like meld `i` and on the same side of the turn's start;
/// `i` itself if none comes first.
pub fn first_alike(melds: &[Meld], i: usize, melds_before: usize) -> usize {
    let m = melds[i];
    let own = i >= melds_before;
    for j in 0..i {
        if melds[j] == m && (j >= melds_before) == own {
            return j;
        }
    }
    i
}
