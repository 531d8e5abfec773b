"""Reading a variant: a bundled variant by name, a TOML file by path (with the files it
``extends``), or plain data; and writing one back as plain data (:func:`variant_to_dict`).

Every problem is collected as ``file: key.path: message`` (unknown keys, wrong types, values out
of bounds, then the contradictions of ``_variant_checks``) and raised at once in a
:class:`VariantError`. Also where the bundled variant files are and their names. Built on
``_variant``, ``_variant_terms`` and ``_variant_checks``; built upon by ``_bundled`` and the
modules that load variants, and by ``_playable``, which registers the playing check of files here.
"""

from __future__ import annotations

import difflib
import importlib.resources
import os
import tomllib
from pathlib import Path
from typing import Any, Callable, Literal, Optional, get_args, get_origin

import attrs
import cattrs

from ._variant import Problem, Step, Variant, VariantError, _key
from ._variant_checks import check_variant
from ._variant_terms import MAX_FILE_BYTES, _bounds_text, _number, _table_key_problem, is_player_count

# ---------------------------------------------------------------- loading
#
# A file is first checked against the schema as raw TOML data (every problem collected with
# its dotted key path), then merged onto the variant it extends, then structured with cattrs
# (which cannot fail by then) and finally checked for contradictions by check_variant.

# A BaseConverter structures by introspection, without generating code: the raw check above
# has already reported every problem (unknown keys included) by key path, and the first load
# of a variant is several milliseconds faster than with a code-generating Converter.
_converter = cattrs.BaseConverter()
_converter.register_structure_hook(Step, lambda d, _: Step(d["from"], d["need"], tuple(d.get("canasta", ()))))
_converter.register_unstructure_hook(Step, lambda s: {"from": s.from_score, "need": s.need,
                                                      **({"canasta": list(s.canasta)} if s.canasta else {})})


def _keys(cls: type) -> list[str]:
    return [_key(a) for a in attrs.fields(cls)]


def _describe(tp: Any) -> str:
    """A type as a user reads it."""
    origin, args = get_origin(tp), get_args(tp)
    if attrs.has(tp):
        if tp is Step:
            return "a table like {from = 0, need = 50} (with, optionally, canasta = [\"natural\"])"
        return f"a table with keys {', '.join(_keys(tp))}"
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    if origin is tuple:
        return f"a list of {_describe(args[0]).removeprefix('a ').removeprefix('an ')}s" \
            if get_origin(args[0]) is not Literal and not attrs.has(args[0]) \
            else f"a list, each item {_describe(args[0])}"
    if origin is dict:
        return "a table keyed by player count, such as [tables.4]"
    return {bool: "true or false", int: "an integer", float: "a number", str: "a string"}.get(tp, str(tp))


def _show(value: Any) -> str:
    """A TOML value as the user wrote it, with its TOML type."""
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the integer {_number(value)}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _check_value(value: Any, tp: Any, path: str, out: list[tuple[str, str]], partial: bool,
                 meta: Any = None) -> None:
    """Append ``(key.path, message)`` for every way ``value`` does not fit type ``tp`` (and
    the bounds in ``meta``, the field's metadata, for a number or a list of numbers)."""
    origin, args = get_origin(tp), get_args(tp)
    meta = meta or {}
    if attrs.has(tp):
        if not isinstance(value, dict):
            out.append((path, f"expected {_describe(tp)}, got {_show(value)}"))
        else:
            _check_table(value, tp, path, out, partial)
    elif origin is Literal:
        if not isinstance(value, str) or value not in args:
            allowed = ", ".join(repr(a) for a in args)
            hint = _closest(value, [str(a) for a in args]) if isinstance(value, str) else ""
            out.append((path, f"{_show(value)} is not allowed{hint}; allowed: {allowed}"))
    elif origin is tuple:
        if not isinstance(value, list):
            out.append((path, f"expected {_describe(tp)}, got {_show(value)}"))
        elif "items" in meta and len(value) > meta["items"]:
            out.append((path, f"lists {len(value)} items; at most {meta['items']} are allowed"))
        else:
            item_meta = {"range": meta["range"]} if "range" in meta else None
            for i, item in enumerate(value):
                _check_value(item, args[0], f"{path}.{i}", out, partial=False, meta=item_meta)
    elif origin is dict:
        if not isinstance(value, dict):
            out.append((path, f"expected {_describe(tp)}, got {_show(value)}"))
        else:
            for k, item in value.items():
                if not is_player_count(k):
                    out.append((f"{path}.{k}", _table_key_problem(k)))
                else:
                    _check_value(item, args[1], f"{path}.{k}", out, partial)
    elif tp is bool:
        if not isinstance(value, bool):
            out.append((path, f"expected true or false, got {_show(value)}"))
    elif tp is int or tp is float:
        if isinstance(value, bool) or not isinstance(value, int if tp is int else (int, float)):
            out.append((path, f"expected {'an integer' if tp is int else 'a number'}, got {_show(value)}"))
        elif "range" in meta and not meta["range"][0] <= value <= meta["range"][1]:
            out.append((path, f"is {_number(value)}; {_bounds_text(meta, value)}"))
    elif tp is str:
        if not isinstance(value, str):
            out.append((path, f"expected a string, got {_show(value)}"))


