//! `canasta.envs.vector_env`'s games stepped natively: one call plays an action in each of N
//! games, deals anew the games whose episode ended (the same-step autoreset of
//! `canasta/envs/_vector.py`), and writes every game's observation of the seat to act, its mask,
//! the seats, the rewards, the terminations and the truncations into the caller's arrays.
//!
//! The Python side keeps what happens seldom (a hand's result, a game's final state): each call
//! returns the games whose hand ended in it, with their positions.

use crate::args::nargs;
use crate::buffer::{Buf, Elem};
use crate::ffi::*;
use crate::kernel::*;
use crate::obs::{layout_of, write_vector, Layout, Reader};
use crate::py::*;
use crate::rulesobj::rules_of;
use crate::rules::Rules;
use std::cell::RefCell;
use std::ffi::{c_void, CStr};
use std::rc::Rc;

/// What an illegal action does (`canasta.envs.ILLEGAL`).
#[derive(Clone, Copy, PartialEq)]
enum Illegal {
    Raise,
    Penalty,
    Terminate,
}

struct Game {
    core: Core,
    hands_done: i64,
    /// the legal ids of `core` (written into its mask row; the next step's legality check)
    legal: Vec<u32>,
    /// the hand's history read so far (one action a step)
    reader: Box<Reader>,
}

struct VecEnv {
    rules: Rc<Rules>,
    py_rules: Obj,
    layout: Obj,
    games: Vec<Game>,
    game_episode: bool,
    win_reward: bool,
    max_hands: i64,
    illegal: Illegal,
    illegal_reward: f32,
    next_seed: i64,
    /// scratch space for one vector
    vector: Vec<f32>,
}

const VEC: &CStr = c"canasta._native.VecEnv";

/// The first hand of the game with `seed` (`canasta.new_game`).
pub(crate) fn deal_new(rules: &Rc<Rules>, py_rules: &Obj, seed: i64) -> Core {
    let r = &**rules;
    let text = seed.to_string();
    let dealer = crate::deal::first_dealer(r, &text);
    let precise = crate::deal::precise_draws(r, &text, 0, dealer);
    crate::deal::deal(rules.clone(), py_rules.clone(), int(seed), text, 0, dealer, &vec![0; r.n_sides], precise)
}

/// The next hand of the game `end` (`GameState.next_hand`).
pub(crate) fn next_hand(rules: &Rc<Rules>, py_rules: &Obj, end: &Core) -> Core {
    let r = &**rules;
    let d = &end.d;
    let dealer = crate::deal::next_dealer(r, d.dealer);
    let hand = d.hand_number + 1;
    let precise = crate::deal::precise_draws(r, &d.seed_text, hand, dealer);
    crate::deal::deal(rules.clone(), py_rules.clone(), d.seed.clone(), d.seed_text.clone(), hand, dealer,
                      &end.totals[..r.n_sides], precise)
}

impl VecEnv {
    /// The first hand of the game with `seed` (`canasta.new_game`).
    fn deal_new(&self, seed: i64) -> Core {
        deal_new(&self.rules, &self.py_rules, seed)
    }

    /// The next hand of the game `end` (`GameState.next_hand`).
    fn next_hand(&self, end: &Core) -> Core {
        next_hand(&self.rules, &self.py_rules, end)
    }

    fn fresh(&mut self, i: usize) -> i64 {
        let seed = self.next_seed;
        self.next_seed += 1;
        let core = self.deal_new(seed);
        let g = &mut self.games[i];
        g.core = core;
        g.hands_done = 0;
        seed
    }
}

/// Per side, the finished hand's score difference (`_common.score_values`).
pub(crate) fn score_values(c: &Core, out: &mut [f64]) {
    let res = c.result.as_ref().unwrap();
    let scores: Vec<i64> = res.scores.iter().map(|rows| rows.iter().map(|x| x.2).sum()).collect();
    let n = scores.len();
    let total: i64 = scores.iter().sum();
    for s in 0..n {
        out[s] = if n < 2 { scores[s] as f64 } else { scores[s] as f64 - (total - scores[s]) as f64 / (n - 1) as f64 };
    }
}

