"""Suits in observations, the encoder, the sampler and the environments (issue 11).

Samba (the bundled ``samba``, rule numbers of the digest ../shared/rules/beyond/samba.md)
is played through the public layers on seeded random playouts, and checked at every few steps:

* an observation round-trips through ``to_dict`` / ``to_json``, shows the player's own cards
  with their suits (59 counts: per kind, then per suited card) and the pile's top card with
  its suit, and sequences with their cards (samba 4.3);
* changing cards the player cannot see (other hands, the stock's order) never changes his
  observation;
* the encoder's suited layout has the documented shape and places (1,568 numbers for four
  players), and the environments' fast vector equals the encoder's;
* ``resample`` / ``sample_state`` draw the hidden cards as card codes from the suited deck
  (samba 1.3: three packs, so each suited natural three times), never placing a suited card
  the player saw on the table or in the pile into a hidden hand.

Variants without suits keep their observations, layouts and samples exactly (the suitless
tests in test_observation.py, test_resample.py and test_envs.py run unchanged).
"""

from __future__ import annotations

import json
import random
from typing import Iterator

import pytest

import canasta
from canasta import GameState, Observation, ObservationEncoder, observation, sample_state
from canasta._cards import CODE_TOKENS, KIND_OF, N_CODES, N_KINDS, SUIT_OF, WILD_RANK, card_code
from canasta._core._rules import SEQ
from canasta._encoder import SUITED_CARDS, pile_discards
from canasta._resample import _dealt_pile
from canasta._knowledge import knowledge
from canasta._state import _replace

from test_core_sequences import SAMBA

PUBLIC = ("variant", "players", "seat", "side", "side_of", "hand_number", "dealer", "totals",
          "current_player", "phase", "hand", "down_hand_size", "hand_sizes", "down_hand_sizes", "melds",
          "red_threes", "opened", "melded", "initial_need", "pile_size", "pile_top", "frozen",
          "stock_size", "turn", "took_last", "last_turns", "active", "precise", "result", "winners")


def playout(players: int, seed: int, steps: int = 400) -> Iterator[GameState]:
    """The states of a seeded random Samba hand, eager to meld (so sequences and groups form)."""
    rng = random.Random(seed)
    state = canasta.new_game(SAMBA, players, seed=seed)
    for _ in range(steps):
        yield state
        if state.is_hand_over:
            return
        acts = state.legal_actions()
        melding = [a for a in acts if isinstance(a, (canasta.Meld, canasta.Add, canasta.Take))]
        state = state.apply(rng.choice(melding) if melding and rng.random() < 0.7 else rng.choice(acts))


def code_counts(state: GameState) -> list[int]:
    """Every card of the state per card code, the groups' naturals left out (their suits are
    not on the table's record): hands, down hands, stock, pile, a pile set aside, sequences,
    the groups' wild cards, melded black threes, faced red threes."""
    counts = [0] * N_CODES
    for hand in state.hands + state.down_hands:
        for k in range(N_CODES):
            if not 4 <= k < N_KINDS:
                counts[k] += hand[k]
    for k in state.stock + state.pile + state.turn.pending:
        counts[k] += 1
    for side in state.melds:
        for m in side:
            if m.rank >= SEQ:
                for r in range(m.low, m.low + m.naturals):
                    counts[card_code(r, m.rank - SEQ)] += 1
            elif m.rank == 3:  # black threes (samba: melded when going out)
                counts[3] += m.naturals
            counts[0] += m.jokers
            counts[1] += m.twos
    counts[2] += sum(state.red_threes)
    return counts


def group_naturals(state: GameState) -> list[int]:
    """The naturals in the table's groups of four to ace, per kind."""
    out = [0] * N_KINDS
    for side in state.melds:
        for m in side:
            if 4 <= m.rank < N_KINDS:
                out[m.rank] += m.naturals
    return out


