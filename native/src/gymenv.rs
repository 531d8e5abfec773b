//! The Gymnasium environment (`canasta/envs/_gymnasium.py`) stepped natively where every seat
//! but the learned one is a built-in bot (`"random"`, `"greedy"`, `bots.rs`): one call plays
//! the learned seat's action, the bots up to its next decision (dealing the next hand of a
//! game episode, skipping the hands of a one-hand episode played before its first decision),
//! and writes its observation and mask into the caller's arrays, with the reward and the
//! episode's end, exactly as the Python loop of `CanastaGymEnv` computes them.
//! `gym_vec_step` steps many such games in one call (`_gymvector.py`), with the same-step
//! autoreset.
//!
//! The Python side keeps what happens seldom: each call returns the positions of the hands that
//! ended in it (their results are read in Python).

use crate::args::nargs;
use crate::bots::{greedy_choose, Bot, Kind, Mt};
use crate::buffer::{Buf, Elem};
use crate::ffi::*;
use crate::guard::guarded;
use crate::kernel::*;
use crate::legal::legal_ids;
use crate::obs::{layout_of, write_vector, Layout, Reader};
use crate::py::*;
use crate::rules::Rules;
use crate::rulesobj::rules_of;
use crate::seatbots::CallPlanner;
use crate::vecenv::{deal_new, next_hand, score_values, win_values};
use std::cell::RefCell;
use std::ffi::{c_void, CStr};
use std::rc::Rc;

const GYM: &CStr = c"canasta._native.GymEnv";

/// Games a reset may skip because they end before the learned seat gets to act (as
/// `_gymnasium._MAX_SKIPPED`).
const MAX_SKIPPED: usize = 100;

/// What an illegal action does (`canasta.envs.ILLEGAL`).
#[derive(Clone, Copy, PartialEq)]
enum Illegal {
    Raise,
    Penalty,
    Terminate,
}

/// The options every game of an environment shares.
struct Cfg {
    rules: Rc<Rules>,
    py_rules: Obj,
    layout: Obj,
    seat: usize,
    side: usize,
    kinds: Vec<Kind>,
    game_episode: bool,
    win_reward: bool,
    max_hands: i64,
    illegal: Illegal,
    illegal_reward: f64,
}

/// One game: `CanastaGymEnv`'s state.
struct Game {
    core: Option<Core>,
    /// per seat its bot (the learned seat's is never asked)
    bots: Vec<Bot>,
    /// the learned seat's legal ids at its decision (its mask; the next step's legality check)
    legal: Vec<u32>,
    ids: Vec<u32>,
    /// the hand's history read on, one action at a time (the vector's known cards)
    reader: Box<Reader>,
    vector: Vec<f32>,
    acted: bool,
    done: bool,
    terminated: bool,
    truncated: bool,
    /// the reward earned before the learned seat's first decision (paid with its first step)
    carry: f64,
    /// the finished hands recorded since the caller last took them (positions)
    hands: Vec<Obj>,
    /// the hands of this episode already handed to the caller
    taken: i64,
    deal_seed: i64,
    next_seed: i64,
}

/// `random.Random(seed)`'s key (`_playout.seed_key`).
fn key(seed: i128) -> Vec<u32> {
    let mut n = seed.unsigned_abs();
    let mut out = vec![(n & 0xFFFF_FFFF) as u32];
    n >>= 32;
    while n != 0 {
        out.push((n & 0xFFFF_FFFF) as u32);
        n >>= 32;
    }
    out
}

fn runtime(msg: &str) -> PyErr {
    raise(unsafe { PyExc_RuntimeError }, msg)
}

impl Game {
    fn new(cfg: &Cfg) -> Game {
        let players = cfg.kinds.len();
        Game {
            core: None,
            bots: (0..players).map(|s| Bot { kind: cfg.kinds[s], rng: Mt::from_state(&[0; 624], 624) }).collect(),
            legal: Vec::with_capacity(64),
            ids: Vec::with_capacity(64),
            reader: Box::default(),
            vector: Vec::new(),
            acted: false,
            done: false,
            terminated: false,
            truncated: false,
            carry: 0.0,
            hands: vec![],
            taken: 0,
            deal_seed: 0,
            next_seed: 0,
        }
    }

