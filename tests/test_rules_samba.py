"""Scenario tests: each rule statement of the Samba digest, asked of the engine.

Sources: Bicycle, "Samba" (BC) and the Official Canasta Laws (OCL), then HowStuffWorks (HSW)
and White Knuckle (WK), as digested in ../shared/rules/beyond/samba.md, whose rule numbers the
tests cite; variant ``samba``. Rules the digest inherits unchanged from the 1950 laws are
tested in tests/test_rules_hoyle.py; here they are asked only where suits or three packs make
them differ. Positions are written in the position format (``load_position``) with suited
cards (``7h 10s JK 2 3r``; a group meld ``"7 7 7 JK"``, a sequence meld by its cards
``"5h 6h 7h"``); seats 0 and 2 are side 0, seats 1 and 3 side 1; seat 0 is to act.
"""

from __future__ import annotations

from functools import partial

import pytest

import canasta
from canasta import GameState, IllegalActionError, Meld, Phase, SuitedCard, Take, parse_action
from canasta._position_doc import PositionError

import helpers
from helpers import held, legal, rows, run, takes

V = "samba"
OTHERS = ("4d 5s 6c", "4s 5d 6d", "Jc Jd 10s")
"""The hands of seats 1, 2 and 3 unless a test says otherwise."""


pos = partial(helpers.pos, variant=V)
turn = partial(helpers.turn, V, pile="5c 9h", totals="[0, 0]", others=OTHERS)
"""Seat 0 to act holding ``hand`` (drawn already in the meld phase); melds are TOML lists."""


NAT = '"K K K K K K K"'
SAMBA = '"5h 6h 7h 8h 9h 10h Jh"'
TWO_CANASTAS = NAT + ", " + SAMBA


def out(melds0: str = TWO_CANASTAS, **kw) -> GameState:  # type: ignore[no-untyped-def]
    """Seat 0 goes out by discarding his last card (a 4 of clubs)."""
    return turn("4c", melds0=melds0, **kw).apply("discard 4c")


# ================================================================ 1 players and decks, 2 deal


def test_four_players_in_two_partnerships() -> None:
    """samba 1.1 BC/OCL: the standard game is four players, two partnerships, partners
    opposite."""
    v = canasta.load_variant(V)
    assert v.default_players == 4
    st = canasta.new_game(V, seed=1)
    assert [st.side_of(s) for s in range(4)] == [0, 1, 0, 1]


@pytest.mark.parametrize("players,sides", [(2, [0, 1]), (3, [0, 1, 2]), (5, [0, 1, 2, 3, 4]),
                                           (6, [0, 1, 2, 0, 1, 2])])
def test_other_tables(players: int, sides: list[int]) -> None:
    """samba 1.2 PG/WK: also 2, 3 or 5 each for himself, and 6 as three partnerships of two,
    partners separated by two players (sides ABCABC); every seat plays."""
    st = canasta.new_game(V, players, seed=2)
    assert [st.side_of(s) for s in range(players)] == sides
    assert all(sum(h[:15]) > 0 for h in st.hands)


def test_three_packs_and_six_jokers() -> None:
    """samba 1.3 BC/OCL: three 52-card packs and six jokers, 162 cards, eighteen wild; 1.4 twos
    and jokers are the wild cards."""
    deck = canasta.new_game(V, seed=3)._rules.deck
    assert sum(deck[:15]) == 162
    assert deck[0] == 6 and deck[1] == 12  # six jokers, twelve deuces: eighteen wild
    assert deck[2] == 6 and deck[3] == 6  # red and black threes
    assert all(deck[k] == 12 for k in range(4, 15))


def test_each_suited_card_three_times() -> None:
    """samba 1.3: three packs hold each natural card (rank and suit) three times; a position
    with a fourth is refused."""
    with pytest.raises(PositionError, match="too many"):
        turn("9s 9s 9s 9s 4c")
    turn("9s 9s 9s 4c")  # three are fine


