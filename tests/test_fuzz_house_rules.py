"""Fuzzing house rules (issue 20, "house rules that validate, play").

A club mixes rule books: this file mixes the settings of the bundled variants, and their
tables' settings, into house-rules files (``extends`` one bundled variant, then settings taken
from the others), loads them with :func:`canasta.load_variant`, and plays seeded deals at every
table of each file that loads:

* a refusal at load time is fine when every problem names a setting by its key, and none is
  the playing check's net catching a dead end (``cannot be played``): a mix the schema lets
  through must play;
* a file that loads deals at every table and plays seeded random deals (other seeds than the
  load's own) to their end, someone always able to act: a dead end (a player to act with no
  legal action), an exception or a hand that never ends is a failure. The ``slow`` run plays
  one more deal at the usual table with purposeful seats (greedy, mixed, or seats that ask to go out
  whenever they may: ``helpers.seat_policies``, issue 28), each legal action applied.

A file mixes up to :data:`MAX_SETTINGS` settings. The fast default run tries
:data:`FAST_EXAMPLES` mixtures (derandomized: the same every run); the ``slow`` run, in CI,
:data:`SLOW_EXAMPLES`. A failure prints the file to reproduce.
"""

from __future__ import annotations

import random
import time
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from canasta import Variant, VariantError, load_variant, new_game
from canasta._variant_load import variant_to_dict
from helpers import SEAT_KINDS, seat_policies

FAST_EXAMPLES = 8
"""Mixtures in the fast default run."""
SLOW_EXAMPLES = 340
"""Mixtures under the ``slow`` marker."""
DEALS = 2
"""Seeded deals played at each table of a mixture that loads (seeds 100 and on)."""
PURPOSEFUL_DEALS = 1
"""Deals more at the usual table in the ``slow`` run, with purposeful seats (issue 28)."""
MAX_SETTINGS = 12
"""Most settings a mixture takes from the bundled variants (issue 28: 12; it was 6)."""
MAX_ACTIONS = 4000
"""A hand longer than this is a failure (a hand that never ends)."""
HANG_SECONDS = 120.0
"""A hand that takes longer than this (wall clock, on a busy machine) is a failure: a hang."""
SKIP = frozenset({"name", "description", "source", "tables"})
"""Top-level keys not mixed (the tables are mixed setting by setting)."""


@cache
def _bundled() -> dict[str, dict[str, Any]]:
    return {name: variant_to_dict(load_variant(name)) for name in canasta.variant_names()}


