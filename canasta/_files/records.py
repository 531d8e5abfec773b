"""A game record: a game as its deal and its moves (:class:`GameRecord`), and the error of a
record that cannot be read or replayed (:class:`RecordError`).

Its text format is documented in ``canasta._files.record_text``. Built on the game state;
built upon by ``replay``, ``log``, ``recorder``, ``record_text`` and ``saves``.
"""

from __future__ import annotations

import datetime
import functools
from typing import Any, Iterable, Optional

from attrs import field, frozen

from .._actions import Action
from .._errors import ArgumentError, integer, show
from .._newgame import SEED_BITS, check_seed, new_game
from .._state import GameState
from .._variant import Variant

_SEED_LIMIT = (1 << SEED_BITS) - 1


class RecordError(ValueError):
    """A game record that cannot be read or replayed.

    ``path`` is the key at fault (``seed``, ``variant.melds.min_size``, ``hands.1.actions.13``;
    items counted from 0) and ``problem`` what is wrong. For a move that cannot be replayed,
    ``hand`` and ``move`` number it from 1 (the first move of the first hand is hand 1, move 1),
    ``action`` is its text and ``reason`` the engine's reason; ``str(error)`` is then
    ``hand 2, move 14: 'discard 7' is not legal: <reason>``. Otherwise ``str(error)`` is
    ``<path>: <problem>``.
    """

    def __init__(self, path: str, problem: str, *, hand: Optional[int] = None, move: Optional[int] = None,
                 action: Optional[str] = None, reason: Optional[str] = None) -> None:
        self.path = path
        """The key at fault, such as ``seed`` or ``hands.1.actions.13`` (items counted from 0)."""
        self.problem = problem
        """What is wrong with it."""
        self.hand = hand
        """For a move that cannot be replayed: the hand's number counted from 1; else None."""
        self.move = move
        """For a move that cannot be replayed: the move's number in its hand counted from 1; else None."""
        self.action = action
        """For a move that cannot be replayed: the move's text as written; else None."""
        self.reason = reason
        """For a move that cannot be replayed: why (the notation's problem or the engine's reason)."""
        if hand is not None and move is not None:
            text = f"hand {hand}, move {move}: {problem}"
        elif path:
            text = f"{path}: {problem}"
        else:
            text = problem
        super().__init__(text)

    def __reduce__(self) -> tuple[Any, ...]:
        # (pickle rebuilds an exception from ``args``, the message alone: give it the fields, so
        # that an error raised in a worker process comes back whole)
        return (functools.partial(type(self), hand=self.hand, move=self.move, action=self.action,
                                  reason=self.reason), (self.path, self.problem))


