//! After the draw: laying new melds, adding to melds and combining melds
//! (`canasta/_core/_meld.py`). Built on `finish` (can the turn still be finished), `plan`,
//! `meldrules`, `table` and `rules`; built upon by `discard`, `meldphase` and `legal`.

use crate::cards::*;
use crate::finish::*;
use crate::kernel::*;
use crate::meldrules::*;
use crate::opening::comp_met;
use crate::reasons::*;
use crate::rules::*;
use crate::table::first_alike;
use crate::{text, why};

/// `h` without `cards` (a suited natural leaves its kind's count too).
pub fn less_cards(h: &Hand, cards: &[u8]) -> Hand {
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
    if let Some(w) = new_meld_rule_problem(c, melds, &nm) {
        return Some(w);
    }
    ok_problem(c, seat, &h2, &after(), gain, false, probe)
}

/// Why the side may not lay the new meld `nm` (of a rank or of wild cards, not of black threes)
/// beside `melds` now, whatever cards make it: `meld_problem`'s checks before the turn's end is
/// planned (the same for every set of suits that makes it).
pub fn new_meld_rule_problem(c: &Core, melds: &[Meld], nm: &Meld) -> Option<Reason> {
    let r = c.r();
    let rk = nm.rank;
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
    if let Some(w) = meld_shape_problem(r, nm) {
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
    None
}

/// Why laying the new sequence `probe` is refused, or None.
pub fn sequence_problem(c: &Core, seat: usize, probe: &Spec) -> Option<Reason> {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let cards = probe.cards.s();
    let nm = match new_sequence(c, cards) {
        Ok(nm) => nm,
        Err(w) => return Some(w),
    };
    let gain: i32 = cards.iter().map(|&k| r.values[k as usize]).sum();
    let after = MeldBuf::with_push(c.melds(side), nm);
    ok_problem(c, seat, &less_cards(&c.hand(seat), cards), &after, gain, false, probe)
}

/// The new sequence `cards` make, or why it may not be laid now whatever the rest of the hand:
/// `sequence_problem`'s checks before the turn's end is planned.
pub fn new_sequence(c: &Core, cards: &[u8]) -> Result<Meld, Reason> {
    let r = c.r();
    let st = suit(cards[0]);
    let low = kind(cards[0]);
    for (j, &k) in cards.iter().enumerate() {
        if k < 15 {
            return Err(text!("a sequence holds natural cards only: no wild card and no three (samba 4.3)"));
        }
        if suit(k) != st {
            return Err(text!("a sequence must be one suit (samba 4.3)"));
        }
        if kind(k) as usize != low as usize + j {
            return Err(text!("a sequence's cards are in consecutive rank order, lowest first, with no gap; the ace \
is high only (samba 4.3)"));
        }
    }
    let nm = Meld::new(seq_rank(st, low), cards.len() as i32, 0, 0, 0);
    if !r.seq_valid(&nm) {
        return Err(text!("a sequence runs from {} to {} and holds {} to {} cards", r.seq_lowest, r.seq_highest,
                                 num(r.seq_min as i64), num(r.seq_max as i64)));
    }
    let dead = dead_mask(c);
    if dead != 0 && cards.iter().any(|&k| (dead >> kind(k)) & 1 == 1) {
        return Err(why![DEAD_RANK, int(kind(cards[0]))]);
    }
    Ok(nm)
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
    match add_grown(c, seat, probe, i) {
        Err(x) => x,
        Ok((nm, gain, b3)) => ok_problem(c, seat, &h.less_card(k), &MeldBuf::with_set(melds, i, nm), gain, b3, probe),
    }
}

/// `add_problem` past finding the meld (`i`, of a rank, the wild cards or the black threes, not
/// the first of several just alike): `Err` with the answer, or `Ok` with the grown meld, the
/// points it adds and whether it is the black threes', when the answer is whether the turn can
/// still be finished with the card melded (`ok_problem`). The same for every natural card of the
/// meld's rank, whatever its suit.
pub fn add_grown(c: &Core, seat: usize, probe: &Spec, i: usize) -> Result<(Meld, i32, bool), Option<Reason>> {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let melds = c.melds(side);
    let k = probe.a as u8;
    let rk = probe.b as u8;
    let m = melds[i];
    let vals = &r.values;
    if rk == B3 {
        if m.nat >= r.b3_max {
            return Err(Some(just(B3_FULL)));
        }
        return Ok((Meld::new(B3, m.nat + 1, 0, 0, 0), vals[B3 as usize], true));
    }
    let size = m.size();
    let full = r.closed && size >= r.cs;
    if k == R3 {
        if !full {
            return Err(Some(why![R3_NOT_CANASTA, int(rk)]));
        }
        if m.jk + m.tw != 0 {
            return Err(Some(why![R3_WILD, int(rk)]));
        }
        if m.r3 != 0 {
            return Err(Some(why![R3_AGAIN, int(rk)]));
        }
        return Ok((Meld::new(m.rank, m.nat, 0, 0, 1), 0, false));
    }
    if full {
        if r.past_closed && rk != WILD {
            return Err(add_past_problem(c, seat, probe, i));
        }
        return Err(Some(why![CLOSED, int(rk)]));
    }
    if rk != WILD && (dead_mask(c) >> rk) & 1 == 1 {
        return Err(Some(why![DEAD_RANK, int(rk)]));
    }
    let nm = Meld::new(m.rank, m.nat + (kind(k) == rk) as i32, m.jk + (k == JK) as i32, m.tw + (k == TWO) as i32, m.r3);
    if k <= TWO && !r.wild_on_canasta && r.is_canasta(&m) {
        return Err(Some(text!("your {} is a canasta: no wild card may be added to a canasta", meld_words(rk))));
    }
    if let Some(w) = meld_shape_problem(r, &nm) {
        return Err(Some(w));
    }
    if rk != WILD && k <= TWO {
        if let Some(t) = wild_rule(c, melds, Some(&m)) {
            return Err(Some(why![WILD_RULE, V::S(t)]));
        }
    }
    if k <= TWO && (r.deuce_excl || r.no_wild) {
        if let Some(t) = card_rule(c, melds, rk, (k == JK) as i32, (k == TWO) as i32) {
            return Err(Some(why![WILD_RULE, V::S(t)]));
        }
    }
    if ((!c.opened[side] && !r.initial_canasta) || capped(c)) && size + 1 >= r.cs {
        return Err(Some(just(INITIAL_CANASTA)));
    }
    Ok((nm, vals[k as usize], false))
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
