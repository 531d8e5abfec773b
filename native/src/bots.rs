//! The built-in bots, for whole playouts in native code (`canasta/_bots.py`): `RandomBot` and
//! `GreedyBot`'s policy, ported choice for choice, with Python's own generator (`random.Random`,
//! MT19937 seeded the same way), so that a seed gives the same choices on either core.

use crate::apply::apply_id_mut;
use crate::cards::*;
use crate::kernel::*;
use crate::legal::legal_ids;
use crate::plan::can_go_out;
use crate::rules::*;

// ------------------------------------------------------------------ Python's random.Random

const N: usize = 624;
const M: usize = 397;

/// MT19937 as CPython's `random.Random` runs it (`_randommodule.c`).
///
/// The state is twisted lazily, one word as it is read (`twisted` words of the current round
/// are done): the words come out in the same order, and a bot seeded for one deal that reads
/// a few dozen of them does not twist all 624.
#[derive(Clone)]
pub struct Mt {
    state: [u32; N],
    index: usize,
    twisted: usize,
}

/// Seeds `random.Random` for this many keys at once in `Mt::from_keys`.
const LANES: usize = 4;

thread_local! {
    /// `Mt::reseed`'s work: `LANES` generators' states side by side (10 KB), kept for the next.
    static LANE_STATE: std::cell::RefCell<Option<Box<[[u32; LANES]; N]>>> = const { std::cell::RefCell::new(None) };
}

impl Mt {
    fn init_genrand(s: u32) -> Mt {
        let mut mt = [0u32; N];
        mt[0] = s;
        for i in 1..N {
            mt[i] = 1812433253u32.wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_add(i as u32);
        }
        Mt { state: mt, index: N, twisted: N }
    }

