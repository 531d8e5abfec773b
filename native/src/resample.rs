//! Dealing the unseen cards of an information-set sample (`canasta/_resample.py`: `fill`,
//! `_group_suits`, `playable`, the rejection draws of `_sample`/`resample`, and `_consistent`
//! of `canasta/_ismcts.py`), natively, with the draws of Python's own `random.Random`
//! (`random.sample`, `random.shuffle` and `_randbelow` ported call for call over the generator's
//! own `getrandbits`, called back), so that a sample and the generator's state after it are the
//! Python core's. (`mt_draws` checks the port on the MT19937 of `bots.rs`.)
//!
//! What is known is read once by the Python side (`_knowledge.knowledge`, `_resample._prepare`:
//! the counts of the unseen cards, the unseen places in their fixed order, the cards each hand is
//! known to hold, the pile's seen cards): `sampler` keeps it with a template position (the state
//! resampled, or a state of the observation's public fields), and each `sample_draw` deals the
//! unseen cards into a copy of the template. Where the cards do not fit (an observation no deal
//! gives) `sample_draw` says so and draws nothing: the Python path raises its error.

use crate::apply::asker;
use crate::args::{arg_error, core_arg, nargs};
use crate::bots::Mt;
use crate::buffer::PyModule_AddFunctions;
use crate::cards::*;
use crate::coreobj::wrap;
use crate::ffi::*;
use crate::guard::guarded;
use crate::ismcts::{mt_from_state, mt_state_obj};
use crate::kernel::*;
use crate::legal::legal_ids;
use crate::py::*;
use std::cell::RefCell;
use std::ffi::{c_int, c_void, CStr};
use std::ptr::null_mut;
use std::rc::Rc;

const SAMPLER: &CStr = c"canasta._native.Sampler";

// places a hidden card can be dealt to (`_resample._HAND` ...)
const HAND: u8 = 0;
const DOWN: u8 = 1;
const STOCK: u8 = 2;
const PILE: u8 = 3;

// ------------------------------------------------------------------ Python's random draws

/// A source of `random.Random`'s draws: `_randbelow` and `getrandbits(32)`.
pub trait Draw {
    fn below(&mut self, n: usize) -> PyResult<usize>;
    fn bits32(&mut self) -> PyResult<u32>;
}

impl Draw for Mt {
    fn below(&mut self, n: usize) -> PyResult<usize> {
        Ok(Mt::below(self, n))
    }
    fn bits32(&mut self) -> PyResult<u32> {
        Ok(self.getrandbits(32))
    }
}

/// A `random.Random`'s own draws, its `getrandbits` called back: the generator's state is
/// never copied in or out (625 words each way cost more than a sample's few dozen draws).
struct PyDraws {
    getrandbits: Obj,
    /// `(k,)` for k from 0 to 32
    args: Vec<Obj>,
}

impl PyDraws {
    fn new(rng: *mut PyObject) -> PyResult<PyDraws> {
        let f = getattr(rng, c"getrandbits").map_err(|_| {
            unsafe { PyErr_Clear() };
            arg_error("rng", "expected a random.Random")
        })?;
        Ok(PyDraws { getrandbits: f, args: (0..=32).map(|k| tuple(vec![int(k)])).collect() })
    }
    fn bits(&mut self, k: u32) -> PyResult<u32> {
        let r = Obj::new(unsafe { PyObject_CallObject(self.getrandbits.ptr(), self.args[k as usize].ptr()) })?;
        let x = int_of(r.ptr())?;
        u32::try_from(x).map_err(|_| value_error("rng: getrandbits gave a value out of range"))
    }
}

impl Draw for PyDraws {
    /// `random._randbelow_with_getrandbits(n)`, n > 0
    fn below(&mut self, n: usize) -> PyResult<usize> {
        let k = usize::BITS - n.leading_zeros();
        loop {
            let r = self.bits(k)? as usize;
            if r < n {
                return Ok(r);
            }
        }
    }
    fn bits32(&mut self) -> PyResult<u32> {
        self.bits(32)
    }
}

/// `random.Random.sample(population, k)` (CPython 3.11-3.13), the same draws in the same order.
pub fn py_sample<T: Copy, D: Draw>(rng: &mut D, population: &[T], k: usize) -> PyResult<Vec<T>> {
    let n = population.len();
    let mut result = Vec::with_capacity(k);
    let mut setsize = 21usize;
    if k > 5 {
        let e = ((k * 3) as f64).ln() / 4f64.ln();
        setsize += 4usize.pow(e.ceil() as u32);
    }
    if n <= setsize {
        let mut pool = population.to_vec();
        for i in 0..k {
            let j = rng.below(n - i)?;
            result.push(pool[j]);
            pool[j] = pool[n - i - 1];
        }
    } else {
        let mut selected: Vec<usize> = Vec::with_capacity(k);
        for _ in 0..k {
            let mut j = rng.below(n)?;
            while selected.contains(&j) {
                j = rng.below(n)?;
            }
            selected.push(j);
            result.push(population[j]);
        }
    }
    Ok(result)
}

