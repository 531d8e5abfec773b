"""The API for programs (issue 13, item 2): observations as dicts and JSON with the legal
actions, public events with texts and fields, the short ``str(state)``, the ``TakeWay`` enum
and checked constructors, and hand numbers counted one way."""

from __future__ import annotations

import json
import random
import re
from typing import Any, Iterator

import attrs
import pytest

import canasta
from canasta import (
    Action,
    Add,
    Answer,
    ArgumentError,
    Card,
    Combine,
    Discard,
    Event,
    EventKind,
    GameState,
    IllegalActionError,
    Meld,
    Observation,
    TableMeld,
    Take,
    TakeWay,
    events,
    new_game,
    observation,
)
from canasta._state import _replace

CASES = [("hoyle-1950", 4), ("hoyle-1950", 2), ("bicycle", 4), ("new-canasta", 4), ("online", 2),
         ("three-pack", 6), ("wikipedia", 4)]


def playout(name: str, players: int, seed: int, hands: int = 1) -> Iterator[tuple[GameState, Action, GameState]]:
    """(before, action, after) of a seeded random game, ``hands`` hands long."""
    st = new_game(name, players, seed=seed)
    rng = random.Random(seed)
    played = 0
    while True:
        if st.is_hand_over:
            played += 1
            if played >= hands or st.is_game_over:
                return
            st = st.next_hand()
            continue
        a = rng.choice(st.legal_actions())
        after = st.apply(a)
        yield st, a, after
        st = after


# ------------------------------------------------------------------ observations as data


@pytest.mark.parametrize("name,players", CASES)
def test_observation_dict_and_json_round_trip_and_match_the_state(name: str, players: int) -> None:
    """Observation.to_dict gives JSON-ready values that read back equal (legal actions
    included), and say what the state says: the own hand, sizes, melds, and the legal actions
    (notation and ids) of the player to act, and nobody else's."""
    checked = 0
    for i, (_, _, st) in enumerate(playout(name, players, seed=3)):
        if i % 7 and not st.is_hand_over:  # (every 7th state: the history makes each one long)
            continue
        for seat in range(players):
            obs = observation(st, seat)
            d = obs.to_dict()
            text = json.dumps(d, allow_nan=False)  # plain JSON values only
            back = Observation.from_json(text)
            assert back == obs and back.to_dict() == d
            assert back.legal_actions == obs.legal_actions and back.legal_action_ids == obs.legal_action_ids
            assert json.loads(obs.to_json(indent=2)) == d
            assert d["hand"] == list(st.hands[seat]) and d["seat"] == seat
            assert d["hand_number"] == st.hand_number and d["phase"] == st.phase.value
            assert d["pile_size"] == len(st.pile) and d["stock_size"] == len(st.stock)
            assert [[m["text"] for m in side] for side in d["melds"]] == [[str(m) for m in side] for side in st.melds]
            assert d["cards"][Card.KING] == "K" and d["cards"][Card.JOKER] == "JK"
            if st.current_player == seat:
                assert [x["id"] for x in d["legal_actions"]] == list(st.legal_action_ids())
                assert [x["action"] for x in d["legal_actions"]] == [str(a) for a in st.legal_actions()]
                for x in d["legal_actions"]:
                    assert st.action_space.decode(x["id"]) == canasta.parse_action(x["action"])
            else:
                assert d["legal_actions"] == [] and obs.legal_actions == ()
            checked += 1
    assert checked > 20


def test_an_observation_after_the_hand_reads_back_with_its_result() -> None:
    st = new_game("hoyle-1950", seed=11)
    for _, _, st in playout("hoyle-1950", 4, seed=11):
        pass
    assert st.result is not None
    d = observation(st, 1).to_dict()
    assert d["result"]["reason"] == st.result.reason
    assert [s["total"] for s in d["result"]["scores"]] == [s.total for s in st.result.scores]
    assert Observation.from_dict(d) == observation(st, 1)


