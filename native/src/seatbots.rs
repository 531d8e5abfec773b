//! The built-in bots (`RandomBot`, `GreedyBot`, `bots.rs`) in the seats a Gymnasium agent does
//! not play: one native call plays them until a seat without a bot (the learned one) is to act
//! or the hand is over, with no Python call per action.

use crate::args::{core_arg, nargs};
use crate::bots::{greedy_choose, Bot, Kind, Mt, Planner};
use crate::ffi::*;
use crate::guard::guarded;
use crate::kernel::*;
use crate::legal::legal_ids;
use crate::py::*;
use std::cell::RefCell;
use std::ffi::{c_void, CStr};

const SEAT_BOTS: &CStr = c"canasta._native.SeatBots";

/// Per seat its bot (None: a seat the caller plays).
struct SeatBots {
    bots: Vec<Option<Bot>>,
    ids: Vec<u32>,
}

unsafe extern "C" fn drop_seat_bots(cap: *mut PyObject) {
    unsafe {
        let p = PyCapsule_GetPointer(cap, SEAT_BOTS.as_ptr()) as *mut RefCell<SeatBots>;
        if !p.is_null() {
            drop(Box::from_raw(p));
        }
    }
}

/// `seat_bots(kinds, keys)`: per seat the kind of its bot (0 random, 1 greedy, -1 none) and the
/// key of its `random.Random` seed (as `bots`).
pub unsafe extern "C" fn f_seat_bots(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 2, "seat_bots")?;
        let kinds = ints(&Obj::borrowed(a[0]))?;
        let keys = Obj::borrowed(a[1]).items()?;
        if kinds.len() != keys.len() || kinds.len() > MAXP {
            return Err(value_error("seat_bots: one kind and one key per seat"));
        }
        let mut bots = vec![];
        for (k, key) in kinds.iter().zip(keys.iter()) {
            let words: Vec<u32> = ints(key)?.into_iter().map(|x| x as u32).collect();
            bots.push(match k {
                0 => Some(Bot { kind: Kind::Random, rng: Mt::from_key(&words) }),
                1 => Some(Bot { kind: Kind::Greedy, rng: Mt::from_key(&words) }),
                _ => None,
            });
        }
        let b = Box::into_raw(Box::new(RefCell::new(SeatBots { bots, ids: Vec::with_capacity(64) })));
        Obj::new(unsafe { PyCapsule_New(b as *mut c_void, SEAT_BOTS.as_ptr(), Some(drop_seat_bots)) })
    })
}

/// GreedyBot plans from an observation through Python (`_playout._planner`); `failed` records a
/// callback that raised (shared by the seat bots and the ISMCTS rollouts).
pub(crate) struct CallPlanner {
    pub(crate) callback: Obj,
    pub(crate) failed: bool,
}

impl Planner for CallPlanner {
    fn plan_state(&mut self, c: &Core, seat: usize) -> Result<Core, String> {
        let got = (|| -> PyResult<Core> {
            let arg = crate::coreobj::wrap(c.clone())?;
            let res = self.callback.call(vec![arg, int(seat as i64)])?;
            Ok(core_arg(res.ptr())?.clone())
        })();
        got.map_err(|_| {
            self.failed = true;
            "the planner failed".to_string()
        })
    }
}

/// `play_to(core, seat_bots, planner)`: the position after the seats' bots have played from
/// `core` until a seat without a bot is to act or the hand is over (`core` itself if no bot
/// is to act). `planner(core, seat)` as for `play`.
pub unsafe extern "C" fn f_play_to(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 3, "play_to")?;
        let c = core_arg(a[0])?;
        let p = unsafe { PyCapsule_GetPointer(a[1], SEAT_BOTS.as_ptr()) } as *mut RefCell<SeatBots>;
        if p.is_null() {
            return Err(PyErr);
        }
        let mut sb = unsafe { &*p }.try_borrow_mut().map_err(|_| value_error("the bots are in use"))?;
        let SeatBots { bots, ids } = &mut *sb;
        let mut planner = CallPlanner { callback: Obj::borrowed(a[2]), failed: false };
        let mut cur: Option<Core> = None;
        loop {
            let now = cur.as_ref().unwrap_or(c);
            if now.phase >= PH_HAND_OVER || now.player < 0 {
                break;
            }
            let Some(Some(bot)) = bots.get_mut(now.player as usize) else { break };
            ids.clear();
            legal_ids(now, ids);
            if ids.is_empty() {
                return Err(raise(unsafe { PyExc_RuntimeError }, &format!("seat {} is to act with no legal action",
                                                                           now.player)));
            }
            let id = match bot.kind {
                Kind::Random => ids[bot.rng.below(ids.len())],
                Kind::Greedy => match greedy_choose(now, ids, &mut bot.rng, &mut planner) {
                    Ok(x) => x,
                    Err(_) if planner.failed => return Err(PyErr),
                    Err(e) => return Err(raise(unsafe { PyExc_RuntimeError }, &e)),
                },
            };
            cur = Some(crate::apply::apply_id(now, id));
        }
        match cur {
            Some(x) => crate::coreobj::wrap(x),
            None => Ok(Obj::borrowed(a[0])),
        }
    })
}
