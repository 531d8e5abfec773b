//! The position (`canasta/_core/_kernel.py`): a `Core` is built once and never changed after
//! it is handed out; `apply` clones it (every part shared until changed) and changes the clone.

use crate::cards::*;
use crate::py::Obj;
use crate::rules::{Meld, Melds, Rules};
use crate::table::{appended_info, grown_info, side_info, SideInfo};
use std::cell::RefCell;
use std::rc::Rc;

pub use crate::codes::{FOOT, F_ASKED, F_B3, F_DREW, F_HAD_MELDED, F_MELDED, F_MUST, F_MUST_OUT, F_NATURAL, F_NO,
    F_NO_TAKE, F_OWN, F_TOOK, F_TOUCHED, F_YES, PH_ANSWER, PH_DRAW, PH_FINAL_MELD, PH_GAME_OVER, PH_HAND_OVER,
    PH_INITIAL_TAKE, PH_MELD};

pub const MAXP: usize = 12;
/// `canasta._variant_terms.MAX_PLAYERS`: the most seats a table has.

/// A hand: the count of each card kind (15), then of each suited natural (59 in all) where
/// the variant has suits; `len` is the Python `bytes`' length (0: `b""`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hand {
    pub len: u8,
    pub c: [u8; N_CODES],
}

impl std::fmt::Debug for Hand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", &self.c[..self.len as usize])
    }
}

impl Hand {
    pub fn empty(len: usize) -> Hand {
        Hand { len: len as u8, c: [0; N_CODES] }
    }
    pub fn from_slice(v: &[u8]) -> Hand {
        let mut h = Hand::empty(v.len());
        h.c[..v.len()].copy_from_slice(v);
        h
    }
    #[inline]
    pub fn s(&self) -> &[u8] {
        &self.c[..self.len as usize]
    }
    #[inline]
    pub fn at(&self, k: u8) -> i32 {
        self.c[k as usize] as i32
    }
    /// `sum(h)`
    #[inline]
    pub fn sum(&self) -> i32 {
        self.c.iter().map(|&x| x as i32).sum()
    }
    /// `sum(h[:15])`
    #[inline]
    pub fn sum15(&self) -> i32 {
        self.c[..N_KINDS].iter().map(|&x| x as i32).sum()
    }
    /// `any(h)`
    #[inline]
    pub fn any(&self) -> bool {
        self.c.iter().any(|&x| x != 0)
    }
    /// `len(h) > 15`: a hand with suited cards
    #[inline]
    pub fn suited(&self) -> bool {
        self.len as usize > N_KINDS
    }
    /// `h[:15]`
    pub fn first15(&self) -> Hand {
        let mut h = Hand::empty(N_KINDS.min(self.len as usize));
        h.c[..h.len as usize].copy_from_slice(&self.c[..h.len as usize]);
        h
    }
    /// The hand less one card code (a suited natural leaves its kind's count too).
    #[inline]
    pub fn less_card(&self, k: u8) -> Hand {
        let mut h = *self;
        h.c[k as usize] = h.c[k as usize].wrapping_sub(1);
        if k > 14 {
            let j = ((k + 1) >> 2) as usize;
            h.c[j] = h.c[j].wrapping_sub(1);
        }
        h
    }
    /// The hand with one more card code.
    #[inline]
    pub fn plus_card(&self, k: u8) -> Hand {
        let mut h = *self;
        h.add_card(k);
        h
    }
    #[inline]
    pub fn add_card(&mut self, k: u8) {
        self.c[k as usize] = self.c[k as usize].wrapping_add(1);
        if k > 14 {
            let j = ((k + 1) >> 2) as usize;
            self.c[j] = self.c[j].wrapping_add(1);
        }
    }
    #[inline]
    pub fn remove_card(&mut self, k: u8) {
        self.c[k as usize] = self.c[k as usize].wrapping_sub(1);
        if k > 14 {
            let j = ((k + 1) >> 2) as usize;
            self.c[j] = self.c[j].wrapping_sub(1);
        }
    }
    /// The hand less `n` of the count at index `k` (no kind adjustment: `_minus`/`_less`).
    #[inline]
    pub fn less(&self, k: u8, n: i32) -> Hand {
        let mut h = *self;
        h.c[k as usize] = (h.c[k as usize] as i32 - n) as u8;
        h
    }
}

