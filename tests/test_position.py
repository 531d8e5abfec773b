"""Positions: the TOML format round-trips every reachable state and explains every mistake."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import attrs
import pytest
import tomli_w

import canasta._position as position_module
from canasta._actions import Draw
from canasta._cards import WILD_RANK, Card
from canasta._state import _replace
from canasta._newgame import new_game
from canasta._position import PositionError, load_position, to_position
from canasta._state import GameState
from canasta._fields import Phase, TableMeld, Turn
from canasta._variant_load import load_variant, variant_from_dict, variant_names, variant_to_dict

TABLES = [(name, int(p)) for name in variant_names() for p in sorted(load_variant(name).tables, key=int)]


def round_trip(state: GameState) -> None:
    text = to_position(state)
    back = load_position(text)
    assert back == state, text
    assert to_position(back) == text


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize(("name", "players"), TABLES, ids=[f"{n}-{p}" for n, p in TABLES])
def test_round_trip_random_playout(name: str, players: int) -> None:
    """load_position(to_position(s)) == s at every step of a random playout."""
    state = new_game(name, players, seed=11)
    rng = random.Random(players * 1000 + len(name))
    for _ in range(150):
        round_trip(state)
        if state.is_game_over:
            break
        if state.is_hand_over:
            state = state.next_hand()
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    round_trip(state)


def test_round_trip_through_hand_and_game_over() -> None:
    """Ended hands keep their result (went out, concealed, reason, scores) and the game its winners."""
    state = new_game("wikipedia", seed=0)
    rng = random.Random(0)
    ended = 0
    for _ in range(20000):
        if state.is_hand_over:
            round_trip(state)
            assert state.result is not None
            assert load_position(to_position(state)).result == state.result
            ended += 1
            if state.is_game_over:
                break
            state = state.next_hand()
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    assert state.is_game_over and ended >= 2
    back = load_position(to_position(state))
    assert back.winners == state.winners and back.phase is Phase.GAME_OVER


def test_round_trip_keeps_custom_variant_inline() -> None:
    """A variant that is not a bundled one is written as a [variant] table and read back."""
    data = variant_to_dict(load_variant("hoyle-1950"))
    data["name"] = "house"
    data["game"]["target"] = 3000
    house = variant_from_dict(data)
    state = new_game(house, 4, seed=3).apply("draw")
    text = to_position(state)
    assert "[variant]" in text and 'variant = "' not in text
    back = load_position(text)
    assert back == state and back.variant.game.target == 3000


def test_variant_by_path(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('extends = "hoyle-1950"\n[game]\ntarget = 2500\n', encoding="utf-8")
    state = load_position(f"variant = {tomli_w.dumps({'x': str(path)})[4:]}" + SEAT0)
    assert state.variant.game.target == 2500 and state.variant.name == "house"


# ---------------------------------------------------------------- the documented example


def documented_example() -> str:
    doc = position_module.__doc__
    assert doc is not None
    return doc[doc.index("```toml\n") + 8:doc.index("```\n\n**Cards**")]


def test_documented_example_loads_and_plays() -> None:
    state = load_position(documented_example())
    assert state.variant.name == "hoyle-1950" and state.players == 4 and state.seed == 7
    assert state.totals == (1200, 850) and state.dealer == 3
    assert state.current_player == 0 and state.phase is Phase.DRAW
    assert state.pile == (Card.FIVE, Card.EIGHT, Card.KING) and not state.frozen
    assert state.stock[-1] == Card.SEVEN and state.stock[-2] == Card.QUEEN  # top first in the text
    assert state.melds[0] == (TableMeld(Card.ACE, 3, 0, 1), TableMeld(Card.KING, 5, 1, 1))
    assert state.red_threes == (1, 0) and state.opened == (True, True)
    assert state.melded == (False, False, True, True)
    assert state.turn == Turn(melds_before=2, had_melded=False)
    assert state.legal_actions()
    after = state.apply("draw")
    assert after.hands[0][Card.SEVEN] == state.hands[0][Card.SEVEN] + 1
    assert len(after.stock) == len(state.stock) - 1 and after.phase is Phase.MELD


def test_minimal_position_defaults() -> None:
    """Every key but variant and the hand of the player to act has a default: a 4-player hoyle
    table, the other cards in the stock. Without that hand, the position is refused (issue 20:
    a player to act with no card has gone out: play could not go on)."""
    assert error('variant = "hoyle-1950"') == ("seats.0.hand: seat 0 is to act with no card: give his hand (a "
                                               "player whose hand is used up has gone out, or taken up his down hand)")
    state = load_position('variant = "hoyle-1950"\n' + SEAT0)
    assert state.players == 4 and state.dealer == 3 and state.current_player == 0
    assert state.phase is Phase.DRAW and state.totals == (0, 0) and state.hand_number == 0
    assert len(state.stock) == 108 - 5 and state.pile == () and not state.frozen
    assert state.last_turns == -1 and state.result is None and state.active == (0, 1, 2, 3)
    assert Draw() in state.legal_actions()


def test_rest_is_shuffled_by_seed_and_fills_the_deck() -> None:
    text = 'variant = "hoyle-1950"\nstock = "K A rest"\n[[seats]]\nhand = "5 5 5"\n'
    a = load_position(text)
    assert a == load_position(text)
    assert a.stock[-1] == Card.KING and a.stock[-2] == Card.ACE and len(a.stock) == 108 - 3
    b = load_position("seed = 1\n" + text)
    assert b.seed == 1 and sorted(b.stock) == sorted(a.stock) and b.stock != a.stock


def test_answer_none_and_pending_cards_are_read() -> None:
    text = """
