"""Shared helpers of the A/B benchmark scripts (``ab.py``, ``startup.py``, ``memory.py``).

A side is one copy of the ``canasta`` package: the working tree, or a git revision exported
with ``git archive <rev> | tar -x`` into a temporary directory (no worktree, nothing in the
repository changes). Every measurement runs in a fresh subprocess whose ``PYTHONPATH`` is that
side's root, so ``import canasta`` finds that copy before the editable install (whose ``.pth``
entry is appended after ``site-packages``); :func:`check_import` verifies it for every side and
the benchmark children report ``canasta.__file__`` so each run is checked again.

The children run with the same environment on both sides: ``PYTHONHASHSEED=0`` (the same
string hashes, so set orders and dict layouts do not differ between runs), bytecode caching on
(``PYTHONDONTWRITEBYTECODE`` removed) with the ``.pyc`` files written under a temporary
``PYTHONPYCACHEPREFIX`` rather than into the source tree, and a neutral working directory (so
``''`` on ``sys.path`` cannot pick up the repository's ``canasta``).

The rule for speed: medians of several runs, A/B interleaved (A, B, then B, A, ...), and
quote ratios, not one time.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent


class BenchError(Exception):
    """A side could not be prepared, or a child run failed."""


@dataclass(frozen=True)
class Side:
    """One copy of ``canasta`` to measure."""

    label: str  # "A" (the base) or "B" (the working tree, or --head-rev)
    name: str  # what it is, for the reader: "working tree" or "HEAD (75e787c)"
    root: Path  # the directory put on PYTHONPATH; it holds canasta/ and variants/


@dataclass(frozen=True)
class Env:
    """How children are run: the interpreter, and a scratch directory for them."""

    python: str
    scratch: Path  # neutral working directory; the .pyc prefix lives under it

    def env(self, side: Side) -> dict[str, str]:
        """The environment of a child measuring ``side``."""
        env = dict(os.environ)
        env["PYTHONPATH"] = str(side.root)
        env["PYTHONHASHSEED"] = "0"
        env["PYTHONPYCACHEPREFIX"] = str(self.scratch / "pycache")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        return env

    def run(self, side: Side, args: Sequence[str], timeout: Optional[float] = None
            ) -> subprocess.CompletedProcess[str]:
        """Run ``python *args`` for ``side``; raises :class:`BenchError` if it fails."""
        cmd = [self.python, *args]
        try:
            proc = subprocess.run(cmd, env=self.env(side), cwd=self.scratch, capture_output=True,
                                  text=True, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            raise BenchError(f"side {side.label} ({side.name}): timed out after {e.timeout} s: "
                             f"{' '.join(cmd)}") from None
        if proc.returncode != 0:
            tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
            raise BenchError(f"side {side.label} ({side.name}): exit {proc.returncode}: "
                             f"{' '.join(cmd)}\n{tail}")
        return proc

    def run_json(self, side: Side, args: Sequence[str], timeout: Optional[float] = None
                 ) -> dict[str, Any]:
        """Run a child that prints one JSON line last; returns it, its copy checked."""
        proc = self.run(side, args, timeout)
        lines = [line for line in proc.stdout.splitlines() if line.strip()]
        try:
            data: dict[str, Any] = json.loads(lines[-1])
        except (IndexError, ValueError):
            raise BenchError(f"side {side.label} ({side.name}): no JSON line in the output of "
                             f"{' '.join(args)}:\n{proc.stdout[-2000:]}") from None
        if "canasta_file" in data:
            check_file(side, str(data["canasta_file"]))
        return data


def git(*args: str) -> str:
    """Run git in the repository; its stdout, stripped. Raises :class:`BenchError`."""
    proc = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"git {' '.join(args)}: {proc.stderr.strip()}")
    return proc.stdout.strip()


def export_rev(rev: str, dest: Path) -> str:
    """Export revision ``rev`` of the repository into ``dest``; returns its short hash."""
    short = git("rev-parse", "--short", "--verify", f"{rev}^{{commit}}")
    dest.mkdir(parents=True)
    archive = subprocess.Popen(["git", "-C", str(REPO), "archive", "--format=tar", short],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    untar = subprocess.run(["tar", "-x", "-C", str(dest)], stdin=archive.stdout,
                           capture_output=True)
    assert archive.stdout is not None
    archive.stdout.close()
    err = archive.stderr.read().decode() if archive.stderr else ""
    if archive.wait() != 0 or untar.returncode != 0:
        raise BenchError(f"exporting {rev}: {err.strip()} {untar.stderr.decode().strip()}")
    if not (dest / "canasta" / "__init__.py").is_file():
        raise BenchError(f"revision {rev} ({short}) has no canasta/__init__.py")
    return short


@contextlib.contextmanager
def prepared(base: Optional[str], head_rev: Optional[str], python: str
             ) -> Iterator[tuple[Env, list[Side]]]:
    """The sides to measure, in a temporary directory removed afterwards.

    ``base`` is A's revision (no A when None); B is ``head_rev`` exported, or the working tree.
    """
    with tempfile.TemporaryDirectory(prefix="canasta-bench-") as tmp:
        scratch = Path(tmp)
        (scratch / "run").mkdir()
        env = Env(python, scratch / "run")
        sides = []
        if base is not None:
            short = export_rev(base, scratch / "a")
            sides.append(Side("A", f"{base} ({short})", scratch / "a"))
        if head_rev is not None:
            short = export_rev(head_rev, scratch / "b")
            sides.append(Side("B", f"{head_rev} ({short})", scratch / "b"))
        else:
            sides.append(Side("B", "working tree", REPO))
        yield env, sides


def check_file(side: Side, file: str) -> None:
    """Raise :class:`BenchError` unless ``file`` (a ``canasta.__file__``) is ``side``'s copy."""
    want = (side.root / "canasta").resolve()
    got = Path(file).resolve()
    if not got.is_relative_to(want):
        raise BenchError(f"side {side.label} ({side.name}) imported canasta from {got}, "
                         f"not from {want}")


