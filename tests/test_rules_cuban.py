"""Scenario tests: each rule statement of the Cuban Canasta digest, asked of the engine.

Source: Rummy-Games, "Cuban Canasta" (http://www.rummy-games.com/rules/cuban-canasta.html,
RG), as digested in ../shared/rules/beyond/cuban.md, whose rule numbers the tests cite;
variant ``cuban``. Rules the page does not change are the 1950 laws' ("inherited"), tested
in tests/test_rules_hoyle.py. Positions are written in the position format
(``load_position``); seats 0 and 2 are side 0, seats 1 and 3 side 1; seat 0 is to act.
"""

from __future__ import annotations

from functools import partial

import pytest

import canasta
from canasta import GameState, IllegalActionError, Take, parse_action

import helpers
from helpers import legal, rows

V = "cuban"


pos = partial(helpers.pos, variant=V)
turn = partial(helpers.turn, V, totals="[0, 0]")
"""Seat 0 to act holding ``hand`` (drawn already in the meld phase); melds are TOML lists."""


NAT = '"K K K K K K K"'


# ================================================================ 1-2 players, deck, deal


def test_four_players_only_thirteen_cards() -> None:
    """cuban 1.1 (inherited) four players in two partnerships; 2.1 RG: "Each player is dealt
    13 cards"."""
    v = canasta.load_variant(V)
    assert sorted(v.tables) == ["4"]
    for seed in range(5):
        st = canasta.new_game(V, seed=seed)
        assert [st.side_of(s) for s in range(4)] == [0, 1, 0, 1]
        assert [sum(h) for h in st.hands] == [13] * 4
        assert sum(st._rules.deck) == 108  # 1.2: two packs and four jokers


# ================================================================ 3 the pile


def test_pile_always_frozen_natural_pair_only() -> None:
    """cuban 3.2 RG: the pile "is always frozen": even for a side that has opened, with no
    wild card in the pile, it is taken only with a natural pair of the top card's rank, never
    with one natural and a wild card, never onto a meld on the table."""
    st = turn("9 9 4", melds0='"9 9 9", "Q Q Q"', pile="5 9", phase="draw")
    assert not st.frozen
    assert legal(st, "take 9 9")
    st = turn("9 2 4", melds0='"9 9 9", "Q Q Q"', pile="5 9", phase="draw")
    assert not any(isinstance(a, Take) for a in st.legal_actions())
    assert not legal(st, "take onto 9")


def test_pile_topped_by_a_wild_card_cannot_be_taken() -> None:
    """cuban 3.3 RG: a pile topped by a wild card cannot be taken."""
    st = turn("2 2 4", melds0='"9 9 9"', pile="5 2", phase="draw")
    assert not any(isinstance(a, Take) for a in st.legal_actions())


def test_no_black_three_discard_in_the_first_round() -> None:
    """cuban 3.4 RG: black threes may not be discarded during the first round (A4: each
    player's first turn of the hand). In a later turn they may. A player whose cards are all
    black threes still discards one (the turn must end; the page does not say otherwise)."""
    checked = 0
    for seed in range(10):
        st = canasta.new_game(V, seed=seed)
        # the first round: each seat draws and discards a card that is not a black three; no
        # seat's first turn offers a black-three discard
        for _ in range(4):
            seat = st.current_player
            st = st.apply("draw")
            hand = st.hands[seat]
            if hand[3]:
                checked += 1
                assert not legal(st, "discard 3b")
                assert "first turn" in st.why_illegal("discard 3b")
            card = next(k for k in range(4, 15) if hand[k])
            st = st.apply(canasta.Discard(card))
        # the second round: a black three may go
        seat = st.current_player
        st = st.apply("draw")
        if st.hands[seat][3]:
            checked += 1
            assert legal(st, "discard 3b")
    assert checked >= 5  # both rounds were exercised
    # a position loaded with no history counts from the loading: seat 0's first turn
    first = turn("3b 3b 4 5", pile="5 9")
    assert not legal(first, "discard 3b") and legal(first, "discard 4")
    only = turn("3b 3b", pile="5 9")
    assert legal(only, "discard 3b")


def test_black_three_discard_allowed_after_the_first_round() -> None:
    """cuban 3.4 RG: the ban is for the first round only: once a player has finished a turn,
    he may discard a black three."""
    st = turn("3b 4 5 6 7", pile="5 9")
    st = st.apply("discard 4")
    for _ in range(3):  # the other three seats draw and discard
        st = st.apply("draw")
        seat = st.current_player
        card = next(k for k in range(4, 15) if st.hands[seat][k])
        st = st.apply(canasta.Discard(card))
    assert st.current_player == 0
    st = st.apply("draw")
    assert legal(st, "discard 3b")


def test_black_threes_in_a_taken_pile_are_set_aside_and_scored() -> None:
    """cuban 3.5 RG: black threes in a taken pile are set aside out of play, 5 each for the
    taking side (7.5); they do not come into the taker's hand."""
    st = turn("9 9 4 5", melds0=NAT + ', "Q Q Q"', pile="6 3b 7 3b 8 9", phase="draw")
    after = st.apply("take 9 9")
    assert after.hands[0][3] == 0
    assert after.hands[0][6] == after.hands[0][7] == after.hands[0][8] == 1
    # seat 0 melds out: 4 5 6 7 8 are left; going out needs them melded or discarded, so end
    # the hand by a going-out discard from a small hand instead
    st = turn("9 9 4", melds0=NAT + ', "Q Q Q"', pile="3b 3b 9", phase="draw")
    st = st.apply("take 9 9")
    assert sum(st.hands[0]) == 1
    end = st.apply("discard 4")
    assert rows(end, 0)["black threes set aside"] == 10


