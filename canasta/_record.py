'''Game records (TOML) and full-state saves (JSON).

A **game record** is the deal and every move of a game: enough to replay it exactly. It names
the variant *and* carries all of its settings, so a record still replays after a variant file
is edited. A **state save** is one :class:`GameState` in full, with the current hand's action
history, for stopping a game and going on later; loading it gives an equal state.

Recording and replaying a game:

```python
from canasta import new_game
from canasta._record import GameRecorder, dump_record, load_record, replay

rec = GameRecorder(new_game("hoyle-1950", 4, seed=7))
rec.apply("draw")                    # returns the new state, also at rec.state
...
rec.next_hand()                      # when a hand is over
text = dump_record(rec.record(names=("Ann", "Bob", "Cy", "Di")))
final = replay(load_record(text))    # equal to rec.state
```

:class:`GameRecorder` also has an ``on_action`` hook for :func:`play_game`
(``play_game(..., on_action=rec.on_action)``), and :func:`record_game` makes a record from
states already played (the last state of each hand: its ``history`` holds the hand's moves).

**The game record format (TOML)**

An example, shortened where the comments say (the moves are the start of a real game):

```toml
record_version = 1
players = 4
seed = 7
dealer = 3

[meta]
date = 2026-11-22
names = ["Ann", "Bob", "Cy", "Di"]
event = "club night"

[[hands]]           # hand 1
actions = [
    "draw",         # seat 0 (the player left of dealer 3)
    "meld J J J",
    "meld A A JK",
    "discard 5",
    "draw",         # seat 1
    "discard 3b",
    # ... to the move that ends the hand
]

[[hands]]           # hand 2, dealt by seat 0
actions = [
    "draw",
    # ...
]

[variant]
name = "hoyle-1950"
description = "..."
default_players = 4

[variant.tables.4]
sides = "ABAB"
# ... every setting, as variant_to_dict gives it
```

Top-level keys of a record:

- ``record_version``: the format version, ``1`` (may be left out; any other value is refused).
- ``variant`` (required): the rules, as a table with every setting as ``variant_to_dict``
  gives it (its ``name`` included). Replaying uses these settings, never the variant file of
  that name, so a record replays the same after the bundled file changes. Settings left out
  take the schema defaults (not those of a bundled variant of that name). For a record written
  by hand, ``variant`` may instead be the name of a bundled variant (``variant =
  "hoyle-1950"``): that variant as it is now.
- ``players`` (required): the number of seats; the variant must have a table for it.
- ``seed`` (required): the seed of the deals (an integer).
- ``dealer``: the dealer of the first hand, a seat from 0. Default: the seat ``new_game``
  picks (``dealer = None``). :func:`dump_record` always writes it.
- ``[meta]`` (optional): ``date`` (a TOML date or date-time, such as ``2026-11-22``),
  ``names`` (the players' names, one string per seat in seat order), ``event`` and
  ``comment`` (strings). Nothing in ``[meta]`` affects the replay.
- ``[[hands]]`` (at least one): one table per hand in the order played, each with
  ``actions``, the list of that hand's moves in action notation (see :mod:`canasta._actions`:
  ``"draw"``, ``"take 7 7"``, ``"meld 7 7 7"``, ``"add JK to 7"``, ``"discard 9"``, ...),
  oldest first. A hand's deal is not written: it follows from the seed and the hand's number.
  The first hand is ``new_game(variant, players, seed, dealer)``; each later hand is
  ``state.next_hand()`` of the hand before, which must be over. The last hand may be
  unfinished (a game in progress) or have no actions yet.

:func:`load_record` is strict about the structure: an unknown key, a missing required key, a
value of the wrong type or a bad variant setting is a :class:`RecordError` whose text is
``key.path: message`` (``seed: expected an integer, got '7' (a string)``,
``variant.melds.min_size: is 2; a meld needs at least 3 cards``). Item numbers in key paths
count from 0 (``hands.0.actions.4`` is the fifth move of the first hand). The moves' notation
and legality are checked by replaying: :func:`replay` raises a :class:`RecordError` for the
first move that is not an action or not legal, naming the hand and the move counted from 1 as
people do, the move's text and the engine's reason (``hand 2, move 14: 'discard 7' is not
legal: you hold no 7``). :func:`replay_lenient` does not raise: it returns the state after the
last good move and the list of problems.

**The state save format (JSON)**

One JSON object; every key is required (but ``history_seats``) and no other key is allowed.
Card lists are strings of card tokens (``"K K 5 JK"``; ``JK``, ``2``, ``3r``, ``3b``, ``4``
.. ``10``, ``J``, ``Q``, ``K``, ``A``; ``""`` for none). Seats and sides are numbered from 0. The keys, in the order written:

- ``format``: ``"canasta-state"``; ``version``: ``1``.
- ``players``, ``seed``, ``hand_number`` (from 0), ``dealer`` (a seat): integers.
- ``phase``: one of ``draw``, ``answer``, ``initial_take``, ``meld``, ``final_meld``,
  ``hand_over``, ``game_over`` (see :class:`Phase`).
- ``current_player``: the seat to act, a seat playing this hand; ``null`` exactly when the
  hand is over.
- ``totals``: cumulative totals, one integer per side.
- ``hands``, ``down_hands``: per seat, the cards held (down hands: new-canasta's foot).
  A seat sitting out this hand holds nothing.
- ``melds``: per side, a list of that side's melds in table order, each a string of its cards:
  naturals, then jokers, then deuces, then ``3r`` for a red three topping a canasta
  (new-canasta). ``"JK JK 2"`` is a meld of wild cards only. Each must be a valid meld of the
  variant, and one per rank unless the variant allows more.
- ``red_threes`` (faced, per side; integers), ``opened`` (per side), ``melded`` and
  ``took_last`` (per seat): as the :class:`GameState` fields.
- ``stock`` and ``pile``: bottom to top, so the next card drawn is the *last* token of
  ``stock`` and the top of the pile the last of ``pile``.
- ``frozen`` (true/false), ``last_turns`` (-1 while the stock lasts, else the turns left).
- ``active``: the seats playing this hand in turn order; it must be what the table gives
  for ``hand_number`` (with five at a hoyle table, one sits out in turn).
- ``precise``: (new-canasta) the dealers' seats credited with a precise dealer draw
  this hand, increasing; empty otherwise.
- ``turn``: every field of :class:`Turn`: flags as true/false, counts as integers (0 or
  more), ``answer`` true/false/``null``, ``pending`` a card string (bottom to top),
  ``pending_top`` a card token or ``null`` (none), ``start_hand`` a card string or ``null``
  (none). It must be the empty turn (every field at its default) when the hand is over.
- ``result``: ``null``, or (only when the hand is over) ``{"went_out": seat or null,
  "concealed": bool, "reason": str, "scores": [{"side": int, "items": [{"name": str,
  "count": int, "points": int}, ...]}, ...]}``, the scores one per side in side order
  (``scores[i]`` is side ``i``).
- ``winners``: the winning sides; empty unless the game is over.
- ``variant``: every setting, as ``variant_to_dict`` gives it (the whole variant is stored,
  so a save loads the same after a variant file changes).
- ``history``: the current hand's actions in notation, oldest first.
- ``history_seats`` (optional; saves before 0.2 lack it): the seat that played each action of
  ``history``, or ``null`` where not known. Observations of the loaded state show who played
  each action even when its history does not reach back to the deal.

Every card of the variant's deck for this table (``rules_for(variant, players).deck``) must
be in exactly one place: a hand or down hand, a meld (naturals at the meld's rank, its jokers
and deuces, a red three topping), the faced red threes, the stock, the pile or
``turn.pending``. :func:`state_from_json` checks all of it, builds nothing until everything
has passed, and raises :class:`StateError` (``key.path: message``) for input that is not
JSON or is cut short, has an unknown, missing or repeated key or a value of the wrong type,
cards that do not add up to the deck (naming each kind and by how much), an impossible
phase, totals or per-seat lists of the wrong length, or a meld the variant does not allow.
'''

