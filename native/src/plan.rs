//! Turn planning (`canasta/_core/_plan.py`): can the initial minimum still be met, can this
//! player still go out? Ported line by line; the memoised searches keep their memos on the
//! table's `Rules` (pure functions: what is cached never changes an answer).

use crate::cards::*;
use crate::kernel::Hand;
use crate::rules::{Meld, Melds, Rules, BIG, COMP_CANASTA, COMP_CLEAN, COMP_MIXED, COMP_NATURAL, COMP_SEQ, COMP_WILD};
use std::cell::{Cell, RefCell};
use crate::fx::FxMap as HashMap;
use std::rc::Rc;

const RANKS: std::ops::Range<u8> = 4..15;

/// A planned meld whose fifth item is `LOCK` takes no wild card: it is the natural meld an
/// initial meld must include (`comp_options`), kept natural to the end of the turn.
pub const LOCK: u8 = 2;

/// Most combinations of sequence plays tried per question (`SEQ_PLAN_LIMIT`).
pub const SEQ_PLAN_LIMIT: usize = 1024;

/// (the hand left, as 15 counts per kind; the melds after; the points melded; a sequence
/// became a canasta)
pub type SeqPlay = (Hand, Melds, i32, bool);

type OpenKey = (Hand, Melds, i32, Hand, bool, bool, i32);
type SeqKey = (Hand, Melds, bool, bool);

/// A memo keyed by the hash of its key, each entry keeping its key to compare: a lookup hashes
/// the borrowed parts and allocates nothing (the key is copied only when an answer is stored).
///
/// Bounded by its entries and by the bytes they hold (`cost`, counted as the heap counts them):
/// when an answer would pass either bound the memo is emptied first. Answers are pure functions of their
/// keys, so what is kept changes no answer, only the time to find it.
pub struct Memo<K, V> {
    map: RefCell<HashMap<u64, Vec<(K, V)>>>,
    len: Cell<usize>,
    bytes: Cell<usize>,
    cap: usize,
    cap_bytes: usize,
}

impl<K, V: Clone> Memo<K, V> {
    fn new(cap: usize, cap_bytes: usize) -> Self {
        Memo { map: RefCell::new(HashMap::default()), len: Cell::new(0), bytes: Cell::new(0), cap, cap_bytes }
    }
    fn get(&self, hash: u64, same: impl Fn(&K) -> bool) -> Option<V> {
        self.map.borrow().get(&hash).and_then(|v| v.iter().find(|(k, _)| same(k)).map(|(_, x)| x.clone()))
    }
    /// Keeps `value` for `key`; `cost`: the bytes the entry holds beyond its slot.
    fn insert(&self, hash: u64, key: K, value: V, cost: usize) {
        let mut map = self.map.borrow_mut();
        // the entry, and its slot in the table (a u64 key and a Vec)
        let cost = cost + std::mem::size_of::<(K, V)>() + 32;
        if self.len.get() >= self.cap || self.bytes.get() + cost > self.cap_bytes {
            *map = HashMap::default(); // (its table too: a bound on what the memo holds)
            self.len.set(0);
            self.bytes.set(0);
        }
        map.entry(hash).or_default().push((key, value));
        self.len.set(self.len.get() + 1);
        self.bytes.set(self.bytes.get() + cost);
    }
}

/// The entries and bytes a planner memo may hold, per table (variant and number of players) in
/// use: bounded by entries only, the sequence plays of large samba and brazilian hands (up to
/// `SEQ_PLAN_LIMIT` plays an answer) kept hundreds of MB.
pub const OPEN_MEMO: (usize, usize) = (1 << 14, 2 << 20);
pub const SEQ_MEMO: (usize, usize) = (512, 4 << 20);

/// The bytes a vector of `n` melds holds on the heap (the heap's blocks are of 16 bytes).
fn melds_bytes(n: usize) -> usize {
    (n * std::mem::size_of::<Meld>()).div_ceil(16) * 16
}

fn key_hash(parts: impl FnOnce(&mut crate::fx::Fx)) -> u64 {
    use std::hash::Hasher;
    let mut f = crate::fx::Fx::default();
    parts(&mut f);
    f.finish()
}

pub struct Memos {
    open_then_out: Memo<OpenKey, bool>,
    seq_plays: Memo<SeqKey, Rc<Vec<SeqPlay>>>,
}

impl Default for Memos {
    fn default() -> Self {
        Memos { open_then_out: Memo::new(OPEN_MEMO.0, OPEN_MEMO.1), seq_plays: Memo::new(SEQ_MEMO.0, SEQ_MEMO.1) }
    }
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
fn counted_canastas(r: &Rules, melds: &[Meld]) -> i32 {
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

/// `_plan.ranks_short`: per rank of `going_out.canastas_by_rank`, the rank and the canastas of it
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
/// cards so saved could go on `m` instead (`_plan._natural_new_meld`).
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

// ------------------------------------------------------------------ sequences (melds.sequences)

/// Naturals held once, of a rank with no open group of the side, that no sequence could take.
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

fn sequence_plays_calc(r: &Rules, h: &Hand, melds: &[Meld], cap: bool, past: bool) -> Vec<SeqPlay> {
    let (lo, hi) = (r.seq_lo as i32, r.seq_hi as i32);
    let top = if !cap {
        if past { hi - lo + 1 } else { r.seq_max }
    } else {
        r.seq_max.min(r.cs - 1)
    };
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
