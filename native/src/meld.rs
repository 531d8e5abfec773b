//! After the draw: melding, adding, combining, asking, discarding, `done` and `retract`
//! (`canasta/_core/_meld.py`).

use crate::cards::*;
use crate::finish::*;
use crate::kernel::*;
use crate::opening::comp_met;
use crate::plan::{can_go_out_t, reach};
use crate::reasons::*;
use crate::rules::*;
use crate::table::first_alike;
use crate::{text, why};

fn minus(h: &Hand, cards: &[u8]) -> Hand {
    let mut hl = *h;
    for &k in cards {
        hl.c[k as usize] = hl.c[k as usize].wrapping_sub(1);
    }
    hl
}

fn minus1(h: &Hand, k: u8) -> Hand {
    let mut hl = *h;
    hl.c[k as usize] = hl.c[k as usize].wrapping_sub(1);
    hl
}

fn less_cards(h: &Hand, cards: &[u8]) -> Hand {
    let mut hl = *h;
    for &k in cards {
        hl.remove_card(k);
    }
    hl
}

fn ints(v: &[u8]) -> V {
    V::C(v.iter().map(|&x| x as i64).collect())
}

/// 'You hold no 7' when `cards` are not all in `h`.
pub fn held_problem(h: &Hand, cards: &[u8]) -> Option<Reason> {
    for &k in cards {
        if h.at(k) < cards.iter().filter(|&&x| x == k).count() as i32 {
            return Some(why![HELD, V::H(*h), ints(cards)]);
        }
    }
    None
}

pub fn meld_shape_problem(r: &Rules, m: &Meld) -> Option<Reason> {
    if r.valid(m) { None } else { Some(why![MELD_SHAPE, V::One(*m)]) }
}

pub fn b3_last_ok(r: &Rules, h2: &Hand, fin: bool) -> bool {
    let n = h2.sum15();
    n == 0 || (n == 1 && !fin && !r.b3_final)
}

pub fn need_left(c: &Core, side: usize) -> i32 {
    if c.opened[side] {
        return 0;
    }
    0.max(c.r().initial_need(c.totals[side], c.d.hand_number) - c.count)
}

// ------------------------------------------------------------------ modern-american's meld rules

pub fn wild_open(r: &Rules, melds: &[Meld]) -> bool {
    melds.iter().any(|m| m.rank == WILD && !r.is_canasta(m))
}

/// Why a wild card may not go into the natural meld `m` (None: a new meld) now, or None.
pub fn wild_rule(c: &Core, melds: &[Meld], m: Option<&Meld>) -> Option<String> {
    let r = c.r();
    if let Some(m) = m {
        if r.stay_natural_has(m.rank) && m.jk + m.tw == 0 {
            return Some(format!("a meld of {} laid without a wild card stays natural: it never takes one", plural(m.rank)));
        }
    }
    if r.wild_min_nat != 0 && c.melds_before != 0 {
        match m {
            None => {
                return Some(format!("after your side's initial meld a new meld has no wild card: wild cards go only \
onto a meld of {} or more natural cards", num(r.wild_min_nat as i64)));
            }
            Some(m) if m.nat < r.wild_min_nat => {
                return Some(format!("after your side's initial meld a wild card goes only onto a meld of \
{} or more natural cards (this one has {})", num(r.wild_min_nat as i64), num(m.nat as i64)));
            }
            _ => {}
        }
    }
    if r.wild_excl && wild_open(r, melds) {
        return Some("while your side's meld of wild cards is not a canasta, wild cards go only onto it".to_string());
    }
    if r.no_wild && c.melds_before == 0 {
        return Some(NO_WILD_TEXT.to_string());
    }
    None
}

pub const NO_WILD_TEXT: &str = "no wild card goes into a meld in the turn of your side's initial meld: its melds are all natural";
const DEUCE_EXCL_TEXT: &str = "while your side's meld of deuces is not a canasta, deuces go only onto it (jokers may go elsewhere)";

/// `_meldrules.card_rule`: why jokers `jk` and deuces `tw` may not go into a meld of rank `rk`
/// now (italian 4.5: none in the initial meld's turn; 4.4: deuces only onto the open meld of deuces).
pub fn card_rule(c: &Core, melds: &[Meld], rk: u8, jk: i32, tw: i32) -> Option<String> {
    let r = c.r();
    if r.no_wild && (jk != 0 || tw != 0) && c.melds_before == 0 {
        return Some(NO_WILD_TEXT.to_string());
    }
    if r.deuce_excl && tw != 0 && rk != WILD && deuce_open(r, melds) {
        return Some(DEUCE_EXCL_TEXT.to_string());
    }
    None
}

/// The side has a meld of deuces that is not yet a canasta (italian 4.4).
pub fn deuce_open(r: &Rules, melds: &[Meld]) -> bool {
    melds.iter().any(|m| m.rank == WILD && m.size() < r.cs)
}

// ------------------------------------------------------------------ new melds

