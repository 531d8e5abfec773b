//! The meld phase's generators: the legal action ids after the draw (MELD, FINAL_MELD,
//! INITIAL_TAKE), in order (`canasta/_core/_meldphase.py`). Built on `meld` and `discard` (the
//! checks), `finish` and `rules`; built upon by `legal`.

use crate::cards::*;
use crate::discard::*;
use crate::finish::*;
use crate::kernel::*;
use crate::meld::*;
use crate::meldrules::card_rule;
use crate::rules::*;
use crate::reasons::Reason;
use crate::table::first_alike;

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

/// A hand's cards of rank `rk` (by suit), jokers and deuces, packed as `GroupEntry::need_of`
/// packs a meld's.
#[inline]
fn have_of(h: &Hand, rk: u8) -> u64 {
    let base = 4 * rk as usize - 1;
    let mut have = 0u64;
    for s in 0..4 {
        have |= (h.c[base + s].min(127) as u64) << (8 * s);
    }
    have | (h.c[JK as usize].min(127) as u64) << 32 | (h.c[TWO as usize].min(127) as u64) << 40
}

/// Whether a hand (`have`, packed by `have_of`) holds the cards of the new meld `e`.
#[inline]
fn holds(e: &GroupEntry, have: u64, h: &Hand) -> bool {
    if e.need == NEED_OTHER {
        return held(h, e.cards.s());
    }
    // a byte of `have` smaller than the byte of `need` borrows its high bit away
    ((have | NEED_HIGH) - e.need) & NEED_HIGH == NEED_HIGH
}

/// When `ok_problem` passes for any hand of a given size: the side owes nothing this turn (no
/// initial meld, composition or going out due) and the player keeps two cards, or one or
/// none with a down hand to go on from (`after_problem`'s first cases). Then the suits of the
/// cards an action takes from the hand do not matter, and no plan is made.
struct Finishable {
    free: bool,
    down: bool,
    down_enough: bool,
}

impl Finishable {
    fn new(c: &Core, seat: usize, side: usize) -> Finishable {
        let r = c.r();
        let free = c.phase != PH_INITIAL_TAKE
            && c.flags & F_MUST == 0
            && (c.opened[side] || r.initial_need(c.totals[side], c.d.hand_number) - c.count <= 0)
            && comp_due(c, side).0 == 0;
        let dh = c.down(seat);
        Finishable { free, down: dh.any(), down_enough: dh.sum15() >= r.keep_out }
    }

    /// `ok_problem(c, seat, h2, melds2, gain, false, _)` is None for every `h2` of `left` cards.
    #[inline]
    fn passes(&self, r: &Rules, melds2: &[Meld], left: i32) -> bool {
        self.free
            && (if self.down { left >= 1 || self.down_enough } else { left >= 2 })
            && !(r.past_any && past_max(r, melds2))
    }
}

