"""Scenario tests: Italian Canasta's buried upcard (issue 27, E18: ``upcard.buried``), on
house rules that extend ``samba`` (Italian's parent) until ``variants/italian.toml`` sets it.

Sources, as digested in ../shared/rules/beyond/italian.md (rule numbers are its):

* RG: Rummy-Games, "Italian Canasta" -- http://rummy-games.com/rules/italian-canasta.html
  (2.3: the top card of the stock is turned, as many cards as its number, jack 11, queen 12,
  king 13, are counted off face down and the turned card put face up on them: the pile).
* HSW: HowStuffWorks, "Italian Canasta" --
  http://entertainment.howstuffworks.com/how-to-play-canasta1.htm (2.3 with the upcard's
  point value as the count, digest A2: ``upcard.buried = "point_value"``).
* A2 (solitariocarte.com, "Giocare a Canasta", https://www.solitariocarte.com/giocare-a-canasta.htm):
  an ace counts 14; a wild card or a three turned up: turn again.
* 3.3 (follows from 2.3 and 3.2): whoever takes the pile takes all of it, the face-down packet
  included.

Whether a card is face down is the engine's: the buried cards are in ``GameState.pile`` (the
true state) and counted by ``pile_buried``; observations never show them.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import canasta
from canasta import VariantError
from canasta._cards import KIND_OF
from canasta._position_doc import PositionError

HOUSE = """extends = "samba"
name = "italian-pile"
[upcard]
buried = "{mode}"
cover = []
[pile]
take_unfrozen = ["natural_pair"]
take_frozen = ["natural_pair"]
examine = "{examine}"
"""
PLAIN = """extends = "samba"
name = "italian-plain"
[upcard]
cover = []
"""
"""The same deck and deal with no packet: its upcard is the first card the buried deal turns."""

NUMBER = {k: k for k in range(4, 15)}  # a natural kind's number: four 4 ... jack 11, ace 14 (SOL)
VALUE = {4: 5, 5: 5, 6: 5, 7: 5, 8: 10, 9: 10, 10: 10, 11: 10, 12: 10, 13: 10, 14: 20}  # samba's card values


def _variant(tmp: Path, mode: str = "rank_number", examine: str = "never") -> canasta.Variant:
    path = tmp / f"house-{mode}-{examine}.toml"
    path.write_text(HOUSE.format(mode=mode, examine=examine))
    return canasta.load_variant(path)


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("italian-pile")


def _kind(card: int) -> int:
    """A card code's kind (a suited natural's rank, 4-14)."""
    return KIND_OF[card]


# ================================================================ 2.3 building the pile


@pytest.mark.parametrize("mode,count", [("rank_number", NUMBER), ("point_value", VALUE)])
def test_the_pile_starts_as_a_packet_under_the_upcard(tmp: Path, mode: str, count: dict[int, int]) -> None:
    """Italian 2.3 (RG: as many cards as the upcard's number, jack 11, queen 12, king 13; A2:
    ace 14; HSW: its point value): the pile is the upcard face up on that many stock cards
    face down; the stock gives them up."""
    v = _variant(tmp, mode)
    plain = canasta.load_variant(_plain(tmp))
    seen = set()
    for seed in range(12):
        st = canasta.new_game(v, seed=seed)
        base = canasta.new_game(plain, seed=seed)
        up = _kind(st.pile[-1])
        assert 4 <= up <= 14  # a natural upcard
        assert st.pile_buried == count[up] == len(st.pile) - 1
        # the buried cards came off the stock (which also replaced the red threes faced)
        assert len(st.stock) + len(st.pile) + sum(st.red_threes) == \
            len(base.stock) + len(base.pile) + sum(base.red_threes)
        seen.add(up)
    assert len(seen) >= 5


def _plain(tmp: Path) -> Path:
    path = tmp / "plain.toml"
    path.write_text(PLAIN)
    return path


def test_a_wild_card_or_three_turned_up_is_turned_again(tmp: Path) -> None:
    """Italian A2 (SOL): a joker, a deuce or a three turned up goes back (to the bottom of the
    stock) and the next card is turned: the upcard is always natural, and the packet counts
    from it. Seeds whose first turned card is wild or a three are found from the same deal
    without a packet."""
    v = _variant(tmp)
    plain = canasta.load_variant(_plain(tmp))
    hits = 0
    for seed in range(200):
        first = _kind(canasta.new_game(plain, seed=seed).pile[0])
        if first >= 4:
            continue
        st = canasta.new_game(v, seed=seed)
        up = _kind(st.pile[-1])
        assert up >= 4 and st.pile_buried == up
        assert _kind(st.stock[0]) == first  # the card turned first went to the bottom
        hits += 1
        if hits == 4:
            break
    assert hits == 4


# ================================================================ 3.3 the whole pile is taken


def _position(v: canasta.Variant, tmp: Path, hand: str, pile: str, buried: int, **extra: str) -> canasta.GameState:
    path = tmp / "pos-variant.toml"
    path.write_text(HOUSE.format(mode="rank_number", examine=extra.get("examine", "never")))
    text = f"""variant = "{path}"
