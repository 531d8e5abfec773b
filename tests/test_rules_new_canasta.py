"""Scenario tests: one per rule statement of New Canasta (a Hand-and-Foot game).

Source: ../shared/rules/sources/new-canasta-hand-and-foot.txt (contributed by Justin Eagle),
variant ``new-canasta``. Every test quotes the sentence it checks.

Positions are written in the position format (``load_position``) with three players unless a
test says otherwise; every player plays for himself, so seat ``s`` is side ``s``. A seat's
``hand`` is his "looking" hand (or, once he has picked it up, his "down" hand) and ``down`` the
down hand still lying face down; a seat with ``down = ""`` has already picked up his down hand.
Where the position format cannot express a fact of the deal (who deals, who begins) the tests
use ``new_game`` and ``next_hand``.
"""

from __future__ import annotations

import pytest

import canasta
from canasta import Card, GameState, Phase, TableMeld

from helpers import legal, pos, rows, run, takes

V = "new-canasta"
JK, TWO, R3, B3 = 0, 1, 2, 3
K = int(Card.KING)
Q = int(Card.QUEEN)
DOWN = "4 4 5 5 6 6 7 7 8 8 9"  # an eleven-card down hand nobody has picked up yet


def load(body: str, players: int = 3) -> GameState:
    """A new-canasta position from the TOML ``body`` (variant and player lines are added)."""
    return pos(body, V, players)


def meld_turn(hand: str, melds: str = "[]", down: str = "", total: int = 0, melded: bool = True,
              players: int = 3, others: str = "") -> GameState:
    """Seat 0 has drawn (meld phase) holding ``hand``; ``melds`` is a TOML list of his melds."""
    return load(f"""
        totals = [{total}{", 0" * (players - 1)}]
        phase = "meld"
        to_act = 0
        [turn]
        drew = true
        [[seats]]
        hand = "{hand}"
        down = "{down}"
        melded = {str(melded).lower()}
        {others}
        [[sides]]
        melds = {melds}
    """, players)


def draw_turn(hand: str, pile: str, melds: str = "[]", down: str = "", took_last: bool = False,
              total: int = 0) -> GameState:
    """Seat 0 to begin his turn holding ``hand``, with the discard pile ``pile`` (top last)."""
    return load(f"""
        totals = [{total}, 0, 0]
        to_act = 0
        pile = "{pile}"
        [[seats]]
        hand = "{hand}"
        down = "{down}"
        took_last = {str(took_last).lower()}
        melded = {"true" if melds != "[]" else "false"}
        [[sides]]
        melds = {melds}
    """)


def items(st: GameState, seat: int) -> dict[str, int]:
    """The hand's score items of ``seat`` by name."""
    return rows(st, st.side_of(seat))


def names(st: GameState, seat: int) -> list[str]:
    """The hand's score item names of ``seat`` in the order they are scored."""
    return [i.name for i in st.result.scores[st.side_of(seat)].items]


def cards(text: str) -> tuple[int, ...]:
    """Counts per card kind of the space-separated cards ``text``."""
    out = [0] * 15
    for tok in text.split():
        out[int(Card.parse(tok))] += 1
    return tuple(out)


def after_hand(players: int, hand_number: int, dealer: int) -> GameState:
    """The deal after hand ``hand_number`` dealt (looking hands) by ``dealer``."""
    return load(f"""
        hand_number = {hand_number}
        dealer = {dealer}
        phase = "hand_over"
    """, players).next_hand()


def some_discard(st: GameState) -> canasta.Discard:
    return next(a for a in st.legal_actions() if isinstance(a, canasta.Discard))


def total_cards(st: GameState) -> list[int]:
    """Count of each card kind in the deal."""
    counts = [0] * 15
    for h in list(st.hands) + list(st.down_hands):
        for k, n in enumerate(h):
            counts[k] += n
    for k in st.pile + st.stock:
        counts[k] += 1
    return counts


# ================================================================ players, cards, deal


@pytest.mark.parametrize("players", [2, 3, 5, 7])
def test_one_deck_per_player_plus_one(players):
    """new-canasta: "Several standard 54 card decks (52 cards plus 2 jokers) are used. You will need
    one deck of cards per player and an additional deck as well"."""
    st = canasta.new_game(V, players=players, seed=1)
    counts = total_cards(st)
    decks = players + 1
    assert sum(counts) == 54 * decks
    assert counts[JK] == 2 * decks
    assert counts[TWO] == 4 * decks and counts[R3] == 2 * decks and counts[B3] == 2 * decks
    assert all(counts[k] == 4 * decks for k in range(4, 15))


@pytest.mark.parametrize("players", [3, 5, 6])
def test_eleven_looking_and_eleven_down_cards(players):
    """new-canasta: "The deal for both "looking" and "down" hands is 11 cards each"."""
    st = canasta.new_game(V, players=players, seed=2)
    assert [sum(h) for h in st.hands] == [11] * players
    assert [sum(h) for h in st.down_hands] == [11] * players


def test_every_player_for_himself():
    """new-canasta: "There are no partnerships in New Canasta"."""
    st = canasta.new_game(V, players=5, seed=0)
    assert st.sides == 5
    assert sorted(st.side_of(s) for s in range(5)) == [0, 1, 2, 3, 4]


def _upcard_seed(pred) -> GameState:
    for seed in range(3000):
        st = canasta.new_game(V, players=3, seed=seed)
        if pred(st):
            return st
    raise AssertionError("no such deal among the seeds tried")


@pytest.mark.parametrize("first", [JK, TWO, B3, R3])
def test_upcard_wild_or_three_gets_one_more_card_on_top(first):
    """new-canasta: "If the turned up card is a wild card, Black 3, or Red 3, a second card is
    turned face up and placed on top of it"."""
    st = _upcard_seed(lambda s: s.pile[0] == first)
    assert len(st.pile) == 2


def test_upcard_covered_by_one_card_only():
    """new-canasta: "a second card is turned face up and placed on top of it": one card, even
    when that second card is itself a wild card or a three."""
    st = _upcard_seed(lambda s: len(s.pile) > 1 and s.pile[1] in (JK, TWO, R3, B3))
    assert len(st.pile) == 2


def test_upcard_four_or_higher_stays_alone():
    """new-canasta: only "If the turned up card is a wild card, Black 3, or Red 3" is a second card
    turned up."""
    st = _upcard_seed(lambda s: s.pile[0] >= 4)
    assert len(st.pile) == 1


