"""Scenario tests: one per rule statement of Bicycle's "How to play: Canasta" (four players).

Source: ../shared/rules/sources/bicycle.txt. The page has no rule numbers; each test is named
after the page's section and statement and quotes it. Each test sets up a position with
``load_position`` and asserts what the page states. Seats 0 and 2 are side 0, seats 1 and 3
side 1.
"""

from __future__ import annotations

import pytest

import canasta
from canasta import Card, Phase, TableMeld

from helpers import legal, pos, run, takes, texts

R3 = int(Card.RED_THREE)
B3 = int(Card.BLACK_THREE)


def count(hand: tuple[int, ...], token: str) -> int:
    return hand[int(Card.parse(token))]


def first_seed(pred, limit: int = 3000) -> canasta.GameState:
    """The first bicycle deal (by seed) whose state satisfies ``pred``."""
    for seed in range(limit):
        st = canasta.new_game("bicycle", seed=seed)
        if pred(st):
            return st
    raise AssertionError("no such deal among the seeds tried")


def exhausted(text: str, stock: str = "") -> canasta.GameState:
    """Load ``text`` with the stock reduced to ``stock`` (default: exhausted).

    ``text`` holds the placeholders ``{stock}`` (the stock line's value), ``{filler}`` (in seat
    1's hand) and ``{filler_red}`` (side 1's red threes): every card the position does not place
    otherwise goes to seat 1's hand, red threes to side 1, as after a long play.
    """
    probe = pos(text.replace("{stock}", stock + " rest").replace("{filler}", "").replace("{filler_red}", "0"))
    left = list(probe.stock[: len(probe.stock) - len(stock.split())])
    red = left.count(R3)
    filler = " ".join(str(Card(k)) for k in left if k != R3)
    return pos(text.replace("{stock}", stock).replace("{filler}", filler).replace("{filler_red}", str(red)))


_MELD = """
    variant = "bicycle"
    to_act = 0
    phase = "meld"
    totals = [{total}, 0]
    [turn]
    drew = true
    [[seats]]
    hand = "{hand}"
    melded = {melded}
    [[seats]]
    hand = "6 7 10"
    [[seats]]
    hand = "8 8"
    [[seats]]
    hand = "6 7 10"
    [[sides]]
    melds = [{melds}]
    red_threes = {red}
    [[sides]]
    melds = [{opp}]
    red_threes = {opp_red}
"""


def meld_phase(hand: str, melds: str = '"K K K"', opp: str = "", total: int = 0, melded: bool = True,
               red: int = 0, opp_red: int = 0) -> canasta.GameState:
    """Seat 0 has drawn and may meld; partner (seat 2) holds 8 8, seats 1 and 3 hold 6 7 10."""
    return pos(_MELD.format(hand=hand, melds=melds, opp=opp, total=total,
                             melded="true" if melded else "false", red=red, opp_red=opp_red))


_PILE = """
    variant = "bicycle"
    totals = [{total}, 0]
    pile = "{pile}"
    [[seats]]
    hand = "{hand}"
    [[seats]]
    hand = "6 7 10"
    [[seats]]
    hand = "8 8"
    [[seats]]
    hand = "6 7 10"
    [[sides]]
    melds = [{melds}]
    [[sides]]
    melds = []
"""


def pile_position(pile: str, hand: str, melds: str = "", total: int = 0) -> canasta.GameState:
    """Seat 0 to draw or take the pile."""
    return pos(_PILE.format(pile=pile, hand=hand, melds=melds, total=total))


# ============================================================== The Deal


@pytest.mark.parametrize("card", [Card.JOKER, Card.TWO, Card.RED_THREE, Card.BLACK_THREE])
def test_deal_upcard_joker_deuce_or_three_is_covered_until_a_natural_card(card):
    """bicycle, The Deal: "If the upcard is a joker, deuce or three, one or more additional cards
    must be turned upon it until a "natural" card (a four or higher) appears"; Freezing: "The
    discard pile is frozen when a red three is turned as an upcard or if a wild card or a black
    three is turned as an upcard"."""
    st = first_seed(lambda s: s.pile[0] == int(card))
    assert len(st.pile) >= 2
    assert st.pile[-1] >= int(Card.FOUR)
    assert all(k < int(Card.FOUR) for k in st.pile[:-1])
    assert st.frozen


# ============================================================== Red Threes


def test_red_threes_dealt_are_faced_at_first_turn_and_replaced():
    """bicycle, Red Threes: "A player finding a red three in their hand must, on their first turn,
    put it face up on the table and draw a replacement from the stock"."""
    st = pos("""
        variant = "bicycle"
        to_act = 3
        phase = "meld"
        stock = "9 Q rest"
        [turn]
        drew = true
        [[seats]]
        hand = "3r 3r 4 5 6 7 8 10 J K A"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "K K 7"
    """)
    st = st.apply("discard 7")
    assert st.current_player == 0
    assert st.red_threes[0] == 2
    assert st.hands[0][R3] == 0
    assert sum(st.hands[0]) == 11
    assert count(st.hands[0], "9") == 1 and count(st.hands[0], "Q") == 1


