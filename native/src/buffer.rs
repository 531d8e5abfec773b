//! The caller's writable buffers that `obs.rs` and `vecenv.rs` write into (Python's buffer
//! protocol, in the limited API since 3.11: numpy arrays, `bytearray`, `array.array`; no numpy
//! C API), checked for type and length, a bad one refused with a `canasta.ArgumentError`
//! (`args.rs`).

use crate::args::arg_error;
use crate::ffi::*;
use crate::py::*;
use std::ffi::{c_void, CStr};
use std::os::raw::{c_char, c_int};
use std::ptr::null_mut;

/// `Py_buffer` of the limited API (3.11+).
#[repr(C)]
pub struct Py_buffer {
    pub buf: *mut c_void,
    pub obj: *mut PyObject,
    pub len: Py_ssize_t,
    pub itemsize: Py_ssize_t,
    pub readonly: c_int,
    pub ndim: c_int,
    pub format: *mut c_char,
    pub shape: *mut Py_ssize_t,
    pub strides: *mut Py_ssize_t,
    pub suboffsets: *mut Py_ssize_t,
    pub internal: *mut c_void,
}

const PYBUF_WRITABLE: c_int = 0x0001;
const PYBUF_FORMAT: c_int = 0x0004;

unsafe extern "C" {
    fn PyObject_GetBuffer(o: *mut PyObject, view: *mut Py_buffer, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut Py_buffer);
    pub fn PyModule_AddFunctions(m: *mut PyObject, defs: *mut PyMethodDef) -> c_int;
}

/// What a buffer holds.
#[derive(Clone, Copy, PartialEq)]
pub enum Elem {
    /// `float32` numbers (or their raw bytes: a buffer of bytes 4 times as long)
    F32,
    /// one byte a number: `int8`, `uint8` or `bool` (a mask)
    I8,
    /// `float32` numbers only (rewards)
    F32Only,
    /// `bool` or one-byte integers (flags)
    Flag,
    /// 64-bit integers (`int64`: action ids, seats)
    I64,
}

/// A writable buffer held while it is written (released on drop).
pub struct Buf {
    view: Py_buffer,
}

impl Drop for Buf {
    fn drop(&mut self) {
        unsafe { PyBuffer_Release(&mut self.view) }
    }
}

impl Buf {
    /// The buffer of `o`, which must be writable and contiguous, of `elem`, `bytes` long; a
    /// ValueError naming `what` and what was expected otherwise.
    pub fn get(o: *mut PyObject, what: &str, elem: Elem, bytes: usize) -> PyResult<Buf> {
        // (what was expected is worded only for an error: this runs at every observation)
        let want = || match elem {
            Elem::F32 => format!("a writable, contiguous float32 buffer of {} numbers (a numpy array, or {} bytes)", bytes / 4, bytes),
            Elem::F32Only => format!("a writable, contiguous float32 buffer of {} numbers", bytes / 4),
            Elem::I8 => format!("a writable, contiguous int8 (or uint8, bool) buffer of {bytes} numbers"),
            Elem::Flag => format!("a writable, contiguous bool (or int8, uint8) buffer of {bytes} numbers"),
            Elem::I64 => format!("a writable, contiguous int64 buffer of {} numbers", bytes / 8),
        };
        let mut view: Py_buffer = unsafe { std::mem::zeroed() };
        if unsafe { PyObject_GetBuffer(o, &mut view, PYBUF_WRITABLE | PYBUF_FORMAT) } < 0 {
            let why = fetch_message();
            return Err(arg_error(what, &format!("expected {}, not {} ({why})", want(), type_name(o))));
        }
        let buf = Buf { view };
        let fmt: &[u8] = if buf.view.format.is_null() { b"B" } else { unsafe { CStr::from_ptr(buf.view.format) }.to_bytes() };
        let native: &[u8] = if cfg!(target_endian = "little") { b"@=<" } else { b"@=>" };
        let mut code = fmt;
        while let [first, rest @ ..] = code {
            if !native.contains(first) {
                break;
            }
            code = rest;
        }
        let size = buf.view.itemsize;
        let byte = matches!(code, b"B" | b"b" | b"c" | b"?") && size == 1;
        let ok = match elem {
            Elem::F32 => (code == b"f" && size == 4) || byte,
            Elem::F32Only => code == b"f" && size == 4,
            Elem::I8 | Elem::Flag => byte,
            Elem::I64 => matches!(code, b"q" | b"l") && size == 8,
        };
        if !ok || buf.view.len as usize != bytes || buf.view.buf.is_null() && bytes > 0 {
            let fmt = String::from_utf8_lossy(fmt);
            return Err(arg_error(what, &format!("expected {}, not a buffer of format {fmt:?} and {} bytes",
                                                 want(), buf.view.len)));
        }
        Ok(buf)
    }
    pub fn bytes(&mut self) -> &mut [u8] {
        if self.view.len == 0 {
            return &mut [];
        }
        unsafe { std::slice::from_raw_parts_mut(self.view.buf as *mut u8, self.view.len as usize) }
    }
    /// The buffer as 8-byte integers (checked: `Elem::I64`, aligned as its exporter aligns them).
    pub fn read_i64(&self, i: usize) -> i64 {
        unsafe { std::ptr::read_unaligned((self.view.buf as *const i64).add(i)) }
    }
    pub fn write_i64(&mut self, i: usize, v: i64) {
        unsafe { std::ptr::write_unaligned((self.view.buf as *mut i64).add(i), v) }
    }
    pub fn write_f32s(&mut self, at: usize, v: &[f32]) {
        let b = self.bytes();
        let dst = &mut b[4 * at..4 * (at + v.len())];
        unsafe { std::ptr::copy_nonoverlapping(v.as_ptr() as *const u8, dst.as_mut_ptr(), dst.len()) };
    }
}


fn type_name(o: *mut PyObject) -> String {
    str_of(unsafe { (*o).ob_type } as *mut PyObject).unwrap_or_else(|_| {
        unsafe { PyErr_Clear() };
        "that value".to_string()
    })
}

/// The message of the Python error set (cleared).
fn fetch_message() -> String {
    unsafe extern "C" {
        fn PyErr_Fetch(t: *mut *mut PyObject, v: *mut *mut PyObject, tb: *mut *mut PyObject);
    }
    let (mut t, mut v, mut tb) = (null_mut(), null_mut(), null_mut());
    unsafe { PyErr_Fetch(&mut t, &mut v, &mut tb) };
    let msg = if v.is_null() { String::new() } else { str_of(v).unwrap_or_default() };
    unsafe {
        PyErr_Clear();
        for o in [t, v, tb] {
            if !o.is_null() {
                Py_DecRef(o);
            }
        }
    }
    msg
}
