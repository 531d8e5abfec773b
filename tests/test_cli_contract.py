"""The command line's contract (issue 9, contract 4): the CLI never prints a traceback, and
its exit status means the same in every command:

* 0: success;
* 1: bad input (a file, a variant, an action, a record); ``diff``: the variants differ, like
  diff(1);
* 2: a usage error (an unknown command or option, a bad option value).

The error names the file and, where it applies, the key (docs/tools.md, "Exit status").

Each bad input below once gave a traceback or an exit status that differed from command to
command. Most run ``main(argv)`` in this process with the output captured (a usage error is
argparse's ``SystemExit(2)``, as the ``canasta`` command exits); what needs a real process (a
file name or a line of input that is not UTF-8) runs ``python -m canasta``.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

from canasta.cli import main

LONG = "a" * 5000 + ".toml"
"""A file name longer than any file system allows."""


@pytest.fixture()
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory of bad files, made the working directory."""
    (tmp_path / "latin1.toml").write_bytes('description = "Déjà"\n'.encode("latin-1"))
    (tmp_path / "syntax.toml").write_text('extends = "bicycle"\n[game\n', encoding="utf-8")
    (tmp_path / "key.toml").write_text('extends = "bicycle"\n[game]\ntaget = 7500\n', encoding="utf-8")
    (tmp_path / "deep.toml").write_text("a = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    (tmp_path / "huge.toml").write_text('extends = "bicycle"\n[game]\ntarget = ' + "9" * 4000 + "\n",
                                        encoding="utf-8")
    (tmp_path / "dead.toml").write_text('extends = "wikipedia"\n[melds]\npast_closed_going_out = true\n',
                                        encoding="utf-8")
    (tmp_path / "super.toml").write_text('extends = "wikipedia"\n[tables."²"]\nsides = "ABAB"\n',
                                         encoding="utf-8")
    (tmp_path / "club.toml").write_text('extends = "bicycle"\n[game]\ntarget = 7500\n', encoding="utf-8")
    (tmp_path / "record.toml").write_text("this is not a record\n", encoding="utf-8")
    (tmp_path / "record-latin1.toml").write_bytes(b"comment = \"\xe9\"\n")
    (tmp_path / "folder.toml").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: Optional[str] = None,
        monkeypatch: Optional[pytest.MonkeyPatch] = None) -> tuple[int, str]:
    """``main(argv)``: its exit status and everything it printed (stdout and stderr)."""
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        code = main(argv)
    except SystemExit as e:  # argparse: --help (0) or a usage error (2), after the usage
        code = e.code if isinstance(e.code, int) else 2
    captured = capsys.readouterr()
    return code, captured.out + captured.err


# (argv, exit status, a text the output must contain: the file, the key or the reason)
BAD_INPUT = [
    # files that are missing, unreadable, not UTF-8, not TOML, too long a name, a directory
    (["show", "missing.toml"], 1, "missing.toml: no such file"),
    (["validate", "missing.toml"], 1, "missing.toml: no such file"),
    (["diff", "missing.toml", "bicycle"], 1, "missing.toml: no such file"),
    (["demo", "missing.toml"], 1, "missing.toml: no such file"),
    (["play", "missing.toml"], 1, "missing.toml: no such file"),
    (["simulate", "missing.toml", "-n", "1"], 1, "missing.toml: no such file"),
    (["replay", "missing.toml"], 1, "missing.toml: cannot read"),
    (["show", "folder.toml"], 1, "folder.toml: no such file"),
    (["replay", "folder.toml"], 1, "folder.toml: cannot read"),
    (["show", "latin1.toml"], 1, "latin1.toml: not UTF-8 text: byte 0xe9 at line 1"),
    (["validate", "latin1.toml"], 1, "latin1.toml: not UTF-8 text"),
    (["demo", "latin1.toml"], 1, "latin1.toml: not UTF-8 text"),
    (["replay", "record-latin1.toml"], 1, "record-latin1.toml: not UTF-8 text"),
    (["show", LONG], 1, "(5005 characters): cannot read"),
    (["validate", LONG], 1, "(5005 characters): cannot read"),
    (["replay", LONG], 1, "(5005 characters): cannot read"),
    (["show", "bad\0name.toml"], 1, "expected a bundled variant name or a path"),
    (["replay", "bad\0name.toml"], 1, "cannot read"),
    # variant files with problems: the key is named
    (["show", "syntax.toml"], 1, "syntax.toml: not valid TOML"),
    (["validate", "key.toml"], 1, "key.toml: game.taget: unknown key (did you mean 'target'?)"),
    (["validate", "deep.toml"], 1, "deep.toml: lists or inline tables are nested too deeply"),
    (["validate", "huge.toml"], 1, "huge.toml: game.target: is "),
    (["validate", "super.toml"], 1, "super.toml: tables.²: the key '²' is not a player count"),
    (["validate", "dead.toml"], 1, "dead.toml: melds.past_closed_going_out: applies only with melds.canasta_closed"),
    (["demo", "dead.toml"], 1, "dead.toml: melds.past_closed_going_out: applies only with melds.canasta_closed"),
    # bad variant names
    (["show", "bicyle"], 1, "bicyle: unknown variant 'bicyle' (did you mean 'bicycle'?)"),
    (["demo", "bicyle"], 1, "unknown variant 'bicyle'"),
    (["play", "bicyle"], 1, "unknown variant 'bicyle'"),
    (["simulate", "bicyle", "-n", "1"], 1, "unknown variant 'bicyle'"),
    (["diff", "bicycle", "²"], 1, "²: unknown variant '²'"),
    (["show", ""], 1, "expected a bundled variant name or a path"),
    # records
    (["replay", "record.toml"], 1, "record.toml: "),
    (["replay", "club.toml"], 1, "club.toml: "),
]

