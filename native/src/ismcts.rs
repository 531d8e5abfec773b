//! `ISMCTSBot`'s simulations below the root (`canasta/_ismcts.py`, `ISMCTSBot._iterate` and
//! `_rollout`): the descent of a candidate's tree, its new node and the greedy rollout, played
//! natively on a sampled state. The root's choice (sampling, common random numbers, pruning,
//! the final pick) stays in Python, which calls `ismcts_iterate` once a candidate and sample. A
//! hand the descent finishes is valued and backed up here (`hand_values`: `_values`' sums and
//! floating-point operations, one for one); a rollout cut short at `depth` is valued by the
//! Python code from the position reached, which then calls `ismcts_backup` with the values.
//!
//! The tree is the Python one, node for node: the same nodes, statistics and choices, the same
//! draws from the same generators (the search's `random.Random`, passed in and out as its state,
//! and the greedy policy's, seeded as `policy.rng.seed(seed)`), and the same floating-point sums
//! in the same order, so that a seeded search chooses the same action on either core
//! (`tests/test_ismcts_native.py`). The sampled state is all the tree sees, as in Python: it
//! holds no card the bot has not observed but the ones `_resample` dealt at random.

use crate::bots::{greedy_choose, Mt};
use crate::args::{arg_error, core_arg, nargs};
use crate::buffer::PyModule_AddFunctions;
use crate::ffi::*;
use crate::guard::guarded;
use crate::kernel::*;
use crate::legal::legal_ids;
use crate::py::*;
use crate::seatbots::CallPlanner;
use std::cell::RefCell;
use std::ffi::{c_int, c_void, CStr};
use std::ptr::null_mut;

const TREE: &CStr = c"canasta._native.SearchTree";

/// MT19937's words in `random.Random.getstate()`.
const MT_WORDS: usize = 624;

/// A node: the information set reached by a sequence of actions from a root (`_Node`).
struct Node {
    /// (action id, node) per action tried from here
    kids: Vec<(u32, u32)>,
    visits: i64,
    total: f64,
    avail: i64,
    seen: i64,
}

impl Node {
    fn new() -> Node {
        Node { kids: Vec::new(), visits: 0, total: 0.0, avail: 0, seen: 0 }
    }
}

/// The nodes of one decision's search (every candidate's tree), and the path of the descent
/// waiting for its values.
struct Tree {
    nodes: Vec<Node>,
    path: Vec<(u32, usize)>,
    ids: Vec<u32>,
}

impl Tree {
    fn kid(&self, node: u32, a: u32) -> Option<u32> {
        self.nodes[node as usize].kids.iter().find(|k| k.0 == a).map(|k| k.1)
    }

    fn kid_or_new(&mut self, node: u32, a: u32) -> PyResult<u32> {
        if let Some(k) = self.kid(node, a) {
            return Ok(k);
        }
        let k = u32::try_from(self.nodes.len()).map_err(|_| value_error("the search tree is full"))?;
        self.nodes.push(Node::new());
        self.nodes[node as usize].kids.push((a, k));
        Ok(k)
    }
}

unsafe extern "C" fn drop_tree(cap: *mut PyObject) {
    unsafe {
        let p = PyCapsule_GetPointer(cap, TREE.as_ptr()) as *mut RefCell<Tree>;
        if !p.is_null() {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(Box::from_raw(p))));
        }
    }
}

fn tree_of<'a>(o: *mut PyObject) -> PyResult<&'a RefCell<Tree>> {
    let p = unsafe { PyCapsule_GetPointer(o, TREE.as_ptr()) } as *mut RefCell<Tree>;
    if p.is_null() {
        return Err(PyErr);
    }
    Ok(unsafe { &*p })
}

/// `ismcts_tree()`: an empty search tree.
unsafe extern "C" fn f_tree(_m: *mut PyObject, _a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        nargs(_a, n, 0, "ismcts_tree")?;
        let b = Box::into_raw(Box::new(RefCell::new(Tree { nodes: Vec::new(), path: Vec::new(), ids: Vec::new() })));
        Obj::new(unsafe { PyCapsule_New(b as *mut c_void, TREE.as_ptr(), Some(drop_tree)) })
    })
}

