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
  ``"draw"``, ``"take 7 7"``, ``"meld 7 7 7"``, ``"add JK to 7"``, ``"discard 9"``, ...; in a
  variant with sequences natural cards carry suits: ``"meld 5h 6h 7h"``, ``"discard 9c"``),
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
.. ``10``, ``J``, ``Q``, ``K``, ``A``; ``""`` for none). In a variant with sequences
(``melds.sequences``, as Samba) every natural card outside a group meld is written with its suit
(``"Ks Kh 5c JK"``: hands highest card first, by suit spades, hearts, diamonds, clubs) and a
natural without its suit is refused. Seats and sides are numbered from 0. The keys, in the order written:

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
  (new-canasta). ``"JK JK 2"`` is a meld of wild cards only. In a variant with sequences a
  group is written the same (it keeps no suits) and a sequence by its cards, lowest first
  (``"5h 6h 7h"``). Each must be a valid meld of the variant, and one per rank unless the
  variant allows more.
- ``red_threes`` (faced, per side; integers), ``opened`` (per side), ``melded`` and
  ``took_last`` (per seat): as the :class:`GameState` fields.
- ``black_threes_aside`` (optional; per side): black threes set aside from taken piles
  (cuban); ``had_turn`` (optional; per seat): who has finished a turn this hand, kept where
  the variant bars some discards in a first turn. Both are written only when not all zero.
- ``playing_foot`` (optional; per seat): who plays from his down hand, written where a
  partner must before a player goes out (``going_out.partner_down_hand``); without it, those
  whose down hand is picked up.
- ``stock`` and ``pile``: bottom to top, so the next card drawn is the *last* token of
  ``stock`` and the top of the pile the last of ``pile``.
- ``pile_buried`` (optional): how many cards at the bottom of ``pile`` are still face down,
  the packet dealt under the upcard (``upcard.buried``, Italian 2.3); written only when not 0,
  and it must leave a face-up card on top.
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
``turn.pending``; in a variant with sequences, each suited card at most as often as the deck holds
it (the naturals of groups, which keep no suits, make up the rest). :func:`state_from_json` checks all of it, builds nothing until everything
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
from typing import Annotated, Any, Callable, Iterable, Iterator, Optional, Sequence, Union, get_args, get_origin

import attrs
import cattrs
import tomli_w
from attrs import field, frozen
from cattrs.errors import AttributeValidationNote, ClassValidationError, ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn

from ._actions import Action, ActionParseError, parse_action, space_of
from ._cards import (
    _PARSE,
    _PARSE_CODE,
    _TOKENS,
    CARD_NAMES,
    CARD_NAMES_PLURAL,
    CODE_TOKENS,
    KIND_OF,
    N_CODES,
    N_KINDS,
    NATURAL_RANKS,
    SUIT_NAMES,
    SUIT_OF,
    WILD_RANK,
    card_code,
    cards_text,
    deck_mismatch,
    parse_code,
)
from ._core import FOOT, Rules, rules_for
from ._core._rules import SEQ, seq_low, seq_rank, seq_suit
from ._core import active_seats as _active_seats
from ._errors import ArgumentError, integer, show
from ._state import GameState, IllegalActionError, _from_fields
from ._fields import HandResult, HandScore, Phase, ScoreItem, TableMeld, Turn, _table_meld, card_totals, meld_tuple
from ._newgame import check_seed, new_game
from ._state import _history_seats
from ._newgame import MAX_HAND_NUMBER, SEED_BITS
from ._bundled import bundled_by_hash, bundled_name, settings_hash
from ._variant import Variant, VariantError, variant_from_dict, variant_names, variant_to_dict

