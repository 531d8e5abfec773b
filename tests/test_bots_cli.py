"""Bots, play_game and the ``canasta`` command."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from canasta import Add, Answer, Ask, Discard, Phase, Take, load_variant, new_game, variant_names
from canasta._bots import GreedyBot, RandomBot, play_game, side_is_ahead
from canasta.cli import main

REPO = Path(__file__).resolve().parents[1]
BUNDLED = ("bicycle", "hoyle-1950", "new-canasta", "online", "three-pack", "wikipedia", "cuban", "hand-and-foot",
           "modern-american")


class Checked:
    """Wraps a bot and fails the test if it ever returns an action that is not legal."""

    def __init__(self, bot: object) -> None:
        self.bot = bot
        self.calls = 0

    def choose(self, observation, legal_actions):  # type: ignore[no-untyped-def]
        action = self.bot.choose(observation, legal_actions)  # type: ignore[attr-defined]
        assert action in legal_actions, f"{self.bot!r} chose illegal {action} in {observation.phase}"
        self.calls += 1
        return action


def ask(bot, state):  # type: ignore[no-untyped-def]
    """The bot's choice in ``state`` under the bot protocol: the observation of the seat to
    act and the legal actions (as play_game asks)."""
    return bot.choose(state.observation(state.current_player), state.legal_actions())


def _states(variant: str, seeds: range, players: int | None = None):  # type: ignore[no-untyped-def]
    """Every state where a player acts, over one hand per seed of random play."""
    for seed in seeds:
        st = new_game(variant, players, seed=seed)
        bot = RandomBot(seed)
        while not st.is_hand_over:
            yield st
            st = st.apply(ask(bot, st))


# ------------------------------------------------------------------ legality


@pytest.mark.parametrize("variant", BUNDLED)
def test_bots_only_return_legal_actions(variant: str) -> None:
    """Greedy and random bots, mixed at one table, only ever choose legal actions (every bundled variant)."""
    v = load_variant(variant)
    n = v.default_players
    for seed in range(2):
        bots = [Checked(GreedyBot(seed) if (s + seed) % 2 == 0 else RandomBot(seed + s)) for s in range(n)]
        st, results = play_game(v, n, bots, seed=seed, max_hands=2)
        assert 1 <= len(results) <= 2
        assert st.is_hand_over
        assert sum(b.calls for b in bots) > 0


@pytest.mark.parametrize("variant", BUNDLED)
def test_greedy_games_terminate_with_a_winner(variant: str) -> None:
    """Greedy games (two per variant) are played to the end within the hand cap, and someone wins."""
    for seed in range(2):
        st, results = play_game(variant, seed=seed, max_hands=200)
        assert st.is_game_over, f"{variant} seed {seed}: no winner after {len(results)} hands"
        assert st.winners and max(st.totals) >= st.variant.game.target
        assert st.totals == tuple(sum(r.scores[s].total for r in results) for s in range(st.sides))


def test_play_game_stops_at_the_hand_cap_and_reports_actions() -> None:
    """play_game stops undecided after max_hands hands and calls on_action after each action."""
    seen = []
    st, results = play_game("hoyle-1950", 4, RandomBot(3), seed=3, max_hands=1,
                            on_action=lambda before, a, after: seen.append((before, a, after)))
    assert len(results) == 1 and not st.is_game_over and st.is_hand_over
    assert seen and seen[-1][2] is st
    assert all(after == before.apply(a) for before, a, after in seen[:20])


def test_play_game_rejects_a_wrong_number_of_bots() -> None:
    """One bot per seat, or a single bot for every seat."""
    with pytest.raises(ValueError, match="one bot per seat"):
        play_game("hoyle-1950", 4, [RandomBot(), RandomBot()], seed=0)


def test_bots_are_reproducible_from_their_seed() -> None:
    """The same seeds give the same game, move for move."""
    def moves(seed: int) -> list[str]:
        out: list[str] = []
        bots = [GreedyBot(seed), RandomBot(seed), GreedyBot(seed + 1), RandomBot(seed + 1)]
        play_game("wikipedia", 4, bots, seed=seed, max_hands=1,
                  on_action=lambda b, a, af: out.append(str(a)))
        return out

    assert moves(5) == moves(5)
    assert moves(5) != moves(6)


# ------------------------------------------------------------------ greedy strength and habits


def test_greedy_side_beats_random_side_hoyle_1950() -> None:
    """hoyle-1950, four players: greedy partners (seats 0, 2) beat random partners in seeded games."""
    wins = 0
    for seed in range(8):
        bots = [GreedyBot(seed) if s % 2 == 0 else RandomBot(seed * 10 + s) for s in range(4)]
        st, _ = play_game("hoyle-1950", 4, bots, seed=seed, max_hands=200)
        wins += st.is_game_over and st.winners == (0,)
    assert wins >= 7, f"greedy side won only {wins} of 8"


@pytest.mark.parametrize("variant", ["hoyle-1950", "wikipedia"])
def test_greedy_takes_the_pile_whenever_it_legally_can_without_a_wild(variant: str) -> None:
    """Where taking the pile with a natural pair or onto a meld is legal, the greedy bot takes it.

    (hoyle-1950 rules 39, 40 and 43, wikipedia "Picking up the discard pile": the pile may be
    taken with a natural pair matching its top card, or, unfrozen, by adding the top card to
    a meld of the side.)
    """
    bot = GreedyBot(0)
    checked = 0
    for st in _states(variant, range(6)):
        if st.phase is not Phase.DRAW:
            continue
        takes = [a for a in st.legal_actions() if isinstance(a, Take) and a.way in ("pair", "onto")]
        if takes:
            assert isinstance(ask(bot, st), Take), st.legal_actions()
            checked += 1
    assert checked >= 5


@pytest.mark.parametrize("variant", BUNDLED)
def test_greedy_discards_no_card_it_could_meld_and_keeps_wild_cards(variant: str) -> None:
    """A greedy discard is never a natural it could add to its side's meld, nor a wild card
    while another discard is legal."""
    bot = GreedyBot(1)
    discards = 0
    # two random hands, and more (at most eight) until ten greedy discards have been seen
    for seed in range(8):
        if seed >= 2 and discards >= 10:
            break
        for st in _states(variant, range(seed, seed + 1)):
            if st.phase is not Phase.MELD:
                continue
            a = ask(bot, st)
            if not isinstance(a, Discard):
                continue
            discards += 1
            acts = st.legal_actions()
            assert Add(a.card, a.card, 1) not in acts, f"discarded {a} with 'add {a.card}' legal"
            if a.card <= 1:
                assert all(d.card <= 1 for d in acts if isinstance(d, Discard)), f"discarded a wild: {acts}"
    assert discards >= 10


def test_greedy_answers_yes_exactly_when_its_side_is_ahead() -> None:
    """hoyle-1950 rule 50 ("May I go out?", the answer binds): the greedy answer is yes when its side is ahead."""
    bot = GreedyBot(0)
    answers = 0
    for st in _states("hoyle-1950", range(40)):
        if st.phase is Phase.ANSWER:
            side = st.side_of(st.current_player)
            assert ask(bot, st) == Answer(side_is_ahead(st, side))
            answers += 1
    assert answers >= 3


def test_greedy_goes_out_when_it_can() -> None:
    """Where asking "may I go out?" is legal (the engine offers it only when the player can go
    out this turn, hoyle-1950 rule 50), the greedy bot asks when ahead and otherwise goes out
    unasked: in greedy games, most hands end with a player going out."""
    bot = GreedyBot(0)
    for st in _states("hoyle-1950", range(40)):
        if st.phase is Phase.MELD and Ask() in st.legal_actions() and side_is_ahead(st, st.side_of(st.current_player)):
            assert ask(bot, st) == Ask()
    _, results = play_game("hoyle-1950", 4, seed=2, max_hands=200)
    assert sum(r.went_out is not None for r in results) >= len(results) - 1


# ------------------------------------------------------------------ the command


def test_demo_prints_a_whole_game_and_the_winner(capsys: pytest.CaptureFixture[str]) -> None:
    """``canasta demo --seed 1``: hand headers, one line per action, itemised scores, a winner."""
    assert main(["demo", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "hoyle-1950" in out
    assert re.search(r"^=== Hand 1: seat \d \(side [AB]\) dealt; the upcard is ", out, re.M)
    assert re.search(r"^    pile: ", out, re.M)
    assert re.search(r"^  Seat \d \(side [AB]\) (drew|took) ", out, re.M)
    assert re.search(r"^  Seat \d \(side [AB]\) discarded ", out, re.M)
    assert re.search(r"^--- Hand 1 is over \(", out, re.M)
    assert re.search(r"^      melded cards +-?\d+$", out, re.M)
    assert re.search(r"^      hand total +-?\d+$", out, re.M)
    assert re.search(r"^=== The game is over: side [AB] wins \(.*; \d+ hands\)$", out, re.M)


def test_demo_with_other_variant_players_and_bots(capsys: pytest.CaptureFixture[str]) -> None:
    """Variant, players and bots can be chosen; --summary leaves out the per-action lines."""
    assert main(["demo", "online", "--players", "2", "--seed", "3", "--bots", "greedy,random",
                 "--summary", "--max-hands", "3"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 (side B) is a random bot" in out
    assert not re.search(r"^  Seat \d \(side [AB]\) ", out, re.M)
    assert "--- Hand 1 is over (" in out
    assert "=== The game is over" in out or "=== Stopped after 3 hands" in out


def test_demo_reports_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown bot or an impossible table is an error (exit status 2) with a message."""
    assert main(["demo", "--bots", "clever"]) == 2
    assert "unknown bot 'clever'" in capsys.readouterr().err
    assert main(["demo", "hoyle-1950", "--players", "9"]) == 2
    assert "9 players is not allowed" in capsys.readouterr().err


