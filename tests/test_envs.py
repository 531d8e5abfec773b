"""The reinforcement-learning adapters (``canasta.envs``) and the encoder's numpy forms.

Everything here needs the ``rl`` extra (numpy, gymnasium, pettingzoo, open_spiel): a test whose
package is missing is skipped, saying which (CI installs the extra and runs them all).

Covered: ``ObservationEncoder.encode_array`` / ``encode_batch`` and the layout version; the
environments' fast vector equals the encoder's on playouts of every variant; PettingZoo's
``api_test`` and ``seed_test`` on every table (the usual one of each variant in the fast run,
and a ten-player table), agent order, masks, rewards, episodes, illegal actions and option
errors; Gymnasium's ``check_env``, the registration, opponents, rewards and seeding;
OpenSpiel's ``random_sim_test``, the chance model, the tensors and the returns.
"""

from __future__ import annotations

import contextlib
import io
import random
import subprocess
import sys
import warnings
from typing import Any, Iterator

import pytest

import canasta
from canasta import ObservationEncoder, new_game

RL = "the rl extra is not installed (pip install \"canasta[rl]\")"
np = pytest.importorskip("numpy", reason=f"numpy: {RL}")
gymnasium = pytest.importorskip("gymnasium", reason=f"gymnasium: {RL}")
envs = pytest.importorskip("canasta.envs", reason=RL)
from canasta.envs import EnvError  # noqa: E402
from canasta.envs._common import StateEncoder  # noqa: E402


def _pettingzoo() -> Any:
    return pytest.importorskip("pettingzoo", reason=f"pettingzoo: {RL}")


def _pyspiel() -> Any:
    pyspiel = pytest.importorskip("pyspiel", reason=f"open_spiel (pyspiel): {RL}; open_spiel has "
                                  "wheels for Linux and macOS only")
    from canasta.envs import openspiel

    openspiel.register()
    return pyspiel


def tables() -> list[tuple[str, int]]:
    """Every bundled table, as (variant, players)."""
    out = []
    for name in canasta.variant_names():
        v = canasta.load_variant(name)
        out += [(name, int(p)) for p in sorted(v.tables, key=int)]
    return out


def table_ids(t: tuple[str, int]) -> str:
    # "variant-players": tests/conftest.py marks the tables beyond each variant's usual one slow
    return f"{t[0]}-{t[1]}"


TABLES = tables()
USUAL = [(name, canasta.load_variant(name).default_players) for name in canasta.variant_names()]


def side_values(result: canasta.HandResult) -> list[float]:
    """Each side's hand score minus the mean of the others' (the documented "score" reward)."""
    scores = [s.total for s in result.scores]
    n = len(scores)
    return [s - (sum(scores) - s) / (n - 1) for s in scores]


def states(name: str, players: int, seeds: range) -> Iterator[canasta.GameState]:
    """Every state of random playouts of one hand."""
    for seed in seeds:
        rng = random.Random(seed)
        st = new_game(name, players, seed=seed)
        while True:
            yield st
            if st.is_hand_over:
                break
            st = st.apply(rng.choice(st.legal_action_ids()))


# ------------------------------------------------------------------ the encoder's numpy forms


def test_encode_array_and_batch_are_the_list_encoding_as_float32() -> None:
    enc = ObservationEncoder("hoyle-1950", 4)
    obs = [st.observation(st.current_player or 0) for st in states("hoyle-1950", 4, range(1))][:40]
    one = enc.encode_array(obs[7])
    assert one.dtype == np.float32 and one.shape == (enc.size,)
    assert np.array_equal(one, np.array(enc.encode(obs[7]), dtype=np.float32))
    batch = enc.encode_batch(obs)
    assert batch.dtype == np.float32 and batch.shape == (len(obs), enc.size)
    for i, o in enumerate(obs):
        assert np.array_equal(batch[i], enc.encode_array(o))
    assert enc.encode_batch([]).shape == (0, enc.size)
    assert enc.encode_batch(iter(obs[:3])).shape == (3, enc.size)