__all__ = [
    "GameRecord", "GameRecorder", "RecordError", "ReplayResult", "StateError", "dump_log", "dump_record",
    "load_log", "load_record", "record_game", "replay", "replay_lenient", "replay_states", "state_from_json",
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


class StateError(ValueError):
    """A state save that cannot be loaded: ``path`` is the key at fault, ``problem`` what is wrong.

    ``str(error)`` is ``<path>: <problem>``, e.g. ``hands.2: 'Z' is not a card: use JK, 2, 3r,
    3b, 4..10, J, Q, K, A`` or ``cards: 1 seven too many: ...``; for text that is not JSON the
    path is empty and the message says where the text breaks off.
    """

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        """The key at fault, such as ``hands.2`` or ``turn.drew`` (empty for text that is not JSON)."""
        self.problem = problem
        """What is wrong with it."""
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


# =============================================================== structured reading (cattrs)
#
# The readers of records, state saves (and positions, in _position.py) describe the shape of
# their documents as attrs classes (``_RecordDoc`` and so on) and structure the parsed TOML or
# JSON into them with one cattrs converter, as the variant loader structures variant files:
# unknown keys are refused, required keys must be there, scalars must have their exact type
# (no ``"7"`` for 7, no ``true`` for 1) and lists must be lists. The first problem found is
# reported as ``key.path: message``; what depends on several keys (bounds that depend on the
# number of players, cards adding up to the deck, ...) is checked afterwards by the reader.


class _Bad(Exception):
    """A value of the wrong type, raised by a structure hook: ``kind`` is what was expected."""

    def __init__(self, kind: str, value: Any, what: str = "") -> None:
        super().__init__(kind)
        self.kind = kind
        self.value = value
        self.what = what


class _AtIndex(Exception):
    """A problem with item ``index`` of a list."""

    def __init__(self, index: int, error: BaseException) -> None:
        super().__init__(index)
        self.index = index
        self.error = error


@frozen
class _Items:
    """``Annotated`` metadata of a list: what its items are, for the message when it is not a
    list (``expected a list of <what>``), or the whole message (``tables``, with ``{got}``)
    for a list of tables that is not one."""

    what: str
    tables: str = ""


@frozen
class _Expect:
    """``Annotated`` metadata of a value: what the message says is expected when the value has
    the wrong type (``expected <text>, got ...``)."""

    text: str


def _strict(tp: type, kind: str) -> Callable[[Any, Any], Any]:
    def hook(value: Any, _: Any) -> Any:
        if type(value) is not tp and (tp is bool or isinstance(value, bool) or not isinstance(value, tp)):
            raise _Bad(kind, value)
        return value
    return hook


def _date_hook(value: Any, _: Any) -> datetime.date:
    if not isinstance(value, datetime.date):
        raise _Bad("date", value)
    return value


def _annotated_hook(tp: Any, conv: cattrs.Converter) -> Callable[[Any, Any], Any]:
    base, meta = get_args(tp)[0], get_args(tp)[1]
    if isinstance(meta, _Items):
        item = get_args(base)[0]
        item_is_table = attrs.has(item) or (get_origin(item) is Annotated and attrs.has(get_args(item)[0]))

        def items(value: Any, _: Any) -> tuple[Any, ...]:
            if not isinstance(value, list) or (meta.tables and item_is_table
                                               and not all(isinstance(v, dict) for v in value)):
                raise _Bad("tables" if meta.tables else "list", value, meta.tables or meta.what)
            if item is str and all(type(v) is str for v in value):  # the common case, at once
                return tuple(value)
            out = []
            for i, v in enumerate(value):
                try:
                    out.append(hook(v, item))
                except Exception as e:  # noqa: BLE001 - reported with its index by _first_problem
                    raise _AtIndex(i, e) from None
            return tuple(out)
        hook: Callable[[Any, Any], Any] = conv.get_structure_hook(item)
        return items
    assert isinstance(meta, _Expect), meta
    inner = conv.get_structure_hook(base)

    def expect(value: Any, _: Any) -> Any:
        try:
            return inner(value, base)
        except _Bad as e:
            raise _Bad("expect", value, meta.text) from e
    return expect


def _table_hook(cls: type, conv: cattrs.Converter) -> Callable[[Any, Any], Any]:
    inner: Callable[[Any, Any], Any] = make_dict_structure_fn(
        cls, conv, _cattrs_forbid_extra_keys=True, _cattrs_detailed_validation=True)

    def table(value: Any, _: Any) -> Any:
        if not isinstance(value, dict):
            raise _Bad("table", value)
        return inner(value, cls)
    return table


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    conv.register_structure_hook(int, _strict(int, "integer"))
    conv.register_structure_hook(bool, _strict(bool, "boolean"))
    conv.register_structure_hook(str, _strict(str, "string"))
    conv.register_structure_hook(datetime.date, _date_hook)
    conv.register_structure_hook_factory(lambda t: get_origin(t) is Annotated, lambda t: _annotated_hook(t, conv))
    conv.register_structure_hook_factory(attrs.has, lambda t: _table_hook(t, conv))
    return conv


_CONVERTER = _make_converter()


def _first_problem(exc: BaseException) -> tuple[list[Any], BaseException]:
    """The problem to report from a cattrs error: its key path (as parts) and the error there.

    In a table, an unknown key comes first, then a missing key, then the first key (in the
    order the document class lists them) whose value is wrong.
    """
    if isinstance(exc, _AtIndex):
        parts, leaf = _first_problem(exc.error)
        return [exc.index, *parts], leaf
    if isinstance(exc, ClassValidationError):
        subs = exc.exceptions
        pick = (next((e for e in subs if isinstance(e, ForbiddenExtraKeysError)), None)
                or next((e for e in subs if isinstance(e, KeyError)), None) or subs[0])
        if isinstance(pick, ForbiddenExtraKeysError):
            return [], pick
        name = next((n.name for n in getattr(pick, "__notes__", ()) if isinstance(n, AttributeValidationNote)), None)
        parts, leaf = _first_problem(pick)
        return ([name] if name is not None else []) + parts, leaf
    return [], exc


@frozen
class _Style:
    """How one reader words the problems of structure (they differ a little, as documented)."""

    error: Callable[[str, str], Exception]
    table: Callable[[str], str]  # "a table", "a JSON object", ... for the path of the table
    unknown_sep: str = "; "
    cutoff: float = 0.6
    required: str = "required key is missing"


def _structure(data: Any, cls: type, style: _Style) -> Any:
    """``data`` (parsed TOML or JSON) structured as ``cls``, or ``style.error(path, message)``
    for the first problem."""
    try:
        return _CONVERTER.structure(data, cls)
    except Exception as exc:  # noqa: BLE001 - every problem becomes the reader's error
        parts, leaf = _first_problem(exc)
    path = ".".join(str(p) for p in parts)
    if isinstance(leaf, ForbiddenExtraKeysError):
        node = data
        for part in parts:
            node = node[part]
        allowed = [_key_of(a) for a in attrs.fields(leaf.cl)]
        key = next(k for k in node if k not in allowed)
        found = difflib.get_close_matches(key, allowed, n=1, cutoff=style.cutoff)
        hint = f"did you mean {found[0]!r}?" if found else f"allowed: {', '.join(allowed)}"
        where = "here" if path else "at the top level"
        raise style.error(_join(path, key), f"unknown key {where}{style.unknown_sep}{hint}") from None
    if isinstance(leaf, KeyError):
        raise style.error(path, style.required) from None
    if isinstance(leaf, _Bad):
        got = _show(leaf.value)
        expected = {
            "integer": "an integer", "boolean": "true or false", "string": "a string",
            "date": "a TOML date such as 2026-11-22 (no quotes) or a date-time",
            "list": f"a list of {leaf.what}", "expect": leaf.what, "table": style.table(path),
        }.get(leaf.kind)
        if leaf.kind == "tables":
            raise style.error(path, leaf.what.format(at=path, got=got)) from None
        raise style.error(path, f"expected {expected}, got {got}") from None
    raise style.error(path, f"cannot be read: {type(leaf).__name__}: {leaf}") from None  # pragma: no cover


def _key_of(a: attrs.Attribute[Any]) -> str:
    return a.name



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


# ---------------------------------------------------------------- the append-only log

_LOG_FORMAT = "canasta-log"
_LOG_VERSION = 1
_NEXT_HAND = "next hand"
_LOG_KEYS = ("format", "version", "variant", "variant_hash", "players", "seed", "dealer", "meta")


def _log_header(record: GameRecord, compact: bool, meta: Optional[dict[str, Any]] = None) -> str:
    """The first line of a game's log: the game's start as one JSON object, with a newline."""
    head: dict[str, Any] = {"format": _LOG_FORMAT, "version": _LOG_VERSION}
    name = bundled_name(record.variant) if compact else None
    if name is not None:
        head["variant"] = name
        head["variant_hash"] = settings_hash(record.variant)
    else:
        head["variant"] = variant_to_dict(record.variant)
    head.update(players=record.players, seed=record.seed, dealer=record.dealer)
    if meta:
        head["meta"] = meta
    return json.dumps(head, ensure_ascii=False, separators=(", ", ": ")) + "\n"


def dump_log(record: GameRecord, *, compact: bool = True) -> str:
    """``record`` as a game log: the append-only text form of a game, for a server that saves
    after every move by appending one line (see :class:`GameRecorder`'s ``log``).

    The first line is the game's start, one JSON object: ``{"format": "canasta-log",
    "version": 1, "variant": ..., "players": 4, "seed": 7, "dealer": 3}`` (and ``"meta":
    {"date", "names", "event", "comment"}`` when the record has them). Each later line is one
    move in action notation (``draw``, ``meld 5h 6h 7h``), oldest first, and the line ``next
    hand`` deals the next hand. Every line ends with a newline. A log after one more move is
    the log before it with one more line.

    ``compact`` (the default): a bundled variant played with its bundled rules is named with
    its settings' hash (``"variant": "samba", "variant_hash": "..."``); otherwise, and for a
    house rule always, ``"variant"`` holds every setting. :func:`load_log` reads it back.
    The log holds the seed, which decides every deal: keep it on the server.
    """
    _check_record(record)
    meta: dict[str, Any] = {}
    if record.date is not None:
        meta["date"] = record.date.isoformat()
    if record.names:
        meta["names"] = list(record.names)
    if record.event:
        meta["event"] = record.event
    if record.comment:
        meta["comment"] = record.comment
    lines = [_log_header(record, compact, meta)]
    for h, moves in enumerate(record.hands):
        if h:
            lines.append(_NEXT_HAND + "\n")
        lines.extend(m + "\n" for m in moves)
    return "".join(lines)


def load_log(text: str) -> GameRecord:
    """The :class:`GameRecord` of a game log (:func:`dump_log`, or the lines a
    :class:`GameRecorder` gave its ``log``): ``replay(load_log(text))`` is the game's state,
    ``GameRecorder.resume(load_log(text))`` goes on with it.

    Strict, like :func:`load_record`: a header that is not the JSON object of a log, an unknown
    or missing key, another ``version``, a variant name that is not bundled (never a path)
    or a settings hash this canasta does not bundle for it, or an empty line raise
    :class:`RecordError` (``header.seed: ...``, ``line 7: ...``). The moves' notation and
    legality are checked when the record is replayed (:func:`replay` names the hand and move).
    """
    if not isinstance(text, str):
        raise ArgumentError("text", f"load_log takes the log's text (a str), not {show(text)}")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or not lines[0].strip():
        raise RecordError("header", "the log is empty: expected its first line, the game's start as a JSON object")
    try:
        head = json.loads(lines[0], object_pairs_hook=_no_duplicates, parse_constant=_bad_constant)
    except _Duplicate as e:
        raise RecordError(f"header.{e.key}", "this key is given twice") from None
    except (ValueError, RecursionError) as e:
        raise RecordError("header", f"the first line is not a JSON object: {e}") from None
    if not isinstance(head, dict):
        raise RecordError("header", f"the first line is not a JSON object but {_show(head)}")
    unknown = [k for k in head if k not in _LOG_KEYS]
    if unknown:
        raise RecordError(f"header.{unknown[0]}", f"unknown key (a log's header has {', '.join(_LOG_KEYS)})")
    for key in ("format", "version", "variant", "players", "seed", "dealer"):
        if key not in head:
            raise RecordError(f"header.{key}", "missing")
    if head["format"] != _LOG_FORMAT:
        raise RecordError("header.format", f"expected {_LOG_FORMAT!r} (a canasta game log), got {_show(head['format'])}")
    if type(head["version"]) is not int or head["version"] != _LOG_VERSION:
        raise RecordError("header.version", f"this version of canasta reads logs of version {_LOG_VERSION}, "
                          f"not {_show(head['version'])}")

    def error(path: str, problem: str) -> RecordError:
        return RecordError(f"header.{path}", problem)

    variant = _read_variant_ref(head["variant"], head.get("variant_hash"), "an object of settings", error)
    values = {}
    for key in ("players", "seed", "dealer"):
        if type(head[key]) is not int:
            raise RecordError(f"header.{key}", f"expected an integer, got {_show(head[key])}")
        values[key] = head[key]
    players = values["players"]
    if str(players) not in variant.tables:
        allowed = ", ".join(sorted(variant.tables, key=int))
        raise RecordError("header.players", f"{variant.name} is played by {allowed} players, not {players}")
    seed = _bounded(values["seed"], "header.seed", -_SEED_LIMIT, _SEED_LIMIT, RecordError)
    dealer = _bounded(values["dealer"], "header.dealer", 0, players - 1, RecordError)
    meta = head.get("meta", {})
    if not isinstance(meta, dict):
        raise RecordError("header.meta", f"expected an object, got {_show(meta)}")
    extra = [k for k in meta if k not in ("date", "names", "event", "comment")]
    if extra:
        raise RecordError(f"header.meta.{extra[0]}", "unknown key (meta has date, names, event, comment)")
    date = None
    if "date" in meta:
        try:
            date = (datetime.datetime.fromisoformat(meta["date"]) if "T" in str(meta["date"])
                    else datetime.date.fromisoformat(meta["date"]))
        except (TypeError, ValueError):
            raise RecordError("header.meta.date", f"expected an ISO date (2026-11-22), got {_show(meta['date'])}") from None
    names = meta.get("names", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RecordError("header.meta.names", f"expected a list of strings, got {_show(names)}")
    if names and len(names) != players:
        raise RecordError("header.meta.names", f"expected {players} items (one name per seat), got {len(names)}")
    for key in ("event", "comment"):
        if not isinstance(meta.get(key, ""), str):
            raise RecordError(f"header.meta.{key}", f"expected a string, got {_show(meta[key])}")
    hands: list[list[str]] = [[]]
    for n, line in enumerate(lines[1:], start=2):
        move = line.removesuffix("\r")
        if not move.strip():
            raise RecordError(f"line {n}", "an empty line: expected a move in notation or 'next hand'")
        if move == _NEXT_HAND:
            hands.append([])
        else:
            hands[-1].append(move)
    try:
        return GameRecord(variant, players, seed, dealer, hands, date=date, names=tuple(names),
                          event=meta.get("event", ""), comment=meta.get("comment", ""))
    except ArgumentError as e:
        raise RecordError("header", str(e)) from None


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


def dump_record(record: GameRecord, *, compact: bool = False) -> str:
    """The TOML text of ``record`` (see the module docs); :func:`load_record` reads it back.

    ``compact=True``: a bundled variant played with the rules it is bundled with is written as
    its name and its settings' hash (``variant = "samba"``, ``variant_hash = "..."``) instead
    of every setting; a house rule is still written whole. Such a record loads only with a
    canasta whose bundled variant has the same rules (another hash is a :class:`RecordError`).
    """
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
    name = bundled_name(record.variant) if compact else None
    if name is not None:
        doc = {"record_version": _RECORD_VERSION, "variant": name, "variant_hash": settings_hash(record.variant),
               **{k: v for k, v in doc.items() if k != "record_version"}}
    else:
        doc["variant"] = variant_to_dict(record.variant)
    return tomli_w.dumps(doc)


@frozen(kw_only=True)
class _MetaDoc:
    """``[meta]`` of a record."""

    date: Optional[datetime.date] = None
    names: Optional[Annotated[tuple[str, ...], _Items("strings")]] = None
    event: str = ""
    comment: str = ""


@frozen(kw_only=True)
class _HandDoc:
    """One ``[[hands]]`` table of a record."""

    actions: Annotated[tuple[str, ...], _Items("actions in notation (strings)")]


@frozen(kw_only=True)
class _RecordDoc:
    """A record's TOML document, as written (the keys in the order :func:`dump_record` writes
    them, but ``variant``, which it writes last)."""

    record_version: int = _RECORD_VERSION
    variant: Any  # a bundled variant's name or a table of settings (checked by the variant loader)
    variant_hash: Optional[str] = None  # (with a bundled variant's name) its settings' hash
    players: int
    seed: int
    dealer: Optional[int] = None
    meta: _MetaDoc = _MetaDoc()
    hands: Annotated[tuple[_HandDoc, ...], _Items("", tables="expected [[hands]] tables (one per hand, each "
                                                   "with actions = [...]), got {got}")]


_RECORD_STYLE = _Style(RecordError, lambda path: "a table")


def load_record(text: str) -> GameRecord:
    """Read a game record from its TOML text (see the module docs).

    Strict: an unknown or missing key, a value of the wrong type or a bad variant setting
    raises :class:`RecordError` (``key.path: message``). The moves are only checked to be
    strings here; their notation and legality are checked when the record is replayed.
    """
    if not isinstance(text, str):
        raise ArgumentError("text", f"load_record takes the TOML text (a str), not {show(text)}")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RecordError("", f"the record is not valid TOML: {e}") from None
    except RecursionError:
        raise RecordError("", "the record is not valid TOML: arrays or tables nested too deeply") from None
    except ValueError as e:  # (an integer of more digits than Python converts)
        raise RecordError("", f"the record is not valid TOML: {e}") from None
    doc: _RecordDoc = _structure(raw, _RecordDoc, _RECORD_STYLE)
    if doc.record_version != _RECORD_VERSION:
        raise RecordError("record_version", f"this version of canasta reads records of version "
                          f"{_RECORD_VERSION}, not {doc.record_version}")

    variant = _read_variant_ref(doc.variant, doc.variant_hash, "a [variant] table of settings", RecordError)
    players = doc.players
    if str(players) not in variant.tables:
        allowed = ", ".join(sorted(variant.tables, key=int))
        raise RecordError("players", f"{variant.name} is played by {allowed} players, not {players}")
    seed = _bounded(doc.seed, "seed", -_SEED_LIMIT, _SEED_LIMIT, RecordError)
    if doc.dealer is not None:
        dealer = _bounded(doc.dealer, "dealer", 0, players - 1, RecordError)
    else:
        dealer = new_game(variant, players, seed).dealer
    meta = doc.meta
    names = meta.names or ()
    if meta.names is not None and len(names) != players:
        raise RecordError("meta.names", f"expected {players} items (one name per seat: {players} players), "
                          f"got {len(names)}")
    if not doc.hands:
        raise RecordError("hands", "at least one [[hands]] table is needed (the first hand)")
    return GameRecord(variant, players, seed, dealer, [h.actions for h in doc.hands], date=meta.date,
                      names=names, event=meta.event, comment=meta.comment)


def _read_variant_ref(raw_v: Any, digest: Any, table: str, error: Callable[..., Exception]) -> Variant:
    """The variant a record, log or save names: a bundled variant's name (with its settings
    hash, checked, when given; never a path) or every setting (``table``, as a reader calls it)."""
    if isinstance(raw_v, str):
        if raw_v not in variant_names():
            raise error("variant", f"unknown variant {raw_v!r}: give a bundled variant name "
                        f"({', '.join(variant_names())}) or {table}")
        try:
            return bundled_by_hash(raw_v, digest)
        except LookupError as e:
            raise error("variant_hash", str(e).strip("'\"")) from None
        except TypeError as e:
            raise error("variant_hash", str(e)) from None
    if digest is not None:
        raise error("variant_hash", f"is given only with a bundled variant's name, not with {table}")
    if isinstance(raw_v, dict):
        return _variant_from_settings(raw_v, "variant", error)
    raise error("variant", f"expected {table} or a bundled variant's name, got {_show(raw_v)}")


def _bounded(value: int, path: str, low: Optional[int], high: Optional[int],
             error: Callable[[str, str], Exception]) -> int:
    """``value``, an integer already, if it is within the bounds; else ``error(path, ...)``."""
    if low is not None and value < low:
        raise error(path, f"must be {low} or more, not {_num(value)}")
    if high is not None and value > high:
        raise error(path, f"must be {high} or less, not {_num(value)}")
    return value


# =============================================================== suited cards
#
# In a variant with sequences (melds.sequences, as Samba) natural cards carry suits: hands, down
# hands, the pile, the stock and a pending pile are written with suited tokens ("7h 10s JK 2 3r");
# a group meld is written as in every variant ("7 7 7 JK": a group keeps no suits) and a
# sequence by its cards, lowest first ("5h 6h 7h"). The files of the other variants do not change.
# Positions (canasta._position) share these helpers.

_SUITED_HELP = "use a natural card with its suit (7h, 10s, Ac; suits c, d, h, s), or JK, 2, 3r, 3b"
_SUIT_HINT = " (suits are written only in a variant with sequences, melds.sequences)"
_HAND_ORDER = tuple(range(N_CODES - 1, N_KINDS - 1, -1)) + (B3, R3, TWO, JK)
"""A suited hand's cards as written: highest code first (aces of spades, hearts, diamonds,
clubs, then kings, ...), then black threes, red threes, deuces and jokers."""
_CODE = {t: i for i, t in enumerate(CODE_TOKENS) if i >= N_KINDS or i <= B3}  # canonical tokens, for speed
Meld = tuple[int, int, int, int, int]


def _code_list(text: str, path: str, error: Callable[[str, str], Exception], hint: str = "") -> list[int]:
    """The card codes of a card string of a variant with sequences (naturals with their suits);
    a token that is not one is ``error(path, ...)`` with :func:`parse_code`'s words."""
    toks = text.split()
    try:
        return [_CODE[t] for t in toks]
    except KeyError:
        pass
    out = []
    for tok in toks:
        try:
            out.append(parse_code(tok, True))
        except ArgumentError as e:
            raise error(path, f"{e.problem}{hint if tok.lower() == 'rest' else ''}") from None
    return out


def _suit_hint(token: str) -> str:
    """A hint for a suited token read in a variant without suits."""
    return _SUIT_HINT if token.strip().lower() in _PARSE_CODE else ""


def _code_counts(codes: Iterable[int], suited: bool) -> tuple[int, ...]:
    """A hand's counts from its cards: 15 per kind, or (``suited``) 59, per kind then per code."""
    c = [0] * (N_CODES if suited else N_KINDS)
    for x in codes:
        c[x] += 1
        if x >= N_KINDS:
            c[KIND_OF[x]] += 1
    return tuple(c)


def _hand_text(counts: tuple[int, ...], suited: bool) -> str:
    """A hand as written: ``"K K 5 JK"``, or (``suited``) ``"Ks Kh 5c JK"``."""
    if not suited:
        return cards_text(counts)
    return " ".join(CODE_TOKENS[c] for c in _HAND_ORDER for _ in range(counts[c]))


def _row_text(cards: Iterable[int]) -> str:
    """Cards in order (a pile, a stock): ``"7h 10s JK"`` (kinds as :func:`sequence_text`)."""
    return " ".join(CODE_TOKENS[c] for c in cards)


def _sequence_cards(m: Meld) -> list[int]:
    """The card codes of the sequence meld ``m``, lowest first."""
    suit, low = seq_suit(m[0]), seq_low(m[0])
    return [card_code(r, suit) for r in range(low, low + m[1])]


def _suited_meld(text: str, path: str, R: Rules, error: Callable[[str, str], Exception]) -> list[int] | Meld:
    """A meld string of a variant with sequences: the card kinds of a group (a group keeps no
    suits: ``"7 7 7 JK"``; suits written on its naturals are dropped), or the core tuple of a
    sequence (``"5h 6h 7h"``: natural cards of one suit in consecutive ranks, samba 4.3, 4.4)."""
    codes = []
    for tok in text.split():
        low = tok.lower()
        code = _PARSE_CODE.get(low)
        if code is None:
            kind = _PARSE.get(low)
            if kind is None:
                raise error(path, f"{tok!r} is not a card: {_SUITED_HELP}")
            code = int(kind)
        codes.append(code)
    ranks = sorted({KIND_OF[c] for c in codes if c >= B3})
    if len(ranks) <= 1:
        return [KIND_OF[c] for c in codes]
    bad = f"{text!r} is not a valid meld in {R.variant.name}: "
    if any(c < N_KINDS for c in codes):
        if any(c < B3 for c in codes) or B3 in ranks or not R.suited:
            raise error(path, bad + "a group holds cards of one rank (and wild cards), a sequence natural "
                        "cards only: fours to aces of one suit, no wild card and no three")
        shown = " and ".join(CARD_NAMES_PLURAL[r] for r in ranks)
        raise error(path, f"{text!r} mixes {shown}: a group holds cards of one rank (and wild cards), "
                    "and a sequence is written with its cards' suits, lowest first, such as \"5h 6h 7h\"")
    suits = sorted({SUIT_OF[c] for c in codes})
    if len(suits) > 1:
        raise error(path, bad + "a sequence holds cards of one suit, this mixes "
                    + " and ".join(SUIT_NAMES[s] for s in suits))
    got = sorted(KIND_OF[c] for c in codes)
    if got != list(range(got[0], got[0] + len(got))):
        raise error(path, bad + "a sequence is cards of one suit in consecutive ranks (no gap, no rank "
                    "twice, no wrap-around from ace to four)")
    if got[0] < R.seq_lo or got[-1] > R.seq_hi:
        raise error(path, bad + f"a sequence runs from {CARD_NAMES[R.seq_lo]} up to {CARD_NAMES[R.seq_hi]}")
    # (melds.sequences.past_max_going_out, brazilian 4.2: longer in the turn its player goes out)
    most = R.seq_hi - R.seq_lo + 1 if R.seq_past_max else R.seq_max
    if not R.seq_min <= len(got) <= most:
        more = " (more only in the turn its player goes out)" if R.seq_past_max else ""
        raise error(path, bad + f"a sequence holds {R.seq_min} to {R.seq_max} cards{more}, this has {len(got)}")
    m = (seq_rank(suits[0], got[0]), len(got), 0, 0, 0)
    if len(got) <= R.seq_max and not R.valid(m):  # pragma: no cover - every reason is given above
        raise error(path, bad + "the rules do not allow it")
    return m


def _code_words(count: int, code: int) -> str:
    """``"1 seven of hearts"``, ``"3 sevens of hearts"``."""
    k = KIND_OF[code]
    return f"{count} {CARD_NAMES[k] if count == 1 else CARD_NAMES_PLURAL[k]} of {SUIT_NAMES[SUIT_OF[code]]}"


def _suited_counts(hands: Iterable[Sequence[int]], melds: Iterable[Iterable[Meld]], red_threes: Iterable[int],
                   loose: Iterable[int]) -> tuple[list[int], list[int]]:
    """Every card of a state of a variant with sequences: counts per kind (hands, melds, faced red
    threes, ``loose`` cards) and per suited code (the same but groups, which keep no suits)."""
    kind = [0] * N_KINDS
    code = [0] * N_CODES
    for h in hands:
        for k in range(N_KINDS):
            kind[k] += h[k]
        for c in range(N_KINDS, N_CODES):
            code[c] += h[c]
    for ms in melds:
        for m in ms:
            if m[0] >= SEQ:
                for c in _sequence_cards(m):
                    kind[KIND_OF[c]] += 1
                    code[c] += 1
                continue
            if m[0] != WILD_RANK:
                kind[m[0]] += m[1]
            kind[JK] += m[2]
            kind[TWO] += m[3]
            kind[R3] += m[4]
    kind[R3] += sum(red_threes)
    for c in loose:
        kind[KIND_OF[c]] += 1
        if c >= N_KINDS:
            code[c] += 1
    return kind, code


def _suited_mismatch(kind: list[int], code: list[int], R: Rules, deck_name: str, what: str,
                     missing: bool = True) -> list[str]:
    """As :func:`deck_mismatch` per kind, then each suited card more often than the deck has it
    (a suited card missing shows as its kind missing, or sits in a group, which keeps no suits)."""
    parts = deck_mismatch(kind, R.deck, deck_name, what, missing=missing)
    deck = R.deck_codes
    parts += [f"{_code_words(code[c] - deck[c], c)} too many: {deck_name} has {_code_words(deck[c], c)}, "
              f"{what} has {code[c]}" for c in range(N_KINDS, N_CODES) if code[c] > deck[c]]
    return parts


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


def _turn_doc(t: Turn, suited: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, kind in _TURN_KINDS.items():
        v = getattr(t, name)
        if kind == "cards":
            out[name] = _row_text(v)
        elif kind == "card":
            out[name] = None if v == -1 else CODE_TOKENS[v]
        elif kind == "hand":
            out[name] = None if v == () else _hand_text(v, suited)
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


def state_to_json(state: GameState, *, compact: bool = False) -> str:
    """``state`` in full as JSON text (see the module docs): :func:`state_from_json` gives back
    an equal state with the same history.

    ``compact=True``: a bundled variant played with the rules it is bundled with is saved as
    its name and its settings' hash (``"variant": "samba", "variant_hash": "..."``), not
    every setting (a fresh samba save shrinks from 5.5 KB to 1.4 KB); a house rule
    is still saved whole. Such a save loads only with a canasta that bundles the same rules
    for that variant: another hash is a :class:`StateError` saying so.

    The save holds the hidden cards (every hand, the stock in order) and the ``seed``, which
    decides every later deal: keep saves on the server, never send one to a client (send
    each seat its :func:`observation`).
    """
    _check_state(state)
    c = state._c
    suited = c.d.R.suited
    name = bundled_name(state.variant) if compact else None
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
        "hands": [_hand_text(h, suited) for h in state.hands],
        "down_hands": [_hand_text(h, suited) for h in state.down_hands],
        "melds": [[str(m) for m in side] for side in state.melds],  # a sequence by its cards: "5h 6h 7h"
        "red_threes": list(state.red_threes),
        "opened": list(state.opened),
        "melded": list(state.melded),
        "took_last": list(state.took_last),
        "stock": _row_text(state.stock),
        "pile": _row_text(state.pile),
        "frozen": state.frozen,
        "last_turns": state.last_turns,
        "active": list(state.active),
        "precise": list(state.precise),
        "turn": _turn_doc(state.turn, suited),
        "result": _result_doc(state.result),
        "winners": list(state.winners),
        "variant": variant_to_dict(state.variant) if name is None else name,
        "history": [str(a) for a in state.history],
        "history_seats": [None if seat < 0 else seat for seat in _history_seats(state)],
    }
    if name is not None:  # (written after variant, as the reader lists them)
        doc = {k: v for k, v in doc.items() if k not in ("history", "history_seats")}
        doc["variant_hash"] = settings_hash(state.variant)
        doc["history"] = [str(a) for a in state.history]
        doc["history_seats"] = [None if seat < 0 else seat for seat in _history_seats(state)]
    if any(c.aside):
        doc["black_threes_aside"] = list(c.aside)
    if c.turned & ((1 << FOOT) - 1):
        doc["had_turn"] = [bool((c.turned >> s) & 1) for s in range(state.players)]
    if c.buried:
        doc["pile_buried"] = c.buried
    if c.d.R.partner_down:
        doc["playing_foot"] = [bool((c.turned >> (FOOT + s)) & 1) for s in range(state.players)]
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


def _cards(text: str, path: str, suited: bool = False) -> list[int]:
    """The cards of a card string (already known to be a string): card kinds, or (``suited``)
    card codes, natural cards with their suits."""
    if suited:
        return _code_list(text, path, StateError)
    toks = text.split()
    try:
        return [_KIND[t] for t in toks]
    except KeyError:
        pass
    out = []
    for tok in toks:
        card = _PARSE.get(tok.lower())
        if card is None:
            raise StateError(path, f"{tok!r} is not a card: {_CARD_HELP}{_suit_hint(tok)}")
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
        if R.deuce and not R.valid((WILD_RANK, 0, m.jokers, m.twos, 0)):
            # italian 4.3: deuces are the meld's naturals, jokers its wild cards
            return (f"a meld of deuces holds {R.min_size} to {R.cs} cards, at least {R.min_nat} deuces and at "
                    f"most {R.max_wild} jokers")
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


def _read_meld(text: str, path: str, R: Rules) -> TableMeld:
    if R.suited:
        got = _suited_meld(text, path, R, StateError)
        if isinstance(got, tuple):
            return _table_meld(got)
        kinds = got
    else:
        kinds = _cards(text, path)
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


def _one_per_rank(melds: Sequence[TableMeld], R: Rules, path: Callable[[int], str],
                  error: Callable[[str, str], Exception]) -> None:
    """Refuse a side's second meld of a rank where the variant allows one: one meld per rank, or
    (``melds.new_after_canasta``) one that is not yet a closed canasta."""
    if R.multi:
        return
    seen: set[int] = set()
    for j, m in enumerate(melds):
        if m.rank in NATURAL_RANKS and R.blocks_new(meld_tuple(m)):
            if m.rank in seen:
                name = CARD_NAMES_PLURAL[m.rank]
                if R.new_after:
                    raise error(path(j), f"a second meld of {name} that is not a closed canasta: "
                                f"{R.variant.name} starts another meld of a rank only once the side's "
                                "earlier melds of it are closed canastas")
                raise error(path(j), f"a second meld of {name}: {R.variant.name} allows one meld per rank")
            seen.add(m.rank)


def _turn_doc_class() -> type:
    """The ``turn`` object of a state save: every field of :class:`Turn`, each required."""
    types: dict[str, Any] = {
        "cards": str, "card": Optional[str], "hand": Optional[str], "maybe_bool": Optional[bool],
        "bool": bool, "int": int, "ints": Annotated[tuple[int, ...], _Items("integers")],
    }
    return attrs.make_class("_TurnDoc", {name: attrs.field(type=types[kind]) for name, kind in _TURN_KINDS.items()},
                            frozen=True, kw_only=True)


_TurnDoc = _turn_doc_class()


def _read_turn(raw: Any, suited: bool) -> Turn:
    kw: dict[str, Any] = {}
    for name, kind in _TURN_KINDS.items():
        v, path = getattr(raw, name), f"turn.{name}"
        if kind == "cards":
            kw[name] = tuple(_cards(v, path, suited))
        elif kind == "card":
            if v is None:
                kw[name] = -1
            else:
                one = _cards(v, path, suited)
                if len(one) != 1:
                    raise StateError(path, f"expected one card or null, got {len(one)} cards")
                kw[name] = one[0]
        elif kind == "hand":
            kw[name] = () if v is None else _code_counts(_cards(v, path, suited), suited)
        elif kind == "int":
            kw[name] = _bounded(v, path, 0, None, StateError)
        else:
            kw[name] = v
    return Turn(**kw)


def _melds_before_problem(melds_before: int, side: int, laid: int) -> str:
    """Why ``turn.melds_before`` is refused: more melds than the acting side has (a retract
    takes back the melds laid after them, so they must exist)."""
    return (f"must be {laid} or less, not {melds_before}: it counts the melds side {side} had before this "
            f"turn, and it has {laid}")


@frozen(kw_only=True)
class _ItemDoc:
    """One score item of a saved hand result."""

    name: str
    count: int
    points: int


@frozen(kw_only=True)
class _ScoreDoc:
    """One side's score of a saved hand result."""

    side: int
    items: Annotated[tuple[_ItemDoc, ...], _Items("score items")]


@frozen(kw_only=True)
class _ResultDoc:
    """The ``result`` object of a state save."""

    went_out: Optional[int]
    concealed: bool
    reason: str
    scores: Annotated[tuple[_ScoreDoc, ...], _Items("score objects")]


def _read_result(raw: _ResultDoc, R: Rules) -> HandResult:
    went_out = None if raw.went_out is None else _bounded(raw.went_out, "result.went_out", 0, R.players - 1,
                                                          StateError)
    scores = []
    for i, sc in enumerate(raw.scores):
        at = f"result.scores.{i}"
        side = _bounded(sc.side, f"{at}.side", 0, R.n_sides - 1, StateError)
        if side != i:
            raise StateError(f"{at}.side", f"the scores are listed one per side, in side order: "
                             f"result.scores.{i} is side {i}, not {side}")
        items = tuple(ScoreItem(it.name, it.count, it.points) for it in sc.items)
        scores.append(HandScore(side, items))
    return HandResult(went_out=went_out, concealed=raw.concealed, scores=tuple(scores), reason=raw.reason)


_Ints = Annotated[tuple[int, ...], _Items("integers")]
_Flags = Annotated[tuple[bool, ...], _Items("true/false")]
_Seats = Annotated[tuple[int, ...], _Items("seats")]
_CardStrings = Annotated[tuple[str, ...], _Items("card strings")]


@frozen(kw_only=True)
class _StateDoc:
    """A state save's JSON object: every key required but ``history_seats``, in the order
    :func:`state_to_json` writes them."""

    format: Any  # checked to be "canasta-state"
    version: int
    players: int
    seed: int
    hand_number: int
    dealer: int
    phase: str
    current_player: Optional[int]
    totals: _Ints
    hands: _CardStrings
    down_hands: _CardStrings
    melds: Annotated[tuple[Annotated[tuple[str, ...], _Items("meld strings")], ...], _Items("lists of melds")]
    red_threes: _Ints
    opened: _Flags
    melded: _Flags
    took_last: _Flags
    stock: str
    pile: str
    frozen: bool
    last_turns: int
    active: _Seats
    precise: _Seats
    turn: _TurnDoc  # type: ignore[valid-type]
    result: Optional[_ResultDoc]
    winners: Annotated[tuple[int, ...], _Items("sides")]
    variant: Any  # a JSON object of settings, checked by the variant loader; or a bundled name
    variant_hash: Optional[str] = None  # (with a bundled variant's name) its settings' hash
    black_threes_aside: _Ints = ()
    had_turn: _Flags = ()
    playing_foot: _Flags = ()
    pile_buried: int = 0
    history: Annotated[tuple[str, ...], _Items("actions in notation")]
    history_seats: Optional[Annotated[tuple[Optional[int], ...],
                                      _Items("seats or null, one per history action")]] = None


_STATE_STYLE = _Style(StateError, lambda path: "a JSON object")


def _length(items: tuple[Any, ...], path: str, length: int, why: str) -> tuple[Any, ...]:
    if len(items) != length:
        raise StateError(path, f"expected {length} items ({why}), got {len(items)}")
    return items


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
        raw = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_bad_constant)
    except _Duplicate as e:
        raise StateError(e.key, "this key is given twice") from None
    except RecursionError:
        raise StateError("", "not a saved state: arrays or objects nested too deeply") from None
    except json.JSONDecodeError as e:
        if not text.strip():
            raise StateError("", "the save is empty: expected a JSON object") from None
        rest = text[e.pos:].rstrip()
        if (e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated string")
                or (rest and any(word.startswith(rest) for word in ("true", "false", "null")))):
            # (a JSON string cannot hold a line break, so an unterminated one runs to the end; a
            # literal cut short, "f" of false, is refused where it starts)
            raise StateError("", f"the save is cut short (truncated): the JSON text ends at line "
                             f"{e.lineno} column {e.colno} in the middle of a value ({e.msg})") from None
        raise StateError("", f"not valid JSON at line {e.lineno} column {e.colno}: {e.msg}") from None
    except ValueError as e:
        raise StateError("", f"not valid JSON: {e}") from None
    if not isinstance(raw, dict):
        raise StateError("", f"expected a JSON object of a saved state, got {_show(raw)}")
    doc: _StateDoc = _structure(raw, _StateDoc, _STATE_STYLE)
    if doc.format != _STATE_FORMAT:
        raise StateError("format", f"expected {_STATE_FORMAT!r} (a saved canasta state), got {_show(doc.format)}")
    if doc.version != _STATE_VERSION:
        raise StateError("version", f"this version of canasta reads saves of version {_STATE_VERSION}, "
                         f"not {doc.version}")

    variant = _read_variant_ref(doc.variant, doc.variant_hash, "a JSON object of settings", StateError)
    vname = variant.name
    players = doc.players
    if str(players) not in variant.tables:
        allowed = ", ".join(sorted(variant.tables, key=int))
        raise StateError("players", f"{vname} is played by {allowed} players, not {players}")
    R = rules_for(variant, players)
    n_sides = R.n_sides
    per_seat = f"one per seat: {players} players"
    per_side = f"one per side: {n_sides} sides at a {players}-player {vname} table"

    seed = _bounded(doc.seed, "seed", -_SEED_LIMIT, _SEED_LIMIT, StateError)
    hand_number = _bounded(doc.hand_number, "hand_number", 0, MAX_HAND_NUMBER, StateError)
    dealer = _bounded(doc.dealer, "dealer", 0, players - 1, StateError)
    totals = _length(doc.totals, "totals", n_sides, per_side)

    want_active = _active_seats(R, hand_number)
    active = doc.active
    if active != want_active:
        raise StateError("active", f"hand {hand_number + 1} of a {players}-player {vname} table is played "
                         f"by seats {_seats(want_active)} in that order, not {_seats(active) or 'none'}")

    suited = R.suited
    hands = []
    for key in ("hands", "down_hands"):
        seats = _length(getattr(doc, key), key, players, per_seat)
        hands.append([_code_counts(_cards(x, f"{key}.{s}", suited), suited) for s, x in enumerate(seats)])
    hands_, downs = hands
    for s in range(players):
        if s not in active and (any(hands_[s]) or any(downs[s])):
            key = "hands" if any(hands_[s]) else "down_hands"
            raise StateError(f"{key}.{s}", f"seat {s} sits out hand {hand_number + 1} (seats playing: "
                             f"{_seats(sorted(active))}): it holds no cards")
        if any(downs[s]) and not R.down_size:
            raise StateError(f"down_hands.{s}", f"{vname} deals no down hand")

    melds: list[tuple[TableMeld, ...]] = []
    for i, side in enumerate(_length(doc.melds, "melds", n_sides, per_side)):
        ms = tuple(_read_meld(t, f"melds.{i}.{j}", R) for j, t in enumerate(side))
        _one_per_rank(ms, R, lambda j: f"melds.{i}.{j}", StateError)
        melds.append(ms)
    # (a count of the deck's threes: at most as many as it has)
    red_threes = tuple(_bounded(x, f"red_threes.{i}", 0, R.deck[R3], StateError)
                       for i, x in enumerate(_length(doc.red_threes, "red_threes", n_sides, per_side)))
    opened = _length(doc.opened, "opened", n_sides, per_side)
    melded = _length(doc.melded, "melded", players, per_seat)
    took_last = _length(doc.took_last, "took_last", players, per_seat)
    aside = tuple(_bounded(x, f"black_threes_aside.{i}", 0, R.deck[B3], StateError) for i, x in
                  enumerate(_length(doc.black_threes_aside, "black_threes_aside", n_sides, per_side)
                            if doc.black_threes_aside else ()))
    had_turn = _length(doc.had_turn, "had_turn", players, per_seat) if doc.had_turn else ()
    playing_foot = _length(doc.playing_foot, "playing_foot", players, per_seat) if doc.playing_foot else ()
    stock = tuple(_cards(doc.stock, "stock", suited))
    pile = tuple(_cards(doc.pile, "pile", suited))
    buried = _bounded(doc.pile_buried, "pile_buried", 0, None, StateError)
    if buried and not R.buried:
        raise StateError("pile_buried", "the variant buries no cards under the upcard (its upcard.buried is "
                         "\"none\"): leave pile_buried out")
    if buried and buried >= len(pile):
        raise StateError("pile_buried", f"is {buried}, but the pile holds {len(pile)} cards and the top one "
                         f"(the upcard, or a discard on it) is face up: at most {max(0, len(pile) - 1)}")
    frozen_ = doc.frozen
    if not stock and R.last_round:
        last_turns = _bounded(doc.last_turns, "last_turns", -1, len(active), StateError)
    else:
        last_turns = doc.last_turns
        if last_turns != -1:
            why = ("the stock still has cards" if R.last_round
                   else f"{vname} has no last round when the stock runs out")
            raise StateError("last_turns", f"must be -1: {why}")

    # ---- phase, whose turn, turn record, result, winners
    phase_raw = doc.phase
    try:
        phase = Phase(phase_raw)
    except ValueError:
        names = [p.value for p in Phase]
        found = difflib.get_close_matches(phase_raw, names, n=1, cutoff=0.5)
        hint = f"did you mean {found[0]!r}? " if found else ""
        raise StateError("phase", f"unknown phase {phase_raw!r}: {hint}use one of {', '.join(names)}") from None
    over = phase in _OVER
    current = doc.current_player
    if over and current is not None:
        raise StateError("current_player", f"the hand is over (phase {phase.value}): nobody acts, "
                         f"so current_player must be null, not {current}")
    if not over:
        if current is None:
            raise StateError("current_player", f"phase {phase.value} needs a seat to act, not null "
                             "(only a hand that is over has nobody to act)")
        if current not in active:
            raise StateError("current_player", f"{current} is not a seat playing hand {hand_number + 1}: "
                             f"the seats playing are {_seats(sorted(active))}")
    turn = _read_turn(doc.turn, suited)
    if current is not None and turn.melds_before > len(melds[R.side_of[current]]):
        raise StateError("turn.melds_before", _melds_before_problem(turn.melds_before, R.side_of[current],
                                                                     len(melds[R.side_of[current]])))
    if over and turn != Turn():
        raise StateError("turn", f"the hand is over (phase {phase.value}): nobody has a turn, so every "
                         "turn field must be at its default")
    result = None
    if doc.result is not None:
        if not over:
            raise StateError("result", f"only a hand that is over has a result; phase is {phase.value}")
        result = _read_result(doc.result, R)
    winners = tuple(_bounded(x, f"winners.{i}", 0, n_sides - 1, StateError) for i, x in enumerate(doc.winners))
    if winners and phase is not Phase.GAME_OVER:
        raise StateError("winners", f"only a game that is over has winners; phase is {phase.value}")
    if len(set(winners)) != len(winners):
        raise StateError("winners", "a side is listed twice")
    precise = tuple(_bounded(x, f"precise.{i}", 0, players - 1, StateError) for i, x in enumerate(doc.precise))
    if list(precise) != sorted(set(precise)):
        raise StateError("precise", "list each dealer's seat once, in increasing order")

    # ---- history
    history: list[Action] = []
    space = space_of(R)
    for i, a in enumerate(doc.history):
        try:
            action = parse_action(a)
        except ActionParseError as e:
            raise StateError(f"history.{i}", str(e)) from None
        if action not in space:
            raise StateError(f"history.{i}", f"'{action}' is not an action of {vname}")
        history.append(action)
    history_seats: list[int] = []
    if doc.history_seats is None and "history_seats" in raw:
        raise StateError("history_seats", "expected a list of seats or null, one per history action, got null")
    if doc.history_seats is not None:
        if len(doc.history_seats) != len(history):
            raise StateError("history_seats", f"has {len(doc.history_seats)} entries; expected one per action "
                             f"of history ({len(history)})")
        for i, x in enumerate(doc.history_seats):
            if x is None:
                history_seats.append(-1)
                continue
            if not 0 <= x < players:
                raise StateError(f"history_seats.{i}", f"is {x}; expected a seat from 0 to {players - 1} "
                                 "or null (not known)")
            history_seats.append(x)

    # ---- every card of the deck exactly once
    loose = stock + pile + turn.pending + (3,) * sum(aside)
    if suited:
        per_kind, per_code = _suited_counts(hands_ + downs, [[meld_tuple(m) for m in ms] for ms in melds],
                                            red_threes, loose)
        parts = _suited_mismatch(per_kind, per_code, R, f"the {vname} deck for {players} players", "this state")
    else:
        have = card_totals(hands_, downs, melds, red_threes, loose)
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
        history_seats=tuple(history_seats), black_threes_aside=aside, turns_done=tuple(had_turn),
        pile_buried=buried,
        playing_down=tuple(playing_foot),
    )
    from ._playable import unplayable

    bad = unplayable(state)
    if bad is not None:
        kind, seat, problem = bad
        raise StateError(f"hands.{seat}" if kind == "hand" else "current_player" if kind == "no_action" else kind,
                         problem)
    return state
