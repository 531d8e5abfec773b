//! The `Observation` object's parts made natively (`canasta/_observe.py`, `canasta/_observation.py`):
//! the fields every seat's observation of a position shares, read from the position in one call
//! (`obs_public`); an `Observation` filled without the keyword call of its `__init__`
//! (`obs_new`); and the fresh dicts of a history's events for `Observation.to_dict`
//! (`event_dicts`). The Python values made are those the Python path makes (the melds and the
//! turn through the Python side's own caches and factories), so the objects compare equal,
//! give equal dicts and pickle alike: `tests/test_observation_native.py` compares them at every
//! decision of seeded playouts.

use crate::args::{core_arg, nargs};
use crate::buffer::PyModule_AddFunctions;
use crate::cards::N_KINDS;
use crate::ffi::*;
use crate::guard::guarded;
use crate::kernel::*;
use crate::py::*;
use std::ffi::c_void;
use std::os::raw::{c_char, c_int};
use std::ptr::null_mut;

unsafe extern "C" {
    fn PyDict_GetItem(d: *mut PyObject, k: *mut PyObject) -> *mut PyObject;
    fn PyDict_Copy(d: *mut PyObject) -> *mut PyObject;
    fn PyDict_Size(d: *mut PyObject) -> Py_ssize_t;
    fn PyDict_Clear(d: *mut PyObject);
    fn PyUnicode_InternFromString(s: *const c_char) -> *mut PyObject;
    fn PySequence_List(o: *mut PyObject) -> *mut PyObject;
    fn PyList_Size(l: *mut PyObject) -> Py_ssize_t;
    fn PyList_GetItem(l: *mut PyObject, i: Py_ssize_t) -> *mut PyObject;
    fn PyObject_GetAttr(o: *mut PyObject, name: *mut PyObject) -> *mut PyObject;
    fn PyObject_GenericSetAttr(o: *mut PyObject, name: *mut PyObject, v: *mut PyObject) -> c_int;
    fn PyLong_FromVoidPtr(p: *mut c_void) -> *mut PyObject;
    static mut PyType_Type: PyTypeObject;
}

static mut RED_THREES: *mut PyObject = null_mut();

/// The key `"red_threes"`, interned (made once, kept for the process).
fn red_threes_key() -> PyResult<*mut PyObject> {
    unsafe {
        if RED_THREES.is_null() {
            RED_THREES = Obj::new(PyUnicode_InternFromString(c"red_threes".as_ptr()))?.into_ptr();
        }
        Ok(RED_THREES)
    }
}

/// Entries a cache dict the Python side hands in may hold before it is emptied.
const CACHE_MAX: Py_ssize_t = 1 << 14;

fn is_dict(o: *mut PyObject) -> bool {
    unsafe { PyDict_Size(o) >= 0 || { PyErr_Clear(); false } }
}

/// `cache[key]`, made by `factory(key)` (and kept) on a miss.
fn cached(cache: *mut PyObject, factory: *mut PyObject, key: Obj) -> PyResult<Obj> {
    let hit = unsafe { PyDict_GetItem(cache, key.ptr()) };
    if !hit.is_null() {
        return Ok(Obj::borrowed(hit));
    }
    let v = Obj::borrowed(factory).call(vec![key.clone()])?;
    unsafe {
        if PyDict_Size(cache) >= CACHE_MAX {
            PyDict_Clear(cache);
        }
        if PyDict_SetItem(cache, key.ptr(), v.ptr()) < 0 {
            return Err(PyErr);
        }
    }
    Ok(v)
}

/// A side's melds as the key of `_observe._SIDE_MELDS`: per meld, its rank (1 byte), naturals,
/// jokers and twos (4 bytes each, little-endian) and its red three (1 byte).
fn side_key(ms: &[crate::rules::Meld]) -> Obj {
    let mut b = Vec::with_capacity(14 * ms.len());
    for m in ms {
        b.push(m.rank);
        b.extend_from_slice(&m.nat.to_le_bytes());
        b.extend_from_slice(&m.jk.to_le_bytes());
        b.extend_from_slice(&m.tw.to_le_bytes());
        b.push(m.r3);
    }
    bytes(&b)
}

fn optional(v: i64) -> Obj {
    if v < 0 { Obj::none() } else { int(v) }
}

