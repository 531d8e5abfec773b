"""Examining the discard pile (issue 10, part 1, item 6; setting ``pile.examine``).

bicycle, "A player may: 1) Examine the discard pile during their first turn before
discarding." The other bundled sources give no such right (hoyle-1950 and bicycle keep the
pile "squared up"), so their observations show its top card only.
"""

from __future__ import annotations

import random

import pytest

import canasta
from canasta import Discard, load_variant, new_game


def _hand(name: str, seed: int, variant: object = None):
    rng = random.Random(seed)
    state = new_game(variant if variant is not None else name, seed=seed)
    while not state.is_hand_over:
        yield state
        state = state.apply(rng.choice(state.legal_actions()))


def test_bicycle_first_turn_shows_the_whole_pile() -> None:
    for seed in range(2):
        discarded: set[int] = set()
        for state in _hand("bicycle", seed):
            for seat in range(state.players):
                obs = state.observation(seat)
                first_turn = state.current_player == seat and seat not in discarded
                if first_turn and state.pile:
                    assert obs.examined_pile == state.pile
                else:
                    assert obs.examined_pile is None
            if state.history and isinstance(state.history[-1], Discard):
                discarded.add(state.observation(0).history[-1].seat)
        assert discarded, "a hand without a discard"


@pytest.mark.parametrize("name", ["hoyle-1950", "wikipedia", "online", "three-pack", "new-canasta"])
def test_other_variants_show_the_top_card_only(name: str) -> None:
    for i, state in enumerate(_hand(name, 1)):
        if i % 5 == 0:
            for seat in range(state.players):
                assert state.observation(seat).examined_pile is None


def test_a_house_rule_may_always_show_the_pile(tmp_path) -> None:
    path = tmp_path / "open-pile.toml"
    path.write_text('extends = "hoyle-1950"\nname = "open-pile"\n[pile]\nexamine = "always"\n')
    variant = load_variant(str(path))
    for state in _hand("", 2, variant):
        for seat in range(state.players):
            obs = state.observation(seat)
            assert obs.examined_pile == (state.pile if state.pile else None)