def test_encode_batch_refuses_an_observation_of_another_table() -> None:
    other = new_game("hoyle-1950", 6, seed=1).observation(0)
    enc = ObservationEncoder("hoyle-1950", 4)
    mine = new_game("hoyle-1950", 4, seed=1).observation(0)
    with pytest.raises(ValueError, match="hoyle-1950 with 4 players"):
        enc.encode_batch([mine, other])


# The segments of each layout version, in order. Changing the vector without bumping
# ObservationEncoder.LAYOUT_VERSION (and adding its row here) fails this test.
LAYOUTS = {
    1: ("own_hand", "own_down_size", "other_hand_sizes", "other_down_sizes", "melds", "red_threes", "opened",
        "initial_need", "totals", "pile_size", "pile_top", "pile_discards", "frozen", "stock_size", "phase",
        "current_player", "dealer", "active", "melded", "took_last", "turn", "last_round"),
}


@pytest.mark.parametrize("name", ["hoyle-1950", "new-canasta", "samba", "bolivia", "brazilian"])
def test_the_layout_version_names_the_layout(name: str) -> None:
    """The segments of the version's layout, in order; a variant with suits (sequences) has
    the ``sequences`` segment right after ``melds`` and its card segments per card code."""
    version = ObservationEncoder.LAYOUT_VERSION
    assert isinstance(version, int) and version >= 1
    enc = ObservationEncoder(name, canasta.load_variant(name).default_players)
    names = tuple(seg.name for seg in enc.layout)
    expected = tuple(n for n in LAYOUTS[version] if enc.down_hands or "down" not in n)
    if enc.suited:
        at = expected.index("melds") + 1
        expected = expected[:at] + ("sequences",) + expected[at:]
    assert names == expected
    p, s = enc.players, enc.sides
    shapes = {seg.name: seg.shape for seg in enc.layout}
    nc = 48 if enc.suited else 15
    assert shapes["own_hand"] == shapes["pile_top"] == shapes["pile_discards"] == (nc,)
    assert shapes["other_hand_sizes"] == (p - 1,)
    assert shapes["melds"] == (s, len(enc.meld_ranks), enc.max_melds_per_rank, 4)
    if enc.suited:
        assert shapes["sequences"] == (s, 4, enc.sequence_slots, len(enc.sequence_ranks))
    assert shapes["phase"] == (len(canasta.Phase),) and shapes["turn"] == (13,)


@pytest.mark.parametrize("table", TABLES, ids=table_ids)
def test_the_environments_vector_is_the_encoders(table: tuple[str, int]) -> None:
    """The adapters' fast path gives exactly ``encode_array(state.observation(seat))``, for
    every seat of every state of playouts, also when the states come out of order."""
    name, players = table
    enc = ObservationEncoder(name, players)
    fast = StateEncoder(enc)
    seen = list(states(name, players, range(2)))
    for st in seen:
        for seat in range(players):
            assert np.array_equal(fast.encode(st, seat), enc.encode_array(st.observation(seat)))
    for st in random.Random(5).sample(seen, 20):  # jumping back and forth between states
        seat = random.Random(len(st.history)).randrange(players)
        assert np.array_equal(fast.encode(st, seat), enc.encode_array(st.observation(seat)))


# ------------------------------------------------------------------ PettingZoo


def quiet(f: Any, *args: Any, **kwargs: Any) -> Any:
    """Call ``f`` without its printing and its advice warnings."""
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kwargs)


@pytest.mark.parametrize("table", TABLES, ids=table_ids)
def test_pettingzoo_api_and_seed_tests(table: tuple[str, int]) -> None:
    _pettingzoo()
    from pettingzoo.test import api_test, seed_test

    name, players = table
    quiet(api_test, envs.pettingzoo_env(name, players), num_cycles=300)
    quiet(seed_test, lambda: envs.pettingzoo_env(name, players), num_cycles=100)


def test_pettingzoo_plays_a_ten_player_table_and_a_whole_game() -> None:
    _pettingzoo()
    from pettingzoo.test import api_test

    quiet(api_test, envs.pettingzoo_env("new-canasta", 10), num_cycles=100)
    quiet(api_test, envs.pettingzoo_env("hoyle-1950", 5, episode="game", max_hands=3), num_cycles=2000)