    /// `CanastaGymEnv._start`: the game of `seed` dealt, its bots seeded from it
    /// (`seed * 1000 + seat`, as their Python twins).
    fn start(&mut self, cfg: &Cfg, seed: i64) -> PyResult<()> {
        self.deal_seed = seed;
        let core = deal_new(&cfg.rules, &cfg.py_rules, seed);
        self.reader.sync(&core)?;
        self.core = Some(core);
        self.hands.clear();
        self.taken = 0;
        self.acted = false;
        self.done = false;
        self.terminated = false;
        self.truncated = false;
        let keys: Vec<Vec<u32>> = (0..self.bots.len()).map(|s| key(seed as i128 * 1000 + s as i128)).collect();
        Mt::reseed(&mut self.bots.iter_mut().map(|b| &mut b.rng).collect::<Vec<_>>(), &keys);
        Ok(())
    }

    /// `CanastaGymEnv._advance`: the bots play until the learned seat is to act or the
    /// episode ends; the learned side's reward meanwhile.
    fn advance(&mut self, cfg: &Cfg, planner: &mut CallPlanner) -> PyResult<f64> {
        let mut reward = 0.0;
        let mut values = [0f64; MAXP];
        loop {
            let c = self.core.as_ref().unwrap();
            if c.phase >= PH_HAND_OVER {
                // a hand before the agent's first decision is not part of a one-hand episode
                let warmup = !self.acted && !cfg.game_episode;
                if !warmup {
                    self.hands.push(crate::coreobj::wrap(c.clone())?);
                    if !cfg.win_reward {
                        score_values(c, &mut values);
                        reward += values[cfg.side];
                    }
                }
                let end = (!cfg.game_episode && !warmup) || c.phase == PH_GAME_OVER;
                if end || self.hands_in_episode() >= cfg.max_hands {
                    if end && cfg.win_reward {
                        win_values(c, cfg.rules.n_sides, &mut values);
                        reward += values[cfg.side];
                    }
                    self.done = true;
                    self.terminated = end;
                    self.truncated = !end;
                    break;
                }
                let nxt = next_hand(&cfg.rules, &cfg.py_rules, c);
                self.reader.sync(&nxt)?;
                self.core = Some(nxt);
                continue;
            }
            let p = c.player;
            if p < 0 || p as usize == cfg.seat {
                break;
            }
            let bot = &mut self.bots[p as usize];
            self.ids.clear();
            legal_ids(c, &mut self.ids);
            if self.ids.is_empty() {
                return Err(runtime(&format!("seat {p} is to act with no legal action")));
            }
            let id = match bot.kind {
                Kind::Random => self.ids[bot.rng.below(self.ids.len())],
                Kind::Greedy => match greedy_choose(c, &self.ids, &mut bot.rng, planner) {
                    Ok(x) => x,
                    Err(_) if planner.failed => return Err(PyErr),
                    Err(e) => return Err(runtime(&e)),
                },
            };
            let nxt = crate::apply::apply_id(c, id);
            self.reader.sync(&nxt)?;
            self.core = Some(nxt);
        }
        Ok(reward)
    }

    /// The hands of this episode recorded so far (`len(hand_results)`).
    fn hands_in_episode(&self) -> i64 {
        self.hands.len() as i64 + self.taken
    }

    /// `CanastaGymEnv.reset`'s loop: deal `seed`, `seed + 1`, ... until a game in which the
    /// learned seat gets to act.
    fn reset(&mut self, cfg: &Cfg, planner: &mut CallPlanner, seed: i64) -> PyResult<()> {
        self.next_seed = seed;
        for _ in 0..MAX_SKIPPED {
            let s = self.next_seed;
            self.next_seed = s.checked_add(1).ok_or_else(|| value_error("seed: out of the native core's range"))?;
            self.start(cfg, s)?;
            self.carry = self.advance(cfg, planner)?;
            if !self.done {
                return Ok(());
            }
        }
        Err(runtime(&format!("seat {} did not get to act in {MAX_SKIPPED} games", cfg.seat)))
    }

    /// `CanastaGymEnv._act`: (the reward, whether the action was illegal), None for an illegal
    /// action under `illegal="raise"` (nothing changed but the reward carried, as in Python).
    fn act(&mut self, cfg: &Cfg, planner: &mut CallPlanner, lay: &Layout, aid: i64) -> PyResult<Option<(f64, bool)>> {
        if self.core.is_none() {
            return Err(runtime("call reset() before step()"));
        }
        if self.done {
            return Err(runtime("the episode is over: call reset()"));
        }
        let reward = self.carry;
        self.carry = 0.0;
        if aid < 0 || aid as usize >= lay.action_size || !self.legal.contains(&(aid as u32)) {
            match cfg.illegal {
                Illegal::Raise => return Ok(None),
                Illegal::Terminate => {
                    self.done = true;
                    self.terminated = true;
                }
                Illegal::Penalty => {}
            }
            return Ok(Some((reward + cfg.illegal_reward, true)));
        }
        let nxt = crate::apply::apply_id(self.core.as_ref().unwrap(), aid as u32);
        self.reader.sync(&nxt)?;
        self.core = Some(nxt);
        self.acted = true;
        let more = self.advance(cfg, planner)?;
        Ok(Some((reward + more, false)))
    }

