"""GameState's methods whose work lives in modules built on ``canasta._state`` (a seat's
observation, a resample, the events of an action, the table view): ``_state`` imports none of
those modules, and each fills its method's slot when imported. These tests hold that the
slots are always filled, and that an empty one says which module it waits for."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import canasta
from canasta import _state


def test_the_slots_are_filled_when_only_the_state_module_is_imported() -> None:
    """Importing ``canasta._state`` alone runs the package's ``__init__`` first, which imports
    every module that fills a slot: the methods work in a fresh interpreter."""
    code = ("from canasta._state import GameState\n"
            "from canasta._newgame import new_game\n"
            "import random\n"
            "st = new_game('hoyle-1950', 4, seed=1)\n"
            "assert st.observation(0).seat == 0\n"
            "assert st.resample(0, random.Random(1)).hands[0] == st.hands[0]\n"
            "assert st.events_of(st.legal_action_ids()[0])[0].seat == 0\n"
            "assert str(st).startswith('Hand 1')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("slot, method, module", [
    ("_OBSERVATION", lambda st: st.observation(0), "_observe"),
    ("_RESAMPLE", lambda st: st.resample(0, random.Random(1)), "_resample"),
    ("_EVENTS", lambda st: st.events_of(st.legal_action_ids()[0]), "_events"),
    ("_TABLE_VIEW", str, "_view"),
])
def test_an_empty_slot_names_the_module_it_waits_for(monkeypatch: pytest.MonkeyPatch, slot: str, method: object,
                                                     module: str) -> None:
    """An empty slot raises a RuntimeError naming the module that fills it, not an
    AttributeError from deep inside."""
    st = canasta.new_game("hoyle-1950", 4, seed=1)
    monkeypatch.setattr(_state, slot, _state._unfilled(slot, module))
    with pytest.raises(RuntimeError, match=f"canasta.{module}"):
        method(st)  # type: ignore[operator]
