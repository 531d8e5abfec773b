"""The bundled variant files match their sources, and the loader explains every mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from canasta._variant import Problem, Variant, VariantError
from canasta._variant_load import load_variant, variant_from_dict, variant_names, variant_to_dict

SEEDS = ("hoyle-1950", "bicycle", "wikipedia", "online", "three-pack", "new-canasta")
"""The variants of the seed rule texts (../shared/rules/sources/), which the tests below cite."""
NAMES = SEEDS + ("cuban", "hand-and-foot", "modern-american", "samba", "bolivia", "brazilian",
                 "mexicana", "uruguayan",
                 "pennies-from-heaven", "italian")
"""Every bundled variant: the seeds and those of the digests beyond them (tested in
tests/test_rules_cuban.py, tests/test_rules_hand_and_foot.py, tests/test_rules_modern_american.py
and, with suits and sequences, tests/test_core_sequences.py)."""


# ---------------------------------------------------------------- bundled variants


def test_all_bundled_names_present() -> None:
    """VARIANTS.md: "Variant names (stable, used by users and tests)"."""
    assert set(variant_names()) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_bundled_variant_loads_and_round_trips(name: str) -> None:
    v = load_variant(name)
    assert isinstance(v, Variant)
    assert v.name == name
    assert v.description and "\n" not in v.description
    assert (Path(__file__).parent.parent / "variants" / f"{name}.toml").is_file()
    assert variant_from_dict(variant_to_dict(v)) == v


def needs(v: Variant) -> list[tuple[int, int]]:
    return [(-5, v.initial_need(-5))] + [(s, v.initial_need(s)) for s in (0, 1495, 1500, 2995, 3000,
                                                                          5000, 5005, 6995, 7000, 9995)]


def test_initial_meld_hoyle() -> None:
    """hoyle rule 33: "Minus 0; 0 to 1495 50; 1500 to 2995 90; 3000 or more 120"."""
    v = load_variant("hoyle-1950")
    assert [n for _, n in needs(v)] == [0, 50, 50, 90, 90, 120, 120, 120, 120, 120, 120]


@pytest.mark.parametrize("name", ["bicycle", "wikipedia", "online"])
def test_initial_meld_minus_fifteen(name: str) -> None:
    """bicycle "Minus 15; 0 to 1,495 50; 1,500 to 2,995 90; 3,000 or more 120";
    wikipedia "Less than 0 15; 0 - 1499 50; 1500 - 2999 90; 3000 and above 120";
    online "15 (for teams with negative total points)", 50, 90, 120."""
    v = load_variant(name)
    assert [n for _, n in needs(v)] == [15, 50, 50, 90, 90, 120, 120, 120, 120, 120, 120]


def test_initial_meld_three_pack() -> None:
    """three-pack: "when a side reaches 7,000 it needs 150 for its initial meld"."""
    v = load_variant("three-pack")
    assert [n for _, n in needs(v)] == [0, 50, 50, 90, 90, 120, 120, 120, 120, 150, 150]


def test_initial_meld_new_canasta() -> None:
    """new-canasta: "Below 0 = 15; 0 to 1500 = 50; 1,501 to 3,000 = 90; 3,001 to 5,000 = 120;
    5,001 to 7,000 = 150; 7,001 to 10,000 = 210"."""
    v = load_variant("new-canasta")
    got = {s: v.initial_need(s) for s in (-5, 0, 1500, 1505, 3000, 3005, 5000, 5005, 7000, 7005, 9995)}
    assert got == {-5: 15, 0: 50, 1500: 50, 1505: 90, 3000: 90, 3005: 120, 5000: 120, 5005: 150,
                   7000: 150, 7005: 210, 9995: 210}
    assert v.melds.initial_canasta == "never"  # "you cannot meld a Canasta ... for an initial meld"


