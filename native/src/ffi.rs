//! The part of CPython's limited API (abi3, Python 3.11+) this module uses, declared by hand:
//! no third-party crate (the build must work offline with cargo alone).

#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals, dead_code)]

use std::os::raw::{c_char, c_int, c_long, c_longlong, c_void};

pub type Py_ssize_t = isize;

#[repr(C)]
pub struct PyObject {
    pub ob_refcnt: Py_ssize_t,
    pub ob_type: *mut PyTypeObject,
}

#[repr(C)]
pub struct PyTypeObject {
    _private: [u8; 0],
}

#[repr(C)]
pub struct PyThreadState {
    _private: [u8; 0],
}

pub type PyCFunction = unsafe extern "C" fn(*mut PyObject, *mut PyObject) -> *mut PyObject;
pub type PyCFunctionFast = unsafe extern "C" fn(*mut PyObject, *const *mut PyObject, Py_ssize_t) -> *mut PyObject;
pub type getter = unsafe extern "C" fn(*mut PyObject, *mut c_void) -> *mut PyObject;
pub type setter = unsafe extern "C" fn(*mut PyObject, *mut PyObject, *mut c_void) -> c_int;
pub type destructor = unsafe extern "C" fn(*mut PyObject);
pub type freefunc = unsafe extern "C" fn(*mut c_void);

#[repr(C)]
pub struct PyMethodDef {
    pub ml_name: *const c_char,
    pub ml_meth: *mut c_void,
    pub ml_flags: c_int,
    pub ml_doc: *const c_char,
}
unsafe impl Sync for PyMethodDef {}

#[repr(C)]
pub struct PyGetSetDef {
    pub name: *const c_char,
    pub get: Option<getter>,
    pub set: Option<setter>,
    pub doc: *const c_char,
    pub closure: *mut c_void,
}
unsafe impl Sync for PyGetSetDef {}

#[repr(C)]
pub struct PyType_Slot {
    pub slot: c_int,
    pub pfunc: *mut c_void,
}
unsafe impl Sync for PyType_Slot {}

#[repr(C)]
pub struct PyType_Spec {
    pub name: *const c_char,
    pub basicsize: c_int,
    pub itemsize: c_int,
    pub flags: std::os::raw::c_uint,
    pub slots: *mut PyType_Slot,
}
unsafe impl Sync for PyType_Spec {}

#[repr(C)]
pub struct PyModuleDef_Base {
    pub ob_base: PyObject,
    pub m_init: Option<unsafe extern "C" fn() -> *mut PyObject>,
    pub m_index: Py_ssize_t,
    pub m_copy: *mut PyObject,
}

#[repr(C)]
pub struct PyModuleDef {
    pub m_base: PyModuleDef_Base,
    pub m_name: *const c_char,
    pub m_doc: *const c_char,
    pub m_size: Py_ssize_t,
    pub m_methods: *mut PyMethodDef,
    pub m_slots: *mut c_void,
    pub m_traverse: *mut c_void,
    pub m_clear: *mut c_void,
    pub m_free: *mut c_void,
}
unsafe impl Sync for PyModuleDef {}

pub const METH_VARARGS: c_int = 0x0001;
pub const METH_NOARGS: c_int = 0x0004;
pub const METH_O: c_int = 0x0008;
pub const METH_FASTCALL: c_int = 0x0080;

pub const Py_TPFLAGS_DEFAULT: std::os::raw::c_uint = 0;
pub const Py_TPFLAGS_BASETYPE: std::os::raw::c_uint = 1 << 10;

pub const Py_tp_alloc: c_int = 47;
pub const Py_tp_dealloc: c_int = 52;
pub const Py_tp_doc: c_int = 56;
pub const Py_tp_methods: c_int = 64;
pub const Py_tp_new: c_int = 65;
pub const Py_tp_repr: c_int = 66;
pub const Py_tp_getset: c_int = 73;
pub const Py_tp_free: c_int = 74;

pub const Py_LT: c_int = 0;
pub const Py_EQ: c_int = 2;

