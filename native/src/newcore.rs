//! The two ways Python makes a native position: `deal` (shuffle, deal, first turn) and
//! `from_core` (the native copy of a Python `Core`, every number checked to be in range). Built
//! on `deal.rs`, `pyvalues.rs`, `rulesobj.rs` and `coreobj.rs`; `bind.rs` registers them.

use crate::args::nargs;
use crate::cards::*;
use crate::coreobj::wrap;
use crate::ffi::*;
use crate::guard::guard;
use crate::kernel::*;
use crate::py::*;
use crate::pyvalues::{hand_from, melds_from};
use crate::rulesobj::rules_of;
use std::cell::RefCell;
use std::rc::Rc;

/// `deal(rules, R, seed, hand_number, dealer, totals, precise)`: shuffle, deal, first turn.
pub(crate) unsafe extern "C" fn f_deal(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guard(|| -> PyResult<Obj> {
        let a = nargs(a, n, 7, "deal")?;
        let rules = unsafe { rules_of(a[0]) }?;
        let seed = Obj::borrowed(a[2]);
        let seed_text = seed.text()?;
        let totals = ints(&Obj::borrowed(a[5]))?;
        let precise: Vec<u8> = ints(&Obj::borrowed(a[6]))?.into_iter().map(|x| fit(x, "precise")).collect::<PyResult<_>>()?;
        let r = &*rules;
        let dealer: i32 = fit(int_of(a[4])?, "dealer")?;
        if totals.len() != r.n_sides || !(0..r.players as i32).contains(&dealer) || precise.iter().any(|&s| s as usize >= r.players) {
            return Err(value_error("deal(): totals one per side, the dealer and precise draws seats of the table"));
        }
        let c = crate::deal::deal(rules, Obj::borrowed(a[1]), seed, seed_text, int_of(a[3])?, dealer, &totals, precise);
        wrap(c)
    })
}

