"""The append-only game log: a record as one line of JSON for the game's start, then one line
per move (:func:`dump_log`, :func:`load_log`), for a server that saves after every move.

Built on ``records``, ``reading`` and ``variant_ref``; built upon by ``recorder`` (whose
``log`` writes it as the game is played).
"""

from __future__ import annotations

import datetime
import json
from typing import Any, Optional

from .._bundled import bundled_name, settings_hash
from .._errors import ArgumentError, show
from .._variant_load import variant_to_dict
from .reading import _bad_constant, _bounded, _Duplicate, _no_duplicates, _show
from .records import _SEED_LIMIT, GameRecord, RecordError, _check_record
from .variant_ref import _read_variant_ref


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
