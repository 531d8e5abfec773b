"""Write the variant pages of the documentation from the bundled variant files.

Run by mkdocs-gen-files when the site is built (see mkdocs.yml): the pages are not committed,
so they always match the variant files and the schema. Run it directly to look at them:

    python docs/gen_variants.py              # list the pages it makes
    python docs/gen_variants.py --out DIR    # write them into DIR

One page per variant (``variants/<name>.md``): its description, source, what it extends,
the comment at the head of its file, and every setting of the fully resolved variant with the
comment that justifies it (a setting the file inherits shows the comment of the file it comes
from). ``variants/index.md`` compares the settings of all variants side by side.
``settings.md`` is the reference of every setting of the schema: its TOML key, type,
allowed values, default and meaning, read from the attrs classes of ``canasta/_variant.py`` and
``canasta/_variant_scoring.py``.

The settings come from :func:`canasta.load_variant` and ``canasta._variant_load.variant_to_dict``;
the comments and the meaning of each setting are read from the TOML files and from the
schema's attribute docstrings in ``canasta/_variant*.py``. Every ``*.toml`` file of
``variants/`` gets a page and a place in the navigation (after the comparison), so adding a
variant file needs no edit here nor in mkdocs.yml.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import tomllib
import typing
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "variants"

try:
    import canasta
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(ROOT))
    import canasta

import attrs

from canasta import _variant, _variant_load, _variant_scoring, _variant_terms
from canasta._variant_load import variant_to_dict

HEADER = "<!-- Generated at build time by docs/gen_variants.py from variants/*.toml. -->\n\n"

SECTION_TITLES = {
    "": "Players and seating",
    "tables": "Tables (by number of players)",
}


# ------------------------------------------------------------------ reading the TOML comments


class Notes:
    """The comments of one variant file, attached to the settings and tables they stand by."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.intro: list[str] = []
        self.keys: dict[str, list[str]] = {}
        self.tables: dict[str, list[str]] = {}
        self.set_keys: set[str] = set()
        """Every dotted key the file itself sets (with a comment or not)."""
        self.extends: str | None = tomllib.loads(path.read_text(encoding="utf-8")).get("extends")
        self._parse(path.read_text(encoding="utf-8").splitlines())

    def _parse(self, lines: list[str]) -> None:
        table = ""
        pending: list[str] = []
        seen_content = False
        i = 0
        while i < len(lines):
            line = lines[i].strip()
            i += 1
            if not line:
                if not seen_content and pending:
                    self.intro += pending + [""]
                    pending = []
                continue
            if line.startswith("#"):
                pending.append(line.lstrip("#").strip())
                continue
            if not seen_content:
                self.intro += pending
                pending = []
                seen_content = True
            header = re.fullmatch(r"\[([A-Za-z0-9_.\-]+)\]\s*(#.*)?", line)
            if header:
                table = header.group(1)
                note = pending + ([header.group(2).lstrip("#").strip()] if header.group(2) else [])
                if note:
                    self.tables.setdefault(_group(table), []).extend(note)
                pending = []
                continue
            key, _, rest = line.partition("=")
            key = key.strip()
            value, trailing = _split_comment(rest)
            # a multi-line value (a list written over several lines)
            while _open_brackets(value) > 0 and i < len(lines):
                more, more_comment = _split_comment(lines[i])
                value += more
                if more_comment:
                    trailing = f"{trailing} {more_comment}".strip()
                i += 1
            note = pending + ([trailing] if trailing else [])
            dotted = f"{table}.{key}" if table else key
            self.set_keys.add(dotted)
            if note:
                self.keys[dotted] = note
            pending = []
        self.intro = _trim(self.intro)


def _split_comment(text: str) -> tuple[str, str]:
    """A TOML line's value and its trailing comment (a ``#`` outside of strings)."""
    in_string: str | None = None
    for j, ch in enumerate(text):
        if in_string:
            if ch == in_string:
                in_string = None
        elif ch in "\"'":
            in_string = ch
        elif ch == "#":
            return text[:j], text[j + 1:].strip()
    return text, ""


