//! The Python face of the native core: the `Core` type (a position; its attributes are those
//! of `canasta._core._kernel.Core`, built as Python values when read), dealing, converting a
//! Python core, and the reasons as Python tuples.

use crate::cards::*;
use crate::ffi::*;
use crate::kernel::*;
use crate::py::*;
use crate::reasons::{Reason, V};
use crate::pyrules::Unsupported;
use crate::rules::{Cards, Meld, Melds, Rules, Spec};
use std::cell::RefCell;
use std::ffi::{c_void, CStr};
use std::os::raw::{c_char, c_int};
use std::ptr::null_mut;
use std::rc::Rc;

/// A position as a Python object: the core is held inline (no second allocation).
#[repr(C)]
pub struct PyCore {
    ob_base: PyObject,
    core: std::mem::MaybeUninit<Core>,
}

pub(crate) static mut CORE_TYPE: *mut PyObject = null_mut();
static mut KERNEL: *mut PyObject = null_mut();
const CAPSULE: &CStr = c"canasta._native.Rules";

unsafe fn kernel() -> PyResult<Obj> {
    unsafe {
        if KERNEL.is_null() {
            KERNEL = import(c"canasta._core._kernel")?.into_ptr();
        }
        Ok(Obj::borrowed(KERNEL))
    }
}

#[inline]
pub(crate) unsafe fn core_of<'a>(o: *mut PyObject) -> &'a Core {
    unsafe { (*(o as *mut PyCore)).core.assume_init_ref() }
}

pub(crate) fn wrap(c: Core) -> PyResult<Obj> {
    let o = Obj::new(unsafe { PyType_GenericAlloc(CORE_TYPE as *mut PyTypeObject, 0) })?;
    unsafe { (*(o.ptr() as *mut PyCore)).core.write(c) };
    Ok(o)
}

unsafe extern "C" fn core_dealloc(o: *mut PyObject) {
    unsafe {
        let p = o as *mut PyCore;
        // (a panic here could only be a bug; it must not cross into Python: the core leaks)
        let _ = quiet(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (*p).core.assume_init_drop())));
        let tp = (*o).ob_type;
        let free: freefunc = std::mem::transmute(PyType_GetSlot(tp, Py_tp_free));
        free(o as *mut c_void);
        Py_DecRef(tp as *mut PyObject);
    }
}

fn done(r: PyResult<Obj>) -> *mut PyObject {
    match r {
        Ok(o) => o.into_ptr(),
        Err(_) => null_mut(),
    }
}

thread_local! {
    /// How deep this thread is in `guard`s: a panic there becomes a Python exception, so the
    /// panic hook writes nothing for it.
    static GUARDED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Run `f` with the panic hook quiet for this thread (the panic's message goes into the Python
/// exception instead).
fn quiet<T>(f: impl FnOnce() -> T) -> T {
    GUARDED.with(|g| g.set(g.get() + 1));
    let out = f();
    GUARDED.with(|g| g.set(g.get() - 1));
    out
}

/// Install, once, a panic hook that stays quiet inside a `guard` and hands every other panic to
/// the hook that was there before (the process's other code keeps its messages).
fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if GUARDED.with(|g| g.get()) == 0 {
                before(info);
            }
        }));
    });
}