    fn base() -> &'static Mt {
        // init_by_array starts from init_genrand(19650218), the same for every seed
        static BASE: std::sync::OnceLock<Mt> = std::sync::OnceLock::new();
        BASE.get_or_init(|| Mt::init_genrand(19650218))
    }

    /// `random.Random(seed)` for an int seed: `key` is `abs(seed)` in 32-bit words, least
    /// significant first (one word 0 for the seed 0).
    pub fn from_key(key: &[u32]) -> Mt {
        let mut m = Mt::base().clone();
        let mt = &mut m.state;
        let (mut i, mut j) = (1usize, 0usize);
        let len = key.len().max(1);
        let mut k = N.max(len);
        while k > 0 {
            let kj = if key.is_empty() { 0 } else { key[j] };
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1664525)).wrapping_add(kj).wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= len {
                j = 0;
            }
            k -= 1;
        }
        k = N - 1;
        while k > 0 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1566083941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            k -= 1;
        }
        mt[0] = 0x80000000;
        m
    }

    /// `random.Random(seed)` for many seeds: the same generators as `from_key` gives one by
    /// one. Keys of one word (seeds below 2**32) are seeded `LANES` at a time, side by side:
    /// init_by_array is a chain of 1,248 dependent multiplications, and independent chains
    /// run together (it was 9% of `simulate`'s time with random bots, four seeds a deal).
    pub fn from_keys(keys: &[Vec<u32>]) -> Vec<Mt> {
        let mut out = vec![Mt { state: [0; N], index: N, twisted: N }; keys.len()];
        Mt::reseed(&mut out.iter_mut().collect::<Vec<_>>(), keys);
        out
    }

    /// Seed each of `gens` with its key as `from_keys` does, in place (a deal's bots are
    /// reseeded where they are, rather than 2.5 KB generators built and moved for each).
    pub fn reseed(gens: &mut [&mut Mt], keys: &[Vec<u32>]) {
        let mut at = 0;
        while at < keys.len() {
            let end = (at + LANES).min(keys.len());
            if end - at == LANES && keys[at..end].iter().all(|k| k.len() == 1) {
                let mut words = [0u32; LANES];
                for l in 0..LANES {
                    words[l] = keys[at + l][0];
                }
                LANE_STATE.with(|buf| {
                    let mut buf = buf.borrow_mut();
                    let mt = buf.get_or_insert_with(|| Box::new([[0u32; LANES]; N]));
                    Mt::lanes(&words, mt, &mut gens[at..end]);
                });
            } else {
                for k in at..end {
                    *gens[k] = Mt::from_key(&keys[k]);
                }
            }
            at = end;
        }
    }

    /// init_by_array for `LANES` keys of one word side by side (`mt`: room for the work), lane
    /// `l` giving `gens[l]` the state of `from_key(&[words[l]])` (the steps visit the same
    /// positions for every key of one word: only the key word differs). With SSE4.1 where the
    /// processor has it (a multiplication of four words in one instruction).
    fn lanes(words: &[u32; LANES], mt: &mut [[u32; LANES]; N], gens: &mut [&mut Mt]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("sse4.1") {
            // SAFETY: the processor has SSE4.1 (checked just above)
            unsafe { Mt::lanes_sse41(words, mt, gens) };
            return;
        }
        Mt::lanes_any(words, mt, gens);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "sse4.1")]
    unsafe fn lanes_sse41(words: &[u32; LANES], mt: &mut [[u32; LANES]; N], gens: &mut [&mut Mt]) {
        Mt::lanes_any(words, mt, gens);
    }

    #[inline(always)]
    fn lanes_any(words: &[u32; LANES], mt: &mut [[u32; LANES]; N], gens: &mut [&mut Mt]) {
        // init_by_array's two loops with their wrap-arounds unrolled (a key of one word: the key
        // index stays 0): the first steps i = 1 .. N-1 (from init_genrand(19650218)'s words,
        // the same for every key), then 1 again; the second 2 .. N-1, then 1 again.
        #[inline(always)]
        fn first(prev: [u32; LANES], cur: [u32; LANES], words: &[u32; LANES]) -> [u32; LANES] {
            let mut out = [0u32; LANES];
            for l in 0..LANES {
                out[l] = (cur[l] ^ (prev[l] ^ (prev[l] >> 30)).wrapping_mul(1664525)).wrapping_add(words[l]);
            }
            out
        }
        #[inline(always)]
        fn second(prev: [u32; LANES], cur: [u32; LANES], i: usize) -> [u32; LANES] {
            let mut out = [0u32; LANES];
            for l in 0..LANES {
                out[l] = (cur[l] ^ (prev[l] ^ (prev[l] >> 30)).wrapping_mul(1566083941)).wrapping_sub(i as u32);
            }
            out
        }
        let base = &Mt::base().state;
        mt[0] = [base[0]; LANES];
        for i in 1..N {
            mt[i] = first(mt[i - 1], [base[i]; LANES], words);
        }
        mt[0] = mt[N - 1];
        mt[1] = first(mt[0], mt[1], words);
        for i in 2..N {
            mt[i] = second(mt[i - 1], mt[i], i);
        }
        mt[0] = mt[N - 1];
        mt[1] = second(mt[0], mt[1], 1);
        Mt::scatter(mt, gens);
        for g in gens.iter_mut() {
            g.state[0] = 0x80000000;
            g.index = N;
            g.twisted = N;
        }
    }

    /// Lane `l` of every position of `mt` to `gens[l]`'s state: 4 x 4 blocks transposed.
    #[inline(always)]
    fn scatter(mt: &[[u32; LANES]; N], gens: &mut [&mut Mt]) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            const _: () = assert!(LANES == 4 && N % 4 == 0);
            let (g0, rest) = gens.split_first_mut().unwrap();
            let (g1, rest) = rest.split_first_mut().unwrap();
            let (g2, rest) = rest.split_first_mut().unwrap();
            let g3 = &mut rest[0];
            for b in (0..N).step_by(4) {
                // SAFETY: SSE2 is in every x86_64 processor; the loads read mt[b..b + 4] and the
                // stores write state[b..b + 4] of each generator, all in bounds (b + 4 <= N)
                unsafe {
                    let p = mt[b..b + 4].as_ptr() as *const __m128i;
                    let (r0, r1, r2, r3) =
                        (_mm_loadu_si128(p), _mm_loadu_si128(p.add(1)), _mm_loadu_si128(p.add(2)), _mm_loadu_si128(p.add(3)));
                    let t0 = _mm_unpacklo_epi32(r0, r1);
                    let t1 = _mm_unpacklo_epi32(r2, r3);
                    let t2 = _mm_unpackhi_epi32(r0, r1);
                    let t3 = _mm_unpackhi_epi32(r2, r3);
                    _mm_storeu_si128(g0.state[b..b + 4].as_mut_ptr() as *mut __m128i, _mm_unpacklo_epi64(t0, t1));
                    _mm_storeu_si128(g1.state[b..b + 4].as_mut_ptr() as *mut __m128i, _mm_unpackhi_epi64(t0, t1));
                    _mm_storeu_si128(g2.state[b..b + 4].as_mut_ptr() as *mut __m128i, _mm_unpacklo_epi64(t2, t3));
                    _mm_storeu_si128(g3.state[b..b + 4].as_mut_ptr() as *mut __m128i, _mm_unpackhi_epi64(t2, t3));
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        for (l, g) in gens.iter_mut().enumerate() {
            for k in 0..N {
                g.state[k] = mt[k][l];
            }
        }
    }

    /// The generator `random.Random.setstate` gives: the 624 words and the position of the
    /// next one.
    pub fn from_state(words: &[u32], index: usize) -> Mt {
        let mut state = [0u32; N];
        state.copy_from_slice(&words[..N]);
        Mt { state, index, twisted: N }
    }

    /// `random.Random.getstate()`'s words and position.
    pub fn state(&self) -> ([u32; N], usize) {
        let mut mt = self.state;
        if self.index < N {
            for kk in self.twisted..N {
                Mt::twist_word(&mut mt, kk);
            }
        }
        (mt, self.index)
    }

    #[inline]
    fn twist_word(mt: &mut [u32; N], kk: usize) {
        // in the order of the full twist: words before kk are new, those after it old
        let y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % N] & 0x7fffffff);
        let mag = if y & 1 == 1 { 0x9908b0df } else { 0 };
        mt[kk] = mt[(kk + M) % N] ^ (y >> 1) ^ mag;
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.index = 0;
            self.twisted = 0;
        }
        if self.index >= self.twisted {
            Mt::twist_word(&mut self.state, self.index);
            self.twisted = self.index + 1;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^= y >> 18;
        y
    }

    /// `random.random()`
    pub fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)
    }

    /// `random.getrandbits(k)`, k from 1 to 32
    pub fn getrandbits(&mut self, k: u32) -> u32 {
        self.next_u32() >> (32 - k)
    }

    /// `random._randbelow(n)` (`choice` picks `seq[_randbelow(len(seq))]`)
    pub fn below(&mut self, n: usize) -> usize {
        let k = usize::BITS - n.leading_zeros();
        let mut r = self.getrandbits(k) as usize;
        while r >= n {
            r = self.getrandbits(k) as usize;
        }
        r
    }
}