/// `random.Random.shuffle(x)`.
pub fn py_shuffle<T, D: Draw>(rng: &mut D, x: &mut [T]) -> PyResult<()> {
    for i in (1..x.len()).rev() {
        let j = rng.below(i + 1)?;
        x.swap(i, j);
    }
    Ok(())
}

// ------------------------------------------------------------------ the sampler

/// What one seat knows, read once (`Knowledge` and `_prepare`), and the position to deal into.
struct Sampler {
    template: Core,
    /// 1: a `sample_state` (the seed drawn after the cards), 0: a `resample` (the seed kept)
    draw_seed: bool,
    observer: usize,
    n: usize,
    suited: bool,
    keep_r3: bool,
    /// the unseen cards per kind or code (the groups' naturals still under their kinds)
    pool: Vec<i32>,
    places: Vec<(u8, u32)>,
    red_ok: Vec<bool>,
    known: Vec<Vec<i32>>,
    /// the pile, bottom first (-1: a card not seen); the pile set aside likewise
    pile: Vec<i32>,
    pending: Option<Vec<i32>>,
    groups: Option<Vec<i32>>,
    /// the hand before a take: the seat (-1: none, the template's kept), what to add to its new
    /// hand, and whether at 0 at least (`resample`)
    start_seat: i32,
    start_delta: Vec<i32>,
    start_clamp: bool,
    stock_n: usize,
}

unsafe extern "C" fn drop_sampler(cap: *mut PyObject) {
    unsafe {
        let p = PyCapsule_GetPointer(cap, SAMPLER.as_ptr()) as *mut RefCell<Sampler>;
        if !p.is_null() {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(Box::from_raw(p))));
        }
    }
}

fn sampler_of<'a>(o: *mut PyObject) -> PyResult<&'a RefCell<Sampler>> {
    let p = unsafe { PyCapsule_GetPointer(o, SAMPLER.as_ptr()) } as *mut RefCell<Sampler>;
    if p.is_null() {
        return Err(PyErr);
    }
    Ok(unsafe { &*p })
}

fn i32s(o: *mut PyObject, what: &str) -> PyResult<Vec<i32>> {
    ints(&Obj::borrowed(o))?
        .into_iter()
        .map(|x| i32::try_from(x).map_err(|_| arg_error(what, &format!("{x} is out of range"))))
        .collect()
}

fn opt_i32s(o: *mut PyObject, what: &str) -> PyResult<Option<Vec<i32>>> {
    if unsafe { is_none(o) } { Ok(None) } else { Ok(Some(i32s(o, what)?)) }
}

