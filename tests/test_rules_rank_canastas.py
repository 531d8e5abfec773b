"""Scenario tests of ``scoring.rank_canastas`` (issue 27, extension E13): a canasta of a named
natural rank, natural or mixed, scores its own points and is a kind of canasta of its own.

Sources:

- Mexicana: Rummy-Games, "Mexicana" (http://www.rummy-games.com/rules/mexicana.html), the list
  of differences: "a canasta of sevens scores 1,000"; David Parlett, *The Penguin Book of Card
  Games*, "Canasta family", entry "Mexicana": sevens canastas 1,000 (a rule "sometimes" played).
  The digest's default reading (its A6): natural or mixed alike.
- Pennies from Heaven: Rummy-Games, "Pennies from Heaven"
  (http://www.rummy-games.com/rules/pennies-from-heaven.html) and Bicycle, "Pennies from
  Heaven" (http://www.bicyclecards.ca/game-rules/pennies-from-heaven/178.php?page_id=32): four
  kinds of canasta, natural, mixed, wild and sevens (1,500, natural or mixed), the sevens canasta
  never doubling as the natural or mixed one (digest A7).

The rules are tested on house-rules files extending ``hoyle-1950`` (one canasta to go out), so
that only the new setting differs from the laws.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import canasta
from canasta import VariantError

import helpers
from helpers import legal, rows

SEVENS_1000 = '[scoring]\nrank_canastas = [{ rank = "seven", points = 1000 }]\n'
"""Mexicana's sevens canasta (RG; PB), on the laws."""
SEVENS_1500_BY_KIND = ('[scoring]\nrank_canastas = [{ rank = "seven", points = 1500 }]\n'
                       '[going_out.canastas_by_kind]\nnatural = 1\n')
"""Pennies from Heaven's sevens canasta (RG, BC), a natural canasta also needed to go out."""


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory):
    """A house-rules file extending hoyle-1950 with ``body``, by path."""
    root = tmp_path_factory.mktemp("rank-canastas")

    def make(name: str, body: str) -> str:
        path = root / f"{name}.toml"
        path.write_text(f'extends = "hoyle-1950"\nname = "{name}"\n{body}', encoding="utf-8")
        return str(path)
    return make


def out(variant: str, melds0: str, **kw: object):
    """Seat 0 (side 0) goes out by discarding his last card, a 4."""
    st = helpers.turn(variant, "4", melds0, pile="5 8", **kw)  # type: ignore[arg-type]
    assert legal(st, "discard 4")
    end = st.apply("discard 4")
    assert end.is_hand_over and end.result is not None and end.result.went_out == 0
    return end


# ============================================================== the bonus: natural or mixed


def test_a_natural_sevens_canasta_scores_1000_not_500(house) -> None:
    """mexicana 5.2 (RG; PB): a canasta of sevens scores 1,000 in place of the usual bonus; a
    natural canasta of another rank still scores 500."""
    v = house("sevens1000", SEVENS_1000)
    r = rows(out(v, '"7 7 7 7 7 7 7", "K K K K K K K"'), 0)
    assert r["canastas of 7s"] == 1000
    assert r["natural canastas"] == 500  # the kings only


def test_a_mixed_sevens_canasta_scores_1000_not_300(house) -> None:
    """mexicana 5.2 (RG; digest A6 default): any canasta of sevens, mixed too, scores 1,000
    instead of 300; a mixed canasta of another rank still scores 300."""
    v = house("sevens1000", SEVENS_1000)
    r = rows(out(v, '"7 7 7 7 7 2 JK", "Q Q Q Q Q 2 2"'), 0)
    assert r["canastas of 7s"] == 1000
    assert r["mixed canastas"] == 300  # the queens only
    assert "natural canastas" not in r


