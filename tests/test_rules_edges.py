"""Rule edges that the mutation run (``tests/mutation/mutate.py``) found guarded by too few tests.

Each test is a scenario at the edge of a rule statement, cited as in the variant's own rules
file: the mutant that survived the variant's scenario tests is named in the test's docstring.
Positions come from the shared helpers (``tests/helpers.py``).
"""

from __future__ import annotations

from canasta import GameState

from helpers import legal, pos, turn

FEET = "4 5 6"  # a foot still to pick up


def test_hand_and_foot_a_meld_of_six_still_blocks_a_new_one() -> None:
    """hand-and-foot A11 (pagat, Whitnack rules, digest hand-and-foot.md): one open meld of a
    rank; a new one may start only once the previous is complete, closed at seven (4.4). Six
    kings are not yet complete: no second meld of kings; at seven there may be one. (Mutant
    ``new-meld-before-complete``: a meld of six no longer blocking.)"""
    six = turn("hand-and-foot", "K K K 8 9", '"K K K K K K"', downs=("", FEET, FEET, FEET))
    assert not legal(six, "meld K K K")
    assert legal(six, "add K to K")
    seven = turn("hand-and-foot", "K K K 8 9", '"K K K K K K K"', downs=("", FEET, FEET, FEET))
    assert legal(seven, "meld K K K")


def test_hoyle_may_ask_only_when_able_to_go_out_counting_three_wild_cards_a_meld() -> None:
    """hoyle-1950 rule 50: "If able to go out ... a player may ask his partner 'May I go out?'";
    rule 48: only with a canasta; rule 23 (and the summary): "not more than three wild cards"
    in a meld. Holding A 8 2 2 JK beside 10-10-10-JK and 8-8-2, no meld can reach seven cards
    with three wild cards at most (six at best), so he is not able to go out and may not ask;
    with a fourth ten instead of the eight the tens make a canasta (10-10-10-10-JK-2-2), the
    joker goes on the eights and the ace is discarded: he may ask. (Mutant
    ``planner-wild-room``: the plan of the turn counting a fourth wild card on a meld.)"""
    melds = '"10 10 10 JK", "8 8 2"'
    stuck = turn("hoyle-1950", "A 8 2 2 JK", melds)
    assert not legal(stuck, "ask")
    able = turn("hoyle-1950", "A 10 2 2 JK", melds)
    assert legal(able, "ask")
    out = able.apply("ask").apply("yes")
    for action in ("add 10", "add 2 to 10", "add 2 to 10", "add JK to 8", "discard A"):
        out = out.apply(action)
    assert out.result is not None and out.result.went_out == 0


def test_hand_and_foot_the_pile_never_carries_a_meld_past_seven() -> None:
    """hand-and-foot 4.1 (pagat notes): "a meld ... is three to seven cards of one natural rank;
    at seven it is complete and takes no further card"; the pile taken with a natural pair
    puts the pair and the top card on the side's open meld of that rank (one open meld of a
    rank, A11). With A-A-A-2 on the table the ace pair and the top ace make seven: the pile may
    be taken; with A-A-A-A-2 they would make eight: it may not. (Mutant
    ``closed-check-in-valid-only``, seeded by the golden trace hand-and-foot-4.)"""
    feet = ("4 5 6",) * 4
    four = turn("hand-and-foot", "A A 5 6 9 K", '"A A A 2"', phase="draw", pile="5 9 A", downs=feet)
    assert legal(four, "take A A")
    assert four.apply("take A A").melds[0][0].size == 7
    five = turn("hand-and-foot", "A A 5 6 9 K", '"A A A A 2"', phase="draw", pile="5 9 A", downs=feet)
    assert not legal(five, "take A A")
    assert "7 cards" in five.why_illegal("take A A")


def _brazilian_two(hand: str) -> GameState:
    """brazilian, two players (each for himself: no partner to ask): seat 0 has drawn, holding
    ``hand``, beside a natural canasta of kings and the escalera 6h to Qh."""
    return pos("""
        phase = "meld"
        to_act = 0
        pile = "5c 9d"
        [[seats]]
        hand = "{hand}"
        melded = true
        [[seats]]
        hand = "4d 5s 6c 9s"
        [[sides]]
        melds = ["K K K K K K K", "6h 7h 8h 9h 10h Jh Qh"]
        [[sides]]
        [turn]
        drew = true
        """.format(hand=hand), "brazilian", 2)


def test_brazilian_an_escalera_passes_seven_only_in_going_out_without_a_partner() -> None:
    """brazilian 4.2 (Bicycle, rummy-games; digest brazilian.md): "in the turn a player goes
    out he may add cards to either end of a completed escalera (so it passes seven cards). At
    no other time may a sequence exceed seven." With two players nobody asks leave (6.1 asks a
    partner), so nothing but 4.2 binds him: holding Kh 4c he may put the king on and go out by
    discarding the 4; holding Kh 5c 9s he could not go out after it, so the king may not go
    on. (Mutant ``past-seven-any-time``, seeded by the golden trace brazilian-2.)"""
    able = _brazilian_two("Kh 4c")
    assert legal(able, "add Kh to hearts")
    out = able.apply("add Kh to hearts").apply("discard 4c")
    assert out.result is not None and out.result.went_out == 0
    stuck = _brazilian_two("Kh 5c 9s")
    assert not legal(stuck, "add Kh to hearts")
    assert "goes out" in stuck.why_illegal("add Kh to hearts")