variant = "new-canasta"
players = 2
to_act = 0
phase = "initial_take"
pile = ""
stock = "rest"
[[seats]]
hand = "5 6 7"
melded = true
took_last = true
[[sides]]
melds = ["9 9 9"]
opened = false
[turn]
took = true
melded = true
count = 30
pending = "4 4 JK"
pending_top = "9"
start_hand = "9 9 5 6 7"
"""
    state = load_position(text)
    assert state.turn.pending == (Card.FOUR, Card.FOUR, Card.JOKER)
    assert state.turn.pending_top == Card.NINE and state.turn.answer is None
    assert state.turn.start_hand[Card.NINE] == 2 and state.turn.melds_before == 1
    assert not state.opened[0]
    # the pending cards are cards of the deck: the stock holds the rest
    assert len(state.stock) == sum(state._rules.deck) - 3 - 3 - 3
    round_trip(state)


_AFTER_DRAW = ("drew", "took", "count", "melded", "black_threes", "must_out", "touched_partner", "own_canasta")
"""Turn fields that only a turn past its draw can have."""


@pytest.mark.parametrize("field", [a.name for a in attrs.fields(Turn)])
def test_every_turn_field_round_trips(field: str) -> None:
    """Every field of the turn record can be written and read (a changed value of each); one that
    contradicts the phase is refused naming it (issue 20: a turn that drew in phase draw)."""
    state = new_game("hoyle-1950", seed=5)
    value = {"answer": True, "pending": (Card.FOUR, Card.JOKER), "pending_top": Card.KING,
             "start_hand": state.hands[0], "count": 40, "melds_before": 2}.get(field)
    if value is None:
        default = getattr(Turn(), field)
        assert isinstance(default, bool), field
        value = not default
    turn = attrs.evolve(state.turn, **{field: value})
    if field in ("asked", "answer"):  # asked before drawing, and answered
        turn = attrs.evolve(turn, asked=True, answer=field == "answer")
    if field == "pending":  # the pending cards come out of the stock
        stock = list(state.stock)
        for k in value:
            stock.remove(k)
        state = _replace(state, stock=tuple(stock))
    if field in ("pending", "pending_top"):
        # only a take for the initial meld sets the pile aside (phase initial_take): see
        # test_answer_none_and_pending_cards_are_read for one that round-trips
        with pytest.raises(PositionError, match=f"turn.pending: in phase draw"):
            load_position(to_position(_replace(state, turn=turn)))
        return
    if field == "start_hand":  # kept only after a take of the pile (to retract it, new-canasta)
        with pytest.raises(PositionError, match="turn.start_hand: only a take"):
            load_position(to_position(_replace(state, turn=turn)))
        state = _replace(state, phase=Phase.MELD)
        turn = attrs.evolve(turn, took=True)
    if field in _AFTER_DRAW:
        with pytest.raises(PositionError, match=f"turn.{field}: in phase draw"):
            load_position(to_position(_replace(state, turn=turn)))
        state = _replace(state, phase=Phase.MELD)
        if field != "took":
            turn = attrs.evolve(turn, drew=True)
    changed = _replace(state, turn=turn)
    text = to_position(changed)
    assert f"{field} = " in text.split("[turn]")[1]
    if field == "melds_before":
        # more melds than the side has (none yet): refused naming it, as a retract could not take
        # them back (issue 28, item 7; tests/test_fuzz_saves.py has one that round-trips)
        with pytest.raises(PositionError, match="turn.melds_before: must be 0 or less"):
            load_position(text)
        return
    if field in _MUST_GO_OUT:
        # each obliges the player to go out this turn, which this fresh deal cannot do: a
        # position play could not go on from is refused (see the test below for a round trip)
        with pytest.raises(PositionError, match="to_act: .*play cannot go on"):
            load_position(text)
        return
    assert load_position(text) == changed


_MUST_GO_OUT = ("answer", "black_threes", "must_out")


@pytest.mark.parametrize("field", _MUST_GO_OUT)
def test_turn_fields_that_oblige_going_out_round_trip(field: str) -> None:
    """The turn fields that oblige the player to go out this turn (a binding yes, black threes
    melded, a pile taken to go out concealed) are written and read where he can go out."""
    state = load_position("""
        variant = "hoyle-1950"
        to_act = 0
        phase = "meld"
        [turn]
        drew = true
        [[seats]]
        hand = "K K K 5"
        melded = true
        [[seats]]
        hand = "6 7 10"
        [[seats]]
        hand = "8 8"
        [[seats]]
        hand = "6 7 10"
        [[sides]]
        melds = ["Q Q Q Q Q Q Q"]
        [[sides]]
        melds = []
    """)
    changed = _replace(state, turn=attrs.evolve(state.turn, **{field: True}, **({"asked": True} if field == "answer" else {})))
    text = to_position(changed)
    assert f"{field} = true" in text.split("[turn]")[1]
    assert load_position(text) == changed


# ---------------------------------------------------------------- frozen default


@pytest.mark.parametrize(("variant", "pile", "frozen"), [
    ("hoyle-1950", "5 JK 8", True),   # hoyle rule 38: frozen while it contains a wild card
    ("hoyle-1950", "3r 7 9", True),   # hoyle rule 38: ... or a red trey turned as upcard
    ("hoyle-1950", "3b 7 9", False),  # hoyle rule 38 names no black trey
    ("hoyle-1950", "5 8", False),
    ("bicycle", "3b 7 9", True),      # bicycle: "a wild card or a black three is turned as an upcard or discarded"
    ("new-canasta", "JK 7 9", False),  # new-canasta: "There is also no freezing of the Deck"
])
def test_frozen_default_follows_the_pile(variant: str, pile: str, frozen: bool) -> None:
    players = 2 if variant == "new-canasta" else 4
    state = load_position(f'variant = "{variant}"\nplayers = {players}\npile = "{pile}"\n' + SEAT0)
    assert state.frozen is frozen
    assert load_position(f'variant = "{variant}"\nplayers = {players}\npile = "{pile}"\n'
                         f"frozen = {str(not frozen).lower()}\n" + SEAT0).frozen is (not frozen)


def test_last_turns_default_with_empty_stock_in_last_round() -> None:
    """new-canasta: "If all the cards from all 4 draw piles are exhausted, every player has a final
    opportunity to make any plays they can": an empty stock defaults to a last turn for every seat."""
    doc = tomllib.loads(to_position(new_game("new-canasta", 3, seed=2)))
    doc["pile"] = " ".join(doc["stock"].split()[::-1]) + " " + doc["pile"]
    doc["stock"] = ""
    state = load_position(tomli_w.dumps(doc))
    assert state.stock == () and state.last_turns == 2
    round_trip(state)


