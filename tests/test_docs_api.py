"""The API reference (docs/api/*.md, a page per topic) documents every public name once, and
nothing else; every page is in the site's navigation."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import canasta

ROOT = Path(__file__).resolve().parent.parent
API_DIR = ROOT / "docs" / "api"
_DIRECTIVE = re.compile(r"^::: canasta\.(\w+)\s*$", re.M)


def api_text() -> str:
    """The API pages, one after another."""
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(API_DIR.glob("*.md")))


def documented() -> Counter[str]:
    """How many times each top-level name has a ``::: canasta.NAME`` directive (``envs`` aside)."""
    names = _DIRECTIVE.findall(api_text())
    return Counter(n for n in names if n != "envs")


def test_every_api_page_is_in_the_navigation() -> None:
    """Issue 30: the reference is split by topic (it was one page 119,000 px tall); each page
    is listed in mkdocs.yml's nav, and the index links every topic page."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    index = (API_DIR / "index.md").read_text(encoding="utf-8")
    pages = sorted(p.name for p in API_DIR.glob("*.md"))
    assert len(pages) >= 8
    for name in pages:
        assert f"api/{name}" in nav, name
        if name != "index.md":
            assert f"]({name})" in index, name


def test_every_public_name_is_documented_once() -> None:
    counts = documented()
    missing = sorted(set(canasta.__all__) - set(counts))
    extra = sorted(set(counts) - set(canasta.__all__))
    twice = sorted(n for n, c in counts.items() if c > 1)
    assert not missing, f"in canasta.__all__ but not in docs/api/: {missing}"
    assert not extra, f"in docs/api/ but not in canasta.__all__: {extra}"
    assert not twice, f"documented more than once in docs/api/: {twice}"


def test_the_environments_are_documented() -> None:
    text = api_text()
    assert re.search(r"^::: canasta\.envs\s*$", text, re.M)
    assert re.search(r"^::: canasta\.envs\.openspiel\s*$", text, re.M)


def test_the_cli_page_shows_every_command_and_option() -> None:
    import argparse
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_cli", ROOT / "docs" / "gen_cli.py")
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
