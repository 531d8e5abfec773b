//! Can the turn still be finished legally? (`canasta/_core/_finish.py`)

use crate::canastas::{canastas_ok, kinds_short, ranks_short, side_canastas};
use crate::cards::*;
use crate::kernel::*;
use crate::opening::{comp_met, comp_options, open_then_out, Option3};
use crate::plan::{can_go_out_t, reach};
use crate::reasons::*;
use crate::rules::{ConcMin, Meld, Melds, Rules, Spec, BIG, COMP_CANASTA, NO_COMP};
use crate::why;
use crate::text;

/// A binding yes, black threes melded, a pile taken to go out concealed, or a sequence
/// lengthened past its size.
pub fn must_go_out(c: &Core) -> bool {
    let r = c.r();
    c.flags & F_MUST != 0 || past_max(r, c.melds(r.side_of[c.player as usize] as usize))
}

/// The side has a sequence longer than `melds.sequences.max_size` (brazilian 4.2), or a group
/// longer than a closed canasta (`melds.past_closed_going_out`, modern-american A5), made in this
/// turn, whose player must therefore go out in it.
pub fn past_max(r: &Rules, melds: &[Meld]) -> bool {
    if r.seq_past_max && melds.iter().any(|m| m.rank >= SEQ && m.nat > r.seq_max) {
        return true;
    }
    if r.past_closed && melds.iter().any(|m| m.rank < SEQ && m.rank != WILD && m.size() > r.cs) {
        return true;
    }
    false
}

/// Not forbidden by the partner's "no", nor by a variant where going out needs a yes.
pub fn may_go_out(c: &Core) -> bool {
    c.flags & F_NO == 0 && (!c.r().permission_required || c.flags & F_YES != 0)
}

/// Points still needed for the side's initial meld this turn (0 if opened).
pub fn opening_need(c: &Core, side: usize) -> i32 {
    if c.opened[side] {
        return 0;
    }
    0.max(c.r().initial_need(c.totals[side], c.d.hand_number) - c.count)
}

/// No meld may reach canasta size anywhere in this turn.
pub fn capped(c: &Core) -> bool {
    c.r().initial_never && c.melds_before == 0
}

/// `capped(c)` for the planner's `can_go_out_t`, plus 2 in the turn of a side's initial meld under
/// `initial_meld.no_wild` (italian 4.5: no wild card is melded in it).
pub fn plan_cap(c: &Core) -> i32 {
    let r = c.r();
    if c.melds_before != 0 {
        return 0;
    }
    (r.initial_never as i32) | if r.no_wild { 2 } else { 0 }
}

/// `_finish.out_most`: the most canastas `side` may have when it goes out this turn, for the
/// turn planner (mexicana 6.2: a red three faced per canasta; the count only grows in a turn);
/// -1 while a talon drawn at once still waits for the side's initial meld (its cards unseen).
pub fn out_most(c: &Core, side: usize) -> i32 {
    let r = c.r();
    if r.r3_per == 0 && !r.talon_now {
        return BIG;
    }
    if r.talon_now && !c.opened[side] {
        return -1;
    }
    if r.r3_per != 0 { c.red[side] / r.r3_per } else { BIG }
}

pub fn has_down(c: &Core, seat: usize) -> bool {
    c.down(seat).any()
}

/// Cards a player must hold after melding to end the turn without going out.
pub fn keep_for(c: &Core, seat: usize) -> i32 {
    let down = c.down(seat);
    if down.any() {
        return 0.max(c.r().keep_out - down.sum15());
    }
    c.r().keep_out
}

/// Cards of a taken pile that come into the hand.
pub fn arriving(r: &Rules, cards: &[u8]) -> i32 {
    cards.iter().filter(|&&k| (r.from_pile_aside >> k) & 1 == 0).count() as i32
}

/// `h` with the pile set aside for an initial meld come into it.
pub fn plus_pending(r: &Rules, h: &Hand, cards: &[u8]) -> Hand {
    let mut hl = *h;
    for &k in cards {
        if (r.from_pile_aside >> k) & 1 == 0 {
            hl.add_card(k);
        }
    }
    hl
}

/// The cards of a pile set aside for an initial meld that will come into the hand.
pub fn pending_hand(r: &Rules, cards: &[u8]) -> Hand {
    plus_pending(r, &Hand::empty(r.hand_len), cards)
}

/// No meld may reach canasta size while the side's initial meld is being made.
pub fn opening_capped(c: &Core) -> bool {
    !c.r().initial_canasta || capped(c)
}

