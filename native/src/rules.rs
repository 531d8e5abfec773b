//! A variant compiled for one table size: `canasta/_core/_rules.py`'s `Rules` (its values are
//! read once from the Python object by attribute name, in `pyrules.rs`), the meld's validity
//! checks, and the lookup tables of the dense action space, derived from `Rules.specs` exactly
//! as the Python side derives them.

use crate::cards::*;
use crate::py::*;
use std::cell::RefCell;
use crate::fx::FxMap as HashMap;

pub const BIG: i32 = 1 << 20;

/// What a side's initial meld must include, as bits (`Rules::initial_comp`): a natural meld of
/// three or more (modern-american 4.9), a canasta of the kinds set (brazilian 7.2).
pub const COMP_CLEAN: i32 = 1;
pub const COMP_NATURAL: i32 = 2;
pub const COMP_MIXED: i32 = 4;
pub const COMP_WILD: i32 = 8;
pub const COMP_SEQ: i32 = 16;
pub const COMP_CANASTA: i32 = COMP_NATURAL | COMP_MIXED | COMP_WILD | COMP_SEQ;
/// (bits, points): nothing asked.
pub const NO_COMP: (i32, i32) = (0, 0);

// action kinds and take ways, generated from `_rules.py`
pub use crate::codes::kinds::*;

/// A meld on the table: (rank, naturals, jokers, twos, red three on top); a sequence is
/// (`seq_rank(suit, lowest)`, its length, 0, 0, 0). Ordered as the Python tuple is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Meld {
    pub rank: u8,
    pub nat: i32,
    pub jk: i32,
    pub tw: i32,
    pub r3: u8,
}

impl Meld {
    pub const fn new(rank: u8, nat: i32, jk: i32, tw: i32, r3: u8) -> Meld {
        Meld { rank, nat, jk, tw, r3 }
    }
    #[inline]
    pub fn size(&self) -> i32 {
        self.nat + self.jk + self.tw
    }
    #[inline]
    pub fn wilds(&self) -> i32 {
        self.jk + self.tw
    }
}

pub type Melds = Vec<Meld>;

/// One shape of the new melds of a rank where cards carry suits (its naturals, jokers and deuces:
/// the checks of its rules are the same whatever suits make it), with every set of cards of the
/// action space that makes it.
#[derive(Clone, Debug)]
pub struct GroupShape {
    pub meld: Meld,
    pub entries: Vec<GroupEntry>,
}

/// A new meld of a rank: its id, its cards, and the cards it needs packed a byte each (the
/// rank's four suits, jokers, deuces; `NEED_OTHER` where it holds another card).
#[derive(Clone, Copy, Debug)]
pub struct GroupEntry {
    pub id: u32,
    pub cards: Cards,
    pub need: u64,
}

/// The bytes' high bits of a packed count of six cards.
pub const NEED_HIGH: u64 = 0x8080_8080_8080;
/// A meld whose cards do not pack (never in a bundled variant): its cards are counted one by one.
pub const NEED_OTHER: u64 = 1 << 63;

impl GroupEntry {
    /// `cards` (of rank `rk`) packed as `GroupEntry::need` says.
    pub fn need_of(rk: u8, cards: &[u8]) -> u64 {
        let mut need = 0u64;
        for &k in cards {
            let byte = if k == JK {
                4
            } else if k == TWO {
                5
            } else if k > 14 && kind(k) == rk {
                (k + 1 - 4 * rk) as u64
            } else {
                return NEED_OTHER;
            };
            need += 1 << (8 * byte);
        }
        need
    }
}

/// The cards of an action spec (at most 15: more is never in a variant's space).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Cards {
    pub n: u8,
    pub k: [u8; 15],
}

impl Cards {
    pub fn of(v: &[u8]) -> Option<Cards> {
        if v.len() > 15 {
            return None;
        }
        let mut c = Cards::default();
        c.n = v.len() as u8;
        c.k[..v.len()].copy_from_slice(v);
        Some(c)
    }
    #[inline]
    pub fn s(&self) -> &[u8] {
        &self.k[..self.n as usize]
    }
    pub fn count(&self, x: u8) -> i32 {
        self.s().iter().filter(|&&k| k == x).count() as i32
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
}

/// An action as data: (kind, a, b, c, cards), as `_rules.Spec`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Spec {
    pub kind: u8,
    pub a: i32,
    pub b: i32,
    pub c: i32,
    pub cards: Cards,
}

