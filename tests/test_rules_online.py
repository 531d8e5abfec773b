"""Scenario tests: each rule statement of the online variant's source, asked of the engine.

Source: ../shared/rules/sources/online-two-and-four-player.txt (an online Canasta game's
rules page), variant ``online``: four players in two partnerships, or (``players = 2``) two
players who draw two cards. Every test quotes the sentence it checks. Positions are written
in the position format (``load_position``); at four players seats 0 and 2 are side 0, seats 1
and 3 side 1; with the default dealer seat 0 is to act.
"""

from __future__ import annotations

from functools import partial

import pytest

import canasta
from canasta import GameState, IllegalActionError, Meld, Phase, TableMeld, Take, parse_action
from canasta._cards import WILD_RANK

import helpers
from helpers import legal, run, takes, texts

V = "online"
JK, TWO, R3, B3 = 0, 1, 2, 3
VALUE = {"3b": 5, "4": 5, "5": 5, "6": 5, "7": 5, "8": 10, "9": 10, "10": 10, "J": 10, "Q": 10,
         "K": 10, "A": 20, "2": 20, "JK": 50}
"""online, Card Values: "Black 3, 4, 5, 6, 7 = 5 points; 8, 9, 10, J, Q, K = 10 points; Ace, 2 =
20 points; Joker = 50 points; Red 3 = 100 points"."""


# ---------------------------------------------------------------- helpers


pos = partial(helpers.pos, variant=V)


def meld_turn(hand: str, melds0: str = "", melds1: str = "", totals: str = "[0, 0]",
              pile: str = "5 9", red0: int = 0, red1: int = 0, seat1: str = "",
              seat2: str = "", melded0: bool = False, melded2: bool = False) -> GameState:
    """Four players: seat 0 has drawn (meld phase) holding ``hand``; melds are TOML lists."""
    return helpers.turn(V, hand, melds0, melds1, totals=totals, pile=pile, red0=red0, red1=red1,
                        others=(seat1, seat2, ""), melded=(melded0, False, melded2, False))


NAT_CANASTA = '"K K K K K K K"'


# ================================================================ players and deal


def test_four_players_two_teams_partners_across() -> None:
    """online: "Canasta is a card game for four players. Two players sitting across from each
    other form a team, playing against the other two players."."""
    st = canasta.new_game(V, seed=3)
    assert st.players == 4
    assert [st.side_of(s) for s in range(4)] == [0, 1, 0, 1]


@pytest.mark.parametrize("players", [4, 2])
def test_eleven_cards_dealt(players: int) -> None:
    """online, Game Setup: "Each player is dealt eleven cards and one card is put on the discard
    pile." (both the four-player and the two-player game)"""
    for seed in range(5):
        st = canasta.new_game(V, players=players, seed=seed)
        assert [sum(h) for h in st.hands] == [11] * players
        assert st.pile


def test_upcard_joker_two_or_three_is_covered() -> None:
    """online, Game Setup: "If this card is a Joker, 2 or 3, this step is repeated until there is
    a 4 or higher card on the discard pile." The Discard Pile: "blocked (also called frozen),
    if there is a wild card (Joker or 2) in it"; Red 3s: "If a red 3 is in the discard pile at
    the start of the game, the discard pile is blocked"."""
    covered = b3_only = r3_seen = 0
    for seed in range(200):
        st = canasta.new_game(V, seed=seed)
        pile = st.pile
        assert pile[-1] >= 4, (seed, pile)
        assert all(k in (JK, TWO, R3, B3) for k in pile[:-1]), (seed, pile)
        assert st.frozen == any(k in (JK, TWO, R3) for k in pile), (seed, pile)
        covered += len(pile) > 1
        b3_only += len(pile) > 1 and all(k == B3 for k in pile[:-1])
        r3_seen += R3 in pile
    assert covered >= 10 and b3_only >= 1 and r3_seen >= 1  # every case was exercised


def test_two_player_game_sides() -> None:
    """online, Online Game: "Canasta offers two modes for online play: Two-player and
    four-player." (two players play each for himself)"""
    st = canasta.new_game(V, players=2, seed=1)
    assert st.players == 2 and st.sides == 2
    assert [st.side_of(s) for s in range(2)] == [0, 1]


# ================================================================ Player Turns