def test_red_three_drawn_from_the_stock_is_faced_and_replaced():
    """bicycle, Red Threes: "A player who draws a red three from the stock also lays it on the table
    face up and draws a replacement"."""
    st = pos("""
        variant = "bicycle"
        stock = "3r 9 rest"
        [[seats]]
        hand = "4 5 6 7 8"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
    """)
    st = st.apply("draw")
    assert st.red_threes[0] == 1
    assert st.hands[0][R3] == 0
    assert sum(st.hands[0]) == 6
    assert count(st.hands[0], "9") == 1


def test_red_three_found_in_the_taken_pile_is_faced_without_replacement():
    """bicycle, Red Threes: "a player who takes the discard pile and finds a red three in it must
    place the three face up on the table but does not draw a replacement"."""
    st = pile_position("3r 4 7", "7 7 5 6 9", melds='"K K K"')
    stock_before = len(st.stock)
    st = st.apply("take 7 7")
    assert st.red_threes[0] == 1
    assert st.hands[0][R3] == 0
    assert len(st.stock) == stock_before
    assert sum(st.hands[0]) == 4  # 5 6 9 and the pile's 4


def test_red_threes_100_each_credited_to_a_side_that_melded():
    """bicycle, Red Threes: "Each red three has a bonus value of 100 points ... The value of the red
    threes is credited to a side that has made a meld"."""
    st = meld_phase("9", melds='"K K K K K K K"', opp='"Q Q Q"', red=2, opp_red=1).apply("discard 9")
    s0, s1 = st.result.scores
    # K 70 + 500, red threes 200, going out 100, partner's 8 8 -20
    assert s0.total == 70 + 500 + 200 + 100 - 20
    # Q Q Q 30, red three 100, 6 7 10 twice -40
    assert s1.total == 30 + 100 - 40


def test_all_four_red_threes_count_800():
    """bicycle, Red Threes: "if one side has all four red threes, they count 200 each, or 800 in
    all"."""
    st = meld_phase("9", melds='"K K K K K K K"', opp='"Q Q Q"', red=4).apply("discard 9")
    assert st.result.scores[0].total == 70 + 500 + 800 + 100 - 20


def test_red_threes_debited_against_a_side_without_a_meld():
    """bicycle, Red Threes: the value of the red threes is "debited against a side that has made no
    meld, when the hand ends"."""
    st = meld_phase("9", melds='"K K K K K K K"', opp="", opp_red=2).apply("discard 9")
    assert st.result.scores[1].total == -200 - 40


# ============================================================== The Play


def test_play_turn_is_draw_then_meld_then_discard():
    """bicycle, The Play: "Each turn comprises a draw, a meld (optional) after drawing, and a
    discard"."""
    st = pos("""
        variant = "bicycle"
        [[seats]]
        hand = "9 9 9 4 4 4 5"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "8 8"
        [[seats]]
        hand = "4 5 6"
        [[sides]]
        melds = ["K K K"]
        [[sides]]
        melds = []
    """)
    assert texts(st) == {"draw"}
    st = st.apply("draw")
    assert legal(st, "meld 9 9 9") and legal(st, "discard 5")


def test_play_taking_the_top_discard_takes_the_rest_of_the_pile():
    """bicycle, The Play: a player may "take the top card of the discard pile to use it in a meld;
    having done so, they must take the rest of the discard pile"."""
    st = pile_position("4 Q 9 A 7", "7 7 5 6", melds='"K K K"')
    st = st.apply("take 7 7")
    assert st.pile == ()
    assert TableMeld(int(Card.SEVEN), 3) in st.melds[0]
    for tok in ("4", "Q", "9", "A", "5", "6"):
        assert count(st.hands[0], tok) == 1
    assert sum(st.hands[0]) == 6


def test_play_discard_is_one_card_from_the_hand_and_ends_the_turn():
    """bicycle, The Play: "Each turn comprises a draw, a meld (optional) after drawing, and a
    discard, which ends the player's turn"; "The discard is always one card from the hand (never
    from a meld)"."""
    st = meld_phase("5 6 9")
    assert not legal(st, "discard K")
    st = st.apply("discard 9")
    assert st.current_player == 1
    assert st.phase is Phase.DRAW


# ============================================================== melds


def test_meld_needs_two_natural_cards():
    """bicycle: "A meld is valid if it contains at least two natural cards of the same rank"."""
    st = meld_phase("7 7 JK 2 5 6 9")
    assert legal(st, "meld 7 7 JK")
    assert legal(st, "meld 7 7 2")
    st = meld_phase("7 JK 2 5 6 9")
    assert not legal(st, "meld 7 JK 2")


def test_wild_cards_never_melded_apart_from_naturals():
    """bicycle: "Jokers and deuces may never be melded apart from natural cards"."""
    st = meld_phase("JK JK 2 5 6 9")
    assert not legal(st, "meld JK JK 2")
    assert not any(isinstance(a, canasta.Meld) for a in st.legal_actions())