def test_red_three_bonus_tables() -> None:
    """hoyle rule 16 / bicycle: 100 each, "all four ... 800 points in all"; wikipedia "Each red
    three, up to three 100; The fourth red three 500"; online "800 points, if the team has all four";
    three-pack "Five red threes count 1,000; all six count 1,200"; new-canasta: caught "500 points
    each To the Bad", a natural canasta "topped with a Red 3 is worth 1,000 points"."""
    for name in ("hoyle-1950", "bicycle", "wikipedia", "online"):
        assert load_variant(name).red_threes.bonus == (0, 100, 200, 300, 800), name
    assert load_variant("three-pack").red_threes.bonus == (0, 100, 200, 300, 400, 1000, 1200)
    r = load_variant("new-canasta").red_threes
    assert (r.handling, r.in_hand_penalty, r.canasta_bonus, r.minus_without_meld) == ("keep", 500, 1000, False)
    assert load_variant("hoyle-1950").red_threes.dealt == "first_turn"  # rule 14 "At his first turn"
    assert load_variant("bicycle").red_threes.dealt == "first_turn"  # "on their first turn"
    assert load_variant("wikipedia").red_threes.dealt == "at_deal"  # "must immediately play it"


def test_game_targets_and_canastas_to_go_out() -> None:
    """hoyle rule 57 "5,000"; bicycle, wikipedia, online 5,000; three-pack "Game is 10,000" and
    "A side needs two canastas to go out"; new-canasta "reaches or exceeds 10,000 points" and
    "A player needs two canastas to Go Out"."""
    targets = {n: load_variant(n).game.target for n in SEEDS}
    assert targets == {"hoyle-1950": 5000, "bicycle": 5000, "wikipedia": 5000, "online": 5000,
                       "three-pack": 10000, "new-canasta": 10000}
    canastas = {n: load_variant(n).going_out.canastas for n in SEEDS}
    assert canastas == {"hoyle-1950": 1, "bicycle": 1, "wikipedia": 1, "online": 1,
                        "three-pack": 2, "new-canasta": 2}


def test_tables_and_decks() -> None:
    """hoyle rules 2 and 10 (15 cards for two, 13 for three, 11 otherwise; five = two against three
    with one idle); three-pack "Three full packs and six jokers", "Thirteen cards", "each player
    sits between two opponents"; online "allows the player to draw two cards" with two players;
    new-canasta "one deck of cards per player and an additional deck", 11 + 11, draw 2."""
    h = load_variant("hoyle-1950")
    assert {k: (t.sides, t.hand_size, t.draw, t.active) for k, t in h.tables.items()} == {
        "2": ("AB", 15, 1, 0), "3": ("ABC", 13, 1, 0), "4": ("ABAB", 11, 1, 0),
        "5": ("ABABB", 11, 1, 4), "6": ("ABABAB", 11, 1, 0)}
    t = load_variant("three-pack")
    assert t.deck.packs == 3 and t.tables["6"].sides == "ABCABC" and t.default_players == 6
    assert {x.hand_size for x in t.tables.values()} == {13}
    assert set(load_variant("bicycle").tables) == set(load_variant("wikipedia").tables) == {"4"}
    o = load_variant("online")
    assert (o.tables["2"].draw, o.tables["4"].draw) == (2, 1)
    n = load_variant("new-canasta")
    assert (n.deck.packs, n.deck.packs_per_player, n.default_players) == (1, 1, 5)
    for k, x in n.tables.items():
        assert (len(set(x.sides)), x.hand_size, x.down_hand_size, x.draw) == (int(k), 11, 11, 2)
    assert n.deal.score_keeper and n.deal.precise_draw_bonus == 100


def test_melds_by_source() -> None:
    """hoyle rule 25 "Wildcards in any number may be added to a completed canasta", rule 30
    "combine two or more complete melds"; bicycle "including at least four natural cards" and "may
    not make two different melds of the same rank"; online "never more wild cards than natural
    cards" and "a meld of wild cards only"; new-canasta "more natural cards than wild cards",
    "no further cards may be added to it", "two melds of the same denomination are allowed"."""
    h = load_variant("hoyle-1950").melds
    assert h.unlimited_wild_on_canasta and h.multiple_per_rank and h.combine
    assert load_variant("three-pack").melds == h
    b = load_variant("bicycle").melds
    assert b.canasta_min_naturals == 4 and not b.multiple_per_rank
    assert not load_variant("wikipedia").melds.multiple_per_rank
    o = load_variant("online").melds
    assert o.wild_ratio == "at_most_naturals" and o.wild_melds and not o.multiple_per_rank
    n = load_variant("new-canasta").melds
    assert (n.wild_ratio, n.canasta_closed, n.multiple_per_rank, n.combine) == (
        "fewer_than_naturals", True, True, False)


