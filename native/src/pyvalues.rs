//! The core's values as Python values (melds, specs, reasons, hands, the pile, the history, the
//! deal, the result, a position's key) and back (hands, melds, specs). Built on `py.rs`,
//! `kernel.rs` and `reasons.rs`; `coreobj.rs` and `newcore.rs` are built on it.

use crate::cards::*;
use crate::ffi::*;
use crate::kernel::*;
use crate::py::*;
use crate::reasons::{Reason, V};
use crate::rules::{Cards, Meld, Melds, Spec};
use std::ptr::null_mut;
use std::rc::Rc;

static mut KERNEL: *mut PyObject = null_mut();

unsafe fn kernel() -> PyResult<Obj> {
    unsafe {
        if KERNEL.is_null() {
            KERNEL = import(c"canasta._core._kernel")?.into_ptr();
        }
        Ok(Obj::borrowed(KERNEL))
    }
}

// ------------------------------------------------------------------ Python values of the core's

pub fn meld_obj(m: &Meld) -> Obj {
    tuple(vec![int(m.rank as i64), int(m.nat as i64), int(m.jk as i64), int(m.tw as i64), int(m.r3 as i64)])
}

pub fn melds_obj(ms: &[Meld]) -> Obj {
    tuple(ms.iter().map(meld_obj).collect())
}

pub fn spec_obj(s: &Spec) -> Obj {
    tuple(vec![int(s.kind as i64), int(s.a as i64), int(s.b as i64), int(s.c as i64), int_tuple(s.cards.s())])
}

pub(crate) fn hand_obj(h: &Hand) -> Obj {
    bytes(h.s())
}

pub fn reason_obj(r: &Reason) -> Obj {
    let mut items = vec![int(r.code as i64)];
    items.extend(r.items.iter().map(val_obj));
    tuple(items)
}

fn val_obj(v: &V) -> Obj {
    match v {
        V::I(x) => int(*x),
        V::B(b) => boolean(*b),
        V::S(s) => string(s),
        V::H(h) => hand_obj(h),
        V::M(m) => melds_obj(m),
        V::One(m) => meld_obj(m),
        V::P(s) => spec_obj(s),
        V::C(c) => tuple(c.iter().map(|&x| int(x)).collect()),
        V::Wrap(a, inner, b) => tuple(vec![string(a), reason_obj(inner), string(b)]),
        V::Space => Obj::none(),
    }
}

pub(crate) fn hand_from(o: &Obj) -> PyResult<Hand> {
    let v = bytes_of(o.ptr())?;
    if v.len() > N_CODES {
        return Err(value_error("a hand of more than 59 counts"));
    }
    Ok(Hand::from_slice(&v))
}

fn meld_from(o: &Obj) -> PyResult<Meld> {
    let v = ints(o)?;
    if v.len() != 5 {
        return Err(value_error("a meld is (rank, naturals, jokers, twos, red three)"));
    }
    Ok(Meld::new(fit(v[0], "a meld's rank")?, fit(v[1], "a meld's naturals")?, fit(v[2], "a meld's jokers")?,
                 fit(v[3], "a meld's twos")?, fit(v[4], "a meld's red three")?))
}

pub(crate) fn melds_from(o: &Obj) -> PyResult<Melds> {
    o.items()?.iter().map(meld_from).collect()
}

pub(crate) fn spec_from(o: &Obj) -> PyResult<Option<Spec>> {
    let t = o.items()?;
    if t.len() != 5 {
        return Ok(None);
    }
    let mut v = [0i64; 4];
    for i in 0..4 {
        match t[i].int() {
            Ok(x) => v[i] = x,
            Err(_) => {
                unsafe { PyErr_Clear() };
                return Ok(None);
            }
        }
    }
    let cards: Vec<i64> = match ints(&t[4]) {
        Ok(c) => c,
        Err(_) => {
            unsafe { PyErr_Clear() };
            return Ok(None);
        }
    };
    if !(0..=255).contains(&v[0]) || v[1..].iter().any(|x| !(i32::MIN as i64..=i32::MAX as i64).contains(x))
        || cards.iter().any(|&k| !(0..N_CODES as i64).contains(&k))
    {
        return Ok(None);
    }
    let cards: Vec<u8> = cards.iter().map(|&k| k as u8).collect();
    let Some(cards) = Cards::of(&cards) else { return Ok(None) };
    Ok(Some(Spec { kind: v[0] as u8, a: v[1] as i32, b: v[2] as i32, c: v[3] as i32, cards }))
}