STATES = [(seed, i, st) for seed in (1, 2, 3) for i, st in enumerate(playout(4, seed)) if i % 9 == 0]


def test_samba_playouts_reach_sequences() -> None:
    """The playouts below are worth checking: they meld sequences (samba 4.3) and groups."""
    finals = [st for _, _, st in STATES]
    assert any(m.rank >= SEQ for st in finals for side in st.melds for m in side)
    assert any(SEQ > m.rank >= 4 for st in finals for side in st.melds for m in side)


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_observation_shows_own_suited_cards_and_round_trips(seed: int) -> None:
    """The player's hand is 59 counts (per kind, then per suited card: the kinds are the sums),
    the hand sizes count cards once, the pile's top is a card code with its suit, sequences are
    TableMelds of rank 16 + suit from ``low`` (samba 4.3); ``to_dict`` uses the suited tokens
    and reads back equal."""
    for s, i, state in STATES:
        if s != seed:
            continue
        for p in range(4):
            obs = observation(state, p)
            assert obs.suited and len(obs.hand) == N_CODES
            assert obs.hand == state.hands[p]
            for r in range(4, N_KINDS):
                assert obs.hand[r] == sum(obs.hand[card_code(r, u)] for u in range(4))
            assert obs.hand_size == sum(obs.hand[:N_KINDS]) == obs.hand_sizes[p]
            assert sum(obs.hand_sizes) == sum(sum(h[:N_KINDS]) for h in state.hands)
            if obs.pile_top is not None:
                assert obs.pile_top < 4 or obs.pile_top >= N_KINDS  # a natural carries its suit
            data = obs.to_dict()
            assert data["cards"] == list(CODE_TOKENS)
            assert len(data["hand"]) == N_CODES
            for side in data["melds"]:
                for m in side:
                    if m["rank"] >= SEQ:
                        suit = m["rank"] - SEQ
                        assert m["text"] == " ".join(CODE_TOKENS[card_code(r, suit)]
                                                     for r in range(m["low"], m["low"] + m["naturals"]))
                    else:
                        assert m["low"] == 0
            back = Observation.from_dict(json.loads(json.dumps(data)))
            assert back == obs
            assert back.legal_action_ids == obs.legal_action_ids
            assert Observation.from_json(obs.to_json()) == obs


def test_hidden_cards_do_not_change_an_observation() -> None:
    """What a player cannot see (the other hands' cards, the stock's order) is not in his
    observation: exchanging a card between another hand and the stock, or shuffling the
    stock, leaves it equal."""
    rng = random.Random(5)
    checked = 0
    for _, i, state in STATES:
        if state.is_hand_over or not state.stock:
            continue
        p = rng.randrange(4)
        q = (p + 1 + rng.randrange(3)) % 4
        obs = observation(state, p)
        stock = list(state.stock)
        rng.shuffle(stock)
        assert observation(_replace(state, stock=tuple(stock)), p) == obs
        hand = list(state.hands[q])
        out = next((c for c in range(N_KINDS, N_CODES) if hand[c]), None)
        into = next((j for j, c in enumerate(stock) if c >= N_KINDS and c != out), None)
        if out is None or into is None:
            continue
        came = stock[into]
        stock[into] = out
        hand[out] -= 1
        hand[KIND_OF[out]] -= 1
        hand[came] += 1
        hand[KIND_OF[came]] += 1
        hands = list(state.hands)
        hands[q] = tuple(hand)
        other = _replace(state, hands=tuple(hands), stock=tuple(stock))
        assert other.hands[q] != state.hands[q]
        assert observation(other, p) == obs
        assert observation(other, q) != observation(state, q)  # (the owner does see it)
        checked += 1
    assert checked >= 5