/// Whether a concealed going out would waive the initial minimum for this player now.
pub fn waiver(c: &Core, seat: usize) -> bool {
    let r = c.r();
    if r.conc_min == ConcMin::Required {
        return false;
    }
    if r.conc_min == ConcMin::WaivedIfStock && c.flags & F_TOOK != 0 {
        return false;
    }
    if r.conc_player && c.flags & F_HAD_MELDED != 0 {
        return false;
    }
    !c.opened[r.side_of[seat] as usize]
}

/// hand-and-foot 6.3: the partners of the player going out play from their down hands.
pub fn partner_ready(c: &Core, seat: usize) -> bool {
    let r = c.r();
    if !r.partner_down {
        return true;
    }
    for &s in &r.members[r.side_of[seat] as usize] {
        if s as usize != seat && c.d.active.contains(&s) && (c.turned >> (FOOT + s as i64)) & 1 == 0 {
            return false;
        }
    }
    true
}

/// Bit `1 << rank` for each rank made dead by a closed canasta of any side.
pub fn dead_mask(c: &Core) -> i64 {
    let r = c.r();
    if !r.dead_ranks {
        return 0;
    }
    let mut mask = 0;
    for s in 0..r.n_sides {
        let info = c.info(s);
        mask |= info.rank_mask & !info.open_mask;
    }
    mask & !(1i64 << WILD)
}

/// `melds` as the turn planner should see them: a dead rank as a closed canasta of the side's.
pub fn plan_melds(c: &Core, melds: &[Meld]) -> Melds {
    let dead = dead_mask(c);
    if dead == 0 {
        return melds.to_vec();
    }
    let r = c.r();
    let mut out: Melds = melds
        .iter()
        .map(|m| if m.rank < 63 && (dead >> m.rank) & 1 == 1 { Meld::new(m.rank, m.nat.max(r.cs), 0, 0, 0) } else { *m })
        .collect();
    let mut have: i64 = 0;
    for m in melds {
        if m.rank < 63 {
            have |= 1i64 << m.rank;
        }
    }
    for rk in 4..15u8 {
        if (dead >> rk) & 1 == 1 && (have >> rk) & 1 == 0 {
            out.push(Meld::new(rk, r.cs, 0, 0, 0));
        }
    }
    out
}

/// Why `seat`'s side may not go out with the melds `melds`, or None.
pub fn out_problem(c: &Core, seat: usize, melds: &[Meld]) -> Option<Reason> {
    let r = c.r();
    if r.simple_out {
        let have = side_canastas(r, melds);
        return if have >= r.canastas_needed { None } else { Some(why![GO_OUT_CANASTAS, int(seat as i64), int(have), V::C(vec![0, 0, 0, 0])]) };
    }
    if !partner_ready(c, seat) {
        return Some(why![GO_OUT_PARTNER, int(seat as i64)]);
    }
    if r.no_unfinished != 0 {
        for m in melds {
            if m.rank < 32 && (r.no_unfinished >> m.rank) & 1 == 1 && !r.is_canasta(m) && (m.rank == WILD || m.jk + m.tw == 0) {
                return Some(why![GO_OUT_UNFINISHED, int(seat as i64), int(m.rank)]);
            }
        }
    }
    if !canastas_ok(r, melds) {
        let k = kinds_short(r, melds);
        return Some(why![GO_OUT_CANASTAS, int(seat as i64), int(side_canastas(r, melds)), V::C({
            let mut v: Vec<i64> = k.iter().map(|&x| x as i64).collect();
            if !r.rank_needed.is_empty() {
                v.extend(ranks_short(r, melds));
            }
            v
        })]);
    }
    if r.r3_per != 0 {
        // mexicana 6.2: at least one red three faced for each canasta the side has (A7: every
        // canasta, those completed this turn too)
        let have = side_canastas(r, melds);
        let red = c.red[r.side_of[seat] as usize];
        if (red as i64) < r.r3_per as i64 * have as i64 {
            return Some(crate::text!("{}", red_threes_words(r, have as i64, red as i64)));
        }
    }
    None
}

/// `_finish.red_threes_words`: the side has too few red threes faced for its canastas.
fn red_threes_words(r: &Rules, canastas: i64, red: i64) -> String {
    let per = if r.r3_per == 1 { "a red three".to_string() } else { format!("{} red threes", num(r.r3_per as i64)) };
    format!(
        "your side may go out only with {per} faced for each of its canastas: it would have {} canasta{} and {} red three{}; keep at least {} cards, one to discard",
        num(canastas),
        if canastas != 1 { "s" } else { "" },
        if red != 0 { num(red) } else { "no".to_string() },
        if red != 1 { "s" } else { "" },
        num(r.keep_out as i64)
    )
}

