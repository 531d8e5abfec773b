"""The error for a bad argument, and the checks that raise it.

Every other canasta error names a kind of input (:class:`ActionParseError` for action text,
:class:`StateError` for a JSON save, ...); :class:`ArgumentError` is for a value handed to a
function or constructor in Python: of the wrong type, or out of its range.
"""

from __future__ import annotations

import numbers
from typing import Any, Optional


class ArgumentError(ValueError, TypeError):
    """An argument of the wrong type or out of range, handed to a canasta function or
    constructor in Python (``new_game(seed="abc")``, ``Discard(15)``, ``state.apply(1.5)``).

    It is both a ``ValueError`` and a ``TypeError``, so either ``except`` clause catches it.
    ``argument`` names the argument (``seed``, ``Discard.card``) and ``str(error)`` says what
    was given and what is expected.
    """

    argument: str
    """The argument at fault: ``seed``, ``Discard.card``, ``obs``."""
    problem: str
    """What was given and what is expected (the message after ``argument: ``)."""

    def __init__(self, argument: str, problem: str) -> None:
        self.argument = argument
        self.problem = problem
        super().__init__(f"{argument}: {problem}")

    def __reduce__(self) -> tuple[Any, ...]:
        # (pickle rebuilds an exception from ``args``, the message alone: give it the fields, so
        # that an error raised in a worker process comes back whole)
        return (type(self), (self.argument, self.problem))


def show(value: Any) -> str:
    """``value`` for a message: its repr (shortened) and, unless obvious, its type."""
    if isinstance(value, int) and not -10 ** 30 < value < 10 ** 30:
        # (repr of an integer of more than 4,300 digits raises ValueError)
        return f"an integer of {value.bit_length()} bits" + ("" if type(value) in (int, bool) else
                                                             f" (a {type(value).__name__})")
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a value whose repr fails is shown by its type
        return f"a {type(value).__name__}"
    if len(text) > 60:
        text = text[:57] + "..."
    if isinstance(value, (bool, int, str)) and type(value) in (bool, int, str):
        return text
    return f"{text} (a {type(value).__name__})"


def integer(value: Any, argument: str, low: Optional[int] = None, high: Optional[int] = None) -> int:
    """``value`` as an ``int``: any ``numbers.Integral`` except ``bool`` (numpy integers
    included), within ``low`` .. ``high``; otherwise an :class:`ArgumentError`."""
    if type(value) is int:
        v = value  # the common case, without the slower ABC check
    elif isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ArgumentError(argument, f"expected an integer, not {show(value)}")
    else:
        v = int(value)
    if (low is not None and v < low) or (high is not None and v > high):
        if low is not None and high is not None:
            want = f"from {low} to {high}"
        elif low is not None:
            want = f"{low} or more"
        else:
            want = f"{high} or less"
        shown = str(v) if abs(v) < 10 ** 30 else f"an integer of {v.bit_length()} bits"
        raise ArgumentError(argument, f"must be {want}, not {shown}")
    return v
