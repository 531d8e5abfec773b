"""Scenario tests: every documented table other than four players in partnerships.

Sources (in ../shared/rules/sources/):

- hoyle-1950-laws-and-three-pack.txt, variant ``hoyle-1950``: rule 1 ("Canasta may be played by
  two, three, four, five, or six players"), rule 2 (who plays with whom), rule 10 (cards dealt).
- online-two-and-four-player.txt, variant ``online``: the two-player game draws two cards.

The three-pack tables are in ``test_rules_three_pack.py``, the new-canasta tables in
``test_rules_new_canasta.py``. Seats are numbered clockwise: play passes from seat ``s`` to the
seat on its left, ``s + 1``.
"""

from __future__ import annotations

import pytest

import canasta
from canasta import Card, GameState, Phase

from helpers import pos, run

H = "hoyle-1950"


def cards_in_play(st: GameState) -> int:
    """Every card of the deal: hands, down hands, melds, faced red threes, pile and stock."""
    n = sum(sum(h) for h in st.hands) + sum(sum(h) for h in st.down_hands)
    n += sum(m.size + int(m.red_three) for side in st.melds for m in side)
    return n + sum(st.red_threes) + len(st.pile) + len(st.stock)


def after_hand(variant: str, players: int, hand_number: int, dealer: int) -> GameState:
    """The next deal after a finished hand number ``hand_number`` dealt by ``dealer``."""
    over = pos(f"""
        variant = "{variant}"
        players = {players}
        hand_number = {hand_number}
        dealer = {dealer}
        phase = "hand_over"
    """)
    return over.next_hand()


def some_discard(st: GameState) -> canasta.Discard:
    """A legal discard of the current player."""
    return next(a for a in st.legal_actions() if isinstance(a, canasta.Discard))


def play_round(st: GameState, turns: int) -> tuple[GameState, list[int]]:
    """Play ``turns`` turns of draw-and-discard; the seats that played, in order."""
    seats = []
    for _ in range(turns):
        assert st.phase is Phase.DRAW
        seats.append(st.current_player)
        st = st.apply("draw")
        st = st.apply(some_discard(st))
    return st, seats


# ============================================================== player counts


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_rule_1_two_to_six_players_with_108_cards(players):
    """hoyle-1950 rule 1: "Canasta may be played by two, three, four, five, or six players", and
    rule 4: "two regular decks of 52 cards, plus four jokers, all 108 cards being shuffled
    together"."""
    st = canasta.new_game(H, players=players, seed=3)
    assert st.players == players
    assert cards_in_play(st) == 108


@pytest.mark.parametrize(
    ("variant", "players", "allowed"),
    [
        (H, 1, "2, 3, 4, 5, 6"),
        (H, 7, "2, 3, 4, 5, 6"),
        ("three-pack", 7, "2, 3, 4, 5, 6"),
        ("online", 3, "2, 4"),
        ("bicycle", 2, "4"),
        ("wikipedia", 6, "4"),
    ],
)
def test_player_count_the_variant_does_not_allow_is_a_clear_value_error(variant, players, allowed):
    """hoyle-1950 rule 1 allows "two, three, four, five, or six players"; three-pack "may be played
    by any number of players from two to six"; online has "Two-player and four-player" modes;
    bicycle and wikipedia are four-player games. Any other count is refused with a ValueError
    that names the counts the variant allows."""
    with pytest.raises(ValueError) as info:
        canasta.new_game(variant, players=players)
    message = str(info.value)
    assert str(players) in message
    assert allowed in message


# ============================================================== two players


def test_rule_2_two_players_each_plays_for_himself():
    """hoyle-1950 rule 2: "With two or three players each plays for himself"."""
    st = canasta.new_game(H, players=2, seed=1)
    assert st.sides == 2
    assert st.side_of(0) != st.side_of(1)
    assert len(st.totals) == 2


@pytest.mark.parametrize("seed", range(5))
def test_rule_10_two_players_receive_fifteen_cards(seed):
    """hoyle-1950 rule 10: "with two players, each receives fifteen" (the first player's red treys
    are already faced and replaced, rule 14: "to restore his hand")."""
    st = canasta.new_game(H, players=2, seed=seed)
    assert [sum(h) for h in st.hands] == [15, 15]
    assert cards_in_play(st) == 108


