"""Run the Python examples of README.md and docs/*.md, so that they stay true.

    python docs/check_examples.py          # exit 1 if an example fails

Each page's ```python blocks run in order in one namespace (a later block may use what an
earlier one made), in a temporary directory holding the page's ```toml blocks whose first
line is a comment naming a file (``# house.toml``), so an example may load them. A block
right after the comment ``<!-- no-run -->`` is illustration only and is skipped (a fragment
of a turn, say). A block may show an error it expects: one whose first line is a call that
the page says raises (a ``# SomeError: ...`` comment line right below it) must raise that
error.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
import tempfile
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

try:
    import canasta
except ImportError:  # a checkout without the package installed
    sys.path.insert(0, str(ROOT))
else:
    del canasta  # only a probe: each page's examples import it themselves

_FENCE = re.compile(r"(<!-- no-run -->\s*\n)?```(\w+)\n(.*?)```", re.S)
_RAISES = re.compile(r"^\s*#\s*([A-Z]\w*(?:Error|Exception)):", re.M)


def blocks(text: str) -> list[tuple[str, str, bool]]:
    """(language, code, skipped) of every fenced block, in order."""
    return [(m.group(2), m.group(3), bool(m.group(1))) for m in _FENCE.finditer(text)]


def check_page(page: Path) -> list[str]:
    failures = []
    found = blocks(page.read_text(encoding="utf-8"))
    if not any(lang == "python" and not skip for lang, _, skip in found):
        return []
    namespace: dict[str, object] = {"__name__": "__example__"}
    exec("import canasta", namespace)  # every page assumes it
    old = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        for lang, code, _ in found:
            first = code.splitlines()[0] if code.strip() else ""
            name = re.fullmatch(r"#\s*([\w.\-]+\.toml)\s*", first)
            if lang == "toml" and name:
                Path(tmp, name.group(1)).write_text(code, encoding="utf-8")
        os.chdir(tmp)
        try:
            for i, (lang, code, skip) in enumerate(found):
                if lang != "python" or skip:
                    continue
                expected = _RAISES.search(code)
                try:
                    with contextlib.redirect_stdout(io.StringIO()):
                        exec(compile(code, f"{page.name} block {i + 1}", "exec"), namespace)
                except Exception as e:  # noqa: BLE001 - any failure is reported
                    if expected and type(e).__name__ == expected.group(1):
                        continue
                    failures.append(f"{page.relative_to(ROOT)}: block {i + 1} failed:\n"
                                    + "".join(traceback.format_exception_only(type(e), e))
                                    + "".join(traceback.format_tb(e.__traceback__)[-1:])
                                    + "\n    " + "\n    ".join(code.strip().splitlines()))
                else:
                    if expected:
                        failures.append(f"{page.relative_to(ROOT)}: block {i + 1} should raise "
                                        f"{expected.group(1)} but did not")
        finally:
            os.chdir(old)
    return failures


def main() -> int:
    failures = []
    for page in PAGES:
        failures += check_page(page)
    for f in failures:
        print(f, end="\n\n")
    print(f"examples: {len(PAGES)} pages checked, {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