def test_the_suited_encoder_layout_for_samba_four() -> None:
    """The suited layout (ObservationEncoder docs): 48 card codes for the own hand, the pile's
    top and its discards; groups per rank as in every layout; a sequences block per side, suit
    and slot as a mask over four to ace (samba 4.3: four lowest, ace highest); the cards known in
    each other hand per card code. 1,713 numbers (layout version 2)."""
    enc = ObservationEncoder(SAMBA, 4)
    assert enc.suited and enc.card_codes == SUITED_CARDS and len(SUITED_CARDS) == 48
    assert enc.size == 1713
    shapes = {seg.name: seg.shape for seg in enc.layout}
    assert shapes["own_hand"] == (48,) and shapes["pile_top"] == (48,) and shapes["pile_discards"] == (48,)
    assert shapes["melds"] == (2, 12, 6, 4)
    assert shapes["sequences"] == (2, 4, 9, 11) and enc.sequence_slots == 9
    assert enc.sequence_ranks == tuple(range(4, 15))
    names = [seg.name for seg in enc.layout]
    assert names.index("sequences") == names.index("melds") + 1
    assert sum(seg.length for seg in enc.layout) == enc.size
    # the suitless layouts are unchanged
    plain = ObservationEncoder("hoyle-1950", 4)
    assert not plain.suited and plain.card_codes == tuple(range(15)) and plain.sequence_slots == 0
    assert "sequences" not in [seg.name for seg in plain.layout] and plain.segment("own_hand").shape == (15,)


def test_the_suited_encoder_places_cards_and_sequences() -> None:
    """Each number of the suited vector is where the layout says: own cards by code, the
    pile's top as a one-hot of its code, each sequence's ranks in its suit's slot."""
    enc = ObservationEncoder(SAMBA, 4)
    index = {c: i for i, c in enumerate(SUITED_CARDS)}
    seen_sequence = False
    for _, i, state in STATES:
        for p in range(4):
            obs = observation(state, p)
            parts = enc.split(enc.encode(obs))
            assert parts["own_hand"] == [float(obs.hand[c]) for c in SUITED_CARDS]
            assert sum(parts["own_hand"]) == obs.hand_size
            top = [0.0] * 48
            if obs.pile_top is not None:
                top[index[obs.pile_top]] = 1.0
            assert parts["pile_top"] == top
            assert parts["pile_discards"] == [float(pile_discards(obs)[c]) for c in SUITED_CARDS]
            seqs = parts["sequences"]
            sides = enc.relative_sides(p)
            for si, side in enumerate(sides):
                slot = [0, 0, 0, 0]
                for m in obs.melds[side]:
                    if m.rank < SEQ:
                        continue
                    suit = m.rank - SEQ
                    base = ((si * 4 + suit) * 9 + slot[suit]) * 11
                    slot[suit] += 1
                    row = seqs[base: base + 11]
                    assert row == [1.0 if m.low <= r < m.low + m.naturals else 0.0 for r in range(4, 15)]
                    seen_sequence = True
                assert sum(seqs[si * 396: (si + 1) * 396]) == sum(
                    m.naturals for m in obs.melds[side] if m.rank >= SEQ)
    assert seen_sequence


def test_resample_draws_codes_from_the_suited_deck() -> None:
    """``state.resample``: the player's observation unchanged (and his legal actions), every
    suited card of the deck exactly where the deck has it (samba 1.3: each suited natural three
    times, six jokers), the seen cards in place, and the groups' suits the history shows kept
    out of the hidden places."""
    R = STATES[0][2]._rules
    deck = R.deck_codes
    assert deck[card_code(7, 2)] == 3 and deck[0] == 6 and sum(deck[N_KINDS:]) == 132
    for seed, i, state in STATES:
        for p in range(4):
            r = state.resample(p, random.Random(seed * 1000 + i))
            obs = observation(state, p)
            assert observation(r, p) == obs
            if state.current_player == p:
                assert r.legal_actions() == state.legal_actions()
            assert r.hands[p] == state.hands[p] and r.pile == state.pile
            for h in r.hands:
                for k in range(4, N_KINDS):
                    assert h[k] == sum(h[card_code(k, u)] for u in range(4))
            know = knowledge(obs, R, upcards=_dealt_pile(state))
            assert know.groups is not None
            # the groups' naturals the history names, with their suits: every group natural
            assert sum(know.groups) == sum(group_naturals(state))
            got = code_counts(r)
            for c in range(N_CODES):
                if not 4 <= c < N_KINDS:
                    assert got[c] + know.groups[c] == deck[c], (CODE_TOKENS[c], got[c], know.groups[c])
            # the true state holds the same: the history's suits are the true ones
            truth = code_counts(state)
            assert all(truth[c] + know.groups[c] == deck[c] for c in range(N_CODES) if not 4 <= c < N_KINDS)
            # no hidden card leaks: the same random numbers give the same sample from either state
            assert (r.resample(p, random.Random(7)) == state.resample(p, random.Random(7)))


