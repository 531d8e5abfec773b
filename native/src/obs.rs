//! The observation vector and the legal-action mask of a position, computed natively and written
//! straight into the caller's buffers through Python's buffer protocol (any writable, contiguous
//! buffer of the right type and length: a numpy array, a `bytearray`, an `array.array`; see
//! `buffer.rs`).
//!
//! The vector is `canasta.ObservationEncoder`'s (layout version 2, every segment, the suited
//! layout too), which stays the reference: `tests/test_obs_native.py` and the differential test
//! compare the two at every step of seeded playouts. The layout's shape (offsets, card codes,
//! meld ranks, the observer's order of sides ...) is read once from the Python encoder
//! (`obs_layout`); the numbers are made here from the position, and the `known_cards` and
//! `pile_discards` segments from the hand's history read from the deal, as
//! `canasta._resample.Reading` and `canasta._observation.pile_discards` read it.
//!
//! Writing allocates nothing once warm: the history and the vector are read into per-thread
//! scratch space that is reused.

use crate::args::{arg_error, core_arg, nargs};
use crate::buffer::{Buf, Elem};
use crate::cards::*;
use crate::ffi::*;
use crate::guard::guarded;
use crate::kernel::*;
use crate::py::*;
use crate::rulesobj::rules_of;
use crate::rules::{Rules, Spec, ADD, DISCARD, MELD, RETRACT, TAKE, W_JOKER, W_PAIR, W_TWO};
use std::cell::RefCell;
use std::ffi::{c_void, CStr};
use std::rc::Rc;

// ------------------------------------------------------------------ the layout

/// The segments' offsets, in `OFFSETS` order (-1: not in this layout).
pub const OFFSETS: [&str; 25] = [
    "own_hand", "own_down_size", "other_hand_sizes", "other_down_sizes", "known_cards", "melds", "sequences",
    "red_threes", "black_threes_aside", "opened", "initial_need", "totals", "dealer", "active", "melded",
    "took_last", "pile_size", "pile_top", "pile_discards", "frozen", "stock_size", "phase", "current_player",
    "turn", "last_round",
];

/// One table's observation layout (read from `ObservationEncoder`).
pub struct Layout {
    /// the native rules it was made for (a position of them is checked by identity)
    pub rules: Rc<Rules>,
    /// the variant's name (a position of other rules of the same table is accepted by it)
    pub name: String,
    pub players: usize,
    pub n_sides: usize,
    pub size: usize,
    pub action_size: usize,
    pub codes: Vec<u8>,
    /// card code -> its entry among `codes` (-1: none)
    pub index: [i16; N_CODES],
    pub suited: bool,
    pub down_hands: bool,
    pub aside: bool,
    pub m: usize,
    /// meld rank -> its row of `melds` (-1: none)
    pub rank_index: [i16; 32],
    pub nr: usize,
    pub q: usize,
    pub seq_lo: usize,
    pub seq_w: usize,
    pub target: f64,
    pub at: [i64; 25],
    pub rel_sides: Vec<Vec<usize>>,
    pub turn_bits: Vec<i64>,
    pub n_phases: usize,
}

const LAYOUT: &CStr = c"canasta._native.ObsLayout";

unsafe extern "C" fn drop_layout(cap: *mut PyObject) {
    unsafe {
        let p = PyCapsule_GetPointer(cap, LAYOUT.as_ptr()) as *mut Layout;
        if !p.is_null() {
            drop(Box::from_raw(p));
        }
    }
}

pub unsafe fn layout_of<'a>(cap: *mut PyObject) -> PyResult<&'a Layout> {
    let p = unsafe { PyCapsule_GetPointer(cap, LAYOUT.as_ptr()) } as *mut Layout;
    if p.is_null() {
        return Err(PyErr);
    }
    Ok(unsafe { &*p })
}

