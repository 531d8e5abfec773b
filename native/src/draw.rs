//! The start of a turn: drawing, taking the pile, passing, asking first (`canasta/_core/_draw.py`).

use crate::cards::*;
use crate::finish::*;
use crate::kernel::*;
use crate::opening::open_then_out;
use crate::plan::{can_go_out_t, reach};
use crate::reasons::*;
use crate::rules::*;
use crate::table::first_alike;
use crate::{text, why};

/// "the stock is exhausted, and in this variant the hand then ends" (hand-and-foot 7.4)
fn stock_ends_reason() -> Reason {
    text!("the stock is exhausted, and in this variant the hand then ends: nobody takes the pile (hand-and-foot 7.4)")
}

/// Whether the player can go out whatever card he draws (he holds a whole going out).
pub fn draw_guarantees_out(c: &Core, seat: usize) -> bool {
    let r = c.r();
    if r.draw_n != 1 || r.final_ban != 0 {
        return false; // (a card drawn might be one that may not be the last discard)
    }
    let side = r.side_of[seat] as usize;
    let need = if waiver(c, seat) { 0 } else { opening_need(c, side) };
    can_go_out_now(c, seat, need, false)
}

/// Whether `seat` can meld out from his hand as it is, with `need` points owed toward his side's
/// initial meld (and the composition it must include).
pub fn can_go_out_now(c: &Core, seat: usize, need: i32, allow_discard: bool) -> bool {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let cap = plan_cap(c);
    let most = out_most(c, side);
    any_comp_plan(c, side, &c.hand(seat), c.melds(side), |h3, m3, g| {
        can_go_out_t(r, h3, m3, need - g, allow_discard, false, -1, cap, most)
    })
}

pub fn draw_problem(c: &Core) -> Option<Reason> {
    if stock_left(c) == 0 {
        return Some(just(DRAW_NO_STOCK));
    }
    if c.flags & F_MUST != 0 && !draw_guarantees_out(c, c.player as usize) {
        return Some(just(DRAW_MUST));
    }
    None
}

// ------------------------------------------------------------------ taking the pile

/// Why the pile cannot be taken in any way now, or None.
pub fn pile_problem(c: &Core, seat: usize) -> Option<Reason> {
    let r = c.r();
    if c.flags & F_NO_TAKE != 0 {
        return Some(just(TAKE_RETRACTED));
    }
    if r.stock_ends && stock_left(c) == 0 {
        return Some(stock_ends_reason());
    }
    if r.open_from_hand && !c.opened[r.side_of[seat] as usize] {
        return Some(text!("your side makes its initial meld from its hand alone: it may take the pile only \
once it has melded (brazilian 3.1)"));
    }
    let Some(pile) = &c.pile else { return Some(just(TAKE_EMPTY)) };
    let top = pile.card;
    if (top < 4 && !(top <= TWO && r.wild_pair_any && wild_pair_ok(c, seat)))
        || ((r.blocked >> top) & 1 == 1 && !(r.block_upcard && top >= 4 && (c.turned as u64) & r.seat_mask != 0))
    {
        // mexicana 3.3: a seven on top blocks the pile (A3, blocked_scope "upcard": until the
        // first turn of the hand ends)
        return Some(why![TAKE_BLOCKED, int(top)]);
    }
    if !r.consecutive && c.took_last[seat] {
        return Some(just(TAKE_CONSECUTIVE));
    }
    if r.dead_ranks && (dead_mask(c) >> kind(top)) & 1 == 1 {
        return Some(why![TAKE_DEAD, int(top)]);
    }
    None
}

pub fn wild_pair_ok(c: &Core, seat: usize) -> bool {
    let r = c.r();
    if is_frozen_for(c, r.side_of[seat] as usize) { r.wild_pair_frozen } else { r.wild_pair_unfrozen }
}

/// The pile is frozen, or frozen for this side until its initial meld.
pub fn is_frozen_for(c: &Core, side: usize) -> bool {
    c.frozen || (c.r().frozen_until_initial && !c.opened[side])
}

