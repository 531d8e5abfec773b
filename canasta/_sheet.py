"""A table's score sheet: hand scores, optional point penalties and the final settlement.

The engine never lets an irregularity happen, so penalties are not part of play: a table
app that plays with real cards records them here (hoyle-1950 "POINT PENALTIES"), and may pass
the penalties of a hand to :meth:`GameState.next_hand` as ``adjustments`` so the cumulative
totals that fix the initial-meld minimum include them.
"""

from __future__ import annotations

from typing import Optional

import attrs
from attrs import frozen

from ._errors import ArgumentError, integer, show
from ._state import GameState
from ._variant import Variant
from ._variant_scoring import Penalties

PENALTIES = tuple(attrs.fields_dict(Penalties))
"""The names of the penalties a variant may set (``variant.penalties.<name>``)."""


@frozen
class SheetEntry:
    """One row of the sheet: points per side, what they are for, and the hand they belong to."""

    hand_number: int
    """The hand the row belongs to, numbered as ``GameState.hand_number``."""
    points: tuple[int, ...]
    """Points per side, in side order (a penalty is negative)."""
    note: str
    """``"hand"`` for a hand's score, or the penalty's name (``"irregular_draw"``)."""


@frozen
class ScoreSheet:
    """An immutable score sheet with one column per side ("We" and "They")."""

    variant: Variant
    """The variant whose penalties and settlement the sheet applies."""
    sides: int
    """The number of columns: one per side."""
    entries: tuple[SheetEntry, ...] = ()
    """The rows, oldest first."""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            raise ArgumentError("variant", f"expected a Variant (load_variant), not {show(self.variant)}")
        object.__setattr__(self, "sides", integer(self.sides, "sides", 2, 26))
        if not isinstance(self.entries, tuple) or not all(isinstance(e, SheetEntry) for e in self.entries):
            raise ArgumentError("entries", f"expected a tuple of SheetEntry rows, not {show(self.entries)}")

    @classmethod
    def for_game(cls, state: GameState) -> "ScoreSheet":
        """An empty sheet for the game ``state`` belongs to (a :class:`GameState`, else
        :class:`ArgumentError`)."""
        if not isinstance(state, GameState):
            raise ArgumentError("state", f"expected a GameState, not {show(state)}")
        return cls(state.variant, state.sides)

    @property
    def totals(self) -> tuple[int, ...]:
        """Cumulative total of each side."""
        out = [0] * self.sides
        for e in self.entries:
            for i, p in enumerate(e.points):
                out[i] += p
        return tuple(out)

    def record_hand(self, state: GameState) -> "ScoreSheet":
        """Add the scores of a finished hand (``state.result``)."""
        if not isinstance(state, GameState):
            raise ArgumentError("state", f"expected a GameState, not {show(state)}")
        if state.result is None:
            raise ValueError("the hand is not over: there is no score to record")
        pts = tuple(s.total for s in state.result.scores)
        return attrs.evolve(self, entries=self.entries + (SheetEntry(state.hand_number, pts, "hand"),))

    def penalize(self, side: int, penalty: str, hand_number: int = 0, times: int = 1) -> "ScoreSheet":
        """Deduct a named penalty (e.g. ``"irregular_draw"``) from ``side``.

        Raises :class:`ArgumentError` (a ``ValueError``) for a side that is not one of the sheet's,
        an unknown penalty name or one this variant does not state, a hand number below 0 or a
        count below 1.
        """
        side = integer(side, "side", 0, self.sides - 1)
        if not isinstance(penalty, str) or penalty not in PENALTIES:
            raise ArgumentError("penalty", f"unknown penalty {show(penalty)}; penalties: {', '.join(PENALTIES)}")
        hand_number = integer(hand_number, "hand_number", 0)
        times = integer(times, "times", 1)
        points = getattr(self.variant.penalties, penalty)
        if not points:
            raise ArgumentError("penalty", f"{self.variant.name} states no {penalty} penalty "
                                f"(penalties.{penalty} is 0)")
        pts = tuple(-points * times if i == side else 0 for i in range(self.sides))
        return attrs.evolve(self, entries=self.entries + (SheetEntry(hand_number, pts, penalty),))

    def adjustments(self, hand_number: int) -> tuple[int, ...]:
        """The penalty points recorded for ``hand_number``, per side (for ``next_hand``)."""
        out = [0] * self.sides
        for e in self.entries:
            if e.hand_number == hand_number and e.note != "hand":
                for i, p in enumerate(e.points):
                    out[i] += p
        return tuple(out)

    def settlement(self, totals: Optional[tuple[int, ...]] = None) -> tuple[int, ...]:
        """What each side receives (plus) or pays (minus) when the game is settled.

        hoyle-1950 customs: "each side reckons its total score to the nearest hundred, counting
        50 or more points as 100. The winners then receive the difference between these net
        scores" (5,030 to 3,050 settles as 50 - 31 = 19). With more than two sides the winner
        receives the difference from each. Negative totals round half away from zero.
        """
        return settle(self.totals if totals is None else totals, self.variant)


def _round(total: int, unit: int) -> int:
    if unit <= 0:
        return total
    sign = -1 if total < 0 else 1
    q, r = divmod(abs(total), unit)
    return sign * (q + (1 if 2 * r >= unit else 0))


def settle(totals: tuple[int, ...], variant: Variant) -> tuple[int, ...]:
    """The settlement of final ``totals`` under ``variant.settlement`` (see :meth:`ScoreSheet.settlement`).

    ``totals``: one integer per side, at least two; otherwise :class:`ArgumentError`.
    """
    if not isinstance(variant, Variant):
        raise ArgumentError("variant", f"expected a Variant (load_variant), not {show(variant)}")
    if isinstance(totals, (str, bytes)) or not hasattr(totals, "__iter__"):
        raise ArgumentError("totals", f"expected one integer per side, not {show(totals)}")
    totals = tuple(integer(t, f"totals.{i}") for i, t in enumerate(totals))
    if len(totals) < 2:
        raise ArgumentError("totals", f"expected one integer per side (two or more), not {len(totals)}")
    rounded = [_round(t, variant.settlement.round_to) for t in totals]
    best = max(rounded)
    winner = rounded.index(best)
    out = [r - best for r in rounded]
    out[winner] = sum(best - r for r in rounded)
    return tuple(out)
