"""What a game server needs from the library (issue 23): views kept incrementally and their
compact dicts, events as data, compact saves and the append-only log, resuming mid-hand,
bundled-only loading, a seat's check in apply, per-side frozen piles, bots that restart.

The rules behind the checks: every action is made openly at the table (hoyle-1950 rules
18-20: a draw, melds and a discard each turn, in turn to the left; "May I go out?" and its
answer are spoken aloud, rule 50), so what a seat sees after an action is what it saw before
plus that action's public effects; the pile is frozen for a side until it has made its initial
meld (hoyle-1950 rule 37: "The discard pile is FROZEN, as concerns a side, until that side has
made its initial meld"); a player takes up his foot when his hand is used up (hand-and-foot,
pagat's "Hand and Foot", 2.2).
"""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import attrs
import pytest

import canasta
from canasta import (
    ArgumentError, Card, Event, EventKind, GameRecorder, GreedyBot, IllegalActionError, Observation, RandomBot,
    RecordError, StateError, SuitedCard, VariantError, bundled_variant, card_token, deal_events, dump_log,
    dump_record, events, hand_events, load_log, load_position, load_record, new_game, record_game, replay,
    state_from_json, state_to_json, to_position,
)

def playout(name: str, seed: int, steps: int = 400) -> list[canasta.GameState]:
    """The states of a random hand (up to ``steps`` actions), the deal first."""
    rng = random.Random(seed)
    st = new_game(name, seed=seed)
    out = [st]
    while not st.is_hand_over and len(out) <= steps:
        st = st.apply(rng.choice(st.legal_actions()))
        out.append(st)
    return out


def fresh(state: canasta.GameState) -> canasta.GameState:
    """An equal state that shares nothing with ``state`` (its history replayed from the deal
    when observed, as before the views were kept incrementally)."""
    back: canasta.GameState = pickle.loads(pickle.dumps(state))
    return back


# ------------------------------------------------------------------ views


def check_views(name: str, seeds: range, steps: int) -> None:
    for seed in seeds:
        every = 1 + seed % 3  # every state observed, or every second or third (a few actions replayed)
        states = playout(name, seed, steps)
        for i, st in enumerate(states):
            if i % every:
                continue
            for seat in range(st.players):
                got = st.observation(seat)
                if (i + seat) % 5:
                    continue  # (each seat compared afresh at every fifth state: a replay each)
                want = fresh(st).observation(seat)
                assert got == want and got.history == want.history
                assert got.examined_pile == want.examined_pile and got.frozen_for == want.frozen_for
                assert got.legal_action_ids == want.legal_action_ids
                assert got.to_dict() == want.to_dict()


@pytest.mark.parametrize("name", ("samba", "hand-and-foot", "bicycle"))
def test_views_kept_incrementally_are_the_views_computed_afresh(name: str) -> None:
    check_views(name, range(2), 70)


@pytest.mark.slow
@pytest.mark.parametrize("name", canasta.variant_names())
def test_views_kept_incrementally_are_the_views_computed_afresh_in_every_variant(name: str) -> None:
    check_views(name, range(2, 5), 300)


def test_a_view_adds_the_one_new_event_to_the_history_it_had() -> None:
    states = playout("samba", 5, 80)
    for before, after in zip(states, states[1:]):
        a, b = before.observation(0).history, after.observation(0).history
        assert b[:-1] == a and b[-1].action == after.history[-1] and b[-1].seat == before.current_player
        assert b[-1].stock_cards == len(before.stock) - len(after.stock)


def test_observing_after_each_action_replays_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # O(change): with the state before observed, a view never replays the hand (the first
    # action's view deals the hand again and replays that one action)
    states = playout("samba", 7, 120)
    states[0].observation(0)
    states[1].observation(0)
    replayed = []
    real = canasta._core.apply_id
    monkeypatch.setattr(canasta._core, "apply_id", lambda c, i: replayed.append(i) or real(c, i))
    for st in states[2:]:
        for seat in range(st.players):
            st.observation(seat).to_dict(history=False, legend=False)
    assert not replayed
    # three actions since the last state observed: three replayed, not the hand
    st = states[-1]
    for _ in range(3):
        st = st.apply(st.legal_actions()[0]) if st.legal_actions() else st
    replayed.clear()
    st.observation(0)
    assert len(replayed) <= 3


