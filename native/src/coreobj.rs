//! The `Core` type: a position as a Python object (the core held inline), its attributes those
//! of `canasta._core._kernel.Core`, built as Python values when read, and its methods
//! (`legal_ids`, `apply`, `problem`, `key` ...). Built on `pyvalues.rs` and `guard.rs`; the
//! entry points that hand positions to Python are built on it, and `bind.rs` registers it.

use crate::ffi::*;
use crate::guard::{done, guard, quiet};
use crate::kernel::*;
use crate::py::*;
use crate::pyvalues::*;
use std::ffi::c_void;
use std::ptr::null_mut;

/// A position as a Python object: the core is held inline (no second allocation).
#[repr(C)]
pub struct PyCore {
    ob_base: PyObject,
    core: std::mem::MaybeUninit<Core>,
}

pub(crate) static mut CORE_TYPE: *mut PyObject = null_mut();

#[inline]
pub(crate) unsafe fn core_of<'a>(o: *mut PyObject) -> &'a Core {
    unsafe { (*(o as *mut PyCore)).core.assume_init_ref() }
}

pub(crate) fn wrap(c: Core) -> PyResult<Obj> {
    let o = Obj::new(unsafe { PyType_GenericAlloc(CORE_TYPE as *mut PyTypeObject, 0) })?;
    unsafe { (*(o.ptr() as *mut PyCore)).core.write(c) };
    Ok(o)
}

pub(crate) unsafe extern "C" fn core_dealloc(o: *mut PyObject) {
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

// ------------------------------------------------------------------ getters

macro_rules! getter {
    ($name:ident, |$c:ident| $body:expr) => {
        pub(crate) unsafe extern "C" fn $name(o: *mut PyObject, _: *mut c_void) -> *mut PyObject {
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

pub(crate) unsafe extern "C" fn m_legal_ids(o: *mut PyObject, _: *mut PyObject) -> *mut PyObject {
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
pub(crate) unsafe extern "C" fn m_apply(o: *mut PyObject, arg: *mut PyObject) -> *mut PyObject {
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
pub(crate) unsafe extern "C" fn m_apply_legal(o: *mut PyObject, arg: *mut PyObject) -> *mut PyObject {
    let c = unsafe { core_of(o) };
    guard(|| {
        let id = id_arg(c, arg)?;
        wrap(crate::apply::apply_id(c, id))
    })
}

/// The reason tuple refusing the spec, None when legal, or -1 for a spec the native core
/// cannot hold (never one of the variant's actions: the Python core answers it).
pub(crate) unsafe extern "C" fn m_problem(o: *mut PyObject, arg: *mut PyObject) -> *mut PyObject {
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

pub(crate) unsafe extern "C" fn m_key(o: *mut PyObject, _: *mut PyObject) -> *mut PyObject {
    let c = unsafe { core_of(o) };
    guard(|| key_obj(c))
}

pub(crate) unsafe extern "C" fn m_stock(o: *mut PyObject, _: *mut PyObject) -> *mut PyObject {
    let c = unsafe { core_of(o) };
    guard(|| Ok(int_tuple(c.stock())))
}

pub(crate) unsafe extern "C" fn m_reduce(_o: *mut PyObject, _: *mut PyObject) -> *mut PyObject {
    done(Err(type_error("a native core is pickled through its GameState")))
}

/// `Core()` from Python: refused. A position is made by the rules (dealing, applying actions,
/// loading), never empty: an empty one has no rules to play by.
pub(crate) unsafe extern "C" fn core_new(_t: *mut PyTypeObject, _a: *mut PyObject, _k: *mut PyObject) -> *mut PyObject {
    done(Err(type_error("canasta._native.Core cannot be made from Python: positions are made by canasta.new_game, \
                         GameState.apply and next_hand, load_position and state_from_json")))
}
