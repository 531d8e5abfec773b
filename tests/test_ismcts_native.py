"""ISMCTSBot's simulations in the native core (native/src/ismcts.rs) and the seeding of
``simulate``'s bots (native/src/bots.rs), held to the Python code they port.

A seeded search (an iteration budget, no time limit) must choose the same action with the same
statistics whether its descents and rollouts run in Python or natively, and on either core
(issue 26: "search choices identical on both cores where seeded"); the generators the native
core seeds several at a time, and twists lazily, must give ``random.Random``'s numbers and
state. What the bot may see is tested in ``test_ismcts.py`` (its observation only) and
``test_resample.py`` (the samples), which run on both cores.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import GreedyBot, ISMCTSBot, new_game
from canasta import _ismcts
from canasta._core import _backend, _rules
from canasta._playout import seed_key

if _backend._ext is None:
    if os.environ.get("CANASTA_REQUIRE_NATIVE") == "1":
        raise RuntimeError(f"CANASTA_REQUIRE_NATIVE=1 but the native core is not in use: {_backend._why_not}")
    pytest.skip(f"the native core is not in use ({_backend._why_not})", allow_module_level=True)


@settings(max_examples=60, deadline=None)
@given(seeds=st.lists(st.integers(-(2**70), 2**70), min_size=1, max_size=9), draws=st.sampled_from([0, 1, 7, 623, 624, 625, 1300]))
def test_generators_seeded_together_give_random_random_numbers_and_state(seeds: list[int], draws: int) -> None:
    """``Mt::from_keys`` (four one-word keys side by side, others one by one) and the lazy
    twist give ``random.Random(seed)``'s ``getrandbits(32)`` values and its ``getstate()``."""
    got = _backend._ext.mt_check(tuple(seed_key(s) for s in seeds), draws)
    for seed, (values, state) in zip(seeds, got):
        r = random.Random(seed)
        assert values == tuple(r.getrandbits(32) for _ in range(draws))
        assert state == r.getstate()[1]


def test_generator_words_out_of_range_are_refused() -> None:
    """A key word that is not a 32-bit word is an error naming the key, not a truncation."""
    with pytest.raises(ValueError, match="key"):
        _backend._ext.mt_check(((2**32,),), 1)
    with pytest.raises(ValueError, match="key"):
        _backend._ext.mt_check(((-1,),), 1)


def decisions(name: str, players: int, seed: int, count: int) -> list[list[int]]:
    """The action ids leading to states where an even seat has several legal actions, from
    greedy play (replayed on either core)."""
    state = new_game(name, players, seed=seed)
    greedy = GreedyBot(seed)
    path: list[int] = []
    out = []
    while not state.is_hand_over and len(out) < count:
        if len(state.legal_action_ids()) > 1 and state.current_player % 2 == 0:
            out.append(list(path))
        a = state._id_of(greedy._choose_state(state))
        path.append(a)
        state = state.apply(a)
    return out


def searched(name: str, players: int, seed: int, paths: list[list[int]], iterations: int, **options: Any) -> list[Any]:
    """Per decision: the ISMCTS bot's choice, its statistics and its samples."""
    out = []
    for path in paths:
        state = new_game(name, players, seed=seed)
        for a in path:
            state = state.apply(a)
        seat = state.current_player
        bot = ISMCTSBot(seed + seat, time_limit=None, iterations=iterations, **options)
        action = bot.choose(state.observation(seat), state.legal_actions())
        out.append((action, bot.last_stats, bot.last_iterations, state.core))
    return out


TABLES = [("bicycle", 4, 1000, 4, 10), pytest.param("hoyle-1950", 2, 7, 4, 10, marks=pytest.mark.slow),
          pytest.param("samba", 4, 3, 4, 10, marks=pytest.mark.slow),
          pytest.param("hand-and-foot", 4, 5, 1, 4, marks=pytest.mark.slow)]
"""Tables searched: name, players, seed, decisions, iterations (hand-and-foot's greedy policy
plans from the foot through Python in every sample: few)."""


