//! `canasta._native`: the rules core of canasta in Rust, a CPython extension module written
//! against CPython's stable ABI with hand-written declarations (no third-party crate).
//!
//! The modules mirror `canasta/_core` one for one (see native/README.md); `bind` registers the
//! Python face (the `Core` type of `coreobj`, and the functions of the modules below it).

#![allow(clippy::needless_range_loop, clippy::too_many_arguments)]

pub mod codes {
    include!(concat!(env!("OUT_DIR"), "/codes.rs"));
}
pub mod apply;
pub mod args;
pub mod bind;
pub mod bots;
pub mod buffer;
pub mod canastas;
pub mod cards;
pub mod coreobj;
pub mod deal;
pub mod discard;
pub mod draw;
pub mod ffi;
pub mod finish;
pub mod fx;
pub mod greedy;
pub mod guard;
pub mod heap;
pub mod ismcts;
pub mod kernel;
pub mod legal;
pub mod meld;
pub mod meldable;
pub mod meldphase;
pub mod meldrules;
pub mod memo;
pub mod newcore;
pub mod obs;
// the Observation object's parts
pub mod obsobj;
pub mod opening;
pub mod plan;
pub mod playouts;
pub mod py;
pub mod pyrules;
pub mod pyvalues;
pub mod reasons;
pub mod rng;
pub mod rules;
pub mod rulesobj;
pub mod score;
pub mod seatbots;
pub mod sequences;
pub mod simulate;
pub mod table;
pub mod vecenv;

// the Gymnasium environment stepped natively
pub mod gymenv;

// information-set samples dealt natively
pub mod resample;