    /// The learned seat's vector into `obs` at row `row`, its mask into `mask` (all zeros once
    /// the episode is over).
    fn observe(&mut self, cfg: &Cfg, lay: &Layout, obs: &mut Buf, mask: &mut Buf, row: usize) -> PyResult<()> {
        let c = self.core.as_ref().unwrap();
        write_vector(lay, c, cfg.seat, obs, row * lay.size, &mut self.reader, &mut self.vector)?;
        let a = lay.action_size;
        let m = &mut mask.bytes()[row * a..(row + 1) * a];
        m.fill(0);
        self.legal.clear();
        if !self.done && c.player == cfg.seat as i32 {
            legal_ids(c, &mut self.legal);
            for &id in &self.legal {
                m[id as usize] = 1;
            }
        }
        Ok(())
    }

    /// The hands recorded since the last call, as a tuple of positions.
    fn take_hands(&mut self) -> Obj {
        self.taken += self.hands.len() as i64;
        tuple(std::mem::take(&mut self.hands))
    }
}

/// A capsule's contents: the options, GreedyBot's planner callback and the game.
struct GymEnv {
    cfg: Cfg,
    planner: CallPlanner,
    game: Game,
}

unsafe extern "C" fn drop_gym(cap: *mut PyObject) {
    unsafe {
        let p = PyCapsule_GetPointer(cap, GYM.as_ptr()) as *mut RefCell<GymEnv>;
        if !p.is_null() {
            drop(Box::from_raw(p));
        }
    }
}

unsafe fn env_of<'a>(cap: *mut PyObject) -> PyResult<&'a RefCell<GymEnv>> {
    let p = unsafe { PyCapsule_GetPointer(cap, GYM.as_ptr()) } as *mut RefCell<GymEnv>;
    if p.is_null() {
        return Err(PyErr);
    }
    Ok(unsafe { &*p })
}

fn in_use() -> PyErr {
    value_error("the environment is in use")
}

/// `gym_new(rules, R, layout, seat, kinds, game_episode, win_reward, max_hands, illegal,
/// illegal_reward, planner)`: one game of `CanastaGymEnv` (dealt at the first `gym_reset`);
/// `kinds` per seat the kind of its bot (0 random, 1 greedy; the learned seat's is ignored),
/// `illegal` the index in `ILLEGAL`, `planner(core, seat)` as for `play_to`.
pub unsafe extern "C" fn f_gym_new(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 11, "gym_new")?;
        let rules = unsafe { rules_of(a[0]) }?;
        let lay = unsafe { layout_of(a[2]) }?;
        let players = rules.players;
        if lay.players != players {
            return Err(value_error("gym_new: the layout is of another table"));
        }
        let seat = int_of(a[3])?;
        if !(0..players as i64).contains(&seat) {
            return Err(value_error("gym_new: seat out of range"));
        }
        let kinds = ints(&Obj::borrowed(a[4]))?;
        if kinds.len() != players {
            return Err(value_error("gym_new: one bot kind per seat"));
        }
        let kinds: Vec<Kind> = kinds.iter().map(|&k| if k == 1 { Kind::Greedy } else { Kind::Random }).collect();
        let illegal = match int_of(a[8])? {
            0 => Illegal::Raise,
            1 => Illegal::Penalty,
            _ => Illegal::Terminate,
        };
        let illegal_reward = unsafe { PyFloat_AsDouble(a[9]) };
        if !unsafe { PyErr_Occurred() }.is_null() {
            return Err(PyErr);
        }
        let side = rules.side_of[seat as usize] as usize;
        let cfg = Cfg {
            rules,
            py_rules: Obj::borrowed(a[1]),
            layout: Obj::borrowed(a[2]),
            seat: seat as usize,
            side,
            kinds,
            game_episode: Obj::borrowed(a[5]).truth()?,
            win_reward: Obj::borrowed(a[6]).truth()?,
            max_hands: int_of(a[7])?,
            illegal,
            illegal_reward,
        };
        let game = Game::new(&cfg);
        let env = GymEnv { cfg, planner: CallPlanner { callback: Obj::borrowed(a[10]), failed: false }, game };
        let b = Box::into_raw(Box::new(RefCell::new(env)));
        Obj::new(unsafe { PyCapsule_New(b as *mut c_void, GYM.as_ptr(), Some(drop_gym)) })
    })
}

