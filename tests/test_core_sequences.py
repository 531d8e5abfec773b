"""Suited cards and sequence melds in the rules core (issue 11, first part).

``samba`` is Samba as the digest states it (../shared/rules/beyond/samba.md, whose rule numbers
the tests cite: Bicycle and the Official Canasta Laws, then HowStuffWorks); ``bolivia`` and
``brazilian`` extend it (bolivia.md, brazilian.md). These tests drive the core directly: seeded
random playouts checking, at every step, the rules that a sequence variant adds, and that the
variants without sequences keep their suitless cards.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Optional

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


def melding(R: Rules, rng: random.Random, ids: list[int]) -> int:
    """A random choice that prefers melding a little, so that sequences and canastas form."""
    melds = [i for i in ids if R.specs[i][0] in (MELD, ADD)]
    return rng.choice(melds) if melds and rng.random() < 0.7 else rng.choice(ids)


def is_sequence_play(R: Rules, i: int) -> bool:
    """Whether action ``i`` melds a sequence, adds to one or takes the pile onto one."""
    sp = R.specs[i]
    return ((sp[0] == MELD and len({KIND_OF[k] for k in sp[4] if k >= 15}) > 1)
            or (sp[0] == ADD and sp[2] >= SEQ) or (sp[0] == TAKE and sp[2] == W_ONTO and sp[1] >= SEQ))


def sequence_seeking(R: Rules, rng: random.Random, ids: list[int]) -> int:
    """A random choice that builds sequences (nine times in ten when it can), else melds: its
    hands end with sambas, with short sequences, and with the pile taken onto sequences."""
    seqs = [i for i in ids if is_sequence_play(R, i)]
    return rng.choice(seqs) if seqs and rng.random() < 0.9 else melding(R, rng, ids)


def playout(R: Rules, seed: int, hands: int = 1, sample: int = 8, choose=melding):  # type: ignore[no-untyped-def]
    """Yield (position before, action id, position after) of a seeded random game whose
    actions ``choose(R, rng, legal ids)`` picks."""
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
        a = choose(R, rng, ids)
        n = apply_id(c, a)
        yield c, a, n
        c = n


def test_the_bundled_variants_with_suits_are_the_sequence_variants() -> None:
    # issue 11: "variants with sequences track suits"
    suited = {n for n in canasta.variant_names()
              if rules_for(canasta.load_variant(n), canasta.load_variant(n).default_players).suited}
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
    for c, a, n in playout(R, seed):
        check_transition(name, R, c, a, n)


def check_legal(R: Rules, c: Core, hits: Counter[str]) -> None:
    """The legal actions of a position keep the suited rules of taking and adding, whichever
    one is played (samba 3.5, 3.6, 4.4, 4.7; bolivia 5.1)."""
    if c.phase >= PH_HAND_OVER:
        return
    side = R.side_of[c.player]
    top = pile_cards(c)[-1] if c.phase == PH_DRAW and c.pile is not None and pile_cards(c) else None
    for m in c.melds[side]:
        # the positions where these rules refuse something (counted, to be sure they arise)
        if size(m) >= 7 and top is not None and top >= 15:
            if m[0] >= SEQ and SUIT_OF[top] == seq_suit(m[0]) and KIND_OF[top] in (seq_low(m[0]) - 1, seq_low(m[0]) + 7):
                hits["the top card would lengthen a samba"] += 1
            elif m[0] == KIND_OF[top]:
                hits["the top card matches a group canasta"] += 1
        if size(m) >= 7 and m[0] < SEQ and c.phase != PH_DRAW and c.hands[c.player][0] + c.hands[c.player][1]:
            hits["a wild card in hand and a canasta on the table"] += 1
    for i in legal_ids(c):
        sp = R.specs[i]
        if sp[0] == TAKE and sp[2] == W_ONTO:
            top = pile_cards(c)[-1]
            same = [m for m in c.melds[side] if meld_key(m[0]) == sp[1]]
            m = same[sp[3] - 1]
            if sp[1] >= SEQ:
                # samba 3.5: the unfrozen pile taken onto "a sequence of fewer than seven whose
                # end the top card extends (same suit, next rank)"; 4.4: a samba takes no more
                assert SUIT_OF[top] == sp[1] - SEQ and KIND_OF[top] in (seq_low(m[0]) - 1, seq_low(m[0]) + m[1])
                assert m[1] < 7, ("the pile taken onto a samba", m)
                hits["pile may be taken onto a sequence"] += 1
            else:
                # samba 3.5, 3.6: onto "a group of fewer than seven", never a completed canasta
                assert m[1] + m[2] + m[3] < 7, ("the pile taken onto a canasta", m)
                hits["pile may be taken onto a group"] += 1
        elif sp[0] == ADD and sp[1] <= 1:
            # samba 4.7 (OCL): no wild card is added to a completed canasta (bolivia 5.1: nor
            # to a bolivia, closed at seven)
            same = [m for m in c.melds[side] if meld_key(m[0]) == sp[2]]
            m = same[sp[3] - 1]
            assert m[1] + m[2] + m[3] < 7, ("a wild card added to a canasta", m)
            hits["a wild card may be added"] += 1
        elif sp[0] == ADD and sp[2] >= SEQ:
            # samba 4.3, 4.4: a sequence grows at an end, in its suit, to seven (brazilian 4.2:
            # more in the turn of going out)
            same = [m for m in c.melds[side] if meld_key(m[0]) == sp[2]]
            m = same[sp[3] - 1]
            assert SUIT_OF[sp[1]] == sp[2] - SEQ and KIND_OF[sp[1]] in (seq_low(m[0]) - 1, seq_low(m[0]) + m[1])
            assert m[1] < 7 or R.seq_past_max, ("a card added to a samba", m)
            hits["a card may be added to a sequence"] += 1


def size(m: tuple) -> int:  # type: ignore[type-arg]
    """The cards of a meld on the table."""
    return m[1] + m[2] + m[3]


def check_transition(name: str, R: Rules, c: Core, a: int, n: Core, hits: Optional[Counter[str]] = None) -> None:
    """samba.md, and bolivia.md / brazilian.md for their changes: the rules a sequence variant
    adds, checked on one step (position ``c``, action ``a``, position ``n``) of a playout.
    ``hits`` counts the checks that had something to check. A canasta is a meld of seven
    cards or more (samba 4.4, 5.1; a group of seven holds at most two wild cards, 4.1)."""
    hits = Counter() if hits is None else hits
    check_step(R, n)
    check_legal(R, c, hits)
    assert per_kind(R, n) == list(R.deck), "cards are conserved"
    sp = R.specs[a]
    side = R.side_of[c.player]
    if name == "brazilian" and sp[0] == TAKE:
        # brazilian 3.1: the pile is never taken for the side's initial meld
        assert c.opened[side]
        hits["brazilian: pile taken by an opened side"] += 1
    if n.phase not in (PH_HAND_OVER, PH_GAME_OVER) or n.result is None:
        return
    res = n.result
    hits["hand ends"] += 1
    need = 1 if name == "brazilian" else 2  # brazilian 7.5: one canasta suffices
    for s in range(R.n_sides):
        rows = {row[0]: row[2] for row in res.scores[s]}
        sambas = sum(1 for m in n.melds[s] if m[0] >= SEQ and m[1] >= 7)
        canastas = sum(1 for m in n.melds[s] if size(m) >= 7)
        # samba 5.1: a samba scores 1,500
        assert rows.get("sequence canastas", 0) == 1500 * sambas
        hits["sambas scored"] += sambas
        if "red threes" in rows:
            assert canastas >= need  # samba 7.3: plus only with two canastas
            hits["red threes plus"] += 1
        if "red threes (too few canastas)" in rows:
            assert canastas < need and rows["red threes (too few canastas)"] < 0
            hits["red threes minus"] += 1
        lengths = [m[1] for m in n.melds[s] if m[0] >= SEQ]
        short = sum(1 for k in lengths if k < 5)
        if name == "brazilian":
            # brazilian 7.3: "a sequence of fewer than five cards" loses 1,000 (each: A5)
            assert rows.get("short sequences", 0) == -1000 * short
            hits["brazilian: short sequences scored"] += short
            hits["brazilian: a sequence of four at the end"] += lengths.count(4)
            hits["brazilian: a sequence of five at the end"] += lengths.count(5)
        else:
            assert "short sequences" not in rows  # samba, bolivia: no such penalty
        held = sum(n.hands[p][3] for p in R.members[s])
        wild = sum(1 for m in n.melds[s] if m[0] == 15 and m[2] + m[3] >= 7)
        if name == "samba":
            assert "black threes in hand" not in rows and wild == 0  # samba 4.2: no wild meld
        else:
            # bolivia 7.3 (brazilian 7.6: as Bolivia): a black three caught in a hand counts
            # -100 (not also its 5)
            assert rows.get("black threes in hand", 0) == -100 * held
            hits["black threes caught in hand"] += held
            # bolivia 5.1: a bolivia (seven wild cards) scores 2,500; brazilian 5.1: 2,000
            assert rows.get("wild canastas", 0) == (2500 if name == "bolivia" else 2000) * wild
            hits["wild canastas scored"] += wild
    if res.went_out >= 0:
        # samba 6.1: two canastas to go out, sambas included
        s = R.side_of[res.went_out]
        assert sum(1 for m in n.melds[s] if size(m) >= 7) >= 2
        hits["went out"] += 1
        # samba 7.1: going out 200
        assert dict((row[0], row[2]) for row in res.scores[s]).get("going out") == 200
        if name == "bolivia":
            # bolivia 6.1: one of them an escalera
            assert any(m[0] >= SEQ and m[1] >= 7 for m in n.melds[s])
        if name == "brazilian" and R.permission and res.went_out == c.player:
            # brazilian 6.1: only after asking the partner and hearing yes
            assert c.flags & F_YES


SEEDED_GAMES = 12
HITS_NEEDED = {
    "pile may be taken onto a sequence": 3, "pile may be taken onto a group": 10,
    "a card may be added to a sequence": 10, "a wild card may be added": 10,
    "the top card would lengthen a samba": 1, "the top card matches a group canasta": 1,
    "a wild card in hand and a canasta on the table": 10,
    "hand ends": SEEDED_GAMES, "sambas scored": 3, "red threes plus": 3, "red threes minus": 1,
    "went out": 2,
}
"""How often each check of :func:`check_transition` must have had something to check in the
seeded games of a variant at its usual table, four players (the games are fixed: the counts
change only with the rules). At the other tables only ``EVERY_TABLE``'s are required."""
EVERY_TABLE = ("pile may be taken onto a sequence", "pile may be taken onto a group",
               "a card may be added to a sequence", "a wild card may be added",
               "a wild card in hand and a canasta on the table", "hand ends", "sambas scored")