fn layout_from(rules: Rc<Rules>, t: &[Obj]) -> PyResult<Layout> {
    if t.len() != 16 {
        return Err(value_error("obs_layout: expected 16 items"));
    }
    let u = |o: &Obj| -> PyResult<usize> { Ok(o.int()?.max(0) as usize) };
    let codes: Vec<u8> = ints(&t[3])?.into_iter().map(|x| x as u8).collect();
    let mut index = [-1i16; N_CODES];
    for (i, &k) in codes.iter().enumerate() {
        if (k as usize) < N_CODES {
            index[k as usize] = i as i16;
        }
    }
    let ranks = ints(&t[8])?;
    let mut rank_index = [-1i16; 32];
    for (i, &k) in ranks.iter().enumerate() {
        if (0..32).contains(&k) {
            rank_index[k as usize] = i as i16;
        }
    }
    let seq = ints(&t[10])?;
    let offs = ints(&t[12])?;
    if offs.len() != OFFSETS.len() {
        return Err(value_error("obs_layout: expected an offset per segment"));
    }
    let mut at = [0i64; 25];
    at.copy_from_slice(&offs);
    let players = u(&t[0])?;
    let rel_sides: Vec<Vec<usize>> =
        t[13].items()?.iter().map(|x| Ok(ints(x)?.into_iter().map(|v| v as usize).collect())).collect::<PyResult<_>>()?;
    let name = Obj::borrowed(rules.py).attr(c"variant")?.attr(c"name")?.text()?;
    let lay = Layout {
        name,
        players,
        n_sides: rules.n_sides,
        size: u(&t[1])?,
        action_size: u(&t[2])?,
        codes,
        index,
        suited: t[4].truth()?,
        down_hands: t[5].truth()?,
        aside: t[6].truth()?,
        m: u(&t[7])?,
        rank_index,
        nr: ranks.len(),
        q: u(&t[9])?,
        seq_lo: seq.first().copied().unwrap_or(0) as usize,
        seq_w: seq.len(),
        target: t[11].int()? as f64,
        at,
        rel_sides,
        turn_bits: ints(&t[14])?,
        n_phases: u(&t[15])?,
        rules,
    };
    if lay.players != lay.rules.players || lay.action_size != lay.rules.size || lay.rel_sides.len() != players
        || lay.target == 0.0
    {
        return Err(value_error("obs_layout: the layout is not of this table"));
    }
    Ok(lay)
}

// ------------------------------------------------------------------ reading the history

/// The hand's public history read from the deal: `canasta._resample.Reading`'s `known` (and
/// what a later action needs of the earlier ones), and the discards onto the pile since it was
/// last taken (`pile_discards`). It reads on from the last position it read when the next one
/// follows it (one action), as the Python `StateEncoder` does, else from the deal.
pub struct Reader {
    known: [[i16; N_CODES]; MAXP],
    has_meld: [bool; MAXP],
    dealt_below: bool,
    snap: bool,
    snap_seat: usize,
    snap_known: [i16; N_CODES],
    snap_below: bool,
    snap_melded: bool,
    last_taker: i32,
    disc: [i16; N_CODES],
    disc_saved: [i16; N_CODES],
    seen_pile: Vec<u8>,
    snap_pile: Vec<u8>,
    take_rest: Vec<u8>,
    hist: Vec<(u32, i32)>,
    /// the last history link read (None: the deal); the reading is of its whole chain
    last: Option<Rc<Hist>>,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader {
            known: [[0; N_CODES]; MAXP],
            has_meld: [false; MAXP],
            dealt_below: true,
            snap: false,
            snap_seat: 0,
            snap_known: [0; N_CODES],
            snap_below: false,
            snap_melded: false,
            last_taker: -1,
            disc: [0; N_CODES],
            disc_saved: [0; N_CODES],
            seen_pile: Vec::with_capacity(64),
            snap_pile: Vec::with_capacity(64),
            take_rest: Vec::with_capacity(64),
            hist: Vec::with_capacity(256),
            last: None,
        }
    }
}

impl Reader {
    /// Back to the deal (nothing read).
    fn reset(&mut self) {
        self.known = [[0; N_CODES]; MAXP];
        self.has_meld = [false; MAXP];
        self.dealt_below = true;
        self.snap = false;
        self.last_taker = -1;
        self.disc = [0; N_CODES];
        self.disc_saved = [0; N_CODES];
        self.seen_pile.clear();
        self.snap_pile.clear();
        self.take_rest.clear();
        self.last = None;
    }

