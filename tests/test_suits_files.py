"""Suited cards and sequences in positions, state saves and game records (issue 11).

Samba (the bundled ``samba``) deals
cards with suits and melds sequences. Its files write natural cards with their suits (``7h 10s
JK 2 3r``), a group meld as in every variant (``"7 7 7 JK"``: a group keeps no suits) and a
sequence by its cards, lowest first (``"5h 6h 7h"``). Rule numbers are those of the samba digest
(../shared/rules/beyond/samba.md), or of the brazilian one where they say so. Bolivia and
Brazilian, which extend Samba, are played through the same round trips. The suitless variants'
files are covered, unchanged, by tests/test_position.py, tests/test_record.py and the golden files.
"""

from __future__ import annotations

import json
import random
import re

import pytest
import tomli_w

from canasta._cards import CODE_TOKENS, KIND_OF, SUIT_OF, card_code
from canasta._core import text as core_text
from canasta._position import PositionError, load_position, to_position
from canasta import (GameRecorder, RecordError, StateError, dump_record, load_record, record_game, replay,
                     replay_states, state_from_json, state_to_json)
from canasta._state import GameState, _history_seats
from canasta._fields import TableMeld
from canasta._newgame import new_game
from canasta._variant_load import load_variant, variant_to_dict
from test_core_sequences import SAMBA

BOLIVIA = load_variant("bolivia")
BRAZILIAN = load_variant("brazilian")

SUITED = re.compile(r"^(?:(?:[4-9]|10|[JQKA])[cdhs]|JK|2|3r|3b)$")
"""A card token of a variant with suits: a natural with its suit, or a joker, deuce or three."""
SEQ_TEXT = re.compile(r"^(?:[4-9]|10|[JQKA])([cdhs])(?: (?:[4-9]|10|[JQKA])\1)+$")


def play(players: int, seed: int, hands: int = 1, variant=SAMBA):  # type: ignore[no-untyped-def]
    """Every state of a seeded random game (Samba unless told; the deals included), melding
    often so that sequences and sambas form."""
    rng = random.Random(seed)
    state = new_game(variant, players, seed=seed)
    yield state
    done = 0
    while True:
        if state.is_game_over:
            return
        if state.is_hand_over:
            done += 1
            if done >= hands:
                return
            state = state.next_hand()
            yield state
            continue
        ids = state.legal_action_ids()
        specs = state._rules.specs
        melding = [i for i in ids if specs[i][0] in (7, 8)]  # MELD, ADD
        state = state.apply(rng.choice(melding) if melding and rng.random() < 0.7 else rng.choice(ids))
        yield state


def inline(body: str, variant=SAMBA) -> str:  # type: ignore[no-untyped-def]
    """A position of ``variant``: ``body`` then the variant as a [variant] table (not bundled)."""
    return body + "\n" + tomli_w.dumps({"variant": variant_to_dict(variant)})


def _tokens_suited(cards: str) -> bool:
    return all(SUITED.match(t) for t in cards.split())


# =============================================================== round trips


@pytest.mark.parametrize("players, seed, variant", [
    (2, 1, SAMBA), (3, 2, SAMBA), (4, 3, SAMBA), (5, 4, SAMBA), (6, 5, SAMBA), (4, 6, BOLIVIA), (4, 10, BRAZILIAN),
], ids=["samba-2", "samba-3", "samba-4", "samba-5", "samba-6", "bolivia-4", "brazilian-4"])
def test_positions_round_trip_at_every_step(players: int, seed: int, variant) -> None:  # type: ignore[no-untyped-def]
    seen_sequence = False
    for state in play(players, seed, variant=variant):
        text = to_position(state)
        back = load_position(text)
        assert back == state
        assert to_position(back) == text
        for s in range(players):
            assert len(state.hands[s]) == 59
        doc = _position_doc(text)
        for seat in doc["seats"]:
            assert _tokens_suited(seat["hand"]), seat["hand"]
        assert _tokens_suited(doc["pile"]) and _tokens_suited(doc["stock"])
        for side, melds in zip(doc["sides"], state.melds):
            for written, m in zip(side["melds"], melds):
                if m.is_sequence:
                    # samba 4.3: natural cards of one suit in consecutive ranks, written lowest first
                    seen_sequence = True
                    assert SEQ_TEXT.match(written), written
                    codes = [CODE_TOKENS.index(t) for t in written.split()]
                    assert [KIND_OF[c] for c in codes] == list(range(m.low, m.low + m.naturals))
                    assert {SUIT_OF[c] for c in codes} == {m.rank - 16}
                else:
                    assert written == str(m) and not re.search(r"[cdhs]\b", written)
    assert seen_sequence, "no sequence melded: pick another seed"