def test_meld_holds_at_most_three_wild_cards():
    """bicycle: a meld is valid with "not more than three wild cards"."""
    st = meld_phase("2 JK 5 6 9", melds='"7 7 7 JK 2"')
    st = st.apply("add 2 to 7")
    assert not legal(st, "add JK to 7")


def test_no_more_than_three_wild_cards_even_on_a_canasta():
    """bicycle: "A player may add additional cards to a meld by their side, provided that the melds
    remain valid (having no more than three wild cards)" — no exception for a canasta."""
    st = meld_phase("2 5 6", melds='"7 7 7 7 JK JK 2"')
    assert not legal(st, "add 2 to 7")
    st = meld_phase("2 5 6", melds='"K K K K K K K"')
    assert legal(st, "add 2 to K")


def test_black_threes_melded_only_when_going_out():
    """bicycle: "A set of three or four black threes (without wild cards) may be melded only when a
    player goes out"."""
    st = meld_phase("3b 3b 3b 9 8", melds='"K K K K K K K"')
    assert not legal(st, "meld 3b 3b 3b")
    st = meld_phase("3b 3b 3b 9", melds='"K K K K K K K"')
    st = st.apply("meld 3b 3b 3b")
    assert texts(st) == {"discard 9"}
    st = st.apply("discard 9")
    assert st.result.went_out == 0


def test_four_black_threes_may_be_melded_going_out():
    """bicycle: "A set of three or four black threes (without wild cards) may be melded only when a
    player goes out"."""
    st = meld_phase("3b 3b 3b 3b", melds='"K K K K K K K"')
    st = run(st, "meld 3b 3b 3b", "add 3b")
    assert st.result.went_out == 0
    assert TableMeld(B3, 4) in st.melds[0]


def test_black_threes_melded_without_wild_cards():
    """bicycle: "A set of three or four black threes (without wild cards)"."""
    st = meld_phase("3b 3b JK", melds='"K K K K K K K"')
    assert not legal(st, "meld 3b 3b JK")
    st = meld_phase("3b 3b 3b JK", melds='"K K K K K K K"')
    st = st.apply("meld 3b 3b 3b")
    assert not legal(st, "add JK to 3b")


def test_partnership_may_not_make_two_melds_of_one_rank():
    """bicycle: "A partnership may meld in a rank already melded by the opponents, but may not make
    two different melds of the same rank"."""
    st = meld_phase("7 7 7 5 6", melds='"7 7 JK"')
    assert not legal(st, "meld 7 7 7")
    assert legal(st, "add 7")
    st = meld_phase("9 9 9 5 6", opp='"9 9 9"')
    assert legal(st, "meld 9 9 9")


def test_no_cards_added_to_the_opponents_melds():
    """bicycle: "He may not add cards to the opponents' melds"."""
    st = meld_phase("9 5 6", opp='"9 9 9"')
    assert not legal(st, "add 9")
    assert not legal(st, "add 9 to 9")


def test_many_melds_in_one_turn():
    """bicycle: "A player may meld as many cards as they please, of one rank or different ranks,
    forming new melds or adding cards to previous melds"."""
    st = meld_phase("4 4 4 5 5 5 K 9 9")
    st = run(st, "meld 4 4 4", "meld 5 5 5", "add K")
    assert texts(st) == {"discard 9"}


# ============================================================== canastas and bonuses


def test_canasta_seven_cards_with_a_base_of_four_naturals_mixed_bonus():
    """bicycle: "A meld comprising seven or more cards, including at least four natural cards
    (called a "base"), is a canasta ... 300 for a mixed canasta (one that has one to three wild
    cards)"."""
    st = meld_phase("9", melds='"K K K K K K K", "Q Q Q Q JK JK 2"').apply("discard 9")
    # K 70 + 500, Q 40 + JK JK 100 + 2 20 + 300, going out 100, partner's 8 8 -20
    assert st.result.scores[0].total == 70 + 500 + 160 + 300 + 100 - 20


def test_canasta_natural_500_and_six_cards_no_bonus():
    """bicycle: "a canasta earns a bonus of 500 for a natural or "pure" canasta (one that has no wild
    card)"; a meld of six cards is no canasta."""
    st = meld_phase("9", melds='"K K K K K K K", "Q Q Q Q Q Q"').apply("discard 9")
    assert st.result.scores[0].total == 70 + 500 + 60 + 100 - 20


def test_canasta_extra_cards_add_points_only_and_a_wild_card_makes_it_mixed():
    """bicycle: "Additional cards may be added to a canasta to score their point values, but these do
    not affect the bonus - except that a wild card added to a natural canasta reduces it to a mixed
    canasta"."""
    st = meld_phase("K JK 9", melds='"K K K K K K K"')
    st = run(st, "add K", "add JK to K", "discard 9")
    assert st.result.scores[0].total == 80 + 50 + 300 + 100 - 20


# ============================================================== Minimum Count


