"""``canasta show``: a variant's fully resolved rules as TOML."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

import tomli_w

from .._variant_load import variant_to_dict
from .common import BAD_INPUT, add_variant_arg, load


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """The command's arguments."""
    show = sub.add_parser(
        "show", help="print a variant's fully resolved rules as TOML",
        description="Print every setting of a variant, the inherited ones included, as TOML. "
                    "A variant that cannot be loaded prints each problem as "
                    "'file: key.path: message' on stderr (exit status 1).",
    )
    add_variant_arg(show, default=None)
    show.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print the variant's settings; the exit status."""
    variant = load(args.variant, sys.stderr)
    if variant is None:
        return BAD_INPUT
    out.write(tomli_w.dumps(variant_to_dict(variant)))
    return 0
