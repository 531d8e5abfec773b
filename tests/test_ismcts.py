"""ISMCTSBot: the information-set Monte Carlo tree search bot (canasta/_ismcts.py).

Its strength is measured by ``benchmarks/ismcts_bot.py`` (hundreds of hands), not here. Here:
it plays whole hands with legal actions in every kind of variant, sees only its observation (two
states its seat cannot tell apart get the same choice), is deterministic for a seed and an
iteration budget, keeps to its budget, answers "may I go out?" as the greedy policy, and refuses
bad arguments naming them.
"""

from __future__ import annotations

import functools
import random

import pytest

import canasta
from canasta import ArgumentError, GreedyBot, ISMCTSBot, new_game


def small(seed: int = 0, **kwargs: object) -> ISMCTSBot:
    """A bot with a budget of two samples a decision (deterministic, quick)."""
    options: dict[str, object] = {"time_limit": None, "iterations": 2}
    options.update(kwargs)
    return ISMCTSBot(seed, **options)  # type: ignore[arg-type]


def decisions(name: str, players: int, seed: int, count: int) -> list[canasta.GameState]:
    """States where the seat to act has several legal actions, from greedy play."""
    st = new_game(name, players, seed=seed)
    greedy = GreedyBot(seed)
    out = []
    while not st.is_hand_over and len(out) < count:
        if len(st.legal_action_ids()) > 1:
            out.append(st)
        st = st.apply(greedy._choose_state(st))
    return out


@pytest.mark.parametrize("name, players", [("bicycle", 4), pytest.param("samba", 4, marks=pytest.mark.slow),
                                           pytest.param("hand-and-foot", 4, marks=pytest.mark.slow),
                                           pytest.param("hoyle-1950", 2, marks=pytest.mark.slow)])
def test_it_plays_a_whole_hand_with_legal_actions(name: str, players: int) -> None:
    """Seat 0 is the ISMCTS bot, the others greedy: ``play_game`` raises on any illegal action.
    (Hand-and-foot stands for the games with feet: a new-canasta hand took a minute of CI.)"""
    bots = [small(1)] + [GreedyBot(s) for s in range(1, players)]
    final, results = canasta.play_game(name, players, bots=bots, seed=3, max_hands=1)
    assert len(results) == 1 and final.is_hand_over
    assert bots[0].last_iterations in (0, 1, 2)


def test_it_sees_only_its_observation() -> None:
    """The state and a resampled state its seat cannot tell apart (other hands and stock dealt
    again) get the same choice and the same search from bots of the same seed."""
    for st in decisions("bicycle", 4, 11, 6)[2:6]:
        seat = st.current_player
        assert seat is not None
        twin = st.resample(seat, random.Random(5))
        assert twin.observation(seat) == st.observation(seat) and twin.hands != st.hands
        one, two = small(4), small(4)
        a = one.choose(st.observation(seat), st.legal_actions())
        b = two.choose(twin.observation(seat), twin.legal_actions())
        assert a == b and one.last_stats == two.last_stats
        assert a in st.legal_actions()


def test_it_is_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    st = decisions("hoyle-1950", 4, 2, 5)[-1]
    obs = st.observation(st.current_player)  # type: ignore[arg-type]
    runs = []
    for _ in range(2):
        bot = small(9, iterations=3)
        runs.append((bot.choose(obs, st.legal_actions()), bot.last_stats, bot.last_iterations))
    assert runs[0] == runs[1]
    action, stats, iterations = runs[0]
    assert 1 <= iterations <= 3 and action in stats
    assert all(n >= 1 for n, _ in stats.values())


def test_it_keeps_to_its_budget() -> None:
    """At least one sample is always drawn; no more than ``iterations``; with a tiny time limit,
    few. A single legal action is played without a search."""
    st = decisions("bicycle", 4, 4, 3)[-1]
    obs = st.observation(st.current_player)  # type: ignore[arg-type]
    bot = ISMCTSBot(1, time_limit=1e-6)
    assert bot.choose(obs, st.legal_actions()) in st.legal_actions()
    assert 1 <= bot.last_iterations <= 2
    bot = small(1, iterations=1)
    bot.choose(obs, st.legal_actions())
    assert bot.last_iterations == 1
    only = st.legal_actions()[:1]
    assert bot.choose(obs, only) == only[0] and bot.last_iterations == 0
    with pytest.raises(ValueError):
        bot.choose(obs, [])


def test_it_answers_may_i_go_out_as_the_greedy_policy() -> None:
    """hoyle-1950 rule 39: a player may ask "Partner, may I go out?"; the answer is the greedy
    policy's (yes when its side is ahead), without a search."""
    for seed in range(60):
        st = new_game("hoyle-1950", 4, seed=seed)
        greedy = GreedyBot(seed)
        while not st.is_hand_over and st.phase is not canasta.Phase.ANSWER:
            acts = st.legal_actions()
            st = st.apply(canasta.Ask() if canasta.Ask() in acts else greedy._choose_state(st))
        if st.phase is canasta.Phase.ANSWER:
            break
    else:
        pytest.fail("nobody asked in these deals")
    seat = st.current_player
    assert seat is not None
    bot = small(2)
    answer = bot.choose(st.observation(seat), st.legal_actions())
    assert answer == GreedyBot(2).choose(st.observation(seat), st.legal_actions())
    assert bot.last_iterations == 0


