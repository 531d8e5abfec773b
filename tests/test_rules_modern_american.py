"""Scenario tests: each rule statement of the Modern American Canasta digest, asked of the engine.

Sources: canasta.com "Modern Canasta rules" (CC), Canasta Junction's scoring guides and help
(CJ-*), the Official WCA Canasta Rules of 2018 (WCA) and the others listed in
../shared/rules/beyond/modern-american.md, whose rule numbers the tests cite; variant
``modern-american``. Positions are written in the position format (``load_position``); seats
0 and 2 are side 0 (A), seats 1 and 3 side 1 (B); seat 0 is to act.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import attrs
import pytest

import canasta
from canasta import _core
from canasta import GameState, IllegalActionError, Take, parse_action

import helpers
from helpers import legal, rows

V = "modern-american"
CANASTAS = '"K K K K K K K", "Q Q Q Q Q 2 2"'  # two canastas: 500 + 300


pos = partial(helpers.pos, variant=V)


def turn(hand: str, melds0: str = "", melds1: str = "", seat2: str = "4 5 6", **kw: Any) -> GameState:
    """Seat 0 to act holding ``hand`` (drawn already, in the meld phase, unless ``phase`` says
    draw); melds are TOML lists of strings (``helpers.turn``)."""
    return helpers.turn(V, hand, melds0, melds1, others=("4 5 6", seat2, "4 5 6"), **kw)


TOKENS = ("JK", "2", "3r", "3b", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK = [4, 8, 4, 4] + [8] * 11  # two packs and four jokers (1.2)


def rest_of(*texts: str) -> str:
    """Every card of the deck not written in ``texts`` (card strings, TOML meld lists), to put
    in a hand when the stock is given in full."""
    left = list(DECK)
    for text in texts:
        for tok in text.replace('"', " ").replace(",", " ").split():
            left[TOKENS.index(tok)] -= 1
    assert min(left) >= 0, left
    return " ".join(t for t, n in zip(TOKENS, left) for _ in range(n))


def out(hand: str = "4", **kw: str) -> GameState:
    """Seat 0 goes out by discarding his last card (``hand`` = that card)."""
    st = turn(hand, **kw)
    return st.apply(f"discard {hand}")


# ================================================================ 1-2 players, deck, deal


def test_four_players_thirteen_cards_no_upcard() -> None:
    """modern-american 1.1 CC, WCA: four players in two partnerships, partners opposite; 1.2:
    108 cards; 2.1 CC, WCA: thirteen cards each; 2.3 MS, PO: no card is turned up, the pile
    starts empty."""
    assert sorted(canasta.load_variant(V).tables) == ["4"]
    for seed in range(5):
        st = canasta.new_game(V, seed=seed)
        assert [st.side_of(s) for s in range(4)] == [0, 1, 0, 1]
        assert sum(st._rules.deck) == 108
        assert [sum(h) for h in st.hands] == [13] * 4
        assert st.pile == ()


def test_threes_of_both_colours_are_laid_out_and_replaced() -> None:
    """modern-american 1.3 CC, CX: all threes are special, never melded; 2.4 CX, HBC: threes
    are laid face up and replaced one for one, those dealt at the owner's first turn."""
    seen_black = 0
    for seed in range(40):
        st = canasta.new_game(V, seed=seed)
        first = st.current_player
        assert st.hands[first][2] == st.hands[first][3] == 0  # faced at his first turn
        assert sum(st.hands[first]) == 13
        seen_black += st.black_threes_aside[st.side_of(first)]
    assert seen_black  # black threes were faced in some deal
    st = turn("3b 3b 3b 4 5")
    assert not legal(st, "meld 3b 3b 3b")


def test_drawn_threes_are_faced_and_replaced() -> None:
    """modern-american 2.4: a three drawn is laid down and replaced; a replacement that is a
    three is laid down and replaced in turn."""
    st = turn("4 5", phase="draw", melds0='"K K K"', stock="3b 3r 8 rest")
    after = st.apply("draw")
    assert after.hands[0][8] == 1 and sum(after.hands[0]) == 3
    assert after.red_threes[0] == 1 and after.black_threes_aside[0] == 1