// ------------------------------------------------------------------ the greedy policy

#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    Random,
    Greedy,
}

/// A bot of a whole native playout: its policy and its generator.
#[derive(Clone)]
pub struct Bot {
    pub kind: Kind,
    pub rng: Mt,
}

/// Where a decision needs Python: GreedyBot plans its going out, from a player's down hand or
/// while taking the pile for an initial meld, in a state sampled from his observation
/// (`_resample._sample`), which only the Python side builds.
pub trait Planner {
    fn plan_state(&mut self, c: &Core, seat: usize) -> Result<Core, String>;
}

fn is_canasta_info(r: &Rules, m: &Meld) -> bool {
    m.size() >= r.cs && (m.rank == WILD || m.nat >= r.cmin_nat)
}

fn canasta_bonus(r: &Rules, m: &Meld) -> i64 {
    if !is_canasta_info(r, m) {
        return 0;
    }
    if m.rank == WILD {
        return r.wild_bonus as i64;
    }
    if m.rank >= SEQ {
        return r.seq_bonus as i64;
    }
    if let Some(&(_, pts)) = r.rank_bonus_by.iter().find(|x| x.0 == m.rank) {
        return pts as i64; // scoring.rank_canastas (mexicana 7.1: sevens, 1,000)
    }
    (if m.jk + m.tw == 0 { r.nat_bonus } else { r.mixed_bonus }) as i64
}