# ---------------------------------------------------------------- errors

HOYLE = 'variant = "hoyle-1950"\n'
SEAT0 = '[[seats]]\nhand = "4 5 6 8 9"\n'
"""The hand of seat 0, the player to act in phase draw (a player to act holds cards)."""


def error(text: str) -> str:
    with pytest.raises(PositionError) as info:
        load_position(text)
    return str(info.value)


def test_error_bad_card_names_key_and_token() -> None:
    msg = error(HOYLE + "[[seats]]\n[[seats]]\n[[seats]]\nhand = \"5 Z\"\n")
    assert msg == "seats.2.hand: card 'Z' is not a card: use JK, 2, 3r, 3b, 4..10, J, Q, K, A"


def test_error_bad_card_in_meld_pile_and_stock() -> None:
    assert error(HOYLE + '[[sides]]\nmelds = ["5 5 5", "K K X"]\n').startswith(
        "sides.0.melds.1: card 'X' is not a card")
    assert error(HOYLE + 'pile = "5 11"\n').startswith("pile: card '11' is not a card")
    assert error(HOYLE + 'stock = "5 rest 6"\n') == (
        "stock: card 'rest' is not a card: use JK, 2, 3r, 3b, 4..10, J, Q, K, A "
        "('rest' may only end the stock)")


