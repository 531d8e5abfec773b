//! Card kinds and codes, as `canasta._cards` numbers them.

pub const N_KINDS: usize = 15;
pub const N_CODES: usize = 59;
pub const JK: u8 = 0;
pub const TWO: u8 = 1;
pub const R3: u8 = 2;
pub const B3: u8 = 3;
pub const WILD: u8 = 15;
pub const SEQ: u8 = 16;

/// The kind (rank) of a card code: itself below 15, else `(code + 1) >> 2`.
#[inline]
pub fn kind(k: u8) -> u8 {
    if (k as usize) < N_KINDS { k } else { (k + 1) >> 2 }
}

/// The suit of a suited card code (0 clubs .. 3 spades); meaningless below 15.
#[inline]
pub fn suit(k: u8) -> u8 {
    (k + 1) & 3
}

#[inline]
pub fn card_code(rank: u8, suit: u8) -> u8 {
    4 * rank - 1 + suit
}

pub fn seq_rank(suit: u8, low: u8) -> u8 {
    SEQ + 16 * suit + low
}

pub fn seq_suit(r: u8) -> u8 {
    (r - SEQ) >> 4
}

pub fn seq_low(r: u8) -> u8 {
    (r - SEQ) & 15
}

/// What numbers a side's melds: the rank of a group, `SEQ + suit` of a sequence.
pub fn meld_key(r: u8) -> u8 {
    if r < SEQ { r } else { SEQ + ((r - SEQ) >> 4) }
}

pub const NAMES15: [&str; 15] = ["joker", "deuce", "red three", "black three", "4", "5", "6", "7", "8", "9",
    "10", "jack", "queen", "king", "ace"];
pub const PLURALS15: [&str; 15] = ["jokers", "deuces", "red threes", "black threes", "4s", "5s", "6s", "7s",
    "8s", "9s", "10s", "jacks", "queens", "kings", "aces"];
pub const SUIT_NAMES: [&str; 4] = ["clubs", "diamonds", "hearts", "spades"];

/// `_reasons.NAMES`: a card's name, with its suit for a suited code.
pub fn name(k: u8) -> String {
    if (k as usize) < N_KINDS {
        NAMES15[k as usize].to_string()
    } else {
        format!("{} of {}", NAMES15[kind(k) as usize], SUIT_NAMES[suit(k) as usize])
    }
}

/// `_reasons.PLURALS`.
pub fn plural(k: u8) -> String {
    if (k as usize) < N_KINDS {
        PLURALS15[k as usize].to_string()
    } else {
        format!("{} of {}", PLURALS15[kind(k) as usize], SUIT_NAMES[suit(k) as usize])
    }
}

/// `_reasons.a_card`: 'a 7', 'an 8', 'an ace'.
pub fn a_card(k: u8) -> String {
    let n = name(k);
    let first = n.chars().next().unwrap_or('x');
    if "8aeiou".contains(first) { format!("an {n}") } else { format!("a {n}") }
}

const NUMBERS: [&str; 11] = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

/// `_reasons.num`.
pub fn num(n: i64) -> String {
    if (0..11).contains(&n) { NUMBERS[n as usize].to_string() } else { n.to_string() }
}