/// Run `f`, turning a Rust panic (a bug, or a position no rule can go on from) into a Python
/// `RuntimeError` instead of ending the process. Every entry point from Python runs in one.
fn guard(f: impl FnOnce() -> PyResult<Obj>) -> *mut PyObject {
    match quiet(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))) {
        Ok(r) => done(r),
        Err(e) => {
            let msg = e.downcast_ref::<&str>().map(|s| s.to_string())
                .or_else(|| e.downcast_ref::<String>().cloned()).unwrap_or_default();
            done(Err(raise(unsafe { PyExc_RuntimeError }, &format!("the native core failed: {msg}"))))
        }
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

fn hand_obj(h: &Hand) -> Obj {
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

fn hand_from(o: &Obj) -> PyResult<Hand> {
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

fn melds_from(o: &Obj) -> PyResult<Melds> {
    o.items()?.iter().map(meld_from).collect()
}

fn spec_from(o: &Obj) -> PyResult<Option<Spec>> {
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

fn pile_obj(c: &Core) -> Obj {
    let cards = pile_cards(c);
    let mut link = Obj::none();
    for k in cards {
        link = tuple(vec![int(k as i64), link]);
    }
    link
}

fn history_obj(c: &Core) -> Obj {
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

fn result_obj(c: &Core) -> PyResult<Obj> {
    let Some(res) = &c.result else { return Ok(Obj::none()) };
    let cls = unsafe { kernel() }?.attr(c"Result")?;
    cls.call(vec![int(res.went_out as i64), boolean(res.concealed), scores_obj(&res.scores), string(&res.reason)])
}

fn deal_obj(c: &Core) -> PyResult<Obj> {
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

fn side_count(c: &Core) -> usize {
    c.r().n_sides
}

fn key_obj(c: &Core) -> PyResult<Obj> {
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

fn start_hand_obj(c: &Core) -> Obj {
    match &c.start_hand {
        None => bytes(&[]),
        Some(h) => hand_obj(h),
    }
}

// ------------------------------------------------------------------ getters

macro_rules! getter {
    ($name:ident, |$c:ident| $body:expr) => {
        unsafe extern "C" fn $name(o: *mut PyObject, _: *mut c_void) -> *mut PyObject {
            let $c = unsafe { core_of(o) };
            guard(|| -> PyResult<Obj> { Ok($body) })
        }
    };
}

getter!(get_d, |c| deal_obj(c)?);
getter!(get_hands, |c| tuple(c.hands.iter().map(|h| hand_obj(&h)).collect()));
getter!(get_downs, |c| tuple(c.downs.iter().map(|h| hand_obj(&h)).collect()));
getter!(get_melds, |c| tuple((0..side_count(c)).map(|s| melds_obj(c.melds(s))).collect()));
getter!(get_info, |c| {
    let f = import(c"canasta._core._table")?.attr(c"side_info")?;
    let mut v = vec![];
    for s in 0..side_count(c) {
        v.push(f.call(vec![c.d.py_rules.clone(), melds_obj(c.melds(s))])?);
    }
    tuple(v)
});
getter!(get_red, |c| int_tuple(&c.red[..side_count(c)]));
getter!(get_aside, |c| int_tuple(&c.aside[..side_count(c)]));
getter!(get_turned, |c| int(c.turned));
getter!(get_opened, |c| bool_tuple(&c.opened[..side_count(c)]));
getter!(get_melded, |c| bool_tuple(&c.melded[..c.r().players]));
getter!(get_stock_n, |c| int(c.stock_n as i64));
getter!(get_pile, |c| pile_obj(c));
getter!(get_pile_n, |c| int(c.pile_n as i64));
getter!(get_buried, |c| int(c.buried as i64));
getter!(get_frozen, |c| boolean(c.frozen));
getter!(get_player, |c| int(c.player as i64));
getter!(get_phase, |c| int(c.phase));
getter!(get_flags, |c| int(c.flags));
getter!(get_count, |c| int(c.count as i64));
getter!(get_melds_before, |c| int(c.melds_before as i64));
getter!(get_pending, |c| int_tuple(&c.pending));
getter!(get_pending_top, |c| int(c.pending_top as i64));
getter!(get_start_hand, |c| start_hand_obj(c));
getter!(get_took_last, |c| bool_tuple(&c.took_last[..c.r().players]));
getter!(get_last_turns, |c| int(c.last_turns as i64));
getter!(get_totals, |c| int_tuple(&c.totals[..side_count(c)]));
getter!(get_result, |c| result_obj(c)?);
getter!(get_winners, |c| int_tuple(&c.winners));
getter!(get_history, |c| history_obj(c));

// ------------------------------------------------------------------ methods

thread_local! {
    static SCRATCH: std::cell::RefCell<Vec<u32>> = std::cell::RefCell::new(Vec::with_capacity(64));
}

unsafe extern "C" fn m_legal_ids(o: *mut PyObject, _: *mut PyObject) -> *mut PyObject {
    let c = unsafe { core_of(o) };
    guard(|| {
        SCRATCH.with(|cell| {
            let mut acts = cell.borrow_mut();
            acts.clear();
            crate::legal::legal_ids(c, &mut acts);
            shared_ids(c, &acts)
        })
    })
}

/// The tuple of the legal ids `acts` of `c`: one tuple shared by the positions of the table
/// that have the same ids.
pub fn shared_ids(c: &Core, acts: &[u32]) -> PyResult<Obj> {
    let r = c.r();
    if let Some(t) = r.shared_ids.borrow().get(acts) {
        return Ok(t.clone());
    }
    let t = Obj::new(unsafe { PyTuple_New(acts.len() as Py_ssize_t) })?;
    // the tuples share one int per id: 4,096 tuples of fresh ints held tens of MB
    let mut ints = r.id_ints.borrow_mut();
    if ints.is_empty() {
        for a in 0..r.size {
            ints.push(Obj::new(unsafe { PyLong_FromLong(a as std::os::raw::c_long) })?);
        }
    }
    for (i, &a) in acts.iter().enumerate() {
        unsafe { PyTuple_SetItem(t.ptr(), i as Py_ssize_t, ints[a as usize].clone().into_ptr()) };
    }
    let mut shared = r.shared_ids.borrow_mut();
    if shared.len() >= 1 << 10 {
        shared.clear();
    }
    shared.insert(acts.to_vec(), t.clone());
    Ok(t)
}

fn id_arg(c: &Core, arg: *mut PyObject) -> PyResult<u32> {
    let id = unsafe { PyLong_AsLong(arg) };
    if id == -1 && !unsafe { PyErr_Occurred() }.is_null() {
        return Err(PyErr);
    }
    if id < 0 || id as usize >= c.r().size {
        return Err(value_error(&format!("not an action id: {id}")));
    }
    Ok(id as u32)
}

/// `apply(id)`: the position after the action `id`, which must be legal here (ValueError if not).
unsafe extern "C" fn m_apply(o: *mut PyObject, arg: *mut PyObject) -> *mut PyObject {
    let c = unsafe { core_of(o) };
    guard(|| {
        let id = id_arg(c, arg)?;
        let mut acts: Vec<u32> = Vec::with_capacity(32);
        crate::legal::legal_ids(c, &mut acts);
        if !acts.contains(&id) {
            return Err(value_error(&format!("action id {id} is not legal here")));
        }
        wrap(crate::apply::apply_id(c, id))
    })
}

/// `apply_legal(id)`: the same for an id the caller knows is legal (no check).
unsafe extern "C" fn m_apply_legal(o: *mut PyObject, arg: *mut PyObject) -> *mut PyObject {
    let c = unsafe { core_of(o) };
    guard(|| {
        let id = id_arg(c, arg)?;
        wrap(crate::apply::apply_id(c, id))
    })
}

/// The reason tuple refusing the spec, None when legal, or -1 for a spec the native core
/// cannot hold (never one of the variant's actions: the Python core answers it).
unsafe extern "C" fn m_problem(o: *mut PyObject, arg: *mut PyObject) -> *mut PyObject {
    let c = unsafe { core_of(o) };
    guard(|| -> PyResult<Obj> {
        let Some(spec) = spec_from(&Obj::borrowed(arg))? else { return Ok(int(-1)) };
        let in_space = c.r().ids.contains_key(&spec);
        let _explain = crate::reasons::Explain::new();
        Ok(match crate::legal::problem(c, &spec, in_space) {
            None => Obj::none(),
            Some(r) => reason_obj(&r),
        })
    })
}

unsafe extern "C" fn m_key(o: *mut PyObject, _: *mut PyObject) -> *mut PyObject {
    let c = unsafe { core_of(o) };
    guard(|| key_obj(c))
}

unsafe extern "C" fn m_stock(o: *mut PyObject, _: *mut PyObject) -> *mut PyObject {
    let c = unsafe { core_of(o) };
    guard(|| Ok(int_tuple(c.stock())))
}

unsafe extern "C" fn m_reduce(_o: *mut PyObject, _: *mut PyObject) -> *mut PyObject {
    done(Err(type_error("a native core is pickled through its GameState")))
}

/// `Core()` from Python: refused. A position is made by the rules (dealing, applying actions,
/// loading), never empty: an empty one has no rules to play by.
unsafe extern "C" fn core_new(_t: *mut PyTypeObject, _a: *mut PyObject, _k: *mut PyObject) -> *mut PyObject {
    done(Err(type_error("canasta._native.Core cannot be made from Python: positions are made by canasta.new_game, \
                         GameState.apply and next_hand, load_position and state_from_json")))
}

// ------------------------------------------------------------------ module functions

/// A table's native rules as its capsule holds them, with a number no other table's rules get
/// (in this process), by which a thread knows its copy of them (see `private_rules`).
struct Table {
    id: u64,
    rules: Rc<Rules>,
}

static TABLES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

unsafe extern "C" fn drop_rules(cap: *mut PyObject) {
    unsafe {
        let p = PyCapsule_GetPointer(cap, CAPSULE.as_ptr()) as *mut Table;
        if !p.is_null() {
            let _ = quiet(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(Box::from_raw(p)))));
        }
    }
}

unsafe fn table_of<'a>(cap: *mut PyObject) -> PyResult<&'a Table> {
    let p = unsafe { PyCapsule_GetPointer(cap, CAPSULE.as_ptr()) } as *mut Table;
    if p.is_null() {
        return Err(PyErr);
    }
    Ok(unsafe { &*p })
}

unsafe fn rules_of(cap: *mut PyObject) -> PyResult<Rc<Rules>> {
    Ok(unsafe { table_of(cap) }?.rules.clone())
}

/// `rules(R)`: the native rules of the Python `Rules` `R` (a capsule), or a string saying why
/// this table cannot run natively.
unsafe extern "C" fn f_rules(_m: *mut PyObject, arg: *mut PyObject) -> *mut PyObject {
    guard(|| {
        let r = Obj::borrowed(arg);
        match Rules::from_py(&r) {
            Ok(rules) => {
                let id = TABLES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let b = Box::into_raw(Box::new(Table { id, rules: Rc::new(rules) }));
                Obj::new(unsafe { PyCapsule_New(b as *mut c_void, CAPSULE.as_ptr(), Some(drop_rules)) })
            }
            Err(Unsupported::Py(e)) => Err(e),
            Err(Unsupported::Setting(s)) => Ok(string(&s)),
        }
    })
}

fn args<'a>(a: *const *mut PyObject, n: Py_ssize_t, want: usize, name: &str) -> PyResult<&'a [*mut PyObject]> {
    if n as usize != want {
        return Err(type_error(&format!("{name}() takes {want} arguments ({n} given)")));
    }
    Ok(unsafe { std::slice::from_raw_parts(a, n as usize) })
}

/// `deal(rules, R, seed, hand_number, dealer, totals, precise)`: shuffle, deal, first turn.
unsafe extern "C" fn f_deal(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guard(|| -> PyResult<Obj> {
        let a = args(a, n, 7, "deal")?;
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
unsafe extern "C" fn f_from_core(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guard(|| -> PyResult<Obj> {
        let a = args(a, n, 2, "from_core")?;
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

// ------------------------------------------------------------------ whole playouts (bots)

const BOTS: &CStr = c"canasta._native.Bots";

struct Bots {
    bots: Vec<crate::bots::Bot>,
    seat_bot: Vec<usize>,
}

unsafe extern "C" fn drop_bots(cap: *mut PyObject) {
    unsafe {
        let p = PyCapsule_GetPointer(cap, BOTS.as_ptr()) as *mut RefCell<Bots>;
        if !p.is_null() {
            let _ = quiet(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(Box::from_raw(p)))));
        }
    }
}

unsafe fn bots_of<'a>(cap: *mut PyObject) -> PyResult<&'a RefCell<Bots>> {
    let p = unsafe { PyCapsule_GetPointer(cap, BOTS.as_ptr()) } as *mut RefCell<Bots>;
    if p.is_null() {
        return Err(PyErr);
    }
    Ok(unsafe { &*p })
}

/// `bots(kinds, keys, seat_bot)`: built-in bots for whole playouts: per bot its kind (0
/// random, 1 greedy) and the key of its `random.Random` seed (abs(seed) in 32-bit words, least
/// significant first); per seat the bot that plays it.
unsafe extern "C" fn f_bots(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guard(|| {
        let a = args(a, n, 3, "bots")?;
        let kinds = ints(&Obj::borrowed(a[0]))?;
        let keys = Obj::borrowed(a[1]).items()?;
        let mut bots = vec![];
        for (k, key) in kinds.iter().zip(keys.iter()) {
            let words: Vec<u32> = ints(key)?.into_iter().map(|x| x as u32).collect();
            let kind = if *k == 0 { crate::bots::Kind::Random } else { crate::bots::Kind::Greedy };
            bots.push(crate::bots::Bot { kind, rng: crate::bots::Mt::from_key(&words) });
        }
        let seat_bot: Vec<usize> = ints(&Obj::borrowed(a[2]))?.into_iter().map(|x| x as usize).collect();
        if seat_bot.iter().any(|&b| b >= bots.len()) {
            return Err(value_error("a seat's bot is out of range"));
        }
        let b = Box::into_raw(Box::new(RefCell::new(Bots { bots, seat_bot })));
        Obj::new(unsafe { PyCapsule_New(b as *mut c_void, BOTS.as_ptr(), Some(drop_bots)) })
    })
}

struct PyPlanner {
    callback: Obj,
    failed: bool,
}

impl crate::bots::Planner for PyPlanner {
    fn plan_state(&mut self, c: &Core, seat: usize) -> Result<Core, String> {
        let got = (|| -> PyResult<Core> {
            let arg = wrap(c.clone())?;
            let res = self.callback.call(vec![arg, int(seat as i64)])?;
            if unsafe { PyType_IsSubtype((*res.ptr()).ob_type, CORE_TYPE as *mut PyTypeObject) } == 0 {
                return Err(type_error("the planner did not return a native position"));
            }
            Ok(unsafe { core_of(res.ptr()) }.clone())
        })();
        got.map_err(|_| {
            self.failed = true;
            "the planner failed".to_string()
        })
    }
}

/// `play(core, bots, max_actions, planner)`: play the hand on with the built-in bots until it is
/// over (or `max_actions` are played); returns (the position reached, actions played).
/// `planner(core, seat)` gives the state GreedyBot plans in where it plans from an observation.
unsafe extern "C" fn f_play(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guard(|| {
        let a = args(a, n, 4, "play")?;
        if unsafe { PyType_IsSubtype((*a[0]).ob_type, CORE_TYPE as *mut PyTypeObject) } == 0 {
            return Err(type_error("play() needs a native position"));
        }
        let c = unsafe { core_of(a[0]) };
        let cell = unsafe { bots_of(a[1]) }?;
        let max_actions = int_of(a[2])? as usize;
        let mut planner = PyPlanner { callback: Obj::borrowed(a[3]), failed: false };
        let mut bots = cell.borrow_mut();
        let Bots { bots, seat_bot } = &mut *bots;
        match crate::bots::play_hand(c, bots, seat_bot, max_actions, &mut planner) {
            Ok((end, count)) => Ok(tuple(vec![wrap(end)?, int(count as i64)])),
            Err(_) if planner.failed => Err(PyErr),
            Err(e) => Err(raise(unsafe { PyExc_RuntimeError }, &e)),
        }
    })
}

fn seed_key(seed: i128) -> Vec<u32> {
    let mut n = seed.unsigned_abs();
    let mut out = vec![(n & 0xffff_ffff) as u32];
    n >>= 32;
    while n != 0 {
        out.push((n & 0xffff_ffff) as u32);
        n >>= 32;
    }
    out
}

fn leader(scores: &[i64]) -> Option<usize> {
    let best = *scores.iter().max()?;
    let top: Vec<usize> = (0..scores.len()).filter(|&s| scores[s] == best).collect();
    if top.len() == 1 { Some(top[0]) } else { None }
}

/// `simulate(rules, R, first_seed, count, kinds, games, max_hands, max_actions, planner)`: the
/// rows of `canasta.simulate` for seeds `first_seed ..`, every seat's bot built in (`kinds`, as
/// for `bots`; seat s's bot seeded with `seed * 1000 + s`), every hand played natively. A row is
/// (scores or totals, leader or winner or None, actions, hands, ending); a hand that does not
/// end within `max_actions` gives the row `(seed, hand number)` instead.
unsafe extern "C" fn f_simulate(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guard(|| {
        let a = args(a, n, 9, "simulate")?;
        let table = unsafe { table_of(a[0]) }?;
        let shared = table.rules.clone();
        let py_rules = Obj::borrowed(a[1]);
        let first = int_of(a[2])? as i128;
        let count = int_of(a[3])?;
        let kinds = ints(&Obj::borrowed(a[4]))?;
        let games = Obj::borrowed(a[5]).truth()?;
        let max_hands = int_of(a[6])?;
        let max_actions: usize = fit(int_of(a[7])?, "max_actions")?;
        if i64::try_from(first + count as i128).is_err() {
            return Err(raise(unsafe { PyExc_OverflowError }, "simulate(): the seeds are out of the native core's range"));
        }
        // The deals are played without the GIL, so that threads simulate side by side. They play
        // on a copy of the table's rules that no other thread reaches (its memos are this
        // call's), and the positions handed to the planner are copies on the shared rules.
        let private = private_rules(table.id, &py_rules)?;
        let mut planner = SimPlanner { callback: Obj::borrowed(a[8]), shared, private: private.clone(), py_rules, seed: 0,
                                       failed: false };
        let played = without_gil(|| simulate_deals(&private, first, count, &kinds, games, max_hands, max_actions, &mut planner));
        let rows = match played {
            Ok(rows) => rows,
            Err(_) if planner.failed => return Err(PyErr),
            Err(e) => return Err(raise(unsafe { PyExc_RuntimeError }, &e)),
        };
        Ok(tuple(rows.into_iter().map(|row| match row {
            SimRow::Stuck(seed, hand) => tuple(vec![int(seed), int(hand)]),
            SimRow::Done(scores, lead, actions, hands, ending) => tuple(vec![
                int_tuple(&scores),
                lead.map(|x| int(x as i64)).unwrap_or_else(Obj::none),
                int(actions as i64),
                int(hands),
                string(ending),
            ]),
        }).collect()))
    })
}

thread_local! {
    /// This thread's copy of the rules it last simulated at, with its table's number. (It
    /// shares nothing with another thread, so it is freed at the thread's end without the GIL.)
    static PRIVATE: RefCell<Option<(u64, Rc<Rules>)>> = const { RefCell::new(None) };
}

/// A copy of table `id`'s rules (of the Python rules `py_rules`) for this thread alone, kept
/// from one simulate call to the next at the same table (building one costs about a
/// millisecond, and its memos warm up again).
fn private_rules(id: u64, py_rules: &Obj) -> PyResult<Rc<Rules>> {
    let kept = PRIVATE.with(|p| p.borrow().as_ref().filter(|(k, _)| *k == id).map(|(_, r)| r.clone()));
    if let Some(r) = kept {
        return Ok(r);
    }
    let private = match Rules::from_py(py_rules) {
        Ok(r) => Rc::new(r),
        Err(Unsupported::Py(e)) => return Err(e),
        Err(Unsupported::Setting(s)) => return Err(raise(unsafe { PyExc_RuntimeError }, &s)),
    };
    let old = PRIVATE.with(|p| p.borrow_mut().replace((id, private.clone())));
    drop(old); // (with the GIL)
    Ok(private)
}

/// A row of `simulate`, before it is made a Python tuple (with the GIL).
enum SimRow {
    /// (seed, hand number from 1): a hand that did not end
    Stuck(i64, i64),
    /// scores or totals, the leader or winner, actions, hands, ending
    Done(Vec<i64>, Option<usize>, usize, i64, &'static str),
}

/// The planner of a simulation: the GIL taken back for it, and the positions copied across
/// (the planner's Python code may keep what it is given).
struct SimPlanner {
    callback: Obj,
    shared: Rc<Rules>,
    private: Rc<Rules>,
    py_rules: Obj,
    /// the seed of the deal being played
    seed: i64,
    failed: bool,
}

impl crate::bots::Planner for SimPlanner {
    fn plan_state(&mut self, c: &Core, seat: usize) -> Result<Core, String> {
        let got = with_gil(|| -> PyResult<Core> {
            let arg = wrap(c.detached(self.shared.clone(), self.py_rules.clone(), int(self.seed)))?;
            let res = self.callback.call(vec![arg, int(seat as i64)])?;
            if unsafe { PyType_IsSubtype((*res.ptr()).ob_type, CORE_TYPE as *mut PyTypeObject) } == 0 {
                return Err(type_error("the planner did not return a native position"));
            }
            Ok(unsafe { core_of(res.ptr()) }.detached(self.private.clone(), Obj::null(), Obj::null()))
        });
        got.map_err(|_| {
            self.failed = true;
            "the planner failed".to_string()
        })
    }
}

/// The deals of `simulate`, played without the GIL (see `f_simulate`): Python is reached only
/// through `with_gil` (the planner, the initial-meld minimum). The positions dealt here hold no
/// Python object (Python never sees them), so a deal takes no GIL.
fn simulate_deals(rules: &Rc<Rules>, first: i128, count: i64, kinds: &[i64], games: bool, max_hands: i64,
                  max_actions: usize, planner: &mut SimPlanner) -> Result<Vec<SimRow>, String> {
    let r = &**rules;
    let seat_bot: Vec<usize> = (0..kinds.len()).collect();
    let mut out = vec![];
    // the bots are made once and reseeded in place for each deal
    let mut bots: Vec<crate::bots::Bot> = crate::bots::Mt::from_keys(&vec![vec![0]; kinds.len()])
        .into_iter()
        .zip(kinds)
        .map(|(rng, &k)| crate::bots::Bot {
            kind: if k == 0 { crate::bots::Kind::Random } else { crate::bots::Kind::Greedy },
            rng,
        })
        .collect();
    for i in 0..count as i128 {
        let seed = first + i;
        planner.seed = seed as i64;
        let seed_text = seed.to_string();
        let keys: Vec<Vec<u32>> = (0..kinds.len()).map(|s| seed_key(seed * 1000 + s as i128)).collect();
        crate::bots::Mt::reseed(&mut bots.iter_mut().map(|b| &mut b.rng).collect::<Vec<_>>(), &keys);
        let mut dealer = crate::deal::first_dealer(r, &seed_text);
        let mut totals = vec![0i64; r.n_sides];
        let mut hand = 0i64;
        let mut actions = 0usize;
        let mut failed = false;
        let end = loop {
            let precise = crate::deal::precise_draws(r, &seed_text, hand, dealer);
            let c = crate::deal::deal(rules.clone(), Obj::null(), Obj::null(), seed_text.clone(), hand, dealer, &totals, precise);
            let (end, played) = crate::bots::play_hand(&c, &mut bots, &seat_bot, max_actions + 1, planner)?;
            actions += played;
            if end.phase < PH_HAND_OVER {
                out.push(SimRow::Stuck(seed as i64, hand + 1));
                failed = true;
                break end;
            }
            hand += 1;
            if !games || end.phase == PH_GAME_OVER || hand >= max_hands {
                break end;
            }
            totals = end.totals[..r.n_sides].to_vec();
            dealer = crate::deal::next_dealer(r, end.d.dealer);
        };
        if failed {
            break;
        }
        let res = end.result.as_ref().unwrap();
        let row = if !games {
            let scores: Vec<i64> = res.scores.iter().map(crate::score::side_total).collect();
            let ending = if res.went_out < 0 { "stock exhausted" } else if res.concealed { "went out concealed" } else { "went out" };
            let lead = leader(&scores);
            SimRow::Done(scores, lead, actions, 1, ending)
        } else {
            let t = end.totals[..r.n_sides].to_vec();
            if end.phase == PH_GAME_OVER {
                let w = if end.winners.len() == 1 { Some(end.winners[0] as usize) } else { None };
                SimRow::Done(t, w, actions, hand, "game over")
            } else {
                let lead = leader(&t);
                SimRow::Done(t, lead, actions, hand, "hand cap")
            }
        };
        out.push(row);
    }
    Ok(out)
}

/// `heap()`: the bytes the native core's own allocations hold live (outside Python's allocator).
unsafe extern "C" fn f_heap(_m: *mut PyObject, _a: *mut PyObject) -> *mut PyObject {
    guard(|| Ok(int(crate::heap::live() as i64)))
}

/// `_panic_for_test()` (private, for the tests): a Rust panic inside an entry point, which must
/// come back to Python as a `RuntimeError`, the process living on.
unsafe extern "C" fn f_panic_for_test(_m: *mut PyObject, _a: *mut PyObject) -> *mut PyObject {
    guard(|| panic!("a panic forced by _panic_for_test"))
}

/// `mt_first(key, count)`: the first `count` values of `random.Random` seeded with `key`
/// (`random()` each), for the tests that check the generator against Python's.
unsafe extern "C" fn f_mt_sample(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guard(|| {
        let a = args(a, n, 3, "mt_sample")?;
        let words: Vec<u32> = ints(&Obj::borrowed(a[0]))?.into_iter().map(|x| x as u32).collect();
        let mut mt = crate::bots::Mt::from_key(&words);
        let count = int_of(a[1])? as usize;
        let below = int_of(a[2])? as usize;
        let mut out = vec![];
        for _ in 0..count {
            out.push(if below == 0 { float(mt.random()) } else { int(mt.below(below) as i64) });
        }
        Ok(tuple(out))
    })
}

// ------------------------------------------------------------------ the module

macro_rules! gs {
    ($name:literal, $f:ident) => {
        PyGetSetDef { name: $name.as_ptr(), get: Some($f), set: None, doc: null_mut(), closure: null_mut() }
    };
}

macro_rules! method {
    ($name:literal, $f:expr, $flags:expr) => {
        PyMethodDef { ml_name: $name.as_ptr(), ml_meth: $f as *mut c_void, ml_flags: $flags, ml_doc: null_mut() }
    };
}

static mut GETSET: [PyGetSetDef; 30] = [
    gs!(c"d", get_d),
    gs!(c"hands", get_hands),
    gs!(c"downs", get_downs),
    gs!(c"melds", get_melds),
    gs!(c"info", get_info),
    gs!(c"red", get_red),
    gs!(c"aside", get_aside),
    gs!(c"turned", get_turned),
    gs!(c"opened", get_opened),
    gs!(c"melded", get_melded),
    gs!(c"stock_n", get_stock_n),
    gs!(c"pile", get_pile),
    gs!(c"pile_n", get_pile_n),
    gs!(c"buried", get_buried),
    gs!(c"frozen", get_frozen),
    gs!(c"player", get_player),
    gs!(c"phase", get_phase),
    gs!(c"flags", get_flags),
    gs!(c"count", get_count),
    gs!(c"melds_before", get_melds_before),
    gs!(c"pending", get_pending),
    gs!(c"pending_top", get_pending_top),
    gs!(c"start_hand", get_start_hand),
    gs!(c"took_last", get_took_last),
    gs!(c"last_turns", get_last_turns),
    gs!(c"totals", get_totals),
    gs!(c"result", get_result),
    gs!(c"winners", get_winners),
    gs!(c"history", get_history),
    PyGetSetDef { name: std::ptr::null(), get: None, set: None, doc: std::ptr::null(), closure: null_mut() },
];

static mut METHODS: [PyMethodDef; 7] = [
    method!(c"legal_ids", m_legal_ids as unsafe extern "C" fn(_, _) -> _, METH_NOARGS),
    method!(c"apply", m_apply as unsafe extern "C" fn(_, _) -> _, METH_O),
    method!(c"apply_legal", m_apply_legal as unsafe extern "C" fn(_, _) -> _, METH_O),
    method!(c"problem", m_problem as unsafe extern "C" fn(_, _) -> _, METH_O),
    method!(c"key", m_key as unsafe extern "C" fn(_, _) -> _, METH_NOARGS),
    method!(c"stock", m_stock as unsafe extern "C" fn(_, _) -> _, METH_NOARGS),
    PyMethodDef { ml_name: std::ptr::null(), ml_meth: null_mut(), ml_flags: 0, ml_doc: std::ptr::null() },
];

static mut MODULE_METHODS: [PyMethodDef; 10] = [
    method!(c"heap", f_heap as unsafe extern "C" fn(_, _) -> _, METH_NOARGS),
    method!(c"simulate", f_simulate as unsafe extern "C" fn(_, _, _) -> _, METH_FASTCALL),
    method!(c"bots", f_bots as unsafe extern "C" fn(_, _, _) -> _, METH_FASTCALL),
    method!(c"play", f_play as unsafe extern "C" fn(_, _, _) -> _, METH_FASTCALL),
    method!(c"mt_sample", f_mt_sample as unsafe extern "C" fn(_, _, _) -> _, METH_FASTCALL),
    method!(c"rules", f_rules as unsafe extern "C" fn(_, _) -> _, METH_O),
    method!(c"deal", f_deal as unsafe extern "C" fn(_, _, _) -> _, METH_FASTCALL),
    method!(c"from_core", f_from_core as unsafe extern "C" fn(_, _, _) -> _, METH_FASTCALL),
    method!(c"_panic_for_test", f_panic_for_test as unsafe extern "C" fn(_, _) -> _, METH_NOARGS),
    PyMethodDef { ml_name: std::ptr::null(), ml_meth: null_mut(), ml_flags: 0, ml_doc: std::ptr::null() },
];

static mut MODULE: PyModuleDef = PyModuleDef {
    m_base: PyModuleDef_Base {
        ob_base: PyObject { ob_refcnt: 1, ob_type: null_mut() },
        m_init: None,
        m_index: 0,
        m_copy: null_mut(),
    },
    m_name: c"canasta._native".as_ptr(),
    m_doc: c"The native rules core of canasta (Rust): positions, legal ids, apply, reasons, dealing.".as_ptr(),
    m_size: -1,
    m_methods: null_mut(),
    m_slots: null_mut(),
    m_traverse: null_mut(),
    m_clear: null_mut(),
    m_free: null_mut(),
};

#[unsafe(no_mangle)]
pub unsafe extern "C" fn PyInit__native() -> *mut PyObject {
    unsafe {
        let _ = m_reduce;
        // a panic in a guard becomes a Python RuntimeError carrying its message: no second copy on stderr
        install_panic_hook();
        let mut slots = [
            PyType_Slot { slot: Py_tp_dealloc, pfunc: core_dealloc as *mut c_void },
            PyType_Slot { slot: Py_tp_new, pfunc: core_new as *mut c_void },
            PyType_Slot { slot: Py_tp_methods, pfunc: (&raw mut METHODS) as *mut c_void },
            PyType_Slot { slot: Py_tp_getset, pfunc: (&raw mut GETSET) as *mut c_void },
            PyType_Slot { slot: Py_tp_doc, pfunc: c"A position of the native core (private).".as_ptr() as *mut c_void },
            PyType_Slot { slot: 0, pfunc: null_mut() },
        ];
        let mut spec = PyType_Spec {
            name: c"canasta._native.Core".as_ptr(),
            basicsize: std::mem::size_of::<PyCore>() as c_int,
            itemsize: 0,
            flags: Py_TPFLAGS_DEFAULT,
            slots: slots.as_mut_ptr(),
        };
        let tp = PyType_FromSpec(&mut spec);
        if tp.is_null() {
            return null_mut();
        }
        CORE_TYPE = tp;
        MODULE.m_methods = (&raw mut MODULE_METHODS) as *mut PyMethodDef;
        let m = PyModule_Create2(&raw mut MODULE, 3);
        if m.is_null() {
            return null_mut();
        }
        if PyModule_AddObjectRef(m, c"Core".as_ptr(), tp) < 0 || crate::obs::register(m) < 0
            || crate::ismcts::register(m) < 0
        {
            return null_mut();
        }
        let v = string(env!("CARGO_PKG_VERSION"));
        PyModule_AddObjectRef(m, c"__version__".as_ptr(), v.ptr());
        m
    }
}

#[allow(dead_code)]
fn _unused(_: *const c_char) {}
