"""Scenario tests: every statement of the THREE-PACK CANASTA section of the 1950 laws.

Source: ../shared/rules/sources/hoyle-1950-laws-and-three-pack.txt, section "THREE-PACK
CANASTA", variant ``three-pack``:

    Six play, in three partnerships of two each; each player sits between two opponents, one of
    each other team: Three full packs and six jokers are shuffled together ... Thirteen cards
    are dealt to each player. Game is 10,000, and when a side reaches 7,000 it needs 150 for its
    initial meld. Five red threes count 1,000; all six count 1,200. A side needs two canastas to
    go out. The rules otherwise are as in four-hand Canasta. The three-pack game may be played
    by any number of players from two to six.

At six players seats 0 and 3 are side 0, seats 1 and 4 side 1, seats 2 and 5 side 2.
"""

from __future__ import annotations

from functools import partial

import pytest

import canasta
from canasta import Card, GameState, Phase

import helpers
from helpers import legal, rows, run

V = "three-pack"
pos = partial(helpers.pos, variant=V)


def deck_of(st: GameState) -> list[int]:
    """Count of each card kind in the deal (hands, melds, faced red threes, pile, stock)."""
    counts = [0] * 15
    for h in list(st.hands) + list(st.down_hands):
        for k, n in enumerate(h):
            counts[k] += n
    for k in st.pile + st.stock:
        counts[k] += 1
    counts[int(Card.RED_THREE)] += sum(st.red_threes)
    return counts


# ============================================================== the deck and the deal


def test_three_full_packs_and_six_jokers_162_cards():
    """three-pack: "Three full packs and six jokers are shuffled together": 162 cards, with six
    jokers and twelve of every rank (six red and six black threes)."""
    st = canasta.new_game(V, players=6, seed=1)
    counts = deck_of(st)
    assert sum(counts) == 162
    assert counts[int(Card.JOKER)] == 6
    assert counts[int(Card.TWO)] == 12
    assert counts[int(Card.RED_THREE)] == 6 and counts[int(Card.BLACK_THREE)] == 6
    assert all(counts[k] == 12 for k in range(4, 15))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_thirteen_cards_dealt_to_each_player(players):
    """three-pack: "Thirteen cards are dealt to each player", and "The three-pack game may be
    played by any number of players from two to six"."""
    st = canasta.new_game(V, players=players, seed=2)
    dealt = [sum(st.hands[s]) for s in st.active]
    assert dealt == [13] * len(st.active)
    assert sum(deck_of(st)) == 162


def test_six_players_three_partnerships_of_two():
    """three-pack: "Six play, in three partnerships of two each"."""
    st = canasta.new_game(V, seed=0)
    assert st.players == 6
    assert st.sides == 3
    members = [[s for s in range(6) if st.side_of(s) == side] for side in range(3)]
    assert [len(m) for m in members] == [2, 2, 2]
    assert len(st.totals) == 3


def test_each_player_sits_between_two_opponents_one_of_each_other_team():
    """three-pack: "each player sits between two opponents, one of each other team"."""
    st = canasta.new_game(V, players=6, seed=0)
    for s in range(6):
        left, me, right = st.side_of((s + 1) % 6), st.side_of(s), st.side_of((s - 1) % 6)
        assert left != me and right != me
        assert left != right


def test_six_players_turns_pass_to_the_left():
    """three-pack: "The rules otherwise are as in four-hand Canasta" (rule 8: the deal, and the
    play, pass to the left, clockwise): each turn passes to an opponent."""
    st = canasta.new_game(V, players=6, seed=4)
    seats = []
    for _ in range(6):
        seats.append(st.current_player)
        st = st.apply("draw")
        st = st.apply(next(a for a in st.legal_actions() if isinstance(a, canasta.Discard)))
    assert seats == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("players", [1, 7])
def test_only_two_to_six_players(players):
    """three-pack: "may be played by any number of players from two to six": other counts are
    refused with a ValueError naming the allowed counts."""
    with pytest.raises(ValueError, match="2, 3, 4, 5, 6"):
        canasta.new_game(V, players=players)


# ============================================================== initial meld


@pytest.mark.parametrize(
    ("total", "need"),
    [(-10, 0), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (6995, 120), (7000, 150),
     (9990, 150)],
)
def test_initial_meld_150_when_a_side_reaches_7000(total, need):
    """three-pack: "when a side reaches 7,000 it needs 150 for its initial meld"; below that as
    rule 33: "Minus 0; 0 to 1495 50; 1500 to 2995 90; 3000 or more 120"."""
    st = pos(f"""
        totals = [{total}, 0, 0]
        [[seats]]
        hand = "4 5 6"
    """)
    assert st.initial_need(0) == need


HAND_150 = "A A A A A K K K K K 4 6 8"
HAND_140 = "A A A A A K K K K 4 6 8 9"


@pytest.mark.parametrize(
    ("total", "hand", "allowed"),
    [(6995, HAND_140, True), (7000, HAND_140, False), (7000, HAND_150, True)],
)
def test_initial_meld_of_140_refused_from_7000(total, hand, allowed):
    """three-pack: "when a side reaches 7,000 it needs 150 for its initial meld": melds worth 140
    open a side at 6,995 (120 needed) but not at 7,000; melds worth 150 do."""
    st = pos(f"""
        totals = [{total}, 0, 0]
        phase = "meld"
        to_act = 0
        [turn]
        drew = true
        [[seats]]
        hand = "{hand}"
    """)
    assert legal(st, "meld A A A") is allowed
    if allowed:
        st = run(st, "meld A A A", "add A", "add A", "meld K K K", "add K")
        if st.hands[0][int(Card.KING)]:
            st = st.apply("add K")
        assert st.opened[0]


# ============================================================== red threes