@pytest.mark.parametrize(
    "total, need, hand, meld, allowed",
    [
        (-5, 15, "4 4 4 9 K", "meld 4 4 4", True),
        (0, 50, "4 4 4 9 K", "meld 4 4 4", False),
        (1495, 50, "A A A 9 K", "meld A A A", True),
        (1500, 90, "A A A 9 K", "meld A A A", False),
        (2995, 90, "A A A Q Q Q 9 K", "meld A A A", True),
        (3000, 120, "A A A Q Q Q 9 K", "meld A A A", False),
    ],
)
def test_minimum_count_by_accumulated_score(total, need, hand, meld, allowed):
    """bicycle, Minimum Count: "Accumulated Score (at beginning of the deal) / Minimum Count: Minus
    15; 0 to 1,495 50; 1,500 to 2,995 90; 3,000 or more 120"."""
    st = meld_phase(hand, melds="", total=total, melded=False)
    assert st.initial_need(0) == need
    assert legal(st, meld) is allowed


def test_minimum_count_met_by_two_or_more_melds():
    """bicycle, Minimum Count: "To meet the minimum, a player may make two or more different
    melds"."""
    st = meld_phase("K K K 8 8 8 5 6", melds="", melded=False)
    st = st.apply("meld K K K")
    assert not st.opened[0]
    assert not legal(st, "discard 5")
    st = st.apply("meld 8 8 8")
    assert st.opened[0]
    assert legal(st, "discard 5")


def test_minimum_count_bonuses_do_not_count():
    """bicycle, Minimum Count: "Bonuses for red threes and canastas do not count toward the
    minimum"."""
    # a natural canasta of fives counts 35, not 535, against 50
    st = meld_phase("5 5 5 5 5 5 5 9 K", melds="", melded=False)
    assert not any(isinstance(a, (canasta.Meld, canasta.Add)) for a in st.legal_actions())
    # three faced red threes do not help 4 4 4 (15) to 50
    st = meld_phase("4 4 4 9 K", melds="", melded=False, red=3)
    assert not legal(st, "meld 4 4 4")


def test_minimum_count_canasta_allowed_when_its_cards_reach_it():
    """bicycle, Minimum Count: "The count of a meld is the total point value of the cards in it"
    (a canasta of kings counts 70, enough for 50)."""
    st = meld_phase("K K K K K K K 9 5", melds="", melded=False)
    st = run(st, "meld K K K", "add K", "add K", "add K", "add K")
    assert st.opened[0]
    assert st.melds[0] == (TableMeld(int(Card.KING), 7),)


def test_minimum_count_only_the_top_card_of_the_pile_counts():
    """bicycle, Minimum Count: "If a player takes the discard pile, the top card but no other may
    count toward the requirement"."""
    st = pile_position("9 A", "A A 5 6 7 8 J Q")
    assert "take A A" in takes(st)  # 20 + 40 = 60 >= 50
    st = pile_position("K K K A", "A A 5 6 7 8 J Q", total=1500)
    assert "take A A" not in takes(st)  # 60 < 90; the pile's kings do not count


def test_after_the_initial_meld_no_minimum():
    """bicycle, Minimum Count: "After a side has made its initial meld, either partner may make any
    valid meld without reference to any minimum count"."""
    st = meld_phase("4 4 4 5 6", total=3000)
    assert st.initial_need(0) == 0
    assert legal(st, "meld 4 4 4")


# ============================================================== Freezing the Discard Pile


def test_pile_frozen_against_a_side_before_its_initial_meld():
    """bicycle, Freezing: "The discard pile is frozen against a side before that side has made its
    initial meld"; a frozen pile is taken "only with a natural pair of the same rank"."""
    st = pile_position("4 9 7", "7 7 JK A A A 5 6")
    assert not st.frozen
    assert "take 7 JK" not in takes(st)
    assert "take 7 7" in takes(st)
    st = pile_position("4 9 7", "7 7 JK A A A 5 6", melds='"K K K"')
    assert {"take 7 7", "take 7 JK"} <= takes(st)


def test_pile_frozen_by_a_red_three_upcard():
    """bicycle, Freezing: "The discard pile is frozen when a red three is turned as an upcard"."""
    st = pile_position("3r 9 7", "7 7 JK 5 6", melds='"7 7 7"')
    assert st.frozen
    assert takes(st) == {"take 7 7"}


def test_pile_frozen_by_a_wild_card():
    """bicycle, Freezing: the pile is frozen "if a wild card ... is turned as an upcard or
    discarded"."""
    st = pile_position("4 2 9 7", "7 7 JK 5 6", melds='"7 7 7"')
    assert st.frozen
    assert takes(st) == {"take 7 7"}


