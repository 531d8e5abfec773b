"""What loads, plays (issue 20, part 3): positions and saves play could not go on from are refused.

Each position below loaded before, into a state from which play could not go on (a dead end, an
engine failure, an action the rules never offer). ``load_position`` now refuses each with a
:class:`PositionError` naming the key at fault, and ``state_from_json`` the same state saved with
a ``StateError``. The rules cited are those of the 1950 laws (hoyle-1950, rule numbers of the
Rummy-Games text) unless a test says otherwise.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any

import pytest

import canasta
from canasta import PositionError, StateError, load_position, state_from_json, state_to_json

SEATS = """
    [[seats]]
    hand = "4 5 6 8 9 9"
    [[seats]]
    hand = "6 7 10"
    [[seats]]
    hand = "8 8 K"
    [[seats]]
    hand = "6 7 10"
"""


def position(body: str, variant: str = "hoyle-1950", seats: str = SEATS) -> str:
    return f'variant = "{variant}"\n' + textwrap.dedent(body) + textwrap.dedent(seats)


def refused(text: str, key: str, words: str) -> None:
    """The position is refused naming ``key``, with ``words`` in the message."""
    with pytest.raises(PositionError) as info:
        load_position(text)
    assert info.value.path == key, info.value
    assert words in str(info.value), info.value


def test_answer_with_nobody_asking() -> None:
    """hoyle rule 39: the partner answers "may I go out?" only when asked."""
    refused(position('phase = "answer"\nto_act = 2\n'), "turn.asked", "set asked = true")


def test_answer_after_an_answer() -> None:
    """hoyle rule 39: the question has one answer; after it the asker plays on."""
    refused(position('phase = "answer"\nto_act = 2\n[turn]\nasked = true\nanswer = true\n'), "turn.answer",
            "leave answer out")


def test_initial_take_with_nothing_taken() -> None:
    """new-canasta: "If a player picks up the deck to make their initial meld ..." a player is
    taking the pile only after a take (before, ``draw`` from such a position raised IndexError)."""
    text = position('players = 2\nphase = "initial_take"\nto_act = 0\n', "new-canasta",
                    '[[seats]]\nhand = "4 5 6 8 9 9"\n[[seats]]\nhand = "6 7 10"\n')
    refused(text, "turn.took", "took = true")
    refused(text + '[turn]\ntook = true\n', "turn.pending_top", "took = true")


def test_meld_phase_that_drew_and_took() -> None:
    """hoyle rule 31: a turn begins by drawing from the stock or taking the pile, not both."""
    refused(position('phase = "meld"\nto_act = 0\n[turn]\ndrew = true\ntook = true\n'), "turn.took",
            "never both")


def test_draw_phase_that_drew() -> None:
    """hoyle rule 31: the phase draw is the turn before its draw."""
    refused(position('phase = "draw"\nto_act = 0\n[turn]\ndrew = true\n'), "turn.drew", "drew must be false")


def test_asker_holding_a_red_three() -> None:
    """hoyle rule 13: red threes are faced at the start of a turn, so the player who asked "may I
    go out?" holds none (a forced answer offered him 'discard 3r')."""
    seats = SEATS.replace('hand = "4 5 6 8 9 9"', 'hand = "3r 5 6 8 9 9"')
    refused(position('phase = "answer"\nto_act = 2\n[turn]\nasked = true\ndrew = true\n', seats=seats),
            "seats.0.hand", "holding a red three")


def test_player_to_draw_with_no_card() -> None:
    """A player whose hand is used up has gone out (hoyle rule 43): nobody is to draw with no card."""
    refused(position('phase = "draw"\nto_act = 0\n', seats='[[seats]]\n[[seats]]\nhand = "6 7 10"\n'),
            "seats.0.hand", "with no card")


def test_start_hand_only_after_a_take() -> None:
    """new-canasta (retracting a take): the hand before a take is kept only while a take is on."""
    text = position('phase = "meld"\nto_act = 0\n[turn]\ndrew = true\nstart_hand = "4 5"\n')
    refused(text, "turn.start_hand", "only a take of the pile")


def test_winners_listed_twice() -> None:
    """A position, like a state save, lists each winning side once."""
    with pytest.raises(PositionError) as info:
        load_position('variant = "hoyle-1950"\nphase = "game_over"\ntotals = [5000, 10]\nwinners = [1, 1]\n')
    assert info.value.path == "winners.1" and "listed twice" in str(info.value)


@pytest.mark.parametrize(("field", "value", "key"), [
    ("drew", True, "turn.drew"), ("took", True, "turn.took"), ("melded", True, "turn.melded"),
])
def test_saves_are_checked_alike(field: str, value: Any, key: str) -> None:
    """A JSON state save whose turn contradicts its phase is refused by the same check."""
    state = canasta.new_game("hoyle-1950", seed=3)
    doc = json.loads(state_to_json(state))
    doc["turn"][field] = value
    with pytest.raises(StateError) as info:
        state_from_json(json.dumps(doc))
    assert info.value.path == key, info.value


def test_every_state_play_reaches_loads() -> None:
    """The checks refuse nothing play reaches: states of a random deal of every bundled variant's
    usual table save and load back (positions and JSON; the slow position and save sweeps play
    many more)."""
    import random

    for name in canasta.variant_names():
        state = canasta.new_game(name, seed=11)
        rng = random.Random(11)
        for step in range(150):
            if step % 10 == 0:
                assert load_position(canasta.to_position(state)) == state
                assert state_from_json(state_to_json(state)) == state
            acts = state.legal_actions()
            if not acts:
                break
            state = state.apply(rng.choice(acts))
