"""Record the golden traces that ``tests/test_golden.py`` replays.

The traces pin the behaviour of the rules engine as it is today, decision by decision, so that
a rewrite of the engine (for speed, say) can be checked to reproduce it exactly: the same legal
action ids in the same order at every step, the same itemised score at the end of every hand,
the same totals, the same wording of every refusal, the same action space.

For every bundled variant and every player count its tables allow, seeded playouts are played
through the public API only (``import canasta``) with a policy chosen per playout from its seed:

* ``uniform``: a uniform choice among the legal ids;
* ``discard``: mostly draw, discard, pass, "no" and "done": nobody goes out, so the stock runs out
  (stock exhaustion, forced takes, passes, last rounds);
* ``meld``: mostly take, meld, add, combine, ask and "yes": hands end by going out, some of them
  concealed;
* ``out``: goes out as soon as a random run of melds this turn can, else like ``discard``:
  concealed hands;
* ``mixed``: a per-playout blend of these (discard/meld probabilities, and maybe ``out``).

The first five playouts of a table use each kind once; later ones draw the kind.

Some playouts are single deals, others whole games (``next_hand()`` until the game is over, at
most ``MAX_HANDS`` hands) so that the higher initial-meld minimums come into play. The chosen id
is recorded, so a replay does not need the policy.

Regenerate (only for a deliberate change of the rules, whose commit message says why the traces
changed; a faster engine must reproduce them as they are)::

    python tests/golden/record.py            # writes tests/golden/<variant>-<players>.json.xz
    python tests/golden/record.py --check    # records again and compares, writes nothing
    python tests/golden/record.py --check --only samba hoyle-1950-4   # some tables only

Record from the committed engine, not from a working tree with edits in progress, e.g.::

    git archive HEAD | tar -x -C /tmp/golden_base
    PYTHONPATH=/tmp/golden_base python tests/golden/record.py

The output is deterministic: recording twice gives byte-identical files.

File format (one lzma-compressed JSON file per table, ``<variant>-<players>.json.xz``)::

    {
      "format": 1,
      "variant": "hoyle-1950", "players": 4,
      "space": {"size": 333, "sha256": "...", "actions": ["draw", "pass", ...]},
      "reasons": ["distinct why_illegal texts", ...],
      "skipped": ["a playout left out: it reached a dead end (an engine bug)", ...],
      "playouts": [
        {"number": 0, "seed": 123, "policy": "meld 0.95", "whole_game": false,
         "hands": [
           {"legal": [[ids legal at step 0, in legal_action_ids() order], ...],
            "chosen": [id applied at step 0, ...],
            "why": [[step, [[reason, run], ...]], ...],
            "end": {"went_out": 2, "concealed": false, "reason": "went out",
                    "scores": [{"side": 0, "items": [[name, count, points], ...]}, ...],
                    "totals": [915, 2155], "game_over": false}}
         ]}
      ]
    }

``space.actions`` is ``str(space.decode(i))`` for every id and ``space.sha256`` the sha256 of
those notations joined by newlines. ``why`` holds the sampled steps (``step`` may equal
``len(chosen)``: the position at the hand's end, always sampled; other steps are sampled at
the rate ``WHY_RATE``, from the playout's own generator): ``why_illegal(space.decode(i))`` for
every id ``i`` of the space in order, run-length encoded as ``[reason, run]`` pairs where
``reason`` indexes ``reasons`` (``null``: the id is legal, ``why_illegal`` gives None).

``skipped`` names the playouts left out because they reached a dead end (a player to act with no
legal action, which the engine promises never happens): they are reported when recording, not
pinned for a rewrite to reproduce; their numbers stay unused.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import lzma
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Optional

import canasta

FORMAT = 1
HERE = Path(__file__).resolve().parent

# ---------------------------------------------------------------- what to record

DEFAULT_BUDGET = 6_000
BUDGETS: dict[tuple[str, int], int] = {
    ("hoyle-1950", 2): 15_000,
    ("hoyle-1950", 3): 10_000,
    ("hoyle-1950", 4): 40_000,
    ("hoyle-1950", 5): 8_000,
    ("hoyle-1950", 6): 12_000,
    ("bicycle", 4): 16_000,
    ("wikipedia", 4): 12_000,
    ("online", 2): 10_000,
    ("online", 4): 15_000,
    ("three-pack", 6): 12_000,
    ("new-canasta", 2): 10_000,
    ("new-canasta", 3): 6_000,
    ("new-canasta", 4): 10_000,
}
"""Decisions to record per table (variant, players): playouts are added until the budget is
reached. The common tables weigh more; every other table gets ``DEFAULT_BUDGET``."""

WHOLE_GAME_SHARE = 0.35
"""Share of the playouts that are whole games rather than single deals."""
MAX_HANDS = 5
"""Hands a whole-game playout plays at most."""
MAX_STEPS_PER_HAND = 20_000
"""A hand longer than this is a bug of the engine (or of this script): recording stops."""
WHY_RATE = 1 / 20
"""Share of the steps at which every refusal of the space is recorded (plus every hand end)."""

MELD_VERBS = frozenset({"take", "meld", "add", "combine", "ask", "yes"})
DISCARD_VERBS = frozenset({"draw", "discard", "pass", "no", "done"})


def tables() -> list[tuple[str, int]]:
    """Every bundled variant at every player count its tables allow."""
    return [(name, players)
            for name in canasta.variant_names()
            for players in sorted(int(k) for k in canasta.load_variant(name).tables)]


def table_key(name: str, players: int) -> str:
    """The table's file stem and the prefix of its seeds: ``hoyle-1950-4``."""
    return f"{name}-{players}"