def _open_brackets(value: str) -> int:
    return value.count("[") + value.count("{") - value.count("]") - value.count("}")


def _trim(lines: list[str]) -> list[str]:
    while lines and not lines[0]:
        lines = lines[1:]
    while lines and not lines[-1]:
        lines = lines[:-1]
    return lines


def _group(table: str) -> str:
    """The section a table belongs to: ``tables.4`` is in ``tables``."""
    return "tables" if table.startswith("tables.") or table == "tables" else table


# ------------------------------------------------------------------ the schema's own words


def source_docs() -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """(whole class docstrings, attribute docstrings by class and attribute) of the schema.

    Read with :mod:`ast` from ``canasta/_variant.py`` and ``canasta/_variant_scoring.py``: an
    attribute docstring is the string literal right after the annotated field.
    """
    trees = [ast.parse(Path(m.__file__).read_text(encoding="utf-8")) for m in (_variant, _variant_scoring)]
    attr_docs: dict[str, dict[str, str]] = {}
    class_docs: dict[str, str] = {}
    for node in (node for tree in trees for node in tree.body):
        if not isinstance(node, ast.ClassDef):
            continue
        class_docs[node.name] = ast.get_docstring(node) or ""
        docs: dict[str, str] = {}
        body = node.body
        for a, b in zip(body, body[1:]):
            if (isinstance(a, ast.AnnAssign) and isinstance(a.target, ast.Name)
                    and isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant)
                    and isinstance(b.value.value, str)):
                docs[a.target.id] = " ".join(b.value.value.split())
        attr_docs[node.name] = docs
    return class_docs, attr_docs


def schema_docs() -> tuple[dict[str, str], dict[str, str]]:
    """(class docstrings by section, attribute docstrings by dotted setting) from the schema."""
    full, attr_docs = source_docs()
    class_docs = {name: doc.split("\n\n")[0].replace("\n", " ") for name, doc in full.items()}

    sections: dict[str, str] = {}
    settings: dict[str, str] = {}

    def walk(cls: type, prefix: str) -> None:
        for f in attrs.fields(cls):
            key = _variant._key(f)
            path = f"{prefix}{key}"
            doc = attr_docs.get(cls.__name__, {}).get(f.name)
            if doc:
                settings[path] = doc
            if attrs.has(f.type) and f.type is not _variant.Step:
                sections[path] = class_docs.get(f.type.__name__, "")
                walk(f.type, path + ".")

    walk(_variant.Variant, "")
    sections["tables"] = class_docs.get("Table", "")
    for f in attrs.fields(_variant.Table):
        doc = attr_docs.get("Table", {}).get(f.name)
        if doc:
            settings[f"tables.*.{f.name}"] = doc
    return sections, settings


# ------------------------------------------------------------------ values


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Dotted keys to values; lists (of steps, of card classes) stay whole."""
    out: dict[str, Any] = {}
    for k, v in data.items():
        path = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(flatten(v, path + "."))
        else:
            out[path] = v
    return out


def show(value: Any) -> str:
    """A setting's value as it is written in TOML (compact)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        if value and isinstance(value[0], dict):
            if "from" in value[0]:
                return ", ".join(f"from {s['from']}: {s['need']}" for s in value)
            return ", ".join("{" + ", ".join(f"{k} = {show(v)}" for k, v in s.items()) + "}" for s in value)
        return "[" + ", ".join(show(v) for v in value) + "]"
    return str(value)


def cell(text: str) -> str:
    """Text made safe for a Markdown table cell; ``code`` (reST) becomes `code`."""
    text = re.sub(r"``(.+?)``", r"`\1`", text)
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append(part.replace("|", "\\|"))
        else:
            part = part.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*")
            out.append(part.replace("<", "&lt;").replace(">", "&gt;"))
    return "".join(out)


