"""Fuzzing the variant loader (issue 9, contracts 1 and 2): every shipped variant file, mutated.

Hypothesis mutates each file of ``variants/`` the ways a hand, an editor or a transfer breaks a
file: bytes flipped, inserted or deleted; a setting's value swapped for another type; huge,
negative and many-digit numbers; lists and inline tables nested thousands deep; table keys that
are not plain player counts ("04", "²", "٤", "４"); the text re-encoded (UTF-16, Latin-1, a
byte-order mark). The mutated file is loaded with :func:`canasta.load_variant` and:

* contract 1: only :class:`canasta.VariantError` may escape (a ``ValueError``; never an
  ``IndexError``, ``KeyError``, ``RecursionError``, ``OverflowError``, ``UnicodeDecodeError``
  ...), and every problem names the file, a key and a message;
* contract 2, "what validates, plays": a file that loads deals a game at every table it allows
  and plays a few random actions there, with a legal action for whoever is to act.

A last kind sets numbers to values within their documented bounds: many of those files load,
and must play. The fast default run tries :data:`FAST_EXAMPLES` mutations per kind (a few seconds in all); the
``slow`` run, in CI, :data:`SLOW_EXAMPLES`. Any failure prints the mutated file to reproduce.
"""

from __future__ import annotations

import ast
import random
import tomllib
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from canasta import Variant, VariantError, load_variant, new_game

REPO = Path(__file__).resolve().parent.parent
FILES = {p.stem: p.read_bytes() for p in sorted((REPO / "variants").glob("*.toml"))}
"""Every shipped variant file, by name."""

FAST_EXAMPLES = 12
"""Mutations per kind in the fast default run."""
SLOW_EXAMPLES = 200
"""Mutations per kind under the ``slow`` marker."""
ACTIONS = 25
"""Random actions played at each table of a file that loads."""

HUGE = [10 ** 30, -(10 ** 30), 2 ** 70, 2 ** 63, 2 ** 31, 10 ** 9, 100_000_000, -1, -(2 ** 63), 0,
        int("9" * 4000)]
"""Numbers a file may hold that no setting allows (the last: 4,000 digits)."""


def _paths(data: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every key path of the TOML data (tables, their keys, and list items by index)."""
    out = []
    if isinstance(data, dict):
        for k, v in data.items():
            out.append(prefix + (k,))
            out += _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.append(prefix + (str(i),))
            out += _paths(v, prefix + (str(i),))
    return out


def _set(data: Any, path: tuple[str, ...], value: Any) -> None:
    node = data
    for part in path[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    last = path[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def _toml(value: Any) -> str:
    """A value written as TOML (integers of any size, inline tables and arrays)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{_toml(str(k))} = {_toml(v)}" for k, v in value.items()) + "}"


def _dump(data: dict[str, Any]) -> bytes:
    """The data as TOML text: the top-level keys, then one ``[table]`` per table."""
    lines = [f"{_toml(k)} = {_toml(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for k, v in data.items():
        if isinstance(v, dict):
            lines.append(f"[{_toml(k)}]")
            lines += [f"{_toml(str(kk))} = {_toml(vv)}" for kk, vv in v.items()]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _data(name: str) -> dict[str, Any]:
    return tomllib.loads(FILES[name].decode("utf-8"))


# ---------------------------------------------------------------- the mutations


@st.composite
def byte_edits(draw: st.DrawFn) -> bytes:
    """Bytes flipped, inserted or deleted anywhere in a file."""
    data = bytearray(FILES[draw(st.sampled_from(sorted(FILES)))])
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data) - 1))
        kind = draw(st.sampled_from(["flip", "insert", "delete"]))
        if kind == "flip":
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        else:
            del data[at:at + draw(st.integers(1, 200))]
    return bytes(data)