def test_error_too_many_cards() -> None:
    msg = error(HOYLE + 'pile = "JK JK JK JK JK JK JK"\n')
    assert msg == ("cards: 3 jokers too many: the hoyle-1950 deck for 4 players has 4 jokers, "
                   "this position has 7")


def test_error_several_kinds_over_and_under() -> None:
    msg = error(HOYLE + 'stock = "K"\npile = "A A A A A A A A A"\n')
    assert msg.startswith("cards: 1 ace too many: the hoyle-1950 deck for 4 players has 8 aces, "
                          "this position has 9; 4 jokers missing: the hoyle-1950 deck for 4 players has "
                          "4 jokers, this position has 0; ")
    assert "7 kings missing" in msg and msg.endswith('(end the stock with "rest" to put every missing '
                                                     'card in the stock)')


def test_error_not_toml() -> None:
    assert error("variant = ").startswith("the position is not valid TOML: ")


@pytest.mark.parametrize(("text", "message"), [
    (HOYLE + "stok = \"rest\"\n", "stok: unknown key at the top level: did you mean 'stock'?"),
    (HOYLE + "[[seats]]\nhnd = \"5\"\n", "seats.0.hnd: unknown key here: did you mean 'hand'?"),
    (HOYLE + "[[sides]]\nmeld = []\n", "sides.0.meld: unknown key here: did you mean 'melds'?"),
    (HOYLE + "[turn]\ndrw = true\n", "turn.drw: unknown key here: did you mean 'drew'?"),
    (HOYLE + "zzz = 1\n", "zzz: unknown key at the top level: allowed: variant, players, seed, "
                          "hand_number, dealer, totals, to_act, phase, pile, pile_buried, frozen, stock, last_turns, "
                          "winners, precise_draws, seats, sides, turn, result"),
])
def test_error_unknown_keys_suggest_the_closest(text: str, message: str) -> None:
    assert error(text) == message


