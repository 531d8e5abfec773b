"""Scenario tests: each rule statement of the wikipedia variant's source, asked of the engine.

Source: ../shared/rules/sources/wikipedia.txt (Wikipedia's "Canasta" article, section
"Rules for Canasta"), variant ``wikipedia``; readings from VARIANTS.md where the text is
ambiguous. Every test quotes the sentence it checks. Positions are written in the position
format (``load_position``); seats 0 and 2 are one team (side 0), seats 1 and 3 the other
(side 1); with the default dealer (seat 3) seat 0 is to act.
"""

from __future__ import annotations

import textwrap
from collections import deque
from functools import partial

import pytest

import canasta
from canasta import GameState, IllegalActionError, Meld, Phase, TableMeld, Take, parse_action

from canasta._cards import cards_text

import helpers
from helpers import legal, run, takes, texts

V = "wikipedia"
JK, TWO, R3, B3 = 0, 1, 2, 3
VALUE = {"3b": 5, "4": 5, "5": 5, "6": 5, "7": 5, "8": 10, "9": 10, "10": 10, "J": 10, "Q": 10,
         "K": 10, "A": 20, "2": 20}
"""wikipedia "Point values for cards": "3♣, 3♠, 4, 5, 6, 7 5; 8, 9, 10, J, Q, K 10; A, 2 20"."""


# ---------------------------------------------------------------- helpers


pos = partial(helpers.pos, variant=V)


def melds_of(st: GameState, side: int) -> list[str]:
    """The side's melds as text, for messages and comparisons."""
    return [str(m) for m in st.melds[side]]


def meld_turn(hand: str, melds0: str = "", melds1: str = "", totals: str = "[0, 0]",
              extra: str = "", pile: str = "5 9", red0: int = 0, red1: int = 0,
              seat2: str = "", seat1: str = "", seat3: str = "") -> GameState:
    """Seat 0 has drawn (meld phase) holding ``hand``; ``melds0``/``melds1`` are TOML lists."""
    return helpers.turn(V, hand, melds0, melds1, totals=totals, extra=extra, pile=pile, red0=red0,
                        red1=red1, others=(seat1, seat2, seat3), melded=(False,) * 4)


NAT_CANASTA = '"K K K K K K K"'


# ================================================================ The Cards and Deal


def test_two_teams_of_two_partners_opposite() -> None:
    """wikipedia, The Cards and Deal: "The four players are organized into two teams of two
    players each. Partners sit opposite each other."."""
    st = canasta.new_game(V, seed=1)
    assert st.players == 4
    assert [st.side_of(s) for s in range(4)] == [0, 1, 0, 1]


def _all_cards(st: GameState) -> list[int]:
    counts = [0] * 15
    for h in st.hands:
        for k, n in enumerate(h):
            counts[k] += n
    for k in st.stock + st.pile:
        counts[k] += 1
    counts[R3] += sum(st.red_threes)
    return counts


@pytest.mark.parametrize("seed", range(6))
def test_pack_of_108_and_eleven_cards_each(seed: int) -> None:
    """wikipedia, The Cards and Deal: "Canasta uses a pack made of two complete decks of 52
    cards plus four Jokers (108 cards total)." ... "the dealer deals out 11 cards to each
    player"."""
    st = canasta.new_game(V, seed=seed)
    counts = _all_cards(st)
    assert sum(counts) == 108
    assert counts[JK] == 4 and counts[R3] == 4 and counts[B3] == 4
    assert all(counts[k] == 8 for k in [TWO] + list(range(4, 15)))
    assert [sum(h) for h in st.hands] == [11, 11, 11, 11]