def _position_doc(text: str) -> dict:  # type: ignore[type-arg]
    import tomllib

    return tomllib.loads(text)


@pytest.mark.parametrize("players, seed, variant", [(2, 11, SAMBA), (4, 12, SAMBA), (6, 13, SAMBA),
                                                    (4, 14, BOLIVIA), (4, 15, BRAZILIAN)],
                         ids=["samba-2", "samba-4", "samba-6", "bolivia-4", "brazilian-4"])
def test_saves_round_trip_at_every_step(players: int, seed: int, variant) -> None:  # type: ignore[no-untyped-def]
    for state in play(players, seed, hands=2, variant=variant):
        text = state_to_json(state)
        back = state_from_json(text)
        assert back == state
        assert back.history == state.history and _history_seats(back) == _history_seats(state)
        assert state_to_json(back) == text
        doc = json.loads(text)
        assert all(_tokens_suited(h) for h in doc["hands"])
        assert _tokens_suited(doc["stock"]) and _tokens_suited(doc["pile"])
        assert _tokens_suited(doc["turn"]["pending"])


def test_records_round_trip_and_replay() -> None:
    rng = random.Random(21)
    rec = GameRecorder(new_game(SAMBA, 4, seed=21))
    hands = 0
    ends = []
    while hands < 2 and not rec.state.is_game_over:
        st = rec.state
        if st.is_hand_over:
            ends.append(st)
            rec.next_hand()
            hands += 1
            continue
        i = rng.choice(st.legal_action_ids())
        # a record stores each action as its notation, which is the core's (_notation.text)
        assert str(st.action_space.decode(i)) == core_text(st._rules.specs[i])
        rec.apply(i)
    record = rec.record(names=("Ann", "Bob", "Cy", "Di"))
    text = dump_record(record)
    assert re.search(r'"discard (?:[4-9]|10|[JQKA])[cdhs]"', text), "natural cards are recorded with suits"
    back = load_record(text)
    assert back == record
    final = replay(back)
    assert final == rec.state and final.history == rec.state.history
    states = list(replay_states(back))
    assert states[-1] == rec.state
    assert record_game(ends + [rec.state], names=("Ann", "Bob", "Cy", "Di")) == record


def test_record_of_core_notation_replays() -> None:
    # a record written by hand in the core's notation: the moves of a seeded random hand
    rng = random.Random(8)
    state = new_game(SAMBA, 2, seed=8)
    moves = []
    for _ in range(60):
        if state.is_hand_over:
            break
        i = rng.choice(state.legal_action_ids())
        moves.append(core_text(state._rules.specs[i]))
        state = state.apply(i)
    text = tomli_w.dumps({"players": 2, "seed": 8, "hands": [{"actions": moves}],
                          "variant": variant_to_dict(SAMBA)})
    assert replay(load_record(text)) == state


def test_a_record_with_a_suitless_move_is_refused() -> None:
    state = new_game(SAMBA, 2, seed=8).apply("draw")
    hand = state.hands[state.current_player]
    # a rank held in two suits: its discard without a suit names a choice (one held in a single
    # suit would name one card, and be played: test_notation_unsuited.py)
    code = next(c for c in range(58, 14, -1) if hand[c] and sum(1 for s in range(KIND_OF[c] * 4 - 1, KIND_OF[c] * 4 + 3)
                                                                 if hand[s]) > 1)
    text = tomli_w.dumps({"players": 2, "seed": 8,
                          "hands": [{"actions": ["draw", f"discard {CODE_TOKENS[KIND_OF[code]]}"]}],
                          "variant": variant_to_dict(SAMBA)})
    with pytest.raises(RecordError) as e:
        replay(load_record(text))
    assert e.value.path == "hands.0.actions.1"


# =============================================================== a position written by hand


HAND_WRITTEN = """\
players = 4
dealer = 3
phase = "draw"
pile = "Kd 8s"
stock = "7h rest"

[[seats]]
hand = "Ah Ah Kc 5d 6d JK 2 3b"

[[seats]]
hand = "4s 4s 9d"

[[seats]]
hand = "10c"

[[seats]]
hand = "Qh"

[[sides]]
melds = ["5h 6h 7h", "Q Q Q JK", "9c 10c Jc Qc"]

[[sides]]
melds = ["8s 9s 10s Js Qs Ks As"]
"""