/// `obs_public(core, side_cache, side_factory, turn_cache, turn_factory)`: the fields of the
/// position `core` that every seat's observation shares, as a tuple (see `_observe._Public`):
/// `(hands, hand_sizes, down_hand_sizes, melds, red_threes, black_threes_aside, opened, melded,
/// initial_need, pile_size, pile_top, frozen, frozen_for, stock_size, turn, took_last,
/// last_turns, active, precise, winners, totals, current_player, phase number, hand_number,
/// dealer, pile_buried)`. A side's melds come from `side_cache` keyed by their bytes (made by
/// `side_factory(key)` on a miss), the turn from `turn_cache` keyed by `(flags, count, pending
/// size, pending top, melds before)` (`turn_factory(key)` on a miss).
unsafe extern "C" fn f_obs_public(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 5, "obs_public")?;
        let c = core_arg(a[0])?;
        if !is_dict(a[1]) || !is_dict(a[3]) {
            return Err(type_error("obs_public: the caches must be dicts"));
        }
        let r = c.r();
        let np = r.players;
        let ns = r.n_sides;
        let hands: Vec<Hand> = c.hands.iter().collect();
        let size = |h: &Hand| h.s()[..N_KINDS.min(h.s().len())].iter().map(|&x| x as i64).sum::<i64>();
        let hands_obj = tuple(hands.iter().map(|h| int_tuple(h.s())).collect());
        let sizes = tuple(hands.iter().map(|h| int(size(h))).collect());
        let downs = tuple(c.downs.iter().map(|h| int(size(&h))).collect());
        let mut melds = Vec::with_capacity(ns);
        for s in 0..ns {
            melds.push(cached(a[1], a[2], side_key(c.melds(s)))?);
        }
        let need = tuple((0..ns).map(|s| int(if c.opened[s] { 0 } else { r.initial_need(c.totals[s], c.d.hand_number) as i64 }))
            .collect());
        let frozen_for = bool_tuple(&(0..ns).map(|s| c.frozen || (r.frozen_until_initial && !c.opened[s])).collect::<Vec<_>>());
        let turn_key = tuple(vec![int(c.flags), int(c.count as i64), int(c.pending.len() as i64), int(c.pending_top as i64),
                                  int(c.melds_before as i64)]);
        let turn = cached(a[3], a[4], turn_key)?;
        Ok(tuple(vec![
            hands_obj,
            sizes,
            downs,
            tuple(melds),
            int_tuple(&c.red[..ns]),
            int_tuple(&c.aside[..ns]),
            bool_tuple(&c.opened[..ns]),
            bool_tuple(&c.melded[..np]),
            need,
            int(c.pile_n as i64),
            match &c.pile { Some(p) => int(p.card as i64), None => Obj::none() },
            boolean(c.frozen),
            frozen_for,
            int(c.stock_n as i64),
            turn,
            bool_tuple(&c.took_last[..np]),
            int(c.last_turns as i64),
            int_tuple(&c.d.active),
            int_tuple(&c.d.precise),
            int_tuple(&c.winners),
            int_tuple(&c.totals[..ns]),
            optional(c.player as i64),
            int(c.phase),
            int(c.d.hand_number),
            int(c.d.dealer as i64),
            int(c.buried as i64),
        ]))
    })
}

/// `obs_new(cls, names, values)`: an instance of the slotted class `cls` with each field of
/// `names` (a tuple of strings) set to the item of `values` at its place, as `object.__setattr__`
/// sets it (a frozen class's own `__setattr__` is not called): what `cls(**dict(zip(names,
/// values)))` makes where `__init__` only stores its arguments and `names` are all the fields.
unsafe extern "C" fn f_obs_new(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 3, "obs_new")?;
        let (cls, names, values) = (a[0], a[1], a[2]);
        let k = unsafe { PyTuple_Size(names) };
        if k < 0 || unsafe { PyTuple_Size(values) } != k {
            unsafe { PyErr_Clear() };
            return Err(type_error("obs_new: names and values must be tuples of one length"));
        }
        if unsafe { PyType_IsSubtype((*cls).ob_type, &raw mut PyType_Type) } == 0 {
            return Err(type_error("obs_new: expected a class"));
        }
        let alloc = unsafe { PyType_GetSlot(cls as *mut PyTypeObject, Py_tp_alloc) };
        if alloc.is_null() {
            return Err(type_error("obs_new: expected a class"));
        }
        let alloc: unsafe extern "C" fn(*mut PyTypeObject, Py_ssize_t) -> *mut PyObject = unsafe { std::mem::transmute(alloc) };
        let o = Obj::new(unsafe { alloc(cls as *mut PyTypeObject, 0) })?;
        for i in 0..k {
            let (name, v) = unsafe { (PyTuple_GetItem(names, i), PyTuple_GetItem(values, i)) };
            if unsafe { PyObject_GenericSetAttr(o.ptr(), name, v) } < 0 {
                return Err(PyErr);
            }
        }
        Ok(o)
    })
}