/// The hand after taking the pile with `used` (the top card too, if `top_to_hand`).
pub fn hand_after_take(c: &Core, seat: usize, used: &[u8], top_to_hand: bool) -> Hand {
    let mut h = c.hand(seat);
    for &k in used {
        h.remove_card(k);
    }
    let aside = c.r().from_pile_aside;
    // the cards of `pile_below`, read down the pile (the order does not change a hand)
    let n = c.r().take_top;
    let mut left = if n != 0 && c.pile_n > n { n - 1 } else { usize::MAX };
    let mut link = c.pile.as_ref().map_or(&None, |top| &top.below);
    while let Some(node) = link {
        if left == 0 {
            break;
        }
        left -= 1;
        if (aside >> node.card) & 1 == 0 {
            h.add_card(node.card);
        }
        link = &node.below;
    }
    if top_to_hand {
        h.add_card(c.pile_top());
    }
    h
}

pub fn holds(h: &Hand, cards: &[u8]) -> bool {
    cards.iter().all(|&k| h.at(k) >= cards.iter().filter(|&&x| x == k).count() as i32)
}

/// The cards from the hand that a take `way` shows with the top card.
pub fn used_cards(top: u8, way: i32) -> Vec<u8> {
    match way {
        W_PAIR => vec![top, top],
        W_JOKER => vec![top, JK],
        W_TWO => vec![top, TWO],
        _ => vec![],
    }
}

/// The side's melds after a take that melds its cards, and the meld's index (-1: invalid).
pub fn take_result_meld(r: &Rules, melds: &[Meld], top: u8, way: i32, number: i32, used: &[u8], key: i32) -> (Melds, i32) {
    let with = |i: usize, nm: Meld| -> Melds {
        let mut v = melds.to_vec();
        v[i] = nm;
        v
    };
    if key >= SEQ as i32 {
        let i = meld_index(melds, key, number);
        if i < 0 {
            return (melds.to_vec(), -1);
        }
        let m = melds[i as usize];
        let low = seq_low(m.rank);
        let rk = kind(top);
        if suit(top) != seq_suit(m.rank) || !(rk as i32 == low as i32 - 1 || rk as i32 == low as i32 + m.nat) {
            return (melds.to_vec(), -1);
        }
        let nm = Meld::new(seq_rank(seq_suit(m.rank), low.min(rk)), m.nat + 1, 0, 0, 0);
        if !r.seq_valid(&nm) {
            return (melds.to_vec(), -1);
        }
        return (with(i as usize, nm), i);
    }
    let mut top = top;
    let used_k: Vec<u8>;
    let used = if top > 14 {
        top = kind(top);
        used_k = used.iter().map(|&k| kind(k)).collect();
        &used_k[..]
    } else {
        used
    };
    if top <= TWO {
        let add = if top == JK { (3, 0) } else { (0, 3) };
        for i in 0..melds.len() {
            let m = melds[i];
            if m.rank == WILD && m.jk + m.tw < r.wild_meld_max {
                let nm = Meld::new(WILD, 0, m.jk + add.0, m.tw + add.1, 0);
                if !r.valid(&nm) {
                    return (melds.to_vec(), -1);
                }
                return (with(i, nm), i as i32);
            }
        }
        let nm = Meld::new(WILD, 0, add.0, add.1, 0);
        if !r.valid(&nm) || melds.iter().any(|m| m.rank == WILD) {
            return (melds.to_vec(), -1);
        }
        let mut v = melds.to_vec();
        v.push(nm);
        return (v, melds.len() as i32);
    }
    let cnt = |x: u8| used.iter().filter(|&&k| k == x).count() as i32;
    let nat = 1 + cnt(top);
    let jk = cnt(JK);
    let tw = cnt(TWO);
    if way == W_ONTO {
        let i = meld_index(melds, top as i32, number);
        let m = melds[i as usize];
        let nm = Meld::new(m.rank, m.nat + 1, m.jk, m.tw, m.r3);
        if !r.valid(&nm) {
            return (melds.to_vec(), -1);
        }
        return (with(i as usize, nm), i);
    }
    if !r.multi {
        for i in 0..melds.len() {
            let m = melds[i];
            if m.rank == top && r.blocks_new(&m) {
                let nm = Meld::new(top, m.nat + nat, m.jk + jk, m.tw + tw, m.r3);
                if !r.valid(&nm) {
                    return (melds.to_vec(), -1);
                }
                return (with(i, nm), i as i32);
            }
        }
    }
    let nm = Meld::new(top, nat, jk, tw, 0);
    if !r.valid(&nm) {
        return (melds.to_vec(), -1);
    }
    let mut v = melds.to_vec();
    v.push(nm);
    (v, melds.len() as i32)
}

