"""Scenario tests: one per rule statement of the hoyle-1950 laws (four-player partnership game).

Source: ../shared/rules/sources/hoyle-1950-laws-and-three-pack.txt. Rule numbers in test names
are the numbers printed in the OCR'd rule sheet, the same numbers the comments of
``variants/hoyle-1950.toml`` use (the sheet also numbers its section headings). Where the laws'
own numbering differs (the laws cross-reference themselves, e.g. "The rules for scoring are
numbers 13, 25, 42, 43 and 50") the docstring gives it as "law N".

Each test sets up a position with ``load_position`` and asserts what the laws state. Seats 0 and
2 are side 0, seats 1 and 3 side 1.
"""

from __future__ import annotations

import pytest

import canasta
from canasta import Card, Phase, TableMeld

from helpers import legal, pos, run, takes, texts

R3 = int(Card.RED_THREE)


def count(hand: tuple[int, ...], token: str) -> int:
    return hand[int(Card.parse(token))]


def first_seed(variant: str, pred, limit: int = 3000) -> canasta.GameState:
    """The first deal (by seed) whose state satisfies ``pred``."""
    for seed in range(limit):
        st = canasta.new_game(variant, seed=seed)
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


# ============================================================== upcard and red threes


def test_rule_13_red_three_upcard_is_covered_and_freezes():
    """hoyle-1950 rule 13 (law 10): "If the upcard is a red trey or a wild card it must immediately
    be covered by another card from the top of the stock, and the discard pile is then FROZEN"."""
    st = first_seed("hoyle-1950", lambda s: s.pile[0] == R3)
    assert len(st.pile) >= 2
    assert st.pile[-1] >= int(Card.FOUR) or st.pile[-1] == int(Card.BLACK_THREE)
    assert st.frozen


@pytest.mark.parametrize("wild", [Card.JOKER, Card.TWO])
def test_rule_13_wild_upcard_is_covered_and_freezes(wild):
    """hoyle-1950 rule 13 (law 10): "If the upcard is a red trey or a wild card it must immediately
    be covered by another card from the top of the stock, and the discard pile is then FROZEN"."""
    st = first_seed("hoyle-1950", lambda s: s.pile[0] == int(wild))
    assert len(st.pile) >= 2
    assert st.pile[-1] not in (int(Card.JOKER), int(Card.TWO), R3)
    assert st.frozen


def test_rule_13_black_three_upcard_is_not_covered_and_blocks():
    """hoyle-1950 rule 13 (law 10) covers only "a red trey or a wild card"; a black three upcard
    stays, and rule 42 (law 34): "The discard pile may not be taken when it is topped by a wild card
    or a black trey"."""
    st = first_seed("hoyle-1950", lambda s: s.pile[0] == int(Card.BLACK_THREE))
    assert st.pile == (int(Card.BLACK_THREE),)
    assert not st.frozen
    assert not takes(st)