@pytest.mark.parametrize("players,size", [(4, 15), (2, 15), (6, 13)])
def test_fifteen_cards_each(players: int, size: int) -> None:
    """samba 2.1 BC/OCL/HSW: fifteen cards each; with six players thirteen each (PG)."""
    for seed in range(3):
        st = canasta.new_game(V, players, seed=seed)
        assert [sum(h[:15]) for h in st.hands] == [size] * players


def test_deal_red_threes_faced_and_upcard() -> None:
    """samba 2.2 (Canasta laws): the rest is the stock, its top card starts the pile; red threes
    are faced and replaced (by each player at his first turn: the first player's are faced
    already); a wild or red-three upcard is covered and freezes the pile."""
    covered = 0
    for seed in range(40):
        st = canasta.new_game(V, seed=seed)
        assert st.hands[st.current_player][2] == 0
        in_play = (sum(sum(h[:15]) for h in st.hands) + len(st.stock) + len(st.pile)
                   + sum(st.red_threes))
        assert in_play == 162
        assert st.pile and st.pile[-1] not in (0, 1, 2)  # the pile is never topped by wild or red 3
        if st.pile[0] in (0, 1, 2):
            covered += 1
            assert len(st.pile) >= 2 and st.frozen
    assert covered


# ================================================================ 3 draw and the pile


def test_draw_two_from_the_stock() -> None:
    """samba 3.1 BC/OCL/HSW: in his turn a player draws two cards from the stock and discards
    one."""
    st = turn("4c 5c 6c", melds0='"Q Q Q"', phase="draw", stock="Ks Qd rest")
    n = len(st.stock)
    st = st.apply("draw")
    assert st.phase is Phase.MELD
    assert sum(st.hands[0][:15]) == 5 and len(st.stock) == n - 2
    assert held(st, 0, "Ks") == 1 and held(st, 0, "Qd") == 1
    st = st.apply("discard Ks")
    assert sum(st.hands[0][:15]) == 4 and st.current_player == 1


def test_taking_the_pile_draws_nothing() -> None:
    """samba 3.2 OCL: a player who takes the pile draws nothing from the stock that turn."""
    st = turn("9s 9d 4c", melds0='"Q Q Q"', pile="Kc 8d 9h", phase="draw")
    n = len(st.stock)
    st = st.apply("take 9s 9d")
    assert len(st.stock) == n
    assert held(st, 0, "Kc") == 1 and held(st, 0, "8d") == 1
    assert not legal(st, "draw")


def test_pile_always_taken_with_a_natural_pair() -> None:
    """samba 3.3 BC/OCL: the pile may always be taken, frozen or not, with two natural cards of
    the top card's rank, melded with the top card."""
    st = turn("9s 9d 4c", melds0='"Q Q Q"', pile="5c 2 8d 9h", phase="draw")
    assert st.frozen
    assert legal(st, "take 9s 9d")
    after = st.apply("take 9s 9d")
    assert any(m.rank == 9 and m.naturals == 3 for m in after.melds[0])
    st = turn("9s 9d 4c", melds0='"Q Q Q"', pile="5c 9h", phase="draw")
    assert not st.frozen and legal(st, "take 9s 9d")


def test_pile_never_taken_with_a_natural_and_a_wild_card() -> None:
    """samba 3.4 OCL: the pile may never be taken with one natural and one wild card, even when
    it is not frozen."""
    st = turn("9s 2 JK 4c", melds0='"Q Q Q"', pile="5c 9h", phase="draw")
    assert not st.frozen
    assert takes(st) == set()
    assert not legal(st, "take 9s 2") and not legal(st, "take 9s JK")