@pytest.mark.parametrize(("text", "message"), [
    (HOYLE + 'players = "4"\n', "players: expected an integer, got '4' (a string)"),
    (HOYLE + "seed = true\n", "seed: expected an integer, got true (a boolean)"),
    (HOYLE + "[[seats]]\nmelded = 1\n", "seats.0.melded: expected true or false, got 1 (an integer)"),
    (HOYLE + "pile = 5\n", "pile: expected a string, got 5 (an integer)"),
    (HOYLE + 'totals = [0, "a"]\n', "totals.1: expected an integer, got 'a' (a string)"),
    (HOYLE + "totals = [0, 0, 0]\n", "totals: give one total per side: a 4-player hoyle-1950 table "
                                     "has 2 sides, not 3"),
    (HOYLE + 'seats = "x"\n', "seats: expected [[seats]] tables (an array of tables), got 'x' (a string)"),
    (HOYLE + '[[sides]]\nmelds = "5 5 5"\n', "sides.0.melds: expected a list of meld strings, got "
                                             "'5 5 5' (a string)"),
    (HOYLE + "[[sides]]\nmelds = [5]\n", "sides.0.melds.0: expected a meld as a string of cards such as "
                                         "\"5 5 5 2\", got 5 (an integer)"),
    (HOYLE + "[[sides]]\nred_threes = -1\n", "sides.0.red_threes: must be 0 or more, not -1"),
    (HOYLE + "dealer = 4\n", "dealer: must be 3 or less, not 4"),
    (HOYLE + "turn = 3\nto_act = 0\n", "turn: expected a [turn] table, got 3 (an integer)"),
    (HOYLE + "to_act = 1\n[turn]\npending_top = \"5 6\"\n", "turn.pending_top: expected one card, got 2"),
    ("players = 4\n", f"variant: required: give a bundled variant name ({', '.join(variant_names())}), "
                      "a path to a variant file, or a [variant] table"),
    ("variant = 3\n", "variant: expected a variant name, a path or a [variant] table, got 3 (an integer)"),
    (HOYLE + 'phase = "hand_over"\nresult = 5\n', "result: expected a [result] table, got 5 (an integer)"),
    (HOYLE + 'phase = "hand_over"\n[[result.scores]]\nitems = [3]\n',
     "result.scores.0.items.0: expected { name = ..., count = ..., points = ... }, got 3 (an integer)"),
    (HOYLE + 'phase = "hand_over"\n[[result.scores]]\nitems = [{ name = "x", count = 1 }]\n',
     "result.scores.0.items.0.points: required"),
    (HOYLE + "to_act = 1\n[turn]\nanswer = 1\n", "turn.answer: expected true or false, got 1 (an integer)"),
    (HOYLE + "to_act = 1\n[turn]\ncount = -1\n", "turn.count: must be 0 or more, not -1"),
    (HOYLE + 'phase = "game_over"\nwinners = ["a"]\n', "winners.0: expected a side from 0 to 1, got 'a' (a string)"),
])
def test_error_wrong_types_and_values(text: str, message: str) -> None:
    assert error(text) == message


def test_error_unknown_variant_and_players() -> None:
    assert error('variant = "hoyle"\n').startswith("variant: hoyle: unknown variant 'hoyle'")
    assert error('variant = "bicycle"\nplayers = 3\n') == "players: bicycle is played by 4 players, not 3"


def test_error_more_seats_or_sides_than_the_table() -> None:
    assert error('variant = "hoyle-1950"\nplayers = 2\n' + "[[seats]]\n" * 3) == (
        "seats: 3 seats given, but a 2-player hoyle-1950 table has 2 seats")
    assert error(HOYLE + "[[sides]]\n" * 3) == (
        "sides: 3 sides given, but a 4-player hoyle-1950 table has 2 sides "
        "(side 0: seats 0, 2; side 1: seats 1, 3)")


def test_error_to_act_not_playing() -> None:
    """hoyle rule 2: "With five, two partners are opposed by three, but only two of the three play
    at a time": the idle seat cannot act."""
    state = load_position('variant = "hoyle-1950"\nplayers = 5\n' + SEAT0)
    idle = next(s for s in range(5) if s not in state.active)
    playing = ", ".join(str(s) for s in sorted(state.active))
    assert error(f'variant = "hoyle-1950"\nplayers = 5\nto_act = {idle}\n') == (
        f"to_act: {idle} is not a seat playing this hand: the seats playing are {playing}")
    assert error(HOYLE + "to_act = 7\n") == (
        "to_act: 7 is not a seat playing this hand: the seats playing are 0, 1, 2, 3")
    seats = "[[seats]]\n" * idle + "[[seats]]\nhand = \"5\"\n"
    assert error('variant = "hoyle-1950"\nplayers = 5\n' + seats) == (
        f"seats.{idle}: seat {idle} sits out hand 1 (seats playing: {playing}): it holds no cards")


