//! The Python module `canasta._native`: its functions and the `Core` type registered, built on
//! every module with a Python entry point (`coreobj.rs`, `rulesobj.rs`, `newcore.rs`,
//! `playouts.rs`, `simulate.rs`, `obs.rs`, `vecenv.rs`, `seatbots.rs`, `ismcts.rs`); no module
//! is built on it.

use crate::buffer::PyModule_AddFunctions;
use crate::coreobj::*;
use crate::ffi::*;
use crate::guard::{guard, install_panic_hook};
use crate::newcore::{f_deal, f_from_core};
use crate::obs::{f_obs_layout, f_observe};
use crate::playouts::{f_bots, f_mt_sample, f_play};
use crate::py::*;
use crate::rulesobj::f_rules;
use crate::simulate::f_simulate;
use std::ffi::c_void;
use std::os::raw::{c_char, c_int};
use std::ptr::null_mut;

/// `heap()`: the bytes the native core's own allocations hold live (outside Python's allocator).
unsafe extern "C" fn f_heap(_m: *mut PyObject, _a: *mut PyObject) -> *mut PyObject {
    guard(|| Ok(int(crate::heap::live() as i64)))
}

/// `_panic_for_test()` (private, for the tests): a Rust panic inside an entry point, which must
/// come back to Python as a `RuntimeError`, the process living on.
unsafe extern "C" fn f_panic_for_test(_m: *mut PyObject, _a: *mut PyObject) -> *mut PyObject {
    guard(|| panic!("a panic forced by _panic_for_test"))
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


macro_rules! fastcall {
    ($name:literal, $f:expr) => {
        PyMethodDef { ml_name: $name.as_ptr(), ml_meth: $f as *mut c_void, ml_flags: METH_FASTCALL, ml_doc: null_mut() }
    };
}

static mut FUNCTIONS: [PyMethodDef; 14] = [
    fastcall!(c"obs_layout", f_obs_layout as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"observe", f_observe as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"vec_new", crate::vecenv::f_vec_new as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"vec_step", crate::vecenv::f_vec_step as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"vec_get", crate::vecenv::f_vec_get as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"seat_bots", crate::seatbots::f_seat_bots as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"play_to", crate::seatbots::f_play_to as unsafe extern "C" fn(_, _, _) -> _),
    // the Gymnasium environment stepped natively (gymenv.rs)
    fastcall!(c"gym_new", crate::gymenv::f_gym_new as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"gym_reset", crate::gymenv::f_gym_reset as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"gym_step", crate::gymenv::f_gym_step as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"gym_state", crate::gymenv::f_gym_state as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"gym_mask", crate::gymenv::f_gym_mask as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"gym_vec_step", crate::gymenv::f_gym_vec_step as unsafe extern "C" fn(_, _, _) -> _),
    PyMethodDef { ml_name: std::ptr::null(), ml_meth: null_mut(), ml_flags: 0, ml_doc: std::ptr::null() },
];

/// Add the observation's functions and the environments' (`obs.rs`, `vecenv.rs`, `seatbots.rs`,
/// `gymenv.rs`) to the module `m`.
unsafe fn register_envs(m: *mut PyObject) -> c_int {
    unsafe { PyModule_AddFunctions(m, (&raw mut FUNCTIONS) as *mut PyMethodDef) }
}

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
        if PyModule_AddObjectRef(m, c"Core".as_ptr(), tp) < 0 || register_envs(m) < 0
            || crate::ismcts::register(m) < 0
            // information-set samples dealt natively
            || crate::resample::register(m) < 0
            // the Observation object's parts
            || crate::obsobj::register(m) < 0
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