/// `gym_reset(env, seed, obs, mask)`: deal `seed` (or the next seeds, up to the first game in
/// which the learned seat acts), play the bots to its first decision, write its vector and
/// mask; returns `(deal_seed, hands)`, the hands the positions of the episode's hands already
/// over (a game episode's hands played before the learned seat's first decision).
pub unsafe extern "C" fn f_gym_reset(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 4, "gym_reset")?;
        let cell = unsafe { env_of(a[0]) }?;
        let mut guard = cell.try_borrow_mut().map_err(|_| in_use())?;
        let GymEnv { cfg, planner, game } = &mut *guard;
        let lay = unsafe { layout_of(cfg.layout.ptr()) }?;
        let seed = int_of(a[1])?;
        let mut obs = Buf::get(a[2], "observation", Elem::F32, 4 * lay.size)?;
        let mut mask = Buf::get(a[3], "action_mask", Elem::I8, lay.action_size)?;
        planner.failed = false;
        game.reset(cfg, planner, seed)?;
        game.observe(cfg, lay, &mut obs, &mut mask, 0)?;
        Ok(tuple(vec![int(game.deal_seed), game.take_hands()]))
    })
}

/// `gym_step(env, action, obs, mask)`: play `action` (an int) for the learned seat and the
/// bots after it, write its vector and mask; returns `(reward, terminated, truncated,
/// illegal, hands)` (hands: the positions of the hands that ended), or None for an illegal
/// action under `illegal="raise"` (the caller raises the error `GameState.apply` raises).
pub unsafe extern "C" fn f_gym_step(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 4, "gym_step")?;
        let cell = unsafe { env_of(a[0]) }?;
        let mut guard = cell.try_borrow_mut().map_err(|_| in_use())?;
        let GymEnv { cfg, planner, game } = &mut *guard;
        let lay = unsafe { layout_of(cfg.layout.ptr()) }?;
        let aid = action_id(a[1])?;
        let mut obs = Buf::get(a[2], "observation", Elem::F32, 4 * lay.size)?;
        let mut mask = Buf::get(a[3], "action_mask", Elem::I8, lay.action_size)?;
        planner.failed = false;
        let Some((reward, illegal)) = game.act(cfg, planner, lay, aid)? else { return Ok(Obj::none()) };
        game.observe(cfg, lay, &mut obs, &mut mask, 0)?;
        Ok(tuple(vec![float(reward), boolean(game.terminated), boolean(game.truncated && !illegal), boolean(illegal),
                      game.take_hands()]))
    })
}

/// An action id as given (an int; one too large for 64 bits is no legal id: -1).
fn action_id(o: *mut PyObject) -> PyResult<i64> {
    let mut overflow = 0;
    let v = unsafe { PyLong_AsLongLongAndOverflow(o, &mut overflow) };
    if overflow != 0 {
        return Ok(-1);
    }
    if v == -1 && !unsafe { PyErr_Occurred() }.is_null() {
        return Err(PyErr);
    }
    Ok(v)
}

/// `gym_state(env)`: the game's position (a native `Core`), None before the first reset.
pub unsafe extern "C" fn f_gym_state(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 1, "gym_state")?;
        let cell = unsafe { env_of(a[0]) }?;
        let g = cell.try_borrow().map_err(|_| in_use())?;
        match &g.game.core {
            Some(c) => crate::coreobj::wrap(c.clone()),
            None => Ok(Obj::none()),
        }
    })
}

/// `gym_mask(env, out)`: the learned seat's legal-action mask (one byte an id, all zeros once
/// the episode is over) into `out`, from the legal ids of its last observation.
pub unsafe extern "C" fn f_gym_mask(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 2, "gym_mask")?;
        let cell = unsafe { env_of(a[0]) }?;
        let g = cell.try_borrow().map_err(|_| in_use())?;
        let lay = unsafe { layout_of(g.cfg.layout.ptr()) }?;
        let mut out = Buf::get(a[1], "out", Elem::I8, lay.action_size)?;
        let m = out.bytes();
        m.fill(0);
        for &id in &g.game.legal {
            m[id as usize] = 1;
        }
        Ok(Obj::none())
    })
}