/// Per side, +1 for a winner and -1 for the others, 0 on a tie of all (`_common.win_values`).
pub(crate) fn win_values(c: &Core, n_sides: usize, out: &mut [f64]) {
    let totals = &c.totals[..n_sides];
    let mut win = [false; MAXP];
    if c.phase == PH_GAME_OVER {
        for &w in c.winners.iter() {
            win[w as usize] = true;
        }
    } else {
        let best = *totals.iter().max().unwrap();
        for s in 0..n_sides {
            win[s] = totals[s] == best;
        }
    }
    let k = win[..n_sides].iter().filter(|&&w| w).count();
    for s in 0..n_sides {
        out[s] = if k == n_sides || k == 0 { 0.0 } else if win[s] { 1.0 } else { -1.0 };
    }
}

/// `vec_new(rules, R, layout, num_envs, game_episode, win_reward, max_hands, illegal,
/// illegal_reward)`: the games (dealt at the first `vec_step`).
pub unsafe extern "C" fn f_vec_new(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    crate::guard::guarded(|| {
        let a = nargs(a, n, 9, "vec_new")?;
        let rules = unsafe { rules_of(a[0]) }?;
        let _ = unsafe { layout_of(a[2]) }?;
        let num = int_of(a[3])?.max(1) as usize;
        let illegal = match int_of(a[7])? {
            0 => Illegal::Raise,
            1 => Illegal::Penalty,
            _ => Illegal::Terminate,
        };
        let env = VecEnv {
            rules,
            py_rules: Obj::borrowed(a[1]),
            layout: Obj::borrowed(a[2]),
            games: Vec::with_capacity(num),
            game_episode: Obj::borrowed(a[4]).truth()?,
            win_reward: Obj::borrowed(a[5]).truth()?,
            max_hands: int_of(a[6])?,
            illegal,
            illegal_reward: unsafe { PyFloat_AsDouble(a[8]) } as f32,
            next_seed: 0,
            vector: Vec::new(),
        };
        if !unsafe { PyErr_Occurred() }.is_null() {
            return Err(PyErr);
        }
        let mut env = env;
        env.games.reserve(num);
        let b = Box::into_raw(Box::new(RefCell::new((env, num))));
        Obj::new(unsafe { PyCapsule_New(b as *mut c_void, VEC.as_ptr(), Some(drop_vec)) })
    })
}

unsafe extern "C" fn drop_vec(cap: *mut PyObject) {
    unsafe {
        let p = PyCapsule_GetPointer(cap, VEC.as_ptr()) as *mut RefCell<(VecEnv, usize)>;
        if !p.is_null() {
            drop(Box::from_raw(p));
        }
    }
}

unsafe fn env_of<'a>(cap: *mut PyObject) -> PyResult<&'a RefCell<(VecEnv, usize)>> {
    let p = unsafe { PyCapsule_GetPointer(cap, VEC.as_ptr()) } as *mut RefCell<(VecEnv, usize)>;
    if p.is_null() {
        return Err(PyErr);
    }
    Ok(unsafe { &*p })
}

