"""``canasta diff``: the settings that differ between two variants."""

from __future__ import annotations

import argparse
import sys
import typing
from typing import Any, TextIO

import attrs

from .. import _variant
from .._variant_load import variant_to_dict
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


def _unordered() -> frozenset[str]:
    """The settings whose lists are sets (lists of card classes or ways: ``upcard.cover``,
    ``pile.take_frozen``), found in the schema: their order means nothing."""
    out: set[str] = set()

    def walk(cls: type, prefix: str) -> None:
        hints = typing.get_type_hints(cls, vars(_variant))
        for a in attrs.fields(cls):
            tp, path = hints[a.name], prefix + _variant._key(a)
            args = typing.get_args(tp)
            if attrs.has(tp):
                walk(tp, path + ".")
            elif typing.get_origin(tp) is tuple and args and typing.get_origin(args[0]) is typing.Literal:
                out.add(path)

    walk(_variant.Variant, "")
    return frozenset(out)


def _flatten(data: dict[str, Any], other: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested tables as dotted keys (``melds.canasta_size``); lists stay whole values, and so
    does a table that ``other`` (the variant compared with) lacks (``tables.2``), so that a
    table one variant has and the other has not is one line."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value and isinstance(other.get(key), dict):
            flat.update(_flatten(value, other[key], path + "."))
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
        return "{ " + ", ".join(f"{k} = {_value_text(v)}" for k, v in value.items()) + " }"
    return str(value)


_UNSET = object()


def _same(key: str, a: Any, b: Any, unordered: frozenset[str]) -> bool:
    """Whether two values of setting ``key`` are the same (a set-like list in any order)."""
    if key in unordered and isinstance(a, list) and isinstance(b, list):
        return sorted(a) == sorted(b)
    return bool(a == b)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print the differences; the exit status (1: the variants differ)."""
    a = load(args.a, sys.stderr)
    b = load(args.b, sys.stderr)
    if a is None or b is None:
        return BAD_INPUT
    da, db = variant_to_dict(a), variant_to_dict(b)
    fa, fb = _flatten(da, db), _flatten(db, da)
    keys = sorted(set(fa) | set(fb))
    if not args.all:
        keys = [k for k in keys if k not in _METADATA]
    unordered = _unordered()
    lines = [f"{k}: {_value_text(fa.get(k, _UNSET))} -> {_value_text(fb.get(k, _UNSET))}"
             for k in keys if not _same(k, fa.get(k, _UNSET), fb.get(k, _UNSET), unordered)]
    for line in lines:
        print(line, file=out)
    if not lines:
        print("no differences", file=out)
        return 0
    return 1  # like diff(1): the variants differ
