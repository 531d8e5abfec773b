"""``canasta play`` in a real pseudo-terminal (issue 13, item 1): a whole hand played by typed
commands, a save that an interrupted game keeps, a resume from the same position, and an undo.

Each test runs ``python -m canasta play`` under pexpect, as a person at a terminal would: the
output is a terminal, so rich's colours and tables are used (escape codes are taken out before
the text is read). Every action typed is the notation of the greedy bot's hint, read from the
screen. The games are short ones found by playing hint moves: wikipedia, seed 69, where the
first hand ends after three of the person's decisions.
"""

from __future__ import annotations

import importlib.util

import os
import re
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
    return pexpect.spawn(sys.executable, ["-m", "canasta", "play", *args], cwd=str(cwd), env=env,
                         encoding="utf-8", timeout=30, dimensions=(60, 180))


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
    assert re.search(r"--- Hand 1 over: seat \d \(side [AB]\) went out", screen)
    if importlib.util.find_spec("rich") is not None:
        assert re.search(r"│ melded cards +│ +\d+ │ +\d+ │", screen)  # the itemised table, by rich
        assert re.search(r"│ hand total +│ +-?\d+ │ +-?\d+ │", screen)
    else:  # without the cli extra: the same rows as plain lines
        assert re.search(r"melded cards +-?\d+", screen)
        assert re.search(r"hand total +-?\d+", screen)
    assert re.search(r"\(took the pile: \d+ cards?", screen) and "(went out)" in screen
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