/// `_Info.table_value`: points a side has on the table.
fn table_value(r: &Rules, melds: &[Meld], red_threes: i32) -> i64 {
    let v = &r.values;
    let mut total: i64 = 0;
    for m in melds {
        if m.rank >= SEQ {
            let low = seq_low(m.rank) as i32;
            total += (low..low + m.nat).map(|x| v[x as usize] as i64).sum::<i64>();
        } else if m.rank != WILD {
            total += (m.nat * v[m.rank as usize]) as i64;
        }
        total += (m.jk * v[JK as usize] + m.tw * v[TWO as usize]) as i64 + canasta_bonus(r, m);
    }
    let n = red_threes;
    if n != 0 && !r.keep_r3 {
        let t = &r.r3_bonus;
        total += (if (n as usize) < t.len() { t[n as usize] } else { t[t.len() - 1] }) as i64;
    }
    total
}

fn ahead(c: &Core, side: usize) -> bool {
    let r = c.r();
    let standing = |s: usize| c.totals[s] + table_value(r, c.melds(s), c.red[s]);
    let mine = standing(side);
    (0..r.n_sides).filter(|&s| s != side).all(|s| mine >= standing(s))
}

fn is_melding(s: &Spec) -> bool {
    s.kind == MELD || s.kind == ADD || s.kind == COMBINE
}

fn meld_index_key(melds: &[Meld], rank: i32, number: i32) -> i32 {
    let mut n = 0;
    for (i, m) in melds.iter().enumerate() {
        if m.rank as i32 == rank || (m.rank >= SEQ && meld_key(m.rank) as i32 == rank) {
            n += 1;
            if n == number {
                return i as i32;
            }
        }
    }
    -1
}

/// `GreedyBot._after`: (the meld before, the meld after) of the meld the action changes.
fn after(melds: &[Meld], a: &Spec) -> (Option<Meld>, Option<Meld>) {
    match a.kind {
        MELD => {
            let c = a.cards.s();
            let rank = if c[0] <= TWO { WILD } else { kind(c[0]) };
            if c.len() > 1 && c[0] as usize >= N_KINDS && kind(c[1]) != kind(c[0]) {
                return (None, Some(Meld::new(seq_rank((c[0] + 1) & 3, rank), c.len() as i32, 0, 0, 0)));
            }
            let nat = if rank != WILD { c.iter().filter(|&&k| k > TWO).count() as i32 } else { 0 };
            (None, Some(Meld::new(rank, nat, a.cards.count(JK), a.cards.count(TWO), 0)))
        }
        ADD => {
            let i = meld_index_key(melds, a.b, a.c);
            if i < 0 {
                return (None, None);
            }
            let m = melds[i as usize];
            let card = a.a as u8;
            if m.rank >= SEQ {
                let low = seq_low(m.rank);
                return (Some(m), Some(Meld::new(seq_rank(seq_suit(m.rank), low.min(kind(card))), m.nat + 1, 0, 0, 0)));
            }
            if card == R3 {
                return (Some(m), Some(Meld::new(m.rank, m.nat, m.jk, m.tw, 1)));
            }
            (Some(m), Some(Meld::new(m.rank, m.nat + (card > TWO) as i32, m.jk + (card == JK) as i32, m.tw + (card == TWO) as i32, m.r3)))
        }
        COMBINE => {
            let i = meld_index_key(melds, a.a, a.b);
            let j = meld_index_key(melds, a.a, a.c);
            if i < 0 || j < 0 {
                return (None, None);
            }
            let (m1, m2) = (melds[i as usize], melds[j as usize]);
            (Some(m1), Some(Meld::new(a.a as u8, m1.nat + m2.nat, m1.jk + m2.jk, m1.tw + m2.tw, 0)))
        }
        _ => (None, None),
    }
}