def test_black_threes() -> None:
    """hoyle rule 23 "unless the player GOES OUT in the same turn"; wikipedia "as a players last
    meld before going out"; online "immediately before going out"; new-canasta "7 black 3's ...
    This Canasta is not worth any points", "Black 3's = 0 points each"."""
    assert load_variant("hoyle-1950").black_threes.meld == "going_out_turn"
    assert load_variant("bicycle").black_threes.meld == "going_out_turn"
    assert load_variant("wikipedia").black_threes.meld == "last_meld"
    assert load_variant("online").black_threes.meld == "last_meld"
    n = load_variant("new-canasta")
    assert (n.black_threes.min, n.black_threes.max, n.black_threes.canasta_bonus) == (7, 7, 0)
    assert n.scoring.card_values.black_three == 0
    assert load_variant("hoyle-1950").scoring.card_values.black_three == 5


def test_pile_rules() -> None:
    """hoyle rule 13 (red trey or wild upcard covered, pile frozen), rule 42 (blocked by wild or
    black trey), rule 43 ("may not take it and go out unless he is forced"); bicycle upcard "joker,
    deuce or three", "frozen when ... a wild card or a black three is turned as an upcard or
    discarded", "may never be taken when its top card is a wild card, a black three, or a red
    three", one-card rule; new-canasta "no freezing of the Deck", natural pair only, "not ... on 2
    consecutive turns"."""
    h = load_variant("hoyle-1950")
    assert set(h.upcard.cover) == {"red_three", "wild"} and set(h.pile.blocked_by) == {"wild", "black_three"}
    assert h.pile.one_card_hand_one_card_pile == "unless_forced"
    b = load_variant("bicycle")
    assert set(b.upcard.cover) == {"wild", "red_three", "black_three"}
    assert set(b.upcard.freezes) == {"wild", "red_three", "black_three"}
    assert set(b.pile.freeze_on_discard) == {"wild", "black_three"}
    assert set(b.pile.blocked_by) == {"wild", "red_three", "black_three"}
    assert b.pile.one_card_hand_one_card_pile == "forbidden"
    o = load_variant("online")
    assert "black_three" in o.upcard.cover and "black_three" not in o.upcard.freezes
    n = load_variant("new-canasta")
    assert not n.upcard.repeat and n.upcard.freezes == () and n.pile.freeze_on_discard == ()
    assert not n.pile.frozen_until_initial_meld
    assert n.pile.take_unfrozen == n.pile.take_frozen == ("natural_pair",)
    assert not n.pile.pair_melded and not n.pile.consecutive_takes and n.pile.failed_initial_take == "undo"


def test_going_out_and_concealed() -> None:
    """hoyle rules 61-63 (no earlier meld by him, not onto partner's melds, his own canasta, no
    minimum, 100 extra); bicycle "need not do so if they has drawn from the stock"; wikipedia
    "makes their team's initial meld and goes out in the same turn"; online "200 additional points
    instead" (100 + 100)."""
    c = {n: load_variant(n).going_out.concealed for n in SEEDS}
    assert (c["hoyle-1950"].basis, c["hoyle-1950"].minimum, c["hoyle-1950"].no_partner_melds) == (
        "player", "waived", True)
    assert c["bicycle"].minimum == "waived_if_stock"
    assert (c["wikipedia"].basis, c["wikipedia"].minimum) == ("side", "required")
    assert (c["online"].own_canasta, c["online"].bonus) == (True, 100)
    assert c["new-canasta"].bonus == 0
    perm = {n: load_variant(n).going_out.permission for n in SEEDS}
    assert perm == {"hoyle-1950": True, "bicycle": True, "wikipedia": True, "online": False,
                    "three-pack": True, "new-canasta": False}