def test_a_position_written_by_hand() -> None:
    state = load_position(inline(HAND_WRITTEN))
    hand = state.hands[0]
    assert len(hand) == 59
    assert hand[card_code(14, 2)] == 2 and hand[14] == 2 and hand[0] == 1 and hand[3] == 1
    for r in range(4, 15):
        assert hand[r] == sum(hand[card_code(r, s)] for s in range(4))
    seq, group, four = state.melds[0]
    assert (seq.rank, seq.naturals, seq.low) == (16 + 2, 3, 5) and str(seq) == "5h 6h 7h"
    assert (group.rank, group.naturals, group.jokers) == (12, 3, 1)
    assert (four.rank, four.naturals, four.low) == (16, 4, 9)
    samba = state.melds[1][0]
    # samba 4.4, 4.5: seven cards is a samba, and every samba holds the 8, 9 and 10
    assert samba.naturals == 7 and samba.low == 8 and state._rules.is_canasta(state._c.melds[1][0])
    assert state.stock[-1] == card_code(7, 2)  # the top of the stock is the card written first
    # the whole deck (samba 1.3: three packs and six jokers, 162 cards), every suited card at
    # most as often as the three packs hold it (a group keeps no suits)
    per_kind = [0] * 15
    per_code = [0] * 59
    loose = list(state.stock) + list(state.pile)
    for h in state.hands:
        for c in range(59):
            per_code[c] += h[c] if c >= 15 else 0
        for k in range(15):
            per_kind[k] += h[k]
    for c in loose:
        per_kind[KIND_OF[c]] += 1
        per_code[c] += c >= 15
    for side in state.melds:
        for m in side:
            if m.is_sequence:
                for c in m.cards:
                    per_kind[KIND_OF[c]] += 1
                    per_code[c] += 1
            else:
                per_kind[m.rank] += m.naturals
                per_kind[0] += m.jokers
                per_kind[1] += m.twos
    assert per_kind == list(state._rules.deck) and sum(per_kind) == 162
    assert all(per_code[c] <= 3 for c in range(15, 59))
    assert sum(per_code[card_code(12, s)] for s in range(4)) == 12 - 3  # three queens in the group
    again = load_position(to_position(state))
    assert again == state


def test_a_group_may_be_written_with_suits() -> None:
    state = load_position(inline(HAND_WRITTEN.replace('"Q Q Q JK"', '"Qs Qh Qh JK"')))
    assert str(state.melds[0][1]) == "Q Q Q JK"
    assert '"Q Q Q JK"' in to_position(state)


# =============================================================== refusals


def refused(body: str) -> PositionError:
    with pytest.raises(PositionError) as e:
        load_position(inline(body))
    return e.value


@pytest.mark.parametrize("key, old, new", [
    ("seats.0.hand", "Ah Ah Kc", "Ah A Kc"),
    ("seats.1.hand", "4s 4s 9d", "4s 4 9d"),
    ("pile", 'pile = "Kd 8s"', 'pile = "K 8s"'),
    ("stock", 'stock = "7h rest"', 'stock = "7 rest"'),
])
def test_a_natural_without_its_suit_is_refused(key: str, old: str, new: str) -> None:
    e = refused(HAND_WRITTEN.replace(old, new, 1))
    assert e.path == key
    assert "has no suit" in e.problem and "with its suit" in e.problem and "(c, d, h, s)" in e.problem


def test_a_pending_pile_without_suits_is_refused() -> None:
    body = HAND_WRITTEN.replace('phase = "draw"', 'phase = "meld"\nto_act = 0') + '\n[turn]\npending = "K 9c"\n'
    e = refused(body)
    assert e.path == "turn.pending" and "has no suit" in e.problem


def test_an_unknown_card_and_rest_in_the_middle() -> None:
    e = refused(HAND_WRITTEN.replace("Ah Ah Kc", "Ah Zh Kc"))
    assert e.path == "seats.0.hand" and "unknown card 'Zh'" in e.problem
    e = refused(HAND_WRITTEN.replace('"7h rest"', '"rest 7h"'))
    assert e.path == "stock" and "'rest' may only end the stock" in e.problem


@pytest.mark.parametrize("meld, words", [
    ("5h 6s 7h", "one suit, this mixes hearts and spades"),           # samba 4.3: one suit
    ("5h 6h 8h", "consecutive ranks"),                                # samba 4.3: in a row
    ("Kh Ah 4h", "consecutive ranks"),                                # samba 4.3: no wrap-around
    ("5h 5h 6h 7h", "consecutive ranks"),                             # no rank twice
    ("5h 6h 2", "natural cards only"),                                # samba 4.3: no wild card
    ("3b 4h 5h", "natural cards only"),                               # samba 4.3: no three
    ("5h 6h", "a sequence holds 3 to 7 cards, this has 2"),           # samba 4.3: three or more
    ("4h 5h 6h 7h 8h 9h 10h Jh", "a sequence holds 3 to 7 cards"),    # samba 4.4: at most seven
    ("5 6 7", "written with its cards' suits"),
    ("5h 6h 7", "written with its cards' suits"),
])
def test_a_bad_sequence_is_refused(meld: str, words: str) -> None:
    e = refused(HAND_WRITTEN.replace('"5h 6h 7h"', f'"{meld}"'))
    assert e.path == "sides.0.melds.0"
    assert words in e.problem, e.problem


