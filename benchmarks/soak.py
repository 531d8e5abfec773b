"""Soak test: play every table of every bundled variant with invariant checks at every step.

    python benchmarks/soak.py --deals 10000 --jobs 2      # every table, 10,000 deals each
    python benchmarks/soak.py --deals 200 --tables hoyle-1950:4 new-canasta:10
    python benchmarks/soak.py --deals 100 --json          # one JSON line per table

Outside CI (issue 9: "What validates, plays"). Deal ``i`` of a table is
``new_game(variant, players, seed=S+i)`` played to the end of its hand by a seeded random
policy (each deal's policy prefers takes and melds with a strength drawn from
(0, 0.3, 0.75, 0.95), so that hands end by going out as well as by the stock running out),
then the next hand is dealt and checked. At every step it checks:

- **no dead end**: somebody is to act exactly when there is a legal action;
- **every legal action applies** (by value), and the state applied to is unchanged; the action
  played applies by its id and by its notation to the same state as by value;
- **notation and ids round-trip**: ``parse_action(str(a)) == a``,
  ``space.decode(space.encode(a)) == a`` (for each distinct legal action of a table, once per
  worker: these are pure functions), ``legal_action_ids()`` matches ``legal_actions()``;
- **cards are conserved**: hands, down hands, stock, pile, a pile being taken, melds and faced
  red threes hold the deck (``packs + packs_per_player * players`` packs and their jokers),
  computed here from the variant's settings, not from the engine;
- **scores add up**: at a hand's end each side's total is the sum of its items, and the game
  totals move by exactly the hand's score; the next hand deals the deck again.

``--seats`` chooses who plays: ``random`` (the policy above, the default), ``greedy``
(:class:`canasta.GreedyBot` at every seat), ``mixed`` (each seat greedy, random or an asker,
drawn per deal), ``asker`` (every seat an :class:`Asker`: it asks "may I go out?" whenever it
may, always answers yes, goes out whenever an action does, and plays on at random when bound to
go out, so that every action offered to a player committed to going out is tried), or a comma
list of these, deal ``i`` taking the ``i``-th (``greedy,mixed,asker``: issue 28's purposeful
play). Random play rarely asks to go out; purposeful seats commit to it and then must find the
way out the rules promised.

A crash (any exception) is a violation too. The report gives per table the deals, the actions
applied along the played paths, the successors checked (every legal action applied), the
violations and the time; the first violations are printed with the variant, table, seed and
step, to replay. Exit status 1 if there was any violation.

Only the public API of ``canasta`` is used, so it runs against any revision
(``PYTHONPATH=path/to/tree``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import signal
import sys
import time
from typing import Any, Optional, Sequence

import canasta
from canasta import Add, Answer, Ask, Combine, GameState, Meld, Phase, Take, parse_action

BIASES = (0.0, 0.3, 0.75, 0.95)
PROGRESS = (Take, Meld, Add, Combine)
MAX_ACTIONS = 5000
"""A deal longer than this is a violation (a loop that never ends the hand)."""
KEEP = 5
"""Violations kept per chunk, with their details."""

# Card kinds (canasta.Card): 0 joker, 1 two, 2 red three, 3 black three, 4..14 four to ace.
N_KINDS = 15


def deck_of(variant: canasta.Variant, players: int) -> list[int]:
    """The deck's count of each card kind, from the variant's settings alone."""
    packs = variant.deck.packs + variant.deck.packs_per_player * players
    counts = [4 * packs] * N_KINDS
    counts[0] = packs * variant.deck.jokers_per_pack
    counts[2] = counts[3] = 2 * packs
    return counts


def cards_of(state: GameState) -> list[int]:
    """Cards per kind in every place a card can be during a hand."""
    # a hand of a variant with sequences holds 59 counts: per kind, then per suited card
    counts = [sum(column) for column in zip(*state.hands, *state.down_hands)][:N_KINDS]
    if min(min(hand) for hand in state.hands + state.down_hands) < 0:
        raise AssertionError("a negative count of cards in a hand")
    for hand in state.hands + state.down_hands:
        if len(hand) > N_KINDS:
            for r in range(4, N_KINDS):
                k = 4 * r - 1
                if hand[r] != hand[k] + hand[k + 1] + hand[k + 2] + hand[k + 3]:
                    raise AssertionError(f"a hand's {r}s per kind differ from its suited cards")
    for k in state.stock + state.pile + state.turn.pending:
        counts[k if k < N_KINDS else (k + 1) >> 2] += 1
    for melds in state.melds:
        for m in melds:
            if m.rank >= 16:  # a sequence: its ranks from the lowest
                for r in range(m.low, m.low + m.naturals):
                    counts[r] += 1
            elif m.naturals:  # a meld of wild cards only has none
                counts[m.rank] += m.naturals
            counts[0] += m.jokers
            counts[1] += m.twos
            counts[2] += int(m.red_three)
    for n in state.red_threes:
        counts[2] += n
    # black threes set aside from taken piles (cuban); a revision without them has none
    for n in getattr(state, "black_threes_aside", ()):
        counts[3] += n
    return counts


ROUND_TRIPS: set[tuple[Any, int]] = set()
"""(action, id) pairs whose id and notation have been checked to round-trip, at this table."""


def check_step(state: GameState, deck: list[int]) -> dict[Any, GameState]:
    """The invariants of one position; returns its legal actions, each with the state after it."""
    acts = state.legal_actions()
    over = state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    if over:
        if state.current_player is not None or acts:
            raise AssertionError(f"hand over, yet seat {state.current_player} is to act "
                                 f"with {len(acts)} actions")
    elif state.current_player is None or not acts:
        raise AssertionError(f"dead end: seat {state.current_player} to act in "
                             f"{state.phase.name} with {len(acts)} legal actions")
    got = cards_of(state)
    if got != deck:
        diff = {k: (got[k], deck[k]) for k in range(N_KINDS) if got[k] != deck[k]}
        raise AssertionError(f"cards not conserved (kind: have, deck): {diff}")
    space = state.action_space
    ids = state.legal_action_ids()
    if len(ids) != len(acts):
        raise AssertionError(f"{len(ids)} legal ids for {len(acts)} legal actions")
    before = state.hands, state.stock, state.pile, state.melds, state.turn
    after: dict[Any, GameState] = {}
    for a, i in zip(acts, ids):
        if (a, i) not in ROUND_TRIPS:  # pure functions: each action is checked once per process
            if space.encode(a) != i or space.decode(i) != a:
                raise AssertionError(f"{a!r}: id {i} does not round-trip")
            text = str(a)
            if parse_action(text) != a:
                raise AssertionError(f"{a!r} prints as {text!r}, which parses as {parse_action(text)!r}")
            ROUND_TRIPS.add((a, i))
        after[a] = state.apply(a)
    if (state.hands, state.stock, state.pile, state.melds, state.turn) != before:
        raise AssertionError("applying changed the state applied to")
    return after


def check_hand_end(before: GameState, after: GameState) -> None:
    """The hand's scores add up and move the totals by exactly the hand's score."""
    r = after.result
    if r is None:
        raise AssertionError("the hand is over without a result")
    if len(r.scores) != after.sides:
        raise AssertionError(f"{len(r.scores)} scores for {after.sides} sides")
    for i, s in enumerate(r.scores):
        items = sum(item.points for item in s.items)
        if s.total != items:
            raise AssertionError(f"side {i}: total {s.total}, items add up to {items}")
        if after.totals[i] != before.totals[i] + s.total:
            raise AssertionError(f"side {i}: totals {before.totals[i]} -> {after.totals[i]} "
                                 f"for a hand of {s.total}")


SEAT_KINDS = ("random", "greedy", "mixed", "asker")
_ASK = getattr(getattr(canasta, "_bots", None), "_ask", None)
"""The built-in bots' choice read from the state, where this revision has it."""


