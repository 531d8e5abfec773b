//! Owned Python references and conversions between Python values and the core's.

use crate::ffi::*;
use std::ffi::CStr;
use std::os::raw::c_char;

/// A Python exception is set; the caller returns NULL to Python.
#[derive(Debug)]
pub struct PyErr;
pub type PyResult<T> = Result<T, PyErr>;

thread_local! {
    /// This thread's Python state while it runs without the GIL (`without_gil`), else null.
    static SAVED: std::cell::Cell<*mut PyThreadState> = const { std::cell::Cell::new(std::ptr::null_mut()) };
}

/// Run `f` with the GIL released: other Python threads run meanwhile. `f` must touch no Python
/// object but through `with_gil` (an `Obj`'s references are counted that way by themselves),
/// nor any native value another thread may reach (a position or rules Python holds).
pub fn without_gil<T>(f: impl FnOnce() -> T) -> T {
    SAVED.with(|s| s.set(unsafe { PyEval_SaveThread() }));
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    let t = SAVED.with(|s| s.replace(std::ptr::null_mut()));
    if !t.is_null() {
        unsafe { PyEval_RestoreThread(t) };
    }
    out.unwrap_or_else(|p| std::panic::resume_unwind(p))
}

/// Run `f` holding the GIL: taken back for it where this thread runs `without_gil`, and let
/// go again after.
pub fn with_gil<T>(f: impl FnOnce() -> T) -> T {
    let t = SAVED.with(|s| s.replace(std::ptr::null_mut()));
    if t.is_null() {
        return f(); // the GIL is held already
    }
    unsafe { PyEval_RestoreThread(t) };
    // (if f panics the GIL stays held and SAVED null: without_gil sees that as it unwinds)
    let out = f();
    SAVED.with(|s| s.set(unsafe { PyEval_SaveThread() }));
    out
}

/// An owned (strong) reference, released on drop (with the GIL, where it was let go).
pub struct Obj(pub *mut PyObject);

impl Drop for Obj {
    fn drop(&mut self) {
        if !self.0.is_null() {
            with_gil(|| unsafe { Py_DecRef(self.0) })
        }
    }
}

impl Clone for Obj {
    fn clone(&self) -> Obj {
        if !self.0.is_null() {
            with_gil(|| unsafe { Py_IncRef(self.0) });
        }
        Obj(self.0)
    }
}

impl Obj {
    /// Take ownership of a new reference (NULL: the error Python set).
    pub fn new(p: *mut PyObject) -> PyResult<Obj> {
        if p.is_null() { Err(PyErr) } else { Ok(Obj(p)) }
    }
    /// A new strong reference to a borrowed one.
    pub fn borrowed(p: *mut PyObject) -> Obj {
        with_gil(|| unsafe { Py_IncRef(p) });
        Obj(p)
    }
    /// No object: the deal of a position that Python never sees (a simulation's, played without
    /// the GIL), which then counts no reference.
    pub fn null() -> Obj {
        Obj(std::ptr::null_mut())
    }
    pub fn into_ptr(self) -> *mut PyObject {
        let p = self.0;
        std::mem::forget(self);
        p
    }
    pub fn ptr(&self) -> *mut PyObject {
        self.0
    }
    pub fn none() -> Obj {
        Obj(unsafe { py_none() })
    }
    pub fn is_none(&self) -> bool {
        unsafe { is_none(self.0) }
    }
    pub fn attr(&self, name: &CStr) -> PyResult<Obj> {
        getattr(self.0, name)
    }
    pub fn int(&self) -> PyResult<i64> {
        int_of(self.0)
    }
    pub fn truth(&self) -> PyResult<bool> {
        let r = unsafe { PyObject_IsTrue(self.0) };
        if r < 0 { Err(PyErr) } else { Ok(r == 1) }
    }
    pub fn items(&self) -> PyResult<Vec<Obj>> {
        items(self.0)
    }
    pub fn text(&self) -> PyResult<String> {
        str_of(self.0)
    }
    pub fn call(&self, args: Vec<Obj>) -> PyResult<Obj> {
        let t = tuple(args);
        Obj::new(unsafe { PyObject_CallObject(self.0, t.0) })
    }
}

pub fn raise(kind: *mut PyObject, msg: &str) -> PyErr {
    let mut bytes = msg.replace('\0', " ").into_bytes();
    bytes.push(0);
    unsafe { PyErr_SetString(kind, bytes.as_ptr() as *const c_char) };
    PyErr
}