/// `event_dicts(events, cache, factory)`: the list of `events`' dicts as `Observation.to_dict`
/// gives them, each new: a copy of the dict kept for the event in `cache` (keyed by the
/// event's `id`, holding `(event, dict)`), its `red_threes` a new list; `factory(event)` makes
/// (and keeps) the dict of an event not kept yet.
unsafe extern "C" fn f_event_dicts(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 3, "event_dicts")?;
        let (events, cache, factory) = (a[0], a[1], a[2]);
        let k = unsafe { PyTuple_Size(events) };
        if k < 0 || !is_dict(cache) {
            unsafe { PyErr_Clear() };
            return Err(type_error("event_dicts: expected a tuple of events and a dict"));
        }
        let red_key = red_threes_key()?;
        let out = Obj::new(unsafe { PyList_New(k) })?;
        for i in 0..k {
            let e = unsafe { PyTuple_GetItem(events, i) };
            let key = Obj::new(unsafe { PyLong_FromVoidPtr(e as *mut c_void) })?;
            let hit = unsafe { PyDict_GetItem(cache, key.ptr()) };
            let mut d: Option<Obj> = None;
            if !hit.is_null() && unsafe { PyTuple_Size(hit) } == 2 && unsafe { PyTuple_GetItem(hit, 0) } == e {
                let kept = unsafe { PyTuple_GetItem(hit, 1) };
                let copy = Obj::new(unsafe { PyDict_Copy(kept) })?;
                let red = unsafe { PyDict_GetItem(copy.ptr(), red_key) };
                let m = if red.is_null() || unsafe { is_none(red) } { -1 } else { unsafe { PyTuple_Size(red) } };
                if m >= 0 {
                    let l = Obj::new(unsafe { PyList_New(m) })?;
                    for j in 0..m {
                        unsafe { PyList_SetItem(l.ptr(), j, Obj::borrowed(PyTuple_GetItem(red, j)).into_ptr()) };
                    }
                    if unsafe { PyDict_SetItem(copy.ptr(), red_key, l.ptr()) } < 0 {
                        return Err(PyErr);
                    }
                    d = Some(copy);
                } else if !red.is_null() && unsafe { is_none(red) } {
                    d = Some(copy);
                } else {
                    unsafe { PyErr_Clear() }; // (not a tuple: the Python side makes this one)
                }
            } else {
                unsafe { PyErr_Clear() };
            }
            let d = match d {
                Some(d) => d,
                None => Obj::borrowed(factory).call(vec![Obj::borrowed(e)])?,
            };
            unsafe { PyList_SetItem(out.ptr(), i, d.into_ptr()) };
        }
        Ok(out)
    })
}

// ------------------------------------------------------------------ Observation.to_dict

/// The names `obs_dict` reads and writes, interned once (kept for the process).
const NAMES: [&std::ffi::CStr; 43] = [
    c"format", c"version", c"cards", c"variant", c"players", c"seat", c"side", c"side_of", c"hand_number", c"dealer",
    c"totals", c"current_player", c"phase", c"hand", c"down_hand_size", c"hand_sizes", c"down_hand_sizes", c"melds",
    c"red_threes", c"opened", c"melded", c"initial_need", c"pile_size", c"pile_top", c"frozen", c"frozen_for",
    c"stock_size", c"turn", c"took_last", c"last_turns", c"active", c"precise", c"result", c"winners", c"history",
    c"examined_pile", c"black_threes_aside", c"pile_buried", c"legal_actions", c"legal_action_ids", c"value", c"id",
    c"action",
];
static mut INTERNED: [*mut PyObject; 43] = [null_mut(); 43];

fn names() -> PyResult<&'static [*mut PyObject; 43]> {
    unsafe {
        if INTERNED[0].is_null() {
            for (i, n) in NAMES.iter().enumerate() {
                INTERNED[i] = Obj::new(PyUnicode_InternFromString(n.as_ptr()))?.into_ptr();
            }
        }
        Ok(&*(&raw const INTERNED))
    }
}

