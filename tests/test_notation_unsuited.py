"""A group written without suits in a variant with suited cards (issue 19, item 9).

Samba (Bicycle, "Samba": a meld is three or more cards of the same rank, a sequence three or more
of one suit in a row; the table keeps a group as its rank and its count) names natural cards with
their suits, because a sequence needs them. A group's suits matter only through the cards they
leave in the hand: ``meld A A A`` is accepted where the hand leaves no choice (exactly one legal
suited action has those ranks), and refused naming the choices where it does. The notation and
the ids are unchanged: the unsuited text reads as before and has no id; the state plays the one
suited action it names, and records that.
"""

from __future__ import annotations

import random

import pytest

import canasta
from canasta import IllegalActionError, Meld, parse_action
from canasta._actions import unsuited
from canasta._cards import cards_text


@pytest.fixture(scope="module")
def samba() -> canasta.GameState:
    """Samba, seed 0, after seat 0's draw: As Ah Ad Ad Qs Qs Jh Jc 10s 10c 9c 8s 6h 5h 4h 2 JK."""
    state = canasta.new_game("samba", seed=0).apply("draw")
    assert cards_text(state.hands[0]) == "As Ah Ad Ad Qs Qs Jh Jc 10s 10c 9c 8s 6h 5h 4h 2 JK"
    return state


def test_a_group_the_hand_leaves_no_choice_of_suits_for_is_played(samba: canasta.GameState) -> None:
    """Two queens, both spades, and a deuce: ``meld Q Q 2`` can only be ``meld Qs Qs 2``."""
    assert samba.is_legal("meld Q Q 2") and samba.why_illegal("meld Q Q 2") is None
    after = samba.apply("meld Q Q 2")
    assert after == samba.apply("meld Qs Qs 2")
    assert str(after.history[-1]) == "meld Qs Qs 2"  # the record names the cards played
    events = canasta.events(samba, "meld Q Q 2")
    assert events[0].text == "Seat 0 melded Qs Qs 2."
    # the notation and the ids are unchanged: the text reads as before, and has no id
    action = parse_action("meld Q Q 2")
    assert action == Meld((12, 12, 1)) and str(action) == "meld Q Q 2"
    assert action not in samba.action_space
    assert samba.is_legal("discard 8") and samba.apply("discard 8") == samba.apply("discard 8s")


def test_a_group_with_a_choice_of_suits_is_refused_naming_the_choices(samba: canasta.GameState) -> None:
    """As Ah Ad Ad: three aces can be melded three ways, each keeping another ace in the hand
    (the ace of spades or hearts could lengthen a sequence of its suit, Bicycle, "Samba", Sequence Meld)."""
    reason = samba.why_illegal("meld A A A")
    assert reason == ("'meld A A A' could be 'meld Ah Ad Ad', 'meld As Ad Ad' or 'meld As Ah Ad': name the "
                      "cards with their suits (the cards kept in your hand differ, and their suits matter "
                      "for sequences)")
    assert not samba.is_legal("meld A A A")
    with pytest.raises(IllegalActionError) as err:
        samba.apply("meld A A A")
    assert err.value.reason == reason
    assert "'discard Ad', 'discard Ah' or 'discard As'" in samba.why_illegal("discard A")


def test_a_group_the_hand_cannot_make_is_refused_by_rank(samba: canasta.GameState) -> None:
    assert samba.why_illegal("meld 9 9 9") == "you hold only one 9 (this needs three)"
    assert samba.why_illegal("discard 7") == "you hold no 7"
    start = canasta.new_game("samba", seed=0)
    assert start.why_illegal("meld A A A") == "draw or take the pile first"  # the turn's order first


def test_a_variant_without_suits_is_unchanged() -> None:
    state = canasta.new_game("hoyle-1950", seed=0).apply("draw")
    for action in state.legal_actions():
        assert unsuited(action) is action


@pytest.mark.parametrize("name", ["samba", "bolivia", "brazilian"])
def test_the_unsuited_form_is_played_exactly_where_it_names_one_action(name: str) -> None:
    """Random hands of each variant with sequences: an action's form without suits is legal
    exactly when no other legal action has it, and then plays the same as the action."""
    rng = random.Random(7)
    state = canasta.new_game(name, seed=7)
    checked = 0
    while not state.is_hand_over and checked < 300:
        legal = state.legal_actions()
        forms = [unsuited(a) for a in legal]
        for a, form in zip(legal, forms):
            if form is a:
                continue
            unique = forms.count(form) == 1
            assert state.is_legal(form) == unique, (str(a), str(form))
            if unique:
                assert state.apply(form) == state.apply(a)
            else:
                assert f"'{a}'" in str(state.why_illegal(form))
            checked += 1
        state = state.apply(rng.choice(legal))
    assert checked >= 50
