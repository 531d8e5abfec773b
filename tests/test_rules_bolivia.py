"""Scenario tests: each rule statement of the Bolivia digest, asked of the engine.

Sources: Bicycle, "Bolivia" (BC), Rummy-Games, "Bolivia" (RG) and an archived "Bolivian Canasta"
page (BN), then White Knuckle (WK), as digested in ../shared/rules/beyond/bolivia.md, whose
rule numbers the tests cite; variant ``bolivia``. Bolivia is "Samba with these changes": the
rules it takes from Samba unchanged are tested in tests/test_rules_samba.py and asked here only
where they meet a change. Positions are written in the position format (``load_position``) with
suited cards (``7h 10s JK 2 3r``; a group meld ``"7 7 7 JK"``, a meld of wild cards
``"JK 2 2"``, a sequence meld by its cards ``"5h 6h 7h"``); seats 0 and 2 are side 0, seats 1
and 3 side 1; seat 0 is to act.
"""

from __future__ import annotations

from functools import partial

import pytest

import canasta
from canasta import GameState, IllegalActionError, Meld, SuitedCard, Take, parse_action

import helpers
from helpers import held, legal, rows, run, takes

V = "bolivia"
OTHERS = ("4d 5s 6c", "4s 5d 6d", "Jc Jd 10s")
"""The hands of seats 1, 2 and 3 unless a test says otherwise."""


pos = partial(helpers.pos, variant=V)
turn = partial(helpers.turn, V, pile="5c 9h", totals="[0, 0]", others=OTHERS)
"""Seat 0 to act holding ``hand`` (drawn already in the meld phase); melds are TOML lists."""


NAT = '"K K K K K K K"'
ESCALERA = '"5h 6h 7h 8h 9h 10h Jh"'
BOLIVIA = '"JK JK JK 2 2 2 2"'
TWO_CANASTAS = NAT + ", " + ESCALERA


def out(melds0: str = TWO_CANASTAS, **kw) -> GameState:  # type: ignore[no-untyped-def]
    """Seat 0 goes out by discarding his last card (a 4 of clubs)."""
    return turn("4c", melds0=melds0, **kw).apply("discard 4c")


# ================================================================ 1 players and decks, 2 deal, 3 pile


