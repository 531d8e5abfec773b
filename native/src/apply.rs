//! Applying an action: the next position, and the turn flow (`canasta/_core/_apply.py`).
//! `apply_id` clones the core it is given and changes only the clone. It trusts its caller:
//! the id must be legal.

use crate::canastas::side_canastas;
use crate::cards::*;
use crate::draw::{take_ok_problem, take_options, take_reaches, take_result_meld, used_cards};
use crate::finish::{arriving, keep_for, may_go_out};
use crate::kernel::*;
use crate::opening::has_clean;
use crate::rules::*;
use crate::score::{add_total, score_hand};
use std::rc::Rc;

/// The position after the legal action `action` (an id).
pub fn apply_id(c: &Core, action: u32) -> Core {
    let r = c.d.r.clone();
    let r = &*r;
    let mut n = c.clone();
    n.history = Some(Rc::new(Hist::new(action, c.player, c.history.clone())));
    let spec = r.specs[action as usize];
    let seat = c.player as usize;
    let side = r.side_of[seat] as usize;
    if in_place(spec.kind) {
        apply_in_place(&mut n, r, &spec, seat, Some(c));
        return n;
    }
    match spec.kind {
        TAKE => apply_take(&mut n, c, seat, side, spec.b, spec.c, &spec),
        COMBINE => {
            let (rank, first, second) = (spec.a, spec.b, spec.c);
            let melds = c.melds(side);
            let i = meld_index(melds, rank, first) as usize;
            let j = meld_index(melds, rank, second) as usize;
            let (m1, m2) = (melds[i], melds[j]);
            let mut new = melds.clone();
            new[i] = Meld::new(rank as u8, m1.nat + m2.nat, m1.jk + m2.jk, m1.tw + m2.tw, 0);
            new.remove(j);
            n.set_melds(side, new);
            let mut before = c.melds_before;
            if i < before {
                n.flags |= F_TOUCHED;
            }
            if j < before {
                before -= 1;
            }
            n.melds_before = before;
        }
        RETRACT => {
            n.set_hand(seat, c.start_hand.as_deref().copied().unwrap_or(Hand::empty(0)));
            n.set_melds(side, c.melds(side)[..c.melds_before].to_vec());
            let mut below = pile_cards(c);
            below.extend(c.pending.iter());
            below.push(c.pending_top as u8);
            n.pile = pile_of(&below);
            n.pile_n = below.len();
            n.flags = (c.flags & F_HAD_MELDED) | F_NO_TAKE;
            n.count = 0;
            if !n.pending.is_empty() {
                n.pending = Rc::new(vec![]);
            }
            n.pending_top = -1;
            n.start_hand = None;
            n.phase = PH_DRAW;
            n.melded[seat] = c.flags & F_HAD_MELDED != 0;
            n.took_last[seat] = false;
        }
        _ => unreachable!("not an action id"),
    }
    if r.natural_first && c.melds_before == 0 && matches!(spec.kind, TAKE | COMBINE) {
        natural_fact(&mut n, side);
    }
    if r.down_up != 0 && matches!(spec.kind, TAKE | COMBINE) && n.result.is_none() {
        down_up(&mut n, c, seat, side);
    }
    if (n.phase == PH_MELD || n.phase == PH_FINAL_MELD) && n.player == seat as i32 {
        check_emptied(&mut n, seat);
    }
    n
}

/// The turn's fact (modern-american 4.9): the initial meld, as its melds stand, includes a meld
/// of three or more naturals without a wild card.
fn natural_fact(n: &mut Core, side: usize) {
    if has_clean(n.melds(side)) {
        n.flags |= F_NATURAL;
    } else {
        n.flags &= !F_NATURAL;
    }
}

/// Whether actions of `kind` read nothing of the position before them but what they have not
/// yet changed, so that `apply_in_place` plays them on the position itself.
#[inline]
fn in_place(kind: u8) -> bool {
    matches!(kind, DISCARD | DRAW | MELD | ADD | ASK | ANSWER | PASS | DONE)
}