@pytest.mark.parametrize("name, players, seed, count, iterations", TABLES)
def test_native_descents_choose_as_the_python_ones(name: str, players: int, seed: int, count: int, iterations: int,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The native tree (descent, widening with the search's generator, UCB1 with availability
    counts, greedy rollouts, backup) makes the Python tree's choices, value for value."""
    paths = decisions(name, players, seed, count)
    fast = searched(name, players, seed, paths, iterations)
    assert all(core == "native" for *_, core in fast)
    monkeypatch.setattr(_ismcts._NativeTree, "supported", staticmethod(lambda: False))
    assert searched(name, players, seed, paths, iterations) == fast


def test_native_rollouts_cut_short_and_the_win_objective_are_valued_as_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rollouts cut at ``depth`` (the points on the table stand in for the score) and the
    ``"win"`` objective, with a wide exploration: the native descents still match."""
    paths = decisions("bicycle", 4, 1001, 2)
    options: dict[str, Any] = {"depth": 6, "objective": "win", "exploration": 2.0, "widening": 1}
    fast = searched("bicycle", 4, 1001, paths, 8, **options)
    monkeypatch.setattr(_ismcts._NativeTree, "supported", staticmethod(lambda: False))
    assert searched("bicycle", 4, 1001, paths, 8, **options) == fast


def test_finished_hands_are_valued_natively_as_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """A descent that finishes the hand is valued and backed up natively (``_values``: the
    score margin in thousands, or with ``"win"`` the sign and the margin in ten-thousands): the
    same statistics as the Python valuation, for both objectives."""
    paths = decisions("bicycle", 4, 1002, 2)
    for objective in ("score", "win"):
        fast = searched("bicycle", 4, 1002, paths, 6, objective=objective)
        with monkeypatch.context() as m:
            m.setattr(_ismcts._NativeTree, "supported", staticmethod(lambda: False))
            assert searched("bicycle", 4, 1002, paths, 6, objective=objective) == fast


@pytest.mark.parametrize("name, players, seed, count", [("hoyle-1950", 2, 7, 1),
                                                        pytest.param("bicycle", 4, 1000, 5, marks=pytest.mark.slow)])
def test_a_seeded_search_chooses_the_same_on_both_cores(name: str, players: int, seed: int, count: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same decisions searched on the native core (native descents) and on the Python core
    (the Python fallback: no table runs natively) give the same choices and statistics."""
    paths = decisions(name, players, seed, count)
    fast = searched(name, players, seed, paths, 6)
    monkeypatch.setattr(_backend, "_ext", None)
    monkeypatch.setattr(_backend, "_why_not", "this test runs the Python core")
    monkeypatch.setattr(_rules, "_RULES", {})
    slow = searched(name, players, seed, paths, 6)
    assert all(core == "python" for *_, core in slow)
    assert [x[:3] for x in slow] == [x[:3] for x in fast]


def test_bad_tree_arguments_are_refused_naming_them() -> None:
    """The native search's entry points refuse a bad generator state or root by name."""
    ext = _backend._ext
    tree = ext.ismcts_tree()
    root = ext.ismcts_root(tree)
    state = new_game("hoyle-1950", 2, seed=1)
    words = random.Random(1).getstate()[1]
    args = [tree, root, state._c, 0, (0, 1), 0.7, 8, 100, seed_key(3), words, lambda c, s: c]
    for at, bad, name in [(1, root + 1, "root"), (9, words[:-1], "rng_state"), (9, (2**32,) + words[1:], "rng_state"),
                          (3, 2, "me"), (4, (0,), "side_of"), (6, 0, "widening")]:
        wrong = list(args)
        wrong[at] = bad
        with pytest.raises(ValueError, match=name):
            ext.ismcts_iterate(*wrong)
    end, drew = ext.ismcts_iterate(*args)
    assert drew is None  # a first descent plays the greedy choice: nothing drawn
    with pytest.raises(ValueError, match="values"):
        ext.ismcts_backup(tree, ())
    ext.ismcts_backup(tree, (0.5, -0.5))
