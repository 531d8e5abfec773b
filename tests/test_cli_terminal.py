"""``canasta play`` in a real pseudo-terminal (issue 13, item 1; issue 19): a whole hand played
by typed commands, a save that an interrupted game keeps, a resume from the same position, an
undo, and in every bundled variant ``help``, ``hint``, hinted moves, ``undo``, a save and a resume.

Each test runs ``python -m canasta play`` under pexpect, as a person at a terminal would: the
output is a terminal, so rich's colours and tables are used (escape codes are taken out before
the text is read). Every action typed is the notation of a bot's hint, read from the screen.
The short games of the first tests are ones found by playing hint moves: wikipedia, seed 69,
where the first hand ends after three of the person's decisions.
"""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import sys
from pathlib import Path

import pytest

import canasta
from canasta.cli.game import PAUSE_PROMPT, PROMPT

pexpect = pytest.importorskip("pexpect")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
ACTION = re.escape(PROMPT)
PAUSE = re.escape(PAUSE_PROMPT)
ARGS = ["wikipedia", "--seed", "69"]


def plain(text: str) -> str:
    """The text without escape codes or carriage returns."""
    return ANSI.sub("", text).replace("\r", "")


def spawn(*args: str, cwd: Path) -> "pexpect.spawn":
    env = dict(os.environ)
    env.pop("CANASTA_PLAIN", None)
    env.pop("NO_COLOR", None)
    env["TERM"] = "xterm-256color"
    # Ctrl-C as a shell gives it: a test run before in this process (a library it used) may have
    # set SIGINT to be ignored, which a child inherits, and Python then installs no
    # KeyboardInterrupt (the Ctrl-C test hung in CI's full runs, never alone)
    return pexpect.spawn(sys.executable, ["-m", "canasta", "play", *args], cwd=str(cwd), env=env,
                         encoding="utf-8", timeout=60, dimensions=(60, 180),
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def view_of(screen: str) -> str:
    """The last view of the person's position on ``screen``: from its ``--- hand`` line to
    the legal actions."""
    text = plain(screen)
    start = text.rindex("--- hand ")
    return text[start:text.index("    legal actions:", start)]


def hint(child: "pexpect.spawn") -> str:
    """Ask for a hint at the prompt; the action it names (to be typed)."""
    child.sendline("hint")
    child.expect(r"hint: (\d+)\. ([^\n]+?) \(")
    action = plain(child.match.group(2))
    child.expect(ACTION)
    return action


def test_a_whole_hand_typed_at_a_terminal(tmp_path: Path) -> None:
    """Every decision of a hand typed as notation; the hand's end pauses with the itemised
    score table (rich's, on a terminal), and quit there shows the score after the hand."""
    save = tmp_path / "game.toml"
    child = spawn(*ARGS, "--save", str(save), cwd=tmp_path)
    typed = []
    child.expect(ACTION)
    assert "--- hand 1: you to play" in plain(child.before)
    while True:
        action = hint(child)
        child.sendline(action)
        typed.append(action)
        if child.expect([ACTION, PAUSE]) == 1:
            break
    screen = plain(child.before)
    assert re.search(r"--- Hand 1 is over \(went out\): side A [+-][\d,]+, side B [+-][\d,]+; totals ", screen)
    if importlib.util.find_spec("rich") is not None:
        assert re.search(r"│ melded cards +│ +\d+ │ +\d+ │", screen)  # the itemised table, by rich
        assert re.search(r"│ hand total +│ +-?\d+ │ +-?\d+ │", screen)
    else:  # without the cli extra: the same rows as plain lines
        assert re.search(r"melded cards +-?\d+", screen)
        assert re.search(r"hand total +-?\d+", screen)
    assert re.search(r"took the pile: \d+ cards? \(top ", screen)
    assert re.search(r"(You|Seat \d \(side [AB]\)) went out\.", screen)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    end = plain(child.before)
    child.close()
    assert child.exitstatus == 0
    record = canasta.load_record(save.read_text(encoding="utf-8"))
    final = canasta.replay(record)
    assert final.is_hand_over and final.hand_number == 0
    assert f"Score after hand 1: side A {final.totals[0]}, side B {final.totals[1]}" in end
    states = list(canasta.replay_states(record))
    mine = [m for m, st in zip(record.hands[0], states) if st.current_player == 0]
    assert len(typed) == 3 and mine == typed
    assert record.names == ("you", "greedy bot", "greedy bot", "greedy bot")


@pytest.mark.slow  # (samba's session below resumes in the fast selection)
def test_an_interrupted_game_resumes_at_the_same_position(tmp_path: Path) -> None:
    """The save is written after every move: a game killed at a prompt has lost nothing, and
    ``--resume`` shows the same position and goes on from it."""
    save = tmp_path / "game.toml"
    child = spawn(*ARGS, "--save", str(save), cwd=tmp_path)
    child.expect(ACTION)
    child.sendline(hint(child))  # the first decision
    child.expect(ACTION)
    before = view_of(child.before)
    child.kill(9)  # no quit, no clean exit
    child.close()
    record = canasta.load_record(save.read_text(encoding="utf-8"))
    state = canasta.replay(record)
    assert state.current_player == 0 and record.moves >= 2

    again = spawn("--resume", str(save), cwd=tmp_path)
    again.expect(ACTION)
    shown = plain(again.before)
    assert f"Resumed {save}: hand 1, {record.moves} moves into it" in shown
    assert view_of(shown) == before
    action = hint(again)
    again.sendline(action)
    again.expect([ACTION, PAUSE])
    again.sendline("quit")
    again.expect(pexpect.EOF)
    again.close()
    assert again.exitstatus == 0
    after = canasta.load_record(save.read_text(encoding="utf-8"))
    assert after.hands[0][:record.moves] == record.hands[0]
    assert after.hands[0][record.moves] == action


@pytest.mark.slow  # (samba's session below undoes in the fast selection)
def test_undo_at_a_terminal_goes_back_to_the_previous_decision(tmp_path: Path) -> None:
    """``undo`` takes back the person's last move and the bots' moves since: the same view is
    shown again, and the save loses those moves and notes the undo in its comment."""
    save = tmp_path / "game.toml"
    child = spawn(*ARGS, "--save", str(save), cwd=tmp_path)
    child.expect(ACTION)
    child.sendline(hint(child))
    child.expect(ACTION)
    first_view = view_of(child.before)
    kept = canasta.load_record(save.read_text(encoding="utf-8"))
    child.sendline(hint(child))
    child.expect(ACTION)
    child.sendline("undo")
    child.expect(ACTION)
    screen = plain(child.before)
    assert re.search(r"Undone: your '[^']+'( and the bots' \d+ moves? since)?; back to that decision\.", screen)
    assert view_of(screen) == first_view
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    after = canasta.load_record(save.read_text(encoding="utf-8"))
    assert after.hands == kept.hands
    assert "undo in hand 1: back to hand 1, move" in after.comment


def test_ctrl_c_ends_the_game_with_the_save_up_to_date(tmp_path: Path) -> None:
    """Ctrl-C at the prompt: the score so far and where the game is saved; exit status 130."""
    save = tmp_path / "game.toml"
    child = spawn(*ARGS, "--save", str(save), cwd=tmp_path)
    child.expect(ACTION)
    child.sendline(hint(child))
    child.expect(ACTION)
    child.sendintr()
    child.expect(pexpect.EOF)
    screen = plain(child.before)
    child.close()
    assert child.exitstatus == 130
    assert "Score so far: side A 0, side B 0 (hand 1 was not finished and is not scored)" in screen
    assert f"Saved in {save}: continue with canasta play --resume {save}" in screen
    state = canasta.replay(canasta.load_record(save.read_text(encoding="utf-8")))
    assert state.current_player == 0 and len(state.history) >= 2


# ------------------------------------------------------------------ every bundled variant

FAST = {"samba"}
"""The variant whose session runs in the fast selection: a suited one (sequences, cards with
suits, grouped lines; the wikipedia tests above play a classic one); the others run in CI
(``slow``), keeping the README's ``pytest`` under a minute."""


def _variants() -> list[object]:
    return [pytest.param(name, marks=() if name in FAST else pytest.mark.slow)
            for name in canasta.variant_names()]


@pytest.mark.parametrize("name", _variants())
def test_help_hints_undo_save_and_resume_in_every_variant(name: str, tmp_path: Path) -> None:
    """In each bundled variant, as a person at a terminal: ``help`` teaches the variant's own
    notation (suited cards and sequences where the variant has them: Bicycle, "Samba", Sequence
    Meld); ``hint``, asked three times at a decision, names the same legal action each time, with a reason, and
    that hinted move is played, three decisions running; ``undo`` goes back to the previous
    decision, showing the same view; the game, killed at a prompt, resumes from its save at the
    same view, and quits cleanly."""
    variant = canasta.load_variant(name)
    suited = variant.melds.sequences.allowed
    save = tmp_path / "game.toml"
    child = spawn(name, "--seed", "1", "--save", str(save), cwd=tmp_path)
    child.expect(ACTION)
    banner = plain(child.before)
    assert ("'meld 5h 6h 7h'" in banner) == suited and ("'meld 7 7 7'" in banner) != suited
    view = view_of(banner)

    child.sendline("help")
    child.expect(ACTION)
    help_text = plain(child.before)
    assert "Type an action's number from the list, or the action in notation" in help_text
    if suited:
        assert "the naturals 4 to A with their suits" in help_text
        assert re.search(r"^  meld 5h 6h 7h +a new sequence", help_text, re.M)
        assert "add 8h to hearts" in help_text and "'meld 7 7 7'" in help_text
    else:
        assert "JK 2 3r 3b 4 5 6 7 8 9 10 J Q K A" in help_text and "7h" not in help_text

    views, moves = [], []
    for _ in range(3):  # three decisions, each played as the hint says
        views.append(view)
        hints = [hint(child) for _ in range(3)]
        assert hints[0] == hints[1] == hints[2], hints
        state = canasta.replay(canasta.load_record(save.read_text(encoding="utf-8")))
        assert state.is_legal(hints[0]) and state.current_player == 0
        child.sendline(hints[0])
        moves.append(hints[0])
        assert child.expect([ACTION, PAUSE]) == 0, f"{name}: the hand ended early"
        assert "Traceback" not in child.before and "internal error" not in child.before
        view = view_of(child.before)

    child.sendline("undo")
    child.expect(ACTION)
    screen = plain(child.before)
    assert f"Undone: your {moves[-1]!r}" in screen
    assert view_of(screen) == views[-1]
    record = canasta.load_record(save.read_text(encoding="utf-8"))
    mine = [m for m, st in zip(record.hands[-1], canasta.replay_states(record)) if st.current_player == 0]
    assert mine == moves[:2]

    child.sendline(moves[-1])  # the same move again, then an interrupted game
    child.expect(ACTION)
    before = view_of(child.before)
    child.kill(9)
    child.close()
    again = spawn("--resume", str(save), cwd=tmp_path)
    again.expect(ACTION)
    shown = plain(again.before)
    assert f"Resumed {save}: hand 1, " in shown
    assert view_of(shown) == before
    assert shown.count("=== Hand 1: ") == 1  # the hand from its deal, as it was seen
    again.sendline("quit")
    again.expect(pexpect.EOF)
    again.close()
    assert again.exitstatus == 0
    resumed = canasta.load_record(save.read_text(encoding="utf-8"))
    assert [m for m, st in zip(resumed.hands[-1], canasta.replay_states(resumed))
            if st.current_player == 0] == moves
