"""Every public call is safe from threads (issue 28, item 9), on both cores.

Threads share states and ask of them what a game server's request handlers ask (observations,
legal actions, ``apply``, ``why_illegal``, saves), with the interpreter switching threads as
often as it can and the engine's caches made small, so that their evictions run all the time.
Every answer must be the one a single thread gets: no exception, no other value.
"""

from __future__ import annotations

import random
import sys
import threading
from typing import Any, Callable, Iterator

import pytest

import canasta
from canasta import _public_history

THREADS = 6
ROUNDS = 50


def _states(name: str, players: int, seed: int, count: int) -> list[canasta.GameState]:
    """``count`` states along a seeded random deal (several hands' worth of positions)."""
    rng = random.Random(seed)
    out = []
    st = canasta.new_game(name, players, seed=seed)
    while len(out) < count:
        if st.is_hand_over:
            st = canasta.new_game(name, players, seed=rng.randrange(1 << 30))
            continue
        out.append(st)
        st = st.apply(rng.choice(st.legal_action_ids()))
    return out


def _answers(st: canasta.GameState) -> tuple[Any, ...]:
    """What the threads ask of ``st``, as one thread answers it."""
    seat = st.current_player
    first = st.legal_action_ids()[0]
    return (st.legal_action_ids(), st.legal_actions(), canasta.observation(st, seat).to_dict(),
            canasta.observation(st, (seat + 1) % st.players).to_dict(), st.apply(first).legal_action_ids(),
            st.why_illegal(st.action_space.size - 1), canasta.state_to_json(st))


@pytest.fixture
def busy() -> Iterator[None]:
    """Threads switched as often as the interpreter can, the observation's history cache kept
    tiny (its eviction runs on nearly every call)."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_public_history, "_REPLAYS_MAX", 8)
        yield
    sys.setswitchinterval(interval)


def _hammer(work: Callable[[random.Random], None]) -> list[BaseException]:
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def run(seed: int) -> None:
        rng = random.Random(seed)
        start.wait()
        try:
            for _ in range(ROUNDS):
                work(rng)
        except BaseException as e:  # noqa: BLE001 (reported by the test)
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


@pytest.mark.parametrize("name,players", [("hoyle-1950", 4), ("samba", 4)])
def test_shared_states_answer_as_in_one_thread(core: str, busy: None, name: str, players: int) -> None:
    """Threads asking observations, legal actions, ``apply``, ``why_illegal`` and saves of
    the same states get exactly the answers one thread gets (the observation's replay cache
    raised KeyError when two threads evicted at once)."""
    states = _states(name, players, 7, 30)
    want = [_answers(st) for st in _states(name, players, 7, 30)]  # (equal states, not these)
    _public_history._REPLAYS.clear()

    def work(rng: random.Random) -> None:
        i = rng.randrange(len(states))
        got = _answers(states[i])
        assert got == want[i], (name, i)

    errors = _hammer(work)
    assert not errors, errors[:3]
    assert all(st.core == core for st in states)


def test_observations_of_many_states(core: str, busy: None) -> None:
    """Observations of many states of many hands asked in threads: the history cache evicts on
    nearly every call, from several threads at once (KeyError in ``_remember`` before)."""
    states = _states("hoyle-1950", 4, 1, 200)
    # (asked of equal states, not of these: a state keeps its observations)
    want = [canasta.observation(st, st.current_player) for st in _states("hoyle-1950", 4, 1, 200)]
    _public_history._REPLAYS.clear()

    def work(rng: random.Random) -> None:
        for _ in range(60):
            i = rng.randrange(len(states))
            assert canasta.observation(states[i], states[i].current_player) == want[i]

    errors = _hammer(work)
    assert not errors, errors[:3]


@pytest.mark.slow
def test_values_made_in_threads(core: str, busy: None) -> None:
    """Variants, new games, positions and simulations made side by side in threads are the
    ones one thread makes."""
    v = canasta.load_variant("hoyle-1950")
    want_game = canasta.state_to_json(canasta.new_game(v, 4, seed=3))
    want_sim = canasta.simulate(v, deals=1, seed=5).rows

    def work(rng: random.Random) -> None:
        assert canasta.load_variant("hoyle-1950") == v
        assert canasta.state_to_json(canasta.new_game(v, 4, seed=3)) == want_game
        st = canasta.new_game(v, 4, seed=3)
        assert canasta.to_position(canasta.load_position(canasta.to_position(st))) == canasta.to_position(st)
        if rng.random() < 0.1:
            assert canasta.simulate(v, deals=1, seed=5).rows == want_sim

    errors = _hammer(work)
    assert not errors, errors[:3]