/// `vec_step(env, actions, seed, obs, masks, seats, rewards, terms, truncs)`: with `actions`
/// None, deal every game (game i: `seed + i`); else play `actions[i]` in game i. Then write
/// every game's row. Returns the events of the call: `(game, position, hand_over, ended,
/// new_seed)` for each game whose hand ended (`hand_over`) or whose episode ended on an illegal
/// action (`ended`: 0 no, 1 terminated, 2 truncated; `new_seed` the seed it was dealt anew
/// with, else -1); or `(game, -1)` at the first illegal action with `illegal` "raise" (the
/// games before it have been played, the others not).
pub unsafe extern "C" fn f_vec_step(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    crate::guard::guarded(|| {
        let a = nargs(a, n, 9, "vec_step")?;
        let cell = unsafe { env_of(a[0]) }?;
        let mut guard = cell.try_borrow_mut().map_err(|_| value_error("the vector environment is in use"))?;
        let (env, num) = &mut *guard;
        let num = *num;
        let lay: &Layout = unsafe { layout_of(env.layout.ptr()) }?;
        let p = lay.players;
        let ns = env.rules.n_sides;
        let mut obs = Buf::get(a[3], "observations", Elem::F32, 4 * lay.size * num)?;
        let mut masks = Buf::get(a[4], "action_masks", Elem::I8, lay.action_size * num)?;
        let mut seats = Buf::get(a[5], "seats", Elem::I64, 8 * num)?;
        let mut rewards = Buf::get(a[6], "rewards", Elem::F32Only, 4 * p * num)?;
        let mut terms = Buf::get(a[7], "terminations", Elem::Flag, num)?;
        let mut truncs = Buf::get(a[8], "truncations", Elem::Flag, num)?;
        let mut events: Vec<Obj> = vec![];
        let mut rw = vec![0f32; p * num];
        terms.bytes().fill(0);
        truncs.bytes().fill(0);
        if unsafe { is_none(a[1]) } {
            env.next_seed = int_of(a[2])?;
            env.games.clear();
            for _ in 0..num {
                let seed = env.next_seed;
                env.next_seed += 1;
                let core = env.deal_new(seed);
                env.games.push(Game { core, hands_done: 0, legal: Vec::with_capacity(64), reader: Box::default() });
            }
        } else {
            if env.games.len() != num {
                return Err(value_error("call reset() before step()"));
            }
            let acts = Buf::get(a[1], "actions", Elem::I64, 8 * num)?;
            let mut values = [0f64; MAXP];
            for i in 0..num {
                let id = acts.read_i64(i);
                let c = &env.games[i].core;
                if id < 0 || id as usize >= lay.action_size || !env.games[i].legal.contains(&(id as u32)) {
                    if env.illegal == Illegal::Raise {
                        rewards.write_f32s(0, &rw);
                        return Ok(tuple(vec![tuple(vec![int(i as i64), int(-1)])]));
                    }
                    rw[i * p + c.player.max(0) as usize] += env.illegal_reward;
                    if env.illegal == Illegal::Terminate {
                        terms.bytes()[i] = 1;
                        let old = crate::coreobj::wrap(c.clone())?;
                        let seed = env.fresh(i);
                        events.push(tuple(vec![int(i as i64), old, boolean(false), int(1), int(seed)]));
                    }
                    continue;
                }
                let nxt = crate::apply::apply_id(c, id as u32);
                if nxt.phase < PH_HAND_OVER {
                    env.games[i].core = nxt;
                    continue;
                }
                env.games[i].hands_done += 1;
                let hands_done = env.games[i].hands_done;
                let mut any = false;
                if !env.win_reward {
                    score_values(&nxt, &mut values);
                    any = true;
                }
                let end = !env.game_episode || nxt.phase == PH_GAME_OVER;
                let truncate = !end && hands_done >= env.max_hands;
                if end && env.win_reward {
                    win_values(&nxt, ns, &mut values);
                    any = true;
                }
                if any {
                    for s in 0..p {
                        rw[i * p + s] += values[env.rules.side_of[s] as usize] as f32;
                    }
                }
                let old = crate::coreobj::wrap(nxt.clone())?;
                if end || truncate {
                    (if end { &mut terms } else { &mut truncs }).bytes()[i] = 1;
                    let seed = env.fresh(i);
                    events.push(tuple(vec![int(i as i64), old, boolean(true), int(if end { 1 } else { 2 }), int(seed)]));
                } else {
                    env.games[i].core = env.next_hand(&nxt);
                    events.push(tuple(vec![int(i as i64), old, boolean(true), int(0), int(-1)]));
                }
            }
        }
        rewards.write_f32s(0, &rw);
        let a = lay.action_size;
        for i in 0..num {
            let g = &mut env.games[i];
            let c = &g.core;
            let seat = c.player.max(0) as usize;
            seats.write_i64(i, c.player as i64);
            write_vector(lay, c, seat, &mut obs, i * lay.size, &mut g.reader, &mut env.vector)?;
            g.legal.clear();
            crate::legal::legal_ids(c, &mut g.legal);
            let row = &mut masks.bytes()[i * a..(i + 1) * a];
            row.fill(0);
            for &id in &g.legal {
                row[id as usize] = 1;
            }
        }
        Ok(tuple(events))
    })
}

/// `vec_get(env)`: every game's position (native `Core` objects).
pub unsafe extern "C" fn f_vec_get(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    crate::guard::guarded(|| {
        let a = nargs(a, n, 1, "vec_get")?;
        let cell = unsafe { env_of(a[0]) }?;
        let g = cell.try_borrow().map_err(|_| value_error("the vector environment is in use"))?;
        let mut out = vec![];
        for game in &g.0.games {
            out.push(crate::coreobj::wrap(game.core.clone())?);
        }
        Ok(tuple(out))
    })
}

