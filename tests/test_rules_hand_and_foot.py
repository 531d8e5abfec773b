"""Scenario tests: each rule statement of the Hand and Foot digest, asked of the engine.

Source: pagat.com "Hand and Foot", the partnership rules contributed by Bill Whitnack (PG,
https://www.pagat.com/rummy/handfoot.html), as digested in
../shared/rules/beyond/hand-and-foot.md, whose rule numbers the tests cite; variant
``hand-and-foot``. Positions are written in the position format (``load_position``); at four
players seats 0 and 2 are side 0, seats 1 and 3 side 1; seat 0 is to act. A seat's ``down``
is his foot.
"""

from __future__ import annotations

import textwrap
from functools import partial
from pathlib import Path
from typing import Any

import attrs
import pytest

import canasta
from canasta import _core
from canasta import GameState, IllegalActionError, Phase, Take, parse_action
from canasta._cards import WILD_RANK
from canasta._position import load_position

import helpers
from helpers import legal, rows

V = "hand-and-foot"
FEET = "4 5 6"  # a foot still to pick up, for the seats that are not tested


pos = partial(helpers.pos, variant=V)


def turn(hand: str, melds0: str = "", melds1: str = "", down0: str = FEET, down2: str = FEET,
         **kw: Any) -> GameState:
    """Seat 0 to act holding ``hand`` with foot ``down0`` (empty: picked up); seat 2 (his
    partner) has foot ``down2``; melds are TOML lists of strings (``helpers.turn``)."""
    return helpers.turn(V, hand, melds0, melds1, downs=(down0, FEET, down2, FEET), **kw)


# the five canastas a side needs to go out (6.2): two clean, two dirty, one wild
QUOTA = '"K K K K K K K", "Q Q Q Q Q Q Q", "J J J J J 2 2", "10 10 10 10 10 JK 2", "JK JK JK 2 2 2 2"'


# ================================================================ 1-2 players, deck, deal


def test_tables_and_sides() -> None:
    """hand-and-foot 1.1 PG: four players in two partnerships, partners opposite; 1.2: six as
    two teams of three alternating; two, three or five play as individuals."""
    expect = {2: [0, 1], 3: [0, 1, 2], 4: [0, 1, 0, 1], 5: [0, 1, 2, 3, 4], 6: [0, 1, 0, 1, 0, 1]}
    for players, sides in expect.items():
        st = canasta.new_game(V, players=players, seed=1)
        assert [st.side_of(s) for s in range(players)] == sides


@pytest.mark.parametrize("players,packs", [(4, 5), (6, 7), (2, 3)])
def test_one_pack_more_than_the_players(players: int, packs: int) -> None:
    """hand-and-foot 1.3 PG: five 54-card packs for four players (one pack more than the
    players)."""
    st = canasta.new_game(V, players=players, seed=1)
    assert sum(st._rules.deck) == 54 * packs


def test_a_hand_and_a_foot_of_thirteen() -> None:
    """hand-and-foot 2.1 PG: each player receives a hand of 13 and a foot of 13 cards; 2.2: the
    foot stays unseen (an observation shows its size only)."""
    st = canasta.new_game(V, seed=2)
    assert [sum(d) for d in st.down_hands] == [13] * 4
    # red threes dealt are faced and replaced at the player's first turn (2.4): still 13
    assert [sum(h) for h in st.hands] == [13] * 4
    obs = st.observation(1)
    assert obs.down_hand_sizes == (13, 13, 13, 13)


def test_no_frozen_upcard() -> None:
    """hand-and-foot 2.3 PG: a red three or a wild card turned up is put back and another card
    turned (covered here: the same play); 3.5: there is no frozen pile."""
    for seed in range(60):
        st = canasta.new_game(V, seed=seed)
        assert st.pile[-1] >= 3 and not st.frozen


# ================================================================ 3 draw and the pile


