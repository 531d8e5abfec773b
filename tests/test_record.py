"""Game records (TOML) and state saves (JSON), as the docs of ``canasta._files`` specify them.

Round trips run over one seeded playout of every bundled variant at every table size it allows,
long enough to cross at least one hand boundary with ``next_hand()``: the record written and
read back is equal, replaying it gives equal states at every step, and every state saved as
JSON loads equal with the same history. The error tests check each documented message.
"""

from __future__ import annotations

import datetime
import functools
import json
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from canasta import Add, Combine, GameState, Meld, Phase, Take, load_variant, new_game, variant_names
from canasta._bots import RandomBot, play_game
from canasta._core import rules_for
from canasta._state import _replace
from canasta import (
    GameRecord,
    GameRecorder,
    RecordError,
    StateError,
    dump_record,
    load_record,
    record_game,
    replay,
    replay_lenient,
    replay_states,
    state_from_json,
    state_to_json,
)

CASES = [
    pytest.param(name, players, id=f"{name}-{players}")
    for name in sorted(variant_names())
    for players in sorted(int(k) for k in load_variant(name).tables)
]
"""Every bundled variant at every player count its tables allow."""

PROGRESS = (Take, Meld, Add, Combine)
MAX_ACTIONS = 2000
"""A bound on one playout; the first hand of a ten-player new-canasta game takes about 700."""
AFTER_DEAL = 40
"""Moves played into the hand after the first boundary before the playout stops."""


class Playout:
    """A recorded seeded playout: the recorder and every state, hand by hand."""

    def __init__(self, rec: GameRecorder, hands: list[list[GameState]]) -> None:
        self.rec = rec
        self.hands = hands
        """``hands[h][m]``: the state before move ``m`` (from 0) of hand ``h``; the last is after all."""

    @property
    def states(self) -> list[GameState]:
        """Every state in order: each deal and the state after each move."""
        return [s for hand in self.hands for s in hand]


@functools.lru_cache(maxsize=None)
def playout(name: str, players: int, seed: int = 11) -> Playout:
    """Play a seeded random game (preferring takes and melds) past the end of its first hand."""
    rng = random.Random(seed)
    rec = GameRecorder(new_game(name, players, seed=seed))
    hands = [[rec.state]]
    for _ in range(MAX_ACTIONS):
        st = rec.state
        acts = st.legal_actions()
        if not acts:
            if st.is_game_over:
                break
            hands.append([rec.next_hand()])
            continue
        if len(hands) > 1 and len(hands[-1]) > AFTER_DEAL:
            break
        progress = [a for a in acts if isinstance(a, PROGRESS)]
        a = rng.choice(progress) if progress and rng.random() < 0.75 else rng.choice(acts)
        hands[-1].append(rec.apply(a))
    return Playout(rec, hands)


# ================================================================ round trips


@pytest.mark.parametrize("name, players", CASES)
def test_record_round_trip_replays_every_state(name: str, players: int) -> None:
    """dump_record/load_record give an equal record; replaying it gives equal states at every step."""
    p = playout(name, players)
    assert len(p.hands) >= 2, "the playout must cross a hand boundary"
    record = p.rec.record(date=datetime.date(2026, 11, 22), names=[f"P{s}" for s in range(players)],
                          event="test night", comment='two lines,\nand "quotes"')
    text = dump_record(record)
    loaded = load_record(text)
    assert loaded == record
    assert dump_record(loaded) == text
    assert len(loaded.hands) == len(p.hands)
    assert loaded.moves == len(p.states) - len(p.hands)

    replayed = list(replay_states(loaded))
    assert len(replayed) == len(p.states)
    for i, (got, want) in enumerate(zip(replayed, p.states)):
        assert got == want, f"state {i} differs"
        assert got.history == want.history, f"state {i}: history differs"
    final = replay(loaded)
    assert final == p.states[-1] and final.history == p.states[-1].history

    result = replay_lenient(loaded)
    assert result.ok and result.errors == () and result.applied == loaded.moves
    assert result.state == p.states[-1]

    # record_game from the last state of each hand gives the same record
    assert record_game([hand[-1] for hand in p.hands]) == p.rec.record()