def _leaves(data: dict[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    out: list[tuple[tuple[str, ...], Any]] = []
    for k, v in data.items():
        if not prefix and k in SKIP:
            continue
        if isinstance(v, dict):
            out += _leaves(v, prefix + (k,))
        else:
            out.append((prefix + (k,), v))
    return out


EXTRA_SETTINGS: tuple[tuple[str, tuple[str, ...], Any], ...] = (
    # issue 27's general settings, in the pool before (or besides) a bundled variant uses them
    ("house", ("scoring", "rank_canastas"), [{"rank": "seven", "points": 1000}]),
    ("house", ("scoring", "rank_canastas"), [{"rank": "ace", "points": 1500}, {"rank": "king", "points": 800}]),
    ("house", ("deal", "talon_when"), "at_once"),
    ("house", ("deal", "talon_after_pile"), True),
    ("house", ("deal", "talon"), [13, 13, 13]),
    ("house", ("pile", "blocked_by"), ["wild", "black_three", "seven", "ace"]),
    ("house", ("pile", "blocked_scope"), "upcard"),
    ("house", ("going_out", "red_threes_per_canasta"), 1),
    ("house", ("going_out", "red_threes_per_canasta"), 2),
    # pennies-from-heaven's E14, E16, E17, with the other readings and ranks
    ("house", ("pile", "no_discard_until_canasta"), [{"rank": "seven", "whose": "own_side"}]),
    ("house", ("pile", "no_discard_until_canasta"), [{"rank": "ace", "whose": "each_side"},
                                                      {"rank": "king", "whose": "own_side"}]),
    ("house", ("going_out", "no_final_discard"), ["seven", "ace"]),
    ("house", ("going_out", "canastas_by_rank"), [{"rank": "king", "count": 1}]),
    ("house", ("red_threes", "minus_without_canasta_of"), "ace"),
    ("house", ("deal", "down_hand_up"), "side_canasta"),
    ("house", ("deal", "down_hand_up"), "own_canasta"),
)
"""Settings mixed in besides the bundled variants' own: (where from, key path, value)."""


@cache
def _settings() -> tuple[tuple[str, tuple[str, ...], Any], ...]:
    """Every setting of every bundled variant, and :data:`EXTRA_SETTINGS`: (variant, key path, value)."""
    return tuple((name, path, value) for name, data in _bundled().items()
                 for path, value in _leaves(data)) + EXTRA_SETTINGS + EXTENSIONS


EXTENSIONS: tuple[tuple[str, tuple[str, ...], Any], ...] = (
    # issue 27, E18 (Italian 2.3) and E21 (Italian 5.3, 5.4): until a bundled variant uses them;
    # the buried upcard needs an upcard turned again, not covered (upcard.cover = [])
    ("italian", ("upcard", "buried"), "rank_number"),
    ("italian", ("upcard", "buried"), "point_value"),
    ("italian", ("upcard", "cover"), []),
    ("italian", ("scoring", "wild_canasta_going_out_only"), True),
    ("italian", ("scoring", "canasta_sets"), [{"natural": 5, "bonus": 2000}, {"natural": 4, "mixed": 1, "bonus": 1000},
                                              {"any": 10, "bonus": 2000}]),
)
"""Settings of the schema that no bundled variant uses yet, mixed in like theirs."""


@cache
def _table_settings() -> tuple[tuple[str, str, Any], ...]:
    """Every setting of every table of every bundled variant: (variant, key, value)."""
    return tuple((name, key, value) for name, data in _bundled().items()
                 for table in data["tables"].values() for key, value in table.items())


def _put(data: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for part in path[:-1]:
        data = data.setdefault(part, {})
    data[path[-1]] = value


@st.composite
def house_rules(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A bundled variant's name and settings taken from the bundled variants (and their
    tables) to put on top of it."""
    names = sorted(_bundled())
    base = draw(st.sampled_from(names))
    over: dict[str, Any] = {}
    tables = sorted(_bundled()[base]["tables"], key=int)
    for _ in range(draw(st.integers(1, MAX_SETTINGS))):
        if draw(st.integers(0, 4)) == 0:
            _, key, value = draw(st.sampled_from(_table_settings()))
            _put(over, ("tables", draw(st.sampled_from(tables)), key), value)
        else:
            _, path, value = draw(st.sampled_from(_settings()))
            _put(over, path, value)
    return base, over


def house_text(base: str, over: dict[str, Any]) -> str:
    """The house-rules file: ``extends`` the base, then the settings mixed in."""
    return f'extends = "{base}"\n' + tomli_w.dumps(over)


def plays_on(variant: Variant, players: int, seed: int, hands: int = 1, seats: str | None = None) -> None:
    """Deal ``seed`` at this table, played by a seeded random choice for ``hands`` hands (or to the
    end of the game), someone always able to act and each hand ending. ``seats``: one of
    ``helpers.SEAT_KINDS`` for purposeful seats, every legal action applied at each step."""
    state = new_game(variant, players, seed=seed)
    rng = random.Random(seed)
    policies = seat_policies(seats, players, seed, variant) if seats is not None else None
    played = 0
    step = 0
    start = time.monotonic()
    while True:
        legal = state.legal_actions()
        if not legal:
            assert state.is_hand_over, (f"a dead end at {players} players, seed {seed}, hand {state.hand_number + 1}, "
                                        f"after {step} actions: seat {state.current_player} to act "
                                        f"({state.phase.value}) with no legal action\n{state.turn}")
            played += 1
            if played >= hands or state.is_game_over:
                return
            state = state.next_hand()
            step = 0
            start = time.monotonic()
            continue
        if policies is None:
            state = state.apply(rng.choice(legal))
        else:
            after = {a: state.apply(a) for a in legal}
            state = after[policies[state.current_player](state, after)]
        step += 1
        assert step < MAX_ACTIONS, f"a hand that never ends at {players} players, seed {seed}: {MAX_ACTIONS} actions"
        assert time.monotonic() - start < HANG_SECONDS, (f"a hang at {players} players, seed {seed}: "
                                                         f"{HANG_SECONDS:.0f} s for {step} actions")


def check_house_rules(tmp_path: Path, base: str, over: dict[str, Any], purposeful: int = 0) -> None:
    """The contract: refused with problems naming settings by key, or loads and plays (``purposeful``:
    deals more at the usual table with purposeful seats)."""
    text = house_text(base, over)
    path = tmp_path / "house.toml"
    path.write_text(text)
    try:
        variant = load_variant(path)
    except VariantError as e:
        for problem in e.problems:
            assert problem.key and problem.key[0] != "(", f"{problem}\n--- the file:\n{text}"
            assert "cannot be played" not in problem.message, f"the net caught a dead end: {problem}\n" \
                                                                f"--- the file:\n{text}"
        return
    for key in sorted(variant.tables, key=int):
        # the purposeful deals at the usual table only (CI's time)
        more = purposeful if int(key) == variant.default_players else 0
        for seed in range(100, 100 + DEALS + more):
            seats = None if seed < 100 + DEALS else SEAT_KINDS[(seed + len(text)) % len(SEAT_KINDS)]
            try:
                plays_on(variant, int(key), seed, seats=seats)
            except AssertionError as e:
                raise AssertionError(f"{e}\n({seats or 'random'} seats)\n--- the file:\n{text}") from None
            except Exception as e:  # noqa: BLE001 - any failure of the engine is one
                raise AssertionError(f"{type(e).__name__}: {e} at {key} players, seed {seed}\n"
                                     f"--- the file:\n{text}") from e


FAST = settings(max_examples=FAST_EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])
SLOW = settings(FAST, max_examples=SLOW_EXAMPLES, derandomize=False)


def test_house_rules_validate_or_play(tmp_path: Path) -> None:
    """Issue 20: :data:`FAST_EXAMPLES` mixtures of the bundled variants' settings (derandomized)."""

    @FAST
    @given(house_rules())
    def run(mix: tuple[str, dict[str, Any]]) -> None:
        check_house_rules(tmp_path, *mix)

    run()


@pytest.mark.slow
def test_house_rules_validate_or_play_thoroughly(tmp_path: Path) -> None:
    """Issue 20: :data:`SLOW_EXAMPLES` random mixtures."""

    @SLOW
    @given(house_rules())
    def run(mix: tuple[str, dict[str, Any]]) -> None:
        check_house_rules(tmp_path, *mix, purposeful=PURPOSEFUL_DEALS)

    run()


# ---------------------------------------------------------------- the mixtures that dead-ended


@pytest.mark.parametrize(("text", "players", "seeds"), [
    # issue 20: modern-american 4.9's clean meld in bicycle, with the pile never frozen for the
    # initial meld: played from initial_take with no legal action (seeds 11, 15, 19); the clean
    # meld is now checked on the turn's melds as a whole
    ('extends = "bicycle"\n[initial_meld]\nnatural_meld_first = true\n[pile]\nfrozen_until_initial_meld = false\n',
     4, (11, 15, 19)),
    # issue 20: a down hand of two cards in the 1950 laws: a player holding his down hand asked "may I go
    # out?", heard yes and could not (hoyle rule 39); he may ask only when he can go out this turn
    ('extends = "hoyle-1950"\n[tables.4]\ndown_hand_size = 2\n', 4, (3001,)),
    # issue 9: a down hand of one card: a player melded out, took it up and could only discard it,
    # going out without a canasta; the planner now sees the down hand he goes on from
    ('extends = "wikipedia"\n[tables.4]\ndown_hand_size = 1\n', 4, (0, 6, 9)),
    # the fuzz: new-canasta's black threes melded as the last cards (new-canasta: "must be the last
    # 7 cards in the player's hand"), in the 1950 laws with asking: a yes bound a player to a going
    # out that needed a discard after them
    ('extends = "hoyle-1950"\n[black_threes]\nmeld = "last_cards"\n', 4, (101,)),
    # issue 28, item 12: closed canastas with several melds of a rank: bound to go out (black threes),
    # a player holding eight nines and no wild card was refused every meld (the planner split
    # them as seven onto a meld and two with a wild card); combining passed seven cards
    ('extends = "three-pack"\n[melds]\ncanasta_closed = true\nunlimited_wild_on_canasta = false\n'
     '[going_out]\ncanastas = 5\n[pile]\nfrozen_until_initial_meld = false\ntake_unfrozen = ["natural_pair"]\n'
     '[tables.4]\nhand_size = 11\n', 4, (7003,)),
])
def test_mixtures_that_dead_ended_play(tmp_path: Path, text: str, players: int, seeds: tuple[int, ...]) -> None:
    """House-rules files that loaded and reached a player with no legal action now play."""
    path = tmp_path / "house.toml"
    path.write_text(text)
    variant = load_variant(path)
    for seed in seeds:
        plays_on(variant, players, seed, hands=3)


# ---------------------------------------------------------------- pairs the schema refuses


@pytest.mark.parametrize(("text", "key", "other"), [
    # a step's canasta (brazilian 7.2) in an initial meld that may hold no canasta
    ('extends = "brazilian"\n[melds]\ninitial_canasta = "never"\n', "initial_meld.steps.3.canasta",
     "melds.initial_canasta"),
    # a step's canasta where the minimum goes by hand (hand-and-foot 4.5)
    ('extends = "hand-and-foot"\n[initial_meld]\nsteps = [{ from = 0, need = 50, canasta = ["natural"] }]\n',
     "initial_meld.steps.0.canasta", "initial_meld.by_hand"),
    # a sequence canasta asked where there are no sequences
    ('extends = "hoyle-1950"\n[initial_meld]\nsteps = [{ from = 0, need = 50, canasta = ["sequence"] }]\n',
     "initial_meld.steps.0.canasta", "melds.sequences.allowed"),
    # modern-american A5 where canastas are not closed
    ('extends = "hoyle-1950"\n[melds]\npast_closed_going_out = true\n', "melds.past_closed_going_out",
     "melds.canasta_closed"),
    # modern-american A2 without a talon
    ('extends = "hoyle-1950"\n[deal]\ntalon_set_aside = true\n', "deal.talon_set_aside", "deal.talon"),
    # brazilian A1's reading without a step asking a canasta
    ('extends = "hoyle-1950"\n[initial_meld]\ncanasta_worth = "canasta"\n', "initial_meld.canasta_worth",
     "initial_meld.steps"),
    # issue 27, E21: new-canasta's red threes kept in hand score canastas their own way
    ('extends = "new-canasta"\n[scoring]\nwild_canasta_going_out_only = true\n',
     "scoring.wild_canasta_going_out_only", "red_threes.handling"),
    ('extends = "new-canasta"\n[scoring]\ncanasta_sets = [{ natural = 2, bonus = 100 }]\n',
     "scoring.canasta_sets", "red_threes.handling"),
])
def test_settings_that_cannot_work_together_are_refused(tmp_path: Path, text: str, key: str, other: str) -> None:
    """The schema refuses a pair of settings that cannot work together when the file loads,
    naming both keys and why."""
    path = tmp_path / "house.toml"
    path.write_text(text)
    with pytest.raises(VariantError) as info:
        load_variant(path)
    problems = [p for p in info.value.problems if p.key == key]
    assert problems and other in problems[0].message, info.value
