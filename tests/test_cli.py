"""The ``canasta`` command: show, validate, diff, play, simulate, replay, --version.

Each test runs ``main([...])`` in-process (stdin scripted with ``monkeypatch``, output read
with ``capsys``); one runs ``python -m canasta`` to check the module entry point.
"""

from __future__ import annotations

import io
import itertools
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import canasta
from canasta import Discard, Draw, load_variant, new_game, parse_action
from canasta._bots import GreedyBot
from canasta._cards import _TOKENS, WILD_RANK
from canasta.cli import main
from canasta._variant_load import variant_from_dict, variant_to_dict

REPO = Path(__file__).resolve().parents[1]


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def top_token(kind: int) -> str:
    """A card kind's token as the command writes it."""
    return _TOKENS[kind]


BAD_FILE = """\
name = "broken"
[melds]
canasta_size = "seven"
bogus = 1
[pile]
frozen_until_initial_meld = 3
"""


# ------------------------------------------------------------------ --version, python -m


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    """``canasta --version`` prints ``canasta.__version__`` and the core that runs, and exits 0."""
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"canasta {canasta.__version__} ({canasta.core_info()})"


def test_python_m_canasta_runs_every_command() -> None:
    """``python -m canasta``: --help lists every command; --version and show work through it."""
    env = dict(os.environ, PYTHONPATH=str(REPO))

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "canasta", *args], capture_output=True,
                              text=True, env=env, cwd=str(REPO), timeout=60)

    proc = run("--help")
    assert proc.returncode == 0, proc.stderr
    for command in ("demo", "play", "simulate", "variants", "show", "validate", "diff", "replay"):
        assert re.search(rf"^\s+{command}\s+\S", proc.stdout, re.M), f"{command} missing from --help"
    proc = run("--version")
    assert proc.returncode == 0 and canasta.__version__ in proc.stdout
    proc = run("show", "nosuchvariant")
    assert proc.returncode == 1
    assert proc.stderr.startswith("nosuchvariant: unknown variant 'nosuchvariant'")


@pytest.mark.parametrize("command", ["play", "simulate", "show", "validate", "diff", "replay"])
def test_every_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``canasta COMMAND --help`` describes the command (exit 0)."""
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: canasta {command}")
    assert len(out.splitlines()) > 4


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """Without a command, the usage is printed and the exit status is 2."""
    assert main([]) == 2
    assert "usage: canasta" in capsys.readouterr().out


# ------------------------------------------------------------------ show


def test_show_prints_the_resolved_rules_as_toml(capsys: pytest.CaptureFixture[str]) -> None:
    """``canasta show bicycle`` prints every setting as TOML, which reads back as the same variant."""
    assert main(["show", "bicycle"]) == 0
    out = capsys.readouterr().out
    data = tomllib.loads(out)
    variant = load_variant("bicycle")
    assert data == variant_to_dict(variant)
    assert variant_from_dict(data) == variant
    # inherited defaults are spelled out too (bicycle.toml itself need not say them)
    assert data["melds"]["canasta_size"] == 7 and data["game"]["target"] == 5000


def test_show_a_file_that_extends_a_bundled_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file with ``extends`` is shown fully resolved: its own setting and the inherited ones."""
    path = _write(tmp_path, "eight.toml", 'extends = "bicycle"\n[melds]\ncanasta_size = 8\n')
    assert main(["show", path]) == 0
    data = tomllib.loads(capsys.readouterr().out)
    assert data["melds"]["canasta_size"] == 8
    assert data["red_threes"] == variant_to_dict(load_variant("bicycle"))["red_threes"]