def _house(st: GameState, table: str = "melds", **settings: object) -> GameState:
    """``st`` in a house variant: modern-american with the settings given of its ``table``."""
    v = canasta.load_variant(V)
    house = attrs.evolve(v, name="house", **{table: attrs.evolve(getattr(v, table), **settings)})
    c = _core.to_python(st._c).copy()  # the reference core's fields, changed below
    d = c.d
    c.d = _core.Deal(_core.rules_for(house, d.R.players), d.seed, d.hand_number, d.dealer, d.active, d.precise,
                     d.stock)
    return GameState(_core.to_native(c))  # on the native core where it is built


def test_the_talon() -> None:
    """modern-american 2.5 CJ-T, WCA, HBC: the player who makes his side's initial meld takes,
    after his discard, 4 cards from the stock if no side had melded before, 3 if the other side
    has; none when the meld was made by picking the pack (3.7)."""
    st = turn("A A A K K JK 4 5")
    after = st.apply("meld A A A").apply("meld K K JK").apply("discard 4")
    assert sum(after.hands[0]) == 1 + 4
    st = turn("A A A K K JK 4 5", melds1='"8 8 8"')
    after = st.apply("meld A A A").apply("meld K K JK").apply("discard 4")
    assert sum(after.hands[0]) == 1 + 3
    took = turn("K K Q Q JK A A A 4 5", phase="draw", pile="6 K")
    after = took.apply("take K K").apply("meld A A A").apply("meld Q Q JK").apply("discard 4")
    assert sum(after.hands[0]) == 2  # 5 and the 6 from the pack: no talon


def test_no_talon_once_the_turn_card_is_reached() -> None:
    """modern-american 2.2 CC, WCA: the ninth card from the bottom marks the last eight cards;
    2.5: no talon once the turn card has been reached."""
    stock = "8 9 10 J 8 9 10 J"
    hand = "A A A K K JK 4 5"
    st = turn(hand, stock=stock, pile="5 9", seat2=rest_of(stock, hand, "5 9", "4 5 6", "4 5 6"))
    after = st.apply("meld A A A").apply("meld K K JK").apply("discard 4")
    assert sum(after.hands[0]) == 1 and len(after.stock) == 8


def test_talon_set_aside_at_the_deal_is_a_setting() -> None:
    """modern-american 2.5 and digest A2: the older practice [PO, MS, pagat] sets two packets of 4
    and 3 aside at the deal ("bonus piles"), for the first and the second side to meld:
    ``deal.talon_set_aside``. The packets are not drawn from the stock: here the stock holds 8
    cards, 7 of them the packets, so the opener takes his 4 whatever the turn card says (and
    even after taking the pack), and the stock is exhausted when only the other packet remains."""
    stock = "8 9 10 J 8 9 10 J"
    hand = "A A A K K JK 4 5"
    st = _house(turn(hand, stock=stock, pile="5 9", seat2=rest_of(stock, hand, "5 9", "4 5 6", "4 5 6")),
                "deal", talon_set_aside=True)
    after = st.apply("meld A A A").apply("meld K K JK").apply("discard 4")
    assert sum(after.hands[0]) == 1 + 4 and len(after.stock) == 4
    after = after.apply("draw")  # seat 1 draws the one card left that is not a packet
    after = after.apply(next(a for a in after.legal_actions() if str(a).startswith("discard")))
    assert len(after.stock) == 3 and after.current_player == 2
    assert not legal(after, "draw")
    assert "exhausted" in after.why_illegal("draw")
    took = _house(turn("K K Q Q JK A A A 4 5", phase="draw", pile="6 K"), "deal", talon_set_aside=True)
    after = took.apply("take K K").apply("meld A A A").apply("meld Q Q JK").apply("discard 4")
    assert sum(after.hands[0]) == 2 + 4  # the packet goes to the first side to meld, however it melded


# ================================================================ 3 the pack


def test_draw_one() -> None:
    """modern-american 3.1 CM, MS: draw one card from the stock."""
    st = turn("4 5", phase="draw", stock="8 9 rest")
    assert sum(st.apply("draw").hands[0]) == 3


def test_pack_only_with_a_natural_pair() -> None:
    """modern-american 3.2 CJ-P, MS: the pack is always frozen: only two natural cards of the
    top card's rank from the hand; never a natural and a wild card, never a meld on the table."""
    st = turn("9 2 4 5", phase="draw", melds0='"9 9 9"', pile="5 9")
    assert not any(isinstance(a, Take) for a in st.legal_actions())
    st = turn("9 9 4 5", phase="draw", melds0='"9 9 9", "K K K"', pile="5 9")
    assert legal(st, "take 9 9")


