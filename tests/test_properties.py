"""Property tests: random seeded playouts of every bundled variant at every table size it allows.

Each example deals a game from a hypothesis-chosen seed and plays it with a random policy seeded
by the same number (the seed also picks how strongly it prefers takes and melds, so that hands end
by going out as well as by the stock running out), crossing hand boundaries with ``next_hand()``,
for a bounded number of actions. At every step it checks the engine's promises and the rules that
hold in every position:

* every legal action applies, by value, by id and by notation, to equal states; the list has no
  duplicates, is deterministic, and no two of its actions have the same effect;
* somebody is to act exactly when there is a legal action (no dead ends);
* the cards of the deck are all somewhere, exactly once;
* actions that are not legal are refused with a reason;
* applying never changes the state it is applied to;
* when a hand ends: the scores add up, move the totals, and give the going-out bonuses only to
  the side that went out; a finished game names the leaders as winners;
* ``next_hand()`` keeps the totals and passes the deal on;
* the same seed plays the same game.

The same playouts run once more with the game target lowered, so that games end within the cap.
A failure names the variant, table size, seed and the actions that led to it.

Example counts come from the hypothesis profile (``tests/conftest.py``): set
``HYPOTHESIS_PROFILE=thorough`` for ten times as many playouts.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Iterator, Optional, Union

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import (
    Action,
    Add,
    Combine,
    GameState,
    IllegalActionError,
    Meld,
    Phase,
    Take,
    Variant,
    load_variant,
    new_game,
    parse_action,
    variant_names,
)
from canasta._cards import KIND_OF, N_CODES, N_KINDS, SEQUENCE_RANK, SUIT_OF, WILD_RANK, Card, card_code
from canasta._position import load_position
from canasta._state import _replace
from canasta._variant_terms import RANK_OF

# ---------------------------------------------------------------- parameters

PAIRS = [
    (name, players)
    for name in sorted(variant_names())
    for players in sorted(int(k) for k in load_variant(name).tables)
]
"""Every bundled variant at every player count its tables allow."""
CASES = [pytest.param(name, players, id=f"{name}-{players}") for name, players in PAIRS]

BASE_ACTIONS = 400
"""Actions per playout; more where one hand is longer (see :func:`action_cap`)."""

# The ci profile (max_examples=100) gives PLAYOUT_BASE playouts per case; thorough gives 10x.
PLAYOUT_BASE = 10
PLAYOUT_EXAMPLES = max(1, round(PLAYOUT_BASE * settings().max_examples / 100))
SAME_SEED_EXAMPLES = max(1, PLAYOUT_EXAMPLES // 3)
PURPOSEFUL_EXAMPLES = max(1, PLAYOUT_EXAMPLES // 10)
"""Playouts per case with purposeful seats (greedy, mixed, askers): one in the dev and ci profiles,
ten when thorough (benchmarks/soak.py --seats plays them by the thousand)."""
PURPOSEFUL_SEATS = ("greedy", "mixed", "asker")
"""``helpers.SEAT_KINDS``: the purposeful seatings."""

ILLEGAL_SAMPLES = 2
"""Illegal actions tried at each step of a checked playout."""

SEEDS = st.integers(0, 2**32 - 1)
HAND_OVER = (Phase.HAND_OVER, Phase.GAME_OVER)
PROGRESS = (Take, Meld, Add, Combine)


def action_cap(state: GameState) -> int:
    """Actions a playout may take: 400, or enough for about one whole hand at a big table."""
    return max(BASE_ACTIONS, 2 * len(state.stock))


BIASES = (0.0, 0.3, 0.75, 0.95)
"""How strongly a playout prefers takes and melds: uniform play runs the stock out (forcing
rules, last turns, a red three as the last card), a strong preference goes out early."""


def choose(rng: random.Random, actions: tuple[Action, ...], bias: float) -> Action:
    """A seeded random choice, preferring takes and melds with probability ``bias``."""
    progress = [a for a in actions if isinstance(a, PROGRESS)]
    if progress and rng.random() < bias:
        return rng.choice(progress)
    return rng.choice(actions)


def fresh(state: GameState) -> GameState:
    """An equal state with an empty cache of legal actions (built anew, field by field)."""
    return _replace(state)


def playout(variant: Union[Variant, str], players: int,
            seed: int) -> Iterator[tuple[GameState, Optional[Action]]]:
    """The states of a seeded playout with the action chosen in each (None at a hand's end).

    Crosses hand boundaries with ``next_hand()``; stops when the game is over, at the action
    cap, or at a dead end (a player to act without a legal action).
    """
    rng = random.Random(seed)
    bias = rng.choice(BIASES)
    state = new_game(variant, players, seed=seed)
    cap = action_cap(state)
    for _ in range(cap):
        acts = state.legal_actions()
        if not acts:
            yield state, None
            if state.current_player is not None or state.phase is not Phase.HAND_OVER:
                return
            state = state.next_hand()
            continue
        a = choose(rng, acts, bias)
        yield state, a
        state = state.apply(a)
    yield state, None


# ---------------------------------------------------------------- invariants


def card_counts(state: GameState) -> list[int]:
    """Cards per kind in every place a card can be during a hand (a hand's first 15 counts are
    per kind in every variant; a variant with sequences adds one count per suited natural, and
    its stock and pile hold card codes, counted here by their kind)."""
    counts = [0] * N_KINDS
    for hand in state.hands + state.down_hands:
        for k, n in enumerate(hand[:N_KINDS]):
            assert n >= 0, f"negative count {n} of {Card(k).name} in a hand"
            counts[k] += n
    for c in state.stock + state.pile + state.turn.pending:
        counts[KIND_OF[c]] += 1
    for side_melds in state.melds:
        for m in side_melds:
            assert m.naturals >= 0 and m.jokers >= 0 and m.twos >= 0, f"negative meld {m!r}"
            if m.rank == WILD_RANK:
                assert m.naturals == 0, f"a meld of wild cards holds naturals: {m!r}"
            elif m.rank >= SEQUENCE_RANK:
                for r in range(m.low, m.low + m.naturals):
                    counts[r] += 1
            else:
                counts[m.rank] += m.naturals
            counts[Card.JOKER] += m.jokers
            counts[Card.TWO] += m.twos
            counts[Card.RED_THREE] += int(m.red_three)
    for n in state.red_threes:
        assert n >= 0
        counts[Card.RED_THREE] += n
    for n in state.black_threes_aside:  # cuban 3.5: set aside from taken piles
        assert n >= 0
        counts[Card.BLACK_THREE] += n
    return counts


def suited_card_counts(state: GameState) -> list[int]:
    """(a variant with sequences) Cards per card code wherever a card keeps its suit: hands (their
    counts 15 to 58, and 0 to 3), stock, pile, a pile being taken, sequences. A group on the
    table keeps only its rank's count (its naturals are counted by :func:`card_counts`)."""
    counts = [0] * N_CODES
    for hand in state.hands + state.down_hands:
        assert len(hand) == N_CODES, f"a hand of {len(hand)} counts in a variant with suits"
        for c, n in enumerate(hand):
            assert n >= 0, f"negative count {n} of code {c} in a hand"
            if c < 4 or c >= N_KINDS:
                counts[c] += n
        # a kind's count is its suits' counts together
        for r in range(Card.FOUR, N_KINDS):
            assert hand[r] == sum(hand[card_code(r, s)] for s in range(4)), (r, hand)
    for c in state.stock + state.pile + state.turn.pending:
        assert not Card.FOUR <= c < N_KINDS, f"a natural without its suit ({c}) in the stock or pile"
        counts[c] += 1
    for side_melds in state.melds:
        for m in side_melds:
            if m.rank >= SEQUENCE_RANK:
                assert m.cards and all(SUIT_OF[c] == m.rank - SEQUENCE_RANK for c in m.cards), m
                for c in m.cards:
                    counts[c] += 1
    return counts


def check_cards_conserved(state: GameState) -> None:
    """Each source's deck (hoyle rule 4: two packs and four jokers, 108 cards; three-pack:
    three packs and six jokers; new-canasta: one 54-card deck per player plus one) is all
    somewhere: hands, down hands, stock, pile, a pile being taken, melds, faced red threes.
    With suits (samba 1.3: three packs, so three of each card), no card code is anywhere more
    often than the deck holds it, and the naturals of a rank missing from the places that keep
    suits are exactly those in the groups of that rank."""
    deck = list(state._rules.deck)
    got = card_counts(state)
    assert got == deck, {Card(k).name: (got[k], deck[k]) for k in range(N_KINDS) if got[k] != deck[k]}
    if not state._rules.suited:
        assert all(len(h) == N_KINDS for h in state.hands + state.down_hands)
        return
    codes = list(state._rules.deck_codes)
    assert len(codes) == N_CODES and sum(codes[N_KINDS:]) == sum(deck[4:])
    have = suited_card_counts(state)
    over = {c: (have[c], codes[c]) for c in range(N_CODES) if have[c] > codes[c]}
    assert not over, f"card codes held more often than the deck has them: {over}"
    assert codes[:4] == deck[:4]  # wild cards and threes have no suit here (kinds above)
    in_groups = [0] * N_KINDS
    for side_melds in state.melds:
        for m in side_melds:
            if Card.BLACK_THREE < m.rank < WILD_RANK:
                in_groups[m.rank] += m.naturals
    for r in range(Card.FOUR, N_KINDS):
        missing = sum(codes[card_code(r, s)] - have[card_code(r, s)] for s in range(4))
        assert missing == in_groups[r], (Card(r).name, missing, in_groups[r])


def wild_cap(state: GameState, naturals: int) -> int:
    """Most wild cards a meld with ``naturals`` naturals may hold by the variant's meld rules."""
    m = state.variant.melds
    if m.wild_ratio == "at_most_naturals":
        return min(m.max_wild, naturals)
    if m.wild_ratio == "fewer_than_naturals":
        return min(m.max_wild, naturals - 1)
    if m.wild_ratio == "at_most_half_naturals":
        return min(m.max_wild, naturals // 2)
    return m.max_wild


def check_melds(state: GameState) -> None:
    """Every meld on the table has a legal shape. Hoyle rule 23: "at least two NATURAL (not wild)
    cards of the same rank, and not more than three wild cards" (rule 25: wild cards in any number
    may be added to a completed canasta, where the variant allows it); online: wild cards never
    more than naturals, a meld of wild cards only allowed; new-canasta: more naturals than wild
    cards, a canasta is exactly seven cards, a red three only on a natural canasta, "Black threes
    can only be melded as a canasta"; one meld per rank where a side may not hold two (bicycle,
    wikipedia, online)."""
    v = state.variant
    m = v.melds
    b = v.black_threes
    q = m.sequences
    for side, melds in enumerate(state.melds):
        ranks = [x.rank for x in melds if x.rank < SEQUENCE_RANK]
        if not m.multiple_per_rank and not m.new_after_canasta:
            assert len(ranks) == len(set(ranks)), f"side {side} holds two melds of one rank: {ranks}"
        if m.new_after_canasta:
            # hand-and-foot A11: one open meld of a rank; the earlier ones are closed canastas
            for r in set(ranks):
                of_rank = [x for x in melds if x.rank == r]
                assert all(x.size == m.canasta_size for x in of_rank[:-1]), (side, of_rank)
        for x in melds:
            if x.rank >= SEQUENCE_RANK:
                # samba 4.3: three or more natural cards of one suit in a row, four to ace (no
                # wrap-around); 4.4: at most seven (brazilian 4.2: more only by the side whose
                # player goes out in that turn)
                assert q.allowed and SEQUENCE_RANK <= x.rank < SEQUENCE_RANK + 4, x
                assert x.wilds == 0 and not x.red_three, x
                assert RANK_OF[q.lowest] <= x.low and x.low + x.naturals - 1 <= RANK_OF[q.highest], x
                assert x.naturals >= q.min_size, x
                if x.naturals > q.max_size:
                    assert q.past_max_going_out, x
                    if state.is_hand_over:
                        r = state.result
                        assert r is not None and r.went_out is not None and state.side_of(r.went_out) == side, x
                    else:
                        assert state.current_player is not None and state.side_of(state.current_player) == side, x
                continue
            if x.red_three:
                assert v.red_threes.handling == "keep" and v.red_threes.canasta_bonus, x
                assert x.rank >= Card.FOUR and x.wilds == 0 and x.size == m.canasta_size, x
            if x.rank == WILD_RANK:
                assert m.wild_melds or m.deuce_melds, x
                assert x.naturals == 0 and x.size >= m.min_size, x
                if m.deuce_melds:
                    # italian 4.3 (digest A6): deuces its naturals, jokers its wild cards, closed at seven
                    assert x.twos >= m.min_naturals and x.jokers <= m.max_wild and x.size <= m.canasta_size, x
            elif x.rank == Card.BLACK_THREE:
                assert b.meld != "never" and x.wilds == 0 and b.min <= x.naturals <= b.max, x
            else:
                assert Card.FOUR <= x.rank <= Card.ACE, x
                assert x.naturals >= m.min_naturals and x.size >= m.min_size, x
                if m.canasta_closed:
                    assert x.size <= m.canasta_size, x
                cap = wild_cap(state, x.naturals)
                if x.wilds > cap:
                    # only extra wild cards on a canasta complete without them (hoyle rule 25)
                    assert m.unlimited_wild_on_canasta, x
                    assert x.naturals + cap >= m.canasta_size, x
                    assert x.naturals >= m.canasta_min_naturals, x


def check_turn_invariants(state: GameState) -> None:
    """Rules that hold between actions. Black threes are melded only in the turn the player goes
    out (hoyle rule 23, wikipedia "only as the last play before a player goes out"); a side's
    melds stay on the table only if they made its initial meld (hoyle rule 33: the minimum count);
    a canasta is never the initial meld where the variant says so (new-canasta); red threes are
    faced at the player's turn, never kept in hand (hoyle rules 14-15), or at the deal (wikipedia:
    "must immediately play it")."""
    if state.is_hand_over:
        return
    v = state.variant
    seat = state.current_player
    assert seat is not None
    acting = state.side_of(seat)
    for side, melds in enumerate(state.melds):
        if any(x.rank == Card.BLACK_THREE for x in melds):
            assert side == acting and state.turn.black_threes, f"black threes melded by side {side}"
        if side != acting:
            assert bool(melds) == state.opened[side], (side, state.opened[side], melds)
        if v.melds.initial_canasta != "always" and not state.opened[side]:
            assert all(x.size < v.melds.canasta_size for x in melds), melds
    if v.red_threes.handling != "keep" and state.phase is not Phase.ANSWER:
        assert state.hands[seat][Card.RED_THREE] == 0, "a red three kept in the hand of the player to act"


def check_deal(state: GameState) -> None:
    """A fresh deal: hoyle rule 10 ("eleven cards to each player ... When there are three
    players, each receives thirteen cards; with two players, each receives fifteen"), three-pack
    thirteen, new-canasta 11 "looking" and 11 "down" cards; with five players one of the three
    partners sits the deal out (hoyle rule 2). Nothing is melded, no total has moved yet."""
    table = state.variant.table(state.players)
    for seat in range(state.players):
        if seat in state.active:
            assert sum(state.hands[seat][:N_KINDS]) == table.hand_size, (seat, state.hands[seat])
            assert sum(state.down_hands[seat][:N_KINDS]) == table.down_hand_size
        else:
            assert not any(state.hands[seat]) and not any(state.down_hands[seat])
    assert len(state.active) == (table.active or state.players)
    assert len(set(state.active)) == len(state.active)
    assert state.history == () and state.result is None and state.winners == ()
    assert all(melds == () for melds in state.melds)
    # hoyle rule 12: an upcard starts the pile; modern-american 2.3: no card is turned up
    assert bool(state.pile) == state.variant.upcard.turned, "the upcard"
    check_cards_conserved(state)


def check_position(state: GameState) -> tuple:
    """The invariants of one position; returns its legal actions."""
    acts = state.legal_actions()
    # deterministic: the same object again, and an equal state built anew, list the same
    assert state.legal_actions() == acts
    assert fresh(state).legal_actions() == acts
    assert len(set(acts)) == len(acts), f"duplicate legal actions: {[str(a) for a in acts]}"
    # no dead ends: somebody is to act exactly when there is something to do
    if state.phase in HAND_OVER:
        assert state.current_player is None
        assert acts == ()
    else:
        assert state.current_player is not None
        assert state.current_player in state.active
        assert acts, (
            f"dead end: seat {state.current_player} to act in {state.phase.name} with no legal "
            f"action (hand {state.hands[state.current_player]}, pile {state.pile})"
        )
    check_cards_conserved(state)
    check_melds(state)
    check_turn_invariants(state)
    # notation and ids
    space = state.action_space
    ids = state.legal_action_ids()
    assert ids == tuple(space.encode(a) for a in acts)
    assert len(set(ids)) == len(ids)
    for a, i in zip(acts, ids):
        assert space.decode(i) == a
        assert parse_action(str(a)) == a, f"{a!r} prints as {str(a)!r}"
        assert state.is_legal(a)
        assert state.why_illegal(a) is None
    return acts


def check_apply_all(state: GameState, acts: tuple) -> dict:
    """Apply every legal action by value, id and notation; returns the successors."""
    before = fresh(state)
    hands, downs, melds, stock, pile = state.hands, state.down_hands, state.melds, state.stock, state.pile
    turn = state.turn
    history = state.history
    space = state.action_space
    out = {}
    for a in acts:
        nxt = state.apply(a)
        assert state.apply(space.encode(a)) == nxt, f"{a} by id differs"
        assert state.apply(str(a)) == nxt, f"{a} by notation differs"
        assert nxt.history == history + (a,)
        out[a] = nxt
    # immutability: the state applied to is unchanged
    assert state == before
    assert state.hands is hands and state.down_hands is downs and state.melds is melds
    assert state.stock is stock and state.pile is pile and state.turn is turn
    assert state.history == history
    assert state.legal_actions() == acts
    # "without duplicates in effect" (GameState.legal_actions): distinct actions, distinct states
    seen: list[tuple[object, GameState]] = []
    for a, nxt in out.items():
        for b, other in seen:
            assert nxt != other, f"{b} and {a} have the same effect"
        seen.append((a, nxt))
    return out


def check_illegal_refused(state: GameState, acts: tuple, rng: random.Random) -> None:
    """A few actions of the action space that are not legal here: ``apply`` refuses each (by
    value, id and notation) with an :class:`IllegalActionError` naming a reason, and the state
    is unchanged (GameState.apply: "this state is unchanged")."""
    legal = set(acts)
    illegal = [a for a in state.action_space.actions if a not in legal]
    before = fresh(state)
    space = state.action_space
    for a in rng.sample(illegal, min(ILLEGAL_SAMPLES, len(illegal))):
        assert not state.is_legal(a)
        assert state.why_illegal(a)
        for form in (a, space.encode(a), str(a)):
            with pytest.raises(IllegalActionError) as info:
                state.apply(form)
            assert info.value.action == a and info.value.reason
    assert state == before
    assert state.legal_actions() == acts


def check_hand_end(before: GameState, after: GameState) -> None:
    """The scoring schedules: hoyle rules 53-54 and 63, bicycle and wikipedia "Scoring",
    online "The team that goes out receives an additional 100 points", new-canasta "Going Out =
    100 points"; no going-out or concealed score once the stock is used up (hoyle rule 55,
    new-canasta "There is no Going Out bonus after the piles have been used up")."""
    v = after.variant
    r = after.result
    assert r is not None
    assert after.current_player is None and after.legal_actions() == ()
    assert len(r.scores) == after.sides
    for i, s in enumerate(r.scores):
        assert s.side == i
        assert s.total == sum(item.points for item in s.items)
        # the totals move by exactly the hand's score (hoyle rule 59: cumulative totals)
        assert after.totals[i] == before.totals[i] + s.total
    out_side = None
    if r.went_out is not None:
        # the player who went out was the one acting, and has no card left (hoyle rule 51)
        assert r.went_out == before.current_player
        assert not any(after.hands[r.went_out]) and not any(after.down_hands[r.went_out])
        out_side = after.side_of(r.went_out)
    else:
        assert not r.concealed
    for s in r.scores:
        names = [item.name for item in s.items]
        if s.side != out_side:
            assert "going out" not in names and "concealed" not in names, (s.side, names)
    if out_side is None:
        return
    s = r.scores[out_side]
    stock_left = bool(before.stock) and before.phase is not Phase.FINAL_MELD
    stock_used_up = not before.stock and (
        before.phase is Phase.FINAL_MELD or v.stock_exhausted.mode == "last_round")
    if stock_left:
        assert s.get("going out") == v.going_out.bonus, s
    if stock_used_up:
        assert s.get("going out") == 0 and s.get("concealed") == 0, s
        assert not r.concealed
    if r.concealed:
        assert s.get("concealed") == v.going_out.concealed.bonus, s
    else:
        assert s.get("concealed") == 0, s


def check_game_state_at_end(after: GameState) -> None:
    """Hoyle rule 57: "A game is won by the first side to reach a total of 5,000 points or more.
    If both sides reach 5,000 in the same deal ... the side with the higher total wins" (10,000 for
    three-pack and new-canasta). hand-and-foot 7.6: "The game is four deals; the highest
    cumulative total wins (no target score)" (``game.hands``; ``game.target = 0``: none)."""
    target = after.variant.game.target
    hands = after.variant.game.hands
    top = max(after.totals)
    last = bool(hands) and after.hand_number + 1 >= hands
    if after.phase is Phase.GAME_OVER:
        assert (target and top >= target) or last
        assert after.winners == tuple(i for i, t in enumerate(after.totals) if t == top)
        with pytest.raises(ValueError):
            after.next_hand()
    else:
        assert after.phase is Phase.HAND_OVER
        assert not target or top < target
        assert not last
        assert after.winners == ()


def check_next_hand(over: GameState, nxt: GameState) -> None:
    """Hoyle rule 8: "Thereafter the deal rotates to the left, clockwise" (bicycle, wikipedia the
    same); new-canasta: "The turn to deal passes clockwise around the table, but skips the Score
    Keeper" (the last seat). The totals carry over (hoyle rule 59); with five players the idle
    partner changes (hoyle rule 2)."""
    n = over.players
    expect = (over.dealer + 1) % n
    while over.variant.deal.score_keeper and n > 1 and expect == n - 1:
        expect = (expect + 1) % n
    assert nxt.dealer == expect
    assert nxt.totals == over.totals
    assert nxt.hand_number == over.hand_number + 1
    assert nxt.seed == over.seed
    assert not any(nxt.opened) and not any(nxt.melded)
    check_deal(nxt)
    idle_before = set(range(n)) - set(over.active)
    idle_now = set(range(n)) - set(nxt.active)
    if idle_before:
        # hoyle rule 2: "rotating so that a different one of the three is idle each deal"
        assert idle_now and idle_now != idle_before, (idle_before, idle_now)


def run_checked(variant: Union[Variant, str], players: int, seed: int, seats: Optional[str] = None) -> None:
    """One playout with every check at every step; a failure names the actions that led to it
    ("next_hand" marks a new deal), so it can be replayed from ``new_game(variant, players, seed)``.
    ``seats``: one of ``helpers.SEAT_KINDS`` (purposeful seats), or None for the random policy."""
    path: list[str] = []
    try:
        _run_checked(variant, players, seed, path, seats)
    except AssertionError as e:
        name = variant if isinstance(variant, str) else variant.name
        raise AssertionError(f"{e}\n{name}, {players} players, seed {seed}, {seats or 'random'} seats, after "
                             f"{len(path)} actions: {path}") from e


def _run_checked(variant: Union[Variant, str], players: int, seed: int, path: list[str],
                 seats: Optional[str] = None) -> None:
    rng = random.Random(seed)
    bias = rng.choice(BIASES)
    refuse_rng = random.Random(seed + 1)
    state = new_game(variant, players, seed=seed)
    policies = None
    if seats is not None:
        # imported here: a child process loads this file alone (test_same_seed_same_game_in_another_process)
        from helpers import seat_policies

        policies = seat_policies(seats, players, seed)
    assert state.hand_number == 0 and state.totals == (0,) * state.sides
    check_deal(state)
    for _ in range(action_cap(state)):
        acts = check_position(state)
        if not acts:
            check_game_state_at_end(state)
            if state.is_game_over:
                return
            nxt = state.next_hand()
            check_next_hand(state, nxt)
            path.append("next_hand")
            state = nxt
            continue
        successors = check_apply_all(state, acts)
        check_illegal_refused(state, acts, refuse_rng)
        if policies is None:
            a = choose(rng, acts, bias)
        else:
            a = policies[state.current_player](state, successors)
            assert a in successors, f"a seat chose {a}, which is not legal"
        path.append(str(a))
        nxt = successors[a]
        if nxt.is_hand_over:
            check_hand_end(state, nxt)
            check_game_state_at_end(nxt)
        else:
            assert nxt.result is None
            assert nxt.totals == state.totals
        state = nxt
    check_position(state)


# ---------------------------------------------------------------- the properties


@pytest.mark.parametrize("name,players", CASES)
@settings(max_examples=PLAYOUT_EXAMPLES, deadline=None)
@given(seed=SEEDS)
def test_random_playout_invariants(name: str, players: int, seed: int) -> None:
    """Every step of a seeded random playout keeps the engine's promises and the rules'
    invariants: legal actions apply (by value, id and notation), are unique in value and effect
    and deterministic, no dead ends, the deck of the variant's source is conserved, states are
    immutable; hand ends score by the variant's scoring schedule; the deal rotates."""
    run_checked(name, players, seed)


PURPOSEFUL_FAST = {"samba-4", "brazilian-4", "bicycle-4", "hand-and-foot-4"}
"""The usual tables whose purposeful playouts run in the fast selection: where greedy play
dead-ended (samba, brazilian), asking in its two forms (bicycle's ask before the draw,
hand-and-foot's foot); CI's full suite runs every table."""


@pytest.mark.parametrize("name,players", [
    case if case.id in PURPOSEFUL_FAST else pytest.param(*case.values, marks=(*case.marks, pytest.mark.slow), id=case.id)
    for case in CASES])
@settings(max_examples=PURPOSEFUL_EXAMPLES, deadline=None)
@given(seed=SEEDS, seats=st.sampled_from(PURPOSEFUL_SEATS))
def test_random_playouts_with_purposeful_seats(name: str, players: int, seed: int, seats: str) -> None:
    """The same checks at every step, with purposeful seats (issue 28): greedy bots, a mix of
    greedy, random and asking seats, or seats that ask to go out whenever they may, answer yes
    and then play any legal action. A player bound to go out (a yes, hoyle rule 39; black threes
    melded, rule 38) must always have a legal action, which random play, rarely asking, seldom
    tests: greedy play dead-ended in samba and brazilian. (Named as the random playouts are, so
    that samba's usual table runs in the fast selection with them: see tests/conftest.py.)"""
    from helpers import SEAT_KINDS

    assert PURPOSEFUL_SEATS == SEAT_KINDS
    run_checked(name, players, seed, seats)


@pytest.mark.parametrize("name,players", CASES)
@settings(max_examples=SAME_SEED_EXAMPLES, deadline=None)
@given(seed=SEEDS)
def test_same_seed_same_game(name: str, players: int, seed: int) -> None:
    """The same seed deals the same cards and (with the same choices) plays the same game:
    equal states, equal legal actions in the same order, equal histories, hand after hand."""
    first = list(playout(name, players, seed))
    second = list(playout(name, players, seed))
    assert len(first) == len(second)
    for (s1, a1), (s2, a2) in zip(first, second):
        assert s1 == s2
        assert s1.legal_actions() == s2.legal_actions()
        assert s1.history == s2.history
        assert a1 == a2


WHY_EVERY = 7
"""One position in this many of a playout is asked about every action of the space (of up to
``WHY_IDS`` actions; one in proportionally more for a larger space, so that a playout asks
about as many (position, action) pairs in every variant: a sequence variant's space has 1,709
ids)."""
WHY_IDS = 500


@pytest.mark.parametrize("name,players", CASES)
@settings(max_examples=SAME_SEED_EXAMPLES, deadline=None)
@given(seed=SEEDS)
def test_why_illegal_is_none_exactly_for_the_legal_actions(name: str, players: int, seed: int) -> None:
    """One source of rule truth: at sampled positions of a seeded playout, for every id of the
    action space, ``why_illegal`` gives no reason exactly when the action is among
    ``legal_actions()`` (GameState.why_illegal: "The rule that forbids ``action`` here ... or
    None if legal"), and the same answer for the action, its id and its notation."""
    checked = 0
    every = WHY_EVERY * max(1, round(new_game(name, players, seed=0).action_space.size / WHY_IDS))
    for n, (state, _a) in enumerate(playout(name, players, seed)):
        if n % every:
            continue
        legal = set(state.legal_action_ids())
        space = state.action_space
        for i in range(space.size):
            action = space.decode(i)
            reason = state.why_illegal(action)
            assert (reason is None) == (i in legal), (name, players, seed, n, str(action), reason)
            assert state.why_illegal(i) == reason
            assert state.why_illegal(str(action)) == reason
            assert state.is_legal(i) == state.is_legal(action) == state.is_legal(str(action)) == (i in legal)
            checked += 1
    assert checked


def game_digest(name: str, players: int, seed: int) -> str:
    """A fingerprint of a seeded playout: every position's cards and legal actions, every choice."""
    h = hashlib.sha256()
    for state, a in playout(name, players, seed):
        h.update(repr((state.hand_number, state.dealer, state.current_player, state.hands,
                       state.down_hands, state.melds, state.stock, state.pile, state.totals,
                       [str(x) for x in state.legal_actions()], str(a))).encode())
    return h.hexdigest()


DIGEST_SEED = 20261122


@pytest.mark.slow
def test_same_seed_same_game_in_another_process() -> None:
    """new_game: "The same seed gives the same game on any machine": a fresh interpreter with
    a different string-hash seed deals and plays the same games, position for position.

    The child runs what this process runs: the same ``sys.path`` (not the working directory's
    source tree, which ``python -c`` would put first), so the same ``canasta`` file and core."""
    import canasta

    cases = PAIRS
    here = {f"{n}-{p}": game_digest(n, p, DIGEST_SEED) for n, p in cases}
    code = (
        f"import sys; sys.path[:] = {sys.path!r}\n"
        "import importlib.util, json, canasta\n"
        f"spec = importlib.util.spec_from_file_location('props', {str(Path(__file__))!r})\n"
        "props = importlib.util.module_from_spec(spec); spec.loader.exec_module(props)\n"
        f"cases = {cases!r}\n"
        f"print(json.dumps([canasta.__file__, canasta.core_info().name,"
        f" {{f'{{n}}-{{p}}': props.game_digest(n, p, {DIGEST_SEED}) for n, p in cases}}]))\n"
    )
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    file, core, there = json.loads(out)
    assert (file, core) == (canasta.__file__, canasta.core_info().name)
    assert there == here


LOW_TARGET = 1500


@pytest.mark.parametrize("name,players", CASES)
@settings(max_examples=SAME_SEED_EXAMPLES, deadline=None)
@given(seed=SEEDS)
def test_game_over_with_a_low_target(name: str, players: int, seed: int) -> None:
    """The same playouts with the game target lowered to 1500, so that games end within the
    action cap: hoyle rule 57 ("A game is won by the first side to reach a total of 5,000 points
    or more ... the side with the higher total wins"; the target is a setting) and every other
    property on the way."""
    v = load_variant(name)
    v = attrs.evolve(v, game=attrs.evolve(v.game, target=LOW_TARGET))
    run_checked(v, players, seed)


# ---------------------------------------------------------------- going out, counted

GOING_OUT_MIN = 2
"""Hands ended by going out that :func:`test_going_out_is_scored_by_the_schedule` must find at
every table (where seeded play reaches them; see ``GOING_OUT_POSITIONS``)."""
GOING_OUT_SEEDS = 24
"""Seeds tried (each with every policy of ``OUT_POLICIES``) before giving up."""


def _shed(rng: random.Random, acts: tuple[Action, ...], sequences_first: bool) -> Action:
    """A player who empties his hand: melds and adds (sequences first, if asked), never takes
    the pile, else anything."""
    if sequences_first:
        seqs = [a for a in acts if (isinstance(a, Meld) and len({KIND_OF[c] for c in a.cards}) > 1)
                or (isinstance(a, Add) and a.rank >= SEQUENCE_RANK)]
        if seqs:
            return rng.choice(seqs)
    melds = [a for a in acts if isinstance(a, (Meld, Add, Combine))]
    rest = [a for a in acts if not isinstance(a, Take)] or list(acts)
    return rng.choice(melds or rest)


OUT_POLICIES = ("shed", "sequences first", "biased")
"""How the search for hands ended by going out plays: shedding cards (:func:`_shed`), the same
preferring sequences, and the random playouts' own biased choice (:func:`choose`)."""


def going_out(variant: str, players: int, seed: int, policy: str) -> Optional[tuple[GameState, Action, GameState]]:
    """The first hand of a seeded game played by ``policy`` until a player holding three cards
    or fewer can go out, when he does: (state before, action, state after), or None when the
    hand ends otherwise (or at the action cap)."""
    rng = random.Random(seed)
    bias = rng.choice(BIASES)
    state = new_game(variant, players, seed=seed)
    for _ in range(action_cap(state)):
        acts = state.legal_actions()
        if not acts:
            return None
        seat = state.current_player
        assert seat is not None
        if sum(state.hands[seat]) + sum(state.down_hands[seat]) <= 3:
            for a in acts:
                nxt = state.apply(a)
                if nxt.is_hand_over and nxt.result is not None and nxt.result.went_out is not None:
                    return state, a, nxt
        if policy == "biased":
            a = choose(rng, acts, bias)
        else:
            a = _shed(rng, acts, policy == "sequences first")
        state = state.apply(a)
    return None


def _going_out_position(variant: str, players: int, hand: str, melds: str, others: tuple[str, ...],
                        pile: str) -> GameState:
    """Seat 0 of ``players`` to play (having drawn) holding ``hand``, his side's melds ``melds``
    (a TOML list), seat ``s`` holding ``others[s - 1]``, the pile ``pile``; every foot picked up."""
    seats = "".join(f'\n[[seats]]\nhand = "{others[s - 1] if s else hand}"\ndown = ""\nmelded = {str(s == 0).lower()}\n'
                    for s in range(players))
    sides = new_game(variant, players, seed=0).sides
    sides_text = f"\n[[sides]]\nmelds = {melds}\n" + "\n[[sides]]\n" * (sides - 1)
    return load_position(f'variant = "{variant}"\nplayers = {players}\nphase = "meld"\nto_act = 0\n'
                         f'pile = "{pile}"\n{seats}{sides_text}\n[turn]\ndrew = true\n')


GOING_OUT_POSITIONS = {
    # hand-and-foot 6.2 PG: "at least two clean piles, two dirty piles and one wild pile";
    # 6.3: the partner plays from his foot (every foot is picked up here): the wild pile is
    # completed, then the 4 discarded
    "hand-and-foot": ('["K K K K K K K", "Q Q Q Q Q Q Q", "J J J J J 2 2", "10 10 10 10 10 JK 2", '
                      '"JK JK JK 2 2 2"]', "JK 4", ("4 5 6",) * 5, "5 9", ("add JK to wild", "discard 4")),
    # bolivia 6.1: "two canastas, at least one of which is an escalera"
    "bolivia": ('["K K K K K K K", "5h 6h 7h 8h 9h 10h Jh"]', "4c",
                ("4d 5s 6c", "4s 5d 6d", "Jc Jd 10s", "Qc Qd 9s", "8c 8d 7s"), "5c 9h", ("discard 4c",)),
    # pennies-from-heaven 7.1 (RG, BC): one canasta of each kind, natural, mixed, wild and sevens;
    # 3.5: the last discard is not a seven
    "pennies-from-heaven": ('["K K K K K K K", "Q Q Q Q Q 2 JK", "JK JK 2 2 2 2 2", "7 7 7 7 7 7 7", "J J J"]',
                            "J 9", ("4 5 6",) * 5, "5 9", ("add J to J", "discard 9")),
}
"""Positions from the rules where seat 0 goes out: (melds of his side, his hand, the other
hands, the pile, his actions, the last of which goes out), checked at every table of the
variant."""
SELDOM_OUT = {f"hand-and-foot-{p}" for p in range(2, 7)} | {"bolivia-5"} | {"pennies-from-heaven-6"}
"""Tables where seeded play seldom or never ends a hand by going out (none in 24 seeds of each
policy, nor in the golden traces for hand-and-foot): their going out is checked on the
positions of ``GOING_OUT_POSITIONS`` only."""


@pytest.mark.parametrize("name,players", CASES)
def test_going_out_is_scored_by_the_schedule(name: str, players: int) -> None:
    """The going-out checks of :func:`check_hand_end` (the going-out bonus, no going-out or
    concealed score for the other sides, the totals moved by the hand's score) run at every
    table: seeded games are played until a player who can go out does, and at least
    ``GOING_OUT_MIN`` such hand ends must be found and checked (but at the ``SELDOM_OUT``
    tables); and the variants of ``GOING_OUT_POSITIONS`` go out in a position written from
    their rules."""
    found = 0
    need = 0 if f"{name}-{players}" in SELDOM_OUT else GOING_OUT_MIN
    for seed in range(GOING_OUT_SEEDS if need else 0):
        for policy in OUT_POLICIES:
            hit = going_out(name, players, seed, policy)
            if hit is None:
                continue
            before, a, after = hit
            assert after.result is not None and after.result.went_out == before.current_player
            check_hand_end(before, after)
            check_game_state_at_end(after)
            found += 1
        if found >= need:
            break
    assert found >= need, f"{name}-{players}: {found} hands ended by going out in {GOING_OUT_SEEDS} seeds"
    if name in GOING_OUT_POSITIONS:
        melds, hand, others, pile, actions = GOING_OUT_POSITIONS[name]
        state = _going_out_position(name, players, hand, melds, others, pile)
        for text in actions[:-1]:
            state = state.apply(text)
        after = state.apply(actions[-1])
        assert after.result is not None and after.result.went_out == 0, after.result
        assert after.result.scores[0].get("going out") == load_variant(name).going_out.bonus > 0
        check_hand_end(state, after)
        check_game_state_at_end(after)