def test_show_a_bad_file_lists_every_problem_with_its_key_path(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A bad file: exit 1, each problem as ``file: key.path: message`` on stderr, nothing on stdout."""
    path = _write(tmp_path, "broken.toml", BAD_FILE)
    assert main(["show", path]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert f"{path}: melds.canasta_size: expected an integer, got the string 'seven'" in lines
    assert any(ln.startswith(f"{path}: melds.bogus: unknown key") for ln in lines)
    assert f"{path}: pile.frozen_until_initial_meld: expected true or false, got the integer 3" in lines
    assert len(lines) == 3


def test_show_an_unknown_name_or_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown variant name (with a suggestion) or a missing file: exit 1, the problem on stderr."""
    assert main(["show", "bicycel"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("bicycel: unknown variant 'bicycel' (did you mean 'bicycle'?)")
    assert main(["show", "no/such/file.toml"]) == 1
    assert capsys.readouterr().err.strip() == "no/such/file.toml: no such file"


# ------------------------------------------------------------------ validate


def test_validate_good_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every file fine: ``FILE: ok`` for each, exit 0."""
    good = _write(tmp_path, "eight.toml", 'extends = "bicycle"\n[melds]\ncanasta_size = 8\n')
    bundled = str(REPO / "variants" / "wikipedia.toml")
    assert main(["validate", good, bundled]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{good}: ok", f"{bundled}: ok"]


def test_validate_a_bad_file_lists_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A bad file: every problem as ``file: key.path: message``, exit 1."""
    bad = _write(tmp_path, "broken.toml", BAD_FILE)
    assert main(["validate", bad]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split(": ")[1] for ln in lines] == [
        "melds.canasta_size", "melds.bogus", "pile.frozen_until_initial_meld"]
    assert all(ln.startswith(f"{bad}: ") for ln in lines)


def test_validate_multiple_files_reports_each_and_fails_if_any_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Good, bad, a syntax error and a missing file together: each reported in order, exit 1."""
    good = _write(tmp_path, "good.toml", 'extends = "hoyle-1950"\n[game]\ntarget = 3000\n')
    bad = _write(tmp_path, "broken.toml", BAD_FILE)
    syntax = _write(tmp_path, "syntax.toml", "[melds\n")
    missing = str(tmp_path / "missing.toml")
    assert main(["validate", good, bad, syntax, missing]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{good}: ok"
    assert sum(ln.startswith(f"{bad}: ") for ln in lines) == 3
    assert any(ln.startswith(f"{syntax}: ") for ln in lines)
    assert lines[-1] == f"{missing}: no such file"
    assert not any(ln.endswith(": ok") for ln in lines[1:])


def test_validate_reports_problems_in_the_file_it_extends(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A problem in an extended file is reported under that file's name."""
    _write(tmp_path, "base.toml", 'extends = "bicycle"\n[deck]\npacks = "two"\n')
    child = _write(tmp_path, "child.toml", 'extends = "base.toml"\n')
    assert main(["validate", child]) == 1
    out = capsys.readouterr().out
    assert re.search(r"base\.toml: deck\.packs: expected an integer", out), out


# ------------------------------------------------------------------ diff


def test_diff_bicycle_wikipedia_shows_when_dealt_red_threes_are_faced(
        capsys: pytest.CaptureFixture[str]) -> None:
    """bicycle ("Red Threes": a red three in the hand is put down *on the first turn*) against
    wikipedia ("must immediately play it"): the diff shows ``red_threes.dealt`` and the other
    differing settings, one per line, sorted, exit 1 (they differ, as diff(1) says)."""
    assert main(["diff", "bicycle", "wikipedia"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert 'red_threes.dealt: "first_turn" -> "at_deal"' in lines
    assert "melds.canasta_min_naturals: 4 -> 0" in lines  # bicycle: a canasta needs four naturals
    assert lines == sorted(lines)
    a, b = variant_to_dict(load_variant("bicycle")), variant_to_dict(load_variant("wikipedia"))
    for line in lines:
        key, _, change = line.partition(": ")
        section, _, name = key.partition(".")
        assert name, f"metadata line {line!r} without --all"
        assert " -> " in change
    # everything not listed is equal: e.g. the red-three bonus table
    assert a["red_threes"]["bonus"] == b["red_threes"]["bonus"]
    assert not any(ln.startswith("red_threes.bonus") for ln in lines)


def test_diff_of_a_file_against_its_base(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that extends bicycle differs only in what it sets; --all adds name and description."""
    path = _write(tmp_path, "eight.toml",
                  'extends = "bicycle"\ndescription = "eight-card canastas"\n'
                  '[melds]\ncanasta_size = 8\n[pile]\ntake_frozen = ["natural_pair", "natural_and_wild"]\n')
    assert main(["diff", "bicycle", path]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "melds.canasta_size: 7 -> 8",
        'pile.take_frozen: ["natural_pair"] -> ["natural_pair", "natural_and_wild"]',
    ]
    assert main(["diff", "bicycle", path, "--all"]) == 1
    out = capsys.readouterr().out
    assert '-> "eight-card canastas"' in out and 'name: "bicycle" -> "eight"' in out


def test_diff_names_a_missing_table_once_and_ignores_the_order_of_sets(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """bicycle plays at four only, hoyle-1950 at two to six (rule 2): each table bicycle lacks
    is one line, not one per setting. The order of a list of card classes means nothing (a
    file listing ``upcard.cover`` in another order has the same rules)."""
    assert main(["diff", "bicycle", "hoyle-1950"]) == 1
    lines = capsys.readouterr().out.splitlines()
    tables = [ln for ln in lines if ln.startswith("tables.")]
    assert tables == [f"tables.{n}: (not set) -> {{ sides = \"{s}\", hand_size = {h}, down_hand_size = 0, draw = 1, "
                      f"active = {a} }}" for n, s, h, a in ((2, "AB", 15, 0), (3, "ABC", 13, 0), (5, "ABABB", 11, 4),
                                                           (6, "ABABAB", 11, 0))]
    assert not any("(not set)" in ln for ln in lines if not ln.startswith("tables."))
    cover = variant_to_dict(load_variant("wikipedia"))["upcard"]["cover"]
    assert len(cover) > 1
    path = _write(tmp_path, "shuffled.toml", f'extends = "wikipedia"\n[upcard]\ncover = {list(reversed(cover))!r}\n'
                  .replace("'", '"'))
    assert main(["diff", "wikipedia", path]) == 0
    assert capsys.readouterr().out == "no differences\n"


def test_validate_lists_extends_among_the_top_level_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mistyped ``extends`` is answered with it (House rules: a file names the variant it
    extends with ``extends``)."""
    path = _write(tmp_path, "club.toml", 'extend = "bicycle"\n')
    assert main(["validate", path]) == 1
    out = capsys.readouterr().out
    assert "extend: unknown key (did you mean 'extends'?); allowed at the top level: extends, name," in out


def test_diff_equal_variants_says_no_differences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Identical rules: ``no differences``, exit 0."""
    same = _write(tmp_path, "same.toml", 'extends = "online"\n')
    assert main(["diff", "online", same]) == 0
    assert capsys.readouterr().out == "no differences\n"


def test_diff_with_a_bad_variant_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A variant that cannot be loaded: its problems on stderr, exit 1."""
    bad = _write(tmp_path, "broken.toml", BAD_FILE)
    assert main(["diff", "bicycle", bad]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and f"{bad}: melds.canasta_size: " in captured.err


# ------------------------------------------------------------------ play


def _first_player(variant: str, seed: int) -> int:
    seat = new_game(variant, seed=seed).current_player
    assert seat is not None
    return seat


def _play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], script: str,
          *args: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    status = main(["play", *args])
    return status, capsys.readouterr().out


def test_play_mistyped_illegal_and_legal_actions_then_quit(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """wikipedia ("A turn begins either by drawing the first card from the stock ... or by
    picking up the entire discard pile"): a mistyped action prints the parse error, ``discard``
    before drawing prints why it is illegal, ``draw`` is played; ``quit`` ends cleanly (exit 0)."""
    seat = _first_player("wikipedia", 4)
    st = new_game("wikipedia", seed=4)
    with pytest.raises(canasta.ActionParseError) as parse_error:
        parse_action("dicsard 7")
    reason = st.why_illegal(Discard(7))
    assert reason

    status, out = _play(monkeypatch, capsys, "dicsard 7\ndiscard 7\ndraw\nquit\n",
                        "wikipedia", "--seed", "4", "--seat", str(seat))
    assert status == 0
    assert str(parse_error.value) in out
    assert f"discard 7 is not allowed: {reason}" in out
    drawn = st.apply(Draw())  # the person sees the card drawn
    got = [k for k in range(14, -1, -1) for _ in range(drawn.hands[seat][k] - st.hands[seat][k])]
    assert f"  You drew 1 card from the stock: {' '.join(top_token(k) for k in got)}." in out
    # quit: the score so far, this hand not scored
    assert out.rstrip().endswith("Score so far: side A 0, side B 0 (hand 1 was not finished "
                                 "and is not scored)\nGame ended.")
    # the actions were asked for in this order, and the game stopped after the quit
    assert out.index(str(parse_error.value)) < out.index("is not allowed") < out.index("You drew")
    assert "Hand 1 over" not in out


def test_play_shows_what_the_person_may_see_before_each_decision(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The view: the person's own hand, the other hands' sizes only, melds and red threes by
    side, pile top and size, frozen or not, stock size, scores, whose turn and the phase, and the
    numbered legal actions."""
    seat = _first_player("hoyle-1950", 0)
    st = new_game("hoyle-1950", seed=0)
    status, out = _play(monkeypatch, capsys, "quit\n", "--seed", "0", "--seat", str(seat))
    assert status == 0
    view = out[out.index("--- hand 1: you to play"):]
    assert "phase: draw" in view.splitlines()[0]
    assert "scores: A 0, B 0" in view
    assert re.search(r"side A( \(your side\))?: (no red threes|1 red three|\d red threes); melds: none", view)
    assert re.search(r"side B( \(your side\))?: (no red threes|1 red three|\d red threes); melds: none", view)
    assert f"pile: top {top_token(st.pile[-1])}, {len(st.pile)} card" in view
    # hoyle-1950 rule 37: frozen for a side until its initial meld
    assert ", frozen for your side until its initial meld (taken with a natural pair of its top card)" in view
    assert f"stock: {len(st.stock)} cards" in view
    assert f"your hand (seat {seat}, side " in view
    for other in range(4):
        if other != seat:
            assert f"seat {other}: {sum(st.hands[other])} cards in hand" in view
    assert "legal actions:" in view and re.search(r"^\s+1\. draw$", view, re.M)


def test_play_view_names_two_melds_of_one_rank_as_the_notation_does() -> None:
    """Where a side holds two melds of one rank (new-canasta: "two melds of the same denomination
    are allowed"; hoyle-1950 rule 30 as read in hoyle-1950.toml), the view names them ``7#1``
    and ``7#2``, as ``add 7 to 7#2`` refers to them."""
    from canasta import Add, TableMeld
    from canasta._view import melds_text as _melds_text

    melds = (TableMeld(7, 3), TableMeld(9, 3, 1), TableMeld(7, 4, 0, 1))
    assert _melds_text(melds) == "7#1: 7 7 7; 9 9 9 JK; 7#2: 7 7 7 7 2"
    assert str(Add(7, 7, 2)) == "add 7 to 7#2"


def test_play_view_marks_canastas_by_the_variants_rules() -> None:
    """Melds of seven or more are marked as canastas, natural or mixed (hoyle-1950 rule 28: "A
    meld comprising seven or more cards is a CANASTA"); online's meld of wild cards only
    ("It is also possible to make a meld of wild cards only") is a wild canasta at seven."""
    from canasta import TableMeld
    from canasta._view import melds_text as _melds_text

    hoyle, online = load_variant("hoyle-1950"), load_variant("online")
    natural, mixed, six = TableMeld(8, 7), TableMeld(9, 5, 1, 1), TableMeld(10, 3, 1, 2)
    assert _melds_text((natural, mixed, six), hoyle) == (
        "8 8 8 8 8 8 8 (natural canasta); 9 9 9 9 9 JK 2 (mixed canasta); 10 10 10 JK 2 2")
    assert _melds_text((TableMeld(WILD_RANK, 0, 4, 3),), online) == "JK JK JK JK 2 2 2 (wild canasta)"
    assert _melds_text((TableMeld(WILD_RANK, 0, 4, 2),), online) == "JK JK JK JK 2 2"


def test_play_by_number_shows_bots_moves_without_their_cards(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Actions chosen by number; the bots' actions are printed as they happen, and a bot's draw
    shows how many cards it drew, not which."""
    seat = _first_player("hoyle-1950", 1)
    status, out = _play(monkeypatch, capsys, "1\n" * 12 + "quit\n", "--seed", "1", "--seat", str(seat))
    assert status == 0
    assert re.search(r"^  You drew 1 card from the stock: \S+\.$", out, re.M)
    bot_draws = re.findall(r"^  Seat \d \(side [AB]\) drew(.*)$", out, re.M)
    assert bot_draws and all(d == " 1 card from the stock." for d in bot_draws), bot_draws
    assert re.search(r"^  Seat \d \(side [AB]\) discarded \S+\.$", out, re.M)


def test_play_number_out_of_range_asks_again(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A number that is not in the list is refused with the range, and the person is asked again."""
    seat = _first_player("hoyle-1950", 0)
    status, out = _play(monkeypatch, capsys, "7\nquit\n", "--seed", "0", "--seat", str(seat))
    assert status == 0 and "no action number 7: choose 1 to 1" in out
    assert "You drew" not in out


def test_play_end_of_input_ends_the_game_cleanly(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """End of input (no ``quit``) ends the game with exit status 0."""
    status, out = _play(monkeypatch, capsys, "", "online", "--players", "2", "--seat", "1")
    assert status == 0 and out.rstrip().endswith("Score so far: side A 0, side B 0 (hand 1 was "
                                                 "not finished and is not scored)\nGame ended.")


def test_play_a_whole_game_to_the_end(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Playing on until the end: each hand's itemised scores are printed, the next hand is dealt,
    and the game ends with the winner (online two-player, the person answering with action 1)."""
    status, out = _play(monkeypatch, capsys, "1\n" * 5000, "online", "--players", "2", "--seed", "3",
                        "--bots", "random")
    assert status == 0
    hands = re.findall(r"^--- Hand (\d+) is over \(", out, re.M)
    assert hands and hands == [str(i) for i in range(1, len(hands) + 1)]
    assert re.search(r"^      hand total +-?\d+$", out, re.M)
    assert re.search(r"^=== The game is over: side [AB] wins \(you (win|lose)\)\.$", out, re.M)
    if len(hands) > 1:
        assert re.search(r"^=== Hand 2: (you|seat \d \(side [AB]\)) dealt", out, re.M)


def test_play_rejects_a_bad_seat_or_table(capsys: pytest.CaptureFixture[str]) -> None:
    """A seat outside the table or a table size the variant does not allow: exit 2 (a usage
    error, as for ``demo``); an unknown variant: exit 1 (bad input); a message either way."""
    assert main(["play", "--seat", "4"]) == 2
    assert "--seat must be 0 to 3" in capsys.readouterr().err
    assert main(["play", "bicycle", "--players", "3"]) == 2
    assert "3 players is not allowed" in capsys.readouterr().err
    assert main(["play", "bicycel"]) == 1
    assert "unknown variant 'bicycel'" in capsys.readouterr().err


# ------------------------------------------------------------------ simulate


def _expected_deals(variant: str, seeds: range) -> list[tuple[int, object]]:
    """(actions, result) of one greedy deal per seed, played here independently of the command."""
    out = []
    for seed in seeds:
        st = new_game(variant, seed=seed)
        bots = [GreedyBot(seed * 1000 + s) for s in range(st.players)]
        n = 0
        while not st.is_hand_over:
            seat = st.current_player
            st = st.apply(bots[seat].choose(st.observation(seat), st.legal_actions()))
            n += 1
        out.append((n, st.result))
    return out


def test_simulate_prints_each_statistic(capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate hoyle-1950 --deals 4 --seed 10``: actions per deal, how the deals ended (counts
    and percentages), average hand score per side and deals won per side, matching the deals
    played independently with the same seeds, with 95% confidence intervals (Student's t for
    the means, Wilson's for the win rates)."""
    from canasta._simulate import mean_estimate, rate_estimate

    assert main(["simulate", "hoyle-1950", "--deals", "4", "--seed", "10"]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert captured.err == ""  # no progress when stderr is not a terminal
    deals = _expected_deals("hoyle-1950", range(10, 14))
    counts = mean_estimate([n for n, _ in deals])
    assert f"average actions per deal: {counts.mean:.1f}  ({counts.low:.1f} to {counts.high:.1f})" in out
    ended = {"went out": 0, "went out concealed": 0, "stock exhausted": 0}
    per_side: list[list[int]] = [[], []]
    wins = [0, 0]
    for _, res in deals:
        key = ("stock exhausted" if res.went_out is None
               else "went out concealed" if res.concealed else "went out")
        ended[key] += 1
        totals = [sc.total for sc in sorted(res.scores, key=lambda sc: sc.side)]
        for side in (0, 1):
            per_side[side].append(totals[side])
        if totals[0] != totals[1]:
            wins[totals.index(max(totals))] += 1
    for key, k in ended.items():
        assert re.search(rf"^  {key}: +{k}  +{100 * k / 4:.1f}%$", out, re.M), (key, out)
    for side, name in ((0, r"side A \(seats 0, 2\)"), (1, r"side B \(seats 1, 3\)")):
        e = mean_estimate(per_side[side])
        assert re.search(rf"^  {name}: +{e.mean:.1f}  \({e.low:.1f} to {e.high:.1f}\)$", out, re.M), out
        w = rate_estimate(wins[side], 4)
        assert re.search(rf"^  {name}: +{wins[side]}  +{100 * wins[side] / 4:.1f}%  "
                         rf"\({100 * w.low:.1f}% to {100 * w.high:.1f}%\)$", out, re.M), out
    assert re.search(rf"^  tied: +{4 - sum(wins)}  ", out, re.M)


def test_simulate_mixed_bots_and_progress(capsys: pytest.CaptureFixture[str]) -> None:
    """Bots per seat, another table size; --progress writes a plain-text progress line to stderr."""
    assert main(["simulate", "online", "--players", "2", "--deals", "2", "--bots", "greedy,random",
                 "--progress"]) == 0
    captured = capsys.readouterr()
    assert "bots: greedy, random" in captured.out
    assert "side A (seat 0):" in captured.out and "side B (seat 1):" in captured.out
    assert "simulating: 2/2 deals (100%)" in captured.err


def test_simulate_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    """Unknown bots and wrong bot counts exit 2 (a usage error), an unknown variant 1 (bad
    input); --deals must be at least 1."""
    assert main(["simulate", "hoyle-1950", "--deals", "1", "--bots", "clever"]) == 2
    assert "unknown bot 'clever'" in capsys.readouterr().err
    assert main(["simulate", "hoyle-1950", "--deals", "1", "--bots", "greedy,random"]) == 2
    assert "2 bots for 4 players" in capsys.readouterr().err
    assert main(["simulate", "bicycel", "--deals", "1"]) == 1
    assert "unknown variant 'bicycel'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "hoyle-1950", "--deals", "0"])
    assert exc.value.code == 2


# ------------------------------------------------------------------ replay


def _record_module():  # type: ignore[no-untyped-def]
    import canasta  # part of the package: never skipped

    return canasta


def _recorded_game(tmp_path: Path, variant: str, players: int, seed: int, max_hands: int) -> tuple[str, list]:
    """A game between greedy bots saved as a record file; returns its path and the hands' end states."""
    from canasta._bots import play_game

    rec_mod = _record_module()
    rec = rec_mod.GameRecorder(new_game(variant, players, seed=seed))
    ends: list = []

    def on_action(before, action, after):  # type: ignore[no-untyped-def]
        rec.on_action(before, action, after)
        if after.is_hand_over:
            ends.append(after)

    play_game(variant, players, seed=seed, on_action=on_action, max_hands=max_hands)
    text = rec_mod.dump_record(rec.record(names=("Ann", "Bob", "Cy", "Di")[:players], event="club night"))
    return _write(tmp_path, "game.toml", text), ends


def test_replay_prints_a_record_move_by_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``canasta replay FILE``: every move numbered within its hand, with its player; each hand's
    itemised scores; exit 0 for a record without problems."""
    path, ends = _recorded_game(tmp_path, "bicycle", 4, 5, max_hands=2)
    assert main(["replay", path]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert captured.err == ""
    assert "event: club night" in out and "seat 1 (side B): Bob" in out
    for h, end in enumerate(ends):
        moves = [str(a) for a in end.history]
        assert f"=== Hand {h + 1}: seat " in out
        block = out[out.index(f"=== Hand {h + 1}: "):out.index(f"--- Hand {h + 1} is over")]
        numbered = re.findall(r"^ +(\d+)\. (.+?): Seat \d \(side [AB], (?:Ann|Bob|Cy|Di)\) ", block, re.M)
        assert [int(n) for n, _ in numbered] == list(range(1, len(moves) + 1))
        assert [m for _, m in numbered] == moves
    hand_totals = [int(t) for t in re.findall(r"^      hand total +(-?\d+)$", out, re.M)]
    assert hand_totals == [sc.total for end in ends for sc in end.result.scores]
    totals = ", ".join(f"side {'AB'[s]} {t}" for s, t in enumerate(ends[-1].totals))
    assert totals in out.splitlines()[-1]


def test_replay_reports_bad_moves_with_their_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record with an illegal move and a mistyped one: the replay stops at the illegal move
    (shown with the engine's reason), every problem is listed on stderr as ``FILE: hand H,
    move M: ...``, exit 1."""
    path, ends = _recorded_game(tmp_path, "bicycle", 4, 5, max_hands=1)
    text = Path(path).read_text(encoding="utf-8")
    moves = [str(a) for a in ends[0].history]
    assert moves[3].startswith("discard ") and moves[5] != moves[3]
    lines = text.splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.startswith("actions = [")) + 1
    assert lines[first + 3].strip() == f'"{moves[3]}",'
    lines[first + 3] = '    "discard 3r",'    # hand 1, move 4: nobody holds a faced red three
    lines[first + 6] = '    "dscard 5",'      # hand 1, move 7: not an action
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    st = new_game("bicycle", 4, seed=5)
    for m in moves[:3]:
        st = st.apply(m)
    reason = st.why_illegal("discard 3r")
    assert reason

    assert main(["replay", path]) == 1
    captured = capsys.readouterr()
    assert re.search(rf"^ +4\. discard 3r: Seat 0 \(side A, Ann\)  <-- 'discard 3r' is not legal: {re.escape(reason)}$",
                     captured.out, re.M)
    assert not re.search(r"^ +5\. ", captured.out, re.M)  # the replay stops there
    err = captured.err.splitlines()
    assert f"{path}: hand 1, move 4: 'discard 3r' is not legal: {reason}" in err
    assert any(ln.startswith(f"{path}: hand 1, move 7: 'dscard 5' is not an action") for ln in err)


def test_replay_of_an_unreadable_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing file, or a record with a missing key: the problem on stderr, exit 1."""
    _record_module()
    missing = str(tmp_path / "none.toml")
    assert main(["replay", missing]) == 1
    assert capsys.readouterr().err.startswith(f"{missing}: ")
    path = _write(tmp_path, "partial.toml", 'players = 4\nseed = 1\n[[hands]]\nactions = ["draw"]\n')
    assert main(["replay", path]) == 1
    assert capsys.readouterr().err.strip() == f"{path}: variant: required key is missing"


def test_replay_a_whole_game_to_its_winner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record of a finished game (online, two players) replays to the end and names the winner."""
    path, ends = _recorded_game(tmp_path, "online", 2, 1, max_hands=200)
    assert ends[-1].is_game_over
    assert main(["replay", path]) == 0
    out = capsys.readouterr().out
    winner = "AB"[ends[-1].winners[0]]
    assert re.search(rf"^=== Game over: side {winner} wins", out, re.M)
    assert len(re.findall(r"^--- Hand \d+ is over \(", out, re.M)) == len(ends)


# ------------------------------------------------------------------ play: save, resume, undo, help, hint


ONLINE2 = ("online", "--players", "2", "--seed", "3")
"""A two-player game: the person at seat 0 plays first; a few moves are quick."""


def _saved(path: Path) -> canasta.GameRecord:
    return canasta.load_record(path.read_text(encoding="utf-8"))


def _said(record: canasta.GameRecord, me: int = 0) -> list[str]:
    """The sentence of each move of ``record``'s first hand, as ``canasta play`` words it: the
    first of its :func:`canasta.events`, the seat ``me`` named "you"."""
    states = list(canasta.replay_states(record))
    names = ["you" if s == me else f"seat {s} (side {'AB'[s % 2]})" for s in range(record.players)]
    return [canasta.events(before, after.history[-1], after, names=names)[0].text
            for before, after in zip(states, states[1:]) if after.hand_number == 0]


def _same_sentences(printed: list[str], said: list[str]) -> bool:
    """Whether ``printed`` are the sentences ``said``, the person's draws with their cards
    ("You drew 2 cards from the stock: K 2.")."""
    return len(printed) == len(said) and all(
        p == s or (s.startswith("You drew ") and p.startswith(s[:-1] + ": ")) for p, s in zip(printed, said))


def _session(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], script: str,
             *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    status = main(["play", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_play_save_writes_the_record_after_every_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``--save FILE``: the game record holds every move played so far (the person's and the
    bots'), names the seats, and replays to the position the person quit in."""
    save = tmp_path / "game.toml"
    status, out, _ = _session(monkeypatch, capsys, "1\n" * 6 + "quit\n", *ONLINE2, "--save", str(save))
    assert status == 0
    record = _saved(save)
    game = out[out.index("=== Hand 1: "):]
    played = re.findall(r"^  ((?:You|Seat \d \(side [AB]\)) .+)$", game, re.M)
    assert _same_sentences(played, _said(record)) and len(played) > 6
    assert record.names == ("you", "greedy bot") and record.event == "canasta play"
    assert record.comment == "canasta play: seat 0 played by a person, the other seats by greedy bots"
    state = canasta.replay(record)
    assert state.current_player == 0 and not state.is_hand_over
    assert f"Saved in {save}: continue with canasta play --resume {save}" in out


def test_play_resume_goes_on_as_if_the_game_had_not_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A game saved, stopped and resumed plays on exactly as one never stopped: the bots are
    made anew and follow the recorded moves, so their choices after the resume are the same."""
    whole, part = tmp_path / "whole.toml", tmp_path / "part.toml"
    assert _session(monkeypatch, capsys, "1\n" * 14 + "quit\n", *ONLINE2, "--save", str(whole))[0] == 0
    assert _session(monkeypatch, capsys, "1\n" * 5 + "quit\n", *ONLINE2, "--save", str(part))[0] == 0
    stopped = _saved(part)
    status, out, _ = _session(monkeypatch, capsys, "1\n" * 9 + "quit\n", "--resume", str(part))
    assert status == 0
    assert f"Resumed {part}: hand 1, {stopped.moves} moves into it, {stopped.moves} moves in all." in out
    assert _saved(part).hands == _saved(whole).hands
    assert _saved(part).moves > stopped.moves


def test_play_resume_takes_the_seat_and_bots_from_the_save(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "game.toml"
    assert _session(monkeypatch, capsys, "1\nquit\n", *ONLINE2, "--seat", "1", "--bots", "random",
                    "--save", str(save))[0] == 0
    assert _saved(save).names == ("random bot", "you")
    status, out, _ = _session(monkeypatch, capsys, "quit\n", "--resume", str(save))
    assert status == 0
    assert "  seat 0 (side A): a random bot\n  seat 1 (side B): you" in out
    assert "your hand (seat 1, side B)" in out


def test_play_resume_after_a_hand_ended_deals_the_next(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A save made at a hand's end (quit at the pause) resumes with the next hand's deal."""
    from canasta._bots import play_game

    first: list[canasta.GameState] = []

    def stop(before: canasta.GameState, action: canasta.Action, after: canasta.GameState) -> None:
        if after.is_hand_over and not first:
            first.append(after)

    play_game("online", 2, seed=3, on_action=stop, max_hands=1)
    record = canasta.record_game(first[0], names=("you", "greedy bot"))
    save = tmp_path / "game.toml"
    save.write_text(canasta.dump_record(record), encoding="utf-8")
    status, out, _ = _session(monkeypatch, capsys, "quit\n", "--resume", str(save))
    assert status == 0 and re.search(r"^=== Hand 2: (you|seat \d \(side [AB]\)) dealt", out, re.M)
    resumed = canasta.replay(_saved(save))  # the bots' moves in hand 2 until the person's turn
    assert resumed.hand_number == 1 and resumed.current_player == 0
    assert _saved(save).hands[0] == record.hands[0]
    # undo goes back over the hand's end, to the person's last decision in hand 1
    states = list(canasta.replay_states(record))
    last = max(i for i, st in enumerate(states[:-1]) if st.current_player == 0)
    status, out, _ = _session(monkeypatch, capsys, "undo\nquit\n", "--resume", str(save))
    assert status == 0
    assert f"Undone: your {record.hands[0][last]!r} and the bots' " in out
    assert out.count("=== Hand 1: ") == 1 and out.index("Undone") < out.index("=== Hand 1: ")
    assert _saved(save).hands == (record.hands[0][:last],)
    assert "undo in hand 2: back to hand 1, move" in _saved(save).comment


@pytest.mark.parametrize("problem, args, status, message", [
    ("missing", ["--resume", "missing.toml"], 1, "missing.toml: cannot read"),
    ("not a record", ["--resume", "notes.toml"], 1, "notes.toml: not a saved game"),
    ("an illegal move", ["--resume", "bad.toml"], 1, "bad.toml: the saved game does not replay: hand 1, move 2"),
    ("a variant too", ["bicycle", "--resume", "bad.toml"], 2, "--resume continues the saved game"),
    ("a directory to save in", ["--save", "."], 1, ".: cannot write"),
])
def test_play_resume_and_save_refuse_bad_files(
        problem: str, args: list[str], status: int, message: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.toml").write_text('title = "shopping"\n', encoding="utf-8")
    record = canasta.GameRecord(load_variant("online"), 2, 3, 1, [["draw", "discard 3r"]])
    (tmp_path / "bad.toml").write_text(canasta.dump_record(record), encoding="utf-8")
    code, out, err = _session(monkeypatch, capsys, "quit\n", *args)
    assert (code, problem) == (status, problem) and message in err
    assert "Traceback" not in out + err


def test_play_undo_takes_back_the_last_decision_and_the_bots_moves_since(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``undo`` goes back to the person's previous decision; the save is rewritten without the
    moves taken back and its comment says so; playing on gives the game an undo never happened
    in (the bots answer as before)."""
    kept, undone, straight = tmp_path / "kept.toml", tmp_path / "undone.toml", tmp_path / "straight.toml"
    _session(monkeypatch, capsys, "1\n" * 4 + "quit\n", *ONLINE2, "--save", str(kept))
    status, out, _ = _session(monkeypatch, capsys, "1\n" * 5 + "undo\nquit\n", *ONLINE2, "--save", str(undone))
    assert status == 0
    assert re.search(r"^Undone: your '[^']+'( and the bots' \d+ moves? since)?; back to that decision\.$", out, re.M)
    assert _saved(undone).hands == _saved(kept).hands
    comment = _saved(undone).comment
    assert comment.startswith("canasta play: seat 0 played by a person")
    assert re.search(r"\nundo in hand 1: back to hand 1, move \d+ \('[^']+'\), \d+ moves? taken back$", comment)
    _session(monkeypatch, capsys, "1\n" * 5 + "undo\n" + "1\n" * 3 + "quit\n", *ONLINE2, "--save", str(undone))
    _session(monkeypatch, capsys, "1\n" * 7 + "quit\n", *ONLINE2, "--save", str(straight))
    assert _saved(undone).hands == _saved(straight).hands


def test_play_undo_at_the_first_decision_says_there_is_nothing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _session(monkeypatch, capsys, "undo\nquit\n", *ONLINE2)
    assert status == 0 and "Nothing to undo: this is your first decision of the game." in out


def test_play_help_shows_the_notation_with_examples_from_the_position(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _session(monkeypatch, capsys, "1\nhelp\nquit\n", *ONLINE2)
    assert status == 0
    help_text = out[out.rindex("Type an action's number from the list"):]
    state = new_game("online", 2, seed=3).apply(Draw())
    melds = [str(a) for a in state.legal_actions() if isinstance(a, canasta.Meld)]
    discards = [str(a) for a in state.legal_actions() if isinstance(a, Discard)]
    # online lets wild cards meld on their own (its melds.wild_melds): help shows that form too
    assert re.search(r"^  meld 7 7 7 \| meld 7 7 JK \| meld JK 2 2 +lay down a new meld from your hand "
                     r"\(JK 2 2: of wild cards only\)$", help_text, re.M)
    assert re.search(r"^  add 7 \| add JK to 7 \| add 2 to wild ", help_text, re.M)
    assert f"now: {', '.join(repr(t) for t in melds[:3])}" in help_text
    assert f"now: {', '.join(repr(t) for t in discards[:3])} (and {len(discards) - 3} more)" in help_text
    assert "'hint'" in help_text and "'undo'" in help_text


def test_play_hint_is_the_greedy_bots_choice_with_a_reason(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from canasta._bots import _ask

    status, out, _ = _session(monkeypatch, capsys, "1\nhint\nquit\n", *ONLINE2)
    assert status == 0
    state = new_game("online", 2, seed=3).apply(Draw())
    expected = _ask(GreedyBot(3000), state)
    number = state.legal_actions().index(expected) + 1
    assert re.search(rf"^hint: {number}\. {re.escape(str(expected))} \(.+\)$", out, re.M)
    assert "hint: 9. meld JK 2 2 (it makes your side's initial meld)" in out  # this deal's choice


@pytest.mark.parametrize("variant", ["samba", pytest.param("bolivia", marks=pytest.mark.slow),
                                     pytest.param("brazilian", marks=pytest.mark.slow)])
def test_hint_in_the_suited_variants_names_a_legal_action_and_why(variant: str) -> None:
    """The hint of every decision of a random hand (it indexed a table of kinds with a suited
    card, and crashed): a legal action, and a reason; a discard names its card in words, with its
    suit ("a seven of hearts")."""
    import random

    from canasta.cli.bots import advice

    discards = 0
    for seed in range(3, 8):
        rng = random.Random(seed)
        state = new_game(variant, seed=seed)
        while not state.is_hand_over:
            action, why = advice("greedy", state, 7)
            assert state.is_legal(action) and why, (str(action), why)
            if isinstance(action, Discard) and action.card >= 15 and why.startswith("the card least worth"):
                card = canasta.SuitedCard(action.card)
                assert f" of {('clubs', 'diamonds', 'hearts', 'spades')[card.suit]}" in why
                discards += 1
            state = state.apply(rng.choice(state.legal_actions()))
        if discards:
            break
    assert discards > 0


def test_samba_lists_a_group_with_a_choice_of_suits_once_and_asks_which(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Samba, seed 0, after the draw (As Ah Ad Ad Qs Qs ... 2 JK): three aces can be melded
    three ways; the list shows the choice once, and choosing it (by number or as ``meld A A A``)
    asks which cards, showing what each keeps. ``meld Q Q 2`` leaves no choice, and is played."""
    status, out, _ = _session(monkeypatch, capsys, "draw\n7\nb\nmeld A A JK\n\nmeld Q Q 2\nquit\n", "samba")
    assert status == 0
    listed = out[out.index("phase: meld"):]
    assert re.search(r"^ +7\. meld A A A  \(3 ways, 7a to 7c: you choose the suits\)$", listed, re.M)
    assert "meld Ah Ad Ad" not in listed.split("your action")[0]  # one line for the three
    assert ("    meld A A A can be played 3 ways; they keep other cards in your hand (their suits matter "
            "for sequences):\n      a. meld Ah Ad Ad  (keeps As)\n      b. meld As Ad Ad  (keeps Ah)\n"
            "      c. meld As Ah Ad  (keeps Ad)") in out
    assert "  You melded As Ad Ad." in out
    assert "    meld A JK can be played" not in out and "meld A A JK is not allowed: you hold only one ace" in out
    assert "  You melded Qs Qs 2." in out
    record = canasta.replay(canasta.GameRecord(load_variant("samba"), 4, 0, 3, [["draw", "meld As Ad Ad"]]))
    assert record.melds[0][0].naturals == 3


def test_resuming_shows_the_hand_as_it_was_seen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """hoyle-1950 (rule 13: the pile starts with the upcard; its ``pile.examine = "never"``): a
    resumed game shows the hand's deal as it was dealt and its moves as the person saw them,
    the same lines as the game before the stop, not the deal's header with the current pile."""
    from canasta.cli.view import pile_text

    save = tmp_path / "game.toml"
    status, first, _ = _session(monkeypatch, capsys, "1\n" * 6 + "quit\n", "--seed", "4", "--save", str(save))
    assert status == 0
    status, again, _ = _session(monkeypatch, capsys, "quit\n", "--resume", str(save))
    assert status == 0

    def deal(text: str) -> list[str]:
        lines = text[text.index("=== Hand 1: "):].splitlines()
        return [lines[0]] + list(itertools.takewhile(lambda ln: ln.startswith("    "), lines[1:]))

    def turns(text: str) -> list[str]:
        return re.findall(r"^  (?:You|Seat \d \(side [AB]\)) .*$", text, re.M)

    assert deal(again) == deal(first)
    assert f"    pile: {pile_text(new_game('hoyle-1950', seed=4).pile)}; stock: " in "\n".join(deal(again))
    assert turns(again) == turns(first) and len(turns(first)) > 6
    assert again.count("=== Hand 1: ") == 1


def test_demo_save_is_a_record_that_replay_prints(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``demo --save FILE``: the whole game as a record (the bots' game, move for move), which
    ``canasta replay FILE`` prints."""
    from canasta._bots import play_game

    save = tmp_path / "demo.toml"
    assert main(["demo", "online", "--players", "2", "--seed", "3", "--max-hands", "2", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert f"Saved in {save}: print it again with canasta replay {save}" in out
    assert re.search(r"^  Seat \d \(side [AB]\) (added|melded|took) .*\n    Side [AB] completed an? (natural|mixed|wild) "
                     r"canasta", out, re.M)
    assert re.search(r"^  Seat \d \(side [AB]\) took the pile: \d+ cards? \(top ", out, re.M)
    assert re.search(r"^    A melds: .*(\n    | \| )B melds: .*\n    Pile: top \S+, \d+ cards?, ", out, re.M)
    record = _saved(save)
    final, _ = play_game("online", 2, [GreedyBot(3000), GreedyBot(3001)], seed=3, max_hands=2)
    assert canasta.replay(record) == final and record.names == ("greedy bot", "greedy bot")
    assert main(["replay", str(save)]) == 0
    assert "--- Hand 2 is over (" in capsys.readouterr().out


def test_new_canasta_explains_the_score_keeper(capsys: pytest.CaptureFixture[str]) -> None:
    """new-canasta ("the score keeper ... never deals and never plays first", deal.score_keeper):
    the hand's header says so, and that seat 0 deals in the keeper's place."""
    assert main(["demo", "new-canasta", "--summary", "--max-hands", "1"]) == 0
    out = capsys.readouterr().out
    assert ("    seat 4 keeps the score (deal.score_keeper): it plays its turns, but never deals and "
            "never plays first") in out
    assert "    seat 4 is skipped as dealer: seat 0 deals in its place" in out


class _Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_colour_and_tables_only_on_a_terminal_with_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    """rich (the ``cli`` extra) draws the score table on a terminal; without rich, or when the
    output is not a terminal, the same scores are plain text lines."""
    pytest.importorskip("rich", reason="the cli extra (rich) is not installed")
    from canasta.cli.view import Printer as _Printer
    from canasta._bots import play_game

    final, _ = play_game("online", 2, seed=3, max_hands=1)
    before = list(canasta.replay_states(canasta.record_game(final)))[-2]
    final = before.apply(final.history[-1])
    end = canasta.events(before, final.history[-1], final)[-1]
    assert end.kind is canasta.EventKind.HAND_END
    outputs = {}
    for name, stream, rich_missing in (("rich", _Terminal(), False), ("no rich", _Terminal(), True),
                                       ("a file", io.StringIO(), False)):
        with monkeypatch.context() as m:
            if rich_missing:
                m.setitem(sys.modules, "rich", None)  # import rich raises ImportError
                m.setitem(sys.modules, "rich.console", None)
            _Printer(stream).hand_end(final, end)
        outputs[name] = stream.getvalue()
    drawn = re.sub(r"\x1b\[[0-9;]*m", "", outputs["rich"])
    assert "\x1b[" in outputs["rich"] and re.search(r"│ hand total +│ +-?\d+ │ +-?\d+ │", drawn)
    for plain in (outputs["no rich"], outputs["a file"]):
        assert "\x1b[" not in plain and "│" not in plain
        assert re.search(r"^      hand total +-?\d+$", plain, re.M)
    assert outputs["no rich"] == outputs["a file"]
