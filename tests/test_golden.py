"""Golden traces: the rules engine must reproduce, decision by decision, what it did when the
traces were recorded (``tests/golden/record.py`` says how and from what).

For every bundled variant at every table size it allows, ``tests/golden/<variant>-<players>.json.xz``
holds seeded playouts (single deals and whole games, played by random policies that run the
stock out, meld eagerly or go out concealed). Replaying one through the public API checks:

* at every step, that ``legal_action_ids()`` lists exactly the recorded ids in the recorded
  order, then applies the recorded choice;
* at every hand's end, the result (who went out, concealed or not, the reason, every side's
  itemised score) and the totals, and whether the game is over;
* at sampled steps (and at every hand's end), the exact text of ``why_illegal`` for every id of
  the action space (None for the legal ones): the wording of every refusal;
* the action space: its size and the notation of every id.

These guard a rewrite of the engine for speed: it must change nothing that a player or a bot can
observe. Re-record only for a deliberate change of the rules (see ``tests/golden/record.py``).

The default run replays the first hand of the first playouts of every table; the complete replay of every table
is marked ``slow`` (``pytest -m slow``; CI runs it).
"""

from __future__ import annotations

import copy
import hashlib
import json
import lzma
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

import pytest

import canasta

GOLDEN = Path(__file__).parent / "golden"
FORMAT = 1
FAST_PLAYOUTS = 2
"""Playouts per table whose first hand the default (fast) run replays."""
SHOWN = 8
"""Actions of the history shown before a mismatch."""

TABLES = [
    (name, players)
    for name in canasta.variant_names()
    for players in sorted(int(k) for k in canasta.load_variant(name).tables)
]
"""Every bundled variant at every player count its tables allow."""
KEYS = [f"{name}-{players}" for name, players in TABLES]


@lru_cache(maxsize=None)
def load(key: str) -> dict[str, Any]:
    """The recording of a table (``hoyle-1950-4``)."""
    path = GOLDEN / f"{key}.json.xz"
    assert path.exists(), f"no golden trace for {key}: record it with tests/golden/record.py"
    data: dict[str, Any] = json.loads(lzma.decompress(path.read_bytes()))
    assert data["format"] == FORMAT, f"{path.name}: format {data['format']}, this test reads {FORMAT}"
    return data


def notations(state: canasta.GameState) -> list[str]:
    """The notation of every id of the state's action space."""
    space = state.action_space
    return [str(space.decode(i)) for i in range(space.size)]


def expand(runs: list[list[Any]], reasons: list[str]) -> list[Optional[str]]:
    """The recorded ``why_illegal`` texts of every id, from their ``[reason, run]`` encoding."""
    out: list[Optional[str]] = []
    for reason, run in runs:
        out += [None if reason is None else reasons[reason]] * run
    return out


def hand_end(state: canasta.GameState) -> dict[str, Any]:
    """A finished hand's result and totals, in the recording's form."""
    r = state.result
    if r is None:
        return {"result": None}
    return {
        "went_out": r.went_out,
        "concealed": r.concealed,
        "reason": r.reason,
        "scores": [{"side": s.side, "items": [[i.name, i.count, i.points] for i in s.items]}
                   for s in r.scores],
        "totals": list(state.totals),
        "game_over": state.is_game_over,
    }


def check_space(data: dict[str, Any]) -> None:
    """The table's action space has the recorded size and the recorded notation for every id."""
    key = f"{data['variant']}-{data['players']}"
    want = data["space"]
    got = notations(canasta.new_game(data["variant"], data["players"], seed=0))
    digest = hashlib.sha256("\n".join(got).encode()).hexdigest()
    if len(got) == want["size"] and digest == want["sha256"] and got == want["actions"]:
        return
    lines = [f"{key}: the action space changed: size {len(got)} (recorded {want['size']}), "
             f"sha256 {digest[:12]}... (recorded {want['sha256'][:12]}...)"]
    differ = [i for i in range(max(len(got), len(want["actions"])))
              if i >= len(got) or i >= len(want["actions"]) or got[i] != want["actions"][i]]
    for i in differ[:10]:
        exp = want["actions"][i] if i < len(want["actions"]) else "(none)"
        act = got[i] if i < len(got) else "(none)"
        lines.append(f"  id {i}: recorded {exp!r}, now {act!r}")
    if len(differ) > 10:
        lines.append(f"  ... and {len(differ) - 10} more ids")
    pytest.fail("\n".join(lines))