def test_down_hand_out_of_play_until_the_looking_hand_is_played():
    """new-canasta: "they place the "down" hand to their right face down out of play, without
    looking at it, and look at their "looking" hand": the down hand's cards cannot be melded
    while looking cards remain."""
    st = meld_turn("9 8 7", melds='["Q Q Q"]', down="A A A 4 5 6 7 8 9 10 J")
    assert not legal(st, "meld A A A")
    assert {str(a) for a in st.legal_actions()} == {"discard 9", "discard 8", "discard 7"}


def test_first_player_may_take_the_pile_on_his_first_turn():
    """new-canasta: the first player "draws two cards from the 4 draw piles and discards 1 card ...
    (or he has the option, as in later turns, to pick up the discard pile and to put down meld if
    able to)"."""
    for seed in range(3000):
        st = canasta.new_game(V, players=3, seed=seed)
        top = st.pile[-1]
        if top >= 4 and st.hands[st.current_player][top] >= 2:
            break
    else:  # pragma: no cover
        raise AssertionError("no deal gives the first player a pair of the upcard")
    assert takes(st) == {f"take {Card(top)} {Card(top)}"}
    assert legal(st, "draw")


# ================================================================ dealers and score keeper


def _deals(players: int, count: int) -> list[GameState]:
    st = canasta.new_game(V, players=players, seed=0)
    out = [st]
    for hand in range(count - 1):
        st = after_hand(players, hand, st.dealer)
        out.append(st)
    return out


@pytest.mark.parametrize("players", [3, 5, 6])
def test_score_keeper_never_deals_nor_begins_play(players):
    """new-canasta: "The turn to deal passes clockwise around the table, but skips the Score Keeper
    who plays, but never deals" and "The Score Keeper never deals or begins play": over a full
    round of deals exactly one seat never deals, and it never plays first."""
    deals = _deals(players, 2 * players)
    dealers = {st.dealer for st in deals}
    assert len(dealers) == players - 1
    keeper = next(s for s in range(players) if s not in dealers)
    assert all(st.current_player != keeper for st in deals)


@pytest.mark.parametrize("players", [3, 5, 6])
def test_down_hand_dealer_deals_the_looking_hands_next(players):
    """new-canasta: "One person deals all the "looking" hands and the person to the left of him
    deals all the "down" hands ... the dealer who dealt the "down" hands in a certain round will
    deal the "looking" hands in the next round": the looking dealer moves one seat to the left
    each deal, skipping the score keeper."""
    deals = _deals(players, 2 * players)
    dealers = {st.dealer for st in deals}
    keeper = next(s for s in range(players) if s not in dealers)

    def left(s: int) -> int:
        s = (s + 1) % players
        return (s + 1) % players if s == keeper else s

    for a, b in zip(deals, deals[1:]):
        assert b.dealer == left(a.dealer)


@pytest.mark.parametrize("players", [3, 5, 6])
def test_player_left_of_the_down_dealer_begins(players):
    """new-canasta: "When the player to the left of the person who dealt the "down" hands is ready,
    he or she draws two cards", and "When the player to the right of the Score Keeper deals the
    "down" hand, the player to the left of the Score Keeper will begin play"."""
    deals = _deals(players, 2 * players)
    dealers = {st.dealer for st in deals}
    keeper = next(s for s in range(players) if s not in dealers)

    def left(s: int) -> int:
        s = (s + 1) % players
        return (s + 1) % players if s == keeper else s

    for st in deals:
        down_dealer = left(st.dealer)
        assert st.current_player == left(down_dealer)


def test_score_keeper_plays():
    """new-canasta: the Score Keeper "plays, but never deals"; "The turn to play passes clockwise
    around the table"."""
    st = canasta.new_game(V, players=5, seed=3)
    seats = []
    for _ in range(5):
        seats.append(st.current_player)
        st = st.apply("draw")
        st = st.apply(some_discard(st))
    assert sorted(seats) == [0, 1, 2, 3, 4]
    assert all(b == (a + 1) % 5 for a, b in zip(seats, seats[1:]))


def test_precise_dealer_draw_scores_100():
    """new-canasta: "A dealer who is successful in this receives a 100 point bonus" (Scoring
    Values: "Precise Dealer Draw = 100 points")."""
    st = canasta.new_game(V, players=3, seed=5, precise_draws=(0,))
    assert st.precise == (0,)
    # play on with draw-and-discard until the hand ends (the stock runs out)
    for _ in range(400):
        if st.is_hand_over:
            break
        if st.phase is Phase.DRAW:
            st = st.apply("draw") if st.stock else st.apply("pass")
        else:
            d = some_discard(st) if any(isinstance(a, canasta.Discard) for a in st.legal_actions()) else "done"
            st = st.apply(d)
    assert st.is_hand_over
    assert items(st, 0)["precise dealer draw"] == 100
    assert "precise dealer draw" not in items(st, 1)


# ================================================================ the turn


def test_draw_two_and_discard_one():
    """new-canasta: "he can simply draw 2 cards from the draw piles and discard one card to the
    discard pile"."""
    st = load(f"""
        to_act = 0
        pile = "5"
        stock = "9 Q rest"
        [[seats]]
        hand = "4 6 7 8 10 J K A 4 6 7"
        down = "{DOWN}"
    """)
    st = st.apply("draw")
    assert sum(st.hands[0]) == 13
    assert st.hands[0][int(Card.NINE)] == 1 and st.hands[0][Q] == 1
    st = st.apply("discard 9")
    assert sum(st.hands[0]) == 12 and st.pile[-1] == int(Card.NINE)
    assert st.current_player == 1


def test_no_pile_after_drawing_two():
    """new-canasta: "If a player draws two cards from the piles, that player may not pick up the
    discard pile (Deck) in that turn"."""
    st = draw_turn("K K 9 8", "5 K", melds='["Q Q Q"]', down=DOWN)
    assert takes(st) == {"take K K"}
    st = st.apply("draw")
    assert not takes(st)


def test_discard_ends_the_turn():
    """new-canasta: "Once a player has discarded a card to the discard pile, his/her turn is over"."""
    st = meld_turn("K K K 9 9", melds='["Q Q Q"]', down=DOWN)
    st = st.apply("discard 9")
    assert st.current_player == 1 and st.phase is Phase.DRAW


# ================================================================ melds


def test_meld_is_three_or_more_of_a_rank():
    """new-canasta: "A meld is a set of 3 or more cards of the same denomination"."""
    st = meld_turn("K K Q 9 8 7", melds='["A A A"]', down=DOWN)
    assert not any(isinstance(a, canasta.Meld) for a in st.legal_actions())
    st = meld_turn("K K K 9 8 7", melds='["A A A"]', down=DOWN)
    assert legal(st, "meld K K K")