/// `apply_id` where the position before is not kept (a playout's): the discard, the draw, a
/// meld, an addition, the ask, the answer, the pass and done change `n` itself, copying only
/// what another position still shares; the other actions (and a meld or an addition where a
/// canasta may bring up a down hand, which compares with the melds before) are played as
/// `apply_id` plays them.
pub fn apply_id_mut(n: &mut Core, action: u32) {
    let r = n.d.r.clone();
    let spec = r.specs[action as usize];
    if !in_place(spec.kind) || (r.down_up != 0 && matches!(spec.kind, MELD | ADD)) {
        *n = apply_id(n, action);
        return;
    }
    let seat = n.player as usize;
    n.history = Some(Rc::new(Hist::new(action, n.player, n.history.take())));
    apply_in_place(n, &r, &spec, seat, None);
}

/// The actions of `in_place` kinds (`n`: the position before, its history already extended):
/// each reads a field of `n` before it changes it. `before`: the position before the action,
/// where it is kept (`down_up` needs it).
fn apply_in_place(n: &mut Core, r: &Rules, spec: &Spec, seat: usize, before: Option<&Core>) {
    let side = r.side_of[seat] as usize;
    match spec.kind {
        DISCARD => {
            let card = spec.a as u8;
            let mut h = n.hand(seat);
            h.remove_card(card);
            n.set_hand(seat, h);
            n.pile = Some(Rc::new(PileNode { card, below: n.pile.take() }));
            n.pile_n += 1;
            if (r.freeze_discard >> card) & 1 == 1 {
                n.frozen = true;
            }
            if !h.any() && !n.down(seat).any() {
                end_hand(n, seat as i32, "went out", -1);
            } else {
                finish_turn(n);
            }
            return;
        }
        DRAW => {
            n.flags |= F_DREW;
            n.phase = PH_MELD;
            draw_cards(n, seat, r.draw_n, -1);
        }
        ASK => {
            n.flags |= F_ASKED;
            n.phase = PH_ANSWER;
            n.player = partner(n, seat) as i32;
        }
        ANSWER => {
            let drew_or_took = n.flags & (F_DREW | F_TOOK) != 0;
            n.player = asker(n, seat) as i32;
            n.flags |= if spec.a != 0 { F_YES } else { F_NO };
            n.phase = if drew_or_took { PH_MELD } else { PH_DRAW };
            return;
        }
        PASS => {
            if r.last_round {
                n.phase = PH_MELD;
            } else {
                end_hand(n, -1, "the stock is exhausted and the player in turn did not take the pile", -1);
            }
        }
        MELD => {
            let cards = spec.cards.s();
            let mut h = n.hand(seat);
            let mut gain = 0;
            let mut nat = 0;
            for &k in cards {
                h.remove_card(k);
                gain += r.values[k as usize];
                if k > TWO {
                    nat += 1;
                }
            }
            n.set_hand(seat, h);
            let first = cards[0];
            let mut rank = if first <= TWO { WILD } else { kind(first) };
            if first > 14 && kind(cards[1]) != rank {
                rank = seq_rank(suit(first), rank);
            }
            let nm = Meld::new(rank, nat, spec.cards.count(JK), spec.cards.count(TWO), 0);
            let mut melds2 = Vec::with_capacity(n.melds(side).len() + 1);
            melds2.extend_from_slice(n.melds(side));
            melds2.push(nm);
            let idx = melds2.len() - 1;
            gain_turn(n, side, gain, melds2, idx, false);
            if rank == B3 {
                n.flags |= F_B3;
            }
        }
        ADD => {
            let (card, rank, number) = (spec.a as u8, spec.b, spec.c);
            let mut h = n.hand(seat);
            h.remove_card(card);
            n.set_hand(seat, h);
            let melds = n.melds(side);
            let i = meld_index(melds, rank, number) as usize;
            let m = melds[i];
            let nm = if card == R3 {
                Meld::new(m.rank, m.nat, m.jk, m.tw, 1)
            } else if rank >= SEQ as i32 {
                Meld::new(m.rank.min(m.rank - seq_low(m.rank) + kind(card)), m.nat + 1, 0, 0, 0)
            } else {
                Meld::new(m.rank, m.nat + (kind(card) == m.rank || card == B3) as i32, m.jk + (card == JK) as i32,
                          m.tw + (card == TWO) as i32, m.r3)
            };
            let mut melds2 = melds.clone();
            melds2[i] = nm;
            let gain = if card == R3 { 0 } else { r.values[card as usize] };
            let touched = i < n.melds_before;
            gain_turn(n, side, gain, melds2, i, touched);
            if rank == B3 as i32 {
                n.flags |= F_B3;
            }
        }
        DONE => {
            if n.phase == PH_FINAL_MELD {
                end_hand(n, -1, "the last card of the stock was a red three", -1);
            } else {
                finish_turn(n);
            }
            return;
        }
        _ => unreachable!("not an action played in place"),
    }
    if matches!(spec.kind, MELD | ADD) {
        // as at the end of `apply_id` (a meld and an addition leave `melds_before` as it was)
        if r.natural_first && n.melds_before == 0 {
            natural_fact(n, side);
        }
        if r.down_up != 0 && n.result.is_none() {
            down_up(n, before.expect("a meld with down hands coming up is played on a copy"), seat, side);
        }
    }
    if (n.phase == PH_MELD || n.phase == PH_FINAL_MELD) && n.player == seat as i32 {
        check_emptied(n, seat);
    }
}

