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

/// A reason: its code, and the details the words need. The details are built only while a
/// refusal is being explained (`why_illegal`, a refused `apply`): the generators ask only
/// whether a check passes, and then a reason is its code alone (no allocation, no words).
#[derive(Clone, Debug)]
pub struct Reason {
    pub code: u8,
    pub items: Vec<V>,
}

thread_local! {
    static EXPLAIN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the reasons being built are to be worded (their details are needed).
#[inline]
pub fn explaining() -> bool {
    EXPLAIN.with(|e| e.get())
}

/// While alive, checks build their reasons' details (see `Reason`).
pub struct Explain(bool);

impl Explain {
    pub fn new() -> Explain {
        Explain(EXPLAIN.with(|e| e.replace(true)))
    }
}

impl Default for Explain {
    fn default() -> Self {
        Explain::new()
    }
}

impl Drop for Explain {
    fn drop(&mut self) {
        let old = self.0;
        EXPLAIN.with(|e| e.set(old));
    }
}

#[inline]
pub fn code(r: &Reason) -> u8 {
    r.code
}

/// A reason with only its code.
#[inline]
pub fn just(c: u8) -> Reason {
    Reason { code: c, items: Vec::new() }
}

/// `(code, details...)`; the details are evaluated only while explaining.
#[macro_export]
macro_rules! why {
    ($code:expr $(, $x:expr)* $(,)?) => {
        $crate::reasons::Reason {
            code: $code as u8,
            items: if $crate::reasons::explaining() { vec![$($x),*] } else { Vec::new() },
        }
    };
}

/// `(TEXT, words)`; the words are formatted only while explaining.
#[macro_export]
macro_rules! text {
    ($($fmt:tt)*) => {
        $crate::reasons::Reason {
            code: $crate::reasons::TEXT,
            items: if $crate::reasons::explaining() { vec![$crate::reasons::V::S(format!($($fmt)*))] } else { Vec::new() },
        }
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

/// `_reasons.rank_words`: '7s', 'wild cards', 'hearts in sequence'.
pub fn rank_words(rank: u8) -> String {
    use crate::cards::{plural, seq_suit, SEQ, SUIT_NAMES, WILD};
    if rank == WILD {
        return "wild cards".into();
    }
    if rank >= SEQ {
        let s = if rank >= SEQ + 4 { seq_suit(rank) } else { rank - SEQ };
        return format!("{} in sequence", SUIT_NAMES[s as usize & 3]);
    }
    plural(rank)
}

/// `_reasons.meld_words` (the first meld of its rank): 'meld of 7s', 'sequence of hearts'.
pub fn meld_words(rank: u8) -> String {
    use crate::cards::{seq_suit, SEQ, SUIT_NAMES};
    if rank >= SEQ {
        let s = if rank >= SEQ + 4 { seq_suit(rank) } else { rank - SEQ };
        return format!("sequence of {}", SUIT_NAMES[s as usize & 3]);
    }
    format!("meld of {}", rank_words(rank))
}
