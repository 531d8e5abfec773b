"""The API reference (docs/api.md) documents every public name once, and nothing else."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import canasta

API_PAGE = Path(__file__).resolve().parent.parent / "docs" / "api.md"
_DIRECTIVE = re.compile(r"^::: canasta\.(\w+)\s*$", re.M)


def documented() -> Counter[str]:
    """How many times each top-level name has a ``::: canasta.NAME`` directive (``envs`` aside)."""
    names = _DIRECTIVE.findall(API_PAGE.read_text(encoding="utf-8"))
    return Counter(n for n in names if n != "envs")


def test_every_public_name_is_documented_once() -> None:
    counts = documented()
    missing = sorted(set(canasta.__all__) - set(counts))
    extra = sorted(set(counts) - set(canasta.__all__))
    twice = sorted(n for n, c in counts.items() if c > 1)
    assert not missing, f"in canasta.__all__ but not in docs/api.md: {missing}"
    assert not extra, f"in docs/api.md but not in canasta.__all__: {extra}"
    assert not twice, f"documented more than once in docs/api.md: {twice}"


def test_the_environments_are_documented() -> None:
    text = API_PAGE.read_text(encoding="utf-8")
    assert re.search(r"^::: canasta\.envs\s*$", text, re.M)
    assert re.search(r"^::: canasta\.envs\.openspiel\s*$", text, re.M)


def test_the_cli_page_shows_every_command_and_option() -> None:
    import argparse
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_cli", API_PAGE.parent / "gen_cli.py")
    assert spec is not None and spec.loader is not None
    gen_cli = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen_cli)
    page = gen_cli.page()
    parser = gen_cli.build_parser()
    for name, _, sub in gen_cli._subcommands(parser):
        assert f"## `canasta {name}`" in page
        for action in sub._actions:
            if action.help != argparse.SUPPRESS:
                for option in action.option_strings:
                    assert f"`{option}" in page, f"canasta {name} {option}"
