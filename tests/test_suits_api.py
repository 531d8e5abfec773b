"""Suited cards and sequences through the public API (issue 11, second part).

Samba (the bundled ``samba``; rule numbers are those of the digest
../shared/rules/beyond/samba.md) is played through :func:`canasta.new_game` and
:class:`canasta.GameState`: its actions' notation, the legal actions, the reasons of refusals,
hands of 59 counts, sequences as :class:`canasta.TableMeld`, the table view, the events and
the bots. The variants without sequences keep their texts byte for byte.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import canasta
from canasta import (Add, ArgumentError, Card, Discard, GameState, IllegalActionError, Meld, Suit, SuitedCard,
                     TableMeld, Take, TakeWay, parse_action)
from canasta._actions import ActionParseError, space_of
from canasta._cards import CODE_TOKENS, KIND_OF, SEQUENCE_RANK, SUIT_OF, card_code
from canasta._core import rules_for, text
from canasta._fields import _table_meld, meld_tuple

sys.path.insert(0, str(Path(__file__).parent))
from test_core_sequences import SAMBA  # noqa: E402  (the variant file, loaded without the trial deal)
from helpers import turn  # noqa: E402

TABLES = (2, 3, 4, 5, 6)


# ------------------------------------------------------------------ cards


def test_suited_cards_are_the_codes_15_to_58() -> None:
    assert len(SuitedCard) == 44
    assert SuitedCard.FOUR_CLUBS == 15 and SuitedCard.ACE_SPADES == 58
    for card in SuitedCard:
        assert str(card) == CODE_TOKENS[card]
        assert card.kind == KIND_OF[card] and isinstance(card.kind, Card)
        assert card.suit == SUIT_OF[card] and isinstance(card.suit, Suit)
        assert SuitedCard.of(card.kind, card.suit) is card
        assert SuitedCard.parse(str(card)) is card
        assert SuitedCard.parse(str(card).lower()) is card
    assert str(SuitedCard.SEVEN_HEARTS) == "7h" and str(SuitedCard.TEN_SPADES) == "10s"
    assert SuitedCard.parse("Tc") is SuitedCard.TEN_CLUBS
    assert str(Suit.HEARTS) == "h"


@pytest.mark.parametrize("bad", ["7x", "7", "JK", "", "hearts"])
def test_suited_card_parse_names_the_text(bad: str) -> None:
    with pytest.raises(ArgumentError) as err:
        SuitedCard.parse(bad)
    assert err.value.argument == "text" and repr(bad) in str(err.value)
    with pytest.raises(ArgumentError):
        SuitedCard.of(3, 0)  # no three of a suit: threes are Card values
    with pytest.raises(ArgumentError):
        SuitedCard.of(7, 4)


# ------------------------------------------------------------------ notation


@pytest.mark.parametrize("players", TABLES)
def test_every_samba_action_text_round_trips(players: int) -> None:
    R = rules_for(SAMBA, players)
    space = space_of(R)
    assert space.size == R.size
    for i, spec in enumerate(R.specs):
        words = text(spec)
        action = parse_action(words)
        assert str(action) == words
        assert space.encode(action) == i, words
        assert str(space.actions[i]) == words
        assert space.actions[i] == action and hash(space.actions[i]) == hash(action)
        assert parse_action(words.upper()) == action  # the notation reads case-insensitively


@pytest.mark.parametrize("name", [n for n in canasta.variant_names()
                                  if not canasta.load_variant(n).melds.sequences.allowed])
def test_suitless_action_texts_are_unchanged(name: str) -> None:
    v = canasta.load_variant(name)
    for players in v.tables:
        R = rules_for(v, int(players))
        space = space_of(R)
        for i, spec in enumerate(R.specs):
            assert str(space.actions[i]) == text(spec)
            assert all(k < 15 for k in getattr(space.actions[i], "cards", ()))
            if isinstance(space.actions[i], Take):
                assert space.actions[i].cards == ()


def test_suited_actions_name_their_cards() -> None:
    h7, s7 = SuitedCard.SEVEN_HEARTS, SuitedCard.SEVEN_SPADES
    take = parse_action("take 7h 7s")
    assert take == Take(7, TakeWay.PAIR, cards=(h7, s7)) == Take(7, "pair", cards=(s7, h7))
    assert take.cards == (s7, h7) and str(take) == "take 7s 7h"
    assert parse_action("take JK 7h") == Take(7, TakeWay.JOKER, cards=(h7, Card.JOKER))
    assert parse_action("take onto hearts#2") == Take(SEQUENCE_RANK + Suit.HEARTS, TakeWay.ONTO, 2)
    # groups list naturals by code, highest first; sequences lowest first
    assert str(Meld((h7, Card.TWO, s7))) == "meld 7s 7h 2"
    assert str(Meld((SuitedCard.SEVEN_HEARTS, SuitedCard.FIVE_HEARTS, SuitedCard.SIX_HEARTS))) == "meld 5h 6h 7h"
    assert Meld((SuitedCard.SEVEN_HEARTS, SuitedCard.FIVE_HEARTS, SuitedCard.SIX_HEARTS)).rank == 5
    assert str(Add(SuitedCard.EIGHT_HEARTS, SEQUENCE_RANK + Suit.HEARTS)) == "add 8h to hearts"
    assert parse_action("add 7d") == Add(SuitedCard.SEVEN_DIAMONDS, 7)
    assert str(Discard(h7)) == "discard 7h"
    assert repr(Take(7, "pair")) == "Take(rank=7, way=TakeWay.PAIR, meld=1)"


@pytest.mark.parametrize("make,argument", [
    (lambda: Take(7, "pair", cards=(SuitedCard.SEVEN_HEARTS, SuitedCard.EIGHT_HEARTS)), "Take.cards"),
    (lambda: Take(7, "pair", cards=(7, 7)), "Take.cards"),
    (lambda: Take(7, "joker", cards=(SuitedCard.SEVEN_HEARTS, Card.TWO)), "Take.cards"),
    (lambda: Take(7, "onto", cards=(SuitedCard.SEVEN_HEARTS,)), "Take.cards"),
    (lambda: Take(7, "pair", cards="7h 7s"), "Take.cards"),
    (lambda: Take(SEQUENCE_RANK, "pair"), "Take.rank"),
    (lambda: Take(20, "onto"), "Take.rank"),
    (lambda: Discard(59), "Discard.card"),
    (lambda: Add(SuitedCard.SEVEN_HEARTS, 20), "Add.rank"),
    (lambda: TableMeld(18, 3, low=13), "TableMeld.low"),
    (lambda: TableMeld(18, 3, 1, low=5), "TableMeld.jokers"),
    (lambda: TableMeld(7, 3, low=5), "TableMeld.low"),
])
def test_bad_suited_fields_name_the_field(make, argument: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ArgumentError) as err:
        make()
    assert err.value.argument == argument


@pytest.mark.parametrize("bad", ["take 7h 8h", "take 7h 7", "meld 7x 7h 7s", "take onto clubz"])
def test_bad_suited_text_is_an_action_parse_error(bad: str) -> None:
    with pytest.raises(ActionParseError) as err:
        parse_action(bad)
    assert repr(bad) in str(err.value)


# ------------------------------------------------------------------ melds on the table


def test_a_sequence_is_a_table_meld() -> None:
    m = TableMeld(SEQUENCE_RANK + Suit.HEARTS, 3, low=5)
    assert str(m) == "5h 6h 7h" and m.is_sequence and m.cards == (29 - 8, 29 - 4, 29)
    assert meld_tuple(m) == (16 + 16 * 2 + 5, 3, 0, 0, 0)
    assert _table_meld(meld_tuple(m)) == m
    group = TableMeld(7, 3, 1)
    assert _table_meld(meld_tuple(group)) == group and not group.is_sequence and group.low == 0


# ------------------------------------------------------------------ play


def _samba_states(players: int, seed: int, steps: int = 400):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    state = canasta.new_game(SAMBA, players=players, seed=seed)
    yield state
    for _ in range(steps):
        if state.is_game_over:
            return
        if state.is_hand_over:
            state = state.next_hand()
            yield state
            continue
        acts = state.legal_actions()
        melding = [a for a in acts if isinstance(a, (Meld, Add))]
        state = state.apply(rng.choice(melding) if melding and rng.random() < 0.7 else rng.choice(acts))
        yield state


@pytest.mark.parametrize("players", TABLES)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_samba_playouts_through_game_state(players: int, seed: int) -> None:
    rng = random.Random(seed)
    space = space_of(rules_for(SAMBA, players))
    before = None
    for state in _samba_states(players, seed):
        assert all(len(h) == 59 for h in state.hands)
        for h in state.hands:
            # the first 15 counts are per kind, every suit together
            assert all(h[k] == sum(h[card_code(k, s)] for s in range(4)) for k in range(4, 15))
        assert all(k < 4 or k >= 15 for k in state.pile + state.stock)
        for side in state.melds:
            for m in side:
                assert _table_meld(meld_tuple(m)) is m
                if m.is_sequence:
                    # samba 4.3, 4.4: three to seven naturals of one suit in a row, four to ace
                    assert 3 <= m.naturals <= 7 and 4 <= m.low and m.low + m.naturals - 1 <= 14
                    assert str(m) == " ".join(CODE_TOKENS[c] for c in m.cards)
        view = str(state)
        assert len(view) < 1500 and "Pile" in view or state.is_hand_over
        if before is not None and before.hand_number == state.hand_number and state.history:
            evs = canasta.events(before, state.history[-1], state)
            assert evs and all(isinstance(e.text, str) for e in evs)
        legal = state.legal_actions()
        for a in legal:
            assert state.is_legal(a) and state.why_illegal(a) is None
            assert state.is_legal(str(a))
        ids = set(state.legal_action_ids())
        for i in rng.sample(range(space.size), 12):
            if i not in ids:
                a = space.actions[i]
                reason = state.why_illegal(a)
                assert isinstance(reason, str) and reason, str(a)
                assert not state.is_legal(str(a))
        before = state


def test_a_group_without_suits_is_refused_in_words() -> None:
    state = next(s for s in _samba_states(4, 3) if s.phase is canasta.Phase.MELD)
    action = parse_action("meld 7 7 7")  # fine as text
    reason = state.why_illegal(action)
    assert reason is not None and ("suit" in reason or reason.startswith("you hold"))  # (see test_notation_unsuited.py)
    assert not state.is_legal("meld 7 7 7")
    with pytest.raises(IllegalActionError) as err:
        state.apply("meld 7 7 7")
    assert err.value.reason == reason
    # samba 3.4: never one natural and one wild card from the hand
    assert state.why_illegal("take 7h JK") is not None


@pytest.mark.parametrize("players", (2, 4, 6))
def test_bots_play_samba_to_the_end(players: int) -> None:
    final, results = canasta.play_game(SAMBA, players=players, seed=5)
    assert final.is_game_over and results
    seqs = 0

    def count(before: GameState, action: canasta.Action, after: GameState) -> None:
        nonlocal seqs
        if isinstance(action, Meld) and len({KIND_OF[c] for c in action.cards if c >= 15}) > 1:
            seqs += 1

    final, _ = canasta.play_game(SAMBA, players=players, seed=6, on_action=count)
    assert final.is_game_over
    assert seqs > 0  # the greedy bot melds the sequences it holds (samba 4.3)
    bots = [canasta.RandomBot(seed=s) for s in range(players)]
    final, _ = canasta.play_game(SAMBA, players=players, bots=bots, seed=7, max_hands=3)
    assert final.is_hand_over


def test_events_and_view_name_suited_cards() -> None:
    """A seeded samba position: seat 0 melds the sequence 5h 6h 7h (samba 4.3: three or more
    naturals of one suit in a row) and lengthens it with 8h; the events name the suited cards
    and the sequence's suit, the compact view writes a sequence as its lowest and highest card."""
    st = turn("samba", "5h 6h 7h 8h 4c 9d", '"K K K"', pile="5c 9h", totals="[0, 0]",
              others=("4d 5s 6c", "4s 5d 6d", "Jc Jd 10s"))
    melded = st.apply("meld 5h 6h 7h")
    assert [e.text for e in canasta.events(st, "meld 5h 6h 7h", melded)] == ["Seat 0 melded 5h 6h 7h."]
    assert str(melded).splitlines()[2] == "  A melds: Kx3 5h-7h"
    longer = melded.apply("add 8h to hearts")
    assert [e.text for e in canasta.events(melded, "add 8h to hearts", longer)] == [
        "Seat 0 added 8h to the hearts sequence."]
    assert str(longer).splitlines()[2] == "  A melds: Kx3 5h-8h"
    assert str(longer.melds[0][1]) == "5h 6h 7h 8h"
