//! Catching panics at the border with Python: every entry point from Python runs in a guard,
//! which turns a Rust panic (a bug, or a position no rule can go on from) into a Python
//! `RuntimeError` instead of ending the process, with the panic hook kept quiet for it. Built on
//! `py.rs`; every module with a Python entry point is built on it.

use crate::ffi::*;
use crate::py::*;
use std::ptr::null_mut;

pub(crate) fn done(r: PyResult<Obj>) -> *mut PyObject {
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
pub(crate) fn quiet<T>(f: impl FnOnce() -> T) -> T {
    GUARDED.with(|g| g.set(g.get() + 1));
    let out = f();
    GUARDED.with(|g| g.set(g.get() - 1));
    out
}

/// Install, once, a panic hook that stays quiet inside a `guard` and hands every other panic to
/// the hook that was there before (the process's other code keeps its messages).
pub(crate) fn install_panic_hook() {
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
pub(crate) fn guard(f: impl FnOnce() -> PyResult<Obj>) -> *mut PyObject {
    match quiet(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))) {
        Ok(r) => done(r),
        Err(e) => {
            let msg = e.downcast_ref::<&str>().map(|s| s.to_string())
                .or_else(|| e.downcast_ref::<String>().cloned()).unwrap_or_default();
            done(Err(raise(unsafe { PyExc_RuntimeError }, &format!("the native core failed: {msg}"))))
        }
    }
}

/// Run `f`, a panic (a bug) becoming a Python RuntimeError instead of ending the process.
pub fn guarded(f: impl FnOnce() -> PyResult<Obj>) -> *mut PyObject {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(Ok(o)) => o.into_ptr(),
        Ok(Err(_)) => null_mut(),
        Err(e) => {
            let msg = e.downcast_ref::<&str>().map(|s| s.to_string())
                .or_else(|| e.downcast_ref::<String>().cloned()).unwrap_or_default();
            raise(unsafe { PyExc_RuntimeError }, &format!("the native core failed: {msg}"));
            null_mut()
        }
    }
}
