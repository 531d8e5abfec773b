"""What every command shares: the exit statuses, the limits of the options, loading a variant,
the words for seats and sides, and the argparse helpers."""

from __future__ import annotations

import argparse
from typing import Any, Callable, Optional, TextIO

from .._state import GameState
from .._variant import Variant, VariantError
from .._variant_load import load_variant
from .._variant_terms import MAX_PLAYERS, MIN_PLAYERS
from .._view import side_letters

OK = 0
"""Exit status: success."""
BAD_INPUT = 1
"""Exit status: bad input (a file, a variant, an action, a record), or ``diff``: the variants differ."""
USAGE = 2
"""Exit status: a usage error (an unknown command or option, a bad option value)."""
MAX_SEED = (1 << 63) - 1
"""The largest ``--seed`` (either sign)."""
MAX_COUNT = 10 ** 9
"""The most ``--deals``, ``--games`` or ``--max-hands``."""
MAX_JOBS = 256
"""The most worker processes (``--jobs``)."""
DEFAULT_VARIANT = "hoyle-1950"
DEFAULT_MAX_HANDS = 200




def seat_label(st: GameState, seat: int) -> str:
    letter = side_letters(st)[st.side_of(seat)]
    return f"seat {seat} (side {letter})"


def side_name(st: GameState, side: int) -> str:
    letters = side_letters(st)
    seats = [s for s in range(st.players) if st.side_of(s) == side]
    return f"side {letters[side]} (seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))})"


def load(ref: str, err: TextIO) -> Optional[Variant]:
    """The variant named or stored at ``ref``; None after printing every problem on ``err``."""
    try:
        return load_variant(ref)
    except VariantError as e:
        for problem in e.problems:
            print(problem, file=err)
    except OSError as e:  # unreadable file, a directory, ... (load_variant reports these itself)
        print(f"{short(ref)}: {e.strerror or e}", file=err)
    return None


def game_words(variant: Variant) -> str:
    """How the game is won: 'first to 5000 wins', 'four hands, the highest total wins'."""
    g = variant.game
    hands = f"{g.hands} hands, the highest total wins" if g.hands else ""
    if not g.target:
        return hands
    first = f"first to {g.target} wins"
    return f"{first} (or the highest total after {g.hands} hands)" if hands else first


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def add_variant_arg(p: argparse.ArgumentParser, default: Optional[str] = DEFAULT_VARIANT) -> None:
    if default is None:
        p.add_argument("variant", metavar="VARIANT",
                       help="a bundled variant name (see 'canasta variants') or a variant file")
    else:
        p.add_argument("variant", nargs="?", default=default, metavar="VARIANT",
                       help=f"a bundled variant name or a variant file (default: {default}; "
                            "see 'canasta variants')")


def add_players_seed(p: argparse.ArgumentParser, seed_help: str) -> None:
    p.add_argument("--players", "-p", type=int_in(MIN_PLAYERS, MAX_PLAYERS), default=None, metavar="N",
                   help="number of players (default: the variant's usual table)")
    p.add_argument("--seed", "-s", type=int_in(-MAX_SEED, MAX_SEED), default=0, metavar="S", help=seed_help)


def tolerant(stream: Any, errors: str) -> None:
    """Make a text stream replace what it cannot encode or decode, where it can be told to."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors=errors)
        except (ValueError, OSError, TypeError):
            pass


def int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high`` (a usage error otherwise)."""

    def parse(text: str) -> int:
        t = text.strip()
        digits = t[1:] if t[:1] in "+-" else t
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 20:
            raise argparse.ArgumentTypeError(f"expected an integer from {low} to {high}, got {short(text)!r}")
        value = int(t)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, not {value}")
        return value

    parse.__name__ = "integer"  # argparse names the type in its messages
    return parse


def short(text: str) -> str:
    """A file name or typed text for a message: at most 100 characters."""
    return text if len(text) <= 100 else f"{text[:60]}...{text[-30:]} ({len(text)} characters)"
