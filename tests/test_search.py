"""The search bot (issue 12, item 6): determinization with sampled states and flat Monte Carlo
rollouts within a budget per move.

Its strength against GreedyBot is measured by ``benchmarks/search_bot.py`` (minutes of play),
not here; these tests check its contract: it follows the bot protocol (only the observation
and the legal actions), always plays a legal action, is deterministic for a seed with a
rollout budget, keeps to its time budget, and refuses a bad budget.
"""

from __future__ import annotations

import random
import time

import pytest

from canasta import Discard, GreedyBot, Phase, SearchBot, new_game


def test_search_bot_plays_legal_actions_from_its_observation() -> None:
    """A whole first deal (two players, hoyle-1950) with the search bot in seat 0: every action
    it returns is one of the legal actions it was given; it searches its draw-phase choices and
    its discards (trying every legal action there), and the hand ends."""
    st = new_game("hoyle-1950", 2, seed=3)
    bots = [SearchBot(1, rollouts=2), GreedyBot(2)]
    searched = 0
    while not st.is_hand_over:
        seat = st.current_player
        acts = st.legal_actions()
        a = bots[seat].choose(st.observation(seat), acts)
        assert a in acts
        if seat == 0 and len(acts) > 1 and (st.phase is Phase.DRAW or isinstance(a, Discard)):
            searched += 1
            values = bots[0].last_values  # every candidate was evaluated
            assert set(values) <= set(acts) and len(values) == min(len(acts), 24) and a in values
        st = st.apply(a)
    assert searched > 5


def _decisions(seed: int) -> list[str]:
    st = new_game("bicycle", seed=5)
    bot = SearchBot(seed, rollouts=3)
    greedy = GreedyBot(0)
    out = []
    for _ in range(40):
        if st.is_hand_over:
            break
        seat = st.current_player
        acts = st.legal_actions()
        a = bot.choose(st.observation(seat), acts) if seat % 2 == 0 else greedy.choose(st.observation(seat), acts)
        out.append(str(a))
        st = st.apply(a)
    return out


def test_search_bot_is_deterministic_with_a_rollout_budget() -> None:
    """The same seed and rollout budget give the same choices."""
    assert _decisions(7) == _decisions(7)


def test_search_bot_keeps_to_its_time_budget() -> None:
    """With a time limit it stops sampling once the time is spent (after at least one sample)."""
    st = new_game("hoyle-1950", 2, seed=8).apply("draw")
    bot = SearchBot(0, rollouts=10**6, time_limit=0.2)
    t = time.perf_counter()
    bot.choose(st.observation(st.current_player), st.legal_actions())
    assert time.perf_counter() - t < 2.0
    assert all(n >= 1 for _, n in bot.last_values.values())


def test_search_bot_refuses_a_bad_budget() -> None:
    """Budgets must be positive (ValueError naming the parameter)."""
    for kwargs, word in ((dict(rollouts=0), "rollouts"), (dict(time_limit=0), "time_limit"),
                         (dict(candidates=0), "candidates"), (dict(objective="money"), "objective"),
                         (dict(margin=-1), "margin"), (dict(depth=0), "depth")):
        with pytest.raises(ValueError, match=word):
            SearchBot(**kwargs)  # type: ignore[arg-type]