def _obs_dict() -> dict[str, Any]:
    st = new_game("hoyle-1950", seed=2)
    for _ in range(12):
        st = st.apply(st.legal_actions()[-1])
    return observation(st, st.current_player or 0).to_dict()


@pytest.mark.parametrize("change,argument", [
    (lambda d: d.pop("turn"), "data.turn"),
    (lambda d: d["turn"].pop("drew"), "data.turn.drew"),
    (lambda d: d.update(format="something"), "data.format"),
    (lambda d: d.update(version=3), "data.version"),
    (lambda d: d.update(seat="0"), "data.seat"),
    (lambda d: d.update(phase="lunch"), "data.phase"),
    (lambda d: d.update(hand=[0] * 14 + ["x"]), "data.hand.14"),
    (lambda d: d.update(frozen=1), "data.frozen"),
    (lambda d: d.update(melds=[[{"rank": 7}]]), "data.melds.0.0.naturals"),
    (lambda d: d.update(melds=[[{"rank": 1, "naturals": 3, "jokers": 0, "twos": 0, "red_three": False}]]),
     "data.melds.0.0.rank"),
    (lambda d: d.update(legal_actions=[{"id": 3, "action": "fly away"}]), "data.legal_actions.0.action"),
    (lambda d: d.update(history=[{"seat": 0, "action": 7, "stock_cards": 1, "red_threes": None}]),
     "data.history.0.action"),
])
def test_a_bad_observation_dict_names_the_key(change: Any, argument: str) -> None:
    d = _obs_dict()
    change(d)
    with pytest.raises(ArgumentError) as err:
        Observation.from_dict(d)
    assert err.value.argument == argument


def test_bad_json_is_an_argument_error() -> None:
    with pytest.raises(ArgumentError, match="not JSON"):
        Observation.from_json("{")
    with pytest.raises(ArgumentError, match="expected JSON text"):
        Observation.from_json(None)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="expected an object"):
        Observation.from_json("[1, 2]")


# ------------------------------------------------------------------ events

_DRAW_TEXT = re.compile(r"^(Seat \d+) drew (\d+) cards? from the stock\.$")


@pytest.mark.parametrize("name,players", CASES)
def test_events_describe_every_action_and_what_it_set_off(name: str, players: int) -> None:
    """Each action gives its own event first (kind = the action's class), then red threes,
    canastas, a frozen pile, going out, the hand's end and the game's end, each with fields
    that agree with the states; a draw never names the cards drawn."""
    kinds: set[EventKind] = set()
    for seed in (1, 2):
        for before, a, after in playout(name, players, seed):
            evs = events(before, a, after)
            assert evs == before.events_of(a) == events(before, str(a))
            first = evs[0]
            assert first.kind.value == type(a).__name__.lower() and first.action == a
            assert first.seat == before.current_player and first.side == before.side_of(first.seat)
            for e in evs:
                assert isinstance(e, Event) and e.text[0].isupper() and e.text.endswith((".", '"'))
                assert str(e) == e.text
                kinds.add(e.kind)
            if first.kind is EventKind.DRAW:
                m = _DRAW_TEXT.match(first.text)
                assert m and int(m.group(2)) == first.count == len(before.stock) - len(after.stock)
                assert first.cards == ()
            if first.kind is EventKind.TAKE:
                assert first.count == len(before.pile) - len(after.pile) and first.cards == (before.pile[-1],)
                assert f"took the pile: {len(before.pile)} card" in first.text or after.pile
            if first.kind is EventKind.DISCARD:
                assert first.cards == (a.card,) and first.text.endswith(f"discarded {Card(a.card)}.")  # type: ignore[attr-defined]
            red = [e for e in evs if e.kind is EventKind.RED_THREES]
            for side in range(before.sides):
                got = sum(e.count for e in red if e.side == side)
                assert got == after.red_threes[side] - before.red_threes[side]
            ends = [e for e in evs if e.kind is EventKind.HAND_END]
            if after.is_hand_over and not before.is_hand_over:
                assert after.result is not None
                assert len(ends) == 1 and ends[0].points == tuple(s.total for s in after.result.scores)
                assert ends[0].text.startswith(f"Hand {before.hand_number + 1} is over")
                outs = [e for e in evs if e.kind is EventKind.GO_OUT]
                assert [e.seat for e in outs] == ([] if after.result.went_out is None else [after.result.went_out])
                assert any(e.kind is EventKind.GAME_END for e in evs) == after.is_game_over
            else:
                assert not ends
            frozen = [e for e in evs if e.kind is EventKind.FROZEN]
            assert bool(frozen) == (after.frozen and not before.frozen)
    assert {EventKind.DRAW, EventKind.DISCARD, EventKind.MELD, EventKind.HAND_END} <= kinds