def test_two_sevens_canastas_and_other_ranks_at_pennies_1500(house) -> None:
    """pennies-from-heaven 6.1 (RG, BC): the sevens canasta scores 1,500, natural or mixed; with
    three packs a side may hold two of them (mexicana 5.3: canastas are not capped)."""
    v = house("sevens1500", '[deck]\npacks = 3\n[scoring]\nrank_canastas = [{ rank = "seven", points = 1500 }]\n'
              '[red_threes]\nbonus = [0, 100, 200, 300, 400, 1000, 1200]\n[black_threes]\nmax = 6\n')
    r = rows(out(v, '"7 7 7 7 7 7 7", "7 7 7 7 7 2 2", "K K K K K K K"',
                 others=("4 5 6", "4 5 6", "4 5 6")), 0)
    assert r["canastas of 7s"] == 3000
    assert r["natural canastas"] == 500


def test_an_unfinished_sevens_meld_scores_no_bonus(house) -> None:
    """mexicana 5.2 (RG): the bonus is for a canasta of sevens; six sevens are only a meld."""
    v = house("sevens1000", SEVENS_1000)
    r = rows(out(v, '"7 7 7 7 7 7", "K K K K K K K"'), 0)
    assert "canastas of 7s" not in r
    assert r["natural canastas"] == 500


# ============================================================== a kind of its own


def test_sevens_canasta_is_not_the_natural_canasta_going_out_needs(house) -> None:
    """pennies-from-heaven 6.1, 7.1 (RG, BC; digest A7): the sevens canasta never doubles as the
    natural one: with a natural canasta required, a side whose only natural canasta is of sevens
    may not go out (refused by why_illegal and by apply, not only left out of the legal list)."""
    v = house("sevens1500kinds", SEVENS_1500_BY_KIND)
    st = helpers.turn(v, "9 4", '"7 7 7 7 7 7 7", "Q Q Q Q Q 2 2", "9 9 9"', pile="5 8")
    assert not legal(st, "add 9")  # would leave one card to go out with
    why = st.why_illegal("add 9")
    assert why is not None and "natural" in why
    with pytest.raises(canasta.IllegalActionError):
        st.apply("add 9")
    # with a natural canasta of kings besides, it may
    end = out(v, '"7 7 7 7 7 7 7", "K K K K K K K"')
    assert rows(end, 0)["canastas of 7s"] == 1500 and rows(end, 0)["natural canastas"] == 500


def test_mixed_sevens_canasta_is_not_the_mixed_canasta_going_out_needs(house) -> None:
    """pennies-from-heaven 7.1 (RG, BC; digest A7): nor does a mixed sevens canasta count as the
    mixed canasta a side needs."""
    v = house("sevens1500mixed", '[scoring]\nrank_canastas = [{ rank = "seven", points = 1500 }]\n'
              '[going_out.canastas_by_kind]\nmixed = 1\n')
    st = helpers.turn(v, "9 4", '"7 7 7 7 7 2 2", "K K K K K K K", "9 9 9"', pile="5 8")
    assert not legal(st, "add 9")
    assert "mixed" in (st.why_illegal("add 9") or "")
    assert legal(helpers.turn(v, "9 4", '"7 7 7 7 7 2 2", "Q Q Q Q Q 2 2", "9 9 9"', pile="5 8"), "add 9")


def test_sevens_canasta_counts_toward_the_canastas_to_go_out(house) -> None:
    """mexicana 6.1 (RG, PB) with 5.2: the sevens canasta is one of the canastas a side needs to
    go out (here the laws' one canasta)."""
    v = house("sevens1000", SEVENS_1000)
    assert legal(helpers.turn(v, "9 4", '"7 7 7 7 7 2 2", "9 9 9"', pile="5 8"), "add 9")
    assert not legal(helpers.turn(v, "9 4", '"7 7 7 7 7 2", "9 9 9"', pile="5 8"), "add 9")


