"""The search bot (issue 12, item 6): determinization with sampled states and flat Monte Carlo
rollouts within a budget per move.

Its strength against GreedyBot is measured by ``benchmarks/search_bot.py`` (minutes of play),
not here; these tests check its contract: it follows the bot protocol (only the observation
and the legal actions), always plays a legal action, is deterministic for a seed with a
rollout budget, keeps to its time budget, and refuses a bad budget.
"""

from __future__ import annotations

import pytest

import canasta._search
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


class Clock:
    """A stand-in for ``time`` in ``canasta._search``: each reading of ``perf_counter`` moves
    the clock on by ``step`` seconds, so a search's duration is counted in readings, not in
    wall time."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def perf_counter(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now


def _searched_decision() -> tuple:  # type: ignore[type-arg]
    """A decision the bot searches: hoyle-1950, two players, seed 5, after the first draw, the
    greedy choice is a discard (it searches the discard: SearchBot's docstring)."""
    st = new_game("hoyle-1950", 2, seed=5).apply("draw")
    acts = st.legal_actions()
    obs = st.observation(st.current_player)
    assert isinstance(GreedyBot(0).choose(obs, acts), Discard) and len(acts) > 3
    return obs, acts


def test_search_bot_searches_its_rollout_budget() -> None:
    """Without a time limit every candidate is tried in exactly ``rollouts`` samples."""
    obs, acts = _searched_decision()
    bot = SearchBot(0, rollouts=4, candidates=3, depth=5)
    assert bot.choose(obs, acts) in acts
    assert len(bot.last_values) == 3 and set(bot.last_values) <= set(acts)
    assert all(n == 4 for _, n in bot.last_values.values()), bot.last_values


def test_search_bot_keeps_to_its_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a time limit it stops sampling once the time is spent: the clock is read once to
    set the deadline (0.4 s + 1.0 s) and once before every sample after the first; at 0.8 and
    1.2 s it goes on, at 1.6 s it stops, after three samples of every candidate, far below
    the rollout budget."""
    obs, acts = _searched_decision()
    clock = Clock(0.4)
    monkeypatch.setattr(canasta._search, "time", clock)
    bot = SearchBot(0, rollouts=50, time_limit=1.0, candidates=3, depth=5)
    assert bot.choose(obs, acts) in acts
    assert len(bot.last_values) == 3, bot.last_values  # it searched
    assert all(n == 3 for _, n in bot.last_values.values()), bot.last_values
    assert clock.readings == 4


def test_search_bot_plays_one_sample_when_the_time_is_already_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    """"At least one sample is always played" (SearchBot): a clock that passes the deadline at
    its first reading after the start still lets every candidate have one rollout."""
    obs, acts = _searched_decision()
    monkeypatch.setattr(canasta._search, "time", Clock(10.0))
    bot = SearchBot(0, rollouts=50, time_limit=1.0, candidates=3, depth=5)
    assert bot.choose(obs, acts) in acts
    assert len(bot.last_values) == 3 and all(n == 1 for _, n in bot.last_values.values()), bot.last_values


def test_search_bot_refuses_a_bad_budget() -> None:
    """Budgets must be positive (ValueError naming the parameter)."""
    for kwargs, word in ((dict(rollouts=0), "rollouts"), (dict(time_limit=0), "time_limit"),
                         (dict(candidates=0), "candidates"), (dict(objective="money"), "objective"),
                         (dict(margin=-1), "margin"), (dict(depth=0), "depth")):
        with pytest.raises(ValueError, match=word):
            SearchBot(**kwargs)  # type: ignore[arg-type]
