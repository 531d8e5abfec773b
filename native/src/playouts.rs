//! Whole playouts with the built-in bots (`bots.rs`): `bots` makes them, `play` plays a hand on
//! with them (a Python planner callback where GreedyBot plans from an observation), and
//! `mt_sample` checks their generator against Python's `random.Random`. Built on `bots.rs`,
//! `coreobj.rs` and `guard.rs`; `bind.rs` registers them.

use crate::args::nargs;
use crate::coreobj::{core_of, wrap, CORE_TYPE};
use crate::ffi::*;
use crate::guard::{guard, quiet};
use crate::kernel::*;
use crate::py::*;
use std::cell::RefCell;
use std::ffi::{c_void, CStr};

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
pub(crate) unsafe extern "C" fn f_bots(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guard(|| {
        let a = nargs(a, n, 3, "bots")?;
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
pub(crate) unsafe extern "C" fn f_play(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guard(|| {
        let a = nargs(a, n, 4, "play")?;
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

/// `mt_first(key, count)`: the first `count` values of `random.Random` seeded with `key`
/// (`random()` each), for the tests that check the generator against Python's.
pub(crate) unsafe extern "C" fn f_mt_sample(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guard(|| {
        let a = nargs(a, n, 3, "mt_sample")?;
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
