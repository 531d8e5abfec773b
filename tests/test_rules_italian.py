"""Italian Canasta's meld rules, from its sources (variants/italian.toml).

RG: Rummy-Games, "Italian Canasta", http://rummy-games.com/rules/italian-canasta.html (the list of
differences from Samba). HSW: HowStuffWorks, "How to Play Canasta", "Italian Canasta",
http://entertainment.howstuffworks.com/how-to-play-canasta1.htm. PB: D. Parlett, The Penguin Book
of Card Games, "Canasta family", Italian Canasta (the end of the entry).
"""

from __future__ import annotations

import pytest

import canasta
from canasta import VariantError
from canasta._core._rules import WILD, rules_for

from helpers import legal, texts, turn

V = "italian"


def _rules():
    return rules_for(canasta.load_variant(V), 4)


def test_deuces_melded_as_a_rank_of_their_own() -> None:
    """RG: deuces may be melded as a rank of their own; digest A6: jokers are that meld's wild
    cards (at most two, samba's limit), no meld of jokers only."""
    st = turn(V, "2 2 2 JK JK 5 9 8", '"K K K"')
    assert legal(st, "meld 2 2 2")
    assert legal(st, "meld JK 2 2")
    assert not legal(st, "meld JK JK 2")
    assert "deuces" in st.why_illegal("meld JK JK 2")
    R = _rules()
    assert R.valid((WILD, 0, 2, 5, 0)) and not R.valid((WILD, 0, 3, 4, 0))  # 5 deuces + 2 jokers; 3 jokers too many
    assert not R.valid((WILD, 0, 3, 0, 0))  # jokers alone are never melded


def test_deuce_meld_closed_at_seven() -> None:
    """Digest A6 (PB: the wild meld is "completed and turned down"): a meld of deuces takes no
    eighth card."""
    st = turn(V, "2 2 JK 5 5 9 8", '"K K K", "2 2 2 2 2 2 2"')
    assert "add 2 to wild" not in texts(st) and "add JK to wild" not in texts(st)
    assert st.why_illegal("add 2 to wild") is not None
    with pytest.raises(canasta.IllegalActionError):
        st.apply("add 2 to wild")
    st6 = turn(V, "2 JK 5 5 9 8", '"K K K", "JK 2 2 2 2 2"')
    assert legal(st6, "add 2 to wild") and legal(st6, "add JK to wild")


def test_deuces_bound_to_the_open_deuce_meld() -> None:
    """RG; PB ("any available deuce must go to the wild meld under way until it is complete"):
    while the side's meld of deuces is not a canasta its deuces go nowhere else; jokers may."""
    st = turn(V, "2 JK 5 5 9 8 7", '"K K K", "JK 2 2"')
    assert not legal(st, "add 2 to K") and legal(st, "add JK to K")
    assert not legal(st, "meld 5 5 2") and legal(st, "meld 5 5 JK")
    assert "meld of deuces is not a canasta" in st.why_illegal("add 2 to K")
    with pytest.raises(canasta.IllegalActionError):
        st.apply("add 2 to K")
    # once it is a canasta, deuces are wild cards again
    done = turn(V, "2 JK 5 5 9 8 7", '"K K K", "2 2 2 2 2 2 2"')
    assert legal(done, "add 2 to K") and legal(done, "meld 5 5 2")


def test_no_wild_card_in_the_initial_meld_turn() -> None:
    """RG: "initial melds must be naturals" (digest A4: no wild card in any meld of that turn, and
    no meld of deuces)."""
    st = turn(V, "A A A 2 2 2 JK 9 8 7 6", opened0=False)
    assert legal(st, "meld A A A")
    for text in ("meld A A 2", "meld A A JK", "meld 2 2 2", "meld JK 2 2"):
        assert not legal(text=text, st=st)
        assert "initial meld" in st.why_illegal(text)
    # the same hand after the side's initial meld: wild cards meld again
    later = turn(V, "A A A 2 2 2 JK 9 8 7 6", '"K K K"')
    assert legal(later, "meld A A 2") and legal(later, "meld 2 2 2")


def test_no_wild_card_after_the_minimum_in_the_same_turn() -> None:
    """RG (digest A4): the whole turn of the initial meld is natural, after the minimum too."""
    st = turn(V, "A A A K K K 2 JK 9 8 7", opened0=False)
    st = st.apply("meld A A A").apply("meld K K K")
    assert not legal(st, "add 2 to A") and not legal(st, "add JK to K")


def _items(st, seat_side: int = 0) -> dict[str, int]:
    return {i.name: i.points for i in st.result.scores[seat_side].items}


def test_canasta_of_seven_deuces_scores_3000() -> None:
    """RG; HSW: a canasta of seven deuces scores 3,000."""
    st = turn(V, "5", '"K K K K K K K", "Q Q Q Q Q Q Q", "2 2 2 2 2 2 2"').apply("discard 5")
    items = _items(st)
    assert items["wild canastas of 3000"] == 3000 and "wild canastas" not in items
    assert items["going out"] == 300  # RG; HSW; PB: going out 300