def test_draw_two() -> None:
    """hand-and-foot 3.1 PG: a turn starts by drawing two cards from the stock."""
    st = turn("4 5", phase="draw", stock="8 9 rest")
    after = st.apply("draw")
    assert sum(after.hands[0]) == 4 and after.hands[0][8] == after.hands[0][9] == 1


def test_take_only_the_top_seven_cards() -> None:
    """hand-and-foot 3.2 PG: with two natural cards of the top card's rank, the player melds
    the top card with them and takes the top seven cards of the pile (the top card included);
    the rest of the pile stays."""
    st = turn("9 9 4", phase="draw", melds0='"K K K"', pile="A A 4 5 6 7 8 10 J Q 9")
    after = st.apply("take 9 9")
    assert after.pile == (14, 14, 4, 5)  # the bottom four stay
    assert sum(after.hands[0]) == 1 + 6  # the 4 kept, and the six cards under the top
    assert any(m.rank == 9 and m.size == 3 for m in after.melds[0])


def test_the_cards_under_the_top_do_not_count_toward_the_minimum() -> None:
    """hand-and-foot 4.5 ARC: cards taken with the pile other than the top card do not count
    toward the initial minimum (50 in deal 1): 9 9 and the top 9 count 30, and the six aces
    under it would count 120 but do not, so the take is refused; with three kings in hand
    (30 more) it makes 60 and is allowed."""
    st = turn("9 9 4 5 6", phase="draw", pile="A A A A A A 9")
    assert not legal(st, "take 9 9")
    st = turn("9 9 K K K 4 5", phase="draw", pile="A A A A A A 9")
    assert legal(st, "take 9 9")


def test_wild_card_on_top_taken_with_a_matching_pair() -> None:
    """hand-and-foot 3.3 PG: a wild card on top can be taken with a pair of the same wild
    card (two deuces for a deuce, two jokers for a joker); the three cards go to a wild-card
    meld."""
    st = turn("2 2 JK 4", phase="draw", melds0='"K K K"', pile="5 6 2")
    assert legal(st, "take 2 2")
    assert not legal(st, "take JK JK")
    after = st.apply("take 2 2")
    wild = [m for m in after.melds[0] if m.rank == WILD_RANK]
    assert len(wild) == 1 and wild[0].twos == 3
    assert not legal(turn("2 JK 4", phase="draw", melds0='"K K K"', pile="5 6 2"), "take 2 2")


def test_a_three_on_top_cannot_be_taken() -> None:
    """hand-and-foot 3.4 PG: a three on top can never be taken."""
    st = turn("3b 3b 4", phase="draw", melds0='"K K K"', pile="5 6 3b")
    assert not any(isinstance(a, Take) for a in st.legal_actions())


def test_no_frozen_pile() -> None:
    """hand-and-foot 3.5 PG: no wild card changes the condition of 3.2: a pile with a wild card
    in it is taken with a natural pair, by a side that has not melded too."""
    st = turn("9 9 9 A A A 4", phase="draw", pile="5 JK 6 9")
    assert not st.frozen
    assert legal(st, "take 9 9")


# ================================================================ 4 melds


def test_piles_are_closed_at_seven() -> None:
    """hand-and-foot 4.1 PG: at seven cards a meld is complete and takes no further card."""
    st = turn("K 2 4 5", melds0='"K K K K K K K"', down0="")
    assert not legal(st, "add K") and not legal(st, "add 2 to K")


@pytest.mark.parametrize("cards,ok", [("5 5 2", True), ("5 5 5 2", True), ("5 5 2 2", False),
                                      ("5 5 5 2 2", False), ("5 5 5 5 2 2", True),
                                      ("5 5 5 5 5 2 2", True), ("5 5 5 5 2 2 2", False)])