def _check_table(data: dict[str, Any], cls: type, path: str, out: list[tuple[str, str]], partial: bool) -> None:
    fields = {_key(a): a for a in attrs.fields(cls)}
    where = (lambda k: f"{path}.{k}") if path else (lambda k: k)
    for k, value in data.items():
        a = fields.get(k)
        if a is None:
            names = list(fields) if path else ["extends", *fields]  # (a file may name the variant it extends)
            # a key that is exactly another table's name (scoring.going_out) points there first,
            # before a key of this table that merely looks like it (wild_canasta_going_out_only)
            other = _elsewhere(k, path)
            near = other if other.startswith(" (did you mean a key of") else (_closest(k, names) or other)
            out.append((where(k), f"unknown key{near}; "
                        f"allowed {'here' if path else 'at the top level'}: {', '.join(names)}"))
        else:
            _check_value(value, a.type, where(k), out, partial, a.metadata)
    # A partial table (a file that extends another) may leave out anything its parent gives;
    # a new entry of a keyed table (tables.N) may not, since nothing is merged into it.
    if not partial:
        for k, a in fields.items():
            if a.default is attrs.NOTHING and k not in data:
                out.append((where(k), f"required key is missing: expected {_describe(a.type)}"))


def _variants_dir() -> Path:
    here = Path(__file__).resolve().parent
    if (here / "_variants").is_dir():  # an installed package
        return here / "_variants"
    if (here.parent / "variants").is_dir() and (here.parent / "pyproject.toml").is_file():
        return here.parent / "variants"  # the source tree
    bundled = importlib.resources.files("canasta") / "_variants"  # pragma: no cover - not on disk
    return Path(str(bundled))  # pragma: no cover


_NAMES: list[tuple[str, ...]] = []


def variant_names() -> tuple[str, ...]:
    """The names of the bundled variants, sorted."""
    if not _NAMES:
        _NAMES.append(tuple(sorted(p.stem for p in _variants_dir().glob("*.toml"))))
    return _NAMES[0]


_BUNDLED: dict[str, Variant] = {}


def _bundled(name: str) -> Variant:
    """The bundled variant ``name`` (one of :func:`variant_names`), read and checked once per
    process: the bundled files do not change and a :class:`Variant` is immutable, so every
    load of it by name shares one object (a game started by name costs no reading). Raises
    :class:`VariantError` for a name that is not bundled."""
    hit = _BUNDLED.get(name)
    if hit is not None:
        return hit
    if name not in variant_names():
        raise VariantError([Problem(_short(name), "(name)", _unknown_name(name))])
    path, label = _variants_dir() / f"{name}.toml", f"{name}.toml"
    problems: list[Problem] = []
    raw = _read_chain(path, label, (), problems, partial=True)
    if raw is None or any(pr.key in ("extends", "(syntax)", "(file)") for pr in problems):
        raise VariantError(problems)
    raw.setdefault("name", name)
    variant = _BUNDLED[name] = _build(raw, label, problems)
    return variant


def _closest(word: str, options: list[str] | tuple[str, ...]) -> str:
    found = difflib.get_close_matches(word, list(options), n=1, cutoff=0.5)
    return f" (did you mean {found[0]!r}?)" if found else ""


def _schema_tables(cls: Optional[type] = None, path: str = "") -> list[tuple[str, list[str]]]:
    """Every table of the schema: (its dotted path, its keys), the top level first."""
    cls = cls or Variant
    out = [(path, _keys(cls))]
    for a in attrs.fields(cls):
        if isinstance(a.type, type) and attrs.has(a.type):
            out += _schema_tables(a.type, f"{path}.{_key(a)}" if path else _key(a))
    return out