/// `sampler(template, draw_seed, observer, pool, where, index, red_ok, known, pile, pending,
/// groups, start_seat, start_delta, start_clamp)`: a sampler (see the module's text).
unsafe extern "C" fn f_sampler(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 14, "sampler")?;
        let template = core_arg(a[0])?.clone();
        let r = template.r();
        let players = r.players;
        let hl = r.hand_len;
        let draw_seed = Obj::borrowed(a[1]).truth()?;
        let observer = int_of(a[2])?;
        if !(0..players as i64).contains(&observer) {
            return Err(arg_error("observer", "expected a seat of the table"));
        }
        let pool = i32s(a[3], "pool")?;
        let wh = i32s(a[4], "where")?;
        let ix = i32s(a[5], "index")?;
        let red_ok: Vec<bool> = Obj::borrowed(a[6]).items()?.iter().map(|x| x.truth()).collect::<PyResult<_>>()?;
        let known: Vec<Vec<i32>> = Obj::borrowed(a[7]).items()?.iter().map(|h| i32s(h.ptr(), "known")).collect::<PyResult<_>>()?;
        let pile = i32s(a[8], "pile")?;
        let pending = opt_i32s(a[9], "pending")?;
        let groups = opt_i32s(a[10], "groups")?;
        let start_seat = int_of(a[11])?;
        let start_delta = i32s(a[12], "start_delta")?;
        let start_clamp = Obj::borrowed(a[13]).truth()?;
        let code_ok = |k: i32| (0..hl as i32).contains(&k);
        if pool.len() != hl || known.len() != players || known.iter().any(|h| h.len() != hl) || red_ok.len() != players
            || groups.as_ref().is_some_and(|g| g.len() != hl) || wh.len() != ix.len()
            || !(-1..players as i64).contains(&start_seat) || start_delta.len() > hl
        {
            return Err(arg_error("sampler", "expected the knowledge of one seat of this table"));
        }
        if pile.iter().chain(pending.iter().flatten()).any(|&k| k != -1 && !code_ok(k)) {
            return Err(arg_error("pile", "expected card codes or -1"));
        }
        let stock_n = template.stock_n;
        let mut places = Vec::with_capacity(wh.len());
        for (&w, &i) in wh.iter().zip(ix.iter()) {
            let bound = match w as u8 {
                HAND | DOWN => players,
                STOCK => stock_n,
                PILE => pile.len(),
                _ => pending.as_ref().map_or(0, |p| p.len()),
            };
            if !(0..=4).contains(&w) || i < 0 || i as usize >= bound {
                return Err(arg_error("where", "expected the unseen places"));
            }
            places.push((w as u8, i as u32));
        }
        let s = Sampler {
            draw_seed,
            observer: observer as usize,
            n: hl,
            suited: r.suited,
            keep_r3: r.keep_r3,
            pool,
            places,
            red_ok,
            known,
            pile,
            pending,
            groups,
            start_seat: start_seat as i32,
            start_delta,
            start_clamp,
            stock_n,
            template,
        };
        // (whether the cards fit does not depend on the draws: a first sample tells, on a
        // generator of its own; where they do not, None: the Python path raises the error)
        match s.once(&mut Mt::from_key(&[0])) {
            Ok(_) => {}
            Err(NoFit) => return Ok(Obj::none()),
            Err(Fail::Py(e)) => return Err(e),
        }
        let b = Box::into_raw(Box::new(RefCell::new(s)));
        Obj::new(unsafe { PyCapsule_New(b as *mut c_void, SAMPLER.as_ptr(), Some(drop_sampler)) })
    })
}

/// Why no sample: the cards do not fit the places (`fill`'s errors, which no draw changes:
/// found by a first sample drawn when the sampler is made), or the generator failed.
enum Fail {
    NoFit,
    Py(PyErr),
}

use Fail::NoFit;

impl From<PyErr> for Fail {
    fn from(e: PyErr) -> Fail {
        Fail::Py(e)
    }
}

/// `_group_suits`: the groups' naturals taken out of `pool`, those the history shows by their
/// codes, the rest drawn among the unseen cards of their rank.
fn group_suits<D: Draw>(pool: &mut [i32], groups: Option<&Vec<i32>>, rng: &mut D) -> Result<(), Fail> {
    for k in 4..N_KINDS {
        let mut missing = -pool[k];
        pool[k] = 0;
        let codes = 4 * k - 1..4 * k + 3;
        if let Some(g) = groups {
            for c in codes.clone() {
                let seen = g[c].min(missing);
                pool[c] -= seen;
                missing -= seen;
            }
        }
        if missing <= 0 {
            continue;
        }
        let mut cards: Vec<usize> = Vec::new();
        for c in codes {
            for _ in 0..pool[c].max(0) {
                cards.push(c);
            }
        }
        if missing as usize > cards.len() {
            return Err(NoFit);
        }
        for c in py_sample(rng, &cards, missing as usize)? {
            pool[c] -= 1;
        }
    }
    Ok(())
}

fn count(x: i32) -> Result<u8, Fail> {
    u8::try_from(x).map_err(|_| NoFit)
}

/// `_full` for a native hand: the per-kind totals of the suited naturals added.
fn hand_of(counts: &[i32], suited: bool) -> Result<Hand, Fail> {
    let mut h = Hand::empty(counts.len());
    for (k, &x) in counts.iter().enumerate() {
        h.c[k] = count(x)?;
    }
    if suited {
        for k in N_KINDS..counts.len() {
            let j = (k + 1) >> 2;
            h.c[j] = count(h.c[j] as i32 + counts[k])?;
        }
    }
    Ok(h)
}