def test_all_four_black_threes_set_aside_score_100() -> None:
    """cuban 3.5/7.5 RG: "5 points each, or 100 for all four" (A3: the side's total in the
    hand)."""
    st = turn("9 9 4", melds0=NAT + ', "Q Q Q"', pile="3b 3b 3b 3b 9", phase="draw")
    end = st.apply("take 9 9").apply("discard 4")
    assert rows(end, 0)["black threes set aside"] == 100


# ================================================================ 4 melds


def test_wild_cards_melded_on_their_own() -> None:
    """cuban 4.2 RG: wild cards may be melded on their own, three or more, twos and jokers
    mixed."""
    st = turn("JK 2 2 4 5", melds0='"Q Q Q"')
    assert legal(st, "meld JK 2 2")
    grown = st.apply("meld JK 2 2")
    st2 = turn("JK 2 4 5", melds0='"Q Q Q", "JK 2 2"')
    assert legal(st2, "add JK to wild") and legal(st2, "add 2 to wild")
    assert grown.melds[0][-1].size == 3


def test_no_canasta_holds_more_than_seven_cards() -> None:
    """cuban 4.3 RG: no canasta may hold more than seven cards: neither a natural canasta nor a
    wild one takes an eighth card."""
    st = turn("K 2 JK 4 5", melds0=NAT + ', "JK JK 2 2 2 2 JK"')
    assert not legal(st, "add K") and not legal(st, "add 2 to K")
    assert not legal(st, "add JK to wild")


def test_a_mixed_canasta_needs_four_naturals() -> None:
    """cuban 4.1 (inherited) at most three wild cards in a meld, with 4.3's cap of seven: a
    mixed canasta has at least four naturals (digest A5)."""
    st = turn("2 K 4 5", melds0='"K K K 2 2 2"')
    assert not legal(st, "add 2 to K")
    assert legal(st, "add K")


# ================================================================ 5 canastas, 7 scoring


@pytest.mark.parametrize("wild,bonus", [("2 2 2 2 2 2 2", 4000), ("JK JK JK JK 2 2 2", 3000),
                                        ("JK JK JK 2 2 2 2", 2000), ("JK JK 2 2 2 2 2", 2000)])
def test_wild_canastas_score_by_their_cards(wild: str, bonus: str) -> None:
    """cuban 5.1 RG: wild canastas: seven deuces 4,000; four jokers and three deuces 3,000; any
    other mix of seven wild cards 2,000."""
    end = turn("4", melds0=f'"{wild}"').apply("discard 4")
    items = {i.name: i.points for i in end.result.scores[0].items if "wild canastas" in i.name}
    assert sum(items.values()) == bonus


def test_natural_and_mixed_canastas() -> None:
    """cuban 5.1 (inherited): natural canasta 500, mixed canasta 300."""
    end = turn("4", melds0=NAT + ', "Q Q Q Q 2 2 JK"').apply("discard 4")
    r = rows(end, 0)
    assert r["natural canastas"] == 500 and r["mixed canastas"] == 300


def test_no_bonus_for_going_out_concealed() -> None:
    """cuban 6.2 RG: no bonus for going out concealed; going out is 100 (inherited)."""
    st = turn("K K K K K K K 4", melds0="", opened0=False)
    st = st.apply("meld K K K").apply("add K").apply("add K").apply("add K").apply("add K")
    end = st.apply("discard 4")
    assert end.result.went_out == 0
    r = rows(end, 0)
    assert r["going out"] == 100 and "concealed" not in r
    assert end.result.concealed  # he melded his whole hand in one turn: concealed, with no bonus


@pytest.mark.parametrize("n,points", [(1, 100), (2, 300), (3, 500), (4, 1000)])
def test_red_threes_table(n: int, points: int) -> None:
    """cuban 7.3 RG: red threes: one 100, two 300, three 500, all four 1,000 (plus for a side
    with a canasta, 7.4)."""
    end = turn("4", melds0=NAT, red0=n).apply("discard 4")
    assert rows(end, 0)["red threes"] == points


@pytest.mark.parametrize("n,points", [(1, 100), (4, 1000)])
def test_red_threes_minus_without_a_canasta(n: int, points: int) -> None:
    """cuban 7.4 RG: red threes count plus if the side has melded at least one canasta, minus
    if it has not, even with melds on the table."""
    end = turn("4", melds0=NAT, melds1='"Q Q Q Q Q Q"', red1=n).apply("discard 4")
    assert rows(end, 1)["red threes (too few canastas)"] == -points
    assert "red threes" not in rows(end, 1)


def test_game_is_7500() -> None:
    """cuban 7.1 RG: game is 7,500."""
    end = turn("4", melds0=NAT, totals="[7000, 0]").apply("discard 4")
    assert end.is_game_over and end.winners == (0,)
    end = turn("4", melds0=NAT, totals="[6000, 0]").apply("discard 4")
    assert not end.is_game_over


@pytest.mark.parametrize("total,need", [(-10, 15), (0, 50), (1500, 90), (3000, 120), (4995, 120),
                                        (5000, 150), (7000, 150)])
def test_initial_meld_minimum(total: int, need: int) -> None:
    """cuban 7.2 RG: as Canasta below 5,000 (below 0: 15, 0: 50, 1,500: 90, 3,000: 120) and
    150 from 5,000 up."""
    st = turn("4 5 6", totals=f"[{total}, 0]")
    assert st.initial_need(0) == need