def test_rule_18_hoyle_two_player_game_draws_one_card():
    """hoyle-1950 rule 18: "Each turn comprises: a draw, a meld (optional), and a discard"; rule 19:
    the player "may draw the top card of the stock" (the laws do not change the draw for two
    players, VARIANTS.md)."""
    st = pos("""
        variant = "hoyle-1950"
        players = 2
        stock = "9 Q rest"
        [[seats]]
        hand = "4 5 6 7 8 10 J K A 4 5 6 7 8 10"
        [[seats]]
        hand = "4 5 6 7 8 10 J K A 4 5 6 7 8 10"
    """)
    st = st.apply("draw")
    assert sum(st.hands[0]) == 16
    assert st.hands[0][int(Card.NINE)] == 1 and st.hands[0][int(Card.QUEEN)] == 0


def test_online_two_player_game_draws_two_cards():
    """online: "The two-player version uses the standard rules and allows the player to draw two
    cards"."""
    st = pos("""
        variant = "online"
        players = 2
        stock = "9 Q rest"
        [[seats]]
        hand = "4 5 6 7 8 10 J K A 4 5"
        [[seats]]
        hand = "4 5 6 7 8 10 J K A 4 5"
    """)
    st = st.apply("draw")
    assert sum(st.hands[0]) == 13
    assert st.hands[0][int(Card.NINE)] == 1 and st.hands[0][int(Card.QUEEN)] == 1
    st = st.apply("discard 9")
    assert st.current_player == 1 and sum(st.hands[0]) == 12


def test_online_two_players_each_for_himself_eleven_cards():
    """online: "Two-player and four-player"; the two-player version "uses the standard rules"
    (Game Setup: "Each player is dealt eleven cards")."""
    st = canasta.new_game("online", players=2, seed=2)
    assert st.sides == 2 and st.side_of(0) != st.side_of(1)
    assert [sum(h) for h in st.hands] == [11, 11]


def test_rule_2_two_players_alternate_turns():
    """hoyle-1950 rule 2 (two players, each for himself) and rule 8: "the deal rotates to the
    left, clockwise": the two players take turns."""
    st = canasta.new_game(H, players=2, seed=4)
    st, seats = play_round(st, 4)
    assert seats == [0, 1, 0, 1]


# ============================================================== three players


def test_rule_2_three_players_each_plays_for_himself():
    """hoyle-1950 rule 2: "With two or three players each plays for himself"."""
    st = canasta.new_game(H, players=3, seed=1)
    assert st.sides == 3
    assert sorted(st.side_of(s) for s in range(3)) == [0, 1, 2]
    assert len(st.totals) == 3


@pytest.mark.parametrize("seed", range(5))
def test_rule_10_three_players_receive_thirteen_cards(seed):
    """hoyle-1950 rule 10: "When there are three players, each receives thirteen cards"."""
    st = canasta.new_game(H, players=3, seed=seed)
    assert [sum(h) for h in st.hands] == [13, 13, 13]


def test_rule_2_three_players_play_in_turn_clockwise():
    """hoyle-1950 rule 2 (three players, each for himself): turns pass clockwise, every player
    in turn."""
    st = canasta.new_game(H, players=3, seed=5)
    st, seats = play_round(st, 6)
    assert seats == [0, 1, 2, 0, 1, 2]


def test_rule_2_three_players_each_scored_alone():
    """hoyle-1950 rule 2: "each plays for himself": when one goes out, each of the other two is
    charged with his own cards only."""
    st = pos("""
        variant = "hoyle-1950"
        players = 3
        phase = "meld"
        to_act = 0
        [turn]
        drew = true
        [[seats]]
        hand = "9"
        melded = true
        [[seats]]
        hand = "K K"
        [[seats]]
        hand = "4 4 4 JK"
        [[sides]]
        melds = ["Q Q Q Q Q Q Q"]
        [[sides]]
        [[sides]]
    """)
    st = st.apply("discard 9")
    assert st.is_hand_over and st.result.went_out == 0
    left = {s.side: dict((i.name, i.points) for i in s.items)["cards left in hand"] for s in st.result.scores}
    assert left == {0: 0, 1: -20, 2: -65}


# ============================================================== five players


def test_rule_2_five_players_two_partners_against_three():
    """hoyle-1950 rule 2: "With five, two partners are opposed by three"."""
    st = canasta.new_game(H, players=5, seed=1)
    assert st.sides == 2
    sizes = sorted(sum(1 for s in range(5) if st.side_of(s) == side) for side in range(2))
    assert sizes == [2, 3]
    assert len(st.totals) == 2