/// `ismcts_root(tree)`: a new root node (a candidate's), its number.
unsafe extern "C" fn f_root(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 1, "ismcts_root")?;
        let mut t = tree_of(a[0])?.try_borrow_mut().map_err(|_| value_error("the search tree is in use"))?;
        let k = u32::try_from(t.nodes.len()).map_err(|_| value_error("the search tree is full"))?;
        t.nodes.push(Node::new());
        Ok(int(k as i64))
    })
}

/// A 32-bit word of a generator's key or state (an error, not a truncation, outside).
fn word(x: i64, what: &str) -> PyResult<u32> {
    u32::try_from(x).map_err(|_| arg_error(what, &format!("expected a 32-bit word, not {x}")))
}

fn small(o: *mut PyObject, what: &str, lo: i64, hi: i64) -> PyResult<i64> {
    let x = int_of(o)?;
    if x < lo || x > hi {
        return Err(arg_error(what, &format!("expected {lo} to {hi}, not {x}")));
    }
    Ok(x)
}

/// `random.Random.getstate()[1]` (624 words and the position) as a generator.
pub(crate) fn mt_from_state(o: &Obj) -> PyResult<Mt> {
    // (read in place, no reference taken per item: it is read once a sample)
    let t = Obj::new(unsafe { PySequence_Tuple(o.ptr()) })?;
    if unsafe { PyTuple_Size(t.ptr()) } != (MT_WORDS + 1) as Py_ssize_t {
        return Err(arg_error("rng_state", "expected random.Random.getstate()[1] (625 integers)"));
    }
    let at = |i: usize| int_of(unsafe { PyTuple_GetItem(t.ptr(), i as Py_ssize_t) });
    let mut words = [0u32; MT_WORDS];
    for (i, w) in words.iter_mut().enumerate() {
        *w = word(at(i)?, "rng_state")?;
    }
    let index = at(MT_WORDS)?;
    if !(0..=MT_WORDS as i64).contains(&index) {
        return Err(arg_error("rng_state", &format!("the position must be 0 to 624, not {index}")));
    }
    Ok(Mt::from_state(&words, index as usize))
}

pub(crate) fn mt_state_obj(mt: &Mt) -> Obj {
    let (words, index) = mt.state();
    let mut v: Vec<i64> = words.iter().map(|&w| w as i64).collect();
    v.push(index as i64);
    int_tuple(&v)
}

fn mt_from_key(o: &Obj) -> PyResult<Mt> {
    let key = ints(o)?.into_iter().map(|x| word(x, "key")).collect::<PyResult<Vec<u32>>>()?;
    Ok(Mt::from_key(&key))
}

/// The greedy policy's choice among `ids` (more than one), as `policy._choose_state`.
fn greedy(c: &Core, ids: &[u32], policy: &mut Mt, planner: &mut CallPlanner) -> PyResult<u32> {
    match greedy_choose(c, ids, policy, planner) {
        Ok(a) => Ok(a),
        Err(_) if planner.failed => Err(PyErr),
        Err(e) => Err(raise(unsafe { PyExc_RuntimeError }, &e)),
    }
}