/// Why taking the pile as `probe` says is refused, or None.
pub fn take_problem(c: &Core, seat: usize, probe: &Spec) -> Option<Reason> {
    let r = c.r();
    if let Some(w) = pile_problem(c, seat) {
        return Some(w);
    }
    if r.suited {
        return suited_take_problem(c, seat, probe);
    }
    let side = r.side_of[seat] as usize;
    let top = c.pile_top();
    let frozen = is_frozen_for(c, side);
    let ways = if frozen { r.frozen_ways } else { r.unfrozen_ways };
    let way = probe.b;
    if top <= TWO {
        if way != W_PAIR {
            return Some(why![TAKE_WAY, V::B(frozen), int(top)]);
        }
    } else if !(0..31).contains(&way) || (ways >> way) & 1 == 0 {
        return Some(why![TAKE_WAY, V::B(frozen), int(top)]);
    }
    if probe.a != top as i32 {
        return Some(why![TAKE_TOP, int(top), int(probe.a)]);
    }
    let melds = c.melds(side);
    let h = &c.hand(seat);
    if way == W_ONTO {
        let idxs: Vec<usize> = (0..melds.len()).filter(|&i| melds[i].rank == top).collect();
        let number = probe.c;
        if idxs.is_empty() {
            return Some(why![TAKE_NO_MELD, int(top)]);
        }
        if number > idxs.len() as i32 {
            return Some(why![TAKE_ONLY, int(top), int(idxs.len() as i64)]);
        }
        if !c.opened[side] {
            return Some(just(TAKE_UNOPENED));
        }
        let m = melds[idxs[(number - 1) as usize]];
        let fa = first_alike(melds, idxs[(number - 1) as usize], c.melds_before);
        let first = idxs.iter().position(|&x| x == fa).unwrap() as i32 + 1;
        if first != number {
            let other = Spec::simple(TAKE, top as i32, W_ONTO, first);
            return Some(match take_problem(c, seat, &other) {
                Some(w) => w,
                None => why![TWIN, int(number), int(first), int(top), V::P(other)],
            });
        }
        if r.closed && m.size() >= r.cs {
            return Some(why![TAKE_CLOSED, int(top)]);
        }
        if !r.onto_canasta && r.is_canasta(&m) {
            return Some(onto_canasta_reason(top));
        }
    } else {
        let used = used_cards(top, way);
        if !holds(h, &used) {
            let hint = frozen && way == W_PAIR && h.at(top) == 1 && (h.at(JK) != 0 || h.at(TWO) != 0);
            return Some(why![HELD_TAKE, V::C(used.iter().map(|&x| x as i64).collect()), V::B(hint)]);
        }
    }
    take_ok_problem(c, seat, probe, c.flags & F_MUST != 0, may_go_out(c))
}

