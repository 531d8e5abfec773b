"""Structured reading of a parsed document (TOML or JSON), in the words every reader shares.

The readers of records, state saves (and positions, in ``canasta._position``) describe the shape
of their documents as attrs classes (``_RecordDoc`` and so on) and structure the parsed TOML or
JSON into them with one cattrs converter, as the variant loader structures variant files:
unknown keys are refused, required keys must be there, scalars must have their exact type
(no ``"7"`` for 7, no ``true`` for 1) and lists must be lists. The first problem found is
reported as ``key.path: message``; what depends on several keys (bounds that depend on the
number of players, cards adding up to the deck, ...) is checked afterwards by the reader.

Built on nothing of canasta; built upon by every reader of ``canasta._files`` and by positions.
"""

from __future__ import annotations

import datetime
import difflib
from typing import Annotated, Any, Callable, Optional, get_args, get_origin

import attrs
import cattrs
from attrs import frozen
from cattrs.errors import AttributeValidationNote, ClassValidationError, ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn


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


def _bounded(value: int, path: str, low: Optional[int], high: Optional[int],
             error: Callable[[str, str], Exception]) -> int:
    """``value``, an integer already, if it is within the bounds; else ``error(path, ...)``."""
    if low is not None and value < low:
        raise error(path, f"must be {low} or more, not {_num(value)}")
    if high is not None and value > high:
        raise error(path, f"must be {high} or less, not {_num(value)}")
    return value


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