@pytest.mark.parametrize("name, players", CASES)
def test_state_json_round_trip_at_every_step(name: str, players: int) -> None:
    """state_from_json(state_to_json(s)) equals s, with the same history, and plays on the same."""
    p = playout(name, players)
    phases = set()
    for hand in p.hands:
        for i, st in enumerate(hand):
            text = state_to_json(st)
            back = state_from_json(text)
            assert back == st
            assert back.history == st.history
            assert back.result == st.result and back.turn == st.turn
            assert state_to_json(back) == text
            phases.add(st.phase)
            if i % 25 == 0 and i + 1 < len(hand):
                # a loaded state plays on exactly like the original
                assert back.legal_actions() == st.legal_actions()
                assert back.apply(hand[i + 1].history[-1]) == hand[i + 1]
    assert Phase.HAND_OVER in phases or Phase.GAME_OVER in phases


def test_recorder_follows_play_game_through_its_on_action_hook() -> None:
    """GameRecorder.on_action records a play_game game, hands included; the record replays to its end."""
    rec = GameRecorder(new_game("online", 4, seed=3))
    final, results = play_game("online", 4, bots=RandomBot(1), seed=3, on_action=rec.on_action, max_hands=2)
    record = rec.record()
    assert len(record.hands) == len(results) == 2
    assert rec.state == final
    assert replay(load_record(dump_record(record))) == final


def test_recorder_refuses_a_state_the_record_could_not_reproduce() -> None:
    """A record replays from new_game's deal: a later hand, or an altered state, is refused."""
    p = playout("hoyle-1950", 4)
    with pytest.raises(ValueError, match="first hand"):
        GameRecorder(p.hands[1][0])
    altered = _replace(p.hands[0][3], totals=(10, 0))
    with pytest.raises(ValueError, match="could not reproduce"):
        GameRecorder(altered)
    with pytest.raises(ValueError, match="hand 2, not hand 1"):
        record_game([p.hands[1][-1]])


def test_record_keeps_the_variant_settings_after_the_variant_file_changes(tmp_path: Path) -> None:
    """The record carries every setting: editing the variant file afterwards changes nothing."""
    vfile = tmp_path / "house.toml"
    vfile.write_text('extends = "hoyle-1950"\n[game]\ntarget = 3000\n', encoding="utf-8")
    variant = load_variant(vfile)
    rec = GameRecorder(new_game(variant, 4, seed=5))
    for _ in range(30):
        rec.apply(rec.state.legal_actions()[-1])
    text = dump_record(rec.record())
    vfile.write_text('extends = "hoyle-1950"\n[melds]\nmin_size = 2\n', encoding="utf-8")  # now broken
    loaded = load_record(text)
    assert loaded.variant == variant and loaded.variant.game.target == 3000
    assert replay(loaded) == rec.state


def test_record_may_name_a_bundled_variant_instead_of_its_settings() -> None:
    """A hand-written record may say variant = "NAME" (a bundled variant); dealer defaults as in new_game."""
    rec = load_record('variant = "bicycle"\nplayers = 4\nseed = 9\n[[hands]]\nactions = ["draw"]\n')
    assert rec.variant == load_variant("bicycle")
    assert rec.dealer == new_game("bicycle", 4, seed=9).dealer
    assert replay(rec) == new_game("bicycle", 4, seed=9).apply("draw")


# ================================================================ lenient replay


def _with_move(record: GameRecord, hand: int, move: int, text: str) -> GameRecord:
    hands = [list(h) for h in record.hands]
    hands[hand][move] = text
    return GameRecord(record.variant, record.players, record.seed, record.dealer, hands)