def test_the_pair_and_top_card_join_the_sides_meld() -> None:
    """modern-american 3.3 CJ-P: the top card and the pair go onto the side's meld of that rank."""
    st = turn("9 9 4 5", phase="draw", melds0='"9 9 9", "K K K"', pile="5 9")
    after = st.apply("take 9 9")
    nines = [m for m in after.melds[0] if m.rank == 9]
    assert len(nines) == 1 and nines[0].naturals == 6


def test_no_pick_past_seven() -> None:
    """modern-american 3.4 CJ-P: the pack cannot be picked when the side's meld of that rank
    holds five or more cards (it would pass seven)."""
    st = turn("9 9 4 5", phase="draw", melds0='"9 9 9 9 9", "K K K"', pile="5 9")
    assert not legal(st, "take 9 9")


def test_a_dead_card_is_never_picked() -> None:
    """modern-american 3.5 CJ-P, CC: a dead card (a rank of which either side has completed a
    canasta) can never be picked."""
    st = turn("9 9 4 5", phase="draw", melds0='"K K K"', melds1='"9 9 9 9 9 2 2"', pile="5 9")
    assert not legal(st, "take 9 9")
    assert "dead" in st.why_illegal("take 9 9")


def test_no_seven_ace_wild_or_dead_card_onto_an_empty_pile() -> None:
    """modern-american 3.6 CJ-P: onto an empty pile the discard is not a seven, an ace, a wild
    card or a dead card; A7: a player holding only such cards discards one of them."""
    st = turn("7 A 2 9 4", melds0='"K K K"', melds1='"9 9 9 9 9 2 2"', pile="")
    for card in ("7", "A", "2", "9"):
        assert not legal(st, f"discard {card}")
    assert legal(st, "discard 4")
    st = turn("7 A", melds0='"K K K"', pile="")
    assert legal(st, "discard 7") and legal(st, "discard A")
    st = turn("7 A 4", melds0='"K K K"', pile="5")
    assert legal(st, "discard 7")  # the pile is not empty


def test_pack_may_make_the_initial_meld() -> None:
    """modern-american 3.7 CJ-T, HBC: the pack may be picked to make the initial meld, the pair
    and the top card counting toward it."""
    st = turn("A A K K JK Q Q Q 4", phase="draw", pile="5 A")
    assert legal(st, "take A A")
    st = turn("A A K K K Q Q Q 4", phase="draw", pile="5 A")
    assert not legal(st, "take A A")  # 60 with the pair and 60 more from the hand: short of 125


def test_wild_card_on_top_cannot_be_picked() -> None:
    """modern-american 3.8: a wild card on top cannot be picked."""
    st = turn("2 2 4 5", phase="draw", melds0='"K K K"', pile="5 2")
    assert not any(isinstance(a, Take) for a in st.legal_actions())


# ================================================================ 4 melds


def test_two_naturals_at_most_two_wild() -> None:
    """modern-american 4.1 CC, CX, WP, WCA: at least two naturals and at most two wild cards."""
    st = turn("A A A K K 2 2 JK Q Q Q 4 5")
    after = st.apply("meld A A A").apply("meld K K 2").apply("add 2 to K")
    assert not legal(after, "add JK to K")


def test_one_meld_per_rank() -> None:
    """modern-american 4.2 WP, PO: a side has at most one meld of each rank."""
    st = turn("K K K 4 5", melds0='"K K K", "Q Q Q"')
    assert not legal(st, "meld K K K")


def test_wild_cards_after_opening_only_onto_five_naturals() -> None:
    """modern-american 4.3 CC, CX, HBC (A8): after the side has opened, a wild card goes only
    onto a meld holding five or more naturals; a new meld then has none."""
    st = turn("2 2 8 8 4 5", melds0='"K K K K", "Q Q Q Q Q"')
    assert not legal(st, "add 2 to K")
    assert "five" in st.why_illegal("add 2 to K")
    assert legal(st, "add 2 to Q")
    assert not legal(st, "meld 8 8 2")