def test_naturals_at_least_twice_the_wild_cards(cards: str, ok: bool) -> None:
    """hand-and-foot 4.2 PG: a meld holds at least twice as many naturals as wild cards (one
    wild card from three to five cards, two at six or seven). A meld is laid as three cards
    and grown; the last card is the one the rule allows or refuses."""
    words = cards.split()
    st = turn(cards + " 8 9", melds0='"K K K"', down0="")
    first = ["5", "5", "2"] if words.count("5") == 2 else ["5", "5", "5"]
    st = st.apply("meld " + " ".join(first))
    rest = list(words)
    for c in first:
        rest.remove(c)
    rest.sort(key=lambda c: c == "2")  # naturals first
    for c in rest[:-1]:
        st = st.apply(f"add {c} to 5")
    if rest:
        assert legal(st, f"add {rest[-1]} to 5") == ok
    else:
        assert ok


def test_wild_card_melds_three_to_seven() -> None:
    """hand-and-foot 4.3 PG: a meld of three to seven wild cards of any mix; at seven it is a
    complete wild pile."""
    st = turn("JK 2 2 8 9", melds0='"K K K"', down0="")
    assert legal(st, "meld JK 2 2")
    full = turn("JK 8 9", melds0='"K K K", "JK JK 2 2 2 2 2"', down0="")
    assert not legal(full, "add JK to wild")


def test_threes_are_never_melded() -> None:
    """hand-and-foot 4.4 GOCC, KLS: threes are never melded."""
    st = turn("3b 3b 3b 8 9", melds0='"K K K"', down0="")
    assert not legal(st, "meld 3b 3b 3b")


@pytest.mark.parametrize("hand_number,need", [(0, 50), (1, 90), (2, 120), (3, 150)])
def test_initial_minimum_by_deal(hand_number: int, need: int) -> None:
    """hand-and-foot 4.5 PG, GOCC: a side's first melds count at least 50 in deal 1, 90 in deal
    2, 120 in deal 3, 150 in deal 4 (by deal number, not by score)."""
    st = turn("4 5 6", hand_number=hand_number)
    assert st.initial_need(0) == need
    # three aces (60) open in deal 1 only; with three kings (90) in deal 2 too
    st = turn("A A A K K K 4 5 6", hand_number=hand_number)
    if need > 90:  # the hand cannot make the minimum: no meld is offered toward it
        assert not legal(st, "meld A A A")
        return
    aces = st.apply("meld A A A")
    assert legal(aces, "discard 4") == (need <= 60)
    both = aces.apply("meld K K K")
    assert legal(both, "discard 4") == (need <= 90)


def test_a_new_meld_of_a_rank_once_the_first_is_complete() -> None:
    """hand-and-foot A11: one open meld of a rank; a new one may start once the previous is
    complete (closed at seven)."""
    open_one = turn("K K K 8 9", melds0='"K K K K"', down0="")
    assert not legal(open_one, "meld K K K")
    closed = turn("K K K 8 9", melds0='"K K K K K K K"', down0="")
    assert legal(closed, "meld K K K")


# ================================================================ 5-7 canastas, going out, scoring


def test_pile_bonuses() -> None:
    """hand-and-foot 5.1 PG: a clean pile 500, a dirty pile 300, a wild pile 1,500."""
    st = turn("4", melds0=QUOTA, down0="", down2="")
    end = st.apply("discard 4")
    r = rows(end, 0)
    assert r["natural canastas"] == 1000 and r["mixed canastas"] == 600 and r["wild canastas"] == 1500


def test_the_foot_comes_up_when_the_hand_is_melded_out() -> None:
    """hand-and-foot 6.1 PG: a hand used up by melding: the foot is picked up and play goes on
    in the same turn."""
    st = turn("9 9 9", melds0='"K K K"', down0="8 8 4 5 6")
    after = st.apply("meld 9 9 9")
    assert after.current_player == 0 and after.phase is Phase.MELD
    assert sum(after.down_hands[0]) == 0 and after.hands[0][8] == 2