/// Why laying the new meld `probe` (cards from the hand) is refused, or None.
pub fn meld_problem(c: &Core, seat: usize, probe: &Spec) -> Option<Reason> {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let h = &c.hand(seat);
    let melds = c.melds(side);
    let cards = probe.cards.s();
    if let Some(w) = held_problem(h, cards) {
        return Some(w);
    }
    let first = cards[0];
    let rk = if first <= TWO { WILD } else { kind(first) };
    if first > 14 && kind(cards[1]) != rk {
        return sequence_problem(c, seat, probe);
    }
    let vals = &r.values;
    let mut gain = 0;
    let mut nat = 0;
    for &k in cards {
        gain += vals[k as usize];
        if k > TWO {
            nat += 1;
        }
    }
    let h2 = less_cards(h, cards);
    let nm = Meld::new(rk, nat, probe.cards.count(JK), probe.cards.count(TWO), 0);
    let after = || MeldBuf::with_push(melds, nm);
    if rk == B3 {
        if melds.iter().any(|m| m.rank == B3) {
            return Some(just(B3_EXISTS));
        }
        if c.phase == PH_INITIAL_TAKE {
            return Some(just(B3_INITIAL_TAKE));
        }
        if let Some(w) = ok_problem(c, seat, &h2, &after(), gain, true, probe) {
            return Some(w);
        }
        if r.b3_last && !b3_last_ok(r, &h2, c.phase == PH_FINAL_MELD) {
            return Some(just(if r.b3_final { B3_LAST_CARDS } else { B3_LAST }));
        }
        return None;
    }
    if rk == WILD {
        if melds.iter().any(|m| m.rank == WILD) {
            return Some(just(WILD_EXISTS));
        }
    } else if !r.multi && melds.iter().any(|m| m.rank == rk && r.blocks_new(m)) {
        return Some(why![RANK_EXISTS, int(rk)]);
    }
    if rk != WILD && (dead_mask(c) >> rk) & 1 == 1 {
        return Some(why![DEAD_RANK, int(rk)]);
    }
    if let Some(w) = meld_shape_problem(r, &nm) {
        return Some(w);
    }
    if rk != WILD && nm.jk + nm.tw != 0 {
        if let Some(t) = wild_rule(c, melds, None) {
            return Some(why![WILD_RULE, V::S(t)]);
        }
    }
    if r.deuce_excl || r.no_wild {
        if let Some(t) = card_rule(c, melds, rk, nm.jk, nm.tw) {
            return Some(why![WILD_RULE, V::S(t)]);
        }
    }
    ok_problem(c, seat, &h2, &after(), gain, false, probe)
}

/// Why laying the new sequence `probe` is refused, or None.
pub fn sequence_problem(c: &Core, seat: usize, probe: &Spec) -> Option<Reason> {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let cards = probe.cards.s();
    let st = suit(cards[0]);
    let low = kind(cards[0]);
    for (j, &k) in cards.iter().enumerate() {
        if k < 15 {
            return Some(text!("a sequence holds natural cards only: no wild card and no three (samba 4.3)"));
        }
        if suit(k) != st {
            return Some(text!("a sequence must be one suit (samba 4.3)"));
        }
        if kind(k) as usize != low as usize + j {
            return Some(text!("a sequence's cards are in consecutive rank order, lowest first, with no gap; the ace \
is high only (samba 4.3)"));
        }
    }
    let nm = Meld::new(seq_rank(st, low), cards.len() as i32, 0, 0, 0);
    if !r.seq_valid(&nm) {
        return Some(text!("a sequence runs from {} to {} and holds {} to {} cards", r.seq_lowest, r.seq_highest,
                                 num(r.seq_min as i64), num(r.seq_max as i64)));
    }
    let dead = dead_mask(c);
    if dead != 0 && cards.iter().any(|&k| (dead >> kind(k)) & 1 == 1) {
        return Some(why![DEAD_RANK, int(kind(cards[0]))]);
    }
    let gain: i32 = cards.iter().map(|&k| r.values[k as usize]).sum();
    let after = MeldBuf::with_push(c.melds(side), nm);
    ok_problem(c, seat, &less_cards(&c.hand(seat), cards), &after, gain, false, probe)
}