def test_sample_state_agrees_with_a_samba_observation() -> None:
    """``sample_state`` from the observation alone: its public fields, the cards per code
    (without the dealt pile, the groups' unseen suits drawn among the unseen cards), the legal
    actions with the dealt pile given as upcards (card codes), and the same sample for the same
    random numbers."""
    R = STATES[0][2]._rules
    for seed, i, state in STATES:
        p = (seed + i) % 4
        obs = observation(state, p)
        for upcards in (_dealt_pile(state), None):
            s = sample_state(obs, random.Random(i), SAMBA, upcards=upcards)
            got = observation(s, p)
            for field in PUBLIC:
                assert getattr(got, field) == getattr(obs, field), field
            assert [ev.action for ev in got.history] == [ev.action for ev in obs.history]
            counts = code_counts(s)
            groups = group_naturals(s)
            for k in range(4, N_KINDS):
                assert sum(counts[card_code(k, u)] for u in range(4)) + groups[k] == R.deck[k]
            assert all(counts[c] <= R.deck_codes[c] for c in range(N_CODES))
            assert s.pile[-1:] == state.pile[-1:] and len(s.pile) == len(state.pile)
            if upcards is not None:
                assert s.pile == state.pile
                if state.current_player == p:
                    assert s.legal_actions() == state.legal_actions()
            assert sample_state(obs, random.Random(i), SAMBA, upcards=upcards) == s


def test_sample_state_refuses_upcards_without_suits() -> None:
    """In a variant with suits an upcard is a card code: a bare kind 4-14 is refused."""
    state = STATES[0][2]
    obs = observation(state, 0)
    with pytest.raises(ValueError, match="upcards: 7 is a card kind without a suit"):
        sample_state(obs, random.Random(0), SAMBA, upcards=[7])


def test_suits_of_a_code() -> None:
    """(the codes the tests above rely on) 7h is code 4 * 7 - 1 + 2."""
    assert card_code(7, 2) == 29 and KIND_OF[29] == 7 and SUIT_OF[29] == 2 and CODE_TOKENS[29] == "7h"


def test_the_environments_vector_is_the_encoders_for_samba() -> None:
    """The fast vector of the environments (StateEncoder) equals the encoder's on Samba."""
    pytest.importorskip("numpy")
    from canasta.envs._encode import StateEncoder

    enc = ObservationEncoder(SAMBA, 4)
    fast = StateEncoder(enc)
    for _, i, state in STATES:
        for p in range(4):
            assert fast.encode(state, p).tolist() == enc.encode_array(observation(state, p)).tolist()


def test_pettingzoo_and_gymnasium_play_samba() -> None:
    """The environments take the Samba Variant: the mask is the variant's action space (1,703
    ids with four players), and PettingZoo's api_test passes."""
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from canasta import envs

    env = envs.pettingzoo_env(SAMBA, 4)
    api_test(env, num_cycles=300)
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"].shape == (1703,) and obs["observation"].shape == (1713,)
    gym = envs.gymnasium_env(SAMBA, 4, opponents="random")
    o, _ = gym.reset(seed=4)
    assert o["action_mask"].shape == (1703,) and o["observation"].shape == (1713,)
    for _ in range(50):
        ids = o["action_mask"].nonzero()[0]
        o, _, done, trunc, _ = gym.step(int(ids[0]))
        if done or trunc:
            break