impl Spec {
    pub const fn simple(kind: u8, a: i32, b: i32, c: i32) -> Spec {
        Spec { kind, a, b, c, cards: Cards { n: 0, k: [0; 15] } }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ratio { Any, AtMostNaturals, FewerThanNaturals, Half }
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OneCard { Allowed, Forbidden, UnlessForced }
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MustTake { No, AnyLegal, AddToMeld }
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ConcMin { Required, Waived, WaivedIfStock }

pub struct Rules {
    pub py: *mut crate::ffi::PyObject, // the Python Rules (borrowed: it owns this object)
    pub players: usize,
    pub side_of: Vec<u8>,
    pub n_sides: usize,
    pub members: Vec<Vec<u8>>,
    pub hand_size: i32,
    pub down_size: i32,
    pub draw_n: i32,
    pub active_n: usize,
    pub deck: Vec<i32>,
    pub values: [i32; N_CODES],
    pub suited: bool,
    pub seq_min: i32,
    pub seq_max: i32,
    pub seq_lo: u8,
    pub seq_hi: u8,
    pub seq_lowest: String,
    pub seq_highest: String,
    pub seq_bonus: i32,
    pub seq_past_max: bool,
    pub hand_len: usize,
    pub max_seq_per_suit: i32,
    pub deck_codes: Vec<i32>,
    pub onto_canasta: bool,
    pub open_from_hand: bool,
    pub short_seq_below: i32,
    pub short_seq_points: i32,
    pub wild_on_canasta: bool,
    pub cover: u64,
    pub cover_repeat: bool,
    pub upcard_freezes: u64,
    pub freeze_discard: u64,
    pub blocked: u64,
    /// `pile.blocked_scope = "upcard"`: a natural rank blocks only until the first turn ends.
    pub block_upcard: bool,
    /// The seats that have finished a turn this hand are kept (`Core::turned`).
    pub track_turns: bool,
    pub seat_mask: u64,
    pub frozen_until_initial: bool,
    pub unfrozen_ways: i32,
    pub frozen_ways: i32,
    pub pair_melded: bool,
    pub wild_pair_unfrozen: bool,
    pub wild_pair_frozen: bool,
    pub wild_pair_any: bool,
    pub one_card: OneCard,
    pub consecutive: bool,
    pub undo_take: bool,
    pub no_discard_first: u64,
    pub no_discard_empty: u64,
    pub no_discard_dead: bool,
    pub no_discard_on_empty: bool,
    /// pennies-from-heaven 3.4: ranks barred from the pile until every side (`ban_each`) or the
    /// player's side (`ban_own`) has a canasta of them (masks by rank)
    pub ban_each: u64,
    pub ban_own: u64,
    pub ban_until: bool,
    /// pennies-from-heaven 3.5: ranks that may not be the discard that goes out (a mask)
    pub final_ban: u64,
    /// any discard bar at all (`barred_discards` is called only where this is set)
    pub discard_bars: bool,
    pub take_top: usize,
    pub min_size: i32,
    pub min_nat: i32,
    pub max_wild: i32,
    pub ratio: Ratio,
    pub unlimited: bool,
    pub cs: i32,
    pub cmin_nat: i32,
    pub closed: bool,
    pub past_closed: bool,
    pub past_any: bool,
    pub multi: bool,
    pub new_after: bool,
    pub natural_only: u32,
    pub stay_natural: u32,
    pub wild_min_nat: i32,
    pub wild_excl: bool,
    pub dead_ranks: bool,
    pub combine: bool,
    pub wild_melds: bool,
    pub wild_meld_max: i32,
    /// italian 4.3: the meld of wild cards is a meld of deuces (`melds.deuce_melds`).
    pub deuce: bool,
    /// italian 4.4: `melds.deuce_meld_exclusive`.
    pub deuce_excl: bool,
    /// A meld of any wild cards may be formed (the planners may start one).
    pub free_wild_melds: bool,
    /// italian 4.5: `initial_meld.no_wild`.
    pub no_wild: bool,
    /// Every kind of canasta counts toward `going_out.canastas` (else `counted`).
    pub count_all: bool,
    /// natural, mixed, wild, sequence, rank (`scoring.rank_canastas`): whether it counts toward
    /// `going_out.canastas`.
    pub counted: [i32; 5],
    pub initial_canasta: bool,
    pub initial_never: bool,
    pub b3_never: bool,
    pub b3_last: bool,
    pub b3_final: bool,
    pub b3_min: i32,
    pub b3_max: i32,
    pub b3_bonus: i32,
    pub b3_aside: bool,
    pub b3_aside_bonus: Vec<i32>,
    pub b3_faced: bool,
    pub b3_sign: Vec<i32>,
    pub b3_penalty: i32,
    pub keep_r3: bool,
    pub r3_at_deal: bool,
    pub r3_bonus: Vec<i32>,
    pub r3_minus: bool,
    pub r3_minus_table: Vec<i32>,
    pub r3_penalty: i32,
    pub r3_canasta: i32,
    pub r3_sign: Vec<i32>,
    /// pennies-from-heaven 8.2: red threes minus without a canasta of this rank (-1: none)
    pub r3_minus_rank: i32,
    pub from_pile_aside: u64,
    pub canastas_needed: i32,
    /// `going_out.red_threes_per_canasta` (mexicana 6.2).
    pub r3_per: i32,
    pub by_discard: bool,
    pub no_unfinished: u32,
    pub kinds_needed: Option<[i32; 4]>,
    /// pennies-from-heaven 7.1: (rank, canastas of it) a side needs besides
    pub rank_needed: Vec<(u8, i32)>,
    pub partner_down: bool,
    pub out_bonus: i32,
    pub permission: bool,
    pub permission_required: bool,
    pub ask_after_take: bool,
    pub conc_side: bool,
    pub conc_player: bool,
    pub conc_no_partner: bool,
    pub conc_own: bool,
    pub conc_min: ConcMin,
    pub conc_bonus: i32,
    pub last_round: bool,
    pub stock_ends: bool,
    pub must_take: MustTake,
    pub last_r3_end: bool,
    pub last_three_minus: i32,
    pub nat_bonus: i32,
    pub mixed_bonus: i32,
    pub wild_bonus: i32,
    pub nat_bonus_by: Vec<(u8, i32)>,
    /// `scoring.rank_canastas`: canastas of these ranks, natural or mixed, are a kind of their own.
    pub rank_bonus_by: Vec<(u8, i32)>,
    pub unfinished_pen: Vec<(u8, i32)>,
    pub held_pen: Vec<(u8, i32, i32)>,
    pub no_canasta_minus: bool,
    pub wild_bonus_by: Vec<((i32, i32), i32)>,
    /// Italian 5.3: wild canasta bonuses only for the side that goes out.
    pub wild_out_only: bool,
    /// Italian 5.4: (natural, mixed, wild, any, bonus) per line of `scoring.canasta_sets`.
    pub canasta_sets: Vec<[i32; 5]>,
    /// The score row of each line.
    pub canasta_set_names: Vec<String>,
    pub target: i64,
    pub hands_limit: i64,
    pub score_keeper: bool,
    pub precise_bonus: i32,
    pub precise_p: f64,
    pub first_dealer_random: bool,
    pub talon: Vec<i32>,
    /// when the down hand comes up: 0 on an empty hand only, 1 also on the player's canasta,
    /// 2 also for the side on its first canasta (pennies-from-heaven A2)
    pub down_up: u8,
    pub talon_aside: bool,
    pub turn_card: i32,
    /// `deal.talon_when = "at_once"` (mexicana 4.2).
    pub talon_now: bool,
    /// `deal.talon_after_pile` (mexicana A5).
    pub talon_pile: bool,
    pub upcard_turned: bool,
    /// Italian 2.3 (`upcard.buried`): 0 none; 1 the upcard's number; 2 its value.
    pub buried: i32,
    pub natural_first: bool,
    /// per step of `initial_meld.steps`: (from, COMP_* canasta bits, points)
    pub comp_steps: Vec<(i64, i32, i32)>,
    pub comp_any: bool,
    pub plan_out: bool,
    pub plain: bool,
    pub simple_out: bool,
    pub no_wild_mask: u32,
    pub keep_out: i32,
    pub wcap: Vec<i32>,
    pub nn_wild_ok: bool,
    pub small_cap_opening: i32,
    pub small_cap: i32,
    pub need_by_hand: Vec<i32>,
    pub(crate) need: RefCell<HashMap<(i64, i64), i32>>,
    // the action space
    pub specs: Vec<Spec>,
    pub size: usize,
    pub max_melds_per_rank: i32,
    pub ids: HashMap<Spec, u32>,
    pub id_draw: i32,
    pub id_pass: i32,
    pub id_done: i32,
    pub id_retract: i32,
    pub id_ask: i32,
    pub id_yes: i32,
    pub id_no: i32,
    pub id_discard: Vec<i32>,
    pub id_meld: HashMap<Cards, u32>,
    pub id_take: HashMap<(i32, i32, i32), u32>,
    pub id_add: HashMap<(i32, i32, i32), u32>,
    pub id_combine: HashMap<(i32, i32, i32), u32>,
    pub id_trip: [i32; N_KINDS],
    pub id_pair_two: [i32; N_KINDS],
    pub id_pair_jk: [i32; N_KINDS],
    /// per rank (and the wild rank), per meld number: ids of adding a natural, a joker, a deuce,
    /// a red three (-1: none)
    pub add_ids: Vec<Vec<[i32; 4]>>,
    pub trip_ok: bool,
    pub pair_wild_ok: bool,
    /// the suited generator's new melds by kind: groups per rank (by shape), sequences, the others
    pub suited_groups: Vec<Vec<GroupShape>>,
    /// The new sequences by their first (lowest) card, so a hand's are found by its cards.
    pub suited_seqs: Vec<Vec<(u32, Cards)>>,
    pub suited_others: Vec<(u32, Cards)>,
    /// planner memos (pure functions of their keys: the answers never depend on what is cached)
    pub memo: crate::memo::Memos,
    /// one shared Python tuple per list of legal ids, as the facade's ActionSpace shares them
    pub shared_ids: RefCell<HashMap<Vec<u32>, Obj>>,
    /// one Python int per action id, which those tuples share (made when first asked)
    pub id_ints: RefCell<Vec<Obj>>,
}

impl Rules {
    /// `_build_space`'s lookups, from the specs.
    pub(crate) fn build_tables(&mut self) {
        for (i, s) in self.specs.iter().enumerate() {
            self.ids.entry(*s).or_insert(i as u32);
        }
        let id = |s: &Spec| self.ids.get(s).map(|&x| x as i32).unwrap_or(-1);
        self.id_draw = id(&Spec::simple(DRAW, 0, 0, 0));
        self.id_pass = id(&Spec::simple(PASS, 0, 0, 0));
        self.id_done = id(&Spec::simple(DONE, 0, 0, 0));
        self.id_retract = id(&Spec::simple(RETRACT, 0, 0, 0));
        self.id_ask = id(&Spec::simple(ASK, 0, 0, 0));
        self.id_yes = id(&Spec::simple(ANSWER, 1, 0, 0));
        self.id_no = id(&Spec::simple(ANSWER, 0, 0, 0));
        self.id_discard = (0..self.hand_len).map(|k| id(&Spec::simple(DISCARD, k as i32, 0, 0))).collect();
        let mut id_meld = HashMap::default();
        let mut id_take = HashMap::default();
        let mut id_add = HashMap::default();
        let mut id_combine = HashMap::default();
        // a dict comprehension keeps the last id of equal keys
        for (i, s) in self.specs.iter().enumerate() {
            let i = i as u32;
            match s.kind {
                MELD => {
                    id_meld.insert(s.cards, i);
                }
                TAKE if s.cards.is_empty() => {
                    id_take.insert((s.a, s.b, s.c), i);
                }
                ADD => {
                    id_add.insert((s.a, s.b, s.c), i);
                }
                COMBINE => {
                    id_combine.insert((s.a, s.b, s.c), i);
                }
                _ => {}
            }
        }
        for r in 0..N_KINDS as u8 {
            let g = |cards: &[u8]| Cards::of(cards).and_then(|c| id_meld.get(&c)).map(|&x| x as i32).unwrap_or(-1);
            self.id_trip[r as usize] = g(&[r, r, r]);
            self.id_pair_two[r as usize] = g(&[r, r, TWO]);
            self.id_pair_jk[r as usize] = g(&[r, r, JK]);
        }
        let per_rank = self.max_melds_per_rank;
        let ga = |k: (i32, i32, i32)| id_add.get(&k).map(|&x| x as i32).unwrap_or(-1);
        self.add_ids = (0..=WILD as i32)
            .map(|r| {
                (0..per_rank + 2)
                    .map(|i| {
                        [
                            if r != WILD as i32 { ga((r, r, i)) } else { -1 },
                            ga((JK as i32, r, i)),
                            ga((TWO as i32, r, i)),
                            ga((R3 as i32, r, i)),
                        ]
                    })
                    .collect()
            })
            .collect();
        self.id_meld = id_meld;
        self.id_take = id_take;
        self.id_add = id_add;
        self.id_combine = id_combine;
        // the suited generator's tables (`_meldphase._suited_tables`)
        let mut groups: Vec<Vec<GroupShape>> = vec![vec![]; N_KINDS];
        for (i, sp) in self.specs.iter().enumerate() {
            if sp.kind != MELD {
                continue;
            }
            let cards = sp.cards.s();
            if cards[0] > 14 && kind(cards[1]) != kind(cards[0]) {
                self.suited_seqs[cards[0] as usize].push((i as u32, sp.cards));
            } else if cards[0] > 14 {
                let rk = kind(cards[0]);
                let nat = cards.iter().filter(|&&k| k > TWO).count() as i32;
                let meld = Meld::new(rk, nat, sp.cards.count(JK), sp.cards.count(TWO), 0);
                let shapes = &mut groups[rk as usize];
                let at = match shapes.iter().position(|g| g.meld == meld) {
                    Some(at) => at,
                    None => {
                        shapes.push(GroupShape { meld, entries: vec![] });
                        shapes.len() - 1
                    }
                };
                shapes[at].entries.push(GroupEntry { id: i as u32, cards: sp.cards, need: GroupEntry::need_of(rk, cards) });
            } else {
                self.suited_others.push((i as u32, sp.cards));
            }
        }
        self.suited_groups = groups;
    }

    pub fn spec_id(&self, s: &Spec) -> i32 {
        self.ids.get(s).map(|&x| x as i32).unwrap_or(-1)
    }

    fn wild_cap_calc(&self, naturals: i32) -> i32 {
        match self.ratio {
            Ratio::Any => self.max_wild,
            Ratio::AtMostNaturals => self.max_wild.min(naturals),
            Ratio::FewerThanNaturals => self.max_wild.min(naturals - 1),
            Ratio::Half => self.max_wild.min(naturals.div_euclid(2)),
        }
    }

    /// Most wild cards a meld with `naturals` naturals may hold (not a canasta).
    #[inline]
    pub fn wild_cap(&self, naturals: i32) -> i32 {
        if naturals >= 0 && (naturals as usize) < self.wcap.len() {
            self.wcap[naturals as usize]
        } else {
            self.wild_cap_calc(naturals)
        }
    }

    pub fn seq_valid(&self, m: &Meld) -> bool {
        let low = ((m.rank - SEQ) & 15) as i32;
        self.seq_min <= m.nat
            && m.nat <= self.seq_max
            && low >= self.seq_lo as i32
            && low + m.nat - 1 <= self.seq_hi as i32
            && m.jk + m.tw == 0
    }

    #[inline]
    pub fn is_canasta(&self, m: &Meld) -> bool {
        m.nat + m.jk + m.tw >= self.cs && (m.rank == WILD || m.nat >= self.cmin_nat)
    }

    #[inline]
    pub fn natural_only_has(&self, rank: u8) -> bool {
        rank < 32 && (self.natural_only >> rank) & 1 == 1
    }

    #[inline]
    pub fn stay_natural_has(&self, rank: u8) -> bool {
        rank < 32 && (self.stay_natural >> rank) & 1 == 1
    }

    /// Whether a (new or grown) meld is valid.
    pub fn valid(&self, m: &Meld) -> bool {
        let (rank, nat) = (m.rank, m.nat);
        let wilds = m.jk + m.tw;
        let size = nat + wilds;
        if rank >= SEQ {
            return self.seq_valid(m);
        }
        if rank == WILD {
            if self.deuce {
                // italian 4.3 (A6): deuces are the meld's naturals, jokers its wild cards
                return nat == 0 && m.tw >= self.min_nat && self.min_size <= size && size <= self.cs
                    && m.jk <= self.wild_cap(m.tw);
            }
            return nat == 0 && self.min_size <= size && size <= self.wild_meld_max;
        }
        if rank == B3 {
            return wilds == 0 && self.b3_min <= nat && nat <= self.b3_max;
        }
        if nat < self.min_nat || size < self.min_size {
            return false;
        }
        if wilds != 0 && self.natural_only_has(rank) {
            return false;
        }
        if self.closed && size > self.cs {
            return false;
        }
        if wilds <= self.wild_cap(nat) {
            return true;
        }
        self.unlimited && nat + self.wild_cap(nat) >= self.cs && nat >= self.cmin_nat
    }

    /// Whether the group `m`, grown past a closed canasta's size in a going-out turn
    /// (`melds.past_closed_going_out`), keeps the other limits of a meld.
    pub fn valid_past(&self, m: &Meld) -> bool {
        let wilds = m.jk + m.tw;
        if m.rank >= SEQ || m.rank == WILD || m.rank == B3 || m.nat < self.min_nat {
            return false;
        }
        if wilds != 0 && self.natural_only_has(m.rank) {
            return false;
        }
        wilds <= self.wild_cap(m.nat)
    }

    /// What the initial meld of a side with cumulative `score` must include: (bits, points).
    pub fn initial_comp(&self, score: i64) -> (i32, i32) {
        let mut bits = if self.natural_first { COMP_CLEAN } else { 0 };
        let mut points = 0;
        if score >= 0 {
            for &(from, b, p) in &self.comp_steps {
                if score >= from {
                    bits = (bits & COMP_CLEAN) | b;
                    points = p;
                }
            }
        }
        if bits != 0 { (bits, points) } else { NO_COMP }
    }

    pub fn blocks_new(&self, m: &Meld) -> bool {
        if self.multi {
            return false;
        }
        if self.new_after {
            return m.nat + m.jk + m.tw < self.cs;
        }
        true
    }

    /// The initial-meld minimum for a side with cumulative `score` in hand `hand` (asked of the
    /// Python variant once per score: one source of the rule).
    pub fn initial_need(&self, score: i64, hand: i64) -> i32 {
        if !self.need_by_hand.is_empty() {
            let by = &self.need_by_hand;
            return if (hand as usize) < by.len() && hand >= 0 { by[hand as usize] } else { by[by.len() - 1] };
        }
        if let Some(&v) = self.need.borrow().get(&(score, 0)) {
            return v;
        }
        // (with the GIL: a simulation plays without it)
        let v = with_gil(|| {
            let r = Obj::borrowed(self.py);
            (|| -> PyResult<i32> {
                let f = r.attr(c"initial_need")?;
                Ok(f.call(vec![int(score), int(hand)])?.int()? as i32)
            })()
            .unwrap_or_else(|_| {
                unsafe { crate::ffi::PyErr_Clear() };
                0
            })
        });
        self.need.borrow_mut().insert((score, 0), v);
        v
    }
}

/// A side's melds with one changed or one more, on the stack where they fit (the checks build
/// one for every candidate action: no allocation for a side of up to 32 melds).
pub struct MeldBuf {
    n: usize,
    a: [Meld; 32],
    spill: Option<Vec<Meld>>,
}

impl MeldBuf {
    fn from(melds: &[Meld], extra: usize) -> MeldBuf {
        if melds.len() + extra > 32 {
            return MeldBuf { n: 0, a: [Meld::default(); 32], spill: Some(melds.to_vec()) };
        }
        let mut b = MeldBuf { n: melds.len(), a: [Meld::default(); 32], spill: None };
        b.a[..melds.len()].copy_from_slice(melds);
        b
    }
    /// `melds` and `m` after them.
    pub fn with_push(melds: &[Meld], m: Meld) -> MeldBuf {
        let mut b = MeldBuf::from(melds, 1);
        match &mut b.spill {
            Some(v) => v.push(m),
            None => {
                b.a[b.n] = m;
                b.n += 1;
            }
        }
        b
    }
    /// `melds` with meld `i` replaced by `m`.
    pub fn with_set(melds: &[Meld], i: usize, m: Meld) -> MeldBuf {
        let mut b = MeldBuf::from(melds, 0);
        match &mut b.spill {
            Some(v) => v[i] = m,
            None => b.a[i] = m,
        }
        b
    }
}

impl std::ops::Deref for MeldBuf {
    type Target = [Meld];
    fn deref(&self) -> &[Meld] {
        match &self.spill {
            Some(v) => v,
            None => &self.a[..self.n],
        }
    }
}