/// Why adding a card to the side's sequence (meld `i`) is refused, or None.
pub fn add_sequence_problem(c: &Core, seat: usize, probe: &Spec, i: usize) -> Option<Reason> {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let melds = c.melds(side);
    let (k, key, number) = (probe.a as u8, probe.b, probe.c);
    let m = melds[i];
    let same: Vec<usize> = (0..melds.len()).filter(|&j| meld_key(melds[j].rank) as i32 == key).collect();
    let fa = first_alike(melds, i, c.melds_before);
    let first = same.iter().position(|&x| x == fa).unwrap() as i32 + 1;
    if first != number {
        let other = Spec::simple(ADD, k as i32, key, first);
        return Some(match add_problem(c, seat, &other) {
            Some(w) => w,
            None => why![TWIN, int(number), int(first), int(key), V::P(other)],
        });
    }
    let sn = SUIT_NAMES[((key - SEQ as i32) & 3) as usize];
    if k < 15 || suit(k) as i32 != key - SEQ as i32 {
        return Some(text!("a sequence of {sn} takes only natural cards of {sn}"));
    }
    let low = seq_low(m.rank) as i32;
    let high = low + m.nat - 1;
    let past = m.nat >= r.seq_max;
    if past && !r.seq_past_max {
        return Some(text!("that sequence is a samba ({} cards): it takes no more cards (samba 4.4)", num(r.seq_max as i64)));
    }
    let kr = kind(k) as i32;
    if kr != low - 1 && kr != high + 1 {
        return Some(text!("the {} does not extend that sequence ({} to {}) at either end", name(k), name(low as u8),
                                 name(high as u8)));
    }
    let nm = Meld::new(seq_rank((key - SEQ as i32) as u8, low.min(kr) as u8), m.nat + 1, 0, 0, 0);
    let after = MeldBuf::with_set(melds, i, nm);
    let h2 = c.hand(seat).less_card(k);
    if past {
        if !may_go_out(c) {
            return Some(text!("a sequence of {} takes another card only in the turn its player goes \
out, and {}", num(r.seq_max as i64), no_out_words(c)));
        }
        if !(r.seq_lo as i32 <= low.min(kr) && high.max(kr) <= r.seq_hi as i32) {
            return Some(text!("a sequence runs from {} to {}", r.seq_lowest, r.seq_highest));
        }
        if let Some(w) = ok_problem(c, seat, &h2, &after, r.values[k as usize], false, probe) {
            return Some(Reason { code: TEXT, items: if !explaining() { Vec::new() } else { vec![V::Wrap(format!("a sequence of {} takes another card only in the turn its player goes out, \
and you could not go out after it (", num(r.seq_max as i64)), Box::new(w), ")".into())] } });
        }
        return None;
    }
    if !r.seq_valid(&nm) {
        return Some(text!("a sequence runs from {} to {}: the ace is high only, with no wrap-around (samba 4.3)",
                                 r.seq_lowest, r.seq_highest));
    }
    if (dead_mask(c) >> kr) & 1 == 1 {
        return Some(why![DEAD_RANK, int(kr)]);
    }
    if ((!c.opened[side] && !r.initial_canasta) || capped(c)) && m.nat + 1 >= r.cs {
        return Some(just(INITIAL_CANASTA));
    }
    ok_problem(c, seat, &h2, &after, r.values[k as usize], false, probe)
}

// ------------------------------------------------------------------ additions

/// Why adding a card to a meld as `probe` says is refused, or None.
pub fn add_problem(c: &Core, seat: usize, probe: &Spec) -> Option<Reason> {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let h = &c.hand(seat);
    let melds = c.melds(side);
    let k = probe.a as u8;
    let rk = probe.b;
    let number = probe.c;
    // the side's melds of this rank (or sequences of this suit), counted without a list
    let is_same = |j: usize| if rk < SEQ as i32 { melds[j].rank as i32 == rk } else { meld_key(melds[j].rank) as i32 == rk };
    let count = (0..melds.len()).filter(|&j| is_same(j)).count();
    if count == 0 {
        return Some(why![ADD_NO_MELD, int(rk)]);
    }
    if number > count as i32 {
        return Some(why![ADD_ONLY, int(rk), int(count as i64)]);
    }
    if h.at(k) == 0 {
        return Some(why![HELD, V::H(*h), ints(&[k])]);
    }
    let i = (0..melds.len()).filter(|&j| is_same(j)).nth((number - 1) as usize).unwrap();
    let m = melds[i];
    if rk >= SEQ as i32 {
        return add_sequence_problem(c, seat, probe, i);
    }
    let rk = rk as u8;
    let fa = first_alike(melds, i, c.melds_before);
    let first = (0..=fa).filter(|&j| is_same(j)).count() as i32;
    if first != number {
        let other = Spec::simple(ADD, k as i32, rk as i32, first);
        return Some(match add_problem(c, seat, &other) {
            Some(w) => w,
            None => why![TWIN, int(number), int(first), int(rk), V::P(other)],
        });
    }
    let vals = &r.values;
    let h2 = h.less_card(k);
    let with = |nm: Meld| MeldBuf::with_set(melds, i, nm);
    if rk == B3 {
        if m.nat >= r.b3_max {
            return Some(just(B3_FULL));
        }
        return ok_problem(c, seat, &h2, &with(Meld::new(B3, m.nat + 1, 0, 0, 0)), vals[B3 as usize], true, probe);
    }
    let size = m.size();
    let full = r.closed && size >= r.cs;
    if k == R3 {
        if !full {
            return Some(why![R3_NOT_CANASTA, int(rk)]);
        }
        if m.jk + m.tw != 0 {
            return Some(why![R3_WILD, int(rk)]);
        }
        if m.r3 != 0 {
            return Some(why![R3_AGAIN, int(rk)]);
        }
        return ok_problem(c, seat, &h2, &with(Meld::new(m.rank, m.nat, 0, 0, 1)), 0, false, probe);
    }
    if full {
        if r.past_closed && rk != WILD {
            return add_past_problem(c, seat, probe, i);
        }
        return Some(why![CLOSED, int(rk)]);
    }
    if rk != WILD && (dead_mask(c) >> rk) & 1 == 1 {
        return Some(why![DEAD_RANK, int(rk)]);
    }
    let nm = Meld::new(m.rank, m.nat + (kind(k) == rk) as i32, m.jk + (k == JK) as i32, m.tw + (k == TWO) as i32, m.r3);
    if k <= TWO && !r.wild_on_canasta && r.is_canasta(&m) {
        return Some(text!("your {} is a canasta: no wild card may be added to a canasta", meld_words(rk)));
    }
    if let Some(w) = meld_shape_problem(r, &nm) {
        return Some(w);
    }
    if rk != WILD && k <= TWO {
        if let Some(t) = wild_rule(c, melds, Some(&m)) {
            return Some(why![WILD_RULE, V::S(t)]);
        }
    }
    if k <= TWO && (r.deuce_excl || r.no_wild) {
        if let Some(t) = card_rule(c, melds, rk, (k == JK) as i32, (k == TWO) as i32) {
            return Some(why![WILD_RULE, V::S(t)]);
        }
    }
    if ((!c.opened[side] && !r.initial_canasta) || capped(c)) && size + 1 >= r.cs {
        return Some(just(INITIAL_CANASTA));
    }
    ok_problem(c, seat, &h2, &with(nm), vals[k as usize], false, probe)
}