def test_meld_more_naturals_than_wild_cards():
    """new-canasta: "Each meld must contain more "natural" cards than wild cards"; "It is also
    possible to meld with 2 Kings and a Joker"."""
    st = meld_turn("K K JK 2 9 8", melds='["A A A"]', down=DOWN)
    assert legal(st, "meld K K JK")
    st = run(st, "meld K K JK")
    assert not legal(st, "add 2 to K")
    st = meld_turn("K 2 9 8", melds='["A A A", "K K K JK"]', down=DOWN)
    assert legal(st, "add 2 to K")
    st = meld_turn("JK 9 8", melds='["A A A", "K K K JK 2"]', down=DOWN)
    assert not legal(st, "add JK to K")


def test_black_canasta_has_at_most_three_wild_cards():
    """new-canasta: "A black Canasta may only contain three or fewer wild cards": four naturals
    and three wild cards make a black canasta worth 300."""
    st = meld_turn("2 9 8", melds='["A A A", "K K K K JK 2"]', down=DOWN)
    st = st.apply("add 2 to K")
    meld = st.melds[0][1]
    assert meld == TableMeld(K, 4, 1, 2)


def test_no_meld_of_wild_cards_only():
    """new-canasta: "You cannot meld a set consisting entirely of wild cards"."""
    st = meld_turn("JK JK 2 2 9 8", melds='["A A A"]', down=DOWN)
    for m in ("meld JK JK 2", "meld JK 2 2", "meld 2 2 JK"):
        assert not legal(st, m)
    assert not any(isinstance(a, canasta.Meld) for a in st.legal_actions())


def test_threes_cannot_be_melded_in_the_ordinary_way():
    """new-canasta: "Threes cannot be melded in the ordinary way"; "you cannot meld black 3's or
    red 3's"; "Red threes can never be made into a Canasta"."""
    st = meld_turn("3b 3b 3b 3r 3r 3r 9 8", melds='["A A A"]', down=DOWN)
    assert not legal(st, "meld 3b 3b 3b")
    assert not legal(st, "meld 3r 3r 3r")
    assert not any(isinstance(a, canasta.Meld) for a in st.legal_actions())


def test_two_melds_of_one_rank_allowed():
    """new-canasta: "However, two melds of the same denomination are allowed"."""
    st = meld_turn("K K K 9 8", melds='["K K K K"]', down=DOWN)
    st = st.apply("meld K K K")
    assert [m.rank for m in st.melds[0]] == [K, K]


def test_new_meld_of_a_rank_whose_canasta_is_closed():
    """new-canasta: "Once a Canasta has been made, no further cards may be added to it" and "two
    melds of the same denomination are allowed": more queens start a new meld beside the queen
    canasta."""
    st = meld_turn("Q Q Q 9 8", melds='["Q Q Q Q Q Q Q"]', down=DOWN)
    assert not legal(st, "add Q")
    st = st.apply("meld Q Q Q")
    assert st.melds[0] == (TableMeld(Q, 7), TableMeld(Q, 3))


def test_canasta_is_exactly_seven_and_closed():
    """new-canasta: "Canastas are sets of 7 cards" and "Once a Canasta has been made, no further
    cards may be added to it"."""
    st = meld_turn("K K Q JK 2 9", melds='["K K K K K", "Q Q Q Q Q Q 2"]', down=DOWN)
    st = run(st, "add K", "add K")
    assert st.melds[0][0].size == 7
    for a in ("add JK to K", "add 2 to K", "add Q", "add JK to Q", "add 2 to Q"):
        assert not legal(st, a), a


# ================================================================ canasta values and red threes


def _caught_by_seat_1(seat0_hand: str, seat0_melds: str, seat1_hand: str = "9",
                      seat1_melds: str = '["A A A A A A A", "K K K K K K K"]', totals: str = "[0, 0, 0]",
                      seat2_hand: str = "4") -> GameState:
    """Seat 1 goes out by discarding his last card; seat 0 is caught."""
    return load(f"""
        totals = {totals}
        phase = "meld"
        to_act = 1
        [turn]
        drew = true
        [[seats]]
        hand = "{seat0_hand}"
        melded = true
        [[seats]]
        hand = "{seat1_hand}"
        melded = true
        [[seats]]
        hand = "{seat2_hand}"
        [[sides]]
        melds = {seat0_melds}
        [[sides]]
        melds = {seat1_melds}
        [[sides]]
    """).apply(f"discard {seat1_hand.split()[-1]}")


def test_red_canasta_500_black_canasta_300():
    """new-canasta: "A red Canasta is worth 500 points" and "Black Canastas ... are worth 300
    points"; Scoring Values: "Red (natural) Canasta = 500 points", "Black Canasta = 300
    points"."""
    st = _caught_by_seat_1("4", '["Q Q Q Q Q Q Q", "J J J J 2 2 JK", "10 10 10 10 10 10 10"]')
    got = items(st, 0)
    assert got["natural canastas"] == 1000
    assert got["mixed canastas"] == 300


def test_red_three_added_to_a_complete_natural_canasta():
    """new-canasta: "When a natural Canasta is complete, a single Red Three may be added to it (but
    not more than one per Canasta)"; "red threes can only be added to complete red canastas"."""
    st = meld_turn("3r 3r 9 8", melds='["Q Q Q Q Q Q Q", "J J J J J J 2", "A A A A A A", "5 5 5 5 5 5 5 3r"]',
                   down=DOWN)
    assert legal(st, "add 3r to Q")
    assert not legal(st, "add 3r to J")  # a black canasta
    assert not legal(st, "add 3r to A")  # not complete
    assert not legal(st, "add 3r to 5")  # already has one
    st = st.apply("add 3r to Q")
    assert st.melds[0][0].red_three
    assert not legal(st, "add 3r to Q")


def test_natural_canasta_with_red_three_worth_1000():
    """new-canasta: "A natural Canasta topped with a Red 3 is worth 1,000 points"; "After scoring
    the Canastas, any Red 3's are discarded from all Red Canastas and are not counted for
    points"."""
    st = _caught_by_seat_1("4", '["Q Q Q Q Q Q Q 3r", "10 10 10 10 10 10 10"]')
    got = items(st, 0)
    assert got["red three canastas"] == 1000
    assert got["natural canastas"] == 500
    assert got["melded cards"] == 140
    assert got["cards left in hand"] == -5
    assert "red threes in hand" not in got