/// pennies-from-heaven 5.1 (`_apply.down_up`): a canasta completed by this action brings up the
/// player's down hand (`own_canasta`), or, the side's first, every down hand of the side.
fn down_up(n: &mut Core, c: &Core, seat: usize, side: usize) {
    let r = n.d.r.clone();
    let before = side_canastas(&r, c.melds(side));
    if side_canastas(&r, n.melds(side)) <= before {
        return;
    }
    let seats: Vec<usize> = if r.down_up == 1 {
        vec![seat]
    } else if before == 0 {
        r.members[side].iter().map(|&s| s as usize).collect()
    } else {
        return;
    };
    for s in seats {
        if n.down(s).any() && n.result.is_none() {
            if r.partner_down {
                n.turned |= 1 << (FOOT + s as i64);
            }
            take_up_down(n, s);
        }
    }
}

/// `seat`'s down hand joins the cards in his hand; red threes in it are faced and replaced.
fn take_up_down(n: &mut Core, seat: usize) -> bool {
    let down = n.down(seat);
    let mut h = n.hand(seat);
    for k in 0..down.len as usize {
        h.c[k] += down.c[k];
    }
    n.set_hand(seat, h);
    n.set_down(seat, Hand::empty(down.len as usize));
    if seat as i32 == n.player {
        // the hand before a take is no longer the hand less the pile (`_apply.take_up_down`)
        n.start_hand = None;
    }
    let r = n.d.r.clone();
    if (!r.keep_r3 && h.at(R3) != 0) || (r.b3_faced && h.at(B3) != 0) {
        return face_threes(n, seat, r.side_of[seat] as usize);
    }
    true
}

/// The partner asked "may I go out?": the next seat of the side playing this deal.
pub fn partner(c: &Core, seat: usize) -> usize {
    let r = c.r();
    let side = r.side_of[seat];
    let order = &c.d.active;
    let i = order.iter().position(|&s| s as usize == seat).unwrap();
    for k in 1..order.len() {
        let s = order[(i + k) % order.len()];
        if r.side_of[s as usize] == side {
            return s as usize;
        }
    }
    seat
}

/// The player who asked "may I go out?" (the partner answering is `me`).
pub fn asker(c: &Core, me: usize) -> usize {
    let r = c.r();
    let side = r.side_of[me];
    let order = &c.d.active;
    let len = order.len() as i64;
    let i = order.iter().position(|&s| s as usize == me).unwrap() as i64;
    for k in 1..len {
        let s = order[(i - k).rem_euclid(len) as usize];
        if r.side_of[s as usize] == side {
            return s as usize;
        }
    }
    me
}