def biased(rng: random.Random, acts: Sequence[Any], bias: float) -> Any:
    """A random action, a take or a meld with probability ``bias`` where there is one."""
    progress = [a for a in acts if isinstance(a, PROGRESS)]
    return rng.choice(progress) if progress and rng.random() < bias else rng.choice(acts)


def goes_out(state: GameState, nxt: GameState) -> bool:
    """Whether the action from ``state`` to ``nxt`` is its player's going out."""
    return nxt.is_hand_over and nxt.result is not None and nxt.result.went_out == state.current_player


class Asker:
    """A seat that goes out whenever an action does, asks "may I go out?" whenever it may,
    answers its partner's question yes (binding him to go out), and otherwise melds, taking
    and melding with probability ``bias``; bound to go out (a yes, black threes melded ...) it
    plays any legal action at random, each of which must leave it a way out."""

    def __init__(self, rng: random.Random, bias: float = 0.9) -> None:
        self.rng = rng
        self.bias = bias

    def choose(self, state: GameState, after: dict[Any, GameState]) -> Any:
        acts = list(after)
        for a in acts:
            if isinstance(a, Ask) or (isinstance(a, Answer) and a.yes) or goes_out(state, after[a]):
                return a
        t = state.turn
        if t.answer or t.black_threes or t.must_out:
            return self.rng.choice(acts)
        return biased(self.rng, acts, self.bias)