def test_turn_draw_meld_discard() -> None:
    """online, Player Turns: "On their turn, a player first draws a card. If possible, the
    player may place cards on the table to start a new meld or add to an existing meld. The
    turn ends when the player discards one of the cards in hand on the discard pile."."""
    st = pos("""
        stock = "7 rest"
        [[seats]]
        hand = "7 7 Q 4 6 J"
        [[seats]]
        hand = "4 6 8 9"
        [[sides]]
        melds = ["Q Q Q"]
        """)
    assert "draw" in texts(st)
    assert not any(isinstance(a, (Meld, canasta.Discard)) for a in st.legal_actions())
    st = st.apply("draw")
    assert st.hands[0][7] == 3 and sum(st.hands[0]) == 7  # one card drawn
    st = run(st, "meld 7 7 7", "add Q")
    assert TableMeld(7, 3) in st.melds[0] and TableMeld(12, 4) in st.melds[0]
    st = st.apply("discard J")
    assert st.pile[-1] == 11 and st.current_player == 1 and st.phase is Phase.DRAW


def test_two_player_game_draws_two() -> None:
    """online, Online Game: "The two-player version uses the standard rules and allows the
    player to draw two cards."."""
    st = pos("""
        players = 2
        stock = "8 9 rest"
        [[seats]]
        hand = "4 6 J Q K"
        [[seats]]
        hand = "4 6 J Q K"
        """)
    after = st.apply("draw")
    assert sum(after.hands[0]) == 7
    assert after.hands[0][8] == 1 and after.hands[0][9] == 1
    assert len(after.stock) == len(st.stock) - 2


def test_four_player_game_draws_one() -> None:
    """online, Player Turns: "On their turn, a player first draws a card." Online Game: "The
    four-player version uses the standard rules"."""
    st = pos("""
        stock = "8 9 rest"
        [[seats]]
        hand = "4 6 J Q K"
        """)
    after = st.apply("draw")
    assert sum(after.hands[0]) == 6 and after.hands[0][8] == 1 and after.hands[0][9] == 0


# ================================================================ melds


def test_melds_shared_by_the_team() -> None:
    """online, Player Turns: "Melds are formed from cards of the same rank and shared between
    the two players of the same team." (a player adds to the partner's meld, never to an
    opponent's)"""
    st = meld_turn("7 Q 4 6 8", melds0='"7 7 7"', melds1='"Q Q Q"', melded2=True)
    assert legal(st, "add 7")
    assert not legal(st, "add Q")


def test_meld_needs_three_cards() -> None:
    """online, Player Turns: "To start a meld a player needs at least three cards."."""
    st = meld_turn("7 7 4 6 J", melds0='"Q Q Q"')
    assert not any(isinstance(a, Meld) for a in st.legal_actions())
    st = meld_turn("7 7 7 4 6 J", melds0='"Q Q Q"')
    assert legal(st, "meld 7 7 7")


def test_wild_cards_never_more_than_naturals() -> None:
    """online, Player Turns: "These cards may contain wild cards (Jokers or 2s) but never more
    wild cards than natural cards"."""
    st = meld_turn("7 7 2 2 2 4 6 J", melds0='"Q Q Q"')
    assert legal(st, "meld 7 7 2")
    st = st.apply("meld 7 7 2")
    assert legal(st, "add 2 to 7")  # 7-7-2-2: as many wild cards as naturals
    st = st.apply("add 2 to 7")
    assert not legal(st, "add 2 to 7")  # 7-7-2-2-2: more wild cards than naturals
    st = meld_turn("5 2 2 4 6 J", melds0='"Q Q Q"')
    assert not legal(st, "meld 5 2 2")
    st = meld_turn("JK 4 6 J", melds0='"7 7 2 2"')
    assert not legal(st, "add JK to 7")


def test_never_more_than_three_wild_cards() -> None:
    """online, Player Turns: "and never more than three wild cards per meld"."""
    st = meld_turn("7 7 7 2 2 2 JK 4 6", melds0='"Q Q Q"')
    st = run(st, "meld 7 7 7", "add 2 to 7", "add 2 to 7", "add 2 to 7")
    assert TableMeld(7, 3, 0, 3) in st.melds[0]
    assert not legal(st, "add JK to 7")
    st = meld_turn("JK 4 6 J", melds0='"7 7 7 7 2 2 2"')  # four naturals: the ratio would allow it
    assert not legal(st, "add JK to 7")


