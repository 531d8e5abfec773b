"""The :class:`Observation` object made natively where the state plays on the native core: the
fields every seat shares read from the native position in one call, the object filled without
its keyword ``__init__``, and the history's dicts of :meth:`Observation.to_dict` copied natively
(``native/src/obsobj.rs``, used by ``canasta/_observe.py`` and ``canasta/_observation.py``).

The reference is the Python path (``_observe``'s Python code, the object made by its
``__init__``, the dicts by Python), on the same native position and on a Python-core twin of
it: at every decision of a
seeded hand of every bundled table (the usual tables in the fast selection, the others in CI's
slow run), every seat's observation must be equal in every field (those left out of ``==``
too), give the same dicts (whole and compact, and JSON) and a pickle that reads back equal. What an observation holds is
the rules' (each variant's rule book, through the Python core); this file checks only that the
native path builds the same object from the same position.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
import pytest

import canasta
from canasta import GameState, Observation
from canasta import _observation, _observe
from canasta._core import _apply, _backend, _deal, _legal, first_dealer, rules_for

if _backend._ext is None:
    pytest.skip(f"the native core is not in use ({_backend._why_not})", allow_module_level=True)

TABLES = [(name, players) for name in canasta.variant_names()
          for players in sorted(int(p) for p in canasta.load_variant(name).tables)]
FIELDS = tuple(f.name for f in attrs.fields(Observation))


def _python_path(state: GameState, seat: int, monkeypatch: pytest.MonkeyPatch) -> Observation:
    """``state.observation(seat)`` made by the Python code only (the reference)."""
    with monkeypatch.context() as m:
        m.setattr(_observe, "_PUBLIC", None)
        m.setattr(_observe, "_NEW", None)
        return GameState(state._c).observation(seat)


def _dicts(ob: Observation, monkeypatch: pytest.MonkeyPatch, native: bool) -> tuple[Any, ...]:
    with monkeypatch.context() as m:
        if not native:
            m.setattr(_observation, "_EVENT_DICTS_NATIVE", None)
            m.setattr(_observation, "_DICT_NATIVE", None)
        return ob.to_dict(), ob.to_dict(history=False, legend=False), ob.to_json()


def _same(nat: Observation, ref: Observation, where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``nat`` is ``ref`` in every field and dict, and its pickle reads back as ``ref``. (Not
    byte for byte: equal values may be one object or two, which a pickle's memo shows; the
    native path shares a side's melds between the sides that have equal ones.)"""
    assert nat == ref and hash(nat) == hash(ref), where
    for name in FIELDS:  # the fields left out of == too (legal actions, frozen_for)
        assert getattr(nat, name) == getattr(ref, name), f"{where}: {name}"
        assert type(getattr(nat, name)) is type(getattr(ref, name)), f"{where}: {name}'s type"
    assert _dicts(nat, monkeypatch, True) == _dicts(ref, monkeypatch, False), f"{where}: to_dict"
    back = pickle.loads(pickle.dumps(nat))
    assert back == ref and back.to_dict() == ref.to_dict(), f"{where}: the pickle read back"


def _playout(name: str, players: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> int:
    variant = canasta.load_variant(name)
    R = rules_for(variant, players)
    rng = random.Random(seed)
    py = _deal.deal(R, seed, 0, first_dealer(R, seed), (0,) * R.n_sides)
    nat = _backend.deal(R, seed, 0, first_dealer(R, seed), (0,) * R.n_sides)
    assert type(nat) is not type(py), "the table does not play natively"
    steps = 0
    while True:
        st = GameState(nat)
        for seat in range(players):
            where = f"{name} {players}, seed {seed}, step {steps}, seat {seat}"
            ob = st.observation(seat)
            _same(ob, _python_path(st, seat, monkeypatch), where + " (the Python path, same position)", monkeypatch)
            _same(ob, _python_path(GameState(py), seat, monkeypatch), where + " (the Python core)", monkeypatch)
        ids = tuple(_legal.legal_ids(py))
        if not ids:
            return steps
        i = rng.choice(ids)
        py, nat = _apply.apply_id(py, i), nat.apply_legal(i)
        steps += 1


@pytest.mark.parametrize("name,players", TABLES, ids=[f"{n}-{p}" for n, p in TABLES])
def test_the_native_observation_is_the_python_one_at_every_decision(
        name: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat's observation at every decision of a seeded hand, native path against the
    Python path: equal objects, fields, dicts and pickles."""
    assert _observe._PUBLIC is not None and _observe._NEW is not None
    assert _playout(name, players, 5, monkeypatch) > 20