def test_red_three_kept_in_hand_when_drawn():
    """new-canasta: red threes are not faced: "If a player is holding a Red 3" ... "still in a
    player's hand"; a red three drawn stays in the hand (there is no replacement)."""
    st = load(f"""
        to_act = 0
        pile = "5"
        stock = "3r 9 rest"
        [[seats]]
        hand = "4 6 7 8 10 J K A 4 6 7"
        down = "{DOWN}"
    """)
    st = st.apply("draw")
    assert st.hands[0][R3] == 1 and st.hands[0][int(Card.NINE)] == 1
    assert sum(st.hands[0]) == 13
    assert st.red_threes == (0, 0, 0)


def test_red_three_in_a_dealt_hand_stays_there():
    """new-canasta: red threes are kept in the hand, not faced at the start of play: a dealt red
    three is still in the first player's hand at his first turn."""
    for seed in range(300):
        st = canasta.new_game(V, players=3, seed=seed)
        if st.hands[st.current_player][R3]:
            break
    else:  # pragma: no cover
        raise AssertionError("no seed deals a red three to the first player")
    assert sum(st.hands[st.current_player]) == 11
    assert sum(st.red_threes) == 0


def test_red_three_may_be_discarded_and_blocks_the_pile():
    """new-canasta: "The only time a player is prevented from picking up the Deck is when the
    previous player discards a wild card, a Black 3, or a Red 3"; a turn of "discarding one card
    - a good opportunity to get rid of a Red Three"."""
    st = load(f"""
        phase = "meld"
        to_act = 0
        pile = "K"
        [turn]
        drew = true
        [[seats]]
        hand = "3r 9 8"
        down = "{DOWN}"
        [[seats]]
        hand = "K K 5 6"
        melded = true
        [[sides]]
        [[sides]]
        melds = ["Q Q Q"]
    """)
    st = st.apply("discard 3r")
    assert st.current_player == 1 and st.pile[-1] == R3
    assert not takes(st)


def test_red_threes_caught_in_hand_minus_500_each():
    """new-canasta: "If a player is "caught" with Red 3's, (that is, they have not been placed on
    any "Natural" Canasta, but are still in a player's hand) they are always 500 points each "To
    the Bad"."""
    st = _caught_by_seat_1("3r 3r 4", '["Q Q Q"]')
    got = items(st, 0)
    assert got["red threes in hand"] == -1000
    assert st.result.scores[0].total == 30 - 5 - 1000


# ================================================================ black threes


def test_seven_black_threes_a_canasta_when_going_out_worth_nothing():
    """new-canasta: "When a player is trying to "Go Out", he may exceptionally meld 7 black 3's to
    make a Canasta ... This Canasta is not worth any points, and is only useful for "Going
    Out""; Scoring Values: "Black 3's = 0 points each"."""
    st = meld_turn("3b 3b 3b 3b 3b 3b 3b", melds='["Q Q Q Q Q Q Q", "J J J J J J J"]')
    st = st.apply("meld 3b 3b 3b 3b 3b 3b 3b")
    assert st.is_hand_over and st.result.went_out == 0
    got = items(st, 0)
    assert got.get("black three canastas", 0) == 0
    assert got["melded cards"] == 140
    assert got["natural canastas"] == 1000 and got["going out"] == 100


def test_black_threes_not_melded_unless_going_out():
    """new-canasta: "Black threes can only be melded as a canasta when going out"."""
    st = meld_turn("3b 3b 3b 3b 3b 3b 3b 9 8", melds='["Q Q Q Q Q Q Q", "J J J J J J J"]')
    assert not legal(st, "meld 3b 3b 3b 3b 3b 3b 3b")


def test_black_three_canasta_is_seven_cards():
    """new-canasta: "he may exceptionally meld 7 black 3's to make a Canasta": not three, not
    six."""
    st = meld_turn("3b 3b 3b 3b 3b 3b", melds='["Q Q Q Q Q Q Q", "J J J J J J J"]')
    assert not legal(st, "meld 3b 3b 3b")
    assert not legal(st, "meld 3b 3b 3b 3b 3b 3b")
    assert not any(isinstance(a, canasta.Meld) for a in st.legal_actions())


def test_black_three_canasta_must_be_the_last_seven_cards():
    """new-canasta: "The Canasta of black 3's must not contain any wild cards and must be the last
    7 cards in the player's hand": other melds first, the black threes last."""
    st = meld_turn("3b 3b 3b 3b 3b 3b 3b A A A", melds='["Q Q Q Q Q Q Q", "J J J J J J J"]')
    assert not legal(st, "meld 3b 3b 3b 3b 3b 3b 3b")
    st = st.apply("meld A A A")
    st = st.apply("meld 3b 3b 3b 3b 3b 3b 3b")
    assert st.is_hand_over and st.result.went_out == 0


def test_black_three_canasta_is_the_play_that_goes_out_with_no_discard_after():
    """new-canasta: the canasta of black 3's "must be the last 7 cards in the player's hand": it
    cannot be melded while a card would be left to discard after it (the variant's
    black_threes.meld = "last_cards"), and why_illegal says so."""
    st = meld_turn("3b 3b 3b 3b 3b 3b 3b 9", melds='["Q Q Q Q Q Q Q", "J J J J J J J"]')
    assert not legal(st, "meld 3b 3b 3b 3b 3b 3b 3b")
    assert "last cards of your hand" in st.why_illegal("meld 3b 3b 3b 3b 3b 3b 3b")
    assert legal(st, "discard 9")


def test_no_canasta_anywhere_in_the_turn_of_the_initial_meld():
    """new-canasta: "you cannot meld a Canasta (a set of seven cards of the same denomination)
    for an initial meld"; the melds of the whole turn count toward it, so no meld reaches seven
    cards anywhere in that turn (melds.initial_canasta = "never"), even after the minimum is
    met: 4 4 4 4 4 plus a joker is six cards, and the last joker may not go on it."""
    st = meld_turn("4 4 4 4 4 JK JK 9 9 K", total=0, melded=False)
    st = run(st, "meld 4 4 4", "add 4", "add 4", "add JK to 4")  # 20 + 5 + 5 + 50: the 50 is met
    assert st.opened[0]
    assert not legal(st, "add JK to 4")
    assert "may not be part of an initial meld" in st.why_illegal("add JK to 4")


