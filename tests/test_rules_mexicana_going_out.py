"""Mexicana's going out planned ahead: asking "may I go out?" and black threes in the going-out
turn within the gate of a red three per canasta (``going_out.red_threes_per_canasta``, E15).

Sources: Rummy-Games, "Mexicana" (RG) and Parlett, *The Penguin Book of Card Games*, "Mexicana"
(PB): a side may go out only with at least one red three faced for each canasta it has, those
completed in the going-out turn included (the digest's 6.2 and A7). What Mexicana does not
change is the 1950 laws' (via three-pack): rule 50, a player able to go out may ask his partner
"May I go out?" after drawing, and is bound by a yes (rule 73); rule 23, black threes "may not be
melded unless the player GOES OUT in the same turn". The turn planner offers the ask, and black
threes, only where a legal going out exists within the gate, so that a player bound by a yes is
never left without one (issue 28). Four players: seats 0 and 2 are side 0.
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import assume, given
from hypothesis import strategies as hs

import canasta
import helpers
from helpers import legal

V = "mexicana"
CANASTAS = '"K K K K K K K", "Q Q Q Q Q 2 2"'  # the two canastas a side needs (6.1)
JACKS = f'{CANASTAS}, "J J J J J J"'  # and six jacks: one more completes a third canasta
NOTHING_TO_ASK = "you could not go out this turn even with a yes, so there is nothing to ask"


def turn(hand: str, melds0: str = CANASTAS, red0: int = 2, **kw: object) -> canasta.GameState:
    """Seat 0 to act, having drawn, holding ``hand``; his side has ``melds0`` and ``red0`` red threes."""
    return helpers.turn(V, hand, melds0, red0=red0, **kw)  # type: ignore[arg-type]


def test_the_ask_is_offered_when_the_red_threes_allow_going_out() -> None:
    """Laws rule 50 (inherited): with two canastas and two red threes faced (mexicana 6.2: one
    per canasta) the player can meld 9 9 9 and discard the 4 to go out, so he may ask."""
    st = turn("9 9 9 4")
    assert legal(st, "ask") and st.why_illegal("ask") is None
    st = st.apply("ask").apply("yes")
    assert legal(st, "meld 9 9 9")
    end = st.apply("meld 9 9 9").apply("discard 4")
    assert end.result is not None and end.result.went_out == 0


def test_the_ask_is_refused_when_every_going_out_breaks_the_gate() -> None:
    """mexicana 6.2 (RG, PB): two canastas and one red three: no going out is legal, so asking
    is refused (a yes would bind him to go out, laws rule 73), by why_illegal and by apply."""
    st = turn("9 9 9 4", red0=1)
    assert not legal(st, "ask")
    assert st.why_illegal("ask") == NOTHING_TO_ASK
    try:
        st.apply("ask")
    except canasta.IllegalActionError:
        pass
    else:
        raise AssertionError("ask applied with too few red threes")


def test_a_going_out_that_completes_no_extra_canasta_is_found() -> None:
    """mexicana A7: a canasta completed in the going-out turn counts. Holding J 9 9 9 beside six
    jacks, adding the J would make a third canasta with two red threes; melding 9 9 9 and
    discarding the J goes out with two. The ask is offered; after the yes the add is refused
    (it would leave no way out) and the meld offered."""
    st = turn("J 9 9 9", JACKS)
    assert legal(st, "ask")
    st = st.apply("ask").apply("yes")
    assert every_path_goes_out(st) == 1
    assert not legal(st, "add J") and legal(st, "meld 9 9 9")
    assert "you must go out this turn" in (st.why_illegal("add J") or "")
    end = st.apply("meld 9 9 9").apply("discard J")
    assert end.result is not None and end.result.went_out == 0


def test_no_ask_when_each_way_out_completes_an_extra_canasta() -> None:
    """mexicana A7: J 9 9 9 4 beside six jacks: both the J and the 4 would have to be discarded
    unless the J completes a third canasta, which two red threes do not cover: no ask. With
    three red threes faced, the J may complete it and the player may ask."""
    assert turn("J 9 9 9 4", JACKS).why_illegal("ask") == NOTHING_TO_ASK
    assert legal(turn("J 9 9 9 4", JACKS, red0=3), "ask")


def every_path_goes_out(st: canasta.GameState, depth: int = 0) -> int:
    """Play every action offered to seat 0 bound to go out, every order (issue 28's never-stuck
    promise): each path must end the hand with his side going out. Returns the paths."""
    if st.result is not None or st.current_player != 0:
        assert st.result is not None and st.result.went_out == 0
        return 1
    acts = st.legal_actions()
    assert acts and depth < 20
    return sum(every_path_goes_out(st.apply(a), depth + 1) for a in acts)


def test_naturals_laid_in_two_melds_so_as_to_complete_no_extra_canasta() -> None:
    """mexicana 6.2 with three-pack's several melds of a rank: seven nines in hand, two canastas
    and two red threes. Seven nines in one meld would be a third canasta; as 9 9 9 9 and 9 9 9
    they are not, and the 4 discarded goes out: the ask is offered, and after the yes every
    action offered leads out. With a meld of four nines on the table and 9 9 9 in hand, the
    three are laid as a meld of their own."""
    st = turn("9 9 9 9 9 9 9 4")
    assert legal(st, "ask")
    assert every_path_goes_out(st.apply("ask").apply("yes")) >= 2
    st = turn("9 9 9 4", f'{CANASTAS}, "9 9 9 9"')
    assert legal(st, "ask")
    assert every_path_goes_out(st.apply("ask").apply("yes")) >= 1


def test_wild_cards_left_over_complete_a_canasta_only_within_the_gate(tmp_path: Path) -> None:
    """mexicana 6.2 and A7 where wild cards cannot all go onto canastas (a house rule without
    hoyle rule 25's "wildcards in any number may be added to a completed canasta"; the two
    canastas hold three wild cards each, the laws' most, rule 23): beside J J J J J a joker goes
    on without completing it, so J JK and the 4 discarded go out with two red threes; two jokers
    there complete a third canasta, so the ask needs three red threes."""
    path = tmp_path / "capped.toml"
    path.write_text('extends = "mexicana"\nname = "mexicana-capped"\n[melds]\nunlimited_wild_on_canasta = false\n',
                    encoding="utf-8")
    melds = '"K K K K 2 2 2", "Q Q Q Q 2 2 2", "J J J J J"'
    st = helpers.turn(str(path), "JK 4", melds, red0=2)
    assert legal(st, "ask")
    assert every_path_goes_out(st.apply("ask").apply("yes")) >= 1
    assert helpers.turn(str(path), "JK JK 4", melds, red0=2).why_illegal("ask") == NOTHING_TO_ASK
    st = helpers.turn(str(path), "JK JK 4", melds, red0=3)
    assert legal(st, "ask")
    assert every_path_goes_out(st.apply("ask").apply("yes")) >= 1


def test_black_threes_meldable_in_a_going_out_turn_within_the_gate() -> None:
    """Laws rule 23 (inherited): black threes only in the turn he goes out. Two canastas and two
    red threes: 3b 3b 3b may be melded, and the 4 discarded goes out. With one red three no
    going out is legal (mexicana 6.2), so the black threes are refused."""
    st = turn("3b 3b 3b 4")
    assert legal(st, "meld 3b 3b 3b")
    end = st.apply("meld 3b 3b 3b").apply("discard 4")
    assert end.result is not None and end.result.went_out == 0
    st = turn("3b 3b 3b 4", red0=1)
    assert not legal(st, "meld 3b 3b 3b")
    assert (st.why_illegal("meld 3b 3b 3b") or "").startswith("black threes may be melded only when going out")


def test_no_ask_before_the_thirteen_cards_come() -> None:
    """mexicana 4.2 (RG, PB): the side's initial meld brings thirteen cards from the stock at
    once, to be melded in the same turn; a player whose side has not opened cannot plan a going
    out with cards he has not seen, so the ask (a binding yes) is not offered."""
    st = turn("K K K K K K K Q Q Q 4", "", red0=3, opened0=False)
    assert legal(st, "meld K K K") and st.why_illegal("ask") == NOTHING_TO_ASK


TABLES = (CANASTAS, JACKS, f'{CANASTAS}, "J J J J J J J"', f'{CANASTAS}, "9 9 9", "J J J J 2"')
"""The side's melds in the property test: its two canastas, with a meld one card short of a
third, a third canasta, or a meld that two wild cards would complete."""


@given(hand=hs.lists(hs.sampled_from(("JK", "2", "3b", "3b", "9", "9", "J", "J", "10", "10", "4")), min_size=2,
                     max_size=9),
       melds=hs.sampled_from(TABLES), red=hs.integers(0, 4), seed=hs.integers(0, 1000))
def test_a_player_offered_the_ask_or_black_threes_can_always_go_out(hand: list[str], melds: str, red: int,
                                                                     seed: int) -> None:
    """Never stuck (issue 28) within mexicana 6.2: wherever the ask, or a meld of black threes
    (laws rule 23), is offered, the player then bound to go out (a yes: rule 73) plays any action
    offered, at random, and goes out this turn, with no more canastas than red threes."""
    assume(hand.count("3b") <= 4 and hand.count("JK") <= 4 and hand.count("J") <= 4)  # within the deck
    st = turn(" ".join(hand), melds, red0=red)
    rng = random.Random(seed)
    for first in ("ask", *(str(a) for a in st.legal_actions() if str(a).startswith("meld 3b"))):
        if not legal(st, first):
            continue
        cur = st.apply("ask").apply("yes") if first == "ask" else st.apply(first)
        for _ in range(40):
            if cur.result is not None or cur.current_player != 0:
                break
            cur = cur.apply(rng.choice(cur.legal_actions()))
        assert cur.result is not None and cur.result.went_out == 0, (hand, melds, red, first)
        need = cur.variant.melds.canasta_min_naturals
        assert sum(1 for m in cur.melds[0] if m.size >= 7 and m.naturals >= need) <= red