def test_unfrozen_pile_taken_onto_a_group_not_yet_a_canasta() -> None:
    """samba 3.5 BC: when the pile is not frozen it may be taken by putting the top card onto
    one of the side's groups of fewer than seven; the whole pile comes along (digest A2)."""
    st = turn("4c 5c", melds0='"9 9 9 9 9 9", "Q Q Q"', pile="Kc 8d 9h", phase="draw")
    assert legal(st, "take onto 9")
    after = st.apply("take onto 9")
    assert any(m.rank == 9 and m.naturals == 7 for m in after.melds[0])
    assert held(after, 0, "Kc") == 1 and held(after, 0, "8d") == 1 and after.pile == ()


@pytest.mark.parametrize("top", ["4h", "8h"])
def test_unfrozen_pile_taken_onto_either_end_of_a_sequence(top: str) -> None:
    """samba 3.5 BC/OCL: the unfrozen pile may be taken by putting the top card on an end of a
    sequence of fewer than seven that it extends (same suit, next rank)."""
    st = turn("4c 5c", melds0='"5h 6h 7h", "Q Q Q"', pile=f"Kc {top}", phase="draw")
    assert legal(st, "take onto hearts")
    after = st.apply("take onto hearts")
    seq = next(m for m in after.melds[0] if m.is_sequence)
    assert seq.naturals == 4 and seq.low == (4 if top == "4h" else 5)
    assert held(after, 0, "Kc") == 1


def test_unfrozen_pile_taken_onto_a_sequence_of_six_makes_a_samba() -> None:
    """samba 3.5 BC/OCL: a sequence of six is not yet a canasta: the top card may complete it."""
    st = turn("4c 5c", melds0='"5h 6h 7h 8h 9h 10h", "9 9 9"', pile="8d Jh", phase="draw")
    assert takes(st) == {"take onto hearts"}
    seq = st.apply("take onto hearts").melds[0][0]
    assert (seq.low, seq.naturals) == (5, 7)


def test_top_card_onto_a_sequence_only_of_its_suit_and_next_rank() -> None:
    """samba 3.5: the top card must extend the sequence's end: same suit and the next rank."""
    for top in ("8s", "9h", "6h"):
        st = turn("4c 5c", melds0='"5h 6h 7h", "Q Q Q"', pile=f"Kc {top}", phase="draw")
        assert takes(st) == set(), top


def test_frozen_pile_not_taken_onto_a_meld() -> None:
    """samba 3.5 BC: the pile is taken onto a meld only when it is not frozen (a wild card in
    it freezes it, 3.7); the natural pair still takes it (3.3)."""
    st = turn("9s 9d 4c", melds0='"9 9 9", "5h 6h 7h"', pile="5c JK 8h", phase="draw")
    assert st.frozen
    assert not legal(st, "take onto hearts")
    st = turn("9s 9d 4c", melds0='"9 9 9", "5h 6h 7h"', pile="5c JK 9h", phase="draw")
    assert not legal(st, "take onto 9")
    assert legal(st, "take 9s 9d")


def test_not_taken_onto_a_group_canasta_but_with_a_pair() -> None:
    """samba 3.6 BC/HSW: the pile may not be taken to put the top card on a completed canasta,
    unless with a natural pair (3.3)."""
    st = turn("4c 5c", melds0=NAT + ', "Q Q Q"', pile="8d Kh", phase="draw")
    assert not legal(st, "take onto K")
    assert takes(st) == set()
    st = turn("Ks Kd 5c", melds0=NAT + ', "Q Q Q"', pile="8d Kh", phase="draw")
    assert legal(st, "take Ks Kd")


@pytest.mark.parametrize("top", ["4h", "Qh"])
def test_not_taken_onto_a_samba(top: str) -> None:
    """samba 3.5/3.6 BC/OCL: only onto a sequence of fewer than seven: never onto a samba."""
    st = turn("4c 5c", melds0=SAMBA + ', "9 9 9"', pile=f"8d {top}", phase="draw")
    assert not legal(st, "take onto hearts")
    assert takes(st) == set()