    /// Read the history of `c`: on by one action where `c` follows the last position read,
    /// else from the deal.
    pub fn sync(&mut self, c: &Core) -> PyResult<()> {
        let same = |a: &Option<Rc<Hist>>, b: &Option<Rc<Hist>>| match (a, b) {
            (None, None) => true,
            (Some(x), Some(y)) => Rc::ptr_eq(x, y),
            _ => false,
        };
        if same(&c.history, &self.last) {
            return Ok(());
        }
        let r = c.r();
        if let Some(h) = &c.history {
            if same(&h.prev, &self.last) {
                let res = self.read_one(r, h.id, h.seat);
                if res.is_err() {
                    self.reset();
                } else {
                    self.last = c.history.clone();
                }
                return res;
            }
        }
        self.reset();
        let mut hist = std::mem::take(&mut self.hist);
        hist.clear();
        let mut link = &c.history;
        while let Some(h) = link {
            hist.push((h.id, h.seat));
            link = &h.prev;
        }
        let mut res = Ok(());
        for i in (0..hist.len()).rev() {
            res = self.read_one(r, hist[i].0, hist[i].1);
            if res.is_err() {
                break;
            }
        }
        self.hist = hist;
        if res.is_err() {
            self.reset();
        } else {
            self.last = c.history.clone();
        }
        res
    }

    fn read_one(&mut self, r: &Rules, id: u32, seat: i32) -> PyResult<()> {
        let p = r.players as i32;
        let Some(spec) = r.specs.get(id as usize) else {
            return Err(arg_error("state", &format!("its history holds {id}, not an action id of this table")));
        };
        let s = if seat < 0 { seat + p } else { seat };
        if !(0..p).contains(&s) {
            return Err(arg_error("state", "its history names no seat at this table"));
        }
        read(r, self, s as usize, spec);
        Ok(())
    }
}

#[derive(Default)]
struct Scratch {
    reader: Reader,
    vec: Vec<f32>,
    acts: Vec<u32>,
}

thread_local! {
    // never dropped: the reader holds history links, whose Python parts must not be released
    // after the interpreter has finalized (a thread's locals are dropped at its exit)
    static SCRATCH: std::mem::ManuallyDrop<RefCell<Scratch>> = std::mem::ManuallyDrop::new(RefCell::new(Scratch::default()));
}

#[inline]
fn drop_one(hand: &mut [i16; N_CODES], k: usize) {
    if k < N_CODES && hand[k] > 0 {
        hand[k] -= 1;
    }
}

#[inline]
fn in_mask(mask: u64, k: usize) -> bool {
    k < 64 && mask & (1 << k) != 0
}

/// One more action of the history: `spec`, played by seat `s` (`Reading.read`).
fn read(r: &Rules, rd: &mut Reader, s: usize, spec: &Spec) {
    match spec.kind {
        DISCARD => {
            let k = spec.a as usize;
            drop_one(&mut rd.known[s], k);
            rd.seen_pile.push(k as u8);
            if k < N_CODES {
                rd.disc[k] += 1;
            }
        }
        MELD => {
            for &k in spec.cards.s() {
                drop_one(&mut rd.known[s], k as usize);
            }
            rd.has_meld[r.side_of[s] as usize] = true;
        }
        ADD => drop_one(&mut rd.known[s], spec.a as usize),
        TAKE => {
            take(r, rd, s, spec);
            rd.disc_saved = rd.disc;
            rd.disc = [0; N_CODES];
        }
        RETRACT => {
            if rd.snap {
                let s0 = rd.snap_seat;
                rd.known[s0] = rd.snap_known;
                std::mem::swap(&mut rd.seen_pile, &mut rd.snap_pile);
                rd.dealt_below = rd.snap_below;
                rd.has_meld[r.side_of[s0] as usize] = rd.snap_melded;
                rd.snap = false;
            }
            rd.disc = rd.disc_saved;
        }
        _ => {}
    }
}