HITS_NEEDED_BY_VARIANT = {
    "bolivia": {"black threes caught in hand": 3},
    "brazilian": {"black threes caught in hand": 3, "brazilian: pile taken by an opened side": 10,
                  "brazilian: short sequences scored": 3,
                  # the edges of brazilian 7.3's "fewer than five cards"
                  "brazilian: a sequence of four at the end": 1, "brazilian: a sequence of five at the end": 1},
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("players", TABLES)
def test_suited_rules_are_checked_in_seeded_games(name: str, players: int) -> None:
    """The checks of :func:`check_transition` run on seeded hands played to build sequences
    (:func:`sequence_seeking`), and each of them must have had something to check a minimum
    number of times (at four players): sambas formed and scored (samba 5.1), the pile taken or
    refused onto sequences and canastas (3.5, 3.6, 4.4), wild cards added or refused (4.7),
    hands gone out (6.1), red threes counted both ways (7.3), Brazilian's short sequences at
    both edges of "fewer than five" (7.3) and black threes caught in hand (bolivia 7.3)."""
    R = rules_for(VARIANTS[name], players)
    hits: Counter[str] = Counter()
    for seed in range(SEEDED_GAMES):
        for c, a, n in playout(R, seed, choose=sequence_seeking):
            check_transition(name, R, c, a, n, hits)
    need = {**HITS_NEEDED, **HITS_NEEDED_BY_VARIANT.get(name, {})}
    if players != 4:
        need = {check: min(count, 1) for check, count in need.items() if check in EVERY_TABLE}
    short = {check: f"{hits[check]} < {count}" for check, count in need.items() if hits[check] < count}
    assert not short, f"{name}-{players}: checks that ran too seldom: {short}"


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
    from canasta._variant_load import variant_from_dict, variant_to_dict
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