# ---------------------------------------------------------------- policies


class Policy:
    """Chooses among the legal ids: with probability ``meld`` a meld-like verb, else with
    probability ``discard`` a discard-like verb (where there is one), else any legal id.

    With ``out``, it first looks for a way to go out this turn (:func:`going_out_line`) and
    takes it: with the discard bias that keeps it from melding earlier, that goes out concealed.
    """

    def __init__(self, name: str, discard: float, meld: float, out: bool = False) -> None:
        self.name = name
        self.discard = discard
        self.meld = meld
        self.out = out

    def __str__(self) -> str:
        """``uniform``, ``discard 0.90``, ``meld 0.85``, ``out 0.97``, ``mixed 0.20/0.45 out``."""
        if self.name == "mixed":
            return f"mixed {self.discard:.2f}/{self.meld:.2f}{' out' if self.out else ''}"
        if self.name == "uniform":
            return "uniform"
        return f"{self.name} {max(self.discard, self.meld):.2f}"

    def choose(self, state: canasta.GameState, rng: random.Random, verbs: list[str]) -> int:
        ids = state.legal_action_ids()
        if self.out and any(verbs[i] != "draw" for i in ids):
            first = going_out_line(state, rng, verbs)
            if first is not None:
                return first
        r = rng.random()
        if r < self.meld:
            pool = [i for i in ids if verbs[i] in MELD_VERBS]
            if pool:
                return rng.choice(pool)
        elif r < self.meld + self.discard:
            pool = [i for i in ids if verbs[i] in DISCARD_VERBS]
            if pool:
                return rng.choice(pool)
        return rng.choice(ids)


def going_out_line(state: canasta.GameState, rng: random.Random, verbs: list[str],
                   tries: int = 2, depth: int = 40) -> Optional[int]:
    """The first id of a random run of meld-like actions (then a discard) that ends the hand
    by going out within this turn, or None if ``tries`` such runs do not."""
    for _ in range(tries):
        s = state
        first: Optional[int] = None
        for _ in range(depth):
            ids = s.legal_action_ids()
            pool = ([i for i in ids if verbs[i] in MELD_VERBS]
                    or [i for i in ids if verbs[i] == "discard"])
            if not pool:
                break
            a = rng.choice(pool)
            first = a if first is None else first
            s = s.apply(a)
            if s.is_hand_over:
                if s.result is not None and s.result.went_out is not None:
                    return first
                break
            if verbs[a] == "discard":
                break
    return None


KINDS = ("uniform", "discard", "meld", "out", "mixed")
KIND_WEIGHTS = (2, 3, 3, 2, 3)


def pick_policy(number: int, rng: random.Random) -> Policy:
    """A playout's policy: the first playouts of a table try each kind once, in turn, the
    later ones draw the kind; the parameters come from the playout's random generator."""
    kind = KINDS[number] if number < len(KINDS) else rng.choices(KINDS, weights=KIND_WEIGHTS)[0]
    if kind == "uniform":
        return Policy("uniform", 0.0, 0.0)
    if kind == "discard":
        return Policy("discard", rng.choice([0.7, 0.9, 0.97]), 0.0)
    if kind == "meld":
        return Policy("meld", 0.0, rng.choice([0.6, 0.85, 0.95]))
    if kind == "out":
        return Policy("out", rng.choice([0.9, 0.97]), 0.0, out=True)
    meld = round(rng.uniform(0.1, 0.8), 2)
    return Policy("mixed", round(rng.uniform(0.0, 1.0 - meld), 2), meld, out=rng.random() < 0.3)


