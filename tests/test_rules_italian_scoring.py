"""Scenario tests: Italian Canasta's scoring extensions (issue 27, E21), on house rules that
extend ``samba`` (Italian's parent) until ``variants/italian.toml`` sets them.

* ``scoring.wild_canasta_going_out_only`` -- Italian 5.3: Parlett, The Penguin Book of Card
  Games, "Canasta family", the entry before "Mexicana" (PB; copy at
  https://read-online-books.com/book/read-online-the-penguin-book-of-card-games-everything-you-need-to-know-to-play-over-250-games-free/page-171):
  the deuce canastas' bonuses count only for the side that goes out (digest A7).
* ``scoring.canasta_sets`` -- Italian 5.4: Rummy-Games, "Italian Canasta"
  (http://rummy-games.com/rules/italian-canasta.html, RG) and HowStuffWorks, "Italian Canasta"
  (http://entertainment.howstuffworks.com/how-to-play-canasta1.htm, HSW), the bonus table:
  five natural canastas 2,000; four natural and one mixed 1,000; ten canastas of any kind
  2,000 (digest A8: every line the side meets, whether or not it went out).

Rule numbers are those of ../shared/rules/beyond/italian.md. Seats 0 and 2 are side 0.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

import canasta
from canasta import VariantError

import helpers
from helpers import rows

OTHERS = ("4d 5s 6c", "4s 5d 6d", "Jc Jd 10s")
SETS = ('[{ natural = 5, bonus = 2000 }, { natural = 4, mixed = 1, bonus = 1000 }, '
        '{ any = 10, bonus = 2000 }]')
HOUSE = f"""extends = "samba"
name = "italian-scoring"
[melds]
wild_melds = true
wild_meld_max = 7
[scoring]
wild_canasta = 2000
wild_canasta_going_out_only = true
canasta_sets = {SETS}
"""


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("house") / "italian-scoring.toml"
    path.write_text(HOUSE)
    return str(path)


def _out(house: str, melds0: str, melds1: str = "") -> canasta.GameState:
    """Seat 0 (side 0) goes out by discarding his last card."""
    turn = partial(helpers.turn, house, pile="5c 9h", totals="[0, 0]", others=OTHERS)
    return turn("4c", melds0=melds0, melds1=melds1).apply("discard 4c")


def _canastas(*ranks: str, mixed: str = "") -> str:
    out = [f'"{r} {r} {r} {r} {r} {r} {r}"' for r in ranks]
    out += [f'"{r} {r} {r} {r} {r} 2 JK"' for r in mixed.split()]
    return ", ".join(out)


# ================================================================ 5.3 wild canastas only going out


def test_wild_canasta_bonus_only_for_the_side_going_out(house: str) -> None:
    """Italian 5.3 (PB): both sides hold a wild canasta; the side that goes out scores its
    2,000, the other side only its cards (a row of 0 points, and the cards in "melded
    cards")."""
    end = _out(house, _canastas("K", "Q") + ', "JK JK 2 2 2 2 2"', _canastas("8") + ', "JK 2 2 2 2 2 2"')
    assert rows(end, 0)["wild canastas"] == 2000
    other = rows(end, 1)
    assert "wild canastas" not in other and other["wild canastas (not out)"] == 0
    assert other["melded cards"] == 7 * 10 + 50 + 6 * 20  # eights, the joker, six deuces


def test_wild_canasta_still_a_canasta_for_the_side_not_out(house: str) -> None:
    """Italian 5.3 (PB) withholds only the bonus: a side not going out whose second canasta is
    a wild one still has two canastas, so its red threes count plus (Samba's sign, inherited,
    Italian 7.2: plus only with two canastas); the same deal without the setting scores the
    bonus."""
    turn = partial(helpers.turn, house, pile="5c 9h", totals="[0, 0]", others=OTHERS, red1=1)
    end = turn("4c", melds0=_canastas("K", "Q"), melds1=_canastas("8") + ', "JK 2 2 2 2 2 2"').apply("discard 4c")
    assert rows(end, 1)["red threes"] == 100
    r = rows(end, 1)
    assert r["wild canastas (not out)"] == 0
    # the same deal scored under plain samba-with-wild-melds: the bonus is 2,000 for both
    plain = HOUSE.replace("wild_canasta_going_out_only = true\n", "")
    path = Path(house).with_name("plain.toml")
    path.write_text(plain)
    end2 = _out(str(path), _canastas("K", "Q"), _canastas("8") + ', "JK 2 2 2 2 2 2"')
    assert rows(end2, 1)["wild canastas"] == 2000


# ================================================================ 5.4 sets of canastas


def test_five_natural_canastas_score_2000(house: str) -> None:
    """Italian 5.4 (RG, HSW): five natural canastas, 2,000; four natural and no mixed one does
    not meet the second line."""
    end = _out(house, _canastas("K", "Q", "J", "10", "9"))
    r = rows(end, 0)
    assert r["canasta set (5 natural)"] == 2000
    assert "canasta set (4 natural + 1 mixed)" not in r and "canasta set (10 any)" not in r


def test_four_natural_and_one_mixed_score_1000(house: str) -> None:
    """Italian 5.4 (RG, HSW): four natural and one mixed, 1,000; a side with only four natural
    canastas scores no set."""
    r = rows(_out(house, _canastas("K", "Q", "J", "10", mixed="9")), 0)
    assert r["canasta set (4 natural + 1 mixed)"] == 1000 and "canasta set (5 natural)" not in r
    r = rows(_out(house, _canastas("K", "Q", "J", "10")), 0)
    assert not any(name.startswith("canasta set") for name in r)


def test_sets_add_up_and_count_for_a_side_not_out(house: str) -> None:
    """Italian 5.4 (RG, HSW) with A8's default: a side scores every line it meets (five natural
    and five mixed: 2,000 + 1,000 + 2,000 for ten of any kind), and so does a side that did not
    go out."""
    big = _canastas("K", "Q", "J", "10", "9", mixed="8 7 6 5 A")
    end = _out(house, _canastas("4") + ', "2 2 2 2 2 2 2"', big)
    r = rows(end, 1)
    assert r["canasta set (5 natural)"] == 2000
    assert r["canasta set (4 natural + 1 mixed)"] == 1000
    assert r["canasta set (10 any)"] == 2000
    # the side that went out has two canastas: no set
    assert not any(name.startswith("canasta set") for name in rows(end, 0))


# ================================================================ validation


@pytest.mark.parametrize("text,key,words", [
    ('extends = "samba"\n[scoring]\ncanasta_sets = [{ bonus = 500 }]\n', "scoring.canasta_sets.0", "asks for no canasta"),
    ('extends = "new-canasta"\n[scoring]\ncanasta_sets = [{ any = 2, bonus = 500 }]\n', "scoring.canasta_sets",
     "red_threes.handling"),
])
def test_canasta_sets_refused_where_they_cannot_work(tmp_path: Path, text: str, key: str, words: str) -> None:
    """A line of sets asking no canasta, and sets where red threes are kept in hand
    (new-canasta's own canasta scoring), are refused when the file loads, naming the keys."""
    path = tmp_path / "house.toml"
    path.write_text(text)
    with pytest.raises(VariantError) as info:
        canasta.load_variant(path)
    assert any(p.key == key and words in p.message for p in info.value.problems), info.value