from __future__ import annotations

import datetime
import difflib
import json
import tomllib
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, Union

import attrs
import tomli_w
from attrs import field, frozen

from ._actions import Action, ActionParseError, parse_action, space_of
from ._cards import (
    _PARSE,
    _TOKENS,
    CARD_NAMES_PLURAL,
    N_KINDS,
    NATURAL_RANKS,
    WILD_RANK,
    cards_text,
    deck_mismatch,
    sequence_text,
)
from ._core import Rules, rules_for
from ._core import active_seats as _active_seats
from ._errors import ArgumentError, integer, show
from ._state import (GameState, HandResult, HandScore, IllegalActionError, Phase, ScoreItem, TableMeld, Turn,
                     _from_fields, card_totals, check_seed, meld_tuple, new_game)
from ._state import MAX_HAND_NUMBER, SEED_BITS, _history_seats
from ._variant import Variant, VariantError, load_variant, variant_from_dict, variant_names, variant_to_dict

__all__ = [
    "GameRecord", "GameRecorder", "RecordError", "ReplayResult", "StateError", "dump_record",
    "load_record", "record_game", "replay", "replay_lenient", "replay_states", "state_from_json",
    "state_to_json",
]

JK, TWO, R3, B3 = 0, 1, 2, 3
_RECORD_VERSION = 1
_SEED_LIMIT = (1 << SEED_BITS) - 1
_STATE_FORMAT = "canasta-state"
_STATE_VERSION = 1
_CARD_HELP = "use JK, 2, 3r, 3b, 4..10, J, Q, K, A"
_OVER = (Phase.HAND_OVER, Phase.GAME_OVER)
_KIND = {t: i for i, t in enumerate(_TOKENS)}  # the canonical tokens, for speed


# =============================================================== errors


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
        self.problem = problem
        self.hand = hand
        self.move = move
        self.action = action
        self.reason = reason
        if hand is not None and move is not None:
            text = f"hand {hand}, move {move}: {problem}"
        elif path:
            text = f"{path}: {problem}"
        else:
            text = problem
        super().__init__(text)


class StateError(ValueError):
    """A state save that cannot be loaded: ``path`` is the key at fault, ``problem`` what is wrong.

    ``str(error)`` is ``<path>: <problem>``, e.g. ``hands.2: 'Z' is not a card: use JK, 2, 3r,
    3b, 4..10, J, Q, K, A`` or ``cards: 1 seven too many: ...``; for text that is not JSON the
    path is empty and the message says where the text breaks off.
    """

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}" if path else problem)


# =============================================================== shared readers