impl std::ops::Index<usize> for Hand {
    type Output = u8;
    #[inline]
    fn index(&self, i: usize) -> &u8 {
        &self.c[i]
    }
}

impl std::ops::IndexMut<usize> for Hand {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut u8 {
        &mut self.c[i]
    }
}

/// What stays fixed through one hand: the table's rules and how the hand was dealt.
pub struct Deal {
    pub r: Rc<Rules>,
    pub py_rules: Obj,
    pub seed: Obj,
    pub seed_text: String,
    pub hand_number: i64,
    pub dealer: i32,
    pub active: Vec<u8>,
    pub precise: Vec<u8>,
    /// the stock as dealt (top last)
    pub stock: Vec<u8>,
    /// the Python `Deal`, built when first asked for
    pub py: RefCell<Option<Obj>>,
}

/// How a hand ended: who went out (-1: nobody), concealed, the itemised scores, why.
pub struct HandEnd {
    pub went_out: i32,
    pub concealed: bool,
    pub scores: Vec<Vec<(String, i32, i64)>>,
    pub reason: String,
}

pub struct PileNode {
    pub card: u8,
    pub below: Option<Rc<PileNode>>,
}

pub struct Hist {
    pub id: u32,
    pub seat: i32,
    pub prev: Option<Rc<Hist>>,
    /// the Python link `(id, previous link, seat)`, built when first asked: shared by every
    /// state whose history passes here, as the Python core shares its links
    pub py: RefCell<Option<Obj>>,
}

impl Hist {
    pub fn new(id: u32, seat: i32, prev: Option<Rc<Hist>>) -> Hist {
        Hist { id, seat, prev, py: RefCell::new(None) }
    }
}

/// A history is a chain as long as the game (a save may hold a million actions): it is freed
/// link by link, not by recursion, which would overflow the stack.
impl Drop for Hist {
    fn drop(&mut self) {
        let mut next = self.prev.take();
        while let Some(link) = next {
            next = match Rc::try_unwrap(link) {
                Ok(mut h) => h.prev.take(),
                Err(_) => None, // shared with another position: it lives on
            };
        }
    }
}

/// The pile's chain, freed likewise.
impl Drop for PileNode {
    fn drop(&mut self) {
        let mut next = self.below.take();
        while let Some(link) = next {
            next = match Rc::try_unwrap(link) {
                Ok(mut n) => n.below.take(),
                Err(_) => None,
            };
        }
    }
}

/// A side's melds and their summary, replaced together.
pub struct Side {
    pub melds: Melds,
    pub info: SideInfo,
}

/// Every seat's hand, each `hand_len` counts, side by side: a position keeps what its hands
/// need (15 bytes a hand where cards have no suits), not a `Hand` each.
#[derive(Clone)]
pub struct Hands {
    pub stride: usize,
    pub data: Vec<u8>,
}

impl Hands {
    pub fn new(hands: &[Hand], stride: usize) -> Hands {
        let mut data = Vec::with_capacity(hands.len() * stride);
        for h in hands {
            data.extend_from_slice(&h.c[..stride]);
        }
        Hands { stride, data }
    }
    #[inline]
    pub fn get(&self, seat: usize) -> Hand {
        let s = self.stride;
        let mut h = Hand::empty(s);
        h.c[..s].copy_from_slice(&self.data[seat * s..seat * s + s]);
        h
    }
    #[inline]
    pub fn set(&mut self, seat: usize, h: &Hand) {
        let s = self.stride;
        self.data[seat * s..seat * s + s].copy_from_slice(&h.c[..s]);
    }
    pub fn len(&self) -> usize {
        self.data.len() / self.stride.max(1)
    }
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = Hand> + '_ {
        (0..self.len()).map(move |s| self.get(s))
    }
}

