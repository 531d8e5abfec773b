'''The game record's text format (TOML): :func:`dump_record` writes it, :func:`load_record`
reads it back.

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

Built on ``records``, ``reading`` and ``variant_ref``.
'''

from __future__ import annotations

import datetime
import tomllib
from typing import Annotated, Any, Optional

import tomli_w
from attrs import frozen

from .._bundled import bundled_name, settings_hash
from .._errors import ArgumentError, show
from .._newgame import new_game
from .._variant_load import variant_to_dict
from .reading import _bounded, _Items, _structure, _Style
from .records import _SEED_LIMIT, GameRecord, RecordError, _check_record
from .variant_ref import _read_variant_ref

_RECORD_VERSION = 1


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