def test_wild_cards_in_the_initial_meld() -> None:
    """modern-american 4.3 (a): wild cards may go into melds laid as part of the initial meld."""
    st = turn("A A A K K 2 Q Q 2 4 5")
    after = st.apply("meld A A A")
    assert legal(after, "meld K K 2")
    after = after.apply("meld K K 2").apply("meld Q Q 2")
    assert after.opened[0]


def test_sevens_never_take_a_wild_card() -> None:
    """modern-american 4.4 CC, WP, CJ-A7: a meld of sevens never takes a wild card."""
    st = turn("A A A 7 7 2 K K JK 4 5")
    after = st.apply("meld A A A")
    assert not legal(after, "meld 7 7 2")
    st = turn("2 4 5", melds0='"7 7 7 7 7", "K K K"')
    assert not legal(st, "add 2 to 7")


def test_aces_stay_natural_unless_laid_with_a_wild_card() -> None:
    """modern-american 4.5 CC, WP, WCA: a meld of aces must stay natural, except one laid in the
    side's initial meld with a wild card in it from the start, which is then an ordinary meld."""
    st = turn("2 4 5", melds0='"A A A A A", "K K K"')
    assert not legal(st, "add 2 to A")
    st = turn("K K K A A 2 Q Q JK 4 5")
    assert legal(st.apply("meld K K K"), "meld A A 2")
    st = turn("2 4 5", melds0='"A A A A A 2", "K K K"')
    assert legal(st, "add 2 to A")  # an ordinary meld with five naturals (4.3)


def test_wild_card_meld_and_its_exclusivity() -> None:
    """modern-american 4.6 CX, WP: a meld of three to seven wild cards; while a side has an
    unfinished one it puts no wild card into its other melds."""
    st = turn("JK 2 4 5", melds0='"JK JK 2", "Q Q Q Q Q"')
    assert legal(st, "add JK to wild")
    assert not legal(st, "add 2 to Q")
    assert "meld of wild cards" in st.why_illegal("add 2 to Q")
    st = turn("JK 2 4 5", melds0='"JK JK 2 2 2 JK 2", "Q Q Q Q Q"')
    assert legal(st, "add 2 to Q")  # the wild canasta is complete


def test_at_most_seven_cards() -> None:
    """modern-american 4.7 WP, CJ-P (A5): no meld holds more than seven cards."""
    st = turn("K 4 5", melds0='"K K K K K K K"')
    assert not legal(st, "add K")


def test_past_seven_when_going_out_is_a_setting() -> None:
    """modern-american 4.7 and digest A5: WP ("Canasta", US American Canasta, melding rules) records
    a common exception letting a player who goes out add past seven, e.g. a wild card onto a
    canasta: ``melds.past_closed_going_out``. The default is CC, CJ-P and WP's rule, never past
    seven. With it, only as the last play before going out (here by discarding the 4), within the
    meld's limits on wild cards."""
    st = turn("JK 4", melds0=CANASTAS)
    assert not legal(st, "add JK to K")
    past = _house(st, past_closed_going_out=True)
    assert legal(past, "add JK to K")
    after = past.apply("add JK to K")
    assert [str(a) for a in after.legal_actions()] == ["discard 4"]
    end = after.apply("discard 4")
    assert end.result.went_out == 0
    assert rows(end, 0)["mixed canastas"] == 600  # the kings' canasta took a wild card
    assert not legal(past, "add JK to Q")  # the queens' canasta holds two wild cards already
    keep = _house(turn("JK 4 5", melds0=CANASTAS), past_closed_going_out=True)
    assert not legal(keep, "add JK to K")  # he would still hold two cards
    assert "last play" in keep.why_illegal("add JK to K")


def test_dead_ranks_for_both_sides() -> None:
    """modern-american 4.8 CC: a completed canasta makes its rank dead for both sides: nobody
    melds it again, neither as a new meld nor as an addition."""
    st = turn("9 9 9 4 5", melds0='"K K K"', melds1='"9 9 9 9 9 2 2"', pile="5 8")
    assert not legal(st, "meld 9 9 9")
    assert "dead" in st.why_illegal("meld 9 9 9")
    st = turn("JK 4 5", melds0='"K K K", "9 9 9"', melds1='"9 9 9 9 9 2 2"', pile="5 8")
    assert not legal(st, "add JK to 9")
    assert "dead" in st.why_illegal("add JK to 9")