def test_it_plays_in_simulate() -> None:
    bot = functools.partial(ISMCTSBot, time_limit=None, iterations=1)
    sim = canasta.simulate("bicycle", deals=1, seed=7, bots=[bot, "greedy", bot, "greedy"])
    assert len(sim.rows) == 1


@pytest.mark.parametrize("kwargs, argument", [
    ({"time_limit": 0}, "time_limit"),
    ({"time_limit": None, "iterations": None}, "time_limit"),
    ({"iterations": 0}, "iterations"),
    ({"exploration": -1}, "exploration"),
    ({"objective": "points"}, "objective"),
    ({"margin": -0.5}, "margin"),
    ({"candidates": 0}, "candidates"),
    ({"depth": 0}, "depth"),
    ({"variant": "bicycle"}, "variant"),
])
def test_bad_arguments_are_refused_naming_them(kwargs: dict[str, object], argument: str) -> None:
    with pytest.raises(ArgumentError, match=f"^{argument}"):
        ISMCTSBot(0, **kwargs)  # type: ignore[arg-type]


# ------------------------------------------------------------------ the terminal game (issue 21)


def test_the_terminal_game_offers_it_with_at_most_two_seconds_a_decision(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``canasta play`` and ``canasta demo`` list it among their bots, and the one they make
    thinks at most 2 s a decision (issue 21: a time limit a person will accept)."""
    from canasta.cli import main
    from canasta.cli.bots import BOTS, make_bot

    assert "ismcts" in BOTS
    bot = make_bot("ismcts", 7)
    assert isinstance(bot, ISMCTSBot) and bot.time_limit is not None and 0 < bot.time_limit <= 2.0
    for command in ("play", "demo"):
        with pytest.raises(SystemExit) as exit_:
            main([command, "--help"])
        assert exit_.value.code == 0
        assert "ismcts" in capsys.readouterr().out, command


def test_demo_seats_it_and_plays_a_hand(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``canasta demo bicycle --bots ismcts,greedy,ismcts,greedy`` plays the hand to its end
    (bicycle 4p, partners at seats 0 and 2), every move a legal one, and ``--save`` records
    the ISMCTS seats by name."""
    import canasta.cli.bots as cli_bots
    from canasta.cli import main

    monkeypatch.setattr(cli_bots, "ISMCTS_SECONDS", 0.01)  # (the search, not its patience, is tested)
    status = main(["demo", "bicycle", "--players", "4", "--seed", "3", "--max-hands", "1",
                   "--bots", "ismcts,greedy,ismcts,greedy"])
    out = capsys.readouterr().out
    assert status == 0
    assert "Hand 1 is over" in out


def test_hint_asks_it_and_names_a_legal_action_and_why(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """``canasta play --hint-bot ismcts``: 'hint' gives one of the listed actions, with the
    search's reason (the deals it sampled, and the greedy choice it kept or beat)."""
    import io
    import re
    import sys

    import canasta.cli.bots as cli_bots
    from canasta.cli import main

    monkeypatch.setattr(cli_bots, "ISMCTS_SECONDS", 0.05)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nhint\nquit\n"))
    status = main(["play", "bicycle", "--players", "4", "--seed", "2", "--hint-bot", "ismcts"])
    out = capsys.readouterr().out
    assert status == 0
    state = new_game("bicycle", 4, seed=2)
    state = state.apply(state.legal_actions()[0])
    hint = re.search(r"^hint: (\d+)\. (.+?) \((.+)\)$", out, re.M)
    assert hint is not None, out[-2000:]
    action, why = hint[2], hint[3]
    assert action in [str(a) for a in state.legal_actions()]
    assert "the search" in why and "greedy choice" in why


def test_samples_that_contradict_the_legal_actions_are_not_searched() -> None:
    """bicycle (hoyle-1950 rule 39's "may I go out?"): the engine offers asking before the draw
    only to a player who can go out this turn, here through a take of the pile, whose card
    dealt face up at the bottom the observation does not record; so a sample may make 'ask'
    illegal though it is legal in the real game. The bot searches only samples in which every
    action it compares is legal (its legal actions are part of what it observes): it raised
    IllegalActionError in such a sample."""
    from canasta import Ask, sample_state

    st = new_game("bicycle", 4, seed=120)
    greedy = GreedyBot(120)
    rng = random.Random(120)
    while True:  # greedy and random play to a decision where 'ask' is legal before the draw
        acts = st.legal_actions()
        if Ask() in acts and len(acts) > 1:
            break
        st = st.apply(greedy._choose_state(st) if rng.random() < 0.7 else rng.choice(acts))
    seat = st.current_player
    assert seat is not None and st.phase is canasta.Phase.DRAW
    obs = st.observation(seat)
    assert any(not sample_state(obs, random.Random(k)).is_legal(Ask()) for k in range(10))
    for seed in range(3):
        bot = small(seed, iterations=6)
        assert bot.choose(obs, acts) in acts
        assert Ask() in bot.last_stats and bot.last_iterations > 0