def test_initial_dealer_random() -> None:
    """wikipedia, The Cards and Deal: "The initial dealer is chosen at random"."""
    dealers = {canasta.new_game(V, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}


@pytest.mark.parametrize("seed", range(8))
def test_player_left_of_dealer_begins(seed: int) -> None:
    """wikipedia, The Play: "The player to the dealer's left has the first turn, and play then
    proceeds clockwise." (seats are numbered clockwise)"""
    st = canasta.new_game(V, seed=seed)
    assert st.current_player == (st.dealer + 1) % 4


def test_deal_rotates_clockwise() -> None:
    """wikipedia, The Cards and Deal: "the deal then rotates clockwise after every hand"."""
    st = meld_turn("5", melds0=NAT_CANASTA, extra="dealer = 3")
    st = run(st, "discard 5")
    assert st.phase is Phase.HAND_OVER
    nxt = st.next_hand()
    assert nxt.dealer == 0
    assert nxt.current_player == 1
    assert nxt.totals == st.totals


def test_upcard_red_three_or_wild_is_covered_and_freezes() -> None:
    """wikipedia, The Cards and Deal: "If this first card is a red three or a wild card, the
    discard pile is frozen ... Additional cards from the stock are turned over to the top of
    the discard pile until the top card of the discard pile is neither a red three or a wild
    card."."""
    covered = 0
    for seed in range(150):
        st = canasta.new_game(V, seed=seed)
        pile = st.pile
        assert pile[-1] not in (JK, TWO, R3), (seed, pile)
        assert all(k in (JK, TWO, R3) for k in pile[:-1]), (seed, pile)
        assert st.frozen == (pile[0] in (JK, TWO, R3)), (seed, pile)
        covered += len(pile) > 1
    assert covered >= 10  # the rule was exercised


def test_upcard_black_three_is_not_covered() -> None:
    """wikipedia, The Cards and Deal: cards are turned over "until the top card of the discard
    pile is neither a red three or a wild card": a black three upcard stays (and does not
    freeze the pile)."""
    seen = 0
    for seed in range(200):
        st = canasta.new_game(V, seed=seed)
        if st.pile == (B3,):
            seen += 1
            assert not st.frozen
    assert seen >= 1


def test_dealt_red_threes_played_at_once_and_replaced() -> None:
    """wikipedia, The Cards and Deal: "Any player who received a red three in their initial
    hand must immediately play it to the table for their team and draw a new card to their
    hand." (at once, for every player, before the first turn)"""
    faced = 0
    for seed in range(60):
        st = canasta.new_game(V, seed=seed)
        assert all(h[R3] == 0 for h in st.hands), seed
        assert [sum(h) for h in st.hands] == [11] * 4
        faced += sum(st.red_threes)
    assert faced >= 5


# ================================================================ The Play


def test_turn_begins_by_drawing_or_taking_the_pile() -> None:
    """wikipedia, The Play: "A turn begins either by drawing the first card from the stock into
    the player's hand or by picking up the entire discard pile."."""
    st = pos("""
        pile = "5 9 7"
        stock = "8 rest"
        [[seats]]
        hand = "7 7 4 6 J"
        [[sides]]
        melds = ["Q Q Q"]
        """)
    assert texts(st) >= {"draw", "take 7 7"}
    assert not any(isinstance(a, (canasta.Meld, canasta.Discard)) for a in st.legal_actions())
    drawn = st.apply("draw")
    assert drawn.hands[0][8] == 1 and sum(drawn.hands[0]) == 6
    taken = st.apply("take 7 7")
    assert taken.pile == ()
    assert "7 7 7" in melds_of(taken, 0)
    assert taken.hands[0][5] == 1 and taken.hands[0][9] == 1  # the rest of the pile


def test_drawn_red_three_played_and_replaced() -> None:
    """wikipedia, The Play: "If the card drawn from the stock is a red three, the player must
    play it immediately and draw another card."."""
    st = pos("""
        stock = "3r 9 rest"
        [[seats]]
        hand = "4 6 8 J Q"
        [[sides]]
        red_threes = 1
        """)
    after = st.apply("draw")
    assert after.red_threes[0] == 2
    assert after.hands[0][R3] == 0
    assert after.hands[0][9] == 1 and sum(after.hands[0]) == 6
    assert len(after.stock) == len(st.stock) - 2
    # a replacement that is a red three again is played and replaced too
    st = pos("""
        stock = "3r 3r 9 rest"
        [[seats]]
        hand = "4 6 8 J Q"
        """)
    after = st.apply("draw")
    assert after.red_threes[0] == 2
    assert after.hands[0][R3] == 0 and after.hands[0][9] == 1 and sum(after.hands[0]) == 6


def test_turn_ends_with_a_discard_and_play_proceeds_clockwise() -> None:
    """wikipedia, The Play: "A turn ends when the player discards one card from their hand to
    the top of the discard pile." ... "play then proceeds clockwise"."""
    st = meld_turn("4 6 8 J Q", seat1="5 7 9 K A")
    after = st.apply("discard J")
    assert after.pile[-1] == 11
    assert after.current_player == 1
    assert after.phase is Phase.DRAW


# ================================================================ Melds and Canastas


def test_never_play_to_an_opponents_meld() -> None:
    """wikipedia, Melds and Canastas: "Each team keeps separate melds of the various ranks of
    cards. A player may never play to an opponent's meld."."""
    st = meld_turn("K 2 4 6 8", melds0='"Q Q Q"', melds1='"K K K"')
    assert not legal(st, "add K")
    assert not legal(st, "add 2 to K")
    st2 = pos("""
        pile = "5 9 K"
        [[seats]]
        hand = "K 4 6 8"
        [[sides]]
        melds = ["Q Q Q"]
        [[sides]]
        melds = ["K K K"]
        """)
    assert not legal(st2, "take onto K")
    assert takes(st2) == set()


def test_one_meld_per_rank_for_a_team() -> None:
    """wikipedia, Melds and Canastas: "Each team keeps separate melds of the various ranks of
    cards." (VARIANTS.md: one meld per rank; more cards of a rank the team has melded are
    added to that meld)"""
    st = meld_turn("7 7 7 4 6 J", melds0='"7 7 7"')
    assert not legal(st, "meld 7 7 7")
    assert legal(st, "add 7")
    after = run(st, "add 7", "add 7", "add 7")
    assert after.melds[0] == (TableMeld(7, 6),)


def test_meld_example_5_5_2_legal() -> None:
    """wikipedia, Melds and Canastas: "Examples: 5-5-2 and 9-9-9-2-2-Joker are legal
    melds."."""
    st = meld_turn("5 5 2 9 J", melds0='"Q Q Q"')
    assert legal(st, "meld 5 5 2")
    after = st.apply("meld 5 5 2")
    assert TableMeld(5, 2, 0, 1) in after.melds[0]


def test_meld_example_9_9_9_2_2_joker_legal() -> None:
    """wikipedia, Melds and Canastas: "Examples: 5-5-2 and 9-9-9-2-2-Joker are legal melds."
    (a meld is laid as three cards and grown card by card in the same turn)"""
    st = meld_turn("9 9 9 2 2 JK 5 J", melds0='"Q Q Q"')
    after = run(st, "meld 9 9 9", "add 2 to 9", "add 2 to 9", "add JK to 9")
    assert TableMeld(9, 3, 1, 2) in after.melds[0]
    assert sum(after.hands[0]) == 2
    # also grown from a 9-9-9-2-2 already on the table
    st2 = meld_turn("JK 5 J", melds0='"9 9 9 2 2"')
    assert legal(st2, "add JK to 9")
    # and the whole turn's search reaches the shape
    assert (9, 3, 3) in _reachable_shapes(st)


def test_meld_example_5_2_2_illegal() -> None:
    """wikipedia, Melds and Canastas: "5-2-2 is not a legal meld as it contains only one
    natural card."."""
    st = meld_turn("5 2 2 9 J", melds0='"Q Q Q"')
    assert not legal(st, "meld 5 2 2")
    assert not any(isinstance(a, Meld) for a in st.legal_actions())
    # nor from a hand with a 5-5 pair and two wild cards: every meld of fives the turn can
    # reach ("5-5-2 ... legal") keeps two naturals, whatever is melded or added first
    st2 = meld_turn("5 5 2 2 9 J", melds0='"Q Q Q"')
    assert not legal(st2, "meld 5 2 2")
    fives = {(nat, w) for (rank, nat, w) in _reachable_shapes(st2) if rank == 5}
    assert {(2, 1), (2, 2)} <= fives, fives  # 5-5-2, then 5-5-2-2
    assert all(nat >= 2 for nat, _w in fives), fives


def test_meld_example_9_9_2_2_2_joker_illegal() -> None:
    """wikipedia, Melds and Canastas: "9-9-2-2-2-Joker is not legal as it contains more than
    three wild cards." ("A meld ... can never have more than three wild cards.")"""
    st = meld_turn("JK 5 J", melds0='"9 9 2 2 2"')
    assert not legal(st, "add JK to 9")
    st2 = meld_turn("9 9 2 2 2 JK 5 J", melds0='"Q Q Q"')
    shapes = _reachable_shapes(st2)
    assert (9, 2, 3) in shapes  # 9-9-2-2-2 itself is legal
    assert (9, 2, 4) not in shapes
    assert all(w <= 3 for (_r, _n, w) in shapes)


def _reachable_shapes(st: GameState) -> set[tuple[int, int, int]]:
    """(rank, naturals, wilds) of every meld side 0 can have during this turn (melds and adds)."""
    seen: set[tuple[object, ...]] = set()
    shapes: set[tuple[int, int, int]] = set()
    todo = deque([st])
    while todo:
        s = todo.popleft()
        for m in s.melds[0]:
            shapes.add((m.rank, m.naturals, m.wilds))
        for a in s.legal_actions():
            if isinstance(a, (canasta.Meld, canasta.Add)):
                nxt = s.apply(a)
                key = (nxt.hands[0], nxt.melds[0], nxt.phase)
                if key not in seen:
                    seen.add(key)
                    todo.append(nxt)
    return shapes


def test_wild_cards_never_with_threes() -> None:
    """wikipedia, Melds and Canastas: "Wild cards can be used as any rank except for threes."
    Going out: "wild cards may not be used in a meld of black threes"."""
    st = meld_turn("3b 3b 2 5", melds0=NAT_CANASTA)
    assert not legal(st, "meld 3b 3b 2")
    st2 = meld_turn("3b 3b 3b 2", melds0='"K K K K K K K 2"')
    after = st2.apply("meld 3b 3b 3b")
    assert not legal(after, "add 2 to 3b")


def test_canasta_seven_cards_natural_or_mixed() -> None:
    """wikipedia, Melds and Canastas: "A canasta is a meld of at least seven cards, whether
    natural or wild. A natural canasta ... comprises only natural cards. A mixed canasta ...
    comprises both natural and wild cards. Natural canastas score more points than mixed
    canastas."."""
    def side0(melds0: str) -> int:
        st = run(meld_turn("5", melds0=melds0), "discard 5")
        return st.result.scores[0].total

    six = side0('"K K K K K K", "Q Q Q Q Q Q Q"')  # 60 + 70 + 500 natural + 100 out
    assert six == 60 + 70 + 500 + 100
    natural = side0('"K K K K K K K"')
    mixed = side0('"K K K K K K 2"')
    assert natural == 70 + 500 + 100
    assert mixed == 80 + 300 + 100
    assert natural > mixed


# ================================================================ Initial melds


OPEN_FILL = "4 8"  # two odd cards kept to discard; they can never be melded


@pytest.mark.parametrize(
    "total,need",
    [(-5, 15), (0, 50), (1495, 50), (1499, 50), (1500, 90), (2995, 90), (2999, 90), (3000, 120),
     (4995, 120)],
)
def test_initial_meld_table(total: int, need: int) -> None:
    """wikipedia, Initial melds: "Team score / Minimum initial meld: Less than 0 15; 0 - 1499
    50; 1500 - 2999 90; 3000 and above 120"."""
    st = meld_turn("K K K " + OPEN_FILL, totals=f"[{total}, 0]")
    assert st.initial_need(0) == need
    # exactly the minimum may be melded; five points fewer may not
    exact = {15: ("4 4 4", ["meld 4 4 4"]),
             50: ("K K K 2", ["meld K K K", "add 2 to K"]),
             90: ("A A A K K K", ["meld A A A", "meld K K K"]),
             120: ("A A A A A A", ["meld A A A", "add A", "add A", "add A"])}[need]
    short = {50: ("K K K 5 5 5", "meld K K K"),
             90: ("A A A 5 5 5 5 5", "meld A A A"),
             120: ("A A A A A 5 5 5", "meld A A A")}.get(need)
    hand, moves = exact
    st = meld_turn(hand + " 8 J", totals=f"[{total}, 0]")
    after = run(st, *moves)
    assert after.opened[0]
    assert legal(after, "discard J")
    if short is not None:
        st = meld_turn(short[0] + " 8 J", totals=f"[{total}, 0]")
        assert not legal(st, short[1])
        assert not any(isinstance(a, (canasta.Meld, canasta.Add)) for a in st.legal_actions())


def test_initial_meld_is_at_least_the_minimum() -> None:
    """wikipedia, Initial melds: the count "must exceed the minimum", but the table is headed
    "Minimum initial meld" and the example allows 95 against 90: VARIANTS.md reading "use at
    least". 50 exactly (K-K-K-2) opens at a team score of 0."""
    st = meld_turn("K K K 2 8 J")
    after = run(st, "meld K K 2", "add K")
    assert after.opened[0]
    assert legal(after, "discard 8")


def test_initial_meld_counts_all_melds_of_the_turn() -> None:
    """wikipedia, Initial melds: "The sum of the values of the cards played in the player's
    turn must exceed the minimum initial meld requirement" (several melds together)."""
    st = meld_turn("Q Q Q 6 6 6 7 7 7 8 J")  # 30 + 15 + 15 = 60 >= 50; no meld alone reaches 50
    assert legal(st, "meld 6 6 6")
    mid = st.apply("meld 6 6 6")
    assert not mid.opened[0]
    assert not legal(mid, "discard 8")  # the turn's count (15) is still short
    after = run(mid, "meld 7 7 7", "meld Q Q Q")
    assert after.opened[0]
    assert legal(after, "discard 8")


def test_initial_meld_in_any_order_keeping_cards() -> None:
    """wikipedia, Initial melds: "The sum of the values of the cards played in the player's
    turn must exceed the minimum initial meld requirement": K-K-K (30) first, then A-A-A (60)
    reaches 90 >= 50 and two aces stay in hand, so K-K-K may be the first meld of the turn."""
    st = meld_turn("A A A A A K K K")
    assert legal(st, "meld K K K")
    after = run(st, "meld K K K", "meld A A A")
    assert after.opened[0]
    assert legal(after, "discard A")


def test_no_minimum_once_the_team_has_melded() -> None:
    """wikipedia, Initial melds: "When a player's team has not yet made any melds in a hand,
    that player must meet an additional point score requirement to make their first meld(s)."
    (once the partner has melded, 4-4-4 alone may be melded even at a team score of 3000)"""
    st = meld_turn("4 4 4 6 J", melds0='"K K K"', totals="[3000, 0]", seat2="5 8")
    assert st.initial_need(0) == 0
    assert legal(st, "meld 4 4 4")
    assert legal(st.apply("meld 4 4 4"), "discard J")


EX_K = "6 6 6 K K K 2 4 8"
EX_A = "6 6 6 A A A 2 4 8"


def test_initial_meld_example_team_1600() -> None:
    """wikipedia, Initial melds, Example: "If a player's team had a score of 1600 and had not
    yet made any melds in a hand, an initial meld of 6-6-6, K-K-K-2 could not be made as it
    scores only 65 points and the requirement is 90. A meld of 6-6-6, A-A-A-2 would score 95
    points and could be played."."""
    st = meld_turn(EX_K, totals="[1600, 0]")
    assert st.initial_need(0) == 90
    for m in ("meld 6 6 6", "meld K K K", "meld K K 2", "meld 6 6 2"):
        assert not legal(st, m)
    assert not any(isinstance(a, Meld) for a in st.legal_actions())
    st = meld_turn(EX_A, totals="[1600, 0]")
    after = run(st, "meld 6 6 6", "meld A A A", "add 2 to A")
    assert after.opened[0]
    assert after.turn.count == 95
    assert legal(after, "discard 4")


@pytest.mark.parametrize("total", [0, 1000, 1495])
def test_initial_meld_example_both_below_1500(total: int) -> None:
    """wikipedia, Initial melds, Example: "Note that both initial melds could be played if the
    team's total score were below 1500"."""
    for hand, moves in ((EX_K, ("meld 6 6 6", "meld K K K", "add 2 to K")),
                        (EX_A, ("meld 6 6 6", "meld A A A", "add 2 to A"))):
        after = run(meld_turn(hand, totals=f"[{total}, 0]"), *moves)
        assert after.opened[0]
        assert legal(after, "discard 4")


@pytest.mark.parametrize("total", [3000, 4500])
def test_initial_meld_example_neither_at_3000(total: int) -> None:
    """wikipedia, Initial melds, Example: "and that neither could be played if the team's total
    score were 3000 or higher"."""
    for hand in (EX_K, EX_A):
        st = meld_turn(hand, totals=f"[{total}, 0]")
        assert st.initial_need(0) == 120
        assert not legal(st, "meld 6 6 6")
        assert not any(isinstance(a, Meld) for a in st.legal_actions())


# ================================================================ Picking up the discard pile


def test_take_pile_only_if_top_card_is_used() -> None:
    """wikipedia, Picking up the discard pile: "They may only pick up the discard pile if they
    can use the top card either in an existing meld or by making a new meld along with two
    other cards from their hand."."""
    base = """
        pile = "5 9 7"
        [[seats]]
        hand = "{hand}"
        [[sides]]
        melds = [{melds}]
        """
    st = pos(base.format(hand="7 7 4 6 J", melds='"Q Q Q"'))
    assert takes(st) == {"take 7 7"}
    st = pos(base.format(hand="7 JK 4 6 J", melds='"Q Q Q"'))
    assert takes(st) == {"take 7 JK"}
    st = pos(base.format(hand="7 2 4 6 J", melds='"Q Q Q"'))
    assert takes(st) == {"take 7 2"}
    st = pos(base.format(hand="4 6 J", melds='"7 7 7"'))
    assert takes(st) == {"take onto 7"}
    after = st.apply("take onto 7")
    assert TableMeld(7, 4) in after.melds[0]
    assert after.hands[0][5] == 1 and after.hands[0][9] == 1
    st = pos(base.format(hand="7 4 6 J", melds='"Q Q Q"'))
    assert takes(st) == set()
    assert not legal(st, "take 7 7")
    st = pos(base.format(hand="JK 2 4 6 J", melds='"Q Q Q"'))  # two wild cards: one natural only
    assert takes(st) == set()


def test_pile_frozen_by_a_discarded_wild_card() -> None:
    """wikipedia, Picking up the discard pile: "If a wild card has previously been discarded to
    the pile, the discard pile is frozen. When the discard pile is frozen, it may only be
    picked up if the player can meld the top card with two natural cards of the same rank in
    the player's hand."."""
    def after_wild(seat2: str) -> GameState:
        st = pos(f"""
            phase = "meld"
            to_act = 0
            pile = "5 9"
            stock = "7 K rest"
            [[seats]]
            hand = "JK 4 6 8"
            [[seats]]
            hand = "4 6 8 Q"
            [[seats]]
            hand = "{seat2}"
            [[seats]]
            hand = "4 6 8 Q"
            [[sides]]
            melds = ["7 7 7"]
            [[sides]]
            melds = ["Q Q Q"]
            [turn]
            drew = true
            """)
        st = st.apply("discard JK")
        assert st.frozen
        st = run(st, "draw", "discard 7")  # seat 1 draws the 7 and discards it
        assert st.current_player == 2 and st.pile[-1] == 7
        return st

    st = after_wild("7 JK 4 6 J")
    assert takes(st) == set()
    assert not legal(st, "take onto 7")
    assert not legal(st, "take 7 JK")
    st = after_wild("7 7 4 6 J")
    assert takes(st) == {"take 7 7"}
    after = st.apply("take 7 7")
    assert not after.frozen
    assert after.hands[2][JK] == 1  # the frozen pile's wild card comes with it


def test_frozen_pile_from_the_position() -> None:
    """wikipedia, Picking up the discard pile: "When the discard pile is frozen, it may only be
    picked up if the player can meld the top card with two natural cards of the same rank in
    the player's hand." (a pile holding a discarded deuce)"""
    st = pos("""
        pile = "5 2 9 7"
        [[seats]]
        hand = "7 7 JK 4 6"
        [[sides]]
        melds = ["7 7 7"]
        """)
    assert st.frozen
    assert takes(st) == {"take 7 7"}


def test_pile_frozen_for_a_team_without_melds() -> None:
    """wikipedia, Picking up the discard pile: "If the player's team has not yet made any
    melds, the discard pile is frozen for that team."."""
    base = """
        to_act = {seat}
        pile = "5 9 K"
        [[seats]]
        hand = "{h0}"
        [[seats]]
        hand = "{h1}"
        [[sides]]
        [[sides]]
        melds = ["8 8 8"]
        """
    st = pos(base.format(seat=0, h0="K JK A A A 4 6", h1="K JK 4 6"))
    assert not st.frozen  # not frozen for everyone
    assert takes(st) == set()  # K + joker would reach 60 with the aces, but not frozen-wise
    st = pos(base.format(seat=0, h0="K K A A A 4 6", h1="K JK 4 6"))
    assert takes(st) == {"take K K"}
    st = pos(base.format(seat=1, h0="K K A A A 4 6", h1="K JK 4 6"))  # the other team has melded
    assert "take K JK" in takes(st)


def test_initial_take_must_meet_minimum_with_top_card_only() -> None:
    """wikipedia, Picking up the discard pile: "the player must meet the initial meld
    requirement using the top card of the discard pile in order to pick up the pile. Only the
    top card may be used in meeting the requirement before the player may pick up the rest of
    the discard pile."."""
    base = """
        pile = "{pile}"
        [[seats]]
        hand = "{hand}"
        """
    # K-K + top K = 30 < 50; the aces under the top card do not count
    st = pos(base.format(pile="A A A K", hand="K K 4 6 9 J"))
    assert not legal(st, "take K K")
    # the top card counts: K-K-K (30) + 9-9-9 (30) = 60, while 9-9-9 alone is 30
    st = pos(base.format(pile="5 8 K", hand="K K 9 9 9 4 6"))
    assert legal(st, "take K K")
    after = st.apply("take K K")
    assert not after.opened[0]
    assert after.hands[0][5] == 0 and after.hands[0][8] == 0  # the rest of the pile waits
    after = after.apply("meld 9 9 9")
    assert after.opened[0]
    assert after.hands[0][5] == 1 and after.hands[0][8] == 1
    assert legal(after, "discard 4")


@pytest.mark.parametrize("top,hand", [("JK", "JK JK 4 6 8"), ("2", "2 2 4 6 8"),
                                      ("3b", "3b 3b 4 6 8")])
def test_wild_or_black_three_on_top_blocks_the_pile(top: str, hand: str) -> None:
    """wikipedia, Picking up the discard pile: "If a wild card or a black three is on top of
    the discard pile, it may not be picked up."."""
    st = pos(f"""
        pile = "7 7 {top}"
        [[seats]]
        hand = "{hand} 7 7"
        [[sides]]
        melds = ["Q Q Q"]
        """)
    assert takes(st) == set()
    assert not legal(st, f"take {top} {top}")
    assert not legal(st, "take 7 7")


# ================================================================ Going out


def test_going_out_needs_a_canasta() -> None:
    """wikipedia, Going out: "A player may go out by using all the cards in their hand only if
    that player's team has made one or more canastas." ... "If the player's team has not yet
    made any canastas, the player may not make a play which would leave them with no cards in
    their hand at the end of their turn."."""
    st = meld_turn("9 9 9 5", melds0='"K K K K K K"')
    assert not legal(st, "meld 9 9 9")  # would leave one card to discard: out
    assert legal(st, "discard 5")
    st = meld_turn("9 9 9", melds0='"K K K K K K"')
    assert not legal(st, "meld 9 9 9")


def test_going_out_with_a_canasta() -> None:
    """wikipedia, Going out: "The player may go out either by melding all cards in their hand
    or by melding all cards but one and discarding the final card." "The hand ends
    immediately when a player goes out."."""
    st = meld_turn("9 9 9 5", melds0=NAT_CANASTA)
    out = run(st, "meld 9 9 9", "discard 5")
    assert out.phase is Phase.HAND_OVER and out.result.went_out == 0
    st = meld_turn("9 9 9", melds0=NAT_CANASTA)
    out = st.apply("meld 9 9 9")
    assert out.phase is Phase.HAND_OVER and out.result.went_out == 0
    assert out.current_player is None and out.legal_actions() == ()


def test_canasta_completed_while_going_out() -> None:
    """wikipedia, Going out: "only if that player's team has made one or more canastas": the
    canasta may be made in the going-out turn itself (the team has made it when going out)."""
    st = meld_turn("K 5", melds0='"K K K K K K"')
    out = run(st, "add K", "discard 5")
    assert out.phase is Phase.HAND_OVER and out.result.went_out == 0


def test_black_threes_only_as_last_meld_before_going_out() -> None:
    """wikipedia, Melds and Canastas: "Black threes may only be melded as a players last meld
    before going out." Going out: "Black threes may be melded only as the last play before a
    player goes out"."""
    st = meld_turn("3b 3b 3b 6 6 6 8", melds0=NAT_CANASTA)
    assert not legal(st, "meld 3b 3b 3b")  # 6-6-6 would still have to be melded after
    st = st.apply("meld 6 6 6")
    assert legal(st, "meld 3b 3b 3b")
    st = st.apply("meld 3b 3b 3b")
    assert texts(st) == {"discard 8"}
    out = st.apply("discard 8")
    assert out.result.went_out == 0
    assert TableMeld(B3, 3) in out.melds[0]
    # going out by melding them last, with nothing to discard
    out = meld_turn("3b 3b 3b 3b", melds0=NAT_CANASTA).apply("meld 3b 3b 3b 3b")
    assert out.result.went_out == 0
    # without going out they may not be melded at all
    st = meld_turn("3b 3b 3b 5 6", melds0=NAT_CANASTA)
    assert not legal(st, "meld 3b 3b 3b")
    st = meld_turn("3b 3b 3b 5", melds0='"K K K K K K"')  # no canasta: cannot go out
    assert not legal(st, "meld 3b 3b 3b")


def test_black_threes_are_the_last_play() -> None:
    """wikipedia, Going out: "Black threes may be melded only as the last play before a player
    goes out" (after them nothing more is melded or added: only the final discard)."""
    st = meld_turn("3b 3b 3b 2", melds0=NAT_CANASTA)
    after = st.apply("meld 3b 3b 3b")
    assert not legal(after, "add 2 to K")
    assert texts(after) == {"discard 2"}
    st = meld_turn("3b 3b 3b K 5", melds0=NAT_CANASTA)
    assert not legal(st, "meld 3b 3b 3b")  # the K would still have to be added after them
    out = run(st, "add K", "meld 3b 3b 3b", "discard 5")
    assert out.result.went_out == 0


def test_permission_no_forbids_going_out() -> None:
    """wikipedia, Going out: "a player may ask their partner for permission to go out; however,
    the player must abide by the partner's answer. If the partner refuses permission, the
    player may not go out this turn."."""
    st = meld_turn("9 9 9 5", melds0=NAT_CANASTA, seat2="4 6 8")
    assert legal(st, "ask")
    asked = st.apply("ask")
    assert asked.phase is Phase.ANSWER and asked.current_player == 2
    assert texts(asked) == {"yes", "no"}
    no = asked.apply("no")
    assert no.current_player == 0
    assert not legal(no, "meld 9 9 9")
    assert legal(no, "discard 5")
    assert no.apply("discard 5").current_player == 1


def test_permission_yes_obliges_going_out() -> None:
    """wikipedia, Going out: "If the partner responds "yes", the player must go out this
    turn."."""
    st = meld_turn("9 9 9 5", melds0=NAT_CANASTA, seat2="4 6 8")
    yes = run(st, "ask", "yes")
    assert yes.current_player == 0
    assert not legal(yes, "discard 5")
    assert not legal(yes, "discard 9")
    out = run(yes, "meld 9 9 9", "discard 5")
    assert out.result.went_out == 0


def test_going_out_without_asking() -> None:
    """wikipedia, Going out: "Note that it is not necessary to ask permission before going
    out."."""
    st = meld_turn("9 9 9 5", melds0=NAT_CANASTA, seat2="4 6 8")
    out = run(st, "meld 9 9 9", "discard 5")
    assert out.result.went_out == 0


# ================================================================ Stock exhausted


def pos_exact_stock(body: str, stock: str) -> GameState:
    """A position whose stock is exactly ``stock`` (top first): every card of the deck not
    placed in ``body`` goes to the hand of seat 3, written ``REST`` in ``body``."""
    body = textwrap.dedent(body)
    probe = pos(f'stock = "{stock} rest"\n' + body.replace("REST", ""))
    n = len(stock.split())
    rest = probe.stock[: len(probe.stock) - n]
    counts = [0] * 15
    for k in rest:
        counts[k] += 1
    return pos(f'stock = "{stock}"\n' + body.replace("REST", cards_text(counts)))


def _exhausted(seat1: str, melds1: str = '"8 8 8"', pile: str = "5 9") -> GameState:
    """Seat 0 has drawn the last card of the stock and holds 4 6 J Q K; seat 1 is next."""
    return pos_exact_stock(f"""
        phase = "meld"
        to_act = 0
        pile = "{pile}"
        [[seats]]
        hand = "4 6 J Q K"
        [[seats]]
        hand = "{seat1}"
        [[seats]]
        hand = ""
        [[seats]]
        hand = "REST"
        [[sides]]
        melds = ["7 7 7"]
        [[sides]]
        melds = [{melds1}]
        [turn]
        drew = true
        """, "")


def test_stock_exhausted_hand_ends_when_a_player_must_draw() -> None:
    """wikipedia, Going out: "If the stock is completely depleted when a player is required to
    draw a card, the hand ends immediately with no player having gone out."."""
    st = _exhausted("4 6 9 A")
    assert st.stock == ()
    end = st.apply("discard J")
    assert end.is_hand_over
    assert end.result.went_out is None
    assert all(s.get("going out") == 0 for s in end.result.scores)
    # melded cards minus cards in hand, no bonus: 7-7-7 (15) minus 4 6 Q K (30)
    assert end.result.scores[0].total == 15 - 30


def test_stock_exhausted_play_goes_on_after_a_forced_take() -> None:
    """wikipedia, Going out: "If the player can legally pick up the discard pile when there are
    no cards remaining in the stock, they must do so." ... "If the stock is completely
    depleted when a player is required to draw a card, the hand ends immediately" (the taker
    plays his turn; the hand ends at the next player who cannot take)."""
    st = _exhausted("J J 4 6")
    st = run(st, "discard J", "take J J")
    assert not st.is_hand_over and st.current_player == 1
    end = st.apply("discard 6")
    assert end.is_hand_over and end.result.went_out is None


def test_stock_exhausted_must_take_the_pile_if_legal() -> None:
    """wikipedia, Going out: "If the player can legally pick up the discard pile when there are
    no cards remaining in the stock, they must do so."."""
    st = _exhausted("J J 4 6")
    nxt = st.apply("discard J")
    assert not nxt.is_hand_over
    assert nxt.current_player == 1
    assert texts(nxt) == {"take J J"}
    assert not legal(nxt, "pass")
    assert not legal(nxt, "draw")
    st = _exhausted("J 4 6", melds1='"J J J"')
    nxt = st.apply("discard J")
    assert texts(nxt) == {"take onto J"}


def test_stock_exhausted_by_red_three_replacement_ends_hand() -> None:
    """wikipedia, Going out: "This includes the case where a player is required to draw an
    additional card as a result of drawing a red three. The player may not meld any cards
    before the hand ends."."""
    st = pos_exact_stock("""
        pile = "5 9"
        [[seats]]
        hand = "9 9 9 4 6"
        [[seats]]
        [[seats]]
        [[seats]]
        hand = "REST"
        [[sides]]
        melds = ["7 7 7"]
        """, "3r")
    end = st.apply("draw")
    assert end.is_hand_over
    assert end.result.went_out is None
    assert end.red_threes[0] == 1
    assert end.hands[0][9] == 3  # nothing was melded
    assert end.legal_actions() == ()


# ================================================================ The Scoring


@pytest.mark.parametrize("card", sorted(VALUE, key=lambda c: (VALUE[c], c)))
def test_card_values_left_in_hand(card: str) -> None:
    """wikipedia, The Scoring: "The total value of all cards melded by that team ... minus the
    total value of all cards remaining in the team's hands"; Point values for cards:
    "3♣, 3♠, 4, 5, 6, 7 5; 8, 9, 10, J, Q, K 10; A, 2 20"."""
    st = meld_turn("5", melds0=NAT_CANASTA, seat1=card, melds1='"8 8 8"')
    end = st.apply("discard 5")
    assert end.result.scores[1].total == 30 - VALUE[card]


@pytest.mark.parametrize("card", [c for c in VALUE if c not in ("2", "3b")])
def test_card_values_melded(card: str) -> None:
    """wikipedia, The Scoring: "The total value of all cards melded by that team, including
    cards in canastas"; Point values for cards: "4, 5, 6, 7 5; 8, 9, 10, J, Q, K 10; A, 2
    20"."""
    canasta0 = '"8 8 8 8 8 8 8"' if card != "8" else NAT_CANASTA
    st = meld_turn("5", melds0=canasta0, melds1=f'"{card} {card} {card} 2"')
    end = st.apply("discard 5")
    assert end.result.scores[1].total == 3 * VALUE[card] + VALUE["2"]


def test_black_threes_melded_count_five_each() -> None:
    """wikipedia, Point values for cards: "3♣, 3♠ ... 5" (a meld of black threes when going
    out)."""
    st = meld_turn("3b 3b 3b 5", melds0=NAT_CANASTA)
    end = run(st, "meld 3b 3b 3b", "discard 5")
    assert end.result.scores[0].total == 70 + 15 + 500 + 100


def test_bonus_going_out_100() -> None:
    """wikipedia, Bonus scores: "Going out 100"."""
    st = meld_turn("5", melds0=NAT_CANASTA, seat2="4")
    end = st.apply("discard 5")
    assert end.result.scores[0].get("going out") == 100
    assert end.result.scores[0].total == 70 + 500 + 100 - 5
    assert end.result.scores[1].get("going out") == 0


def test_bonus_natural_canasta_500_and_mixed_300() -> None:
    """wikipedia, Bonus scores: "Each mixed canasta 300; Each natural canasta 500"."""
    st = meld_turn("5", melds0='"K K K K K K K", "Q Q Q Q Q Q Q Q", "J J J J J 2 JK"',
                   melds1='"A A A A A A 2", "9 9 9 9 9 9 JK", "8 8 8 8 8 8 8"')
    end = st.apply("discard 5")
    s0, s1 = end.result.scores
    assert s0.get("natural canastas") == 1000 and s0.get("mixed canastas") == 300
    assert s1.get("natural canastas") == 500 and s1.get("mixed canastas") == 600
    assert s0.total == 70 + 80 + 120 + 1000 + 300 + 100
    assert s1.total == 140 + 110 + 70 + 500 + 600


def test_bonus_concealed_additional_100() -> None:
    """wikipedia, Bonus scores: "Going out concealed additional 100"; "A player goes out
    concealed when the player makes their team's initial meld and goes out legally in the same
    turn."."""
    st = meld_turn("K K K K K K K 5")
    out = run(st, "meld K K K", "add K", "add K", "add K", "add K", "discard 5")
    assert out.result.went_out == 0 and out.result.concealed
    s0 = out.result.scores[0]
    assert s0.get("going out") == 100 and s0.get("concealed") == 100
    assert s0.total == 70 + 500 + 100 + 100


def test_concealed_after_taking_the_pile() -> None:
    """wikipedia, Bonus scores: "A player goes out concealed when the player makes their team's
    initial meld and goes out legally in the same turn." (the initial meld made by taking the
    pile counts too)"""
    st = pos("""
        pile = "4 Q"
        [[seats]]
        hand = "Q Q A A A A A A A"
        """)
    st = run(st, "take Q Q", "meld A A A")
    assert st.opened[0] and st.hands[0][4] == 1  # the rest of the pile came in
    out = run(st, "add A", "add A", "add A", "add A", "discard 4")
    assert out.result.went_out == 0 and out.result.concealed
    assert out.result.scores[0].total == 30 + 140 + 500 + 100 + 100


def test_concealed_is_the_teams_initial_meld() -> None:
    """wikipedia, Bonus scores: "A player goes out concealed when the player makes their team's
    initial meld and goes out legally in the same turn." (the partner has melded: not
    concealed, though this player melds for the first time)"""
    st = meld_turn("Q Q Q Q Q Q Q 5", melds0='"K K K"')
    out = run(st, "meld Q Q Q", "add Q", "add Q", "add Q", "add Q", "discard 5")
    assert out.result.went_out == 0 and not out.result.concealed
    assert out.result.scores[0].get("concealed") == 0
    assert out.result.scores[0].total == 30 + 70 + 500 + 100


def test_concealed_still_needs_the_initial_minimum() -> None:
    """wikipedia, Initial melds and Bonus scores: going out concealed is the team's initial
    meld, so "The sum of the values of the cards played in the player's turn must exceed the
    minimum initial meld requirement": 4-4-4-4-4-4-4 (35) cannot go out against 50, but can
    against 15 (team score below 0)."""
    st = meld_turn("4 4 4 4 4 4 4 5")
    assert not legal(st, "meld 4 4 4")
    assert not any(isinstance(a, (Meld, canasta.Add)) for a in st.legal_actions())
    st = meld_turn("4 4 4 4 4 4 4 5", totals="[-100, 0]")
    out = run(st, "meld 4 4 4", "add 4", "add 4", "add 4", "add 4", "discard 5")
    assert out.result.concealed
    assert out.result.scores[0].total == 35 + 500 + 100 + 100


@pytest.mark.parametrize("n,bonus", [(1, 100), (2, 200), (3, 300), (4, 800)])
def test_bonus_red_threes(n: int, bonus: int) -> None:
    """wikipedia, Bonus scores: "Each red three, up to three 100; The fourth red three 500
    (total of 800 for all four red threes)"."""
    st = meld_turn("5", melds0=NAT_CANASTA, melds1='"8 8 8"', red1=n)
    end = st.apply("discard 5")
    assert end.result.scores[1].total == 30 + bonus


@pytest.mark.parametrize("n,bonus", [(1, 100), (2, 200), (3, 300), (4, 800)])
def test_red_threes_subtracted_without_melds(n: int, bonus: int) -> None:
    """wikipedia, The Scoring: "The bonuses for red threes are subtracted from a team's score
    rather than added if the hand ends without that team having made any melds. That is, if a
    team has three red threes but has not made any melds at the end of a hand, the team will
    suffer a penalty of 300 points rather than gaining a 300 point bonus."."""
    st = meld_turn("5", melds0=NAT_CANASTA, red1=n)
    end = st.apply("discard 5")
    assert end.result.scores[1].total == -bonus


def test_scoring_example() -> None:
    """wikipedia, The Scoring, "Scoring Example: At the end of a hand in which the North player
    has gone out (not concealed)". The garbled table read column by column (North-South
    first): red threes 3 3 | 3; melds 3♣ 3♠ 3♠ | 4 4 2; 6 6 6 6 6 6 2 | 7 7 7 7 7 2 Joker;
    9 9 9 9 9 9 9 9 | 10 10 Joker; 10 10 10 | A A A A A; J J J J 2 2 Joker; hands South
    4 5 5 Q K A A, East 2 5 6 10 J J, West 4 4 10 Q Q K K. The black threes must be North's:
    they are melded only when going out. "Hand scores: Mixed Canastas 600 300; Natural
    Canastas 500 0; Red Threes 200 100; Going out 100 0"."""
    # North (seat 0) goes out by melding the black threes, the last play
    st = pos("""
        phase = "meld"
        to_act = 0
        pile = "8 8"
        [[seats]]
        hand = "3b 3b 3b"
        [[seats]]
        hand = "2 5 6 10 J J"
        [[seats]]
        hand = "4 5 5 Q K A A"
        [[seats]]
        hand = "4 4 10 Q Q K K"
        [[sides]]
        melds = ["6 6 6 6 6 6 2", "9 9 9 9 9 9 9 9", "10 10 10", "J J J J 2 2 JK"]
        red_threes = 2
        [[sides]]
        melds = ["4 4 2", "7 7 7 7 7 2 JK", "10 10 JK", "A A A A A"]
        red_threes = 1
        [turn]
        drew = true
        """)
    end = st.apply("meld 3b 3b 3b")
    r = end.result
    assert r.went_out == 0 and not r.concealed
    ns, ew = r.scores
    assert (ns.get("mixed canastas"), ew.get("mixed canastas")) == (600, 300)
    assert (ns.get("natural canastas"), ew.get("natural canastas")) == (500, 0)
    assert (ns.get("red threes"), ew.get("red threes")) == (200, 100)
    assert (ns.get("going out"), ew.get("going out")) == (100, 0)
    # the rest follows from the value table: melded cards minus cards left in hand
    ns_melded = 15 + (30 + 20) + 80 + 30 + (40 + 40 + 50)
    ew_melded = (10 + 20) + (25 + 20 + 50) + (20 + 50) + 100
    assert ns.total == ns_melded - 75 + 600 + 500 + 200 + 100
    assert ew.total == ew_melded - (60 + 60) + 300 + 100
    assert ns.total == 1630 and ew.total == 575


# ================================================================ The game


def test_game_ends_at_5000() -> None:
    """wikipedia, The Scoring: "The game ends when a team's total score reaches 5000 or above.
    The team with the highest total score at this point wins."."""
    st = meld_turn("5", melds0=NAT_CANASTA, totals="[4400, 0]")
    end = st.apply("discard 5")  # +670
    assert end.totals == (5070, 0)
    assert end.is_game_over and end.winners == (0,)
    st = meld_turn("5", melds0=NAT_CANASTA, totals="[4200, 0]")
    end = st.apply("discard 5")
    assert end.totals == (4870, 0)
    assert end.phase is Phase.HAND_OVER and not end.is_game_over


def test_game_highest_total_wins_when_both_pass_5000() -> None:
    """wikipedia, The Scoring: "The team with the highest total score at this point wins." (both
    teams pass 5000 in the last hand; the one that went out is not necessarily the winner)"""
    st = meld_turn("5", melds0=NAT_CANASTA, melds1='"A A A A A A A"', totals="[4400, 4600]")
    end = st.apply("discard 5")  # side 0 +670 = 5070; side 1 +140 +500 = 5240
    assert end.totals == (5070, 5240)
    assert end.is_game_over and end.winners == (1,)