/// `NAMES` as text, to find a name's place at compile time (`nm!`).
const KEYS: [&str; 43] = ["format", "version", "cards", "variant", "players", "seat", "side", "side_of", "hand_number", "dealer", "totals", "current_player", "phase", "hand", "down_hand_size", "hand_sizes", "down_hand_sizes", "melds", "red_threes", "opened", "melded", "initial_need", "pile_size", "pile_top", "frozen", "frozen_for", "stock_size", "turn", "took_last", "last_turns", "active", "precise", "result", "winners", "history", "examined_pile", "black_threes_aside", "pile_buried", "legal_actions", "legal_action_ids", "value", "id", "action"];

const fn idx(name: &str) -> usize {
    let mut i = 0;
    while i < KEYS.len() {
        let (a, b) = (KEYS[i].as_bytes(), name.as_bytes());
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return i;
            }
        }
        i += 1;
    }
    panic!("not a name of NAMES")
}

/// The interned name `$name` of `$n` (its place found at compile time).
macro_rules! nm {
    ($n:expr, $name:literal) => {{
        const I: usize = idx($name);
        $n[I]
    }};
}

/// The template kept for `o` in `cache` (`cache[id(o)] == (o, template, ...)`, the first
/// item `o` itself), or None.
fn kept(cache: *mut PyObject, o: *mut PyObject, at: Py_ssize_t) -> PyResult<Option<*mut PyObject>> {
    let key = Obj::new(unsafe { PyLong_FromVoidPtr(o as *mut c_void) })?;
    let hit = unsafe { PyDict_GetItem(cache, key.ptr()) };
    if hit.is_null() {
        return Ok(None);
    }
    let n = unsafe { PyTuple_Size(hit) };
    if n <= at || unsafe { PyTuple_GetItem(hit, 0) } != o {
        unsafe { PyErr_Clear() };
        return Ok(None);
    }
    Ok(Some(unsafe { PyTuple_GetItem(hit, at) }))
}

fn dict_copy(d: *mut PyObject) -> PyResult<Obj> {
    Obj::new(unsafe { PyDict_Copy(d) })
}