def test_the_initial_meld_may_split_a_rank_into_two_melds():
    """new-canasta: "two melds of the same denomination are allowed", and no meld of an initial
    meld may be a canasta: seven queens toward a minimum of 210 are two melds, 4 and 3, not
    six on one meld and a stranded seventh (a position where every action used to be refused)."""
    st = load("""
        totals = [9395, 0, 0]
        phase = "meld"
        to_act = 0
        [turn]
        drew = true
        count = 145
        melded = true
        [[seats]]
        hand = "4 6 8 Q Q Q Q Q Q Q A"
        melded = true
        [[sides]]
        melds = ["10 10 10 JK 2", "J J J", "7 7 7"]
        opened = false
    """, 3)
    assert st.initial_need(0) == 210
    assert legal(st, "meld Q Q Q")
    st = run(st, "meld Q Q Q", "meld Q Q Q", "add Q")
    assert st.opened[0] and st.turn.count == 215
    assert all(m.size < 7 for m in st.melds[0])


def test_black_threes_caught_in_hand_count_nothing():
    """new-canasta: "If a player is caught with Black 3's in his hand, the 3's do not count against
    him"."""
    st = _caught_by_seat_1("3b 3b 9", '["Q Q Q"]')
    assert items(st, 0)["cards left in hand"] == -10


# ================================================================ card values and initial meld


@pytest.mark.parametrize(
    ("card", "value"),
    [("4", 5), ("7", 5), ("8", 10), ("K", 10), ("A", 20), ("2", 20), ("JK", 50), ("3b", 0)],
)
def test_card_values_to_the_bad(card, value):
    """new-canasta: "Black 3's = 0 points each; 4's through 7's = 5 points each; 8's through Kings
    = 10 points each; Aces and 2's = 20 points each; Jokers = 50 points each"."""
    st = _caught_by_seat_1(f"{card} 10", '["Q Q Q"]')
    assert items(st, 0)["cards left in hand"] == -(value + 10)


@pytest.mark.parametrize(
    ("total", "need"),
    [(-5, 15), (0, 50), (1500, 50), (1501, 90), (3000, 90), (3001, 120), (5000, 120), (5001, 150),
     (7000, 150), (7001, 210), (9995, 210)],
)
def test_initial_meld_by_own_score(total, need):
    """new-canasta: "Below 0 = 15; 0 to 1500 = 50; 1,501 to 3,000 = 90; 3,001 to 5,000 = 120;
    5,001 to 7,000 = 150; 7,001 to 10,000 = 210", by "A player's current score as at the end of
    the previous hand"."""
    st = load(f"""
        totals = [{total}, 1600, -10]
        [[seats]]
        hand = "4 5 6"
    """)
    assert st.initial_need(0) == need
    assert st.initial_need(1) == 90 and st.initial_need(2) == 15


@pytest.mark.parametrize(
    ("hand", "low", "high"),
    [
        ("4 4 4 8 10 Q", -5, 0),                                # 15
        ("K K K K K 8 9 Q", 1500, 1501),                       # 50
        ("A A A K K K 8 9", 3000, 3001),                       # 90
        ("A A A A K K K K 8 9", 5000, 5001),                   # 120
        ("A A A A A K K K K K 8 9", 7000, 7001),               # 150
    ],
)
def test_initial_meld_boundaries(hand, low, high):
    """new-canasta: "0 to 1500 = 50; 1,501 to 3,000 = 90; 3,001 to 5,000 = 120; 5,001 to 7,000 =
    150; 7,001 to 10,000 = 210" (and "Below 0 = 15"): a hand that melds exactly the minimum at
    the top of one band cannot meld one point above it."""
    st = meld_turn(hand, down=DOWN, total=low, melded=False)
    assert any(isinstance(a, canasta.Meld) for a in st.legal_actions())
    st = meld_turn(hand, down=DOWN, total=high, melded=False)
    assert not any(isinstance(a, canasta.Meld) for a in st.legal_actions())


def test_initial_meld_210_from_7001():
    """new-canasta: "7,001 to 10,000 = 210"."""
    full = "A A A A JK K K K K K Q Q Q 8 9"  # 130 + 50 + 30 = 210
    short = "A A A A JK K K K K K Q Q 8 9"   # 180
    st = meld_turn(full, down=DOWN, total=7001, melded=False)
    st = run(st, "meld A A A", "add A", "add JK to A", "meld K K K", "add K", "add K", "meld Q Q Q")
    assert st.opened[0]
    st = meld_turn(short, down=DOWN, total=7001, melded=False)
    assert not any(isinstance(a, canasta.Meld) for a in st.legal_actions())


def test_initial_meld_cannot_be_a_canasta():
    """new-canasta: "you cannot meld a Canasta (a set of seven cards of the same denomination) for
    an initial meld": while the minimum is not yet met the seventh king may not be added."""
    st = meld_turn("K K K K K K K A A A 8 9", down=DOWN, total=2000, melded=False)  # needs 90
    st = run(st, "meld K K K", "add K", "add K", "add K")
    assert st.melds[0][0].size == 6 and not st.opened[0]
    assert not legal(st, "add K")
    st = st.apply("meld A A A")
    assert st.opened[0]


def test_initial_meld_of_several_melds():
    """new-canasta: "a player may lay down three Kings and four 5's for an initial meld of 50"."""
    st = meld_turn("K K K 5 5 5 5 9 8", down=DOWN, total=0, melded=False)
    st = run(st, "meld K K K", "meld 5 5 5", "add 5")
    assert st.opened[0]
    assert legal(st, "discard 9")


# ================================================================ the discard pile


def test_pile_never_frozen_by_a_wild_card_in_it():
    """new-canasta: "There is also no "freezing of the Deck"": a wild card inside the pile does not
    stop a natural pair from taking it."""
    st = draw_turn("K K 9 8", "4 JK 2 3r K", melds='["Q Q Q"]', down=DOWN)
    assert takes(st) == {"take K K"}


@pytest.mark.parametrize("top", ["JK", "2", "3b", "3r"])
def test_pile_blocked_by_wild_black_three_or_red_three_on_top(top):
    """new-canasta: "The only time a player is prevented from picking up the Deck is when the
    previous player discards a wild card, a Black 3, or a Red 3"."""
    hand = {"JK": "JK JK 9 8", "2": "2 2 9 8", "3b": "3b 3b 9 8", "3r": "3r 3r 9 8"}[top]
    st = draw_turn(hand, f"K K {top}", melds='["Q Q Q"]', down=DOWN)
    assert not takes(st)


def test_pile_taken_only_with_a_natural_pair():
    """new-canasta: "A player must hold a pair of natural cards of the same denomination as the top
    card of the discard pile ... a 6 and a wild card could not"."""
    st = draw_turn("6 JK 2 9", "K 6", melds='["Q Q Q"]', down=DOWN)
    assert not takes(st)
    st = draw_turn("6 6 9 8", "K 6", melds='["Q Q Q"]', down=DOWN)
    assert takes(st) == {"take 6 6"}


