"""No dead ends for a player bound to go out (issue 28, items 0 and 12), on both cores.

The engine offers an action only when the turn can still be finished after it; for a player
bound to go out (his partner's binding yes, hoyle rule 39; black threes melded, hoyle rule 38)
every action offered must leave him a way to meld all his cards (one may be discarded last).
Each case here once left such a player with no legal action. Every test runs on the Python core
(the reference) and on the native core, in one process.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from canasta import GameState, GreedyBot, _core, load_position, load_variant, new_game
from canasta._bots import _ask
from helpers import legal

CORES = ("python", "native")


def on_core(st: GameState, core: str) -> GameState:
    """``st`` on the Python core (a copy), or as it is on the native core."""
    if core == "python":
        return GameState(_core.to_python(st._c))
    if st.core != "native":
        if os.environ.get("CANASTA_REQUIRE_NATIVE") == "1":
            pytest.fail(f"the native core is not in use: {st.core}")
        pytest.skip("the native core is not in use")
    return st


def goes_out_every_way(st: GameState, walks: int, seed: int) -> None:
    """From ``st``, random walks through the legal actions of the player to act: each ends with
    his going out (every action offered left him a way out), and none meets a dead end."""
    seat = st.current_player
    rng = random.Random(seed)
    for walk in range(walks):
        s = st
        path: list[str] = []
        while not s.is_hand_over:
            acts = s.legal_actions()
            assert acts, f"walk {walk}: no legal action after {path}"
            assert s.current_player == seat, f"walk {walk}: the turn passed without going out after {path}"
            a = rng.choice(acts)
            path.append(str(a))
            s = s.apply(a)
        assert s.result is not None and s.result.went_out == seat, path


# ---------------------------------------------------------------- samba: no wild card onto a canasta

SAMBA_1665 = """
variant = "samba"
players = 4
seed = 1665
dealer = 3
phase = "meld"
to_act = 0
pile = "3b 3b"
stock = "rest"

[[seats]]
hand = "Qh 10h 10h 9c 2 2 2 JK"
melded = true
[[seats]]
hand = "Qh Qc 10d 10d 8s 8d 4s 4h"
melded = true
[[seats]]
hand = "Ah Ks Jc 10c 7s 5d 5c 4s 4h JK"
melded = true
took_last = true
[[seats]]
hand = "Qs Qd 10c 9h 4d 4c 3b"
melded = true

[[sides]]
melds = ["8 8 8 8 8 8 8 8", "Js Qs Ks", "Js Qs Ks", "9 9 9 9 9"]
red_threes = 1
[[sides]]
melds = ["7 7 7 7 7 7 2", "A A A 2", "6 6 6 6", "K K K", "5 5 5"]
red_threes = 2

[turn]
drew = true
asked = true
answer = true
melded = true
touched_partner = true
melds_before = 4
"""
"""``canasta demo samba --seed 1665``, seat 0 after his partner's yes: he holds four wild cards,
the side has one canasta and needs two (samba, BC "Canastas"), and no meld takes the queen."""


@pytest.mark.parametrize("core", CORES)
def test_samba_no_wild_card_onto_a_canasta_leaves_a_way_out(core: str) -> None:
    """Samba, WP: "no wild card may be added to a canasta"; cards are added one at a time, so a
    meld of six nines takes one wild card (the seventh card makes it a canasta), not the two a
    meld may hold (BC, Wild Cards). Bound by his partner's yes (hoyle rule 39), seat 0 may not add
    his ninth nine: his four wild cards would then have room for three (one on the nines, two in a
    new meld of tens), and the queen is his one discard. He adds the wild cards to the nines
    first, and goes out, every way he plays."""
    st = on_core(load_position(SAMBA_1665), core)
    assert st.core == core
    assert not legal(st, "add 9c to 9")
    assert "could not meld all your cards" in (st.why_illegal("add 9c to 9") or "")
    assert legal(st, "add 2 to 9")
    assert legal(st, "add JK to 9")
    goes_out_every_way(st, walks=12, seed=1665)


@pytest.mark.parametrize("core", CORES)
def test_samba_seed_1665_demo_hand_never_stuck(core: str) -> None:
    """``canasta demo samba --seed 1665`` (issue 28, item 0): greedy bots seated as the demo
    seats them play the first hand to its end with a legal action at every step (it ended in
    "internal error: IndexError", seat 0 holding Qh 2 2 bound to go out)."""
    st = on_core(new_game("samba", 4, seed=1665), core)
    bots = [GreedyBot(1665 * 1000 + s) for s in range(4)]
    while not st.is_hand_over:
        assert st.legal_actions(), f"seat {st.current_player} has no legal action"
        st = st.apply(_ask(bots[st.current_player], st))
    assert st.core == core


# ---------------------------------------------------------------- closed canastas: naturals split

HOUSE_RULES = """
extends = "three-pack"
[melds]
canasta_closed = true
unlimited_wild_on_canasta = false
[going_out]
canastas = 5
[pile]
frozen_until_initial_meld = false
take_unfrozen = ["natural_pair"]
[tables.4]
hand_size = 11
"""
"""Issue 28, item 12: house rules made of bundled settings (closed canastas of seven, as
cuban; five canastas to go out)."""

CLOSED_POSITION = """
variant = "{path}"
players = 4
seed = 7003
dealer = 3
phase = "meld"
to_act = 1
pile = ""
stock = "rest"

