"""The :class:`Observation` object made natively where the state plays on the native core: the
fields every seat shares read from the native position in one call, the object filled without
its keyword ``__init__``, and :meth:`Observation.to_dict` with its history's dicts made natively
(``native/src/obsobj.rs``, used by ``canasta/_observe.py`` and ``canasta/_observation.py``).

The reference is the Python path (``_observe``'s Python code, the object made by its
``__init__``, the dicts by Python), on the same native position and on a Python-core twin of
it. At the decisions of a seeded hand of every bundled table (the first 40 at the usual tables
in the fast selection; whole hands of every table in CI's slow run) the observations (the seat
to act's, every seat's at every fifth decision) must be equal in every field (those left out
of ``==`` too), give the same dicts (compact at every decision; whole, with the history, and
as JSON at every fifth) and a pickle that reads back equal. What an observation holds is the
rules' (each variant's rule book, through the Python core); this file checks only that the
native path builds the same object from the same position."""

from __future__ import annotations

import pickle
import random
from typing import Any, Optional

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


def _dicts(ob: Observation, monkeypatch: pytest.MonkeyPatch, native: bool, whole: bool) -> tuple[Any, ...]:
    with monkeypatch.context() as m:
        if not native:
            m.setattr(_observation, "_EVENT_DICTS_NATIVE", None)
            m.setattr(_observation, "_DICT_NATIVE", None)
        compact = ob.to_dict(history=False, legend=False), ob.to_dict(history=False)
        return compact + ((ob.to_dict(), ob.to_json()) if whole else ())


def _same(nat: Observation, ref: Observation, where: str, monkeypatch: pytest.MonkeyPatch, whole: bool) -> None:
    """``nat`` is ``ref`` in every field and dict, and its pickle reads back as ``ref``. (Not
    byte for byte: equal values may be one object or two, which a pickle's memo shows; the
    native path shares a side's melds between the sides that have equal ones.)"""
    assert nat == ref and hash(nat) == hash(ref), where
    for name in FIELDS:  # the fields left out of == too (legal actions, frozen_for)
        assert getattr(nat, name) == getattr(ref, name), f"{where}: {name}"
        assert type(getattr(nat, name)) is type(getattr(ref, name)), f"{where}: {name}'s type"
    assert _dicts(nat, monkeypatch, True, whole) == _dicts(ref, monkeypatch, False, whole), f"{where}: to_dict"
    back = pickle.loads(pickle.dumps(nat))
    assert back == ref and back.to_dict() == ref.to_dict(), f"{where}: the pickle read back"


def _playout(name: str, players: int, seed: int, monkeypatch: pytest.MonkeyPatch, limit: Optional[int],
             stride: int = 1, twin: bool = True) -> int:
    """Compare at each decision (up to ``limit``) the seat to act's observation, and every
    seat's at every fifth, the whole dicts (the history's) too; with a ``stride`` > 1, at every
    ``stride``-th decision the seat to act's and one other's (in turn), whole, and every seat's
    at the hand's end. Without ``twin``
    the reference is the Python path on the same position only (the hand is played on the
    native core alone: the differential test proves the cores' positions equal)."""
    variant = canasta.load_variant(name)
    R = rules_for(variant, players)
    rng = random.Random(seed)
    py = _deal.deal(R, seed, 0, first_dealer(R, seed), (0,) * R.n_sides)
    nat = _backend.deal(R, seed, 0, first_dealer(R, seed), (0,) * R.n_sides)
    assert type(nat) is not type(py), "the table does not play natively"
    steps = 0
    while limit is None or steps < limit:
        st, ref = GameState(nat), GameState(py)
        every = steps % 5 == 0 or nat.player < 0 or stride > 1
        compared = steps % stride == 0 or nat.player < 0
        seats: Any = range(players) if steps % 5 == 0 or nat.player < 0 else (nat.player,)
        if stride > 1 and nat.player >= 0:  # the seat to act and one more, in turn
            seats = sorted({nat.player, steps // stride % players})
        for seat in seats if compared else ():
            where = f"{name} {players}, seed {seed}, step {steps}, seat {seat}"
            ob = st.observation(seat)
            _same(ob, _python_path(st, seat, monkeypatch), where + " (the Python path, same position)", monkeypatch,
                  every)
            if twin:
                _same(ob, _python_path(ref, seat, monkeypatch), where + " (the Python core)", monkeypatch, every)
        ids = tuple(_legal.legal_ids(py)) if twin else nat.legal_ids()
        if not ids:
            break
        i = rng.choice(ids)
        py, nat = _apply.apply_id(py, i) if twin else py, nat.apply_legal(i)
        steps += 1
    return steps


@pytest.mark.parametrize("name,players", TABLES, ids=[f"{n}-{p}" for n, p in TABLES])
def test_the_native_observation_is_the_python_one_at_every_decision(
        name: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first 40 decisions of a seeded hand, native path against the Python path: equal
    objects, fields, dicts and pickles."""
    assert _observe._PUBLIC is not None and _observe._NEW is not None and _observation._DICT_NATIVE is not None
    assert _playout(name, players, 5, monkeypatch, 40) == 40


@pytest.mark.slow
@pytest.mark.parametrize("name,players", TABLES, ids=[f"{n}-{p}" for n, p in TABLES])
def test_the_native_observation_is_the_python_one_through_whole_hands(
        name: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole seeded hand of every table (to its end: the result, the history's last events),
    compared at every tenth decision (two seats) and at the end (every seat), against the Python
    path on the same position."""
    assert _playout(name, players, 9, monkeypatch, None, 10, twin=False) > 20
