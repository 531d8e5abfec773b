"""The terminal's table view says what the pile allows (issue 10, part 1, item 7).

hoyle-1950 rule 37: "The discard pile is FROZEN, as concerns a side, until that side has made
its initial meld", and rule 39: while frozen it may be taken "only to make a meld with two
natural cards of the same rank from his hand". A wild card discarded freezes it for everyone
(rule 38). Once the side has melded and nothing froze the pile for everyone, it may also be
taken with a natural card and a wild card, or onto a meld (rule 40). So the view must not say
"not frozen" to a side that has not melded.
"""

from __future__ import annotations

import random

import pytest

import canasta
from canasta._cli import _view


def _pile_line(state: canasta.GameState, seat: int) -> str:
    lines = [line for line in _view(state, seat) if line.strip().startswith("pile:")]
    assert len(lines) == 1
    return lines[0]


def _states(name: str, seeds: range):
    """The states of random hands (random play discards wild cards, which freezes the pile)."""
    for seed in seeds:
        rng = random.Random(seed)
        state = canasta.new_game(name, seed=seed)
        while not state.is_hand_over:
            yield state
            state = state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", ["hoyle-1950", "bicycle"])
def test_the_pile_is_frozen_for_a_side_until_its_initial_meld(name: str) -> None:
    seen = set()
    for state in _states(name, range(4)):
        if not state.pile:
            continue
        for seat in range(state.players):
            line = _pile_line(state, seat)
            side = state.side_of(seat)
            if state.frozen:
                assert ", frozen (taken with a natural pair of its top card)" in line
                seen.add("frozen")
            elif not state.opened[side]:
                assert ", frozen for your side until its initial meld (taken with a natural pair" in line
                seen.add("side")
            else:
                assert ", not frozen (taken with a natural pair of its top card or a natural card and a " \
                       "wild card or its top card added to a meld of your side)" in line
                seen.add("open")
            assert "not frozen" not in line or state.opened[side]
    assert seen == {"frozen", "side", "open"}


def test_a_wild_card_on_top_cannot_be_taken() -> None:
    """hoyle-1950 rule 42: "The discard pile may not be taken when it is topped by a wild card or
    a black trey"."""
    for state in _states("hoyle-1950", range(6)):
        if state.pile and state.pile[-1] in (canasta.Card.JOKER, canasta.Card.TWO):
            name = "joker" if state.pile[-1] == canasta.Card.JOKER else "two"
            assert f"; a {name} on top: it cannot be taken now" in _pile_line(state, 0)
            return
    pytest.fail("no wild card on top of the pile in these games")