def _elsewhere(word: str, path: str) -> str:
    """A pointer to the table where an unknown key ``word`` (of the table ``path``) belongs, when
    it names a setting of another table (``scoring.going_out`` for the ``[going_out]`` table's
    ``bonus``): " (did you mean [going_out]: canastas, bonus, ...?)", or ''."""
    tables = _schema_tables()
    for table, keys in tables:  # a table of that name elsewhere: its keys
        if table and table != path and table.rsplit(".", 1)[-1] == word:
            return f" (did you mean a key of the [{table}] table: {', '.join(keys)}?)"
    homes = [f"[{table}]" if table else "the top level" for table, keys in tables if table != path and word in keys]
    if homes:  # that very key in other tables
        return f" (did you mean {word!r} in {' or '.join(homes)}?)"
    return ""


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` on top of ``base``: tables merge key by key (also ``tables.N``), lists replace."""
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _looks_like_path(ref: str) -> bool:
    return ref.endswith(".toml") or "/" in ref or "\\" in ref


def _unknown_name(name: str) -> str:
    names = variant_names()
    return f"unknown variant {name!r}{_closest(name, names)}; bundled variants: {', '.join(names)}"


def _read_toml(path: Path, label: str, problems: list[Problem]) -> dict[str, Any] | None:
    """The TOML data of one file, or None after adding the reason it cannot be read to
    ``problems``: a file that cannot be opened, too large, not UTF-8 text, not TOML, or nested
    too deeply to parse."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        problems.append(Problem(label, "(file)", f"cannot read: {e.strerror or e}"))
        return None
    if len(data) > MAX_FILE_BYTES:
        problems.append(Problem(label, "(file)", f"larger than {MAX_FILE_BYTES // 1024} KiB: a variant file "
                                "gives a few dozen settings (the bundled files are about 10 KB)"))
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        problems.append(Problem(label, "(file)", f"not UTF-8 text: byte 0x{data[e.start]:02x} at line {line} "
                                f"(byte {e.start}); TOML files are UTF-8: save the file as UTF-8"))
        return None
    try:
        raw: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        problems.append(Problem(label, "(syntax)", f"not valid TOML: {e}"))
        return None
    except RecursionError:
        problems.append(Problem(label, "(syntax)", "lists or inline tables are nested too deeply to read; "
                                "no setting is nested more than two levels"))
        return None
    except ValueError as e:  # an integer of more than 4,300 digits (sys.int_info.str_digits_check_threshold)
        problems.append(Problem(label, "(syntax)", f"a value cannot be read: {e}"))
        return None
    return raw


def _read_chain(path: Path, label: str, seen: tuple[Path, ...], problems: list[Problem],
                partial: bool) -> dict[str, Any] | None:
    """The raw TOML of ``path`` merged onto everything it extends; problems are collected.

    Returns None when the file could not be read at all.
    """
    raw = _read_toml(path, label, problems)
    if raw is None:
        return None
    parent = raw.pop("extends", None)
    found: list[tuple[str, str]] = []
    _check_table(raw, Variant, "", found, partial=True)
    problems.extend(Problem(label, k, m) for k, m in found)
    if parent is None:
        return raw
    if not isinstance(parent, str):
        problems.append(Problem(label, "extends", f"expected a variant name or a path to a .toml file, "
                                f"got {_show(parent)}"))
        return raw
    if _looks_like_path(parent):
        if "\0" in parent:
            problems.append(Problem(label, "extends", "a path holds no NUL character"))
            return raw
        ppath = Path(parent) if Path(parent).is_absolute() else path.parent / parent
        plabel = _short(str(ppath))
        try:
            is_file = ppath.is_file()
            resolved = ppath.resolve()
        except (OSError, RuntimeError) as e:  # a name too long for the file system, a symlink loop
            problems.append(Problem(label, "extends", f"cannot read {plabel}: "
                                    f"{getattr(e, 'strerror', None) or e}"))
            return raw
        if not is_file:
            problems.append(Problem(label, "extends", f"no such file: {plabel} (a path is relative to "
                                    "the file that extends it)"))
            return raw
    elif parent in variant_names():
        ppath, plabel = _variants_dir() / f"{parent}.toml", f"{parent}.toml"
    else:
        problems.append(Problem(label, "extends", _unknown_name(parent)))
        return raw
    resolved = ppath.resolve()
    if resolved in seen + (path.resolve(),):
        chain = " -> ".join(p.name for p in seen + (path.resolve(), resolved))
        problems.append(Problem(label, "extends", f"extends itself in a loop: {chain}"))
        return raw
    base = _read_chain(ppath, plabel, seen + (path.resolve(),), problems, partial=True)
    if base is None:
        return raw
    base.pop("name", None)  # each file is named by its own name or its file name
    return _merge(base, raw)


def load_variant(source: str | os.PathLike[str]) -> Variant:
    """Load a bundled variant by name (``"bicycle"``) or a TOML file by path.

    A file may say ``extends = "NAME"`` (a bundled variant) or ``extends = "other.toml"`` (a
    path relative to the file) and give only the settings that differ. Every problem found, in
    the file and in the files it extends, is reported at once in a :class:`VariantError`. A
    bundled variant is read once per process: every load of it returns the same object.
    """
    if isinstance(source, str):
        hit = _BUNDLED.get(source)
        if hit is not None and not os.path.isfile(source):
            return hit  # a bundled variant by name, read before
    ref = source if isinstance(source, str) else os.fspath(source) if isinstance(source, os.PathLike) else None
    if not isinstance(ref, str):
        raise VariantError([Problem(repr(source)[:60], "(name)", "expected a bundled variant name or a path "
                                    f"to a .toml file (a str or a path), got {type(source).__name__}")])
    if not ref or "\0" in ref:
        raise VariantError([Problem(repr(ref)[:60], "(name)", "expected a bundled variant name or a path to "
                                    f"a .toml file; bundled variants: {', '.join(variant_names())}")])
    path = Path(ref)
    try:
        is_file = path.is_file()
    except OSError as e:  # a name too long for the file system, ...
        raise VariantError([Problem(_short(ref), "(file)", f"cannot read: {e.strerror or e}")]) from None
    if is_file:
        label = ref
        if path.resolve().parent == _variants_dir().resolve() and path.stem in variant_names():
            return _bundled(path.stem)  # the bundled file itself, by its path
    elif ref in variant_names():
        return _bundled(ref)
    elif _looks_like_path(ref):
        raise VariantError([Problem(_short(ref), "(file)", "no such file")])
    else:
        raise VariantError([Problem(_short(ref), "(name)", _unknown_name(ref))])
    problems: list[Problem] = []
    raw = _read_chain(path, label, (), problems, partial=True)
    if raw is None or any(pr.key in ("extends", "(syntax)", "(file)") for pr in problems):
        raise VariantError(problems)
    raw.setdefault("name", path.stem)
    variant = _build(raw, label, problems)
    for check in _FILE_CHECKS:  # the bundled variants are played by the test suite
        found = check(variant, label)
        if found:
            raise VariantError(found)
    return variant


def _short(text: str) -> str:
    """A file name or variant name for a message: at most 100 characters."""
    return text if len(text) <= 100 else f"{text[:60]}...{text[-30:]} ({len(text)} characters)"


def _build(raw: dict[str, Any], label: str, problems: list[Problem]) -> Variant:
    """Structure checked raw data; report ``problems`` and every further one at once.

    Settings already found wrong are left out (their defaults stand in) so that the
    contradiction checks still run on the rest of the file.
    """
    found: list[tuple[str, str]] = []
    _check_table(raw, Variant, "", found, partial=False)
    reported = {pr.key for pr in problems}
    problems = problems + [Problem(label, k, m) for k, m in found if k not in reported]
    for key in dict.fromkeys(pr.key for pr in problems):
        _drop(raw, key.split("."))
    try:
        variant = _converter.structure(_plain(raw), Variant)
    except Exception as e:  # noqa: BLE001 - the raw check should make this unreachable
        if problems:
            raise VariantError(problems) from None
        raise VariantError([Problem(label, "(root)", f"{type(e).__name__}: {e}")]) from None
    reported = {pr.key for pr in problems}
    problems += [pr for pr in check_variant(variant, label) if pr.key not in reported]
    if problems:
        raise VariantError(problems)
    return variant


def _drop(raw: dict[str, Any], parts: list[str]) -> None:
    """Remove the setting at a problem's key path (or the table holding a missing key)."""
    node: Any = raw
    trail: list[tuple[dict[str, Any], str]] = []
    for part in parts:
        if not isinstance(node, dict) or part not in node:
            break
        trail.append((node, part))
        node = node[part]
    if trail:
        container, key = trail[-1]
        del container[key]


def variant_to_dict(variant: Variant) -> dict[str, Any]:
    """The fully resolved settings as plain data (TOML-ready: lists, tables and scalars)."""
    plain: dict[str, Any] = _plain(_converter.unstructure(variant))
    return plain


def _plain(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_plain(v) for v in data]
    return data


def variant_from_dict(data: dict[str, Any], label: str = "(data)") -> Variant:
    """A variant from plain data such as :func:`variant_to_dict` gives, fully checked."""
    try:
        return _build(_plain(data), label, [])
    except RecursionError:
        raise VariantError([Problem(label, "(root)", "tables or lists are nested too deeply to read; no "
                                    "setting is nested more than three levels")]) from None


# ---------------------------------------------------------------- checks of the layers above

FileCheck = Callable[[Variant, str], list[Problem]]
"""A check of a variant file that loaded (its ``Variant`` and its label), answering problems."""

_FILE_CHECKS: list[FileCheck] = []


def add_file_check(check: FileCheck) -> None:
    """Run ``check`` on every variant file :func:`load_variant` loads that is not bundled, once
    its settings have passed the schema: the playing check of ``canasta._playable`` ("what
    validates, plays") registers itself here, so that the schema knows no game."""
    if check not in _FILE_CHECKS:
        _FILE_CHECKS.append(check)