def test_variants_lists_every_bundled_variant(capsys: pytest.CaptureFixture[str]) -> None:
    """``canasta variants`` names and describes every bundled variant (the six these tests play
    among them; a variant added later is listed too)."""
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert set(BUNDLED) <= set(variant_names())
    for name in variant_names():
        line = next(ln for ln in out.splitlines() if ln.startswith(name + " "))
        assert load_variant(name).description in line


def test_python_m_canasta_help() -> None:
    """``python -m canasta --help`` shows the commands."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    for args, words in ((["--help"], ["demo", "variants"]), (["demo", "--help"], ["--players", "--seed", "--bots"])):
        proc = subprocess.run([sys.executable, "-m", "canasta", *args], capture_output=True, text=True,
                              env=env, cwd=str(REPO), timeout=60)
        assert proc.returncode == 0, proc.stderr
        for w in words:
            assert w in proc.stdout


def test_mistyped_action_verb_suggests_the_closest() -> None:
    """A mistyped action names the closest verb (errors say what input was wrong and the fix)."""
    import pytest

    import canasta

    with pytest.raises(canasta.ActionParseError, match="did you mean 'discard'"):
        canasta.parse_action("discrad 7")
    with pytest.raises(canasta.ActionParseError, match="unknown action 'xyzzy'; actions are draw"):
        canasta.parse_action("xyzzy")


# ------------------------------------------------------------------ the bot protocol


@pytest.mark.parametrize("variant", BUNDLED)
def test_greedy_plays_the_same_from_its_observation(variant: str) -> None:
    """Issue 12 item 6: a bot receives only the observation and the legal actions. The greedy
    bot loses nothing by it: from the observation it makes the same choice as the same policy
    reading the whole state would (the internal fast path play_game and simulate use),
    decision by decision over a greedy deal."""
    st = new_game(variant, seed=4)
    by_obs = [GreedyBot(s) for s in range(st.players)]
    by_state = [GreedyBot(s) for s in range(st.players)]
    decisions = 0
    while not st.is_hand_over:
        seat = st.current_player
        a = by_obs[seat].choose(st.observation(seat), st.legal_actions())
        assert by_state[seat]._choose_state(st) == a
        decisions += 1
        st = st.apply(a)
    assert decisions > 50


def test_bots_refuse_an_empty_list_of_actions() -> None:
    """Nobody acts once the hand is over: asking a bot then is a ValueError."""
    final, _ = play_game("hoyle-1950", 4, RandomBot(1), seed=1, max_hands=1)
    obs = final.observation(0)
    for bot in (RandomBot(0), GreedyBot(0)):
        with pytest.raises(ValueError, match="legal_actions is empty"):
            bot.choose(obs, ())