fn completes_after(r: &Rules, before: Option<Meld>, aft: Option<Meld>, a: &Spec) -> bool {
    let Some(aft) = aft else { return false };
    if a.kind == ADD && a.a as u8 == R3 {
        return true;
    }
    is_canasta_info(r, &aft) && !matches!(before, Some(b) if is_canasta_info(r, &b))
}

/// `_meld_score`: (completes a canasta, natural, size, points, chance); higher is better.
fn meld_score(r: &Rules, melds: &[Meld], a: &Spec, rng: &mut Mt) -> (i32, i32, i32, i32, f64) {
    let v = &r.values;
    let (before, aft) = after(melds, a);
    let size = aft.map(|m| m.size()).unwrap_or(0);
    let (pts, natural) = match a.kind {
        MELD => (a.cards.s().iter().map(|&k| v[k as usize]).sum(), a.cards.s().iter().all(|&k| k > TWO)),
        ADD => (v[a.a as usize], a.a as u8 > TWO),
        _ => (0, true),
    };
    (completes_after(r, before, aft, a) as i32, natural as i32, size, pts, rng.random())
}

/// The first action of the most by `meld_score` (Python's `max` keeps the first of equals).
fn best_meld(r: &Rules, melds: &[Meld], acts: &[(u32, Spec)], rng: &mut Mt) -> Option<u32> {
    let mut best: Option<(u32, (i32, i32, i32, i32, f64))> = None;
    for (id, a) in acts {
        let s = meld_score(r, melds, a, rng);
        match &best {
            Some((_, b)) if !(s.partial_cmp(b) == Some(std::cmp::Ordering::Greater)) => {}
            _ => best = Some((*id, s)),
        }
    }
    best.map(|b| b.0)
}

fn wanted(c: &Core, seat: usize, melds: &[Meld], a: &Spec) -> bool {
    let r = c.r();
    let h = &c.hand(seat);
    match a.kind {
        COMBINE => true,
        MELD => {
            let first = a.cards.s()[0];
            let rank = if first <= TWO { WILD } else { kind(first) };
            if rank == B3 {
                return false;
            }
            if rank == WILD && (r.deuce || wild_canasta_wanted(r, melds)) {
                return true; // (italian: the bot melds its deuces as their own rank)
            }
            if r.unfinished_pen.iter().any(|(k, _)| *k == rank) {
                let held = if rank == WILD { h.at(JK) + h.at(TWO) } else { h.at(rank) };
                return held >= r.cs - 1;
            }
            if a.cards.s().iter().all(|&k| k > TWO) {
                return true;
            }
            !c.opened[r.side_of[seat] as usize] || c.phase == PH_INITIAL_TAKE
        }
        ADD => {
            let card = a.a as u8;
            if card > TWO || card == R3 {
                return true;
            }
            if a.b == WILD as i32 && ((r.deuce && card == TWO) || wild_canasta_wanted(r, melds)) {
                return true;
            }
            let (b, af) = after(melds, a);
            completes_after(r, b, af, a)
        }
        _ => false,
    }
}

/// `_wild_canasta_wanted`: the side still lacks a canasta of wild cards that going out needs
/// (hand-and-foot 6.2, `going_out.canastas_by_kind.wild`); the bot then melds its wild cards
/// together rather than keeping them for other melds.
fn wild_canasta_wanted(r: &Rules, melds: &[Meld]) -> bool {
    let need = r.kinds_needed.map_or(0, |k| k[2]);
    if need == 0 {
        return false;
    }
    let done = melds.iter().filter(|m| m.rank == WILD && is_canasta_info(r, m)).count() as i32;
    done < need
}