def test_pile_never_taken_onto_a_meld_on_the_table():
    """new-canasta: "a player may not pick up the discard pile on the basis cards he has already
    melded to the table"."""
    st = draw_turn("6 9 8 4", "K 6", melds='["6 6 6 6"]', down=DOWN)
    assert not takes(st)


def test_pile_taken_with_a_pair_when_that_rank_is_melded():
    """new-canasta: "However, if a player has melded 6's and still holds a pair of 6's, he may
    still pick up the "Deck"."""
    st = draw_turn("6 6 9 8", "K 6", melds='["6 6 6 6"]', down=DOWN)
    assert takes(st) == {"take 6 6"}


def test_pair_shown_but_not_melded():
    """new-canasta: "the player must show the two cards from his hand that entitle him to take the
    deck, but does not have to meld these cards in this turn" and "a player who picks up the
    pile is free to keep some or all of the three cards in his hand for later use"."""
    st = draw_turn("6 6 9 8", "K 5 6", melds='["Q Q Q"]', down=DOWN)
    st = st.apply("take 6 6")
    assert st.melds[0] == (TableMeld(Q, 3),)
    assert st.hands[0] == cards("6 6 6 9 8 K 5")
    assert st.pile == ()
    assert legal(st, "discard 6")


def test_pile_not_taken_on_two_turns_in_a_row():
    """new-canasta: "A player is not allowed to pick up the Deck on 2 consecutive turns"."""
    st = draw_turn("6 6 9 8", "K 6", melds='["Q Q Q"]', down=DOWN, took_last=True)
    assert not takes(st)
    st = draw_turn("6 6 9 8", "K 6", melds='["Q Q Q"]', down=DOWN, took_last=False)
    assert takes(st) == {"take 6 6"}


def test_pile_taken_again_after_a_turn_without_taking():
    """new-canasta: "A player is not allowed to pick up the Deck on 2 consecutive turns": after a
    take, his next turn may not take; the turn after that (he drew) may."""
    st = load(f"""
        to_act = 0
        pile = "4 6"
        stock = "5 5 7 7 8 8 5 5 7 7 8 8 rest"
        [[seats]]
        hand = "6 6 J J 9 10"
        down = "{DOWN}"
        melded = true
        [[seats]]
        hand = "J Q A"
        down = "{DOWN}"
        [[seats]]
        hand = "J J Q A"
        down = "{DOWN}"
        [[sides]]
        melds = ["K K K"]
    """)
    st = run(st, "take 6 6", "discard 4", "draw", "discard Q", "draw", "discard J")
    assert st.current_player == 0 and st.pile[-1] == int(Card.JACK)
    assert st.hands[0][int(Card.JACK)] == 2
    assert not takes(st)
    st = run(st, "draw", "discard 9", "draw", "discard A", "draw", "discard J")
    assert st.current_player == 0 and st.pile[-1] == int(Card.JACK)
    assert takes(st) == {"take J J"}


# ================================================================ initial meld with the pile


def test_initial_meld_with_the_pile():
    """new-canasta: "the player wishing to pick up the discard pile may only use the top card from
    the pile and a natural pair in his hand as a meld. The rest of the initial meld must come from
    the player's hand ... If he has sufficient cards in his hand to complete the initial meld, he
    lays them down and then takes the discard pile into his hand"."""
    st = draw_turn("K K Q Q Q 5 6", "4 9 K", down=DOWN)
    st = st.apply("take K K")
    assert st.melds[0] == (TableMeld(K, 3),)
    assert st.hands[0] == cards("Q Q Q 5 6")
    assert not legal(st, "retract")
    st = st.apply("meld Q Q Q")
    assert st.opened[0]
    assert st.hands[0] == cards("5 6 4 9")
    assert st.pile == ()


def test_initial_meld_with_the_pile_counts_no_other_pile_card():
    """new-canasta: "may only use the top card from the pile and a natural pair in his hand as a
    meld. The rest of the initial meld must come from the player's hand": queens lower in the
    pile do not help."""
    st = draw_turn("K K Q 5 6 7 8", "Q Q K", down=DOWN)
    st = st.apply("take K K")
    assert not any(isinstance(a, (canasta.Meld, canasta.Add)) for a in st.legal_actions())
    assert legal(st, "retract")


def test_failed_initial_meld_with_the_pile_is_retracted_then_draw():
    """new-canasta: "If he cannot make his initial meld, he takes the pair back into his hand and
    returns the third card of the same denomination back to the discard pile. The player has not
    officially discarded, but must draw 2 cards from the 4 piles and officially discard"."""
    st = load(f"""
        to_act = 0
        pile = "Q Q K"
        stock = "9 10 rest"
        [[seats]]
        hand = "K K Q 5 6 7 8"
        down = "{DOWN}"
    """)
    before = st.hands[0]
    st = run(st, "take K K", "retract")
    assert st.hands[0] == before
    assert st.pile == (Q, Q, K)
    assert st.melds[0] == ()
    assert not st.opened[0]
    assert st.current_player == 0 and st.phase is Phase.DRAW
    assert {str(a) for a in st.legal_actions()} == {"draw"}
    st = st.apply("draw")
    assert sum(st.hands[0]) == sum(before) + 2
    assert not takes(st)
    st = st.apply("discard 9")
    assert st.current_player == 1


def test_initial_meld_with_pile_below_minimum_blocked_after_other_cards():
    """new-canasta: "The rest of the initial meld must come from the player's hand": a hand that can
    reach the minimum with the pair and top card takes the pile; the pile's cards come only
    after the minimum is met."""
    st = draw_turn("K K A A A 5 6", "4 A K", down=DOWN, total=1600)  # needs 90
    st = st.apply("take K K")  # 30
    assert st.phase is Phase.INITIAL_TAKE
    assert st.hands[0] == cards("A A A 5 6")
    st = st.apply("meld A A A")  # 90
    assert st.opened[0]
    assert st.hands[0] == cards("5 6 4 A")


# ================================================================ the down hand


def test_melding_the_last_looking_card_continues_from_the_down_hand():
    """new-canasta: "if a player is still melding cards and gets to the "down" hand by melding the
    last of the cards from his "looking" hand, he may continue playing from his "down" hand until
    he is ready to discard a card or even Go Out"."""
    st = meld_turn("K K K", melds='["Q Q Q"]', down="A A A 4 5 6 7 8 9 10 J")
    st = st.apply("meld K K K")
    assert st.current_player == 0 and st.phase is Phase.MELD
    assert st.hands[0] == cards("A A A 4 5 6 7 8 9 10 J")
    assert st.down_hands[0] == (0,) * 15
    st = st.apply("meld A A A")
    assert st.melds[0][-1] == TableMeld(int(Card.ACE), 3)


