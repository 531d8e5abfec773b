"""The ``canasta`` command's one parser, and :func:`main`, which runs a command and keeps the
exit-status contract: 0 success, 1 bad input, 2 a usage error (never a traceback)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Optional, Sequence

from .._coreinfo import core_info
from .._version import __version__
from . import demo, diff, play, replay, show, simulate, validate, variants
from .common import BAD_INPUT, USAGE, tolerant

COMMANDS = (demo, play, simulate, variants, show, validate, diff, replay)
"""The commands' modules, in the order ``canasta --help`` lists them; each adds its subparser
(``add_parser``) and runs it (``run``)."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``canasta`` command."""
    parser = argparse.ArgumentParser(
        prog="canasta",
        description="The rules of Canasta in every documented variant: play against bots, watch "
                    "bots play, simulate many deals, and inspect, check and compare variants.",
        epilog="Exit status, in every command: 0 success; 1 bad input (a file, a variant, an "
               "action, a record; 'diff': the variants differ); 2 a usage error.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__} ({core_info()})",
                        help="print the version and the rules core that runs (native or Python), and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the ``canasta`` command with ``argv`` (default: ``sys.argv[1:]``); returns the exit
    status: 0 success, 1 bad input (a file, a variant, an action, a record; ``diff``: the
    variants differ), 2 a usage error (an unknown command or option, a bad option value).

    Like any argparse program, ``--help`` and ``--version`` raise ``SystemExit(0)`` and a
    usage error ``SystemExit(2)`` after printing the usage; nothing else escapes, and no
    traceback is printed."""
    tolerant(sys.stdout, "backslashreplace")  # a file name that is not UTF-8 prints as escapes
    tolerant(sys.stderr, "backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)  # --help, --version: SystemExit(0); a usage error: SystemExit(2)
    if not getattr(args, "command", None):
        parser.print_help()
        return USAGE
    try:
        return int(args.func(args, sys.stdout))
    except BrokenPipeError:  # e.g. piped into head
        try:
            sys.stdout = open(os.devnull, "w")  # no second error when Python flushes at exit
        except OSError:
            pass
        return 0
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except (ValueError, TypeError) as e:  # every canasta error is one: bad input
        print(f"canasta {args.command}: {e}", file=sys.stderr)
        return BAD_INPUT
    except Exception as e:  # noqa: BLE001 - never a traceback; say what failed
        print(f"canasta {args.command}: internal error: {type(e).__name__}: {e} (please report it)",
              file=sys.stderr)
        return BAD_INPUT