def test_counted_kinds_without_rank_leaves_the_sevens_canasta_out(house) -> None:
    """going_out.counted_kinds names the kinds that count toward going_out.canastas (italian 6.1,
    Rummy-Games "Italian Canasta": a wild canasta does not count); its ``rank`` kind is the rank
    canasta of mexicana 5.2 (RG, PB). Left out, the sevens canasta no longer counts: a side whose
    only canasta is of sevens may not go out (why_illegal says which kind does not count, apply
    refuses), and a canasta of kings lets it."""
    v = house("sevens-not-counted", SEVENS_1000 + '[going_out]\ncounted_kinds = ["natural", "mixed", "wild", "sequence"]\n')
    st = helpers.turn(v, "9 4", '"7 7 7 7 7 2 2", "9 9 9"', pile="5 8")
    assert not legal(st, "add 9")
    assert "rank canasta does not count" in (st.why_illegal("add 9") or "")
    with pytest.raises(canasta.IllegalActionError):
        st.apply("add 9")
    assert legal(helpers.turn(v, "9 4", '"7 7 7 7 7 2 2", "K K K K K K K", "9 9 9"', pile="5 8"), "add 9")
    # counted by default (the kinds' list names every kind)
    assert legal(helpers.turn(house("sevens1000", SEVENS_1000), "9 4", '"7 7 7 7 7 2 2", "9 9 9"', pile="5 8"),
                 "add 9")


def test_sevens_canasta_counts_for_the_red_three_sign(house) -> None:
    """mexicana 5.2 with the sign of red threes by canastas (red_threes.sign_by_canastas, as
    cuban 7.4): a sevens canasta is a canasta there too, so a side whose only canasta is of
    sevens counts its red threes plus, and a side without any canasta minus."""
    v = house("sevens-sign", SEVENS_1000 + '[red_threes]\nsign_by_canastas = [-1, 1]\n')
    end = out(v, '"7 7 7 7 7 2 2", "Q Q Q"', melds1='"9 9 9 9 9 9"', red0=2, red1=1)
    assert rows(end, 0)["red threes"] == 200
    assert rows(end, 1)["red threes (too few canastas)"] == -100
    end = out(v, '"K K K K K K K"', melds1='"7 7 7 7 7 2 2"', red1=1)
    assert rows(end, 1)["red threes"] == 100 and rows(end, 1)["canastas of 7s"] == 1000


# ============================================================== refusals


def test_rank_also_in_natural_canastas_is_refused_naming_both_keys(tmp_path: Path) -> None:
    """A canasta of one rank is priced once: ``scoring.rank_canastas`` and
    ``scoring.natural_canastas`` may not both list it; the refusal names both keys."""
    path = tmp_path / "both.toml"
    path.write_text('extends = "hoyle-1950"\n[scoring]\nrank_canastas = [{ rank = "seven", points = 1000 }]\n'
                    'natural_canastas = [{ rank = "seven", points = 2500 }]\n', encoding="utf-8")
    with pytest.raises(VariantError) as err:
        canasta.load_variant(str(path))
    text = str(err.value)
    assert "scoring.rank_canastas.0.rank" in text and "scoring.natural_canastas" in text


@pytest.mark.parametrize("body,words", [
    ('rank_canastas = [{ rank = "wild", points = 1000 }]', "natural rank"),
    ('rank_canastas = [{ rank = "seven", points = 1000 }, { rank = "seven", points = 900 }]', "more than once"),
])
def test_wild_or_repeated_rank_is_refused(tmp_path: Path, body: str, words: str) -> None:
    """A rank canasta is of a natural rank (mexicana 5.2: sevens), listed once."""
    path = tmp_path / "bad.toml"
    path.write_text(f'extends = "hoyle-1950"\n[scoring]\n{body}\n', encoding="utf-8")
    with pytest.raises(VariantError) as err:
        canasta.load_variant(str(path))
    assert "scoring.rank_canastas" in str(err.value) and words in str(err.value)


def test_other_ranks_keep_their_natural_canastas_price(house) -> None:
    """modern-american 5.1's natural aces (scoring.natural_canastas) beside mexicana's sevens:
    each rank is priced by its own setting."""
    v = house("aces-sevens", '[scoring]\nrank_canastas = [{ rank = "seven", points = 1000 }]\n'
              'natural_canastas = [{ rank = "ace", points = 2500 }]\n')
    r = rows(out(v, '"7 7 7 7 7 2 2", "A A A A A A A"'), 0)
    assert r["canastas of 7s"] == 1000 and r["natural canastas of aces"] == 2500