#[derive(Clone)]
pub struct Core {
    pub d: Rc<Deal>,
    pub hands: Rc<Hands>,
    pub downs: Rc<Hands>,
    pub sides: [Option<Rc<Side>>; MAXP],
    pub red: [i32; MAXP],
    pub aside: [i32; MAXP],
    pub turned: i64,
    pub opened: [bool; MAXP],
    pub melded: [bool; MAXP],
    pub stock_n: usize,
    pub pile: Option<Rc<PileNode>>,
    pub pile_n: usize,
    /// Cards at the bottom of the pile still face down (`upcard.buried`, Italian 2.3), until the
    /// pile is taken.
    pub buried: u32,
    pub frozen: bool,
    pub player: i32,
    pub phase: i64,
    pub flags: i64,
    pub count: i32,
    pub melds_before: usize,
    pub pending: Rc<Vec<u8>>,
    pub pending_top: i32,
    pub start_hand: Option<Rc<Hand>>,
    pub took_last: [bool; MAXP],
    pub last_turns: i32,
    pub totals: [i64; MAXP],
    pub result: Option<Rc<HandEnd>>,
    pub winners: Rc<Vec<u8>>,
    pub history: Option<Rc<Hist>>,
}

impl Core {
    #[inline]
    pub fn r(&self) -> &Rules {
        &self.d.r
    }
    #[inline]
    pub fn melds(&self, side: usize) -> &Melds {
        &self.sides[side].as_ref().unwrap().melds
    }
    #[inline]
    pub fn info(&self, side: usize) -> &SideInfo {
        &self.sides[side].as_ref().unwrap().info
    }
    #[inline]
    pub fn hand(&self, seat: usize) -> Hand {
        self.hands.get(seat)
    }
    #[inline]
    pub fn down(&self, seat: usize) -> Hand {
        self.downs.get(seat)
    }
    pub fn set_hand(&mut self, seat: usize, h: Hand) {
        Rc::make_mut(&mut self.hands).set(seat, &h);
    }
    pub fn set_down(&mut self, seat: usize, h: Hand) {
        Rc::make_mut(&mut self.downs).set(seat, &h);
    }
    /// Give `side` the melds `melds` (and their summary).
    pub fn set_melds(&mut self, side: usize, melds: Melds) {
        let info = side_info(self.r(), &melds);
        self.sides[side] = Some(Rc::new(Side { melds, info }));
    }
    /// Give `side` the melds `melds`, in which only meld `i` changed (same rank).
    pub fn grow_meld(&mut self, side: usize, melds: Melds, i: usize) {
        let info = grown_info(self.r(), self.info(side), &melds, i);
        self.sides[side] = Some(Rc::new(Side { melds, info }));
    }
    /// Give `side` the melds `melds`: the ones it had and a new meld last.
    pub fn append_meld(&mut self, side: usize, melds: Melds) {
        let info = appended_info(self.r(), self.info(side), &melds);
        self.sides[side] = Some(Rc::new(Side { melds, info }));
    }
    /// A copy of this position sharing nothing with it (every part copied), on the rules `r`,
    /// with the Python rules and seed given (null for a position Python never sees): for a
    /// thread that plays without the GIL, whose positions no other thread may reach.
    pub fn detached(&self, r: Rc<Rules>, py_rules: Obj, seed: Obj) -> Core {
        let d = &self.d;
        let deal = Deal {
            r,
            py_rules,
            seed,
            seed_text: d.seed_text.clone(),
            hand_number: d.hand_number,
            dealer: d.dealer,
            active: d.active.clone(),
            precise: d.precise.clone(),
            stock: d.stock.clone(),
            py: RefCell::new(None),
        };
        let mut sides: [Option<Rc<Side>>; MAXP] = Default::default();
        for (to, from) in sides.iter_mut().zip(self.sides.iter()) {
            *to = from.as_ref().map(|x| Rc::new(Side { melds: x.melds.clone(), info: x.info.clone() }));
        }
        let mut moves = vec![];
        let mut link = &self.history;
        while let Some(h) = link {
            moves.push((h.id, h.seat));
            link = &h.prev;
        }
        let mut history = None;
        for &(id, seat) in moves.iter().rev() {
            history = Some(Rc::new(Hist::new(id, seat, history)));
        }
        Core {
            d: Rc::new(deal),
            hands: Rc::new((*self.hands).clone()),
            downs: Rc::new((*self.downs).clone()),
            sides,
            pile: pile_of(&pile_cards(self)),
            pending: Rc::new((*self.pending).clone()),
            start_hand: self.start_hand.as_ref().map(|h| Rc::new(**h)),
            result: self.result.as_ref().map(|x| {
                Rc::new(HandEnd { went_out: x.went_out, concealed: x.concealed, scores: x.scores.clone(),
                                  reason: x.reason.clone() })
            }),
            winners: Rc::new((*self.winners).clone()),
            history,
            ..self.clone()
        }
    }
    /// The cards left in the stock, top last.
    pub fn stock(&self) -> &[u8] {
        &self.d.stock[..self.stock_n]
    }
    pub fn pile_top(&self) -> u8 {
        self.pile.as_ref().unwrap().card
    }
}