def test_pile_never_taken_to_start_a_sequence() -> None:
    """samba 3.6 BC/HSW/OCL: the pile may not be taken to start a sequence, even with two cards
    of the top card's suit in order in the hand."""
    for hand in ("7h 8h 4c", "10h Jh 4c", "8h 10h 4c"):
        st = turn(hand, melds0='"Q Q Q"', pile="5c 9h", phase="draw")
        assert not st.frozen
        assert takes(st) == set(), hand


def test_pile_never_taken_by_combining_the_top_card_with_a_hand_card() -> None:
    """samba 3.6 OCL: the pile may not be taken by combining the top card with a card from the
    hand to lengthen a sequence (8h from the hand and the top 9h onto 5h 6h 7h)."""
    st = turn("8h 4c", melds0='"5h 6h 7h", "Q Q Q"', pile="5c 9h", phase="draw")
    assert takes(st) == set()
    assert not legal(st, "take onto hearts")


def test_black_three_or_wild_card_on_top_cannot_be_taken() -> None:
    """samba 3.7 (Canasta laws): a black three or a wild card on top cannot be taken, even with
    a pair of the same cards."""
    st = turn("3b 3b 4c", melds0='"Q Q Q"', pile="5c 3b", phase="draw")
    assert takes(st) == set()
    st = turn("2 2 JK 4c", melds0='"Q Q Q"', pile="5c 2", phase="draw")
    assert takes(st) == set()


def test_initial_meld_on_a_take_counts_only_the_top_card() -> None:
    """samba 3.8 (Canasta laws): the initial meld may be made while taking the pile; only the
    top card counts toward the minimum (the kings below it do not)."""
    st = turn("9s 9d 5c 6c", pile="Ks Kd Kh 9h", phase="draw")
    assert st.initial_need(0) == 50
    assert not legal(st, "take 9s 9d")  # 30 < 50, the pile's kings do not count
    st = turn("9s 9d As Ah Ad 5c", pile="Ks Kd Kh 9h", phase="draw")
    assert legal(st, "take 9s 9d")  # 30 + 60 from the hand
    st = st.apply("take 9s 9d")
    st = st.apply("meld As Ah Ad")
    assert st.opened[0]


# ================================================================ 4 melds


def test_group_needs_two_naturals_and_holds_at_most_two_wild_cards() -> None:
    """samba 4.1 BC/OCL/WK: a group is three or more cards of one rank with at least two
    naturals and at most two wild cards."""
    st = turn("9s 9d 2 JK 2 4c 5c", melds0='"Q Q Q"')
    assert not legal(st, "meld 9s JK 2")
    assert legal(st, "meld 9s 9d 2")
    st = run(st, "meld 9s 9d JK", "add 2 to 9")
    assert not legal(st, "add 2 to 9")
    assert "wild" in st.why_illegal(parse_action("add 2 to 9"))
    st = turn("2 JK 4c 5c", melds0='"Q Q Q Q Q 2 JK"')
    assert not legal(st, "add 2 to Q")


def test_no_meld_of_wild_cards_only() -> None:
    """samba 4.2 BC/HSW/WK: wild cards may not be melded on their own."""
    st = turn("JK 2 2 JK 4c", melds0='"Q Q Q"')
    assert not legal(st, "meld JK 2 2")
    assert not any(isinstance(a, Meld) for a in st.legal_actions())


def test_sequence_of_one_suit_in_consecutive_order() -> None:
    """samba 4.3 BC/OCL/WK: a sequence is three or more natural cards of one suit in
    consecutive rank order."""
    st = turn("5h 6h 7h 7s 8h 4c", melds0='"Q Q Q"')
    assert legal(st, "meld 5h 6h 7h")
    assert not legal(st, "meld 5h 6h 7s")
    assert "suit" in st.why_illegal(parse_action("meld 5h 6h 7s"))
    assert not legal(st, "meld 5h 6h 8h")
    st = st.apply("meld 6h 7h 8h")
    assert legal(st, "add 5h to hearts")
    assert not legal(st, "add 7s to hearts")