/// A take of the pile (`Reading._take`).
fn take(r: &Rules, rd: &mut Reader, s: usize, spec: &Spec) {
    let side = r.side_of[s] as usize;
    rd.snap = true;
    rd.snap_seat = s;
    rd.snap_known = rd.known[s];
    rd.snap_pile.clear();
    let (seen, snap) = (&rd.seen_pile, &mut rd.snap_pile);
    snap.extend_from_slice(seen);
    rd.snap_below = rd.dealt_below;
    rd.snap_melded = rd.has_meld[side];
    let top: i32 = if r.suited { rd.seen_pile.last().map(|&x| x as i32).unwrap_or(-1) } else { spec.a };
    let n = rd.seen_pile.len();
    let tt = r.take_top;
    // hand-and-foot 3.2: only the top cards come; the rest of the pile stays
    let left = if tt != 0 && n > tt { n - tt } else { 0 };
    rd.take_rest.clear();
    if n > left {
        let (seen, rest) = (&rd.seen_pile, &mut rd.take_rest);
        rest.extend_from_slice(&seen[left..n - 1]);
    }
    rd.last_taker = s as i32;
    let known = &mut rd.known[s];
    let mut top_arrives = false;
    if r.pair_melded || !rd.has_meld[side] {
        // the top card and the cards shown are melded; the rest comes up
        if r.suited {
            for &k in spec.cards.s() {
                drop_one(known, k as usize);
            }
        } else {
            let t = top.max(0) as usize;
            match spec.b {
                W_PAIR => {
                    drop_one(known, t);
                    drop_one(known, t);
                }
                W_JOKER => {
                    drop_one(known, t);
                    drop_one(known, JK as usize);
                }
                W_TWO => {
                    drop_one(known, t);
                    drop_one(known, TWO as usize);
                }
                _ => {}
            }
        }
        rd.has_meld[side] = true;
    } else {
        // new-canasta, a side that has melded: the whole pile comes up
        top_arrives = top >= 0;
    }
    let aside = r.from_pile_aside;
    for &k in &rd.take_rest {
        if !in_mask(aside, k as usize) && (k as usize) < N_CODES {
            known[k as usize] += 1;
        }
    }
    if top_arrives && !in_mask(aside, top as usize) && (top as usize) < N_CODES {
        known[top as usize] += 1;
    }
    if left > 0 || (tt != 0 && rd.dealt_below) {
        rd.seen_pile.truncate(left);
    } else {
        rd.seen_pile.clear();
        rd.dealt_below = false;
    }
}

// ------------------------------------------------------------------ the vector

#[inline]
fn rel(s: i64, me: usize, p: usize) -> usize {
    (s - me as i64).rem_euclid(p as i64) as usize
}

