//! The arguments of the native functions: their count, the native position among them, and
//! `canasta.ArgumentError`s naming a bad one. Built on `py.rs` and `coreobj.rs`; the entry
//! points (`buffer.rs` for its buffers) are built on it.

use crate::ffi::*;
use crate::kernel::Core;
use crate::py::*;
use std::ptr::null_mut;

static mut ARGUMENT_ERROR: *mut PyObject = null_mut();

/// Raise `canasta.ArgumentError(argument, problem)` (a ValueError and a TypeError).
pub fn arg_error(argument: &str, problem: &str) -> PyErr {
    unsafe extern "C" {
        fn PyErr_SetObject(t: *mut PyObject, v: *mut PyObject);
    }
    let cls = unsafe {
        if ARGUMENT_ERROR.is_null() {
            match import(c"canasta._errors").and_then(|m| m.attr(c"ArgumentError")) {
                Ok(c) => ARGUMENT_ERROR = c.into_ptr(),
                Err(e) => return e,
            }
        }
        Obj::borrowed(ARGUMENT_ERROR)
    };
    match cls.call(vec![string(argument), string(problem)]) {
        Ok(e) => {
            unsafe { PyErr_SetObject(cls.ptr(), e.ptr()) };
            PyErr
        }
        Err(e) => e,
    }
}

/// The `want` arguments of a fast call (a TypeError naming the function `name` if there are
/// not that many).
pub fn nargs<'a>(a: *const *mut PyObject, n: Py_ssize_t, want: usize, name: &str) -> PyResult<&'a [*mut PyObject]> {
    if n as usize != want {
        return Err(type_error(&format!("{name}() takes {want} arguments ({n} given)")));
    }
    Ok(unsafe { std::slice::from_raw_parts(a, n as usize) })
}

/// The native position of `o` (a TypeError if it is none).
pub fn core_arg<'a>(o: *mut PyObject) -> PyResult<&'a Core> {
    if unsafe { PyType_IsSubtype((*o).ob_type, crate::coreobj::CORE_TYPE as *mut PyTypeObject) } == 0 {
        return Err(arg_error("state", "expected a position of the native core"));
    }
    Ok(unsafe { crate::coreobj::core_of(o) })
}