def test_four_low_ace_high_no_wrap() -> None:
    """samba 4.3 BC/OCL/WK: four is the lowest rank, ace the highest; the ace is never low and
    there is no wrap-around (K-A-4 is not a sequence)."""
    st = turn("4h 5h 6h Qh Kh Ah 4c", melds0='"Q Q Q"')
    assert legal(st, "meld 4h 5h 6h")
    assert legal(st, "meld Qh Kh Ah")
    assert not legal(st, "meld 4h 5h Ah")  # A-4-5
    assert not legal(st, "meld 4h Kh Ah")  # K-A-4
    st = turn("4h As 9c 9d", melds0='"Qh Kh Ah", "4s 5s 6s"')
    assert not legal(st, "add 4h to hearts")  # nothing after the ace
    assert not legal(st, "add As to spades")  # nothing below the four
    st = turn("Ah 4c", melds0='"4h 5h 6h", "Q Q Q"')
    assert not legal(st, "add Ah to hearts")


def test_no_wild_card_or_three_in_a_sequence() -> None:
    """samba 4.3 BC/OCL/WK: no wild card and no three may be in a sequence."""
    st = turn("2 JK 3b 8h 9c", melds0='"5h 6h 7h", "Q Q Q"')
    assert not legal(st, "add 2 to hearts")
    assert not legal(st, "add JK to hearts")
    st = turn("3b 4s 5s 2 JK 9c", melds0='"Q Q Q"')
    assert not any(isinstance(a, Meld) for a in st.legal_actions())


def test_sequence_holds_at_most_seven_cards() -> None:
    """samba 4.4 BC/OCL: a sequence holds at most seven cards; at seven it is a samba and takes
    no more cards at either end."""
    st = turn("4h Qh 4c 5c", melds0=SAMBA + ', "Q Q Q"')
    assert not legal(st, "add Qh to hearts")
    assert not legal(st, "add 4h to hearts")
    st = turn("Jh Qh 4c 5c", melds0='"5h 6h 7h 8h 9h 10h", "9 9 9"')
    st = st.apply("add Jh to hearts")
    assert st.melds[0][0].naturals == 7
    assert not legal(st, "add Qh to hearts")


def test_sequence_longer_than_seven_not_a_position() -> None:
    """samba 4.4: a sequence of eight is refused in a position too."""
    with pytest.raises(PositionError):
        turn("4c 5c", melds0='"4h 5h 6h 7h 8h 9h 10h Jh"')


@pytest.mark.parametrize("low", [4, 5, 6, 7, 8])
def test_the_five_sambas_of_a_suit(low: int) -> None:
    """samba 4.5 HSW: the only sambas of a suit are 4-10, 5-J, 6-Q, 7-K and 8-A; each holds the
    8, 9 and 10; each scores as a samba (5.1)."""
    names = {11: "J", 12: "Q", 13: "K", 14: "A"}
    cards = " ".join(f"{names.get(r, r)}s" for r in range(low, low + 7))
    end = out(melds0=f'"{cards}", ' + NAT)
    assert rows(end, 0)["sequence canastas"] == 1500
    assert {"8s", "9s", "10s"} <= set(cards.split())


def test_several_groups_of_a_rank_and_combining_them() -> None:
    """samba 4.6 BC/OCL: a side may have more than one group of the same rank and may combine
    its groups of a rank into one at any time in its turn."""
    st = turn("9s 9d 9c 4c 5c", melds0='"9 9 9 9", "Q Q Q"')
    assert legal(st, "meld 9s 9d 9c")
    st = st.apply("meld 9s 9d 9c")
    assert sum(1 for m in st.melds[0] if m.rank == 9) == 2
    assert legal(st, "combine 9#1 9#2")
    st = st.apply("combine 9#1 9#2")
    assert [m.naturals for m in st.melds[0] if m.rank == 9] == [7]