def test_initial_meld_includes_a_clean_triple() -> None:
    """modern-american 4.9 WCA, HBC, CJ-1: the initial meld includes a meld of three or more
    natural cards without a wild card. The rule names what the turn's melds hold, not their
    order: a meld with a wild card may come first, where a clean meld can still follow."""
    st = turn("A A 2 Q Q JK K K K 4 5")
    assert legal(st, "meld A A 2")
    after = st.apply("meld A A 2").apply("meld Q Q JK")
    assert after.opened[0]  # 130 of 125: the count is met, the composition is not yet
    assert not legal(after, "discard 4")
    assert "without a wild card" in after.why_illegal("discard 4")
    after = after.apply("meld K K K")
    assert legal(after, "discard 4")
    # a first meld with a wild card is refused only where no clean meld could follow
    st = turn("K K 2 Q Q JK A A 2 4 5 6 8")
    assert not legal(st, "meld K K 2")
    assert "three or more natural cards" in st.why_illegal("meld K K 2")


def test_initial_meld_clean_at_the_end_of_the_turn() -> None:
    """modern-american 4.9: the clean meld must still be clean when the player finishes melding:
    a wild card added later in the turn to the only clean meld is refused (issue 20: from 2,000,
    K K K JK Q Q 2 J J 2 4 6 after drawing)."""
    st = turn("K K K JK Q Q 2 J J 2 4 6", totals="[2000, 0]")
    after = st.apply("meld K K K").apply("meld J J 2").apply("meld Q Q 2")
    assert not legal(after, "add JK to K")
    assert "could not lay one" in after.why_illegal("add JK to K")
    assert not legal(after, "discard 4")  # 110 of the 125 needed
    assert legal(after, "add JK to J")
    assert legal(after.apply("add JK to J"), "discard 4")
    # with a second clean meld on the table, the first may take the wild card
    st = turn("K K K JK Q Q Q J J 2 4 6", totals="[2000, 0]")
    after = st.apply("meld K K K").apply("meld Q Q Q").apply("meld J J 2")
    assert legal(after, "add JK to K")
    assert legal(after.apply("add JK to K"), "discard 4")


def test_initial_meld_any_order() -> None:
    """modern-american 4.9 with 4.5 CC, WP, WCA: a meld of aces laid with a wild card may be the
    first meld of the turn, where the clean meld follows (issue 20: A A JK, then K K K K)."""
    st = turn("A A JK K K K K 4 6 9")
    after = st.apply("meld A A JK")
    assert not legal(after, "discard 4")  # 90 of the 125 needed
    after = after.apply("meld K K K").apply("add K")
    assert after.turn.natural_meld
    assert legal(after, "discard 4")


def test_initial_meld_with_the_pack_then_a_wild_card() -> None:
    """modern-american 3.7 CJ-T, HBC and 4.9: the pack picked with a natural pair for the initial
    meld makes a clean meld of three; a wild card added to it later in the turn is refused where
    no other clean meld could be laid."""
    st = turn("K K 2 A A JK Q Q 2 4 5 6 7", pile="5 9 K", phase="draw")
    taken = st.apply("take K K")
    assert taken.turn.natural_meld
    assert not legal(taken, "add 2 to K")
    after = taken.apply("meld A A JK").apply("meld Q Q 2")
    assert legal(after, "discard 4")


def test_always_a_discard() -> None:
    """modern-american 4.10 WCA / 6.3 WCA, CJ-2: going out means discarding the last card; a
    player may not go out by melding his last card."""
    st = turn("9", melds0=CANASTAS + ', "9 9 9"')
    assert not legal(st, "add 9")
    assert legal(st, "discard 9")


# ================================================================ 5 canastas, 6 going out


@pytest.mark.parametrize("meld,row,points", [
    ('"Q Q Q Q Q 2 2"', "mixed canastas", 300),
    ('"K K K K K K K"', "natural canastas", 500),
    ('"A A A A A A A"', "natural canastas of aces", 2500),
    ('"7 7 7 7 7 7 7"', "natural canastas of 7s", 2500),
    ('"JK JK JK 2 2 2 2"', "wild canastas", 2000),
    ('"JK JK JK JK 2 2 2"', "wild canastas of 2500", 2500),
    ('"2 2 2 2 2 2 2"', "wild canastas of 3000", 3000),
])
def test_canasta_bonuses(meld: str, row: str, points: int) -> None:
    """modern-american 5.1 CJ-2, WP, CJ-A7: mixed 300, natural 500, natural aces 2,500, sevens
    2,500, wild any mix 2,000, four jokers and three deuces 2,500, seven deuces 3,000."""
    other = '"9 9 9 9 9 2 2"' if row == "natural canastas" else '"9 9 9 9 9 9 9"'
    end = out(melds0=f"{meld}, {other}", pile="5 8")
    assert rows(end, 0)[row] == points


