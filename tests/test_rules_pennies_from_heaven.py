"""Scenario tests: each distinctive rule of the Pennies from Heaven digest, asked of the engine.

Sources, as digested in ../shared/rules/beyond/pennies-from-heaven.md (whose rule numbers the
tests cite): Rummy-Games, "Pennies from Heaven" (RG,
http://www.rummy-games.com/rules/pennies-from-heaven.html); Bicycle, "Pennies from Heaven" (BC,
http://www.bicyclecards.ca/game-rules/pennies-from-heaven/178.php?page_id=32); Pagat, "Pennies
from Heaven" (PG, https://www.pagat.com/rummy/pennies.html); HowStuffWorks, "How to Play
Canasta", section "Pennies From Heaven" (HSW,
https://entertainment.howstuffworks.com/how-to-play-canasta2.htm). Variant
``pennies-from-heaven``; the other readings the digest names (A2, A3) are house-rules files
extending it. Positions are written in the position format; at six players seats 0, 2 and 4
are side 0, seats 1, 3 and 5 side 1; seat 0 is to act. A seat's ``down`` is his packet.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Optional, Sequence

import pytest

import canasta
from canasta import EventKind, GameState, VariantError, load_variant
from canasta import PositionError, load_position

from helpers import legal, rows

V = "pennies-from-heaven"
PACKET = "4 5 6 8 9 10 J Q K A A"
"""An eleven-card packet still face down (pennies-from-heaven 2.2)."""
# the four kinds a side needs to go out (7.1): natural, mixed, wild and sevens
FOUR = '"K K K K K K K", "Q Q Q Q Q 2 JK", "JK JK 2 2 2 2 2", "7 7 7 7 7 7 7"'
SEVENS = '"7 7 7 7 7 7 7"'
MIXED_SEVENS = '"7 7 7 7 2 2 JK"'


def six(hand: str, melds0: str = "", melds1: str = "", *, down0: str = "", downs: Sequence[str] = ("",) * 5,
        others: Sequence[str] = ("4 5 6",) * 5, pile: str = "5 9", phase: str = "meld", red: Sequence[int] = (0, 0),
        variant: str = V, melded: Optional[Sequence[bool]] = None) -> GameState:
    """Six players, seat 0 to act holding ``hand`` (having drawn, in the meld phase, unless
    ``phase`` says ``draw``), with packet ``down0`` (""; taken up); ``downs`` the packets of seats
    1 to 5; the sides' melds as the inside of a TOML list."""
    if melded is None:
        melded = (bool(melds0), bool(melds1), False, False, False, False)
    seats = []
    for seat, (hand_text, down) in enumerate(zip((hand, *others), (down0, *downs))):
        seats.append(f'[[seats]]\nhand = "{hand_text}"\n' + (f'down = "{down}"\n' if down else "")
                     + f"melded = {str(bool(melded[seat])).lower()}\n")
    sides = [f"[[sides]]\nmelds = [{m}]\nred_threes = {r}\n" for m, r in ((melds0, red[0]), (melds1, red[1]))]
    drew = '[turn]\ndrew = true\n' if phase == "meld" else ""
    text = (f'variant = "{variant}"\nplayers = 6\nphase = "{phase}"\nto_act = 0\npile = "{pile}"\nstock = "rest"\n'
            + "".join(seats) + "".join(sides) + drew)
    return load_position(text)


def house(tmp_path: Path, name: str, body: str) -> str:
    """A house-rules file extending pennies-from-heaven; its path, for a position's variant."""
    path = tmp_path / f"{name}.toml"
    path.write_text(f'extends = "{V}"\n' + textwrap.dedent(body), encoding="utf-8")
    load_variant(path)
    return str(path)


# ================================================================ 1-2 players and the deal