/// Why adding a card past the size of the closed canasta `i` is refused, or None
/// (`melds.past_closed_going_out`, modern-american A5): only as the player's last play before
/// going out, within the meld's limits on wild cards.
pub fn add_past_problem(c: &Core, seat: usize, probe: &Spec, i: usize) -> Option<Reason> {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let melds = c.melds(side);
    let m = melds[i];
    let k = probe.a as u8;
    let rk = m.rank;
    let past = || format!("a canasta takes a card past {} only as the last play of a player going out", num(r.cs as i64));
    if !may_go_out(c) {
        return Some(text!("{}, and {}", past(), no_out_words(c)));
    }
    let nm = Meld::new(rk, m.nat + (kind(k) == rk) as i32, m.jk + (k == JK) as i32, m.tw + (k == TWO) as i32, m.r3);
    if !r.valid_past(&nm) {
        if nm.jk + nm.tw != 0 {
            // the shape's words are the Python side's (meld_shape_words)
            let shape = Meld::new(rk, nm.nat, nm.jk, nm.tw, 0);
            return Some(Reason {
                code: TEXT,
                items: if explaining() {
                    vec![V::Wrap(format!("{}, within a meld's limits on wild cards: ", past()),
                                 Box::new(why![MELD_SHAPE, V::One(shape)]), String::new())]
                } else {
                    Vec::new()
                },
            });
        }
        return Some(text!("{}", past()));
    }
    if k <= TWO {
        if let Some(t) = wild_rule(c, melds, Some(&m)) {
            return Some(why![WILD_RULE, V::S(t)]);
        }
    }
    let h2 = c.hand(seat).less_card(k);
    let mut melds2 = melds.clone();
    melds2[i] = nm;
    let left = h2.sum15();
    let down = c.down(seat).any();
    if down || left > 1 {
        if !down {
            return Some(text!("{}: you would still hold {} cards", past(), num(left as i64)));
        }
        return Some(text!("{}, and you still have a down hand to play", past()));
    }
    let comp = comp_due(c, side);
    if !c.opened[side] || (comp.0 != 0 && !comp_met(r, &melds2, comp)) {
        return Some(text!("{}, and your side's initial meld would not be complete", past()));
    }
    if let Some(gate) = out_problem(c, seat, &melds2) {
        return Some(gate);
    }
    if left == 0 && r.by_discard {
        return Some(why![OUT_BY_DISCARD, V::P(*probe)]);
    }
    None
}

// ------------------------------------------------------------------ combining