class Replay:
    """Replays one recorded playout of a table and fails with a located, readable message."""

    def __init__(self, data: dict[str, Any], playout: dict[str, Any],
                 hands: Optional[int] = None) -> None:
        self.data = data
        self.playout = playout
        self.hands: list[dict[str, Any]] = playout["hands"][:hands]
        self.key = f"{data['variant']}-{data['players']}"
        self.recorded: list[str] = data["space"]["actions"]
        self.path: list[str] = []
        self.hand = 0
        self.step = 0

    # ------------------------------------------------------------ messages

    def where(self) -> str:
        p = self.playout
        shown = self.path[-SHOWN:]
        before = ("..., " if len(self.path) > SHOWN else "") + ", ".join(shown)
        return (f"{self.key} playout {p['number']} (seed {p['seed']}, {p['policy']}), "
                f"hand {self.hand}, step {self.step}\n"
                f"  replay: canasta.new_game({self.data['variant']!r}, {self.data['players']}, "
                f"seed={p['seed']}), then the recorded ids"
                f"{' (next_hand() between hands)' if self.hand else ''}\n"
                f"  after: [{before}]")

    def name(self, i: int) -> str:
        """A recorded id in notation."""
        return self.recorded[i] if 0 <= i < len(self.recorded) else f"<id {i}>"

    def fail(self, what: str) -> None:
        pytest.fail(f"{self.where()}\n{what}", pytrace=False)

    # ------------------------------------------------------------ checks

    def check_legal(self, state: canasta.GameState, want: list[int]) -> None:
        got = list(state.legal_action_ids())
        if got == want:
            return
        exp = [self.name(i) for i in want]
        act = [self.name(i) for i in got]
        missing = [a for a in exp if a not in act]
        extra = [a for a in act if a not in exp]
        detail = (f"  no longer legal: {missing}\n  newly legal: {extra}" if missing or extra
                  else "  the same actions in another order")
        self.fail(f"legal actions differ:\n  expected {exp}\n  actual   {act}\n{detail}")

    def check_why(self, state: canasta.GameState, runs: list[list[Any]]) -> None:
        want = expand(runs, self.data["reasons"])
        space = state.action_space
        got = [state.why_illegal(space.decode(i)) for i in range(space.size)]
        if got == want:
            return
        differ = [i for i in range(len(want)) if got[i] != want[i]]
        lines = [f"why_illegal differs for {len(differ)} of {len(want)} actions:"]
        for i in differ[:10]:
            lines.append(f"  {self.name(i)!r}:\n    expected {want[i]!r}\n    actual   {got[i]!r}")
        if len(differ) > 10:
            lines.append(f"  ... and {len(differ) - 10} more")
        self.fail("\n".join(lines))

    def check_end(self, state: canasta.GameState, want: dict[str, Any]) -> None:
        if not state.is_hand_over:
            self.fail(f"the hand should be over ({want['reason']!r}) but goes on: legal "
                      f"{[self.name(i) for i in state.legal_action_ids()]}")
        self.check_legal(state, [])
        got = hand_end(state)
        if got == want:
            return
        lines = ["the hand's end differs:"]
        for field in want:
            if got.get(field) != want[field]:
                lines.append(f"  {field}:\n    expected {want[field]!r}\n    actual   {got.get(field)!r}")
        self.fail("\n".join(lines))

    # ------------------------------------------------------------ the replay

    def run(self) -> int:
        """Replays every hand of the playout; returns the number of decisions replayed."""
        data, p = self.data, self.playout
        state = canasta.new_game(data["variant"], data["players"], seed=p["seed"])
        decisions = 0
        for self.hand, hand in enumerate(self.hands):
            if self.hand:
                try:
                    state = state.next_hand()
                except Exception as e:  # report where, whatever the engine raises
                    self.fail(f"next_hand() raised {e!r}")
                self.path.append("next_hand")
            sampled = {step: runs for step, runs in hand["why"]}
            for self.step, (legal, chosen) in enumerate(zip(hand["legal"], hand["chosen"])):
                self.check_legal(state, legal)
                if self.step in sampled:
                    self.check_why(state, sampled[self.step])
                try:
                    state = state.apply(chosen)
                except Exception as e:
                    self.fail(f"apply({chosen}) ({self.name(chosen)!r}) raised {e!r}")
                self.path.append(self.name(chosen))
            self.step = len(hand["chosen"])
            decisions += self.step
            self.check_end(state, hand["end"])
            if self.step in sampled:
                self.check_why(state, sampled[self.step])
        return decisions