/// `from_core(rules, core)`: the native copy of a Python `Core`.
pub(crate) unsafe extern "C" fn f_from_core(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guard(|| -> PyResult<Obj> {
        let a = nargs(a, n, 2, "from_core")?;
        let rules = unsafe { rules_of(a[0]) }?;
        let p = Obj::borrowed(a[1]);
        let d = p.attr(c"d")?;
        let seed = d.attr(c"seed")?;
        let seed_text = seed.text()?;
        let u8s = |o: Obj, what: &str| -> PyResult<Vec<u8>> { ints(&o)?.into_iter().map(|x| fit(x, what)).collect() };
        let deal = Rc::new(Deal {
            r: rules.clone(),
            py_rules: d.attr(c"R")?,
            seed,
            seed_text,
            hand_number: d.attr(c"hand_number")?.int()?,
            dealer: fit(d.attr(c"dealer")?.int()?, "dealer")?,
            active: u8s(d.attr(c"active")?, "active")?,
            precise: u8s(d.attr(c"precise")?, "precise")?,
            stock: u8s(d.attr(c"stock")?, "stock")?,
            py: RefCell::new(Some(d.clone())),
        });
        let r = &*rules;
        let hands: Vec<Hand> = p.attr(c"hands")?.items()?.iter().map(hand_from).collect::<PyResult<_>>()?;
        let downs: Vec<Hand> = p.attr(c"downs")?.items()?.iter().map(hand_from).collect::<PyResult<_>>()?;
        let mut sides: [Option<Rc<Side>>; MAXP] = Default::default();
        let per_side = p.attr(c"melds")?.items()?;
        if per_side.len() != r.n_sides || hands.len() != r.players || downs.len() != r.players {
            return Err(value_error("a position's melds, hands and down hands are one per side and seat"));
        }
        for (s, ms) in per_side.iter().enumerate() {
            let melds = melds_from(ms)?;
            let info = crate::table::side_info(r, &melds);
            sides[s] = Some(Rc::new(Side { melds, info }));
        }
        let too_many = || value_error("more values than a table has seats");
        let fill_i32 = |o: Obj, what: &str| -> PyResult<[i32; MAXP]> {
            let mut out = [0; MAXP];
            for (i, x) in ints(&o)?.into_iter().enumerate() {
                *out.get_mut(i).ok_or_else(too_many)? = fit(x, what)?;
            }
            Ok(out)
        };
        let fill_bool = |o: Obj| -> PyResult<[bool; MAXP]> {
            let mut out = [false; MAXP];
            for (i, x) in o.items()?.iter().enumerate() {
                *out.get_mut(i).ok_or_else(too_many)? = x.truth()?;
            }
            Ok(out)
        };
        let mut totals = [0i64; MAXP];
        for (i, x) in ints(&p.attr(c"totals")?)?.into_iter().enumerate() {
            *totals.get_mut(i).ok_or_else(too_many)? = x;
        }
        let link_of = |link: &Obj, n: usize| -> PyResult<Vec<Obj>> {
            let t = link.items()?;
            if t.len() != n {
                return Err(value_error("a pile or history link of the wrong length"));
            }
            Ok(t)
        };
        let mut pile = vec![];
        let mut link = p.attr(c"pile")?;
        while !link.is_none() {
            let t = link_of(&link, 2)?;
            pile.push(fit(t[0].int()?, "a pile card")?);
            link = t[1].clone();
        }
        pile.reverse();
        let mut hist = vec![];
        let mut link = p.attr(c"history")?;
        while !link.is_none() {
            let t = link_of(&link, 3)?;
            hist.push((fit::<u32>(t[0].int()?, "a history action")?, fit::<i32>(t[2].int()?, "a history seat")?));
            link = t[1].clone();
        }
        let mut history: Option<Rc<Hist>> = None;
        for &(id, seat) in hist.iter().rev() {
            history = Some(Rc::new(Hist::new(id, seat, history)));
        }
        let sh = bytes_of(p.attr(c"start_hand")?.ptr())?;
        if sh.len() > N_CODES {
            return Err(value_error("a hand of more than 59 counts"));
        }
        // the numbers the native core indexes by: in range, or the position is refused here
        let stock_n: usize = fit(p.attr(c"stock_n")?.int()?, "stock_n")?;
        let melds_before: usize = fit(p.attr(c"melds_before")?.int()?, "turn.melds_before")?;
        let player: i64 = p.attr(c"player")?.int()?;
        // the points melded this turn: a hand's melds add to it in 32 bits, so it stays below 2**30
        let count: i32 = fit(p.attr(c"count")?.int()?, "turn.count")?;
        if count >= 1 << 30 {
            return Err(raise(unsafe { PyExc_OverflowError }, &format!("turn.count = {count} is out of the native core's range")));
        }
        if stock_n > deal.stock.len() || player >= r.players as i64 || player < -1
            || (player >= 0 && melds_before > sides[r.side_of[player as usize] as usize].as_ref().map_or(0, |x| x.melds.len()))
        {
            return Err(value_error("a position the native core cannot hold (stock, player or turn.melds_before out of range)"));
        }
        let res = p.attr(c"result")?;
        let result = if res.is_none() {
            None
        } else {
            let mut scores = vec![];
            for side in res.attr(c"scores")?.items()? {
                let mut rows = vec![];
                for row in side.items()? {
                    let t = row.items()?;
                    if t.len() != 3 {
                        return Err(value_error("a score item is (name, count, points)"));
                    }
                    rows.push((t[0].text()?, fit(t[1].int()?, "a score item's count")?, t[2].int()?));
                }
                scores.push(rows);
            }
            Some(Rc::new(HandEnd {
                went_out: fit(res.attr(c"went_out")?.int()?, "result.went_out")?,
                concealed: res.attr(c"concealed")?.truth()?,
                scores,
                reason: res.attr(c"reason")?.text()?,
            }))
        };
        let c = Core {
            d: deal,
            hands: Rc::new(Hands::new(&hands, r.hand_len)),
            downs: Rc::new(Hands::new(&downs, r.hand_len)),
            sides,
            red: fill_i32(p.attr(c"red")?, "red_threes")?,
            aside: fill_i32(p.attr(c"aside")?, "black_threes_aside")?,
            turned: p.attr(c"turned")?.int()?,
            opened: fill_bool(p.attr(c"opened")?)?,
            melded: fill_bool(p.attr(c"melded")?)?,
            stock_n,
            pile_n: pile.len(),
            buried: {
                let b = p.attr(c"buried")?.int()?;
                if b < 0 || b as usize > pile.len() {
                    return Err(value_error("pile_buried: more face-down cards than the pile holds"));
                }
                b as u32
            },
            pile: pile_of(&pile),
            frozen: p.attr(c"frozen")?.truth()?,
            player: fit(p.attr(c"player")?.int()?, "current_player")?,
            phase: p.attr(c"phase")?.int()?,
            flags: p.attr(c"flags")?.int()?,
            count,
            melds_before,
            pending: Rc::new(u8s(p.attr(c"pending")?, "turn.pending")?),
            pending_top: fit(p.attr(c"pending_top")?.int()?, "turn.pending_top")?,
            start_hand: if sh.is_empty() { None } else { Some(Rc::new(Hand::from_slice(&sh))) },
            took_last: fill_bool(p.attr(c"took_last")?)?,
            last_turns: fit(p.attr(c"last_turns")?.int()?, "last_turns")?,
            totals,
            result,
            winners: Rc::new(u8s(p.attr(c"winners")?, "winners")?),
            history,
        };
        wrap(c)
    })
}
