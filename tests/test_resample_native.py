"""Information-set samples dealt natively (``native/src/resample.rs``), held to the Python code
they port (``canasta/_resample.py``: ``fill``, the group suits, the rejection draws and
``playable``).

A seeded sample is the same on either path and either core, and leaves the generator in the
same state (issue 26: "Sampling a determinization (``resample``) runs natively ... keep exactly
the same information-set semantics"). The native path is used for a plain ``random.Random``; a
subclass of it (whose draws Python may override) takes the Python path, which the tests use as
the reference on the same position. What a sample may hold is tested in ``test_resample.py``
(run on both cores).
"""

from __future__ import annotations

import os
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import GreedyBot, ArgumentError, load_variant, new_game, sample_state, variant_names
from canasta import _resample
from canasta._core import _backend, _rules
from canasta._state import GameState

if _backend._ext is None:
    if os.environ.get("CANASTA_REQUIRE_NATIVE") == "1":
        raise RuntimeError(f"CANASTA_REQUIRE_NATIVE=1 but the native core is not in use: {_backend._why_not}")
    pytest.skip(f"the native core is not in use ({_backend._why_not})", allow_module_level=True)


class PythonDraws(random.Random):
    """``random.Random`` itself, but a subclass: the samples take the Python path."""


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**40), n=st.integers(0, 400), data=st.data())
def test_the_native_sample_and_shuffle_draw_as_random_random(seed: int, n: int, data: st.DataObject) -> None:
    """``random.sample`` (both of its ways: a pool for small populations, a set of picks for
    large ones) and ``random.shuffle``, ported: the same values and the same generator state."""
    k = data.draw(st.integers(0, n))
    r = random.Random(seed)
    got, state = _backend._ext.mt_draws(r.getstate()[1], 0, n, k)
    assert list(got) == r.sample(range(n), k)
    assert state == r.getstate()[1]
    got, state = _backend._ext.mt_draws(state, 1, n, 0)
    x = list(range(n))
    r.shuffle(x)
    assert list(got) == x
    assert state == r.getstate()[1]


def same(a: GameState, b: GameState) -> bool:
    """Two states equal in every field a sample sets (cards, turn, seed, history)."""
    return (a == b and a.seed == b.seed and a.turn == b.turn and a.history == b.history
            and a.hands == b.hands and a.down_hands == b.down_hands and a.stock == b.stock and a.pile == b.pile)


def check_position(state: GameState, seat: int, seed: int) -> None:
    """``resample`` and ``sample_state`` at ``state`` for ``seat``: native and Python draws agree."""
    fast, slow = random.Random(seed), PythonDraws(seed)
    a, b = state.resample(seat, fast), state.resample(seat, slow)
    assert same(a, b), f"resample differs at {len(state.history)} actions, seat {seat}"
    assert fast.getstate() == slow.getstate()
    again = random.Random(seed)  # (the sampler kept on the state: the same sample again)
    assert same(state.resample(seat, again), a) and again.getstate() == fast.getstate()
    obs = state.observation(seat)
    a, b = sample_state(obs, fast), sample_state(obs, slow)
    assert same(a, b), f"sample_state differs at {len(state.history)} actions, seat {seat}"
    assert fast.getstate() == slow.getstate()
    assert a.core == "native"


def play(name: str, players: int, seed: int, limit: int = 400) -> None:
    """A seeded hand (greedy and random choices mixed, so piles are taken and retracted too),
    checked at every decision for one seat (each in turn), until it is over (or ``limit``
    actions)."""
    variant = load_variant(name)
    state = new_game(variant, players, seed=seed)
    assert state.core == "native"
    greedy = GreedyBot(seed, variant)
    rng = random.Random(seed)
    step = 0
    while step < limit:
        check_position(state, step % players, seed * 1000 + step)
        if state.is_hand_over:
            break
        ids = state.legal_action_ids()
        if rng.random() < 0.7:
            a = state._id_of(greedy._choose_state(state))
        else:
            a = ids[rng.randrange(len(ids))]
        state = state.apply(a)
        step += 1


USUAL = [(name, load_variant(name).default_players) for name in variant_names()]
OTHER = [(name, p) for name in variant_names() for p in load_variant(name).player_counts
         if p != load_variant(name).default_players]


@pytest.mark.parametrize("name, players", USUAL, ids=[f"{n}-{p}" for n, p in USUAL])
def test_native_samples_are_the_python_ones_at_the_usual_tables(name: str, players: int) -> None:
    """Every bundled variant at its usual table: at every decision of a seeded hand, the same
    samples (``resample`` and ``sample_state``) natively as in Python (the first 150 actions:
    the slow selection plays whole hands)."""
    play(name, players, 1, 150)