/// `take_problem` where cards carry suits.
pub fn suited_take_problem(c: &Core, seat: usize, probe: &Spec) -> Option<Reason> {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let top = c.pile_top();
    let frozen = is_frozen_for(c, side);
    let ways = if frozen { r.frozen_ways } else { r.unfrozen_ways };
    let way = probe.b;
    if !(0..31).contains(&way) || (ways >> way) & 1 == 0 {
        return Some(why![TAKE_WAY, V::B(frozen), int(top)]);
    }
    let key = probe.a;
    let rank = kind(top) as i32;
    let melds = c.melds(side);
    if way == W_ONTO {
        let seq = key >= SEQ as i32;
        if !seq && key != rank {
            return Some(why![TAKE_TOP, int(top), int(key)]);
        }
        let idxs: Vec<usize> = (0..melds.len()).filter(|&i| meld_key(melds[i].rank) as i32 == key).collect();
        let number = probe.c;
        if seq && suit(top) as i32 != key - SEQ as i32 {
            let sn = SUIT_NAMES[(key - SEQ as i32) as usize & 3];
            return Some(text!("the top card, {}, is not of {sn}: it cannot go on a sequence of {sn}", name(top)));
        }
        if idxs.is_empty() {
            if !seq {
                return Some(why![TAKE_NO_MELD, int(key)]);
            }
            let sn = SUIT_NAMES[(key - SEQ as i32) as usize & 3];
            return Some(text!("your side has no sequence of {sn}, and the pile can never start one (samba 3.6)"));
        }
        if number > idxs.len() as i32 {
            return Some(why![TAKE_ONLY, int(key), int(idxs.len() as i64)]);
        }
        if !c.opened[side] {
            return Some(just(TAKE_UNOPENED));
        }
        let i = idxs[(number - 1) as usize];
        let m = melds[i];
        let fa = first_alike(melds, i, c.melds_before);
        let first = idxs.iter().position(|&x| x == fa).unwrap() as i32 + 1;
        if first != number {
            let other = Spec::simple(TAKE, key, W_ONTO, first);
            return Some(match take_problem(c, seat, &other) {
                Some(w) => w,
                None => why![TWIN, int(number), int(first), int(key), V::P(other)],
            });
        }
        if seq {
            let sn = SUIT_NAMES[(key - SEQ as i32) as usize & 3];
            if m.nat >= r.seq_max {
                return Some(text!("that sequence of {sn} is a samba: it takes no more cards"));
            }
            let low = seq_low(m.rank) as i32;
            if rank != low - 1 && rank != low + m.nat {
                return Some(text!("the top card, {}, does not extend that sequence at either end \
(the pile is never taken to join a card from the hand to a sequence)", name(top)));
            }
        } else if r.closed && m.size() >= r.cs {
            return Some(why![TAKE_CLOSED, int(rank)]);
        } else if !r.onto_canasta && r.is_canasta(&m) {
            return Some(onto_canasta_reason(rank as u8));
        }
    } else {
        if key != rank {
            return Some(why![TAKE_TOP, int(top), int(key)]);
        }
        let used = probe.cards.s();
        if !holds(&c.hand(seat), used) {
            return Some(why![HELD_TAKE, V::C(used.iter().map(|&x| x as i64).collect()), V::B(false)]);
        }
    }
    take_ok_problem(c, seat, probe, c.flags & F_MUST != 0, may_go_out(c))
}

/// pile.onto_canasta = false (samba 3.5, 3.6).
pub fn onto_canasta_reason(rank: u8) -> Reason {
    text!("your meld of {} is already a canasta: the top card goes only onto a \
meld that is not yet one (take the pile with a natural pair instead)", plural(kind(rank)))
}

/// Why a take that the pile rules allow leaves the turn impossible to finish, or None.
pub fn take_ok_problem(c: &Core, seat: usize, probe: &Spec, must: bool, may_out: bool) -> Option<Reason> {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let h = &c.hand(seat);
    if c.pile_n == 1 && h.sum15() == 1 {
        if r.one_card == OneCard::Forbidden {
            return Some(why![ONE_CARD, V::B(false)]);
        }
        if r.one_card == OneCard::UnlessForced && stock_left(c) != 0 {
            return Some(why![ONE_CARD, V::B(true)]);
        }
    }
    if must && c.buried != 0 {
        // upcard.buried (italian 2.3): the cards face down under the upcard are unseen
        return Some(crate::text!(
            "you would be bound to go out this turn, and {} of the pile's cards lie face down, unseen: a going out cannot be counted on them; draw instead",
            num(c.buried as i64)
        ));
    }
    let top = c.pile_top();
    let way = probe.b;
    if (way == W_JOKER || way == W_TWO) && (r.deuce_excl || r.no_wild) {
        // italian 4.4, 4.5: the wild card shown with the natural goes into a meld
        if let Some(t) = crate::meldrules::card_rule(c, c.melds(side), kind(top), (way == W_JOKER) as i32, (way == W_TWO) as i32) {
            return Some(why![WILD_RULE, V::S(t)]);
        }
    }
    let used_v: Vec<u8> = if probe.cards.is_empty() { used_cards(top, way) } else { probe.cards.s().to_vec() };
    let used = &used_v[..];
    let opened = c.opened[side];
    let melds = c.melds(side);
    if !r.pair_melded && opened {
        return after_problem(c, seat, &hand_after_take(c, seat, &[], true), melds, must, may_out, probe);
    }
    let (melds2, idx) = take_result_meld(r, melds, top, way, probe.c, used, probe.a);
    if idx < 0 {
        return Some(why![TAKE_MELD, V::P(*probe), V::C(used.iter().map(|&x| x as i64).collect())]);
    }
    if opened {
        return after_problem(c, seat, &hand_after_take(c, seat, used, false), &melds2, must, may_out, probe);
    }
    if r.undo_take && !must {
        return None;
    }
    let vals = &r.values;
    let mut got = vals[top as usize];
    for &k in used {
        got += vals[k as usize];
    }
    let count = c.count + got;
    let need = r.initial_need(c.totals[side], c.d.hand_number) - count;
    if need <= 0 {
        let mut first: Option<Reason> = None;
        for (h3, m3, _g) in comp_plans(c, side, &hand_after_take(c, seat, used, false), &melds2) {
            match after_problem(c, seat, &h3, &m3, must, may_out, probe) {
                None => return None,
                Some(w) => {
                    if first.is_none() {
                        first = Some(w);
                    }
                }
            }
        }
        return Some(first.unwrap_or_else(|| comp_reason(r, &melds2, comp_due(c, side), true)));
    }
    let mut h2 = *h;
    for &k in used {
        h2.remove_card(k);
    }
    let keep = 0.max(keep_for(c, seat) - arriving(r, &pile_below(c)));
    if must {
        return must_initial_take_problem(c, seat, probe, used, &h2, &melds2, count, need, keep, may_out);
    }
    if take_reaches(c, side, &h2, &melds2, need, keep) {
        return None;
    }
    if concealed_take(c, seat, used, &melds2, may_out) {
        return None;
    }
    Some(why![TAKE_SHORT, int(count), V::H(h2), V::M(melds2), int(need), int(keep), V::B(may_out)])
}

