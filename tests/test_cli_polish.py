"""The terminal game as a person meets it (issue 30): one set of bots in every command, a
searching bot that says it is thinking and a time limit to set, a hint that is played as it is
shown, a samba hand grouped by suit, hand-and-foot's long melds counted, a red three drawn named
in the draw, a save taken at a hand's end resumed in words that fit, new-canasta's two dealers
explained, problems of a whole file without a "(file)" label, and an unknown key pointed to the
table where it belongs."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

import canasta
from canasta import Draw, new_game
from canasta.cli import main


def _play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], script: str,
          *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    status = main(["play", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# ------------------------------------------------------------------ bots


def test_every_command_takes_every_built_in_bot(capsys: pytest.CaptureFixture[str]) -> None:
    """``demo`` and ``play`` took greedy, random and ismcts, ``simulate`` greedy, random and
    search: now each lists and takes all four, the names of ``simulate(bots=...)``."""
    from canasta._simulate import BUILTIN_BOTS
    from canasta.cli.bots import BOTS

    assert list(BOTS) == list(BUILTIN_BOTS) == ["greedy", "random", "search", "ismcts"]
    for command in ("demo", "play", "simulate"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        for name in BOTS:
            assert name in text, (command, name)


@pytest.mark.slow
def test_simulate_plays_ismcts_and_demo_plays_search(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate --bots ismcts`` (a budget of descents: the same rows anywhere) and ``demo
    --bots search --think S`` both play a deal to its end."""
    import canasta._simulate as sim

    monkeypatch.setattr(sim, "ISMCTS_ITERATIONS", 2)  # (the wiring, not the search, is tested)
    assert main(["simulate", "online", "-p", "2", "-n", "1", "--bots", "ismcts,greedy"]) == 0
    assert "bots: ismcts, greedy" in capsys.readouterr().out
    assert main(["demo", "online", "-p", "2", "--max-hands", "1", "--bots", "search,greedy",
                 "--think", "0.01", "--summary"]) == 0
    assert "seat 0 (side A) is a search bot" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["0", "-1", "nan", "soon", "601"])
def test_think_takes_seconds_above_zero(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["demo", "--think", value])
    assert exit_.value.code == 2 and "--think" in capsys.readouterr().err


def test_think_sets_the_searching_bots_time_limit() -> None:
    from canasta.cli.bots import make_bot

    assert make_bot("ismcts", 1, 0.25).time_limit == 0.25
    assert make_bot("search", 1, 0.25).time_limit == 0.25


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_searching_bot_says_it_is_thinking_on_a_terminal_and_clears_the_line() -> None:
    """Issue 30: 15 s of silence with ``--bots ismcts``. On a terminal a line says who is thinking
    while a bot with a choice searches, and is cleared when it has chosen; a decision without a
    choice, and output that is not a terminal, show nothing."""
    from canasta.cli.bots import Thinking, make_bot

    st = new_game("online", 2, seed=3)
    st = st.apply(Draw())  # (the meld phase: a choice)
    assert len(st.legal_actions()) > 1
    bot = make_bot("ismcts", 1, 0.01)
    term = _Terminal()
    action = Thinking(term).ask(bot, st, "seat 0 (side A)")
    assert st.is_legal(action)
    assert term.getvalue() == "  seat 0 (side A) is thinking ...\r\x1b[K"
    plain = io.StringIO()
    Thinking(plain).ask(bot, st, "seat 0 (side A)")
    assert plain.getvalue() == ""


# ------------------------------------------------------------------ hints and the list