def seat_policies(kind: str, players: int, seed: int, rng: random.Random) -> list[Any]:
    """Who plays each seat of a deal: a function of the state and the legal actions (each with
    the state after it) returning the action."""
    bias = rng.choice(BIASES)

    def random_seat(state: GameState, after: dict[Any, GameState]) -> Any:
        return biased(rng, list(after), bias)

    def greedy_seat(seat: int) -> Any:
        bot = canasta.GreedyBot(seed * 100 + seat)
        if _ASK is not None:  # the same choice, read from the state (faster)
            return lambda state, after: _ASK(bot, state)
        return lambda state, after: bot.choose(state.observation(state.current_player), list(after))

    def asker_seat() -> Any:
        return Asker(rng).choose

    if kind == "random":
        return [random_seat] * players
    if kind == "greedy":
        return [greedy_seat(s) for s in range(players)]
    if kind == "asker":
        return [asker_seat() for _ in range(players)]
    out = []
    for s in range(players):
        pick = rng.choice(("greedy", "random", "asker"))
        out.append(greedy_seat(s) if pick == "greedy" else random_seat if pick == "random" else asker_seat())
    return out


def play_deal(variant: canasta.Variant, players: int, seed: int, deck: list[int],
              seats: str = "random") -> tuple[int, int]:
    """One checked deal; returns (actions applied, successors checked)."""
    rng = random.Random(seed)
    policies = seat_policies(seats, players, seed, rng)
    state = canasta.new_game(variant, players, seed=seed)
    actions = checked = 0
    while True:
        after = check_step(state, deck)
        checked += len(after)
        if not after:
            break
        a = policies[state.current_player](state, after)
        nxt = after[a]
        if state.apply(state.action_space.encode(a)) != nxt:
            raise AssertionError(f"{a}: applied by its id, a different state")
        if state.apply(str(a)) != nxt:
            raise AssertionError(f"{a}: applied by its notation, a different state")
        actions += 1
        if nxt.is_hand_over:
            check_hand_end(state, nxt)
        state = nxt
        if actions > MAX_ACTIONS:
            raise AssertionError(f"the hand is not over after {MAX_ACTIONS} actions")
    if len(state.history) != actions:
        raise AssertionError(f"a history of {len(state.history)} actions after {actions}")
    if state.phase is Phase.HAND_OVER:
        nxt = state.next_hand()
        if nxt.totals != state.totals or nxt.hand_number != state.hand_number + 1:
            raise AssertionError("next_hand() lost the totals or the hand number")
        check_step(nxt, deck)
    return actions, checked


def run_chunk(job: tuple[Any, ...]) -> dict[str, Any]:
    """Deals ``seed`` to ``seed + count - 1`` of one table (``seats``: a comma list of
    :data:`SEAT_KINDS`, deal ``i`` played by the ``i``-th)."""
    name, players, seed, count = job[:4]
    kinds = (job[4] if len(job) > 4 else "random").split(",")
    variant = canasta.load_variant(name)
    deck = deck_of(variant, players)
    ROUND_TRIPS.clear()  # ids differ from table to table
    out: dict[str, Any] = {"table": f"{name}:{players}", "deals": 0, "actions": 0, "checked": 0,
                           "violations": 0, "examples": [], "seconds": 0.0}
    start = time.perf_counter()
    for s in range(seed, seed + count):
        try:
            kind = kinds[s % len(kinds)]
            actions, checked = play_deal(variant, players, s, deck, kind)
        except Exception as e:  # noqa: BLE001 - any failure is a violation, reported
            out["violations"] += 1
            if len(out["examples"]) < KEEP:
                out["examples"].append(f"{name}:{players} seed {s} ({kind} seats): {type(e).__name__}: {e}")
            actions = checked = 0
        out["deals"] += 1
        out["actions"] += actions
        out["checked"] += checked
    out["seconds"] = time.perf_counter() - start
    return out