def test_the_foot_comes_up_after_discarding_the_last_card() -> None:
    """hand-and-foot 6.1 PG: a hand used up by the discard: the foot is picked up and played
    from the next turn."""
    st = turn("9", melds0='"K K K"', down0="8 8 4 5 6")
    after = st.apply("discard 9")
    assert after.current_player == 1
    assert sum(after.down_hands[0]) == 0 and after.hands[0][8] == 2


def test_going_out_needs_two_clean_two_dirty_one_wild() -> None:
    """hand-and-foot 6.2 PG: a side may go out only with at least two clean piles, two dirty
    piles and one wild pile. Completing the wild pile with a joker lets the player go out
    (he keeps one card to discard); with a clean pile missing he must keep two cards."""
    six = '"K K K K K K K", "Q Q Q Q Q Q Q", "J J J J J 2 2", "10 10 10 10 10 JK 2", "JK JK JK 2 2 2"'
    st = turn("JK 4", melds0=six, down0="", down2="")
    assert legal(st, "add JK to wild")
    out = st.apply("add JK to wild")
    end = out.apply("discard 4")
    assert end.result.went_out == 0
    no_clean = ('"K K K K K K K", "Q Q Q Q Q Q", "J J J J J 2 2", "10 10 10 10 10 JK 2", '
                '"JK JK JK 2 2 2"')
    st = turn("JK 4", melds0=no_clean, down0="", down2="")
    assert not legal(st, "add JK to wild")
    assert "natural" in st.why_illegal("add JK to wild")


def test_going_out_needs_the_partner_in_his_foot() -> None:
    """hand-and-foot 6.3 PG: the partner of the player going out must already be playing from
    his foot (here: has picked it up)."""
    six = '"K K K K K K K", "Q Q Q Q Q Q Q", "J J J J J 2 2", "10 10 10 10 10 JK 2", "JK JK JK 2 2 2"'
    st = turn("JK 4", melds0=six, down0="", down2=FEET)
    assert not legal(st, "add JK to wild")
    assert "partner" in st.why_illegal("add JK to wild")


def test_a_partner_who_has_just_picked_up_his_foot_is_not_yet_playing_from_it() -> None:
    """hand-and-foot 6.3 PG: the partner must already be playing from his foot (he has taken
    it up and played at least part of a turn from it): a partner who took it up by
    discarding his last card has not, until his next turn begins; one who took it up by
    melding out goes on playing from it in the same turn (6.1)."""
    six = '"K K K K K K K", "Q Q Q Q Q Q Q", "J J J J J 2 2", "10 10 10 10 10 JK 2", "JK JK JK 2 2 2"'
    st = turn("JK 4", melds0=six, down0="", down2="")
    assert legal(st, "add JK to wild")  # the partner's foot is up (by default: playing from it)
    doc = canasta.to_position(st).replace('[[seats]]  # seat 2 (side 0)', '[[seats]]  # seat 2 (side 0)\nplaying_foot = false')
    waiting = canasta.load_position(doc)
    assert not legal(waiting, "add JK to wild")
    assert "partner" in waiting.why_illegal("add JK to wild")
    # in play: seat 2 discards his last hand card and his foot comes up; his partner may not go
    # out before seat 2 has begun a turn with it
    st = pos(f"""
        phase = "meld"
        to_act = 2
        pile = "5 9"
        [[seats]]
        hand = "JK 4"
        [[seats]]
        hand = "4 5 6"
        down = "{FEET}"
        [[seats]]
        hand = "6"
        down = "8 8 9"
        [[seats]]
        hand = "4 5 6"
        down = "{FEET}"
        [[sides]]
        melds = [{six}]
        [turn]
        drew = true
        """)
    after = st.apply("discard 6")
    assert sum(after.down_hands[2]) == 0
    assert canasta.load_position(canasta.to_position(after)) == after
    assert "playing_foot = false" in canasta.to_position(after)  # not yet playing from it
    for _ in range(3):  # seats 3, 0 and 1 draw and discard
        seat = after.current_player
        after = after.apply("draw")
        after = after.apply(canasta.Discard(next(k for k in range(4, 15) if after.hands[seat][k])))
    assert after.current_player == 2  # his turn begins: now he plays from his foot
    assert "playing_foot" not in canasta.to_position(after)