def code(value: Any) -> str:
    return f"`{show(value)}`".replace("|", "\\|")


def section_of(path: str) -> str:
    parts = path.split(".")
    if parts[0] == "tables":
        return "tables"
    if len(parts) == 1:
        return ""
    return ".".join(parts[:-1])


def setting_doc(path: str, docs: dict[str, str]) -> str:
    if path.startswith("tables."):
        return docs.get("tables.*." + path.split(".")[-1], "")
    return docs.get(path, "")


TABLE_COLUMNS = ("sides", "hand_size", "down_hand_size", "draw", "active")


def schema_order() -> dict[str, int]:
    """The position of each non-table setting in the schema (the order of the TOML files)."""
    default = _variant.Variant(name="order")
    flat = flatten({k: v for k, v in variant_to_dict(default).items() if k != "tables"})
    return {p: i for i, p in enumerate(flat)}


ORDER: dict[str, int] = {}


def sort_key(path: str) -> tuple[Any, ...]:
    parts = path.split(".")
    if parts[0] == "tables":
        return (1, int(parts[1]) if parts[1].isdigit() else 0, TABLE_COLUMNS.index(parts[2])
                if parts[2] in TABLE_COLUMNS else 99)
    return (0 if len(parts) == 1 else 2, ORDER.get(path, 10_000), path)


def table_summary(t: dict[str, Any]) -> str:
    """A table's settings in a few words: ``"ABAB", 11 cards, draw 1``."""
    text = f'"{t["sides"]}", {t["hand_size"]} cards'
    if t.get("down_hand_size"):
        text += f" + {t['down_hand_size']} down"
    text += f", draw {t['draw']}"
    if t.get("active"):
        text += f", {t['active']} play each deal"
    return text


# ------------------------------------------------------------------ pages


def load_all() -> dict[str, tuple[dict[str, Any], Notes]]:
    names = canasta.variant_names()
    files = sorted(p.stem for p in VARIANTS.glob("*.toml"))
    if list(names) != files:
        raise SystemExit(f"the package bundles {names}, but {VARIANTS} holds {files}")
    out = {}
    for name in names:
        variant = canasta.load_variant(VARIANTS / f"{name}.toml")
        out[name] = (variant_to_dict(variant), Notes(VARIANTS / f"{name}.toml"))
    return out


def note_for(name: str, path: str, everything: dict[str, tuple[dict[str, Any], Notes]]) -> str:
    """The comment for a setting: from this file, or from the file it is inherited from."""
    seen = set()
    current: str | None = name
    while current and current not in seen:
        seen.add(current)
        notes = everything[current][1]
        if path in notes.keys:
            text = " ".join(x for x in notes.keys[path] if x)
            return text if current == name else f"(from {link(current)}) {text}"
        if path in notes.set_keys:
            return ""
        current = notes.extends if notes.extends in everything else None
    return ""


def link(name: str) -> str:
    return f"[{name}]({name}.md)"


SOURCE_ENTRY = re.compile(r"(?P<title>.*?)\s*(?:\s[\u2014\u2013-]\s*)?(?P<url>https?://[^\s<>\"]+?)(?P<rest>[.,;:)]*(?:\s.*)?)")
"""One source of a ``source`` string: a title, a dash, the URL, then any remark (``... (mirror)``)."""


def sources(text: str) -> list[tuple[str, str, str]]:
    """The sources a variant's ``source`` string cites, as (title, URL, remark) each.

    The string gives each source as ``Title — URL`` (an en dash or a hyphen also works), and
    separates several sources with ``" ; "``. A source without a URL keeps its text as the title
    and an empty URL, so it is still shown.
    """
    out = []
    for entry in re.split(r"\s+;\s+", text.strip()):
        if not entry:
            continue
        m = SOURCE_ENTRY.fullmatch(entry)
        if m is None:
            out.append((entry, "", ""))
        else:
            title = m.group("title").strip() or m.group("url")
            out.append((title, m.group("url"), m.group("rest").strip()))
    return out


