"""Hostile saves and positions on both cores (issue 28): the same outcome, never a crash.

Saves (``state_to_json``) and positions (``to_position``) of seeded playouts are mutated at many
fields: integers at the edges of 32 and 64 bits (2**31, 2**32, 2**63, 2**64, either sign), long
histories, lone surrogates in text, meld and hand indices out of range, values of the wrong
type. Each mutated document is loaded, and played a few actions on, in a child process on each
core (``CANASTA_CORE=python``, then the native core), many documents a process. The test
requires

- that neither child dies (a signal or an abort: the native core never crashes the interpreter);
- the same outcome on both cores for every document: the same state after loading and after
  each action (their saves' digests), or the same error, class and message;
- that an error is one of canasta's documented errors (docs/errors.md), never a bare
  ``OverflowError``, ``UnicodeEncodeError``, ``RuntimeError`` or another traceback.

The fast selection runs a small batch; ``-m slow`` a larger one (CI), and a million history
entries freed on both cores (issue 28, item 1).
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import pytest
import tomli_w

import canasta
from canasta._core import _backend

RUNNER = Path(__file__).with_name("fuzz_saves_runner.py")

ERRORS = tuple(obj.__name__ for name in canasta.__all__
               if isinstance(obj := getattr(canasta, name), type) and issubclass(obj, Exception))
"""The documented errors: every exception class that canasta exports."""

EDGES = (2**31 - 1, 2**31, 2**31 + 60, 2**32, 2**32 + 5, 2**63 - 1, 2**63, 2**64, 2**64 + 1,
         -(2**31) - 1, -(2**63), -(2**63) - 1, -(2**64), -1, 10**30)
"""Integers at the edges of the native core's 32- and 64-bit fields, and past them."""

TEXTS = ("\ud800", "a\udfffb", "\ud83d", "\U0001f0a1", "", "x" * 10_000)
"""Text a native string cannot hold (lone surrogates) and text it can."""

WRONG = (None, "7", 1.5, True, [], {}, [1, 2])
"""Values of the wrong type."""

TABLES = (("hoyle-1950", 4), ("samba", 4), ("new-canasta", 4), ("hand-and-foot", 4), ("modern-american", 4),
          ("bolivia", 2))
"""Bundled tables whose saves are mutated: groups, sequences (suits), down hands, a foot, the
talon set aside, a two-handed game."""


def _native_available() -> bool:
    return _backend._ext is not None


def _playout(variant: str, players: int, seed: int, actions: int) -> canasta.GameState:
    """A state ``actions`` random actions into a seeded game (through hands, to its end)."""
    rng = random.Random(seed)
    state = canasta.new_game(variant, players, seed=seed)
    for _ in range(actions):
        if state.is_game_over:
            break
        if state.is_hand_over:
            state = state.next_hand()
            continue
        state = state.apply(rng.choice(state.legal_action_ids()))
    return state


def _bases(rng: random.Random, count: int) -> list[canasta.GameState]:
    """Seeded states of every table in ``TABLES``: a fresh deal, mid-hand, and at a hand's end."""
    out = []
    for variant, players in TABLES:
        for _ in range(count):
            out.append(_playout(variant, players, rng.randrange(1000), rng.choice((0, 12, 40, 90))))
        state = _playout(variant, players, rng.randrange(1000), 0)
        rr = random.Random(1)
        while not state.is_hand_over:
            state = state.apply(rr.choice(state.legal_action_ids()))
        out.append(state)
    return out


# ------------------------------------------------------------------ mutations of a save (a dict)