def test_combining_keeps_the_limits_on_wild_cards() -> None:
    """samba 4.6 with 4.1 and 4.7: groups combined hold at most two wild cards, and a group with
    a wild card is never combined into a canasta; groups of naturals combine freely."""
    st = turn("4c 5c 6c", melds0='"9 9 9 2 2", "9 9 9 JK"')
    assert not legal(st, "combine 9#1 9#2")
    assert "2 wild cards" in st.why_illegal(parse_action("combine 9#1 9#2"))
    st = turn("4c 5c 6c", melds0='"9 9 9 9 9 9 9", "9 9 9 2"')
    assert not legal(st, "combine 9#1 9#2")
    st = turn("4c 5c 6c", melds0='"9 9 9 9 9 9 9", "9 9 9"')
    assert legal(st, "combine 9#1 9#2")
    assert [m.naturals for m in st.apply("combine 9#1 9#2").melds[0]] == [10]


def test_canasta_grows_with_naturals_never_with_a_wild_card() -> None:
    """samba 4.7 OCL: a group canasta may grow past seven with natural cards; no wild card may
    be added to a completed canasta (digest A3), natural or mixed, though the group still has
    room for a second wild card."""
    st = turn("Kc 2 JK 4c", melds0=NAT + ', "Q Q Q Q Q Q 2", "9 9 9 9 2"')
    assert legal(st, "add Kc to K")
    assert not legal(st, "add 2 to K") and not legal(st, "add JK to K")
    assert not legal(st, "add 2 to Q")
    assert legal(st, "add 2 to 9")  # not a canasta: its second wild card is fine
    st = st.apply("add Kc to K")
    assert st.melds[0][0].naturals == 8


def test_sequences_count_toward_the_initial_meld() -> None:
    """samba 4.8 CH: sequences count toward the initial meld like any meld: J-A of hearts
    (10+10+10+20 = 50) opens at 0; Q-A alone (40) does not."""
    st = turn("Jh Qh Kh Ah 5c 9d", opened0=False)
    assert st.initial_need(0) == 50
    st = run(st, "meld Qh Kh Ah", "add Jh to hearts")
    assert st.opened[0]
    assert legal(st, "discard 5c")
    st = turn("Qh Kh Ah 5c 9d 6d", opened0=False)
    assert not legal(st, "meld Qh Kh Ah")


def test_black_threes_melded_only_in_going_out() -> None:
    """samba 4.9 (Canasta laws): black threes are melded only by a player going out, three or
    four of them, no wild card."""
    st = turn("3b 3b 3b 4c 5c", melds0=TWO_CANASTAS)
    assert not legal(st, "meld 3b 3b 3b")
    st = turn("3b 3b 3b 4c", melds0=TWO_CANASTAS)
    assert legal(st, "meld 3b 3b 3b")
    end = run(st, "meld 3b 3b 3b", "discard 4c")
    assert end.result.went_out == 0
    st = turn("3b 3b 3b 3b 4c", melds0=TWO_CANASTAS)
    assert legal(st, "meld 3b 3b 3b 3b")
    st = turn("3b 3b 2 4c", melds0=TWO_CANASTAS)
    assert not legal(st, "meld 3b 3b 2")


# ================================================================ 5 canastas


def test_canasta_bonuses() -> None:
    """samba 5.1 BC/HSW/OCL: natural canasta 500, mixed canasta (one or two wild cards) 300,
    samba (a sequence of seven) 1,500."""
    end = out(melds0=NAT + ", " + SAMBA + ', "Q Q Q Q Q JK 2", "9 9 9 9 9 9 2"')
    r = rows(end, 0)
    assert r["natural canastas"] == 500
    assert r["mixed canastas"] == 600
    assert r["sequence canastas"] == 1500


def test_a_samba_counts_as_a_canasta() -> None:
    """samba 5.2 BC: a samba ranks as a canasta for every rule that counts canastas: two sambas
    let a side go out (6.1) and make its red threes count plus (7.3)."""
    st = turn("4c", melds0=SAMBA + ', "4s 5s 6s 7s 8s 9s 10s"', red0=2)
    assert legal(st, "discard 4c")
    end = st.apply("discard 4c")
    r = rows(end, 0)
    assert r["sequence canastas"] == 3000
    assert r["red threes"] == 200