fn extends(m: &Meld, card: u8) -> bool {
    if (card as usize) < N_KINDS || (card + 1) & 3 != seq_suit(m.rank) {
        return false;
    }
    let low = seq_low(m.rank) as i32;
    let k = kind(card) as i32;
    k == low - 1 || k == low + m.nat
}

/// `_keep_score`: how much the bot wants to keep `card`; it discards the lowest.
fn keep_score(c: &Core, seat: usize, card: u8, rng: &mut Mt) -> (f64, f64) {
    let r = c.r();
    let h = &c.hand(seat);
    let tie = rng.random();
    if card == B3 {
        return (-100.0, tie);
    }
    if card == R3 {
        return (-200.0, tie);
    }
    if card <= TWO {
        return (1000.0 + r.values[card as usize] as f64, tie);
    }
    let side = r.side_of[seat] as usize;
    let mut score = r.values[card as usize] as f64;
    let k = kind(card);
    if h.at(k) >= 2 {
        score += 200.0;
    }
    if let Some(&(_, count, _)) = r.held_pen.iter().find(|(rk, _, _)| *rk == k) {
        if h.at(k) >= count - 1 && !c.melds(side).iter().any(|m| m.rank == k) {
            score -= 400.0;
        }
    }
    let own: Vec<&Meld> = c.melds(side).iter().filter(|m| m.rank == k).collect();
    if !own.is_empty() && r.closed && own.iter().all(|m| m.size() >= r.cs) {
        score -= 30.0;
    }
    for other in 0..r.n_sides {
        if other != side && c.melds(other).iter().any(|m| m.rank == k || (m.rank >= SEQ && extends(m, card))) {
            score += 300.0;
        }
    }
    (score, tie)
}

fn specs_of(r: &Rules, ids: &[u32]) -> Vec<(u32, Spec)> {
    ids.iter().map(|&i| (i, r.specs[i as usize])).collect()
}

fn is_id(r: &Rules, acts: &[(u32, Spec)], kind: u8) -> Option<u32> {
    let _ = r;
    acts.iter().find(|(_, s)| s.kind == kind).map(|(i, _)| *i)
}

/// `GreedyBot._draw_phase`
fn draw_phase(c: &Core, acts: &[(u32, Spec)]) -> u32 {
    let order = |way: i32| match way {
        W_ONTO => 0,
        W_PAIR => 1,
        W_TWO => 2,
        W_JOKER => 3,
        _ => 9,
    };
    let mut takes: Vec<&(u32, Spec)> = acts.iter().filter(|(_, s)| s.kind == TAKE).collect();
    takes.sort_by_key(|(_, s)| order(s.b));
    let can_draw = acts.iter().any(|(_, s)| s.kind == DRAW);
    for (i, t) in &takes {
        if t.b == W_ONTO || t.b == W_PAIR || c.pile_n >= 3 || !can_draw {
            return *i;
        }
    }
    if can_draw {
        return is_id(c.r(), acts, DRAW).unwrap();
    }
    if let Some((i, _)) = takes.first() {
        return *i;
    }
    if let Some(i) = is_id(c.r(), acts, PASS) {
        return i;
    }
    acts[0].0
}