# ---------------------------------------------------------------- recording


class Reasons:
    """The distinct refusal texts of a table, numbered in order of first appearance."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.index: dict[str, int] = {}

    def rollback(self, size: int) -> None:
        """Forget every text numbered ``size`` or later (those of a skipped playout)."""
        for text in self.texts[size:]:
            del self.index[text]
        del self.texts[size:]

    def number(self, text: Optional[str]) -> Optional[int]:
        if text is None:
            return None
        if text not in self.index:
            self.index[text] = len(self.texts)
            self.texts.append(text)
        return self.index[text]


def refusals(state: canasta.GameState, reasons: Reasons) -> list[list[Optional[int]]]:
    """``why_illegal`` of every id of the space, run-length encoded as ``[reason, run]``."""
    space = state.action_space
    texts = [reasons.number(state.why_illegal(space.decode(i))) for i in range(space.size)]
    runs: list[list[Optional[int]]] = []
    start = 0
    for i in range(1, len(texts) + 1):
        if i == len(texts) or texts[i] != texts[start]:
            runs.append([texts[start], i - start])
            start = i
    return runs


def hand_end(state: canasta.GameState) -> dict[str, Any]:
    """The result of a finished hand and the totals after it."""
    result = state.result
    assert result is not None, "a hand over without a result"
    return {
        "went_out": result.went_out,
        "concealed": result.concealed,
        "reason": result.reason,
        "scores": [{"side": s.side, "items": [[i.name, i.count, i.points] for i in s.items]}
                   for s in result.scores],
        "totals": list(state.totals),
        "game_over": state.is_game_over,
    }


class DeadEnd(Exception):
    """A position where a player is to act and has no legal action: an engine bug."""


def record_playout(name: str, players: int, number: int, verbs: list[str],
                   reasons: Reasons) -> dict[str, Any]:
    """One seeded playout: a single deal or a whole game of at most ``MAX_HANDS`` hands."""
    key = table_key(name, players)
    rng = random.Random(f"golden:{key}:{number}")
    seed = rng.getrandbits(32)
    policy = pick_policy(number, rng)
    whole_game = rng.random() < WHOLE_GAME_SHARE
    why_rng = random.Random(f"golden:{key}:{number}:why")
    state = canasta.new_game(name, players, seed=seed)
    hands: list[dict[str, Any]] = []
    while True:
        legal: list[list[int]] = []
        chosen: list[int] = []
        why: list[list[Any]] = []
        while not state.is_hand_over:
            if len(chosen) >= MAX_STEPS_PER_HAND:
                raise RuntimeError(f"{key} playout {number}: a hand of over {MAX_STEPS_PER_HAND} steps")
            ids = state.legal_action_ids()
            if not ids:
                raise DeadEnd(f"{key} playout {number} (seed {seed}, {policy}): a dead end at "
                              f"hand {len(hands)} step {len(chosen)}: {state.phase}, seat "
                              f"{state.current_player} to act, no legal action")
            if why_rng.random() < WHY_RATE:
                why.append([len(chosen), refusals(state, reasons)])
            a = policy.choose(state, rng, verbs)
            legal.append(list(ids))
            chosen.append(a)
            state = state.apply(a)
        why.append([len(chosen), refusals(state, reasons)])
        hands.append({"legal": legal, "chosen": chosen, "why": why, "end": hand_end(state)})
        if not whole_game or state.is_game_over or len(hands) >= MAX_HANDS:
            break
        state = state.next_hand()
    return {"number": number, "seed": seed, "policy": str(policy), "whole_game": whole_game,
            "hands": hands}


def space_record(name: str, players: int) -> dict[str, Any]:
    """The action space of a table: its size, every action's notation and their digest."""
    space = canasta.new_game(name, players, seed=0).action_space
    actions = [str(space.decode(i)) for i in range(space.size)]
    return {"size": space.size, "sha256": space_digest(actions), "actions": actions}


def space_digest(actions: list[str]) -> str:
    return hashlib.sha256("\n".join(actions).encode()).hexdigest()