def play_aec(env: Any, seed: int, check: Any = None) -> dict[str, float]:
    """Play one episode at random from the masks; the rewards each agent collected."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    got = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        got[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        if check is not None:
            check(env, agent, obs)
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return got


def test_pettingzoo_agent_order_and_masks_follow_the_game() -> None:
    _pettingzoo()
    env = envs.pettingzoo_env("bicycle")
    asked = []

    def check(env: Any, agent: str, obs: dict[str, Any]) -> None:
        st = env.game_state
        assert agent == f"player_{st.current_player}"
        assert obs["action_mask"].dtype == np.int8
        assert np.array_equal(obs["action_mask"], np.frombuffer(st.legal_action_mask(), dtype=np.int8))
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        if st.history and isinstance(st.history[-1], canasta.Ask):
            asked.append(st)
            # the partner answers in the middle of the asker's turn
            assert st.phase is canasta.Phase.ANSWER and st.current_player != asked_by(st)
            assert st.side_of(st.current_player) == st.side_of(asked_by(st))

    def asked_by(st: canasta.GameState) -> int:
        return st.observation(0).history[-1].seat

    for seed in range(6):
        play_aec(env, seed, check)
    assert asked, "no playout asked to go out: choose other seeds"


@pytest.mark.parametrize("table", USUAL, ids=table_ids)
def test_pettingzoo_score_rewards_are_each_sides_hand_difference(table: tuple[str, int]) -> None:
    _pettingzoo()
    name, players = table
    env = envs.pettingzoo_env(name, players)
    got = play_aec(env, 3)
    st = env.game_state
    assert st.is_hand_over and env.agents == []
    values = side_values(st.result)
    for seat in range(players):
        assert got[f"player_{seat}"] == pytest.approx(values[st.side_of(seat)])
    assert sum(values) == pytest.approx(0.0)


def test_pettingzoo_win_rewards_and_game_episodes() -> None:
    _pettingzoo()
    env = envs.pettingzoo_env("bicycle", reward="win", episode="game", max_hands=2)
    got = play_aec(env, 1)
    st = env.game_state
    assert len(env.hand_results) == 2 or st.is_game_over
    if st.is_game_over:  # decided: +1 to the winners' agents, -1 to the others
        for seat in range(4):
            assert got[f"player_{seat}"] == (1.0 if st.side_of(seat) in st.winners else -1.0)
    else:  # truncated after max_hands: no win reward
        assert set(got.values()) == {0.0}
    env = envs.pettingzoo_env("bicycle", reward="win")
    got = play_aec(env, 2)
    totals = env.game_state.totals
    for seat in range(4):
        side = seat % 2
        assert got[f"player_{seat}"] == (1.0 if totals[side] > totals[1 - side] else -1.0)


def test_pettingzoo_game_episode_truncates_after_max_hands() -> None:
    _pettingzoo()
    env = envs.pettingzoo_env("hoyle-1950", 2, episode="game", max_hands=2)
    truncated = []
    rng = random.Random(0)
    env.reset(seed=4)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            truncated.append(trunc)
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert len(env.hand_results) == 2 and not env.game_state.is_game_over
    assert truncated == [True, True]


def test_pettingzoo_illegal_actions() -> None:
    _pettingzoo()
    env = envs.pettingzoo_env("bicycle")
    env.reset(seed=1)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)  # default: terminate, -1 to the agent, 0 to the others
    assert all(env.terminations.values())
    assert env.rewards == {a: (-1.0 if a == agent else 0.0) for a in env.agents}

    env = envs.pettingzoo_env("bicycle", illegal="penalty", illegal_reward=-5)
    env.reset(seed=1)
    before = env.game_state
    env.step(illegal)
    assert env.game_state is before and env.agent_selection == agent
    assert env.last()[1] == -5.0 and not any(env.terminations.values())

    env = envs.pettingzoo_env("bicycle", illegal="raise")
    env.reset(seed=1)
    with pytest.raises(canasta.IllegalActionError):
        env.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        env.step(10**6)


def test_pettingzoo_reset_seeds_the_deal() -> None:
    _pettingzoo()
    env = envs.pettingzoo_env("hoyle-1950")
    env.reset(seed=11)
    assert env.game_state == new_game("hoyle-1950", 4, seed=11) and env.deal_seed == 11
    env.reset()
    assert env.game_state == new_game("hoyle-1950", 4, seed=12) and env.deal_seed == 12


def test_pettingzoo_render() -> None:
    _pettingzoo()
    env = envs.pettingzoo_env("bicycle", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "bicycle" in text and "seat" in text
    quiet_env = envs.pettingzoo_env("bicycle")
    quiet_env.reset(seed=2)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet_env.render() is None


@pytest.mark.parametrize("kwargs, argument", [
    ({"variant": "no-such-variant"}, "variant"),
    ({"variant": "bicycle", "players": 6}, "players"),
    ({"players": "four"}, "players"),
    ({"reward": "points"}, "reward"),
    ({"episode": "match"}, "episode"),
    ({"illegal": "ignore"}, "illegal"),
    ({"max_hands": 0}, "max_hands"),
    ({"illegal_reward": "much"}, "illegal_reward"),
    ({"render_mode": "rgb_array"}, "render_mode"),
])
def test_bad_options_raise_env_error_naming_the_argument(kwargs: dict[str, Any], argument: str) -> None:
    assert issubclass(EnvError, ValueError)
    with pytest.raises(EnvError, match=f"^{argument}: "):
        envs.gymnasium_env(**kwargs)
    _pettingzoo()
    with pytest.raises(EnvError, match=f"^{argument}: "):
        envs.pettingzoo_env(**kwargs)


def test_import_canasta_imports_no_rl_package() -> None:
    """numpy, gymnasium, pettingzoo and open_spiel stay optional: only ``canasta.envs``
    (and the encoder's numpy methods, when called) import them."""
    code = ("import sys, canasta\n"
            "canasta.new_game('bicycle', seed=1).observation(0)\n"
            "print(sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# ------------------------------------------------------------------ Gymnasium


def test_gymnasium_is_registered_and_passes_check_env() -> None:
    from gymnasium.utils.env_checker import check_env

    assert envs.GYMNASIUM_ID == "canasta/Canasta-v0" and envs.GYMNASIUM_ID in gymnasium.registry
    env = gymnasium.make(envs.GYMNASIUM_ID, variant="bicycle", opponents="greedy")
    quiet(check_env, env.unwrapped)
    env = gymnasium.make(envs.GYMNASIUM_ID, variant="new-canasta", players=3)
    quiet(check_env, env.unwrapped)


def play_gym(env: Any, seed: int) -> tuple[float, int]:
    """One episode at random from the masks: (total reward, steps)."""
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        assert obs["action_mask"].any() and env.observation_space.contains(obs)
        obs, reward, term, trunc, info = env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        total += reward
        steps += 1
        if term or trunc:
            assert not obs["action_mask"].any()
            return total, steps


@pytest.mark.parametrize("table", USUAL, ids=table_ids)
def test_gymnasium_reward_is_the_learned_sides_hand_difference(table: tuple[str, int]) -> None:
    name, players = table
    env = envs.gymnasium_env(name, players, seat=1)
    total, _ = play_gym(env, 5)
    st = env.game_state
    assert st.is_hand_over
    assert total == pytest.approx(side_values(st.result)[st.side_of(1)])


def test_gymnasium_game_episodes_and_win_rewards() -> None:
    env = envs.gymnasium_env("online", 2, seat=1, episode="game", max_hands=2)
    total, _ = play_gym(env, 6)
    assert len(env.hand_results) == 2 or env.game_state.is_game_over
    assert total == pytest.approx(sum(side_values(r)[1] for r in env.hand_results))
    env = envs.gymnasium_env("online", 2, seat=1, reward="win")
    total, _ = play_gym(env, 6)
    totals = env.game_state.totals
    assert total == (0.0 if totals[0] == totals[1] else (1.0 if totals[1] > totals[0] else -1.0))


def test_gymnasium_random_opponents_play_as_random_bots() -> None:
    a = envs.gymnasium_env("hoyle-1950", opponents="random")
    b = envs.gymnasium_env("hoyle-1950", opponents=canasta.RandomBot)
    play_gym(a, 8)
    play_gym(b, 8)
    assert a.game_state.history == b.game_state.history


def test_gymnasium_callable_opponents_see_their_observation() -> None:
    calls = []

    def last_legal(obs: Any, ids: tuple[int, ...]) -> Any:
        calls.append((obs, ids))
        assert np.array_equal(np.flatnonzero(obs["action_mask"]), sorted(ids))
        return np.int64(ids[-1])

    env = envs.gymnasium_env("bicycle", seat=2, opponents=last_legal)
    obs, info = env.reset(seed=3)
    assert info == {"deal_seed": 3}
    enc = ObservationEncoder("bicycle", 4)
    st = env.game_state
    assert np.array_equal(obs["observation"], enc.encode_array(st.observation(2)))
    play_gym(env, 3)
    assert calls and set(calls[0][0]) == {"observation", "action_mask"}
    seats = {len(c[1]) for c in calls}
    assert seats  # the callable was asked with the legal ids each time


def test_gymnasium_opponents_per_seat_and_bad_opponents() -> None:
    env = envs.gymnasium_env("bicycle", seat=0, opponents=[None, "greedy", canasta.GreedyBot(3), "random"])
    play_gym(env, 2)
    with pytest.raises(EnvError, match="^opponents: "):
        envs.gymnasium_env("bicycle", opponents=["random"] * 4)
    with pytest.raises(EnvError, match="^opponents: "):
        envs.gymnasium_env("bicycle", opponents="clever")
    with pytest.raises(EnvError, match="^seat: "):
        envs.gymnasium_env("bicycle", seat=4)


def test_gymnasium_illegal_actions() -> None:
    env = envs.gymnasium_env("bicycle")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game_state
    obs2, reward, term, trunc, info = env.step(illegal)
    assert env.game_state is before and reward == -1.0 and not term and info == {"illegal_action": True}
    assert np.array_equal(obs2["observation"], obs["observation"])

    env = envs.gymnasium_env("bicycle", illegal="terminate", illegal_reward=-3)
    env.reset(seed=1)
    _, reward, term, _, _ = env.step(illegal)
    assert term and reward == -3.0
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)

    env = envs.gymnasium_env("bicycle", illegal="raise")
    env.reset(seed=1)
    with pytest.raises(canasta.IllegalActionError):
        env.step(illegal)


def test_gymnasium_seeding_and_a_seat_that_sits_out() -> None:
    # five-player hoyle-1950: four seats play each deal, and seat 1 sits out the first one;
    # a one-hand episode is then the first hand seat 1 plays (the bots play the one before)
    assert 1 not in new_game("hoyle-1950", 5, seed=0).active
    env = envs.gymnasium_env("hoyle-1950", 5, seat=1)
    obs, info = env.reset(seed=0)
    assert info["deal_seed"] == 0 and env.game_state.hand_number == 1
    assert obs["action_mask"].any() and env.game_state.current_player == 1
    total, _ = play_gym(env, 0)
    st = env.game_state
    assert st.hand_number == 1 and env.hand_results == [st.result]
    assert total == pytest.approx(side_values(st.result)[st.side_of(1)])
    a = envs.gymnasium_env("online", 2)
    first, info = a.reset(seed=9)
    second, info2 = a.reset()
    assert info2["deal_seed"] == 10
    again, _ = a.reset(seed=9)
    assert np.array_equal(first["observation"], again["observation"])


def test_gymnasium_action_masks_and_render() -> None:
    env = envs.gymnasium_env("bicycle", render_mode="ansi")
    obs, _ = env.reset(seed=4)
    assert env.action_masks().dtype == bool
    assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
    assert "learned" in env.render()


# ------------------------------------------------------------------ OpenSpiel


@pytest.mark.parametrize("table", USUAL, ids=table_ids)
def test_openspiel_random_sim_test(table: tuple[str, int]) -> None:
    pyspiel = _pyspiel()
    name, players = table
    game = pyspiel.load_game("python_canasta", {"variant": name, "players": players})
    assert "canasta" in game.get_type().short_name and game.num_players() == players
    # serializing (a state is its actions, replayed) is checked on the smallest usual table
    quiet(pyspiel.random_sim_test, game, num_sims=1, serialize=name == "bicycle", verbose=False)


def test_openspiel_game_episodes_and_win_rewards() -> None:
    pyspiel = _pyspiel()
    game = pyspiel.load_game("python_canasta", {"variant": "online", "players": 2, "episode": "game",
                                                "reward": "win", "max_hands": 2})
    assert game.max_utility() == 1.0 and game.min_utility() == -1.0
    quiet(pyspiel.random_sim_test, game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_chance_nodes_build_the_seed() -> None:
    pyspiel = _pyspiel()
    game = pyspiel.load_game("python_canasta")
    state = game.new_initial_state()
    seed = [7, 1, 0, 2]
    for b in seed:
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 256 and sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(b)
    number = 7 + 1 * 256 + 2 * 256**3
    assert state.game_state == new_game("hoyle-1950", 4, seed=number)
    assert state.current_player() == new_game("hoyle-1950", 4, seed=number).current_player


@pytest.mark.parametrize("name", ["bicycle", "samba"])
def test_openspiel_tensors_and_returns(name: str) -> None:
    """The tensors are the encoder's vector, and with perfect recall each seat's discards per
    card kind (per card code of the encoder's ``card_codes`` where cards carry suits) and takes."""
    pyspiel = _pyspiel()
    game = pyspiel.load_game("python_canasta", {"variant": name})
    enc = ObservationEncoder(name, 4)
    nc = len(enc.card_codes)  # 15 kinds; 48 codes with suits
    assert nc == (48 if enc.suited else 15)
    index = {c: i for i, c in enumerate(enc.card_codes)}
    assert game.observation_tensor_size() == enc.size
    assert game.information_state_tensor_size() == enc.size + 4 * (nc + 1)
    state = game.new_initial_state()
    for b in (3, 0, 0, 0):
        state.apply_action(b)
    rng = random.Random(0)
    discards = [[0] * nc for _ in range(4)]
    while not state.is_terminal():
        player = state.current_player()
        st = state.game_state
        obs = np.array(state.observation_tensor(player), dtype=np.float32)
        assert np.array_equal(obs, enc.encode_array(st.observation(player)))
        info = np.array(state.information_state_tensor(player), dtype=np.float32)
        assert np.array_equal(info[: enc.size], obs)
        rel = [discards[(player + k) % 4] for k in range(4)]
        assert info[enc.size: enc.size + 4 * nc].tolist() == [float(x) for row in rel for x in row]
        assert state.legal_actions() == sorted(st.legal_action_ids())
        action = rng.choice(state.legal_actions())
        if isinstance(st.action_space.decode(action), canasta.Discard):
            discards[player][index[st.action_space.decode(action).card]] += 1
        state.apply_action(action)
    st = state.game_state
    values = side_values(st.result)
    assert state.returns() == pytest.approx([values[st.side_of(s)] for s in range(4)])
    text = state.information_state_string(0)
    lines = text.splitlines()
    assert lines[0] == "p0" and lines[1].startswith("hand 1: pile top") and len(lines) == 2 + len(st.history)
    assert all(line.split(":")[1].split("|")[0].strip() == str(a) for line, a in zip(lines[2:], st.history))
    from canasta.envs.openspiel import CanastaObserver

    fresh = CanastaObserver(game.table, pyspiel.IIGObservationType(perfect_recall=True), None)
    assert fresh.string_from(state, 0) == text  # the kept prefixes give the same text


def test_openspiel_clone_is_independent_and_cheap() -> None:
    pyspiel = _pyspiel()
    game = pyspiel.load_game("python_canasta", {"variant": "wikipedia"})
    state = game.new_initial_state()
    for b in (1, 2, 3, 4):
        state.apply_action(b)
    clone = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert clone.game_state is not state.game_state and len(clone.history()) == 4
    assert clone.game_state == new_game("wikipedia", 4, seed=1 + 2 * 256 + 3 * 256**2 + 4 * 256**3)


def test_openspiel_bad_parameters() -> None:
    pyspiel = _pyspiel()
    with pytest.raises(EnvError, match="^reward: "):
        pyspiel.load_game("python_canasta", {"reward": "points"})
    with pytest.raises(EnvError, match="^players: "):
        pyspiel.load_game("python_canasta", {"variant": "bicycle", "players": 6})
