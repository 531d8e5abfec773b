//! Italian Canasta's rules on where wild cards go (`initial_meld.no_wild`,
//! `melds.deuce_meld_exclusive`) (`canasta/_core/_meldrules.py`). Built on `kernel` and `rules`;
//! built upon by `finish`, `draw` and `meld`.

use crate::kernel::Core;
use crate::cards::WILD;
use crate::rules::{Meld, Rules};

pub const NO_WILD_TEXT: &str = "no wild card goes into a meld in the turn of your side's initial meld: its melds are all natural";
const DEUCE_EXCL_TEXT: &str = "while your side's meld of deuces is not a canasta, deuces go only onto it (jokers may go elsewhere)";

/// `_meldrules.card_rule`: why jokers `jk` and deuces `tw` may not go into a meld of rank `rk`
/// now (italian 4.5: none in the initial meld's turn; 4.4: deuces only onto the open meld of deuces).
pub fn card_rule(c: &Core, melds: &[Meld], rk: u8, jk: i32, tw: i32) -> Option<String> {
    let r = c.r();
    if r.no_wild && (jk != 0 || tw != 0) && c.melds_before == 0 {
        return Some(NO_WILD_TEXT.to_string());
    }
    if r.deuce_excl && tw != 0 && rk != WILD && deuce_open(r, melds) {
        return Some(DEUCE_EXCL_TEXT.to_string());
    }
    None
}

/// The side has a meld of deuces that is not yet a canasta (italian 4.4).
pub fn deuce_open(r: &Rules, melds: &[Meld]) -> bool {
    melds.iter().any(|m| m.rank == WILD && m.size() < r.cs)
}