/// Cards at the bottom of the stock that are the talon's packets set aside at the deal and not
/// yet taken (`deal.talon_set_aside`, modern-american A2). 0 where the variant sets none aside.
pub fn reserved(c: &Core) -> usize {
    let r = c.r();
    if !r.talon_aside {
        return 0;
    }
    let mut k: i64 = c.opened[..r.n_sides].iter().filter(|&&o| o).count() as i64;
    if c.player >= 0 && c.melds_before == 0 && c.opened[r.side_of[c.player as usize] as usize] {
        k -= 1;
    }
    let k = k.max(0) as usize;
    r.talon[k.min(r.talon.len())..].iter().map(|&x| x as usize).sum()
}

/// Cards a player may still draw from the stock (all of it, but talon packets set aside).
#[inline]
pub fn stock_left(c: &Core) -> usize {
    if c.r().talon_aside { c.stock_n.saturating_sub(reserved(c)) } else { c.stock_n }
}

/// The pile's cards, bottom first (its top card last).
pub fn pile_cards(c: &Core) -> Vec<u8> {
    let mut out = Vec::with_capacity(c.pile_n);
    let mut link = &c.pile;
    while let Some(n) = link {
        out.push(n.card);
        link = &n.below;
    }
    out.reverse();
    out
}

/// The cards under its top card that a take of the pile brings, bottom first: the whole pile,
/// or the cards down to `pile.take_top`.
pub fn pile_below(c: &Core) -> Vec<u8> {
    let n = c.r().take_top;
    let cards = pile_cards(c);
    if n != 0 && cards.len() > n {
        return cards[cards.len() - n..cards.len() - 1].to_vec();
    }
    cards[..cards.len().saturating_sub(1)].to_vec()
}

/// The pile made of `cards` (bottom first).
pub fn pile_of(cards: &[u8]) -> Option<Rc<PileNode>> {
    let mut link = None;
    for &k in cards {
        link = Some(Rc::new(PileNode { card: k, below: link }));
    }
    link
}

/// The index in `melds` of the side's meld number `number` (from 1) of `rank`, or -1
/// (`rank` `SEQ + suit`: of the side's sequences of that suit).
pub fn meld_index(melds: &[Meld], rank: i32, number: i32) -> i32 {
    let mut number = number;
    if rank >= SEQ as i32 {
        for (i, m) in melds.iter().enumerate() {
            let r = m.rank as i32;
            if r >= SEQ as i32 && SEQ as i32 + ((r - SEQ as i32) >> 4) == rank {
                number -= 1;
                if number == 0 {
                    return i as i32;
                }
            }
        }
        return -1;
    }
    for (i, m) in melds.iter().enumerate() {
        if m.rank as i32 == rank {
            number -= 1;
            if number == 0 {
                return i as i32;
            }
        }
    }
    -1
}