def test_keep_two_cards_when_not_allowed_out() -> None:
    """hand-and-foot 6.5 PG: a player who may not go out keeps at least two cards after
    melding: one to discard and one to carry on with."""
    st = turn("9 9 9 4 5", melds0='"K K K"', down0="", down2="")
    assert legal(st, "meld 9 9 9")  # leaves two
    st = turn("9 9 9 4", melds0='"K K K"', down0="", down2="")
    assert not legal(st, "meld 9 9 9")  # would leave one


def test_going_out_and_red_threes() -> None:
    """hand-and-foot 7.1 PG: going out 100; 7.2: +100 for each red three laid face up."""
    end = turn("4", melds0=QUOTA, down0="", down2="", red0=2).apply("discard 4")
    r = rows(end, 0)
    assert r["going out"] == 100 and r["red threes"] == 200


def test_red_threes_and_cards_in_an_unplayed_foot_count_minus() -> None:
    """hand-and-foot 7.2 PG: -100 for each red three still in an unplayed foot; 7.3: every card
    in a foot not taken up counts minus."""
    st = pos(f"""
        phase = "meld"
        to_act = 0
        pile = "5 9"
        [[seats]]
        hand = "4"
        [[seats]]
        hand = "4 5 6"
        down = "3r 3r K"
        [[seats]]
        hand = ""
        [[seats]]
        hand = "4 5 6"
        down = "{FEET}"
        [[sides]]
        melds = [{QUOTA}]
        [turn]
        drew = true
        """)
    end = st.apply("discard 4")
    r = rows(end, 1)
    assert r["red threes in hand"] == -200
    # seat 1: 4 5 6 in hand and K in the foot; seat 3: 4 5 6 and a foot of 4 5 6
    assert r["cards left in hand"] == -(15 + 10 + 15 + 15)


def test_stock_out_ends_the_deal_without_a_going_out_bonus() -> None:
    """hand-and-foot 7.4 PG: if the stock runs out the deal ends and nobody gets the going-out
    bonus: the player who finds the stock empty at his turn ends it, nobody takes the pile."""
    st = canasta.new_game(V, seed=4)
    while not st.is_hand_over:
        legal_now = {str(a): a for a in st.legal_actions()}
        assert "pass" not in legal_now and not any(t.startswith("take") for t in legal_now if not st.stock)
        if "draw" in legal_now:
            st = st.apply("draw")
        else:
            st = st.apply(next(a for t, a in legal_now.items() if t.startswith("discard")))
    assert not st.stock and st.result.went_out is None
    assert "going out" not in rows(st, 0) and "going out" not in rows(st, 1)


def test_stock_out_the_pile_is_not_taken() -> None:
    """hand-and-foot 7.4 PG: the player who drew the last card plays his turn out; the next one,
    finding the stock empty, may not take the pile (here a pair of 9s would take it): the deal
    ends with his discard's successor's turn."""
    st = _stock_left(turn("9 9 4 6", pile="5 9"), 2)
    st = st.apply("discard 4").apply("draw")  # seat 1 draws the last two cards
    st = st.apply(next(a for a in st.legal_actions() if str(a).startswith("discard")))
    assert st.is_hand_over and st.result.went_out is None
    assert st.result.reason == "the stock is exhausted: the hand ends"


