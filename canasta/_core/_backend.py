"""Which core plays a table: the native core (``canasta._native``, in Rust, see ``native/``)
where it is built and allowed, else this package's Python core, the reference.

Both cores hold the same position and answer the same questions; the public ``GameState``
wraps either. A table runs natively when the extension module imports, ``CANASTA_CORE`` is not
``python``, and the native core supports every setting the table uses (else it runs on the
Python core, with a ``RuntimeWarning`` saying why, once per table). The functions here are
the ones the layer above calls: they pick the core by the position's type.
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Optional

from . import _apply, _deal, _legal
from ._kernel import Core, Deal
from ._reasons import TEXT, Reason, words
from ._rules import Rules, Spec
from ._table import side_info

_ext: Any = None
_why_not = ""
"""Why no table runs natively ('' when the native core is in use)."""

if os.environ.get("CANASTA_CORE", "").strip().lower() in ("python", "py", "pure"):
    _why_not = "CANASTA_CORE=python is set"
else:
    try:
        from .. import _native as _ext  # type: ignore[attr-defined, no-redef]
    except ImportError:
        _why_not = "the native core is not built in this installation"


def native_rules(R: Rules) -> Any:
    """The native rules of table ``R``, or None when the table runs on the Python core."""
    n = R.native
    if n is None:
        n = False
        if _ext is not None:
            got = _ext.rules(R)
            if isinstance(got, str):
                R.native_why = got
                warnings.warn(f"{R.variant.name} at {R.players} players runs on the Python core: the native core "
                              f"does not support {got}", RuntimeWarning, stacklevel=3)
            else:
                n = got
        R.native = n
    return n or None


def core_name(R: Rules) -> str:
    """``"native"`` or ``"python"``: the core that plays table ``R``."""
    return "native" if native_rules(R) is not None else "python"


def why_python(R: Rules) -> str:
    """Why table ``R`` runs on the Python core ('' when it runs natively)."""
    if native_rules(R) is not None:
        return ""
    return _why_not or R.native_why


def legal_ids(c: Any) -> Any:
    """The legal action ids of the position ``c``, in order."""
    if type(c) is Core:
        return _legal.legal_ids(c)
    return c.legal_ids()


def apply_id(c: Any, action: int) -> Any:
    """The position after the action id ``action`` (the native core refuses an illegal one
    with ``ValueError``; the Python core trusts its caller)."""
    if type(c) is Core:
        return _apply.apply_id(c, action)
    return c.apply(action)


def apply_legal(c: Any, action: int) -> Any:
    """The position after ``action``, an id the caller has checked is legal here."""
    if type(c) is Core:
        return _apply.apply_id(c, action)
    return c.apply_legal(action)


def deal(R: Rules, seed: int, hand_number: int, dealer: int, totals: tuple[int, ...],
         given_precise: Optional[tuple[int, ...]] = None) -> Any:
    """Shuffle and deal a hand, and start the first turn (on the table's core)."""
    n = native_rules(R)
    if n is None or not native_totals(totals):
        # (totals beyond the native core's 64-bit integers: the game goes on on the Python core)
        return _deal.deal(R, seed, hand_number, dealer, totals, given_precise)
    precise = _deal.precise_draws(R, seed, hand_number, dealer, given_precise)
    return _ext.deal(n, R, seed, hand_number, dealer, tuple(totals), precise)


def problem(c: Any, probe: Spec) -> Optional[Reason]:
    """The first failing check's reason for ``probe`` in ``c``, or None if it is legal."""
    if type(c) is Core:
        return _legal.problem(c, probe)
    r = c.problem(probe)
    if type(r) is int:
        # an action the native core cannot even hold: never one of the variant's
        return _legal.problem(to_python(c), probe)
    if r is not None and r[0] == TEXT and type(r[1]) is not str:
        if r[1] is None:
            return (TEXT, _legal.space_problem(c.d.R, probe))
        before, inner, after = r[1]
        return (TEXT, before + words(c, inner) + after)
    return r


def why(c: Any, probe: Spec) -> Optional[str]:
    """Why the action ``probe`` is refused in ``c``, in a player's words, or None if legal."""
    r = problem(c, probe)
    return None if r is None else words(c, r)


def to_native(c: Core) -> Any:
    """The position ``c`` on its table's core (``c`` itself where that is the Python core)."""
    n = native_rules(c.d.R)
    if n is None or not native_totals(c.totals):
        return c  # scores beyond the native core's 64-bit integers play on the Python core
    try:
        return _ext.from_core(n, c)
    except (OverflowError, ValueError):
        # a position the native core cannot hold: a number beyond its integers (a score item's
        # count), text it cannot encode (a lone surrogate in an item's name), an index beyond
        # the melds (which the loaders refuse): the Python core, which takes any, plays it
        return c


NATIVE_TOTAL = 2 ** 62
"""Game totals the native core takes (a position loaded with larger ones, and the hands dealt
after it, stay on the Python core: a hand's score added to them must not overflow)."""


def native_totals(totals: tuple[int, ...]) -> bool:
    """Whether the native core may play a hand from the game totals ``totals``."""
    return all(-NATIVE_TOTAL < t < NATIVE_TOTAL for t in totals)


def to_python(c: Any) -> Core:
    """The position ``c`` as a Python core (a copy, where ``c`` is native)."""
    if type(c) is Core:
        return c
    p = Core.__new__(Core)
    d = c.d
    p.d = Deal(d.R, d.seed, d.hand_number, d.dealer, d.active, d.precise, d.stock)
    for name in ("hands", "downs", "melds", "red", "aside", "turned", "opened", "melded", "stock_n", "pile", "pile_n",
                 "buried", "frozen", "player", "phase", "flags", "count", "melds_before", "pending", "pending_top", "start_hand",
                 "took_last", "last_turns", "totals", "result", "winners", "history"):
        setattr(p, name, getattr(c, name))
    p.info = tuple(side_info(d.R, side) for side in p.melds)
    return p