/// Record a meld or addition: the side's melds, the count toward its initial meld, and
/// whether that opens the side (bringing up a pile set aside for it).
fn gain_turn(n: &mut Core, side: usize, gain: i32, melds2: Melds, idx: usize, touched: bool) {
    let r = n.d.r.clone();
    let seat = n.player as usize;
    let opened = n.opened[side];
    let (total, phase) = (n.totals[side], n.phase);
    let count = n.count + if opened { 0 } else { gain };
    let mut flags = n.flags | F_MELDED;
    if touched {
        flags |= F_TOUCHED;
    }
    if idx >= n.melds_before && r.is_canasta(&melds2[idx]) {
        flags |= F_OWN;
    }
    n.flags = flags;
    n.count = count;
    if melds2.len() > n.melds(side).len() {
        n.append_meld(side, melds2);
    } else {
        n.grow_meld(side, melds2, idx);
    }
    n.melded[seat] = true;
    if !opened && count >= r.initial_need(total, n.d.hand_number) {
        n.opened[side] = true;
        if phase == PH_INITIAL_TAKE {
            let pending = n.pending.clone();
            if !n.pending.is_empty() {
                n.pending = Rc::new(vec![]);
            }
            pick_up(n, seat, side, &pending);
            n.phase = PH_MELD;
        }
        if r.talon_now {
            talon_at_once(n, seat, side);
        }
    }
}

/// `_apply.talon_at_once` (mexicana 4.2, `deal.talon_when = "at_once"`): the player whose meld
/// just made his side's initial meld draws the side's talon at once (A4; after a pile opening
/// too where `deal.talon_after_pile`, A5; a short stock gives what it holds, A8).
fn talon_at_once(n: &mut Core, seat: usize, side: usize) {
    let r = n.d.r.clone();
    if n.flags & F_MUST_OUT != 0 || (n.flags & F_TOOK != 0 && !r.talon_pile) || n.stock_n as i64 <= r.turn_card as i64 {
        return;
    }
    let others = (0..r.n_sides).filter(|&s| s != side && n.opened[s]).count();
    if others < r.talon.len() && r.talon[others] != 0 {
        n.start_hand = None;
        draw_cards(n, seat, r.talon[others], 0);
    }
}

/// Take the pile: meld the top card with the cards shown, or set the pile aside for an
/// initial meld until the minimum is met.
fn apply_take(n: &mut Core, c: &Core, seat: usize, side: usize, way: i32, number: i32, spec: &Spec) {
    let r = c.d.r.clone();
    let mut pile = pile_cards(c);
    if r.take_top != 0 && pile.len() > r.take_top {
        let left = pile[..pile.len() - r.take_top].to_vec();
        pile = pile[pile.len() - r.take_top..].to_vec();
        n.pile = pile_of(&left);
        n.pile_n = left.len();
        n.frozen = c.frozen;
    } else {
        n.pile = None;
        n.pile_n = 0;
        n.buried = 0;
        n.frozen = false;
    }
    let top = *pile.last().unwrap();
    let used_v: Vec<u8> = if spec.cards.is_empty() { used_cards(top, way) } else { spec.cards.s().to_vec() };
    let used = &used_v[..];
    n.took_last[seat] = true;
    let opened = c.opened[side];
    if !r.pair_melded && opened {
        n.flags = c.flags | F_TOOK;
        n.phase = PH_MELD;
        pick_up(n, seat, side, &pile);
        return;
    }
    let (melds2, idx) = take_result_meld(&r, c.melds(side), top, way, number, used, spec.a);
    let idx = idx as usize;
    let mut h2 = c.hand(seat);
    for &k in used {
        h2.remove_card(k);
    }
    n.set_hand(seat, h2);
    let is_canasta = r.is_canasta(&melds2[idx]);
    if melds2.len() > c.melds(side).len() {
        n.append_meld(side, melds2.clone());
    } else {
        n.grow_meld(side, melds2.clone(), idx);
    }
    n.melded[seat] = true;
    let mut gain = r.values[top as usize];
    for &k in used {
        gain += r.values[k as usize];
    }
    let mut flags = c.flags | F_TOOK | F_MELDED;
    if way == W_ONTO && idx < c.melds_before {
        flags |= F_TOUCHED;
    }
    if is_canasta && idx >= c.melds_before {
        flags |= F_OWN;
    }
    let count = c.count + if opened { 0 } else { gain };
    n.count = count;
    // `_apply`: not kept where cards lie buried in the pile (upcard.buried refuses an undone take)
    n.start_hand = if r.buried != 0 { None } else { Some(Rc::new(c.hand(seat))) };
    n.pending_top = top as i32;
    let need = if opened { 0 } else { r.initial_need(c.totals[side], c.d.hand_number) };
    let rest = &pile[..pile.len() - 1];
    if opened || count >= need {
        if !opened {
            n.opened[side] = true;
        }
        n.flags = flags;
        pick_up(n, seat, side, rest);
        n.phase = PH_MELD;
        if r.talon_now && !opened {
            talon_at_once(n, seat, side);
        }
    } else if !r.undo_take && !take_reaches(c, side, &h2, &melds2, need - count, 0.max(keep_for(c, seat) - arriving(&r, rest)))
    {
        n.flags = flags | F_MUST_OUT;
        pick_up(n, seat, side, rest);
        n.phase = PH_MELD;
    } else {
        n.flags = flags;
        n.pending = Rc::new(rest.to_vec());
        n.phase = PH_INITIAL_TAKE;
    }
}