/// pennies-from-heaven 3.5 (`_finish.final_ban_problem`): a player left with the one card `k`, of a
/// rank that may not be the discard that goes out, must be able to go out by melding it.
pub fn final_ban_problem(c: &Core, seat: usize, k: u8, melds: &[Meld]) -> Option<Reason> {
    let r = c.r();
    if !r.by_discard {
        for i in 0..melds.len() {
            let m0 = melds[i];
            if m0.rank != kind(k) {
                continue;
            }
            let m = Meld::new(m0.rank, m0.nat + 1, m0.jk, m0.tw, m0.r3);
            let mut after = melds.to_vec();
            after[i] = m;
            if r.valid(&m) && out_problem(c, seat, &after).is_none() {
                return None;
            }
        }
    }
    Some(text!(
        "you would be left with {} alone, which may not be the discard with which you go out, and you could not go out by melding it",
        a_card(k)
    ))
}

/// Whether melding the single card `k` onto one of `melds` gives the side the canastas to go out.
pub fn one_card_out(r: &Rules, k: u8, melds: &[Meld], no_wild: bool) -> bool {
    if k <= TWO && (no_wild || (k == TWO && r.deuce_excl && crate::meldrules::deuce_open(r, melds))) {
        // italian 4.4: a deuce goes only onto the open meld of deuces (4.5: none this turn)
        if no_wild {
            return false;
        }
        for i in 0..melds.len() {
            let m0 = melds[i];
            if m0.rank != WILD {
                continue;
            }
            let m = Meld::new(WILD, m0.nat, m0.jk, m0.tw + 1, m0.r3);
            let mut after = melds.to_vec();
            after[i] = m;
            if r.valid(&m) && canastas_ok(r, &after) {
                return true;
            }
        }
        return false;
    }
    for i in 0..melds.len() {
        let m0 = melds[i];
        let (rk, nat, jk, tw, r3) = (m0.rank, m0.nat, m0.jk, m0.tw, m0.r3);
        let m;
        if rk >= SEQ {
            let low = seq_low(rk);
            if k < 15 || suit(k) != seq_suit(rk) || (kind(k) != low.wrapping_sub(1) && kind(k) as i32 != low as i32 + nat) {
                continue;
            }
            m = Meld::new(seq_rank(seq_suit(rk), low.min(kind(k))), nat + 1, 0, 0, 0);
        } else if kind(k) == rk && rk != WILD {
            m = Meld::new(rk, nat + 1, jk, tw, r3);
        } else if k == JK || k == TWO {
            m = Meld::new(rk, nat, jk + (k == JK) as i32, tw + (k == TWO) as i32, r3);
        } else {
            continue;
        }
        let mut after = melds.to_vec();
        after[i] = m;
        if r.valid(&m) && canastas_ok(r, &after) {
            return true;
        }
    }
    false
}

/// What the side's initial meld must include, where this turn is its initial meld's.
pub fn comp_due(c: &Core, side: usize) -> (i32, i32) {
    let r = c.r();
    if !r.comp_any || c.melds_before != 0 {
        return NO_COMP;
    }
    r.initial_comp(c.totals[side])
}

/// The (hand, melds, points) from which the rest of the turn is planned.
pub fn comp_plans(c: &Core, side: usize, h: &Hand, melds: &[Meld]) -> Vec<Option3> {
    let comp = comp_due(c, side);
    if comp.0 == 0 {
        return vec![(*h, melds.to_vec(), 0)];
    }
    comp_options(c.r(), h, melds, comp, dead_mask(c), opening_capped(c))
}

/// Whether `f` holds for one of `comp_plans(c, side, h, melds)`, tried in their order: where
/// no composition is due, for the hand and melds as they are, with no list built.
pub fn any_comp_plan(c: &Core, side: usize, h: &Hand, melds: &[Meld], mut f: impl FnMut(&Hand, &[Meld], i32) -> bool) -> bool {
    let comp = comp_due(c, side);
    if comp.0 == 0 {
        return f(h, melds, 0);
    }
    comp_options(c.r(), h, melds, comp, dead_mask(c), opening_capped(c)).iter().any(|(h3, m3, g)| f(h3, m3, *g))
}