def source_markdown(text: str) -> str:
    """A ``source`` string as Markdown: each source's title linked to its URL."""
    parts = []
    for title, url, rest in sources(text):
        shown = cell(title)
        if url:
            shown = f"[{shown}]({url})"
        parts.append(f"{shown} {cell(rest)}".strip())
    return "; ".join(parts)


SOURCE_KEY = re.compile(r"([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)?):\s+(\S.*)")
"""A line of a file's head that names a source by its key (``BC: Bicycle, "Samba" -- URL``)."""
URL = re.compile(r"(https?://[^\s;)]+)")


def intro_markdown(lines: list[str]) -> str:
    """The comment at the head of a variant file as a Markdown quote; the sources it lists by
    key, one per line and continued on the lines after (``BC: Bicycle, "Samba" -- URL``), as a
    list with their addresses linked."""
    out: list[str] = []
    item: list[str] = []

    def flush() -> None:
        if item:
            text = cell(" ".join(item[1:])).replace(" -- ", " — ")
            if out and not out[-1].startswith("> - ") and out[-1] != ">":
                out.append(">")  # (a list begins after a blank line)
            out.append(f"> - **{item[0]}**: " + URL.sub(r"<\1>", text))
            item.clear()

    for x in lines:
        m = SOURCE_KEY.fullmatch(x)
        if m:
            flush()
            item.extend([m.group(1), m.group(2)])
        elif item and x:
            item.append(x)
        else:
            flush()
            out.append(f"> {cell(x)}" if x else ">")
    flush()
    return "\n".join(out)


def variant_page(name: str, everything: dict[str, tuple[dict[str, Any], Notes]],
                 sections: dict[str, str], docs: dict[str, str]) -> str:
    data, notes = everything[name]
    flat = flatten({k: v for k, v in data.items()
                    if k not in ("name", "description", "source", "tables")})
    out = [HEADER, f"# {name}\n\n"]
    if data.get("description"):
        out.append(f"{data['description']}.\n\n")
    facts = [f"**Load it:** `canasta.load_variant(\"{name}\")`"]
    if data.get("source"):
        cited = sources(data["source"])
        facts.append(f"**Source{'s' if len(cited) > 1 else ''}:** {source_markdown(data['source'])}")
    if notes.extends:
        facts.append(f"**Extends:** {link(notes.extends) if notes.extends in everything else notes.extends}"
                     " (settings not given in the file are inherited)")
    out.append("  \n".join(facts) + "\n\n")
    if notes.intro:
        out.append("## About this file\n\n")
        out.append(intro_markdown(notes.intro) + "\n\n")
    out.append("## Settings\n\n")
    out.append("Each value is the fully resolved setting; the note is the comment beside it in the "
               "variant file, quoting the source.\n\n")
    groups: dict[str, list[str]] = {}
    for path in sorted(flat, key=sort_key):
        groups.setdefault(section_of(path), []).append(path)
    order = [""] + [s for s in groups if s != ""]
    for section in order:
        if section not in groups:
            continue
        title = SECTION_TITLES.get(section, f"`[{section}]`")
        out.append(f"### {title}\n\n")
        if sections.get(section):
            out.append(f"{cell(sections[section])}\n\n")
        table_note = notes.tables.get(section)
        if table_note:
            out.append(f"> {cell(' '.join(x for x in table_note if x))}\n\n")
        out.append("| setting | value | note |\n|---|---|---|\n")
        for path in groups[section]:
            shown = path.removeprefix(section + ".") if section and section != "tables" else path
            meaning = setting_doc(path, docs)
            note = note_for(name, path, everything)
            text = cell(note) if note else ""
            if meaning:
                text = f"{text}<br>*{cell(meaning)}*" if text else f"*{cell(meaning)}*"
            out.append(f"| `{shown}` | {code(flat[path])} | {text} |\n")
        out.append("\n")
        if section == "":
            out.append(tables_section(name, data["tables"], everything, sections, docs))
    return "".join(out).rstrip() + "\n"


