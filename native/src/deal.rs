//! Dealing (`canasta/_core/_deal.py`): the seats in play, the dealers, the shuffle, the hands,
//! the upcard and the first turn.

use crate::apply::begin_turn;
use crate::cards::*;
use crate::kernel::*;
use crate::py::Obj;
use crate::rng::Rng;
use crate::rules::Rules;
use crate::table::side_info;
use std::cell::RefCell;
use std::rc::Rc;

/// The seat that deals after `dealer`.
pub fn next_dealer(r: &Rules, dealer: i32) -> i32 {
    let n = r.players as i32;
    let mut d = (dealer + 1) % n;
    if r.score_keeper && d == n - 1 && n > 1 {
        d = 0;
    }
    d
}

/// The dealer of a new game's first hand.
pub fn first_dealer(r: &Rules, seed_text: &str) -> i32 {
    let players = r.players as i32;
    if r.first_dealer_random {
        return Rng::new(seed_text, "dealer").below(players as u64) as i32;
    }
    let mut dealer = players - 1;
    if r.score_keeper {
        dealer = if players > 1 { next_dealer(r, dealer - 1) } else { 0 };
    }
    dealer
}

/// The seats playing this deal, in turn order.
pub fn active_seats(r: &Rules, hand_number: i64) -> Vec<u8> {
    if r.active_n >= r.players {
        return (0..r.players as u8).collect();
    }
    let mut big = &r.members[0];
    for m in &r.members {
        if m.len() > big.len() {
            big = m;
        }
    }
    let out = big[(hand_number as usize) % big.len()];
    let lines: Vec<Vec<u8>> = r.members.iter().map(|side| side.iter().copied().filter(|&s| s != out).collect()).collect();
    let longest = lines.iter().map(|l| l.len()).max().unwrap_or(0);
    let mut order = vec![];
    for i in 0..longest {
        for line in &lines {
            if i < line.len() {
                order.push(line[i]);
            }
        }
    }
    order
}

/// The seats that deal: the dealer, and (new-canasta) the down-hand dealer after him.
pub fn dealers(r: &Rules, dealer: i32) -> Vec<i32> {
    if r.down_size != 0 && r.players > 1 {
        return vec![dealer, next_dealer(r, dealer)];
    }
    vec![dealer]
}

/// New-canasta's precise dealer draws, drawn by probability.
pub fn precise_draws(r: &Rules, seed_text: &str, hand_number: i64, dealer: i32) -> Vec<u8> {
    let who = dealers(r, dealer);
    if r.precise_bonus == 0 || r.precise_p <= 0.0 {
        return vec![];
    }
    let mut rng = Rng::new(seed_text, &format!("precise{hand_number}"));
    let mut out: Vec<u8> = who.iter().filter(|_| rng.random() < r.precise_p).map(|&s| s as u8).collect();
    out.sort();
    out.dedup();
    out
}

/// Who plays first.
pub fn first_player(r: &Rules, dealer: i32, active: &[u8]) -> usize {
    let n = r.players as i32;
    if r.score_keeper {
        let mut s = (next_dealer(r, dealer) + 1) % n;
        if s == n - 1 && n > 1 {
            s = 0;
        }
        return s as usize;
    }
    if let Some(i) = active.iter().position(|&s| s as i32 == dealer) {
        return active[(i + 1) % active.len()] as usize;
    }
    let mut s = (dealer + 1) % n;
    while !active.contains(&(s as u8)) {
        s = (s + 1) % n;
    }
    s as usize
}

/// Italian 2.3 (`upcard.buried`): turn the upcard, count off as many stock cards as its number
/// (or value) face down and put the upcard on them: the pile (bottom first) and the number of
/// buried cards. A wild card or a three turned up goes to the bottom of the stock and the next
/// card is turned (digest A2).
fn buried_packet(r: &Rules, stock: &mut Vec<u8>) -> (Vec<u8>, usize) {
    let mut up = stock.pop().unwrap();
    let mut tries = stock.len();
    while kind(up) < 4 && tries > 0 {
        stock.insert(0, up);
        up = stock.pop().unwrap();
        tries -= 1;
    }
    let k = kind(up) as usize;
    let n = if r.buried == 1 { k as i64 } else { r.values[k] as i64 };
    let n = (n.max(0) as usize).min(stock.len());
    let mut pile: Vec<u8> = (0..n).map(|_| stock.pop().unwrap()).collect();
    pile.push(up);
    (pile, n)
}