/// Cards of the pile come into the hand; a red three in it is faced but not replaced, a black
/// three set aside where the variant says so.
fn pick_up(n: &mut Core, seat: usize, side: usize, cards: &[u8]) {
    let r = n.d.r.clone();
    let mut h = n.hand(seat);
    let mut red = 0;
    let mut black = 0;
    let b3_aside = r.b3_aside || r.b3_faced;
    for &k in cards {
        if k == R3 && !r.keep_r3 {
            red += 1;
        } else if k == B3 && b3_aside {
            black += 1;
        } else {
            h.add_card(k);
        }
    }
    n.set_hand(seat, h);
    if red != 0 {
        n.red[side] += red;
    }
    if black != 0 {
        n.aside[side] += black;
    }
}

/// Draw `count` cards, facing and replacing red threes (and black threes where they are bonus
/// cards too). False if the hand ended.
fn draw_cards(n: &mut Core, seat: usize, count: i32, floor: i64) -> bool {
    let r = n.d.r.clone();
    let d = n.d.clone();
    let stock = &d.stock;
    let mut k = n.stock_n;
    let floor = if floor < 0 { reserved(n) } else { floor as usize };
    let mut h = n.hand(seat);
    let side = r.side_of[seat] as usize;
    let (mut red, mut black, mut drawn) = (0, 0, 0);
    let mut last: i32 = -1;
    let r3_faced = !r.keep_r3;
    let b3_faced = r.b3_faced;
    while drawn < count && k > floor {
        k -= 1;
        let card = stock[k];
        if card == R3 && r3_faced {
            red += 1;
            last = card as i32;
            continue;
        }
        if card == B3 && b3_faced {
            black += 1;
            last = card as i32;
            continue;
        }
        last = -1;
        h.add_card(card);
        drawn += 1;
    }
    n.stock_n = k;
    let mut three_last = -1;
    if last >= 0 && k <= floor && r.last_three_minus != 0 {
        three_last = side as i32 * 16 + last;
    }
    if red != 0 {
        n.red[side] += red;
    }
    if black != 0 {
        n.aside[side] += black;
    }
    n.set_hand(seat, h);
    if k <= floor && r.last_round && n.last_turns < 0 {
        n.last_turns = d.active.len() as i32;
    }
    if last >= 0 && k <= floor {
        if r.last_r3_end {
            let why = if last == R3 as i32 {
                "the last card of the stock was a red three"
            } else {
                "the last card of the stock was a black three"
            };
            end_hand(n, -1, why, three_last);
            return false;
        }
        n.phase = PH_FINAL_MELD;
    }
    true
}