def test_error_phase_needs_a_player_and_hand_over_has_none() -> None:
    assert error(HOYLE + 'phase = "meld"\n') == "to_act: phase meld needs the seat to act: give to_act"
    assert error(HOYLE + 'phase = "hand_over"\nto_act = 0\n') == (
        "to_act: the hand is over (phase hand_over): nobody acts; omit to_act")
    assert error(HOYLE + 'phase = "hand_over"\n[turn]\ndrew = true\n') == (
        "turn: the hand is over (phase hand_over): nobody has a turn; omit [turn]")
    assert error(HOYLE + 'phase = "melds"\n') == (
        "phase: unknown phase 'melds': did you mean 'meld'? use one of draw, answer, initial_take, "
        "meld, final_meld, hand_over, game_over")
    assert error(HOYLE + "[result]\nreason = \"x\"\n") == (
        "result: only a hand that is over has a result; phase is draw")
    assert error(HOYLE + "winners = [0]\n") == "winners: only a game that is over has winners; phase is draw"


def test_error_down_hand_and_last_turns_where_the_variant_has_none() -> None:
    assert error(HOYLE + '[[seats]]\ndown = "5"\n') == "seats.0.down: hoyle-1950 deals no down hand"
    assert error(HOYLE + "last_turns = 2\n") == (
        "last_turns: must be -1 (or left out): hoyle-1950 has no last round when the stock runs out")


# ---------------------------------------------------------------- meld validation


@pytest.mark.parametrize(("variant", "meld", "reason"), [
    # hoyle rule 23: "at least two NATURAL (not wild) cards of the same rank"
    ("hoyle-1950", "5 2 2", "a meld needs at least 2 natural cards, this has 1"),
    # hoyle rule 22: "combinations of three or more cards"
    ("hoyle-1950", "5 5", "a meld needs at least 3 cards, this has 2"),
    # hoyle rule 25: "no other meld may contain more than three wild cards"
    ("hoyle-1950", "5 5 2 2 2 2", "too many wild cards: with 2 natural cards a meld holds at most 3 wild "
                                  "cards (more only on a completed canasta), this has 4"),
    # hoyle rule 23: "Jokers and deuces may never be melded separataly from natural cards"
    ("hoyle-1950", "JK JK 2", "a meld of wild cards only is not allowed (it needs natural cards)"),
    # hoyle rule 23: black treys melded only when going out, without wild cards (rule 22 ranks)
    ("hoyle-1950", "3b 3b 2", "black threes are melded without wild cards"),
    ("hoyle-1950", "3b 3b", "a meld of black threes holds 3 to 4 cards, this has 2"),
    # hoyle rule 14: red treys are bonus cards, never melded
    ("hoyle-1950", "K K K K K K K 3r", "a red three tops only a natural canasta, in a variant that keeps "
                                        "red threes and scores red-three canastas (new-canasta)"),
    # online: "never more wild cards than natural cards"
    ("online", "5 5 2 2 JK", "too many wild cards: with 2 natural cards a meld holds at most 2 wild cards, "
                             "this has 3"),
    # new-canasta: "Once a Canasta has been made, no further cards may be added to it."
    ("new-canasta", "K K K K K K K K", "a canasta is exactly 7 cards and takes no more, this meld has 8"),
    # new-canasta: "Each meld must contain more "natural" cards than wild cards."
    ("new-canasta", "K K K 2 2 2", "too many wild cards: with 3 natural cards a meld holds at most 2 wild "
                                   "cards, this has 3"),
    ("new-canasta", "K K K K K 2 2 3r", "a red three tops only a natural canasta, in a variant that keeps "
                                        "red threes and scores red-three canastas (new-canasta)"),
    ("new-canasta", "K K K K K K K 3r 3r", "a canasta is topped with one red three at most"),
])
def test_error_invalid_meld(variant: str, meld: str, reason: str) -> None:
    players = 2 if variant == "new-canasta" else 4
    text = f'variant = "{variant}"\nplayers = {players}\n[[sides]]\nmelds = ["A A A", "{meld}"]\n'
    assert error(text) == f"sides.0.melds.1: {meld!r} is not a valid meld in {variant}: {reason}"