def test_pile_frozen_by_a_discarded_black_three():
    """bicycle, Freezing: "The discard pile is frozen when ... a black three is turned as an upcard
    or discarded"; Unfreezing: "at least one natural card must be discarded on top of the pile
    before the pile may be taken. Then, a player may take that card (and the pile) only with a
    natural pair"."""
    st = pos("""
        variant = "bicycle"
        to_act = 3
        phase = "meld"
        pile = "4 9"
        stock = "5 8 rest"
        [turn]
        drew = true
        [[seats]]
        hand = "6 10 J"
        [[seats]]
        hand = "7 Q A"
        [[seats]]
        hand = "7 JK 7 5 6"
        [[seats]]
        hand = "3b K K"
        [[sides]]
        melds = ["K K K"]
        [[sides]]
        melds = ["Q Q Q"]
    """)
    assert not st.frozen
    st = st.apply("discard 3b")
    assert st.frozen
    st = run(st, "draw", "discard 6")   # seat 0
    st = run(st, "draw", "discard 7")   # seat 1
    assert st.current_player == 2
    assert st.frozen
    assert takes(st) == {"take 7 7"}


def test_initial_meld_unfreezes_the_pile_for_both_partners():
    """bicycle, Freezing: "The discard pile is frozen against a side before that side has made its
    initial meld. The initial meld unfreezes it for both partners"."""
    st = pos("""
        variant = "bicycle"
        to_act = 0
        phase = "meld"
        pile = "4 9"
        stock = "8 J rest"
        [turn]
        drew = true
        [[seats]]
        hand = "A A A 5 6"
        [[seats]]
        hand = "6 JK 7 Q Q"
        [[seats]]
        hand = "7 JK 5 6"
        [[seats]]
        hand = "10 7 K"
    """)
    st = run(st, "meld A A A", "discard 6")
    assert st.opened[0] and not st.opened[1]
    assert "take 6 JK" not in takes(st)  # still frozen against seat 1's side
    st = run(st, "draw", "discard 7")  # seat 1
    assert st.current_player == 2
    assert "take 7 JK" in takes(st)  # unfrozen for seat 0's partner


def test_frozen_pile_unfrozen_only_by_being_taken():
    """bicycle, Unfreezing: "A frozen discard pile is unfrozen only by being taken"."""
    st = pile_position("JK 9 7", "7 7 5 6", melds='"K K K"')
    assert st.frozen
    st = run(st, "take 7 7", "discard 5")
    assert not st.frozen
    assert st.pile == (int(Card.FIVE),)


# ============================================================== Taking the Discard Pile


def test_taking_with_a_pair_a_natural_and_wild_or_onto_a_meld():
    """bicycle, Taking the Discard Pile: "When the discard pile is not frozen against their side, a
    player may take it: a) with a natural pair matching the top card ...; or b) by melding the top
    card with one matching natural card and one wild card from his hand; or c) by adding the top
    card to a meld they already have on the table"."""
    st = pile_position("4 9 7", "7 JK 2 5 6", melds='"7 7 7", "K K K"')
    assert takes(st) == {"take 7 JK", "take 7 2", "take onto 7"}
    st = pile_position("4 9 8", "8 8 JK 5 6", melds='"K K K"')
    assert takes(st) == {"take 8 8", "take 8 JK"}


def test_taking_then_the_rest_of_the_pile_into_the_hand():
    """bicycle, Taking the Discard Pile: "Having taken and melded the top discard as described, the
    player takes the rest of the pile into their hand"."""
    st = pile_position("4 9 7", "5 6 8", melds='"7 7 7", "K K K"')
    st = st.apply("take onto 7")
    assert st.melds[0][0] == TableMeld(int(Card.SEVEN), 4)
    assert sum(st.hands[0]) == 5
    assert count(st.hands[0], "4") == 1 and count(st.hands[0], "9") == 1


def test_pile_blocked_by_wild_card_top():
    """bicycle: "The discard pile may never be taken when its top card is a wild card, a black
    three, or a red three"."""
    st = pile_position("4 9 JK", "JK JK 9 9 5", melds='"K K K K K K K"')
    assert takes(st) == set()
    st = pile_position("4 9 2", "2 2 9 9 5", melds='"K K K K K K K"')
    assert takes(st) == set()


def test_pile_blocked_by_black_three_top():
    """bicycle: "The discard pile may never be taken when its top card is a wild card, a black
    three, or a red three"."""
    st = pile_position("4 9 3b", "3b 3b 9 5", melds='"K K K K K K K"')
    assert takes(st) == set()


def test_pile_blocked_by_red_three_top():
    """bicycle: "The discard pile may never be taken when its top card is a wild card, a black
    three, or a red three"."""
    st = pile_position("4 9 3r", "9 9 5", melds='"K K K K K K K"')
    assert takes(st) == set()


# ============================================================== Going Out


def test_going_out_by_discarding_the_last_card():
    """bicycle, Going Out: "A player goes out when they get rid of the last card in their hand by
    discarding or melding it, provided that their side has melded at least one canasta ... When a
    player goes out, the hand ends"."""
    st = meld_phase("9", melds='"K K K K K K K"').apply("discard 9")
    assert st.is_hand_over
    assert st.result.went_out == 0


def test_going_out_needs_a_canasta_otherwise_keep_a_card():
    """bicycle, Going Out: "provided that their side has melded at least one canasta ... Failing
    this requirement, a player must keep at least one card in their hand"."""
    st = meld_phase("9 9 9 5", melds='"K K K K K K"')
    assert not legal(st, "meld 9 9 9")
    assert legal(st, "discard 5")
    # holding one card, he could neither discard it nor keep it: play never leads there, and
    # a position that does is refused with the rule
    with pytest.raises(canasta.PositionError, match="to_act: .*your side needs a canasta to go out"):
        meld_phase("9", melds='"K K K K K K"')