def test_a_samba_is_closed() -> None:
    """samba 5.3 OCL: a completed samba is squared up (closed): no card is added to it."""
    st = turn("4h Qh 2 4c", melds0=SAMBA + ', "Q Q Q"')
    seq = st.melds[0][0]
    assert seq.is_sequence and seq.naturals == 7
    assert not any(isinstance(a, canasta.Add) and a.rank == seq.rank for a in st.legal_actions())


# ================================================================ 6 going out


def test_two_canastas_needed_to_go_out() -> None:
    """samba 6.1 BC/HSW: a side needs two canastas to go out; one is not enough."""
    st = turn("9s 9d 9h 4c", melds0=NAT + ', "5h 6h 7h 8h 9h 10h"')
    assert not legal(st, "meld 9s 9h 9d")  # it would leave only the card to discard
    assert "canasta" in st.why_illegal(parse_action("meld 9s 9h 9d"))
    assert legal(st, "discard 4c")  # not going out
    st = turn("9s 9d 9h 4c", melds0=TWO_CANASTAS)
    assert legal(st, "meld 9s 9h 9d")


@pytest.mark.parametrize("melds", [NAT + ', "Q Q Q Q Q 2 JK"', SAMBA + ', "4s 5s 6s 7s 8s 9s 10s"',
                                   SAMBA + ', "Q Q Q Q Q 2 JK"'])
def test_any_two_canastas_go_out(melds: str) -> None:
    """samba 6.1 BC/HSW: any two of natural, mixed and samba: two group canastas, two sambas, or
    one of each."""
    st = turn("4c", melds0=melds)
    assert legal(st, "discard 4c")
    assert st.apply("discard 4c").result.went_out == 0


def test_no_bonus_for_going_out_concealed() -> None:
    """samba 6.2 BC: no bonus for going out concealed (the whole hand melded in one turn)."""
    st = turn("Ks Ks Kh Kh Kd Kd Kc 5h 6h 7h 8h 9h 10h Jh 4c", opened0=False)
    st = run(st, "meld Ks Ks Kh", "add Kh to K", "add Kd to K", "add Kd to K", "add Kc to K",
             "meld 5h 6h 7h", "add 8h to hearts", "add 9h to hearts", "add 10h to hearts",
             "add Jh to hearts", "discard 4c")
    assert st.result.went_out == 0
    r = rows(st, 0)
    assert r["going out"] == 200
    assert "concealed" not in r
    assert st.result.concealed  # the whole hand in one turn: concealed, with no bonus
    assert r["sequence canastas"] == 1500 and r["natural canastas"] == 500


def test_asking_the_partner_as_in_canasta() -> None:
    """samba 6.3 (Canasta laws): a player able to go out may ask his partner "may I go out?";
    the answer binds; he may also go out without asking."""
    st = turn("9s 9d", melds0=TWO_CANASTAS, phase="draw", pile="5c 8d", stock="9h 5c rest").apply("draw")
    assert legal(st, "ask")
    asked = st.apply("ask")
    assert asked.phase is Phase.ANSWER and asked.current_player == 2
    no = asked.apply("no")
    assert not legal(no, "meld 9s 9h 9d")  # bound not to go out: it would leave one card
    assert legal(no, "discard 5c")
    yes = asked.apply("yes")
    assert not legal(yes, "discard 5c")  # bound to go out
    end = run(st, "meld 9s 9h 9d", "discard 5c")
    assert end.result.went_out == 0  # without asking


# ================================================================ 7 scoring


def test_going_out_200() -> None:
    """samba 7.1 BC/HSW: going out scores 200."""
    assert rows(out(), 0)["going out"] == 200
    assert "going out" not in rows(out(), 1)