@pytest.mark.parametrize("name", ("samba", "hoyle-1950"))
def test_the_compact_dict_leaves_out_the_history_and_the_legend(name: str) -> None:
    for st in playout(name, 3, 60)[::7]:
        for seat in range(st.players):
            obs = st.observation(seat)
            full, compact = obs.to_dict(), obs.to_dict(history=False, legend=False)
            assert "history" not in compact and "cards" not in compact
            assert {k: v for k, v in full.items() if k not in ("history", "cards")} == compact
            assert Observation.from_dict(full) == obs
            assert Observation.from_dict(compact) == attrs.evolve(obs, history=())
            assert json.loads(json.dumps(compact)) == compact
            # every list and dict is new: changing one changes nothing else
            compact["melds"].append("x")
            compact["turn"]["drew"] = "x"
            assert obs.to_dict(history=False, legend=False)["turn"]["drew"] is obs.turn.drew


def test_pending_top_is_null_when_there_is_none_and_version_1_dicts_still_load() -> None:
    # hoyle-1950 rule 31: the pile taken for the initial meld, its top card set aside with the
    # cards that must meld with it; the rest of the pile waits until the minimum is met
    found = None
    for seed in range(200):
        for st in playout("hoyle-1950", seed, 120):
            if st.turn.pending_top >= 0:
                found = st
                break
        if found:
            break
    assert found is not None
    seat = found.current_player
    d = found.observation(seat).to_dict()
    assert d["version"] == 2 and d["turn"]["pending_top"] == found.turn.pending_top
    calm = new_game("hoyle-1950", seed=1).observation(0)
    d = calm.to_dict()
    assert d["turn"]["pending_top"] is None
    old = dict(d, version=1, turn=dict(d["turn"], pending_top=-1))
    del old["frozen_for"]
    back = Observation.from_dict(old)
    assert back == calm and back.turn.pending_top == -1 and back.frozen_for == ()
    with pytest.raises(ArgumentError, match="data.version"):
        Observation.from_dict(dict(d, version=3))


def test_the_pile_is_frozen_per_side_until_its_initial_meld() -> None:
    # hoyle-1950 rule 37
    seen_split = False
    for seed in range(30):
        for st in playout("hoyle-1950", seed, 150):
            obs = st.observation(0)
            assert obs.frozen_for == tuple(st.frozen or not o for o in st.opened)
            if len(set(obs.frozen_for)) == 2:
                seen_split = True
                assert not obs.frozen
        if seen_split:
            break
    assert seen_split
    # hand-and-foot 3.5: there is no frozen pile before an initial meld
    st = new_game("hand-and-foot", seed=2)
    assert st.observation(0).frozen_for == (st.frozen,) * st.sides


def test_apply_refuses_an_action_from_a_seat_not_to_act() -> None:
    st = new_game("hoyle-1950", seed=4)
    seat = st.current_player
    assert seat is not None
    other = (seat + 1) % st.players
    with pytest.raises(IllegalActionError, match=f"it is seat {seat}'s turn, not seat {other}'s"):
        st.apply("draw", seat=other)
    assert st.apply("draw", seat=seat) == st.apply("draw")
    with pytest.raises(ArgumentError, match="seat"):
        st.apply("draw", seat=9)
    # hoyle-1950 rule 50: the partner answers "may I go out?"; he is the one to act then
    for s in playout("hoyle-1950", 11, 300):
        if s.phase is canasta.Phase.ANSWER:
            ans = s.legal_actions()[0]
            s.apply(ans, seat=s.current_player)
            with pytest.raises(IllegalActionError):
                s.apply(ans, seat=(s.current_player + 1) % s.players)
            break
    over = playout("hoyle-1950", 2)[-1]
    with pytest.raises(IllegalActionError, match="nobody is to act"):
        over.apply("draw", seat=0)


# ------------------------------------------------------------------ events


@pytest.mark.parametrize("name", ("samba", "hand-and-foot", "new-canasta"))
def test_events_round_trip_as_data_and_the_hand_log_is_every_event_so_far(name: str) -> None:
    states = playout(name, 6, 250)
    log = list(deal_events(states[0]))
    for i, (before, after) in enumerate(zip(states, states[1:])):
        evs = events(before, after.history[-1], after)
        for e in evs:
            d = e.to_dict()
            assert json.loads(json.dumps(d)) == d
            assert Event.from_dict(d) == e
            assert d["tokens"] == [card_token(c) for c in e.cards]
        log.extend(evs)
        if i % 41 == 0:
            assert hand_events(after) == tuple(log)
    assert hand_events(states[-1]) == tuple(log)
    assert hand_events(states[0]) == deal_events(states[0])