def _stock_left(st: GameState, n: int, variant: canasta.Variant | None = None) -> GameState:
    """``st`` with only the top ``n`` cards of its stock left (the others moved into seat 3's
    foot), in ``variant`` if given; with ``n`` 0, at the start of seat 0's turn."""
    c = _core.to_python(st._c).copy()  # the reference core's fields, changed below
    cards = c.stock()
    downs = list(c.downs)
    foot = list(downs[3])
    for k in cards[: len(cards) - n]:
        foot[k] += 1
    downs[3] = bytes(foot)
    c.downs = tuple(downs)
    d = c.d
    R = _core.rules_for(variant, d.R.players) if variant is not None else d.R
    c.d = _core.Deal(R, d.seed, d.hand_number, d.dealer, d.active, d.precise, cards[len(cards) - n:])
    c.stock_n = n
    if not n:
        c.phase = _core.PH_DRAW
        c.flags = 0
    return GameState(_core.to_native(c))  # on the native core where it is built


def test_stock_out_other_reading_plays_on() -> None:
    """hand-and-foot 7.4, the other reading (``stock_exhausted.mode = "forcing"`` with ``must_take =
    "never"``): the player in turn who finds the stock empty may still take the pile and play
    on, or pass and end the deal. With the digest's reading such a position cannot be: the deal
    has ended, and a position saying otherwise is refused."""
    v = canasta.load_variant(V)
    other = attrs.evolve(v, name="house", stock_exhausted=attrs.evolve(v.stock_exhausted, mode="forcing",
                                                                        must_take="never"))
    st = _stock_left(turn("9 9 4 6", pile="5 9"), 0)
    assert not st.legal_actions()  # the deal ends before: this is no position of play
    with pytest.raises(canasta.PositionError, match="stock"):
        load_position(canasta.to_position(st))
    st = _stock_left(turn("9 9 K K K 4 6", pile="5 9"), 0, other)
    assert {str(a) for a in st.legal_actions()} == {"take 9 9", "pass"}


def test_four_deals_make_a_game() -> None:
    """hand-and-foot 2.5/7.6 PG, GOCC: four deals make a game; the highest total wins, with no
    target score."""
    v = canasta.load_variant(V)
    assert v.game.hands == 4 and v.game.target == 0
    end3 = turn("4", melds0=QUOTA, down0="", down2="", hand_number=2).apply("discard 4")
    assert end3.is_hand_over and not end3.is_game_over
    end4 = turn("4", melds0=QUOTA, down0="", down2="", hand_number=3).apply("discard 4")
    assert end4.is_game_over and end4.winners == (0,)


def test_the_other_red_three_reading_is_a_house_rule(tmp_path: Path) -> None:
    """hand-and-foot A5: "-500 each, laid or not" (Simpson version on PG; ronveenstra.com;
    klassa.com) is a house-rules file: laid red threes counted minus whatever the canastas
    (``red_threes.sign_by_canastas = [-1]``), held ones -500 (``in_hand_penalty``)."""
    house = tmp_path / "simpson.toml"
    bonus = ", ".join(str(500 * i) for i in range(15))
    house.write_text(f'extends = "hand-and-foot"\n[red_threes]\nbonus = [{bonus}]\n'
                     'sign_by_canastas = [-1]\nin_hand_penalty = 500\n', encoding="utf-8")
    v = canasta.load_variant(house)
    st = load_position(f'variant = "{house}"\n' + textwrap.dedent(f"""
        phase = "meld"
        to_act = 0
        pile = "5 9"
        [[seats]]
        hand = "4"
        [[seats]]
        hand = "4 5 6"
        down = "3r K"
        [[seats]]
        hand = ""
        [[seats]]
        hand = "4 5 6"
        down = "{FEET}"
        [[sides]]
        melds = [{QUOTA}]
        red_threes = 2
        [turn]
        drew = true
        """))
    assert st.variant == v
    end = st.apply("discard 4")
    assert rows(end, 0)["red threes (too few canastas)"] == -1000
    assert rows(end, 1)["red threes in hand"] == -500
