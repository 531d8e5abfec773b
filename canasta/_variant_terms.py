"""The terms variant files are written in, and the limits of their values: the names of ranks
and card classes (``"seven"``, ``"wild"``, ``"red_three"``), the player counts a table may have,
the bounds of numeric settings (as a field's metadata, and as a message words them).

The lowest module of the variant schema: it imports nothing of canasta. Built upon by
``_variant_scoring`` and ``_variant`` (the schema's classes), ``_variant_checks`` and
``_variant_load``.
"""

from __future__ import annotations

from typing import Any, Literal

WildClass = Literal["wild", "red_three", "black_three"]
RankName = Literal["four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"]
"""A natural rank by name, as variant files write it."""
MeldName = Literal["four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace", "wild"]
"""A natural rank by name, or ``wild`` for melds of wild cards only."""
DiscardClass = Literal["four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace",
                       "wild", "dead"]
"""A natural rank by name, ``wild`` (jokers and deuces) or ``dead`` (a rank made dead, ``melds.dead_ranks``)."""
RANK_OF: dict[str, int] = {name: 4 + i for i, name in enumerate(
    ("four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"))}
"""The card kind of each rank name."""
RankOrNone = Literal["none", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"]
"""A natural rank by name, or ``none``."""
TakeWay = Literal["natural_pair", "natural_and_wild", "add_to_meld", "wild_pair"]
BlockClass = Literal["wild", "red_three", "black_three", "four", "five", "six", "seven", "eight", "nine", "ten",
                     "jack", "queen", "king", "ace"]
"""A card class (``wild``, ``red_three``, ``black_three``) or a natural rank by name."""
CanastaKind = Literal["natural", "mixed", "wild", "sequence"]
CountedKind = Literal["natural", "mixed", "wild", "sequence", "rank"]
"""A kind of canasta that counts toward ``going_out.canastas`` (``rank``: a canasta of a rank with
a bonus of its own, where the schema has one)."""
ALL_COUNTED: tuple[CountedKind, ...] = ("natural", "mixed", "wild", "sequence", "rank")
"""A kind of canasta: of naturals only, of naturals and wild cards, of wild cards only, a sequence."""

MIN_PLAYERS = 2
MAX_PLAYERS = 12
"""The player counts a table may have (``[tables.2]`` to ``[tables.12]``)."""
MAX_PACKS = 24
"""Most packs of 52 in the deck of any table (``packs + packs_per_player * players``)."""
MAX_FILE_BYTES = 1 << 20
"""The largest variant file read (1 MiB; the bundled files are about 10 KB)."""


def _range(low: float, high: float, items: int | None = None, why: str = "") -> dict[str, Any]:
    """The metadata of a numeric setting: its bounds (inclusive), checked when a file is
    loaded and shown in the settings reference; for a list, the bounds of each item and the
    most items it may have; ``why`` the reason for the lower bound, for the message."""
    meta: dict[str, Any] = {"range": (low, high)}
    if items is not None:
        meta["items"] = items
    if why:
        meta["why"] = why
    return meta


def _number(value: int | float) -> str:
    """A number for a message; an integer of more than 18 digits is shortened to its first
    digits and its length (a file may hold thousands of digits)."""
    if isinstance(value, int) and not -10 ** 18 < value < 10 ** 18:
        sign = "-" if value < 0 else ""
        try:
            text = str(abs(value))
        except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits())
            return f"{sign}an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
        return f"{sign}{text[:6]}... ({len(text)} digits)"
    return str(value)


def _bounds_text(meta: Any, value: float | None = None) -> str:
    """The bounds of a numeric setting as a message writes them (with the reason for the lower
    bound, where there is one and ``value`` is below it)."""
    low, high = meta["range"]
    if value is not None and value < low and meta.get("why"):
        return f"{meta['why']} ({_number(low)} to {_number(high)})"
    return f"must be {_number(low)} to {_number(high)}"


def is_player_count(key: str) -> bool:
    """Whether ``key`` names a table: a player count from 2 to 12 written in plain ASCII
    digits, without a leading zero (``"4"``; not ``"04"``, ``"٤"``, ``"４"`` or ``"²"``)."""
    return (isinstance(key, str) and key.isascii() and key.isdigit() and not key.startswith("0")
            and len(key) <= 3 and MIN_PLAYERS <= int(key) <= MAX_PLAYERS)


def _table_key_problem(key: str) -> str:
    return (f"the key {key!r} is not a player count: write the number of players, {MIN_PLAYERS} "
            f"to {MAX_PLAYERS}, in plain digits without a leading zero, such as [tables.4]")