# =============================================================== bolivia and brazilian


def variant_playout(name: str, players: int, seed: int, steps: int = 600,
                    lengthen: bool = False) -> Iterator[GameState]:
    """The states of a seeded random hand of ``name``, eager to meld (as :func:`playout`);
    ``lengthen``: eager above all to ask to go out, to say yes and to add to sequences."""
    rng = random.Random(seed)
    state = canasta.new_game(name, players, seed=seed)
    for _ in range(steps):
        yield state
        acts = state.legal_actions()
        if state.is_hand_over or not acts:
            return
        eager = [a for a in acts if isinstance(a, canasta.Ask) or (isinstance(a, canasta.Answer) and a.yes)
                 or (isinstance(a, canasta.Add) and a.rank >= SEQ)] if lengthen else []
        melding = [a for a in acts if isinstance(a, (canasta.Meld, canasta.Add, canasta.Take))]
        if eager and rng.random() < 0.9:
            state = state.apply(rng.choice(eager))
        else:
            state = state.apply(rng.choice(melding) if melding and rng.random() < 0.7 else rng.choice(acts))


def _wild_melds(state: GameState) -> bool:
    return any(m.rank == WILD_RANK for side in state.melds for m in side)


def _past_seven(state: GameState) -> bool:
    return any(m.rank >= SEQ and m.naturals > 7 for side in state.melds for m in side)


def check_public_layers(state: GameState) -> None:
    """Every public layer on one state of a suited variant: the observation round-trips, the
    encoder places each group (wild-card melds in the ``WILD_RANK`` row) and each sequence
    (its ranks marked once, however long) where the layout says, the environments' fast
    vector is the encoder's, and ``resample`` / ``sample_state`` keep what the player saw and
    every card per code."""
    name, players = state.variant.name, state.players
    enc = ObservationEncoder(name, players)
    R = state._rules
    deck = R.deck_codes
    upcards = _dealt_pile(state)
    m_slots = enc.max_melds_per_rank
    q, width = enc.sequence_slots, len(enc.sequence_ranks)
    for p in range(players):
        obs = observation(state, p)
        assert Observation.from_dict(json.loads(json.dumps(obs.to_dict()))) == obs
        parts = enc.split(enc.encode(obs))
        melds, seqs = parts["melds"], parts["sequences"]
        for si, side in enumerate(enc.relative_sides(p)):
            seen: dict[int, int] = {}
            for m in obs.melds[side]:
                if m.rank >= SEQ:
                    suit = m.rank - SEQ
                    base = ((si * 4 + suit) * q + seen.get(m.rank, 0)) * width
                    row = seqs[base: base + width]
                    assert row == [1.0 if m.low <= r < m.low + m.naturals else 0.0 for r in enc.sequence_ranks]
                else:
                    ri = enc.meld_ranks.index(m.rank)
                    base = ((si * len(enc.meld_ranks) + ri) * m_slots + seen.get(m.rank, 0)) * 4
                    assert melds[base: base + 4] == [m.naturals, m.jokers, m.twos, float(m.red_three)]
                seen[m.rank] = seen.get(m.rank, 0) + 1
            assert sum(seqs[si * 4 * q * width: (si + 1) * 4 * q * width]) == sum(
                m.naturals for m in obs.melds[side] if m.rank >= SEQ)
        try:
            from canasta.envs._encode import StateEncoder
        except ImportError:  # (numpy missing)
            pass
        else:
            assert StateEncoder(enc).encode(state, p).tolist() == enc.encode_array(obs).tolist()
        # resample: the observation kept, every card per code (the groups' suits by the history)
        r = state.resample(p, random.Random(p))
        assert observation(r, p) == obs
        if state.current_player == p:
            assert r.legal_actions() == state.legal_actions()
        know = knowledge(obs, R, upcards=upcards)
        assert know.groups is not None and sum(know.groups) == sum(group_naturals(state))
        got = code_counts(r)
        assert all(got[c] + know.groups[c] == deck[c] for c in range(N_CODES) if not 4 <= c < N_KINDS)
        # sample_state from the observation alone
        s = sample_state(obs, random.Random(p), name, upcards=upcards)
        got_obs = observation(s, p)
        for field in PUBLIC:
            assert getattr(got_obs, field) == getattr(obs, field), field
        assert s.pile == state.pile
        if state.current_player == p:
            assert s.legal_actions() == state.legal_actions()
        got = code_counts(s)
        assert all(got[c] + know.groups[c] == deck[c] for c in range(N_CODES) if not 4 <= c < N_KINDS)