unsafe extern "C" {
    pub fn Py_IncRef(o: *mut PyObject);
    pub fn Py_DecRef(o: *mut PyObject);

    pub static mut _Py_NoneStruct: PyObject;
    pub static mut PyExc_ValueError: *mut PyObject;
    pub static mut PyExc_TypeError: *mut PyObject;
    pub static mut PyExc_RuntimeError: *mut PyObject;
    pub static mut PyExc_IndexError: *mut PyObject;
    pub static mut PyExc_OverflowError: *mut PyObject;

    pub fn PyErr_SetString(t: *mut PyObject, msg: *const c_char);
    pub fn PyErr_Occurred() -> *mut PyObject;
    pub fn PyErr_Clear();

    pub fn PyLong_FromLong(v: c_long) -> *mut PyObject;
    pub fn PyLong_FromLongLong(v: c_longlong) -> *mut PyObject;
    pub fn PyLong_FromSsize_t(v: Py_ssize_t) -> *mut PyObject;
    pub fn PyLong_AsLong(o: *mut PyObject) -> c_long;
    pub fn PyLong_AsLongLong(o: *mut PyObject) -> c_longlong;
    pub fn PyLong_AsLongLongAndOverflow(o: *mut PyObject, overflow: *mut c_int) -> c_longlong;
    pub fn PyBool_FromLong(v: c_long) -> *mut PyObject;
    pub fn PyFloat_FromDouble(v: f64) -> *mut PyObject;
    pub fn PyFloat_AsDouble(o: *mut PyObject) -> f64;
    pub fn PyObject_IsTrue(o: *mut PyObject) -> c_int;

    pub fn PyTuple_New(n: Py_ssize_t) -> *mut PyObject;
    pub fn PyTuple_SetItem(t: *mut PyObject, i: Py_ssize_t, v: *mut PyObject) -> c_int;
    pub fn PyTuple_GetItem(t: *mut PyObject, i: Py_ssize_t) -> *mut PyObject;
    pub fn PyTuple_Size(t: *mut PyObject) -> Py_ssize_t;
    pub fn PyList_New(n: Py_ssize_t) -> *mut PyObject;
    pub fn PyList_SetItem(l: *mut PyObject, i: Py_ssize_t, v: *mut PyObject) -> c_int;
    pub fn PyList_Append(l: *mut PyObject, v: *mut PyObject) -> c_int;
    pub fn PySequence_Size(o: *mut PyObject) -> Py_ssize_t;
    pub fn PySequence_GetItem(o: *mut PyObject, i: Py_ssize_t) -> *mut PyObject;
    pub fn PySequence_Tuple(o: *mut PyObject) -> *mut PyObject;
    pub fn PyObject_GetIter(o: *mut PyObject) -> *mut PyObject;
    pub fn PyIter_Next(o: *mut PyObject) -> *mut PyObject;
    pub fn PyBytes_FromStringAndSize(v: *const c_char, n: Py_ssize_t) -> *mut PyObject;
    pub fn PyBytes_AsString(o: *mut PyObject) -> *mut c_char;
    pub fn PyBytes_Size(o: *mut PyObject) -> Py_ssize_t;
    pub fn PyUnicode_FromStringAndSize(v: *const c_char, n: Py_ssize_t) -> *mut PyObject;
    pub fn PyUnicode_AsUTF8AndSize(o: *mut PyObject, n: *mut Py_ssize_t) -> *const c_char;
    pub fn PyDict_New() -> *mut PyObject;
    pub fn PyDict_SetItem(d: *mut PyObject, k: *mut PyObject, v: *mut PyObject) -> c_int;

    pub fn PyObject_GetAttrString(o: *mut PyObject, name: *const c_char) -> *mut PyObject;
    pub fn PyObject_SetAttrString(o: *mut PyObject, name: *const c_char, v: *mut PyObject) -> c_int;
    pub fn PyObject_Str(o: *mut PyObject) -> *mut PyObject;
    pub fn PyObject_CallObject(f: *mut PyObject, args: *mut PyObject) -> *mut PyObject;
    pub fn PyObject_Hash(o: *mut PyObject) -> Py_ssize_t;
    pub fn PyObject_RichCompareBool(a: *mut PyObject, b: *mut PyObject, op: c_int) -> c_int;
    pub fn PyImport_ImportModule(name: *const c_char) -> *mut PyObject;

    pub fn PyType_FromSpec(spec: *mut PyType_Spec) -> *mut PyObject;
    pub fn PyType_FromSpecWithBases(spec: *mut PyType_Spec, bases: *mut PyObject) -> *mut PyObject;
    pub fn PyType_GenericAlloc(t: *mut PyTypeObject, n: Py_ssize_t) -> *mut PyObject;
    pub fn PyType_GetSlot(t: *mut PyTypeObject, slot: c_int) -> *mut c_void;
    pub fn PyType_IsSubtype(a: *mut PyTypeObject, b: *mut PyTypeObject) -> c_int;

    pub fn PyModule_Create2(def: *mut PyModuleDef, apiver: c_int) -> *mut PyObject;
    pub fn PyModule_AddObjectRef(m: *mut PyObject, name: *const c_char, v: *mut PyObject) -> c_int;

    pub fn PyEval_SaveThread() -> *mut PyThreadState;
    pub fn PyEval_RestoreThread(t: *mut PyThreadState);

    pub fn PyCapsule_New(p: *mut c_void, name: *const c_char, d: Option<unsafe extern "C" fn(*mut PyObject)>) -> *mut PyObject;
    pub fn PyCapsule_GetPointer(c: *mut PyObject, name: *const c_char) -> *mut c_void;
}

#[inline]
pub unsafe fn py_none() -> *mut PyObject {
    let p = &raw mut _Py_NoneStruct;
    unsafe { Py_IncRef(p) };
    p
}

#[inline]
pub unsafe fn is_none(o: *mut PyObject) -> bool {
    o == &raw mut _Py_NoneStruct
}