/// `GreedyBot._plan_out`: the first action of a way to go out this turn found by melding
/// everything, or None.
fn plan_out(c: &Core, seat: usize, acts: &[(u32, Spec)], rng: &mut Mt, planner: &mut dyn Planner) -> Result<Option<u32>, String> {
    let r = c.r();
    let h = &c.hand(seat);
    let down = c.down(seat).any();
    let via_observation = down || c.phase == PH_INITIAL_TAKE;
    let has_discard = |a: &[(u32, Spec)]| a.iter().any(|(_, s)| s.kind == DISCARD);
    if !acts.iter().any(|(_, s)| is_melding(s)) && !(h.sum15() == 1 && has_discard(acts))
        && !acts.iter().any(|(_, s)| s.kind == DONE)
    {
        return Ok(None);
    }
    let side = r.side_of[seat] as usize;
    // mexicana 6.2: no more canastas than the side's faced red threes allow
    let most = if r.r3_per != 0 { c.red[side] / r.r3_per } else { BIG };
    if !down && c.phase != PH_INITIAL_TAKE && !can_go_out(r, h, c.melds(side), 0, true, false, -1, false, most) {
        return Ok(None);
    }
    if down && c.phase != PH_INITIAL_TAKE {
        // The play forward meets no unseen card until the down hand comes up: it makes the same
        // choices (and draws the same random numbers) on the state itself as on a state sampled
        // from the observation. Played here first, it spares the sample where it stops before
        // (the same answer, None); else it is played again on the sample from the same numbers.
        let saved = rng.clone();
        match forward(c.clone(), seat, side, acts, rng, true) {
            Forward::Done(_) => return Ok(None),
            Forward::DownUp => *rng = saved,
        }
    }
    let cur = if via_observation { planner.plan_state(c, seat)? } else { c.clone() };
    match forward(cur, seat, side, acts, rng, false) {
        Forward::Done(f) => Ok(f),
        Forward::DownUp => Ok(None),
    }
}

enum Forward {
    /// the first action of a way out, or None
    Done(Option<u32>),
    /// (``stop_at_down``) the down hand came up before the play ended
    DownUp,
}

/// `plan_out`'s play forward from `cur`: meld everything (`best_meld`), then discard the last
/// card or end; `stop_at_down`: stop where the seat's down hand comes up.
fn forward(mut cur: Core, seat: usize, side: usize, acts: &[(u32, Spec)], rng: &mut Mt, stop_at_down: bool) -> Forward {
    let r = cur.d.r.clone();
    let r = &*r;
    let has_discard = |a: &[(u32, Spec)]| a.iter().any(|(_, s)| s.kind == DISCARD);
    let mut first: Option<u32> = None;
    let mut ids: Vec<u32> = vec![];
    for _ in 0..200 {
        if cur.player != seat as i32 || cur.phase >= PH_HAND_OVER {
            break;
        }
        let here: Vec<(u32, Spec)> = if first.is_none() {
            acts.to_vec()
        } else {
            ids.clear();
            legal_ids(&cur, &mut ids);
            specs_of(r, &ids)
        };
        let melds: Vec<(u32, Spec)> = here.iter().filter(|(_, s)| is_melding(s)).copied().collect();
        let hs = cur.hand(seat).sum15();
        let a = if !melds.is_empty() {
            let side_melds = cur.melds(side).clone();
            best_meld(r, &side_melds, &melds, rng).unwrap()
        } else if hs == 1 && has_discard(&here) {
            here.iter().find(|(_, s)| s.kind == DISCARD).unwrap().0
        } else if hs == 0 && here.iter().any(|(_, s)| s.kind == DONE) {
            r.id_done as u32
        } else {
            return Forward::Done(None);
        };
        if first.is_none() {
            first = Some(a);
        }
        ids.clear();
        legal_ids(&cur, &mut ids);
        if !ids.contains(&a) {
            return Forward::Done(None);
        }
        apply_id_mut(&mut cur, a);
        if stop_at_down && !cur.down(seat).any() {
            return Forward::DownUp;
        }
    }
    if let Some(f) = first {
        if cur.phase >= PH_HAND_OVER {
            if let Some(res) = &cur.result {
                if res.went_out == seat as i32 {
                    return Forward::Done(Some(f));
                }
            }
        }
    }
    Forward::Done(None)
}