def test_lenient_replay_stops_before_an_unreadable_move_and_names_it() -> None:
    """A move that is not an action: reported as hand 2, move 5 (from 1) with the state before it."""
    p = playout("hoyle-1950", 4)
    bad = _with_move(p.rec.record(), 1, 4, "dscard 7")
    result = replay_lenient(bad)
    assert not result.ok
    err = result.errors[0]
    assert (err.hand, err.move, err.action, err.path) == (2, 5, "dscard 7", "hands.1.actions.4")
    assert result.state == p.hands[1][4]
    assert result.applied == len(p.hands[0]) - 1 + 4
    assert str(err).startswith("hand 2, move 5: 'dscard 7' is not an action: unknown action 'dscard'")
    with pytest.raises(RecordError) as e:
        replay(bad)
    assert str(e.value) == str(err)


def test_lenient_replay_stops_before_an_illegal_move_with_the_engines_reason() -> None:
    """A readable but illegal move: the error gives its text and the engine's reason (why_illegal)."""
    p = playout("hoyle-1950", 4)
    before = p.hands[0][6]
    illegal = next(t for t in ("discard 3r", "retract", "combine 4#1 4#2") if before.why_illegal(t))
    result = replay_lenient(_with_move(p.rec.record(), 0, 6, illegal))
    err = result.errors[0]
    assert (err.hand, err.move, err.action) == (1, 7, illegal)
    assert err.reason == before.why_illegal(illegal)
    assert str(err) == f"hand 1, move 7: {illegal!r} is not legal: {err.reason}"
    assert result.state == before


def test_lenient_replay_lists_later_unreadable_moves_too() -> None:
    """After the stop, later moves cannot be judged for legality, but bad notation is still listed."""
    p = playout("hoyle-1950", 4)
    bad = _with_move(_with_move(p.rec.record(), 0, 2, "dscard 7"), 1, 0, "meld 7 7 Z")
    result = replay_lenient(bad)
    assert [(e.hand, e.move) for e in result.errors] == [(1, 3), (2, 1)]
    assert "'Z'" in str(result.errors[1])
    assert result.state == p.hands[0][2]


def test_replay_refuses_a_hand_that_follows_an_unfinished_one() -> None:
    """A later hand is next_hand() of a hand that is over: a hand cut short is reported."""
    p = playout("hoyle-1950", 4)
    record = p.rec.record()
    hands = [list(h) for h in record.hands]
    hands[0].pop()
    short = GameRecord(record.variant, record.players, record.seed, record.dealer, hands)
    result = replay_lenient(short)
    n = len(hands[0])
    assert str(result.errors[0]) == f"hands.1: hand 2 follows, but hand 1 is not over after its {n} moves"
    assert result.state == p.hands[0][-2]
    with pytest.raises(RecordError, match="hand 2 follows"):
        replay(short)


# ================================================================ record errors


def _record_doc() -> dict[str, Any]:
    p = playout("hoyle-1950", 4)
    return tomllib.loads(dump_record(p.rec.record(names=["A", "B", "C", "D"])))


def _load_doc(doc: dict[str, Any]) -> GameRecord:
    return load_record(tomli_w.dumps(doc))