def _quiet_worker() -> None:
    """A worker ignores Ctrl-C and kill: the parent stops the pool and reports what was played."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def all_tables() -> list[tuple[str, int]]:
    """Every bundled variant at every player count its tables allow."""
    return [(name, int(n)) for name in canasta.variant_names()
            for n in sorted(canasta.load_variant(name).tables, key=int)]


def parse_tables(specs: Optional[Sequence[str]]) -> list[tuple[str, int]]:
    """``NAME:PLAYERS`` or ``NAME`` (every table of the variant); default: every table."""
    if not specs:
        return all_tables()
    out: list[tuple[str, int]] = []
    for spec in specs:
        name, _, players = spec.partition(":")
        variant = canasta.load_variant(name)
        if players:
            variant.table(int(players))
            out.append((name, int(players)))
        else:
            out += [(name, int(n)) for n in sorted(variant.tables, key=int)]
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the soak; ``argv`` defaults to the command line."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", "-n", type=int, default=100, help="deals per table (default: 100)")
    ap.add_argument("--seed", "-s", type=int, default=0, help="seed of the first deal (default: 0)")
    ap.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default: 1)")
    ap.add_argument("--chunk", type=int, default=250, help="deals per task (default: 250)")
    ap.add_argument("--tables", nargs="*", metavar="NAME[:PLAYERS]",
                    help="tables to play (default: every table of every bundled variant)")
    ap.add_argument("--seats", default="random", metavar="KIND[,KIND...]",
                    help=f"who plays, deal i taking the i-th of the list: {', '.join(SEAT_KINDS)} "
                         "(default: random)")
    ap.add_argument("--json", action="store_true", help="print one JSON line per table")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.jobs < 1 or args.chunk < 1:
        ap.error("--deals, --jobs and --chunk must be at least 1")
    bad = [k for k in args.seats.split(",") if k not in SEAT_KINDS]
    if bad:
        ap.error(f"--seats: {', '.join(bad)} is not one of {', '.join(SEAT_KINDS)}")
    try:
        tables = parse_tables(args.tables)
    except (ValueError, TypeError) as e:
        ap.error(str(e))
    # chunk by chunk across the tables, so that an interrupted run has figures for every table
    jobs = [(name, players, args.seed + start, min(args.chunk, args.deals - start), args.seats)
            for start in range(0, args.deals, args.chunk) for name, players in tables]
    totals: dict[str, dict[str, Any]] = {}
    start = time.perf_counter()
    log = sys.stderr

    def merge(part: dict[str, Any]) -> None:
        t = totals.setdefault(part["table"], {"table": part["table"], "deals": 0, "actions": 0,
                                              "checked": 0, "violations": 0, "examples": [],
                                              "seconds": 0.0})
        for key in ("deals", "actions", "checked", "violations", "seconds"):
            t[key] += part[key]
        t["examples"] += part["examples"][:KEEP - len(t["examples"])]
        done = sum(x["deals"] for x in totals.values())
        print(f"[{time.perf_counter() - start:7.0f} s] {part['table']}: {t['deals']} deals, "
              f"{t['violations']} violations ({done}/{len(tables) * args.deals})", file=log, flush=True)

    stop: list[int] = []  # Ctrl-C (SIGINT) or kill (SIGTERM): stop, and report what was played
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda signum, frame: stop.append(signum))
    if args.jobs == 1:
        for job in jobs:
            if stop:
                break
            merge(run_chunk(job))
    else:
        with multiprocessing.Pool(args.jobs, initializer=_quiet_worker) as pool:
            results = pool.imap_unordered(run_chunk, jobs)
            while not stop:
                try:  # with a timeout, so that a signal is seen while waiting
                    part = results.next(timeout=1.0)
                except multiprocessing.TimeoutError:
                    continue
                except StopIteration:
                    break
                merge(part)
    interrupted = bool(stop)
    order = [f"{n}:{p}" for n, p in tables]
    rows = [totals[t] for t in order if t in totals]
    if args.json:
        for row in rows:
            print(json.dumps(row))
    else:
        print(f"canasta {canasta.__version__} ({canasta.__file__}), {args.seats} seats, seeds from {args.seed}, "
              f"{time.perf_counter() - start:.0f} s{' (interrupted)' if interrupted else ''}\n")
        print("| table | deals | actions | successors checked | violations | CPU s |")
        print("|---|---:|---:|---:|---:|---:|")
        for r in rows:
            print(f"| {r['table']} | {r['deals']:,} | {r['actions']:,} | {r['checked']:,} | "
                  f"{r['violations']} | {r['seconds']:.0f} |")
        all_v = sum(r["violations"] for r in rows)
        print(f"| **all** | {sum(r['deals'] for r in rows):,} | {sum(r['actions'] for r in rows):,} "
              f"| {sum(r['checked'] for r in rows):,} | {all_v} | "
              f"{sum(r['seconds'] for r in rows):.0f} |")
        for r in rows:
            for ex in r["examples"]:
                print(f"violation: {ex}")
    return 1 if interrupted or any(r["violations"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