_PROBE = ("import sys, canasta; print(canasta.__file__); "
          "print(sys.path.index(sys.argv[1]) if sys.argv[1] in sys.path else -1); "
          "print(len(sys.path))")


def check_import(env: Env, side: Side) -> str:
    """Import ``canasta`` in a child for ``side``; returns where from, or raises BenchError.

    This also compiles the side's ``.pyc`` files, so later children do not pay for it.
    """
    out = env.run(side, ["-c", _PROBE, str(side.root)]).stdout.split("\n")
    check_file(side, out[0])
    return f"{out[0]} (sys.path[{out[1]}] of {out[2]})"


def announce(env: Env, sides: Sequence[Side], out: Any = None) -> None:
    """Check every side's import and print which copy it is (to ``out``, default stderr)."""
    stream = out if out is not None else sys.stderr
    for side in sides:
        try:
            where = check_import(env, side)
        except BenchError as e:
            if side.root == REPO:
                raise BenchError(f"{e}\n(the working tree's canasta does not import: measure a "
                                 "revision as B with --head-rev REV)") from None
            raise
        print(f"{side.label} = {side.name}: canasta from {where}", file=stream)


def add_side_arguments(ap: argparse.ArgumentParser, base_default: Optional[str]) -> None:
    """The options choosing the sides: ``--base``, ``--head-rev`` and ``--python``."""
    if base_default is None:
        ap.add_argument("--base", default=None, metavar="REV",
                        help="also measure git revision REV as side A and compare (B/A); "
                             "default: measure only the working tree")
    else:
        ap.add_argument("--base", default=base_default, metavar="REV",
                        help=f"git revision measured as side A (default: {base_default}; "
                             "e.g. HEAD~1, main)")
    ap.add_argument("--head-rev", default=None, metavar="REV",
                    help="measure git revision REV as side B instead of the working tree "
                         "(e.g. while the working tree is broken)")
    ap.add_argument("--python", default=sys.executable,
                    help="interpreter of the child processes (default: this one)")


def round_order(sides: Sequence[Side], round_index: int) -> list[Side]:
    """The sides in the order of a round: A, B in even rounds, B, A in odd ones."""
    return list(sides) if round_index % 2 == 0 else list(reversed(sides))


@dataclass(frozen=True)
class Compare:
    """Paired measurements of A and B over rounds (higher or lower is better, the same)."""

    a: tuple[float, ...]
    b: tuple[float, ...]

    @property
    def ratios(self) -> list[float]:
        """B/A of each round's pair."""
        return [b / a for a, b in zip(self.a, self.b) if a > 0]

    @property
    def median_a(self) -> float:
        return statistics.median(self.a)

    @property
    def median_b(self) -> float:
        return statistics.median(self.b)

    @property
    def ratio(self) -> float:
        """The median of the rounds' B/A ratios (paired, so drift between rounds cancels)."""
        return statistics.median(self.ratios) if self.ratios else float("nan")

    def ratio_text(self) -> str:
        """``1.004 (0.981-1.020)``: the median ratio and its min-max over rounds."""
        r = self.ratios
        if not r:
            return "n/a"
        if len(r) == 1:
            return f"{r[0]:.3f}"
        return f"{self.ratio:.3f} ({min(r):.3f}-{max(r):.3f})"

    def as_dict(self) -> dict[str, Any]:
        r = self.ratios
        return {"a": list(self.a), "b": list(self.b), "median_a": self.median_a,
                "median_b": self.median_b, "ratio": self.ratio,
                "ratio_min": min(r) if r else None, "ratio_max": max(r) if r else None}


def render(headers: Sequence[str], rows: Sequence[Sequence[str]], markdown: bool = False,
           right: Sequence[bool] = ()) -> str:
    """A table as aligned text, or as Markdown; ``right[i]`` right-aligns column ``i``."""
    align = [right[i] if i < len(right) else False for i in range(len(headers))]
    if markdown:
        lines = ["| " + " | ".join(headers) + " |",
                 "|" + "|".join("---:" if r else "---" for r in align) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if r else c.ljust(w)
                         for c, w, r in zip(cells, widths, align)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


def parse_table(text: str) -> tuple[str, int]:
    """``"hoyle-1950:4"`` as ``("hoyle-1950", 4)``; raises ``argparse.ArgumentTypeError``."""
    name, sep, players = text.rpartition(":")
    if not sep or not name or not players.isdigit():
        raise argparse.ArgumentTypeError(f"expected VARIANT:PLAYERS, got {text!r}")
    return name, int(players)


DEFAULT_TABLES = ("hoyle-1950:4", "three-pack:6", "new-canasta:5", "new-canasta:10")