def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value in a JSON document (the variant's settings left out)."""
    if isinstance(doc, dict):
        items: Any = doc.items()
    elif isinstance(doc, list):
        items = enumerate(doc)
    else:
        return
    for k, v in items:
        if prefix == () and k == "variant":
            continue
        if isinstance(k, int) and k > 3:  # a few items of each list are enough
            break
        yield prefix + (k,)
        yield from _paths(v, prefix + (k,))


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    for k in path[:-1]:
        doc = doc[k]
    doc[path[-1]] = value


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def _save_mutants(state: canasta.GameState, rng: random.Random, n: int) -> Iterator[str]:
    """``n`` mutated saves of ``state``: one field each set to an edge value, text, a value of the
    wrong type, or (a few) whole-document changes."""
    doc = json.loads(canasta.state_to_json(state))
    paths = list(_paths(doc))
    ints = [p for p in paths if type(_get(doc, p)) is int]
    texts = [p for p in paths if type(_get(doc, p)) is str and p[0] in ("result",)]
    for _ in range(n):
        d = copy.deepcopy(doc)
        roll = rng.random()
        if roll < 0.55 and ints:
            _set(d, rng.choice(ints), rng.choice(EDGES))
        elif roll < 0.62:
            # the turn's numbers (always present): count, melds_before, pending_top
            _set(d, ("turn", rng.choice(("count", "melds_before"))), rng.choice(EDGES + (1, 5, 50, 2**31 + 60)))
        elif roll < 0.70 and texts:
            _set(d, rng.choice(texts), rng.choice(TEXTS))
        elif roll < 0.74 and d.get("result"):
            items = d["result"]["scores"][0]["items"]
            if items:
                items[0][rng.choice(("name", "count", "points"))] = rng.choice(EDGES + TEXTS[:3])
        elif roll < 0.80:
            _set(d, rng.choice(paths), rng.choice(WRONG))
        elif roll < 0.86:
            # a meld or a card string out of range of the hands and melds
            d["melds"][0] = d["melds"][0] + [rng.choice(("7 7 7", "A A A A A A A A A", "3b 3b 3b", "JK JK JK 2"))]
        elif roll < 0.90:
            k = rng.choice((1, 50, 5000))
            d["history"] = d["history"] + [rng.choice(("draw", "add 7 to 99", "meld 7 7 7", "discard 3b"))] * k
            d["history_seats"] = d["history_seats"] + [rng.choice((0, 1, None, 2**31))] * k
        elif roll < 0.95:
            d["totals"] = [rng.choice(EDGES) for _ in d["totals"]]
        else:
            key = rng.choice(("red_threes", "black_threes_aside", "winners", "precise", "active", "totals"))
            d[key] = [rng.choice(EDGES + (0, 1)) for _ in range(rng.choice((1, 2, 3, 13)))]
        yield json.dumps(d)


# ------------------------------------------------------------------ mutations of a position

def _position_mutants(state: canasta.GameState, rng: random.Random, n: int) -> Iterator[str]:
    """``n`` mutated positions of ``state`` (the TOML parsed, one field changed, written again)."""
    doc = tomllib.loads(canasta.to_position(state))
    cur = state.current_player
    for _ in range(n):
        d = copy.deepcopy(doc)
        roll = rng.random()
        if roll < 0.35:
            key = rng.choice(("seed", "hand_number", "dealer", "last_turns", "to_act", "players"))
            d[key] = rng.choice(EDGES)
        elif roll < 0.55 and cur is not None:
            turn = d.setdefault("turn", {})
            key = rng.choice(("count", "melds_before", "melds_before", "start_hand", "took", "drew"))
            turn[key] = {"start_hand": "", "took": True, "drew": True}.get(key, rng.choice(EDGES + (1, 3, 9)))
        elif roll < 0.70:
            side = rng.choice(d.get("sides") or [{}])
            side[rng.choice(("red_threes", "black_threes_aside", "melds"))] = rng.choice(
                EDGES + (["7 7 7"] * 9, ["A A A"], 3))
        elif roll < 0.80:
            d["totals"] = [rng.choice(EDGES) for _ in d.get("totals", [0, 0])]
        elif roll < 0.90 and state.result is not None:
            res = d["result"]
            res["scores"][0]["items"][0][rng.choice(("count", "points"))] = rng.choice(EDGES)
        else:
            seat = rng.choice(d.get("seats") or [{}])
            seat["hand"] = rng.choice(("", "7 " * 300, "JK JK JK JK JK JK JK JK JK", "3r 3r", "Z"))
        try:
            yield tomli_w.dumps(d)
        except (TypeError, ValueError):  # pragma: no cover - a value TOML cannot write
            continue


# ------------------------------------------------------------------ running both cores

def _run(cases: list[dict[str, Any]], core: str, tmp: Path) -> list[list[Any]]:
    """Each case's outcome in a child process on ``core``; fails naming the case that killed it."""
    src = tmp / "cases.json"
    src.write_text(json.dumps(cases), encoding="utf-8")
    env = dict(os.environ)
    env.pop("CANASTA_CORE", None)
    if core == "python":
        env["CANASTA_CORE"] = "python"
    env["PYTHONPATH"] = os.pathsep.join([str(Path(canasta.__file__).parents[1])] +
                                        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    proc = subprocess.run([sys.executable, str(RUNNER), str(src)], capture_output=True, text=True, env=env,
                          timeout=600)
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    if proc.returncode != 0 or len(lines) != len(cases):
        at = len(lines)
        case = cases[at] if at < len(cases) else None
        shown = None if case is None else case["text"][:3000]
        pytest.fail(f"the {core} core's child ended with code {proc.returncode} at case {at} of {len(cases)} "
                    f"(a signal is negative: a crash)\nstderr: {proc.stderr[-2000:]}\ncase: {shown}")
    return lines


def _compare(cases: list[dict[str, Any]], tmp: Path) -> None:
    py = _run(cases, "python", tmp)
    if not _native_available():
        if os.environ.get("CANASTA_REQUIRE_NATIVE") == "1":
            pytest.fail(f"CANASTA_REQUIRE_NATIVE=1 but the native core is not in use: {_backend._why_not}")
        pytest.skip(f"the native core is not in use ({_backend._why_not}): only the Python core ran")
    nat = _run(cases, "native", tmp)
    for i, (a, b) in enumerate(zip(py, nat)):
        assert a == b, f"case {i}: python {a} != native {b}\n{cases[i]['text'][:3000]}"
        if a[0] == "error":
            assert a[1] in ERRORS, f"case {i}: an undocumented error {a[1]}: {a[2]}\n{cases[i]['text'][:3000]}"


def _cases(seed: int, per_state: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for state in _bases(rng, 2):
        for text in _save_mutants(state, rng, per_state):
            out.append({"kind": "save", "text": text, "steps": 3})
        for text in _position_mutants(state, rng, per_state // 2):
            out.append({"kind": "position", "text": text, "steps": 3})
    return out


@pytest.mark.slow
def test_hostile_saves_and_positions_same_outcome_on_both_cores(tmp_path: Path) -> None:
    """Issue 28: a mutated save or position loads to the same state on both cores, or is
    refused with the same documented error; neither core's process dies."""
    _compare(_cases(28, 12), tmp_path)


@pytest.mark.slow
def test_hostile_saves_and_positions_many(tmp_path: Path) -> None:
    """The same on a larger batch (CI)."""
    _compare(_cases(2028, 60), tmp_path)


# ------------------------------------------------------------------ named cases of issue 28

def _save(state: canasta.GameState, change: Callable[[dict[str, Any]], None]) -> str:
    doc = json.loads(canasta.state_to_json(state))
    change(doc)
    return json.dumps(doc)


def _meld_phase_state() -> canasta.GameState:
    """A hoyle-1950 state in phase meld of a side not yet opened."""
    state = canasta.new_game("hoyle-1950", 4, seed=1)
    return state.apply("draw")


def _hand_over_state(totals: Optional[tuple[int, ...]] = None) -> str:
    state = _playout("hoyle-1950", 4, 5, 0)
    rng = random.Random(5)
    while not state.is_hand_over:
        state = state.apply(rng.choice(state.legal_action_ids()))
    return _save(state, lambda d: d.update(totals=list(totals)) if totals else None)


TOTALS = [(0, -(2**63)), (2**63, 0), (2**62, -(2**62)), (10**400, 1)]
TURN_COUNTS = [2**31 - 1, 2**31 + 60, 2**32 + 5, 2**63 + 1]
ITEM_COUNTS = [2**32 + 5, 2**63, -(2**63) - 1]
SURROGATES = ["reason", "name"]


def _totals_save(totals: tuple[int, ...]) -> str:
    return _hand_over_state(totals)


def _count_save(count: int) -> str:
    return _save(_meld_phase_state(), lambda d: d["turn"].update(count=count))


def _item_count_save(count: int) -> str:
    def change(d: dict[str, Any]) -> None:
        d["result"]["scores"][0]["items"][0]["count"] = count

    return _save(canasta.state_from_json(_hand_over_state()), change)


def _surrogate_save(where: str) -> str:
    def change(d: dict[str, Any]) -> None:
        if where == "reason":
            d["result"]["reason"] = "out\ud800"
        else:
            d["result"]["scores"][1]["items"][0]["name"] = "\udfffcards"

    return _save(canasta.state_from_json(_hand_over_state()), change)


def test_issue_28_cases_same_outcome_on_both_cores(tmp_path: Path) -> None:
    """Items 4-6 on both cores (one child process each): totals beyond 64 bits dealt on through
    the next hands, a turn's count and a score item's count beyond 32 bits, lone surrogates in
    a result; the same states all along."""
    cases = ([{"kind": "save", "text": _totals_save(t), "steps": 40} for t in TOTALS]
             + [{"kind": "save", "text": _count_save(n), "steps": 4} for n in TURN_COUNTS]
             + [{"kind": "save", "text": _item_count_save(n), "steps": 2} for n in ITEM_COUNTS]
             + [{"kind": "save", "text": _surrogate_save(w), "steps": 3} for w in SURROGATES])
    _compare(cases, tmp_path)


@pytest.mark.parametrize("totals", TOTALS)
def test_totals_beyond_64_bits_kept_whole(totals: tuple[int, ...]) -> None:
    """Item 4: a game loaded with totals beyond 64-bit integers deals its next hand with the
    totals whole (natively they wrapped: -2**63 - 370 "won" with +9.2e18, or 2**63 raised
    OverflowError)."""
    state = canasta.state_from_json(_totals_save(totals))
    assert state.next_hand().totals == totals == state.totals


@pytest.mark.parametrize("count", TURN_COUNTS)
def test_turn_count_kept_whole(count: int) -> None:
    """Item 5: a turn's count beyond 32 bits is kept whole (it read back as -2147483588 and
    changed the legal actions natively)."""
    state = canasta.state_from_json(_count_save(count))
    assert state.turn.count == count
    assert canasta.state_from_json(canasta.state_to_json(state)) == state


@pytest.mark.parametrize("count", ITEM_COUNTS)
def test_score_item_count_kept_whole(count: int) -> None:
    """Item 5: a score item's count beyond 32 bits saves back whole (2**32 + 5 saved as 5)."""
    state = canasta.state_from_json(_item_count_save(count))
    assert state.result is not None and state.result.scores[0].items[0].count == count
    assert canasta.state_from_json(canasta.state_to_json(state)) == state


@pytest.mark.parametrize("where", SURROGATES)
def test_lone_surrogate_loads(where: str) -> None:
    """Item 6: a lone surrogate in a result's reason or an item's name loads (the native core
    raised UnicodeEncodeError) and saves back the same."""
    state = canasta.state_from_json(_surrogate_save(where))
    assert canasta.state_from_json(canasta.state_to_json(state)) == state


def test_melds_before_beyond_the_sides_melds_refused() -> None:
    """Item 7: turn.melds_before larger than the acting side's melds is refused naming the key
    (it loaded, and then retract failed natively: "range end index 50 out of range")."""
    state = _meld_phase_state()
    with pytest.raises(canasta.StateError) as e:
        canasta.state_from_json(_save(state, lambda d: d["turn"].update(melds_before=50)))
    assert e.value.path == "turn.melds_before"
    position = canasta.to_position(state) + "melds_before = 50\n"
    assert "[turn]" in position
    with pytest.raises(canasta.PositionError) as e2:
        canasta.load_position(position)
    assert e2.value.path == "turn.melds_before"


def test_melds_before_within_the_sides_melds_round_trips() -> None:
    """Item 7's other half: a turn that has melded (melds_before below the side's melds) saves
    and loads back equal, as a position and as a save."""
    rng = random.Random(4)
    state = canasta.new_game("new-canasta", 4, seed=4)
    found = 0
    for _ in range(3000):
        if state.is_hand_over:
            break
        seat = state.current_player
        if seat is not None and state.turn.melds_before < len(state.melds[state.side_of(seat)]):
            found += 1
            assert canasta.load_position(canasta.to_position(state)) == state
            assert canasta.state_from_json(canasta.state_to_json(state)) == state
        state = state.apply(rng.choice(state.legal_action_ids()))
    assert found >= 3


def test_start_hand_of_no_cards_round_trips() -> None:
    """Item 14: a turn's start_hand of no cards ("" in a position) saves and loads back equal."""
    state = canasta.load_position(canasta.to_position(canasta.new_game("new-canasta", 4, seed=3)) +
                                  "\n[turn]\nstart_hand = \"\"\n")
    assert state.turn.start_hand == (0,) * 15
    again = canasta.load_position(canasta.to_position(state))
    assert again == state and again.turn == state.turn


def test_huge_players_is_an_argument_error() -> None:
    """Item 13: an integer too long to print is refused as any out-of-range argument is."""
    with pytest.raises(canasta.ArgumentError):
        canasta.new_game("hoyle-1950", players=10**5000)
    with pytest.raises(canasta.ArgumentError):
        canasta.new_game("hoyle-1950", seed=10**5000)
    state = canasta.new_game("hoyle-1950", 4, seed=1)
    with pytest.raises(canasta.ArgumentError, match="player: must be a seat from 0 to 3, not an integer of"):
        state.observation(10**5000)


_FREE_HISTORY = """
import json, sys, canasta
n = int(sys.argv[1])
d = json.loads(canasta.state_to_json(canasta.new_game("hoyle-1950", 4, seed=1)))
d["history"] = ["draw"] * n
d["history_seats"] = [0] * n
s = canasta.state_from_json(json.dumps(d))
assert len(s.history) == n
t = s.apply(s.legal_action_ids()[0])
del s
assert len(t.history) == n + 1
del t
print("freed", canasta.core_info())
"""


@pytest.mark.slow
@pytest.mark.parametrize("core", ["python", "native"])
def test_a_million_history_entries_are_freed(core: str) -> None:
    """Item 1: a save of a million history entries loads, plays, and is freed without a crash
    (300,000 overflowed the native core's stack when the state was freed)."""
    if core == "native" and not _native_available():
        pytest.skip(f"the native core is not in use ({_backend._why_not})")
    env = dict(os.environ)
    env.pop("CANASTA_CORE", None)
    if core == "python":
        env["CANASTA_CORE"] = "python"
    env["PYTHONPATH"] = str(Path(canasta.__file__).parents[1])
    proc = subprocess.run([sys.executable, "-c", _FREE_HISTORY, "1000000"], capture_output=True, text=True,
                          env=env, timeout=600, cwd=env["PYTHONPATH"])  # (as test_native's panic test)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("freed")