/// Start `seat`'s turn: face red threes, count the last round, end the hand when the stock is
/// out and he cannot take the pile.
pub fn begin_turn(n: &mut Core, seat: usize) {
    let r = n.d.r.clone();
    n.player = seat as i32;
    n.phase = PH_DRAW;
    let side = r.side_of[seat] as usize;
    n.flags = if n.melded[seat] { F_HAD_MELDED } else { 0 };
    if r.partner_down && r.down_size != 0 && !n.down(seat).any() {
        n.turned |= 1 << (FOOT + seat as i64);
    }
    n.count = 0;
    n.melds_before = n.melds(side).len();
    if !n.pending.is_empty() {
        n.pending = Rc::new(vec![]);
    }
    n.pending_top = -1;
    n.start_hand = None;
    let h = &n.hand(seat);
    if (!r.keep_r3 && h.at(R3) != 0) || (r.b3_faced && h.at(B3) != 0) {
        if !face_threes(n, seat, side) {
            return;
        }
        if n.phase == PH_FINAL_MELD {
            return;
        }
    }
    if r.last_round && n.last_turns >= 0 {
        if n.last_turns == 0 {
            end_hand(n, -1, "the stock ran out and every player has had a last turn", -1);
            return;
        }
        n.last_turns -= 1;
    }
    if stock_left(n) == 0 && r.stock_ends {
        // hand-and-foot 7.4: "if the stock runs out, the deal ends" (nobody takes the pile)
        end_hand(n, -1, "the stock is exhausted: the hand ends", -1);
        return;
    }
    if stock_left(n) == 0 && !r.last_round {
        let may = may_go_out(n);
        for t in take_options(n, seat) {
            if take_ok_problem(n, seat, &t, false, may).is_none() {
                return;
            }
        }
        end_hand(n, -1, "the stock is exhausted and the player in turn cannot take the pile", -1);
    }
}

/// The turn is over: the next active seat begins.
fn finish_turn(n: &mut Core) {
    let r = n.d.r.clone();
    let seat = n.player as usize;
    n.took_last[seat] = n.flags & F_TOOK != 0;
    if r.track_turns {
        n.turned |= 1 << seat;
    }
    if !r.talon.is_empty() && !r.talon_now && n.melds_before == 0 && (r.talon_aside || r.talon_pile || n.flags & F_TOOK == 0) {
        let side = r.side_of[seat] as usize;
        if n.opened[side] && (r.talon_aside || n.stock_n as i64 > r.turn_card as i64) {
            let others = (0..r.n_sides).filter(|&s| s != side && n.opened[s]).count();
            if others < r.talon.len() && r.talon[others] != 0 {
                let floor = if r.talon_aside { reserved(n) as i64 - r.talon[others] as i64 } else { 0 };
                if !draw_cards(n, seat, r.talon[others], floor) {
                    return;
                }
                if n.phase == PH_FINAL_MELD {
                    end_hand(n, -1, "the last card of the stock was a red three", -1);
                    return;
                }
            }
        }
    }
    if r.down_size != 0 && !n.hand(seat).any() && n.down(seat).any() {
        if !pick_up_down(n, seat) {
            return;
        }
        if n.phase == PH_FINAL_MELD {
            end_hand(n, -1, "the last card of the stock was a red three", -1);
            return;
        }
    }
    if r.last_round && n.last_turns == 0 && stock_left(n) == 0 {
        end_hand(n, -1, "the stock ran out and every player has had a last turn", -1);
        return;
    }
    let d = n.d.clone();
    let active = &d.active;
    let i = active.iter().position(|&s| s as usize == seat).unwrap();
    begin_turn(n, active[(i + 1) % active.len()] as usize);
}

/// A hand emptied by melding: the down hand comes up, or the player has gone out.
fn check_emptied(n: &mut Core, seat: usize) {
    if n.hand(seat).any() {
        return;
    }
    if n.down(seat).any() {
        if n.d.r.partner_down {
            n.turned |= 1 << (FOOT + seat as i64);
        }
        pick_up_down(n, seat);
        return;
    }
    end_hand(n, seat as i32, "went out", -1);
}

