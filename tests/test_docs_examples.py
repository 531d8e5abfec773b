"""The Python examples of README.md and docs/**/*.md run, with Sybil, so that they stay true.

One test per page. A page's ```python blocks run in order in one namespace (a later block may
use what an earlier one made; ``canasta`` is imported), in a temporary directory that holds
the page's ```toml blocks whose first line is a comment naming a file (``# house.toml``), so
an example may load them. A block right after the comment ``<!-- no-run -->`` is illustration
only and is skipped. A block may show an error it expects: one with a ``# SomeError: ...``
comment line must raise that error. A block that imports a module of an extra that is not
installed (numpy, gymnasium, pettingzoo, pyspiel: ``pip install "canasta[rl]"``) skips the
rest of its page, saying which module and extra, after the blocks before it have passed.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from pathlib import Path
from typing import Any, Optional

import pytest

pytest.importorskip("sybil", reason="the docs examples are run by Sybil: pip install \".[test]\"")

from sybil import Document, Example  # noqa: E402
from sybil.parsers.markdown import CodeBlockParser  # noqa: E402

import canasta  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]

_NO_RUN = re.compile(r"<!--\s*no-run\s*-->\s*$")
_RAISES = re.compile(r"^\s*#\s*([A-Z]\w*(?:Error|Exception)):", re.M)
_TOML_NAME = re.compile(r"#\s*([\w.\-]+\.toml)\s*")
_IMPORT = re.compile(r"^\s*(?:import|from)\s+(\w+)", re.M)
EXTRAS = {"numpy": "rl", "gymnasium": "rl", "pettingzoo": "rl", "pyspiel": "rl", "ray": "ray",
          "rich": "cli"}
"""Modules that only an extra installs, and the extra."""


class MissingExtra(Exception):
    """A block needs a module that is not installed."""


def _missing_module(code: str) -> Optional[str]:
    for name in _IMPORT.findall(code):
        if name in EXTRAS and importlib.util.find_spec(name) is None:
            return name
    return None


class PythonBlocks(CodeBlockParser):
    """```python blocks, run in the page's namespace, with the conventions above."""

    language = "python"

    def __init__(self) -> None:
        super().__init__()

    def evaluate(self, example: Example) -> Optional[str]:
        before = example.document.text[: example.start]
        if _NO_RUN.search(before):
            return None
        code = str(example.parsed)
        missing = _missing_module(code)
        if missing:
            raise MissingExtra(f"needs {missing} (pip install \"canasta[{EXTRAS[missing]}]\")")
        expected = _RAISES.search(code)
        source = "\n" * (example.line + example.parsed.line_offset) + code  # the page's line numbers
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(source, example.path, "exec", dont_inherit=True), example.namespace)
        except Exception as e:  # noqa: BLE001 - checked against the expected error
            if expected and type(e).__name__ == expected.group(1):
                return None
            raise
        if expected:
            return f"should raise {expected.group(1)} but did not"
        return None


class TomlFiles(CodeBlockParser):
    """```toml blocks that name a file; written before the page's examples run."""

    language = "toml"

    def __init__(self) -> None:
        super().__init__()

    def evaluate(self, example: Example) -> Optional[str]:
        return None  # written up front by the test, so that any block may load any of them


def toml_files(document: Document) -> dict[str, str]:
    files = {}
    for example in document.examples():
        if isinstance(example.region.evaluator.__self__, TomlFiles):  # type: ignore[union-attr]
            code = str(example.parsed)
            first = code.splitlines()[0] if code.strip() else ""
            name = _TOML_NAME.fullmatch(first)
            if name:
                files[name.group(1)] = code
    return files


def python_pages() -> list[Path]:
    return [p for p in PAGES if "```python" in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("page", python_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_page_examples(page: Path, tmp_path: Path, monkeypatch: Any) -> None:
    document = Document.parse(str(page), PythonBlocks(), TomlFiles())
    for name, text in toml_files(document).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    document.namespace["canasta"] = canasta
    document.namespace["__name__"] = "__example__"
    for example in document.examples():
        try:
            example.evaluate()
        except MissingExtra as e:
            pytest.skip(f"{page.name} line {example.line} and after: {e}")


def test_the_pages_have_examples() -> None:
    """The checker finds blocks at all (a changed fence syntax would silently test nothing)."""
    names = {p.name for p in python_pages()}
    assert {"README.md", "index.md", "concepts.md", "primer.md"} <= names
    counted = sum(1 for p in python_pages()
                  for e in Document.parse(str(p), PythonBlocks()).examples())
    assert counted >= 20


# ---------------------------------------------------------------- the generated variant pages


def _generator() -> Any:
    """docs/gen_variants.py as a module (mkdocs-gen-files runs it when the site is built)."""
    spec = importlib.util.spec_from_file_location("gen_variants", ROOT / "docs" / "gen_variants.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_variant_file_gets_a_generated_page() -> None:
    """The pages are made from the folder's listing: one per variants/*.toml, the comparison
    with a column per variant, and the settings reference; none is committed under docs/."""
    gen = _generator()
    files = sorted(p.stem for p in (ROOT / "variants").glob("*.toml"))
    pages = gen.pages()
    assert sorted(pages) == sorted(["variants/index.md", "settings.md", *(f"variants/{n}.md" for n in files)])
    header = next(line for line in pages["variants/index.md"].splitlines() if line.startswith("| setting |"))
    assert [re.sub(r"\[(.*)\]\(.*\)", r"\1", c.strip()) for c in header.strip("|").split("|")[1:]] == files
    for name in files:
        assert pages[f"variants/{name}.md"].splitlines()[2] == f"# {name}"
        assert not (ROOT / "docs" / "variants" / f"{name}.md").exists(), "a generated page is committed"
    assert not (ROOT / "docs" / "settings.md").exists(), "a generated page is committed"


def test_the_variant_pages_join_the_nav_after_the_comparison() -> None:
    gen = _generator()
    nav: list[Any] = ["index.md", {"Variants": ["variants/index.md", "variants/b.md"]}, {"API": "api.md"}]
    assert gen.add_to_nav(nav, ["variants/a.md", "variants/b.md", "variants/c.md"])
    assert nav[1] == {"Variants": ["variants/index.md", {"a": "variants/a.md"}, {"c": "variants/c.md"},
                                   "variants/b.md"]}  # titled by the variant's name, not "A"
    assert not gen.add_to_nav(["index.md", {"API": "api.md"}], ["variants/a.md"])


def test_sources_are_cited_by_title_and_link() -> None:
    gen = _generator()
    assert gen.sources("Bicycle, \"How to play: Canasta\" — https://bicyclecards.com/how-to-play/canasta") == [
        ("Bicycle, \"How to play: Canasta\"", "https://bicyclecards.com/how-to-play/canasta", "")]
    assert gen.source_markdown("A - http://a.org/x.html (archived) ; B") == "[A](http://a.org/x.html) (archived); B"
    assert gen.source_markdown("just a title") == "just a title"
    pages = gen.pages()
    for name in canasta.variant_names():
        source = canasta.load_variant(name).source
        assert not source.endswith(".txt"), f"{name} cites a file name a reader cannot open: {source}"
        page = pages[f"variants/{name}.md"]
        for title, url, _ in gen.sources(source):
            shown = f"]({url})" if url else title
            assert shown in page, (name, shown)