impl Sampler {
    /// `fill` then the position (`_resample_once` / `_sample_once`): one draw.
    fn once<D: Draw>(&self, rng: &mut D) -> Result<Core, Fail> {
        let n = self.n;
        let mut pool = self.pool.clone();
        if self.suited {
            group_suits(&mut pool, self.groups.as_ref(), rng)?;
        }
        let places = &self.places;
        if pool.iter().any(|&x| x < 0) || pool.iter().sum::<i32>() as usize != places.len() {
            return Err(NoFit);
        }
        let mut cards: Vec<i32> = vec![-1; places.len()];
        let reds = if self.keep_r3 { 0 } else { pool[R3 as usize] };
        if reds > 0 {
            let ok: Vec<usize> = (0..places.len())
                .filter(|&i| places[i].0 != HAND || self.red_ok[places[i].1 as usize])
                .collect();
            if reds as usize > ok.len() {
                return Err(NoFit);
            }
            for i in py_sample(rng, &ok, reds as usize)? {
                cards[i] = R3 as i32;
            }
            pool[R3 as usize] = 0;
        }
        let mut rest: Vec<i32> = Vec::with_capacity(places.len());
        for k in 0..n {
            for _ in 0..pool[k] {
                rest.push(k as i32);
            }
        }
        py_shuffle(rng, &mut rest)?;
        let mut it = rest.into_iter();
        for c in cards.iter_mut() {
            if *c < 0 {
                *c = it.next().ok_or(NoFit)?;
            }
        }
        let t = &self.template;
        let players = self.known.len();
        let mut hands = self.known.clone();
        let mut downs = vec![vec![0i32; n]; players];
        let mut stock = vec![0u8; self.stock_n];
        let mut pile = self.pile.clone();
        let mut pending = self.pending.clone();
        for (&(w, i), &k) in places.iter().zip(cards.iter()) {
            let i = i as usize;
            match w {
                HAND => hands[i][k as usize] += 1,
                DOWN => downs[i][k as usize] += 1,
                STOCK => stock[i] = k as u8,
                PILE => pile[i] = k,
                _ => pending.as_mut().ok_or(NoFit)?[i] = k,
            }
        }
        let mut c = t.clone();
        let hs: Vec<Hand> = hands.iter().map(|h| hand_of(h, self.suited)).collect::<Result<_, _>>()?;
        let ds: Vec<Hand> = downs.iter().map(|h| hand_of(h, self.suited)).collect::<Result<_, _>>()?;
        let stride = t.hands.stride;
        c.hands = Rc::new(Hands::new(&hs, stride));
        c.downs = Rc::new(Hands::new(&ds, t.downs.stride));
        let out_pile: Vec<u8> = pile.iter().filter(|&&k| k >= 0).map(|&k| k as u8).collect();
        c.pile = pile_of(&out_pile);
        if let Some(p) = &pending {
            c.pending = Rc::new(p.iter().filter(|&&k| k >= 0).map(|&k| k as u8).collect());
        }
        if self.start_seat >= 0 {
            let h = &hs[self.start_seat as usize];
            let mut v = Vec::with_capacity(self.start_delta.len());
            for (j, &d) in self.start_delta.iter().enumerate() {
                let x = h.c[j] as i32 + d;
                v.push(count(if self.start_clamp { x.max(0) } else { x })?);
            }
            c.start_hand = if v.is_empty() { None } else { Some(Rc::new(Hand::from_slice(&v))) };
        }
        c.history = fresh_history(&t.history);
        let d = &t.d;
        let (seed, seed_text) = if self.draw_seed {
            let s = rng.bits32()?;
            (int(s as i64), s.to_string())
        } else {
            (d.seed.clone(), d.seed_text.clone())
        };
        c.d = Rc::new(Deal {
            r: d.r.clone(),
            py_rules: d.py_rules.clone(),
            seed,
            seed_text,
            hand_number: d.hand_number,
            dealer: d.dealer,
            active: d.active.clone(),
            precise: d.precise.clone(),
            stock,
            py: RefCell::new(None),
        });
        Ok(c)
    }
}

/// The same history in links of its own, as `_from_fields` makes them: the public history's
/// memo (`_public_history._replay`) keeps, per link, a state at it, from whose cards it
/// replays on, so a sample (other cards) must not share the links of the state it stands for.
fn fresh_history(h: &Option<Rc<Hist>>) -> Option<Rc<Hist>> {
    let mut moves = vec![];
    let mut link = h;
    while let Some(x) = link {
        moves.push((x.id, x.seat));
        link = &x.prev;
    }
    let mut out = None;
    for &(id, seat) in moves.iter().rev() {
        out = Some(Rc::new(Hist::new(id, seat, out)));
    }
    out
}