def test_meld_of_wild_cards_only() -> None:
    """online, Player Turns: "It is also possible to make a meld of wild cards only."."""
    st = meld_turn("JK JK 2 4 6 J", melds0='"Q Q Q"')
    assert legal(st, "meld JK JK 2")
    after = st.apply("meld JK JK 2")
    assert TableMeld(WILD_RANK, 0, 2, 1) in after.melds[0]
    st = meld_turn("2 2 2 4 6 J", melds0='"Q Q Q"')
    assert legal(st, "meld 2 2 2")


def test_a_meld_of_wild_cards_only_stays_at_three_cards() -> None:
    """online, Player Turns: "never more than three wild cards per meld"; the next sentence ("It
    is also possible to make a meld of wild cards only") lifts the naturals rule, not this cap
    (the variant's melds.wild_meld_max = 3): nothing more goes on a meld of three wild cards, it
    never becomes a canasta, and why_illegal says so."""
    st = meld_turn("JK 2 4 6 J", melds0='"Q Q Q", "JK JK 2"')
    assert not legal(st, "add JK to wild") and not legal(st, "add 2 to wild")
    assert "at most three cards" in st.why_illegal("add JK to wild")
    assert legal(st, "add JK to Q")


def test_wild_meld_scores_its_cards() -> None:
    """online, Player Turns: "It is also possible to make a meld of wild cards only."; Card
    Values "2 = 20 points; Joker = 50 points" (the meld counts for its team)."""
    st = meld_turn("5", melds0=NAT_CANASTA, melds1='"JK JK 2"')
    end = st.apply("discard 5")
    assert end.result.scores[1].total == 50 + 50 + 20


# ================================================================ initial meld


OPEN_CASES = {
    15: ("4 4 4", ["meld 4 4 4"], None),
    50: ("K K K 2", ["meld K K K", "add 2 to K"], ("K K K 5 5 5", "meld K K K")),
    90: ("A A A K K K", ["meld A A A", "meld K K K"], ("A A A 5 5 5 5 5", "meld A A A")),
    120: ("A A A A A A", ["meld A A A", "add A", "add A", "add A"], ("A A A A A 5 5 5", "meld A A A")),
}


@pytest.mark.parametrize("total,need", [(-5, 15), (-500, 15), (0, 50), (1495, 50), (1500, 90),
                                        (2995, 90), (3000, 120), (4995, 120)])
def test_initial_meld_minimum(total: int, need: int) -> None:
    """online, Player Turns: "In order to meld cards in a round for the first time, the player
    must earn a minimum of points with these cards: 50 (for teams with 0 to 1,495 points), 90
    (for teams with 1,500 to 2,995 points), 120 (for teams with 3,000 points or more) or 15
    (for teams with negative total points)." (exactly the minimum is enough; five points fewer
    is not)"""
    st = meld_turn("K K K 4 8", totals=f"[{total}, 0]")
    assert st.initial_need(0) == need
    hand, moves, short = OPEN_CASES[need]
    after = run(meld_turn(hand + " 8 J", totals=f"[{total}, 0]"), *moves)
    assert after.opened[0]
    assert legal(after, "discard J")
    if short is not None:
        st = meld_turn(short[0] + " 8 J", totals=f"[{total}, 0]")
        assert not legal(st, short[1])
        assert not any(isinstance(a, (Meld, canasta.Add)) for a in st.legal_actions())


# ================================================================ card values


@pytest.mark.parametrize("card", sorted(VALUE, key=lambda c: (VALUE[c], c)))
def test_card_values_left_in_hand(card: str) -> None:
    """online, Canastas and Going Out: "Cards in melds score their respective points while each
    card left in hand scores negative points."; Card Values: "Black 3, 4, 5, 6, 7 = 5 points;
    8, 9, 10, J, Q, K = 10 points; Ace, 2 = 20 points; Joker = 50 points"."""
    st = meld_turn("5", melds0=NAT_CANASTA, seat1=card, melds1='"8 8 8"')
    end = st.apply("discard 5")
    assert end.result.scores[1].total == 30 - VALUE[card]


@pytest.mark.parametrize("card", [c for c in VALUE if c not in ("2", "3b", "JK")])
def test_card_values_melded(card: str) -> None:
    """online, Canastas and Going Out: "Cards in melds score their respective points"; Card
    Values (as above), a meld X-X-X-2 or X-X-X-JK."""
    canasta0 = '"8 8 8 8 8 8 8"' if card != "8" else NAT_CANASTA
    for wild in ("2", "JK"):
        st = meld_turn("5", melds0=canasta0, melds1=f'"{card} {card} {card} {wild}"')
        end = st.apply("discard 5")
        assert end.result.scores[1].total == 3 * VALUE[card] + VALUE[wild]


