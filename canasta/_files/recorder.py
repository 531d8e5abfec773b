"""Making game records: :class:`GameRecorder` records a game as it is played (and writes its
log), :func:`record_game` makes the record of states already played.

Built on ``records``, ``replay`` and ``log``.
"""

from __future__ import annotations

import datetime
from typing import Any, Callable, Iterable, Optional, Sequence, Union

from .._actions import Action, parse_action
from .._errors import ArgumentError, show
from .._fields import Phase
from .._state import GameState
from .log import _NEXT_HAND, _log_header
from .records import GameRecord, RecordError, _check_record, _check_state
from .replay import _walk, replay


class GameRecorder:
    """Records a game as it is played; :meth:`record` gives the :class:`GameRecord`.

    Start it with a state of the game's first hand: a fresh ``new_game(...)`` or a state
    reached from one (its ``history`` becomes the first moves). Then play through it::

        rec = GameRecorder(new_game("bicycle", seed=3))
        state = rec.apply("draw")       # or an Action, or an action id
        ...
        state = rec.next_hand()         # when a hand is over

    or let :func:`play_game` feed it: ``play_game(..., on_action=rec.on_action)``.

    A game server keeps an append-only save with ``log``: a function given each line of the
    game's log (:func:`dump_log`) as it is written, its header first, then one line per move
    (and ``next hand`` between hands), each ending with a newline. Stored in order (a file
    opened for appending, a table of rows), the lines joined are the text :func:`load_log`
    reads; :meth:`resume` goes on from it after a restart, in the middle of a hand too::

        rec = GameRecorder(new_game(bundled_variant("samba"), seed=seed), log=rows.append)
        rec.apply(action, seat=seat)    # appends "discard 7h\\n"
        ...                             # after a restart:
        rec = GameRecorder.resume(load_log("".join(rows)), log=rows.append)
    """

    def __init__(self, state: GameState, *, log: Optional[Callable[[str], Any]] = None,
                 compact: bool = True) -> None:
        """Record from ``state``, a state of hand 0 that its history reaches from the deal.

        ``log``: called with each line of the game's log as it is written (see above), the
        header and the moves of ``state``'s history at once. ``compact``: the header names a
        bundled variant by its name and settings hash (as :func:`dump_log`).

        Raises :class:`ArgumentError` (a ``ValueError``) for a later hand, or for a state not
        dealt by ``new_game`` (a loaded position, say), which a record could not reproduce.
        """
        _check_state(state)
        if log is not None and not callable(log):
            raise ArgumentError("log", f"expected a function taking each line of the log, or None, not {show(log)}")
        if state.hand_number != 0:
            raise ArgumentError("state", f"a record starts with the first hand; this state is of hand "
                             f"{state.hand_number + 1} (record the game from its first deal, or "
                             "GameRecorder.resume a record of it)")
        moves = tuple(str(a) for a in state.history)
        check = GameRecord(state.variant, state.players, state.seed, state.dealer, (moves,))
        try:
            again = replay(check)
        except RecordError as e:
            raise ArgumentError("state", f"this state's history does not replay from the deal: {e}") from None
        if again != state:
            raise ArgumentError("state", "this state is not the deal of new_game(variant, players, seed, dealer) "
                             "followed by its history (a loaded position, say): a record could not "
                             "reproduce it")
        self._start = check
        self._hands: list[list[str]] = [list(moves)]
        self._state = state
        self._log = log
        if log is not None:
            log(_log_header(check, compact))
            for m in moves:
                log(m + "\n")

    @classmethod
    def resume(cls, record: GameRecord, *, log: Optional[Callable[[str], Any]] = None) -> "GameRecorder":
        """A recorder that goes on with ``record``'s game where it stops, in the middle of a
        hand or between hands: its :attr:`state` is ``replay(record)``, and its record the moves
        of ``record`` followed by those played after (the metadata is not kept: pass it to
        :meth:`record`). ``log`` gets only the lines of the moves played from now on, so a
        server that kept the log of ``record`` (:func:`load_log`) appends to it as before.

        Raises :class:`RecordError` when ``record`` does not replay (as :func:`replay`).
        """
        _check_record(record)
        if log is not None and not callable(log):
            raise ArgumentError("log", f"expected a function taking each line of the log, or None, not {show(log)}")
        state = replay(record)
        rec = cls.__new__(cls)
        rec._start = GameRecord(record.variant, record.players, record.seed, record.dealer, (record.hands[0],))
        rec._hands = [list(h) for h in record.hands]
        rec._state = state
        rec._log = log
        return rec

    @property
    def state(self) -> GameState:
        """The current state of the recorded game."""
        return self._state

    def apply(self, action: Union[Action, str, int], seat: Optional[int] = None) -> GameState:
        """Apply ``action`` (an action, its notation or its id) and record it; the new state.

        ``seat``: the seat sending it, refused when not the one to act (as
        :meth:`GameState.apply`). Raises :class:`IllegalActionError` (nothing is recorded)
        for an illegal action.
        """
        if isinstance(action, str):
            action = parse_action(action)
        elif not isinstance(action, Action):
            action = self._state.action_space.decode(action)  # (an id: checked there)
        after = self._state.apply(action, seat=seat)
        text = str(action)
        self._hands[-1].append(text)
        self._state = after
        if self._log is not None:
            self._log(text + "\n")
        return after

    def next_hand(self) -> GameState:
        """Deal the next hand (the current one must be over) and record moves into it."""
        after = self._state.next_hand()
        self._hands.append([])
        self._state = after
        if self._log is not None:
            self._log(_NEXT_HAND + "\n")
        return after

    def on_action(self, before: GameState, action: Action, after: GameState) -> None:
        """A :func:`play_game` ``on_action`` hook: records ``action`` taken in ``before``.

        A ``before`` of the next hand is followed there with :meth:`next_hand`. The recorder
        applies ``action`` itself (``after`` is not trusted), so :attr:`state` stays exactly the
        game a replay gives. Raises :class:`ArgumentError` (a ``ValueError``) if ``before`` is
        not the recorder's current state, :class:`IllegalActionError` if ``action`` is not
        legal there.
        """
        _check_state(before, "before")
        st = self._state
        if before.hand_number == st.hand_number + 1 and st.phase is Phase.HAND_OVER:
            self.next_hand()
            st = self._state
        if before != st:
            raise ArgumentError("before", "the state the action was taken in is not the recorded "
                             "game's current state")
        mine = before.apply(action)  # (before's cached legal actions are reused)
        text = str(action)
        self._hands[-1].append(text)
        self._state = mine
        if self._log is not None:
            self._log(text + "\n")

    def record(self, *, date: Optional[datetime.date] = None, names: Sequence[str] = (),
               event: str = "", comment: str = "") -> GameRecord:
        """The record of the game so far, with optional metadata (see :class:`GameRecord`)."""
        s = self._start
        return GameRecord(s.variant, s.players, s.seed, s.dealer, self._hands, date=date,
                          names=tuple(names), event=event, comment=comment)