/// Why the turn may not end now: the side's initial meld, laid this turn, lacks what it must
/// include; None when it has it or the side laid nothing.
pub fn comp_problem(c: &Core, side: usize) -> Option<Reason> {
    let comp = comp_due(c, side);
    let melds = c.melds(side);
    if comp.0 == 0 || melds.is_empty() || comp_met(c.r(), melds, comp) {
        return None;
    }
    Some(comp_reason(c.r(), melds, comp, false))
}

/// The reason naming what the initial meld lacks of `comp`.
pub fn comp_reason(r: &Rules, melds: &[Meld], comp: (i32, i32), after: bool) -> Reason {
    let (bits, points) = comp;
    if bits & COMP_CANASTA != 0 && !comp_met(r, melds, (bits & COMP_CANASTA, points)) {
        return why![INITIAL_COMP, int(bits & COMP_CANASTA), int(points), V::B(after)];
    }
    why![NATURAL_FIRST, V::B(after)]
}

/// What an after-the-action check names: the action (`what`).
pub type What = Spec;

/// Why the turn could not be finished from hand `h` with side melds `melds` (the side has
/// opened), or None when it can.
pub fn after_problem(c: &Core, seat: usize, h: &Hand, melds: &[Meld], must: bool, may_out: bool, what: &What) -> Option<Reason> {
    let r = c.r();
    let down = c.down(seat).any();
    if must {
        if down {
            return Some(just(MUST_DOWN));
        }
        if (!r.partner_down || partner_ready(c, seat)) && can_go_out_t(r, h, melds, 0, true, false, -1, plan_cap(c), out_most(c, r.side_of[seat] as usize)) {
            return None;
        }
        return Some(why![MUST_MELD_ALL, V::P(*what)]);
    }
    let downh;
    let h = if down {
        let dh = c.down(seat);
        if h.c[..N_KINDS].iter().any(|&x| x != 0) || dh.sum15() >= r.keep_out {
            return None;
        }
        // melded out: the down hand comes up now and the turn goes on from it; a down hand of one
        // card can only be discarded, going out (a house rule's tables.N.down_hand_size = 1)
        downh = dh;
        &downh
    } else {
        h
    };
    let n = h.sum15();
    if n >= 2 {
        return None;
    }
    if !may_out {
        return Some(why![NO_KEEP, V::P(*what), int(n)]);
    }
    let fin = c.phase == PH_FINAL_MELD;
    if fin && n == 1 {
        return None;
    }
    if n == 1 && r.final_ban != 0 {
        let k = (0..h.len as usize).rev().find(|&k| h[k] != 0).unwrap_or(0) as u8;
        if (r.final_ban >> kind(k)) & 1 == 1 {
            return final_ban_problem(c, seat, k, melds);
        }
    }
    if n == 0 && r.by_discard {
        return Some(why![OUT_BY_DISCARD, V::P(*what)]);
    }
    let gate = out_problem(c, seat, melds)?;
    if r.by_discard {
        return Some(gate);
    }
    if n == 1 && gate.code == GO_OUT_CANASTAS {
        if r.kinds_needed.is_none() {
            if can_go_out_t(r, h, melds, 0, !fin, false, -1, plan_cap(c), out_most(c, r.side_of[seat] as usize)) {
                return None;
            }
        } else {
            let k = (0..h.len as usize).rev().find(|&k| h[k] != 0).unwrap_or(0) as u8;
            if one_card_out(r, k, melds, plan_cap(c) > 1) {
                return None;
            }
        }
    }
    Some(gate)
}

/// Why melding (to hand `h2` and side melds `melds2`, `gain` points toward an initial meld;
/// `b3`: black threes) leaves the turn impossible to finish, or None.
#[allow(clippy::too_many_arguments)]
pub fn ok_problem(c: &Core, seat: usize, h2: &Hand, melds2: &[Meld], gain: i32, b3: bool, what: &What) -> Option<Reason> {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let comp = comp_due(c, side);
    if comp.0 == 0 {
        return ok_problem_met(c, seat, h2, melds2, gain, b3, what);
    }
    let mut first: Option<Reason> = None;
    for (h3, m3, g) in comp_options(r, h2, melds2, comp, dead_mask(c), opening_capped(c)) {
        match ok_problem_met(c, seat, &h3, &m3, gain + g, b3, what) {
            None => return None,
            Some(w) => {
                if first.is_none() {
                    first = Some(w);
                }
            }
        }
    }
    if first.is_some() && comp_met(r, melds2, comp) {
        return first;
    }
    Some(comp_reason(r, melds2, comp, true))
}