VALUES = st.one_of(
    st.booleans(), st.integers(-(2 ** 70), 2 ** 70), st.sampled_from(HUGE),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.lists(st.integers(-5, 5), max_size=4), st.dictionaries(st.sampled_from(["a", "sides", "4"]),
                                                               st.integers(-5, 5), max_size=2),
)


@st.composite
def type_swaps(draw: st.DrawFn) -> bytes:
    """A setting's value (or a whole table) replaced by a value of another type or size."""
    data = _data(draw(st.sampled_from(sorted(FILES))))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(data)))
        _set(data, path, draw(VALUES))
    return _dump(data)


@st.composite
def huge_numbers(draw: st.DrawFn) -> bytes:
    """A number of the file replaced by a huge, negative or many-digit one, or one just past
    what is allowed."""
    data = _data(draw(st.sampled_from(sorted(FILES))))
    numeric = [p for p in _paths(data) if _is_int(data, p)]
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(numeric))
        _set(data, path, draw(st.one_of(st.sampled_from(HUGE), st.integers(-3, 130))))
    return _dump(data)


def _is_int(data: Any, path: tuple[str, ...]) -> bool:
    node = data
    for part in path:
        node = node[int(part)] if isinstance(node, list) else node[part]
    return isinstance(node, int) and not isinstance(node, bool)


@st.composite
def deep_nesting(draw: st.DrawFn) -> bytes:
    """A key given lists or inline tables nested up to thousands deep."""
    text = FILES[draw(st.sampled_from(sorted(FILES)))].decode("utf-8")
    depth = draw(st.sampled_from([2, 10, 100, 300, 1000, 5000]))
    key = draw(st.sampled_from(["deep", "default_players", "description"]))
    if draw(st.booleans()):
        value = "[" * depth + "1" + "]" * depth
    else:
        value = "{a = " * depth + "1" + "}" * depth
    lines = text.splitlines()
    first_table = next(i for i, ln in enumerate(lines) if ln.startswith("["))
    lines.insert(first_table, f"{key} = {value}")
    return "\n".join(lines).encode("utf-8")


TABLE_KEYS = ["04", "²", "٤", "４", "4.0", "-4", "0", "1", "13", "99999999999999999999", "four", "", " 4",
              "4 ", "+4", "0x4", "4e0", "ⅳ", "৪"]
"""Table keys that are not a player count written plainly (each once slipped through or crashed)."""


@st.composite
def table_keys(draw: st.DrawFn) -> bytes:
    """A ``[tables.N]`` whose key is not a plain player count from 2 to 12."""
    name = draw(st.sampled_from(sorted(FILES)))
    data = _data(name)
    tables = data.setdefault("tables", {})
    key = draw(st.sampled_from(TABLE_KEYS))
    tables[key] = {"sides": "ABAB", "hand_size": 11}
    text = _dump({k: v for k, v in data.items() if k != "tables"}).decode("utf-8")
    text += "".join(f"[tables.{_toml(str(k))}]\n" + "".join(f"{kk} = {_toml(vv)}\n" for kk, vv in t.items())
                    for k, t in tables.items())
    return text.encode("utf-8")


@st.composite
def encodings(draw: st.DrawFn) -> bytes:
    """A file in another encoding than UTF-8, with a byte-order mark, or cut in a character."""
    text = FILES[draw(st.sampled_from(sorted(FILES)))].decode("utf-8")
    text = text.replace('description = "', 'description = "Déjà vu, señor: ', 1)
    how = draw(st.sampled_from(["utf-16", "utf-16-le", "utf-32", "latin-1", "cp1252", "bom", "cut"]))
    if how == "bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8")
    if how == "cut":
        raw = text.encode("utf-8")
        at = raw.index("é".encode("utf-8")) + 1
        return raw[:at] + raw[at + 1:]
    return text.encode(how, errors="replace")