pub(crate) fn pile_obj(c: &Core) -> Obj {
    let cards = pile_cards(c);
    let mut link = Obj::none();
    for k in cards {
        link = tuple(vec![int(k as i64), link]);
    }
    link
}

pub(crate) fn history_obj(c: &Core) -> Obj {
    // the links not yet built, newest first, down to the first one built (or the start)
    let mut todo: Vec<&Rc<Hist>> = vec![];
    let mut base = Obj::none();
    let mut link = &c.history;
    while let Some(h) = link {
        if let Some(o) = h.py.borrow().as_ref() {
            base = o.clone();
            break;
        }
        todo.push(h);
        link = &h.prev;
    }
    for h in todo.iter().rev() {
        base = tuple(vec![int(h.id as i64), base, int(h.seat as i64)]);
        *h.py.borrow_mut() = Some(base.clone());
    }
    base
}

fn scores_obj(s: &[Vec<(String, i32, i64)>]) -> Obj {
    tuple(s.iter().map(|rows| tuple(rows.iter().map(|(n, k, p)| tuple(vec![string(n), int(*k as i64), int(*p)])).collect())).collect())
}

pub(crate) fn result_obj(c: &Core) -> PyResult<Obj> {
    let Some(res) = &c.result else { return Ok(Obj::none()) };
    let cls = unsafe { kernel() }?.attr(c"Result")?;
    cls.call(vec![int(res.went_out as i64), boolean(res.concealed), scores_obj(&res.scores), string(&res.reason)])
}

pub(crate) fn deal_obj(c: &Core) -> PyResult<Obj> {
    let d = &c.d;
    if let Some(o) = d.py.borrow().as_ref() {
        return Ok(o.clone());
    }
    let cls = unsafe { kernel() }?.attr(c"Deal")?;
    let o = cls.call(vec![d.py_rules.clone(), d.seed.clone(), int(d.hand_number), int(d.dealer as i64), int_tuple(&d.active),
                          int_tuple(&d.precise), int_tuple(&d.stock)])?;
    *d.py.borrow_mut() = Some(o.clone());
    Ok(o)
}

pub(crate) fn side_count(c: &Core) -> usize {
    c.r().n_sides
}

pub(crate) fn key_obj(c: &Core) -> PyResult<Obj> {
    let r = c.r();
    let rules = c.d.py_rules.clone();
    let res = match &c.result {
        None => Obj::none(),
        Some(x) => tuple(vec![int(x.went_out as i64), boolean(x.concealed), scores_obj(&x.scores), string(&x.reason)]),
    };
    let ns = side_count(c);
    let np = r.players;
    Ok(tuple(vec![
        rules.attr(c"variant")?,
        int(np as i64),
        c.d.seed.clone(),
        int(c.d.hand_number),
        int(c.d.dealer as i64),
        int_tuple(&c.d.active),
        int_tuple(&c.d.precise),
        int_tuple(&c.totals[..ns]),
        tuple(c.hands.iter().map(|h| hand_obj(&h)).collect()),
        tuple(c.downs.iter().map(|h| hand_obj(&h)).collect()),
        tuple((0..ns).map(|s| melds_obj(c.melds(s))).collect()),
        int_tuple(&c.red[..ns]),
        int_tuple(&c.aside[..ns]),
        int(c.turned),
        bool_tuple(&c.opened[..ns]),
        bool_tuple(&c.melded[..np]),
        int_tuple(c.stock()),
        int_tuple(&pile_cards(c)),
        int(c.buried as i64),
        boolean(c.frozen),
        int(c.player as i64),
        int(c.phase),
        int(c.flags),
        int(c.count as i64),
        int(c.melds_before as i64),
        int_tuple(&c.pending),
        int(c.pending_top as i64),
        start_hand_obj(c),
        bool_tuple(&c.took_last[..np]),
        int(c.last_turns as i64),
        res,
        int_tuple(&c.winners),
    ]))
}

pub(crate) fn start_hand_obj(c: &Core) -> Obj {
    match &c.start_hand {
        None => bytes(&[]),
        Some(h) => hand_obj(h),
    }
}