def tables_section(name: str, tables: dict[str, Any], everything: dict[str, tuple[dict[str, Any], Notes]],
                   sections: dict[str, str], docs: dict[str, str]) -> str:
    """The tables of a variant as one row per number of players, with the notes below."""
    notes = everything[name][1]
    out = [f"### {SECTION_TITLES['tables']}\n\n"]
    if sections.get("tables"):
        out.append(f"{cell(sections['tables'])} One `[tables.N]` per number of players allowed.\n\n")
    if notes.tables.get("tables"):
        out.append(f"> {cell(' '.join(x for x in notes.tables['tables'] if x))}\n\n")
    out.append("| players | " + " | ".join(f"`{c}`" for c in TABLE_COLUMNS) + " |\n")
    out.append("|---" * (len(TABLE_COLUMNS) + 1) + "|\n")
    remarks = []
    for n in sorted(tables, key=int):
        out.append(f"| {n} | " + " | ".join(code(tables[n][c]) for c in TABLE_COLUMNS) + " |\n")
        for c in TABLE_COLUMNS:
            note = note_for(name, f"tables.{n}.{c}", everything)
            if note:
                remarks.append(f"- `tables.{n}.{c}`: {cell(note)}\n")
    out.append("\n")
    if remarks:
        out.append("Notes:\n\n" + "".join(remarks) + "\n")
    meanings = [f"- `{c}`: {cell(docs['tables.*.' + c])}\n" for c in TABLE_COLUMNS if "tables.*." + c in docs]
    if meanings:
        out.append("Columns:\n\n" + "".join(meanings) + "\n")
    return "".join(out)


def index_page(everything: dict[str, tuple[dict[str, Any], Notes]], docs: dict[str, str]) -> str:
    names = list(everything)
    flats = {}
    for n, (d, _) in everything.items():
        flat = flatten({k: v for k, v in d.items() if k not in ("name", "description", "source", "tables")})
        flat.update({f"tables.{k}": table_summary(t) for k, t in d["tables"].items()})
        flats[n] = flat
    paths = sorted({p for f in flats.values() for p in f},
                   key=lambda p: (1, int(p.split(".")[1]), 0) if p.startswith("tables.") else sort_key(p))
    differ = [p for p in paths if len({show(flats[n].get(p, None)) for n in names}) > 1]
    same = [p for p in paths if p not in differ]
    out = [HEADER, "# Variants\n\n",
           "Every bundled variant, loadable by name with `canasta.load_variant(name)`. Each page "
           "lists every setting of the variant with the sentence of its source that justifies "
           "it.\n\n",
           "| variant | description | source |\n|---|---|---|\n"]
    for n in names:
        d = everything[n][0]
        out.append(f"| {link(n)} | {cell(d.get('description', ''))} | {source_markdown(d.get('source', ''))} |\n")
    header = "| setting | " + " | ".join(link(n) for n in names) + " |\n"
    header += "|---" * (len(names) + 1) + "|\n"
    out.append("\n## Settings that differ\n\n")
    out.append("`tables.N` is the table for N players: the seats' sides in seat order, the cards "
               "dealt to each, the cards drawn per turn. A dash means the variant does not allow "
               "that number of players.\n\n")
    out.append(header)
    for p in differ:
        row = [(cell(flats[n][p]) if p.startswith("tables.") else code(flats[n][p]))
               if p in flats[n] else "—" for n in names]
        out.append(f"| `{p}` | " + " | ".join(row) + " |\n")
    out.append("\n## Settings all variants share\n\n")
    out.append("| setting | value | meaning |\n|---|---|---|\n")
    for p in same:
        out.append(f"| `{p}` | {code(flats[names[0]][p])} | {cell(setting_doc(p, docs))} |\n")
    return "".join(out).rstrip() + "\n"