def test_canasta_events_count_the_canastas_made() -> None:
    """Over whole hands of greedy play, the canasta events of a side are its canastas on the
    table at the end (no meld is ever broken up)."""
    made = 0
    for seed in range(4):
        st = new_game("hoyle-1950", seed=seed)
        bots = [canasta.GreedyBot(seed=s) for s in range(4)]
        seen = [0, 0]
        while not st.is_hand_over:
            p = st.current_player
            assert p is not None
            a = bots[p].choose(st.observation(p), st.legal_actions())
            after = st.apply(a)
            for e in events(st, a, after):
                if e.kind is EventKind.CANASTA:
                    assert e.side is not None and e.rank is not None and e.count >= 7
                    assert e.natural == ("natural canasta" in e.text)
                    seen[e.side] += 1
            st = after
        for side in range(2):
            assert seen[side] == sum(1 for m in st.melds[side] if m.size >= 7)
        made += sum(seen)
    assert made > 0


def test_take_events_name_the_pile_size_and_the_names_given() -> None:
    names = ("North", "East", "South", "West")
    for before, a, after in playout("hoyle-1950", 4, seed=5):
        if isinstance(a, Take):
            e = events(before, a, after, names=names)[0]
            n = len(before.pile)
            assert e.text.startswith(f"{names[before.current_player]} took the pile: {n} cards")  # type: ignore[index]
            return
    pytest.fail("no take in the playout")


def test_events_refuse_what_does_not_fit() -> None:
    st = new_game("hoyle-1950", seed=1)
    after = st.apply("draw")
    with pytest.raises(IllegalActionError):
        events(st, "discard 7")
    with pytest.raises(IllegalActionError):
        events(st, "discard 7", after)  # illegal, whatever state is given as after
    with pytest.raises(ArgumentError) as err:
        events(st, "draw", st)
    assert err.value.argument == "after"
    with pytest.raises(ArgumentError) as err:
        events(after, after.legal_actions()[0], after.apply(after.legal_actions()[-1]) if len(after.legal_actions()) > 1 else st)
    assert err.value.argument == "after"
    with pytest.raises(ArgumentError) as err:
        events(st, "draw", names=("a", "b"))
    assert err.value.argument == "names"
    with pytest.raises(ArgumentError):
        events("state", "draw")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["hoyle-1950", "online", "wikipedia", "three-pack", "bicycle", "new-canasta"])
def test_deal_events_tell_the_dealer_the_upcard_and_the_red_threes(name: str) -> None:
    for seed in range(6):
        st = new_game(name, seed=seed)
        for hand in range(2):
            evs = canasta.deal_events(st)
            deal = evs[0]
            assert deal.kind is EventKind.DEAL and deal.seat == st.dealer and deal.count == st.hand_number + 1
            assert deal.text.startswith(f"Hand {st.hand_number + 1}: seat {st.dealer} dealt")
            assert deal.cards == ((st.pile[-1],) if st.pile else ())
            for side in range(st.sides):
                assert sum(e.count for e in evs if e.kind is EventKind.RED_THREES and e.side == side) == st.red_threes[side]
            assert any(e.kind is EventKind.FROZEN for e in evs) == (st.frozen and bool(st.pile))
            rng = random.Random(seed)
            while not st.is_hand_over:
                st = st.apply(rng.choice(st.legal_actions()))
                with pytest.raises(ArgumentError) as err:
                    canasta.deal_events(st)
                assert err.value.argument == "state"
            if st.is_game_over:
                break
            st = st.next_hand()