def test_canasta_of_deuces_with_jokers_scores_2000() -> None:
    """RG: a canasta of deuces with jokers scores 2,000 (one joker, or two: samba's limit)."""
    for meld in ('"JK 2 2 2 2 2 2"', '"JK JK 2 2 2 2 2"'):
        st = turn(V, "5", f'"K K K K K K K", "Q Q Q Q Q Q Q", {meld}').apply("discard 5")
        items = _items(st)
        assert items["wild canastas"] == 2000 and "wild canastas of 3000" not in items


def test_wild_canastas_do_not_count_toward_going_out() -> None:
    """RG; PB: two canastas to go out, and a canasta of wild cards does not count."""
    with pytest.raises(canasta.PositionError) as e:
        turn(V, "5", '"K K K K K K K", "2 2 2 2 2 2 2"', phase="meld")
    assert "two canastas to go out (it has one; a wild canasta does not count)" in str(e.value)
    st2 = turn(V, "5", '"K K K K K K K", "Q Q Q Q Q Q Q"', phase="meld")
    assert "discard 5" in texts(st2)
    R = _rules()
    from canasta._core._canastas import side_canastas
    assert side_canastas(R, ((13, 7, 0, 0, 0), (WILD, 0, 0, 7, 0))) == 1
    assert side_canastas(R, ((13, 7, 0, 0, 0), (12, 5, 1, 1, 0))) == 2


@pytest.mark.parametrize("body, keys", [
    ('[melds]\nwild_melds = true\ndeuce_melds = true', ("melds.deuce_melds", "melds.wild_melds")),
    ('[melds]\ndeuce_meld_exclusive = true', ("melds.deuce_meld_exclusive", "melds.deuce_melds")),
    ('[going_out]\ncounted_kinds = []', ("going_out.counted_kinds", "going_out.canastas")),
])
def test_settings_refused_together(body: str, keys: tuple[str, ...], tmp_path) -> None:
    """Pairs of settings that cannot work together are refused naming both keys."""
    f = tmp_path / "x.toml"
    f.write_text(f'name = "x"\nextends = "samba"\n{body}\n')
    with pytest.raises(VariantError) as e:
        canasta.load_variant(str(f))
    for k in keys:
        assert k in str(e.value)


def test_web_example_shows_the_deuce_meld() -> None:
    """The web example (examples/web/server.py) names a meld of deuces on the table (RG: deuces
    melded as a rank of their own)."""
    from test_web_example import _example
    ex = _example()
    table = ex.Table("italian", 4, 1)
    table.state = turn(V, "2 JK 5 5 9 8 7", '"K K K", "JK 2 2"')
    html = ex.page(table)
    assert "deuces: JK 2 2" in html
    assert "add 2 to wild" in html


def test_position_and_save_round_trip_with_a_deuce_meld() -> None:
    """A position and a JSON save holding a meld of deuces read back the same; a meld of deuces
    the rules forbid (RG, digest A6: at most two jokers) is refused naming its key."""
    st = turn(V, "2 JK 5 5 9 8 7", '"K K K", "JK 2 2 2"')
    text = canasta.to_position(st)
    assert canasta.to_position(canasta.load_position(text)) == text
    saved = canasta.state_to_json(st)
    assert canasta.state_to_json(canasta.state_from_json(saved)) == saved
    with pytest.raises(canasta.PositionError) as e:
        turn(V, "2 JK 5 5 9 8 7", '"K K K", "JK JK JK 2 2"')
    assert "sides.0.melds.1" in str(e.value) and "meld of deuces" in str(e.value)


def test_observation_encodes_the_deuce_meld() -> None:
    """The observation's ``melds`` segment has the meld of deuces' slot (``WILD_RANK``)."""
    st = turn(V, "2 JK 5 5 9 8 7", '"K K K", "JK 2 2"')
    enc = canasta.ObservationEncoder(canasta.load_variant(V), 4)
    assert enc.meld_ranks[-1] == WILD
    seg = enc.segment("melds")
    melds = enc.split(enc.encode(st.observation(0)))["melds"]
    sides, ranks, slots, fields = seg.shape
    at = ((0 * ranks + ranks - 1) * slots + 0) * fields
    naturals, jokers, deuces, red = melds[at:at + 4]
    assert naturals == 0 and red == 0 and jokers > 0 and deuces > jokers  # one joker, two deuces


def test_going_out_in_the_initial_meld_turn_plans_no_wild_card() -> None:
    """RG (digest A4) with the going-out planner: in the turn of the side's initial meld a player
    may ask to go out only where his cards meld out without a wild card (one may be the discard)."""
    out = turn(V, "A A A A A A A K K K K K K K Q Q Q 2", opened0=False)
    assert legal(out, "ask")
    stuck = turn(V, "A A A A A A A K K K K K K K Q Q 2 JK", opened0=False)
    assert not legal(stuck, "ask")
    assert stuck.why_illegal("ask") is not None
    # after the initial meld's turn the same cards may be melded with the wild cards
    later = turn(V, "Q Q 2 JK", '"A A A A A A A", "K K K K K K K"')
    assert legal(later, "ask")
