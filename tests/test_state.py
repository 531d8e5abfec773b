"""The GameState value: immutable, comparable, hashable, picklable; actions by value, notation or id.

These check the promises of ``GameState``'s documentation ("Immutable: apply returns a new
state"; "States compare equal when every public field is equal (the history aside), and are
hashable"), which the rules core behind it must keep.
"""

from __future__ import annotations

import pickle
import random

import pytest

import canasta
from canasta import GameState, IllegalActionError, new_game
from canasta._state import FIELDS


def _midgame(name: str, players: int, seed: int, steps: int) -> GameState:
    rng = random.Random(seed)
    st = new_game(name, players, seed=seed)
    for _ in range(steps):
        if st.is_hand_over:
            break
        st = st.apply(rng.choice(st.legal_actions()))
    return st


@pytest.mark.parametrize("name,players", [("hoyle-1950", 4), ("new-canasta", 5), ("online", 2)])
def test_a_pickled_state_is_equal_and_plays_on_alike(name: str, players: int) -> None:
    """GameState: "States compare equal when every public field is equal ... and are hashable":
    a state sent through pickle (to another process, say) is equal, has the same hash, history
    and legal actions, and plays on to the same states."""
    st = _midgame(name, players, seed=7, steps=60)
    back = pickle.loads(pickle.dumps(st))
    assert back == st and hash(back) == hash(st)
    assert back.history == st.history
    assert back.legal_actions() == st.legal_actions()
    for a in st.legal_actions():
        assert back.apply(a) == st.apply(a)


def test_public_fields_cannot_be_set() -> None:
    """GameState: "Immutable": no public field can be assigned, and no attribute added."""
    st = new_game("bicycle", seed=1)
    for name in FIELDS:
        with pytest.raises(AttributeError):
            setattr(st, name, getattr(st, name))
    with pytest.raises(AttributeError):
        st.anything = 1  # type: ignore[attr-defined]


def test_actions_by_value_notation_or_id_agree() -> None:
    """GameState.apply takes "an action, its notation, or its id"; is_legal and why_illegal
    take the same three forms and agree with legal_actions()."""
    st = _midgame("hoyle-1950", 4, seed=3, steps=9)
    space = st.action_space
    legal = set(st.legal_actions())
    for i, a in enumerate(space.actions):
        assert st.is_legal(a) == st.is_legal(str(a)) == st.is_legal(i) == (a in legal)
        assert st.why_illegal(a) == st.why_illegal(str(a)) == st.why_illegal(i)
        if a in legal:
            assert st.apply(a) == st.apply(str(a)) == st.apply(i)
        else:
            with pytest.raises(IllegalActionError) as err:
                st.apply(i)
            assert err.value.reason == st.why_illegal(a)
            assert err.value.action == a


def test_the_repr_is_one_short_line() -> None:
    """A state's repr is one line naming the variant, table, seed, hand (counted from 1, as
    every text for people counts it), phase and totals, even with the longest seed."""
    st = new_game("wikipedia", seed=2)
    text = repr(st)
    assert "\n" not in text and len(text) < 120
    assert "wikipedia" in text and "4 players" in text and "seed 2" in text
    assert st.hand_number == 0 and "hand 1," in text
    assert len(repr(new_game("three-pack", 6, seed=-(1 << 63)))) < 120


def test_states_are_not_attrs_classes_but_keep_every_public_field() -> None:
    """The public fields of a state are those documented in canasta.GameState."""
    st = new_game("three-pack", 6, seed=5)
    for name in FIELDS:
        assert hasattr(st, name)
        assert name in (GameState.__dict__.keys()), name
    assert isinstance(st.turn, canasta.Turn)
    assert all(isinstance(m, canasta.TableMeld) for side in st.melds for m in side)


def test_the_legal_action_mask_marks_exactly_the_legal_ids() -> None:
    """GameState.legal_action_mask: "byte i is 1 when id i is legal here, else 0", over the
    whole action space, at every step of a seeded playout."""
    rng = random.Random(4)
    st = new_game("online", 2, seed=4)
    while not st.is_hand_over:
        mask = st.legal_action_mask()
        assert len(mask) == st.action_space.size
        assert [i for i, bit in enumerate(mask) if bit] == sorted(st.legal_action_ids())
        assert set(mask) <= {0, 1}
        st = st.apply(rng.choice(st.legal_action_ids()))
    assert not any(st.legal_action_mask())
