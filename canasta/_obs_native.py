"""(private) The observation vector and the legal-action mask written into a caller's buffer:
natively where the state plays on the native core (``native/src/obs.rs``), else from the
Python encoder (:class:`~canasta.ObservationEncoder`, the reference), with the same checks
of the buffers on both cores.
"""

from __future__ import annotations

import struct
from typing import Any, Optional

from . import _core
from ._core._backend import _ext, native_rules
from ._errors import ArgumentError, integer, show

__all__ = ["Writer", "layout_items"]

_OFFSETS = ("own_hand", "own_down_size", "other_hand_sizes", "other_down_sizes", "known_cards", "melds", "sequences",
            "red_threes", "black_threes_aside", "opened", "initial_need", "totals", "dealer", "active", "melded",
            "took_last", "pile_size", "pile_top", "pile_discards", "frozen", "stock_size", "phase", "current_player",
            "turn", "last_round")
"""The segments in the order ``obs.rs`` takes their offsets (``OFFSETS`` there)."""


def turn_bits() -> tuple[int, ...]:
    """The turn flags of the ``turn`` segment, in :data:`~canasta.TURN_FLAGS` order (the
    answer as two flags; then ``count`` and ``pending_size``, which are not flags)."""
    return (_core.F_DREW, _core.F_TOOK, _core.F_ASKED, _core.F_YES, _core.F_NO, _core.F_MELDED,
            _core.F_B3, _core.F_MUST_OUT, _core.F_TOUCHED, _core.F_OWN, _core.F_NO_TAKE, _core.F_NATURAL)


def layout_items(encoder: Any, action_size: int) -> tuple[Any, ...]:
    """The layout of ``encoder`` as ``obs_layout`` takes it (see ``Layout`` in ``obs.rs``)."""
    by_name = {seg.name: seg.offset for seg in encoder.layout}
    p = encoder.players
    return (p, encoder.size, action_size, tuple(encoder.card_codes), encoder.suited, encoder.down_hands,
            encoder.black_threes_aside, encoder.max_melds_per_rank, tuple(encoder.meld_ranks),
            encoder.sequence_slots, tuple(encoder.sequence_ranks), encoder._target,
            tuple(by_name.get(name, -1) for name in _OFFSETS),
            tuple(encoder.relative_sides(s) for s in range(p)), turn_bits(), encoder.segment("phase").length)


def _check(out: Any, name: str, count: int, floats: bool) -> memoryview:
    """``out`` as a writable byte view, checked as the native core checks it: contiguous, of
    ``float32`` numbers (or raw bytes, 4 a number) when ``floats``, else of one-byte numbers
    (``int8``, ``uint8``, ``bool``); ``count`` numbers."""
    kind = (f"a writable, contiguous float32 buffer of {count} numbers (a numpy array, or {4 * count} bytes)"
            if floats else f"a writable, contiguous int8 (or uint8, bool) buffer of {count} numbers")
    try:
        mv = memoryview(out)
    except TypeError:
        raise ArgumentError(name, f"expected {kind}, not {show(out)}") from None
    code = mv.format.lstrip("@=<")
    ok_type = (code == "f" and mv.itemsize == 4 and floats) or (code in ("B", "b", "c", "?") and mv.itemsize == 1)
    if mv.readonly or not mv.c_contiguous or not ok_type or mv.nbytes != (4 if floats else 1) * count:
        raise ArgumentError(name, f"expected {kind}, not a {'read-only ' if mv.readonly else ''}buffer of format "
                            f"{mv.format!r} and {mv.nbytes} bytes")
    return mv.cast("B")


class Writer:
    """(private) Writes the vector of a state seen from a seat, and the state's legal-action
    mask, into buffers: one table's, made from its :class:`~canasta.ObservationEncoder`."""

    __slots__ = ("encoder", "layout", "action_size", "_pack")

    def __init__(self, encoder: Any) -> None:
        from ._newgame import new_game

        self.encoder = encoder
        probe = new_game(encoder.variant, encoder.players, seed=0)
        self.action_size: int = probe.action_space.size
        n = native_rules(_core.rules_for(encoder.variant, encoder.players))
        self.layout: Optional[Any] = None
        """The native layout (None: the table plays on the Python core)."""
        if n is not None:
            self.layout = _ext.obs_layout(n, layout_items(encoder, self.action_size))
        self._pack = struct.Struct(f"={encoder.size}f")

    def write(self, state: Any, seat: int, out: Any, mask: Any = None) -> None:
        """Write the vector of ``state`` seen from ``seat`` into ``out`` and its legal-action
        mask into ``mask`` (either may be None)."""
        from ._state import GameState

        if not isinstance(state, GameState):
            raise ArgumentError("state", f"expected a GameState, not {show(state)}")
        c = state._c
        if self.layout is not None and type(c) is not _core.Core:
            ids = _ext.observe(self.layout, c, seat, out, mask)
            if ids is not None and state._ids is None:  # the state keeps them for its next apply
                state._ids = ids
            return
        enc = self.encoder
        if state.variant.name != enc.variant.name or state.players != enc.players:
            raise ArgumentError("state", f"a position of {state.variant.name} with {state.players} players, not "
                                f"{enc.variant.name} with {enc.players}")
        seat = integer(seat, "seat", 0, enc.players - 1)
        ob = _check(out, "out", enc.size, True) if out is not None else None
        mb = _check(mask, "mask", self.action_size, False) if mask is not None else None
        if ob is not None:
            ob[:] = self._pack.pack(*enc.encode(state.observation(seat)))
        if mb is not None:
            mb[:] = state.legal_action_mask()