pub fn value_error(msg: &str) -> PyErr {
    raise(unsafe { PyExc_ValueError }, msg)
}

pub fn type_error(msg: &str) -> PyErr {
    raise(unsafe { PyExc_TypeError }, msg)
}

pub fn getattr(o: *mut PyObject, name: &CStr) -> PyResult<Obj> {
    Obj::new(unsafe { PyObject_GetAttrString(o, name.as_ptr()) })
}

pub fn int_of(o: *mut PyObject) -> PyResult<i64> {
    let mut overflow = 0;
    let v = unsafe { PyLong_AsLongLongAndOverflow(o, &mut overflow) };
    if overflow != 0 {
        return Err(raise(unsafe { PyExc_OverflowError }, "integer too large for the native core"));
    }
    if v == -1 && !unsafe { PyErr_Occurred() }.is_null() {
        return Err(PyErr);
    }
    Ok(v)
}

/// `x` as the narrower integer type `T` a position keeps it in, or an `OverflowError` naming
/// `what`: no number is cut to fit (the caller then plays the position on the Python core).
pub fn fit<T: TryFrom<i64>>(x: i64, what: &str) -> PyResult<T> {
    T::try_from(x).map_err(|_| raise(unsafe { PyExc_OverflowError }, &format!("{what} = {x} is out of the native core's range")))
}

pub fn int(v: i64) -> Obj {
    Obj(unsafe { PyLong_FromLongLong(v) })
}

pub fn boolean(v: bool) -> Obj {
    Obj(unsafe { PyBool_FromLong(v as std::os::raw::c_long) })
}

pub fn float(v: f64) -> Obj {
    Obj(unsafe { PyFloat_FromDouble(v) })
}

pub fn bytes(v: &[u8]) -> Obj {
    Obj(unsafe { PyBytes_FromStringAndSize(v.as_ptr() as *const c_char, v.len() as Py_ssize_t) })
}

pub fn string(v: &str) -> Obj {
    Obj(unsafe { PyUnicode_FromStringAndSize(v.as_ptr() as *const c_char, v.len() as Py_ssize_t) })
}

/// A tuple of the given items (their references are moved into it).
pub fn tuple(items: Vec<Obj>) -> Obj {
    let t = unsafe { PyTuple_New(items.len() as Py_ssize_t) };
    for (i, it) in items.into_iter().enumerate() {
        unsafe { PyTuple_SetItem(t, i as Py_ssize_t, it.into_ptr()) };
    }
    Obj(t)
}

pub fn int_tuple<T: Copy + Into<i64>>(v: &[T]) -> Obj {
    tuple(v.iter().map(|&x| int(x.into())).collect())
}

pub fn bool_tuple(v: &[bool]) -> Obj {
    tuple(v.iter().map(|&x| boolean(x)).collect())
}

/// The items of any Python sequence or iterable.
pub fn items(o: *mut PyObject) -> PyResult<Vec<Obj>> {
    let t = Obj::new(unsafe { PySequence_Tuple(o) })?;
    let n = unsafe { PyTuple_Size(t.0) };
    let mut out = Vec::with_capacity(n as usize);
    for i in 0..n {
        out.push(Obj::borrowed(unsafe { PyTuple_GetItem(t.0, i) }));
    }
    Ok(out)
}

pub fn ints(o: &Obj) -> PyResult<Vec<i64>> {
    o.items()?.iter().map(|x| x.int()).collect()
}

pub fn bytes_of(o: *mut PyObject) -> PyResult<Vec<u8>> {
    let n = unsafe { PyBytes_Size(o) };
    if n < 0 {
        return Err(PyErr);
    }
    let p = unsafe { PyBytes_AsString(o) };
    Ok(unsafe { std::slice::from_raw_parts(p as *const u8, n as usize) }.to_vec())
}

pub fn str_of(o: *mut PyObject) -> PyResult<String> {
    let s = Obj::new(unsafe { PyObject_Str(o) })?;
    let mut n: Py_ssize_t = 0;
    let p = unsafe { PyUnicode_AsUTF8AndSize(s.0, &mut n) };
    if p.is_null() {
        return Err(PyErr);
    }
    let b = unsafe { std::slice::from_raw_parts(p as *const u8, n as usize) };
    Ok(String::from_utf8_lossy(b).into_owned())
}

pub fn import(name: &CStr) -> PyResult<Obj> {
    Obj::new(unsafe { PyImport_ImportModule(name.as_ptr()) })
}