/// After a take for the initial meld below its minimum: can melds from the hand make up the
/// `need` points still owed (and the composition) while `keep` cards stay in hand?
pub fn take_reaches(c: &Core, side: usize, h2: &Hand, melds2: &[Meld], need: i32, keep: i32) -> bool {
    let r = c.r();
    any_comp_plan(c, side, h2, melds2, |h3, m3, g| reach(r, h3, &plan_melds(c, m3), need - g, keep))
}

#[allow(clippy::too_many_arguments)]
pub fn must_initial_take_problem(c: &Core, seat: usize, probe: &Spec, used: &[u8], h2: &Hand, melds2: &[Meld], count: i32,
                                 need: i32, keep: i32, may_out: bool) -> Option<Reason> {
    let r = c.r();
    if c.down(seat).any() {
        return Some(just(MUST_DOWN));
    }
    let why = || why![TAKE_MUST_INITIAL, V::P(*probe), int(count), V::H(*h2), V::M(melds2.to_vec()), int(need), int(keep), V::B(may_out)];
    let cap = capped(c);
    let side = r.side_of[seat] as usize;
    let most = out_most(c, side);
    if !any_comp_plan(c, side, &hand_after_take(c, seat, used, false), melds2, |h3, m3, _g| {
        can_go_out_t(r, h3, m3, 0, true, false, -1, plan_cap(c), most)
    }) {
        return Some(why());
    }
    let plans = comp_plans(c, side, h2, melds2);
    if r.undo_take || plans.iter().any(|(h3, m3, g)| reach(r, h3, m3, need - g, keep)) {
        let extra = pending_hand(r, &pile_below(c));
        if plans.iter().any(|(h3, m3, g)| open_then_out(r, h3, m3, need - g, &extra, cap, opening_capped(c), most)) {
            return None;
        }
        return Some(why());
    }
    if concealed_take(c, seat, used, melds2, may_out) {
        return None;
    }
    Some(why())
}

/// hoyle rule 62: a side that has not melded may take the pile below the minimum if the
/// player then goes out concealed with it.
pub fn concealed_take(c: &Core, seat: usize, used: &[u8], melds2: &[Meld], may_out: bool) -> bool {
    let r = c.r();
    if !may_out || !waiver_if_taking(c) || c.down(seat).any() {
        return false;
    }
    let cap = plan_cap(c);
    let most = out_most(c, r.side_of[seat] as usize);
    any_comp_plan(c, r.side_of[seat] as usize, &hand_after_take(c, seat, used, false), melds2, |h3, m3, _g| {
        can_go_out_t(r, h3, m3, 0, true, false, -1, cap, most)
    })
}

pub fn waiver_if_taking(c: &Core) -> bool {
    let r = c.r();
    if r.conc_min != ConcMin::Waived {
        return false;
    }
    !(r.conc_player && c.flags & F_HAD_MELDED != 0)
}

