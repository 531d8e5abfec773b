"""A small, repeatable mutation run over the rule checks and the scoring of ``canasta/_core``.

Each mutant is a fixed edit of the Python core (a rule check loosened or tightened by one, a
score row given to the wrong side, ...). The script copies the package (with the bundled
variants) into a temporary directory, applies one mutant there, and runs a chosen subset of the
tests against the copy (``pytest -x``, a few seconds each); the mutant is **killed** when some
test fails, and **survives** when they all pass. The working tree is never changed.

    python tests/mutation/mutate.py            # every mutant (2.5 min of CPU, at low priority)
    python tests/mutation/mutate.py --list     # the mutants and their tests
    python tests/mutation/mutate.py r3-sign wild-cap-plus-one   # some of them

It runs the unmutated copy's subsets first (they must pass), then every mutant, at ``nice 10``,
one at a time, and prints the score (killed / mutants). It exits 1 if a mutant that is not
documented as equivalent survives. It is not part of the test suite (nor of CI): run it when
the rules core or its tests change, and make every survivor a test (citing its rule) or, if no
rule can tell it from the original, an equivalent mutant documented below (``equivalent``).

Last run (40 mutants): 36 killed, 4 documented equivalent, no other survivor.

Equivalent mutants (no play can tell them from the original; documented, not tested):

* ``seq-highest-plus-one``: ``seq_valid`` allowing a sequence to end one rank above the ace
  cannot be observed: no card ranks above the ace, so no sequence can be lengthened there
  (samba 4.3: "ace the highest ... no wrap-around"); the action space has no such action.
* ``one-natural``: ``Rules.valid`` accepting a meld of one natural card fewer than
  ``melds.min_naturals`` cannot be observed in a bundled variant: every new meld is laid as
  three cards holding a natural pair (the action space has no other new meld; a pile taken
  for a new meld gives its top card a natural from the hand, and a wild card at most), and
  cards are only ever added to a meld, so no meld holds fewer than two naturals; every bundled
  variant has ``min_naturals = 2``. (A house variant with ``min_naturals = 3`` would tell.)
* ``sequence-any-suit``: ``sequence_problem`` not checking the suits of a new sequence cannot
  be observed: the action space holds only sequences of one suit (``meld 5h 6s 7h`` is refused
  as no action of the variant before any rule is asked).
* ``wild-top-taken-onto``: ``take_problem`` letting a deuce on top be taken in another way than
  with a pair cannot be observed: the action space has no other take of a wild card (``take
  2 2`` and ``take JK JK`` are the only takes of a wild card on top).

Survivors of earlier runs that became tests (tests/test_rules_edges.py, each citing its rule):
``new-meld-before-complete`` (hand-and-foot A11), ``planner-wild-room`` (hoyle rules 23, 48,
50), ``closed-meld-of-eight`` (hand-and-foot 4.1) and ``past-seven-any-time`` (brazilian 4.2 at
two players). Mutants first written against one of several redundant checks (the pile onto a
samba, a sequence of eight, the pile onto a closed canasta, the canastas needed) were rewritten
to change the rule where all its checks read it, so that they change behaviour.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

ROOT = Path(__file__).resolve().parents[2]
CORE = "canasta/_core/"
RULES = "tests/test_rules_{}.py"


@dataclass(frozen=True)
class Mutant:
    """One mutation: ``edits`` are (file under canasta/_core, text, replacement); each text
    must occur exactly once in its file."""

    name: str
    rule: str
    edits: tuple[tuple[str, str, str], ...]
    tests: tuple[str, ...]
    equivalent: Optional[str] = None


def rules(*variants: str) -> tuple[str, ...]:
    """The scenario files of these variants (``hoyle`` for tests/test_rules_hoyle.py)."""
    return tuple(RULES.format(v) for v in variants)


SEQUENCES_SEEDED = ("tests/test_core_sequences.py", "-k", "seeded_games and 4-")
"""The seeded sequence-variant games at four players (tests/test_core_sequences.py)."""
GOING_OUT = ("tests/test_properties.py", "-k", "going_out")
"""The going-out scoring checks of every table (tests/test_properties.py)."""

MUTANTS: tuple[Mutant, ...] = (
    # ------------------------------------------------------------ meld shapes (_rules.py)
    Mutant("canasta-at-eight", "hoyle rule 24: a canasta is a meld of seven or more cards",
           (("_rules.py", "return m[1] + m[2] + m[3] >= self.cs and (m[0] == WILD",
             "return m[1] + m[2] + m[3] > self.cs and (m[0] == WILD"),),
           rules("hoyle")),
    Mutant("canasta-base-five", "bicycle: a canasta needs a base of four natural cards",
           (("_rules.py", "(m[0] == WILD or m[1] >= self.cmin_nat)", "(m[0] == WILD or m[1] > self.cmin_nat)"),),
           rules("bicycle", "hoyle")),
    Mutant("one-natural", "wikipedia: a meld must consist of at least two natural cards",
           (("_rules.py", "if nat < self.min_nat or size < self.min_size:",
             "if nat < self.min_nat - 1 or size < self.min_size:"),),
           rules("wikipedia", "hoyle"),
           equivalent="every new meld is laid as three cards with a natural pair (see the module docstring)"),
    Mutant("wild-cap-plus-one", "hoyle rule 23: not more than three wild cards (issue 22: is_legal and why_illegal disagreed)",
           (("_rules.py", "if wilds <= self.wild_cap(nat):", "if wilds <= self.wild_cap(nat) + 1:"),),
           rules("hoyle", "bicycle")),
    Mutant("online-wild-ratio", "online: wild cards never more than natural cards",
           (("_rules.py", 'return min(self.max_wild, naturals)\n', 'return min(self.max_wild, naturals + 1)\n'),),
           rules("online")),
    Mutant("new-canasta-wild-ratio", "new-canasta: more natural cards than wild cards",
           (("_rules.py", "return min(self.max_wild, naturals - 1)", "return min(self.max_wild, naturals)"),),
           rules("new_canasta")),
    Mutant("hand-and-foot-wild-ratio", "hand-and-foot 4.2: naturals at least twice the wild cards",
           (("_rules.py", "return min(self.max_wild, naturals // 2)", "return min(self.max_wild, (naturals + 1) // 2)"),),
           rules("hand_and_foot")),
    Mutant("canastas-never-closed", "cuban 4.3: no canasta holds more than seven cards",
           (("_rules.py", "self.closed = m.canasta_closed", "self.closed = False"),),
           rules("cuban", "new_canasta")),
    Mutant("closed-meld-of-eight", "hand-and-foot 4.1, cuban 4.3: a meld is closed at seven cards",
           (("_rules.py", "if self.closed and size > self.cs:", "if self.closed and size > self.cs + 1:"),),
           rules("cuban") + ("tests/test_rules_edges.py",)),
    Mutant("sevens-take-wild", "modern-american 4.4: a meld of sevens never takes a wild card",
           (("_rules.py", "if wilds and rank in self.natural_only:", "if False:"),),
           rules("modern_american")),
    Mutant("sequences-of-eight", "samba 4.4: a sequence holds at most seven cards",
           (("_rules.py", "self.seq_max = sq.max_size", "self.seq_max = sq.max_size + 1"),),
           rules("samba")),
    Mutant("seq-highest-plus-one", "samba 4.3: ace the highest card of a sequence",
           (("_rules.py", "low + m[1] - 1 <= self.seq_hi", "low + m[1] - 1 <= self.seq_hi + 1"),),
           rules("samba"),
           equivalent="no card ranks above the ace (see the module docstring)"),
    Mutant("new-meld-before-complete", "hand-and-foot A11: a new meld of a rank only once the first is complete",
           (("_rules.py", "return m[1] + m[2] + m[3] < self.cs\n", "return m[1] + m[2] + m[3] < self.cs - 1\n"),),
           rules("hand_and_foot") + ("tests/test_rules_edges.py",)),
    Mutant("initial-need-off-by-one", "hoyle rule 33: the minimum count by the side's total (1,500: 90)",
           (("_rules.py", "need = self.variant.initial_need(score)", "need = self.variant.initial_need(score + 5)"),),
           rules("hoyle", "wikipedia")),
    Mutant("wild-room-one-path", "hoyle rule 23: not more than three wild cards, in the generator of legal "
           "actions only (issue 22: is_legal and why_illegal disagreed, and the helpers asking only is_legal missed it)",
           (("_table.py", "return (R.unlimited and nat + cap >= R.cs and nat >= R.cmin_nat) or cap > jk + tw",
             "return (R.unlimited and nat + cap >= R.cs and nat >= R.cmin_nat) or cap + 1 > jk + tw"),),
           rules("hoyle", "bicycle")),
    Mutant("wild-add-refusal-one-path", "hoyle rule 23: not more than three wild cards, in the refusal of an "
           "addition only (is_legal and why_illegal then disagree with legal_actions)",
           (("_meld.py", "    why = meld_shape_problem(R, nm)\n    if why is not None:\n        return why\n    if needs_natural(c):",
             "    why = meld_shape_problem(R, nm) if k > TWO else None\n    if why is not None:\n        return why\n"
             "    if needs_natural(c):"),),
           rules("hoyle", "bicycle")),
    Mutant("planner-wild-room", "no dead ends: the turn's plan counts the wild cards a meld may still take "
           "(hoyle rule 23: at most three)",
           (("_canastas.py", "    return max(0, cap - m[2] - m[3])\n", "    return max(0, cap + 1 - m[2] - m[3])\n"),),
           rules("hoyle", "bicycle", "wikipedia") + ("tests/test_rules_edges.py",)),
    # ------------------------------------------------------------ melding (_meld.py)
    Mutant("black-threes-any-time", "hoyle rule 23: black threes melded only when going out",
           (("_meld.py", "if R.b3_last and not b3_last_ok(R, h2, c.phase == PH_FINAL_MELD):",
             "if False:"),),
           rules("wikipedia", "hoyle")),
    Mutant("sequence-any-suit", "samba 4.3: a sequence is of one suit",
           (("_meld.py", "        if SUIT_OF[k] != suit:\n", "        if False:\n"),),
           rules("samba"),
           equivalent="the action space has no sequence of two suits (see the module docstring)"),
    Mutant("sequence-gap", "samba 4.3: a sequence grows at its ends, in consecutive order",
           (("_meld.py", "if kr != low - 1 and kr != high + 1:", "if kr != low - 1 and kr != high + 1 and kr != high + 2:"),),
           rules("samba") + SEQUENCES_SEEDED),
    # ------------------------------------------------------------ the pile (_draw.py)
    Mutant("pile-onto-samba", "samba 3.5, 4.4: the pile taken onto a sequence of fewer than seven (issue 22)",
           (("_draw.py", "            if m[1] >= R.seq_max:\n                return (W.TEXT, f\"that sequence of",
             "            if False:\n                return (W.TEXT, f\"that sequence of"),
            ("_draw.py", "if first_alike(melds, i, mb) != i or m[1] >= R.seq_max or (rank",
             "if first_alike(melds, i, mb) != i or (rank"),
            ("_rules.py", "self.seq_min <= m[1] <= self.seq_max and", "self.seq_min <= m[1] <= self.seq_max + 1 and")),
           SEQUENCES_SEEDED),
    Mutant("wild-top-taken-onto", "hoyle rule 19 / bicycle: a wild card on top is taken only with a natural pair",
           (("_draw.py", "    if top <= TWO:\n        if way != W_PAIR:", "    if top < TWO:\n        if way != W_PAIR:"),),
           rules("hand_and_foot", "hoyle"),
           equivalent="the action space has no other way to take a wild card (see the module docstring)"),
    Mutant("frozen-taken-like-unfrozen", "hoyle rule 31: a frozen pile is taken only with a natural pair",
           (("_rules.py", "self.frozen_ways = _way_flags(self.take_frozen)", "self.frozen_ways = _way_flags(self.take_unfrozen)"),),
           rules("hoyle", "bicycle")),
    Mutant("never-frozen-before-melding", "hoyle rule 30: the pile is frozen against a side that has not melded",
           (("_draw.py", "return c.frozen or (R.frozen_until_initial and not c.opened[side])", "return c.frozen"),),
           rules("hoyle", "bicycle")),
    # ------------------------------------------------------------ going out (_finish.py, _plan.py, _canastas.py)
    Mutant("one-canasta-fewer", "samba 6.1, three-pack: two canastas to go out",
           (("_rules.py", "self.canastas_needed = g.canastas", "self.canastas_needed = g.canastas - 1"),),
           rules("three_pack", "samba")),
    Mutant("partner-not-in-foot", "hand-and-foot 6.3: the partner must be playing from his foot",
           (("_finish.py", "    if not R.partner_down:\n        return True", "    if True:\n        return True"),),
           rules("hand_and_foot")),
    Mutant("out-without-permission", "brazilian 6.1: going out only after the partner's yes",
           (("_finish.py", "return not flags & F_NO and (not c.d.R.permission_required or bool(flags & F_YES))",
             "return not flags & F_NO"),
            ("_finish.py", "may_out = not flags & F_NO and (not R.permission_required or bool(flags & F_YES))",
             "may_out = not flags & F_NO")),
           rules("brazilian")),
    Mutant("past-seven-any-time", "brazilian 4.2: an escalera passes seven only in the turn of going out",
           (("_finish.py", "if m[0] >= SEQ and m[1] > R.seq_max:\n            return True",
             "if m[0] >= SEQ and m[1] > R.seq_max + 1:\n            return True"),),
           rules("brazilian") + ("tests/test_rules_edges.py",)),
    # ------------------------------------------------------------ scoring (_score.py)
    Mutant("short-sequence-below-four", "brazilian 7.3: a sequence of fewer than five cards loses 1,000 (issue 22)",
           (("_score.py", "if m[1] < R.short_seq_below:", "if m[1] < R.short_seq_below - 1:"),),
           SEQUENCES_SEEDED),
    Mutant("short-sequence-below-six", "brazilian 7.3: a sequence of fewer than five cards loses 1,000",
           (("_score.py", "if m[1] < R.short_seq_below:", "if m[1] <= R.short_seq_below:"),),
           SEQUENCES_SEEDED),
    Mutant("samba-at-six", "samba 5.1: a samba is a sequence of seven",
           (("_score.py", "                if R.is_canasta(m):\n                    seqc += 1",
             "                if m[1] >= 6:\n                    seqc += 1"),),
           rules("samba") + SEQUENCES_SEEDED),
    Mutant("one-wild-natural-canasta", "hoyle rule 24: a natural canasta has no wild card",
           (("_score.py", "                elif m[2] + m[3] == 0:\n", "                elif m[2] + m[3] <= 1:\n"),),
           rules("hoyle")),
    Mutant("red-three-table-shifted", "hoyle rule 16: red threes 100 each, all four 800",
           (("_score.py", "                bonus = table[n_red] if n_red < len(table) else table[-1]\n",
             "                bonus = table[n_red - 1] if n_red < len(table) else table[-1]\n"),),
           rules("hoyle", "bicycle")),
    Mutant("r3-sign", "samba 7.3: red threes plus only with two canastas",
           (("_score.py", "return signs[canastas] if canastas < len(signs) else signs[-1]",
             "return signs[canastas + 1] if canastas + 1 < len(signs) else signs[-1]"),),
           rules("samba", "cuban")),
    Mutant("r3-never-minus", "hoyle rule 16: red threes count minus for a side without a meld",
           (("_score.py", "elif not melds and R.r3_minus:", "elif False:"),),
           rules("hoyle", "bicycle")),
    Mutant("concealed-always", "hoyle rule 53: the concealed bonus only for going out concealed",
           (("_score.py", "if concealed and R.conc_bonus:", "if R.conc_bonus:"),),
           rules("hoyle", "online")),
    Mutant("going-out-bonus-everyone", "hoyle rule 53: the going-out bonus to the side that went out",
           (("_score.py", "out_here = went_out >= 0 and R.side_of[went_out] == side", "out_here = went_out >= 0"),),
           GOING_OUT),
    Mutant("black-three-caught-also-five", "bolivia 7.3: a black three left in hand counts -100 (not also its 5)",
           (("_score.py", "                    left -= hand[B3] * vals[B3]  # the penalty counts instead",
             "                    left -= 0  # the penalty counts instead"),),
           rules("bolivia")),
    Mutant("no-canasta-minus-with-one", "modern-american 7.8: melded cards count minus without a canasta",
           (("_score.py", "if R.no_canasta_minus and not canastas_all:", "if R.no_canasta_minus and canastas_all < 2:"),),
           rules("modern_american")),
    Mutant("aces-held-four", "modern-american 7.7: three or more aces (or sevens) held",
           (("_score.py", "if c.hands[s][rank] + c.downs[s][rank] >= count:", "if c.hands[s][rank] + c.downs[s][rank] > count:"),),
           rules("modern_american")),
)


def _copy(dest: Path) -> Path:
    """The package and its variants (as an installed copy has them) under ``dest``."""
    pkg = dest / "canasta"
    shutil.copytree(ROOT / "canasta", pkg, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copytree(ROOT / "variants", pkg / "_variants")
    return pkg


def _apply(pkg: Path, m: Mutant) -> None:
    for file, old, new in m.edits:
        path = pkg / "_core" / file
        text = path.read_text(encoding="utf-8")
        if text.count(old) != 1:
            raise SystemExit(f"mutant {m.name}: {old!r} occurs {text.count(old)} times in {CORE}{file} (not once)")
        path.write_text(text.replace(old, new), encoding="utf-8")


def _run(where: Path, tests: Sequence[str], timeout: float) -> tuple[str, float]:
    """Run the tests against the copy in ``where``: "pass", "fail" or "timeout", and seconds."""
    env = dict(os.environ, PYTHONPATH=str(where), HYPOTHESIS_PROFILE="dev", PYTHONDONTWRITEBYTECODE="1")
    args = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
            "-o", "addopts=", "--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"),
            *[str(ROOT / t) if t.startswith("tests/") else t for t in tests]]
    start = time.perf_counter()
    try:
        # cwd: the copy, so that ``python -m pytest`` imports it (sys.path[0]), not the tree
        done = subprocess.run(args, cwd=where, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - start
    took = time.perf_counter() - start
    if done.returncode == 0:
        return "pass", took
    if done.returncode == 1:
        return "fail", took
    raise SystemExit(f"pytest exited {done.returncode} on {tests}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="mutants to run (default: all)")
    ap.add_argument("--list", action="store_true", help="list the mutants and their tests")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per mutant (a hang is a kill)")
    ap.add_argument("--tests", help="pytest arguments (one string) to run instead of each mutant's subset, "
                    "to look for a test that tells a survivor from the original")
    args = ap.parse_args(argv)
    chosen = [m for m in MUTANTS if not args.names or m.name in args.names]
    if args.tests:
        chosen = [dataclasses.replace(m, tests=tuple(shlex.split(args.tests))) for m in chosen]
    unknown = set(args.names) - {m.name for m in MUTANTS}
    if unknown:
        ap.error(f"unknown mutants: {', '.join(sorted(unknown))}")
    if args.list:
        for m in chosen:
            print(f"{m.name:30} {m.rule}\n{'':30} tests: {' '.join(m.tests)}"
                  + (f"\n{'':30} equivalent: {m.equivalent}" if m.equivalent else ""))
        return 0
    if hasattr(os, "nice"):
        os.nice(10)  # a shared machine: the tests run at low priority
    with tempfile.TemporaryDirectory(prefix="canasta-mutants-") as tmp:
        base = Path(tmp) / "original"
        base.mkdir()
        _copy(base)
        env = dict(os.environ, PYTHONPATH=str(base))
        imported = subprocess.run([sys.executable, "-c", "import canasta; print(canasta.__file__)"], cwd=base,
                                  env=env, capture_output=True, text=True, check=True).stdout.strip()
        assert imported.startswith(str(base)), f"the copy is not what gets imported: {imported}"
        subsets = sorted({m.tests for m in chosen})
        for tests in subsets:
            status, took = _run(base, tests, args.timeout)
            if status != "pass":
                print(f"the unmutated core does not pass {' '.join(tests)} ({status}): fix that first")
                return 2
        print(f"unmutated core: {len(subsets)} test subsets pass")
        killed = 0
        survivors: list[Mutant] = []
        total_time = 0.0
        for m in chosen:
            where = Path(tmp) / m.name
            where.mkdir()
            _apply(_copy(where), m)
            status, took = _run(where, m.tests, args.timeout)
            total_time += took
            shutil.rmtree(where)
            verdict = {"fail": "killed", "timeout": "killed (timeout)", "pass": "SURVIVED"}[status]
            if status != "pass":
                killed += 1
            elif m.equivalent is None:
                survivors.append(m)
            else:
                verdict = "survived (equivalent)"
            print(f"{m.name:30} {verdict:22} {took:5.1f} s   {m.rule}", flush=True)
    equivalent = sum(1 for m in chosen if m.equivalent)
    print(f"\nscore: {killed}/{len(chosen)} killed ({equivalent} documented equivalent); "
          f"{len(survivors)} undocumented survivors; {total_time:.0f} s of tests")
    for m in survivors:
        print(f"  survivor {m.name}: {m.rule}")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