/// `playable`: whether a sample agrees with what the turn says of a hand the observer cannot
/// see (hoyle-1950 rule 39: "may I go out?" is asked only by a player who can go out; a player
/// who must go out this turn has a legal action).
fn playable(c: &Core, observer: usize, ids: &mut Vec<u32>) -> bool {
    let ph = c.phase;
    if ph == PH_ANSWER {
        let who = asker(c, c.player as usize);
        if who == observer {
            return true;
        }
        let mut pre = c.clone();
        pre.player = who as i32;
        pre.flags = c.flags & !F_ASKED;
        if c.flags & (F_DREW | F_TOOK) != 0 {
            pre.phase = PH_MELD;
            return crate::discard::ask_after_problem(&pre).is_none();
        }
        pre.phase = PH_DRAW;
        return crate::draw::ask_first_problem(&pre).is_none();
    }
    if ph < PH_HAND_OVER && c.player != observer as i32 && c.flags & F_MUST != 0 {
        ids.clear();
        legal_ids(c, ids);
        return !ids.is_empty();
    }
    true
}

/// `sample_draw(sampler, rng, tries, consistent, cands)`: the rejection draws of
/// `_sample`/`resample` (at most `tries` samples until one is `playable`), repeated at most
/// `consistent` times until every id of `cands` is legal (`_ismcts._consistent`; 1 and no ids:
/// the first), drawn from `rng` (a `random.Random`: its `getrandbits`). Returns (status,
/// position): status 0 a sample, 1 none in which every candidate is legal (position None).
unsafe extern "C" fn f_draw(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 5, "sample_draw")?;
        let s = sampler_of(a[0])?.try_borrow().map_err(|_| value_error("the sampler is in use"))?;
        let mut rng = PyDraws::new(a[1])?;
        let tries = int_of(a[2])?.max(1);
        let consistent = int_of(a[3])?.max(1);
        let cands: Vec<u32> = ints(&Obj::borrowed(a[4]))?
            .into_iter()
            .map(|x| u32::try_from(x).map_err(|_| arg_error("cands", "expected action ids")))
            .collect::<PyResult<_>>()?;
        let mut ids: Vec<u32> = Vec::new();
        for _ in 0..consistent {
            let mut out = None;
            for _ in 0..tries {
                let c = match s.once(&mut rng) {
                    Ok(c) => c,
                    Err(Fail::Py(e)) => return Err(e),
                    // (the sampler's first sample found that the cards fit: no draw changes that)
                    Err(NoFit) => return Err(raise(unsafe { PyExc_RuntimeError }, "a sample's cards did not fit")),
                };
                let ok = playable(&c, s.observer, &mut ids);
                out = Some(c);
                if ok {
                    break;
                }
            }
            let c = out.unwrap();
            if !cands.is_empty() {
                ids.clear();
                legal_ids(&c, &mut ids);
                if !cands.iter().all(|a| ids.contains(a)) {
                    continue;
                }
            }
            return Ok(tuple(vec![int(0), wrap(c)?]));
        }
        Ok(tuple(vec![int(1), Obj::none()]))
    })
}

/// `mt_draws(rng_state, what, n, k)`: Python's draws on a generator's state, for the tests that
/// hold them to `random.Random`'s: `what` 0 `sample(range(n), k)`, 1 `shuffle(list(range(n)))`.
/// Returns (the values, the new state).
unsafe extern "C" fn f_mt_draws(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 4, "mt_draws")?;
        let mut rng = mt_from_state(&Obj::borrowed(a[0]))?;
        let what = int_of(a[1])?;
        let size = int_of(a[2])?;
        let k = int_of(a[3])?;
        if !(0..=1 << 20).contains(&size) || !(0..=size).contains(&k) {
            return Err(arg_error("n", "expected 0 <= k <= n <= 2**20"));
        }
        let pop: Vec<i64> = (0..size).collect();
        let got = if what == 0 {
            py_sample(&mut rng, &pop, k as usize)?
        } else {
            let mut v = pop;
            py_shuffle(&mut rng, &mut v)?;
            v
        };
        Ok(tuple(vec![int_tuple(&got), mt_state_obj(&rng)]))
    })
}

macro_rules! fastcall {
    ($name:literal, $f:expr) => {
        PyMethodDef { ml_name: $name.as_ptr(), ml_meth: $f as *mut c_void, ml_flags: METH_FASTCALL, ml_doc: null_mut() }
    };
}

static mut FUNCTIONS: [PyMethodDef; 4] = [
    fastcall!(c"sampler", f_sampler as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"sample_draw", f_draw as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"mt_draws", f_mt_draws as unsafe extern "C" fn(_, _, _) -> _),
    PyMethodDef { ml_name: std::ptr::null(), ml_meth: null_mut(), ml_flags: 0, ml_doc: std::ptr::null() },
];

/// Add this module's functions to the module `m`.
pub unsafe fn register(m: *mut PyObject) -> c_int {
    unsafe { PyModule_AddFunctions(m, (&raw mut FUNCTIONS) as *mut PyMethodDef) }
}