/// `meld_phase_ids` where cards carry suits: every action the hand allows whose check passes
/// (`meld_problem`, `add_problem`, ...). A meld's rules are checked once for all the suits that
/// make it, and the turn's end is planned per set of suits only where the hand left matters.
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
    let n_hand = h.sum15();
    let finishable = Finishable::new(c, seat, side);
    let vals = &r.values;
    // the side's melds after each candidate, changed in place and restored
    let mut buf: Melds = melds.clone();
    let (jk, two) = (h.at(JK), h.at(TWO));
    for rk in 4..15u8 {
        let n = h.at(rk);
        if n < 2 {
            continue;
        }
        let have = have_of(h, rk);
        for g in &r.suited_groups[rk as usize] {
            let nm = g.meld;
            if nm.nat > n || nm.jk > jk || nm.tw > two {
                continue;
            }
            if !g.entries.iter().any(|e| holds(e, have, h)) || new_meld_rule_problem(c, melds, &nm).is_some() {
                continue;
            }
            buf.push(nm);
            let easy = finishable.passes(r, &buf, n_hand - nm.size());
            for e in &g.entries {
                if !holds(e, have, h) {
                    continue;
                }
                let cards = e.cards.s();
                if easy || {
                    let gain = cards.iter().map(|&k| vals[k as usize]).sum();
                    ok_problem(c, seat, &less_cards(h, cards), &buf, gain, false, &specs[e.id as usize]).is_none()
                } {
                    acts.push(e.id);
                }
            }
            buf.pop();
        }
    }
    // (the ids are sorted below: the order they are found in does not matter)
    for first in 15..h.len as usize {
        if h[first] == 0 {
            continue;
        }
        for (mid, cards) in &r.suited_seqs[first] {
            let k = cards.s();
            if !(h.at(k[1]) != 0 && h.at(k[2]) != 0 && (k.len() == 3 || held(h, k))) {
                continue;
            }
            let Ok(nm) = new_sequence(c, k) else { continue };
            buf.push(nm);
            if finishable.passes(r, &buf, n_hand - nm.nat) || {
                let gain = k.iter().map(|&x| vals[x as usize]).sum();
                ok_problem(c, seat, &less_cards(h, k), &buf, gain, false, &specs[*mid as usize]).is_none()
            } {
                acts.push(*mid);
            }
            buf.pop();
        }
    }
    for (mid, cards) in &r.suited_others {
        if held(h, cards.s()) && meld_problem(c, seat, &specs[*mid as usize]).is_none() {
            acts.push(*mid);
        }
    }
    // additions: to each meld, every card that could go on it; a meld's rules checked once for
    // the naturals of its rank whatever their suits (`add_grown`)
    let mb = c.melds_before;
    let mut numbers = [0i32; 32];
    for i in 0..melds.len() {
        let m = melds[i];
        let key = meld_key(m.rank);
        numbers[key as usize] += 1;
        let number = numbers[key as usize];
        if key >= SEQ {
            let low = seq_low(m.rank) as i32;
            let st = key - SEQ;
            for rk in [low - 1, low + m.nat] {
                if r.seq_lo as i32 <= rk && rk <= r.seq_hi as i32 {
                    let k = (4 * rk - 1 + st as i32) as u8;
                    if h.at(k) == 0 {
                        continue;
                    }
                    if let Some(&aid) = r.ids.get(&Spec::simple(ADD, k as i32, key as i32, number)) {
                        if add_problem(c, seat, &specs[aid as usize]).is_none() {
                            acts.push(aid);
                        }
                    }
                }
            }
            continue;
        }
        if first_alike(melds, i, mb) != i {
            continue; // the same play as on an earlier meld just like it: never offered (add_problem)
        }
        // the cards that could go on it, a class at a time: naturals of its rank (any suit), a
        // joker, a deuce, a red three; the black threes' meld takes black threes
        let mut classes: [[u8; 4]; 4] = [[0; 4]; 4];
        let mut sizes = [0usize; 4];
        if key == B3 {
            classes[0][0] = B3;
            sizes[0] = 1;
        } else {
            if key != WILD {
                for s in 0..4 {
                    classes[0][s] = 4 * key - 1 + s as u8;
                }
                sizes[0] = 4;
            }
            classes[1][0] = JK;
            classes[2][0] = TWO;
            sizes[1] = 1;
            sizes[2] = 1;
            if key != WILD {
                classes[3][0] = R3;
                sizes[3] = 1;
            }
        }
        for (class, &size) in classes.iter().zip(sizes.iter()) {
            let mut grown: Option<Result<(Meld, i32, bool), Option<Reason>>> = None;
            let mut easy = false;
            for &k in &class[..size] {
                if h.at(k) == 0 {
                    continue;
                }
                let Some(&aid) = r.ids.get(&Spec::simple(ADD, k as i32, key as i32, number)) else { continue };
                let probe = &specs[aid as usize];
                let g = grown.get_or_insert_with(|| {
                    let g = add_grown(c, seat, probe, i);
                    if let Ok((nm, _, b3)) = g {
                        buf[i] = nm;
                        easy = !b3 && finishable.passes(r, &buf, n_hand - 1);
                        buf[i] = m;
                    }
                    g
                });
                let ok = match g {
                    Err(x) => x.is_none(),
                    Ok((nm, gain, b3)) => {
                        easy || {
                            // a natural of another suit adds its own points
                            let gain = if kind(k) == key && k > TWO && key != B3 { vals[k as usize] } else { *gain };
                            buf[i] = *nm;
                            let ok = ok_problem(c, seat, &h.less_card(k), &buf, gain, *b3, probe).is_none();
                            buf[i] = m;
                            ok
                        }
                    }
                };
                if ok {
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