# ---------------------------------------------------------------- the tests


def test_every_table_has_a_trace() -> None:
    """One recording per table of the bundled variants, none for a table that is gone."""
    have = sorted(p.name.removesuffix(".json.xz") for p in GOLDEN.glob("*.json.xz"))
    assert have == sorted(KEYS), "tests/golden does not match the tables of the bundled variants"


@pytest.mark.parametrize("key", KEYS)
def test_action_space(key: str) -> None:
    """The action space has the recorded size and every id the recorded notation."""
    check_space(load(key))


@pytest.mark.parametrize("key", KEYS)
def test_replay_first_hands(key: str) -> None:
    """The first hand of the table's first playouts replays exactly (legal ids, result,
    totals, sampled refusals)."""
    data = load(key)
    check_space(data)
    for p in data["playouts"][:FAST_PLAYOUTS]:
        assert Replay(data, p, hands=1).run() > 0


USUAL = {f"{name}-{canasta.load_variant(name).default_players}" for name in canasta.variant_names()}
"""Each variant's usual table."""
PYTHON_PLAYOUTS = 2
"""Playouts the Python core replays whole at a table other than its variant's usual one."""


@pytest.mark.slow
@pytest.mark.parametrize("key", KEYS)
def test_replay_every_playout(key: str, core: str) -> None:
    """Every recorded playout of the table replays exactly: every step, every hand's end,
    every sampled refusal. On the Python core, every playout at the variant's usual table and
    the first ``PYTHON_PLAYOUTS`` at its other tables (CI's time: the native core replays them
    all, and the differential test compares the two cores at every table)."""
    data = load(key)
    check_space(data)
    playouts = data["playouts"] if core == "native" or key in USUAL else data["playouts"][:PYTHON_PLAYOUTS]
    decisions = sum(Replay(data, p).run() for p in playouts)
    assert decisions == sum(len(h["chosen"]) for p in playouts for h in p["hands"])


# ---------------------------------------------------------------- the checks can fail


def small_playout() -> tuple[dict[str, Any], dict[str, Any]]:
    """A copy of a short recorded single deal, to tamper with."""
    data = load("bicycle-4")
    p = min(data["playouts"], key=lambda p: sum(len(h["chosen"]) for h in p["hands"]))
    return data, copy.deepcopy(p)


def failure(data: dict[str, Any], playout: dict[str, Any]) -> str:
    with pytest.raises(pytest.fail.Exception) as info:
        Replay(data, playout).run()
    return str(info.value)


def test_a_changed_legal_list_is_reported_in_notation() -> None:
    data, p = small_playout()
    hand = p["hands"][0]
    step = next(s for s, legal in enumerate(hand["legal"]) if len(legal) >= 2)
    hand["legal"][step] = hand["legal"][step][::-1]
    message = failure(data, p)
    assert f"playout {p['number']}" in message and f"hand 0, step {step}" in message
    assert "another order" in message
    assert repr(data["space"]["actions"][hand["legal"][step][0]]) in message


def test_a_changed_result_is_reported() -> None:
    data, p = small_playout()
    end = p["hands"][-1]["end"]
    end["scores"][0]["items"][0][2] += 5
    message = failure(data, p)
    assert "the hand's end differs" in message and "scores" in message


def test_a_changed_refusal_is_reported() -> None:
    data, p = small_playout()
    hand = p["hands"][0]
    step, runs = hand["why"][0]
    first = next(k for k, (reason, _) in enumerate(runs) if reason is not None)
    data = dict(data, reasons=list(data["reasons"]))
    text = data["reasons"][runs[first][0]]
    data["reasons"][runs[first][0]] = text + " (reworded)"
    message = failure(data, p)
    assert f"step {step}" in message and "why_illegal differs" in message
    assert repr(text + " (reworded)") in message and repr(text) in message


def test_a_changed_action_space_is_reported() -> None:
    data = copy.deepcopy(load("online-2"))
    data["space"]["actions"][5] = "renamed"
    with pytest.raises(pytest.fail.Exception) as info:
        check_space(data)
    assert "id 5: recorded 'renamed'" in str(info.value)
