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
from canasta._cards import cards_text
from canasta.cli.view import person_view as _view
from canasta._view import table_view


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


# ------------------------------------------------------------------ table_view (canasta._view)


def _greedy_states(name: str, seed: int, players: int | None = None):
    """Every state of one greedy hand."""
    state = canasta.new_game(name, players, seed=seed)
    bot = canasta.GreedyBot(seed)
    yield state
    while not state.is_hand_over:
        state = state.apply(bot.choose(state.observation(state.current_player), state.legal_actions()))
        yield state


def test_table_view_is_short_and_shows_the_table() -> None:
    longest = 0
    for state in _greedy_states("hoyle-1950", 2):
        text = table_view(state)
        longest = max(longest, len(text))
        assert f"Hand {state.hand_number + 1}, dealer seat {state.dealer}" in text
        assert "Hand of seat" not in text  # no hand without a seat
        for side, letter in enumerate("AB"):
            line = next(x for x in text.splitlines() if x.startswith(f"  {letter} melds: "))
            shown = line.split(": ", 1)[1].split(";")[0].split()
            assert shown == (["none"] if not state.melds[side] else shown)
            assert len(shown) == max(1, len(state.melds[side]))
            if state.red_threes[side]:
                assert line.endswith(f"; red threes {state.red_threes[side]}")
        if not state.is_hand_over:
            pile = next(x for x in text.splitlines() if x.startswith("Pile: "))
            assert f"{len(state.pile)} card" in pile and f"stock: {len(state.stock)}" in pile
            assert ("frozen" in pile) and (("not frozen" in pile) != (state.frozen or not all(state.opened)))
            seat_text = table_view(state, 1)
            assert f"Hand of seat 1: {cards_text(state.hands[1]) or '(empty)'}" in seat_text
            assert state.current_player is not None
            assert f"seat {state.current_player} (" in text.splitlines()[0]
        else:
            assert "hand over" in text.splitlines()[0]
    assert 0 < longest < 1500


def test_table_view_marks_canastas_and_stays_short_with_five_sides() -> None:
    seen = set()
    longest = 0
    for state in _greedy_states("new-canasta", 0):
        text = table_view(state, 0)
        longest = max(longest, len(text))
        for kind in ("natural", "mixed", "wild"):
            if f"[{kind}]" in text:
                seen.add(kind)
    assert {"natural", "mixed"} <= seen
    assert longest < 1500


def test_table_view_refuses_a_seat_that_is_not_one() -> None:
    state = canasta.new_game("hoyle-1950", 2, seed=0)
    with pytest.raises(canasta.ArgumentError, match="seat"):
        table_view(state, 2)
    with pytest.raises(canasta.ArgumentError, match="state"):
        table_view("state")  # type: ignore[arg-type]