@pytest.mark.parametrize("seed", range(4))
def test_rule_2_five_players_only_two_of_the_three_play(seed):
    """hoyle-1950 rule 2: "only two of the three play at a time", and rule 10 (the dealer gives
    eleven cards "to each player"): one of the side of three is idle and receives no cards."""
    st = canasta.new_game(H, players=5, seed=seed)
    three = [s for s in range(5) if sum(1 for t in range(5) if st.side_of(t) == st.side_of(s)) == 3]
    idle = [s for s in range(5) if s not in st.active]
    assert len(st.active) == 4 and len(idle) == 1
    assert idle[0] in three
    assert sum(st.hands[idle[0]]) == 0
    assert sorted(sum(st.hands[s]) for s in st.active) == [11, 11, 11, 11]
    assert cards_in_play(st) == 108


def test_rule_2_five_players_a_different_one_of_the_three_idle_each_deal():
    """hoyle-1950 rule 2: "rotating so that a different one of the three is idle each deal"."""
    idles = []
    dealer = 4
    for hand in range(3):
        st = after_hand(H, 5, hand, dealer)
        dealer = st.dealer
        idle = [s for s in range(5) if s not in st.active]
        assert len(idle) == 1 and sum(st.hands[idle[0]]) == 0
        idles.append(idle[0])
    first = canasta.new_game(H, players=5, seed=0)
    three = {s for s in range(5) if first.side_of(s) == first.side_of(idles[0])}
    assert len(three) == 3
    assert len(set(idles)) == 3 and set(idles) == three


@pytest.mark.parametrize("hand_number", [0, 1, 2])
def test_rule_2_five_players_turns_alternate_between_the_sides(hand_number):
    """hoyle-1950 rule 2: two partners opposed by three, two of the three playing at a time: the
    four who play take turns side by side, never two of one side in a row, and the idle
    player never has a turn."""
    st = after_hand(H, 5, hand_number - 1, 4) if hand_number else canasta.new_game(H, players=5, seed=2)
    idle = next(s for s in range(5) if s not in st.active)
    st, seats = play_round(st, 8)
    assert idle not in seats
    assert sorted(seats[:4]) == sorted(st.active)
    assert seats[4:] == seats[:4]
    sides = [st.side_of(s) for s in seats]
    assert all(a != b for a, b in zip(sides, sides[1:]))


def test_rule_2_five_players_side_of_three_scores_as_one_side():
    """hoyle-1950 rule 2: "two partners are opposed by three": the three are one side; when the
    hand ends, the cards of both of its players who played count against that one side, and the
    melds either of them made count for it."""
    st = pos("""
        variant = "hoyle-1950"
        players = 5
        hand_number = 0
        phase = "meld"
        to_act = 0
        [turn]
        drew = true
        [[seats]]
        hand = "9"
        melded = true
        [[seats]]
        [[seats]]
        hand = "4 5"
        [[seats]]
        hand = "K K"
        melded = true
        [[seats]]
        hand = "A JK"
        melded = true
        [[sides]]
        melds = ["Q Q Q Q Q Q Q"]
        [[sides]]
        melds = ["8 8 8"]
    """)
    assert 1 not in st.active
    st = st.apply("discard 9")
    assert st.is_hand_over
    assert len(st.result.scores) == 2
    three = st.result.scores[st.side_of(3)]
    items = {i.name: i.points for i in three.items}
    assert items["cards left in hand"] == -(20 + 20 + 50)
    assert items["melded cards"] == 30
    assert three.total == 30 - 90
    assert st.totals[st.side_of(4)] == 30 - 90


def test_rule_2_five_players_partners_of_the_three_share_melds():
    """hoyle-1950 rule 2 (the three are one side) with rule 26: a player may add to the melds of
    his side: one playing member of the three adds to the other's meld."""
    st = pos("""
        variant = "hoyle-1950"
        players = 5
        hand_number = 0
        phase = "meld"
        to_act = 4
        [turn]
        drew = true
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        [[seats]]
        hand = "4 5 6"
        [[seats]]
        hand = "4 5 6"
        melded = true
        [[seats]]
        hand = "8 9 J"
        [[sides]]
        [[sides]]
        melds = ["8 8 8"]
    """)
    st = st.apply("add 8")
    assert st.melds[1][0].naturals == 4


# ============================================================== six players


