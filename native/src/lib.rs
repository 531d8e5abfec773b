//! `canasta._native`: the rules core of canasta in Rust, a CPython extension module written
//! against CPython's stable ABI with hand-written declarations (no third-party crate).
//!
//! The modules mirror `canasta/_core` one for one (see native/README.md); `bind` is the
//! Python face: the `Core` type, dealing, and the conversions.

#![allow(clippy::needless_range_loop, clippy::too_many_arguments)]

pub mod codes {
    include!(concat!(env!("OUT_DIR"), "/codes.rs"));
}
pub mod apply;
pub mod bind;
pub mod bots;
pub mod buffer;
pub mod canastas;
pub mod cards;
pub mod deal;
pub mod draw;
pub mod ffi;
pub mod finish;
pub mod fx;
pub mod greedy;
pub mod heap;
pub mod ismcts;
pub mod kernel;
pub mod legal;
pub mod meld;
pub mod meldable;
pub mod memo;
pub mod obs;
pub mod opening;
pub mod plan;
pub mod py;
pub mod reasons;
pub mod rng;
pub mod rules;
pub mod score;
pub mod seatbots;
pub mod sequences;
pub mod table;
pub mod vecenv;
