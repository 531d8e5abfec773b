"""The public values pickle under every protocol, 0 to 5, on both cores (issue 28, item 10:
protocols 0 and 1 failed with AttributeError '_attrs_cached_hash' on an action without fields).

A pickled value loads back equal to it, with the same hash where it has one, and a loaded state
plays on exactly as the original."""

from __future__ import annotations

import importlib
import pickle
import random
from typing import Any

import pytest

import canasta

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


def _values(core: str) -> dict[str, Any]:
    """One of each public value: a state mid-hand (samba: suited cards and sequences), its
    variant, turn, melds, observation, every kind of action, a finished hand's result, a
    simulation and its rows, the core's description."""
    rng = random.Random(3)
    st = canasta.new_game("samba", 4, seed=3)
    while len(st.history) < 120:
        st = st.apply(rng.choice(st.legal_action_ids()))
    done = canasta.new_game("hoyle-1950", 4, seed=1)
    while not done.is_hand_over:
        done = done.apply(rng.choice(done.legal_action_ids()))
    sim = canasta.simulate("hoyle-1950", deals=2)
    out: dict[str, Any] = {
        "state": st, "variant": st.variant, "turn": st.turn, "melds": st.melds, "history": st.history,
        "observation": canasta.observation(st, 0), "hand over": done, "result": done.result,
        "simulation": sim, "row": sim.rows[0], "core info": canasta.core_info(),
        "card": canasta.Card.SEVEN, "suited card": canasta.SuitedCard.SEVEN_HEARTS, "phase": st.phase,
    }
    for a in st.action_space.actions:
        out.setdefault(type(a).__name__, a)
    assert st.core == core
    return out


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_every_protocol_round_trips(core: str, protocol: int) -> None:
    """pickle.loads(pickle.dumps(v, protocol)) == v, hashed alike, for every public value."""
    for name, value in _values(core).items():
        try:
            hash(value)
            hashable = True
        except TypeError:
            hashable = False
        back = pickle.loads(pickle.dumps(value, protocol=protocol))
        assert back == value, (name, protocol)
        if hashable:
            assert hash(back) == hash(value), (name, protocol)


@pytest.mark.parametrize("protocol", [0, 1, pickle.HIGHEST_PROTOCOL])
def test_a_loaded_state_plays_on(core: str, protocol: int) -> None:
    """A state loaded from a pickle offers the same actions and plays the same hand on."""
    st = _values(core)["state"]
    back = pickle.loads(pickle.dumps(st, protocol=protocol))
    rng = random.Random(9)
    for _ in range(60):
        if st.is_hand_over:
            break
        assert back.legal_action_ids() == st.legal_action_ids()
        i = rng.choice(st.legal_action_ids())
        st, back = st.apply(i), back.apply(i)
    assert canasta.state_to_json(back) == canasta.state_to_json(st)


def _raised(call: Any) -> BaseException:
    try:
        call()
    except Exception as e:  # the error a caller's bad input gets
        return e
    raise AssertionError(f"{call} raised nothing")


def test_every_public_error_pickles_whole() -> None:
    """Each documented error (docs/errors.md), as the library raises it, loads back from a pickle
    with its type, message and fields: an error raised in a worker process (``simulate`` with
    ``jobs``, Ray, a game server's pool) reaches the caller whole. Pickle rebuilds an exception
    from its ``args``, the message alone, which the errors' constructors do not take."""
    envs: Any
    try:  # (the rl extra: EnvError is the environments' error)
        envs = importlib.import_module("canasta.envs")
    except ImportError:
        envs = None
    st = canasta.new_game("hoyle-1950", 4, seed=1)
    illegal = next(a for a in st.action_space.actions if not st.is_legal(a))
    errors = {
        "ArgumentError": _raised(lambda: canasta.new_game("hoyle-1950", 4, seed="x")),  # type: ignore[arg-type]
        "IllegalActionError": _raised(lambda: st.apply(illegal)),
        "ActionParseError": _raised(lambda: canasta.parse_action("fly away")),
        "PositionError": _raised(lambda: canasta.load_position('variant = "hoyle-1950"\nplayers = 9')),
        "RecordError": _raised(lambda: canasta.load_record("record_version = 1\nseed = -1")),
        "StateError": _raised(lambda: canasta.state_from_json("{}")),
        "VariantError": _raised(lambda: canasta.load_variant("no-such-variant")),
        "SimulationError": canasta.SimulationError("deal 3: the bots found no legal action"),
    }
    if envs is not None:
        errors["EnvError"] = envs.EnvError("reward: expected one of 'hand', 'game'")
    names = {n: getattr(canasta, n) for n in canasta.__all__}
    names.update({n: getattr(envs, n) for n in envs.__all__} if envs is not None else {})
    public = {n for n, v in names.items() if isinstance(v, type) and issubclass(v, Exception)}
    assert public <= set(errors), public - set(errors)
    for name, error in errors.items():
        assert type(error).__name__ == name, (name, error)
        for protocol in PROTOCOLS:
            back = pickle.loads(pickle.dumps(error, protocol))
            assert type(back) is type(error) and str(back) == str(error), (name, protocol)
            assert vars(back) == vars(error), (name, protocol)