def test_six_players_in_two_teams_of_three() -> None:
    """pennies-from-heaven 1.1 (PG, RG, OP, OP2, GR): six players, two teams of three seated
    alternately; 1.2: four packs and eight jokers (216 cards). No other table."""
    v = load_variant(V)
    assert v.player_counts == (6,) and v.default_players == 6
    st = canasta.new_game(V, seed=3)
    assert [st.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert sum(st._rules.deck) == 216
    with pytest.raises(VariantError, match="4 players is not allowed; allowed: 6"):
        canasta.new_game(V, players=4)


def test_three_pairs_is_a_house_rule(tmp_path: Path) -> None:
    """pennies-from-heaven A1: BC seats three partnerships of two, A B C A B C: one line,
    ``tables.6.sides = "ABCABC"``."""
    st = canasta.new_game(load_variant(house(tmp_path, "pairs", '[tables.6]\nsides = "ABCABC"\n')), seed=3)
    assert [st.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]


def test_thirteen_cards_and_a_packet_of_eleven() -> None:
    """pennies-from-heaven 2.1-2.2 (PG, RG, BC, HSW, OP, GR): thirteen cards to each player,
    then a packet of eleven face down, unseen (an observation shows its size only); 2.3: the
    rest is the stock, its top card turned to start the pile."""
    st = canasta.new_game(V, seed=5)
    assert [sum(d) for d in st.down_hands] == [11] * 6
    assert [sum(h) for h in st.hands] == [13] * 6  # red threes are faced and replaced at the first turn
    obs = st.observation(1)
    assert obs.down_hand_sizes == (11,) * 6 and obs.down_hand_size == 11


# ================================================================ 3.4 no seven discarded


def test_no_seven_discarded_before_any_sevens_canasta() -> None:
    """pennies-from-heaven 3.4 (RG, BC): "no seven may be discarded until each side has
    completed a canasta of sevens": with none on the table a seven stays in the hand."""
    st = six("7 K Q", '"K K K"', '"Q Q Q"')
    assert not legal(st, "discard 7")
    assert st.why_illegal("discard 7") == ("you may not discard a 7 until each side has completed a canasta "
                                           "of 7s, while you hold a card of another rank")
    assert legal(st, "discard K") and legal(st, "discard Q")


def test_one_sides_sevens_canasta_is_not_enough() -> None:
    """pennies-from-heaven 3.4 (RG, BC: each side; A3's default): a sevens canasta of the
    player's own side, or of the other side only, does not release sevens."""
    for mine, theirs in ((SEVENS, '"Q Q Q"'), ('"K K K"', SEVENS)):
        st = six("7 K", mine, theirs)
        assert not legal(st, "discard 7")
        assert legal(st, "discard K")


def test_sevens_discarded_once_each_side_has_a_sevens_canasta() -> None:
    """pennies-from-heaven 3.4 (RG, BC; 6.2: natural or mixed): once each side has a canasta
    of sevens, mixed ones included, a seven may be discarded."""
    st = six("7 K", SEVENS, '"7 7 7 7 7 2 JK"')
    assert legal(st, "discard 7")
    after = st.apply("discard 7")
    assert after.pile[-1] == 7 and after.current_player == 1


def test_a_hand_of_sevens_still_discards() -> None:
    """pennies-from-heaven 3.4, with the engine's promise that a turn can always end: a player
    holding nothing but sevens discards one of them (as pile.no_discard_on_empty's exception)."""
    st = six("7 7", '"K K K"', '"Q Q Q"')
    assert legal(st, "discard 7")
    assert {str(a) for a in st.legal_actions()} >= {"discard 7"}


def test_sevens_released_by_the_own_side_is_a_house_rule(tmp_path: Path) -> None:
    """pennies-from-heaven A3: HSW releases sevens once "you or your partner" has made a sevens
    canasta: ``whose = "own_side"``."""
    v = house(tmp_path, "own", '[pile]\nno_discard_until_canasta = [{ rank = "seven", whose = "own_side" }]\n')
    assert legal(six("7 K", SEVENS, '"Q Q Q"', variant=v), "discard 7")
    st = six("7 K", '"K K K"', SEVENS, variant=v)
    assert st.why_illegal("discard 7") == ("you may not discard a 7 until your side has completed a canasta "
                                           "of 7s, while you hold a card of another rank")


# ================================================================ 3.5 no seven to go out


def test_no_seven_as_the_discard_that_goes_out() -> None:
    """pennies-from-heaven 3.5 (RG, BC, HSW): a seven may not be the discard with which a player
    goes out, even with every canasta his side needs and sevens released."""
    st = six("7", FOUR + ', "7 7 7"', MIXED_SEVENS)
    assert not legal(st, "discard 7")
    assert st.why_illegal("discard 7") == "a 7 may not be the discard with which you go out"
    assert legal(st, "add 7 to 7#2")
    # a lone seven with nowhere to meld it: play cannot go on, and the position is refused
    with pytest.raises(PositionError, match="to_act: .*a 7 may not be the discard with which you go out"):
        six("7", FOUR, MIXED_SEVENS)
    # another last card goes out
    end = six("9", FOUR, SEVENS).apply("discard 9")
    assert end.is_hand_over and end.result.went_out == 0


def test_no_action_leaves_a_lone_seven_to_go_out_with() -> None:
    """pennies-from-heaven 3.5: adding the king would leave a lone seven, which he could only
    discard (and may not, going out): refused, naming the rule; the seven itself goes out."""
    st = six("K 7", FOUR + ', "J J J"', SEVENS)
    assert not legal(st, "add K to K")  # (K is a closed canasta: no room anyway)
    st = six("J 7", FOUR + ', "J J J"', SEVENS)
    assert not legal(st, "add J to J")
    assert st.why_illegal("add J to J") == ("you would be left with a 7 alone, which may not be the discard "
                                            "with which you go out, and you could not go out by melding it")
    assert legal(st, "discard 7")  # he keeps the jack: not going out
    assert legal(st, "discard J")


def test_a_lone_seven_may_go_out_by_melding_it() -> None:
    """pennies-from-heaven 3.5 with A11 (a new meld of sevens after the sevens canasta): the last
    seven melded onto the open sevens goes out without a discard."""
    st = six("J 7", FOUR + ', "J J J", "7 7 7"', MIXED_SEVENS)
    assert legal(st, "add J to J")
    st = st.apply("add J to J")
    assert not legal(st, "discard 7")
    end = st.apply("add 7 to 7#2")
    assert end.is_hand_over and end.result.went_out == 0


def test_may_i_go_out_knows_the_seven_may_not_go_out() -> None:
    """pennies-from-heaven 3.5 and the laws' "may I go out?" (hoyle rule 39: the answer binds):
    a player whose only way out ends with a seven discarded may not ask; with another card he may."""
    st = six("J Q 7", FOUR + ', "J J J", "Q Q Q Q"', SEVENS)
    assert not legal(st, "ask")
    assert legal(six("J Q 9", FOUR + ', "J J J", "Q Q Q Q"', SEVENS), "ask")


# ================================================================ 5.1 the packet


def test_the_packet_comes_up_when_he_completes_a_canasta() -> None:
    """pennies-from-heaven 5.1 (RG: "when he makes his first canasta"; BC, HSW, PG, OP), A2's
    default: the player takes his packet into his hand at once and goes on with his turn."""
    st = six("K K 5 6", '"K K K K K"', '"Q Q Q"', down0=PACKET, downs=(PACKET,) * 5)
    st = st.apply("add K to K")
    assert sum(st.down_hands[0]) == 11  # six cards: not yet a canasta
    after = st.apply("add K to K")
    assert sum(after.down_hands[0]) == 0
    assert sum(after.hands[0]) == 2 + 11
    assert after.current_player == 0 and after.phase.value == "meld"
    assert sum(after.down_hands[2]) == 11 and sum(after.down_hands[4]) == 11  # partners keep theirs
    kinds = [e.kind for e in st.events_of("add K to K")]
    assert EventKind.DOWN_HAND in kinds


def test_a_partners_canasta_does_not_bring_up_the_packet() -> None:
    """pennies-from-heaven A2 (PG: until "the player" has completed a canasta): a canasta
    already on the side's table, completed by a partner, leaves the player's packet down; his
    own completion of a second one brings it up."""
    st = six("Q Q 5 6", '"K K K K K K K", "Q Q Q Q Q"', '"J J J"', down0=PACKET)
    assert sum(st.down_hands[0]) == 11
    after = st.apply("add Q to Q").apply("add Q to Q")
    assert sum(after.down_hands[0]) == 0 and sum(after.hands[0]) == 13


def test_the_packet_comes_up_by_a_take_that_completes_a_canasta() -> None:
    """pennies-from-heaven 5.1: a canasta completed with the pile's top card (hoyle rule 40,
    adding it to a meld of the side) brings up the packet as well."""
    st = six("5 6 8", '"K K K K K K"', '"J J J"', down0=PACKET, pile="9 K", phase="draw")
    after = st.apply("take onto K")
    assert sum(after.down_hands[0]) == 0
    assert sum(after.hands[0]) == 3 + 1 + 11  # his cards, the pile below the king, the packet


def test_the_packet_comes_up_on_an_empty_hand() -> None:
    """pennies-from-heaven (not stated; as Hand and Foot): a player who melds his last cards
    without completing a canasta takes up his packet then, and goes on."""
    st = six("8 8 8", '"K K K"', '"J J J"', down0=PACKET)
    after = st.apply("meld 8 8 8")
    assert sum(after.down_hands[0]) == 0 and sum(after.hands[0]) == 11
    assert after.current_player == 0 and not after.is_hand_over


def test_the_sides_first_canasta_brings_up_every_packet_is_a_house_rule(tmp_path: Path) -> None:
    """pennies-from-heaven A2's other reading: the side's first canasta releases every partner's
    packet (``deal.down_hand_up = "side_canasta"``); a later canasta releases none."""
    v = house(tmp_path, "side", '[deal]\ndown_hand_up = "side_canasta"\n')
    st = six("K K 5 6", '"K K K K K"', '"J J J"', down0=PACKET, downs=(PACKET,) * 5, variant=v)
    after = st.apply("add K to K").apply("add K to K")
    assert [sum(d) for d in after.down_hands] == [0, 11, 0, 11, 0, 11]
    assert sum(after.hands[2]) == 3 + 11 and sum(after.hands[0]) == 2 + 11
    st = six("Q Q 5 6", '"K K K K K K K", "Q Q Q Q Q"', '"J J J"', down0=PACKET, downs=(PACKET,) * 5, variant=v)
    after = st.apply("add Q to Q").apply("add Q to Q")
    assert sum(after.down_hands[0]) == 11 and sum(after.down_hands[2]) == 11


def test_no_going_out_with_the_packet_down() -> None:
    """pennies-from-heaven 5.1 with 7.1: the packet must come up before the hand can end; a player
    with his packet down may not ask "may I go out?"."""
    st = six("J Q 9", FOUR + ', "J J J", "Q Q Q Q"', SEVENS, down0=PACKET)
    assert not legal(st, "ask")


# ================================================================ 7.1 four kinds to go out


def test_going_out_needs_a_sevens_canasta_besides() -> None:
    """pennies-from-heaven 7.1 (PG, RG, BC, HSW; OP2): a side needs at least one canasta of
    each kind, natural, mixed, wild and sevens: without the sevens it may not go out."""
    three = '"K K K K K K K", "Q Q Q Q Q 2 JK", "JK JK 2 2 2 2 2", "A A A A A A A"'
    st = six("J 9", three + ', "J J J"', SEVENS)
    assert not legal(st, "add J to J")
    assert st.why_illegal("add J to J") == (
        "your side needs one natural, one mixed, one wild, one of 7s canastas to go out (it lacks one more of "
        "7s): keep at least two cards, one to discard")
    st = six("J 9", FOUR + ', "J J J"', SEVENS)
    assert legal(st, "add J to J")
    end = st.apply("add J to J").apply("discard 9")
    assert end.is_hand_over and end.result.went_out == 0


def test_going_out_needs_each_of_the_other_kinds_too() -> None:
    """pennies-from-heaven 7.1: with the sevens but without a wild canasta the side may not go
    out; a second natural canasta does not stand for it."""
    st = six("J 9", '"K K K K K K K", "Q Q Q Q Q 2 JK", "A A A A A A A", "7 7 7 7 7 7 7", "J J J"', SEVENS)
    assert not legal(st, "add J to J")
    assert "(it lacks one more wild)" in st.why_illegal("add J to J")


# ================================================================ 8.2 red threes


def test_red_threes_count_minus_without_a_sevens_canasta() -> None:
    """pennies-from-heaven 8.2 (RG, BC): red threes count minus for a side that has not
    completed a canasta of sevens; 8.1: 100 each."""
    end = six("9", FOUR, '"Q Q Q Q"', red=(2, 3)).apply("discard 9")
    assert rows(end, 0)["red threes"] == 200
    assert rows(end, 1)["red threes (no canasta of 7s)"] == -300


def test_a_mixed_sevens_canasta_saves_the_red_threes() -> None:
    """pennies-from-heaven 8.2 with 6.2 (a sevens canasta may be mixed): a mixed canasta of
    sevens is a canasta of sevens; melds without one count the threes minus even with other
    canastas."""
    end = six("9", FOUR, '"7 7 7 7 7 2 2", "Q Q Q Q Q Q Q"', red=(1, 1)).apply("discard 9")
    assert rows(end, 1)["red threes"] == 100
    end = six("9", FOUR, '"Q Q Q Q Q Q Q"', red=(1, 1)).apply("discard 9")
    assert rows(end, 1)["red threes (no canasta of 7s)"] == -100


def test_all_eight_red_threes_count_a_thousand() -> None:
    """pennies-from-heaven 8.1 (RG, BC, HSW): all eight red threes held by one side, 1,000."""
    end = six("9", FOUR, SEVENS, red=(8, 0)).apply("discard 9")
    assert rows(end, 0)["red threes"] == 1000


# ================================================================ 6.1 the sevens canasta


def test_a_sevens_canasta_scores_fifteen_hundred_natural_or_mixed() -> None:
    """pennies-from-heaven 6.1 (RG, OP, HSW): a canasta of sevens scores 1,500, natural 500,
    mixed 300, wild 1,000; 6.2 and A7 (BC, RG): a mixed canasta of sevens is a sevens canasta
    too, at 1,500 (``scoring.rank_canastas``)."""
    end = six("9", FOUR, '"Q Q Q Q"').apply("discard 9")
    got = rows(end, 0)
    assert got["natural canastas"] == 500 and got["mixed canastas"] == 300 and got["wild canastas"] == 1000
    assert got["canastas of 7s"] == 1500
    mixed = '"K K K K K K K", "Q Q Q Q Q 2 JK", "JK JK 2 2 2 2 2", "7 7 7 7 7 2 JK"'
    end = six("9", mixed, '"Q Q Q Q"').apply("discard 9")
    got = rows(end, 0)
    assert got["canastas of 7s"] == 1500 and got["mixed canastas"] == 300


def test_a_sevens_canasta_never_doubles_as_the_natural_one() -> None:
    """pennies-from-heaven A7 (BC: four canastas, one of each kind): a natural canasta of sevens
    is the sevens canasta, not the natural one going out needs; nor is a mixed one the mixed."""
    no_natural = '"7 7 7 7 7 7 7", "Q Q Q Q Q 2 JK", "JK JK 2 2 2 2 2", "A A A A A 2 2", "J J J"'
    st = six("J 9", no_natural, MIXED_SEVENS)
    assert not legal(st, "add J to J")
    assert "(it lacks one more natural)" in st.why_illegal("add J to J")
    no_mixed = '"7 7 7 7 7 2 2", "K K K K K K K", "JK JK 2 2 2 2 2", "A A A A A A A", "J J J"'
    st = six("J 9", no_mixed, '"Q Q Q"')
    assert "(it lacks one more mixed)" in st.why_illegal("add J to J")


# ================================================================ the settings' validation


@pytest.mark.parametrize(("body", "key", "other"), [
    ('[deal]\ndown_hand_up = "own_canasta"\n[tables.6]\ndown_hand_size = 0\n', "deal.down_hand_up",
     "tables.N.down_hand_size"),
    ('[pile]\nfailed_initial_take = "undo"\n', "deal.down_hand_up", "pile.failed_initial_take"),
    ('[red_threes]\nhandling = "keep"\nbonus = [0]\n', "red_threes.minus_without_canasta_of",
     "red_threes.handling"),
    ('[melds]\nnew_after_canasta = false\n[going_out]\ncanastas_by_rank = [{ rank = "seven", count = 2 }]\n',
     "going_out.canastas_by_rank.0.count", "melds.multiple_per_rank"),
    ('[going_out]\nno_final_discard = ["seven", "seven"]\n', "going_out.no_final_discard", "'seven'"),
    ('[pile]\nno_discard_until_canasta = [{ rank = "seven" }, { rank = "seven", whose = "own_side" }]\n',
     "pile.no_discard_until_canasta", "'seven'"),
])
def test_settings_that_cannot_work_together_are_refused(tmp_path: Path, body: str, key: str, other: str) -> None:
    """The schema refuses pairs of the new settings that cannot work together, naming both keys."""
    path = tmp_path / "bad.toml"
    path.write_text(f'extends = "{V}"\n' + body, encoding="utf-8")
    with pytest.raises(VariantError) as err:
        load_variant(path)
    found = [p for p in err.value.problems if p.key == key]
    assert found and other in found[0].message, err.value.problems


def test_a_last_round_ends_without_the_seven_that_may_not_go_out(tmp_path: Path) -> None:
    """pennies-from-heaven 3.5 (``going_out.no_final_discard``) in a house rule on new-canasta,
    whose last round has no draw ("every player has a final opportunity", and a player "must
    hold at least one card" to end his turn without going out): a player holding only a seven
    may not discard it, and ends his turn with "done" instead (a fuzzed mixture reached a
    player to act with no legal action here)."""
    path = tmp_path / "nc.toml"
    path.write_text('extends = "new-canasta"\n[going_out]\nno_final_discard = ["seven"]\n', encoding="utf-8")
    body = textwrap.dedent(f"""\
        variant = "{path}"
        players = 2
        phase = "draw"
        to_act = 1
        pile = "5 9"
        stock = "rest"
        [[seats]]
        hand = "7"
        melded = true
        [[seats]]
        hand = "4 5 6"
        melded = true
        [[sides]]
        melds = ["K K K K K K K", "Q Q Q Q Q Q Q"]
        [[sides]]
        melds = ["J J J"]
        """)
    # the same cards with the stock used up into the pile, seat 0 to act in the last round
    text = canasta.to_position(load_position(body))
    stock = next(line for line in text.splitlines() if line.startswith("stock = ")).split('"')[1]
    st = load_position(body.replace('pile = "5 9"', f'pile = "{stock} 5 9"')
                       .replace('stock = "rest"', 'stock = ""\nlast_turns = 1')
                       .replace('phase = "draw"\nto_act = 1', 'phase = "meld"\nto_act = 0'))
    assert not legal(st, "discard 7")
    assert legal(st, "done")


def test_asking_before_the_draw_allows_for_a_card_that_may_not_go_out(tmp_path: Path) -> None:
    """pennies-from-heaven 3.5 as a house rule on the 1950 laws (draw one): "may I go out?"
    before drawing (hoyle rule 39) binds the player to go out whatever he draws; the card drawn
    might be a king, which may not be the last discard, so a hand that melds out before the
    draw no longer entitles him to ask (a fuzzed mixture dead-ended after such a yes)."""
    import helpers
    plain = tmp_path / "plain.toml"
    plain.write_text('extends = "hoyle-1950"\n', encoding="utf-8")
    banned = tmp_path / "banned.toml"
    banned.write_text('extends = "hoyle-1950"\n[going_out]\nno_final_discard = ["king"]\n', encoding="utf-8")
    for path, ok in ((plain, True), (banned, False)):
        st = helpers.turn(str(path), "Q Q", '"J J J J J J J", "Q Q Q"', phase="draw")
        assert legal(st, "ask") is ok, path