/// The vector of `c` seen from `seat`, into `o` (`lay.size` numbers, all 0 on entry).
fn encode(lay: &Layout, c: &Core, seat: usize, o: &mut [f32], rd: &mut Reader) -> PyResult<()> {
    let r = c.r();
    let p = lay.players;
    let nc = lay.codes.len();
    let at = |i: usize| lay.at[i] as usize;
    let seat_k = |k: usize| (seat + k) % p;
    // the hands
    let hand = c.hand(seat);
    let a = at(0);
    for (i, &k) in lay.codes.iter().enumerate() {
        o[a + i] = hand[k as usize] as f32;
    }
    if lay.down_hands {
        o[at(1)] = c.down(seat).sum15() as f32;
    }
    for k in 1..p {
        o[at(2) + k - 1] = c.hand(seat_k(k)).sum15() as f32;
        if lay.down_hands {
            o[at(3) + k - 1] = c.down(seat_k(k)).sum15() as f32;
        }
    }
    // the history: known cards and discards
    rd.sync(c)?;
    // a pile set aside for an initial meld: not in the taker's hand yet
    let aside_taker =
        if (c.phase == PH_INITIAL_TAKE || !c.pending.is_empty()) && rd.last_taker >= 0 && !rd.take_rest.is_empty() {
            rd.last_taker as usize
        } else {
            usize::MAX
        };
    let a = at(4);
    for k in 1..p {
        let mut row = rd.known[seat_k(k)];
        if seat_k(k) == aside_taker {
            for &x in &rd.take_rest {
                if !in_mask(r.from_pile_aside, x as usize) {
                    drop_one(&mut row, x as usize);
                }
            }
        }
        for (i, &code) in lay.codes.iter().enumerate() {
            o[a + (k - 1) * nc + i] = row[code as usize] as f32;
        }
    }
    // the table
    let (m, nr) = (lay.m, lay.nr);
    let rel_sides = &lay.rel_sides[seat];
    for (si, &side) in rel_sides.iter().enumerate() {
        let mut seen = [0usize; 32];
        let mut seq_seen = [0usize; 4];
        for meld in c.melds(side) {
            let rank = meld.rank as usize;
            if rank >= SEQ as usize {
                if !lay.suited {
                    continue;
                }
                let (suit, low) = (seq_suit(meld.rank) as usize, seq_low(meld.rank) as usize);
                let q = lay.q;
                let slot = seq_seen[suit & 3].min(q.saturating_sub(1));
                seq_seen[suit & 3] += 1;
                let hi = low + meld.nat.max(0) as usize;
                if suit > 3 || low < lay.seq_lo || hi > lay.seq_lo + lay.seq_w {
                    return Err(arg_error("state", "a sequence outside the layout's ranks"));
                }
                let base = at(6) + ((si * 4 + suit) * q + slot) * lay.seq_w;
                for rk in low..hi {
                    o[base + rk - lay.seq_lo] += 1.0;
                }
                continue;
            }
            let ri = lay.rank_index[rank];
            if ri < 0 {
                continue;
            }
            let slot = seen[rank].min(m - 1);
            seen[rank] += 1;
            let base = at(5) + ((si * nr + ri as usize) * m + slot) * 4;
            o[base] += meld.nat as f32;
            o[base + 1] += meld.jk as f32;
            o[base + 2] += meld.tw as f32;
            o[base + 3] = o[base + 3].max(meld.r3 as f32);
        }
    }
    let target = lay.target;
    for (si, &side) in rel_sides.iter().enumerate() {
        o[at(7) + si] = c.red[side] as f32;
        if lay.aside {
            o[at(8) + si] = c.aside[side] as f32;
        }
        o[at(9) + si] = c.opened[side] as i32 as f32;
        if !c.opened[side] {
            o[at(10) + si] = (r.initial_need(c.totals[side], c.d.hand_number) as f64 / 100.0) as f32;
        }
        o[at(11) + si] = (c.totals[side] as f64 / target) as f32;
    }
    o[at(12) + rel(c.d.dealer as i64, seat, p)] = 1.0;
    for k in 0..p {
        let s = seat_k(k);
        if c.d.active.contains(&(s as u8)) {
            o[at(13) + k] = 1.0;
        }
        o[at(14) + k] = c.melded[s] as i32 as f32;
        o[at(15) + k] = c.took_last[s] as i32 as f32;
    }
    // the pile, the stock, the turn
    o[at(16)] = c.pile_n as f32;
    if let Some(top) = &c.pile {
        let i = lay.index[top.card as usize];
        if i >= 0 {
            o[at(17) + i as usize] = 1.0;
        }
    }
    for (i, &code) in lay.codes.iter().enumerate() {
        o[at(18) + i] = rd.disc[code as usize] as f32;
    }
    o[at(19)] = c.frozen as i32 as f32;
    o[at(20)] = c.stock_n as f32;
    if (0..lay.n_phases as i64).contains(&c.phase) {
        o[at(21) + c.phase as usize] = 1.0;
    }
    if c.player >= 0 {
        o[at(22) + rel(c.player as i64, seat, p)] = 1.0;
    }
    let a = at(23);
    for (j, &bit) in lay.turn_bits.iter().enumerate() {
        o[a + j] = (c.flags & bit != 0) as i32 as f32;
    }
    let nb = lay.turn_bits.len();
    o[a + nb] = (c.count as f64 / 100.0) as f32;
    o[a + nb + 1] = c.pending.len() as f32;
    o[at(24)] = (c.last_turns >= 0) as i32 as f32;
    o[at(24) + 1] = c.last_turns.max(0) as f32;
    Ok(())
}