/// `ok_problem` with the composition of the initial meld met (or none asked).
#[allow(clippy::too_many_arguments)]
fn ok_problem_met(c: &Core, seat: usize, h2: &Hand, melds2: &[Meld], gain: i32, b3: bool, what: &What) -> Option<Reason> {
    let r = c.r();
    let side = r.side_of[seat] as usize;
    let flags = c.flags;
    let must = flags & F_MUST != 0 || (r.past_any && past_max(r, melds2));
    let may_out = flags & F_NO == 0 && (!r.permission_required || flags & F_YES != 0);
    let opened = c.opened[side];
    let need_rem = if opened { 0 } else { 0.max(r.initial_need(c.totals[side], c.d.hand_number) - c.count) };
    if c.phase == PH_INITIAL_TAKE {
        let rem = need_rem - gain;
        if rem <= 0 {
            return after_problem(c, seat, &plus_pending(r, h2, &c.pending), melds2, must, may_out, what);
        }
        if must {
            if c.down(seat).any() {
                return Some(just(MUST_DOWN));
            }
            if open_then_out(r, h2, melds2, rem, &pending_hand(r, &c.pending), capped(c), opening_capped(c),
                             out_most(c, side)) {
                return None;
            }
            return Some(why![MUST_INITIAL, int(c.count + gain), V::P(*what), V::B(false)]);
        }
        let keep = 0.max(keep_for(c, seat) - arriving(r, &c.pending));
        let pm;
        let planned: &[Meld] = if r.dead_ranks {
            pm = plan_melds(c, melds2);
            &pm
        } else {
            melds2
        };
        if reach(r, h2, planned, rem, keep) {
            return None;
        }
        return Some(why![INITIAL_SHORT, int(c.count + gain), V::H(*h2), V::M(melds2.to_vec()), int(rem), int(keep)]);
    }
    if !opened && need_rem > 0 {
        let rem = need_rem - gain;
        let down = c.down(seat).any();
        if rem <= 0 {
            if b3 {
                if after_problem(c, seat, h2, melds2, true, may_out, what).is_none() {
                    return None;
                }
                return Some(why![B3_OUT, int(seat as i64), V::H(*h2), V::M(melds2.to_vec())]);
            }
            return after_problem(c, seat, h2, melds2, must, may_out, what);
        }
        let keep = keep_for(c, seat);
        if !must && !b3 {
            let pm;
            let planned: &[Meld] = if r.dead_ranks {
                pm = plan_melds(c, melds2);
                &pm
            } else {
                melds2
            };
            if reach(r, h2, planned, rem, keep) {
                return None;
            }
        }
        if !may_out || down {
            if b3 {
                return Some(why![B3_OUT, int(seat as i64), V::H(*h2), V::M(melds2.to_vec())]);
            }
            if must {
                return Some(why![MUST_INITIAL, int(c.count + gain), V::P(*what), V::B(false)]);
            }
            return Some(why![INITIAL_SHORT, int(c.count + gain), V::H(*h2), V::M(melds2.to_vec()), int(rem), int(keep)]);
        }
        let waive = waiver(c, seat);
        if (!r.partner_down || partner_ready(c, seat))
            && can_go_out_t(r, h2, melds2, if waive { 0 } else { rem }, c.phase != PH_FINAL_MELD, false, -1, plan_cap(c),
                          out_most(c, side))
        {
            return None;
        }
        if b3 {
            return Some(why![B3_OUT, int(seat as i64), V::H(*h2), V::M(melds2.to_vec())]);
        }
        if must {
            return Some(why![MUST_INITIAL, int(c.count + gain), V::P(*what), V::B(waive)]);
        }
        return Some(why![INITIAL_SHORT_OUT, int(c.count + gain), V::H(*h2), V::M(melds2.to_vec()), int(rem), int(keep), V::B(waive)]);
    }
    if b3 {
        if may_out
            && !c.down(seat).any()
            && (!r.partner_down || partner_ready(c, seat))
            && can_go_out_t(r, h2, melds2, 0, c.phase != PH_FINAL_MELD, false, -1, plan_cap(c), out_most(c, side))
        {
            return None;
        }
        return Some(why![B3_OUT, int(seat as i64), V::H(*h2), V::M(melds2.to_vec())]);
    }
    after_problem(c, seat, h2, melds2, must, may_out, what)
}