# ------------------------------------------------------------------ the settings reference

SETTINGS_HEADER = ("<!-- Generated at build time by docs/gen_variants.py from the schema in "
                   "canasta/_variant*.py. -->\n\n")

SPECIAL_DEFAULTS = {"name": "the file's name"}
"""Defaults the loader supplies where the schema has none (``load_variant`` names a file by its stem)."""


def toml_type(tp: Any) -> tuple[str, tuple[str, ...]]:
    """A schema type in TOML terms, and the values it allows when they are listed (``Literal``)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Literal:
        return "string", tuple(str(a) for a in args)
    if origin is tuple:
        item, allowed = toml_type(args[0])
        return f"list of {item}s", allowed
    if origin is dict:
        return f"table of {toml_type(args[1])[0]}s", ()
    if attrs.has(tp):
        return "table", ()
    names = {bool: "boolean", int: "integer", float: "float", str: "string"}
    if tp in names:
        return names[tp], ()
    raise SystemExit(f"docs/gen_variants.py: no TOML name for the schema type {tp!r}; add one to toml_type")


def toml_inline(value: Any) -> str:
    """A value written as TOML (inline tables and arrays)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_inline(v) for v in value) + "]"
    if isinstance(value, dict):
        items = [f"{k if re.fullmatch(r'[A-Za-z0-9_-]+', k) else toml_inline(k)} = {toml_inline(v)}"
                 for k, v in value.items()]
        return "{ " + ", ".join(items) + " }" if items else "{}"
    raise SystemExit(f"docs/gen_variants.py: cannot write {value!r} as TOML")


def allowed_text(tp: Any, a: attrs.Attribute[Any], listed: tuple[str, ...]) -> str:
    """The values a setting allows: the listed strings, or the bounds of a number (of each
    item of a list of numbers, and how many items), or the player counts of the tables."""
    parts = [", ".join(f'`"{v}"`' for v in listed)] if listed else []
    bounds = a.metadata.get("range")
    if bounds is not None:
        each = "each " if typing.get_origin(tp) is tuple else ""
        parts.append(f"{each}`{toml_inline(bounds[0])}` to `{toml_inline(bounds[1])}`")
    if "items" in a.metadata:
        parts.append(f"at most {a.metadata['items']} items")
    if typing.get_origin(tp) is dict:
        parts.append(f"keys `{_variant_terms.MIN_PLAYERS}` to `{_variant_terms.MAX_PLAYERS}` (players)")
    return "; ".join(parts)


def default_text(a: attrs.Attribute[Any]) -> str:
    """The default of a setting as a table cell: TOML code, or *required*."""
    default = a.default
    if default is attrs.NOTHING:
        special = SPECIAL_DEFAULTS.get(a.name)
        return special if special else "*required*"
    factory = getattr(default, "factory", None)
    if factory is not None:  # an attrs.Factory (the tables of a variant)
        default = factory()
    plain = _variant_load._plain(_variant_load._converter.unstructure(default))
    return f"`{toml_inline(plain)}`".replace("|", "\\|")


def prose(text: str) -> str:
    """A docstring (reST) as Markdown paragraphs; :class:`Name` links to the API reference."""
    paragraphs = [" ".join(p.split()) for p in text.split("\n\n") if p.strip()]
    out = cell("\n\n".join(paragraphs))

    def role(m: re.Match[str]) -> str:
        name = m.group(1)
        return f"[`{name}`][canasta.{name}]" if hasattr(canasta, name) else f"`{name}`"

    return re.sub(r":(?:class|func|meth|attr):`~?(?:canasta\.)?([A-Za-z_][A-Za-z0-9_.]*)`", role, out)