/// Takes allowed by the pile rules alone, in the order they are offered.
pub fn take_options(c: &Core, seat: usize) -> Vec<Spec> {
    let r = c.r();
    if pile_problem(c, seat).is_some() {
        return vec![];
    }
    if r.suited {
        return suited_take_options(c, seat);
    }
    let side = r.side_of[seat] as usize;
    let top = c.pile_top();
    let ways = if is_frozen_for(c, side) { r.frozen_ways } else { r.unfrozen_ways };
    let h = &c.hand(seat);
    let mut out = Vec::with_capacity(4);
    if top <= TWO {
        if h.at(top) >= 2 {
            out.push(Spec::simple(TAKE, top as i32, W_PAIR, 1));
        }
        return out;
    }
    if ways & 1 != 0 && h.at(top) >= 2 {
        out.push(Spec::simple(TAKE, top as i32, W_PAIR, 1));
    }
    if ways & 2 != 0 && h.at(top) >= 1 {
        if h.at(JK) != 0 {
            out.push(Spec::simple(TAKE, top as i32, W_JOKER, 1));
        }
        if h.at(TWO) != 0 {
            out.push(Spec::simple(TAKE, top as i32, W_TWO, 1));
        }
    }
    if ways & 8 != 0 && c.opened[side] {
        let melds = c.melds(side);
        let mb = c.melds_before;
        let mut n = 0;
        for i in 0..melds.len() {
            let m = melds[i];
            if m.rank != top {
                continue;
            }
            n += 1;
            if first_alike(melds, i, mb) != i {
                continue;
            }
            if r.closed && m.size() >= r.cs {
                continue;
            }
            if !r.onto_canasta && r.is_canasta(&m) {
                continue;
            }
            out.push(Spec::simple(TAKE, top as i32, W_ONTO, n));
        }
    }
    out
}

pub fn suited_take_options(c: &Core, seat: usize) -> Vec<Spec> {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let top = c.pile_top();
    if top < 15 {
        return vec![];
    }
    let ways = if is_frozen_for(c, side) { r.frozen_ways } else { r.unfrozen_ways };
    let h = &c.hand(seat);
    let rank = kind(top);
    let base = 4 * rank as usize - 1;
    let mut out = vec![];
    let with_cards = |way: i32, cards: &[u8]| Spec { kind: TAKE, a: rank as i32, b: way, c: 1, cards: Cards::of(cards).unwrap() };
    if ways & 1 != 0 && h.at(rank) >= 2 {
        for a in 0..4 {
            for b in a..4 {
                if h[base + a] != 0 && h[base + b] != 0 && (a != b || h[base + a] >= 2) {
                    out.push(with_cards(W_PAIR, &[(base + b) as u8, (base + a) as u8]));
                }
            }
        }
    }
    if ways & 2 != 0 && h.at(rank) != 0 {
        for (w, way) in [(JK, W_JOKER), (TWO, W_TWO)] {
            if h.at(w) != 0 {
                for a in 0..4 {
                    if h[base + a] != 0 {
                        out.push(with_cards(way, &[(base + a) as u8, w]));
                    }
                }
            }
        }
    }
    if ways & 8 != 0 && c.opened[side] {
        let melds = c.melds(side);
        let mb = c.melds_before;
        let key = SEQ + suit(top);
        let mut n = 0;
        for i in 0..melds.len() {
            let m = melds[i];
            if m.rank != rank {
                continue;
            }
            n += 1;
            if first_alike(melds, i, mb) != i || (r.closed && m.size() >= r.cs) {
                continue;
            }
            if !r.onto_canasta && r.is_canasta(&m) {
                continue;
            }
            out.push(Spec::simple(TAKE, rank as i32, W_ONTO, n));
        }
        let mut n = 0;
        for i in 0..melds.len() {
            let m = melds[i];
            if m.rank < SEQ || meld_key(m.rank) != key {
                continue;
            }
            n += 1;
            let low = seq_low(m.rank) as i32;
            if first_alike(melds, i, mb) != i || m.nat >= r.seq_max || (rank as i32 != low - 1 && rank as i32 != low + m.nat) {
                continue;
            }
            out.push(Spec::simple(TAKE, key as i32, W_ONTO, n));
        }
    }
    out
}

// ------------------------------------------------------------------ passing and asking first