def _show(value: Any) -> str:
    """A value as the user wrote it, with its type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, int):
        return f"{value} (an integer)" if abs(value) < 10 ** 30 else _num(value)
    if isinstance(value, float):
        return f"{value} (a number)"
    if isinstance(value, str):
        shown = repr(value) if len(value) <= 60 else repr(value[:57] + "...")
        return f"{shown} (a string)"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (datetime.date, datetime.time)):
        return f"{value.isoformat()} (a {type(value).__name__})"
    return type(value).__name__


def _num(value: int) -> str:
    """An integer for a message: its digits, or how many when there are many."""
    return str(value) if abs(value) < 10 ** 30 else f"an integer of {len(str(abs(value)))} digits"


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


class _Reader:
    """Typed access to parsed data, raising ``error(path, problem)`` on the first problem."""

    def __init__(self, error: Callable[[str, str], Exception], table_word: str) -> None:
        self.error = error
        self.table_word = table_word  # "table" (TOML) or "object" (JSON)

    def fail(self, path: str, problem: str) -> Exception:
        return self.error(path, problem)

    def keys(self, data: dict[str, Any], allowed: Sequence[str], required: Sequence[str], path: str) -> None:
        for key in data:
            if key not in allowed:
                found = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
                hint = f"did you mean {found[0]!r}?" if found else f"allowed: {', '.join(allowed)}"
                where = "here" if path else "at the top level"
                raise self.fail(_join(path, key), f"unknown key {where}; {hint}")
        for key in required:
            if key not in data:
                raise self.fail(_join(path, key), "required key is missing")

    def get_table(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, f"expected a {self.table_word}, got {_show(value)}")
        return value

    def get_int(self, value: Any, path: str, low: Optional[int] = None, high: Optional[int] = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"expected an integer, got {_show(value)}")
        if low is not None and value < low:
            raise self.fail(path, f"must be {low} or more, not {_num(value)}")
        if high is not None and value > high:
            raise self.fail(path, f"must be {high} or less, not {_num(value)}")
        return value

    def get_bool(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(path, f"expected true or false, got {_show(value)}")
        return value

    def get_str(self, value: Any, path: str) -> str:
        if not isinstance(value, str):
            raise self.fail(path, f"expected a string, got {_show(value)}")
        return value

    def get_list(self, value: Any, path: str, what: str, length: Optional[int] = None,
             why: str = "") -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(path, f"expected a list of {what}, got {_show(value)}")
        if length is not None and len(value) != length:
            raise self.fail(path, f"expected {length} items ({why}), got {len(value)}")
        return value


_CACHE: dict[str, Variant] = {}


def _variant_from_settings(data: dict[str, Any], path: str, error: Callable[[str, str], Exception]) -> Variant:
    """A variant from full settings, reusing an equal earlier one (one compiled rule set)."""
    try:
        key = json.dumps(data, sort_keys=True, default=str)
    except (TypeError, ValueError):  # pragma: no cover - TOML and JSON data always serialise
        key = ""
    hit = _CACHE.get(key) if key else None
    if hit is not None:
        return hit
    try:
        v = variant_from_dict(data, f"[{path}]")
    except VariantError as e:
        first = e.problems[0]
        more = "".join(f"\n{path}.{p.key}: {p.message}" for p in e.problems[1:])
        raise error(f"{path}.{first.key}", first.message + more) from None
    if key:
        if len(_CACHE) > 32:
            _CACHE.clear()
        _CACHE[key] = v
    return v


# =============================================================== game records


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
    players: int = field(converter=_players)
    seed: int = field(converter=_seed)
    dealer: int = field(converter=_dealer)
    hands: tuple[tuple[str, ...], ...] = field(converter=_hands)
    date: Optional[datetime.date] = field(default=None, converter=_date)
    """When the game was played (a ``datetime.date`` or ``datetime.datetime``)."""
    names: tuple[str, ...] = field(default=(), converter=_names)
    """The players' names, in seat order (empty when not recorded)."""
    event: str = field(default="", converter=_event)
    comment: str = field(default="", converter=_comment)

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


@frozen
class ReplayResult:
    """What :func:`replay_lenient` gives: the last good state and every problem found.

    ``state`` is the state after the last move that could be applied (the deal, if none
    could); ``errors`` are :class:`RecordError` values, the one that stopped the replay first;
    ``applied`` counts the moves applied.
    """

    state: GameState
    errors: tuple[RecordError, ...]
    applied: int

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


def _check_record(record: Any) -> GameRecord:
    if not isinstance(record, GameRecord):
        raise ArgumentError("record", f"expected a GameRecord, not {show(record)}")
    return record


def _check_state(state: Any, argument: str = "state") -> GameState:
    if not isinstance(state, GameState):
        raise ArgumentError(argument, f"expected a GameState, not {show(state)}")
    return state


# ---------------------------------------------------------------- making records