@pytest.mark.slow  # two seeded bolivia games; the fast selection has samba's
def test_bolivia_wild_card_melds_in_every_public_layer() -> None:
    """bolivia 4.2: a meld of wild cards only (rank ``WILD_RANK``, jokers and twos, no
    naturals) is a group like any other: the encoder has its row, the sampler counts its cards
    (seed 6 melds one at its seventh action)."""
    states = list(variant_playout("bolivia", 4, 6))
    first = next(i for i, st in enumerate(states) if _wild_melds(st))
    enc = ObservationEncoder("bolivia", 4)
    assert WILD_RANK in enc.meld_ranks
    for st in states[first::12] + states[-1:]:
        assert _wild_melds(st)
        check_public_layers(st)


def test_brazilian_sequence_past_seven_in_every_public_layer() -> None:
    """brazilian 4.2: in the turn its player goes out an escalera may pass seven cards (seed
    191 asks, hears yes, makes one of eight and goes out): the sequences segment marks each of
    its ranks once (a mask over four to ace holds any sequence), the sampler keeps its cards."""
    states = list(variant_playout("brazilian", 4, 191, lengthen=True))
    first = next(i for i, st in enumerate(states) if _past_seven(st))
    long = [m for side in states[first].melds for m in side if m.rank >= SEQ and m.naturals > 7]
    assert long and ObservationEncoder("brazilian", 4).size == 1761
    for st in states[first - 1:]:
        check_public_layers(st)
    assert _past_seven(states[-1]) and states[-1].is_hand_over


def test_the_encoder_refuses_a_sequence_outside_its_ranks() -> None:
    """A hand-built observation whose sequence is not within the variant's sequence ranks (here
    a variant whose sequences run five to ace) is refused, not encoded wrong (its marks would
    land in another slot); a sequence of every rank fills its row."""
    import attrs

    from canasta._fields import TableMeld
    from canasta._variant_load import variant_from_dict, variant_to_dict

    data = variant_to_dict(SAMBA)
    data["name"] = "samba-from-five"
    data["melds"]["sequences"]["lowest"] = "five"
    five = variant_from_dict(data)
    state = canasta.new_game(five, 4, seed=1)
    obs = observation(state, 0)
    enc = ObservationEncoder(five, 4)
    assert enc.sequence_ranks == tuple(range(5, 15))
    for bad in (TableMeld(SEQ + 1, 3, low=4), TableMeld(SEQ + 2, 0, low=5)):
        odd = attrs.evolve(obs, melds=((bad,),) + obs.melds[1:])
        with pytest.raises(ValueError, match="not an observation play can give .*not within ranks 5 to 14"):
            enc.encode(odd)
    ok = attrs.evolve(obs, melds=((TableMeld(SEQ + 2, 10, low=5),),) + obs.melds[1:])
    q = enc.sequence_slots
    row = enc.split(enc.encode(ok))["sequences"][2 * q * 10: 2 * q * 10 + 10]
    assert row == [1.0] * 10  # (every rank of hearts: the longest sequence there is)