def test_going_out_completing_a_canasta_while_going_out():
    """bicycle, Going Out: "provided that their side has melded at least one canasta or they
    complete a canasta while going out"."""
    st = meld_phase("K 9 9 9 5", melds='"K K K K K K"')
    st = run(st, "add K", "meld 9 9 9", "discard 5")
    assert st.result.went_out == 0


def test_going_out_by_melding_every_card():
    """bicycle, Going Out: "A player need not make a discard in going out; they may meld all of
    their remaining cards"."""
    st = meld_phase("9 9 9", melds='"K K K K K K K"').apply("meld 9 9 9")
    assert st.is_hand_over
    assert st.result.went_out == 0


def test_one_card_hand_may_not_take_a_one_card_pile():
    """bicycle, Going Out: "A player with only one card left in their hand may not take the discard
    pile if there is only one card in it"."""
    st = pile_position("7", "9", melds='"7 7 7", "K K K K K K K"')
    assert not legal(st, "take onto 7")
    st = pile_position("4 7", "9", melds='"7 7 7", "K K K K K K K"')
    assert legal(st, "take onto 7")


# ============================================================== Permission to Go Out


_ASK = """
    variant = "bicycle"
    to_act = 0
    phase = "{phase}"
    stock = "5 rest"
    pile = "{pile}"
    [turn]
    drew = {drew}
    [[seats]]
    hand = "{hand}"
    melded = true
    [[seats]]
    hand = "6 7 10"
    [[seats]]
    hand = "8 8"
    [[seats]]
    hand = "6 7 10"
    [[sides]]
    melds = ["K K K K K K K"]
    [[sides]]
    melds = []
"""


def ask_position(hand: str, phase: str = "draw", drew: bool = False, pile: str = "4 6") -> canasta.GameState:
    return pos(_ASK.format(hand=hand, phase=phase, drew="true" if drew else "false", pile=pile))


def test_permission_asked_before_drawing_yes_is_binding():
    """bicycle, Permission to Go Out: "If a player sees that they are able to go out, before or after
    drawing, the player may say "Partner, may I go out?" The partner must answer "Yes" or "No," and
    the answer is binding"."""
    st = ask_position("9 9 9")
    st = st.apply("ask")
    assert st.phase is Phase.ANSWER
    assert st.current_player == 2
    assert texts(st) == {"yes", "no"}
    st = run(st, "yes", "draw")
    assert st.current_player == 0
    assert not legal(st, "discard 9")
    st = run(st, "meld 9 9 9", "discard 5")
    assert st.result.went_out == 0


def test_permission_no_is_binding():
    """bicycle, Permission to Go Out: "The partner must answer "Yes" or "No," and the answer is
    binding"."""
    st = run(ask_position("9 9 9"), "ask", "no", "draw")
    assert not legal(st, "meld 9 9 9")
    assert legal(st, "discard 5")


def test_permission_asked_after_drawing_but_not_after_melding():
    """bicycle, Permission to Go Out: "before or after drawing"; "A player may not ask "Partner, may
    I go out?" after having melded any card"."""
    st = ask_position("4 4 4 9 9 9 5", phase="meld", drew=True)
    assert legal(st, "ask")
    st = st.apply("meld 4 4 4")
    assert not legal(st, "ask")


def test_permission_not_after_taking_the_pile():
    """bicycle, Permission to Go Out: "A player may not ask ... after ... having indicated the
    intention to take the discard pile"."""
    st = ask_position("9 9 8 8 8", pile="4 9")
    st = st.apply("take 9 9")
    assert not legal(st, "ask")


def test_permission_not_needed_to_go_out():
    """bicycle, Permission to Go Out: "However, they may go out without asking permission"."""
    st = run(ask_position("9 9 9"), "draw", "meld 9 9 9", "discard 5")
    assert st.result.went_out == 0


# ============================================================== Concealed Hand


def test_concealed_hand_from_the_stock_needs_no_minimum():
    """bicycle, Concealed Hand: "A player goes out "concealed" when they meld their entire hand in
    one turn, including at least one canasta, without having made an earlier meld ... If a
    partner has not made an initial meld, the player must meet the minimum count ... if they has
    taken the discard pile, but need not do so if they has drawn from the stock"; How to Keep
    Score: "For going out concealed (extra) 100"."""
    st = meld_phase("4 4 4 4 4 4 4 5 5 5 6", melds="", total=3000, melded=False)
    assert st.initial_need(0) == 120  # the hand counts 50
    st = run(st, "meld 4 4 4", "add 4", "add 4", "add 4", "add 4", "meld 5 5 5", "discard 6")
    assert st.result.concealed
    assert st.result.scores[0].total == 50 + 500 + 100 + 100 - 20


