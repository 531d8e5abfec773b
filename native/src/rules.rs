//! A variant compiled for one table size: `canasta/_core/_rules.py`'s `Rules`, read once from
//! the Python object by attribute name (the Python class computes every value; this side only
//! copies them into plain fields) plus the lookup tables of the dense action space, derived
//! from `Rules.specs` exactly as the Python side derives them.

use crate::cards::*;
use crate::py::*;
use std::cell::RefCell;
use crate::fx::FxMap as HashMap;
use std::ffi::CStr;

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

/// Why a table cannot run natively (it then runs on the Python core).
#[derive(Debug)]
pub enum Unsupported {
    Py(PyErr),
    Setting(String),
}

impl From<PyErr> for Unsupported {
    fn from(e: PyErr) -> Self {
        Unsupported::Py(e)
    }
}

pub const MAX_PLAYERS: usize = 16;

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
    need: RefCell<HashMap<(i64, i64), i32>>,
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
    /// the suited generator's new melds by kind: groups per rank, sequences, the others
    pub suited_groups: Vec<Vec<(u32, Cards)>>,
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

fn get(o: &Obj, name: &CStr) -> PyResult<Obj> {
    o.attr(name)
}
fn gi(o: &Obj, name: &CStr) -> PyResult<i64> {
    get(o, name)?.int()
}
fn g32(o: &Obj, name: &CStr) -> PyResult<i32> {
    Ok(gi(o, name)? as i32)
}
fn gb(o: &Obj, name: &CStr) -> PyResult<bool> {
    get(o, name)?.truth()
}
fn gs(o: &Obj, name: &CStr) -> PyResult<String> {
    get(o, name)?.text()
}
fn gv(o: &Obj, name: &CStr) -> PyResult<Vec<i32>> {
    Ok(ints(&get(o, name)?)?.into_iter().map(|x| x as i32).collect())
}
/// A Python set/tuple of small ints as a bit mask.
fn gmask(o: &Obj, name: &CStr) -> PyResult<u64> {
    let mut m = 0u64;
    for x in ints(&get(o, name)?)? {
        if (0..64).contains(&x) {
            m |= 1 << x;
        }
    }
    Ok(m)
}
fn dict_items(o: &Obj, name: &CStr) -> PyResult<Vec<(Obj, Obj)>> {
    let d = get(o, name)?;
    let items = d.attr(c"items")?.call(vec![])?;
    let mut out = vec![];
    for it in items.items()? {
        let kv = it.items()?;
        out.push((kv[0].clone(), kv[1].clone()));
    }
    Ok(out)
}

fn spec_of(o: &Obj) -> PyResult<Option<Spec>> {
    let t = o.items()?;
    let cards: Vec<u8> = ints(&t[4])?.into_iter().map(|x| x as u8).collect();
    let Some(cards) = Cards::of(&cards) else { return Ok(None) };
    Ok(Some(Spec { kind: t[0].int()? as u8, a: t[1].int()? as i32, b: t[2].int()? as i32, c: t[3].int()? as i32, cards }))
}