USAGE = [
    ([], 2, "usage: canasta"),
    (["frobnicate"], 2, "invalid choice: 'frobnicate'"),
    (["show"], 2, "the following arguments are required: VARIANT"),
    (["show", "--frob", "bicycle"], 2, "unrecognized arguments: --frob"),
    (["demo", "--players", "abc"], 2, "--players/-p: expected an integer from 2 to 12, got 'abc'"),
    (["demo", "--players", "٤"], 2, "--players/-p: expected an integer"),
    (["demo", "--players", "1"], 2, "--players/-p: must be 2 to 12, not 1"),
    (["demo", "bicycle", "--players", "3"], 2, "3 players is not allowed; allowed: 4"),
    (["demo", "--seed", "1" + "0" * 40], 2, "--seed/-s: expected an integer"),
    (["demo", "--seed", "1.5"], 2, "--seed/-s: expected an integer"),
    (["demo", "--bots", "nobody"], 2, "unknown bot 'nobody'"),
    (["demo", "--max-hands", "0"], 2, "--max-hands: must be 1 to"),
    (["play", "--seat", "-1"], 2, "--seat/-k: must be 0 to 11, not -1"),
    (["play", "bicycle", "--seat", "7"], 2, "--seat must be 0 to 3"),
    (["play", "--bots", "nobody"], 2, "invalid choice: 'nobody'"),
    (["simulate", "bicycle"], 2, "one of the arguments --deals/-n --games/-g is required"),
    (["simulate", "bicycle", "-n", "0"], 2, "--deals/-n: must be 1 to"),
    (["simulate", "bicycle", "-n", "1", "--games", "1"], 2, "not allowed with argument"),
    (["simulate", "bicycle", "-n", "1", "--jobs", "100000"], 2, "--jobs/-j: must be 1 to 256"),
    (["simulate", "bicycle", "-n", "1", "--bots", "nobody"], 2, "nobody"),
    (["simulate", "bicycle", "-n", "1", "--players", "3"], 2, "3 players is not allowed"),
]


@pytest.mark.parametrize(("argv", "code", "text"), BAD_INPUT + USAGE,
                         ids=[" ".join(a)[:50] or "(none)" for a, _, _ in BAD_INPUT + USAGE])
def test_bad_input_is_answered_with_its_exit_status(argv: list[str], code: int, text: str, files: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Contract 4: no traceback; 1 for bad input, 2 for a usage error, in every command; the
    message names the file and the key (or the option) at fault."""
    got, output = run(argv, capsys)
    assert "Traceback" not in output and "internal error" not in output, output
    assert got == code, output
    assert text in output, output


def test_diff_exits_1_when_the_variants_differ(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Contract 4: ``diff`` exits 1 when the variants differ, 0 when they do not, like diff(1)."""
    code, output = run(["diff", "bicycle", "club.toml"], capsys)
    assert code == 1 and output.strip() == "game.target: 5000 -> 7500"
    code, output = run(["diff", "bicycle", "bicycle"], capsys)
    assert code == 0 and output.strip() == "no differences"


def test_success_is_0(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Contract 4: 0 for success (a file that validates, a variant shown, --help)."""
    assert run(["validate", "club.toml", "bicycle"], capsys) == (0, "club.toml: ok\nbicycle: ok\n")
    code, output = run(["show", "club.toml"], capsys)
    assert code == 0 and "target = 7500" in output
    code, output = run(["--help"], capsys)
    assert code == 0 and "usage: canasta" in output


BAD_ACTIONS = ["add", "combine", "²", "7#²", "take onto wild", "combine wild#1 wild#2", "meld",
               "discard 15", "9" * 5000, "0", "-1", "take", "add JK to", "ask ask", "\x00", "draw draw"]
"""Lines typed at the ``play`` prompt that are not a legal action (several once crashed)."""


def test_play_prompt_asks_again_after_a_bad_action(files: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Contract 4 (an action is bad input): a line that is not a legal action is refused with
    a reason and the prompt asks again; the game goes on (here: the draw) and quits cleanly."""
    lines = "\n".join(BAD_ACTIONS + ["draw", "quit"]) + "\n"
    code, output = run(["play", "bicycle", "--seed", "3"], capsys, stdin=lines, monkeypatch=monkeypatch)
    assert "Traceback" not in output
    assert code == 0, output
    refusals = output.count("cannot read that") + output.count("is not allowed") + \
        output.count("no action number")
    assert refusals == len(BAD_ACTIONS), output
    assert "  You drew 1 card from the stock: " in output and output.rstrip().endswith("Game ended.")


def _canasta(args: list[str | bytes], stdin: bytes = b"") -> tuple[int, str]:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    proc = subprocess.run([sys.executable, "-m", "canasta", *args], input=stdin, capture_output=True,
                          timeout=120, env=env)
    return proc.returncode, (proc.stdout + proc.stderr).decode("utf-8", "replace")


def test_names_and_lines_that_are_not_utf8(files: Path) -> None:
    """Contract 4 in a real process: a file name that is not UTF-8 is printed escaped (never a
    UnicodeEncodeError), and a typed line that is not UTF-8 is refused like any bad action."""
    name = b"bad-\xff.toml"
    (files / os.fsdecode(name)).write_bytes(b"\xff\xfe")
    code, output = _canasta([b"validate", name])
    assert "Traceback" not in output
    assert code == 1 and "bad-\\udcff.toml: not UTF-8 text" in output, output
    code, output = _canasta(["play", "bicycle"], stdin=b"\xff\xfe draw\nquit\n")
    assert "Traceback" not in output
    assert code == 0 and "cannot read that" in output and "Game ended." in output, output