def test_concealed_hand_after_taking_the_pile_must_meet_the_minimum():
    """bicycle, Concealed Hand: "the player must meet the minimum count (without the canasta bonus)
    if they has taken the discard pile"."""
    st = pos("""
        variant = "bicycle"
        totals = [3000, 0]
        pile = "9 4"
        [[seats]]
        hand = "4 4 4 4 4 4 9 9 5"
        [[seats]]
        hand = "5 6 7"
        [[seats]]
        hand = "8 8"
        [[seats]]
        hand = "5 6 7"
    """)
    # 7 fours 35 + 9 9 9 30 = 65 < 120: the pile may not be taken even to go out concealed
    assert not legal(st, "take 4 4")


def test_concealed_hand_may_not_have_added_to_partners_melds():
    """bicycle, Concealed Hand: "without previously having added any card to melds that their
    partner has made"."""
    st = meld_phase("7 4 4 4 4 4 4 4 6", melds='"7 7 7", "K K K K K K K"', melded=False)
    st = run(st, "add 7", "meld 4 4 4", "add 4", "add 4", "add 4", "add 4", "discard 6")
    assert st.result.went_out == 0
    assert not st.result.concealed


def test_concealed_hand_must_include_a_canasta_of_its_own():
    """bicycle, Concealed Hand: "they meld their entire hand in one turn, including at least one
    canasta"."""
    st = meld_phase("9 9 9 6", melds='"K K K K K K K"', melded=False)
    st = run(st, "meld 9 9 9", "discard 6")
    assert st.result.went_out == 0
    assert not st.result.concealed
    assert st.result.scores[0].total == 70 + 500 + 30 + 100 - 20


def test_concealed_hand_when_only_the_partner_had_melded():
    """bicycle, Concealed Hand: "without having made an earlier meld" (the player's own)."""
    st = meld_phase("4 4 4 4 4 4 4 6", melds='"7 7 7", "K K K K K K K"', melded=False)
    st = run(st, "meld 4 4 4", "add 4", "add 4", "add 4", "add 4", "discard 6")
    assert st.result.concealed
    # 7s 15, K 70 + 500, 4s 35 + 500, going out 100, concealed (extra) 100, partner's 8 8 -20
    assert st.result.scores[0].total == 15 + 70 + 500 + 35 + 500 + 100 + 100 - 20


# ============================================================== Exhausting the Stock


def test_last_card_a_red_three_play_ends_at_once():
    """bicycle, Exhausting the Stock: "If a player draws the last card of the stock and it is a red
    three, they must reveal it. The player may not then meld or discard, and play ends"."""
    st = exhausted("""
        variant = "bicycle"
        stock = "{stock}"
        pile = "4 6"
        [[seats]]
        hand = "9 9 9 5"
        melded = true
        [[seats]]
        hand = "{filler}"
        [[seats]]
        hand = "8 8"
        [[seats]]
        hand = "6 7 10"
        [[sides]]
        melds = ["K K K K K K K"]
        [[sides]]
        melds = []
        red_threes = {filler_red}
    """, stock="3r")
    st = st.apply("draw")
    assert st.is_hand_over
    assert st.result.went_out is None
    assert st.red_threes[0] == 1
    # K 70 + 500, red three 100, seat 0's 9 9 9 5 (35) and partner's 8 8 (20) in hand
    assert st.result.scores[0].total == 70 + 500 + 100 - 35 - 20


_EXHAUSTED = """
    variant = "bicycle"
    pile = "{pile}"
    stock = "{{stock}}"
    [[seats]]
    hand = "{hand}"
    [[seats]]
    hand = "{{filler}}"
    [[seats]]
    hand = "8 8"
    [[seats]]
    hand = "6 7 10"
    [[sides]]
    melds = [{melds}]
    [[sides]]
    melds = ["Q Q Q"]
    red_threes = {{filler_red}}
"""


def test_exhausted_stock_must_take_a_discard_matching_a_meld():
    """bicycle, Exhausting the Stock: "play continues as long as each player in turn takes the
    discard, and they must do so if it matches a meld on their side and the pack is not
    frozen"."""
    st = exhausted(_EXHAUSTED.format(pile="4 7", hand="5 6 9", melds='"7 7 7", "K K K K K K K"'))
    assert st.stock == ()
    acts = texts(st)
    assert "take onto 7" in acts
    assert "pass" not in acts


def test_exhausted_stock_no_obligation_when_the_pack_is_frozen():
    """bicycle, Exhausting the Stock: they must take the discard "if it matches a meld on their side
    and the pack is not frozen" — with a frozen pack the take is allowed, not compulsory."""
    st = exhausted(_EXHAUSTED.format(pile="4 2 9 7", hand="7 7 5", melds='"7 7 7", "K K K K K K K"'))
    assert st.frozen
    assert {"take 7 7", "pass"} <= texts(st)