/// `ismcts_iterate(tree, root, core, me, side_of, exploration, widening, depth, policy_key,
/// rng_state, planner)`: one descent of `root`'s tree from the sampled position `core` (the
/// candidate already played), then the greedy rollout (at most `depth` actions): `_iterate`
/// up to its backup. Returns (the position reached, the search generator's new state, or
/// None where it drew nothing); the path waits in the tree for `ismcts_backup`.
unsafe extern "C" fn f_iterate(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        // (11 arguments: the caller values the position reached; 13: `sides` and `objective`,
        // 1 "score" or 2 "win", value a finished hand here and back it up: `_values`)
        let a = if n == 13 { nargs(a, n, 13, "ismcts_iterate")? } else { nargs(a, n, 11, "ismcts_iterate")? };
        let cell = tree_of(a[0])?;
        let mut t = cell.try_borrow_mut().map_err(|_| value_error("the search tree is in use"))?;
        let root = small(a[1], "root", 0, t.nodes.len() as i64 - 1)? as u32;
        let start = core_arg(a[2])?;
        let players = start.r().players;
        let me = small(a[3], "me", 0, players as i64 - 1)? as i32;
        let side_of = ints(&Obj::borrowed(a[4]))?;
        if side_of.len() != players || side_of.iter().any(|&s| !(0..players as i64).contains(&s)) {
            return Err(arg_error("side_of", "expected each seat's side"));
        }
        let exploration = unsafe { PyFloat_AsDouble(a[5]) };
        if exploration == -1.0 && unsafe { !PyErr_Occurred().is_null() } {
            return Err(PyErr);
        }
        let widening = small(a[6], "widening", 1, i64::MAX)?;
        let depth = small(a[7], "depth", 1, i64::MAX)?;
        let mut policy = mt_from_key(&Obj::borrowed(a[8]))?;
        let mut rng = mt_from_state(&Obj::borrowed(a[9]))?;
        let mut planner = CallPlanner { callback: Obj::borrowed(a[10]), failed: false };
        let mut drew = false;
        let my_side = side_of[me as usize] as usize;

        let t = &mut *t;
        t.path.clear();
        t.path.push((root, my_side));
        let mut ids = std::mem::take(&mut t.ids);
        let mut node = root;
        let mut st: Option<Core> = None;
        let mut expanded = false;
        loop {
            let c = st.as_ref().unwrap_or(start);
            if c.phase >= PH_HAND_OVER {
                break;
            }
            ids.clear();
            legal_ids(c, &mut ids);
            if ids.is_empty() {
                break; // (a sample the turn contradicts: see _resample.playable)
            }
            let player = c.player;
            if player != me || ids.len() == 1 {
                let act = if ids.len() == 1 { ids[0] } else { greedy(c, &ids, &mut policy, &mut planner)? };
                node = t.kid_or_new(node, act)?;
                st = Some(crate::apply::apply_id(c, act));
                continue;
            }
            if expanded {
                break; // from the new node on: the rollout
            }
            t.nodes[node as usize].seen += 1;
            let g = greedy(c, &ids, &mut policy, &mut planner)?;
            let mut tried: Vec<u32> = Vec::new();
            for &b in ids.iter() {
                if let Some(k) = t.kid(node, b) {
                    let k = &mut t.nodes[k as usize];
                    if k.visits != 0 {
                        k.avail += 1;
                        tried.push(b);
                    }
                }
            }
            let seen = t.nodes[node as usize].seen;
            let act = if !tried.contains(&g) {
                g
            } else if tried.len() < ids.len() && tried.len() as i64 <= (seen - 1) / widening {
                let fresh: Vec<u32> = ids.iter().copied().filter(|b| !tried.contains(b)).collect();
                drew = true;
                fresh[rng.below(fresh.len())]
            } else {
                let mut act = g;
                let mut best = -1e300;
                for &b in tried.iter() {
                    let k = &t.nodes[t.kid(node, b).unwrap() as usize];
                    let u = k.total / k.visits as f64 + exploration * ((k.avail as f64).ln() / k.visits as f64).sqrt();
                    if u > best {
                        best = u;
                        act = b;
                    }
                }
                act
            };
            let child = t.kid_or_new(node, act)?;
            let k = &mut t.nodes[child as usize];
            if k.visits == 0 {
                k.avail += 1;
                expanded = true;
            }
            t.path.push((child, side_of[player as usize] as usize));
            st = Some(crate::apply::apply_id(c, act));
            node = child;
        }
        // the rollout: the greedy policy in every seat
        for _ in 0..depth {
            let c = st.as_ref().unwrap_or(start);
            if c.phase >= PH_HAND_OVER {
                break;
            }
            ids.clear();
            legal_ids(c, &mut ids);
            if ids.is_empty() {
                break;
            }
            let act = if ids.len() == 1 { ids[0] } else { greedy(c, &ids, &mut policy, &mut planner)? };
            st = Some(crate::apply::apply_id(c, act));
        }
        t.ids = ids;
        let state = if drew { mt_state_obj(&rng) } else { Obj::none() };
        if a.len() == 13 {
            let sides = small(a[11], "sides", 1, MAXP as i64)? as usize;
            let objective = small(a[12], "objective", 1, 2)?;
            let c = st.as_ref().unwrap_or(start);
            if let Some(res) = &c.result {
                if sides >= 2 && res.scores.len() <= sides && t.path.iter().all(|&(_, s)| s < sides) {
                    let values = hand_values(res, sides, objective == 2);
                    for &(k, side) in t.path.iter() {
                        let node = &mut t.nodes[k as usize];
                        node.visits += 1;
                        node.total += values[side];
                    }
                    t.path.clear();
                    return Ok(tuple(vec![Obj::none(), state, float(values[my_side])]));
                }
            }
            let end = match st {
                Some(c) => crate::coreobj::wrap(c)?,
                None => Obj::borrowed(a[2]),
            };
            return Ok(tuple(vec![end, state, Obj::none()]));
        }
        let end = match st {
            Some(c) => crate::coreobj::wrap(c)?,
            None => Obj::borrowed(a[2]),
        };
        Ok(tuple(vec![end, state]))
    })
}

