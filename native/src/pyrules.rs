//! The Python `Rules` object read by name into the native `Rules` (`Rules::from_py`): the Python
//! class computes every value of a variant at one table; this side only copies them into plain
//! fields, and refuses a setting it does not support (`Unsupported`: the table then runs on the
//! Python core). Native only, as `py.rs` and `ffi.rs` are: the Python core reads its own object.
//! Built on `rules`, `py` and `plan`; built upon by `bind`.

use crate::cards::*;
use crate::py::*;
use crate::rules::*;
use std::cell::RefCell;
use crate::fx::FxMap as HashMap;
use std::ffi::CStr;

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
}