def _bounded() -> list[tuple[tuple[str, ...], Any, Any]]:
    """Every numeric setting of a section or of a table, with its documented bounds, from the
    schema's field metadata: (key path, low, high); ``N`` stands for a table's player count."""
    import attrs

    from canasta import _variant

    out = []

    def walk(cls: type, prefix: tuple[str, ...]) -> None:
        for f in attrs.fields(cls):
            key = prefix + (str(f.metadata.get("key", f.name)),)
            if attrs.has(f.type) and f.type is not _variant.Step:
                walk(f.type, key)
            elif "range" in f.metadata and f.type in (int, float):
                out.append((key, *f.metadata["range"]))

    walk(_variant.Variant, ())
    walk(_variant.Table, ("tables", "N"))
    return out


BOUNDED = _bounded()


@st.composite
def in_bounds(draw: st.DrawFn) -> bytes:
    """Numbers set to values within their documented bounds: many such files load, and then
    they must play (contract 2); the others are refused for a contradiction or a dead end."""
    name = draw(st.sampled_from(sorted(FILES)))
    data = _data(name)
    for _ in range(draw(st.integers(1, 3))):
        path, low, high = draw(st.sampled_from(BOUNDED))
        if path[:2] == ("tables", "N"):
            path = ("tables", draw(st.sampled_from(sorted(data.get("tables") or {"4": {}})))) + path[2:]
        value = draw(st.floats(low, high)) if isinstance(low, float) else draw(
            st.one_of(st.integers(low, min(high, low + 12)), st.integers(low, high)))
        node = data
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = value
    return _dump_tables(data)


def _dump_tables(data: dict[str, Any]) -> bytes:
    """:func:`_dump`, with one ``[tables.N]`` per table and ``[a.b]`` for a nested table."""
    lines = [f"{_toml(k)} = {_toml(v)}" for k, v in data.items() if not isinstance(v, dict)]

    def table(name: str, t: dict[str, Any]) -> None:
        lines.append(f"[{name}]")
        lines.extend(f"{_toml(str(k))} = {_toml(v)}" for k, v in t.items() if not isinstance(v, dict))
        for k, v in t.items():
            if isinstance(v, dict):
                table(f"{name}.{_toml(str(k))}", v)

    for k, v in data.items():
        if isinstance(v, dict):
            table(_toml(k), v)
    return ("\n".join(lines) + "\n").encode("utf-8")


KINDS: dict[str, Callable[[], st.SearchStrategy[bytes]]] = {
    "in_bounds": in_bounds,
    "byte_edits": byte_edits, "type_swaps": type_swaps, "huge_numbers": huge_numbers,
    "deep_nesting": deep_nesting, "table_keys": table_keys, "encodings": encodings,
}


# ---------------------------------------------------------------- the contract


def check_file(tmp_path: Path, content: bytes) -> Variant | None:
    """Load ``content`` as a variant file: it loads and plays, or raises a VariantError whose
    every problem names the file, a key and a message. Returns the variant, or None."""
    path = tmp_path / "mutated.toml"
    path.write_bytes(content)
    try:
        variant = load_variant(path)
    except VariantError as e:
        assert e.problems, "a VariantError without problems"
        for problem in e.problems:
            assert problem.file == str(path) or problem.file.endswith(".toml"), problem
            assert problem.key and problem.message, problem
            assert "Traceback" not in problem.message
        first = e.problems[0]  # (a problem of the whole file, "(file)", names no key: issue 30)
        assert str(e).startswith(f"{first.file}: {first.message}" if first.key.startswith("(")
                                 else f"{first.file}: {first.key}: ")
        return None
    assert isinstance(variant, Variant)
    for key in variant.tables:
        plays(variant, int(key))
    return variant


def plays(variant: Variant, players: int) -> None:
    """A game at this table deals, and a few random actions apply, someone always able to act."""
    state = new_game(variant, players, seed=7)
    rng = random.Random(7)
    for _ in range(ACTIONS):
        legal = state.legal_actions()
        if not legal:
            assert state.is_hand_over, f"{players} players: seat {state.current_player} has no action"
            break
        state = state.apply(rng.choice(legal))