/// `obs_dict(obs, history, legend, helpers)`: `Observation.to_dict(history=..., legend=...)`,
/// the same keys in the same order and the same values, each list and dict new. `helpers` is
/// `(format, version, tokens, code tokens, turn dicts, turn_dict, result_dict, meld rows by id,
/// melds_dicts, history_dicts, legal texts, legal_dicts)`: the dicts `_observation` keeps (read
/// here where they hold what is asked) and the functions that make (and keep) what they lack.
unsafe extern "C" fn f_obs_dict(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 4, "obs_dict")?;
        let (ob, h) = (a[0], a[3]);
        let history = Obj::borrowed(a[1]).truth()?;
        let legend = Obj::borrowed(a[2]).truth()?;
        let hs = Obj::borrowed(h).items()?;
        if hs.len() != 12 {
            return Err(type_error("obs_dict: 12 helpers expected"));
        }
        let nn = names()?;
        let get = |name: *mut PyObject| Obj::new(unsafe { PyObject_GetAttr(ob, name) });
        let list = |name: *mut PyObject| -> PyResult<Obj> {
            let v = get(name)?;
            Obj::new(unsafe { PySequence_List(v.ptr()) })
        };
        let out = Obj::new(unsafe { PyDict_New() })?;
        let put = |name: *mut PyObject, v: Obj| -> PyResult<()> {
            if unsafe { PyDict_SetItem(out.ptr(), name, v.ptr()) } < 0 { Err(PyErr) } else { Ok(()) }
        };
        let hand = get(nm!(nn, "hand"))?;
        let hand_len = unsafe { PySequence_Size(hand.ptr()) };
        if hand_len < 0 {
            return Err(PyErr);
        }
        let suited = hand_len as usize == crate::cards::N_CODES;
        // the turn's and the result's dicts first, as to_dict makes them (a factory may raise)
        let t = get(nm!(nn, "turn"))?;
        let turn = match kept(hs[4].ptr(), t.ptr(), 1)? {
            Some(d) => dict_copy(d)?,
            None => hs[5].call(vec![t.clone()])?,
        };
        let r = get(nm!(nn, "result"))?;
        let result = if r.is_none() { r } else { hs[6].call(vec![r])? };
        put(nm!(nn, "format"), hs[0].clone())?;
        put(nm!(nn, "version"), hs[1].clone())?;
        if legend {
            put(nm!(nn, "cards"), Obj::new(unsafe { PySequence_List(hs[if suited { 3 } else { 2 }].ptr()) })?)?;
        }
        put(nm!(nn, "variant"), get(nm!(nn, "variant"))?)?;
        put(nm!(nn, "players"), get(nm!(nn, "players"))?)?;
        put(nm!(nn, "seat"), get(nm!(nn, "seat"))?)?;
        put(nm!(nn, "side"), get(nm!(nn, "side"))?)?;
        put(nm!(nn, "side_of"), list(nm!(nn, "side_of"))?)?;
        put(nm!(nn, "hand_number"), get(nm!(nn, "hand_number"))?)?;
        put(nm!(nn, "dealer"), get(nm!(nn, "dealer"))?)?;
        put(nm!(nn, "totals"), list(nm!(nn, "totals"))?)?;
        put(nm!(nn, "current_player"), get(nm!(nn, "current_player"))?)?;
        let phase = get(nm!(nn, "phase"))?;
        put(nm!(nn, "phase"), Obj::new(unsafe { PyObject_GetAttr(phase.ptr(), nm!(nn, "value")) })?)?;
        put(nm!(nn, "hand"), Obj::new(unsafe { PySequence_List(hand.ptr()) })?)?;
        put(nm!(nn, "down_hand_size"), get(nm!(nn, "down_hand_size"))?)?;
        put(nm!(nn, "hand_sizes"), list(nm!(nn, "hand_sizes"))?)?;
        put(nm!(nn, "down_hand_sizes"), list(nm!(nn, "down_hand_sizes"))?)?;
        put(nm!(nn, "melds"), melds_dicts(&get(nm!(nn, "melds"))?, suited, &hs[7], &hs[8])?)?;
        put(nm!(nn, "red_threes"), list(nm!(nn, "red_threes"))?)?;
        put(nm!(nn, "opened"), list(nm!(nn, "opened"))?)?;
        put(nm!(nn, "melded"), list(nm!(nn, "melded"))?)?;
        put(nm!(nn, "initial_need"), list(nm!(nn, "initial_need"))?)?;
        put(nm!(nn, "pile_size"), get(nm!(nn, "pile_size"))?)?;
        put(nm!(nn, "pile_top"), get(nm!(nn, "pile_top"))?)?;
        put(nm!(nn, "frozen"), get(nm!(nn, "frozen"))?)?;
        put(nm!(nn, "frozen_for"), list(nm!(nn, "frozen_for"))?)?;
        put(nm!(nn, "stock_size"), get(nm!(nn, "stock_size"))?)?;
        put(nm!(nn, "turn"), turn)?;
        put(nm!(nn, "took_last"), list(nm!(nn, "took_last"))?)?;
        put(nm!(nn, "last_turns"), get(nm!(nn, "last_turns"))?)?;
        put(nm!(nn, "active"), list(nm!(nn, "active"))?)?;
        put(nm!(nn, "precise"), list(nm!(nn, "precise"))?)?;
        put(nm!(nn, "result"), result)?;
        put(nm!(nn, "winners"), list(nm!(nn, "winners"))?)?;
        if history {
            put(nm!(nn, "history"), hs[9].call(vec![get(nm!(nn, "history"))?])?)?;
        }
        let pile = get(nm!(nn, "examined_pile"))?;
        put(nm!(nn, "examined_pile"), if pile.is_none() { pile } else { Obj::new(unsafe { PySequence_List(pile.ptr()) })? })?;
        put(nm!(nn, "black_threes_aside"), list(nm!(nn, "black_threes_aside"))?)?;
        let buried = get(nm!(nn, "pile_buried"))?;
        if buried.truth()? {
            put(nm!(nn, "pile_buried"), buried)?;
        }
        let ids = get(nm!(nn, "legal_action_ids"))?;
        let legal = if !ids.truth()? {
            Obj::new(unsafe { PyList_New(0) })?
        } else {
            let acts = get(nm!(nn, "legal_actions"))?;
            let made = match kept(hs[10].ptr(), ids.ptr(), 2)? {
                Some(pairs) => legal_dicts(nn, ids.ptr(), acts.ptr(), hs[10].ptr(), pairs)?,
                None => None,
            };
            match made {
                Some(l) => l,
                None => hs[11].call(vec![ids.clone(), acts])?,
            }
        };
        put(nm!(nn, "legal_actions"), legal)?;
        Ok(out)
    })
}

