"""``canasta variants``: list the bundled variants."""

from __future__ import annotations

import argparse
from typing import TextIO

from .._variant_load import load_variant, variant_names


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """The command's arguments."""
    variants = sub.add_parser(
        "variants", help="list the bundled variants",
        description="List each bundled variant: its name, description and table sizes.",
    )
    variants.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """List the bundled variants; the exit status."""
    names = variant_names()
    width = max(len(n) for n in names)
    for name in names:
        v = load_variant(name)
        tables = ", ".join(sorted(v.tables, key=int))
        print(f"{name:<{width}}  {v.description}", file=out)
        print(f"{'':<{width}}  players: {tables} (default {v.default_players})", file=out)
    return 0