/// `_ismcts._values` of a finished hand: to each side its hand score less the best other
/// side's, in thousands of points (`win`: +1, -1 or 0, the margin in ten-thousands breaking
/// ties), the same floating-point operations as the Python.
fn hand_values(res: &HandEnd, sides: usize, win: bool) -> Vec<f64> {
    let mut scores = vec![0i64; sides];
    for (side, rows) in res.scores.iter().enumerate() {
        scores[side] = rows.iter().map(|r| r.2).sum();
    }
    (0..sides)
        .map(|s| {
            let best = (0..sides).filter(|&o| o != s).map(|o| scores[o]).max().unwrap_or(0);
            let diff = scores[s] - best;
            if win {
                (diff.signum() as f64) + diff as f64 / 10000.0
            } else {
                diff as f64 / 1000.0
            }
        })
        .collect()
}

/// `ismcts_backup(tree, values)`: the values of the outcome to each side added along the path
/// of the last descent (`_iterate`'s backup).
unsafe extern "C" fn f_backup(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 2, "ismcts_backup")?;
        let mut t = tree_of(a[0])?.try_borrow_mut().map_err(|_| value_error("the search tree is in use"))?;
        let values: Vec<f64> = Obj::borrowed(a[1])
            .items()?
            .iter()
            .map(|v| {
                let x = unsafe { PyFloat_AsDouble(v.ptr()) };
                if x == -1.0 && unsafe { !PyErr_Occurred().is_null() } { Err(PyErr) } else { Ok(x) }
            })
            .collect::<PyResult<_>>()?;
        let t = &mut *t;
        if t.path.iter().any(|&(_, s)| s >= values.len()) {
            return Err(arg_error("values", "expected one value per side"));
        }
        for &(k, side) in t.path.iter() {
            let node = &mut t.nodes[k as usize];
            node.visits += 1;
            node.total += values[side];
        }
        t.path.clear();
        Ok(Obj::none())
    })
}

/// `mt_check(keys, draws)`: per key, `random.Random` seeded with it (the keys seeded together,
/// as `simulate` seeds a deal's bots), `draws` values of `getrandbits(32)`, then the state
/// (`getstate()[1]`), for the tests that hold the generator to Python's.
unsafe extern "C" fn f_mt_check(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 2, "mt_check")?;
        let keys = Obj::borrowed(a[0])
            .items()?
            .iter()
            .map(|k| ints(k)?.into_iter().map(|x| word(x, "key")).collect::<PyResult<Vec<u32>>>())
            .collect::<PyResult<Vec<_>>>()?;
        let draws = small(a[1], "draws", 0, 1 << 20)?;
        let mut out = vec![];
        for mut mt in Mt::from_keys(&keys) {
            let got: Vec<i64> = (0..draws).map(|_| mt.getrandbits(32) as i64).collect();
            out.push(tuple(vec![int_tuple(&got), mt_state_obj(&mt)]));
        }
        Ok(tuple(out))
    })
}

macro_rules! fastcall {
    ($name:literal, $f:expr) => {
        PyMethodDef { ml_name: $name.as_ptr(), ml_meth: $f as *mut c_void, ml_flags: METH_FASTCALL, ml_doc: null_mut() }
    };
}

static mut FUNCTIONS: [PyMethodDef; 6] = [
    fastcall!(c"ismcts_tree", f_tree as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"ismcts_root", f_root as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"ismcts_iterate", f_iterate as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"ismcts_backup", f_backup as unsafe extern "C" fn(_, _, _) -> _),
    fastcall!(c"mt_check", f_mt_check as unsafe extern "C" fn(_, _, _) -> _),
    PyMethodDef { ml_name: std::ptr::null(), ml_meth: null_mut(), ml_flags: 0, ml_doc: std::ptr::null() },
];

/// Add this module's functions to the module `m`.
pub unsafe fn register(m: *mut PyObject) -> c_int {
    unsafe { PyModule_AddFunctions(m, (&raw mut FUNCTIONS) as *mut PyMethodDef) }
}