/// `GreedyBot._meld_phase`
fn meld_phase(c: &Core, seat: usize, acts: &[(u32, Spec)], rng: &mut Mt, planner: &mut dyn Planner) -> Result<u32, String> {
    let r = c.r();
    if c.phase == PH_INITIAL_TAKE {
        if let Some(i) = is_id(r, acts, RETRACT) {
            return Ok(i);
        }
    }
    let side = r.side_of[seat] as usize;
    if let Some(i) = is_id(r, acts, ASK) {
        if ahead(c, side) {
            return Ok(i);
        }
    }
    if let Some(i) = plan_out(c, seat, acts, rng, planner)? {
        return Ok(i);
    }
    let meld_all = c.phase == PH_FINAL_MELD || c.stock_n as i64 <= 2 * c.d.active.len() as i64;
    let melds: Vec<(u32, Spec)> = acts.iter().filter(|(_, s)| is_melding(s)).copied().collect();
    let mine = c.melds(side).clone();
    let wanted_melds: Vec<(u32, Spec)> = melds.iter().filter(|(_, a)| meld_all || wanted(c, seat, &mine, a)).copied().collect();
    if !wanted_melds.is_empty() {
        return Ok(best_meld(r, &mine, &wanted_melds, rng).unwrap());
    }
    let discards: Vec<(u32, Spec)> = acts.iter().filter(|(_, s)| s.kind == DISCARD).copied().collect();
    if !discards.is_empty() {
        let mut best: Option<(u32, (f64, f64))> = None;
        for (i, a) in &discards {
            let s = keep_score(c, seat, a.a as u8, rng);
            match &best {
                Some((_, b)) if !(s.partial_cmp(b) == Some(std::cmp::Ordering::Less)) => {}
                _ => best = Some((*i, s)),
            }
        }
        return Ok(best.unwrap().0);
    }
    if let Some(i) = is_id(r, acts, DONE) {
        return Ok(i);
    }
    if !melds.is_empty() {
        return Ok(best_meld(r, &mine, &melds, rng).unwrap());
    }
    Ok(acts[0].0)
}

/// `GreedyBot._choose_state`: the greedy choice among the legal ids `ids` of `c`.
pub fn greedy_choose(c: &Core, ids: &[u32], rng: &mut Mt, planner: &mut dyn Planner) -> Result<u32, String> {
    if ids.len() == 1 {
        return Ok(ids[0]);
    }
    let r = c.r();
    let seat = c.player as usize;
    let acts = specs_of(r, ids);
    if c.phase == PH_ANSWER {
        let yes = ahead(c, r.side_of[seat] as usize);
        return Ok((if yes { r.id_yes } else { r.id_no }) as u32);
    }
    if c.phase == PH_DRAW {
        return Ok(draw_phase(c, &acts));
    }
    meld_phase(c, seat, &acts, rng, planner)
}

/// Play from `c` until the hand is over or `max_actions` have been played, the seat to act
/// choosing with its bot (`seat_bot[seat]` indexes `bots`). Returns the position reached and the
/// actions played.
pub fn play_hand(c: &Core, bots: &mut [Bot], seat_bot: &[usize], max_actions: usize, planner: &mut dyn Planner)
                 -> Result<(Core, usize), String> {
    let mut cur = c.clone();
    let mut ids: Vec<u32> = Vec::with_capacity(64);
    let mut count = 0;
    while cur.phase < PH_HAND_OVER && count < max_actions {
        let seat = cur.player;
        if seat < 0 {
            break;
        }
        ids.clear();
        legal_ids(&cur, &mut ids);
        if ids.is_empty() {
            return Err(format!("seat {seat} is to act with no legal action"));
        }
        let bot = &mut bots[seat_bot[seat as usize]];
        let a = match bot.kind {
            Kind::Random => ids[bot.rng.below(ids.len())],
            Kind::Greedy => greedy_choose(&cur, &ids, &mut bot.rng, planner)?,
        };
        apply_id_mut(&mut cur, a);
        count += 1;
    }
    Ok((cur, count))
}