@pytest.mark.parametrize("n,bonus", [(1, 100), (2, 200), (3, 300), (4, 800)])
def test_red_threes_100_each_800_for_four(n: int, bonus: int) -> None:
    """online, Card Values: "Red 3 = 100 points"; Canastas and Going Out: "Red 3s are worth 100
    points each, if the team has melded any cards, or 800 points, if the team has all four red
    3s."."""
    st = meld_turn("5", melds0=NAT_CANASTA, melds1='"8 8 8"', red1=n)
    end = st.apply("discard 5")
    assert end.result.scores[1].total == 30 + bonus


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_red_threes_deduct_100_each_without_melds(n: int) -> None:
    """online, Canastas and Going Out: "If the team has not melded any cards, each red 3
    deducts 100 points from the total score." (each one: 100 per red three, also with all
    four; the 800 is stated only for a team that has melded)"""
    st = meld_turn("5", melds0=NAT_CANASTA, red1=n)
    end = st.apply("discard 5")
    assert end.result.scores[1].total == -100 * n


# ================================================================ taking the discard pile


def test_take_pile_if_top_card_is_used() -> None:
    """online, Taking Cards from the Discard Pile: "Instead of drawing from the stock a player
    may draw his card from the top of the discard pile and take the whole discard pile, if
    they can use that card in one of their melds or start a new meld with at least two other
    cards from their hand."."""
    base = """
        pile = "5 9 7"
        [[seats]]
        hand = "{hand}"
        [[sides]]
        melds = [{melds}]
        """
    st = pos(base.format(hand="7 7 4 6 J", melds='"Q Q Q"'))
    assert takes(st) == {"take 7 7"}
    after = st.apply("take 7 7")
    assert TableMeld(7, 3) in after.melds[0]
    assert after.pile == () and after.hands[0][5] == 1 and after.hands[0][9] == 1
    st = pos(base.format(hand="7 JK 4 6 J", melds='"Q Q Q"'))
    assert takes(st) == {"take 7 JK"}
    st = pos(base.format(hand="4 6 J", melds='"7 7 7"'))
    assert takes(st) == {"take onto 7"}
    st = pos(base.format(hand="7 4 6 J", melds='"Q Q Q"'))
    assert takes(st) == set()
    assert not legal(st, "take 7 7")


def test_pile_blocked_by_a_wild_card_in_it() -> None:
    """online, Taking Cards from the Discard Pile: "The discard pile is blocked (also called
    frozen), if there is a wild card (Joker or 2) in it." ... "A blocked discard pile can only
    be unfrozen by combining its top card with two natural cards from your hand to either
    start a new meld or add to an existing one."."""
    st = meld_turn("JK 4 6 8", melds0='"7 7 7"')
    after = st.apply("discard JK")
    assert after.frozen
    base = """
        pile = "5 2 9 7"
        [[seats]]
        hand = "{hand}"
        [[sides]]
        melds = [{melds}]
        """
    st = pos(base.format(hand="7 JK 4 6", melds='"7 7 7"'))
    assert st.frozen
    assert takes(st) == set()
    assert not legal(st, "take onto 7") and not legal(st, "take 7 JK")
    # two naturals: a new meld ...
    st = pos(base.format(hand="7 7 4 6", melds='"Q Q Q"'))
    assert takes(st) == {"take 7 7"}
    # ... or added to an existing one
    st = pos(base.format(hand="7 7 JK 4 6", melds='"7 7 7"'))
    assert takes(st) == {"take 7 7"}
    after = st.apply("take 7 7")
    assert TableMeld(7, 6) in after.melds[0]
    assert not after.frozen and after.hands[0][TWO] == 1