/// Check that `c` is of the layout's table and `seat` sits there.
fn check(lay: &Layout, c: &Core, seat: i64) -> PyResult<usize> {
    if !Rc::ptr_eq(&c.d.r, &lay.rules) {
        // the same table compiled again (the rules' cache was cleared), or another table
        let r = c.r();
        let name = c.d.py_rules.attr(c"variant")?.attr(c"name")?.text()?;
        if name != lay.name || r.players != lay.players || r.size != lay.action_size || r.suited != lay.suited {
            return Err(arg_error("state", &format!("a position of {name} with {} players, not {} with {}",
                                                   r.players, lay.name, lay.players)));
        }
    }
    if !(0..lay.players as i64).contains(&seat) {
        return Err(arg_error("seat", &format!("must be a seat from 0 to {}, not {seat}", lay.players - 1)));
    }
    Ok(seat as usize)
}

/// Write the vector of `c` seen from `seat` into `out` at number `at`, and the legal-action
/// mask into `mask` at `mask_at` (if given); returns the tuple of the legal ids the mask was
/// made of (shared as `Core.legal_ids()` shares them), None when no mask was asked.
pub fn write(lay: &Layout, c: &Core, seat: usize, out: Option<(&mut Buf, usize)>, mask: Option<(&mut Buf, usize)>)
    -> PyResult<Obj> {
    SCRATCH.with(|cell| {
        let mut sc = cell.borrow_mut();
        let sc = &mut *sc;
        if let Some((buf, at)) = out {
            write_vector(lay, c, seat, buf, at, &mut sc.reader, &mut sc.vec)?;
        }
        if let Some((buf, at)) = mask {
            sc.acts.clear();
            crate::legal::legal_ids(c, &mut sc.acts);
            let b = &mut buf.bytes()[at..at + lay.action_size];
            b.fill(0);
            for &id in &sc.acts {
                b[id as usize] = 1;
            }
            return crate::coreobj::shared_ids(c, &sc.acts);
        }
        Ok(Obj::none())
    })
}

/// Write the vector of `c` seen from `seat` into `buf` at number `at`, with the history read
/// by `reader` (brought up to `c`) and `v` as scratch space.
pub fn write_vector(lay: &Layout, c: &Core, seat: usize, buf: &mut Buf, at: usize, reader: &mut Reader, v: &mut Vec<f32>)
    -> PyResult<()> {
    v.clear();
    v.resize(lay.size, 0.0);
    encode(lay, c, seat, v, reader)?;
    buf.write_f32s(at, v);
    Ok(())
}

// ------------------------------------------------------------------ the Python functions

/// `obs_layout(rules, items)`: the layout of `ObservationEncoder` (items as
/// `canasta.envs._native_obs.layout_items` gives them) for the native rules `rules`.
pub(crate) unsafe extern "C" fn f_obs_layout(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 2, "obs_layout")?;
        let rules = unsafe { rules_of(a[0]) }?;
        let items = Obj::borrowed(a[1]).items()?;
        let lay = layout_from(rules, &items)?;
        let b = Box::into_raw(Box::new(lay));
        Obj::new(unsafe { PyCapsule_New(b as *mut c_void, LAYOUT.as_ptr(), Some(drop_layout)) })
    })
}

/// `observe(layout, core, seat, out, mask)`: write the vector of `core` seen from `seat` into
/// `out` and the legal-action mask into `mask` (either may be None); returns the tuple of the
/// legal ids when a mask was written (the ids the state would give), else None.
pub(crate) unsafe extern "C" fn f_observe(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 5, "observe")?;
        let lay = unsafe { layout_of(a[0]) }?;
        let c = core_arg(a[1])?;
        let seat = check(lay, c, int_of(a[2])?)?;
        let mut out = if unsafe { is_none(a[3]) } { None } else { Some(Buf::get(a[3], "out", Elem::F32, 4 * lay.size)?) };
        let mut mask = if unsafe { is_none(a[4]) } { None } else { Some(Buf::get(a[4], "mask", Elem::I8, lay.action_size)?) };
        write(lay, c, seat, out.as_mut().map(|b| (b, 0)), mask.as_mut().map(|b| (b, 0)))
    })
}