class GameRecorder:
    """Records a game as it is played; :meth:`record` gives the :class:`GameRecord`.

    Start it with a state of the game's first hand: a fresh ``new_game(...)`` or a state
    reached from one (its ``history`` becomes the first moves). Then play through it::

        rec = GameRecorder(new_game("bicycle", seed=3))
        state = rec.apply("draw")       # or an Action, or an action id
        ...
        state = rec.next_hand()         # when a hand is over

    or let :func:`play_game` feed it: ``play_game(..., on_action=rec.on_action)``.
    """

    def __init__(self, state: GameState) -> None:
        """Record from ``state``, a state of hand 0 that its history reaches from the deal.

        Raises :class:`ArgumentError` (a ``ValueError``) for a later hand, or for a state not
        dealt by ``new_game`` (a loaded position, say), which a record could not reproduce.
        """
        _check_state(state)
        if state.hand_number != 0:
            raise ArgumentError("state", f"a record starts with the first hand; this state is of hand "
                             f"{state.hand_number + 1} (record the game from its first deal)")
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

    @property
    def state(self) -> GameState:
        """The current state of the recorded game."""
        return self._state

    def apply(self, action: Union[Action, str, int]) -> GameState:
        """Apply ``action`` (an action, its notation or its id) and record it; the new state.

        Raises :class:`IllegalActionError` (nothing is recorded) for an illegal action.
        """
        if isinstance(action, str):
            action = parse_action(action)
        elif not isinstance(action, Action):
            action = self._state.action_space.decode(action)  # (an id: checked there)
        after = self._state.apply(action)
        self._hands[-1].append(str(action))
        self._state = after
        return after

    def next_hand(self) -> GameState:
        """Deal the next hand (the current one must be over) and record moves into it."""
        after = self._state.next_hand()
        self._hands.append([])
        self._state = after
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
        self._hands[-1].append(str(action))
        self._state = mine

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


# ---------------------------------------------------------------- writing and reading records


def dump_record(record: GameRecord) -> str:
    """The TOML text of ``record`` (see the module docs); :func:`load_record` reads it back."""
    _check_record(record)
    doc: dict[str, Any] = {
        "record_version": _RECORD_VERSION,
        "players": record.players,
        "seed": record.seed,
        "dealer": record.dealer,
    }
    meta: dict[str, Any] = {}
    if record.date is not None:
        meta["date"] = record.date
    if record.names:
        meta["names"] = list(record.names)
    if record.event:
        meta["event"] = record.event
    if record.comment:
        meta["comment"] = record.comment
    if meta:
        doc["meta"] = meta
    doc["hands"] = [{"actions": list(h)} for h in record.hands]
    doc["variant"] = variant_to_dict(record.variant)
    return tomli_w.dumps(doc)


_RECORD_KEYS = ("record_version", "variant", "players", "seed", "dealer", "meta", "hands")
_META_KEYS = ("date", "names", "event", "comment")


def load_record(text: str) -> GameRecord:
    """Read a game record from its TOML text (see the module docs).

    Strict: an unknown or missing key, a value of the wrong type or a bad variant setting
    raises :class:`RecordError` (``key.path: message``). The moves are only checked to be
    strings here; their notation and legality are checked when the record is replayed.
    """
    if not isinstance(text, str):
        raise ArgumentError("text", f"load_record takes the TOML text (a str), not {show(text)}")
    rd = _Reader(RecordError, "table")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RecordError("", f"the record is not valid TOML: {e}") from None
    except RecursionError:
        raise RecordError("", "the record is not valid TOML: arrays or tables nested too deeply") from None
    except ValueError as e:  # (an integer of more digits than Python converts)
        raise RecordError("", f"the record is not valid TOML: {e}") from None
    rd.keys(doc, _RECORD_KEYS, ("variant", "players", "seed", "hands"), "")
    if "record_version" in doc:
        version = rd.get_int(doc["record_version"], "record_version")
        if version != _RECORD_VERSION:
            raise RecordError("record_version", f"this version of canasta reads records of version "
                              f"{_RECORD_VERSION}, not {version}")

    raw_v = doc["variant"]
    if isinstance(raw_v, str):
        if raw_v not in variant_names():
            raise RecordError("variant", f"unknown variant {raw_v!r}: give a bundled variant name "
                              f"({', '.join(variant_names())}) or a [variant] table of settings")
        variant = load_variant(raw_v)
    elif isinstance(raw_v, dict):
        variant = _variant_from_settings(raw_v, "variant", RecordError)
    else:
        raise RecordError("variant", f"expected a [variant] table of settings or a bundled "
                          f"variant's name, got {_show(raw_v)}")

    players = rd.get_int(doc["players"], "players")
    if str(players) not in variant.tables:
        allowed = ", ".join(sorted(variant.tables, key=int))
        raise RecordError("players", f"{variant.name} is played by {allowed} players, not {players}")
    seed = rd.get_int(doc["seed"], "seed", -_SEED_LIMIT, _SEED_LIMIT)
    if "dealer" in doc:
        dealer = rd.get_int(doc["dealer"], "dealer", 0, players - 1)
    else:
        dealer = new_game(variant, players, seed).dealer

    date: Optional[datetime.date] = None
    names: tuple[str, ...] = ()
    event = comment = ""
    if "meta" in doc:
        meta = rd.get_table(doc["meta"], "meta")
        rd.keys(meta, _META_KEYS, (), "meta")
        if "date" in meta:
            d = meta["date"]
            if not isinstance(d, datetime.date):
                raise RecordError("meta.date", f"expected a TOML date such as 2026-11-22 (no quotes) "
                                  f"or a date-time, got {_show(d)}")
            date = d
        if "names" in meta:
            raw_names = rd.get_list(meta["names"], "meta.names", "strings", players,
                                f"one name per seat: {players} players")
            names = tuple(rd.get_str(x, f"meta.names.{i}") for i, x in enumerate(raw_names))
        if "event" in meta:
            event = rd.get_str(meta["event"], "meta.event")
        if "comment" in meta:
            comment = rd.get_str(meta["comment"], "meta.comment")

    raw_hands = doc["hands"]
    if not isinstance(raw_hands, list) or not all(isinstance(h, dict) for h in raw_hands):
        raise RecordError("hands", f"expected [[hands]] tables (one per hand, each with actions = "
                          f"[...]), got {_show(raw_hands)}")
    if not raw_hands:
        raise RecordError("hands", "at least one [[hands]] table is needed (the first hand)")
    hands: list[tuple[str, ...]] = []
    for i, h in enumerate(raw_hands):
        path = f"hands.{i}"
        rd.keys(h, ("actions",), ("actions",), path)
        acts = rd.get_list(h["actions"], f"{path}.actions", "actions in notation (strings)")
        hands.append(tuple(rd.get_str(a, f"{path}.actions.{j}") for j, a in enumerate(acts)))
    return GameRecord(variant, players, seed, dealer, hands, date=date, names=names, event=event,
                      comment=comment)