def _hands(value: Iterable[Iterable[Any]]) -> tuple[tuple[str, ...], ...]:
    """The moves per hand as notation: strings are kept, actions written as their notation."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ArgumentError("GameRecord.hands", f"expected one sequence of moves per hand, not {show(value)}")
    out = []
    for i, hand in enumerate(value):
        if isinstance(hand, (str, bytes)) or not isinstance(hand, Iterable):
            raise ArgumentError(f"GameRecord.hands.{i}", f"expected a sequence of moves, not {show(hand)}")
        moves = []
        for a in hand:
            if isinstance(a, Action):
                moves.append(str(a))
            elif isinstance(a, str):
                moves.append(_text(a, f"GameRecord.hands.{i}"))
            else:
                raise ArgumentError(f"GameRecord.hands.{i}", f"a move is an Action or its notation, not {show(a)}")
        out.append(tuple(moves))
    if not out:
        raise ArgumentError("GameRecord.hands", "a record has at least one hand (the first, maybe without moves)")
    return tuple(out)


def _text(value: str, argument: str) -> str:
    """``value``, which a record file can hold: text that UTF-8 encodes (no lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ArgumentError(argument, f"{show(value)} cannot be written as UTF-8 text ({e.reason} at "
                            f"index {e.start})") from None
    return value


def _names(value: Iterable[str]) -> tuple[str, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ArgumentError("GameRecord.names", f"expected a sequence of names, not {show(value)}")
    names = tuple(value)
    for n in names:
        if not isinstance(n, str):
            raise ArgumentError("GameRecord.names", f"a name is a string, not {show(n)}")
        _text(n, "GameRecord.names")
    return names


def _event(value: Any) -> str:
    if not isinstance(value, str):
        raise ArgumentError("GameRecord.event", f"expected a string, not {show(value)}")
    return _text(value, "GameRecord.event")


def _comment(value: Any) -> str:
    if not isinstance(value, str):
        raise ArgumentError("GameRecord.comment", f"expected a string, not {show(value)}")
    return _text(value, "GameRecord.comment")


def _date(value: Any) -> Optional[datetime.date]:
    if value is not None and not isinstance(value, datetime.date):
        raise ArgumentError("GameRecord.date", f"expected a datetime.date or datetime.datetime, or None, "
                            f"not {show(value)}")
    if isinstance(value, datetime.datetime):
        offset = value.utcoffset()
        if offset is not None and offset % datetime.timedelta(minutes=1):
            raise ArgumentError("GameRecord.date", f"a record's date-time has a UTC offset in whole minutes "
                                f"(as TOML writes it), not {offset}")
    return value


def _seed(value: Any) -> int:
    return check_seed(value, "GameRecord.seed")


def _players(value: Any) -> int:
    return integer(value, "GameRecord.players")


def _dealer(value: Any) -> int:
    return integer(value, "GameRecord.dealer")


@frozen
class GameRecord:
    """A game as its deal and its moves: everything needed to replay it (see the module docs).

    ``hands`` holds one tuple of action notations per hand, in order (actions given as
    :class:`Action` objects are stored as their notation). The first hand is
    ``new_game(variant, players, seed, dealer)`` and each later one the ``next_hand()`` of the
    hand before. ``date``, ``names`` (one per seat), ``event`` and ``comment`` are metadata only.

    Every field is checked when the record is made: a value of the wrong type, a table size the
    variant does not have, a dealer who is not a seat or names not one per seat raise
    :class:`ArgumentError`, so that :func:`dump_record` of any record loads back equal.
    """

    variant: Variant = field()
    """The rules the game was played by (all of them, so a record replays after a file changes)."""
    players: int = field(converter=_players)
    """The number of seats; the variant has a table for it."""
    seed: int = field(converter=_seed)
    """The seed of the deals (``new_game(..., seed=...)``)."""
    dealer: int = field(converter=_dealer)
    """The dealer of the first hand, a seat from 0."""
    hands: tuple[tuple[str, ...], ...] = field(converter=_hands)
    """The moves of each hand in action notation, one tuple per hand in the order played."""
    date: Optional[datetime.date] = field(default=None, converter=_date)
    """When the game was played (a ``datetime.date`` or ``datetime.datetime``)."""
    names: tuple[str, ...] = field(default=(), converter=_names)
    """The players' names, in seat order (empty when not recorded)."""
    event: str = field(default="", converter=_event)
    """The event the game was played at (empty when not recorded)."""
    comment: str = field(default="", converter=_comment)
    """Free text about the game (empty when there is none)."""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            raise ArgumentError("GameRecord.variant", f"expected a Variant, not {show(self.variant)}")
        if str(self.players) not in self.variant.tables:
            allowed = ", ".join(sorted(self.variant.tables, key=int))
            raise ArgumentError("GameRecord.players", f"{self.variant.name} is played by {allowed} players, "
                                f"not {self.players}")
        if not 0 <= self.dealer < self.players:
            raise ArgumentError("GameRecord.dealer", f"must be a seat from 0 to {self.players - 1}, "
                                f"not {self.dealer}")
        if self.names and len(self.names) != self.players:
            raise ArgumentError("GameRecord.names", f"give one name per seat ({self.players}), "
                                f"not {len(self.names)}")

    @property
    def moves(self) -> int:
        """The number of moves in the record, over all hands."""
        return sum(len(h) for h in self.hands)

    def initial_state(self) -> GameState:
        """The deal of the first hand: ``new_game(variant, players, seed, dealer)``.

        Raises :class:`RecordError` if the table size or the dealer does not fit the variant.
        """
        if str(self.players) not in self.variant.tables:
            allowed = ", ".join(sorted(self.variant.tables, key=int))
            raise RecordError("players", f"{self.variant.name} is played by {allowed} players, "
                              f"not {self.players}")
        if not 0 <= self.dealer < self.players:
            raise RecordError("dealer", f"must be a seat from 0 to {self.players - 1}, not {self.dealer}")
        return new_game(self.variant, self.players, self.seed, self.dealer)


def _check_record(record: Any) -> GameRecord:
    if not isinstance(record, GameRecord):
        raise ArgumentError("record", f"expected a GameRecord, not {show(record)}")
    return record


def _check_state(state: Any, argument: str = "state") -> GameState:
    if not isinstance(state, GameState):
        raise ArgumentError(argument, f"expected a GameState, not {show(state)}")
    return state