pub fn combine_problem(c: &Core, seat: usize, probe: &Spec) -> Option<Reason> {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let melds = c.melds(side);
    let (rk, a, b) = (probe.a, probe.b, probe.c);
    let same: Vec<usize> = (0..melds.len()).filter(|&i| melds[i].rank as i32 == rk).collect();
    if same.len() < 2 {
        return Some(why![COMBINE_NONE, int(rk), int(same.len() as i64)]);
    }
    if b > same.len() as i32 {
        return Some(why![ADD_ONLY, int(rk), int(same.len() as i64)]);
    }
    let m1 = melds[same[(a - 1) as usize]];
    let m2 = melds[same[(b - 1) as usize]];
    let mb = c.melds_before;
    let p1 = (m1, same[(a - 1) as usize] >= mb);
    let p2 = (m2, same[(b - 1) as usize] >= mb);
    'outer: for x in 0..same.len() {
        for y in x + 1..same.len() {
            if (x as i32 + 1, y as i32 + 1) == (a, b) {
                break 'outer;
            }
            let px = (melds[same[x]], same[x] >= mb);
            let py = (melds[same[y]], same[y] >= mb);
            if (px == p1 && py == p2) || (px == p2 && py == p1) {
                let other = Spec::simple(COMBINE, rk, x as i32 + 1, y as i32 + 1);
                return Some(match combine_problem(c, seat, &other) {
                    Some(w) => w,
                    None => why![SAME_COMBINE, int(rk), V::P(other)],
                });
            }
        }
    }
    if m1.jk + m1.tw + m2.jk + m2.tw > r.max_wild {
        return Some(why![COMBINE_WILD, int(m1.jk + m1.tw + m2.jk + m2.tw)]);
    }
    if !r.wild_on_canasta && ((r.is_canasta(&m1) && m2.jk + m2.tw != 0) || (r.is_canasta(&m2) && m1.jk + m1.tw != 0)) {
        return Some(text!("one of these melds of {} is a canasta and the other holds a wild card: no wild \
card may be added to a canasta", plural(rk as u8)));
    }
    let nm = Meld::new(rk as u8, m1.nat + m2.nat, m1.jk + m2.jk, m1.tw + m2.tw, 0);
    if r.closed && nm.size() > r.cs {
        // a closed canasta holds no more than its size: two melds that together pass it stay apart
        return Some(text!("a canasta holds at most {} cards: these melds of {} together would hold {}",
                          num(r.cs as i64), plural(rk as u8), num(nm.size() as i64)));
    }
    let mut new: Melds = (0..melds.len()).filter(|&j| j != same[(b - 1) as usize]).map(|j| melds[j]).collect();
    new[same[(a - 1) as usize]] = nm;
    ok_problem(c, seat, &c.hand(seat), &new, 0, false, probe)
}

// ------------------------------------------------------------------ discarding, asking, done, retract

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

