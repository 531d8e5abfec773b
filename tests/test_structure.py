"""The house's structure: no module a reader cannot hold, imports that run one way.

CONTRIBUTING.md ("Where things are") and native/README.md describe the layout: one idea a module,
each module at most about 800 lines, and imports that run one way (a module never imports, not
even lazily or for type checking only, a module built on it). These tests keep it so: they read
the source (Python's ``import`` statements, wherever they stand, and the native crate's
``crate::module`` paths) and fail naming the module too long, the circle found, or the module
the contributors' map leaves out.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "canasta"
CRATE = ROOT / "native" / "src"
MAX_LINES = 800
"""About what a reader takes in at one sitting (the limit CONTRIBUTING.md states)."""

pytestmark = pytest.mark.skipif(not (PACKAGE / "_core").is_dir() or not CRATE.is_dir(),
                                reason="the source tree is not beside the tests (an installed copy without native/)")


def _modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its ``__init__``)."""
    out: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _python_graph() -> dict[str, set[str]]:
    """Who imports whom inside the package, every import counted (lazy ones in functions and
    those under ``TYPE_CHECKING`` too). ``from package import name`` points at the submodule
    when ``name`` is one, else at the package itself (whose ``__init__`` then runs first)."""
    mods = _modules()
    native = {"canasta._native": PACKAGE}  # the extension module: a leaf, built from native/
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    targets.append(sub if sub in mods or sub in native else source)
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            graph[mod].update(t for t in targets if t in mods and t != mod)
    return graph


def _crate_graph() -> dict[str, set[str]]:
    """Who uses whom inside the native crate: every ``crate::module`` or ``super::module`` path."""
    files = {p.stem: p.read_text() for p in sorted(CRATE.glob("*.rs"))}
    graph: dict[str, set[str]] = {m: set() for m in files}
    for mod, text in files.items():
        code = "\n".join(line.split("//", 1)[0] for line in text.splitlines())  # not comments
        graph[mod].update(u for u in re.findall(r"\b(?:crate|super)::(\w+)", code) if u in files and u != mod)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _long(paths: Iterable[Path]) -> list[str]:
    return [f"{p.relative_to(ROOT)}: {n} lines" for p in paths
            if (n := len(p.read_text().splitlines())) > MAX_LINES]


def test_no_module_is_longer_than_a_reader_holds() -> None:
    """Each module of the package and of the native crate holds one idea in at most 800 lines."""
    assert _long(sorted(PACKAGE.rglob("*.py")) + sorted(CRATE.glob("*.rs"))) == []


def test_python_imports_run_one_way() -> None:
    """No circle among the package's modules, lazy and type-checking imports included: a value
    module (``_state``, ``_variant``, ``_cards``) never imports what is built on it."""
    assert _circles(_python_graph()) == []


def test_native_modules_use_one_way() -> None:
    """No circle among the native crate's modules (``crate::module`` paths)."""
    assert _circles(_crate_graph()) == []


def test_the_circle_finder_finds_a_circle() -> None:
    """The check above can fail: a three-module circle and a two-module one are found, a chain
    is not."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"d", "f"}, "f": set()}
    assert _circles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert _circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_contributors_map_names_every_module() -> None:
    """CONTRIBUTING.md names every module of the package and native/README.md every file of the
    crate, so that the map a newcomer reads first is the house as it stands."""
    contributing = (ROOT / "CONTRIBUTING.md").read_text()
    crate_map = (ROOT / "native" / "README.md").read_text()
    missing = [str(p.relative_to(PACKAGE)) for p in sorted(PACKAGE.rglob("*.py"))
               if f"`{p.relative_to(PACKAGE).as_posix()}`" not in contributing
               and f"`{p.name}`" not in contributing]
    missing += [f"native/src/{p.name}" for p in sorted(CRATE.glob("*.rs")) if f"`{p.name}`" not in crate_map]
    assert missing == []


def test_comments_name_rules_not_issue_numbers() -> None:
    """The library's comments and docstrings say which rule or reason they stand for, not which
    issue asked for them: a newcomer reads the rule, not the project's history."""
    issue = re.compile(r"\b[Ii]ssues? ?#?\d+")
    found = [f"{p.relative_to(ROOT)}:{n}" for p in sorted(PACKAGE.rglob("*.py")) + sorted(CRATE.glob("*.rs"))
             for n, line in enumerate(p.read_text().splitlines(), 1) if issue.search(line)]
    assert found == []