impl Rules {
    /// Copy the Python `Rules` object `r` (every value it computed).
    pub fn from_py(r: &Obj) -> Result<Rules, Unsupported> {
        let players = gi(r, c"players")? as usize;
        if players > MAX_PLAYERS {
            return Err(Unsupported::Setting(format!("{players} players (the native core plays up to {MAX_PLAYERS})")));
        }
        let side_of: Vec<u8> = gv(r, c"side_of")?.into_iter().map(|x| x as u8).collect();
        let members: Vec<Vec<u8>> = get(r, c"members")?
            .items()?
            .iter()
            .map(|m| Ok(ints(m)?.into_iter().map(|x| x as u8).collect()))
            .collect::<PyResult<_>>()?;
        let vals = gv(r, c"values")?;
        let mut values = [0i32; N_CODES];
        values[..vals.len().min(N_CODES)].copy_from_slice(&vals[..vals.len().min(N_CODES)]);
        let variant = get(r, c"variant")?;
        let seqs = variant.attr(c"melds")?.attr(c"sequences")?;
        let ratio = match gs(r, c"ratio")?.as_str() {
            "any" => Ratio::Any,
            "at_most_naturals" => Ratio::AtMostNaturals,
            "fewer_than_naturals" => Ratio::FewerThanNaturals,
            "half_naturals" | "at_most_half" => Ratio::Half,
            other => {
                // the Python side treats every other value as half the naturals
                let _ = other;
                Ratio::Half
            }
        };
        let one_card = match gs(r, c"one_card")?.as_str() {
            "forbidden" => OneCard::Forbidden,
            "unless_forced" => OneCard::UnlessForced,
            _ => OneCard::Allowed,
        };
        let must_take = match gs(r, c"must_take")?.as_str() {
            "any_legal" => MustTake::AnyLegal,
            "add_to_meld" => MustTake::AddToMeld,
            _ => MustTake::No,
        };
        let conc_min = match gs(r, c"conc_min")?.as_str() {
            "required" => ConcMin::Required,
            "waived" => ConcMin::Waived,
            "waived_if_stock" => ConcMin::WaivedIfStock,
            other => return Err(Unsupported::Setting(format!("going_out.concealed.minimum = {other:?}"))),
        };
        let kinds = get(r, c"kinds_needed")?;
        let kinds_needed = if kinds.is_none() {
            None
        } else {
            let v = ints(&kinds)?;
            Some([v[0] as i32, v[1] as i32, v[2] as i32, v[3] as i32])
        };
        let mut nat_bonus_by = vec![];
        for (k, v) in dict_items(r, c"nat_bonus_by")? {
            nat_bonus_by.push((k.int()? as u8, v.int()? as i32));
        }
        let mut rank_bonus_by = vec![];
        for (k, v) in dict_items(r, c"rank_bonus_by")? {
            rank_bonus_by.push((k.int()? as u8, v.int()? as i32));
        }
        let mut unfinished_pen = vec![];
        for (k, v) in dict_items(r, c"unfinished_pen")? {
            unfinished_pen.push((k.int()? as u8, v.int()? as i32));
        }
        let mut wild_bonus_by = vec![];
        for (k, v) in dict_items(r, c"wild_bonus_by")? {
            let kk = ints(&k)?;
            wild_bonus_by.push(((kk[0] as i32, kk[1] as i32), v.int()? as i32));
        }
        let held_pen = get(r, c"held_pen")?
            .items()?
            .iter()
            .map(|t| {
                let v = ints(t)?;
                Ok((v[0] as u8, v[1] as i32, v[2] as i32))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let mut specs = vec![];
        for s in get(r, c"specs")?.items()? {
            match spec_of(&s)? {
                Some(sp) => specs.push(sp),
                None => return Err(Unsupported::Setting("an action with more than 15 cards".into())),
            }
        }
        let mask32 = |m: u64| m as u32;
        let mut rules = Rules {
            py: r.ptr(),
            players,
            n_sides: gi(r, c"n_sides")? as usize,
            side_of,
            members,
            hand_size: g32(r, c"hand_size")?,
            down_size: g32(r, c"down_size")?,
            draw_n: g32(r, c"draw_n")?,
            active_n: gi(r, c"active_n")? as usize,
            deck: gv(r, c"deck")?,
            values,
            suited: gb(r, c"suited")?,
            seq_min: g32(r, c"seq_min")?,
            seq_max: g32(r, c"seq_max")?,
            seq_lo: gi(r, c"seq_lo")? as u8,
            seq_hi: gi(r, c"seq_hi")? as u8,
            seq_lowest: seqs.attr(c"lowest")?.text()?,
            seq_highest: seqs.attr(c"highest")?.text()?,
            seq_bonus: g32(r, c"seq_bonus")?,
            seq_past_max: gb(r, c"seq_past_max")?,
            hand_len: gi(r, c"hand_len")? as usize,
            max_seq_per_suit: g32(r, c"max_seq_per_suit")?,
            deck_codes: gv(r, c"deck_codes")?,
            onto_canasta: gb(r, c"onto_canasta")?,
            open_from_hand: gb(r, c"open_from_hand")?,
            short_seq_below: g32(r, c"short_seq_below")?,
            short_seq_points: g32(r, c"short_seq_points")?,
            wild_on_canasta: gb(r, c"wild_on_canasta")?,
            cover: gmask(r, c"cover")?,
            cover_repeat: gb(r, c"cover_repeat")?,
            upcard_freezes: gmask(r, c"upcard_freezes")?,
            freeze_discard: gmask(r, c"freeze_discard")?,
            blocked: gmask(r, c"blocked")?,
            block_upcard: gb(r, c"block_upcard")?,
            track_turns: gb(r, c"track_turns")?,
            seat_mask: gi(r, c"seat_mask")? as u64,
            frozen_until_initial: gb(r, c"frozen_until_initial")?,
            unfrozen_ways: g32(r, c"unfrozen_ways")?,
            frozen_ways: g32(r, c"frozen_ways")?,
            pair_melded: gb(r, c"pair_melded")?,
            wild_pair_unfrozen: gb(r, c"wild_pair_unfrozen")?,
            wild_pair_frozen: gb(r, c"wild_pair_frozen")?,
            wild_pair_any: gb(r, c"wild_pair_any")?,
            one_card,
            consecutive: gb(r, c"consecutive")?,
            undo_take: gb(r, c"undo_take")?,
            no_discard_first: gmask(r, c"no_discard_first")?,
            no_discard_empty: gmask(r, c"no_discard_empty")?,
            no_discard_dead: gb(r, c"no_discard_dead")?,
            no_discard_on_empty: gb(r, c"no_discard_on_empty")?,
            ban_each: gmask(r, c"ban_each")?,
            ban_own: gmask(r, c"ban_own")?,
            ban_until: gb(r, c"ban_until")?,
            final_ban: gmask(r, c"final_ban")?,
            discard_bars: gb(r, c"discard_bars")?,
            take_top: gi(r, c"take_top")? as usize,
            min_size: g32(r, c"min_size")?,
            min_nat: g32(r, c"min_nat")?,
            max_wild: g32(r, c"max_wild")?,
            ratio,
            unlimited: gb(r, c"unlimited")?,
            cs: g32(r, c"cs")?,
            cmin_nat: g32(r, c"cmin_nat")?,
            closed: gb(r, c"closed")?,
            past_closed: gb(r, c"past_closed")?,
            past_any: gb(r, c"past_any")?,
            multi: gb(r, c"multi")?,
            new_after: gb(r, c"new_after")?,
            natural_only: mask32(gmask(r, c"natural_only")?),
            stay_natural: mask32(gmask(r, c"stay_natural")?),
            wild_min_nat: g32(r, c"wild_min_nat")?,
            wild_excl: gb(r, c"wild_excl")?,
            dead_ranks: gb(r, c"dead_ranks")?,
            combine: gb(r, c"combine")?,
            wild_melds: gb(r, c"wild_melds")?,
            wild_meld_max: g32(r, c"wild_meld_max")?,
            deuce: gb(r, c"deuce")?,
            deuce_excl: gb(r, c"deuce_excl")?,
            free_wild_melds: gb(r, c"free_wild_melds")?,
            no_wild: gb(r, c"no_wild")?,
            count_all: gb(r, c"count_all")?,
            counted: {
                let v = gv(r, c"counted")?;
                if v.len() != 5 {
                    return Err(Unsupported::Setting(format!("Rules.counted of {} entries (5 expected)", v.len())));
                }
                [v[0] as i32, v[1] as i32, v[2] as i32, v[3] as i32, v[4] as i32]
            },
            initial_canasta: gb(r, c"initial_canasta")?,
            initial_never: gb(r, c"initial_never")?,
            b3_never: gb(r, c"b3_never")?,
            b3_last: gb(r, c"b3_last")?,
            b3_final: gb(r, c"b3_final")?,
            b3_min: g32(r, c"b3_min")?,
            b3_max: g32(r, c"b3_max")?,
            b3_bonus: g32(r, c"b3_bonus")?,
            b3_aside: gb(r, c"b3_aside")?,
            b3_aside_bonus: gv(r, c"b3_aside_bonus")?,
            b3_faced: gb(r, c"b3_faced")?,
            b3_sign: gv(r, c"b3_sign")?,
            b3_penalty: g32(r, c"b3_penalty")?,
            keep_r3: gb(r, c"keep_r3")?,
            r3_at_deal: gb(r, c"r3_at_deal")?,
            r3_bonus: gv(r, c"r3_bonus")?,
            r3_minus: gb(r, c"r3_minus")?,
            r3_minus_table: gv(r, c"r3_minus_table")?,
            r3_penalty: g32(r, c"r3_penalty")?,
            r3_canasta: g32(r, c"r3_canasta")?,
            r3_sign: gv(r, c"r3_sign")?,
            r3_minus_rank: g32(r, c"r3_minus_rank")?,
            from_pile_aside: gmask(r, c"from_pile_aside")?,
            canastas_needed: g32(r, c"canastas_needed")?,
            r3_per: g32(r, c"r3_per")?,
            by_discard: gb(r, c"by_discard")?,
            no_unfinished: mask32(gmask(r, c"no_unfinished")?),
            kinds_needed,
            rank_needed: get(r, c"rank_needed")?
                .items()?
                .iter()
                .map(|t| {
                    let v = ints(t)?;
                    Ok((v[0] as u8, v[1] as i32))
                })
                .collect::<PyResult<Vec<_>>>()?,
            partner_down: gb(r, c"partner_down")?,
            out_bonus: g32(r, c"out_bonus")?,
            permission: gb(r, c"permission")?,
            permission_required: gb(r, c"permission_required")?,
            ask_after_take: gb(r, c"ask_after_take")?,
            conc_side: gb(r, c"conc_side")?,
            conc_player: gs(r, c"conc_basis")? == "player",
            conc_no_partner: gb(r, c"conc_no_partner")?,
            conc_own: gb(r, c"conc_own")?,
            conc_min,
            conc_bonus: g32(r, c"conc_bonus")?,
            last_round: gb(r, c"last_round")?,
            stock_ends: gb(r, c"stock_ends")?,
            must_take,
            last_r3_end: gs(r, c"last_r3")? == "end",
            last_three_minus: g32(r, c"last_three_minus")?,
            nat_bonus: g32(r, c"nat_bonus")?,
            mixed_bonus: g32(r, c"mixed_bonus")?,
            wild_bonus: g32(r, c"wild_bonus")?,
            nat_bonus_by,
            rank_bonus_by,
            unfinished_pen,
            held_pen,
            no_canasta_minus: gb(r, c"no_canasta_minus")?,
            wild_bonus_by,
            wild_out_only: gb(r, c"wild_out_only")?,
            canasta_sets: get(r, c"canasta_sets")?
                .items()?
                .iter()
                .map(|t| {
                    let v = ints(t)?;
                    Ok([v[0] as i32, v[1] as i32, v[2] as i32, v[3] as i32, v[4] as i32])
                })
                .collect::<PyResult<Vec<_>>>()?,
            canasta_set_names: get(r, c"canasta_set_names")?.items()?.iter().map(|t| t.text()).collect::<PyResult<Vec<_>>>()?,
            target: gi(r, c"target")?,
            hands_limit: gi(r, c"hands_limit")?,
            score_keeper: gb(r, c"score_keeper")?,
            precise_bonus: g32(r, c"precise_bonus")?,
            precise_p: unsafe { crate::ffi::PyFloat_AsDouble(get(r, c"precise_p")?.ptr()) },
            first_dealer_random: variant.attr(c"deal")?.attr(c"first_dealer")?.text()? == "random",
            talon: gv(r, c"talon")?,
            down_up: gi(r, c"down_up")? as u8,
            talon_aside: gb(r, c"talon_aside")?,
            turn_card: g32(r, c"turn_card")?,
            talon_now: gb(r, c"talon_now")?,
            talon_pile: gb(r, c"talon_pile")?,
            upcard_turned: gb(r, c"upcard_turned")?,
            buried: g32(r, c"buried")?,
            natural_first: gb(r, c"natural_first")?,
            comp_steps: get(r, c"comp_steps")?
                .items()?
                .iter()
                .map(|t| {
                    let v = ints(t)?;
                    Ok((v[0], v[1] as i32, v[2] as i32))
                })
                .collect::<PyResult<Vec<_>>>()?,
            comp_any: gb(r, c"comp_any")?,
            plan_out: gb(r, c"plan_out")?,
            plain: gb(r, c"plain")?,
            simple_out: gb(r, c"simple_out")?,
            no_wild_mask: g32(r, c"no_wild_mask")? as u32,
            keep_out: g32(r, c"keep_out")?,
            wcap: gv(r, c"wcap")?,
            nn_wild_ok: gb(r, c"nn_wild_ok")?,
            small_cap_opening: g32(r, c"small_cap_opening")?,
            small_cap: g32(r, c"small_cap")?,
            need_by_hand: gv(r, c"need_by_hand")?,
            need: RefCell::new(HashMap::default()),
            size: specs.len(),
            specs,
            max_melds_per_rank: g32(r, c"max_melds_per_rank")?,
            ids: HashMap::default(),
            id_draw: -1,
            id_pass: -1,
            id_done: -1,
            id_retract: -1,
            id_ask: -1,
            id_yes: -1,
            id_no: -1,
            id_discard: vec![],
            id_meld: HashMap::default(),
            id_take: HashMap::default(),
            id_add: HashMap::default(),
            id_combine: HashMap::default(),
            id_trip: [-1; N_KINDS],
            id_pair_two: [-1; N_KINDS],
            id_pair_jk: [-1; N_KINDS],
            add_ids: vec![],
            trip_ok: gb(r, c"trip_ok")?,
            pair_wild_ok: gb(r, c"pair_wild_ok")?,
            suited_groups: vec![],
            suited_seqs: vec![vec![]; 64],
            suited_others: vec![],
            memo: crate::memo::Memos::default(),
            shared_ids: RefCell::new(HashMap::default()),
            id_ints: RefCell::new(vec![]),
        };
        rules.build_tables();
        Ok(rules)
    }

    /// `_build_space`'s lookups, from the specs.
    fn build_tables(&mut self) {
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
        // the suited generator's tables (`_meld._suited_tables`)
        let mut groups: Vec<Vec<(u32, Cards)>> = vec![vec![]; N_KINDS];
        for (i, sp) in self.specs.iter().enumerate() {
            if sp.kind != MELD {
                continue;
            }
            let cards = sp.cards.s();
            if cards[0] > 14 && kind(cards[1]) != kind(cards[0]) {
                self.suited_seqs[cards[0] as usize].push((i as u32, sp.cards));
            } else if cards[0] > 14 {
                groups[kind(cards[0]) as usize].push((i as u32, sp.cards));
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
