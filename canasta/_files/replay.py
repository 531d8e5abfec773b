"""Replaying a game record: every state from its deal to its last move (:func:`replay`,
:func:`replay_states`), or as far as it goes (:func:`replay_lenient`, :class:`ReplayResult`).

Built on ``records``; built upon by ``recorder``.
"""

from __future__ import annotations

from typing import Callable, Iterator, Optional, Union

from attrs import frozen

from .._actions import Action, ActionParseError, parse_action
from .._state import GameState, IllegalActionError
from .records import GameRecord, RecordError, _check_record


@frozen
class ReplayResult:
    """What :func:`replay_lenient` gives: the last good state and every problem found.

    ``state`` is the state after the last move that could be applied (the deal, if none
    could); ``errors`` are :class:`RecordError` values, the one that stopped the replay first;
    ``applied`` counts the moves applied.
    """

    state: GameState
    """The state after the last move that could be applied (the deal, if none could)."""
    errors: tuple[RecordError, ...]
    """The problems found, the one that stopped the replay first; empty when it all replayed."""
    applied: int
    """How many moves were applied."""

    @property
    def ok(self) -> bool:
        """True when the whole record replayed without a problem."""
        return not self.errors


def _parse_move(text: str, hand: int, move: int) -> Union[Action, RecordError]:
    try:
        return parse_action(text)
    except ActionParseError as e:
        msg = str(e).removeprefix(f"{text!r}: ")
        return RecordError(f"hands.{hand}.actions.{move}", f"{text!r} is not an action: {msg}",
                           hand=hand + 1, move=move + 1, action=text, reason=msg)


class _Run:
    """The bookkeeping of one replay: the last good state, the problems, the moves applied."""

    def __init__(self) -> None:
        self.state: Optional[GameState] = None
        self.errors: list[RecordError] = []
        self.applied = 0


def _steps(record: GameRecord, run: _Run) -> Iterator[GameState]:
    """Every state of ``record`` until the end or the first problem (noted in ``run``, not raised)."""
    state = run.state = record.initial_state()
    yield state
    stop: Optional[tuple[int, int]] = None
    for h, actions in enumerate(record.hands):
        if h > 0:
            try:
                state = state.next_hand()
            except ValueError:
                before = len(record.hands[h - 1])
                if state.is_game_over:
                    why = f"the game ended with hand {h}"
                else:
                    why = f"hand {h} is not over after its {before} move{'s' if before != 1 else ''}"
                run.errors.append(RecordError(f"hands.{h}", f"hand {h + 1} follows, but {why}"))
                stop = (h, 0)
                break
            run.state = state
            yield state
        for m, text in enumerate(actions):
            action = _parse_move(text, h, m)
            if isinstance(action, RecordError):
                run.errors.append(action)
                stop = (h, m + 1)
                break
            try:
                state = state.apply(action)
            except IllegalActionError as e:
                run.errors.append(RecordError(f"hands.{h}.actions.{m}", f"{text!r} is not legal: {e.reason}",
                                              hand=h + 1, move=m + 1, action=text, reason=e.reason))
                stop = (h, m + 1)
                break
            run.applied += 1
            run.state = state
            yield state
        if stop is not None:
            break
    if stop is not None:
        # the moves after the stop cannot be judged for legality, but their notation can
        h0, m0 = stop
        for h in range(h0, len(record.hands)):
            for m in range(m0 if h == h0 else 0, len(record.hands[h])):
                bad = _parse_move(record.hands[h][m], h, m)
                if isinstance(bad, RecordError):
                    run.errors.append(bad)


def _walk(record: GameRecord, visit: Optional[Callable[[GameState], None]] = None) -> ReplayResult:
    run = _Run()
    for st in _steps(record, run):
        if visit is not None:
            visit(st)
    assert run.state is not None
    return ReplayResult(run.state, tuple(run.errors), run.applied)


def replay(record: GameRecord) -> GameState:
    """The state at the end of ``record``: its deal with every move applied.

    Raises :class:`RecordError` at the first move that is not an action or not legal (naming
    the hand and move from 1, the move's text and the engine's reason), or when a hand follows
    one that is not over.
    """
    result = _walk(_check_record(record))
    if result.errors:
        raise result.errors[0]
    return result.state


def replay_states(record: GameRecord) -> Iterator[GameState]:
    """Every state of ``record`` in order, one at a time: the first deal, the state after each
    move, and each later hand's deal (as ``next_hand()`` gives it).

    Raises :class:`RecordError` like :func:`replay` when it reaches a bad move, after yielding
    the states before it.
    """
    run = _Run()
    yield from _steps(_check_record(record), run)
    if run.errors:
        raise run.errors[0]


def replay_lenient(record: GameRecord) -> ReplayResult:
    """Replay ``record`` as far as it goes, without raising for a bad move.

    The replay stops at the first move that is not an action or not legal (or at a hand that
    follows one not over); the result holds the state after the last good move and the
    problems: the one that stopped the replay, then every later move whose notation cannot
    be read (their legality cannot be judged). Each problem is a :class:`RecordError` with
    ``hand`` and ``move`` numbered from 1. A record whose table size or dealer does not fit
    its variant still raises :class:`RecordError` (there is no state to return).
    """
    return _walk(_check_record(record))