def test_four_players_three_packs() -> None:
    """bolivia 1.1 BC/WK: four players in two partnerships; 1.2 BN/WK: three packs and six
    jokers, 162 cards, twos and jokers wild; 2.1 BN: fifteen cards each."""
    assert canasta.load_variant(V).default_players == 4
    st = canasta.new_game(V, seed=1)
    assert [st.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    deck = st._rules.deck
    assert sum(deck[:15]) == 162 and deck[0] == 6 and deck[1] == 12
    assert [sum(h[:15]) for h in st.hands] == [15] * 4


def test_deuces_and_jokers_mix_in_a_wild_meld() -> None:
    """bolivia 1.3 BC/RG: no distinction between deuces and jokers as wild cards: they mix
    freely in any meld, a meld of wild cards included (4.2)."""
    st = turn("JK 2 2 JK 2 4c 5c", melds0='"Q Q Q"')
    assert legal(st, "meld JK 2 2") and legal(st, "meld JK JK 2")
    st = st.apply("meld JK 2 2")
    assert legal(st, "add JK to wild") and legal(st, "add 2 to wild")
    st = run(st, "add JK to wild", "add 2 to wild")
    wild = next(m for m in st.melds[0] if m.naturals == 0)
    assert (wild.jokers, wild.twos) == (2, 3)


def test_card_values_differ_for_joker_and_deuce() -> None:
    """bolivia 1.3 (card values still differ): joker 50, deuce 20, in a meld and in a hand."""
    end = out(melds0=TWO_CANASTAS + ', "JK JK 2"', others=("JK 2 2 4d", "4s 5d 6d", "Jc"))
    assert rows(end, 0)["melded cards"] == 70 + 55 + 120
    assert rows(end, 1)["cards left in hand"] == -(50 + 40 + 5 + 10)


def test_draw_two() -> None:
    """bolivia 3.1 BN: draw two from the stock, discard one."""
    st = turn("4c 5c 6c", melds0='"Q Q Q"', phase="draw", stock="Ks Qd rest").apply("draw")
    assert held(st, 0, "Ks") == 1 and held(st, 0, "Qd") == 1 and sum(st.hands[0][:15]) == 5


@pytest.mark.parametrize("top", ["JK", "2"])
def test_wild_card_on_top_never_taken(top: str) -> None:
    """bolivia 3.2 BC/RG: a pile topped by a wild card cannot be taken, not even with a pair of
    wild cards from the hand (digest A3), nor onto the side's meld of wild cards."""
    st = turn("JK 2 2 JK 4c", melds0='"Q Q Q", "JK 2 2"', pile=f"5c 9h {top}", phase="draw")
    assert takes(st) == set()


def test_pile_rules_as_samba() -> None:
    """bolivia 3.3 BC/RG (samba 3.3-3.6): the pile is taken with a natural pair even when
    frozen, never with a natural and a wild card, and when unfrozen onto the end of a sequence
    that is not yet a canasta."""
    st = turn("9s 9d 2 4c", melds0='"Q Q Q"', pile="5c 2 8d 9h", phase="draw")
    assert st.frozen and takes(st) == {"take 9s 9d"}
    st = turn("9s 2 4c", melds0='"Q Q Q", "5h 6h 7h"', pile="5c 8h", phase="draw")
    assert takes(st) == {"take onto hearts"}
    st = turn("7h 8h 4c", melds0='"Q Q Q"', pile="5c 9h", phase="draw")
    assert takes(st) == set()  # never to start a sequence


# ================================================================ 4 melds


def test_groups_at_most_two_wild_cards() -> None:
    """bolivia 4.1 BC/RG (as Samba, digest A1): a group holds at least two naturals and at most
    two wild cards."""
    st = turn("9s 9d 2 JK 2 4c 5c", melds0='"Q Q Q"')
    assert not legal(st, "meld 9s JK 2")
    st = run(st, "meld 9s 9d JK", "add 2 to 9")
    assert not legal(st, "add 2 to 9")


def test_wild_meld_of_three_to_seven_closed_at_seven() -> None:
    """bolivia 4.2 BC/RG/BN: three or more wild cards form a meld of their own (BN: three to
    seven); 5.1 RG: at seven it is a bolivia, and no card may be added to it."""
    st = turn("JK 2 4c 5c", melds0='"Q Q Q"')
    assert not any(isinstance(a, Meld) for a in st.legal_actions())
    st = turn("JK 2 4c 5c", melds0='"Q Q Q", "JK JK 2 2 2 2"')
    assert legal(st, "add JK to wild")
    st = st.apply("add JK to wild")
    assert not legal(st, "add 2 to wild")
    st = turn("JK 2 4c 5c", melds0='"Q Q Q", ' + BOLIVIA)
    assert not legal(st, "add JK to wild") and not legal(st, "add 2 to wild")
    # the refusal names the meld of wild cards (issue 20: it named "4s of clubs")
    assert st.why_illegal("add 2 to wild").startswith("your meld of wild cards is a canasta")


def test_no_wild_card_onto_a_group_canasta() -> None:
    """bolivia 4.1 (Samba 4.7): no wild card is added to a completed group canasta, even with a
    meld of wild cards allowed."""
    st = turn("2 JK 4c", melds0=NAT + ', "Q Q Q"')
    assert not legal(st, "add 2 to K") and legal(st, "add 2 to Q")


def test_sequences_as_samba() -> None:
    """bolivia 4.3 BN/WK: sequences as Samba: natural cards of one suit in a row, four low, ace
    high, no wild card, at most seven."""
    st = turn("4h 5h 6h 2 Ah 4c", melds0='"Q Q Q"')
    assert legal(st, "meld 4h 5h 6h")
    assert not legal(st, "meld 4h 5h Ah")
    st = st.apply("meld 4h 5h 6h")
    assert not legal(st, "add 2 to hearts")
    st = turn("Qh 4h 4c 5c", melds0=ESCALERA + ', "Q Q Q"')
    assert not legal(st, "add Qh to hearts") and not legal(st, "add 4h to hearts")


def test_black_threes_melded_only_in_going_out() -> None:
    """bolivia 4.4 BC: black threes are melded only by a player going out."""
    st = turn("3b 3b 3b 4c 5c", melds0=TWO_CANASTAS)
    assert not legal(st, "meld 3b 3b 3b")
    st = turn("3b 3b 3b 4c", melds0=TWO_CANASTAS)
    end = run(st, "meld 3b 3b 3b", "discard 4c")
    assert end.result.went_out == 0


# ================================================================ 5 canastas


def test_canasta_bonuses() -> None:
    """bolivia 5.1 BC/RG/BN/WK: natural 500, mixed 300, escalera 1,500, bolivia (seven wild
    cards) 2,500."""
    end = out(melds0=TWO_CANASTAS + ', "Q Q Q Q Q JK 2", ' + BOLIVIA)
    r = rows(end, 0)
    assert r["natural canastas"] == 500
    assert r["mixed canastas"] == 300
    assert r["sequence canastas"] == 1500
    assert r["wild canastas"] == 2500


def test_escalera_and_bolivia_count_as_canastas() -> None:
    """bolivia 5.2 BC/BN: escaleras and bolivias are canastas for every rule that counts them: an
    escalera and a bolivia let a side go out (6.1) and make its red threes plus (7.4)."""
    st = turn("4c", melds0=ESCALERA + ", " + BOLIVIA, red0=1)
    assert legal(st, "discard 4c")
    r = rows(st.apply("discard 4c"), 0)
    assert r["red threes"] == 100
    end = out(melds1=BOLIVIA + ', "4s 5s 6s 7s 8s 9s 10s"', red1=2)
    assert rows(end, 1)["red threes"] == 200


# ================================================================ 6 going out


@pytest.mark.parametrize("melds", [NAT + ', "Q Q Q Q Q 2 JK"', NAT + ", " + BOLIVIA,
                                   NAT + ', "Q Q Q Q Q Q Q", ' + BOLIVIA])
def test_going_out_needs_an_escalera(melds: str) -> None:
    """bolivia 6.1 BC/RG/BN: a side needs two canastas to go out, at least one of them an
    escalera: group canastas and bolivias alone are not enough."""
    st = turn("9s 9d 9h 4c", melds0=melds)
    assert not legal(st, "meld 9s 9h 9d")  # it would leave only the card to discard
    assert "sequence canasta" in st.why_illegal(parse_action("meld 9s 9h 9d"))


@pytest.mark.parametrize("melds", [NAT + ", " + ESCALERA, ESCALERA + ", " + BOLIVIA,
                                   ESCALERA + ', "4s 5s 6s 7s 8s 9s 10s"'])
def test_two_canastas_with_an_escalera_go_out(melds: str) -> None:
    """bolivia 6.1 BC/RG/BN: two canastas, one of them an escalera, let a side go out."""
    st = turn("9s 9d 9h 4c", melds0=melds)
    end = run(st, "meld 9s 9h 9d", "discard 4c")
    assert end.result.went_out == 0


def test_one_escalera_alone_is_not_enough() -> None:
    """bolivia 6.1: two canastas are needed; an escalera alone is one."""
    st = turn("9s 9d 9h 4c", melds0=ESCALERA + ', "Q Q Q Q Q Q"')
    assert not legal(st, "meld 9s 9h 9d")


def test_no_concealed_bonus_going_out_200() -> None:
    """bolivia 6.2 (as Samba 6.2, 7.1) and 7.5: no bonus for going out concealed; going out
    200."""
    st = turn("Ks Ks Kh Kh Kd Kd Kc 5h 6h 7h 8h 9h 10h Jh 4c", opened0=False)
    st = run(st, "meld Ks Ks Kh", "add Kh to K", "add Kd to K", "add Kd to K", "add Kc to K",
             "meld 5h 6h 7h", "add 8h to hearts", "add 9h to hearts", "add 10h to hearts",
             "add Jh to hearts", "discard 4c")
    assert st.result.went_out == 0
    r = rows(st, 0)
    assert r["going out"] == 200 and "concealed" not in r


def test_may_go_out_without_asking() -> None:
    """bolivia 6.2 (permission as Canasta): a player may ask, and may go out without asking."""
    st = turn("9s 9d 9h 4c", melds0=TWO_CANASTAS)
    assert legal(st, "ask")
    assert run(st, "meld 9s 9h 9d", "discard 4c").result.went_out == 0


# ================================================================ 7 scoring


def test_game_is_15000() -> None:
    """bolivia 7.1 BC/RG/BN: game is 15,000."""
    end = out(totals="[14000, 0]")
    assert end.is_game_over and end.winners == (0,)
    end = out(totals="[11000, 0]")
    assert end.totals[0] > 10000 and not end.is_game_over


@pytest.mark.parametrize("total,need", [(-10, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90),
                                        (3000, 120), (6995, 120), (7000, 150), (12000, 150)])
def test_initial_meld_minimum(total: int, need: int) -> None:
    """bolivia 7.2 BN/BC/RG: below 0 15; 0-1,495 50; 1,500-2,995 90; 3,000-6,995 120; 7,000 and
    over 150 (not Samba's 160: digest A2)."""
    st = turn("4c 5c 6c", totals=f"[{total}, 0]", opened0=False)
    assert st.initial_need(0) == need


def test_initial_meld_of_155_opens_at_7000() -> None:
    """bolivia 7.2: from 7,000 the minimum is 150: aces and two wild cards (130) with five
    sevens (25) open."""
    st = turn("As Ah Ad JK 2 7s 7h 7d 7c 7c 5c 6c", totals="[7000, 0]", opened0=False)
    st = run(st, "meld As Ah Ad", "add JK to A", "add 2 to A", "meld 7s 7h 7d")
    assert not st.opened[0]
    st = run(st, "add 7c to 7", "add 7c to 7")
    assert st.opened[0]


def test_black_threes_left_in_hand_minus_100() -> None:
    """bolivia 7.3 BC/RG/BN: each black three left in a player's hand when anyone goes out, the
    partner of the player going out included, counts -100 (instead of its card value)."""
    end = out(others=("3b 4d", "3b 3b 4s", "Jc"))
    r0, r1 = rows(end, 0), rows(end, 1)
    assert r0["black threes in hand"] == -200 and r0["cards left in hand"] == -5
    assert r1["black threes in hand"] == -100 and r1["cards left in hand"] == -(5 + 10)


def test_black_threes_melded_in_going_out_count_5() -> None:
    """bolivia 7.3 BC/RG/BN: black threes melded by the player going out count 5 each."""
    end = run(turn("3b 3b 3b 4c", melds0=TWO_CANASTAS), "meld 3b 3b 3b", "discard 4c")
    r = rows(end, 0)
    assert r["melded cards"] == 70 + 55 + 15
    assert "black threes in hand" not in r


@pytest.mark.parametrize("n,points", [(1, 100), (4, 400), (6, 1000)])
def test_red_threes_plus_with_two_canastas(n: int, points: int) -> None:
    """bolivia 7.4 BN: red threes 100 each, all six 1,000; plus for a side with two canastas of
    any kind (two group canastas, no escalera, for the side not going out)."""
    assert rows(out(red0=n), 0)["red threes"] == points
    end = out(melds1='"A A A A A A A", "Q Q Q Q Q 2 2"', red1=n)
    assert rows(end, 1)["red threes"] == points


@pytest.mark.parametrize("n,points", [(2, 200), (6, 1000)])
def test_red_threes_minus_with_fewer_than_two_canastas(n: int, points: int) -> None:
    """bolivia 7.4 BN: red threes count minus for a side without two canastas."""
    end = out(melds1=BOLIVIA + ', "Q Q Q"', red1=n)
    r = rows(end, 1)
    assert r["red threes (too few canastas)"] == -points and "red threes" not in r
