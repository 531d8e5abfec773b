"""Suited cards and sequence melds in the rules core (issue 11, first part).

``samba`` is Samba as the digest states it (../shared/rules/beyond/samba.md, whose rule numbers
the tests cite: Bicycle and the Official Canasta Laws, then HowStuffWorks); ``bolivia`` and
``brazilian`` extend it (bolivia.md, brazilian.md). These tests drive the core directly: seeded
random playouts checking, at every step, the rules that a sequence variant adds, and that the
variants without sequences keep their suitless cards.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import canasta
from canasta._cards import CODE_TOKENS, KIND_OF, SUIT_OF, card_code
from canasta._core import apply_id, deal, legal_ids, problem, rules_for, text, why
from canasta._core._kernel import F_YES, PH_DRAW, PH_GAME_OVER, PH_HAND_OVER, Core, pile_cards
from canasta._core._rules import (ADD, MELD, SEQ, TAKE, W_JOKER, W_ONTO, W_TWO, Rules, meld_key, seq_low,
                                  seq_suit)
from canasta._variant import Variant

SAMBA = canasta.load_variant("samba")
VARIANTS = {name: canasta.load_variant(name) for name in ("samba", "bolivia", "brazilian")}
TABLES = (2, 3, 4, 5, 6)
EXAMPLES = max(2, settings().max_examples // 10)


def rules(players: int = 4) -> Rules:
    return rules_for(SAMBA, players)


def per_kind(R: Rules, c: Core) -> list[int]:
    """Every card of the deal, counted per kind: hands, pile, stock, melds, bonus threes."""
    tot = [0] * 15
    for h in c.hands + c.downs:
        for k in range(15):
            tot[k] += h[k]
    for k in pile_cards(c) + c.stock() + c.pending:
        tot[KIND_OF[k]] += 1
    for melds in c.melds:
        for m in melds:
            if m[0] >= SEQ:
                for r in range(seq_low(m[0]), seq_low(m[0]) + m[1]):
                    tot[r] += 1
            else:
                tot[m[0] if m[0] < 15 else 0] += m[1]
                tot[0] += m[2]
                tot[1] += m[3]
    tot[2] += sum(c.red)
    tot[3] += sum(c.aside)
    return tot


def check_step(R: Rules, c: Core) -> None:
    """The invariants of a position of a variant with sequences."""
    for h in c.hands:
        assert len(h) == 59
        for r in range(4, 15):
            # a hand holds each natural once per kind and once per suited card
            assert h[r] == sum(h[card_code(r, s)] for s in range(4))
    for melds in c.melds:
        for m in melds:
            if m[0] >= SEQ:
                # samba 4.3, 4.4: three to seven naturals of one suit in a row, four to ace
                # (brazilian 4.2: past seven in the turn of going out)
                assert R.seq_valid(m) or (R.seq_past_max and m[1] > 7), m
                assert 3 <= m[1] and seq_low(m[0]) >= 4 and seq_low(m[0]) + m[1] - 1 <= 14
            elif m[0] < 15:
                assert m[2] + m[3] <= 2, m  # samba 4.1: at most two wild cards in a group


def playout(R: Rules, seed: int, hands: int = 1, sample: int = 8):
    """Yield (position before, action id, position after) of a seeded random game."""
    rng = random.Random(seed)
    c = deal(R, seed, 0, R.players - 1, (0,) * R.n_sides)
    played = 0
    while True:
        if c.phase == PH_GAME_OVER:
            return
        if c.phase == PH_HAND_OVER:
            played += 1
            if played >= hands:
                return
            c = deal(R, seed, played, (c.d.dealer + 1) % R.players, c.totals)
            continue
        ids = legal_ids(c)
        assert ids, "somebody is to act but has no legal action"
        legal = set(ids)
        for i in ids:
            assert problem(c, R.specs[i]) is None, text(R.specs[i])
        # a sample of the actions that are not legal: each has its reason in words
        for i in rng.sample(range(R.size), sample):
            if i not in legal:
                words = why(c, R.specs[i])
                assert isinstance(words, str) and words, text(R.specs[i])
        # prefer melding a little, so that sequences and canastas form
        melding = [i for i in ids if R.specs[i][0] in (MELD, ADD)]
        a = rng.choice(melding) if melding and rng.random() < 0.7 else rng.choice(ids)
        n = apply_id(c, a)
        yield c, a, n
        c = n


def test_the_bundled_variants_with_suits_are_the_sequence_variants() -> None:
    # issue 11: "variants with sequences track suits"
    suited = {n for n in canasta.variant_names() if rules_for(canasta.load_variant(n), 4).suited}
    assert suited == {"samba", "bolivia", "brazilian"}


@pytest.mark.parametrize("name", [n for n in canasta.variant_names() if n not in ("samba", "bolivia", "brazilian")])
def test_variants_without_sequences_keep_suitless_cards(name: str) -> None:
    # issue 11: "the core keeps per-rank counts for variants without sequences"
    v = canasta.load_variant(name)
    for players in v.tables:
        R = rules_for(v, int(players))
        assert not R.suited and R.hand_len == 15
        assert all(k < 15 for sp in R.specs for k in sp[4])
        assert all(sp[1] < 15 for sp in R.specs if sp[0] in (ADD, TAKE))


@pytest.mark.parametrize("players", TABLES)
def test_action_space_names_suits_and_sequences(players: int) -> None:
    R = rules(players)
    texts = [text(sp) for sp in R.specs]
    assert len(set(texts)) == len(texts), "two actions share a notation"
    seqs = [sp for sp in R.specs if sp[0] == MELD and len({KIND_OF[k] for k in sp[4] if k >= 15}) > 1]
    # samba 4.3: three naturals of one suit in a row, four lowest, ace highest, no wrap-around:
    # lowest ranks 4 to Q in each of four suits
    assert len(seqs) == 4 * 9
    for sp in seqs:
        cards = sp[4]
        assert len({SUIT_OF[k] for k in cards}) == 1
        assert [KIND_OF[k] for k in cards] == list(range(KIND_OF[cards[0]], KIND_OF[cards[0]] + 3))
    assert "meld 5h 6h 7h" in texts and "meld Qs Ks As" in texts
    assert "meld Ks As 4s" not in texts  # samba 4.3: no wrap-around
    # samba 3.4: the pile is never taken with one natural and one wild card
    assert not any(sp[0] == TAKE and sp[2] in (W_JOKER, W_TWO) for sp in R.specs)
    # samba 3.5: the top card onto a sequence of its suit
    assert "take onto hearts" in texts and "add 8h to hearts#2" in texts
    # issue 11: small enough for an action mask
    assert R.size < 2000


@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("players", TABLES)
@given(seed=st.integers(0, 2**31 - 1))
@settings(max_examples=EXAMPLES, deadline=None)
def test_sequence_playouts_keep_the_rules(name: str, players: int, seed: int) -> None:
    """samba.md, and bolivia.md / brazilian.md for their changes: the rules a sequence variant
    adds, checked at every step of seeded random games."""
    R = rules_for(VARIANTS[name], players)
    deck = list(R.deck)
    for c, a, n in playout(R, seed):
        check_step(R, n)
        assert per_kind(R, n) == deck, "cards are conserved"
        sp = R.specs[a]
        side = R.side_of[c.player]
        if sp[0] == TAKE and sp[2] == W_ONTO:
            i = next(j for j in range(len(c.melds[side]))
                     if meld_key(c.melds[side][j][0]) == sp[1]) if sp[1] >= SEQ else -1
            top = pile_cards(c)[-1]
            if sp[1] >= SEQ:
                # samba 3.5: onto a sequence of the top card's suit, at an end
                assert SUIT_OF[top] == sp[1] - SEQ and i >= 0
        if sp[0] == ADD and sp[1] <= 1:
            # samba 4.7 (OCL): no wild card is added to a completed canasta
            same = [m for m in c.melds[side] if meld_key(m[0]) == sp[2]]
            assert not R.is_canasta(same[sp[3] - 1])
        if sp[0] == TAKE and sp[2] == W_ONTO and sp[1] < SEQ:
            # samba 3.5, 3.6: the top card goes only onto a meld that is not yet a canasta
            same = [m for m in c.melds[side] if m[0] == sp[1]]
            assert not R.is_canasta(same[sp[3] - 1])
        if n.phase in (PH_HAND_OVER, PH_GAME_OVER) and n.result is not None:
            res = n.result
            for s in range(R.n_sides):
                rows = dict((name, points) for name, _count, points in res.scores[s])
                sambas = sum(1 for m in n.melds[s] if m[0] >= SEQ and m[1] >= 7)
                canastas = sum(1 for m in n.melds[s] if R.is_canasta(m))
                # samba 5.1: a samba scores 1,500
                assert rows.get("sequence canastas", 0) == 1500 * sambas
                need = 1 if name == "brazilian" else 2  # brazilian 7.5: one canasta suffices
                if "red threes" in rows:
                    assert canastas >= need  # samba 7.3: plus only with two canastas
                if "red threes (too few canastas)" in rows:
                    assert canastas < need and rows["red threes (too few canastas)"] < 0
            if res.went_out >= 0:
                # samba 6.1: two canastas to go out, sambas included
                s = R.side_of[res.went_out]
                assert sum(1 for m in n.melds[s] if R.is_canasta(m)) >= 2
                if name == "bolivia":
                    # bolivia 6.1: one of them an escalera
                    assert any(m[0] >= SEQ and R.is_canasta(m) for m in n.melds[s])
                if name == "brazilian" and R.permission and res.went_out == c.player:
                    # brazilian 6.1: only after asking the partner and hearing yes
                    assert c.flags & F_YES
            for s in range(R.n_sides):
                rows = {row[0]: row for row in res.scores[s]}
                short = sum(1 for m in n.melds[s] if m[0] >= SEQ and m[1] < 5)
                if name == "brazilian":
                    # brazilian 7.3: 1,000 lost per sequence under five cards
                    assert rows.get("short sequences", ("", 0, 0))[2] == -1000 * short
                elif name == "bolivia":
                    # bolivia 7.3: a black three caught in a hand counts -100 (not also its 5)
                    held = sum(n.hands[p][3] for p in R.members[s])
                    assert rows.get("black threes in hand", ("", 0, 0))[2] == -100 * held
                    wild = sum(1 for m in n.melds[s] if m[0] == 15 and m[2] + m[3] >= 7)
                    # bolivia 5.1: a bolivia (seven wild cards) scores 2,500
                    assert rows.get("wild canastas", ("", 0, 0))[2] == 2500 * wild
        if name == "brazilian" and sp[0] == TAKE:
            # brazilian 3.1: the pile is never taken for the side's initial meld
            assert c.opened[side]


def _find(R: Rules, seed: int, test) -> Core:
    for seed2 in range(seed, seed + 50):
        for c, _a, _n in playout(R, seed2, sample=0):
            if test(c):
                return c
    raise AssertionError("no such position in 50 playouts")


def words(c: Core, spec: tuple) -> str:  # type: ignore[type-arg]
    """The refusal's words (the action must be refused)."""
    w = why(c, spec)
    assert isinstance(w, str) and w
    return w