def test_discarding_the_last_looking_card_ends_the_turn():
    """new-canasta: "If a player discards the last card in his "looking" hand, he may pick up, look
    at and sort his "down" hand, but may not play anything from it until his nest turn, because
    he has already discarded"."""
    st = meld_turn("9", melds='["Q Q Q Q Q Q Q", "J J J J J J J"]', down="A A A 4 5 6 7 8 9 10 J")
    st = st.apply("discard 9")
    assert not st.is_hand_over
    assert st.current_player == 1
    assert st.hands[0] == cards("A A A 4 5 6 7 8 9 10 J")


def test_last_looking_card_discarded_without_two_canastas():
    """new-canasta: "If a player discards the last card in his "looking" hand, he may pick up, look
    at and sort his "down" hand": the two-canasta rule is about going out, and discarding the
    last looking card is not going out."""
    st = meld_turn("5 5 5 9", melds='["J J J"]', down="A A A 4 5 6 7 8 9 10 J")
    st = run(st, "meld 5 5 5", "discard 9")
    assert not st.is_hand_over and st.current_player == 1
    assert st.hands[0] == cards("A A A 4 5 6 7 8 9 10 J")


def test_pile_cards_played_before_the_down_hand():
    """new-canasta: "If a player has picked up the Deck before reaching his "down" hand, he must
    play through all of the cards he currently holds before looking at or playing his "down"
    hand"."""
    st = draw_turn("6 6", "K 5 6", melds='["Q Q Q"]', down="A A A 4 5 6 7 8 9 10 J")
    st = st.apply("take 6 6")
    assert st.hands[0] == cards("6 6 6 K 5")
    assert sum(st.down_hands[0]) == 11
    st = st.apply("meld 6 6 6")
    assert st.hands[0] == cards("K 5")
    assert sum(st.down_hands[0]) == 11


# ================================================================ going out


def test_going_out_needs_two_canastas():
    """new-canasta: "A player needs two canastas to Go Out. The Canastas can be either Red or
    Black"."""
    st = meld_turn("K 9", melds='["K K K K K K", "Q Q Q Q Q 2 2"]')
    st = run(st, "add K", "discard 9")
    assert st.is_hand_over and st.result.went_out == 0
    assert items(st, 0)["going out"] == 100


def test_without_two_canastas_keep_two_cards():
    """new-canasta: "if a player does not have two Canastas, that player must hold at least one card
    in his hand and continue to play ... you are not allowed to meld in a way that leaves you with
    only one card and then discard that ... At the end of your melding, you must have at least
    two cards, one to discard and one to keep for your next turn"."""
    st = meld_turn("5 5 5 9", melds='["Q Q Q Q Q Q Q", "J J J"]')
    assert not legal(st, "meld 5 5 5")
    st = meld_turn("5 5 5 9 8", melds='["Q Q Q Q Q Q Q", "J J J"]')
    st = st.apply("meld 5 5 5")
    st = st.apply("discard 9")
    assert not st.is_hand_over and st.hands[0] == cards("8")


def test_without_two_canastas_the_last_card_cannot_be_discarded():
    """new-canasta: "So if you do not have two canastas, you are not allowed to meld in a way that
    leaves you with only one card and then discard that, leaving nothing"."""
    st = meld_turn("J 9", melds='["Q Q Q Q Q Q Q", "J J J"]')
    assert not legal(st, "add J")
    assert legal(st, "discard 9")


def test_going_out_uses_both_hands():
    """new-canasta: "To Go Out, a player must use up all of the cards in both hands as well as any
    cards he might hold from picking up the Deck": discarding the last looking card with two
    canastas is not going out while the down hand is unplayed."""
    st = meld_turn("9", melds='["Q Q Q Q Q Q Q", "J J J J J J J"]', down=DOWN)
    st = st.apply("discard 9")
    assert not st.is_hand_over
    assert st.hands[0] == cards(DOWN)


def test_going_out_by_melding_all_cards():
    """new-canasta: "A player may Go Out either by melding all his cards, or by melding all but one
    card and discarding his last card to Go Out"."""
    st = meld_turn("A A A", melds='["Q Q Q Q Q Q Q", "J J J J J J J"]')
    st = st.apply("meld A A A")
    assert st.is_hand_over and st.result.went_out == 0
    st = meld_turn("A A A 9", melds='["Q Q Q Q Q Q Q", "J J J J J J J"]')
    st = run(st, "meld A A A", "discard 9")
    assert st.is_hand_over and st.result.went_out == 0


def test_going_out_by_melding_the_second_canasta():
    """new-canasta: "A player may Go Out either by melding all his cards" with "two canastas": the
    last two kings complete his second canasta and empty his hand."""
    st = meld_turn("K K", melds='["Q Q Q Q Q Q Q", "K K K K K"]')
    st = run(st, "add K", "add K")
    assert st.is_hand_over and st.result.went_out == 0
    assert items(st, 0)["going out"] == 100


def test_going_out_by_discarding_a_red_three():
    """new-canasta: "A player may Go Out ... by melding all but one card and discarding his last
    card to Go Out", and a red three may be discarded ("a good opportunity to get rid of a Red
    Three")."""
    st = meld_turn("A A A 3r", melds='["Q Q Q Q Q Q Q", "J J J J J J 2"]')
    st = run(st, "meld A A A", "discard 3r")
    assert st.is_hand_over and st.result.went_out == 0
    assert "red threes in hand" not in items(st, 0)


def test_going_out_by_placing_the_last_red_three_on_a_canasta():
    """new-canasta: "A player may Go Out either by melding all his cards", and "When a natural
    Canasta is complete, a single Red Three may be added to it": the last card, a red three,
    placed on his natural canasta, takes him out (that canasta then worth 1,000)."""
    st = meld_turn("3r", melds='["Q Q Q Q Q Q Q", "J J J J J J 2"]')
    st = st.apply("add 3r to Q")
    assert st.is_hand_over and st.result.went_out == 0
    assert items(st, 0)["red three canastas"] == 1000