# ------------------------------------------------------------------ str and repr


@pytest.mark.parametrize("name,players", CASES)
def test_str_of_a_state_is_a_short_table_view_without_hidden_cards(name: str, players: int) -> None:
    longest = 0
    for _, _, st in playout(name, players, seed=4):
        text = str(st)
        longest = max(longest, len(text))
        assert f"Hand {st.hand_number + 1}" in text
        # the same text whatever the order of the stock (hidden from everyone)
        stock = list(st.stock)
        random.Random(1).shuffle(stock)
        assert str(_replace(st, stock=tuple(stock))) == text
        assert "\n" not in repr(st) and len(repr(st)) < 120
    assert longest < 1500


def test_str_hides_the_hands() -> None:
    """Two states that differ only in which cards two players hold print the same."""
    st = new_game("hoyle-1950", seed=8)
    hands = list(st.hands)
    hands[1], hands[3] = hands[3], hands[1]  # same sizes at the deal
    assert str(_replace(st, hands=tuple(hands))) == str(st)


# ------------------------------------------------------------------ enums and checked constructors


def test_take_way_is_an_enum_that_equals_its_string() -> None:
    for way in TakeWay:
        assert way == way.value and hash(way) == hash(way.value) and str(way) == way.value
        t = Take(7, way) if way is not TakeWay.ONTO else Take(7, way, 2)
        same = Take(7, way.value) if way is not TakeWay.ONTO else Take(7, way.value, 2)
        assert t == same and hash(t) == hash(same) and t.way is way and same.way is way
        assert canasta.parse_action(str(t)) == t
    assert repr(Take(7, "pair")) == "Take(rank=7, way=TakeWay.PAIR, meld=1)"
    assert {"pair": 1}[Take(7, TakeWay.PAIR).way] == 1


def test_every_take_of_every_space_holds_a_take_way() -> None:
    for name in canasta.variant_names():
        v = canasta.load_variant(name)
        space = canasta.ActionSpace(v, v.default_players)
        for a in space.actions:
            if isinstance(a, Take):
                assert isinstance(a.way, TakeWay)
                # (a variant with suits: the cards shown from the hand are part of the take)
                assert space.encode(Take(a.rank, a.way.value, a.meld, a.cards)) == space.encode(a)
                assert bool(a.cards) == (v.melds.sequences.allowed and a.way is not TakeWay.ONTO)