@pytest.mark.slow
@pytest.mark.parametrize("name, players", OTHER, ids=[f"{n}-{p}" for n, p in OTHER])
def test_native_samples_are_the_python_ones_at_every_table(name: str, players: int) -> None:
    """The other tables of every bundled variant, a hand each."""
    play(name, players, 2)


@pytest.mark.slow
@pytest.mark.parametrize("name, players", USUAL, ids=[f"{n}-{p}" for n, p in USUAL])
def test_native_samples_are_the_python_ones_through_whole_hands(name: str, players: int) -> None:
    """The usual tables, a whole hand (another deal)."""
    play(name, players, 5)


def test_a_sample_is_the_same_on_both_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native samples of a native state are the Python core's samples of the same state
    (the whole Python path: no table runs natively)."""

    def positions() -> list[GameState]:
        state = new_game("samba", 4, seed=4)
        greedy = GreedyBot(4)
        out = []
        while len(out) < 60 and not state.is_hand_over:
            out.append(state)
            state = state.apply(greedy._choose_state(state))
        return out

    def samples() -> list[tuple[object, ...]]:
        out = []
        for i, state in enumerate(positions()):
            r = random.Random(i)
            a = state.resample(i % 4, r)
            b = sample_state(state.observation(i % 4), r)
            out.append((a._c.key(), b._c.key(), r.getstate(), a.core, b.core))
        return out

    fast = samples()
    assert all(x[3:] == ("native", "native") for x in fast)
    monkeypatch.setattr(_backend, "_ext", None)
    monkeypatch.setattr(_backend, "_why_not", "this test runs the Python core")
    monkeypatch.setattr(_rules, "_RULES", {})
    slow = samples()
    assert all(x[3:] == ("python", "python") for x in slow)
    assert [x[:3] for x in slow] == [x[:3] for x in fast]


def test_an_observation_no_deal_gives_is_refused_as_on_the_python_path() -> None:
    """An observation whose cards do not fit the deck gets the Python core's ArgumentError, and
    the generator is left as the Python path leaves it."""
    state = new_game("hoyle-1950", 4, seed=2)
    obs = state.observation(0)
    bad = attrs.evolve(obs, hand_sizes=(obs.hand_sizes[0], 40, 40, 40))
    errors = []
    for r in (random.Random(1), PythonDraws(1)):
        with pytest.raises(ArgumentError, match="observation") as e:
            sample_state(bad, r)
        errors.append((str(e.value), r.getstate()))
    assert errors[0] == errors[1]


def test_bad_sampler_arguments_are_refused_naming_them() -> None:
    """The native sampler's entry points refuse a bad generator state or knowledge by name,
    never a crash."""
    ext = _backend._ext
    state = new_game("hoyle-1950", 2, seed=1)
    obs = state.observation(0)
    from canasta._knowledge import knowledge

    know = knowledge(obs, state._rules)
    s = _resample.NativeSampler(state, obs, state._rules, know, False, -1, (), True)
    with pytest.raises(ValueError, match="rng"):
        ext.sample_draw(s.cap, "not a generator", 10, 1, ())
    with pytest.raises(ValueError, match="sampler"):
        ext.sampler(state._c, False, 0, (0,), (), (), (True, True), ((0,) * 15,) * 2, (), None, None, -1, (), True)
    with pytest.raises(ValueError, match="where"):
        ext.sampler(state._c, False, 0, (0,) * 15, (7,), (0,), (True, True), ((0,) * 15,) * 2, (), None, None, -1, (),
                    True)


def test_a_sample_shares_no_history_link_with_the_state_it_stands_for() -> None:
    """A sample's history holds the same actions in links of its own (as the Python path's
    ``_from_fields`` makes them): the public history's memo keeps a state per link and replays
    on from its cards, so a link shared with a sample (other cards) made a later observation of
    the real game lose its history (found by ``test_suits_observation.py`` run whole)."""
    from canasta import _public_history

    state = new_game("samba", 4, seed=1)
    greedy = GreedyBot(1)
    for _ in range(30):
        state = state.apply(greedy._choose_state(state))
    r = state.resample(1, random.Random(3))
    assert r.history == state.history

    def links(s: GameState) -> list[int]:
        out, link = [], s._history
        while link is not None:
            out.append(id(link))
            link = link[1]
        return out

    assert not set(links(r)) & set(links(state))
    _public_history._REPLAYS.clear()
    r.observation(1)  # r's public history read (and remembered) first
    later = state
    for _ in range(6):
        later = later.apply(greedy._choose_state(later))
    assert all(ev.stock_cards is not None for ev in later.observation(0).history)