def settings_sections() -> list[tuple[str, str, list[tuple[str, str, str, str, str]]]]:
    """The settings reference: (section key, intro, rows of key, type, allowed, default, meaning).

    Everything comes from the schema: the attrs fields and their resolved types, the defaults,
    and the docstrings of the classes and their attributes. A setting without a docstring
    stops the generator, so the reference cannot be incomplete.
    """
    class_docs, attr_docs = source_docs()
    sections: list[tuple[str, str, list[tuple[str, str, str, str, str]]]] = []
    missing: list[str] = []

    def meaning(cls: type, name: str, key: str) -> str:
        doc = attr_docs.get(cls.__name__, {}).get(name, "")
        if not doc:
            missing.append(f"{cls.__name__}.{name} ({key})")
        return doc

    def row(key: str, tp: Any, a: attrs.Attribute[Any], doc: str) -> tuple[str, str, str, str, str]:
        kind, allowed = toml_type(tp)
        return (f"`{key}`", kind, allowed_text(tp, a, allowed), default_text(a), cell(doc))

    def section(cls: type, key: str) -> None:
        hints = typing.get_type_hints(cls, vars(_variant))
        prefix = f"{key}." if key else ""
        rows = []
        nested: list[tuple[type, str]] = []
        for a in attrs.fields(cls):
            tp = hints[a.name]
            path = prefix + _variant._key(a)
            origin, args = typing.get_origin(tp), typing.get_args(tp)
            if attrs.has(tp):
                nested.append((tp, path))
                continue
            doc = meaning(cls, a.name, path)
            if origin is tuple and attrs.has(args[0]):
                item = args[0]
                item_doc = " ".join(class_docs.get(item.__name__, "").split("\n\n")[0].split())
                rows.append(row(path, tp, a, f"{doc} Each item: {item_doc[:1].lower()}{item_doc[1:]}"
                                if item_doc else doc))
                item_hints = typing.get_type_hints(item, vars(_variant))
                for b in attrs.fields(item):
                    sub = f"{path}[].{_variant._key(b)}"
                    rows.append(row(sub, item_hints[b.name], b, meaning(item, b.name, sub)))
                continue
            rows.append(row(path, tp, a, doc))
            if origin is dict and attrs.has(args[1]):
                nested.append((args[1], f"{path}.N"))
        sections.append((key, prose(class_docs.get(cls.__name__, "")), rows))
        for sub_cls, sub_key in nested:
            section(sub_cls, sub_key)

    section(_variant.Variant, "")
    if missing:
        raise SystemExit("docs/gen_variants.py: these settings have no docstring in canasta/_variant*.py "
                         "(add one right after the field): " + ", ".join(missing))
    return sections


def settings_page() -> str:
    """``docs/settings.md``: every setting of the schema, section by section."""
    sections = settings_sections()
    out = [SETTINGS_HEADER, "# Variant settings\n\n",
           "Every key a variant file may set, section by section, generated from the schema in "
           "`canasta/_variant.py` and `canasta/_variant_scoring.py`: the key, its type in TOML, the values allowed where they are "
           "listed, the default (the value used when neither the file nor any file it extends "
           "sets the key) and what it does. A file may also name the variant it builds on with "
           "`extends`: see [House rules](house-rules.md). The values each bundled variant gives "
           "are compared in [Variants](variants/index.md).\n\n",
           "Every number has bounds, given under *allowed values* (for a list of numbers, the "
           "bounds of each item and the most items it may have). They are checked when the file "
           "is loaded, with the rules that relate settings to each other, and a file that breaks "
           "them is refused with a message naming the file, the key and the bounds: see "
           "[House rules](house-rules.md#errors).\n\n",
           "A key is written as its dotted path: `melds.max_wild` is `max_wild` in the `[melds]` "
           "table. `tables.N.draw` is `draw` in the table for N players (`[tables.4]`), and "
           "`initial_meld.steps[].from` is `from` in each item of the list "
           "`initial_meld.steps`.\n\n"]
    out.append("| section | settings |\n|---|---|\n")
    for key, _, rows in sections:
        title = f"`[{key}]`" if key else "top level"
        anchor = section_anchor(key)
        out.append(f"| [{title}](#{anchor}) | {len(rows)} |\n")
    out.append("\n")
    for key, intro, rows in sections:
        out.append(f"## {f'`[{key}]`' if key else 'Top level'} {{#{section_anchor(key)}}}\n\n")
        if intro:
            out.append(intro + "\n\n")
        out.append("| key | type | allowed values | default | description |\n|---|---|---|---|---|\n")
        for r in rows:
            out.append("| " + " | ".join(r) + " |\n")
        out.append("\n")
    return "".join(out).rstrip() + "\n"