def _out_with_red_threes(n: int, melded: bool = True) -> GameState:
    """Seat 1 goes out; side 0 (seats 0 and 3) has faced ``n`` red threes."""
    melds = '["Q Q Q"]' if melded else "[]"
    return pos(f"""
        phase = "meld"
        to_act = 1
        [turn]
        drew = true
        [[seats]]
        hand = "4"
        [[seats]]
        hand = "9"
        melded = true
        [[seats]]
        hand = "5"
        [[seats]]
        hand = "6"
        [[seats]]
        hand = "7"
        [[seats]]
        hand = "8"
        [[sides]]
        melds = {melds}
        red_threes = {n}
        [[sides]]
        melds = ["K K K K K K K", "J J J J J J J"]
        [[sides]]
    """).apply("discard 9")


@pytest.mark.parametrize(("n", "value"), [(5, 1000), (6, 1200)])
def test_five_red_threes_count_1000_all_six_1200(n, value):
    """three-pack: "Five red threes count 1,000; all six count 1,200"."""
    st = _out_with_red_threes(n)
    assert st.is_hand_over
    assert rows(st, 0)["red threes"] == value


@pytest.mark.parametrize(("n", "value"), [(5, 1000), (6, 1200)])
def test_five_or_six_red_threes_deducted_from_a_side_without_a_meld(n, value):
    """three-pack: "Five red threes count 1,000; all six count 1,200", and "The rules otherwise
    are as in four-hand Canasta" (rule 16: "a side that has made no meld has the value of its
    treys deducted")."""
    st = _out_with_red_threes(n, melded=False)
    assert rows(st, 0)["red threes (no meld)"] == -value


# ============================================================== going out


def _going_out(melds: str) -> GameState:
    return pos(f"""
        phase = "meld"
        to_act = 0
        [turn]
        drew = true
        [[seats]]
        hand = "K 9"
        melded = true
        [[seats]]
        hand = "4 5"
        [[sides]]
        melds = {melds}
    """)


def test_one_canasta_is_not_enough_to_go_out():
    """three-pack: "A side needs two canastas to go out": with one canasta the player may not
    meld down to his last card and discard it."""
    st = _going_out('["K K K K K K K", "Q Q Q"]')
    assert not legal(st, "add K")
    st = st.apply("discard 9")
    assert not st.is_hand_over and sum(st.hands[0]) == 1


def test_two_canastas_let_a_side_go_out():
    """three-pack: "A side needs two canastas to go out": with two (natural or mixed) it may."""
    st = _going_out('["K K K K K K K", "Q Q Q Q Q 2 JK"]')
    st = run(st, "add K", "discard 9")
    assert st.is_hand_over and st.result.went_out == 0
    assert rows(st, 0)["going out"] == 100


def test_one_canasta_completed_while_melding_out_is_not_enough():
    """three-pack: "A side needs two canastas to go out": completing a first canasta with the
    last cards of the hand is not going out; the player must keep a card."""
    st = pos("""
        phase = "meld"
        to_act = 0
        [turn]
        drew = true
        [[seats]]
        hand = "Q Q"
        melded = true
        [[sides]]
        melds = ["Q Q Q Q Q"]
    """)
    assert not legal(st, "add Q")


def test_second_canasta_completed_while_melding_out():
    """three-pack: "A side needs two canastas to go out", and "The rules otherwise are as in
    four-hand Canasta": rule 49: "A player need not make a discard after going out; he may meld
    all of his remaining cards", and rule 43: no going out when the side "has not made a canasta
    and he cannot make one" (he may make it while going out). A side with one canasta goes out
    by melding its last two cards into a second one."""
    st = pos("""
        phase = "meld"
        to_act = 0
        [turn]
        drew = true
        [[seats]]
        hand = "Q Q"
        melded = true
        [[sides]]
        melds = ["Q Q Q Q Q", "A A A A A A A"]
    """)
    st = run(st, "add Q", "add Q")
    assert st.is_hand_over and st.result.went_out == 0
    assert rows(st, 0)["going out"] == 100


# ============================================================== game


def _last_hand(totals: str) -> GameState:
    return pos(f"""
        totals = {totals}
        phase = "meld"
        to_act = 0
        [turn]
        drew = true
        [[seats]]
        hand = "9"
        melded = true
        [[sides]]
        melds = ["K K K K K K K", "A A A A A A A"]
    """).apply("discard 9")


def test_game_is_not_over_at_5000():
    """three-pack: "Game is 10,000" (not the 5,000 of rule 57): a side that passes 5,000 plays on."""
    st = _last_hand("[4000, 0, 0]")
    assert 5000 <= st.totals[0] < 10000
    assert st.phase is Phase.HAND_OVER and not st.is_game_over


def test_game_is_10000():
    """three-pack: "Game is 10,000": the side that reaches it wins."""
    st = _last_hand("[9000, 0, 0]")
    assert st.totals[0] >= 10000
    assert st.is_game_over and st.winners == (0,)


def test_game_three_sides_scored_separately():
    """three-pack: "three partnerships of two each": each partnership has its own total, charged
    with its own two players' cards."""
    st = pos("""
        phase = "meld"
        to_act = 0
        [turn]
        drew = true
        [[seats]]
        hand = "9"
        melded = true
        [[seats]]
        hand = "4"
        [[seats]]
        hand = "K"
        [[seats]]
        hand = "5"
        [[seats]]
        hand = "A"
        [[seats]]
        hand = "JK"
        [[sides]]
        melds = ["K K K K K K K", "A A A A A A A"]
    """).apply("discard 9")
    left = [rows(st, side)["cards left in hand"] for side in range(3)]
    assert left == [-5, -(5 + 20), -(10 + 50)]
    assert len(st.totals) == 3