def test_event_from_dict_names_the_bad_key() -> None:
    e = events(new_game("samba", seed=1), "draw")[0].to_dict()
    for key, value, where in (("kind", "nap", "data.kind"), ("count", "3", "data.count"),
                              ("action", "dance", "data.action"), ("cards", [99], "data.cards.0"),
                              ("natural", 1, "data.natural")):
        with pytest.raises(ArgumentError, match=where):
            Event.from_dict(dict(e, **{key: value}))
    with pytest.raises(ArgumentError, match="data.seat: missing"):
        Event.from_dict({k: v for k, v in e.items() if k != "seat"})


def test_hand_events_needs_a_history_from_the_deal() -> None:
    st = playout("hoyle-1950", 3, 20)[-1]
    loaded = load_position(to_position(st)).apply("draw") if st.phase is canasta.Phase.DRAW else None
    loaded = loaded or load_position(to_position(playout("hoyle-1950", 3, 24)[-1]))
    moved = loaded.apply(loaded.legal_actions()[0])
    with pytest.raises(ArgumentError, match="does not reach back to the hand's deal"):
        hand_events(moved)


def test_card_token_covers_card_and_suited_card() -> None:
    assert card_token(Card.SEVEN) == "7" and card_token(Card.JOKER) == "JK" and card_token(Card.RED_THREE) == "3r"
    assert card_token(SuitedCard.SEVEN_HEARTS) == "7h" and card_token(58) == "As" and card_token(15) == "4c"
    for bad in (-1, 59, "7", True, 1.0):
        with pytest.raises(ArgumentError, match="code"):
            card_token(bad)  # type: ignore[arg-type]


def test_taking_up_the_foot_is_an_event() -> None:
    # hand-and-foot 2.2: when his hand is used up a player takes up his foot and plays on
    seen = []

    def on_action(before: canasta.GameState, action: canasta.Action, after: canasta.GameState) -> None:
        for e in events(before, action, after):
            if e.kind is EventKind.DOWN_HAND:
                seen.append(e)
                s = e.seat
                assert e.count == sum(before.down_hands[s][:15]) and e.count
                assert not any(after.down_hands[s])
                assert "picked up the down hand (foot): 13 cards" in e.text

    canasta.play_game("hand-and-foot", seed=1, on_action=on_action, max_hands=1)
    assert seen


# ------------------------------------------------------------------ loading variants safely