/// The legal actions' dicts `[{"id": i, "action": text}]` from the pairs kept for `ids` (None
/// where the kept entry is for other actions: the Python side makes it then).
fn legal_dicts(nn: &[*mut PyObject; 43], ids: *mut PyObject, acts: *mut PyObject, cache: *mut PyObject,
               pairs: *mut PyObject) -> PyResult<Option<Obj>> {
    // the entry is (ids, actions, pairs): its actions must be these very ones
    let Some(kept_acts) = kept(cache, ids, 1)? else { return Ok(None) };
    if kept_acts != acts {
        return Ok(None);
    }
    let k = unsafe { PyTuple_Size(pairs) };
    if k < 0 {
        unsafe { PyErr_Clear() };
        return Ok(None);
    }
    let out = Obj::new(unsafe { PyList_New(k) })?;
    for i in 0..k {
        let pair = unsafe { PyTuple_GetItem(pairs, i) };
        if pair.is_null() || unsafe { PyTuple_Size(pair) } != 2 {
            unsafe { PyErr_Clear() };
            return Ok(None);
        }
        let d = Obj::new(unsafe { PyDict_New() })?;
        unsafe {
            if PyDict_SetItem(d.ptr(), nm!(nn, "id"), PyTuple_GetItem(pair, 0)) < 0
                || PyDict_SetItem(d.ptr(), nm!(nn, "action"), PyTuple_GetItem(pair, 1)) < 0
            {
                return Err(PyErr);
            }
            PyList_SetItem(out.ptr(), i, d.into_ptr());
        }
    }
    Ok(Some(out))
}

/// `_observation._melds_dicts(melds, suited)`: per side a new list of new dicts, copied from
/// the rows kept by the side's id in `by_id` (`(by_id without low, by_id with low)`); `make`
/// (that function) where a side's row is not kept.
fn melds_dicts(melds: &Obj, suited: bool, by_id: &Obj, make: &Obj) -> PyResult<Obj> {
    let fallback = || make.call(vec![melds.clone(), boolean(suited)]);
    let cache = unsafe { PyTuple_GetItem(by_id.ptr(), suited as Py_ssize_t) };
    let ns = unsafe { PyTuple_Size(melds.ptr()) };
    if cache.is_null() || ns < 0 || !is_dict(cache) {
        unsafe { PyErr_Clear() };
        return fallback();
    }
    let out = Obj::new(unsafe { PyList_New(ns) })?;
    for s in 0..ns {
        let side = unsafe { PyTuple_GetItem(melds.ptr(), s) };
        let Some(row) = kept(cache, side, 1)? else { return fallback() };
        let k = unsafe { PySequence_Size(row) };
        if k < 0 || unsafe { PyList_Size(row) } < 0 {
            unsafe { PyErr_Clear() };
            return fallback();
        }
        let l = Obj::new(unsafe { PyList_New(k) })?;
        for j in 0..k {
            let d = unsafe { PyList_GetItem(row, j) };
            if d.is_null() {
                unsafe { PyErr_Clear() };
                return fallback();
            }
            unsafe { PyList_SetItem(l.ptr(), j, dict_copy(d)?.into_ptr()) };
        }
        unsafe { PyList_SetItem(out.ptr(), s, l.into_ptr()) };
    }
    Ok(out)
}

macro_rules! fastcall {
    ($name:literal, $f:expr) => {
        PyMethodDef { ml_name: $name.as_ptr(), ml_meth: $f as *mut c_void, ml_flags: METH_FASTCALL, ml_doc: null_mut() }
    };
}

static mut FUNCTIONS: [PyMethodDef; 5] = [
    fastcall!(c"obs_dict", f_obs_dict as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"obs_public", f_obs_public as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"obs_new", f_obs_new as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"event_dicts", f_event_dicts as unsafe extern "C" fn(_, _, _) -> _),
    PyMethodDef { ml_name: std::ptr::null(), ml_meth: null_mut(), ml_flags: 0, ml_doc: std::ptr::null() },
];

/// Add this module's functions to the module `m`.
pub unsafe fn register(m: *mut PyObject) -> c_int {
    unsafe { PyModule_AddFunctions(m, (&raw mut FUNCTIONS) as *mut PyMethodDef) }
}