def test_why_a_sequence_is_refused() -> None:
    R = rules(4)
    c = _find(R, 1, lambda c: c.phase not in (PH_DRAW,) and c.phase < 5)
    # samba 4.3: one suit, consecutive ranks, natural cards only
    mixed = (MELD, 0, 0, 0, (card_code(5, 2), card_code(6, 3), card_code(7, 2)))
    assert "one suit" in words(c, mixed)
    gap = (MELD, 0, 0, 0, (card_code(5, 2), card_code(6, 2), card_code(8, 2)))
    assert "consecutive" in words(c, gap)
    wrap = (MELD, 0, 0, 0, (card_code(13, 1), card_code(14, 1), card_code(4, 1)))
    assert "consecutive" in words(c, wrap)
    wild = (MELD, 0, 0, 0, (card_code(5, 2), card_code(6, 2), 1))
    assert "natural cards only" in words(c, wild)
    assert "with their suits" in words(c, (MELD, 0, 0, 0, (7, 7, 7)))


def test_the_pile_never_starts_a_sequence() -> None:
    # samba 3.6: the pile may not be taken to start a sequence
    R = rules(4)

    def fit(c: Core) -> bool:
        if c.phase != PH_DRAW or c.pile is None or pile_cards(c)[-1] < 15:
            return False
        side = R.side_of[c.player]
        suit = SUIT_OF[pile_cards(c)[-1]]
        return c.opened[side] and not any(m[0] >= SEQ and seq_suit(m[0]) == suit for m in c.melds[side])

    c = _find(R, 7, fit)
    suit = SUIT_OF[pile_cards(c)[-1]]
    assert "never start" in words(c, (TAKE, SEQ + suit, W_ONTO, 1, ()))