def test_two_canastas_to_go_out() -> None:
    """modern-american 6.1 WCA: a side needs at least two completed canastas, of any kind."""
    st = turn("9 4", melds0='"K K K K K K K", "Q Q Q", "9 9 9"')
    assert not legal(st, "add 9")
    assert "two canastas" in st.why_illegal("add 9")


def test_no_going_out_with_an_unfinished_special_meld() -> None:
    """modern-american 6.2 CJ-A7, CX: a side may not go out while it has an unfinished sevens
    meld, natural-aces meld or wild-card meld."""
    for special in ('"7 7 7"', '"A A A"', '"JK JK 2"'):
        st = turn("4 5", melds0=f"{CANASTAS}, {special}")
        assert legal(st, "discard 4")  # keeps a card
        st2 = turn("9 4", melds0=f"{CANASTAS}, {special}, \"9 9 9\"")
        assert not legal(st2, "add 9")  # would leave one card to go out with
        assert "not a canasta" in st2.why_illegal("add 9")


def test_no_concealed_bonus_and_no_question() -> None:
    """modern-american 6.4: no concealed-going-out bonus and no question to the partner."""
    v = canasta.load_variant(V)
    assert v.going_out.concealed.bonus == 0 and not v.going_out.permission
    st = turn("4 5", phase="draw")
    assert "ask" not in {str(a) for a in st.legal_actions()}


# ================================================================ 7 scoring


def test_going_out_100() -> None:
    """modern-american 7.1 CJ-2: going out 100 to the side that goes out."""
    assert rows(out(melds0=CANASTAS), 0)["going out"] == 100


@pytest.mark.parametrize("n,points", [(1, 100), (2, 300), (3, 500), (4, 1000)])
def test_threes_by_colour(n: int, points: int) -> None:
    """modern-american 7.3 CJ-2: threes of each colour: one 100, two 300, three 500, four
    1,000, the colours apart and added (plus with two canastas, 7.4)."""
    end = out(melds0=CANASTAS, red0=n, black0=4 - n if n < 4 else 0)
    r = rows(end, 0)
    assert r["red threes"] == points
    if n < 4:
        assert r["black threes faced"] == {1: 500, 2: 300, 3: 100}[n]


@pytest.mark.parametrize("melds,sign", [('"8 8 8"', -1), ('"J J J J J J J", "10 10 10"', 0),
                                        ('"J J J J J J J", "10 10 10 10 10 2 2"', 1)])
def test_the_sign_of_the_threes(melds: str, sign: int) -> None:
    """modern-american 7.4 CJ-2: no canasta: threes count minus; exactly one: zero; two or
    more: plus (red 300 for two, black 100 for one)."""
    st = turn("4", melds0=CANASTAS, melds1=melds, red1=2, black1=1)
    r = rows(st.apply("discard 4"), 1)
    assert sum(v for k, v in r.items() if "threes" in k and "hand" not in k) == sign * (300 + 100)


def test_a_three_in_hand_scores_minus_100() -> None:
    """modern-american 7.5 CJ-2, CJ-3: a three still in a hand at the end scores -100."""
    st = pos(f"""
        phase = "meld"
        to_act = 0
        pile = "5"
        [[seats]]
        hand = "4"
        [[seats]]
        hand = "3r 3b 5"
        [[sides]]
        melds = [{CANASTAS}]
        [turn]
        drew = true
        """)
    r = rows(st.apply("discard 4"), 1)
    assert r["red threes in hand"] == -100 and r["black threes in hand"] == -100


def test_a_three_drawn_last_scores_minus_5() -> None:
    """modern-american 7.5 CJ-2: a three drawn as the last card of the stock is left out of 7.3
    and scores -5 (the hand ends, 7.11)."""
    hand = "4 5"
    st = turn(hand, phase="draw", melds0=CANASTAS, stock="3b", red0=1,
              seat2=rest_of("3b", hand, CANASTAS, "5 9", "4 5 6", "4 5 6", "3r"))
    end = st.apply("draw")
    assert end.is_hand_over
    r = rows(end, 0)
    assert r["three drawn last"] == -5
    assert "black threes faced" not in r