def record_table(name: str, players: int) -> dict[str, Any]:
    """Every playout of a table, until its budget of decisions is reached."""
    space = space_record(name, players)
    verbs = [a.split()[0] for a in space["actions"]]
    reasons = Reasons()
    budget = BUDGETS.get((name, players), DEFAULT_BUDGET)
    playouts: list[dict[str, Any]] = []
    skipped: list[str] = []
    decisions = 0
    number = 0
    while decisions < budget:
        known = len(reasons.texts)
        try:
            p = record_playout(name, players, number, verbs, reasons)
        except DeadEnd as e:
            # Not golden: a dead end breaks the engine's promise that somebody is to act exactly
            # when there is a legal action. The playout is left out (its number stays unused)
            # and reported, rather than pinned for the rewrite to reproduce.
            reasons.rollback(known)
            skipped.append(str(e))
        else:
            decisions += sum(len(h["chosen"]) for h in p["hands"])
            playouts.append(p)
        number += 1
    return {"format": FORMAT, "variant": name, "players": players, "space": space,
            "reasons": reasons.texts, "playouts": playouts, "skipped": skipped}


def encode(data: dict[str, Any]) -> bytes:
    """The file's bytes: compact JSON, xz-compressed (deterministic)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return lzma.compress(text.encode(), format=lzma.FORMAT_XZ, preset=9 | lzma.PRESET_EXTREME)


def summary(data: dict[str, Any]) -> dict[str, Any]:
    """Counts that say what a table's recording covers."""
    playouts = data["playouts"]
    hands = [h for p in playouts for h in p["hands"]]
    ends = [h["end"] for h in hands]
    return {
        "playouts": len(playouts),
        "games": sum(p["whole_game"] for p in playouts),
        "hands": len(hands),
        "decisions": sum(len(h["chosen"]) for h in hands),
        "why": sum(len(h["why"]) for h in hands),
        "went out": sum(e["went_out"] is not None for e in ends),
        "concealed": sum(bool(e["concealed"]) for e in ends),
        "game over": sum(bool(e["game_over"]) for e in ends),
        "reasons": len(data["reasons"]),
        "skipped": data["skipped"],
    }


def record_one(table: tuple[str, int]) -> tuple[str, bytes, dict[str, Any], float]:
    start = time.perf_counter()
    data = record_table(*table)
    return table_key(*table), encode(data), summary(data), time.perf_counter() - start


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="directory of the files (default: %(default)s)")
    parser.add_argument("--check", action="store_true", help="record and compare with the files; write nothing")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="tables recorded in parallel")
    parser.add_argument("--only", nargs="+", metavar="VARIANT",
                        help="record only the tables of these variants (or tables such as hoyle-1950-4)")
    args = parser.parse_args(argv)

    print(f"recording with canasta {canasta.__version__} from {Path(canasta.__file__).parent}")
    todo = tables()
    if args.only:
        todo = [t for t in todo if t[0] in args.only or table_key(*t) in args.only]
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        done = list(pool.map(record_one, todo))

    print(f"{'table':<16}{'playouts':>9}{'games':>6}{'hands':>6}{'decisions':>10}{'why':>6}"
          f"{'out':>5}{'concl':>6}{'over':>5}{'reasons':>8}{'bytes':>9}{'secs':>6}")
    total_decisions = total_bytes = 0
    differ: list[str] = []
    written = {f"{key}.json.xz" for key, *_ in done}
    for key, blob, s, secs in done:
        path = args.out / f"{key}.json.xz"
        if args.check:
            if not path.exists() or path.read_bytes() != blob:
                differ.append(path.name)
        else:
            path.write_bytes(blob)
        total_decisions += s["decisions"]
        total_bytes += len(blob)
        print(f"{key:<16}{s['playouts']:>9}{s['games']:>6}{s['hands']:>6}{s['decisions']:>10}"
              f"{s['why']:>6}{s['went out']:>5}{s['concealed']:>6}{s['game over']:>5}"
              f"{s['reasons']:>8}{len(blob):>9}{secs:>6.1f}")
    print(f"{'total':<16}{'':>9}{'':>6}{'':>6}{total_decisions:>10}{'':>6}{'':>5}{'':>6}{'':>5}"
          f"{'':>8}{total_bytes:>9}")
    print(f"{len(done)} tables, {total_decisions:,} decisions, {total_bytes / 1e6:.2f} MB in {args.out}")
    skipped = [line for _, _, s, _ in done for line in s["skipped"]]
    if skipped:
        print(f"left out, {len(skipped)} playout(s) that hit an ENGINE BUG (report it):")
        for line in skipped:
            print(f"  {line}")
    stale = [] if args.only else sorted(p.name for p in args.out.glob("*.json.xz") if p.name not in written)
    if stale:
        print(f"files of no current table (delete them): {', '.join(stale)}")
    if args.check:
        if differ or stale:
            print(f"DIFFERENT from the recording: {', '.join(differ + stale)}")
            return 1
        print("identical to the recorded files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