/// Face the bonus threes in `seat`'s hand and replace them from the stock; False if that
/// ended the hand.
fn face_threes(n: &mut Core, seat: usize, side: usize) -> bool {
    let r = n.d.r.clone();
    let mut h = n.hand(seat);
    let r3 = if r.keep_r3 { 0 } else { h.at(R3) };
    let b3 = if r.b3_faced { h.at(B3) } else { 0 };
    h.c[R3 as usize] -= r3 as u8;
    h.c[B3 as usize] -= b3 as u8;
    n.set_hand(seat, h);
    if r3 != 0 {
        n.red[side] += r3;
    }
    if b3 != 0 {
        n.aside[side] += b3;
    }
    draw_cards(n, seat, r3 + b3, -1)
}

/// `seat` picks up his down hand; red threes in it are faced and replaced at once.
fn pick_up_down(n: &mut Core, seat: usize) -> bool {
    let down = &n.down(seat);
    n.set_hand(seat, *down);
    n.set_down(seat, Hand::empty(down.len as usize));
    if seat as i32 == n.player && !n.d.r.undo_take {
        // the hand before a take no longer tells the pile's cards (`_apply.pick_up_down`)
        n.start_hand = None;
    }
    let h = &n.hand(seat);
    let r = n.d.r.clone();
    if (!r.keep_r3 && h.at(R3) != 0) || (r.b3_faced && h.at(B3) != 0) {
        return face_threes(n, seat, r.side_of[seat] as usize);
    }
    true
}

/// Whether going out now is going out concealed, per the variant's definition.
fn is_concealed(n: &Core, _seat: usize) -> bool {
    let r = n.r();
    let flags = n.flags;
    if r.conc_side {
        return n.melds_before == 0;
    }
    if flags & F_HAD_MELDED != 0 {
        return false;
    }
    if r.conc_no_partner && flags & F_TOUCHED != 0 {
        return false;
    }
    if r.conc_own && flags & F_OWN == 0 {
        return false;
    }
    true
}

/// The hands without their cards of `kind`, credited per side.
fn credit(n: &mut Core, kind: u8, red: bool) {
    let r = n.d.r.clone();
    for seat in 0..r.players {
        let h = n.hand(seat);
        let k = h.at(kind);
        if k != 0 {
            let mut h2 = h;
            h2.c[kind as usize] = 0;
            n.set_hand(seat, h2);
            let side = r.side_of[seat] as usize;
            if red {
                n.red[side] += k;
            } else {
                n.aside[side] += k;
            }
        }
    }
}

/// Score the hand and add it to the totals; the game is over when a side reaches the target.
pub fn end_hand(n: &mut Core, went_out: i32, reason: &str, three_last: i32) {
    let r = n.d.r.clone();
    if !r.keep_r3 && r.r3_penalty == 0 {
        credit(n, R3, true);
    }
    if r.b3_faced && r.b3_penalty == 0 {
        credit(n, B3, false);
    }
    let mut concealed = false;
    let mut bonus_seat = went_out;
    let mut reason = reason.to_string();
    if went_out >= 0 {
        if n.phase == PH_FINAL_MELD || (r.last_round && stock_left(n) == 0) {
            bonus_seat = -1;
            reason = "went out after the stock ran out (no going-out bonus)".to_string();
        } else {
            concealed = is_concealed(n, went_out as usize);
        }
    }
    let scores = score_hand(n, bonus_seat, concealed, three_last);
    for (side, s) in scores.iter().enumerate() {
        n.totals[side] = add_total(n.totals[side], s);
    }
    n.result = Some(Rc::new(HandEnd { went_out, concealed, scores, reason }));
    n.player = -1;
    n.flags = 0;
    n.count = 0;
    n.melds_before = 0;
    if !n.pending.is_empty() {
        n.pending = Rc::new(vec![]);
    }
    n.pending_top = -1;
    n.start_hand = None;
    let top = n.totals[..r.n_sides].iter().copied().max().unwrap();
    if top >= r.target || (r.hands_limit != 0 && n.d.hand_number + 1 >= r.hands_limit) {
        n.phase = PH_GAME_OVER;
        n.winners = Rc::new((0..r.n_sides).filter(|&i| n.totals[i] == top).map(|i| i as u8).collect());
    } else {
        n.phase = PH_HAND_OVER;
    }
}