[[seats]]
hand = "9"
melded = true
[[seats]]
hand = "9 9 9 9 9 9 9 9 8 8 8 8 8 8 8 8 8 6 4 4 4 4 4 4 4 4"
melded = true
took_last = true
[[seats]]
hand = "4"
melded = true
[[seats]]
hand = "8"
melded = true

[[sides]]
melds = ["A A A A JK 2 2", "K K K K", "9 9 JK 2", "10 10 10 2 2"]
red_threes = 3
[[sides]]
melds = ["A A A A JK 2 2", "10 10 10 10 10 2 2", "J J J J J J J", "Q Q Q Q Q 2 2", "6 6 6 6 6 JK 2",
         "A A A JK", "7 7 7 7 7 7 7", "3b 3b 3b 3b 3b 3b", "5 5 5 5 5 5 JK", "K K K K K K K"]
red_threes = 3

[turn]
took = true
melded = true
black_threes = true
touched_partner = true
own_canasta = true
melds_before = 6
"""
"""Seat 1 took the pile and melded black threes, so he must go out this turn (hoyle rule 38),
holding eight nines, nine eights, eight fours, a six and no wild card."""


@pytest.fixture
def closed_position(tmp_path: Path) -> GameState:
    path = tmp_path / "house.toml"
    path.write_text(HOUSE_RULES)
    load_variant(str(path))  # the house rules validate
    return load_position(CLOSED_POSITION.format(path=path.as_posix()))


@pytest.mark.parametrize("core", CORES)
def test_closed_canastas_naturals_split_between_melds(closed_position: GameState, core: str) -> None:
    """With closed canastas of seven (``melds.canasta_closed``, cuban's RG: "a canasta may not
    contain more than seven cards") and several melds of a rank (hoyle-1950 rule 30), eight
    naturals of a rank meld out as three, then two more onto them and three laid anew: no
    meld needs a wild card. Seat 1, bound to go out after melding black threes (hoyle rule 38),
    may lay three nines (he was refused: "after 'meld 9 9 9' you could not meld all your
    cards", and had no legal action), and goes out every way he plays, the six his discard."""
    st = on_core(closed_position, core)
    assert st.core == core
    assert legal(st, "meld 9 9 9")
    assert legal(st, "meld 8 8 8")
    assert legal(st, "meld 4 4 4")
    goes_out_every_way(st, walks=8, seed=7003)


@pytest.mark.parametrize("core", CORES)
def test_closed_canastas_are_not_combined_past_their_size(closed_position: GameState, core: str) -> None:
    """Two melds of a rank may be combined (hoyle-1950 rule 30), but a closed canasta holds no more
    than seven cards (cuban, RG): melds of five and three nines stay apart. (Combined, they made a
    meld of eight that a saved position refused to load.)"""
    st = on_core(closed_position, core)
    for text in ("meld 9 9 9", "add 9", "add 9", "meld 9 9 9"):
        st = st.apply(text)
    assert [m.naturals for m in st.melds[1] if m.rank == 9] == [5, 3]
    assert not legal(st, "combine 9#1 9#2")
    assert "at most seven cards" in (st.why_illegal("combine 9#1 9#2") or "")


@pytest.mark.parametrize("core", CORES)
def test_house_rules_seed_7003_random_hand_never_stuck(tmp_path: Path, core: str) -> None:
    """Issue 28, item 12's reproduction: the house rules above, ``new_game(v, 4, seed=7003)``, and
    ``apply(rng.choice(legal_action_ids()))`` with ``random.Random(7003)``: somebody has a legal
    action at every step until the hand ends."""
    path = tmp_path / "house.toml"
    path.write_text(HOUSE_RULES)
    st = on_core(new_game(load_variant(str(path)), players=4, seed=7003), core)
    rng = random.Random(7003)
    for _ in range(2000):
        if st.is_hand_over:
            break
        ids = st.legal_action_ids()
        assert ids, f"seat {st.current_player} has no legal action after {len(st.history)} actions"
        st = st.apply(rng.choice(ids))
    assert st.is_hand_over


@pytest.mark.parametrize("name", ["samba", "bolivia", "brazilian"])
def test_planned_wild_room_is_what_one_card_at_a_time_allows(name: str) -> None:
    """Samba, WP: "no wild card may be added to a canasta"; a meld grows one card at a time. The
    turn planner's room for wild cards on a meld (given naturals to add too, which may go on
    before or after them) is exactly the most wild cards so added, for every meld of a rank
    (the Python core's planner; the native core's is compared with it by tests/test_native.py)."""
    from functools import lru_cache

    from canasta._core import rules_for
    from canasta._core._canastas import add_wild_cap

    R = rules_for(load_variant(name), 4)

    @lru_cache(maxsize=None)
    def most(nat: int, wild: int, extra: int) -> int:
        best = wild
        if not R.is_canasta((9, nat, 0, wild, 0)) and R.valid((9, nat, 0, wild + 1, 0)):
            best = max(best, most(nat, wild + 1, extra))
        if extra and R.valid((9, nat + 1, 0, wild, 0)):
            best = max(best, most(nat + 1, wild, extra - 1))
        return best

    checked = 0
    for nat in range(1, 9):
        for wild in range(0, R.max_wild + 1):
            if not R.valid((9, nat, 0, wild, 0)):
                continue
            for extra in range(5):
                assert add_wild_cap(R, (9, nat, 0, wild, 0), extra) == most(nat, wild, extra) - wild, (nat, wild, extra)
                checked += 1
    assert checked > 50