phase = "draw"
pile = "{pile}"
pile_buried = {buried}
[[seats]]
hand = "{hand}"
[[seats]]
hand = "4d 5s 6c"
[[seats]]
hand = "4s 5d 6d"
[[seats]]
hand = "Jc Jd 10s"
[[sides]]
melds = ["K K K"]
[[sides]]
"""
    return canasta.load_position(text)


def test_taking_the_pile_takes_the_buried_cards(tmp: Path) -> None:
    """Italian 3.3 (from RG 2.3 and 3.2): the pile is taken with a natural pair of the upcard's
    rank, and all of it comes, the cards that were face down included; nothing stays face down."""
    v = _variant(tmp)
    st = _position(v, tmp, "6h 6s 4c 9c", "Qd 8h 2 JK 7c 6c", 5)
    assert st.pile_buried == 5 and len(st.pile) == 6
    after = st.apply("take 6 6")
    assert after.pile == () and after.pile_buried == 0
    hand = after.hands[0]
    # the packet's cards came into the hand: a queen, an eight, a deuce, a joker and a seven
    assert hand[canasta.Card.JOKER] == 1 and hand[canasta.Card.TWO] == 1
    assert sum(hand[:15]) == 2 + 5  # 4c 9c, and the five buried cards (the sixes were melded)


def test_buried_cards_are_never_taken_alone_or_with_a_wild_card(tmp: Path) -> None:
    """Italian 3.2 (RG, HSW: always frozen) with 2.3: only the face-up upcard decides the take;
    a hand holding one natural of its rank and a wild card may not take the packet, and the
    refusal says why; ``apply`` refuses it leaving the state as it was."""
    v = _variant(tmp)
    st = _position(v, tmp, "6h 2 4c 9c", "Qd 8h 2 JK 7c 6c", 5)
    assert "natural pair" in st.why_illegal("take 6 2")
    with pytest.raises(canasta.IllegalActionError):
        st.apply("take 6 2")
    assert st.pile_buried == 5


# ================================================================ hidden state


def test_observations_count_the_buried_cards_but_never_show_them(tmp: Path) -> None:
    """Italian 2.3: the packet is face down. Every seat's observation counts it in the pile's
    size and gives how many are buried, and even where the pile may be looked through
    (``pile.examine = "always"``) the examined pile lists only the face-up cards."""
    v = _variant(tmp, examine="always")
    st = canasta.new_game(v, seed=3)
    for seat in range(4):
        obs = canasta.observation(st, seat)
        assert obs.pile_size == len(st.pile) and obs.pile_buried == st.pile_buried > 0
        assert obs.examined_pile == st.pile[st.pile_buried:]
        assert canasta.Observation.from_dict(obs.to_dict()).pile_buried == st.pile_buried
    # once taken, the pile has no face-down card left
    taken = _position(v, tmp, "6h 6s 4c 9c", "Qd 8h 2 JK 7c 6c", 5, examine="always").apply("take 6 6")
    assert canasta.observation(taken, 1).pile_buried == 0


def test_resample_deals_the_buried_cards_from_the_unseen_ones(tmp: Path) -> None:
    """Italian 2.3: nobody has seen the packet, so a state resampled for a seat (from the state,
    and from its observation alone) keeps the upcard and the count but deals the buried cards
    among the unseen cards, differently from sample to sample; the deck is conserved."""
    v = _variant(tmp)
    st = canasta.new_game(v, seed=5)
    st = st.apply("draw")
    rng = random.Random(1)
    packets = set()
    for _ in range(6):
        r = st.resample(0, rng)
        assert r.pile_buried == st.pile_buried and r.pile[st.pile_buried:] == st.pile[st.pile_buried:]
        assert r.hands[0] == st.hands[0]
        packets.add(r.pile[:st.pile_buried])
        s = canasta.sample_state(canasta.observation(st, 0), rng, variant=v)
        assert s.pile_buried == st.pile_buried and s.pile[-1] == st.pile[-1]
        packets.add(s.pile[:st.pile_buried])
        assert sorted(r.pile + r.stock + sum((_cards(h) for h in r.hands), ())) == \
            sorted(st.pile + st.stock + sum((_cards(h) for h in st.hands), ()))
    assert len(packets) > 1


def _cards(hand: tuple[int, ...]) -> tuple[int, ...]:
    """A suited hand's cards as codes (jokers, deuces, threes and suited naturals)."""
    out: list[int] = []
    for k, n in enumerate(hand):
        if k < 4 or k >= 15:
            out += [k] * n
    return tuple(out)


