//! `rules(R)`: a table's native rules, compiled from the Python `Rules`, handed to Python in a
//! capsule (with a number no other table's rules get), and read back from it by every entry
//! point that takes a table. Built on `rules.rs` and `guard.rs`; the entry points are built on it.

use crate::ffi::*;
use crate::guard::{guard, quiet};
use crate::py::*;
use crate::pyrules::Unsupported;
use crate::rules::Rules;
use std::ffi::{c_void, CStr};
use std::rc::Rc;

const CAPSULE: &CStr = c"canasta._native.Rules";

/// A table's native rules as its capsule holds them, with a number no other table's rules get
/// (in this process), by which a thread knows its copy of them (see `simulate.rs`, `private_rules`).
pub(crate) struct Table {
    pub(crate) id: u64,
    pub(crate) rules: Rc<Rules>,
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

pub(crate) unsafe fn table_of<'a>(cap: *mut PyObject) -> PyResult<&'a Table> {
    let p = unsafe { PyCapsule_GetPointer(cap, CAPSULE.as_ptr()) } as *mut Table;
    if p.is_null() {
        return Err(PyErr);
    }
    Ok(unsafe { &*p })
}

pub(crate) unsafe fn rules_of(cap: *mut PyObject) -> PyResult<Rc<Rules>> {
    Ok(unsafe { table_of(cap) }?.rules.clone())
}

/// `rules(R)`: the native rules of the Python `Rules` `R` (a capsule), or a string saying why
/// this table cannot run natively.
pub(crate) unsafe extern "C" fn f_rules(_m: *mut PyObject, arg: *mut PyObject) -> *mut PyObject {
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