def test_valid_special_melds() -> None:
    """online: "It is also possible to make a meld of wild cards only"; new-canasta tops a natural
    canasta with a red three; hoyle rule 25: "Wildcards in any number may be added to a completed
    canasta"."""
    online = load_position('variant = "online"\n' + SEAT0 + '[[sides]]\nmelds = ["JK JK 2"]\n')
    assert online.melds[0] == (TableMeld(WILD_RANK, 0, 2, 1),)
    new = load_position('variant = "new-canasta"\nplayers = 2\n' + SEAT0 + '[[sides]]\nmelds = ["K K K K K K K 3r"]\n')
    assert new.melds[0] == (TableMeld(Card.KING, 7, 0, 0, True),)
    hoyle = load_position(HOYLE + SEAT0 + '[[sides]]\nmelds = ["5 5 5 5 5 JK 2 2 2"]\n')
    assert hoyle.melds[0][0].wilds == 4


def test_error_meld_shapes() -> None:
    assert error(HOYLE + '[[sides]]\nmelds = ["5 5 6"]\n') == (
        "sides.0.melds.0: '5 5 6' mixes 5 and 6: a meld holds cards of one rank (and wild cards)")
    assert error(HOYLE + '[[sides]]\nmelds = [""]\n') == (
        'sides.0.melds.0: an empty meld: write its cards, such as "5 5 5 2"')
    assert error(HOYLE + '[[sides]]\nmelds = ["3r 3r 3r"]\n').startswith(
        "sides.0.melds.0: '3r 3r 3r' is not a meld: red threes are never melded")


def test_error_second_meld_of_a_rank() -> None:
    """bicycle: a partnership "may not make two different melds of the same rank"; hoyle allows it
    (VARIANTS.md reading of rule 30)."""
    assert error('variant = "bicycle"\n[[sides]]\nmelds = ["K K K", "5 5 5", "K K 2"]\n') == (
        "sides.0.melds.2: a second meld of kings: bicycle allows one meld per rank")
    assert len(load_position(HOYLE + SEAT0 + '[[sides]]\nmelds = ["K K K", "K K 2"]\n').melds[0]) == 2



def test_another_meld_of_a_rank_after_a_closed_canasta() -> None:
    """melds.new_after_canasta (hand-and-foot's books): a side starts another meld of a rank once
    its meld of that rank is a closed canasta; two melds of a rank that are not are refused."""
    data = variant_to_dict(load_variant("bicycle"))
    data["name"] = "books"
    data["melds"].update(canasta_closed=True, new_after_canasta=True, unlimited_wild_on_canasta=False)
    head = tomli_w.dumps({"variant": data}) + "\n"
    state = load_position(SEAT0 + '[[sides]]\nmelds = ["K K K K K K 2", "K K 2"]\n' + head)
    assert [m.size for m in state.melds[0]] == [7, 3]
    assert error('[[sides]]\nmelds = ["K K K K K 2", "K K 2"]\n' + head) == (
        "sides.0.melds.1: a second meld of kings that is not a closed canasta: books starts another meld of "
        "a rank only once the side's earlier melds of it are closed canastas")


def test_a_red_three_in_the_hand_of_the_player_to_act_is_refused() -> None:
    """hoyle-1950 rule 13: each player faces his red threes at his first turn and replaces them,
    so play never puts a red three in the hand of the player to act; a position that does is
    refused, naming the hand."""
    with pytest.raises(PositionError, match=r"seats\.0\.hand: seat 0 is to act holding a red three"):
        load_position("""
            variant = "hoyle-1950"
            to_act = 0
            [[seats]]
            hand = "3r 5 6 7"
            [[seats]]
            hand = "6 7 10"
            [[seats]]
            hand = "8 8"
            [[seats]]
            hand = "6 7 10"
        """)
    # new-canasta keeps its red threes in the hand: allowed there
    st = load_position("""
        variant = "new-canasta"
        players = 3
        to_act = 0
        [[seats]]
        hand = "3r 5 6 7"
    """)
    assert st.hands[0][Card.RED_THREE] == 1