def test_others_caught_when_a_player_goes_out():
    """new-canasta: "When a player Goes Out, all the other players get "Caught". That is, the
    remaining cards in their hands count against them and the values of these cards are
    subtracted from their scores"."""
    st = _caught_by_seat_1("K Q", '["5 5 5"]', seat2_hand="A JK")
    assert items(st, 0)["cards left in hand"] == -20
    assert items(st, 2)["cards left in hand"] == -70
    assert items(st, 1)["cards left in hand"] == 0
    assert items(st, 1)["going out"] == 100


# ================================================================ the stock runs out


def _last_cards(text: str, stock: str) -> GameState:
    """Load ``text`` with the stock exactly ``stock``: every card the position does not place
    otherwise goes into seat 2's face-down ``down`` hand (placeholder ``{filler}``)."""
    probe = pos(text.replace("{stock}", stock + " rest").replace("{filler}", ""))
    left = list(probe.stock[: len(probe.stock) - len(stock.split())])
    filler = " ".join(str(Card(k)) for k in left)
    return pos(text.replace("{stock}", stock).replace("{filler}", filler))


LAST = """
    variant = "new-canasta"
    players = 3
    to_act = 0
    pile = "4"
    stock = "{stock}"
    [[seats]]
    hand = "9 10 J Q"
    melded = true
    [[seats]]
    hand = "5 5 8 9 10"
    melded = true
    [[seats]]
    hand = "6 7 8"
    down = "{filler}"
    [[sides]]
    melds = ["K K K"]
    [[sides]]
    melds = ["A A A A A A A", "Q Q Q Q Q Q Q"]
    [[sides]]
"""


def test_stock_exhausted_one_last_round_until_the_player_who_took_the_last_card():
    """new-canasta: "If all the cards from all 4 draw piles are exhausted, every player has a final
    opportunity to make any plays they can ... A player who cannot or does not wish to take the
    Deck can just meld and discard without drawing ... Play continues until the round reaches the
    person who took the last card. This player has one more chance to play and then the round is
    over"."""
    st = _last_cards(LAST, "7 7")
    st = run(st, "draw", "discard 9")
    assert st.stock == ()
    seats = []
    while not st.is_hand_over:
        assert st.phase is Phase.DRAW
        assert not any(isinstance(a, canasta.Draw) for a in st.legal_actions())
        seats.append(st.current_player)
        st = st.apply("pass")
        st = st.apply(some_discard(st))
    assert seats == [1, 2, 0]
    assert st.result.went_out is None


def test_stock_exhausted_last_round_may_take_the_pile():
    """new-canasta: after the piles are exhausted "every player has a final opportunity to make
    any plays they can. This includes picking up the Deck or discarding a card"."""
    text = LAST.replace('hand = "5 5 8 9 10"', 'hand = "5 5 8 10 10"')
    st = _last_cards(text, "7 7")
    st = run(st, "draw", "discard 10")
    assert st.current_player == 1
    st = st.apply("take 10 10")
    assert st.phase is Phase.MELD
    assert st.hands[1][int(Card.TEN)] == 3 and st.pile == ()


def test_no_going_out_bonus_after_the_stock_is_used_up():
    """new-canasta: "There is no Going Out bonus after the piles have been used up"."""
    text = LAST.replace('hand = "5 5 8 9 10"', 'hand = "5 5 5 9"')
    st = _last_cards(text, "7 7")
    st = run(st, "draw", "discard 9", "pass", "meld 5 5 5", "discard 9")
    assert st.is_hand_over and st.result.went_out == 1
    assert "going out" not in items(st, 1)


# ================================================================ scoring and game


def test_scoring_order_top_count_to_the_bad_to_the_good():
    """new-canasta: "The Score Keeper will first ask for each player's "Top Count" which is the
    value of any Canastas ... Next, each player counts the cards that remain in his hand ... "To
    the Bad" ... If a player is holding a Red 3, it counts minus 500 points ... Finally, the players
    count the cards that they have melded ... "To the Good"."""
    st = _caught_by_seat_1("3r 9", '["Q Q Q Q Q Q Q 3r", "J J J J J J 2", "10 10 10 10 10 10 10"]')
    order = names(st, 0)
    top = [order.index(n) for n in ("red three canastas", "natural canastas", "mixed canastas")]
    bad = [order.index(n) for n in ("cards left in hand", "red threes in hand")]
    good = order.index("melded cards")
    assert max(top) < min(bad) and max(bad) < good
    got = items(st, 0)
    assert got["red three canastas"] == 1000 and got["natural canastas"] == 500
    assert got["mixed canastas"] == 300
    assert got["cards left in hand"] == -10 and got["red threes in hand"] == -500
    assert got["melded cards"] == 70 + 60 + 20 + 70
    assert st.result.scores[0].total == 1800 - 510 + 220


def test_game_over_at_10000():
    """new-canasta: "The game is played in several rounds until a player reaches or exceeds 10,000
    points"; "The game is over when a player reaches or exceeds 10,000 points as his final score
    for the round"."""
    st = _caught_by_seat_1("4", '["5 5 5"]', totals="[0, 8690, 0]")  # 1000 + 210 + 100 = 1310
    assert st.totals[1] == 10000
    assert st.is_game_over and st.winners == (1,)


def test_game_not_over_below_10000():
    """new-canasta: "The game is over when a player reaches or exceeds 10,000 points"."""
    st = _caught_by_seat_1("4", '["5 5 5"]', totals="[0, 8680, 0]")
    assert st.totals[1] == 9990
    assert st.phase is Phase.HAND_OVER and not st.is_game_over


def test_top_count_over_10000_then_to_the_bad_below_is_not_game():
    """new-canasta: "Note that if a player's Top Count puts him over 10,000, but his points To the
    Bad take him back below 10,000 points, the player is still under the score needed to win the
    game"."""
    st = _caught_by_seat_1("3r 3r 4", '["4 4 4 4 4 4 4", "6 6 6 6 6 6 6"]', totals="[9500, 0, 0]")
    assert 9500 + 1000 > 10000
    assert st.totals[0] == 9500 + 1000 - 1005 + 70
    assert st.phase is Phase.HAND_OVER and not st.is_game_over


def test_highest_total_wins_when_several_pass_10000():
    """new-canasta: "If more than one player exceeds 10,000 points at the end of a round, the player
    with the highest total score wins"."""
    st = _caught_by_seat_1("4", '["K K K K K K K", "J J J J J J J"]', totals="[9500, 9000, 0]")
    assert st.totals[0] > st.totals[1] >= 10000
    assert st.is_game_over and st.winners == (0,)
    st = _caught_by_seat_1("4", '["K K K K K K K", "J J J J J J J"]', totals="[8900, 9000, 0]")
    assert st.totals[1] > st.totals[0] >= 10000
    assert st.winners == (1,)
