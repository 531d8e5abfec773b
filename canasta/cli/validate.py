"""``canasta validate``: check variant files and list every problem."""

from __future__ import annotations

import argparse
from typing import TextIO

from .._variant import VariantError
from .._variant_load import load_variant
from .common import short


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """The command's arguments."""
    validate = sub.add_parser(
        "validate", help="check variant files and list every problem",
        description="Load each variant file and print 'FILE: ok', or each problem as "
                    "'file: key.path: message'. Exit status 1 if any file has a problem.",
    )
    validate.add_argument("files", nargs="+", metavar="FILE",
                          help="variant files (or bundled variant names) to check")
    validate.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Check each file; the exit status (1 if any has a problem)."""
    status = 0
    for ref in args.files:
        try:
            load_variant(ref)
        except VariantError as e:
            status = 1
            for problem in e.problems:
                print(problem, file=out)
        except OSError as e:
            status = 1
            print(f"{short(ref)}: {e.strerror or e}", file=out)
        else:
            print(f"{ref}: ok", file=out)
    return status