def test_bundled_variant_loads_bundled_names_only_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    v = bundled_variant("samba")
    assert v is bundled_variant("samba") and v == canasta.load_variant("samba")
    assert new_game(v, seed=1) == new_game("samba", seed=1)
    house = tmp_path / "house.toml"
    house.write_text('extends = "samba"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert (tmp_path / "house.toml").is_file()  # (load_variant would read it)
    for name in ("house.toml", str(house), "house", "../variants/samba.toml", "samba.toml", "", 3, None):
        with pytest.raises(VariantError, match="not a bundled variant|expected the name"):
            bundled_variant(name)  # type: ignore[arg-type]


# ------------------------------------------------------------------ compact saves and the log


@pytest.mark.parametrize("name", ("samba", "hand-and-foot", "hoyle-1950"))
def test_compact_saves_name_the_bundled_variant_and_load_exactly(name: str) -> None:
    for st in playout(name, 8, 90)[::30]:
        full, compact = state_to_json(st), state_to_json(st, compact=True)
        data = json.loads(compact)
        assert data["variant"] == name and len(data["variant_hash"]) == 16
        back = state_from_json(compact)
        assert back == st and back.history == st.history and state_to_json(back, compact=True) == compact
        assert state_from_json(full) == st  # the full form still loads
        assert len(compact) < len(full) / 2
        rec = record_game(st)
        text = dump_record(rec, compact=True)
        assert load_record(text) == rec and replay(load_record(text)) == st
    fresh_samba = new_game("samba", seed=1)
    assert len(state_to_json(fresh_samba, compact=True)) * 3 < len(state_to_json(fresh_samba))


def test_a_house_rule_saves_whole_and_an_unknown_hash_is_refused() -> None:
    base = canasta.load_variant("hoyle-1950")
    house = attrs.evolve(base, game=attrs.evolve(base.game, target=3000))
    st = new_game(house, seed=2)
    data = json.loads(state_to_json(st, compact=True))
    assert isinstance(data["variant"], dict) and "variant_hash" not in data
    assert state_from_json(state_to_json(st, compact=True)) == st
    assert "[variant" in dump_record(record_game(st), compact=True)
    saved = json.loads(state_to_json(new_game("samba", seed=3), compact=True))
    with pytest.raises(StateError, match="variant_hash: unknown settings hash '0{16}' for samba"):
        state_from_json(json.dumps(dict(saved, variant_hash="0" * 16)))
    with pytest.raises(StateError, match="variant: unknown variant"):
        state_from_json(json.dumps(dict(saved, variant="/etc/passwd")))
    text = dump_record(record_game(new_game("samba", seed=3)), compact=True)
    with pytest.raises(RecordError, match="variant_hash: unknown settings hash"):
        load_record(text.replace(saved["variant_hash"], "f" * 16))


def test_the_log_is_append_only_and_the_recorder_resumes_mid_hand() -> None:
    lines: list[str] = []
    rec = GameRecorder(new_game(bundled_variant("samba"), seed=9), log=lines.append)
    rng = random.Random(9)
    texts = []
    while len(texts) < 400 and not rec.state.is_game_over:
        st = rec.state
        if st.is_hand_over:
            rec.next_hand()
        else:
            rec.apply(rng.choice(st.legal_actions()), seat=st.current_player)
        texts.append("".join(lines))
        assert texts[-1] == dump_log(rec.record())
        if len(texts) > 1:
            assert texts[-1].startswith(texts[-2]) and texts[-1].count("\n") == texts[-2].count("\n") + 1
        if len(texts) % 97 == 0:  # a restart: read the log back, in the middle of a hand
            again = GameRecorder.resume(load_log(texts[-1]), log=lines.append)
            assert again.state == rec.state and again.state.history == rec.state.history
            rec = again
    assert rec.state.hand_number >= 1  # the log crossed a hand ('next hand')
    assert replay(load_log(texts[-1])) == rec.state
    head = json.loads(texts[-1].split("\n")[0])
    assert head["format"] == "canasta-log" and head["variant"] == "samba" and "seed" in head


@pytest.mark.parametrize("change,where", [
    (lambda t: "", "header: the log is empty"),
    (lambda t: t.replace('"version": 1', '"version": 2', 1), "header.version"),
    (lambda t: t.replace('"players"', '"colour": 1, "players"', 1), "header.colour: unknown key"),
    (lambda t: t.replace('"samba"', '"../samba.toml"', 1), "header.variant: unknown variant"),
    (lambda t: t.replace('"variant_hash": "', '"variant_hash": "0', 1), "header.variant_hash: unknown settings hash"),
    (lambda t: t + "\ndraw\n", "line 3: an empty line"),
    (lambda t: "[1, 2]\n", "header: the first line is not a JSON object"),
])
def test_a_bad_log_is_a_record_error(change: object, where: str) -> None:
    text = dump_log(record_game(new_game("samba", seed=4).apply("draw")))
    with pytest.raises(RecordError, match=where.replace("(", r"\(")):
        load_log(change(text))  # type: ignore[operator]


# ------------------------------------------------------------------ bots that restart


@pytest.mark.parametrize("cls", (GreedyBot, RandomBot))
def test_a_positional_bot_made_again_plays_on_exactly(cls: type) -> None:
    st = new_game("samba", seed=12)
    running = [cls(100 + s, positional=True) for s in range(st.players)]
    steps = 0
    while not st.is_hand_over and steps < 200:
        seat = st.current_player
        acts = st.legal_actions()
        a = running[seat].choose(st.observation(seat), acts)
        assert cls(100 + seat, positional=True).choose(st.observation(seat), acts) == a
        st = st.apply(a)
        steps += 1
    assert cls(None, positional=True).seed is not None
    with pytest.raises(ArgumentError, match="positional"):
        cls(1, positional="yes")