_BAD = [
    (lambda: Meld(("10", "10", "10")), "Meld.cards", "card kind"),
    (lambda: Meld("7 7 7"), "Meld.cards", "parse_action"),
    (lambda: Meld((7, 7)), "Meld.cards", "at least three"),
    (lambda: Meld((7, 7, 7.0)), "Meld.cards", "card kind"),
    (lambda: Meld((7, 7, 59)), "Meld.cards", "from 0 to 14"),
    (lambda: Meld((7, 7, True)), "Meld.cards", "card kind"),
    (lambda: Take("7", "pair"), "Take.rank", "card kind"),
    (lambda: Take(7, "PAIR"), "Take.way", "TakeWay"),
    (lambda: Take(7, None), "Take.way", "TakeWay"),
    (lambda: Take(7, "pair", 2), "Take.meld", "onto"),
    (lambda: Take(Card.JOKER, TakeWay.JOKER), "Take.way", "pair"),
    (lambda: Add(7, "7"), "Add.rank", "card kind"),
    (lambda: Add(None, 7), "Add.card", "card kind"),
    (lambda: Add(7, 20), "Add.rank", "from 0 to 15"),
    (lambda: Add(7, 7, 0), "Add.meld", "from 1"),
    (lambda: Combine(7, 2, 1), "Combine.second", "greater"),
    (lambda: Combine(7.5, 1, 2), "Combine.rank", "card kind"),
    (lambda: Discard("K"), "Discard.card", "Card.parse"),
    (lambda: Discard(-1), "Discard.card", "from 0 to 14"),
    (lambda: Answer("yes"), "Answer.yes", "True or False"),
    (lambda: TableMeld("7", 3), "TableMeld.rank", "integer"),
    (lambda: TableMeld(1, 3), "TableMeld.rank", "from 3 to 15"),
    (lambda: TableMeld(7, -1), "TableMeld.naturals", "0 or more"),
    (lambda: TableMeld(7, 3, 1.0), "TableMeld.jokers", "integer"),
    (lambda: TableMeld(7, 3, 0, 0, 1), "TableMeld.red_three", "True or False"),
    (lambda: canasta.ScoreItem(7, 1, 100), "ScoreItem.name", "string"),
    (lambda: canasta.ScoreItem("canastas", "1", 100), "ScoreItem.count", "integer"),
    (lambda: canasta.ScoreItem("canastas", 1, 1.5), "ScoreItem.points", "integer"),
    (lambda: canasta.HandScore(-1, ()), "HandScore.side", "0 or more"),
    (lambda: canasta.HandScore(0, [canasta.ScoreItem("x", 1, 1)]), "HandScore.items", "tuple of ScoreItems"),
    (lambda: canasta.HandResult("0", False, (), "went out"), "HandResult.went_out", "integer"),
    (lambda: canasta.HandResult(0, "no", (), "went out"), "HandResult.concealed", "True or False"),
    (lambda: canasta.HandResult(0, False, ((),), "went out"), "HandResult.scores", "HandScores"),
    (lambda: canasta.HandResult(0, False, (), None), "HandResult.reason", "string"),
    (lambda: Event("took", "x"), "Event.kind", "EventKind"),
    (lambda: Event(EventKind.TAKE, None), "Event.text", "string"),
]


@pytest.mark.parametrize("make,argument,words", _BAD)
def test_constructors_name_the_bad_field_and_what_is_expected(make: Any, argument: str, words: str) -> None:
    with pytest.raises(ArgumentError) as err:
        make()
    assert err.value.argument == argument and words in str(err.value)


def test_constructors_take_cards_and_numpy_like_integers() -> None:
    class Int(int):  # an Integral that is not exactly int
        pass

    assert Meld((Card.SEVEN, Card.SEVEN, Card.JOKER)) == Meld((7, 7, 0))
    assert Discard(Int(7)) == Discard(7) and type(Discard(Int(7)).card) is int
    m = TableMeld(Card.SEVEN, Int(3))
    assert m == TableMeld(7, 3) and type(m.rank) is int and type(m.naturals) is int
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        m.rank = 8  # type: ignore[misc]


# ------------------------------------------------------------------ hand numbers


def test_hands_are_numbered_from_0_in_data_and_from_1_in_text() -> None:
    st = new_game("online", 2, seed=6)
    for before, a, after in playout("online", 2, seed=6, hands=2):
        st = after
        if st.hand_number == 1:
            break
    assert st.hand_number == 1 and observation(st, 0).hand_number == 1
    assert observation(st, 0).to_dict()["hand_number"] == 1
    assert "hand 2," in repr(st) and "Hand 2" in str(st)


# ------------------------------------------------------------------ the names are public and documented


def test_the_new_names_are_exported_and_documented() -> None:
    for name in ("Event", "EventKind", "events", "deal_events", "TakeWay"):
        assert name in canasta.__all__
        assert getattr(canasta, name).__doc__
    for f in attrs.fields(Event):
        assert f.name in (Event.__doc__ or "") or f.name in _field_docs(Event), f.name
    for kind in EventKind:
        assert kind.value == kind.name.lower()


def _field_docs(cls: type) -> str:
    import inspect

    return inspect.getsource(cls)
