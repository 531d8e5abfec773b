//! `simulate`: the rows of `canasta.simulate` played natively, every seat's bot built in, the
//! deals played without the GIL on a copy of the table's rules private to the thread. Built on
//! `bots.rs`, `deal.rs`, `rulesobj.rs` and `coreobj.rs`; `bind.rs` registers it.

use crate::args::nargs;
use crate::coreobj::{core_of, wrap, CORE_TYPE};
use crate::ffi::*;
use crate::guard::guard;
use crate::kernel::*;
use crate::py::*;
use crate::pyrules::Unsupported;
use crate::rules::Rules;
use crate::rulesobj::table_of;
use std::cell::RefCell;
use std::rc::Rc;

fn seed_key(seed: i128) -> Vec<u32> {
    let mut n = seed.unsigned_abs();
    let mut out = vec![(n & 0xffff_ffff) as u32];
    n >>= 32;
    while n != 0 {
        out.push((n & 0xffff_ffff) as u32);
        n >>= 32;
    }
    out
}

fn leader(scores: &[i64]) -> Option<usize> {
    let best = *scores.iter().max()?;
    let top: Vec<usize> = (0..scores.len()).filter(|&s| scores[s] == best).collect();
    if top.len() == 1 { Some(top[0]) } else { None }
}

/// `simulate(rules, R, first_seed, count, kinds, games, max_hands, max_actions, planner)`: the
/// rows of `canasta.simulate` for seeds `first_seed ..`, every seat's bot built in (`kinds`, as
/// for `bots`; seat s's bot seeded with `seed * 1000 + s`), every hand played natively. A row is
/// (scores or totals, leader or winner or None, actions, hands, ending); a hand that does not
/// end within `max_actions` gives the row `(seed, hand number)` instead.
pub(crate) unsafe extern "C" fn f_simulate(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guard(|| {
        let a = nargs(a, n, 9, "simulate")?;
        let table = unsafe { table_of(a[0]) }?;
        let shared = table.rules.clone();
        let py_rules = Obj::borrowed(a[1]);
        let first = int_of(a[2])? as i128;
        let count = int_of(a[3])?;
        let kinds = ints(&Obj::borrowed(a[4]))?;
        let games = Obj::borrowed(a[5]).truth()?;
        let max_hands = int_of(a[6])?;
        let max_actions: usize = fit(int_of(a[7])?, "max_actions")?;
        if i64::try_from(first + count as i128).is_err() {
            return Err(raise(unsafe { PyExc_OverflowError }, "simulate(): the seeds are out of the native core's range"));
        }
        // The deals are played without the GIL, so that threads simulate side by side. They play
        // on a copy of the table's rules that no other thread reaches (its memos are this
        // call's), and the positions handed to the planner are copies on the shared rules.
        let private = private_rules(table.id, &py_rules)?;
        let mut planner = SimPlanner { callback: Obj::borrowed(a[8]), shared, private: private.clone(), py_rules, seed: 0,
                                       failed: false };
        let played = without_gil(|| simulate_deals(&private, first, count, &kinds, games, max_hands, max_actions, &mut planner));
        let rows = match played {
            Ok(rows) => rows,
            Err(_) if planner.failed => return Err(PyErr),
            Err(e) => return Err(raise(unsafe { PyExc_RuntimeError }, &e)),
        };
        Ok(tuple(rows.into_iter().map(|row| match row {
            SimRow::Stuck(seed, hand) => tuple(vec![int(seed), int(hand)]),
            SimRow::Done(scores, lead, actions, hands, ending) => tuple(vec![
                int_tuple(&scores),
                lead.map(|x| int(x as i64)).unwrap_or_else(Obj::none),
                int(actions as i64),
                int(hands),
                string(ending),
            ]),
        }).collect()))
    })
}

thread_local! {
    /// This thread's copy of the rules it last simulated at, with its table's number. (It
    /// shares nothing with another thread, so it is freed at the thread's end without the GIL.)
    static PRIVATE: RefCell<Option<(u64, Rc<Rules>)>> = const { RefCell::new(None) };
}

/// A copy of table `id`'s rules (of the Python rules `py_rules`) for this thread alone, kept
/// from one simulate call to the next at the same table (building one costs about a
/// millisecond, and its memos warm up again).
fn private_rules(id: u64, py_rules: &Obj) -> PyResult<Rc<Rules>> {
    let kept = PRIVATE.with(|p| p.borrow().as_ref().filter(|(k, _)| *k == id).map(|(_, r)| r.clone()));
    if let Some(r) = kept {
        return Ok(r);
    }
    let private = match Rules::from_py(py_rules) {
        Ok(r) => Rc::new(r),
        Err(Unsupported::Py(e)) => return Err(e),
        Err(Unsupported::Setting(s)) => return Err(raise(unsafe { PyExc_RuntimeError }, &s)),
    };
    let old = PRIVATE.with(|p| p.borrow_mut().replace((id, private.clone())));
    drop(old); // (with the GIL)
    Ok(private)
}