def test_card_codes_round_trip_through_tokens() -> None:
    from canasta._cards import parse_code
    for code in range(15, 59):
        assert parse_code(CODE_TOKENS[code], True) == code
        assert KIND_OF[code] == (code + 1) // 4 and card_code(KIND_OF[code], SUIT_OF[code]) == code
    with pytest.raises(ValueError, match="has no suit"):
        parse_code("7", True)


def _hoyle_with_samba_canasta_rules() -> Variant:
    from canasta._variant import variant_from_dict, variant_to_dict
    data = variant_to_dict(canasta.load_variant("hoyle-1950"))
    data["name"] = "hoyle-samba-canastas"
    data["pile"]["onto_canasta"] = False
    data["melds"]["wild_on_canasta"] = False
    data["melds"]["unlimited_wild_on_canasta"] = False
    return variant_from_dict(data)


@pytest.mark.parametrize("variant", ["samba", "hoyle"])
@given(seed=st.integers(0, 2**31 - 1))
@settings(max_examples=max(1, EXAMPLES // 2), deadline=None)
def test_generator_and_checks_agree_on_every_id(variant: str, seed: int) -> None:
    # samba 3.6 and 4.7 as settings of a suitless variant too: the generator offers exactly the
    # actions whose checks pass, for every id of the space
    v = SAMBA if variant == "samba" else _hoyle_with_samba_canasta_rules()
    R = rules_for(v, 4)
    for _c, _a, n in playout(R, seed, sample=0):
        if n.phase >= PH_HAND_OVER:
            continue
        legal = set(legal_ids(n))
        for i in range(R.size):
            assert (problem(n, R.specs[i]) is None) == (i in legal), text(R.specs[i])


def test_brazilian_pile_waits_for_the_initial_meld() -> None:
    # brazilian 3.1: "the pile may not be taken to make the side's initial meld"
    R = rules_for(VARIANTS["brazilian"], 4)

    def fit(c: Core) -> bool:
        return (c.phase == PH_DRAW and c.pile is not None and pile_cards(c)[-1] >= 15
                and not c.opened[R.side_of[c.player]])

    c = _find(R, 3, fit)
    top = pile_cards(c)[-1]
    pair = tuple(sp for sp in R.specs if sp[0] == TAKE and sp[1] == KIND_OF[top] and sp[4])
    assert pair and all("from its hand alone" in words(c, sp) for sp in pair)


@pytest.mark.parametrize("variant, action, words_part", [
    # a natural without its suit names any suit (test_notation_unsuited.py): the rule by rank
    ("samba", "discard 7", "you hold no 7"),
    ("samba", "add 7", "your side has no meld of 7s"),
    ("samba", "meld 7 7 7", "you hold no 7"),
    ("samba", "combine hearts#1 hearts#2", "never joined"),  # samba digest A8
    ("hoyle-1950", "discard 7h", "no suits in this variant"),
    ("hoyle-1950", "meld 5h 6h 7h", "no suits in this variant"),
    ("hoyle-1950", "add 8h to hearts", "no sequences"),
])
def test_suits_named_where_the_variant_has_none_or_missing_where_it_has(variant: str, action: str,
                                                                          words_part: str) -> None:
    v = SAMBA if variant == "samba" else variant
    st = canasta.new_game(v, players=4, seed=1).apply(canasta.parse_action("draw"))
    why_text = st.why_illegal(canasta.parse_action(action))
    assert why_text is not None and words_part in why_text


def test_brazilian_stock_exhausted_player_without_a_yes_takes_or_the_hand_ends() -> None:
    # brazilian 6.1 with the 1950 laws' exhausted stock (hoyle rule 35: the hand ends when the
    # player in turn cannot take the pile): a player who may not go out, having heard no yes,
    # cannot take a one-card pile onto a meld holding his last card, so the hand ends there
    # (seed 225 of brazilian 6 left him to act with no legal action)
    R = rules_for(VARIANTS["brazilian"], 6)
    for _c, _a, n in playout(R, 225, sample=0):
        if n.phase < PH_HAND_OVER:
            assert legal_ids(n)