def test_stock_exhausted() -> None:
    """hoyle rule 45 forcing and rule 55 (red trey last: "after he has had an opportunity to meld,
    play ends"); bicycle "may not then meld or discard"; wikipedia "If the player can legally pick
    up the discard pile ... they must do so"; new-canasta "every player has a final opportunity"."""
    s = {n: load_variant(n).stock_exhausted for n in NAMES}
    assert (s["hoyle-1950"].must_take, s["hoyle-1950"].last_red_three) == ("add_to_meld", "meld_then_end")
    assert (s["bicycle"].must_take, s["bicycle"].last_red_three) == ("add_to_meld", "end")
    assert s["wikipedia"].must_take == s["online"].must_take == "any_legal"
    assert s["new-canasta"].mode == "last_round"
    assert load_variant("wikipedia").deal.first_dealer == "random"  # "chosen at random"


# ---------------------------------------------------------------- house rules and errors


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def problems(source: str | Path) -> list[tuple[str, str]]:
    with pytest.raises(VariantError) as info:
        load_variant(str(source))
    assert all(isinstance(p, Problem) for p in info.value.problems)
    return [(p.key, p.message) for p in info.value.problems]


def test_house_rules_override_only_what_they_say(tmp_path: Path) -> None:
    p = write(tmp_path, "house.toml", 'extends = "hoyle-1950"\n'
              '[tables.2]\ndraw = 2\n[going_out]\nbonus = 200\n[game]\ntarget = 7500\n')
    base, house = load_variant("hoyle-1950"), load_variant(str(p))
    assert house.name == "house"
    assert house.tables["2"].draw == 2 and house.tables["2"].hand_size == 15
    assert house.going_out.bonus == 200 and house.game.target == 7500
    expect = variant_to_dict(base)
    expect.update(name="house")
    expect["tables"]["2"]["draw"] = 2
    expect["going_out"]["bonus"] = 200
    expect["game"]["target"] = 7500
    assert variant_to_dict(house) == expect


def test_extends_by_relative_path(tmp_path: Path) -> None:
    write(tmp_path, "base.toml", 'extends = "bicycle"\n[game]\ntarget = 3000\n')
    (tmp_path / "sub").mkdir()
    p = write(tmp_path / "sub", "mine.toml", 'extends = "../base.toml"\n[going_out]\ncanastas = 2\n')
    v = load_variant(str(p))
    assert (v.game.target, v.going_out.canastas, v.melds.canasta_min_naturals) == (3000, 2, 4)


def test_unknown_key_suggests(tmp_path: Path) -> None:
    p = write(tmp_path, "x.toml", 'extends = "hoyle-1950"\n[melds]\nmax_wilds = 4\n')
    [(key, msg)] = problems(p)
    assert key == "melds.max_wilds"
    assert "did you mean 'max_wild'?" in msg and "allowed here:" in msg


def test_wrong_type(tmp_path: Path) -> None:
    p = write(tmp_path, "x.toml", 'extends = "hoyle-1950"\n[tables.4]\nhand_size = "11"\n')
    assert problems(p) == [("tables.4.hand_size", "expected an integer, got the string '11'")]


def test_bad_literal_lists_allowed_values(tmp_path: Path) -> None:
    p = write(tmp_path, "x.toml", 'extends = "hoyle-1950"\n[pile]\none_card_hand_one_card_pile = "never"\n'
              '[upcard]\ncover = ["wild", "joker"]\n')
    got = dict(problems(p))
    assert got["pile.one_card_hand_one_card_pile"] == (
        "the string 'never' is not allowed; allowed: 'allowed', 'unless_forced', 'forbidden'")
    assert "allowed: 'wild', 'red_three', 'black_three'" in got["upcard.cover.1"]


def test_thresholds_out_of_order(tmp_path: Path) -> None:
    p = write(tmp_path, "x.toml", 'extends = "hoyle-1950"\n[initial_meld]\n'
              'steps = [{from = 0, need = 50}, {from = 3000, need = 120}, {from = 1500, need = 90}]\n')
    [(key, msg)] = problems(p)
    assert key == "initial_meld.steps.2.from"
    assert "increasing score order" in msg