def test_rule_14_dealt_red_threes_faced_at_first_turn_and_replaced():
    """hoyle-1950 rule 14 (law 11): "At his first turn to play, each player must withdraw from his
    hand each red trey dealt to him, put it face up on the table, then draw a card from the top of
    the stock to restore his hand to eleven cards"."""
    st = pos("""
        variant = "hoyle-1950"
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
    hand = st.hands[0]
    assert hand[R3] == 0
    assert sum(hand) == 11
    assert count(hand, "9") == 1 and count(hand, "Q") == 1


def test_rule_14_dealt_red_three_of_a_new_game_faced_at_that_players_first_turn():
    """hoyle-1950 rule 14 (law 11): each player faces his dealt red treys "at his first turn to
    play" and draws replacements "to restore his hand to eleven cards"."""
    st = first_seed("hoyle-1950", lambda s: s.hands[1][R3] >= 1 and s.pile[-1] != int(Card.BLACK_THREE))
    dealt = st.hands[1][R3]
    before = st.red_threes[1]
    st = st.apply("draw")
    discard = next(a for a in st.legal_actions() if isinstance(a, canasta.Discard))
    st = st.apply(discard)
    assert st.current_player == 1
    assert st.hands[1][R3] == 0
    assert st.red_threes[1] == before + dealt
    assert sum(st.hands[1]) == 11


def test_rule_15_red_three_drawn_is_faced_and_replaced():
    """hoyle-1950 rule 15 (law 12): "On drawing a red trey from the stock, a player must immediately
    face the trey on the table and draw a replacement from the stock to keep in his hand"."""
    st = pos("""
        variant = "hoyle-1950"
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


def test_rule_15_red_three_taken_in_the_pile_is_faced_not_replaced():
    """hoyle-1950 rule 15 (law 12): "A red trey taken in the discard pile is similarly faced, but is
    not replaced from the stock"."""
    st = pos("""
        variant = "hoyle-1950"
        pile = "3r 4 7"
        [[seats]]
        hand = "7 7 5 6 9"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[sides]]
        melds = ["K K K"]
        [[sides]]
        melds = []
    """)
    stock_before = len(st.stock)
    st = st.apply("take 7 7")
    assert st.red_threes[0] == 1
    assert st.hands[0][R3] == 0
    assert len(st.stock) == stock_before
    # 5 6 9 stay, the 4 of the pile comes in, the red trey does not and is not replaced
    assert sum(st.hands[0]) == 4
    assert count(st.hands[0], "4") == 1


# ============================================================== red three values


def _out_position(side0_red: int, side1_red: int, side1_melds: str) -> str:
    return f"""
        variant = "hoyle-1950"
        to_act = 0
        phase = "meld"
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
        red_threes = {side0_red}
        [[sides]]
        melds = [{side1_melds}]
        red_threes = {side1_red}
    """


def test_rule_16_red_threes_count_100_each_for_a_side_that_melded():
    """hoyle-1950 rule 16 (law 13): "Each red trey has the point value of 100 ... a side that has
    made any meld scores all its red treys as plus bonuses"."""
    st = pos(_out_position(2, 1, '"Q Q Q"')).apply("discard 9")
    s0, s1 = st.result.scores
    # K canasta 70 + 500, two red treys 200, going out 100, partner's 4 -5
    assert s0.total == 70 + 500 + 200 + 100 - 5
    # Q Q Q 30, one red trey 100, two 4s left -10
    assert s1.total == 30 + 100 - 10


def test_rule_16_all_four_red_threes_count_800():
    """hoyle-1950 rule 16 (law 13): "if all four treys are owned by one side each counts 200, or
    800 points in all"."""
    st = pos(_out_position(4, 0, '"Q Q Q"')).apply("discard 9")
    s0, s1 = st.result.scores
    assert s0.total == 70 + 500 + 800 + 100 - 5
    assert s1.total == 30 - 10


def test_rule_16_red_threes_count_minus_for_a_side_without_a_meld():
    """hoyle-1950 rule 16 (law 13): "a side that has made no meld has the value of its treys
    deducted from its score"; rule 54 (law 43): "if this side has made no meld, the value of its
    red treys is deducted instead of added"."""
    st = pos(_out_position(1, 3, "")).apply("discard 9")
    s1 = st.result.scores[1]
    assert s1.total == -300 - 10


# ============================================================== turn, draw, discard


def test_rule_18_turn_begins_with_a_draw():
    """hoyle-1950 rule 18 (law 14): "Each turn comprises: a draw, a meld (optional), and a discard"
    (no meld or discard before the draw)."""
    st = pos("""
        variant = "hoyle-1950"
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
    assert st.phase is Phase.DRAW
    assert texts(st) == {"draw"}
    st = st.apply("draw")
    assert legal(st, "meld 9 9 9") and legal(st, "discard 5")


def test_rule_19_taking_the_discard_takes_the_entire_pile():
    """hoyle-1950 rule 19 (law 15): "he may instead take the top card of the discard pile, if he can
    use it in a meld. Having so taken the last discard, he must take the entire pile and add it to
    his hand or his melds"."""
    st = pos("""
        variant = "hoyle-1950"
        pile = "4 Q 9 A 7"
        [[seats]]
        hand = "7 7 5 6"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[sides]]
        melds = ["K K K"]
        [[sides]]
        melds = []
    """)
    st = st.apply("take 7 7")
    assert st.pile == ()
    assert st.melds[0][-1] == TableMeld(int(Card.SEVEN), 3)
    hand = st.hands[0]
    assert sum(hand) == 2 + 4
    for tok in ("4", "Q", "9", "A", "5", "6"):
        assert count(hand, tok) == 1


def test_rule_19_pile_cannot_be_taken_without_using_the_top_card():
    """hoyle-1950 rule 19 (law 15): he may take the top discard only "if he can use it in a meld"."""
    st = pos("""
        variant = "hoyle-1950"
        pile = "4 7"
        [[seats]]
        hand = "7 5 6 9"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[sides]]
        melds = ["K K K"]
        [[sides]]
        melds = []
    """)
    assert takes(st) == set()
    assert texts(st) >= {"draw"}


def test_rule_20_discard_ends_the_turn():
    """hoyle-1950 rule 20 (law 16): "A discard must always be made from the hand ... The act of
    discarding ends a player's turn"; rule 18 (law 14): "the turn passes to the left"."""
    st = pos("""
        variant = "hoyle-1950"
        to_act = 0
        phase = "meld"
        [turn]
        drew = true
        [[seats]]
        hand = "5 6 9"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[sides]]
        melds = ["K K K"]
        [[sides]]
        melds = []
    """)
    assert not legal(st, "discard K")  # never from a meld
    st = st.apply("discard 9")
    assert st.current_player == 1
    assert st.phase is Phase.DRAW
    assert st.pile[-1] == int(Card.NINE)


# ============================================================== melds


_OPENED_MELD = """
    variant = "hoyle-1950"
    to_act = 0
    phase = "meld"
    [turn]
    drew = true
    [[seats]]
    hand = "{hand}"
    [[seats]]
    hand = "4 5 6"
    [[seats]]
    hand = "4 5 6"
    [[seats]]
    hand = "4 5 6"
    [[sides]]
    melds = [{melds}]
    [[sides]]
    melds = [{opp}]
"""


def opened(hand: str, melds: str = '"K K K"', opp: str = "") -> canasta.GameState:
    return pos(_OPENED_MELD.format(hand=hand, melds=melds, opp=opp))


def test_rule_23_meld_needs_two_natural_cards():
    """hoyle-1950 rule 23 (law 18): "A meld is valid if it contains at least two NATURAL (not wild)
    cards of the same rank"."""
    st = opened("7 7 JK 2 5 6 9")
    assert legal(st, "meld 7 7 JK")
    assert legal(st, "meld 7 7 2")
    st = opened("7 JK 2 5 6 9")
    assert not legal(st, "meld 7 JK 2")


def test_rule_23_jokers_and_deuces_never_melded_without_naturals():
    """hoyle-1950 rule 23 (law 18): "Jokers and deuces may never be melded separately from natural
    cards"."""
    st = opened("JK JK 2 5 6 9")
    assert not legal(st, "meld JK JK 2")
    assert not any(isinstance(a, canasta.Meld) for a in st.legal_actions())


def test_rule_23_meld_holds_at_most_three_wild_cards():
    """hoyle-1950 rule 23 (law 18): a meld holds "not more than three wild cards"; rule 25 (law 20):
    "no other meld may contain more than three wild cards"."""
    st = opened("2 JK 5 6 9", melds='"7 7 7 JK 2"')
    assert legal(st, "add 2 to 7")
    st = run(st, "add 2 to 7")
    assert not legal(st, "add JK to 7")


def test_rule_23_black_threes_melded_only_when_going_out():
    """hoyle-1950 rule 23 (law 18): "black treys may not be melded unless the player GOES OUT in the
    same turn"."""
    st = opened("3b 3b 3b 9 8", melds='"K K K K K K K"')
    assert not legal(st, "meld 3b 3b 3b")
    st = opened("3b 3b 3b 9", melds='"K K K K K K K"')
    assert legal(st, "meld 3b 3b 3b")
    st = st.apply("meld 3b 3b 3b")
    assert texts(st) == {"discard 9"}
    st = st.apply("discard 9")
    assert st.result.went_out == 0


def test_rule_23_four_black_threes_may_be_melded_going_out():
    """hoyle-1950 rule 23 (law 18) with rule 22 (law 17): a meld is "three or more cards", so three
    or four black treys (the two packs hold four) may be melded by a player going out."""
    st = opened("3b 3b 3b 3b", melds='"K K K K K K K"')
    st = run(st, "meld 3b 3b 3b", "add 3b")
    assert st.result.went_out == 0
    assert st.melds[0][-1] == TableMeld(int(Card.BLACK_THREE), 4)


def test_rule_23_black_threes_take_no_wild_cards():
    """hoyle-1950 rule 23 (law 18): a meld is "at least two NATURAL ... cards of the same rank"
    and black treys "may not be melded unless the player GOES OUT"; VARIANTS.md: "3 or 4 of them,
    no wilds"."""
    st = opened("3b 3b JK", melds='"K K K K K K K"')
    assert not legal(st, "meld 3b 3b JK")


def test_rule_25_add_cards_to_own_sides_meld():
    """hoyle-1950 rule 25 (law 20): "A player may add one or more cards of the same rank or wild
    cards to a meld previously faced by himself or his partner"."""
    st = opened("K JK 5 6")
    assert legal(st, "add K")
    assert legal(st, "add JK to K")


def test_rule_25_wild_cards_in_any_number_on_a_completed_canasta():
    """hoyle-1950 rule 25 (law 20): "Wild cards in any number may be added to a completed canasta,
    but no other meld may contain more than three wild cards"."""
    st = opened("2 JK 5 6", melds='"7 7 7 7 JK JK 2"')
    assert legal(st, "add 2 to 7")
    st = st.apply("add 2 to 7")
    assert legal(st, "add JK to 7")
    st = opened("2 JK 5 6", melds='"7 7 7 JK JK 2"')
    assert not legal(st, "add 2 to 7")


def test_rule_26_no_card_added_to_the_other_sides_meld():
    """hoyle-1950 rule 26 (law 21): "A player may not add a card to a meld of the other side"."""
    st = opened("9 5 6", opp='"9 9 9"')
    assert not legal(st, "add 9")
    assert not legal(st, "add 9 to 9")


def test_rule_26_many_melds_in_one_turn():
    """hoyle-1950 rule 26 (law 21): "A player may make as many melds as he wishes in his turn,
    including the addition of cards to melds previously made by his side"."""
    st = opened("4 4 4 5 5 5 K 9 9")
    st = run(st, "meld 4 4 4", "meld 5 5 5", "add K")
    assert texts(st) == {"discard 9"}


# ============================================================== canastas


def test_rule_28_canasta_built_up_from_a_smaller_meld():
    """hoyle-1950 rule 28 (law 22): "A meld comprising seven or more cards is a CANASTA. A canasta
    may be built up by an initial meld of three or more cards and addition of other cards later";
    without one a side cannot go out."""
    st = opened("K K K 9 9 9 5", melds='"K K K K"')
    st = run(st, "add K", "add K", "add K")
    assert st.melds[0][0] == TableMeld(int(Card.KING), 7)
    st = run(st, "meld 9 9 9", "discard 5")
    assert st.result.went_out == 0
    # K 70 + natural canasta 500, 9s 30, going out 100, partner's 4 5 6 -15
    assert st.result.scores[0].total == 70 + 500 + 30 + 100 - 15


def test_rule_29_natural_and_mixed_canasta_bonuses():
    """hoyle-1950 rule 29 (law 23): "Seven natural cards form a NATURAL CANASTA valued at 500. A
    canasta formed with help of one to three wild cards is MIXED and is valued at 300"."""
    st = opened("9", melds='"K K K K K K K", "Q Q Q Q Q JK 2"').apply("discard 9")
    s0 = st.result.scores[0]
    # K 70 + 500, Q 50 + JK 50 + 2 20 + 300, going out 100, partner's 4 5 6 -15
    assert s0.total == 70 + 500 + 120 + 300 + 100 - 15


def test_rule_29_additional_cards_do_not_increase_the_bonus():
    """hoyle-1950 rule 29 (law 23): "Additional cards added to a canasta do not increase the bonus,
    but merely add the point values of the cards"."""
    st = opened("9", melds='"8 8 8 8 8 8 8 8"').apply("discard 9")
    # eight 8s 80, one natural canasta 500, going out 100, partner's 4 5 6 -15
    assert st.result.scores[0].total == 80 + 500 + 100 - 15


def test_rule_29_wild_card_added_to_a_natural_canasta_makes_it_mixed():
    """hoyle-1950 rule 29 (law 23): "A wild card added to a natural canasta reduces it to a mixed
    canasta"."""
    st = opened("JK 9", melds='"K K K K K K K"')
    st = run(st, "add JK to K", "discard 9")
    assert st.result.scores[0].total == 70 + 50 + 300 + 100 - 15


def test_rule_30_side_may_hold_and_combine_two_melds_of_one_rank():
    """hoyle-1950 rule 30 (law 24): "A player may at any time combine two or more complete melds,
    including no more than three wild cards, made by his side" (VARIANTS.md: read as allowing two
    melds of one rank, plus a "combine melds" action)."""
    st = opened("7 7 7 5 6", melds='"7 7 JK"')
    assert legal(st, "meld 7 7 7")
    st = st.apply("meld 7 7 7")
    assert legal(st, "combine 7#1 7#2")
    st = st.apply("combine 7#1 7#2")
    sevens = [m for m in st.melds[0] if m.rank == int(Card.SEVEN)]
    assert sevens == [TableMeld(int(Card.SEVEN), 5, 1, 0)]


def test_rule_30_combined_meld_holds_no_more_than_three_wild_cards():
    """hoyle-1950 rule 30 (law 24): combine melds "including no more than three wild cards"."""
    st = opened("5 6 9", melds='"7 7 JK 2", "7 7 JK 2"')
    assert not legal(st, "combine 7#1 7#2")


# ============================================================== minimum count


@pytest.mark.parametrize(
    "total, need, hand, meld, allowed",
    [
        (-5, 0, "4 4 4 9 K", "meld 4 4 4", True),
        (0, 50, "4 4 4 9 K", "meld 4 4 4", False),
        (1495, 50, "A A A 9 K", "meld A A A", True),
        (1500, 90, "A A A 9 K", "meld A A A", False),
        (2995, 90, "A A A Q Q Q 9 K", "meld A A A", True),
        (3000, 120, "A A A Q Q Q 9 K", "meld A A A", False),
    ],
)
def test_rule_33_initial_meld_minimum_by_total_score(total, need, hand, meld, allowed):
    """hoyle-1950 rule 33 (law 26): "Total Score / Minimum Count: Minus 0; 0 to 1495 50; 1500 to
    2995 90; 3000 or more 120"."""
    st = pos(f"""
        variant = "hoyle-1950"
        to_act = 0
        phase = "meld"
        totals = [{total}, 0]
        [turn]
        drew = true
        [[seats]]
        hand = "{hand}"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
    """)
    assert st.initial_need(0) == need
    assert legal(st, meld) is allowed


def test_rule_34_several_melds_count_together_for_the_minimum():
    """hoyle-1950 rule 34 (law 27): "A player may make two or more different melds in the same turn
    to achieve the minimum count"."""
    st = pos("""
        variant = "hoyle-1950"
        to_act = 0
        phase = "meld"
        [turn]
        drew = true
        [[seats]]
        hand = "K K K 8 8 8 5 6"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
    """)
    assert legal(st, "meld K K K")
    st = st.apply("meld K K K")
    assert not st.opened[0]
    assert not legal(st, "discard 5")  # 30 alone does not meet 50
    st = st.apply("meld 8 8 8")
    assert st.opened[0]
    assert legal(st, "discard 5")


def test_rule_34_canasta_is_an_initial_meld_only_if_its_count_suffices():
    """hoyle-1950 rule 34 (law 27): "Not even a canasta may be melded initially unless the count of
    its cards satisfies the minimum. The former custom, by which any canasta was sufficient, has
    been generally abandoned"."""
    text = """
        variant = "hoyle-1950"
        to_act = 0
        phase = "meld"
        [turn]
        drew = true
        [[seats]]
        hand = "{hand}"
        [[seats]]
        hand = "6 7 8"
        [[seats]]
        hand = "6 7 8"
        [[seats]]
        hand = "6 7 8"
    """
    st = pos(text.format(hand="5 5 5 5 5 5 5 9 K"))  # canasta of fives: 35 < 50
    assert not any(isinstance(a, (canasta.Meld, canasta.Add)) for a in st.legal_actions())
    st = pos(text.format(hand="K K K K K K K 9 5"))  # canasta of kings: 70 >= 50
    st = run(st, "meld K K K", "add K", "add K", "add K", "add K")
    assert st.opened[0]
    assert st.melds[0] == (TableMeld(int(Card.KING), 7),)


def test_rule_35_after_the_initial_meld_no_minimum():
    """hoyle-1950 rule 35 (law 28): "After a side has made its initial meld, either partner may make
    any valid melds without reference to any minimum count"."""
    st = pos("""
        variant = "hoyle-1950"
        to_act = 0
        phase = "meld"
        totals = [3000, 0]
        [turn]
        drew = true
        [[seats]]
        hand = "4 4 4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[sides]]
        melds = ["K K K"]
        [[sides]]
        melds = []
    """)
    assert st.initial_need(0) == 0
    assert legal(st, "meld 4 4 4")


# ============================================================== taking the pile, freezing


_PILE = """
    variant = "hoyle-1950"
    totals = [{total}, 0]
    pile = "{pile}"
    [[seats]]
    hand = "{hand}"
    [[seats]]
    hand = "4 5 6"
    [[seats]]
    hand = "4 5 6"
    [[seats]]
    hand = "4 5 6"
    [[sides]]
    melds = [{melds}]
    [[sides]]
    melds = []
"""


def pile_position(pile: str, hand: str, melds: str = "", total: int = 0) -> canasta.GameState:
    return pos(_PILE.format(pile=pile, hand=hand, melds=melds, total=total))


def test_rule_37_pile_frozen_for_a_side_until_its_initial_meld():
    """hoyle-1950 rule 37 (law 29): "The discard pile is FROZEN, as concerns a side, until that side
    has made its initial meld"; rule 39 (law 31): then "a player may draw the top card only to make
    a meld with two natural cards of the same rank from his hand"."""
    st = pile_position("4 9 7", "7 7 JK A A A 5 6")
    assert not st.frozen
    assert "take 7 JK" not in takes(st)
    assert "take 7 7" in takes(st)
    st = pile_position("4 9 7", "7 7 JK A A A 5 6", melds='"K K K"')
    assert {"take 7 7", "take 7 JK"} <= takes(st)


def test_rule_37_initial_meld_unfreezes_the_pile_for_both_partners():
    """hoyle-1950 rule 37 (law 29): "The initial meld, whether made wholly from the hand or with help
    of the discard, unfreezes the pile for both partners"; it stays frozen for the other side
    until that side melds."""
    st = pos("""
        variant = "hoyle-1950"
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
    assert "take 6 JK" not in takes(st)  # still frozen for seat 1's side
    st = run(st, "draw", "discard 7")  # seat 1
    assert st.current_player == 2
    assert "take 7 JK" in takes(st)  # unfrozen for seat 0's partner


def test_rule_41_initial_take_may_add_cards_to_the_first_meld():
    """hoyle-1950 rule 41 (law 33): the additional melds for the minimum "may be separate from the
    first or added cards on the first"."""
    st = pile_position("4 9 K", "K K K JK 6 7")
    st = st.apply("take K K")
    assert st.phase is Phase.INITIAL_TAKE
    assert {"add K", "add JK to K"} <= texts(st)
    st = run(st, "add K", "add JK to K")
    assert st.opened[0]
    assert st.melds[0] == (TableMeld(int(Card.KING), 4, 1, 0),)


def test_rule_38_wild_card_in_the_pile_freezes_it_for_a_melded_side():
    """hoyle-1950 rule 38 (law 30): "Even for a side that has melded, the discard pile is FROZEN at
    any time that it contains ... a wild card (upcard or a later discard)"; rule 39 (law 31): only a
    natural pair may take it."""
    st = pile_position("4 2 9 7", "7 7 JK 5 6", melds='"7 7 7", "K K K"')
    assert st.frozen
    assert takes(st) == {"take 7 7"}


def test_rule_38_discarding_a_wild_card_freezes_the_pile():
    """hoyle-1950 rule 38 (law 30): the pile is frozen when it contains "a wild card (upcard or a
    later discard)", and "remains frozen until it is taken up"."""
    st = pos("""
        variant = "hoyle-1950"
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
        hand = "JK K K"
        [[sides]]
        melds = ["K K K"]
        [[sides]]
        melds = ["Q Q Q"]
    """)
    assert not st.frozen
    st = st.apply("discard JK")
    assert st.frozen
    st = run(st, "draw", "discard 6")   # seat 0
    assert st.frozen
    st = run(st, "draw", "discard 7")   # seat 1
    assert st.current_player == 2
    assert takes(st) == {"take 7 7"}
    st = st.apply("take 7 7")
    assert not st.frozen


def test_rule_38_red_three_upcard_freezes_the_pile():
    """hoyle-1950 rule 38 (law 30): "the discard pile is FROZEN at any time that it contains a red
    trey (turned as upcard)"."""
    st = pile_position("3r 9 7", "7 7 JK 5 6", melds='"7 7 7", "K K K"')
    assert st.frozen
    assert takes(st) == {"take 7 7"}


def test_rule_38_pile_unfrozen_after_it_is_taken():
    """hoyle-1950 rule 38 (law 30): "The pile remains frozen until it is taken up by some hand,
    whereupon the new pile commenced is not frozen unless a wild card is discarded"."""
    st = pile_position("JK 9 7", "7 7 5 6", melds='"K K K"')
    assert st.frozen
    st = run(st, "take 7 7", "discard 5")
    assert not st.frozen
    assert st.pile == (int(Card.FIVE),)


def test_rule_40_unfrozen_pile_taken_with_pair_natural_and_wild_or_onto_a_meld():
    """hoyle-1950 rule 40 (law 32): "At a time when the discard pile is not frozen, a player may
    draw the top card to make a meld with two cards from his hand, either two natural cards or one
    natural and one wild card, or to add to a meld of his side"."""
    st = pile_position("4 9 7", "7 7 JK 2 5 6", melds='"7 7 7", "K K K"')
    assert takes(st) == {"take 7 7", "take 7 JK", "take 7 2", "take onto 7"}


def test_rule_40_take_onto_a_meld_puts_the_top_card_on_it():
    """hoyle-1950 rule 43 (law 35): "Correct procedure is to move the top card to such meld, then
    take the rest of the discard pile into the hand"."""
    st = pile_position("4 9 7", "5 6 8", melds='"7 7 7", "K K K"')
    st = st.apply("take onto 7")
    assert st.melds[0][0] == TableMeld(int(Card.SEVEN), 4)
    assert sum(st.hands[0]) == 5


def test_rule_41_only_the_top_card_counts_toward_the_initial_minimum():
    """hoyle-1950 rule 41 (law 33): for an initial meld the player melds the top discard with two
    cards and makes "such additional melds from his hand as are necessary to meet the minimum";
    melds made with the rest of the pile "do not help to fulfill the minimum count"."""
    # top ace + pair of aces = 60 >= 50: the top card counts
    st = pile_position("9 A", "A A 5 6 7 8 J Q")
    assert "take A A" in takes(st)
    # at 1500 the 60 falls short of 90; the kings in the pile would make 90 but do not count
    st = pile_position("K K K A", "A A 5 6 7 8 J Q", total=1500)
    assert "take A A" not in takes(st)


def test_rule_41_initial_take_completed_by_melds_from_the_hand():
    """hoyle-1950 rule 41 (law 33): "in the case of an initial meld, make such additional melds from
    his hand as are necessary to meet the minimum requirement. ... Next the player must take the
    rest of the discard pile into his hand"."""
    st = pile_position("4 9 K", "K K A A A 6 7")
    st = st.apply("take K K")
    assert not st.opened[0]
    assert texts(st) == {"meld A A A"}
    st = st.apply("meld A A A")
    assert st.opened[0]
    assert count(st.hands[0], "4") == 1 and count(st.hands[0], "9") == 1


def test_rule_42_pile_topped_by_wild_card_cannot_be_taken():
    """hoyle-1950 rule 42 (law 34): "The discard pile may not be taken when it is topped by a wild
    card or a black trey"."""
    st = pile_position("4 9 JK", "JK JK 9 9 5", melds='"K K K K K K K"')
    assert takes(st) == set()
    st = pile_position("4 9 2", "2 2 9 9 5", melds='"K K K K K K K"')
    assert takes(st) == set()


def test_rule_42_pile_topped_by_black_three_cannot_be_taken():
    """hoyle-1950 rule 42 (law 34): "The discard pile may not be taken when it is topped by a wild
    card or a black trey"."""
    st = pile_position("4 9 3b", "3b 3b 9 5", melds='"K K K K K K K"')
    assert takes(st) == set()
    assert not legal(st, "take 3b 3b")


def test_rule_43_one_card_hand_may_not_take_a_one_card_pile_to_go_out():
    """hoyle-1950 rule 43 (law 35): "when the discard pile is only one card, and the player has only
    one card in his hand, he may not take it and go out unless he is forced to do so"."""
    st = pile_position("7", "9", melds='"7 7 7", "K K K K K K K"')
    assert not legal(st, "take onto 7")


def test_rule_43_one_card_hand_takes_a_one_card_pile_when_forced():
    """hoyle-1950 rule 43 (law 35): the one-card player may not take the one-card pile "unless he is
    forced to do so — see the next rule" (rule 45, law 36: compulsory when the stock is
    exhausted)."""
    st = exhausted("""
        variant = "hoyle-1950"
        pile = "7"
        stock = "{stock}"
        [[seats]]
        hand = "9"
        [[seats]]
        hand = "{filler}"
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        [[sides]]
        melds = ["7 7 7", "K K K K K K K"]
        [[sides]]
        melds = []
        red_threes = {filler_red}
    """)
    assert st.stock == ()
    assert legal(st, "take onto 7")
    assert not legal(st, "pass")


# ============================================================== forcing


_EXHAUSTED = """
    variant = "hoyle-1950"
    pile = "{pile}"
    stock = "{{stock}}"
    [[seats]]
    hand = "{hand}"
    [[seats]]
    hand = "{{filler}}"
    [[seats]]
    hand = "4 5 6"
    [[seats]]
    hand = "4 5 6"
    [[sides]]
    melds = [{melds}]
    [[sides]]
    melds = ["Q Q Q"]
    red_threes = {{filler_red}}
"""


def test_rule_45_must_take_the_discard_that_adds_to_a_meld_when_stock_exhausted():
    """hoyle-1950 rule 45 (law 36): "It is compulsory (when the stock is exhausted) to take the
    discard if it is legally possible to add it to a meld"."""
    st = exhausted(_EXHAUSTED.format(pile="4 7", hand="5 6 9", melds='"7 7 7", "K K K K K K K"'))
    acts = texts(st)
    assert "take onto 7" in acts
    assert "pass" not in acts
    assert "draw" not in acts


def test_rule_45_taking_for_a_new_meld_is_not_compulsory():
    """hoyle-1950 rule 45 (law 36): taking is compulsory only "if it is legally possible to add it
    to a meld"; "The play ends when the player in turn does not take the discard, either because
    he cannot legally, or because he does not choose to"."""
    st = exhausted(_EXHAUSTED.format(pile="4 7", hand="7 7 5 6", melds='"K K K"'))
    assert {"take 7 7", "pass"} <= texts(st)
    st = st.apply("pass")
    assert st.is_hand_over
    assert st.result.went_out is None


def test_rule_45_play_ends_when_the_player_in_turn_cannot_take():
    """hoyle-1950 rule 45 (law 36): "The play ends when the player in turn does not take the
    discard, either because he cannot legally, or because he does not choose to"."""
    st = exhausted("""
        variant = "hoyle-1950"
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
        hand = "4 5 6"
        [[seats]]
        hand = "5 6 8"
        [[sides]]
        melds = ["K K K"]
        [[sides]]
        melds = ["Q Q Q"]
        red_threes = {filler_red}
    """)
    st = st.apply("discard 5")
    assert st.is_hand_over
    assert st.result.went_out is None


def test_rule_55_no_going_out_bonus_when_play_ends_on_an_exhausted_stock():
    """hoyle-1950 rule 55 (law 44): "Play also ends when the stock is exhausted and any player in
    turn fails to take the top discard. In either case ... there can be no scores for going out and
    for concealed hand"."""
    st = exhausted(_EXHAUSTED.format(pile="4 7", hand="7 7 5 6", melds='"K K K K K K K"')).apply("pass")
    s0, s1 = st.result.scores
    # K canasta 70 + 500; seat 0 holds 7 7 5 6 (20), seat 2 holds 4 5 6 (15)
    assert s0.total == 70 + 500 - 20 - 15
    assert s0.get("going out") == 0 and s0.get("concealed") == 0


# ============================================================== going out


def test_rule_47_going_out_by_discarding_the_last_card():
    """hoyle-1950 rule 47 (law 37): "A player GOES OUT when he (legally) gets rid of the last card
    of his hand, either by discard or by meld"; rule 51 (law 41): "When any player goes out, play
    ends and the deal is scored"."""
    st = opened("9", melds='"K K K K K K K"').apply("discard 9")
    assert st.is_hand_over
    assert st.result.went_out == 0


def test_rule_48_going_out_needs_a_canasta():
    """hoyle-1950 rule 48 (law 38): "A player may go out only if his side has melded at least one
    canasta. Failing this requirement, he must keep at least one card in his hand"."""
    st = opened("9 9 9 5", melds='"K K K K K K"')
    assert not legal(st, "meld 9 9 9")
    assert legal(st, "discard 5")
    # holding one card, he could neither discard it nor keep it: play never leads there, and
    # a position that does is refused with the rule
    with pytest.raises(canasta.PositionError, match="to_act: .*your side needs a canasta to go out"):
        opened("9", melds='"K K K K K K"')


def test_rule_48_canasta_may_be_completed_while_going_out():
    """hoyle-1950 rule 43 (law 35): "in no case may a player go out when his side has not made a
    canasta and he cannot make one"; rule 48 (law 38): the side must have "melded at least one
    canasta" when he goes out."""
    st = opened("K 9 9 9 5", melds='"K K K K K K"')
    st = run(st, "add K", "meld 9 9 9", "discard 5")
    assert st.result.went_out == 0


def test_rule_49_going_out_by_melding_every_card_without_discarding():
    """hoyle-1950 rule 49 (law 39): "A player need not make a discard after going out; he may meld
    all of his remaining cards"."""
    st = opened("9 9 9", melds='"K K K K K K K"')
    st = st.apply("meld 9 9 9")
    assert st.is_hand_over
    assert st.result.went_out == 0


_ASK = """
    variant = "hoyle-1950"
    to_act = 0
    phase = "{phase}"
    stock = "5 rest"
    [turn]
    drew = {drew}
    [[seats]]
    hand = "{hand}"
    melded = true
    [[seats]]
    hand = "4 5 6"
    [[seats]]
    hand = "4 5 6"
    [[seats]]
    hand = "4 5 6"
    [[sides]]
    melds = ["K K K K K K K"]
    [[sides]]
    melds = []
"""


def test_rule_50_may_ask_before_drawing_and_yes_binds():
    """hoyle-1950 rule 50 (law 40): "If able to go out before drawing or after drawing from the
    stock, a player may ask his partner 'May I go out?' The partner must answer 'Yes' or 'No' and
    the player is bound by the reply"."""
    st = pos(_ASK.format(phase="draw", drew="false", hand="9 9 9"))
    assert legal(st, "ask")
    st = st.apply("ask")
    assert st.phase is Phase.ANSWER
    assert st.current_player == 2
    assert texts(st) == {"yes", "no"}
    st = run(st, "yes")
    assert st.current_player == 0
    st = st.apply("draw")
    # bound to go out: keeping cards is not allowed
    assert not legal(st, "discard 9")
    st = run(st, "meld 9 9 9", "discard 5")
    assert st.result.went_out == 0


def test_rule_50_no_binds_the_player_not_to_go_out():
    """hoyle-1950 rule 50 (law 40): "The partner must answer 'Yes' or 'No' and the player is bound
    by the reply"."""
    st = pos(_ASK.format(phase="draw", drew="false", hand="9 9 9"))
    st = run(st, "ask", "no", "draw")
    assert st.current_player == 0
    assert not legal(st, "meld 9 9 9")
    assert legal(st, "discard 5")


def test_rule_50_may_ask_after_drawing_but_not_after_melding():
    """hoyle-1950 rule 50 (law 40): a player may ask "before drawing or after drawing from the
    stock ... Permission to go out may not be asked ... when he has melded any card in that
    turn"."""
    st = pos(_ASK.format(phase="meld", drew="true", hand="4 4 4 9 9 9 5"))
    assert legal(st, "ask")
    st = st.apply("meld 4 4 4")
    assert not legal(st, "ask")


def test_rule_50_not_after_taking_the_pile():
    """hoyle-1950 rule 50 (law 40): permission may not be asked "when he has melded any card in that
    turn"; taking the pile melds its top card (rule 41, law 33)."""
    st = pile_position("4 9", "9 9 8 8 8", melds='"K K K K K K K"')
    st = st.apply("take 9 9")
    assert not legal(st, "ask")


def test_rule_50_may_always_go_out_without_asking():
    """hoyle-1950 rule 50 (law 40): "(A player may always go out without asking permission.)"."""
    st = pos(_ASK.format(phase="draw", drew="false", hand="9 9 9"))
    st = run(st, "draw", "meld 9 9 9", "discard 5")
    assert st.result.went_out == 0


_ASK_UNOPENED = """
    variant = "hoyle-1950"
    to_act = 0
    pile = "{pile}"
    stock = "5 rest"
    [[seats]]
    hand = "{hand}"
    [[seats]]
    hand = "4 5 6"
    [[seats]]
    hand = "4 5 6"
    [[seats]]
    hand = "4 5 6"
    [[sides]]
    melds = []
    [[sides]]
    melds = []
"""


def test_rule_50_ask_and_take_the_pile_for_the_initial_meld_then_go_out():
    """hoyle-1950 rule 50 (law 40): "If able to go out before drawing ... a player may ask his
    partner 'May I go out?' ... the player is bound by the reply"; a side that has not melded is
    able to go out by taking the pile for its initial meld. Rule 41 (law 33): "in the case of an
    initial meld, make such additional melds from his hand as are necessary to meet the minimum
    requirement ... Next the player must take the rest of the discard pile into his hand" (rule
    33: the minimum is 50 here); he then melds it out (rule 48: with a canasta)."""
    st = pos(_ASK_UNOPENED.format(pile="4 K K K K K", hand="K K A A A"))
    assert not st.opened[0]
    assert legal(st, "ask")
    st = run(st, "ask", "yes")
    assert st.turn.answer is True
    # a draw might not let him go out; the pile does
    assert not legal(st, "draw")
    assert takes(st) == {"take K K"}
    st = st.apply("take K K")
    assert st.phase is Phase.INITIAL_TAKE
    # the top card and the pair count 30: the aces make up the minimum, then the pile comes up
    assert texts(st) == {"meld A A A"}
    st = st.apply("meld A A A")
    assert st.opened[0]
    assert not legal(st, "discard 4")  # bound to go out: 4 K K K K came up, and all must go
    st = run(st, "add K", "add K", "add K", "add K", "discard 4")
    assert st.result.went_out == 0


def test_rule_50_after_a_yes_only_the_melds_that_still_lead_out_are_offered():
    """hoyle-1950 rule 50 (law 40): bound by a yes, the player must go out; rule 41 (law 33): he
    makes "such additional melds from his hand as are necessary to meet the minimum", and only
    "Next ... the rest of the discard pile" comes into his hand. Melding 5 5 JK for the minimum
    would leave the 5, or the queens of the pile, unmeldable, so only the melds that keep going
    out in reach are offered (rule 23: a meld needs two natural cards; rule 48: a canasta to go
    out)."""
    st = pos(_ASK_UNOPENED.format(pile="Q Q 2 K K K K", hand="K K 5 5 5 JK"))
    assert legal(st, "ask")
    st = run(st, "ask", "yes", "take K K")
    assert st.phase is Phase.INITIAL_TAKE
    assert texts(st) == {"meld 5 5 5", "add JK to K"}
    reason = st.why_illegal(canasta.parse_action("meld 5 5 JK"))
    assert reason is not None and "partner said yes" in reason and "go out" in reason
    st = run(st, "meld 5 5 5", "add JK to K", "add K", "add K", "add K", "meld Q Q 2")
    assert st.result.went_out == 0


def test_rule_50_after_a_yes_a_take_for_the_initial_meld_that_cannot_go_out_is_refused():
    """hoyle-1950 rule 50 (law 40): the yes binds the player to go out. Taking the pile with
    K K meets the minimum with the 7s (rules 33 and 41), but the 4, 9 and ace that then come up
    (rule 41: "Next the player must take the rest of the discard pile into his hand") cannot
    all be melded, so the take is refused, saying why; drawing, which goes
    out whatever card he draws, stays legal. Without the yes the same take is legal."""
    st = pos(_ASK_UNOPENED.format(pile="4 9 A K", hand="K K K 7 7 7 7 7 7 7"))
    assert "take K K" in takes(st)
    assert legal(st, "ask")
    st = run(st, "ask", "yes")
    assert texts(st) == {"draw"}
    reason = st.why_illegal(canasta.parse_action("take K K"))
    assert reason is not None
    assert "partner said yes" in reason and "initial meld" in reason and "go out" in reason


def test_rule_50_no_ask_when_taking_the_pile_for_the_initial_meld_cannot_lead_out():
    """hoyle-1950 rule 50 (law 40): "If able to go out ...": with 4 9 K K K K under the top K,
    the 4 and the 9 would come up unmeldable, so the player is not able to go out and may not
    ask."""
    st = pos(_ASK_UNOPENED.format(pile="4 9 K K K K K", hand="K K A A A"))
    assert "take K K" in takes(st)
    assert not legal(st, "ask")
    reason = st.why_illegal(canasta.Ask())
    assert reason is not None and "nothing to ask" in reason


# ============================================================== concealed hand


def _concealed(hand: str, melds: str = "", total: int = 3000, melded: str = "false") -> canasta.GameState:
    return pos(f"""
        variant = "hoyle-1950"
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
        [[sides]]
        melds = []
    """)


def test_rule_61_concealed_hand_needs_no_minimum_count():
    """hoyle-1950 rule 61 (law 48): "A player goes out with a CONCEALED HAND if he melds all his
    cards in one turn, having previously melded not a single card"; rule 62 (law 49): he "must
    himself meld a complete canasta, but need not have any specific minimum count"; rule 63 (law
    50): "a side scores a bonus of 100, additional to the bonus of 100 for going out"."""
    st = _concealed("4 4 4 4 4 4 4 5 5 5 6")  # 50 points against a minimum of 120
    assert st.initial_need(0) == 120
    st = run(st, "meld 4 4 4", "add 4", "add 4", "add 4", "add 4", "meld 5 5 5", "discard 6")
    assert st.result.went_out == 0
    assert st.result.concealed
    # 35 + 15 melded, natural canasta 500, going out 100, concealed 100, partner's 8 8 -20
    assert st.result.scores[0].total == 50 + 500 + 100 + 100 - 20


def test_rule_61_concealed_hand_may_not_add_to_partners_melds():
    """hoyle-1950 rule 61 (law 48): "(In going out concealed he may not add a card to a meld of his
    partner's.)"."""
    st = _concealed("7 4 4 4 4 4 4 4 6", melds='"7 7 7", "K K K K K K K"', total=0)
    st = run(st, "add 7", "meld 4 4 4", "add 4", "add 4", "add 4", "add 4", "discard 6")
    assert st.result.went_out == 0
    assert not st.result.concealed


def test_rule_61_concealed_when_only_the_partner_had_melded():
    """hoyle-1950 rule 61 (law 48): concealed if "he melds all his cards in one turn, having
    previously melded not a single card" (the player himself)."""
    st = _concealed("4 4 4 4 4 4 4 6", melds='"7 7 7", "K K K K K K K"', total=0)
    st = run(st, "meld 4 4 4", "add 4", "add 4", "add 4", "add 4", "discard 6")
    assert st.result.concealed
    s0 = st.result.scores[0]
    # 7s 15, K 70 + 500, 4s 35 + 500, out 100, concealed 100, partner's 8 8 -20
    assert s0.total == 15 + 70 + 500 + 35 + 500 + 100 + 100 - 20


def test_rule_61_a_meld_just_like_the_partners_is_addressed_on_its_own():
    """hoyle-1950 rule 30 (two melds of one rank may stand, VARIANTS.md) and rule 61 ("In going
    out concealed he may not add a card to a meld of his partner's"): when the player's new
    K K K is just like his partner's K K K, adding to his own (K#2) is not the same play as adding
    to his partner's (K#1): it keeps a concealed going out possible, and he can complete his own
    canasta and go out concealed."""
    st = _concealed("K K K K K JK JK 6", melds='"K K K"', total=0)
    st = run(st, "meld K K K")
    assert {"add K", "add K to K#2"} <= texts(st)
    assert st.why_illegal("add K to K#2") is None
    st = run(st, "add K to K#2", "add K to K#2", "add JK to K#2", "add JK to K#2", "discard 6")
    assert st.result.went_out == 0
    assert st.result.concealed
    # the partner's 3 kings, his own 5 kings and 2 jokers (a mixed canasta): 180 points melded,
    # mixed canasta 300, out 100, concealed 100, the partner's 8 8 -20
    assert st.result.scores[0].total == 180 + 300 + 100 + 100 - 20


def test_rule_30_alike_melds_on_the_same_side_of_the_turn_are_one_play():
    """hoyle-1950 rule 30: two melds of one rank just like each other, both made before this
    turn, are the same meld to add to: only the first is offered, and the second names it."""
    st = _concealed("K 4 4 4 6 9", melds='"K K K", "K K K"', total=0)
    assert "add K" in texts(st) and "add K to K#2" not in texts(st)
    assert "just like the first" in st.why_illegal("add K to K#2")


def test_rule_62_concealed_hand_must_meld_its_own_canasta():
    """hoyle-1950 rule 62 (law 49): "The player going out with a concealed hand must himself meld a
    complete canasta"."""
    st = _concealed("9 9 9 6", melds='"K K K K K K K"', total=0)
    st = run(st, "meld 9 9 9", "discard 6")
    assert st.result.went_out == 0
    assert not st.result.concealed
    assert st.result.scores[0].total == 70 + 500 + 30 + 100 - 20


def test_rule_62_concealed_hand_without_minimum_may_use_the_pile():
    """hoyle-1950 rule 62 (law 49): the concealed hand "need not have any specific minimum count for
    an initial meld" (VARIANTS.md: hoyle "no minimum count needed"; bicycle alone adds "the minimum
    count applies if the pile was taken")."""
    st = pos("""
        variant = "hoyle-1950"
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
    assert legal(st, "take 4 4")
    st = run(st, "take 4 4", "add 4", "add 4", "add 4", "add 4", "meld 9 9 9", "discard 5")
    assert st.result.concealed


# ============================================================== scoring a deal


def test_rule_53_and_54_scoring_schedule():
    """hoyle-1950 rule 53 (law 42): the side that goes out scores its melded cards plus "For going
    out 100; For each red trey 200 or 100; For each natural canasta 500; For each mixed canasta 300"
    less the cards left in the partner's hand; rule 54 (law 43): the opponents "cannot score for
    going out or for concealed hand ... point values of cards left in both hands are deducted"."""
    st = pos("""
        variant = "hoyle-1950"
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
    assert st.result.went_out == 0
    assert not st.result.concealed
    s0, s1 = st.result.scores
    melded0 = 70 + (50 + 50 + 20) + 60
    assert s0.total == melded0 + 500 + 300 + 200 + 100 - 60
    melded1 = (15 + 20) + 70
    assert s1.total == melded1 + 500 + 100 - (25 + 15)
    assert st.totals == (s0.total, s1.total)


# ============================================================== last card a red three


def test_rule_55_last_card_a_red_three_may_meld_no_discard_then_play_ends():
    """hoyle-1950 rule 55 (law 44): "If the last card of the stock is a red trey, the player drawing
    it may not discard; and after he has had an opportunity to meld, play ends ... there can be no
    scores for going out and for concealed hand"."""
    st = exhausted("""
        variant = "hoyle-1950"
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
        hand = "4 5 6"
        [[sides]]
        melds = ["K K K K K K K"]
        [[sides]]
        melds = []
        red_threes = {filler_red}
    """, stock="3r")
    st = st.apply("draw")
    assert st.red_threes[0] == 1
    assert st.phase is Phase.FINAL_MELD
    assert not any(isinstance(a, canasta.Discard) for a in st.legal_actions())
    assert legal(st, "meld 9 9 9")
    st = run(st, "meld 9 9 9", "done")
    assert st.is_hand_over
    assert st.result.went_out is None
    # K 70 + 500, 9s 30, one red trey 100, seat 0's 5 and partner's 8 8
    assert st.result.scores[0].total == 70 + 500 + 30 + 100 - 5 - 20


# ============================================================== scoring a game


def _final(totals: str) -> canasta.GameState:
    st = pos(f"""
        variant = "hoyle-1950"
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


def test_rule_57_game_won_on_reaching_5000():
    """hoyle-1950 rule 57 (law 45): "A game is won by the first side to reach a total of 5,000
    points or more"."""
    st = _final("[4335, 0]")  # side 0 scores 665, side 1 scores 1200
    assert st.totals == (5000, 1200)
    assert st.is_game_over
    assert st.winners == (0,)


def test_rule_57_game_not_over_below_5000():
    """hoyle-1950 rule 57 (law 45): the game is won on reaching "5,000 points or more"; below it the
    next deal follows."""
    st = _final("[4334, 0]")
    assert st.totals == (4999, 1200)
    assert st.is_hand_over and not st.is_game_over
    assert st.next_hand().hand_number == 1


def test_rule_57_both_sides_pass_5000_the_higher_total_wins():
    """hoyle-1950 rule 57 (law 45): "If both sides reach 5,000 in the same deal ... the side with the
    higher total wins"."""
    st = _final("[4900, 4000]")
    assert st.totals == (5565, 5200)
    assert st.winners == (0,)
    st = _final("[4900, 4400]")
    assert st.totals == (5565, 5600)
    assert st.winners == (1,)