FAST = settings(max_examples=FAST_EXAMPLES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large, HealthCheck.filter_too_much])
SLOW = settings(FAST, max_examples=SLOW_EXAMPLES, derandomize=False)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_mutated_variant_files_load_or_are_refused(kind: str, tmp_path: Path) -> None:
    """Contracts 1 and 2 over :data:`FAST_EXAMPLES` mutations of each kind (derandomized, so
    the fast run is the same every time)."""

    @FAST
    @given(KINDS[kind]())
    def run(content: bytes) -> None:
        check_file(tmp_path, content)

    run()


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_mutated_variant_files_load_or_are_refused_thoroughly(kind: str, tmp_path: Path) -> None:
    """Contracts 1 and 2 over :data:`SLOW_EXAMPLES` random mutations of each kind."""

    @SLOW
    @given(KINDS[kind]())
    def run(content: bytes) -> None:
        check_file(tmp_path, content)

    run()


# ---------------------------------------------------------------- the cases of issue 9


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("key", ["²", "04", "٤", "４"])
def test_a_table_key_must_be_a_plain_player_count(tmp_path: Path, key: str) -> None:
    """Issue 9: the key "²" crashed, and "04", "٤" and "４" were taken as 4. Now each is refused
    at its key, saying how to write a player count."""
    path = _write(tmp_path, f'extends = "wikipedia"\n[tables."{key}"]\nsides = "ABAB"\n')
    with pytest.raises(VariantError) as info:
        load_variant(path)
    [problem] = info.value.problems
    assert (problem.file, problem.key) == (str(path), f"tables.{key}")
    assert problem.message == (f"the key {key!r} is not a player count: write the number of players, "
                               "2 to 12, in plain digits without a leading zero, such as [tables.4]")


@pytest.mark.parametrize(("setting", "value", "message"), [
    ("black_threes.max", "100000000", "is 100000000; must be 3 to 48"),
    ("deck.packs", "1000000", "is 1000000; must be 0 to 24"),
    ("deck.jokers_per_pack", str(2 ** 70), "is 118059... (22 digits); must be 0 to 4"),
    ("game.target", "9" * 4000, "is 999999... (4000 digits); must be 0 to 1000000"),
    ("melds.min_size", "2", "is 2; a meld needs at least 3 cards (3 to 20)"),
    ("deal.precise_draw_probability", "nan", "is nan; must be 0.0 to 1.0"),
])
def test_numbers_have_bounds(tmp_path: Path, setting: str, value: str, message: str) -> None:
    """Issue 9: black_threes.max = 100000000 made new_game hang, packs = 1000000 was accepted,
    jokers = 2**70 gave OverflowError, 5,000-digit integers were accepted. Every number has
    bounds (docs/settings.md), checked at load time, the message giving them."""
    section, key = setting.split(".")
    path = _write(tmp_path, f'extends = "bicycle"\n[{section}]\n{key} = {value}\n')
    with pytest.raises(VariantError) as info:
        load_variant(path)
    assert [(p.key, p.message) for p in info.value.problems] == [(setting, message)]


def test_a_deck_of_more_than_24_packs_is_refused(tmp_path: Path) -> None:
    """Bounds of settings combined: packs + packs_per_player x players is at most 24."""
    path = _write(tmp_path, 'extends = "new-canasta"\n[deck]\npacks = 10\npacks_per_player = 2\n')
    with pytest.raises(VariantError) as info:
        load_variant(path)
    assert [p.key for p in info.value.problems] == ["deck"] * 3   # 8, 9 and 10 players
    assert info.value.problems[0].message == ("gives 26 packs at the table of 8 (deck.packs + "
                                              "deck.packs_per_player x 8); at most 24 are allowed")