def record_game(hand_states: Union[GameState, Sequence[GameState]], *,
                date: Optional[datetime.date] = None, names: Sequence[str] = (),
                event: str = "", comment: str = "") -> GameRecord:
    """The record of a game from states already played: the last state of each hand, in order.

    Each state's ``history`` gives that hand's moves. A single state stands for a game still in
    its first hand. The record is checked by replaying it: each hand must end in the state
    given. Raises :class:`ArgumentError` (a ``ValueError``) when the states are not one game's
    hands 0, 1, 2, ... as dealt by ``new_game`` and ``next_hand``.
    """
    if isinstance(hand_states, GameState):
        states = [hand_states]
    elif isinstance(hand_states, (str, bytes)) or not isinstance(hand_states, Iterable):
        raise ArgumentError("hand_states", f"expected a GameState or a sequence of them, not {show(hand_states)}")
    else:
        states = [_check_state(s, "hand_states") for s in hand_states]
    if not states:
        raise ArgumentError("hand_states", "record_game needs at least one state (the last state of each hand)")
    first = states[0]
    for i, s in enumerate(states):
        if s.hand_number != i:
            raise ArgumentError("hand_states", f"state {i} is of hand {s.hand_number + 1}, not hand {i + 1}: give the "
                             "last state of every hand, the first hand first")
        if (s.variant, s.players, s.seed) != (first.variant, first.players, first.seed):
            raise ArgumentError("hand_states", f"state {i} is not of the same game (variant, players and seed differ)")
    record = GameRecord(first.variant, first.players, first.seed, first.dealer,
                        [[str(a) for a in s.history] for s in states], date=date,
                        names=tuple(names), event=event, comment=comment)
    ends: list[GameState] = []

    def visit(st: GameState) -> None:
        if len(ends) <= st.hand_number:
            ends.append(st)
        else:
            ends[st.hand_number] = st

    result = _walk(record, visit)
    if result.errors:
        raise ArgumentError("hand_states", f"the states' histories do not replay: {result.errors[0]}")
    for i, (got, want) in enumerate(zip(ends, states)):
        if got != want:
            raise ArgumentError("hand_states", f"hand {i + 1} does not replay to the state given (not dealt by "
                             "new_game and next_hand, or a later hand's state is missing)")
    return record