/// `gym_vec_step(envs, actions, obs, masks, rewards, terms, truncs, next_seed)`: `gym_step`
/// for each game `i` of the tuple `envs` with `actions[i]` (int64), its row written into row
/// `i` of `obs` and `masks`, its reward into `rewards[i]` (a float64 array seen as int64), its
/// episode's end into `terms[i]`/`truncs[i]`; a game whose episode ends is reset in the same
/// call (`gym_reset` with `next_seed`, then `next_seed + 1`, ...; None: the game's own next
/// seed). Returns `(events, next_seed)`, an event `(i, illegal, hands, final, deal_seed,
/// new_hands, new_seed)` for each game whose step was illegal or ended a hand (`final` the
/// episode's last position if it ended, else None; `deal_seed` the seed of the game played;
/// `new_hands`/`new_seed` those of the episode begun, else () and -1), or `(i, None)` for the
/// first illegal action under `illegal="raise"` (the games before it are played, the others
/// not).
pub unsafe extern "C" fn f_gym_vec_step(_m: *mut PyObject, a: *const *mut PyObject, n: Py_ssize_t) -> *mut PyObject {
    guarded(|| {
        let a = nargs(a, n, 8, "gym_vec_step")?;
        let envs = Obj::borrowed(a[0]).items()?;
        let num = envs.len();
        if num == 0 {
            return Err(value_error("gym_vec_step: no games"));
        }
        let first = unsafe { env_of(envs[0].ptr()) }?;
        let lay: &Layout = {
            let g = first.try_borrow().map_err(|_| in_use())?;
            unsafe { layout_of(g.cfg.layout.ptr()) }?
        };
        let acts = Buf::get(a[1], "actions", Elem::I64, 8 * num)?;
        let mut obs = Buf::get(a[2], "observations", Elem::F32, 4 * lay.size * num)?;
        let mut masks = Buf::get(a[3], "action_masks", Elem::I8, lay.action_size * num)?;
        let mut rewards = Buf::get(a[4], "rewards", Elem::I64, 8 * num)?;
        let mut terms = Buf::get(a[5], "terminations", Elem::Flag, num)?;
        let mut truncs = Buf::get(a[6], "truncations", Elem::Flag, num)?;
        let mut next_seed = if unsafe { is_none(a[7]) } { None } else { Some(int_of(a[7])?) };
        let mut events: Vec<Obj> = vec![];
        for i in 0..num {
            let cell = unsafe { env_of(envs[i].ptr()) }?;
            let mut guard = cell.try_borrow_mut().map_err(|_| in_use())?;
            let GymEnv { cfg, planner, game } = &mut *guard;
            let glay = unsafe { layout_of(cfg.layout.ptr()) }?;
            if glay.size != lay.size || glay.action_size != lay.action_size {
                return Err(value_error("gym_vec_step: the games are of different tables"));
            }
            let lay = glay;
            planner.failed = false;
            let Some((reward, illegal)) = game.act(cfg, planner, lay, acts.read_i64(i))? else {
                events.push(tuple(vec![int(i as i64), Obj::none()]));
                return Ok(tuple(vec![tuple(events), next_seed.map_or_else(Obj::none, int)]));
            };
            rewards.write_i64(i, reward.to_bits() as i64);
            let (term, trunc) = (game.terminated, game.truncated && !illegal);
            terms.bytes()[i] = term as u8;
            truncs.bytes()[i] = trunc as u8;
            if !illegal && game.hands.is_empty() {
                game.observe(cfg, lay, &mut obs, &mut masks, i)?;
                continue;
            }
            let hands = game.take_hands();
            let played = game.deal_seed;
            if term || trunc {
                let fin = crate::coreobj::wrap(game.core.as_ref().unwrap().clone())?;
                let seed = match next_seed {
                    Some(s) => {
                        next_seed = Some(s + 1);
                        s
                    }
                    None => game.next_seed,
                };
                game.reset(cfg, planner, seed)?;
                let new_hands = game.take_hands();
                events.push(tuple(vec![int(i as i64), boolean(illegal), hands, fin, int(played), new_hands,
                                       int(game.deal_seed)]));
            } else {
                events.push(tuple(vec![int(i as i64), boolean(illegal), hands, Obj::none(), int(played), tuple(vec![]),
                                       int(-1)]));
            }
            game.observe(cfg, lay, &mut obs, &mut masks, i)?;
        }
        Ok(tuple(vec![tuple(events), next_seed.map_or_else(Obj::none, int)]))
    })
}
