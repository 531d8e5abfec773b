//! Reasons (`canasta/_core/_reasons.py`): what a failing check answers. A reason is the
//! Python tuple `(code, details...)`, item for item; its words are written by the Python
//! side (`_reasons.words`) from the same tuple. The codes are generated from `_reasons.py`.

use crate::kernel::{Core, Hand, F_NO};
use crate::rules::{Melds, Spec};

pub use crate::codes::why::*;

/// One item of a reason tuple.
#[derive(Clone, Debug)]
pub enum V {
    I(i64),
    B(bool),
    S(String),
    /// a hand (Python `bytes`)
    H(Hand),
    /// a side's melds (a tuple of 5-tuples)
    M(Melds),
    /// one meld (a 5-tuple)
    One(crate::rules::Meld),
    /// an action spec
    P(Spec),
    /// a tuple of ints (cards, or canastas short by kind)
    C(Vec<i64>),
    /// `(TEXT, before + words(inner) + after)`: words written by the Python side
    Wrap(String, Box<Reason>, String),
    /// `(TEXT, space_problem(R, probe))`: the variant has no such action (words by the Python side)
    Space,
}

pub type Reason = Vec<V>;

#[inline]
pub fn code(r: &Reason) -> u8 {
    match r[0] {
        V::I(c) => c as u8,
        _ => TEXT,
    }
}

pub fn text(s: String) -> Reason {
    vec![V::I(TEXT as i64), V::S(s)]
}

/// A reason with only its code.
pub fn just(c: u8) -> Reason {
    vec![V::I(c as i64)]
}

#[macro_export]
macro_rules! why {
    ($code:expr $(, $x:expr)* $(,)?) => {
        vec![$crate::reasons::V::I($code as i64) $(, $x)*]
    };
}

pub fn int(v: impl Into<i64>) -> V {
    V::I(v.into())
}

/// 'initial meld needs 90, these melds count 60'.
pub fn initial_words(c: &Core, count: i32) -> String {
    let r = c.r();
    let side = r.side_of[c.player as usize] as usize;
    format!("initial meld needs {}, these melds count {}", r.initial_need(c.totals[side], c.d.hand_number), count)
}

/// Why the player may not go out: his partner said no, or he has not asked and heard yes.
pub fn no_out_words(c: &Core) -> String {
    let when = " this turn";
    if c.flags & F_NO != 0 {
        return format!("your partner said no, so you may not go out{when}");
    }
    format!("you may not go out{when} without asking your partner \"may I go out?\" and hearing yes")
}