# ================================================================ positions, saves, events


def test_positions_and_saves_keep_the_buried_count(tmp: Path) -> None:
    """The position format and the JSON save write the face-down count (``pile_buried``) and
    read it back; a position whose count cannot be (more than the pile under its top card, or
    in a variant that buries nothing) is refused naming the key."""
    v = _variant(tmp)
    st = canasta.new_game(v, seed=2)
    text = canasta.to_position(st)
    assert f"pile_buried = {st.pile_buried}" in text
    assert canasta.load_position(text) == st
    assert canasta.state_from_json(canasta.state_to_json(st)) == st
    with pytest.raises(PositionError, match="pile_buried: is .*face up"):
        canasta.load_position(text.replace(f"pile_buried = {st.pile_buried}", f"pile_buried = {len(st.pile)}"))
    with pytest.raises(ValueError, match="pile_buried: is"):
        canasta.state_from_json(canasta.state_to_json(st).replace(
            f'"pile_buried": {st.pile_buried}', f'"pile_buried": {len(st.pile) + 3}'))
    samba = canasta.to_position(canasta.new_game("samba", seed=2)).replace("pile = ", "pile_buried = 1\npile = ", 1)
    with pytest.raises(PositionError, match="pile_buried: samba buries no cards"):
        canasta.load_position(samba)


def test_the_deal_event_tells_the_packet(tmp: Path) -> None:
    """Italian 2.3: the table sees the packet built: the deal's event says how many cards lie
    face down under the upcard."""
    st = canasta.new_game(_variant(tmp), seed=2)
    text = canasta.deal_events(st)[0].text
    assert f"on {st.pile_buried} cards face down" in text


def test_terminal_play_shows_the_packet_face_down(tmp: Path) -> None:
    """Italian 2.3 in ``canasta play``: the deal's pile line and a player's view name the
    upcard and count the cards under it, never naming them."""
    import io

    from canasta.cli.view import Printer, person_view

    st = canasta.new_game(_variant(tmp), seed=2)
    b = st.pile_buried
    out = io.StringIO()
    Printer(out).deal(st)
    line = next(x for x in out.getvalue().splitlines() if x.strip().startswith("pile:"))
    assert line.strip().startswith(f"pile: {canasta.SuitedCard(st.pile[-1])} on {b} cards face down")
    view = next(x for x in person_view(st, 0) if x.strip().startswith("pile:"))
    assert f"{len(st.pile)} cards ({b} face down under the upcard)" in view


# ================================================================ the schema


@pytest.mark.parametrize("extra,key", [
    ("", "upcard.cover"),
    ("cover = []\nturned = false\n", "upcard.turned"),
    ("cover = []\n[pile]\ntake_top = 7\n", "pile.take_top"),
    ("cover = []\n[pile]\nfailed_initial_take = \"undo\"\n", "pile.failed_initial_take"),
])
def test_buried_upcard_refused_with_settings_it_cannot_work_with(tmp_path: Path, extra: str, key: str) -> None:
    """``upcard.buried`` with an upcard covered (not turned again), with no upcard, with a take
    of only the pile's top cards, or with a take that may be undone: refused when the file
    loads, naming both keys."""
    path = tmp_path / "house.toml"
    path.write_text('extends = "samba"\n[upcard]\nburied = "rank_number"\n' + extra)
    with pytest.raises(VariantError) as info:
        canasta.load_variant(path)
    assert any(p.key == "upcard.buried" and key in p.message for p in info.value.problems), info.value


def test_variants_without_a_packet_deal_as_before() -> None:
    """Zero cost for the others: a bundled variant's deal has no face-down card."""
    for name in ("hoyle-1950", "samba", "uruguayan"):
        st = canasta.new_game(name, seed=4)
        assert st.pile_buried == 0 and canasta.observation(st, 0).pile_buried == 0
        assert "pile_buried" not in canasta.state_to_json(st)


# ================================================================ both cores


@pytest.mark.parametrize("mode,seeds", [("rank_number", range(1)),
                                        pytest.param("point_value", range(1, 4), marks=pytest.mark.slow)])
def test_both_cores_agree_on_buried_piles(tmp: Path, mode: str, seeds: range, core: str) -> None:
    """The differential test (tests/test_native.py) on the house rules: every decision of
    seeded deals (two hands each), positions written and read back on the way."""
    if core == "python":
        pytest.skip("compares the two cores: run once, in the native core's run")
    import test_native

    test_native.play_table(_variant(tmp, mode), 4, seeds, load_every=29)