def section_anchor(key: str) -> str:
    """A stable anchor for a section: ``going_out.concealed`` is ``going_out-concealed``."""
    return key.replace(".", "-").replace("_", "-").lower() if key else "top-level"


def pages() -> dict[str, str]:
    """Every generated page, by its path under ``docs/``: the comparison, one page per bundled
    variant (every ``variants/*.toml``, found by listing the folder) and the settings reference."""
    ORDER.update(schema_order())
    everything = load_all()
    sections, docs = schema_docs()
    out = {"variants/index.md": index_page(everything, docs)}
    for name in everything:
        out[f"variants/{name}.md"] = variant_page(name, everything, sections, docs)
    out["settings.md"] = settings_page()
    return out


def add_to_nav(nav: list[Any], variant_pages: list[str]) -> bool:
    """Put the variant pages in the site's navigation, right after ``variants/index.md``, each
    titled by its variant's name (``modern-american``).

    mkdocs.yml names only the comparison (``variants/index.md``) in its *Variants* section, so
    that a variant file added to ``variants/`` needs no edit there. Pages already in the
    navigation are left where they are. Returns whether ``variants/index.md`` was found.
    """
    for i, entry in enumerate(nav):
        if entry == "variants/index.md" or (isinstance(entry, dict) and "variants/index.md" in entry.values()):
            present = {e if isinstance(e, str) else next(iter(e.values())) for e in nav
                       if isinstance(e, (str, dict))}
            # titled by the variant's name (the page's heading), not by the file name, which
            # mkdocs would turn into "Modern american"
            nav[i + 1:i + 1] = [{Path(p).stem: p} for p in variant_pages if p not in present]
            return True
        children = next(iter(entry.values()), None) if isinstance(entry, dict) else None
        if isinstance(children, list) and add_to_nav(children, variant_pages):
            return True
    return False


def write() -> None:
    """Write the pages into the site being built (mkdocs-gen-files), and list them in the nav."""
    import mkdocs_gen_files

    generated = pages()
    for path, text in generated.items():
        with mkdocs_gen_files.open(path, "w") as f:
            f.write(text)
        mkdocs_gen_files.set_edit_path(path, "gen_variants.py")
    nav = mkdocs_gen_files.config.nav
    if nav is not None:
        variant_pages = [p for p in generated if p.startswith("variants/") and p != "variants/index.md"]
        if not add_to_nav(nav, variant_pages):
            raise SystemExit("docs/gen_variants.py: mkdocs.yml's nav has no variants/index.md "
                             "to put the variant pages after")


def main(argv: list[str] | None = None) -> int:
    """Print the generated pages' paths, or write the pages into a folder to look at them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", metavar="DIR", type=Path,
                        help="write the pages into DIR (DIR/variants/*.md, DIR/settings.md)")
    args = parser.parse_args(argv)
    generated = pages()
    for path, text in generated.items():
        if args.out is not None:
            target = args.out / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        print(f"{path}: {len(text)} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
elif __name__ == "<run_path>":  # run by mkdocs-gen-files during the build (see mkdocs.yml)
    write()
