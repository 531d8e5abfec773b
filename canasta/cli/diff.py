"""``canasta diff``: the settings that differ between two variants."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from .._variant import variant_to_dict
from .common import BAD_INPUT, load


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """The command's arguments."""
    diff = sub.add_parser(
        "diff", help="the settings that differ between two variants",
        description="Compare two variants (names or files), setting by setting after inheritance: "
                    "print 'key: A-value -> B-value' for each setting that differs, sorted by key, "
                    "or 'no differences'. Exit status, like diff(1): 0 no differences, 1 they differ "
                    "(or a variant cannot be loaded), 2 a usage error.",
    )
    diff.add_argument("a", metavar="A", help="a bundled variant name or a variant file")
    diff.add_argument("b", metavar="B", help="a bundled variant name or a variant file")
    diff.add_argument("--all", action="store_true",
                      help="also compare name, description and source")
    diff.set_defaults(func=run)


_METADATA = ("name", "description", "source")


def _flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested tables as dotted keys (``melds.canasta_size``); lists stay whole values."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flat.update(_flatten(value, path + "."))
        else:
            flat[path] = value
    return flat


def _value_text(value: Any) -> str:
    """A setting's value written as in a TOML file."""
    if value is _UNSET:
        return "(not set)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_value_text(v)}" for k, v in value.items()) + "}"
    return str(value)


_UNSET = object()


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print the differences; the exit status (1: the variants differ)."""
    a = load(args.a, sys.stderr)
    b = load(args.b, sys.stderr)
    if a is None or b is None:
        return BAD_INPUT
    fa, fb = _flatten(variant_to_dict(a)), _flatten(variant_to_dict(b))
    keys = sorted(set(fa) | set(fb))
    if not args.all:
        keys = [k for k in keys if k not in _METADATA]
    lines = [f"{k}: {_value_text(fa.get(k, _UNSET))} -> {_value_text(fb.get(k, _UNSET))}"
             for k in keys if fa.get(k, _UNSET) != fb.get(k, _UNSET)]
    for line in lines:
        print(line, file=out)
    if not lines:
        print("no differences", file=out)
        return 0
    return 1  # like diff(1): the variants differ
