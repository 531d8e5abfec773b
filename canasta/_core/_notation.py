"""The text notation of an action spec (the one source of ``str(action)``)."""

from __future__ import annotations

from .._cards import CODE_TOKENS as _TOKENS
from .._cards import SUIT_NAMES
from ._rules import (ADD, ANSWER, ASK, COMBINE, DISCARD, DONE, DRAW, MELD, PASS, RETRACT, TAKE, W_JOKER, W_PAIR,
                     W_TWO, WILD, Spec)

_SIMPLE = {DRAW: "draw", PASS: "pass", DONE: "done", RETRACT: "retract", ASK: "ask"}


def token(kind: int) -> str:
    """A card code's token (``JK``, ``2``, ``3r``, ``7``, ``A``; with a suit ``7h``)."""
    return _TOKENS[kind]


def meld_ref(rank: int, index: int) -> str:
    """``7``, ``7#2``, ``wild``: how the notation names a side's meld."""
    name = "wild" if rank == WILD else SUIT_NAMES[rank - 16] if rank >= 16 else _TOKENS[rank]
    return name if index == 1 else f"{name}#{index}"


def text(spec: Spec) -> str:
    """The notation of an action spec, e.g. ``take 7 JK`` or ``add 2 to 7#2``; in a variant with
    sequences natural cards carry their suits: ``take 7h 7s``, ``meld 5h 6h 7h``, ``add 8h to
    hearts``, ``take onto hearts#2``."""
    kind = spec[0]
    simple = _SIMPLE.get(kind)
    if simple is not None:
        return simple
    if kind == ANSWER:
        return "yes" if spec[1] else "no"
    if kind == DISCARD:
        return f"discard {_TOKENS[spec[1]]}"
    if kind == MELD:
        return "meld " + " ".join(_TOKENS[c] for c in spec[4])
    if kind == TAKE:
        r = _TOKENS[spec[1]] if spec[1] < 16 else ""
        way = spec[2]
        if spec[4]:
            return "take " + " ".join(_TOKENS[c] for c in spec[4])
        if way == W_PAIR:
            return f"take {r} {r}"
        if way == W_JOKER:
            return f"take {r} JK"
        if way == W_TWO:
            return f"take {r} 2"
        return f"take onto {meld_ref(spec[1], spec[3])}"
    if kind == ADD:
        card, rank, index = spec[1], spec[2], spec[3]
        if card == rank and index == 1:
            return f"add {_TOKENS[card]}"
        return f"add {_TOKENS[card]} to {meld_ref(rank, index)}"
    if kind == COMBINE:
        name = meld_ref(spec[1], 1)
        return f"combine {name}#{spec[2]} {name}#{spec[3]}"
    return f"action {spec!r}"