def test_exhausted_stock_no_obligation_to_take_for_a_new_meld():
    """bicycle, Exhausting the Stock: "A player does not have to take the discard to form a new meld.
    The play ends when a player cannot take the discard or legally refuses to take it"."""
    st = exhausted(_EXHAUSTED.format(pile="4 8", hand="8 8 5", melds='"K K K K K K K"'))
    assert {"take 8 8", "pass"} <= texts(st)
    st = st.apply("pass")
    assert st.is_hand_over
    assert st.result.went_out is None
    s0 = st.result.scores[0]
    # no going-out bonus: K 70 + 500, seat 0's 8 8 5 (25), partner's 8 8 (20)
    assert s0.total == 70 + 500 - 25 - 20


def test_exhausted_stock_one_card_hand_may_not_take_a_one_card_pile():
    """bicycle, Exhausting the Stock: "(The only exception is that a one-card hand may not take a
    one-card discard pile)"."""
    st = exhausted(_EXHAUSTED.format(pile="7", hand="9", melds='"7 7 7", "K K K K K K K"'), stock="5")
    assert not legal(st, "take onto 7")
    assert "may not take a pile of only one card" in st.why_illegal("take onto 7")
    # with the stock exhausted that leaves him nothing to do: the hand has ended (a position
    # left there is refused)
    with pytest.raises(canasta.PositionError, match="to_act: .*the hand ends here"):
        exhausted(_EXHAUSTED.format(pile="7", hand="9", melds='"7 7 7", "K K K K K K K"'))


def test_exhausted_stock_play_ends_when_a_player_cannot_take():
    """bicycle, Exhausting the Stock: "The play ends when a player cannot take the discard"."""
    st = exhausted("""
        variant = "bicycle"
        to_act = 3
        phase = "meld"
        pile = "4"
        stock = "{stock}"
        [turn]
        drew = true
        [[seats]]
        hand = "9 10 J"
        [[seats]]
        hand = "{filler}"
        [[seats]]
        hand = "8 8"
        [[seats]]
        hand = "5 6 10"
        [[sides]]
        melds = ["K K K"]
        [[sides]]
        melds = ["Q Q Q"]
        red_threes = {filler_red}
    """)
    st = st.apply("discard 5")
    assert st.is_hand_over
    assert st.result.went_out is None


# ============================================================== How to Keep Score


def test_scoring_schedule_and_cards_left_in_both_hands():
    """bicycle, How to Keep Score: "For each natural canasta 500; For each mixed canasta 300; For
    each red three 100 (All four red threes count 800); For going out 100 ... A partnership's score
    for the hand is the values of all cards that were melded, minus the values of the cards left in
    both hands"."""
    st = pos("""
        variant = "bicycle"
        to_act = 0
        phase = "meld"
        [turn]
        drew = true
        [[seats]]
        hand = "4"
        melded = true
        [[seats]]
        hand = "A 4"
        [[seats]]
        hand = "9 JK"
        [[seats]]
        hand = "K 3b"
        [[sides]]
        melds = ["K K K K K K K", "8 8 8 8 8 JK 2", "A A A"]
        red_threes = 2
        [[sides]]
        melds = ["5 5 5 2", "Q Q Q Q Q Q Q"]
        red_threes = 1
    """)
    st = st.apply("discard 4")
    s0, s1 = st.result.scores
    assert s0.total == (70 + 120 + 60) + 500 + 300 + 200 + 100 - 60
    assert s1.total == (35 + 70) + 500 + 100 - (25 + 15)
    assert st.totals == (s0.total, s1.total)


def test_score_may_be_minus():
    """bicycle, How to Keep Score: "the final score of a side for a deal is the net of its base and
    point scores. (It may be minus.)"."""
    st = meld_phase("9", melds='"K K K K K K K"', opp="").apply("discard 9")
    assert st.result.scores[1].total == -40
    assert st.totals[1] == -40


def _final(totals: str) -> canasta.GameState:
    st = pos(f"""
        variant = "bicycle"
        to_act = 0
        phase = "meld"
        totals = {totals}
        [turn]
        drew = true
        [[seats]]
        hand = "9"
        melded = true
        [[seats]]
        hand = "4"
        [[seats]]
        hand = "4"
        [[seats]]
        hand = "4"
        [[sides]]
        melds = ["K K K K K K K"]
        [[sides]]
        melds = ["Q Q Q Q Q Q Q", "A A A A A A A"]
    """)
    return st.apply("discard 9")


def test_game_won_by_the_side_that_reaches_5000():
    """bicycle, How to Keep Score: "The side that first reaches a total of 5,000 wins a game"."""
    st = _final("[4335, 0]")  # side 0 scores 665, side 1 scores 1200
    assert st.totals == (5000, 1200)
    assert st.is_game_over
    assert st.winners == (0,)
    st = _final("[4334, 0]")
    assert st.is_hand_over and not st.is_game_over


def test_game_both_sides_pass_5000_the_higher_total_wins():
    """bicycle, How to Keep Score: "The final deal is played out even though it is obvious that one
    or both sides have surely reached 5,000 ... the margin of victory is the difference of the final
    totals" (the higher total wins)."""
    st = _final("[4900, 4400]")
    assert st.totals == (5565, 5600)
    assert st.winners == (1,)
    st = _final("[4900, 4000]")
    assert st.winners == (0,)