# =============================================================== state saves (JSON)


def _turn_kinds() -> dict[str, str]:
    kinds: dict[str, str] = {}
    for a in attrs.fields(Turn):
        if a.name == "pending":
            kinds[a.name] = "cards"
        elif a.name == "pending_top":
            kinds[a.name] = "card"
        elif a.name == "start_hand":
            kinds[a.name] = "hand"
        elif a.default is None:
            kinds[a.name] = "maybe_bool"
        elif isinstance(a.default, bool):
            kinds[a.name] = "bool"
        elif isinstance(a.default, int):
            kinds[a.name] = "int"
        else:  # a new kind of Turn field: kept exactly as a list of integers
            kinds[a.name] = "ints"
    return kinds


_TURN_KINDS = _turn_kinds()
_STATE_KEYS = ("format", "version", "players", "seed", "hand_number", "dealer", "phase",
               "current_player", "totals", "hands", "down_hands", "melds", "red_threes", "opened",
               "melded", "took_last", "stock", "pile", "frozen", "last_turns", "active", "precise",
               "turn", "result", "winners", "variant", "history")
_RESULT_KEYS = ("went_out", "concealed", "reason", "scores")


def _turn_doc(t: Turn) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, kind in _TURN_KINDS.items():
        v = getattr(t, name)
        if kind == "cards":
            out[name] = sequence_text(v)
        elif kind == "card":
            out[name] = None if v == -1 else _TOKENS[v]
        elif kind == "hand":
            out[name] = None if v == () else cards_text(v)
        elif kind == "ints":
            out[name] = list(v)
        else:
            out[name] = v
    return out


def _result_doc(r: Optional[HandResult]) -> Optional[dict[str, Any]]:
    if r is None:
        return None
    return {
        "went_out": r.went_out, "concealed": r.concealed, "reason": r.reason,
        "scores": [{"side": s.side, "items": [{"name": i.name, "count": i.count, "points": i.points}
                                              for i in s.items]} for s in r.scores],
    }


def state_to_json(state: GameState) -> str:
    """``state`` in full as JSON text (see the module docs): :func:`state_from_json` gives back
    an equal state with the same history."""
    _check_state(state)
    doc: dict[str, Any] = {
        "format": _STATE_FORMAT,
        "version": _STATE_VERSION,
        "players": state.players,
        "seed": state.seed,
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "phase": state.phase.value,
        "current_player": state.current_player,
        "totals": list(state.totals),
        "hands": [cards_text(h) for h in state.hands],
        "down_hands": [cards_text(h) for h in state.down_hands],
        "melds": [[str(m) for m in side] for side in state.melds],
        "red_threes": list(state.red_threes),
        "opened": list(state.opened),
        "melded": list(state.melded),
        "took_last": list(state.took_last),
        "stock": sequence_text(state.stock),
        "pile": sequence_text(state.pile),
        "frozen": state.frozen,
        "last_turns": state.last_turns,
        "active": list(state.active),
        "precise": list(state.precise),
        "turn": _turn_doc(state.turn),
        "result": _result_doc(state.result),
        "winners": list(state.winners),
        "variant": variant_to_dict(state.variant),
        "history": [str(a) for a in state.history],
        "history_seats": [None if seat < 0 else seat for seat in _history_seats(state)],
    }
    # one top-level key per line: readable, and fast (each value by the C encoder)
    lines = ",\n".join(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in doc.items())
    return "{\n" + lines + "\n}\n"


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _Duplicate(k)
        out[k] = v
    return out