pub fn pass_problem(c: &Core) -> Option<Reason> {
    let r = c.r();
    if stock_left(c) != 0 {
        return Some(just(PASS_STOCK));
    }
    if r.stock_ends {
        return Some(stock_ends_reason());
    }
    if r.last_round {
        return None;
    }
    let must = c.flags & F_MUST != 0;
    let may_out = may_go_out(c);
    let seat = c.player as usize;
    let takes: Vec<Spec> = take_options(c, seat).into_iter().filter(|t| take_ok_problem(c, seat, t, must, may_out).is_none()).collect();
    if takes.is_empty() {
        return Some(why![FALLBACK_CODE, V::P(Spec::simple(PASS, 0, 0, 0))]);
    }
    if r.must_take == MustTake::AnyLegal {
        return Some(just(PASS_MUST_ANY));
    }
    if r.must_take == MustTake::AddToMeld && takes.iter().any(|t| t.b == W_ONTO) {
        return Some(just(PASS_MUST_ONTO));
    }
    None
}

/// Whether the player is able to go out this turn, asked before drawing.
pub fn able_before_draw(c: &Core, seat: usize) -> bool {
    let r = c.r();
    if c.down(seat).any() || !partner_ready(c, seat) {
        return false; // a down hand still to play, or a partner not yet in his: no going out now
    }
    let side = r.side_of[seat] as usize;
    let h = &c.hand(seat);
    let mask = c.info(side).open_mask;
    // the ranks held once that no meld of the side takes
    let singles: u32 = (4..15u8).filter(|&rk| h.at(rk) == 1 && (mask >> rk) & 1 == 0).fold(0, |m, rk| m | 1 << rk);
    if singles == 0 && r.draw_n == 1 && r.final_ban == 0 {
        let need = if waiver(c, seat) { 0 } else { opening_need(c, side) };
        if can_go_out_now(c, seat, need, false) {
            return true;
        }
    }
    if singles.count_ones() > 1 && !r.suited {
        let mut in_pile: u32 = 0;
        let mut link = &c.pile;
        while let Some(node) = link {
            if node.card < 32 {
                in_pile |= 1 << node.card;
            }
            link = &node.below;
        }
        if (singles & !in_pile).count_ones() > 1 {
            return false;
        }
    }
    for t in take_options(c, seat) {
        if take_ok_problem(c, seat, &t, true, true).is_none() {
            return true;
        }
    }
    false
}

pub fn ask_first_problem(c: &Core) -> Option<Reason> {
    let r = c.r();
    if !r.permission {
        return Some(just(ASK_NO_PARTNER));
    }
    if c.flags & (F_ASKED | F_YES | F_NO) != 0 {
        return Some(just(ASK_AGAIN));
    }
    if stock_left(c) == 0 && !r.last_round {
        return Some(just(ASK_STOCK));
    }
    if !able_before_draw(c, c.player as usize) {
        return Some(just(if stock_left(c) == 0 { ASK_STOCK } else { ASK_NOTHING }));
    }
    None
}

/// The legal action ids at the start of a turn, in order.
pub fn draw_phase_ids(c: &Core, acts: &mut Vec<u32>) {
    let r = c.r();
    let seat = c.player as usize;
    let flags = c.flags;
    let must = flags & F_MUST != 0;
    let may_out = flags & F_NO == 0 && (!r.permission_required || flags & F_YES != 0);
    let has_stock = stock_left(c) > 0;
    if !has_stock && r.stock_ends {
        return; // the hand is over (begin_turn ends it): hand-and-foot 7.4
    }
    if has_stock && (!must || draw_guarantees_out(c, seat)) {
        acts.push(r.id_draw as u32);
    }
    let mut takes: Vec<u32> = vec![];
    let mut onto = false;
    for t in take_options(c, seat) {
        if take_ok_problem(c, seat, &t, must, may_out).is_none() {
            let id = if t.cards.is_empty() { r.id_take.get(&(t.a, t.b, t.c)).copied() } else { r.ids.get(&t).copied() };
            takes.push(id.expect("a take in the action space"));
            if t.b == W_ONTO {
                onto = true;
            }
        }
    }
    if !has_stock && !r.last_round {
        let forced = (r.must_take == MustTake::AnyLegal && !takes.is_empty()) || (r.must_take == MustTake::AddToMeld && onto);
        let any = !takes.is_empty();
        acts.extend(takes);
        if any && !forced {
            acts.push(r.id_pass as u32);
        }
        return;
    }
    acts.extend(takes);
    if !has_stock {
        acts.push(r.id_pass as u32);
    }
    if r.permission && flags & (F_ASKED | F_YES | F_NO) == 0 && able_before_draw(c, seat) {
        acts.push(r.id_ask as u32);
    }
}