def test_pile_blocked_for_a_team_that_has_not_melded() -> None:
    """online, Taking Cards from the Discard Pile: "The discard pile is also blocked for a team
    that has not yet melded any cards."."""
    base = """
        to_act = {seat}
        pile = "5 9 K"
        [[seats]]
        hand = "{h0}"
        [[seats]]
        hand = "K JK 4 6"
        [[sides]]
        [[sides]]
        melds = ["8 8 8"]
        """
    st = pos(base.format(seat=0, h0="K JK A A A 4 6"))
    assert not st.frozen
    assert takes(st) == set()
    st = pos(base.format(seat=0, h0="K K A A A 4 6"))
    assert takes(st) == {"take K K"}
    st = pos(base.format(seat=1, h0="K K A A A 4 6"))
    assert "take K JK" in takes(st)


def test_red_three_in_pile_at_start_blocks_it() -> None:
    """online, Red 3s and Black 3s: "If a red 3 is in the discard pile at the start of the
    game, the discard pile is blocked."."""
    seen = 0
    for seed in range(200):
        st = canasta.new_game(V, seed=seed)
        if R3 in st.pile:
            seen += 1
            assert st.frozen, seed
    assert seen >= 1
    # such a pile (the red three covered by a 9) can be taken only with two natural 9s
    base = """
        pile = "3r 9"
        [[seats]]
        hand = "{hand}"
        [[sides]]
        melds = ["9 9 9"]
        """
    st = pos(base.format(hand="9 JK 4 6"))
    assert st.frozen
    assert takes(st) == set()
    st = pos(base.format(hand="9 9 4 6"))
    assert takes(st) == {"take 9 9"}


# ================================================================ red and black threes


def test_drawn_red_three_put_on_table_and_replaced() -> None:
    """online, Red 3s and Black 3s: "3s are special cards in Canasta and cannot normally be
    melded at all. If a player draws a red 3, it is put on the table immediately and the
    player must draw a replacement instead."."""
    st = pos("""
        stock = "3r 9 rest"
        [[seats]]
        hand = "4 6 8 J Q"
        """)
    after = st.apply("draw")
    assert after.red_threes[0] == 1 and after.hands[0][R3] == 0
    assert after.hands[0][9] == 1 and sum(after.hands[0]) == 6


def test_two_player_red_three_replaced_among_two_drawn() -> None:
    """online, Online Game: "allows the player to draw two cards" and Red 3s: "If a player draws
    a red 3, it is put on the table immediately and the player must draw a replacement
    instead."."""
    st = pos("""
        players = 2
        stock = "8 3r 9 rest"
        [[seats]]
        hand = "4 6 J Q K"
        [[seats]]
        hand = "4 6 J Q K"
        """)
    after = st.apply("draw")
    assert after.red_threes[0] == 1
    assert sum(after.hands[0]) == 7 and after.hands[0][8] == 1 and after.hands[0][9] == 1


def test_dealt_red_threes_put_on_table() -> None:
    """online, Red 3s and Black 3s: "3s ... cannot normally be melded at all. If a player draws a
    red 3, it is put on the table immediately and the player must draw a replacement" (read
    for the deal too, VARIANTS.md: "faced and replaced")."""
    faced = 0
    for seed in range(40):
        st = canasta.new_game(V, seed=seed)
        assert all(h[R3] == 0 for h in st.hands)
        assert [sum(h) for h in st.hands] == [11] * 4
        faced += sum(st.red_threes)
    assert faced >= 3


def test_black_threes_only_immediately_before_going_out() -> None:
    """online, Red 3s and Black 3s: "Black 3s can only be melded immediately before going
    out."."""
    st = meld_turn("3b 3b 3b 6 6 6 8", melds0=NAT_CANASTA)
    assert not legal(st, "meld 3b 3b 3b")
    st = st.apply("meld 6 6 6")
    assert legal(st, "meld 3b 3b 3b")
    st = st.apply("meld 3b 3b 3b")
    assert texts(st) == {"discard 8"}
    out = st.apply("discard 8")
    assert out.result.went_out == 0
    st = meld_turn("3b 3b 3b 5 6", melds0=NAT_CANASTA)
    assert not legal(st, "meld 3b 3b 3b")
    st = meld_turn("3b 3b 3b 5", melds0='"K K K K K K"')  # no canasta: may not go out
    assert not legal(st, "meld 3b 3b 3b")


def test_nothing_after_black_threes() -> None:
    """online, Red 3s and Black 3s: "Black 3s can only be melded immediately before going out."
    (nothing else is melded or added after them: the player goes out at once)"""
    st = meld_turn("3b 3b 3b 2", melds0=NAT_CANASTA)
    after = st.apply("meld 3b 3b 3b")
    assert not legal(after, "add 2 to K")
    assert texts(after) == {"discard 2"}