def test_negative_limits(tmp_path: Path) -> None:
    p = write(tmp_path, "x.toml", 'extends = "hoyle-1950"\n[melds]\nmax_wild = -1\n'
              '[going_out]\nbonus = -100\n')
    assert problems(p) == [("melds.max_wild", "is -1; must be 0 to 100"),
                           ("going_out.bonus", "is -100; must be 0 to 10000")]


def test_min_meld_larger_than_canasta(tmp_path: Path) -> None:
    p = write(tmp_path, "x.toml", 'extends = "wikipedia"\n[melds]\nmin_size = 8\n')
    [(key, msg)] = problems(p)
    assert key == "melds.min_size"
    assert "larger than melds.canasta_size (7)" in msg


def test_deck_too_small(tmp_path: Path) -> None:
    p = write(tmp_path, "x.toml", 'extends = "wikipedia"\n[tables.4]\nhand_size = 30\n')
    [(key, msg)] = problems(p)
    assert key == "tables.4"
    assert msg.startswith("the deck has 108 cards, too few to deal 4 hands of 30 cards")


def test_unknown_variant_name_suggests(tmp_path: Path) -> None:
    assert problems("bicycel")[0][0] == "(name)"
    assert "did you mean 'bicycle'?" in problems("bicycel")[0][1]
    p = write(tmp_path, "x.toml", 'extends = "hoyle"\n')
    [(key, msg)] = problems(p)
    assert key == "extends" and "did you mean 'hoyle-1950'?" in msg


def test_extends_loop(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", 'extends = "b.toml"\n')
    write(tmp_path, "b.toml", 'extends = "./a.toml"\n')
    [(key, msg)] = problems(tmp_path / "a.toml")
    assert key == "extends"
    assert msg == "extends itself in a loop: a.toml -> b.toml -> a.toml"


def test_missing_file_and_syntax(tmp_path: Path) -> None:
    assert problems(tmp_path / "nope.toml") == [("(file)", "no such file")]
    p = write(tmp_path, "x.toml", "name = \n")
    [(key, msg)] = problems(p)
    assert key == "(syntax)" and msg.startswith("not valid TOML")


def test_several_problems_all_reported(tmp_path: Path) -> None:
    p = write(tmp_path, "x.toml", '\n'.join([
        'extends = "hoyle-1950"',
        '[meld]', 'max_wild = 4',
        '[melds]', 'min_size = 8',
        '[tables.4]', 'hand_size = "11"',
        '[tables.7]', 'hand_size = 11',
        '[stock_exhausted]', 'mode = "forced"',
        '[game]', 'target = -5',
    ]))
    keys = [k for k, _ in problems(p)]
    assert keys == ["meld", "tables.4.hand_size", "stock_exhausted.mode", "game.target",
                    "tables.7.sides", "melds.min_size"]
    text = str(pytest.raises(VariantError, load_variant, str(p)).value)
    assert f"{p}: meld: unknown key (did you mean 'melds'?)" in text


def test_problem_in_parent_names_parent_file(tmp_path: Path) -> None:
    write(tmp_path, "base.toml", 'extends = "hoyle-1950"\n[game]\ntarget = "lots"\n')
    p = write(tmp_path, "child.toml", 'extends = "base.toml"\n[deal]\nfirst_dealer = "left"\n')
    with pytest.raises(VariantError) as info:
        load_variant(str(p))
    files = {(Path(pr.file).name, pr.key) for pr in info.value.problems}
    assert files == {("base.toml", "game.target"), ("child.toml", "deal.first_dealer")}


def test_variant_from_dict_checks() -> None:
    data = variant_to_dict(load_variant("bicycle"))
    data["melds"]["wild_ratio"] = "half"
    with pytest.raises(VariantError) as info:
        variant_from_dict(data, "mine")
    [pr] = info.value.problems
    assert (pr.file, pr.key) == ("mine", "melds.wild_ratio")
    assert "'any', 'at_most_naturals', 'fewer_than_naturals'" in pr.message