def test_a_hint_is_typed_as_it_is_shown(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Samba, seed 0, after the draw: the greedy hint is one of three ways of meld A A A. It is
    shown with its way's letter (``7a.``), and typing that plays exactly the hinted action; the
    hint used to say "7." and typing 7 asked which aces."""
    status, out, _ = _play(monkeypatch, capsys, "1\nhint\nquit\n", "samba")
    hint = re.search(r"^hint: (\d+[a-z]?)\. (.+?) \(", out, re.M)
    assert hint is not None and re.fullmatch(r"\d+[a-z]", hint.group(1)), out[-800:]
    label, action = hint.groups()
    status, out, _ = _play(monkeypatch, capsys, f"1\n{label}\nquit\n", "samba")
    assert status == 0
    assert f"  You melded {action[len('meld '):]}." in out
    assert "which one (a letter" not in out


def test_help_names_the_hint_bot_in_use(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 26: the help said "what the greedy bot would play" whatever ``--hint-bot`` was."""
    status, out, _ = _play(monkeypatch, capsys, "help\nquit\n", "online", "-p", "2", "--hint-bot", "random")
    assert "'hint' (what the random bot would play, and why)" in out
    assert "greedy bot would play" not in out


def test_a_sequence_in_hoyle_is_refused_for_having_no_sequences(monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Hoyle 1950 has no sequences (rule 22: melds are "combinations of three or more cards of the
    same rank"): ``meld 5h 6h 7h`` before the
    draw is refused for that, not with "draw first", which would only defer the refusal; an
    action the variant has still gets the rule of the moment."""
    status, out, _ = _play(monkeypatch, capsys, "meld 5h 6h 7h\nmeld 7 7 7\nquit\n", "hoyle-1950", "--seed", "1")
    assert "meld 5h 6h 7h is not allowed: this variant has no sequences" in out
    assert "meld 7 7 7 is not allowed: draw or take the pile first" in out


# ------------------------------------------------------------------ what the screen shows


def test_a_samba_hand_is_grouped_by_suit() -> None:
    """Samba's sequences are of one suit (Bicycle, "Samba": "a sequence of three to seven cards
    of the same suit"): the hand is shown grouped by suit, high cards first, wild cards last."""
    from canasta.cli.view import person_view

    st = new_game("samba", seed=0)
    line = next(ln for ln in person_view(st, 0) if "your hand" in ln)
    assert line.endswith("As Qs Qs 10s 8s | Ah 6h 5h | Jc 10c 9c | Ad Ad | 2 JK")
    groups = line.split(": ", 1)[1].split(" | ")
    for group in groups[:-1]:
        assert len({card[-1] for card in group.split()}) == 1  # one suit a group
    plain = next(ln for ln in person_view(new_game("hoyle-1950", seed=0), 0) if "your hand" in ln)
    assert "|" not in plain  # no suits: highest rank first, as before


def test_long_groups_are_counted_not_spelt_out() -> None:
    """Hand-and-foot's canastas are seven cards and more: a group of more than four cards is
    shown ``7x6+JK (mixed canasta)``, as ``demo`` shows the table; short melds stay spelt out."""
    from canasta import TableMeld
    from canasta.cli.view import side_melds_text

    v = canasta.load_variant("hand-and-foot")
    text = side_melds_text((TableMeld(7, naturals=6, jokers=1), TableMeld(9, naturals=3)), v)
    assert text == "7x6+JK (mixed canasta); 9 9 9"


def test_every_card_drawn_is_told_red_threes_too(capsys: pytest.CaptureFixture[str]) -> None:
    """A red three drawn is laid down at once (hand-and-foot), so the hand no longer holds it:
    the draw's line named two of three cards. Every draw line of a demo now accounts for every
    card drawn: the cards named plus the red threes said."""
    assert main(["demo", "hand-and-foot", "--max-hands", "1", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    draws = re.findall(r"drew (\d+) cards? from the stock: ([^,.]*)(?:, and (a|\d+) red threes? \(laid down\))?\.", out)
    assert draws and any(red for _, _, red in draws)
    for count, cards, red in draws:
        reds = 0 if not red else 1 if red == "a" else int(red)
        assert len(cards.split()) + reds == int(count), (count, cards, red)


def test_new_canasta_explains_its_two_dealers(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """New Canasta: one dealer deals the hands in play, the next the down hands, and the player
    left of the down-hand dealer begins (the score keeper never deals or begins): "you dealt"
    and then seat 2 playing first is explained at the deal."""
    status, out, _ = _play(monkeypatch, capsys, "quit\n", "new-canasta")
    assert "=== Hand 1: you dealt; the upcard is " in out and "seat 2 (side C) plays first" in out
    assert ("two dealers: you dealt the hands in play, seat 1 (the next dealer) the down hands; the player "
            "left of the down-hand dealer plays first") in out


def test_a_save_taken_at_a_hands_end_resumes_with_the_next_deal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A game saved when hand 1 was over: the resume says so and deals hand 2 (it said "hand 1,
    108 moves into it" and then dealt hand 2)."""
    v = canasta.load_variant("online")
    start = new_game(v, 2, seed=3)
    recorder = canasta.GameRecorder(start)
    final, _ = canasta.play_game(v, 2, [canasta.GreedyBot(1), canasta.GreedyBot(2)], seed=3, max_hands=1,
                                 on_action=recorder.on_action)
    assert final.is_hand_over and not final.is_game_over
    save = tmp_path / "end.toml"
    save.write_text(canasta.dump_record(recorder.record(names=("you", "greedy bot"))), encoding="utf-8")
    moves = recorder.record().moves
    status, out, _ = _play(monkeypatch, capsys, "quit\n", "--resume", str(save))
    assert status == 0
    assert f"Resumed {save}: hand 1 was over ({moves} moves in all); hand 2 is dealt now." in out
    assert "=== Hand 2: " in out and "into it" not in out


# ------------------------------------------------------------------ variant files


def test_a_whole_file_problem_has_no_key_label(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``nope.toml: (file): no such file`` read oddly: a problem of the whole file names the file
    and the problem; a setting's problem still names its key."""
    assert main(["validate", str(tmp_path / "nope.toml")]) == 1
    got = capsys.readouterr()
    assert (got.out + got.err).strip() == f"{tmp_path / 'nope.toml'}: no such file"
    assert main(["show", "bicycel"]) == 1
    assert capsys.readouterr().err.startswith("bicycel: unknown variant 'bicycel' (did you mean 'bicycle'?)")


def test_an_unknown_key_points_to_the_table_where_it_belongs(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``scoring.going_out`` is not a key; the going-out bonus is ``[going_out] bonus``
    (hoyle-1950 rule 53: "For going out 100"). "Did you mean" looks across tables."""
    path = tmp_path / "house.toml"
    path.write_text('extends = "hoyle-1950"\n[scoring]\ngoing_out = 100\n', encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    got = capsys.readouterr()
    err = got.out + got.err
    assert f"{path}: scoring.going_out: unknown key (did you mean a key of the [going_out] table: " in err
    assert "bonus" in err.split("(did you mean", 1)[1].split(")")[0]
    path.write_text('extends = "hoyle-1950"\n[scoring]\nbonus = 100\n', encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    got = capsys.readouterr()
    assert "(did you mean 'bonus' in [red_threes] or [going_out]" in got.out + got.err


# ------------------------------------------------------------------ the core


def test_core_info_names_the_fix_in_a_source_tree_without_a_native_build(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``python -c "import canasta"`` at the project's root imports the source tree, where the
    native core is not built: the reason says so and names ``python native/build.py``; an
    installed package without it (no ``native/`` beside it) gives the installation's reason."""
    import importlib.util

    from canasta import _coreinfo
    from canasta._core import _backend

    (tmp_path / "native").mkdir()
    (tmp_path / "native" / "build.py").write_text("")
    monkeypatch.setattr(_coreinfo, "_package_parent", lambda: str(tmp_path))
    monkeypatch.setattr(_backend, "_ext", None)
    monkeypatch.setattr(_backend, "_why_not", "the native core is not built in this installation")
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "canasta._native" else real(name, *a))
    info = canasta.core_info()
    assert info.name == "python" and not info.native_built
    assert "source tree" in info.reason and "python native/build.py" in info.reason
    assert info.reason.startswith(f"canasta is imported from its source tree ({tmp_path})"), info.reason
    monkeypatch.setattr(_coreinfo, "_package_parent", lambda: str(tmp_path / "site-packages"))
    assert canasta.core_info().reason == "the native core is not built in this installation"


def test_undo_and_resume_do_not_ask_a_searching_bot_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rebuilding the game (undo, resume) replays the recorded moves; a bot searching against the
    clock (ismcts: a second a decision) is not asked again at each of them, which made an undo
    wait a second a move; the greedy and random bots still are, so that their ties fall alike."""
    from canasta._ismcts import ISMCTSBot
    from canasta.cli.game import Game

    st = new_game("online", 2, seed=3)
    moves = []
    for _ in range(12):
        action = st.legal_actions()[0]
        moves.append(str(action))
        st = st.apply(action)

    def refuse(*args: object) -> None:
        raise AssertionError("asked again")

    monkeypatch.setattr(ISMCTSBot, "choose", refuse)
    game = Game(new_game("online", 2, seed=3), 0, "ismcts", None)
    game.rebuild([moves])
    assert game.state == st