def test_rule_2_six_players_three_on_each_side_sitting_alternately():
    """hoyle-1950 rule 2: "With six players, three on each side, partners sit alternately around
    the table"."""
    st = canasta.new_game(H, players=6, seed=1)
    assert st.sides == 2
    sides = [st.side_of(s) for s in range(6)]
    assert sorted(sides) == [0, 0, 0, 1, 1, 1]
    for s in range(6):
        assert sides[s] != sides[(s + 1) % 6]
    assert st.active == tuple(range(6))


@pytest.mark.parametrize("seed", range(3))
def test_rule_10_six_players_receive_eleven_cards(seed):
    """hoyle-1950 rule 10: "The dealer gives eleven cards to each player" (six players: 66 of the
    108 cards)."""
    st = canasta.new_game(H, players=6, seed=seed)
    assert [sum(h) for h in st.hands] == [11] * 6
    assert cards_in_play(st) == 108


def test_rule_2_six_players_turns_alternate_between_the_sides():
    """hoyle-1950 rule 2: partners "sit alternately around the table", and play passes to the
    left: every turn passes to an opponent."""
    st = canasta.new_game(H, players=6, seed=6)
    st, seats = play_round(st, 6)
    assert seats == [0, 1, 2, 3, 4, 5]


def test_rule_2_six_players_three_partners_share_melds_and_score():
    """hoyle-1950 rule 2: "three on each side": any of the three adds to the side's melds, and the
    side is scored as one (the cards of all three count against it)."""
    st = pos("""
        variant = "hoyle-1950"
        players = 6
        phase = "meld"
        to_act = 4
        [turn]
        drew = true
        [[seats]]
        hand = "4 5"
        melded = true
        [[seats]]
        hand = "J J"
        [[seats]]
        hand = "6 7"
        [[seats]]
        hand = "Q"
        [[seats]]
        hand = "K K 9"
        [[seats]]
        hand = "A"
        [[sides]]
        melds = ["K K K K K 2", "8 8 8 8 8 8 8"]
        [[sides]]
    """)
    st = run(st, "add K", "add K", "discard 9")
    assert st.is_hand_over and st.result.went_out == 4
    ours = {i.name: i.points for i in st.result.scores[0].items}
    theirs = {i.name: i.points for i in st.result.scores[1].items}
    assert ours["cards left in hand"] == -(5 + 5 + 5 + 5)
    assert ours["natural canastas"] == 500 and ours["mixed canastas"] == 300
    assert theirs["cards left in hand"] == -(10 + 10 + 10 + 20)


# ============================================================== asking permission


ABLE_TO_GO_OUT = """
    variant = "hoyle-1950"
    players = {players}
    hand_number = 0
    to_act = {seat}
    stock = "9 rest"
    {seats}
    [[sides]]
    melds = ["Q Q Q Q Q Q Q", "K K K"]
"""


@pytest.mark.parametrize("players", [2, 3])
def test_rule_50_no_partner_to_ask_when_each_plays_for_himself(players):
    """hoyle-1950 rule 2: "With two or three players each plays for himself", so rule 50's "a
    player may ask his partner 'May I go out?'" has nobody to ask: a player able to go out just
    plays."""
    seats = '[[seats]]\nhand = "K K"\nmelded = true\n' + '[[seats]]\nhand = "4 5 6"\n' * (players - 1)
    st = pos(ABLE_TO_GO_OUT.format(players=players, seat=0, seats=seats))
    assert {str(a) for a in st.legal_actions()} == {"draw"}
    st = run(st, "draw", "add K", "add K", "discard 9")
    assert st.is_hand_over and st.result.went_out == 0


@pytest.mark.parametrize("seat", [3, 4])
def test_rule_50_five_players_the_partner_asked_is_the_one_playing(seat):
    """hoyle-1950 rule 50: "a player may ask his partner 'May I go out?'"; with five players
    rule 2: "only two of the three play at a time ... a different one of the three is idle": the
    partner who answers is the other one playing this deal, never the idle one."""
    seats = """
    [[seats]]
    hand = "4 5 6"
    [[seats]]
    [[seats]]
    hand = "4 5 6"
    [[seats]]
    hand = "K K"
    melded = true
    [[seats]]
    hand = "K K"
    melded = true
    [[sides]]
    """
    st = pos(ABLE_TO_GO_OUT.format(players=5, seat=seat, seats=seats))
    assert 1 not in st.active
    st = st.apply("ask")
    assert st.phase is Phase.ANSWER
    assert st.current_player == {3: 4, 4: 3}[seat]