@pytest.mark.parametrize("n,points", [(1, 100), (2, 200), (3, 300), (5, 500), (6, 1000)])
def test_red_threes(n: int, points: int) -> None:
    """samba 7.2 BC/HSW: red threes 100 each; all six held by one side 1,000 in all."""
    assert rows(out(red0=n), 0)["red threes"] == points


@pytest.mark.parametrize("n,points", [(1, 100), (6, 1000)])
def test_red_threes_minus_without_two_canastas(n: int, points: int) -> None:
    """samba 7.3 HSW: red threes count plus only for a side that has made two canastas; a side
    with one canasta counts the same amounts minus."""
    end = out(melds1='"Q Q Q Q Q Q Q"', red1=n)
    r = rows(end, 1)
    assert r["red threes (too few canastas)"] == -points
    assert "red threes" not in r


def test_card_values_melded_plus_in_hand_minus() -> None:
    """samba 7.4 (Canasta laws) at the values of 1.5 PG: joker 50, deuce 20, ace 20, king to
    eight 10, seven to four 5, black three 5; melded cards plus, cards left in hand minus."""
    end = out(others=("JK 2 Ah Kh 8d 7h 4s 3b", "4s 5d 6d", "Jc"))
    assert rows(end, 1)["cards left in hand"] == -(50 + 20 + 20 + 10 + 10 + 5 + 5 + 5 + 10)
    # K canasta 70; samba 5h..Jh 5+5+5+10+10+10+10 = 55; Q Q Q JK 2 30 + 70
    end = out(melds0=TWO_CANASTAS + ', "Q Q Q JK 2"')
    assert rows(end, 0)["melded cards"] == 70 + 55 + 100


@pytest.mark.parametrize("total,need", [(-10, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90),
                                        (3000, 120), (6995, 120), (7000, 160), (9000, 160)])
def test_initial_meld_minimum(total: int, need: int) -> None:
    """samba 7.5 BC/HSW: initial-meld minimum by the side's score: below 0 15; 0-1,495 50;
    1,500-2,995 90; 3,000-6,995 120; 7,000 and over 160 (digest A1)."""
    st = turn("4c 5c 6c", totals=f"[{total}, 0]", opened0=False)
    assert st.initial_need(0) == need


@pytest.mark.parametrize("total,allowed", [(6995, True), (7000, False)])
def test_initial_meld_of_155_at_7000(total: int, allowed: bool) -> None:
    """samba 7.5 BC/HSW: from 7,000 the minimum is 160: a hand whose melds count 155 (aces and
    two wild cards 130, five sevens 25) opens below 7,000, not from it."""
    st = turn("As Ah Ad JK 2 7s 7h 7d 7c 7c 5c", totals=f"[{total}, 0]", opened0=False)
    assert legal(st, "meld As Ah Ad") is allowed


def test_game_is_10000_higher_total_wins() -> None:
    """samba 7.6 BC/HSW/OCL: game is 10,000; if both sides pass it in one hand the higher total
    wins (not the side that went out)."""
    end = out(totals="[9800, 0]")
    assert end.is_game_over and end.winners == (0,)
    assert not out(totals="[7000, 0]").is_game_over
    end = out(totals="[9900, 12000]", melds1='"Q Q Q Q Q Q Q"')
    assert end.is_game_over
    assert end.totals[1] > end.totals[0] >= 10000
    assert end.winners == (1,)


# ================================================================ ambiguity defaults


def test_sequences_never_joined() -> None:
    """samba A8 (default): two partial sequences of a suit are never joined by a connecting
    card; a sequence grows only at its ends."""
    st = turn("8h 4c 5c", melds0='"5h 6h 7h", "9h 10h Jh"')
    assert legal(st, "add 8h to hearts#1") and legal(st, "add 8h to hearts#2")
    st = st.apply("add 8h to hearts#1")
    assert sorted(m.naturals for m in st.melds[0]) == [3, 4]
    assert not any(isinstance(a, canasta.Combine) for a in st.legal_actions())