@pytest.mark.parametrize("hand", ["3b 3b 4 6", "3b 3b 3b 4"])
def test_black_three_on_top_never_taken(hand: str) -> None:
    """online, Red 3s and Black 3s: "Black 3s on the top of the discard pile can never be
    taken."."""
    st = pos(f"""
        pile = "7 9 3b"
        [[seats]]
        hand = "{hand}"
        [[sides]]
        melds = ["K K K K K K K"]
        """)
    assert takes(st) == set()
    assert not legal(st, "take 3b 3b")


@pytest.mark.parametrize("top", ["JK", "2"])
def test_wild_card_on_top_never_taken(top: str) -> None:
    """online, Taking Cards from the Discard Pile: "The discard pile is blocked (also called
    frozen), if there is a wild card (Joker or 2) in it." and "A blocked discard pile can
    only be unfrozen by combining its top card with two natural cards": a wild card on top
    has no natural cards to match."""
    st = pos(f"""
        pile = "7 9 {top}"
        [[seats]]
        hand = "JK 2 7 7 9 9"
        [[sides]]
        melds = ["7 7 7"]
        """)
    assert takes(st) == set()


# ================================================================ going out


def test_going_out_needs_a_canasta() -> None:
    """online: "A round lasts until one player is able to put all his cards on the table which
    is called going out. This requires at least one Canasta, a meld consisting of at least
    seven cards." Canastas and Going Out: "This is only allowed, if their team has at least
    one Canasta, a meld consisting of seven or more cards."."""
    st = meld_turn("9 9 9 5", melds0='"K K K K K K"')
    assert not legal(st, "meld 9 9 9")
    st = meld_turn("9 9 9", melds0='"K K K K K K"')
    assert not legal(st, "meld 9 9 9")
    st = meld_turn("K 5", melds0='"K K K K K K"')  # the seventh card makes the canasta
    out = run(st, "add K", "discard 5")
    assert out.result.went_out == 0


def test_last_card_melded_or_discarded() -> None:
    """online, Canastas and Going Out: "To win a round, a player must go out by getting rid of
    all cards in their hand." ... "The last card of a player may be played in a meld or
    discarded."."""
    out = run(meld_turn("9 9 9 5", melds0=NAT_CANASTA), "meld 9 9 9", "discard 5")
    assert out.phase is Phase.HAND_OVER and out.result.went_out == 0
    out = run(meld_turn("9 9 9 K", melds0=NAT_CANASTA), "meld 9 9 9", "add K")
    assert out.phase is Phase.HAND_OVER and out.result.went_out == 0
    assert out.pile == (5, 9)


def test_going_out_bonus_100() -> None:
    """online, Canastas and Going Out: "The team that goes out receives an additional 100
    points."."""
    end = meld_turn("5", melds0=NAT_CANASTA, seat2="4").apply("discard 5")
    s0, s1 = end.result.scores
    assert not end.result.concealed
    assert s0.total == 70 + 500 + 100 - 5
    assert s1.total == 0


def test_concealed_player_not_melded_plays_complete_canasta() -> None:
    """online, Canastas and Going Out: "If the player who goes out has not melded any cards yet
    and manages to play a complete Canasta, they go out concealed, which earns the respective
    team 200 additional points instead." (the player's partner has melded before: the rule is
    about the player)"""
    st = meld_turn("Q Q Q Q Q Q Q 5", melds0='"K K K K K K K"', melded2=True)
    out = run(st, "meld Q Q Q", "add Q", "add Q", "add Q", "add Q", "discard 5")
    assert out.result.went_out == 0 and out.result.concealed
    s0 = out.result.scores[0]
    assert s0.get("going out") + s0.get("concealed") == 200
    assert s0.total == 70 + 70 + 500 + 500 + 200


def test_concealed_initial_meld() -> None:
    """online, Canastas and Going Out: "If the player who goes out has not melded any cards yet
    and manages to play a complete Canasta, they go out concealed, which earns the respective
    team 200 additional points instead." (a team's first meld; the minimum of Player Turns
    still applies: 70 points against 50)"""
    st = meld_turn("Q Q Q Q Q Q Q 5")
    out = run(st, "meld Q Q Q", "add Q", "add Q", "add Q", "add Q", "discard 5")
    assert out.result.concealed
    assert out.result.scores[0].total == 70 + 500 + 200


