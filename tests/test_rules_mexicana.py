"""Scenario tests of Mexicana (``variants/mexicana.toml``), rule by rule, from its sources:

- RG: Rummy-Games, "Mexicana", the list of differences --
  http://www.rummy-games.com/rules/mexicana.html
- PB: David Parlett, *The Penguin Book of Card Games*, chapter "Canasta family", entry
  "Mexicana".

The numbers (4.2, A4, ...) are those of the project's rule digest (shared/rules/beyond/
mexicana.md), whose default readings the variant file takes. What Mexicana does not change is
three-pack's (tests/test_rules_three_pack.py). Four players in two partnerships: seats 0 and 2
are side 0.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import canasta
from canasta import VariantError

import helpers
from helpers import legal, rows

V = "mexicana"
TOKENS = ("JK", "2", "3r", "3b", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK = [6, 12, 6, 6] + [12] * 11  # three packs and six jokers (RG; PB "three-pack")
CANASTAS = '"K K K K K K K", "Q Q Q Q Q 2 2"'  # two canastas: 500 + 300


def turn(hand: str, melds0: str = "", melds1: str = "", **kw: Any) -> canasta.GameState:
    """Seat 0 to act holding ``hand`` (drawn already unless ``phase = "draw"``)."""
    return helpers.turn(V, hand, melds0, melds1, **kw)


def rest_of(*texts: str) -> str:
    """Every card of the deck not written in ``texts``, to put in a hand when the stock is given."""
    left = list(DECK)
    for text in texts:
        for tok in text.replace('"', " ").replace(",", " ").split():
            left[TOKENS.index(tok)] -= 1
    assert min(left) >= 0, left
    return " ".join(t for t, n in zip(TOKENS, left) for _ in range(n))


def size(st: canasta.GameState, seat: int = 0) -> int:
    return sum(st.hands[seat][:15])


# ================================================================ 4.2 the thirteen cards


def test_the_opener_draws_thirteen_at_once_and_may_meld_them() -> None:
    """mexicana 4.2 (RG: the player who makes his side's initial meld then takes the top
    thirteen cards of the stock; PB: "immediately"), A4: in the same turn, before the discard.
    The meld that reaches the minimum (50: K K K 30 + Q Q Q 30) brings the thirteen; the first
    meld (30, short of it) brings nothing."""
    st = turn("K K K Q Q Q 5 9 4")
    stock = len(st.stock)
    st = st.apply("meld K K K")
    assert size(st) == 6 and len(st.stock) == stock and not st.opened[0]
    st = st.apply("meld Q Q Q")
    assert st.opened[0]
    reds = st.red_threes[0]  # red threes among the thirteen are faced and replaced
    assert size(st) == 3 + 13 and len(st.stock) == stock - 13 - reds
    assert st.phase is canasta.Phase.MELD and st.current_player == 0  # his turn goes on
    assert any(str(a).startswith(("meld", "add")) for a in st.legal_actions()) or legal(st, "discard 5")


def test_the_thirteen_are_the_top_of_the_stock() -> None:
    """mexicana 4.2 (RG): "the top thirteen cards of the stock": the stock given in full, the
    opener's hand gains exactly its top thirteen (the stock's top card is written first)."""
    top = "A A A A 10 10 10 10 9 9 9 9 8"
    hand = "K K K Q Q Q 5 4"
    rest = rest_of(hand, "5 9", "4 5 6", "4 5 6", top, "J J")
    st = turn(hand, pile="5 9", stock=f"{top} J J", others=("4 5 6", "4 5 6", rest))
    st = st.apply("meld K K K").apply("meld Q Q Q")
    assert [st.hands[0][TOKENS.index(t)] for t in ("A", "10", "9", "8")] == [4, 4, 4, 1]
    assert len(st.stock) == 2


def test_each_side_draws_its_own_thirteen_once() -> None:
    """mexicana 4.2, A2 (RG: the player who makes the initial meld for his side): once per side:
    the second side to open draws thirteen too; a side that has opened draws no more."""
    st = turn("Q Q Q J J J 5 9 4", melds1='"K K K K"')  # side 1 has opened (and drawn) already
    stock = len(st.stock)
    st = st.apply("meld Q Q Q").apply("meld J J J")
    assert st.opened[0] and size(st) == 3 + 13
    assert len(st.stock) == stock - 13 - st.red_threes[0]
    # an opened side's later melds draw nothing
    st2 = turn("Q Q Q 5 9 4", melds0='"K K K"')
    stock = len(st2.stock)
    st2 = st2.apply("meld Q Q Q")
    assert size(st2) == 3 and len(st2.stock) == stock


def test_an_opening_with_the_pile_draws_the_thirteen_too() -> None:
    """mexicana A5: neither source excludes an initial meld made by taking the pile, so the
    thirteen come then too (deal.talon_after_pile): A A from the hand with the A on top make 60."""
    st = turn("A A 5 9 4 6", phase="draw", pile="5 9 A")
    stock = len(st.stock)
    st = st.apply("take A A")
    assert st.opened[0]
    # the pile's other two cards and the thirteen
    assert size(st) == 4 + 2 + 13
    assert len(st.stock) == stock - 13 - st.red_threes[0]


def test_a_pile_opening_completed_from_the_hand_draws_when_the_minimum_is_met() -> None:
    """mexicana A5 with the 1950 laws' pile opening (hoyle-1950 rule 33: the pile is taken up once
    the minimum is met): K K with the K on top make 30, the Q Q Q from the hand reach 60; the
    pile comes up and the thirteen are drawn then."""
    st = turn("K K Q Q Q 5 9 4", phase="draw", pile="5 9 K")
    stock = len(st.stock)
    st = st.apply("take K K")
    assert not st.opened[0] and len(st.stock) == stock
    st = st.apply("meld Q Q Q")
    assert st.opened[0] and size(st) == 3 + 2 + 13


def test_a_short_stock_gives_what_it_holds() -> None:
    """mexicana A8: with fewer than thirteen cards left the opener draws what there is."""
    hand = "K K K Q Q Q 5 4"
    rest = rest_of(hand, "5 9", "4 5 6", "4 5 6", "A A 10 10 9")
    st = turn(hand, pile="5 9", stock="A A 10 10 9", others=("4 5 6", "4 5 6", rest))
    st = st.apply("meld K K K").apply("meld Q Q Q")
    assert size(st) == 2 + 5 and len(st.stock) == 0 and st.phase is canasta.Phase.MELD


def test_the_thirteen_are_an_event() -> None:
    """mexicana 4.2: the thirteen drawn are reported (issue 27), the cards themselves hidden."""
    st = turn("K K K Q Q Q 5 9 4").apply("meld K K K")
    assert not [e for e in canasta.events(st.apply("meld Q Q Q") and turn("K K K Q Q Q 5 9 4"), "meld K K K")
                if e.kind is canasta.EventKind.TALON]  # the first meld, short of the minimum: none
    after = st.apply("meld Q Q Q")
    talon = [e for e in canasta.events(st, "meld Q Q Q") if e.kind is canasta.EventKind.TALON]
    assert len(talon) == 1 and talon[0].seat == 0
    assert talon[0].count == len(st.stock) - len(after.stock) >= 13  # red threes among them faced
    assert "made the side's initial meld and drew" in talon[0].text


# ================================================================ 3.3 a seven blocks the pile


def test_a_seven_on_top_blocks_even_a_natural_pair_of_sevens() -> None:
    """mexicana 3.3 (RG: when the upcard is a seven the pile cannot be taken; A3: any seven on
    top): not with a natural pair of sevens, not onto a meld of sevens; refused by why_illegal
    and by apply, in these words."""
    st = turn("7 7 5 9", phase="draw", pile="5 9 7", melds0='"7 7 7"')
    for take in ("take 7 7", "take onto 7", "take 7 JK"):
        assert not legal(st, take)
    why = st.why_illegal("take 7 7")
    assert why == "the pile is blocked by a 7 on top: it cannot be taken until another card covers it"
    with pytest.raises(canasta.IllegalActionError):
        st.apply("take 7 7")
    assert legal(st, "draw")


def test_a_seven_covered_no_longer_blocks() -> None:
    """mexicana 3.3 (RG): the rule is about the top card: with a 9 discarded on the seven the
    pile may be taken again (here with a natural pair of nines)."""
    st = turn("9 9 5 4", phase="draw", pile="5 7 9", melds0='"K K K"')
    assert legal(st, "take 9 9")
    st = turn("9 9 5 4", phase="draw", pile="5 9 7", melds0='"K K K"')
    assert not legal(st, "take 9 9") and not legal(st, "take 7 7")


def test_only_the_upcard_seven_blocks_under_the_other_reading(tmp_path: Path) -> None:
    """mexicana A3, PB's reading ("an upcard Seven cannot be taken"), as pile.blocked_scope =
    "upcard": a seven turned to start the pile blocks it in the first turn; once a turn has
    ended, a seven on top is taken like any card."""
    path = tmp_path / "upcard.toml"
    path.write_text('extends = "mexicana"\nname = "mexicana-upcard"\n[pile]\nblocked_scope = "upcard"\n',
                    encoding="utf-8")
    first = helpers.turn(str(path), "7 7 A A A 9", phase="draw", pile="7")
    assert not legal(first, "take 7 7")
    assert "blocked by a 7" in (first.why_illegal("take 7 7") or "")
    later = helpers.pos(f'''
        phase = "draw"
        to_act = 0
        pile = "5 7"
        stock = "rest"
        [[seats]]
        hand = "7 7 A A A 9"
        had_turn = true
        [[seats]]
        hand = "4 5 6"
        had_turn = true
        [[seats]]
        hand = "4 5 6"
        had_turn = true
        [[seats]]
        hand = "4 5 6"
        had_turn = true
        [[sides]]
        [[sides]]
        ''', str(path))
    assert legal(later, "take 7 7")


# ================================================================ 5.2 the sevens canasta


def out(hand: str = "4", **kw: Any) -> canasta.GameState:
    """Seat 0 goes out by discarding his last card."""
    st = turn(hand, **kw)
    return st.apply(f"discard {hand}")


def test_a_natural_sevens_canasta_scores_1000() -> None:
    """mexicana 5.2 (RG: a canasta of sevens scores 1,000; PB): in place of the natural 500."""
    end = out(melds0='"7 7 7 7 7 7 7", "K K K K K K K"', red0=2)
    r = rows(end, 0)
    assert r["canastas of 7s"] == 1000 and r["natural canastas"] == 500


def test_a_mixed_sevens_canasta_scores_1000() -> None:
    """mexicana 5.2, A6: RG does not say natural or mixed: any canasta of sevens scores 1,000,
    not the mixed 300."""
    end = out(melds0='"7 7 7 7 7 2 JK", "Q Q Q Q Q 2 2"', red0=2)
    r = rows(end, 0)
    assert r["canastas of 7s"] == 1000 and r["mixed canastas"] == 300
    assert "natural canastas" not in r


def test_the_sevens_bonus_is_counted_for_the_side_that_did_not_go_out() -> None:
    """mexicana 5.2: a canasta bonus, like the others, for either side at the end of the hand."""
    end = out(melds0=CANASTAS, melds1='"7 7 7 7 7 7 2"', red0=2)
    assert rows(end, 1)["canastas of 7s"] == 1000


# ================================================================ 6.2 a red three per canasta


def test_two_canastas_need_two_red_threes_to_go_out() -> None:
    """mexicana 6.2 (RG, PB): a side goes out only with as many red threes faced as it has
    canastas: with two canastas and one red three the last discard is refused, by why_illegal
    and by apply, in these words; with two red threes it is allowed."""
    st = turn("9 4", melds0=f"{CANASTAS}, \"9 9 9\"", red0=1)
    assert not legal(st, "add 9")  # would leave one card to go out with
    why = st.why_illegal("add 9")
    assert why == ("your side may go out only with a red three faced for each of its canastas: it would have "
                   "two canastas and one red three; keep at least two cards, one to discard")
    with pytest.raises(canasta.IllegalActionError):
        st.apply("add 9")
    assert legal(turn("9 4", melds0=f"{CANASTAS}, \"9 9 9\"", red0=2), "add 9")
    end = out(melds0=CANASTAS, red0=2)
    assert end.result is not None and end.result.went_out == 0


def test_every_canasta_counts_not_only_the_two_required() -> None:
    """mexicana A7: every canasta the side has counts: three canastas need three red threes."""
    three = f'{CANASTAS}, "J J J J J J J"'
    assert not legal(turn("9 4", melds0=f'{three}, "9 9 9"', red0=2), "add 9")
    assert legal(turn("9 4", melds0=f'{three}, "9 9 9"', red0=3), "add 9")


def test_a_canasta_completed_in_the_going_out_turn_counts() -> None:
    """mexicana A7: the canastas completed in the going-out turn count too: with two canastas and
    two red threes, a third completed by the last cards melded keeps the side from going out."""
    # the J completes a third canasta and leaves the 4 to go out with
    assert not legal(turn("J 4", melds0=f'{CANASTAS}, "J J J J J J"', red0=2), "add J")
    assert legal(turn("J 4", melds0=f'{CANASTAS}, "J J J J J J"', red0=3), "add J")


def test_a_side_short_of_red_threes_still_scores_them() -> None:
    """mexicana 6.2 is a condition of going out only: a side with two canastas and one red three
    counts it plus when the other side goes out (three-pack 7.1, the laws' rule 16)."""
    end = out(melds0=CANASTAS, red0=2, melds1='"J J J J J J J", "10 10 10 10 10 2 2"', red1=1)
    assert rows(end, 1)["red threes"] == 100


# ================================================================ the settings, refused where they cannot apply


@pytest.mark.parametrize("body,key,other", [
    ('[deal]\ntalon = []\n', "deal.talon_when", "deal.talon"),
    ('[deal]\ntalon_set_aside = true\n', "deal.talon_when", "deal.talon_set_aside"),
    ('[pile]\nblocked_by = ["wild", "black_three"]\nblocked_scope = "upcard"\n', "pile.blocked_scope",
     "pile.blocked_by"),
    ('[pile]\nblocked_scope = "upcard"\n[upcard]\nturned = false\n', "pile.blocked_scope", "upcard.turned"),
    ('[red_threes]\nhandling = "keep"\n', "going_out.red_threes_per_canasta", "red_threes.handling"),
    ('[scoring]\nnatural_canastas = [{ rank = "seven", points = 2500 }]\n', "scoring.rank_canastas",
     "scoring.natural_canastas"),
])
def test_settings_that_cannot_work_together_are_refused_naming_both(tmp_path: Path, body: str, key: str,
                                                                     other: str) -> None:
    """Issue 27: a pair of settings that cannot work together is refused at load time, the
    message naming both keys."""
    path = tmp_path / "house.toml"
    path.write_text(f'extends = "mexicana"\nname = "house"\n{body}', encoding="utf-8")
    with pytest.raises(VariantError) as err:
        canasta.load_variant(str(path))
    text = str(err.value)
    assert key in text and other in text, text


# ================================================================ positions and saves


def test_a_position_blocked_by_a_seven_with_the_stock_out_is_refused_naming_the_key() -> None:
    """mexicana 3.3 with the laws' stock exhausted (hoyle-1950 rule 35, inherited): with the
    stock out and a seven on top nobody can take the pile, so the hand ends; a position with a
    player to act there cannot go on and is refused, naming ``to_act`` (issue 20)."""
    hand = "7 7 5 9"
    rest = rest_of(hand, "5 9 7", "4 5 6", "4 5 6", "K K K")
    with pytest.raises(canasta.PositionError) as err:
        turn(hand, '"K K K"', phase="draw", pile="5 9 7", stock="", others=("4 5 6", "4 5 6", rest))
    assert err.value.path == "to_act" and "pile cannot be taken" in err.value.problem
    # with a nine on top instead, it goes on: the pair of nines takes it
    rest = rest_of("9 9 5 4", "5 7 9", "4 5 6", "4 5 6", "K K K")
    st = turn("9 9 5 4", '"K K K"', phase="draw", pile="5 7 9", stock="", others=("4 5 6", "4 5 6", rest))
    assert legal(st, "take 9 9")


def test_the_upcard_reading_survives_a_save(tmp_path: Path) -> None:
    """mexicana A3 (pile.blocked_scope = "upcard"): who has finished a turn decides whether a
    seven on top blocks, so positions and JSON saves carry it (``had_turn``): a game played past
    its first turn, saved and loaded, takes a seven on top as the game itself does."""
    path = tmp_path / "upcard.toml"
    path.write_text('extends = "mexicana"\nname = "mexicana-upcard"\n[pile]\nblocked_scope = "upcard"\n',
                    encoding="utf-8")
    variant = canasta.load_variant(str(path))
    for seed in (1,):
        st = canasta.new_game(variant, 4, seed=seed)
        bot = canasta.GreedyBot(seed, variant)
        for _ in range(16):
            if st.is_hand_over:
                break
            for again in (canasta.load_position(canasta.to_position(st)),
                          canasta.state_from_json(canasta.state_to_json(st))):
                assert again.legal_actions() == st.legal_actions()
            st = st.apply(bot._choose_state(st))