/// pennies-from-heaven 3.4 (`_meld.banned_until`): the ranks of `pile.no_discard_until_canasta`
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
    for (h3, m3, g) in comp_plans(c, side, &c.hand(seat), c.melds(side)) {
        if can_go_out_t(r, &h3, &m3, need - g, true, false, -1, cap, most) {
            return None;
        }
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

fn can_reach(c: &Core, seat: usize, side: usize) -> bool {
    let r = c.r();
    let keep = 0.max(keep_for(c, seat) - arriving(r, &c.pending));
    let need = need_left(c, side);
    comp_plans(c, side, &c.hand(seat), c.melds(side)).iter().any(|(h3, m3, g)| reach(r, h3, m3, need - g, keep))
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

/// `_meld._some_discard`: whether some card held may be discarded, the discard bars considered.
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

// ------------------------------------------------------------------ the generator

/// `ok_problem(...) is None` for a new meld `nm` laid on the side's melds `buf` (restored after).
#[allow(clippy::too_many_arguments)]
fn ok_new(c: &Core, seat: usize, h2: &Hand, buf: &mut Melds, nm: Meld, gain: i32, b3: bool, what: &Spec) -> bool {
    buf.push(nm);
    let ok = ok_problem(c, seat, h2, buf, gain, b3, what).is_none();
    buf.pop();
    ok
}

/// `ok_problem(...) is None` for meld `i` of `buf` grown to `nm` (restored after).
#[allow(clippy::too_many_arguments)]
fn ok_grown(c: &Core, seat: usize, h2: &Hand, buf: &mut Melds, i: usize, nm: Meld, gain: i32, b3: bool, what: &Spec) -> bool {
    let old = buf[i];
    buf[i] = nm;
    let ok = ok_problem(c, seat, h2, buf, gain, b3, what).is_none();
    buf[i] = old;
    ok
}

/// The legal action ids after the draw (MELD, FINAL_MELD, INITIAL_TAKE), in order.
pub fn meld_phase_ids(c: &Core, acts: &mut Vec<u32>) {
    let r = c.r();
    let seat = c.player as usize;
    let side = r.side_of[seat] as usize;
    let h = &c.hand(seat);
    let flags = c.flags;
    let phase = c.phase;
    let fin = phase == PH_FINAL_MELD;
    if flags & F_B3 != 0 && r.b3_last {
        if fin {
            acts.push(r.id_done as u32);
        } else if h.sum() == 1 {
            for k in 0..h.len as usize {
                if h[k] != 0 {
                    acts.push(r.id_discard[k] as u32);
                }
            }
        }
        return;
    }
    let initial_take = phase == PH_INITIAL_TAKE;
    let opened = c.opened[side];
    let must = flags & F_MUST != 0;
    let melds = c.melds(side);
    let info = c.info(side);
    let vals = &r.values;
    let specs = &r.specs;
    let n_hand = h.sum();
    let down = c.down(seat).sum15() >= r.keep_out; // a down hand to go on from (after_problem)
    let easy = opened && !must && !fin && !initial_take && comp_due(c, side).0 == 0;
    let easy_meld = easy && (n_hand >= 5 || down);
    let easy_add = easy && (n_hand >= 3 || down);
    let mut jk = h.at(JK);
    let mut two = h.at(TWO);
    let (mut jk_w, mut two_w) = (jk, two);
    if r.deuce_excl || r.no_wild {
        // italian 4.4, 4.5: which wild cards may go into a natural meld now, and into the meld
        // of deuces (none in the initial meld's turn)
        if card_rule(c, melds, 4, 1, 0).is_some() {
            jk = 0;
            two = 0;
            jk_w = 0;
            two_w = 0;
        } else if card_rule(c, melds, 4, 0, 1).is_some() {
            two = 0;
        }
    }
    let mut skip: i64 = if r.multi { 0 } else if r.new_after { info.open_mask } else { info.rank_mask };
    let plain = r.plain;
    let (dead, new_wild_ok);
    if plain {
        dead = dead_mask(c);
        skip |= dead;
        new_wild_ok = wild_rule(c, melds, None).is_none();
    } else {
        dead = 0;
        new_wild_ok = true;
    }
    // the side's melds after each candidate, changed in place and restored (no allocation)
    let mut buf: Melds = melds.clone();
    for rk in 4..15u8 {
        let n = h.at(rk);
        if n < 2 || (skip >> rk) & 1 == 1 {
            continue;
        }
        if n >= 3 && r.trip_ok {
            let mid = r.id_trip[rk as usize];
            if easy_meld
                || ok_new(c, seat, &minus(h, &[rk, rk, rk]), &mut buf, Meld::new(rk, 3, 0, 0, 0), 3 * vals[rk as usize], false, &specs[mid as usize])
            {
                acts.push(mid as u32);
            }
        }
        if r.pair_wild_ok && new_wild_ok && !(plain && r.natural_only_has(rk)) {
            if two != 0 {
                let mid = r.id_pair_two[rk as usize];
                if easy_meld
                    || ok_new(c, seat, &minus(h, &[rk, rk, TWO]), &mut buf, Meld::new(rk, 2, 0, 1, 0), 2 * vals[rk as usize] + vals[TWO as usize], false, &specs[mid as usize])
                {
                    acts.push(mid as u32);
                }
            }
            if jk != 0 {
                let mid = r.id_pair_jk[rk as usize];
                if easy_meld
                    || ok_new(c, seat, &minus(h, &[rk, rk, JK]), &mut buf, Meld::new(rk, 2, 1, 0, 0), 2 * vals[rk as usize] + vals[JK as usize], false, &specs[mid as usize])
                {
                    acts.push(mid as u32);
                }
            }
        }
    }
    // black threes, only when going out
    if !r.b3_never && h.at(B3) >= r.b3_min && info.b3 < 0 && !initial_take {
        for size in r.b3_min..=h.at(B3).min(r.b3_max) {
            let cards = vec![B3; size as usize];
            let mid = r.id_meld[&Cards::of(&cards).unwrap()];
            let h2 = minus(h, &cards);
            if ok_new(c, seat, &h2, &mut buf, Meld::new(B3, size, 0, 0, 0), vals[B3 as usize] * size, true, &specs[mid as usize])
                && (!r.b3_last || b3_last_ok(r, &h2, fin))
            {
                acts.push(mid);
            }
        }
    }
    // a meld of wild cards only (of deuces: italian 4.3)
    if r.wild_melds && !info.wild && jk_w + two_w >= r.min_size {
        let mut j = r.min_size;
        while j >= 0 {
            let d = r.min_size - j;
            if jk_w >= j && two_w >= d && (!r.deuce || r.valid(&Meld::new(WILD, 0, j, d, 0))) {
                let mut cards = vec![JK; j as usize];
                cards.extend(std::iter::repeat_n(TWO, d as usize));
                let mid = r.id_meld[&Cards::of(&cards).unwrap()];
                if ok_new(c, seat, &minus(h, &cards), &mut buf, Meld::new(WILD, 0, j, d, 0), j * vals[JK as usize] + d * vals[TWO as usize], false, &specs[mid as usize])
                {
                    acts.push(mid);
                }
            }
            j -= 1;
        }
    }
    // additions to melds
    let opening_cap = (!opened && !r.initial_canasta) || capped(c);
    let r3 = h.at(R3) != 0 && r.keep_r3 && r.r3_canasta != 0;
    let mb = c.melds_before;
    for e in &info.adds {
        let (i, rk, m, size, full) = (e.i, e.r, e.m, e.size, e.full);
        let mut wild_room = e.wild_room;
        let [id_nat, id_jk, id_two, id_r3] = e.ids;
        if e.twins && first_alike(melds, i, mb) != i {
            continue;
        }
        if plain {
            if (dead >> rk) & 1 == 1 && !(full && r.past_closed) {
                continue;
            }
            if wild_room && rk != WILD && wild_rule(c, melds, Some(&m)).is_some() {
                wild_room = false;
            }
        }
        if rk == B3 {
            if h.at(B3) != 0 && m.nat < r.b3_max
                && ok_grown(c, seat, &minus1(h, B3), &mut buf, i, Meld::new(B3, m.nat + 1, 0, 0, 0), vals[B3 as usize], true, &specs[id_nat as usize])
            {
                acts.push(id_nat as u32);
            }
            continue;
        }
        if full && r.past_closed && n_hand <= 2 && rk != WILD {
            // modern-american A5: past a closed canasta as the last play before going out
            for aid in [if h.at(rk) != 0 { id_nat } else { -1 }, if jk != 0 { id_jk } else { -1 }, if two != 0 { id_two } else { -1 }] {
                if aid >= 0 && add_problem(c, seat, &specs[aid as usize]).is_none() {
                    acts.push(aid as u32);
                }
            }
        }
        if rk == WILD && r.deuce {
            // italian 4.3: deuces onto the meld of deuces up to its size; jokers within its limit
            if !(opening_cap && size + 1 >= r.cs) {
                if jk_w != 0 && r.valid(&Meld::new(WILD, 0, m.jk + 1, m.tw, 0))
                    && ok_grown(c, seat, &minus1(h, JK), &mut buf, i, Meld::new(rk, m.nat, m.jk + 1, m.tw, m.r3),
                                vals[JK as usize], false, &specs[id_jk as usize])
                {
                    acts.push(id_jk as u32);
                }
                if two_w != 0 && size < r.cs
                    && ok_grown(c, seat, &minus1(h, TWO), &mut buf, i, Meld::new(rk, m.nat, m.jk, m.tw + 1, m.r3),
                                vals[TWO as usize], false, &specs[id_two as usize])
                {
                    acts.push(id_two as u32);
                }
            }
            continue;
        }
        if !full && !(opening_cap && size + 1 >= r.cs) {
            if rk != WILD && h.at(rk) != 0
                && (easy_add
                    || ok_grown(c, seat, &minus1(h, rk), &mut buf, i, Meld::new(rk, m.nat + 1, m.jk, m.tw, m.r3),
                                vals[rk as usize], false, &specs[id_nat as usize]))
            {
                acts.push(id_nat as u32);
            }
            if wild_room {
                if jk != 0
                    && (easy_add
                        || ok_grown(c, seat, &minus1(h, JK), &mut buf, i, Meld::new(rk, m.nat, m.jk + 1, m.tw, m.r3),
                                    vals[JK as usize], false, &specs[id_jk as usize]))
                {
                    acts.push(id_jk as u32);
                }
                if two != 0
                    && (easy_add
                        || ok_grown(c, seat, &minus1(h, TWO), &mut buf, i, Meld::new(rk, m.nat, m.jk, m.tw + 1, m.r3), vals[TWO as usize], false, &specs[id_two as usize]))
                {
                    acts.push(id_two as u32);
                }
            }
        }
        if r3 && full && m.jk + m.tw == 0 && m.r3 == 0 && rk != WILD
            && ok_grown(c, seat, &minus1(h, R3), &mut buf, i, Meld::new(rk, m.nat, 0, 0, 1), 0, false, &specs[id_r3 as usize])
        {
            acts.push(id_r3 as u32);
        }
    }
    // combining two melds of one rank (hoyle rule 30)
    if !info.combines.is_empty() && !initial_take {
        let easy_combine = easy && (n_hand >= 2 || down);
        let mut seen: Vec<((Meld, bool), (Meld, bool))> = vec![];
        for ce in &info.combines {
            let x = (melds[ce.ia], ce.ia >= mb);
            let y = (melds[ce.ib], ce.ib >= mb);
            let key = if x <= y { (x, y) } else { (y, x) };
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            if easy_combine || ok_problem(c, seat, h, &ce.melds, 0, false, &specs[ce.id as usize]).is_none() {
                acts.push(ce.id as u32);
            }
        }
    }
    if initial_take {
        if r.undo_take && !can_reach(c, seat, side) {
            acts.push(r.id_retract as u32);
        }
        return;
    }
    if r.permission && !fin && flags & (F_ASKED | F_YES | F_NO | F_MELDED) == 0
        && (flags & F_DREW != 0 || (flags & F_TOOK != 0 && r.ask_after_take))
        && ask_after_problem(c).is_none()
    {
        acts.push(r.id_ask as u32);
    }
    if fin {
        acts.push(r.id_done as u32);
        return;
    }
    if n_hand != 0 && discard_problem(c, seat).is_none() {
        let barred = if r.discard_bars { barred_discards(c, seat, h) } else { 0 };
        let before = acts.len();
        for k in 0..h.len as usize {
            if h[k] != 0 && (barred == 0 || (barred >> k) & 1 == 0) {
                acts.push(r.id_discard[k] as u32);
            }
        }
        if barred != 0 && acts.len() == before && r.last_round && stock_left(c) == 0 {
            acts.push(r.id_done as u32); // the last round, his only card one that may not go out
        }
    } else if stock_left(c) == 0 && r.last_round {
        acts.push(r.id_done as u32);
    }
}

// ------------------------------------------------------------------ the generator, cards with suits

fn held(h: &Hand, cards: &[u8]) -> bool {
    cards.iter().all(|&k| h.at(k) >= cards.iter().filter(|&&x| x == k).count() as i32)
}

/// `meld_phase_ids` where cards carry suits.
pub fn suited_meld_phase_ids(c: &Core, acts: &mut Vec<u32>) {
    let r = c.r();
    let seat = c.player as usize;
    let side = r.side_of[seat] as usize;
    let h = &c.hand(seat);
    let flags = c.flags;
    let phase = c.phase;
    let fin = phase == PH_FINAL_MELD;
    let specs = &r.specs;
    if flags & F_B3 != 0 && r.b3_last {
        if fin {
            acts.push(r.id_done as u32);
        } else if h.sum15() == 1 {
            for k in 0..h.len as usize {
                if h[k] != 0 && r.id_discard[k] >= 0 {
                    acts.push(r.id_discard[k] as u32);
                }
            }
        }
        return;
    }
    let initial_take = phase == PH_INITIAL_TAKE;
    let melds = c.melds(side);
    let start = acts.len();
    for rk in 4..15u8 {
        if h.at(rk) < 2 {
            continue;
        }
        for (mid, cards) in &r.suited_groups[rk as usize] {
            if held(h, cards.s()) && meld_problem(c, seat, &specs[*mid as usize]).is_none() {
                acts.push(*mid);
            }
        }
    }
    // (the ids are sorted below: the order they are found in does not matter)
    for first in 15..h.len as usize {
        if h[first] == 0 {
            continue;
        }
        for (mid, cards) in &r.suited_seqs[first] {
            let k = cards.s();
            if h.at(k[1]) != 0 && h.at(k[2]) != 0 && meld_problem(c, seat, &specs[*mid as usize]).is_none() {
                acts.push(*mid);
            }
        }
    }
    for (mid, cards) in &r.suited_others {
        if held(h, cards.s()) && meld_problem(c, seat, &specs[*mid as usize]).is_none() {
            acts.push(*mid);
        }
    }
    let mut numbers = [0i32; 32];
    for i in 0..melds.len() {
        let m = melds[i];
        let key = meld_key(m.rank);
        numbers[key as usize] += 1;
        let number = numbers[key as usize];
        let mut cands = [0u8; 7];
        let mut nc = 0;
        if key >= SEQ {
            let low = seq_low(m.rank) as i32;
            let st = key - SEQ;
            for rk in [low - 1, low + m.nat] {
                if r.seq_lo as i32 <= rk && rk <= r.seq_hi as i32 {
                    cands[nc] = (4 * rk - 1 + st as i32) as u8;
                    nc += 1;
                }
            }
        } else if key == B3 {
            cands[0] = B3;
            nc = 1;
        } else if key == WILD {
            cands[..2].copy_from_slice(&[JK, TWO]);
            nc = 2;
        } else {
            for s in 0..4 {
                cands[s as usize] = 4 * key - 1 + s;
            }
            cands[4..7].copy_from_slice(&[JK, TWO, R3]);
            nc = 7;
        }
        for &k in &cands[..nc] {
            if h.at(k) == 0 {
                continue;
            }
            let sp = Spec::simple(ADD, k as i32, key as i32, number);
            if let Some(&aid) = r.ids.get(&sp) {
                if add_problem(c, seat, &specs[aid as usize]).is_none() {
                    acts.push(aid);
                }
            }
        }
    }
    if r.combine && !initial_take {
        for ce in &c.info(side).combines {
            if combine_problem(c, seat, &specs[ce.id as usize]).is_none() {
                acts.push(ce.id as u32);
            }
        }
    }
    if initial_take {
        if r.undo_take && !can_reach(c, seat, side) {
            acts.push(r.id_retract as u32);
        }
        acts[start..].sort();
        return;
    }
    acts[start..].sort();
    if r.permission && !fin && flags & (F_ASKED | F_YES | F_NO | F_MELDED) == 0
        && (flags & F_DREW != 0 || (flags & F_TOOK != 0 && r.ask_after_take))
        && ask_after_problem(c).is_none()
    {
        acts.push(r.id_ask as u32);
    }
    if fin {
        acts.push(r.id_done as u32);
        return;
    }
    if h.sum15() != 0 && discard_problem(c, seat).is_none() {
        let before = acts.len();
        for k in 0..h.len as usize {
            if h[k] != 0 && r.id_discard[k] >= 0 && discard_card_problem(c, seat, k as u8).is_none() {
                acts.push(r.id_discard[k] as u32);
            }
        }
        if acts.len() == before && r.last_round && stock_left(c) == 0 {
            acts.push(r.id_done as u32); // the last round, his only card one that may not go out
        }
    } else if stock_left(c) == 0 && r.last_round {
        acts.push(r.id_done as u32);
    }
}