/// A row of `simulate`, before it is made a Python tuple (with the GIL).
enum SimRow {
    /// (seed, hand number from 1): a hand that did not end
    Stuck(i64, i64),
    /// scores or totals, the leader or winner, actions, hands, ending
    Done(Vec<i64>, Option<usize>, usize, i64, &'static str),
}

/// The planner of a simulation: the GIL taken back for it, and the positions copied across
/// (the planner's Python code may keep what it is given).
struct SimPlanner {
    callback: Obj,
    shared: Rc<Rules>,
    private: Rc<Rules>,
    py_rules: Obj,
    /// the seed of the deal being played
    seed: i64,
    failed: bool,
}

impl crate::bots::Planner for SimPlanner {
    fn plan_state(&mut self, c: &Core, seat: usize) -> Result<Core, String> {
        let got = with_gil(|| -> PyResult<Core> {
            let arg = wrap(c.detached(self.shared.clone(), self.py_rules.clone(), int(self.seed)))?;
            let res = self.callback.call(vec![arg, int(seat as i64)])?;
            if unsafe { PyType_IsSubtype((*res.ptr()).ob_type, CORE_TYPE as *mut PyTypeObject) } == 0 {
                return Err(type_error("the planner did not return a native position"));
            }
            Ok(unsafe { core_of(res.ptr()) }.detached(self.private.clone(), Obj::null(), Obj::null()))
        });
        got.map_err(|_| {
            self.failed = true;
            "the planner failed".to_string()
        })
    }
}

/// The deals of `simulate`, played without the GIL (see `f_simulate`): Python is reached only
/// through `with_gil` (the planner, the initial-meld minimum). The positions dealt here hold no
/// Python object (Python never sees them), so a deal takes no GIL.
fn simulate_deals(rules: &Rc<Rules>, first: i128, count: i64, kinds: &[i64], games: bool, max_hands: i64,
                  max_actions: usize, planner: &mut SimPlanner) -> Result<Vec<SimRow>, String> {
    let r = &**rules;
    let seat_bot: Vec<usize> = (0..kinds.len()).collect();
    let mut out = vec![];
    // the bots are made once and reseeded in place for each deal
    let mut bots: Vec<crate::bots::Bot> = crate::bots::Mt::from_keys(&vec![vec![0]; kinds.len()])
        .into_iter()
        .zip(kinds)
        .map(|(rng, &k)| crate::bots::Bot {
            kind: if k == 0 { crate::bots::Kind::Random } else { crate::bots::Kind::Greedy },
            rng,
        })
        .collect();
    for i in 0..count as i128 {
        let seed = first + i;
        planner.seed = seed as i64;
        let seed_text = seed.to_string();
        let keys: Vec<Vec<u32>> = (0..kinds.len()).map(|s| seed_key(seed * 1000 + s as i128)).collect();
        crate::bots::Mt::reseed(&mut bots.iter_mut().map(|b| &mut b.rng).collect::<Vec<_>>(), &keys);
        let mut dealer = crate::deal::first_dealer(r, &seed_text);
        let mut totals = vec![0i64; r.n_sides];
        let mut hand = 0i64;
        let mut actions = 0usize;
        let mut failed = false;
        let end = loop {
            let precise = crate::deal::precise_draws(r, &seed_text, hand, dealer);
            let c = crate::deal::deal(rules.clone(), Obj::null(), Obj::null(), seed_text.clone(), hand, dealer, &totals, precise);
            let (end, played) = crate::bots::play_hand(&c, &mut bots, &seat_bot, max_actions + 1, planner)?;
            actions += played;
            if end.phase < PH_HAND_OVER {
                out.push(SimRow::Stuck(seed as i64, hand + 1));
                failed = true;
                break end;
            }
            hand += 1;
            if !games || end.phase == PH_GAME_OVER || hand >= max_hands {
                break end;
            }
            totals = end.totals[..r.n_sides].to_vec();
            dealer = crate::deal::next_dealer(r, end.d.dealer);
        };
        if failed {
            break;
        }
        let res = end.result.as_ref().unwrap();
        let row = if !games {
            let scores: Vec<i64> = res.scores.iter().map(crate::score::side_total).collect();
            let ending = if res.went_out < 0 { "stock exhausted" } else if res.concealed { "went out concealed" } else { "went out" };
            let lead = leader(&scores);
            SimRow::Done(scores, lead, actions, 1, ending)
        } else {
            let t = end.totals[..r.n_sides].to_vec();
            if end.phase == PH_GAME_OVER {
                let w = if end.winners.len() == 1 { Some(end.winners[0] as usize) } else { None };
                SimRow::Done(t, w, actions, hand, "game over")
            } else {
                let lead = leader(&t);
                SimRow::Done(t, lead, actions, hand, "hand cap")
            }
        };
        out.push(row);
    }
    Ok(out)
}