def test_unfinished_special_melds() -> None:
    """modern-american 7.6 CJ-2, WP: unfinished sevens -2,500, natural aces -2,500, wild-card
    meld -2,000, added up."""
    end = out(melds0=CANASTAS, melds1='"7 7 7", "A A A A", "JK JK 2", "9 9 9"')
    assert rows(end, 1)["unfinished melds"] == -(2500 + 2500 + 2000)


def test_three_or_more_aces_or_sevens_held() -> None:
    """modern-american 7.7 CJ-3, WP: holding three or more aces at the end -1,500, three or more
    sevens -1,500, once per rank; their card values still count minus."""
    st = pos(f"""
        phase = "meld"
        to_act = 0
        pile = "5"
        [[seats]]
        hand = "4"
        [[seats]]
        hand = "A A A 7 7 7 7"
        [[sides]]
        melds = [{CANASTAS}]
        [[sides]]
        melds = ["J J J J J J J", "10 10 10 10 10 10 10"]
        [turn]
        drew = true
        """)
    r = rows(st.apply("discard 4"), 1)
    assert r["cards of a rank held"] == -3000
    assert r["cards left in hand"] == -(3 * 20 + 4 * 5)


def test_a_side_without_a_canasta_counts_everything_minus() -> None:
    """modern-american 7.8 CJ-3: melded cards count plus and cards in hand minus, but a side
    without a completed canasta counts every card minus."""
    r = rows(out(melds0=CANASTAS, melds1='"9 9 9", "8 8 8"'), 1)
    assert r["melded cards (no canasta)"] == -60


@pytest.mark.parametrize("total,need", [(-500, 125), (0, 125), (2995, 125), (3000, 155), (4995, 155),
                                        (5000, 180), (8000, 180)])
def test_initial_meld_requirement(total: int, need: int) -> None:
    """modern-american 7.9 CJ-1: below 3,000 (negative included) 125; 3,000 to 4,995 155;
    5,000 and over 180."""
    assert turn("4 5", totals=f"[{total}, 0]").initial_need(0) == need


def test_game_is_8500() -> None:
    """modern-american 7.10 CJ-1, CM, PO: the game is 8,500."""
    assert out(melds0=CANASTAS, totals="[8000, 0]").is_game_over
    assert not out(melds0=CANASTAS, totals="[7000, 0]").is_game_over


def test_card_values() -> None:
    """modern-american 1.4: joker 50, deuce 20, ace 20, king to eight 10, seven to four 5 (melded
    plus, held minus); threes have no card value of their own (7.3-7.5 score them)."""
    v = canasta.load_variant(V).scoring.card_values
    assert (v.joker, v.two, v.ace, v.king, v.eight, v.seven, v.four, v.black_three) == (
        50, 20, 20, 10, 10, 5, 5, 0)
    r = rows(out(melds0=CANASTAS, melds1='"J J J J J J J", "8 8 8 JK"'), 1)
    assert r["melded cards"] == 7 * 10 + 3 * 10 + 50


def test_an_ace_canasta_with_wild_cards_is_mixed() -> None:
    """modern-american 5.2: an ace canasta that took wild cards under the 4.5 exception is a
    mixed canasta (300), not the natural aces' 2,500."""
    r = rows(out(melds0='"A A A A A 2 2", "K K K K K K K"'), 0)
    assert r["mixed canastas"] == 300 and "natural canastas of aces" not in r


def test_stock_exhaustion() -> None:
    """modern-american 7.11 (A11): as the wikipedia reading, the hand ends when the player in
    turn must draw and the stock is empty, unless he takes the pack; no going-out bonus."""
    hand = "4 5"
    st = turn(hand, phase="draw", melds0=CANASTAS, stock="8", pile="5 9",
              seat2=rest_of(hand, CANASTAS, "8", "5 9", "4 5 6", "4 5 6"))
    end = st.apply("draw").apply("discard 8")  # seat 1 cannot take the pack: the hand ends
    assert end.is_hand_over and end.result.went_out is None
    assert "going out" not in rows(end, 0)