def test_concealed_after_taking_the_pile() -> None:
    """online, Canastas and Going Out: "If the player who goes out has not melded any cards yet
    and manages to play a complete Canasta, they go out concealed" (the player's first melds
    begin with taking the pile)."""
    st = pos("""
        pile = "4 Q"
        [[seats]]
        hand = "Q Q A A A A A A A"
        """)
    st = run(st, "take Q Q", "meld A A A")
    assert st.opened[0] and st.hands[0][4] == 1
    out = run(st, "add A", "add A", "add A", "add A", "discard 4")
    assert out.result.went_out == 0 and out.result.concealed
    assert out.result.scores[0].total == 30 + 140 + 500 + 200


def test_concealed_needs_a_canasta_of_the_players_own() -> None:
    """online, Canastas and Going Out: concealed only if the player "manages to play a complete
    Canasta": going out by adding to the partner's canasta is not concealed (100 only)."""
    st = meld_turn("K 9 9 9 5", melds0='"K K K K K K K"', melded2=True)
    out = run(st, "add K", "meld 9 9 9", "discard 5")
    assert out.result.went_out == 0 and not out.result.concealed
    s0 = out.result.scores[0]
    assert s0.get("going out") + s0.get("concealed") == 100
    assert s0.total == 80 + 30 + 500 + 100


def test_not_concealed_if_the_player_had_melded() -> None:
    """online, Canastas and Going Out: concealed only if "the player who goes out has not melded
    any cards yet" (this player melded earlier in the round)."""
    st = meld_turn("Q Q Q Q Q Q Q 5", melds0='"K K K"', melded0=True)
    out = run(st, "meld Q Q Q", "add Q", "add Q", "add Q", "add Q", "discard 5")
    assert out.result.went_out == 0 and not out.result.concealed
    assert out.result.scores[0].total == 30 + 70 + 500 + 100


def test_concealed_still_needs_the_minimum() -> None:
    """online, Player Turns: "In order to meld cards in a round for the first time, the player
    must earn a minimum of points with these cards" (going out concealed with the team's
    first meld is no exception: 4-4-4-4-4-4-4 is 35 against 50)."""
    st = meld_turn("4 4 4 4 4 4 4 5")
    assert not legal(st, "meld 4 4 4")
    assert not any(isinstance(a, (Meld, canasta.Add)) for a in st.legal_actions())


# ================================================================ scoring


def test_canasta_bonuses() -> None:
    """online, Canastas and Going Out: "Additionally, the teams receive points for their
    Canstas. Every Canasta with natural cards only is worth 500 points and mixed Canastas that
    include wild cards are worth 300 points."."""
    st = meld_turn("5", melds0='"K K K K K K K", "Q Q Q Q Q Q Q Q"',
                   melds1='"A A A A A 2 2", "9 9 9 9 JK 2 2", "8 8 8 8 8 8"')
    end = st.apply("discard 5")
    s0, s1 = end.result.scores
    assert s0.total == 70 + 80 + 1000 + 100
    assert s1.total == (100 + 40) + (40 + 50 + 40) + 60 + 600


def test_two_player_hand_scores() -> None:
    """online, Online Game: "The two-player version uses the standard rules": the player who
    goes out scores his melds, canasta and going out; the other loses his cards in hand."""
    st = pos("""
        players = 2
        phase = "meld"
        to_act = 0
        [[seats]]
        hand = "9 9 9 5"
        [[seats]]
        hand = "A JK 4"
        [[sides]]
        melds = ["K K K K K K K"]
        [[sides]]
        melds = ["8 8 8"]
        red_threes = 1
        [turn]
        drew = true
        """)
    end = run(st, "meld 9 9 9", "discard 5")
    assert end.result.went_out == 0
    assert [s.total for s in end.result.scores] == [70 + 30 + 500 + 100, 30 + 100 - 75]


# ================================================================ the game


def test_first_team_to_5000() -> None:
    """online: "The goal is to be the first team to reach 5,000 points by putting cards into
    melds on the table."."""
    end = meld_turn("5", melds0=NAT_CANASTA, totals="[4400, 3000]").apply("discard 5")
    assert end.totals == (5070, 3000)
    assert end.is_game_over and end.winners == (0,)
    end = meld_turn("5", melds0=NAT_CANASTA, totals="[4000, 3000]").apply("discard 5")
    assert end.phase is Phase.HAND_OVER