/// Shuffle and deal a hand, and start the first turn.
#[allow(clippy::too_many_arguments)]
pub fn deal(r: Rc<Rules>, py_rules: Obj, seed: Obj, seed_text: String, hand_number: i64, dealer: i32, totals: &[i64],
            precise: Vec<u8>) -> Core {
    let mut rng = Rng::new(&seed_text, &format!("hand{hand_number}"));
    let mut stock: Vec<u8> = vec![];
    for (k, &count) in r.deck_codes.iter().enumerate() {
        for _ in 0..count {
            stock.push(k as u8);
        }
    }
    rng.shuffle(&mut stock);
    let active = active_seats(&r, hand_number);
    let n = r.players;
    let size = r.hand_len;
    let mut hands = vec![Hand::empty(size); n];
    let mut downs = vec![Hand::empty(size); n];
    let order: Vec<usize> = (0..n).map(|i| (dealer as usize + 1 + i) % n).filter(|s| active.contains(&(*s as u8))).collect();
    for _ in 0..r.hand_size {
        for &s in &order {
            let card = stock.pop().unwrap();
            hands[s].add_card(card);
        }
    }
    for _ in 0..r.down_size {
        for &s in &order {
            let card = stock.pop().unwrap();
            downs[s].add_card(card);
        }
    }
    let mut buried = 0;
    let mut pile: Vec<u8> = if r.buried != 0 {
        let (p, b) = buried_packet(&r, &mut stock);
        buried = b as u32;
        p
    } else if r.upcard_turned {
        vec![stock.pop().unwrap()]
    } else {
        vec![]
    };
    let mut frozen = !pile.is_empty() && (r.upcard_freezes >> pile[0]) & 1 == 1;
    if !pile.is_empty() && (r.cover >> pile[0]) & 1 == 1 {
        loop {
            let card = stock.pop().unwrap();
            pile.push(card);
            if (r.upcard_freezes >> card) & 1 == 1 {
                frozen = true;
            }
            if !r.cover_repeat || (r.cover >> card) & 1 == 0 || stock.is_empty() {
                break;
            }
        }
    }
    let mut red = [0i32; MAXP];
    if !r.keep_r3 && r.r3_at_deal {
        for &s in &order {
            while hands[s][R3 as usize] != 0 && !stock.is_empty() {
                hands[s][R3 as usize] -= 1;
                red[r.side_of[s] as usize] += 1;
                let card = stock.pop().unwrap();
                hands[s].add_card(card);
            }
        }
    }
    let stock_n = stock.len();
    let mut tot = [0i64; MAXP];
    tot[..totals.len()].copy_from_slice(totals);
    let empty_side = Rc::new(Side { melds: vec![], info: side_info(&r, &[]) });
    let mut sides: [Option<Rc<Side>>; MAXP] = Default::default();
    for s in sides.iter_mut().take(r.n_sides) {
        *s = Some(empty_side.clone());
    }
    let first = first_player(&r, dealer, &active);
    let d = Rc::new(Deal {
        r: r.clone(),
        py_rules,
        seed,
        seed_text,
        hand_number,
        dealer,
        active,
        precise,
        stock,
        py: RefCell::new(None),
    });
    let mut c = Core {
        d,
        hands: Rc::new(Hands::new(&hands, size)),
        downs: Rc::new(Hands::new(&downs, size)),
        sides,
        red,
        aside: [0; MAXP],
        turned: 0,
        opened: [false; MAXP],
        melded: [false; MAXP],
        stock_n,
        pile: pile_of(&pile),
        pile_n: pile.len(),
        buried,
        frozen,
        player: -1,
        phase: PH_DRAW,
        flags: 0,
        count: 0,
        melds_before: 0,
        pending: Rc::new(vec![]),
        pending_top: -1,
        start_hand: None,
        took_last: [false; MAXP],
        last_turns: -1,
        totals: tot,
        result: None,
        winners: Rc::new(vec![]),
        history: None,
    };
    begin_turn(&mut c, first);
    c
}