@pytest.mark.parametrize(("content", "key", "start"), [
    (b'description = "D\xe9j\xe0"\n', "(file)", "not UTF-8 text: byte 0xe9 at line 1 (byte 16)"),
    ("a = " + "[" * 2000 + "]" * 2000, "(syntax)", "lists or inline tables are nested too deeply"),
    ("a = " + "{b = " * 2000 + "1" + "}" * 2000, "(syntax)", "lists or inline tables are nested too deeply"),
    ("[game]\ntarget = " + "9" * 5000, "(syntax)", "a value cannot be read: Exceeds the limit"),
    (b"x" * (canasta._variant_terms.MAX_FILE_BYTES + 1), "(file)", "larger than 1024 KiB"),
])
def test_unreadable_files_are_problems(tmp_path: Path, content: bytes | str, key: str, start: str) -> None:
    """Issue 9: a non-UTF-8 file gave a bare UnicodeDecodeError, deep nesting RecursionError.
    Each is now a problem of the file, saying what is wrong."""
    path = tmp_path / "house.toml"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    with pytest.raises(VariantError) as info:
        load_variant(path)
    [problem] = info.value.problems
    assert problem.key == key and problem.message.startswith(start), problem


def test_what_validates_plays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 9, contract 2, and issue 20: load_variant plays a few seeded random deals of every
    table of a file, as a net behind the schema's checks, and reports a dead end as a problem of
    the table (here an engine made to offer nothing; the dead end issue 9 found, wikipedia with a
    down hand of one card, now plays: tests/test_fuzz_house_rules.py)."""
    path = _write(tmp_path, 'extends = "wikipedia"\n[tables.4]\ndown_hand_size = 1\n')
    assert load_variant(path).table(4).down_hand_size == 1
    monkeypatch.setattr(canasta.GameState, "legal_actions", lambda self: [])
    path = _write(tmp_path, 'extends = "wikipedia"\n[game]\ntarget = 4000\n')
    with pytest.raises(VariantError) as info:
        load_variant(path)
    [problem] = info.value.problems
    assert problem.key == "tables.4"
    assert problem.message.startswith("cannot be played: in a random deal (seed 0), after 0 actions")
    assert "is to act (draw) with no legal action" in problem.message


def test_the_bundled_variants_are_not_played_at_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bundled variants load without the playing check (the suite plays them), so that
    ``new_game("bicycle")`` stays fast; a file extending one is checked."""
    played: list[str] = []
    real = canasta._playable._play
    monkeypatch.setattr(canasta._playable, "_play", lambda v: played.append(v.name) or real(v))
    for name in canasta.variant_names():
        v = load_variant(name)
        # by path: the package's own files (in an installed package, not the source tree's)
        assert load_variant(canasta._variant_load._variants_dir() / f"{name}.toml") is v
        assert load_variant(name) is v  # read once: the bundled variants are cached
    assert played == []


def test_the_schema_knows_no_game() -> None:
    """Issue 19: the variant schema imports nothing of the game; the playing check of files is
    the layer above's (``canasta._playable``), registered with the loader."""
    trees = [ast.parse(path.read_text()) for path in sorted((REPO / "canasta").glob("_variant*.py"))]
    imported = {(node.module or "").split(".")[0] for tree in trees for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom)}
    assert not imported & {"_state", "_core", "_playable", "_position", "_files"}, imported
    assert canasta._playable.play_problems in canasta._variant_load._FILE_CHECKS


def test_bad_sources_are_variant_errors() -> None:
    """Contract 1: load_variant of something that is not a name or a path, an empty name, a
    NUL character or a name too long for the file system: a VariantError naming it."""
    for source, key in [(None, "(name)"), (42, "(name)"), (b"bicycle", "(name)"), ("", "(name)"),
                        ("bi\0cycle", "(name)"), ("a" * 5000 + ".toml", "(file)")]:
        with pytest.raises(VariantError) as info:
            load_variant(source)  # type: ignore[arg-type]
        assert [p.key for p in info.value.problems] == [key], source
