"""Scenario tests: the distinctive rules of Uruguayan Canasta, asked of the engine.

Sources (as digested in ../shared/rules/beyond/uruguayan.md, whose rule numbers the tests cite;
variant ``uruguayan``):

* RG: Rummy-Games, "Uruguay", its list of differences from Canasta --
  http://www.rummy-games.com/rules/uruguay.html
* BK: "Canasta Poker Rules and Variations", "Variations of Canasta", item "Uruguay Canasta" --
  https://blackcoin.co/canasta-poker-rules-and-variations/
* PB: David Parlett, The Penguin Book of Card Games, "Canasta family", entry "Uruguay"
  (https://read-online-books.com/book/read-online-the-penguin-book-of-card-games-everything-you-need-to-know-to-play-over-250-games-free/page-171)

Rules the sources do not change are the 1950 laws' (``hoyle-1950``, tested in
tests/test_rules_hoyle.py). Positions are written in the position format; seats 0 and 2 are
side 0, seats 1 and 3 side 1; seat 0 is to act.
"""

from __future__ import annotations

from functools import partial

import pytest

import canasta
from canasta import IllegalActionError, Take

import helpers
from helpers import legal, rows

V = "uruguayan"

turn = partial(helpers.turn, V, totals="[0, 0]")
"""Seat 0 to act holding ``hand`` (drawn already in the meld phase); melds are TOML lists."""

WILD7 = '"JK JK 2 2 2 2 JK"'
ONLY_NATURAL_PAIR = "the pile is taken only with a natural pair"


def _takes(st: canasta.GameState) -> set[str]:
    return {str(a) for a in st.legal_actions() if isinstance(a, Take)}


# ================================================================ 3.2-3.3 the pile is always frozen


def test_pile_taken_with_a_natural_pair_even_unfrozen() -> None:
    """uruguayan 3.2 RG, BK: the pile is always frozen: a side that has melded, with no wild
    card in the pile (``frozen`` is false), takes it with two naturals of the top card's rank."""
    st = turn("9 9 4", melds0='"9 9 9", "Q Q Q"', pile="5 9", phase="draw")
    assert not st.frozen
    assert _takes(st) == {"take 9 9"}
    after = st.apply("take 9 9")
    assert after.pile == () and after.hands[0][5] == 1  # the whole pile came up


def test_pile_never_taken_with_a_natural_and_a_wild_card() -> None:
    """uruguayan 3.3 (follows from RG, BK's 3.2): never with one natural and a wild card; the
    refusal names the rule, and ``apply`` refuses it leaving the state as it was."""
    st = turn("9 2 4", melds0='"9 9 9", "Q Q Q"', pile="5 9", phase="draw")
    before = st.hands[0]
    assert _takes(st) == set()
    assert ONLY_NATURAL_PAIR in st.why_illegal("take 9 2")
    with pytest.raises(IllegalActionError, match=ONLY_NATURAL_PAIR):
        st.apply("take 9 2")
    assert st.hands[0] == before and len(st.pile) == 2


def test_pile_never_taken_onto_a_meld() -> None:
    """uruguayan 3.3 (follows from 3.2): the top card never goes onto a meld of the side, not
    even onto a meld of its rank on the table."""
    st = turn("4 5 6", melds0='"9 9 9", "Q Q Q"', pile="5 9", phase="draw")
    assert not legal(st, "take onto 9")
    assert ONLY_NATURAL_PAIR in st.why_illegal("take onto 9")
    # the same pile under the 1950 laws (no wild card in it, the side has melded) may be taken
    # onto the meld: the difference is the variant's
    hoyle = helpers.turn("hoyle-1950", "4 5 6", melds0='"9 9 9", "Q Q Q"', pile="5 9", phase="draw",
                         totals="[0, 0]")
    assert legal(hoyle, "take onto 9")


# ================================================================ 4.2-4.3 wild melds of three to seven


def test_wild_cards_meld_on_their_own_twos_and_jokers_mixed() -> None:
    """uruguayan 4.2 RG, BK, PB: wild cards may form a meld of their own, three or more, twos
    and jokers in any mix (1.3 RG: "no distinction" between them)."""
    st = turn("JK 2 2 2 JK 4", melds0='"Q Q Q"')
    for meld in ("meld JK JK 2", "meld JK 2 2", "meld 2 2 2"):
        assert legal(st, meld)
    grown = st.apply("meld JK 2 2")
    assert legal(grown, "add JK to wild") and legal(grown, "add 2 to wild")


def test_wild_meld_closed_at_seven() -> None:
    """uruguayan 4.3 BK: a wild meld is "three to seven" cards (A4): at seven it is a wild
    canasta and takes no eighth card, though hoyle-1950 lets wild cards join a natural canasta
    without limit (its rule 25)."""
    st = turn("JK 2 4 5", melds0='"Q Q Q", ' + WILD7)
    assert not legal(st, "add JK to wild") and not legal(st, "add 2 to wild")
    assert "at most seven" in st.why_illegal("add JK to wild")
    with pytest.raises(IllegalActionError, match="at most seven"):
        st.apply("add 2 to wild")
    six = turn("2 4 5", melds0='"Q Q Q", "JK JK 2 2 2 JK"')
    assert legal(six, "add 2 to wild")
    assert six.apply("add 2 to wild").melds[0][-1].size == 7


# ================================================================ 5.1-5.2 the wild canasta


@pytest.mark.parametrize("wild", ["JK JK 2 2 2 2 JK", "2 2 2 2 2 2 2", "JK JK JK JK 2 2 2"])
def test_wild_canasta_scores_2000_whatever_its_mix(wild: str) -> None:
    """uruguayan 5.1 RG, BK, PB: a canasta of seven wild cards scores 2,000, whatever the mix
    of twos and jokers (RG 1.3: no distinction between them)."""
    end = turn("4", melds0=f'"Q Q Q", "{wild}"').apply("discard 4")
    assert rows(end, 0)["wild canastas"] == 2000


def test_wild_canasta_counts_for_going_out() -> None:
    """uruguayan 5.2 (A3: no source says otherwise) with 6.1 (inherited, hoyle rule 48: one
    canasta to go out): a side whose only canasta is a wild canasta may go out; with the wild
    meld one card short it may not."""
    end = turn("4", melds0='"Q Q Q", ' + WILD7).apply("discard 4")
    assert end.result is not None and end.result.went_out == 0
    assert rows(end, 0)["going out"] == 100
    # one card short of a wild canasta: the last card may not go (why_illegal says why) ...
    short = turn("2 4", melds0='"Q Q Q", "JK JK 2 2 2 JK"')
    kept = short.apply("discard 4")
    assert kept.result is None  # a card left: no going out
    # ... and completing it with the deuce lets him go out
    end = short.apply("add 2 to wild").apply("discard 4")
    assert end.result is not None and end.result.went_out == 0
    assert rows(end, 0)["wild canastas"] == 2000


def test_wild_canasta_saves_the_red_threes() -> None:
    """uruguayan 5.2 (A3) with 7.1 (inherited, hoyle rule 16: red threes count minus for a side
    that has made no meld): a side whose only meld is a wild canasta counts them plus."""
    end = turn("4", melds0=WILD7, red0=2).apply("discard 4")
    assert rows(end, 0)["red threes"] == 200