def test_a_group_is_checked_as_in_every_variant() -> None:
    # samba 4.1: at most two wild cards in a group
    e = refused(HAND_WRITTEN.replace('"Q Q Q JK"', '"Q Q JK JK 2"'))
    assert e.path == "sides.0.melds.1" and "too many wild cards" in e.problem


def test_too_many_of_one_suited_card_is_refused() -> None:
    # samba 1.3: three packs, so three of each suited card
    e = refused(HAND_WRITTEN.replace("Ah Ah Kc", "Ah Ah Ah Ah Kc"))
    assert e.path == "cards"
    assert "1 ace of hearts too many: the samba deck for 4 players has 3 aces of hearts, this position has 4" \
        in e.problem
    # a sequence's cards count as suited cards
    e = refused(HAND_WRITTEN.replace("4s 4s 9d", "As As As 9d"))  # and the samba's As
    assert "1 ace of spades too many" in e.problem


def test_suits_in_a_suitless_variant_are_refused_with_a_hint() -> None:
    with pytest.raises(PositionError) as e:
        load_position('variant = "hoyle-1950"\n[[seats]]\nhand = "7h 7"\n')
    assert e.value.path == "seats.0.hand"
    assert "not a card" in e.value.problem and "only in a variant with sequences" in e.value.problem


def _save(state: GameState) -> dict:  # type: ignore[type-arg]
    return json.loads(state_to_json(state))


def _samba_state() -> GameState:
    for state in play(4, 3):
        if any(m.is_sequence for side in state.melds for m in side) and state.pile:
            return state
    raise AssertionError("no sequence melded")


def test_saves_refuse_suitless_naturals_and_bad_sequences() -> None:
    state = _samba_state()
    doc = _save(state)

    def problem(change) -> StateError:  # type: ignore[no-untyped-def]
        d = json.loads(json.dumps(doc))
        change(d)
        with pytest.raises(StateError) as e:
            state_from_json(json.dumps(d))
        return e.value

    seat = next(s for s, h in enumerate(doc["hands"]) if re.search(r"[cdhs]\b", h))

    def strip_hand(d: dict) -> None:  # type: ignore[type-arg]
        d["hands"][seat] = re.sub(r"\b((?:[4-9]|10|[JQKA]))[cdhs]\b", r"\1", d["hands"][seat], count=1)

    e = problem(strip_hand)
    assert e.path == f"hands.{seat}" and "has no suit" in e.problem
    e = problem(lambda d: d.update(pile=re.sub(r"[cdhs]\b", "", d["pile"], count=1)))
    assert e.path == "pile" and "has no suit" in e.problem
    side, j = next((i, j) for i, ms in enumerate(state.melds) for j, m in enumerate(ms) if m.is_sequence)
    seq = doc["melds"][side][j].split()
    e = problem(lambda d: d["melds"][side].__setitem__(j, " ".join(seq[:1] + seq[2:] + ["2"])))
    assert e.path == f"melds.{side}.{j}"
    e = problem(lambda d: d["hands"].__setitem__(seat, d["hands"][seat] + " As As As As"))
    assert e.path == "cards" and "aces of spades" in e.problem


def test_table_meld_strings_are_what_the_files_write() -> None:
    m = TableMeld(16 + 3, 4, low=9)
    assert str(m) == "9s 10s Js Qs"


def test_a_sequence_past_seven_only_where_the_variant_allows_it() -> None:
    # brazilian 4.2: an escalera may pass seven cards in the turn its player goes out, so a hand
    # that ended so has one; samba 4.4: at most seven
    body = HAND_WRITTEN.replace('phase = "draw"', 'phase = "hand_over"').replace(
        '"8s 9s 10s Js Qs Ks As"', '"6s 7s 8s 9s 10s Js Qs Ks As"')
    state = load_position(inline(body, BRAZILIAN))
    assert state.melds[1][0].naturals == 9 and load_position(to_position(state)) == state
    e = refused(body)
    assert e.path == "sides.1.melds.0" and "a sequence holds 3 to 7 cards, this has 9" in e.problem
