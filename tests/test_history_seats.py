"""Who played each action is kept with the history (issue 10, part 1, item 6).

Every play is made openly at the table, in turn (hoyle-1950 rules 18-20: "the turn passes to
the left", each turn a draw, a meld and a discard; "May I go out?" and its answer are spoken
aloud, rule 50), so a player's observation names the seat behind each action of the hand. A state
played on from a loaded position has no deal to replay its history from: the seats are
recorded as the actions are applied, kept by JSON saves, and shown in observations.
"""

from __future__ import annotations

import json
import random

import pytest

import canasta
from canasta import StateError, load_position, new_game, state_from_json, state_to_json, to_position

TABLES = [("hoyle-1950", 4), ("hoyle-1950", 3), ("new-canasta", 5), ("online", 2)]


def _played_from_position(name: str, players: int, seed: int, steps: int) -> tuple[canasta.GameState, list[int]]:
    """A position loaded mid-hand, then ``steps`` random actions; the seats that played them."""
    rng = random.Random(seed)
    state = new_game(name, players, seed=seed)
    for _ in range(rng.randrange(5, 30)):
        if state.current_player is None:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    state = load_position(to_position(state))
    assert state.history == ()
    seats = []
    for _ in range(steps):
        if state.current_player is None:
            break
        seats.append(state.current_player)
        state = state.apply(rng.choice(state.legal_actions()))
    return state, seats


@pytest.mark.parametrize("name,players", TABLES)
def test_observation_names_who_played_after_a_loaded_position(name: str, players: int) -> None:
    for seed in range(6):
        state, seats = _played_from_position(name, players, seed, 60)
        for seat in range(players):
            events = state.observation(seat).history
            assert [ev.seat for ev in events] == seats
            assert [ev.action for ev in events] == list(state.history)


@pytest.mark.parametrize("name,players", TABLES)
def test_json_save_keeps_the_seats(name: str, players: int) -> None:
    for seed in range(4):
        state, seats = _played_from_position(name, players, seed + 10, 40)
        back = state_from_json(state_to_json(state))
        assert back == state and back.history == state.history
        assert [ev.seat for ev in back.observation(0).history] == seats
        assert state_to_json(back) == state_to_json(state)


def test_a_save_without_seats_still_loads_and_works_them_out() -> None:
    state, seats = _played_from_position("hoyle-1950", 4, 3, 12)
    doc = json.loads(state_to_json(state))
    assert doc["history_seats"] == seats
    del doc["history_seats"]
    back = state_from_json(json.dumps(doc))
    assert back == state and back.history == state.history
    worked = [ev.seat for ev in back.observation(0).history]
    assert len(worked) == len(seats)
    # worked back from the player in turn: right wherever it can be told
    assert all(w is None or w == s for w, s in zip(worked, seats))


def test_bad_history_seats_are_refused_by_key() -> None:
    state, _ = _played_from_position("hoyle-1950", 4, 5, 6)
    doc = json.loads(state_to_json(state))
    short = dict(doc, history_seats=doc["history_seats"][:-1])
    with pytest.raises(StateError, match=r"^history_seats: has \d+ entries; expected one per action"):
        state_from_json(json.dumps(short))
    wrong = dict(doc, history_seats=[4] + doc["history_seats"][1:])
    with pytest.raises(StateError, match=r"^history_seats\.0: is 4; expected a seat from 0 to 3"):
        state_from_json(json.dumps(wrong))
    unknown = dict(doc, history_seats=[None] * len(doc["history_seats"]))
    assert state_from_json(json.dumps(unknown)) == state


def _draw_and_discard(state: canasta.GameState, rng: random.Random) -> canasta.GameState:
    """Play on without melding or taking the pile, so that the stock runs out."""
    actions = state.legal_actions()
    quiet = [a for a in actions if isinstance(a, (canasta.Draw, canasta.Discard, canasta.Pass, canasta.Done))]
    return state.apply(rng.choice(quiet or actions))


@pytest.mark.parametrize("name,players", [("hoyle-1950", 4), ("bicycle", 4), ("online", 2)])
def test_seats_survive_a_hand_that_ends_with_the_stock(name: str, players: int) -> None:
    """The hand ends when the stock runs out (hoyle-1950 rule 55; bicycle, online likewise): no
    one went out, so the end of the hand names no player, and the seats before it cannot be
    worked back from it. They are recorded instead."""
    rng = random.Random(7)
    state = new_game(name, players, seed=7)
    while len(state.stock) > 12:
        state = _draw_and_discard(state, rng)
    state = load_position(to_position(state))
    seats = []
    while state.current_player is not None:
        seats.append(state.current_player)
        state = _draw_and_discard(state, rng)
    assert state.result is not None and state.result.went_out is None
    for seat in range(players):
        assert [ev.seat for ev in state.observation(seat).history] == seats
    back = state_from_json(state_to_json(state))
    assert [ev.seat for ev in back.observation(1).history] == seats