class _Duplicate(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _bad_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _cards(rd: _Reader, value: Any, path: str) -> list[int]:
    text = rd.get_str(value, path)
    toks = text.split()
    try:
        return [_KIND[t] for t in toks]
    except KeyError:
        pass
    out = []
    for tok in toks:
        card = _PARSE.get(tok.lower())
        if card is None:
            raise StateError(path, f"{tok!r} is not a card: {_CARD_HELP}")
        out.append(int(card))
    return out


def _counts(kinds: list[int]) -> tuple[int, ...]:
    c = [0] * N_KINDS
    for k in kinds:
        c[k] += 1
    return tuple(c)


def _meld_problem(R: Rules, m: TableMeld) -> Optional[str]:
    """Why ``m`` is not a valid meld of the variant, or None."""
    if m.rank == WILD_RANK:
        if not R.wild_melds:
            return "a meld of wild cards only is not allowed (it needs natural cards)"
        if m.size < R.min_size:
            return f"a meld needs at least {R.min_size} cards, this has {m.size}"
        if m.size > R.wild_meld_max:
            return f"a meld of wild cards only holds at most {R.wild_meld_max} cards, this has {m.size}"
    elif m.rank == B3:
        if R.b3_rule == "never":
            return "black threes are never melded"
        if m.wilds:
            return "black threes are melded without wild cards"
        if not R.b3_min <= m.naturals <= R.b3_max:
            return f"a meld of black threes holds {R.b3_min} to {R.b3_max} cards, this has {m.naturals}"
    else:
        if m.naturals < R.min_nat:
            return f"a meld needs at least {R.min_nat} natural cards, this has {m.naturals}"
        if m.size < R.min_size:
            return f"a meld needs at least {R.min_size} cards, this has {m.size}"
        if R.closed and m.size > R.cs:
            return f"a canasta is exactly {R.cs} cards and takes no more, this meld has {m.size}"
        if not R.valid(meld_tuple(m)):
            more = " (more only on a completed canasta)" if R.unlimited else ""
            return (f"too many wild cards: with {m.naturals} natural cards a meld holds at most "
                    f"{R.wild_cap(m.naturals)} wild cards{more}, this has {m.wilds}")
    if m.red_three and not (R.keep_r3 and R.r3_canasta and m.rank in NATURAL_RANKS and m.wilds == 0
                            and R.is_canasta(meld_tuple(m))):
        return ("a red three tops only a natural canasta, in a variant that keeps red threes and "
                "scores red-three canastas (new-canasta)")
    if not R.valid(meld_tuple(m)):  # pragma: no cover - every reason is given above
        return "the rules do not allow it"
    return None


def _read_meld(rd: _Reader, value: Any, path: str, R: Rules) -> TableMeld:
    text = rd.get_str(value, path)
    kinds = _cards(rd, text, path)
    naturals = [k for k in kinds if k >= B3]
    ranks = sorted(set(naturals))
    if len(ranks) > 1:
        shown = " and ".join(CARD_NAMES_PLURAL[r] for r in ranks)
        raise StateError(path, f"{text!r} mixes {shown}: a meld holds cards of one rank (and wild cards)")
    jk, tw, r3 = kinds.count(JK), kinds.count(TWO), kinds.count(R3)
    if not naturals and not jk and not tw:
        raise StateError(path, f"{text!r} is not a meld: write its cards, such as \"7 7 7 JK\"")
    if r3 > 1:
        raise StateError(path, f"{text!r}: a canasta is topped with one red three at most")
    m = TableMeld(ranks[0] if ranks else WILD_RANK, len(naturals), jk, tw, r3 == 1)
    problem = _meld_problem(R, m)
    if problem is not None:
        raise StateError(path, f"{text!r} is not a valid meld in {R.variant.name}: {problem}")
    return m


def _read_turn(rd: _Reader, value: Any) -> Turn:
    raw = rd.get_table(value, "turn")
    rd.keys(raw, tuple(_TURN_KINDS), tuple(_TURN_KINDS), "turn")
    kw: dict[str, Any] = {}
    for name, kind in _TURN_KINDS.items():
        v, path = raw[name], f"turn.{name}"
        if kind == "cards":
            kw[name] = tuple(_cards(rd, v, path))
        elif kind == "card":
            if v is None:
                kw[name] = -1
            else:
                one = _cards(rd, v, path)
                if len(one) != 1:
                    raise StateError(path, f"expected one card or null, got {len(one)} cards")
                kw[name] = one[0]
        elif kind == "hand":
            kw[name] = () if v is None else _counts(_cards(rd, v, path))
        elif kind == "maybe_bool":
            kw[name] = None if v is None else rd.get_bool(v, path)
        elif kind == "bool":
            kw[name] = rd.get_bool(v, path)
        elif kind == "int":
            kw[name] = rd.get_int(v, path, low=0)
        else:
            items = rd.get_list(v, path, "integers")
            kw[name] = tuple(rd.get_int(x, f"{path}.{i}") for i, x in enumerate(items))
    return Turn(**kw)


def _read_result(rd: _Reader, value: Any, R: Rules) -> HandResult:
    raw = rd.get_table(value, "result")
    rd.keys(raw, _RESULT_KEYS, _RESULT_KEYS, "result")
    went_out = None if raw["went_out"] is None else rd.get_int(raw["went_out"], "result.went_out", 0, R.players - 1)
    concealed = rd.get_bool(raw["concealed"], "result.concealed")
    reason = rd.get_str(raw["reason"], "result.reason")
    scores = []
    for i, sc in enumerate(rd.get_list(raw["scores"], "result.scores", "score objects")):
        at = f"result.scores.{i}"
        sc = rd.get_table(sc, at)
        rd.keys(sc, ("side", "items"), ("side", "items"), at)
        side = rd.get_int(sc["side"], f"{at}.side", 0, R.n_sides - 1)
        if side != i:
            raise StateError(f"{at}.side", f"the scores are listed one per side, in side order: "
                             f"result.scores.{i} is side {i}, not {side}")
        items = []
        for j, it in enumerate(rd.get_list(sc["items"], f"{at}.items", "score items")):
            ip = f"{at}.items.{j}"
            it = rd.get_table(it, ip)
            rd.keys(it, ("name", "count", "points"), ("name", "count", "points"), ip)
            items.append(ScoreItem(rd.get_str(it["name"], f"{ip}.name"), rd.get_int(it["count"], f"{ip}.count"),
                                   rd.get_int(it["points"], f"{ip}.points")))
        scores.append(HandScore(side, tuple(items)))
    return HandResult(went_out=went_out, concealed=concealed, scores=tuple(scores), reason=reason)


def _seats(seats: Iterable[int]) -> str:
    return ", ".join(str(s) for s in seats)


def state_from_json(text: str) -> GameState:
    """The :class:`GameState` saved by :func:`state_to_json` (equal, with the same history).

    Everything is checked before anything is built (see the module docs); a problem raises
    :class:`StateError` saying what is wrong and where.
    """
    if not isinstance(text, str):
        raise ArgumentError("text", f"state_from_json takes the JSON text (a str), not {show(text)}")
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_bad_constant)
    except _Duplicate as e:
        raise StateError(e.key, "this key is given twice") from None
    except RecursionError:
        raise StateError("", "not a saved state: arrays or objects nested too deeply") from None
    except json.JSONDecodeError as e:
        if not text.strip():
            raise StateError("", "the save is empty: expected a JSON object") from None
        if e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated string"):
            # (a JSON string cannot hold a line break, so an unterminated one runs to the end)
            raise StateError("", f"the save is cut short (truncated): the JSON text ends at line "
                             f"{e.lineno} column {e.colno} in the middle of a value ({e.msg})") from None
        raise StateError("", f"not valid JSON at line {e.lineno} column {e.colno}: {e.msg}") from None
    except ValueError as e:
        raise StateError("", f"not valid JSON: {e}") from None
    rd = _Reader(StateError, "JSON object")
    if not isinstance(doc, dict):
        raise StateError("", f"expected a JSON object of a saved state, got {_show(doc)}")
    rd.keys(doc, (*_STATE_KEYS, "history_seats"), _STATE_KEYS, "")
    if doc["format"] != _STATE_FORMAT:
        raise StateError("format", f"expected {_STATE_FORMAT!r} (a saved canasta state), got {_show(doc['format'])}")
    version = rd.get_int(doc["version"], "version")
    if version != _STATE_VERSION:
        raise StateError("version", f"this version of canasta reads saves of version {_STATE_VERSION}, "
                         f"not {version}")

    variant = _variant_from_settings(rd.get_table(doc["variant"], "variant"), "variant", StateError)
    vname = variant.name
    players = rd.get_int(doc["players"], "players")
    if str(players) not in variant.tables:
        allowed = ", ".join(sorted(variant.tables, key=int))
        raise StateError("players", f"{vname} is played by {allowed} players, not {players}")
    R = rules_for(variant, players)
    n_sides = R.n_sides
    per_seat = f"one per seat: {players} players"
    per_side = f"one per side: {n_sides} sides at a {players}-player {vname} table"

    seed = rd.get_int(doc["seed"], "seed", -_SEED_LIMIT, _SEED_LIMIT)
    hand_number = rd.get_int(doc["hand_number"], "hand_number", 0, MAX_HAND_NUMBER)
    dealer = rd.get_int(doc["dealer"], "dealer", 0, players - 1)
    totals = tuple(rd.get_int(x, f"totals.{i}") for i, x in
                   enumerate(rd.get_list(doc["totals"], "totals", "integers", n_sides, per_side)))

    want_active = _active_seats(R, hand_number)
    raw_active = rd.get_list(doc["active"], "active", "seats")
    active = tuple(rd.get_int(x, f"active.{i}") for i, x in enumerate(raw_active))
    if active != want_active:
        raise StateError("active", f"hand {hand_number} of a {players}-player {vname} table is played "
                         f"by seats {_seats(want_active)} in that order, not {_seats(active) or 'none'}")

    hands = []
    for key in ("hands", "down_hands"):
        seats = rd.get_list(doc[key], key, "card strings", players, per_seat)
        hands.append([_counts(_cards(rd, x, f"{key}.{s}")) for s, x in enumerate(seats)])
    hands_, downs = hands
    for s in range(players):
        if s not in active and (any(hands_[s]) or any(downs[s])):
            key = "hands" if any(hands_[s]) else "down_hands"
            raise StateError(f"{key}.{s}", f"seat {s} sits out hand {hand_number} (seats playing: "
                             f"{_seats(sorted(active))}): it holds no cards")
        if any(downs[s]) and not R.down_size:
            raise StateError(f"down_hands.{s}", f"{vname} deals no down hand")

    melds: list[tuple[TableMeld, ...]] = []
    for i, side in enumerate(rd.get_list(doc["melds"], "melds", "lists of melds", n_sides, per_side)):
        ms = tuple(_read_meld(rd, t, f"melds.{i}.{j}", R)
                   for j, t in enumerate(rd.get_list(side, f"melds.{i}", "meld strings")))
        if not R.multi:
            seen: set[int] = set()
            for j, m in enumerate(ms):
                if m.rank in NATURAL_RANKS:
                    if m.rank in seen:
                        raise StateError(f"melds.{i}.{j}", f"a second meld of {CARD_NAMES_PLURAL[m.rank]}: "
                                         f"{vname} allows one meld per rank")
                    seen.add(m.rank)
        melds.append(ms)
    red_threes = tuple(rd.get_int(x, f"red_threes.{i}", low=0) for i, x in
                       enumerate(rd.get_list(doc["red_threes"], "red_threes", "integers", n_sides, per_side)))
    opened = tuple(rd.get_bool(x, f"opened.{i}") for i, x in
                   enumerate(rd.get_list(doc["opened"], "opened", "true/false", n_sides, per_side)))
    melded = tuple(rd.get_bool(x, f"melded.{i}") for i, x in
                   enumerate(rd.get_list(doc["melded"], "melded", "true/false", players, per_seat)))
    took_last = tuple(rd.get_bool(x, f"took_last.{i}") for i, x in
                      enumerate(rd.get_list(doc["took_last"], "took_last", "true/false", players, per_seat)))
    stock = tuple(_cards(rd, doc["stock"], "stock"))
    pile = tuple(_cards(rd, doc["pile"], "pile"))
    frozen_ = rd.get_bool(doc["frozen"], "frozen")
    if not stock and R.last_round:
        last_turns = rd.get_int(doc["last_turns"], "last_turns", -1, len(active))
    else:
        last_turns = rd.get_int(doc["last_turns"], "last_turns")
        if last_turns != -1:
            why = ("the stock still has cards" if R.last_round
                   else f"{vname} has no last round when the stock runs out")
            raise StateError("last_turns", f"must be -1: {why}")

    # ---- phase, whose turn, turn record, result, winners
    phase_raw = rd.get_str(doc["phase"], "phase")
    try:
        phase = Phase(phase_raw)
    except ValueError:
        names = [p.value for p in Phase]
        found = difflib.get_close_matches(phase_raw, names, n=1, cutoff=0.5)
        hint = f"did you mean {found[0]!r}? " if found else ""
        raise StateError("phase", f"unknown phase {phase_raw!r}: {hint}use one of {', '.join(names)}") from None
    over = phase in _OVER
    cp_raw = doc["current_player"]
    current: Optional[int] = None if cp_raw is None else rd.get_int(cp_raw, "current_player")
    if over and current is not None:
        raise StateError("current_player", f"the hand is over (phase {phase.value}): nobody acts, "
                         f"so current_player must be null, not {current}")
    if not over:
        if current is None:
            raise StateError("current_player", f"phase {phase.value} needs a seat to act, not null "
                             "(only a hand that is over has nobody to act)")
        if current not in active:
            raise StateError("current_player", f"{current} is not a seat playing hand {hand_number}: "
                             f"the seats playing are {_seats(sorted(active))}")
    turn = _read_turn(rd, doc["turn"])
    if over and turn != Turn():
        raise StateError("turn", f"the hand is over (phase {phase.value}): nobody has a turn, so every "
                         "turn field must be at its default")
    result = None
    if doc["result"] is not None:
        if not over:
            raise StateError("result", f"only a hand that is over has a result; phase is {phase.value}")
        result = _read_result(rd, doc["result"], R)
    winners = tuple(rd.get_int(x, f"winners.{i}", 0, n_sides - 1)
                    for i, x in enumerate(rd.get_list(doc["winners"], "winners", "sides")))
    if winners and phase is not Phase.GAME_OVER:
        raise StateError("winners", f"only a game that is over has winners; phase is {phase.value}")
    if len(set(winners)) != len(winners):
        raise StateError("winners", "a side is listed twice")
    precise = tuple(rd.get_int(x, f"precise.{i}", 0, players - 1)
                    for i, x in enumerate(rd.get_list(doc["precise"], "precise", "seats")))
    if list(precise) != sorted(set(precise)):
        raise StateError("precise", "list each dealer's seat once, in increasing order")

    # ---- history
    history: list[Action] = []
    space = space_of(R)
    for i, a in enumerate(rd.get_list(doc["history"], "history", "actions in notation")):
        try:
            action = parse_action(rd.get_str(a, f"history.{i}"))
        except ActionParseError as e:
            raise StateError(f"history.{i}", str(e)) from None
        if action not in space:
            raise StateError(f"history.{i}", f"'{action}' is not an action of {vname}")
        history.append(action)
    history_seats: list[int] = []
    if "history_seats" in doc:
        raw = rd.get_list(doc["history_seats"], "history_seats", "seats or null, one per history action")
        if len(raw) != len(history):
            raise StateError("history_seats", f"has {len(raw)} entries; expected one per action of history "
                             f"({len(history)})")
        for i, x in enumerate(raw):
            if x is None:
                history_seats.append(-1)
                continue
            seat_ = rd.get_int(x, f"history_seats.{i}")
            if not 0 <= seat_ < players:
                raise StateError(f"history_seats.{i}", f"is {seat_}; expected a seat from 0 to {players - 1} "
                                 "or null (not known)")
            history_seats.append(seat_)

    # ---- every card of the deck exactly once
    have = card_totals(hands_, downs, melds, red_threes, stock + pile + turn.pending)
    parts = deck_mismatch(have, R.deck, f"the {vname} deck for {players} players", "this state")
    if parts:
        raise StateError("cards", "; ".join(parts) + " (counting hands, down hands, melds, faced red "
                         "threes, the stock, the pile and turn.pending)")

    state = _from_fields(
        variant=variant, players=players, seed=seed, hand_number=hand_number, dealer=dealer,
        totals=totals, hands=tuple(hands_), down_hands=tuple(downs), melds=tuple(melds),
        red_threes=red_threes, opened=opened, melded=melded, stock=stock, pile=pile, frozen=frozen_,
        current_player=current, phase=phase, turn=turn, took_last=took_last, last_turns=last_turns,
        active=active, precise=precise, result=result, winners=winners, rules=R, history=tuple(history),
        history_seats=tuple(history_seats),
    )
    from ._playable import unplayable

    bad = unplayable(state)
    if bad is not None:
        kind, seat, problem = bad
        raise StateError(f"hands.{seat}" if kind == "red_three" else "current_player", problem)
    return state
