"""The README and the docs name every bundled variant and describe the notation of the variants
with suited cards (issue 19, item 5): no page may say that the library does not track suits, and
each place that lists the variants lists all of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import canasta

ROOT = Path(__file__).resolve().parent.parent
PAGES = {"README.md": ROOT / "README.md", "docs/index.md": ROOT / "docs" / "index.md",
         "docs/primer.md": ROOT / "docs" / "primer.md", "docs/concepts.md": ROOT / "docs" / "concepts.md"}


@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_the_variant_tables_name_every_bundled_variant(page: str) -> None:
    text = PAGES[page].read_text(encoding="utf-8")
    table = text[text.index("| name | what it is |"):].split("\n\n")[0]
    listed = re.findall(r"^\| \[?`([a-z0-9-]+)`", table, re.M)
    assert sorted(listed) == sorted(canasta.variant_names()), page


@pytest.mark.parametrize("page", sorted(PAGES))
def test_no_page_says_suits_are_not_tracked(page: str) -> None:
    text = " ".join(PAGES[page].read_text(encoding="utf-8").split())
    assert "does not track" not in text and "Suits do not matter, except" not in text, page


@pytest.mark.parametrize("page", ["README.md", "docs/concepts.md"])
def test_the_notation_of_suited_variants_is_described(page: str) -> None:
    """Samba (Bicycle, "Samba", Sequence Meld): sequences of one suit; the notation names them."""
    text = PAGES[page].read_text(encoding="utf-8")
    for notation in ("meld 5h 6h 7h", "add 8h to hearts", "take onto hearts", "take 7h 7s", "meld A A A"):
        assert f"`{notation}" in text, (page, notation)
    state = canasta.new_game("samba", seed=0).apply("draw")
    assert "'meld A A A' could be 'meld Ah Ad Ad', 'meld As Ad Ad' or 'meld As Ah Ad'" in state.why_illegal("meld A A A")
