//! The planners' memos (`canasta/_core/_memo.py`): a memo bounded by its entries and by the bytes
//! its answers hold, and the memos a table's `Rules` keeps for the planners (`Memos`), held without
//! naming the planners' types, so that `rules.rs` is not built on the planners. Built on `fx.rs`
//! alone; `rules.rs` holds the `Memos`, and the planners (`opening.rs`, `sequences.rs`) fill them.
//! The memoised searches are pure functions: what is cached never changes an answer.

use crate::fx::FxMap as HashMap;
use std::any::Any;
use std::cell::{Cell, OnceCell, RefCell};

/// A memo keyed by the hash of its key, each entry keeping its key to compare: a lookup hashes
/// the borrowed parts and allocates nothing (the key is copied only when an answer is stored).
///
/// Bounded by its entries and by the bytes they hold (`cost`, counted as the heap counts them):
/// when an answer would pass either bound the memo is emptied first. Answers are pure functions of their
/// keys, so what is kept changes no answer, only the time to find it.
pub struct Memo<K, V> {
    map: RefCell<HashMap<u64, Vec<(K, V)>>>,
    len: Cell<usize>,
    bytes: Cell<usize>,
    cap: usize,
    cap_bytes: usize,
}

impl<K, V: Clone> Memo<K, V> {
    #[inline]
    fn new(cap: usize, cap_bytes: usize) -> Self {
        Memo { map: RefCell::new(HashMap::default()), len: Cell::new(0), bytes: Cell::new(0), cap, cap_bytes }
    }
    #[inline]
    fn get(&self, hash: u64, same: impl Fn(&K) -> bool) -> Option<V> {
        self.map.borrow().get(&hash).and_then(|v| v.iter().find(|(k, _)| same(k)).map(|(_, x)| x.clone()))
    }
    /// Keeps `value` for `key`; `cost`: the bytes the entry holds beyond its slot.
    #[inline]
    fn insert(&self, hash: u64, key: K, value: V, cost: usize) {
        let mut map = self.map.borrow_mut();
        // the entry, and its slot in the table (a u64 key and a Vec)
        let cost = cost + std::mem::size_of::<(K, V)>() + 32;
        if self.len.get() >= self.cap || self.bytes.get() + cost > self.cap_bytes {
            *map = HashMap::default(); // (its table too: a bound on what the memo holds)
            self.len.set(0);
            self.bytes.set(0);
        }
        map.entry(hash).or_default().push((key, value));
        self.len.set(self.len.get() + 1);
        self.bytes.set(self.bytes.get() + cost);
    }
}

/// The entries and bytes a planner memo may hold, per table (variant and number of players) in
/// use: bounded by entries only, the sequence plays of large samba and brazilian hands (up to
/// `SEQ_PLAN_LIMIT` plays an answer) kept hundreds of MB.
pub const OPEN_MEMO: (usize, usize) = (1 << 14, 2 << 20);
pub const SEQ_MEMO: (usize, usize) = (512, 4 << 20);

pub fn key_hash(parts: impl FnOnce(&mut crate::fx::Fx)) -> u64 {
    use std::hash::Hasher;
    let mut f = crate::fx::Fx::default();
    parts(&mut f);
    f.finish()
}

/// One planner's memo, made on its first use: a `Memo` of the keys and answers its planner
/// stores (one type a slot), bounded as `Memos::default` says.
pub struct Slot {
    held: OnceCell<Box<dyn Any>>,
    cap: usize,
    cap_bytes: usize,
}

impl Slot {
    fn new((cap, cap_bytes): (usize, usize)) -> Self {
        Slot { held: OnceCell::new(), cap, cap_bytes }
    }
    #[inline]
    fn memo<K: 'static, V: Clone + 'static>(&self) -> &Memo<K, V> {
        let held = self.held.get_or_init(|| Box::new(Memo::<K, V>::new(self.cap, self.cap_bytes)));
        match held.downcast_ref::<Memo<K, V>>() {
            Some(memo) => memo,
            None => unreachable!("a planner's memo holds one type of key and answer"),
        }
    }
    /// The answer kept for the key of hash `hash` that `same` accepts.
    #[inline]
    pub fn get<K: 'static, V: Clone + 'static>(&self, hash: u64, same: impl Fn(&K) -> bool) -> Option<V> {
        self.memo::<K, V>().get(hash, same)
    }
    /// Keeps `value` for `key`; `cost`: the bytes the entry holds beyond its slot.
    #[inline]
    pub fn insert<K: 'static, V: Clone + 'static>(&self, hash: u64, key: K, value: V, cost: usize) {
        self.memo::<K, V>().insert(hash, key, value, cost)
    }
}

/// The planner memos of one table (`Rules::memo`): `open_then_out`'s answers and the
/// `sequence_plays` of a hand.
pub struct Memos {
    pub open_then_out: Slot,
    pub seq_plays: Slot,
}

impl Default for Memos {
    fn default() -> Self {
        Memos { open_then_out: Slot::new(OPEN_MEMO), seq_plays: Slot::new(SEQ_MEMO) }
    }
}