def _record_error(doc: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as e:
        _load_doc(doc)
    return str(e.value)


def test_record_bad_variant_setting_is_named_by_its_key_path() -> None:
    """A bad setting inside the record's [variant] table: variant.KEY: the variant checker's message."""
    doc = _record_doc()
    doc["variant"]["melds"]["min_size"] = 2
    assert _record_error(doc).startswith("variant.melds.min_size: is 2; a meld needs at least 3 cards")
    doc = _record_doc()
    doc["variant"]["melds"]["wild_ratio"] = "sometimes"
    assert _record_error(doc).startswith("variant.melds.wild_ratio: the string 'sometimes' is not allowed")


def test_record_unknown_keys_are_refused() -> None:
    doc = _record_doc()
    doc["sede"] = 3
    assert _record_error(doc) == "sede: unknown key at the top level; did you mean 'seed'?"
    doc = _record_doc()
    doc["meta"]["place"] = "club"
    assert _record_error(doc).startswith("meta.place: unknown key here; allowed: date, names, event, comment")
    doc = _record_doc()
    doc["hands"][1]["result"] = "won"
    assert _record_error(doc) == "hands.1.result: unknown key here; allowed: actions"


def test_record_wrong_types_and_missing_keys_are_refused() -> None:
    doc = _record_doc()
    doc["seed"] = "7"
    assert _record_error(doc) == "seed: expected an integer, got '7' (a string)"
    doc = _record_doc()
    doc["hands"][0]["actions"][2] = 5
    assert _record_error(doc) == "hands.0.actions.2: expected a string, got 5 (an integer)"
    doc = _record_doc()
    del doc["hands"]
    assert _record_error(doc) == "hands: required key is missing"
    doc = _record_doc()
    doc["meta"]["date"] = "2026-11-22"
    assert _record_error(doc).startswith("meta.date: expected a TOML date")
    doc = _record_doc()
    doc["meta"]["names"] = ["A", "B"]
    assert _record_error(doc) == "meta.names: expected 4 items (one name per seat: 4 players), got 2"
    doc = _record_doc()
    doc["dealer"] = 4
    assert _record_error(doc) == "dealer: must be 3 or less, not 4"
    doc = _record_doc()
    doc["record_version"] = 2
    assert _record_error(doc) == "record_version: this version of canasta reads records of version 1, not 2"



def test_record_lists_and_tables_of_the_wrong_shape_are_refused() -> None:
    doc = _record_doc()
    doc["hands"] = "draw"
    assert _record_error(doc) == ("hands: expected [[hands]] tables (one per hand, each with actions = [...]), "
                                  "got 'draw' (a string)")
    doc = _record_doc()
    doc["hands"] = []
    assert _record_error(doc) == "hands: at least one [[hands]] table is needed (the first hand)"
    doc = _record_doc()
    doc["hands"][0]["actions"] = "draw"
    assert _record_error(doc) == "hands.0.actions: expected a list of actions in notation (strings), got 'draw' (a string)"
    doc = _record_doc()
    doc["meta"] = "club night"
    assert _record_error(doc) == "meta: expected a table, got 'club night' (a string)"
    doc = _record_doc()
    doc["meta"]["names"][3] = True
    assert _record_error(doc) == "meta.names.3: expected a string, got true (a boolean)"
    doc = _record_doc()
    doc["players"] = True
    assert _record_error(doc) == "players: expected an integer, got true (a boolean)"


def test_record_players_must_have_a_table_in_the_variant() -> None:
    """hoyle-1950 is for 2 to 6 players (rule 1); a record for 7 is refused."""
    doc = _record_doc()
    doc["players"] = 7
    assert _record_error(doc) == "players: hoyle-1950 is played by 2, 3, 4, 5, 6 players, not 7"


def test_record_not_toml_and_unknown_variant_name() -> None:
    with pytest.raises(RecordError, match="^the record is not valid TOML"):
        load_record("players = [")
    with pytest.raises(RecordError, match="^variant: unknown variant 'hoyle'"):
        load_record('variant = "hoyle"\nplayers = 4\nseed = 1\n[[hands]]\nactions = []\n')


# ================================================================ state save errors


@functools.lru_cache(maxsize=None)
def _state_text(name: str = "hoyle-1950", players: int = 4, with_melds: bool = True) -> str:
    """A saved state of a playout; with melds on the table when asked."""
    for st in playout(name, players).hands[0]:
        if not st.is_hand_over and (not with_melds or (st.melds[0] and st.melds[1])):
            return state_to_json(st)
    raise AssertionError("no such state in the playout")  # pragma: no cover


def _state_doc(*args: Any) -> dict[str, Any]:
    return json.loads(_state_text(*args))  # type: ignore[no-any-return]


def _state_error(doc_or_text: Any) -> str:
    text = doc_or_text if isinstance(doc_or_text, str) else json.dumps(doc_or_text)
    with pytest.raises(StateError) as e:
        state_from_json(text)
    return str(e.value)


def test_state_not_json_or_truncated() -> None:
    text = _state_text()
    msg = _state_error(text[: len(text) // 2])
    assert msg.startswith("the save is cut short (truncated): the JSON text ends at line")
    assert _state_error("{\n \"format\" \"x\"}").startswith("not valid JSON at line 2 column 11")
    assert _state_error("  ") == "the save is empty: expected a JSON object"
    assert _state_error("[1, 2]") == "expected a JSON object of a saved state, got a list"
    assert _state_error(text.replace('"players"', '"seed": 1,\n "players"', 1)) == "seed: this key is given twice"


def test_state_a_card_added_or_missing_is_named_by_kind_and_count() -> None:
    """hoyle-1950 plays with two packs and four jokers (rule 1): 8 sevens; one more is reported."""
    assert rules_for(load_variant("hoyle-1950"), 4).deck[7] == 8
    doc = _state_doc()
    doc["hands"][0] += " 7"
    assert _state_error(doc) == ("cards: 1 seven too many: the hoyle-1950 deck for 4 players has 8 sevens, "
                                 "this state has 9 (counting hands, down hands, melds, faced red threes, "
                                 "the stock, the pile and turn.pending)")
    doc = _state_doc()
    doc["red_threes"][1] += 1
    assert _state_error(doc).startswith("cards: 1 red three too many: the hoyle-1950 deck for 4 players "
                                        "has 4 red threes, this state has 5")
    doc = _state_doc()
    stock = doc["stock"].split()
    stock.remove("K")
    doc["stock"] = " ".join(stock)
    assert _state_error(doc).startswith("cards: 1 king missing: the hoyle-1950 deck for 4 players has "
                                        "8 kings, this state has 7")
    doc = _state_doc()
    doc["melds"][0][0] += " JK"
    assert _state_error(doc).startswith("cards: 1 joker too many")


def test_state_unknown_missing_and_mistyped_keys() -> None:
    doc = _state_doc()
    doc["bogus"] = 1
    assert _state_error(doc).startswith("bogus: unknown key at the top level; allowed: format, version")
    doc = _state_doc()
    doc["turn"]["drwe"] = True
    assert _state_error(doc) == "turn.drwe: unknown key here; did you mean 'drew'?"
    doc = _state_doc()
    del doc["pile"]
    assert _state_error(doc) == "pile: required key is missing"
    doc = _state_doc()
    doc["seed"] = "7"
    assert _state_error(doc) == "seed: expected an integer, got '7' (a string)"
    doc = _state_doc()
    doc["frozen"] = 1
    assert _state_error(doc) == "frozen: expected true or false, got 1 (an integer)"
    doc = _state_doc()
    doc["pile"] = doc["pile"] + " Z"
    assert _state_error(doc) == "pile: 'Z' is not a card: use JK, 2, 3r, 3b, 4..10, J, Q, K, A"
    doc = _state_doc()
    doc["history"].append("dscard 7")
    assert _state_error(doc).startswith(f"history.{len(doc['history']) - 1}: 'dscard 7': unknown action")
    doc = _state_doc()
    doc["format"] = "canasta-record"
    assert _state_error(doc).startswith("format: expected 'canasta-state'")



def test_state_nested_values_are_named_by_their_key_path() -> None:
    """Values inside lists and objects: the path counts items from 0; an unknown key comes
    before a missing one, and a missing one before a value of the wrong type."""
    doc = _state_doc()
    doc["turn"] = 3
    assert _state_error(doc) == "turn: expected a JSON object, got 3 (an integer)"
    doc = _state_doc()
    doc["melds"][1] = [5]
    assert _state_error(doc) == "melds.1.0: expected a string, got 5 (an integer)"
    doc = _state_doc()
    doc["melds"] = "7 7 7"
    assert _state_error(doc) == "melds: expected a list of lists of melds, got '7 7 7' (a string)"
    doc = _state_doc()
    doc["history_seats"] = None
    assert _state_error(doc) == "history_seats: expected a list of seats or null, one per history action, got null"
    doc = _state_doc()
    doc["history_seats"] = ["north"] + doc["history_seats"][1:]
    assert _state_error(doc) == "history_seats.0: expected an integer, got 'north' (a string)"
    doc = _state_doc()
    doc["phase"], doc["current_player"] = "hand_over", None
    doc["result"] = {"went_out": None, "concealed": False, "reason": "", "scores": [
        {"side": 0, "items": [{"name": 1, "cuont": 2}]}]}
    assert _state_error(doc) == "result.scores.0.items.0.cuont: unknown key here; did you mean 'count'?"
    del doc["result"]["scores"][0]["items"][0]["cuont"]
    assert _state_error(doc) == "result.scores.0.items.0.count: required key is missing"
    doc["result"]["scores"][0]["items"][0].update(count=1, points=0)
    assert _state_error(doc) == "result.scores.0.items.0.name: expected a string, got 1 (an integer)"
    doc = _state_doc()
    doc["seed"] = 1.0
    assert _state_error(doc) == "seed: expected an integer, got 1.0 (a number)"


def test_state_impossible_phases_are_refused() -> None:
    doc = _state_doc()
    doc["phase"], doc["current_player"] = "meld", None
    assert _state_error(doc) == ("current_player: phase meld needs a seat to act, not null (only a hand "
                                 "that is over has nobody to act)")
    doc = _state_doc()
    doc["phase"], doc["current_player"] = "hand_over", 0
    assert _state_error(doc) == ("current_player: the hand is over (phase hand_over): nobody acts, so "
                                 "current_player must be null, not 0")
    doc = _state_doc()
    doc["phase"] = "mled"
    assert _state_error(doc).startswith("phase: unknown phase 'mled': did you mean 'meld'?")
    doc = _state_doc()
    doc["result"] = {"went_out": None, "concealed": False, "reason": "x", "scores": []}
    assert _state_error(doc).startswith("result: only a hand that is over has a result")


def test_state_a_seat_sitting_out_cannot_act() -> None:
    """hoyle-1950 rule 2, five players: only four play each deal; the one sitting out never acts."""
    doc = _state_doc("hoyle-1950", 5, False)
    out = next(s for s in range(5) if s not in doc["active"])
    doc["current_player"] = out
    assert _state_error(doc) == (f"current_player: {out} is not a seat playing hand {doc['hand_number'] + 1}: "
                                 f"the seats playing are {', '.join(map(str, sorted(doc['active'])))}")
    doc = _state_doc("hoyle-1950", 5, False)
    doc["active"] = list(range(5))
    assert _state_error(doc).startswith(f"active: hand {doc['hand_number'] + 1} of a 5-player hoyle-1950 table "
                                        "is played by seats")


def test_state_per_side_and_per_seat_lists_need_the_right_length() -> None:
    doc = _state_doc()
    doc["totals"] = [0, 0, 0]
    assert _state_error(doc) == ("totals: expected 2 items (one per side: 2 sides at a 4-player hoyle-1950 "
                                 "table), got 3")
    doc = _state_doc()
    doc["melded"] = doc["melded"][:3]
    assert _state_error(doc) == "melded: expected 4 items (one per seat: 4 players), got 3"


def test_state_melds_must_be_valid_for_the_variant() -> None:
    """hoyle-1950 rule 23: a meld holds at least two natural cards of one rank."""
    doc = _state_doc()
    doc["melds"][0][0] = "7 JK JK"
    assert _state_error(doc) == ("melds.0.0: '7 JK JK' is not a valid meld in hoyle-1950: a meld needs at "
                                 "least 2 natural cards, this has 1")
    doc = _state_doc()
    doc["melds"][0][0] = "7 8 8"
    assert _state_error(doc) == ("melds.0.0: '7 8 8' mixes sevens and eights: a meld holds cards of one "
                                 "rank (and wild cards)")


def test_state_melds_follow_the_variants_own_limits() -> None:
    """online: "never more wild cards than natural cards"; bicycle: "not more than three wild cards"."""
    doc = _state_doc("online", 4)
    doc["melds"][0][0] = "K K JK JK 2"
    assert _state_error(doc) == ("melds.0.0: 'K K JK JK 2' is not a valid meld in online: too many wild "
                                 "cards: with 2 natural cards a meld holds at most 2 wild cards, this has 3")
    doc = _state_doc("bicycle", 4)
    doc["melds"][0][0] = "K K K K JK JK 2 2"
    assert _state_error(doc) == ("melds.0.0: 'K K K K JK JK 2 2' is not a valid meld in bicycle: too many "
                                 "wild cards: with 4 natural cards a meld holds at most 3 wild cards, this "
                                 "has 4")


def test_state_bad_variant_setting_is_named_by_its_key_path() -> None:
    doc = _state_doc()
    doc["variant"]["melds"]["min_size"] = 2
    assert _state_error(doc).startswith("variant.melds.min_size: is 2; a meld needs at least 3 cards")


def test_state_deck_is_the_variants_deck_for_the_table() -> None:
    """The deck checked is the variant's: a three-pack deal (three packs, six jokers) under the
    hoyle-1950 settings (two packs, four jokers) has too many cards of every kind."""
    doc = _state_doc("three-pack", 4, False)
    doc["variant"] = json.loads(_state_text("hoyle-1950", 4, False))["variant"]
    msg = _state_error(doc)
    assert msg.startswith("cards: ")
    assert "the hoyle-1950 deck for 4 players has 4 jokers, this state has 6" in msg
    assert "the hoyle-1950 deck for 4 players has 8 sevens, this state has 12" in msg
    assert msg.count("too many") == 15


def test_replay_states_yields_the_states_before_a_bad_move_then_raises() -> None:
    """replay_states is lazy: a viewer shows every good state before the error."""
    p = playout("online", 4)
    bad = _with_move(p.rec.record(), 0, 3, "draw draw")
    seen = []
    with pytest.raises(RecordError, match=r"^hand 1, move 4: 'draw draw' is not an action"):
        for st in replay_states(bad):
            seen.append(st)
    assert seen == p.hands[0][:4]


def test_a_record_whose_dealer_is_not_a_seat_cannot_be_made() -> None:
    """Issue 9: a record is checked when it is made (it used to fail only at replay), so every
    record dumps to a file that loads."""
    from canasta import ArgumentError

    with pytest.raises(ArgumentError, match=r"^GameRecord.dealer: must be a seat from 0 to 3, not 9$"):
        GameRecord(load_variant("wikipedia"), 4, 1, 9, [[]])


def test_json_save_keeps_the_precise_dealer_draw() -> None:
    """new-canasta "Precise Dealer Draw = 100 points": a recorded precise draw is part of the
    state, so a saved state keeps it and the hand scores it."""
    from canasta import new_game, state_from_json, state_to_json

    st = new_game("new-canasta", players=5, seed=1, precise_draws=(0,))
    back = state_from_json(state_to_json(st))
    assert back == st and back.precise == (0,)


def test_state_save_that_play_could_not_go_on_from_is_refused() -> None:
    """A save is checked like a position (issue: "reject what play could never reach"): a red
    three in the hand of the player to act (hoyle-1950 rule 13 faces it at the start of his turn)
    is refused naming the hand; a player to act with no legal action is refused naming
    current_player."""
    doc = _state_doc()
    seat = doc["current_player"]
    hand = doc["hands"][seat].split()
    stock = doc["stock"].split()
    # swap a card of the hand with a red three of the stock (the cards still add up)
    assert "3r" in stock
    i = stock.index("3r")
    stock[i], hand[0] = hand[0], "3r"
    doc["hands"][seat] = " ".join(hand)
    doc["stock"] = " ".join(stock)
    assert _state_error(doc).startswith(f"hands.{seat}: seat {seat} is to act holding a red three")
    doc = _state_doc()
    doc["turn"]["answer"] = True  # a binding yes with nothing to go out with
    doc["turn"]["asked"] = True
    msg = _state_error(doc)
    assert msg.startswith("current_player: seat") and "play cannot go on" in msg
